"""A student's app game that is never lost: saved after every decision, back after a reload or a crash (issue #32).

``ClassroomGame("tet")`` is the apps' (``notebooks/apps/*.ipynb``) play widget for a class server.  It reads who
the student is from the page's address: ``?student=Ann`` (a name the teacher hands out) or ``?token=...`` (an
opaque key); with neither it makes a token and the page writes it into its own address (so a reload keeps it)
and remembers it in the browser.  If the store (``wargames.store``) holds a game for that key and app, the
student is back at the same decision, replayed through the rules from its save; else a new game starts.  After
every change (a new game, each decision with the built-in replies, Back, the advisor) the game is saved, in one
transaction.

A small "heartbeat" element ticks every few seconds while the kernel lives; the classroom Voila template
(``share/jupyter/voila/templates/classroom``) watches it, and when it stops (the kernel was killed, culled or
restarted, or the server stopped) the page says so and offers to restore the game, which is a reload of the
same address.
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
from .play import PlayGame
from .widgets import _msg

_TOKEN = re.compile(r"^[A-Za-z0-9_\-]{8,64}$")


def page_query() -> str:
    """The query string of the page this kernel serves: Voila's request info (with a preheated kernel this waits
    for the request that takes the kernel, ``voila.utils.wait_for_request``), else ``$QUERY_STRING``, else ""."""
    if os.environ.get("VOILA_PREHEAT") == "True":
        from voila.utils import get_query_string

        return get_query_string() or ""
    return os.environ.get("QUERY_STRING", "")


def identity(query: str) -> tuple[str, str, str]:
    """``(key, shown name, address parameter)`` from a page's query string: ``student=Ann`` gives the key
    ``name:ann``; ``token=...`` the key ``token:...``; neither: the JupyterHub user (``hub:<user>``) when the app
    runs behind a hub, else (or for a malformed token) a fresh token.  A malformed
    name raises StoreError (the page says why)."""
    args = parse_qs(query or "")
    name = (args.get("student") or [""])[0].strip()
    if name:
        return (
            f"name:{student_key(name)}",
            " ".join(name.split()),
            urlencode({"student": " ".join(name.split())}),
        )
    token = (args.get("token") or [""])[0].strip()
    hub_user = os.environ.get("JUPYTERHUB_USER", "")
    if not token and hub_user:  # one app server per user behind JupyterHub: the hub's login is the key
        return f"hub:{hub_user}", hub_user, ""
    if not _TOKEN.match(token):
        token = new_token()
    return f"token:{token}", "", urlencode({"token": token})


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
        try:
            self.key, self.name, self.param = identity(page_query() if query is None else query)
        except StoreError as err:
            self.key, self.name, self.param = identity("")
            self._warn(f"{err}. This game is kept under an anonymous key instead.")
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
        self.widget = W.VBox([self.note, self.beat, self.play.widget])
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
        who = f"<b>{html.escape(self.name)}</b>" if self.name else "this page's address"
        back = (
            "You are back at the decision where you left your game. "
            if getattr(self, "restored", False)
            else ""
        )
        self.note.value = (
            f'<div style="font:12px sans-serif;color:#1e4f7a;margin:0 0 4px 0">{back}Your game is saved after '
            f"every decision under {who}: a reload, or opening the same address again, brings you back to it."
            "</div>"
        )

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
