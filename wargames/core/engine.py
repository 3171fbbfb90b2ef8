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

The class is assembled from parts, one module each: the walker of the sequence of play (:mod:`.walker`),
checkpoints and replay (:mod:`.checkpoints`), the changes charged to rulings (:mod:`.changes`), lesson positions
(:mod:`.position`) and what a side sees (:mod:`.reports`).  This module keeps construction, the hooks a game
implements, stepping, the public interface (apply, advance, seats) and the digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, Decision, IllegalAction, WargamesError
from .changes import ChargedChanges
from .checkpoints import ENGINE_ATTRS, Checkpoint, Checkpoints
from .data import RuleRow, game_dir, rules_index
from .dice import Dice
from .errors import EngineError, StepFailed
from .gametype import GameType
from .journal import Journal
from .players import reason_of
from .position import CORE_OPTIONS, LessonPositions, Position, parse_position
from .record import BUILT_IN, PERSON, RANDOM, Entry, write_atomic
from .reports import Reports, View
from .rulings import Lookup, Roll, Ruling
from .sequence import PhaseSpec, SequenceOfPlay, StepSpec, check_names, load_sequence
from .snapshot import settle_static_data
from .state import StateDecl
from .transitions import Explained
from .walker import Flow, SequenceWalker, Where

if TYPE_CHECKING:  # pragma: no cover
    from .players import Player

__all__ = [
    "ENGINE_ATTRS",
    "UNTIL",
    "Checkpoint",
    "EngineError",
    "Flow",
    "Game",
    "StepFailed",
    "View",
    "Where",
]

UNTIL = ("ruling", "decision", "phase", "turn", "end")

_RULES_INDEXES: dict[tuple[str, str], dict[str, RuleRow]] = {}  # game id, rule prefix -> rules index


class Game(SequenceWalker, Checkpoints, ChargedChanges, LessonPositions, Reports):
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
    #: the game's state, declared once (:mod:`wargames.core.state`): ``state_dict``, the digest, the checkpoints
    #: and the transition check derive from it; a subclass that sets it gets static_attrs, cache_attrs,
    #: derived_attrs and the fields' explained declarations from it
    declared_state: ClassVar[StateDecl | None] = None
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
        decl = cls.__dict__.get("declared_state")
        if decl is not None:
            cls.static_attrs, cls.cache_attrs, cls.derived_attrs = decl.static, decl.cache, decl.derived
            cls.explained = tuple(cls.__dict__.get("explained", ())) + decl.explained()

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
        self._journal.reset()  # setting up is not a change
        self._unexplained = []
        self._flow: Flow = self._walk()

    # ------------------------------------------------------------------ subclass hooks
    def load_scenario(self, scenario: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def game_options(self) -> dict[str, Any]:
        """The options the game's rules read (the lesson options ``position`` and ``dice`` are the core's)."""
        return {k: v for k, v in self.options.items() if k not in CORE_OPTIONS}

    def new_state(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """The whole mutable state as canonical JSON-able data (the digest is computed from it): each field of the
        game's :attr:`declared_state` written by its ``dump``.  A game with no declaration must override it."""
        if self.declared_state is None:  # pragma: no cover - a game must declare its state or override this
            raise NotImplementedError(f"{type(self).__name__} declares no state (declared_state)")
        return self.declared_state.dump(self)

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

    def invariants(self) -> list[str]:
        """Broken invariants (empty when the state is legal); checked by the random-play tests."""
        return []

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
        return Ruling.of(
            rule_id,
            title,
            explanation,
            result=result,
            inputs=inputs,
            dice=dice,
            lookup=lookup,
            changes=changes,
            rule_ref=self.rule_ref(rule_id),
            side=side,
            hidden_from=hidden_from,
            public=public,
            public_title=public_title,
            places=places,
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


_NO = object()
