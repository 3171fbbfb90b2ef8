"""Map models shared by the games: :class:`HexGrid` (SPI hex maps) and :class:`AreaMap` (area maps).

Both are pure data + geometry (no Bokeh); ``wargames.notebook.draw`` draws them from the same data the
rules use.
"""

from .areamap import Area, AreaMap
from .hexgrid import HexGrid, hex_id, parse_hex

__all__ = ["Area", "AreaMap", "HexGrid", "hex_id", "parse_hex"]
