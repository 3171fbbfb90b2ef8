"""A student's app game that is never lost: saved after every decision, back after a reload or a crash (issue #32).

``ClassroomGame("tet")`` is the apps' (``notebooks/apps/*.ipynb``) play widget for a class server.  It reads whose
game it is from the page's address: ``?token=...``, an opaque key; without one it makes a fresh random token and
the page writes it into its own address (so a reload keeps it) and remembers it in the browser.  ``?student=Ann``
(a name the teacher hands out) is only a label on the teacher's dashboard, never a key: no one opens another
student's game by typing their name.  If the store (``wargames.store``) holds a game for that key and app, the
student is back at the same decision, replayed through the rules from its save; else a new game starts.  After
every change (a new game, each decision with the built-in replies, Back, the advisor) the game is saved, in one
transaction.

A small "heartbeat" element ticks every few seconds while the kernel lives; the classroom Voila template
(``share/jupyter/voila/templates/classroom``) watches it, and when it stops (the kernel was killed, culled or
restarted, or the server stopped) the page says so and offers to restore the game, which is a reload of the
same address.

On a class server (``$WARGAMES_BOKEHJS_URL`` set by ``wargames.notebook.voilaserver``) the map and the long list
of the rulings made before the student's first decision (the set-up and the built-in players' first moves: about
40 rulings, a third of the first view's widget state) are left out of the page's first view and sent as soon as
the page shows the decision (``draw_map``): the student's first decision is on screen that much browser work
sooner (issue #32 item 1).  There the page's first question, ``request_states``, is also answered with each
widget's state less its default values (``send_light_states``: about half the bytes).

At the bottom of the page, **Games your teacher shared** lists the games of this app the teacher marked "shared
with the class" on the dashboard and opens one as a replay; a game that is not shared is never listed and
cannot be opened from a student's page (``GameStore.open_shared``).
"""

from __future__ import annotations

import html
import os
import re
import threading
import time
from typing import Any
from urllib.parse import parse_qs, urlencode

import ipywidgets as W

from ..core.actions import WargamesError
from ..store import GameStore, StoreError, new_token, student_key
from .kit import ENV_BOKEHJS
from .play import PlayGame
from .widgets import _msg

_TOKEN = re.compile(r"^[A-Za-z0-9_\-]{16,64}$")


def page_query() -> str:
    """The query string of the page this kernel serves: Voila's request info (with a preheated kernel this waits
    for the request that takes the kernel, ``voila.utils.wait_for_request``), else ``$QUERY_STRING``, else ""."""
    if os.environ.get("VOILA_PREHEAT") == "True":
        from voila.utils import get_query_string

        return get_query_string() or ""
    return os.environ.get("QUERY_STRING", "")


def identity(query: str) -> tuple[str, str, str]:
    """``(key, shown name, address parameters)`` from a page's query string (issue #32 item 4).

    The key that opens a game is always opaque: ``token=...`` from the address (16-64 URL-safe characters; the
    page writes the one it was given into its own address, so a reload keeps it), else a fresh random token
    (``wargames.store.new_token``), or the JupyterHub login (``hub:<user>``) when the app runs behind a hub, which
    has authenticated the student.  A name (``student=Ann``) is only a label for the teacher's dashboard: it
    never opens a game, so a classmate who types ``?student=Ann`` gets a game of their own, not Ann's.  A
    malformed name raises StoreError (the page says why)."""
    args = parse_qs(query or "")
    raw = (args.get("student") or [""])[0].strip()
    name = " ".join(raw.split())
    if raw:
        student_key(raw)  # the label's rules (letters, digits, spaces, .-_'; 1-64), or StoreError
    token = (args.get("token") or [""])[0].strip()
    hub_user = os.environ.get("JUPYTERHUB_USER", "")
    if not token and hub_user:  # one app server per user behind JupyterHub: the hub's login is the key
        return f"hub:{hub_user}", name or hub_user, urlencode({"student": name}) if name else ""
    if not _TOKEN.match(token):
        token = new_token()
    param = {"token": token, **({"student": name} if name else {})}
    return f"token:{token}", name, urlencode(param)


#: Seconds after which a deferred map is drawn even if the page never asks for it.
DEFER_MAP = 30.0
#: The rulings panel of the first view is sent after it (``ClassroomGame._defer_rulings``) from this many characters.
DEFER_RULINGS_CHARS = 8000


def _light_state(widget: Any) -> dict[str, Any]:
    """A widget's state as the page needs it to build its model: every value that differs from the trait's
    default (the page's model classes hold the same defaults: ipywidgets' embedding relies on it), and always the
    model's and view's names and versions (the keys starting with ``_``)."""
    state = widget.get_state(drop_defaults=True)
    for key, value in widget.get_state([k for k in widget.keys if k.startswith("_")]).items():
        state.setdefault(key, value)
    return state


def _answer_request_states(cls: Any, msg: dict[str, Any]) -> None:
    """ipywidgets' answer to a page's ``request_states`` (the widget manager's first question), lighter: each
    widget's state without its default values (``_light_state``: the Tet app's first view 131 KB -> 72 KB, its 65
    Layout models a third of a kilobyte each instead of a kilobyte), computed once (ipywidgets 8.1 also computes
    the whole manager state and drops it).  Any other control message goes to ipywidgets."""
    from ipywidgets.widgets.widget import _instances, _remove_buffers

    data = msg["content"]["data"]
    if data.get("method") != "request_states" or cls._control_comm is None:
        return _IPYWIDGETS_CONTROL(msg)
    states = {
        w.model_id: {
            "model_name": w._model_name,
            "model_module": w._model_module,
            "model_module_version": w._model_module_version,
            "state": _light_state(w),
        }
        for w in list(_instances.values())
    }
    states, buffer_paths, buffers = _remove_buffers(states)
    cls._control_comm.send(
        {"method": "update_states", "states": states, "buffer_paths": buffer_paths}, buffers=buffers
    )
    return None


_IPYWIDGETS_CONTROL = W.Widget._handle_control_comm_msg


def send_light_states() -> None:
    """Answer the page's ``request_states`` with :func:`_answer_request_states` in this kernel (a class server's
    app kernel, installed by ClassroomGame before the page connects, issue #32 item 1)."""
    W.Widget._handle_control_comm_msg = classmethod(_answer_request_states)


def _holder_of(root: Any, widget: Any) -> Any:
    """The container widget under ``root`` whose children include ``widget`` (None if there is none)."""
    todo = [root]
    while todo:
        box = todo.pop()
        kids = getattr(box, "children", None)
        if not kids:
            continue
        if any(k is widget for k in kids):
            return box
        todo.extend(kids)
    return None


class ClassroomGame:
    """The play widget of an app, saved to the class store after every change and restored from it.

    ``store``: a GameStore (default: ``GameStore()``, i.e. ``$WARGAMES_STORE_URL`` or the SQLite file);
    ``query``: the page's query string (default: read from Voila); ``play``: a PlayGame made beforehand (by a
    preheated kernel, before any student asked for it: a new student gets it at once, a returning one sees their
    stored game in it); else the other arguments go to PlayGame for a new game.
    """

    def __init__(
        self,
        game_id: str,
        *,
        store: GameStore | None = None,
        query: str | None = None,
        heartbeat: float = 3.0,
        pause_after: float | None = None,
        play: PlayGame | None = None,
        defer_map: float | None = None,
        **play_kw: Any,
    ):
        self.game_id = game_id
        self.note = W.HTML()
        self.beat = W.HTML(layout=W.Layout(display="none"))
        self._beats = 0
        self.saved = 0
        if pause_after is None:
            pause_after = float(os.environ.get("WARGAMES_BEAT_PAUSE", "") or 15 * 60)
        self.pause_after = pause_after
        self._active_until = time.time() + pause_after
        self._paused = False
        query = page_query() if query is None else query
        try:
            self.key, self.name, self.param = identity(query)
        except StoreError as err:  # a malformed name: keep the token, drop the label
            args = {k: v for k, v in parse_qs(query or "").items() if k != "student"}
            self.key, self.name, self.param = identity(urlencode(args, doseq=True))
            self._warn(f"{err}. This game is kept without a name.")
        try:
            self.store: GameStore | None = store if store is not None else GameStore()
        except StoreError as err:
            self.store = None
            self._warn(f"Games cannot be saved on this server ({err}); play goes on without saving.")
        game, side = self._stored_game()
        if play is None:
            side = side or play_kw.pop("side", None)
            play_kw.pop("side", None)
            play = PlayGame(game_id, side=side, game=game, **play_kw)
        elif game is not None:
            try:
                play.resume(game, side or str(play.side_box.value))
            except WargamesError as err:
                self._warn(f"Your saved game could not be shown ({err}); a new game was started instead.")
        self.play = play
        self.restored = game is not None and self.play.game is game
        self.play.on_change(self._save)
        self._save(self.play)
        self._show_note()
        self.shared_button = W.Button(
            description="Games your teacher shared",
            tooltip="List the classmates' games your teacher has shared with the class, to open one as a replay",
            layout=W.Layout(width="auto"),
        )
        self.shared_button.on_click(lambda _b: self.list_shared())
        self.shared_box = W.VBox()  # filled on demand: the first view stays light
        self.shared_walk: Any = None
        self.draw_button = W.Button(layout=W.Layout(display="none"))  # pressed by the page: draw the map now
        self.draw_button.add_class("wargames-draw-map")
        self.draw_button.on_click(lambda _b: self.draw_map())
        self._map_lock = threading.Lock()
        self._deferred: tuple[Any, Any, Any] | None = None
        self._deferred_rulings: Any = None
        self.widget = W.VBox(
            [self.note, self.beat, self.draw_button, self.play.widget, self.shared_button, self.shared_box]
        )
        if defer_map is None:
            defer_map = DEFER_MAP if os.environ.get(ENV_BOKEHJS) else 0.0
        if defer_map > 0:
            send_light_states()
            self._defer_rulings()
            self._defer_map(defer_map)
        self._tick()
        if heartbeat > 0:
            threading.Thread(target=self._heart, args=(heartbeat,), daemon=True).start()

    # ------------------------------------------------------------------ store
    def _stored_game(self) -> tuple[Any, str | None]:
        """The student's stored game replayed to its decision, and their side; (None, None) if there is none."""
        if self.store is None:
            return None, None
        try:
            row = self.store.get(self.key, self.game_id)
            if row is None:
                return None, None
            from ..core.saves import open_save

            return open_save(row.save), row.side
        except WargamesError as err:
            self._warn(f"Your saved game could not be reopened ({err}); a new game was started instead.")
        except Exception as err:  # a database that went away: play on, say so
            self._warn(
                f"The class store cannot be read ({type(err).__name__}: {err}); a new game was started."
            )
        return None, None

    def _save(self, play: PlayGame) -> None:
        self._active_until = time.time() + self.pause_after
        if self._paused and getattr(self, "widget", None) is not None:
            self._tick()  # the student is back: the heartbeat runs again
        if self.store is None or play.game is None:
            return
        try:
            self.store.put(
                self.key,
                self.game_id,
                play.game,
                side=str(play.side_box.value),
                label=play.variant.label,
                name=self.name,
            )
            self.saved += 1
        except Exception as err:  # never lose the page over a save; say it once
            self._warn(f"Your last decision could not be saved ({type(err).__name__}: {err}).")

    def _warn(self, text: str) -> None:
        self.note.value = _msg(text, "#b00020")

    def _show_note(self) -> None:
        if self.note.value:
            return
        hello = f"<b>{html.escape(self.name)}</b>: " if self.name else ""
        back = (
            "You are back at the decision where you left your game. "
            if getattr(self, "restored", False)
            else ""
        )
        if self.key.startswith("hub:"):  # behind JupyterHub the login is the key (identity)
            where = f"under your login, {html.escape(self.key[4:])}: a reload, or logging in again,"
        else:
            where = (
                "under this page's address (its private key): a reload, or opening the same address again,"
            )
        self.note.value = (
            f'<div style="font:12px sans-serif;color:#1e4f7a;margin:0 0 4px 0">{hello}{back}Your game is saved '
            f"after every decision {where} brings you back to it.</div>"
        )

    # ------------------------------------------------------------------ the map, drawn after the first view
    def _defer_map(self, fallback: float) -> None:
        """Leave the map out of the page's first view (the decision, its legal actions, the rulings): a light
        placeholder holds its place and the map's widget is closed, so the browser neither loads its Bokeh
        document (about a second of processor per page, the largest single part of the page's work) nor draws
        it before the student sees the decision (issue #32 item 1).  The classroom template presses the hidden
        draw button as soon as the first view is up, and :meth:`draw_map` sends the map then, from its current
        state; after ``fallback`` seconds it is sent anyway (a page without the template)."""
        walk = self.play.walk
        view = getattr(walk, "map", None) if walk is not None else None
        widget = getattr(view, "widget", None)
        if widget is None or not hasattr(widget, "update_from_model") or not hasattr(view, "layout"):
            return
        holder = _holder_of(walk.widget, widget)
        if holder is None:
            return
        height = f"{int(getattr(self.play, 'map_height', 600))}px"
        spot = W.HTML(
            '<div style="font:14px sans-serif;color:#555;padding:12px">Drawing the map&hellip;</div>',
            layout=W.Layout(width="640px", height=height, border="1px solid #ddd"),
        )
        self._deferred = (holder, view, spot)
        holder.children = tuple(spot if c is widget else c for c in holder.children)
        widget.close()  # the page never loads it; draw_map makes a new one
        timer = threading.Timer(fallback, self.draw_map)
        timer.daemon = True
        timer.start()

    def _defer_rulings(self) -> None:
        """Leave the long rulings list out of the first view: the panel shows one line saying how many rulings
        there are until :meth:`draw_map` shows them all (or the student's first decision redraws the panel).
        A short list (under ``DEFER_RULINGS_CHARS``) is sent at once."""
        walk = self.play.walk
        panel = getattr(walk, "rulings", None) if walk is not None else None
        box = getattr(panel, "html", None)
        if box is None or not hasattr(panel, "show") or len(box.value) < DEFER_RULINGS_CHARS:
            return
        count = len(getattr(panel, "shown", ()))
        self._deferred_rulings = panel
        box.value = (
            f'<div style="font:bold 13px sans-serif;margin:2px 0">The rulings so far: {count} ruling(s), '
            "shown in a moment&hellip;</div>"
        )

    def _draw_rulings(self) -> bool:
        """Show the deferred rulings (once), as the panel shows them now; False if none were deferred."""
        panel, self._deferred_rulings = self._deferred_rulings, None
        if panel is None:
            return False
        panel.show(getattr(panel, "_new", None))
        return True

    def draw_map(self) -> bool:
        """Send the map (once) in the placeholder's place, and the deferred rulings; False if the map was already
        there."""
        from .bokehmap import BurstModel

        with self._map_lock:
            self._draw_rulings()
            if self._deferred is None:
                return False
            holder, view, spot = self._deferred
            self._deferred = None
            old = view.widget
            view.widget = BurstModel(view.layout, layout=old.layout)
            holder.children = tuple(view.widget if c is spot else c for c in holder.children)
        return True

    # ------------------------------------------------------------------ games the teacher shared
    def list_shared(self) -> list[tuple[str, tuple[str, str]]]:
        """Read the games of this app the teacher shared (not the student's own) and offer them; returns the
        choices ``(label, key)``.  The keys stay in the kernel: the page only gets the labels."""
        if self.store is None:
            self.shared_box.children = [W.HTML(_msg("Games cannot be read on this server.", "#b00020"))]
            return []
        try:
            rows = [r for r in self.store.shared_rows(self.game_id) if r.student != self.key]
        except Exception as err:  # a database that went away: say so, keep playing
            self.shared_box.children = [
                W.HTML(_msg(f"The class store cannot be read ({type(err).__name__}).", "#b00020"))
            ]
            return []
        if not rows:
            self.shared_box.children = [
                W.HTML(_msg("Your teacher has not shared any game of the class yet."))
            ]
            return []
        choices = [(f"{r.name or 'a classmate'}: {r.side}, {r.where[:70]}", (r.student, r.app)) for r in rows]
        pick = W.Dropdown(options=choices, description="Shared game", style={"description_width": "auto"})
        pick.layout.width = "520px"
        open_button = W.Button(description="Open as a replay", button_style="info")
        self._shared_msg = W.HTML()
        self._shared_replay = W.Box(layout=W.Layout(width="100%"))
        open_button.on_click(lambda _b: self.open_shared(*pick.value))
        self.shared_box.children = [W.HBox([pick, open_button]), self._shared_msg, self._shared_replay]
        return choices

    def open_shared(self, student: str, app: str) -> Any:
        """Open a shared game as a replay (the umpire's view, every ruling); refused unless the teacher shared
        it.  The classmate's saved game is only read: stepping the replay changes nothing in the store."""
        from .widgets import Walkthrough

        try:
            game = self.store.open_shared(student, app) if self.store is not None else None
        except WargamesError as err:
            self._shared_msg.value = _msg(str(err), "#b00020")
            return None
        if game is None:
            return None
        self.shared_walk = Walkthrough(game, map_height=600)
        self._shared_msg.value = _msg(
            "A classmate's game, shared by your teacher, replayed to where it stands (your own game above is "
            "unchanged)."
        )
        self._shared_replay.children = [self.shared_walk.widget]
        return self.shared_walk

    # ------------------------------------------------------------------ heartbeat
    def _tick(self, pause: bool = False) -> None:
        self._beats += 1
        self._paused = pause
        self.beat.value = (
            f'<span class="wargames-beat" data-n="{self._beats}" data-app="{html.escape(self.game_id)}" '
            f'data-param="{html.escape(self.param)}" data-pause="{int(pause)}"></span>'
        )

    def _heart(self, every: float) -> None:
        """Beat every ``every`` seconds while the student is active.  Every beat is kernel activity, so after
        ``pause_after`` seconds without a decision the beat pauses (announced to the page, which then asks the
        server whether its kernel still exists): an abandoned page's kernel then goes idle and the server's culler
        frees it (voila.json), and the student's next decision restarts the beat."""
        while True:
            time.sleep(every)
            try:
                if time.time() < self._active_until:
                    self._tick()
                elif not self._paused:
                    self._tick(pause=True)
            except Exception:  # the kernel is shutting down
                return

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
