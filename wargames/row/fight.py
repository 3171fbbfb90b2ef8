"""Vietnam: Rumor of War, one combat (ROW-5.0): supporting units chosen (ROW-5.3.3), the combat resolved by
``resolve.resolve_combat`` and what it changed applied to the game (losses, retreats, advances, Objective markers);
and the cadre trace of US division units (ROW-9.4, ``cadres.py``).
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core import Action
from ..core.rulings import Ruling
from . import hq as H
from . import victory as V
from .combat import ATTACKER, CombatSides, SupportSituation, support_levels
from .control import allowed_hexes, enemy_zoc
from .leaders import planning_relief, westmoreland_arvn
from .pieces import CAPITALIST, COMMUNIST, TURN_ORDER, other
from .randomevents import (
    SnafuCup,
)
from .supply import (
    change,
)
from .tables import tables, terrain_factor
from .victory import ACC_TRACK

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


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

    def _fight(self: RowGame, uid: str, hid: str, ct: str, chit):
        """ROW-5.0: resolve one declared combat with ``resolve.resolve_combat`` and apply what it changed.  The
        attacker, then the defender, picks adjacent supporting units (5.3.3); every unit in the hex defends
        (R-CBT-06); a combat with nobody left to fight lapses (R-GAME-03)."""
        from .resolve import CombatContext, resolve_combat  # imported at the first combat (issue #21)

        side = self.side_of(uid)
        defenders = [
            u for u in self.at_hex.get(hid, []) if self.side_of(u) != side and self.rows[u].kind == "unit"
        ]
        if uid not in self.pos or not defenders or hid not in self.map.neighbours(self.pos[uid]):
            yield self.ruling(
                "ROW-5.1",
                "Combat lapses",
                f"No enemy unit is left at {hid}, or the attacker is gone or no "
                "longer next to it: "
                "the declared combat is not fought (R-GAME-03).",
                result={"hex": hid},
                places=[hid],
            )
            return
        supporters: dict[str, list[str]] = {}
        row = H.mission_row(side, self.missions[side])
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
            if who == side and row is not None and row.attacks == "arvn_only":  # ROW-9.5 Vietnamization
                cands = [u for u in cands if self.rows[u].nationality == "ARVN"]
            chosen: list[str] = []
            while True:
                opts = [
                    Action.make(
                        "add_supporter",
                        f"{self.rows[u].name} at {self.pos[u]} supports the "
                        + ("attack" if who == side else "defence"),
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
                    f"Combat at {hid}: add an adjacent unit to the "
                    + ("attack" if who == side else "defence")
                    + f"? ({len(chosen)} so far)",
                    "ROW-5.3.3",
                    [*opts, Action.make("done_support", "No more supporting units")],
                    kind="combat_supporter",
                )
                if a.kind == "done_support":
                    break
                chosen.append(a["unit"])
            supporters[who] = chosen
        active = set(self.act.units) if self.act is not None else set()
        active -= {
            self.rows[k].parent for k in active if self.rows[k].has("created")
        }  # 14.1.1: parents stay put
        c = CombatSides(
            hid,
            ct,
            chit,
            self._cu(uid, active=True),
            tuple(self._cu(u, active=u in active) for u in supporters[side]),
            tuple(self._cu(d) for d in defenders),
            tuple(self._cu(u) for u in supporters[other(side)]),
        )
        sit = self.situation()
        terr = self.map.settlement(hid) or self.map.terrain(hid)  # a town or city replaces the terrain (TEC)
        tec = self.map.tec.get(terr)
        factor = terrain_factor(tec.support_factor) if tec else Fraction(1)
        die_mod = int(tec.defender_die_mod) if tec else 0
        across = next((f for f in ("river", "bridge") if self.map.side_has(self.pos[uid], hid, f)), None)
        river_mod = int(self.map.tec[across].defender_die_mod) if across else 0
        near_sea = any(self.map.is_sea(h) for h in self.map.within(hid, 2))
        if self.fleet_on():  # ROW-11.2: only the fleet's own zone of the Station line
            near_sea = self.fleet_reaches(hid)
        cut = set()  # ROW-10.4.1: sides whose tank and artillery support air interdiction cuts in this combat
        for s in (side, other(side)):
            if (
                yield from self.air_interdicts(
                    s, "combat_support", hid, f"the {s} tank and artillery support at {hid}"
                )
            ):
                cut.add(s)

        def sup(role: str, s: str) -> SupportSituation:
            lv = support_levels(c, role, self.air_pools(hid)).result  # ROW-11.4: Navy air by station
            loc_ok = not any("OOC" in self.markers[u.uid] for u in c.key_units(role))
            fb = s == CAPITALIST and any(self.map.distance(h, hid) <= 2 for h in self.fire_bases)
            cad = self.cadre_trace(c, role, hid) if loc_ok and s == CAPITALIST else None  # 9.4 (cadres.py)
            keys = c.key_units(role)
            near = {
                hid,
                *self.map.neighbours(hid),
            }  # 14.2.1 (leaders.py, R-LDR-04): a US unit in or next to it
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
            return SupportSituation(
                lv,
                factor,
                trace=loc_ok,
                fire_base=fb,
                bombardment_in_range=near_sea,
                restricted=self.restricted[s] != "none" and s == CAPITALIST,
                interdicted=s in cut,
                no_support="out of communications (6.2 case i)"
                if not loc_ok
                else (
                    f"9.4: {cad.explanation}"
                    if cad is not None and not cad.result
                    else (wm.explanation if wm is not None else "")
                ),
                planning_relief=relief,
            )

        # 14.2.2: a ground commander on the activating HQ counts for the attack of a unit of his nationality; one on
        # an HQ within whose command range the defenders stand counts for the defence (the attacker picks if
        # several; decision R-GAME-10)
        att_lead = 0
        if self.act is not None:
            for ld, hq in sorted(self.leaders.items()):
                if hq == self.act.hq and self.rows[ld].nationality == self.rows[uid].nationality:
                    att_lead = self.rows[ld].leader_value or 0
        def_nats = {self.rows[d].nationality for d in defenders}
        cands = [
            (ld, hq)
            for ld, hq in sorted(self.leaders.items())
            if hq in self.pos
            and self.side_of(hq) == other(side)
            and self.rows[ld].nationality in def_nats
            and hid in H.command_range(sit.piece(hq), sit, m=self.map)
        ]
        def_lead = 0
        if cands:
            pick = cands[0]
            if len(cands) > 1:
                a = yield self.decide(
                    side,
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
                places=[hid],
            )
        zocs = {s: enemy_zoc(sit, s, self.map) for s in TURN_ORDER}
        occ = {s: sit.occupied(other(s)) for s in TURN_ORDER}
        # ROW-14.6: a retreat never enters a hex a retreating unit's operational limits forbid (nor leaves the
        # scenario's window): such hexes are closed to the side like enemy-occupied ones
        allowed = {}
        for s in TURN_ORDER:
            ok = None
            for cu in c.all_units():
                if cu.side == s:
                    mine = allowed_hexes(sit.piece(cu.uid), sit.invaded, self.map)
                    ok = mine if ok is None else ok & mine
            allowed[s] = ok if ok is not None else frozenset()
        ctx = CombatContext(
            attack=sup(ATTACKER, side),
            defense=sup("defender", other(side)),
            terrain=terr,
            terrain_die_mod=die_mod,
            river_mod=river_mod,
            every_attacker_across_river=bool(across),
            defence_works=self.works.get(hid) if side == CAPITALIST else None,
            attacker_leader=att_lead,
            defender_leader=def_lead,
            replacements={
                CAPITALIST: self.pools["Capitalist Replacements"],
                COMMUNIST: self.pools["Communist Replacements"],
            },
            westmoreland=self.commander(CAPITALIST) == "Westmoreland",
            positions={u.uid: self.pos[u.uid] for u in c.all_units()},
            neighbours=lambda h: [n for n in self.map.neighbours(h) if n in self.window_land],
            distance=self.map.distance,
            enemy_occupied=lambda s, h: h in occ[s] or h not in allowed[s],
            enemy_zoc=lambda s, h: h in zocs[s],
        )
        t = tables()
        track_of = {CAPITALIST: None, COMMUNIST: None}
        for role, s in ((ATTACKER, side), ("defender", other(side))):
            who = c.declarer if role == ATTACKER else sorted(c.defenders, key=lambda u: u.size_class)[0]
            track_of[s] = t.support_tracks[who.nationality]
        yield self.ruling(
            "ROW-5.3.3",
            "Who fights",
            f"{self.rows[uid].name} attacks {hid} ({terr}"
            + (f", across a {across}" if across else "")
            + ")"
            + (f" supported by {', '.join(supporters[side])}" if supporters[side] else "")
            + f"; {', '.join(self.rows[d].name for d in defenders)} defend"
            + (f", supported by {', '.join(supporters[other(side)])}" if supporters[other(side)] else "")
            + ".",
            result={
                "attacker": uid,
                "attack_supporters": supporters[side],
                "defenders": defenders,
                "defense_supporters": supporters[other(side)],
                "terrain": terr,
                "river": across,
            },
            places=[hid],
        )
        mark = len(self.log)
        out = yield from self._relay(resolve_combat(self.dice, c, ctx, SnafuCup(tuple(sorted(self.snafu)))))
        # apply the outcome
        self.snafu = list(out.cup.counters) if out.cup else self.snafu
        for u, cu in out.units.items():
            if u in self.pos:
                self.fresh[u] = cu.fresh
                self.markers[u] = tuple(sorted(m for m in cu.markers if m != self.rows[u].quality))
        for u, path in out.retreats.items():
            if u in self.pos:
                self.place(u, path[-1])
        self._touch()
        if out.retreats:
            yield self.ruling(
                "ROW-5.6",
                "Retreats",
                "; ".join(f"{u} retreats {' -> '.join(p)}" for u, p in sorted(out.retreats.items())) + ".",
                result={"retreated": sorted(out.retreats)},
                places=sorted({h for p in out.retreats.values() for h in p}),
            )
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
        for u in out.eliminated:
            if u in self.pos:
                self.place(u, None, "unformed" if self.rows[u].has("created") else "replacements")  # 13.2
                self._clear_markers(u)
                self.fresh[u] = False
        self._touch()
        if out.eliminated:
            yield self.ruling(
                "ROW-5.6",
                "Eliminated units",
                f"{', '.join(out.eliminated)} go to the Replacements box (their loss rolls are above).",
                result={"eliminated": list(out.eliminated)},
            )
        yield from self.air_after_combat(mark, hid)  # ROW-10.4.2: the aircraft that flew the air support
        cap_won = (out.winner == ATTACKER) == (side == CAPITALIST)
        if out.objective and hid not in self.objectives and sum(self.obj_pool.values()):
            value, self.obj_pool, r = V.draw_objective(self.dice, self.obj_pool, revealed=True)
            self.objectives[hid] = {"value": value, "revealed": True, "chit": True}
            yield self._stamp(dc_replace(r, places=(hid,)))
        yield from self._objective_after_combat(hid, cap_won)
        if self._over:
            return
        for u in out.advanced:
            if u in self.pos:
                self.place(u, hid)
        if out.advanced:
            yield self.ruling(
                "ROW-5.7",
                "Advance",
                f"{', '.join(out.advanced)} enter {hid}.",
                result={"advanced": list(out.advanced), "hex": hid},
                places=[hid],
            )
            yield from self._rout(hid, side)
        for track, n in sorted(out.tracks.items()):
            if track in ACC_TRACK:
                yield from self._accumulate(track, n)
            if self._over:
                return
        if out.advanced:
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
