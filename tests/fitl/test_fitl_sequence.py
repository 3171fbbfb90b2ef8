"""FitL sequence of play (rules 2.x): deck, card order, Eligibility, options, Pass, Monsoon, Pivotal Events,
Coup cards and the RVN Leader box.  Operations are replaced by a stand-in (``StandInOps``) so the tests check
the sequence of play alone."""

from __future__ import annotations

from collections import Counter

import pytest

from wargames.core import Action, IllegalAction
from wargames.fitl.data import COIN
from wargames.fitl.game import FitlGame
from wargames.fitl.sequence_of_play import SequenceRules
from wargames.testing import unstarted

from .conftest import Passer, fitl_game, pick


class StandInOps(FitlGame):
    """Every faction may always do an Operation; each one records how it was called."""

    def new_state(self) -> None:
        super().new_state()
        self.calls: list[tuple[str, bool, bool]] = []

    def op_choices(self, faction, limited, free=False):
        return ["train"] if faction in COIN else ["rally"]

    def operation(self, faction, *, limited, with_sa, free=False):
        self.calls.append((faction, limited, with_sa))
        yield self.ruling("FITL-3.0", f"{faction} stand-in Operation", "test stand-in", places=["saigon"])
        return {"executed": True, "sa": with_sa}


class NoCardTexts(StandInOps):
    """The frame as it behaves without card texts (the stand-ins of SequenceRules, not the Events of issue #7):
    the Event option is shown as unavailable with its reason, and only the Tet Offensive precondition is known."""

    event_options = SequenceRules.event_options
    execute_event = SequenceRules.execute_event
    pivotal_precondition = SequenceRules.pivotal_precondition


def ops_game(top, **kw):
    return fitl_game(top=top, base=StandInOps, **kw)


def frame_game(top, **kw):
    return fitl_game(top=top, base=NoCardTexts, **kw)


def op(game, limited=False, sa=False):
    return pick(game, "op", limited=limited, sa=sa)


# ---------------------------------------------------------------------- 2.1, 2.2 deck and start
@pytest.mark.parametrize(
    "scenario,cards,piles,coups",
    [
        ("short", 27, 3, {127, 128, 129}),
        ("medium", 39, 3, {128, 129, 130}),
        ("full", 78, 6, {125, 126, 127, 128, 129, 130}),
    ],
)
def test_fitl_2_1_deck_built_by_scenario_instructions(scenario, cards, piles, coups):
    g = unstarted(FitlGame, scenario, 3)
    assert len(g.deck) == cards and len(g.piles) == piles
    for pile in g.piles:  # one Coup card shuffled into each pile, the piles stacked in order
        assert sum(1 for c in pile if c in coups) == 1
    assert g.deck == [c for p in g.piles for c in p]
    assert {c for c in g.deck if g.is_coup(c)} == coups
    if scenario == "short":
        assert g.pivotal_held == {} and {121, 122, 123, 124, 130} <= set(g.set_aside)
    else:
        assert g.pivotal_held == {"US": 121, "NVA": 122, "ARVN": 123, "VC": 124}
    assert g.invariants() == []


def test_fitl_2_1_deck_shuffled_with_the_game_dice_and_period_events_option():
    assert unstarted(FitlGame, "short", 1).deck != unstarted(FitlGame, "short", 2).deck
    assert unstarted(FitlGame, "short", 1).deck == unstarted(FitlGame, "short", 1).deck
    g = unstarted(FitlGame, "short", 1, {"period_events": True})
    assert {g.data.cards[c].period for c in g.deck if not g.is_coup(c)} == {"1965"}
    assert g.capabilities == {"31": "shaded"}  # AAA, shaded, in effect (FITL-SETUP-PERIOD)
    full = unstarted(FitlGame, "full", 1, {"period_events": True})
    periods = [[full.data.cards[c].period for c in p if not full.is_coup(c)] for p in full.piles]
    assert [set(p) for p in periods] == [{"1964"}, {"1965"}, {"1965"}, {"1968"}, {"1968"}, {"1968"}]


def test_fitl_2_2_current_and_next_card_public_deck_order_hidden():
    g = ops_game([1, 23])
    assert g.card == 1 and g.next_card == 23
    view = g.view("VC").state
    assert view["card"] == 1 and view["next_card"] == 23
    assert view["deck"] == len(g.deck) and isinstance(view["deck"], int)  # only the size is public
    assert isinstance(g.view(None).state["deck"], list)
    assert g.log[-1].rule_id == "FITL-2.3.2" and any(r.rule_id == "FITL-2.2" for r in g.log)


def test_fitl_1_1_one_card_ahead_is_visible():
    g = ops_game([1, 23, 74])
    assert (g.card, g.next_card) == (1, 23)
    g.apply(pick(g, "pass"))
    g.apply(pick(g, "pass"))
    g.apply(pick(g, "pass"))
    g.apply(pick(g, "pass"))
    assert (g.card, g.next_card) == (23, 74)


# ---------------------------------------------------------------------- 2.3 options and Eligibility
def test_fitl_2_3_event_card_at_most_two_factions_execute():
    g = ops_game([1, 5])
    g.apply(op(g))
    g.apply(op(g, limited=True))
    assert g.card == 5 and len([c for c in g.calls]) == 2  # ARVN and VC were never asked on card 1
    assert [r for r in g.log if r.rule_id == "FITL-2.3.6"][-1].result["eligible"] == {
        "US": False,
        "ARVN": True,
        "NVA": False,
        "VC": True,
    }


def test_fitl_setup_deck_coup_and_pivotal_cards_separated():
    g = unstarted(FitlGame, "medium", 8)
    assert not set(g.deck) & {121, 122, 123, 124} and {127, 126, 125} == set(g.leader_box)
    assert len(g.set_aside) == 130 - 39 - 4 - 3  # the unused Event cards (and nothing else) set aside
    assert all(g.data.cards[c].kind not in ("coup", "pivotal") for c in g.set_aside)


def test_fitl_setup_period_events_option_deals_by_period():
    g = unstarted(FitlGame, "medium", 8, {"period_events": True})
    assert {g.data.cards[c].period for c in g.deck if not g.is_coup(c)} == {"1968"}
    assert g.capabilities  # the scenario's listed Capabilities are in effect


def test_fitl_2_3_1_all_factions_start_eligible():
    g = ops_game([1])
    assert all(g.eligible.values())
    assert g.decision.side == "US"


def test_fitl_2_3_2_faction_order_skips_ineligible_factions():
    def edit(game):
        game.eligible["US"] = False
        game.eligible["NVA"] = False

    g = ops_game([1], edit=edit)  # Gulf of Tonkin: US NVA ARVN VC
    assert g.decision.side == "ARVN" and g.decision.context["role"] == "1st"
    assert g.log[-1].result["order"] == ["ARVN", "VC"] and g.log[-1].result["ineligible"] == ["US", "NVA"]


def test_fitl_2_3_3_pass_gains_and_the_next_faction_takes_the_role():
    g = ops_game([1, 5])  # US NVA ARVN VC
    arvn, nva, vc = (g.board.tracks[t] for t in ("arvn_resources", "nva_resources", "vc_resources"))
    g.apply(pick(g, "pass"))  # US passes: +3 ARVN Resources
    assert g.board.tracks["arvn_resources"] == arvn + 3
    assert g.decision.side == "NVA" and g.decision.context["role"] == "1st"
    g.apply(pick(g, "pass"))  # NVA passes: +1 NVA Resources
    assert g.board.tracks["nva_resources"] == nva + 1
    g.apply(pick(g, "pass"))  # ARVN passes: +3 ARVN Resources
    assert g.board.tracks["arvn_resources"] == arvn + 6
    g.apply(pick(g, "pass"))  # VC, the last, passes: +1 VC; the card ends
    assert g.board.tracks["vc_resources"] == vc + 1
    assert all(g.eligible.values()) and g.card != 1
    passes = [r for r in g.log if r.rule_id == "FITL-2.3.3"]
    assert [r.result["gain"] for r in passes] == [3, 1, 3, 1]


def test_fitl_2_3_3_second_eligible_passes_next_becomes_second():
    g = ops_game([1, 5])  # US NVA ARVN VC
    g.apply(op(g))
    g.apply(pick(g, "pass"))  # NVA, 2nd Eligible, passes
    assert g.decision.side == "ARVN" and g.decision.context["role"] == "2nd"
    assert [a.get("limited") for a in g.legal_actions() if a.kind == "op"] == [True]
    g.apply(op(g, limited=True))
    assert g.eligible == {"US": False, "ARVN": False, "NVA": True, "VC": True}


class NotExecuted(StandInOps):
    def operation(self, faction, *, limited, with_sa, free=False):
        yield self.ruling("FITL-3.0", "no space", "test: the Operation found no space")
        return {"executed": False, "sa": False}


def test_fitl_2_3_4_an_operation_in_no_space_does_not_count():
    g = fitl_game(top=[1, 5], base=NotExecuted)
    g.apply(op(g))
    assert g.decision.side == "NVA" and g.decision.context["role"] == "1st"  # the US did not act
    assert g.log[-1].result == {"faction": "US", "executed": False}


def test_fitl_2_3_3_pass_gain_capped_at_75():
    g = ops_game([1], edit=lambda game: game.board.tracks.update(arvn_resources=74))
    g.apply(pick(g, "pass"))
    assert g.board.tracks["arvn_resources"] == 75
    assert "capped" in [r for r in g.log if r.rule_id == "FITL-2.3.3"][-1].explanation


def test_fitl_2_3_4_first_eligible_options_and_event_unavailable_with_reason():
    g = frame_game([1])
    kinds = sorted((a.kind, a.get("limited"), a.get("sa")) for a in g.legal_actions())
    assert kinds == [("op", False, False), ("op", False, True), ("pass", None, None)]
    off = g.decision.context["unavailable"]
    assert off[0]["kind"] == "event" and "issue #7" in off[0]["reason"]


def test_fitl_2_3_4_event_rejected_naming_the_rule_state_unchanged():
    g = frame_game([1])
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("event"))
    assert err.value.rule_id == "FITL-2.3.4" and "issue #7" in err.value.message
    assert g.digest() == before


@pytest.mark.parametrize(
    "first,second",
    [
        ("op", [("op", True, False), ("pass", None, None)]),  # Op only -> Limited Op
        ("op_sa", [("op", True, False), ("pass", None, None)]),  # Op + SA -> Limited Op or Event
    ],
)
def test_fitl_2_3_4_second_eligible_options_table(first, second):
    g = frame_game([1])
    g.apply(op(g, sa=first == "op_sa"))
    assert g.decision.side == "NVA" and g.decision.context["role"] == "2nd"
    assert (
        sorted((a.kind, a.get("limited"), a.get("sa")) for a in g.legal_actions() if a.kind != "transfer")
        == second
    )  # NVA may also first give VC Resources (1.5.2)
    event = [o for o in g.decision.context["unavailable"] if o["kind"] == "event"][0]
    if first == "op":
        assert "Limited Operation" in event["reason"]  # not allowed by the table
    else:
        assert "issue #7" in event["reason"]  # allowed by the table, but no event texts yet
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("op", limited=False, sa=True))  # a full Op is never a 2nd Eligible's option here
    assert err.value.rule_id == "FITL-2.3.4" and g.digest() == before


def test_fitl_2_3_4_after_event_second_eligible_may_do_full_op_with_sa():
    g = ops_game([1])
    opts, off = g.card_options("NVA", "event")
    assert sorted((a.kind, a.get("limited"), a.get("sa")) for a in opts) == [
        ("op", False, False),
        ("op", False, True),
        ("pass", None, None),
    ]
    assert not [o for o in off if o["kind"] == "event"]


class StandInEvents(StandInOps):
    """Events are offered (as issue #7 will) and recorded."""

    def event_options(self, faction):
        return [Action.make("event", "Event (unshaded)", side="unshaded")], ""

    def execute_event(self, faction, action):
        self.calls.append((faction, "event", action["side"]))
        yield self.ruling("FITL-2.3.4", "stand-in Event", "test", places=["saigon"])


def test_fitl_2_3_4_after_the_event_the_second_may_do_op_with_sa_through_the_hooks():
    g = fitl_game(top=[1, 5], base=StandInEvents)
    g.apply(pick(g, "event", side="unshaded"))
    assert g.decision.side == "NVA" and g.decision.context["role"] == "2nd"
    assert sorted(
        (a.kind, a.get("limited"), a.get("sa")) for a in g.legal_actions() if a.kind != "transfer"
    ) == [("op", False, False), ("op", False, True), ("pass", None, None)]
    g.apply(op(g, sa=True))
    assert g.calls == [("US", "event", "unshaded"), ("NVA", False, True)]
    assert g.eligible == {"US": False, "ARVN": True, "NVA": False, "VC": True}


def test_fitl_2_3_5_second_eligible_limited_operation_call():
    g = ops_game([1])
    g.apply(op(g, sa=True))
    g.apply(op(g, limited=True))
    assert g.calls == [("US", False, True), ("NVA", True, False)]
    assert g.acted == {} and g.card != 1  # the card is over
    assert [r for r in g.log if r.rule_id == "FITL-2.3.6"][-1].explanation.startswith(
        "Executed on this card: US (op_sa), NVA (limited)"
    )


def test_fitl_2_3_6_executors_ineligible_next_card_others_eligible():
    g = ops_game([1, 5, 10])  # 1 and 5: US NVA ARVN VC
    g.apply(pick(g, "pass"))  # US passes
    g.apply(op(g))  # NVA 1st Eligible: Op
    g.apply(op(g, limited=True))  # ARVN 2nd Eligible: Limited Op; VC never asked
    assert g.eligible == {"US": True, "ARVN": False, "NVA": False, "VC": True}
    assert g.card == 5 and g.decision.side == "US"
    g.apply(pick(g, "pass"))
    assert g.decision.side == "VC"  # NVA and ARVN sit out
    g.apply(op(g))
    assert g.eligible == {"US": True, "ARVN": True, "NVA": True, "VC": False}


def test_fitl_2_3_6_event_override_through_eligibility_next():
    g = ops_game([1, 5])
    g.eligibility_next = {"US": True}  # as an Event keeping its executor Eligible would set it
    g.apply(op(g))
    g.apply(op(g, limited=True))
    assert g.eligible["US"] is True and g.eligible["NVA"] is False


def test_fitl_2_3_7_next_card_played_after_adjusting_eligibility():
    g = ops_game([1, 5, 10])
    for _ in range(4):
        g.apply(pick(g, "pass"))
    assert (g.card, g.next_card) == (5, 10) and 1 in g.played
    assert [r.rule_id for r in g.log].index("FITL-2.3.6") < [r.rule_id for r in g.log].index("FITL-2.3.7")


def test_fitl_2_3_9_monsoon_before_a_coup_card():
    g = ops_game([1, 128])
    assert g.monsoon is True and g.view("US").state["monsoon"] is True
    assert any(r.rule_id == "FITL-2.3.9" for r in g.log)
    h = ops_game([1, 5])
    assert h.monsoon is False


# ---------------------------------------------------------------------- 2.3.8 Pivotal Events
def _tet_ready(game):
    """Medium starts with 23 VC Guerrillas in South Vietnam: the Tet Offensive precondition is met."""
    assert game.pivotal_precondition("VC")[0] is True


def _tet_not_ready(game):
    """Take VC Guerrillas off the map until only 20 are left in South Vietnam."""
    b = game.board
    for s in sorted(b.pieces):
        while (
            game.pivotal_precondition("VC")[0]
            and b.pieces[s]["vc_guerrillas:u"]
            and game.data.spaces[s].country == "SVN"
        ):
            b.remove(s, "vc_guerrillas:u")


def test_fitl_2_3_8_pivotal_offered_when_precondition_known_and_met():
    g = frame_game([1, 5], scenario="medium", edit=_tet_ready)
    assert g.decision.kind == "pivotal" and g.decision.side == "VC"
    g.apply(pick(g, "pivotal"))
    assert g.card == 124 and "VC" not in g.pivotal_held and 1 in g.played
    # the Pivotal counts as the VC's Event as 1st Eligible; its own order (VC NVA US ARVN) gives the 2nd
    assert g.acted == {"VC": "event"} and g.decision.side == "NVA" and g.decision.context["role"] == "2nd"
    assert sorted((a.get("limited"), a.get("sa")) for a in g.legal_actions() if a.kind == "op") == [
        (False, False),
        (False, True),
    ]


def test_fitl_2_3_8_pivotal_not_offered_unknown_precondition_or_coup_next():
    g = frame_game([1, 5], scenario="medium", edit=_tet_not_ready)  # 20 VC Guerrillas; others: card text
    assert g.decision.kind == "card"
    assert g.pivotal_status("VC")[0] is False and "not met" in g.pivotal_status("VC")[1]
    assert "issue #7" in g.pivotal_status("US")[1]
    h = frame_game([1, 128], scenario="medium", edit=_tet_ready)  # Monsoon: no Pivotal Events
    assert h.decision.kind == "card"
    assert "Coup" in h.pivotal_status("VC")[1]
    shown = {o["label"]: o["reason"] for o in g.decision.context["unavailable"] if o["kind"] == "pivotal"}
    assert "issue #7" in shown["Pivotal Event #121 Linebacker II"]  # US 1st Eligible: shown, with the reason
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("pivotal", card=121))
    assert err.value.rule_id == "FITL-2.3.8" and g.digest() == before


def test_fitl_2_3_8_trumping_order():
    g = ops_game([1, 5], scenario="medium", edit=_tet_ready)
    assert "may not trump" in g.pivotal_status("US", covering="NVA")[1]
    assert "may not trump" in g.pivotal_status("ARVN", covering="VC")[1]
    assert "may not trump" in g.pivotal_status("NVA", covering="ARVN")[1]
    assert g.pivotal_status("VC", covering="US")[0] is True  # VC may trump anyone


def test_fitl_2_3_8_declining_keeps_the_card():
    g = ops_game([1, 5], scenario="medium", edit=_tet_ready)
    g.apply(pick(g, "no_pivotal"))
    assert g.card == 1 and g.pivotal_held["VC"] == 124 and g.decision.kind == "card"


# ---------------------------------------------------------------------- 2.4 Coup cards
def test_fitl_2_4_coup_card_goes_to_leader_box_and_starts_a_coup_round():
    g = ops_game([128, 1], players={f: Passer() for f in ("US", "ARVN", "NVA", "VC")})
    g.advance("phase")
    assert g.leader_box[0] == 128 and g.rvn_leader == 128
    rules = [r.rule_id for r in g.log]
    assert "FITL-2.4" in rules and "FITL-2.4.1" in rules and "FITL-6.0" in rules


def test_fitl_2_4_1_failed_attempt_goes_underneath_and_cancels_only_minh():
    g = ops_game([129, 1], players={f: Passer() for f in ("US", "ARVN", "NVA", "VC")})
    assert g.leader_box == [126, 125, 129] and g.rvn_leader == 126  # Young Turks stays
    f = ops_game([129, 1], scenario="full", players={f: Passer() for f in ("US", "ARVN", "NVA", "VC")})
    assert f.leader_box == [129] and f.rvn_leader == 129  # Minh (empty box) is cancelled
    assert unstarted(FitlGame, "full", 0).rvn_leader == "minh"


def test_fitl_6_0_never_two_coup_rounds_in_a_row():
    bots = {f: Passer() for f in ("US", "ARVN", "NVA", "VC")}
    g = ops_game([127, 128, 1, 129], players=bots)
    play_to_card(g, 1)
    rounds = [r for r in g.log if r.rule_id == "FITL-6.1"]
    assert len(rounds) == 1  # 127 gives a Round, 128 only a new leader
    assert g.leader_box[:2] == [128, 127]
    assert any(r.rule_id == "FITL-6.0" and r.result == {"coup_round": False} for r in g.log)


def play_to_card(g, card):
    while g.card != card and not g.is_over:
        g.advance("ruling")


def test_fitl_2_4_2_final_coup_ends_the_game_after_redeploy():
    bots = {f: Passer() for f in ("US", "ARVN", "NVA", "VC")}
    g = ops_game([1, 127, 5, 128, 10, 129], players=bots)
    g.advance("end")
    assert g.is_over and g.result.rule_id == "FITL-6.4.5" and g.result.result["final_coup"]
    assert g.card == 129 and g.coups_held == 3
    last = [r.rule_id for r in g.log if r.turn == g.turn]
    assert "FITL-6.4.4" in last and "FITL-6.5" not in last and "FITL-6.6" not in last


def test_fitl_2_4_2_consecutive_final_coup_ends_without_a_round():
    bots = {f: Passer() for f in ("US", "ARVN", "NVA", "VC")}
    g = ops_game([1, 127, 128, 129], players=bots)
    g.advance("end")
    assert g.is_over and g.result.rule_id == "FITL-2.4.2" and g.coups_held == 1
    assert Counter(r.rule_id for r in g.log)["FITL-6.1"] == 1


# ------------------------------------------------------------------ 1.5.2 NVA and VC share Resources
def test_fitl_1_5_2_nva_may_give_vc_up_to_half_its_resources_once_per_action():
    g = frame_game([1])
    g.apply(op(g, sa=True))  # US acts first; NVA is 2nd Eligible
    nva, vc = g.board.tracks["nva_resources"], g.board.tracks["vc_resources"]
    assert g.decision.side == "NVA" and any(a.kind == "transfer" for a in g.legal_actions())
    g.apply(pick(g, "transfer"))
    assert [a["n"] for a in g.legal_actions()] == list(range(1, nva // 2 + 1))
    before = g.digest()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("count", n=nva // 2 + 1))
    assert err.value.rule_id == "FITL-1.5.2" and g.digest() == before
    g.apply(pick(g, "count", n=2))
    assert (g.board.tracks["nva_resources"], g.board.tracks["vc_resources"]) == (nva - 2, vc + 2)
    assert g.log[-1].rule_id == "FITL-1.5.2" and g.log[-1].result == {"given": 2}
    assert g.decision.kind == "card" and not any(a.kind == "transfer" for a in g.legal_actions())


def test_fitl_1_5_2_coin_factions_and_poor_insurgents_get_no_transfer():
    g = frame_game([1])
    assert g.decision.side == "US" and g.transfer_option("US") is None
    g.board.tracks["nva_resources"] = 1
    assert g.transfer_option("NVA") is None  # half of 1 is nothing
    g.board.tracks.update(nva_resources=20, vc_resources=73)
    assert g.transfer_most("NVA") == 2  # the VC track stops at 75 (1.8)
