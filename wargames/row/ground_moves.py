"""Vietnam: Rumor of War, the movement kinds outside an activation's initial movement: strategic movement (ROW-4.4),
reserve movement, the reaction window (ROW-4.7), helicopter flights and Landing Zones (ROW-14.1.2), amphibious
landings (ROW-14.1.3) and the battalions created and disbanded by their parent units (ROW-14.1.1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ..core import Action
from . import hq as H
from . import movement
from .control import allowed_hexes, enemy_zoc, in_enemy_zoc
from .pieces import CAPITALIST, COMMUNIST
from .supply import (
    change,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class GroundMovesMixin:
    """The ground moves steps of :class:`RowGame`."""

    def communist_strategic_movement(self: RowGame):
        """ROW-4.4: the Communist may move fresh units up to 10 MP, one after another in his order, never starting
        in or entering an enemy ZoC; they stay fresh.  HQs do not move strategically in this version: the movement
        module has no strategic mode for HQs (decision R-GAME-02).  A restartable loop: Back resumes between
        units (issue #13)."""
        again = self.resumed("strategic")
        moved: list[str] = list(again["moved"]) if again else []
        while True:
            self.checkpoint("strategic", moved=list(moved))
            sit = self.situation()
            cands = [
                u
                for u in sorted(self.pos)
                if self.side_of(u) == COMMUNIST
                and self.rows[u].kind == "unit"
                and self.fresh[u]
                and u not in moved
                and not self._surprised(u)
                and not in_enemy_zoc(sit.piece(u), sit, self.map)
            ]
            opts = [
                Action.make(
                    "strategic_unit",
                    f"Move {self.rows[u].name} strategically from {self.pos[u]}",
                    [self.pos[u]],
                    unit=u,
                )
                for u in cands
            ]
            if not opts:
                break
            a = yield self.decide(
                COMMUNIST,
                "Strategic movement: which fresh unit moves next?",
                "ROW-4.4",
                [*opts, Action.make("done_strategic", "No more strategic movement")],
                kind="strategic_unit",
            )
            if a.kind == "done_strategic":
                break
            moved.append(a["unit"])
            if (
                yield from self.air_interdicts(
                    COMMUNIST,
                    "strategic_move",
                    self.pos[a["unit"]],  # ROW-10.4.1
                    f"the strategic move of {self.rows[a['unit']].name}",
                )
            ):
                continue
            mo = self.moves(a["unit"], "strategic")
            if len(mo) > 1:
                m = yield self.decide(
                    COMMUNIST,
                    f"Strategic move of {self.rows[a['unit']].name} (10 MP, no enemy ZoC)",
                    "ROW-4.4",
                    mo,
                    unit=a["unit"],
                    kind="move",
                )
                yield from self._move(a["unit"], m, "strategic")
        yield self.ruling(
            "ROW-4.4",
            "Strategic movement over",
            f"{len(moved)} Communist units moved strategically "
            "and stay fresh (HQs do not move strategically in this version, R-GAME-02).",
            result={"moved": moved},
        )

    def _flights(self: RowGame, uid: str) -> list[Action]:
        """ROW-14.1.2: a created unit on the hex where it was created may fly: ½ MP a hex (up to 5 MP, so 10
        hexes) ignoring terrain and enemy units, landing on a hex with no enemy piece inside its operational
        limits, for its helicopter points (Helicopter Used counts down)."""
        r = self.rows[uid]
        cost = r.helicopter_cost
        if (
            not r.has("created")
            or cost is None
            or self.pools["Helicopter Used"] < cost
            or uid not in self.pos
        ):
            return []
        here = self.pos[uid]
        if self.rows[r.parent].kind != "unit" or self.pos.get(r.parent) != here:
            return []
        sit = self.situation()
        ok = allowed_hexes(sit.piece(uid), sit.invaded, self.map) & self.window_land
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != r.side}
        out = []
        for h in sorted(ok):
            d = self.map.distance(here, h)
            if 0 < d <= 2 * movement.UNIT_MP and h not in enemy:
                out.append(
                    Action.make(
                        "fly",
                        f"Fly {r.name} to {h} ({cost} helicopter points, {d / 2:g} MP)",
                        [h],
                        unit=uid,
                        to=h,
                        cost=cost,
                        mp=str(Fraction(d, 2)),
                    )
                )
        return out

    def _landings(self: RowGame, uid: str) -> list[Action]:
        """ROW-14.1.3: a Marine battalion on a coastal hex may move by sea, coastal and all-sea hexes only, 1/3 MP
        a hex (so 15 hexes) ignoring terrain, enemy units and ZoCs, and land on a coastal hex with no enemy piece
        inside its limits and the window (then move on land with the MP left)."""
        r = self.rows[uid]
        if r.nationality != "US" or r.unit_type != "battalion" or not r.has("marine") or uid not in self.pos:
            return []
        here = self.pos[uid]
        if not self.map.is_coastal(here):
            return []
        sit = self.situation()
        ok = allowed_hexes(sit.piece(uid), sit.invaded, self.map) & self.window_land
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != r.side}
        seen, frontier, out = {here: 0}, [here], []
        while frontier:
            nxt = []
            for h in frontier:
                for n in self.map.neighbours(h):
                    if (
                        n in seen
                        or not (self.map.is_sea(n) or self.map.is_coastal(n))
                        or not self.window.contains(n)
                    ):
                        continue
                    seen[n] = seen[h] + 1
                    if seen[n] < 3 * movement.UNIT_MP:
                        nxt.append(n)
            frontier = nxt
        for h, d in sorted(seen.items()):
            if d and self.map.is_coastal(h) and h in ok and h not in enemy and d <= 3 * movement.UNIT_MP:
                out.append(
                    Action.make(
                        "amphibious",
                        f"Land {r.name} at {h} from the sea ({d} hexes, {d / 3:.2g} MP)",
                        [h],
                        unit=uid,
                        to=h,
                        mp=str(Fraction(d, 3)),
                    )
                )
        return out

    def _land(self: RowGame, uid: str, a: Action):
        """ROW-14.1.3: the amphibious move (its path by sea is not blocked by enemy units or ZoCs)."""
        frm = self.pos[uid]
        self.place(uid, a["to"])
        self._touch()
        yield self.ruling(
            "ROW-14.1.3",
            "Amphibious landing",
            f"{self.rows[uid].name} moves by sea from {frm} and "
            f"lands at {a['to']} ({a['mp']} MP); only one such move is made in an activation.",
            result={"unit": uid, "to": a["to"]},
            places=[frm, a["to"]],
        )
        yield from self._rout(a["to"], self.side_of(uid))

    def _fly(self: RowGame, uid: str, a: Action):
        """ROW-14.1.2.2: the flight, the Landing Zone (Capitalist control around it) and a Hot LZ if the landing hex
        is in an enemy ZoC (Helicopter Available -1)."""
        frm = self.pos[uid]
        new, r = change(self.pools_obj(), "Helicopter Used", -a["cost"], f"{uid} flies")
        self.set_pools(new)
        self.place(uid, a["to"])
        self.lz = sorted({*self.lz, a["to"]})
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Helicopter movement",
            f"{self.rows[uid].name} flies from {frm} to "
            f"{a['to']} ({a['mp']} MP) and a Landing Zone is placed there. {r.explanation}",
            result={"unit": uid, "to": a["to"], "cost": a["cost"]},
            places=[frm, a["to"]],
        )
        sit = self.situation()
        if a["to"] in enemy_zoc(sit, CAPITALIST, self.map):
            new, r = change(self.pools_obj(), "Helicopter Available", -1, "Hot LZ", forced=True)
            self.set_pools(new)
            yield self.ruling(
                "ROW-14.1.2",
                "Hot LZ",
                f"The Landing Zone at {a['to']} is in an enemy ZoC: it turns Hot. {r.explanation}",
                result={"hex": a["to"]},
                places=[a["to"]],
            )

    def _creatable(self: RowGame, uid: str) -> list[str]:
        """ROW-14.1.1: the battalions (ARVN regiments) a US cadre, regiment or brigade, or an ARVN division, may
        create now: its own, not on the map."""
        r = self.rows[uid]
        if not (
            (r.nationality == "US" and r.unit_type in ("cadre", "regiment", "brigade"))
            or (r.nationality == "ARVN" and r.unit_type == "division")
        ):
            return []
        return [k for k in self.all_ids if self.rows[k].parent == uid and self.box.get(k) == "unformed"]

    def _disband(self: RowGame, kid: str, parent: str):
        """ROW-14.1.1: a created unit leaves the map at the end of its activation: free with a LoC, else a D6 of US
        Casualties (US only); markers it gained pass to its parent if the parent is on the map (which never moved)."""
        if kid not in self.pos:
            return
        hid = self.pos[kid]
        loc = self.tracer().trace(self.situation().piece(kid))
        gained = [m for m in self.markers[kid] if m not in self.markers.get(parent, [])]
        roll = None
        if not loc.result.ok and self.rows[kid].nationality == "US":
            roll = self.dice.roll(6, f"{kid} leaves without a LoC")
        if parent in self.pos and gained:
            self.markers[parent] = tuple(sorted({*self.markers[parent], *gained}))
            self.markers[kid] = ()
        else:
            self._clear_markers(kid)
        self.place(kid, None, "unformed")
        self.fresh[kid] = True
        self._touch()
        yield self.ruling(
            "ROW-14.1.1",
            "Created unit leaves",
            f"{self.rows[kid].name} leaves the map at {hid}"
            + (
                f"; it cannot trace a LoC: D6 = {roll.value} US Casualties"
                if roll
                else " (it traces a LoC)"
                if loc.result.ok
                else " (no LoC; not a US unit, so no roll)"
            )
            + (f"; its markers {', '.join(gained)} pass to {parent}" if gained and parent in self.pos else "")
            + ".",
            result={"unit": kid, "hex": hid, "casualties": roll.value if roll else 0},
            dice=[roll] if roll else [],
            places=[hid],
        )
        if roll:
            yield from self._accumulate("US Casualties", roll.value)

    def may_reserve(self: RowGame) -> bool:
        """ROW-4.7 / ROW-5.2.2: a reserve move needs a fresh HQ with a LoC, not in an enemy ZoC."""
        return any(
            o.kind == "reserve_hq"
            for o in H.reserve_hq_options(
                self.act, self.situation(), self.tracer(), no_reserve=self._giap_uprising()
            )
        )

    def _giap_uprising(self: RowGame) -> bool:
        """ROW-14.2.1: with Giap in command, no Capitalist reserve moves during a General Uprising."""
        return (
            self.act is not None
            and self.act.side == COMMUNIST
            and self.commander_id(COMMUNIST) == "vo_nguyen_giap"
            and self.missions[COMMUNIST] == "general_uprising"
        )

    def reserve_movement(self: RowGame, side: str):
        """ROW-4.7 (the reaction window): the non-phasing side may move one fresh HQ and up to 4 fresh units."""
        opts = H.reserve_hq_options(
            self.act, self.situation(), self.tracer(), no_reserve=self._giap_uprising()
        )
        a = yield self.decide(
            side, f"{side}: a reserve move against this activation?", "ROW-4.7", opts, kind="reserve_hq"
        )
        if a.kind == "no_reserve":
            yield self.ruling("ROW-4.7", "No reserve move", f"The {side} makes no reserve move.", result={})
            return
        chosen: list[str] = []
        while len(chosen) < H.UNITS_PER_ACTIVATION:
            uo = [
                o
                for o in H.reserve_unit_options(
                    self.act, self.situation(), a["hq"], mission=self.missions[side], m=self.map
                )
                if o["unit"] not in chosen and not self._surprised(o["unit"])
            ]
            if not uo:
                break
            u = yield self.decide(
                side,
                f"Reserve unit for {a['hq']} ({len(chosen)} of 4)",
                "ROW-4.7",
                [*uo, Action.make("done_reserve", "No more reserve units")],
                kind="reserve_unit",
            )
            if u.kind == "done_reserve":
                break
            chosen.append(u["unit"])
        sit, self.act, r = H.reserve_activation(
            self.act,
            self.situation(),
            a["hq"],
            chosen,
            self.tracer(),
            mission=self.missions[side],
            m=self.map,
        )
        for u in (a["hq"], *chosen):
            self.fresh[u] = False
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, side=side)
        for uid in chosen:
            mo = self.moves(uid, "reserve")
            if len(mo) > 1:
                m = yield self.decide(
                    side,
                    f"Reserve move of {self.rows[uid].name} (5 MP)",
                    "ROW-4.7",
                    mo,
                    unit=uid,
                    kind="move",
                )
                yield from self._move(uid, m, "reserve")
        mo = self.moves(a["hq"], "reserve_hq")
        if len(mo) > 1:
            m = yield self.decide(
                side,
                f"Reserve move of {self.rows[a['hq']].name} (5 MP, R-HQ-02)",
                "ROW-4.7",
                mo,
                unit=a["hq"],
                kind="move",
            )
            yield from self._move(a["hq"], m, "reserve_hq")
