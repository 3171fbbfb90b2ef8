"""Static map layers drawn once as a picture (issue #31 item 5).

A browser redraws every glyph of a Bokeh figure whenever anything on it changes.  On a hex map that is thousands
of hexes, hexside lines and Region boundaries for each counter that moves: Year of the Rat's four views issued
some 100,000 canvas calls per update.  What never changes during a game (the terrain of every hex, the hexside
features, the victory Regions' outlines) is therefore painted here once, with Pillow (already installed with
Bokeh), into a PNG that each figure shows as one image; only what changes (counters, names, highlights) stays
as glyphs.  The picture is drawn at ``SCALE`` times the view's pixels and smoothed down, so its edges look like
the vector drawing they replace.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

SCALE = 3  # drawn at 3x and smoothed down to 2x the view's pixels (sharp on a classroom projector)
OUT = 2


class Canvas:
    """A picture of the data window ``xr`` x ``yr`` at ``w`` x ``h`` view pixels, drawn in data coordinates."""

    def __init__(self, xr: Sequence[float], yr: Sequence[float], w: int, h: int, background: str):
        self.xr, self.yr, self.w, self.h = tuple(xr), tuple(yr), w, h
        self.sx = w * SCALE / (xr[1] - xr[0])
        self.sy = h * SCALE / (yr[1] - yr[0])
        self.image = Image.new("RGB", (w * SCALE, h * SCALE), background)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.xr[0]) * self.sx, (self.yr[1] - y) * self.sy

    def visible(self, xs: Sequence[float], ys: Sequence[float], margin: float = 2.0) -> bool:
        return not (
            max(xs) < self.xr[0] - margin
            or min(xs) > self.xr[1] + margin
            or max(ys) < self.yr[0] - margin
            or min(ys) > self.yr[1] + margin
        )

    def polygon(self, xs: Sequence[float], ys: Sequence[float], fill: str, outline: str | None, width: float):
        pts = [self.px(x, y) for x, y in zip(xs, ys, strict=True)]
        self.draw.polygon(pts, fill=fill)
        if outline is not None:
            self.draw.line([*pts, pts[0]], fill=outline, width=max(1, round(width * SCALE)))

    def rings(self, rings: Sequence[tuple[Sequence[float], Sequence[float]]], fill: str) -> None:
        """A polygon with holes: the first ring filled, the others (``rings[1:]``) left as they were."""
        if len(rings) == 1:
            self.polygon(*rings[0], fill, None, 0)
            return
        mask = Image.new("L", self.image.size, 0)
        draw = ImageDraw.Draw(mask)
        for k, (xs, ys) in enumerate(rings):
            draw.polygon([self.px(x, y) for x, y in zip(xs, ys, strict=True)], fill=0 if k else 255)
        self.image.paste(fill, mask=mask)

    def line(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        colour: str,
        width: float,
        dash: str = "solid",
        alpha: float = 1.0,
    ) -> None:
        """A polyline ``width`` view pixels wide; "dashed" and "dotted" as Bokeh draws them (6-4 and 2-4 px)."""
        pts = [self.px(x, y) for x, y in zip(xs, ys, strict=True)]
        fill = _blend(colour, alpha)
        wpx = max(1, round(width * SCALE))
        if dash == "solid":
            self.draw.line(pts, fill=fill, width=wpx, joint="curve")
            return
        on, off = ((6, 4) if dash == "dashed" else (2, 4)) if dash in ("dashed", "dotted") else (6, 4)
        on, off = on * SCALE, off * SCALE
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            seg = math.hypot(x1 - x0, y1 - y0)
            t = 0.0
            while t < seg:
                t1 = min(t + on, seg)
                a, b = t / seg, t1 / seg
                self.draw.line(
                    [(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                    fill=fill,
                    width=wpx,
                )
                t += on + off

    def text(self, x: float, y: float, text: str, size: float, colour: str) -> None:
        """``text`` centred on data point (x, y), ``size`` view pixels high (Pillow's own font: no font file
        needed on the server)."""
        font = _font(round(size * SCALE))
        self.draw.text(self.px(x, y), text, fill=colour, font=font, anchor="mm")

    def png_url(self) -> str:
        """The picture as a ``data:`` URL (PNG), smoothed down to ``OUT`` times the view's pixels."""
        img = self.image.resize((self.w * OUT, self.h * OUT), Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        img.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(buf, format="PNG", compress_level=6)
        return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


_FONTS: dict[int, Any] = {}


def _font(px: int):
    if px not in _FONTS:
        _FONTS[px] = ImageFont.load_default(size=px)
    return _FONTS[px]


def _blend(colour: str, alpha: float) -> str:
    """``colour`` at ``alpha`` over a light background (the lines are drawn over pale terrain)."""
    if alpha >= 1:
        return colour
    c = colour.lstrip("#")
    r, g, b = (int(c[i : i + 2], 16) for i in (0, 2, 4))
    bg = 235
    mix = [round(v * alpha + bg * (1 - alpha)) for v in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def image_glyph(fig: Any, url: str, xr: Sequence[float], yr: Sequence[float]):
    """Show picture ``url`` over the data window ``xr`` x ``yr`` of ``fig`` (under every other glyph)."""
    return fig.image_url(
        url=[url],
        x=xr[0],
        y=yr[1],
        w=xr[1] - xr[0],
        h=yr[1] - yr[0],
        anchor="top_left",
        level="image",
    )
