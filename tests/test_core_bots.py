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
    return Decision(
        "S", "?", "R-1", [Action.make(k, f"{k}{i}") for i, k in enumerate(option_kinds)], kind=kind
    )


def test_core_bot_dispatches_by_decision_kind_and_explains():
    bot = _Toy(seed=3)
    assert bot.choose(None, _decision("pick", "pick", "pick")).label == "pick1" and reason_of(bot) == "high"
    assert bot.choose(None, _decision("pair", "a", "b", "end")).kind == "b" and bot.last_reason == "pair"
    # a kind with no handler, or a weighed decision left with its closing option only: the fallback says so
    assert (
        bot.choose(None, _decision("other", "x", "end")).kind == "end"
        and "nothing to decide" in bot.last_reason
    )
    assert bot.choose(None, _decision("pair", "end")).kind == "end" and "nothing to decide" in bot.last_reason


def test_core_bot_knows_the_kinds_it_answers_or_leaves_to_its_fallback_on_purpose():
    class Declines(_Toy):
        fallback_kinds = frozenset({"widen"})

    assert _Toy().knows("pick") and _Toy().knows("pair") and not _Toy().knows("widen")
    assert Declines().knows("widen") and not Declines().knows("other")


def test_core_bot_ties_broken_by_its_own_seeded_generator():
    picks = {
        _Toy(seed=s).best([(1, Action.make("a", "a"), "x"), (1, Action.make("b", "b"), "y")]).kind
        for s in range(12)
    }
    assert picks == {"a", "b"}
    assert _Toy(seed=1).rng.random() == _Toy(seed=1).rng.random()


def test_core_reason_of_a_player_without_one_is_empty():
    assert reason_of(RandomPlayer(0)) == "" and reason_of(object()) == ""


@pytest.mark.parametrize(
    "game_id,options", [("tet", {}), ("tet", {"players": 4}), ("yotr", {}), ("fitl", {}), ("row", {})]
)
def test_core_bots_every_game_bot_is_a_core_bot_and_every_choice_has_a_reason(game_id, options):
    game = wargames.load(game_id, seed=2, **options)
    bots = {s: game.default_player(s) for s in game.sides}
    assert all(isinstance(b, Bot) for b in bots.values())
    game.advance_to(turn=2) if game_id != "row" else game.advance("phase")
    made = [e for e in game.record if "act" in e]
    assert made and all(e.get("why") for e in made)


class _Watch:
    """Plays ``player`` and notes the kind of every decision it is offered."""

    def __init__(self, player, seen):
        self.player, self.seen, self.last_reason = player, seen, ""

    def choose(self, game, decision):
        self.seen.append((decision.side, decision.kind))
        act = self.player.choose(game, decision)
        self.last_reason = reason_of(self.player)
        return act


def _kinds_met(game_id, scenario, seed, player):
    game = wargames.load(game_id, scenario, seed)
    seen: list[tuple[str, str]] = []
    for s in game.sides:
        game.players[s] = _Watch(player(game, s), seen)
    game.play()
    return game, seen


@pytest.mark.parametrize(
    "game_id,scenario",
    [("tet", None), ("yotr", None), ("fitl", "short"), ("row", "year-in-i-corps"), ("row", "tet-offensive")],
)
def test_core_bots_every_decision_of_a_bot_game_names_a_kind_its_bot_knows(game_id, scenario):
    """Issue #14: every decision a bot game offers names its kind (never the default "choose"), and the bot of
    the deciding side knows that kind: it has an ``on_<kind>`` answer, or leaves it to its fallback on purpose."""
    game, seen = _kinds_met(game_id, scenario, 4, lambda g, s: g.default_player(s))
    assert seen and all(k and k != "choose" for _, k in seen)
    bots = {s: game.default_player(s) for s in game.sides}
    unknown = {(s, k) for s, k in seen if not bots[s].knows(k)}
    assert not unknown, f"{game_id}: decision kinds its bot does not know: {sorted(unknown)}"


@pytest.mark.parametrize("game_id", ["tet", "yotr", "row"])
def test_core_bots_random_games_meet_only_kinds_the_bots_know(game_id):
    """Random players wander where bots never go; still every decision names a kind some bot of the game knows."""
    game, seen = _kinds_met(game_id, None, 4, lambda g, s: RandomPlayer(4))
    assert seen and all(k and k != "choose" for _, k in seen)
    bots = [game.default_player(s) for s in game.sides]
    assert {k for _, k in seen if not any(b.knows(k) for b in bots)} == set()
