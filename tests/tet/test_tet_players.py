"""Two or four players (TET-COMP-5): who decides what, who sees what, and every mix of people and bots."""

from __future__ import annotations

import itertools

import pytest

import wargames
from wargames.core import RandomPlayer
from wargames.core.data import DataError

SIDES_2 = ("Communist", "Allied")
SIDES_4 = ("NVA", "VC", "USA", "SVN")


def _to_phase(game, phase_id):
    while not (game.phase and game.phase.id == phase_id and game.decision is not None):
        game.advance("decision")
        if game.decision is not None and not (game.phase and game.phase.id == phase_id):
            game.apply(game.legal_actions()[-1])  # end/skip: the last option is always the quiet one


def test_tet_comp_5_four_players_move_their_own_units_in_turn():
    game = wargames.load("tet", seed=2, players=4)
    game.set_players({s: None for s in SIDES_4})
    _to_phase(game, "p1")
    assert game.decision.side == "NVA"
    units = {a["unit"] for a in game.legal_actions() if a.kind == "move"}
    assert units and {game.unit(u).faction for u in units} == {"NVA"}
    game.apply(game.legal_actions()[-1])  # the NVA ends its movement
    assert game.log[-1].title == "NVA movement ends"
    assert game.decision.side == "VC"
    assert {game.unit(a["unit"]).faction for a in game.legal_actions() if a.kind == "move"} == {"VC"}


def test_tet_comp_5_allied_partners_move_in_turn_usa_then_svn():
    game = wargames.load("tet", seed=2, players=4)
    game.set_players({s: None for s in SIDES_4})
    _to_phase(game, "p7")
    seen = []
    while game.phase.id == "p7" and game.decision is not None:
        d = game.decision
        if d.options[-1].kind == "end_allied_move":
            facs = {game.unit(a["unit"]).faction for a in d.options if a.kind == "select"}
            assert facs <= {d.side}
            seen.append(d.side)
        game.apply(game.legal_actions()[-1])
        game.advance("decision")
    assert seen[:2] == ["USA", "SVN"]


def test_tet_comp_5_partners_share_what_they_know():
    game = wargames.load("tet", seed=4, players=4)
    game.play(players={s: RandomPlayer(i) for i, s in enumerate(SIDES_4)})
    two = wargames.load("tet", seed=4)
    assert game.view("NVA").state == game.view("VC").state == game.public_state("Communist")
    assert game.view("USA").state == game.public_state("Allied")
    svn, nva = game.view("SVN").log, game.view("NVA").log
    hidden = [i for i, r in enumerate(game.log) if r.hidden_from == ("Allied",)]
    assert hidden
    for i in hidden:
        assert svn[i].explanation == game.log[i].public != game.log[i].explanation  # masked for the SVN
        assert nva[i] == game.log[i]  # the VC's partner reads it in full
    assert two.sides == SIDES_2


def test_tet_comp_5_a_player_count_other_than_2_or_4_is_refused():
    with pytest.raises(DataError, match="TET-COMP-5"):
        wargames.load("tet", players=3)


def test_tet_comp_5_four_player_game_saves_and_replays():
    game = wargames.load("tet", seed=6, players=4)
    game.advance("turn")
    again = wargames.open_save(game.save())
    assert again.sides == SIDES_4 and again.digest() == game.digest()


@pytest.mark.parametrize("players", [2, 4])
def test_tet_comp_5_every_mix_of_people_and_bots_reaches_a_result(players):
    """Each side either a built-in bot or a person (a random player deciding through apply)."""
    sides = SIDES_2 if players == 2 else SIDES_4
    for n, humans in enumerate(
        itertools.chain.from_iterable(itertools.combinations(sides, k) for k in range(len(sides) + 1))
    ):
        game = wargames.load("tet", seed=n, players=players)
        game.set_players({s: None for s in humans})
        person = {s: RandomPlayer(n * 7 + i) for i, s in enumerate(humans)}
        while not game.is_over:
            game.advance("end")  # stops at a decision only when a person must take it
            if game.decision is not None:
                assert game.decision.side in humans
                game.apply(person[game.decision.side].choose(game, game.decision))
        assert game.result is not None and game.result.result["winner"] in ("Communist", "Allied", None), (
            humans
        )
