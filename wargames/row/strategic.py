"""Vietnam: Rumor of War, A) the Strategic Phase (ROW-3.0 A1-A7): the Chinese intervention check (ROW-12.2), supply
determination and spending (ROW-7.0, 7.1, 7.2), HQs re-freshened (ROW-9.3), supply status (ROW-14.4), the air-war
steps A3-A6 (``air.AirMixin`` when the scenario has aircraft, else the scenario's air support, R-SCN-08) and the HQ
missions with their Objective markers (ROW-9.5, 12.1.3).
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Any

from ..core import Action, IllegalAction
from . import hq as H
from . import victory as V
from .control import capitalist_controlled
from .pieces import CAPITALIST, COMMUNIST, Piece
from .randomevents import (
    SnafuCup,
    counter_row,
    faces,
)
from .scenario import turn_label
from .supply import (
    Spender,
    change,
    determine_supply,
    pay,
    payment_options,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class StrategicMixin:
    """The strategic steps of :class:`RowGame`."""

    def chinese_intervention_check(self: RowGame):
        """ROW-12.2: a roll only with Capitalist units in North Vietnam or Laos (none can be there in this scenario)."""
        if "china" in self.pol:
            yield from self.china_step()  # politics.py: a scenario with a politics block
            return
        there = [
            u
            for u, h in self.pos.items()
            if self.side_of(u) == CAPITALIST
            and self.map.country(h) in ("NVN", "LAO")
            and self.map.area(h) != "DMZ"
        ]  # 14.6.4: the DMZ is I Corps for the Capitalist
        if there:
            raise IllegalAction(
                "ROW-12.2",
                f"Capitalist units {there} are in North Vietnam or Laos, which this "
                "scenario forbids (special rule chinese_intervention_moot)",
            )
        yield self.ruling(
            "ROW-12.2",
            "Chinese intervention check",
            "No Capitalist unit is in North Vietnam or Laos "
            "(the DMZ counts as I Corps, 14.6.4), so China does not roll: in this scenario China "
            "never intervenes.",
            result={"roll": False},
            inputs={"scenario rule": "chinese_intervention_moot"},
        )

    def supply_determination(self: RowGame):
        """ROW-7.0 (A2a): Supply to Infrastructure, Helicopter Used to Available."""
        new, r = determine_supply(self.pools_obj())
        self.set_pools(new)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs)

    def refresh_hqs(self: RowGame):
        """ROW-9.3 / ROW-7.1 (A2b): each side (the Capitalist first) may pay to flip spent HQs fresh."""
        for side in (CAPITALIST, COMMUNIST):
            while True:
                opts = []
                for uid in sorted(self.pos):
                    if self.side_of(uid) == side and self.rows[uid].kind == "hq" and not self.fresh[uid]:
                        opts += H.refresh_options(
                            self.situation().piece(uid),
                            self.pools_obj(),
                            self.tracer(),
                            "strategic",
                            m=self.map,
                        )
                if not opts:
                    break
                a = yield self.decide(
                    side,
                    "Flip a spent HQ fresh for supply?",
                    "ROW-9.3",
                    [*opts, Action.make("done_refresh", f"{side}: no more HQs re-freshened")],
                    kind="hq_refresh",
                )
                if a.kind == "done_refresh":
                    break
                sit, pools, r = H.refresh_hq(
                    self.situation(), self.pools_obj(), a, self.tracer(), "strategic", m=self.map
                )
                self.fresh[a["hq"]] = True
                self.set_pools(pools)
                self._touch()
                yield self.ruling(
                    r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side
                )

    def _purchases(self: RowGame, side: str, trail_raised: bool) -> list[Action]:
        """ROW-7.1 / ROW-7.2 (A2c): what ``side`` may buy now, each with each way of paying it can afford:
        removing Ammo/Fuel markers from its units (a LoC needed, R-SUP-06), a Bunker improved to a Fortification,
        and for the Communist the trail's supply (+1) and status (+1, once a turn)."""
        sit, tracer, pools = self.situation(), self.tracer(), self.pools_obj()
        track = {
            "capitalist": "Capitalist Supply",
            "communist": "Communist Supply",
            "trail": "Ho Chi Minh Trail Supply",
        }
        out: list[Action] = []

        def offer(item: str, piece: Piece | None, label: str, **params: Any) -> None:
            if piece is not None:
                loc = tracer.trace(piece).result.ok
                pavn = piece.nationality in ("PAVN", "PRC") and loc and tracer.reaches_pavn_source(piece)
                sp = Spender.at(piece, self.map, has_loc=loc, loc_to_pavn_source=pavn)
            else:
                sp = Spender(side, "PAVN", "NVN")
            try:
                pays = payment_options(item, sp, sit.invaded)
            except IllegalAction:
                return  # no LoC: the purchase is not possible (7.0)
            for p in pays:
                if p["pool"] == "none" or pools[track[p["pool"]]] >= p["amount"]:
                    out.append(
                        Action.make(
                            "buy",
                            f"{label}: {p.label}",
                            [piece.hex] if piece else [],
                            item=item,
                            pool=p["pool"],
                            amount=p["amount"],
                            **params,
                        )
                    )

        for u in sorted(self.pos):
            if self.side_of(u) != side or self.rows[u].kind != "unit":
                continue
            for mk in self.markers[u]:
                if mk in ("Ammo Shortage", "Fuel Shortage", "Ammo Out", "Fuel Out"):
                    item = "remove_out" if mk.endswith("Out") else "remove_shortage"
                    offer(item, sit.piece(u), f"Remove {mk} from {self.rows[u].name}", unit=u, marker=mk)
        if side == COMMUNIST:
            for h, w in sorted(self.works.items()):
                holder = next(
                    (
                        u
                        for u in self.at_hex.get(h, [])
                        if self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit"
                    ),
                    None,
                )
                if w == "Bunker" and holder:
                    offer("bunker_to_fortification", sit.piece(holder), f"Improve the Bunker at {h}", hex=h)
            for h, holder in self.tunnel_sites():  # 14.3 (tunnels.py, R-TUN-02)
                near = any(n in self.tunnels for n in self.map.neighbours(h))
                offer(
                    "tunnel_adjacent" if near else "tunnel_isolated",
                    sit.piece(holder),
                    f"Build a Hidden tunnel at {h}" + (" (next to a tunnel)" if near else ""),
                    hex=h,
                )
            offer("trail_supply_plus_1", None, "Ho Chi Minh Trail supply +1")
            if not trail_raised and self.trail_status < 6:
                offer(
                    "trail_status_plus_1",
                    None,
                    f"Ho Chi Minh Trail status {self.trail_status} -> {self.trail_status + 1}",
                )
        return out

    def spend_supply(self: RowGame):
        """ROW-7.1 (A2c): the Capitalist, then the Communist, buys what he wants from :meth:`_purchases`, one
        purchase at a time (decision R-GAME-04; Hidden tunnels for 1 or 3, 14.3, R-TUN-02)."""
        for side in (CAPITALIST, COMMUNIST):
            raised = False
            while True:
                opts = self._purchases(side, raised)
                if not opts:
                    break
                a = yield self.decide(
                    side,
                    f"{side}: spend supply on something else?",
                    "ROW-7.1",
                    [*opts, Action.make("done_spending", f"{side} spends nothing more")],
                    kind="spend_supply",
                )
                if a.kind == "done_spending":
                    break
                new, paid = pay(
                    self.pools_obj(), Action.make("pay", item=a["item"], pool=a["pool"], amount=a["amount"])
                )
                self.set_pools(new)
                item = a["item"]
                if item in ("remove_shortage", "remove_out"):
                    u, mk = a["unit"], a["marker"]
                    self.markers[u] = tuple(m for m in self.markers[u] if m != mk)
                    for c in SnafuCup.full().counters:
                        if c not in self.snafu and counter_row(c).side == side and mk in faces(c):
                            self.snafu.add(c)
                            break
                    what = f"{mk} comes off {self.rows[u].name}; its counter goes back to the Cup of SNAFU"
                    places = [self.pos[u]]
                elif item == "bunker_to_fortification":
                    self.works[a["hex"]] = "Fortification"
                    what, places = f"the Bunker at {a['hex']} becomes a Fortification", [a["hex"]]
                elif item in ("tunnel_adjacent", "tunnel_isolated"):  # 14.3: the hex stays secret (R-TUN-02)
                    self.tunnels[a["hex"]] = "Hidden"
                    what, places = "a Hidden tunnel is built (where, the Capitalist does not learn)", []
                elif item == "trail_supply_plus_1":
                    new, r = change(self.pools_obj(), "Ho Chi Minh Trail Supply", 1, "bought in A2c")
                    self.set_pools(new)
                    what, places = r.explanation, []
                else:
                    raised = True
                    self.trail_status += 1
                    what, places = f"the Ho Chi Minh Trail status rises to {self.trail_status}", []
                self._touch()
                yield self.ruling(
                    "ROW-7.1",
                    "Supply spent",
                    f"{paid.explanation} {what[0].upper() + what[1:]}.",
                    result={"item": item, "paid": a["amount"]},
                    lookup=paid.lookup,
                    places=places,
                    side=side,
                )
        yield self.ruling(
            "ROW-7.1",
            "Other supply spending over",
            (
                "Airfield repairs and improvements come in step A3; "
                if self.air_on()
                else "Airfields are not in this scenario; "
            )
            + "tunnels are built in this step (14.3).",
            result={},
            inputs={"decisions": "R-AIR-09, R-TUN-02"},
        )

    def supply_status(self: RowGame):
        """ROW-14.4 / ROW-6.2 case i (A2d): OOC markers on and off; the opponent draws from the Cup of SNAFU for
        each new one and may place the counter on that unit."""
        yield from self.trail_step()  # 14.7.2 (trail.py, R-TRL-01): nothing without the scenario's trail block
        for side in (CAPITALIST, COMMUNIST):
            changed = yield from self._ooc_markers(side, "supply_determination")
            if self._over:
                return
            yield self.ruling(
                "ROW-14.4",
                f"{side} supply status",
                f"Every {side} unit's LoC is traced; {changed} OOC markers change.",
                result={"changed": changed},
            )

    def _no_air(self: RowGame, title: str, rule: str):
        yield self.ruling(
            rule,
            f"{title}: not in this scenario",
            "This scenario leaves the air war out, so nothing happens in this step.",
            result={"in_play": False},
            inputs={"scenario rule": "air_war_not_in_play", "decision": "R-SCN-08"},
        )

    def air_war_in_play(self: RowGame) -> bool:
        return not self.scenario.has_rule("air_war_not_in_play")

    def fleet_in_play(self: RowGame) -> bool:
        return not self.scenario.has_rule("navy_not_in_play")

    def election_turn(self: RowGame) -> bool:
        return "election" in (self._calendar_row().fixed_events or "")

    def _calendar_row(self: RowGame):
        from .scenario import load_calendar

        return load_calendar()[self.season]

    def aircraft_reinforcement(self: RowGame):
        if self.air_on():
            return (yield from self.air_reinforcement())
        yield from self._no_air("Aircraft and airfields", "ROW-10.1")

    def capitalist_air_commitment(self: RowGame):
        """ROW-10.2 replaced by R-SCN-08: the US Air Support level is set from the scenario for this turn."""
        if self.air_on():
            return (yield from self.air_commitment(CAPITALIST))
        value = next((t.value for t in self.scenario.air_support if t.turn == self.season), None)
        if value is not None:
            self.pools["US Air"] = value
        yield self.ruling(
            "ROW-10.2",
            "Capitalist air commitment: not in this scenario",
            f"No aircraft are committed in this scenario; instead US Air Support is set to {value} for "
            f"{turn_label(self.season)}, as the scenario's turn track gives it.",
            result={"US Air": value},
            inputs={"scenario table": "air_support", "decision": "R-SCN-08"},
        )

    def communist_air_commitment(self: RowGame):
        if self.air_on():
            return (yield from self.air_commitment(COMMUNIST))
        yield from self._no_air("Communist air commitment", "ROW-10.2")

    def aew_resolution(self: RowGame):
        if self.air_on():
            return (yield from self.air_aew())
        yield from self._no_air("AEW resolution", "ROW-10.3.4")

    def sam_resolution(self: RowGame):
        if self.air_on():
            return (yield from self.air_sams())
        yield from self._no_air("SAM resolution", "ROW-10.3.5")

    def downtown_resolution(self: RowGame):
        if self.air_on():
            return (yield from self.air_downtown())
        yield from self._no_air("Downtown resolution", "ROW-10.3.1")

    def strategic_bombing(self: RowGame):
        if self.air_on():
            return (yield from self.air_strikes())
        yield from self._no_air("Strategic bombing", "ROW-10.3.2")

    def uprising_declared(self: RowGame) -> bool:
        """ROW-9.5 (decision R-WAR-07): the Communist has declared the General Uprising in an earlier season of this
        game (read from the mission rulings, so Back and a replay agree)."""
        return any(
            r.title == "HQ mission"
            and r.side == COMMUNIST
            and isinstance(r.result, dict)
            and r.result.get("mission") == "general_uprising"
            for r in self.log
        )

    def uprising_over(self: RowGame) -> bool:
        """ROW-9.5 (decision R-WAR-11): the General Uprising's Victory Phase has been held in this game, so destroyed
        VC units and routed VC HQs are now eliminated for good (read from the rulings, as :meth:`uprising_declared`)."""
        return any(r.title == "General Uprising: Victory Phase" and r.rule_id == "ROW-9.5" for r in self.log)

    def declare_missions(self: RowGame):
        """ROW-9.5 (A7): the Capitalist, then the Communist, declares and pays a mission."""
        for side in (CAPITALIST, COMMUNIST):
            cmd = self.commander(side)
            used = side == COMMUNIST and self.uprising_declared()  # 9.5: once a game (R-WAR-07)
            opts = H.mission_options(
                side, self.pools_obj(), commander=cmd, uprising_used=used, chinese=self.china_in()
            )  # 12.2
            if not opts:
                self.missions[side] = None
                self.restricted[side] = "none"
                yield self.ruling(
                    "ROW-9.5",
                    "No mission affordable",
                    f"The {side} cannot pay for any mission it may "
                    f"declare ({self.pools[side + ' Supply']} supply left, commander {cmd}): it has no "
                    "mission this season, so no mission effect applies (decision R-GAME-13).",
                    result={"mission": None},
                    side=side,
                )
                continue
            a = yield self.decide(
                side,
                f"{side}: declare the HQ mission for {turn_label(self.season)}",
                "ROW-9.5",
                opts,
                kind="mission",
            )
            pools, r = H.declare_mission(
                self.pools_obj(), a, commander=cmd, uprising_used=used, chinese=self.china_in()
            )
            self.set_pools(pools)
            self.missions[side] = a["mission"]
            self.restricted[side] = r.result["restricted"]
            self._touch()
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side)
            if r.result["objectives"]:
                yield from self._place_objectives(side, r.result["objectives"])
            if r.result["us_unrest"]:
                yield from self._award(COMMUNIST, r.result["us_unrest"], f"the {side} mission")
            if side == COMMUNIST and r.result.get("capitalist_may_unrestrict"):
                yield from self._offer_unrestricted(a["mission"])

    def _offer_unrestricted(self: RowGame, mission: str):
        """ROW-9.5 (Offensive, General Uprising): when the Communist declares one of them, the Capitalist may flip
        his Restricted Ops marker to Unrestricted Ops, even if his own mission required restricted operations; the
        flip costs nothing by itself (decision R-HQ-07)."""
        if self.restricted[CAPITALIST] == "none" or self._over:
            return
        label = H.mission(COMMUNIST, mission).label
        a = yield self.decide(
            CAPITALIST,
            f"The Communist declared {label}: flip your Restricted Ops marker to Unrestricted Ops?",
            "ROW-9.5",
            [
                Action.make(
                    "unrestrict", "Flip to Unrestricted Ops (full artillery, air and bombardment support)"
                ),
                Action.make("keep_restricted", f"Keep Restricted Ops ({self.restricted[CAPITALIST]})"),
            ],
            kind="unrestrict",
        )
        if a.kind == "keep_restricted":
            return
        was = self.restricted[CAPITALIST]
        self.restricted[CAPITALIST] = "none"
        self._touch()
        yield self.ruling(
            "ROW-9.5",
            "Unrestricted Ops",
            f"Against the Communist {label} the Capitalist flips his Restricted Ops marker ({was}) to Unrestricted "
            "Ops for this season: his support is no longer halved (R-HQ-07).",
            result={"restricted": "none", "was": was},
            side=CAPITALIST,
        )

    def _place_objectives(self: RowGame, side: str, count: int):
        """ROW-9.5 / ROW-12.1.3: the declarer places ``count`` Objective markers, drawn at random and face down:
        a Communist mission on Capitalist-controlled hexes, a Capitalist one on hexes he does not control (inside
        the scenario's window, on land, one marker a hex, in any country: decision R-WAR-16)."""
        cap = capitalist_controlled(self.situation(), self.map)
        placed: list[str] = []
        for k in range(count):
            if not sum(self.obj_pool.values()):
                yield self.ruling(
                    "ROW-12.1.3",
                    "No Objective marker left",
                    "The objective pool is empty: no more markers are placed.",
                    result={"placed": placed},
                )
                return
            hexes = [
                h for h in self.window_land if (h in cap) == (side == COMMUNIST) and h not in self.objectives
            ]
            opts = [
                Action.make("place_objective", f"Objective marker on {h}", [h], hex=h) for h in sorted(hexes)
            ]
            if not opts:
                break
            a = yield self.decide(
                side,
                f"Place Objective marker {k + 1} of {count}",
                "ROW-12.1.3",
                opts,
                kind="objective_placement",
            )
            value, left, r = V.draw_objective(self.dice, self.obj_pool)
            self.obj_pool[value] = left[value]  # in place: the pool stays journalled (issue #29 item 2)
            self.objectives[a["hex"]] = {"value": value, "revealed": False, "chit": False}
            placed.append(a["hex"])
            yield self._stamp(dc_replace(r, places=(a["hex"],)))
        yield self.ruling(
            "ROW-9.5",
            "Objectives placed",
            f"The {side} has placed Objective markers face down on {', '.join(placed) or 'no hex'}.",
            result={"placed": placed},
            places=placed,
        )

    def _objective_after_combat(self: RowGame, hid: str, capitalist_won: bool):
        """ROW-12.1.3 (R-VIC-07): the combat in an objective's hex is over: its value goes to or comes off US
        Military Victory, and the marker is removed."""
        o = self.objectives.pop(hid, None)
        if o is None:
            return
        s, r = V.resolve_objective(self.vstate(), o["value"], capitalist_won, hid, chinese=self.china_in())
        self.set_vstate(s)
        yield self._stamp(r)
        yield from self._check_win()
