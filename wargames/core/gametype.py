"""What a game is, declared once as a value (issue #14 item 1; like OpenSpiel's game type).

Bots, random-play tests, the notebook kit and the comparison notebook read these facts instead of asking
"which game is this?": how many sides and factions, how many players may sit down, what kind of map is
drawn, whether anything is hidden, how its rule ids begin.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

MapKind = Literal["area", "hex", "board", "none"]


@dataclass(frozen=True)
class GameType:
    """The declared facts of one game."""

    id: str
    title: str
    sides: tuple[str, ...]
    factions: tuple[str, ...] = ()  # the factions making up the sides (default: the sides themselves)
    players: tuple[int, ...] = ()  # how many people may play (default: one per side)
    map_kind: MapKind = "none"
    hidden_information: bool = False
    rule_prefix: str = ""  # e.g. "TET": rule ids are TET-...
    default_scenario: str = "historical"
    publisher: str = ""
    model: str = ""  # one line: what this game says the war was about

    def __post_init__(self) -> None:
        if not self.id or not self.sides:
            raise ValueError("a game type needs an id and at least one side")
        if not self.factions:
            object.__setattr__(self, "factions", tuple(self.sides))
        if not self.players:
            object.__setattr__(self, "players", (len(self.sides),))


@dataclass(frozen=True)
class Threshold:
    """One victory track as a comparison reads it: the score column of :meth:`Game.outcome` (``score_<track>``),
    what reaching the value means (with its rule), and the value that counts."""

    score: str
    meaning: str
    value: int


@dataclass(frozen=True)
class VictoryFacts:
    """What decides a game, declared by the game itself (issue #29 item 4), so shared code (the comparison
    notebook, ``wargames.notebook.compare``) never asks which game it is.

    ``thresholds``: the tracks its victory rule reads and the value that counts on each; ``number``: the one
    number that decides one game's result, read from that game's outcome row (the ``score_*``/``margin_*``
    columns of :meth:`Game.outcome`), named ``number_name`` and decided by rule ``number_rule``; ``edges``: where
    that number changes the result (for the dashed lines of a histogram)."""

    thresholds: tuple[Threshold, ...]
    number_name: str
    number_rule: str
    number: Callable[[Mapping[str, Any]], float]
    edges: tuple[float, ...] = ()
