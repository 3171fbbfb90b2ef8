"""Fire in the Lake: the Event verbs that choose, count, branch and hand out free Operations, Special
Activities, Capabilities and Momentum (FITL-5.1 to 5.5; a mixin of :class:`~wargames.fitl.events.vocabulary.EventVocabulary`)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...core import Action
from .words import (
    STOP,
    EvCtx,
    Flow,
    expand_keys,
    expand_pids,
)


class PlayVerbs:
    """Mixin: the choice, counting, condition and free-action verbs of the Event effect language (FITL-5.1 to 5.5)."""

    board: Any
    data: Any
    dice: Any

    def ev_select(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Choose ``n`` spaces matching ``where`` (``upto``: fewer allowed) into variable ``var`` for later steps."""
        cands = self.ev_spaces(ctx, step.get("where"))
        n = self.ev_num(ctx, step.get("n", 1))
        side = self.ev_chooser(ctx, step)
        rule = step.get("rule", "FITL-5.1")
        chosen: list[str] = []
        while cands and (n is None or len(chosen) < n):
            if n is None:
                chosen += cands
                break
            if len(cands) == 1 and not step.get("upto"):
                s = cands[0]
            else:
                acts = [Action.make("space", self.ev_sname(s), places=[s], space=s) for s in cands]
                if step.get("upto") and (chosen or step.get("optional")):
                    acts.append(STOP)
                a = yield self.decide(
                    side,
                    f"{ctx.label}: {step.get('prompt', 'select a space')}",
                    rule,
                    acts,
                    kind="event_space",
                    card=ctx.card,
                    event_side=ctx.side,
                    step="select",
                    var=step.get("var", "selected"),
                    check=self._ev_check(ctx, rule, "that space does not qualify"),
                )
                if a.kind == "stop":
                    break
                s = a["space"]
            chosen.append(s)
            cands.remove(s)
        ctx.vars[step.get("var", "selected")] = chosen
        yield self.ev_rule(
            ctx,
            rule,
            "Spaces selected",
            (
                f"{side} selects {', '.join(self.ev_sname(s) for s in chosen)}."
                if chosen
                else "no space qualifies, so the steps that need one do nothing (FITL-5.1.3)."
            ),
            result={"selected": chosen},
        )

    # -- numbers -------------------------------------------------------------
    def ev_set(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Set a variable (e.g. the number a choice stands for)."""
        ctx.vars[step["var"]] = step["value"]
        return
        yield

    def ev_roll(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A die roll for the card (all chance through the game's seeded dice)."""
        roll = self.dice.roll(6, purpose=f"{ctx.label}")
        ctx.vars[step.get("var", "roll")] = roll.value
        yield self.ev_rule(
            ctx,
            "FITL-5.1",
            "Die roll",
            f"a die is rolled: {roll.value}.",
            dice=[roll],
            result={"roll": roll.value},
        )

    def ev_tally(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Set a variable to a number of pieces in spaces (``where``) or in a box (``box``); ``per``: divide."""
        if step.get("leader_box"):  # cards in the RVN Leader box (Minh is printed, not a card)
            n = len(getattr(self, "leader_box", []))
        elif "track" in step:
            n = self.board.tracks[step["track"]]
        elif step.get("spaces"):  # how many spaces match ``where``
            n = len(self.ev_spaces(ctx, step.get("where")))
        elif "box" in step:
            box = getattr(self.board, step["box"])
            n = sum(box[p] for p in expand_pids(step.get("pieces", list(box))))
        else:
            n = sum(self.ev_count_pieces(s, step["pieces"]) for s in self.ev_spaces(ctx, step.get("where")))
        if step.get("per"):
            n //= int(step["per"])
        ctx.vars[step["var"]] = n
        return n
        yield

    def ev_count_pieces(self, s: str, spec: Any) -> int:
        return sum(self.board.pieces[s][k] for k in expand_keys(spec))

    # -- eligibility, free actions, lasting effects ----------------------------
    def ev_eligible(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-2.3.6: the card sets a faction Eligible or Ineligible for the next card."""
        facs = step["factions"]
        facs = [ctx.faction if f == "executing" else f for f in (facs if isinstance(facs, list) else [facs])]
        want = bool(step.get("eligible", True))
        for f in facs:
            self.eligibility_next[f] = want
        yield self.ev_rule(
            ctx,
            "FITL-2.3.6",
            "Eligibility",
            f"{', '.join(facs)} will be {'Eligible' if want else 'Ineligible'} for the next card.",
            result={"eligibility_next": dict(self.eligibility_next)},
        )

    def ev_free_op(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.5 / FITL-3.1.2: a free Operation (no cost except Pacify, Agitate, Trail; Eligibility unchanged)."""
        f = self.ev_chooser(ctx, {"by": step.get("faction", "executing")})
        ops = step.get("ops")
        limited = bool(step.get("limited"))
        note = step.get("note", "")
        operation = getattr(self, "operation", None)
        if operation is None or not hasattr(self, "op_choices"):
            yield self.ev_rule(
                ctx,
                "FITL-5.5",
                "Free Operation (pending)",
                f"{f} gets a free "
                f"{'/'.join(ops or ['Operation'])}; the Operations code is not present: free op "
                "(pending).",
                result={"pending": True},
            )
            return
        with self._free_op_flags(step):
            choices = [o for o in self.op_choices(f, limited, True) if ops is None or o in ops]
        if self.__dict__.get("_ev_dry"):  # a dry run (EventRules.event_effective): note it, run nothing
            if "where" in step and not self.ev_spaces(ctx, step["where"]):
                return  # FITL-8.1 (rules example: Attleboro with no Tunnel): the card names no space to act in
            if choices:
                self.__dict__["_ev_dry_free"].append(f"a free {'/'.join(choices)} for {f}")
            return
        if not choices:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "No free Operation possible",
                f"{f} has no legal {'/'.join(ops or ['Operation'])} now, so this part is skipped.",
                result={"op": None},
            )
            return
        kwargs: dict[str, Any] = {}
        allowed: list[str] | None = None
        params = inspect.signature(operation).parameters
        if "where" in step:  # the card confines the Operation's spaces (decision F-111)
            allowed = self.ev_spaces(ctx, step["where"])
            if "spaces" in params:
                kwargs["spaces"] = tuple(allowed)
            else:
                note = (
                    note + "; " if note else ""
                ) + "space limit not yet enforced by the Operations (pending)"
        for key in (
            "max_spaces",
            "in_place",
            "nva_only",
            "no_tunnels",
            "march_pieces",
        ):  # the card's limits (F-162, F-165)
            if key in step and key in params:
                kwargs[key] = step[key]
        if "origins" in step and "march_origins" in params:  # FITL-5.1.1: where the Event's March starts
            kwargs["march_origins"] = tuple(self.ev_spaces(ctx, step["origins"]))
        yield self.ev_rule(
            ctx,
            "FITL-5.5",
            "Free Operation",
            f"{f} executes a free "
            f"{'/'.join(o.title() for o in choices)} (no Resource cost, Eligibility unchanged)"
            f"{'; ' + note if note else ''}.",
            result={"faction": f, "ops": choices, "spaces": allowed},
            places=allowed or [],
        )
        with self._free_op_flags(step):
            outcome = yield from operation(
                f,
                limited=limited,
                with_sa=bool(step.get("with_sa")),
                free=True,
                only=tuple(choices),
                **kwargs,
            )
        if step.get("var"):  # the Operation's spaces (or March destinations), for the card's later steps
            ctx.vars[step["var"]] = list((outcome or {}).get("spaces") or [])

    @contextmanager
    def _free_op_flags(self, step: dict[str, Any]) -> Iterator[None]:
        """While an Event's free Operation is chosen and run: its Sweep/March ignores Monsoon (FITL-5.1.1, F-115),
        and ``cubes_as_us`` counts ARVN cubes as US Troops (F-167)."""
        before = {k: self.__dict__[k] for k in ("_ev_free_op", "_cubes_as_us") if k in self.__dict__}
        self.__dict__["_ev_free_op"] = True
        self.__dict__["_cubes_as_us"] = bool(step.get("cubes_as_us"))
        try:
            yield
        finally:  # restore what was there: a dry run (event_effective) may run inside a free Operation
            self.__dict__["_ev_free_op"] = before.get("_ev_free_op", False)
            if "_cubes_as_us" in before:
                self.__dict__["_cubes_as_us"] = before["_cubes_as_us"]
            else:
                self.__dict__.pop("_cubes_as_us", None)

    def ev_free_sa(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.5: a free Special Activity on its own (FITL-5.1.1: the card allows it without an Operation)."""
        f = self.ev_chooser(ctx, {"by": step.get("faction", "executing")})
        sas = step["sa"] if isinstance(step["sa"], list) else [step["sa"]]
        try:
            from ..ops_common import OpCtx
        except ImportError:  # pragma: no cover - the Operations are part of the package
            OpCtx = None  # noqa: N806
        ok = [sa for sa in sas if OpCtx is not None and hasattr(self, f"sa_{sa}")]
        if not ok:
            yield self.ev_rule(
                ctx,
                "FITL-5.5",
                "Free Special Activity (pending)",
                f"{f} gets a free {'/'.join(sas)}; not yet available: free op (pending).",
                result={"pending": True},
            )
            return
        opctx = OpCtx(f, "event", False, True, True)
        if "where" in step:  # FITL-5.1.1: the card confines the Special Activity (Air Lift: its destinations)
            opctx.sa_allowed = tuple(self.ev_spaces(ctx, step["where"]))
        opctx.sa_max = step.get("max_spaces")  # FITL-5.1.1: the card's own space count (F-169)
        opctx.strike_any, opctx.no_degrade = bool(step.get("strike_any")), bool(step.get("no_degrade"))
        ok = [sa for sa in ok if getattr(self, f"can_{sa}")(opctx)]
        if self.__dict__.get("_ev_dry"):
            if "where" in step and not opctx.sa_allowed:
                return  # FITL-8.1: the card names no space for its Special Activity
            if ok:
                self.__dict__["_ev_dry_free"].append(f"a free {'/'.join(ok)} for {f}")
            return
        if not ok:
            yield self.ev_rule(
                ctx,
                "FITL-5.1.3",
                "No free Special Activity possible",
                f"{f} has no legal space for {'/'.join(sas)}, so this part is skipped.",
            )
            return
        sa = ok[0]
        if len(ok) > 1:
            a = yield self.decide(
                f,
                f"{ctx.label}: which free Special Activity?",
                "FITL-5.5",
                [Action.make("option", s, index=i, sa=s) for i, s in enumerate(ok)],
                kind="event_choice",
                card=ctx.card,
                event_side=ctx.side,
                step="free_sa",
            )
            sa = a["sa"]
        yield self.ev_rule(
            ctx,
            "FITL-5.5",
            "Free Special Activity",
            f"{f} executes a free {sa.replace('_', ' ')}.",
            result={"faction": f, "sa": sa},
        )
        opctx.sa = sa
        yield from getattr(self, f"sa_{sa}")(opctx)

    def ev_capability(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.3: the Capability marker goes in on the side executed and lasts the rest of the game."""
        side = step.get("side", ctx.side)
        self.capabilities[str(ctx.card)] = side
        yield self.ev_rule(
            ctx,
            "FITL-5.3",
            "Capability",
            f"{ctx.title} is in effect ({side}) for the rest of the game.",
            result={"capability": ctx.card, "side": side},
            changes=[{"capability": ctx.card, "side": side}],
        )

    def ev_momentum(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.4: the card stays in view as Momentum until the next Coup Round's Reset."""
        if ctx.card not in self.momentum:  # it joins game.momentum when the next card is revealed (F-112)
            self.event_flags["momentum_pending"] = ctx.card
        self.event_flags[f"momentum_{ctx.card}"] = ctx.side
        yield self.ev_rule(
            ctx,
            "FITL-5.4",
            "Momentum",
            f"{ctx.title} ({ctx.side}) is in effect until the next Coup Round's Reset phase.",
            result={"momentum": ctx.card, "side": ctx.side},
            changes=[{"momentum": ctx.card, "side": ctx.side}],
        )

    def ev_cancel(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.1.2: the current Event removes an earlier Capability (``capability: n``) or Momentum card."""
        if "capability" in step:
            c = str(step["capability"])
            side = step.get("side")
            if c in self.capabilities and (side is None or self.capabilities[c] == side):
                del self.capabilities[c]
                yield self.ev_rule(
                    ctx,
                    "FITL-5.1.2",
                    "Capability removed",
                    f"the Capability of card {c} ({self.data.cards[int(c)].title}) is removed.",
                    changes=[{"capability": c}],
                )
        if "momentum" in step:
            m = int(step["momentum"])
            if m in self.momentum:
                self.momentum.remove(m)
                self.played.append(m)
                yield self.ev_rule(
                    ctx,
                    "FITL-5.1.2",
                    "Momentum discarded",
                    f"Momentum card {m} ({self.data.cards[m].title}) is discarded.",
                    changes=[{"momentum": m}],
                )

    def ev_note(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A ruling only, optionally setting a marker aid in ``event_flags`` (FITL-5.1 'markers as aids')."""
        if "flag" in step:
            self.event_flags[step["flag"]] = step.get("value", True)
        yield self.ev_rule(
            ctx,
            step.get("rule", "FITL-5.1"),
            step.get("title", "Note"),
            step["text"],
            result={"flag": step.get("flag")},
        )

    def ev_choose(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """FITL-5.1: a named faction (default: the executing one) picks one of the card's options."""
        side = self.ev_chooser(ctx, step)
        opts = [o for o in step["options"] if "cond" not in o or self.ev_cond(ctx, o["cond"])]
        if not opts:
            return
        acts = [Action.make("option", o["label"], index=i) for i, o in enumerate(opts)]
        a = yield self.decide(
            side,
            f"{ctx.label}: {step.get('prompt', 'choose')}",
            step.get("rule", "FITL-5.1"),
            acts,
            kind="event_choice",
            card=ctx.card,
            event_side=ctx.side,
            step="choose",
            option_steps=[o.get("steps", []) for o in opts],
            check=self._ev_check(ctx, "FITL-5.1", "that option is not on the card"),
        )
        o = opts[a["index"]]
        yield self.ev_rule(
            ctx, "FITL-5.1", "Choice", f"{side} chooses: {o['label']}.", result={"choice": o["label"]}
        )
        yield from self.run_steps(ctx, o.get("steps", []))

    def ev_if(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        ok = self.ev_cond(ctx, step["cond"])
        yield from self.run_steps(ctx, step.get("then", []) if ok else step.get("else", []))

    def ev_foreach(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """Run ``steps`` once per space in variable ``var``, with variable ``as`` (default ``here``) = [that space]."""
        name = step.get("as", "here")
        for s in list(ctx.vars.get(step["var"], [])):
            ctx.vars[name] = [s]
            yield from self.run_steps(ctx, step["steps"])

    def ev_hook(self, ctx: EvCtx, step: dict[str, Any]) -> Flow:
        """A card needing custom code: a named function of ``hooks.py``."""
        from . import hooks

        fn = getattr(hooks, step["name"])
        yield from fn(self, ctx, step)

    def ev_cond(self, ctx: EvCtx, cond: dict[str, Any]) -> bool:
        """Conditions: ``capability: [n, side]``, ``momentum: n``, ``track: {name, min, max}``, ``box: {box, pieces,
        min}``, ``pieces: {where, pieces, min}``, ``faction: [..]`` (executing), ``not: cond``, ``all: [conds]``."""
        if "not" in cond:
            return not self.ev_cond(ctx, cond["not"])
        if "all" in cond:
            return all(self.ev_cond(ctx, c) for c in cond["all"])
        if "any" in cond:
            return any(self.ev_cond(ctx, c) for c in cond["any"])
        if "capability" in cond:
            n, side = cond["capability"]
            return self.capabilities.get(str(n)) == side
        if "momentum" in cond:
            return int(cond["momentum"]) in self.momentum
        if "track" in cond:
            v = self.board.tracks[cond["track"]["name"]]
            return cond["track"].get("min", -(10**6)) <= v <= cond["track"].get("max", 10**6)
        if "box" in cond:
            b = getattr(self.board, cond["box"]["box"])
            return sum(b[p] for p in expand_pids(cond["box"].get("pieces", list(b)))) >= cond["box"].get(
                "min", 1
            )
        if "pieces" in cond:
            c = cond["pieces"]
            n = sum(self.ev_count_pieces(s, c["pieces"]) for s in self.ev_spaces(ctx, c.get("where")))
            return c.get("min", 1) <= n <= c.get("max", 10**6)
        if "faction" in cond:
            fs = cond["faction"]
            return ctx.faction in (fs if isinstance(fs, list) else [fs])
        if "support" in cond:
            c = cond["support"]
            v = self.board.support[c["space"]]
            return c.get("min", -2) <= v <= c.get("max", 2)
        if "played" in cond:
            return int(cond["played"]) in getattr(self, "played", [])
        if "flag" in cond:
            return bool(self.event_flags.get(cond["flag"]))
        raise ValueError(f"{ctx.label}: unknown condition {cond!r}")
