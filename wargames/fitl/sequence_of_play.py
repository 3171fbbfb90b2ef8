"""Fire in the Lake: the sequence of play on an Event card and a Coup card (rules 2.3 and 2.4).

* FITL-2.3.1 / FITL-2.3.2: the Eligible factions act in the card's left-to-right faction order;
* FITL-2.3.3: a 1st or 2nd Eligible faction may Pass (stays Eligible; +1 own Resources for an Insurgent,
  +3 ARVN Resources for US or ARVN) and the next Eligible faction takes its place;
* FITL-2.3.4 / FITL-2.3.5: the options of the 1st Eligible and, depending on what it executed, of the 2nd;
* FITL-2.3.6: Eligibility is adjusted after the card;
* FITL-2.3.8: Pivotal Events (Medium and Full) may cancel the card before the 1st Eligible acts, and trump;
* FITL-2.3.9: Monsoon (``self.monsoon``, read by the Operations);
* FITL-2.4 / FITL-2.4.1 / FITL-6.0: a Coup card goes to the RVN Leader box and starts a Coup Round unless a
  Coup Round was held with no Event card since.

Events themselves (rule 5) arrive with issue #7: the Event option is listed as unavailable, with that reason,
in every decision's ``unavailable`` context (a rejected Event names FITL-2.3.4 and the reason; decision F-32).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ..core.actions import Action, IllegalAction
from .data import COIN, FACTIONS, INSURGENTS
from .deck import FAILED_ATTEMPT

EVENT_REASON = "Event texts arrive with issue #7: no Event (card text) can be executed yet"
INSURGENT_FRIEND = {"NVA": "VC", "VC": "NVA"}  # FITL-1.5.1 / 1.5.2: the two insurgent factions

#: FITL-2.3.8: who may trump whose Pivotal Event (VC any other, ARVN the US or NVA, NVA the US, US none).
TRUMPS: dict[str, tuple[str, ...]] = {
    "VC": ("US", "NVA", "ARVN"),
    "ARVN": ("US", "NVA"),
    "NVA": ("US",),
    "US": (),
}
#: The Pivotal Event each faction holds in Medium and Full (cards.csv kind "pivotal").
PIVOTAL_OF: dict[str, int] = {"US": 121, "NVA": 122, "ARVN": 123, "VC": 124}


class SequenceRules:
    """Mixin: FITL-2.3 Event cards and FITL-2.4 Coup cards."""

    # ------------------------------------------------------------------ Pivotal Events (2.3.8)
    def pivotal_precondition(self, faction: str) -> tuple[bool | None, str]:
        """The red precondition of ``faction``'s Pivotal Event: (met?, why).  None when the precondition is
        printed only on the card (it arrives with the event texts, issue #7).  The rules text gives one:
        Tet Offensive needs more than 20 VC Guerrillas in South Vietnam (FITL-8.4.6 example, decision F-34)."""
        if faction == "VC":
            n = sum(
                self.board.count(s, "VC", "guerrillas")
                for s, sp in self.data.spaces.items()
                if sp.country == "SVN"
            )
            return (
                n > 20,
                f"{n} VC Guerrillas in South Vietnam ({'more than' if n > 20 else 'not more than'} 20)",
            )
        return None, "its precondition is printed on the card and arrives with the event texts (issue #7)"

    def pivotal_status(self, faction: str, covering: str | None = None) -> tuple[bool, str]:
        """FITL-2.3.8: may ``faction`` play its Pivotal Event now (on the card, or on ``covering``'s Pivotal)?"""
        if self.pivotal_held.get(faction) is None:
            return False, "it holds no Pivotal Event"
        if not self.eligible[faction]:
            return False, "it is Ineligible"
        if self.is_coup(self.next_card):
            return False, "a Coup card shows as the next card (Monsoon, FITL-2.3.9)"
        if covering is not None and covering not in TRUMPS[faction]:
            return False, f"{faction} may not trump the {covering} Pivotal Event"
        met, why = self.pivotal_precondition(faction)
        if met is None:
            return False, why
        if not met:
            return False, f"its precondition is not met: {why}"
        return True, f"its precondition is met: {why}"

    def pivotal_window(self) -> Generator[Any, Any, str | None]:
        """FITL-2.3.8: before the 1st Eligible acts, each faction able to play its Pivotal Event is asked
        (card order); a played Pivotal may be trumped.  Returns the faction whose Pivotal Event stands."""
        if not self.pivotal_held:
            return None
        owner: str | None = None
        row = self.data.cards[self.card]
        while True:
            askers = [f for f in (row.order or FACTIONS) if f != owner and self.pivotal_status(f, owner)[0]]
            if not askers:
                return owner
            played = False
            for f in askers:
                card = self.pivotal_held[f]
                what = "cancel the card" if owner is None else f"trump the {owner} Pivotal Event"
                a = yield self.decide(
                    f,
                    f"Play your Pivotal Event {self.card_name(card)} to {what}?",
                    "FITL-2.3.8",
                    [
                        Action.make("pivotal", f"Play {self.card_name(card)}", card=card),
                        Action.make("no_pivotal", "Do not play it now"),
                    ],
                    kind="pivotal",
                )
                if a.kind != "pivotal":
                    continue
                cancelled = self.card
                del self.pivotal_held[f]
                if owner is not None:  # the trumped Pivotal goes back to its owner
                    self.pivotal_held[owner] = cancelled
                else:
                    self.played.append(cancelled)
                self.card = card
                back = (
                    f"; {self.card_name(cancelled)} returns to the {owner}"
                    if owner
                    else f"; {self.card_name(cancelled)} is cancelled, its faction order with it"
                )
                yield self.ruling(
                    "FITL-2.3.8",
                    f"{f} plays its Pivotal Event",
                    f"{f} places {self.card_name(card)} on the played card{back}. The new faction "
                    f"order is {' '.join(self.data.cards[card].order)}.",
                    result={"faction": f, "card": card, "cancelled": cancelled},
                    changes=[{"card": card, "cancelled": cancelled}],
                )
                owner, row, played = f, self.data.cards[card], True
                break
            if not played:
                return owner

    # ------------------------------------------------------------------ hooks for the Events (issue #7)
    def event_options(self, faction: str) -> tuple[list[Action], str]:
        """The Event actions (kind "event", e.g. one per side of a dual Event) ``faction`` may take on the played
        card, or none and the reason.  Until issue #7 there are none (decision F-32)."""
        return [], EVENT_REASON

    def execute_event(self, faction: str, action: Action) -> Generator[Any, Any, None]:
        """Carry out the Event ``action`` for ``faction`` (FITL-5.0; issue #7).  It may set
        ``self.eligibility_next`` (FITL-2.3.6) and grant free Operations."""
        yield self.ruling(
            "FITL-2.3.4",
            f"{faction} executes the Event",
            f"{EVENT_REASON}.",
            result={"faction": faction, "card": self.card},
        )

    # ------------------------------------------------------------------ the options (2.3.4)
    def card_options(self, faction: str, first: str | None) -> tuple[list[Action], list[dict[str, str]]]:
        """FITL-2.3.4: the legal options of ``faction`` given what the 1st Eligible executed (None: it is the
        1st Eligible itself), and the options shown as unavailable with their reason."""
        opts: list[Action] = []
        off: list[dict[str, str]] = []
        title = self.data.cards[self.card].title

        def event(not_allowed: str | None) -> None:
            reason = not_allowed
            if not_allowed is None:
                actions, reason = self.event_options(faction)
                if actions:
                    opts.extend(actions)
                    return
            off.append({"kind": "event", "label": f"Event: {title}", "rule": "FITL-2.3.4", "reason": reason})

        def ops(limited: bool, sa_too: bool) -> None:
            if (
                limited and self.plays_as_nonplayer(faction) and "easy" not in self.one_player_options()
            ):  # FITL-8.9 Easy Option: keep the Limited Op
                limited, sa_too = (
                    False,
                    True,
                )  # FITL-8.1: a Non-player offered a Limited Op takes a full Op and SA
            names = self.op_choices(faction, limited)
            if limited:
                kinds = [("limited", "Limited Operation (1 space, no Special Activity)", True, False)]
            else:
                kinds = [("op", "Operation only", False, False)]
                if sa_too:
                    kinds.append(("op_sa", "Operation with a Special Activity", False, True))
            for key, label, lim, sa in kinds:
                if names:
                    opts.append(Action.make("op", f"{label}: {', '.join(names)}", limited=lim, sa=sa))
                else:
                    off.append(
                        {
                            "kind": "op",
                            "label": label,
                            "rule": "FITL-3.0",
                            "key": key,
                            "reason": "no Operation is possible for this faction now",
                        }
                    )

        if first is None:
            event(None)
            ops(False, True)
        elif first == "op":
            event(
                "after an Operation without a Special Activity the 2nd Eligible may only do a Limited Operation"
            )
            ops(True, False)
        elif first == "op_sa":
            event(None)
            ops(True, False)
        else:  # the 1st Eligible executed the Event
            ops(False, True)
        gain = "+3 ARVN Resources" if faction in COIN else f"+1 {faction} Resources"
        opts.append(Action.make("pass", f"Pass ({gain})"))
        return opts, off

    # ------------------------------------------------------------------ NVA and VC sharing Resources (1.5.2)
    def transfer_option(self, faction: str) -> Action | None:
        """FITL-1.5.2: NVA and VC may give each other up to half their Resources while one of them acts; the
        engine offers it to the acting faction, once per action, before it chooses (decision F-164)."""
        friend = INSURGENT_FRIEND.get(faction)
        most = self.transfer_most(faction) if friend else 0
        if most < 1:
            return None
        return Action.make("transfer", f"First give {friend} up to {most} {faction} Resources (1.5.2)")

    def transfer_most(self, faction: str) -> int:
        """FITL-1.5.2 / 1.8: half the giver's Resources (rounded down), and no more than the receiver's track holds."""
        friend = INSURGENT_FRIEND[faction]
        room = 75 - self.board.tracks[f"{friend.lower()}_resources"]
        return max(0, min(self.board.tracks[f"{faction.lower()}_resources"] // 2, room))

    def transfer_resources(self, faction: str) -> Generator[Any, Any, None]:
        """FITL-1.5.2: the gift itself: how many (1 to half, rounded down), then both tracks move."""
        friend = INSURGENT_FRIEND[faction]
        src, dst = f"{faction.lower()}_resources", f"{friend.lower()}_resources"
        have, most = self.board.tracks[src], self.transfer_most(faction)
        a = yield self.decide(
            faction,
            f"{faction}: give how many Resources to {friend}? (up to {most})",
            "FITL-1.5.2",
            [Action.make("count", f"Give {n}", n=n) for n in range(1, most + 1)],
            kind="count",
            step="transfer",
        )
        n = int(a["n"])
        self.board.shift_track(src, -n)
        self.board.shift_track(dst, n)
        yield self.ruling(
            "FITL-1.5.2",
            f"{faction} gives {friend} {n} Resources",
            f"{faction} had {have} Resources and may give up to half ({most}); it gives {n}: "
            f"{faction} {have} -> {self.board.tracks[src]}, {friend} -> {self.board.tracks[dst]}.",
            inputs={"from": faction, "to": friend, "had": have},
            result={"given": n},
            changes=[{"track": src, "delta": -n}, {"track": dst, "delta": n}],
        )

    def _unavailable_check(self, off: list[dict[str, str]]) -> Callable[[Action], IllegalAction | None]:
        def check(action: Action) -> IllegalAction | None:
            for o in off:
                if o["kind"] == action.kind:
                    return IllegalAction(o["rule"], f"{o['label']} is not available: {o['reason']}")
            return None

        return check

    # ------------------------------------------------------------------ an Event card (2.3)
    def play_event_card(self) -> Generator[Any, Any, None]:
        """FITL-2.3: Pivotal window, then the Eligible factions in card order; then FITL-2.3.6."""
        self.coup_since_event = False
        self.acted = {}
        if self.monsoon:
            yield self.ruling(
                "FITL-2.3.9",
                "Monsoon season",
                f"{self.card_name(self.next_card)} shows as the next card, so on this card no "
                "Operation may include Sweep or March, US Air Strike and Air Lift reach at most 2 "
                "spaces, and no Pivotal Event may be played.",
                result={"monsoon": True},
            )
        pivotal_owner = yield from self.pivotal_window()
        if pivotal_owner is not None:
            self.acted[pivotal_owner] = "event"
            yield self.ruling(
                "FITL-2.3.8",
                f"{pivotal_owner} executes {self.card_name(self.card)}",
                f"The Pivotal Event counts as the {pivotal_owner}'s Event as 1st Eligible.",
                result={"faction": pivotal_owner},
            )
            yield from self.execute_event(pivotal_owner, Action.make("event", side="pivotal"))
        row = self.data.cards[self.card]
        order = [f for f in row.order if self.eligible[f]]
        skipped = [f for f in row.order if not self.eligible[f]]
        yield self.ruling(
            "FITL-2.3.2",
            "Faction order",
            f"Card order {' '.join(row.order)}; Eligible in that order: {', '.join(order) or 'none'}"
            + (f"; Ineligible, sitting out: {', '.join(skipped)}" if skipped else "")
            + ".",
            result={"order": order, "ineligible": skipped},
        )
        for f in order:
            if len(self.acted) >= 2:
                break
            if f in self.acted:
                continue
            first = next(iter(self.acted.values()), None)
            role = "1st" if first is None else "2nd"
            opts, off = self.card_options(f, first)
            after = {
                None: "",
                "op": " (the 1st Eligible did an Operation only)",
                "op_sa": " (the 1st Eligible did an Operation with a Special Activity)",
                "event": " (the 1st Eligible executed the Event)",
            }[first]
            if first is None and f in self.pivotal_held:  # FITL-2.3.8: why the held Pivotal is not offered
                ok, why = self.pivotal_status(f)
                if not ok:
                    off.append(
                        {
                            "kind": "pivotal",
                            "label": f"Pivotal Event {self.card_name(self.pivotal_held[f])}",
                            "rule": "FITL-2.3.8",
                            "reason": why,
                        }
                    )
            note = "".join(f"; {o['label']} unavailable: {o['reason']}" for o in off if o["kind"] == "event")
            given = False
            while True:
                give = self.transfer_option(f) if not given else None
                a = yield self.decide(
                    f,
                    f"{f}, {role} Eligible on {self.card_name(self.card)}: choose{after}{note}",
                    "FITL-2.3.4",
                    opts + ([give] if give else []),
                    check=self._unavailable_check(off),
                    kind="card",
                    role=role,
                    unavailable=off,
                )
                if a.kind != "transfer":
                    break
                yield from self.transfer_resources(f)
                given = True
            if a.kind == "pass":
                yield self.pass_gain(f, role)
                continue
            if a.kind == "event":
                yield from self.execute_event(f, a)
                self.acted[f] = "event"
                continue
            limited, sa = bool(a["limited"]), bool(a["sa"])
            outcome = yield from self.operation(f, limited=limited, with_sa=sa)
            executed, sa_done = True, sa
            if isinstance(
                outcome, dict
            ):  # the Operations may report what was really executed (decision F-33)
                executed = bool(outcome.get("executed", True))
                sa_done = bool(outcome.get("sa", sa))
            if not executed:
                yield self.ruling(
                    "FITL-2.3.4",
                    f"{f} executed no Operation",
                    f"{f}'s Operation took place in no space, so it does not count as executed: "
                    "the faction stays Eligible and the next faction in order is offered the role.",
                    result={"faction": f, "executed": False},
                )
                continue
            self.acted[f] = "limited" if limited else ("op_sa" if sa_done else "op")
        yield self.adjust_eligibility()

    def pass_gain(self, faction: str, role: str) -> Any:
        """FITL-2.3.3: a Passing faction stays Eligible and gains Resources (+3 ARVN for COIN, +1 own otherwise)."""
        track = "arvn_resources" if faction in COIN else f"{faction.lower()}_resources"
        gain = 3 if faction in COIN else 1
        ch = self.shift(track, gain)
        whose = "ARVN Resources" if faction in COIN else f"{faction} Resources"
        got = f"{whose} {ch['from']} + {gain} = {ch['to']}" + (
            " (capped at 75)" if ch["to"] - ch["from"] < gain else ""
        )
        return self.ruling(
            "FITL-2.3.3",
            f"{faction} passes",
            f"{faction}, offered the {role} Eligible role, passes and stays Eligible: {got}.",
            result={"faction": faction, "gain": ch["to"] - ch["from"], "track": track},
            inputs={"role": role, "insurgent": faction in INSURGENTS},
            changes=[ch],
        )

    def adjust_eligibility(self) -> Any:
        """FITL-2.3.6: factions that executed an Operation or Event go Ineligible, all others Eligible
        (Events may override through ``self.eligibility_next``)."""
        changes = []
        for f in FACTIONS:
            new = f not in self.acted
            if f in self.eligibility_next:
                new = self.eligibility_next[f]
            if new != self.eligible[f]:
                changes.append({"eligible": f, "from": self.eligible[f], "to": new})
            self.eligible[f] = new
        self.eligibility_next.clear()
        acted = ", ".join(f"{f} ({k})" for f, k in self.acted.items()) or "nobody"
        return self.ruling(
            "FITL-2.3.6",
            "Adjust Eligibility",
            f"Executed on this card: {acted}. Next card Eligible: "
            f"{', '.join(f for f in FACTIONS if self.eligible[f]) or 'none'}; Ineligible: "
            f"{', '.join(f for f in FACTIONS if not self.eligible[f]) or 'none'}.",
            result={"eligible": dict(self.eligible)},
            changes=changes,
        )

    # ------------------------------------------------------------------ a Coup card (2.4)
    @property
    def rvn_leader(self) -> int | str:
        """FITL-2.4.1: the top card of the RVN Leader box, or "minh" (Duong Van Minh) when it is empty."""
        return self.leader_box[0] if self.leader_box else "minh"

    def leader_name(self) -> str:
        lead = self.rvn_leader
        return "Duong Van Minh (printed on the board)" if lead == "minh" else self.card_name(int(lead))

    def play_coup_card(self) -> Generator[Any, Any, None]:
        """FITL-2.4: immediate effect, RVN Leader box (FITL-2.4.1), then a Coup Round unless one was held with no
        Event card since (FITL-6.0); a final Coup card with no Round ends the game (FITL-2.4.2)."""
        c = self.card
        yield self.ruling(
            "FITL-2.4",
            f"Coup! {self.card_name(c)}",
            "A Coup card is played. Any immediate instruction printed on it is card text, which "
            "arrives with the event texts (issue #7); none is applied.",
            result={"card": c},
        )
        before = self.leader_name()
        if c in FAILED_ATTEMPT and self.leader_box:  # decision F-35: on an empty box (Minh) it goes on top
            self.leader_box.append(c)
            how = (
                f"{self.card_name(c)} goes underneath the other Coup cards: {before} stays RVN Leader "
                "(a Failed Attempt cancels only Duong Van Minh)"
            )
        else:
            self.leader_box.insert(0, c)
            how = f"{self.card_name(c)} goes on top of the RVN Leader box: it replaces {before} as RVN Leader"
        yield self.ruling(
            "FITL-2.4.1",
            "RVN Leader",
            how + ".",
            result={"rvn_leader": self.rvn_leader, "box": list(self.leader_box)},
            changes=[{"rvn_leader": self.rvn_leader}],
        )
        self.final_coup = self.coups_left() == 0
        if self.coup_since_event:
            yield self.ruling(
                "FITL-6.0",
                "No second Coup Round in a row",
                "A Coup Round was already held with no Event card played since, so this Coup card "
                "brings its new leader but no Coup Round.",
                result={"coup_round": False},
            )
            if self.final_coup:
                yield from self.final_victory("FITL-2.4.2")
            return
        self.coup_round = True
        self.coup_since_event = True
        self.coups_held += 1
        final = " This is the last Coup card: the final Coup Round (FITL-2.4.2)." if self.final_coup else ""
        yield self.ruling(
            "FITL-6.0",
            "Coup Round",
            "A Coup Round begins: Victory, Resources, Support, Redeploy"
            + ("" if self.final_coup else ", Commitment and Reset")
            + f" phases.{final}",
            result={"coup_round": True, "final": self.final_coup},
        )

    def coup_round_due(self) -> bool:
        return self.coup_round

    def coup_continues(self) -> bool:
        """FITL-6.4.5: Commitment and Reset are held only if this is not the final Coup Round."""
        return self.coup_round and not self.final_coup
