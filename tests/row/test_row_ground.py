"""Rumor of War's ground war as written (issue #26): losses owed in full (ROW-5.6), Disrupted and Routed markers
removed by an activation (ROW-6.2 f, g), and the other ground rules of sections 4-9, 13 and 14 the issue lists.

Tests are named for the rule they check; decisions R-CBT-nn are tested where they bite.
"""

from __future__ import annotations

from wargames.core import Action
from wargames.row import chits, losses
from wargames.row.combat import CombatSides, CombatUnit, final_spread


def unit(uid, side="Capitalist", nat=None, kind="battalion", fresh=True, markers=()):
    nat = nat or ("US" if side == "Capitalist" else "PAVN")
    return CombatUnit(uid, side, nat, kind, fresh=fresh, active=True, markers=frozenset(markers))


def combat(declarer, defenders, dsup=()):
    return CombatSides(
        "0101", "hasty", chits.chit_by_id("ME-01"), declarer, (), tuple(defenders), tuple(dsup)
    )


def _units(*us):
    return {u.uid: u for u in us}


# ============================================================== ROW-5.6: nothing of the spread is forgiven
def test_row_5_6_a_lone_unit_that_retreats_one_hex_still_owes_the_rest():
    """R-CBT-24: a lone defender losing by 6 that can retreat only 1 hex still owes 5."""
    c = combat(unit("n0", "Communist"), (unit("u1"),))
    spread = final_spread(12, 1)  # the attacker wins by 11: the spread is capped at 5
    st = losses.start_losses(c, spread)
    us = _units(*c.defending())
    st, r = losses.apply_loss(st, Action.make("retreat", unit="u1", hexes=1), us, max_retreat={"u1": 1})
    assert st.remaining == 4 and not st.done and "R-CBT-24" in r.explanation
    kinds = [a.kind for a in losses.loss_options(st, us)]
    assert kinds == ["loss_point", "eliminate_all"]
    st, _ = losses.apply_loss(st, Action.make("loss_point"), us)
    st, _ = losses.apply_loss(st, Action.make("loss_point"), us)
    assert st.remaining == 2 and [a.kind for a in losses.loss_options(st, us)] == ["eliminate_all"]
    st, r = losses.apply_loss(st, Action.make("eliminate_all"), us)
    assert st.done and r.result["units"] == ["u1"]  # the retreated unit is eliminated too


def test_row_5_6_eliminating_every_unit_meets_the_spread():
    """R-CBT-24: a unit eliminated alone for 1 point is the whole force: the rest is the 5.6 alternative."""
    c = combat(unit("n0", "Communist"), (unit("u1"),))
    st = losses.start_losses(c, final_spread(12, 1))
    st, r = losses.apply_loss(st, Action.make("eliminate", unit="u1"), _units(*c.defending()))
    assert st.done and st.all_eliminated and "rest is not paid" in r.explanation


def test_row_5_6_the_bot_retreats_as_far_as_it_owes():
    from wargames.core import Decision
    from wargames.row.bots import RowBot

    c = combat(unit("n0", "Communist"), (unit("u1"),))
    st = losses.start_losses(c, final_spread(12, 7))  # 5 owed
    us = _units(*c.defending())
    for _ in range(2):
        st, _ = losses.apply_loss(st, Action.make("loss_point"), us)
    opts = losses.loss_options(st, us)
    bot = RowBot("Capitalist")
    a = bot.on_loss(None, Decision("Capitalist", "absorb", "ROW-5.6", opts, kind="loss"))
    assert a.kind == "retreat" and a["hexes"] == 3  # not 1 hex, which would leave 2 owed


# ============================================================== ROW-6.2 f, g: Disrupted and Routed markers lifted
def _hq_scene(markers):
    from dataclasses import replace

    from tests.row.test_row_hq import scene

    s = scene()
    return s.replace(replace(s.piece("us1"), markers=frozenset(markers)))


def test_row_6_2_g_a_routed_unit_may_be_activated():
    from wargames.row import hq
    from wargames.row.supply import LocTracer

    s = _hq_scene(["Routed"])
    s, act, _ = hq.activate_hq(s, "us_hq", LocTracer(s))
    assert [o["unit"] for o in hq.unit_activation_options(act, s) if o.kind == "activate_unit"] == ["us1"]


def test_row_6_2_g_lifting_a_routed_marker_spends_an_activation_and_leaves_low_morale():
    from wargames.row import hq
    from wargames.row.supply import LocTracer

    s = _hq_scene(["Routed"])
    s, act, _ = hq.activate_hq(s, "us_hq", LocTracer(s))
    opts = hq.marker_removal_options(act, s)
    assert [(o["unit"], o["marker"]) for o in opts] == [("us1", "Routed")]
    s2, r = hq.remove_marker(act, s, "us1", "Routed")
    u = s2.piece("us1")
    assert r.rule_id == "ROW-6.2" and "R-HQ-06" in r.explanation
    assert not u.fresh and u.markers == frozenset({"Low Morale"})
    assert hq.marker_removal_options(act, s2) == []  # spent now: nothing more to lift


def test_row_6_2_f_lifting_a_disrupted_marker_needs_a_fresh_unit():
    import pytest

    from wargames.core import IllegalAction
    from wargames.row import hq
    from wargames.row.supply import LocTracer

    s = _hq_scene(["Disrupted", "Elite"])
    s, act, _ = hq.activate_hq(s, "us_hq", LocTracer(s))
    s2, r = hq.remove_marker(act, s, "us1", "Disrupted")
    assert s2.piece("us1").markers == frozenset({"Elite"}) and "Low Morale" not in r.explanation
    with pytest.raises(IllegalAction, match="ROW-6.2"):
        hq.remove_marker(act, s2, "us1", "Disrupted")


# ============================================================== ROW-5.3.1: the road bonus is offered
def test_row_5_3_1_the_road_bonus_is_offered_where_a_road_joins_the_hexes():
    from fractions import Fraction

    from wargames.core import Decision
    from wargames.row import resolve
    from wargames.row.combat import ATTACKER, SupportSituation

    c = CombatSides(
        "0101", "hasty", chits.chit_by_id("ME-01"), unit("us1"), (), (unit("n", "Communist"),), ()
    )
    sits = {ATTACKER: SupportSituation({"tank": 9}, terrain_factor=Fraction(1, 2))}
    gen = resolve._road_bonus_choice(c, {u.uid: u for u in c.all_units()}, sits, "Capitalist")
    d = next(gen)
    assert isinstance(d, Decision) and d.kind == "road_bonus" and d.rule_id == "ROW-5.3.1"
    use = next(a for a in d.options if a.kind == "road_bonus")
    plain = next(a for a in d.options if a.kind == "no_road_bonus")
    assert use["tank"] > plain["tank"]
    r = gen.send(use)
    assert r.rule_id == "ROW-5.3.1" and r.result["road_bonus"] and sits[ATTACKER].road_bonus
    # clear terrain: the road adds nothing, so nothing is asked
    flat = {ATTACKER: SupportSituation({"tank": 9})}
    assert list(resolve._road_bonus_choice(c, {u.uid: u for u in c.all_units()}, flat, "Capitalist")) == []


# ============================================================== ROW-5.1 / ROW-5.2.1: chits on pending combats
def test_row_5_2_1_a_chit_on_a_pending_combat_is_not_in_the_mug():
    from wargames.core.dice import Dice

    whole = [c.id for c in chits.mug("hasty")]
    away = whole[:-1]
    for seed in range(5):
        r = chits.draw_chits(Dice(seed), "hasty", 1, on_map=away)
        assert r.result["chits"] == [whole[-1]] and "not in it" in r.explanation


# ============================================================== ROW-4.6: no Deliberate Attack after a flight
def test_row_4_6_no_deliberate_attack_after_a_half_mp_helicopter_move():
    from fractions import Fraction

    from tests.row.test_row_hq import scene
    from wargames.row import hq
    from wargames.row.supply import LocTracer

    s = scene()
    s, act, _ = hq.activate_hq(s, "us_hq", LocTracer(s))
    s, act, _ = hq.activate_units(act, s, ["us1"])
    still = hq.declaration_options(act, s, "us1", Fraction(5), Fraction(0))
    flown = hq.declaration_options(act, s, "us1", Fraction(9, 2), Fraction(1, 2))
    assert "deliberate" in {o["combat_type"] for o in still}
    assert "deliberate" not in {o["combat_type"] for o in flown}


# ============================================================== ROW-9.1: HQs routed on the path; ROW-4.4 HQs
def _line():
    """Three land hexes in a row in South Vietnam, each next to the one before and farther from the first."""
    from wargames.row.hexmap import load_map

    m = load_map()
    for a in sorted(m.hexes):
        if m.country(a) != "SVN" or m.hex(a).kind == "sea":
            continue
        for b in sorted(m.neighbours(a)):
            if m.country(b) != "SVN" or m.hex(b).kind == "sea" or m.side_features(a, b):
                continue
            for c in sorted(m.neighbours(b)):
                if (
                    m.distance(a, c) == 2
                    and m.country(c) == "SVN"
                    and m.hex(c).kind != "sea"
                    and not m.side_features(b, c)
                    and m.terrain(b) == "clear"
                    and m.terrain(c) == "clear"
                ):
                    return m, a, b, c
    raise AssertionError("no three clear hexes in a row")


def test_row_9_1_an_enemy_hq_on_the_path_is_routed():
    from wargames.row import movement
    from wargames.row.pieces import Piece, Situation

    m, a, b, c = _line()
    s = Situation.of(
        [
            Piece("us1", "Capitalist", "US", a, unit_type="battalion"),
            Piece("vchq", "Communist", "VC", b, kind="hq"),
        ]
    )
    opts = {o["to"]: o for o in movement.move_options(s.piece("us1"), s, "initial", m=m) if o.kind == "move"}
    through = [o for o in opts.values() if b in o["path"][1:-1]]
    assert through and all("routing enemy HQ vchq" in o.label for o in through)
    o = through[0]
    r = movement.check_move(s.piece("us1"), s, list(o["path"]), "initial", m=m)
    assert r.result["routs"] == ("vchq",)


def test_row_4_4_fresh_communist_hqs_move_strategically():
    import pytest

    from wargames.core import IllegalAction
    from wargames.row import movement
    from wargames.row.pieces import Piece, Situation

    m, a, b, c = _line()
    s = Situation.of([Piece("vchq", "Communist", "VC", a, kind="hq")])
    r = movement.reachable(s.piece("vchq"), s, "strategic_hq", m=m)
    assert c in r.ends and r.mode.rule_id == "ROW-4.4"
    spent = s.replace(Piece("vchq", "Communist", "VC", a, kind="hq", fresh=False))
    with pytest.raises(IllegalAction, match="spent"):
        movement.reachable(spent.piece("vchq"), spent, "strategic_hq", m=m)
    us = Situation.of([Piece("ushq", "Capitalist", "US", a, kind="hq")])
    with pytest.raises(IllegalAction, match="only the Communist"):
        movement.reachable(us.piece("ushq"), us, "strategic_hq", m=m)


# ============================================================== ROW-9.5 Search and Destroy
def test_row_9_5_search_and_destroy_moves_only_us_battalions():
    import pytest

    from wargames.core import IllegalAction
    from wargames.row import movement
    from wargames.row.pieces import Piece, Situation

    m, a, b, c = _line()
    s = Situation.of(
        [
            Piece("us_rgt", "Capitalist", "US", a, unit_type="regiment"),
            Piece("us_bn", "Capitalist", "US", a, unit_type="battalion"),
            Piece("arvn", "Capitalist", "ARVN", a, unit_type="regiment"),
        ]
    )
    with pytest.raises(IllegalAction, match="only US battalions"):
        movement.reachable(s.piece("us_rgt"), s, "initial", mission="search_and_destroy", m=m)
    for uid in ("us_bn", "arvn"):
        assert movement.reachable(s.piece(uid), s, "initial", mission="search_and_destroy", m=m).ends
    assert movement.reachable(s.piece("us_rgt"), s, "initial", mission="hearts_and_minds", m=m).ends


# ============================================================== issue #26 item 24: every change has its ruling
def test_row_5_6_combat_results_on_the_map_are_one_ruling():
    from wargames.row.resolve import CombatOutcome, map_results

    a = unit("a")
    c = unit("c", "Communist")
    out = CombatOutcome(
        units={
            "a": a,
            "b": CombatUnit(
                "b", "Communist", "PAVN", "battalion", fresh=False, markers=frozenset({"Elite", "Disrupted"})
            ),
            "c": c,
        },
        retreats={"b": ["0101", "0102", "0103"]},
    )
    before = {"a": (True, frozenset()), "b": (True, frozenset()), "c": (True, frozenset())}
    new, r = map_results(out, before, {"b": "Elite"}, name=lambda u: f"unit {u}")
    assert new == {"b": (False, ("Disrupted",))}
    assert r.rule_id == "ROW-5.6" and "unit b is spent and now carries Disrupted" in r.explanation
    assert "0101 -> 0102 -> 0103" in r.explanation and r.result["retreated"] == ["b"]
    assert map_results(CombatOutcome(units={"a": a}), {"a": (True, frozenset())}, {}) == ({}, None)


# ============================================================== in the game (lesson positions, row.lesson)
def _at_capitalist_turn(**edits):
    """A Year in I Corps at the start of the Capitalist player turn of Summer 1965 with ``edits`` made, the
    Communist played by the bot, stopped at the Capitalist's first HQ activation decision."""
    from wargames.row.bots import RowBot
    from wargames.testing import position

    g = position(
        "row",
        "year-in-i-corps",
        3,
        turn=1,
        phase="capitalist_turn",
        players={"Communist": RowBot("Communist")},
        **edits,
    )
    while g.decision is not None and g.decision.kind != "hq_activation":
        g.apply(g.decision.options[-1])
    return g


def _pick(g, kind, **match):
    a = next(o for o in g.decision.options if o.kind == kind and all(o.get(k) == v for k, v in match.items()))
    return g.apply(a)


def test_row_6_2_g_the_game_offers_lifting_a_routed_marker():
    g = _at_capitalist_turn(markers={"us_3mar": ["Routed"]}, fresh={"us_3mar": True})
    _pick(g, "activate_hq", hq="us_iii_maf")
    assert g.decision.kind == "unit_activation"
    kinds = {(o.kind, o.get("unit")) for o in g.decision.options}
    assert ("activate_unit", "us_3mar") in kinds and ("remove_marker", "us_3mar") in kinds
    got = _pick(g, "remove_marker", unit="us_3mar")
    lifted = [r for r in got if r.title == "Routed marker lifted"]
    assert lifted and g.markers["us_3mar"] == ("Low Morale",) and not g.fresh["us_3mar"]
    assert "us_3mar" not in {o.get("unit") for o in g.decision.options}  # spent, not activated
    assert not g.unexplained_changes()


def test_row_5_2_1_the_game_keeps_pending_chits_out_of_the_mug():
    """ROW-5.1 / ROW-5.2.1: the game's draw leaves out the chits lying on combats not yet resolved."""
    import wargames
    from wargames.core import Action

    g = wargames.load("row", seed=2)
    whole = [c.id for c in chits.mug("hasty")]
    d = Action.make("declare_combat", unit="us_3mar", hex="3349", combat_type="hasty")
    for _ in range(3):
        rulings, _, chit = _drive(g._draw_combat_chit("Capitalist", d, whole[1:]))
        assert chit.id == whole[0] and rulings[0].inputs["on_map"] == sorted(whole[1:])


# ============================================================== the game's steps, driven directly on a position
def _drive(gen, answer=None):
    """Run a game procedure outside the engine: each Decision answered by ``answer`` (default: its first option).
    Returns the rulings, the decisions and the procedure's return value."""
    from wargames.core import Decision

    rulings, asked = [], []
    try:
        item = next(gen)
        while True:
            if isinstance(item, Decision):
                asked.append(item)
                item = gen.send((answer or (lambda d: d.options[0]))(item))
            else:
                rulings.append(item)
                item = next(gen)
    except StopIteration as stop:
        return rulings, asked, stop.value


def _game(scenario="year-in-i-corps", **edits):
    import wargames

    return wargames.load("row", scenario, seed=3, position=edits or None)


def _river_side(g):
    """(attacker hex, combat hex) across a river hexside inside the window, and a land neighbour of the combat hex
    whose side with it has no river or bridge."""
    m = g.map
    for h in sorted(x for x in g.window_land if m.country(x) == "SVN"):
        for a in m.neighbours(h):
            if a in g.window_land and m.country(a) == "SVN" and m.side_has(a, h, "river"):
                dry = [
                    b
                    for b in m.neighbours(h)
                    if b in g.window_land
                    and m.country(b) == "SVN"
                    and b != a
                    and not m.side_features(b, h) & {"river", "bridge"}
                ]
                if dry:
                    return a, h, dry[0]
    raise AssertionError("no river hexside in the window")


def test_row_5_4_3_the_river_counts_only_if_every_attacker_crosses_it():
    g = _game()
    a, h, b = _river_side(g)
    g = _game(units={"us_3mar": a, "us_4mar": b, "vc_802": h})
    alone = g._ground("us_3mar", h, [])
    both = g._ground("us_3mar", h, ["us_4mar"])
    assert alone.every_across and alone.river_mod > 0
    assert not both.every_across  # the supporter attacks over dry ground: no river bonus (5.4.3)


def test_row_5_3_1_the_game_offers_the_road_bonus_on_a_road():
    from wargames.row.lesson import _limits

    g = _game()
    m = g.map
    us = _limits(g, "us_3mar")
    a, h = next(
        (x, y)
        for x in sorted(g.window_land & us)
        for y in m.neighbours(x)
        if y in g.window_land
        and y in us
        and m.side_has(x, y, "road")
        and not m.side_features(x, y) & {"river", "bridge"}
        and not (m.settlement(x) or m.settlement(y))
    )
    g = _game(units={"us_3mar": a, "vc_802": h})
    assert g._ground("us_3mar", h).road
    off = next(
        y for y in m.neighbours(a) if y in g.window_land and not m.side_features(a, y) and not m.settlement(y)
    )
    if not m.settlement(a):
        assert not g._ground("us_3mar", off).road


def test_row_5_1_a_resolved_hex_may_be_attacked_again():
    g = _game()
    g.chit_hexes[:] = ["3349"]  # in place: the field stays a journalled list
    rulings, _, _ = _drive(g._fight("us_3mar", "3349", "hasty", None))  # nobody there: the combat lapses
    assert rulings[0].title == "Combat lapses" and "3349" not in g.chit_hexes


def test_row_9_5_evade_gives_minus_4_to_communist_attacks():
    g = _game()
    g.missions["Communist"] = "evade"
    assert g._mission_attack_mod("Communist") == -4 and g._mission_attack_mod("Capitalist") == 0
    from wargames.row.resolve import CombatContext, _evade

    ctx = CombatContext(attack=None, defense=None, evade=True)
    assert _evade(ctx, "Communist") and not _evade(ctx, "Capitalist")


def test_row_9_5_offensive_offers_the_capitalist_unrestricted_ops():
    g = _game()
    g.restricted["Capitalist"] = "all"
    rulings, asked, _ = _drive(g._offer_unrestricted("offensive"))
    assert asked[0].kind == "unrestrict" and asked[0].side == "Capitalist"
    assert g.restricted["Capitalist"] == "none" and rulings[-1].title == "Unrestricted Ops"
    g.restricted["Capitalist"] = "all"
    _drive(g._offer_unrestricted("general_uprising"), answer=lambda d: d.options[-1])
    assert g.restricted["Capitalist"] == "all"


def test_row_9_5_vietnamization_only_arvn_units_support_an_arvn_defence():
    g = _game()
    m = g.map
    h = "3449"  # the ARVN 51st Regiment's hex south of Da Nang
    near = [n for n in m.neighbours(h) if n in g.window_land]
    g = _game(units={"vc_802": near[0], "us_3mar": near[1], "arvn_37rgr": near[2]})
    g.missions["Capitalist"] = "vietnamization"
    _, asked, _ = _drive(g._choose_supporters("vc_802", h, "Communist"), answer=lambda d: d.options[-1])
    cap = [d for d in asked if d.side == "Capitalist"]
    offered = {o.get("unit") for d in cap for o in d.options}
    assert "arvn_37rgr" in offered and "us_3mar" not in offered


def test_row_14_6_4_entering_the_dmz():
    g = _game()
    m = g.map
    d, out = next(
        (h, n)
        for h in sorted(g.window_land)
        if m.in_dmz(h)
        for n in m.neighbours(h)
        if n in g.window_land and m.country(n) == "SVN" and not m.in_dmz(n)
    )
    g = _game(units={"vc_802": out})
    before = g.vp["us_unrest"]
    g.place("vc_802", d)
    rulings, _, _ = _drive(g._entered("vc_802", [out, d]))
    assert any(r.rule_id == "ROW-14.6.4" for r in rulings)
    award = next(r for r in rulings if r.title == "Victory points")  # ROW-12.1.2, the zero rule included
    assert award.result["before"] == before and award.result["after"] == max(before - 1, 0)
    g = _game(units={"us_3mar": out})
    g.place("us_3mar", d)
    rulings, asked, _ = _drive(g._entered("us_3mar", [out, d]))
    assert any(r.title == "Capitalist unit enters the DMZ" for r in rulings)
    assert any(x.kind == "snafu_placement" and x.side == "Communist" for x in asked) or not g.snafu


def test_row_14_1_2_2_a_landing_zone_in_an_enemy_zoc_is_hot():
    from wargames.core import Action

    g = _game()
    m = g.map
    to = next(
        h
        for h in sorted(g.window_land)
        if m.country(h) == "SVN"
        and not m.in_dmz(h)
        and h not in g.at_hex
        and any(n not in g.at_hex for n in m.neighbours(h))
    )
    enemy = next(n for n in m.neighbours(to) if n in g.window_land and n not in g.at_hex)
    g = _game(units={"vc_802": enemy})
    avail = g.pools["Helicopter Available"]
    fly = Action.make("fly", unit="us_3mar", to=to, mp="1", cost=1)
    rulings, _, _ = _drive(g._fly("us_3mar", fly))
    assert any(r.title == "Hot LZ" for r in rulings) and g.pools["Helicopter Available"] == avail - 1


def test_row_4_7_an_unmoved_reserve_hq_may_flip_fresh():
    g = _game(fresh={"arvn_i_corps_hq": False})
    rulings, asked, _ = _drive(g._refresh_reserve_hq("Capitalist", "arvn_i_corps_hq"))
    assert asked and asked[0].kind == "hq_refresh" and asked[0].options[-1].kind == "no_refresh"
    assert g.fresh["arvn_i_corps_hq"] and rulings[-1].rule_id == "ROW-9.3"


def test_row_14_1_2_a_leaving_battalion_s_marker_goes_to_an_unmoved_regiment():
    g = _game()
    kid = next(u for u, r in g.rows.items() if r.has("created") and r.parent == "us_3mar")
    g.place(kid, g.pos["us_3mar"])
    received: dict[str, int] = {}
    rulings, _, _ = _drive(g._pass_marker(kid, "Disrupted", ["us_3mar", "us_4mar"], received))
    first = rulings[-1].result["to"]
    assert rulings[-1].title == "Marker passed on" and "Disrupted" in g.markers[first]
    # one new marker on each unmoved regiment before any takes a second
    rulings, _, _ = _drive(g._pass_marker(kid, "Ammo Shortage", ["us_3mar", "us_4mar"], received))
    assert rulings[-1].result["to"] != first and received == {"us_3mar": 1, "us_4mar": 1}
    rulings, _, _ = _drive(g._pass_marker(kid, "Low Morale", [], {}))
    assert rulings[-1].title == "Marker removed"


def test_row_13_2_a_replaced_unit_enters_on_a_friendly_supply_source():
    g = _game(
        units={"us_3mar": "replacements", "us_4mar": "replacements"}, pools={"Capitalist Replacements": 2}
    )
    rulings, asked, _ = _drive(g._replacements("Capitalist"), answer=lambda d: d.options[0])
    entry = [d for d in asked if d.kind == "replacement_entry"]
    assert entry and {o["hex"] for o in entry[0].options} <= set(g.map.supply_sources("capitalist"))
    back = rulings[-1].result["unit"] if "unit" in (rulings[-1].result or {}) else None
    assert back in g.pos and g.fresh[back]


def test_row_13_1_2_cadres_in_the_war_zones_recruit():
    g = _game("vietnam-war")
    m = g.map
    wz = next(
        h for h in sorted(g.window_land) if m.zone(h) and m.terrain(h) != "cultivated" and not m.settlement(h)
    )
    cadre = next(
        u for u, r in g.rows.items() if r.nationality == "VC" and r.unit_type == "cadre" and u in g.pos
    )
    g = _game("vietnam-war", units={cadre: wz})
    _, asked, _ = _drive(g.vc_recruitment(), answer=lambda d: d.options[-1])
    assert any(d.kind == "recruit" and any(o.get("cadre") == cadre for o in d.options) for d in asked)


def test_row_5_2_2_the_supporters_of_a_meeting_engagement_are_reported_for_no_early_exploitation():
    """ROW-5.2.2: ``_fight`` returns the attack's supporters; the activation keeps them out of early exploitation."""
    g = _game()
    m = g.map
    from wargames.row.lesson import _limits

    us = _limits(g, "us_3mar")
    h, a, b = next(
        (x, y, z)
        for x in sorted(g.window_land & us)
        if x not in g.at_hex
        for y in m.neighbours(x)
        for z in m.neighbours(x)
        if y < z and {y, z} <= us and not ({y, z} & set(g.at_hex)) and m.distance(y, z) >= 1
    )
    g = _game(units={"vc_802": h, "us_3mar": a, "us_4mar": b})

    def answer(d):
        pick = [o for o in d.options if o.kind == "add_supporter" and o["unit"] == "us_4mar"]
        return pick[0] if pick else d.options[0]

    _, _, helped = _drive(g._fight("us_3mar", h, "meeting_engagement", chits.chit_by_id("ME-01")), answer)
    assert helped == ["us_4mar"]
    from dataclasses import replace

    from tests.row.test_row_hq import scene
    from wargames.row import hq as H
    from wargames.row.supply import LocTracer

    s = scene()
    s = s.replace(replace(s.piece("vc1"), hex=s.piece("vc_hq").hex))  # the VC battalion leaves: no ZoC on us1
    s, act, _ = H.activate_hq(s, "us_hq", LocTracer(s))
    s, act, _ = H.activate_units(act, s, ["us1"])
    act = H.end_reserve(H.end_initial_movement(act))
    assert {o["unit"] for o in H.early_exploitation_units(act, s)} == {"us1"}
    assert H.early_exploitation_units(act, s, resolved_me=["us1"]) == []  # it supported a Meeting Engagement


# ============================================================== ROW-14.3: units inside tunnels
def _tunnel_scene():
    g = _game()
    m = g.map
    from wargames.row.lesson import _limits

    us = _limits(g, "us_3mar")
    h, a = next(
        (x, y)
        for x in sorted(g.window_land & us)
        if x not in g.at_hex
        for y in m.neighbours(x)
        if y in us and y not in g.at_hex
    )
    return _game(units={"vc_802": h, "us_3mar": a}, tunnels={h: "Hidden"}), h, a


def test_row_14_3_a_communist_unit_may_retreat_into_its_hex_s_tunnel():
    from wargames.row.fight import Engagement
    from wargames.row.resolve import CombatOutcome

    g, h, a = _tunnel_scene()
    e = Engagement("us_3mar", h, "Capitalist", ("vc_802",), {"Capitalist": [], "Communist": []})
    c = g._combat_sides(e, "hasty", chits.chit_by_id("ME-01"))
    ctx = g._combat_context(e, c, g.situation(), g._ground("us_3mar", h), set(), 0, 0)
    assert ctx.tunnel_units == ("vc_802",)  # the retreat into the tunnel is offered (losses.loss_options)
    out = CombatOutcome(units={u.uid: u for u in c.all_units()}, tunnel="vc_802")
    rulings, _, _ = _drive(g._apply_losses(out, {}))
    assert rulings[-1].title == "Into the tunnel" and g.inside["vc_802"] == h


def test_row_14_3_a_unit_in_a_hidden_tunnel_cannot_be_attacked():
    g, h, a = _tunnel_scene()
    assert h in g.situation().occupied("Communist")
    g.inside["vc_802"] = h
    g._touch()
    sit = g.situation()
    # not an occupied hex for attacks and control, and no ZoC (14.3)
    assert sit.piece("vc_802").in_tunnel and h not in sit.occupied("Communist")
    assert not sit.piece("vc_802").has_zoc
    g.tunnels[h] = "Discovered"  # found: the unit is fought as if on the surface
    g._touch()
    assert h in g.situation().occupied("Communist")
    g.place("vc_802", next(n for n in g.map.neighbours(h) if n != a and n in g.window_land))
    assert "vc_802" not in g.inside  # leaving the hex, it leaves the tunnel


def test_row_14_3_an_active_communist_unit_may_enter_a_tunnel_by_movement():
    """R-GAME-40: at the end of its initial movement an active Communist unit in a hex with a tunnel is offered the
    tunnel (a legal action, no MP); inside the Hidden tunnel it cannot be attacked and does not control the hex;
    it may come out again, and the offer is not made where there is no tunnel."""
    g, h, a = _tunnel_scene()
    rulings, asked, _ = _drive(g.tunnel_entry("Communist", "vc_802"))
    assert [d.kind for d in asked] == ["tunnel_entry"] and asked[0].rule_id == "ROW-14.3"
    assert [o.kind for o in asked[0].options] == ["enter_tunnel", "stay_on_surface"]
    assert g.inside["vc_802"] == h and rulings[-1].title == "Into the tunnel"
    assert rulings[-1].hidden_from == ("Capitalist",)  # a Hidden tunnel is not shown to the Capitalist
    sit = g.situation()
    assert sit.piece("vc_802").in_tunnel and h not in sit.occupied("Communist")
    from wargames.row import control

    assert control.controller(sit, h).result != "Communist"  # no hex control from inside (14.3)
    assert g.tracer().trace(sit.piece("vc_802")).result.ok  # always in supply inside (14.3)
    assert not g.unexplained_changes()
    # it may come out onto the surface again
    rulings, asked, _ = _drive(g.tunnel_entry("Communist", "vc_802"), answer=lambda d: d.options[-1])
    assert [o.kind for o in asked[0].options] == ["stay_in_tunnel", "leave_tunnel"]
    assert "vc_802" not in g.inside and rulings[-1].title == "Out of the tunnel"
    # declining leaves the game unchanged; no offer to the Capitalist nor where there is no tunnel
    rulings, asked, _ = _drive(g.tunnel_entry("Communist", "vc_802"), answer=lambda d: d.options[-1])
    assert "vc_802" not in g.inside and not rulings
    assert list(g.tunnel_entry("Capitalist", "us_3mar")) == []
    del g.tunnels[h]
    assert list(g.tunnel_entry("Communist", "vc_802")) == []


def test_row_14_3_the_bot_takes_its_unit_into_the_tunnel():
    """R-GAME-40: the built-in Communist goes into the tunnel and says why."""
    from wargames.row.bots import RowBot

    g, h, _ = _tunnel_scene()
    bot = RowBot("Communist")
    gen = g.tunnel_entry("Communist", "vc_802")
    d = next(gen)
    a = bot.on_tunnel_entry(g, d)
    assert a.kind == "enter_tunnel" and "tunnel" in bot.last_reason


# ============================================================== ROW-14.4.1: an HQ's LoC through enemy control
def _hq_answer(trace: bool):
    """Answers for the HQ activation: activate III MAF, trace its LoC or not, place a drawn counter where first offered;
    after a decline, end the activations."""

    def answer(d):
        if d.kind == "hq_activation":
            return next(
                (o for o in d.options if o.kind == "activate_hq" and o["hq"] == "us_iii_maf"), d.options[-1]
            )
        if d.kind == "loc_trace":
            return d.options[0 if trace else 1]
        return d.options[0]

    return answer


def test_row_14_4_1_an_hq_tracing_through_enemy_control_draws_from_the_cup_of_snafu():
    """R-GAME-41: III MAF alone at 3048 can trace its LoC only through Communist-controlled hexes: activating it
    offers the trace (one SNAFU draw, the Communist placing the counter on one of the units it may activate)."""
    g = _game(units={"us_iii_maf": "3048"})
    cup = len(g.snafu)
    rulings, asked, a = _drive(g._activate_hq("Capitalist"), _hq_answer(True))
    opt = next(o for o in asked[0].options if o.get("hq") == "us_iii_maf")
    assert opt["snafu_draw"] and "SNAFU" in opt.label
    assert [d.kind for d in asked[:2]] == ["hq_activation", "loc_trace"] and asked[1].rule_id == "ROW-14.4.1"
    assert [o.kind for o in asked[1].options] == ["trace_loc", "decline_loc"]
    assert a["hq"] == "us_iii_maf" and g.act.hq == "us_iii_maf" and not g.fresh["us_iii_maf"]
    traced = next(r for r in rulings if r.title == "LoC traced through enemy control")
    assert traced.rule_id == "ROW-14.4.1" and "R-GAME-41" in traced.explanation
    draw = next(d for d in asked if d.kind == "snafu_placement")
    assert draw.side == "Communist"
    placed_on = {o.get("unit") for o in draw.options if o.kind == "place_snafu"}
    assert placed_on <= set(traced.result["among"])  # only units this HQ may activate
    drawn = [r for r in rulings if r.title == "Cup of SNAFU draw"]
    assert (
        len(drawn) == 1 and len(g.snafu) == cup - 1
    )  # one counter drawn, placed (the first option) on a unit
    assert g.markers[draw.options[0]["unit"]]
    assert not g.unexplained_changes()


def test_row_14_4_1_an_hq_whose_trace_is_declined_does_not_activate():
    """R-GAME-41: declining the trace: the HQ stays fresh, no counter is drawn, and the HQ choice comes again."""
    g = _game(units={"us_iii_maf": "3048"})
    cup = sorted(g.snafu)
    rulings, asked, a = _drive(g._activate_hq("Capitalist"), _hq_answer(False))
    assert [d.kind for d in asked] == ["hq_activation", "loc_trace", "hq_activation"]
    assert "us_iii_maf" not in {o.get("hq") for o in asked[2].options}  # declined: not offered again now
    assert g.fresh["us_iii_maf"] and sorted(g.snafu) == cup and a is None
    assert any(r.title == "LoC not traced" and r.rule_id == "ROW-14.4.1" for r in rulings)


def test_row_14_4_1_the_bot_traces_an_hq_s_loc():
    from wargames.core import Decision
    from wargames.row.bots import RowBot

    g = _game(units={"us_iii_maf": "3048"})
    opts = [Action.make("trace_loc", unit="us_iii_maf"), Action.make("decline_loc", unit="us_iii_maf")]
    bot = RowBot("Capitalist")
    a = bot.on_loc_trace(g, Decision("Capitalist", "trace?", "ROW-14.4.1", opts, kind="loc_trace"))
    assert a.kind == "trace_loc" and "SNAFU" in bot.last_reason
