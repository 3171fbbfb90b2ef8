"""FitL Events 53-78: each side from a prepared position, asserting the exact board change (rules 5.1-5.5)."""

from __future__ import annotations

from .ops_helpers import put
from .test_fitl_events_cards_1 import avail, play


def test_fitl_2_3_6_card_53_sappers():
    def prep(g):
        put(g.board, "hue", nva_troops=3)
        put(g.board, "pleiku_darlac", us_bases=1, arvn_bases=1)

    g, d = play(53, "unshaded", "US", prep, picks=[{"kind": "space", "space": "hue"}, "stop"])
    assert d == {"hue.nva_troops": -2, "available.nva_troops": 2} and g.eligibility_next == {"US": True}
    _, d = play(53, "shaded", "VC", prep, picks=["pick", "pick"])
    assert d == {
        "pleiku_darlac.us_bases": -1,
        "casualties.us_bases": 1,
        "pleiku_darlac.arvn_bases": -1,
        "available.arvn_bases": 1,
    }


def test_fitl_2_3_6_card_54_son_tay():
    def prep(g):
        g.board.available["us_troops"] -= 3
        g.board.casualties["us_troops"] += 3

    g, d = play(54, "unshaded", "US", prep)
    assert d == {"casualties.us_troops": -2, "available.us_troops": 2}
    assert g.eligibility_next == {"NVA": False, "US": True}
    g, d = play(54, "shaded", "NVA", prep)
    assert d == {"casualties.us_troops": -2, "out_of_play.us_troops": 2} and g.eligibility_next == {
        "US": False
    }


def test_fitl_5_1_1_card_55_trucks():
    def prep(g):
        put(g.board, "central_laos", nva_troops=5)
        put(g.board, "the_fishhook", nva_bases__t=1, nva_guerrillas__u=1)

    _, d = play(55, "unshaded", "US", prep)
    assert d == {
        "trail": -2,
        "central_laos.nva_troops": -4,
        "the_fishhook.nva_guerrillas:u": -1,
        "the_fishhook.nva_bases:t": -1,
        **avail(nva_troops=4, nva_guerrillas=1, nva_bases=1),
    }
    _, d = play(55, "shaded", "NVA", prep)
    assert d == {"nva_resources": 4, "vc_resources": 4}


def test_fitl_5_1_card_56_giap_unshaded_exchange():
    def prep(g):
        put(g.board, "tay_ninh", vc_guerrillas__u=2, nva_guerrillas__a=1)

    _, d = play(56, "unshaded", "NVA", prep, picks=[{"space": "tay_ninh", "key": "nva_guerrillas:a"}])
    assert d == {
        "tay_ninh.nva_guerrillas:a": -1,
        "tay_ninh.vc_guerrillas:u": -1,
        "tay_ninh.nva_troops": 1,
        "available.nva_guerrillas": 1,
        "available.vc_guerrillas": 1,
        "available.nva_troops": -1,
    }


def test_fitl_5_1_3_card_57_international_unrest():
    def prep(g):
        g.board.available["us_bases"] -= 1
        g.board.casualties["us_bases"] += 1

    _, d = play(57, "unshaded", "US", prep)
    assert d == {"casualties.us_bases": -1, "available.us_bases": 1}
    _, d = play(57, "shaded", "VC", dice=[4])
    assert d == {"available.us_troops": -2, "out_of_play.us_troops": 2, "nva_resources": 4}


def test_fitl_6_4_2_card_58_pathet_lao():
    def prep(g):
        put(g.board, "southern_laos", us_troops=1, arvn_police=1)

    _, d = play(
        58,
        "shaded",
        "NVA",
        prep,
        picks=[{"kind": "space", "space": "hue"}, {"kind": "space", "space": "loc_hue_da_nang"}],
    )
    assert d == {
        "southern_laos.us_troops": -1,
        "hue.us_troops": 1,
        "southern_laos.arvn_police": -1,
        "loc_hue_da_nang.arvn_police": 1,
    }
    _, d = play(58, "shaded", "NVA")
    assert d == {"trail": 2}

    def prep2(g):
        put(g.board, "north_vietnam", nva_troops=4, nva_bases=1)
        put(g.board, "central_laos", nva_guerrillas__u=3)

    _, d = play(58, "unshaded", "US", prep2)
    assert sum(v for k, v in d.items() if k.startswith("available.")) == 6


def test_fitl_5_1_card_59_plei_mei_unshaded():
    def prep(g):
        put(g.board, "pleiku_darlac", arvn_bases=1)
        put(g.board, "kontum", nva_troops=4)

    _, d = play(59, "unshaded", "US", prep)
    assert d == {"kontum.nva_troops": -3, "available.nva_troops": 3}


def test_fitl_2_3_6_card_60_war_photographer():
    def prep(g):
        g.board.available["us_troops"] -= 2
        g.board.out_of_play["us_troops"] += 2

    _, d = play(60, "unshaded", "US", prep)
    assert d == {"out_of_play.us_troops": -2, "available.us_troops": 2}
    g, d = play(60, "shaded", "NVA", picks=[{"space": "north_vietnam"}] * 6)
    assert d == {"north_vietnam.nva_troops": 6, "available.nva_troops": -6, "nva_resources": 6}
    assert g.eligibility_next == {"NVA": True}


def test_fitl_5_3_card_61_armored_cavalry():
    assert play(61, "shaded", "NVA")[0].capability_active(61, "shaded")


def test_fitl_5_1_card_62_cambodian_civil_war_shaded():
    _, d = play(62, "shaded", "NVA", picks=[{"space": "sihanoukville", "key": "nva_troops"}] * 12)
    assert d == {"sihanoukville.nva_troops": 12, "available.nva_troops": -12}


def test_fitl_1_8_card_63_fact_finding():
    _, d = play(63, "unshaded", "ARVN", picks=[{"kind": "option", "index": 1}], dice=[5])
    assert d == {"patronage": -5, "arvn_resources": 5, "aid": 6}

    def prep(g):
        put(g.board, "hue", arvn_police=2)
        g.board.support["hue"] = 2

    _, d = play(63, "shaded", "VC", prep, picks=[{"kind": "option", "index": 1}])
    assert d == {"support.hue": -2, "vc_resources": 4}


def test_fitl_2_3_6_card_64_honolulu():
    g, d = play(64, "unshaded", "VC", picks=[{"kind": "option", "index": 1}, {"kind": "option", "index": 1}])
    assert d == {"aid": -10, "patronage": -5} and g.eligibility_next == {"VC": True}


def test_fitl_1_4_2_card_65_international_forces():
    def prep(g):
        g.board.available["us_bases"] -= 1
        g.board.out_of_play["us_bases"] += 1
        put(g.board, "hue", us_troops=3)

    _, d = play(65, "unshaded", "US", prep, picks=[{"space": "hue"}])
    assert d == {"out_of_play.us_bases": -1, "hue.us_bases": 1}
    _, d = play(65, "shaded", "VC", prep, dice=[2])
    assert d == {"hue.us_troops": -2, "out_of_play.us_troops": 2}


def test_fitl_1_6_card_66_ambassador_taylor():
    _, d = play(66, "unshaded", "US", picks=[{"kind": "option", "index": 1}])
    assert d == {"aid": 9, "arvn_resources": 9, "patronage": -3}

    def prep(g):
        g.board.support.update(saigon=2, hue=1, can_tho=2)

    _, d = play(66, "shaded", "VC", prep)
    assert d == {"support.hue": -1, "support.can_tho": -2, "patronage": -3}


def test_fitl_2_3_6_card_67_amphib_landing_shaded():
    def prep(g):
        put(g.board, "binh_dinh", vc_guerrillas__u=2)

    g, d = play(67, "shaded", "VC", prep, picks=["pick", {"kind": "space", "space": "kontum"}, "stop"])
    assert d == {"binh_dinh.vc_guerrillas:u": -1, "kontum.vc_guerrillas:u": 1}
    assert g.eligibility_next == {"US": False, "ARVN": False}


def test_fitl_1_6_card_68_green_berets():
    _, d = play(
        68, "unshaded", "US", picks=[{"kind": "space", "space": "binh_dinh"}, {"kind": "option", "index": 1}]
    )
    assert d == {"binh_dinh.arvn_rangers:u": 3, "available.arvn_rangers": -3, "support.binh_dinh": 2}

    def prep(g):
        put(g.board, "binh_dinh", us_irregulars__u=3)

    _, d = play(68, "shaded", "VC", prep)
    assert d == {"binh_dinh.us_irregulars:u": -3, "available.us_irregulars": 3, "support.binh_dinh": -2}


def test_fitl_1_6_card_70_roks_shaded():
    _, d = play(70, "shaded", "VC")
    assert d == {"support.qui_nhon": -1, "support.phu_bon_phu_yen": -1, "support.khanh_hoa": -1}


def test_fitl_5_1_card_71_an_loc_unshaded():
    def prep(g):
        put(g.board, "an_loc", arvn_police=1, nva_troops=4, nva_guerrillas__u=1)

    _, d = play(71, "unshaded", "ARVN", prep)
    assert d == {
        "an_loc.nva_troops": -4,
        "an_loc.arvn_troops": 3,
        "available.nva_troops": 4,
        "available.arvn_troops": -3,
    }


def test_fitl_5_4_card_72_body_count():
    assert play(72, "unshaded")[0].momentum_active(72)

    def prep(g):
        g.board.support["hue"] = -2

    _, d = play(72, "shaded", "VC", prep)
    assert d["hue.vc_guerrillas:u"] == 1 and d["available.nva_troops"] == -12


def test_fitl_6_5_card_73_great_society_shaded():
    _, d = play(73, "shaded", "VC")
    assert d == {"available.us_troops": -3, "out_of_play.us_troops": 3}


def test_fitl_5_1_card_74_lam_son_shaded():
    def prep(g):
        put(g.board, "central_laos", arvn_troops=3)

    _, d = play(74, "shaded", "NVA", prep)
    assert d == {"nva_resources": 9}


def test_fitl_1_8_card_76_annam():
    def prep(g):
        put(g.board, "tay_ninh", nva_troops=1, vc_bases__t=1)
        put(g.board, "hue", nva_guerrillas__u=1, vc_guerrillas__u=1)

    _, d = play(76, "unshaded", "US", prep)
    assert d == {"nva_resources": -2, "vc_resources": -2, "patronage": 2}

    def prep2(g):
        g.board.support.update(hue=2, da_nang=-1, quang_nam=1)

    _, d = play(76, "shaded", "VC", prep2)
    assert d == {"support.hue": -2, "support.quang_nam": -1}


def test_fitl_1_8_card_77_detente():
    _, d = play(77, "unshaded", "US")
    assert d == {
        "nva_resources": -8,
        "vc_resources": -5,
        "available.nva_troops": -5,
        "out_of_play.nva_troops": 5,
    }


def test_fitl_5_1_1_card_77_detente_shaded_vc_rally_in_at_most_6_spaces():
    """Card 77 Détente, shaded: the VC's free Rally is limited to 6 spaces (FITL-5.1.1: the card's own count;
    free, so without the limit it could take every space), whatever the NVA chose first."""
    g, d = play(
        77, "shaded", "VC"
    )  # every choice the first offered: NVA +9, then one Rally space after another
    rallied = {k.split(".")[0] for k in d if k.split(".")[0] in g.data.spaces and ".vc_" in k}
    assert d.get("nva_resources") == 9 and len(rallied) == 6
    assert d["available.vc_guerrillas"] + d.get("available.vc_bases", 0) < 0


def test_fitl_5_4_card_78_general_lansdale():
    def prep(g):
        put(g.board, "hue", arvn_police=1)

    _, d = play(78, "unshaded", "US", prep)
    assert d == {"support.hue": 2, "terror.hue": 1, "patronage": 1}
    g, d = play(78, "shaded", "VC")
    assert d == {"patronage": 3} and g.momentum_active(78)


def test_fitl_6_3_1_card_64_honolulu_pacification_by_executing_coin():
    def prep(g):
        put(g.board, "hue", us_troops=2, arvn_police=1)
        g.board.terror["hue"] = 1

    _, d = play(
        64,
        "unshaded",
        "US",
        prep,
        picks=[
            {"kind": "option", "index": 0},
            {"kind": "option", "index": 0},
            {"kind": "space", "space": "hue"},
            {"kind": "space", "space": "hue"},
            "stop",
        ],
    )
    assert d == {"aid": 10, "patronage": 3, "terror.hue": -1, "support.hue": 1, "arvn_resources": -6}


def test_fitl_6_5_card_73_great_society_runs_a_commitment_phase():
    def prep(g):
        g.board.available["us_troops"] -= 3
        g.board.casualties["us_troops"] += 3

    g, d = play(73, "unshaded", "US", prep)
    assert d["casualties.us_troops"] == -3 and d["out_of_play.us_troops"] == 1
    assert any(r.rule_id == "FITL-6.5" for r in g.log)
