"""HQ missions and the first steps of an activation (ROW-9.5, ROW-9.1, ROW-9.2 steps 1-2): the mission each side
declares and pays, which units an HQ may command, selecting a fresh HQ with a LoC and activating up to 4 fresh units
within its command range (or removing markers).  The later steps are in :mod:`wargames.row.hq`, which also
re-exports every name here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial

from ..core import Action, IllegalAction
from ..core.rulings import Lookup, Ruling, indexed_ruling
from . import movement
from .hexmap import RowMap, load_map
from .pieces import CAPITALIST, COMMUNIST, MINORS, Piece, Situation
from .supply import LocTracer, Pools, Spender, pay, payment_options
from .victory import MissionVpRow, missions_table

UNITS_PER_ACTIVATION = 4  # ROW-4.5, ROW-4.7, ROW-9.2 (a theater commander may change it, digest decision 29)


COMMAND_RANGE_MP = 10  # ROW-9.2 step 2


GU_RANGE_HEXES = 10  # ROW-9.5 General Uprising


STEPS = ("hq", "units", "initial", "reserve", "early_exploitation", "combat", "hq_move", "stacking", "done")


_ruling = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


def other(side: str) -> str:
    return COMMUNIST if side == CAPITALIST else CAPITALIST


# ------------------------------------------------------------------------------------------ 9.5 missions
def mission(side: str, name: str) -> MissionVpRow:
    """ROW-9.5: the table row of one mission (its cost and effects)."""
    row = missions_table().get((side, name))
    if row is None:
        names = sorted(m for s, m in missions_table() if s == side)
        raise IllegalAction("ROW-9.5", f"{side} has no mission {name!r}; missions are {names}")
    return row


def mission_options(
    side: str,
    pools: Pools,
    *,
    commander: str | None = None,
    uprising_used: bool = False,
    chinese: bool = False,
) -> list[Action]:
    """ROW-9.5 / ROW-14.2.1: the missions ``side`` may declare now, each with its cost (only those it can pay:
    declaring one is compulsory, and Vietnamization and Evade cost nothing); Westmoreland never Vietnamization,
    Weyand never the Capitalist Offensive.  Chinese intervention: Offensive only, free (12.2)."""
    if chinese:
        return [
            Action.make(
                "declare_mission",
                f"{side} Offensive (Chinese intervention: compulsory, free)",
                side=side,
                mission="offensive",
                cost=0,
            )
        ]
    track = "Capitalist Supply" if side == CAPITALIST else "Communist Supply"
    opts = []
    for (s, name), row in missions_table().items():
        if s != side:
            continue
        if side == CAPITALIST and name == "vietnamization" and commander == "Westmoreland":
            continue
        if side == CAPITALIST and name == "offensive" and commander == "Weyand":
            continue
        if row.once_per_game == "yes" and uprising_used:
            continue
        if row.cost > pools[track]:
            continue
        opts.append(
            Action.make(
                "declare_mission",
                f"{side} {row.label} ({row.cost} supply)",
                side=side,
                mission=name,
                cost=row.cost,
            )
        )
    return opts


def declare_mission(
    pools: Pools,
    action: Action,
    *,
    commander: str | None = None,
    uprising_used: bool = False,
    chinese: bool = False,
) -> tuple[Pools, Ruling]:
    """ROW-9.5 (sequence of play A7): declare and pay a mission from :func:`mission_options`.  The ruling's result
    lists what the caller must apply: the US Unrest change (Abrams makes the Capitalist Offensive +2), how many
    Objective markers to place and where, restricted support, whether the Capitalist may go unrestricted."""
    side, name = action["side"], action["mission"]
    legal = {
        a
        for a in mission_options(
            side, pools, commander=commander, uprising_used=uprising_used, chinese=chinese
        )
    }
    if action not in legal:
        row = mission(side, name)
        raise IllegalAction(
            "ROW-9.5",
            f"{side} may not declare {row.label} now (cost {row.cost}, commander "
            f"{commander}, General Uprising used {uprising_used}, Chinese intervention {chinese})",
        )
    row = mission(side, name)
    cost = action["cost"]
    if cost:
        spender = Spender(
            side, "US" if side == CAPITALIST else "PAVN", "SVN" if side == CAPITALIST else "NVN"
        )
        pools, paid = pay(pools, payment_options("hq_mission", spender, mission_cost=cost)[0])
    unrest = row.us_unrest + (
        1 if side == CAPITALIST and name == "offensive" and commander == "Abrams" else 0
    )
    where = "hexes the Capitalist does not control" if side == CAPITALIST else "Capitalist-controlled hexes"
    effects = {
        "mission": name,
        "paid": cost,
        "us_unrest": 0 if chinese else unrest,
        "objectives": row.objectives,
        "objectives_in": where if row.objectives else None,
        "restricted": "none" if chinese and side == CAPITALIST else (row.restricted or "none"),
        "capitalist_may_unrestrict": row.may_unrestrict == "yes",
        "zoc": row.zoc,
        "attacks": row.attacks,
        "attack_die": row.attack_die,
        "once_per_game": row.once_per_game == "yes",
    }
    text = (
        f"The {side} declares {row.label} and pays {cost} supply from the main pool"
        + (f"; US Unrest {effects['us_unrest']:+d}" if effects["us_unrest"] else "")
        + (f"; {row.objectives} Objective markers go on {where}" if row.objectives else "")
        + (
            f"; support restricted: {effects['restricted']}"
            if side == CAPITALIST and effects["restricted"] != "none"
            else ""
        )
        + ("; the Capitalist may flip to Unrestricted Ops" if row.may_unrestrict == "yes" else "")
        + "."
    )
    return pools, _ruling(
        "ROW-9.5",
        "HQ mission",
        text,
        effects,
        inputs={"side": side, "commander": commander, "chinese": chinese},
        lookup=Lookup(
            "HQ missions", row.label, "cost", str(row.cost), source="data/row/tables/hq_missions.csv"
        ),
        side=side,
    )


# ------------------------------------------------------------------------------------------ 9.1 who activates whom
def may_command(hq: Piece, unit: Piece) -> bool:
    """ROW-9.1 (decision R-HQ-01): may ``hq`` activate ``unit`` (nationality only)?"""
    if hq.side != unit.side or not hq.is_hq or unit.is_hq:
        return False
    cls, nat = hq.hq_class, unit.nationality
    if hq.side == CAPITALIST:
        return {
            "Capitalist": True,
            "US": nat == "US",
            "ARVN": nat == "ARVN" or nat in MINORS,
            "Laos": nat == "Laos",
            "Cmb": nat == "Cmb",
        }.get(cls, nat == cls)
    return {"PAVN": True, "PRC": True, "VC": nat == "VC", "PL": nat == "PL", "KhR": nat == "KhR"}.get(
        cls, nat == cls
    )


# ------------------------------------------------------------------------------------------ the activation record
@dataclass(frozen=True)
class Activation:
    """Where one activation stands (ROW-9.2): its HQ, its units, who declared which combat, who used the one-hex
    minimum, whether the reserve move and the HQ move happened.  ``step`` is one of :data:`STEPS`."""

    side: str
    hq: str
    step: str = "units"
    units: tuple[str, ...] = ()
    declared: dict[str, tuple[str, str]] = field(default_factory=dict)  # unit -> (hex, combat type)
    one_hex: frozenset[str] = frozenset()
    reserve_hq: str | None = None
    hq_moved: bool = False

    def at(self, step: str, rule: str = "ROW-9.2") -> None:
        if self.step != step:
            raise IllegalAction(
                rule,
                f"this is step '{self.step}' of the activation, not '{step}' (9.2 order: "
                + " -> ".join(STEPS[:-1])
                + ")",
            )

    def to(self, step: str) -> Activation:
        if STEPS.index(step) < STEPS.index(self.step):
            raise IllegalAction("ROW-9.2", f"the activation cannot go back from '{self.step}' to '{step}'")
        return replace(self, step=step)


# ------------------------------------------------------------------------------------------ step 1: the HQ
def hq_activation_options(situation: Situation, side: str, tracer: LocTracer) -> list[Action]:
    """ROW-9.2 step 1 / ROW-4.5 / ROW-14.4.1: the fresh HQs of ``side`` with a LoC (checked now), plus ending the
    activations.  A Capitalist HQ whose only trace crosses enemy-controlled hexes is offered with ``snafu_draw=True``:
    choosing it accepts the SNAFU draw, not choosing it is declining the trace."""
    opts = []
    for hq in situation.hqs(side):
        if not hq.fresh:
            continue
        loc = tracer.trace(hq).result
        if loc.ok:
            opts.append(
                Action.make(
                    "activate_hq",
                    f"Activate {hq} at {hq.hex}" + (" (its LoC costs one SNAFU draw)" if loc.snafu else ""),
                    [hq.hex],
                    hq=hq.uid,
                    snafu_draw=loc.snafu,
                )
            )
    return [*opts, Action.make("end_activations", f"{side}: no more activations this turn", side=side)]


def activate_hq(situation: Situation, hq_uid: str, tracer: LocTracer) -> tuple[Situation, Activation, Ruling]:
    """ROW-9.2 step 1: the chosen HQ must be fresh and have a LoC; it flips to spent at once."""
    hq = situation.piece(hq_uid)
    if not hq.is_hq:
        raise IllegalAction("ROW-9.2", f"{hq} is not an HQ")
    if not hq.fresh:
        raise IllegalAction("ROW-9.3", f"{hq} is spent: only a fresh HQ activates")
    loc = tracer.trace(hq)
    if not loc.result.ok:
        raise IllegalAction("ROW-4.5", f"{hq} has no LoC and may not activate ({loc.explanation})")
    new = situation.replace(replace(hq, fresh=False))
    return (
        new,
        Activation(hq.side, hq.uid),
        _ruling(
            "ROW-9.2",
            "HQ activated",
            f"{hq} activates and flips to spent. {loc.explanation}",
            {"hq": hq.uid, "snafu_for_loc": loc.result.snafu},
            inputs={"hex": hq.hex},
            side=hq.side,
            places=(hq.hex,),
            changes=({"piece": hq.uid, "fresh": False},),
        ),
    )


# ------------------------------------------------------------------------------------------ step 2: the units
def command_range(
    hq: Piece, situation: Situation, *, mission: str | None = None, m: RowMap | None = None
) -> dict[str, Fraction]:
    """ROW-9.2 step 2 / ROW-14.6 (decision R-HQ-03): hexes within 10 MP of ``hq`` and their cost: the HQ side's
    terrain and ZoC costs, not through enemy units, inside the HQ's operational limits.  Under the General Uprising a
    VC HQ reaches every hex within 10 hexes whatever the terrain or Capitalist units (9.5)."""
    m = m or load_map()
    if mission == "general_uprising" and hq.hq_class == "VC":
        return {h: Fraction(0) for h in m.within(hq.hex, GU_RANGE_HEXES)}
    costs = movement.command_costs(hq, situation, COMMAND_RANGE_MP, m, mission=mission)
    return {h: Fraction(c, movement.TICKS) for h, c in costs.items()}


def unit_activation_options(
    act: Activation, situation: Situation, *, mission: str | None = None, m: RowMap | None = None
) -> list[Action]:
    """ROW-9.2 step 2 / ROW-4.5 / ROW-9.1: the fresh units the active HQ may activate (nationality, within command
    range; no LoC needed, decision R-HQ-04), one Action each, plus ``done_activating``."""
    act.at("units")
    hq = situation.piece(act.hq)
    rng = command_range(hq, situation, mission=mission, m=m)
    opts = [
        Action.make(
            "activate_unit", f"Activate {u} ({float(rng[u.hex]):g} MP from the HQ)", [u.hex], unit=u.uid
        )
        for u in situation.units(hq.side)
        if u.fresh and u.uid not in act.units and u.hex in rng and may_command(hq, u)
    ]
    return [*opts, Action.make("done_activating", "Start moving the activated units")]


def marker_removal_options(
    act: Activation, situation: Situation, *, mission: str | None = None, m: RowMap | None = None
) -> list[Action]:
    """ROW-6.2 cases f and g (decision R-HQ-06): the active HQ may spend one of its unit activations to lift a
    Disrupted or Routed marker from a fresh unit it could activate (nationality, 10-MP command range).  The unit
    turns spent and is not activated: it neither moves nor fights in this activation."""
    act.at("units")
    hq = situation.piece(act.hq)
    rng = command_range(hq, situation, mission=mission, m=m)
    out = []
    for u in situation.units(hq.side):
        if not (u.fresh and u.uid not in act.units and u.hex in rng and may_command(hq, u)):
            continue
        for marker in ("Disrupted", "Routed"):
            if u.has(marker):
                after = " (it takes Low Morale instead)" if marker == "Routed" else ""
                out.append(
                    Action.make(
                        "remove_marker",
                        f"Spend an activation to lift the {marker} marker from {u}{after}",
                        [u.hex],
                        unit=u.uid,
                        marker=marker,
                    )
                )
    return out


def remove_marker(act: Activation, situation: Situation, uid: str, marker: str) -> tuple[Situation, Ruling]:
    """ROW-6.2 cases f and g: lift a Disrupted or Routed marker with one of the active HQ's activations; the unit
    turns spent and is not activated; a Routed marker is exchanged for Low Morale (case g)."""
    u = situation.piece(uid)
    if not u.has(marker) or marker not in ("Disrupted", "Routed"):
        raise IllegalAction("ROW-6.2", f"{u} carries no {marker} marker to lift")
    if not u.fresh:
        raise IllegalAction("ROW-6.2", f"{u} is spent: only a fresh unit may have its {marker} marker lifted")
    marks = set(u.markers) - {marker}
    if marker == "Routed":
        marks.add("Low Morale")
    new = situation.replace(replace(u, fresh=False, markers=frozenset(marks)))
    text = (
        f"{act.hq} spends one of its activations on {u}: its {marker} marker is lifted"
        + ("; a Low Morale marker takes its place" if marker == "Routed" else "")
        + ". The unit turns spent and is not activated: it does not move or fight in this activation "
        "(R-HQ-06)."
    )
    return new, _ruling(
        "ROW-6.2",
        f"{marker} marker lifted",
        text,
        {"unit": uid, "removed": marker, "markers": sorted(marks)},
        inputs={"hq": act.hq, "unit": uid},
        places=(u.hex,),
        changes=({"piece": uid, "fresh": False, "markers": sorted(marks)},),
    )


def activate_units(
    act: Activation,
    situation: Situation,
    uids: Sequence[str],
    *,
    limit: int = UNITS_PER_ACTIVATION,
    mission: str | None = None,
    m: RowMap | None = None,
) -> tuple[Situation, Activation, Ruling]:
    """ROW-9.2 step 2: activate the chosen units (at most ``limit``, 4 unless a theater commander says otherwise);
    they flip to spent at once (spent only at the end of the activation, 4.5)."""
    act.at("units")
    if len(set(uids)) != len(uids):
        raise IllegalAction("ROW-9.2", "a unit is named twice")
    if len(uids) > limit:
        raise IllegalAction("ROW-9.2", f"an HQ activates at most {limit} units, not {len(uids)}")
    legal = {
        a["unit"]
        for a in unit_activation_options(act, situation, mission=mission, m=m)
        if a.kind == "activate_unit"
    }
    bad = [u for u in uids if u not in legal]
    if bad:
        raise IllegalAction(
            "ROW-9.1",
            f"{bad} may not be activated by {act.hq}: fresh units of a nationality it "
            f"commands within {COMMAND_RANGE_MP} MP only",
        )
    new = situation
    for u in uids:
        new = new.replace(replace(new.piece(u), fresh=False))
    text = (
        f"{act.hq} activates {', '.join(uids) or 'no unit'}; they flip to spent and move one after the other."
    )
    return (
        new,
        replace(act, units=tuple(uids), step="initial"),
        _ruling(
            "ROW-9.2",
            "Units activated",
            text,
            {"units": list(uids)},
            inputs={"hq": act.hq, "limit": limit},
            side=act.side,
            changes=tuple({"piece": u, "fresh": False} for u in uids),
        ),
    )
