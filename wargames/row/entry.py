"""Where a unit coming back to the map may enter (ROW-13.1.1, ROW-13.2; decision R-GAME-08).

13.1.1 puts reinforcements on friendly supply sources: US and ARVN units on the Capitalist sources in South Vietnam,
PAVN units on PAVN sources, Laotian and Cambodian units on their own.  A unit bought back with a replacement point
(13.2) enters the same way, at the source its owner chooses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .control import allowed_hexes
from .pieces import CAPITALIST, Piece

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

#: the supply-source kinds (``places.csv`` column supply) each nationality enters at
SOURCES_OF = {
    "US": ("capitalist",),
    "ARVN": ("capitalist",),
    "ROK": ("capitalist",),
    "Aus": ("capitalist",),
    "Thai": ("capitalist",),
    "Laos": ("laotian",),
    "Cmb": ("cambodian",),
    "PAVN": ("pavn", "prc"),
    "PRC": ("prc",),
    "PL": ("pathet_lao",),
    "KhR": ("khmer_rouge",),
}
US_LIKE = ("US", "ROK", "Thai", "Aus")


def source_spots(game: RowGame, uid: str) -> list[str]:
    """ROW-13.1.1 / ROW-13.2: the friendly supply sources ``uid`` may enter at now: its nationality's sources (US
    and ARVN units in South Vietnam only), inside the scenario's window and the unit's operational limits (14.6),
    with no enemy piece there."""
    r = game.rows[uid]
    side = r.side
    srcs = {h for kind in SOURCES_OF.get(r.nationality, ()) for h in game.map.supply_sources(kind)}
    if side == CAPITALIST and r.nationality in ("US", "ARVN"):
        srcs = {h for h in srcs if game.map.country(h) == "SVN"}
    if not srcs:
        return []
    probe = Piece(
        uid,
        side,
        r.nationality,
        sorted(srcs)[0],
        unit_type=r.unit_type,
        areas=frozenset(game.scenario.us_areas) if r.nationality in US_LIKE else frozenset(),
    )
    ok = allowed_hexes(probe, game.situation().invaded, game.map)
    enemy = {h for u, h in game.pos.items() if game.side_of(u) != side}
    return sorted(h for h in srcs if h in game.window_land and h in ok and h not in enemy)
