"""Fire in the Lake lesson positions (issue #13; the core mechanism is ``wargames.core.position``).

Two load options arrange the cards before play: ``deck=[107, 55, ...]`` puts those cards on top of the draw
deck in that order (the published tutorial's cards, or "what if this card came next"), and
``rvn_leader="ky"`` puts that Coup card on top of the RVN Leader box (FITL-2.4.1).  The ``position`` option
edits the board after set-up: ``pieces`` (space -> piece key -> how many there), ``support`` (space -> level),
``tracks`` (track -> value), ``terror`` (Province or City -> Terror markers), ``sabotage`` (LoC -> marker or
not), the boxes ``casualties`` (US piece -> how many) and ``out_of_play`` (US or ARVN piece -> how many), and
``removed`` (piece -> how many are taken out of the game, from Available: a lesson with a smaller force pool,
e.g. "the US has one Troop left"), ``eligible`` (faction -> Eligible or not for the first card), ``capabilities`` (Capability card -> the side in
effect, or null: not in effect; FITL-5.3) and ``momentum`` (Momentum card -> side: put in play, taken from the
deck or the cards set aside; FITL-5.4).  Pieces come from and go back to Available
(FITL-1.4.1: never more than the force pool holds; only US pieces are Casualties, only US and ARVN pieces are
Out of Play); never more than the 15 Terror/Sabotage markers (FITL-3.3.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from typing import Any

from ..core.data import DataError
from ..core.position import Edit, PositionError, entries, known, mapping, value_edits, whole
from .data import FACTIONS, LEVEL_NAMES, LEVELS
from .deck import COUP_CARDS, FAILED_ATTEMPT, PIVOTAL_CARDS
from .state import FLIPPABLE, TUNNELABLE, piece_id

MARKERS = 15  # Terror/Sabotage markers in the game (FITL-3.3.4)
BOX_FACTIONS = {
    "casualties": ("US",),
    "out_of_play": ("US", "ARVN"),  # who can be there (FITL-1.4.1)
    "removed": ("US", "ARVN", "NVA", "VC"),
}  # a lesson's smaller force pool: any faction
BOX_NAMES = {"casualties": "Casualties", "out_of_play": "Out of Play", "removed": "out of the game"}
LEADERS = {"minh": None, "khanh": 125, "young_turks": 126, "ky": 127, "thieu": 128}


def card_number(card: Any, where: str) -> int:
    """A card number written as a number or as text ("33": a save's JSON keys are text)."""
    try:
        return int(card)
    except (TypeError, ValueError):
        raise PositionError(f"{where}: {card!r} is not a card number") from None


def card_list(value: Any, key: str) -> list[int]:
    """An edit's value that must be a list of distinct card numbers 1-130 (``position.<key>``)."""
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise PositionError(f"position.{key} must be a list of card numbers, not {value!r}")
    cards = [card_number(c, f"position.{key}") for c in value]
    for c in cards:
        if not 1 <= c <= 130:
            raise PositionError(f"position.{key}: {c} is not a card number 1-130")
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise PositionError(
            f"position.{key}: card {twice[0]} is listed twice (every card is in one place, FITL-2.1)"
        )
    return cards


def check_card_options(game, path) -> None:
    """FitL's ``deck`` and ``rvn_leader`` options: known cards, no Pivotal Event, a known leader."""
    top = game.rules_opts.get("deck") or []
    for c in top:
        if not isinstance(c, int) or isinstance(c, bool) or not 1 <= c <= 130:
            raise DataError(path, f"deck: {c!r} is not a card number 1-130", column="options.deck")
        if c in PIVOTAL_CARDS:
            raise DataError(
                path,
                f"deck: card {c} is a Pivotal Event, held by its faction, never drawn (FITL-2.3.8)",
                column="options.deck",
            )
    if len(set(top)) != len(top):
        raise DataError(path, "deck: a card is listed twice", column="options.deck")
    lead = game.rules_opts.get("rvn_leader")
    if lead is not None and lead not in LEADERS:
        raise DataError(
            path, f"rvn_leader {lead!r} is not one of {sorted(LEADERS)}", column="options.rvn_leader"
        )
    if lead is not None and LEADERS[lead] in top:
        raise DataError(
            path, f"card {LEADERS[lead]} cannot be both RVN Leader and in the deck", column="options"
        )


class LessonRules:
    """Mixin: the lesson options and positions of Fire in the Lake."""

    def arrange_cards(self) -> list[str]:
        """Apply ``rvn_leader`` and ``deck`` to the deck just built (in ``new_state``); what was done, in words."""
        notes: list[str] = []
        lead = self.rules_opts.get("rvn_leader")
        if lead is not None:
            card = LEADERS[lead]
            if card is None:
                if self.leader_box:
                    self.set_aside.extend(self.leader_box)
                    notes.append(
                        f"the RVN Leader box is emptied ({len(self.leader_box)} card(s) set aside), so "
                        "Duong Van Minh leads"
                    )
                    self.leader_box = []
            else:
                where = self._take_card(card)
                self.leader_box.insert(0, card)
                fewer = "; the draw deck now holds one Coup card fewer" if where == "the deck" else ""
                notes.append(
                    f"{self.card_name(card)} is put on top of the RVN Leader box (taken from {where}{fewer})"
                )
        top = list(self.rules_opts.get("deck") or [])
        if top:
            came_from = Counter(self._take_card(c) for c in top)
            # keep the deck's length: one Event card from its bottom is set aside for each card brought in
            for _ in range(came_from["the cards set aside"]):
                for i in range(len(self.deck) - 1, -1, -1):
                    if self.deck[i] not in COUP_CARDS:
                        self.set_aside.append(self.deck.pop(i))
                        break
            self.deck[:0] = top
            notes.append(
                f"the draw deck is stacked with {', '.join(self.card_name(c) for c in top)} on top, in "
                "that order"
            )
        self.set_aside.sort()
        return notes

    def _take_card(self, card: int) -> str:
        for pile, name in (
            (self.deck, "the deck"),
            (self.set_aside, "the cards set aside"),
            (self.leader_box, "the RVN Leader box"),
        ):
            if card in pile:
                pile.remove(card)
                return name
        raise PositionError(f"card {card} is not in this scenario's deck, set-aside cards or RVN Leader box")

    def lesson_card_rulings(self) -> Generator[Any, Any, None]:
        notes = getattr(self, "_card_notes", None) or []
        for note in notes:
            yield self.ruling(
                "LESSON",
                "Cards arranged for the lesson",
                note[0].upper() + note[1:] + " (a lesson position, not a rule of the game).",
                result={"note": note},
                kind="lesson",
            )

    # ------------------------------------------------------------------ the position option (core.position)
    def position_keys(self) -> dict[str, str]:
        return {
            "pieces": "space -> {piece key (e.g. us_troops, vc_guerrillas:a, nva_bases:t) -> how many there}",
            "support": f"space -> level ({', '.join(LEVELS)})",
            "tracks": "track (aid, patronage, econ, trail, arvn_resources, nva_resources, vc_resources) -> value",
            "terror": "Province or City -> how many Terror markers there (FITL-3.3.4)",
            "sabotage": "LoC -> true (a Sabotage marker there) or false (FITL-3.3.4)",
            "casualties": "US piece (us_troops, us_bases, us_irregulars) -> how many in the Casualties box",
            "out_of_play": "US or ARVN piece -> how many Out of Play (FITL-1.4.1)",
            "removed": "piece -> how many are out of the game for the lesson, taken from Available (a smaller "
            "force pool than FITL-1.4.1's)",
            "eligible": "faction (US, ARVN, NVA, VC) -> true (Eligible) or false (Ineligible) (FITL-2.3.1)",
            "capabilities": "Capability card -> unshaded, shaded or null (not in effect) (FITL-5.3)",
            "momentum": "Momentum card -> unshaded or shaded: in play until the next Reset (FITL-5.4)",
            "leader_box": "the Coup cards (125-130) in the RVN Leader box, top (the leader in effect) first; [] is "
            "Duong Van Minh; no Failed Attempt (129, 130) above a leader (FITL-2.4.1)",
            "played": "the played pile, oldest first: card numbers, no Coup card (a played Coup card is in the RVN "
            "Leader box, FITL-2.4.1)",
            "leader_flipped": "true: the leader card on top of the RVN Leader box lies face down, its lasting "
            "effect stopped, as an Event does (e.g. card 97 unshaded); false: face up (FITL-2.4.1)",
        }

    def check_position(self, edits: dict[str, Any]) -> None:
        d = self.data
        for space, pieces in entries(edits, "pieces", d.spaces, "space"):
            for key, n in mapping(pieces, f"pieces.{space}").items():
                pid, _, state = str(key).partition(":")
                known(
                    pid,
                    {p for p, row in d.pieces.items() if row.type != "marker"},
                    f"position.pieces.{space}",
                    "piece",
                )
                allowed = {"u", "a"} if pid in FLIPPABLE else ({"", "t"} if pid in TUNNELABLE else {""})
                if state not in allowed or (pid in FLIPPABLE and not state):
                    raise PositionError(
                        f"position.pieces.{space}.{key}: write {pid} as "
                        f"{' or '.join(pid + (':' + s if s else '') for s in sorted(allowed))}"
                    )
                whole(n, f"position.pieces.{space}.{key}", 0, d.pieces[pid].count)
        for space, level in entries(edits, "support", d.spaces, "space"):
            known(level, LEVELS, f"position.support.{space}", "level")
        for track, value in entries(edits, "tracks", d.tracks, "track"):
            row = d.tracks[track]
            whole(value, f"position.tracks.{track}", row.min, row.max)
        for space, n in entries(edits, "terror", d.spaces, "space"):
            if d.spaces[space].kind == "loc":
                raise PositionError(
                    f"position.terror.{space}: a LoC takes a Sabotage marker, not Terror (FITL-3.3.4)"
                )
            whole(n, f"position.terror.{space}", 0, MARKERS)
        for space, there in entries(edits, "sabotage", d.spaces, "space"):
            if d.spaces[space].kind != "loc":
                raise PositionError(
                    f"position.sabotage.{space}: only a LoC takes a Sabotage marker (FITL-3.3.4)"
                )
            if not isinstance(there, bool):
                raise PositionError(f"position.sabotage.{space}: write true or false, not {there!r}")
        for box, factions in BOX_FACTIONS.items():
            for pid, n in mapping(edits.get(box, {}), box).items():
                known(
                    pid,
                    {p for p, row in d.pieces.items() if row.type != "marker"},
                    f"position.{box}",
                    "piece",
                )
                if d.pieces[pid].faction not in factions:
                    raise PositionError(
                        f"position.{box}.{pid}: only {' and '.join(factions)} pieces can be "
                        f"{box.replace('_', ' ').title()} (FITL-1.4.1)"
                    )
                whole(n, f"position.{box}.{pid}", 0, d.pieces[pid].count)
        for key in ("capabilities", "momentum"):
            kind = {"capabilities": "capability", "momentum": "momentum"}[key]
            for card, side in mapping(edits.get(key, {}), key).items():
                n = card_number(card, f"position.{key}")
                if n not in d.cards or d.cards[n].kind != kind:
                    raise PositionError(
                        f"position.{key}.{card}: card {card} is not a {kind.title()} card "
                        f"(FITL-{'5.3' if kind == 'capability' else '5.4'})"
                    )
                if side not in ("unshaded", "shaded") and not (key == "capabilities" and side is None):
                    raise PositionError(
                        f"position.{key}.{card}: write unshaded or shaded"
                        f"{' (or null)' if key == 'capabilities' else ''}, not {side!r}"
                    )
        for faction, flag in entries(edits, "eligible", set(FACTIONS), "faction"):
            if not isinstance(flag, bool):
                raise PositionError(
                    f"position.eligible.{faction}: write true (Eligible) or false, not {flag!r}"
                )

        self._check_card_piles(edits)
        if "leader_flipped" in edits and not isinstance(edits["leader_flipped"], bool):
            raise PositionError(
                f"position.leader_flipped: write true or false, not {edits['leader_flipped']!r}"
            )

    def _check_card_piles(self, edits: dict[str, Any]) -> None:
        """``leader_box`` and ``played``: card lists that FITL-2.4.1 allows (ids and order; where each card is
        now is checked when the edit is made)."""
        if "leader_box" in edits:
            box = card_list(edits["leader_box"], "leader_box")
            for c in box:
                if c not in COUP_CARDS:
                    raise PositionError(
                        f"position.leader_box: {self.card_name(c)} is not a Coup card; only Coup "
                        f"cards {COUP_CARDS[0]}-{COUP_CARDS[-1]} go in the RVN Leader box (FITL-2.4.1)"
                    )
            for i, c in enumerate(box):
                under = [x for x in box[i + 1 :] if x not in FAILED_ATTEMPT]
                if c in FAILED_ATTEMPT and under:
                    raise PositionError(
                        f"position.leader_box: {self.card_name(c)} cannot lie above "
                        f"{self.card_name(under[0])}: a Failed Attempt goes underneath the other Coup "
                        "cards (FITL-2.4.1)"
                    )
        if "played" in edits:
            played = card_list(edits["played"], "played")
            for c in played:
                if c in COUP_CARDS:
                    raise PositionError(
                        f"position.played: {self.card_name(c)} is a Coup card; a played Coup card "
                        "goes to the RVN Leader box, never the played pile (FITL-2.4.1)"
                    )
            both = sorted(
                set(played)
                & {
                    card_number(c, "position.momentum")
                    for c in mapping(edits.get("momentum", {}), "momentum")
                }
            )
            if both:
                raise PositionError(
                    f"position.played: card {both[0]} cannot be both played and a Momentum card in "
                    "play (every card is in one place, FITL-2.1)"
                )

    def position_edits(self, edits: dict[str, Any]) -> list[Edit]:
        """Pieces set space by space from/to Available, Support levels and tracks set; each explained."""
        self.check_position(edits)
        b = self.board
        out: list[Edit] = []
        need: Counter[str] = Counter()
        for space, pieces in edits.get("pieces", {}).items():
            for key, n in pieces.items():
                diff = n - b.pieces[space][key]
                need[piece_id(key)] += diff
                words = self._piece_words(key)
                out.append(
                    Edit(
                        "pieces",
                        f"{self.space_name(space)}: {n} {words}",
                        f"{self.space_name(space)} is given {n} {words} (it had {b.pieces[space][key]}; the "
                        "difference comes from or goes back to Available).",
                        {"space": space, "piece": key, "from": b.pieces[space][key], "to": n},
                        lambda s=space, k=key, m=diff: self._lesson_move(s, k, m),
                        (space,),
                    )
                )
        for box in BOX_FACTIONS:
            held = getattr(b, box)
            for pid, n in edits.get(box, {}).items():
                need[pid] += n - held[pid]
                out.append(
                    Edit(
                        box,
                        f"{BOX_NAMES[box]}: {n} {pid}",
                        f"{n} {pid.replace('_', ' ')} are taken out of the game for this lesson (it had "
                        f"{held[pid]}; the difference comes from or goes back to Available)."
                        if box == "removed"
                        else f"The {BOX_NAMES[box]} box is given {n} {pid.replace('_', ' ')} (it had "
                        f"{held[pid]}; the difference comes from or goes back to Available, FITL-1.4.1).",
                        {"box": box, "piece": pid, "from": held[pid], "to": n},
                        lambda x=box, k=pid, m=n - held[pid]: self._lesson_box(x, k, m),
                    )
                )
        short = {pid: n - b.available[pid] for pid, n in need.items() if n > b.available[pid]}
        if short:
            pid, n = sorted(short.items())[0]
            raise PositionError(
                f"position.pieces: {n} more {pid} than are Available ({b.available[pid]}); the "
                f"force pool holds {self.data.pieces[pid].count} in all (FITL-1.4.1)"
            )
        for space, level in edits.get("support", {}).items():
            old = b.support[space]
            out.append(
                Edit(
                    "support",
                    f"{self.space_name(space)}: {LEVEL_NAMES[LEVELS[level]]}",
                    f"{self.space_name(space)} is set to {LEVEL_NAMES[LEVELS[level]]} (it was "
                    f"{LEVEL_NAMES[old]}).",
                    {"space": space, "from": old, "to": LEVELS[level]},
                    lambda s=space, v=LEVELS[level]: b.support.__setitem__(s, v),
                    (space,),
                )
            )
        out += value_edits(
            "tracks",
            edits.get("tracks", {}),
            b.tracks,
            lambda t, v: f"{self.data.tracks[t].name} set to {v}",
            lambda t, v, was: f"{self.data.tracks[t].name} is set to {v} (it was {was}).",
        )
        terror = {**b.terror, **edits.get("terror", {})}
        sabotage = (b.sabotage | {s for s, v in edits.get("sabotage", {}).items() if v}) - {
            s for s, v in edits.get("sabotage", {}).items() if not v
        }
        if sum(terror.values()) + len(sabotage) > MARKERS:
            raise PositionError(
                f"position: {sum(terror.values())} Terror and {len(sabotage)} Sabotage markers; "
                f"there are only {MARKERS} (FITL-3.3.4)"
            )
        for space, n in edits.get("terror", {}).items():
            out.append(
                Edit(
                    "terror",
                    f"{self.space_name(space)}: {n} Terror",
                    f"{self.space_name(space)} is given {n} Terror marker(s) (it had {b.terror[space]}).",
                    {"space": space, "from": b.terror[space], "to": n},
                    lambda s=space, v=n: self._lesson_terror(s, v),
                    (space,),
                )
            )
        for space, there in edits.get("sabotage", {}).items():
            was = space in b.sabotage
            out.append(
                Edit(
                    "sabotage",
                    f"{self.space_name(space)}: {'Sabotage' if there else 'no Sabotage'}",
                    f"{self.space_name(space)} {'gets' if there else 'loses'} its Sabotage marker "
                    f"(it {'had' if was else 'had none'}).",
                    {"space": space, "from": was, "to": there},
                    lambda s=space, v=there: b.sabotage.add(s) if v else b.sabotage.discard(s),
                    (space,),
                )
            )
        for faction, flag in edits.get("eligible", {}).items():
            word = "Eligible" if flag else "Ineligible"
            out.append(
                Edit(
                    "eligible",
                    f"{faction} {word}",
                    f"The {faction} cylinder is put in the {word} box (it was "
                    f"{'Eligible' if self.eligible[faction] else 'Ineligible'}); FITL-2.3.1.",
                    {"faction": faction, "from": self.eligible[faction], "to": flag},
                    lambda f=faction, v=flag: self.eligible.__setitem__(f, v),
                )
            )
        for card, side in edits.get("capabilities", {}).items():
            n = card_number(card, "position.capabilities")
            old = self.capabilities.get(str(n))
            word = f"in effect, {side}" if side else "not in effect"
            out.append(
                Edit(
                    "capabilities",
                    f"Capability {self.card_name(n)}: {word}",
                    f"The Capability {self.card_name(n)} is {word} (it was "
                    f"{f'in effect, {old}' if old else 'not in effect'}); FITL-5.3.",
                    {"card": n, "from": old, "to": side},
                    lambda c=str(n), v=side: (
                        self.capabilities.__setitem__(c, v) if v else self.capabilities.pop(c, None)
                    ),
                )
            )
        for card, side in edits.get("momentum", {}).items():
            n = card_number(card, "position.momentum")
            if n in self.momentum:
                raise PositionError(f"position.momentum.{card}: {self.card_name(n)} is already in play")
            if not any(n in pile for pile in (self.deck, self.set_aside)):
                raise PositionError(
                    f"position.momentum.{card}: {self.card_name(n)} is neither in the draw deck nor "
                    "set aside (a card already played cannot be put in play again)"
                )
            out.append(
                Edit(
                    "momentum",
                    f"Momentum {self.card_name(n)} in play ({side})",
                    f"The Momentum card {self.card_name(n)} is put in play, {side}, until the next Coup "
                    "Round's Reset (FITL-5.4); it is taken from the draw deck or the cards set aside.",
                    {"card": n, "side": side},
                    lambda c=n, v=side: self._lesson_momentum(c, v),
                )
            )
        out += self._card_pile_edits(edits)
        out += self._leader_flip_edit(edits)
        return out

    def _leader_flip_edit(self, edits: dict[str, Any]) -> list[Edit]:
        """``leader_flipped``: the leader on top of the RVN Leader box (after a ``leader_box`` edit, if any) turned
        face down or up.  FITL-2.4.1: a face-down leader still counts in the box but its lasting effect stops;
        Duong Van Minh is printed on the board and a Failed Attempt has no effect to stop, so neither can flip."""
        if "leader_flipped" not in edits:
            return []
        flip = edits["leader_flipped"]
        box = card_list(edits["leader_box"], "leader_box") if "leader_box" in edits else list(self.leader_box)
        top = box[0] if box else None
        if flip and (top is None or top in (129, 130)):
            what = "Duong Van Minh, printed on the board" if top is None else self.card_name(top)
            raise PositionError(
                f"position.leader_flipped: the RVN leader is {what}; only a leader card (125-128) "
                "can be turned face down (FITL-2.4.1)"
            )
        was = self.event_flags.get("leader_flipped")
        if flip:
            title = f"RVN Leader {self.card_name(top)} face down"
            text = (
                f"{self.card_name(top)} lies face down in the RVN Leader box: it still counts as a Coup card there, "
                "but its lasting effect has stopped (FITL-2.4.1), as after card 97's unshaded Event."
            )
        else:
            title = "RVN Leader face up"
            text = "The leader card on top of the RVN Leader box lies face up: its lasting effect applies (FITL-2.4.1)."
        return [
            Edit(
                "leader_flipped",
                title,
                text,
                {"leader_flipped": top, "from": was, "to": top if flip else None},
                lambda v=(top if flip else None): self._lesson_flip(v),
            )
        ]

    def _lesson_flip(self, top: int | None) -> None:
        if top is None:
            self.event_flags.pop("leader_flipped", None)
        else:
            self.event_flags["leader_flipped"] = top

    def _card_pile_edits(self, edits: dict[str, Any]) -> list[Edit]:
        """The ``leader_box`` and ``played`` edits: each card added must be in the draw deck or set aside (a played
        Pivotal Event may also come from its faction's hand, FITL-2.3.8); a card left out is set aside."""
        out: list[Edit] = []
        held = {c: f for f, c in self.pivotal_held.items()}
        for key, pile in (("leader_box", self.leader_box), ("played", self.played)):
            if key not in edits:
                continue
            new = card_list(edits[key], key)
            sources = [(self.deck, "the draw deck"), (self.set_aside, "the cards set aside")]
            came: list[str] = []
            for c in new:
                if c in pile:
                    continue
                where = next((name for p, name in sources if c in p), None)
                if where is None and key == "played" and c in held:
                    where = f"the {held[c]} hand (a Pivotal Event held)"
                if where is None:
                    now = (
                        "the card being played"
                        if c == self.card
                        else "the next card"
                        if c == self.next_card
                        else "a Momentum card in play"
                        if c in self.momentum
                        else "in the RVN Leader box"
                        if c in self.leader_box
                        else "in the played pile"
                        if c in self.played
                        else "elsewhere"
                    )
                    raise PositionError(
                        f"position.{key}: {self.card_name(c)} is {now}, neither in the draw deck nor "
                        "set aside; a lesson takes cards only from there (FITL-2.1)"
                    )
                fewer = (
                    " (the draw deck holds one Coup card fewer)"
                    if where == "the draw deck" and c in COUP_CARDS
                    else ""
                )
                came.append(f"{self.card_name(c)} from {where}{fewer}")
            left = [c for c in pile if c not in new]
            text = ", ".join(self.card_name(c) for c in new) or "no card"
            if key == "leader_box":
                title = f"RVN Leader box: {self.card_name(new[0]) if new else 'empty (Duong Van Minh)'} leads"
                what = f"The RVN Leader box holds {text}, top first (FITL-2.4.1)"
            else:
                title = f"Played pile: {len(new)} card(s)"
                what = f"The played pile holds {text}, oldest first"
            moves = (f"; taken: {', '.join(came)}" if came else "") + (
                f"; set aside: {', '.join(self.card_name(c) for c in left)}" if left else ""
            )
            out.append(
                Edit(
                    key,
                    title,
                    f"{what}; it held {', '.join(self.card_name(c) for c in pile) or 'none'}{moves}.",
                    {key: key, "from": list(pile), "to": new},
                    lambda k=key, v=new: self._lesson_pile(k, v),
                )
            )
        return out

    def _lesson_pile(self, key: str, cards: list[int]) -> None:
        """Make ``leader_box`` or ``played`` hold ``cards``: added ones taken from where they are, others set aside."""
        pile: list[int] = getattr(self, key)
        for c in cards:
            if c in pile:
                continue
            for source in (self.deck, self.set_aside):
                if c in source:
                    source.remove(c)
            for f, held in list(self.pivotal_held.items()):
                if held == c:
                    del self.pivotal_held[f]
        self.set_aside.extend(c for c in pile if c not in cards)
        self.set_aside.sort()
        pile[:] = cards

    def _piece_words(self, key: str) -> str:
        """A piece key in words: ``vc_guerrillas:a`` -> "Active VC Guerrillas" (FITL-1.4.3 states)."""
        pid, _, state = key.partition(":")
        state_word = {"a": "Active ", "u": "Underground ", "t": "Tunneled "}.get(state, "")
        return f"{state_word}{self.data.pieces[pid].name}"

    def _lesson_momentum(self, card: int, side: str) -> None:
        for pile in (self.deck, self.set_aside):
            if card in pile:
                pile.remove(card)
        self.momentum.append(card)
        self.board.event_flags[f"momentum_{card}"] = side

    def _lesson_box(self, box: str, pid: str, diff: int) -> None:
        held = getattr(self.board, box)
        held[pid] += diff
        self.board.available[pid] -= diff
        held += Counter()  # drop zero entries (in place)

    def _lesson_terror(self, space: str, n: int) -> None:
        self.board.terror[space] = n
        self.board.terror += Counter()

    def _lesson_move(self, space: str, key: str, diff: int) -> None:
        b = self.board
        b.pieces[space][key] += diff
        b.available[piece_id(key)] -= diff
        b.pieces[space] += Counter()  # drop zero entries
