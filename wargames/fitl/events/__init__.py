"""Fire in the Lake: Events as data (rules 5.0-5.5; issue #7).

The 130 cards' effects (FITL-5.0-CARDS) live in ``data/fitl/events/cards-*.yaml`` (one entry per card: number, title, ``source``,
``status`` (data / hook / partial / todo), the ``unshaded`` and ``shaded`` sides as step lists of the vocabulary in
:mod:`wargames.fitl.events.vocabulary`, Pivotal preconditions, RVN Leader lasting effects, ``nonplayer`` preferences
labelled as reconstruction, and ``rulings`` where the rulebook decided a question the fact sheet left open).
Cards the vocabulary cannot express call a named function of :mod:`wargames.fitl.events.hooks`.

Wiring into FitlGame: put :class:`EventRules` first among the bases,
``class FitlGame(EventRules, OperationsRules, SequenceRules, ...)``.  It overrides the sequence of play's hooks:

* ``event_options(faction)`` -> (Actions ``event`` with ``side`` = unshaded/shaded, reason when none): FITL-2.3.4, FITL-5.2;
* ``execute_event(faction, action)`` -> ``yield from play_event(self.card, faction, side)`` (FITL-5.1);
* ``pivotal_precondition(faction)`` -> the four Pivotal preconditions (FITL-2.3.8, FITL-5.1.4);
* ``play_coup_card()`` -> the frame's procedure with the Coup card's immediate effect and leader ruling inserted
  after its first ruling (FITL-2.4.1, :meth:`EventRules.coup_card_effect`);
* ``monsoon`` -> the frame's Monsoon test, off while an Event's free Operation runs (FITL-5.1.1, F-115);
* ``card_leaves_play()`` -> when the next card is revealed, a Momentum card played on the previous card goes into
  ``game.momentum`` (FITL-5.4) instead of the played pile; while it is still the current card it is "pending" (``event_flags``), so every card is
  counted in exactly one place (decision F-112).

Public API:

* ``event_status(card, faction, side) -> (available, reason)`` (without ``side``: a dict of both sides);
* ``play_event(card, faction, side)``: a procedure (generator) the sequence of play can ``yield from``;
* ``capability_active(n, side=None) -> bool``: Capability card ``n`` is in effect (on ``side`` if given; FITL-5.3);
  the 19 Capabilities are stored in ``game.capabilities`` ({"<card>": "unshaded"|"shaded"});
* ``momentum_active(n, side=None) -> bool``: Momentum card ``n`` is in play (FITL-5.4); the 14 Momentum cards are in
  ``game.momentum`` once the next card is revealed (card numbers; the side in ``event_flags["momentum_<n>"]``),
  discarded at the Coup Reset (6.6);
* ``lasting_effects(rule_id) -> [(card, side, summary)]``: Capabilities/Momentum in effect that modify a rule
  (each side's ``modifies`` list in the data, e.g. FITL-4.2.3 Air Strike);
* ``event_effective(card, side, faction) -> (bool, why)``: a dry run saying whether the side would change anything;
* ``capability_owner(card) -> faction``: whose Capability (or Pivotal Event) a card is (FITL-5.3);
* ``event_preference(card, faction) -> (importance, side)``: the non-player preference (reconstruction, F-113);
* ``leader_active(n) -> bool``: RVN Leader card ``n`` (125-128) is the current leader and its lasting effect applies
  (FITL-2.4.1);
* ``coup_card_effect(card)``: a Coup card's immediate effect and its leader's ruling (FITL-2.4.1);
* ``event_flags``: marker aids such as Peace Talks on Linebacker II (FITL-5.4 MARKERS), the pending Momentum card,
  a flipped RVN Leader (card 97); kept on the board object so a new game or a replay starts empty (the frame may
  add them to ``state_dict`` for the digest);
* ``load_events()``: the card data; ``cards_by_status()`` lists cards done from data, with hooks, partial, not done;
  ``status_markdown()`` the same for ``data/fitl/events/README.md``.

Illegal choices (a side not on the card, a Pivotal whose precondition fails, a choice not offered) raise
IllegalAction naming the card and the rule; the engine leaves the game unchanged.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Generator
from functools import cache
from pathlib import Path
from typing import Any

from ...core import Action, IllegalAction
from ...core.actions import Decision
from ...core.data import DataError, cached_build, game_dir, yaml_load
from .schema import check_card
from .vocabulary import EventVocabulary
from .words import EvCtx, expand_keys, expand_pids

__all__ = ["EventRules", "EvCtx", "load_events", "cards_by_status", "expand_keys", "expand_pids"]

SIDES = ("unshaded", "shaded")
STATUSES = ("data", "hook", "partial", "todo")
NOT_DONE = "this card's Event is not yet encoded (issue #7; see cards_by_status())"


def events_dir() -> Path:
    return game_dir("fitl") / "events"


@cache
def load_events() -> dict[int, dict[str, Any]]:
    """Every card entry of ``data/fitl/events/*.yaml`` by number (checked: number, title, source, status, and
    every step against the vocabulary's schema, :func:`.schema.check_card`).  Parsing and checking 130 cards takes
    longer than the rest of a first ``load()``, so the checked cards are cached (``core.data.cached_build``)."""
    paths = sorted(events_dir().glob("cards-*.yaml"))
    if not paths:  # issue #30 item 9: no events file is a data error, not a game with no events
        raise DataError(events_dir(), "no cards-*.yaml events file: the card Events (rules 5) cannot be read")
    return cached_build(paths, "fitl-events", __name__, lambda: _read_events(paths))


def _read_events(paths: list[Path]) -> dict[int, dict[str, Any]]:
    import yaml

    out: dict[int, dict[str, Any]] = {}
    for path in paths:
        try:
            rows = yaml_load(path.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as err:  # issue #30 item 11: malformed YAML names the file
            raise DataError(path, f"not valid YAML: {err}") from None
        if not isinstance(rows, list) or not rows:
            raise DataError(
                path, f"an events file is a list of cards, not {type(rows).__name__ if rows else 'empty'}"
            )
        for row in rows:
            if not isinstance(row, dict):
                raise DataError(path, f"a card entry is a mapping, not {row!r:.60}")
            n = row.get("number")
            if not isinstance(n, int) or not 1 <= n <= 130:
                raise DataError(path, f"bad card number {n!r}", column="number")
            for key in ("title", "source", "status"):
                if not row.get(key):
                    raise DataError(path, f"card {n}: missing {key}", column=key)
            if row["status"] not in STATUSES:
                raise DataError(path, f"card {n}: status must be one of {STATUSES}", column="status")
            if not str(row["source"]).startswith(("rules:", "external:", "reconstruction:", "decision:")):
                raise DataError(
                    path,
                    f"card {n}: source must start rules:/external:/reconstruction:/decision:",
                    column="source",
                )
            if n in out:
                raise DataError(path, f"card {n} defined twice", column="number")
            check_card(
                path, row
            )  # the vocabulary's schema: an unknown verb or key is refused (FITL-5.0-CARDS)
            out[n] = row
    missing = sorted(set(range(1, 131)) - set(out))
    if (
        missing
    ):  # every card's Event is encoded: a lost entry (a cut or emptied file) is a data error, issue #30
        raise DataError(
            paths[0].parent, f"no Event entry for card(s) {missing[:12]}{' ...' if len(missing) > 12 else ''}"
        )
    return out


def cards_by_status() -> dict[str, list[int]]:
    """Card numbers by status: ``data`` (pure data), ``hook`` (uses hooks.py), ``partial``, ``todo`` (incl. absent)."""
    ev = load_events()
    res: dict[str, list[int]] = {s: [] for s in STATUSES}
    for n in range(1, 131):
        res[ev[n]["status"] if n in ev else "todo"].append(n)
    return res


def status_markdown() -> str:
    """The status section of ``data/fitl/events/README.md`` (cards done from data, with hooks, partial, not done)."""
    r = cards_by_status()
    ev = load_events()
    hooks = "\n".join(f"- {n} {ev[n]['title']}" for n in r["hook"])
    partial = "\n".join(f"- {n} {ev[n]['title']}: {ev[n]['pending']}" for n in r["partial"])
    rest = (
        "Partial (the rest of the card runs; the step named is not yet done):\n" + partial
        if partial
        else "Partial: none; every card plays in full."
    )
    return (
        f"## Status ({len(r['data'])} data, {len(r['hook'])} with hooks, {len(r['partial'])} partial, "
        f"{len(r['todo'])} not done)\n\nData only: {', '.join(map(str, r['data']))}.\n\nWith hooks:\n{hooks}\n\n"
        f"{rest}\n"
    )


def _shadow_board(b: Any) -> Any:
    """A copy of the board an Event's dry run may change freely: its pieces, Support, tracks, markers, boxes and
    Event flags copied, the rest shared (read only)."""
    shadow = copy.copy(b)
    shadow.pieces = {sp: Counter(c) for sp, c in b.pieces.items()}
    shadow.support, shadow.tracks = dict(b.support), dict(b.tracks)
    shadow.terror, shadow.sabotage = Counter(b.terror), set(b.sabotage)
    for box in ("available", "casualties", "out_of_play"):
        setattr(shadow, box, Counter(getattr(b, box)))
    shadow.event_flags = dict(b.event_flags)
    return shadow


def _board_only(board: Any) -> dict[str, Any]:
    """The board's canonical form without the Event flags (marker aids and Momentum sides are not a change
    to the board for the Non-players' "Event effective?" test, FITL-5.1.3, 8.1)."""
    return {k: v for k, v in board.to_dict().items() if k != "event_flags"}


class EventRules(EventVocabulary):
    """Mixin: FITL-5.0 Events, FITL-5.3 Capabilities, FITL-5.4 Momentum, FITL-5.1.4 Pivotal Events, RVN Leaders."""

    # ------------------------------------------------------------------ lasting effects (5.3, 5.4, 2.4.1)
    @property
    def event_flags(self) -> dict[str, Any]:
        """Marker aids and Momentum sides; kept on the board (in its state digest), so a new game starts empty."""
        return self.board.event_flags

    @property
    def monsoon(self) -> bool:
        """FITL-2.3.9 (the frame's test), except during an Event's own free Operation: FITL-5.1.1 lets an Event
        Sweep or March in Monsoon (rules example: Plei Mei; decision F-115).  Free Special Activities keep the
        Monsoon limits."""
        if self.__dict__.get("_ev_free_op"):
            return False
        return bool(super().monsoon)  # type: ignore[misc]

    def capability_active(self, n: int, side: str | None = None) -> bool:
        """FITL-5.3: Capability card ``n`` is in effect (on ``side``, unshaded/shaded, if given)."""
        got = self.capabilities.get(str(n))
        return got is not None and (side is None or got == side)

    def momentum_active(self, n: int, side: str | None = None) -> bool:
        """FITL-5.4: Momentum card ``n`` is in play (until the next Coup Round's Reset, FITL-6.6)."""
        if n not in self.momentum and self.event_flags.get("momentum_pending") != n:
            return False
        return side is None or self.event_flags.get(f"momentum_{n}", side) == side

    def lasting_effects(self, rule_id: str) -> list[tuple[int, str, str]]:
        """The Capabilities and Momentum in effect now whose data says they modify ``rule_id`` (e.g. "FITL-4.2.3"
        for Air Strike): (card, side, our summary).  For the Operations code to find what to apply (5.3, 5.4)."""
        out = []
        for card, entry in sorted(load_events().items()):
            for side in SIDES:
                body = entry.get(side) or {}
                if rule_id not in (body.get("modifies") or []):
                    continue
                if self.capability_active(card, side) or self.momentum_active(card, side):
                    out.append((card, side, body.get("text", "")))
        return out

    def leader_active(self, n: int) -> bool:
        """FITL-2.4.1: RVN Leader ``n`` is the current leader (top of the RVN Leader box)."""
        return getattr(self, "rvn_leader", None) == n and self.event_flags.get("leader_flipped") != n

    def capability_owner(self, card: int) -> str | None:
        """The faction a Capability (or Pivotal Event) belongs to (FITL-5.3 'US CAPABILITIES'...), from the data."""
        return (self.event_entry(card) or {}).get("owner")

    def event_preference(self, card: int, faction: str) -> tuple[str, str] | None:
        """The non-player preference for ``card`` (importance, side), e.g. ("critical", "unshaded"); a
        reconstruction from the fact sheet (decision F-113), for the non-player code (FITL-5.2)."""
        pref = (self.event_entry(card) or {}).get("nonplayer") or {}
        value = pref.get(faction)
        if not value:
            return None
        importance, _, side = str(value).partition(" ")
        return importance, side

    def event_effective(
        self, card: int, side: str, faction: str, board_only: bool = False
    ) -> tuple[bool, str]:
        """Would ``faction`` executing ``side`` of ``card`` change anything now?  A dry run on a copy of the board
        (first option at every choice, dice fixed at 3, free Operations counted when one is possible but not run);
        the game is left exactly as it was.  For the non-player "Event effective?" checks (FITL-8.4, 5.1.3).
        ``board_only``: count only changes to the board (pieces, Support, markers, tracks) and free actions, not the
        lasting effect or Eligibility (FITL-8.1: a Momentum Event's immediate effect)."""
        entry = self.event_entry(card)
        if entry is None or side not in entry:
            return False, "no such Event side"
        steps = str(entry[side].get("steps"))
        if not board_only and ("'capability'" in steps or "'momentum'" in steps):
            return True, "it puts a lasting effect in play (FITL-5.3 / 5.4)"
        keys = (
            "board",
            "capabilities",
            "momentum",
            "eligibility_next",
            "dice",
            "played",
            "pivotal_held",
            "_ev_dry",
            "_ev_dry_free",
        )
        saved = {k: self.__dict__[k] for k in keys if k in self.__dict__}
        shadow = _shadow_board(self.board)
        before = (
            _board_only(shadow),
            dict(self.capabilities),
            list(self.momentum),
            dict(self.eligibility_next),
        )
        try:
            self.board = shadow
            self.capabilities = dict(self.capabilities)
            self.momentum = list(self.momentum)
            self.eligibility_next = dict(self.eligibility_next)
            self.played = list(getattr(self, "played", []))
            self.pivotal_held = dict(getattr(self, "pivotal_held", {}))
            self.dice = _FixedDice()
            self._ev_dry, self._ev_dry_free = True, []
            flow = self.play_event(card, faction, side, pivotal_ok=True)
            value: Any = None
            for _ in range(500):
                item = flow.send(value)
                value = None
                if isinstance(item, Decision):
                    value = next((a for a in item.options if a.kind != "stop"), item.options[0])
            free = list(self._ev_dry_free)
        except StopIteration:
            free = list(self._ev_dry_free)
        finally:
            after = (
                _board_only(self.board),
                dict(self.capabilities),
                list(self.momentum),
                dict(self.eligibility_next),
            )
            for k in keys:
                if k in saved:
                    self.__dict__[k] = saved[k]
                else:
                    self.__dict__.pop(k, None)
        if (after[0] != before[0]) if board_only else (after != before):
            return True, "it changes the board, the tracks, the lasting effects or Eligibility"
        if free:
            return True, f"it grants {', '.join(free)}"
        return False, "nothing would change now (FITL-5.1.3)"

    # ------------------------------------------------------------------ status and options (2.3.4, 5.2)
    def event_entry(self, card: int) -> dict[str, Any] | None:
        return load_events().get(card)

    def event_status(self, card: int, faction: str, side: str | None = None) -> Any:
        """FITL-5.2: whether ``faction`` may execute ``side`` of ``card`` now and why: ``(available, reason)``;
        without ``side`` a dict of both sides."""
        both = self._event_status(card, faction)
        return (
            both
            if side is None
            else both.get(side, (False, f"an Event side is unshaded or shaded, not {side!r}"))
        )

    def _event_status(self, card: int, faction: str) -> dict[str, tuple[bool, str]]:
        entry = self.event_entry(card)
        kind = self.data.cards[card].kind
        out: dict[str, tuple[bool, str]] = {}
        for side in SIDES:
            if entry is None or entry["status"] == "todo":
                out[side] = (False, NOT_DONE)
            elif kind == "coup":
                out[side] = (
                    False,
                    "a Coup card has no Event to choose: its leader takes office (FITL-2.4.1)",
                )
            elif side not in entry:
                out[side] = (False, f"card {card} has no {side} text (FITL-5.2)")
            elif kind == "pivotal":
                ok, why = self.pivotal_check(card)
                out[side] = (ok, why) if side == "unshaded" else (False, "a Pivotal Event has one text")
            else:
                out[side] = (True, entry[side].get("text", "Event"))
        return out

    def event_options(self, faction: str) -> tuple[list[Action], str]:
        """FITL-2.3.4 / FITL-5.2: one ``event`` Action per side of the played card that ``faction`` may execute."""
        status = self._event_status(self.card, faction)
        title = self.data.cards[self.card].title
        acts = [
            Action.make("event", f"Event {title} ({side}): {why}", side=side)
            for side, (ok, why) in status.items()
            if ok and self.data.cards[self.card].kind != "pivotal"
        ]
        reason = "; ".join(f"{s}: {why}" for s, (ok, why) in status.items() if not ok)
        return acts, reason or "no Event side is available"

    def execute_event(self, faction: str, action: Action) -> Generator[Any, Any, None]:
        """The sequence of play's hook (FITL-2.3.4): execute the chosen side of the played card."""
        side = action.get("side") or "unshaded"
        if side == "pivotal":
            side = "unshaded"
        yield from self.play_event(self.card, faction, side, pivotal_ok=True)

    # ------------------------------------------------------------------ the procedure (5.1)
    def play_event(
        self, card: int, faction: str, side: str, *, pivotal_ok: bool = False
    ) -> Generator[Any, Any, None]:
        """FITL-5.1: ``faction`` executes ``side`` of ``card``: each step literally and in order, each change a
        ruling citing the card.  IllegalAction (FITL-5.2) if that side does not exist or is not encoded."""
        entry = self.event_entry(card)
        title = self.data.cards[card].title
        if side not in SIDES:
            raise IllegalAction(
                "FITL-5.2", f"Card {card} {title}: an Event side is unshaded or shaded, not {side!r}"
            )
        if entry is None or entry["status"] == "todo":
            raise IllegalAction("FITL-5.0", f"Card {card} {title}: {NOT_DONE}")
        if side not in entry:
            raise IllegalAction("FITL-5.2", f"Card {card} {title} has no {side} text")
        if self.data.cards[card].kind == "pivotal" and not pivotal_ok:
            ok, why = self.pivotal_check(card)
            if not ok:
                raise IllegalAction("FITL-5.1.4", f"Card {card} {title}: Pivotal precondition not met: {why}")
        ctx = EvCtx(card, title, side, faction)
        body = entry[side]
        yield self.ruling(
            "FITL-5.1",
            f"Card {card} {title}, {side}",
            f"{faction} executes the {side} Event of {title}: {body.get('text', '')}".rstrip(": "),
            result={"card": card, "side": side, "faction": faction},
            inputs={"kind": self.data.cards[card].kind, "status": entry["status"]},
        )
        yield from self.run_steps(ctx, body.get("steps", []))

    # ------------------------------------------------------------------ the frame's procedures, extended
    def card_leaves_play(self, card: int) -> None:
        """FITL-2.3.7 (frame) + FITL-5.4: when the card just played put its Momentum in effect, it goes into
        ``game.momentum`` (in view until the Reset, FITL-6.6) instead of the played pile (decision F-112); the
        reveal ruling that turns the next card lists the move (issue #13: no change without a ruling)."""
        if self.event_flags.get("momentum_pending") == card:
            if card not in self.momentum:
                self.momentum.append(card)
            del self.event_flags["momentum_pending"]
            return
        super().card_leaves_play(card)  # type: ignore[misc]

    def play_coup_card(self) -> Generator[Any, Any, None]:
        """FITL-2.4 (frame) + FITL-2.4.1: after the Coup card is announced, its immediate effect and its leader's
        lasting effect are applied/stated before it enters the RVN Leader box."""
        card = self.card
        yield from _after_first(  # type: ignore[misc]
            super().play_coup_card(),
            lambda: self.coup_card_effect(card, immediate=False),
            then=lambda: self.coup_card_effect(card, lasting=False),
        )

    # ------------------------------------------------------------------ RVN Leaders (2.4.1)
    def coup_card_effect(
        self, card: int, lasting: bool = True, immediate: bool = True
    ) -> Generator[Any, Any, None]:
        """FITL-2.4.1: a ruling naming the new leader's lasting effect (right after the Coup card is announced)
        and the card's immediate instruction (Failed Attempt: ARVN cubes desert, the ARVN choosing which), which
        the sequence of play runs once the card lies in the RVN Leader box, so a decision asked during it sees the
        box as it is (decision F-179)."""
        entry = self.event_entry(card) or {}
        lead = entry.get("leader") or {}
        title = self.data.cards[card].title
        ctx = EvCtx(card, title, "leader", "ARVN")
        if lasting and lead.get("lasting"):
            yield self.ruling(
                "FITL-2.4.1",
                f"Card {card} {title}: RVN Leader",
                f"Card {card} {title}: {lead['lasting']}",
                result={"card": card},
            )
        if immediate:
            yield from self.run_steps(ctx, lead.get("immediate") or [])

    # ------------------------------------------------------------------ Pivotal Events (2.3.8, 5.1.4)
    def pivotal_check(self, card: int) -> tuple[bool, str]:
        """FITL-5.1.4: a Pivotal card's printed precondition (data ``precondition``), evaluated now."""
        entry = self.event_entry(card) or {}
        pre = entry.get("precondition")
        if not pre:
            return False, NOT_DONE
        leaders = len([c for c in getattr(self, "leader_box", []) if c != "minh"])
        parts: list[str] = [f"{leaders} card(s) in the RVN Leader box (needs {pre['leader_box_min']})"]
        ok = leaders >= pre["leader_box_min"]
        b = self.board
        kind = pre["test"]
        if kind == "us_score":
            need = pre["threshold_with_flag"] if self.event_flags.get(pre["flag"]) else pre["threshold"]
            v = b.total_support() + b.available["us_troops"] + b.available["us_bases"]
            parts.append(f"Total Support + Available US Troops and Bases = {v} (needs more than {need})")
            ok = ok and v > need
        elif kind == "nva_vs_us_troops":
            nva, us = b.on_map("nva_troops"), b.on_map("us_troops")
            parts.append(f"{nva} NVA Troops against {us} US Troops on the map (needs more NVA)")
            ok = ok and nva > us
        elif kind == "us_troops_below":
            us = b.on_map("us_troops")
            parts.append(f"{us} US Troops on the map (needs fewer than {pre['threshold']})")
            ok = ok and us < pre["threshold"]
        elif kind == "vc_guerrillas_south":
            n = sum(
                b.count(s, "VC", "guerrillas") for s, sp in self.data.spaces.items() if sp.country == "SVN"
            )
            parts.append(f"{n} VC Guerrillas in South Vietnam (needs more than {pre['threshold']})")
            ok = ok and n > pre["threshold"]
        return ok, "; ".join(parts)

    def pivotal_precondition(self, faction: str) -> tuple[bool | None, str]:
        """FITL-2.3.8 (overrides the sequence of play's stand-in): the held Pivotal's precondition."""
        card = {"US": 121, "NVA": 122, "ARVN": 123, "VC": 124}[faction]
        return self.pivotal_check(card)


def _after_first(flow: Generator[Any, Any, Any], extra: Any, then: Any = None) -> Generator[Any, Any, Any]:
    """Run ``flow``; right after its first yielded item, run the procedure ``extra()``, and right after its second
    (if given) ``then()`` (at the end when the flow yields less); forward sent values."""
    pending = [extra] + ([then] if then is not None else [])
    sent = None
    first = True
    while True:
        try:
            item = next(flow) if first else flow.send(sent)
        except StopIteration as stop:
            for proc in pending:
                yield from proc()
            return stop.value
        first = False
        sent = yield item
        if pending:
            yield from pending.pop(0)()


class _FixedDice:
    """Dice for dry runs: every die shows 3 and the game's own dice are not touched."""

    def roll(self, sides: int = 6, purpose: str = "") -> Any:
        from ...core.rulings import Roll

        return Roll(min(3, sides), sides, purpose)
