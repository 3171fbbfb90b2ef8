"""Sequence of play, set-up, reinforcements, dummies, victory, the map calibration targets and the bots."""

from __future__ import annotations

import time
from statistics import median

import pytest

from wargames.yotr.data import load_data
from wargames.yotr.game import YotrGame

from .conftest import choose, clear, put, yotr_at

D = load_data()
P = "1987"


# ---------------------------------------------------------------------- sequence of play
def test_yotr_sop_thirteen_turns_communist_first():
    g = YotrGame("historical", 1)
    assert g.sequence.turns == 13
    ids = [p.id for p in g.sequence.phases]
    assert ids == [
        "c_rein",
        "c_move",
        "c_combat",
        "c_recovery",
        "a_rein",
        "a_move",
        "a_bomb",
        "a_combat",
        "gt",
    ]
    assert g.decision.side == "Communist" and g.turn == 1


def test_yotr_sop_c_turn_marker_and_game_end():
    g = YotrGame("historical", 2)
    g.advance("end")
    ends = [r for r in g.log if r.rule_id == "YOTR-SOP-C" and r.step == "indicate"]
    assert g.is_over and (len(ends) == 13 or g.result.rule_id == "YOTR-VIC-DEC")


def test_yotr_sop_a2b_communist_movement_phase():
    g = YotrGame("historical", 0)
    assert g.phase.id == "c_move" and g.decision.rule_id == "YOTR-MOV-C"
    assert {g.side_of(a["unit"]) for a in g.legal_actions() if a.kind == "move_unit"} == {"Communist"}


def test_yotr_sop_b2b_allied_movement_phase():
    g = yotr_at("a_move")
    assert g.decision.side == "Allied" and g.decision.rule_id == "YOTR-MOV-C"
    assert "usa_1" not in [a.get("unit") for a in g.legal_actions()]


def test_yotr_sop_b4a_allied_attacks_declared_before_any_is_resolved():
    def edit(g):
        clear(g)
        put(g, "nva_2", P)
        put(g, "nva_3", "1784")
        put(g, "arvn_mdw_1", D.adj[P][0])
        put(g, "arvn_mde_2", D.adj["1784"][0])

    g = yotr_at("a_combat", edit=edit)
    choose(g, "target", hex=P)
    choose(g, "attacker", unit="arvn_mdw_1")
    assert g.face_up == set()  # nothing revealed while declaring (YOTR-CBT-P)
    assert g.decision.rule_id == "YOTR-CBT-A"


def test_yotr_sop_b4b_defenders_revealed_at_resolution_then_hidden():
    def edit(g):
        clear(g)
        put(g, "nva_2", P)
        put(g, "arvn_mdw_1", D.adj[P][0])

    g = yotr_at("a_combat", edit=edit, dice=[4])
    choose(g, "target", hex=P)
    rulings = choose(g, "attacker", unit="arvn_mdw_1")
    battle = next(r for r in rulings if r.rule_id == "YOTR-CBT-CRT" and r.lookup)
    assert battle.result["odds"] == "1-3" and not g.face_up


# ---------------------------------------------------------------------- set-up
def test_yotr_set_seq_every_counter_placed_before_turn_one():
    g = YotrGame("historical", 0)
    on = g.on_map()
    assert len(on) == sum(1 for u in g.counters.values() if u.start_hex)
    assert all(g.loc[u] == "track" for u in g.counters if g.counters[u].turn)


def test_yotr_dep_comm_historical_communist_forces():
    # EX-18
    g = YotrGame("historical", 0)
    nva = [u for u in g.on_map("Communist") if g.counters[u].nationality == "NVA" and g.is_combat(u)]
    assert len(nva) == 14 and sum(g.counters[u].attack for u in nva) == 67
    assert sum(g.is_dummy(u) for u in g.on_map("Communist")) == 7
    sup = [u for u in g.on_map("Communist") if g.is_supply_unit(u)]
    assert len(sup) == 13 and sum(g.counters[u].unit_type == "supply_real" for u in sup) == 6
    assert sum(g.counters[u].nationality == "NLF" for u in g.on_map("Communist")) == 5
    assert all(g.loc[u] in D.supply_centers for u in sup)
    quotas = {h: p.quota for h, p in D.supply_centers.items()}
    assert all(sum(g.loc[u] == h for u in sup) == q for h, q in quotas.items())
    view = g.view("Allied").state
    assert not any(u["id"].startswith(("nva", "dummy", "supply", "nlf")) for u in view["units"])


def test_yotr_dep_allied_historical_allied_forces():
    # EX-19
    g = YotrGame("historical", 0)
    allied = g.on_map("Allied")
    by = {n: [u for u in allied if g.counters[u].nationality == n] for n in ("USA", "ROK", "ARVN")}
    assert len(by["USA"]) == 3 and sum(g.counters[u].attack for u in by["USA"]) == 8
    assert {g.loc[u] for u in by["USA"]} == {"5217", "3674", "3980"}
    assert len(by["ROK"]) == 3 and {g.loc[u] for u in by["ROK"]} == {"6542"}
    assert len(by["ARVN"]) == 31
    assert sum(g.counters[u].values == "1-6" for u in by["ARVN"]) == 4
    assert sum(g.counters[u].values == "3-6" for u in by["ARVN"]) == 1
    assert g.air == 13 and not g.invariants()


def test_yotr_twn_a_every_svn_town_starts_allied():
    g = YotrGame("historical", 0)
    assert set(g.town) == set(D.towns) and set(g.town.values()) == {"allied"} and g.vp == 0


def test_yotr_twn_b_only_svn_towns_count():
    assert all(D.country(h) == "SVN" for h in D.towns)
    assert D.places["svay_rieng"].kind == "foreign_town" and D.places["svay_rieng"].hex not in D.towns


def test_yotr_twn_g_militia_zero_to_three():
    assert {p.intrinsic_strength for p in D.towns.values()} <= {0, 1, 2, 3}


# ---------------------------------------------------------------------- reinforcements and dummies
def test_yotr_sop_a1_communist_reinforcement_arrives_on_its_turn():
    g = yotr_at("c_rein", turn=4)
    assert g.decision.rule_id == "YOTR-REI-PLACE"
    choose(g, "enter", to="2710")
    assert g.loc["nva_rein_1"] == "2710"


def test_yotr_rei_place_panhandle_when_tchepone_held():
    # EX-34: Allied units in Tchepone force the arrival at Panhandle
    def edit(g):
        for u in g.units_at("2710"):
            g.place(u, "removed")
        g.sc_destroyed.add("2710")
        put(g, "arvn_qt_1", "2710")

    g = yotr_at("c_rein", turn=4, edit=edit)
    assert g.loc["nva_rein_1"] == "3406"  # the Panhandle Supply Center (calibration C-02)


def test_yotr_sop_b1_air_points_arrive():
    g = yotr_at("a_move", turn=2)
    assert g.air == 17 and g.naval == 1


def test_yotr_sop_a_end_one_dummy_removed_from_turn_three():
    # EX-16
    g = yotr_at("c_recovery", turn=3)
    assert g.decision.rule_id == "YOTR-DUM-D"
    before = sum(g.is_dummy(u) for u in g.on_map("Communist"))
    choose(g, "remove_dummy", unit=g.legal_actions()[0]["unit"])
    assert sum(g.is_dummy(u) for u in g.on_map("Communist")) == before - 1


def test_yotr_dum_d_no_dummies_left_after_turn_nine():
    # EX-16: seven dummies, none lost in combat: one goes at the end of each Communist Player-Turn 3 to 9
    from .conftest import Passive

    g = YotrGame("historical", 3, players={"Communist": Passive(), "Allied": Passive()})
    g.advance("end")
    assert [r.turn for r in g.log if r.rule_id == "YOTR-DUM-D"] == [3, 4, 5, 6, 7, 8, 9]
    assert not any(g.is_dummy(u) for u in g.on_map("Communist"))


# ---------------------------------------------------------------------- victory
def test_yotr_vic_levels_table():
    # EX-20
    levels = {
        4: "Allied Substantive Victory",
        5: "Allied Marginal Victory",
        8: "Allied Marginal Victory",
        9: "Draw",
        14: "Draw",
        15: "Communist Marginal Victory",
        24: "Communist Marginal Victory",
        25: "Communist Substantive Victory",
        39: "Communist Substantive Victory",
        40: "Communist Decisive Victory",
        -3: "Allied Substantive Victory",
    }
    assert {vp: D.level(vp).level for vp in levels} == levels


def test_yotr_vic_town_values_by_strength():
    assert [(r.vp_on_seizure, r.vp_while_retaken) for _, r in sorted(D.town_vp.items())] == [
        (1, 0),
        (2, 1),
        (5, 2),
        (8, 3),
    ]


def test_yotr_twn_k_held_and_retaken_towns_score():
    g = YotrGame("historical", 0)
    g.town["3080"] = "nlf"
    assert g.vp_function()["towns"] == 5
    g.town["3080"] = "retaken"
    assert g.vp_function()["towns"] == 2


def test_yotr_vic_region_all_towns_of_a_region():
    g = YotrGame("historical", 0)
    towns = D.region_towns["quang_tri"]
    for h in towns[:-1]:
        g.town[h] = "nlf"
    assert "quang_tri" not in g.vp_function()["regions"]
    g.town[towns[-1]] = "nlf"
    assert g.vp_function()["regions"] == {"quang_tri": 12}


def test_yotr_twn_j_region_control_needs_every_town():
    test_yotr_vic_region_all_towns_of_a_region()


def test_yotr_vic_saigon_isolation():
    # EX-22
    def edit(g):
        clear(g)
        for u, h in zip(("nva_1", "nva_2", "nva_3", "nva_4"), D.saigon_roads, strict=True):
            put(g, u, h)

    g = yotr_at("c_move", edit=edit)
    assert g.vp_function()["saigon_isolation"] == 5
    for h in D.saigon_hexes:
        g.town[h] = "nlf"
    f = g.vp_function()
    assert f["saigon_isolation"] == 0 and f["regions"].get("saigon") == 10


def test_yotr_vic_score_track_follows_the_state():
    g = YotrGame("historical", 5)
    g.advance("end")
    assert g.vp == g.vp_function()["total"]
    moves = sum(c["to"] - c["from"] for r in g.log for c in r.changes if c.get("track") == "vp")
    assert moves == g.vp


def test_yotr_vic_dec_forty_points_end_the_game_at_once():
    # EX-21
    loc_ninh = "3363"

    def edit(g):
        clear(g)
        for h in D.towns:
            if D.towns[h].region not in ("tay_ninh",):
                g.town[h] = "nlf"
        put(g, "dummy_1", next(n for n in D.adj[loc_ninh] if D.terrain(n) == "clear" and n not in D.towns))

    g = yotr_at("c_move", edit=edit)
    assert g.vp >= 39 or g.is_over
    if not g.is_over:
        beyond = next(h for h in sorted(g.reachable("dummy_1")) if loc_ninh in g.path_to("dummy_1", h))
        choose(g, "move_unit", unit="dummy_1")
        choose(g, "move_to", unit="dummy_1", to=beyond)
    assert g.is_over and g.result.rule_id == "YOTR-VIC-DEC" and g.result.result["winner"] == "Communist"


# ---------------------------------------------------------------------- the map (digest 5.6)
def test_map_calibration_targets():
    g = YotrGame("historical", 0)
    # 1. at most 35 South Vietnamese town and base hexes (Special Rule B)
    assert len(D.towns) <= 35
    # 2. ARVN start on hexes they may enter; NLF off towns, roads and trails, in their Region
    for u in g.on_map("Allied"):
        h = g.loc[u]
        if g.counters[u].nationality == "ARVN":
            assert D.terrain(h) == "clear" or D.has_road_or_trail(h), u
    for u in g.on_map("Communist"):
        if g.counters[u].nationality == "NLF":
            h = g.loc[u]
            assert h not in D.towns and not D.has_road_or_trail(h)
    # 3. each NVA deployment group within 8 hexes of a Supply Center (straight distance; a traced line may be
    #    longer around rivers, so most but not all start in General Supply)
    nva = [u for u in g.on_map("Communist") if g.counters[u].nationality == "NVA" and g.is_combat(u)]
    assert all(min(D.grid.distance(g.loc[u], s) for s in D.supply_centers) <= 8 for u in nva)
    rng = g.communist_range(g.general_sources())
    assert sum(g.loc[u] in rng for u in nva) >= len(nva) - 2
    # 4. four road hexes next to Saigon
    assert len(D.saigon_roads) == 4
    assert all(
        any(n in D.saigon_hexes and D.side_has(h, n, "road") for n in D.adj[h]) for h in D.saigon_roads
    )
    # 5. most Supply Centers abut rough terrain
    assert sum(any(D.terrain(n) == "rough" for n in D.adj[h]) for h in D.supply_centers) * 2 > len(
        D.supply_centers
    )


# ---------------------------------------------------------------------- bots
def test_bot_game_reaches_a_victory_level_quickly():
    YotrGame("historical", 0)  # warm the map caches
    levels, times = [], []
    for seed in range(3):
        t0 = time.perf_counter()
        g = YotrGame("historical", seed)
        g.advance("end")
        times.append(time.perf_counter() - t0)
        assert g.is_over and g.result.result["level"] == D.level(g.vp).level
        levels.append(g.vp)
        why = [d["why"] for d in g.decisions()]
        assert why and all(why)
    assert median(times) < 5  # about a second on one core; the 1 s target is measured in the report


def test_bots_only_read_what_their_side_may_see():
    from wargames.yotr.bots import AlliedBot

    g = yotr_at("a_combat", turn=1)
    assert AlliedBot.__module__ == "wargames.yotr.bots" and g is not None


# ---------------------------------------------------------------------- the Standard Game (free deployment)
def test_yotr_dep_free_deployment_restrictions():
    from wargames.yotr.deploy import arvn_deploy_hexes, nlf_deploy_hexes, nva_deploy_hexes

    g = YotrGame("standard", 0)
    g.set_players({"Communist": None, "Allied": None})
    first = g.legal_actions()
    assert all(D.country(a["to"]) != "SVN" for a in first if a.kind == "deploy")
    assert any(a.kind == "set_aside" for a in first)
    assert all(
        h not in D.towns and not D.has_road_or_trail(h) and D.region(h) == "central_coast"
        for h in nlf_deploy_hexes("central_coast")
    )
    assert (
        D.places["svay_rieng"].hex in nva_deploy_hexes() and D.places["svay_rieng"].hex in arvn_deploy_hexes()
    )
    assert all(D.terrain(h) == "clear" or D.has_road_or_trail(h) for h in arvn_deploy_hexes())
    from wargames.yotr.bots import AlliedBot, CommunistBot

    g.set_players({"Communist": CommunistBot(0), "Allied": AlliedBot(0)})
    g.advance("turn")  # the bots deploy
    assert g.turn >= 1 and not g.invariants()
    assert {g.loc[u] for u in ("usa_1", "usa_2", "usa_3")} == {"5217", "3980", "3674"}
    assert {g.loc[u] for u in ("rok_1", "rok_2", "rok_3")} == {"6542"}
    sup = [u for u in g.counters if g.is_supply_unit(u)]
    assert all(sum(g.loc[u] == h for u in sup) == p.quota for h, p in D.supply_centers.items())


def test_yotr_dep_illegal_set_up_hexes_refused_naming_the_restriction():
    from wargames.core import Action, IllegalAction

    g = YotrGame("standard", 0)
    g.set_players({"Communist": None, "Allied": None})
    uid = g.decision.options[0]["unit"]
    before = g.digest()
    qt = D.places["quang_tri_city"].hex
    with pytest.raises(IllegalAction, match=r"\[YOTR-DEP\].*outside South Vietnam.*Quang Tri"):
        g.apply(Action.make("deploy", to=qt, unit=uid))
    with pytest.raises(IllegalAction, match=r"\[YOTR-DEP\].*not a land hex"):
        g.apply(Action.make("deploy", to="9999", unit=uid))
    with pytest.raises(IllegalAction, match=r"\[YOTR-SET-SEQ\].*to set up now is"):
        g.apply(
            Action.make(
                "deploy", to=g.decision.options[0]["to"], unit="nva_14" if uid != "nva_14" else "nva_1"
            )
        )
    assert g.digest() == before
    while g.decision.side == "Communist":  # on to the Allied step: ARVN may not set up on roadless rough
        g.apply(next((a for a in g.legal_actions() if a.kind == "set_aside"), g.legal_actions()[0]))
    arvn = g.decision.options[0]["unit"]
    rough = next(
        h
        for h in D.hexes
        if D.country(h) == "SVN"
        and D.terrain(h) == "rough"
        and not D.has_road_or_trail(h)
        and not g.occupied_by(h, "Communist")
    )
    with pytest.raises(IllegalAction, match=r"\[YOTR-DEP\].*ARVN may enter"):
        g.apply(Action.make("deploy", to=rough, unit=arvn))


def test_yotr_set_seq_fourteen_then_seven():
    g = YotrGame("standard", 0)
    g.set_players({"Communist": None, "Allied": None})
    asides = 0
    while (
        g.decision.rule_id == "YOTR-DEP"
        and g.decision.side == "Communist"
        and any(
            a.kind in ("deploy", "set_aside") and a["unit"].startswith(("nva", "dummy"))
            for a in g.legal_actions()
        )
    ):
        act = next((a for a in g.legal_actions() if a.kind == "set_aside"), g.legal_actions()[0])
        asides += act.kind == "set_aside"
        g.apply(act)
    assert asides == 7
    assert sum(1 for u in g.on_map("Communist")) == 14 + 0


def test_yotr_rei_standard_game_may_delay_reinforcements():
    from wargames.yotr.bots import AlliedBot, CommunistBot

    g = YotrGame("standard", 0)
    g.set_players({"Communist": None, "Allied": None})
    bots = {"Communist": CommunistBot(0), "Allied": AlliedBot(0)}
    while not (g.decision and g.decision.rule_id == "YOTR-REI-PLACE") and g.turn <= 4:
        g.apply(bots[g.decision.side].choose(g, g.decision))
    assert any(a.kind == "delay" for a in g.legal_actions())
    choose(g, "delay")
    assert g.loc["nva_rein_1"] == "track"


# ---------------------------------------------------------------------- the Historical Game deployed by the players
def _historical_deployed_by_bots():
    from wargames.yotr.bots import AlliedBot, CommunistBot

    g = YotrGame("historical", 4, {"historical_positions": False})
    g.set_players({"Communist": None, "Allied": None})
    bots = {"Communist": CommunistBot(4), "Allied": AlliedBot(4)}
    kinds = []
    while g.turn == 0 or (g.decision and g.decision.rule_id.startswith("YOTR-DEP")):
        if not g.decision or not g.decision.rule_id.startswith("YOTR-DEP"):
            break
        kinds.append((g.decision.rule_id, g.decision.side, g.legal_actions()[0].kind))
        g.apply(bots[g.decision.side].choose(g, g.decision))
    return g, kinds


def test_yotr_dep_comm_players_deploy_the_historical_forces_within_their_areas():
    # D-68: with the "historical positions" option off, the Communist places each NVA unit outside South Vietnam
    # within two hexes of its Region, the dummies outside South Vietnam, never in Svay Rieng, the NLF in their
    # Regions, and chooses the real supply units of each Supply Center
    from wargames.core import Action, IllegalAction
    from wargames.yotr.deploy import near_region_hexes, region_of_area

    g = YotrGame("historical", 4, {"historical_positions": False})
    g.set_players({"Communist": None, "Allied": None})
    assert g.decision.rule_id == "YOTR-DEP-COMM" and g.decision.side == "Communist"
    while g.decision.options[0]["unit"] != "nva_1":
        g.apply(next(a for a in g.legal_actions() if a.kind == "set_aside"))
    menu = {a["to"] for a in g.legal_actions() if a.kind == "deploy"}
    assert (
        menu == set(near_region_hexes("quang_tri"))
        and region_of_area(g.counters["nva_1"].deploy_area) == "quang_tri"
    )
    assert all(D.country(h) != "SVN" for h in menu) and D.places["svay_rieng"].hex not in menu
    assert all(min(D.grid.distance(h, x) for x in D.hexes if D.region(x) == "quang_tri") <= 2 for h in menu)
    before = g.digest()
    far = near_region_hexes("mekong_west")[0]
    with pytest.raises(IllegalAction, match=r"\[YOTR-DEP-COMM\].*within two hexes of the Quang Tri"):
        g.apply(Action.make("deploy", to=far, unit="nva_1"))
    assert g.digest() == before
    g, kinds = _historical_deployed_by_bots()
    assert ("YOTR-DEP-COMM", "Communist", "real_supply") in kinds and not g.invariants()
    for uid in g.on_map("Communist"):
        r = g.counters[uid]
        region = region_of_area(r.deploy_area)
        if r.nationality == "NVA" and g.is_combat(uid):
            assert g.loc[uid] in near_region_hexes(region)
        elif r.nationality == "NLF":
            assert D.region(g.loc[uid]) == region and g.loc[uid] not in D.towns
        elif g.is_dummy(uid):
            assert D.country(g.loc[uid]) != "SVN" and g.loc[uid] != D.places["svay_rieng"].hex
    sup = [u for u in g.counters if g.is_supply_unit(u)]
    assert all(sum(g.loc[u] == h for u in sup) == p.quota for h, p in D.supply_centers.items())


def test_yotr_dep_allied_players_deploy_the_arvn_within_their_regions():
    # D-68: USA, ROK and the Svay Rieng task force keep their fixed places; every other ARVN unit goes anywhere in
    # its Region on a hex ARVN may enter (D-38); the default option keeps the reconstructed start hexes (M-11)
    from wargames.yotr.deploy import arvn_deploy_hexes, region_of_area

    g, kinds = _historical_deployed_by_bots()
    assert ("YOTR-DEP-ALLIED", "Allied", "deploy") in kinds
    for uid in g.on_map("Allied"):
        r = g.counters[uid]
        region = region_of_area(r.deploy_area)
        if r.nationality == "ARVN" and region:
            assert D.region(g.loc[uid]) == region and g.loc[uid] in arvn_deploy_hexes()
        else:
            assert g.loc[uid] == r.start_hex
    fixed = YotrGame("historical", 4)
    assert all(
        fixed.loc[u] == r.start_hex for u, r in fixed.counters.items() if r.start_hex and r.turn is None
    )
    assert not any(e.get("act", {}).get("kind") == "deploy" for e in fixed.record)
