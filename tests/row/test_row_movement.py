"""Rumor of War movement (ROW-4.1 - ROW-4.5, ROW-4.7, ROW-4.8) and the movement limits of the HQ missions (ROW-9.5).

Hexes are found on the reconstructed map by their properties (terrain, hexside features), so the tests follow the map
if it is rebuilt; the costs asserted are those of the reconstructed Terrain Effects Chart (data/row/map/tec.csv,
decision R-MAP-15) and of decision R-MOV-01.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from wargames.core import IllegalAction
from wargames.row import movement
from wargames.row.hexmap import load_map
from wargames.row.pieces import Piece, Situation

M = load_map()


def first(pred):
    for a in sorted(M.hexes):
        for b in M.adj[a]:
            if pred(a, b):
                return a, b
    raise AssertionError("no such hexes on the map")


def plain(terrain, country="SVN"):
    return first(
        lambda a, b: (
            not M.side_features(a, b)
            and M.hex(a).kind != "sea"
            and M.terrain(b) == terrain
            and not M.settlement(b)
            and M.country(a) == country
            and M.country(b) == country
        )
    )


def unit(uid, hex_, side="Capitalist", nat=None, **kw):
    nat = nat or ("ARVN" if side == "Capitalist" else "PAVN")
    return Piece(uid, side, nat, hex_, **kw)


def cost(side, a, b):
    c, _ = movement.step_cost(M, side, a, b)
    return None if c is None else Fraction(c, movement.TICKS)


# ------------------------------------------------------------------------------------------ 4.0 kinds of movement
def test_row_4_0_each_kind_of_movement_has_its_rule_and_allowance():
    want = {
        "initial": ("ROW-4.5", 5, True),
        "reserve": ("ROW-4.7", 5, True),
        "reserve_hq": ("ROW-4.7", 5, False),
        "early_exploitation": ("ROW-4.8", 3, False),
        "exploitation": ("ROW-4.8", 0, False),
        "strategic": ("ROW-4.4", 10, False),
        "strategic_hq": ("ROW-4.4", 10, False),
        "hq": ("ROW-4.5", 10, False),
    }
    assert {k: (m.rule_id, m.mp, m.one_hex_minimum) for k, m in movement.MODES.items()} == want


# ------------------------------------------------------------------------------------------ 4.1 terrain costs
@pytest.mark.parametrize(
    "terrain,cap,com",
    [("clear", 1, 1), ("cultivated", 2, 1), ("jungle", 2, 1), ("mountain", 3, 2), ("swamp", 3, 2)],
)
def test_row_4_1_terrain_costs_differ_by_side(terrain, cap, com):
    a, b = plain(terrain)
    assert cost("Capitalist", a, b) == cap
    assert cost("Communist", a, b) == com


def test_row_4_1_road_hexside_costs_one_whatever_the_terrain():
    a, b = first(
        lambda a, b: M.side_features(a, b) == {"road"} and M.terrain(b) == "mountain" and not M.settlement(b)
    )
    assert cost("Capitalist", a, b) == 1 and cost("Communist", a, b) == 1


def test_row_4_1_trail_costs_the_communist_one_and_the_capitalist_the_terrain():
    a, b = first(
        lambda a, b: M.side_features(a, b) == {"trail"} and M.terrain(b) == "mountain" and not M.settlement(b)
    )
    assert cost("Communist", a, b) == 1
    assert cost("Capitalist", a, b) == 3


def test_row_4_1_river_adds_one_and_a_bridge_does_not():
    a, b = first(
        lambda a, b: M.side_features(a, b) == {"river"} and M.terrain(b) == "jungle" and not M.settlement(b)
    )
    assert cost("Capitalist", a, b) == 3 and cost("Communist", a, b) == 2
    a, b = first(lambda a, b: "bridge" in M.side_features(a, b) and not M.settlement(b))
    assert cost("Capitalist", a, b) == 1  # along the road, over the bridge


def test_row_4_1_town_and_city_hexes_ignore_the_terrain():
    a, b = first(
        lambda a, b: (
            not M.side_features(a, b)
            and M.settlement(b) == "town"
            and M.terrain(b) in ("jungle", "mountain", "swamp")
            and M.hex(a).kind != "sea"
        )
    )
    assert cost("Capitalist", a, b) == 1


def test_row_4_1_all_sea_hexes_are_closed():
    a, b = first(lambda a, b: M.hex(a).kind != "sea" and M.hex(b).kind == "sea")
    assert cost("Capitalist", a, b) is None
    u = unit("u", a)
    with pytest.raises(IllegalAction, match="ROW-14.6"):
        movement.check_move(u, Situation.of([u]), [a, b], "initial")


def test_row_4_1_every_offered_path_is_legal_and_costs_what_it_says():
    a, _ = plain("jungle")
    u = unit("u", a)
    s = Situation.of([u, unit("e", M.adj[M.adj[a][0]][0], side="Communist")])
    r = movement.reachable(u, s, "initial")
    assert r.ends
    for h in r.ends:
        ruling = movement.check_move(u, s, r.path(h), "initial")
        assert ruling.result["mp_spent"] == r.mp_spent(h) <= 5
        assert ruling.rule_id == "ROW-4.5"


def test_row_4_1_one_hex_minimum_move():
    a, b = plain("mountain")
    u = unit("u", a)
    s = Situation.of([u])
    # with only 2 MP (an allowance given for the test) the 3-MP mountain hex is open by the one-hex minimum only
    r = movement.reachable(u, s, "initial", mp=2)
    assert b in r.one_hex and r.path(b) == (a, b)
    ok = movement.check_move(u, s, [a, b], "initial", mp=2)
    assert ok.result["one_hex_minimum"] is True and ok.result["mp_left"] == 0
    # not after other movement, not in exploitation movement, never two hexes
    with pytest.raises(IllegalAction, match="ROW-4.1"):
        movement.check_move(u, s, [a, b], "initial", mp=2, mp_spent=Fraction(1))
    with pytest.raises(IllegalAction, match="no one-hex minimum in exploitation"):
        movement.check_move(u, s, [a, b], "exploitation", mp=2)


def test_row_4_1_one_hex_minimum_never_from_enemy_zoc_to_enemy_zoc():
    a, b = plain("mountain")
    # an enemy unit adjacent to both a and b puts both in its ZoC
    common = [h for h in M.adj[a] if h in M.adj[b] and M.hex(h).kind != "sea"][0]
    u = unit("u", a)
    s = Situation.of([u, unit("e", common, side="Communist")])
    assert b not in movement.reachable(u, s, "initial", mp=2).ends
    with pytest.raises(IllegalAction, match="from one enemy ZoC to another"):
        movement.check_move(u, s, [a, b], "initial", mp=2)


def test_row_4_1_bad_input_is_refused():
    a, b = plain("jungle")
    u = unit("u", a)
    s = Situation.of([u])
    with pytest.raises(IllegalAction, match="ROW-4.1"):
        movement.reachable(u, s, "teleport")
    with pytest.raises(IllegalAction, match="not adjacent"):
        far = M.within(a, 3)[-1]
        movement.check_move(u, s, [a, far], "initial")
    with pytest.raises(IllegalAction, match="must start at its hex"):
        movement.check_move(u, s, [b, a], "initial")
    with pytest.raises(IllegalAction, match="for HQs"):
        movement.reachable(u, s, "hq")


def test_row_4_1_enemy_units_block_and_enemy_hqs_are_routed():
    a, b = plain("jungle")
    u = unit("u", a)
    e = unit("e", b, side="Communist")
    with pytest.raises(IllegalAction, match="enemy"):
        movement.check_move(u, Situation.of([u, e]), [a, b], "initial")
    hq = Piece("h", "Communist", "PAVN", b, kind="hq")
    r = movement.check_move(u, Situation.of([u, hq]), [a, b], "initial")
    assert r.result["routs"] == ("h",)


def test_row_4_1_whole_map_search_is_fast():
    movement.search(
        M, "Communist", "1513", None, allowed=frozenset(M.hexes)
    )  # builds the per-side edges once
    best = 1.0
    for _ in range(3):  # the best of three, so a busy machine does not fail the test
        t = time.perf_counter()
        costs, _ = movement.search(M, "Communist", "1513", None, allowed=frozenset(M.hexes))
        best = min(best, time.perf_counter() - t)
    assert best < 0.05
    assert len(costs) > 2000


# ------------------------------------------------------------------------------------------ 4.3 ZoC
def test_row_4_3_entering_an_enemy_zoc_costs_one_more_unless_a_friendly_unit_is_there():
    a, b = plain("jungle")
    beyond = [h for h in M.adj[b] if h != a and h not in M.adj[a] and M.hex(h).kind != "sea"][0]
    u = unit("u", a)
    e = unit("e", beyond, side="Communist")
    r = movement.check_move(u, Situation.of([u, e]), [a, b], "initial")
    assert r.result["mp_spent"] == 3 and r.result["zoc_entered"] == (b,)
    friend = unit("f", b)
    r = movement.check_move(u, Situation.of([u, e, friend]), [a, b], "initial")
    assert r.result["mp_spent"] == 2 and r.result["zoc_entered"] == ()


# ------------------------------------------------------------------------------------------ 4.4 strategic
def test_row_4_4_strategic_movement_communist_fresh_10_mp_never_in_enemy_zoc():
    a, _ = plain("jungle")
    p = unit("p", a, side="Communist")
    s = Situation.of([p])
    r = movement.reachable(p, s, "strategic")
    assert max(r.costs.values()) <= 10 * movement.TICKS and max(r.costs.values()) > 5 * movement.TICKS
    with pytest.raises(IllegalAction, match="only the Communist"):
        movement.reachable(unit("c", a), Situation.of([unit("c", a)]), "strategic")
    spent = unit("q", a, side="Communist", fresh=False)
    with pytest.raises(IllegalAction, match="fresh"):
        movement.reachable(spent, Situation.of([spent]), "strategic")
    # an enemy unit two hexes away: the ZoC hexes around it are never entered, and starting in a ZoC is refused
    b = [h for h in M.adj[a] if M.country(h) == "SVN"][0]
    c = [h for h in M.adj[b] if h != a and h not in M.adj[a] and M.country(h) == "SVN"][0]
    s = Situation.of([p, unit("e", c)])
    r = movement.reachable(p, s, "strategic")
    assert b not in r.ends
    with pytest.raises(IllegalAction, match="ROW-4.4"):
        movement.check_move(p, s, [a, b], "strategic")
    # an ARVN unit projects no ZoC outside South Vietnam (14.6.2), so only South Vietnamese hexes matter here
    s = Situation.of([p, unit("e", b)])
    with pytest.raises(IllegalAction, match="starts in an enemy ZoC"):
        movement.reachable(p, s, "strategic")
    # Infiltrate: Communist units ignore enemy ZoC for movement (R-MOV-07)
    assert movement.reachable(p, s, "strategic", mission="infiltrate").ends


# ------------------------------------------------------------------------------------------ 4.5 / 4.7 / 4.8
def test_row_4_5_initial_movement_5_mp_and_hq_movement_10_mp():
    a, _ = plain("clear")
    u = unit("u", a)
    hq = Piece("h", "Capitalist", "ARVN", a, kind="hq")
    s = Situation.of([u, hq])
    assert max(movement.reachable(u, s, "initial").costs.values()) <= 5 * movement.TICKS
    hq_costs = movement.reachable(hq, s, "hq").costs.values()
    assert 5 * movement.TICKS < max(hq_costs) <= 10 * movement.TICKS
    opts = movement.move_options(u, s, "initial")
    assert opts[-1].kind == "stay" and all(o.kind == "move" for o in opts[:-1])


def test_row_4_7_reserve_units_and_hq_may_not_start_in_an_enemy_zoc():
    a, b = plain("jungle")
    u = unit("u", a)
    hq = Piece("h", "Capitalist", "ARVN", a, kind="hq")
    free = Situation.of([u, hq])
    assert movement.reachable(u, free, "reserve").ends
    assert max(movement.reachable(hq, free, "reserve_hq").costs.values()) <= 5 * movement.TICKS  # R-HQ-02
    s = Situation.of([u, unit("e", b, side="Communist")])
    with pytest.raises(IllegalAction, match="ROW-4.7"):
        movement.reachable(u, s, "reserve")
    s = Situation.of([hq, unit("e", b, side="Communist")])
    with pytest.raises(IllegalAction, match="ROW-4.7"):
        movement.reachable(hq, s, "reserve_hq")
    # a friendly unit in the HQ's hex negates the enemy ZoC there (4.3)
    assert movement.reachable(hq, Situation.of([hq, u, unit("e", b, side="Communist")]), "reserve_hq").ends


def test_row_4_8_early_exploitation_3_mp_never_entering_an_enemy_zoc():
    a, b = plain("clear")
    c = [h for h in M.adj[b] if h != a and h not in M.adj[a] and M.hex(h).kind != "sea"][0]
    u = unit("u", a)
    s = Situation.of([u, unit("e", c, side="Communist")])
    r = movement.reachable(u, s, "early_exploitation")
    assert b not in r.ends and max(r.costs.values()) <= 3 * movement.TICKS
    with pytest.raises(IllegalAction, match="ROW-4.8"):
        movement.check_move(u, s, [a, b], "early_exploitation")
    # exploitation after combat: the chit's Adv MP, ZoC costs +1 as usual
    r = movement.check_move(u, s, [a, b], "exploitation", mp=2)
    assert r.result["mp_spent"] == 2 and r.rule_id == "ROW-4.8"


# ------------------------------------------------------------------------------------------ 9.5 mission limits
def test_row_9_5_hearts_and_minds_and_evade_limit_movement():
    a, b = plain("clear")
    c = [h for h in M.adj[b] if h != a and h not in M.adj[a] and M.hex(h).kind != "sea"][0]
    u = unit("u", a)
    s = Situation.of([u, unit("e", c, side="Communist")])
    assert b in movement.reachable(u, s, "initial").ends
    assert b not in movement.reachable(u, s, "initial", mission="hearts_and_minds").ends
    with pytest.raises(IllegalAction, match="ROW-9.5"):
        movement.check_move(u, s, [a, b], "initial", mission="hearts_and_minds")
    p = unit("p", a, side="Communist", nat="VC")
    s = Situation.of([p, unit("e", c)])
    assert b not in movement.reachable(p, s, "initial", mission="evade").ends
    with pytest.raises(IllegalAction, match="Evade"):
        movement.check_move(p, s, [a, b], "initial", mission="evade")


# ------------------------------------------------------------------------------------------ 4.2 stacking
def test_row_4_2_one_spent_unit_per_hex_fresh_and_us_battalions_free():
    a, _ = plain("clear")
    s = Situation.of(
        [
            unit("x", a, fresh=False),
            unit("y", a, fresh=False),
            unit("z", a),
            Piece("b1", "Capitalist", "US", a, unit_type="battalion", fresh=False),
            Piece("b2", "Capitalist", "US", a, unit_type="battalion", fresh=False),
        ]
    )
    r = movement.stacking_check(s, "Capitalist")
    assert r.result == {a: ["x", "y"]} and r.rule_id == "ROW-4.2"
    opts = movement.stacking_options(s, "Capitalist")
    assert [o["unit"] for o in opts] == ["x", "y"]
    ok = Situation.of([unit("x", a, fresh=False), unit("z", a), unit("w", a)])
    assert movement.stacking_check(ok, "Capitalist").result == {}
    assert movement.stacking_options(ok, "Capitalist") == []


def test_row_4_2_units_in_tunnels_do_not_count():
    a, _ = plain("clear")
    s = Situation.of(
        [
            unit("x", a, side="Communist", fresh=False),
            unit("y", a, side="Communist", fresh=False, in_tunnel=True),
        ]
    )
    assert movement.stacking_check(s, "Communist").result == {}


def test_row_4_1_special_forces_never_move():
    a, _ = plain("clear")
    sf = Piece("sf", "Capitalist", "US", a, unit_type="battalion", special_forces=True)
    with pytest.raises(IllegalAction, match="ROW-14.1.5"):
        movement.reachable(sf, Situation.of([sf]), "initial")
