"""FitL Events wired into the real sequence of play: ``FitlGame(EventRules, ...)`` (rules 2.3.4, 5.2, 2.4.1).

This is the one-line wiring the frame will adopt; the tests show the Event option offered per side, an Event
executed by the 1st Eligible, a Coup card's immediate effect, and random games with Events staying consistent.
"""

from __future__ import annotations

from wargames.core import RandomPlayer
from wargames.fitl.events import EventRules
from wargames.fitl.game import FitlGame
from wargames.testing import unstarted

from .conftest import Passer, fitl_game, play_until

# the wiring of game.py: EventRules first among FitlGame's bases (FitlGame's own methods still win)
Wired = FitlGame
assert FitlGame.__bases__[0] is EventRules


def test_fitl_5_2_event_offered_per_side_and_executed_by_first_eligible():
    g = fitl_game(base=Wired, top=[35, 2])  # Thanh Hoa is played, Kissinger shows as the next card
    d = g.decision
    events = [a for a in d.options if a.kind == "event"]
    assert sorted(a["side"] for a in events) == ["shaded", "unshaded"]
    trail = g.board.tracks["trail"]
    g.apply(next(a for a in events if a["side"] == "unshaded"))
    assert g.board.tracks["trail"] == max(0, trail - 3)
    assert any(r.rule_id == "FITL-5.1" and "Card 35 Thanh Hoa, unshaded" in r.title for r in g.log)


def test_fitl_5_4_momentum_card_leaves_play_at_reset_only():
    g = fitl_game(base=Wired, top=[10, 2])
    first = g.decision.side
    g.apply(next(a for a in g.decision.options if a.kind == "event" and a["side"] == "shaded"))
    assert g.momentum_active(10, "shaded") and first and 10 not in g.momentum
    assert not [p for p in g.invariants() if "cards out of place" in p]
    play_until(g, lambda x: x.card != 10)
    assert g.momentum == [10] and 10 not in g.played and g.momentum_active(10)
    assert not [p for p in g.invariants() if "cards out of place" in p]


def test_fitl_2_4_1_random_games_with_events_stay_consistent():
    for seed in (3, 4):
        g = unstarted(Wired, "short", seed)
        g.set_players({s: RandomPlayer(seed) for s in g.sides})
        g.advance("decision")  # nothing is pending before the start: runs to the first decision
        for _ in range(3000):
            if g.is_over:
                break
            before = g.state_dict()
            n0 = len(g.log)
            g.advance("decision")
            problems = g.invariants() + g.transition_problems(before, g.log[n0:])
            assert not problems, (seed, problems)
        assert g.is_over
        assert any(r.rule_id == "FITL-5.1" and r.title.startswith("Card ") for r in g.log)


def test_fitl_2_4_1_coup_card_immediate_effect_runs_in_the_frame():
    g = fitl_game(base=Wired, top=[35, 129], players={s: Passer() for s in ("US", "ARVN", "NVA", "VC")})
    play_until(g, lambda x: any("Card 129 Failed Attempt: RVN Leader" in r.title for r in x.log))
    titles = [r.title for r in g.log]
    i = titles.index("Card 129 Failed Attempt: RVN Leader")
    assert titles[i - 1].startswith("Coup!")


def test_fitl_5_1_1_event_free_sweep_ignores_monsoon():
    class MonsoonWired(Wired):  # type: ignore[misc, valid-type]
        @property
        def next_card(self):
            return 125  # a Coup card shows: Monsoon

        @next_card.setter
        def next_card(self, value):
            pass

    g = unstarted(MonsoonWired, "short", 1)
    g.card = 23
    assert g.monsoon
    assert "sweep" not in g.op_choices("US", False, True)
    g.__dict__["_ev_free_op"] = True
    assert not g.monsoon and "sweep" in g.op_choices("US", False, True)
