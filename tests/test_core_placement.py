"""One piece-to-place index in the core (issue #29 item 2): ``wargames.core.placement.Placement`` keeps its reverse
index place -> pieces in step with every move, journals every move, and is copied and restored with its index."""

from __future__ import annotations

import copy
import pickle

import pytest

import wargames
from wargames.core.journal import Journal
from wargames.core.placement import Placement


def test_core_placement_keeps_its_reverse_index_in_step_and_journals_each_move():
    j = Journal()
    loc = Placement({"u1": "a", "u2": "a", "u3": "box"}, journal=j, unindexed={"box"})
    assert loc.index == {"a": {"u1", "u2"}}
    loc["u1"] = "b"
    loc["u3"] = "a"
    loc["u2"] = "box"
    assert loc.index == {"b": {"u1"}, "a": {"u3"}} and loc.pieces_at("a") == ["u3"]
    del loc["u1"]
    assert loc.pop("u3") == "a" and loc.index == {} and not loc.index_problems()
    assert j.take() == [
        {"field": "loc", "unit": "u1", "from": "a", "removed": True},
        {"field": "loc", "unit": "u3", "from": "box", "removed": True},
        {"field": "loc", "unit": "u2", "from": "a", "to": "box"},
    ]


def test_core_placement_settings_keep_empty_places_and_ordered_pieces():
    tet_like = Placement((("u1", None), ("u2", None)), keep_empty=True)
    tet_like["u1"] = "x"
    tet_like["u2"] = "x"
    assert tet_like.index == {None: set(), "x": {"u1", "u2"}}  # every place ever occupied, in that order
    row_like = Placement(field="pos", key="piece", ordered=True)
    for piece in ("c", "a", "b"):
        row_like[piece] = "h1"
    assert row_like.index == {"h1": ["a", "b", "c"]}


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda p: pickle.loads(pickle.dumps(p))])
def test_core_placement_is_copied_with_its_index(clone):
    loc = Placement({"u1": "a"}, journal=Journal(), ordered=True)
    other = clone(loc)
    other["u1"] = "b"
    assert loc.index == {"a": ["u1"]} and other.index == {"b": ["u1"]} and not other.index_problems()


@pytest.mark.parametrize(
    "game_id,scenario,field",
    [("tet", "historical", "loc"), ("yotr", "historical", "loc"), ("row", "year-in-i-corps", "pos")],
)
def test_core_every_game_with_piece_ids_uses_the_core_placement(game_id, scenario, field):
    """Tet, Year of the Rat and Rumor of War keep their pieces' places in the core's Placement (Fire in the Lake's
    pieces are interchangeable, counted per space: it has no piece ids to index), and Back restores the index."""
    g = wargames.load(game_id, scenario, seed=2)
    g.advance("phase")
    g.advance("phase")
    loc = getattr(g, field)
    assert type(loc) is Placement and not loc.index_problems()
    before = {k: sorted(v, key=str) for k, v in loc.index.items()}
    if g.decision is not None:
        g.apply(g.legal_actions()[-1])
        g.undo()
        loc = getattr(g, field)
        assert {k: sorted(v, key=str) for k, v in loc.index.items()} == before and not loc.index_problems()
