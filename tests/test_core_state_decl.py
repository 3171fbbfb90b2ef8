"""The state as one declared value (issue #29 item 2): a game declares its state fields once
(``wargames.core.state``), and ``state_dict`` (so the digest), the checkpoints and the transition check derive from
that declaration; an attribute declared nowhere is refused, naming it."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import Action, Game, RandomPlayer, StateDecl, StateField
from wargames.core.engine import ENGINE_ATTRS, EngineError
from wargames.core.journal import JournalDict
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec
from wargames.core.state import by_key, members

GAMES = [
    ("tet", "historical"),
    ("yotr", "historical"),
    ("fitl", "short"),
    ("row", "year-in-i-corps"),
]


class Camp(Game):
    """A toy game with a declared state: a journalled place per unit, a plain set of units that rested."""

    game_id = "toy_camp"
    title = "Camp"
    sides = ("Red",)
    declared_state = StateDecl(
        (
            StateField("loc", by_key, journalled=True),
            StateField("rested", members, explained="bookkeeping"),
        ),
        derived=frozenset({"moves"}),
        static=frozenset({"careless"}),
    )

    def load_sequence(self):
        step = StepSpec(id="march", name="March", procedure="march", rule="TOY-1")
        return SequenceOfPlay(
            game=self.game_id,
            turns=3,
            source="rules: toy",
            phases=[PhaseSpec(id="march", number=1, name="March", rule="TOY-1", steps=[step])],
        )

    def load_scenario(self, scenario):
        self.careless = False

    def default_player(self, side):
        return RandomPlayer(self.seed)

    def new_state(self):
        self.loc = JournalDict({"u1": "a", "u2": "a"}, journal=self._journal, field="loc", key="unit")
        self.rested: set[str] = set()
        self.moves = 0

    def march(self):
        act = yield self.decide(
            "Red", "who marches?", "TOY-2", [Action.make("march", unit=u) for u in self.loc]
        )
        uid = act["unit"]
        self.loc[uid] = chr(ord(self.loc[uid]) + 1)
        self.rested.discard(uid)
        self.rested.update(u for u in self.loc if u != uid)
        self.moves += 1
        if self.careless:
            self.tired = True  # a new field, declared nowhere
        yield self.ruling("TOY-2", "March", f"{uid} marches")


def test_core_state_dict_is_written_from_the_declaration():
    g = Camp(seed=1)
    g.apply({"kind": "march", "params": {"unit": "u2"}})
    assert g.state_dict() == {"loc": {"u1": "a", "u2": "b"}, "rested": ["u1"]}
    assert "moves" not in g.state_dict()  # derived: not in the digest
    assert Camp.derived_attrs == {"moves"} and Camp.static_attrs == {"careless"}


def test_core_checkpoints_copy_the_declared_fields_and_the_derived_ones_only():
    g = Camp(seed=1)
    g.apply({"kind": "march", "params": {"unit": "u1"}})
    assert sorted(g.state_attrs()) == ["loc", "moves", "rested"]
    before = g.digest()
    g.apply({"kind": "march", "params": {"unit": "u2"}})
    g.undo()
    assert g.digest() == before and g.moves == 1


def test_core_a_state_field_not_declared_is_caught_naming_it():
    g = Camp.unstarted(seed=1)
    g.careless = True
    g.set_players({"Red": None})
    g.advance("decision")
    with pytest.raises(EngineError, match=r"\['tired'\] are not declared"):
        g.apply({"kind": "march", "params": {"unit": "u1"}})
    assert "tired" not in vars(g) and g.decision is not None  # put back as it was


def test_core_transition_check_reads_which_fields_are_journalled_from_the_declaration():
    g = Camp(seed=1)
    assert g.journalled_fields() == {"loc"}
    assert not g.journal_declaration_problems()
    g.rested = JournalDict(journal=g._journal, field="rested", key="unit")  # journalled, declared plain
    g.loc = dict(g.loc)  # declared journalled, now plain
    problems = g.transition_problems(g.state_dict(), [])
    assert "state field 'loc' is declared journalled but is not kept in a journalled container" in problems
    assert "state field 'rested' is kept in a journalled container but not declared journalled" in problems


def test_core_the_transition_check_uses_the_declared_explanations():
    g = Camp(seed=1)
    assert [(e.pattern, e.how) for e in Camp.explained] == [("rested", "bookkeeping")]
    before = g.state_dict()
    g.rested.add("u1")  # bookkeeping: changes freely
    assert g.transition_problems(before, []) == []


def test_core_a_state_declaration_names_each_attribute_once():
    with pytest.raises(ValueError, match="declared more than once"):
        StateDecl((StateField("loc"),), derived=frozenset({"loc"}))
    with pytest.raises(ValueError, match="explained must be one of"):
        StateField("loc", explained="somehow")


@pytest.mark.parametrize("game_id,scenario", GAMES)
def test_core_every_game_declares_its_state_once(game_id, scenario):
    """Each game's state_dict is its declaration's dump, every attribute is declared, and what the declaration
    calls journalled is journalled."""
    g = wargames.load(game_id, scenario, seed=1)
    g.advance("phase")
    decl = type(g).declared_state
    assert decl is not None
    assert "state_dict" not in type(g).__dict__  # derived, not hand-written
    assert g.state_dict() == decl.dump(g)
    assert not decl.undeclared(vars(g), ENGINE_ATTRS)
    assert not g.journal_declaration_problems()
