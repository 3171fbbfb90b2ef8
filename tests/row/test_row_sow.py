"""SOW special operations (14.8, wargames.row.sow) with Special Forces (14.1.5), POWs (12.1.4) and secret operations
(12.1.5): the three tables as data with the text's holes filled (R-SOW-02, R-SOW-03, R-SOW-04), the rating rule
and the modifiers (R-SOW-05), secret missions (R-SOW-06), the step in the game (R-SOW-01, R-SOW-07)."""

from __future__ import annotations

import pytest

from wargames.core import IllegalAction
from wargames.core.registry import known_games, register

if "row" not in known_games():
    register("row", "wargames.row.game:RowGame")

from tests.row.specials_play import random_play_with  # noqa: E402
from tests.row.test_row_politics import SRC, dice, drive, game_with  # noqa: E402
from wargames.row.sow import resolve_sow, sow_tables  # noqa: E402

SOW = {
    "sow": {
        "aircraft": [{"id": "14sow", "special_ops": 6, **SRC}],
        "special_forces_ready": ["us_sf_4", "us_sf_5"],
        **SRC,
    }
}


def test_row_14_8_tables_are_complete_with_the_holes_filled():
    t = sow_tables()
    for m in ("pow_rescue", "sf_insertion"):
        assert [t[(m, k, None)].d10 for k in range(1, 11)] == list(range(1, 11))
    for c in ("NVN", "LAO", "KHM"):
        assert all((("raid", k, c)) in t for k in range(1, 11))
    assert t[("pow_rescue", 4, None)].outcome == "success" and "R-SOW-02" in t[("pow_rescue", 4, None)].source
    assert t[("raid", 1, "LAO")].outcome == "failure" and "R-SOW-03" in t[("raid", 2, "NVN")].source


@pytest.mark.parametrize(
    "roll,outcome,pow_,unrest",
    [
        (1, "failure", 2, 0),
        (2, "failure", 1, 0),
        (4, "success", "reset", 0),
        (6, "success", "reset", -1),
        (8, "failure", 0, 0),
        (9, "disaster", 0, 1),
        (10, "complete_disaster", 2, 2),
    ],
)
def test_row_14_8_pow_rescue_rows(roll, outcome, pow_, unrest):
    r = resolve_sow(dice(roll), "pow_rescue", 10)
    assert (r.result["outcome"], r.result["pow"], r.result["us_unrest"]) == (outcome, pow_, unrest)


def test_row_14_8_pow_rescue_9_loses_the_pows_without_adding_r_sow_04_and_10_removes_the_sf():
    assert resolve_sow(dice(9), "pow_rescue", 10).result["aircraft"] == "reduced_damaged"
    r = resolve_sow(dice(10), "pow_rescue", 10).result
    assert r["special_forces"] == "removed" and r["aircraft"] == "reduced_damaged"


def test_row_14_8_a_success_above_the_rating_fails_and_the_aircraft_returns_r_sow_05():
    r = resolve_sow(dice(7), "pow_rescue", 6)
    assert r.result["outcome"] == "failure" and r.result["aircraft"] == "available" and r.result["pow"] == 0
    ok = resolve_sow(dice(6), "pow_rescue", 6)
    assert ok.result["outcome"] == "success" and ok.result["us_unrest"] == -1
    # a failure or disaster row applies whatever the rating
    assert resolve_sow(dice(9), "pow_rescue", 2).result["us_unrest"] == 1


def test_row_14_8_insertion_modifier_minus_1_outside_an_enemy_zoc_and_recon_plus_1():
    assert (
        resolve_sow(dice(2), "sf_insertion", 6, in_enemy_zoc=False).result["special_forces"] == "ready"
    )  # 2-1=1
    assert resolve_sow(dice(2), "sf_insertion", 6, in_enemy_zoc=True).result["special_forces"] == "placed"
    assert (
        resolve_sow(dice(8), "sf_insertion", 7, in_enemy_zoc=False).result["special_forces"] == "placed"
    )  # 7 <= 7
    assert (
        resolve_sow(dice(8), "sf_insertion", 6, in_enemy_zoc=False).result["aircraft"] == "available"
    )  # 7 > 6
    r = resolve_sow(dice(10), "sf_insertion", 6, recon=True)
    assert r.result["roll"] == 10 and r.result["special_forces"] == "removed"  # the roll never passes 10
    assert r.result["aircraft"] == "damaged" and r.result["us_unrest"] == 1


@pytest.mark.parametrize(
    "country,roll,pavn,hcm,unrest,pow_",
    [
        ("NVN", 3, -1, 0, 0, 0),
        ("LAO", 5, 0, -2, 0, 0),
        ("KHM", 6, 0, -2, 0, 0),
        ("NVN", 8, 0, 0, 2, 0),
        ("LAO", 10, 0, 0, 2, 2),
        ("KHM", 10, 0, 0, 2, 1),
    ],
)
def test_row_14_8_raid_rows_by_country(country, roll, pavn, hcm, unrest, pow_):
    r = resolve_sow(dice(roll), "raid", 6, country=country).result
    assert (r["pavn_supply"], r["hcm_supply"], r["us_unrest"], r["pow"]) == (pavn, hcm, unrest, pow_)


def test_row_12_1_5_a_secret_mission_sends_unrest_to_secret_ops_r_sow_06():
    r = resolve_sow(dice(8), "raid", 6, country="NVN", secret=True).result
    assert r["us_unrest"] == 0 and r["secret_ops"] == 2
    assert resolve_sow(dice(6), "pow_rescue", 6, secret=True).result["us_unrest"] == -1  # gains stay open


def test_row_14_8_bad_input_refused():
    for kw in (
        {"mission": "bombing"},
        {"mission": "raid"},
        {"mission": "pow_rescue", "country": "LAO"},
        {"mission": "pow_rescue", "special_ops": 0},
    ):
        args = {"mission": "pow_rescue", "special_ops": 5, **kw}
        with pytest.raises(IllegalAction, match="ROW-14.8"):
            resolve_sow(dice(1), args.pop("mission"), args.pop("special_ops"), **args)


def _sow_game():
    g = game_with(SOW)
    for proc in (g.setup_levels(), g.setup_capitalist(), g.setup_communist()):
        drive(g, proc)
    return g


def test_row_14_8_in_the_game_a_raid_into_laos_cuts_the_trail_supply():
    g = _sow_game()
    assert g.sf_ready() == ["us_sf_4", "us_sf_5"]
    hcm = g.pools["Ho Chi Minh Trail Supply"]
    g.dice.force([5])

    def pick(d):
        if d.rule_id == "ROW-14.8":
            return next(a for a in d.options if a.get("country") == "LAO")
        return d.options[-1]  # an open mission

    drive(g, g.special_operations(), pick)
    assert g.pools["Ho Chi Minh Trail Supply"] == max(0, hcm - 2) and g.pol["sow_done"] == ["14sow"]


def test_row_14_1_5_an_inserted_special_forces_battalion_stands_on_the_map():
    g = _sow_game()
    g.dice.force([4])

    def pick(d):
        if d.options[0].kind == "sow_mission":
            return next(a for a in d.options if a.get("mission") == "sf_insertion")
        if d.options[0].kind == "sow_target":
            assert all(
                g.map.country(a["hex"]) == "SVN" for a in d.options
            )  # 14.1.5: South Vietnam (none invaded)
            return next(a for a in d.options if a["hex"] == "3448")
        return d.options[0]

    drive(g, g.special_operations(), pick)
    assert g.pos["us_sf_4"] == "3448" and g.sf_ready() == ["us_sf_5"]


def test_row_14_8_a_damaged_wing_misses_a_season_r_sow_07():
    g = _sow_game()
    g.dice.force([10])
    drive(
        g,
        g.special_operations(),
        lambda d: next((a for a in d.options if a.get("country") == "NVN"), d.options[-1]),
    )
    assert g.pol["sow_damaged"] == ["14sow"] and g.box["us_sf_4"] == "removed" and g.vp["pow"] == 2
    rs = drive(g, g.special_operations(), lambda d: d.options[-1])
    assert rs[0].title == "SOW wings repaired" and g.pol["sow_damaged"] == []


def test_row_14_8_without_the_block_no_step():
    g = game_with({"politics": {**SRC}})
    assert not g.sow_in_play()


def test_row_14_8_random_play_with_special_operations():
    g = random_play_with(5, {**SOW, "politics": {"invaded": ["LAO"], **SRC}})
    assert g.is_over


def test_row_12_1_5_westmoreland_takes_one_off_the_reveal_roll():
    from wargames.row import victory as V

    s = V.VictoryState(secret_ops=3)
    won, r = V.roll_accumulator(s, "secret_ops", dice(4), modifier=-1)
    assert r.result["vp"] == 1 and not won.secret_ops_allowed and "Westmoreland" in r.explanation
    lost, r = V.roll_accumulator(s, "secret_ops", dice(4))
    assert r.result["vp"] == 0 and lost.secret_ops_allowed
    g = _sow_game()  # in the game: a secret raid's Unrest goes to Secret Ops and the reveal roll is modified
    g.dice.force([8, 3])
    drive(
        g,
        g.special_operations(),
        lambda d: next(
            (a for a in d.options if a.get("country") == "NVN"),
            next((a for a in d.options if a.kind in ("sow_secret", "roll_accumulator")), d.options[-1]),
        ),
    )
    assert (
        g.vp["secret_ops"] == 0 and not g.vp["secret_ops_allowed"] and g.vp["us_unrest"] == 1
    )  # 3 - 1 <= 2 (3 alone would miss)


def test_row_14_1_5_a_special_forces_battalion_given_up_is_ready_for_a_mission():
    g = _sow_game()
    picks = iter(["give_up", "keep_all"])

    def pick(d):
        want = next(picks)
        return next(
            a for a in d.options if a.kind == want and (want != "give_up" or a["unit"] == "us_sf_khe_sanh")
        )

    rs = drive(g, g.capitalist_voluntary_elimination(), pick)
    assert g.box["us_sf_khe_sanh"] == "sf_ready" and "us_sf_khe_sanh" in g.sf_ready()
    assert not any(r.dice for r in rs)  # no casualty roll (14.1.5)


def test_row_14_8_bots_play_a_whole_game_with_every_block_and_explain_their_choices():
    import wargames
    from tests.row.test_row_politics import POLITICS

    extras = {**SOW, "politics": POLITICS, "trail": {"interdiction": True, **SRC}}
    g = wargames.load("row", seed=2, extras=extras)
    g.play()
    assert g.is_over and g.pol["sow_done"] is not None
    assert any(r.rule_id == "ROW-14.8" and r.title == "Special operation" for r in g.log)
