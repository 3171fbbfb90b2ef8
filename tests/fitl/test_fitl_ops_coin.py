"""FitL COIN Operations (rules 3.1, 3.2.1-3.2.4) from prepared positions: exact board changes and refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from wargames.core import Action, IllegalAction

from .ops_helpers import OpsGame, labels, last, options, pick, prepared, refused


def _game(plan, *setups, tracks=None, after=None, **kw):
    return OpsGame(plan, prepared(setups, tracks, after=after), **kw)


# ------------------------------------------------------------------ 3.1 Operations in general
def test_fitl_3_1_only_legal_operations_are_offered_and_others_refused():
    g = _game([("ARVN", False, False, False)], ("saigon", {"arvn_troops": 2}), tracks={"arvn_resources": 2})
    assert [a["op"] for a in options(g, "op")] == ["train"]  # no Patrol/Sweep/Assault with 2 Resources
    err = refused(g, Action.make("op", op="sweep"), "FITL-3.1")
    assert "cannot pay" in err.message
    refused(g, Action.make("op", op="rally"), "FITL-3.2")
    g2 = _game([("ARVN", False, False, False)], ("saigon", {"arvn_troops": 2}), monsoon=True)
    refused(g2, Action.make("op", op="sweep"), "FITL-2.3.9")


def test_fitl_3_1_each_space_once_and_outcome_reports_spaces():
    g = _game([("ARVN", False, False, False)], ("saigon", {"arvn_troops": 2}), ("hue", {"arvn_police": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", troops=0, police=0, rangers=0)
    refused(g, Action.make("space", space="saigon"), "FITL-3.1")
    pick(g, "done")
    g.advance("end")
    assert (
        g.outcomes[0]["op"] == "train" and g.outcomes[0]["executed"] and g.outcomes[0]["spaces"] == ["saigon"]
    )


def test_fitl_3_1_2_free_train_pays_nothing_but_pacify_still_costs():
    g = _game([("ARVN", False, False, True)], ("saigon", {"arvn_troops": 1, "arvn_police": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", troops=2, police=1)
    assert g.board.tracks["arvn_resources"] == 30  # free: placing costs nothing
    pick(g, "done")
    pick(g, "pacify", space="saigon", levels=2)
    assert g.board.tracks["arvn_resources"] == 24 and g.board.support["saigon"] == 2


# ------------------------------------------------------------------ 3.2 / 1.4.2 no COIN in North Vietnam
def test_fitl_3_2_coin_never_enter_north_vietnam():
    g = _game([("ARVN", False, False, False)], ("quang_tri_thua_thien", {"arvn_troops": 3}))
    pick(g, "op", op="sweep")
    assert "north_vietnam" not in [a.get("space") for a in options(g, "space")]
    refused(g, Action.make("space", space="north_vietnam"), "FITL-1.4.2")


# ------------------------------------------------------------------ 3.2.1 Train
def test_fitl_3_2_1_arvn_train_in_a_city_places_cubes_for_3_resources():
    g = _game([("ARVN", False, False, False)], ("saigon", {"arvn_troops": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", troops=4, police=2)
    assert g.board.pieces["saigon"] == {"arvn_troops": 5, "arvn_police": 2}
    assert g.board.tracks["arvn_resources"] == 27
    assert "ARVN pays 3 ARVN Resources (30 -> 27)" in last(g, "FITL-3.2.1").explanation


def test_fitl_3_2_1_arvn_train_places_only_at_cities_or_bases_and_not_under_nva_control():
    g = _game(
        [("ARVN", False, False, False)],
        ("binh_dinh", {"arvn_troops": 1}),
        ("quang_nam", {"nva_guerrillas__u": 2}),
    )
    pick(g, "op", op="train")
    assert "quang_nam" not in [a.get("space") for a in options(g, "space")]
    err = refused(g, Action.make("space", space="quang_nam"), "FITL-3.2.1")
    assert "NVA Control" in err.message
    pick(g, "space", space="binh_dinh")
    assert labels(g) == ["Place nothing"]  # a Province with no Base: nothing to place


def test_fitl_3_2_1_us_train_places_irregulars_free_and_arvn_at_us_bases_for_3():
    g = _game(
        [("US", False, False, False), ("US", False, False, False)],
        ("binh_dinh", {"us_troops": 1}),
        ("khanh_hoa", {"us_bases": 1}),
    )
    pick(g, "op", op="train")
    pick(g, "space", space="binh_dinh")
    assert not [a for a in options(g, "place") if a["rangers"] or a["troops"] or a["police"]]
    pick(g, "place", irregulars=2)
    assert g.board.pieces["binh_dinh"]["us_irregulars:u"] == 2 and g.board.tracks["arvn_resources"] == 30
    pick(g, "done")
    pick(g, "none")
    pick(g, "op", op="train")
    pick(g, "space", space="khanh_hoa")
    pick(g, "place", rangers=2)
    assert g.board.pieces["khanh_hoa"]["arvn_rangers:u"] == 2 and g.board.tracks["arvn_resources"] == 27


def test_fitl_1_8_1_us_spends_only_arvn_resources_above_econ():
    g = _game([("US", False, False, False)], ("khanh_hoa", {"us_bases": 1}), tracks={"arvn_resources": 17})
    pick(g, "op", op="train")
    pick(g, "space", space="khanh_hoa")
    assert all(not (a["rangers"] or a["troops"]) for a in options(g, "place"))  # 17 - 15 = 2 < 3


def test_fitl_1_4_1_train_takes_pieces_from_the_map_when_none_available():
    g = _game(
        [("ARVN", False, False, False)], ("saigon", {"arvn_troops": 1}), ("hue", {"arvn_rangers__a": 1})
    )
    g.board.available["arvn_rangers"] = 0
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", rangers=1)
    assert g.board.pieces["saigon"]["arvn_rangers:u"] == 1 and not g.board.pieces["hue"]
    assert "taken from Hue" in last(g, "FITL-3.2.1").explanation


def test_fitl_1_4_1_available_before_the_map():
    g = _game(
        [("ARVN", False, False, False)], ("saigon", {"arvn_troops": 1}), ("hue", {"arvn_rangers__a": 1})
    )
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", rangers=2)
    assert g.board.pieces["hue"]["arvn_rangers:a"] == 1 and g.board.pieces["saigon"]["arvn_rangers:u"] == 2


def test_fitl_3_2_1_pacify_costs_3_per_terror_marker_and_level():
    def after(board):
        board.terror["hue"] = 1
        board.support["hue"] = -1

    g = _game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 2, "arvn_police": 2}), after=after)
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    pick(g, "done")
    pick(g, "pacify", space="hue", levels=2)
    assert (
        g.board.tracks["arvn_resources"] == 30 - 9
        and g.board.support["hue"] == 1
        and not g.board.terror["hue"]
    )


def test_fitl_3_2_1_arvn_pacify_needs_troops_and_police():
    g = _game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 3}))
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    pick(g, "done")
    assert not options(g, "pacify") and options(g, "base")


def test_fitl_3_2_1_arvn_base_replaces_three_cubes_within_stacking():
    g = _game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 2, "arvn_police": 2}))
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    pick(g, "done")
    pick(g, "base", space="hue", troops=2)
    assert g.board.pieces["hue"] == {"arvn_bases": 1, "arvn_police": 1}
    assert g.board.tracks["arvn_resources"] == 27


def test_fitl_1_4_2_no_third_base_in_a_space():
    g = _game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 4, "vc_bases": 1, "us_bases": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    pick(g, "done")
    assert not options(g, "base")
    with pytest.raises(IllegalAction) as err:
        g.place("hue", "arvn_bases", 1)
    assert err.value.rule_id == "FITL-1.4.2"


def test_fitl_3_2_1_us_train_in_saigon_moves_patronage_to_arvn():
    g = _game([("US", False, False, False)], ("saigon", {"us_troops": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", irregulars=0, rangers=0, troops=0, police=0)
    pick(g, "patronage", n=3)
    assert g.board.tracks["patronage"] == 12 and g.board.tracks["arvn_resources"] == 33


# ------------------------------------------------------------------ 2.3.5 Limited Operations
def test_fitl_2_3_5_limited_train_uses_one_space():
    g = _game([("ARVN", True, False, False)], ("saigon", {"arvn_troops": 1}), ("hue", {"arvn_troops": 1}))
    pick(g, "op", op="train")
    pick(g, "space", space="saigon")
    pick(g, "place", troops=1, police=0)
    assert g.decision is None or g.decision.kind != "space"
    assert g.is_over and g.outcomes[0]["spaces"] == ["saigon"] and g.outcomes[0]["sa"] is False


# ------------------------------------------------------------------ 3.2.2 Patrol
def test_fitl_3_2_2_patrol_moves_activates_and_assaults_one_loc():
    g = _game(
        [("ARVN", False, False, False)],
        ("saigon", {"arvn_troops": 2, "arvn_police": 2}),
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 3}),
    )
    pick(g, "op", op="patrol")
    assert g.board.tracks["arvn_resources"] == 27  # 3 in all
    pick(g, "move_from", space="saigon", key="arvn_troops")
    pick(g, "move_to", space="loc_saigon_can_tho")
    pick(g, "count", n=2)
    pick(g, "move_from", space="saigon", key="arvn_police")
    pick(g, "move_to", space="loc_saigon_can_tho")
    pick(g, "count", n=1)
    pick(g, "done")
    assert g.board.pieces["loc_saigon_can_tho"]["vc_guerrillas:a"] == 3  # 3 cubes: 3 Activated
    pick(g, "space", space="loc_saigon_can_tho")  # Assault: 3 cubes on a LoC / 2 = 1
    assert g.board.pieces["loc_saigon_can_tho"]["vc_guerrillas:a"] == 2
    assert g.board.tracks["arvn_resources"] == 27


def test_fitl_3_2_2_patrol_cubes_stop_on_entering_an_insurgent_space():
    g = _game(
        [("US", False, False, False)], ("saigon", {"us_troops": 1}), ("can_tho", {"vc_guerrillas__u": 1})
    )
    reach = g.patrol_reach("saigon")
    assert "can_tho" in reach and "loc_can_tho_bac_lieu" not in reach  # stops in Can Tho
    assert "quang_duc_long_khanh" not in reach  # only LoCs and Cities


def test_fitl_3_2_2_limited_patrol_has_one_destination():
    g = _game([("US", True, False, False)], ("saigon", {"us_troops": 2}), ("cam_ranh", {"us_troops": 1}))
    pick(g, "op", op="patrol")
    pick(g, "move_from", space="saigon", key="us_troops")
    pick(g, "move_to", space="loc_saigon_cam_ranh")
    pick(g, "count", n=1)
    pick(g, "move_from", space="cam_ranh", key="us_troops")
    assert [a["space"] for a in options(g, "move_to")] == ["loc_saigon_cam_ranh"]


# ------------------------------------------------------------------ 3.2.3 Sweep
def test_fitl_3_2_3_sweep_example_troops_move_through_a_clear_loc_and_a_town():
    """Rules example: ARVN Troops from Cam Ranh reach Quang Duc over Route 11 via Da Lat."""
    g = _game(
        [("ARVN", False, False, False)],
        ("cam_ranh", {"arvn_troops": 2}),
        ("binh_tuy_binh_thuan", {"arvn_troops": 1}),
        ("quang_duc_long_khanh", {"vc_guerrillas__u": 3}),
    )
    pick(g, "op", op="sweep")
    pick(g, "space", space="quang_duc_long_khanh")
    pick(g, "done")
    assert g.sweep_sources("ARVN", "quang_duc_long_khanh", Counter()) == {
        "binh_tuy_binh_thuan": None,
        "cam_ranh": "loc_cam_ranh_da_lat",
    }
    pick(g, "move", origin="cam_ranh", space="quang_duc_long_khanh")
    pick(g, "count", n=2)
    pick(g, "move", origin="binh_tuy_binh_thuan", space="quang_duc_long_khanh")
    assert g.board.pieces["quang_duc_long_khanh"]["arvn_troops"] == 3
    # Jungle: 3 cubes Activate 1 (half, rounded down)
    assert g.board.pieces["quang_duc_long_khanh"]["vc_guerrillas:a"] == 1
    assert g.board.tracks["arvn_resources"] == 27
    assert any("Jungle" in r.explanation for r in g.log if r.rule_id == "FITL-3.2.3")


def test_fitl_3_2_3_sweep_loc_with_guerrillas_blocks_the_way():
    g = _game(
        [("ARVN", False, False, False)],
        ("cam_ranh", {"arvn_troops": 2}),
        ("loc_cam_ranh_da_lat", {"nva_guerrillas__u": 1}),
    )
    assert "cam_ranh" not in g.sweep_sources("ARVN", "quang_duc_long_khanh", Counter())


def test_fitl_2_3_9_no_sweep_in_monsoon():
    g = _game([("US", False, False, False)], ("saigon", {"us_troops": 2}), monsoon=True)
    assert "sweep" not in g.op_choices("US", False)


# ------------------------------------------------------------------ 3.2.4 Assault
@pytest.mark.parametrize(
    "space,pieces,expected",
    [
        ("binh_dinh", {"arvn_troops": 5}, 1),  # Highland: 5 / 3
        ("quang_tin_quang_ngai", {"arvn_troops": 5}, 2),  # Lowland: 5 / 2
        (
            "quang_tin_quang_ngai",
            {"arvn_troops": 1, "arvn_police": 3},
            0,
        ),  # Police do not count in a Province
        ("hue", {"arvn_troops": 1, "arvn_police": 3}, 2),  # ... but do in a City
    ],
)
def test_fitl_3_2_4_arvn_assault_formula(space, pieces, expected):
    g = _game([], (space, pieces))
    assert g.assault_count("ARVN", space)[0] == expected


@pytest.mark.parametrize(
    "space,pieces,expected",
    [
        ("binh_dinh", {"us_troops": 3, "us_bases": 1}, 6),
        ("binh_dinh", {"us_troops": 3}, 1),
        ("quang_tin_quang_ngai", {"us_troops": 3}, 3),
    ],
)
def test_fitl_3_2_4_us_assault_formula(space, pieces, expected):
    g = _game([], (space, pieces))
    assert g.assault_count("US", space)[0] == expected


def test_fitl_3_2_4_troops_first_bases_last_and_aid_for_bases():
    g = _game(
        [("ARVN", False, False, False)],
        ("quang_tin_quang_ngai", {"arvn_troops": 8, "nva_troops": 1, "vc_guerrillas__a": 1, "vc_bases": 2}),
    )
    pick(g, "op", op="assault")
    pick(g, "space", space="quang_tin_quang_ngai")  # 8 / 2 = 4: Troop, Guerrilla, 2 Bases
    assert g.board.pieces["quang_tin_quang_ngai"] == {"arvn_troops": 8}
    assert g.board.tracks["aid"] == 15 + 12 and g.board.tracks["arvn_resources"] == 27
    assert "8 ARVN Troops / 2, rounded down = 4" in last(g, "FITL-3.2.4").explanation


def test_fitl_3_2_4_underground_guerrillas_protect_bases():
    g = _game(
        [("US", False, False, False)],
        (
            "quang_tin_quang_ngai",
            {"us_troops": 5, "vc_guerrillas__a": 1, "vc_guerrillas__u": 1, "vc_bases": 1},
        ),
    )
    pick(g, "op", op="assault")
    pick(g, "space", space="quang_tin_quang_ngai")
    assert g.board.pieces["quang_tin_quang_ngai"] == {"us_troops": 5, "vc_guerrillas:u": 1, "vc_bases": 1}


def test_fitl_3_2_4_tunnel_example_stops_removal_and_rolls():
    """Rules example: 3 US Troops Assault 2 Tunneled Bases alone in Jungle: nothing removed; 4-6 removes a marker."""
    g = _game([("US", False, False, False)], ("tay_ninh", {"us_troops": 3, "vc_bases__t": 2}))
    g.force_dice([5])
    pick(g, "op", op="assault")
    pick(g, "space", space="tay_ninh")
    assert g.board.pieces["tay_ninh"] == {"us_troops": 3, "vc_bases:t": 1, "vc_bases": 1}
    r = last(g, "FITL-3.2.4")
    assert r.dice[0].value == 5 and "Tunnel marker is removed" in r.explanation


def test_fitl_1_4_4_tunnel_roll_of_1_to_3_does_nothing():
    g = _game([("US", False, False, False)], ("tay_ninh", {"us_troops": 3, "vc_bases__t": 1}))
    g.force_dice([2])
    pick(g, "op", op="assault")
    pick(g, "space", space="tay_ninh")
    assert g.board.pieces["tay_ninh"] == {"us_troops": 3, "vc_bases:t": 1}


def test_fitl_3_2_4_us_assault_with_arvn_follow_up_pays_3():
    g = _game(
        [("US", False, False, False)],
        ("quang_tin_quang_ngai", {"us_troops": 1, "arvn_troops": 2, "vc_guerrillas__a": 3}),
    )
    pick(g, "op", op="assault")
    pick(g, "space", space="quang_tin_quang_ngai")
    assert g.board.pieces["quang_tin_quang_ngai"]["vc_guerrillas:a"] == 2  # 1 US Troop removes 1
    pick(g, "space", space="quang_tin_quang_ngai")  # ARVN: 2 Troops / 2 = 1
    assert g.board.pieces["quang_tin_quang_ngai"]["vc_guerrillas:a"] == 1
    assert g.board.tracks["arvn_resources"] == 27


def test_fitl_3_2_4_assault_refused_where_no_insurgents():
    g = _game(
        [("ARVN", False, False, False)],
        ("hue", {"arvn_troops": 2}),
        ("quang_nam", {"arvn_troops": 2, "vc_guerrillas__a": 1}),
    )
    pick(g, "op", op="assault")
    refused(g, Action.make("space", space="hue"), "FITL-3.2.4")


@pytest.mark.parametrize("seed", range(6))
def test_fitl_3_2_random_coin_operations_keep_the_board_legal(seed):
    for scenario in ("short", "medium", "full"):
        plan = [(f, lim, sa, False) for f in ("US", "ARVN") for lim in (False, True) for sa in (False, True)]
        g = OpsGame(plan, scenario=scenario, seed=seed, monsoon=seed % 3 == 0)
        while not g.is_over:
            assert g.checked_advance() == []


# ------------------------------------------------------------------ map and faction rules the Operations use
def test_fitl_1_3_6_adjacency_example_across_a_town_and_a_loc():
    """Rules example: Quang Duc and Route 11 are adjacent via Da Lat; Quang Duc and Khanh Hoa across Route 21."""
    g = _game([])
    assert "loc_cam_ranh_da_lat" in g.adjacent("quang_duc_long_khanh")
    assert "khanh_hoa" in g.adjacent("quang_duc_long_khanh")


def test_fitl_1_5_1_coin_assault_targets_both_insurgent_factions():
    g = _game(
        [("US", False, False, False)],
        ("quang_tin_quang_ngai", {"us_troops": 2, "nva_guerrillas__a": 1, "vc_guerrillas__a": 1}),
    )
    pick(g, "op", op="assault")
    pick(g, "space", space="quang_tin_quang_ngai")
    assert g.board.pieces["quang_tin_quang_ngai"] == {"us_troops": 2}


def test_fitl_1_6_1_shifts_stay_within_five_levels_and_skip_empty_provinces():
    g = _game([])
    g.board.support["hue"] = 2
    assert g.shift_support("hue", 2) == (2, 2)
    assert g.shift_support("phuoc_long", -1) == (0, 0)  # Population 0: always Neutral
    assert g.shift_support("loc_saigon_can_tho", 1) == (0, 0)


def test_fitl_3_0_each_faction_has_its_four_operations():
    from wargames.fitl.operations import OPS

    assert OPS["US"] == OPS["ARVN"] == ("train", "patrol", "sweep", "assault")
    assert OPS["NVA"] == OPS["VC"] == ("rally", "march", "attack", "terror")
    g = OpsGame([("NVA", False, False, False)], scenario="short")
    assert [a["op"] for a in options(g, "op")] == ["rally", "march", "attack", "terror"]


def test_fitl_1_4_2_refusals_name_the_stacking_rule():
    g = _game(
        [("ARVN", False, False, False)],
        ("hue", {"arvn_troops": 4, "arvn_police": 1, "vc_bases": 1, "us_bases": 1}),
    )
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    pick(g, "done")
    refused(g, Action.make("base", space="hue", troops=3), "FITL-1.4.2")


def test_fitl_1_4_2_no_patrol_or_air_lift_into_north_vietnam():
    g = _game([("US", True, False, False)], ("hue", {"us_troops": 2}), ("saigon", {"us_troops": 1}))
    pick(g, "op", op="patrol")
    pick(g, "move_from", space="hue", key="us_troops")
    refused(g, Action.make("move_to", space="north_vietnam"), "FITL-1.4.2")
    pick(g, "move_to", space="loc_hue_da_nang")
    pick(g, "count", n=1)
    pick(g, "move_from", space="saigon", key="us_troops")
    refused(g, Action.make("move_to", space="loc_saigon_cam_ranh"), "FITL-2.3.5")


def test_fitl_1_3_2_province_terrain_shapes_sweep_and_assault():
    g = _game(
        [],
        ("tay_ninh", {"arvn_troops": 5}),
        ("binh_dinh", {"arvn_troops": 5}),
        ("kien_phong", {"arvn_troops": 5}),
    )
    assert g.sweep_activations("ARVN", "tay_ninh") == (5, 2)  # Jungle: half
    assert g.sweep_activations("ARVN", "kien_phong") == (5, 5)
    assert g.assault_count("ARVN", "binh_dinh")[0] == 1  # Highland: a third
    assert g.assault_count("ARVN", "kien_phong")[0] == 2


def test_fitl_1_3_3_cities_count_police_in_assault_and_take_arvn_training():
    g = _game([("ARVN", False, False, False)], ("hue", {"arvn_police": 4}), ("quang_nam", {"arvn_police": 4}))
    assert g.assault_count("ARVN", "hue")[0] == 2 and g.assault_count("ARVN", "quang_nam")[0] == 0
    assert (
        len(g.train_placements("ARVN", "hue", False)) > 1
        and len(g.train_placements("ARVN", "quang_nam", False)) == 1
    )


def test_fitl_1_3_4_locs_hold_forces_but_no_bases_and_police_count_there():
    g = _game([], ("loc_saigon_can_tho", {"arvn_police": 4, "vc_guerrillas__a": 1}))
    assert g.assault_count("ARVN", "loc_saigon_can_tho")[0] == 2
    assert not g.base_room("loc_saigon_can_tho")
    with pytest.raises(IllegalAction) as err:
        g.place("loc_saigon_can_tho", "vc_bases", 1)
    assert err.value.rule_id == "FITL-1.4.2"
