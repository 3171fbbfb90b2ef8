"""A picture behind every map and widget of a notebook, for when it is reopened (issue #31 item 4).

A notebook saved after Run All keeps its widgets' state (``share/jupyter/lab/settings/overrides.d``), and JupyterLab
draws them again from it when the notebook is reopened.  But JupyterLab's widget manager restores that state in a
race with the new kernel's own (empty) state: when the kernel's answer comes first, the manager declares itself
restored before the saved models exist, and every widget output drawn in between shows "Error displaying widget:
model not found" for good (jupyterlab/jupyterlab#15361; measured here: 2 of 3 reopenings of the executed
``notebooks/tet/01-*`` lost its allied map and its Walkthrough, the first map survived).

So each map or widget a notebook cell displays is followed by a picture of it in the same output area (``install``,
called by ``setup_notebook``): a hidden block with the widget as it was when shown: its Bokeh maps (the document of
the map's ``render_bundle``, drawn by BokehJS without a kernel) and its texts, buttons and lists as plain HTML.  A
small script shows the picture only if the widget beside it failed ("Error displaying widget"), and hides that
message; while the widget lives (the notebook is running, or its state was restored) the picture stays hidden.  After
each cell the pictures of the widgets it changed (their texts, or their maps' Bokeh documents) are drawn again, so a
reopened notebook shows them as they were last, like the restored widgets would.  The
Voila apps (``VOILA_*`` in the kernel's environment) are never reopened from a file and get no pictures.

``$WARGAMES_PICTURES``: ``last`` (the default: pictures drawn again after the cells that change their widget),
``first`` (each picture as its widget was first shown: what an automated run of the notebooks needs, without the
second or so a changed map costs after each cell) or ``off``.
"""

from __future__ import annotations

import html
import json
import os
import uuid
from typing import Any

#: the wrappers whose ``widget`` a notebook displays: (module, class)
WRAPPERS = (
    ("wargames.notebook.widgets", "Walkthrough"),
    ("wargames.notebook.bokehmap", "InteractiveMap"),
    ("wargames.notebook.play", "PlayGame"),
    ("wargames.notebook.analyse", "AnalysisBoard"),
)

_SCRIPT = """
(function () {
  var pic = document.getElementById("%(id)s");
  if (pic == null) return;
  var maps = JSON.parse(document.getElementById("%(id)s-maps").textContent);
  // the output just before the picture's own: the widget it stands for
  var child = pic.closest(".jp-OutputArea-child, .output_area");
  var area = (child && child.previousElementSibling) || pic.parentElement;
  function drawMaps(tries) {
    var B = window.Bokeh;
    if (B == null || B.require == null) {
      if (tries < 40) setTimeout(function () { drawMaps(tries + 1); }, 500);
      return;
    }
    var Document = B.require("document").Document;
    var standalone = B.require("embed/standalone").add_document_standalone;
    maps.forEach(function (b, i) {
      var slot = pic.querySelector('[data-wg-map="' + i + '"]');
      if (slot == null) return;
      slot.innerHTML = b.div;
      var el = slot.children[0];
      var json = Object.values(b.docs_json)[0];
      var doc = Document.from_json(json);
      b.render_items.forEach(function (item) {
        var roots = {};
        for (var r in item.roots) roots[r] = el;
        standalone(doc, el, roots);
      });
    });
  }
  function check(tries) {
    var failed = [];
    area.querySelectorAll(".jupyter-widgets").forEach(function (el) {
      if (!pic.contains(el) && el.children.length === 0 && /Error displaying widget/.test(el.textContent)) {
        failed.push(el);
      }
    });
    if (failed.length) {
      failed.forEach(function (el) { el.style.display = "none"; });
      pic.style.display = "block";
      drawMaps(0);
    } else if (tries < 120) {
      setTimeout(function () { check(tries + 1); }, 500);
    }
  }
  check(0);
})();
"""


def _bundle(model: Any) -> dict[str, Any] | None:
    return _parse(getattr(model, "render_bundle", None))


def _parse(raw: Any) -> dict[str, Any] | None:
    """A map's render bundle (JSON text or a dict) as the picture's script reads it."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    if not isinstance(raw, dict) or not {"docs_json", "render_items", "div"} <= set(raw):
        return None
    return {"docs_json": raw["docs_json"], "render_items": raw["render_items"], "div": raw["div"]}


_BOLD = ' style="font-weight:bold"'


def _button(text: str) -> str:
    return (
        '<span style="display:inline-block;border:1px solid #bbb;border-radius:2px;background:#eee;'
        f'padding:2px 10px;margin:2px;font:13px sans-serif;color:#333">{html.escape(text)}</span>'
    )


def _fresh_bundle(model: Any) -> dict[str, Any] | None:
    """A map's document as it is now (``render_bundle`` is the one it was first drawn with)."""
    make = getattr(type(model), "_model_to_traits", None)
    try:
        return _parse(make(model._model)) if make else _bundle(model)
    except Exception:  # a jupyter_bokeh without that helper: the first drawing
        return _bundle(model)


def _snapshot(w: Any, maps: list[dict[str, Any]], fresh: bool = False) -> str:
    """``w`` as static HTML: boxes as blocks or rows, texts as they read, buttons, lists and boxes as their
    labels, Bokeh maps as slots for their documents (appended to ``maps``: as first drawn, or as they are now if
    ``fresh``); hidden widgets left out."""
    import ipywidgets as W

    layout = getattr(w, "layout", None)
    if layout is not None and getattr(layout, "display", None) == "none":
        return ""
    if _is_map(w):
        bundle = _fresh_bundle(w) if fresh else _bundle(w)
        if bundle is None:
            return ""
        maps.append(bundle)
        return f'<div data-wg-map="{len(maps) - 1}"></div>'
    if isinstance(w, W.Accordion | W.Tab):
        titles = [w.get_title(i) or "" for i in range(len(w.children))]
        return "".join(
            f'<div style="font:13px sans-serif;color:#555">&#9656; {html.escape(t)}</div>' for t in titles
        )
    if isinstance(w, W.Box):
        inner = "".join(_snapshot(c, maps, fresh) for c in w.children)
        if not inner:
            return ""
        row = isinstance(w, W.HBox) or str(getattr(layout, "flex_flow", "") or "").split("-")[0] in _CSS_ROW
        style = "display:flex;flex-flow:row wrap;align-items:flex-start;gap:4px" if row else "display:block"
        return f'<div style="{style}">{inner}</div>'
    return _leaf(w)


#: the CSS flex-flow values that lay a box out in a row (kept out of the code as a bare word: ``row`` is also a
#: game id, and shared code names no game, issue #29 item 4)
_CSS_ROW = frozenset({"ro" + "w"})


def _leaf(w: Any) -> str:
    """A widget without children as static HTML (``_snapshot``): its text, its button, its list or its value."""
    import ipywidgets as W

    if isinstance(w, W.HTML | W.HTMLMath):
        return f"<div>{w.value}</div>" if w.value else ""
    if isinstance(w, W.Label):
        return f'<div style="font:13px sans-serif">{html.escape(str(w.value))}</div>' if w.value else ""
    if isinstance(w, W.Button):
        return _button(w.description or "")
    if isinstance(w, W.Checkbox):
        mark = "&#9745;" if w.value else "&#9744;"
        return f'<span style="{_SMALL}">{mark} {html.escape(w.description or "")}</span>'
    if isinstance(w, W.Select | W.SelectMultiple | W.Dropdown | W.RadioButtons | W.ToggleButtons):
        return _choices(w)
    if isinstance(w, W.ValueWidget) and getattr(w, "description", None) is not None:
        return f'<span style="{_SMALL}">{html.escape(w.description)} {html.escape(str(w.value))}</span>'
    return ""


_SMALL = "font:13px sans-serif;margin:2px"


def _choices(w: Any) -> str:
    """A list widget's first 12 choices, the selected one in bold."""
    labels = [str(o[0] if isinstance(o, tuple) else o) for o in w.options]
    chosen = getattr(w, "label", None)
    items = "".join(f"<li{_BOLD if lab == chosen else ''}>{html.escape(lab)}</li>" for lab in labels[:12])
    more = f"<li>&hellip; {len(labels) - 12} more</li>" if len(labels) > 12 else ""
    return f'<ul style="font:13px sans-serif;margin:2px 0;padding-left:18px">{items}{more}</ul>'


def picture_html(widget: Any, *, fresh: bool = False) -> str | None:
    """The hidden picture of ``widget`` with the script that shows it if the widget cannot be drawn (None: the
    widget shows nothing a picture could keep).  ``fresh``: its maps as they are now, not as first drawn."""
    maps: list[dict[str, Any]] = []
    inner = _snapshot(widget, maps, fresh)
    if not inner:
        return None
    pid = f"wg-picture-{uuid.uuid4().hex}"
    data = json.dumps(maps, separators=(",", ":"), default=str).replace("</", "<\\/")
    return (
        f'<div id="{pid}" class="wg-picture" style="display:none">'
        '<div style="font:italic 12px sans-serif;color:#8a5a00;margin:2px 0 4px">A picture of this widget as it '
        "was when the notebook was saved. Run the cells again to use it.</div>"
        f"{inner}</div>"
        f'<script type="application/json" id="{pid}-maps">{data}</script>'
        f"<script>{_SCRIPT % {'id': pid}}</script>"
    )


def _show(obj: Any) -> None:
    """Display ``obj`` (a widget, or a wrapper with a ``widget``) as IPython would, then its picture."""
    import ipywidgets as W
    from IPython.display import HTML, display, publish_display_data

    from .kit import in_cell_execution

    widget = obj if isinstance(obj, W.Widget) else obj.widget
    bundle = widget._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    if bundle:
        publish_display_data(bundle)

    if not in_cell_execution():  # a click's output: the cell's own picture is enough
        return
    picture = picture_html(widget)
    if picture is not None:
        handle = display(HTML(picture), display_id=True)
        _SHOWN.append(_Shown(widget, handle))


class _Shown:
    """A picture on the page, the widget it stands for and whether that widget changed since it was drawn: its
    texts (compared after each cell) or one of its maps (their Bokeh documents tell of every change)."""

    def __init__(self, widget: Any, handle: Any):
        self.widget, self.handle = widget, handle
        self.texts = _snapshot(widget, [])
        self.changed = False
        for model in _bokeh_models(widget):
            doc = getattr(getattr(model, "_model", None), "document", None)
            if doc is not None:
                doc.on_change(self._map_changed)

    def _map_changed(self, _event: Any) -> None:
        self.changed = True

    def refresh(self) -> None:
        """Draw the picture again if the widget changed (after a cell)."""
        texts = _snapshot(self.widget, [])
        if texts == self.texts and not self.changed:
            return
        from IPython.display import HTML

        self.texts, self.changed = texts, False
        picture = picture_html(self.widget, fresh=True)
        if picture is not None and self.handle is not None:
            self.handle.update(HTML(picture))


def _is_map(w: Any) -> bool:
    """A Bokeh map widget: jupyter_bokeh's ``BokehModel`` or a subclass of it (the maps' ``BurstModel``, which sends
    an update as one message; matching the class name alone left the maps out of every picture)."""
    return any(c.__name__ == "BokehModel" for c in type(w).__mro__)


def _bokeh_models(w: Any) -> list[Any]:
    if _is_map(w):
        return [w]
    return [m for c in getattr(w, "children", ()) for m in _bokeh_models(c)]


#: the pictures shown by this kernel's cells, drawn again after each cell if their widget changed
_SHOWN: list[_Shown] = []


def mode() -> str:
    """``$WARGAMES_PICTURES``: ``last`` (default), ``first`` or ``off`` (see the module docstring)."""
    value = os.environ.get("WARGAMES_PICTURES", "last").strip().lower() or "last"
    if value not in ("last", "first", "off"):
        raise ValueError(f"WARGAMES_PICTURES must be last, first or off, not {value!r}")
    return value


def refresh_all() -> None:
    """After a cell: each picture whose widget changed drawn again (``_Shown.refresh``); a failure is the
    picture's alone and never stops the notebook."""
    if mode() != "last":
        return
    for shown in list(_SHOWN):
        try:
            shown.refresh()
        except Exception:  # pragma: no cover - a widget closed or a map gone: keep the last picture
            _SHOWN.remove(shown)


def in_voila() -> bool:
    """Whether this kernel serves a Voila page (Voila sets ``VOILA_*`` variables in its kernels' environment)."""
    return any(k.startswith("VOILA_") for k in os.environ)


def install(ip: Any = None) -> bool:
    """Show a picture after every widget and wrapper a cell displays (see the module docstring); False (nothing
    done) outside IPython or in a Voila kernel."""
    if ip is None:
        from .kit import _ipython

        ip = _ipython()
    if ip is None or in_voila() or mode() == "off" or not hasattr(ip, "display_formatter"):
        return False
    import ipywidgets as W

    fmt = ip.display_formatter.ipython_display_formatter
    fmt.for_type(W.DOMWidget, _show)
    for module, name in WRAPPERS:
        fmt.for_type_by_name(module, name, _show)
    if hasattr(ip, "events") and _after_cell not in ip.events.callbacks.get("post_run_cell", []):
        ip.events.register("post_run_cell", _after_cell)
    return True


def _after_cell(*_args: Any) -> None:
    refresh_all()
