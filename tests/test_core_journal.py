"""The journal (issue #13, wargames.core.journal): every mutation of a journalled container is written down,
reads are not; the engine puts what was journalled since the last ruling into the next ruling's ``changes``;
a change no ruling takes is caught.  Then, per game, a unit's move appears in the ruling that moved it."""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter

import pytest

import wargames
from wargames.core import Action, Game, RandomPlayer
from wargames.core.journal import (
    JOURNAL_MEMO,
    Journal,
    JournalCounter,
    JournalDict,
    JournalledObject,
    JournalList,
    JournalSet,
    JournalTrack,
    JournalTree,
    Tracked,
)
from wargames.core.rulings import change_text, ruling_html
from wargames.core.sequence import PhaseSpec, SequenceOfPlay, StepSpec
from wargames.core.snapshot import fast_copy


def journalled_dict(**kw):
    j = Journal()
    return j, JournalDict({"a": 1, "b": 2}, journal=j, field="loc", key="unit", **kw)


# ---------------------------------------------------------------------------- the containers
def test_journal_dict_reads_write_nothing():
    j, d = journalled_dict()
    _ = (
        d["a"],
        d.get("z"),
        "a" in d,
        list(d),
        dict(d),
        sorted(d.items()),
        len(d),
        d == {"a": 1, "b": 2},
        d.copy(),
        copy.copy(d),
    )
    assert not j
    assert type(d.copy()) is dict and type(copy.copy(d)) is dict  # a copy is a plain, unjournalled dict


@pytest.mark.parametrize(
    "mutate,expected",
    [
        (lambda d: d.__setitem__("a", 5), [{"field": "loc", "unit": "a", "from": 1, "to": 5}]),
        (lambda d: d.__setitem__("c", 3), [{"field": "loc", "unit": "c", "to": 3}]),
        (lambda d: d.__delitem__("a"), [{"field": "loc", "unit": "a", "from": 1, "removed": True}]),
        (lambda d: d.pop("b"), [{"field": "loc", "unit": "b", "from": 2, "removed": True}]),
        (lambda d: d.pop("z", None), []),
        (lambda d: d.popitem(), [{"field": "loc", "unit": "b", "from": 2, "removed": True}]),
        (lambda d: d.setdefault("c", 7), [{"field": "loc", "unit": "c", "to": 7}]),
        (lambda d: d.setdefault("a", 7), []),
        (
            lambda d: d.update({"a": 9}, b=8),
            [
                {"field": "loc", "unit": "a", "from": 1, "to": 9},
                {"field": "loc", "unit": "b", "from": 2, "to": 8},
            ],
        ),
        (lambda d: d.__ior__({"a": 4}), [{"field": "loc", "unit": "a", "from": 1, "to": 4}]),
        (
            lambda d: d.clear(),
            [
                {"field": "loc", "unit": "a", "from": 1, "removed": True},
                {"field": "loc", "unit": "b", "from": 2, "removed": True},
            ],
        ),
    ],
)
def test_journal_dict_every_mutator_is_journalled(mutate, expected):
    j, d = journalled_dict()
    mutate(d)
    assert j.take() == expected and not j


def test_journal_nets_the_changes_between_two_rulings():
    j, d = journalled_dict()
    d["a"] = 5
    d["a"] = 6
    d["b"] = 3
    d["b"] = 2  # back where it was: no change
    assert j.take() == [{"field": "loc", "unit": "a", "from": 1, "to": 6}]


def test_journal_dict_of_flags_names_the_flag():
    j = Journal()
    d = JournalDict({"u": False}, journal=j, field="face_up", key="unit", flag=True)
    d["u"] = True
    assert j.take() == [{"field": "face_up", "unit": "u", "face_up": True}]


def test_journal_track_reads_zero_and_journals_from_zero():
    j = Journal()
    t = JournalTrack(journal=j, field="score", key="track")
    assert t["NVA"] == 0 and "NVA" not in t and not j
    t["NVA"] += 3
    assert j.take() == [{"field": "score", "track": "NVA", "from": 0, "to": 3}]


@pytest.mark.parametrize(
    "mutate,expected",
    [
        (lambda c: c.__setitem__("a", 4), {"a": (2, 4)}),
        (lambda c: c.update({"a": 1}, b=2), {"a": (2, 3), "b": (0, 2)}),
        (lambda c: c.update(["b", "b"]), {"b": (0, 2)}),
        (lambda c: c.subtract({"a": 2}), {"a": (2, 0)}),
        (lambda c: c.__iadd__(Counter({"a": -2})), {"a": (2, 0)}),  # Counter drops the zero count: journalled
        (lambda c: c.__isub__(Counter({"a": 1})), {"a": (2, 1)}),
        (lambda c: c.__delitem__("a"), {"a": (2, 0)}),
        (lambda c: c.pop("a"), {"a": (2, 0)}),
        (lambda c: c.popitem(), {"a": (2, 0)}),
        (lambda c: c.setdefault("b", 3), {"b": (0, 3)}),
        (lambda c: c.clear(), {"a": (2, 0)}),
    ],
)
def test_journal_counter_every_mutator_is_journalled(mutate, expected):
    j = Journal()
    c = JournalCounter({"a": 2}, journal=j, field="pieces", key="pieces", where={"space": "hue"})
    _ = (c["a"], c["zz"], +c, c + Counter(), c.copy(), c.total(), c.most_common(), "a" in c)
    assert not j and type(c.copy()) is Counter and type(+c) is Counter
    mutate(c)
    got = {e["pieces"]: (e["from"], e["to"]) for e in j.take()}
    assert got == expected
    assert "space" in JournalCounter(
        {"a": 1}, journal=j, field="p", key="k", where={"space": "hue"}
    ).journal_entry("a", 1, 2)


@pytest.mark.parametrize(
    "mutate,expected",
    [
        (lambda s: s.add("c"), {"c": True}),
        (lambda s: s.add("a"), {}),
        (lambda s: s.discard("a"), {"a": False}),
        (lambda s: s.discard("z"), {}),
        (lambda s: s.remove("b"), {"b": False}),
        (lambda s: s.pop(), {"a": False}),  # one of them
        (lambda s: s.clear(), {"a": False, "b": False}),
        (lambda s: s.update(["c"], ["d"]), {"c": True, "d": True}),
        (lambda s: s.difference_update(["a"]), {"a": False}),
        (lambda s: s.intersection_update(["a"]), {"b": False}),
        (lambda s: s.symmetric_difference_update(["a", "c"]), {"a": False, "c": True}),
        (lambda s: s.__ior__({"c"}), {"c": True}),
        (lambda s: s.__isub__({"a"}), {"a": False}),
        (lambda s: s.__iand__({"a"}), {"b": False}),
        (lambda s: s.__ixor__({"b", "c"}), {"b": False, "c": True}),
    ],
)
def test_journal_set_every_mutator_is_journalled(mutate, expected):
    j = Journal()
    s = JournalSet(["a", "b"], journal=j, field="face_up", key="unit")
    _ = ("a" in s, sorted(s), len(s), s | {"x"}, s & {"a"}, s.copy())
    assert not j  # reads, and operators making new sets, write nothing
    mutate(s)
    got = {e["unit"]: e["face_up"] for e in j.take()}
    if expected.keys() == {"a"} and got.keys() == {"b"}:  # pop() took the other member
        expected = {"b": False}
    assert got == expected


class Board(JournalledObject):
    journal_field = "board"
    trail = Tracked()

    def __init__(self, journal):
        self._journal = journal
        self.trail = 1


def journalled_list(**kw):
    j = Journal()
    return j, JournalList([3, 1, 2], journal=j, field="played", **kw)


@pytest.mark.parametrize(
    "mutate,after",
    [
        (lambda li: li.append(4), [3, 1, 2, 4]),
        (lambda li: li.extend([5, 6]), [3, 1, 2, 5, 6]),
        (lambda li: li.__iadd__([7]), [3, 1, 2, 7]),
        (lambda li: li.insert(0, 9), [9, 3, 1, 2]),
        (lambda li: li.pop(), [3, 1]),
        (lambda li: li.pop(0), [1, 2]),
        (lambda li: li.remove(1), [3, 2]),
        (lambda li: li.clear(), []),
        (lambda li: li.sort(), [1, 2, 3]),
        (lambda li: li.sort(reverse=True), [3, 2, 1]),
        (lambda li: li.reverse(), [2, 1, 3]),
        (lambda li: li.__setitem__(1, 8), [3, 8, 2]),
        (lambda li: li.__setitem__(slice(0, 2), [0]), [0, 2]),
        (lambda li: li.__delitem__(0), [1, 2]),
        (lambda li: li.__delitem__(slice(1, None)), [3]),
        (lambda li: li.__imul__(2), [3, 1, 2, 3, 1, 2]),
    ],
)
def test_journal_list_every_mutator_is_journalled(mutate, after):
    j, li = journalled_list()
    mutate(li)
    assert li == after
    assert j.take() == [{"field": "played", "list": "played", "from": [3, 1, 2], "to": after}]


def test_journal_list_reads_write_nothing_and_nets_per_ruling():
    j, li = journalled_list()
    _ = (
        li[0],
        li[-1],
        li[1:],
        list(li),
        len(li),
        2 in li,
        li.index(2),
        li.count(3),
        sorted(li),
        li.copy(),
        copy.copy(li),
    )
    assert not j and type(li.copy()) is list and type(copy.copy(li)) is list
    li.append(4)
    li.pop()  # undone before the ruling: no change
    assert j.take() == []
    li.append(4)
    li.append(5)
    assert j.take() == [{"field": "played", "list": "played", "from": [3, 1, 2], "to": [3, 1, 2, 4, 5]}]


def test_journal_list_with_a_secret_order_never_states_the_order():
    """A face-down deck: a draw says which card left and the size, a shuffle only that the order changed."""
    j, deck = journalled_list(secret_order=True)
    deck.pop(0)
    assert j.take() == [
        {"field": "played", "list": "played", "left": [3], "joined": [], "size": {"from": 3, "to": 2}}
    ]
    deck.insert(1, 7)
    deck.append(0)
    assert j.take() == [
        {"field": "played", "list": "played", "left": [], "joined": [0, 7], "size": {"from": 2, "to": 4}}
    ]
    deck.reverse()
    entry = j.take()[0]
    assert entry["reordered"] is True and "from" not in entry and "to" not in entry


def test_journal_list_copies_and_pickles_without_journalling():
    j, li = journalled_list(secret_order=True)
    other = Journal()
    c = fast_copy(li, {JOURNAL_MEMO: other})
    assert c == li and type(c) is JournalList and c.journal is other and c.secret_order
    back = pickle.loads(pickle.dumps(li))
    assert back == li and type(back) is JournalList and back.field == "played" and back.secret_order
    assert not j and not other
    c.append(1)
    assert not j and len(other) == 1


def test_journal_tracked_attributes_of_the_game_and_of_objects():
    class Toy:
        vp = Tracked("track")

    toy = Toy()
    toy._journal = j = Journal()
    toy.vp = 3
    toy.vp += 2
    assert toy.vp == 5 and j.take() == [{"field": "vp", "track": "vp", "to": 5}]
    board = Board(j)
    j.clear()
    board.trail = 2
    board.trail = 3
    assert j.take() == [{"field": "board", "board": "Board", "attr": "trail", "from": 1, "to": 3}]


def test_journal_copies_write_to_the_journal_the_memo_names():
    j, d = journalled_dict()
    s = JournalSet(["x"], journal=j, field="set", key="k")
    other = Journal()
    state = {"d": d, "s": s, "board": Board(j)}
    j.clear()  # setting up
    copied = fast_copy(state, {JOURNAL_MEMO: other})
    assert copied["d"] == d and copied["s"] == s and copied["d"] is not d
    copied["d"]["a"] = 7
    copied["s"].add("y")
    copied["board"].trail = 9
    assert not j and [e["field"] for e in other.take()] == ["loc", "set", "board"]
    deep = copy.deepcopy(state)  # a plain deep copy: its own journal, shared by its containers
    deep["d"]["a"] = 8
    deep["s"].add("z")
    assert not j and deep["d"].journal is deep["s"].journal and len(deep["d"].journal) == 2


def test_journal_containers_pickle_without_journalling():
    j = Journal()
    made = (
        j,
        JournalDict({"a": 1}, journal=j, field="d", key="k", quiet=("q",)),
        JournalSet({"x"}, journal=j, field="s", key="k"),
        JournalTrack({"t": 2}, journal=j, field="t", key="track"),
        JournalCounter({"p": 2}, journal=j, field="c", key="k", where={"space": "x"}),
    )
    j2, d, s, t, c = pickle.loads(pickle.dumps(made))
    assert not j2 and (d, s, t, c) == made[1:] and d.quiet == {"q"} and c.where == {"space": "x"}
    assert d.journal is s.journal is t.journal is c.journal is j2
    d["a"] = 5
    assert j2.take() == [{"field": "d", "k": "a", "from": 1, "to": 5}]


# ---------------------------------------------------------------------------- the engine
class Marching(Game):
    """A toy game: each turn Red picks a unit to march to the next town and the score goes up; a ruling
    follows, with hand-written changes for the score only.  ``sloppy`` also changes the state after the
    ruling, just before the next decision: a change no ruling takes."""

    game_id, title, sides = "toy-marching", "Toy marching", ("Red",)
    score = Tracked("track")

    def load_sequence(self):
        return SequenceOfPlay(
            game=self.game_id,
            turns=3,
            source="rules: toy",
            phases=[
                PhaseSpec(
                    id="march",
                    number=1,
                    name="March",
                    rule="TOY-1",
                    steps=[StepSpec(id="march", name="March", procedure="march", rule="TOY-1")],
                )
            ],
        )

    def load_scenario(self, scenario):
        self.sloppy = False

    static_attrs = frozenset({"sloppy"})

    def default_player(self, side):
        return RandomPlayer(self.seed)

    def new_state(self):
        self.loc = JournalDict({"u1": "a", "u2": "a"}, journal=self._journal, field="loc", key="unit")
        self.score = 0

    def state_dict(self):
        return {"loc": dict(self.loc), "score": self.score}

    def march(self):
        act = yield self.decide(
            "Red", "who marches?", "TOY-2", [Action.make("march", unit=u) for u in sorted(self.loc)]
        )
        uid = act["unit"]
        old = self.loc[uid]
        self.loc[uid] = chr(ord(old) + 1)
        self.score += 1
        yield self.ruling(
            "TOY-2",
            "March",
            f"{uid} marches",
            changes=[{"track": "score", "from": self.score - 1, "to": self.score}],
        )
        if self.sloppy:
            self.loc[uid] = "z"


def test_journal_a_ruling_carries_the_changes_made_before_it():
    g = Marching(seed=1)
    rulings = g.apply({"kind": "march", "params": {"unit": "u2"}})
    march = next(r for r in rulings if r.rule_id == "TOY-2")
    # the hand-written change is kept, and states the score: the journal adds only the move
    assert march.changes == (
        {"track": "score", "from": 0, "to": 1},
        {"field": "loc", "unit": "u2", "from": "a", "to": "b"},
    )
    assert not g.unexplained_changes() and g.log[-1].changes == ()  # the phase ruling changed nothing
    before = g.digest()
    g.apply({"kind": "march", "params": {"unit": "u1"}})
    g.undo()  # restored from a checkpoint: the containers write to this game's journal again
    assert g.digest() == before
    again = g.apply({"kind": "march", "params": {"unit": "u1"}})
    assert {"field": "loc", "unit": "u1", "from": "a", "to": "b"} in again[0].changes
    other = g.branch()
    mine = other.apply(other.legal_actions()[0])
    assert any(c.get("field") == "loc" for c in mine[0].changes) and not g._journal


def test_journal_a_change_with_no_ruling_is_caught():
    g = Marching.unstarted(seed=1)
    g.sloppy = True
    g.set_players({"Red": None})
    g.advance("decision")
    before = g.state_dict()
    rulings = g.apply({"kind": "march", "params": {"unit": "u1"}})
    # set aside when the step ended (the next phase's ruling is not charged with it)
    assert [c for _, c in g.unexplained_changes()] == [{"field": "loc", "unit": "u1", "from": "b", "to": "z"}]
    assert all(c.get("field") != "loc" for r in rulings[1:] for c in r.changes)
    problems = g.transition_problems(before, rulings)
    assert any(p.startswith("loc.u1 ") and "no ruling after it" in p for p in problems), problems
    g = Marching(seed=1)
    before = g.state_dict()
    g.loc["u2"] = "q"  # behind the rules' back, at rest
    assert any(p.startswith("loc.u2 ") for p in g.transition_problems(before, []))


# ---------------------------------------------------------------------------- the games
def moves_stated(game_id, scenario, field, seed, n, key="unit"):
    """Play ``n`` rulings with the built-in players; each ruling's ``changes`` must name every key of the state
    field ``field`` (a getter, or a game attribute) that changed with it, with its new value (``to``).  Returns how
    many changes were checked."""
    g = wargames.load(game_id, scenario, seed=seed)
    get = field if callable(field) else (lambda g: getattr(g, field))
    checked = 0
    for _ in range(n):
        before = dict(get(g))
        new = g.advance("ruling")
        if not new:
            break
        after = get(g)
        for k in after:
            if before.get(k) != after[k]:
                assert any(c.get(key) == k and c.get("to") == after[k] for c in new[-1].changes), (
                    k,
                    before.get(k),
                    after[k],
                    new[-1].rule_id,
                    new[-1].changes,
                )
                checked += 1
    assert not g.unexplained_changes()
    return checked


def test_journal_tet_every_unit_move_is_in_the_ruling_that_made_it():
    assert moves_stated("tet", "historical", "loc", 3, 700) > 100


def test_journal_tet_what_the_hand_written_changes_do_not_state_is_journalled():
    """Set-up places units with no hand-written changes; the NVA replacement points' ruling names the new total
    only (A-22): the journal adds the move from / to."""
    g = wargames.load("tet", seed=3)
    g.play()
    journalled = {c["field"] for r in g.log for c in r.changes if "field" in c}
    assert {"loc", "nva_points"} <= journalled, journalled
    points = next(c for r in g.log for c in r.changes if c.get("field") == "nva_points")
    assert points["to"] - points["from"] == 1
    # hidden information: a journalled change may name a face-down unit, so only the umpire reads them
    r = next(r for r in g.log if any("field" in c for c in r.changes) and not r.hidden_from)
    assert r.secret_changes and r.for_side(None) is r
    assert not any("field" in c for c in r.for_side("Allied").changes)
    assert not any("field" in c for v in g.view("Communist").log if not v.hidden_from for c in v.changes)
    hidden = next((r for r in g.log if r.secret_changes and r.hidden_from == ("Allied",)), None)
    if hidden is not None:  # a ruling hidden from the Allied: the Communist reads it all
        assert g.view("Communist").log[hidden.seq - 1] is hidden


def test_journal_changes_are_folded_in_the_ruling_card():
    g = wargames.load("tet", seed=3)
    r = next(r for r in g.log if len(r.changes) > 50)
    card = ruling_html(r, g.display_text)
    assert f"<summary>{len(r.changes)} changes</summary>" in card and "more</details>" in card
    assert change_text({"field": "loc", "unit": "u", "from": "11", "to": "12"}) == "loc: unit u, 11 → 12"
    assert change_text({"unit": "u", "face_up": True}) == "unit u, face_up True"
    assert change_text({"field": "face_up", "unit": "u", "face_up": True}) == "face_up: unit u → True"


def test_journal_yotr_every_counter_move_is_in_the_ruling_that_made_it():
    assert moves_stated("yotr", "historical", "loc", 2, 500) > 50


def test_journal_yotr_vp_is_stated_once():
    """The victory points: the hand-written changes state them, so the journal adds no second entry."""
    g = wargames.load("yotr", seed=2)
    g.play()
    per_ruling = [[c for c in r.changes if c.get("track") == "vp"] for r in g.log]
    assert any(per_ruling) and all(len(vp) <= 1 for vp in per_ruling)


def test_journal_fitl_every_track_move_is_in_the_ruling_that_made_it():
    assert moves_stated("fitl", "short", lambda g: g.board.tracks, 2, 400, key="track") > 20


def test_journal_fitl_pieces_moved_are_in_the_ruling():
    g = wargames.load("fitl", "short", seed=2)
    g.advance("turn")
    pieces = [c for r in g.log for c in r.changes if c.get("field") == "pieces"]
    assert pieces and all({"space", "pieces", "from", "to"} <= set(c) for c in pieces)


def test_journal_row_every_piece_move_is_in_the_ruling_that_made_it():
    assert moves_stated("row", "year-in-i-corps", "pos", 1, 800, key="piece") > 20


def test_journal_fitl_a_card_draw_is_in_the_reveal_ruling_and_never_the_deck_order():
    """FITL-2.2 / FITL-2.3.7: the card turned up leaves the deck in the ruling that reveals it; the change names the
    card and the deck's size, never the order of the cards still face down, and only the umpire reads it."""
    g = wargames.load("fitl", "short", seed=2)
    g.advance("turn")
    g.advance("turn")
    draws = [(r, c) for r in g.log for c in r.changes if c.get("field") == "deck"]
    assert draws and all(r.rule_id in ("FITL-2.2", "FITL-2.3.7") for r, _ in draws)
    r, c = draws[-1]
    assert c["left"] == [r.result["next"]] and c["joined"] == [] and c["size"]["to"] == len(g.deck)
    order = {json.dumps(list(g.deck)), json.dumps(list(g.deck[:5]))}
    for r in g.log:
        for c in r.changes:
            assert not any(k in c for k in ("from", "to")) or c.get("field") != "deck"
            assert json.dumps(c, default=str) not in order
    for side in g.sides:
        assert not any(c.get("field") in ("deck", "set_aside") for v in g.view(side).log for c in v.changes)
    played = [c for r in g.log for c in r.changes if c.get("field") == "played"]
    assert played and played[-1]["to"] == list(g.played)


def test_journal_fitl_momentum_moves_in_the_ruling_revealing_the_next_card():
    """FITL-5.4 (decision F-112): a Momentum card leaves play for the Momentum box in the ruling turning the next
    card, which also clears the pending note; no change is left without a ruling."""
    for seed in range(1, 40):
        g = wargames.load("fitl", "short", seed=seed)
        g.play()
        moved = [
            r
            for r in g.log
            if any(c.get("field") == "momentum" and len(c["to"]) > len(c["from"]) for c in r.changes)
        ]
        if moved:
            break
    assert moved, "no Momentum card was played in 39 games"
    r = moved[0]
    assert r.rule_id == "FITL-2.3.7"
    assert any(
        c.get("field") == "event_flags" and c.get("flag") == "momentum_pending" and c.get("removed")
        for c in r.changes
    )
    assert not g.unexplained_changes()


def test_journal_row_a_marker_change_is_in_the_ruling_that_made_it():
    """ROW-6.1 / ROW-14.4: a unit's markers (Disrupted, OOC, Ammo ...) change only with a ruling that lists the
    change (the unit's markers before and after); only the umpire reads it in a public ruling."""
    assert moves_stated("row", "year-in-i-corps", "markers", 1, 600, key="piece") > 5
    g = wargames.load("row", "year-in-i-corps", seed=1)
    g.advance("turn")
    marked = [(r, c) for r in g.log for c in r.changes if c.get("field") == "markers"]
    assert marked and all(isinstance(c["to"], tuple) for _, c in marked)
    public = next(r for r, _ in marked if not r.hidden_from)
    assert public.secret_changes and not any(c.get("field") for c in public.for_side(g.sides[0]).changes)


@pytest.mark.parametrize(
    "scenario,rule",
    [("historical", "YOTR-DEP-ALLIED"), ("standard", "YOTR-SET-SEQ"), ("ob-options", "YOTR-SET-SEQ")],
)
def test_journal_yotr_air_points_enter_with_the_ruling_that_says_so(scenario, rule):
    """YOTR-BMB: the Allied OB's air points go to the Bombardment Strength Available box in the deployment ruling
    that announces them (with the Low Scenario Intensity pick too), never with no ruling."""
    g = wargames.load("yotr", scenario, seed=1)
    g.advance("turn")
    first = next(r for r in g.log if any(c.get("field") == "air" for c in r.changes))
    assert first.rule_id == rule and first.side == "Allied"
    air = next(c for c in first.changes if c.get("field") == "air")
    assert air["from"] == 0 and air["to"] == 13  # the 13 air points of the Allied OBs at the start
    assert not g.unexplained_changes()


def test_journal_every_main_state_field_of_the_games_is_journalled():
    """Issue #13 item 2: the fields listed here are journalled (so the transitions diff skips them); the few
    left plain are bookkeeping or derived, declared in each game's ``explained`` or checked by the diff."""
    fields = {
        "fitl": {
            "deck",
            "set_aside",
            "played",
            "momentum",
            "leader_box",
            "pivotal_held",
            "card",
            "next_card",
            "eligible",
            "eligibility_next",
            "capabilities",
            "board.tracks",
            "board.pieces",
            "board.event_flags",
        },
        "row": {
            "pos",
            "box",
            "fresh",
            "markers",
            "pools",
            "vp",
            "missions",
            "restricted",
            "passed",
            "tunnels",
            "works",
            "fire_bases",
            "leaders",
            "obj_pool",
            "snafu",
            "trail_status",
            "lz",
            "chit_hexes",
            "objectives",
            "airwar",
            "pol",
            "act",
        },
        "yotr": {"loc", "vp", "air", "naval"},
    }
    for game_id, expected in fields.items():
        assert expected <= wargames.load(game_id).journalled_fields(), game_id


def test_journal_notes_wait_for_the_ruling_that_takes_them_and_go_with_a_restored_checkpoint():
    """Hand-written changes kept for a ruling still to come (FitL's Operation costs, F-41) are in the core's
    journal (issue #29 item 2): a ruling does not take them by itself, the procedure does; a reset empties them."""
    j = Journal()
    j.note({"track": "aid", "from": 10, "to": 7})
    assert not j and j.take() == []  # not entries: no ruling is charged with them unasked
    assert j.notes == [{"track": "aid", "from": 10, "to": 7}]
    assert j.take_notes() == [{"track": "aid", "from": 10, "to": 7}] and j.notes == []
    j.note({"track": "aid", "from": 7, "to": 6})
    copied = copy.deepcopy(j)
    assert copied.notes == j.notes and copied.notes is not j.notes
    j.reset()
    assert j.notes == [] and not j


def test_journal_fitl_keeps_no_change_list_of_its_own():
    """Fire in the Lake's Operation costs wait in the core's journal, never in an attribute of the game."""
    g = wargames.load("fitl", "short", seed=1)
    g.advance("turn")
    assert "_op_changes" not in vars(g)
    g.note_change({"track": "aid", "from": 1, "to": 2})
    assert g.pending_changes() and g._journal.notes
    assert g.take_changes() == [{"track": "aid", "from": 1, "to": 2}] and not g.pending_changes()


def test_journal_tree_journals_a_change_at_any_depth_with_its_path():
    j = Journal()
    t = JournalTree(
        {"aircraft": {"f4": {"box": "available"}}, "sams": 2}, journal=j, field="airwar", key="item"
    )
    assert not j and type(t["aircraft"]["f4"]) is JournalTree  # setting up is not a change
    t["aircraft"]["f4"]["box"] = "recon"
    t["aircraft"]["f4"].update(box="downtown")  # netted with the change before it
    t["sams"] -= 1
    t["aircraft"]["b52"] = {"box": "available"}  # a record put in is a tree, stated as a plain copy
    t["aircraft"]["b52"]["box"] = "arc_light"
    assert j.take() == [
        {"field": "airwar", "key": "box", "in": "aircraft f4", "from": "available", "to": "downtown"},
        {"field": "airwar", "item": "sams", "from": 2, "to": 1},
        {"field": "airwar", "key": "b52", "in": "aircraft", "to": {"box": "available"}},
        {"field": "airwar", "key": "box", "in": "aircraft b52", "from": "available", "to": "arc_light"},
    ]
    rec = t["aircraft"].setdefault("f105", {"box": "available"})
    rec["box"] = "damaged"  # the tree kept is returned, so the change is seen
    assert t["aircraft"]["f105"]["box"] == "damaged" and len(j.take()) == 2


def test_journal_tree_copies_and_pickles_without_journalling_and_keeps_untold_keys_untold():
    j = Journal()
    t = JournalTree(
        {"china": {"intervened": False}, "sow_done": []}, journal=j, field="pol", untold=("sow_done",)
    )
    other = Journal()
    c = fast_copy(t, {JOURNAL_MEMO: other})
    back = pickle.loads(pickle.dumps(t))
    assert c == t == back and type(c["china"]) is JournalTree and type(back["china"]) is JournalTree
    assert not j and not other
    c["china"]["intervened"] = True
    c["sow_done"] = ["usaf_14sow"]  # the rules' bookkeeping: journalled, never stated in a ruling
    assert len(other) == 2 and other.take() == [
        {"field": "pol", "key": "intervened", "in": "china", "from": False, "to": True}
    ]
    assert t["china"]["intervened"] is False and not j


def test_journal_set_assign_journals_each_member_removed_and_added():
    j = Journal()
    s = JournalSet(["a", "b"], journal=j, field="snafu", key="counter")
    s.assign(["b", "c"])
    assert s == {"b", "c"} and j.take() == [
        {"field": "snafu", "counter": "a", "snafu": False},
        {"field": "snafu", "counter": "c", "snafu": True},
    ]


def test_journal_tracked_bookkeeping_is_journalled_and_never_told():
    class Toy:
        act = Tracked("state", told=False)

    toy = Toy()
    toy._journal = j = Journal()
    toy.act = "moving"
    assert len(j) == 1 and j.take() == [] and toy.act == "moving"
