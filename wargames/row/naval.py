"""Vietnam: Rumor of War, naval power (ROW-11.0): the 7th Fleet at Yankee or Dixie Station.

A scenario brings the fleet in with a ``fleet:`` block (``airdata.FleetBlock``); without one (A Year in I Corps,
special rule ``navy_not_in_play``, decision R-SCN-09) the fleet stays at Yankee and bombardment reaches any combat
within 2 hexes of the sea, as before.  With it:

* B1 (11.1): the Capitalist puts the fleet in the Yankee or the Dixie Station box (a Decision each season);
* bombardment (11.2, 5.3.1): the US Navy Bombardment level (changed only by the scenario's chart) supports a
  Capitalist combat whose hex lies within 2 hexes of an all-sea hex of the fleet's own sea zone (Yankee: on or
  north of the Station line; Dixie: south of it; decision R-NAV-02 after digest 9 no. 50);
* naval aircraft (11.4): the carriers are an improved airfield for any number of Navy aircraft; strategic missions
  only from Yankee Station (``air.AirMixin._fields_for``).

Rules: ROW-11.0, ROW-11.1, ROW-11.2, ROW-11.3 (ROW-11.3.1 superseded), ROW-11.4; ROW-11.5 not modelled.
Amphibious landings are the ground war's 14.1.3 move (``ground_moves``; decision R-NAV-03); riverine units
(11.5, 14.1.4) are not in any scenario yet (R-NAV-04).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .airdata import aircraft_counters
from .pieces import CAPITALIST, COMMUNIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

STATIONS = ("Yankee", "Dixie")
RANGE = 2  # hexes from an all-sea hex of the fleet's zone (11.2, 5.3.1)
STATION_LAT = 14.5  # the Station line (data/row/map/areas.csv station_line, R-MAP-12)


class NavalMixin:
    """The 7th Fleet procedures of :class:`RowGame` (ROW-11.0); the station is ``self.airwar['station']``."""

    def fleet_on(self: RowGame) -> bool:
        return self.scenario.fleet is not None

    def fleet_reaches(self: RowGame, hid: str) -> bool:
        """ROW-11.2 / ROW-5.3.1: the fleet's bombardment reaches ``hid`` (an all-sea hex of its station's zone within
        2 hexes)."""
        st = self.airwar["station"]
        return any(self.map.is_sea(h) and self.map.station(h) == st for h in self.map.within(hid, RANGE))

    def fleet_zone(self: RowGame, hid: str) -> str:
        """ROW-11.4: which side of the Station line ``hid`` lies on (Yankee: on or north of it)."""
        st = self.map.station(hid)
        return st if st else ("Yankee" if self.map.hex(hid).lat >= STATION_LAT else "Dixie")

    def navy_may_fly_at(self: RowGame, aircraft: str, hid: str) -> bool:
        """ROW-11.4: a Navy aircraft flies tactical missions only on its station's side of the Station line."""
        if aircraft_counters()[aircraft].service != "Navy":
            return True
        return "station" in self.airwar and self.fleet_zone(hid) == self.airwar["station"]

    def fleet_move(self: RowGame):
        """ROW-11.1 (B1): the Capitalist puts the 7th Fleet in the Yankee or the Dixie Station box (free)."""
        now = self.airwar["station"]
        a = yield self.decide(
            CAPITALIST,
            f"7th Fleet: which Station box this season? (now {now})",
            "ROW-11.1",
            [
                Action.make("fleet_station", f"{s} Station" + (" (stay)" if s == now else ""), station=s)
                for s in STATIONS
            ],
            kind="fleet_station",
        )
        self.airwar["station"] = a["station"]
        self._touch()
        navy = (
            [x for x in self._craft(CAPITALIST) if aircraft_counters()[x].service == "Navy"]
            if self.air_on()
            else []
        )
        yield self.ruling(
            "ROW-11.1",
            "Fleet redeployment",
            "The 7th Fleet "
            + ("stays" if a["station"] == now else "moves")
            + f" in the {a['station']} Station box: bombardment "
            f"({self.pools['US Navy Bombardment']}) reaches combats within {RANGE} hexes of its sea zone"
            + ("; Navy aircraft may fly strategic missions" if a["station"] == "Yankee" and navy else "")
            + ".",
            result={"station": a["station"], "from": now},
        )

    def fleet_bot_station(self: RowGame) -> tuple[str, str]:
        """The built-in player's station (a reason with it): the zone with more Communist units within reach of its
        sea; Yankee at a tie or when Navy aircraft want strategic missions."""
        count = {s: 0 for s in STATIONS}
        for u, h in self.pos.items():
            if self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit":
                for s in STATIONS:
                    if any(
                        self.map.is_sea(x) and self.map.station(x) == s for x in self.map.within(h, RANGE)
                    ):
                        count[s] += 1
        pick = "Dixie" if count["Dixie"] > count["Yankee"] else "Yankee"
        return pick, (
            f"{count[pick]} Communist units stand within bombardment range of the {pick} zone "
            f"(against {count['Dixie' if pick == 'Yankee' else 'Yankee']} of the other)"
        )

    def fleet_redeployment(self: RowGame):
        if self.fleet_on():
            return (yield from self.fleet_move())
        yield self.ruling(
            "ROW-11.1",
            "Fleet redeployment: not in this scenario",
            "The 7th Fleet stays at Yankee "
            f"Station (special rule navy_not_in_play, R-SCN-09); naval bombardment stays at "
            f"{self.pools['US Navy Bombardment']}.",
            result={"station": "Yankee"},
        )
