"""Lesson positions (issue #13): set-up edits as load options, part of the record, refused cleanly when bad."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import Action, PositionError
from wargames.core.data import DataError
from wargames.core.registry import game_type
from wargames.testing import Passive, position, refused

CASES = [
    ("tet", "historical", {"units": {"vc_i_01": "11"}, "face_up": {"vc_i_02": True}, "score": {"VC": 40}}),
    ("yotr", "historical", {"units": {"nlf_1": "eliminated"}, "towns": {"1484": "nlf"}}),
    (
        "fitl",
        "short",
        {
            "pieces": {"saigon": {"us_troops": 6, "vc_guerrillas:a": 1}},
            "support": {"hue": "active_opposition"},
            "tracks": {"aid": 20, "trail": 3},
        },
    ),
    (
        "row",
        "year-in-i-corps",
        {"units": {"vc_802": "3349"}, "markers": {"vc_802": ["Disrupted"]}, "pools": {"US Artillery": 7}},
    ),
]


def lessons(game):
    return [r for r in game.log if r.rule_id == "LESSON"]


@pytest.mark.parametrize("game_id,scenario,edits", CASES)
def test_core_position_edits_are_rulings_and_replay_from_the_record(game_id, scenario, edits):
    g = wargames.load(game_id, scenario, seed=3, position=edits, dice=[6, 1])
    made = lessons(g)
    assert len(made) >= len([v for e in edits.values() for v in e.values()]) + 1
    assert made[-1].result == {"dice": [6, 1]}
    assert all("not a rule of the game" in r.explanation for r in made)
    again = wargames.open_save(g.save())
    assert again.digest() == g.digest()
    g.play()
    forced = list({id(d): d for r in g.log for d in r.dice if d.forced}.values())  # a roll may be cited twice
    # used in order by the next rolls (Fire in the Lake rolls few dice: any unused stay queued)
    assert [d.value for d in forced[:2]] + g.dice.forced == [6, 1]
    g.undo(2)
    assert g.digest() == wargames.open_save(g.save()).digest()


def test_core_position_tet_edits_land_in_the_state():
    g = wargames.load("tet", seed=3, position=CASES[0][2])
    assert g.loc["vc_i_01"] == "11" and g.face_up["vc_i_02"] and g.score["VC"] == 40


def test_core_position_fitl_pieces_come_from_available_and_tracks_are_set():
    plain = wargames.load("fitl", "short", seed=3)
    g = wargames.load("fitl", "short", seed=3, position=CASES[2][2])
    b, p = g.board, plain.board
    assert b.pieces["saigon"]["us_troops"] == 6
    assert b.available["us_troops"] == p.available["us_troops"] - (6 - p.pieces["saigon"]["us_troops"])
    assert b.tracks["aid"] == 20 and b.tracks["trail"] == 3 and b.support["hue"] == -2
    assert not g.invariants()


def test_core_position_fitl_deck_and_rvn_leader_options():
    g = wargames.load("fitl", "full", seed=3, deck=[107, 55, 68], rvn_leader="thieu")
    assert (g.card, g.next_card) == (107, 55) and g.deck[0] == 68 and g.rvn_leader == 128
    plain = wargames.load("fitl", "full", seed=3)
    assert len(g.deck) + 1 == len(plain.deck)  # the Thieu card came out of the deck
    notes = [r.explanation for r in lessons(g)]
    assert any("one Coup card fewer" in n for n in notes) and any("Burning Bonze" in n for n in notes)
    assert wargames.open_save(g.save()).digest() == g.digest()


@pytest.mark.parametrize(
    "game_id,scenario,bad,says",
    [
        ("tet", "historical", {"units": {"vc_i_1": "11"}}, "unknown unit 'vc_i_1' (did you mean vc_i_01"),
        ("tet", "historical", {"units": {"vc_i_01": "atlantis"}}, "unknown area 'atlantis'"),
        ("tet", "historical", {"score": {"VC": 5000}}, "out of range"),
        ("tet", "historical", {"units": {"vc_i_01": "42"}}, "outside its Corps"),
        ("tet", "historical", {"tracks": {}}, "has no edit 'tracks'"),
        ("tet", "historical", {"at": {"turn": 2}, "score": {"VC": 1}}, "needs both 'turn' and 'phase'"),
        ("tet", "historical", {"at": {"turn": 2, "phase": "p99"}, "score": {"VC": 1}}, "is not a phase"),
        ("yotr", "historical", {"units": {"nlf_1": "9999"}}, "unknown hex '9999'"),
        ("yotr", "historical", {"towns": {"1484": "french"}}, "not allied, nlf or retaken"),
        ("fitl", "short", {"pieces": {"saigon": {"us_bases": 6}}}, "more us_bases than are Available"),
        ("fitl", "short", {"pieces": {"saigon": {"vc_guerrillas": 2}}}, "vc_guerrillas:a or vc_guerrillas:u"),
        ("fitl", "short", {"pieces": {"atlantis": {"us_troops": 1}}}, "unknown space 'atlantis'"),
        ("fitl", "short", {"tracks": {"aid": 90}}, "out of range 0-75"),
        ("fitl", "short", {"support": {"hue": "ecstatic"}}, "unknown level 'ecstatic'"),
    ],
)
def test_core_position_bad_edit_is_refused_naming_it(game_id, scenario, bad, says):
    with pytest.raises(PositionError) as err:
        wargames.load(game_id, scenario, seed=3, position=bad)
    assert says in str(err.value)


@pytest.mark.parametrize(
    "bad,says",
    [
        ({"deck": [121]}, "Pivotal Event"),
        ({"deck": [5, 5]}, "listed twice"),
        ({"deck": [0]}, "1-130"),
        ({"rvn_leader": "nixon"}, "not one of"),
    ],
)
def test_core_position_fitl_bad_card_options_name_the_option(bad, says):
    with pytest.raises(DataError) as err:
        wargames.load("fitl", "full", seed=3, **bad)
    assert says in str(err.value) and "options" in str(err.value)


def test_core_position_dice_must_be_faces():
    with pytest.raises(PositionError, match="die faces"):
        wargames.load("tet", seed=1, dice=[0])


def test_core_position_mid_game_and_the_testing_helpers():
    g = position("tet", turn=1, phase="p5", units={"vc_i_01": "11"}, dice=[6])
    assert (g.turn, g.phase.id) == (1, "p5") and g.decision is not None
    assert g.players["Allied"] is None and g.loc["vc_i_01"] == "11"
    assert any(e.get("by") == "Passive" for e in g.record)  # the earlier phases were played passively
    again = wargames.open_save(g.save())
    assert again.digest() == g.digest()
    err = refused(g, Action("no_such_action", {}), rule=g.decision.rule_id)
    assert "legal" in str(err)
    with pytest.raises(AssertionError):
        refused(g, g.legal_actions()[0])  # a legal action is not refused
    assert isinstance(Passive().choose(g, g.decision), Action)


@pytest.mark.parametrize("game_id", ["tet", "yotr", "fitl", "row"])
def test_core_position_without_a_scenario_uses_the_games_declared_default(game_id):
    """Issue #29 item 4: ``position`` asks the game for its default scenario (GameType.default_scenario) instead of
    naming games; Rumor of War's is "year-in-i-corps", which the old fallback ("historical") did not know."""
    g = position(game_id)
    assert g.scenario_id == game_type(game_id).default_scenario
    assert g.decision is not None and not g.is_over
