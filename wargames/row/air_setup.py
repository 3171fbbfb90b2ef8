"""Vietnam: Rumor of War, the air war's set-up and A3 (ROW-10.1, 10.2): the Air Display placed, aircraft back to
Available, the chart's aircraft, airfields, SAMs and ARMs, aces (10.3.6), airfield repair and improvement (7.1a,
R-AIR-09), airfields overrun (10.1, R-AIR-10) and damaged aircraft repaired (table 4.9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from ..core.rulings import Lookup
from .air_common import (
    AIR_TRACK,
    IMPROVE_COST,
    REPAIR_COST,
    SUPPLY_TRACK,
)
from .airdata import (
    aces,
    aircraft_counters,
    aircraft_types,
    airfields,
    mission_boxes,
    repair_table,
)
from .control import capitalist_controlled
from .pieces import CAPITALIST, COMMUNIST
from .supply import change

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class AirSetupMixin:
    """The air setup procedures of :class:`RowGame`."""

    def air_setup(self: RowGame):
        """ROW-10.1 / ROW-11.1 (set-up): the scenario's Air Display (aircraft, airfields, SAMs, ARMs) and the 7th
        Fleet's station box.  Nothing at all without ``air:`` / ``fleet:`` blocks."""
        sc, fl = self.scenario.air, self.scenario.fleet
        if fl is not None:
            self.airwar["station"] = fl.station
        if sc is None:
            if fl is not None:
                yield self.ruling(
                    "ROW-11.1",
                    "The 7th Fleet",
                    f"The 7th Fleet starts in the {fl.station} Station box.",
                    result={"station": fl.station},
                )
            return
        self.airwar.update(
            {
                "aircraft": {},
                "airfields": {},
                "sams": sc.sams,
                "arms": sc.arms,
                "aces": {},
                "aew": False,
                "secret": "",
                "interdicted": [],
                "free_unrestricted": sc.free_unrestricted,
            }
        )
        for p in sc.aircraft:
            self.airwar["aircraft"][p.id] = {
                "box": p.box,
                "reduced": p.reduced,
                "airfield": "",
                "restricted": False,
                "ace": "",
            }
        for f in sc.airfields:
            self.airwar["airfields"][f.id] = {"improved": f.improved, "damaged": f.damaged}
        self._touch()
        yield self.ruling(
            "ROW-10.1",
            "The Air Display",
            f"{len(sc.aircraft)} aircraft and {len(sc.airfields)} "
            f"airfields are set up; {sc.sams} SAMs in the SAM box, {sc.arms} Anti-Radiation Missiles"
            + (f"; the 7th Fleet in the {fl.station} Station box" if fl else "")
            + ".",
            result={
                "aircraft": [p.id for p in sc.aircraft],
                "airfields": [f.id for f in sc.airfields],
                "sams": sc.sams,
                "arms": sc.arms,
            },
        )

    def air_reinforcement(self: RowGame):
        """ROW-10.1 / ROW-10.2 (A3): the air war's housekeeping at the start of a season (see the module docstring):
        aircraft back from the mission boxes, the chart's arrivals and withdrawals, aces, airfields overrun and
        worked on, damaged aircraft repaired."""
        yield from self._aircraft_return()
        yield from self._air_arrivals()
        yield from self._air_withdrawals()
        for ace in self.scenario.air.aces:
            if ace.turn == self.season and ace.id not in self.airwar["aces"]:
                yield from self._place_ace(ace.id)
        yield from self._airfield_overrun()
        for side in (CAPITALIST, COMMUNIST):
            yield from self._airfield_work(side)
        for side in (CAPITALIST, COMMUNIST):
            for a in self._craft(side, "damaged"):
                yield from self._repair_roll(side, a)

    def _aircraft_return(self: RowGame):
        """ROW-10.2: aircraft in the mission boxes return to Available; the air support levels go to 0 until the
        new commitment (10.4.2)."""
        aw = self.airwar
        back = [a for a, r in sorted(aw["aircraft"].items()) if r["box"] in mission_boxes()]
        for a in back:
            aw["aircraft"][a].update(box="available", airfield="", restricted=False)
        for r in aw["aircraft"].values():
            r["airfield"] = "" if r["box"] in ("available", "damaged") else r["airfield"]
        aw["aew"], aw["secret"], aw["interdicted"] = False, "", []
        self.pools[AIR_TRACK[CAPITALIST]] = 0
        self.pools[AIR_TRACK[COMMUNIST]] = 0
        self._touch()
        yield self.ruling(
            "ROW-10.2",
            "Aircraft return",
            f"{len(back)} aircraft in mission boxes return to the "
            "Available Aircraft box; the air support levels go to 0 until the new commitment (10.4.2).",
            result={"returned": back},
        )

    def _air_arrivals(self: RowGame):
        """ROW-10.1: the scenario's chart brings aircraft, airfields, SAMs and ARMs this season (at most 9 each)."""
        aw = self.airwar
        for arr in self.scenario.air.arrivals:
            if arr.turn != self.season:
                continue
            for a in arr.aircraft:
                aw["aircraft"][a] = {
                    "box": "available",
                    "reduced": False,
                    "airfield": "",
                    "restricted": False,
                    "ace": "",
                }
            for f in arr.airfields:
                aw["airfields"][f] = {"improved": False, "damaged": False}
            aw["sams"] = min(9, aw["sams"] + arr.sams)
            aw["arms"] = min(9, aw["arms"] + arr.arms)
            replaced = self._replace_air_losses() if arr.replace_losses else []
            self._touch()
            yield self.ruling(
                "ROW-10.1",
                "Air reinforcements",
                f"Arriving: aircraft {', '.join(arr.aircraft) or 'none'};"
                f" airfields {', '.join(arr.airfields) or 'none'}; +{arr.sams} SAMs (now {aw['sams']}); "
                f"+{arr.arms} ARMs (now {aw['arms']})."
                + (
                    " The chart makes good the Capitalist's air losses: "
                    + ", ".join(aircraft_counters()[a].name for a in replaced)
                    + " back at full strength."
                    if replaced
                    else ""
                ),
                result={
                    "aircraft": list(arr.aircraft),
                    "airfields": list(arr.airfields),
                    "sams": aw["sams"],
                    "arms": aw["arms"],
                    "replaced": replaced,
                },
            )

    def _replace_air_losses(self: RowGame) -> list[str]:
        """ROW-10.1 / 10.2 (decision R-WAR-30): a chart arrival with ``replace_losses`` brings new aircraft for every
        Capitalist counter still in the theatre that was eliminated (back to the Available box) or reduced (back to
        full strength; a damaged one stays damaged until repaired).  Returns the counters restored."""
        out = []
        for a, rec in sorted(self.airwar["aircraft"].items()):
            if aircraft_counters()[a].side != CAPITALIST or rec["box"] == "withdrawn":
                continue
            if rec["box"] == "eliminated" or rec["reduced"]:
                if rec["box"] == "eliminated":
                    rec.update(box="available", airfield="")
                rec["reduced"] = False
                out.append(a)
        return out

    def _air_withdrawals(self: RowGame):
        """ROW-10.1: the chart's aircraft withdrawals leave the theatre (eliminated ones stay eliminated)."""
        aw = self.airwar
        for w in self.scenario.air.withdrawals:
            if w.turn != self.season:
                continue
            for a in w.aircraft:
                if a in aw["aircraft"] and aw["aircraft"][a]["box"] != "eliminated":
                    aw["aircraft"][a].update(box="withdrawn", airfield="")
            self._touch()
            yield self.ruling(
                "ROW-10.1",
                "Air withdrawals",
                f"{', '.join(w.aircraft)} leave the theatre.",
                result={"withdrawn": list(w.aircraft)},
            )

    def _repair_roll(self: RowGame, side: str, a: str):
        """ROW-10.2 (table 4.9): a damaged aircraft is repaired to Available on a D10 at most its side's number
        (Capitalist 5, Communist 6); a reduced one stays reduced."""
        aw = self.airwar
        need = repair_table()[side]
        r, ok = self._roll(need, f"repair roll of {a}")
        if ok:
            aw["aircraft"][a]["box"] = "available"
            self._touch()
            how = f"at most {need}, repaired to the Available Aircraft box" + (
                " (still reduced: only reinforcements restore it)" if aw["aircraft"][a]["reduced"] else ""
            )
        else:
            how = f"above {need}, it stays damaged"
        yield self.ruling(
            "ROW-10.2",
            "Aircraft repair",
            f"{aircraft_counters()[a].name} rolls {r.value}: {how}.",
            result={"aircraft": a, "repaired": ok},
            dice=[r],
            lookup=Lookup(
                "Aircraft repair (4.9)",
                side,
                "repair if D10 at most",
                str(need),
                source="data/row/air/repair.csv",
            ),
            side=side,
        )

    def _place_ace(self: RowGame, ace: str):
        """ROW-10.3.6: the owner puts an arriving ace on one aircraft of his nationality (US: same service) with an
        air-to-air value and no ace yet; with none, the ace waits (placed when one becomes available, R-AIR-07)."""
        row = aces()[ace]
        cands = [
            a
            for a in self._craft(row.side)
            if self.airwar["aircraft"][a]["box"] in ("available", "damaged")
            and not self.airwar["aircraft"][a]["ace"]
            and aircraft_counters()[a].service == row.service
            and aircraft_types()[aircraft_counters()[a].type].a2a > 0
        ]
        if not cands:
            self.airwar["aces"][ace] = ""
            self._touch()
            yield self.ruling(
                "ROW-10.3.6",
                "Ace waits",
                f"{row.name} arrives but no {row.service} aircraft with an "
                "air-to-air value can take him: he waits (R-AIR-07).",
                result={"ace": ace, "on": ""},
                side=row.side,
            )
            return
        a = yield self.decide(
            row.side,
            f"Place the ace {row.name} (+{row.value} air-to-air)",
            "ROW-10.3.6",
            [
                Action.make(
                    "place_ace", f"{row.name} flies with {aircraft_counters()[c].name}", ace=ace, aircraft=c
                )
                for c in cands
            ],
            kind="ace",
        )
        self.airwar["aces"][ace] = a["aircraft"]
        self.airwar["aircraft"][a["aircraft"]]["ace"] = ace
        self._touch()
        yield self.ruling(
            "ROW-10.3.6",
            "Ace placed",
            f"{row.name} flies with {aircraft_counters()[a['aircraft']].name}"
            f": +{row.value} to its air-to-air value until it is damaged.",
            result={"ace": ace, "on": a["aircraft"]},
            side=row.side,
        )

    def _airfield_overrun(self: RowGame):
        """ROW-10.1 (decision R-AIR-10): a Capitalist airfield at a Capitalist supply source or city (its ``place``)
        with a Communist-controlled hex next to it is damaged (checked in A3)."""
        cap = capitalist_controlled(self.situation(), self.map)
        for f, st in sorted(self.airwar["airfields"].items()):
            row = airfields()[f]
            if row.side != CAPITALIST or st["damaged"] or not row.place or row.place not in self.map.places:
                continue
            hid = self.map.places[row.place].hex
            bad = [n for n in self.map.neighbours(hid) if not self.map.is_sea(n) and n not in cap]
            if bad:
                st["damaged"] = True
                self._touch()
                yield self.ruling(
                    "ROW-10.1",
                    "Airfield damaged",
                    f"{row.name} ({hid}) has Communist-controlled "
                    f"hexes next to it ({', '.join(sorted(bad))}): it is damaged (R-AIR-10).",
                    result={"airfield": f, "damaged": True},
                    places=[hid, *sorted(bad)],
                )

    def _airfield_work(self: RowGame, side: str):
        """ROW-10.1 / ROW-7.1 (case a) (decision R-AIR-09): the owner may repair a damaged airfield (1 supply) or improve
        one (2 supply), one purchase at a time."""
        while True:
            pool = self.pools[SUPPLY_TRACK[side]]
            opts = []
            for f, st in sorted(self.airwar["airfields"].items()):
                if airfields()[f].side != side:
                    continue
                if st["damaged"] and pool >= REPAIR_COST:
                    opts.append(
                        Action.make(
                            "repair_airfield",
                            f"Repair {airfields()[f].name} ({REPAIR_COST} supply)",
                            airfield=f,
                            cost=REPAIR_COST,
                        )
                    )
                elif not st["damaged"] and not st["improved"] and pool >= IMPROVE_COST:
                    opts.append(
                        Action.make(
                            "improve_airfield",
                            f"Improve {airfields()[f].name} ({IMPROVE_COST} supply)",
                            airfield=f,
                            cost=IMPROVE_COST,
                        )
                    )
            if not opts:
                return
            a = yield self.decide(
                side,
                f"{side}: repair or improve an airfield?",
                "ROW-10.1",
                [*opts, Action.make("no_airfield_work", "No airfield work")],
                kind="airfield_work",
            )
            if a.kind == "no_airfield_work":
                return
            new, r = change(
                self.pools_obj(), SUPPLY_TRACK[side], -a["cost"], f"airfield work on {a['airfield']}"
            )
            self.set_pools(new)
            st = self.airwar["airfields"][a["airfield"]]
            if a.kind == "repair_airfield":
                st["damaged"] = False
            else:
                st["improved"] = True
            self._touch()
            yield self.ruling(
                "ROW-10.1",
                "Airfield work",
                f"{airfields()[a['airfield']].name} is "
                + ("repaired" if a.kind == "repair_airfield" else "improved (it flies two aircraft)")
                + f". {r.explanation}",
                result={"airfield": a["airfield"], "work": a.kind, "cost": a["cost"]},
                side=side,
            )
