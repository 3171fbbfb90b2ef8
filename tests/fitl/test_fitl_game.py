"""FitL as a whole game on the shared core: scenarios, a full Short game with the default players,
determinism, undo, views, the invariants and the transition check."""

from __future__ import annotations

import time

import pytest

from wargames.core import Action, IllegalAction, RandomPlayer
from wargames.core.data import DataError
from wargames.fitl.game import FitlGame
from wargames.fitl.players import FitlBot
from wargames.testing import unstarted

from .conftest import Passer, fitl_game, pick


class NoOps(FitlGame):
    """The game with no Operation offered (as with the Operations skeleton): every faction can only Pass."""

    def op_choices(self, faction, limited, free=False):
        return []


def test_fitl_2_0_short_game_with_default_players_reaches_the_final_coup():
    g = FitlGame("short", 11)
    t = time.perf_counter()
    result = g.play()
    seconds = time.perf_counter() - t
    assert g.is_over and result is not None and result.step == "result"
    assert result.rule_id in ("FITL-6.4.5", "FITL-2.4.2", "FITL-7.2")
    assert result.result["winner"] in ("US", "ARVN", "NVA", "VC") and len(result.result["ranking"]) == 4
    if result.rule_id != "FITL-7.2":
        assert g.final_coup and g.coups_left() == 0
    assert g.invariants() == []
    made = [d for d in g.decisions() if d["by"].endswith("NonPlayer")]
    assert made and all(d["why"] for d in made)  # every Non-player choice is explained
    assert seconds < 5


def test_fitl_2_0_pass_only_game_runs_end_to_end():
    g = NoOps("short", 3)
    g.play()
    assert g.is_over and g.coups_held >= 1 and g.invariants() == []
    assert {d["kind"] for d in g.decisions() if d["side"] and d["kind"] in ("pass", "op")} == {"pass"}


@pytest.mark.parametrize("scenario", ["short", "medium", "full"])
def test_fitl_2_1_each_scenario_starts_and_plays_with_passes(scenario):
    g = NoOps(scenario, 5)
    assert g.invariants() == [] and g.decision is not None
    g.play()
    assert g.is_over and g.invariants() == []


def test_fitl_2_1_unknown_option_rejected():
    with pytest.raises(DataError):
        FitlGame("short", 0, {"no_such_option": True})
    with pytest.raises(DataError):
        FitlGame("short", 0, {"tournament": ["no_such_option"]})
    with pytest.raises(DataError):
        FitlGame("short", 0, {"non_players": ["NVA"], "combined": ["NVA+VC"]})
    with pytest.raises(DataError):
        FitlGame("short", 0, {"combined": ["US+VC"]})


@pytest.mark.parametrize("scenario", ["short", "full"])
def test_fitl_tournament_political_rhythm_coup_among_the_bottom_4_events(scenario):
    for seed in range(5):
        g = unstarted(FitlGame, scenario, seed, {"tournament": ["political_rhythm"]})
        for pile in g.piles:
            coup = [i for i, c in enumerate(pile) if g.is_coup(c)]
            assert len(coup) == 1 and coup[0] >= len(pile) - 5
        assert g.invariants() == []


def test_fitl_game_same_seed_same_digest():
    a, b = FitlGame("short", 21), FitlGame("short", 21)
    a.play()
    b.play()
    assert a.digest() == b.digest() and a.result.result == b.result.result
    assert FitlGame("short", 22).digest() != FitlGame("short", 21).digest()


def test_fitl_game_undo_and_replay_give_the_same_state():
    g = NoOps("short", 4)
    g.set_players({s: None for s in g.sides})
    players = {s: RandomPlayer(i) for i, s in enumerate(g.sides)}
    for _ in range(40):
        if g.is_over:
            break
        here = g.digest()
        g.apply(players[g.decision.side].choose(g, g.decision))
        g.undo()
        assert g.digest() == here
        g.apply(players[g.decision.side].choose(g, g.decision))
    other = g.branch()
    assert other.digest() == g.digest()


def test_fitl_2_3_4_illegal_action_rejected_state_unchanged():
    g = fitl_game(top=[1, 5])
    before = g.digest()
    for bad, rule in (
        (Action.make("event"), "FITL-2.3.4"),
        (Action.make("op", limited=True, sa=False), "FITL-2.3.4"),
    ):
        with pytest.raises(IllegalAction) as err:
            g.apply(bad)
        assert err.value.rule_id == rule
        assert g.digest() == before


def test_fitl_2_2_public_state_hides_the_deck_order_only():
    g = FitlGame("medium", 2)
    view = g.view("NVA").state
    assert isinstance(view["deck"], int) and isinstance(view["set_aside"], int)
    assert view["pivotal_held"] == {"ARVN": 123, "NVA": 122, "US": 121, "VC": 124}
    assert view["victory"] == g.scores() and view["rvn_leader"] == 127


def test_fitl_1_9_scores_are_the_victory_markers():
    g = FitlGame("full", 0)
    assert g.scores() == {"US": 38, "ARVN": 35, "NVA": 4, "VC": 27}


def test_fitl_invariants_catch_a_lost_card_and_transition_problems_an_unexplained_track():
    g = fitl_game(top=[1, 5])
    g.deck.append(g.card)  # a card in two places
    assert any("FITL-2.1" in p for p in g.invariants())
    g = fitl_game(top=[1, 5])
    before = g.state_dict()
    g.board.tracks["aid"] += 5
    g.board.support["saigon"] = 0
    problems = g.transition_problems(before, [])
    assert any("aid" in p for p in problems) and any("saigon" in p for p in problems)
    g = fitl_game(top=[1, 5])
    before = g.state_dict()
    rulings = g.apply(pick(g, "pass"))  # a Pass names its track and amount: no problem
    assert g.transition_problems(before, rulings) == []


def test_fitl_default_players_explain_choices():
    g = fitl_game(
        top=[1, 5], players={"US": FitlBot("US"), "ARVN": Passer(), "NVA": Passer(), "VC": Passer()}
    )
    bot = g.player_for("US")
    assert isinstance(bot, FitlBot)
    g.advance("turn")
    assert bot.last_reason
