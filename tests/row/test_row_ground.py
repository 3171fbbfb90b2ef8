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
