"""Lesson-sized play (issue #31): a student decides what a commander decides and delegates the rest.

Every game declares its decision kinds in ``data/<game>/decision_kinds.csv`` (:class:`KindRow`): a name in a
student's words, a ``level`` (``commander``: the student's by default; ``routine``: the Advisor's by default),
whether the Advisor may propose a ``plan`` for it (``phase``: the rest of the phase; ``run``: until a decision
of the same kind comes again) and whether a decision of that kind starts a new ``order`` in such a plan.
A kind a game does not declare is always the student's: nothing is delegated by accident.

:class:`Lesson` is the shared controller, with no widgets, so the apps and the benchmark play through the
same code:

* ``mine``: the decision kinds the student makes; every other decision of the student's side is made by the
  Advisor (the game's built-in player of that side) at once, as an ordinary decision in the record
  (``by="advisor"``, the bot's reason in ``why``), so it is explained in the rulings and undoable with Back.
* :meth:`Lesson.plan`: the Advisor's plan for the pending decision and the ones after it (its scope set by the
  kind's ``plan``), worked out on a branch of the game, grouped into orders the student may keep or drop.
* :meth:`Lesson.confirm`: the kept orders applied to the game in one go.  Each action is applied only if the
  rules offer it at that moment (the engine checks every one, so the full rules stay enforced); where an order
  no longer fits, a delegated decision goes to the Advisor and any other stops the plan: it is the student's.
* :meth:`Lesson.orders`: the student's own orders for a run of decisions of one kind (several units picked
  on the map or in the list, confirmed at once), applied in the order given while each is legal.

All decisions one press makes share an ``advice`` number in the record, so Back takes them back as one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from .actions import Action, IllegalAction, WargamesError
from .data import Row, game_dir, read_csv

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game


class KindRow(Row):
    """One row of ``data/<game>/decision_kinds.csv``: a kind of decision and who makes it by default."""

    kind: str
    name: str
    level: Literal["commander", "routine"]
    plan: Literal["phase", "run"] | None = None
    order: Literal["yes"] | None = None
    rules: str
    explanation: str


@cache
def decision_kinds(game_id: str) -> dict[str, KindRow]:
    """A game's declared decision kinds, by kind (a repeated kind is a DataError naming its line)."""
    from .data import DataError

    path = game_dir(game_id) / "decision_kinds.csv"
    out: dict[str, KindRow] = {}
    for line, row in enumerate(read_csv(path, KindRow), start=2):
        if row.kind in out:
            raise DataError(path, f"decision kind {row.kind!r} is declared twice", row=line, column="kind")
        out[row.kind] = row
    return out


def commander_kinds(game_id: str) -> frozenset[str]:
    """The kinds a student makes by default (level ``commander``)."""
    return frozenset(k for k, r in decision_kinds(game_id).items() if r.level == "commander")


def kind_name(game_id: str, kind: str) -> str:
    """A decision kind in a student's words: its ``decision_kinds.csv`` name, else its ``action_kinds.csv`` name
    (an action's kind whose plain words would misspell a game word: ``place_snafu`` -> "Place SNAFU"), else the
    kind itself read as words."""
    row = decision_kinds(game_id).get(kind)
    if row is not None:
        return row.name
    named = action_kinds(game_id).get(kind)
    return named.name if named is not None else kind.replace("_", " ")


class ActionKindRow(Row):
    """One row of ``data/<game>/action_kinds.csv``: a kind of action (not a kind of decision, so no "Who decides
    what" tick box) and how a student reads it in a decisions table, with the game's own spelling of its
    abbreviations (HQ, LoC, SNAFU, Special Activity)."""

    kind: str
    name: str


@cache
def action_kinds(game_id: str) -> dict[str, ActionKindRow]:
    """A game's named action kinds, by kind (none when the game has no ``action_kinds.csv``; a repeated kind, or one
    ``decision_kinds.csv`` already names, is a DataError naming its line)."""
    from .data import DataError

    path = game_dir(game_id) / "action_kinds.csv"
    if not path.exists():
        return {}
    declared = decision_kinds(game_id)
    out: dict[str, ActionKindRow] = {}
    for line, row in enumerate(read_csv(path, ActionKindRow), start=2):
        if row.kind in out or row.kind in declared:
            where = "action_kinds.csv" if row.kind in out else "decision_kinds.csv"
            raise DataError(
                path, f"action kind {row.kind!r} is already named in {where}", row=line, column="kind"
            )
        out[row.kind] = row
    return out


@dataclass
class Step:
    """One decision of a plan: the action, its label as the student reads it and the Advisor's reason."""

    action: Action
    kind: str
    label: str
    why: str


@dataclass
class Order:
    """A group of plan steps shown as one line (one unit's move, one space, one activation)."""

    steps: list[Step] = field(default_factory=list)
    keep: bool = True

    @property
    def label(self) -> str:
        """The order in one line: its steps' labels joined by arrows (the first four, then how many more)."""
        if not self.steps:
            return ""
        head, rest = self.steps[0].label, [s.label for s in self.steps[1:]]
        more = f" \u2192 \u2026 ({len(rest) - 3} more)" if len(rest) > 3 else ""
        return " \u2192 ".join([head, *rest[:3]]) + more


@dataclass
class Plan:
    """The Advisor's plan: its orders, the decision it starts at (rule, kind) and what it covers in words."""

    orders: list[Order]
    rule_id: str
    kind: str
    scope: str
    at: tuple[int, bool]

    def __len__(self) -> int:
        return len(self.orders)


@dataclass
class Outcome:
    """What one press did: the decisions made (label, by, reason), why it stopped, and the rulings."""

    made: list[tuple[str, str, str]]
    stopped: str
    rulings: list[Any]


class Lesson:
    """Lesson-sized play of ``side`` in ``game`` (whose player for ``side`` must be None: a person).

    ``mine``: the decision kinds the student makes (default: the game's commander kinds).  ``presses`` counts
    the student's actions made through this controller and the caller (an Apply, a plan, an order dropped,
    a confirmation): the figure the lesson benchmark reports.
    """

    LIMIT = 600  # decisions one press may make (a guard against a loop; a phase's plan is far shorter)

    def __init__(self, game: Game, side: str, mine: set[str] | frozenset[str] | None = None):
        if side not in game.sides:
            raise WargamesError(f"{side!r} is not a side of {game.title}: choose one of {list(game.sides)}")
        self.game = game
        self.side = side
        self.kinds = decision_kinds(game.game_id)
        self.mine = set(commander_kinds(game.game_id) if mine is None else mine)
        self.advisor = game.default_player(side)
        self.presses = 0
        self._run = 0

    # ------------------------------------------------------------------ settings
    def is_mine(self, kind: str) -> bool:
        """Whether a decision of ``kind`` is the student's: set as theirs, or a kind the game does not declare."""
        return kind in self.mine or kind not in self.kinds

    def set_mine(self, kind: str, mine: bool) -> None:
        """Make ``kind`` the student's (True) or the Advisor's (False); an unknown kind is refused."""
        if kind not in self.kinds:
            raise WargamesError(
                f"{kind!r} is not a decision kind of {self.game.title} (data/{self.game.game_id}/decision_kinds.csv)"
            )
        (self.mine.add if mine else self.mine.discard)(kind)

    @property
    def waiting(self) -> bool:
        """Whether the game waits for a decision of the student's side."""
        d = self.game.decision
        return d is not None and d.side == self.side and not self.game.is_over

    # ------------------------------------------------------------------ the Advisor's decisions
    def _label(self, action: Action) -> str:
        fn = getattr(self.game, "display_label", None)
        return fn(action, self.side) if fn is not None else (action.label or action.kind)

    def _text(self, text: str) -> str:
        fn = getattr(self.game, "display_text", None)
        return fn(text, self.side) if fn is not None else text

    def _new_run(self) -> int:
        self._run += 1
        return len(self.game.record) * 1000 + self._run

    def _apply(self, action: Action, by: str, why: str, run: int | None) -> None:
        g = self.game
        k = len(g.record)
        g.apply(action, by=by, why=why)
        if run is not None:
            g.record[k]["advice"] = run
        if not g.is_over:
            g.advance("end")

    def delegate(self, run: int | None = None) -> Outcome:
        """The Advisor makes every pending decision of the side whose kind is not the student's, each with its
        reason, until the game waits for one of the student's kinds (or for nobody: the game is over)."""
        g = self.game
        n0 = len(g.log)
        made: list[tuple[str, str, str]] = []
        run = self._new_run() if run is None else run
        while self.waiting and not self.is_mine(g.decision.kind) and len(made) < self.LIMIT:
            d = g.decision
            act = self.advisor.choose(g, d)
            why = str(getattr(self.advisor, "last_reason", "") or "")
            label = self._label(act)
            self._apply(act, "advisor", f"{kind_name(g.game_id, d.kind)} (left to the Advisor): {why}", run)
            made.append((label, "advisor", self._text(why)))
        return Outcome(made, "", g.log[n0:])

    def apply(self, action: Action) -> Outcome:
        """The student's own decision (one press), then the Advisor's delegated ones after it; Back takes
        them back together.  An illegal action raises IllegalAction and changes nothing."""
        if not self.waiting:
            raise WargamesError("the game is not waiting for your decision")
        g = self.game
        n0 = len(g.log)
        run = self._new_run()
        self._apply(action, "person", "", run)
        self.presses += 1
        out = self.delegate(run)
        return Outcome(out.made, out.stopped, g.log[n0:])

    # ------------------------------------------------------------------ plans
    def _scope(self, kind: str) -> str:
        row = self.kinds.get(kind)
        return row.plan if row is not None and row.plan else "run"

    def _starts_order(self, kind: str, first_kind: str) -> bool:
        row = self.kinds.get(kind)
        return kind == first_kind or (row is not None and row.order == "yes")

    def plan(self) -> Plan:
        """The Advisor's plan from the pending decision: what the side's built-in player would decide for the
        rest of the phase (a ``phase`` kind) or until a decision of this kind comes again (``run``), worked out
        on a branch, so the game itself does not change.  Other sides' players answer on the branch as they
        would in the game.  One press."""
        if not self.waiting:
            raise WargamesError("the game is not waiting for your decision: there is nothing to plan")
        g = self.game
        d = g.decision
        first, scope = d.kind, self._scope(d.kind)
        here = (g.turn, g.phase.id if g.phase else None)
        b = g.branch()
        bot = copy.deepcopy(self.advisor)
        orders: list[Order] = []
        n = 0
        while not b.is_over and b.decision is not None and n < self.LIMIT:
            bd = b.decision
            if bd.side != self.side or (b.turn, b.phase.id if b.phase else None) != here:
                break
            if n and scope == "run" and bd.kind == first:
                break
            act = bot.choose(b, bd)
            why = str(getattr(bot, "last_reason", "") or "")
            step = Step(act, bd.kind, self._label_in(b, act), self._text(why))
            if not orders or self._starts_order(bd.kind, first):
                orders.append(Order())
            orders[-1].steps.append(step)
            b.apply(act, by="advisor", why=why)
            if not b.is_over:
                b.advance("end")
            n += 1
        self.presses += 1
        words = (
            "the rest of this phase"
            if scope == "phase"
            else f"this step ({kind_name(g.game_id, first)}, up to the next such decision)"
        )
        return Plan(orders, d.rule_id, first, words, g.position)

    def _label_in(self, game: Game, action: Action) -> str:
        fn = getattr(game, "display_label", None)
        return fn(action, self.side) if fn is not None else (action.label or action.kind)

    def drop(self, plan: Plan, index: int, keep: bool = False) -> None:
        """Drop (or keep again) one order of a plan: one press."""
        if not 0 <= index < len(plan.orders):
            raise WargamesError(f"the plan has {len(plan.orders)} orders; there is no order {index + 1}")
        plan.orders[index].keep = keep
        self.presses += 1

    def confirm(self, plan: Plan) -> Outcome:
        """Apply the kept orders of ``plan`` (one press).  Each step is applied only where the rules offer it:
        a step that no longer fits is left out if the Advisor decides that kind anyway, else the plan stops
        and the decision is the student's.  Then the Advisor makes the delegated decisions that follow."""
        g = self.game
        if g.position != plan.at:
            raise WargamesError(
                "the game has moved on since this plan was made: ask the Advisor for a new one"
            )
        queue = [s for o in plan.orders if o.keep for s in o.steps]
        n0 = len(g.log)
        run = self._new_run()
        made: list[tuple[str, str, str]] = []
        stopped = ""
        here = (g.turn, g.phase.id if g.phase else None)
        self.presses += 1
        while self.waiting and (g.turn, g.phase.id if g.phase else None) == here and len(made) < self.LIMIT:
            d = g.decision
            if queue and d.find(queue[0].action) is not None:
                step = queue.pop(0)
                self._apply(step.action, "advisor", f"your plan (from the Advisor): {step.why}", run)
                made.append((step.label, "plan", step.why))
                continue
            if not self.is_mine(d.kind):
                made.extend(self.delegate(run).made)
                continue
            if queue:
                stopped = f"the plan stopped: \u201c{queue[0].label}\u201d is not possible now, so this decision is yours"
            break
        if not stopped and self.waiting:
            stopped = "the plan is done; the next decision is yours"
        made.extend(self.delegate(run).made)
        return Outcome(made, stopped, g.log[n0:])

    def orders(self, actions: list[Action]) -> Outcome:
        """The student's own orders, confirmed at once (one press for the confirmation; the caller counts
        each pick): each action is applied at the next decision of the side that offers it, in the order
        given, with the Advisor's delegated decisions in between; an action the rules do not offer when its
        turn comes stops the orders there (the game is unchanged by that action)."""
        if not self.waiting:
            raise WargamesError("the game is not waiting for your decision")
        if not actions:
            raise WargamesError("no orders were picked: pick one or more in the list (or on the map) first")
        g = self.game
        n0 = len(g.log)
        run = self._new_run()
        made: list[tuple[str, str, str]] = []
        stopped = ""
        self.presses += 1
        for i, act in enumerate(actions):
            if not self.is_mine(g.decision.kind) if self.waiting else False:
                made.extend(self.delegate(run).made)
            if not self.waiting:
                stopped = f"{len(actions) - i} order(s) were not given: the game moved on to another side"
                break
            if g.decision.find(act) is None:
                err: IllegalAction = g.decision.reject(act)
                stopped = f"order {i + 1} \u201c{self._label(act)}\u201d was not given: {err.message}"
                break
            self._apply(act, "person", "", run)
            made.append((self._label(act), "person", ""))
        made.extend(self.delegate(run).made)
        return Outcome(made, stopped, g.log[n0:])
