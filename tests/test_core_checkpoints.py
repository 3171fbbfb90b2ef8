"""Checkpoints (issue #13): Back, rewind, branch and a refused action restore a copy of the state taken at
a phase or step start and replay only the rest.  Whatever the path, the state must be the one a replay
from the very start gives (same digest, same rulings)."""

from __future__ import annotations

import random

import pytest

import wargames
from wargames.core import Action, Game, RandomPlayer
from wargames.core.engine import EngineError
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec

GAMES = [("tet", "historical"), ("yotr", "historical"), ("fitl", "short"), ("row", "year-in-i-corps")]


def from_scratch(game):
    """The same record replayed into a new game with no checkpoints (the slow, obviously right path): the game's
    save, reopened."""
    return wargames.open_save(game.save())


def same(a, b) -> None:
    assert a.position == b.position
    assert a.digest() == b.digest()
    assert [r.to_dict() for r in a.log] == [r.to_dict() for r in b.log]


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_undo_and_rewind_from_checkpoints_equal_a_replay_from_the_start(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=2)
    g.play()
    n = len(g.decisions())
    rng = random.Random(5)
    for steps in sorted(rng.sample(range(1, n // 3), 4)):
        g.undo(steps)
        assert g._checkpoints, "no checkpoint was taken"
        same(g, from_scratch(g))
    turn = max(1, g.turn - 1)
    g.rewind(turn)
    same(g, from_scratch(g))


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_a_new_line_of_play_after_back_never_reuses_the_abandoned_checkpoints(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=3)
    g.set_players({s: None for s in g.sides})
    for _ in range(40):  # a person's first decisions: always the first legal action
        g.apply(g.legal_actions()[0])
    g.undo(30)
    options = g.legal_actions()
    g.apply(options[-1])  # a different choice where there is one
    for _ in range(25):
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
    g.undo(3)
    same(g, from_scratch(g))


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_branch_shares_checkpoints_but_not_state(game_id, scenario):
    g = wargames.load(game_id, scenario, seed=4)
    g.advance("turn")
    before = g.digest()
    other = g.branch()
    assert other.digest() == before and other._checkpoints is not g._checkpoints
    other.play()
    assert g.digest() == before
    g.play()
    same(g, from_scratch(g))


# ---------------------------------------------------------------------------- checkpoints inside a long step
class Battles(Game):
    """A toy long step: a preparation, then battles one after another, each with two fire decisions.  The loop
    over battles is restartable: its place (the battles fought) is the data of the checkpoint "battles"."""

    game_id, title, sides = "toy-battles", "Toy battles", ("Red", "Blue")
    checkpoint_every = 2

    def load_sequence(self):
        return SequenceOfPlay(
            game=self.game_id,
            turns=2,
            source="rules: toy",
            phases=[
                PhaseSpec(
                    id="combat",
                    number=1,
                    name="Combat",
                    rule="TOY-1",
                    steps=[StepSpec(id="combat", name="Combat", procedure="combat", rule="TOY-1")],
                )
            ],
        )

    def load_scenario(self, scenario):
        pass

    def default_player(self, side):
        return RandomPlayer(self.seed)

    def new_state(self):
        self.hits = {a: 0 for a in AREAS}
        self.prepared = 0

    def state_dict(self):
        return {"hits": self.hits, "prepared": self.prepared}

    def combat(self):
        again = self.resumed("battles")
        done = list(again["done"]) if again else []
        if again is None:
            self.prepared += 1
            yield self.ruling("TOY-1", "Prepared", f"preparation {self.prepared}")
        while len(done) < len(AREAS):
            self.checkpoint("battles", done=done)
            act = yield self.decide(
                "Red",
                "which battle?",
                "TOY-2",
                [Action.make("battle", area=a) for a in AREAS if a not in done],
            )
            done.append(act["area"])
            for _ in range(2):
                fire = yield self.decide("Blue", "fire?", "TOY-3", [Action.make("fire"), Action.make("hold")])
                if fire.kind == "fire":
                    roll = self.dice.roll(6, "fire")
                    self.hits[act["area"]] += roll.value
                    yield self.ruling("TOY-3", "Fire", f"{roll.value} hits", dice=[roll])


AREAS = ("north", "south", "east")


class Forgetful(Battles):
    """A procedure that checkpoints but does not take up its mark when resumed: a programming error."""

    game_id = "toy-forgetful"

    def combat(self):
        for area in AREAS:
            self.checkpoint("battles", done=[])
            yield self.decide("Red", "which battle?", "TOY-2", [Action.make("battle", area=area)])
            yield self.decide("Blue", "fire?", "TOY-3", [Action.make("fire"), Action.make("hold")])


def straight_play(game, players, n: int) -> dict[int, str]:
    """Play ``n`` decisions through the public API, noting the digest at each pending decision (by the length
    of the record)."""
    seen = {}
    for _ in range(n):
        if game.is_over:
            break
        if game.decision is None:
            game.advance("decision")
            continue
        seen[len(game.record)] = game.digest()
        game.apply(players[game.decision.side].choose(game, game.decision))
    return seen


def test_core_checkpoint_inside_a_step_resumes_the_restartable_loop():
    g = Battles(seed=1, players={"Red": None, "Blue": None})
    seen = straight_play(g, {"Red": RandomPlayer(1), "Blue": RandomPlayer(2)}, 40)
    marks = [cp for cp in g._checkpoints if cp.where[6] is not None]
    assert marks and all(cp.where[6][0] == "battles" for cp in marks)
    restored_from_mark = 0
    while g.decisions():
        g.undo()
        restored_from_mark += g._checkpoints[-1].where[6] is not None
        assert g.digest() == seen[len(g.record)]
    assert restored_from_mark > 0
    assert g.prepared == 1 and [r.title for r in g.log].count("Prepared") == 1  # never prepared twice


def test_core_checkpoints_inside_a_step_are_taken_only_every_few_decisions():
    g = Battles(seed=2, players={"Red": None, "Blue": None})
    straight_play(g, {"Red": RandomPlayer(3), "Blue": RandomPlayer(4)}, 60)
    marks = [cp.n_record for cp in g._checkpoints if cp.where[6] is not None]
    starts = [cp.n_record for cp in g._checkpoints]
    for cp_n in marks:  # a mark is at least checkpoint_every decisions after the checkpoint before it
        before = max(n for n in starts if n < cp_n) if any(n < cp_n for n in starts) else 0
        assert cp_n - before >= Battles.checkpoint_every


def test_core_a_procedure_that_ignores_its_mark_is_an_engine_error_naming_it():
    g = Forgetful(seed=1, players={"Red": None, "Blue": None})
    for _ in range(4):  # a mark is taken after the second decision
        g.apply(g.legal_actions()[0])
    assert g._checkpoints[-1].where[6] is not None
    with pytest.raises(EngineError, match="resumed"):
        g.undo()


@pytest.mark.parametrize(
    "game_id,scenario,n",
    [
        ("tet", "historical", 700),
        ("yotr", "historical", 250),
        ("row", "year-in-i-corps", 250),
        ("row", "tet-offensive", 300),
    ],
)
def test_core_back_inside_long_steps_resumes_their_restartable_loops_exactly(game_id, scenario, n):
    """Tet's battles and moves, Year of the Rat's movement, Rumor of War's activations and Communist strategic
    movement checkpoint between battles, units and combats: Back through every decision gives the state seen in
    straight play."""
    g = wargames.load(game_id, scenario, seed=1)
    bots = {s: g.default_player(s) for s in g.sides}
    g.set_players({s: None for s in g.sides})
    seen = straight_play(g, bots, n)
    from_mark = 0
    while g.decisions():
        g.undo()
        from_mark += g._checkpoints[-1].where[6] is not None
        assert g.digest() == seen[len(g.record)], g.where()
    assert from_mark > 0


@pytest.mark.parametrize("game_id,scenario", [("tet", "historical"), ("fitl", "short")])
def test_core_checkpoints_without_copies_play_the_same_game_and_still_go_back(game_id, scenario):
    """Issue #33 item 4: a game that keeps no copies in its checkpoints (an analysis replay) makes the same rulings
    and ends in the same state; Back still works, from the copies taken before, or from the start."""
    full = wargames.load(game_id, scenario, seed=4)
    full.advance("turn")
    light = full.branch()
    light.without_copies()
    full.play()
    light.play()
    same(light, full)
    assert any(cp.state is None for cp in light._checkpoints), "no checkpoint was taken without a copy"
    light.undo(5)
    full.undo(5)
    same(light, full)
    same(light, from_scratch(light))
