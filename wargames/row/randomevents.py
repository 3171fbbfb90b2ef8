"""Random events (ROW-5.5) and the Cup of SNAFU (ROW-6.1).

* ROW-5.5: a chit with an RE letter calls for a D10 on Random Event Table A, B or C after the modifiers are declared
  and before the combat dice: news reporters (a revealed Objective marker on the combat hex, ROW-12.1.3) or a SNAFU
  draw placed by the attacker or the defender.
* ROW-6.1: the cup's counters (counts reconstructed, ``snafu_cup.csv``) are drawn by a die over the cup's fixed order
  (R-CBT-03).  A marker goes on a unit of its own colour taking part in the combat; the placer chooses the unit and,
  for a two-faced counter, the face (R-CBT-20).  Draws after a disruption or a rout (ROW-5.6, ROW-6.2) or for an
  OOC unit are optional: the drawer may discard.
* ROW-6.1 cases a-h: leaders stay (re-rolls, see ``combat.reroll``); Ammo/Fuel Shortage and Out stay and merge
  (Shortage + any -> Out); Ambush, Friendly Fire, Air Strike roll losses (R-CBT-12); Radio Out cuts this side's
  adjacent support in this combat; Key Officer Killed strips a Great Leader, else an Elite/Guards marker, else adds
  an Incompetent Leader (R-CBT-12).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Action, IllegalAction
from ..core.dice import Dice
from ..core.rulings import Lookup, Ruling
from .combat import ALL_QUALITY, CAPITALIST, COMMUNIST, LEADER_MARKERS, CombatUnit, ruling
from .tables import Chit, CombatTables, tables

LOSS_TRACKS = {CAPITALIST: "US Casualties", COMMUNIST: "Body Count"}


def random_event(dice: Dice, chit: Chit, hex_id: str = "", t: CombatTables | None = None) -> Ruling:
    """ROW-5.5: the Random Event of the chit's RE table (none if the chit says No).

    ``result``: ``{"event": "none" | "objective" | "snafu", "placer": "attacker" | "defender" | None}``.
    """
    t = t or tables()
    if chit.re is None:
        return ruling(
            "ROW-5.5",
            "No random event",
            f"Chit {chit.id} shows RE No: no random event.",
            {"event": "none", "placer": None},
            inputs={"chit": chit.id},
            places=[hex_id] if hex_id else [],
        )
    r = dice.roll(10, f"Random Event Table {chit.re}")
    row = t.random_events[(chit.re, r.value)]
    if row.event == "objective":
        text = (
            f"Random Event Table {chit.re}, roll {r.value}: news reporters are present; a revealed Objective "
            f"marker goes on the combat hex{' ' + hex_id if hex_id else ''} (12.1.3)."
        )
    else:
        text = (
            f"Random Event Table {chit.re}, roll {r.value}: draw from the Cup of SNAFU; the {row.placer} places "
            "the marker before the combat dice."
        )
    return ruling(
        "ROW-5.5",
        f"Random event ({chit.re})",
        text,
        {"event": row.event, "placer": row.placer},
        inputs={"chit": chit.id, "table": chit.re},
        dice=[r],
        lookup=Lookup(
            f"Random Event Table {chit.re}",
            str(r.value),
            "event",
            row.event + (f" ({row.placer} places)" if row.placer else ""),
            source="data/row/tables/random_events.csv",
        ),
        places=[hex_id] if hex_id else [],
    )


# ------------------------------------------------------------------------------------------ the cup
@dataclass(frozen=True)
class SnafuCup:
    """ROW-6.1: the counters in the cup, as ids (``CAP-AMMO``, ``CAP-AMMO#2`` for a second copy), kept sorted."""

    counters: tuple[str, ...]

    @classmethod
    def full(cls, t: CombatTables | None = None) -> SnafuCup:
        """Every counter of ``snafu_cup.csv`` (counts reconstructed)."""
        t = t or tables()
        ids = [
            row.counter if k == 0 else f"{row.counter}#{k + 1}"
            for row in t.snafu_cup
            for k in range(row.count)
        ]
        return cls(tuple(sorted(ids)))

    def without(self, counter: str) -> SnafuCup:
        rest = list(self.counters)
        rest.remove(counter)
        return SnafuCup(tuple(rest))

    def with_(self, *counters: str) -> SnafuCup:
        return SnafuCup(tuple(sorted((*self.counters, *counters))))


def counter_row(counter: str, t: CombatTables | None = None):
    t = t or tables()
    return t.snafu_counter(counter.split("#")[0])


def faces(counter: str, t: CombatTables | None = None) -> tuple[str, ...]:
    row = counter_row(counter, t)
    return (row.front,) if row.back is None else (row.front, row.back)


def draw_snafu(
    dice: Dice, cup: SnafuCup, n: int = 1, why: str = "random event", t: CombatTables | None = None
) -> tuple[SnafuCup, Ruling]:
    """ROW-6.1: draw ``n`` counters from the cup (a die over its fixed order, R-CBT-03); returns the cup left."""
    t = t or tables()
    if len(cup.counters) < n:
        raise IllegalAction(
            "ROW-6.1", f"the Cup of SNAFU holds {len(cup.counters)} counter(s); cannot draw {n}"
        )
    rolls, drawn = [], []
    for _ in range(n):
        r = dice.roll(len(cup.counters), "Cup of SNAFU draw")
        rolls.append(r)
        c = cup.counters[r.value - 1]
        drawn.append(c)
        cup = cup.without(c)
    desc = "; ".join(f"{c} ({counter_row(c, t).side}: {' / '.join(faces(c, t))})" for c in drawn)
    return cup, ruling(
        "ROW-6.1",
        "Cup of SNAFU draw",
        f"For the {why}, drawn from the Cup of SNAFU: {desc}. "
        "(The cup's contents are a reconstruction, see data/row/tables/snafu_cup.csv.)",
        {"drawn": drawn},
        inputs={"why": why, "cup_size": len(cup.counters) + n},
        dice=rolls,
        lookup=Lookup(
            "Cup of SNAFU",
            drawn[0],
            "faces",
            " / ".join(faces(drawn[0], t)),
            reconstructed=True,
            source="data/row/tables/snafu_cup.csv",
        ),
    )


def placement_options(
    counter: str, units: Sequence[CombatUnit], *, optional: bool = False, t: CombatTables | None = None
) -> list[Action]:
    """ROW-6.1: where the placer may put ``counter``: on a unit of the counter's colour among ``units`` (the units in
    this combat, R-CBT-20, or the one disrupted/routed/OOC unit), with the face of his choice.  A Leader counter goes
    only on a unit without a leader marker (none: back to the cup).  ``optional`` draws add "discard"."""
    t = t or tables()
    row = counter_row(counter, t)
    opts: list[Action] = []
    for u in units:
        if u.side != row.side:
            continue
        for face in faces(counter, t):
            if face in LEADER_MARKERS and u.has(*LEADER_MARKERS):
                continue
            opts.append(
                Action.make("place_snafu", f"Put {face} on {u}", unit=u.uid, face=face, counter=counter)
            )
    if not opts:
        opts.append(
            Action.make(
                "return_snafu", f"No unit can take {counter}: it goes back to the cup", counter=counter
            )
        )
    elif optional:
        opts.append(Action.make("return_snafu", f"Do not place {counter}: back to the cup", counter=counter))
    return opts


@dataclass(frozen=True)
class SnafuOutcome:
    """What placing a SNAFU marker did: the unit after it, the counters back in the cup, loss-track points."""

    unit: CombatUnit
    returned: tuple[str, ...]
    losses: dict[str, int]
    radio_out_side: str | None
    key_officer_options: tuple[Action, ...]
    ruling: Ruling


def place_snafu(
    dice: Dice,
    counter: str,
    face: str,
    unit: CombatUnit,
    units_in_combat: Sequence[CombatUnit] = (),
    t: CombatTables | None = None,
) -> SnafuOutcome:
    """ROW-6.1 cases a-h: put face ``face`` of ``counter`` on ``unit`` and apply it.

    Leaders, Ammo and Fuel stay on the unit (Shortage + Shortage or Out -> Out; Out stays Out; the counter replaced
    goes back to the cup).  Ambush and Friendly Fire roll a D6 onto the marked side's loss track, Air Strike half a D10
    (rounded up) onto Body Count (R-CBT-12).  Radio Out marks the side as without adjacent support this combat.  Key
    Officer Killed returns the choices of the unit it strikes (``key_officer_options``).  Instant counters go back.
    """
    t = t or tables()
    row = counter_row(counter, t)
    if face not in faces(counter, t):
        raise IllegalAction("ROW-6.1", f"{counter} has no face {face!r} (faces: {faces(counter, t)})")
    if unit.side != row.side:
        raise IllegalAction("ROW-6.1", f"a {row.side} marker goes on a {row.side} unit, not on {unit} (6.1)")
    if face in LEADER_MARKERS and unit.has(*LEADER_MARKERS):
        raise IllegalAction("ROW-6.1", f"{unit} already has a leader marker (6.1 case a)")
    eff = t.snafu_markers[face]
    returned: list[str] = []
    losses: dict[str, int] = {}
    rolls = []
    radio = None
    kok: tuple[Action, ...] = ()
    new = unit
    lookup = Lookup("SNAFU markers", face, "effect", eff.effect, source="data/row/tables/snafu_markers.csv")
    if eff.effect in ("reroll_own", "reroll_enemy"):
        new = unit.with_markers(add=[face])
        text = f"{face} is placed on {unit}: " + (
            "its side may re-roll its own combat die once per combat."
            if eff.effect == "reroll_own"
            else "the enemy may re-roll this side's combat die once per combat."
        )
    elif eff.effect in ("ammo_shortage", "ammo_out", "fuel_shortage", "fuel_out"):
        kind = "Ammo" if eff.effect.startswith("ammo") else "Fuel"
        short, out = f"{kind} Shortage", f"{kind} Out"
        if unit.has(out):
            text = f"{unit} already has {out}; it keeps it and {face} has no further effect."
            returned.append(counter)
        elif unit.has(short):
            new = unit.with_markers(add=[out], remove=[short])
            text = f"{unit} had {short}; a second {kind} marker turns it into {out} (6.1 b, c)."
            returned.append(counter)  # one of the two counters is enough to show the Out face
        else:
            new = unit.with_markers(add=[face])
            text = f"{face} is placed on {unit}."
    elif eff.effect == "loss_roll":
        r = dice.roll(eff.die or 6, f"{face} losses")
        rolls.append(r)
        amount = math.ceil(r.value / 2) if eff.halve_up == "yes" else r.value
        track = "Body Count" if eff.loss_track == "body_count" else LOSS_TRACKS[row.side]
        losses[track] = amount
        text = (
            f"{face} ({row.side} marker, on {unit}): D{eff.die} = {r.value}"
            + (f", half rounded up = {amount}" if eff.halve_up == "yes" else "")
            + f" added to {track}."
        )
        returned.append(counter)
    elif eff.effect == "radio_out":
        radio = row.side
        text = f"Radio Out on {unit}: no adjacent-unit support for the {row.side} side in this combat."
        returned.append(counter)
    else:  # key_officer
        kok = tuple(key_officer_options(row.side, units_in_combat or (unit,)))
        text = (
            f"Key Officer Killed among the {row.side} units: the placer strikes "
            + (kok[0].get("strike", "nothing") if kok else "nothing")
            + " (6.1 case h, R-CBT-12)."
        )
        returned.append(counter)
    return SnafuOutcome(
        new,
        tuple(returned),
        losses,
        radio,
        kok,
        ruling(
            "ROW-6.1",
            f"SNAFU: {face}",
            text,
            {
                "unit": unit.uid,
                "face": face,
                "markers": sorted(new.markers),
                "losses": losses,
                "returned": returned,
            },
            inputs={"counter": counter, "face": face, "unit": unit.uid},
            dice=rolls,
            lookup=lookup,
            changes=[{"unit": unit.uid, "markers": sorted(new.markers)}],
            side=row.side,
        ),
    )


def key_officer_options(side: str, units: Sequence[CombatUnit]) -> list[Action]:
    """ROW-6.1 case h (R-CBT-12): the units of ``side`` in the combat that Key Officer Killed may strike: those with a
    Great Leader; if none, those with an Elite/Guards marker; if none, any (it gains an Incompetent Leader)."""
    mine = [u for u in units if u.side == side]
    gl = [u for u in mine if u.has("Great Leader")]
    if gl:
        return [
            Action.make("key_officer", f"Remove the Great Leader of {u}", unit=u.uid, strike="Great Leader")
            for u in gl
        ]
    elite = [u for u in mine if u.has("Elite", "Guards")]
    if elite:
        return [
            Action.make("key_officer", f"Remove the elite marker of {u}", unit=u.uid, strike="Elite/Guards")
            for u in elite
        ]
    return [
        Action.make("key_officer", f"Give {u} an Incompetent Leader", unit=u.uid, strike="Incompetent Leader")
        for u in mine
        if not u.has(*LEADER_MARKERS)
    ]


def key_officer(unit: CombatUnit, strike: str) -> tuple[CombatUnit, Ruling]:
    """ROW-6.1 case h: apply the chosen Key Officer Killed strike to ``unit``."""
    if strike == "Great Leader":
        if not unit.has("Great Leader"):
            raise IllegalAction("ROW-6.1", f"{unit} has no Great Leader")
        new = unit.with_markers(remove=["Great Leader"])
    elif strike == "Elite/Guards":
        if not unit.has("Elite", "Guards"):
            raise IllegalAction("ROW-6.1", f"{unit} has no Elite/Guards marker")
        new = unit.with_markers(remove=["Elite", "Guards"])
    elif strike == "Incompetent Leader":
        if unit.has(*LEADER_MARKERS):
            raise IllegalAction("ROW-6.1", f"{unit} already has a leader marker")
        new = unit.with_markers(add=["Incompetent Leader"])
    else:
        raise IllegalAction("ROW-6.1", f"unknown Key Officer Killed strike {strike!r}")
    verb = "gains an Incompetent Leader" if strike == "Incompetent Leader" else f"loses its {strike} marker"
    return new, ruling(
        "ROW-6.1",
        "Key Officer Killed",
        f"{unit} {verb}.",
        {"unit": unit.uid, "strike": strike},
        changes=[{"unit": unit.uid, "markers": sorted(new.markers)}],
        side=unit.side,
    )


def quality_marker(unit: CombatUnit, marker: str) -> tuple[CombatUnit, Ruling]:
    """ROW-5.4.2: put the quality marker of a special roll on the owner's chosen unit (none there yet)."""
    if unit.has(*ALL_QUALITY):
        raise IllegalAction("ROW-5.4.2", f"{unit} already carries a unit quality marker")
    want = {CAPITALIST: ("Elite", "Poor"), COMMUNIST: ("Guards", "Penal")}[unit.side]
    if marker not in want:
        raise IllegalAction("ROW-5.4.2", f"a {unit.side} unit takes {' or '.join(want)}, not {marker}")
    new = unit.with_markers(add=[marker])
    return new, ruling(
        "ROW-5.4.2",
        "Unit quality marker",
        f"{unit} becomes {marker}; it counts in this combat.",
        {"unit": unit.uid, "marker": marker},
        changes=[{"unit": unit.uid, "markers": sorted(new.markers)}],
        side=unit.side,
    )
