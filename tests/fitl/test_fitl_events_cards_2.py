"""FitL Events 27-52: each side from a prepared position, asserting the exact board change (rules 5.1-5.5)."""

from __future__ import annotations

import pytest

from .ops_helpers import put
from .test_fitl_events_cards_1 import avail, play


def test_fitl_5_1_3_card_27_phoenix_program():
    def prep(g):
        put(g.board, "hue", arvn_police=5, vc_guerrillas__u=2, vc_bases=1)
        put(g.board, "tay_ninh", vc_guerrillas__u=3)

    _, d = play(27, "unshaded", "US", prep)
    assert d == {"hue.vc_guerrillas:u": -2, "hue.vc_bases": -1, **avail(vc_guerrillas=2, vc_bases=1)}
    _, d = play(27, "shaded", "VC", prep)
    assert d == {"terror.hue": 1, "support.hue": -2}


def test_fitl_5_1_1_card_29_tribesmen():
    def prep(g):
        put(g.board, "pleiku_darlac", us_irregulars__a=2, nva_troops=1, vc_bases__t=1, vc_guerrillas__u=4)

    _, d = play(29, "unshaded", "US", prep)
    assert d == {
        "pleiku_darlac.nva_troops": -1,
        "pleiku_darlac.vc_guerrillas:u": -3,
        **avail(nva_troops=1, vc_guerrillas=3),
    }
    _, d = play(29, "shaded", "VC", prep, picks=[{"kind": "space", "space": "quang_nam"}])
    assert d == {
        "pleiku_darlac.us_irregulars:a": -2,
        "pleiku_darlac.vc_guerrillas:u": 2,
        "available.us_irregulars": 2,
        "available.vc_guerrillas": -2,
        "support.quang_nam": -2,
        "patronage": -3,
    }


def test_fitl_4_2_3_card_30_new_jersey():
    def prep(g):
        put(g.board, "binh_dinh", nva_troops=1, vc_guerrillas__a=2)
        g.board.support["binh_dinh"] = 1

    _, d = play(30, "unshaded", "US", prep, picks=[{"kind": "option", "index": 0}])
    assert d == {
        "binh_dinh.nva_troops": -1,
        "binh_dinh.vc_guerrillas:a": -1,
        "support.binh_dinh": -1,
        **avail(nva_troops=1, vc_guerrillas=1),
    }

    def prep2(g):
        put(g.board, "binh_dinh", us_troops=1)
        put(g.board, "khanh_hoa", us_troops=1)

    _, d = play(30, "shaded", "VC", prep2)
    assert d == {"support.binh_dinh": -2, "support.khanh_hoa": -2}


@pytest.mark.parametrize("card", [28, 31, 32, 34, 45])
def test_fitl_5_3_capabilities_27_to_52(card):
    for side in ("unshaded", "shaded"):
        g, d = play(card, side)
        assert d == {} and g.capability_active(card, side)


def test_fitl_5_1_2_card_33_migs_blocked_by_top_gun():
    def prep(g):
        g.capabilities["4"] = "unshaded"

    g, _ = play(33, "shaded", "NVA", prep)
    assert not g.capability_active(33)
    assert play(33, "shaded", "NVA")[0].capability_active(33, "shaded")
    assert play(33, "unshaded")[0].capability_active(33, "unshaded")


def test_fitl_6_7_card_35_thanh_hoa():
    assert play(35, "unshaded")[1] == {"trail": -2}
    assert play(35, "shaded", "NVA")[1] == {"trail": 1, "nva_resources": 9}


def test_fitl_1_4_4_card_36_hamburger_hill():
    def prep(g):
        put(g.board, "saigon", us_troops=5)
        put(g.board, "binh_dinh", vc_bases__t=1)

    _, d = play(36, "unshaded", "US", prep, picks=[{"kind": "space", "space": "binh_dinh"}])
    assert d == {
        "saigon.us_troops": -4,
        "binh_dinh.us_troops": 4,
        "binh_dinh.vc_bases:t": -1,
        "available.vc_bases": 1,
    }

    def prep2(g):
        put(g.board, "pleiku_darlac", nva_bases=1, us_troops=4)

    _, d = play(36, "shaded", "NVA", prep2)
    assert d == {
        "pleiku_darlac.nva_bases": -1,
        "pleiku_darlac.nva_bases:t": 1,
        "pleiku_darlac.us_troops": -3,
        "casualties.us_troops": 3,
    }


def test_fitl_2_3_6_card_37_khe_sanh():
    def prep(g):
        put(g.board, "quang_tri_thua_thien", us_bases=1, us_troops=1, nva_troops=6)
        put(g.board, "north_vietnam", nva_troops=6)

    _, d = play(37, "unshaded", "US", prep)
    assert (
        d["available.nva_troops"] == 10
        and d["quang_tri_thua_thien.nva_troops"] + d["north_vietnam.nva_troops"] == -10
    )
    g, d = play(37, "shaded", "NVA", prep, picks=[{"space": "quang_tri_thua_thien"}])
    assert d == {"quang_tri_thua_thien.us_troops": -1, "casualties.us_troops": 1}
    assert g.eligibility_next == {"US": False}


def test_fitl_5_4_card_38_mcnamara_line():
    def prep(g):
        put(g.board, "central_laos", us_troops=2, arvn_bases=1)
        put(g.board, "hue", arvn_police=1)

    g, d = play(38, "unshaded", "US", prep)
    assert d == {
        "central_laos.us_troops": -2,
        "central_laos.arvn_bases": -1,
        "hue.us_troops": 2,
        "hue.arvn_bases": 1,
        "arvn_resources": -12,
    }
    assert g.momentum_active(38)


def test_fitl_5_4_card_39_oriskany():
    def prep(g):
        put(g.board, "north_vietnam", nva_troops=2, nva_bases__t=1)
        put(g.board, "central_laos", nva_guerrillas__u=3)

    _, d = play(39, "unshaded", "US", prep)
    assert d == {
        "north_vietnam.nva_troops": -2,
        "central_laos.nva_guerrillas:u": -2,
        "trail": -2,
        **avail(nva_troops=2, nva_guerrillas=2),
    }
    g, d = play(39, "shaded", "NVA")
    assert d == {"available.us_troops": -1, "out_of_play.us_troops": 1} and g.momentum_active(39)


def test_fitl_1_4_1_card_40_pows_shaded():
    _, d = play(40, "shaded", "VC")
    assert d == {"available.us_troops": -3, "casualties.us_troops": 3}


def test_fitl_5_4_card_41_bombing_pause():
    g, d = play(
        41, "unshaded", "US", picks=[{"kind": "space", "space": "saigon"}, {"kind": "space", "space": "hue"}]
    )
    assert d == {"support.saigon": 1, "support.hue": 1, "patronage": 2} and g.momentum_active(41)


def test_fitl_5_1_card_42_chou_en_lai():
    def prep(g):
        put(g.board, "north_vietnam", nva_troops=5)

    _, d = play(42, "unshaded", "US", prep, dice=[3])
    assert d == {"nva_resources": -10, "north_vietnam.nva_troops": -3, "available.nva_troops": 3}
    _, d = play(42, "shaded", "NVA")
    assert d == {"nva_resources": 10, "vc_resources": 2}


def test_fitl_1_8_card_43_economic_aid():
    def prep(g):
        g.board.available["arvn_bases"] -= 2
        g.board.out_of_play["arvn_bases"] += 2

    _, d = play(
        43, "unshaded", "ARVN", prep, picks=[{"kind": "option", "index": 1}, {"kind": "option", "index": 1}]
    )
    assert d == {"out_of_play.arvn_bases": -2, "available.arvn_bases": 2, "aid": 12}
    _, d = play(43, "shaded", "NVA", picks=[{"kind": "option", "index": 0}])
    assert d == {"trail": 2}


def test_fitl_5_1_card_44_ia_drang_shaded():
    def prep(g):
        put(g.board, "pleiku_darlac", nva_troops=1, us_troops=1)
        put(g.board, "kontum", us_troops=2)

    _, d = play(44, "shaded", "NVA", prep, dice=[6])
    assert d == {"pleiku_darlac.us_troops": -1, "kontum.us_troops": -2, "casualties.us_troops": 3}


def test_fitl_5_4_card_46_559th():
    g, d = play(46, "unshaded")
    assert d == {"trail": -2} and g.momentum_active(46)


def test_fitl_5_1_card_47_chu_luc_shaded_and_doubling():
    _, d = play(47, "shaded", "NVA", picks=[{"space": "north_vietnam"}] * 3 + ["stop"])
    assert d == {"north_vietnam.nva_troops": 3, "available.nva_troops": -3}


def test_fitl_1_6_card_48_nam_dong():
    def prep(g):
        put(g.board, "binh_dinh", arvn_bases=1, arvn_troops=2, vc_guerrillas__a=4)

    _, d = play(48, "unshaded", "US", prep, picks=["pick", "pick", "pick"])
    assert d == {"binh_dinh.vc_guerrillas:a": -3, "available.vc_guerrillas": 3, "support.binh_dinh": 2}
    _, d = play(48, "shaded", "VC", prep)
    assert d == {"binh_dinh.arvn_bases": -1, "available.arvn_bases": 1, "support.binh_dinh": -2}


def test_fitl_5_1_card_49_russian_arms_shaded_doubles_troops():
    def prep(g):
        put(g.board, "north_vietnam", nva_troops=3)
        put(g.board, "central_laos", nva_troops=1)

    _, d = play(49, "shaded", "NVA", prep)
    assert d["north_vietnam.nva_troops"] == 3 and d["central_laos.nva_troops"] == 1


def test_fitl_5_5_card_50_uncle_ho_two_free_limited_operations():
    def prep(g):
        put(g.board, "saigon", arvn_troops=2)

    g, d = play(50, "unshaded", "US", prep, picks=[{"kind": "option", "index": 1}])
    free = [r for r in g.log if r.title.endswith("Free Operation")]
    assert len(free) == 2 and all(r.result["faction"] == "ARVN" for r in free)
    assert d["arvn_resources"] == 9  # the Limited Operations are free (FITL-5.5)
    g, _ = play(50, "shaded", "NVA")
    free = [r.result["faction"] for r in g.log if r.title.endswith("Free Operation")]
    assert free == ["VC"] * 3 + ["NVA"] * 3  # the VC completes its 3 before the NVA starts


def test_fitl_6_7_card_51_301st():
    def prep(g):
        put(g.board, "north_vietnam", nva_troops=4, nva_bases=1)
        put(g.board, "the_fishhook", vc_guerrillas__u=4)

    _, d = play(51, "unshaded", "US", prep)
    assert (
        d["available.nva_troops"] + d["available.vc_guerrillas"] == 6 and "north_vietnam.nva_bases" not in d
    )
    _, d = play(51, "shaded", "NVA", dice=[5])
    assert d == {"trail": 2, "nva_resources": 5}


def test_fitl_5_3_card_52_rand_flips_a_us_capability():
    def prep(g):
        g.capabilities.update({"11": "shaded", "31": "shaded"})

    g, _ = play(52, "unshaded", "US", prep)
    assert g.capabilities == {"11": "unshaded", "31": "shaded"}
    g, _ = play(52, "shaded", "VC", prep)
    assert g.capabilities == {"11": "shaded", "31": "shaded"}
