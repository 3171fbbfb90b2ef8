"""What a student reads in the four apps names units and places, never internal ids (issue #31 item 3): the first
decisions of each game played through the app's own widgets (``PlayGame(..., lesson=True)`` as in
``notebooks/apps``), every text a student sees checked for an id-like token, a doubled side label and a number
with more than two decimals; and the game words of the apps and notebooks in ``notebooks/GLOSSARY.md``."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("bokeh")
pytest.importorskip("ipywidgets")

from tests.browser.playdrive import replica  # noqa: E402
from wargames.notebook.widgets import plain_numbers, prompt_text  # noqa: E402

_TAG = re.compile(r"<[^>]+>")
#: an internal id: lower-case words joined by underscores (``vc_mr5_hq``, ``op_sa``)
_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
#: a data file a ruling cites as its source (``data/row/tables/snafu_cup.csv``): a citation, not an id
_PATH = re.compile(r"\S+\.(?:csv|yaml|yml|md)\b")
_DOUBLED = re.compile(r"\b([A-Z][A-Za-z]+)\s*[:,]\s+\1\s*[:,]")
_FLOAT = re.compile(r"\b\d+\.\d{3,}\b")


def _plain(value: str) -> str:
    return html.unescape(_TAG.sub(" ", value))


def _student_texts(play) -> list[str]:
    """Every text the app shows a student now (with "Details" off, as it opens): where the game is, the prompt,
    the action list, the selected choice, the last message, the rulings, the scores and the lesson panel."""
    w = play.walk
    texts = [w.stepper.where.value, w.chooser.prompt.value, w.chooser.full.value, w.chooser.message.value]
    texts += [w.rulings.html.value, w.scores.value, w.stepper.message.value]
    texts += [w.chooser.label(a) for a in w.chooser.actions]
    panel = getattr(play, "panel", None)
    if panel is not None:
        texts += [b.description for b in getattr(panel, "boxes", {}).values()]
        texts += [getattr(panel.message, "value", "")]
        texts += [getattr(c.children[1], "value", "") for c in getattr(panel.plan_box, "children", ())]
    return [_plain(t) for t in texts]


def _faults(texts: list[str]) -> list[str]:
    out = []
    for t in texts:
        bare = _PATH.sub("", t)
        out += [
            f"id {m.group(0)!r} in: {t[max(0, m.start() - 60) : m.end() + 40]}" for m in _ID.finditer(bare)
        ]
        out += [f"doubled label in: {m.group(0)!r}" for m in _DOUBLED.finditer(t)]
        out += [
            f"float {m.group(0)} in: {t[max(0, m.start() - 40) : m.end() + 20]}" for m in _FLOAT.finditer(t)
        ]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl", "row"])
def test_issue31_first_decisions_of_each_app_show_names_not_ids(game_id):
    """Issue #31 item 3: play the first decisions of the app (a different choice each time) and read everything the student sees."""
    play = replica(game_id, lesson=True)
    faults: list[str] = []
    for k in range(5):
        w = play.walk
        faults += _faults(_student_texts(play))
        if not w.chooser.actions or not w.chooser.enabled:
            break
        w.chooser.choose((k * 7) % len(w.chooser.actions))
        w.chooser.apply_selected()
    assert not faults, "\n".join(dict.fromkeys(faults))


def test_plain_numbers_rounds_long_decimals_only():
    assert (
        plain_numbers("odds 0.166667, ratio 2.5, turn 12, 1.333333:1")
        == "odds 0.17, ratio 2.5, turn 12, 1.33:1"
    )
    assert plain_numbers("hex 3809, 2.000001 left") == "hex 3809, 2 left"


def test_prompt_text_drops_the_side_label_the_widget_already_shows():
    class D:
        side, prompt = "Capitalist", "Capitalist: declare the HQ mission"

    class G:
        pass

    assert prompt_text(G(), D()) == "declare the HQ mission"
    D.side, D.prompt = "VC", "VC, 1st Eligible on #76 Annam: choose"
    assert prompt_text(G(), D()) == "1st Eligible on #76 Annam: choose"
    D.prompt = "VCs move"  # the side's name without a separator is part of the sentence
    assert prompt_text(G(), D()) == "VCs move"
