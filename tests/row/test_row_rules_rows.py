"""Rules-index rows of Rumor of War that had no test of their own: components (2.0-2.2), the Meeting Engagement
(5.2.2), US division cadres (9.4, R-CAD-01), when VPs are awarded (12.1.1), VC recruitment (13.1.2), replacements
(13.2), helicopter points and moves (14.1.2.1, 14.1.2.2)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from tests.row.test_row_hq import scene
from tests.row.test_row_politics import drive, game_with
from wargames.core.data import DataError
from wargames.row import hq
from wargames.row.cadres import cadre_trace
from wargames.row.hexmap import load_map
from wargames.row.tables import load_tables, tables
from wargames.row.units import load_units

M = load_map()


def _game(**kw):
    g = game_with(**kw)
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist(), g.setup_vc_cup()):
        drive(g, proc)
    return g


# ------------------------------------------------------------------------------------------ 2.0-2.2
def test_row_2_0_components_counters_map_tables_and_two_dice_types():
    u = load_units()
    kinds = {r.kind for r in u.values()}
    assert kinds == {"unit", "hq", "leader"}
    t = tables()
    assert {d.die for d in t.dice} == {
        "D6",
        "D10",
        "chit",
    }  # D6 and D10 only, or the die the chit names (2.0)
    assert len(M.hexes) > 4000


def test_row_2_1_hexes_of_ten_miles_between_known_places():
    hue, da_nang, saigon = (M.place_hex(p) for p in ("hue", "da_nang", "saigon"))
    assert M.distance(hue, da_nang) == 5  # about 53 miles
    assert 38 <= M.distance(hue, saigon) <= 44  # about 400 miles
    assert all(len(h) == 4 and h.isdigit() for h in M.hexes)


def test_row_2_2_charts_and_tables_are_sourced_data():
    t = tables()
    assert t.costs and t.planning and t.random_events and t.elimination
    with pytest.raises(DataError):
        load_tables("/nonexistent/dir")


# ------------------------------------------------------------------------------------------ 5.2.2
def test_row_5_2_2_meeting_engagement_is_resolved_at_once_and_never_exploits_early():
    s = scene()
    act = hq.Activation("Capitalist", "us_hq", step="initial", units=("us1",))
    decl = hq.declaration_options(act, s, "us1", Fraction(5), Fraction(0))
    me = next(o for o in decl if o["combat_type"] == "meeting_engagement")
    act2, r = hq.declare(act, s, me, Fraction(5), Fraction(0))
    assert r.result["resolve_now"] is True and "resolved now" in r.explanation
    hasty = next(o for o in decl if o["combat_type"] == "hasty")
    assert hq.declare(act, s, hasty, Fraction(5), Fraction(0))[1].result["resolve_now"] is False
    act2 = hq.Activation(
        "Capitalist", "us_hq", step="early_exploitation", units=("us1",), declared=act2.declared
    )
    assert hq.early_exploitation_units(act2, s) == []


# ------------------------------------------------------------------------------------------ 9.4
def test_row_9_4_cadre_within_four_hexes_pure_rule_r_cad_01():
    dn = M.place_hex("da_nang")
    far = next(h for h in sorted(M.hexes) if M.country(h) == "SVN" and M.distance(h, dn) == 6)
    near = next(h for h in sorted(M.hexes) if M.country(h) == "SVN" and M.distance(h, dn) == 4)
    assert cadre_trace(M, "3mardiv", [near], [dn]).result is True
    r = cadre_trace(M, "3mardiv", [far], [dn])
    assert r.result is False and "beyond 4" in r.explanation
    assert cadre_trace(M, "3mardiv", [far], [dn], fire_bases=[far]).result is True  # a Fire Base serves too
    assert cadre_trace(M, "3mardiv", [far], []).result is True  # no cadre left: the normal LoC rule


def test_row_9_4_in_the_game_a_marine_regiment_far_from_its_cadres_gets_no_support():
    g = _game()
    g.turn = 1
    far = "3856"  # Mo Duc lowland, far from Da Nang's cadre; the 3rd Marine Division's Chu Lai cadre is 3752
    g.place("us_3mar", far)
    unit = SimpleNamespace(uid="us_3mar")
    c = SimpleNamespace(key_units=lambda role: (unit,), attackers=lambda: (unit,))
    r = g.cadre_trace(c, "attacker", "3857")
    assert r.result is True  # Chu Lai (3752) is within 4 hexes of 3856
    g.place("us_3mardiv_cadre_cl", None, "replacements")
    r = g.cadre_trace(c, "attacker", "3857")
    assert r.result is False and r.rule_id == "ROW-9.4"
    # R-SCN-12: the 7th Marines count as the 3rd Marine Division's until turn 3
    assert g.division_of("us_7mar") == "3mardiv"
    g.turn = 3
    assert g.division_of("us_7mar") == "1mardiv"
    # ARVN and non-division units need no cadre
    arvn = SimpleNamespace(uid="arvn_1div")
    assert (
        g.cadre_trace(
            SimpleNamespace(key_units=lambda role: (arvn,), attackers=lambda: (arvn,)), "attacker", "2945"
        )
        is None
    )


# ------------------------------------------------------------------------------------------ 12.1.1, 13.1.2
def test_row_12_1_1_and_13_1_2_an_immediate_award_for_an_empty_vc_cup_once_a_segment():
    g = _game()
    g.turn = 1
    for u in [u for u, b in g.box.items() if b == "vc_cup"]:
        g.place(u, None, "destroyed")
    before = g.vp["us_unrest"]
    rs = drive(g, g.vc_recruitment())
    awards = [r for r in rs if r.rule_id == "ROW-12.1" and r.title == "Victory points"]
    # at once (12.1.1), once (R-GAME-16), the scenario's value (1 after R-WAR-45)
    assert len(awards) == 1 and g.vp["us_unrest"] == before + 1


def test_row_13_1_2_a_cadre_in_a_cultivated_hex_recruits_one_in_or_next_to_its_hex():
    g = _game()
    g.turn = 1
    cup = sum(1 for b in g.box.values() if b == "vc_cup")
    g.dice.force([1])
    seen = []

    def pick(d):
        seen.append(d)
        if d.options[0].kind == "recruit":
            return (
                d.options[0]
                if d.context.get("cadre", d.options[0]["cadre"]) == "vc_cadre_quang_tri"
                else d.options[1]
            )
        return d.options[0]

    rs = drive(g, g.vc_recruitment(), pick)
    got = [r for r in rs if r.title == "VC recruit"]
    assert len(got) == 1 and sum(1 for b in g.box.values() if b == "vc_cup") == cup - 1
    h = got[0].result["hex"]
    assert M.distance(h, g.pos["vc_cadre_quang_tri"]) <= 1


# ------------------------------------------------------------------------------------------ 13.2
def test_row_13_2_a_replacement_point_returns_one_unit_for_another_destroyed():
    g = _game()
    g.pools["Capitalist Replacements"] = 1
    for u in ("us_3mar", "arvn_51rgt"):
        g.place(u, None, "replacements")
    rs = drive(g, g.capitalist_replacements())
    assert g.pools["Capitalist Replacements"] == 0
    rep = next(r for r in rs if r.title == "Replacement")
    back = rep.result["returned"]
    # R-GAME-08: it comes back at once, fresh, on a friendly supply source of the owner's choice (13.1.1)
    assert g.pos[back] in g.map.supply_sources("capitalist") and g.fresh[back]
    assert g.box[rep.result["destroyed"]] == "destroyed"


def test_row_13_2_no_replacement_without_points_or_a_second_unit():
    g = _game()
    g.pools["Capitalist Replacements"] = 0
    g.place("us_3mar", None, "replacements")
    assert drive(g, g.capitalist_replacements()) == []


# ------------------------------------------------------------------------------------------ 14.1.2.1, 14.1.2.2
def test_row_14_1_2_1_helicopter_points_per_unit():
    u = load_units()
    created = [r for r in u.values() if r.has("created")]
    assert {r.helicopter_cost for r in created if r.nationality == "ARVN"} == {3}
    assert all(r.helicopter_cost in (1, 2) for r in created if r.nationality == "US")
    assert u["us_3mar"].helicopter_cost is None  # only created battalions fly (14.1.1)


def test_row_14_1_2_2_flights_start_on_the_creation_hex_reach_5_mp_and_avoid_enemy_hexes():
    g = _game()
    kid = next(k for k, r in g.rows.items() if r.parent == "us_3mar" and r.has("created"))
    g.place(kid, g.pos["us_3mar"])
    g.pools["Helicopter Used"] = 4
    opts = g._flights(kid)
    enemy = {h for u, h in g.pos.items() if g.side_of(u) == "Communist"}
    assert opts and all(0 < M.distance(g.pos[kid], a["to"]) <= 10 and a["to"] not in enemy for a in opts)
    assert all(a["cost"] == g.rows[kid].helicopter_cost for a in opts)
    g.pools["Helicopter Used"] = 1
    assert g._flights(kid) == []  # not enough points


# ------------------------------------------------------------------------------------------ 14.3
def test_row_14_3_active_capitalist_units_on_a_hidden_tunnel_cost_a_d6_of_casualties_r_tun_01():
    g = _game()
    g.turn = 1
    assert g.tunnels["3450"] == "Hidden"
    g.place("us_9mar", "3450")
    g.place("arvn_51rgt", "3450")
    g.dice.force([4, 3])
    rs = drive(
        g,
        g.tunnel_casualties(["us_9mar", "arvn_51rgt", "us_3mar"]),
        lambda d: d.options[0] if d.rule_id == "ROW-14.3" else d.options[-1],
    )
    rolls = [r for r in rs if r.title == "Tunnel casualties"]
    assert [(r.result["unit"], r.result["casualties"]) for r in rolls] == [("arvn_51rgt", 4), ("us_9mar", 3)]
    assert g.vp["casualties"] == 7
    g.tunnels["3450"] = "Discovered"
    assert drive(g, g.tunnel_casualties(["us_9mar"])) == []  # only Hidden tunnels


def test_row_14_3_the_communist_may_decline_the_roll():
    g = _game()
    g.place("us_9mar", "3450")
    before = g.vp["casualties"]
    drive(g, g.tunnel_casualties(["us_9mar"]), lambda d: d.options[-1])
    assert g.vp["casualties"] == before


def test_row_14_3_tunnels_are_built_in_a2c_for_1_next_to_a_tunnel_or_3_and_stay_hidden_r_tun_02():
    g = _game()
    g.turn = 1
    g.pools["Communist Supply"] = 6
    sites = dict(g.tunnel_sites())
    assert "3450" not in sites and all(
        not any(g.side_of(u) == "Capitalist" for u in g.at_hex[h]) for h in sites
    )
    offered = []

    def pick(d):
        if d.side == "Capitalist":
            return d.options[-1]
        tun = [a for a in d.options if a.kind == "buy" and a["item"].startswith("tunnel_")]
        offered.extend(tun)
        if not any(r.title == "Supply spent" for r in g.log[-3:]):
            return next(a for a in tun if a["item"] == "tunnel_adjacent")
        return d.options[-1]

    before = g.pools["Communist Supply"] + g.pools["Ho Chi Minh Trail Supply"]
    rs = drive(g, g.spend_supply(), pick)
    adj = next(a for a in offered if a["item"] == "tunnel_adjacent")
    assert M.distance(adj["hex"], "3450") == 1 or any(
        M.distance(adj["hex"], t) == 1 for t in g.tunnels if t != adj["hex"]
    )
    total = g.pools["Communist Supply"] + g.pools["Ho Chi Minh Trail Supply"]
    assert (
        g.tunnels[adj["hex"]] == "Hidden" and total == before - 1
    )  # outside the North: the trail's supply (7.2)
    assert all(a["amount"] == 3 for a in offered if a["item"] == "tunnel_isolated")
    spent = next(r for r in rs if r.title == "Supply spent")
    assert adj["hex"] not in spent.explanation and not spent.places  # the Capitalist does not learn where
    assert adj["hex"] not in g.public_state("Capitalist")["tunnels"]
