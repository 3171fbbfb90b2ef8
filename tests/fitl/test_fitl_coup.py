"""FitL Coup Round (rules 6.x) on prepared positions: every phase's formula and choices."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction
from wargames.fitl.players import FitlBot

from .conftest import Passer, empty_board, fitl_game, pick, play_until, put

CITIES = ("hue", "da_nang", "kontum", "qui_nhon", "cam_ranh", "an_loc", "saigon", "can_tho")
BOTS = {f: Passer() for f in ("US", "ARVN", "NVA", "VC")}


def quiet(game, police_in=CITIES):
    """An empty board where the listed Cities hold 1 ARVN Police each (COIN Control)."""
    empty_board(game)
    for c in police_in:
        put(game, c, arvn_police=1)


def coup(edit, top=(128, 1, 5), players=None, scenario="short"):
    """The first card is a Coup card (Nguyen Van Thieu by default), the position made by ``edit`` (a lesson
    position, see conftest.fitl_game)."""
    return fitl_game(scenario, 0, edit, top=top, players=players)


def ruling(game, rule_id, title_part=""):
    found = [r for r in game.log if r.rule_id == rule_id and title_part in r.title]
    assert found, f"no {rule_id} ruling {title_part!r}"
    return found[-1]


def finish_round(game):
    play_until(game, lambda g: g.card == 1)


# ---------------------------------------------------------------------- 6.1, 6.2 Resources
def test_fitl_6_1_victory_phase_first():
    g = coup(quiet, players=BOTS)
    finish_round(g)
    phases = [
        r.result["phase"] for r in g.log if r.step == "phase" and r.result["phase"] not in ("card", "setup")
    ]
    assert phases == ["victory", "resources", "support", "redeploy", "commitment", "reset"]


def test_fitl_6_2_1_sabotage_where_guerrillas_outnumber_or_next_to_uncontrolled_city():
    def edit(g):
        quiet(g, police_in=[c for c in CITIES if c != "hue"])  # Hue: no COIN Control
        put(g, "loc_saigon_can_tho", vc_guerrillas__u=2, us_troops=1)  # 2 Guerrillas > 1 COIN piece
        put(g, "loc_kontum_qui_nhon", nva_guerrillas__u=1, arvn_troops=1)  # 1 = 1: not outnumbered

    g = coup(edit, players=BOTS)
    finish_round(g)
    r = ruling(g, "FITL-6.2.1")
    assert sorted(r.result["sabotaged"]) == ["loc_hue_da_nang", "loc_hue_khe_sanh", "loc_saigon_can_tho"]


def test_fitl_6_2_1_sabotage_supply_short_vc_choose():
    def edit(g):
        quiet(g, police_in=[c for c in CITIES if c != "hue"])
        put(g, "loc_saigon_can_tho", vc_guerrillas__u=2)
        g.board.terror["binh_dinh"] = 14  # 14 of the 15 markers in use: 1 left for 3 LoCs

    g = coup(edit)
    assert g.decision.side == "VC" and g.decision.rule_id == "FITL-6.2.1" and len(g.legal_actions()) == 3
    g.apply(pick(g, "sabotage", space="loc_saigon_can_tho"))
    assert g.board.sabotage == {"loc_saigon_can_tho"}


def test_fitl_6_2_2_trail_degraded_by_coin_control_in_laos():
    def edit(g):
        quiet(g)
        put(g, "central_laos", us_troops=1)

    g = coup(edit, players=BOTS)
    play_until(g, lambda g: any(r.rule_id == "FITL-6.2.2" for r in g.log))
    r = ruling(g, "FITL-6.2.2")
    assert r.title == "Trail degraded" and r.result["trail"] == 1 and "Central Laos" in r.explanation


def test_fitl_6_2_3_arvn_earnings_aid_plus_total_econ():
    def edit(g):
        quiet(g)
        g.board.sabotage |= {"loc_saigon_can_tho", "loc_hue_da_nang"}  # Econ 2 + 1 lost

    g = coup(edit, players=BOTS)
    r = ruling(g, "FITL-6.2.3")
    assert r.title == "ARVN earns Aid 15 + Total Econ 12 = 27"
    assert r.inputs["aid"] == 15 and r.inputs["total_econ"] == 12
    assert r.result == {"earned": 27, "econ": 12}
    assert g.board.tracks["econ"] == 12


def test_fitl_6_2_3_arvn_earnings_capped_at_75():
    def edit(g):
        quiet(g)
        g.board.tracks["arvn_resources"] = 60

    g = coup(edit, players=BOTS)
    r = ruling(g, "FITL-6.2.3")
    assert r.result["earned"] == 15 and "capped at 75" in r.explanation


def test_fitl_6_2_4_insurgent_earnings_bases_and_trail():
    def edit(g):
        quiet(g)
        put(g, "tay_ninh", vc_bases=2)
        put(g, "kien_phong", vc_bases=1)
        put(g, "central_laos", nva_bases=1)
        put(g, "the_fishhook", nva_bases=1)
        put(g, "north_vietnam", nva_bases=2)  # not counted: only Laos and Cambodia
        put(g, "quang_tri_thua_thien", nva_bases=1)  # not counted

    g = coup(edit, players=BOTS)
    r = ruling(g, "FITL-6.2.4")
    assert r.inputs == {"vc_bases": 3, "nva_bases_laos_cambodia": 2, "trail": 2}
    assert r.result == {"vc": 3, "nva": 2 + 2 * 2}


def test_fitl_6_2_5_casualties_cost_aid():
    def edit(g):
        quiet(g)
        g.board.available["us_troops"] -= 4
        g.board.casualties["us_troops"] += 4
        g.board.available["us_bases"] -= 1
        g.board.casualties["us_bases"] += 1

    g = coup(edit, players=BOTS)
    r = ruling(g, "FITL-6.2.5")
    assert r.inputs == {"casualties": 5} and r.result == {"aid": 0}  # 15 - 15


def test_fitl_6_2_resources_phase_steps_in_order():
    g = coup(quiet, players=BOTS)
    finish_round(g)
    steps = [r.rule_id for r in g.log if r.rule_id.startswith("FITL-6.2.")]
    assert steps == ["FITL-6.2.1", "FITL-6.2.2", "FITL-6.2.3", "FITL-6.2.4", "FITL-6.2.5"]


# ---------------------------------------------------------------------- 6.3 Support
def test_fitl_6_3_support_phase_us_then_arvn_then_vc():
    g = coup(pacify_position, players={f: FitlBot(f) for f in ("US", "ARVN", "NVA", "VC")})
    finish_round(g)
    who = [r.title.split()[0] for r in g.log if r.rule_id in ("FITL-6.3.1", "FITL-6.3.2")]
    assert who[0] == "US" and who.index("US") < who.index("ARVN") < who.index("Agitation")


def pacify_position(g):
    quiet(g)
    put(g, "saigon", us_troops=2)
    g.board.support["saigon"] = -2
    g.board.terror["saigon"] = 1
    for s in ("hue", "da_nang", "kontum", "qui_nhon"):
        put(g, s, us_troops=1)
    put(g, "can_tho", arvn_troops=1)


def test_fitl_6_3_1_pacification_costs_limits_and_requirements():
    g = coup(pacify_position)
    assert g.decision.side == "US" and g.decision.rule_id == "FITL-6.3.1"
    spaces = {a["space"] for a in g.legal_actions() if a.kind == "pacify"}
    assert spaces == {"saigon", "hue", "da_nang", "kontum", "qui_nhon"}  # not Can Tho: no US Troops
    arvn = g.board.tracks["arvn_resources"]
    g.apply(pick(g, "pacify", space="saigon"))  # removes the Terror marker first
    assert g.board.terror["saigon"] == 0 and g.board.support["saigon"] == -2
    g.apply(pick(g, "pacify", space="saigon"))
    g.apply(pick(g, "pacify", space="saigon"))
    assert g.board.support["saigon"] == 0 and g.board.tracks["arvn_resources"] == arvn - 9  # 3 a step
    assert "saigon" not in {a.get("space") for a in g.legal_actions()}  # 2 levels at most
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("pacify", space="saigon"))
    assert err.value.rule_id == "FITL-6.3.1" and g.digest() == before
    for s in ("hue", "da_nang", "kontum"):
        g.apply(pick(g, "pacify", space=s))
    assert "qui_nhon" not in {a.get("space") for a in g.legal_actions()}  # 4 spaces in all
    g.apply(pick(g, "done"))
    # ARVN may use only the 4 spaces already chosen, and needs its own Troops: none there
    assert g.decision.rule_id != "FITL-6.3.1"
    assert ruling(g, "FITL-6.3.1", "ARVN Pacification over")


def test_fitl_6_3_1_ky_makes_pacification_cost_4():
    g = coup(pacify_position, top=(127, 1, 5))
    arvn = g.board.tracks["arvn_resources"]
    g.apply(pick(g, "pacify", space="hue"))
    assert g.board.tracks["arvn_resources"] == arvn - 4


def test_fitl_1_8_1_us_may_not_spend_arvn_resources_below_econ():
    def edit(g):
        pacify_position(g)
        g.board.tracks["arvn_resources"] = 0
        g.board.tracks["aid"] = 0
        put(g, "can_tho", arvn_police=0)

    g = coup(edit)  # earnings: 0 + Aid 0 + Econ 15 = 15 = the Econ marker: the US may spend nothing
    assert g.board.tracks["arvn_resources"] == 15
    assert ruling(g, "FITL-6.3.1", "US Pacification over")
    assert g.decision.side == "ARVN" and g.decision.rule_id == "FITL-6.3.1"  # ARVN may spend down to 0
    g.apply(pick(g, "pacify", space="can_tho"))
    assert g.board.tracks["arvn_resources"] == 12


def test_fitl_6_3_2_agitation():
    def edit(g):
        quiet(g)
        put(g, "tay_ninh", vc_guerrillas__u=1)
        g.board.support["tay_ninh"] = 1
        put(
            g, "saigon", vc_guerrillas__u=1, arvn_police=1
        )  # 2 Police to 1 Guerrilla: COIN Control, no Agitation

    g = coup(edit)
    assert g.decision.side == "VC" and g.decision.rule_id == "FITL-6.3.2"
    assert {a.get("space") for a in g.legal_actions() if a.kind == "agitate"} == {"tay_ninh"}
    vc = g.board.tracks["vc_resources"]
    g.apply(pick(g, "agitate", space="tay_ninh"))
    g.apply(pick(g, "agitate", space="tay_ninh"))
    assert g.board.support["tay_ninh"] == -1 and g.board.tracks["vc_resources"] == vc - 2
    assert g.decision.rule_id != "FITL-6.3.2"  # 2 levels at most
    assert ruling(g, "FITL-6.3.2", "Agitation over")


# ---------------------------------------------------------------------- 6.4 Redeploy
def test_fitl_6_4_redeploy_steps_in_order():
    g = coup(quiet, players=BOTS)
    finish_round(g)
    steps = [r.rule_id for r in g.log if r.rule_id.startswith("FITL-6.4.")]
    firsts = sorted(set(steps), key=steps.index)
    assert firsts == ["FITL-6.4.1", "FITL-6.4.2", "FITL-6.4.3", "FITL-6.4.4", "FITL-6.4.5"]


def test_fitl_6_4_1_coin_pieces_leave_laos_and_cambodia():
    def edit(g):
        quiet(g)
        put(g, "central_laos", us_troops=2, arvn_troops=1, us_irregulars__a=1)
        put(g, "the_fishhook", us_bases=1)

    g = coup(edit, players=BOTS)
    play_until(g, lambda g: any(r.rule_id == "FITL-6.4.1" for r in g.log))
    assert g.board.count("central_laos") == 0 and g.board.count("the_fishhook") == 0
    moved = {(c["piece"], c["to"]): c["n"] for c in ruling(g, "FITL-6.4.1").changes if "field" not in c}
    assert moved == {
        ("us_troops", "out_of_play"): 2,
        ("arvn_troops", "available"): 1,
        ("us_irregulars:a", "available"): 1,
        ("us_bases", "available"): 1,
    }
    assert g.board.out_of_play["us_troops"] == 2 and g.board.out_of_play["us_bases"] == 0


def test_fitl_1_3_5_coin_pieces_in_laos_removed_at_coup():
    test_fitl_6_4_1_coin_pieces_leave_laos_and_cambodia()


def test_fitl_6_4_2_arvn_troops_must_leave_locs_and_provinces_without_bases():
    def edit(g):
        quiet(g)
        put(g, "binh_dinh", arvn_troops=3)
        put(g, "loc_hue_da_nang", arvn_troops=1)
        put(g, "tay_ninh", arvn_troops=2, arvn_bases=1)  # a COIN Base: may stay
        put(g, "an_loc", nva_troops=3)  # NVA Control: not a destination

    g = coup(edit, players={"US": Passer(), "VC": Passer(), "NVA": Passer()})
    assert g.decision.side == "ARVN" and g.decision.rule_id == "FITL-6.4.2"
    assert "binh_dinh" in g.decision.prompt or "Binh Dinh" in g.decision.prompt
    dests = {a["dest"] for a in g.legal_actions()}
    assert dests == {"hue", "da_nang", "kontum", "qui_nhon", "cam_ranh", "saigon", "can_tho", "tay_ninh"}
    g.apply(pick(g, "move", dest="saigon", n=3))
    assert g.decision.prompt.startswith("ARVN Troops must leave Hue-Da Nang") or "leave" in g.decision.prompt
    g.apply(pick(g, "move", dest="hue", n=1))
    assert g.board.pieces["saigon"]["arvn_troops"] == 3 and g.board.pieces["binh_dinh"]["arvn_troops"] == 0
    # then optional moves: arrived Troops may not move again; Tay Ninh's may
    srcs = {a.get("space") for a in g.legal_actions() if a.kind == "from"}
    assert srcs == {"tay_ninh"}


def test_fitl_6_4_3_nva_troops_to_nva_bases():
    def edit(g):
        quiet(g)
        put(g, "binh_dinh", nva_troops=3)
        put(g, "central_laos", nva_bases=1)

    g = coup(edit, players={"US": Passer(), "VC": Passer(), "ARVN": Passer()})
    assert g.decision.side == "NVA" and g.decision.rule_id == "FITL-6.4.3"
    g.apply(pick(g, "from", space="binh_dinh"))
    assert {a["dest"] for a in g.legal_actions()} == {"central_laos"}
    g.apply(pick(g, "move", dest="central_laos", n=3))
    assert g.board.pieces["central_laos"]["nva_troops"] == 3


def test_fitl_6_4_4_control_adjusted_after_redeploy():
    def edit(g):
        quiet(g)
        put(g, "binh_dinh", arvn_troops=2)

    g = coup(edit, players={"US": Passer(), "VC": Passer(), "NVA": Passer()})
    g.apply(pick(g, "move", dest="saigon", n=2))
    g.set_players({"ARVN": Passer()})
    play_until(g, lambda g: any(r.rule_id == "FITL-6.4.4" for r in g.log))
    assert ruling(g, "FITL-6.4.4").result["changed"] == ["binh_dinh"]


def test_fitl_6_4_5_not_final_round_goes_on():
    g = coup(quiet, players=BOTS)
    finish_round(g)
    assert ruling(g, "FITL-6.4.5").result == {"final": False}


# ---------------------------------------------------------------------- 6.5 Commitment, 6.6 Reset
def commitment_position(g):
    quiet(g)
    b = g.board
    for pid, n in (("us_troops", 7), ("us_bases", 1), ("us_irregulars", 2)):
        b.available[pid] -= n
        b.casualties[pid] += n
    put(g, "saigon", us_troops=4)
    g.board.support["tay_ninh"] = 1
    g.board.support["binh_dinh"] = 0


def test_fitl_6_5_commitment_rotation_and_moves():
    g = coup(commitment_position, players={"ARVN": Passer(), "NVA": Passer(), "VC": Passer()})
    oop = dict(g.board.out_of_play)
    us_avail_irr = g.board.available["us_irregulars"]
    while g.decision.side != "US" or g.decision.kind != "commit_place":
        g.apply(Passer().choose(g, g.decision))
    r = ruling(g, "FITL-6.5", "Rotation")
    assert r.result == {"out_of_play": 3, "to_map": 5}  # 7 // 3 = 2 Troops + 1 Base
    assert (
        g.board.out_of_play["us_troops"] == oop.get("us_troops", 0) + 2
        and g.board.out_of_play["us_bases"] == 1
    )
    assert g.board.available["us_irregulars"] == us_avail_irr + 2
    g.apply(pick(g, "place", space="saigon", n=5))
    assert g.board.pieces["saigon"]["us_troops"] == 9
    # up to 10 - 5 = 5 Troops may move: Saigon to Available
    g.apply(pick(g, "commit_from", piece="us_troops", source="saigon"))
    assert max(a["n"] for a in g.legal_actions()) == 5
    g.apply(pick(g, "commit_to", dest="available", n=5))
    assert g.board.pieces["saigon"]["us_troops"] == 4 and g.withdrawn == 5
    assert not [a for a in g.legal_actions() if a.get("piece") == "us_troops"]  # budget spent
    g.apply(pick(g, "done"))
    # WITHDRAWAL: 5 pieces withdrawn -> the VC may shift 2 Population, 1 level per space at most
    assert g.decision.side == "VC" and g.decision.kind == "withdraw_shift"
    g.apply(pick(g, "withdraw_shift", space="tay_ninh"))  # Population 2
    assert g.board.support["tay_ninh"] == 0
    assert g.decision is None or g.decision.kind != "withdraw_shift"


def test_fitl_6_6_reset():
    def edit(g):
        quiet(g)
        g.board.tracks["trail"] = 4
        g.board.terror["binh_dinh"] = 1
        g.board.sabotage.add("loc_hue_khe_sanh")
        put(g, "tay_ninh", vc_guerrillas__a=2, nva_guerrillas__a=1, us_irregulars__a=1)
        g.eligible["US"] = False
        g.set_aside.remove(41)
        g.momentum.append(41)  # in play (the momentum lesson key: a card in play always has its side)
        g.board.event_flags["momentum_41"] = "unshaded"

    g = coup(edit, players=BOTS)
    finish_round(g)
    b = g.board
    assert b.tracks["trail"] == 3 and not b.terror and not b.sabotage
    assert b.pieces["tay_ninh"]["vc_guerrillas:u"] == 2 and b.pieces["tay_ninh"]["us_irregulars:u"] == 1
    assert all(g.eligible.values()) and g.momentum == [] and 41 in g.played
    assert ruling(g, "FITL-6.6").result == {"trail": 3, "flipped": 4}


def test_fitl_6_7_trail_pulled_off_zero_at_reset():
    def edit(g):
        quiet(g)
        g.board.tracks["trail"] = 0

    g = coup(edit, players=BOTS)
    finish_round(g)
    assert g.board.tracks["trail"] == 1
