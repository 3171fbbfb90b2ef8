"""Fire in the Lake: the deck (set-up 2.1 and the scenario deck instructions), turning cards (2.2, 2.3.7).

The draw deck is built once, in ``new_state``, with the game's seeded dice (FITL-2.1, FITL-SETUP-PERIOD):
the 120 Event cards are shuffled and dealt into the scenario's equal piles (or, with the Period Events option,
dealt pile by pile from the cards of the listed period), one Coup card is shuffled into each pile and the piles
are stacked, pile 1 on top.  The Event cards not dealt are set aside unseen.  Pivotal Events (121-124) are
held by their factions in the Medium and Full scenarios and removed in the Short one (FITL-2.3.8).

FITL-SETUP-DECK: the Coup and Pivotal cards are separated out before the deal.
Only the played card and the next card are public (FITL-2.2; FITL-1.1: everyone sees one card ahead): ``public_state`` shows the deck's size, never
its order.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..core.actions import WargamesError
from ..core.dice import Dice
from .data import CardRow, Scenario

EVENT_CARDS = range(1, 121)
PIVOTAL_CARDS = (121, 122, 123, 124)
COUP_CARDS = (125, 126, 127, 128, 129, 130)
FAILED_ATTEMPT = (129, 130)


def build_deck(
    scenario: Scenario,
    cards: dict[int, CardRow],
    dice: Dice,
    period_events: bool,
    political_rhythm: bool = False,
) -> tuple[list[int], list[int], list[list[int]]]:
    """FITL-2.1: the draw deck (top first), the cards set aside unseen, and the piles as dealt.

    Without the Period Events option the 120 Event cards are shuffled once and dealt into ``piles`` piles of
    ``events_per_pile``; with it (FITL-SETUP-PERIOD) each pile is dealt from a shuffle of its period's cards.
    The scenario's Coup cards are shuffled and one goes into each pile, which is then shuffled; with the
    Political Rhythm tournament option (FITL-TOURNAMENT, decision F-43) the Coup card is shuffled among the
    pile's bottom 4 Event cards only."""
    deck_spec = scenario.deck
    n_piles, per_pile = int(deck_spec["piles"]), int(deck_spec["events_per_pile"])
    coups = list(deck_spec["coup_cards"])
    if len(coups) != n_piles * int(deck_spec.get("coup_per_pile", 1)):
        raise WargamesError(f"scenario {scenario.id}: {len(coups)} Coup cards for {n_piles} piles")
    events = [c for c in EVENT_CARDS if cards[c].kind not in ("coup", "pivotal")]
    piles: list[list[int]] = [[] for _ in range(n_piles)]
    if period_events:
        used: set[int] = set()
        spec = deck_spec["period_events_option"]["piles"]
        pools: dict[str, list[int]] = {}
        for group in spec:
            period = str(group["period"])
            if period not in pools:
                pools[period] = dice.shuffle(sorted(c for c in events if cards[c].period == period))
            for p in group["piles"]:
                take = pools[period][:per_pile]
                if len(take) < per_pile:
                    raise WargamesError(f"not enough {period} cards for pile {p}")
                pools[period] = pools[period][per_pile:]
                piles[p - 1] = take
                used |= set(take)
    else:
        shuffled = dice.shuffle(events)
        for i in range(n_piles):
            piles[i] = shuffled[i * per_pile : (i + 1) * per_pile]
        used = {c for pile in piles for c in pile}
    coup_order = dice.shuffle(coups)
    for i in range(n_piles):
        if political_rhythm:
            piles[i] = piles[i][:-4] + dice.shuffle(piles[i][-4:] + [coup_order[i]])
        else:
            piles[i] = dice.shuffle(piles[i] + [coup_order[i]])
    deck = [c for pile in piles for c in pile]
    held = set((deck_spec.get("pivotal_held") or {}).values())
    leader_box = set(scenario.rvn_leader.get("box") or [])
    set_aside = sorted(
        c
        for c in range(1, 131)
        if c not in used and c not in coup_order and c not in held and c not in leader_box
    )
    return deck, set_aside, piles


class DeckRules:
    """Mixin: the draw deck and turning cards (FITL-2.1, FITL-2.2, FITL-2.3.7)."""

    def card_row(self, number: int | None) -> CardRow | None:
        return None if number is None else self.data.cards[number]

    def card_name(self, number: int | None) -> str:
        if number is None:
            return "no card"
        c = self.data.cards[number]
        return f"#{number} {c.title}" + (" (Coup!)" if c.kind == "coup" else "")

    def is_coup(self, number: int | None) -> bool:
        return number is not None and self.data.cards[number].kind == "coup"

    def is_event_card(self) -> bool:
        return self.card is not None and not self.is_coup(self.card)

    def is_coup_card(self) -> bool:
        return self.is_coup(self.card)

    @property
    def monsoon(self) -> bool:
        """FITL-2.3.9: an Event card is being played while a Coup card shows as the next card."""
        return self.is_event_card() and self.is_coup(self.next_card)

    def coups_left(self) -> int:
        """Coup cards still in the draw deck (the preview card included)."""
        return sum(self.is_coup(c) for c in self.deck) + (1 if self.is_coup(self.next_card) else 0)

    def setup_game(self) -> Generator[Any, Any, None]:
        """FITL-2.1: report the scenario, the deck built in ``new_state`` and the starting holdings."""
        sc = self.scen
        d = sc.deck
        piles = ", ".join(str(len(p)) for p in self.piles)
        if self.pivotal_held:
            piv = "each faction holds its own Pivotal Event: " + ", ".join(
                f"{f} {self.card_name(c)}" for f, c in sorted(self.pivotal_held.items())
            )
        else:
            piv = "the four Pivotal Events are out of the game"
        period = (
            "dealt by period (Period Events option)"
            if self.rules_opts["period_events"]
            else "dealt at random"
        )
        caps = ""
        if self.capabilities:
            caps = (
                " Capabilities in effect from the start: "
                + ", ".join(
                    f"{self.card_name(int(c))} ({side})" for c, side in sorted(self.capabilities.items())
                )
                + "."
            )
        yield self.ruling(
            "FITL-2.1",
            f"Set-up: {sc.title} ({sc.id})",
            f"The scenario's pieces, tracks and markers are placed. The draw deck holds {len(self.deck)} cards in "
            f"{len(self.piles)} piles of {piles} (Event cards {period}, one Coup card shuffled into each pile, pile 1 "
            f"on top); {len(self.set_aside)} cards are set aside unseen; {piv}. RVN Leader: {self.leader_name()}."
            f"{caps}",
            result={
                "deck": len(self.deck),
                "piles": [len(p) for p in self.piles],
                "set_aside": len(self.set_aside),
                "pivotal_held": dict(self.pivotal_held),
                "rvn_leader": self.rvn_leader,
            },
            inputs={
                "piles": d["piles"],
                "events_per_pile": d["events_per_pile"],
                "coup_cards": d["coup_cards"],
                "period_events": self.rules_opts["period_events"],
            },
        )
        yield from self.lesson_card_rulings()

    def card_leaves_play(self, card: int) -> None:
        """FITL-2.3.7: the card just played goes onto the played pile (a Coup card is in the RVN Leader box)."""
        if card not in self.leader_box:
            self.played.append(card)

    def reveal_cards(self) -> Generator[Any, Any, None]:
        """FITL-2.2 (first card) / FITL-2.3.7: the preview card is played and the deck's new top is revealed."""
        self.prev_was_coup = self.is_coup(self.card)
        if self.card is not None:
            self.card_leaves_play(self.card)
        self.coup_round = False
        self.acted = {}
        if self.card is None:
            self.card = self.deck.pop(0)
            rule, how = "FITL-2.2", "The game starts: the top card of the draw deck is turned up to be played"
        else:
            self.card = self.next_card
            rule, how = "FITL-2.3.7", "The card shown as next is now the played card"
        if self.card is None:  # no card left without a final Coup (cannot happen with a scenario deck)
            yield from self.final_victory("FITL-2.4.2")
            return
        self.next_card = self.deck.pop(0) if self.deck else None
        row = self.data.cards[self.card]
        order = f" Faction order: {' '.join(row.order)}." if row.order else ""
        mons = " A Coup card shows as the next card: Monsoon season (FITL-2.3.9)." if self.monsoon else ""
        yield self.ruling(
            rule,
            f"Card {self.card_name(self.card)}",
            f"{how}: {self.card_name(self.card)}.{order} Next card: {self.card_name(self.next_card)}; "
            f"{len(self.deck)} cards remain face down in the draw deck.{mons}",
            result={
                "card": self.card,
                "next": self.next_card,
                "deck": len(self.deck),
                "monsoon": self.monsoon,
            },
            changes=[{"card": self.card, "next": self.next_card}],
        )
