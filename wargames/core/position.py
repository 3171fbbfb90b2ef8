"""Lesson positions (issue #13): a teacher sets up "here is the situation" through load options, and the
position is part of the game's record, so it saves, reopens and replays identically.

    wargames.load("tet", seed=7, position={"units": {"vc_i_1": "11"}, "score": {"VC": 40}}, dice=[6, 1])
    wargames.load("fitl", "full", position={"at": {"turn": 3, "phase": "card"}, "tracks": {"aid": 20}})

``position`` is a mapping of edits whose keys each game defines (:meth:`Game.position_keys`, e.g. units to
place, tracks to set); ``at`` (optional) names the turn and phase at whose start the edits are made (default:
when set-up ends, before the first turn).  ``dice`` fixes the next die rolls from that moment.  Every edit is
checked before any is made, and each becomes a ruling of rule ``LESSON`` (not a rule of the game: the log
says the position was arranged).  A bad edit raises :class:`PositionError` naming the key and the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .walker import Flow

CORE_OPTIONS = ("position", "dice", "secret")  # secret: the key of the hidden draws (core.dice)
RULE = "LESSON"


class PositionError(WargamesError):
    """A lesson position that cannot be set up; the message names the edit and why."""


@dataclass(frozen=True)
class Edit:
    """One checked edit: what it does in words, the change for the ruling, and the function that makes it."""

    key: str
    title: str
    explanation: str
    change: dict[str, Any]
    apply: Any  # Callable[[], None]
    places: tuple[str, ...] = ()


@dataclass(frozen=True)
class Position:
    """The checked position option: where it applies and its raw edits (checked again against the state
    when it is made, e.g. pieces that must be Available)."""

    turn: int | None
    phase: str | None
    edits: dict[str, Any]
    dice: tuple[int, ...]


def parse_position(
    options: Mapping[str, Any], keys: Mapping[str, str], phases: set[str], title: str
) -> Position | None:
    """Check the shape of the ``position`` and ``dice`` options (ids are checked by the game)."""
    raw = options.get("position")
    dice = options.get("dice")
    if raw is None and dice is None:
        return None
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise PositionError(f"position must be a mapping of edits, not {type(raw).__name__}")
    edits = {k: v for k, v in raw.items() if k != "at"}
    unknown = sorted(set(edits) - set(keys))
    if unknown:
        known = "; ".join(f"{k}: {v}" for k, v in keys.items()) or "none"
        raise PositionError(f"position: {title} has no edit {unknown[0]!r}; its edits are {known}")
    turn, phase = _parse_at(raw.get("at") or {}, phases, title)
    return Position(turn, phase, edits, _parse_dice([] if dice is None else dice))


def _parse_at(at: Any, phases: set[str], title: str) -> tuple[int | None, str | None]:
    """The ``position.at`` option: the turn (a whole number from 1) and the phase (one of ``phases``), both or
    neither (neither: when set-up ends)."""
    if not isinstance(at, Mapping) or set(at) - {"turn", "phase"}:
        raise PositionError("position.at must be a mapping with 'turn' and 'phase'")
    turn, phase = at.get("turn"), at.get("phase")
    if (turn is None) != (phase is None):
        raise PositionError("position.at needs both 'turn' and 'phase' (or neither: the start of turn 1)")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 1):
        raise PositionError(f"position.at.turn must be a turn number from 1, not {turn!r}")
    if phase is not None and phase not in phases:
        raise PositionError(
            f"position.at.phase {phase!r} is not a phase of {title}; phases: {sorted(phases)}"
        )
    return turn, phase


def _parse_dice(dice: Any) -> tuple[int, ...]:
    """The ``dice`` option: a list of die faces, whole numbers from 1."""
    if not isinstance(dice, list | tuple) or any(
        not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in dice
    ):
        raise PositionError(f"dice must be a list of die faces (whole numbers from 1), not {dice!r}")
    return tuple(dice)


def mapping(value: Any, key: str) -> dict[str, Any]:
    """An edit's value that must be a mapping (id -> new value)."""
    if not isinstance(value, Mapping):
        raise PositionError(f"position.{key} must be a mapping, not {type(value).__name__}")
    return dict(value)


def whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number within [low, high], or a PositionError naming ``where``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{where}: {value!r} is not a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise PositionError(f"{where}: {value} is out of range {low}-{high}")
    return value


def entries(
    edits: Mapping[str, Any], key: str, ids: Mapping[str, Any] | set[str], what: str
) -> list[tuple[str, Any]]:
    """The ``key`` edit of a lesson position as (id, new value) pairs, every id a key of ``ids`` (else a
    PositionError naming the id and the ``what`` it should be); an absent edit gives no pairs."""
    return [(known(k, ids, f"position.{key}", what), v) for k, v in mapping(edits.get(key, {}), key).items()]


def check_unit_places(
    edits: Mapping[str, Any],
    units: Mapping[str, Any] | set[str],
    places: Mapping[str, Any] | set[str],
    boxes: Iterable[str],
    unit: str,
    place: str,
) -> None:
    """The ``units`` edit of a lesson position (unit id -> where it stands): every unit known, every place a
    known place of the map or one of the game's ``boxes`` (eliminated, ...); else a PositionError naming it."""
    boxes = set(boxes)
    for uid, where in entries(edits, "units", units, unit):
        if where not in boxes:
            known(where, places, f"position.units.{uid}", place)


def known(value: str, table: Mapping[str, Any] | set[str], where: str, what: str) -> str:
    """``value`` must be a key of ``table``."""
    if value not in table:
        close = sorted(k for k in table if str(value).lower()[:3] in str(k).lower())[:5]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise PositionError(f"{where}: unknown {what} {value!r}{hint}")
    return value


def placement_edits(
    moves: Mapping[str, str],
    now: Mapping[str, str],
    unit_name: Callable[[str], str],
    place_name: Callable[[str], str],
    on_map: Callable[[str], bool],
    place: Callable[[str, str], None],
) -> list[Edit]:
    """The edits of a lesson position's ``units`` entry (unit -> where it is put): each named in the game's words
    (``unit_name``, ``place_name``), its change ``{"unit": u, "from": now[u], "to": where}``, the places on the
    map it touches (``on_map``), made by the game's ``place``."""
    return [
        Edit(
            "units",
            f"{unit_name(uid)} placed",
            f"{unit_name(uid)} is put in {place_name(where)} (it was in {place_name(now[uid])}).",
            {"unit": uid, "from": now[uid], "to": where},
            lambda u=uid, w=where: place(u, w),
            tuple(a for a in (now[uid], where) if on_map(a)),
        )
        for uid, where in moves.items()
    ]


def value_edits(
    key: str,
    values: Mapping[str, Any],
    table: MutableMapping[str, Any],
    title: Callable[[str, Any], str],
    text: Callable[[str, Any, Any], str],
    field: str = "track",
) -> list[Edit]:
    """The edits of a lesson position's ``key`` entry that each set one value of ``table`` (a track, a score):
    ``title(k, new)`` and ``text(k, new, old)`` in the game's words, the change ``{field: k, "from": old, "to":
    new}``; made when applied, in the order given."""
    return [
        Edit(
            key,
            title(k, v),
            text(k, v, table[k]),
            {field: k, "from": table[k], "to": v},
            lambda k=k, v=v: table.__setitem__(k, v),
        )
        for k, v in values.items()
    ]


class LessonPositions:
    """The part of :class:`~wargames.core.engine.Game` that checks and makes a lesson's position (the games
    override ``position_keys``, ``check_position`` and ``position_edits``)."""

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
        """Make the lesson position's edits (all checked first), each explained by a LESSON ruling that carries
        its own changes: what each edit changed in the state is kept apart when it is made and given back to the
        journal just before that edit's ruling, so the first ruling of a several-unit edit does not take the
        others' changes too (all edits are made before any ruling, as the position is checked whole)."""
        lesson = self.lesson
        assert lesson is not None
        edits = self.position_edits(lesson.edits)
        made: list[list[Any]] = []
        for edit in edits:
            edit.apply()
            made.append(list(self._journal))  # this edit's raw journal entries
            self._journal.clear()
        broken = self.invariants()
        if broken:
            raise PositionError("the lesson position breaks the rules of play: " + "; ".join(broken[:5]))
        for edit, entries in zip(edits, made, strict=True):
            self._journal.extend(entries)
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
