"""FitL Special Activities (rules 4.1-4.5.3) from prepared positions: exact board changes and refusals."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction
from wargames.fitl.ops_common import OpCtx
from wargames.testing import replayed

from .ops_helpers import OpsGame, last, options, pick
from .test_fitl_ops_coin import _game, refused


def _sa_first(g, op, sa):
    pick(g, "op", op=op)
    pick(g, "sa", sa=sa)


# ------------------------------------------------------------------ 4.1 / 4.1.1
def test_fitl_4_1_no_special_activity_with_a_limited_operation():
    g = _game([("US", True, True, False)], ("saigon", {"us_troops": 2}))
    pick(g, "op", op="train")
    assert g.decision.kind == "space"  # no SA question


def test_fitl_4_1_sa_before_or_after_the_operation():
    g = _game(
        [("VC", False, True, False)],
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 1}),
        ("kien_phong", {"vc_guerrillas__u": 1}),
    )
    pick(g, "op", op="rally")
    assert {a.kind for a in options(g)} == {"sa", "sa_later", "no_sa"}
    pick(g, "sa_later")
    pick(g, "space", space="tay_ninh")
    pick(g, "mode", mode="place")
    pick(g, "done")
    pick(g, "sa", sa="tax", when="after")
    pick(g, "space", space="loc_saigon_can_tho")
    pick(g, "done")
    assert g.board.tracks["vc_resources"] == 10 - 1 + 2 and g.outcomes[0]["special"] == "tax"


@pytest.mark.parametrize(
    "faction,op,sa,ok",
    [
        ("US", "train", "advise", True),
        ("US", "sweep", "advise", False),
        ("ARVN", "patrol", "govern", True),
        ("ARVN", "assault", "govern", False),
        ("ARVN", "sweep", "raid", True),
        ("ARVN", "train", "raid", False),
        ("NVA", "march", "infiltrate", True),
        ("NVA", "attack", "infiltrate", False),
        ("VC", "terror", "subvert", True),
        ("VC", "attack", "subvert", False),
        ("VC", "rally", "ambush", False),
        ("US", "assault", "air_strike", True),
        ("NVA", "rally", "bombard", True),
    ],
)
def test_fitl_4_1_1_which_operations_each_sa_may_accompany(faction, op, sa, ok):
    g = _game(
        [],
        (
            "hue",
            {
                "us_troops": 3,
                "arvn_troops": 3,
                "arvn_police": 2,
                "arvn_rangers__u": 1,
                "nva_troops": 3,
                "nva_bases": 1,
            },
        ),
        ("quang_tri_thua_thien", {"vc_guerrillas__u": 2, "arvn_police": 1, "arvn_rangers__a": 1}),
        after=lambda b: b.support.update({"hue": 1}),
    )
    ctx = OpCtx(faction, op, False, False, True)
    assert g.sa_possible(ctx, sa) is ok


# ------------------------------------------------------------------ 4.2.1 Advise
def test_fitl_4_2_1_advise_special_forces_remove_two_and_add_aid():
    g = _game(
        [("US", False, True, False)],
        ("saigon", {"us_troops": 1}),
        ("tay_ninh", {"us_irregulars__u": 1, "vc_guerrillas__u": 1, "vc_bases": 1, "vc_bases__t": 1}),
    )
    pick(g, "op", op="train")
    pick(g, "sa_later")
    pick(g, "space", space="saigon")
    pick(g, "place", irregulars=0, rangers=0, troops=0, police=0)
    pick(g, "done")
    pick(g, "none")
    pick(g, "sa", sa="advise", when="after")
    assert "saigon" not in [a.get("space") for a in options(g, "space")]  # not a Train space
    pick(g, "space", space="tay_ninh")
    pick(g, "mode", mode="strike")
    pick(g, "yes")
    # the Underground Guerrilla, then the untunneled Base (never the Tunneled one)
    assert g.board.pieces["tay_ninh"] == {"us_irregulars:a": 1, "vc_bases:t": 1}
    assert g.board.tracks["aid"] == 21


def test_fitl_4_2_1_advise_assault_gives_aid_per_base():
    g = _game(
        [("US", False, True, False)], ("saigon", {"us_troops": 1}), ("hue", {"arvn_troops": 4, "vc_bases": 1})
    )
    _sa_first(g, "patrol", "advise")
    pick(g, "space", space="hue")
    pick(g, "mode", mode="assault")
    pick(g, "no")
    assert g.board.pieces["hue"] == {"arvn_troops": 4} and g.board.tracks["aid"] == 21


def test_fitl_4_2_1_advise_sweep_not_in_monsoon():
    g = _game([], ("hue", {"arvn_troops": 4, "vc_guerrillas__u": 2}), monsoon=True)
    assert g.advise_modes("hue") == ["assault"]


# ------------------------------------------------------------------ 4.2.2 Air Lift
def test_fitl_4_2_2_air_lift_us_troops_and_up_to_4_arvn():
    g = _game(
        [("US", False, True, False)],
        ("saigon", {"us_troops": 6, "arvn_troops": 6}),
        ("hue", {"arvn_police": 1}),
    )
    _sa_first(g, "patrol", "air_lift")
    pick(g, "move_from", space="saigon")
    pick(g, "move_to", space="hue")
    assert g.decision.context["key"] == "us_troops"
    pick(g, "count", n=6)
    assert g.decision.context["key"] == "arvn_troops" and max(a["n"] for a in options(g, "count")) == 4
    pick(g, "count", n=4)
    assert g.board.pieces["hue"] == {"arvn_police": 1, "us_troops": 6, "arvn_troops": 4}


def test_fitl_4_2_2_air_lift_two_spaces_in_monsoon():
    g = _game(
        [("US", False, True, False)], ("saigon", {"us_troops": 2}), ("hue", {"us_troops": 2}), monsoon=True
    )
    _sa_first(g, "patrol", "air_lift")
    pick(g, "move_from", space="saigon")
    pick(g, "move_to", space="kontum")
    pick(g, "count", n=1)
    assert [a["space"] for a in options(g, "move_from")] == ["kontum", "saigon"] or {
        a["space"] for a in options(g, "move_from")
    } <= {"saigon", "kontum"}
    pick(g, "move_from", space="saigon")
    assert [a["space"] for a in options(g, "move_to")] == ["kontum"]


# ------------------------------------------------------------------ 4.2.3 Air Strike
def test_fitl_4_2_3_air_strike_degrades_the_trail_once_and_removes_active_pieces():
    g = _game(
        [("US", False, True, False)],
        ("southern_laos", {"us_troops": 1, "nva_troops": 1, "nva_guerrillas__a": 3, "nva_guerrillas__u": 1}),
        ("kien_phong", {"arvn_police": 1, "vc_guerrillas__a": 1}),
        tracks={"trail": 3},
    )
    g.force_dice([5])
    _sa_first(g, "patrol", "air_strike")
    pick(g, "space", space="southern_laos")
    pick(g, "space", space="kien_phong")  # the only 2 spaces with COIN pieces: no more to choose
    pick(g, "yes")  # 2 hits: Trail 3 -> 2
    assert [a["key"] for a in options(g, "piece") if a["space"] == "southern_laos"] == ["nva_troops"]
    pick(g, "piece", space="southern_laos", key="nva_troops")
    pick(g, "piece", space="southern_laos", key="nva_guerrillas:a")
    pick(g, "piece", space="kien_phong", key="vc_guerrillas:a")
    b = g.board
    assert b.tracks["trail"] == 2
    assert b.pieces["southern_laos"] == {"us_troops": 1, "nva_guerrillas:a": 2, "nva_guerrillas:u": 1}
    assert b.support["kien_phong"] == -1 and b.support["southern_laos"] == 0  # Pop 0: no shift
    r = last(g, "FITL-4.2.3")
    assert r.dice[0].value == 5 and "die 5 = 5 hits" in r.explanation


def test_fitl_4_2_3_air_strike_spares_underground_and_tunneled_and_bases_while_guerrillas_remain():
    g = _game(
        [("US", False, True, False)],
        ("tay_ninh", {"us_troops": 1, "vc_guerrillas__u": 1, "vc_bases": 1}),
        ("the_fishhook", {"arvn_troops": 1, "nva_bases__t": 1}),
    )
    g.force_dice([6])
    _sa_first(g, "patrol", "air_strike")
    pick(g, "space", space="tay_ninh")
    pick(g, "space", space="the_fishhook")
    pick(g, "no")
    assert not options(g, "piece") and g.board.pieces["tay_ninh"]["vc_bases"] == 1


def test_fitl_4_2_3_air_strike_two_spaces_in_monsoon():
    g = _game(
        [("US", False, True, False)],
        ("saigon", {"us_troops": 1}),
        ("hue", {"us_troops": 1}),
        ("kontum", {"us_troops": 1}),
        monsoon=True,
    )
    _sa_first(g, "patrol", "air_strike")
    pick(g, "space", space="saigon")
    pick(g, "space", space="hue")
    assert g.decision.kind != "space" or not options(g, "space")


# ------------------------------------------------------------------ 4.3.1 Govern
def test_fitl_4_3_1_govern_adds_aid_or_moves_aid_to_patronage():
    g = _game(
        [("ARVN", False, True, False)],
        ("hue", {"arvn_police": 2, "us_troops": 1}),
        ("kontum", {"arvn_police": 1}),
        ("saigon", {"arvn_police": 1}),
        after=lambda b: b.support.update({"hue": 2, "kontum": 1, "saigon": 2}),
    )
    _sa_first(g, "patrol", "govern")
    assert "saigon" not in [a.get("space") for a in options(g, "space")]
    pick(g, "space", space="hue")
    pick(g, "mode", mode="patronage")
    assert (g.board.tracks["aid"], g.board.tracks["patronage"], g.board.support["hue"]) == (13, 17, 1)
    pick(g, "space", space="kontum")
    pick(g, "mode", mode="aid")
    assert g.board.tracks["aid"] == 16


# ------------------------------------------------------------------ 4.3.2 Transport
def test_fitl_4_3_2_transport_along_locs_stops_at_insurgents_and_flips_rangers():
    g = _game(
        [("ARVN", False, True, False)],
        ("saigon", {"arvn_troops": 4, "arvn_rangers__a": 1}),
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 1}),
        ("hue", {"arvn_rangers__a": 1}),
    )
    reach = g.transport_reach("saigon")
    assert "loc_saigon_can_tho" in reach and "can_tho" not in reach and "da_lat" not in reach
    assert "quang_duc_long_khanh" in reach  # an adjacent destination at the end
    _sa_first(g, "patrol", "transport")
    pick(g, "space", space="saigon")
    pick(g, "move_to", space="loc_saigon_cam_ranh")
    pick(g, "count", n=3)
    pick(g, "count", n=1)
    pick(g, "done")
    b = g.board
    assert b.pieces["loc_saigon_cam_ranh"] == {"arvn_troops": 3, "arvn_rangers:u": 1}
    assert b.pieces["hue"] == {"arvn_rangers:u": 1}


# ------------------------------------------------------------------ 4.3.3 Raid
def test_fitl_4_3_3_raid_moves_adjacent_rangers_in_and_strikes():
    g = _game(
        [("ARVN", False, True, False)],
        ("saigon", {"arvn_rangers__u": 2, "arvn_troops": 1}),
        ("tay_ninh", {"vc_guerrillas__u": 2, "vc_bases": 1}),
    )
    _sa_first(g, "patrol", "raid")
    pick(g, "space", space="tay_ninh")
    pick(g, "move_from", space="saigon")
    pick(g, "count", n=2)
    pick(g, "yes")
    assert g.board.pieces["tay_ninh"] == {"arvn_rangers:u": 1, "arvn_rangers:a": 1, "vc_bases": 1}


# ------------------------------------------------------------------ 4.4.1 Infiltrate
def test_fitl_4_4_1_infiltrate_at_a_base_places_troops_and_replaces_guerrillas():
    g = _game(
        [("NVA", False, True, False)],
        ("southern_laos", {"nva_bases": 1, "nva_guerrillas__u": 3}),
        tracks={"trail": 3},
    )
    _sa_first(g, "rally", "infiltrate")
    pick(g, "space", space="southern_laos")
    pick(g, "mode", mode="troops")
    assert max(a["n"] for a in options(g, "count")) == 4  # Trail 3 + 1 Base
    pick(g, "count", n=4)
    pick(g, "count", n=2)
    assert g.board.pieces["southern_laos"] == {"nva_bases": 1, "nva_troops": 6, "nva_guerrillas:u": 1}


def test_fitl_4_4_1_infiltrate_takes_over_a_tunneled_vc_base():
    g = _game(
        [("NVA", False, True, False)],
        ("tay_ninh", {"nva_troops": 3, "vc_bases__t": 1}),
        after=lambda b: b.support.update({"tay_ninh": -2}),
    )
    _sa_first(g, "march", "infiltrate")
    pick(g, "space", space="tay_ninh")
    pick(g, "mode", mode="takeover")
    pick(g, "piece", key="vc_bases:t")
    assert (
        g.board.pieces["tay_ninh"] == {"nva_troops": 3, "nva_bases:t": 1}
        and g.board.support["tay_ninh"] == -1
    )


# ------------------------------------------------------------------ 4.4.2 Bombard
def test_fitl_4_4_2_bombard_removes_a_troop_us_to_casualties():
    g = _game(
        [("NVA", False, True, False)],
        ("hue", {"us_troops": 2, "arvn_troops": 1}),
        ("quang_tri_thua_thien", {"nva_troops": 3}),
        ("kontum", {"us_troops": 2, "nva_troops": 3}),
    )
    _sa_first(g, "rally", "bombard")
    assert [a["space"] for a in options(g, "space")] == ["hue"]  # Kontum: only 2 COIN Troops, no Base
    pick(g, "space", space="hue")
    pick(g, "piece", key="us_troops")
    assert (
        g.board.pieces["hue"] == {"us_troops": 1, "arvn_troops": 1} and g.board.casualties["us_troops"] == 1
    )


# ------------------------------------------------------------------ 4.4.3 / 4.5.3 Ambush
def test_fitl_4_4_3_ambush_with_attack_sure_hit_one_activation_no_attrition():
    g = _game([("NVA", False, True, False)], ("kien_phong", {"nva_guerrillas__u": 2, "us_troops": 2}))
    pick(g, "op", op="attack")
    pick(g, "sa_later")
    pick(g, "space", space="kien_phong")
    pick(g, "mode", mode="ambush")
    b = g.board
    assert b.pieces["kien_phong"] == {"nva_guerrillas:u": 1, "nva_guerrillas:a": 1, "us_troops": 1}
    assert b.casualties["us_troops"] == 1 and b.tracks["nva_resources"] == 9 and g.outcomes[0]["sa"] is True


def test_fitl_4_4_3_ambush_from_a_loc_may_hit_an_adjacent_space():
    """Rules example: an Ambush on the Mekong LoC may remove an enemy in Kien Phong, Can Tho or Saigon."""
    g = _game(
        [],
        ("loc_saigon_can_tho", {"nva_guerrillas__u": 1}),
        ("kien_phong", {"arvn_police": 1}),
        ("saigon", {"us_troops": 1}),
        ("can_tho", {"arvn_bases": 1, "arvn_troops": 1}),
    )
    assert sorted(g.ambush_targets("loc_saigon_can_tho")) == [
        ("can_tho", "arvn_troops"),
        ("kien_phong", "arvn_police"),
        ("saigon", "us_troops"),
    ]


def test_fitl_4_5_3_vc_ambush_after_a_march_into_a_space_underground():
    g = _game(
        [("VC", False, True, False)], ("saigon", {"vc_guerrillas__u": 1}), ("tay_ninh", {"arvn_troops": 1})
    )
    pick(g, "op", op="march")
    pick(g, "sa_later")
    pick(g, "move_from", space="saigon")
    pick(g, "move_to", space="tay_ninh")
    pick(g, "done")
    pick(g, "sa", sa="ambush", when="after")
    pick(g, "space", space="tay_ninh")
    assert g.board.pieces["tay_ninh"] == {"vc_guerrillas:a": 1}
    assert last(g, "FITL-4.5.3").result["removed"] == [["tay_ninh", "arvn_troops"]]


# ------------------------------------------------------------------ 4.5.1 Tax, 4.5.2 Subvert
def test_fitl_4_5_1_tax_econ_on_a_loc_and_twice_pop_with_a_shift_in_a_province():
    g = _game(
        [("VC", False, True, False)],
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 1, "arvn_troops": 3}),
        ("kien_phong", {"vc_guerrillas__u": 1}),
        ("hue", {"vc_guerrillas__u": 1, "arvn_police": 3}),
    )
    _sa_first(g, "rally", "tax")
    assert "hue" not in [a.get("space") for a in options(g, "space")]  # COIN Control
    pick(g, "space", space="loc_saigon_can_tho")
    pick(g, "space", space="kien_phong")
    b = g.board
    assert b.tracks["vc_resources"] == 10 + 2 + 4 and b.support["kien_phong"] == 1
    assert b.pieces["kien_phong"] == {"vc_guerrillas:a": 1}


def test_fitl_4_5_2_subvert_removes_or_replaces_cubes_and_saps_patronage():
    g = _game(
        [("VC", False, True, False)],
        ("hue", {"vc_guerrillas__u": 1, "arvn_police": 2}),
        ("kontum", {"vc_guerrillas__u": 1, "arvn_troops": 1}),
    )
    _sa_first(g, "terror", "subvert")
    pick(g, "space", space="hue")
    pick(g, "mode", mode="remove")
    pick(g, "space", space="kontum")
    pick(g, "mode", mode="replace")
    b = g.board
    assert b.pieces["hue"] == {"vc_guerrillas:u": 1} and b.pieces["kontum"] == {"vc_guerrillas:u": 2}
    assert b.tracks["patronage"] == 14  # 3 pieces: -1


def test_fitl_4_1_1_sa_refused_when_it_may_not_accompany_the_op():
    g = _game([("VC", False, True, False)], ("hue", {"vc_guerrillas__u": 1, "arvn_police": 2}))
    pick(g, "op", op="attack")
    before = g.digest()
    with pytest.raises(IllegalAction):
        g.apply(Action.make("sa", sa="subvert", when="before"))
    assert g.digest() == before
    refused(g, Action.make("sa", sa="subvert", when="before"), "FITL-4.1")


@pytest.mark.parametrize("seed", range(8))
def test_fitl_4_random_special_activities_keep_the_board_legal_and_replay(seed):
    for scenario in ("short", "medium", "full"):
        plan = [(f, False, True, False) for f in ("US", "ARVN", "NVA", "VC")] * 2
        g = OpsGame(plan, scenario=scenario, seed=seed, monsoon=seed % 4 == 0)
        while not g.is_over:
            assert g.checked_advance() == []
        again = replayed(g, OpsGame(plan, scenario=scenario, seed=seed, monsoon=seed % 4 == 0))  # one by one
        assert again.digest() == g.digest()


def test_fitl_4_0_each_faction_has_three_special_activities():
    from wargames.fitl.operations import SAS

    assert SAS == {
        "US": ("advise", "air_lift", "air_strike"),
        "ARVN": ("govern", "transport", "raid"),
        "NVA": ("infiltrate", "bombard", "ambush"),
        "VC": ("tax", "subvert", "ambush"),
    }


def test_fitl_4_2_2_air_lift_never_into_north_vietnam():
    g = _game([("US", False, True, False)], ("quang_tri_thua_thien", {"us_troops": 2}))
    _sa_first(g, "patrol", "air_lift")
    pick(g, "move_from", space="quang_tri_thua_thien")
    assert "north_vietnam" not in [a["space"] for a in options(g, "move_to")]
    refused(g, Action.make("move_to", space="north_vietnam"), "FITL-1.4.2")


def test_fitl_4_1_example_rally_to_zero_then_tax_then_rally_again():
    """Rules example: the VC Rally until out of Resources, pause to Tax, then Rally in more spaces."""
    g = _game(
        [("VC", False, True, False)],
        ("loc_saigon_can_tho", {"vc_guerrillas__u": 1}),
        tracks={"vc_resources": 1},
    )
    pick(g, "op", op="rally")
    pick(g, "sa_later")
    pick(g, "space", space="tay_ninh")
    pick(g, "mode", mode="place", n=1)
    assert g.board.tracks["vc_resources"] == 0
    assert {a.kind for a in options(g)} == {"sa", "done"}  # no Rally space is affordable, the SA still is
    pick(g, "sa", sa="tax", when="during")
    pick(g, "space", space="loc_saigon_can_tho")
    pick(g, "space", space="tay_ninh")  # the Guerrilla just placed is Underground
    assert g.board.tracks["vc_resources"] == 2 + 4
    pick(g, "space", space="kien_phong")  # no more Tax space: back to the Rally, now affordable
    pick(g, "mode", mode="place", n=1)
    assert g.board.tracks["vc_resources"] == 5 and g.board.pieces["kien_phong"] == {"vc_guerrillas:u": 1}


DOCUMENTED = {
    "op": {"op"},
    "sa": {"sa", "sa_later", "no_sa"},
    "space": {"space", "done", "none", "sa"},
    "place": {"place"},
    "train_extra": {"pacify", "base", "patronage", "none"},
    "move_from": {"move_from", "done", "sa"},
    "move_to": {"move_to", "done"},
    "move": {"move", "done", "sa"},
    "count": {"count"},
    "piece": {"piece", "stop", "none"},
    "mode": {"mode"},
    "yesno": {"yes", "no"},
}


@pytest.mark.parametrize("seed", range(3))
def test_fitl_4_1_decisions_have_the_documented_kinds_and_context(seed):
    """The decision shapes documented in operations.py (for the Non-player bots) are the ones asked."""
    seen = set()
    for scenario in ("short", "medium"):
        plan = [(f, False, True, False) for f in ("US", "ARVN", "NVA", "VC")] * 2
        g = OpsGame(plan, scenario=scenario, seed=seed)
        while not g.is_over:
            d = g.decision
            if d is not None:
                assert d.kind in DOCUMENTED, d
                assert {a.kind for a in d.options} <= DOCUMENTED[d.kind], (
                    d.kind,
                    [a.kind for a in d.options],
                )
                need = {"faction", "step"} if d.kind == "op" else {"faction", "op", "step"}
                assert need <= set(d.context), (d.kind, d.context)
                seen.add(d.kind)
            g.advance("decision")
    assert {"op", "sa", "space", "count", "mode"} <= seen


def test_fitl_4_2_3_free_air_strike_from_an_event_needs_no_operation():
    class FreeStrike(OpsGame):
        def run_plan(self):
            out = yield from self.free_special_activity("US", "air_strike")
            self.outcomes.append(out)

    def prepare(board):
        _game([]).prepare(board)
        from .ops_helpers import put

        put(board, "tay_ninh", us_troops=1, vc_guerrillas__a=2)

    g = FreeStrike([], prepare)
    g.force_dice([1])
    pick(g, "space", space="tay_ninh")
    pick(g, "piece", space="tay_ninh", key="vc_guerrillas:a")
    assert g.board.pieces["tay_ninh"] == {"us_troops": 1, "vc_guerrillas:a": 1}
    assert g.outcomes == [{"sa": "air_strike", "sa_spaces": ["tay_ninh"]}]


def test_fitl_tournament_high_winds_monsoon_air_lift_moves_us_pieces_only():
    def lift_counts(high_winds: bool, monsoon: bool) -> list[str]:
        g = _game(
            [("US", False, True, False)],
            ("saigon", {"us_troops": 2, "arvn_troops": 3}),
            monsoon=monsoon,
            options={"tournament": ["high_winds"]} if high_winds else None,
        )
        _sa_first(g, "patrol", "air_lift")
        pick(g, "move_from", space="saigon")
        pick(g, "move_to", space="hue")
        keys = [g.decision.context["key"]]
        pick(g, "count", n=1)
        if g.decision.kind == "count":
            keys.append(g.decision.context["key"])
        seen_log[:] = g.log
        return keys

    seen_log: list = []

    assert lift_counts(True, True) == ["us_troops"]  # High Winds in Monsoon: the ARVN Troops stay
    assert any(r.rule_id == "FITL-TOURNAMENT" and "High Winds" in r.explanation for r in seen_log)
    assert lift_counts(False, True) == ["us_troops", "arvn_troops"]  # without the option they may ride
    assert lift_counts(True, False) == ["us_troops", "arvn_troops"]  # outside Monsoon High Winds does nothing


def test_fitl_tournament_high_winds_no_air_lift_of_arvn_alone_in_monsoon():
    g = _game([], ("saigon", {"arvn_troops": 3}), monsoon=True)
    ctx = OpCtx("US", "patrol", False, False, True)
    assert g.can_air_lift(ctx)
    g.rules_opts["tournament"] = ["high_winds"]
    assert not g.can_air_lift(ctx)
