"""Fire in the Lake: Operations and Special Activities (rules 3.x and 4.x) as a mixin of the game.

Interface used by the sequence of play (``sequence_of_play.py``):

* ``op_choices(faction, limited)`` -> the Operations ``faction`` could legally start now (names, in the
  faction sheet's order): ``train patrol sweep assault`` (US, ARVN), ``rally march attack terror`` (NVA, VC);
* ``operation(faction, *, limited, with_sa, free=False)`` -> a procedure (generator of rulings and
  decisions) that lets ``faction`` pick one Operation, its spaces and pieces, pay for it, and (when
  ``with_sa``) add a Special Activity.  Its return value (``outcome = yield from ...``) is a dict
  ``{"op": name, "executed": bool, "sa": bool, "special": sa name or None, "spaces": [...], "sa_spaces": [...]}``
  (FITL-2.3.4 NOTE: an Operation counts as executed when it used a space, or for NVA Rally improved the Trail;
  Patrol always counts).  ``only=("sweep",)`` narrows the choice (an Event's free Op, with ``free=True``);
* ``free_special_activity(faction, sa)`` -> a procedure for an Event's free SA on its own (FITL-3.1.2);
  returns ``{"sa": name, "sa_spaces": [...]}``.

Rules: FITL-3.1 (one Op, each space once, pay space by space), FITL-3.1.2 (free Ops), FITL-2.3.5 (a Limited
Operation: 1 space, no SA; for Patrol, Sweep and March one destination), FITL-4.1 (one SA type, at no cost,
before, during or after the Op: decision F-56; Ambush is part of the Attack or March it accompanies), FITL-4.1.1 (which
Ops each SA may accompany).  The Operations themselves live in ``coin_ops.py`` (rules 3.2.1-3.2.4), ``insurgent_ops.py``
(rules 3.3.1-3.3.4) and ``special_coin.py`` (rules 4.2.1-4.3.3) and ``special_insurgent.py`` (rules 4.4.1-4.5.3, on ``special.py``); shared helpers in ``ops_common.py``.

Decisions (for bots: the ``Decision.kind``, the Action kinds offered, and the ``context`` keys).  Every context
holds ``faction``, ``op`` (the Operation), ``limited`` and ``step``; while a Special Activity runs it also holds
``sa`` (its name); ``space`` / ``origin`` / ``key`` where they apply.  Options are always legal; an action that is
not offered raises IllegalAction naming the rule (``check=``).

* kind ``op`` (step "op") - choose the Operation: Actions ``op`` (``op=<name>``); context also ``free``.
* kind ``sa`` (step "sa") - before the Op: ``sa`` (``sa=<name>``, ``when="before"``), ``sa_later`` (the Op first,
  the SA during or after it), ``no_sa``.  After the Op: ``sa`` (``when="after"``) or ``no_sa``.  After
  ``sa_later``, the Op's own ``space`` / ``move_from`` / ``move`` decisions also offer ``sa`` (``when="during"``)
  until an SA is done (FITL-4.1: e.g. Rally to 0 Resources, Tax, Rally on); Ambush is instead an Attack ``mode``
  or follows a March.
* kind ``space`` - choose a space: Actions ``space`` (``space=<id>``; the label shows the cost) plus ``done`` once
  one is chosen, or ``none`` where the step is optional.  Steps: "space" (the Op's spaces: Train, Sweep,
  Assault, Rally, Attack, Terror), "assault" (Patrol's free Assault, with ``none``), "follow_up" (the US
  Assault's ARVN follow-up, with ``none``), "sa_space" (an SA's spaces; Transport's single origin).
* kind ``place`` (step "place") - Train placement: Action ``place`` (``irregulars``, ``rangers``, ``troops``,
  ``police``: counts; all 0 = place nothing).
* kind ``train_extra`` (step "extra") - after Train, in one selected space: ``pacify`` (``space``, ``levels``),
  ``base`` (``space``, ``troops``: how many of the 3 cubes replaced are Troops), ``patronage`` (``n``), ``none``.
* kind ``move_from`` (step "move_from") - a group's origin, or ``done``: Patrol (``space``, ``key`` = cube type),
  March, Air Lift (``space``), Raid (``space`` = where the Rangers come from; context ``space`` = Raid space).
* kind ``move_to`` (step "move_to") - the destination (``space``): Patrol, March, Air Lift; Transport (with
  ``done``).  context ``origin``.
* kind ``move`` (step "move") - Sweep: Action ``move`` (``origin``, ``space``), or ``done``.
* kind ``count`` - how many: Action ``count`` (``n``).  Steps: "count" (cubes/pieces moved; Air Lift and
  Transport give ``key``), "troops" / "guerrillas_u" / "guerrillas_a" (a March group), "split" (how many of a
  choice are NVA rather than VC: Activation, Assault), "troops" / "replace" (Infiltrate).
* kind ``mode`` (step "mode") - how to act in ``space``: Action ``mode`` (``mode=<name>``).  Rally: place (``n``
  Guerrillas) / base / underground; Attack: guerrillas / troops / ambush; Advise: sweep / assault / strike;
  Govern: aid / patronage; Infiltrate: troops / takeover; Subvert: remove / replace.
* kind ``piece`` - which piece: Action ``piece`` (``space``, ``key`` = a board piece key such as
  ``vc_guerrillas:a``), and ``stop`` where the rule says "up to" (Guerrilla Attack, Air Strike).  Steps: "remove"
  (Attack, Air Strike, Bombard, Subvert, Advise/Raid strikes), "target" (Ambush), "tunnel" (which Tunneled Base),
  "sf" (Advise: Irregular or Ranger), "takeover" (Infiltrate, with ``none``).
* kind ``yesno`` - Actions ``yes`` / ``no``.  Steps: "trail" (NVA Rally: Improve the Trail for 2; Air Strike:
  spend 2 hits to Degrade it, context ``hits``), "aid" (Advise: +6 Aid), "strike" (Raid: a Ranger strikes).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..core import Action, IllegalAction
from .coin_ops import CoinOps
from .insurgent_ops import InsurgentOps
from .ops_common import OpCtx
from .special_coin import CoinSpecialActivities
from .special_insurgent import InsurgentSpecialActivities

OPS: dict[str, tuple[str, ...]] = {
    "US": ("train", "patrol", "sweep", "assault"),
    "ARVN": ("train", "patrol", "sweep", "assault"),
    "NVA": ("rally", "march", "attack", "terror"),
    "VC": ("rally", "march", "attack", "terror"),
}
SAS: dict[str, tuple[str, ...]] = {
    "US": ("advise", "air_lift", "air_strike"),
    "ARVN": ("govern", "transport", "raid"),
    "NVA": ("infiltrate", "bombard", "ambush"),
    "VC": ("tax", "subvert", "ambush"),
}
# FITL-4.1.1: the Operations an SA may accompany (absent: any)
ACCOMPANIES: dict[str, frozenset[str]] = {
    "advise": frozenset({"train", "patrol"}),
    "govern": frozenset({"train", "patrol"}),
    "raid": frozenset({"patrol", "sweep", "assault"}),
    "infiltrate": frozenset({"rally", "march"}),
    "subvert": frozenset({"rally", "march", "terror"}),
    "ambush": frozenset({"march", "attack"}),
}
NAMES = {
    "train": "Train",
    "patrol": "Patrol",
    "sweep": "Sweep",
    "assault": "Assault",
    "rally": "Rally",
    "march": "March",
    "attack": "Attack",
    "terror": "Terror",
    "advise": "Advise",
    "air_lift": "Air Lift",
    "air_strike": "Air Strike",
    "govern": "Govern",
    "transport": "Transport",
    "raid": "Raid",
    "infiltrate": "Infiltrate",
    "bombard": "Bombard",
    "ambush": "Ambush",
    "tax": "Tax",
    "subvert": "Subvert",
}
OP_RULES = {
    "train": "FITL-3.2.1",
    "patrol": "FITL-3.2.2",
    "sweep": "FITL-3.2.3",
    "assault": "FITL-3.2.4",
    "rally": "FITL-3.3.1",
    "march": "FITL-3.3.2",
    "attack": "FITL-3.3.3",
    "terror": "FITL-3.3.4",
}


class OperationsRules(CoinOps, InsurgentOps, CoinSpecialActivities, InsurgentSpecialActivities):
    """Mixin: FITL-3.0 Operations and FITL-4.0 Special Activities."""

    # ------------------------------------------------------------------ which Ops are possible (3.1, 2.3.9)
    def op_possible(self, faction: str, op: str, limited: bool, free: bool = False) -> bool:
        """Whether ``op`` has at least one legal, affordable space now (FITL-3.1; Monsoon FITL-2.3.9)."""
        if op not in OPS[faction]:
            return False
        can = getattr(self, f"can_{op}", None)
        return bool(can and can(faction, limited, free))

    def op_choices(self, faction: str, limited: bool, free: bool = False) -> list[str]:
        """FITL-3.1 / decision F-63: only Operations with a legal space the faction can pay for."""
        return [op for op in OPS[faction] if self.op_possible(faction, op, limited, free)]

    def op_possible_in(self, faction: str, op: str, scope: tuple[str, ...]) -> bool:
        """FITL-5.1.1: whether ``op`` has a legal space among ``scope`` (an Event's space limit; decision F-160).
        Sweep and Patrol may always be chosen for a space in scope (Troops may move in); the others need a space
        where the Operation could act now."""
        if op == "train":
            return any(s in scope for s in self.train_spaces(faction))
        if op == "sweep":
            return any(s in scope for s in self.sweep_spaces(faction))
        if op == "assault":
            return any(s in scope for s in self.assault_spaces(faction))
        if op == "patrol":
            return any(d in scope for s in self.spaces() for d in self.patrol_reach(s))
        if op == "rally":
            return any(s in scope and self.rally_modes(faction, s) for s in self.rally_spaces(faction))
        if op == "march":
            return any(
                d in scope
                for s in self.march_origins(faction)
                for d in self.march_destinations(faction, s, set(), True, None)
            )
        if op == "attack":
            return any(s in scope for s in self.attack_spaces(faction))
        if op == "terror":
            return any(s in scope for s in self.terror_spaces(faction))
        return True

    def sa_possible(self, ctx: OpCtx, sa: str) -> bool:
        """FITL-4.1 / FITL-4.1.1: ``sa`` may accompany ``ctx.op`` and has a legal space now."""
        if sa not in SAS[ctx.faction] or ctx.limited:
            return False
        if sa in ACCOMPANIES and ctx.op not in ACCOMPANIES[sa]:
            return False
        if self.sa_banned(sa):  # FITL-5.4-MOM: a Momentum card forbids it
            return False
        can = getattr(self, f"can_{sa}", None)
        return bool(can and can(ctx))

    def refuse_op(self, faction: str, limited: bool, free: bool, action: Action) -> IllegalAction:
        """Why an Operation not offered is illegal (FITL-3.2/3.3 menus, FITL-2.3.9 Monsoon, FITL-3.1 costs)."""
        op = action.get("op")
        if op not in OPS[faction]:
            return IllegalAction(
                "FITL-3.2" if faction in ("US", "ARVN") else "FITL-3.3",
                f"{op!r} is not one of {faction}'s Operations ({', '.join(OPS[faction])})",
            )
        if op == "assault" and self.us_assault_banned(faction):
            return IllegalAction(
                "FITL-5.4", f"no US Assault while {self.us_assault_banned(faction)} is in play"
            )
        if op in ("sweep", "march") and self.monsoon:
            return IllegalAction("FITL-2.3.9", f"no {NAMES[op]} in Monsoon (a Coup card is next)")
        if self.op_possible(faction, op, limited, True):
            return IllegalAction(
                "FITL-1.8.1" if faction == "US" else "FITL-3.1",
                f"{faction} cannot pay for {NAMES[op]} (can spend {self.spendable(faction)})",
            )
        return IllegalAction(OP_RULES[op], f"{faction} cannot {NAMES[op]} now: no legal space for it")

    # ------------------------------------------------------------------ the procedure (3.1, 4.1)
    def operation(
        self,
        faction: str,
        *,
        limited: bool,
        with_sa: bool,
        free: bool = False,
        only: tuple[str, ...] | None = None,
        spaces: tuple[str, ...] | None = None,
        max_spaces: int | None = None,
        in_place: bool = False,
        nva_only: bool = False,
        no_tunnels: bool = False,
        march_pieces: str = "",
        march_origins: tuple[str, ...] | None = None,
    ) -> Generator[Any, Any, dict[str, Any]]:
        """FITL-3.1: choose one Op (``only`` narrows the choice, e.g. for an Event's free Op), run it, and
        (FITL-4.1, not in a Limited Op) one Special Activity before, during or after it (decision F-56).
        ``spaces``: an Event confines the Op's selected spaces and destinations to these (FITL-5.1.1, decision
        F-111, F-160; pieces may still come from outside, e.g. Sweep's Troops from adjacent spaces); an Op with no legal
        space among them is not offered.  Also for Events (FITL-5.1.1, decision F-162): ``max_spaces`` caps the
        Op's spaces or destinations, ``in_place`` makes a Sweep move no Troops in, ``nva_only`` makes an Assault
        remove NVA pieces only (VC pieces are ignored, as if absent), ``no_tunnels`` lets it remove Tunneled Bases as
        plain ones; ``march_pieces`` ("troops" / "guerrillas")
        and ``march_origins`` limit what a March moves and where from (decision F-165)."""
        scope = tuple(spaces) if spaces is not None else None
        choices = [
            op
            for op in self.op_choices(faction, limited, free)
            if (only is None or op in only) and (scope is None or self.op_possible_in(faction, op, scope))
        ]
        if not choices and scope is not None:  # FITL-5.1.3: the Event does what it can (decision F-160)
            yield self.oruling(
                "FITL-5.1.3",
                "No free Operation in those spaces",
                f"{faction} has no legal {'/'.join(NAMES[o] for o in only or OPS[faction])} in "
                f"{', '.join(self.sname(s) for s in scope) or 'the named spaces'}, so none is done.",
                result={"op": None, "spaces": list(scope)},
            )
            return {
                "op": None,
                "executed": False,
                "sa": False,
                "special": None,
                "spaces": [],
                "sa_spaces": [],
            }
        if not choices:
            raise IllegalAction("FITL-3.1", f"{faction} has no legal Operation now")
        opts = [Action.make("op", f"{NAMES[op]} ({OP_RULES[op]})", op=op) for op in choices]
        act = yield self.decide(
            faction,
            f"{faction}: choose the {'Limited ' if limited else ''}Operation",
            "FITL-3.1",
            opts,
            kind="op",
            faction=faction,
            limited=limited,
            free=free,
            step="op",
            check=lambda a: self.refuse_op(faction, limited, free, a),
        )
        op = act["op"]
        ctx = OpCtx(faction, op, limited, free, with_sa and not limited)
        ctx.allowed = scope
        ctx.max_spaces, ctx.in_place, ctx.nva_only = max_spaces, in_place, nva_only
        ctx.no_tunnels = no_tunnels
        ctx.march_pieces, ctx.march_origins = (
            march_pieces,
            (tuple(march_origins) if march_origins is not None else None),
        )
        yield self.oruling(
            "FITL-3.1",
            f"{faction} {'Limited ' if limited else ''}{NAMES[op]}",
            f"{faction} chooses {NAMES[op]}"
            + (" as a Limited Operation: 1 space, no Special Activity" if limited else "")
            + (" (free: no Resources except Pacify and Trail, FITL-3.1.2)" if free else "")
            + (
                f"; the Event confines it to {', '.join(self.sname(s) for s in scope)} (FITL-5.1.1)"
                if scope is not None
                else ""
            )
            + ".",
            result={
                "op": op,
                "limited": limited,
                "free": free,
                **({"spaces": list(scope)} if scope is not None else {}),
            },
        )
        plan = "none"
        if ctx.with_sa:
            sas = [sa for sa in SAS[faction] if sa != "ambush" and self.sa_possible(ctx, sa)]
            opts = [
                Action.make("sa", f"{NAMES[sa]} first, then the {NAMES[op]}", sa=sa, when="before")
                for sa in sas
            ]
            opts.append(Action.make("sa_later", f"{NAMES[op]} first (Special Activity during or after it)"))
            opts.append(Action.make("no_sa", "No Special Activity"))
            a = yield self.decide(
                faction,
                "Special Activity: before the Operation, later, or none?",
                "FITL-4.1",
                opts,
                kind="sa",
                **ctx.context(step="sa"),
            )
            if a.kind == "sa":
                yield from self.special_activity(ctx, a["sa"])
                plan = "done"
            elif a.kind == "sa_later":
                plan = "later"
        ctx.sa_open = plan == "later"
        yield from getattr(self, f"op_{op}")(ctx)
        if plan == "later" and ctx.sa is None:
            sas = [sa for sa in SAS[faction] if self.sa_possible(ctx, sa)]
            if sas:
                opts = [Action.make("sa", f"{NAMES[sa]} now", sa=sa, when="after") for sa in sas]
                opts.append(Action.make("no_sa", "No Special Activity"))
                a = yield self.decide(
                    faction,
                    "Special Activity after the Operation?",
                    "FITL-4.1",
                    opts,
                    kind="sa",
                    **ctx.context(step="sa"),
                )
                if a.kind == "sa":
                    yield from self.special_activity(ctx, a["sa"])
        if self.pending_changes():  # F-41: nothing changes without a ruling naming it
            yield self.oruling(
                "FITL-3.1", f"{faction} {NAMES[op]} done", f"{faction}'s {NAMES[op]} is complete."
            )
        executed = bool(ctx.spaces) or op == "patrol" or ctx.trail_improved
        return {
            "op": op,
            "executed": executed,
            "sa": ctx.sa is not None,
            "special": ctx.sa,
            "spaces": list(ctx.spaces),
            "sa_spaces": list(ctx.sa_spaces),
        }

    def free_special_activity(self, faction: str, sa: str) -> Generator[Any, Any, dict[str, Any]]:
        """FITL-3.1.2: an Event's free Special Activity on its own (no Operation to accompany, so FITL-4.1.1 does
        not apply; Ambush from an Event is not handled here).  Returns ``{"sa": name, "sa_spaces": [...]}``."""
        ctx = OpCtx(faction, "", False, True, True)
        can = getattr(self, f"can_{sa}", None)
        banned = self.sa_banned(sa) if sa in SAS[faction] else ""
        if banned:
            raise IllegalAction("FITL-5.4", f"no {NAMES.get(sa, sa)} while {banned} is in play")
        if sa not in SAS[faction] or sa == "ambush" or not (can and can(ctx)):
            raise IllegalAction("FITL-4.1", f"{faction} cannot do a free {NAMES.get(sa, sa)} now")
        ctx.sa = sa
        yield from getattr(self, f"sa_{sa}")(ctx)
        if self.pending_changes():
            yield self.oruling(
                "FITL-3.1.2", f"Free {NAMES[sa]} done", f"{faction}'s free {NAMES[sa]} is complete."
            )
        return {"sa": sa, "sa_spaces": list(ctx.sa_spaces)}

    def special_activity(self, ctx: OpCtx, sa: str) -> Generator[Any, Any, None]:
        """FITL-4.1: run the Special Activity ``sa`` for the Operation in ``ctx`` (no added cost)."""
        if self.sa_banned(sa):
            raise IllegalAction("FITL-5.4", f"no {NAMES[sa]} while {self.sa_banned(sa)} is in play")
        if not self.sa_possible(ctx, sa):
            raise IllegalAction("FITL-4.1.1", f"{NAMES[sa]} may not accompany this {NAMES[ctx.op]}")
        ctx.sa = sa
        yield from getattr(self, f"sa_{sa}")(ctx)
