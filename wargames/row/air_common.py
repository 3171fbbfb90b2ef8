"""Vietnam: Rumor of War, the air war's common ground (ROW-10.0): the mission boxes, an aircraft's value for a
mission (:func:`mission_value`), the queries on the Air Display (aircraft by box, airfield room), air points and
damage.  The procedures are ``air_setup``, ``air_commitment``, ``air_strategic`` and ``air_tactical``; ``air`` puts
them together.
"""

from __future__ import annotations

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
)
from .pieces import CAPITALIST, COMMUNIST

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

US_SERVICES = ("USAF", "Navy", "USMC")
STRATEGIC = ("aew", "downtown", "infrastructure", "airfield_strike", "sam_strike")
TACTICAL = ("ground_support", "interdiction", "recon", "hcm_strike")
STRIKES = ("infrastructure", "airfield_strike", "sam_strike")
AIR_TRACK = {CAPITALIST: "US Air", COMMUNIST: "Communist Air"}
SUPPLY_TRACK = {CAPITALIST: "Capitalist Supply", COMMUNIST: "Communist Supply"}
REPAIR_COST, IMPROVE_COST = 1, 2  # data/row/tables/supply_costs.csv repair_airfield, upgrade_airfield (7.1a)


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


class AirCommonMixin:
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
        """ROW-10.2: every (aircraft, mission box, restricted?) commitment ``side`` may make now; with China in the
        Capitalist's are all unrestricted, whatever the scenario restricted (12.2, R-WAR-12)."""
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
                if side == CAPITALIST and mb.restricted_box == "yes" and not self.china_in():
                    variants = [True] if sc is not None and b in sc.restricted_only else [False, True]
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
        s, r, opts = V.add_points(self.vstate(), key, points, vp=self._auto_vp(key))
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
                    self.vstate(), key, self.dice, vp=self._vp_value(key), modifier=mod
                )  # 14.2.1 (politics.py); 12.2 and 9.5 doublings (R-WAR-10)
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
