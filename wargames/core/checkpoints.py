"""Back, jump and branch (issue #13): checkpoints of the whole game and replay of the record from them.

At the start of every phase and step no procedure is suspended, so the walker copies the game's state there
(:class:`Checkpoint`: every attribute that is not static data, an engine field or a cache, plus the dice).  Undo
and rewind restore the last checkpoint on the way to the target and replay only the decisions after it; the
record stays the authority.  A long step may also be checkpointed inside, at safe points of a restartable loop
(:meth:`Checkpoints.checkpoint`, :meth:`Checkpoints.resumed`): the loop's position is data, so the step's
procedure can be started again from there.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action
from .dice import Dice
from .errors import EngineError
from .journal import JOURNAL_MEMO
from .record import check_entry
from .rulings import Ruling
from .sequence import PhaseSpec, StepSpec
from .snapshot import fast_copy, keep, restore
from .walker import Where

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game
    from .state import StateDecl

# Attributes the engine itself keeps (never part of a game's state snapshot).
ENGINE_ATTRS = frozenset(
    {
        "scenario_id",
        "seed",
        "options",
        "sequence",
        "players",
        "dice",
        "log",
        "record",
        "turn",
        "phase",
        "step",
        "_pending",
        "_over",
        "_result",
        "_flow",
        "_checkpoints",
        "lesson",
        "acting",
        "_at",
        "_resume",
        "_journal",
        "_unexplained",
        "_checkpoint_states",
    }
)


@dataclass
class Checkpoint:
    """The whole game at the start of a phase or step, where no procedure is suspended, or at a safe point
    inside a step (a mark of :meth:`Game.checkpoint`, from which the step's procedure can be started again).

    ``where`` is (block, turn, phase index, step index; -1 for the phase itself, ...); ``n_log`` and
    ``n_record`` the lengths of the log and the record when it was taken; ``state`` the game attributes packed in
    one bytes blob (:func:`.snapshot.keep`: the collector never walks it; the game's static data is referred to,
    never copied; a copy of the attributes if something in them cannot be pickled), or None in a game that keeps
    no copies (:meth:`Checkpoints.without_copies`).
    Inside an alternating step ``where`` also holds the round and the side that started (else 0 and None), and
    inside a step the mark and its data (else None)."""

    where: Where
    n_log: int
    n_record: int
    turn: int
    phase: PhaseSpec | None
    step: StepSpec | None
    over: bool
    result: Ruling | None
    dice: tuple
    state: bytes | dict[str, Any] | None = field(repr=False)


class Checkpoints:
    """The part of :class:`~wargames.core.engine.Game` that takes and restores checkpoints and replays the record
    (undo, rewind, replay, branch)."""

    declared_state: StateDecl | None
    static_attrs: frozenset[str]
    cache_attrs: frozenset[str]
    derived_attrs: frozenset[str]

    # ------------------------------------------------------------------ checkpoints (instant Back)
    def without_copies(self) -> None:
        """From now on this game's checkpoints keep no copy of the state (issue #33 item 4): for a game played to
        its end by the built-in players and then only read (a replay of the analysis board), where the copies
        were a fifth of the time.  Nothing else changes: the same rulings, dice and record; Back and replay still
        work, from the last checkpoint with a copy (taken before this call) or from the start."""
        self._checkpoint_states = False

    def state_attrs(self) -> list[str]:
        """The attributes a checkpoint copies: the fields of the game's declared state and the derived ones
        (:mod:`wargames.core.state`; an attribute declared nowhere is refused with :class:`EngineError` naming
        it).  A game with no declaration (a toy game of the tests): every attribute but engine fields, static
        data and caches.  A function set on the game itself (a test replacing one of its methods) is not state; it
        is copied with the checkpoints, as it always was, so Back keeps it."""
        skip = ENGINE_ATTRS | self.static_attrs | self.cache_attrs
        decl = self.declared_state
        if decl is None:
            return [k for k in vars(self) if k not in skip]
        copied = set(decl.names) | self.derived_attrs | decl.scratch
        extra = [k for k, v in vars(self).items() if k not in skip and k not in copied]
        if not extra:
            return [k for k in vars(self) if k in copied]
        stray = [k for k in extra if not callable(self.__dict__[k])]
        if stray and "declared_state" in type(self).__dict__:
            raise EngineError(
                f"{type(self).__name__}: attribute(s) {sorted(stray)} are not declared: a field of the state must "
                "be declared in the game's declared_state (a StateField, or derived, scratch, cache or static), or "
                "it would be outside the digest, the checkpoints and the transition check (issue #29 item 2)"
            )
        # a replaced method, or a subclass that adds attributes without declaring its own state (a test's
        # stand-in game): copied with the state, as before declarations; the games themselves declare theirs
        return [k for k in vars(self) if k not in skip]

    def snapshot_shared(self) -> Iterable[Any]:
        """Objects reachable from the state that never change (rules data rows): a checkpoint shares them."""
        return ()

    def _shared_memo(self) -> dict[int, Any]:
        """A copy memo that shares, never copies, the game itself, its static data and its shared rows."""
        memo: dict[Any, Any] = {id(self): self, id(self._journal): self._journal, JOURNAL_MEMO: self._journal}
        for name in self.static_attrs:
            value = self.__dict__.get(name)
            memo[id(value)] = value
        for obj in self.snapshot_shared():
            memo[id(obj)] = obj
        return memo

    def _checkpoint(
        self,
        block: str,
        phase_i: int,
        step_i: int,
        round_k: int = 0,
        first_side: str | None = None,
        mark: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        if self._journal:  # a step ended (or a safe point came) with changes no ruling took
            self._set_aside()
        # a game that will never go Back (a replay of the analysis board, issue #33 item 4) marks the place but
        # keeps no copy of the state: the checkpoint's bookkeeping is the same, restoring skips it
        state = (
            keep({k: self.__dict__[k] for k in self.state_attrs()}, list(self._shared_memo().values()))
            if getattr(self, "_checkpoint_states", True)
            else None
        )
        self._checkpoints.append(
            Checkpoint(
                (block, self.turn, phase_i, step_i, round_k, first_side, mark),
                len(self.log),
                len(self.record),
                self.turn,
                self.phase,
                self.step,
                self._over,
                self._result,
                self.dice.snapshot(),
                state,
            )
        )

    def checkpoint(self, mark: str, **data: Any) -> None:
        """A safe point inside a long step, for instant Back (issue #13): called by a procedure at the top of a
        restartable loop (between battles, units, activations), where everything the rest of the step needs
        is in the game state or in ``data`` (plain values: the loop's position, e.g. the areas already
        fought).  A checkpoint is taken there if :attr:`checkpoint_every` decisions were made since the last
        one.  To resume from it, the engine starts the step's procedure again with the mark pending: the
        procedure (and every procedure it calls on the way to the loop) must first ask :meth:`resumed` and,
        given the data, skip what it had done before the loop.  Never changes the game."""
        if self._resume is not None:
            raise EngineError(
                f"checkpoint {mark!r}: the mark {self._resume[0]!r} of the resumed step was not "
                "taken up by resumed()"
            )
        block, _turn, i, j, k, first_side, _ = self._at
        if j < 0 or self.step is None:
            raise EngineError(f"checkpoint {mark!r} outside a step: only a step's procedure may checkpoint")
        last = self._checkpoints[-1] if self._checkpoints else None
        if last is not None and len(self.record) - last.n_record < self.checkpoint_every:
            return
        self._checkpoint(block, i, j, k, first_side, (mark, fast_copy(data, {})))

    def resumed(self, mark: str) -> dict[str, Any] | None:
        """The data of :meth:`checkpoint` ``mark`` when the step is being started again from it (taken up: the
        next call returns None), else None.  A restartable procedure asks first, before it does anything."""
        if self._resume is None or self._resume[0] != mark:
            return None
        data = self._resume[1]
        self._resume = None
        return fast_copy(data, {})

    def _restore(self, i: int) -> None:
        """Put the game back to checkpoint ``i`` and resume the walker there (the checkpoint is taken again)."""
        cp = self._checkpoints[i]
        del self._checkpoints[i:]
        state = restore(cp.state, list(self._shared_memo().values()))
        skip = ENGINE_ATTRS | self.static_attrs | self.cache_attrs
        for name in [k for k in vars(self) if k not in skip and k not in state]:
            delattr(
                self, name
            )  # made after the checkpoint (e.g. a lazily created field, or an undeclared one)
        self.__dict__.update(state)
        self._journal.reset()
        for name in self.cache_attrs:
            cache = self.__dict__.get(name)
            if hasattr(cache, "clear"):
                cache.clear()
        self.dice = Dice(self.seed, self.options.get("secret"))
        self.dice.restore(cp.dice)
        self.turn, self.phase, self.step = cp.turn, cp.phase, cp.step
        self._over, self._result, self._pending = cp.over, cp.result, None
        self._resume = None
        del self.log[cp.n_log :]
        del self.record[cp.n_record :]
        if self._flow is not None:
            self._flow.close()
        self._flow = self._walk(cp.where)

    def _best_checkpoint(
        self, record: list[dict[str, Any]], at: list[Any] | tuple[int, bool] | None
    ) -> int | None:
        """The latest checkpoint on the way to ``at`` whose decisions are a prefix of ``record``."""
        n = int(at[0]) if at is not None else len(self.log) + 1_000_000
        same = 0  # how many leading entries of ``record`` are this game's own record entries
        for a, b in zip(record, self.record, strict=False):
            if a is not b and a != b:
                break
            same += 1
        for i in range(len(self._checkpoints) - 1, -1, -1):
            cp = self._checkpoints[i]
            if cp.state is not None and cp.n_record <= min(same, len(record)) and cp.n_log <= n:
                return i
        return None

    # ------------------------------------------------------------------ undo, replay, branch
    def _run_until(self, at: list[Any] | tuple[int, bool]) -> None:
        n, pending = int(at[0]), bool(at[1])
        while self.position != (n, pending):
            if len(self.log) > n or self._flow is None or self._pending is not None:
                raise EngineError(
                    f"the record does not replay: expected to reach ruling {n} "
                    f"{'at a decision' if pending else 'between rulings'}, reached {self.position}"
                )
            self._step()

    def _replay(self, record: list[dict[str, Any]], at: list[Any] | tuple[int, bool] | None) -> None:
        """Bring the game to resting point ``at`` of ``record`` (None: where it next rests after the last entry):
        from the last valid checkpoint if there is one (instant Back), else from the start; either way through the
        rules, decision by decision."""
        best = self._best_checkpoint(record, at) if self._checkpoints else None
        if best is None:
            record = list(record)
            self._reset()
            start = 0
        else:
            record = list(record)
            self._restore(best)
            start = len(self.record)
        for i, entry in enumerate(record[start:], start):
            self._run_until(entry["at"])
            if "act" in entry:
                act = Action.from_json(entry["act"])
                if self._pending is None:
                    raise EngineError(f"record entry {i}: no decision is pending")
                chosen = self._pending.find(act)
                if chosen is None:
                    raise self._pending.reject(act)
                self.record.append({**entry, "act": chosen.to_json(), "at": list(self.position)})
                self._step(chosen)
            elif "force" in entry:
                self.dice.force(entry["force"])
                self.record.append({"force": list(entry["force"]), "at": list(self.position)})
            else:
                raise EngineError(f"record entry {i} is neither a decision nor forced dice: {entry!r}")
        if at is None:
            self._run_to_rest()
        else:
            self._run_until(at)

    def replay(self, record: Iterable[Mapping[str, Any]], at: Iterable[Any] | None = None) -> None:
        """Bring this game to resting point ``at`` (rulings logged, decision pending) of ``record`` (entries of
        :class:`.record.Entry`), decision by decision through the rules, from the last checkpoint on the way.
        ``at`` None: to where the game next rests after the last entry.  A record that does not replay raises
        :class:`EngineError` (or the rule's :class:`IllegalAction`) and the game is put back as it was."""
        entries = [dict(e) for e in record]
        for i, e in enumerate(entries):
            check_entry(e, f"record entry {i}")
        target = None if at is None else tuple(at)
        if target is not None and (len(target) != 2 or not isinstance(target[0], int)):
            raise EngineError(f"at must be (rulings logged, decision pending), not {at!r}")
        old_record, old_at = copy.deepcopy(self.record), self.position
        try:
            self._replay(entries, target)
        except Exception:
            self._replay(old_record, old_at)
            raise

    def undo(self, steps: int = 1) -> None:
        """Back ``steps`` decisions (one replay): the state is identical (same digest) to when that decision
        was pending."""
        acts = [i for i, e in enumerate(self.record) if "act" in e]
        if len(acts) < steps or steps < 1:
            raise EngineError(f"cannot undo {steps} decision(s): {len(acts)} made so far")
        i = acts[-steps]
        self._replay(self.record[:i], self.record[i]["at"])

    def rewind(self, turn: int) -> None:
        """Back to the first decision made on ``turn`` or later, in one replay (a teacher's "jump back")."""
        for i, e in enumerate(self.record):
            n = e["at"][0]
            if "act" in e and (self.log[n - 1].turn if n else 0) >= turn:
                self._replay(self.record[:i], e["at"])
                return
        raise EngineError(f"no decision has been made on turn {turn} or later")

    def force_dice(self, values: Iterable[int]) -> None:
        """What-if: the next die rolls will be these values (recorded, so replay reproduces them)."""
        values = list(values)
        self.dice.force(values)
        self.record.append({"force": values, "at": list(self.position)})

    def branch(self) -> Game:
        """An independent copy of this game at this point, to explore a what-if."""
        other = type(self).unstarted(self.scenario_id, self.seed, self.options)
        # Each branch gets its own copies of the built-in players: a bot's random generator and plans
        # must not be shared, or playing the branch would change what the original does next.
        other.players = {side: copy.deepcopy(p) for side, p in self.players.items()}
        # Checkpoints are never changed once taken (restoring copies them), so the branch may share them
        # and start from the last one instead of replaying the whole game.
        other._checkpoints = list(self._checkpoints)
        other.log = list(self.log)
        # The record is plain JSON-like data (dicts, lists, numbers, strings): fast_copy copies it like deepcopy,
        # in a fraction of the time (the analysis board branches once a replay, issue #33).
        other.record = fast_copy(self.record, {})
        other._replay(fast_copy(self.record, {}), self.position)
        return other
