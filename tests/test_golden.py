"""Golden replays (issue #13): every stored game replays to the same digest, and the built-in players,
given the same seed, make the same decisions again.  Regenerate with ``python tools/golden.py`` only for
a deliberate rule or bot change, and say why in the commit.  A failure names the first ruling where the two
games part, the stored and the new one side by side (``golden.first_parting``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import wargames

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import golden  # noqa: E402

CASES = list(golden.cases())


def stored(name: str) -> dict:
    return json.loads((golden.GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_golden_files_cover_every_game_and_scenario():
    covered = {(c[1], c[2]) for c in CASES}
    for game in wargames.games():
        for scenario in wargames.scenarios(game):
            assert (game, scenario) in covered, f"no golden replay of {game} {scenario}"
    names = {c[0] for c in CASES}
    on_disk = {p.stem for p in golden.GOLDEN.glob("*.json")}
    assert on_disk == names, f"stale or missing golden files: {sorted(on_disk ^ names)}"


@pytest.mark.parametrize("name,game,scenario,options,seed", CASES, ids=[c[0] for c in CASES])
def test_golden_record_replays_to_the_same_state(name, game, scenario, options, seed):
    want = stored(name)
    g = wargames.open_save(
        {
            "format": "wargames-save",
            "version": 1,
            "game": game,
            "scenario": scenario,
            "seed": seed,
            "options": options,
            "record": want["record"],
            "at": [want["rulings"], False],
            "digest": want["digest"],
        }
    )
    parting = golden.first_parting([golden.ruling_line(r) for r in g.log], want["ruling_lines"])
    assert parting is None, f"{name}, the stored record replayed: {parting}"
    assert g.is_over and len(g.log) == want["rulings"]
    assert g.result.title == want["result"]["title"]


@pytest.mark.parametrize("name,game,scenario,options,seed", CASES, ids=[c[0] for c in CASES])
def test_golden_bots_play_the_same_game_again(name, game, scenario, options, seed):
    want = stored(name)
    got = golden.play(game, scenario, options, seed)
    parting = golden.first_parting(got["ruling_lines"], want["ruling_lines"])
    assert parting is None, f"{name}, the bots' game played again: {parting}"
    for i, (a, b) in enumerate(zip(got["record"], want["record"], strict=False)):
        assert a == b, f"{name}: decision {i} differs:\n now    {a}\n stored {b}"
    assert got["decisions"] == want["decisions"]
    assert (got["digest"], got["rulings"], got["result"]) == (want["digest"], want["rulings"], want["result"])


def test_golden_a_parting_names_the_first_ruling_that_differs_with_both_side_by_side():
    from wargames.core.rulings import Ruling

    same = Ruling("ROW-9.2", "Activation over", "x", result={"hq": "a"}, seq=1, turn=1, step="b3a")
    moved = Ruling("ROW-5.6", "Retreats", "x", result={"retreated": ["u1"]}, seq=2, turn=1, step="b3a")
    other = Ruling("ROW-5.6", "Retreats", "x", result={"retreated": ["u2"]}, seq=2, turn=1, step="b3a")
    reworded = Ruling(
        "ROW-5.6", "Units retreat", "better words", result={"retreated": ["u1"]}, seq=2, turn=1, step="b3a"
    )
    stored = [golden.ruling_line(same), golden.ruling_line(moved)]
    assert golden.first_parting(stored, stored) is None
    assert golden.first_parting([stored[0], golden.ruling_line(reworded)], stored) is None  # wording only
    text = golden.first_parting([stored[0], golden.ruling_line(other)], stored)
    assert text is not None and "ruling 2" in text
    assert f"stored {stored[1]}" in text and f"now    {golden.ruling_line(other)}" in text
    assert f"same   {stored[0]}" in text
    ended = golden.first_parting(stored[:1], stored)
    assert ended is not None and "the new game ended" in ended
