"""FitL Events: the vocabulary's schema (FITL-5.0-CARDS; issue #14 item 5).  A card entry with an unknown verb or
key is refused when the cards load, naming the file, the card and the key, instead of the key being ignored and
the step matching every space; expressions are computed from their syntax tree, never run as Python."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from wargames.core.data import DataError, game_dir
from wargames.fitl.events import load_events
from wargames.fitl.events import schema as S
from wargames.fitl.events.words import VERBS, arithmetic

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "wargames" / "fitl" / "events"


@pytest.fixture
def cards(tmp_path, monkeypatch):
    """A copy of the data directory whose card 1 (Gulf of Tonkin) the test rewrites; load_events re-reads it."""
    root = tmp_path / "data"
    shutil.copytree(game_dir("fitl"), root / "fitl")
    monkeypatch.setenv("WARGAMES_DATA", str(root))
    load_events.cache_clear()
    path = root / "fitl" / "events" / "cards-001-026.yaml"

    def edit(old: str, new: str) -> Path:
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return path

    yield edit
    load_events.cache_clear()


def test_fitl_5_0_cards_every_card_passes_the_schema():
    load_events.cache_clear()
    assert len(load_events()) == 130


@pytest.mark.parametrize(
    "old,new,problem",
    [
        (
            "n: 6, from: out_of_play, where: {kind: city}",
            "n: 6, form: out_of_play, where: {kind: city}",
            r"card 1 Gulf of Tonkin, unshaded step 2 \(place\): unknown key 'form'",
        ),
        (
            "n: 6, from: out_of_play, where: {kind: city}",
            "n: 6, from: out_of_play, where: {knid: city}",
            r"card 1 Gulf of Tonkin, unshaded step 2 \(place\) where: unknown key 'knid'",
        ),
        (
            "{do: box, from: casualties, to: out_of_play}",
            "{do: boxx, from: casualties, to: out_of_play}",
            r"card 1 Gulf of Tonkin, shaded step 3: unknown verb 'boxx'",
        ),
        (
            "{do: track, track: aid, delta: cas, times: -1}",
            "{do: track, track: aid, delta: cas, times: -1, upto: true}",
            r"shaded step 2 \(track\): unknown key 'upto'",
        ),
        (
            '  rulings: ["FITL-5.1.3: the 6 pieces',
            '  ruling: ["FITL-5.1.3: the 6 pieces',
            r"card 1 Gulf of Tonkin, entry: unknown key 'ruling'",
        ),
    ],
)
def test_fitl_5_0_cards_unknown_verb_or_key_is_refused_naming_card_and_key(cards, old, new, problem):
    path = cards(old, new)
    with pytest.raises(DataError, match=problem) as err:
        load_events()
    assert str(path) in str(err.value)


def test_fitl_5_0_cards_conditions_and_hooks_are_checked(cards):
    cards(
        "{do: box, from: casualties, to: out_of_play}",
        "{do: if, cond: {track: {name: aid, mn: 2}}, then: [{do: hook, name: no_such_hook}]}",
    )
    with pytest.raises(DataError, match=r"shaded step 3 \(if\) cond track: unknown key 'mn'"):
        load_events()
    cards("mn: 2", "min: 2")
    with pytest.raises(DataError, match=r"shaded step 3 \(if\) then step 1: no hook named 'no_such_hook'"):
        load_events()


def test_fitl_5_0_cards_a_space_filter_built_in_play_is_checked_too():
    S.check_where("Card 1 Gulf of Tonkin, unshaded", {"kind": "city", "south": True})
    with pytest.raises(ValueError, match="Card 1 Gulf of Tonkin, unshaded: unknown space filter key 'citys'"):
        S.check_where("Card 1 Gulf of Tonkin, unshaded", {"citys": True})


def test_fitl_5_0_cards_schema_lists_only_keys_the_interpreter_reads():
    """Every key the schema allows is read by the interpreter (vocabulary.py, its verbs_*.py and words.py, or hooks.py): the schema cannot
    let a key through that nothing looks at (the free Special Activity's reader's ``note`` excepted)."""
    interpreter = (
        "vocabulary.py",
        "verbs_pieces.py",
        "verbs_board.py",
        "verbs_play.py",
        "words.py",
        "hooks.py",
    )
    code = "".join((EVENTS / name).read_text(encoding="utf-8") for name in interpreter)
    literals = set(re.findall(r"""["'](\w+)["']""", code))
    keys = set().union(
        *S.STEP_KEYS.values(),
        S.WHERE_KEYS,
        *S.PIECE_TEST_KEYS.values(),
        S.COND_KEYS,
        *(v for v in S.COND_KEYS.values() if v),
    )
    assert keys - literals == set()
    assert set(S.STEP_KEYS) == set(VERBS)  # one schema entry per verb the interpreter knows


def test_fitl_5_0_cards_expressions_without_running_python():
    assert arithmetic("6-oop_n", {"oop_n": 2}) == 4 and arithmetic("min(roll, p)", {"roll": 5, "p": 3}) == 3
    assert arithmetic("cas/2", {"cas": 5}) == 2 and arithmetic("4*N", {"N": 3}) == 12
    for bad in ('__import__("os").getcwd()', "a.b", "2**64", "x; y", "lambda: 1", "missing"):
        with pytest.raises(ValueError, match=r"Card 7: bad expression"):
            arithmetic(bad, {"x": 1, "y": 2}, "Card 7")


def test_fitl_5_0_cards_no_eval_in_the_package():
    for path in (ROOT / "wargames").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("eval", "exec")
        ]
        assert not calls, f"{path}: eval/exec at line {calls[0].lineno}"
