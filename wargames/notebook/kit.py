"""Small helpers shared by the notebook widgets: offline BokehJS, and knowing when a notebook cell ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Set by the class server (``wargames.notebook.app``): the URL prefix under which it serves BokehJS's files.
ENV_BOKEHJS = "WARGAMES_BOKEHJS_URL"
#: The BokehJS bundles the maps and charts use: the core and its widgets (the maps' ``Div`` captions).  Bokeh's
#: tables, WebGL and MathJax bundles (2.3 MB of the 3.9 MB) are used by no page of this project.
BOKEHJS_COMPONENTS = ["bokeh", "bokeh-widgets"]


def setup_notebook() -> None:
    """Load BokehJS into the page, from the installed package (never a CDN: works offline).

    Call it in the first cell of every notebook, before any map is displayed: jupyter_bokeh's widget
    needs ``window.Bokeh`` in the page (``research/stack-probe.md``, pitfalls 1 and 2).  In a notebook (not a
    Voila app) every map and widget a cell shows is followed by its picture (``pictures``).  In JupyterLab, nbval
    and plain Voila the bundles are inlined in the cell's output (1.6 MB of JavaScript in every page).  A class
    server (``python -m wargames.notebook.app APP --class N``) serves them as static files, cached by the browser,
    and sets ``$WARGAMES_BOKEHJS_URL`` to their address: the page then only holds the script tags (issue #32).
    """
    from bokeh.io import output_notebook

    from .pictures import install

    output_notebook(bokeh_resources(), hide_banner=True)
    install()  # a picture after each map and widget, shown if a reopened notebook cannot draw it (issue #31)


def bokeh_resources() -> Any:
    """The Bokeh resources of :func:`setup_notebook`: served by the class server when ``$WARGAMES_BOKEHJS_URL``
    names its prefix, else inline; only the bundles in :data:`BOKEHJS_COMPONENTS`."""
    import os

    from bokeh.resources import Resources

    url = os.environ.get(ENV_BOKEHJS, "").strip()
    if url:
        return Resources(mode="server", root_url=url.rstrip("/") + "/", components=list(BOKEHJS_COMPONENTS))
    return Resources(mode="inline", components=list(BOKEHJS_COMPONENTS))


def _ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    return get_ipython()


def in_cell_execution() -> bool:
    """True while a notebook cell runs in a kernel (not while a widget callback handles a click)."""
    ip = _ipython()
    kernel = getattr(ip, "kernel", None)
    if kernel is None:
        return False
    try:
        parent = kernel.get_parent("shell")
    except TypeError:  # older ipykernel: get_parent() takes no channel
        parent = kernel.get_parent()
    return (parent or {}).get("header", {}).get("msg_type") == "execute_request"


def on_cell_finished(callback: Callable[[], Any]) -> None:
    """Run ``callback`` after every notebook cell (IPython's ``post_run_cell`` event); no-op elsewhere."""
    ip = _ipython()
    if ip is None or not hasattr(ip, "events"):
        return

    def hook(*_args: Any) -> None:
        callback()

    ip.events.register("post_run_cell", hook)


def table(frame, *, index: bool = False, caption: str | None = None):
    """A DataFrame shown left-aligned (text reads better that way), optionally without its index."""
    styler = frame.style.set_properties(**{"text-align": "left", "vertical-align": "top"})
    styler = styler.set_table_styles([{"selector": "th", "props": [("text-align", "left")]}])
    if len(frame.columns):
        styler = styler.set_properties(subset=[frame.columns[0]], **{"white-space": "nowrap"})
    if not index:
        styler = styler.hide(axis="index")
    if caption:
        styler = styler.set_caption(caption)
    return styler


def ruling_cards(rulings, *, height: str = "360px", side: str | None = None, game=None):
    """Every ruling of a list as cards in a scrolling box (a whole phase stays readable on one screen).

    ``side``: show the rulings as that side may read them (hidden facts masked).  ``game``: the game the rulings
    come from, whose ``display_text`` names the units and places their texts hold by id (issue #31 item 3)."""
    from IPython.display import HTML

    from ..core.rulings import rulings_html
    from .rulingpanel import _text

    shown = [r.for_side(side) for r in rulings] if side else list(rulings)
    body = rulings_html(shown, _text(game, side)) if game is not None else rulings_html(shown)
    return HTML(
        f'<div style="max-height:{height};overflow-y:auto;border:1px solid #ddd;padding:2px 6px">{body}</div>'
    )


def rules_used(rulings, index=None):
    """How often each rule was applied in ``rulings``, with its title from the game's rules index."""
    import pandas as pd

    counts = pd.Series([r.rule_id for r in rulings], dtype="object").value_counts().rename("rulings")
    frame = counts.rename_axis("rule").reset_index()
    if index is not None:
        frame["title"] = frame["rule"].map(index)
    return frame


#: the notebooks' folders beside the games' own (each game's folder is its id, titled as the game declares it)
OTHER_FOLDERS = (
    ("", "The four models compared"),
    ("apps", "Class-mode apps (open with Voila)"),
)


def notebook_folders(root=None) -> tuple[tuple[str, str], ...]:
    """(folder, heading) of the notebook index: every game with a folder under ``notebooks/``, in its declared
    order and with its declared title (``data/<game>/notebook.yaml``, issue #29 item 4), then the other folders."""
    from pathlib import Path

    from ..core.presentation import ordered_games, presentation

    root = Path(root) if root is not None else Path(__file__).resolve().parents[2] / "notebooks"
    games = [g for g in ordered_games() if (root / g).is_dir()]
    return (*((g, presentation(g).title) for g in games), *OTHER_FOLDERS)


def notebook_index(root=None) -> list[dict[str, str]]:
    """Every notebook under ``notebooks/`` by game folder (the comparison notebooks at the top level, the front door
    ``00-start-here`` left out), with the title of its first cell."""
    import json
    from pathlib import Path

    root = Path(root) if root is not None else Path(__file__).resolve().parents[2] / "notebooks"
    rows = []
    for folder, game in notebook_folders(root):
        for nb in sorted((root / folder).glob("*.ipynb")):
            if not folder and nb.name.startswith("00-"):  # the front door itself
                continue
            cells = json.loads(nb.read_text(encoding="utf-8")).get("cells") or [{"source": ""}]
            first = "".join(cells[0]["source"]).splitlines() or [nb.stem]
            title = first[0].lstrip("# ").replace("&mdash;", "-").strip()
            rows.append({"game": game, "path": f"{folder}/{nb.name}" if folder else nb.name, "title": title})
    return rows


def notebook_links(root=None):
    """The notebook index as HTML links, grouped by game (links relative to ``notebooks/``)."""
    import html

    from IPython.display import HTML

    parts, current = [], None
    for row in notebook_index(root):
        if row["game"] != current:
            parts.append(("</ul>" if current else "") + f"<h4>{html.escape(row['game'])}</h4><ul>")
            current = row["game"]
        parts.append(
            f'<li><a href="{row["path"]}" target="_blank">{html.escape(row["path"])}</a>: '
            f"{html.escape(row['title'])}</li>"
        )
    return HTML("".join(parts) + ("</ul>" if current else ""))


def progress_bar(description: str = "games"):
    """A progress bar for ``wargames.montecarlo(..., progress=progress_bar())``: an ipywidgets bar shown on the
    first report and filled as games finish."""
    import ipywidgets as widgets
    from IPython.display import display

    bar = widgets.IntProgress(value=0, min=0, description=description)
    shown = []

    def report(done: int, total: int) -> None:
        if not shown:
            bar.max = max(1, total)
            display(bar)
            shown.append(True)
        bar.value = done
        if done >= total:
            bar.bar_style = "success"

    return report
