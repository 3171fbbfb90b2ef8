"""Rumor of War operational areas (ROW-14.6 - ROW-14.6.4), zones of control across boundaries (ROW-4.3) and hex
control (ROW-1.0 glossary), with decisions R-MOV-02, R-MOV-05 and R-MOV-06."""

from __future__ import annotations

import pytest

from wargames.row import control
from wargames.row.hexmap import load_map
from wargames.row.pieces import Piece, Situation

M = load_map()


def a_hex(**match):
    return sorted(M.hexes_where(**match))[0]


def piece(uid, nat, hex_, side=None, **kw):
    side = side or ("Communist" if nat in ("PAVN", "VC", "PRC", "PL", "KhR") else "Capitalist")
    return Piece(uid, side, nat, hex_, **kw)


def may(p, hex_, invaded=frozenset()):
    return control.area_check(p, hex_, frozenset(invaded)).result


ICORPS, IICORPS, CMD = (
    a_hex(area="I Corps", kind="land"),
    a_hex(area="II Corps", kind="land"),
    a_hex(area="CMD"),
)
LAOS, CAMBODIA, NVN = (
    a_hex(area="Laos", trail=False, fdz=False),
    a_hex(area="Cambodia", trail=False, fdz=False),
    a_hex(area="North Vietnam"),
)
DMZ = a_hex(area="DMZ")
TRAIL_LAOS = a_hex(area="Laos", trail=True)
FDZ = a_hex(fdz=True)


def test_row_14_6_1_us_units_keep_to_their_assigned_area_plus_the_cmd():
    us = piece("u", "US", ICORPS, areas={"I Corps"})
    assert may(us, ICORPS) and may(us, CMD) and may(us, DMZ)  # the DMZ is I Corps for the Capitalist (14.6.4)
    assert not may(us, IICORPS) and not may(us, LAOS) and not may(us, NVN)
    r = control.area_check(us, IICORPS)
    assert r.rule_id == "ROW-14.6.1" and "may not" in r.explanation
    # invaded countries open, other South Vietnamese areas do not
    assert may(us, LAOS, {"LAO"}) and not may(us, IICORPS, {"LAO"})
    cav = piece("c", "US", ICORPS, areas={"I Corps"}, any_sv_area=True)  # 1st Cavalry / 173rd Airborne
    assert may(cav, IICORPS) and not may(cav, CAMBODIA) and may(cav, CAMBODIA, {"KHM"})


def test_row_14_6_2_arvn_laotian_and_cambodian_forces_stay_in_their_country():
    arvn = piece("a", "ARVN", ICORPS)
    assert may(arvn, ICORPS) and may(arvn, IICORPS) and may(arvn, DMZ)
    assert not may(arvn, LAOS) and not may(arvn, LAOS, {"LAO"}) and not may(arvn, NVN)
    lao = piece("l", "Laos", LAOS)
    assert may(lao, LAOS) and may(lao, TRAIL_LAOS) and not may(lao, ICORPS)
    cmb = piece("k", "Cmb", CAMBODIA)
    assert may(cmb, CAMBODIA) and not may(cmb, LAOS)
    assert control.area_check(arvn, LAOS).rule_id == "ROW-14.6.2"


def test_row_14_6_3_pavn_and_vc_in_vietnam_on_the_trail_and_in_the_free_deployment_zone():
    for nat in ("PAVN", "VC"):
        p = piece("p", nat, NVN)
        assert may(p, NVN) and may(p, ICORPS) and may(p, DMZ) and may(p, TRAIL_LAOS) and may(p, FDZ)
        assert not may(p, LAOS) and not may(p, CAMBODIA)


def test_row_14_6_3_forces_the_text_leaves_out_follow_decision_r_mov_02():
    pl = piece("pl", "PL", LAOS)
    assert may(pl, LAOS) and may(pl, TRAIL_LAOS) and not may(pl, ICORPS)
    khr = piece("kr", "KhR", CAMBODIA)
    assert may(khr, CAMBODIA) and not may(khr, LAOS)
    prc = piece("c", "PRC", NVN)
    assert may(prc, NVN) and may(prc, LAOS) and not may(prc, ICORPS)
    rok = piece("r", "ROK", IICORPS, areas={"II Corps"})
    assert may(rok, IICORPS) and may(rok, CMD) and not may(rok, ICORPS)
    unassigned = piece("t", "Thai", IICORPS)
    assert may(unassigned, ICORPS) and not may(unassigned, LAOS)


def test_row_14_6_no_ground_piece_enters_an_all_sea_hex():
    sea = a_hex(kind="sea")
    assert not may(piece("p", "PAVN", NVN), sea)
    assert control.area_check(piece("p", "PAVN", NVN), sea).rule_id == "ROW-14.6"


def test_row_14_6_zoc_does_not_cross_a_boundary_the_unit_may_not_cross():
    # an ARVN unit on the Laotian border projects no ZoC into Laos; a PAVN unit next to Laos does not either
    a, b = next(
        (a, b)
        for a in sorted(M.hexes)
        for b in M.adj[a]
        if M.country(a) == "SVN" and M.country(b) == "LAO" and not M.hex(b).trail and not M.hex(b).fdz
    )
    arvn = piece("a", "ARVN", a)
    s = Situation.of([arvn])
    zoc = control.zoc_of(arvn, s)
    assert b not in zoc and zoc and all(M.country(h) == "SVN" or M.in_dmz(h) for h in zoc)


def test_row_14_6_4_entering_the_dmz():
    cap = control.dmz_entry(piece("a", "ARVN", DMZ), DMZ)
    assert cap.result == {"snafu_draws": 1, "placer": "Communist"} and cap.rule_id == "ROW-14.6.4"
    com = control.dmz_entry(piece("p", "PAVN", DMZ), DMZ)
    assert com.result == {"us_unrest": -1}
    assert control.dmz_entry(piece("p", "PAVN", NVN), NVN) is None


def test_row_4_3_zoc_hqs_routed_and_tunnel_units_project_none():
    a = ICORPS
    assert control.zoc_of(piece("h", "ARVN", a, kind="hq"), Situation.of([])) == frozenset()
    assert control.zoc_of(piece("r", "ARVN", a, markers={"Routed"}), Situation.of([])) == frozenset()
    assert control.zoc_of(piece("t", "VC", a, in_tunnel=True), Situation.of([])) == frozenset()
    assert control.zoc_of(piece("u", "ARVN", a), Situation.of([]))


def test_row_4_3_a_unit_does_not_negate_a_zoc_for_itself_r_mov_05():
    land = [h for h in M.adj[ICORPS] if M.country(h) == "SVN"]
    u = piece("u", "ARVN", ICORPS)
    e = piece("e", "PAVN", land[0])
    assert control.in_enemy_zoc(u, Situation.of([u, e]))
    assert not control.in_enemy_zoc(u, Situation.of([u, e, piece("f", "ARVN", ICORPS)]))
    assert ICORPS not in control.enemy_zoc(Situation.of([u, e]), "Capitalist")


def test_row_1_0_control_of_hexes():
    saigon = M.place_hex("saigon")
    far = a_hex(area="II Corps", terrain="mountain")
    u_hex = a_hex(area="II Corps", terrain="jungle")
    u = piece("u", "ARVN", u_hex)
    s = Situation.of([u])
    cap = control.capitalist_controlled(s)
    assert u_hex in cap and all(n in cap for n in M.neighbours(u_hex) if M.country(n) == "SVN")
    assert saigon in cap and all(n in cap for n in M.neighbours(saigon) if M.hex(n).kind != "sea")
    assert far not in cap or far in M.neighbours(u_hex)
    r = control.controller(s, far)
    assert r.result == "Communist" and r.rule_id == "ROW-1.0"
    # a Communist unit next to Saigon makes its hex Communist (R-MOV-06); a tunnel does not (14.3)
    n = next(h for h in M.neighbours(saigon) if M.hex(h).kind != "sea")
    vc = piece("v", "VC", n)
    assert control.controller(Situation.of([u, vc]), n).result == "Communist"
    assert (
        control.controller(Situation.of([u, piece("v", "VC", n, in_tunnel=True)]), n).result == "Capitalist"
    )
    # Fire Bases and Landing Zones
    s = Situation.of([], fire_bases={far})
    assert control.controller(s, far).result == "Capitalist"
    assert all(h in control.capitalist_controlled(s) for h in M.neighbours(far) if M.hex(h).kind != "sea")


def test_row_14_6_unknown_hex_is_refused():
    with pytest.raises(KeyError, match="not a hex"):
        control.area_check(piece("u", "ARVN", ICORPS), "9999")
