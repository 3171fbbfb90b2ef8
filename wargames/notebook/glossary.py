"""The glossary in every app (issue #31 item 3): ``notebooks/GLOSSARY.md`` read into entries, shown in a folded
"Glossary" panel on the app's own page, and the game words a ruling uses marked so that pointing at one shows its
entry.

The file is data: each ``- **Term**: meaning`` bullet is an entry (every bold phrase in it is a term it explains,
"Poor / Penal" also as "Poor" and "Penal"); the ``##`` heading it sits under says which game uses it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: where the glossary lives in the repository (the apps are served from it)
GLOSSARY_PATH = Path(__file__).resolve().parents[2] / "notebooks" / "GLOSSARY.md"

#: the ``##`` heading of GLOSSARY.md whose words every game uses
SHARED = "Words every game uses"


@cache
def sections() -> dict[str, str | None]:
    """A ``##`` heading of GLOSSARY.md -> the game it is about (None: every game): each game's section is headed
    with the title it declares (``data/<game>/notebook.yaml``, issue #29 item 4)."""
    from ..core.presentation import ordered_games, presentation

    return {SHARED: None, **{presentation(g).title: g for g in ordered_games()}}


_BOLD = re.compile(r"\*\*([^*]+)\*\*")


@dataclass(frozen=True)
class Entry:
    """One glossary bullet: its terms, its text (Markdown) and the game it belongs to (None: every game)."""

    terms: tuple[str, ...]
    text: str
    game: str | None
    anchor: str

    @property
    def plain(self) -> str:
        """The entry as one line of plain text (a tooltip)."""
        return re.sub(r"[*`]", "", self.text)


def _variants(term: str) -> list[str]:
    """A bold phrase and its parts: "Poor / Penal" -> itself, "Poor", "Penal"."""
    parts = [p.strip() for p in re.split(r"\s*/\s*|,\s*", term) if p.strip()]
    words = [term.strip(), *parts]
    lower = [w[0].lower() + w[1:] for w in words if not w[:2].isupper()]  # "Spread" also as "spread"
    return list(dict.fromkeys([*words, *lower]))


@cache
def entries(path: Path = GLOSSARY_PATH) -> tuple[Entry, ...]:
    """The entries of the glossary file, in file order; a bullet without a bold term is a file error."""
    text = path.read_text(encoding="utf-8")
    out: list[Entry] = []
    game: str | None = None
    bullet: list[str] = []
    start = 0  # the line the open bullet starts on

    def close() -> None:
        if not bullet:
            return
        body = " ".join(b.strip() for b in bullet)[2:]
        bold = _BOLD.findall(body)
        if not bold:
            raise ValueError(f"{path.name} line {start}: a glossary entry names no **term**")
        terms = tuple(t for b in bold for t in _variants(b))
        out.append(Entry(terms, body, game, f"gl-{len(out)}"))
        bullet.clear()

    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            close()
            head = line[3:].strip()
            if head not in sections():
                raise ValueError(
                    f"{path.name} line {n}: unknown section {head!r} (known: {sorted(sections())})"
                )
            game = sections()[head]
        elif line.startswith("- "):
            close()
            bullet.append(line)
            start = n
        elif bullet and line.startswith("  ") and line.strip():
            bullet.append(line)
        else:
            close()
    close()
    return tuple(out)


def terms(game_id: str | None = None) -> dict[str, Entry]:
    """Every term the glossary explains for ``game_id`` (its own section and the shared one; None: all)."""
    out: dict[str, Entry] = {}
    for e in entries():
        if game_id is None or e.game in (None, game_id):
            for t in e.terms:
                out.setdefault(t, e)
    return out


def _inline(md: str) -> str:
    """Markdown inline marks of the glossary (bold, italic, code) as HTML."""
    s = html.escape(md, quote=False)
    s = _BOLD.sub(r"<b>\1</b>", s)
    s = re.sub(r"(?<![*\w])\*([^*]+)\*(?!\*)", r"<i>\1</i>", s)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", s)


def glossary_html(game_id: str | None = None) -> str:
    """The glossary as HTML: the shared words and ``game_id``'s own (None: every game), one list per section."""
    names = {g: h for h, g in sections().items()}
    parts = []
    for game in dict.fromkeys(e.game for e in entries()):
        if game_id is not None and game not in (None, game_id):
            continue
        items = "".join(
            f'<li id="{e.anchor}" style="margin:2px 0">{_inline(e.text)}</li>'
            for e in entries()
            if e.game == game
        )
        parts.append(
            f'<div style="font:bold 13px sans-serif;margin:6px 0 2px">{html.escape(names[game])}</div>'
            f'<ul style="margin:0 0 0 18px;padding:0">{items}</ul>'
        )
    return f'<div class="wg-glossary" style="font:13px sans-serif;line-height:1.35">{"".join(parts)}</div>'


def mark_terms(escaped: str, game_id: str | None) -> str:
    """``escaped`` (HTML-escaped text) with the first use of each glossary term of ``game_id`` marked: pointing at
    it shows the entry (a dotted underline, the entry as its tooltip).  Only whole words, case as written in the
    glossary; terms of one or two letters are left alone (too easily a word or a column letter)."""
    known = {t: e for t, e in terms(game_id).items() if len(t) > 2}
    if not known or not escaped:
        return escaped
    pattern = _pattern(tuple(sorted(known, key=len, reverse=True)))
    seen: set[str] = set()

    def mark(m: re.Match[str]) -> str:
        e = known[m.group(0)]
        if e.anchor in seen:
            return m.group(0)
        seen.add(e.anchor)
        tip = html.escape(e.plain, quote=True)
        return (
            f'<abbr class="wg-term" data-entry="{e.anchor}" title="{tip}" '
            f'style="text-decoration:underline dotted;cursor:help">{m.group(0)}</abbr>'
        )

    return pattern.sub(mark, escaped)


@cache
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w&#;-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])")


def glossary_panel(game_id: str | None = None):
    """A folded "Glossary" panel (an ipywidgets Accordion) with the glossary of ``game_id``, to open on the app's
    page without leaving it."""
    import ipywidgets as W

    try:
        body = glossary_html(game_id)
    except (OSError, ValueError) as err:
        body = f'<div style="font:13px sans-serif;color:#b00020">The glossary cannot be read: {html.escape(str(err))}</div>'
    box = W.HTML(body, layout=W.Layout(max_height="320px", overflow="auto", padding="0 6px"))
    panel = W.Accordion(children=[box], layout=W.Layout(width="100%", margin="0 0 6px 0"))
    panel.set_title(0, "Glossary: the game's words explained")
    panel.selected_index = None
    panel.add_class("wg-glossary-panel")
    return panel
