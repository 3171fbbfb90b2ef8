"""Unit classes, set-up order, scoring and the map's Highway (summary lines 11-21, 24, 62)."""

from __future__ import annotations

import networkx as nx

import wargames
from wargames.tet.data import load_data

from .conftest import put, tet_at


def test_tet_map_7_highway_links_the_road_cities():
    data = load_data()
    road = data.map.graph(("road",))
    cities = [a.id for a in data.areas.values() if a.kind == "city" and a.on_road]
    assert len(cities) >= 30 and nx.is_connected(road.subgraph(cities))
    assert all(data.areas[x].on_road for e in data.map.edges if e[2] == "road" for x in e[:2])


def test_tet_unit_6_nva_are_theater_units_that_change_corps_through_laos():
    g = tet_at("p1", edit=lambda g: put(g, "nva_r01", "15", face_up=False))
    assert "LA3" in g.destinations("nva_r01")  # no Corps limit, only the boundary rule (TET-P1-4)
    g2 = tet_at("p1", edit=lambda g: put(g, "nva_r01", "LA3", face_up=False))
    assert "21" in g2.destinations("nva_r01")  # and back into II Corps


def test_tet_unit_7_large_units_move_in_phases_four_and_seven():
    g = tet_at("p4", turn=2, players={"Allied": None})
    large = {a["unit"] for a in g.legal_actions() if a.kind == "select"}
    assert large and all(g.unit(u).size == "large" for u in large)
    g7 = tet_at("p7", turn=3, players={"Allied": None})
    movers = {a["unit"] for a in g7.legal_actions() if a.kind == "select"}
    assert large & movers and any(g7.unit(u).size != "large" for u in movers)


def test_tet_unit_9_white_letter_units_cost_svn_nothing():
    g = wargames.load("tet", seed=1)
    assert g.loss_value("rgr_37") == 0 and g.loss_value("mf_i") == 0
    assert g.loss_value("arvn_4") == g.unit("arvn_4").cf > 0


def test_tet_unit_10_recce_have_no_combat_factor_and_cannot_be_fired_on():
    g = wargames.load("tet", seed=1)
    recce = [u for u in g.data.units.values() if u.type == "recce"]
    assert len(recce) == 4 and all(u.cf == 0 for u in recce)
    assert not any(g.can_be_target(u.id) or g.can_fire(u.id) for u in recce)


def test_tet_aim_1_losses_and_cities_move_the_tracks():
    g = tet_at("p8", edit=lambda g: (put(g, "nva_r01", "casualties"), g.insurrection.add("hue")))
    g.advance("phase")
    pv = g.data.areas["hue"].pv
    assert g.score["NVA"] == 8 and g.score["SVN"] == pv
    assert g.score["USA"] == pv - 1  # Hue in insurrection, less 1 for the 8 NVA factors lost (TET-P8-6)


def test_tet_setup_0_allies_then_ruff_puffs_then_communists():
    g = wargames.load("tet", seed=1)
    order = [r.rule_id for r in g.log if r.turn == 0 and r.step != "phase"]
    assert order == ["TET-SETUP-1", "TET-SETUP-2", "TET-SETUP-3"]


def test_tet_p8_2_tracks_are_plain_integers_that_may_go_below_zero():
    g = tet_at("p1", edit=lambda g: g.score.update(VC=-3))
    assert g.scores()["VC"] == -3 and all(isinstance(v, int) for v in g.scores().values())


def test_tet_aim_1_demoralized_factions_keep_playing():
    """Decision D-19: a demoralized VC still moves, and play goes on while its partner holds."""
    g = tet_at("p8", turn=2, edit=lambda g: g.score.update(VC=200))
    g.advance("phase")
    assert not g.is_over and g.demoralized()["VC"]
    verdict = next(r for r in reversed(g.log) if r.rule_id == "TET-AIM-2")
    assert "keeps playing" in verdict.explanation
    g = tet_at("p1", turn=3, edit=lambda g: g.score.update(VC=200), players={"Communist": None})
    assert any(g.unit(a["unit"]).faction == "VC" for a in g.legal_actions() if a.kind == "move")


def test_tet_unit_7_large_units_second_move_in_phase_7():
    """L14 with L58 (decisions A-26, D-20): mech/cav, riverine and battleship move again in phase 7; the aircraft
    only fly home."""
    g = tet_at("p4", turn=3, players={"Allied": None})
    g.apply(wargames.core.Action.make("select", unit="us_1_69ar"))
    g.apply(next(a for a in g.legal_actions() if a.kind == "allied_move"))
    while not (g.phase.id == "p7" and g.decision and g.decision.rule_id == "TET-P7-1"):
        g.advance("decision") if g.decision is None else g.apply(g.legal_actions()[-1])
    movers = {a.get("unit") for a in g.legal_actions() if a.kind == "select"}
    assert {"us_1_69ar", "us_mrf", "us_bb"} <= movers
    assert not any(g.unit(u).type in ("heli", "tac_air", "arc_light") for u in movers)
