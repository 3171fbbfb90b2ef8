"""Vietnam: Rumor of War, B3) the player turns' Activation Phase (ROW-9.2): units flipped fresh, OOC markers placed
(ROW-6.2 case i, 14.4), and one HQ activation at a time (steps 1-8: the HQ and its units, initial movement, the
other side's reserve move, exploitation, combats, HQ movement, stacking), restartable from its checkpoint.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core import Action
from . import hq as H
from . import movement
from .chits import draw_chits
from .outcomes import plain_actions
from .pieces import CAPITALIST, COMMUNIST, other
from .supply import (
    ooc_sweep,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class ActivationMixin:
    """The activation steps of :class:`RowGame`."""

    def _flip(self: RowGame, side: str):
        sit, r = H.flip_units_fresh(self.situation(), side)
        for p in sit.units(side):
            self.fresh[p.uid] = p.fresh
        self.passed[other(side)] = False
        self.chit_hexes.clear()
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def flip_capitalist_units_fresh(self: RowGame):
        for o in self.objectives.values():  # 12.1.3: chits are counted over one Activation Phase
            o["chit"] = False
        yield from self._flip(CAPITALIST)

    def flip_communist_units_fresh(self: RowGame):
        yield from self._flip(COMMUNIST)

    def _ooc_markers(self: RowGame, side: str, when: str):
        """ROW-14.4 / ROW-6.2 case i: trace every unit's LoC, put OOC markers on and off, and let the opponent
        draw from the Cup of SNAFU for each new one.  Returns how many markers changed."""
        sit, rulings = ooc_sweep(self.situation(), side, self.tracer(), when)
        for p in sit.units(side):
            self.markers[p.uid] = tuple(sorted(p.markers))
        self._touch()
        for r in rulings:
            yield self._stamp(r)
            if r.result["placed"]:
                yield from self._snafu_for(
                    r.result["snafu_for"], r.inputs["piece"], f"OOC {r.inputs['piece']}"
                )
                if self._over:
                    return len(rulings)
        return len(rulings)

    def _ooc(self: RowGame, side: str):
        placed = yield from self._ooc_markers(side, "player_turn")
        if self._over:
            return
        yield self.ruling(
            "ROW-6.2",
            f"{side} OOC check",
            f"{placed} {side} units are newly out of communications.",
            result={"placed": placed},
        )

    def mark_capitalist_ooc(self: RowGame):
        yield from self._ooc(CAPITALIST)

    def mark_communist_ooc(self: RowGame):
        yield from self._ooc(COMMUNIST)

    def _surprised(self: RowGame, uid: str) -> bool:
        """Special rules with ``effect: pinned`` (R-SCN-13 starlite_surprise, R-SCN-28): the listed units may not
        activate or move on the listed turns."""
        for sr in self.scenario.special_rules:
            if sr.effect == "pinned" and self.season in (sr.turns or []) and uid in (sr.units or []):
                return True
        return False

    def _activations_over(self: RowGame, side: str) -> bool:
        if self.passed[side]:
            return True
        return not any(
            self.fresh[u] and self.side_of(u) == side and self.rows[u].kind == "hq" for u in self.pos
        )

    def communist_activations_over(self: RowGame) -> bool:
        return self._activations_over(COMMUNIST)

    def capitalist_activations_over(self: RowGame) -> bool:
        return self._activations_over(CAPITALIST)

    def activation(self: RowGame, side: str):
        """ROW-9.2: one whole activation of ``side`` (steps 1-8), the other side's reserve move inside it.  It is
        restartable (issue #13): Back resumes it between units in step 3 and between combats in step 6, from the
        checkpoint "activation" whose data (``ctx``) holds its place; everything else is in the state."""
        ctx = self.resumed("activation")
        if ctx is None:
            ctx = yield from self._activation_start(side)
            if ctx is None:
                return
        if ctx["stage"] == "move":
            yield from self._activation_moves(side, ctx)
            if self._over:
                return
        yield from self._activation_combats(side, ctx)

    def _activation_start(self: RowGame, side: str):
        """ROW-9.2 steps 1-2: the HQ, then its units; returns the activation's place (None: no activation)."""
        a = yield from self._activate_hq(side)
        if a is None:
            return None
        chosen, created = yield from self._activate_units(side, a["hq"])
        yield from self._create_units(created)
        order = [created.get(u, u) for u in chosen]
        if side == CAPITALIST:
            yield from self._build_fire_base()
        # amphibious_used, 14.1.3: one amphibious move an activation
        return {
            "stage": "move",
            "hq": a["hq"],
            "created": created,
            "waiting": list(order),
            "chits": {},
            "resolved_me": [],
            "amphibious_used": False,
            "start": {u: self.pos[u] for u in self.act.units if u in self.pos},
        }

    def _activate_hq(self: RowGame, side: str):
        """ROW-9.2 step 1: the phasing side activates a fresh HQ with a LoC (not under an HQ Interdicted marker,
        nor stopped by air interdiction, ROW-10.4.1), or ends its activations.  A Capitalist HQ whose LoC crosses
        enemy-controlled hexes is then offered the trace (one SNAFU draw) or declining it (the HQ does not activate
        and stays fresh; the choice is made again without it), ROW-14.4.1, decision R-GAME-41 (the draw R-GAME-05 left
        out).  Returns the choice, or None."""
        declined: list[str] = []
        while True:
            opts = plain_actions(H.hq_activation_options(self.situation(), side, self.tracer()))
            if self.airwar.get(
                "interdicted"
            ):  # ROW-10.4.1: an HQ Interdicted marker bars activation this season
                opts = [o for o in opts if o.kind != "activate_hq" or not self.air_hq_interdicted(o["hq"])]
            opts = [o for o in opts if o.kind != "activate_hq" or o["hq"] not in declined]
            a = yield self.decide(
                side,
                f"{side}: activate a fresh HQ, or end the activations",
                "ROW-9.2",
                opts,
                kind="hq_activation",
            )
            if a.kind == "activate_hq" and (yield from self.air_interdict_hq(side, a["hq"])):
                return None
            if a.kind == "activate_hq" and a["snafu_draw"] and not (yield from self._hq_loc_trace(a["hq"])):
                declined.append(a["hq"])
                continue
            break
        if a.kind == "end_activations":
            self.passed[side] = True
            yield self.ruling(
                "ROW-9.2",
                "Activations over",
                f"The {side} makes no more activations this turn.",
                result={"side": side},
            )
            return None
        sit, act, r = H.activate_hq(self.situation(), a["hq"], self.tracer())
        self.fresh[a["hq"]] = False
        self.act = act
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, places=r.places, side=side)
        if a["snafu_draw"]:
            yield from self._hq_loc_snafu(a["hq"])
        return a

    def _hq_loc_trace(self: RowGame, hq: str):
        """ROW-14.4.1 (decision R-GAME-41): the Capitalist traces the HQ's LoC through enemy-controlled hexes (one
        SNAFU draw, made once the HQ is active) or declines, and the HQ does not activate.  Returns True if traced."""
        hid, name = self.pos[hq], self.rows[hq].name
        opts = [
            Action.make(
                "trace_loc",
                f"Trace {name}'s LoC: the Communist draws once from the Cup of SNAFU",
                [hid],
                unit=hq,
            ),
            Action.make(
                "decline_loc", f"Do not trace: {name} does not activate and stays fresh", [hid], unit=hq
            ),
        ]
        t = yield self.decide(
            CAPITALIST,
            f"{name}'s only LoC crosses enemy-controlled hexes: trace it (one SNAFU draw) or not (no activation)?",
            "ROW-14.4.1",
            opts,
            unit=hq,
            kind="loc_trace",
        )
        if t.kind == "trace_loc":
            return True
        yield self.ruling(
            "ROW-14.4.1",
            "LoC not traced",
            f"The Capitalist does not trace {name}'s LoC through enemy-controlled hexes: the HQ does not activate "
            "and stays fresh (R-GAME-41).",
            result={"hq": hq, "traced": False},
            places=[hid],
            side=CAPITALIST,
        )
        return False

    def _hq_loc_snafu(self: RowGame, hq: str):
        """ROW-14.4.1 (decision R-GAME-41): the traced HQ's one SNAFU draw.  The counter goes on a unit, so the
        Communist may place it on one of the units this HQ may activate now (his choice of unit and face), or put it
        back."""
        hid, name = self.pos[hq], self.rows[hq].name
        among = [
            o["unit"]
            for o in H.unit_activation_options(
                self.act, self.situation(), mission=self.missions[CAPITALIST], m=self.map
            )
            if o.kind == "activate_unit"
        ]
        yield self.ruling(
            "ROW-14.4.1",
            "LoC traced through enemy control",
            f"{name}'s LoC crosses enemy-controlled hexes: the Communist draws once from the Cup of SNAFU and may "
            f"place the counter on one of the {len(among)} units {name} may activate now (R-GAME-41).",
            result={"hq": hq, "snafu": 1, "among": among},
            places=[hid],
            side=CAPITALIST,
        )
        yield from self._snafu_for(COMMUNIST, hq, f"{hq} traced a LoC through enemy control", among=among)

    def _activate_units(self: RowGame, side: str, hq: str):
        """ROW-9.2 step 2 / ROW-4.5: up to 4 units of the HQ's command activate, one choice at a time (units a
        scenario pins may not, R-SCN-13); a US parent unit may create a battalion instead (ROW-14.1.1).  Returns
        the units chosen and the battalions created (parent -> battalion)."""
        mission = self.missions[side]
        chosen: list[str] = []
        lifted: list[
            str
        ] = []  # 6.2 f, g (R-HQ-06): units whose Disrupted or Routed marker an activation lifted
        created: dict[str, str] = {}  # parent -> the battalion (ARVN regiment) it created (14.1.1)
        while len(chosen) + len(lifted) < H.UNITS_PER_ACTIVATION:
            uo = [
                o
                for o in H.unit_activation_options(self.act, self.situation(), mission=mission, m=self.map)
                if o.kind != "activate_unit" or (o["unit"] not in chosen and not self._surprised(o["unit"]))
            ]
            lifts = [
                o
                for o in H.marker_removal_options(self.act, self.situation(), mission=mission, m=self.map)
                if o["unit"] not in chosen and not self._surprised(o["unit"])
            ]
            uo = [*uo[:-1], *lifts, uo[-1]]
            if len(uo) == 1:
                break
            u = yield self.decide(
                side,
                f"Activate a unit with {self.display_name(hq)} ({len(chosen) + len(lifted)} of 4)",
                "ROW-4.5",
                uo,
                kind="unit_activation",
            )
            if u.kind == "done_activating":
                break
            if u.kind == "remove_marker":
                lifted.append(u["unit"])
                yield from self._lift_marker(side, u["unit"], u["marker"])
                continue
            chosen.append(u["unit"])
            kid = yield from self._offer_creation(side, u["unit"])
            if kid:
                created[u["unit"]] = kid
        sit, self.act, r = H.activate_units(self.act, self.situation(), chosen, mission=mission, m=self.map)
        for u in chosen:
            self.fresh[u] = False
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)
        return chosen, created

    def _lift_marker(self: RowGame, side: str, uid: str, marker: str):
        """ROW-6.2 f, g (R-HQ-06): one of the active HQ's activations lifts a unit's Disrupted or Routed marker (a
        Routed one leaves Low Morale); the unit turns spent and is not activated."""
        _, r = H.remove_marker(self.act, self.situation(), uid, marker)
        self.fresh[uid] = False
        self.markers[uid] = tuple(r.result["markers"])
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, places=r.places, side=side)

    def _offer_creation(self: RowGame, side: str, uid: str):
        """ROW-14.1.1: a unit that may create a battalion (ARVN regiment) is activated normally or creates one;
        returns the battalion created, or None."""
        kids = self._creatable(uid)
        if not kids:
            return None
        c = yield self.decide(
            side,
            f"{self.rows[uid].name}: activate it, or create a battalion on it?",
            "ROW-14.1.1",
            [
                *(
                    Action.make(
                        "create_unit",
                        f"Create {self.rows[k].name} on {self.pos[uid]}",
                        [self.pos[uid]],
                        unit=k,
                        parent=uid,
                    )
                    for k in kids[:1]
                ),
                Action.make("activate_normally", "Activate it normally", unit=uid),
            ],
            kind="create_battalion",
        )
        return c["unit"] if c.kind == "create_unit" else None

    def _create_units(self: RowGame, created: dict[str, str]):
        """ROW-14.1.1: each created battalion appears on its parent with the parent's markers and activates in its
        place (R-GAME-06)."""
        for parent, kid in created.items():
            self.place(kid, self.pos[parent])
            self.fresh[kid] = False
            self.markers[kid] = tuple(self.markers[parent])
            self.act = replace(self.act, units=(*self.act.units, kid))
            self._touch()
            yield self.ruling(
                "ROW-14.1.1",
                "Unit created",
                f"{self.rows[kid].name} is created on "
                f"{self.rows[parent].name} at {self.pos[parent]} with its markers; it moves and fights "
                "in this activation while its parent may not move, and it leaves the map at the end of "
                "the activation; it may fly from here (14.1.2) (R-GAME-06).",
                result={"unit": kid, "parent": parent},
                places=[self.pos[parent]],
            )

    def _activation_moves(self: RowGame, side: str, ctx: dict[str, Any]):
        """ROW-9.2 steps 3-5: initial movement and declarations unit by unit (a restartable loop), the reserve
        move, early exploitation."""
        created, resolved_me, waiting = ctx["created"], ctx["resolved_me"], ctx["waiting"]
        # step 3: initial movement and declarations, one unit after another in the player's order
        while waiting:
            ctx["waiting"] = waiting = [u for u in waiting if u in self.pos]
            if not waiting:
                break
            self.checkpoint("activation", **ctx)
            # 4.5: the units move one after another in the phasing player's order
            uid = yield from self.choose_one(
                side,
                "Which active unit moves next?",
                "ROW-4.5",
                waiting,
                kind="move_order",
                option="move_next",
                key="unit",
                label=lambda u: f"{self.rows[u].name} at {self.pos[u]} moves next",
                places=lambda u: [self.pos[u]],
            )
            waiting.remove(uid)
            spent = yield from self._initial_move(side, uid, ctx)
            if uid not in self.pos:
                continue
            yield from self.tunnel_entry(side, uid)  # 14.3 (R-GAME-40): into or out of the hex's tunnel
            yield from self._declare_combat(side, uid, spent, ctx)
            if self._over:
                return
        self.act = H.end_initial_movement(self.act)
        # step 4: the other side's reserve move (the reaction window, 4.7)
        yield from self.react("reserve")
        if self.act.step == "reserve":
            self.act = H.end_reserve(self.act)
        yield from self._early_exploitation(side, created, [*resolved_me, *ctx.get("me_supporters", [])])
        ctx["stage"], ctx["done"] = "combat", list(resolved_me)

    def _initial_move(self: RowGame, side: str, uid: str, ctx: dict[str, Any]):
        """ROW-4.5 (step 3): one unit's initial movement, 5 MP to a destination by the cheapest path (R-GAME-07),
        or a helicopter flight (14.1.2) or an amphibious landing (14.1.3, one an activation) then land movement
        with the MP left.  Returns the MP spent."""
        mo = self.moves(uid, "initial")
        spent = Fraction(0)
        flights = self._flights(uid) + ([] if ctx["amphibious_used"] else self._landings(uid))
        if flights:
            mo = flights + mo
        if not mo:
            return spent
        m = yield self.decide(
            side,
            f"Initial movement of {self.rows[uid].name} (5 MP, to a destination by "
            "the cheapest path, R-GAME-07)",
            "ROW-4.5",
            mo,
            unit=uid,
            kind="move",
        )
        if m.kind in ("fly", "amphibious"):
            return (yield from self._move_after_landing(side, uid, m, ctx))
        yield from self._move(uid, m, "initial")
        if m.kind == "move":
            spent = Fraction(m["mp"])
            if m["one_hex_minimum"]:
                self.act = replace(self.act, one_hex=self.act.one_hex | {uid})
        return spent

    def _move_after_landing(self: RowGame, side: str, uid: str, m: Action, ctx: dict[str, Any]):
        """ROW-14.1.2 / ROW-14.1.3: the flight or landing, then land movement with the MP it left (or the unit
        stays where it landed).  Returns the MP spent in all."""
        if m.kind == "fly":
            yield from self._fly(uid, m)
        else:
            ctx["amphibious_used"] = True
            yield from self._land(uid, m)
        spent = Fraction(m["mp"])
        lo = [o for o in self.moves(uid, "initial", mp_spent=spent) if o.kind == "move"]
        if lo:
            stay = Action.make(
                "stay", f"{self.rows[uid].name} stays where it landed", unit=uid, mode="initial"
            )
            rule = "ROW-14.1.2" if m.kind == "fly" else "ROW-14.1.3"
            m = yield self.decide(
                side,
                f"{self.rows[uid].name} landed: land movement with the "
                f"{float(movement.UNIT_MP - spent):g} MP left?",
                rule,
                [*lo, stay],
                unit=uid,
                kind="move",
            )
        else:
            m = Action.make("stay", unit=uid, mode="initial")
        if m.kind == "move":
            yield from self._move(uid, m, "initial", mp_spent=spent)
            spent += Fraction(m["mp"])  # the land move's own cost, after the flight's
        return spent

    def _declare_combat(self: RowGame, side: str, uid: str, spent: Fraction, ctx: dict[str, Any]):
        """ROW-4.6: the unit may declare a combat with the MP it has left; its combat chit is drawn (ROW-5.2.1),
        an Objective marker there is revealed (ROW-12.1.3), and a Meeting Engagement is fought at once
        (ROW-5.2.2)."""
        mission = self.missions[side]
        left = max(Fraction(movement.UNIT_MP) - spent, Fraction(0))
        do = plain_actions(
            H.declaration_options(
                self.act,
                self.situation(),
                uid,
                left,
                spent,
                chit_hexes=self.chit_hexes,
                mission=mission,
                m=self.map,
            )
        )
        if not do:
            return
        d = yield self.decide(
            side,
            f"Declare a combat with {self.rows[uid].name}?",
            "ROW-4.6",
            [*do, Action.make("no_combat", f"{self.rows[uid].name} declares no combat", unit=uid)],
            unit=uid,
            kind="combat_declaration",
        )
        if d.kind == "no_combat":
            return
        self.act, r = H.declare(
            self.act,
            self.situation(),
            d,
            left,
            spent,
            chit_hexes=self.chit_hexes,
            mission=mission,
            m=self.map,
        )
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, places=r.places, side=side)
        chits = ctx["chits"]
        # 5.1 / 5.2.1: the chits lying on combats not yet resolved are not in the mug
        pending = [ch.id for u, ch in chits.items() if u not in ctx["resolved_me"]]
        # 5.1 / 12.1.3: the chit goes on the hex (and on an Objective marker there): the draw's ruling tells it
        self.chit_hexes[:] = sorted({*self.chit_hexes, d["hex"]})
        if d["hex"] in self.objectives:
            self.objectives[d["hex"]]["chit"] = True
        chits[uid] = yield from self._draw_combat_chit(side, d, pending)
        yield from self._reveal_objective(d["hex"])
        if r.result["resolve_now"]:
            helped = yield from self._fight(uid, d["hex"], "meeting_engagement", chits[uid])
            ctx["resolved_me"].append(uid)
            # 5.2.2: the units that supported the Meeting Engagement make no early exploitation either
            ctx.setdefault("me_supporters", []).extend(
                u for u in helped or () if u not in ctx["me_supporters"]
            )

    def _draw_combat_chit(self: RowGame, side: str, d: Action, on_map: list[str] = ()):
        """ROW-5.2.1 / ROW-9.5 / ROW-14.2.1: the combat chits drawn from the mug for the declared combat type (3 or
        2 drawn and one kept under some missions and commanders, R-LDR-05), never one lying on a combat still to
        be resolved (``on_map``, ROW-5.1).  Returns the chit kept."""
        from .chits import chit_by_id, chit_options, keep_chit, mug
        from .leaders import chits_to_draw

        left = [c for c in mug(d["combat_type"]) if c.id not in set(on_map)]
        n = min(chits_to_draw(side, self.missions[side], self.commander_id(side)), len(left))
        drawn = draw_chits(self.dice, d["combat_type"], n, side, on_map=on_map)  # 9.5 / 14.2.1 (R-LDR-05)
        yield self.ruling(
            drawn.rule_id,
            drawn.title,
            drawn.explanation,
            result=drawn.result,
            inputs=drawn.inputs,
            dice=drawn.dice,
            lookup=drawn.lookup,
            places=[d["hex"]],
        )
        if n > 1:
            k = yield self.decide(
                side, "Which combat chit is kept?", "ROW-5.2.1", chit_options(drawn), kind="combat_chit"
            )
            chit, kr = keep_chit(drawn, k["chit"])
            yield self._stamp(kr)
            return chit
        return chit_by_id(drawn.result["chits"][0])

    def _reveal_objective(self: RowGame, hid: str):
        """ROW-12.1.3: a combat chit placed on an Objective marker's hex reveals it; the combat decides it."""
        o = self.objectives.get(hid)
        if o is None:
            return
        o["chit"] = True
        if not o["revealed"]:
            o["revealed"] = True
            yield self.ruling(
                "ROW-12.1.3",
                "Objective revealed",
                f"A combat chit is placed on {hid}: "
                f"its Objective marker is revealed, value {o['value']}; the combat decides it.",
                result={"hex": hid, "value": o["value"]},
                places=[hid],
            )

    def _early_exploitation(self: RowGame, side: str, created: dict[str, str], resolved_me: list[str]):
        """ROW-9.2 step 5 / ROW-4.8: early exploitation, 3 MP and no enemy ZoC, by units that neither declared a
        combat (ROW-4.6), nor attacked in or supported a Meeting Engagement (``resolved_me``, ROW-5.2.2), nor
        created a battalion (ROW-14.1.1)."""
        for eo in H.early_exploitation_units(self.act, self.situation(), resolved_me=resolved_me, m=self.map):
            if eo["unit"] in self.act.declared or eo["unit"] in created:
                continue  # ROW-4.6: declaring a combat ended the unit's movement; 14.1.1: a parent stays put
            mo = self.moves(eo["unit"], "early_exploitation")
            if len(mo) > 1:
                m = yield self.decide(
                    side,
                    f"Early exploitation of {self.rows[eo['unit']].name} (3 MP, no enemy ZoC)",
                    "ROW-4.8",
                    mo,
                    unit=eo["unit"],
                    kind="early_exploitation",
                )
                yield from self._move(eo["unit"], m, "early_exploitation")
        self.act = H.end_early_exploitation(self.act)

    def _activation_combats(self: RowGame, side: str, ctx: dict[str, Any]):
        """ROW-9.2 steps 6-8: the declared combats in the player's order (a restartable loop), the HQ, stacking."""
        created, chits, done = ctx["created"], ctx["chits"], ctx["done"]
        # step 6: combats in the phasing player's order
        while True:
            self.checkpoint("activation", **ctx)
            co = H.combat_order_options(self.act, done)
            if not co:
                break
            c = (
                co[0]
                if len(co) == 1
                else (
                    yield self.decide(
                        side, "Which declared combat is resolved next?", "ROW-9.2", co, kind="combat_order"
                    )
                )
            )
            done.append(c["unit"])
            ct = self.act.declared[c["unit"]][1]
            yield from self._fight(c["unit"], c["hex"], ct, chits[c["unit"]])
            if self._over:
                return
        self.act = H.end_combats(self.act)
        moved = yield from self._hq_step(side)
        self.act = H.end_hq_step(self.act, moved)
        if side == CAPITALIST:  # 14.3 (tunnels.py, R-TUN-01): active units on Hidden tunnels
            yield from self.tunnel_casualties(list(self.act.units))
            if self._over:
                return
        # 14.1.1: created units leave the map at the end of the activation (before the stacking check, R-GAME-06)
        start = ctx.get("start", {})  # 14.1.2: where the active units began (a unit elsewhere now has moved)
        unmoved = [u for u in self.act.units if u in self.pos and start.get(u) == self.pos[u]]
        received: dict[str, int] = {}
        for parent, kid in sorted(created.items()):
            yield from self._disband(kid, parent, unmoved, received)
            if self._over:
                return
        if self.lz:
            yield self.ruling(
                "ROW-14.1.2",
                "Landing Zones removed",
                f"The Landing Zones at {', '.join(self.lz)} come off the map.",
                result={"removed": list(self.lz)},
                places=list(self.lz),
            )
            self.lz.clear()
            self._touch()
        yield from self._stacking(side)
        if self._over:
            return
        self.act = None
        self._touch()
        yield from self._hot_fire_bases()
        yield from self._prune_works()
        yield self.ruling(
            "ROW-9.2",
            "Activation over",
            f"The {side} activation of {ctx['hq']} is over.",
            result={"hq": ctx["hq"]},
        )

    def _hq_step(self: RowGame, side: str):
        """ROW-9.2 step 7 / ROW-9.3: the activated HQ moves, stays, or stays and re-freshens for supply.  Returns
        whether it moved."""
        if self.act.hq not in self.pos:
            return False
        ho = plain_actions(
            H.hq_end_options(
                self.act,
                self.situation(),
                self.pools_obj(),
                self.tracer(),
                mission=self.missions[side],
                m=self.map,
            )
        )
        ho = self.in_window([o for o in ho if o.kind != "hq_stays"]) + [o for o in ho if o.kind == "hq_stays"]
        h = yield self.decide(
            side,
            f"{self.rows[self.act.hq].name}: move, stay, or stay and re-freshen",
            "ROW-9.3",
            ho,
            kind="hq_end",
        )
        if h.kind == "move":
            yield from self._move(self.act.hq, h, "hq")
            return True
        if h.kind == "refresh_hq":
            sit, pools, r = H.refresh_hq(
                self.situation(), self.pools_obj(), h, self.tracer(), "activation", m=self.map
            )
            self.fresh[h["hq"]] = True
            self.set_pools(pools)
            self._touch()
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side)
        else:
            yield self.ruling(
                "ROW-9.3",
                "HQ stays",
                f"{self.rows[self.act.hq].name} stays spent at {self.pos[self.act.hq]}.",
                result={"hq": self.act.hq},
            )
        return False

    def _stacking(self: RowGame, side: str):
        """ROW-9.2 step 8 / ROW-4.2: each side's overstacked spent units are eliminated, the owner choosing which
        (both sides, R-GAME-14)."""
        for s in (side, other(side)):
            while True:
                so = movement.stacking_options(self.situation(), s)
                if not so:
                    break
                yield self.ruling(
                    "ROW-4.2",
                    "Stacking check",
                    movement.stacking_check(self.situation(), s).explanation,
                    result={"side": s},
                )
                e = yield self.decide(
                    s, "Overstacked: which spent unit is eliminated?", "ROW-4.2", so, kind="overstack_loss"
                )
                yield from self._eliminate(e["unit"], "Overstacked (4.2)")
                if self._over:
                    return
