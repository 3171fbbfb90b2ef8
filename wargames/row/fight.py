"""Vietnam: Rumor of War, one combat (ROW-5.0): supporting units chosen (ROW-5.3.3), the combat resolved by
``resolve.resolve_combat`` and what it changed applied to the game (losses, retreats, advances, Objective markers);
and the cadre trace of US division units (ROW-9.4, ``cadres.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core import Action
from ..core.rulings import Ruling
from . import hq as H
from . import victory as V
from .combat import ATTACKER, CombatSides, SupportSituation, support_levels
from .control import allowed_hexes, enemy_zoc
from .leaders import planning_relief, westmoreland_arvn
from .pieces import CAPITALIST, COMMUNIST, TURN_ORDER, Situation, other
from .randomevents import SnafuCup
from .supply import change
from .tables import tables, terrain_factor
from .victory import ACC_TRACK

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame
    from .resolve import CombatContext, CombatOutcome


@dataclass(frozen=True)
class Engagement:
    """A declared combat as the game sees it once the supporters are chosen (ROW-5.3.3): the attacking unit,
    the hex, the two sides, the defenders (every enemy unit in the hex, R-CBT-06) and each side's supporters."""

    uid: str
    hid: str
    side: str
    defenders: tuple[str, ...]
    supporters: dict[str, list[str]]

    @property
    def enemy(self) -> str:
        return other(self.side)


@dataclass(frozen=True)
class Ground:
    """ROW-5.4.3 / TEC: what the combat hex and the attacker's hexside give (a town or city replaces the
    terrain; a river or bridge crossed; the sea within reach of naval bombardment, ROW-11.2)."""

    terrain: str
    factor: Fraction
    die_mod: int
    across: str | None
    river_mod: int
    near_sea: bool
    every_across: bool = False
    road: bool = False


class FightMixin:
    """The fight steps of :class:`RowGame`."""

    def division_of(self: RowGame, uid: str) -> str:
        """ROW-9.4 / R-SCN-12: a US unit's division, or the one the scenario attaches it to until a turn."""
        for a in self.scenario.attachments:
            if a.unit == uid and self.season < a.until_turn:
                return a.division
        return self.rows[uid].division or ""

    def cadre_trace(self: RowGame, c: CombatSides, role: str, hid: str) -> Ruling | None:
        """ROW-9.4 (cadres.py, R-CAD-01): None when no US division unit is a key unit of ``role``; else the trace
        of the first such unit whose division has a cadre on the map (attacker: from every attacking unit;
        defender: from the combat hex), passing when any of them passes."""
        from .cadres import cadre_trace

        out = None
        for u in c.key_units(role):
            div = self.division_of(u.uid) if self.rows[u.uid].nationality == "US" else ""
            if not div or self.rows[u.uid].unit_type == "cadre":
                continue
            frm = [self.pos[x.uid] for x in c.attackers() if x.uid in self.pos] if role == ATTACKER else [hid]
            cad = [
                h
                for x, h in self.pos.items()
                if self.rows[x].unit_type == "cadre"
                and self.division_of(x) == div
                and self.rows[x].nationality == "US"
            ]
            r = cadre_trace(self.map, div, frm, cad, self.fire_bases)
            if r.result:
                return r
            out = r
        return out

    def _fight(self: RowGame, uid: str, hid: str, ct: str, chit: Any):
        """ROW-5.0: resolve one declared combat with ``resolve.resolve_combat`` and apply what it changed, step by
        step: the combat lapses with nobody left to fight (R-GAME-03); the attacker, then the defender, picks
        adjacent supporting units (5.3.3); the hex's terrain and the air interdiction of support (10.4.1); the
        ground commanders (14.2.2); the combat itself; then losses, retreats, the Objective marker, the advance
        and exploitation (5.6, 5.7, 12.1.3, 4.8)."""
        from .resolve import resolve_combat  # imported at the first combat (issue #21)

        side = self.side_of(uid)
        defenders = [
            u for u in self.at_hex.get(hid, []) if self.side_of(u) != side and self.rows[u].kind == "unit"
        ]
        if uid not in self.pos or not defenders or hid not in self.map.neighbours(self.pos[uid]):
            # 5.1: its chit goes back to the mug
            self.chit_hexes[:] = [h for h in self.chit_hexes if h != hid]
            yield self.ruling(
                "ROW-5.1",
                "Combat lapses",
                f"No enemy unit is left at {hid}, or the attacker is gone or no "
                "longer next to it: "
                "the declared combat is not fought (R-GAME-03).",
                result={"hex": hid},
                places=[hid],
            )
            return []
        supporters = yield from self._choose_supporters(uid, hid, side)
        e = Engagement(uid, hid, side, tuple(defenders), supporters)
        c = self._combat_sides(e, ct, chit)
        sit = self.situation()
        ground = self._ground(uid, hid, supporters[side])
        cut = yield from self._support_cut(e)
        att_lead, def_lead = yield from self._ground_commanders(e, sit)
        ctx = self._combat_context(e, c, sit, ground, cut, att_lead, def_lead)
        t = tables()
        track_of: dict[str, Any] = {CAPITALIST: None, COMMUNIST: None}
        for role, s in ((ATTACKER, side), ("defender", other(side))):
            who = c.declarer if role == ATTACKER else sorted(c.defenders, key=lambda u: u.size_class)[0]
            track_of[s] = t.support_tracks[who.nationality]
        yield self._who_fights(e, ground)
        mark = len(self.log)
        out = yield from self._relay(resolve_combat(self.dice, c, ctx, SnafuCup(tuple(sorted(self.snafu)))))
        # 5.1 / 5.2.1: resolved, the chit goes back to its mug and the hex may be attacked again
        self.chit_hexes[:] = [h for h in self.chit_hexes if h != hid]
        yield from self._apply_losses(out, track_of)
        if self._over:
            return supporters[side]
        yield from self.air_after_combat(mark, hid)  # ROW-10.4.2: the aircraft that flew the air support
        cap_won = (out.winner == ATTACKER) == (side == CAPITALIST)
        if out.objective and hid not in self.objectives and sum(self.obj_pool.values()):
            value, left, r = V.draw_objective(self.dice, self.obj_pool, revealed=True)
            self.obj_pool[value] = left[value]  # in place: the pool stays journalled (issue #29 item 2)
            self.objectives[hid] = {"value": value, "revealed": True, "chit": True}
            yield self._stamp(dc_replace(r, places=(hid,)))
        yield from self._objective_after_combat(hid, cap_won)
        if self._over:
            return supporters[side]
        yield from self._advance_after_combat(out, e)
        return supporters[side]

    def _choose_supporters(self: RowGame, uid: str, hid: str, side: str):
        """ROW-5.3.3: the attacker, then the defender, adds adjacent units of his (not routed) one at a time;
        under Vietnamization only ARVN units support an attack (ROW-9.5).  Returns the supporters of each side."""
        supporters: dict[str, list[str]] = {}
        row = H.mission_row(CAPITALIST, self.missions[CAPITALIST])
        for who in (side, other(side)):  # ROW-5.3.3: the attacker chooses his supporters first
            cands = sorted(
                u
                for h in self.map.neighbours(hid)
                for u in self.at_hex.get(h, [])
                if self.side_of(u) == who
                and self.rows[u].kind == "unit"
                and u != uid
                and "Routed" not in self.markers[u]
            )
            # ROW-9.5 Vietnamization: no non-ARVN unit supports any Capitalist combat, attack or defence
            if who == CAPITALIST and row is not None and row.attacks == "arvn_only":
                cands = [u for u in cands if self.rows[u].nationality == "ARVN"]
            supporters[who] = yield from self._pick_supporters(hid, who, who == side, cands)
        return supporters

    def _pick_supporters(self: RowGame, hid: str, who: str, attack: bool, cands: list[str]):
        """ROW-5.3.3: ``who`` adds candidates one at a time until he stops or none is left."""
        role = "attack" if attack else "defence"
        chosen: list[str] = []
        while True:
            opts = [
                Action.make(
                    "add_supporter",
                    f"{self.rows[u].name} at {self.pos[u]} supports the " + role,
                    [self.pos[u]],
                    unit=u,
                )
                for u in cands
                if u not in chosen
            ]
            if not opts:
                break
            a = yield self.decide(
                who,
                f"Combat at {self.display_name(hid)}: add an adjacent unit to the "
                + role
                + f"? ({len(chosen)} so far)",
                "ROW-5.3.3",
                [*opts, Action.make("done_support", "No more supporting units")],
                kind="combat_supporter",
            )
            if a.kind == "done_support":
                break
            chosen.append(a["unit"])
        return chosen

    def _combat_sides(self: RowGame, e: Engagement, ct: str, chit: Any) -> CombatSides:
        """ROW-5.3.3: the units of the combat; the activated ones are active, except the parents of created
        battalions, which stay put (ROW-14.1.1)."""
        active = set(self.act.units) if self.act is not None else set()
        active -= {self.rows[k].parent for k in active if self.rows[k].has("created")}
        return CombatSides(
            e.hid,
            ct,
            chit,
            self._cu(e.uid, active=True),
            tuple(self._cu(u, active=u in active) for u in e.supporters[e.side]),
            tuple(self._cu(d) for d in e.defenders),
            tuple(self._cu(u) for u in e.supporters[e.enemy]),
        )

    def _ground(self: RowGame, uid: str, hid: str, supporters: Sequence[str] = ()) -> Ground:
        """ROW-5.4.3 (TEC): the combat hex's terrain (a town or city replaces it), its support factor and defender
        die modifier; the river or bridge each attacking unit (declarer and supporters) crosses: the river bonus
        counts only if every one of them attacks across one (the smallest of their modifiers); whether naval
        bombardment reaches the hex (within 2 hexes of the sea; with the fleet in play, of its own zone, ROW-11.2);
        and whether the road bonus is open to the attacker's tanks (ROW-5.3.1, decision R-CBT-25)."""
        terr = self.map.settlement(hid) or self.map.terrain(hid)
        tec = self.map.tec.get(terr)

        def crossing(u: str) -> str | None:
            return next((f for f in ("river", "bridge") if self.map.side_has(self.pos[u], hid, f)), None)

        across = crossing(uid)
        sides = [crossing(u) for u in (uid, *supporters) if u in self.pos]
        every = bool(sides) and all(sides)
        river_mod = min(int(self.map.tec[f].defender_die_mod) for f in sides if f) if every else 0
        if across and not every:
            river_mod = int(self.map.tec[across].defender_die_mod)
        near_sea = any(self.map.is_sea(h) for h in self.map.within(hid, 2))
        if self.fleet_on():  # ROW-11.2: only the fleet's own zone of the Station line
            near_sea = self.fleet_reaches(hid)
        at = self.pos[uid]
        road = not across and (
            self.map.side_has(at, hid, "road") or bool(self.map.settlement(at) or self.map.settlement(hid))
        )
        return Ground(
            terrain=terr,
            factor=terrain_factor(tec.support_factor) if tec else Fraction(1),
            die_mod=int(tec.defender_die_mod) if tec else 0,
            across=across,
            river_mod=river_mod,
            near_sea=near_sea,
            every_across=every,
            road=road,
        )

    def _support_cut(self: RowGame, e: Engagement):
        """ROW-10.4.1: the sides whose tank and artillery support air interdiction cuts in this combat."""
        cut = set()
        for s in (e.side, e.enemy):
            if (
                yield from self.air_interdicts(
                    s, "combat_support", e.hid, f"the {s} tank and artillery support at {e.hid}"
                )
            ):
                cut.add(s)
        return cut

    def _support(
        self: RowGame, c: CombatSides, role: str, s: str, hid: str, ground: Ground, cut: set[str]
    ) -> SupportSituation:
        """ROW-5.3.1: what ``s`` may commit as ``role``: its support levels (Navy air by station, ROW-11.4), and
        none without a LoC (6.2 case i), without a cadre trace (9.4, ``cadres.py``) or under Westmoreland's ARVN
        rule (14.2.1, R-LDR-04); Fire Bases, bombardment, restricted operations, interdiction and planning relief."""
        lv = support_levels(c, role, self.air_pools(hid)).result
        loc_ok = not any("OOC" in self.markers[u.uid] for u in c.key_units(role))
        # 5.3.1 / 14.4: the trace for tank and artillery is made now, not read from the last supply check
        tracer, sit = self.tracer(), self.situation()
        traced = loc_ok and all(tracer.trace(sit.piece(u.uid)).result.ok for u in c.key_units(role))
        fb = s == CAPITALIST and any(self.map.distance(h, hid) <= 2 for h in self.fire_bases)
        cad = self.cadre_trace(c, role, hid) if loc_ok and s == CAPITALIST else None
        keys = c.key_units(role)
        near = {hid, *self.map.neighbours(hid)}  # 14.2.1 (leaders.py, R-LDR-04): a US unit in or next to it
        wm = westmoreland_arvn(
            self.commander_id(s),
            {self.rows[u.uid].nationality for u in keys},
            any(
                self.rows[x].nationality == "US" and self.rows[x].kind == "unit"
                for h in near
                for x in self.at_hex.get(h, ())
            ),
        )
        relief = planning_relief(self.commander_id(s), self.rows[keys[0].uid].nationality) if keys else {}
        if not loc_ok:
            no_support = "out of communications (6.2 case i)"
        elif cad is not None and not cad.result:
            no_support = f"9.4: {cad.explanation}"
        else:
            no_support = wm.explanation if wm is not None else ""
        return SupportSituation(
            lv,
            ground.factor,
            trace=traced,
            fire_base=fb,
            bombardment_in_range=ground.near_sea,
            # ROW-14.6.4: a combat chit in the DMZ always allows unrestricted support
            restricted=self.restricted[s] != "none" and s == CAPITALIST and not self.map.in_dmz(hid),
            interdicted=s in cut,
            no_support=no_support,
            planning_relief=relief,
        )

    def _ground_commanders(self: RowGame, e: Engagement, sit: Situation):
        """ROW-14.2.2: a ground commander on the activating HQ counts for the attack of a unit of his
        nationality; one on an HQ within whose command range the defenders stand counts for the defence (the
        attacker picks if several; decision R-GAME-10).  Returns the two values."""
        att_lead = 0
        if self.act is not None:
            for ld, hq in sorted(self.leaders.items()):
                if hq == self.act.hq and self.rows[ld].nationality == self.rows[e.uid].nationality:
                    att_lead = self.rows[ld].leader_value or 0
        def_nats = {self.rows[d].nationality for d in e.defenders}
        cands = [
            (ld, hq)
            for ld, hq in sorted(self.leaders.items())
            if hq in self.pos
            and self.side_of(hq) == e.enemy
            and self.rows[ld].nationality in def_nats
            and e.hid in H.command_range(sit.piece(hq), sit, m=self.map)
        ]
        def_lead = 0
        if cands:
            pick = cands[0]
            if len(cands) > 1:
                a = yield self.decide(
                    e.side,
                    "Which enemy ground commander counts for the defence?",
                    "ROW-14.2.2",
                    [
                        Action.make(
                            "defence_leader",
                            f"{self.rows[ld].name} ({self.rows[ld].leader_value:+d})",
                            leader=ld,
                        )
                        for ld, _ in cands
                    ],
                    kind="defence_leader",
                )
                pick = next(c for c in cands if c[0] == a["leader"])
            def_lead = self.rows[pick[0]].leader_value or 0
        if att_lead or def_lead:
            yield self.ruling(
                "ROW-14.2.2",
                "Ground commanders",
                f"Ground commander values on the final spread: "
                f"attacker {att_lead:+d}, defender {def_lead:+d}.",
                result={"attacker": att_lead, "defender": def_lead},
                places=[e.hid],
            )
        return att_lead, def_lead

    def _retreat_limits(self: RowGame, c: CombatSides, sit: Situation) -> dict[str, frozenset[str]]:
        """ROW-14.6: a retreat never enters a hex a retreating unit's operational limits forbid (nor leaves the
        scenario's window): the hexes open to each side's units of this combat."""
        allowed = {}
        for s in TURN_ORDER:
            ok = None
            for cu in c.all_units():
                if cu.side == s:
                    mine = allowed_hexes(sit.piece(cu.uid), sit.invaded, self.map)
                    ok = mine if ok is None else ok & mine
            allowed[s] = ok if ok is not None else frozenset()
        return allowed

    def _combat_context(
        self: RowGame,
        e: Engagement,
        c: CombatSides,
        sit: Situation,
        ground: Ground,
        cut: set[str],
        att_lead: int,
        def_lead: int,
    ) -> CombatContext:
        """ROW-5.0: everything ``resolve_combat`` reads of the game: both sides' support (5.3.1), terrain and river
        (5.4.3), Bunkers (6.2 c), leaders (14.2.2), replacements (5.6), and the map as callables for retreats (5.6:
        closed hexes are enemy-occupied ones and those outside a unit's limits, 14.6)."""
        from .resolve import CombatContext

        zocs = {s: enemy_zoc(sit, s, self.map) for s in TURN_ORDER}
        occ = {s: sit.occupied(other(s)) for s in TURN_ORDER}
        allowed = self._retreat_limits(c, sit)
        return CombatContext(
            attack=self._support(c, ATTACKER, e.side, e.hid, ground, cut),
            defense=self._support(c, "defender", e.enemy, e.hid, ground, cut),
            terrain=ground.terrain,
            terrain_die_mod=ground.die_mod,
            river_mod=ground.river_mod,
            every_attacker_across_river=ground.every_across,
            road=ground.road,
            evade=self.missions[COMMUNIST] == "evade",  # 9.5 Evade: Communist retreats through ZoC
            attack_die_mod=self._mission_attack_mod(e.side),
            defence_works=self.works.get(e.hid) if e.side == CAPITALIST else None,
            attacker_leader=att_lead,
            defender_leader=def_lead,
            replacements={
                CAPITALIST: self.pools["Capitalist Replacements"],
                COMMUNIST: self.pools["Communist Replacements"],
            },
            westmoreland=self.commander(CAPITALIST) == "Westmoreland",
            # 14.3: Communist units standing in a hex with a tunnel may retreat into it
            tunnel_units=tuple(
                u.uid for u in c.all_units() if u.side == COMMUNIST and self.pos[u.uid] in self.tunnels
            ),
            positions={u.uid: self.pos[u.uid] for u in c.all_units()},
            neighbours=lambda h: [n for n in self.map.neighbours(h) if n in self.window_land],
            distance=self.map.distance,
            enemy_occupied=lambda s, h: h in occ[s] or h not in allowed[s],
            enemy_zoc=lambda s, h: h in zocs[s],
        )

    def _mission_attack_mod(self: RowGame, side: str) -> int:
        """ROW-9.5: the die modifier the attacker's mission gives his attacks (Evade: -4 on Communist attacks)."""
        row = H.mission_row(side, self.missions[side])
        return int(row.attack_die) if row is not None else 0

    def _who_fights(self: RowGame, e: Engagement, ground: Ground) -> Ruling:
        """ROW-5.3.3: the ruling naming the attacker, the defenders, their supporters, the terrain and river."""
        att_sup, def_sup = e.supporters[e.side], e.supporters[e.enemy]
        return self.ruling(
            "ROW-5.3.3",
            "Who fights",
            f"{self.rows[e.uid].name} attacks {e.hid} ({ground.terrain}"
            + (f", across a {ground.across}" if ground.across else "")
            + ")"
            + (f" supported by {', '.join(att_sup)}" if att_sup else "")
            + f"; {', '.join(self.rows[d].name for d in e.defenders)} defend"
            + (f", supported by {', '.join(def_sup)}" if def_sup else "")
            + ".",
            result={
                "attacker": e.uid,
                "attack_supporters": att_sup,
                "defenders": list(e.defenders),
                "defense_supporters": def_sup,
                "terrain": ground.terrain,
                "river": ground.across,
            },
            places=[e.hid],
        )

    def _apply_losses(self: RowGame, out: CombatOutcome, track_of: dict[str, Any]):
        """ROW-5.6: the combat's changes applied: SNAFU cup, fresh sides and markers, retreats, support lost in
        the retreat (R-CBT-11), replacement points spent, eliminated units to the Replacements box (13.2)."""
        from .resolve import map_results

        if out.cup:
            self.snafu.assign(out.cup.counters)
        before = {u: (self.fresh[u], frozenset(self.markers[u])) for u in out.units if u in self.pos}
        new, r = map_results(out, before, {u: self.rows[u].quality for u in before}, self.display_name)
        for u, (fresh, marks) in new.items():
            self.fresh[u] = fresh
            self.markers[u] = marks
        for u, path in out.retreats.items():
            if u in self.pos:
                self.place(u, path[-1])
        self._touch()
        # issue #26 item 24: every change the combat made, in one ruling, before any decision
        if r is not None:
            yield self._stamp(r)
        if out.tunnel and out.tunnel in self.pos and self.pos[out.tunnel] in self.tunnels:
            h = self.pos[out.tunnel]
            self.inside[out.tunnel] = h
            self._touch()
            yield self.ruling(
                "ROW-14.3",
                "Into the tunnel",
                f"{self.rows[out.tunnel].name} goes into the tunnel at {h}: while the tunnel stays Hidden it cannot "
                "be attacked, projects no ZoC and does not control the hex; it leaves the tunnel when it leaves the "
                "hex.",
                result={"unit": out.tunnel, "hex": h, "tunnel": self.tunnels[h]},
                places=[h],
            )
        for u, path in sorted(out.retreats.items()):  # 9.1, 14.6.4: HQs on the path, the DMZ entered
            if u in self.pos and not self._over:
                yield from self._entered(u, list(path))
        yield from self._pools_after_combat(out, track_of)
        for u in out.eliminated:
            if u in self.pos:
                self.place(u, None, self.elimination_box(u))  # 13.2; 9.5 after the General Uprising
                self._clear_markers(u)
                self.fresh[u] = False
        self._touch()
        if out.eliminated:
            yield self.ruling(
                "ROW-5.6",
                "Eliminated units",
                f"{', '.join(out.eliminated)} go to the Replacements box (their loss rolls are above)."
                if not any(self.box.get(u) == "destroyed" for u in out.eliminated)
                else f"{', '.join(out.eliminated)} are eliminated (their loss rolls are above); VC units go to the "
                "Destroyed box for good since the General Uprising (9.5).",
                result={"eliminated": list(out.eliminated)},
            )

    def _pools_after_combat(self: RowGame, out: CombatOutcome, track_of: dict[str, Any]):
        """ROW-5.6: support levels lost in the retreat (R-CBT-11) and the replacement points that absorbed a loss."""
        for s, kinds in out.support_levels.items():
            for kind, n in kinds.items():
                track = getattr(track_of[s], kind, None)
                if track and n:
                    new, r = change(
                        self.pools_obj(), track, n, "support lost in the retreat (R-CBT-11)", forced=True
                    )
                    self.set_pools(new)
                    yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)
        for s, n in out.replacements.items():
            new, r = change(
                self.pools_obj(), f"{s} Replacements", n, "a replacement point absorbs a loss", forced=True
            )
            self.set_pools(new)
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def _advance_after_combat(self: RowGame, out: CombatOutcome, e: Engagement):
        """ROW-5.7 / ROW-4.8: the winners advance into the hex (routing enemy HQs there, 9.1), the losses go on
        Body Count and US Casualties (12.1.4), then each advancing unit may exploit with the MP it earned."""
        hid, side = e.hid, e.side
        came = {u: self.pos[u] for u in out.advanced if u in self.pos}
        for u in came:
            self.place(u, hid)
        if out.advanced:
            yield self.ruling(
                "ROW-5.7",
                "Advance",
                f"{', '.join(out.advanced)} enter {hid}.",
                result={"advanced": list(out.advanced), "hex": hid},
                places=[hid],
            )
            for u, frm in came.items():  # 9.1 (HQs in the hex), 14.6.4 (the DMZ entered)
                yield from self._entered(u, [frm, hid])
                if self._over:
                    return
        for track, n in sorted(out.tracks.items()):
            if track in ACC_TRACK:
                yield from self._accumulate(track, n)
            if self._over:
                return
        for u in out.advanced:
            if out.adv_mp and u in self.pos:
                mo = self.moves(u, "exploitation", mp=out.adv_mp)
                if len(mo) > 1:
                    m = yield self.decide(
                        side,
                        f"Exploitation of {self.rows[u].name} ({out.adv_mp} MP)",
                        "ROW-4.8",
                        mo,
                        unit=u,
                        kind="move",
                    )
                    yield from self._move(u, m, "exploitation", mp=out.adv_mp)
