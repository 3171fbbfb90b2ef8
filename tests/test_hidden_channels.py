"""Nothing leaked (issue #30 items 4, 5, 7, 8): every channel a side reads (rulings through ``view``, ``log_frame``,
``public_state``, ``map_layers``, ``decisions``, the CLI) shows it only what its side may see."""

from __future__ import annotations

import json

import pytest

import wargames
from wargames import cli
from wargames.core.actions import WargamesError
from wargames.tet.game import SIDE_OF


def _channels(game, side: str) -> str:
    """Everything ``side`` can read of ``game``, as one text."""
    return "\n".join(
        [
            json.dumps(game.public_state(side), default=str),
            json.dumps(game.map_layers(side), default=str),
            game.log_frame(side).astype(str).to_csv(),
            json.dumps(game.decisions(side), default=str),
            "\n".join(r.to_text() for r in game.view(side).log),
        ]
    )


@pytest.fixture(scope="module")
def tet_played():
    game = wargames.load("tet", seed=4)
    game.advance_to(2)
    return game


@pytest.mark.parametrize("faction", ["NVA", "VC", "USA", "SVN"])
def test_tet_log_frame_of_a_faction_shows_only_what_its_side_may_see(tet_played, faction):
    """TET hidden units (the summary's face-down counters): a faction reads the log as its side does (issue #30
    item 4; before, ``log_frame("USA")`` read every ruling in full, hidden facts included)."""
    game = tet_played
    side = SIDE_OF[faction]
    frame = game.log_frame(faction)
    expected = [game.display_text(r.for_side(side).explanation, faction) for r in game.log]
    assert list(frame["explanation"]) == expected
    hidden = [r for r in game.log if side in r.hidden_from]
    assert hidden, "the game must have rulings hidden from this side for the test to mean anything"
    shown = set(frame["explanation"])
    assert not any(r.explanation in shown for r in hidden if r.explanation != (r.public or "(hidden)"))


def test_tet_view_lists_face_down_units_in_an_order_that_names_none(tet_played):
    """Issue #30 item 5: hidden counters come after the visible ones, sorted by area and numbered within it, so the
    list is the same whichever face-down units are where."""
    game = tet_played
    for side in ("Allied", "Communist"):
        units = game.public_state(side)["units"]
        hidden = [i for i, u in enumerate(units) if u["id"].startswith("hidden@")]
        assert hidden and hidden == list(range(len(units) - len(hidden), len(units)))
        keys = [(units[i]["area"], units[i]["faction"]) for i in hidden]
        assert keys == sorted(keys)


def test_tet_hidden_list_is_the_same_when_two_face_down_units_swap(tet_played):
    game = tet_played.branch()
    down = [
        u
        for u, w in sorted(game.loc.items())
        if w is not None and not game.face_up[u] and game.side_of(u) == "Communist"
    ]
    a, b = next((a, b) for a in down for b in down if game.loc[a] != game.loc[b])
    before = game.public_state("Allied")["units"]
    game.loc[a], game.loc[b] = game.loc[b], game.loc[a]
    assert game.public_state("Allied")["units"] == before


@pytest.fixture(scope="module")
def row_with_objectives():
    game = wargames.load("row", seed=1)
    while not any(not o["revealed"] for o in game.objectives.values()) and not game.is_over:
        game.advance("phase")
    assert game.objectives
    return game


def test_row_the_vc_cup_is_in_no_channel_of_the_capitalist(row_with_objectives):
    """ROW-13.1.2 (issue #30 item 8): the Capitalist sees how many units wait in the VC cup, never which."""
    game = row_with_objectives
    cup = [u for u, b in game.box.items() if b == "vc_cup"]
    assert cup
    seen = _channels(game, "Capitalist")
    assert not [u for u in cup if u in seen]
    assert game.public_state("Capitalist")["vc_cup_size"] == len(cup)
    assert any(u in _channels(game, "Communist") for u in cup)  # the owner sees his own cup


@pytest.mark.parametrize("side", ["Capitalist", "Communist"])
def test_row_face_down_objective_values_are_unknown_to_both_players(row_with_objectives, side):
    """ROW-12.1.3 (issue #30 item 7): a face-down Objective marker's value is shown to neither player (state, map,
    ruling) until it is revealed; the pool shows only how many markers are left."""
    game = row_with_objectives
    down = {h: o["value"] for h, o in game.objectives.items() if not o["revealed"]}
    assert down
    st = game.public_state(side)
    assert all(st["objectives"][h]["value"] is None for h in down)
    assert set(st["obj_pool"]) == {"markers"}
    m = game.map_layers(side)["markers"]
    values = {
        place: facts.get("value")
        for place, kind, facts in zip(m["place"], m["kind"], m["facts"], strict=True)
        if kind == "objective"
    }
    assert set(down) <= set(values) and all(values[h] is None for h in down)
    drawn = [r.for_side(side) for r in game.log if r.rule_id == "ROW-12.1.3" and r.title == "Objective drawn"]
    face_down = [r for r in drawn if r.result is None]
    assert face_down and all(not r.dice and "value" not in r.explanation for r in face_down)


def test_cli_prints_only_what_the_side_may_see(capsys):
    assert cli.main(["play", "tet", "--seed", "4", "--side", "USA"]) == 0
    out = capsys.readouterr().out
    game = wargames.load("tet", seed=4)
    game.play()
    hidden = [r for r in game.log if "Allied" in r.hidden_from and r.explanation != (r.public or "(hidden)")]
    assert hidden and not any(r.explanation in out for r in hidden)


def test_fitl_deck_comes_from_a_secret_the_seed_does_not_reveal():
    """FITL-2.1 deck (issue #30 item 6): with a secret, the same seed deals another deck; the same seed and secret
    deal the same one, the umpire's save replays it, and Back restores the hidden stream."""
    a = wargames.load("fitl", seed=3, secret="deal-key-7f3a")
    b = wargames.load("fitl", seed=3, secret="k2")
    plain = wargames.load("fitl", seed=3)
    assert list(a.deck) != list(b.deck) and list(a.deck) != list(plain.deck)
    assert list(wargames.load("fitl", seed=3, secret="deal-key-7f3a").deck) == list(a.deck)
    a.advance("turn")
    assert wargames.open_save(a.save()).digest() == a.digest()
    here = a.digest()
    a.set_players({s: None for s in a.sides})
    a.advance("decision")
    if a.decision is not None:
        here = a.digest()
        a.apply(a.legal_actions()[0])
        a.undo()
        assert a.digest() == here
    for side in a.sides:  # no channel of a faction shows the secret
        assert "deal-key-7f3a" not in _channels(a, side)


def test_the_play_app_keeps_its_secret_off_the_page(monkeypatch):
    from wargames.notebook.play import PlayGame

    monkeypatch.delenv("WARGAMES_PLAY_SECRET", raising=False)
    first = PlayGame("fitl", side="VC", seed=15, secret=True)  # as the classroom app calls it
    second = PlayGame("fitl", side="VC", seed=15, secret=True)
    secret = first.game.options["secret"]
    assert secret and secret != second.game.options["secret"]  # the same seed, another deck each time
    assert secret not in first.status.value and secret not in _channels(first.game, "VC")
    assert (
        "secret" not in PlayGame("fitl", side="VC", seed=15).game.options
    )  # a lesson notebook: the seed deals


# ------------------------------------------------------------------------------------------- a side's save
@pytest.mark.parametrize(
    ("game_id", "side", "decision"),
    [("fitl", "VC", "F-SAVE"), ("tet", "Allied", "A-SAVE"), ("row", "Capitalist", "R-GAME-SAVE")],
)
def test_issue30_item6_a_sides_save_withholds_the_secret_and_reopens_with_the_umpire(
    game_id, side, decision, tmp_path, monkeypatch
):
    """Issue #30 item 6 (decisions F-SAVE, A-SAVE, R-GAME-SAVE): in every game with hidden draws (the FitL deck,
    Tet's face-down Ruff Puffs, Rumor of War's face-down Objectives) a side's save holds no secret, only the side and
    a one-way key; it reopens to the same digest where the umpire keeps the key and is refused elsewhere, naming
    the side; the umpire's save still carries the secret; the seed alone deals another game."""
    from wargames.core.data import DecisionRow, cached_csv
    from wargames.core.saves import SaveError, secret_key

    assert decision in {d.id for d in cached_csv(game_id, "decisions.csv", DecisionRow)}
    monkeypatch.setenv("WARGAMES_UMPIRE_DIR", str(tmp_path / "umpire"))
    secret = f"hidden-key-{game_id}-5e1f"
    game = wargames.load(game_id, seed=5, secret=secret)
    game.advance("turn")
    assert game.dice.hidden_draws > 0, "the game must have made hidden draws for the test to mean anything"
    mine = game.save(tmp_path / "mine.json", side=side)
    text = (tmp_path / "mine.json").read_text(encoding="utf-8")
    assert secret not in text and "secret" not in mine["options"]
    assert mine["options"]["sealed"] == {"side": side, "key": secret_key(secret)}
    assert game.save()["options"]["secret"] == secret  # the umpire's save
    again = wargames.open_save(tmp_path / "mine.json")
    assert again.digest() == game.digest()
    # the seed without the secret deals another game: the side's save cannot be replayed from what it shows
    assert wargames.load(game_id, seed=5).digest() != wargames.load(game_id, seed=5, secret=secret).digest()
    monkeypatch.setenv("WARGAMES_UMPIRE_DIR", str(tmp_path / "elsewhere"))
    with pytest.raises(SaveError, match=f"the {side} side's save of a game with hidden draws"):
        wargames.open_save(tmp_path / "mine.json")
    edited = dict(mine, options={"sealed": {"side": side, "key": "0" * 64}})
    with pytest.raises(SaveError, match="edited"):
        wargames.open_save(edited)


def test_issue30_item6_a_sides_save_leaves_out_the_other_sides_hidden_reasons(tmp_path, monkeypatch):
    """Issue #30 item 6 with issue #19: the built-in player's reasons the side may not read (``reason_shown``) are
    not in that side's save; the umpire's save keeps them; a game without a secret has none to withhold."""
    monkeypatch.setenv("WARGAMES_UMPIRE_DIR", str(tmp_path))
    game = wargames.load("tet", seed=4, secret="s-4")
    game.advance("turn")
    hidden = [
        e for e in game.record if e.get("why") and game.reason_shown(e["side"], e["why"], "Allied") is None
    ]
    assert hidden
    mine = game.save(side="Allied")
    assert not any(e.get("why") for e in mine["record"] if e.get("side") == "Communist")
    assert any(e.get("why") for e in game.save()["record"] if e.get("side") == "Communist")
    assert wargames.open_save(mine).digest() == game.digest()
    plain = wargames.load("fitl", seed=2)
    assert "sealed" not in plain.save(side="US")["options"]
    with pytest.raises(WargamesError, match="sides are"):
        plain.save(side="Nobody")
