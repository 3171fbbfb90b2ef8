"""The lesson panel: lesson-sized play in every app (issue #31), on top of :class:`wargames.core.lesson.Lesson`.

Under the action list of a play-mode :class:`~wargames.notebook.widgets.Walkthrough` it adds

* **Who decides what**: a tick box per decision kind the game declares (``data/<game>/decision_kinds.csv``);
  ticked kinds are the student's, the others the Advisor makes at once, each with its reason in the rulings;
* **Advisor's plan**: the Advisor's plan for the rest of the phase (or this activation) as a list of orders,
  each one kept or dropped with its tick box, then **Confirm plan**;
* **Give several orders**: several choices of the pending decision picked at once (in the list, or after a map
  click has filtered it), given in that order with **Give these orders**.

Every decision made this way is an ordinary decision in the game's record; **Back** takes back one press.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..core.actions import WargamesError
from ..core.lesson import Lesson, Outcome, Plan
from .widgets import Walkthrough, _msg


class LessonPanel:
    """Lesson-sized play for the person's side of ``walk`` (a play-mode Walkthrough)."""

    def __init__(self, walk: Walkthrough, mine: set[str] | None = None):
        if walk.human is None or not walk.autoplay:
            raise WargamesError(
                "lesson-sized play needs a Walkthrough in play mode (a side played by a person)"
            )
        self.walk = walk
        self.game = walk.game
        self.lesson = Lesson(walk.game, walk.human, mine)
        self.plan_now: Plan | None = None
        self.order_boxes: list[W.Checkbox] = []
        style = {"description_width": "initial"}
        self.boxes: dict[str, W.Checkbox] = {}
        rows = sorted(self.lesson.kinds.values(), key=lambda r: (r.level != "commander", r.name))
        for r in rows:
            box = W.Checkbox(
                value=r.kind in self.lesson.mine,
                description=r.name,
                indent=False,
                style=style,
                layout=W.Layout(width="48%"),
                tooltip=r.explanation,
            )
            box.observe(lambda c, kind=r.kind: self._set_mine(kind, c["new"]), names="value")
            self.boxes[r.kind] = box
        who = W.VBox(
            [
                W.HTML(
                    '<div style="font:13px sans-serif">Ticked: you decide. Not ticked: the Advisor decides at '
                    "once and says why in the rulings (Back takes it back).</div>"
                ),
                W.HBox(list(self.boxes.values()), layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.settings = W.Accordion(children=[who], layout=W.Layout(width="96%"))
        self.settings.add_class("wg-who")
        self.settings.set_title(0, "Who decides what")
        self.settings.selected_index = None
        lay = W.Layout(width="auto")
        self.plan_button = W.Button(
            description="Advisor's plan",
            icon="list",
            layout=lay,
            tooltip="The Advisor's orders for the rest of this phase or activation: keep or drop each, then confirm",
        )
        self.confirm_button = W.Button(
            description="Confirm plan", icon="check-square", button_style="success", layout=lay
        )
        self.cancel_button = W.Button(description="Cancel plan", icon="times", layout=lay)
        self.several = W.SelectMultiple(options=[], rows=6, layout=W.Layout(width="96%"))
        self.orders_button = W.Button(
            description="Give these orders",
            icon="share-square",
            layout=lay,
            tooltip="Give every choice picked in the box above, in that order (Ctrl or Shift + click picks several)",
        )
        self.plan_box = W.VBox(layout=W.Layout(max_height="260px", overflow="auto", width="96%"))
        self.plan_box.add_class("wg-plan")
        self.message = W.HTML()
        self.plan_button.on_click(lambda _b: self.show_plan())
        self.confirm_button.on_click(lambda _b: self.confirm())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.orders_button.on_click(lambda _b: self.give_orders())
        self.several_box = W.VBox(
            [
                W.HTML(
                    '<div style="font:13px sans-serif;margin-top:4px"><b>Several orders at once</b>: '
                    "pick them here (Ctrl or Shift + click), then give them.</div>"
                ),
                self.several,
                self.orders_button,
            ]
        )
        self.widget = W.VBox(
            [
                W.HBox([self.plan_button, self.confirm_button, self.cancel_button]),
                self.plan_box,
                self.message,
                self.several_box,
                self.settings,
            ],
            layout=W.Layout(border="1px solid #c9d6e3", padding="4px", margin="6px 0 0 0"),
        )
        self.widget.add_class("wg-lesson")
        walk.chooser.widget.children = (*walk.chooser.widget.children, self.widget)
        walk.after_person.append(self._after_person)
        walk.on_changed.append(self.refresh)
        if walk.map is not None:
            walk.map.on_pick(lambda _area: self.refresh())
        walk.chooser.clear_button.on_click(lambda _b: self.refresh())
        self.walk._changed(self.lesson.delegate().rulings)

    # ------------------------------------------------------------------ state
    def _set_mine(self, kind: str, mine: bool) -> None:
        self.lesson.set_mine(kind, mine)
        self.lesson.presses += 1
        if not mine and self.lesson.waiting and self.game.decision.kind == kind:
            self._done(self.lesson.delegate(), "")

    def _after_person(self) -> list[Any]:
        """After an Apply in the chooser: the Advisor's delegated decisions, in the same Back step."""
        g = self.game
        self.lesson.presses += 1
        last = next((e for e in reversed(g.record) if "act" in e and e.get("by") == "person"), None)
        run = self.lesson._new_run()
        if last is not None and "advice" not in last:
            last["advice"] = run
        out = self.lesson.delegate(run)
        self._say(out, "")
        return out.rulings

    def refresh(self) -> None:
        """Enable what can act now; the several-orders box lists the chooser's (map-filtered) choices."""
        mine = self.lesson.waiting
        self.plan_button.disabled = not mine
        if self.plan_now is not None and self.game.position != self.plan_now.at:
            self.cancel()
        planning = self.plan_now is not None
        self.confirm_button.disabled = not planning
        self.cancel_button.disabled = not planning
        acts = self.walk.chooser.actions if mine else []
        self.several.options = [(self.walk.chooser.label(a), i) for i, a in enumerate(acts)]
        self.several.value = ()
        self.orders_button.disabled = not acts

    # ------------------------------------------------------------------ buttons
    def show_plan(self) -> Plan | None:
        """Ask the Advisor for a plan and show its orders, each with a keep/drop tick box."""
        try:
            plan = self.lesson.plan()
        except WargamesError as err:
            self.message.value = _msg(f"No plan: {err}", "#b00020")
            return None
        self.plan_now = plan
        rows, self.order_boxes = [], []
        for i, order in enumerate(plan.orders):
            box = W.Checkbox(value=True, indent=False, layout=W.Layout(width="28px", min_width="28px"))
            box.observe(lambda c, i=i: self.lesson.drop(plan, i, keep=c["new"]), names="value")
            why = order.steps[0].why
            text = W.HTML(
                f'<div style="font:13px sans-serif;line-height:1.3;white-space:normal">{i + 1}. '
                f"{html.escape(order.label)}"
                + (
                    f' <span style="color:#2f4a66;font-style:italic">&mdash; {html.escape(why)}</span>'
                    if why
                    else ""
                )
                + "</div>",
                layout=W.Layout(width="auto", flex="1 1 auto"),
            )
            row = W.HBox([box, text], layout=W.Layout(width="100%", align_items="flex-start"))
            row.add_class("wg-order")
            rows.append(row)
            self.order_boxes.append(box)
        self.plan_box.children = rows
        self.message.value = (
            '<div style="font:13px sans-serif;color:#1e4f7a">The Advisor\'s plan for '
            f"{html.escape(plan.scope)}: {len(plan.orders)} order(s). Untick an order to drop it; "
            "<b>Confirm plan</b> gives the ticked ones.</div>"
        )
        self.refresh()
        return plan

    def drop(self, index: int) -> None:
        """Untick order ``index`` of the shown plan (as a click on its box would)."""
        self.order_boxes[index].value = False

    def cancel(self) -> None:
        self.plan_now = None
        self.plan_box.children = ()
        self.confirm_button.disabled = self.cancel_button.disabled = True

    def confirm(self) -> Outcome | None:
        """Give the kept orders of the shown plan."""
        if self.plan_now is None:
            self.message.value = _msg("Ask for the Advisor's plan first.", "#b00020")
            return None
        plan, self.plan_now = self.plan_now, None
        self.plan_box.children = ()
        try:
            out = self.lesson.confirm(plan)
        except WargamesError as err:
            self.message.value = _msg(f"The plan was not given: {err}", "#b00020")
            self.refresh()
            return None
        self._done(out, f"{sum(o.keep for o in plan.orders)} order(s) of the plan given")
        return out

    def pick(self, indexes: list[int]) -> None:
        """Pick choices in the several-orders box by position (as Ctrl + clicks would)."""
        self.several.value = tuple(indexes)

    def give_orders(self) -> Outcome | None:
        """Give every picked choice of the several-orders box, in the order listed."""
        acts = self.walk.chooser.actions
        picked = [acts[i] for i in sorted(self.several.value) if i < len(acts)]
        self.lesson.presses += len(picked)
        try:
            out = self.lesson.orders(picked)
        except WargamesError as err:
            self.message.value = _msg(f"No orders given: {err}", "#b00020")
            return None
        self._done(out, f"{len(picked)} order(s) picked")
        return out

    # ------------------------------------------------------------------ reporting
    def _say(self, out: Outcome, head: str) -> None:
        made = out.made
        if not made and not out.stopped and not head:
            self.message.value = ""
            return
        items = "".join(
            f"<li>{html.escape(lbl)}"
            + (" <i>(the Advisor)</i>" if by == "advisor" else "")
            + (f" &mdash; <i>{html.escape(w)}</i>" if w else "")
            + "</li>"
            for lbl, by, w in made[:10]
        )
        more = f"<li>&hellip; and {len(made) - 10} more</li>" if len(made) > 10 else ""
        stop = f"<div>{html.escape(out.stopped[:1].upper() + out.stopped[1:])}.</div>" if out.stopped else ""
        self.message.value = (
            f'<div style="font:13px sans-serif;color:#1e4f7a">{html.escape(head)}'
            f"{': ' if head else ''}{len(made)} decision(s) made"
            f'<ul style="margin:2px 0 2px 18px;padding:0">{items}{more}</ul>{stop}Back takes them back.</div>'
        )

    def _done(self, out: Outcome, head: str) -> None:
        self._say(out, head)
        self.walk.chooser.area = None
        self.walk.chooser.message.value = ""
        self.walk._changed(list(out.rulings))
