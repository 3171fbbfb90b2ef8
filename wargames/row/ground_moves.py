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
from .control import allowed_hexes, enemy_zoc, in_enemy_zoc, zoc_hexes
from .pieces import CAPITALIST, COMMUNIST
from .supply import (
    change,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class GroundMovesMixin:
    """The ground moves steps of :class:`RowGame`."""

    def communist_strategic_movement(self: RowGame):
        """ROW-4.4: the Communist may move fresh units and HQs up to 10 MP, one after another in his order, never
        starting in or entering an enemy ZoC; they stay fresh (HQs by the ``strategic_hq`` mode, which keeps the HQ
        rules of R-MOV-08; decision R-GAME-02).  A restartable loop: Back resumes between pieces (issue #13)."""
        again = self.resumed("strategic")
        moved: list[str] = list(again["moved"]) if again else []
        while True:
            self.checkpoint("strategic", moved=list(moved))
            sit = self.situation()
            zoc = enemy_zoc(sit, COMMUNIST, self.map)
            cands = [
                u
                for u in sorted(self.pos)
                if self.side_of(u) == COMMUNIST
                and self.fresh[u]
                and u not in moved
                and not self._surprised(u)
                and (
                    not in_enemy_zoc(sit.piece(u), sit, self.map)
                    if self.rows[u].kind == "unit"
                    else self.pos[u] not in zoc
                )
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
            mo = self.moves(a["unit"], "strategic_hq" if self.rows[a["unit"]].kind == "hq" else "strategic")
            if len(mo) > 1:
                m = yield self.decide(
                    COMMUNIST,
                    f"Strategic move of {self.rows[a['unit']].name} (10 MP, no enemy ZoC)",
                    "ROW-4.4",
                    mo,
                    unit=a["unit"],
                    kind="move",
                )
                mode = "strategic_hq" if self.rows[a["unit"]].kind == "hq" else "strategic"
                yield from self._move(a["unit"], m, mode)
        yield self.ruling(
            "ROW-4.4",
            "Strategic movement over",
            f"{len(moved)} Communist units and HQs moved strategically and stay fresh.",
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
        yield from self._entered(uid, [frm, a["to"]])  # 9.1, 14.6.4 where it lands

    def _fly(self: RowGame, uid: str, a: Action):
        """ROW-14.1.2.2: the flight, the Landing Zone (Capitalist control around it) and a Hot LZ if the landing hex
        is in an enemy ZoC (Helicopter Available -1)."""
        frm = self.pos[uid]
        new, r = change(self.pools_obj(), "Helicopter Used", -a["cost"], f"{uid} flies")
        self.set_pools(new)
        self.place(uid, a["to"])
        self.lz[:] = sorted({*self.lz, a["to"]})
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
        # 14.1.2.2: the Landing Zone marker is in an enemy ZoC whatever stands on it (the landed unit does not
        # negate the ZoC for the marker)
        if a["to"] in zoc_hexes(sit, COMMUNIST, self.map):
            new, r = change(self.pools_obj(), "Helicopter Available", -1, "Hot LZ", forced=True)
            self.set_pools(new)
            yield self.ruling(
                "ROW-14.1.2",
                "Hot LZ",
                f"The Landing Zone at {a['to']} is in an enemy ZoC: it turns Hot. {r.explanation}",
                result={"hex": a["to"]},
                places=[a["to"]],
            )
        yield from self._entered(uid, [frm, a["to"]])  # 9.1, 14.6.4 where it lands

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

    def _disband(
        self: RowGame, kid: str, parent: str, unmoved: list[str] = (), received: dict[str, int] | None = None
    ):
        """ROW-14.1.1 / ROW-14.1.2 / ROW-14.4.1: a created unit leaves the map at the end of its activation.  It
        leaves free if it traces a LoC; a trace through enemy-controlled hexes costs a SNAFU draw, so the Capitalist
        may decline it (R-GAME-17); without a trace a US unit costs a D6 of US Casualties.  Each marker it gained
        goes to an active, unmoved regiment, brigade or cadre of its nationality (an ARVN one to an active ARVN
        division), the Capitalist's choice, one to each before any takes a second; with none it is removed."""
        if kid not in self.pos:
            return
        received = {} if received is None else received
        hid = self.pos[kid]
        loc = self.tracer().trace(self.situation().piece(kid))
        traced = loc.result.ok
        if traced and loc.result.snafu:
            a = yield self.decide(
                CAPITALIST,
                f"{self.rows[kid].name} leaves the map: its LoC crosses enemy-controlled hexes. Trace it (a SNAFU "
                "draw for it) or not (it leaves as if cut off)?",
                "ROW-14.4.1",
                [
                    Action.make("trace_loc", "Trace the LoC: one SNAFU draw for the unit", [hid], unit=kid),
                    Action.make("no_trace", "Do not trace: it leaves without a LoC", [hid], unit=kid),
                ],
                kind="loc_trace",
            )
            if a.kind == "trace_loc":
                yield self.ruling(
                    "ROW-14.4.1",
                    "LoC traced through enemy control",
                    f"{self.rows[kid].name}'s LoC crosses enemy-controlled hexes: the Communist draws once from the "
                    "Cup of SNAFU for it.",
                    result={"unit": kid, "snafu": 1},
                    places=[hid],
                )
                yield from self._snafu_for(COMMUNIST, kid, f"{kid} traced a LoC through enemy control")
            else:
                traced = False
        gained = [m for m in self.markers[kid] if m not in self.markers.get(parent, [])]
        roll = None
        if not traced and self.rows[kid].nationality == "US":
            roll = self.dice.roll(6, f"{kid} leaves without a LoC")
        self.markers[
            kid
        ] = ()  # the markers it had from its parent stay with the parent; the gained ones pass on
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
                if traced
                else " (no LoC; not a US unit, so no roll)"
            )
            + ".",
            result={"unit": kid, "hex": hid, "casualties": roll.value if roll else 0, "gained": gained},
            dice=[roll] if roll else [],
            places=[hid],
        )
        for m in gained:
            yield from self._pass_marker(kid, m, unmoved, received)
        if roll:
            yield from self._accumulate("US Casualties", roll.value)

    def _pass_marker(self: RowGame, kid: str, marker: str, unmoved: list[str], received: dict[str, int]):
        """ROW-14.1.2: a marker a departing battalion gained goes to an active, unmoved US regiment, brigade or
        cadre (an ARVN regiment's to an active ARVN division) not already carrying it, one to each before any
        takes a second (the Capitalist chooses among those with fewest); with none it is removed."""
        nat = self.rows[kid].nationality
        kinds = ("division",) if nat == "ARVN" else ("regiment", "brigade", "cadre")
        fits = [
            u
            for u in unmoved
            if u in self.pos
            and self.rows[u].nationality == nat
            and self.rows[u].unit_type in kinds
            and marker not in self.markers[u]
        ]
        least = min((received.get(u, 0) for u in fits), default=0)
        fits = [u for u in fits if received.get(u, 0) == least]
        if not fits:
            self._return_counter(kid, marker)
            yield self.ruling(
                "ROW-14.1.2",
                "Marker removed",
                f"No active, unmoved {nat} parent unit can take the {marker} marker {self.rows[kid].name} gained: "
                "it is removed from play.",
                result={"unit": kid, "marker": marker, "to": None},
            )
            return
        to = yield from self.choose_one(
            CAPITALIST,
            f"Which active, unmoved unit takes the {marker} marker {self.rows[kid].name} gained?",
            "ROW-14.1.2",
            fits,
            kind="marker_transfer",
            option="take_marker",
            key="unit",
            label=lambda u: f"{self.rows[u].name} at {self.pos[u]} takes {marker}",
            places=lambda u: [self.pos[u]],
        )
        received[to] = received.get(to, 0) + 1
        self.markers[to] = tuple(sorted({*self.markers[to], marker}))
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Marker passed on",
            f"The {marker} marker {self.rows[kid].name} gained goes to {self.rows[to].name}.",
            result={"unit": kid, "marker": marker, "to": to},
            places=[self.pos[to]],
        )

    def _return_counter(self: RowGame, uid: str, marker: str) -> None:
        """ROW-6.1: a SNAFU counter's face that leaves play goes back to the Cup of SNAFU (other markers vanish)."""
        from .randomevents import SnafuCup, counter_row, faces

        side = self.side_of(uid)
        for c in SnafuCup.full().counters:
            if c not in self.snafu and counter_row(c).side == side and marker in faces(c):
                self.snafu.add(c)
                return

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
                f"Reserve unit for {self.display_name(a['hq'])} ({len(chosen)} of 4)",
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
        moved = False
        if len(mo) > 1:
            m = yield self.decide(
                side,
                f"Reserve move of {self.rows[a['hq']].name} (5 MP, R-HQ-02)",
                "ROW-4.7",
                mo,
                unit=a["hq"],
                kind="move",
            )
            moved = m.kind == "move"
            yield from self._move(a["hq"], m, "reserve_hq")
        if not moved and a["hq"] in self.pos:
            yield from self._refresh_reserve_hq(side, a["hq"])

    def _refresh_reserve_hq(self: RowGame, side: str, hq: str):
        """ROW-4.7 / ROW-9.3: a reserve HQ that did not move may pay its supply cost at the end of the reserve move
        to flip back to fresh (each way of paying offered; one that moved may not)."""
        opts = H.refresh_options(
            self.situation().piece(hq), self.pools_obj(), self.tracer(), "activation", m=self.map
        )
        if not opts:
            return
        a = yield self.decide(
            side,
            f"{self.rows[hq].name} did not move: pay to flip it fresh again?",
            "ROW-4.7",
            [*opts, Action.make("no_refresh", f"{self.rows[hq].name} stays spent", hq=hq)],
            kind="hq_refresh",
        )
        if a.kind == "no_refresh":
            return
        _, pools, r = H.refresh_hq(
            self.situation(), self.pools_obj(), a, self.tracer(), "activation", m=self.map
        )
        self.fresh[hq] = True
        self.set_pools(pools)
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side)
