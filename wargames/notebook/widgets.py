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
from ..core.rulings import Ruling, ruling_html

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

    TIPS = {"step": "Next ruling", "next_phase": "Run to the start of the next phase",
            "next_turn": "Run to the start of the next turn", "play": "Play to the end (stops at decisions of a person)",
            "back": "Undo the last decision", "go": "Jump to the start of that turn"}

    def __init__(self, game, person: str | None = None):
        self.game = game
        self.person = person
        self._listeners: list[Listener] = []
        lay = W.Layout(width="auto")
        self.step = W.Button(description="Step", tooltip="Next ruling", button_style="primary", icon="step-forward",
                             layout=lay)
        self.next_phase = W.Button(description="Next phase", tooltip="Run to the start of the next phase",
                                   icon="forward", layout=lay)
        self.next_turn = W.Button(description="Next turn", tooltip="Run to the start of the next turn",
                                  icon="fast-forward", layout=lay)
        self.back = W.Button(description="Back", tooltip="Undo the last decision", icon="undo", layout=lay)
        turns = game.sequence.turns or 99
        self.turn_box = W.BoundedIntText(value=max(1, game.turn), min=1, max=turns, description="Jump to turn",
                                         style={"description_width": "auto"}, layout=W.Layout(width="150px"))
        self.go = W.Button(description="Go", tooltip="Jump to the start of that turn", layout=W.Layout(width="50px"))
        self.play = W.Button(description="Play", tooltip="Play to the end (stops at decisions of a person)",
                             icon="play", layout=lay)
        self.where = W.HTML()
        self.message = W.HTML()
        self.step.on_click(lambda _b: self._run(lambda: self.game.advance("ruling")))
        self.next_phase.on_click(lambda _b: self._run(lambda: self.game.advance("phase")))
        self.next_turn.on_click(lambda _b: self._run(lambda: self.game.advance("turn")))
        self.back.on_click(lambda _b: self._run(self._undo))
        self.go.on_click(lambda _b: self._run(lambda: self.jump(self.turn_box.value)))
        self.play.on_click(lambda _b: self._run(lambda: self.game.advance("end")))
        self.widget = W.VBox([
            W.HBox([self.step, self.next_phase, self.next_turn, self.back, self.play, self.turn_box, self.go],
                   layout=W.Layout(flex_flow="row wrap")),
            self.where, self.message,
        ])
        self.refresh()

    def on_change(self, callback: Listener) -> None:
        self._listeners.append(callback)

    def person_decisions(self) -> list[int]:
        """Indexes in ``game.record`` of the decisions a person made (by the chooser or ``game.apply``)."""
        return [i for i, e in enumerate(self.game.record) if "act" in e and e.get("by") == "person"]

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
        acts = [j for j, e in enumerate(g.record) if "act" in e and j >= i]
        act = Action.from_json(g.record[i]["act"])
        g.undo(len(acts))
        again = g.decision.find(act) if g.decision is not None else None
        label = (again.label if again is not None else "") or act.label or act.kind
        replies = len(acts) - 1
        what = (f"your decision \u201c{label}\u201d and the {replies} built-in decision(s) after it were"
                if replies else f"your decision \u201c{label}\u201d was")
        self.message.value = _msg(f"Back: {what} taken back ({n - len(g.log)} ruling(s)). "
                                  "It is your decision again.")
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
        if not new and not self.message.value and self.game.decision is not None \
                and self.game.player_for(self.game.decision.side) is None:
            self.message.value = _msg(f"Waiting for the {self.game.decision.side} player to decide "
                                      "(use the action chooser).", "#8a5a00")
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
            status = f"{d.side} to decide ({who}): {d.prompt} [{d.rule_id}], {len(d.options)} legal actions"
        else:
            status = "between rulings"
        self.where.value = (f'<div style="font-family:sans-serif;font-size:14px"><b>{html.escape(g.where())}</b>'
                            f' &mdash; {html.escape(status)}</div>')
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
            self.back.tooltip = ("Take back your last decision and the built-in replies after it" if can_back
                                 else "Back: not yet, you have made no decision")
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


# ---------------------------------------------------------------------------------------------- RulingPanel
class RulingPanel:
    """The latest rulings as cards, newest first (rule id, title, explanation, dice, table cell).

    ``side`` masks what that side may not know (``Ruling.for_side``).  A card that read a reconstructed
    table gets a hint saying so.  ``since`` (a callable giving a log index; play mode): show every ruling
    from that index on (what happened since the person's last decision), in a scrolling box, instead of
    the ``count`` newest.
    """

    LIMIT = 400  # more cards than this are summarised (a whole FitL campaign between two decisions is rare)

    def __init__(self, game, side: str | None = None, *, count: int = 6, height: str = "320px",
                 since: Callable[[], int] | None = None):
        self.game = game
        self.side = side
        self.count = count
        self.since = since
        self.html = W.HTML(layout=W.Layout(max_height=height, overflow="auto", border="1px solid #ddd",
                                           padding="2px 6px"))
        self.widget = self.html
        self.shown: list[Ruling] = []
        self.show()

    def show(self, new: list[Ruling] | None = None) -> None:
        """Show the latest rulings; those in ``new`` (just made) are marked as new."""
        log = self.game.log
        if self.since is not None:
            start = min(max(0, self.since()), len(log))
            chosen = log[start:]
        else:
            chosen = log[-self.count:]
        cut = max(0, len(chosen) - self.LIMIT)
        latest = [r.for_side(self.side) for r in reversed(chosen[cut:])]
        fresh = {r.seq for r in (new or [])}
        self.shown = latest
        parts = []
        for r in latest:
            card = ruling_html(r)
            if r.seq in fresh:
                card = f'<div style="box-shadow:-3px 0 0 #ff7f0e">{card}</div>'
            parts.append(card)
            if r.reconstructed:
                parts.append('<div style="font:12px sans-serif;color:#8a5a00;margin:-2px 0 6px 12px">&#9888; This '
                             f"ruling read a <b>reconstructed</b> table ({html.escape(r.lookup.source or r.lookup.table)})"
                             ": its cells are our invention, not the published game's.</div>")
        if cut:
            parts.append(f'<div style="font:12px sans-serif;color:#555">&hellip; and {cut} earlier ruling(s), '
                         "not shown here.</div>")
        if not parts:
            parts.append("<i>No rulings yet.</i>")
        if self.since is not None:
            since = "Since your last decision" if start else "Since the start of the game"
            title = (f'<div style="font:bold 13px sans-serif;margin:2px 0">{since}: '
                     f'{len(chosen)} ruling(s), newest first (scroll for more)</div>')
        else:
            title = (f'<div style="font:bold 13px sans-serif;margin:2px 0">Latest rulings, newest first '
                     f'({len(log)} so far)</div>')
        self.html.value = f'<div style="line-height:1.35">{title}{"".join(parts)}</div>'

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
        self.area: str | None = None
        self._listeners: list[Listener] = []
        self.actions: list[Action] = []
        self.prompt = W.HTML()
        self.select = W.Select(options=[], rows=rows, layout=W.Layout(width="96%"))
        self.apply_button = W.Button(description="Apply", button_style="success", icon="check")
        self.clear_button = W.Button(description="Show all", tooltip="Forget the map filter")
        self.message = W.HTML()
        self.apply_button.on_click(lambda _b: self.apply_selected())
        self.clear_button.on_click(lambda _b: self.filter_area(None))
        self.widget = W.VBox([self.prompt, self.select, W.HBox([self.apply_button, self.clear_button]),
                              self.message])
        self.refresh()

    def on_change(self, callback: Listener) -> None:
        self._listeners.append(callback)

    @property
    def enabled(self) -> bool:
        d = self.game.decision
        return d is not None and (self.side is None or d.side == self.side)

    def filter_area(self, area: str | None) -> None:
        self.area = area
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
            if self.area is not None and not acts:
                note = f" None of them concerns {self.area}; showing all."
                acts = everything
            elif self.area is not None:
                note = f" Showing the {len(acts)} that concern {self.area} (map click)."
            else:
                note = ""
            self.actions = acts
            mine = "" if self.enabled else f" (not yours to decide: you play {self.side})"
            self.prompt.value = (f'<div style="font-family:sans-serif;font-size:13px;line-height:1.35"><b>{html.escape(d.side)}</b>: '
                                 f"{html.escape(d.prompt)} [{html.escape(d.rule_id)}] &mdash; {len(everything)} legal "
                                 f"actions.{html.escape(note)}{html.escape(mine)}</div>")
        self.select.options = [(a.label or a.kind, i) for i, a in enumerate(self.actions)]
        self.select.value = 0 if self.actions else None
        on = self.enabled and bool(self.actions)
        self.select.disabled = not on
        self.apply_button.disabled = not on
        self.clear_button.disabled = self.area is None

    def choose(self, label_or_index: str | int) -> None:
        """Select an action in the list by its label or position (as a click on the list would)."""
        if isinstance(label_or_index, int):
            self.select.value = label_or_index
            return
        for i, a in enumerate(self.actions):
            if a.label == label_or_index:
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
        self.message.value = _msg(f"Applied: {getattr(action, 'label', action)}", "#1e6b2e")
        self.area = None
        self.refresh()
        for cb in list(self._listeners):
            cb(list(new))
        return new

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)


# ---------------------------------------------------------------------------------------------- Walkthrough
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

    def __init__(self, game, human: str | None = None, *, map_height: int = 750, insets: bool = True,
                 autoplay: bool = False):
        self.game = game
        self.human = human
        self.autoplay = autoplay and human is not None
        if human is not None:
            game.set_players({human: None})
        self.map = map_for(game, human, height=map_height, insets=insets)
        self.stepper = Stepper(game, person=human if self.autoplay else None)
        self.rulings = RulingPanel(game, side=human, since=self._since_my_decision if self.autoplay else None)
        self.chooser = ActionChooser(game, side=human)
        self.scores = W.HTML()
        self.stepper.on_change(self._after_stepper)
        self.chooser.on_change(self._after_person)
        if self.map is not None:
            self.map.on_pick(self.chooser.filter_area)
            self.chooser.clear_button.on_click(lambda _b: self.map.highlight([]))
        self.rulings.html.layout.max_height = "260px"
        self.rulings.widget.layout.width = "57%"
        self.chooser.widget.layout.width = "41%"
        self.chooser.widget.layout.margin = "0 0 0 1%"
        panels = W.HBox([self.rulings.widget, self.chooser.widget], layout=W.Layout(width="100%"))
        parts = [self.stepper.widget, self.scores, panels]
        if self.map is not None:
            parts.append(self.map.widget)
        self.widget = W.VBox(parts)
        self._show_scores()

    def _show_scores(self) -> None:
        s = self.game.scores()
        txt = ", ".join(f"<b>{html.escape(str(k))}</b> {html.escape(str(v))}" for k, v in s.items())
        self.scores.value = f'<div style="font-family:sans-serif;font-size:13px">Scores: {txt}</div>'

    def play_to_my_turn(self) -> list[Ruling]:
        """Let the built-in players act until the person's side must decide (or the game ends)."""
        new = self.game.advance("end")
        self._changed(new)
        return new

    def _since_my_decision(self) -> int:
        """The log index of the person's last decision (0 before the first: everything so far)."""
        mine = self.stepper.person_decisions()
        return int(self.game.record[mine[-1]]["at"][0]) if mine else 0

    def _after_stepper(self, new: list[Ruling]) -> None:
        self.chooser.message.value = ""  # an "Applied: ..." line is stale once the stepper has moved the game
        self._changed(new)

    def _after_person(self, new: list[Ruling]) -> None:
        self.stepper.message.value = ""
        if self.autoplay and not self.game.is_over:
            new = list(new) + self.game.advance("end")
        self._changed(new)

    def _changed(self, new: list[Ruling]) -> None:
        if self.map is not None:
            self.map.update()
            if self.chooser.area is None and self.map.highlighted:
                self.map.highlight([])  # the click's outline goes with its filter
        self.rulings.show(new)
        self.chooser.refresh()
        self.stepper.refresh()
        self._show_scores()

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
