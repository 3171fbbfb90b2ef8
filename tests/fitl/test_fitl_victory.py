"""FitL victory (rules 7.x) and the Victory Phase (6.1)."""

from __future__ import annotations

import pytest

from wargames.core.data import DataError
from wargames.fitl.game import FitlGame
from wargames.fitl.victory import THRESHOLDS
from wargames.testing import unstarted

from .conftest import Passer, fitl_game

BOTS = {f: Passer() for f in ("US", "ARVN", "NVA", "VC")}


def test_fitl_7_3_margins_are_marker_minus_threshold():
    g = unstarted(FitlGame, "short", 0)
    assert g.board.victory() == {"US": 38, "ARVN": 41, "NVA": 10, "VC": 23}  # the printed Short totals
    assert g.margins() == {"US": -12, "ARVN": -9, "NVA": -8, "VC": -12}
    assert THRESHOLDS == {"US": 50, "ARVN": 50, "NVA": 18, "VC": 35}


def test_fitl_7_0_each_faction_its_own_marker():
    g = unstarted(FitlGame, "short", 0)
    g.board.tracks["patronage"] += 5  # Patronage counts for ARVN only
    assert g.board.victory() == {"US": 38, "ARVN": 46, "NVA": 10, "VC": 23}


def test_fitl_7_1_ties_go_to_vc_then_arvn_then_nva():
    g = unstarted(FitlGame, "short", 0)
    assert g.ranking() == ["NVA", "ARVN", "VC", "US"]  # US and VC tie at -12: VC first
    g.margins = lambda: {"US": 0, "ARVN": 0, "NVA": 0, "VC": 0}
    assert g.ranking() == ["VC", "ARVN", "NVA", "US"]


def test_fitl_7_2_victory_check_win_ends_the_game_at_the_coup():
    g = fitl_game(top=[1, 127, 5], edit=lambda g: g.board.tracks.update(patronage=40), players=BOTS)
    g.advance("end")  # ARVN 41 - 18 + 40 = 63 > 50
    assert g.is_over and g.result.rule_id == "FITL-7.2" and g.result.result["winner"] == "ARVN"
    assert g.result.result["ranking"][0] == "ARVN" and g.result.result["margins"]["ARVN"] == 13
    assert "ARVN passed the victory check" in g.result.explanation
    assert g.card == 127 and not any(r.rule_id == "FITL-6.2.3" for r in g.log)  # nothing after 6.1


def test_fitl_7_2_exactly_the_threshold_is_not_a_win():
    g = fitl_game(top=[127, 5], edit=lambda g: g.board.tracks.update(patronage=27), players=BOTS)
    assert g.board.victory()["ARVN"] == 50
    g.advance("phase")
    g.advance("phase")
    r = [r for r in g.log if r.rule_id == "FITL-7.2"][0]
    assert r.title == "Victory check: no winner" and not g.is_over


def test_fitl_6_1_victory_phase_opens_each_coup_round():
    g = fitl_game(top=[1, 127, 5, 128, 10, 129], players=BOTS)
    g.advance("end")
    checks = [r for r in g.log if r.rule_id == "FITL-7.2"]
    assert len(checks) == 3 and all(r.phase == "Victory Phase" for r in checks)


def test_fitl_7_3_final_coup_ranks_by_margin_and_explains():
    g = fitl_game(top=[1, 127, 5, 128, 10, 129], players=BOTS)
    g.advance("end")
    res = g.result
    assert res.rule_id == "FITL-6.4.5" and res.result["final_coup"] is True
    m = g.margins()
    assert res.result["margins"] == m and res.result["ranking"] == g.ranking()
    assert res.result["winner"] == g.ranking()[0]
    assert "highest victory margin" in res.explanation and "Ranking by margin: 1." in res.explanation
    assert res.inputs["markers"] == g.board.victory()


def test_fitl_7_1_non_player_passing_a_check_means_all_players_lose():
    g = fitl_game(
        top=[1, 127, 5],
        edit=lambda g: g.board.tracks.update(patronage=40),
        players=BOTS,
        options={"non_players": ["ARVN"]},
    )
    g.advance("end")
    assert g.result.rule_id == "FITL-7.2" and g.result.result["winner"] is None
    assert g.result.result["non_player_win"] == ["ARVN"] and "all players lose" in g.result.explanation


def test_fitl_7_1_ties_go_to_non_players_first():
    g = unstarted(FitlGame, "short", 0, {"non_players": ["US"]})
    assert g.ranking() == ["NVA", "ARVN", "US", "VC"]  # US and VC tie at -12: the Non-player first


def test_fitl_1_5_politburo_and_sovereignty_margins():
    g = unstarted(FitlGame, "short", 0, {"combined": ["NVA+VC", "US+ARVN"]})
    assert g.contenders() == ["NVA+VC", "US+ARVN"]
    assert g.party_margin("NVA+VC", final=False) == -8 and g.party_margin("NVA+VC", final=True) == -12
    assert g.party_margin("US+ARVN", final=False) == -12 == g.party_margin("US+ARVN", final=True)
    g.board.tracks["patronage"] = 40  # ARVN passes, the US does not: Sovereignty needs both
    assert g.margins()["ARVN"] > 0 and g.party_passes("US+ARVN") is False
    g.board.tracks["patronage"] = 18
    g.margins = lambda: {"US": -12, "ARVN": -9, "NVA": 1, "VC": -12}  # NVA alone passes: Politburo wins
    assert g.party_passes("NVA+VC") is True
    h = fitl_game(
        top=[1, 127, 5],
        players=BOTS,
        options={"combined": ["NVA+VC"]},
        edit=lambda g: g.board.tracks.update(patronage=40),
    )
    h.advance("end")  # ARVN (a single player here) passes at the first Coup
    assert h.result.result["winner"] == "ARVN" and "NVA+VC" in h.result.result["ranking"]
    assert "higher margin" in h.result.explanation  # Politburo during a Coup Round


# ------------------------------------------------------------------ 8.9 the 1-player game
SOLO = {"non_players": ["ARVN", "NVA", "VC"], "one_player": "standard"}


def _solo(margins: dict[str, int], final: bool, coups: int = 1, **options):
    g = unstarted(FitlGame, "short", 0, {**SOLO, **options})
    g.margins = lambda: dict(margins)
    g.coups_held = coups
    return g, list(g.solo_check(final=final))


def test_fitl_8_9_lone_player_never_wins_at_a_victory_phase():
    g, out = _solo({"US": 5, "ARVN": -1, "NVA": -3, "VC": -2}, final=False)
    assert (
        len(out) == 1
        and out[0].title == "1-player Victory Phase: no win"
        and "never wins" in out[0].explanation
    )
    assert not g._over


def test_fitl_8_9_a_non_player_passing_its_check_wins_at_once():
    g, out = _solo({"US": 5, "ARVN": 2, "NVA": -3, "VC": 1}, final=False)
    assert out[-1].title == "Game over: the Non-player ARVN wins" and out[-1].result["winner"] == "ARVN"


def test_fitl_8_9_difficulty_b_player_may_not_trail_from_the_second_coup():
    m = {"US": -5, "ARVN": -9, "NVA": -2, "VC": -8}
    assert _solo(m, False, coups=2)[1][-1].result["winner"] is None  # without Option B: play goes on
    assert _solo(m, False, coups=1, one_player="B")[1][-1].result["winner"] is None  # 1st Coup Round ignored
    out = _solo(m, False, coups=2, one_player="B")[1]
    assert out[-1].result["winner"] == "NVA" and "Option B" in out[-1].explanation


def test_fitl_8_9_final_player_needs_the_highest_margin_ties_to_non_players():
    out = _solo({"US": 0, "ARVN": -1, "NVA": 0, "VC": 0}, final=True)[1]
    assert out[-1].result["winner"] == "VC"  # a tie goes to the Non-players, VC first
    out = _solo({"US": 1, "ARVN": -1, "NVA": 0, "VC": 0}, final=True)[1]
    assert out[-1].result["winner"] == "US" and out[-1].rule_id == "FITL-8.9"


def test_fitl_8_9_combined_lone_player_counts_the_lower_margin():
    g = unstarted(
        FitlGame,
        "short",
        0,
        {"non_players": ["US", "ARVN"], "combined": ["NVA+VC"], "one_player": "standard"},
    )
    g.margins = lambda: {"US": -10, "ARVN": -10, "NVA": 3, "VC": -4}
    assert g.solo_party() == "NVA+VC" and g.party_margin("NVA+VC", final=False) == -4


def test_fitl_8_9_difficulty_a_sets_up_the_medium_capabilities_against_the_player():
    coin = unstarted(FitlGame, "short", 0, {**SOLO, "one_player": "A"})
    assert coin.capabilities == {"31": "shaded", "104": "shaded", "34": "shaded", "28": "shaded"}
    ins = unstarted(FitlGame, "short", 0, {"non_players": ["US", "ARVN", "NVA"], "one_player": "A"})
    assert ins.capabilities == {"8": "unshaded", "14": "unshaded"}


def test_fitl_8_9_one_player_needs_exactly_one_person():
    with pytest.raises(DataError, match="FITL-8.9"):
        FitlGame("short", 0, {"non_players": ["NVA", "VC"], "one_player": "standard"})
    with pytest.raises(DataError, match="FITL-8.9"):
        FitlGame("short", 0, {**SOLO, "one_player": "hard"})


def test_fitl_8_9_easy_option_non_players_keep_their_limited_operation():
    def limited_ops(one_player: str) -> int:
        n = 0
        for seed in range(3):
            g = FitlGame("short", seed, {**SOLO, "one_player": one_player})
            g.play()
            assert g.is_over and g.result.rule_id == "FITL-8.9"
            n += sum(
                1
                for r in g.record
                if r.get("side") != "US"
                and r.get("act", {}).get("kind") == "op"
                and r["act"]["params"].get("limited")
            )
        return n

    assert limited_ops("standard") == 0 and limited_ops("easy") > 0
