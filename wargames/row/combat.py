"""Combat (ROW-5.0 - ROW-5.4, ROW-8.2): who fights, support, adjacency, size, terrain, the dice and the final spread.

Rumor of War has no odds and no results table: each side adds its support to one die and the difference of
the two totals, the *spread*, is what the loser must absorb (``losses``).  Each function here is one step of
the procedure of the rules (digest 3.8.11) and returns a :class:`~wargames.core.rulings.Ruling`: the rule id,
the numbers that went in, the dice as :class:`~wargames.core.rulings.Roll` values, the table cell as a
:class:`~wargames.core.rulings.Lookup`, the result and an explanation built from the same numbers.  The
functions are pure: they change no game state; the caller applies ``result`` and ``changes``.  Every choice the
rules leave to a player (how much support to use, which supporters, which die a fresh defender rolls, a leader's
re-roll, where a quality marker goes) is returned as options or taken as an argument, never made here.

* ROW-5.1 / ROW-5.3.3 / ROW-6.2: who may take part (routed units never attack or support; R-CBT-06 the hex's units
  all defend).
* ROW-5.3.1 / ROW-5.3.2 / ROW-5.3.5 / ROW-8.0 / ROW-8.2: support = (level - planning deduction) x terrain factor, rounded
  down; trace, Fire Base, road bonus, bombardment, Restricted Ops, Ammo and Fuel markers (ROW-6.1), Disrupted,
  Routed and OOC (ROW-6.2); decisions R-CBT-05, R-CBT-07, R-CBT-15.
* ROW-5.3.3 adjacent-unit support (1+2+3.. for the attacker, doubled in a Deliberate Attack; 2 each for the
  defender; R-CBT-16 for marked units).  ROW-5.3.4 size.  ROW-5.4.3 terrain and the two totals.
* ROW-5.4.1 combat dice (R-CBT-21), ROW-6.1 leader re-rolls (R-CBT-17), ROW-5.4.2 special rolls (R-CBT-10).
* ROW-5.6 the spread: tie, cap of 5, quality (ROW-5.4.3), ground commanders (ROW-14.2.2), fortifications and
  bunkers (ROW-6.2, R-CBT-18), in one signed convention (R-CBT-01).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..core import Action, IllegalAction
from ..core.dice import Dice
from ..core.rulings import Lookup, Ruling
from .combat_sides import (  # noqa: F401 - the sides of a combat (ROW-7.0), re-exported: combat.<name> keeps working
    ALL_QUALITY,
    ATTACKER,
    CAPITALIST,
    COMMUNIST,
    DEFENDER,
    LEADER_MARKERS,
    QUALITY_MARKERS,
    CombatSides,
    CombatUnit,
    check_participants,
    other_side,
    ruling,
)
from .tables import SUPPORT_TYPES, Chit, CombatTables, tables


# ------------------------------------------------------------------------------------------ support
@dataclass(frozen=True)
class SupportSituation:
    """What governs one side's tank, artillery, air and bombardment support in one combat (ROW-5.3, ROW-8.2).

    ``levels``: the Support Level Track values of the tracks this side's combat uses (R-CBT-05), keyed ``tank``,
    ``artillery``, ``air``, ``bombardment``.  ``terrain_factor``: the combat hex's Effect on Support (1/1 - 1/4,
    the same for both sides).  ``trace``: the combat hex traces a LoC to a friendly HQ or cadre (or, for a US
    division's unit, its cadre within 4 hexes, ROW-9.4), needed for tank and artillery; ``fire_base``: a friendly
    Fire Base within 2 hexes gives artillery regardless (ROW-14.1.2).  ``bombardment_in_range``: the 7th Fleet
    can reach the hex (ROW-5.3.2, ROW-11.2).  ``restricted``: Restricted Ops (ROW-5.3.5).  ``road_bonus``: the
    attacker chose to pay 1 tank level to ignore terrain for tanks (ROW-5.3.1).  ``interdicted``: air
    interdiction denies tank and artillery (ROW-10.4.1).  ``no_support``: a reason this side gets no support at all
    (a discovered tunnel attacked, ROW-14.3; Westmoreland's ARVN, ROW-14.2.1; ...).  ``planning_relief``: the
    theater commander's -1 to a deduction (Giap artillery, An tank, ROW-14.2.1).
    """

    levels: Mapping[str, int]
    terrain_factor: Fraction = Fraction(1)
    trace: bool = True
    fire_base: bool = False
    bombardment_in_range: bool = False
    restricted: bool = False
    road_bonus: bool = False
    interdicted: bool = False
    no_support: str = ""
    planning_relief: Mapping[str, int] = field(default_factory=dict)


def _floor(x: Fraction) -> int:
    return math.floor(x)


def available_support(
    c: CombatSides, role: str, sit: SupportSituation, t: CombatTables | None = None
) -> Ruling:
    """ROW-5.3.1 / ROW-5.3.2 / ROW-5.3.5 / ROW-8.2: the most tank, artillery, air and bombardment support ``role`` may add.

    For each type: (level - planning deduction, never below 0, R-CBT-07) x terrain factor, rounded down; the
    attacker's deductions are the chit's Spt row, the defender's the row of the declared combat type (R-CBT-02);
    bombardment always deducts 2 and uses the artillery terrain factor; air counts at most 19 (ROW-8.2).  Then
    Restricted Ops halve artillery, air and bombardment, and an Ammo or Fuel Shortage on the declaring (defending)
    unit halves artillery or tank (R-CBT-15); an Out marker removes it (ROW-6.1).  Tank and artillery need a
    trace (artillery also a Fire Base); a Disrupted defender has no tank or artillery, a Routed defender and an
    OOC unit no support at all (ROW-6.2).  ``result`` maps each type to its maximum; ``commit_support`` takes the
    player's choice of how much of it to use.
    """
    t = t or tables()
    if role not in (ATTACKER, DEFENDER):
        raise ValueError(f"role must be attacker or defender, not {role!r}")
    side = c.attacker_side if role == ATTACKER else c.defender_side
    row_key = c.chit.spt if role == ATTACKER else t.costs[c.combat_type].planning_row
    plan = t.planning[row_key]
    key = c.key_units(role)
    notes: list[str] = []
    out: dict[str, int] = {}
    steps: dict[str, str] = {}
    for kind in SUPPORT_TYPES:
        level = int(sit.levels.get(kind, 0) or 0)
        if kind == "air" and level > 19:
            notes.append(f"air level {level} counts as 19 (8.2)")
            level = 19
        deduction = max(0, getattr(plan, kind) - int(sit.planning_relief.get(kind, 0)))
        base = max(0, level - deduction)
        factor = (
            Fraction(1) if (kind == "tank" and sit.road_bonus and role == ATTACKER) else sit.terrain_factor
        )
        value = _floor(base * factor)
        step = f"({level} - {deduction}) x {factor} = {value}"
        if kind in ("artillery", "air", "bombardment") and sit.restricted and value:
            value //= 2
            step += f", halved for Restricted Ops = {value}"
        out[kind], steps[kind] = value, step

    # gates: a zero with its reason
    def deny(kinds: Iterable[str], why: str) -> None:
        for k in kinds:
            if out[k]:
                out[k] = 0
                steps[k] += f"; none: {why}"
        notes.append(why)

    if not sit.bombardment_in_range or side != CAPITALIST:
        if out["bombardment"]:
            deny(["bombardment"], "no 7th Fleet bombardment reaches this hex (5.3.2)")
        out["bombardment"] = 0
    if any(u.has("Fuel Out") for u in key):
        deny(
            ["tank"], "Fuel Out on the " + ("declaring" if role == ATTACKER else "defending") + " unit (6.1c)"
        )
    elif any(u.has("Fuel Shortage") for u in key) and out["tank"]:
        out["tank"] //= 2
        steps["tank"] += f", halved for Fuel Shortage = {out['tank']}"
    if any(u.has("Ammo Out") for u in key):
        deny(
            ["artillery"],
            "Ammo Out on the " + ("declaring" if role == ATTACKER else "defending") + " unit (6.1b)",
        )
    elif any(u.has("Ammo Shortage") for u in key) and out["artillery"]:
        out["artillery"] //= 2
        steps["artillery"] += f", halved for Ammo Shortage = {out['artillery']}"
    if not sit.trace:
        deny(["tank"], "the combat hex traces no LoC to a friendly HQ or cadre (5.3.1)")
        if not sit.fire_base:
            deny(["artillery"], "no LoC to a friendly HQ or cadre and no Fire Base in range (5.3.1, 14.1.2)")
    if sit.interdicted:
        deny(["tank", "artillery"], "air interdiction of the combat hex (10.4.1)")
    if role == DEFENDER and any(u.has("Disrupted") for u in key):
        deny(["tank", "artillery"], "a Disrupted defender gets no tank or artillery (6.2 case f)")
    if role == DEFENDER and any(u.has("Routed") for u in key):
        deny(SUPPORT_TYPES, "a Routed defender gets no support (6.2 case g)")
    if any(u.has("OOC") for u in key):
        deny(SUPPORT_TYPES, "an OOC unit uses no support (6.2 case i)")
    if sit.no_support:
        deny(SUPPORT_TYPES, sit.no_support)
    rule = "ROW-5.3.1"
    row_name = row_key if role == ATTACKER else t.costs[c.combat_type].label
    text = (
        f"The {role} ({side}) plans on row {row_name} of the Support Planning Table (deductions tank "
        f"{plan.tank}, artillery {plan.artillery}, air {plan.air}, bombardment {plan.bombardment}); terrain "
        f"factor {sit.terrain_factor}. "
        + "; ".join(f"{k}: {steps[k]}" for k in SUPPORT_TYPES)
        + ". "
        + ("Also: " + "; ".join(dict.fromkeys(notes)) + ". " if notes else "")
        + "The player may use less than this (5.3.1)."
    )
    return ruling(
        rule,
        f"{role.capitalize()} support available",
        text,
        dict(out),
        inputs={
            "role": role,
            "planning_row": row_key,
            "levels": dict(sit.levels),
            "terrain_factor": str(sit.terrain_factor),
            "restricted": sit.restricted,
            "road_bonus": sit.road_bonus and role == ATTACKER,
        },
        lookup=Lookup(
            "Support Planning Table",
            row_key,
            "tank/artillery/air/bombardment",
            f"{plan.tank}/{plan.artillery}/{plan.air}/{plan.bombardment}",
            source="data/row/tables/support_planning.csv",
        ),
        side=side,
        places=[c.hex],
    )


def support_levels(
    c: CombatSides, role: str, track_levels: Mapping[str, int], t: CombatTables | None = None
) -> Ruling:
    """ROW-8.1 / ROW-8.0 (R-CBT-05): the support levels a side's combat draws on: the tracks of the declaring unit's
    nationality, or in defence of the largest unit in the hex (the first listed on a tie), read from
    ``track_levels`` (track name -> marker value, e.g. ``{"US Artillery": 8}``).  A type without a track is 0."""
    t = t or tables()
    if role == ATTACKER:
        who = c.declarer
    else:
        who = sorted(c.defenders, key=lambda u: u.size_class)[0]
    row = t.support_tracks[who.nationality]
    levels = {}
    names = {}
    for kind in SUPPORT_TYPES:
        track = getattr(row, kind)
        names[kind] = track
        levels[kind] = int(track_levels.get(track, 0)) if track else 0
    listed = ", ".join(f"{k} {names[k]} {levels[k]}" if names[k] else f"{k} none" for k in SUPPORT_TYPES)
    return ruling(
        "ROW-8.0",
        f"{role.capitalize()} support tracks",
        f"{who} fights with its nationality's tracks (R-CBT-05): {listed}.",
        levels,
        inputs={"unit": who.uid, "nationality": who.nationality},
        lookup=Lookup(
            "Support tracks",
            who.nationality,
            "tank/artillery/air/bombardment",
            "/".join(names[k] or "-" for k in SUPPORT_TYPES),
            source="data/row/tables/support_tracks.csv",
        ),
        side=who.side,
    )


def cut_support(
    committed: Mapping[str, int], available: Mapping[str, int], role: str, why: str = ""
) -> Ruling:
    """ROW-5.5: a random event that lowers a side's support (an Ammo or Fuel marker placed) cuts what it committed
    down to what is now available, at once."""
    new = {k: min(int(committed.get(k, 0)), int(available.get(k, 0))) for k in SUPPORT_TYPES}
    cut = {k: int(committed.get(k, 0)) - new[k] for k in SUPPORT_TYPES if int(committed.get(k, 0)) > new[k]}
    text = (
        f"After the random event{' (' + why + ')' if why else ''} the {role}'s support is cut by {cut}: "
        f"{sum(new.values())} remains."
        if cut
        else f"The random event leaves the {role}'s support unchanged."
    )
    return ruling(
        "ROW-5.5",
        "Support after the random event",
        text,
        {"support": new, "total": sum(new.values())},
        inputs={"committed": dict(committed), "available": dict(available)},
    )


def commit_support(
    available: Mapping[str, int], chosen: Mapping[str, int] | None, role: str, side: str = ""
) -> Ruling:
    """ROW-5.3.1: the player commits at most the available support of each type (``None`` = all of it)."""
    chosen = dict(available) if chosen is None else {k: int(chosen.get(k, 0)) for k in SUPPORT_TYPES}
    for k in SUPPORT_TYPES:
        if chosen[k] < 0 or chosen[k] > available.get(k, 0):
            raise IllegalAction(
                "ROW-5.3.1", f"{role} {k} support must be 0-{available.get(k, 0)}, not {chosen[k]}"
            )
    total = sum(chosen[k] for k in SUPPORT_TYPES)
    declined = {k: available[k] - chosen[k] for k in SUPPORT_TYPES if available.get(k, 0) > chosen[k]}
    return ruling(
        "ROW-5.3.1",
        f"{role.capitalize()} commits support",
        f"The {role} adds tank {chosen['tank']}, artillery {chosen['artillery']}, air {chosen['air']}, "
        f"bombardment {chosen['bombardment']} = {total}"
        + (
            f"; declines {', '.join(f'{k} {n}' for k, n in declined.items())} (support used may be lost in a "
            "retreat, 5.6)."
            if declined
            else "."
        ),
        {"support": chosen, "total": total},
        inputs={"available": dict(available)},
        side=side,
    )


def adjacent_support(
    c: CombatSides, role: str, radio_out: bool = False, no_support: str = "", t: CombatTables | None = None
) -> Ruling:
    """ROW-5.3.3: the modifier of the chosen supporting units (attacker 1+2+..+n, doubled in a Deliberate
    Attack; defender 2 per unit).  Radio Out for this side, or Ammo Out / Fuel Out on the declaring (defending)
    unit, removes it; an Ammo or Fuel Shortage halves it once (R-CBT-16); ``no_support`` (a discovered tunnel
    attacked, ROW-14.3) removes it.
    """
    t = t or tables()
    row = t.adjacent[role]
    supporters = c.attack_supporters if role == ATTACKER else c.defense_supporters
    n = len(supporters)
    if row.scheme == "triangular":
        value = row.step * n * (n + 1) // 2
        parts = " + ".join(str(row.step * k) for k in range(1, n + 1)) or "0"
    else:
        value = row.step * n
        parts = f"{n} x {row.step}"
    mult = t.costs[c.combat_type].adjacent_multiplier if role == ATTACKER else 1
    value *= mult
    text = (
        f"{n} supporting unit(s) for the {role}: {parts}"
        + (f", x{mult} for a Deliberate Attack" if mult > 1 else "")
        + f" = {value}"
    )
    key = c.key_units(role)
    why = ""
    if no_support:
        why = no_support
    elif role == DEFENDER and any(u.has("Routed") for u in key):
        why = "a Routed defender receives no support of any kind (6.2 case g, R-CBT-23)"
    elif any(u.has("OOC") for u in key):
        why = "an OOC unit uses no support of any type (6.2 case i, R-CBT-23)"
    elif radio_out:
        why = "Radio Out: no adjacent-unit bonus for this side in this combat (6.1 case e)"
    elif any(u.has("Ammo Out", "Fuel Out") for u in key):
        why = (
            "Ammo/Fuel Out on the " + ("declaring" if role == ATTACKER else "defending") + " unit (6.1 b, c)"
        )
    if why and value:
        value = 0
        text += f"; none: {why}"
    elif value and any(u.has("Ammo Shortage", "Fuel Shortage") for u in key):
        value //= 2
        text += f"; halved (rounded down) for an Ammo/Fuel Shortage = {value} (R-CBT-16)"
    side = c.attacker_side if role == ATTACKER else c.defender_side
    return ruling(
        "ROW-5.3.3",
        f"{role.capitalize()} adjacent-unit support",
        text + ".",
        value,
        inputs={"role": role, "supporters": [u.uid for u in supporters], "combat_type": c.combat_type},
        lookup=Lookup(
            "Adjacent support", role, f"n={n}", str(value), source="data/row/tables/adjacent_support.csv"
        ),
        side=side,
        places=[c.hex],
    )


def largest_class(units: Iterable[CombatUnit]) -> str:
    """ROW-5.3.4: the largest size class among ``units`` (A > B > C)."""
    classes = sorted(u.size_class for u in units)
    if not classes:
        raise ValueError("no unit on this side")
    return classes[0]


def size_modifiers(c: CombatSides, t: CombatTables | None = None) -> Ruling:
    """ROW-5.3.4: compare the largest class on each side (supporters included): A over B +2, A over C +4, B over C +2."""
    t = t or tables()
    a, d = largest_class(c.attackers()), largest_class(c.defending())
    am, dm = t.size_modifiers[(a, d)], t.size_modifiers[(d, a)]
    return ruling(
        "ROW-5.3.4",
        "Size difference",
        f"Largest unit: attacker class {a}, defender class {d}; the attacker adds {am}, the defender {dm}.",
        {ATTACKER: am, DEFENDER: dm},
        inputs={"attacker_class": a, "defender_class": d},
        lookup=Lookup("Size modifiers", a, d, f"{am}/{dm}", source="data/row/tables/size_modifiers.csv"),
        places=[c.hex],
    )


def terrain_modifier(
    hex_id: str,
    terrain: str,
    die_mod: int,
    river_mod: int = 0,
    every_attacker_across_river: bool = False,
    reconstructed: bool = True,
) -> Ruling:
    """ROW-5.4.3: the defender adds the combat hex's terrain modifier (Terrain Effects Chart), and the river bonus
    only if the declarer and every supporting attacker attack across a river."""
    river = river_mod if every_attacker_across_river else 0
    total = die_mod + river
    text = f"The defender in {terrain} ({hex_id}) adds {die_mod}"
    if river_mod:
        text += (
            f" and {river_mod} because every attacker is across a river"
            if river
            else "; no river bonus since not every attacker attacks across the river"
        )
    return ruling(
        "ROW-5.4.3",
        "Terrain",
        text + f": {total}.",
        total,
        inputs={
            "terrain": terrain,
            "die_mod": die_mod,
            "river_mod": river_mod,
            "every_attacker_across_river": every_attacker_across_river,
        },
        lookup=Lookup(
            "Terrain Effects Chart",
            terrain,
            "defender die modifier",
            str(die_mod),
            reconstructed=reconstructed,
            source="Terrain Effects Chart",
        ),
        places=[hex_id],
    )


def die_mods(role: str, parts: Mapping[str, int], side: str = "") -> Ruling:
    """ROW-5.4.3: the "Die Mods" total of one side: the sum of its named modifiers (attacker first)."""
    total = sum(int(v) for v in parts.values())
    listed = ", ".join(f"{k} {v:+d}" for k, v in parts.items() if v) or "none"
    return ruling(
        "ROW-5.4.3",
        f"{role.capitalize()} die modifiers",
        f"The {role} adds {listed}: {total:+d}.",
        total,
        inputs={"role": role, **{k: int(v) for k, v in parts.items()}},
        side=side,
    )


# ------------------------------------------------------------------------------------------ dice
def defender_die_options(defenders: Sequence[CombatUnit], t: CombatTables | None = None) -> list[Action]:
    """ROW-5.4.1: a fresh defender chooses the D10 (and becomes spent) or the D6; a spent one rolls the D6
    (``combat_dice.csv``).  With several units in the hex the fresh row applies if any of them is fresh, and using
    the D10 flips every fresh one (R-CBT-21)."""
    t = t or tables()
    state = "fresh" if any(u.fresh for u in defenders) else "spent"
    row = next(r for r in t.dice if r.role == DEFENDER and r.condition == state)
    opts = []
    for die in filter(None, (row.die, row.optional_die)):
        n = int(die[1:])
        flips = row.flips_to_spent == "yes" and n == int(row.die[1:])
        label = f"Roll the {die}" + (
            " (the fresh defenders become spent)"
            if flips
            else " (stay fresh)"
            if state == "fresh"
            else " (spent defender)"
        )
        opts.append(Action.make("defender_die", label, die=n))
    return opts


def roll_attacker(dice: Dice, chit: Chit, side: str = "") -> Ruling:
    """ROW-5.4.1 / ROW-5.2.1: the attacker rolls the die printed on the chit (its modifier is added in the totals)."""
    r = dice.roll(chit.die, "attacker combat die")
    return ruling(
        "ROW-5.4.1",
        "Attacker's combat die",
        f"Chit {chit.id} names a D{chit.die} {chit.modifier:+d}: the attacker rolls {r.value}.",
        r.value,
        inputs={"chit": chit.id, "die": chit.die, "chit_modifier": chit.modifier},
        dice=[r],
        lookup=Lookup(
            "Combat chit",
            chit.id,
            "die",
            f"D{chit.die} {chit.modifier:+d}",
            reconstructed=chit.reconstructed,
            source="data/row/tables/combat_chits.csv",
        ),
        side=side,
    )


def roll_defender(dice: Dice, die: int, defenders: Sequence[CombatUnit], side: str = "") -> Ruling:
    """ROW-5.4.1: the defender rolls its chosen die; a D10 flips every fresh defending unit spent (R-CBT-21)."""
    legal = [a["die"] for a in defender_die_options(defenders)]
    if die not in legal:
        raise IllegalAction("ROW-5.4.1", f"a spent defender rolls the D6 (choices: {legal})")
    r = dice.roll(die, "defender combat die")
    flipped = [u.uid for u in defenders if u.fresh] if die == 10 else []
    text = f"The defender rolls a D{die}: {r.value}."
    if flipped:
        text += f" Rolling the D10 flips {', '.join(flipped)} to spent."
    return ruling(
        "ROW-5.4.1",
        "Defender's combat die",
        text,
        r.value,
        inputs={"die": die},
        dice=[r],
        changes=[{"unit": u, "fresh": False} for u in flipped],
        side=side,
    )


def reroll_options(c: CombatSides, role: str, used: Mapping[str, int] | None = None) -> list[Action]:
    """ROW-6.1 case a: the re-rolls ``role`` may still make: one of its own die per own Great Leader unit in
    the combat, one of the enemy's die per enemy Incompetent Leader unit (R-CBT-17).  ``used`` counts re-rolls
    already made by this role (``own`` and ``enemy``).  Always voluntary: "pass" is one of the options.
    """
    used = used or {}
    mine = c.units(role)
    theirs = c.units(DEFENDER if role == ATTACKER else ATTACKER)
    own = sum(1 for u in mine if u.has("Great Leader")) - used.get("own", 0)
    enemy = sum(1 for u in theirs if u.has("Incompetent Leader")) - used.get("enemy", 0)
    opts = [Action.make("pass_reroll", "Keep the dice")]
    if own > 0:
        opts.append(Action.make("reroll", "Re-roll your own combat die (Great Leader)", which="own"))
    if enemy > 0:
        opts.append(
            Action.make("reroll", "Re-roll the enemy's combat die (his Incompetent Leader)", which="enemy")
        )
    return opts


def reroll(
    dice: Dice, c: CombatSides, role: str, which: str, die: int, used: Mapping[str, int] | None = None
) -> Ruling:
    """ROW-6.1 case a: one leader re-roll; the new value replaces the old die (R-CBT-17)."""
    legal = [a.get("which") for a in reroll_options(c, role, used) if a.kind == "reroll"]
    if which not in legal:
        raise IllegalAction("ROW-6.1", f"the {role} has no {which!r} re-roll left (Great/Incompetent Leader)")
    target = role if which == "own" else (DEFENDER if role == ATTACKER else ATTACKER)
    r = dice.roll(die, f"{target} combat die re-rolled")
    why = "its Great Leader" if which == "own" else "the enemy's Incompetent Leader"
    return ruling(
        "ROW-6.1",
        "Leader re-roll",
        f"The {role} uses {why} to re-roll the {target}'s D{die}: {r.value}.",
        {"die_of": target, "value": r.value},
        inputs={"role": role, "which": which},
        dice=[r],
    )


def special_roll(
    side: str, die: int, natural: int, units: Sequence[CombatUnit], t: CombatTables | None = None
) -> Ruling:
    """ROW-5.4.2: a natural 1 gives a Poor/Penal marker, a natural 6 on a D6 or 10 on a D10 an Elite/Guards
    marker, to one of the roller's units in the combat without a quality marker (the owner chooses: ``result``
    lists the candidates).  Judged on the kept die (R-CBT-10); no candidate, no marker."""
    t = t or tables()
    row = t.special.get((natural, die))
    if row is None:
        return ruling(
            "ROW-5.4.2",
            "Special roll",
            f"{side}: a natural {natural} on the D{die} is not special.",
            None,
            inputs={"side": side, "die": die, "natural": natural},
        )
    marker = row.capitalist_marker if side == CAPITALIST else row.communist_marker
    cands = [u.uid for u in units if u.side == side and not u.has(*ALL_QUALITY)]
    text = f"{side} rolled a natural {natural} on the D{die}: a {marker} marker "
    text += (
        f"goes on one of {', '.join(cands)} (owner's choice); it counts in this combat."
        if cands
        else "would be placed, but every unit of that side in the combat already has a quality marker."
    )
    return ruling(
        "ROW-5.4.2",
        "Special roll",
        text,
        {"marker": marker, "quality": row.quality, "candidates": cands},
        inputs={"side": side, "die": die, "natural": natural},
        lookup=Lookup(
            "Special rolls", str(natural), f"D{die}", marker, source="data/row/tables/special_rolls.csv"
        ),
        side=side,
    )


def special_roll_options(r: Ruling) -> list[Action]:
    """The owner's choice of the unit that takes the quality marker of a special roll (ROW-5.4.2)."""
    res = r.result or {}
    return [
        Action.make("quality_marker", f"Put the {res['marker']} marker on {u}", unit=u, marker=res["marker"])
        for u in res.get("candidates", [])
    ]


def side_quality_options(units: Sequence[CombatUnit]) -> list[str]:
    """ROW-5.4.3: the quality shift(s) a side may apply: ``[]``, ``["elite"]``, ``["poor"]``, or both when its units
    carry both kinds (the owner then picks one)."""
    kinds = {u.quality() for u in units} - {None}
    return sorted(kinds)


# ------------------------------------------------------------------------------------------ the spread
def final_spread(
    attacker_total: int,
    defender_total: int,
    *,
    attacker_quality: str | None = None,
    defender_quality: str | None = None,
    attacker_leader: int = 0,
    defender_leader: int = 0,
    defence_works: str | None = None,
    t: CombatTables | None = None,
) -> Ruling:
    """ROW-5.6 / ROW-5.4.3 / ROW-14.2.2 / ROW-6.2: the winner and the final spread (R-CBT-01).

    Signed spread s = attacker total - defender total; a tie is -1 (the attacker loses 1); |s| is capped at 5;
    then the attacker's shifts (Elite/Guards +1, Poor/Penal -1 towards him; his ground commander's value), then
    the defender's (likewise towards him; his commander; a Fortification or Bunker, ``defence_works``); a final 0
    is again -1.  ``result``: winner, loser and the spread the loser absorbs.
    """
    t = t or tables()
    for name, q in (("attacker_quality", attacker_quality), ("defender_quality", defender_quality)):
        if q not in (None, "elite", "poor"):
            raise ValueError(f"{name} must be 'elite', 'poor' or None, not {q!r} (5.4.3)")
    if defence_works is not None and defence_works not in t.spread_reductions:
        raise ValueError(
            f"defence_works must be one of {sorted(t.spread_reductions)}, not {defence_works!r} (6.2)"
        )
    raw = attacker_total - defender_total
    s = raw if raw != 0 else -1
    steps = [
        f"{attacker_total} - {defender_total} = {raw} (counted from the attacker's side: + favours him)"
        + (" (a tie: the attacker loses 1)" if raw == 0 else "")
    ]
    capped = max(-5, min(5, s))
    if capped != s:
        steps.append(f"capped at {capped}")
    s = capped
    shifts: list[tuple[str, int]] = []
    winner_now = ATTACKER if s > 0 else DEFENDER

    def q_shift(role: str, q: str | None) -> int:
        if q is None:
            return 0
        row = t.quality[q]
        wins = winner_now == role
        d = row.if_side_wins if wins else row.if_side_loses
        # d is the change of the spread's size seen from the marked side; signed towards that side:
        # if it wins, a bigger spread favours it; if it loses, a smaller spread favours it.
        towards = d if wins else -d
        return towards if role == ATTACKER else -towards

    for role, q, lead in (
        (ATTACKER, attacker_quality, attacker_leader),
        (DEFENDER, defender_quality, defender_leader),
    ):
        if q:
            label = "Elite/Guards" if q == "elite" else "Poor/Penal"
            shifts.append((f"{role} {label}", q_shift(role, q)))
        if lead:
            shifts.append((f"{role} ground commander", lead if role == ATTACKER else -lead))
    if defence_works:
        red = t.spread_reductions[defence_works].reduction
        shifts.append((f"defender {defence_works}", -red))
    for name, d in shifts:
        s += d
        steps.append(f"{name} {d:+d} -> {s}")
    if s == 0:
        s = -1
        steps.append("a final 0 counts as an attacker loss of 1")
    winner = ATTACKER if s > 0 else DEFENDER
    loser = DEFENDER if winner == ATTACKER else ATTACKER
    spread = abs(s)
    recon = bool(defence_works)
    return ruling(
        "ROW-5.6",
        "Combat spread",
        "Spread: " + "; ".join(steps) + f". The {winner} wins; the {loser} absorbs {spread}.",
        {"winner": winner, "loser": loser, "spread": spread, "signed": s, "raw": raw, "capped": capped},
        inputs={
            "attacker_total": attacker_total,
            "defender_total": defender_total,
            "attacker_quality": attacker_quality,
            "defender_quality": defender_quality,
            "attacker_leader": attacker_leader,
            "defender_leader": defender_leader,
            "defence_works": defence_works,
        },
        lookup=(
            Lookup(
                "Spread reductions",
                defence_works,
                "reduction",
                str(t.spread_reductions[defence_works].reduction),
                reconstructed=recon,
                source="data/row/tables/spread_reductions.csv",
            )
            if defence_works
            else None
        ),
    )
