"""A hex game's map as its rules read it: the grid, one row per hex, adjacency and hexside features.

Year of the Rat and Rumor of War load their maps into subclasses of :class:`HexMapData` (``yotr.data.YotrData``,
``row.hexmap.RowMap``), so both offer the same shape and the same basic queries; each adds its own tables.
Pure data (no Bokeh): the notebook kit draws from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .hexgrid import HexGrid


@dataclass(frozen=True)
class HexMapData:
    """``grid`` the hex geometry; ``hexes`` hex number -> the game's row for it (terrain, country...); ``adj`` each
    map hex's adjacent map hexes; ``sides`` canonical hexside (``hexgrid.hexside``) -> its features (river, road)."""

    grid: HexGrid
    hexes: dict[str, Any]
    adj: dict[str, tuple[str, ...]]
    sides: dict[tuple[str, str], frozenset[str]]

    def __contains__(self, hid: str) -> bool:
        return hid in self.hexes

    def within(self, hid: str, radius: int) -> list[str]:
        """The map hexes at most ``radius`` hexes from ``hid``."""
        return [h for h in self.grid.within(hid, radius) if h in self.hexes]

    @cached_property
    def pair_features(self) -> dict[tuple[str, str], frozenset[str]]:
        """``sides`` keyed by both orders of the two hexes, so a look-up needs no canonical key; built once."""
        return {**self.sides, **{(b, a): f for (a, b), f in self.sides.items()}}

    def side_has(self, a: str, b: str, feature: str) -> bool:
        """Whether the hexside between ``a`` and ``b`` has ``feature`` (False for hexes that are not adjacent)."""
        return feature in self.pair_features.get((a, b), ())
