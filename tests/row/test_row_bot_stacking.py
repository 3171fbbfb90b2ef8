"""The built-in players keep to the stacking limit (ROW-4.2, decision R-WAR-42): at the end of an activation a hex
may hold one spent unit of a side, and the owner loses the others (each loss a Body Count or US Casualties roll).
Before R-WAR-42 the bots moved, advanced and retreated with no eye on it and lost whole divisions to their own
stacking (15 units in the first two seasons of the campaign's seed 32), which fed the Capitalist's early Body Count
wins (issue #27 item 12)."""

from __future__ import annotations

from collections import Counter

import pytest

import wargames
from wargames.row.bots import RowBot


@pytest.fixture(scope="module")
def campaign():
    g = wargames.load("row", "vietnam-war", 32)
    while g.turn <= 2 and not g.is_over:
        g.advance("turn")
    return g


def test_row_r_war_42_bots_lose_almost_nothing_to_their_own_stacking_rule_4_2(campaign):
    """Two seasons of the campaign (seed 32): at most two units lost to overstacking (there were 15)."""
    lost = [
        r.title
        for r in campaign.log
        if r.title.endswith("eliminated") and r.explanation.startswith("Overstacked")
    ]
    assert len(lost) <= 2, lost


def test_row_r_war_42_one_unit_advances_into_a_won_hex_rule_4_2_5_7(campaign):
    """After a won attack at most one unit that counts for stacking advances into the hex (US battalions stack
    freely): a second would be a second spent unit there at the end of the activation."""
    advances = Counter(
        d["ruling"]
        for d in campaign.decisions()
        if d["kind"] == "advance" and not campaign.piece(d["params"]["unit"]).us_battalion
    )
    assert advances, "no advance in two seasons: the test sees nothing"
    assert max(advances.values()) == 1


def test_row_r_war_42_a_move_never_ends_on_another_spent_unit_rule_4_2():
    """The first season of the campaign played with the Communist's decisions taken one by one: whenever a move
    off the hexes holding another spent Communist unit is offered, the bot's move ends off them."""
    g = wargames.load("row", "vietnam-war", 32)
    bot = RowBot("Communist")
    g.set_players({"Communist": None})
    checked = crowded_seen = 0
    while g.turn <= 1 and not g.is_over:
        g.advance("decision")
        d = g.decision
        if d is None:
            break
        a = bot.choose(g, d)
        if d.kind == "move" and g.rows[d.context["unit"]].kind == "unit":
            crowded = bot._crowded(g, d.side, d.context["unit"])
            crowded_seen += bool(crowded)
            if any(o.kind == "move" and o["to"] not in crowded for o in d.options):
                assert a.kind == "move" or g.pos[d.context["unit"]] not in crowded, bot.last_reason
                assert a.kind != "move" or a["to"] not in crowded, (d.context["unit"], a["to"])
                checked += 1
        g.apply(a)
    assert checked > 10 and crowded_seen
