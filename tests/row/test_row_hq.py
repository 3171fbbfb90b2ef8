"""Rumor of War HQs (ROW-9.1 - ROW-9.3, ROW-9.5) and the activation steps of ROW-4.5 - ROW-4.8, as one scripted
activation near Da Nang plus targeted cases (decisions R-HQ-01 - R-HQ-05)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Action, IllegalAction
from wargames.row import hq, movement
from wargames.row.hexmap import load_map
from wargames.row.pieces import Piece, Situation
from wargames.row.supply import LocTracer, Pools

M = load_map()
DA_NANG = M.place_hex("da_nang")  # 3448


def piece(uid, nat, hex_, **kw):
    side = "Communist" if nat in ("PAVN", "VC", "PRC", "PL", "KhR") else "Capitalist"
    return Piece(uid, side, nat, hex_, **kw)


def land_near(h, r, pred=lambda x: True):
    return sorted(x for x in M.within(h, r) if M.country(x) == "SVN" and pred(x) and x != h)


def scene():
    """A US HQ in Da Nang, a US battalion two hexes out next to a VC battalion, an ARVN regiment, a VC HQ."""
    us1_hex = next(x for x in land_near(DA_NANG, 2) if M.distance(DA_NANG, x) == 2)
    vc_hex = next(x for x in M.neighbours(us1_hex) if M.country(x) == "SVN" and M.distance(DA_NANG, x) == 3)
    arvn_hex = next(x for x in land_near(DA_NANG, 2) if x not in (us1_hex,) and M.distance(x, vc_hex) > 2)
    vchq_hex = next(
        x
        for x in land_near(vc_hex, 6)
        if M.distance(x, vc_hex) >= 4 and M.distance(x, us1_hex) >= 4 and M.distance(x, DA_NANG) >= 5
    )
    return Situation.of(
        [
            piece("us_hq", "US", DA_NANG, kind="hq"),
            piece("us1", "US", us1_hex, unit_type="battalion"),
            piece("arvn1", "ARVN", arvn_hex),
            piece("vc1", "VC", vc_hex, unit_type="battalion"),
            piece("vc_hq", "VC", vchq_hex, kind="hq"),
        ]
    )


POOLS = Pools.start(
    Capitalist_Infrastructure=8,
    Capitalist_Supply=8,
    Communist_Infrastructure=6,
    Communist_Supply=6,
    Ho_Chi_Minh_Trail_Supply=4,
)


# ------------------------------------------------------------------------------------------ 9.5 missions
def test_row_9_5_mission_options_costs_and_limits():
    opts = {a["mission"]: a["cost"] for a in hq.mission_options("Capitalist", POOLS)}
    assert opts == {
        "hearts_and_minds": 4,
        "search_and_destroy": 3,
        "vietnamization": 0,
    }  # Offensive costs 10 > 8
    rich = POOLS.with_(Capitalist_Supply=12, Communist_Supply=12)
    assert set(a["mission"] for a in hq.mission_options("Capitalist", rich)) == {
        "hearts_and_minds",
        "search_and_destroy",
        "offensive",
        "vietnamization",
    }
    assert "vietnamization" not in {
        a["mission"] for a in hq.mission_options("Capitalist", rich, commander="Westmoreland")
    }
    assert "offensive" not in {
        a["mission"] for a in hq.mission_options("Capitalist", rich, commander="Weyand")
    }
    com = {a["mission"]: a["cost"] for a in hq.mission_options("Communist", rich)}
    assert com == {"infiltrate": 2, "offensive": 8, "general_uprising": 10, "recruit": 4, "evade": 0}
    assert "general_uprising" not in {
        a["mission"] for a in hq.mission_options("Communist", rich, uprising_used=True)
    }
    assert [(a["mission"], a["cost"]) for a in hq.mission_options("Communist", rich, chinese=True)] == [
        ("offensive", 0)
    ]


def test_row_9_5_declaring_pays_from_the_main_pool_and_lists_the_effects():
    rich = POOLS.with_(Capitalist_Supply=12)
    opt = next(a for a in hq.mission_options("Capitalist", rich) if a["mission"] == "offensive")
    pools, r = hq.declare_mission(rich, opt, commander="Abrams")
    assert pools["Capitalist Supply"] == 2 and r.rule_id == "ROW-9.5"
    assert r.result["us_unrest"] == 2 and r.result["objectives"] == 3 and r.result["restricted"] == "none"
    opt = next(a for a in hq.mission_options("Communist", POOLS) if a["mission"] == "infiltrate")
    pools, r = hq.declare_mission(POOLS, opt)
    assert pools["Communist Supply"] == 4 and pools["Ho Chi Minh Trail Supply"] == 4
    assert r.result["objectives"] == 2 and r.result["zoc"] == "ignore"
    hm = next(a for a in hq.mission_options("Capitalist", POOLS) if a["mission"] == "hearts_and_minds")
    _, r = hq.declare_mission(POOLS, hm)
    assert r.result["us_unrest"] == -1 and r.result["restricted"] == "artillery air bombardment"
    with pytest.raises(IllegalAction, match="ROW-9.5"):
        hq.declare_mission(
            POOLS, Action.make("declare_mission", side="Capitalist", mission="offensive", cost=10)
        )
    with pytest.raises(IllegalAction, match="ROW-9.5"):
        hq.mission("Communist", "vietnamization")


def test_row_9_5_recruit_forbids_attacks_and_vietnamization_leaves_them_to_the_arvn():
    s = scene()
    act = hq.Activation("Communist", "vc_hq", step="initial", units=("vc1",))
    assert hq.declaration_options(act, s, "vc1", Fraction(5), Fraction(0))
    assert hq.declaration_options(act, s, "vc1", Fraction(5), Fraction(0), mission="recruit") == []
    act = hq.Activation("Capitalist", "us_hq", step="initial", units=("us1",))
    assert hq.declaration_options(act, s, "us1", Fraction(5), Fraction(0), mission="vietnamization") == []


def test_row_9_5_general_uprising_vc_hqs_reach_10_hexes_whatever_lies_between():
    s = scene()
    vc_hq = s.piece("vc_hq")
    normal = hq.command_range(vc_hq, s)
    gu = hq.command_range(vc_hq, s, mission="general_uprising")
    assert set(gu) == set(M.within(vc_hq.hex, 10)) and len(gu) > len(normal)


# ------------------------------------------------------------------------------------------ 9.1
def test_row_9_1_which_units_an_hq_activates():
    u = {n: piece(n, n, DA_NANG) for n in ("US", "ARVN", "ROK", "Laos", "Cmb")}
    c = {n: piece(n, n, DA_NANG) for n in ("PAVN", "VC", "PRC", "PL", "KhR")}
    blue = piece("b", "US", DA_NANG, kind="hq", hq_class="Capitalist")
    us = piece("h", "US", DA_NANG, kind="hq")
    arvn = piece("a", "ARVN", DA_NANG, kind="hq")
    assert all(hq.may_command(blue, x) for x in u.values())
    assert [n for n, x in u.items() if hq.may_command(us, x)] == ["US"]
    assert [n for n, x in u.items() if hq.may_command(arvn, x)] == ["ARVN", "ROK"]  # R-HQ-01
    pavn, vc, pl = (piece("h", n, DA_NANG, kind="hq") for n in ("PAVN", "VC", "PL"))
    assert all(hq.may_command(pavn, x) for x in c.values())
    assert [n for n, x in c.items() if hq.may_command(vc, x)] == ["VC"]
    assert [n for n, x in c.items() if hq.may_command(pl, x)] == ["PL"]
    assert not hq.may_command(pavn, u["US"])


# ------------------------------------------------------------------------------------------ 9.2 the activation
def test_row_9_2_one_activation_step_by_step():
    s = scene()
    t = LocTracer(s)
    opts = hq.hq_activation_options(s, "Capitalist", t)
    assert [o.kind for o in opts] == ["activate_hq", "end_activations"] and opts[0]["hq"] == "us_hq"
    # step 1
    s, act, r = hq.activate_hq(s, "us_hq", t)
    assert not s.piece("us_hq").fresh and act.step == "units" and r.rule_id == "ROW-9.2"
    with pytest.raises(IllegalAction, match="ROW-9.2"):
        hq.end_initial_movement(act)  # out of order
    # step 2: the US HQ commands the US battalion, not the ARVN regiment
    units = [o["unit"] for o in hq.unit_activation_options(act, s) if o.kind == "activate_unit"]
    assert units == ["us1"]
    with pytest.raises(IllegalAction, match="ROW-9.1"):
        hq.activate_units(act, s, ["arvn1"])
    s, act, r = hq.activate_units(act, s, ["us1"])
    assert act.step == "initial" and not s.piece("us1").fresh
    # step 3: the battalion starts next to the VC battalion: every type, the Deliberate Attack too (R-CBT-19)
    decl = hq.declaration_options(act, s, "us1", Fraction(5), Fraction(0))
    assert {o["combat_type"] for o in decl} == {"meeting_engagement", "hasty", "prepared", "deliberate"}
    assert {o["hex"] for o in decl} == {s.piece("vc1").hex}
    after_move = hq.declaration_options(act, s, "us1", Fraction(3), Fraction(2))
    assert {o["combat_type"] for o in after_move} == {"meeting_engagement", "hasty", "prepared"}
    me = next(o for o in decl if o["combat_type"] == "meeting_engagement")
    act2, r = hq.declare(act, s, me, Fraction(5), Fraction(0))
    assert r.result["resolve_now"] is True and act2.declared["us1"][1] == "meeting_engagement"
    hasty = next(o for o in decl if o["combat_type"] == "hasty")
    act, r = hq.declare(act, s, hasty, Fraction(5), Fraction(0))
    assert r.result["resolve_now"] is False
    with pytest.raises(IllegalAction, match="ROW-4.6"):
        hq.declare(act, s, hasty, Fraction(5), Fraction(0))  # it already declared
    with pytest.raises(IllegalAction, match="declared a combat"):
        hq.initial_move_options(act, s, "us1")
    act = hq.end_initial_movement(act)
    # step 4: the Communist reserve move: the VC HQ and the VC battalion? vc1 starts in the US battalion's ZoC
    res = hq.reserve_hq_options(act, s, t)
    assert [o.kind for o in res] == ["reserve_hq", "no_reserve"] and res[0]["hq"] == "vc_hq"
    assert "vc1" not in [o["unit"] for o in hq.reserve_unit_options(act, s, "vc_hq")]
    s, act, r = hq.reserve_activation(act, s, "vc_hq", [], t)
    assert not s.piece("vc_hq").fresh and act.reserve_hq == "vc_hq"
    assert [o.kind for o in hq.reserve_hq_options(act, s, t)] == [
        "no_reserve"
    ]  # one reserve HQ per activation
    act = hq.end_reserve(act)
    # step 5: us1 is in the VC battalion's ZoC: no early exploitation
    assert hq.early_exploitation_units(act, s) == []
    act = hq.end_early_exploitation(act)
    # step 6: the hasty attack waits to be resolved
    assert [o["unit"] for o in hq.combat_order_options(act)] == ["us1"]
    assert hq.combat_order_options(act, resolved=["us1"]) == []
    act = hq.end_combats(act)
    # step 7: the HQ moves or stays and pays 2 to be fresh again (in South Vietnam)
    opts = hq.hq_end_options(act, s, POOLS, t)
    kinds = {o.kind for o in opts}
    assert kinds == {"move", "hq_stays", "refresh_hq"}
    refresh = next(o for o in opts if o.kind == "refresh_hq")
    assert refresh["amount"] == 2 and refresh["pool"] == "capitalist"
    s2, pools, r = hq.refresh_hq(s, POOLS, refresh, t, "activation")
    assert s2.piece("us_hq").fresh and pools["Capitalist Supply"] == 6 and r.rule_id == "ROW-9.3"
    with pytest.raises(IllegalAction, match="ROW-9.3"):
        hq.refresh_hq(s, POOLS, refresh, t, "activation", moved=True)
    act = hq.end_hq_step(act, moved=False)
    # step 8
    act, r, opts = hq.stacking_step(act, s2)
    assert act.step == "done" and r.result == {} and opts == []


def test_row_4_5_an_hq_without_a_loc_may_not_activate():
    # Da Nang is a supply source, so its own road hex traces at 0 MP: move the HQ off the road first
    off = next(x for x in land_near(DA_NANG, 8) if not M.has_road(x) and M.terrain(x) == "mountain")
    h2 = piece("us_hq", "US", off, kind="hq")
    ring = [
        piece(f"e{i}", "PAVN", x)
        for i, x in enumerate(M.within(off, 2))
        if M.distance(off, x) == 2 and M.hex(x).kind != "sea"
    ]
    s2 = Situation.of([h2, *ring])
    t = LocTracer(s2)
    assert [o.kind for o in hq.hq_activation_options(s2, "Capitalist", t)] == ["end_activations"]
    with pytest.raises(IllegalAction, match="ROW-4.5"):
        hq.activate_hq(s2, "us_hq", t)
    spent = Situation.of([piece("us_hq", "US", DA_NANG, kind="hq", fresh=False)])
    with pytest.raises(IllegalAction, match="ROW-9.3"):
        hq.activate_hq(spent, "us_hq", LocTracer(spent))


def test_row_9_2_at_most_four_units_and_the_command_range():
    hq_hex = DA_NANG
    near = land_near(hq_hex, 2)[:5]
    far = next(x for x in sorted(M.hexes_where(area="II Corps", terrain="mountain")))
    s = Situation.of(
        [
            piece("h", "ARVN", hq_hex, kind="hq", hq_class="Capitalist"),
            *[piece(f"a{i}", "ARVN", x) for i, x in enumerate(near)],
            piece("far", "ARVN", far),
            piece("spent", "ARVN", near[0], fresh=False),
        ]
    )
    act = hq.Activation("Capitalist", "h")
    cands = [o["unit"] for o in hq.unit_activation_options(act, s) if o.kind == "activate_unit"]
    assert cands == [f"a{i}" for i in range(5)]  # not the far one, not the spent one
    with pytest.raises(IllegalAction, match="at most 4"):
        hq.activate_units(act, s, cands)
    s2, act2, _ = hq.activate_units(act, s, cands[:4])
    assert act2.units == tuple(cands[:4]) and not any(s2.piece(u).fresh for u in cands[:4])
    _, act3, _ = hq.activate_units(act, s, cands, limit=5)  # a theater commander's hook (digest decision 29)
    assert len(act3.units) == 5
    with pytest.raises(IllegalAction, match="named twice"):
        hq.activate_units(act, s, ["a0", "a0"])


def test_row_4_1_one_hex_minimum_move_forbids_declaring_combat():
    s = scene()
    act = hq.Activation("Capitalist", "us_hq", step="initial", units=("us1",))
    fake = type("R", (), {"result": {"one_hex_minimum": True}})()
    act = hq.record_move(act, "us1", fake)
    assert hq.declaration_options(act, s, "us1", Fraction(0), Fraction(5)) == []


def test_row_4_8_early_exploitation_only_outside_enemy_zoc_and_not_after_a_meeting_engagement():
    s = scene()
    act = hq.Activation("Capitalist", "blue", step="early_exploitation", units=("us1", "arvn1"), declared={})
    assert [o["unit"] for o in hq.early_exploitation_units(act, s)] == ["arvn1"]
    act = hq.Activation(
        "Capitalist",
        "blue",
        step="early_exploitation",
        units=("us1", "arvn1"),
        declared={"arvn1": ("0101", "meeting_engagement")},
    )
    assert hq.early_exploitation_units(act, s) == []
    opts = hq.exploitation_options(s, "arvn1", 2)
    assert all(Fraction(o["mp"]) <= 2 for o in opts if o.kind == "move")


def test_row_4_7_reserve_is_refused_under_giap_uprising_and_for_unlisted_hqs():
    s = scene()
    t = LocTracer(s)
    act = hq.Activation("Communist", "vc_hq", step="reserve")
    assert [o.kind for o in hq.reserve_hq_options(act, s, t, no_reserve=True)] == ["no_reserve"]
    assert [o["hq"] for o in hq.reserve_hq_options(act, s, t) if o.kind == "reserve_hq"] == ["us_hq"]
    with pytest.raises(IllegalAction, match="ROW-4.7"):
        hq.reserve_activation(act, s, "vc_hq", [], t)
    with pytest.raises(IllegalAction, match="ROW-4.7"):
        hq.reserve_activation(act, s, "us_hq", ["arvn1"], t)  # a US HQ does not take ARVN units


# ------------------------------------------------------------------------------------------ 9.3
def test_row_9_3_units_turn_fresh_at_the_opponents_turn_except_ooc_units():
    s = Situation.of(
        [
            piece("a", "ARVN", DA_NANG, fresh=False),
            piece("b", "ARVN", DA_NANG, fresh=False, markers={"OOC"}),
            piece("h", "ARVN", DA_NANG, kind="hq", fresh=False),
        ]
    )
    new, r = hq.flip_units_fresh(s, "Capitalist")
    assert new.piece("a").fresh and not new.piece("b").fresh and not new.piece("h").fresh
    assert r.result == {"flipped": ["a"], "kept_spent": ["b"]}


def test_row_9_3_hq_refresh_in_the_supply_segment_vc_hqs_free_and_without_loc():
    s = scene()
    vc_spent = piece("vc_hq", "VC", s.piece("vc_hq").hex, kind="hq", fresh=False)
    cut_hex = sorted(
        x
        for x in M.hexes_where(area="II Corps", terrain="jungle")
        if all(M.hex(y).kind == "land" for y in M.within(x, 2))
    )[0]
    far = piece("cut", "PAVN", cut_hex, kind="hq", fresh=False)
    ring = [
        piece(f"r{i}", "ARVN", x) for i, x in enumerate(M.within(cut_hex, 2)) if M.distance(cut_hex, x) == 2
    ]
    s = Situation.of([vc_spent, far, piece("us_hq", "US", DA_NANG, kind="hq", fresh=False), *ring])
    t = LocTracer(s)
    opts = hq.refresh_options(vc_spent, POOLS, t, "strategic")
    assert [(o["item"], o["amount"]) for o in opts] == [("hq_fresh_vc", 0)]
    assert hq.refresh_options(far, POOLS, t, "strategic") == []  # no LoC (R-SUP-03)
    us_opts = hq.refresh_options(s.piece("us_hq"), POOLS, t, "strategic")
    assert [(o["item"], o["amount"]) for o in us_opts] == [("hq_fresh_sv", 2)]
    assert hq.refresh_options(s.piece("us_hq"), POOLS.with_(Capitalist_Supply=1), t, "strategic") == []
    hanoi_hq = piece("nv", "PAVN", M.place_hex("hanoi"), kind="hq", fresh=False)
    s2 = Situation.of([hanoi_hq])
    assert [
        (o["item"], o["pool"], o["amount"])
        for o in hq.refresh_options(hanoi_hq, POOLS, LocTracer(s2), "activation")
    ] == [("refresh_nvn", "communist", 2)]


def test_row_9_2_hq_movement_is_10_mp():
    s = scene()
    act = hq.Activation("Capitalist", "us_hq", step="hq_move")
    moves = [o for o in hq.hq_end_options(act, s, POOLS, LocTracer(s)) if o.kind == "move"]
    assert moves and max(Fraction(o["mp"]) for o in moves) <= movement.HQ_MP


def test_row_7_2_pavn_hq_outside_north_vietnam_may_pay_from_the_red_pool():
    laos = sorted(M.hexes_where(area="Laos", trail=True))[0]
    pavn = piece("nv", "PAVN", laos, kind="hq", fresh=False)
    pl = piece("pl", "PL", laos, kind="hq", fresh=False)
    s = Situation.of([pavn, pl])
    t = LocTracer(s)
    assert t.reaches_pavn_source(pavn)
    assert [(o["pool"], o["amount"]) for o in hq.refresh_options(pavn, POOLS, t, "activation")] == [
        ("trail", 3),
        ("communist", 3),
    ]
    assert [(o["pool"], o["amount"]) for o in hq.refresh_options(pl, POOLS, t, "activation")] == [
        ("trail", 3)
    ]
    assert (
        hq.refresh_options(pavn, POOLS.with_(Ho_Chi_Minh_Trail_Supply=0, Communist_Supply=2), t, "activation")
        == []
    )


def test_row_4_7_an_unmoved_reserve_hq_may_be_made_fresh_a_moved_one_not():
    s = scene()
    t = LocTracer(s)
    act = hq.Activation("Capitalist", "us_hq", step="reserve")
    s, act, _ = hq.reserve_activation(act, s, "vc_hq", [], t)
    vc_hq = s.piece("vc_hq")
    opts = hq.refresh_options(vc_hq, POOLS, t, "activation")
    assert [(o["item"], o["pool"], o["amount"]) for o in opts] == [("refresh_trail", "trail", 3)]
    assert hq.refresh_options(vc_hq, POOLS, t, "activation", moved=True) == []
    s2, pools, r = hq.refresh_hq(s, POOLS, opts[0], t, "activation")
    assert s2.piece("vc_hq").fresh and pools["Ho Chi Minh Trail Supply"] == 1


def test_row_9_5_end_of_phase_effects_of_infiltrate_recruit_vietnamization_and_the_uprising():
    from wargames.core.dice import Dice

    cult = sorted(h for h in M.hexes_where(terrain="cultivated", country="SVN") if not M.settlement(h))[:2]
    town = next(h for h in sorted(M.hexes) if M.settlement(h) == "town" and M.country(h) == "SVN")
    s = Situation.of(
        [
            piece("v1", "VC", cult[0], unit_type="battalion"),
            piece("v2", "VC", cult[1]),
            piece("v3", "VC", town, unit_type="battalion"),
            piece("p1", "PAVN", town),
        ]
    )
    d = Dice(0)
    d.force([1, 4])
    r, opts = hq.infiltrate_end_of_phase(s, d)
    assert r.result["infrastructure"] == -1 and [x.value for x in r.dice] == [1, 4]
    assert "v3" in r.result["airfield_strikes"] and r.result["strike_value"] == 4
    assert [o["unit"] for o in opts if o.kind == "place_bunker"] == ["v1", "v2", "v3"]
    opts = hq.recruit_bunker_options(s, {cult[0], town})
    assert [o["unit"] for o in opts if o.kind == "place_bunker"] == ["v1", "v3", "p1"]
    assert hq.recruit_bunker_options(s, {cult[0]}, placed=3) == []
    arvn = Situation.of(
        [
            piece("d1", "ARVN", DA_NANG, unit_type="division", markers={"Poor"}),
            piece("d2", "ARVN", DA_NANG, unit_type="division"),
            piece("d3", "ARVN", DA_NANG, unit_type="division", markers={"Elite"}),
            piece("r1", "ARVN", DA_NANG),
        ]
    )
    assert [(o.kind, o.get("unit")) for o in hq.vietnamization_options(arvn)] == [
        ("remove_poor", "d1"),
        ("add_elite", "d2"),
        ("stop", None),
    ]
    assert hq.vietnamization_options(arvn, done=2) == []
    r = hq.uprising_victory_phase(s)
    assert r.result == {"remove": ["v1", "v3"], "permanent_elimination": True}


def test_row_9_2_an_hq_whose_loc_costs_a_snafu_draw_is_offered_as_such():
    road = sorted(h for h in M.road_hexes if M.area(h) == "II Corps" and M.terrain(h) == "mountain")[0]
    lone = piece("h", "ARVN", road, kind="hq")
    s = Situation.of([lone])
    opts = hq.hq_activation_options(s, "Capitalist", LocTracer(s))
    assert opts[0]["snafu_draw"] is True and "SNAFU" in opts[0].label
    s = scene()
    assert hq.hq_activation_options(s, "Capitalist", LocTracer(s))[0]["snafu_draw"] is False
