"""Fire in the Lake: the small decisions inside an Operation or a Special Activity (decision F-64: a question only
when there is a choice): how many pieces (:meth:`OpsChoices.pick_count`, :meth:`OpsChoices.split_pick`), where
they go (:meth:`OpsChoices.pick_destination`: Patrol FITL-3.2.2, Air Lift FITL-4.2.2, Transport FITL-4.3.2),
which pieces move together (:meth:`OpsChoices.pick_group`) and which pieces one by one
(:meth:`OpsChoices.pick_pieces`, with the explanation of each but the last, decision F-41).

A part of :class:`~wargames.fitl.ops_common.OpsCommon`, so it sees the game's ``decide``, ``flush``, ``oruling``,
the names of spaces and pieces and :meth:`~wargames.fitl.ops_common.OpsCommon.refuse_move`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from ..core import Action

if TYPE_CHECKING:  # pragma: no cover
    from .ops_common import OpCtx

Flow = Generator[Any, Any, Any]

DONE = Action.make("done", label="Done")
STOP = Action.make("stop", label="Stop (remove no more)")


class OpsChoices:
    """Mixin: the questions an Operation or a Special Activity asks on its way (see the module)."""

    decide: Any
    flush: Any
    oruling: Any
    sname: Any
    kname: Any
    n: Any
    refuse_move: Any

    def pick_count(
        self,
        side: str,
        prompt: str,
        rule: str,
        lo: int,
        hi: int,
        *,
        label: Callable[[int], str],
        **context: Any,
    ) -> Flow:
        """Ask for a number lo..hi (no question when only one value is possible)."""
        if hi <= lo:
            return lo
        yield from self.flush(rule)
        opts = [Action.make("count", label(k), (), n=k) for k in range(lo, hi + 1)]
        act = yield self.decide(side, prompt, rule, opts, kind="count", **context)
        return int(act["n"])

    def pick_destination(
        self,
        side: str,
        prompt: str,
        rule: str,
        ctx: OpCtx,
        dests: list[str],
        *,
        done: bool = False,
        **context: Any,
    ) -> Flow:
        """Ask where the pieces go (Patrol FITL-3.2.2, Air Lift FITL-4.2.2, Transport FITL-4.3.2): one option per
        space of ``dests`` and, when ``done``, the option to stop; a move the rule forbids is refused naming it
        (:meth:`refuse_move`).  Returns the chosen action."""
        opts = [Action.make("move_to", f"To {self.sname(d)}", [d], space=d) for d in dests] + (
            [DONE] if done else []
        )
        return (
            yield self.decide(
                side,
                prompt,
                rule,
                opts,
                kind="move_to",
                check=lambda a: self.refuse_move(ctx, rule, a),
                **ctx.context(step="move_to", **context),
            )
        )

    def pick_group(
        self,
        side: str,
        prompt: Callable[[str], str],
        rule: str,
        ctx: OpCtx,
        keys: list[str],
        cap: Callable[[str, dict[str, int]], int],
        **context: Any,
    ) -> Flow:
        """How many pieces of each kind of ``keys`` move together (Air Lift FITL-4.2.2, Transport FITL-4.3.2):
        one count per kind, up to ``cap(kind, chosen so far)``, and the last kind must give one when none has
        been chosen yet (a move moves something).  Returns kind -> number, only the kinds moved."""
        group: dict[str, int] = {}
        for i, k in enumerate(keys):
            most = cap(k, group)
            lo = 1 if i == len(keys) - 1 and not group and most else 0
            x = yield from self.pick_count(
                side,
                prompt(k),
                rule,
                lo,
                most,
                label=lambda v, k=k: self.kname(k, v),
                **ctx.context(step="count", **context, key=k),
            )
            if x:
                group[k] = x
        return group

    def split_pick(
        self, side: str, space: str, rule: str, k: int, a_key: str, b_key: str, verb: str, **context: Any
    ) -> Flow:
        """Choose how many of ``k`` affected pieces are ``a_key`` (the rest ``b_key``), only when it matters."""
        na, nb = self.n(space, a_key), self.n(space, b_key)
        lo, hi = max(0, k - nb), min(k, na)
        return (
            yield from self.pick_count(
                side,
                f"{verb} in {self.sname(space)}: how many {self.kname(a_key, 2)[2:]} (the rest "
                f"{self.kname(b_key, 2)[2:]})?",
                rule,
                lo,
                hi,
                label=lambda x: f"{verb} {self.kname(a_key, x)} and {self.kname(b_key, k - x)}",
                step="split",
                space=space,
                **context,
            )
        )

    def pick_pieces(
        self,
        side: str,
        prompt: str,
        rule: str,
        n: int,
        legal: Callable[[], list[tuple[str, str]]],
        act: Callable[[str, str], None],
        *,
        optional: bool,
        verb: str = "removed",
        **context: Any,
    ) -> Flow:
        """Up to ``n`` times: choose one legal (space, piece key) and apply ``act`` to it.

        ``optional``: a "stop" option is offered (an "up to" rule); otherwise the rule removes as many as it can,
        and a question is asked only when there is more than one kind of piece to choose from.
        Returns the list of (space, key) picked (decision F-64: ask only when there is a choice)."""
        picked: list[tuple[str, str]] = []
        for i in range(n):
            options = legal()
            if not options:
                break
            if len(options) == 1 and not optional:
                s, k = options[0]
            else:
                acts = [
                    Action.make("piece", f"{self.kname(k)} in {self.sname(s)}", [s], space=s, key=k)
                    for s, k in options
                ]
                if optional:
                    acts.append(STOP)
                yield from self.flush(rule)
                a = yield self.decide(
                    side, f"{prompt} ({i + 1} of up to {n})", rule, acts, kind="piece", **context
                )
                if a.kind == "stop":
                    break
                s, k = a["space"], a["key"]
            act(s, k)
            picked.append((s, k))
            if i + 1 < n and legal():  # more choices follow: explain this one now (F-41)
                yield self.oruling(
                    rule,
                    f"{self.kname(k)} in {self.sname(s)}",
                    f"{self.kname(k)} in {self.sname(s)} is {verb}.",
                    result={"space": s, "key": k},
                    places=[s],
                )
        return picked
