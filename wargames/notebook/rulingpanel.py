"""The ruling panel of the notebook widgets (issue #14): each ruling as a card in plain words (rule, inputs, dice,
result, the Non-player's reasons), grouped by step, and the plain-words helpers the prompts share.  The widgets
that use it are in :mod:`wargames.notebook.widgets`."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import ipywidgets as W

from ..core.rulings import Ruling, ruling_html
from .rulerefs import without_references


# ---------------------------------------------------------------------------------------------- RulingPanel
def _plain_card(r: Ruling, text: Callable[[str], str] = str, game_id: str | None = "") -> str:
    """A ruling in plain words: its title and explanation (no rule id, inputs or dice: see "Details"), with
    ``text`` (the game's ``display_text``) putting names for ids; an explanation that starts with the title again
    ("Reset: Reset: the Trail ...") starts after it (issue #31: no doubled labels).  ``game_id`` (not ""): the game
    words of the explanation explained where they are used (``glossary.mark_terms``) and the rule ids, decision ids
    and section numbers it cites left to the "Details" card (``rulerefs.without_references``)."""
    title, expl = text(str(r.title)), text(str(r.explanation))
    if game_id:  # the rule numbers sit behind "Details" (issue #31 item 3)
        title, expl = without_references(title, game_id), without_references(expl, game_id)
    if expl.startswith(title + ": ") and len(expl) > len(title) + 2:
        expl = expl[len(title) + 2 :]
        expl = expl[0].upper() + expl[1:]
    return (
        '<div class="wg-ruling" style="border-left:4px solid #8a6d3b;padding:2px 8px;margin:3px 0;'
        f'background:#fbf8f1;font:13px sans-serif"><b>{html.escape(title)}</b>: '
        f"{_marked(html.escape(expl), game_id)}</div>"
    )


def _marked(escaped: str, game_id: str | None) -> str:
    """``glossary.mark_terms`` where the glossary can be read ("" : no marks)."""
    if game_id == "":
        return escaped
    from .glossary import mark_terms

    try:
        return mark_terms(escaped, game_id)
    except (OSError, ValueError):  # no glossary file (an installed package): the text as it is
        return escaped


_FLOAT = re.compile(r"(?<![\w.])(\d+\.\d{3,})(?![\w.])")


def plain_numbers(text: str) -> str:
    """Numbers as a person writes them (issue #31): a decimal with more than two places (``0.166667``) rounded to
    two, without trailing zeros (``0.17``); every other number unchanged."""
    return _FLOAT.sub(lambda m: f"{float(m.group(1)):.2f}".rstrip("0").rstrip("."), text)


def _text(game, side: str | None = None) -> Callable[[str], str]:
    """The game's ``display_text`` as ``side`` reads it (names for ids; counters hidden from ``side`` stay hidden),
    with numbers as a person writes them (``plain_numbers``)."""
    fn = getattr(game, "display_text", None)
    return (lambda t: plain_numbers(fn(t, side))) if fn is not None else plain_numbers


def prompt_text(game, decision, side: str | None = None, *, details: bool = False) -> str:
    """A decision's prompt as ``side`` reads it after the deciding side's name: ``_text``, without the side's name
    the prompt itself starts with ("Capitalist: declare ...", "VC, 1st Eligible ..."), which the widgets already
    show in front of it (issue #31: no doubled labels), and without the rule numbers it cites unless ``details``
    (``rulerefs``: they sit behind "Details", issue #31 item 3)."""
    text = _text(game, side)(decision.prompt)
    if not details:
        text = without_references(text, getattr(game, "game_id", None))
    for sep in (": ", ", "):
        head = f"{decision.side}{sep}"
        if text.startswith(head) and len(text) > len(head):
            rest = text[len(head) :]
            return rest[:1].upper() + rest[1:]
    return text


def _reason_card(side: str, by: str, why: str) -> str:
    """A built-in player's reason, in the rulings panel between the rulings its decision led to."""
    who = "the advisor" if by == "advisor" else "the built-in player"
    return (
        '<div class="wg-reason" style="border-left:4px solid #6b8fb5;padding:1px 8px;margin:3px 0;'
        f'background:#f2f6fa;font:italic 12px sans-serif;color:#2f4a66">{html.escape(side)} '
        f"({who}) chose: {html.escape(why)}</div>"
    )


def _group_key(r: Ruling) -> tuple[int, str]:
    return (r.turn, r.phase)


class RulingPanel:
    """The latest rulings as cards, newest first (rule id, title, explanation, dice, table cell).

    ``side`` masks what that side may not know (``Ruling.for_side``).  A card that read a reconstructed
    table gets a hint saying so.  ``since`` (a callable giving a log index; play mode): show every ruling
    from that index on (what happened since the person's last decision), in a scrolling box, grouped by
    turn and phase (the heading names the sides that acted; clicking it folds the group), instead of the
    ``count`` newest.
    The "Details" box switches between plain cards (title and explanation) and full ones (rule id,
    inputs, dice, table cell, and the changes folded); plain is the default in play mode.
    In play mode the built-in players' reasons appear between the rulings their decisions led to, as far as
    ``side`` may read them (``game.reason_shown``); every text goes through ``game.display_text`` for ``side``
    (names, not ids; a counter hidden from ``side`` stays hidden).
    """

    LIMIT = 400  # more cards than this are summarised (a whole FitL campaign between two decisions is rare)

    def __init__(
        self,
        game,
        side: str | None = None,
        *,
        count: int = 6,
        height: str = "320px",
        since: Callable[[], int] | None = None,
        details: bool | None = None,
    ):
        self.game = game
        self.side = side
        self.count = count
        self.since = since
        self.html = W.HTML(
            layout=W.Layout(max_height=height, overflow="auto", border="1px solid #ddd", padding="2px 6px")
        )
        self.details = W.Checkbox(
            value=since is None if details is None else details,
            indent=False,
            description="Details (rule ids, inputs, dice, changes)",
            layout=W.Layout(width="auto"),
        )
        self.details.observe(lambda _c: self.show(self._new), names="value")
        self.widget = W.VBox([self.html, self.details]) if since is not None else self.html
        self.shown: list[Ruling] = []
        self._new: list[Ruling] = []
        self.show()

    def _card(self, r: Ruling, fresh: set[int]) -> str:
        text = _text(self.game, self.side)
        if self.details.value:
            card = ruling_html(r, text)
        else:
            card = _plain_card(r, text, getattr(self.game, "game_id", None))
        if r.seq in fresh:
            card = f'<div style="box-shadow:-3px 0 0 #ff7f0e">{card}</div>'
        if r.reconstructed and self.details.value:
            card += (
                '<div style="font:12px sans-serif;color:#8a5a00;margin:-2px 0 6px 12px">&#9888; This '
                f"ruling read a <b>reconstructed</b> table ({html.escape(r.lookup.source or r.lookup.table)})"
                ": its cells are our invention, not the published game's.</div>"
            )
        return card

    def _reasons(self, first: int) -> dict[int, list[str]]:
        """The built-in players' reasons for the decisions made since log index ``first``, as cards (in the order
        made) by the log length when each was made, as far as ``side`` may read them (``game.reason_shown``: in a
        game with hidden information the other side's reasons stay hidden; issue #19)."""
        g = self.game
        shown = getattr(g, "reason_shown", None)
        out: dict[int, list[str]] = {}
        for e in reversed(g.record):
            at = int(e["at"][0]) if "at" in e else -1
            if at < first:
                break
            why = e.get("why")
            if "act" not in e or not why or e.get("by") == "person":
                continue
            text = shown(e.get("side", ""), why, self.side) if shown is not None else why
            if text:
                text = plain_numbers(text)  # reason_shown has put names for ids already
                out.setdefault(at, []).insert(0, _reason_card(e.get("side", ""), e.get("by", ""), text))
        return out

    def show(self, new: list[Ruling] | None = None) -> None:
        """Show the latest rulings; those in ``new`` (just made) are marked as new."""
        self._new = list(new or [])
        log = self.game.log
        if self.since is not None:
            start = min(max(0, self.since()), len(log))
            chosen = log[start:]
        else:
            chosen = log[-self.count :]
        cut = max(0, len(chosen) - self.LIMIT)
        latest = [r.for_side(self.side) for r in reversed(chosen[cut:])]
        fresh = {r.seq for r in self._new}
        self.shown = latest
        parts = []
        if self.since is not None:  # grouped: turn, phase and side, newest group first
            n = len(log)
            reasons = self._reasons(n - len(latest))  # newest first: a decision made at log length i sits
            groups: list[
                tuple[tuple[int, str], list[Ruling | str]]
            ] = []  # between rulings i (above) and i - 1
            for k, r in enumerate(latest):
                items: list[Ruling | str] = [*reversed(reasons.get(n, []))] if k == 0 else []
                items += [r, *reversed(reasons.get(n - 1 - k, []))]
                if groups and groups[-1][0] == _group_key(r):
                    groups[-1][1].extend(items)
                else:
                    groups.append((_group_key(r), items))
            for (turn, phase), rs in groups:
                head = (f"{self.game.sequence.turn_name} {turn}" if turn else "Set-up") + (
                    f", {phase}" if phase else ""
                )
                rulings = [r for r in rs if isinstance(r, Ruling)]
                sides = sorted({r.side for r in rulings if r.side})
                head += f" \u2014 {', '.join(sides)}" if sides else ""
                cards = "".join(self._card(r, fresh) if isinstance(r, Ruling) else r for r in rs)
                parts.append(
                    f'<details open style="margin:2px 0"><summary style="font:bold '
                    f'12px sans-serif;color:#3d3d3d;cursor:pointer">{html.escape(head)}'
                    f" ({len(rulings)} ruling{'s' if len(rulings) != 1 else ''})</summary>{cards}</details>"
                )
        else:
            parts = [self._card(r, fresh) for r in latest]
        if cut:
            parts.append(
                f'<div style="font:12px sans-serif;color:#555">&hellip; and {cut} earlier ruling(s), '
                "not shown here.</div>"
            )
        if not parts:
            parts.append("<i>No rulings yet.</i>")
        if self.since is not None:
            since = "Since your last decision" if start else "Since the start of the game"
            title = (
                f'<div style="font:bold 13px sans-serif;margin:2px 0">{since}: '
                f"{len(chosen)} ruling(s), newest first (scroll for more; click a heading to fold it)</div>"
            )
        else:
            title = (
                f'<div style="font:bold 13px sans-serif;margin:2px 0">Latest rulings, newest first '
                f"({len(log)} so far)</div>"
            )
        self.html.value = f'<div style="line-height:1.35">{title}{"".join(parts)}</div>'

    def _repr_mimebundle_(self, **kw):
        return self.widget._repr_mimebundle_(**kw)
