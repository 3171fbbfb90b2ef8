"""Allied movement in phases 4 and 7 (summary lines 43-48, 58-59): digest worked case 29 and the unit rules."""

from __future__ import annotations

from wargames.core import Action

from .conftest import clear, put, tet_at


def _phase(phase, turn=2, edit=None):
    return tet_at(phase, turn=turn, edit=edit, players={"Allied": None})


def _select(g, uid):
    g.apply(Action.make("select", unit=uid))
    return g.legal_actions()


def test_tet_unit_3_sector_units_operate_only_inside_their_own_corps():
    """L14 (decision A-10): own Corps only; a sanctuary bordering the Corps is not inside it."""
    g = _phase("p7")
    assert g.allied_may_enter("us_4id_1", "22") and not g.allied_may_enter("us_4id_1", "13")
    assert not g.allied_may_enter("us_4id_1", "S4")  # borders II Corps, lies in Cambodia
    assert not g.allied_may_enter("us_4id_1", "KH1")
    assert g.allied_may_enter("us_3mar", "S2") and not g.allied_may_enter(
        "us_3mar", "S1"
    )  # A Shau lies in I Corps


def test_tet_unit_4_theater_units_operate_anywhere_on_the_map():
    """L14 (decisions A-10, D-13): North Vietnam, Laos and Cambodia included."""
    g = _phase("p7")
    for area in ("43", "S4", "NVN", "LA1", "KH4", "13"):
        assert g.allied_may_enter("us_1cav_1", area), area
    assert not g.allied_may_enter("us_1cav_1", "casualties")


def test_tet_unit_4_historical_border_restriction_option_keeps_allies_out_of_nvn_laos_cambodia():
    """Decisions A-10 and D-13: the 1968 political limits are a named option, off by default."""
    from wargames.tet import TetGame

    g = TetGame("historical", 7, options={"historical_border_restriction": True})
    assert not g.allied_may_enter("us_1cav_1", "NVN") and not g.allied_may_enter("us_1cav_1", "LA1")
    assert g.allied_may_enter("us_1cav_1", "S4") and g.allied_may_enter("us_1cav_1", "43")
    assert not TetGame("historical", 7).rules_opts.historical_border_restriction


def test_tet_p4_1_mech_cav_ride_the_highway_and_stop_at_trouble():
    def edit(g):
        put(g, "us_1_69ar", "pleiku")
        clear(g, "an_khe", "ban_me_thuot")
        put(g, "vc_ii_01", "an_khe", face_up=True)
        g.insurrection.add("ban_me_thuot")

    g = _phase("p4", edit=edit)
    dests = {a["to"] for a in _select(g, "us_1_69ar") if a.kind == "allied_move"}
    assert {"kontum", "ban_me_thuot", "an_khe", "22"} <= dests
    assert "qui_nhon" not in dests and "nha_trang" not in dests  # the enemy and the rising stop the road


def _homeless(g, uid="us_4id_1", city="quang_ngai"):
    clear(g, city)
    put(g, uid, city)


def test_tet_p4_2_out_of_sector_unit_must_head_home():
    """L44 (decision A-25): every move offered brings it back into its Corps, through the other Corps if need be."""
    g = _phase("p7", edit=_homeless)
    dests = g.ground_destinations("us_4id_1", road=True)
    assert dests and all(g.corps_of(d) == "II" for d in dests) and "qui_nhon" in dests
    assert all(a["rule"] == "TET-P4-2" for a in _select(g, "us_4id_1") if a.kind == "allied_move")


def test_tet_p4_2_out_of_reach_of_home_it_moves_toward_it():
    g = _phase("p7", edit=lambda g: put(g, "us_4id_1", "12"))
    assert g.ground_destinations("us_4id_1", road=True) == {"13", "15"}  # each one step from II Corps


def test_tet_p4_2_the_way_home_never_enters_laos_or_cambodia():
    """L44 with L14 (decision A-25): from the Delta an I Corps unit heads home through South Vietnam; the
    Cambodian province next door is no road home for a sector unit."""
    g = _phase("p7", turn=3, edit=lambda g: put(g, "us_3mar", "43"))
    dests = g.ground_destinations("us_3mar", road=True)
    assert dests and "KH4" not in dests
    assert all(g.data.areas[d].country == "SVN" for d in dests)
    for start in ("31", "32", "41", "42"):
        g.loc["us_3mar"] = start
        assert all(g.data.areas[d].country == "SVN" for d in g.return_destinations("us_3mar")), start


def test_tet_p4_2_with_no_way_home_the_unit_stays_and_the_phase_can_end():
    """L44 with L14 (decision A-25): when South Vietnam offers no road home, nothing compels a move the unit
    may not make: the phase may end, and its ruling names the unit left outside its Corps."""

    def barred(g):
        _homeless(g)
        g.homebound_may_enter = lambda area: area == "quang_ngai"  # every way home barred

    g = _phase("p7", turn=3, edit=barred)
    assert not g.must_return("us_4id_1", 7)
    assert "end_allied_move" in {a.kind for a in g.legal_actions()}
    g.apply(next(a for a in g.legal_actions() if a.kind == "end_allied_move"))
    end = next(r for r in reversed(g.log) if r.result and "stranded" in r.result)
    assert end.result["stranded"] == ["us_4id_1"] and "Laos, Cambodia" in end.explanation


def test_tet_p4_2_the_phase_cannot_end_before_the_unit_goes_home():
    """The move is compelled: no 'end movement' until the unit has gone back."""
    g = _phase("p7", turn=3, edit=_homeless)
    assert g.decision.rule_id == "TET-P4-2" and "end_allied_move" not in {a.kind for a in g.legal_actions()}
    g.apply(next(a for a in _select(g, "us_4id_1") if a.kind == "allied_move"))
    assert g.corps_of(g.loc["us_4id_1"]) == "II"
    assert "end_allied_move" in {a.kind for a in g.legal_actions()}
    moved = next(r for r in g.log if r.rule_id == "TET-P4-2" and r.inputs.get("unit") == "us_4id_1")
    assert "must move back" in moved.explanation


def test_tet_p4_2_mech_cav_go_home_in_phase_4():
    g = _phase("p4", edit=lambda g: _homeless(g, "us_1_69ar"))
    assert "end_allied_move" not in {a.kind for a in g.legal_actions()}
    dests = {a["to"] for a in _select(g, "us_1_69ar") if a.kind == "allied_move"}
    assert dests and all(g.corps_of(d) == "II" for d in dests)


def test_tet_p4_2_going_home_does_not_use_the_slow_reaction_allowance():
    """Turn 1, Corps II rolls 1: the unit going home moves free, and one other II Corps unit may still move."""
    g = tet_at("p7", turn=1, dice=[6, 1, 6, 6], edit=_homeless, players={"Allied": None})
    assert g.allowance["II"] == 1
    g.apply(next(a for a in _select(g, "us_4id_1") if a.kind == "allied_move"))
    assert g.used["II"] == 0 and "slow-reaction" in g.log[-1].explanation
    g.apply(next(a for a in _select(g, "us_4id_2") if a.kind == "allied_move"))
    assert g.used["II"] == 1 and "us_4id_3" not in {a.get("unit") for a in g.legal_actions()}


def test_tet_p4_2_bot_sends_the_unit_home_and_says_why():
    from wargames.tet.bots import AlliedBot

    g = _phase("p7", turn=3, edit=_homeless)
    bot = AlliedBot(0)
    reasons = []
    while g.loc["us_4id_1"] == "quang_ngai":
        g.apply(bot.choose(g, g.decision))
        reasons.append(bot.last_reason)
    assert g.corps_of(g.loc["us_4id_1"]) == "II"
    assert any("must return to its own Corps (TET-P4-2)" in r for r in reasons)


def test_tet_p4_3_riverine_moves_within_42_and_43_with_a_passenger():
    g = _phase("p4", edit=lambda g: (put(g, "us_mrf", "my_tho"), put(g, "arvn_10", "my_tho")))
    moves = [a for a in _select(g, "us_mrf") if a.kind == "allied_move"]
    assert {a["to"] for a in moves} <= {"42", "43", *g.data.cities_of["42"], *g.data.cities_of["43"]}
    lift = next(a for a in moves if a.get("passenger") == "arvn_10" and a["to"] == "can_tho")
    g.apply(lift)
    assert g.loc["us_mrf"] == g.loc["arvn_10"] == "can_tho"


def test_tet_p4_4_battleship_stations_off_the_coastal_i_corps_provinces():
    g = _phase("p4")
    assert {a["to"] for a in _select(g, "us_bb") if a.kind == "allied_move"} == {"offshore_12", "offshore_13"}
    assert g.battleship_area() == {"11", *g.data.cities_of["11"]}


def test_tet_p4_5_sector_heli_lifts_one_infantry_unit_within_its_corps():
    g = _phase("p4")
    moves = [a for a in _select(g, "us_heli_II") if a.kind == "allied_move"]
    assert moves and all(
        g.unit(a["passenger"]).type != "mech_cav" and g.corps_of(a["to"]) == "II" for a in moves
    )
    g.apply(moves[0])
    p = moves[0]["passenger"]
    assert g.loc[p] == g.loc["us_heli_II"] == moves[0]["to"] and g.heli_lifted[p] == "us_heli_II"


def test_tet_p4_5_sector_heli_lifts_into_the_sanctuaries_of_its_own_corps():
    """L47 with L14: A Shau (S2) lies in I Corps, so the I Corps helicopter may land a unit there; Tchepone (S1,
    in Laos) is outside every Corps."""
    g = _phase("p4")
    dests = {a["to"] for a in _select(g, "us_heli_I") if a.kind == "allied_move"}
    assert "S2" in dests and "S1" not in dests and "NVN" not in dests


def test_tet_p4_6_sector_tac_air_flies_to_any_area_of_its_corps():
    """L48: any area of its Corps, enemy in view or not; never outside the Corps."""
    g = _phase("p4", edit=lambda g: put(g, "vc_i_01", "13", face_up=True))
    dests = {a["to"] for a in _select(g, "us_tac_II") if a.kind == "allied_move"}
    corps_ii = {a for a in g.data.areas if g.corps_of(a) == "II"} - {g.loc["us_tac_II"]}
    assert dests == corps_ii and "23" in dests and "pleiku" in dests  # no enemy in view needed
    assert "13" not in dests and "S4" not in dests  # another Corps; a sanctuary outside South Vietnam's Corps
    g.apply(Action.make("back"))
    assert "S2" in {
        a["to"] for a in _select(g, "us_tac_I") if a.kind == "allied_move"
    }  # a sanctuary of I Corps


def test_tet_p4_6_a_tac_air_destination_outside_its_corps_is_refused_under_p4_6():
    """L48: the refusal names the strike-aircraft rule (not the mech/cav rule TET-P4-1) and the game is unchanged."""
    import pytest

    from wargames.core import IllegalAction

    g = _phase("p4")
    _select(g, "us_tac_II")
    assert g.decision.rule_id == "TET-P4-6"
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("allied_move", rule="TET-P4-6", to="13", unit="us_tac_II"))
    assert err.value.rule_id == "TET-P4-6" and "Quang Ngai" in str(err.value)
    assert g.digest() == before


def test_tet_p4_5_a_helicopter_lift_reads_as_one_clean_sentence():
    """L47: the ruling says where the helicopter flew, whom it picked up where, and where it set the unit down,
    by names (no area ids, no stray brackets)."""
    g = _phase("p4")
    lift = next(a for a in _select(g, "us_heli_II") if a.kind == "allied_move" and a.get("passenger"))
    rider, frm = lift["passenger"], g.loc[lift["passenger"]]
    assert g.data.areas[frm].name in lift.label and f"from {frm})" not in lift.label
    g.apply(lift)
    r = next(r for r in reversed(g.log) if r.rule_id == "TET-P4-5")
    text = r.explanation
    assert text.startswith(g.describe("us_heli_II") + " flies from Pleiku to " + g.area_name(frm))
    assert f"picks up {g.describe(rider)} and sets it down in {g.area_name(lift['to'])}" in text
    assert text.count("(") == text.count(")") and text.endswith(".")
    assert f" {frm})" not in text and f"from {frm}" not in text.replace(g.area_name(frm), "")


def test_tet_p4_6_theater_tac_air_flies_anywhere_on_the_map_north_vietnam_included():
    g = _phase("p4")
    dests = {a["to"] for a in _select(g, "us_tac_t") if a.kind == "allied_move"}
    assert {"NVN", "LA1", "KH4", "S4", "43", "saigon", "13"} <= dests
    assert not any(g.data.areas[d].kind == "box" for d in dests)


def test_tet_p4_6_tac_air_strikes_in_phase_6_what_the_phase_5_search_turns_up():
    """Flown in phase 4 where hidden units are, the aircraft strikes once the ground units have found them."""

    def edit(g):
        for u in g.loc:
            if g.unit(u).faction in ("NVA", "VC"):
                g.loc[u] = "eliminated"
        clear(g, "23")
        put(g, "vc_ii_01", "23", face_up=False)
        put(g, "us_4id_1", "23")

    g = _phase("p4", edit=edit)
    g.apply(next(a for a in _select(g, "us_tac_II") if a.get("to") == "23"))
    g.force_dice([1])  # the detection roll in 23 succeeds
    g.apply(g.legal_actions()[-1])  # end phase 4
    while not (g.decision and g.decision.rule_id == "TET-P6-2"):
        assert g.phase.id in ("p5", "p6")
        if g.decision is None:
            g.advance("decision")
        else:
            g.apply(g.legal_actions()[0] if g.decision.rule_id == "TET-P2-2" else g.legal_actions()[-1])
    assert any(r.rule_id == "TET-P5-2" and r.result.get("units") == ["vc_ii_01"] for r in g.log)
    assert {a.get("target") for a in g.legal_actions()} == {"vc_ii_01", None}
    assert g.loc["us_tac_II"] == "23"


def test_tet_p7_2_slow_reaction_caps_sector_units_on_turns_one_and_two():
    """Digest case 29: Corps II rolls 2: at most two II Corps sector units move; theater units are free."""
    g = tet_at("p7", turn=1, dice=[6, 2, 6, 6], players={"Allied": None})
    assert g.allowance == {"I": 6, "II": 2, "III": 6, "IV": 6}
    for uid in ("us_4id_1", "us_4id_2"):
        move = next(a for a in _select(g, uid) if a.kind == "allied_move")
        g.apply(move)
    movers = {a.get("unit") for a in g.legal_actions()}
    assert "us_4id_3" not in movers  # a third II Corps sector unit may not move
    assert "us_1cav_2" in movers  # theater units are exempt


def test_tet_p7_1_every_allied_unit_but_ruff_puffs_may_move_once():
    g = _phase("p7", turn=3)
    movers = {a.get("unit") for a in g.legal_actions()}
    assert not any(g.unit(u).type == "ruff_puff" for u in movers if u)
    move = next(a for a in _select(g, "us_4id_1") if a.kind == "allied_move")
    g.apply(move)
    assert "us_4id_1" not in {a.get("unit") for a in g.legal_actions()}


def test_tet_p7_3_aircraft_away_from_base_fly_home_or_are_lost():
    def edit(g):
        put(g, "us_tac_II", "23")
        put(g, "us_tac_t", "43")
        for b in g.airbases("IV"):
            put(g, "vc_iv_01", b, face_up=True)  # occupy every IV Corps airbase...
        clear(g, "can_tho", "vinh_long")
        put(g, "vc_iv_01", "can_tho", face_up=True)
        put(g, "vc_iv_02", "vinh_long", face_up=True)
        put(g, "us_heli_IV", "43")

    g = tet_at("p7", turn=3, edit=edit)
    g.advance("phase")
    assert g.loc["us_tac_II"] in g.airbases("II")
    assert g.loc["us_tac_t"] == "offmap_box_1"  # theater air goes back to its off-map box
    assert g.loc["us_heli_IV"] in ("casualties", "eliminated")  # no usable IV Corps airbase


def test_tet_p7_4_returning_heli_may_carry_one_unit():
    def edit(g):
        put(g, "us_heli_II", "22")
        put(g, "us_4id_3", "22")

    g = _phase("p7", turn=3, edit=edit)
    assert g.decision.rule_id == "TET-P7-3"
    carry = next(a for a in g.legal_actions() if a.get("passenger") == "us_4id_3")
    g.apply(carry)
    assert g.loc["us_heli_II"] == g.loc["us_4id_3"] == carry["to"]


def test_tet_p7_2_battleship_and_riverine_passengers_ride_free_of_the_allowance():
    """Decision D-22: turn 1, Corps I and IV roll 1; the battleship and the riverine's passenger use none of it."""
    g = tet_at(
        "p7",
        turn=1,
        dice=[1, 6, 6, 1],
        players={"Allied": None},
        edit=lambda g: (put(g, "us_mrf", "my_tho"), put(g, "arvn_10", "my_tho")),
    )
    g.apply(next(a for a in _select(g, "us_bb") if a.kind == "allied_move"))
    g.apply(next(a for a in _select(g, "us_mrf") if a.get("passenger") == "arvn_10"))
    assert g.used == {"I": 0, "II": 0, "III": 0, "IV": 0}
    assert "arvn_10" not in {a.get("unit") for a in g.legal_actions()}  # carried: it has moved this phase
    iv = next(u for u in g.phase7_movers() if g.unit(u).sector == "IV" and g.counts_for_slow_reaction(u))
    g.apply(next(a for a in _select(g, iv) if a.kind == "allied_move"))
    assert g.used["IV"] == 1
