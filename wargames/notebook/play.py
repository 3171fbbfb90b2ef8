"""The play widget: a student plays one side of a game the widget owns, and may start a new one.

``PlayGame("tet", side="Allied", seed=11)`` loads its own game, lets the built-in players move until the
student must decide, and shows a :class:`~wargames.notebook.widgets.Walkthrough` in play mode under a
"New game" bar (scenario, side, seed).  Nothing else in the notebook touches that game, so after "Run
All" (and in Voila) the widget always opens on the student's first decision; analysis cells load their
own game objects.
"""

from __future__ import annotations

import gc
import html
import os
import secrets
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.actions import WargamesError
from ..core.presentation import Variant, default_side, variants
from .widgets import Walkthrough, _msg


def play_secret(secret: bool | str | None) -> str | None:
    """The key of a new game's hidden draws (``core.dice``, issue #30 item 6).  None: no key, the seed deals
    everything (a lesson notebook, whose text follows the deal of its seed, and where the student reads the game's
    state in code anyway).  True (the classroom apps): fresh and random, never shown on the page, so the seed a
    student sees does not tell the deck or the face-down counters; $WARGAMES_PLAY_SECRET fixes it (the browser
    tests, whose page and in-process replica must deal the same game).  A string: that key."""
    if secret is True:
        return os.environ.get("WARGAMES_PLAY_SECRET") or secrets.token_hex(16)
    return secret or None


def variants_for(game_id: str) -> list[Variant]:
    """The scenario selector's entries: those the game declares (``data/<game>/notebook.yaml``), else every
    registered scenario (:func:`wargames.core.presentation.variants`)."""
    return variants(game_id)


def _settle_memory() -> None:
    """Move everything alive after a game is set up (modules, the rules data, the map) out of the garbage
    collector's reach, so that a full collection never lands on a student's click: Back then stays under 50 ms
    at worst (issue #13, ``benchmarks/results/back.md``: 59-143 ms with these pauses, 14-36 ms without).  Games
    made later are still collected normally; only objects alive now are frozen."""
    gc.collect()
    gc.freeze()


def _lesson_panel(walk: Walkthrough, before: Any = None) -> Any:
    """The lesson panel for a new game, keeping the student's "who decides what" of the last one."""
    from .lesson import LessonPanel

    return LessonPanel(walk, None if before is None else set(before.lesson.mine))


class PlayGame:
    """A student's game: New game bar (scenario, side, seed) + the play-mode Walkthrough of its own game.

    ``game`` is the current game (replaced by New game), ``walk`` its Walkthrough.  ``new_game()`` is what
    the button does; it reads the selectors.
    """

    def __init__(
        self,
        game_id: str,
        *,
        side: str | None = None,
        seed: int = 1,
        scenario: str | None = None,
        map_height: int = 750,
        insets: bool = True,
        game: Any = None,
        lesson: bool = False,
        secret: bool | str | None = None,
        **options: Any,
    ):
        self.game_id = game_id
        self._listeners: list[Callable[[PlayGame], None]] = []
        self.lesson = lesson  # lesson-sized play (wargames.notebook.lesson): plans, orders, who decides what
        self.panel = None
        self.secret = secret  # how each new game's hidden draws are keyed (play_secret)
        self.variants = variants_for(game_id)
        if game is not None:  # a game to resume: the selectors take its scenario, options and seed
            scenario, options, seed = game.scenario_id, dict(game.options), int(game.seed)
        self.map_height = map_height
        self.insets = insets
        start = self._variant_index(scenario, options)
        lay = W.Layout(width="auto")
        style = {"description_width": "auto"}
        self.scenario_box = W.Dropdown(
            options=[(v.label, i) for i, v in enumerate(self.variants)],
            value=start,
            description="Scenario",
            style=style,
            layout=W.Layout(width="360px"),
        )
        self.side_box = W.Dropdown(
            options=[], description="Your side", style=style, layout=W.Layout(width="200px")
        )
        self.seed_box = W.BoundedIntText(
            value=seed, min=0, max=10**9, description="Seed", style=style, layout=W.Layout(width="150px")
        )
        self.new_button = W.Button(
            description="New game",
            icon="refresh",
            button_style="warning",
            layout=lay,
            tooltip="Start a new game with this scenario, side and seed",
        )
        self.status = W.HTML()
        self.body = W.Box(layout=W.Layout(width="100%"))
        self.scenario_box.observe(lambda _c: self._fill_sides(), names="value")
        self.new_button.on_click(lambda _b: self.new_game())
        bar_parts = [self.scenario_box] if len(self.variants) > 1 else []
        bar = W.HBox(
            [*bar_parts, self.side_box, self.seed_box, self.new_button],
            layout=W.Layout(
                flex_flow="row wrap",
                align_items="center",
                border="1px solid #c9c9c9",
                padding="4px",
                margin="0 0 6px 0",
            ),
        )
        from .glossary import glossary_panel

        self.glossary = glossary_panel(game_id)  # issue #31: the game's words, on the app's own page
        self.widget = W.VBox([bar, self.glossary, self.status, self.body])
        self._fill_sides(side or default_side(game_id))
        self.game = None
        self.walk: Walkthrough | None = None
        if game is None:
            self.new_game()
        else:
            self.resume(game, side or default_side(game_id) or game.sides[-1])

    def _variant_index(self, scenario: str | None, options: dict[str, Any]) -> int:
        if scenario is None and not options:
            return 0
        for i, v in enumerate(self.variants):
            if (scenario is None or v.scenario == scenario) and v.options == options:
                return i
        self.variants = [
            *self.variants,
            Variant(label=f"{scenario} {options or ''}".strip(), scenario=scenario or "", options=options),
        ]
        return len(self.variants) - 1

    @property
    def variant(self) -> Variant:
        return self.variants[self.scenario_box.value]

    def _load(self, seed: int, secret: str | None = None):
        import wargames

        v = self.variant
        extra = {"secret": secret} if secret else {}
        return wargames.load(self.game_id, scenario=v.scenario, seed=seed, **v.options, **extra)

    def _fill_sides(self, prefer: str | None = None) -> None:
        sides = list(self._load(0).sides)
        keep = prefer if prefer in sides else self.side_box.value if self.side_box.value in sides else None
        self.side_box.options = sides
        self.side_box.value = keep if keep is not None else sides[-1]

    def new_game(self) -> None:
        """Load a game with the selected scenario, side and seed; the built-in players move until the
        student's first decision."""
        side = self.side_box.value
        try:
            # in an app, hidden draws (the deck, face-down counters) from a fresh secret the page never shows:
            # knowing the seed does not tell the student what is coming (issue #30 item 6)
            game = self._load(int(self.seed_box.value), play_secret(self.secret))
            walk = Walkthrough(
                game, human=side, autoplay=True, map_height=self.map_height, insets=self.insets
            )
            walk.play_to_my_turn()
            panel = _lesson_panel(walk, self.panel) if self.lesson else None
        except WargamesError as err:
            self.status.value = _msg(f"Cannot start that game: {err}", "#b00020")
            return
        self._install(game, walk, side, panel)

    def resume(self, game, side: str) -> None:
        """Show ``game`` (e.g. a save replayed by ``wargames.open_save``) with the student playing ``side``: the
        selectors take its scenario, options and seed, and play goes on from the decision it stopped at."""
        if game.game_id != self.game_id:
            raise WargamesError(f"a {game.game_id} game cannot be shown in the {self.game_id} app")
        if side not in game.sides:
            raise WargamesError(f"{side!r} is not a side of this game; its sides are {list(game.sides)}")
        index = self._variant_index(game.scenario_id, dict(game.options))
        if len(self.scenario_box.options) != len(self.variants):
            self.scenario_box.options = [(v.label, i) for i, v in enumerate(self.variants)]
        if self.scenario_box.value != index or side not in self.side_box.options:
            self.scenario_box.value = index
            self._fill_sides(side)
        self.side_box.value = side
        self.seed_box.value = int(game.seed)
        walk = Walkthrough(game, human=side, autoplay=True, map_height=self.map_height, insets=self.insets)
        walk.play_to_my_turn()
        panel = _lesson_panel(walk, self.panel) if self.lesson else None
        self._install(game, walk, side, panel)

    def on_change(self, callback: Callable[[PlayGame], None]) -> None:
        """Call ``callback(self)`` after every change of the student's game: a new game, each decision with the
        built-in replies, Back, the advisor (``wargames.notebook.classroom`` saves the game there)."""
        self._listeners.append(callback)

    def _install(self, game, walk: Walkthrough, side: str, panel: Any = None) -> None:
        self.game, self.walk, self.panel = game, walk, panel
        _settle_memory()
        self.body.children = [walk.widget]
        self.status.value = (
            '<div style="font:13px sans-serif;margin:0 0 4px 0">You play <b>'
            f"{html.escape(side)}</b> in <i>{html.escape(self.variant.label)}</i>, seed {game.seed}. "
            "The other side(s) are played by the built-in players, who move at once after each of your "
            "decisions.</div>"
        )
        walk.on_change(lambda _new: self._changed())
        self._changed()

    def _changed(self) -> None:
        for cb in list(self._listeners):
            cb(self)

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
