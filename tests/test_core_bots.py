"""One bot base (issue #14 item 4): every decision names its kind, a bot answers it with ``on_<kind>``, and the
reason of every bot choice is part of the player protocol (kept in the decision record as ``why``)."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import Action, Bot, Decision
from wargames.core.players import RandomPlayer, reason_of


class _Toy(Bot):
    weighs_options = {"pair": ("a", "b")}

    def on_pick(self, game, decision):
        return self.best([(1, decision.options[0], "low"), (2, decision.options[1], "high")])

    def on_pair(self, game, decision):
        self.last_reason = "pair"
        return self.first(decision, "b", "a")


def _decision(kind, *option_kinds):
    return Decision("S", "?", "R-1", [Action.make(k, f"{k}{i}") for i, k in enumerate(option_kinds)], kind=kind)


def test_core_bot_dispatches_by_decision_kind_and_explains():
    bot = _Toy(seed=3)
    assert bot.choose(None, _decision("pick", "pick", "pick")).label == "pick1" and reason_of(bot) == "high"
    assert bot.choose(None, _decision("pair", "a", "b", "end")).kind == "b" and bot.last_reason == "pair"
    # a kind with no handler, or a weighed decision left with its closing option only: the fallback says so
    assert bot.choose(None, _decision("other", "x", "end")).kind == "end" and "nothing to decide" in bot.last_reason
    assert bot.choose(None, _decision("pair", "end")).kind == "end" and "nothing to decide" in bot.last_reason


def test_core_bot_ties_broken_by_its_own_seeded_generator():
    picks = {_Toy(seed=s).best([(1, Action.make("a", "a"), "x"), (1, Action.make("b", "b"), "y")]).kind
             for s in range(12)}
    assert picks == {"a", "b"}
    assert _Toy(seed=1).rng.random() == _Toy(seed=1).rng.random()


def test_core_reason_of_a_player_without_one_is_empty():
    assert reason_of(RandomPlayer(0)) == "" and reason_of(object()) == ""


@pytest.mark.parametrize("game_id,options", [("tet", {}), ("tet", {"players": 4}), ("yotr", {}), ("fitl", {}),
                                             ("row", {})])
def test_core_bots_every_game_bot_is_a_core_bot_and_every_choice_has_a_reason(game_id, options):
    game = wargames.load(game_id, seed=2, **options)
    bots = {s: game.default_player(s) for s in game.sides}
    assert all(isinstance(b, Bot) for b in bots.values())
    game.advance_to(turn=2) if game_id != "row" else game.advance("phase")
    made = [e for e in game.record if "act" in e]
    assert made and all(e.get("why") for e in made)


@pytest.mark.parametrize("game_id", ["tet", "yotr"])
def test_core_bots_tet_and_yotr_decisions_name_their_kind(game_id):
    """Every decision of a Tet or Year of the Rat game names its kind (no bot guesses it from the options),
    and the game's bot has an answer for each kind it meets (or falls back on purpose)."""
    seen = set()

    class Watch(RandomPlayer):
        def choose(self, game, decision):
            seen.add(decision.kind)
            return super().choose(game, decision)

    game = wargames.load(game_id, seed=4)
    for s in game.sides:
        game.players[s] = Watch(4)
    game.play()
    assert seen and "choose" not in seen
    bots = [game.default_player(s) for s in game.sides]
    unanswered = {k for k in seen if not any(hasattr(b, f"on_{k}") for b in bots)}
    assert unanswered <= {"add_hex"}  # YOTR-CBT-D: the bot never widens an attack (the fallback declines)
