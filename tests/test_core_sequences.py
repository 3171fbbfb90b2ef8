"""The core walks every kind of sequence of play the four games need, with no special case in the core.

Three toy games declare their sequences as data (built in code here) and write procedures as generators:
* two player-turns per game turn with a sudden-death victory check mid-phase (Year of the Rat's shape);
* a card-driven game whose turns run until the deck is empty, with phases only on some cards (Fire in the Lake);
* alternating activations where the other side may react inside an activation (Rumor of War).
"""

from __future__ import annotations

from typing import Any

import pytest

from wargames.core import Action, Game, RandomPlayer
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec


def _seq(game, turns, phases):
    return SequenceOfPlay(game=game, turns=turns, source="rules: toy", phases=[
        PhaseSpec(id=pid, number=i + 1, name=pid, rule=f"TOY-{i + 1}", when=when,
                  steps=[StepSpec(id=pid, name=pid, procedure=proc, rule=f"TOY-{i + 1}")])
        for i, (pid, proc, when) in enumerate(phases)])


class _Toy(Game):
    def load_scenario(self, scenario):
        pass

    def default_player(self, side):
        return RandomPlayer(self.seed)


class PlayerTurns(_Toy):
    """Communist then Allied player-turn; each attack scores 1 VP; 4 VP ends the game at once."""

    game_id, title, sides = "toy-yotr", "Toy player-turns", ("Communist", "Allied")

    def load_sequence(self):
        return _seq(self.game_id, 5, [("com_move", "attack_com", None), ("all_move", "attack_all", None)])

    def new_state(self):
        self.vp = 0

    def state_dict(self) -> dict[str, Any]:
        return {"vp": self.vp}

    def attack_com(self):
        for _ in range(2):
            a = yield self.decide("Communist", "attack?", "TOY-1", [Action.make("attack"), Action.make("wait")])
            if a.kind == "attack":
                self.vp += 1
                yield self.ruling("TOY-1", "attack", f"VP now {self.vp}")
                if self.vp >= 4:
                    yield self.end("TOY-V", "Decisive", "4 VP: decisive victory, the game ends now")
                    yield self.ruling("TOY-X", "never", "this line must never run")

    def attack_all(self):
        yield self.ruling("TOY-2", "Allied turn", "nothing happens")


def test_core_sequence_two_player_turns_and_sudden_death():
    g = PlayerTurns(seed=1)
    g.set_players({"Communist": None})
    while not g.is_over:
        if g.decision:
            g.apply(Action.make("attack"))
        else:
            g.advance("decision")
    assert g.result.rule_id == "TOY-V" and g.turn == 2 and g.phase.id == "com_move"
    assert "TOY-X" not in [r.rule_id for r in g.log]
    phases = [r.result["phase"] for r in g.log if r.step == "phase"]
    assert phases == ["com_move", "all_move", "com_move"]


class Cards(_Toy):
    """Turns run until the deck is empty; the coup phase happens only on coup cards."""

    game_id, title, sides = "toy-fitl", "Toy cards", ("US", "VC")

    def load_sequence(self):
        return _seq(self.game_id, None, [("card", "play_card", None), ("coup", "coup_round", "is_coup")])

    def new_state(self):
        self.deck = ["event", "coup", "event", "event", "coup"]
        self.card = None

    def state_dict(self):
        return {"deck": self.deck, "card": self.card}

    def is_coup(self):
        return self.card == "coup"

    def play_card(self):
        self.card = self.deck.pop(0)
        if self.card != "coup":
            yield self.decide("US", "event or pass", "TOY-1", [Action.make("event"), Action.make("pass")])
        yield self.ruling("TOY-1", "card", f"card {self.card}")

    def coup_round(self):
        yield self.ruling("TOY-2", "coup", "coup round")
        if not self.deck:
            yield self.end("TOY-V", "final coup", "deck empty")


def test_core_sequence_card_driven_turns_until_the_game_ends():
    g = Cards(seed=2)
    g.play()
    assert g.is_over and g.turn == 5 and [r.title for r in g.log].count("coup") == 2


class Activations(_Toy):
    """Sides alternate activations; the non-phasing side may react inside each activation."""

    game_id, title, sides = "toy-row", "Toy activations", ("US", "NVA")

    def load_sequence(self):
        return _seq(self.game_id, 1, [("ops", "operations", None)])

    def new_state(self):
        self.reactions = 0

    def state_dict(self):
        return {"reactions": self.reactions}

    def operations(self):
        for i in range(4):
            side, other = self.sides[i % 2], self.sides[(i + 1) % 2]
            yield self.decide(side, "activate an HQ", "TOY-1", [Action.make("activate", hq=i)])
            react = yield self.decide(other, "react?", "TOY-R", [Action.make("react"), Action.make("no")])
            if react.kind == "react":
                self.reactions += 1
                yield self.ruling("TOY-R", "reaction", f"{other} reacts inside {side}'s activation")
            yield self.ruling("TOY-1", "activation done", f"{side} activation {i} done")
        yield self.end("TOY-V", "end", "done")


@pytest.mark.parametrize("seed", range(5))
def test_core_sequence_reactions_inside_activations_replay_exactly(seed):
    g = Activations(seed=seed)
    g.set_players({"US": RandomPlayer(seed), "NVA": RandomPlayer(seed + 1)})
    g.advance("end")
    sides = [e["act"]["kind"] for e in g.record]
    assert sides.count("activate") == 4 and len(g.record) == 8
    again = Activations(seed=seed, _start=False)
    again._replay(g.record, g.position)
    assert again.digest() == g.digest()
