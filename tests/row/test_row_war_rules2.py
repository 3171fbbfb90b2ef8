"""Rumor of War's strategic rules as written (issue #27 items 2, 3, 4, 6, 7, 8): the General Uprising's Victory
Phase and doubled awards (ROW-9.5; decisions R-WAR-10, R-WAR-11), China's intervention (ROW-12.2; R-WAR-12), and
the other items of the branch, each test named for its rule."""

from __future__ import annotations

import wargames  # noqa: F401  (registers the games)
from tests.row.test_row_politics import drive
from wargames.row import victory as V
from wargames.row.pieces import CAPITALIST, COMMUNIST
from wargames.testing import unstarted

GU = {COMMUNIST: "general_uprising", CAPITALIST: "search_and_destroy"}


def _pass(d):
    """Answer a decision with its pass (no claim, no roll ...) when it has one, else the first option."""
    return next((a for a in d.options if a.kind.startswith("no_")), d.options[0])


def tet(seed: int = 1):
    g = unstarted("row", "tet-offensive", seed)
    g.turn = 1
    for p in (g.setup_levels(), g.setup_capitalist(), g.setup_communist(), g.setup_vc_cup()):
        drive(g, p)
    return g


# ------------------------------------------------------------------------------------------ 9.5 General Uprising
def test_row_9_5_general_uprising_doubles_territorial_and_unrest_awards_once_r_war_10():
    """Territorial and US Unrest awards count double in the uprising's season; an award that is both counts double
    once; a plain end-of-turn award to the Capitalist is not doubled; the Communist Offensive doubles them all."""
    val = lambda also, base=1, missions=GU: V.vp_value("end_turn", missions, base=base, also=also).result  # noqa: E731
    assert val(()) == 1
    assert val(("territorial",), 3) == 6
    assert val(("unrest_award",), 2) == 4
    assert val(("territorial", "unrest_award"), 2) == 4  # not 8
    assert val(("territorial",), 2, {COMMUNIST: "offensive"}) == 4  # end-of-turn x2 (R-HQ-05)
    assert val(("territorial",), 2, {COMMUNIST: "infiltrate"}) == 2
    # casualties are doubled once under the uprising, not again as an Unrest award
    assert V.vp_value("casualty", GU, also=("unrest_award",)).result == 2
    # with China in as well every award doubles again (12.2)
    assert V.vp_value("other", GU, also=("unrest_award",), chinese=True).result == 4


def test_row_9_5_in_the_game_a_city_held_in_the_uprising_counts_double_r_war_10():
    """The Tet Offensive's award for each province capital the Communist holds: 1 VP under Infiltrate, 2 in the
    General Uprising's season (Quang Tri held by a PAVN unit)."""
    gained = {}
    for mission in ("general_uprising", "infiltrate"):
        g = tet()
        for u in list(g.at_hex.get("2643", [])):
            if g.side_of(u) == CAPITALIST:
                g.place(u, None, "replacements")
        pavn = next(u for u in sorted(g.pos) if g.rows[u].nationality == "PAVN" and g.rows[u].kind == "unit")
        g.place(pavn, "2643")  # Quang Tri
        g.missions.update({CAPITALIST: "search_and_destroy", COMMUNIST: mission})
        rs = drive(g, g.victory_point_check(), _pass)
        award = next(r for r in rs if r.title == "Award: Province capitals seized")
        gained[mission] = award.result["vp"]
    assert gained == {"general_uprising": 2, "infiltrate": 1}


def test_row_9_5_general_uprising_victory_phase_removes_the_vc_battalions_r_war_11():
    """In the uprising's End Phase, before its awards, every VC battalion leaves the map for good; from then on a
    destroyed VC unit goes to the Destroyed box, never to Replacements."""
    g = tet()
    vcb = sorted(u for u in g.pos if g.rows[u].nationality == "VC" and g.rows[u].unit_type == "battalion")
    rgt = next(
        u for u in sorted(g.pos) if g.rows[u].nationality == "VC" and g.rows[u].unit_type == "regiment"
    )
    pavn = next(u for u in sorted(g.pos) if g.rows[u].nationality == "PAVN" and g.rows[u].kind == "unit")
    assert vcb and g.elimination_box(rgt) == "replacements" and not g.uprising_over()
    g.missions.update(GU)
    rs = drive(g, g.victory_point_check(), _pass)
    assert rs[0].rule_id == "ROW-9.5" and rs[0].title == "General Uprising: Victory Phase"
    assert all(u not in g.pos and g.box[u] == "destroyed" for u in vcb)
    assert g.uprising_over()
    assert g.elimination_box(rgt) == "destroyed" and g.elimination_box(pavn) == "replacements"
    ruling = [r for r in rs if r.title.startswith("Award: Province capitals")]
    assert ruling  # the territorial award was weighed with the uprising in force


def test_row_9_5_a_vc_hq_routed_after_the_uprising_is_eliminated_with_its_commander():
    g = tet()
    g.missions.update(GU)
    drive(g, g._uprising_victory_phase())
    hq = "vc_mr2_hq"
    hid = g.pos[hq]
    us = next(u for u in sorted(g.pos) if g.side_of(u) == CAPITALIST and g.rows[u].kind == "unit")
    g.place(us, hid)
    rs = drive(g, g._rout(hid, CAPITALIST))
    assert g.box[hq] == "destroyed" and "tran_do" not in g.leaders
    assert rs[-1].result["destroyed"] and rs[-1].rule_id == "ROW-9.5"


def test_row_13_1_2_no_empty_cup_award_once_the_uprising_was_declared():
    """A recruitment draw from an empty VC cup earns the scenario's VP, but not after the uprising was declared."""

    def recruit(declared: bool) -> tuple[int, list]:
        g = tet()
        for u, b in list(g.box.items()):
            if b == "vc_cup":
                g.place(u, None, "destroyed")
        if declared:
            g.log.append(
                type(g.log[0])(
                    rule_id="ROW-9.5",
                    title="HQ mission",
                    explanation="the Communist declares the General Uprising",
                    result={"mission": "general_uprising"},
                    side=COMMUNIST,
                )
            )
        before = g.vp["us_unrest"]
        rs = drive(g, g.vc_recruitment())
        return g.vp["us_unrest"] - before, [r for r in rs if r.title == "The VC cup is empty"]

    gained, rs = recruit(False)
    assert gained > 0 and rs[0].result["vp"] == gained
    gained, rs = recruit(True)
    assert gained == 0 and rs[0].result == {"empty": True, "vp": 0}


# ------------------------------------------------------------------------------------------ 12.2 China
def war(seed: int = 1, china: bool = False):
    g = unstarted("row", "vietnam-war", seed)
    g.turn = 1
    for p in (g.setup_levels(), g.setup_capitalist(), g.setup_communist(), g.setup_vc_cup()):
        drive(g, p)
    g.pol["china"]["intervened"] = china
    return g


def test_row_12_2_china_doubles_every_vp_award_not_the_losses_r_war_12():
    g = war(china=True)
    g.vp["us_military_victory"] = 5
    drive(g, g._award(CAPITALIST, 1, "a Communist ace is lost (10.3.6)"))
    assert g.vp["us_military_victory"] == 7
    drive(g, g._award(CAPITALIST, -1, "the Communist holds the sky (10.3.1)"))
    assert g.vp["us_military_victory"] == 6
    # the accumulators: a POW or Secret Ops VP, a Body Count VP, the automatic VP of a track passing 9
    assert g._vp_value("pow") == 2 and g._vp_value("secret_ops") == 2
    s, r, _ = V.add_points(V.VictoryState(us_unrest=3, pow=8), "pow", 3, vp=g._auto_vp("pow"))
    assert s.us_unrest == 5 and r.result["auto_vp"] == 2 and g._auto_vp("pow") == 2
    # objectives (12.1.3)
    s, _ = V.resolve_objective(V.VictoryState(us_military_victory=4), 2, True, "2945", chinese=True)
    assert s.us_military_victory == 8
    s, _ = V.claim_objective(V.VictoryState(us_military_victory=9), "2945", 3, False, True, chinese=True)
    assert s.us_military_victory == 3
    assert war(china=False)._vp_value("pow") == 1


def test_row_12_2_china_lifts_the_air_restrictions_and_their_unrest_cost_r_war_12():
    """With China in, the Capitalist commits aircraft unrestricted only, even to boxes the scenario restricted, and
    the unrestricted boxes cost no US Unrest; before, each cost 1."""
    for china, unrest in ((False, 1), (True, 0)):
        g = war(china=china)
        opts = g._box_options(CAPITALIST)
        assert any(a["restricted"] for a in opts) is not china
        pick = next(a for a in opts if a["box"] == "airfield_strike")
        field = g._fields_for(pick["aircraft"], "strategic")[0]
        g.airwar["aircraft"][pick["aircraft"]].update(box="airfield_strike", airfield=field, restricted=False)
        before = g.vp["us_unrest"]
        rs = drive(g, g._unrestricted_cost(), _pass)
        assert g.vp["us_unrest"] - before == unrest
        assert rs[0].rule_id == ("ROW-12.2" if china else "ROW-10.3.7")


# ------------------------------------------------------------------------------------------ 14.5 elections
def test_row_14_5_a_democratic_win_ends_the_republican_effects_r_war_13():
    g = war()
    g.pol["party"] = "Republicans"
    g.pol["free_unrestricted"] = g.airwar["free_unrestricted"] = 2
    g.turn = next(
        t
        for t, row in __import__("wargames.row.scenario", fromlist=["x"]).load_calendar().items()
        if row.year == 1972 and "election" in (row.fixed_events or "")
    )
    g.vp.update(us_military_victory=9, us_unrest=4)
    rs = drive(g, g.us_election())
    assert g.pol["party"] == "Democrats" and g.airwar["free_unrestricted"] == 0 == g.pol["free_unrestricted"]
    assert rs[-1].title == "Republican administration ends" and rs[-1].result["lapsed"] == 2


def test_row_14_5_free_unrestricted_declarations_are_the_players_choice_r_war_13():
    """Two unrestricted boxes and three free declarations: the Capitalist is offered to use 2, 1 or none; the
    built-in player uses both, with its reason; keeping them costs the Unrest and keeps the declarations."""
    for pick_n, unrest, left in ((0, 2, 3), (1, 1, 2), (2, 0, 1)):
        g = war()
        g.vp["secret_ops_allowed"] = False
        g.airwar["free_unrestricted"] = 3
        opts = g._box_options(CAPITALIST)
        for box in ("airfield_strike", "sam_strike"):
            a = next(
                x
                for x in opts
                if x["box"] == box
                and x["aircraft"]
                not in [y for y, r in g.airwar["aircraft"].items() if r["box"] != "available"]
            )
            g.airwar["aircraft"][a["aircraft"]].update(
                box=box, airfield=g._fields_for(a["aircraft"], "strategic")[0], restricted=False
            )
        seen = []

        def pick(d, n=pick_n, seen=seen):
            seen.append(d)
            return next(o for o in d.options if o["n"] == n)

        before = g.vp["us_unrest"]
        drive(g, g._unrestricted_cost(), pick)
        assert [o["n"] for o in seen[0].options] == [2, 1, 0] and seen[0].kind == "free_unrestricted"
        assert g.vp["us_unrest"] - before == unrest and g.airwar["free_unrestricted"] == left
    from wargames.row.bots import RowBot

    bot = RowBot(CAPITALIST)
    assert bot.choose(g, seen[0])["n"] == 2 and "US Unrest" in bot.last_reason


# ------------------------------------------------------------------------------------------ 10.4.1 / 14.7.2 trail strike
def _trail_air(g, striker="cvw_16", recon="usaf_432trw"):
    g.airwar["aircraft"][striker].update(box="hcm_strike", airfield="carriers")
    g.airwar["aircraft"][recon].update(box="recon", airfield=g._fields_for(recon, "tactical")[0])


def test_row_14_7_2_the_air_strike_on_the_trail_is_a_legal_action_r_war_14():
    """An aircraft of the Trail Strike box is offered a strike on every open trail hex; after a successful recon a
    D10 at most its Ho Chi Minh strike value (3 for a carrier air wing) places a Trail Interdicted marker, which
    closes the highest active terminus."""
    g = war()
    assert g.trail_strikes_in_play() and "a6f" in {s.id for ph in g.load_sequence().phases for s in ph.steps}
    _trail_air(g)
    before = g.active_terminus_numbers()
    assert g._summer()  # the monsoon takes 1 off every value (10.3.9): recon 5, trail strike 2
    g.dice.force([4, 1, 2, 9])  # recon 4 <= 5 (found); it stays (1); strike 2 <= 2 (hit); striker leaves (9)
    seen = []

    def pick(d):
        seen.append(d)
        return d.options[0]

    rs = drive(g, g.trail_strikes(), pick)
    d = seen[0]
    assert d.kind == "trail_strike" and d.options[-1].kind == "no_trail_strike"
    offered = {a["hex"] for a in d.options if a.kind == "trail_strike"}
    assert offered and offered <= set(g.trail_strike_hexes()) | {d.options[0]["hex"]}
    hit = next(r for r in rs if r.title == "Trail strike")
    assert hit.result["success"] and hit.lookup and hit.inputs["mission"] == "hcm_strike"
    assert g.trail_markers() == {d.options[0]["hex"]: "air"}
    assert len(g.active_terminus_numbers()) == len(before) - 1


def test_row_14_7_2_a_trail_strike_needs_the_recon_and_is_halved_under_restricted_ops():
    g = war()
    _trail_air(g)
    g.dice.force(
        [7, 1, 9]
    )  # recon 7 > 6: nothing found, no strike roll; the recon stays; the striker may retry
    rs = drive(
        g,
        g.trail_strikes(),
        lambda d: d.options[0],
    )
    assert not g.trail_markers() and not any(r.title == "Trail strike" for r in rs)
    g = war()
    _trail_air(g)
    g.restricted["Capitalist"] = "all"
    g.dice.force([1, 1, 2, 9])  # found; strike 2 > (3 - 1 monsoon) // 2 = 1: a miss
    rs = drive(g, g.trail_strikes(), lambda d: d.options[0])
    strike = next(r for r in rs if r.title == "Trail strike")
    assert not strike.result["success"] and strike.inputs["value"] == 1 and not g.trail_markers()


# ------------------------------------------------------------------------------------------ 14.2.2 ground commanders
def test_row_14_2_2_the_player_places_an_arriving_ground_commander_r_war_15():
    """Truong arrives by the chart (Summer 1966): the Capitalist chooses among the ARVN HQs on the map (the chart's
    1st Division HQ one of them); a commander already with the chosen HQ is relieved; the bot keeps the chart's HQ."""
    g = war()
    g.turn = 4
    hqs = g.ground_commander_hqs("ngo_quang_truong")
    assert "arvn_1div_hq" in hqs and all(g.rows[h].nationality == "ARVN" and h in g.pos for h in hqs)
    assert len(hqs) > 1 and "us_iii_maf_hq" not in hqs
    other = next(h for h in hqs if h != "arvn_1div_hq")
    g.leaders["le_nguyen_khang"] = other
    seen = []

    def pick(d):
        seen.append(d)
        return next(a for a in d.options if a["hq"] == other)

    rs = drive(g, g.place_ground_commander("ngo_quang_truong", "arvn_1div_hq"), pick)
    d = seen[0]
    assert d.kind == "ground_commander" and d.side == CAPITALIST and {a["hq"] for a in d.options} == set(hqs)
    assert g.leaders["ngo_quang_truong"] == other and "le_nguyen_khang" not in g.leaders
    assert rs[-1].rule_id == "ROW-14.2.2" and "le_nguyen_khang" in rs[-1].result["relieved"]
    from wargames.row.bots import RowBot

    bot = RowBot(CAPITALIST)
    assert bot.choose(g, d)["hq"] == "arvn_1div_hq" and "history" in bot.last_reason


def test_row_14_2_2_a_ground_commander_without_an_hq_of_his_nation_waits():
    g = war()
    for h in g.ground_commander_hqs("lon_nol"):
        g.place(h, None, "routed")
    rs = drive(g, g.place_ground_commander("lon_nol"))
    assert rs[-1].title == "Ground commander waits" and "lon_nol" not in g.leaders


# ------------------------------------------------------------------------------------------ 9.5 / 12.1.3 objectives
def test_row_9_5_capitalist_offensive_objectives_may_lie_outside_south_vietnam_r_war_16():
    """The Capitalist Offensive's three markers go on any land hex of the window he does not control, Laos, Cambodia
    and North Vietnam included; the built-in Capitalist still picks hexes his US units may reach."""
    g = war()
    seen = []

    def pick(d):
        seen.append(d)
        return d.options[0]

    drive(g, g._place_objectives(CAPITALIST, 1), pick)
    offered = {a["hex"] for a in seen[0].options}
    countries = {g.map.country(h) for h in offered}
    assert {"SVN", "LAO", "NVN"} <= countries
    from wargames.row.bots import RowBot

    bot = RowBot(CAPITALIST)
    h = bot.choose(g, seen[0])["hex"]
    assert g.map.country(h) == "SVN" or g.map.area(h) == "DMZ"
    # the Communist's markers go on Capitalist-controlled hexes, wherever they are
    from wargames.row.control import capitalist_controlled

    cap = capitalist_controlled(g.situation(), g.map)
    want = {h for h in g.window_land if h in cap and h not in g.objectives}
    seen.clear()
    drive(g, g._place_objectives(COMMUNIST, 1), pick)
    assert {a["hex"] for a in seen[0].options} == want


def test_row_12_2_china_entry_puts_its_units_aircraft_and_airfield_in_play_r_war_17():
    g = war()
    us = next(u for u in sorted(g.pos) if g.side_of(u) == CAPITALIST and g.rows[u].kind == "unit")
    g.place(us, "2138")  # Dong Hoi, North Vietnam
    assert all(g.box[u] == "china" for u in ("prc_1aaa_div", "prc_2eng_div"))
    g.dice.force([2])
    rs = drive(g, g.chinese_intervention_check())
    assert g.china_in()
    assert all(g.pos.get(u) in g.map.supply_sources("prc") for u in ("prc_1aaa_div", "prc_2eng_div"))
    air = next(r for r in rs if r.title == "PRC aircraft and airfield")
    assert air.result == {"aircraft": ["prc_fr", "prc_fr2"], "airfield": "ningming"}
    assert all(g.airwar["aircraft"][a]["box"] == "available" for a in ("prc_fr", "prc_fr2"))
    assert g.airwar["airfields"]["ningming"] == {"improved": True, "damaged": False}
    # the two Chinese regiments fly from their improved field (room for 2) over Downtown only (R-AIR-02)
    assert g._fields_for("prc_fr", "strategic") == ["ningming"] and g._room("ningming") == 2
    assert {a["box"] for a in g._box_options(COMMUNIST) if a["aircraft"] == "prc_fr2"} == {"downtown"}
    assert not g.invariants()


def test_row_14_7_2_the_bot_sends_a_gunship_to_the_trail_while_a_recon_is_up_r_war_14():
    from wargames.row.bots import RowBot

    g = war()
    g.airwar["aircraft"]["usaf_14sow"] = {
        "box": "available",
        "reduced": False,
        "airfield": "",
        "restricted": False,
        "ace": "",
    }
    for a, rec in g.airwar["aircraft"].items():
        if a not in ("usaf_14sow", "usaf_432trw", "usmc_1maw") and a.startswith(("usaf", "usmc", "cvw")):
            rec["box"] = "eliminated"
    for u in g.sf_ready():  # no Special Forces ready, so the SOW wing is free for the Trail (R-GAME-42)
        g.box[u] = "destroyed"
    bot = RowBot(CAPITALIST)
    reasons = []

    def pick(d):
        a = bot.choose(g, d)
        reasons.append(bot.last_reason)
        return a

    drive(g, g.air_commitment(CAPITALIST), pick)
    assert g.airwar["aircraft"]["usaf_432trw"]["box"] == "recon"
    assert g.airwar["aircraft"]["usaf_14sow"]["box"] == "hcm_strike"
    assert any("Ho Chi Minh Trail" in r for r in reasons)
