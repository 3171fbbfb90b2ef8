"""FitL Capabilities (rule 5.3, row FITL-5.3-CAPS) and Momentum (rule 5.4, row FITL-5.4-MOM) changing the
Operations, Special Activities and Coup steps they modify: one prepared position per card side, asserting the
modified outcome and that the ruling names the card."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction

from .ops_helpers import OpsGame, last, options, pick, prepared, put, refused
from .test_fitl_events_cards_1 import play


class LastingGame(OpsGame):
    """OpsGame with Capabilities ``caps`` ({card: side}) and Momentum ``mom`` ({card: side}) in play; a plan item
    ``(faction, "sa:<name>")`` runs a free Special Activity on its own (FITL-3.1.2)."""

    def __init__(self, plan, prepare, caps=None, mom=None, **kw):
        self.caps = caps or {}
        self.mom = mom or {}
        super().__init__(plan, prepare, **kw)

    def new_state(self) -> None:
        super().new_state()
        self.capabilities.clear()
        for card, side in self.caps.items():
            self.capabilities[str(card)] = side
        for card, side in self.mom.items():
            add_momentum(self, card, side)

    def run_plan(self):
        for item in self.plan:
            if len(item) == 2:
                out = yield from self.free_special_activity(item[0], item[1][3:])
            else:
                faction, limited, with_sa, free, *scope = item
                kw = (
                    (scope[0] if isinstance(scope[0], dict) else {"spaces": tuple(scope[0])}) if scope else {}
                )
                out = yield from self.operation(faction, limited=limited, with_sa=with_sa, free=free, **kw)
            self.outcomes.append(out)


def game(plan, *setups, caps=None, mom=None, tracks=None, support=None, dice=None):
    return LastingGame(plan, prepared(setups, tracks, support), caps=caps, mom=mom, dice=dice)


def names(g, words: str) -> bool:
    """Some ruling's explanation names ``words`` (the card)."""
    return any(words in r.explanation for r in g.log if hasattr(r, "explanation"))


def finish(g):
    """Take 'done' / 'no' / 'stop' / 'none' until the plan ends."""
    while g.decision is not None:
        for kind in ("done", "no", "stop", "none", "no_sa"):
            got = options(g, kind)
            if got:
                g.apply(got[0])
                break
        else:
            g.apply(g.legal_actions()[0])


QT = "quang_tin_quang_ngai"  # Lowland Province
BD = "binh_dinh"  # Highland Province


# ====================================================================== COIN Operations
def test_fitl_5_4_mom_72_body_count_assault_free_and_aid_per_guerrilla():
    g = game(
        [("ARVN", False, False, False)], (QT, {"arvn_troops": 4, "vc_guerrillas__a": 2}), mom={72: "unshaded"}
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    assert g.board.tracks["arvn_resources"] == 30 and g.board.tracks["aid"] == 15 + 6
    assert names(g, "Momentum #72 Body Count")


def test_fitl_5_4_mom_72_body_count_patrol_costs_nothing():
    g = game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 2}), mom={72: "unshaded"})
    pick(g, "op", op="patrol")
    finish(g)
    assert g.board.tracks["arvn_resources"] == 30 and names(g, "Momentum #72 Body Count")


def test_fitl_5_4_mom_78_lansdale_shaded_forbids_us_assault():
    g = game([("US", False, False, False)], (QT, {"us_troops": 3, "vc_guerrillas__a": 2}), mom={78: "shaded"})
    assert "assault" not in g.op_choices("US", False)
    refused(g, Action.make("op", op="assault"), "FITL-5.4")


def _three_us_assault_spaces():
    return [(s, {"us_troops": 2, "vc_guerrillas__a": 1}) for s in (QT, "quang_nam", "phu_bon_phu_yen")]


def test_fitl_5_3_caps_11_abrams_shaded_us_assault_two_spaces():
    g = game([("US", False, False, False)], *_three_us_assault_spaces(), caps={11: "shaded"})
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    pick(g, "space", space="quang_nam")  # the cap reached, the Assault ends (the 3rd space is not offered)
    assert (
        g.outcomes[-1]["spaces"] == [QT, "quang_nam"]
        and g.board.pieces["phu_bon_phu_yen"]["vc_guerrillas:a"] == 1
    )
    assert names(g, "Capability #11 Abrams (shaded)")
    ctx = __import__("wargames.fitl.ops_common", fromlist=["OpCtx"]).OpCtx(
        "US", "assault", False, False, False
    )
    ctx.spaces = [QT, "quang_nam"]
    assert g.why_not_assault(ctx, "phu_bon_phu_yen")[0] == "FITL-5.3"


def test_fitl_5_3_caps_18_cap_shaded_us_sweep_two_spaces():
    g = game([("US", False, False, False)], *_three_us_assault_spaces(), caps={18: "shaded"})
    pick(g, "op", op="sweep")
    pick(g, "space", space=QT)
    pick(g, "space", space="quang_nam")
    assert options(g, "space") == [] and g.decision.context["step"] == "move"  # on to the moves: no 3rd space
    assert names(g, "Combined Action Platoons (shaded)")


def test_fitl_5_3_caps_13_cobras_shaded_us_assault_risks_a_troop():
    g = game(
        [("US", False, False, False)],
        (QT, {"us_troops": 2, "vc_guerrillas__a": 1}),
        caps={13: "shaded"},
        dice=[2],
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    assert g.board.pieces[QT]["us_troops"] == 1 and g.board.casualties["us_troops"] == 1
    assert "Capability #13 Cobras (shaded)" in last(g, "FITL-3.2.4").explanation


def test_fitl_5_3_caps_14_m48_unshaded_two_more_in_a_non_lowland_space():
    g = game(
        [("US", False, False, False)], (BD, {"us_troops": 2, "vc_guerrillas__a": 4}), caps={14: "unshaded"}
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=BD)  # Highland, no Base: 2 / 2 = 1, +2
    assert g.board.pieces[BD]["vc_guerrillas:a"] == 1
    assert "Capability #14 M-48 Patton" in last(g, "FITL-3.2.4").explanation


def test_fitl_5_3_caps_28_search_and_destroy_shaded_assault_shifts_province():
    g = game(
        [("US", False, False, False)], (QT, {"us_troops": 2, "vc_guerrillas__a": 1}), caps={28: "shaded"}
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    assert g.board.support[QT] == -1 and "Search and Destroy" in last(g, "FITL-3.2.4").explanation


def test_fitl_5_3_caps_101_booby_traps_shaded_sweep_loses_a_troop():
    g = game(
        [("US", False, False, False)],
        (QT, {"us_troops": 2, "vc_guerrillas__u": 1}),
        caps={101: "shaded"},
        dice=[1],
    )
    pick(g, "op", op="sweep")
    pick(g, "space", space=QT)
    finish(g)
    assert g.board.pieces[QT]["us_troops"] == 1 and g.board.casualties["us_troops"] == 1
    assert names(g, "Capability #101 Booby Traps (shaded)")


# ====================================================================== Air Strike (4.2.3)
def strike(g, *spaces, degrade=None, remove=99):
    for s in spaces:
        pick(g, "space", space=s)
    if options(g, "done"):
        pick(g, "done")
    if degrade is not None and options(g, "yes"):
        pick(g, "yes" if degrade else "no")
    for _ in range(remove):
        piece = options(g, "piece")
        if not piece:
            break
        g.apply(piece[0])
    finish(g)


STRIKE_SETUP = (QT, {"us_troops": 1, "nva_troops": 3})


def test_fitl_5_3_caps_4_top_gun_unshaded_degrades_two_boxes():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={4: "unshaded"}, tracks={"trail": 3}, dice=[4])
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 1 and names(g, "Capability #4 Top Gun")


def test_fitl_5_3_caps_4_top_gun_shaded_no_degrade_below_a_4():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={4: "shaded"}, tracks={"trail": 3}, dice=[3])
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 3 and g.board.pieces[QT]["nva_troops"] == 0
    assert names(g, "Capability #4 Top Gun (shaded)")


def test_fitl_5_3_caps_31_aaa_shaded_trail_not_below_two():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={31: "shaded"}, tracks={"trail": 2}, dice=[4])
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 2 and not any(a.kind == "yes" for a in g.legal_actions())


def test_fitl_5_4_mom_39_oriskany_shaded_no_degrade():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, mom={39: "shaded"}, tracks={"trail": 3}, dice=[6])
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 3 and names(g, "Momentum #39 Oriskany")


def test_fitl_5_4_mom_5_wild_weasels_shaded_degrade_or_one_piece():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, mom={5: "shaded"}, dice=[6])
    strike(g, QT, degrade=False)
    assert g.board.pieces[QT]["nva_troops"] == 2 and names(g, "Momentum #5 Wild Weasels")
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, mom={5: "shaded"}, tracks={"trail": 3}, dice=[6])
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 2 and g.board.pieces[QT]["nva_troops"] == 3


def test_fitl_5_3_caps_20_lgb_shaded_at_most_two_pieces():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={20: "shaded"}, dice=[6])
    strike(g, QT, degrade=False)
    assert g.board.pieces[QT]["nva_troops"] == 1 and names(g, "Capability #20 Laser Guided Bombs (shaded)")


def test_fitl_5_3_caps_20_lgb_unshaded_no_shift_for_one_piece():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={20: "unshaded"}, dice=[1])
    strike(g, QT)
    assert g.board.pieces[QT]["nva_troops"] == 2 and g.board.support[QT] == 0
    assert names(g, "Capability #20 Laser Guided Bombs")


def test_fitl_5_3_caps_8_arc_light_shaded_shifts_two_levels():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={8: "shaded"}, dice=[2])
    strike(g, QT, degrade=False)
    assert g.board.pieces[QT]["nva_troops"] == 1 and g.board.support[QT] == -2


def test_fitl_5_3_caps_8_arc_light_unshaded_strikes_a_province_without_coin():
    g = game(
        [("US", "sa:air_strike")],
        (QT, {"us_troops": 1}),
        ("quang_nam", {"nva_troops": 1}),
        caps={8: "unshaded"},
        dice=[2],
    )
    strike(g, QT, "quang_nam", degrade=False)
    assert g.board.pieces["quang_nam"]["nva_troops"] == 0 and names(g, "Capability #8 Arc Light")


def test_fitl_5_3_caps_33_migs_shaded_degrade_costs_a_us_troop():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, caps={33: "shaded"}, tracks={"trail": 3}, dice=[2])
    cas = g.board.casualties["us_troops"]
    strike(g, QT, degrade=True)
    assert g.board.tracks["trail"] == 2 and g.board.casualties["us_troops"] == cas + 1
    assert names(g, "Capability #33 MiGs (shaded)")


def test_fitl_5_3_caps_34_sa2s_unshaded_degrade_removes_an_nva_piece_outside():
    g = game(
        [("US", "sa:air_strike")],
        STRIKE_SETUP,
        ("central_laos", {"nva_guerrillas__u": 1}),
        caps={34: "unshaded"},
        tracks={"trail": 3},
        dice=[2],
    )
    strike(g, QT, degrade=True)
    assert g.board.pieces["central_laos"]["nva_guerrillas:u"] == 0 and names(g, "Capability #34 SA-2s")


def test_fitl_5_4_mom_7_adsid_trail_change_costs_nva_six():
    g = game([("US", "sa:air_strike")], STRIKE_SETUP, mom={7: "unshaded"}, tracks={"trail": 3}, dice=[2])
    strike(g, QT, degrade=True)
    assert g.board.tracks["nva_resources"] == 4 and names(g, "Momentum #7 ADSID")


@pytest.mark.parametrize("card,side", [(10, "shaded"), (22, "shaded"), (41, "unshaded")])
def test_fitl_5_4_mom_no_air_strike(card, side):
    g = game([("US", False, True, False)], STRIKE_SETUP, ("hue", {"us_troops": 1}), mom={card: side})
    assert g.sa_banned("air_strike").startswith(f"Momentum #{card}")
    with pytest.raises(IllegalAction) as err:
        list(g.free_special_activity("US", "air_strike"))
    assert err.value.rule_id == "FITL-5.4"


@pytest.mark.parametrize(
    "card,side,sa",
    [
        (15, "shaded", "air_lift"),
        (115, "unshaded", "air_lift"),
        (115, "unshaded", "transport"),
        (115, "unshaded", "bombard"),
        (38, "unshaded", "infiltrate"),
        (17, "unshaded", "ambush"),
    ],
)
def test_fitl_5_4_mom_forbidden_special_activities(card, side, sa):
    g = game([], STRIKE_SETUP, mom={card: side})
    assert g.sa_banned(sa).startswith(f"Momentum #{card}")


# ====================================================================== SA space limits
def test_fitl_5_3_caps_86_mandate_shaded_govern_one_space():
    g = game([], mom={}, caps={86: "shaded"})
    assert g.sa_limit("FITL-4.3.1", 2)[0] == 1


@pytest.mark.parametrize("side,limit", [("unshaded", 1), ("shaded", 3)])
def test_fitl_5_3_caps_32_long_range_guns_bombard_limit(side, limit):
    g = game([], caps={32: side})
    assert g.sa_limit("FITL-4.4.2", 2)[0] == limit


def test_fitl_5_4_mom_46_559th_infiltrate_one_space():
    g = game([], mom={46: "unshaded"})
    assert g.sa_limit("FITL-4.4.1", 2)[0] == 1


def test_fitl_5_4_mom_115_typhoon_kate_other_sas_one_space():
    sp = [(s, {"vc_guerrillas__u": 1}) for s in ("quang_nam", QT, "phu_bon_phu_yen")]
    g = game([("VC", "sa:tax")], *sp, mom={115: "unshaded"})
    pick(g, "space", space=QT)
    finish(g)
    assert g.outcomes[-1]["sa_spaces"] == [QT] and names(g, "Momentum #115 Typhoon Kate")


def test_fitl_5_3_caps_101_booby_traps_unshaded_ambush_one_space():
    g = game([], caps={101: "unshaded"})
    assert g.ambush_cap()[0] == 1


# ====================================================================== Insurgent Operations
def test_fitl_5_4_mom_38_mcnamara_no_trail_improvement_by_rally():
    g = game([("NVA", False, False, False)], ("central_laos", {"nva_bases": 1}), mom={38: "unshaded"})
    pick(g, "op", op="rally")
    pick(g, "space", space="central_laos")
    g.apply(options(g, "mode")[0])
    finish(g)
    assert g.board.tracks["trail"] == 2


def test_fitl_5_3_caps_34_sa2s_shaded_rally_improves_two():
    g = game([("NVA", False, False, False)], ("central_laos", {"nva_bases": 1}), caps={34: "shaded"})
    pick(g, "op", op="rally")
    pick(g, "space", space="central_laos")
    g.apply(options(g, "mode")[0])
    pick(g, "done")
    pick(g, "yes")
    assert g.board.tracks["trail"] == 4 and names(g, "Capability #34 SA-2s (shaded)")


def test_fitl_5_3_caps_31_aaa_unshaded_trail_only_after_one_space():
    g = game(
        [("NVA", False, False, False)],
        ("central_laos", {"nva_bases": 1}),
        ("southern_laos", {"nva_bases": 1}),
        caps={31: "unshaded"},
    )
    pick(g, "op", op="rally")
    for s in ("central_laos", "southern_laos"):
        pick(g, "space", space=s)
        g.apply(options(g, "mode")[0])
    finish(g)
    assert g.board.tracks["trail"] == 2


def test_fitl_5_3_caps_45_pt76_unshaded_attack_first_loses_a_troop():
    g = game([("NVA", False, False, False)], (QT, {"nva_troops": 3, "arvn_police": 2}), caps={45: "unshaded"})
    pick(g, "op", op="attack")
    pick(g, "space", space=QT)
    pick(g, "mode", mode="troops")
    finish(g)
    assert g.board.pieces[QT]["nva_troops"] == 2 and g.board.pieces[QT]["arvn_police"] == 1
    assert names(g, "Capability #45 PT-76")


def test_fitl_5_3_caps_45_pt76_shaded_one_space_removes_one_per_troop():
    g = game([("NVA", False, False, False)], (QT, {"nva_troops": 3, "arvn_police": 3}), caps={45: "shaded"})
    pick(g, "op", op="attack")
    pick(g, "space", space=QT)
    pick(g, "mode", mode="troops")
    finish(g)
    assert g.board.pieces[QT]["arvn_police"] == 0 and names(g, "Capability #45 PT-76 (shaded)")


def test_fitl_5_3_caps_104_main_force_unshaded_march_activates_above_one():
    g = game([("VC", False, False, False)], ("quang_nam", {"vc_guerrillas__u": 2}), support={QT: 1})
    g2 = game(
        [("VC", False, False, False)],
        ("quang_nam", {"vc_guerrillas__u": 2}),
        support={QT: 1},
        caps={104: "unshaded"},
    )
    for gg in (g, g2):
        pick(gg, "op", op="march")
        pick(gg, "move_from", space="quang_nam")
        pick(gg, "move_to", space=QT)
        while options(gg, "count"):
            gg.apply(options(gg, "count")[-1])
        finish(gg)
    assert g.board.pieces[QT]["vc_guerrillas:u"] == 2
    assert g2.board.pieces[QT]["vc_guerrillas:a"] == 2 and names(g2, "Capability #104 Main Force Bns")


def test_fitl_5_4_mom_17_claymores_activated_march_group_loses_one():
    g = game(
        [("VC", False, False, False)],
        ("quang_nam", {"vc_guerrillas__u": 2}),
        (QT, {"arvn_police": 2}),
        support={QT: 1},
        mom={17: "unshaded"},
    )
    pick(g, "op", op="march")
    pick(g, "move_from", space="quang_nam")
    pick(g, "move_to", space=QT)
    while options(g, "count"):
        g.apply(options(g, "count")[-1])
    finish(g)
    assert g.board.pieces[QT]["vc_guerrillas:a"] == 1 and names(g, "Momentum #17 Claymores")


def test_fitl_5_3_caps_104_main_force_shaded_vc_ambush_removes_two():
    g = game(
        [("VC", False, True, False)], (QT, {"vc_guerrillas__u": 1, "arvn_police": 2}), caps={104: "shaded"}
    )
    pick(g, "op", op="attack")
    if options(g, "sa_later"):
        pick(g, "sa_later")
    pick(g, "space", space=QT)
    pick(g, "mode", mode="ambush")
    finish(g)
    assert g.board.pieces[QT]["arvn_police"] == 0 and names(g, "Capability #104 Main Force Bns (shaded)")


# ====================================================================== Coup Round (6.x)
def add_momentum(g, card, side):
    """Put Momentum ``card`` in play (taken from the deck or the cards set aside: card conservation, FITL-2.1)."""
    for pile in (g.deck, g.set_aside):
        if card in pile:
            pile.remove(card)
    g.momentum.append(card)
    g.event_flags[f"momentum_{card}"] = side


def coup_with(edit_more, *, caps=None, mom=None, players=None):
    from .test_fitl_coup import coup, quiet

    def edit(g):
        quiet(g)
        for card, side in (caps or {}).items():
            g.capabilities[str(card)] = side
        for card, side in (mom or {}).items():
            add_momentum(g, card, side)
        edit_more(g)

    # Capabilities and Momentum in play at the start have no lesson key: a test-only edit (conftest.fitl_game)
    return coup(edit, players=players)


def coup_ruling(g, rule_id, title_part=""):
    return [r for r in g.log if r.rule_id == rule_id and title_part in r.title][-1]


def test_fitl_5_4_mom_16_blowtorch_pacification_costs_one():
    from .test_fitl_coup import pacify_position

    g = coup_with(pacify_position, mom={16: "unshaded"})
    arvn = g.board.tracks["arvn_resources"]
    g.apply(pick_action(g, "pacify", space="hue"))
    assert g.board.tracks["arvn_resources"] == arvn - 1 and names(g, "Momentum #16 Blowtorch Komer")


def pick_action(g, kind, **params):
    got = [a for a in g.legal_actions() if a.kind == kind and all(a.get(k) == v for k, v in params.items())]
    assert len(got) == 1, [a.label for a in g.legal_actions()]
    return got[0]


def test_fitl_5_3_caps_19_cords_shaded_coup_pacify_only_to_passive():
    from .test_fitl_coup import pacify_position

    def edit(g):
        pacify_position(g)
        g.board.support["hue"] = 1

    g = coup_with(edit, caps={19: "shaded"})
    assert "hue" not in {a.get("space") for a in g.legal_actions() if a.kind == "pacify"}
    assert "da_nang" in {a.get("space") for a in g.legal_actions() if a.kind == "pacify"}


def test_fitl_5_3_caps_86_mandate_shaded_arvn_pacifies_one_space():
    def edit(g):
        for s in ("hue", "da_nang"):
            put_game(g, s, arvn_troops=1)

    g = coup_with(edit, caps={86: "shaded"})
    while g.decision.side != "ARVN" or g.decision.kind != "pacify":
        g.apply(pick_action(g, "done") if options(g, "done") else g.legal_actions()[0])
    g.apply(pick_action(g, "pacify", space="hue"))
    assert "da_nang" not in {a.get("space") for a in g.legal_actions() if a.kind == "pacify"}
    assert "hue" in {a.get("space") for a in g.legal_actions() if a.kind == "pacify"}


def put_game(g, space, **pieces):
    from .conftest import put as cput

    cput(g, space, **pieces)


def _finish_coup(g):
    from .test_fitl_coup import finish_round

    finish_round(g)


def _bots():
    from .test_fitl_coup import BOTS as bots

    return bots


def test_fitl_5_4_mom_39_oriskany_shaded_no_degrade_at_reset():
    def edit(g):
        g.board.tracks["trail"] = 4

    g = coup_with(edit, mom={39: "shaded"}, players=_bots())
    _finish_coup(g)
    assert g.board.tracks["trail"] == 4 and "Oriskany" in coup_ruling(g, "FITL-6.6").explanation


def test_fitl_5_4_mom_7_adsid_reset_trail_change_costs_nva_six():
    def edit(g):
        g.board.tracks["trail"] = 0

    g = coup_with(edit, mom={7: "unshaded"}, players=_bots())
    _finish_coup(g)
    r = coup_ruling(g, "FITL-6.6")
    ch = [c for c in r.changes if c.get("track") == "nva_resources"]
    assert ch and ch[0]["from"] - ch[0]["to"] == min(6, ch[0]["from"]) and "ADSID" in r.explanation


def test_fitl_5_3_caps_33_migs_unshaded_reset_costs_nva_six():
    g = coup_with(lambda g: None, caps={33: "unshaded"}, players=_bots())
    _finish_coup(g)
    r = coup_ruling(g, "FITL-6.6")
    ch = [c for c in r.changes if c.get("track") == "nva_resources"]
    assert ch and ch[0]["from"] - ch[0]["to"] == min(6, ch[0]["from"]) and "MiGs" in r.explanation


def test_fitl_5_4_mom_15_medevac_unshaded_troop_casualties_to_available():
    def edit(g):
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4

    g = coup_with(edit, mom={15: "unshaded"}, players=_bots())
    _finish_coup(g)
    r = coup_ruling(g, "FITL-6.5", "Medevac")
    assert r.result == {"to_available": 4} and g.board.out_of_play["us_troops"] == 0


def test_fitl_5_4_mom_discarded_at_reset_and_effect_ends():
    g = coup_with(lambda g: None, mom={72: "unshaded"}, players=_bots())
    assert g.lasting(72) == "Momentum #72 Body Count"
    _finish_coup(g)
    assert g.momentum == [] and 72 in g.played and g.lasting(72) == ""
    assert not g.lasting_effects("FITL-3.2.4")


# ====================================================================== more COIN Capabilities
def test_fitl_5_3_caps_19_cords_unshaded_us_train_pacifies_two_spaces():
    g = game(
        [("US", False, False, False)],
        ("hue", {"us_troops": 1, "arvn_police": 1}),
        ("da_nang", {"us_troops": 1, "arvn_police": 1}),
        caps={19: "unshaded"},
    )
    pick(g, "op", op="train")
    for s in ("hue", "da_nang"):
        pick(g, "space", space=s)
        pick(g, "place", irregulars=0, troops=0, police=0, rangers=0)
    maybe(g, "done")
    pick(g, "pacify", space="hue", levels=1)
    pick(g, "pacify", space="da_nang", levels=1)
    assert (
        g.board.support["hue"] == 1 and g.board.support["da_nang"] == 1 and names(g, "Capability #19 CORDS")
    )


def test_fitl_5_3_caps_19_cords_shaded_train_pacifies_only_to_passive():
    g = game(
        [("ARVN", False, False, False)], ("hue", {"arvn_troops": 1, "arvn_police": 1}), caps={19: "shaded"}
    )
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", troops=0, police=0, rangers=0)
    maybe(g, "done")
    assert {a["levels"] for a in options(g, "pacify")} == {1}


def test_fitl_5_3_caps_18_cap_unshaded_us_train_adds_a_police():
    g = game([("US", False, False, False)], ("hue", {"us_troops": 1}), caps={18: "unshaded"})
    pick(g, "op", op="train")
    pick(g, "space", space="hue")
    pick(g, "place", irregulars=1, troops=0, police=0, rangers=0)
    maybe(g, "done")
    pick(g, "space", space="hue")
    assert g.board.pieces["hue"]["arvn_police"] == 1 and names(g, "Combined Action Platoons")


def test_fitl_5_3_caps_11_abrams_unshaded_base_first():
    g = game(
        [("US", False, False, False)],
        (QT, {"us_troops": 1, "vc_guerrillas__a": 1, "vc_bases": 1}),
        caps={11: "unshaded"},
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    pick(g, "yes")
    assert g.board.pieces[QT]["vc_bases"] == 0 and g.board.pieces[QT]["vc_guerrillas:a"] == 1
    assert "Capability #11 Abrams" in last(g, "FITL-3.2.4").explanation


def test_fitl_5_3_caps_28_search_and_destroy_unshaded_one_underground_guerrilla():
    g = game(
        [("US", False, False, False)],
        (QT, {"us_troops": 2, "vc_guerrillas__a": 1, "vc_guerrillas__u": 1}),
        caps={28: "unshaded"},
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    assert g.board.pieces[QT]["vc_guerrillas:u"] == 0 and g.board.pieces[QT]["vc_guerrillas:a"] == 0
    assert "Search and Destroy" in last(g, "FITL-3.2.4").explanation


def test_fitl_5_3_caps_13_cobras_unshaded_sweep_removes_one():
    g = game([("US", False, False, False)], (QT, {"us_troops": 2, "nva_troops": 1}), caps={13: "unshaded"})
    pick(g, "op", op="sweep")
    pick(g, "space", space=QT)
    maybe(g, "done")  # no Troops move in
    pick(g, "piece", space=QT, key="nva_troops")
    finish(g)
    assert g.board.pieces[QT]["nva_troops"] == 0 and names(g, "Capability #13 Cobras")


def test_fitl_5_3_caps_14_m48_shaded_nva_remove_moved_cubes():
    g = game([("ARVN", False, False, False)], ("hue", {"arvn_troops": 2}), caps={14: "shaded"})
    pick(g, "op", op="patrol")
    pick(g, "move_from", space="hue")
    pick(g, "move_to", space="loc_hue_da_nang")
    pick(g, "count", n=2)
    maybe(g, "done")
    while g.decision is not None and g.decision.side != "NVA":
        finish_one(g)
    g.apply(options(g, "piece")[0])
    g.apply(options(g, "piece")[0])
    assert g.board.pieces["loc_hue_da_nang"]["arvn_troops"] == 0 and names(
        g, "Capability #14 M-48 Patton (shaded)"
    )


def finish_one(g):
    for kind in ("done", "no", "stop", "none", "no_sa"):
        got = options(g, kind)
        if got:
            g.apply(got[0])
            return
    g.apply(g.legal_actions()[0])


def test_fitl_5_3_caps_61_armored_cavalry_shaded_transport_rangers_only():
    g = game([], ("saigon", {"arvn_troops": 3, "arvn_rangers__u": 1}), caps={61: "shaded"})
    assert g.transport_keys() == ("arvn_rangers:u", "arvn_rangers:a")
    g2 = game([], ("saigon", {"arvn_troops": 3}), caps={61: "shaded"})
    assert "saigon" not in g2.transport_origins()


def test_fitl_5_3_caps_61_armored_cavalry_unshaded_free_assault_after_transport():
    g = game(
        [("ARVN", "sa:transport")],
        ("saigon", {"arvn_troops": 4}),
        ("loc_saigon_cam_ranh", {"vc_guerrillas__a": 1}),
        caps={61: "unshaded"},
    )
    pick(g, "space", space="saigon")
    pick(g, "move_to", space="loc_saigon_cam_ranh")
    pick(g, "count", n=4)
    maybe(g, "done")
    res = g.board.tracks["arvn_resources"]
    pick(g, "space", space="loc_saigon_cam_ranh")
    assert (
        g.board.pieces["loc_saigon_cam_ranh"]["vc_guerrillas:a"] == 0
        and g.board.tracks["arvn_resources"] == res
    )
    assert names(g, "Capability #61 Armored Cavalry")


def test_fitl_5_3_caps_86_mandate_unshaded_govern_transfer_without_shift():
    g = game([("ARVN", "sa:govern")], ("hue", {"arvn_police": 2}), support={"hue": 2}, caps={86: "unshaded"})
    pick(g, "space", space="hue")
    pick(g, "mode", mode="patronage")
    finish(g)
    # Patronage 17, +2 more because Young Turks lead in the Short scenario (2.4.1)
    assert (
        g.board.support["hue"] == 2
        and g.board.tracks["patronage"] == 17 + 2
        and names(g, "Mandate of Heaven")
    )


def test_fitl_5_3_caps_116_cadres_unshaded_terror_costs_two_guerrillas():
    g = game(
        [("VC", False, False, False)],
        (QT, {"vc_guerrillas__u": 2}),
        ("quang_nam", {"vc_guerrillas__u": 1}),
        caps={116: "unshaded"},
    )
    pick(g, "op", op="terror")
    assert "quang_nam" not in {a.get("space") for a in options(g, "space")}
    pick(g, "space", space=QT)
    assert g.board.pieces[QT]["vc_guerrillas:u"] + g.board.pieces[QT]["vc_guerrillas:a"] == 0
    assert names(g, "Capability #116 Cadres")


def test_fitl_5_3_caps_116_cadres_unshaded_agitation_costs_two_guerrillas():
    def edit(g):
        put_game(g, "tay_ninh", vc_guerrillas__u=2)
        put_game(g, "binh_dinh", vc_guerrillas__u=1)
        g.board.tracks["vc_resources"] = 5

    g = coup_with(
        edit,
        caps={116: "unshaded"},
        players={"US": _bots()["US"], "ARVN": _bots()["ARVN"], "NVA": _bots()["NVA"]},
    )
    while g.decision.kind != "agitate":
        finish_one(g)
    spaces = {a.get("space") for a in options(g, "agitate")}
    assert "tay_ninh" in spaces and "binh_dinh" not in spaces
    g.apply(pick_action(g, "agitate", space="tay_ninh"))
    assert g.board.pieces["tay_ninh"]["vc_guerrillas:u"] == 0 and names(g, "Capability #116 Cadres")


def maybe(g, kind):
    """Apply the ``kind`` action when it is offered (e.g. "done" after a step that may end by itself)."""
    got = options(g, kind)
    if got:
        g.apply(got[0])


# ====================================================================== operation(..., spaces=...) (5.1.1, F-111)
def test_fitl_5_1_1_event_operation_confined_to_named_spaces():
    g = game(
        [("US", False, False, True, [QT])],
        (QT, {"us_troops": 2, "vc_guerrillas__a": 1}),
        ("quang_nam", {"us_troops": 2, "vc_guerrillas__a": 1}),
    )
    pick(g, "op", op="assault")
    assert [a["space"] for a in options(g, "space")] == [QT]
    refused(g, Action.make("space", space="quang_nam"), "FITL-5.1.1")
    pick(g, "space", space=QT)
    assert g.board.pieces["quang_nam"]["vc_guerrillas:a"] == 1 and g.board.pieces[QT]["vc_guerrillas:a"] == 0


def test_fitl_5_1_3_event_operation_with_no_legal_space_in_scope_does_nothing():
    g = game([("US", False, False, True, ["hue"])], (QT, {"us_troops": 2, "vc_guerrillas__a": 1}))
    assert "assault" in g.op_choices("US", False, True)
    assert g.outcomes and g.outcomes[-1]["op"] is None or g.decision.kind == "op"
    if g.decision is not None:  # Sweep or Train may still be possible in Hue
        assert "assault" not in [a["op"] for a in options(g, "op")]


def _card(card, side, faction, prep, *picks):
    from .test_fitl_events_vocab import EvGame, drive

    g = EvGame([("card", card, faction, side)], prep)
    drive(g, *picks)
    return g


def test_fitl_5_1_1_card_25_riverines_sweep_and_assault_only_beside_the_mekong():
    def prep(g):
        put_board(g, "kien_phong", us_troops=2, vc_guerrillas__u=1)
        put_board(g, "quang_nam", us_troops=2, vc_guerrillas__a=1)

    g = _card(
        25,
        "unshaded",
        "US",
        prep,
        {"kind": "option", "index": 0},
        {"kind": "op", "op": "sweep"},
        {"kind": "space", "space": "kien_phong"},
        "done",
        {"kind": "op", "op": "assault"},
        {"kind": "space", "space": "kien_phong"},
    )
    assert (
        g.board.pieces["kien_phong"]["vc_guerrillas:u"] + g.board.pieces["kien_phong"]["vc_guerrillas:a"] == 0
    )
    assert g.board.pieces["quang_nam"]["vc_guerrillas:a"] == 1


def test_fitl_5_1_1_card_74_lam_son_limited_operation_in_the_laos_space():
    def prep(g):
        put_board(g, "central_laos", nva_guerrillas__a=2)
        put_board(g, "quang_nam", arvn_troops=4, vc_guerrillas__a=1)

    g = _card(
        74,
        "unshaded",
        "ARVN",
        prep,
        {"kind": "space", "space": "central_laos"},
        *[{"kind": "pick", "space": "central_laos"} for _ in range(6)],
        {"kind": "op", "op": "assault"},
        {"kind": "space", "space": "central_laos"},
    )
    assert g.board.pieces["central_laos"]["arvn_troops"] == 6
    assert g.board.pieces["central_laos"]["nva_guerrillas:a"] == 0
    assert g.board.pieces["quang_nam"]["vc_guerrillas:a"] == 1


def test_fitl_5_1_1_card_117_corps_commanders_sweep_only_in_the_chosen_spaces():
    from wargames.fitl.ops_common import OpCtx

    ctx = OpCtx("ARVN", "sweep", False, True, False)
    ctx.allowed = ("hue",)
    g = game([])
    assert g.in_scope(ctx, "hue") and not g.in_scope(ctx, "da_nang")
    assert g.refuse_space(ctx, "FITL-3.2.3", Action.make("space", space="da_nang")).rule_id == "FITL-5.1.1"
    from wargames.fitl.events import load_events

    assert load_events()[117]["status"] == "data"


def put_board(g, space, **pieces):
    put(g.board, space, **pieces)


def test_fitl_5_3_caps_116_cadres_shaded_rally_agitates_in_a_base_space():
    g = game(
        [("VC", False, False, False)], (QT, {"vc_bases": 1, "vc_guerrillas__u": 1}), caps={116: "shaded"}
    )
    pick(g, "op", op="rally")
    pick(g, "space", space=QT)
    g.apply(options(g, "mode")[0])
    maybe(g, "done")
    pick(g, "space", space=QT)
    pick(g, "space", space=QT)
    assert g.board.support[QT] == -2 and g.board.tracks["vc_resources"] == 10 - 1 - 2
    assert names(g, "Capability #116 Cadres (shaded)")


def test_fitl_5_1_1_event_operation_max_spaces():
    g = game([("US", False, False, True, {"max_spaces": 1})], *_three_us_assault_spaces())
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    assert g.outcomes[-1]["spaces"] == [QT]


def test_fitl_5_1_1_event_sweep_in_place_moves_no_troops():
    g = game(
        [("US", False, False, True, {"in_place": True})],
        (QT, {"vc_guerrillas__u": 2}),
        ("quang_nam", {"us_troops": 3}),
        (BD, {"us_troops": 1}),
    )
    pick(g, "op", op="sweep")
    pick(g, "space", space=QT)
    maybe(g, "done")
    assert g.decision is None and g.board.pieces[QT]["us_troops"] == 0


def test_fitl_5_1_1_event_assault_on_nva_only():
    g = game(
        [("ARVN", False, False, True, {"nva_only": True})],
        (QT, {"arvn_troops": 6, "vc_guerrillas__a": 2, "nva_guerrillas__a": 1, "nva_bases": 1}),
        ("quang_nam", {"arvn_troops": 4, "vc_guerrillas__a": 1}),
    )
    pick(g, "op", op="assault")
    assert [a["space"] for a in options(g, "space")] == [QT]
    pick(g, "space", space=QT)  # 6 / 2 = 3: the NVA Guerrilla and the NVA Base; the VC untouched
    assert g.board.pieces[QT]["vc_guerrillas:a"] == 2 and g.board.pieces[QT]["nva_bases"] == 0


def test_fitl_5_3_caps_101_booby_traps_unshaded_second_attack_space_has_no_ambush():
    sp = [(s, {"vc_guerrillas__u": 1, "arvn_police": 1}) for s in (QT, "quang_nam")]
    g = game([("VC", False, True, False)], *sp, caps={101: "unshaded"})
    pick(g, "op", op="attack")
    maybe(g, "sa_later")
    pick(g, "space", space=QT)
    pick(g, "mode", mode="ambush")
    pick(g, "space", space="quang_nam")
    assert "ambush" not in [a.get("mode") for a in options(g, "mode")]
    assert "Booby Traps" in last(g, "FITL-4.5.3").explanation


def test_fitl_5_3_caps_32_long_range_guns_unshaded_bombard_one_space():
    sp = [(s, {"arvn_troops": 3, "nva_troops": 3}) for s in (QT, "quang_nam")]
    g = game([("NVA", "sa:bombard")], *sp, caps={32: "unshaded"})
    pick(g, "space", space=QT)
    finish(g)
    assert g.outcomes[-1]["sa_spaces"] == [QT] and names(g, "Capability #32 Long Range Guns")


def test_fitl_5_4_mom_46_559th_infiltrate_in_one_space():
    sp = [(s, {"nva_bases": 1, "nva_guerrillas__u": 1}) for s in ("central_laos", "southern_laos")]
    g = game([("NVA", "sa:infiltrate")], *sp, mom={46: "unshaded"})
    pick(g, "space", space="central_laos")
    finish(g)
    assert g.outcomes[-1]["sa_spaces"] == ["central_laos"] and names(g, "Momentum #46 559th Transport Grp")


def test_fitl_5_3_caps_11_28_base_first_and_underground_each_explained_before_the_next_choice():
    """Abrams (unshaded) and Search and Destroy (unshaded) together: every removal has its ruling before the next
    decision (decision F-41: no unexplained change)."""
    g = game(
        [("US", False, False, False)],
        (QT, {"us_troops": 4, "vc_guerrillas__u": 1, "nva_guerrillas__u": 1, "vc_bases": 1, "nva_bases": 1}),
        caps={11: "unshaded", 28: "unshaded"},
    )
    pick(g, "op", op="assault")
    pick(g, "space", space=QT)
    before = g.state_dict()
    rulings = g.apply(options(g, "yes")[0])
    assert g.transition_problems(before, rulings) == []
    while g.decision is not None:
        before = g.state_dict()
        rulings = g.apply(g.legal_actions()[0])
        assert g.transition_problems(before, rulings) == []
    assert sum(g.board.pieces[QT][k] for k in ("vc_bases", "nva_bases")) == 1


def test_fitl_5_4_mom_78_lansdale_shaded_no_assault_step_in_a_us_patrol():
    g = game(
        [("US", False, False, False)],
        ("hue", {"us_troops": 2}),
        ("loc_hue_da_nang", {"vc_guerrillas__u": 1}),
        mom={78: "shaded"},
    )
    pick(g, "op", op="patrol")
    pick(g, "move_from", space="hue")
    pick(g, "move_to", space="loc_hue_da_nang")
    pick(g, "count", n=2)
    finish(g)
    assert g.board.pieces["loc_hue_da_nang"]["vc_guerrillas:a"] == 1 and names(g, "General Lansdale")


def test_fitl_5_4_mom_7_adsid_event_trail_change_costs_nva_six():
    """ADSID charges every real Trail change, an Event's too (card 6 Aces, shaded: Trail +2)."""

    def prep(g):
        g.board.tracks.update(trail=1, nva_resources=10)
        add_momentum(g, 7, "unshaded")  # taken from the deck or the cards set aside (each card in one place)

    g, d = play(6, "shaded", "NVA", prep)
    assert d["trail"] == 2 and d["nva_resources"] == -6
    assert any("ADSID" in r.explanation for r in g.log if r.rule_id == "FITL-1.8")

    def at_zero(g):
        prep(g)
        g.board.tracks["trail"] = 4

    _, d = play(6, "shaded", "NVA", at_zero)
    assert "nva_resources" not in d  # no change of the Trail, no charge
