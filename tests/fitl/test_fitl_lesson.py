"""FitL lesson positions (issue #13): the edit keys of wargames.fitl.lesson beyond pieces/support/tracks, each
checked and explained, and a lesson position that saves, reopens and replays in the middle of a game."""

from __future__ import annotations

import pytest

import wargames
from wargames.core import PositionError
from wargames.fitl.players import FitlBot
from wargames.testing import replayed

from .conftest import Passer, fitl_game, position_of, put

MARKERS_AND_BOXES = {
    "terror": {"quang_tin_quang_ngai": 2, "hue": 1},
    "sabotage": {"loc_hue_khe_sanh": True},
    "casualties": {"us_troops": 3, "us_bases": 1},
    "out_of_play": {"arvn_rangers": 2},
    "eligible": {"NVA": False},
    "capabilities": {"13": "shaded", "4": "unshaded"},
    "momentum": {"16": "unshaded"},
}


def lessons(game):
    return [r for r in game.log if r.rule_id == "LESSON"]


def test_fitl_lesson_markers_boxes_eligibility_and_lasting_effects_land_in_the_state():
    plain = wargames.load("fitl", "short", seed=3)
    g = wargames.load("fitl", "short", seed=3, position=MARKERS_AND_BOXES)
    b, p = g.board, plain.board
    assert b.terror["quang_tin_quang_ngai"] == 2 and b.terror["hue"] == 1  # FITL-3.3.4
    assert "loc_hue_khe_sanh" in b.sabotage
    assert b.casualties["us_troops"] == 3 and b.casualties["us_bases"] == 1  # FITL-1.4.1: from Available
    assert b.available["us_troops"] == p.available["us_troops"] + p.casualties["us_troops"] - 3
    assert b.out_of_play["arvn_rangers"] == 2
    assert b.available["arvn_rangers"] == p.available["arvn_rangers"] + p.out_of_play["arvn_rangers"] - 2
    assert g.capabilities["13"] == "shaded" and g.capability_active(4, "unshaded")  # FITL-5.3
    assert g.momentum_active(16, "unshaded") and 16 in g.momentum  # FITL-5.4
    assert 16 not in g.deck and 16 not in g.set_aside  # the card is in exactly one place
    assert not g.invariants()
    made = lessons(g)
    assert all("not a rule of the game" in r.explanation for r in made)
    assert {r.result.get("faction") for r in made if isinstance(r.result, dict)} >= {"NVA"}
    assert wargames.open_save(g.save()).digest() == g.digest()


def test_fitl_lesson_eligible_sets_who_may_act_on_the_first_card():
    """FITL-2.3.1: an Ineligible faction is skipped when the first card is played."""
    g = wargames.load(
        "fitl", "short", seed=3, deck=[1, 2], position={"eligible": {"US": False, "NVA": False}}
    )
    assert not g.eligible["US"] and not g.eligible["NVA"] and g.eligible["ARVN"] and g.eligible["VC"]
    assert g.decision.side in ("ARVN", "VC")


@pytest.mark.parametrize(
    "bad,says",
    [
        ({"terror": {"loc_hue_khe_sanh": 1}}, "a LoC takes a Sabotage marker"),
        ({"terror": {"hue": -1}}, "out of range"),
        ({"sabotage": {"hue": True}}, "only a LoC takes a Sabotage marker"),
        ({"sabotage": {"loc_hue_khe_sanh": 1}}, "write true or false"),
        ({"terror": {"hue": 10, "saigon": 6}}, "there are only 15 (FITL-3.3.4)"),
        ({"casualties": {"arvn_troops": 1}}, "only US pieces can be Casualties (FITL-1.4.1)"),
        ({"out_of_play": {"nva_troops": 1}}, "only US and ARVN pieces"),
        ({"out_of_play": {"us_bases": 7}}, "out of range"),
        ({"casualties": {"us_troops": 40}}, "more us_troops than are Available"),
        ({"removed": {"us_troops": 40}}, "more us_troops than are Available"),
        ({"removed": {"nva_troops": -1}}, "out of range"),
        ({"removed": {"tanks": 1}}, "unknown piece"),
        ({"eligible": {"Soviets": True}}, "unknown faction"),
        ({"eligible": {"US": "yes"}}, "write true (Eligible) or false"),
        ({"capabilities": {"1": "unshaded"}}, "is not a Capability card (FITL-5.3)"),
        ({"capabilities": {"13": "sideways"}}, "write unshaded or shaded (or null)"),
        ({"capabilities": {"top gun": "unshaded"}}, "is not a card number"),
        ({"momentum": {"13": "unshaded"}}, "is not a Momentum card (FITL-5.4)"),
        ({"momentum": {"16": None}}, "write unshaded or shaded"),
        ({"leader_box": "ky"}, "position.leader_box must be a list of card numbers"),
        ({"leader_box": [127, 1]}, "position.leader_box: #1 Gulf of Tonkin is not a Coup card"),
        (
            {"leader_box": [129, 126]},
            "#129 Failed Attempt (Coup!) cannot lie above #126 Young Turks (Coup!): a Failed "
            "Attempt goes underneath the other Coup cards (FITL-2.4.1)",
        ),
        ({"leader_box": [127, 127]}, "position.leader_box: card 127 is listed twice"),
        ({"leader_box": [131]}, "position.leader_box: 131 is not a card number 1-130"),
        ({"played": [1, 125]}, "position.played: #125 Nguyen Khanh (Coup!) is a Coup card"),
        ({"played": ["one"]}, "position.played: 'one' is not a card number"),
        (
            {"played": [16], "momentum": {"16": "unshaded"}},
            "card 16 cannot be both played and a Momentum card",
        ),
        ({"leader_flipped": "yes"}, "position.leader_flipped: write true or false"),
        (
            {"leader_box": [], "leader_flipped": True},
            "the RVN leader is Duong Van Minh, printed on the board",
        ),
        (
            {"leader_box": [129], "leader_flipped": True},
            "only a leader card (125-128) can be turned face down",
        ),
    ],
)
def test_fitl_lesson_bad_edit_is_refused_naming_the_entry(bad, says):
    with pytest.raises(PositionError) as err:
        wargames.load("fitl", "short", seed=3, position=bad)
    assert says in str(err.value)


def test_fitl_lesson_removed_pieces_make_a_smaller_force_pool_that_saves_and_replays():
    """position.removed: pieces taken out of the game from Available (a lesson where the US has one Troop
    left); the board rules (FITL-1.4.1) count them, they never come back into play, and the state shows them."""
    plain = wargames.load("fitl", "short", seed=3)
    left = plain.board.available["us_troops"]
    g = wargames.load("fitl", "short", seed=3, position={"removed": {"us_troops": left - 1, "vc_bases": 2}})
    assert g.board.available["us_troops"] == 1 and g.board.removed["us_troops"] == left - 1
    assert g.board.available["vc_bases"] == plain.board.available["vc_bases"] - 2
    assert not g.invariants() and g.state_dict()["board"]["removed"] == {"us_troops": left - 1, "vc_bases": 2}
    assert "removed" not in plain.state_dict()["board"]  # a game with none keeps its digest
    assert any("out of the game" in r.explanation for r in lessons(g))
    assert wargames.open_save(g.save()).digest() == g.digest()
    g.board.removed["us_troops"] -= 1  # a piece lost from the count breaks the board rules
    assert any("FITL-1.4.1" in p for p in g.invariants())


def test_fitl_lesson_momentum_card_already_played_is_refused():
    """FITL-5.4: a Momentum card played is out of the deck; a lesson cannot put it in play a second time."""
    g = wargames.load(
        "fitl",
        "short",
        seed=3,
        deck=[16, 1],  # card 16 is played on card 1
        position={"at": {"turn": 3, "phase": "card"}, "momentum": {"16": "unshaded"}},
    )
    g.set_players({s: Passer() for s in g.sides})
    with pytest.raises(PositionError, match="neither in the draw deck nor set aside"):
        g.advance_to(4)
    assert 16 in g.played and g.turn == 3 and 16 not in g.momentum


def test_fitl_lesson_position_mid_game_saves_reopens_and_replays():
    """A lesson position made at the start of card 3 (pieces, markers, boxes, Eligibility, a Capability) by the
    options, then played on by the bots: its save reopens to the same digest, its record replays decision by
    decision to the same digest, and Back returns to the same digest."""
    pos = {
        "at": {"turn": 3, "phase": "card"},
        **{k: MARKERS_AND_BOXES[k] for k in ("terror", "casualties", "out_of_play", "capabilities")},
        "pieces": {"tay_ninh": {"vc_guerrillas:u": 4, "us_troops": 2}},
        "tracks": {"aid": 20},
    }
    g = wargames.load("fitl", "short", seed=5, position=pos, dice=[3, 4])
    g.set_players({f: FitlBot(f) for f in g.sides})  # not the Non-players: see wargames.testing.replayed
    g.advance_to(6)
    assert not g.is_over and g.turn == 6 and len([e for e in g.record if "act" in e]) > 5
    assert len(lessons(g)) >= 8 and all(r.turn == 3 for r in lessons(g))
    again = wargames.open_save(g.save())
    assert again.digest() == g.digest()
    g.set_players({s: None for s in g.sides})
    g.advance("decision")  # to rest at a decision (apply runs the copy on to the next one)
    assert replayed(g).digest() == g.digest()
    here = g.digest()
    g.apply(g.legal_actions()[0])
    g.undo()
    assert g.digest() == here


def test_fitl_lesson_test_edit_becomes_a_recorded_position():
    """conftest.fitl_game turns a test's board edit into the position option: the game's save reopens."""

    def edit(game):
        put(game, "hue", vc_guerrillas__a=2)
        game.board.terror["hue"] = 1
        game.eligible["VC"] = False

    pos, _ = position_of(edit)
    assert pos["terror"] == {"hue": 1} and pos["eligible"] == {"VC": False}
    g = fitl_game(edit=edit, top=[1, 2], players={s: Passer() for s in ("US", "ARVN", "NVA", "VC")})
    assert g.options["position"] == pos and g.options["deck"] == [1, 2]
    g.advance_to(4)
    assert wargames.open_save(g.save()).digest() == g.digest()


def test_fitl_lesson_unstarted_then_advance_is_what_loading_does():
    """wargames.testing.unstarted: the set-up built, nothing run; advance("decision") then reaches the same
    first decision, with the same digest, as wargames.load."""
    from wargames.testing import unstarted

    g = unstarted("fitl", "short", 3, {"deck": [1, 2]})
    assert g.log == [] and g.decision is None and g.card is None
    g.advance("decision")
    assert g.digest() == wargames.load("fitl", "short", seed=3, deck=[1, 2]).digest()


def test_fitl_lesson_leader_box_and_played_pile_arrange_the_cards_and_save_reopen_replay():
    """position.leader_box (FITL-2.4.1: top first; a Failed Attempt under the leaders) and position.played (oldest
    first): cards added come from the draw deck or set aside, cards left out are set aside; every card stays in one
    place; the position saves, reopens and replays decision by decision to the same digest."""
    plain = wargames.load("fitl", "short", seed=3)
    pos = {"leader_box": [127, 126, 129], "played": [124, 1, 2]}
    g = wargames.load("fitl", "short", seed=3, position=pos)
    assert g.leader_box == [127, 126, 129] and g.rvn_leader == 127 and g.played == [124, 1, 2]
    assert 125 in g.set_aside and plain.leader_box == [126, 125]  # Khanh, left out of the box, is set aside
    assert not {127, 129, 124, 1, 2} & (set(g.deck) | set(g.set_aside)) and not g.invariants()
    made = {
        r.result["to"][0] if r.result["to"] else None: r.explanation for r in lessons(g) if "to" in r.result
    }
    assert "top first (FITL-2.4.1)" in made[127] and "oldest first" in made[124]
    assert g.state_dict()["leader_box"] == [127, 126, 129] and g.digest() != plain.digest()
    assert wargames.open_save(g.save()).digest() == g.digest()
    g.set_players({f: FitlBot(f) for f in g.sides})
    g.advance_to(3)
    g.set_players({s: None for s in g.sides})
    g.advance("decision")
    assert wargames.open_save(g.save()).digest() == g.digest()
    assert replayed(g).digest() == g.digest()


def test_fitl_lesson_empty_leader_box_is_duong_van_minh():
    g = wargames.load("fitl", "short", seed=3, position={"leader_box": []})
    assert g.leader_box == [] and g.rvn_leader == "minh" and {125, 126} <= set(g.set_aside)


def test_fitl_lesson_played_pile_takes_only_cards_in_the_deck_or_set_aside():
    """Mid-game, a card already in play (the card being played, the next card, a card in the RVN Leader box) cannot
    be put in the played pile: the edit is refused naming the card and where it is (FITL-2.1)."""
    g = wargames.load(
        "fitl", "short", seed=3, deck=[1, 2, 3], position={"at": {"turn": 2, "phase": "card"}, "played": [2]}
    )
    g.set_players({s: Passer() for s in g.sides})
    with pytest.raises(
        PositionError,
        match=r"position.played: #2 .* is the (card being played|next card), neither "
        r"in the draw deck nor set aside",
    ):
        g.advance_to(3)


def test_fitl_lesson_leader_flipped_stops_the_leaders_effect_and_replays():
    """FITL-2.4.1 with card 97's effect as a lesson position: Ky face down costs 3, not 4, per Pacification step;
    the position saves and reopens to the same state."""
    g = wargames.load("fitl", "short", seed=3, position={"leader_box": [127], "leader_flipped": True})
    assert g.rvn_leader == 127 and g.event_flags["leader_flipped"] == 127 and g.pacify_cost() == 3
    assert any("face down" in r.title for r in lessons(g))
    assert wargames.open_save(g.save()).digest() == g.digest()
    up = wargames.load("fitl", "short", seed=3, position={"leader_box": [127], "leader_flipped": False})
    assert "leader_flipped" not in up.event_flags and up.pacify_cost() == 4
