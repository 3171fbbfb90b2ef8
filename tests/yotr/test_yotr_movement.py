"""Movement, zones of control and the terrain chart (YOTR-MOV, YOTR-ZOC, YOTR-TEC)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.yotr.game import YotrGame

from .conftest import choose, clear, put, yotr_at

P = "1987"  # open clear ground in the Mekong Delta West, no hexside features within two hexes


def _pair(d, pred):
    for (a, b), feats in sorted(d.sides.items()):
        for x, y in ((a, b), (b, a)):
            if pred(x, y, feats):
                return x, y
    raise AssertionError("no such hexside on the map")


@pytest.fixture(scope="module")
def start():
    return YotrGame("historical", 0)


def quiet(uid_hex: dict[str, str], phase: str = "c_move", **kw) -> YotrGame:
    def edit(g):
        clear(g)
        for u, h in uid_hex.items():
            put(g, u, h)

    return yotr_at(phase, edit=edit, **kw)


def test_yotr_mov_a_clear_hex_costs_one_point():
    g = quiet({"nva_2": P})
    reach = g.reachable("nva_2")
    assert all(g.move_cost("nva_2", n) == 1 for n in g.data.adj[P])
    assert max(reach.values()) <= 12 and g.allowance("nva_2") == 6


def test_yotr_mov_q_road_rate_only_through_a_road_hexside(start):
    d = start.data
    a, b = _pair(
        d,
        lambda x, y, f: (
            f == {"road"}
            and d.terrain(x) == d.terrain(y) == "clear"
            and d.country(x) == d.country(y) == "SVN"
        ),
    )
    assert start.terrain_cost("arvn_mdw_1", a, b) == Fraction(1, 2)
    assert start.terrain_cost("nva_2", a, b) == 1
    a, other = _pair(
        d,
        lambda x, y, f: (
            "river" not in f
            and "road" not in f
            and "trail" not in f
            and d.side_has(x, next(iter(d.adj[x])), "road")
            and d.terrain(y) == "clear"
        ),
    )
    assert start.terrain_cost("arvn_mdw_1", a, other) == 1  # a road hex left through a plain hexside


def test_yotr_mov_p_arvn_enter_rough_only_along_road_or_trail(start):
    d = start.data
    a, b = _pair(
        d,
        lambda x, y, f: (
            "road" in f
            and "river" not in f
            and d.terrain(y) == "rough"
            and d.country(x) == d.country(y) == "SVN"
        ),
    )
    assert start.terrain_cost("arvn_mdw_1", a, b) == Fraction(1, 2)
    # EX-12: between two hexes where the road does not cross the hexside, ARVN may not enter rough
    c = next(
        n
        for n in d.adj[a]
        if d.terrain(n) == "rough"
        and not d.side_has(a, n, "road")
        and not d.side_has(a, n, "trail")
        and d.country(n) == "SVN"
    )
    assert start.terrain_cost("arvn_mdw_1", a, c) is None
    assert start.may_enter_terrain("arvn_mdw_1", a, c) == "YOTR-MOV-P"
    assert start.terrain_cost("usa_1", a, c) == 2  # other Allied units pay the terrain


def test_yotr_tec_3_trail_rate_and_communist_pays_terrain(start):
    d = start.data
    a, b = _pair(
        d,
        lambda x, y, f: (
            f == {"trail"} and d.terrain(y) == "rough" and d.country(x) == "SVN" and d.country(y) == "SVN"
        ),
    )
    assert start.terrain_cost("arvn_mdw_1", a, b) == 2  # trail rate lets ARVN in
    assert start.terrain_cost("nva_2", a, b) == 2  # D-44: the Communist pays the rough terrain


def test_yotr_tec_6_river_adds_three_and_a_bridge_cancels_it(start):
    d = start.data
    a, b = _pair(d, lambda x, y, f: f == {"river"} and d.terrain(x) == d.terrain(y) == "clear")
    assert start.terrain_cost("nva_2", a, b) == 4
    a, b = _pair(d, lambda x, y, f: {"river", "bridge", "road"} <= f and d.terrain(y) == "clear")
    assert start.terrain_cost("nva_2", a, b) == 1


def test_yotr_tec_chart_sea_prohibited(start):
    d = start.data
    a, b = next(
        (h, n) for h in sorted(d.hexes) if d.terrain(h) == "clear" for n in d.adj[h] if d.terrain(n) == "sea"
    )
    assert start.terrain_cost("nva_2", a, b) is None and start.may_enter_terrain("nva_2", a, b) == "YOTR-TEC"


def test_yotr_zoc_entering_stops_and_costs_extra():
    n = "1987"
    g = quiet({"nva_2": "1887", "arvn_mdw_1": "2087"})
    z = g.zoc("Allied")
    assert n in z and "1887" not in z
    reach = g.reachable("nva_2")
    assert g.move_cost("nva_2", n) == 2  # one clear hex + 1 to enter the zone (YOTR-ZOC-G)
    assert all(n not in g.path_to("nva_2", h)[1:-1] for h in reach)  # never through a zone


def test_yotr_zoc_g_leaving_costs_and_zoc_e_no_zone_to_zone():
    g = quiet({"nva_2": P, "arvn_mdw_1": "2087"})
    z = g.zoc("Allied")
    free = [n for n in g.data.adj[P] if n not in z and n != "2087"]
    zoned = [n for n in g.data.adj[P] if n in z]
    assert all(g.move_cost("nva_2", n) == 3 for n in free)  # 1 + 2 to leave the zone
    assert zoned and all(len(g.path_to("nva_2", n)) > 2 for n in zoned)  # only by a detour
    g.supply["nva_2"] = "isolated"
    g.touch()
    assert all(n not in g.reachable("nva_2") for n in zoned)
    before = g.digest()
    choose(g, "move_unit", unit="nva_2")
    mid = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_to", unit="nva_2", to=zoned[0]))
    assert err.value.rule_id == "YOTR-ZOC-E" and g.digest() == mid != before


def test_yotr_zoc_b_zones_reach_friendly_occupied_hexes_for_movement():
    g = quiet({"nva_2": "1787", "nva_3": "1988", "arvn_mdw_1": "2088"})
    assert "1988" in g.zoc("Allied")
    assert "1988" not in g.zoc_for_tracing("Allied")  # YOTR-ZOC-C: not for supply lines


def test_yotr_zoc_f1_no_zone_across_a_river(start):
    d = start.data
    a, b = _pair(
        d,
        lambda x, y, f: f == {"river"} and d.terrain(x) == d.terrain(y) == "clear" and d.country(x) == "SVN",
    )
    g = quiet({"rok_1": a}) if d.region(a) == "central_coast" else quiet({"arvn_mdw_1": a})
    assert b not in g.zoc("Allied")


def test_yotr_zoc_f2_usa_zones_only_after_a_usa_unit_is_attacked():
    g = quiet({"usa_1": P})
    assert not g.zoc("Allied")
    g.usa_zoc = True
    g.touch()
    assert set(g.zoc("Allied")) == set(g.data.adj[P])


def test_yotr_zoc_f3_arvn_zone_never_in_rough(start):
    d = start.data
    a, b = _pair(
        d,
        lambda x, y, f: (
            "road" in f
            and "river" not in f
            and d.terrain(x) == "clear"
            and d.terrain(y) == "rough"
            and d.country(x) == d.country(y) == "SVN"
        ),
    )
    g = quiet({"arvn_mdw_1": a})
    assert b not in g.zoc("Allied")
    g2 = quiet({"rok_1": a}) if d.region(a) == "central_coast" else None
    if g2:
        assert b in g2.zoc("Allied")


def test_yotr_mov_j_one_hex_always_possible():
    g = quiet({"nva_2": P}, turn=1)
    g.supply["nva_2"] = "isolated"
    g.touch()
    assert g.allowance("nva_2") == 3  # YOTR-MOV-L
    d = g.data
    a, b = _pair(d, lambda x, y, f: f == {"river"} and d.terrain(x) == "clear" and d.terrain(y) == "rough")
    put(g, "nva_2", a)
    assert g.terrain_cost("nva_2", a, b) == 5 and b in g.reachable("nva_2")


def test_yotr_mov_l_isolated_and_unsupplied_units_move_half():
    g = quiet({"nva_2": P, "rok_1": "6542"})
    g.supply.update({"nva_2": "isolated", "rok_1": "unsupplied"})
    g.touch()
    assert g.allowance("nva_2") == 3 and g.allowance("rok_1") == 3


def test_yotr_mov_s_allies_never_enter_north_vietnam(start):
    d = start.data
    a, b = next(
        (h, n)
        for h in sorted(d.hexes)
        if d.country(h) == "SVN" and d.terrain(h) == "clear"
        for n in d.adj[h]
        if d.country(n) == "NVN" and d.terrain(n) != "sea"
    )
    g = quiet({"arvn_qt_1": a}, phase="a_move")
    assert b not in g.reachable("arvn_qt_1")
    choose(g, "move_unit", unit="arvn_qt_1")
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_to", unit="arvn_qt_1", to=b))
    assert err.value.rule_id in ("YOTR-MOV-S", "YOTR-MOV-P") and g.digest() == before


def test_yotr_mov_s_rok_and_nlf_stay_in_their_region_and_usa_never_moves():
    g = quiet({"rok_1": "6542", "usa_1": "5217"}, phase="a_move")
    assert all(g.data.region(h) == "central_coast" for h in g.reachable("rok_1"))
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_unit", unit="usa_1"))
    assert err.value.rule_id == "YOTR-MOV-S" and g.digest() == before
    g = quiet({"nlf_4": P})
    assert all(g.data.region(h) == "mekong_west" for h in g.reachable("nlf_4"))


def test_yotr_mov_t_airmobile_hop_costs_three_plus_zone_costs():
    # EX-02: an airmobile unit in a besieged town flies out for 3 + 3 = 6 and can move no farther
    can_tho = "2383"
    nbr = g_nbr(can_tho)
    g = quiet({"arvn_sg_1": can_tho, "nva_2": nbr}, phase="a_move")
    assert can_tho in g.zoc("Communist") and g.besieged(can_tho)
    reach = g.reachable("arvn_sg_1")
    rach_gia = "1484"
    assert g.move_cost("arvn_sg_1", rach_gia) == 6
    assert not g.data.grid.distance(can_tho, rach_gia) == 1
    choose(g, "move_unit", unit="arvn_sg_1")
    rulings = choose(g, "move_to", unit="arvn_sg_1", to=rach_gia)
    assert rulings[0].rule_id == "YOTR-MOV-T"
    assert g.airlifts[can_tho] == 1
    put(g, "arvn_sg_2", can_tho)
    g.touch()
    assert rach_gia not in g.reachable("arvn_sg_2")  # one airmobile unit out of a besieged town per phase
    assert reach


def test_yotr_mov_c_one_unit_at_a_time_and_mov_g_never_twice():
    g = quiet({"nva_2": P, "nva_3": "1988"})
    choose(g, "move_unit", unit="nva_2")
    choose(g, "move_to", unit="nva_2", to="1986")
    assert g.loc["nva_2"] == "1986"
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_unit", unit="nva_2"))
    assert err.value.rule_id == "YOTR-MOV-G" and g.digest() == before


def test_yotr_mov_d_no_enemy_movement():
    g = quiet({"nva_2": P, "arvn_mdw_1": "2383"})
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_unit", unit="arvn_mdw_1"))
    assert err.value.rule_id == "YOTR-MOV-D" and g.digest() == before


def test_yotr_mov_b_movement_is_voluntary():
    g = quiet({"nva_2": P})
    choose(g, "done")
    assert g.loc["nva_2"] == P and g.phase.id != "c_move"


def test_yotr_mov_f_never_into_enemy_units():
    g = quiet({"nva_2": P, "arvn_mdw_1": "1887"})
    assert "1887" not in g.reachable("nva_2")
    choose(g, "move_unit", unit="nva_2")
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_to", unit="nva_2", to="1887"))
    assert err.value.rule_id == "YOTR-MOV-F" and g.digest() == before


def test_yotr_mov_m_communist_moves_are_hidden_from_the_allies():
    g = quiet({"nva_2": P})
    choose(g, "move_unit", unit="nva_2")
    rulings = choose(g, "move_to", unit="nva_2", to="1986")
    move = next(r for r in rulings if r.rule_id == "YOTR-MOV-M")
    masked = move.for_side("Allied")
    assert "nva_2" not in masked.explanation and "nva_2" not in masked.title and "nva_2" in move.title
    view = g.view("Allied").state
    assert not any(u["id"].startswith("nva") for u in view["units"])
    assert any(u["hex"] == "1986" and not u["face_up"] for u in view["units"])


def test_yotr_mov_n_no_stacking_limit():
    g = quiet({u: P for u in ("nva_1", "nva_2", "nva_3", "nva_4", "nva_5", "dummy_1")})
    assert len(g.units_at(P)) == 6 and not g.invariants()


def test_yotr_twn_c_militia_blocks_enemy_entry():
    an_loc = "3365"
    g = quiet({"nva_2": g_nbr(an_loc)})
    assert g.allied_militia(an_loc) == 1 and an_loc not in g.reachable("nva_2")


def g_nbr(h: str) -> str:
    from wargames.yotr.data import load_data

    d = load_data()
    return next(
        n for n in d.adj[h] if d.terrain(n) == "clear" and n not in d.towns and not d.side_has(h, n, "river")
    )


def test_yotr_twn_h_empty_zero_town_taken_by_moving_through():
    loc_ninh = "3363"
    start_hex = g_nbr(loc_ninh)
    g = quiet({"dummy_1": start_hex})
    assert g.data.towns[loc_ninh].intrinsic_strength == 0
    beyond = next(h for h in sorted(g.reachable("dummy_1")) if loc_ninh in g.path_to("dummy_1", h)[1:-1])
    choose(g, "move_unit", unit="dummy_1")
    via = {"via": loc_ninh} if beyond in g.path_choices("dummy_1") else {}  # D-67: the path through the town
    rulings = choose(g, "move_to", unit="dummy_1", to=beyond, **via)
    assert g.town[loc_ninh] == "nlf"  # YOTR-DUM-B: a dummy can do it (EX-28)
    assert any(r.rule_id == "YOTR-TWN-H" for r in rulings)
    assert g.vp == 1 and any(c.get("track") == "vp" for r in rulings for c in r.changes)


def test_yotr_dum_b_dummies_take_empty_zero_towns():
    test_yotr_twn_h_empty_zero_town_taken_by_moving_through()


def test_yotr_mov_c_destination_must_name_the_unit_being_moved():
    g = quiet({"nva_2": P})
    choose(g, "move_unit", unit="nva_2")
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_to", to="1986"))
    assert err.value.rule_id == "YOTR-MOV-C" and "nva_2" in str(err.value) and g.digest() == before


def test_yotr_zoc_f3_arvn_zone_reaches_clear_north_vietnam(start):
    # ZOC-F3 limits ARVN zones by terrain type only: a clear NVN hex next to an ARVN unit is in its zone, even
    # though Movement case S keeps the unit itself out of North Vietnam
    d = start.data
    a, b = next(
        (h, n)
        for h in sorted(d.hexes)
        if d.country(h) == "SVN" and d.terrain(h) == "clear"
        for n in d.adj[h]
        if d.country(n) == "NVN" and d.terrain(n) == "clear" and not d.side_has(h, n, "river")
    )
    g = quiet({"arvn_qt_1": a})
    assert b in g.zoc("Allied") and b not in g.reachable("arvn_qt_1")
    rough = [n for n in d.adj[a] if d.country(n) == "NVN" and d.terrain(n) in ("rough", "swamp")]
    assert not set(rough) & g.zoc("Allied")


def _loc_ninh_pair(d):
    """Two neighbours of Loc Ninh (strength 0) two hexes apart, with a clear way round the town."""
    town = "3363"
    ring = d.adj[town]
    for a in ring:
        for b in ring:
            common = [m for m in d.adj[a] if m in d.adj[b] and m != town]
            if (
                d.grid.distance(a, b) == 2
                and common
                and all(
                    not d.side_has(x, y, "river") and d.terrain(y) == "clear"
                    for x, y in ((a, town), (town, b), (a, common[0]), (common[0], b))
                )
            ):
                return town, a, b
    raise AssertionError("no pair")


def test_yotr_twn_h_the_player_traces_the_path_through_or_round_an_empty_town(start):
    # D-67: from one side of Loc Ninh (strength 0, empty) to the other there are two 2-MP paths, through the town
    # (taking it, Towns case H) or round it; both are offered, and the one chosen is the one followed
    d = start.data
    town, a, b = _loc_ninh_pair(d)
    g = quiet({"nva_2": a})
    choose(g, "move_unit", unit="nva_2")
    to_b = [x for x in g.legal_actions() if x.kind == "move_to" and x["to"] == b]
    assert sorted(x["via"] for x in to_b) == ["-", town]
    assert all(
        x.get("via") is None
        for x in g.legal_actions()
        if x.kind == "move_to" and x["to"] not in (b,) and x["to"] not in g.path_choices("nva_2")
    )
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("move_to", unit="nva_2", to=b))
    assert "D-67" in str(err.value) and g.digest() == before
    round_it = quiet({"nva_2": a})  # the same position again (edited positions do not branch)
    choose(round_it, "move_unit", unit="nva_2")
    rulings = choose(g, "move_to", unit="nva_2", to=b, via=town)
    assert g.town[town] == "nlf" and any(r.rule_id == "YOTR-TWN-H" for r in rulings)
    assert (
        g.loc["nva_2"] == b
        and "by way of" in next(r for r in rulings if r.rule_id == "YOTR-MOV-M").explanation
    )
    rulings = choose(round_it, "move_to", unit="nva_2", to=b, via="-")
    assert round_it.town[town] == "allied" and not any(r.rule_id == "YOTR-TWN-H" for r in rulings)
    assert round_it.loc["nva_2"] == b


def test_yotr_mov_a_a_routine_move_stays_one_destination_decision():
    # D-67: far from any town taken by passing, each destination is offered once, with no path choice
    g = quiet({"nva_2": P})
    choose(g, "move_unit", unit="nva_2")
    dests = [x["to"] for x in g.legal_actions() if x.kind == "move_to"]
    assert len(dests) == len(set(dests)) and g.path_choices("nva_2") == {}
