"""FitL Events 79-120, Pivotal Events 121-124 and RVN Leaders 125-130 (rules 5.1-5.5, 2.3.8, 2.4.1)."""

from __future__ import annotations

import pytest

from wargames.core import IllegalAction

from .ops_helpers import put
from .test_fitl_events_cards_1 import avail, play
from .test_fitl_events_vocab import EvGame, drive


def test_fitl_2_3_6_card_79_lodge():
    assert play(79, "unshaded")[1] == {"aid": 20}

    def prep(g):
        put(g.board, "hue", arvn_police=2)

    g, d = play(79, "shaded", "VC", prep, picks=["pick", "pick", "stop"])
    assert d == {"hue.arvn_police": -2, "available.arvn_police": 2, "patronage": 4}
    assert g.eligibility_next == {"ARVN": False}


def test_fitl_1_6_card_80_light_at_the_end_of_the_tunnel():
    def prep(g):
        put(g.board, "hue", us_troops=3)

    g, d = play(
        80,
        "unshaded",
        "ARVN",
        prep,
        picks=[
            {"kind": "option", "index": 1},
            {"kind": "space", "space": "hue"},
            {"kind": "space", "space": "saigon"},
        ]
        + [{"space": "north_vietnam"}] * 8,
    )
    assert d == {
        "hue.us_troops": -2,
        "available.us_troops": 2,
        "patronage": 4,
        "support.hue": -1,
        "support.saigon": -1,
        "north_vietnam.nva_troops": 8,
        "available.nva_troops": -8,
    }
    assert g.eligibility_next == {"ARVN": True}


def test_fitl_5_1_1_card_81_cidg():
    def prep(g):
        put(g.board, "tay_ninh", vc_guerrillas__u=3)

    _, d = play(
        81,
        "unshaded",
        "US",
        prep,
        dice=[2],
        picks=[{"kind": "option", "index": 2}, {"kind": "option", "index": 0}],
    )
    assert d == {
        "tay_ninh.vc_guerrillas:u": -2,
        "available.vc_guerrillas": 2,
        "tay_ninh.us_irregulars:u": 1,
        "available.us_irregulars": -1,
        "tay_ninh.arvn_police": 1,
        "available.arvn_police": -1,
    }

    def prep2(g):
        put(g.board, "pleiku_darlac", arvn_police=1, us_irregulars__a=1, arvn_troops=1)

    _, d = play(81, "shaded", "VC", prep2)
    assert d == {
        "pleiku_darlac.arvn_police": -1,
        "pleiku_darlac.us_irregulars:a": -1,
        "pleiku_darlac.vc_guerrillas:u": 2,
        **avail(arvn_police=1, us_irregulars=1, vc_guerrillas=-2),
    }


def test_fitl_1_8_card_82_domino_theory():
    _, d = play(82, "unshaded", "US", picks=[{"kind": "option", "index": 2}])
    assert d == {"arvn_resources": 9, "aid": 9}
    _, d = play(82, "shaded", "VC")
    assert d == {"available.us_troops": -3, "out_of_play.us_troops": 3, "aid": -9}


def test_fitl_1_6_card_83_election():
    def prep(g):
        g.board.support.update(hue=1, saigon=1)

    _, d = play(83, "unshaded", "US", prep)
    assert d == {"support.hue": 1, "support.saigon": 1, "aid": 10}
    _, d = play(
        83,
        "shaded",
        "VC",
        prep,
        picks=[{"kind": "space", "space": "hue"}, {"kind": "space", "space": "saigon"}],
    )
    assert d == {"support.hue": -1, "support.saigon": -1, "aid": -15}


def test_fitl_1_4_1_card_84_to_quoc():
    def prep(g):
        put(g.board, "hue", nva_guerrillas__u=1)
        put(g.board, "saigon", arvn_troops=4, arvn_police=3)

    _, d = play(84, "unshaded", "US", prep)
    assert d == {"hue.arvn_troops": 1, "hue.arvn_police": 1, **avail(arvn_troops=-1, arvn_police=-1)}
    _, d = play(84, "shaded", "VC", prep)
    assert d == {
        "saigon.arvn_police": -2,
        "available.arvn_police": 2,
        "saigon.vc_guerrillas:u": 1,
        "available.vc_guerrillas": -1,
    }


def test_fitl_1_6_card_85_usaid():
    def prep(g):
        put(g.board, "hue", arvn_police=1)

    _, d = play(85, "unshaded", "US", prep)
    assert d == {"support.hue": 1}
    _, d = play(
        85,
        "shaded",
        "VC",
        picks=[
            {"kind": "option", "index": 1},
            {"kind": "option", "index": 2},
            {"kind": "option", "index": 0},
        ],
    )
    assert d == {"arvn_resources": -2, "patronage": 2}


def test_fitl_1_6_card_87_nguyen_chanh_thi():
    _, d = play(87, "unshaded", "ARVN", picks=[{"space": "hue", "key": "arvn_police"}] * 3)
    assert d == {"hue.arvn_police": 3, "available.arvn_police": -3, "support.hue": 1}

    def prep(g):
        put(g.board, "hue", arvn_police=2)

    _, d = play(87, "shaded", "VC", prep, picks=[{"key": "vc_guerrillas"}, {"kind": "option", "index": 1}])
    assert d == {
        "hue.arvn_police": -2,
        "available.arvn_police": 2,
        "hue.vc_guerrillas:u": 1,
        "available.vc_guerrillas": -1,
        "patronage": -4,
    }


def test_fitl_2_3_6_card_88_phan_quang_dan():
    assert play(88, "unshaded")[1] == {"support.saigon": 1, "patronage": 5}

    def prep(g):
        g.board.support["saigon"] = -2

    g, d = play(88, "shaded", "VC", prep)
    assert d == {"support.saigon": 1, "patronage": -5} and g.eligibility_next == {"ARVN": False}


def test_fitl_1_6_card_89_tam_chau():
    def prep(g):
        g.board.support["saigon"] = 2

    assert play(89, "unshaded", "US", prep)[1] == {"support.saigon": -1, "patronage": 6}
    _, d = play(89, "shaded", "VC", picks=[{"key": "vc_bases"}])
    assert d == {"saigon.vc_bases": 1, "available.vc_bases": -1, "support.saigon": -1, "patronage": -6}


def test_fitl_6_4_2_card_90_walt_rostow():
    def prep(g):
        put(g.board, "binh_dinh", arvn_troops=2)
        put(g.board, "hue", arvn_police=1)

    _, d = play(
        90,
        "shaded",
        "VC",
        prep,
        picks=[
            {"key": "vc_guerrillas"},
            {"kind": "space", "space": "hue"},
            {"kind": "space", "space": "hue"},
        ],
    )
    assert d == {
        "binh_dinh.vc_guerrillas:u": 1,
        "available.vc_guerrillas": -1,
        "binh_dinh.arvn_troops": -2,
        "hue.arvn_troops": 2,
    }


def test_fitl_5_1_1_card_90_walt_rostow_unshaded_from_anywhere_the_map_included():
    """Card 90 Walt Rostow, unshaded (decision F-179): the 2 ARVN pieces may come from the map: 1 ARVN Troop moves
    from Binh Dinh to COIN-Controlled Hue, then the other piece comes from Available."""

    def prep(g):
        put(g.board, "binh_dinh", arvn_troops=2)
        put(g.board, "hue", arvn_police=1)

    _, d = play(
        90,
        "unshaded",
        "ARVN",
        prep,
        picks=[{"space": "binh_dinh", "key": "arvn_troops"}, "stop"],  # Hue: the only COIN-Controlled space
    )
    assert d["binh_dinh.arvn_troops"] == -1
    assert sum(v for k, v in d.items() if k.startswith("hue.arvn")) == 2
    assert sum(v for k, v in d.items() if k.startswith("available.arvn")) == -1


def test_fitl_5_1_card_91_bob_hope():
    def prep(g):
        put(g.board, "binh_dinh", us_troops=4)
        put(g.board, "hue", arvn_police=1)
        g.board.available["us_troops"] -= 3
        g.board.casualties["us_troops"] += 3

    _, d = play(91, "unshaded", "US", prep, picks=["pick"] * 4)
    assert d == {
        "binh_dinh.us_troops": -4,
        "hue.us_troops": 4,
        "casualties.us_troops": -2,
        "available.us_troops": 2,
    }
    _, d = play(
        91,
        "shaded",
        "VC",
        prep,
        picks=[{"kind": "option", "index": 1}, "pick", {"kind": "space", "space": "hue"}, "stop"],
    )
    assert d == {
        "binh_dinh.us_troops": -1,
        "hue.us_troops": 1,
        "binh_dinh.vc_guerrillas:u": 1,
        "available.vc_guerrillas": -1,
    }


def test_fitl_5_1_card_93_fulbright():
    def prep(g):
        put(g.board, "hue", us_troops=2, us_bases=1)

    _, d = play(93, "unshaded", "VC", prep)
    assert d == {"hue.us_troops": -2, "hue.us_bases": -1, **avail(us_troops=2, us_bases=1)}
    assert play(93, "shaded", "VC")[1] == {"available.us_bases": -1, "out_of_play.us_bases": 1, "aid": -9}


def test_fitl_1_4_4_card_94_tunnel_rats():
    def prep(g):
        put(g.board, "tay_ninh", vc_bases=2)
        put(g.board, "binh_dinh", nva_bases=1, us_troops=1)
        put(g.board, "kontum", vc_bases__t=1, us_troops=1)

    _, d = play(94, "unshaded", "VC", prep, picks=[{"kind": "option", "index": 0}, {"space": "tay_ninh"}])
    assert d == {
        "tay_ninh.vc_bases": -1,
        "tay_ninh.vc_bases:t": 1,
        "binh_dinh.nva_bases": -1,
        "binh_dinh.nva_bases:t": 1,
    }
    _, d = play(94, "unshaded", "US", prep, picks=[{"kind": "option", "index": 1}])
    assert d == {"kontum.vc_bases:t": -1, "available.vc_bases": 1}


def test_fitl_1_6_card_95_westmoreland_shaded():
    def prep(g):
        put(g.board, "binh_dinh", arvn_police=1)

    _, d = play(
        95,
        "shaded",
        "VC",
        prep,
        picks=[{"kind": "space", "space": s} for s in ("quang_nam", "tay_ninh", "kien_phong")],
    )
    assert d == {"support.quang_nam": -2, "support.tay_ninh": -2, "support.kien_phong": -2}


def test_fitl_2_4_1_card_97_brinks_hotel_flips_the_leader():
    g, d = play(
        97, "unshaded", "US", None, picks=[{"kind": "option", "index": 0}]
    )  # Young Turks leads (short)
    assert d == {"aid": 10} and not g.leader_active(126) and g.event_flags["leader_flipped"] == 126

    def prep2(g):
        put(g.board, "hue", vc_guerrillas__u=1)

    _, d = play(97, "shaded", "VC", prep2)
    assert d == {"support.hue": -2, "terror.hue": 1}


def test_fitl_5_1_card_98_long_tan():
    def prep(g):
        put(g.board, "tay_ninh", us_troops=1, vc_guerrillas__u=2, nva_guerrillas__a=1, us_bases=1)

    _, d = play(98, "unshaded", "US", prep, picks=[{"kind": "option", "index": 1}])
    assert d == {
        "tay_ninh.vc_guerrillas:u": -2,
        "tay_ninh.nva_guerrillas:a": -1,
        **avail(vc_guerrillas=2, nva_guerrillas=1),
    }
    _, d = play(98, "shaded", "VC", prep)
    assert d == {
        "tay_ninh.us_bases": -1,
        "tay_ninh.us_troops": -1,
        "casualties.us_bases": 1,
        "casualties.us_troops": 1,
    }


def test_fitl_5_1_1_card_100_rach_ba_rai():
    def prep(g):
        put(g.board, "kien_phong", us_troops=1, vc_guerrillas__u=2, vc_bases__t=1, arvn_police=2)

    _, d = play(100, "unshaded", "US", prep, picks=[{"kind": "option", "index": 0}])
    assert d == {"kien_phong.vc_guerrillas:u": -2, "available.vc_guerrillas": 2}
    _, d = play(100, "shaded", "VC", prep, dice=[2], picks=["pick", "pick", {"key": "vc_guerrillas"}])
    assert (
        d["casualties.us_troops"] + d["available.arvn_police"] == 2 and d["kien_phong.vc_guerrillas:u"] == 1
    )


def test_fitl_1_4_4_card_102_cu_chi():
    def prep(g):
        put(g.board, "tay_ninh", vc_bases__t=1, vc_guerrillas__u=1, arvn_troops=4)

    _, d = play(102, "unshaded", "US", prep)
    assert d == {"tay_ninh.vc_guerrillas:u": -1, "available.vc_guerrillas": 1}

    def prep2(g):
        put(g.board, "tay_ninh", vc_bases=1, nva_bases=1)

    _, d = play(102, "shaded", "VC", prep2, picks=[{"kind": "space", "space": "tay_ninh"}])
    assert d == {
        "tay_ninh.vc_bases": -1,
        "tay_ninh.vc_bases:t": 1,
        "tay_ninh.nva_bases": -1,
        "tay_ninh.nva_bases:t": 1,
        "tay_ninh.nva_guerrillas:u": 1,
        "tay_ninh.vc_guerrillas:u": 1,
        **avail(nva_guerrillas=-1, vc_guerrillas=-1),
    }


def test_fitl_2_3_6_card_103_kent_state_shaded():
    def prep(g):
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4

    g, d = play(103, "shaded", "VC", prep)
    assert d == {"casualties.us_troops": -3, "out_of_play.us_troops": 3, "aid": -6}
    assert g.eligibility_next == {"US": False}


@pytest.mark.parametrize("card", [86, 101, 104, 116])
def test_fitl_5_3_capabilities_79_to_116(card):
    for side in ("unshaded", "shaded"):
        assert play(card, side)[0].capability_active(card, side)


def test_fitl_1_6_card_105_rural_pressure():
    def prep(g):
        put(g.board, "binh_dinh", arvn_police=1)

    _, d = play(105, "shaded", "VC", prep, picks=[{"kind": "option", "index": 0}])
    assert d == {"support.binh_dinh": -1, "patronage": 6}


def test_fitl_1_6_card_106_binh_duong_per_space_choices():
    _, d = play(
        106,
        "unshaded",
        "VC",
        picks=[
            {"kind": "space", "space": "tay_ninh"},
            {"kind": "space", "space": "kien_phong"},
            {"kind": "option", "index": 1},
            {"kind": "option", "index": 0},
            {"kind": "option", "index": 0},
            {"kind": "option", "index": 1},
        ],
    )
    assert d == {
        "support.tay_ninh": -1,
        "tay_ninh.vc_guerrillas:u": 1,
        "support.kien_phong": 1,
        "kien_phong.arvn_police": 1,
        **avail(vc_guerrillas=-1, arvn_police=-1),
    }


def test_fitl_1_8_card_107_and_108():
    def prep(g):
        g.board.support["saigon"] = 2

    assert play(107, "unshaded", "US", prep)[1] == {"patronage": 6}
    assert play(107, "shaded", "VC", prep)[1] == {"support.saigon": -1, "aid": -12}

    def prep2(g):
        g.board.available["us_troops"] -= 5
        g.board.out_of_play["us_troops"] += 3
        g.board.casualties["us_troops"] += 2

    assert play(108, "unshaded", "US", prep2)[1] == {"out_of_play.us_troops": -3, "available.us_troops": 3}
    assert play(108, "shaded", "VC", prep2)[1] == {"out_of_play.us_troops": 2, "available.us_troops": -2}


def test_fitl_1_4_3_card_109_and_110():
    def prep(g):
        put(g.board, "hue", vc_guerrillas__a=1, arvn_rangers__a=1)

    assert play(109, "unshaded", "US", prep)[1] == {"support.hue": 1}
    g, d = play(109, "shaded", "VC")
    assert d == {"saigon.vc_bases": 1, "saigon.vc_guerrillas:u": 1, **avail(vc_bases=-1, vc_guerrillas=-1)}
    assert g.eligibility_next == {"VC": True}
    _, d = play(110, "shaded", "VC", prep)
    assert d == {"hue.vc_guerrillas:a": -1, "hue.vc_guerrillas:u": 1}
    _, d = play(110, "unshaded", "US", prep)
    assert d == {"hue.arvn_rangers:a": -1, "hue.arvn_rangers:u": 1}


def test_fitl_1_6_card_111_agent_orange_shaded():
    def prep(g):
        put(g.board, "tay_ninh", vc_bases=1)
        put(g.board, "binh_dinh", nva_troops=1)
        put(g.board, "kien_phong", vc_guerrillas__u=1)

    assert play(111, "shaded", "VC", prep)[1] == {"support.tay_ninh": -1, "support.binh_dinh": -1}


def test_fitl_1_6_card_112_colonel_chau():
    g, d = play(
        112,
        "unshaded",
        "ARVN",
        picks=[
            {"space": s}
            for s in ("binh_dinh", "tay_ninh", "kien_phong", "quang_nam", "khanh_hoa", "ba_xuyen")
        ],
    )
    assert sum(v for k, v in d.items() if k.endswith(".arvn_police") and not k.startswith("available")) == 6
    assert all(v == 1 for k, v in d.items() if k.endswith(".arvn_police") and not k.startswith("available"))


def test_fitl_5_1_1_card_113_ruff_puff_shaded():
    def prep(g):
        put(g.board, "binh_dinh", arvn_police=2)
        put(g.board, "hue", arvn_police=3)

    _, d = play(113, "shaded", "VC", prep, picks=[{"kind": "option", "index": 1}])
    assert d == {
        "binh_dinh.arvn_police": -2,
        "available.arvn_police": 2,
        "binh_dinh.vc_bases": 1,
        "binh_dinh.vc_guerrillas:u": 1,
        **avail(vc_bases=-1, vc_guerrillas=-1),
    }


def test_fitl_1_6_card_114_tri_quang():
    _, d = play(114, "shaded", "VC", picks=[{"key": "vc_guerrillas"}])
    assert d == {
        "support.hue": -1,
        "support.da_nang": -1,
        "support.saigon": -1,
        "saigon.vc_guerrillas:u": 1,
        "available.vc_guerrillas": -1,
    }


def test_fitl_5_4_card_115_typhoon_kate():
    g, _ = play(115, "unshaded", "NVA")
    assert g.momentum_active(115) and g.eligibility_next == {"NVA": True}


def test_fitl_2_3_6_card_117_corps_commanders_shaded():
    def prep(g):
        put(g.board, "hue", arvn_police=5)

    g, d = play(117, "shaded", "VC", prep, dice=[3])
    assert d == {"hue.arvn_police": -3, "available.arvn_police": 3} and g.eligibility_next == {"ARVN": False}


def test_fitl_5_1_card_118_korean_war_arms():
    def prep(g):
        put(g.board, "hue", vc_guerrillas__u=2)
        put(g.board, "tay_ninh", vc_guerrillas__u=3, nva_bases=1)

    assert play(118, "unshaded", "US", prep)[1] == {"hue.vc_guerrillas:u": -1, "available.vc_guerrillas": 1}


def test_fitl_1_6_card_119_my_lai():
    assert play(119, "unshaded")[1] == {"available.us_troops": -2, "out_of_play.us_troops": 2, "patronage": 2}

    def prep(g):
        put(g.board, "binh_dinh", us_troops=1)

    _, d = play(119, "shaded", "VC", prep)
    assert d == {
        "support.binh_dinh": -2,
        "binh_dinh.vc_bases": 1,
        "binh_dinh.vc_guerrillas:u": 1,
        "aid": -6,
        **avail(vc_bases=-1, vc_guerrillas=-1),
    }


def test_fitl_2_4_1_card_120_us_press_corps_counts_the_leader_box():
    def prep(g):
        g.board.available["us_troops"] -= 5
        g.board.out_of_play["us_troops"] += 5
        g.deck.remove(127)
        g.leader_box.append(127)  # 3 cards in the box (the short scenario starts with 2)

    _, d = play(120, "unshaded", "US", prep, picks=[{"space": "hue"}] * 2)  # the box: position.leader_box
    assert d == {"out_of_play.us_troops": -2, "hue.us_troops": 2}


# ---------------------------------------------------------------------------- Pivotal Events (2.3.8, 5.1.4)
def _leaders(g):
    assert len(g.leader_box) == 2  # the short scenario starts with Young Turks on Khanh


def _no_leaders(g):
    g.set_aside.extend(g.leader_box)
    g.leader_box.clear()


def test_fitl_5_1_4_pivotal_preconditions():
    def prep(g):
        _leaders(g)
        g.board.support["saigon"] = 2  # 12 Support + 40 US Troops + 6 Bases Available > 40

    g = EvGame([], prep)
    ok, why = g.pivotal_check(121)
    assert ok and "2 card(s)" in why
    ok, _ = g.pivotal_check(123)  # no US Troops on the map: fewer than 20
    assert ok
    assert not g.pivotal_check(122)[0] and not g.pivotal_check(124)[0]
    assert g.pivotal_precondition("VC")[0] is False
    g2 = EvGame([], options={"rvn_leader": "minh"})  # the lesson option empties the box (= _no_leaders)
    assert not g2.pivotal_check(121)[0]  # no leader cards in the box


def test_fitl_5_4_peace_talks_lowers_linebacker_threshold():
    def prep(g):
        _leaders(g)
        for pid in ("us_troops", "us_bases"):
            g.board.out_of_play[pid] += g.board.available[pid]
            g.board.available[pid] = 0
        g.board.available["us_troops"] = 30
        g.board.out_of_play["us_troops"] -= 30

    g = EvGame([], prep)
    assert not g.pivotal_check(121)[0]
    g.event_flags["peace_talks"] = True
    assert g.pivotal_check(121)[0]


def test_fitl_5_1_4_pivotal_refused_when_precondition_fails():
    def prep(g):
        put(g.board, "saigon", us_troops=20)

    with pytest.raises(IllegalAction) as e:
        EvGame([("card", 123, "ARVN", "unshaded")], prep)
    assert e.value.rule_id == "FITL-5.1.4"


def test_fitl_2_3_8_card_121_linebacker_ii():
    def prep(g):
        put(g.board, "central_laos", nva_bases=1, nva_bases__t=1)
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4

    g, d = play(121, "unshaded", "US", prep, pivotal=True)
    assert d == {
        "central_laos.nva_bases": -1,
        "central_laos.nva_bases:t": -1,
        "available.nva_bases": 2,
        "nva_resources": -8,
        "casualties.us_troops": -3,
        "available.us_troops": 3 - 0,
    }
    assert g.eligibility_next == {"NVA": False}


def test_fitl_2_3_8_card_123_vietnamization():
    def prep(g):
        g.board.available["arvn_troops"] -= 5
        g.board.out_of_play["arvn_troops"] += 5

    _, d = play(123, "unshaded", "ARVN", prep, pivotal=True, picks=[{"space": "hue"}] * 4)
    assert d == {
        "arvn_resources": 12,
        "aid": 12,
        "out_of_play.arvn_troops": -5,
        "available.arvn_troops": 1,
        "hue.arvn_troops": 4,
    }


def test_fitl_2_3_8_card_124_tet_offensive():
    def prep(g):
        put(g.board, "hue", vc_guerrillas__u=2, arvn_police=1)
        put(g.board, "loc_hue_da_nang", vc_guerrillas__u=1)

    _, d = play(124, "unshaded", "VC", prep, pivotal=True, dice=[1], picks=[{"space": "saigon"}] * 6)
    assert d["terror.hue"] == 1 and d["sabotage.loc_hue_da_nang"] == 1 and d["support.hue"] == -1
    assert d["saigon.vc_guerrillas:u"] == 6
    assert d["hue.arvn_police"] == -1 and d["hue.vc_guerrillas:a"] == 2 and d["hue.vc_guerrillas:u"] == -2


# ---------------------------------------------------------------------------- RVN Leaders (2.4.1)
class LeaderGame(EvGame):
    def run_plan(self):
        for card in self.plan:
            yield from self.coup_card_effect(card)


def test_fitl_2_4_1_failed_attempt_deserts_arvn_cubes():
    def prep(g):
        put(g.board, "saigon", arvn_troops=6, arvn_police=1)

    g = drive(LeaderGame([129], prep))
    assert g.board.pieces["saigon"]["arvn_troops"] + g.board.pieces["saigon"]["arvn_police"] == 5


def test_fitl_2_4_1_failed_attempt_the_arvn_chooses_which_cubes_desert():
    """Card 129 Failed Attempt (decision F-179): 4 Troops and 2 Police in Saigon lose 2 cubes, and the ARVN
    chooses the mix (here both Troops); To Quoc keeps its fixed order (Police first, F-108)."""

    def prep(g):
        put(g.board, "saigon", arvn_troops=4, arvn_police=2)

    g = drive(LeaderGame([129], prep), {"kind": "option", "troops": 2})
    asked = next(e for e in g.record if "act" in e and e["act"]["kind"] == "option")
    assert asked["side"] == "ARVN"
    assert g.board.pieces["saigon"]["arvn_troops"] == 2 and g.board.pieces["saigon"]["arvn_police"] == 2


def test_fitl_2_4_1_leader_lasting_effects_queryable():
    g = drive(LeaderGame([127], options={"rvn_leader": "ky"}))  # card 127 from the deck to the box's top
    assert g.leader_active(127) and not g.leader_active(126)
    assert any("4 ARVN Resources" in r.explanation for r in g.log)


def test_fitl_6_3_1_card_96_apc_free_pacification_one_level():
    def prep(g):
        put(g.board, "hue", us_troops=1, arvn_troops=1, arvn_police=1)

    _, d = play(96, "unshaded", "US", prep, picks=[{"kind": "space", "space": "hue"}])
    assert d == {"support.hue": 1}


def test_fitl_2_3_8_card_96_apc_shaded_returns_tet_offensive():
    def prep(g):
        (g.set_aside if 124 in g.set_aside else g.deck).remove(124)
        g.played.append(124)

    g, d = play(96, "shaded", "VC", prep)  # the played pile: position.played
    assert d == {} and g.pivotal_held == {"VC": 124} and 124 not in g.played


def test_fitl_2_3_6_card_117_corps_commanders_two_adjacent_spaces():
    def prep(g):
        put(g.board, "hue", arvn_police=2)
        put(g.board, "quang_tri_thua_thien", arvn_troops=2)

    g, d = play(
        117,
        "shaded",
        "VC",
        prep,
        dice=[4],
        picks=[{"kind": "space", "space": "hue"}, {"kind": "space", "space": "quang_tri_thua_thien"}],
    )
    assert d == {
        "hue.arvn_police": -2,
        "quang_tri_thua_thien.arvn_troops": -2,
        **avail(arvn_police=2, arvn_troops=2),
    }


def test_fitl_5_1_2_tet_offensive_with_cadres_needs_two_guerrillas():
    def prep(g):
        g.capabilities["116"] = "unshaded"
        put(g.board, "hue", vc_guerrillas__u=1)
        put(g.board, "da_nang", vc_guerrillas__u=3)

    _, d = play(124, "unshaded", "VC", prep, pivotal=True, picks=[{"space": "saigon"}] * 6)
    assert "terror.hue" not in d and d["terror.da_nang"] == 1
    assert d["da_nang.vc_guerrillas:u"] == -2 and "da_nang.vc_guerrillas:a" not in d  # 1 Activates, 2 pay
