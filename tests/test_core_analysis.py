"""The analysis board (issue #33): wargames.analyse from a position, deterministic, with common random numbers,
95% intervals, the same on local workers and on Dask, and cancellable."""

from __future__ import annotations

import threading

import pytest

import wargames
from wargames.core.analysis import AnalysisCancelled, AnalysisError, analyse, default_candidates, wilson
from wargames.core.standing import standing


@pytest.fixture(scope="module")
def fitl_position():
    """Fire in the Lake, Short scenario: the NVA, 1st Eligible on the first card, chooses among 5-6 options."""
    return wargames.load("fitl", "short", seed=3)


def _plain(frame):
    return frame.to_dict("records")


def test_analysis_same_position_and_seed_give_the_same_table_and_leave_the_game_alone(fitl_position):
    before = fitl_position.digest()
    a = analyse(fitl_position, rollouts=3, horizon="turn", seed=5)
    b = analyse(fitl_position, rollouts=3, horizon="turn", seed=5)
    assert _plain(a) == _plain(b) and a.attrs["margins"] == b.attrs["margins"]
    assert fitl_position.digest() == before and len(fitl_position.record) == 0
    assert list(a["candidate"]) == [fitl_position.display_label(x) for x in fitl_position.legal_actions()]
    assert a["best"].sum() == 1 and a.attrs["side"] == fitl_position.decision.side


def test_analysis_common_random_numbers_make_equal_candidates_equal(fitl_position):
    """Replay i rolls the same dice for every candidate: one action analysed under two names gives identical
    outcomes, replay by replay (without common random numbers they would differ by luck)."""
    act = fitl_position.legal_actions()[2]
    frame = analyse(fitl_position, {"first": act, "again": act}, rollouts=4, horizon="turn", seed=1)
    assert frame.attrs["margins"]["first"] == frame.attrs["margins"]["again"]


def test_analysis_intervals_are_wilson_95_percent():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)


def test_analysis_table_intervals_contain_the_shares(fitl_position):
    frame = analyse(fitl_position, rollouts=4, horizon="turn")
    for side in fitl_position.sides:
        assert (frame[f"win_{side}_lo"] <= frame[f"win_{side}"]).all()
        assert (frame[f"win_{side}"] <= frame[f"win_{side}_hi"]).all()
    assert (frame["margin_lo"] <= frame["margin_mean"]).all() and (
        frame["margin_mean"] <= frame["margin_hi"]
    ).all()
    shares = sum(frame[f"win_{s}"] for s in fitl_position.sides) + frame["draw"]
    assert shares.round(9).eq(1.0).all()
    assert all("replays" in s and "%" in s for s in frame["sentence"])


@pytest.mark.slow
def test_analysis_on_local_workers_equals_this_process(fitl_position):
    here = analyse(fitl_position, rollouts=3, horizon="turn", seed=9)
    there = analyse(fitl_position, rollouts=3, horizon="turn", seed=9, workers=2)
    assert _plain(here) == _plain(there)


@pytest.mark.slow
def test_analysis_on_dask_equals_local(fitl_position):
    from dask.distributed import Client, LocalCluster

    here = analyse(fitl_position, rollouts=2, horizon="turn", seed=4)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        there = analyse(fitl_position, rollouts=2, horizon="turn", seed=4, client=client)
    assert _plain(here) == _plain(there)


def test_analysis_can_be_cancelled_and_leaves_the_game_alone(fitl_position):
    before = fitl_position.digest()
    stop = threading.Event()
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if done >= 2:
            stop.set()

    with pytest.raises(AnalysisCancelled, match="cancelled after 2 of"):
        analyse(fitl_position, rollouts=5, horizon="turn", progress=progress, cancel=stop)
    assert seen[-1][0] == 2 and fitl_position.digest() == before
    with pytest.raises(AnalysisCancelled):
        analyse(fitl_position, rollouts=5, horizon="turn", cancel=lambda: True)


def test_analysis_refuses_an_illegal_candidate_a_bad_horizon_and_no_decision():
    g = wargames.load("yotr", seed=1)
    with pytest.raises(AnalysisError, match="not legal now"):
        analyse(g, [wargames.core.Action.make("no_such_move")], rollouts=1)
    with pytest.raises(AnalysisError, match="horizon"):
        analyse(g, rollouts=1, horizon="week")
    done = wargames.load("fitl", "short", seed=1)
    done.play()
    with pytest.raises(AnalysisError, match="starts from a decision"):
        analyse(done, rollouts=1)


def test_analysis_default_candidates_are_the_advisors_first_choices_when_there_are_many():
    """Tet's first movement decision offers some 500 moves: the built-in player's first 8, its own pick first."""
    g = wargames.load("tet", seed=2)
    cands = default_candidates(g, top=8)
    assert len(cands) == 8 and len({c.name for c in cands}) == 8
    pick = g.default_player(g.decision.side).choose(g, g.decision)
    assert cands[0].actions[0] == pick


@pytest.mark.parametrize("game", ["tet", "yotr", "fitl", "row"])
def test_standing_reads_the_end_of_game_rule_now_and_the_result_at_the_end(game):
    """Decisions A-ANALYSIS, D-ANALYSIS, F-ANALYSIS, R-ANALYSIS: before the end, each game's end-of-game rule read
    now; at the end, the result itself (same winner, same deciding rule as ``outcome()``)."""
    g = wargames.load(game, seed=1)
    now = standing(g)
    assert not now.final and set(now.margins) == set(g.sides) and now.rule
    g.play()
    end = standing(g)
    out = g.outcome()
    assert end.final and end.rule == out["rule"]
    assert (end.winner or "none") == (out["winner"] or "none")


# ------------------------------------------------------------------------------------------- declared plans
@pytest.fixture(scope="module")
def air_commitment():
    """Rumor of War, Eastertide (1972): the Capitalist's first air commitment (ROW-10.2), one decision per
    aircraft with an airfield for most."""
    game = wargames.load("row", "eastertide", seed=1)
    while game.decision is not None and not (
        game.decision.side == "Capitalist" and game.decision.kind == "air_mission"
    ):
        game.advance("decision")
    return game


NORTH = ["downtown", "infrastructure", "sam_strike", "airfield_strike"]
SOUTH = ["ground_support", "interdiction"]


def test_issue33_a_declared_plan_is_followed_through_every_decision_of_its_side(air_commitment):
    """Issue #33 item 3: a whole plan, not the first aircraft: the plan's preferences decide every commitment of
    the season (ROW-10.2) while the Capitalist decides, the Advisor choosing within them and alone where none
    fits (airfields, the secret box); the game analysed is not changed."""
    from wargames.core.analysis import Candidate, plan, preview

    before = air_commitment.digest()
    north = plan("north", {"box": NORTH, "restricted": False}, {"box": NORTH})
    south = plan("south", {"box": SOUTH})
    done_north, done_south = preview(air_commitment, north, seed=1), preview(air_commitment, south, seed=1)
    commits_n = [x for x in done_north if " to " in x]
    commits_s = [x for x in done_south if " to " in x]
    assert len(commits_n) >= 8 and len(commits_s) >= 8  # every aircraft, not only the first
    assert sum("Downtown" in x or "Strike" in x for x in commits_n) >= 6
    assert not any("Downtown" in x or "Strike" in x for x in commits_s)
    assert any("(room for" in x for x in done_north)  # the airfields: the Advisor's, inside the plan
    assert air_commitment.digest() == before
    assert Candidate.from_json(north.to_json()) == north  # as it travels to workers and Dask


def test_issue33_plans_are_compared_deterministically_with_common_random_numbers(air_commitment):
    from wargames.core.analysis import plan

    plans = [
        plan("north", {"box": NORTH}),
        plan("south", {"box": SOUTH}),
        plan("north again", {"box": NORTH}),
    ]
    a = analyse(air_commitment, plans, rollouts=2, horizon="phase", seed=3)
    b = analyse(air_commitment, plans, rollouts=2, horizon="phase", seed=3)
    assert _plain(a) == _plain(b) and list(a["candidate"]) == ["north", "south", "north again"]
    assert a.attrs["margins"]["north"] == a.attrs["margins"]["north again"]


def test_issue33_a_plan_none_of_whose_preferences_fits_is_refused(air_commitment):
    from wargames.core.analysis import plan

    with pytest.raises(AnalysisError, match="none of its preferences fits"):
        analyse(air_commitment, [plan("to the moon", {"box": "moon"})], rollouts=1, horizon="phase")
    with pytest.raises(AnalysisError, match="declares no preference"):
        plan("nothing")
