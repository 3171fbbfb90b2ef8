"""One palette per game (issue #14 item 2): a faction has ONE colour in every picture of its game, the map,
its legend, the side panel and the charts.

Colours are presentation, so they are never in a game package's code or in ``game.map_layers(side)``: a game
declares its palette with its other notebook facts in ``data/<game>/notebook.yaml``
(:mod:`wargames.core.presentation`, issue #29 item 4).  The four published games have palettes chosen to look like
their counters; any other game (a new one, the toy fifth game of the tests) gets a generated palette over its
declared factions (``GameType.factions``), so it draws without an edit of the kit.
"""

from __future__ import annotations

from typing import Any

HIDDEN = "#6b6b6b"  # a face-down enemy counter: grey with "?"
FOCUS = "#ff7f0e"  # the latest ruling's places
PICK = "#c2185b"  # the place a click picked

# for games without a palette of their own, in the order of their declared factions (colour-blind safe)
GENERATED = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")


def game_id(game: Any) -> str:
    if isinstance(game, str):
        return game
    return getattr(game, "game_id", "") or getattr(getattr(game, "game_type", None), "id", "")


def palette(game: Any) -> dict[str, str]:
    """Faction (and side) -> colour for ``game`` (a game object, its class or its id)."""
    gid = game_id(game)
    declared = _declared(gid) if gid else {}
    if declared:
        return declared
    gt = getattr(game, "game_type", None)
    names: list[str] = []
    for name in (*(getattr(gt, "factions", ()) or ()), *(getattr(gt, "sides", ()) or ())):
        if name not in names:
            names.append(name)
    return {n: GENERATED[i % len(GENERATED)] for i, n in enumerate(names)}


def _declared(gid: str) -> dict[str, str]:
    """The palette ``gid`` declares (``data/<game>/notebook.yaml``), empty when it declares none or is not known."""
    from ..core.actions import WargamesError
    from ..core.presentation import presentation

    try:
        return dict(presentation(gid).palette)
    except WargamesError:  # a game not registered (the toy games of the tests draw with a generated palette)
        return {}


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
