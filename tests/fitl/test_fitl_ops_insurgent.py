"""FitL Insurgent Operations (rules 3.3.1-3.3.4) from prepared positions: exact board changes and refusals."""

from __future__ import annotations

import pytest

from wargames.core import Action

from .ops_helpers import OpsGame, last, options, pick
from .test_fitl_ops_coin import _game, refused


# ------------------------------------------------------------------ 3.3.1 Rally
def test_fitl_3_3_1_rally_places_a_guerrilla_for_1_resource():
    g = _game([("VC", False, False, False)], ("tay_ninh", {"vc_guerrillas__a": 1}))
    pick(g, "op", op="rally")
    pick(g, "space", space="quang_nam")
    pick(g, "mode", mode="place", n=1)
    assert g.board.pieces["quang_nam"] == {"vc_guerrillas:u": 1} and g.board.tracks["vc_resources"] == 9
    assert "VC pays 1 VC Resources (10 -> 9)" in last(g, "FITL-3.3.1").explanation


def test_fitl_3_3_1_no_rally_where_there_is_support():
    g = _game([("VC", False, False, False)], after=lambda b: b.support.update({"hue": 1}))
    pick(g, "op", op="rally")
    assert "hue" not in [a.get("space") for a in options(g, "space")]
    err = refused(g, Action.make("space", space="hue"), "FITL-3.3.1")
    assert "Support" in err.message


def test_fitl_3_3_1_nva_rally_at_a_base_places_up_to_trail_plus_bases():
    g = _game([("NVA", False, False, False)], ("southern_laos", {"nva_bases": 1}), tracks={"trail": 2})
    pick(g, "op", op="rally")
    pick(g, "space", space="southern_laos")
    assert max(a["n"] for a in options(g, "mode") if a["mode"] == "place") == 3
    pick(g, "mode", mode="place", n=3)
    assert g.board.pieces["southern_laos"]["nva_guerrillas:u"] == 3


def test_fitl_3_3_1_vc_rally_at_a_base_places_up_to_pop_plus_bases_or_flips_underground():
    g = _game([("VC", False, False, False)], ("kien_phong", {"vc_bases": 1, "vc_guerrillas__a": 2}))
    pick(g, "op", op="rally")
    pick(g, "space", space="kien_phong")
    assert max(a["n"] for a in options(g, "mode") if a["mode"] == "place") == 3  # Pop 2 + 1 Base
    pick(g, "mode", mode="underground")
    assert g.board.pieces["kien_phong"] == {"vc_bases": 1, "vc_guerrillas:u": 2}


def test_fitl_3_3_1_two_guerrillas_become_a_base():
    g = _game([("VC", False, False, False)], ("kien_phong", {"vc_guerrillas__a": 1, "vc_guerrillas__u": 2}))
    pick(g, "op", op="rally")
    pick(g, "space", space="kien_phong")
    pick(g, "mode", mode="base")
    assert g.board.pieces["kien_phong"] == {"vc_bases": 1, "vc_guerrillas:u": 1}  # F-55: the Active one goes


def test_fitl_3_3_1_trail_improvement_costs_2_even_when_free_and_with_no_space():
    g = _game([("NVA", False, False, True)], tracks={"trail": 2, "nva_resources": 5})
    pick(g, "op", op="rally")
    pick(g, "done")  # no space selected
    pick(g, "yes")
    assert g.board.tracks["trail"] == 3 and g.board.tracks["nva_resources"] == 3
    assert g.outcomes[0]["executed"] is True and g.outcomes[0]["spaces"] == []


def test_fitl_1_4_1_rally_takes_guerrillas_from_the_map_when_none_available():
    def after(b):
        b.available["nva_guerrillas"] = 0  # none Available: out of the game for the lesson (position.removed)

    g = _game([("NVA", False, False, False)], ("north_vietnam", {"nva_guerrillas__a": 1}), after=after)
    pick(g, "op", op="rally")
    pick(g, "space", space="central_laos")
    pick(g, "mode", mode="place", n=1)
    assert g.board.pieces["central_laos"] == {"nva_guerrillas:u": 1} and not g.board.pieces["north_vietnam"]


# ------------------------------------------------------------------ 3.3.2 March
def test_fitl_3_3_2_march_example_large_group_into_support_goes_active():
    """Rules example: 2 Underground VC from The Parrot's Beak into Kien Phong with 2 Police and Support."""
    g = _game(
        [("VC", False, False, False)],
        ("the_parrots_beak", {"vc_guerrillas__u": 2}),
        ("kien_phong", {"arvn_police": 2}),
        after=lambda b: b.support.update({"kien_phong": 1}),
    )
    pick(g, "op", op="march")
    pick(g, "move_from", space="the_parrots_beak")
    pick(g, "move_to", space="kien_phong")
    pick(g, "count", n=2)
    assert g.board.pieces["kien_phong"]["vc_guerrillas:a"] == 2 and g.board.tracks["vc_resources"] == 9
    assert "2 marching + 2 COIN" in last(g, "FITL-3.3.2").explanation


def test_fitl_3_3_2_small_group_stays_underground_and_locs_cost_nothing():
    g = _game([("VC", False, False, False)], ("saigon", {"vc_guerrillas__u": 3}))
    pick(g, "op", op="march")
    pick(g, "move_from", space="saigon")
    pick(g, "move_to", space="loc_saigon_can_tho")
    pick(g, "count", n=1)
    assert (
        g.board.pieces["loc_saigon_can_tho"] == {"vc_guerrillas:u": 1}
        and g.board.tracks["vc_resources"] == 10
    )
    pick(g, "move_from", space="saigon")
    pick(g, "move_to", space="kien_phong")
    pick(g, "count", n=1)
    pick(g, "move_from", space="saigon")
    assert "kien_phong" not in [
        a["space"] for a in options(g, "move_to")
    ]  # one group per origin and destination
    pick(g, "move_to", space="tay_ninh")
    assert g.board.tracks["vc_resources"] == 8


def test_fitl_3_3_2_nva_go_on_along_the_trail_from_laos():
    g = _game([("NVA", False, False, False)], ("north_vietnam", {"nva_troops": 2}), tracks={"trail": 1})
    pick(g, "op", op="march")
    pick(g, "move_from", space="north_vietnam")
    pick(g, "move_to", space="central_laos")
    pick(g, "count", n=2)
    pick(g, "move_from", space="central_laos")  # may continue: previous destination in Laos, Trail > 0
    pick(g, "move_to", space="southern_laos")
    pick(g, "count", n=2)
    pick(g, "move_from", space="southern_laos")
    pick(g, "move_to", space="pleiku_darlac")
    pick(g, "count", n=2)
    assert g.board.pieces["pleiku_darlac"]["nva_troops"] == 2 and g.board.tracks["nva_resources"] == 7
    assert not options(g, "move_from")  # Pleiku is in the South: they stop


def test_fitl_3_3_2_trail_at_4_moves_into_and_out_of_laos_are_free():
    g = _game([("NVA", False, False, False)], ("north_vietnam", {"nva_troops": 1}), tracks={"trail": 4})
    pick(g, "op", op="march")
    pick(g, "move_from", space="north_vietnam")
    pick(g, "move_to", space="central_laos")
    pick(g, "move_from", space="central_laos")
    pick(g, "move_to", space="quang_nam")
    assert g.board.tracks["nva_resources"] == 10


def test_fitl_3_3_2_no_trail_continuation_in_a_limited_march():
    g = _game(
        [("NVA", True, False, False)],
        (
            "north_vietnam",
            {"nva_troops": 1},
        ),
        tracks={"trail": 3},
    )
    pick(g, "op", op="march")
    pick(g, "move_from", space="north_vietnam")
    pick(g, "move_to", space="central_laos")
    assert g.is_over and g.board.pieces["central_laos"]["nva_troops"] == 1


def test_fitl_2_3_9_no_march_in_monsoon():
    g = _game([("VC", False, False, False)], ("saigon", {"vc_guerrillas__u": 3}), monsoon=True)
    assert "march" not in g.op_choices("VC", False)
    refused(g, Action.make("op", op="march"), "FITL-2.3.9")


# ------------------------------------------------------------------ 3.3.3 Attack
def test_fitl_3_3_3_guerrilla_attack_hits_on_a_roll_at_most_the_guerrillas():
    g = _game(
        [("VC", False, False, False)],
        ("kien_phong", {"vc_guerrillas__u": 3, "us_troops": 1, "arvn_police": 2}),
    )
    g.force_dice([3])
    pick(g, "op", op="attack")
    pick(g, "space", space="kien_phong")
    pick(g, "mode", mode="guerrillas")
    pick(g, "piece", key="us_troops")
    pick(g, "piece", key="arvn_police")
    b = g.board
    assert b.pieces["kien_phong"] == {"vc_guerrillas:a": 2, "arvn_police": 1}  # 1 lost to attrition
    assert b.casualties["us_troops"] == 1 and b.tracks["vc_resources"] == 9
    rolled = [r for r in g.log if r.rule_id == "FITL-3.3.3" and r.dice][-1]
    assert rolled.dice[0].value == 3 and "die 3 <= 3" in rolled.explanation
    assert "attrition" in last(g, "FITL-3.3.3").explanation


def test_fitl_3_3_3_guerrilla_attack_misses_on_a_higher_roll():
    g = _game([("VC", False, False, False)], ("kien_phong", {"vc_guerrillas__u": 3, "arvn_police": 2}))
    g.force_dice([4])
    pick(g, "op", op="attack")
    pick(g, "space", space="kien_phong")
    pick(g, "mode", mode="guerrillas")
    assert g.board.pieces["kien_phong"] == {"vc_guerrillas:a": 3, "arvn_police": 2}


def test_fitl_3_3_3_nva_troops_remove_one_per_two_and_coin_bases_go_last():
    g = _game(
        [("NVA", False, False, False)], ("tay_ninh", {"nva_troops": 5, "arvn_troops": 1, "arvn_bases": 1})
    )
    pick(g, "op", op="attack")
    pick(g, "space", space="tay_ninh")
    pick(g, "mode", mode="troops")
    assert [a["key"] for a in options(g, "piece")] == ["arvn_troops"] or g.board.pieces["tay_ninh"][
        "arvn_troops"
    ] == 0
    assert g.board.pieces["tay_ninh"] == {"nva_troops": 5}  # 5 / 2 = 2: the Troop, then the Base


def test_fitl_3_3_3_attack_refused_without_enemy():
    g = _game(
        [("VC", False, False, False)],
        ("kien_phong", {"vc_guerrillas__u": 3, "arvn_police": 2}),
        ("tay_ninh", {"vc_guerrillas__u": 2}),
    )
    pick(g, "op", op="attack")
    refused(g, Action.make("space", space="tay_ninh"), "FITL-3.3.3")


# ------------------------------------------------------------------ 3.3.4 Terror
def test_fitl_3_3_4_vc_terror_places_a_marker_and_shifts_toward_opposition():
    g = _game(
        [("VC", False, False, False)],
        ("hue", {"vc_guerrillas__u": 1}),
        after=lambda b: b.support.update({"hue": 1}),
    )
    pick(g, "op", op="terror")
    pick(g, "space", space="hue")
    b = g.board
    assert b.terror["hue"] == 1 and b.support["hue"] == 0 and b.pieces["hue"] == {"vc_guerrillas:a": 1}
    assert b.tracks["vc_resources"] == 9


def test_fitl_3_3_4_nva_terror_with_troops_shifts_support_only_toward_neutral():
    g = _game(
        [("NVA", False, False, False)],
        ("hue", {"nva_troops": 1}),
        ("kontum", {"nva_troops": 1}),
        after=lambda b: b.support.update({"hue": 2}),
    )
    pick(g, "op", op="terror")
    pick(g, "space", space="hue")
    pick(g, "space", space="kontum")
    b = g.board
    assert b.support["hue"] == 1 and b.support["kontum"] == 0 and b.terror["kontum"] == 1


def test_fitl_3_3_4_terror_on_a_loc_sabotages_for_free_and_markers_run_out():
    def after(b):
        for i, s in enumerate(list(b.data.spaces)[:15]):
            if i < 14:
                b.terror[s] = 1

    g = _game(
        [("VC", False, False, False)],
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 1}),
        ("kien_phong", {"vc_guerrillas__u": 1}),
        after=after,
    )
    pick(g, "op", op="terror")
    pick(g, "space", space="loc_saigon_can_tho")
    assert "loc_saigon_can_tho" in g.board.sabotage and g.board.tracks["vc_resources"] == 10
    pick(g, "space", space="kien_phong")
    assert not g.board.terror["kien_phong"] and g.board.support["kien_phong"] == -1  # 15 markers used
    assert "no Terror marker is left" in last(g, "FITL-3.3.4").explanation


def test_fitl_3_3_4_terror_needs_an_underground_guerrilla():
    g = _game(
        [("VC", False, False, False)], ("hue", {"vc_guerrillas__a": 1}), ("kontum", {"vc_guerrillas__u": 1})
    )
    pick(g, "op", op="terror")
    refused(g, Action.make("space", space="hue"), "FITL-3.3.4")


@pytest.mark.parametrize("seed", range(6))
def test_fitl_3_3_random_insurgent_operations_keep_the_board_legal(seed):
    for scenario in ("short", "medium", "full"):
        plan = [(f, lim, sa, False) for f in ("NVA", "VC") for lim in (False, True) for sa in (False, True)]
        g = OpsGame(plan, scenario=scenario, seed=seed, monsoon=seed % 3 == 0)
        while not g.is_over:
            assert g.checked_advance() == []


def test_fitl_3_3_2_vc_may_not_go_on_along_the_trail():
    g = _game(
        [("VC", False, False, False)],
        ("north_vietnam", {"vc_guerrillas__u": 1}),
        ("saigon", {"vc_guerrillas__u": 1}),
        tracks={"trail": 3},
    )
    pick(g, "op", op="march")
    pick(g, "move_from", space="north_vietnam")
    pick(g, "move_to", space="central_laos")
    assert g.decision.kind == "move_from" and not [
        a for a in options(g, "move_from") if a["space"] == "central_laos"
    ]
    refused(g, Action.make("move_from", space="central_laos"), "FITL-3.3.2")


def test_fitl_3_3_2_no_trail_move_at_trail_0():
    g = _game(
        [("NVA", False, False, False)],
        ("north_vietnam", {"nva_troops": 1, "nva_guerrillas__u": 1}),
        tracks={"trail": 0},
    )
    pick(g, "op", op="march")
    pick(g, "move_from", space="north_vietnam")
    pick(g, "move_to", space="central_laos")
    pick(g, "count", n=1)
    pick(g, "count", n=0)
    refused(g, Action.make("move_from", space="central_laos"), "FITL-3.3.2")


def test_fitl_1_4_2_rally_base_refused_where_two_bases_stand():
    g = _game(
        [("VC", False, False, False)], ("kien_phong", {"vc_guerrillas__u": 3, "vc_bases": 1, "nva_bases": 1})
    )
    pick(g, "op", op="rally")
    pick(g, "space", space="kien_phong")
    refused(g, Action.make("mode", mode="base", n=0), "FITL-1.4.2")
