"""What a game is, declared once as a value (issue #14 item 1; like OpenSpiel's game type).

Bots, random-play tests, the notebook kit and the comparison notebook read these facts instead of asking
"which game is this?": how many sides and factions, how many players may sit down, what kind of map is
drawn, whether anything is hidden, how its rule ids begin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

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
