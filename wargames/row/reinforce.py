"""Reinforcements when the chart hex is lost (13.1.1) and Capitalist withdrawals (13.1.3).

* 13.1.1: a reinforcement whose supply source is not available (an enemy unit holds it) enters elsewhere if it is a
  US unit (a friendly coastal city of its Corps area: a city hex on the coast, in one of the scenario's US areas,
  with no enemy unit; the Capitalist chooses) or a PAVN unit (the PRC supply source hex, if in play and free);
  every other unit waits for a later Turn Phase (decision R-REI-01; the earlier R-GAME-09 wait stays for them).
* 13.1.3: the chart's withdrawals leave the game from wherever they are (map, Replacements or Destroyed box, or
  not yet arrived) in the Capitalist reinforcement step; they go to the box ``withdrawn``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .control import allowed_hexes
from .entry import source_spots
from .pieces import CAPITALIST, COMMUNIST, Piece
from .supply import (
    change,
    supply_tables,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class ReinforceMixin:
    def alternate_entry(self: RowGame, uid: str, side: str):
        """ROW-13.1.1: the hex a blocked reinforcement enters instead, or None (it waits)."""
        r = self.rows[uid]
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != side}
        if r.nationality == "US":
            areas = set(self.scenario.us_areas)
            spots = sorted(
                h
                for h in self.window_land
                if self.map.settlement(h) == "city"
                and self.map.is_coastal(h)
                and self.map.country(h) == "SVN"
                and self.map.area(h) in areas
                and h not in enemy
            )
        elif r.nationality == "PAVN":
            spots = sorted(
                h for h in self.map.supply_sources("prc") if h in self.window_land and h not in enemy
            )
        else:
            spots = []
        if not spots:
            return None
        a = yield self.decide(
            side,
            f"{r.name}'s arrival hex {self.display_name(self.start_hex[uid])} is held by the enemy: where does it enter?",
            "ROW-13.1.1",
            [Action.make("enter_at", f"{r.name} enters at {h}", [h], unit=uid, hex=h) for h in spots],
            kind="reinforcement_entry",
        )
        yield self.ruling(
            "ROW-13.1.1",
            "Reinforcement diverted",
            f"{r.name} cannot use {self.start_hex[uid]} and "
            + (
                "enters at the friendly coastal city "
                if r.nationality == "US"
                else "enters at the PRC supply source "
            )
            + f"{a['hex']} (R-REI-01).",
            result={"unit": uid, "hex": a["hex"]},
            places=[a["hex"]],
        )
        return a["hex"]

    def withdrawals_step(self: RowGame):
        """ROW-13.1.3: this turn's withdrawals leave the game (no ruling when there are none)."""
        gone = []
        for w in self.scenario.withdrawals:
            if w.turn != self.season or self.box.get(w.unit) == "withdrawn":
                continue
            where = self.pos.get(w.unit) or self.box.get(w.unit)
            if w.unit in self.pos:
                self._clear_markers(w.unit)
            self.place(w.unit, None, "withdrawn")
            gone.append((w.unit, where))
        if gone:
            self._touch()
            yield self.ruling(
                "ROW-13.1.3",
                "Withdrawals",
                "The chart withdraws "
                + ", ".join(f"{self.rows[u].name} (from {w})" for u, w in gone)
                + ": they leave the game.",
                result={"withdrawn": [u for u, _ in gone]},
                places=[w for _, w in gone if w and w[0].isdigit()],
                side=CAPITALIST,
            )

    def _reinforce(self: RowGame, side: str):
        arrived, waiting = [], []
        for uid in sorted(
            u
            for u, b in self.box.items()
            if b == "reinforcements" and self.side_of(u) == side and self._arrival_turn(u) <= self.season
        ):
            hid = self.start_hex[uid]
            if any(self.side_of(x) != side for x in self.at_hex.get(hid, [])):
                if arrived and self.rows[uid].nationality in (
                    "US",
                    "PAVN",
                ):  # named before a diversion is asked
                    yield self.ruling(
                        "ROW-13.1.1",
                        f"{side} reinforcements so far",
                        f"{', '.join(arrived)} have arrived at their chart hexes.",
                        result={"arrived": list(arrived)},
                        places=[self.pos[u] for u in arrived],
                    )
                hid = yield from self.alternate_entry(uid, side)  # 13.1.1 (reinforce.py, R-REI-01)
                if hid is None:
                    waiting.append(uid)
                    continue
            self.place(uid, hid)
            self.fresh[uid] = True
            self._touch()
            arrived.append(uid)
        yield self.ruling(
            "ROW-13.1.1",
            f"{side} reinforcements",
            (
                f"{', '.join(arrived)} arrive fresh at their chart hexes"
                if arrived
                else "No reinforcement arrives"
            )
            + (
                f"; {', '.join(waiting)} wait: an enemy unit holds the arrival hex (R-GAME-09)"
                if waiting
                else ""
            )
            + ".",
            result={"arrived": arrived, "waiting": waiting},
            places=[self.pos[u] for u in arrived],
        )

    def _arrival_turn(self: RowGame, uid: str) -> int:
        return next((r.turn for r in self.scenario.reinforcements if r.unit == uid), 0)

    def _levels(self: RowGame, side: str):
        for lc in self.scenario.level_changes:
            name = lc.track.removesuffix(" Support")
            if lc.turn != self.season or supply_tables().tracks[name].side != side:
                continue
            new, r = change(self.pools_obj(), name, lc.change, "reinforcement chart", forced=True)
            self.set_pools(new)
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def capitalist_reinforcements(self: RowGame):
        """ROW-13.1.1 / ROW-8.1: the chart's units, level changes and events (R-SCN-15); withdrawals (13.1.3)."""
        yield from self.withdrawals_step()
        yield from self._reinforce(CAPITALIST)
        yield from self._levels(CAPITALIST)
        for ev in self.scenario.events:
            if ev.turn != self.season:
                continue
            text = ev.summary
            if ev.kind == "marker":
                for u in ev.units:
                    if u in self.pos and ev.marker not in self.markers[u]:
                        self.markers[u] = tuple(sorted([*self.markers[u], ev.marker]))
                self._touch()
                text += f" ({ev.marker} on {', '.join(ev.units)}.)"
            elif (
                ev.kind == "commander"
            ):  # 14.2.1: the chart's forced change of theater commander (politics.py)
                text += " " + self.chart_commander(ev.leader)
            elif ev.kind == "leader":
                yield self.ruling(
                    "ROW-13.1", f"Event: {ev.id.replace('_', ' ')}", text, result={"event": ev.id}
                )
                yield from self.place_ground_commander(ev.leader, ev.hq)
                continue
            yield self.ruling("ROW-13.1", f"Event: {ev.id.replace('_', ' ')}", text, result={"event": ev.id})

    def ground_commander_hqs(self: RowGame, leader: str) -> list[str]:
        """ROW-14.2.2 (decision R-WAR-15): the HQs an arriving ground commander may join: his side's HQs on the map
        of his nationality (a leader helps only units of his own nationality)."""
        row = self.rows[leader]
        return sorted(
            u
            for u in self.pos
            if self.rows[u].kind == "hq"
            and self.rows[u].side == row.side
            and self.rows[u].nationality == row.nationality
        )

    def place_ground_commander(self: RowGame, leader: str, chart_hq: str | None = None):
        """ROW-14.2.2 (decision R-WAR-15): the owner places an arriving ground commander on one of the allowed HQs
        (the chart's HQ, where history put him, is one of the choices when it is on the map); a commander already
        with that HQ is relieved; with no allowed HQ on the map he waits off it (not placed)."""
        row = self.rows[leader]
        hqs = self.ground_commander_hqs(leader)
        if not hqs:
            yield self.ruling(
                "ROW-14.2.2",
                "Ground commander waits",
                f"{row.name} arrives, but no {row.nationality} HQ of the {row.side} is on the map: he is not placed.",
                result={"leader": leader, "hq": None},
                side=row.side,
            )
            return
        opts = [
            Action.make(
                "place_leader",
                f"{row.name} (value {row.leader_value:+d}) takes command of {self.rows[h].name}"
                + (" (the chart's choice)" if h == chart_hq else "")
                + (
                    f", relieving {', '.join(self.rows[c].name for c, x in sorted(self.leaders.items()) if x == h)}"
                    if any(x == h and c != leader for c, x in self.leaders.items())
                    else ""
                ),
                [self.pos[h]],
                leader=leader,
                hq=h,
                chart=h == chart_hq,
            )
            for h in hqs
        ]
        a = yield self.decide(
            row.side,
            f"Where does {row.name} take command?",
            "ROW-14.2.2",
            opts,
            kind="ground_commander",
        )
        hq = a["hq"]
        relieved = sorted(c for c, x in self.leaders.items() if x == hq and c != leader)
        for c in relieved:
            del self.leaders[c]
        self.leaders[leader] = hq
        self._touch()
        yield self.ruling(
            "ROW-14.2.2",
            "Ground commander placed",
            f"{row.name} (value {row.leader_value:+d}) takes command of {self.rows[hq].name}"
            + (f"; {', '.join(self.rows[c].name for c in relieved)} is relieved" if relieved else "")
            + ".",
            result={"leader": leader, "hq": hq, "relieved": relieved},
            places=[self.pos[hq]],
            side=row.side,
        )

    def capitalist_replacements(self: RowGame):
        yield from self._replacements(CAPITALIST)

    def _replacements(self: RowGame, side: str):
        """ROW-13.2 (B2b): for 1 replacement point a unit leaves the Replacements box while another, of the same
        size class or larger, goes to the Destroyed box; the returning unit enters at once, fresh, on a friendly supply
        source of its owner's choice (13.1.1), or with none free at the next Reinforcement Placement at its start
        hex (a VC unit goes back into the VC cup, to return by recruitment; R-GAME-08)."""
        track = f"{side} Replacements"
        rank = {"A": 3, "B": 2, "C": 1}
        while True:
            box = sorted(u for u, b in self.box.items() if b == "replacements" and self.side_of(u) == side)
            if self.pools[track] < 1 or len(box) < 2:
                break
            opts = [
                Action.make(
                    "replace_unit",
                    f"Bring back {self.rows[u].name} (class {self.rows[u].size_class})",
                    unit=u,
                )
                for u in box
                if any(
                    d != u and rank[self.rows[d].size_class or "C"] >= rank[self.rows[u].size_class or "C"]
                    for d in box
                )
            ]
            if not opts:
                break
            a = yield self.decide(
                side,
                f"{side} replacements ({self.pools[track]} points): bring a unit back?",
                "ROW-13.2",
                [*opts, Action.make("no_replacement", "No more replacements")],
                kind="replacement",
            )
            if a.kind == "no_replacement":
                break
            back = a["unit"]
            do = [
                Action.make(
                    "destroy_unit",
                    f"{self.rows[d].name} (class {self.rows[d].size_class}) goes to the Destroyed box",
                    unit=d,
                )
                for d in box
                if d != back
                and rank[self.rows[d].size_class or "C"] >= rank[self.rows[back].size_class or "C"]
            ]
            d = yield self.decide(
                side,
                f"Which unit goes to the Destroyed box for {self.rows[back].name}?",
                "ROW-13.2",
                do,
                kind="replacement_cost",
            )
            new, r = change(self.pools_obj(), track, -1, f"{self.rows[back].name} replaced")
            self.set_pools(new)
            self.place(d["unit"], None, "destroyed")
            vc = back not in self.start_hex
            spots = [] if vc else source_spots(self, back)
            self.place(back, None, "vc_cup" if vc else "reinforcements")
            self.fresh[back] = True
            self._touch()
            yield self.ruling(
                "ROW-13.2",
                "Replacement",
                f"{self.rows[back].name} leaves the Replacements box "
                + (
                    "for the VC cup (it returns by recruitment)"
                    if vc
                    else "and enters at once on a friendly supply source of its owner's choice"
                    if spots
                    else "but no friendly supply source is free: it waits for the next Reinforcement Placement "
                    "at its start hex"
                )
                + f"; {self.rows[d['unit']].name} goes to the Destroyed box. {r.explanation}",
                result={"returned": back, "destroyed": d["unit"]},
            )
            if spots:  # 13.1.1 / 13.2 (R-GAME-08): on a friendly supply source the owner chooses, fresh
                yield from self.enter_fresh(
                    side,
                    back,
                    spots,
                    "ROW-13.2",
                    kind="replacement_entry",
                    option="enter_at",
                    key="unit",
                    prompt=f"Where does {self.rows[back].name} come back?",
                    label="comes back at",
                    title="Replaced unit enters",
                    text="comes back fresh at the supply source",
                )

    def _routed_return(self: RowGame, side: str):
        """ROW-9.1 (B2c): each routed HQ returns fresh on a friendly supply source of the owner's choice (the
        Communist's include the active trail termini, R-SUP-03) inside the window and its limits, with no enemy
        piece there; with none free it stays routed."""
        back = []
        for uid in sorted(u for u, b in self.box.items() if b == "routed" and self.side_of(u) == side):
            srcs = (
                set(self.map.supply_sources("capitalist"))
                if side == CAPITALIST
                else (
                    set(self.map.supply_sources("pavn"))
                    | set(self.map.supply_sources("prc"))
                    | {self.map.terminus(n) for n in self.active_terminus_numbers()}
                )
            )
            probe = Piece(
                uid,
                side,
                self.rows[uid].nationality,
                self.start_hex.get(uid, next(iter(srcs))),
                kind="hq",
                areas=frozenset(self.scenario.us_areas)
                if self.rows[uid].nationality == "US"
                else frozenset(),
            )
            ok = allowed_hexes(probe, frozenset(), self.map)
            enemy = {h for u, h in self.pos.items() if self.side_of(u) != side}
            spots = sorted(h for h in srcs if h in self.window_land and h in ok and h not in enemy)
            if not spots:
                yield self.ruling(
                    "ROW-9.1",
                    "Routed HQ waits",
                    f"No friendly supply source is free for {self.rows[uid].name}: it stays routed.",
                    result={"hq": uid},
                )
                continue
            yield from self.enter_fresh(
                side,
                uid,
                spots,
                "ROW-9.1",
                kind="hq_return",
                option="return_hq",
                key="hq",
                prompt=f"Where does {self.rows[uid].name} return?",
                label="returns at",
                title="Routed HQ returns",
                text="returns fresh at the supply source",
            )
            back.append(uid)
        yield self.ruling(
            "ROW-9.1",
            f"{side} routed HQs",
            (f"{', '.join(back)} returned" if back else "No routed HQ returned") + ".",
            result={"returned": back},
        )

    def capitalist_routed_hqs(self: RowGame):
        yield from self._routed_return(CAPITALIST)

    def communist_reinforcements(self: RowGame):
        yield from self._reinforce(COMMUNIST)
        yield from self._levels(COMMUNIST)
        yield from self.china_replacements()  # 12.2 (politics.py): nothing unless China is in

    def communist_replacements(self: RowGame):
        yield from self._replacements(COMMUNIST)

    def communist_routed_hqs(self: RowGame):
        yield from self._routed_return(COMMUNIST)

    def _cadre_draws(self: RowGame, hid: str) -> int:
        """ROW-13.1.2: how many units a VC cadre in ``hid`` may draw: two in a city; one in a cultivated hex, a
        town, War Zone C or D or the Iron Triangle (whatever its terrain), or anywhere in South Vietnam under the
        Recruit mission; else none."""
        place = self.map.settlement(hid)
        if place == "city":
            return 2
        recruit = self.missions[COMMUNIST] == "recruit" and self.map.country(hid) == "SVN"
        zone = self.map.zone(hid)
        return 1 if (self.map.terrain(hid) == "cultivated" or place == "town" or zone or recruit) else 0

    def _empty_vc_cup(self: RowGame, paid: bool):
        """ROW-13.1.2 (R-GAME-16): a recruitment draw is due and the VC cup is empty: the scenario's award, once per
        segment (``paid``: already given), and none once the General Uprising was declared."""
        if paid:
            yield self.ruling(
                "ROW-13.1.2",
                "The VC cup is empty",
                "The cup is still empty; the award was given once this segment (R-GAME-16).",
                result={"empty": True},
            )
            return
        if self.uprising_declared():  # 13.1.2: none once the General Uprising was declared
            yield self.ruling(
                "ROW-13.1.2",
                "The VC cup is empty",
                "A recruitment draw is due and the cup is empty; since the General Uprising was "
                "declared an empty cup earns no VP.",
                result={"empty": True, "vp": 0},
            )
            return
        vp = next((a.vp for a in self.scenario.victory.awards if a.id == "empty_vc_cup"), 2)
        yield self.ruling(
            "ROW-13.1.2",
            "The VC cup is empty",
            "A recruitment draw is due and the cup is "
            f"empty: the scenario gives the Communist {vp} VP (once per segment, R-GAME-16).",
            result={"empty": True, "vp": vp},
        )
        yield from self._award(COMMUNIST, vp, "empty VC cup (scenario award empty_vc_cup)")

    def vc_recruitment(self: RowGame):
        """ROW-13.1.2: each VC cadre in a cultivated hex, a town, War Zone C or D or the Iron Triangle may draw one
        unit from the cup (two in a city; the
        Recruit mission: every cadre in South Vietnam); the recruit appears in or next to the cadre's hex, not
        with a Capitalist unit (R-GAME-11);
        Hearts and Minds: an even Capitalist die cancels a draw (9.5); a draw due from an empty cup gives the
        scenario's 2 VP, once per segment (R-GAME-16)."""
        cadres = [
            u
            for u in sorted(self.pos)
            if self.rows[u].nationality == "VC" and self.rows[u].unit_type == "cadre"
        ]
        empty_paid = False
        for c in cadres:
            hid = self.pos[c]
            n = self._cadre_draws(hid)
            if not n:
                continue
            a = yield self.decide(
                COMMUNIST,
                f"Cadre {self.display_name(c)} at {self.display_name(hid)} may recruit {n} unit(s) from the VC cup",
                "ROW-13.1.2",
                [
                    Action.make("recruit", f"{c} recruits", [hid], cadre=c),
                    Action.make("no_recruit", f"{c} does not recruit", [hid], cadre=c),
                ],
                kind="recruit",
            )
            if a.kind == "no_recruit":
                continue
            for _ in range(n):
                cup = sorted(u for u, b in self.box.items() if b == "vc_cup")
                if not cup:
                    yield from self._empty_vc_cup(empty_paid)
                    empty_paid = True
                    if self._over:
                        return
                    break
                if self.missions[CAPITALIST] == "hearts_and_minds":
                    d = self.dice.roll(6, "Hearts and Minds check")
                    if d.value % 2 == 0:
                        yield self.ruling(
                            "ROW-9.5",
                            "Recruitment fails",
                            f"Hearts and Minds: the Capitalist rolls "
                            f"{d.value} (even): the draw of {c} fails.",
                            dice=[d],
                            result={"failed": c},
                        )
                        continue
                roll = self.dice.roll(len(cup), "VC cup draw")
                uid = cup[roll.value - 1]
                yield self.ruling(
                    "ROW-13.1.2",
                    "VC recruit drawn",
                    f"The cadre {c} at {hid} ({self.map.settlement(hid) or self.map.terrain(hid)}) "
                    f"draws {self.rows[uid].name} from the VC cup.",
                    dice=[roll],
                    result={"cadre": c, "unit": uid},
                    places=[hid],
                )
                cap_units = {h for u, h in self.pos.items() if self.side_of(u) == CAPITALIST}
                ok = allowed_hexes(
                    Piece(uid, COMMUNIST, "VC", hid, unit_type=self.rows[uid].unit_type),
                    frozenset(),
                    self.map,
                )  # 14.6.3: where VC units may be
                spots = [hid] + [
                    n
                    for n in self.map.neighbours(hid)
                    if n in self.window_land and n not in cap_units and n in ok
                ]
                w = yield self.decide(
                    COMMUNIST,
                    f"Where does {self.rows[uid].name} appear?",
                    "ROW-13.1.2",
                    [
                        Action.make(
                            "recruit_at", f"{self.rows[uid].name} appears at {h}", [h], unit=uid, hex=h
                        )
                        for h in spots
                    ],
                    kind="recruit_hex",
                )
                self.place(uid, w["hex"])
                self.fresh[uid] = True
                self._touch()
                yield self.ruling(
                    "ROW-13.1.2",
                    "VC recruit",
                    f"{self.rows[uid].name} appears fresh at {w['hex']}, in or next to the cadre {c}.",
                    result={"cadre": c, "unit": uid, "hex": w["hex"]},
                    places=[w["hex"]],
                )
        yield self.ruling(
            "ROW-13.1.2",
            "VC recruitment done",
            f"{len(cadres)} cadres on the map; "
            f"{sum(1 for b in self.box.values() if b == 'vc_cup')} units left in the cup.",
            result={"cadres": len(cadres)},
        )
