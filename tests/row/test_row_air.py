"""Rumor of War: air power (ROW-10.x, ``wargames.row.air``) on the lesson variant "A Year in I Corps under Rolling
Thunder" (data/row/scenarios/i-corps-air-war.yaml).  Each test names the rule it checks; dice are forced, so every
ruling's inputs, dice and result are asserted.  Procedures are driven directly (``run``) on a loaded game whose
Air Display is set up; whole games check the sequence of play, the bots and random play.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import wargames
from wargames.core import Action
from wargames.core.data import DataError, data_root
from wargames.core.rulings import Ruling
from wargames.row.air import mission_value
from wargames.row.airdata import aircraft_types, mission_boxes
from wargames.row.bots import RowBot
from wargames.row.scenario import load_scenario
from wargames.testing import random_play, refused

SCEN = "i-corps-air-war"
AIR_YAML = data_root() / "row" / "scenarios" / f"{SCEN}.yaml"


def fresh(seed: int = 0):
    """A loaded air-war game (set-up done, Air Display in place), at its first decision."""
    return wargames.load("row", SCEN, seed=seed)


def run(g, gen, answer=None):
    """Drive one of the game's procedures: rulings are logged, decisions answered by ``answer(decision)`` (default:
    the first option).  Returns (value, rulings)."""
    out, send = [], None
    while True:
        try:
            item = gen.send(send)
        except StopIteration as stop:
            return stop.value, out
        if isinstance(item, Ruling):
            out.append(item)
            g.log.append(item)
            send = None
        else:
            send = answer(item) if answer else item.options[0]


def pick(**want):
    """An answer choosing the first option whose parameters match ``want`` (else the last option)."""

    def answer(d):
        for a in d.options:
            if all((a.kind if k == "kind" else a.get(k)) == v for k, v in want.items()):
                return a
        return d.options[-1]

    return answer


def put(g, uid, box, **kw):
    rec = g.airwar["aircraft"].setdefault(
        uid, {"box": "available", "reduced": False, "airfield": "", "restricted": False, "ace": ""}
    )
    rec.update(box=box, **kw)


def clear_boxes(g):
    for rec in g.airwar["aircraft"].values():
        rec.update(box="available", airfield="", restricted=False)


# ------------------------------------------------------------------ values (10.3, 10.3.4, 10.3.6, 10.3.7, 10.3.9)
def test_row_10_3_mission_value_modifiers():
    assert mission_value("usaf_355tfw", "infrastructure")[0] == 4
    assert mission_value("usaf_355tfw", "infrastructure", reduced=True)[0] == 3
    assert mission_value("usaf_355tfw", "infrastructure", summer=True)[0] == 3  # 10.3.9 monsoon
    assert mission_value("usaf_355tfw", "infrastructure", aew=True)[0] == 5  # 10.3.4
    v, how = mission_value("usaf_355tfw", "infrastructure", restricted=True)  # 10.3.7, R-AIR-04
    assert v == 2 and "halved (restricted)" in how
    assert mission_value("usaf_8tfw", "a2a", ace=2)[0] == 6  # 10.3.6
    assert mission_value("usaf_8tfw", "infrastructure", ace=2)[0] == 3  # aces add to air-to-air only
    assert mission_value("usaf_552aewcw", "infrastructure")[0] == 0  # no value: cannot fly it (10.3)


def test_row_10_3_9_monsoon_lowers_every_value_on_summer_turns():
    g = fresh()
    assert g.turn == 1 and g._calendar_row().season == "Summer"
    assert g.air_value("usaf_355tfw", "infrastructure", box="infrastructure")[0] == 3
    assert aircraft_types()["f105"].infrastructure == 4


# ------------------------------------------------------------------ airfields (10.1, 11.4)
def test_row_10_1_airfield_capacity_one_improved_two_damaged_none():
    g = fresh()
    clear_boxes(g)
    assert g._capacity("takhli") == 2 and g._capacity("korat") == 1
    put(g, "usaf_355tfw", "infrastructure", airfield="korat")
    assert g._room("korat") == 0
    assert "korat" not in g._fields_for("usaf_388tfw", "strategic")
    g.airwar["airfields"]["takhli"]["damaged"] = True
    assert g._capacity("takhli") == 0
    # R-AIR-02: South Vietnamese fields fly tactical missions only
    assert "da_nang" in g._fields_for("usmc_1maw", "tactical")
    assert "da_nang" not in g._fields_for("usmc_1maw", "strategic")


def test_row_11_4_navy_aircraft_fly_from_the_carriers_strategic_only_from_yankee():
    g = fresh()
    assert g._fields_for("cvw_16", "strategic") == ["carriers"]
    g.airwar["station"] = "Dixie"
    assert g._fields_for("cvw_16", "strategic") == []
    assert g._fields_for("cvw_16", "tactical") == ["carriers"]


def _bad_scenario(tmp_path: Path, edit, match: str) -> DataError:
    data = yaml.safe_load(AIR_YAML.read_text(encoding="utf-8"))
    edit(data)
    p = tmp_path / f"{SCEN}.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DataError, match=match) as ei:
        load_scenario(path=p)
    return ei.value


def test_row_10_1_scenario_refuses_unknown_aircraft_airfield_and_exclusive_rules(tmp_path):
    """The lesson variant's air: block is checked at load (decision R-AIR-13)."""
    _bad_scenario(
        tmp_path,
        lambda d: d["air"]["aircraft"].append({"id": "usaf_999tfw"}),
        "unknown aircraft 'usaf_999tfw'",
    )
    _bad_scenario(
        tmp_path, lambda d: d["air"]["airfields"].append({"id": "atlantis"}), "unknown airfield 'atlantis'"
    )
    _bad_scenario(tmp_path, lambda d: d["air"]["aircraft"].append({"id": "usaf_355tfw"}), "placed twice")
    _bad_scenario(tmp_path, lambda d: d.pop("fleet"), "Navy aircraft cvw_16")
    _bad_scenario(
        tmp_path,
        lambda d: d["special_rules"].append(
            {
                "id": "air_war_not_in_play",
                "rules": ["ROW-10.0"],
                "summary": "x",
                "source": "reconstruction: test",
            }
        ),
        "exclude each other",
    )
    _bad_scenario(tmp_path, lambda d: d["air"]["arrivals"][0].update(turn=9), "not a turn of this scenario")


def test_row_10_1_year_in_i_corps_has_no_air_display():
    g = wargames.load("row", "year-in-i-corps", seed=0)
    assert g.airwar == {} and "airwar" not in g.state_dict()


# ------------------------------------------------------------------ commitment (10.2, 10.3.7, 10.4.2)
def _to_decision(g, rule: str, kind: str | None = None, limit: int = 3000):
    """Answer every other decision with its last option (end / pass) until one of ``rule`` is pending."""
    for _ in range(limit):
        d = g.decision
        if d is not None and d.rule_id == rule and (kind is None or any(a.kind == kind for a in d.options)):
            return d
        g.apply(d.options[-1])
    raise AssertionError(f"no {rule} decision reached")


def test_row_10_2_commitment_is_a_decision_and_bad_input_is_refused_unchanged():
    g = fresh()
    d = _to_decision(g, "ROW-10.2", "commit_aircraft")
    assert d.side == "Capitalist" and any(a.kind == "done_commit" for a in d.options)
    # unknown aircraft, unknown box: refused naming the rule, the game unchanged
    err = refused(
        g,
        Action.make("commit_aircraft", aircraft="usaf_999tfw", box="infrastructure", restricted=True),
        "ROW-10.1",
    )
    assert "unknown aircraft" in str(err)
    err = refused(
        g, Action.make("commit_aircraft", aircraft="usaf_355tfw", box="carpet", restricted=False), "ROW-10.2"
    )
    assert "unknown mission box" in str(err)
    # restricted_only: infrastructure may not be flown unrestricted in this scenario
    assert not any(
        a.kind == "commit_aircraft" and a["box"] == "infrastructure" and not a["restricted"]
        for a in d.options
    )
    refused(
        g,
        Action.make("commit_aircraft", aircraft="usaf_355tfw", box="infrastructure", restricted=False),
        "ROW-10.2",
    )


def test_row_10_1_airfield_over_capacity_is_refused_unchanged():
    g = fresh()
    _to_decision(g, "ROW-10.2", "commit_aircraft")
    g.airwar["airfields"]["korat"]["improved"] = False
    # the Passive choice takes the last option; commit the F-105s one by one to reach an airfield choice
    g.apply(
        next(
            a
            for a in g.decision.options
            if a.kind == "commit_aircraft" and a["aircraft"] == "usaf_355tfw" and a["box"] == "infrastructure"
        )
    )
    d = g.decision
    assert d.rule_id == "ROW-10.1" and {a["airfield"] for a in d.options} >= {"korat", "takhli"}
    g.apply(next(a for a in d.options if a["airfield"] == "korat"))
    g.apply(
        next(
            a
            for a in g.decision.options
            if a.kind == "commit_aircraft" and a["aircraft"] == "usaf_388tfw" and a["box"] == "infrastructure"
        )
    )
    d = g.decision
    assert "korat" not in {a["airfield"] for a in d.options}  # full: 1 aircraft on a plain airfield
    err = refused(g, Action.make("use_airfield", airfield="korat"), "ROW-10.1")
    assert "is full" in str(err)


def test_row_10_3_7_unrestricted_boxes_cost_unrest_and_one_may_be_secret():
    """The secret box pays a Secret Ops point instead of the Unrest point (decision R-AIR-05)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_355tfw", "sam_strike", airfield="takhli")
    put(g, "usaf_388tfw", "airfield_strike", airfield="korat")
    put(g, "cvw_16", "infrastructure", airfield="carriers", restricted=True)
    put(g, "usaf_552aewcw", "aew", airfield="udorn")  # the AEW box has no restricted side: no cost (R-AIR-04)
    unrest = g.vp["us_unrest"]
    _, rs = run(g, g._unrestricted_cost(), pick(kind="secret_box", box="sam_strike"))
    main = next(r for r in rs if r.rule_id == "ROW-10.3.7")
    assert main.result == {
        "unrestricted": ["airfield_strike", "sam_strike"],
        "secret": "sam_strike",
        "unrest": 1,
        "free": 0,
    }
    assert g.vp["us_unrest"] == unrest + 1 and g.vp["secret_ops"] == 1


def test_row_10_3_7_free_unrestricted_declarations_are_offered_r_war_13():
    """14.5 (R-WAR-13): the Capitalist chooses to spend a free declaration on an unrestricted box (or not)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_355tfw", "sam_strike", airfield="takhli")
    g.airwar["free_unrestricted"] = 3
    unrest = g.vp["us_unrest"]

    def answer(d):
        return (
            pick(kind="use_free_unrestricted")(d)
            if d.kind == "free_unrestricted"
            else pick(kind="no_secret")(d)
        )

    _, rs = run(g, g._unrestricted_cost(), answer)
    assert rs[0].result["free"] == 1 and rs[0].result["unrest"] == 0
    assert g.vp["us_unrest"] == unrest and g.airwar["free_unrestricted"] == 2


def test_row_10_4_2_ground_support_box_sets_the_air_level():
    g = fresh()
    clear_boxes(g)
    put(g, "usmc_1maw", "ground_support", airfield="da_nang")
    put(g, "cvw_21", "ground_support", airfield="carriers")
    _, rs = run(g, g.air_commitment("Capitalist"), pick(kind="done_commit"))
    level = rs[-1]
    # MAW 5 and CVW 4, each -1 for the Summer monsoon
    assert level.rule_id == "ROW-10.4.2" and level.result == {"track": "US Air", "level": 7}
    assert g.pools["US Air"] == 7


# ------------------------------------------------------------------ repair (10.2, table 4.9)
@pytest.mark.parametrize(
    "side,aircraft,die,repaired",
    [
        ("Capitalist", "usaf_355tfw", 5, True),
        ("Capitalist", "usaf_355tfw", 6, False),
        ("Communist", "vpaf_923fr", 6, True),
        ("Communist", "vpaf_923fr", 7, False),
    ],
)
def test_row_10_2_repair_roll(side, aircraft, die, repaired):
    g = fresh()
    clear_boxes(g)
    put(g, aircraft, "damaged", reduced=True)
    g.turn = (
        2  # no arrivals or aces on turn 2 for the Capitalist; the Communist ace arrives (placed by answer)
    )
    g.force_dice([die])
    _, rs = run(g, g.air_reinforcement(), pick(kind="no_airfield_work"))
    r = next(r for r in rs if r.title == "Aircraft repair")
    assert r.dice[0].value == die and r.result == {"aircraft": aircraft, "repaired": repaired}
    assert r.lookup.cell == ("5" if side == "Capitalist" else "6")
    assert g.airwar["aircraft"][aircraft]["box"] == ("available" if repaired else "damaged")
    assert g.airwar["aircraft"][aircraft]["reduced"]  # repair never restores a reduced aircraft


# ------------------------------------------------------------------ strategic missions (10.3.x)
def test_row_10_3_4_aew_success_adds_one_to_strategic_missions():
    """10.3.4 read as one flag for the season (decision R-AIR-03)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_552aewcw", "aew", airfield="udorn")
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli", restricted=False)
    g.force_dice([5])  # EC-121 AEW 6 -1 monsoon = 5
    _, rs = run(g, g.air_aew())
    assert rs[0].result == {"aircraft": "usaf_552aewcw", "success": True}
    assert g.airwar["aew"] is True
    assert g.air_value("usaf_355tfw", "infrastructure")[0] == 4  # 4 -1 monsoon +1 AEW


def test_row_10_3_1_downtown_only_us_nothing_happens():
    g = fresh()
    clear_boxes(g)
    put(g, "cvw_16", "downtown", airfield="carriers")
    _, rs = run(g, g.air_downtown())
    assert rs[0].result == {"combat": "none"} and not rs[0].dice


def test_row_10_3_1_downtown_only_communist_attacks_strategic_aircraft_unopposed():
    g = fresh()
    clear_boxes(g)
    put(g, "vpaf_921fr", "downtown", airfield="noi_bai")
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli", restricted=True)
    pow0 = g.vp["pow"]
    g.force_dice([3])  # MiG-21 a2a 4 -1 monsoon = 3: a hit
    _, rs = run(g, g.air_downtown(), pick(kind="no_roll"))
    assert rs[0].result == {"combat": "one-sided"}
    shot = next(r for r in rs if r.title == "Air-to-air")
    assert shot.result == {"shooter": "vpaf_921fr", "target": "usaf_355tfw", "hit": True}
    rec = g.airwar["aircraft"]["usaf_355tfw"]
    assert rec["box"] == "damaged" and rec["reduced"]
    assert g.vp["pow"] == pow0 + 1  # 10.3 / 10.3.8


def test_row_10_3_1_downtown_air_combat_order_and_us_military_victory_loss():
    g = fresh()
    clear_boxes(g)
    put(g, "cvw_16", "downtown", airfield="carriers")  # a2a 3 -1 = 2
    put(g, "vpaf_921fr", "downtown", airfield="noi_bai")  # a2a 4 -1 = 3: fires first
    put(g, "vpaf_923fr", "downtown", airfield="kep")  # a2a 3 -1 = 2: after the US at equal value
    mv = g.vp["us_military_victory"] = 5
    g.force_dice([1])  # the MiG-21 hits the CVW: the US has nobody left to fire
    _, rs = run(g, g.air_downtown(), pick(kind="no_roll"))
    shots = [r for r in rs if r.title == "Air-to-air"]
    assert [s.result["shooter"] for s in shots] == ["vpaf_921fr"]
    lost = next(r for r in rs if r.title == "Downtown lost")
    assert lost.result == {"us_military_victory": -1}
    assert g.vp["us_military_victory"] == mv - 1


def test_row_10_3_1_downtown_ties_capitalist_fires_first():
    g = fresh()
    clear_boxes(g)
    put(g, "cvw_16", "downtown", airfield="carriers")  # 2
    put(g, "vpaf_923fr", "downtown", airfield="kep")  # 2
    g.force_dice([9, 9])
    _, rs = run(g, g.air_downtown())
    assert [r.result["shooter"] for r in rs if r.title == "Air-to-air"] == ["cvw_16", "vpaf_923fr"]


def test_row_10_3_5_sams_hit_the_difference_less_aew_plus_arms():
    """ARMs are added to the SAM die (decision R-AIR-08)."""
    g = fresh()
    clear_boxes(g)
    g.airwar.update(sams=6, arms=1)
    put(g, "usaf_552aewcw", "aew", airfield="udorn")
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli", restricted=True)
    put(g, "usaf_388tfw", "sam_strike", airfield="korat")
    g.force_dice([2])  # 6 SAMs - 1 AEW = 5; roll 2 + 1 ARM = 3: 2 hits
    _, rs = run(g, g.air_sams(), pick(kind="no_roll"))
    assert rs[0].result == {"sams": 5, "roll": 3, "hits": 2} and rs[0].dice[0].value == 2
    damaged = [a for a, r in g.airwar["aircraft"].items() if r["box"] == "damaged"]
    assert len(damaged) == 2


def test_row_10_3_5_no_sam_fire_when_the_roll_is_not_less():
    g = fresh()
    clear_boxes(g)
    g.airwar.update(sams=3, arms=0)
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli", restricted=True)
    g.force_dice([3])
    _, rs = run(g, g.air_sams())
    assert rs[0].result["hits"] == 0 and g.airwar["aircraft"]["usaf_355tfw"]["box"] == "infrastructure"


@pytest.mark.parametrize("die,loss,damaged", [(1, 2, False), (3, 1, False), (4, 0, False), (10, 0, True)])
def test_row_10_3_2_infrastructure_strike(die, loss, damaged):
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli", restricted=False)  # 4 -1 monsoon = 3
    g.pools["Communist Infrastructure"] = 6
    g.force_dice([die])
    _, rs = run(g, g._infra_strike("usaf_355tfw"), pick(kind="no_roll"))
    assert rs[0].result["loss"] == loss and g.pools["Communist Infrastructure"] == 6 - loss
    assert (g.airwar["aircraft"]["usaf_355tfw"]["box"] == "damaged") is damaged
    assert not g.airwar["aircraft"]["usaf_355tfw"]["reduced"]  # a 10 damages, never reduces


def test_row_10_3_3_1_airfield_strike_damages_the_field_and_destroys_an_aircraft():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_388tfw", "airfield_strike", airfield="korat")
    g.force_dice([2])  # airfield 3 -1 monsoon = 2
    _, rs = run(g, g._airfield_strike("usaf_388tfw"), pick(airfield="noi_bai", aircraft="vpaf_923fr"))
    assert next(r for r in rs if r.title == "Airfield strike").result["success"] is True
    assert g.airwar["airfields"]["noi_bai"]["damaged"] is True
    assert g.airwar["aircraft"]["vpaf_923fr"]["box"] == "eliminated"


def test_row_10_3_3_1_china_airfields_are_a_sanctuary():
    g = fresh()
    clear_boxes(g)
    g.airwar["airfields"] = {"ningming": {"improved": True, "damaged": False}}
    put(g, "usaf_388tfw", "airfield_strike", airfield="korat")
    _, rs = run(g, g._airfield_strike("usaf_388tfw"))
    assert rs[0].result == {"aircraft": "usaf_388tfw", "target": None}


@pytest.mark.parametrize(
    "die,sams,box,reduced",
    [(2, 2, "sam_strike", False), (5, 3, "sam_strike", False), (9, 3, "damaged", True)],
)
def test_row_10_3_3_2_sam_strike(die, sams, box, reduced):
    g = fresh()
    clear_boxes(g)
    g.airwar["sams"] = 3
    put(g, "usaf_355tfw", "sam_strike", airfield="takhli")  # SAM 3 -1 monsoon = 2
    g.force_dice([die])
    run(g, g._sam_strike("usaf_355tfw"), pick(kind="no_roll"))
    assert g.airwar["sams"] == sams
    rec = g.airwar["aircraft"]["usaf_355tfw"]
    assert rec["box"] == box and rec["reduced"] is reduced


def test_row_10_3_strike_order_is_the_capitalists_choice():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_355tfw", "sam_strike", airfield="takhli")
    put(g, "usaf_388tfw", "infrastructure", airfield="korat", restricted=True)
    g.force_dice([9, 9, 9])
    _, rs = run(g, g.air_strikes(), pick(kind="strike_type", box="infrastructure"))
    titles = [r.title for r in rs if r.title in ("Infrastructure strike", "SAM strike")]
    assert titles == ["Infrastructure strike", "SAM strike"]


# ------------------------------------------------------------------ aces and POWs (10.3.6, 10.3.8)
def test_row_10_3_6_us_ace_lost_adds_two_pows_and_communist_ace_a_us_victory_point():
    """10.3.6 for both sides, not 14.2.3 (decision R-AIR-07)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_388tfw", "infrastructure", airfield="korat", restricted=True, ace="ace_olds")
    g.airwar["aces"]["ace_olds"] = "usaf_388tfw"
    pow0 = g.vp["pow"]
    run(g, g._air_damage("usaf_388tfw", True, "test", "ROW-10.3.5"), pick(kind="no_roll"))
    assert g.vp["pow"] == pow0 + 3 and g.airwar["aces"]["ace_olds"] == "lost"  # +1 damaged, +2 ace
    put(g, "vpaf_923fr", "downtown", airfield="kep", ace="ace_bay")
    g.airwar["aces"]["ace_bay"] = "vpaf_923fr"
    mv = g.vp["us_military_victory"]
    run(g, g._air_damage("vpaf_923fr", True, "test", "ROW-10.3.1"))
    assert g.vp["us_military_victory"] == mv + 1 and g.vp["pow"] == pow0 + 3


def test_row_10_3_6_ace_only_with_its_own_service():
    g = fresh()
    clear_boxes(g)
    g.turn = 3
    g.force_dice([1] * 10)
    _, rs = run(g, g.air_reinforcement(), pick(kind="no_airfield_work"))
    # Olds (USAF) may not fly with a Navy wing; the answer took the first option, a USAF aircraft
    placed = next(r for r in rs if r.title == "Ace placed")
    assert placed.result["ace"] == "ace_olds" and placed.result["on"].startswith("usaf_")


def test_row_10_3_8_vnaf_aircraft_make_no_pows():
    """Only US services feed the Hanoi Hilton (decision R-AIR-06)."""
    g = fresh()
    put(g, "vnaf_23tw", "ground_support", airfield="da_nang")
    pow0 = g.vp["pow"]
    run(g, g._air_damage("vnaf_23tw", True, "test", "ROW-10.4.2"))
    assert g.vp["pow"] == pow0


# ------------------------------------------------------------------ tactical missions (10.4.x)
def test_row_10_4_stay_on_station_and_the_air_level_drops_when_a_ground_support_aircraft_leaves():
    """Decisions R-AIR-11 (the level drops) and R-AIR-12 (Station 7 unchanged by the monsoon)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usmc_1maw", "ground_support", airfield="da_nang")
    g.pools["US Air"] = 4
    g.force_dice([7])  # Station 7: stays
    _, rs = run(g, g._stay("usmc_1maw", "ROW-10.4.2"))
    assert rs[0].result == {"aircraft": "usmc_1maw", "stays": True}
    g.force_dice([8])  # leaves; MAW ground support 5 -1 monsoon = 4 comes off the level
    _, rs = run(g, g._stay("usmc_1maw", "ROW-10.4.2"))
    assert rs[0].result == {"aircraft": "usmc_1maw", "stays": False, "air_level": 0}
    assert g.airwar["aircraft"]["usmc_1maw"]["box"] == "available"


def test_row_10_4_1_interdiction_of_an_hq_needs_a_recon_and_bars_its_activation():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_432trw", "recon", airfield="udorn")  # recon 6 -1 = 5, station 6
    put(g, "usmc_1maw", "interdiction", airfield="da_nang")  # interdiction 3 -1 = 2, station 7
    hq = next(u for u in sorted(g.pos) if g.rows[u].kind == "hq" and g.side_of(u) == "Communist")
    g.force_dice([4, 1, 2, 1])  # recon 4 <= 5; stay 1; strike 2 <= 2; stay 1
    hit, rs = run(g, g.air_interdict_hq("Communist", hq), pick(kind="interdict"))
    assert hit is True and g.air_hq_interdicted(hq)
    assert [r.rule_id for r in rs if r.dice] == ["ROW-10.4.3", "ROW-10.4.3", "ROW-10.4.1", "ROW-10.4.1"]
    _, rs = run(g, g.air_remove_interdicted())
    assert rs[0].result == {"removed": [hq]} and not g.air_hq_interdicted(hq)


def test_row_10_4_3_a_recon_10_damages_the_recon_aircraft_and_stops_the_strike():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_432trw", "recon", airfield="udorn")
    put(g, "usmc_1maw", "interdiction", airfield="da_nang")
    hq = next(u for u in sorted(g.pos) if g.rows[u].kind == "hq" and g.side_of(u) == "Communist")
    g.force_dice([10])
    hit, rs = run(g, g.air_interdict_hq("Communist", hq), pick(kind="interdict"))
    assert hit is False and g.airwar["aircraft"]["usaf_432trw"]["box"] == "damaged"
    assert not any(r.rule_id == "ROW-10.4.1" and r.dice for r in rs)


def test_row_10_4_1_restricted_ops_halve_the_interdiction_value():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_432trw", "recon", airfield="udorn")
    put(g, "usmc_1maw", "interdiction", airfield="da_nang")
    g.restricted["Capitalist"] = "restricted"
    hq = next(u for u in sorted(g.pos) if g.rows[u].kind == "hq" and g.side_of(u) == "Communist")
    g.force_dice([1, 1, 2, 1])  # strike 2 > (3-1)//2 = 1: no effect
    hit, rs = run(g, g.air_interdict_hq("Communist", hq), pick(kind="interdict"))
    assert hit is False
    strike = next(r for r in rs if r.rule_id == "ROW-10.4.1" and r.dice)
    assert "halved (restricted) = 1" in strike.explanation


def test_row_10_4_1_no_interdiction_without_a_recon_aircraft():
    """Interdiction needs a recon first (decision R-AIR-08)."""
    g = fresh()
    clear_boxes(g)
    put(g, "usmc_1maw", "interdiction", airfield="da_nang")
    hq = next(u for u in sorted(g.pos) if g.rows[u].kind == "hq" and g.side_of(u) == "Communist")
    hit, rs = run(g, g.air_interdict_hq("Communist", hq))
    assert hit is False and rs == []


# ------------------------------------------------------------------ whole games
#: the option kinds of the air war's and the fleet's decisions (how the record names an air action)
AIR_KINDS = frozenset(
    {
        "commit_aircraft",
        "done_commit",
        "use_airfield",
        "secret_box",
        "no_secret",
        "place_ace",
        "repair_airfield",
        "improve_airfield",
        "no_airfield_work",
        "air_target",
        "sam_target",
        "strike_type",
        "strike_airfield",
        "lose_aircraft",
        "fly_support",
        "interdict",
        "no_interdiction",
        "recon_with",
        "fleet_station",
    }
)


def test_row_10_0_bots_play_the_air_war_and_explain_every_air_choice():
    """Decisions R-AIR-14 (bot policy with reasons) and R-AIR-01 (Downtown before SAMs)."""
    g = wargames.load("row", SCEN, seed=3)
    res = g.play()
    assert res is not None and res.result["winner"] in ("Capitalist", "Communist")
    air = [e for e in g.record if e["act"]["kind"] in AIR_KINDS]
    assert air and all(e["why"] for e in air)
    rules = {r.rule_id for r in g.log}
    assert {"ROW-10.2", "ROW-10.3.1", "ROW-10.3.4", "ROW-10.3.5", "ROW-10.4.2", "ROW-11.1"} <= rules
    # 10.3: Downtown is resolved before SAM fire in every turn (decision R-AIR-01)
    steps = [r.step for r in g.log if r.step in ("a6b", "a6c")]
    assert steps.index("a6b") < steps.index("a6c")
    assert [r for r in g.log if r.step == "a6b"][0].rule_id == "ROW-10.3.1"


def test_row_10_0_same_seed_same_air_war():
    a = wargames.load("row", SCEN, seed=5)
    b = wargames.load("row", SCEN, seed=5)
    a.play()
    b.play()
    assert a.digest() == b.digest()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_row_10_0_random_play_with_the_air_war(seed):
    random_play("row", seed, SCEN)


def test_row_10_2_bot_reason_for_a_commitment():
    g = fresh()
    d = _to_decision(g, "ROW-10.2", "commit_aircraft")
    bot = RowBot("Capitalist")
    a = bot.choose(g, d)
    assert a.kind == "commit_aircraft" and bot.last_reason
    assert a["box"] in mission_boxes()


# ------------------------------------------------------------------ airfields in A3 (R-AIR-09, R-AIR-10)
def test_row_10_1_airfield_repair_and_improvement_cost_supply_r_air_09():
    g = fresh()
    g.airwar["airfields"]["korat"]["damaged"] = True
    g.pools["Capitalist Supply"] = 5
    _, rs = run(g, g._airfield_work("Capitalist"), pick(kind="repair_airfield", airfield="korat"))
    # the first answer repairs Korat (1), the loop then offers more: the next pick falls to the last option
    assert rs[0].result == {"airfield": "korat", "work": "repair_airfield", "cost": 1}
    assert not g.airwar["airfields"]["korat"]["damaged"] and g.pools["Capitalist Supply"] == 4
    _, rs = run(g, g._airfield_work("Capitalist"), pick(kind="improve_airfield", airfield="korat"))
    assert rs[0].result["work"] == "improve_airfield" and g._capacity("korat") == 2
    assert g.pools["Capitalist Supply"] == 2


def test_row_10_1_a_communist_hex_next_to_da_nang_damages_its_airfield_r_air_10():
    g = fresh()
    assert not g.airwar["airfields"]["da_nang"]["damaged"]
    vc = next(u for u in sorted(g.pos) if g.side_of(u) == "Communist" and g.rows[u].kind == "unit")
    hid = g.map.places["da_nang"].hex
    empty = next(n for n in g.map.neighbours(hid) if not g.at_hex.get(n) and not g.map.is_sea(n))
    g.place(vc, empty)
    _, rs = run(g, g._airfield_overrun())
    assert any(r.result == {"airfield": "da_nang", "damaged": True} for r in rs)
    assert g._capacity("da_nang") == 0


# ------------------------------------------------------------------ every air decision has its test
def test_row_air_and_naval_decisions_each_have_a_test():
    import csv
    import re

    with open(data_root() / "row" / "decisions.csv", encoding="utf-8") as f:
        ids = [r["id"] for r in csv.DictReader(f) if r["id"].startswith(("R-AIR-", "R-NAV-"))]
    here = Path(__file__).parent
    text = (here / "test_row_air.py").read_text() + (here / "test_row_naval.py").read_text()
    cited = set(re.findall(r"R-(?:AIR|NAV)-\d\d", text)) | {
        f"R-{k.upper()}-{n}" for k, n in re.findall(r"r_(air|nav)_(\d\d)", text)
    }
    assert ids and not set(ids) - cited, f"decisions without a test: {sorted(set(ids) - cited)}"


def test_row_10_3_3_1_vc_airfield_strikes_under_infiltrate_r_air_15():
    g = fresh()
    clear_boxes(g)
    vc = next(
        u
        for u in sorted(g.pos)
        if g.rows[u].nationality == "VC"
        and g.rows[u].kind == "unit"
        and any(g.map.settlement(h) for h in (g.pos[u], *g.map.neighbours(g.pos[u])))
    )
    g.force_dice([4] + [10] * 40)  # the first VC unit hits; the others miss
    _, rs = run(g, g.air_vc_airfield_strikes(), pick(airfield="da_nang", aircraft="usmc_1maw"))
    first = next(r for r in rs if r.title == "VC airfield strike")
    assert first.result == {"unit": vc, "target": "da_nang", "success": True} and first.dice[0].value == 4
    assert g.airwar["airfields"]["da_nang"]["damaged"]
    assert g.airwar["aircraft"]["usmc_1maw"]["box"] == "eliminated"
    assert all(r.result["target"] in ("chu_lai", "da_nang") for r in rs if r.title == "VC airfield strike")


def test_row_10_1_china_airfields_fly_downtown_only_r_air_02():
    g = fresh()
    g.airwar["airfields"]["ningming"] = {"improved": True, "damaged": False}
    put(g, "prc_fr", "available")
    assert g._fields_for("prc_fr", "strategic") == ["ningming"]
    assert g._fields_for("prc_fr", "tactical") == []
    boxes = {a["box"] for a in g._box_options("Communist") if a["aircraft"] == "prc_fr"}
    assert boxes == {"downtown"}


def test_row_10_3_2_a_strike_ruling_carries_its_inputs_and_air_display_lookup():
    g = fresh()
    clear_boxes(g)
    put(g, "usaf_355tfw", "infrastructure", airfield="takhli")
    g.force_dice([3])
    _, rs = run(g, g._infra_strike("usaf_355tfw"), pick(kind="no_roll"))
    r = rs[0]
    assert r.inputs["value"] == 3 and "-1 monsoon" in r.inputs["modifiers"]
    assert r.lookup.table.startswith("Air Display") and r.lookup.row == "f105" and r.lookup.cell == "4"
    assert r.lookup.reconstructed


def test_row_10_4_2_the_air_a_combat_used_is_flown_by_the_ground_support_box():
    """After a combat the owner names the aircraft that flew its air support (R-AIR-11); each rolls to stay."""
    g = fresh()
    clear_boxes(g)
    put(g, "usmc_1maw", "ground_support", airfield="da_nang")  # 4 this Summer
    put(g, "cvw_21", "ground_support", airfield="carriers")  # 3
    g.pools["US Air"] = 7
    mark = len(g.log)
    g.log.append(
        g.ruling(
            "ROW-5.3.1",
            "Attacker commits support",
            "test",
            side="Capitalist",
            result={"support": {"tank": 0, "artillery": 0, "air": 5, "bombardment": 0}, "total": 5},
        )
    )
    g.force_dice([1, 9])  # the MAW stays (Station 7), the CVW leaves (Station 6)
    _, rs = run(g, g.air_after_combat(mark, "3448"), pick(aircraft="usmc_1maw"))
    flown = next(r for r in rs if r.title == "Air support flown")
    assert flown.result == {"side": "Capitalist", "used": 5, "aircraft": ["usmc_1maw", "cvw_21"]}
    assert g.airwar["aircraft"]["usmc_1maw"]["box"] == "ground_support"
    assert g.airwar["aircraft"]["cvw_21"]["box"] == "available" and g.pools["US Air"] == 4


def test_row_10_4_1_an_interdicted_hq_is_not_offered_for_activation():
    g = fresh()
    hq = next(
        u for u in sorted(g.pos) if g.rows[u].kind == "hq" and g.side_of(u) == "Communist" and g.fresh[u]
    )
    g.airwar["interdicted"] = [hq]
    gen = g.activation("Communist")
    d = next(gen)
    assert d.rule_id == "ROW-9.2" and hq not in {a.get("hq") for a in d.options}


def test_row_10_3_3_1_vc_sappers_cannot_reach_the_carriers_r_air_15():
    g = fresh()
    clear_boxes(g)
    for a in list(g.airwar["aircraft"]):
        if not a.startswith("cvw"):
            g.airwar["aircraft"][a]["box"] = "downtown" if a.startswith("vpaf") else "infrastructure"
    g.force_dice([1] * 40)
    _, rs = run(g, g.air_vc_airfield_strikes())
    assert any(r.title == "VC airfield strike" and r.result["success"] for r in rs)
    assert not any(r.title == "Aircraft destroyed on the ground" for r in rs)
    assert all(g.airwar["aircraft"][a]["box"] == "available" for a in ("cvw_16", "cvw_21"))
