"""Vietnam: Rumor of War, air power (ROW-10.0): the Air Display, air commitment, the strategic air war over the
North and tactical air over the battlefield.

A scenario brings the air war in with an ``air:`` block (``airdata.AirBlock``; without one, A Year in I Corps,
every air step behaves as before: special rule ``air_war_not_in_play``, decision R-SCN-08).  Then, each season:

* A3 (10.1, 10.2): aircraft in mission boxes come back to Available; the chart's aircraft, airfields, SAMs and
  ARMs arrive; aces are placed by their owner (10.3.6); the owner may repair or improve airfields for supply
  (7.1a, decision R-AIR-09); a Capitalist airfield next to a Communist-controlled hex is damaged (10.1, R-AIR-10);
  damaged aircraft roll to be repaired (Capitalist D10 <= 5, Communist <= 6; table 4.9).
* A4 / A5 (10.2): each side commits aircraft one by one to a mission box, each on an airfield with room (an
  airfield flies 1, an improved one 2; the carriers any number, 11.4).  The Capitalist picks a restricted or an
  unrestricted box for strategic missions; every unrestricted box costs 1 US Unrest (10.3.7) unless declared the
  secret box (a Secret Ops point instead, R-AIR-05) or covered by a free unrestricted declaration.  The Ground
  Support box sets the US Air (Communist Air) support level (10.4.2).
* A6 (10.3): AEW, then Downtown, then SAM fire (the order of 10.3, not of 3.0: decision R-AIR-01), then the
  strikes in the Capitalist's order (infrastructure, airfield, SAM).
* During the player turns (10.4): aircraft in the Ground Support box fly the air support a combat uses and roll to
  stay on station; Interdiction aircraft, after a reconnaissance, may stop a Communist HQ activation, a strategic
  move or a combat's tank and artillery support.
* C-c: HQ Interdicted markers come off.

Rules: ROW-10.0, ROW-10.1, ROW-10.2, ROW-10.3, ROW-10.3.1, ROW-10.3.2, ROW-10.3.3, ROW-10.3.4, ROW-10.3.5,
ROW-10.3.6, ROW-10.3.7, ROW-10.3.8, ROW-10.3.9, ROW-10.4, ROW-10.4.1, ROW-10.4.2, ROW-10.4.3; special operations
(ROW-10.4.4) are 14.8's tables, not here.  Every modifier of a mission value is in :func:`mission_value` (reduced -1, Summer monsoon -1, AEW +1, an ace's
value, restricted boxes halved).  POWs (10.3, 10.3.8, 10.3.6) go to the Hanoi Hilton track of 12.1.4.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Action, IllegalAction
from ..core.rulings import Lookup
from . import victory as V
from .airdata import (
    aces,
    aircraft_counters,
    aircraft_types,
    airfields,
    locations,
    mission_boxes,
    repair_table,
)
from .control import capitalist_controlled
from .pieces import CAPITALIST, COMMUNIST
from .supply import change, change_infrastructure

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

US_SERVICES = ("USAF", "Navy", "USMC")
STRATEGIC = ("aew", "downtown", "infrastructure", "airfield_strike", "sam_strike")
TACTICAL = ("ground_support", "interdiction", "recon")
STRIKES = ("infrastructure", "airfield_strike", "sam_strike")
AIR_TRACK = {CAPITALIST: "US Air", COMMUNIST: "Communist Air"}
SUPPLY_TRACK = {CAPITALIST: "Capitalist Supply", COMMUNIST: "Communist Supply"}
REPAIR_COST, IMPROVE_COST = 1, 2  # data/row/tables/supply_costs.csv repair_airfield, upgrade_airfield (7.1a)


def other(side: str) -> str:
    return COMMUNIST if side == CAPITALIST else CAPITALIST


def mission_value(
    aircraft: str,
    column: str,
    *,
    reduced: bool = False,
    summer: bool = False,
    aew: bool = False,
    restricted: bool = False,
    ace: int = 0,
) -> tuple[int, str]:
    """ROW-10.3 / 10.3.4 / 10.3.6 / 10.3.7 / 10.3.9: an aircraft's value for one mission and how it was reached.

    The Air Display value of its type (digest 4.Z.4, reconstruction), -1 when reduced (10.3), -1 on Summer turns
    (monsoon, 10.3.9), +1 on a strategic mission when an AEW roll succeeded (10.3.4), + the ace's value on
    air-to-air (10.3.6); then halved, rounding down, in a restricted box (10.3.7, decision R-AIR-04).  Never below 0;
    below 1 the aircraft cannot fly the mission (10.3)."""
    t = aircraft_types()[aircraft_counters()[aircraft].type]
    base = t.value(column)
    v, steps = base, [f"{t.name} {column.replace('_', ' ')} {base}"]
    if base == 0:
        return 0, steps[0] + " (cannot fly it)"
    if reduced:
        v -= 1
        steps.append("-1 reduced")
    if summer:
        v -= 1
        steps.append("-1 monsoon")
    if aew:
        v += 1
        steps.append("+1 AEW")
    if ace and column == "a2a":
        v += ace
        steps.append(f"+{ace} ace")
    if restricted:
        v //= 2
        steps.append("halved (restricted)")
    v = max(0, v)
    return v, ", ".join(steps) + f" = {v}"


class AirMixin:
    """The air war procedures of :class:`RowGame` (ROW-10.0); state lives in ``self.airwar`` (empty when the
    scenario has no ``air:`` block, so A Year in I Corps keeps its digest)."""

    # ------------------------------------------------------------------ state and queries
    def air_on(self: RowGame) -> bool:
        return self.scenario.air is not None

    def _summer(self: RowGame) -> bool:
        return bool(self.scenario.air and self.scenario.air.monsoon and self._calendar_row().monsoon == "yes")

    def _craft(self: RowGame, side: str | None = None, box: str | None = None) -> list[str]:
        out = []
        for a, rec in sorted(self.airwar.get("aircraft", {}).items()):
            if side is not None and aircraft_counters()[a].side != side:
                continue
            if box is not None and rec["box"] != box:
                continue
            out.append(a)
        return out

    def _ace_value(self: RowGame, aircraft: str) -> int:
        ace = self.airwar["aircraft"][aircraft]["ace"]
        return aces()[ace].value if ace else 0

    def air_value(
        self: RowGame, aircraft: str, column: str, *, box: str | None = None, restricted: bool | None = None
    ) -> tuple[int, str]:
        """:func:`mission_value` for an aircraft on the Air Display now (its box decides AEW and restriction)."""
        rec = self.airwar["aircraft"][aircraft]
        box = rec["box"] if box is None else box
        strategic = box in STRATEGIC
        side = aircraft_counters()[aircraft].side
        return mission_value(
            aircraft,
            column,
            reduced=rec["reduced"],
            summer=self._summer(),
            aew=strategic and side == CAPITALIST and self.airwar.get("aew", False) and box != "aew",
            restricted=rec["restricted"] if restricted is None else restricted,
            ace=self._ace_value(aircraft),
        )

    def _capacity(self: RowGame, field: str) -> int:
        f = self.airwar["airfields"][field]
        return 0 if f["damaged"] else (2 if f["improved"] else 1)

    def _room(self: RowGame, field: str) -> int:
        used = sum(1 for r in self.airwar["aircraft"].values() if r["airfield"] == field)
        return self._capacity(field) - used

    def _fields_for(self: RowGame, aircraft: str, kind: str) -> list[str]:
        """ROW-10.1 / ROW-11.4: the airfields with room from which ``aircraft`` may fly a ``kind`` mission."""
        c = aircraft_counters()[aircraft]
        if c.service == "Navy":
            if "station" not in self.airwar:
                return []
            if kind == "strategic" and self.airwar["station"] != "Yankee":
                return []  # 11.4: strategic missions only from Yankee Station
            return ["carriers"]
        out = []
        for f in sorted(self.airwar["airfields"]):
            row = airfields()[f]
            loc = locations()[row.location]
            if c.service == "PRC" and row.location != "china":
                continue  # R-AIR-02: Chinese regiments fly only from China's fields
            if row.side == c.side and getattr(loc, kind) == "yes" and self._room(f) > 0:
                out.append(f)
        return out

    def _box_options(self: RowGame, side: str) -> list[Action]:
        """ROW-10.2: every (aircraft, mission box, restricted?) commitment ``side`` may make now."""
        sc = self.scenario.air
        out = []
        for a in self._craft(side, "available"):
            t = aircraft_types()[aircraft_counters()[a].type]
            for b, mb in mission_boxes().items():
                if not mb.for_side(side) or (b == "downtown" and t.downtown != "yes"):
                    continue
                if not self._fields_for(a, mb.kind):
                    continue
                variants = [False]
                if side == CAPITALIST and mb.restricted_box == "yes":
                    variants = [True] if b in sc.restricted_only else [False, True]
                for r in variants:
                    v, _ = self.air_value(a, mb.value, box=b, restricted=r)
                    if v < 1:
                        continue
                    label = (
                        f"{aircraft_counters()[a].name} to {mb.name}"
                        + (" (restricted)" if r else "")
                        + f", value {v}"
                    )
                    out.append(Action.make("commit_aircraft", label, aircraft=a, box=b, restricted=r))
        return out

    def _commit_check(self: RowGame, side: str):
        def check(a: Action) -> IllegalAction | None:
            if a.kind != "commit_aircraft":
                return None
            uid = a.get("aircraft")
            if uid not in aircraft_counters():
                return IllegalAction("ROW-10.1", f"unknown aircraft {uid!r} (data/row/air/aircraft.csv)")
            if uid not in self.airwar["aircraft"] or self.airwar["aircraft"][uid]["box"] != "available":
                return IllegalAction("ROW-10.2", f"{uid} is not in the Available Aircraft box")
            if a.get("box") not in mission_boxes():
                return IllegalAction(
                    "ROW-10.2", f"unknown mission box {a.get('box')!r}; boxes: {', '.join(mission_boxes())}"
                )
            if not self._fields_for(uid, mission_boxes()[a["box"]].kind):
                return IllegalAction(
                    "ROW-10.1",
                    f"no airfield with room can fly {uid} on {a['box']} (an airfield "
                    "flies one aircraft, an improved one two)",
                )
            return IllegalAction(
                "ROW-10.2",
                f"{uid} may not fly {a['box']} now (value below 1, wrong side or type, "
                "or the scenario allows only the restricted box)",
            )

        return check

    def _field_check(self: RowGame, aircraft: str, kind: str):
        def check(a: Action) -> IllegalAction | None:
            f = a.get("airfield")
            if f not in airfields() and f != "carriers":
                return IllegalAction("ROW-10.1", f"unknown airfield {f!r} (data/row/air/airfields.csv)")
            if f in self.airwar["airfields"] and self._room(f) <= 0:
                return IllegalAction(
                    "ROW-10.1",
                    f"airfield {f} is full: it flies {self._capacity(f)} aircraft "
                    "(1, or 2 when improved; none when damaged)",
                )
            return IllegalAction("ROW-10.1", f"{aircraft} cannot fly a {kind} mission from {f}")

        return check

    # ------------------------------------------------------------------ points and damage
    def _air_points(self: RowGame, key: str, points: int, why: str):
        """ROW-12.1.4 / 12.1.5: POW or Secret Ops points; the entitled side may roll for a VP at once."""
        if points <= 0 or self._over:
            return
        s, r, opts = V.add_points(self.vstate(), key, points)
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, f"{why}: {r.explanation}", result=r.result, inputs=r.inputs)
        if s.winner:
            yield from self._check_win()
            return
        if opts:
            roller = V.ACCUMULATORS[key][1]
            a = yield self.decide(
                roller,
                f"Roll a D10 on {key.replace('_', ' ')} ({getattr(s, key)})?",
                r.rule_id,
                opts,
                kind="accumulator_roll",
            )
            if a.kind == "roll_accumulator":
                mod = -1 if key == "secret_ops" and self.commander_id(CAPITALIST) == "westmoreland" else 0
                s, rr = V.roll_accumulator(
                    self.vstate(), key, self.dice, modifier=mod
                )  # 14.2.1 (politics.py)
                self.set_vstate(s)
                yield self.ruling(rr.rule_id, rr.title, rr.explanation, result=rr.result, dice=rr.dice)
                if s.winner:
                    yield from self._check_win()

    def _air_damage(self: RowGame, uid: str, reduce: bool, why: str, rule: str):
        """ROW-10.2 / 10.3: an aircraft is damaged (to the Damaged Aircraft box), reduced too if ``reduce`` (a
        reduced aircraft reduced again is eliminated).  A US aircraft damaged adds 1 POW (10.3, decision R-AIR-06);
        an ace on it is lost (10.3.6: a US ace +2 POW, a Communist ace +1 US Military Victory)."""
        rec = self.airwar["aircraft"][uid]
        c = aircraft_counters()[uid]
        if reduce and rec["reduced"]:
            rec["box"], what = "eliminated", "is reduced a second time and eliminated"
        else:
            rec["reduced"] = rec["reduced"] or reduce
            rec["box"], what = "damaged", "is reduced and damaged" if reduce else "is damaged (not reduced)"
        rec["airfield"], rec["restricted"] = "", False
        ace, rec["ace"] = rec["ace"], ""
        if ace:
            self.airwar["aces"][ace] = "lost"
        self._touch()
        yield self.ruling(
            rule,
            "Aircraft damaged",
            f"{c.name} {what}: {why}." + (f" Its ace {aces()[ace].name} is lost (10.3.6)." if ace else ""),
            result={"aircraft": uid, "box": rec["box"], "reduced": rec["reduced"], "ace_lost": ace},
            side=c.side,
        )
        if c.service in US_SERVICES:
            yield from self._air_points("pow", 1, f"a US aircraft ({c.name}) is damaged (10.3, 10.3.8)")
        if ace and c.side == CAPITALIST:
            yield from self._air_points("pow", 2, f"the US ace {aces()[ace].name} is lost (10.3.6)")
        elif ace:
            yield from self._award(CAPITALIST, 1, f"the Communist ace {aces()[ace].name} is lost (10.3.6)")

    def _air_lookup(self: RowGame, uid: str, column: str, v: int, how: str) -> dict[str, Any]:
        """The inputs and Air Display lookup of a mission roll (for the ruling)."""
        t = aircraft_counters()[uid].type
        return {
            "inputs": {"aircraft": uid, "mission": column, "value": v, "modifiers": how},
            "lookup": Lookup(
                "Air Display (digest 4.Z.4)",
                t,
                column,
                str(aircraft_types()[t].value(column)),
                reconstructed=True,
                source="data/row/air/aircraft_types.csv",
            ),
        }

    def _roll(self: RowGame, target: int, purpose: str):
        r = self.dice.roll(10, purpose)
        return r, r.value <= target

    # ------------------------------------------------------------------ set-up and A3
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
        """ROW-10.1 / ROW-10.2 (A3): the air war's housekeeping at the start of a season (see the module docstring)."""
        aw, sc = self.airwar, self.scenario.air
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
        for arr in sc.arrivals:
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
            self._touch()
            yield self.ruling(
                "ROW-10.1",
                "Air reinforcements",
                f"Arriving: aircraft {', '.join(arr.aircraft) or 'none'};"
                f" airfields {', '.join(arr.airfields) or 'none'}; +{arr.sams} SAMs (now {aw['sams']}); "
                f"+{arr.arms} ARMs (now {aw['arms']}).",
                result={
                    "aircraft": list(arr.aircraft),
                    "airfields": list(arr.airfields),
                    "sams": aw["sams"],
                    "arms": aw["arms"],
                },
            )
        for w in sc.withdrawals:
            if w.turn == self.season:
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
        for ace in sc.aces:
            if ace.turn == self.season and ace.id not in aw["aces"]:
                yield from self._place_ace(ace.id)
        yield from self._airfield_overrun()
        for side in (CAPITALIST, COMMUNIST):
            yield from self._airfield_work(side)
        for side in (CAPITALIST, COMMUNIST):
            need = repair_table()[side]
            for a in self._craft(side, "damaged"):
                r, ok = self._roll(need, f"repair roll of {a}")
                if ok:
                    aw["aircraft"][a]["box"] = "available"
                    self._touch()
                yield self.ruling(
                    "ROW-10.2",
                    "Aircraft repair",
                    f"{aircraft_counters()[a].name} rolls {r.value}: "
                    + (
                        f"at most {need}, repaired to the Available Aircraft box"
                        + (
                            " (still reduced: only reinforcements restore it)"
                            if aw["aircraft"][a]["reduced"]
                            else ""
                        )
                        if ok
                        else f"above {need}, it stays damaged"
                    )
                    + ".",
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

    # ------------------------------------------------------------------ A4 / A5: commitment
    def air_commitment(self: RowGame, side: str):
        """ROW-10.2 / ROW-10.3.7 / ROW-10.4.2 (A4, A5): ``side`` commits aircraft one at a time; then (Capitalist)
        the unrestricted boxes cost US Unrest and one may be secret; then the Ground Support box sets the level."""
        while True:
            opts = self._box_options(side)
            if not opts:
                break
            a = yield self.decide(
                side,
                f"{side}: commit an aircraft to a mission box?",
                "ROW-10.2",
                [*opts, Action.make("done_commit", "Commit no more aircraft")],
                check=self._commit_check(side),
                kind="air_mission",
            )
            if a.kind == "done_commit":
                break
            uid, box = a["aircraft"], a["box"]
            kind = mission_boxes()[box].kind
            fields = self._fields_for(uid, kind)
            field = yield from self.choose_one(
                side,
                f"From which airfield does {aircraft_counters()[uid].name} fly?",
                "ROW-10.1",
                fields,
                kind="airfield",
                option="use_airfield",
                key="airfield",
                label=lambda x: f"{airfields()[x].name} (room for {self._room(x)})",
                check=self._field_check(uid, kind),
            )
            rec = self.airwar["aircraft"][uid]
            rec.update(box=box, airfield=field, restricted=bool(a["restricted"]))
            self._touch()
            v, how = self.air_value(uid, mission_boxes()[box].value)
            yield self.ruling(
                "ROW-10.2",
                "Aircraft committed",
                f"{aircraft_counters()[uid].name} flies from "
                f"{'the 7th Fleet carriers' if field == 'carriers' else airfields()[field].name} to the "
                f"{mission_boxes()[box].name} box"
                + (" (restricted)" if rec["restricted"] else "")
                + f": {how}.",
                result={
                    "aircraft": uid,
                    "box": box,
                    "airfield": field,
                    "restricted": rec["restricted"],
                    "value": v,
                },
                side=side,
            )
        if side == CAPITALIST:
            yield from self._unrestricted_cost()
        total, parts = 0, []
        for a in self._craft(side, "ground_support"):
            v, _ = self.air_value(a, "ground_support")
            total += v
            parts.append(f"{aircraft_counters()[a].name} {v}")
        self.pools[AIR_TRACK[side]] = total
        self._touch()
        yield self.ruling(
            "ROW-10.4.2",
            "Air support level",
            f"{AIR_TRACK[side]} = the Ground Support box's values: "
            f"{' + '.join(parts) or 'no aircraft'} = {total}"
            + (" (more than 19 counts as 19 in a combat, 8.2)" if total > 19 else "")
            + ".",
            result={"track": AIR_TRACK[side], "level": total},
            side=side,
        )

    def _unrestricted_cost(self: RowGame):
        """ROW-10.3.7: each strategic box holding an unrestricted aircraft costs 1 US Unrest (the AEW box, which has
        no restricted side, costs nothing: decision R-AIR-04); the Capitalist may
        declare one of them the secret mission: +1 Secret Ops instead of the Unrest point (decision R-AIR-05); a free
        unrestricted declaration (Republican president, 14.5) pays for a box first."""
        boxes = sorted(
            {
                self.airwar["aircraft"][a]["box"]
                for a in self._craft(CAPITALIST)
                if self.airwar["aircraft"][a]["box"] in STRATEGIC
                and "yes"
                in (
                    mission_boxes()[self.airwar["aircraft"][a]["box"]].restricted_box,
                    mission_boxes()[self.airwar["aircraft"][a]["box"]].always_unrestricted,
                )
                and not self.airwar["aircraft"][a]["restricted"]
            }
        )
        if not boxes:
            return
        secret = ""
        if self.vp["secret_ops_allowed"]:
            a = yield self.decide(
                CAPITALIST,
                "Declare one unrestricted box a secret mission?",
                "ROW-10.3.7",
                [
                    *(
                        Action.make("secret_box", f"The {mission_boxes()[b].name} box is secret", box=b)
                        for b in boxes
                    ),
                    Action.make("no_secret", "No secret mission"),
                ],
                kind="secret_box",
            )
            if a.kind == "secret_box":
                secret = a["box"]
        self.airwar["secret"] = secret
        paid = [b for b in boxes if b != secret]
        free = min(self.airwar["free_unrestricted"], len(paid))
        self.airwar["free_unrestricted"] -= free
        cost = len(paid) - free
        self._touch()
        yield self.ruling(
            "ROW-10.3.7",
            "Unrestricted operations",
            f"Unrestricted boxes: {', '.join(boxes)}"
            + (f"; {secret} is secret" if secret else "")
            + (f"; {free} free declaration(s) used" if free else "")
            + f": US Unrest +{cost}"
            + ("; Secret Ops +1" if secret else "")
            + ".",
            result={"unrestricted": boxes, "secret": secret, "unrest": cost, "free": free},
        )
        if cost:
            yield from self._award(COMMUNIST, cost, "unrestricted air operations (10.3.7)")
        if secret and not self._over:
            yield from self._air_points("secret_ops", 1, "a secret air mission (10.3.7, 12.1.5)")

    # ------------------------------------------------------------------ A6: strategic missions
    def air_aew(self: RowGame):
        """ROW-10.3.4: each AEW aircraft rolls a D10; one success gives +1 to every Capitalist aircraft on a
        strategic mission this season (not cumulative, decision R-AIR-03)."""
        ok_any = False
        for a in self._craft(CAPITALIST, "aew"):
            v, how = self.air_value(a, "aew")
            r, ok = self._roll(v, f"AEW roll of {a}")
            ok_any = ok_any or ok
            yield self.ruling(
                "ROW-10.3.4",
                "AEW",
                f"{aircraft_counters()[a].name} ({how}) rolls {r.value}: "
                + ("success" if ok else "no warning")
                + ".",
                result={"aircraft": a, "success": ok},
                dice=[r],
                **self._air_lookup(a, "aew", v, how),
            )
        self.airwar["aew"] = ok_any
        self._touch()
        yield self.ruling(
            "ROW-10.3.4",
            "AEW result",
            (
                "Airborne early warning works: +1 to every Capitalist aircraft on a strategic mission"
                if ok_any
                else "No AEW bonus this season"
            )
            + f"; SAM fire is reduced by the {len(self._craft(CAPITALIST, 'aew'))} aircraft in the AEW box.",
            result={"aew": ok_any},
        )

    def _shoot(self: RowGame, shooter: str, target: str, why: str):
        """ROW-10.3.1: one air-to-air attack: D10 at most the shooter's air-to-air value reduces and damages the
        target (a reduced target is eliminated)."""
        v, how = self.air_value(
            shooter, "a2a", box="downtown" if self.airwar["aircraft"][shooter]["box"] == "downtown" else None
        )
        r, hit = self._roll(v, f"air-to-air {shooter} at {target}")
        yield self.ruling(
            "ROW-10.3.1",
            "Air-to-air",
            f"{aircraft_counters()[shooter].name} ({how}) attacks "
            f"{aircraft_counters()[target].name}{why}: rolls {r.value}, "
            + ("a hit" if hit else "a miss")
            + ".",
            result={"shooter": shooter, "target": target, "hit": hit},
            dice=[r],
            **self._air_lookup(shooter, "a2a", v, how),
            side=aircraft_counters()[shooter].side,
        )
        if hit:
            yield from self._air_damage(
                target, True, f"shot down by {aircraft_counters()[shooter].name}", "ROW-10.3.1"
            )

    def air_downtown(self: RowGame):
        """ROW-10.3.1: air combat over Hanoi (see the module docstring and decisions R-AIR-01, digest 9 no. 64)."""
        us, com = self._craft(CAPITALIST, "downtown"), self._craft(COMMUNIST, "downtown")
        if not us and not com:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Nobody is in the Downtown box: no air combat.",
                result={"combat": "none"},
            )
            return
        if us and not com:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Only US aircraft are over Downtown: nothing happens.",
                result={"combat": "none"},
            )
            return
        if com and not us:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Only Communist fighters are over Downtown: each may attack one "
                "US aircraft in a strategic box; nobody fires back.",
                result={"combat": "one-sided"},
            )
            for m in com:
                if self.airwar["aircraft"][m]["box"] != "downtown" or self._over:
                    continue
                targets = [
                    a for a in self._craft(CAPITALIST) if self.airwar["aircraft"][a]["box"] in STRATEGIC
                ]
                if not targets:
                    break
                yield from self._attack(m, targets, " (unopposed)")
            return
        yield self.ruling(
            "ROW-10.3.1",
            "Downtown",
            "Both sides are over Downtown: air-to-air combat, the highest "
            "air-to-air value first, the Capitalist first at equal values.",
            result={"combat": "both"},
        )
        order = sorted(
            us + com,
            key=lambda a: (
                -self.air_value(a, "a2a")[0],
                0 if aircraft_counters()[a].side == CAPITALIST else 1,
                a,
            ),
        )
        for a in order:
            if self._over or self.airwar["aircraft"][a]["box"] != "downtown":
                continue  # damaged before its turn to fire
            side = aircraft_counters()[a].side
            targets = self._craft(other(side), "downtown")
            if not targets:
                break
            yield from self._attack(a, targets, "")
        if not self._craft(CAPITALIST, "downtown") and self._craft(COMMUNIST, "downtown") and not self._over:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown lost",
                "Only Communist fighters are left over Downtown: US Military Victory -1.",
                result={"us_military_victory": -1},
            )
            yield from self._award(CAPITALIST, -1, "the Communist holds the sky over Downtown (10.3.1)")

    def _attack(self: RowGame, shooter: str, targets: list[str], why: str):
        side = aircraft_counters()[shooter].side
        a = yield self.decide(
            side,
            f"{aircraft_counters()[shooter].name}: attack which aircraft?",
            "ROW-10.3.1",
            [
                Action.make("air_target", f"Attack {aircraft_counters()[t].name}", shooter=shooter, target=t)
                for t in targets
            ],
            kind="air_target",
        )
        yield from self._shoot(shooter, a["target"], why)

    def air_sams(self: RowGame):
        """ROW-10.3.5: one D10 (+ the ARMs, decision R-AIR-08); less than the SAMs (minus the AEW aircraft)
        hits the difference in aircraft on strategic missions, the Capitalist choosing the first, the Communist
        the second, and so on."""
        aw = self.airwar
        n_aew = len(self._craft(CAPITALIST, "aew"))
        sams = max(0, aw["sams"] - n_aew)
        if not sams:
            yield self.ruling(
                "ROW-10.3.5",
                "SAMs",
                f"{aw['sams']} SAMs less {n_aew} AEW aircraft: no SAM fire.",
                result={"hits": 0},
            )
            return
        r = self.dice.roll(10, "SAM fire")
        roll = r.value + aw["arms"]
        hits = max(0, sams - roll)
        yield self.ruling(
            "ROW-10.3.5",
            "SAM fire",
            f"{aw['sams']} SAMs - {n_aew} AEW aircraft = {sams}; the Communist "
            f"rolls {r.value}"
            + (f" + {aw['arms']} ARMs = {roll}" if aw["arms"] else "")
            + (f": {hits} hit(s)." if hits else ": no hit (the roll must be less than the SAMs)."),
            result={"sams": sams, "roll": roll, "hits": hits},
            dice=[r],
            side=COMMUNIST,
            inputs={"sams": aw["sams"], "aew_aircraft": n_aew, "arms": aw["arms"]},
        )
        for k in range(hits):
            targets = [a for a in self._craft(CAPITALIST) if aw["aircraft"][a]["box"] in STRATEGIC]
            if not targets or self._over:
                break
            chooser = CAPITALIST if k % 2 == 0 else COMMUNIST
            a = yield self.decide(
                chooser,
                f"SAM hit {k + 1} of {hits}: which aircraft is hit?",
                "ROW-10.3.5",
                [
                    Action.make(
                        "sam_target",
                        f"{aircraft_counters()[t].name} in {mission_boxes()[aw['aircraft'][t]['box']].name}",
                        target=t,
                    )
                    for t in targets
                ],
                kind="sam_hit",
            )
            yield from self._air_damage(
                a["target"], True, f"SAM hit {k + 1} (chosen by the {chooser})", "ROW-10.3.5"
            )

    def air_strikes(self: RowGame):
        """ROW-10.3 / 10.3.2 / 10.3.3: the strike boxes, one whole type at a time, in the Capitalist's order."""
        done: list[str] = []
        while not self._over:
            left = [b for b in STRIKES if b not in done and self._craft(CAPITALIST, b)]
            if not left:
                break
            b = yield from self.choose_one(
                CAPITALIST,
                "Which strike missions are flown next?",
                "ROW-10.3",
                left,
                kind="strike_order",
                option="strike_type",
                key="box",
                label=lambda x: f"{mission_boxes()[x].name} next",
            )
            done.append(b)
            for uid in self._craft(CAPITALIST, b):
                if self._over or self.airwar["aircraft"][uid]["box"] != b:
                    continue
                yield from {
                    "infrastructure": self._infra_strike,
                    "airfield_strike": self._airfield_strike,
                    "sam_strike": self._sam_strike,
                }[b](uid)
        if not done:
            yield self.ruling("ROW-10.3", "No strikes", "No aircraft are left in a strike box.", result={})

    def _infra_strike(self: RowGame, uid: str):
        """ROW-10.3.2: D10 <= value: Communist Infrastructure -1 (a 1: -2); a 10 damages the striker."""
        v, how = self.air_value(uid, "infrastructure")
        r, ok = self._roll(v, f"infrastructure strike of {uid}")
        loss = 2 if r.value == 1 else (1 if ok else 0)
        text = f"{aircraft_counters()[uid].name} ({how}) rolls {r.value}: "
        if loss:
            new, cr = change_infrastructure(self.pools_obj(), COMMUNIST, -loss, "infrastructure strike")
            self.set_pools(new)
            self._touch()
            text += f"Communist Infrastructure -{loss}. {cr.explanation}"
        else:
            text += "no effect" + (" and the aircraft is damaged" if r.value == 10 else "") + "."
        yield self.ruling(
            "ROW-10.3.2",
            "Infrastructure strike",
            text,
            result={"aircraft": uid, "loss": loss, "infrastructure": self.pools["Communist Infrastructure"]},
            dice=[r],
            side=CAPITALIST,
            **self._air_lookup(uid, "infrastructure", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(uid, False, "a 10 on the infrastructure strike", "ROW-10.3.2")

    def _airfield_strike(self: RowGame, uid: str):
        """ROW-10.3.3.1: against a Communist airfield the US may strike (not China's, R-AIR-02): success damages it
        and one Communist aircraft in the Available or Damaged box is removed for good (the Communist picks)."""
        targets = [
            f
            for f, st in sorted(self.airwar["airfields"].items())
            if airfields()[f].side == COMMUNIST
            and not st["damaged"]
            and locations()[airfields()[f].location].strikable == "yes"
        ]
        if not targets:
            yield self.ruling(
                "ROW-10.3.3.1",
                "Airfield strike",
                f"{aircraft_counters()[uid].name}: no Communist "
                "airfield the US may strike is undamaged; the mission is not flown.",
                result={"aircraft": uid, "target": None},
            )
            return
        t = yield self.decide(
            CAPITALIST,
            f"{aircraft_counters()[uid].name}: strike which airfield?",
            "ROW-10.3.3.1",
            [Action.make("strike_airfield", f"Strike {airfields()[f].name}", airfield=f) for f in targets],
            kind="airfield_strike",
        )
        v, how = self.air_value(uid, "airfield")
        r, ok = self._roll(v, f"airfield strike of {uid}")
        yield self.ruling(
            "ROW-10.3.3.1",
            "Airfield strike",
            f"{aircraft_counters()[uid].name} ({how}) strikes "
            f"{airfields()[t['airfield']].name}: rolls {r.value}, "
            + ("the airfield is damaged" if ok else "no effect")
            + ".",
            result={"aircraft": uid, "target": t["airfield"], "success": ok},
            dice=[r],
            side=CAPITALIST,
            **self._air_lookup(uid, "airfield", v, how),
        )
        if ok:
            self.airwar["airfields"][t["airfield"]]["damaged"] = True
            self._touch()
            victims = [
                a
                for a in self._craft(COMMUNIST)
                if self.airwar["aircraft"][a]["box"] in ("available", "damaged")
            ]
            if victims:
                d = yield self.decide(
                    COMMUNIST,
                    "Airfield strike: which of your aircraft is destroyed on the ground?",
                    "ROW-10.3.3.1",
                    [
                        Action.make("lose_aircraft", f"Lose {aircraft_counters()[a].name}", aircraft=a)
                        for a in victims
                    ],
                    kind="aircraft_lost",
                )
                rec = self.airwar["aircraft"][d["aircraft"]]
                rec["box"] = "eliminated"
                ace, rec["ace"] = rec["ace"], ""
                if ace:
                    self.airwar["aces"][ace] = "lost"
                self._touch()
                yield self.ruling(
                    "ROW-10.3.3.1",
                    "Aircraft destroyed on the ground",
                    f"{aircraft_counters()[d['aircraft']].name} is removed from play.",
                    result={"aircraft": d["aircraft"], "box": "eliminated"},
                )
                if ace:
                    yield from self._award(
                        CAPITALIST, 1, f"the Communist ace {aces()[ace].name} is lost (10.3.6)"
                    )
        if r.value == 10:
            yield from self._air_damage(uid, False, "a 10 on the airfield strike", "ROW-10.3.3.1")

    def _sam_strike(self: RowGame, uid: str):
        """ROW-10.3.3.2: D10 <= value removes one SAM; a 9 or 10 reduces and damages the striker."""
        v, how = self.air_value(uid, "sam")
        r, ok = self._roll(v, f"SAM strike of {uid}")
        if ok and self.airwar["sams"]:
            self.airwar["sams"] -= 1
            self._touch()
        yield self.ruling(
            "ROW-10.3.3.2",
            "SAM strike",
            f"{aircraft_counters()[uid].name} ({how}) rolls {r.value}: "
            + (f"one SAM destroyed, {self.airwar['sams']} left" if ok else "no effect")
            + ".",
            result={"aircraft": uid, "success": ok, "sams": self.airwar["sams"]},
            dice=[r],
            **self._air_lookup(uid, "sam", v, how),
            side=CAPITALIST,
        )
        if r.value >= 9:
            yield from self._air_damage(uid, True, f"a {r.value} on the SAM strike", "ROW-10.3.3.2")

    def air_vc_airfield_strikes(self: RowGame):
        """ROW-9.5 (Infiltrate) / ROW-10.3.3.1: at the end of the Communist Activation phase every VC unit in or next
        to a town or city hex makes an Airfield Strike at value 4 (D10 <= 4): the Communist picks an undamaged
        Capitalist airfield in South Vietnam, which is damaged, and one Capitalist aircraft in the Available or
        Damaged box is destroyed (the Capitalist picks; not a Navy wing).  Only South Vietnamese fields are in reach
        of the VC, and a 10 has no further effect: there is no aircraft to damage (decision R-AIR-15)."""
        vcs = [
            u
            for u in sorted(self.pos)
            if self.rows[u].nationality == "VC"
            and self.rows[u].kind == "unit"
            and any(self.map.settlement(h) for h in (self.pos[u], *self.map.neighbours(self.pos[u])))
        ]
        for u in vcs:
            targets = [
                f
                for f, st in sorted(self.airwar["airfields"].items())
                if airfields()[f].side == CAPITALIST
                and airfields()[f].location == "svn"
                and not st["damaged"]
            ]
            if not targets or self._over:
                break
            t = yield self.decide(
                COMMUNIST,
                f"{self.rows[u].name}: strike which airfield?",
                "ROW-10.3.3.1",
                [
                    Action.make("strike_airfield", f"Strike {airfields()[f].name}", airfield=f)
                    for f in targets
                ],
                kind="airfield_strike",
            )
            r, ok = self._roll(4, f"VC airfield strike by {u}")
            yield self.ruling(
                "ROW-10.3.3.1",
                "VC airfield strike",
                f"{self.rows[u].name} (Infiltrate, value 4) strikes "
                f"{airfields()[t['airfield']].name}: rolls {r.value}, "
                + ("the airfield is damaged" if ok else "no effect")
                + ".",
                result={"unit": u, "target": t["airfield"], "success": ok},
                dice=[r],
                places=[self.pos[u]],
                side=COMMUNIST,
            )
            if not ok:
                continue
            self.airwar["airfields"][t["airfield"]]["damaged"] = True
            self._touch()
            victims = [
                a
                for a in self._craft(CAPITALIST)
                if self.airwar["aircraft"][a]["box"] in ("available", "damaged")
                and aircraft_counters()[a].service != "Navy"
            ]  # R-AIR-15: the carriers are out of reach
            if victims:
                d = yield self.decide(
                    CAPITALIST,
                    "VC airfield strike: which of your aircraft is destroyed on the ground?",
                    "ROW-10.3.3.1",
                    [
                        Action.make("lose_aircraft", f"Lose {aircraft_counters()[a].name}", aircraft=a)
                        for a in victims
                    ],
                    kind="aircraft_lost",
                )
                rec = self.airwar["aircraft"][d["aircraft"]]
                rec["box"], rec["airfield"] = "eliminated", ""
                ace, rec["ace"] = rec["ace"], ""
                if ace:
                    self.airwar["aces"][ace] = "lost"
                self._touch()
                yield self.ruling(
                    "ROW-10.3.3.1",
                    "Aircraft destroyed on the ground",
                    f"{aircraft_counters()[d['aircraft']].name} is removed from play.",
                    result={"aircraft": d["aircraft"], "box": "eliminated"},
                    side=CAPITALIST,
                )
                if ace:
                    yield from self._air_points("pow", 2, f"the US ace {aces()[ace].name} is lost (10.3.6)")

    # ------------------------------------------------------------------ 10.4: tactical missions
    def _stay(self: RowGame, uid: str, rule: str):
        """ROW-10.4: after a mission a D10 at most the Station number keeps the aircraft in its box; more sends it
        to Available (a Ground Support aircraft takes its value off the level, decision R-AIR-11); a 10 damages it
        (not reduced).  The Station number is not a mission value: neither reduction nor monsoon change it
        (decision R-AIR-12)."""
        rec = self.airwar["aircraft"][uid]
        st = aircraft_types()[aircraft_counters()[uid].type].station
        r, ok = self._roll(st, f"stay on station {uid}")
        side = aircraft_counters()[uid].side
        box = rec["box"]
        if ok:
            yield self.ruling(
                rule,
                "Stays on station",
                f"{aircraft_counters()[uid].name} rolls {r.value} against "
                f"Station {st}: it stays in the {mission_boxes()[box].name} box.",
                result={"aircraft": uid, "stays": True},
                dice=[r],
                side=side,
            )
            return
        lost = self.air_value(uid, "ground_support")[0] if box == "ground_support" else 0
        if lost:
            self.pools[AIR_TRACK[side]] = max(0, self.pools[AIR_TRACK[side]] - lost)
        if r.value == 10:
            yield self.ruling(
                rule,
                "Leaves station",
                f"{aircraft_counters()[uid].name} rolls a 10 against Station {st}:"
                " it leaves the box damaged." + (f" {AIR_TRACK[side]} -{lost}." if lost else ""),
                result={"aircraft": uid, "stays": False, "air_level": self.pools[AIR_TRACK[side]]},
                dice=[r],
                side=side,
            )
            yield from self._air_damage(uid, False, "a 10 on the stay-on-station roll", rule)
            return
        rec.update(box="available", airfield="", restricted=False)
        self._touch()
        yield self.ruling(
            rule,
            "Leaves station",
            f"{aircraft_counters()[uid].name} rolls {r.value} against Station "
            f"{st}: back to the Available Aircraft box until next season."
            + (f" {AIR_TRACK[side]} -{lost} = {self.pools[AIR_TRACK[side]]}." if lost else ""),
            result={"aircraft": uid, "stays": False, "air_level": self.pools[AIR_TRACK[side]]},
            dice=[r],
            side=side,
        )

    def air_pools(self: RowGame, hid: str) -> dict[str, int]:
        """ROW-10.4.2 / ROW-11.4: the support levels a combat at ``hid`` reads: the tracks, less the ground
        support of Navy aircraft when ``hid`` lies on the other side of the Station line from the fleet."""
        if not self.air_on():
            return self.pools
        out = dict(self.pools)
        for a in self._craft(CAPITALIST, "ground_support"):
            if not self.navy_may_fly_at(a, hid):
                out[AIR_TRACK[CAPITALIST]] = max(
                    0, out[AIR_TRACK[CAPITALIST]] - self.air_value(a, "ground_support")[0]
                )
        return out

    def air_after_combat(self: RowGame, mark: int, hid: str = ""):
        """ROW-10.4.2: the air support each side used in the combat just fought (its ROW-5.3.1 commitment) is
        flown by aircraft of its Ground Support box, chosen by the owner until the amount is covered (a larger
        value may give part of itself); each rolls to stay on station."""
        if not self.air_on():
            return
        used: dict[str, int] = {}
        for r in self.log[mark:]:
            if (
                r.rule_id == "ROW-5.3.1"
                and r.title.endswith("commits support")
                and isinstance(r.result, dict)
            ):
                used[r.side] = used.get(r.side, 0) + int(r.result["support"].get("air", 0))
        for side in (CAPITALIST, COMMUNIST):
            need = used.get(side, 0)
            flown: list[str] = []
            while need > 0 and not self._over:
                box = [
                    a
                    for a in self._craft(side, "ground_support")
                    if a not in flown and (not hid or self.navy_may_fly_at(a, hid))
                ]
                if not box:
                    break
                a = yield from self.choose_one(
                    side,
                    f"Which aircraft flew the air support ({need} still to cover)?",
                    "ROW-10.4.2",
                    box,
                    kind="air_support",
                    option="fly_support",
                    key="aircraft",
                    label=lambda x: (
                        f"{aircraft_counters()[x].name} (ground support "
                        f"{self.air_value(x, 'ground_support')[0]})"
                    ),
                )
                flown.append(a)
                need -= self.air_value(a, "ground_support")[0]
            if flown:
                yield self.ruling(
                    "ROW-10.4.2",
                    "Air support flown",
                    f"{used[side]} air support was flown by "
                    f"{', '.join(aircraft_counters()[x].name for x in flown)}; each rolls to stay on "
                    "station.",
                    result={"side": side, "used": used[side], "aircraft": flown},
                    side=side,
                )
            for a in flown:
                if self.airwar["aircraft"][a]["box"] == "ground_support" and not self._over:
                    yield from self._stay(a, "ROW-10.4.2")

    def air_interdicts(self: RowGame, target_side: str, what: str, hid: str, label: str):
        """ROW-10.4.1 / 10.4.3: may the enemy of ``target_side`` interdict this action (``what``: hq_activation,
        strategic_move, combat_support) at ``hid``?  The interdictor decides; a recon aircraft must first roll at
        most its recon value (a 10 damages it), then an Interdiction aircraft rolls a D10 (decision R-AIR-08) at
        most its value, halved under restricted ops (10.3.7); a 10 damages it.  Each aircraft not damaged rolls to
        stay on station.  Returns True when the action is stopped."""
        if not self.air_on():
            return False
        me = other(target_side)
        strikers = [a for a in self._craft(me, "interdiction") if self.navy_may_fly_at(a, hid)]  # 11.4
        recons = self._craft(me, "recon")
        if not strikers or not recons:
            return False
        a = yield self.decide(
            me,
            f"Interdict {label}?",
            "ROW-10.4.1",
            [
                *(
                    Action.make(
                        "interdict",
                        f"Interdict with {aircraft_counters()[s].name}",
                        aircraft=s,
                        what=what,
                        hex=hid,
                    )
                    for s in strikers
                ),
                Action.make("no_interdiction", "Let it pass", what=what, hex=hid),
            ],
            what=what,
            kind="air_interdiction",
        )
        if a.kind == "no_interdiction":
            return False
        striker = a["aircraft"]
        rc = yield from self.choose_one(
            me,
            "Which aircraft flies the reconnaissance?",
            "ROW-10.4.3",
            recons,
            kind="recon_aircraft",
            option="recon_with",
            key="aircraft",
            label=lambda x: aircraft_counters()[x].name,
        )
        v, how = self.air_value(rc, "recon")
        r, ok = self._roll(v, f"recon of {hid}")
        ok = ok and r.value != 10
        yield self.ruling(
            "ROW-10.4.3",
            "Reconnaissance",
            f"{aircraft_counters()[rc].name} ({how}) reconnoitres {hid}:"
            f" rolls {r.value}, " + ("the target is found" if ok else "nothing found") + ".",
            result={"aircraft": rc, "success": ok},
            dice=[r],
            places=[hid],
            side=me,
            **self._air_lookup(rc, "recon", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(rc, False, "a 10 on the reconnaissance", "ROW-10.4.3")
        else:
            yield from self._stay(rc, "ROW-10.4.3")
        if not ok or self._over:
            return False
        restricted = self.restricted.get(me, "none") != "none"
        v, how = self.air_value(striker, "interdiction", restricted=restricted)
        r, hit = self._roll(v, f"interdiction at {hid}")
        yield self.ruling(
            "ROW-10.4.1",
            "Interdiction",
            f"{aircraft_counters()[striker].name} ({how}) rolls {r.value} "
            f"against {label}: " + ("the LoC is cut for this action" if hit else "no effect") + ".",
            result={"aircraft": striker, "what": what, "success": hit},
            dice=[r],
            places=[hid],
            side=me,
            **self._air_lookup(striker, "interdiction", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(striker, False, "a 10 on the interdiction", "ROW-10.4.1")
        elif not self._over:
            yield from self._stay(striker, "ROW-10.4.1")
        return hit

    def air_hq_interdicted(self: RowGame, hq: str) -> bool:
        return hq in self.airwar.get("interdicted", [])

    def air_interdict_hq(self: RowGame, side: str, hq: str):
        """ROW-10.4.1: an HQ about to activate may be interdicted: it may not activate this season (an HQ
        Interdicted marker until the End Phase); it stays fresh."""
        hit = yield from self.air_interdicts(
            side, "hq_activation", self.pos[hq], f"the activation of {self.rows[hq].name}"
        )
        if hit:
            self.airwar["interdicted"] = sorted({*self.airwar["interdicted"], hq})
            self._touch()
            yield self.ruling(
                "ROW-10.4.1",
                "HQ Interdicted",
                f"{self.rows[hq].name} may not activate this season (HQ "
                "Interdicted marker until the End Phase); it stays fresh.",
                result={"hq": hq},
                places=[self.pos[hq]],
                side=other(side),
            )
        return hit

    def air_remove_interdicted(self: RowGame):
        """ROW-10.4.1 (C-c): the HQ Interdicted markers come off."""
        gone = list(self.airwar["interdicted"])
        self.airwar["interdicted"] = []
        self._touch()
        yield self.ruling(
            "ROW-10.4.1",
            "HQ Interdicted markers removed",
            f"{len(gone)} HQ Interdicted markers come off" + (f": {', '.join(gone)}" if gone else "") + ".",
            result={"removed": gone},
        )

    def air_public(self: RowGame) -> dict[str, Any]:
        """The Air Display for the state digest and the notebooks (sorted, plain values)."""
        aw = self.airwar
        out: dict[str, Any] = {
            k: v for k, v in sorted(aw.items()) if k not in ("aircraft", "airfields", "aces")
        }
        for k in ("aircraft", "airfields", "aces"):
            if k in aw:
                out[k] = {
                    i: (dict(sorted(v.items())) if isinstance(v, dict) else v)
                    for i, v in sorted(aw[k].items())
                }
        return out


# ---------------------------------------------------------------------------------------------- the built-in player
#: the Capitalist bot's wish for each plane type, best first (R-AIR-14)
US_WISHES = {
    "ec121": ("aew",),
    "rf4": ("recon",),
    "f4": ("downtown", "sam_strike", "ground_support"),
    "f105": ("sam_strike", "infrastructure", "ground_support"),
    "b52": ("infrastructure", "ground_support"),
    "maw": ("ground_support", "interdiction"),
    "cvw": ("infrastructure", "downtown", "ground_support"),
    "gunship": ("interdiction", "ground_support"),
    "a1": ("ground_support", "interdiction"),
}


def _worth(game: RowGame, a: str) -> int:
    t = aircraft_types()[aircraft_counters()[a].type]
    return sum(t.value(c) for c in ("a2a", "infrastructure", "airfield", "sam", "ground_support"))


def _pick(d: Any, kind: str) -> Action | None:
    return next((a for a in d.options if a.kind == kind), None)


def _air_mission(game: RowGame, d: Any) -> tuple[Action, str] | None:
    """ROW-10.2: which aircraft goes to which mission box (support wings first, then each type's wishes)."""
    commits = [a for a in d.options if a.kind == "commit_aircraft"]
    if not commits:
        return None
    side = d.side
    order = list(US_WISHES)  # support wings first (AEW, recon), then fighters, bombers, tactical wings
    first = min(
        (a["aircraft"] for a in commits),
        key=lambda u: (
            order.index(aircraft_counters()[u].type) if aircraft_counters()[u].type in order else len(order),
            u,
        ),
    )
    mine = [a for a in commits if a["aircraft"] == first]
    t = aircraft_counters()[first].type
    if side == COMMUNIST:
        us_strategic = [a for a in game._craft(CAPITALIST) if game.airwar["aircraft"][a]["box"] in STRATEGIC]
        for a in mine:
            if a["box"] == "downtown" and us_strategic:
                return a, (
                    f"{len(us_strategic)} US aircraft fly strategic missions: the MiGs rise over Downtown "
                    "to meet them"
                )
        gs = next((a for a in mine if a["box"] == "ground_support"), None)
        if gs is not None:
            return gs, "no US raid to meet: the fighter supports the troops in the South"
        return _pick(d, "done_commit"), "no use for this aircraft this season: it stays available"
    sams = game.airwar.get("sams", 0)
    intd = next((a for a in mine if a["box"] == "interdiction"), None)
    if (
        intd is not None
        and game._craft(CAPITALIST, "recon")
        and game._craft(CAPITALIST, "ground_support")
        and not game._craft(CAPITALIST, "interdiction")
    ):
        return intd, (
            f"{aircraft_counters()[first].name} to interdiction: a recon aircraft is up and the "
            "Ground Support box is manned, so one aircraft hunts enemy HQs"
        )
    for box in US_WISHES.get(t, ("ground_support",)):
        if box == "sam_strike" and (sams < 3 or game._craft(CAPITALIST, "sam_strike")):
            continue  # one SAM strike only against a real SAM belt
        if box == "downtown" and not any(
            game.airwar["aircraft"][a]["box"] not in ("eliminated", "withdrawn")
            for a in game._craft(COMMUNIST)
        ):
            continue
        if box == "interdiction" and game._craft(CAPITALIST, "interdiction"):
            continue
        cands = [a for a in mine if a["box"] == box]
        if cands:
            a = min(
                cands,
                key=lambda x: (
                    (not x["restricted"])
                    if game.vp["us_unrest"] >= game.vp["us_military_victory"]
                    else x["restricted"]
                ),
            )
            why = {
                "aew": "early warning adds 1 to every strike and blunts the SAMs",
                "recon": "reconnaissance is needed before any interdiction",
                "downtown": "escorts fight the MiGs over Hanoi",
                "sam_strike": f"{sams} SAMs threaten every raid",
                "infrastructure": "strikes lower the North's Infrastructure and so its supply",
                "ground_support": "air support adds to the troops' combats",
                "interdiction": "interdiction can stop an enemy HQ from activating",
            }[box]
            return a, f"{aircraft_counters()[first].name} to {box.replace('_', ' ')}" + (
                " (restricted: US Unrest is high)" if a["restricted"] else ""
            ) + f": {why}"
    return mine[0], f"{aircraft_counters()[first].name}: its first possible mission"


def _airfield(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.1: the airfield an aircraft flies from: the one with most room left."""
    a = max(d.options, key=lambda x: (game._room(x["airfield"]), x["airfield"]))
    return a, f"{a['airfield']} has the most room left"


def _secret_box(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.7: one unrestricted box secret while Secret Ops is low."""
    if game.vp["secret_ops"] <= 3:
        a = _pick(d, "secret_box")
        return a, f"the {a['box']} box is kept secret: a Secret Ops point instead of US Unrest"
    return _pick(d, "no_secret"), f"Secret Ops already at {game.vp['secret_ops']}: a reveal would cost a VP"


def _ace(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.6: the ace flies with the best air-to-air aircraft."""
    a = max(
        d.options,
        key=lambda x: (aircraft_types()[aircraft_counters()[x["aircraft"]].type].a2a, x["aircraft"]),
    )
    return a, "the ace flies with the best air-to-air aircraft"


def _airfield_work(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.1: repair a damaged airfield; improve one when aircraft outnumber the room; else keep the supply."""
    side = d.side
    supply = game.pools[SUPPLY_TRACK[side]]
    rep = _pick(d, "repair_airfield")
    if rep is not None and supply >= 4:
        return rep, "a damaged airfield grounds its aircraft"
    planes = len(
        [
            a
            for a in game._craft(side)
            if game.airwar["aircraft"][a]["box"] == "available" and aircraft_counters()[a].service != "Navy"
        ]
    )
    room = sum(game._capacity(f) for f in game.airwar["airfields"] if airfields()[f].side == side)
    imp = _pick(d, "improve_airfield")
    if imp is not None and planes > room and supply >= 6:
        return imp, f"{planes} aircraft but room for {room}: an improved airfield flies two"
    return _pick(d, "no_airfield_work"), "supply is kept for the ground war"


def _air_target(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.1: the most dangerous (or most valuable) enemy aircraft in reach."""
    a = max(d.options, key=lambda x: (game.air_value(x["target"], "a2a")[0], _worth(game, x["target"])))
    return a, f"{a['target']} is the most dangerous (or most valuable) enemy aircraft in reach"


def _sam_hit(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.5: the US gives up its least valuable aircraft, the Communist hits the most valuable."""
    if d.side == CAPITALIST:
        a = min(
            d.options,
            key=lambda x: (game.airwar["aircraft"][x["target"]]["reduced"], _worth(game, x["target"])),
        )
        return a, "the least valuable full-strength aircraft takes the hit"
    a = max(
        d.options, key=lambda x: (game.airwar["aircraft"][x["target"]]["reduced"], _worth(game, x["target"]))
    )
    return a, "a reduced aircraft hit again is eliminated; otherwise the most valuable"


def _strike_order(game: RowGame, d: Any) -> tuple[Action, str] | None:
    """ROW-10.3: SAM strikes first, then airfields, then infrastructure."""
    for b in ("sam_strike", "airfield_strike", "infrastructure"):
        a = next((x for x in d.options if x["box"] == b), None)
        if a is not None:
            return a, "SAMs first, then airfields, then infrastructure: each strike makes the next safer"
    return None


def _airfield_strike(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.3.1: the improved airfield first."""
    a = max(d.options, key=lambda x: (game.airwar["airfields"][x["airfield"]]["improved"], x["airfield"]))
    return a, "the improved airfield flies the most MiGs"


def _aircraft_lost(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.3.3.1: the aircraft least worth keeping is destroyed on the ground."""
    a = min(
        d.options,
        key=lambda x: (
            game.airwar["aircraft"][x["aircraft"]]["box"] != "damaged",
            _worth(game, x["aircraft"]),
        ),
    )
    return a, "the aircraft least worth keeping (a damaged one first) is lost"


def _air_support(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.2: the strongest ground-support aircraft flies the support."""
    a = max(d.options, key=lambda x: game.air_value(x["aircraft"], "ground_support")[0])
    return a, "the strongest ground-support aircraft covers the most"


def _air_interdiction(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.1: the US interdicts an HQ activation or a combat's support, never a single unit's move."""
    what = d.context.get("what", "")
    if d.side == CAPITALIST and what in ("hq_activation", "combat_support"):
        a = max(
            (x for x in d.options if x.kind == "interdict"),
            key=lambda x: game.air_value(x["aircraft"], "interdiction")[0],
        )
        return a, (
            "stopping an HQ stops its whole activation"
            if what == "hq_activation"
            else "cutting tank and artillery support weakens the enemy in this combat"
        )
    return _pick(d, "no_interdiction"), "not worth risking the aircraft for a single unit's move"


def _recon_aircraft(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-10.4.3: the best reconnaissance value flies."""
    a = max(d.options, key=lambda x: game.air_value(x["aircraft"], "recon")[0])
    return a, "the best reconnaissance value"


def _fleet_station(game: RowGame, d: Any) -> tuple[Action, str]:
    """ROW-11.1: the station nearer more Communist units (:meth:`NavalMixin.fleet_bot_station`)."""
    st, why = game.fleet_bot_station()
    return next(a for a in d.options if a["station"] == st), why


#: the built-in players' answers to the air and naval decisions (ROW-10.0, 11.1), by decision kind; each gives the
#: action and its reason (None: no answer, the bot's fallback takes the choice)
AIR_ANSWERS: dict[str, Callable[[RowGame, Any], tuple[Action, str] | None]] = {
    "air_mission": _air_mission,
    "airfield": _airfield,
    "secret_box": _secret_box,
    "ace": _ace,
    "airfield_work": _airfield_work,
    "air_target": _air_target,
    "sam_hit": _sam_hit,
    "strike_order": _strike_order,
    "airfield_strike": _airfield_strike,
    "aircraft_lost": _aircraft_lost,
    "air_support": _air_support,
    "air_interdiction": _air_interdiction,
    "recon_aircraft": _recon_aircraft,
    "fleet_station": _fleet_station,
}
