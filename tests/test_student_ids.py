"""No internal id in anything a student reads, in every game (issue #31 item 3): every scenario's start and a
sampled game of each game (random players from a fixed seed), rendered the way the apps and play widgets render
them (``prompt_text``, ``ActionChooser.label``, the ruling card's ``_plain_card`` and its change lines,
``changes_html``; behind "Details", the values of a ruling's inputs and the table cell it read, ``input_text``;
the decisions table's action and reasons), checked for the ids of the game's data (units, leaders, places,
aircraft, airfields, mission boxes, HQ missions: every ``id`` of ``data/<game>/**.csv`` that has an underscore or
is not its own name), for any other snake_case token and for numbers with more than two decimals.  A failure names the game, the ruling or prompt
(by its rule) and the id."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest

pytest.importorskip("ipywidgets")

import wargames  # noqa: E402
from wargames.core.players import RandomPlayer  # noqa: E402
from wargames.core.rulings import change_line, changes_html, input_text  # noqa: E402
from wargames.notebook.rawids import SNAKE as _SNAKE  # noqa: E402
from wargames.notebook.rawids import id_pattern as _id_pattern  # noqa: E402
from wargames.notebook.rulingpanel import _plain_card, _text, plain_numbers, prompt_text  # noqa: E402
from wargames.notebook.widgets import ActionChooser  # noqa: E402

from .test_student_text import _rule_ref_faults  # noqa: E402

_TAG = re.compile(r"<[^>]+>")
_FLOAT = re.compile(r"\b\d+\.\d{3,}\b")
#: what makes a bracketed note of a ruling a rule reference (a FitL note "[Nguyen Cao Ky: 4 per step]" is words)
_REF_INSIDE = re.compile(
    r"\b(?:TET|YOTR|FITL|ROW)-|\b[A-Z]-(?:[A-Z]+-)?\d+\b|\d+\.\d+|\[\s*\d+(?:\s*,\s*\d+)*\s*\]"
)
#: a list, set or mapping printed as Python writes it (``['Ammo Out', 'OOC']``, ``{}``)
_REPR = re.compile(r"[\[{]\s*['\"]|\{\}|\[\]|\bset\(\)")


@cache
def named_hexes(game_id: str) -> frozenset[str]:
    """The hexes of a hex-map game that have a place name (``display_name`` of the hex is not its number): a text
    names them by the place, the number only in brackets after it."""
    if game_id not in ("row", "yotr"):
        return frozenset()
    g = wargames.load(game_id, seed=1)
    hexes = g.map.hexes if game_id == "row" else g.data.hexes
    return frozenset(h for h in hexes if g.display_name(h) != h)


#: a hex number standing alone, not in the brackets after its place's name
_BARE_HEX = re.compile(r"(?<![(\d.])\b(\d{4})\b(?![)\d])")


def _plain(value: str) -> str:
    return html.unescape(_TAG.sub(" ", value))


def id_faults(game_id: str, where: str, text: str) -> list[str]:
    """What ``text`` (shown at ``where``) carries that a student must not read: data ids, snake_case tokens,
    long decimals, each as ``game, where: 'token' in: context``."""
    out = []
    for pat in (_id_pattern(game_id), _SNAKE, _FLOAT):
        for m in pat.finditer(text):
            context = text[max(0, m.start() - 60) : m.end() + 30]
            out.append(f"{game_id}, {where}: {m.group(0)!r} in: {context}")
    named = named_hexes(game_id)
    for m in _BARE_HEX.finditer(text):
        if m.group(1) in named:
            context = text[max(0, m.start() - 60) : m.end() + 30]
            out.append(f"{game_id}, {where}: hex {m.group(1)} without its name in: {context}")
    return out


def _ruling_faults(game, r, side: str) -> list[str]:
    """A ruling as ``side`` reads its card: title and explanation (``_plain_card``) and the change lines."""
    text = _text(game, side)
    r = r.for_side(side)
    where = f"ruling {r.rule_id} {r.title!r}"
    plain = _plain(_plain_card(r, text, game.game_id))
    out = id_faults(game.game_id, where, plain)
    out += [f"{game.game_id}, {where}: a Python value in: {plain[:160]}" for _ in _REPR.finditer(plain)]
    out += [
        f"{game.game_id}, {where}: rule reference {f}"
        for f in _rule_ref_faults(game.game_id, [plain])
        if not f.startswith("'[") or _REF_INSIDE.search(f.split("' in:")[0])
    ]
    for k, v in (r.inputs or {}).items():  # "Details": the inputs' names stay, their values read as names
        out += id_faults(game.game_id, f"{where} Details input {k}", input_text(v, text))
    if r.lookup:  # "Details": the table cell read
        out += id_faults(game.game_id, f"{where} Details table", input_text(r.lookup, text))
    for c in r.changes[:40]:
        line = change_line(c, text)
        out += id_faults(game.game_id, where + " change", line)
        out += [f"{game.game_id}, {where} change: a Python value in: {line}" for _ in _REPR.finditer(line)]
    return out


def _sweep(game, decisions: int, seed: int) -> list[str]:
    """Play ``decisions`` decisions with random players; read every prompt, label and ruling as the deciding side
    reads them."""
    game.set_players({s: None for s in game.sides})
    players = {s: RandomPlayer(seed + i) for i, s in enumerate(game.sides)}
    choosers = {s: ActionChooser(game, s) for s in game.sides}
    faults: list[str] = []
    seen = 0
    for _ in range(decisions):
        while game.decision is None and not game.is_over:
            game.advance("decision")
        if game.is_over:
            break
        d = game.decision
        for r in game.log[seen:]:
            faults += _ruling_faults(game, r, d.side)
        seen = len(game.log)
        faults += id_faults(game.game_id, f"prompt {d.rule_id}", prompt_text(game, d, d.side))
        chooser = choosers[d.side]
        for a in game.legal_actions():
            faults += id_faults(game.game_id, f"option of {d.rule_id}", chooser.label(a))
        game.apply(players[d.side].choose(game, d))
    return faults


GAMES = ["tet", "yotr", "fitl", "row"]


def test_issue31_item3_change_lines_name_ids_and_read_field_names_as_words():
    g = wargames.load("row", seed=1)
    text = _text(g, "Capitalist")
    assert change_line({"airfield": "chu_lai", "from": "ok", "to": "damaged"}, text) == (
        "airfield Chu Lai, ok → damaged"
    )
    assert change_line({"field": "face_up", "unit": "vc_1rgt", "face_up": True}, text) == (
        "face up: unit 1st VC Regiment → True"
    )
    assert (
        change_line({"us_military_victory": 0, "us_unrest": 2}, text) == "US Military Victory 0, US Unrest 2"
    )
    commander = {
        "field": "pol",
        "key": "Capitalist",
        "in": "commanders",
        "from": "westmoreland",
        "to": "abrams",
    }
    assert change_line(commander, text).endswith("William Westmoreland → Creighton Abrams")  # ROW-14.2.1
    assert text("Khe Sanh camp (from sf_ready), 2 to vc_cup") == (
        "Khe Sanh camp (from Special Forces ready (off the map)), 2 to VC cup"
    )
    assert text("aircraft usaf_14sow; airfields bien_hoa; ace_olds") == (
        "aircraft 14th Special Operations Wing; airfields Bien Hoa; Robin Olds"
    )
    f = wargames.load("fitl", seed=1)
    assert change_line({"track": "arvn_resources", "from": 30, "to": 33}, _text(f)) == (
        "track ARVN Resources, 30 → 33"
    )
    assert change_line({"track": "trail", "from": 1, "to": 2}, _text(f)) == "track The Trail, 1 → 2"
    card = changes_html(
        type("R", (), {"changes": [{"to_box": "available", "pieces": {}}]})(),  # type: ignore[arg-type]
        _text(f),
    )
    assert "to box available, pieces none" in card and "to_box" not in card
    markers = {"unit": "arvn_11rgr", "markers": ["Ammo Out", "OOC"]}
    assert change_line(markers, text) == "unit 11th ARVN Ranger Battalion, markers Ammo Out, OOC"


def test_issue31_item3_tet_names_laos_and_cambodia_without_our_ids():
    g = wargames.load("tet", seed=1)
    assert g.display_name("KH1") == "Ratanakiri (Cambodia)" and g.display_name("21").endswith("(21)")
    assert (
        g.display_text("from Ratanakiri (Cambodia) (KH1) to LA2")
        == "from Ratanakiri (Cambodia) to Saravane (Laos)"
    )
    assert g.display_text("offmap_box_1 -> casualties") == "Theater air box 1 -> casualties"
    assert (
        g.display_text("1 for the cities in insurrection (hoi_an).")
        == "1 for the cities in insurrection (Hoi An)."
    )


def test_issue31_item3_plain_ruling_cards_leave_decision_ids_to_details():
    from wargames.notebook.rulerefs import without_references

    assert without_references("8 effective points (decision D-11).", "yotr") == "8 effective points."
    assert without_references("6 of 6 MP (3 for the air hop, decision D-24).", "yotr") == (
        "6 of 6 MP (3 for the air hop)."
    )
    assert without_references("Isolated (decisions D-23, D-39); next", "yotr") == "Isolated; next"
    assert without_references("the row (deduced, 6.1b)", "row") == "the row (deduced)"
    assert without_references("(a city blocks the road: decision D-16)", "tet") == "(a city blocks the road)"
    assert without_references("odds (1.5) and 2.5 MP", "row") == "odds (1.5) and 2.5 MP"


def test_issue31_item3_the_id_check_finds_ids_snake_case_and_long_decimals():
    assert id_faults("row", "x", "For the OOC arvn_1rgr_grp") and id_faults("tet", "x", "to KH1")
    assert id_faults("row", "x", "commander: westmoreland → abrams")
    assert not id_faults("row", "x", "Westmoreland gives way to Abrams; recon 5")
    assert id_faults("row", "x", "odds 0.166667") and id_faults("fitl", "x", "face_up True")
    assert not id_faults("row", "x", "Chu Lai (3752), COM-FF, odds 1.5, data/row/tables/snafu_cup.csv")
    assert id_faults("row", "x", "Advance into 3752?") and not id_faults("row", "x", "Chu Lai (3752), 2719")


@pytest.mark.parametrize("game_id", GAMES)
def test_issue31_item3_every_scenario_start_reads_without_ids(game_id):
    """Each scenario of the game: the set-up rulings and the first decision's prompt and options as the deciding
    side reads them."""
    from wargames.core.registry import scenarios

    faults: list[str] = []
    for scenario in scenarios(game_id):
        g = wargames.load(game_id, scenario, 1)
        faults += [f"[{scenario}] {f}" for f in _sweep(g, 1, 1)]
    assert not faults, "\n".join(dict.fromkeys(faults))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_issue31_item3_a_sampled_game_reads_without_ids(game_id):
    """250 decisions of random play from a fixed seed: every prompt, option label, ruling card and change line."""
    g = wargames.load(game_id, None, 3)
    faults = _sweep(g, 250, 7)
    assert not faults, "\n".join(dict.fromkeys(faults))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_issue31_item3_the_built_in_players_reasons_and_the_decisions_table_read_without_ids(game_id):
    """150 decisions of the built-in players (their reasons are what the advisor and the rulings panel show): each
    side's decisions table (``decisions(side)``: the reasons it may read, the parameters by name) and the rulings."""
    g = wargames.load(game_id, None, 2)
    g.set_players({s: None for s in g.sides})
    bots = {s: g.default_player(s) for s in g.sides}
    faults: list[str] = []
    for _ in range(150):
        while g.decision is None and not g.is_over:
            g.advance("decision")
        if g.is_over:
            break
        d = g.decision
        bot = bots[d.side]
        g.apply(bot.choose(g, d), by=type(bot).__name__, why=str(getattr(bot, "last_reason", "") or ""))
    for side in g.sides:
        for row in g.decisions(side):
            where = f"{side}'s decisions table, {row['side']}'s {row['action']}"
            faults += id_faults(game_id, where + " reason", plain_numbers(row["why"]))
            faults += id_faults(game_id, where + " action", row["action"])
            faults += id_faults(game_id, where + " parameters", ", ".join(map(str, row["params"].values())))
        for r in g.log:
            faults += _ruling_faults(g, r, side)
    assert not faults, "\n".join(dict.fromkeys(faults))


def test_details_card_reads_the_ids_in_a_rulings_inputs_as_names():
    """Behind "Details" (``RulingPanel`` with the box ticked): the inputs keep their names, their values that are
    data ids read as the game names them (a Rumor of War unit Out of Communications) and a kind of thing as words."""
    import dataclasses

    from wargames.notebook.rulingpanel import RulingPanel

    g = wargames.load("row", seed=1)
    r = dataclasses.replace(
        g.log[0],
        inputs={"why": "OOC arvn_rf_quang_tri", "combat_type": "meeting_engagement", "hexes": ["2643"]},
    )
    panel = RulingPanel(g, "Capitalist", details=True)
    card = _plain(panel._card(r, set()))
    assert "why=OOC Regional Forces, Quang Tri" in card and "combat_type=meeting engagement" in card
    assert "hexes=Quang Tri (2643)" in card
    inputs = card[card.index("inputs:") :].split("\n")[0]
    assert not [f for f in id_faults("row", "Details", inputs) if "combat_type" not in f], inputs


def test_yotr_dep_the_free_deployment_prompts_name_each_counter_by_its_face():
    """YOTR-DEP / YOTR-DEP-COMM (Standard Game): every deployment prompt names the counter as ``describe`` does
    ("NLF 2-1-6", so the Allied reader sees only what he may), never by the bare id; read by the Communist it is the
    counter's name ("NLF 1st Central Coast (2-1-6)")."""
    g = wargames.load("yotr", "standard", 1)
    g.set_players({s: None for s in g.sides})
    bots = {s: g.default_player(s) for s in g.sides}
    seen = set()
    for _ in range(40):
        while g.decision is None:
            g.advance("decision")
        d = g.decision
        if d.kind == "deploy":
            uid = next(a["unit"] for a in d.options if "unit" in dict(a.params))
            assert g.describe(uid) in d.prompt, d.prompt
            assert uid not in prompt_text(g, d, "Communist") and uid not in prompt_text(g, d, "Allied")
            seen.add(uid.split("_")[0])
        g.apply(bots[d.side].choose(g, d))
    assert {"nva", "nlf"} <= seen


def test_decisions_table_names_each_action_in_words_not_by_its_kind():
    """The decisions table (``decisions``, shown in the apps and notebooks): the action column reads as the game
    names that kind of decision (``data/<game>/decision_kinds.csv``) or as words, the engine's kind kept apart."""
    g = wargames.load("yotr", "standard", 1)
    g.set_players({s: None for s in g.sides})
    while g.decision is None:
        g.advance("decision")
    g.apply(next(a for a in g.legal_actions() if a.kind == "deploy"))
    for side in (None, "Communist", "Allied"):
        row = g.decisions(side)[0]
        assert (row["action"], row["kind"]) == ("Setting up units", "deploy"), side
    r = wargames.load("row", "vietnam-war", seed=0)
    assert r.action_words("change_commander") == "Change commander"
    assert r.action_words("mission") == "HQ mission for the season"
    assert not id_faults("row", "action", r.action_words("change_commander"))


def test_row_4_5_activation_prompts_name_the_hq_not_its_id():
    """ROW-4.5: "Activate a unit with ..." names the headquarters as the game does (its ``units.csv`` name), so
    a notebook printing ``decision.prompt`` reads no id; every prompt of the first 120 decisions holds none."""
    g = wargames.load("row", "year-in-i-corps", 1)
    g.set_players({s: None for s in g.sides})
    bots = {s: g.default_player(s) for s in g.sides}
    seen = []
    for _ in range(120):
        while g.decision is None and not g.is_over:
            g.advance("decision")
        if g.is_over:
            break
        d = g.decision
        if d.prompt.startswith("Activate a unit with"):
            seen.append(d.prompt)
        assert not _id_pattern("row").search(d.prompt), d.prompt
        g.apply(bots[d.side].choose(g, d))
    assert seen


def test_issue31_item3_ruling_cards_and_rulings_html_given_the_game_name_the_units_they_deploy():
    """``rulings_html(game=)`` and ``kit.ruling_cards(game=)``, which the notebooks use, read a ruling's title and
    explanation through the game's ``display_text``: a YotR deployment ruling names the counter, not ``nva_7``;
    without the game the same cards carry the raw id (what the check would catch)."""
    from wargames.core.rulings import rulings_html
    from wargames.notebook import ruling_cards

    g = wargames.load("yotr", scenario="standard", seed=3)
    while g.decision is None:
        g.advance("decision")
    start = len(g.log)
    g.apply(next(a for a in g.decision.options if a.kind == "deploy"))
    placed = g.log[start:]
    assert placed
    raw = _plain(rulings_html(placed))
    assert id_faults("yotr", "raw cards", raw)
    assert not id_faults("yotr", "rulings_html(game=)", _plain(rulings_html(placed, game=g)))
    assert not id_faults("yotr", "ruling_cards(game=)", _plain(ruling_cards(placed, game=g).data))
