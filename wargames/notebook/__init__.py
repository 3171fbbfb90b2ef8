"""The notebook kit: a Bokeh map and ipywidgets to step through a game and explain every ruling.

This is the only part of the package that imports Bokeh and ipywidgets (``import wargames`` stays free
of them).  Start every notebook with ``setup_notebook()`` (BokehJS loaded INLINE, offline).

    from wargames.notebook import setup_notebook, Walkthrough
    setup_notebook()
    Walkthrough(wargames.load("tet", seed=7)).widget
"""

from .fitlboard import FitlBoardView
from .hexmap import draw_hexgrid, hexgrid_data
from .kit import progress_bar, rules_used, ruling_cards, setup_notebook, table
from .layermap import LayerMapView
from .mapview import MapView
from .play import PlayGame
from .widgets import ActionChooser, RulingPanel, Stepper, Walkthrough, map_for
from .yotrmap import YotrMapView

__all__ = [
    "ActionChooser",
    "FitlBoardView",
    "LayerMapView",
    "MapView",
    "PlayGame",
    "RulingPanel",
    "Stepper",
    "Walkthrough",
    "draw_hexgrid",
    "hexgrid_data",
    "map_for",
    "progress_bar",
    "rules_used",
    "ruling_cards",
    "setup_notebook",
    "table",
    "YotrMapView",
]
