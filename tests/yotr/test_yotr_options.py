"""OB options: Limited Strategic Intelligence, Special Rules B, H and J, Victory Modification P."""

from __future__ import annotations

import pytest

from wargames.yotr.data import load_data
from wargames.yotr.deploy import infiltration_hexes
from wargames.yotr.game import YotrGame
from wargames.yotr.ob import lsi_pick
from wargames.yotr.victory import modification_p

from .conftest import clear, put, yotr_at

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
    assert hexes and all(D.country(h) == "SVN" and D.terrain(h) in ("rough", "swamp")
                         and not D.has_road_or_trail(h) for h in hexes)
    g = YotrGame("standard", 0, {"special_rule_j": True})
    g.set_players({"Communist": None, "Allied": None})
    from wargames.yotr.bots import AlliedBot, CommunistBot

    bots = {"Communist": CommunistBot(0), "Allied": AlliedBot(0)}
    while not (g.decision.side == "Communist" and g.decision.prompt.endswith("(step 3)")):
        g.apply(bots[g.decision.side].choose(g, g.decision))
    assert any(a["to"] in hexes for a in g.legal_actions())
