"""One palette per game (issue #14 item 2): a faction has ONE colour in every picture of its game, the map,
its legend, the side panel and the charts.

Colours are presentation, so they live here in the notebook kit and never in a game package or in
``game.map_layers(side)``.  The four published games have palettes chosen to look like their counters; any
other game (a new one, the toy fifth game of the tests) gets a generated palette over its declared
factions (``GameType.factions``), so it draws without an edit of the kit.
"""

from __future__ import annotations

from typing import Any

HIDDEN = "#6b6b6b"  # a face-down enemy counter: grey with "?"
FOCUS = "#ff7f0e"  # the latest ruling's places
PICK = "#c2185b"  # the place a click picked

PALETTES: dict[str, dict[str, str]] = {
    # Tet Offensive 1968: NVA red, VC black, US green, ARVN (SVN) blue, Ruff Puff militia light blue
    "tet": {
        "NVA": "#c0392b",
        "VC": "#111111",
        "USA": "#1e6b2e",
        "SVN": "#1f4fbf",
        "RP": "#7f9fe0",
        "Communist": "#c0392b",
        "Allied": "#1f4fbf",
    },
    # Year of the Rat: by nationality of the counters
    "yotr": {
        "NVA": "#c0392b",
        "NLF": "#111111",
        "USA": "#1e6b2e",
        "ARVN": "#1f4fbf",
        "ROK": "#7b3fa0",
        "Communist": "#c0392b",
        "Allied": "#1f4fbf",
    },
    # Fire in the Lake: the colours of the wooden pieces (US olive, ARVN yellow, NVA red, VC blue)
    "fitl": {"US": "#5b6f1e", "ARVN": "#e3b800", "NVA": "#c0392b", "VC": "#2e6fd0", "Police": "#f07f1a"},
    # Rumor of War: the two sides
    "row": {"Communist": "#c0392b", "Capitalist": "#1f4fbf"},
}
# for games without a palette of their own, in the order of their declared factions (colour-blind safe)
GENERATED = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")


def game_id(game: Any) -> str:
    if isinstance(game, str):
        return game
    return getattr(game, "game_id", "") or getattr(getattr(game, "game_type", None), "id", "")


def palette(game: Any) -> dict[str, str]:
    """Faction (and side) -> colour for ``game`` (a game object, its class or its id)."""
    gid = game_id(game)
    if gid in PALETTES:
        return dict(PALETTES[gid])
    gt = getattr(game, "game_type", None)
    names: list[str] = []
    for name in (*(getattr(gt, "factions", ()) or ()), *(getattr(gt, "sides", ()) or ())):
        if name not in names:
            names.append(name)
    return {n: GENERATED[i % len(GENERATED)] for i, n in enumerate(names)}


def colour(game: Any, faction: str | None, *, default: str = "#444444") -> str:
    """The colour of ``faction`` in ``game`` (``HIDDEN`` for None: a counter the viewer may not identify)."""
    if faction is None:
        return HIDDEN
    return palette(game).get(faction, default)


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a ``#rrggbb`` colour)."""
    h = fill.lstrip("#")
    if len(h) != 6:
        return "#111111"
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "white"


def darker(fill: str, k: float = 0.6) -> str:
    """``fill`` darkened (``k`` of each channel): pale colours as legible text or outlines."""
    h = fill.lstrip("#")
    r, g, b = (int(int(h[i : i + 2], 16) * k) for i in (0, 2, 4))
    return f"#{r:02x}{g:02x}{b:02x}"
