"""Rumor of War's state is one declared value, every field of it journalled (issue #29 item 2).

Every field the game declares (``RowGame.declared_state``) is kept in a journalled container or a journalled
attribute (:mod:`wargames.core.journal`): the Cup of SNAFU (6.1), the Landing Zones (14.1.2), the hexes holding a
combat chit (5.1), the Objective markers (12.1.3), the trail status (14.6.1), the Air Display (10.0), the optional
rules' state (12.2, 14.x) and the activation under way (9.2) included.  So a change of any of them passes through
the journal, lands in a ruling (or is the rules' own bookkeeping), and Back restores it.  A procedure that replaced
a field whole, or changed it behind the journal's back, would fail these tests: the field would change with no
journal entry for it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import wargames
from wargames.core.journal import Journal
from wargames.row.bots import RowBot

#: the fields this issue moved into the journal (each must be seen changing in the games below)
NEWLY_JOURNALLED = {"snafu", "trail_status", "lz", "chit_hexes", "objectives", "airwar", "pol", "act"}


class _Spy(Journal):
    """The game's journal, noting which state field each journalled change belongs to."""

    __slots__ = ()
    seen: set[str] = set()

    def append(self, entry: Any) -> None:
        owner = entry[0]
        name = (
            getattr(owner, "field", None)
            or getattr(owner, "name", None)
            or getattr(owner, "journal_field", "")
        )
        _Spy.seen.add(name)
        list.append(self, entry)


def _fields(g) -> dict[str, str]:
    """Each declared field as canonical JSON (an omitted empty field as null)."""
    st = g.state_dict()
    return {f: json.dumps(st.get(f), sort_keys=True, default=str) for f in g.declared_state.names}


def _play_watching_the_journal(g, decisions: int, choose=None) -> set[str]:
    """Play ``decisions`` decisions with the built-in bots (``choose`` may pick instead); after each decision and
    each ruling, every field that changed must have been written through the journal.  The fields seen changing."""
    g._journal.__class__ = _Spy  # the same journal object the containers write to, now noting fields
    g.set_players({s: None for s in g.sides})
    bots = {s: RowBot(s, g.seed) for s in g.sides}
    changed: set[str] = set()
    made = 0
    while made < decisions and not g.is_over:
        before = _fields(g)
        _Spy.seen.clear()
        d = g.decision
        if d is None:
            g.advance("ruling")
        else:
            g.apply((choose and choose(g, d)) or bots[d.side].choose(g, d))
            made += 1
        after = _fields(g)
        moved = {f for f in after if after[f] != before[f]}
        assert moved <= _Spy.seen, (
            f"{sorted(moved - _Spy.seen)} changed with no journal entry (at {g.where()}): a field replaced whole "
            "or changed outside its journalled container"
        )
        changed |= moved
    assert g.journal_declaration_problems() == []
    assert not g.unexplained_changes(), g.unexplained_changes()[:3]
    return changed


def test_row_3_0_every_declared_field_is_journalled():
    g = wargames.load("row", "tet-offensive", 0)
    decl = g.declared_state
    assert decl.journalled() == set(decl.names), sorted(set(decl.names) - decl.journalled())
    assert g.journal_declaration_problems() == []
    assert NEWLY_JOURNALLED <= g.journalled_fields()


def _fly_first():
    """ROW-14.1.2: the first helicopter flight offered is taken (the bots seldom fly), so a Landing Zone is made."""
    flown = []

    def choose(g, d):
        fly = [o for o in d.options if o.kind == "fly"] if d.rule_id == "ROW-4.5" and not flown else []
        if fly:
            flown.append(True)
            return max(fly, key=lambda o: (o["mp"], o["to"]))
        return None

    return choose


@pytest.mark.slow
def test_row_3_0_every_state_field_changes_only_through_the_journal():
    """6.1, 5.1, 12.1.3, 9.2, 14.1.2 (A Year in I Corps, with a helicopter flight); 10.0 and 14.6.1 (the air war);
    12.2 and 14.x (the Tet Offensive's optional blocks): each change of each field is seen by the journal."""
    changed = _play_watching_the_journal(wargames.load("row", "year-in-i-corps", 1), 240, _fly_first())
    changed |= _play_watching_the_journal(wargames.load("row", "i-corps-air-war", 0), 45)
    changed |= _play_watching_the_journal(wargames.load("row", "tet-offensive", 0), 20)
    assert NEWLY_JOURNALLED <= changed, sorted(NEWLY_JOURNALLED - changed)


@pytest.mark.slow
def test_row_3_0_back_restores_every_field_decision_by_decision():
    """Back (issue #13): after 40 decisions of the Tet Offensive (SNAFU draws, the Air Display, the optional rules'
    state, Objectives), undoing them one at a time gives back, at each step, the very state and digest the game had
    when that decision was pending."""
    g = wargames.load("row", "tet-offensive", 0)
    g.set_players({s: None for s in g.sides})
    bots = {s: RowBot(s, g.seed) for s in g.sides}
    pending: list[tuple[str, str]] = []
    while len(pending) < 40:
        d = g.decision
        if d is None:
            g.advance("decision")
            continue
        pending.append((g.digest(), json.dumps(g.state_dict(), sort_keys=True, default=str)))
        g.apply(bots[d.side].choose(g, d))
    assert len({s for _, s in pending}) > 20  # the state did move
    for n, (digest, state) in reversed(list(enumerate(pending))):
        g.undo()
        assert json.dumps(g.state_dict(), sort_keys=True, default=str) == state, f"decision {n}"
        assert g.digest() == digest, f"decision {n}"
