"""The loser's losses, retreats and the advance after combat (ROW-5.6, ROW-5.7, ROW-6.2, ROW-14.3).

The loser absorbs the final spread point by point, by a mix of his own choosing (ROW-5.6): the engine offers the
legal ways (``loss_options``) and applies the one chosen (``apply_loss``); it never picks.

* retreat a participating unit 1-3 hexes (1 point per hex; Disrupted and Routed units cannot retreat);
* eliminate a unit (1 point; an elimination roll follows: C a D6, B a D10, A 2D6, onto its side's loss track,
  R-CBT-09);
* spend a loss point (at most 2 per combat: +1 US Casualties or Body Count, R-CBT-08); Westmoreland's Capitalist
  must use these first when a US unit took part (ROW-14.2.1, digest decision 57);
* spend a replacement (at most 1);
* eliminate every participating unit (those that retreated too) and ignore the rest; a Communist unit in a tunnel in
  its hex may retreat into it and so meet the whole spread (ROW-14.3).

Nothing of the spread is forgiven (R-CBT-24): once every unit has retreated or been eliminated, what is still owed
is paid with loss points or the replacement, or else by eliminating every unit that took part.

A losing attacker uses the same menu (R-CBT-13).  Retreats go farther from the combat hex each hex, never into an
enemy unit or ZoC (unless Evade, ROW-9.5); 2 hexes disrupt, 3 rout, a fresh unit turns spent, and the side loses
tank and artillery levels it used (R-CBT-11); the opponent draws from the Cup of SNAFU (``randomevents``).  If the
attacker won and the hex is empty, the declarer and the active supporters may advance and exploit the chit's Adv
(ROW-5.7; after a Meeting Engagement too, R-CBT-04).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..core import Action, IllegalAction
from ..core.dice import Dice
from ..core.rulings import Lookup, Ruling
from .combat import ATTACKER, CAPITALIST, COMMUNIST, CombatSides, CombatUnit, ruling
from .randomevents import LOSS_TRACKS, placement_options
from .tables import CombatTables, tables


@dataclass(frozen=True)
class LossState:
    """How far the loser has got in absorbing the spread (ROW-5.6)."""

    role: str
    side: str
    spread: int
    units: tuple[str, ...]
    remaining: int
    retreats: tuple[tuple[str, int], ...] = ()
    eliminated: tuple[str, ...] = ()
    loss_points: int = 0
    replacements: int = 0
    all_eliminated: bool = False
    tunnel: str | None = None

    @property
    def done(self) -> bool:
        return self.remaining <= 0

    def untouched(self) -> list[str]:
        """Participating units neither retreated nor eliminated yet."""
        gone = set(self.eliminated) | {u for u, _ in self.retreats}
        return [u for u in self.units if u not in gone]


def start_losses(c: CombatSides, spread: Ruling) -> LossState:
    """ROW-5.6: the loser and the units that may absorb its spread (its declarer/defenders and the supporters that
    added to its die)."""
    role = spread.result["loser"]
    units = c.attackers() if role == ATTACKER else c.defending()
    side = c.attacker_side if role == ATTACKER else c.defender_side
    return LossState(
        role, side, spread.result["spread"], tuple(u.uid for u in units), spread.result["spread"]
    )


def _limits(t: CombatTables) -> dict[str, int | None]:
    return {w: r.max_per_combat for w, r in t.loss_limits.items()}


def loss_options(
    state: LossState,
    units: Mapping[str, CombatUnit],
    *,
    max_retreat: Mapping[str, int] | None = None,
    replacements_available: int = 0,
    tunnel_units: Sequence[str] = (),
    westmoreland: bool = False,
    t: CombatTables | None = None,
) -> list[Action]:
    """ROW-5.6: every legal way to absorb the next point(s) of the spread.

    ``max_retreat``: how many hexes each unit can legally retreat on the map (default 3); ``tunnel_units``:
    Communist units standing in a hex with a tunnel (ROW-14.3); ``westmoreland``: the Capitalist must first use
    casualty points (up to 2) if a US unit took part (ROW-14.2.1).
    """
    t = t or tables()
    if state.done:
        return []
    lim = _limits(t)
    opts: list[Action] = []
    max_hexes = lim["retreat_hex"] or 3
    if (
        westmoreland
        and state.side == CAPITALIST
        and state.loss_points < (lim["loss_point"] or 2)
        and any(units[u].nationality == "US" for u in state.units)
    ):
        return [Action.make("loss_point", "Spend 1 US Casualties point (Westmoreland: casualties first)")]
    for uid in state.untouched():
        u = units[uid]
        reach = min(max_hexes, state.remaining, (max_retreat or {}).get(uid, max_hexes))
        if not u.has("Disrupted", "Routed"):
            for k in range(1, reach + 1):
                opts.append(Action.make("retreat", f"Retreat {u} {k} hex(es)", unit=uid, hexes=k))
        opts.append(Action.make("eliminate", f"Eliminate {u} (1 point, elimination roll)", unit=uid))
    for uid in tunnel_units:
        if uid in state.untouched() and units[uid].side == COMMUNIST:
            opts.append(
                Action.make(
                    "tunnel", f"{units[uid]} retreats into the tunnel: the whole spread is met", unit=uid
                )
            )
    if state.loss_points < (lim["loss_point"] or 2):
        opts.append(Action.make("loss_point", f"Spend 1 {LOSS_TRACKS[state.side]} point"))
    if state.replacements < (lim["replacement"] or 1) and replacements_available > 0:
        opts.append(Action.make("replacement", "Spend 1 replacement point"))
    opts.append(
        Action.make("eliminate_all", "Eliminate every unit that took part and ignore the rest of the spread")
    )
    return opts


def apply_loss(
    state: LossState, action: Action, units: Mapping[str, CombatUnit], **kw
) -> tuple[LossState, Ruling]:
    """ROW-5.6 / ROW-14.3: apply one chosen way of absorbing losses (it must be one of ``loss_options``).

    Returns the new state and its ruling; a retreat's hexes are then chosen with ``retreat_step_options`` and its
    effects given by ``retreat_result``; an elimination's roll by ``elimination_roll``.
    """
    legal = loss_options(state, units, **kw)
    if action not in legal:
        raise IllegalAction(
            "ROW-5.6",
            f"{action.describe()} is not a legal way to absorb this loss now "
            f"(choices: {', '.join(a.describe() for a in legal) or 'none: the spread is met'})",
        )
    k = action.kind
    side = state.side
    if k == "retreat":
        n = action["hexes"]
        new = replace(state, retreats=(*state.retreats, (action["unit"], n)), remaining=state.remaining - n)
        text = f"{units[action['unit']]} retreats {n} hex(es): {n} point(s)."
        result = {"way": k, "unit": action["unit"], "hexes": n}
    elif k == "eliminate":
        new = replace(state, eliminated=(*state.eliminated, action["unit"]), remaining=state.remaining - 1)
        text = f"{units[action['unit']]} is eliminated (to the Replacements box): 1 point."
        result = {"way": k, "unit": action["unit"]}
    elif k == "loss_point":
        new = replace(state, loss_points=state.loss_points + 1, remaining=state.remaining - 1)
        text = f"The {side} pays 1 point on {LOSS_TRACKS[side]} (R-CBT-08)."
        result = {"way": k, "track": LOSS_TRACKS[side], "amount": 1}
    elif k == "replacement":
        new = replace(state, replacements=state.replacements + 1, remaining=state.remaining - 1)
        text = f"The {side} spends 1 replacement point."
        result = {"way": k, "replacements": -1}
    elif k == "tunnel":
        new = replace(state, tunnel=action["unit"], remaining=0)
        text = f"{units[action['unit']]} retreats into its hex's tunnel and so meets the whole spread (14.3)."
        result = {"way": k, "unit": action["unit"]}
    else:  # eliminate_all: every participating unit still on the map, those that retreated included
        rest = tuple(u for u in state.units if u not in state.eliminated)
        new = replace(state, eliminated=(*state.eliminated, *rest), all_eliminated=True, remaining=0)
        text = f"Every unit that took part is eliminated ({', '.join(rest) or 'none left'}); the rest is ignored."
        result = {"way": k, "units": list(rest)}
    if new.remaining > 0 and not new.all_eliminated and set(new.eliminated) >= set(new.units):
        # R-CBT-24: every unit that took part is now eliminated, which is the 5.6 alternative itself
        text += " Every unit that took part is eliminated: as in the 5.6 alternative, the rest is not paid."
        new = replace(new, remaining=0, all_eliminated=True)
    elif new.remaining > 0 and not new.untouched():
        # R-CBT-24: nothing is forgiven while a unit that took part is still on the map
        text += (
            " Every unit has retreated or been eliminated, yet points are still owed: they are paid with loss "
            "points or a replacement, or by eliminating every unit that took part (R-CBT-24)."
        )
    result["remaining"] = new.remaining
    rule = "ROW-14.3" if k == "tunnel" else "ROW-5.6"
    return new, ruling(
        rule,
        "Loss absorbed",
        text + f" {new.remaining} of {state.spread} left.",
        result,
        inputs={"spread": state.spread, "before": state.remaining, "choice": action.describe()},
        side=side,
    )


def elimination_roll(dice: Dice, unit: CombatUnit, t: CombatTables | None = None) -> Ruling:
    """ROW-5.6: an eliminated unit's loss roll by size class (C: D6, B: D10, A: 2D6) onto its side's track:
    US Casualties for a US unit, Body Count for a Communist one, no track for other Capitalists (R-CBT-09)."""
    t = t or tables()
    row = t.elimination[unit.size_class]
    rolls = [dice.roll(row.die, f"elimination roll ({unit.uid})") for _ in range(row.dice)]
    total = sum(r.value for r in rolls)
    if unit.side == COMMUNIST:
        track = "Body Count"
    elif unit.nationality == "US":
        track = "US Casualties"
    else:
        track = None
    text = f"{unit} (class {unit.size_class}) is eliminated: {row.dice}D{row.die} = {total}" + (
        f" added to {track}."
        if track
        else "; the Casualty track counts only US losses, so no track changes (R-CBT-09)."
    )
    return ruling(
        "ROW-5.6",
        "Elimination roll",
        text,
        {"unit": unit.uid, "track": track, "amount": total if track else 0},
        inputs={"unit": unit.uid, "size_class": unit.size_class},
        dice=rolls,
        lookup=Lookup(
            "Elimination rolls",
            unit.size_class,
            "roll",
            f"{row.dice}D{row.die}",
            source="data/row/tables/elimination_rolls.csv",
        ),
        side=unit.side,
    )


# ------------------------------------------------------------------------------------------ retreats
def retreat_step_options(
    path: Sequence[str],
    combat_hex: str,
    *,
    neighbours: Callable[[str], Iterable[str]],
    distance: Callable[[str, str], int],
    enemy_occupied: Callable[[str], bool],
    enemy_zoc: Callable[[str], bool],
    evade: bool = False,
) -> list[Action]:
    """ROW-5.6: the hexes the next step of a retreat may enter from ``path[-1]``: farther from the combat hex than
    the last, not enemy-occupied, not in an enemy ZoC (unless Evade, ROW-9.5, at a D6 of Body Count per hex)."""
    here = path[-1]
    d = distance(here, combat_hex)
    out = []
    for n in sorted(neighbours(here)):
        if distance(n, combat_hex) <= d or enemy_occupied(n) or n in path:
            continue
        zoc = enemy_zoc(n)
        if zoc and not evade:
            continue
        out.append(
            Action.make(
                "retreat_to",
                f"Retreat into {n}" + (" (enemy ZoC: Evade, D6 Body Count)" if zoc else ""),
                [n],
                hex=n,
                zoc=zoc,
            )
        )
    return out


def evade_rolls(dice: Dice, zoc_hexes: Sequence[str], t: CombatTables | None = None) -> Ruling:
    """ROW-9.5 (Evade): a Communist unit retreating through enemy ZoC rolls a D6 of Body Count for each such hex
    (``loss_rolls.csv``)."""
    t = t or tables()
    row = t.loss_rolls["evade_retreat_through_zoc"]
    rolls = [
        dice.roll(row.die, f"Evade through enemy ZoC at {h}") for h in zoc_hexes for _ in range(row.dice)
    ]
    total = sum(r.value for r in rolls)
    return ruling(
        "ROW-9.5",
        "Evade retreat",
        f"Retreating through {len(rolls)} enemy-ZoC hex(es) under Evade: {total} Body Count.",
        {"track": "Body Count", "amount": total},
        inputs={"hexes": list(zoc_hexes)},
        dice=rolls,
        side=COMMUNIST,
    )


def check_retreat(path: Sequence[str], combat_hex: str, **geometry) -> Ruling:
    """ROW-5.6: a whole retreat path (start hex first) is legal, step by step; IllegalAction otherwise."""
    if not 2 <= len(path) <= 4:
        raise IllegalAction("ROW-5.6", f"a retreat is 1 to 3 hexes, not {len(path) - 1}")
    zoc_hexes = []
    for i in range(1, len(path)):
        legal = {a["hex"]: a for a in retreat_step_options(path[:i], combat_hex, **geometry)}
        if path[i] not in legal:
            raise IllegalAction(
                "ROW-5.6",
                f"{path[i]} is not a legal retreat step from {path[i - 1]} (farther from "
                f"{combat_hex}, no enemy unit, no enemy ZoC)",
            )
        if legal[path[i]]["zoc"]:
            zoc_hexes.append(path[i])
    return ruling(
        "ROW-5.6",
        "Retreat path",
        f"Retreat {' -> '.join(path)}"
        + (f"; {len(zoc_hexes)} enemy-ZoC hex(es) under Evade (9.5)." if zoc_hexes else "."),
        {"path": list(path), "hexes": len(path) - 1, "evade_zoc_hexes": zoc_hexes},
        places=list(path),
    )


def retreat_result(unit: CombatUnit, hexes: int, t: CombatTables | None = None) -> Ruling:
    """ROW-5.6 / ROW-6.2: a unit's retreat of ``hexes``: Disrupted at 2, Routed at 3, a fresh unit turns spent;
    the opponent's SNAFU draws (``snafu_draws``, of which he may place ``snafu_keep`` on this unit)."""
    t = t or tables()
    if not 1 <= hexes <= 3:
        raise IllegalAction("ROW-5.6", f"a retreat is 1 to 3 hexes, not {hexes}")
    if unit.has("Disrupted", "Routed"):
        raise IllegalAction("ROW-6.2", f"{unit} is Disrupted or Routed and cannot retreat (6.2 cases f, g)")
    row = t.retreat[hexes]
    bits = []
    add = [row.marker] if row.marker else []
    if row.marker:
        bits.append(f"it becomes {row.marker}")
    if unit.fresh:
        bits.append("it turns spent")
    if row.snafu_draws:
        bits.append(
            f"the opponent draws {row.snafu_draws} from the Cup of SNAFU and may place {row.snafu_keep} on it"
        )
    text = f"{unit} retreats {hexes} hex(es)" + (": " + "; ".join(bits) if bits else "") + "."
    change = {"unit": unit.uid, "fresh": False, "markers": sorted(unit.markers | set(add))}
    return ruling(
        "ROW-5.6",
        "Retreat",
        text,
        {
            "unit": unit.uid,
            "marker": row.marker,
            "snafu_draws": row.snafu_draws,
            "snafu_keep": row.snafu_keep,
            "tank_loss": row.tank_loss,
            "artillery_loss": row.artillery_loss,
        },
        inputs={"unit": unit.uid, "hexes": hexes, "fresh": unit.fresh},
        lookup=Lookup(
            "Retreat results",
            str(hexes),
            "marker",
            row.marker or "none",
            source="data/row/tables/retreat_results.csv",
        ),
        changes=[change],
        side=unit.side,
    )


def retreat_snafu_options(
    drawn: Sequence[str], unit: CombatUnit, t: CombatTables | None = None
) -> list[Action]:
    """ROW-6.2 cases f, g: after a disruption (1 counter drawn) or a rout (2 drawn, one may be kept) the opponent may
    place one drawn counter that fits the retreated unit (its colour), or none; the rest go back to the cup."""
    opts: list[Action] = []
    for counter in drawn:
        opts += [a for a in placement_options(counter, [unit], t=t) if a.kind == "place_snafu"]
    return [
        *opts,
        Action.make(
            "return_snafu", "Place nothing: every drawn counter goes back to the cup", counters=tuple(drawn)
        ),
    ]


def retreat_support_losses(
    side: str, retreats: Sequence[int], committed: Mapping[str, int], t: CombatTables | None = None
) -> Ruling:
    """ROW-5.6 (R-CBT-11): the tank and artillery levels a side loses for its units that retreated 2 or 3 hexes,
    only for a type it used in this combat and never more than the modifier it committed."""
    t = t or tables()
    out = {}
    notes = []
    for kind, col in (("tank", "tank_loss"), ("artillery", "artillery_loss")):
        used = int(committed.get(kind, 0))
        raw = sum(getattr(t.retreat[h], col) for h in retreats)
        loss = min(raw, used) if used > 0 else 0
        out[kind] = loss
        if raw:
            notes.append(
                f"{kind}: {raw} from the retreats"
                + (
                    f", capped at the {used} committed"
                    if loss < raw and used
                    else ""
                    if used
                    else ", none used so no loss"
                )
            )
    text = (
        f"{side} retreats of {' and '.join(str(n) for n in retreats)} hex(es): "
        + ("; ".join(notes) if notes else "no support lost")
        + f". Tank level -{out['tank']}, artillery level -{out['artillery']}."
    )
    return ruling(
        "ROW-5.6",
        "Support lost in the retreat",
        text,
        out,
        inputs={"retreats": list(retreats), "committed": dict(committed)},
        side=side,
    )


def road_bonus_cost(side: str, used: bool) -> Ruling:
    """ROW-5.3.1 / ROW-5.6: an attacker who used the road bonus pays 1 tank level at the end, win or lose."""
    return ruling(
        "ROW-5.3.1",
        "Road bonus paid" if used else "No road bonus",
        "The attacker used the road to negate terrain for its tanks: its tank level drops by 1 whatever "
        "the result."
        if used
        else "No road bonus was used.",
        {"tank": -1 if used else 0},
        inputs={"road_bonus": used},
        side=side,
    )


# ------------------------------------------------------------------------------------------ after combat
def advance_options(
    c: CombatSides, spread: Ruling, hex_vacated: bool, gone: Iterable[str] = ()
) -> list[Action]:
    """ROW-5.7: if the attacker won and the hex is empty, the declarer and the active supporters still on the map
    (not eliminated or retreated, ``gone``) may advance; always voluntary."""
    if spread.result["winner"] != ATTACKER or not hex_vacated:
        return []
    gone = set(gone)
    cands = [u for u in (c.declarer, *(s for s in c.attack_supporters if s.active)) if u.uid not in gone]
    opts = [Action.make("advance", f"Advance {u} into {c.hex}", [c.hex], unit=u.uid) for u in cands]
    return [*opts, Action.make("no_advance", "Stop advancing")] if opts else []


def advance(
    c: CombatSides, spread: Ruling, hex_vacated: bool, units: Sequence[str], gone: Iterable[str] = ()
) -> Ruling:
    """ROW-5.7 / ROW-4.8: the chosen units enter the combat hex (stacking ignored until the end of the activation)
    and may then exploit the chit's Adv MP (after a Meeting Engagement too, R-CBT-04)."""
    legal = {a["unit"] for a in advance_options(c, spread, hex_vacated, gone) if a.kind == "advance"}
    bad = [u for u in units if u not in legal]
    if bad:
        raise IllegalAction(
            "ROW-5.7",
            f"{bad} may not advance: only the declarer and active supporters, after an "
            "attacker win, into an empty hex (defenders never advance)",
        )
    text = (
        f"{', '.join(units)} advance into {c.hex} and may spend {c.chit.adv} MP of exploitation (chit Adv)"
        + (" (after a Meeting Engagement too, R-CBT-04)" if c.combat_type == "meeting_engagement" else "")
        + "."
        if units
        else f"No unit advances into {c.hex}."
    )
    return ruling(
        "ROW-5.7",
        "Advance after combat",
        text,
        {"units": list(units), "adv_mp": c.chit.adv if units else 0},
        inputs={"hex": c.hex, "chit": c.chit.id},
        places=[c.hex],
        changes=[{"unit": u, "hex": c.hex} for u in units],
    )


def low_morale_after_combat(c: CombatSides, spread: Ruling) -> Ruling | None:
    """ROW-6.2 case j: a declarer with Low Morale that wins its combat loses the marker."""
    if not c.declarer.has("Low Morale"):
        return None
    won = spread.result["winner"] == ATTACKER
    return ruling(
        "ROW-6.2",
        "Low Morale",
        f"{c.declarer} placed the chit and "
        + ("won: its Low Morale marker is removed." if won else "lost: it keeps Low Morale."),
        {"unit": c.declarer.uid, "removed": won},
        changes=[{"unit": c.declarer.uid, "markers": sorted(c.declarer.markers - {"Low Morale"})}]
        if won
        else [],
        side=c.declarer.side,
    )
