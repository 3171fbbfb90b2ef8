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
from wargames.core.sequence import AlternateSpec, PhaseSpec, ReactionSpec, SequenceOfPlay, StepSpec
from wargames.testing import replayed


def _seq(game, turns, phases):
    return SequenceOfPlay(
        game=game,
        turns=turns,
        source="rules: toy",
        phases=[
            PhaseSpec(
                id=pid,
                number=i + 1,
                name=pid,
                rule=f"TOY-{i + 1}",
                when=when,
                steps=[StepSpec(id=pid, name=pid, procedure=proc, rule=f"TOY-{i + 1}")],
            )
            for i, (pid, proc, when) in enumerate(phases)
        ],
    )


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
            a = yield self.decide(
                "Communist", "attack?", "TOY-1", [Action.make("attack"), Action.make("wait")]
            )
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
    again = replayed(g)  # the record applied decision by decision on a fresh game (wargames.testing)
    assert again.digest() == g.digest()


class Alternating(_Toy):
    """Rumor of War's shape declared as data (issue #14): the sides alternate HQ activations, the side with
    the initiative first, until both have passed in a row; inside each activation the other side may make a
    reserve move (a declared reaction window) if it still has a reserve."""

    game_id, title, sides = "toy-alt", "Toy alternation", ("US", "NVA")

    def load_sequence(self):
        return SequenceOfPlay(
            game=self.game_id,
            turns=2,
            source="rules: toy",
            phases=[
                PhaseSpec(
                    id="ops",
                    number=1,
                    name="Operations",
                    rule="TOY-9",
                    steps=[
                        StepSpec(
                            id="activations",
                            name="HQ activations",
                            procedure="activation",
                            rule="TOY-9.2",
                            alternate=AlternateSpec(until="both_passed", first="initiative", max_rounds=40),
                            reactions=[
                                ReactionSpec(
                                    id="reserve",
                                    name="Reserve move",
                                    procedure="reserve_move",
                                    rule="TOY-9.2.6",
                                    when="has_reserve",
                                )
                            ],
                        )
                    ],
                )
            ],
        )

    def new_state(self):
        self.passed = {"US": False, "NVA": False}
        self.hqs = {"US": 3, "NVA": 2}
        self.reserves = {"US": 1, "NVA": 2}
        self.log_of_turns: list[str] = []

    def state_dict(self):
        return {
            "passed": dict(self.passed),
            "hqs": dict(self.hqs),
            "reserves": dict(self.reserves),
            "turns": list(self.log_of_turns),
        }

    def initiative(self):
        return "NVA" if self.turn % 2 else "US"

    def both_passed(self):
        done = all(self.passed.values())
        if done:  # a new turn starts with fresh HQs
            self.passed = {"US": False, "NVA": False}
        return done

    def has_reserve(self, hq):
        return self.reserves[self.other()] > 0

    def other(self):
        return "NVA" if self.acting == "US" else "US"

    def activation(self, side):
        options = [Action.make("pass")] + ([Action.make("activate")] if self.hqs[side] else [])
        act = yield self.decide(side, "activate an HQ or pass", "TOY-9.2", options)
        self.log_of_turns.append(f"{self.turn}:{side}:{act.kind}")
        if act.kind == "pass":
            self.passed[side] = True
            yield self.ruling("TOY-9.2", "pass", f"{side} passes")
            return
        self.passed = {"US": False, "NVA": False}
        self.hqs[side] -= 1
        yield from self.react("reserve", hq=self.hqs[side])
        yield self.ruling("TOY-9.2", "activation", f"{side} activates an HQ")

    def reserve_move(self, side, hq):
        act = yield self.decide(
            side, f"reserve move against HQ {hq}?", "TOY-9.2.6", [Action.make("hold"), Action.make("reserve")]
        )
        if act.kind == "reserve":
            self.reserves[side] -= 1
            yield self.ruling(
                "TOY-9.2.6", "reserve move", f"{side} moves a reserve inside {self.acting}'s turn"
            )


def test_core_sequence_alternation_until_both_pass_with_reaction_windows():
    g = Alternating(seed=1)
    g.set_players({s: None for s in g.sides})
    seen = []
    while not g.is_over:
        d = g.decision
        seen.append((d.side, d.rule_id, g.acting))
        g.apply(d.options[-1])  # always activate if possible, and always use a reserve
    first_turn = [e for e in g.log_of_turns if e.startswith("1:")]
    assert first_turn[0].startswith("1:NVA")  # the initiative side starts
    sides = [e.split(":")[1] for e in first_turn]
    assert all(a != b for a, b in zip(sides, sides[1:], strict=False))  # strictly alternating
    assert first_turn[-2:] in (["1:US:pass", "1:NVA:pass"], ["1:NVA:pass", "1:US:pass"])
    reactions = [s for s in seen if s[1] == "TOY-9.2.6"]
    assert reactions and all(side != acting for side, _, acting in reactions)  # the other side reacts
    assert g.reserves == {"US": 0, "NVA": 0} and g.turn == 2


def test_core_sequence_alternation_checkpoints_resume_mid_alternation():
    g = Alternating(seed=2)
    g.set_players({"US": RandomPlayer(3), "NVA": RandomPlayer(4)})
    g.play()
    assert any(cp.where[4] > 0 for cp in g._checkpoints)  # checkpoints inside the alternation
    for steps in (1, 3, 6):
        g.undo(steps)
        fresh = replayed(g)
        assert fresh.digest() == g.digest() and fresh.acting == g.acting


def test_core_sequence_table_shows_alternation_and_reactions():
    rows = Alternating(seed=1).sequence.rows()
    assert "in turn (initiative starts), until both_passed" in rows[0]["actor"]
    assert (
        rows[1]["step"].strip() == "inside HQ activations: Reserve move"
        and rows[1]["actor"] == "the other side"
    )


@pytest.mark.parametrize(
    "field,bad",
    [
        ("procedure", "activaton"),
        ("until", "both_pased"),
        ("first", "initiativ"),
        ("reaction", "reserve_mov"),
    ],
)
def test_core_sequence_unknown_procedure_is_a_load_error_naming_the_step(field, bad):
    from wargames.core.data import DataError

    class Typo(Alternating):
        def load_sequence(self):
            seq = super().load_sequence()
            step = seq.phases[0].steps[0]
            if field == "procedure":
                step = step.model_copy(update={"procedure": bad})
            elif field == "reaction":
                step = step.model_copy(
                    update={"reactions": [step.reactions[0].model_copy(update={"procedure": bad})]}
                )
            else:
                step = step.model_copy(update={"alternate": step.alternate.model_copy(update={field: bad})})
            phase = seq.phases[0].model_copy(update={"steps": [step]})
            return seq.model_copy(update={"phases": [phase]})

    with pytest.raises(DataError) as err:
        Typo(seed=1)
    assert bad in str(err.value) and "step activations" in str(err.value)


def test_core_sequence_an_undeclared_reaction_window_is_refused():
    from wargames.core import EngineError

    class Undeclared(Alternating):
        def activation(self, side):
            yield from self.react("counterattack")

    with pytest.raises(EngineError, match="no reaction window 'counterattack'"):
        Undeclared(seed=1)
