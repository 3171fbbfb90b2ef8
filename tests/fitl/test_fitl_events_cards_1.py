"""FitL Events 1-26: each side from a prepared position, asserting the exact board change (rules 5.1-5.5).

``play(card, side, faction, prep, picks, dice)`` runs one Event on an emptied short-scenario board arranged by
``prep`` and returns the game and the board change as a flat dict ("space.key": +n, "box.pid": +n, track: +n,
"support.space": +n, "terror.space", "sabotage.space").
"""

from __future__ import annotations

from typing import Any

import pytest

from wargames.fitl.events import load_events

from .ops_helpers import put
from .test_fitl_events_vocab import EvGame, drive


def flat(d: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s, c in d["pieces"].items():
        for k, n in c.items():
            out[f"{s}.{k}"] = n
    for box in ("available", "casualties", "out_of_play"):
        for k, n in d[box].items():
            out[f"{box}.{k}"] = n
    out.update(d["tracks"])
    for s, v in d["support"].items():
        out[f"support.{s}"] = v
    for s, v in d["terror"].items():
        out[f"terror.{s}"] = v
    for s in d["sabotage"]:
        out[f"sabotage.{s}"] = 1
    return out


def play(card: int, side: str, faction: str = "US", prep=None, picks=(), dice=None, pivotal=False):
    plan = [("card", card, faction, side) + (("pivotal",) if pivotal else ())]
    g = EvGame(plan, prep, dice=dice)
    before = flat(g.before)  # the prepared board, before the Event
    drive(g, *picks)
    after = flat(g.board.to_dict())
    delta = {
        k: after.get(k, 0) - before.get(k, 0)
        for k in sorted(set(before) | set(after))
        if after.get(k, 0) != before.get(k, 0)
    }
    assert g.board.invariants() == []
    return g, delta


def avail(**kw: int) -> dict[str, int]:
    return {f"available.{k}": v for k, v in kw.items()}


# ---------------------------------------------------------------------------- 1-10
def test_fitl_5_5_card_1_gulf_of_tonkin_unshaded_places_six_from_out_of_play():
    def prep(g):
        g.board.available["us_troops"] -= 7
        g.board.out_of_play["us_troops"] += 7

    g, d = play(1, "unshaded", "US", prep, picks=[{"kind": "pick", "space": "saigon"}] * 6)
    assert d == {"out_of_play.us_troops": -6, "saigon.us_troops": 6}
    assert any("Card 1 Gulf of Tonkin, unshaded" in r.explanation for r in g.log)


def test_fitl_5_1_card_1_gulf_of_tonkin_shaded_aid_and_casualties():
    def prep(g):
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4

    _, d = play(1, "shaded", "NVA", prep)
    assert d == {"aid": -4, "casualties.us_troops": -4, "out_of_play.us_troops": 4}


def test_fitl_5_1_3_card_2_kissinger_unshaded_removes_die_roll_pieces():
    def prep(g):
        put(g.board, "central_laos", nva_troops=2, nva_bases__t=1)
        put(g.board, "the_fishhook", vc_guerrillas__u=3)

    _, d = play(2, "unshaded", "US", prep, dice=[4])
    assert d == {
        "central_laos.nva_troops": -2,
        "the_fishhook.vc_guerrillas:u": -2,
        **avail(nva_troops=2, vc_guerrillas=2),
    }


def test_fitl_5_1_card_2_kissinger_shaded():
    def prep(g):
        put(g.board, "hue", us_troops=1)

    _, d = play(
        2,
        "shaded",
        "NVA",
        prep,
        picks=[
            {"space": "the_fishhook", "key": "nva_troops"},
            {"space": "the_fishhook", "key": "nva_troops"},
            {"space": "hue", "key": "us_troops"},
        ],
    )
    assert d == {
        "the_fishhook.nva_troops": 2,
        "available.nva_troops": -2,
        "hue.us_troops": -1,
        "available.us_troops": -1,
        "out_of_play.us_troops": 2,
        "aid": -6,
    }


def test_fitl_5_1_card_2_kissinger_shaded_us_troops_from_casualties():
    """Card 2 Kissinger, shaded (decision F-179): any 2 US Troops go Out of Play, Casualties included: after 1 map
    Troop the US takes the other from the Casualties box."""

    def prep(g):
        put(g.board, "hue", us_troops=1)
        g.board.available["us_troops"] -= 1
        g.board.casualties["us_troops"] += 1

    _, d = play(
        2,
        "shaded",
        "NVA",
        prep,
        picks=[
            {"space": "the_fishhook", "key": "nva_troops"},
            {"space": "the_fishhook", "key": "nva_troops"},
            {"space": "hue", "key": "us_troops"},
            {"kind": "option", "index": 0},
        ],
    )
    assert d["casualties.us_troops"] == -1 and d["hue.us_troops"] == -1 and d["out_of_play.us_troops"] == 2
    assert "available.us_troops" not in d or d["available.us_troops"] == 0


def test_fitl_5_4_card_3_peace_talks_marker_and_shaded_trail():
    g, d = play(3, "unshaded", "US")
    assert d == {"nva_resources": -9} and g.event_flags["peace_talks"] is True
    _, d = play(3, "shaded", "NVA")
    assert d == {"nva_resources": 9, "trail": 1}


def test_fitl_5_3_card_4_top_gun_cancels_shaded_migs():
    def prep(g):
        g.capabilities["33"] = "shaded"

    g, d = play(4, "unshaded", "US", prep)
    assert d == {} and g.capabilities == {"4": "unshaded"}
    g, _ = play(4, "shaded", "NVA")
    assert g.capability_active(4, "shaded")


def test_fitl_5_1_2_card_5_wild_weasels():
    def prep(g):
        g.capabilities["34"] = "shaded"

    g, d = play(5, "unshaded", "US", prep)
    assert d == {} and "34" not in g.capabilities
    _, d = play(5, "unshaded", "US")
    assert d == {"trail": -2, "nva_resources": -9}
    g, d = play(5, "shaded", "NVA")
    assert d == {} and g.momentum_active(5, "shaded")


def test_fitl_4_2_3_card_6_aces_strike_and_trail():
    def prep(g):
        put(g.board, "southern_laos", nva_troops=4, nva_guerrillas__a=1, nva_guerrillas__u=1, nva_bases=1)

    _, d = play(6, "unshaded", "US", prep)
    assert d == {
        "southern_laos.nva_troops": -4,
        "southern_laos.nva_guerrillas:a": -1,
        "trail": -2,
        **avail(nva_troops=4, nva_guerrillas=1),
    }
    _, d = play(6, "shaded", "NVA")
    assert d == {"available.us_troops": -2, "casualties.us_troops": 2, "trail": 2}


def test_fitl_5_4_card_7_adsid():
    g, d = play(7, "unshaded", "US")
    assert d == {} and g.momentum_active(7)

    def prep(g):
        g.board.tracks["trail"] = 0

    _, d = play(7, "shaded", "NVA", prep)
    assert d == {"trail": 2, "arvn_resources": -9}


def test_fitl_5_3_card_8_arc_light_both_sides():
    assert play(8, "unshaded")[0].capability_active(8, "unshaded")
    assert play(8, "shaded", "NVA")[0].capability_active(8, "shaded")


def test_fitl_5_1_card_9_psychedelic_cookie():
    def prep(g):
        g.board.available["us_troops"] -= 2
        g.board.out_of_play["us_troops"] += 2
        put(g.board, "hue", us_troops=4)

    _, d = play(9, "unshaded", "US", prep, picks=[{"kind": "option", "index": 0}])
    assert d == {"out_of_play.us_troops": -2, "available.us_troops": 2}
    _, d = play(9, "shaded", "NVA", prep)
    assert d == {"hue.us_troops": -3, "out_of_play.us_troops": 3}


def test_fitl_2_3_6_card_10_rolling_thunder():
    g, d = play(10, "unshaded", "US")
    assert d == {"trail": -2, "nva_resources": -9} and g.eligibility_next == {"NVA": False}
    g, d = play(10, "shaded", "NVA")
    assert d == {"arvn_resources": -5} and g.momentum_active(10)


# ---------------------------------------------------------------------------- 11-20
def test_fitl_5_1_card_12_capt_buck_adams():
    def prep(g):
        put(g.board, "north_vietnam", nva_guerrillas__u=2, nva_bases=1)
        put(g.board, "tay_ninh", vc_guerrillas__u=1)

    _, d = play(12, "unshaded", "US", prep)
    assert d == {
        "north_vietnam.nva_guerrillas:u": -2,
        "north_vietnam.nva_guerrillas:a": 2,
        "north_vietnam.nva_bases": -1,
        "available.nva_bases": 1,
    }

    def prep2(g):
        put(g.board, "central_laos", nva_troops=2)
        put(g.board, "tay_ninh", nva_guerrillas__a=4)

    _, d = play(12, "shaded", "NVA", prep2)
    assert d == {
        "central_laos.nva_bases": 1,
        "available.nva_bases": -1,
        "tay_ninh.nva_guerrillas:a": -3,
        "tay_ninh.nva_guerrillas:u": 3,
    }


@pytest.mark.parametrize("card", [11, 13, 14, 18, 19, 20])
def test_fitl_5_3_capability_cards_store_their_side(card):
    for side in ("unshaded", "shaded"):
        g, d = play(card, side)
        assert d == {} and g.capabilities == {str(card): side}


def test_fitl_5_4_card_15_medevac_shaded_keeps_executor_eligible():
    g, _ = play(15, "shaded", "VC")
    assert g.momentum_active(15, "shaded") and g.eligibility_next == {"VC": True}
    assert play(15, "unshaded")[0].momentum_active(15, "unshaded")


def test_fitl_5_4_card_16_blowtorch_komer():
    g, d = play(16, "unshaded")
    assert d == {"aid": 10} and g.momentum_active(16)

    def prep(g):
        put(g.board, "hue", us_troops=1, arvn_police=1)
        put(g.board, "da_nang", arvn_police=1)

    _, d = play(16, "shaded", "VC", prep)
    assert d == {"aid": -10, "support.hue": -1}


def test_fitl_5_1_card_17_claymores():
    g, _ = play(17, "unshaded", "US")
    assert g.momentum_active(17) and g.eligibility_next == {"US": True}

    def prep(g):
        put(g.board, "pleiku_darlac", us_bases=1, vc_guerrillas__u=1, vc_guerrillas__a=1)

    _, d = play(17, "shaded", "VC", prep)
    assert d == {
        "pleiku_darlac.us_bases": -1,
        "casualties.us_bases": 1,
        "pleiku_darlac.vc_guerrillas:u": -1,
        "available.vc_guerrillas": 1,
    }


def test_fitl_5_1_card_21_americal():
    def prep(g):
        g.board.available["us_troops"] -= 3
        g.board.out_of_play["us_troops"] += 3
        put(g.board, "hue", us_troops=2)

    _, d = play(
        21,
        "unshaded",
        "US",
        prep,
        picks=[
            {"kind": "option", "index": 1},
            {"kind": "space", "space": "saigon"},
            {"kind": "pick", "space": "saigon"},
            {"kind": "pick", "space": "saigon"},
            {"kind": "pick", "space": "hue"},
            {"kind": "pick", "space": "hue"},
        ],
    )
    assert d == {"out_of_play.us_troops": -2, "hue.us_troops": -2, "saigon.us_troops": 4}

    def prep2(g):
        put(g.board, "binh_dinh", us_troops=1, vc_guerrillas__u=2)

    _, d = play(21, "shaded", "VC", prep2)
    assert d == {"binh_dinh.vc_guerrillas:u": -1, "available.vc_guerrillas": 1, "support.binh_dinh": -2}


def test_fitl_5_1_card_22_da_nang():
    def prep(g):
        g.board.available["us_troops"] -= 5
        g.board.out_of_play["us_troops"] += 5

    _, d = play(22, "unshaded", "US", prep, picks=["pick"] * 6)
    assert d == {"out_of_play.us_troops": -3, "available.us_troops": -3, "da_nang.us_troops": 6}

    def prep2(g):
        g.board.support.update(da_nang=2, quang_nam=1, quang_tin_quang_ngai=-1)

    g, d = play(22, "shaded", "VC", prep2)
    assert d == {"support.da_nang": -2, "support.quang_nam": -1} and g.momentum_active(22)


def test_fitl_5_1_card_23_attleboro_shaded_die_roll_casualties():
    def prep(g):
        put(g.board, "tay_ninh", vc_bases__t=1, us_troops=2)
        put(g.board, "quang_duc_long_khanh", us_troops=3)

    _, d = play(23, "shaded", "VC", prep, dice=[4])
    assert sum(v for k, v in d.items() if k.endswith(".us_troops") and not k.startswith("casualties")) == -4
    assert d["casualties.us_troops"] == 4


def test_fitl_5_1_1_card_24_starlite():
    def prep(g):
        put(g.board, "binh_dinh", vc_guerrillas__u=2, vc_bases=1, vc_bases__t=1, us_troops=1)

    _, d = play(24, "unshaded", "US", prep)
    assert d == {
        "binh_dinh.vc_guerrillas:u": -2,
        "binh_dinh.vc_bases": -1,
        **avail(vc_guerrillas=2, vc_bases=1),
    }

    def prep2(g):
        put(g.board, "binh_dinh", vc_guerrillas__a=2)

    g, d = play(24, "shaded", "VC", prep2)
    assert d == {"binh_dinh.vc_guerrillas:a": -2, "binh_dinh.vc_guerrillas:u": 2}
    assert g.eligibility_next == {"VC": True}


def test_fitl_3_3_4_card_25_riverines_shaded_sabotage_where_vc_outnumber():
    def prep(g):
        put(g.board, "loc_saigon_can_tho", arvn_police=3)

    _, d = play(25, "shaded", "VC", prep)
    mekong = ["loc_saigon_can_tho", "loc_can_tho_chau_doc", "loc_can_tho_long_phu"]
    assert all(d[f"{s}.vc_guerrillas:u"] == 2 for s in mekong)
    assert "sabotage.loc_saigon_can_tho" not in d and d["sabotage.loc_can_tho_long_phu"] == 1


def test_fitl_5_1_card_26_lrrp_shaded():
    def prep(g):
        put(g.board, "hue", us_irregulars__a=2)
        put(g.board, "binh_dinh", us_irregulars__u=1)

    _, d = play(26, "shaded", "VC", prep)
    assert d == {
        "hue.us_irregulars:a": -2,
        "binh_dinh.us_irregulars:u": -1,
        "casualties.us_irregulars": 3,
        "support.hue": -1,
        "support.binh_dinh": -1,
    }


# ---------------------------------------------------------------------------- every encoded card: a smoke run
@pytest.mark.parametrize("card", sorted(load_events()))
def test_fitl_5_1_every_encoded_card_runs_on_the_scenario_board(card):
    """Every encoded side runs from the short scenario with first choices, keeping the board's invariants and
    explaining every change (decision F-41)."""
    entry = load_events()[card]
    for side in ("unshaded", "shaded"):
        if side not in entry or entry["status"] == "todo":
            continue

        class Full(EvGame):
            empty = False  # the scenario board as it is

        g = Full([("card", card, "US" if side == "unshaded" else "VC", side, "pivotal")])
        for _ in range(300):
            if g.is_over:
                break
            before = g.state_dict()
            n0 = len(g.log)
            if g.decision is None:
                g.advance("decision")
            else:
                g.apply(g.legal_actions()[0])
            problems = g.invariants() + g.transition_problems(before, g.log[n0:])
            assert not [p for p in problems if "cards out of place" not in p], (card, side, problems)
        assert g.is_over
