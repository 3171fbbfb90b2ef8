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
@pytest.mark.parametrize(
    ("game_id", "side", "decisions"),
    [
        ("tet", None, 5),
        ("yotr", None, 5),
        ("fitl", None, 5),
        ("row", None, 5),
        ("tet", "Communist", 3),
        ("yotr", "Communist", 3),
        ("fitl", "US", 3),
        ("row", "Communist", 3),
    ],
)
def test_issue31_first_decisions_of_each_app_show_names_not_ids(game_id, side, decisions):
    """Issue #31 item 3: play the first decisions of the app as its default side and as the other (a different
    choice each time) and read everything the student sees."""
    play = replica(game_id, lesson=True) if side is None else replica(game_id, side=side, lesson=True)
    faults: list[str] = []
    for k in range(decisions):
        w = play.walk
        faults += _faults(_student_texts(play))
        if not w.chooser.actions or not w.chooser.enabled:
            break
        w.chooser.choose((k * 7) % len(w.chooser.actions))
        w.chooser.apply_selected()
    assert not faults, "\n".join(dict.fromkeys(faults))


def test_issue31_fitl_and_yotr_texts_name_pieces_boxes_and_supply_states():
    import wargames

    f = wargames.load("fitl", seed=1)
    assert f.display_text("1 arvn_police to out_of_play; US (op_sa), VC (limited)") == (
        "1 ARVN Police to Out of Play; US (Operation with a Special Activity), VC (Limited Operation)"
    )
    y = wargames.load("yotr", seed=1)
    assert y.display_text("Supply states: attack_supply 26") == "Supply states: Attack Supply 26"
    assert y.display_text("Attack on 3609 declared") == "Attack on Camp Carroll (3609) declared"
    assert y.display_text("Hue (3809) holds; 2 hex(es) from 4050") == "Hue (3809) holds; 2 hex(es) from 4050"


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

    assert prompt_text(G(), D()) == "Declare the HQ mission"  # the first letter capitalised
    D.side, D.prompt = "VC", "VC, 1st Eligible on #76 Annam: choose"
    assert prompt_text(G(), D()) == "1st Eligible on #76 Annam: choose"
    D.prompt = "VCs move"  # the side's name without a separator is part of the sentence
    assert prompt_text(G(), D()) == "VCs move"


# ------------------------------------------------------------------------------------------- the glossary
#: game words the apps and notebooks use (found by playing the apps' first decisions and reading the notebooks),
#: each of which GLOSSARY.md must explain, by game (None: every game)
TERMS_USED = {
    None: ["Ruling", "Seed", "Advisor", "MP", "CRT", "Odds", "ARVN", "NVA", "VC", "DMZ", "Corps area", "d6"],
    "tet": [
        "Demoralization",
        "CF",
        "DF",
        "Sanctuary",
        "Ruff Puff",
        "COSVN",
        "MAB",
        "Area battle",
        "fire group",
        "SVN",
        "VNMC",
    ],
    "yotr": ["Hex", "ZOC", "Dummy", "VP", "Battlegroup", "Retreat", "Game-Turn", "ROK", "NLF", "BRT"],
    "fitl": [
        "COIN",
        "Eligible",
        "Event",
        "SA",
        "RVN",
        "Limited Operation",
        "Agitation",
        "Coup Round",
        "Policy",
    ],
    "row": [
        "COM-FF",
        "COM-KOK",
        "CAP-AMMO",
        "Spread",
        "spread",
        "Poor",
        "Penal",
        "Elite",
        "SNAFU",
        "Mug",
        "Chit",
        "HQ",
        "HQ mission",
        "LoC",
        "OOC",
        "Reserve move",
        "Trail status",
        "PAVN",
        "Capitalist",
        "Communist",
        "Bunker",
        "Fortification",
        "Ammo Shortage",
        "Fuel Out",
        "VP",
        "AEW",
        "SAM",
        "PRC",
        "SFG",
        "RE",
        "D10",
    ],
}


@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl", "row"])
def test_issue31_glossary_explains_every_game_word_the_apps_use(game_id):
    from wargames.notebook.glossary import terms

    known = terms(game_id)
    missing = [t for t in TERMS_USED[None] + TERMS_USED[game_id] if t not in known]
    assert not missing, f"GLOSSARY.md has no entry for {missing}"


def test_issue31_glossary_panel_is_on_every_app_page_and_a_ruling_term_shows_its_entry():
    from wargames.core.rulings import Ruling
    from wargames.notebook.glossary import glossary_html
    from wargames.notebook.rulingpanel import _plain_card

    for game_id in ("tet", "row"):
        assert "<li" in glossary_html(game_id)
    assert "Spread" in glossary_html("row") and "Spread" not in glossary_html("tet")  # each app its own words
    play = replica("row", lesson=True)
    panel = play.widget.children[1]
    assert play.glossary is panel and panel.get_title(0).startswith("Glossary")
    assert panel.selected_index is None and "COM-FF" in panel.children[0].value  # folded, one click away
    r = Ruling(rule_id="ROW-5.6", title="Spread", explanation="The spread is 3; the loser is Poor.")
    card = _plain_card(r, str, "row")
    assert (
        card.count('class="wg-term"') == 2 and "the losses the loser" in card
    )  # spread, Poor: their entries


def test_glossary_entry_without_a_term_is_an_error_naming_the_line(tmp_path):
    from wargames.notebook.glossary import entries

    p = tmp_path / "GLOSSARY.md"
    p.write_text(
        "# Glossary\n\n## Year of the Rat\n\n- **Hex**: a cell.\n- a line with no term\n", encoding="utf-8"
    )
    with pytest.raises(ValueError, match="line 6: a glossary entry names no"):
        entries(p)
    p.write_text("## Chess\n\n- **Pawn**: a piece.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: unknown section 'Chess'"):
        entries(p)


# ------------------------------------------------------------------------------------------- rule numbers
#: what a rule reference looks like in a prompt or label, found without the game's own lists: anything in square
#: brackets, a rule id of one of the four games (``FITL-3.3.1``, ``TET-P2-3``, ``YOTR-MOV-M``), a decision id
#: (``R-GAME-07``, ``A-35``: a capital, a hyphen and a number or a capitalised word with a number) and a section
#: number in parentheses (``(1.5.2)``, ``(4.2, ...``)
_RULE_REF = re.compile(
    r"\[[^\]]*\]|\b(?:TET|YOTR|FITL|ROW)-[A-Z0-9]+(?:[-.][A-Z0-9]+)*\b|\b[A-Z]-(?:[A-Z]+-)?\d+\b"
    r"|\(\s*\d+(?:\.\d+)+[a-z]?\s*[,;)]"
)


def _rule_ref_faults(game_id: str, texts: list[str]) -> list[str]:
    from wargames.notebook.rulerefs import references

    refs = references(game_id)
    out = []
    for t in texts:
        for m in _RULE_REF.finditer(t):
            token = m.group(0).strip("[]()\t ,;")
            # a unit called like a decision id (Rumor of War's ARVN "R-20" battalion) is a name, not a reference
            if (
                m.group(0).startswith(("[", "("))
                or token in refs
                or "-" not in token
                or not token[2:].isdigit()
            ):
                out.append(f"{m.group(0)!r} in: {t[:120]}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl", "row"])
def test_issue31_item3_no_rule_numbers_in_the_prompts_and_labels_of_a_sampled_game(game_id):
    """Issue #31 item 3: a sampled game of each game (random players, 250 decisions): every decision's prompt and
    every legal action's label as the deciding side reads them with "Details" off carry no rule id, decision id
    or section number; the chooser's prompt shows the decision's rule only with "Details" on."""
    import wargames
    from wargames.core.players import RandomPlayer
    from wargames.notebook.widgets import ActionChooser

    game = wargames.load(game_id, None, 3)
    game.set_players({s: None for s in game.sides})
    players = {s: RandomPlayer(7 + i) for i, s in enumerate(game.sides)}
    choosers = {s: ActionChooser(game, s) for s in game.sides}
    for c in choosers.values():
        c.details = False
    faults: list[str] = []
    for n in range(250):
        while game.decision is None and not game.is_over:
            game.advance("decision")
        if game.is_over:
            break
        d = game.decision
        chooser = choosers[d.side]
        labels = [chooser.label(a) for a in game.legal_actions()]
        faults += _rule_ref_faults(game_id, [prompt_text(game, d, d.side), *labels])
        if n % 50 == 0:
            chooser.refresh()
            faults += _rule_ref_faults(game_id, [_plain(chooser.prompt.value)])
            chooser.details = True
            chooser.refresh()
            assert f"[{d.rule_id}]" in chooser.prompt.value  # behind "Details"
            chooser.details = False
        game.apply(players[d.side].choose(game, d))
    assert not faults, "\n".join(dict.fromkeys(faults))


def test_issue31_item3_rule_references_leave_the_words_and_the_unit_names():
    from wargames.notebook.rulerefs import without_references

    assert without_references("Rally (FITL-3.3.1)", "fitl") == "Rally"
    assert without_references("First give NVA up to 5 VC Resources (1.5.2)", "fitl") == (
        "First give NVA up to 5 VC Resources"
    )
    assert without_references("Reserve move of Group 559 HQ (5 MP, R-HQ-02)", "row") == (
        "Reserve move of Group 559 HQ (5 MP)"
    )
    assert without_references("Air war not in play [R-SCN-08]", "row") == "Air war not in play"
    # unit and marker names that look like ids stay; a bare number outside brackets is a value, not a section
    for text in (
        "Move R-20 (Doc Lap) Battalion",
        "Place CAP-FUEL on 11th ARVN Ranger Battalion?",
        "odds 1.5",
    ):
        assert without_references(text, "row") == text
    assert without_references("Move Arc Light (B-52)", "tet") == "Move Arc Light (B-52)"
    assert without_references("anything (1.5.2)", None) == "anything (1.5.2)"


def test_issue31_item3_details_box_shows_the_rule_ids_in_the_prompt_and_labels():
    """Issue #31 item 3: in the app the "Details" box (off as it opens) brings the rule ids back into the prompt,
    the action list and the status line; off again, words only."""
    play = replica("fitl", lesson=True)
    w = play.walk
    assert not w.rulings.details.value and not w.chooser.details
    d = w.game.decision
    assert f"[{d.rule_id}]" not in w.chooser.prompt.value and f"[{d.rule_id}]" not in w.stepper.where.value
    w.rulings.details.value = True
    assert f"[{d.rule_id}]" in w.chooser.prompt.value and f"[{d.rule_id}]" in w.stepper.where.value
    w.rulings.details.value = False
    assert f"[{d.rule_id}]" not in w.chooser.prompt.value
