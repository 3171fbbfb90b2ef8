"""OB options: Limited Strategic Intelligence, Special Rules B, H and J, Victory Modification P."""

from __future__ import annotations

import pytest

from wargames.core import Action, IllegalAction
from wargames.core.data import DataError
from wargames.testing import unstarted
from wargames.yotr.data import load_data
from wargames.yotr.deploy import infiltration_hexes
from wargames.yotr.game import YotrGame
from wargames.yotr.ob import forces, lsi_pick
from wargames.yotr.victory import modification_p

from .conftest import choose, clear, put, yotr_at

D = load_data()


def test_yotr_lsi_one_die_picks_both_obs():
    # EX-09
    allied = {"A": 2, "B": 4, "C": 1, "D": 6, "E": 3, "F": 5}
    communist = {"G": 6, "H": 3, "J": 4, "K": 1, "L": 5, "M": 2}
    assert lsi_pick(allied, communist, 2) == ("A", "M")
    with pytest.raises(ValueError):
        lsi_pick({**allied, "A": 4}, communist, 2)


def test_yotr_vm_p_strength_above_or_below_seventy():
    # EX-23, EX-24
    assert D.level(modification_p(20, 60)).level == "Draw"
    assert D.level(modification_p(10, 85)).level == "Communist Substantive Victory"


def test_yotr_vm_final_result_uses_modification_p():
    g = YotrGame("historical", 4, {"victory_modification_p": True})
    g.advance("end")
    assert g.result.rule_id in ("YOTR-VM-P", "YOTR-VIC-DEC")
    if g.result.rule_id == "YOTR-VM-P":
        assert g.result.result["net"] == g.vp + g.nva_strength_in_svn() - 70


def test_yotr_sr_h_battlegroups_are_2_1_6_and_always_supplied():
    def edit(g):
        clear(g)
        put(g, "nva_2", "1987")
        g.bg.add("nva_2")

    g = yotr_at("c_move", turn=3, edit=edit, options={"special_rule_h": True})
    assert g.attack_value("nva_2") == 2 and g.defense_value("nva_2") == 1
    assert g.supply["nva_2"] == "attack_supply"


def test_yotr_sr_b_pacification_every_town_held_first():
    from wargames.yotr.bots import AlliedBot, CommunistBot

    g = YotrGame("standard", 0, {"special_rule_b": True})
    g.set_players({"Communist": CommunistBot(0), "Allied": AlliedBot(0)})
    g.advance("turn")
    enterable = [h for h in D.towns if D.terrain(h) == "clear" or D.has_road_or_trail(h)]
    assert all(g.occupied_by(h, "Allied") or g.occupied_by(h, "Communist") for h in enterable)


def test_yotr_sr_j_infiltration_hexes():
    hexes = infiltration_hexes()
    assert hexes and all(
        D.country(h) == "SVN" and D.terrain(h) in ("rough", "swamp") and not D.has_road_or_trail(h)
        for h in hexes
    )
    g = YotrGame("standard", 0, {"special_rule_j": True})
    g.set_players({"Communist": None, "Allied": None})
    from wargames.yotr.bots import AlliedBot, CommunistBot

    bots = {"Communist": CommunistBot(0), "Allied": AlliedBot(0)}
    while not (g.decision.side == "Communist" and g.decision.prompt.endswith("(step 3)")):
        g.apply(bots[g.decision.side].choose(g, g.decision))
    assert any(a["to"] in hexes for a in g.legal_actions())


# ---------------------------------------------------------------- YOTR-OB / YOTR-IFC: the twelve orders of battle
def _count(rows, **match):
    return sum(1 for r in rows.values() if all(getattr(r, k) == v for k, v in match.items()))


@pytest.mark.parametrize("ob", ["G", "H", "J", "K", "L", "M"])
def test_yotr_ifc_every_communist_ob_keeps_21_nva_counters_5_nlf_13_supply(ob):
    # rules L1718-1737: 14 + 7 NVA combat units or dummies, 5 NLF and 13 supply units in every game
    f = forces(D, "A", ob)
    start = {k: r for k, r in f.items() if r.side == "Communist" and r.turn is None}
    assert _count(start, nationality="NVA", unit_type="infantry") + _count(start, unit_type="dummy") == 21
    assert _count(start, nationality="NLF") == 5
    assert _count(start, unit_type="supply_real") + _count(start, unit_type="supply_dummy") == 13


@pytest.mark.parametrize("ob", ["A", "B", "C", "D", "E", "F"])
def test_yotr_ifc_every_allied_ob_has_one_arvn_3_6(ob):
    # rules L2034-2037: whatever the OB, exactly one ARVN 3-6
    f = forces(D, ob, "G")
    assert _count(f, nationality="ARVN", values="3-6") == 1


def test_yotr_ifc_ob_c_has_no_arvn_1_6_and_the_variants_differ_as_recorded():
    # rules L2029: OB C's multiplier for the ARVN 1-6 is x0; the rest is reconstruction D-63
    hist, c, d = forces(D, "A", "G"), forces(D, "C", "G"), forces(D, "D", "G")
    assert _count(hist, nationality="ARVN", values="1-6") == 4
    assert (
        _count(c, nationality="ARVN", values="1-6") == 0 and _count(c, nationality="ARVN", values="2-6") == 10
    )
    assert (
        _count(d, nationality="ARVN", values="1-6") == 10 and _count(d, nationality="ARVN", values="2Y6") == 9
    )
    strength = {
        ob: sum(
            r.attack or 0
            for r in forces(D, "A", ob).values()
            if r.nationality == "NVA" and r.unit_type == "infantry"
        )
        for ob in "GLM"
    }
    assert strength["L"] < strength["G"] < strength["M"]
    assert {r.source.split(":")[0] for r in c.values() if r.ob == "C"} == {"reconstruction"}


def test_yotr_ob_letters_switch_on_their_special_rules():
    # YOTR-OB (rules L1883-1937): B -> Rule B; C -> Modification P; F -> Rule F and P; H -> H; J -> J; K -> J and H
    def on(a, c):
        g = unstarted("yotr", "ob-options", 0, {"allied_ob": a, "communist_ob": c})
        return {
            k
            for k in (
                "special_rule_b",
                "special_rule_f",
                "special_rule_h",
                "special_rule_j",
                "victory_modification_p",
            )
            if getattr(g.opts, k)
        }

    assert on("A", "G") == set()
    assert on("B", "H") == {"special_rule_b", "special_rule_h"}
    assert on("C", "J") == {"victory_modification_p", "special_rule_j"}
    assert on("F", "K") == {"special_rule_f", "victory_modification_p", "special_rule_j", "special_rule_h"}
    assert on("D", "L") == on("E", "M") == set()


def test_yotr_ob_variant_reinforcements_arrive_on_their_turns():
    from wargames.yotr.bots import AlliedBot, CommunistBot

    g = YotrGame("ob-options", 3, {"allied_ob": "E", "communist_ob": "M"})
    g.set_players({"Communist": CommunistBot(3), "Allied": AlliedBot(3)})
    while not g.is_over and g.turn < 7:
        g.advance("turn")
    assert g.naval == 4  # historical GT1 marker + E's three (GT2, GT4, GT6)
    assert any(r.title == "m_nva_rein_1 arrives" for r in g.log) or g.loc["m_nva_rein_1"] != "track"
    f = YotrGame("ob-options", 3, {"allied_ob": "F", "communist_ob": "G"})
    f.set_players({"Communist": CommunistBot(3), "Allied": AlliedBot(3)})
    while not f.is_over and f.turn < 6:
        f.advance("turn")
    assert (
        f.opts.special_rule_f
        and sum(f.loc[u] not in ("track",) for u in ("f_usa_1", "f_usa_2", "f_usa_3")) >= 2
    )


def test_yotr_ob_historical_game_refuses_other_obs_and_bad_letters():
    with pytest.raises(DataError, match="YOTR-SET-SCEN.*historical.yaml|historical.yaml.*YOTR-SET-SCEN"):
        YotrGame("historical", 0, {"allied_ob": "C"})
    with pytest.raises(DataError, match="ob-options.yaml"):
        YotrGame("ob-options", 0, {"communist_ob": "I"})
    with pytest.raises(ValueError, match="YOTR-OB"):
        forces(D, "G", "A")


def test_yotr_ifc_bad_variant_row_names_file_and_line():
    from wargames.yotr.data import ObVariantRow, _check_variants

    bad = ObVariantRow(ob="L", change="remove", id="arvn_qt_1", source="reconstruction: test")
    with pytest.raises(DataError, match=r"ob_variants.csv, line 2.*not a Communist counter"):
        _check_variants("data/yotr/ob_variants.csv", (bad,), D.oob)


# ---------------------------------------------------------------- YOTR-LSI in play
def _number(g, side, order):
    for n, ob in enumerate(order[:5], start=1):
        assert g.decision.side == side and g.decision.rule_id == "YOTR-LSI"
        choose(g, "lsi_number", ob=ob, number=n)


def test_yotr_lsi_die_picks_both_obs_and_the_communist_one_stays_hidden():
    g = YotrGame("ob-options", 5, {"lsi": True}, players={"Communist": None, "Allied": None})
    g.force_dice([3])
    _number(g, "Allied", "FEDCBA")  # F=1 E=2 D=3 ...
    _number(g, "Communist", "MLKJHG")  # M=1 L=2 K=3 ...
    assert g.obs == ("D", "K") and g.lsi_numbers["Communist"]["K"] == 3
    pick = next(r for r in g.log if r.rule_id == "YOTR-LSI" and r.title.startswith("Die 3"))
    assert "K" not in pick.public and "OB D" in pick.public and "Allied" in pick.hidden_from
    assert g.opts.special_rule_j and g.opts.special_rule_h  # K = Rules J and H
    assert g.public_state("Allied")["obs"]["Communist"].startswith("hidden")
    assert g.public_state("Communist")["obs"]["Communist"] == "K"
    assert "m_nva_1" not in g.counters  # the forces are those of D and K


def test_yotr_lsi_one_number_per_ob_refused_with_state_unchanged():
    g = YotrGame("ob-options", 5, {"lsi": True}, players={"Communist": None, "Allied": None})
    choose(g, "lsi_number", ob="A", number=1)
    before = g.digest()
    with pytest.raises(IllegalAction, match=r"\[YOTR-LSI\]"):
        g.apply(Action.make("lsi_number", "OB A gets number 2 as well", ob="A", number=2))
    assert g.digest() == before and g.decision.prompt.endswith("number 2?")


def test_yotr_lsi_game_replays_and_reveals_the_communist_ob_at_the_end():
    from wargames.yotr.bots import AlliedBot, CommunistBot

    def run():
        g = YotrGame("ob-options", 11, {"lsi": True})
        g.set_players({"Communist": CommunistBot(11), "Allied": AlliedBot(11)})
        g.play()
        return g

    a, b = run(), run()
    assert a.digest() == b.digest() and a.obs == b.obs
    reveal = [r for r in a.log if r.rule_id == "YOTR-LSI" and r.title.startswith("The Communist played")]
    assert len(reveal) == 1 and reveal[0].result["communist_ob"] == a.obs[1] and not reveal[0].hidden_from
    assert a.public_state("Allied")["obs"]["Communist"] == a.obs[1]
    assert a.invariants() == []


@pytest.mark.parametrize("seed", [1, 2])
def test_yotr_lsi_random_play_keeps_invariants_saves_and_undo(seed):
    import wargames
    from wargames.core import RandomPlayer

    g = wargames.load("yotr", "ob-options", seed=seed, lsi=True)
    g.set_players({"Communist": None, "Allied": None})
    rnd = {s: RandomPlayer(seed * 7 + i) for i, s in enumerate(g.sides)}
    done = []
    while not g.is_over and g.turn < 2:
        before = g.state_dict()
        act = rnd[g.decision.side].choose(g, g.decision)
        rulings = g.apply(act)
        done.append(act)
        assert not g.invariants() + g.transition_problems(before, rulings), len(done)
        if len(done) == 12:  # the die has picked the OBs: save/open, then undo across the pick and redo it
            assert g.lsi_numbers["Communist"] and wargames.open_save(g.save()).digest() == g.digest()
            here = g.digest()
            g.undo(3)
            assert "Communist" not in g.lsi_numbers and g.obs == g.first_obs
            for again in done[-3:]:
                g.apply(again)
            assert g.digest() == here
    assert len(done) > 12
