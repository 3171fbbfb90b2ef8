"""Fire in the Lake (GMT, 2nd edition) on the shared core.

The game reads like the rulebook's table of contents: the board (``state.py``, rules 1.x), the deck
(``deck.py``, 2.1-2.2), the sequence of play (``sequence_of_play.py``, 2.3-2.4), Operations and Special
Activities (``operations.py``, 3.x-4.x), the Coup Round (``coup.py``, 6.x) and victory (``victory.py``, 7.x).
The walk of cards and phases is ``data/fitl/sequence.yaml`` (FITL-2.0): one engine "turn" is one card
(decision F-31).

Conventions every procedure follows (so ``transition_problems`` can prove nothing moves unexplained):
a track change is made with :meth:`FitlGame.shift` and a Support change with :meth:`FitlGame.set_support`;
both return a change dict to put in the ruling's ``changes`` (decision F-41).
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from ..core import Game, Player
from ..core.data import DataError, game_dir, merge_options
from ..core.gametype import GameType, VictoryFacts
from ..core.journal import JournalDict, JournalList, Tracked
from ..core.state import StateDecl, StateField, by_key, in_order
from .coup import CoupRules
from .data import FACTIONS, FitlData, Scenario, load_data, load_scenario
from .deck import DeckRules, build_deck
from .events import EventRules
from .lesson import LessonRules, check_card_options
from .operations import OperationsRules
from .sequence_of_play import SequenceRules
from .state import Board
from .victory import COMBINED, ONE_PLAYER_OPTIONS, VictoryRules

#: FITL-2.3.6: what a faction did on a card, as the Adjust Eligibility ruling records it, in words
_ACTED = {
    "op_sa": "Operation with a Special Activity",
    "op": "Operation only",
    "limited": "Limited Operation",
    "event": "Event",
}
_TRACK_RE = re.compile(r"\btrack ([a-z]+)\b")
_ACTED_RE = re.compile(r"\((op_sa|op|limited|event)\)")
_ID_RE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_PIECE = re.compile(r"(us|arvn|nva|vc)_(troops|police|bases|irregulars|rangers|guerrillas)")
#: FITL-1.4.1: the boxes off the map
BOX_WORDS = {"out_of_play": "Out of Play", "casualties": "Casualties", "available": "Available"}

SCENARIO_ALIASES = {"historical": "short"}  # decision F-30: generic tools load a game's "historical" scenario
TOURNAMENT = ("political_rhythm", "high_winds")  # FITL-TOURNAMENT (High Winds: special_us.py, Air Lift)


def _board(board: Any) -> dict[str, Any]:
    """The board as plain data (``Board.to_dict``)."""
    return board.to_dict()


def _moved(support_moved: Any) -> dict[str, int]:
    """How far each space's Support moved this Coup Round (FITL-6.3 bookkeeping), sorted; those at 0 left out."""
    return dict(sorted((k, v) for k, v in support_moved.items() if v))


def _spaces(support_spaces: Any) -> dict[str, list[str]]:
    """The spaces each rule of the Support Phase acted in this Coup Round (FITL-6.3), by rule."""
    return {k: list(v) for k, v in sorted(support_spaces.items())}


class FitlGame(
    EventRules, LessonRules, OperationsRules, SequenceRules, CoupRules, VictoryRules, DeckRules, Game
):
    """Fire in the Lake: four factions (US, ARVN, NVA, VC), card-driven, Coup Rounds between campaigns."""

    game_type = GameType(
        id="fitl",
        title="Fire in the Lake",
        sides=("US", "ARVN", "NVA", "VC"),
        players=(1, 2, 3, 4),
        map_kind="board",
        hidden_information=True,
        rule_prefix="FITL",
        default_scenario="short",
        publisher="GMT Games (COIN series, 2nd edition)",
        model="insurgency and political support: four factions, each with its own idea of winning",
    )
    #: FITL-2.2: all is open but the deck's order, which the Non-players do not know either, so a faction may read
    #: every other faction's Non-player reasons (issue #19)
    open_reasons = True
    #: the state, declared once (core.state): the board (pieces, Support, markers, boxes, tracks, journalled inside
    #: it) and the card piles are journalled (core.journal): every change is in a ruling by construction; what each
    #: faction did on this card and the spaces whose Support moved this Coup Round are bookkeeping (issue #13).
    #: The set-up piles and the lesson card notes are reported once by the set-up ruling (derived); an Operation's
    #: changes wait in the core's journal until its ruling names them (F-41, ``Journal.note``)
    declared_state = StateDecl(
        (
            StateField("board", _board),
            StateField("deck", in_order, journalled=True),
            StateField("played", in_order, journalled=True),
            StateField("set_aside", in_order, journalled=True),
            StateField("card", journalled=True),
            StateField("next_card", journalled=True),
            StateField("leader_box", in_order, journalled=True),
            StateField("pivotal_held", by_key, journalled=True),
            StateField("eligible", dict, journalled=True),
            StateField("eligibility_next", by_key, journalled=True),
            StateField("acted", dict, explained="bookkeeping"),
            StateField("capabilities", by_key, journalled=True),
            StateField("momentum", in_order, journalled=True),
            StateField("prev_was_coup"),
            StateField("coup_since_event"),
            StateField("coup_round"),
            StateField("final_coup"),
            StateField("coups_held"),
            StateField("frozen_control", dict),
            StateField("support_moved", _moved, explained="bookkeeping"),
            StateField("support_spaces", _spaces),
            StateField("withdrawn"),
        ),
        derived=frozenset({"piles", "_card_notes"}),
        # _replay_seats: who decided for each faction in the record being replayed (replay), not state: never
        # copied by checkpoints
        static=frozenset({"data", "scen", "rules_opts", "_replay_seats"}),
        # an Event's free Operation and its cubes-as-US flag while it runs (events.vocabulary), an Event's dry run
        # and the free actions it would grant (EventRules.event_effective)
        scratch=frozenset({"_ev_free_op", "_cubes_as_us", "_ev_dry", "_ev_dry_free"}),
    )
    #: the card being played and the next card, both face up (FITL-2.2): journalled attributes (core.journal)
    card = Tracked("attr")
    next_card = Tracked("attr")

    # ------------------------------------------------------------------ data and state
    def load_scenario(self, scenario: str) -> None:
        """FITL-2.1: read the scenario file and check the options (FITL-SETUP-PERIOD, FITL-TOURNAMENT)."""
        self.data: FitlData = load_data()
        self.scen: Scenario = load_scenario(SCENARIO_ALIASES.get(scenario, scenario))
        path = game_dir("fitl") / "scenarios" / f"{self.scen.id}.yaml"
        # plain values, copied (no model_dump: it would build the options' serializer at every first load)
        merged = copy.deepcopy(dict(merge_options(path, self.scen.options, self.game_options)))
        for t in merged.get("tournament") or []:
            if t not in TOURNAMENT:
                raise DataError(
                    path,
                    f"tournament option {t!r} is not implemented (known: {list(TOURNAMENT)})",
                    column="options",
                )
        non_players = list(merged.get("non_players") or [])
        combined = list(merged.get("combined") or [])
        if any(f not in FACTIONS for f in non_players) or any(c not in COMBINED for c in combined):
            raise DataError(
                path,
                f"non_players must name factions {list(FACTIONS)}, combined must be among "
                f"{list(COMBINED)} (FITL-1.5)",
                column="options",
            )
        if {f for c in combined for f in COMBINED[c]} & set(non_players):
            raise DataError(
                path,
                "a faction cannot be both a Non-player and part of a combined player (FITL-1.5)",
                column="options",
            )
        merged["non_players"], merged["combined"] = non_players, combined
        solo = str(merged.get("one_player") or "")
        if solo:  # FITL-8.9: one person against Non-players
            bad = [x for x in solo.split("+") if x not in ONE_PLAYER_OPTIONS]
            inside = {f for c in combined for f in COMBINED[c]}
            persons = [f for f in FACTIONS if f not in inside and f not in non_players] + combined
            if bad or len(persons) != 1:
                raise DataError(
                    path,
                    f"one_player {solo!r}: options joined by '+' among {list(ONE_PLAYER_OPTIONS)}, "
                    "and every faction but one player's (a faction, or US+ARVN / NVA+VC combined) must be "
                    f"a Non-player (FITL-8.9); players now: {persons}",
                    column="options",
                )
        self.rules_opts: dict[str, Any] = merged
        self._replay_seats: dict[str, str] = {}  # set by replay() (plays_as_nonplayer)
        check_card_options(self, path)

    def new_state(self) -> None:
        """FITL-2.1: board, tracks and boxes from the scenario; the deck built with the game's dice."""
        self.board = Board(self.scen, self.data, self._journal)  # journalled (core.journal)
        period = bool(self.rules_opts["period_events"])
        rhythm = "political_rhythm" in (self.rules_opts.get("tournament") or [])
        self.deck, self.set_aside, self.piles = build_deck(
            self.scen, self.data.cards, self.dice, period, rhythm
        )
        self.played: list[int] = []
        self.card: int | None = None
        self.next_card: int | None = None
        self.leader_box: list[int] = [int(c) for c in self.scen.rvn_leader.get("box") or []]
        self._card_notes = self.arrange_cards()  # the lesson options deck / rvn_leader (lesson.py)
        self.pivotal_held: dict[str, int] = {
            f: int(c) for f, c in (self.scen.deck.get("pivotal_held") or {}).items()
        }
        self.eligible: dict[str, bool] = {f: f in self.scen.eligibility["eligible"] for f in FACTIONS}
        self.eligibility_next: dict[
            str, bool
        ] = {}  # set by Events: Eligibility for the next card (FITL-2.3.6)
        self.acted: dict[str, str] = {}  # faction -> what it executed on this card
        self.capabilities: dict[str, str] = {}
        if period:
            for cap in self.scen.deck["period_events_option"].get("capabilities", []):
                self.capabilities[str(cap["card"])] = cap["side"]
        if (
            "A" in self.one_player_options()
        ):  # FITL-8.9 Difficulty Option A: the Medium scenario's Capabilities
            side = "shaded" if self.solo_party() in ("US", "ARVN", "US+ARVN") else "unshaded"
            for cap in load_scenario("medium").deck["period_events_option"].get("capabilities", []):
                if cap["side"] == side:
                    self.capabilities[str(cap["card"])] = side
        self.momentum: list[int] = []
        self.prev_was_coup = False
        self.coup_since_event = (
            False  # a Coup Round was held and no Event card has been played since (FITL-6.0)
        )
        self.coup_round = False
        self.final_coup = False
        self.coups_held = 0
        self.frozen_control: dict[str, str | None] = {}
        self.support_moved: Counter[str] = Counter()
        self.support_spaces: dict[str, list[str]] = {}
        self.withdrawn = 0
        # the card piles, journalled (issue #13, core.journal): the draw deck's order and the cards set aside are
        # hidden (FITL-2.2: only the played and the next card are seen), so their changes state only which cards
        # left or joined them, never an order
        j = self._journal
        self.deck = JournalList(self.deck, journal=j, field="deck", secret_order=True)
        self.set_aside = JournalList(self.set_aside, journal=j, field="set_aside", secret_order=True)
        self.played = JournalList(self.played, journal=j, field="played")
        self.leader_box = JournalList(self.leader_box, journal=j, field="leader_box")
        self.momentum = JournalList(self.momentum, journal=j, field="momentum")
        self.pivotal_held = JournalDict(self.pivotal_held, journal=j, field="pivotal_held", key="faction")
        # Eligibility (FITL-2.3), the Eligibility an Event gives for the next card, the Capabilities in effect
        self.eligible = JournalDict(self.eligible, journal=j, field="eligible", key="faction")
        self.eligibility_next = JournalDict(
            self.eligibility_next, journal=j, field="eligibility_next", key="faction"
        )
        self.capabilities = JournalDict(self.capabilities, journal=j, field="capabilities", key="capability")

    def map_layers(self, side: str | None = None) -> dict[str, Any]:
        """The board as semantic map layers (issue #14 item 2; ``wargames.fitl.mapdata.map_layers``)."""
        from .mapdata import map_layers

        return map_layers(self.board, side)

    def public_state(self, side: str | None) -> dict[str, Any]:
        """FITL-2.2: everything is open except the order of the draw deck (its size is public) and the cards
        set aside; the played card and the next card are shown."""
        state = self.state_dict()
        if side is None:
            return state
        state["deck"] = len(self.deck)
        state["set_aside"] = len(self.set_aside)
        state["monsoon"] = self.monsoon
        state["rvn_leader"] = self.rvn_leader
        state["victory"] = self.scores()
        return state

    # ------------------------------------------------------------------ helpers for every procedure
    def shift(self, track: str, delta: int) -> dict[str, Any]:
        """Move a track by ``delta`` within its range (FITL-1.8); the change dict for the ruling."""
        old = self.board.tracks[track]
        self.board.shift_track(track, delta)
        return {"track": track, "from": old, "to": self.board.tracks[track]}

    def set_support(self, space: str, level: int) -> dict[str, Any]:
        """Set a space's Support/Opposition level (FITL-1.6); the change dict for the ruling."""
        old = self.board.support[space]
        self.board.support[space] = level
        return {"support": space, "from": old, "to": level}

    def space_name(self, space: str) -> str:
        return self.data.spaces[space].name

    def display_name(self, key: str, side: str | None = None) -> str:
        """Spaces by name (``space_name``), e.g. ``"pleiku_darlac"`` -> ``"Pleiku-Darlac"``."""
        return self.space_name(key) if key in self.data.spaces else key

    def display_text(self, text: str, side: str | None = None) -> str:
        """Ids written out in a ruling, a prompt or a Non-player's reason in words (issue #31): a space's id by its
        name ("pleiku_darlac" -> "Pleiku-Darlac"), an Operation or Special Activity by its name ("air_strike" ->
        "Air Strike", ``operations.NAMES``), and what a faction did on a card (FITL-2.3.6: "US (op_sa)") as the
        Sequence of Play names it."""
        from .operations import NAMES

        def word(m: re.Match[str]) -> str:
            key = m.group(0)
            if key in self.data.spaces:
                return self.space_name(key)
            piece = _PIECE.fullmatch(key)
            if piece is not None:  # a force-pool id (rules 1.4, state.py): "arvn_police" -> "ARVN Police"
                return f"{piece.group(1).upper()} {piece.group(2).replace('_', ' ').title()}"
            if (
                key in self.data.tracks
            ):  # a track (rules 1.8, ``tracks.csv``): "arvn_resources" -> "ARVN Resources"
                return self.data.tracks[key].name
            return NAMES.get(key) or _ACTED.get(key) or BOX_WORDS.get(key) or key

        text = _ACTED_RE.sub(lambda m: f"({_ACTED[m.group(1)]})", text)
        # a track of one word named in a change line (``track trail`` -> "track The Trail", rules 1.8, tracks.csv)
        text = _TRACK_RE.sub(
            lambda m: (
                f"track {self.data.tracks[m.group(1)].name}" if m.group(1) in self.data.tracks else m.group(0)
            ),
            text,
        )
        return _ID_RE.sub(word, text)

    # ------------------------------------------------------------------ the interface
    def scores(self) -> dict[str, Any]:
        """FITL-1.9: the four victory markers."""
        return self.board.victory()

    def default_player(self, side: str) -> Player:
        """FITL-8.0: the built-in player of a faction is its Non-player (rules 8.1-8.8)."""
        from .nonplayer import nonplayer_for

        return nonplayer_for(side, self.seed)

    def plays_as_nonplayer(self, faction: str) -> bool:
        """FITL-8.1 "Operations Not Limited" (decision F-73): ``faction`` is played by a Non-player: named in the
        ``non_players`` option, or seated with the Non-player of rules 8 (the built-in player, whatever the options:
        ``wargames.load("fitl")``, the benchmarks, the CLI and the notebooks use the same Non-players).  A person
        (None) or another bot is not one.  While a record is replayed into a game whose seat is still unset (a save
        being opened), the record's own ``by`` for that faction says who decided."""
        if faction in (self.rules_opts.get("non_players") or []):
            return True
        if faction in self.players:
            from .nonplayer import NonPlayerBase

            return isinstance(self.players[faction], NonPlayerBase)
        by = self.__dict__.get("_replay_seats", {}).get(faction)
        return by is None or str(by).endswith("NonPlayer")

    def replay(self, record: Iterable[Mapping[str, Any]], at: Iterable[Any] | None = None) -> None:
        """Replay (core) with the record's first decider of each faction remembered for ``plays_as_nonplayer``
        (a faction whose seat is set, as a save's ``seats`` set it, follows its seat)."""
        record = [dict(e) for e in record]
        seats: dict[str, str] = {}
        for e in record:
            if "act" in e and e.get("side") and e.get("by") and e["side"] not in seats:
                seats[e["side"]] = str(e["by"])
        self.__dict__["_replay_seats"] = seats
        super().replay(record, at)

    def invariants(self) -> list[str]:
        """The board's invariants (FITL-1.4.1, 1.4.2, 1.6, 1.8) plus the deck: every one of the 130 cards is in
        exactly one place, the Eligible flags are booleans, and at most 2 factions act on a card."""
        bad = self.board.invariants()
        places = (
            list(self.deck)
            + list(self.played)
            + list(self.set_aside)
            + list(self.leader_box)
            + list(self.pivotal_held.values())
            + list(self.momentum)
            + [c for c in (self.card, self.next_card) if c is not None and c not in self.leader_box]
        )
        count = Counter(places)
        if sorted(count) != list(range(1, 131)) or any(n != 1 for n in count.values()):
            dup = sorted(c for c, n in count.items() if n > 1)
            missing = sorted(set(range(1, 131)) - set(count))
            bad.append(f"FITL-2.1: cards out of place (duplicated {dup}, missing {missing})")
        if len(self.acted) > 2:
            bad.append(f"FITL-2.3.4: {len(self.acted)} factions acted on one card")
        if self.card is not None and self.is_coup(self.card) and self.card not in self.leader_box:
            bad.append("FITL-2.4.1: a played Coup card is not in the RVN Leader box")
        return bad

    @classmethod
    def victory_facts(cls) -> VictoryFacts:
        """What decides the game (FITL-7.1, FITL-7.2), declared for shared code (issue #29 item 4): ``victory.victory_facts``."""
        from .victory import victory_facts

        return victory_facts()
