"""The walker of the sequence of play (``data/<game>/sequence.yaml``): phases, steps, alternating steps and
reaction windows, run as one generator of rulings and decisions (see :mod:`wargames.core.engine`).

At the start of every phase and step no procedure is suspended, so the walker takes a checkpoint there
(:mod:`wargames.core.checkpoints`); a walk may start again from any checkpoint (``start``).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .actions import Decision
from .errors import EngineError
from .rulings import Ruling
from .sequence import PhaseSpec, ReactionSpec, StepSpec

Flow = Generator[Ruling | Decision, Any, None]

#: where a checkpoint resumes the walker: (block, turn, phase index, step index, round, side that started the
#: round, mark).  ``mark`` is None at a phase, step or round start, else (name, data) of :meth:`Game.checkpoint`.
Where = tuple[str, int, int, int, int, "str | None", "tuple[str, dict[str, Any]] | None"]


class SequenceWalker:
    """The part of :class:`~wargames.core.engine.Game` that walks the sequence of play."""

    # ------------------------------------------------------------------ the walker
    def _applies(self, spec: PhaseSpec | StepSpec) -> bool:
        if spec.turns is not None and self.turn not in spec.turns:
            return False
        if spec.when is not None and not getattr(self, spec.when)():
            return False
        return True

    def _walk(self, start: Where = ("setup", 0, 0, -1, 0, None, None)) -> Flow:
        """Walk the sequence of play from ``start`` (block, turn, phase index, step index, round of an
        alternating step, the side that started it, a mark inside the step): the beginning of the game, or a
        checkpoint resumed."""
        block, turn, phase_i, step_i, round_k, first_side, mark = start
        if block == "setup":
            yield from self._run_phases(
                self.sequence.setup, "setup", phase_i, step_i, round_k, first_side, mark
            )
            turn, phase_i, step_i, round_k, first_side, mark = 1, 0, -1, 0, None, None
            if self.lesson is not None and self.lesson.turn is None and not self._over:
                self.turn, self.phase, self.step = 1, None, None  # set-up is over; turn 1 has not begun
                yield from self._make_position()
        while not self._over and (self.sequence.turns is None or turn <= self.sequence.turns):
            self.turn = turn
            yield from self._run_phases(
                self.sequence.phases, "turn", phase_i, step_i, round_k, first_side, mark
            )
            phase_i, step_i, round_k, first_side, mark = 0, -1, 0, None, None
            turn += 1
        if not self._over:
            self.phase = self.step = None
            yield from self.final_result()
        self._over = True

    def _run_phases(
        self,
        phases: list[PhaseSpec],
        block: str = "turn",
        first: int = 0,
        first_step: int = -1,
        first_round: int = 0,
        first_side: str | None = None,
        mark: tuple[str, dict[str, Any]] | None = None,
    ) -> Flow:
        for i in range(first, len(phases)):
            phase = phases[i]
            if self._over:
                return
            j0 = first_step if i == first else -1
            if j0 < 0:
                self._checkpoint(block, i, -1)
                if not self._applies(phase):
                    continue
                self.phase, self.step = phase, None
                yield self.ruling(
                    phase.rule,
                    f"{self.sequence.turn_name} {self.turn}: phase {phase.number}, {phase.name}",
                    phase.summary or f"Phase {phase.number} ({phase.name}) begins.",
                    result={"phase": phase.id},
                    kind="phase",
                )
                j0 = 0
                if (
                    block == "turn"
                    and self.lesson is not None
                    and self.lesson.turn == self.turn
                    and self.lesson.phase == phase.id
                ):
                    yield from self._make_position()
            for j in range(j0, len(phase.steps)):
                step = phase.steps[j]
                if self._over:
                    return
                resuming = i == first and j == first_step and (first_round > 0 or mark is not None)
                if not resuming:
                    self._checkpoint(block, i, j)
                    if not self._applies(step):
                        continue
                self.step = step
                if step.alternate is None:
                    self._at = (block, self.turn, i, j, 0, None, None)
                    self._resume = mark if resuming else None
                    yield from getattr(self, step.procedure)()
                else:
                    yield from self._alternate(
                        step,
                        block,
                        i,
                        j,
                        first_round if resuming else 0,
                        first_side if resuming else None,
                        mark if resuming else None,
                    )
                self._at = (block, self.turn, i, -1, 0, None, None)

    def _alternate(
        self,
        step: StepSpec,
        block: str,
        i: int,
        j: int,
        k: int,
        first_side: str | None,
        mark: tuple[str, dict[str, Any]] | None = None,
    ) -> Flow:
        """An alternating step: the sides take turns running its procedure until its condition holds (resumed
        inside round ``k`` when ``mark`` is given)."""
        alt = step.alternate
        assert alt is not None
        order = list(alt.sides or self.sides)
        if first_side is None:
            first_side = getattr(self, alt.first)() if alt.first else order[0]
        if first_side not in order:
            raise EngineError(f"step {step.id}: {alt.first} returned {first_side!r}, not one of {order}")
        start = order.index(first_side)
        order = order[start:] + order[:start]
        while not self._over:
            if mark is None:
                if k > 0:
                    self._checkpoint(block, i, j, k, first_side)
                if getattr(self, alt.until)():
                    break
                if k >= alt.max_rounds:
                    raise EngineError(
                        f"step {step.id}: {alt.until} still false after {alt.max_rounds} rounds"
                    )
            self.acting = order[k % len(order)]
            self._at = (block, self.turn, i, j, k, first_side, None)
            self._resume, mark = mark, None
            yield from getattr(self, step.procedure)(self.acting)
            k += 1
        self.acting = None

    def react(self, reaction: str, **context: Any) -> Flow:
        """Open the reaction window ``reaction`` of the current step (declared in the sequence of play): its
        procedure runs for the reacting side if the window's condition holds.  Procedures call it as
        ``yield from self.react("reserve")`` at the moment the rules open the window."""
        spec = self._reaction(reaction)
        if spec.when and not getattr(self, spec.when)(**context):
            return
        if spec.who == "other":
            if self.acting is None:
                raise EngineError(f"reaction {reaction!r} is for 'the other side' but no side is acting")
            others = [s for s in self.sides if s != self.acting]
            side = others[0]
        else:
            side = spec.who
        yield from getattr(self, spec.procedure)(side, **context)

    def _reaction(self, reaction: str) -> ReactionSpec:
        step = self.step
        for spec in step.reactions if step else ():
            if spec.id == reaction:
                return spec
        declared = [r.id for r in step.reactions] if step else []
        raise EngineError(
            f"step {step.id if step else '-'} declares no reaction window {reaction!r} (declared: {declared})"
        )
