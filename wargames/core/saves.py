"""Saves: plain JSON (format, version, game, scenario, seed, options, decisions, position, digest).

Opening a save never runs code from the file: it is parsed as JSON, checked against a schema, and the
decisions are replayed through the rules.  A corrupt or hand-edited save raises :class:`SaveError` with
the reason, and nothing is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game

FORMAT = "wargames-save"
VERSION = 1


class SaveError(WargamesError):
    """A save file that cannot be opened; the message says which file and what is wrong."""


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: tuple[int, bool]
    act: dict[str, Any] | None = None
    force: list[int] | None = None
    side: str | None = None
    by: str | None = None
    why: str | None = None
    advice: int | None = (
        None  # one press's run of decisions (the Advisor, a lesson plan): Back takes it as one
    )


class _Save(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["wargames-save"]
    version: Literal[1]
    game: str
    scenario: str
    seed: int
    options: dict[str, Any]
    record: list[_Entry]
    at: tuple[int, bool]
    digest: str
    turn: int = 0
    note: str = ""


def make_save(game: Game) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.game_id,
        "scenario": game.scenario_id,
        "seed": game.seed,
        "options": dict(game.options),
        "record": [dict(e) for e in game.record],
        "at": list(game.position),
        "digest": game.digest(),
        "turn": game.turn,
        "note": f"{game.title}: {game.where()}",
    }


def open_save(source: str | Path | dict[str, Any]) -> Game:
    """Open a save (a path or the dict from ``game.save()``), replaying its decisions."""
    from .registry import game_class

    name = "<dict>" if isinstance(source, dict) else str(source)
    if isinstance(source, dict):
        raw = source
    else:
        try:
            raw = json.loads(Path(source).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SaveError(f"{name}: no such file") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise SaveError(f"{name}: not a wargames save (not valid JSON: {err})") from None
    try:
        save = _Save.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise SaveError(f"{name}: field '{loc}': {first['msg']}") from None
    for i, e in enumerate(save.record):
        if (e.act is None) == (e.force is None):
            raise SaveError(f"{name}: record entry {i} must have exactly one of 'act' or 'force'")
    try:
        cls = game_class(save.game)
        game = cls(save.scenario, save.seed, save.options, _start=False)
        entries = [{k: v for k, v in e.model_dump().items() if v is not None} for e in save.record]
        game._replay(entries, save.at)
    except WargamesError as err:
        raise SaveError(f"{name}: the decisions do not replay under the rules: {err}") from None
    if game.digest() != save.digest:
        raise SaveError(
            f"{name}: state digest mismatch: the file was edited or comes from other rules data "
            f"(expected {save.digest[:12]}..., replay gives {game.digest()[:12]}...)"
        )
    return game
