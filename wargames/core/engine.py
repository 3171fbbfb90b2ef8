"""The one interface every game implements (see ``DESIGN.md``).

A game subclasses :class:`Game`, declares its sequence of play in ``data/<game>/sequence.yaml`` and writes
one generator method per step.  Procedures ``yield`` two kinds of value:

* a :class:`~wargames.core.rulings.Ruling` (made with :meth:`Game.ruling`): the engine logs it; it is a
  resting point where the stepper can stop and show it;
* a :class:`~wargames.core.actions.Decision`: the engine waits; the chosen :class:`Action` is sent back
  into the generator as the value of the ``yield``.

The authoritative record of a game is scenario + seed + options + the list of decisions (and forced dice).
Save/load and branch replay that record into a fresh game; a state digest proves two states equal.
A resting point is identified by (number of rulings logged, whether a decision is pending).

Checkpoints make Back, jump and refusal instant (issue #13).  At the start of every phase and step no
procedure is suspended, so the walker copies the game's state there (:class:`Checkpoint`: every attribute
that is not static data, an engine field or a cache, plus the dice).  Undo and rewind restore the last
checkpoint on the way to the target and replay only the decisions after it; the record stays the authority.
A long step may also be checkpointed inside, at safe points of a restartable loop (:meth:`Game.checkpoint`,
:meth:`Game.resumed`): the loop's position is data, so the step's procedure can be started again from there.

Every ruling lists what it changed (issue #13, :mod:`wargames.core.journal`).  The games keep their main state in
journalled containers that write each mutation to the game's journal; when the walker logs a ruling, the net
changes journalled since the previous ruling are added to its ``changes`` (after the hand-written ones, without
repeating what they state; in a game with hidden information only the umpire's view shows them, as they may name
hidden units).  Changes still in the journal when the game comes to rest at a decision or at the
end were made with no ruling: they are kept aside (:meth:`Game.unexplained_changes`) for the random-play check.
So are changes still in the journal at a checkpoint (a phase or step boundary, a safe point inside a step): a
ruling of the next step must not be charged with them.  The journal is an engine field, never part of the state.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, Decision, IllegalAction, WargamesError
from .data import RuleRow, game_dir, rules_index
from .dice import Dice
from .gametype import GameType
from .journal import JOURNAL_MEMO, Journal, Tracked, journalled
from .players import reason_of
from .position import CORE_OPTIONS, RULE, Edit, Position, PositionError, parse_position
from .record import BUILT_IN, PERSON, RANDOM, Entry, check_entry, write_atomic
from .rulings import Lookup, Roll, Ruling, rulings_html
from .sequence import PhaseSpec, ReactionSpec, SequenceOfPlay, StepSpec, check_names, load_sequence
from .snapshot import fast_copy, keep, restore, settle_static_data
from .transitions import Explained, transition_problems

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .players import Player

Flow = Generator[Ruling | Decision, Any, None]
UNTIL = ("ruling", "decision", "phase", "turn", "end")


class EngineError(WargamesError):
    """Misuse of the engine (e.g. apply with no decision pending, undo at the start)."""


class StepFailed(EngineError):
    """The rules code failed inside an automatic step (a procedure, a built-in player's choice, an event): the game
    was put back where it last rested, exactly as it was (issue #30 item 1).  The original error is the cause."""


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
    }
)

#: where a checkpoint resumes the walker: (block, turn, phase index, step index, round, side that started the
#: round, mark).  ``mark`` is None at a phase, step or round start, else (name, data) of :meth:`Game.checkpoint`.
Where = tuple[str, int, int, int, int, "str | None", "tuple[str, dict[str, Any]] | None"]


@dataclass
class Checkpoint:
    """The whole game at the start of a phase or step, where no procedure is suspended, or at a safe point
    inside a step (a mark of :meth:`Game.checkpoint`, from which the step's procedure can be started again).

    ``where`` is (block, turn, phase index, step index; -1 for the phase itself, ...); ``n_log`` and
    ``n_record`` the lengths of the log and the record when it was taken; ``state`` the game attributes packed in
    one bytes blob (:func:`.snapshot.keep`: the collector never walks it; the game's static data is referred to,
    never copied; a copy of the attributes if something in them cannot be pickled).
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
    state: bytes | dict[str, Any] = field(repr=False)


@dataclass
class View:
    """What one side may see: the game's public state with hidden facts masked, and its log."""

    side: str | None
    state: dict[str, Any]
    log: list[Ruling]


_RULES_INDEXES: dict[tuple[str, str], dict[str, RuleRow]] = {}  # game id, rule prefix -> rules index


class Game:
    """Base class of every game.  Subclasses set the class attributes and implement the hooks."""

    #: the game's declared facts; a subclass that sets it gets game_id, title, sides, factions and
    #: default_scenario from it
    game_type: ClassVar[GameType | None] = None
    game_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    sides: ClassVar[tuple[str, ...]] = ()
    #: the scenario ``wargames.load`` starts when none is named
    default_scenario: ClassVar[str] = "historical"
    #: the factions of the sides (a side may be several factions, e.g. Tet's NVA and VC); default: the sides
    factions: ClassVar[tuple[str, ...]] = ()
    #: attributes set from the scenario and rules data that play never changes (never copied by checkpoints)
    static_attrs: ClassVar[frozenset[str]] = frozenset()
    #: caches derived from the state (emptied when a checkpoint is restored, never part of the digest)
    cache_attrs: ClassVar[frozenset[str]] = frozenset()
    #: state fields computed from other state fields (a reverse index, a version counter): copied by
    #: checkpoints, not needed in the digest
    derived_attrs: ClassVar[frozenset[str]] = frozenset()
    #: a checkpoint inside a step (:meth:`checkpoint`) is taken only when at least this many decisions were
    #: made since the last checkpoint: Back replays at most about this many, and normal play copies the state
    #: rarely
    checkpoint_every: ClassVar[int] = 12
    #: the most faces a die of this game has (a lesson's fixed ``dice`` may not exceed it)
    die_faces: ClassVar[int] = 6
    #: how each part of the state is explained when it changes (see :mod:`wargames.core.transitions`); a part
    #: not declared needs some ruling in the same transition
    explained: ClassVar[tuple[Explained, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        gt = cls.__dict__.get("game_type")
        if gt is not None:
            cls.game_id, cls.title, cls.sides = gt.id, gt.title, tuple(gt.sides)
            cls.factions, cls.default_scenario = tuple(gt.factions), gt.default_scenario

    @classmethod
    def facts(cls) -> GameType:
        """The declared facts of this game (built from the class attributes if it declares none)."""
        return cls.game_type or GameType(
            id=cls.game_id or cls.__name__,
            title=cls.title or cls.__name__,
            sides=tuple(cls.sides) or ("?",),
            factions=tuple(cls.factions),
            default_scenario=cls.default_scenario,
        )

    # ------------------------------------------------------------------ construction and replay
    def __init__(
        self,
        scenario: str = "historical",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        players: Mapping[str, Player | None] | None = None,
        _start: bool = True,
    ):
        self._journal = Journal()  # the state's changes since the last ruling (core.journal)
        self._unexplained: list[tuple[int, dict[str, Any]]] = []
        self.scenario_id = scenario
        self.seed = int(seed)
        self.options: dict[str, Any] = dict(options or {})
        secret = self.options.get("secret")
        if secret is not None and (not isinstance(secret, str) or not secret):
            raise EngineError("option secret: the key of the hidden draws must be a non-empty string")
        self.sequence: SequenceOfPlay = self.load_sequence()
        check_names(self.sequence, type(self), self.sequence_source())
        self.players: dict[str, Player | None] = {}
        self.acting: str | None = None  # the side whose turn it is in an alternating step
        self.lesson: Position | None = parse_position(
            self.options, self.position_keys(), {p.id for p in self.sequence.phases}, self.title
        )
        self.load_scenario(scenario)  # subclass: static data, validates options
        settle_static_data(self.game_id)  # the static data out of the collector's way (instant Back)
        if self.lesson is not None:
            self._check_lesson_bounds(self.lesson)
            self.check_position(self.lesson.edits)
        self._reset()
        if players is not None:
            self.set_players(players)
        if _start:
            self._run_to_rest()

    @classmethod
    def unstarted(
        cls,
        scenario: str | None = None,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        players: Mapping[str, Player | None] | None = None,
    ) -> Game:
        """A game loaded but not yet run: its static data and set-up state are built, nothing has happened (no
        ruling, no decision).  Read its data, seat the players, then :meth:`replay` a record or ``advance``."""
        return cls(scenario or cls.default_scenario, seed, options, players=players, _start=False)

    def _check_lesson_bounds(self, lesson: Position) -> None:
        """A lesson's fixed dice must be faces of this game's dice, and its turn one the game has (PositionError)."""
        bad = [v for v in lesson.dice if v > self.die_faces]
        if bad:
            raise PositionError(
                f"dice: {bad[0]} is not a face of any die of {self.title} (its dice have at most "
                f"{self.die_faces} faces)"
            )
        last = self.sequence.turns
        if lesson.turn is not None and last is not None and lesson.turn > last:
            raise PositionError(
                f"position.at.turn: {self.title} has {last} {self.sequence.turn_name.lower()}s; "
                f"there is no {self.sequence.turn_name.lower()} {lesson.turn}"
            )

    def load_sequence(self) -> SequenceOfPlay:
        return load_sequence(self.game_id)

    def sequence_source(self) -> str:
        """Where the sequence of play comes from (named in load errors)."""
        from .data import game_dir

        try:
            path = game_dir(self.game_id) / "sequence.yaml"
        except Exception:  # a game with no data directory (a toy game built in code)
            return f"the sequence of play of {self.game_id or type(self).__name__}"
        return str(path) if path.exists() else f"the sequence of play of {self.game_id}"

    def _reset(self) -> None:
        self.dice = Dice(self.seed, self.options.get("secret"))
        self.log: list[Ruling] = []
        self.record: list[dict[str, Any]] = []
        self.turn = 0
        self.phase: PhaseSpec | None = None
        self.step: StepSpec | None = None
        self._pending: Decision | None = None
        self._over = False
        self._result: Ruling | None = None
        self._checkpoints: list[Checkpoint] = []
        self._at: Where = ("setup", 0, 0, -1, 0, None, None)  # where the walker is (for checkpoint())
        self._resume: tuple[str, dict[str, Any]] | None = None  # the mark a resumed step restarts from
        self.new_state()  # subclass: mutable state from scenario data
        self._journal.clear()  # setting up is not a change
        self._unexplained = []
        self._flow: Flow = self._walk()

    # ------------------------------------------------------------------ subclass hooks
    def load_scenario(self, scenario: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def game_options(self) -> dict[str, Any]:
        """The options the game's rules read (the lesson options ``position`` and ``dice`` are the core's)."""
        return {k: v for k, v in self.options.items() if k not in CORE_OPTIONS}

    # ------------------------------------------------------------------ lesson positions (see core.position)
    def position_keys(self) -> dict[str, str]:
        """The edits a lesson position may make in this game: key -> what it takes."""
        return {}

    def check_position(self, edits: dict[str, Any]) -> None:
        """Check a position's ids and ranges when the game is loaded (raise PositionError naming the entry)."""

    def position_edits(self, edits: dict[str, Any]) -> list[Edit]:
        """The checked edits, against the state at the moment they are made (raise PositionError)."""
        if edits:
            raise PositionError(f"{self.title} has no lesson positions")
        return []

    def _make_position(self) -> Flow:
        """Make the lesson position's edits (all checked first), each explained by a LESSON ruling."""
        lesson = self.lesson
        assert lesson is not None
        edits = self.position_edits(lesson.edits)
        for edit in edits:
            edit.apply()
        broken = self.invariants()
        if broken:
            raise PositionError("the lesson position breaks the rules of play: " + "; ".join(broken[:5]))
        for edit in edits:
            yield self.ruling(
                RULE,
                edit.title,
                edit.explanation + " (A lesson position, not a rule of the game.)",
                result=edit.change,
                changes=[edit.change],
                places=edit.places,
                kind="lesson",
            )
        if lesson.dice:
            self.dice.force(list(lesson.dice))
            yield self.ruling(
                RULE,
                "Dice fixed for the lesson",
                f"The next {len(lesson.dice)} die roll(s) will be {', '.join(map(str, lesson.dice))}, "
                "in that order (a lesson position, not a rule of the game).",
                result={"dice": list(lesson.dice)},
                kind="lesson",
            )

    def new_state(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:  # pragma: no cover - abstract
        """The whole mutable state as canonical JSON-able data (the digest is computed from it)."""
        raise NotImplementedError

    def public_state(self, side: str | None) -> dict[str, Any]:
        """The state as ``side`` may see it.  Games with hidden units override this."""
        return self.state_dict()

    def scores(self) -> dict[str, Any]:
        return {}

    def map_layers(self, side: str | None = None) -> dict[str, Any] | None:
        """The map as ``side`` sees it, as plain semantic layers (``wargames.maps.layers``: ids, geometry in
        map coordinates, facts; no colours, pixels or HTML).  The notebook kit draws it by the declared
        ``map_kind``.  None: the game has no map to draw."""
        return None

    def outcome(self) -> dict[str, Any]:
        """The result in one shape for every game (Monte Carlo rows, comparisons): winner, level (the
        result's title unless the game names a level), the deciding rule, the last turn, and the final
        scores (``score_<track>``) and margins (``margin_<faction>``).  Empty fields while the game runs."""
        res = self._result
        data = res.result if res is not None and isinstance(res.result, dict) else {}
        row: dict[str, Any] = {
            "winner": data.get("winner") or ("none" if res is not None else None),
            "level": data.get("level") or (res.title if res is not None else None),
            "rule": res.rule_id if res is not None else None,
            "turn": self.turn,
        }
        for k, v in self.scores().items():
            row[f"score_{k}"] = v
        for k, v in (data.get("margins") or {}).items():
            row[f"margin_{k}"] = v
        return row

    def final_result(self) -> Flow:
        """Procedure run when the last turn ends without a sudden end; it must call :meth:`end`."""
        yield self.end("END", "Game over", "The last turn has been played.", result={"winner": None})

    def default_player(self, side: str) -> Player:
        from .players import RandomPlayer

        return RandomPlayer(seed=self.seed)

    def transition_problems(self, before: dict[str, Any], rulings: list[Ruling]) -> list[str]:
        """Changes between ``before`` (a ``state_dict()``) and now that no ruling in ``rulings`` accounts for:
        the one generic check of :mod:`wargames.core.transitions`, read with the game's :attr:`explained`
        declarations (games do not override it).  The random-play tests call it after every decision, so units
        move, hidden facts are revealed and tracks move only through rulings.  Fields the journal records need no
        diff (their changes are in the rulings by construction, :mod:`wargames.core.journal`); changes the journal
        holds that no ruling took are problems."""
        n0 = rulings[0].seq - 1 if rulings else len(self.log)
        return transition_problems(
            self.explained,
            before,
            self.state_dict(),
            rulings,
            journalled=self.journalled_fields(),
            unexplained=[e for n, e in self._unexplained if n >= n0] + self._journal.peek(),
        )

    def invariants(self) -> list[str]:
        """Broken invariants (empty when the state is legal); checked by the random-play tests."""
        return []

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

    # ------------------------------------------------------------------ checkpoints (instant Back)
    def state_attrs(self) -> list[str]:
        """The attributes that make up this game's mutable state: all but engine fields, static data, caches."""
        skip = ENGINE_ATTRS | self.static_attrs | self.cache_attrs
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
        state = keep({k: self.__dict__[k] for k in self.state_attrs()}, list(self._shared_memo().values()))
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
        for name in self.state_attrs():
            if name not in state:
                delattr(self, name)  # made after the checkpoint (e.g. a lazily created field)
        self.__dict__.update(state)
        self._journal.clear()
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
            if cp.n_record <= min(same, len(record)) and cp.n_log <= n:
                return i
        return None

    # ------------------------------------------------------------------ helpers for procedures
    def ruling(
        self,
        rule_id: str,
        title: str,
        explanation: str,
        *,
        result: Any = None,
        inputs: Mapping[str, Any] | None = None,
        dice: Iterable[Roll] = (),
        lookup: Lookup | None = None,
        changes: Iterable[Mapping[str, Any]] = (),
        side: str = "",
        hidden_from: Iterable[str] = (),
        public: str = "",
        places: Iterable[str] = (),
        kind: str = "",
        public_title: str = "",
    ) -> Ruling:
        """Build a ruling stamped with the current turn/phase/step (the engine logs it when yielded)."""
        return Ruling(
            rule_id=rule_id,
            title=title,
            explanation=explanation,
            result=result,
            inputs=dict(inputs or {}),
            dice=tuple(dice),
            lookup=lookup,
            changes=tuple(dict(c) for c in changes),
            rule_ref=self.rule_ref(rule_id),
            side=side,
            hidden_from=tuple(hidden_from),
            public=public,
            public_title=public_title,
            places=tuple(places),
            seq=len(self.log) + 1,
            turn=self.turn,
            phase=self.phase.name if self.phase else "",
            step=kind or (self.step.id if self.step else ""),
        )

    @classmethod
    def rules_index(cls) -> dict[str, RuleRow]:
        """The game's ``data/<id>/rules_index.csv`` (one loader for every game: :func:`.data.read_rules_index`);
        empty for a game without one (the toy games of the tests)."""
        facts = cls.facts()
        key = (facts.id, facts.rule_prefix)
        if key not in _RULES_INDEXES:
            present = (game_dir(facts.id) / "rules_index.csv").exists()
            _RULES_INDEXES[key] = rules_index(*key) if present else {}
        return _RULES_INDEXES[key]

    def rule_ref(self, rule_id: str) -> str:
        """Where a rule is in the rules text (``rules 3.2.1, line 412``; :attr:`.data.RuleRow.ref`)."""
        row = self.rules_index().get(rule_id)
        return row.ref if row else ""

    def decide(
        self,
        side: str,
        prompt: str,
        rule_id: str,
        options: list[Action],
        *,
        check: Callable[[Action], IllegalAction | None] | None = None,
        kind: str = "choose",
        **context: Any,
    ) -> Decision:
        return Decision(side, prompt, rule_id, options, kind=kind, check=check, context=context)

    def end(self, rule_id: str, title: str, explanation: str, **kw: Any) -> Ruling:
        """Mark the game over now (sudden death or last turn); the returned ruling is the result."""
        r = self.ruling(rule_id, title, explanation, kind="result", **kw)
        self._over = True
        self._result = r
        return r

    # ------------------------------------------------------------------ stepping
    def _step(self, action: Action | None = None) -> Ruling | Decision | None:
        """Resume the procedures once; log a ruling or hold a decision.  None when the game has ended."""
        if self._flow is None:
            return None
        try:
            item = self._flow.send(action) if action is not None else next(self._flow)
        except StopIteration:
            if self._journal:
                self._set_aside()
            self._flow = None
            self._over = True
            self._pending = None
            return None
        if self._resume is not None:
            raise EngineError(
                f"step {self.step.id if self.step else '-'} was resumed at its mark "
                f"{self._resume[0]!r} but its procedure did not take it up (resumed())"
            )
        if isinstance(item, Ruling):
            self._pending = None
            if self._journal:
                ruled = self._with_journal(item)
                if self._result is item:
                    self._result = ruled
                item = ruled
            self.log.append(item)
            if self._over and self._result is item:  # sudden end (e.g. a decisive victory mid-phase)
                self._flow.close()
                self._flow = None
        elif isinstance(item, Decision):
            if self._journal:
                self._set_aside()
            if not item.options:
                raise EngineError(f"decision with no legal actions: {item!r} (a dead end in the rules code)")
            self._pending = item
        else:  # pragma: no cover - programming error in a procedure
            raise EngineError(f"a procedure yielded {item!r}; only Ruling or Decision may be yielded")
        return item

    def _with_journal(self, r: Ruling) -> Ruling:
        """``r`` with the changes journalled since the last ruling added to its ``changes`` (those its
        hand-written changes do not already state)."""
        entries = self._journal.take()
        extra = tuple(e for e in entries if not _stated(e, r.changes))
        if not extra:
            return r
        return dataclasses.replace(
            r, changes=r.changes + extra, secret_changes=self.facts().hidden_information
        )

    def _set_aside(self) -> None:
        """The game comes to rest with changes no ruling took: keep them for the checks (never silently lost)."""
        self._unexplained.extend((len(self.log), e) for e in self._journal.take())

    def unexplained_changes(self) -> list[tuple[int, dict[str, Any]]]:
        """The journalled changes made with no ruling after them before the game came to rest (at a decision or
        the end): (number of rulings logged then, the change).  Empty in a correct game; checked by random play."""
        return list(self._unexplained)

    def journalled_fields(self) -> set[str]:
        """The state fields whose changes the journal records (journalled containers, dicts of them, and
        :class:`Tracked` attributes; ``board.tracks`` for one inside a plain state object): the rulings list their
        changes by construction."""
        out = set()
        for name, value in vars(self).items():
            if _all_journalled(value):
                out.add(name)
            elif hasattr(value, "__dict__") and not isinstance(value, (dict, list, set, type)):
                out.update(f"{name}.{sub}" for sub, v in vars(value).items() if _all_journalled(v))
        out.update(
            name for cls in type(self).__mro__ for name, v in vars(cls).items() if isinstance(v, Tracked)
        )
        return out

    def _run_to_rest(self) -> None:
        """Run automatic steps until a decision is pending or the game ends."""
        while self._pending is None and self._flow is not None:
            self._step()

    @property
    def position(self) -> tuple[int, bool]:
        return (len(self.log), self._pending is not None)

    # ------------------------------------------------------------------ the public interface
    @property
    def decision(self) -> Decision | None:
        """Who must decide what now (None between rulings of automatic steps, or at the end)."""
        return self._pending

    def legal_actions(self) -> list[Action]:
        return list(self._pending.options) if self._pending else []

    @property
    def is_over(self) -> bool:
        return self._flow is None or (self._over and self._pending is None)

    @property
    def result(self) -> Ruling | None:
        return self._result

    def _coerce(self, action: Action | Mapping[str, Any] | str) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):  # a label, as typed at the command line
            for option in self.legal_actions():
                if option.label == action:
                    return option
            raise IllegalAction(
                self._pending.rule_id if self._pending else "ENGINE",
                f"no legal action is described as {action!r}",
            )
        try:
            return Action.from_json(dict(action))
        except ValueError as err:
            raise IllegalAction("ENGINE", str(err)) from None

    def apply(
        self,
        action: Action | Mapping[str, Any] | str,
        *,
        by: str = "person",
        why: str = "",
        advice: int | None = None,
        note: str = "",
    ) -> list[Ruling]:
        """Make the pending decision; run automatic steps to the next decision.  Returns the new rulings.

        An illegal action raises :class:`IllegalAction` naming the rule, and the game is left exactly as it was.
        The rest goes to the record (:class:`.record.Entry`, ``decisions()``, the save): ``by`` who decided (a
        person by default; the play widget's advisor records ``"advisor"``), ``why`` a built-in player's reason,
        ``advice`` the advisor run the decision belongs to (one press: Back takes the run back together), ``note``
        a comment kept with it.  If the rules code fails while the game runs on to its next rest, the game is
        put back as it was before the decision and :class:`StepFailed` says so (issue #30 item 1).
        """
        if self._pending is None:
            raise EngineError("no decision is pending: use advance() to run the automatic steps")
        if action is None:
            raise IllegalAction(self._pending.rule_id, "no action given: choose one of the legal actions")
        act = self._coerce(action)
        chosen = self._pending.find(act)
        if chosen is None:
            raise self._pending.reject(act)
        if advice is not None and (not isinstance(advice, int) or isinstance(advice, bool)):
            raise EngineError(f"advice must be the number of an advisor run, not {advice!r}")
        n0 = len(self.log)
        self._commit(chosen, by=by or "person", why=why, advice=advice, note=str(note or ""))
        self._guarded(self._run_to_rest)
        return self.log[n0:]

    def annotate(self, note: str, decision: int = -1) -> None:
        """Keep ``note`` with a decision already made (default: the last one), in the record and the save.  A note
        never changes the game (not in the digest): it is a teacher's or a lesson's comment."""
        acts = [i for i, e in enumerate(self.record) if "act" in e]
        try:
            i = acts[decision]
        except (IndexError, TypeError):
            raise EngineError(f"no decision {decision!r} to annotate: {len(acts)} made so far") from None
        if note:
            self.record[i]["note"] = str(note)
        else:
            self.record[i].pop("note", None)

    def _commit(
        self, chosen: Action, by: str = "", why: str = "", advice: int | None = None, note: str = ""
    ) -> None:
        """Record and send one decision (restoring the previous state if the rules code raises).

        The record keeps who decided (``by``) and, for bots, why (``why``): the decision log is first-class,
        and a class can read every bot choice explained."""
        entry: Entry = {"act": chosen.to_json(), "at": list(self.position)}
        if by:
            entry["by"] = by
        if why:
            entry["why"] = why
        if advice is not None:
            entry["advice"] = int(advice)
        if note:
            entry["note"] = note
        entry["side"] = self._pending.side if self._pending is not None else ""
        self.record.append(dict(entry))
        self._guarded(lambda: self._step(chosen))

    def _guarded(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except Exception as err:
            where = self.where()
            self._rollback_last()
            raise self._failed(err, where, "before the last decision") from err

    def _failed(self, err: BaseException, where: str, back_to: str) -> Exception:
        """The error to raise after a rollback: a rules refusal as it is; any other error as :class:`StepFailed`
        naming where the game was and where it is back to."""
        if isinstance(err, WargamesError):
            return err
        return StepFailed(
            f"the rules code failed at {where} ({type(err).__name__}: {err}); the game was put back "
            f"{back_to}, exactly as it was ({self.where()})"
        )

    def _rollback_last(self) -> None:
        """Restore the state before the last recorded decision (used when applying it failed)."""
        record = self.record[:-1]
        at = self.record[-1]["at"]
        self._replay(record, at)

    def advance(self, until: str = "decision", *, max_steps: int = 1_000_000) -> list[Ruling]:
        """Run automatic steps and the built-in players until ``until`` ("ruling", "decision", "phase",
        "turn" or "end").  Always stops at a decision whose side is played by a person (player None)."""
        if until not in UNTIL:
            raise EngineError(f"until must be one of {UNTIL}, not {until!r}")
        n0 = len(self.log)
        start = (self.turn, self.phase.id if self.phase else None)
        at, n_record = self.position, len(self.record)
        try:
            self._advance(until, start, max_steps)
        except Exception as err:
            # the rules code or a built-in player failed: back to where the game rested, whatever happened (a
            # procedure that raised is finished, so the walker must be rebuilt even if nothing was logged)
            where = self.where()
            self._replay(self.record[:n_record], at)
            cause = err.__cause__ if isinstance(err, StepFailed) and err.__cause__ is not None else err
            raise self._failed(cause, where, "to where it rested before advance()") from cause
        return self.log[n0:]

    def _advance(self, until: str, start: tuple[int, str | None], max_steps: int) -> None:
        n0 = len(self.log)
        progressed = False
        for _ in range(max_steps):
            if self._flow is None:
                break
            if until == "ruling" and len(self.log) > n0:
                break
            if (
                until == "phase"
                and progressed
                and (self.turn, self.phase.id if self.phase else None) != start
            ):
                break
            if until == "turn" and progressed and self.turn != start[0]:
                break
            if self._pending is not None:
                if until == "decision" and progressed:
                    break
                player = self.player_for(self._pending.side)
                if player is None:
                    break
                act = self._coerce(player.choose(self, self._pending))
                chosen = self._pending.find(act)
                if chosen is None:
                    raise self._pending.reject(act)
                self._commit(chosen, by=type(player).__name__, why=reason_of(player))
            else:
                self._step()
            progressed = True

    def advance_to(self, turn: int, phase: str | None = None, *, max_steps: int = 1_000_000) -> list[Ruling]:
        """Play on (built-in players for every side not played by a person) until ``phase`` of ``turn``
        begins (its phase ruling is logged), or until ``turn`` begins when no phase is named.  Stops early at
        a person's decision or at the end; raises EngineError if that point has already passed."""
        ids = {p.id for p in self.sequence.phases}
        if phase is not None and phase not in ids:
            raise EngineError(f"{phase!r} is not a phase of {self.title}; phases: {sorted(ids)}")
        order = [p.id for p in self.sequence.phases]

        def here() -> tuple[int, int]:
            current = self.phase.id if self.phase is not None and self.phase.id in ids else None
            return (self.turn, order.index(current) if current else -1)

        target = (turn, order.index(phase) if phase else -1)
        if here() > target:
            raise EngineError(
                f"{self.where()} is already past turn {turn}" + (f", phase {phase}" if phase else "")
            )
        n0 = len(self.log)
        while not self.is_over and here() < target:
            if self._pending is not None and self.player_for(self._pending.side) is None:
                break
            self.advance("ruling", max_steps=max_steps)
        return self.log[n0:]

    def seats(self) -> dict[str, str]:
        """Who sits at each side (issue #30 item 2), as a save keeps it: ``"person"`` (the game waits for
        ``apply``), ``"built-in"`` (the game's own player, also when none was set), ``"random"`` (the seeded random
        player), or another player's class name."""
        from .players import RandomPlayer

        out: dict[str, str] = {}
        for side in self.sides:
            player = self.players.get(side, _NO)
            if player is _NO:
                out[side] = BUILT_IN
            elif player is None:
                out[side] = PERSON
            elif type(player) is RandomPlayer:
                out[side] = RANDOM
            elif type(player) is type(self.default_player(side)):
                out[side] = BUILT_IN
            else:
                out[side] = type(player).__name__
        return out

    def seat(self, seats: Mapping[str, str]) -> None:
        """Seat the players a save names (:meth:`seats`): a person, the built-in player, the seeded random player;
        a seat held by another kind of player is reopened as a person's (the record keeps who made each decision
        before).  An unknown side raises :class:`EngineError`."""
        from .players import RandomPlayer

        players: dict[str, Player | None] = {}
        for side, who in seats.items():
            if who == BUILT_IN:
                players[side] = self.default_player(side)
            elif who == RANDOM:
                players[side] = RandomPlayer(self.seed)
            else:
                players[side] = None
        self.set_players(players)

    def player_for(self, side: str) -> Player | None:
        """The player of ``side``: the one set, or the game's built-in bot (created once, then kept)."""
        if side not in self.players:
            self.players[side] = self.default_player(side)
        return self.players[side]

    def set_players(self, players: Mapping[str, Player | None]) -> None:
        """Who plays each side: a Player, or None for a person deciding through apply()."""
        unknown = set(players) - set(self.sides)
        if unknown:
            raise EngineError(f"unknown side(s) {sorted(unknown)}; this game's sides are {list(self.sides)}")
        self.players.update(players)

    def play(self, players: Mapping[str, Player | None] | None = None) -> Ruling | None:
        """Play to the end (built-in players for every side not given)."""
        if players:
            self.set_players(players)
        self.advance("end")
        return self.result

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

    # ------------------------------------------------------------------ digest and saves
    def digest(self) -> str:
        """SHA-256 of the canonical JSON of everything that defines the state."""
        blob = {
            "game": self.game_id,
            "scenario": self.scenario_id,
            "seed": self.seed,
            "options": self.options,
            "turn": self.turn,
            "phase": self.phase.id if self.phase else None,
            "step": self.step.id if self.step else None,
            "position": list(self.position),
            "pending": None
            if self._pending is None
            else [self._pending.side, self._pending.rule_id, [a.to_json() for a in self._pending.options]],
            "dice": self.dice.state(),
            "over": self._over,
            "state": self.state_dict(),
        }
        text = json.dumps(blob, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def save(self, path: str | Path | None = None, *, side: str | None = None) -> dict[str, Any]:
        """The game as plain JSON (never pickle): scenario, seed, options, decisions and the digest.  ``side``: a
        side's save, without the secret of the hidden draws (kept by the umpire, issue #30 item 6: ``.saves``)."""
        from .saves import make_save

        data = make_save(self, side)
        if path is not None:
            write_atomic(path, json.dumps(data, indent=1))
        return data

    # ------------------------------------------------------------------ views and reports
    def view(self, side: str | None = None) -> View:
        """What ``side`` may see (None: the umpire's view of everything)."""
        if side is not None and side not in self.sides and side not in self.factions:
            raise EngineError(
                f"unknown side {side!r}; this game's sides are {list(self.sides)}"
                + (f" and its factions {list(self.factions)}" if self.factions else "")
            )
        team = self.visibility_side(side)
        return View(side, self.public_state(side), [r.for_side(team) for r in self.log])

    def visibility_side(self, side: str | None) -> str | None:
        """The side whose knowledge ``side`` shares (games where several players form one side override it)."""
        return side

    #: Whether a side may read the reasons of another side's built-in player (issue #19).  False (the default)
    #: in a game with hidden information, where a bot's reasons tell what the other side may not see (its
    #: face-down units, its feints); a game where everything is open (Fire in the Lake) sets it True.
    open_reasons: ClassVar[bool] = False

    def reason_shown(self, decided_for: str, why: str, side: str | None) -> str | None:
        """A built-in player's reason for a decision of ``decided_for`` as ``side`` may read it, with names for ids
        (``display_text``); None when it is hidden from ``side`` (another side's reason in a game with hidden
        information).  ``side`` None is the umpire, who reads everything.  The stored reason is unchanged."""
        if (
            side is not None
            and not self.open_reasons
            and self.visibility_side(side) != self.visibility_side(decided_for)
        ):
            return None
        return self.display_text(why, side) if why else why

    def decisions(self, side: str | None = None) -> list[dict[str, Any]]:
        """Every decision so far: side, who decided (a bot's class or "person"), the action and, for bots, why.

        ``side`` given: as that side may read them (issue #19): parameters by ``display_name``, the reason through
        ``reason_shown``; a decision whose reason is hidden from ``side`` shows only its side, who and kind of
        action (no parameters, no reason), so nothing it names can give a hidden counter away."""
        out = []
        for e in self.record:
            if "act" in e:
                act = Action.from_json(e["act"])
                row = {
                    "ruling": e["at"][0],
                    "side": e.get("side", ""),
                    "by": e.get("by", ""),
                    "action": act.kind,
                    "params": dict(act.params),
                    "why": e.get("why", ""),
                }
                if side is not None:
                    why = self.reason_shown(row["side"], row["why"], side)
                    shown = (
                        {}
                        if why is None
                        else {
                            k: self.display_name(v, side) if isinstance(v, str) else v
                            for k, v in row["params"].items()
                        }
                    )
                    row.update(params=shown, why=why or "")
                out.append(row)
        return out

    def log_frame(self, side: str | None = None) -> pd.DataFrame:
        """The log as a table.  ``side`` given: each ruling as that side may read it (``Ruling.for_side``), its
        title and explanation with names for ids (``display_text``)."""
        import pandas as pd

        if side is not None and side not in self.sides and side not in self.factions:
            raise EngineError(f"unknown side {side!r}; this game's sides are {list(self.sides)}")
        # a faction reads as its side (Tet's NVA as the Communist side): issue #30 item 4
        team = self.visibility_side(side)
        log = self.log if side is None else [r.for_side(team) for r in self.log]
        text = (lambda t: t) if side is None else (lambda t: self.display_text(str(t), side))
        rows = [
            {
                "seq": r.seq,
                "turn": r.turn,
                "phase": r.phase,
                "step": r.step,
                "rule": r.rule_id,
                "title": text(r.title),
                "dice": " ".join(str(d.value) + ("*" if d.forced else "") for d in r.dice),
                "table": f"{r.lookup.table} {r.lookup.row}/{r.lookup.column}={r.lookup.cell}"
                if r.lookup
                else "",
                "result": r.result,
                "explanation": text(r.explanation),
            }
            for r in log
        ]
        return pd.DataFrame(
            rows,
            columns=[
                "seq",
                "turn",
                "phase",
                "step",
                "rule",
                "title",
                "dice",
                "table",
                "result",
                "explanation",
            ],
        )

    def display_name(self, key: str, side: str | None = None) -> str:
        """The name a student reads for an id (an area, hex, space or unit), e.g. Tet's ``"21"`` ->
        ``"Quang Tin (21)"``, as ``side`` may see it (None: the umpire, who sees everything; a game with hidden
        counters names one the viewer may not see neutrally).  The engine and the records keep ids; only what is
        shown uses names.  Default: the id itself; games override it."""
        return key

    def display_text(self, text: str, side: str | None = None) -> str:
        """A prompt, a ruling's text or a bot's reason as ``side`` reads it: ids the game can name replaced by names
        (``display_name``).  Default: unchanged (games whose texts carry raw ids override it)."""
        return text

    def display_label(self, action: Action, side: str | None = None) -> str:
        """``action``'s label as ``side`` reads it: ``display_text`` of the label, then the ids of its places and
        parameters replaced by ``display_name`` (each id once, as a whole word; an id whose name the label already
        holds is left alone)."""
        import re

        label = self.display_text(action.label or action.kind, side)
        keys = {str(p) for p in action.places} | {v for _, v in action.params if isinstance(v, str)}
        names = {}
        for k in keys:
            try:
                n = self.display_name(k, side)
            except (KeyError, LookupError, AttributeError, ValueError):
                continue
            if n and n != k and n not in label:
                names[k] = n
        if not names:
            return label
        pattern = re.compile(
            r"(?<![\w])("
            + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
            + r")(?![\w])"
        )
        return pattern.sub(lambda m: names[m.group(1)], label)

    def where(self) -> str:
        phase = f"phase {self.phase.number} ({self.phase.name})" if self.phase else "-"
        step = f", step {self.step.name}" if self.step else ""
        return f"{self.sequence.turn_name} {self.turn}, {phase}{step}"

    def __repr__(self) -> str:
        status = "over" if self.is_over else (repr(self._pending) if self._pending else "between rulings")
        return f"<{type(self).__name__} {self.scenario_id} seed={self.seed}: {self.where()}; {status}>"

    def _repr_html_(self) -> str:
        import html

        scores = "".join(
            f"<td><b>{html.escape(str(k))}</b> {html.escape(str(v))}</td>" for k, v in self.scores().items()
        )
        dec = (
            (
                f"<b>{html.escape(self._pending.side)}</b> to decide: {html.escape(self._pending.prompt)} "
                f"({len(self._pending.options)} legal actions, {self._pending.rule_id})"
            )
            if self._pending
            else ("<b>Game over.</b> " + html.escape(self._result.explanation) if self._result else "")
        )
        return (
            f"<div style='font-family:sans-serif'><h4 style='margin:2px 0'>{html.escape(self.title)} "
            f"&mdash; {html.escape(self.scenario_id)}, seed {self.seed}</h4>"
            f"<div>{html.escape(self.where())}</div><table><tr>{scores}</tr></table><div>{dec}</div>"
            f"<div>{rulings_html(self.log[-3:])}</div></div>"
        )


def _all_journalled(value: Any) -> bool:
    """A journalled container, or a plain dict of them (e.g. the pieces of every space)."""
    return journalled(value) or (
        type(value) is dict and bool(value) and all(journalled(v) for v in value.values())
    )


def _stated(entry: dict[str, Any], changes: tuple[dict[str, Any], ...]) -> bool:
    """Whether a hand-written change already states the journalled ``entry``: it names the same key and says
    where it went (``to``), or the same flag or attribute."""
    it = iter(entry)
    next(it)  # "field"
    key_name = next(it)
    key = entry[key_name]
    flag = entry["field"]
    for c in changes:
        if c.get(key_name, _NO) != key:
            continue
        if "attr" in entry:
            if entry["attr"] in c:
                return True
        elif ("to" in entry and "to" in c) or flag in c:
            return True
    return False


_NO = object()
