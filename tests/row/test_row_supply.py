"""Rumor of War infrastructure and supply (ROW-7.0 - ROW-7.2), support tracks (ROW-8.1, ROW-8.2), lines of
communications (ROW-14.4 - ROW-14.4.2) and OOC markers (ROW-6.2 case i), with decisions R-SUP-01 - R-SUP-07."""

from __future__ import annotations

import time

import pytest

from wargames.core import Action, IllegalAction
from wargames.row import supply
from wargames.row.hexmap import load_map
from wargames.row.pieces import Piece, Situation
from wargames.row.supply import LocTracer, Pools, Spender

M = load_map()


def piece(uid, nat, hex_, **kw):
    side = "Communist" if nat in ("PAVN", "VC", "PRC", "PL", "KhR") else "Capitalist"
    return Piece(uid, side, nat, hex_, **kw)


def ring(hex_, r):
    return [h for h in M.within(hex_, r) if M.distance(hex_, h) == r]


# ------------------------------------------------------------------------------------------ 7.0 / 7.1 / 8.x pools
def test_row_7_0_supply_is_set_to_infrastructure_e14():
    # digest 8 E14 (the public example of play, Summer 1965): Supply 1 and Infrastructure 8; Helicopters 1 and 4
    p = Pools.start(
        Capitalist_Infrastructure=8,
        Capitalist_Supply=1,
        Helicopter_Available=4,
        Helicopter_Used=1,
        Communist_Infrastructure=12,
        Communist_Supply=3,
    )
    new, r = supply.determine_supply(p)
    assert new["Capitalist Supply"] == 8 and new["Helicopter Used"] == 4 and new["Communist Supply"] == 12
    assert r.rule_id == "ROW-7.0" and r.result == {
        "Capitalist Supply": 8,
        "Communist Supply": 12,
        "Helicopter Used": 4,
    }


def test_row_7_1_price_list_matches_the_text():
    c = supply.supply_tables().costs
    strategic = [
        "hq_fresh_sv",
        "hq_fresh_outside_sv",
        "hq_fresh_nvn",
        "hq_fresh_trail",
        "hq_fresh_vc",
        "remove_shortage",
        "remove_out",
        "repair_airfield",
        "upgrade_airfield",
        "tunnel_adjacent",
        "tunnel_isolated",
        "bunker_to_fortification",
        "trail_supply_plus_1",
        "trail_status_plus_1",
    ]
    # the 14 numbers of 7.1a in the order of its labels (digest 3.10), then the 4 of 7.1b
    assert [c[i].cost for i in strategic] == [2, 3, 1, 1, 0, 1, 2, 1, 2, 1, 3, 2, 2, 3]
    assert [c[i].cost for i in ("refresh_sv", "refresh_outside_sv", "refresh_nvn", "refresh_trail")] == [
        2,
        3,
        2,
        3,
    ]
    with pytest.raises(IllegalAction, match="ROW-7.1"):
        supply.cost_item("buy_a_battleship")


def test_row_7_1_infrastructure_stays_between_its_limits():
    p = Pools.start(Capitalist_Infrastructure=18, Communist_Infrastructure=3)
    p, r = supply.change_infrastructure(p, "Capitalist", +4, "Foreign Aid")
    assert p["Capitalist Infrastructure"] == 19 and r.result["lost"] == 3
    p, r = supply.change_infrastructure(p, "Communist", -5, "Infrastructure Strike")
    assert p["Communist Infrastructure"] == 2 and r.result["lost"] == -4
    with pytest.raises(ValueError, match="outside"):
        Pools.start(Communist_Infrastructure=1)


def test_row_8_2_support_tracks_never_negative_and_capped_at_19():
    p = Pools.start(US_Artillery=3, US_Tank=18, US_Air=25)
    with pytest.raises(IllegalAction, match="ROW-8.2"):
        supply.change(p, "US Artillery", -4, "a voluntary spend")
    p2, r = supply.change(p, "US Artillery", -4, "retreat losses", forced=True)
    assert p2["US Artillery"] == 0 and r.result["lost"] == -1
    p3, r = supply.change(p, "US Tank", +3, "reinforcements")
    assert p3["US Tank"] == 19 and r.result["lost"] == 2  # extra tank support is ignored (8.2)
    assert p["US Air"] == 25 and p.counted("US Air") == 19  # air may exceed 19, only 19 counts
    with pytest.raises(IllegalAction, match="ROW-8.1"):
        supply.change(p, "Battleship Level", 1, "?")


def test_row_8_1_replacements_are_a_pool_that_never_goes_negative():
    p = Pools.start(Capitalist_Replacements=1)
    p, _ = supply.change(p, "Capitalist Replacements", -1, "rebuild a unit")
    with pytest.raises(IllegalAction, match="ROW-8.1"):
        supply.change(p, "Capitalist Replacements", -1, "rebuild another")


# ------------------------------------------------------------------------------------------ 7.2 paying
def test_row_7_2_capitalist_pays_double_outside_south_vietnam_unless_invaded():
    sv = Spender("Capitalist", "US", "SVN")
    laos = Spender("Capitalist", "US", "LAO")
    assert [a["amount"] for a in supply.payment_options("remove_shortage", sv)] == [1]
    assert [a["amount"] for a in supply.payment_options("remove_shortage", laos)] == [2]
    assert [a["amount"] for a in supply.payment_options("remove_shortage", laos, frozenset({"LAO"}))] == [1]
    # the HQ line outside South Vietnam already prices the case: 3, not 6 (R-SUP-01)
    assert [a["amount"] for a in supply.payment_options("hq_fresh_outside_sv", laos)] == [3]


def test_row_7_2_communist_pools_by_location_with_the_pavn_exception():
    nvn = Spender("Communist", "VC", "NVN")
    assert [a["pool"] for a in supply.payment_options("remove_out", nvn)] == ["communist"]
    vc_south = Spender("Communist", "VC", "SVN")
    assert [a["pool"] for a in supply.payment_options("remove_out", vc_south)] == ["trail"]
    pavn_south = Spender("Communist", "PAVN", "SVN", loc_to_pavn_source=True)
    assert [a["pool"] for a in supply.payment_options("remove_out", pavn_south)] == ["trail", "communist"]
    pavn_cut = Spender("Communist", "PAVN", "SVN", loc_to_pavn_source=False)
    assert [a["pool"] for a in supply.payment_options("remove_out", pavn_cut)] == ["trail"]
    # HQ missions always from the main pool, whatever the place
    assert [a["pool"] for a in supply.payment_options("hq_mission", vc_south, mission_cost=2)] == [
        "communist"
    ]
    assert [a["pool"] for a in supply.payment_options("trail_supply_plus_1", vc_south)] == ["communist"]


def test_row_7_0_spending_needs_a_loc_except_the_vc_hq_flip():
    cut = Spender("Communist", "VC", "SVN", has_loc=False)
    with pytest.raises(IllegalAction, match="ROW-7.0"):
        supply.payment_options("remove_shortage", cut)
    assert supply.payment_options("hq_fresh_vc", cut)[0]["amount"] == 0
    with pytest.raises(IllegalAction, match="ROW-7.1"):
        supply.payment_options("tunnel_adjacent", Spender("Capitalist", "US", "SVN"))


def test_row_7_2_payment_is_refused_when_the_pool_is_short_and_leaves_it_unchanged():
    p = Pools.start(Capitalist_Supply=1)
    opt = supply.payment_options("remove_out", Spender("Capitalist", "ARVN", "SVN"))[0]
    with pytest.raises(IllegalAction, match="ROW-7.2"):
        supply.pay(p, opt)
    assert p["Capitalist Supply"] == 1
    p = Pools.start(Capitalist_Supply=5)
    new, r = supply.pay(p, opt)
    assert new["Capitalist Supply"] == 3 and r.result["paid"] == 2 and r.lookup.cell == "2"
    with pytest.raises(IllegalAction, match="ROW-7.2"):
        supply.pay(p, Action.make("move"))


# ------------------------------------------------------------------------------------------ 14.4 LoC
def test_row_14_4_1_capitalist_loc_by_road_without_snafu_near_a_source():
    da_nang = M.place_hex("da_nang")
    u = piece(
        "u", "US", next(h for h in M.neighbours(da_nang) if M.country(h) == "SVN" and not M.has_road(h))
    )
    r = LocTracer(Situation.of([u])).trace(u)
    assert r.result.ok and not r.result.snafu and r.rule_id == "ROW-14.4.1"
    assert supply.capitalist_trace_options(r) == []


def test_row_14_4_1_a_trace_through_enemy_controlled_hexes_costs_a_snafu_draw():
    # a lone unit on a road far from any source: the road home crosses Communist-controlled hexes
    road = sorted(h for h in M.road_hexes if M.area(h) == "II Corps" and M.terrain(h) == "mountain")[0]
    u = piece("u", "ARVN", road)
    r = LocTracer(Situation.of([u])).trace(u)
    assert r.result.ok and r.result.snafu
    opts = supply.capitalist_trace_options(r)
    assert [o.kind for o in opts] == ["trace_loc", "decline_loc"]


def test_row_14_4_1_enemy_zoc_cuts_the_trace_and_a_fire_base_restores_it():
    h = sorted(
        x
        for x in M.hexes_where(area="II Corps", terrain="jungle")
        if not M.has_road(x) and all(M.hex(y).kind == "land" for y in M.within(x, 2))
    )[0]
    u = piece("u", "ARVN", h)
    enemies = [piece(f"e{i}", "PAVN", x) for i, x in enumerate(ring(h, 2))]
    s = Situation.of([u, *enemies])
    assert not LocTracer(s).trace(u).result.ok
    s = Situation.of([u, *enemies], fire_bases={h})
    r = LocTracer(s).trace(u)
    assert r.result.ok and "Fire Base" in r.result.via


def test_row_14_4_1_six_mp_limit():
    h = next(
        x
        for x in sorted(M.hexes_where(area="II Corps", terrain="mountain"))
        if not any(M.has_road(y) for y in M.within(x, 3))
    )
    u = piece("u", "ARVN", h)
    assert not LocTracer(Situation.of([u])).trace(u).result.ok  # 3+ mountain hexes of 3 MP each


def test_row_14_4_2_communist_units_trace_15_mp_to_an_hq_with_a_loc():
    hanoi = M.place_hex("hanoi")
    hq = piece("h", "PAVN", hanoi, kind="hq")
    near = sorted(M.within(hanoi, 3))[0]
    u = piece("u", "PAVN", near)
    far = piece("f", "PAVN", M.place_hex("saigon"))
    t = LocTracer(Situation.of([hq, u, far]))
    assert t.trace(hq).result.ok and t.trace(hq).rule_id == "ROW-14.4"
    r = t.trace(u)
    assert r.result.ok and r.result.via == "HQ h" and r.rule_id == "ROW-14.4.2"
    assert not t.trace(far).result.ok


def test_row_14_4_2_vc_units_trace_to_the_trail_cultivated_hexes_and_war_zones():
    wzc = sorted(M.hexes_where(zone="War Zone C"))[0]
    vc = piece("v", "VC", wzc)
    r = LocTracer(Situation.of([vc])).trace(vc)
    assert r.result.ok and "War Zone C" in r.result.via
    # a PAVN unit in the same hex with no HQ has none; a unit in a tunnel always has one (14.3)
    pavn = piece("p", "PAVN", wzc)
    assert not LocTracer(Situation.of([pavn])).trace(pavn).result.ok
    tun = piece("t", "PAVN", wzc, in_tunnel=True)
    assert LocTracer(Situation.of([tun])).trace(tun).result.ok


def test_row_14_4_communist_hq_trace_blocked_by_zoc_unless_infiltrate():
    h = sorted(
        x
        for x in M.hexes_where(area="II Corps", terrain="jungle")
        if all(M.hex(y).kind == "land" for y in M.within(x, 2))
    )[0]
    hq = piece("h", "PAVN", h, kind="hq")
    ring2 = [piece(f"c{i}", "ARVN", x) for i, x in enumerate(ring(h, 2))]
    s = Situation.of([hq, *ring2])
    assert LocTracer(Situation.of([hq])).trace(hq).result.ok
    assert not LocTracer(s).trace(hq).result.ok
    assert not LocTracer(s, mission="infiltrate").trace(hq).result.ok  # the ring's hexes are occupied
    ring3 = [piece(f"c{i}", "ARVN", x) for i, x in enumerate(ring(h, 3)[::2])]
    s3 = Situation.of([hq, *ring3])
    assert LocTracer(s3, mission="infiltrate").trace(hq).result.ok


def test_row_14_4_tracing_every_piece_is_fast():
    pieces = [piece(f"p{i}", "PAVN", h) for i, h in enumerate(sorted(M.hexes_where(area="I Corps"))[:30])]
    pieces += [piece(f"a{i}", "ARVN", h) for i, h in enumerate(sorted(M.hexes_where(area="III Corps"))[:30])]
    pieces.append(piece("h", "PAVN", M.place_hex("hanoi"), kind="hq"))
    s = Situation.of(pieces)
    t0 = time.perf_counter()
    t = LocTracer(s)
    for p in s.pieces:
        t.trace(p)
    assert time.perf_counter() - t0 < 2.0


# ------------------------------------------------------------------------------------------ 6.2 case i: OOC
def test_row_6_2_ooc_markers_placed_and_removed_only_in_the_supply_segment():
    far = piece("f", "PAVN", M.place_hex("saigon"))
    t = LocTracer(Situation.of([far]))
    r = supply.ooc_update(far, t.trace(far), "player_turn")
    assert r.result == {"ooc": True, "placed": True, "removed": False, "snafu_for": "Capitalist"}
    marked = Piece("f", "Communist", "PAVN", M.place_hex("hanoi"), markers={"OOC"})
    t = LocTracer(Situation.of([marked]))
    assert t.trace(marked).result.ok
    assert supply.ooc_update(marked, t.trace(marked), "player_turn").result["ooc"] is True
    assert supply.ooc_update(marked, t.trace(marked), "supply_determination").result == {
        "ooc": False,
        "placed": False,
        "removed": True,
        "snafu_for": None,
    }
    with pytest.raises(IllegalAction, match="ROW-6.2"):
        hq = piece("h", "PAVN", M.place_hex("hanoi"), kind="hq")
        supply.ooc_update(hq, t.trace(marked), "player_turn")


def test_row_6_2_ooc_sweep_marks_every_cut_unit_of_a_side():
    hanoi = M.place_hex("hanoi")
    s = Situation.of(
        [
            piece("h", "PAVN", hanoi, kind="hq"),
            piece("near", "PAVN", sorted(M.within(hanoi, 2))[0]),
            piece("far", "PAVN", M.place_hex("saigon")),
            piece("old", "PAVN", hanoi, markers={"OOC"}),
        ]
    )
    t = LocTracer(s)
    new, rulings = supply.ooc_sweep(s, "Communist", t, "supply_determination")
    assert (
        new.piece("far").has("OOC") and not new.piece("old").has("OOC") and not new.piece("near").has("OOC")
    )
    assert sorted(r.inputs["piece"] for r in rulings) == ["far", "old"]
    assert [r.result["snafu_for"] for r in rulings if r.result["placed"]] == ["Capitalist"]
    new, _ = supply.ooc_sweep(s, "Communist", t, "player_turn")
    assert new.piece("old").has("OOC")  # removed only in the supply segment (R-SUP-07)


def test_row_14_4_special_forces_are_always_in_supply():
    h = next(
        x
        for x in sorted(M.hexes_where(area="II Corps", terrain="mountain"))
        if not any(M.has_road(y) for y in M.within(x, 3))
    )
    sf = Piece("sf", "Capitalist", "US", h, unit_type="battalion", special_forces=True)
    assert LocTracer(Situation.of([sf])).trace(sf).result.ok
    with pytest.raises(ValueError, match="ROW-14.1.5"):
        Piece("x", "Capitalist", "ARVN", h, special_forces=True)


def test_row_7_1_a_bad_price_list_is_refused_naming_file_line_and_column(tmp_path, monkeypatch):
    import shutil

    from wargames.core.data import DataError, data_root

    root = tmp_path / "data"
    shutil.copytree(data_root() / "row" / "tables", root / "row" / "tables")
    p = root / "row" / "tables" / "supply_costs.csv"
    lines = p.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace(",1,communist,", ",one,communist,")
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("WARGAMES_DATA", str(root))
    supply.supply_tables.cache_clear()
    try:
        with pytest.raises(DataError, match=r"supply_costs.csv, line 4, column 'cost'"):
            supply.supply_tables()
    finally:
        monkeypatch.delenv("WARGAMES_DATA")
        supply.supply_tables.cache_clear()
    assert supply.supply_tables().costs["hq_fresh_nvn"].cost == 1
