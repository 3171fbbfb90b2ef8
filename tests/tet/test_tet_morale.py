"""Phase 8, Morale (summary lines 62-63), and the victory check (line 20): digest worked cases 16-19, 38."""

from __future__ import annotations

from .conftest import put, tet_at


def _morale(losses=(), insurrection=(), scores=None):
    def edit(g):
        for u in losses:
            put(g, u, "casualties")
        g.insurrection.update(insurrection)
        if scores:
            g.score.update(scores)

    g = tet_at("p8", edit=edit)
    g.advance("phase")
    return g, {r.inputs["faction"]: r for r in g.log if r.title.endswith(" morale")}


def test_tet_p8_1_one_point_per_lost_factor_and_casualties_eliminated():
    g, r = _morale(losses=["nva_304", "vc_i_01"])
    assert r["NVA"].result["change"] == 30 and r["VC"].result["change"] == 10
    assert g.loc["nva_304"] == "eliminated" and g.loc["vc_i_01"] == "eliminated"


def test_tet_p8_1_sapper_counts_its_defense_factor():
    """Digest case 9: a lost 4(1) sapper costs 1, not 4."""
    g, r = _morale(losses=["vc_i_10"])
    assert r["VC"].result["change"] == 1


def test_tet_p8_3_svn_white_letter_units_cost_nothing():
    """Digest case 17: ARVN regiment 4 + Ranger 3 + Ruff Puff 5, two cities in insurrection (PV 3 + 4)."""
    g0, _ = _morale()
    rp5 = next(u.id for u in g0.data.units.values() if u.type == "ruff_puff" and u.cf == 5)
    arvn = g0.unit("arvn_4").cf
    assert g0.unit("rgr_37").white_letters and arvn > 0
    g, r = _morale(losses=["arvn_4", "rgr_37", rp5], insurrection=["quang_ngai", "qui_nhon"])
    pv = g.data.areas["quang_ngai"].pv + g.data.areas["qui_nhon"].pv
    assert r["SVN"].result["change"] == arvn + 0 + 0 + pv


def test_tet_p8_4_insurrection_costs_both_allied_factions_every_turn():
    g, r = _morale(insurrection=["hue"])
    pv = g.data.areas["hue"].pv
    assert r["USA"].result["change"] == pv and r["SVN"].result["change"] == pv
    assert r["NVA"].result["change"] == 0


def test_tet_p8_5_australians_24_and_koreans_one_per_two_factors():
    """Digest cases 16 and 18: the Australian counter costs 24; Korean factors 1 per 2, fractions dropped."""
    g, r = _morale(losses=["aus_1atf"])
    assert r["USA"].result["change"] == 24
    g, r = _morale(losses=["rok_cav"])  # 6 factors
    assert r["USA"].result["change"] == 3
    assert g.morale_losses(["rok_cav", "rok_1", "rok_26"])["USA"]["korean_points"] == 9


def test_tet_p8_6_us_recovers_one_per_six_communist_factors():
    """Digest case 19: 5 lost -> 0, 12 -> 2, 17 -> 2."""
    for lost, heal in ((["vc_i_03"], 1), (["vc_i_01", "vc_i_04"], 2), (["vc_i_01", "vc_i_05"], 2)):
        g, r = _morale(losses=lost)
        assert r["USA"].result["change"] == -heal


def test_tet_aim_2_both_enemy_factions_demoralized_ends_the_game():
    """Digest case 38: NVA 131, VC 130 at the end of a Morale phase: the Allies win at once."""
    g, _ = _morale(scores={"NVA": 131, "VC": 130, "USA": 90, "SVN": 40})
    assert g.is_over and g.result.rule_id == "TET-AIM-2" and g.result.result["winner"] == "Allied"
    assert g.turn == 1


def test_tet_aim_2_one_broken_faction_is_not_enough():
    g, _ = _morale(scores={"NVA": 131})
    assert not g.is_over
    assert any(r.rule_id == "TET-AIM-2" and "NVA demoralized" in r.explanation for r in g.log)
