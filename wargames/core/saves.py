"""Saves: plain JSON (format, version, game, scenario, seed, options, seats, decisions, position, digest, check).

Opening a save never runs code from the file: it is parsed as JSON, checked against a schema, and the
decisions are replayed through the rules.  A corrupt or hand-edited save raises :class:`SaveError` with
the reason, and nothing is loaded.

Version 2 (issue #30 items 2 and 12) adds ``seats`` (who sits at each side: a Fire in the Lake save made while a
person's faction has not yet decided replays with that faction still a person's, FITL-8.1) and ``check``, the
SHA-256 of the whole save without it: an edit anywhere (a bot's reason, who decided, a note), not only one that
changes the state, is refused.  Version 1 files (no seats, no check) still open.  Files are written atomically
(:func:`.record.write_atomic`).

A side's save (``game.save(side=...)``, issue #30 item 6) is the save a student keeps of the side they play.  In a
game whose hidden draws come from a secret (``options["secret"]``, :mod:`.dice`: the deck, face-down counters,
face-down markers), that secret would tell whoever reads the file the whole future deck and every hidden draw, so a
side's save never carries it: its options hold ``sealed`` instead, the side and a key (SHA-256 of the secret, which
cannot be turned back into it), and the secret stays with the umpire, in the umpire's key folder
(:func:`umpire_dir`: ``$WARGAMES_UMPIRE_DIR`` or the user's data folder, never a notebook folder), where the app
that made the save put it.  Opening a side's save there replays the same game to the same digest; anywhere else it
is refused with a message saying so (a new secret would deal another deck, so the recorded decisions would not be
the same game).  The reasons of the other sides' built-in players that the side may not read
(``Game.reason_shown``) are left out of a side's save too.  A game without a secret (a lesson notebook's, whose
seed deals everything in the open) has nothing to withhold: its side's save is the umpire's save.  Decisions
A-SAVE (Tet), F-SAVE (Fire in the Lake) and R-GAME-SAVE (Rumor of War) in each game's ``decisions.csv``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .actions import WargamesError
from .record import ENTRY_KEYS, write_atomic

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game

FORMAT = "wargames-save"
VERSION = 2


class SaveError(WargamesError):
    """A save file that cannot be opened; the message says which file and what is wrong."""


class _Entry(BaseModel):
    """The save schema of one record entry (:class:`.record.Entry`; a test checks both declare the same keys)."""

    model_config = ConfigDict(extra="forbid", strict=False)
    at: tuple[int, bool]
    act: dict[str, Any] | None = None
    force: list[int] | None = None
    side: str | None = None
    by: str | None = None
    why: str | None = None
    advice: int | None = None
    note: str | None = None


assert set(_Entry.model_fields) == ENTRY_KEYS, "saves._Entry and record.Entry must declare the same keys"


class _Save(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["wargames-save"]
    version: Literal[1, 2]
    game: str
    scenario: str
    seed: int
    options: dict[str, Any]
    seats: dict[str, str] | None = None
    record: list[_Entry]
    at: tuple[int, bool]
    digest: str
    turn: int = 0
    note: str = ""
    check: str | None = None


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)


def seal(data: dict[str, Any]) -> str:
    """The ``check`` of a save: SHA-256 of its canonical JSON without the check itself."""
    return hashlib.sha256(_canonical({k: v for k, v in data.items() if k != "check"}).encode()).hexdigest()


def umpire_dir() -> Path:
    """Where the umpire keeps the secrets of the hidden draws withheld from side's saves: ``$WARGAMES_UMPIRE_DIR``,
    or ``wargames/umpire`` in the user's data folder (``$XDG_DATA_HOME``, by default ``~/.local/share``)."""
    env = os.environ.get("WARGAMES_UMPIRE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "wargames" / "umpire"


def secret_key(secret: str) -> str:
    """The key a side's save names its withheld secret by: SHA-256 of it (it cannot be turned back into it)."""
    return hashlib.sha256(f"wargames-hidden-draws:{secret}".encode()).hexdigest()


def _keep_secret(secret: str) -> dict[str, str]:
    """File the secret with the umpire (once; atomically, readable by its owner only) and return its key."""
    key = secret_key(secret)
    path = umpire_dir() / f"{key}.secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, secret)
        path.chmod(0o600)
    return {"key": key}


def _umpire_secret(key: str, name: str, side: str) -> str:
    path = umpire_dir() / f"{key}.secret"
    try:
        secret = path.read_text(encoding="utf-8")
    except OSError:
        raise SaveError(
            f"{name}: this is the {side} side's save of a game with hidden draws; the key to them stays with the "
            f"umpire and is not in {umpire_dir()} (open the save where it was made, or open the umpire's save)"
        ) from None
    if secret_key(secret) != key:
        raise SaveError(f"{name}: the umpire's key file {path} does not hold the key this save names")
    return secret


def make_save(game: Game, side: str | None = None) -> dict[str, Any]:
    """The save of ``game``: the umpire's (``side`` None: everything, the secret of the hidden draws included) or
    a side's (the secret withheld, filed with the umpire; the reasons hidden from that side left out)."""
    options = dict(game.options)
    record = [dict(e) for e in game.record]
    if side is not None:
        if side not in game.sides and side not in game.factions:
            raise SaveError(f"save for side {side!r}: this game's sides are {list(game.sides)}")
        if options.get("secret"):
            options["sealed"] = {"side": side, **_keep_secret(options.pop("secret"))}
        for e in record:
            if e.get("why") and game.reason_shown(e.get("side", ""), e["why"], side) is None:
                del e["why"]
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.game_id,
        "scenario": game.scenario_id,
        "seed": game.seed,
        "options": options,
        "seats": game.seats(),
        "record": record,
        "at": list(game.position),
        "digest": game.digest(),
        "turn": game.turn,
        "note": f"{game.title}: {game.where()}",
    }
    # through JSON once, so the check is computed on exactly what a file holds (tuples as lists)
    data = json.loads(json.dumps(data, default=str))
    data["check"] = seal(data)
    return data


def _read(source: str | Path | dict[str, Any]) -> tuple[str, Any]:
    """The save's name (for messages) and its parsed JSON: a dict as it is, JSON text, or a file's contents."""
    if isinstance(source, dict):
        return "<dict>", source
    if isinstance(source, str) and source.lstrip().startswith("{"):
        name, text = "<JSON text>", source
    elif isinstance(source, (str, Path)):
        path = Path(source)
        name = str(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise SaveError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise SaveError(f"{name}: is a folder, not a save file") from None
        except OSError as err:
            raise SaveError(f"{name}: cannot be read ({err.strerror or err})") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise SaveError(
                f"{name}: not a wargames save (not valid JSON: not UTF-8 text, byte {err.start} is {raw[err.start]:#04x})"
            ) from None
    else:
        raise SaveError(
            f"open_save takes a path, JSON text or the dict of game.save(), not {type(source).__name__}"
        )
    try:
        return name, json.loads(text)
    except json.JSONDecodeError as err:
        raise SaveError(f"{name}: not a wargames save (not valid JSON: {err})") from None


def open_save(source: str | Path | dict[str, Any]) -> Game:
    """Open a save (a path, the JSON text of one, or the dict from ``game.save()``), replaying its decisions."""
    from .registry import game_class

    name, raw = _read(source)
    if not isinstance(raw, dict):
        raise SaveError(f"{name}: not a wargames save (a JSON {type(raw).__name__}, not an object)")
    try:
        save = _Save.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "(the whole save)"
        raise SaveError(f"{name}: field '{loc}': {first['msg']}") from None
    if save.version >= 2:
        if save.check is None or save.seats is None:
            raise SaveError(f"{name}: a version {save.version} save must have 'seats' and 'check'")
        if seal(raw) != save.check:
            raise SaveError(
                f"{name}: the file was edited (its check does not match its contents: a decision, who made it, "
                "a reason, a note or a setting was changed after it was saved)"
            )
    for i, e in enumerate(save.record):
        if (e.act is None) == (e.force is None):
            raise SaveError(f"{name}: record entry {i} must have exactly one of 'act' or 'force'")
    options = dict(save.options)
    sealed = options.pop("sealed", None)
    if sealed is not None:
        if not isinstance(sealed, dict) or set(sealed) != {"side", "key"}:
            raise SaveError(
                f"{name}: field 'options.sealed' must name the side and the key of the hidden draws"
            )
        options["secret"] = _umpire_secret(str(sealed["key"]), name, str(sealed["side"]))
    try:
        cls = game_class(save.game)
        game = cls.unstarted(save.scenario, save.seed, options)
        seats = save.seats or {}
        unknown = sorted(set(seats) - set(game.sides))
        if unknown:
            raise SaveError(
                f"{name}: field 'seats': {unknown} not side(s) of {game.title} {list(game.sides)}"
            )
        game.seat(seats)
        entries = [{k: v for k, v in e.model_dump().items() if v is not None} for e in save.record]
        game.replay(entries, save.at)
    except SaveError:
        raise
    except WargamesError as err:
        raise SaveError(f"{name}: the decisions do not replay under the rules: {err}") from None
    except Exception as err:  # the rules code failed on this record: say so, never a bare traceback
        raise SaveError(
            f"{name}: replaying its decisions failed in the rules code ({type(err).__name__}: {err})"
        ) from err
    if game.digest() != save.digest:
        raise SaveError(
            f"{name}: state digest mismatch: the file was edited or comes from other rules data "
            f"(expected {save.digest[:12]}..., replay gives {game.digest()[:12]}...)"
        )
    return game
