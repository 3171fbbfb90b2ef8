"""FitL Non-player factions (rules 8.1-8.8): each flowchart branch on a prepared position, the shared priorities,
the deterministic Non-player rolls, and whole games played by four Non-players."""

from __future__ import annotations

import time
from typing import Any

import pytest

import wargames
from wargames.core import Action
from wargames.core.actions import Decision
from wargames.fitl.game import FitlGame
from wargames.fitl.nonplayer import NonPlayer, nonplayer_for, priorities
from wargames.fitl.nonplayer import nva as nva_mod
from wargames.fitl.nonplayer import us as us_mod
from wargames.fitl.nonplayer import vc as vc_mod
from wargames.fitl.nonplayer.base import PRIORITY_ERROR

from .conftest import empty_board, fitl_game, put

CALM = (1, 2)  # two Event cards: no Monsoon
MONSOON = (1, 127)  # an Event card with a Coup card next (FITL-2.3.9)


def position(edit, top=CALM, seed: int = 0) -> FitlGame:
    """A Short-scenario game on an emptied board arranged by ``edit(game)`` (a lesson position, see
    conftest.fitl_game; Available counts set lower take pieces out of the game, ``position.removed``), resting
    at its first decision."""

    def full(game: FitlGame) -> None:
        empty_board(game)
        for t in ("vc_resources", "nva_resources", "arvn_resources"):
            game.board.tracks[t] = 10
        edit(game)

    return fitl_game("short", seed, full, top=top)


def fixed(monkeypatch, module, *values: int) -> None:
    """Fix a Non-player's "roll now" (decision F-71) for a test."""
    monkeypatch.setattr(module, "roll", lambda game, faction, purpose, dice=1: list(values)[:dice])


def decision(kind: str, options: list[Action], side: str, **context: Any) -> Decision:
    return Decision(side, "test", "FITL-8", options, kind=kind, context=context)


# ---------------------------------------------------------------------------------------------- the factory, 8.1
def test_fitl_8_0_nonplayer_for_every_faction_is_a_player_with_reasons():
    for f in ("US", "ARVN", "NVA", "VC"):
        p = nonplayer_for(f)
        assert p.faction == f and p.last_reason == "" and callable(p.choose)
    with pytest.raises(ValueError):
        NonPlayer("Khmer")


def test_fitl_8_1_nonplayer_takes_an_operation_with_special_activity_when_offered():
    def edit(g):
        put(g, "binh_dinh", vc_guerrillas__u=2)
        g.board.support["binh_dinh"] = 1

    game = position(edit)
    d = game.decision
    vc = NonPlayer(d.side)
    a = vc.choose(game, d)
    ops = [o for o in d.options if o.kind == "op"]
    if any(o["sa"] for o in ops):
        assert a.kind == "op" and a["sa"]
    assert vc.last_reason.startswith(d.side)


# ---------------------------------------------------------------------------------------------- 8.1.2, 8.1.3, 8.2, 8.3
def test_fitl_8_1_2_targets_bases_then_special_forces_then_cubes_us_first():
    def edit(g):
        put(g, "binh_dinh", us_troops=1, arvn_troops=2, arvn_police=1, arvn_rangers__u=1)

    game = position(edit)
    tp = priorities.target_priority
    assert tp(game, "binh_dinh", "arvn_rangers:u") > tp(game, "binh_dinh", "us_troops")
    assert tp(game, "binh_dinh", "us_troops") > tp(game, "binh_dinh", "arvn_troops")
    # Troops and Police evenly, the type fewest in the space first (Police 1 < Troops 2) ... but the last Police last
    assert tp(game, "binh_dinh", "arvn_troops") > tp(game, "binh_dinh", "arvn_police")
    assert (
        tp(game, "binh_dinh", "vc_bases")
        > tp(game, "binh_dinh", "vc_guerrillas:u")
        > tp(game, "binh_dinh", "vc_guerrillas:a")
    )


def test_fitl_8_1_3_best_action_takes_the_highest_priority():
    game = position(lambda g: None)
    opts = [Action.make("space", s, space=s) for s in ("hue", "saigon", "can_tho")]
    a = priorities.best_action(game, "VC", opts, lambda a: game.data.spaces[a["space"]].population)
    assert a["space"] == "saigon"


def test_fitl_8_2_equal_candidates_by_equal_chance_and_replayable():
    game = position(lambda g: None)
    cands = ["hue", "da_nang", "kontum", "qui_nhon"]
    picks = {priorities.random_pick(game, "VC", cands) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(
        cands
    )  # same game, same decision count: same pick (decision F-71)


def test_fitl_8_3_locs_last_then_highest_econ():
    game = position(lambda g: None)
    assert priorities.random_pick(game, "VC", ["loc_saigon_can_tho", "hue"]) == "hue"
    assert (
        priorities.random_pick(game, "VC", ["loc_saigon_can_tho", "loc_hue_da_nang", "loc_da_nang_dak_to"])
        == "loc_saigon_can_tho"
    )  # Econ 2


# ---------------------------------------------------------------------------------------------- VC 8.5
def test_fitl_8_5_1_terror_where_support_and_underground_guerrillas():
    def edit(g):
        put(g, "binh_dinh", vc_guerrillas__u=2)
        g.board.support["binh_dinh"] = 1

    plan = NonPlayer("VC").plan(position(edit), False)
    assert plan.op == "terror" and plan.reason.startswith("VC 8.5.1: Terror because Support in 1 space")


def test_fitl_8_5_1_terror_when_population_reaches_two_dice(monkeypatch):
    def edit(g):
        put(g, "saigon", vc_guerrillas__u=1)
        put(g, "hue", vc_guerrillas__u=1)

    fixed(monkeypatch, vc_mod, 3, 4)
    plan = NonPlayer("VC").plan(position(edit), False)
    assert plan.op == "terror" and "8 Population" in plan.reason
    fixed(monkeypatch, vc_mod, 6, 6)
    assert NonPlayer("VC").plan(position(edit), False).op != "terror"


def test_fitl_8_5_2_capability_card_played_only_above_the_coup_cards(monkeypatch):
    game = position(lambda g: None)
    cap = next(n for n, c in game.data.cards.items() if c.kind == "capability")
    game.card = cap
    vc = NonPlayer("VC")
    fixed(monkeypatch, priorities, 1)
    assert vc.event_decision(game)[0] == "no"  # 1 <= 2 Coup cards in the box
    fixed(monkeypatch, priorities, 6)
    assert vc.event_decision(game)[0] == "play"


def test_fitl_8_5_3_rally_when_two_bases_can_be_placed():
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__a=4)
        put(g, "kien_phong", vc_guerrillas__a=4)

    plan = NonPlayer("VC").plan(position(edit), False)
    assert plan.op == "rally" and "2 VC Bases" in plan.reason


def test_fitl_8_5_3_rally_counts_only_the_vc_bases_available(monkeypatch):
    """FITL-8.5.3 with 8.1.1: two spaces could take a Base, but only 1 VC Base is Available: the Rally would
    place 1, so the "2 or more Bases" condition does not hold (the 3d6 roll of 18 does not either)."""

    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__a=4)
        put(g, "kien_phong", vc_guerrillas__a=4)
        g.board.available["vc_bases"] = 1

    fixed(monkeypatch, vc_mod, 6, 6, 6)
    vc = NonPlayer("VC")
    game = position(edit)
    assert len(vc.rally_base_spaces(game)) == 2 and vc.rally_bases_placed(game) == 1
    assert "VC Bases" not in vc.plan(game, False).reason


def test_fitl_8_5_3_rally_tie_break_counts_the_guerrillas_a_vc_base_places():
    """FITL-8.5.3 tie-break with 3.3.1: at a VC Base a Rally places Population + Bases Guerrillas, not 1, so 4
    COIN cubes against a VC Base and 1 Guerrilla in a Population-2 space lose COIN Control to it (3 placed)."""

    def edit(g):
        put(g, "tay_ninh", vc_bases=1, vc_guerrillas__a=1, arvn_police=4)

    game = position(edit)
    vc = NonPlayer("VC")
    assert game.board.control("tay_ninh") == "coin" and vc.pop(game, "tay_ninh") == 2
    assert vc.rally_guerrillas(game, "tay_ninh") == 3
    key = vc.rally_key(game, "tay_ninh", 0)
    assert key[0] == 3 and key[1] == 2  # removes COIN Control (doubled: it ranks before NVA Control)


def test_fitl_8_5_3_rally_space_priorities_base_first():
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__a=4)
        put(g, "kien_phong", vc_guerrillas__a=1)

    game = position(edit)
    vc = NonPlayer("VC")
    opts = [Action.make("space", s, space=s) for s in ("kien_phong", "tay_ninh", "ba_xuyen")]
    a = vc.choose(game, decision("space", opts, "VC", faction="VC", op="rally", limited=False, step="space"))
    assert a["space"] == "tay_ninh" and "Base" in vc.last_reason
    m = vc.choose(
        game,
        decision(
            "mode",
            [Action.make("mode", "place", mode="place", n=1), Action.make("mode", "base", mode="base", n=0)],
            "VC",
            faction="VC",
            op="rally",
            limited=False,
            step="mode",
            space="tay_ninh",
        ),
    )
    assert m["mode"] == "base"


def test_fitl_8_5_4_march_when_no_terror_or_rally(monkeypatch):
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__u=3, vc_bases=1)
        g.board.available["vc_guerrillas"] = 5

    fixed(monkeypatch, vc_mod, 6, 6, 6)
    plan = NonPlayer("VC").plan(position(edit), False)
    assert plan.op == "march" and plan.reason.startswith("VC 8.5.4") and plan.sas[0] == "ambush"


def test_fitl_8_5_4_march_puts_an_underground_guerrilla_on_an_econ_loc():
    def edit(g):
        put(g, "kien_phong", vc_guerrillas__u=3)

    game = position(edit)
    vc = NonPlayer("VC")
    t = vc.march_target(game)
    assert t is not None and game.is_loc(t[1]) and game.econ(t[1]) >= 1 and t[2] == 1


def test_fitl_8_5_5_attack_in_monsoon_with_a_large_active_group(monkeypatch):
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__a=3, arvn_police=1)
        g.board.available["vc_guerrillas"] = 0

    fixed(monkeypatch, vc_mod, 6, 6, 6)
    game = position(edit, top=MONSOON)
    assert game.monsoon
    plan = NonPlayer("VC").plan(game, False)
    assert plan.op == "attack" and plan.reason.startswith("VC 8.5.5")


def test_fitl_8_5_6_agitate_support_space_first():
    def edit(g):
        put(g, "binh_dinh", vc_guerrillas__u=1)
        put(g, "quang_tin_quang_ngai", vc_guerrillas__u=1)
        g.board.support["binh_dinh"] = 1
        g.board.support["quang_tin_quang_ngai"] = 0

    game = position(edit)
    vc = NonPlayer("VC")
    opts = [Action.make("agitate", s, space=s) for s in ("quang_tin_quang_ngai", "binh_dinh")] + [
        Action.make("done", "stop")
    ]
    a = vc.choose(game, decision("agitate", opts, "VC"))
    assert a["space"] == "binh_dinh" and vc.last_reason.startswith("VC 8.5.6")


# ---------------------------------------------------------------------------------------------- NVA 8.6
def test_fitl_8_6_1_attack_when_troops_can_remove_a_base():
    def edit(g):
        put(g, "quang_tri_thua_thien", nva_troops=6, arvn_police=1, arvn_bases=1)

    plan = NonPlayer("NVA").plan(position(edit), False)
    assert plan.op == "attack" and "COIN Base" in plan.reason


def test_fitl_8_6_2_pass_at_zero_resources():
    def edit(g):
        put(g, "central_laos", nva_guerrillas__u=2)
        g.board.tracks["nva_resources"] = 0

    plan = NonPlayer("NVA").plan(position(edit), False)
    assert plan.op is None and plan.reason.startswith("NVA 8.6.2")


def test_fitl_8_6_3_terror_at_support_when_population_reaches_the_die(monkeypatch):
    def edit(g):
        put(g, "binh_dinh", nva_guerrillas__u=1)
        g.board.support["binh_dinh"] = 2

    fixed(monkeypatch, nva_mod, 2)
    plan = NonPlayer("NVA").plan(position(edit), False)
    assert plan.op == "terror" and plan.sas == ("bombard",)


def test_fitl_8_6_4_rally_when_the_trail_is_low():
    def edit(g):
        put(g, "central_laos", nva_guerrillas__u=2, nva_bases=1)
        g.board.tracks["trail"] = 1

    plan = NonPlayer("NVA").plan(position(edit), False)
    assert plan.op == "rally" and "Trail is at 1" in plan.reason


def test_fitl_8_6_4_trail_improved_unless_resources_short():
    game = position(lambda g: None)
    nva = NonPlayer("NVA")
    yn = [Action.make("yes", "yes"), Action.make("no", "no")]
    game.board.tracks["nva_resources"], game.board.tracks["trail"] = 8, 3
    assert nva.choose(game, decision("yesno", yn, "NVA", op="rally", step="trail")).kind == "no"
    game.board.tracks["nva_resources"] = 9
    assert nva.choose(game, decision("yesno", yn, "NVA", op="rally", step="trail")).kind == "yes"


def test_fitl_8_6_5_march_adds_nva_control(monkeypatch):
    def edit(g):
        put(g, "quang_tri_thua_thien", nva_troops=4)
        put(g, "hue", arvn_police=1)
        g.board.tracks["trail"] = 3
        g.board.available["nva_bases"] = 0
        g.board.available["nva_guerrillas"] = 20

    fixed(monkeypatch, nva_mod, 1, 1)
    game = position(edit)
    nva = NonPlayer("NVA")
    plan = nva.plan(game, False)
    assert plan.op == "march"
    t = nva.march_target(game)
    assert t is not None and t[1] == "hue" and "NVA Control" in t[5]


def test_fitl_8_6_6_redeploy_fills_a_thin_base():
    def edit(g):
        put(g, "central_laos", nva_bases=1)
        put(g, "southern_laos", nva_troops=5)

    game = position(edit)
    nva = NonPlayer("NVA")
    game.final_coup = False
    a = nva.choose(
        game,
        Decision(
            "NVA",
            "t",
            "FITL-6.4.3",
            [Action.make("from", "x", space="southern_laos"), Action.make("done", "stop")],
            kind="redeploy_from",
        ),
    )
    assert a.kind == "from" and nva.last_reason.startswith("NVA 8.6.6")


# ---------------------------------------------------------------------------------------------- ARVN 8.7
def test_fitl_8_7_1_pass_below_three_resources():
    def edit(g):
        g.board.tracks["arvn_resources"] = 2

    plan = NonPlayer("ARVN").plan(position(edit), False)
    assert plan.op is None and plan.reason.startswith("ARVN 8.7.1")


def test_fitl_8_7_2_train_when_twelve_pieces_available():
    game = position(lambda g: put(g, "saigon", arvn_troops=2))
    plan = NonPlayer("ARVN").plan(game, False)
    assert plan.op == "train" and "Available" in plan.reason and plan.sas == ("govern", "transport")


def test_fitl_8_7_2_train_places_six_cubes_evenly():
    game = position(lambda g: put(g, "hue", arvn_troops=1))
    arvn = NonPlayer("ARVN")
    opts = [
        Action.make("place", f"{t}/{p}", irregulars=0, rangers=0, troops=t, police=p)
        for t in range(7)
        for p in range(7 - t)
        if t + p
    ]
    a = arvn.choose(game, decision("place", opts, "ARVN", op="train", step="place", space="hue"))
    assert (a["troops"], a["police"]) == (3, 3)  # Police (fewest) first, then alternating evenly


def test_fitl_8_7_2_train_places_exactly_six_cubes_when_it_can():
    """FITL-8.7.2 with 8.1.2: 1 Troop and 10 Police Available: 6 cubes (1 Troop, 5 Police), not the 3 nearest an
    even split."""

    def edit(g):
        g.board.available["arvn_troops"] = 1
        g.board.available["arvn_police"] = 10

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [
        Action.make("place", f"{t}/{p}", irregulars=0, rangers=0, troops=t, police=p)
        for t in range(2)
        for p in range(7 - t)
        if t + p
    ]
    a = arvn.choose(game, decision("place", opts, "ARVN", op="train", step="place", space="hue"))
    assert (a["troops"], a["police"]) == (1, 5)


def test_fitl_8_7_2_train_picks_only_spaces_where_it_places_and_keeps_3_for_the_base():
    """FITL-8.7.2: a City is a placement space only if ARVN pieces are Available and the 3 Resources are there,
    with 3 more kept for the Base that Binh Dinh (5 US/ARVN units, 3 ARVN cubes, no COIN Base) can take."""

    def edit(g):
        put(g, "binh_dinh", arvn_troops=2, arvn_police=1, us_troops=2)
        g.board.tracks["arvn_resources"] = 5

    game = position(edit)
    arvn = NonPlayer("ARVN")
    assert arvn.base_train_space(game, "binh_dinh")
    opts = [Action.make("space", s, space=s) for s in ("hue", "binh_dinh")] + [Action.make("done", "done")]
    d = decision("space", opts, "ARVN", faction="ARVN", op="train", limited=False, step="space")
    a = arvn.choose(game, d)
    assert a["space"] == "binh_dinh" and "Base" in arvn.last_reason  # 5 < 3 + 3: no 6 cubes in Hue first
    game.board.tracks["arvn_resources"] = 6
    arvn = NonPlayer("ARVN")
    assert arvn.choose(game, d)["space"] == "hue"
    for k in ("arvn_troops", "arvn_police", "arvn_rangers"):
        game.board.available[k] = 0
    arvn = NonPlayer("ARVN")
    assert arvn.choose(game, d)["space"] == "binh_dinh"  # nothing to place in Hue


def test_fitl_8_7_3_patrol_when_guerrillas_sit_next_to_saigon():
    def edit(g):
        for k in ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases"):
            g.board.available[k] = 0
        put(g, "loc_saigon_can_tho", vc_guerrillas__u=1)

    plan = NonPlayer("ARVN").plan(position(edit), False)
    assert plan.op == "patrol" and plan.reason.startswith("ARVN 8.7.3")


def test_fitl_8_7_4_assault_when_it_removes_an_nva_troop():
    def edit(g):
        put(g, "binh_dinh", arvn_troops=4, nva_troops=1)
        for k in ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases"):
            g.board.available[k] = 0

    plan = NonPlayer("ARVN").plan(position(edit), False)
    assert plan.op == "assault" and plan.when == "before" and plan.sas[0] == "raid"


def test_fitl_8_7_5_sweep_otherwise():
    def edit(g):
        put(g, "binh_dinh", arvn_troops=2, vc_guerrillas__u=1)
        for k in ("arvn_troops", "arvn_police", "arvn_rangers", "arvn_bases"):
            g.board.available[k] = 0

    plan = NonPlayer("ARVN").plan(position(edit), False)
    assert plan.op == "sweep" and plan.reason.startswith("ARVN 8.7.5")


def test_fitl_8_7_6_pacify_stops_short_of_active_support_above_45():
    game = position(lambda g: put(g, "saigon", arvn_troops=2, arvn_police=2))
    arvn = NonPlayer("ARVN")
    assert arvn.pacify_key(game, "saigon", 1) is not None
    game.board.available["us_troops"] = 40  # US score above 45
    game.board.support["saigon"] = 1
    assert arvn.pacify_key(game, "saigon", 1) is None


def test_fitl_8_7_7_forced_redeploy_adds_coin_control():
    def edit(g):
        put(g, "hue", vc_guerrillas__a=2)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [Action.make("move", f"{n} to {d}", dest=d, n=n) for d in ("da_nang", "hue") for n in (1, 3)]
    a = arvn.choose(
        game, Decision("ARVN", "t", "FITL-6.4.2", opts, kind="move", context={"source": "binh_dinh"})
    )
    assert a["dest"] == "hue" and a["n"] == 3 and arvn.last_reason.startswith("ARVN 8.7.7")


# ---------------------------------------------------------------------------------------------- US 8.8
def test_fitl_8_8_1_policy_from_scenario_then_commitment_roll(monkeypatch):
    game = position(lambda g: None)
    game.board.available["us_troops"] = 10  # US score 16: at most 45, so the Policy is rolled
    us = NonPlayer("US")
    assert us.policy(game) == "LBJ"
    fixed(monkeypatch, us_mod, 1)  # less than the 2 Coup cards in the box: Nixon (Support + Available <= 45)
    assert us.commitment_policy(game) == "Nixon" and us.policy(game) == "Nixon"


def test_fitl_8_8_2_capability_check_uses_the_rvn_leader_box(monkeypatch):
    game = position(lambda g: None)
    game.card = next(n for n, c in game.data.cards.items() if c.kind == "capability")
    fixed(monkeypatch, priorities, 3)
    assert NonPlayer("US").capability_step(game)[0] == "play"


def test_fitl_8_8_3_if_none_assault_when_an_air_lift_lets_it_remove_pieces():
    """FITL-8.8.3 IF NONE: NVA Troops share Phu Bon with a US Base but no US Troop; no US Troop can remove
    anything where it stands (Tay Ninh's Guerrilla is Underground), yet an Air Lift of the spare US Troop from
    Kien Phong lets an Assault remove a piece in Phu Bon, so the Assault is possible: no Sweep."""

    def edit(g):
        put(g, "phu_bon_phu_yen", us_bases=1, nva_troops=1)
        put(g, "kien_phong", us_troops=2)
        put(g, "tay_ninh", us_troops=1, vc_guerrillas__u=1)

    game = position(edit)
    us = NonPlayer("US")
    assert not us.assault_removes(game)
    assert us.lift_assault_space(game, False) == "phu_bon_phu_yen"
    plan = us.plan(game, False)
    assert plan.op == "assault" and "Air Lift into" in plan.reason
    assert us.lift_assault_space(game, True) is None  # a Limited Operation has no Air Lift


def test_fitl_8_8_3_assault_when_nva_troops_share_a_space_with_us_troops():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, nva_troops=1)

    plan = NonPlayer("US").plan(position(edit), False)
    assert (
        plan.op == "assault" and "NVA Troops share" in plan.reason and plan.sas == ("air_lift", "air_strike")
    )


def test_fitl_8_8_4_patrol_out_of_laos_in_monsoon():
    def edit(g):
        put(g, "southern_laos", us_troops=2)

    plan = NonPlayer("US").plan(position(edit, top=MONSOON), False)
    assert plan.op == "patrol" and plan.reason.startswith("US 8.8.4")


def test_fitl_8_8_5_sweep_where_underground_guerrillas_in_support():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, vc_guerrillas__u=1)
        g.board.support["binh_dinh"] = 1

    plan = NonPlayer("US").plan(position(edit), False)
    assert plan.op == "sweep" and plan.reason.startswith("US 8.8.5")


def test_fitl_8_8_7_train_irregulars_where_no_us_base():
    def edit(g):
        put(g, "binh_dinh", us_troops=2)
        put(g, "saigon", us_troops=2, us_bases=1)

    game = position(edit)
    us = NonPlayer("US")
    plan = us.plan(game, False)
    assert plan.op == "train" and plan.sas == ("air_strike", "advise")  # LBJ
    opts = [Action.make("space", s, space=s) for s in ("saigon", "binh_dinh")]
    a = us.choose(game, decision("space", opts, "US", op="train", step="space", limited=False))
    assert a["space"] == "binh_dinh" and "Irregulars" in us.last_reason


def test_fitl_8_8_8_pacify_greatest_shift_first():
    game = position(lambda g: None)
    us = NonPlayer("US")
    game.board.tracks["arvn_resources"] = 30
    opts = [Action.make("pacify", s, space=s) for s in ("hue", "saigon")] + [Action.make("done", "stop")]
    a = us.choose(game, decision("pacify", opts, "US"))
    assert a["space"] == "saigon" and us.last_reason.startswith("US 8.8.8")


def test_fitl_8_8_9_commitment_adds_bases_then_troops_toward_policy():
    game = position(lambda g: put(g, "hue", us_troops=1))
    game.frozen_control = {s: game.board.control(s) for s in game.data.spaces}  # as the Commitment Phase does
    us = NonPlayer("US")
    us.policy_memo[game.coups_held] = "LBJ"
    opts = [
        Action.make("commit_from", "b", piece="us_bases", source="available"),
        Action.make("commit_from", "t", piece="us_troops", source="available"),
        Action.make("done", "x"),
    ]
    a = us.choose(game, decision("commit_from", opts, "US"))
    assert a["piece"] == "us_bases" and us.last_reason.startswith("US 8.8.9")


# ---------------------------------------------------------------------------------------------- whole games
def play(seed: int, scenario: str = "short") -> FitlGame:
    game = FitlGame(scenario, seed)
    game.set_players({f: NonPlayer(f) for f in game.sides})
    game.play()
    return game


def test_fitl_8_0_short_scenario_four_nonplayers_reach_the_final_coup():
    t = time.perf_counter()
    game = play(3)
    took = time.perf_counter() - t
    assert game.is_over and game.result is not None
    assert took < 2.0, f"a Non-player Short game took {took:.2f} s"
    bots = [e for e in game.record if "act" in e]
    assert bots and all(e.get("why", "").split(" ")[0] in ("US", "ARVN", "NVA", "VC") for e in bots)
    assert any("8.5" in e["why"] for e in bots) and any("8.8" in e["why"] for e in bots)


def test_fitl_8_0_nonplayer_games_are_deterministic():
    assert play(5).digest() == play(5).digest()
    assert play(5).digest() != play(6).digest()


def test_fitl_8_0_nonplayer_game_replays_exactly():
    game = play(2)
    assert game.branch().digest() == game.digest()


@pytest.mark.parametrize("seed", range(5))
def test_fitl_8_0_nonplayer_games_never_dead_end(seed):
    game = play(seed)
    assert game.is_over and not game.invariants()
    assert not [e for e in game.record if PRIORITY_ERROR in e.get("why", "")]


# ---------------------------------------------------------------------------------------------- flowchart order
def card_decision(game: FitlGame, side: str, event: bool = True) -> Decision:
    opts = ([Action.make("event", "Event")] if event else []) + [
        Action.make("op", "Op+SA", limited=False, sa=True),
        Action.make("pass", "Pass"),
    ]
    return Decision(side, "card", "FITL-2.3.4", opts, kind="card", context={"role": "1st"})


def test_fitl_8_1_1_event_taken_only_when_offered_and_the_flowchart_plays_it(monkeypatch):
    def edit(g):
        put(g, "saigon", arvn_troops=2)

    game = position(edit)
    # the card in play is one the ARVN Non-player would perform (its card preference, decision F-113)
    monkeypatch.setattr(
        game, "event_preference", lambda card, faction: ("performed", "unshaded"), raising=False
    )
    arvn = NonPlayer("ARVN")
    assert arvn.choose(game, card_decision(game, "ARVN")).kind == "event"
    assert "play the Event" in arvn.last_reason
    arvn = NonPlayer("ARVN")
    assert arvn.choose(game, card_decision(game, "ARVN", event=False)).kind == "op"


def test_fitl_8_1_4_nested_priorities_narrow_in_order():
    def edit(g):
        put(g, "binh_dinh", arvn_troops=2, nva_guerrillas__u=1)  # Support: first priority
        put(g, "tay_ninh", arvn_troops=2, vc_guerrillas__u=1)  # VC, higher Population, but no Support
        g.board.support["binh_dinh"] = 1

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [Action.make("space", s, space=s) for s in ("tay_ninh", "binh_dinh")]
    a = arvn.choose(game, decision("space", opts, "ARVN", op="sweep", step="space", limited=False))
    assert a["space"] == "binh_dinh"


def test_fitl_8_5_vc_terror_comes_before_rally():
    def edit(g):
        put(g, "binh_dinh", vc_guerrillas__u=2)
        g.board.support["binh_dinh"] = 1
        put(g, "tay_ninh", vc_guerrillas__a=4)
        put(g, "kien_phong", vc_guerrillas__a=4)

    assert NonPlayer("VC").plan(position(edit), False).op == "terror"


def test_fitl_8_6_nva_attack_comes_before_pass_and_rally():
    def edit(g):
        put(g, "quang_tri_thua_thien", nva_troops=6, arvn_police=1, arvn_bases=1)
        g.board.tracks["trail"] = 0

    assert NonPlayer("NVA").plan(position(edit), False).op == "attack"


def test_fitl_8_7_arvn_pass_comes_before_train():
    def edit(g):
        g.board.tracks["arvn_resources"] = 0

    assert NonPlayer("ARVN").plan(position(edit), False).op is None


def test_fitl_8_8_us_assault_comes_before_sweep():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, nva_troops=1, vc_guerrillas__u=1)
        g.board.support["binh_dinh"] = 1

    assert NonPlayer("US").plan(position(edit), False).op == "assault"


def test_fitl_8_8_6_us_event_before_train_but_not_before_sweep():
    def edit(g):
        put(g, "saigon", us_troops=2, us_bases=1)

    game = position(edit)
    us = NonPlayer("US")
    assert us.choose(game, card_decision(game, "US")).kind == "event"

    def edit2(g):
        put(g, "binh_dinh", us_troops=2, vc_guerrillas__u=1)
        g.board.support["binh_dinh"] = 1

    game = position(edit2)
    us = NonPlayer("US")
    assert us.choose(game, card_decision(game, "US")).kind == "op"


def test_fitl_8_5_1_tax_during_terror_at_zero_resources():
    def edit(g):
        put(g, "loc_saigon_can_tho", vc_guerrillas__u=1)
        g.board.tracks["vc_resources"] = 0

    game = position(edit)
    vc = NonPlayer("VC")
    opts = [Action.make("sa", "Tax now", sa="tax", when="during"), Action.make("done", "done")]
    a = vc.choose(game, decision("space", opts, "VC", op="terror", step="space", limited=False))
    assert a.get("sa") == "tax" and "TAX" in vc.last_reason
    cands = dict((s, k) for k, s in vc.tax_cands(game))
    assert cands["loc_saigon_can_tho"][0] == 4  # the 2-Econ LoC first


def test_fitl_8_7_2_train_pauses_to_govern_after_placing_cubes():
    def edit(g):
        put(g, "binh_dinh", arvn_troops=3, arvn_police=1)
        g.board.support["binh_dinh"] = 2

    game = position(edit)
    arvn = NonPlayer("ARVN")
    arvn.counts()["spaces"] = 3
    opts = [
        Action.make("space", "x", space="hue"),
        Action.make("sa", "Govern now", sa="govern", when="during"),
        Action.make("done", "done"),
    ]
    a = arvn.choose(game, decision("space", opts, "ARVN", op="train", step="space", limited=False))
    assert a.get("sa") == "govern" and arvn.last_reason.startswith("ARVN 8.7.2")


def test_fitl_8_8_3_air_lift_brings_troops_to_clear_a_space():
    def edit(g):
        put(g, "binh_dinh", us_troops=1, vc_guerrillas__a=3)  # Highland: 6 US Troops needed, 5 more
        put(g, "tay_ninh", us_troops=6)  # no COIN Control, Support or US Base: a first-choice origin

    game = position(edit)
    us = NonPlayer("US")
    assert us.troops_needed(game, "binh_dinh") == 5
    assert us.lift_plan(game) == ("tay_ninh", "binh_dinh", 5)
    opts = [
        Action.make("space", "x", space="binh_dinh"),
        Action.make("sa", "Air Lift", sa="air_lift", when="during"),
        Action.make("sa", "Air Strike", sa="air_strike", when="during"),
    ]
    a = us.choose(game, decision("space", opts, "US", op="assault", step="space", limited=False))
    assert a.get("sa") == "air_lift"


def test_fitl_8_1_pivotal_event_only_while_a_player_faction_is_first_eligible():
    game = position(lambda g: None)
    row = game.data.cards[game.card]
    first = next(f for f in row.order if game.eligible[f])
    opts = [Action.make("pivotal", "Play", card=124), Action.make("no_pivotal", "Keep")]
    vc = NonPlayer("VC")
    game.set_players({first: None})  # a person plays the 1st Eligible faction
    assert vc.choose(game, Decision("VC", "t", "FITL-2.3.8", opts, kind="pivotal")).kind == "pivotal"
    game.set_players({first: NonPlayer(first)})
    assert vc.choose(game, Decision("VC", "t", "FITL-2.3.8", opts, kind="pivotal")).kind == "no_pivotal"


def test_fitl_8_5_4_march_against_nva_control_only_when_the_nva_are_a_player():
    def edit(g):
        put(g, "quang_tri_thua_thien", nva_troops=2)
        put(g, "hue", vc_guerrillas__u=3)
        g.board.support["quang_tri_thua_thien"] = -2  # Active Opposition: no 8.5.4 second-bullet March there

    game = position(edit)
    vc = NonPlayer("VC")
    vc.memo()["locs"] = 3  # the LoC bullet is used up
    game.set_players({"NVA": NonPlayer("NVA")})
    assert vc.march_target(game) is None
    game.set_players({"NVA": None})
    t = vc.march_target(game)
    assert t is not None and t[1] == "quang_tri_thua_thien" and "NVA Control" in t[3]


def test_fitl_8_6_6_redeploy_adds_nva_control_with_only_the_troops_needed():
    def edit(g):
        put(g, "quang_tri_thua_thien", nva_bases=1, nva_guerrillas__u=2, arvn_troops=3)
        put(g, "north_vietnam", nva_troops=6)

    game = position(edit)
    game.final_coup = False
    nva = NonPlayer("NVA")
    targets = nva.redeploy_targets(game)
    assert targets[0] == ("quang_tri_thua_thien", 1, "to add NVA Control")  # 3 COIN + 0 VC + 1 - 3 NVA pieces
    a = nva.choose(
        game,
        Decision(
            "NVA",
            "t",
            "FITL-6.4.3",
            [Action.make("from", "x", space="north_vietnam"), Action.make("done", "stop")],
            kind="redeploy_from",
        ),
    )
    assert a.kind == "from"
    opts = [Action.make("move", f"{n}", dest="quang_tri_thua_thien", n=n) for n in (1, 6)]
    assert nva.choose(game, Decision("NVA", "t", "FITL-6.4.3", opts, kind="move"))["n"] == 1


def test_fitl_8_0_default_player_wiring():
    """How the lead wires the Non-players in: ``FitlGame.default_player`` returns ``nonplayer_for(side, seed)``."""

    class Wired(FitlGame):
        def default_player(self, side):
            return nonplayer_for(side, self.seed)

    game = Wired("short", 4)
    game.play()
    assert game.is_over
    assert {e["by"] for e in game.record if "act" in e} <= {
        "UsNonPlayer",
        "ArvnNonPlayer",
        "NvaNonPlayer",
        "VcNonPlayer",
    }


def test_fitl_8_7_4_transport_before_assault_enables_the_best_assault():
    def edit(g):
        put(g, "saigon", arvn_troops=8)
        put(g, "binh_dinh", arvn_police=1, nva_troops=2)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [Action.make("move_to", s, space=s) for s in ("hue", "binh_dinh")] + [Action.make("done", "done")]
    a = arvn.choose(
        game,
        decision(
            "move_to",
            opts,
            "ARVN",
            op="assault",
            sa="transport",
            step="move_to",
            origin="saigon",
            limited=False,
        ),
    )
    assert a["space"] == "binh_dinh" and "Assault" in arvn.last_reason


def test_fitl_8_7_7_police_to_route_13_and_provinces_without_police():
    def edit(g):
        put(g, "saigon", arvn_police=6, arvn_troops=2)
        put(g, "binh_dinh", arvn_troops=3)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    targets = arvn.police_targets(game)
    assert targets[0] == (
        "loc_saigon_an_loc_ban_me_thuot",
        3,
        "exactly 3 Police on the Route 13/14 LoC (no NVA/VC there)",
    )
    assert ("binh_dinh", 1, "1 Police in each COIN-Controlled Province") in targets
    d = Decision(
        "ARVN",
        "Redeploy ARVN Police: choose where from, or stop",
        "FITL-6.4.2",
        [Action.make("from", "Saigon", space="saigon"), Action.make("done", "stop")],
        kind="redeploy_from",
    )
    assert arvn.choose(game, d)["space"] == "saigon"
    m = Decision(
        "ARVN",
        "Redeploy ARVN Police from Saigon to where?",
        "FITL-6.4.2",
        [
            Action.make("move", f"{n}", dest=t, n=n)
            for t in ("loc_saigon_an_loc_ban_me_thuot", "binh_dinh")
            for n in (1, 6)
        ],
        kind="move",
        context={"source": "saigon"},
    )
    a = arvn.choose(game, m)
    assert a["dest"] == "loc_saigon_an_loc_ban_me_thuot" and a["n"] == 1  # 3 needed: 1 at a time, never all 6


def test_fitl_8_8_7_train_adds_a_space_only_to_pacify():
    def edit(g):
        put(g, "hue", us_troops=2, arvn_police=1)  # COIN Control, Neutral: Pacify possible
        g.board.tracks["arvn_resources"] = 30
        g.board.available["us_irregulars"] = 0

    game = position(edit)
    us = NonPlayer("US")
    opts = [Action.make("space", "Hue", space="hue")]
    a = us.choose(game, decision("space", opts, "US", op="train", step="space", limited=False))
    assert a["space"] == "hue" and "Pacify" in us.last_reason
    place = [
        Action.make("place", "nothing", irregulars=0, rangers=0, troops=0, police=0),
        Action.make("place", "irr", irregulars=1, rangers=0, troops=0, police=0),
    ]
    assert (
        us.choose(game, decision("place", place, "US", op="train", step="place", space="hue"))["irregulars"]
        == 0
    )


def test_fitl_8_7_2_train_adds_a_zero_cost_space_to_pacify():
    def edit(g):
        put(g, "quang_tin_quang_ngai", arvn_troops=2, arvn_police=1)  # a Province, no Base: no cubes placed
        g.board.support["quang_tin_quang_ngai"] = -1

    game = position(edit)
    arvn = NonPlayer("ARVN")
    arvn.counts()["spaces"] = 3  # the 3 cube spaces are chosen (none can Pacify)
    opts = [Action.make("space", "QTQN", space="quang_tin_quang_ngai"), Action.make("done", "done")]
    a = arvn.choose(game, decision("space", opts, "ARVN", op="train", step="space", limited=False))
    assert a.kind == "space" and "Pacify" in arvn.last_reason
    place = [Action.make("place", "nothing", irregulars=0, rangers=0, troops=0, police=0)]
    assert (
        arvn.choose(
            game, decision("place", place, "ARVN", op="train", step="place", space="quang_tin_quang_ngai")
        )
        == place[0]
    )


def test_fitl_8_1_1_dual_use_event_side_by_faction(monkeypatch):
    game = position(lambda g: put(g, "saigon", arvn_troops=2))
    # a card with no side preference for the ARVN: the default side by faction applies (FITL-8.4.2)
    monkeypatch.setattr(game, "event_preference", lambda card, faction: ("performed", ""), raising=False)
    opts = [
        Action.make("event", "u", side="unshaded"),
        Action.make("event", "s", side="shaded"),
        Action.make("op", "Op+SA", limited=False, sa=True),
        Action.make("pass", "Pass"),
    ]
    d = Decision("ARVN", "card", "FITL-2.3.4", opts, kind="card", context={"role": "1st"})
    assert NonPlayer("ARVN").choose(game, d).get("side") == "unshaded"


def test_fitl_8_5_2_event_declined_when_the_cards_nonplayer_symbol_says_so(monkeypatch):
    game = position(lambda g: None)
    monkeypatch.setattr(game, "event_preference", lambda card, faction: ("ignored", "shaded"), raising=False)
    assert NonPlayer("VC").event_decision(game)[0] == "no"
    monkeypatch.setattr(
        game, "event_preference", lambda card, faction: ("performed", "shaded"), raising=False
    )
    monkeypatch.setattr(game, "event_effective", lambda card, side, faction: (True, "test"), raising=False)
    assert NonPlayer("VC").event_decision(game)[0] == "play"


def test_fitl_8_6_5_ambush_after_march_only_to_remove_a_base():
    def edit(g):
        put(g, "pleiku_darlac", nva_guerrillas__u=2, arvn_bases=1)

    game = position(edit)
    nva = NonPlayer("NVA")
    d = decision(
        "sa",
        [Action.make("sa", "Ambush", sa="ambush", when="after"), Action.make("no_sa", "none")],
        "NVA",
        op="march",
        step="sa",
        limited=False,
    )
    assert nva.sa_wanted(game, d, "ambush")
    game.board.pieces["pleiku_darlac"]["arvn_police"] += 1  # the Base is no longer the only COIN piece
    game.board.available["arvn_police"] -= 1
    assert not nva.sa_wanted(game, d, "ambush")


def test_fitl_8_8_3_air_lift_empties_an_origin_without_coin_control():
    """FITL-8.8.3 AIR LIFT (decision F-178): Kien Giang (3 US Troops, 3 VC Guerrillas: no COIN Control, no Support,
    no US Base) is a first-kind origin and is emptied: all 3 Troops fly, though Phu Bon needs only 1."""

    def edit(g):
        put(g, "phu_bon_phu_yen", us_bases=1, nva_troops=1)
        put(g, "kien_giang_an_xuyen", us_troops=3, vc_guerrillas__u=3)

    game = position(edit)
    us = NonPlayer("US")
    assert us.emptied_origin(game, "kien_giang_an_xuyen") and us.troops_needed(game, "phu_bon_phu_yen") == 1
    assert us.lift_plan(game) == ("kien_giang_an_xuyen", "phu_bon_phu_yen", 3)


def test_fitl_8_8_5_no_us_sweep_into_jungle_that_would_activate_nothing():
    """FITL-8.8.5 with 3.2.3 (decision F-178): in Jungle a Sweep Activates 1 Guerrilla per 2 cubes, so Tay Ninh
    with 1 US Troop and no spare Troop next to it is not a Sweep space; with 2 Troops it is."""

    def edit(g):
        put(g, "tay_ninh", us_troops=1, vc_guerrillas__u=2)
        put(g, "quang_tin_quang_ngai", us_troops=1, vc_guerrillas__u=1)

    game = position(edit)
    us = NonPlayer("US")
    assert us.sweep_reach(game, "tay_ninh") == 0 and us.sweep_reach(game, "quang_tin_quang_ngai") == 1
    opts = [Action.make("space", x, space=x) for x in ("tay_ninh", "quang_tin_quang_ngai")] + [
        Action.make("done", "d")
    ]
    d = decision("space", opts, "US", faction="US", op="sweep", limited=False, step="space")
    assert us.choose(game, d)["space"] == "quang_tin_quang_ngai"
    us = NonPlayer("US")
    assert us.choose(game, d)["space"] == "quang_tin_quang_ngai"
    game.board.pieces["tay_ninh"]["us_troops"] = 2
    assert us.sweep_reach(game, "tay_ninh") == 1


def test_fitl_8_8_3_shaded_cobras_stops_the_assault_after_two_spaces():
    def edit(g):
        for s in ("hue", "da_nang", "qui_nhon"):
            put(g, s, us_troops=2, vc_guerrillas__a=1)
        g.capabilities["13"] = "shaded"

    game = position(edit)
    us = NonPlayer("US")
    opts = [Action.make("space", s, space=s) for s in ("hue", "da_nang", "qui_nhon")] + [
        Action.make("done", "d")
    ]
    ctx = dict(op="assault", step="space", limited=False)
    picked = [us.choose(game, decision("space", opts, "US", **ctx)).kind for _ in range(3)]
    assert picked == ["space", "space", "done"]


# ---------------------------------------------------------------------------------------------- Non-player Events (8.4)
def test_fitl_8_4_1_card_instruction_ignored_means_the_event_is_declined(monkeypatch):
    """A card whose Non-player instruction for the faction says 'ignore' is passed over for an Operation even
    when the Event is offered; the same card marked 'perform' is played."""
    game = position(lambda g: put(g, "saigon", arvn_troops=2))
    monkeypatch.setattr(
        game, "event_preference", lambda card, faction: ("ignored", "unshaded"), raising=False
    )
    assert NonPlayer("ARVN").choose(game, card_decision(game, "ARVN")).kind != "event"
    monkeypatch.setattr(
        game, "event_preference", lambda card, faction: ("performed", "unshaded"), raising=False
    )
    assert NonPlayer("ARVN").choose(game, card_decision(game, "ARVN")).kind == "event"


@pytest.mark.parametrize(
    "faction, side", [("ARVN", "unshaded"), ("US", "unshaded"), ("NVA", "shaded"), ("VC", "shaded")]
)
def test_fitl_8_4_2_dual_use_event_coin_unshaded_insurgents_shaded(monkeypatch, faction, side):
    game = position(lambda g: put(g, "saigon", arvn_troops=2))
    monkeypatch.setattr(game, "event_preference", lambda card, f: ("performed", ""), raising=False)
    opts = [
        Action.make("event", "u", side="unshaded"),
        Action.make("event", "s", side="shaded"),
        Action.make("op", "Op+SA", limited=False, sa=True),
        Action.make("pass", "Pass"),
    ]
    d = Decision(faction, "card", "FITL-2.3.4", opts, kind="card", context={"role": "1st"})
    a = NonPlayer(faction).choose(game, d)
    assert a.kind != "event" or a.get("side") == side


def test_fitl_8_4_6_pivotal_event_held_unless_a_player_is_first_eligible():
    game = position(lambda g: None)
    row = game.data.cards[game.card]
    first = next(f for f in row.order if game.eligible[f])
    opts = [Action.make("pivotal", "Play", card=121), Action.make("no_pivotal", "Keep")]
    game.set_players({first: NonPlayer(first)})
    nva = NonPlayer("NVA")
    assert nva.choose(game, Decision("NVA", "t", "FITL-2.3.8", opts, kind="pivotal")).kind == "no_pivotal"
    assert "8.4.6" in nva.last_reason
    game.set_players({first: None})
    assert (
        NonPlayer("NVA").choose(game, Decision("NVA", "t", "FITL-2.3.8", opts, kind="pivotal")).kind
        == "pivotal"
    )


def test_fitl_8_4_7_other_event_choices_are_random_among_the_offered_options():
    """Equal-chance pick from the game's own seeded stream: the same position always picks the same, other
    seeds pick differently (decision F-74 keeps replays exact)."""
    opts = [Action.make("pick", f"option {i}", n=i) for i in range(4)]
    seen = set()
    for seed in range(12):
        game = position(lambda g: None, seed=seed)
        picks = []
        for _ in range(2):
            np_ = NonPlayer("VC")
            a = np_.choose(game, Decision("VC", "which one?", "FITL-5.1", opts, kind="event_choice"))
            assert a in opts and "8.4.7" in np_.last_reason
            picks.append(a.get("n"))
        assert picks[0] == picks[1]
        seen.add(picks[0])
    assert len(seen) > 1  # not always the first option


# ---------------------------------------------------------------------------------------------- issue #18: US order
def us_card(game: FitlGame) -> tuple[Any, Action]:
    """The US Non-player answers the game's real card decision; the action is applied to the game."""
    d = game.decision
    assert d.side == "US" and d.kind == "card"
    us = NonPlayer("US")
    a = us.choose(game, d)
    game.apply(a)
    return us, a


def test_fitl_8_8_2_capability_event_comes_before_the_assault(monkeypatch):
    def edit(g):
        put(g, "binh_dinh", us_troops=2, nva_troops=1)  # the Assault condition of 8.8.3 holds

    game = position(edit, top=(13, 2))  # Cobras, a Capability, in play
    fixed(monkeypatch, priorities, 6)  # the 8.8.2 d6 beats the Coup cards in the RVN Leader box
    us, a = us_card(game)
    assert a.kind == "event" and us.last_reason.startswith("US 8.8.2: play the Event")
    assert game.capabilities.get("13") == "unshaded"


def test_fitl_8_8_2_capability_roll_failed_then_assault(monkeypatch):
    def edit(g):
        put(g, "binh_dinh", us_troops=2, nva_troops=1)

    game = position(edit, top=(13, 2))
    fixed(monkeypatch, priorities, 1)  # d6 1 <= the Coup cards in the box: no Capability Event
    us, a = us_card(game)
    assert a.kind == "op" and us.last_reason.startswith("US 8.8.3")
    op = us.choose(game, game.decision)
    assert op["op"] == "assault" and "13" not in game.capabilities


def test_fitl_8_8_3_assault_comes_before_a_non_capability_event():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, nva_troops=1)

    game = position(edit)  # Gulf of Tonkin: an effective US Event the card's symbol does not decline
    assert NonPlayer("US").event_step(game)[0] is True
    us, a = us_card(game)
    assert a.kind == "op" and us.last_reason.startswith("US 8.8.3: Assault")
    op = us.choose(game, game.decision)
    game.apply(op)
    assert op["op"] == "assault"


def test_fitl_8_8_5_sweep_comes_before_the_event():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, vc_guerrillas__u=1)
        g.board.support["binh_dinh"] = 1

    game = position(edit)
    us, a = us_card(game)
    assert a.kind == "op" and us.last_reason.startswith("US 8.8.5")
    assert us.choose(game, game.decision)["op"] == "sweep"


def test_fitl_8_8_6_event_before_the_if_none_sweep_when_training_is_impossible():
    def edit(g):
        put(g, "binh_dinh", us_troops=2, vc_guerrillas__u=1)  # no Support: no Sweep condition of 8.8.5
        g.board.available["us_irregulars"] = (
            0  # Training places nothing and cannot Pacify (no ARVN Resources)
        )
        g.board.tracks["arvn_resources"] = 0

    game = position(edit)
    us = NonPlayer("US")
    assert not us.train_useful(game) and us.sweep_useful(game)
    plan = us.plan(game, False)
    assert (
        plan.op == "sweep" and "IF NONE" in plan.reason and plan.event
    )  # the Event first, Sweep if not offered
    us, a = us_card(game)
    assert a.kind == "event" and us.last_reason.startswith("US 8.8.6: play the Event")


def test_fitl_8_8_6_event_the_card_symbol_declines_is_not_played():
    def edit(g):
        put(g, "binh_dinh", us_troops=2)  # Training places an Irregular here (8.8.7)

    game = position(edit, top=(2, 1))  # Kissinger: the US symbol declines it (8.4.1, decision F-113)
    us, a = us_card(game)
    assert a.kind == "op" and "decline" in us.last_reason and "play the Event" not in us.last_reason
    assert us.choose(game, game.decision)["op"] == "train"


# ---------------------------------------------------------------------------------------------- issue #18: Air Strike
def strike_pieces(game: FitlGame, spaces: tuple[str, ...], n: int) -> Decision:
    """The Air Strike removal decision as the engine asks it (FITL-4.2.3): one Action per removable piece."""
    legal = game.strike_targets(list(spaces))
    opts = [Action.make("piece", f"{k} in {s}", [s], space=s, key=k) for s, k in legal] + [
        Action.make("stop", "Stop")
    ]
    return Decision(
        "US",
        f"Air Strike: remove which Active enemy piece? (1 of up to {n})",
        "FITL-4.2.3",
        opts,
        kind="piece",
        context={"op": "train", "sa": "air_strike", "step": "remove", "limited": False},
    )


def test_fitl_8_8_3_air_strike_ends_nva_control_of_the_most_population_first():
    def edit(g):
        put(g, "quang_tri_thua_thien", us_troops=1, nva_troops=2)  # NVA Control, Pop 2: 1 removal ends it
        put(g, "pleiku_darlac", us_troops=1, nva_troops=2)  # NVA Control, Pop 1
        put(g, "tay_ninh", arvn_troops=1, vc_guerrillas__a=3)  # Active Opposition, more pieces
        g.board.support["tay_ninh"] = -2

    game = position(edit)
    us = NonPlayer("US")
    spaces = ("quang_tri_thua_thien", "pleiku_darlac", "tay_ninh")
    a = us.choose(game, strike_pieces(game, spaces, 1))
    assert a["space"] == "quang_tri_thua_thien" and "end NVA Control" in us.last_reason
    game.board.remove("quang_tri_thua_thien", "nva_troops")  # NVA Control ended there: no more removals there
    a = us.choose(game, strike_pieces(game, spaces, 2))
    assert a["space"] == "pleiku_darlac"
    game.board.remove("pleiku_darlac", "nva_troops")
    a = us.choose(game, strike_pieces(game, spaces, 1))
    assert a["space"] == "tay_ninh"  # then the most pieces, Active Opposition first


def test_fitl_8_8_3_air_strike_takes_loc_then_active_opposition_before_support():
    def edit(g):
        put(g, "binh_dinh", us_troops=1, vc_guerrillas__a=2)  # Support: a strike would shift it
        g.board.support["binh_dinh"] = 1
        put(g, "kien_phong", arvn_troops=1, vc_guerrillas__a=1)  # Active Opposition
        g.board.support["kien_phong"] = -2
        put(
            g, "loc_saigon_can_tho", arvn_police=1, vc_guerrillas__a=1
        )  # a LoC next to Saigon with COIN pieces

    game = position(edit)
    us = NonPlayer("US")
    spaces = ("binh_dinh", "kien_phong", "loc_saigon_can_tho")
    picks = []
    for n in (3, 2, 1):
        a = us.choose(game, strike_pieces(game, spaces, n))
        picks.append(a["space"])
        game.board.remove(a["space"], a["key"])
    assert picks == ["loc_saigon_can_tho", "kien_phong", "binh_dinh"]
    # the space choice follows the same order
    opts = [Action.make("space", s, space=s) for s in spaces] + [Action.make("done", "Done")]
    game2 = position(edit)
    a = us.choose(game2, decision("space", opts, "US", op="train", sa="air_strike", step="sa_space"))
    assert a["space"] == "loc_saigon_can_tho" and us.last_reason.startswith("US 8.8.3")


# ---------------------------------------------------------------------------------------------- issue #18: one configuration
def limited_ops(game: FitlGame) -> int:
    return sum(
        1 for e in game.record if e.get("act", {}).get("kind") == "op" and e["act"]["params"].get("limited")
    )


def test_fitl_8_1_operations_not_limited_for_the_built_in_nonplayers_whatever_the_options():
    """FITL-8.1: loaded with no options, or with non_players naming all four, the built-in Non-players never
    execute a Limited Operation, and both games are the same game."""
    plain = wargames.load("fitl", scenario="short", seed=1)
    plain.play()
    named = wargames.load("fitl", scenario="short", seed=1, non_players=["US", "ARVN", "NVA", "VC"])
    named.play()
    assert limited_ops(plain) == 0 and limited_ops(named) == 0
    assert [e["act"] for e in plain.record if "act" in e] == [e["act"] for e in named.record if "act" in e]
    assert any(e.get("act", {}).get("kind") == "op" and e["act"]["params"].get("sa") for e in plain.record)


def test_fitl_8_1_a_person_keeps_the_limited_operation_and_a_save_of_other_bots_replays():
    from wargames.core.saves import open_save
    from wargames.fitl.players import FitlBot

    game = FitlGame("short", 0, players={f: FitlBot(f) for f in ("US", "ARVN", "NVA", "VC")})
    game.play()
    assert limited_ops(game) > 0  # FitlBot is not a Non-player: the 2nd Eligible is offered a Limited Op
    assert not game.plays_as_nonplayer("US")
    opened = open_save(game.save())  # the seats come from the record ("by": FitlBot)
    assert opened.digest() == game.digest()
    assert FitlGame("short", 0).plays_as_nonplayer("US")  # an unseated faction: the built-in Non-player


# ---------------------------------------------------------------------------------------------- issue #18: 8.1.1 Available
def test_fitl_8_1_1_infiltrate_places_only_available_troops():
    """FITL-8.1.1 / 1.4.1: the engine offers up to Trail + Bases Troops, taking the rest off the map; the NVA
    Non-player places only the 1 Troop Available (it does not strip Troops from a space it just took)."""

    def edit(g):
        put(g, "central_laos", nva_bases=1, nva_guerrillas__u=3)
        put(g, "quang_tri_thua_thien", nva_troops=g.board.available["nva_troops"] - 1)  # all but 1 on the map
        g.board.tracks["trail"] = 3

    game = position(edit)
    assert game.board.available["nva_troops"] == 1
    nva = NonPlayer("NVA")
    ctx = dict(op="rally", sa="infiltrate", space="central_laos", limited=False)
    counts = [Action.make("count", f"Place {n} Troops", n=n) for n in range(0, 5)]
    a = nva.choose(game, decision("count", counts, "NVA", step="troops", **ctx))
    assert a["n"] == 1 and "maximum" in nva.last_reason
    replace_counts = [Action.make("count", f"Replace {n}", n=n) for n in range(0, 4)]
    a = nva.choose(game, decision("count", replace_counts, "NVA", step="replace", **ctx))
    assert a["n"] == 0  # the one Available Troop is already placed: no Guerrilla is replaced by a map Troop


def test_fitl_8_1_1_rally_skips_spaces_that_would_need_guerrillas_from_the_map():
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__u=1)
        put(g, "binh_dinh", vc_guerrillas__u=g.board.available["vc_guerrillas"])  # none Available now

    game = position(edit)
    vc = NonPlayer("VC")
    opts = [Action.make("space", s, space=s) for s in ("tay_ninh", "kien_phong")] + [
        Action.make("done", "Done")
    ]
    a = vc.choose(game, decision("space", opts, "VC", op="rally", step="space", limited=False))
    assert a.kind == "done"
    modes = game.rally_modes("VC", "kien_phong")
    assert modes and all(m.get("mode") == "place" for m in modes)  # the engine would take one off the map


# ---------------------------------------------------------------------------------------------- issue #18: Events (8.1)
def test_fitl_8_1_ineffective_event_example_operation_attleboro_without_a_tunnel():
    """The rules' own example (8.1): Operation Attleboro with no Tunnel on the map would do nothing."""

    def edit(g):
        put(g, "tay_ninh", us_troops=3, vc_bases=1, vc_guerrillas__a=1)  # a VC Base, but no Tunnel

    game = position(edit, top=(23, 2))
    assert game.event_effective(23, "unshaded", "US")[0] is False
    assert game.event_effective(23, "shaded", "VC")[0] is False
    ok, why = NonPlayer("VC").event_step(game)  # VC would play the shaded side (its symbol performs it)
    assert ok is False and "Ineffective" in why
    game.board.pieces["tay_ninh"]["vc_bases"] -= 1
    game.board.pieces["tay_ninh"]["vc_bases:t"] += 1  # now a Tunnel: the Event would act
    assert game.event_effective(23, "unshaded", "US")[0] is True
    assert NonPlayer("VC").event_step(game)[0] is True


def test_fitl_8_5_2_event_played_in_monsoon_at_zero_resources_with_no_operation_offered():
    def edit(g):
        put(g, "tay_ninh", vc_guerrillas__a=2, us_troops=1)  # Active: no Tax, so no Rally either (4.1)
        put(g, "quang_tin_quang_ngai", us_troops=1)
        put(g, "binh_dinh", vc_guerrillas__a=1)
        g.board.tracks["vc_resources"] = 0
        g.eligible["US"] = False  # the VC are 1st Eligible on Operation Starlite

    game = position(edit, top=(24, 127))  # Monsoon: a Coup card is next
    d = game.decision
    assert d.side == "VC" and not [a for a in d.options if a.kind == "op"]
    vc = NonPlayer("VC")
    a = vc.choose(game, d)
    assert (
        a.kind == "event" and a["side"] == "shaded" and vc.last_reason.startswith("VC 8.5.2: play the Event")
    )
    game.apply(a)
    assert any(r.rule_id == "FITL-5.1" for r in game.log[-6:])


@pytest.mark.parametrize(
    "faction, card, gain",
    [
        ("VC", 101, "+1 Resource"),
        ("NVA", 31, "+1 Resource"),
        ("ARVN", 61, "+3 Resources"),
        ("US", 13, "+3 ARVN Resources"),
    ],
)
def test_fitl_8_5_2_pass_when_the_next_card_is_our_capability_then_play_it_without_a_roll(
    monkeypatch, faction, card, gain
):
    game = position(lambda g: put(g, "saigon", arvn_troops=3), top=(24, card))
    np_ = NonPlayer(faction)
    fixed(monkeypatch, priorities, 6)  # the d6 beats the 2 Coup cards in the RVN Leader box
    plan = np_.plan(game, False)
    assert plan.op is None and plan.cap_pass and gain in plan.reason and "next card" in plan.reason
    opts = [
        Action.make("event", "Event", side="unshaded"),
        Action.make("op", "Op+SA", limited=False, sa=True),
        Action.make("pass", "Pass"),
    ]
    a = np_.choose(game, Decision(faction, "card", "FITL-2.3.4", opts, kind="card", context={"role": "1st"}))
    assert a.kind == "pass" and np_.cap_memo == {"card": card}
    game.card, game.next_card = card, 2  # the next card comes up
    fixed(monkeypatch, priorities, 1)  # a new roll would fail: the previous card's roll stands
    step, why = np_.capability_step(game)
    assert step == "play" and "no new roll" in why


def test_fitl_8_5_2_no_event_when_the_next_card_is_anothers_capability(monkeypatch):
    game = position(lambda g: None, top=(1, 13))  # Cobras (a US Capability) is next
    monkeypatch.setattr(game, "event_effective", lambda card, side, faction: (True, "test"), raising=False)
    assert NonPlayer("VC").event_decision(game)[0] == "no"
    assert NonPlayer("US").event_step(game)[0] is True  # the US text (8.8.6) has no such clause


@pytest.mark.parametrize(
    "card, side, faction, wanted",
    [
        (17, "unshaded", "US", False),
        (5, "shaded", "NVA", False),
        (15, "unshaded", "US", True),
        (16, "unshaded", "US", True),
        (10, "unshaded", "US", True),
    ],
)
def test_fitl_8_1_momentum_with_a_coup_next_only_for_an_immediate_or_coup_round_effect(
    monkeypatch, card, side, faction, wanted
):
    """The rules' examples: Claymores and Wild Weasels have no such effect; Medevac, Blowtorch Komer and Rolling
    Thunder do."""
    game = position(lambda g: put(g, "saigon", us_troops=2), top=(card, 127))
    monkeypatch.setattr(game, "event_preference", lambda c, f: ("performed", side), raising=False)
    assert game.monsoon
    ok, why = NonPlayer(faction).event_step(game)
    assert ok is wanted, why


# ---------------------------------------------------------------------------------------------- issue #18: item 5
def test_fitl_8_8_5_air_lift_after_sweep_movement_under_jfk():
    """8.8.5: under JFK or Nixon the US Air Lifts into the selected Sweep spaces (here Troops from Laos) so the
    Sweep Activates every Underground Guerrilla; under LBJ it does not (it Air Strikes instead)."""

    def edit(g):
        put(g, "binh_dinh", us_troops=1, vc_guerrillas__u=3)
        g.board.support["binh_dinh"] = 1
        put(g, "southern_laos", us_troops=3)

    for pol, lifted in (("JFK", True), ("LBJ", False)):
        game = position(edit)
        us = NonPlayer("US")
        us.policy_memo[game.coups_held] = pol
        us.op_memo = {"op": "sweep", "plan": us.plan(game, False)}
        us.memo()["sweep_chosen"] = ["binh_dinh"]
        opts = [
            Action.make("sa", "Air Lift now", sa="air_lift", when="during"),
            Action.make("sa", "Air Strike now", sa="air_strike", when="during"),
            Action.make("done", "Done"),
        ]
        a = us.choose(game, decision("space", opts, "US", op="sweep", step="space", limited=False))
        assert (a.get("sa") == "air_lift") is lifted, pol
        if lifted:
            assert us.sweep_lift_plan(game) == ("southern_laos", "binh_dinh", 2)


def test_fitl_8_6_1_attack_estimate_counts_an_ambush_instead_of_the_troop_attack_in_its_space():
    def edit(g):
        put(
            g, "quang_tri_thua_thien", nva_troops=2, nva_guerrillas__u=1, us_troops=1
        )  # 1 by Troops OR 1 by Ambush

    game = position(edit)
    n, base = NonPlayer("NVA").attack_estimate(game)
    assert (n, base) == (1, False)  # not 2 (4.4.3: the Ambush replaces the Attack in its space)


def test_fitl_8_6_4_with_nothing_available_and_the_trail_at_4_the_nva_do_not_rally():
    """FITL-8.6.4 with 8.1.1 (decision F-172): no NVA Guerrilla, Base or Troop Available and the Trail at 4: a
    Rally could only take pieces off the map, so the "2d6 exceeds the Guerrillas Available" condition does not
    send the NVA to Rally, nor does the IF NONE; and an Infiltrate that would place 0 Troops is not wanted."""

    def edit(g):
        put(g, "central_laos", nva_bases=1, nva_guerrillas__u=3, nva_troops=2)
        g.board.tracks["trail"] = 4
        for k in ("nva_guerrillas", "nva_bases", "nva_troops"):
            g.board.available[k] = 0

    game = position(edit)
    nva = NonPlayer("NVA")
    assert not nva.rally_useful(game) and nva.infiltrate_troops(game) == 0
    plan = nva.plan(game, False)
    assert plan.op != "rally" and "Rally because" not in plan.reason
    assert not nva.sa_wanted(game, decision("sa", [], "NVA", op="march"), "infiltrate")
    game.board.tracks["trail"] = 3  # the Trail can still be Improved: a Rally is worth making again
    assert nva.rally_useful(game)


def test_fitl_8_6_4_infiltrate_counts_four_troops_over_both_spaces():
    """FITL-8.6.4 INFILTRATE: "at least 4 Troops" is the Infiltrate's total over its 2 spaces: Trail 1 + 1 Base
    places 2 in each of two Base spaces, 4 in all; with #46 559th Transport Grp (1 space) only 2."""
    from .test_fitl_lasting import add_momentum

    def edit(g):
        put(g, "central_laos", nva_bases=1, nva_guerrillas__u=2)
        put(g, "southern_laos", nva_bases=1, nva_guerrillas__u=2)
        g.board.tracks["trail"] = 1

    game = position(edit)
    nva = NonPlayer("NVA")
    d = decision("sa", [], "NVA", op="rally")
    assert nva.infiltrate_troops(game) == 4 and nva.sa_wanted(game, d, "infiltrate")
    add_momentum(game, 46, "unshaded")
    assert nva.infiltrate_troops(game) == 2 and not nva.sa_wanted(game, d, "infiltrate")


def test_fitl_8_6_4_infiltrate_takes_over_the_tunneled_vc_base_first():
    game = position(lambda g: put(g, "tay_ninh", nva_troops=3, vc_bases=1, vc_bases__t=1))
    nva = NonPlayer("NVA")
    opts = [Action.make("piece", k, space="tay_ninh", key=k) for k in ("vc_bases", "vc_bases:t")] + [
        Action.make("none", "none")
    ]
    a = nva.choose(
        game,
        decision(
            "piece",
            opts,
            "NVA",
            op="rally",
            sa="infiltrate",
            step="takeover",
            space="tay_ninh",
            limited=False,
        ),
    )
    assert a["key"] == "vc_bases:t" and "Tunneled first" in nva.last_reason


def test_fitl_8_7_4_arvn_assault_where_a_base_has_no_underground_guerrilla():
    """8.7.4 third condition as written: Assault can remove enemy pieces in a space with a Base and no
    Underground Guerrillas, even when the Base itself cannot fall yet."""

    def edit(g):
        put(g, "kien_phong", arvn_troops=2, vc_bases=1, vc_guerrillas__a=3)  # Lowland: 1 removal

    game = position(edit)
    arvn = NonPlayer("ARVN")
    assert "with a Base and no Underground Guerrilla" in arvn.assault_reason(game)
    game.board.pieces["kien_phong"]["vc_guerrillas:a"] -= 1
    game.board.pieces["kien_phong"]["vc_guerrillas:u"] += 1
    assert arvn.assault_reason(game) == ""


def test_fitl_8_7_2_govern_only_where_patronage_is_legal():
    def edit(g):
        put(g, "hue", arvn_police=1, us_troops=2)  # Active Support but more US Troops: no Patronage (4.3.1)
        put(g, "qui_nhon", arvn_police=2)
        for s in ("hue", "qui_nhon"):
            g.board.support[s] = 2

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [Action.make("space", s, space=s) for s in ("hue", "qui_nhon")]
    a = arvn.choose(
        game, decision("space", opts, "ARVN", op="train", sa="govern", step="sa_space", limited=False)
    )
    assert a["space"] == "qui_nhon" and "Patronage" in arvn.last_reason


def test_fitl_8_7_3_patrol_gives_a_city_its_missing_troop():
    """FITL-8.7.3 third bullet: Hue is under COIN Control with 3 Police but no Troop, so it is a Patrol target
    and the Patrol moves a Troop there first (Police first elsewhere)."""

    def edit(g):
        for c in ("da_nang", "kontum", "qui_nhon", "cam_ranh", "an_loc", "saigon", "can_tho"):
            put(g, c, arvn_troops=2, arvn_police=2)
        put(g, "hue", arvn_police=3)
        put(g, "quang_tri_thua_thien", arvn_troops=3, arvn_police=3)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    assert arvn.city_missing_cube(game, "hue") == "Troop" and arvn.city_missing_cube(game, "saigon") == ""
    targets = {d: why for d, _, why in arvn.patrol_targets(game)}
    assert "Troop is missing" in targets["hue"] and "saigon" not in targets
    opts = [
        Action.make("move_from", f"{k} from Quang Tri", space="quang_tri_thua_thien", key=k)
        for k in ("arvn_police", "arvn_troops")
    ]
    d = decision("move_from", opts + [Action.make("done", "Done")], "ARVN", op="patrol", step="move_from")
    a = arvn.choose(game, d)
    assert a["key"] == "arvn_troops" and "Hue" in arvn.last_reason


def test_fitl_8_7_4_raid_picks_only_spaces_its_rangers_can_reach():
    """FITL-8.7.4 RAID with 4.3.3: the VC Base in Tay Ninh has no Ranger in or next to it; Kien Phong's Guerrilla
    has an Underground Ranger next door (Kien Hoa stays COIN-Controlled without it): only Kien Phong is picked."""

    def edit(g):
        put(g, "tay_ninh", vc_bases=1, vc_guerrillas__u=2)
        put(g, "kien_phong", vc_guerrillas__u=1)
        put(g, "kien_hoa_vinh_binh", arvn_rangers__u=1, arvn_troops=2)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    assert not arvn.raid_reaches(game, "tay_ninh") and arvn.raid_reaches(game, "kien_phong")
    opts = [Action.make("space", x, space=x) for x in ("tay_ninh", "kien_phong")] + [Action.make("done", "d")]
    d = decision(
        "space", opts, "ARVN", faction="ARVN", op="assault", sa="raid", step="sa_space", limited=False
    )
    assert arvn.choose(game, d)["space"] == "kien_phong"


def test_fitl_8_7_3_patrol_moves_police_first():
    def edit(g):
        put(g, "saigon", arvn_troops=6, arvn_police=4, us_troops=2)
        put(g, "loc_saigon_can_tho", vc_guerrillas__u=1)

    game = position(edit)
    arvn = NonPlayer("ARVN")
    opts = [
        Action.make("move_from", f"{k} from saigon", space="saigon", key=k)
        for k in ("arvn_troops", "arvn_police")
    ]
    a = arvn.choose(
        game,
        decision(
            "move_from",
            opts + [Action.make("done", "Done")],
            "ARVN",
            op="patrol",
            step="move_from",
            limited=False,
        ),
    )
    assert a["key"] == "arvn_police" and "Police first" in arvn.last_reason


def test_fitl_8_5_4_rules_example_no_march_no_attack_at_zero_resources_rally_beginning_with_tax(monkeypatch):
    """The rules' example of 8.5.4: 0 Resources, no Underground Guerrilla can reach a LoC: no March; Attack needs
    Resources; so Rally, beginning with Tax (4.1: the Special Activity before the Operation)."""

    def edit(g):
        put(g, "kien_phong", vc_guerrillas__u=1)  # the last Guerrilla stays: no March priority move
        put(g, "tay_ninh", vc_guerrillas__u=2, vc_bases=1)  # Taxable (Population 2, no COIN Control)
        g.board.support["kien_phong"] = -2
        g.board.tracks["vc_resources"] = 0
        g.board.available["vc_guerrillas"] = 0
        g.eligible["US"] = g.eligible["NVA"] = g.eligible["ARVN"] = False

    game = position(edit, top=(24, 2))
    vc = NonPlayer("VC")
    monkeypatch.setattr(game, "event_preference", lambda c, f: ("ignored", "shaded"), raising=False)
    assert vc.event_decision(game)[0] == "no"  # the Event aside (8.4.1), as in the example
    plan = vc.plan(game, False)
    assert plan.op == "rally" and not plan.event and "IF NONE" in plan.reason
    game.apply(next(a for a in game.decision.options if a.kind == "op" and a["sa"]))
    assert vc.choose(game, game.decision)["op"] == "rally"
    game.apply(vc.choose(game, game.decision))
    d = game.decision
    a = vc.choose(game, d)
    if a.kind == "sa_later":  # Tax comes during the Rally, as soon as Resources are needed
        game.apply(a)
        a = vc.choose(game, game.decision)
    assert a.get("sa") == "tax"


def test_fitl_8_5_4_march_only_when_a_priority_move_exists_else_attack_then_rally():
    def edit(g):
        put(g, "kien_phong", vc_guerrillas__u=1)  # the last Guerrilla stays (8.5.4): no priority move
        put(g, "tay_ninh", vc_guerrillas__a=3, arvn_police=1)  # an Attack is possible
        g.board.support["kien_phong"] = -2
        g.board.support["tay_ninh"] = -2
        g.board.available["vc_guerrillas"] = 0  # no Rally condition (3 dice against 0 Available)

    game = position(edit)
    vc = NonPlayer("VC")
    assert not vc.march_move_exists(game)
    plan = vc.plan(game, False)
    assert plan.op == "attack" and "8.5.4 IF NONE" in plan.reason


def test_fitl_8_8_7_train_adds_a_space_to_pacify_more():
    def edit(g):
        put(g, "binh_tuy_binh_thuan", us_troops=2)  # Irregulars here (Population 1)
        put(g, "saigon", us_troops=2, us_bases=1, arvn_police=2)  # Population 6: the better Pacification
        g.board.tracks["arvn_resources"] = 40

    game = position(edit)
    us = NonPlayer("US")
    us.op_memo = {"op": "train", "plan": us.plan(game, False)}
    us.memo()["train_chosen"] = ["binh_tuy_binh_thuan"]
    us.counts()["cubes"] = 1
    opts = [Action.make("space", "Saigon", space="saigon"), Action.make("done", "Done")]
    a = us.choose(game, decision("space", opts, "US", op="train", step="space", limited=False))
    assert a["space"] == "saigon" and "Pacify to the maximum extent" in us.last_reason


def test_fitl_8_6_5_march_through_laos_at_trail_4_to_add_nva_control():
    """8.6.5 / 3.3.2: at Trail 4 a group from North Vietnam goes through Central Laos to Quang Nam (2 moves) and
    does not stay in the transit space; below Trail 4 it may not."""

    def edit(g):
        put(g, "north_vietnam", nva_troops=4)
        put(g, "quang_nam", arvn_police=1)
        put(g, "quang_tri_thua_thien", us_troops=6)  # too strong next door
        g.board.tracks["trail"] = 4

    game = position(edit)
    nva = NonPlayer("NVA")
    nva.op_memo = {"op": "march"}
    t = nva.march_target(game)
    assert t is not None and t[:2] == ("north_vietnam", "central_laos") and "via the Trail" in t[5]
    assert nva.memo()["cont"][:2] == ("central_laos", "quang_nam")
    opts = [Action.make("move_from", "from Central Laos", space="central_laos"), Action.make("done", "Done")]
    nva.memo().setdefault("to", [])
    a = nva.choose(game, decision("move_from", opts, "NVA", op="march", step="move_from", limited=False))
    assert a["space"] == "central_laos" and nva.memo()["plan"][0] == "quang_nam"
    game.board.tracks["trail"] = 3
    nva.op_memo = {"op": "march"}
    t = nva.march_target(game)
    assert t is None or t[1] != "central_laos" or "via" not in t[5]


def test_fitl_8_8_1_policy_is_the_scenarios_option_never_an_undeclared_game_attribute():
    """FITL-8.8.1 (decision F-77-R): the Non-player US reads the scenario's ``us_policy`` (the full scenario's JFK);
    a ``us_policy`` attribute on the game is no state of the game (refused by the checkpoints) and is not read."""
    from wargames.core.errors import EngineError

    game = wargames.load("fitl", "full", seed=1)
    assert game.rules_opts["us_policy"] == "JFK"
    us = NonPlayer("US")
    assert us.policy(game) == "JFK"
    game.us_policy = "Nixon"
    assert us.policy(game) == "JFK"
    with pytest.raises(EngineError, match="us_policy"):
        game.state_attrs()  # what every checkpoint copies
