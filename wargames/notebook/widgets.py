"""The teaching widgets: Stepper, RulingPanel, ActionChooser and the Walkthrough that composes them.

They work on any game of the shared interface (``DESIGN.md``); only the map (``MapView``) needs the
game's map layers.  Every button callback catches the package's own errors (an illegal action, undo at
the start) and shows them in the widget instead of raising, so a class never sees a traceback.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.actions import Action, WargamesError
from ..core.rulings import Ruling
from .rulerefs import without_references
from .rulingpanel import (
    RulingPanel,
    _text,
    plain_numbers,
    prompt_text,
)

Listener = Callable[[list[Ruling]], Any]


def _msg(text: str, colour: str = "#555") -> str:
    return f'<span style="color:{colour};font-family:sans-serif;font-size:13px">{html.escape(text)}</span>'


# ---------------------------------------------------------------------------------------------- Stepper
class Stepper:
    """Buttons that move a game along its sequence of play.

    Step = the next ruling (``advance("ruling")``), Next phase, Next turn, Back (``undo``: one decision
    back), Jump to turn n, Play (to the end).  Built-in players (bots) make the decisions of sides whose
    player is not None; the game stops at decisions of sides played by a person.  Listeners registered
    with ``on_change`` get the list of new rulings after every button press.

    ``person`` (play mode, set by a Walkthrough with a human side): Back takes back that person's last
    decision together with the built-in players' replies after it, so the person is on their own decision
    again; Jump to turn is off.  In any mode a button that cannot act (the game waits for a person, or is
    over) is disabled and its tooltip says why.
    """

    TIPS = {
        "step": "Next ruling",
        "next_phase": "Run to the start of the next phase",
        "next_turn": "Run to the start of the next turn",
        "play": "Play to the end (stops at decisions of a person)",
        "back": "Undo the last decision",
        "go": "Jump to the start of that turn",
    }

    def __init__(self, game, person: str | None = None, *, side: str | None = None):
        self.game = game
        self.person = person
        self.side = (
            side if side is not None else person
        )  # whose eyes read the prompts (names, hidden counters)
        self.details = True  # rule ids in the status line (a Walkthrough ties it to its "Details" box)
        self._listeners: list[Listener] = []
        lay = W.Layout(width="auto")
        self.step = W.Button(
            description="Step", tooltip="Next ruling", button_style="primary", icon="step-forward", layout=lay
        )
        self.next_phase = W.Button(
            description="Next phase", tooltip="Run to the start of the next phase", icon="forward", layout=lay
        )
        self.next_turn = W.Button(
            description="Next turn",
            tooltip="Run to the start of the next turn",
            icon="fast-forward",
            layout=lay,
        )
        self.back = W.Button(description="Back", tooltip="Undo the last decision", icon="undo", layout=lay)
        turns = game.sequence.turns or 99
        self.turn_box = W.BoundedIntText(
            value=max(1, game.turn),
            min=1,
            max=turns,
            description="Jump to turn",
            style={"description_width": "auto"},
            layout=W.Layout(width="150px"),
        )
        self.go = W.Button(
            description="Go", tooltip="Jump to the start of that turn", layout=W.Layout(width="50px")
        )
        self.play = W.Button(
            description="Play",
            tooltip="Play to the end (stops at decisions of a person)",
            icon="play",
            layout=lay,
        )
        self.where = W.HTML()
        self.message = W.HTML()
        self.step.on_click(lambda _b: self._run(lambda: self.game.advance("ruling")))
        self.next_phase.on_click(lambda _b: self._run(lambda: self.game.advance("phase")))
        self.next_turn.on_click(lambda _b: self._run(lambda: self.game.advance("turn")))
        self.back.on_click(lambda _b: self._run(self._undo))
        self.go.on_click(lambda _b: self._run(lambda: self.jump(self.turn_box.value)))
        self.play.on_click(lambda _b: self._run(lambda: self.game.advance("end")))
        self.widget = W.VBox(
            [
                W.HBox(
                    [
                        self.step,
                        self.next_phase,
                        self.next_turn,
                        self.back,
                        self.play,
                        self.turn_box,
                        self.go,
                    ],
                    layout=W.Layout(flex_flow="row wrap"),
                ),
                self.where,
                self.message,
            ]
        )
        self.refresh()

    def on_change(self, callback: Listener) -> None:
        self._listeners.append(callback)

    def person_decisions(self) -> list[int]:
        """Indexes in ``game.record`` of the decisions a person made (by the chooser or ``game.apply``), or
        had the advisor make for them."""
        return [
            i for i, e in enumerate(self.game.record) if "act" in e and e.get("by") in ("person", "advisor")
        ]

    def _undo(self) -> list[Ruling]:
        g = self.game
        n = len(g.log)
        if self.person is None:
            g.undo()
            self.message.value = _msg(f"Back one decision: {n - len(g.log)} ruling(s) taken back.")
            return []
        mine = self.person_decisions()
        if not mine:
            raise WargamesError("you have not made a decision yet: there is nothing of yours to take back")
        i = mine[-1]
        run = g.record[i].get("advice")
        while run is not None and len(mine) > 1 and g.record[mine[-2]].get("advice") == run:
            mine.pop()  # the advisor's run of decisions (one press) goes back as one
            i = mine[-1]
        acts = [j for j, e in enumerate(g.record) if "act" in e and j >= i]
        act = Action.from_json(g.record[i]["act"])
        g.undo(len(acts))
        again = g.decision.find(act) if g.decision is not None else None
        shown = again if again is not None else act
        label = (
            g.display_label(shown, self.side) if hasattr(g, "display_label") else (shown.label or shown.kind)
        )
        replies = len(acts) - 1
        what = (
            f"your decision \u201c{label}\u201d and the {replies} built-in decision(s) after it were"
            if replies
            else f"your decision \u201c{label}\u201d was"
        )
        if run is not None:
            what = (
                f"the advisor's run from \u201c{label}\u201d ({len(acts)} decision(s) with the replies) was"
            )
        self.message.value = _msg(
            f"Back: {what} taken back ({n - len(g.log)} ruling(s)). It is your decision again."
        )
        return []

    def jump(self, turn: int) -> list[Ruling]:
        """Go to the start of ``turn``: forwards with the players, backwards by undoing decisions."""
        g = self.game
        n0 = len(g.log)
        guard = 10_000
        if g.turn >= turn and not self._rewind(turn):
            while g.turn >= turn and guard and any("act" in e for e in g.record):
                g.undo()
                guard -= 1
        while g.turn < turn and not g.is_over and guard:
            before = g.position
            g.advance("turn")
            guard -= 1
            if g.position == before:  # stopped at a person's decision
                break
        return g.log[n0:] if len(g.log) > n0 else []

    def _rewind(self, turn: int) -> bool:
        """Back to the first decision of ``turn`` in one replay of the record (``game.rewind``)."""
        try:
            self.game.rewind(turn)
        except WargamesError:
            return False
        return True

    def _run(self, fn: Callable[[], Any]) -> None:
        self.message.value = ""
        try:
            new = fn() or []
        except WargamesError as err:
            self.message.value = _msg(f"Cannot do that: {err}", "#b00020")
            new = []
        if (
            not new
            and not self.message.value
            and self.game.decision is not None
            and self.game.player_for(self.game.decision.side) is None
        ):
            self.message.value = _msg(
                f"Waiting for the {self.game.decision.side} player to decide (use the action chooser).",
                "#8a5a00",
            )
        self.refresh()
        for cb in list(self._listeners):
            cb(list(new))

    def refresh(self) -> None:
        g = self.game
        if g.is_over:
            status = "the game is over"
        elif g.decision is not None:
            d = g.decision
            who = "a person" if g.player_for(d.side) is None else "the built-in player"
            prompt = prompt_text(g, d, self.side, details=self.details)
            rule = f" [{d.rule_id}]" if self.details else ""
            status = f"{d.side} to decide ({who}): {prompt}{rule}, {len(d.options)} legal actions"
        else:
            status = "between rulings"
        self.where.value = (
            f'<div style="font-family:sans-serif;font-size:14px"><b>{html.escape(g.where())}</b>'
            f" &mdash; {html.escape(status)}</div>"
        )
        d = g.decision
        waiting = d is not None and g.player_for(d.side) is None
        if g.is_over:
            why = "the game is over"
        elif waiting:
            who = "your" if self.person is not None else f"the {d.side} player's"
            why = f"the game waits for {who} decision: pick it in the action list and press Apply"
        else:
            why = ""
        for name in ("step", "next_phase", "next_turn", "play"):
            b = getattr(self, name)
            b.disabled = bool(why)
            b.tooltip = f"{self.TIPS[name]} (not now: {why})" if why else self.TIPS[name]
        self.step.button_style = "" if why else "primary"  # a pale blue disabled button still looks pressable
        if self.person is not None:
            can_back = bool(self.person_decisions())
            self.back.tooltip = (
                "Take back your last decision and the built-in replies after it"
                if can_back
                else "Back: not yet, you have made no decision"
            )
            for w in (self.turn_box, self.go):
                w.disabled = True
            self.go.tooltip = "Jump to turn is for watching a game; here use Back, or New game"
        else:
            can_back = any("act" in e for e in g.record)
            self.back.tooltip = self.TIPS["back"] if can_back else "Back: no decision has been made yet"
        self.back.disabled = not can_back
        if g.turn >= 1:
            self.turn_box.value = min(max(g.turn, self.turn_box.min), self.turn_box.max)

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)


# ---------------------------------------------------------------------------------------------- ActionChooser
class ActionChooser:
    """The legal actions of the pending decision, to pick by list or by clicking the map.

    ``side``: the side a person plays; the chooser is disabled when the decision is another side's.
    ``side=None`` is the umpire's (teacher's) chooser: it may take any side's pending decision by hand.
    ``filter_area(area)`` keeps only the actions whose ``places`` contain that area (a map click).
    An illegal action is reported in the widget (naming the rule) and leaves the game unchanged.
    """

    def __init__(self, game, side: str | None = None, *, rows: int = 8):
        self.game = game
        self.side = side
        self.details = True  # rule ids in the prompt and labels (a Walkthrough ties it to its "Details" box)
        self.area: str | None = None
        self._listeners: list[Listener] = []
        self.actions: list[Action] = []
        self.prompt = W.HTML()
        self.select = W.Select(options=[], rows=rows, layout=W.Layout(width="96%"))
        self.apply_button = W.Button(
            description="Apply",
            button_style="success",
            icon="check",
            layout=W.Layout(width="auto", min_width="110px"),
        )
        self.clear_button = W.Button(
            description="Show all", tooltip="Forget the map filter", layout=W.Layout(width="auto")
        )
        self.message = W.HTML()
        self.apply_button.on_click(lambda _b: self.apply_selected())
        self.clear_button.on_click(lambda _b: self.filter_area(None))
        self.buttons = W.HBox([self.apply_button, self.clear_button], layout=W.Layout(flex_flow="row wrap"))
        self.full = W.HTML()  # the selected choice in full: long labels (FitL events) are cut off in the list
        self.select.observe(lambda _c: self._show_full(), names="value")
        self.widget = W.VBox([self.prompt, self.select, self.full, self.buttons, self.message])
        self.refresh()

    def on_change(self, callback: Listener) -> None:
        self._listeners.append(callback)

    @property
    def enabled(self) -> bool:
        d = self.game.decision
        return d is not None and (self.side is None or d.side == self.side)

    def filter_area(self, area: str | None) -> None:
        self.area = area
        self.message.value = ""  # a new click: the last "Applied"/"Illegal" line is stale
        self.refresh()

    def refresh(self) -> None:
        g = self.game
        d = g.decision
        if d is None:
            self.actions = []
            self.prompt.value = _msg("No decision is pending." if not g.is_over else "The game is over.")
        else:
            everything = g.legal_actions()
            acts = [a for a in everything if self.area is None or self.area in a.places]
            where = self._name(self.area) if self.area is not None else ""
            if self.area is not None and not acts:
                note = f" None of them concerns {where}; showing all."
                acts = everything
            elif self.area is not None:
                note = f" Showing the {len(acts)} that concern {where} (map click)."
            else:
                note = ""
            self.actions = acts
            mine = "" if self.enabled else f" (not yours to decide: you play {self.side})"
            self.prompt.value = (
                f'<div style="font-family:sans-serif;font-size:13px;line-height:1.35"><b>{html.escape(d.side)}</b>: '
                f"{html.escape(prompt_text(g, d, self.side, details=self.details))}"
                f"{f' [{html.escape(d.rule_id)}]' if self.details else ''} &mdash; {len(everything)} legal "
                f"actions.{html.escape(note)}{html.escape(mine)}</div>"
            )
        self.select.options = [(self.label(a), i) for i, a in enumerate(self.actions)]
        self.select.value = 0 if self.actions else None
        self._show_full()
        on = self.enabled and bool(self.actions)
        self.select.disabled = not on
        self.apply_button.disabled = not on
        self.clear_button.disabled = self.area is None

    def _show_full(self) -> None:
        i = self.select.value
        if i is None or i >= len(self.actions):
            self.full.value = ""
            return
        text = self.label(self.actions[i])
        self.full.value = (
            '<div style="font:12px sans-serif;color:#333;margin:2px 0;white-space:normal">'
            f"<b>Selected:</b> {html.escape(text)}</div>"
        )

    def _name(self, key: str) -> str:
        fn = getattr(self.game, "display_name", None)
        return fn(key, self.side) if fn is not None else key

    def label(self, action: Action) -> str:
        """What the list shows for ``action``: its label with names for ids as the chooser's side reads them
        (``game.display_label``: a counter hidden from that side is never named), without the rule numbers it
        cites unless ``details`` (issue #31 item 3)."""
        fn = getattr(self.game, "display_label", None)
        text = plain_numbers(fn(action, self.side) if fn is not None else (action.label or action.kind))
        return text if self.details else without_references(text, getattr(self.game, "game_id", None))

    def choose(self, label_or_index: str | int) -> None:
        """Select an action in the list by its label or position (as a click on the list would)."""
        if isinstance(label_or_index, int):
            self.select.value = label_or_index
            return
        for i, a in enumerate(self.actions):
            if label_or_index in (a.label, self.label(a)):
                self.select.value = i
                return
        raise KeyError(label_or_index)

    def apply_selected(self) -> list[Ruling]:
        if not self.enabled:
            self.message.value = _msg("It is not your decision.", "#b00020")
            return []
        i = self.select.value
        if i is None or i >= len(self.actions):
            self.message.value = _msg("Pick an action first.", "#b00020")
            return []
        return self.apply(self.actions[i])

    def apply(self, action: Action | dict | str) -> list[Ruling]:
        """Apply an action; an illegal one is reported here (the game does not change)."""
        try:
            new = self.game.apply(action)
        except WargamesError as err:
            self.message.value = _msg(f"Illegal: {err}", "#b00020")
            return []
        shown = self.label(action) if isinstance(action, Action) else str(action)
        self.message.value = _msg(f"Applied: {shown}", "#1e6b2e")
        self.area = None
        self.refresh()
        for cb in list(self._listeners):
            cb(list(new))
        return new

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)


# ---------------------------------------------------------------------------------------------- Walkthrough
#: the frame of a map drawn beside the action list (pixels): with a 470 px column it fits a 1366 px screen
BESIDE_VIEW = (800, 600)


def map_for(game, side: str | None = None, *, height: int = 750, insets: bool = True):
    """The map view that fits ``game`` (None for a game without a map), chosen by what the game declares and
    offers, never by its id: the detailed views of a map kind first (each says whether it ``draws`` the game),
    else :class:`~wargames.notebook.layermap.LayerMapView`, which draws any ``game.map_layers(side)``."""
    from .fitlboard import FitlBoardView
    from .layermap import LayerMapView
    from .mapview import MapView
    from .yotrmap import YotrMapView

    if FitlBoardView.draws(game):
        return FitlBoardView(game, side, height=max(height, 800))
    if YotrMapView.draws(game):
        return YotrMapView(game, side, height=max(height, 800), insets=insets)
    from .rowmap import RowMapView

    if RowMapView.draws(game):
        # beside the action list, panned to each decision's hexes (issue #31): fits a 1366 px laptop screen
        return RowMapView(game, side, view=BESIDE_VIEW)
    if MapView.draws(game):
        return MapView(game, side=side, height=height, insets=insets)
    if LayerMapView.draws(game):
        return LayerMapView(game, side, height=min(height, 650))
    return None


class Walkthrough:
    """Map + stepper + rulings + action chooser + scores, wired together, for a class or for Voila.

    ``human``: the side a person plays (its player is set to None, so the game waits for it); the map
    then shows what that side may see.  ``human=None``: the built-in players play every side when you
    press the stepper's buttons, the map shows everything, and the chooser lets the teacher make any
    pending decision by hand instead.

    ``autoplay`` (with a ``human`` side): after each of the person's actions the built-in players play on at
    once until the person must decide again, so a student plays a side without pressing Step for the bots.
    """

    def __init__(
        self,
        game,
        human: str | None = None,
        *,
        map_height: int = 750,
        insets: bool = True,
        autoplay: bool = False,
    ):
        self.game = game
        self.human = human
        self.autoplay = autoplay and human is not None
        if human is not None:
            game.set_players({human: None})
        self.map = map_for(game, human, height=map_height, insets=insets)
        self.stepper = Stepper(game, person=human if self.autoplay else None, side=human)
        self.rulings = RulingPanel(game, side=human, since=self._since_my_decision if self.autoplay else None)
        self.chooser = ActionChooser(game, side=human)
        # rule ids in the prompt and the action list only with "Details" on, like the rulings (issue #31 item 3)
        self._show_details(self.rulings.details.value)
        self.rulings.details.observe(lambda c: self._show_details(bool(c["new"])), names="value")
        self.scores = W.HTML()
        #: hooks run after a person's action, before the panels are redrawn (each returns its new rulings), and
        #: after every redraw: the lesson panel (``wargames.notebook.lesson``) plugs in here
        self.after_person: list[Callable[[], list[Ruling]]] = []
        self.on_changed: list[Callable[[], Any]] = []
        self.stepper.on_change(self._after_stepper)
        self.chooser.on_change(self._after_person)
        if self.map is not None:
            self.map.on_pick(self.chooser.filter_area)
        self.advisor = W.Button(
            description="Advisor completes this",
            icon="magic",
            layout=W.Layout(width="auto"),
            tooltip=self.ADVISOR_TIP,
        )
        self.advisor.on_click(lambda _b: self.advise())
        self.advisor.disabled = not (self.autoplay and self.chooser.enabled)
        self.analyse_button = W.Button(
            description="Analyse",
            icon="line-chart",
            layout=W.Layout(width="auto"),
            tooltip=self.ANALYSE_TIP,
        )
        self.analyse_button.on_click(lambda _b: self.open_analysis())
        self.analysis = None  # the analysis board (wargames.notebook.analyse), made on the first press
        self.analysis_box = W.Box(layout=W.Layout(width="100%"))
        if self.autoplay:
            self.chooser.buttons.children = (
                *self.chooser.buttons.children,
                self.advisor,
                self.analyse_button,
            )
        if self.map is not None:
            self.chooser.clear_button.on_click(lambda _b: self.map.highlight([]))
        self.rulings.html.layout.max_height = "260px"
        self.rulings.widget.layout.width = "57%"
        self.chooser.widget.layout.width = "41%"
        self.chooser.widget.layout.margin = "0 0 0 1%"
        panels = W.HBox([self.rulings.widget, self.chooser.widget], layout=W.Layout(width="100%"))
        parts = [self.stepper.widget, self.scores, panels, self.analysis_box]
        if self.map is not None and getattr(self.map, "view", None) is not None:
            # a map with a view sits beside the action list (the rulings under it), following each decision
            self.chooser.widget.layout.width = "100%"
            self.chooser.widget.layout.margin = "0"
            self.rulings.widget.layout.width = "100%"
            side_col = W.VBox(
                [self.chooser.widget, self.rulings.widget],
                layout=W.Layout(flex="1 1 420px", min_width="420px", margin="0 0 0 8px"),
            )
            self.map.widget.layout = W.Layout(flex="0 0 auto")
            parts = [
                self.stepper.widget,
                self.scores,
                W.HBox(  # on a screen too narrow for both (a 1024 px projector) the list wraps under the map
                    [self.map.widget, side_col],
                    layout=W.Layout(width="100%", align_items="flex-start", flex_flow="row wrap"),
                ),
                self.analysis_box,
            ]
        elif self.map is not None:
            parts.append(self.map.widget)
        self.widget = W.VBox(parts)
        self._listeners: list[Listener] = []
        self._show_scores()

    def on_change(self, callback: Listener) -> None:
        """Call ``callback(new_rulings)`` after every change of the game shown (a decision with the replies, Back,
        the advisor, the stepper), e.g. to save the game (``wargames.notebook.classroom``)."""
        self._listeners.append(callback)

    def _show_scores(self) -> None:
        s = self.game.scores()
        txt = ", ".join(f"<b>{html.escape(str(k))}</b> {html.escape(str(v))}" for k, v in s.items())
        self.scores.value = f'<div style="font-family:sans-serif;font-size:13px">Scores: {txt}</div>'

    def play_to_my_turn(self) -> list[Ruling]:
        """Let the built-in players act until the person's side must decide (or the game ends)."""
        new = self.game.advance("end")
        self._changed(new)
        return new

    ADVISOR_TIP = (
        "Let the built-in player of your side make this decision and the ones like it that follow "
        "(building a group, choosing pieces), each with its reason"
    )
    ADVISOR_LIMIT = (
        200  # decisions one press may take (a runaway loop guard; a sub-choice run is far shorter)
    )

    def _show_details(self, on: bool) -> None:
        """The "Details" box: rule ids in the prompt, the action list and the status line, or words only."""
        self.chooser.details = self.stepper.details = on
        keep = self.chooser.select.value
        self.chooser.refresh()
        if keep is not None and keep < len(self.chooser.actions):
            self.chooser.select.value = keep
        self.stepper.refresh()

    def advise(self) -> list[Ruling]:
        """The advisor: the built-in player of the person's side makes the pending decision and every following
        decision of the same kind (same rule, same step of the sequence of play), e.g. each unit of a fire group
        or each point of a loss, and the chooser's message lists each choice with the bot's reason.  They are
        recorded ``by="advisor"``; Back takes them back like the person's own."""
        g = self.game
        d = g.decision
        if not self.autoplay or d is None or d.side != self.human:
            self.chooser.message.value = _msg("The advisor helps with your own decisions only.", "#b00020")
            return []
        rule, where = d.rule_id, (g.turn, g.phase.id if g.phase else None, g.step.id if g.step else None)
        bot = g.default_player(self.human)
        n0, run = len(g.log), len(g.record)
        done: list[tuple[str, str]] = []
        try:
            while (
                len(done) < self.ADVISOR_LIMIT
                and g.decision is not None
                and g.decision.side == self.human
                and g.decision.rule_id == rule
                and (g.turn, g.phase.id if g.phase else None, g.step.id if g.step else None) == where
            ):
                act = bot.choose(g, g.decision)
                why = str(getattr(bot, "last_reason", "") or "")
                label = self.chooser.label(act)
                # the reason as the bot gave it (shown with names below); one press = one run (``advice``):
                # Back takes the whole run back
                g.apply(act, by="advisor", why=why, advice=run)
                done.append((label, _text(g, self.human)(why)))
                if not g.is_over:
                    g.advance("end")
        except WargamesError as err:
            self.chooser.message.value = _msg(f"The advisor stopped: {err}", "#b00020")
        new = g.log[n0:]
        self.chooser.area = None
        if done:
            shown = "".join(
                f"<li>{html.escape(lbl)}{' &mdash; <i>' + html.escape(w) + '</i>' if w else ''}</li>"
                for lbl, w in done[:12]
            )
            more = f"<li>&hellip; and {len(done) - 12} more</li>" if len(done) > 12 else ""
            self.chooser.message.value = (
                '<div style="font:13px sans-serif;color:#1e4f7a">The advisor (the built-in '
                f"{html.escape(self.human)} player) made {len(done)} decision(s) for you [{html.escape(rule)}]:"
                f'<ul style="margin:2px 0 2px 18px;padding:0">{shown}{more}</ul>Back takes them back.</div>'
            )
        self.stepper.message.value = ""
        self._changed(list(new))
        return list(new)

    ANALYSE_TIP = (
        "What if? Play each of your choices here many times with the built-in players and compare who wins "
        "(issue #33)"
    )

    def open_analysis(self):
        """The analysis board for the pending decision under the choices (a new one at each press: the position
        may have changed); picking a choice on it plays that choice as the person's own decision."""
        from .analyse import AnalysisBoard

        if self.analysis is not None:
            self.analysis.cancel()
        self.analysis = AnalysisBoard(self.game, on_pick=self._play_analysed)
        self.analysis_box.children = [self.analysis.widget]
        return self.analysis

    def _play_analysed(self, candidate) -> list[Ruling]:
        """Play the candidate picked on the analysis board as the person's decision (Back takes it back)."""
        g = self.game
        d = g.decision
        if d is None or d.side != self.human or d.find(candidate.actions[0]) is None:
            self.chooser.message.value = _msg("That choice is no longer open here.", "#b00020")
            return []
        try:
            new = g.apply(candidate.actions[0], by="person", why="picked on the analysis board")
        except WargamesError as err:
            self.chooser.message.value = _msg(str(err), "#b00020")
            return []
        self.analysis_box.children = []
        self.analysis = None
        self.chooser.message.value = _msg(f"Played from the analysis board: {candidate.name}", "#1e4f7a")
        self._after_person(new)
        return new

    def _since_my_decision(self) -> int:
        """The log index of the person's last decision (0 before the first: everything so far)."""
        mine = self.stepper.person_decisions()
        if not mine:
            return 0
        rec = self.game.record
        run = rec[mine[-1]].get("advice")
        while run is not None and len(mine) > 1 and rec[mine[-2]].get("advice") == run:
            mine.pop()  # one press's run (the advisor's, or a lesson plan): from its first decision
        return int(rec[mine[-1]]["at"][0])

    def _after_stepper(self, new: list[Ruling]) -> None:
        self.chooser.message.value = ""  # an "Applied: ..." line is stale once the stepper has moved the game
        self._changed(new)

    def _after_person(self, new: list[Ruling]) -> None:
        self.stepper.message.value = ""
        if self.autoplay and not self.game.is_over:
            new = list(new) + self.game.advance("end")
        for hook in list(self.after_person):
            new = list(new) + list(hook())
        if self.game.is_over and self.game.result is not None:  # say it once, in place of "Applied: ..."
            self.chooser.message.value = _msg(f"The game is over: {self.game.result.title}.", "#1e4f7a")
        self._changed(new)

    def _changed(self, new: list[Ruling]) -> None:
        if self.analysis is not None:  # the board was for a position the game has left
            self.analysis.cancel()
            self.analysis, self.analysis_box.children = None, []
        if self.map is not None:
            with self.map.burst():  # one update of the browser's map (issue #31 item 5)
                self.map.update()
                if self.chooser.area is None and self.map.highlighted:
                    self.map.highlight([])  # the click's outline goes with its filter
        self.rulings.show(new)
        self.chooser.refresh()
        mine = self.chooser.enabled and self.autoplay
        self.advisor.disabled = not mine
        self.analyse_button.disabled = not mine
        self.advisor.tooltip = (
            self.ADVISOR_TIP if mine else "Advisor: not now (the game is over or waits for another player)"
        )
        self.stepper.refresh()
        self._show_scores()
        for cb in list(self._listeners):
            cb(list(new))
        for cb in list(self.on_changed):
            cb()

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
