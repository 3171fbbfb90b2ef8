"""Air and naval bombardment, Pinned and Disrupted, recovery (YOTR-BMB, YOTR-SOP-A4)."""

from __future__ import annotations

import re

from wargames.yotr.bombardment import brt_column, sea_distance
from wargames.yotr.data import BRT_COLUMNS, load_data

from .conftest import choose, clear, put, yotr_at

D = load_data()
P = "1987"
BRT_TEXT = """\
1,P,D,D,D,D,E,E,E
2,P,P,D,D,D,D,D,D
3,NE,P,P,P,D,D,D,D"""
COAST = next(
    h
    for h in sorted(D.hexes)
    if D.terrain(h) == "clear" and D.country(h) == "SVN" and h not in D.towns and sea_distance().get(h) == 1
)


def position(units: dict[str, str], phase: str = "a_bomb", **kw):
    def edit(g):
        clear(g)
        for u, h in units.items():
            put(g, u, h)

    return yotr_at(phase, edit=edit, **kw)


def test_yotr_bmb_brt_rows_one_to_three_match_the_text():
    for line in BRT_TEXT.splitlines():
        die, *cells = line.split(",")
        for col, cell in zip(BRT_COLUMNS, cells, strict=True):
            assert D.brt[(int(die), col)] == cell
    assert D.brt_reconstructed_rows == {4, 5, 6}  # D-09
    assert brt_column(16) == "10" and brt_column(7) == "6-7" and brt_column(0) is None  # D-10


def test_yotr_bmb_f_at_most_half_the_air_points_on_one_hex():
    g = position({"nva_2": P})
    assert g.air == 13
    pts = [a["points"] for a in g.legal_actions() if a.kind == "air" and a["hex"] == P]
    assert max(pts) == 6  # EX-06


def test_yotr_bmb_e_points_split_freely():
    g = position({"nva_2": P, "nva_3": "1784"})
    choose(g, "air", hex=P, points=6)
    assert not any(a.kind == "air" and a["hex"] == P for a in g.legal_actions())
    assert max(a["points"] for a in g.legal_actions() if a.kind == "air" and a["hex"] == "1784") == 6
    rulings = choose(g, "air", hex="1784", points=6)
    assert sum(r.rule_id == "YOTR-BMB-PROC" for r in rulings) == 2  # one point left but no hex has room


def test_yotr_bmb_proc_clear_hex_doubles_one_roll_per_counter():
    # EX-30: 6 air + naval 2 on a clear coastal hex with 3 counters: 16 effective, column 10, three rolls
    g = position({"nva_1": COAST, "nva_2": COAST, "dummy_1": COAST}, dice=[3, 2, 1])
    assert g.naval == 1
    rulings = choose(g, "naval", hex=COAST) + choose(g, "air", hex=COAST, points=6)
    head = next(r for r in rulings if r.rule_id == "YOTR-BMB-PROC")
    assert head.result == {"hex": COAST, "effective": 16, "column": "10"}
    rolls = [r for r in rulings if r.rule_id == "YOTR-BMB-BRT"]
    assert [r.result["brt"] for r in rolls] == ["D", "D", "E"]
    assert (
        g.loc["nva_1"] == "eliminated" or g.loc["dummy_1"] == "eliminated" or g.loc["nva_2"] == "eliminated"
    )
    assert "nva_" not in rolls[0].for_side("Allied").explanation  # D-11: the Allies do not learn what was hit


def test_yotr_tec_5_bombardment_doubles_only_in_clear():
    assert yotr_at("a_bomb").bombardment_multiplier(P) == 2
    rough = next(h for h in sorted(D.hexes) if D.terrain(h) == "rough")
    assert yotr_at("a_bomb").bombardment_multiplier(rough) == 1
    assert yotr_at("a_bomb").bombardment_multiplier("2383") == 1  # a town


def test_yotr_bmb_naval_marker_two_adjacent_one_at_two_hexes():
    two = next(h for h in sorted(D.hexes) if sea_distance().get(h) == 2 and D.country(h) == "SVN")
    g = position({"nva_2": COAST, "nva_3": two, "nva_4": P})
    naval = {a["hex"]: a.label for a in g.legal_actions() if a.kind == "naval"}
    assert COAST in naval and two in naval and P not in naval
    assert naval[COAST].endswith("(2)") and naval[two].endswith("(1)")


def test_yotr_bmb_d_air_strikes_anywhere():
    g = position({"nva_2": "2710"})
    assert any(a.kind == "air" and a["hex"] == "2710" for a in g.legal_actions())


def test_yotr_bmb_g_supply_units_not_bombarded():
    g = position({})
    assert any(g.is_supply_unit(u) for u in g.on_map("Communist"))
    assert g.bomb_targets() == []  # only supply units are left on the map
    assert g.decision is None or g.decision.rule_id != "YOTR-BMB-E"


def test_yotr_bmb_h_air_points_are_never_lost():
    g = position({"nva_2": P}, dice=[6])
    rulings = choose(g, "air", hex=P, points=6)
    assert any(r.rule_id == "YOTR-BMB-PROC" for r in rulings)
    assert g.air == sum(
        r.attack for r in D.oob.values() if r.unit_type == "air_points" and (r.turn or 0) <= g.turn
    )


def test_yotr_bmb_a_militia_never_bombarded():
    g = position({})
    g.town["2383"] = "nlf"
    assert "2383" not in g.bomb_targets()


def test_yotr_sop_b3a_targets_are_communist_occupied_hexes():
    g = position({"nva_2": P, "arvn_mdw_1": "2383"})
    assert {a["hex"] for a in g.legal_actions() if a.kind in ("air", "naval")} == {P}


def test_yotr_sop_b3b_each_hex_resolved_and_d_07_pinned_may_not_move():
    g = position({"nva_2": P}, dice=[1])  # 6 x 2 = 12: column 10, die 1: E? row 1 col 10 = E
    choose(g, "air", hex=P, points=3)  # 3 x 2 = 6: column 6-7, die 1: E
    choose(g, "done")
    assert g.loc["nva_2"] == "eliminated"
    g = position({"nva_2": P}, dice=[3])
    choose(g, "air", hex=P, points=1)  # 2: column 2, die 3: P
    rulings = choose(g, "done")
    assert next(r for r in rulings if r.rule_id == "YOTR-BMB-BRT").result["brt"] == "P"
    g.pinned.add("nva_2")
    assert g.why_cannot_move("nva_2")[0] == "YOTR-BMB-BRT"


def test_yotr_sop_a4_pinned_removed_disrupted_recover_on_one_to_three():
    def edit(g):
        clear(g)
        put(g, "nva_2", P)
        put(g, "nva_3", P)
        put(g, "nva_4", P)
        g.pinned.add("nva_2")
        g.disrupted.update({"nva_3", "nva_4"})

    g = yotr_at("c_recovery", turn=1, edit=edit, dice=[3, 4])
    assert not g.pinned and g.disrupted == {"nva_4"}  # EX-17


def test_yotr_bmb_brt_disrupted_may_not_move_or_attack():
    def edit(g):
        clear(g)
        put(g, "nva_2", P)
        put(g, "arvn_mdw_1", D.adj[P][0])
        g.disrupted.add("nva_2")

    g = yotr_at("c_combat", edit=edit, dice=[6])  # no attack is offered; the recovery roll of 6 fails
    assert not any(r.rule_id == "YOTR-CBT-CRT" for r in g.log)
    assert "nva_2" in g.disrupted and not g.may_attack("nva_2")
    assert g.why_cannot_move("nva_2")[0] == "YOTR-BMB-BRT"


def test_yotr_dum_a_dummy_takes_pinned_or_disrupted_like_a_unit_and_the_allies_see_no_difference():
    """YOTR-DUM with YOTR-BMB-BRT (decision D-70, replacing the 'does nothing' of D-11): 6 air points doubled in
    clear terrain use column 10, where dice 3 and 2 are both D.  The dummy is marked and held like the unit,
    and the Allied view of the two counters and of the two rolls is the same."""
    g = position({"nva_1": COAST, "dummy_1": COAST}, dice=[3, 2, 6, 6])  # both recovery rolls then fail
    rulings = choose(g, "air", hex=COAST, points=6) + choose(g, "done")
    rolls = {r.result["unit"]: r for r in rulings if r.rule_id == "YOTR-BMB-BRT"}
    assert rolls["dummy_1"].result["brt"] == "D" and rolls["nva_1"].result["brt"] == "D"
    assert {"dummy_1", "nva_1"} <= g.disrupted
    recovery = [r for r in rulings if r.rule_id == "YOTR-SOP-A4" and "die" in (r.result or {})]
    assert len(recovery) == 2  # one recovery roll for each marked counter, the dummy's too
    assert g.why_cannot_move("dummy_1") == g.why_cannot_move("nva_1")
    seen = [u for u in g.public_state("Allied")["units"] if u["hex"] == COAST and u["side"] == "Communist"]
    assert len(seen) == 2 and all(u["markers"] == ["D"] for u in seen)
    assert {k: v for k, v in seen[0].items() if k != "id"} == {k: v for k, v in seen[1].items() if k != "id"}
    texts = [rolls[u].for_side("Allied").explanation for u in ("nva_1", "dummy_1")]
    shape = [re.sub(r"\d+", "#", t.replace(COAST, "hex")) for t in texts]  # die and counter number aside
    assert "dummy" not in " ".join(texts) and shape[0] == shape[1]
    g2 = position({"dummy_1": P}, dice=[2])  # clear hex: 1 air point doubled is column 2; die 2 there is P
    rulings = choose(g2, "air", hex=P, points=1) + choose(g2, "done")
    r = next(x for x in rulings if x.rule_id == "YOTR-BMB-BRT")
    assert r.result["brt"] == "P"
    assert any(x.result == {"unpinned": 1} for x in rulings)  # its Pinned marker came off in phase A4


def test_yotr_tec_5_town_outside_south_vietnam_not_doubled():
    # Terrain Note 5: a hex with a town symbol is not clear for bombardment, even Svay Rieng in Cambodia, which
    # has no militia and no VP (Towns case B)
    svay = D.places["svay_rieng"].hex
    assert D.terrain(svay) == "clear" and svay not in D.towns and D.country(svay) != "SVN"
    assert yotr_at("a_bomb").bombardment_multiplier(svay) == 1
