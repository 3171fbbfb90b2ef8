"""HQs: missions, activation, fresh and spent (ROW-9.0 - ROW-9.3, ROW-9.5; the activation steps of ROW-4.5 -
ROW-4.8).

* ROW-9.5: each turn each side must declare one HQ mission and pay it from its main supply pool (the Capitalist
  first); the mission's effects are data (``data/row/tables/hq_missions.csv``).  Westmoreland may not choose
  Vietnamization, Weyand not the Capitalist Offensive (14.2.1); the General Uprising is once a game; after Chinese
  intervention both sides are on Offensive for free (12.2).
* ROW-9.1: which units an HQ may activate (blue Capitalist HQs any Capitalist unit, US HQs US units, ARVN HQs ARVN and
  Minor units (decision R-HQ-01), Laotian and Cambodian HQs their own; PAVN and PRC HQs any Communist unit, VC, Pathet
  Lao and Khmer Rouge HQs their own).
* ROW-9.2: one activation as step functions, each checking that it comes in order (:class:`Activation`):
  1 select a fresh HQ with a LoC; 2 pick up to 4 fresh units within 10 MP; 3 initial movement and combat declaration
  (a Meeting Engagement is resolved at once); 4 the other side's reserve move (ROW-4.7); 5 early exploitation
  (ROW-4.8); 6 combats in the phasing player's order, advance and exploitation; 7 HQ movement or re-freshening;
  8 the stacking check (ROW-4.2).
* ROW-9.3: units are flipped fresh at the start of the opponent's player turn (not OOC units, 6.2 case i); HQs turn
  fresh only by paying supply (in the supply segment, or at the end of an activation if they did not move).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction

from ..core import Action, IllegalAction
from ..core.rulings import Ruling
from . import movement
from .chits import declaration_cost
from .combat import CombatUnit
from .control import allowed_hexes, in_enemy_zoc, zoc_hexes
from .hexmap import RowMap, load_map
from .hq_activation import (  # noqa: F401 - ROW-9.5, 9.1, 9.2 steps 1-2, re-exported: hq.<name> keeps working
    COMMAND_RANGE_MP,
    GU_RANGE_HEXES,
    STEPS,
    UNITS_PER_ACTIVATION,
    Activation,
    _ruling,
    activate_hq,
    activate_units,
    command_range,
    declare_mission,
    hq_activation_options,
    marker_removal_options,
    may_command,
    mission,
    mission_options,
    other,
    remove_marker,
    unit_activation_options,
)
from .pieces import CAPITALIST, COMMUNIST, Piece, Situation
from .supply import LocTracer, Pools, Spender, hq_fresh_item, pay, payment_options
from .tables import COMBAT_TYPES
from .victory import MissionVpRow


# ------------------------------------------------------------------------------------------ step 3: move and declare
def _combat_unit(p: Piece) -> CombatUnit:
    return CombatUnit(
        p.uid, p.side, p.nationality, p.unit_type, fresh=p.fresh, active=True, markers=p.markers
    )


def initial_move_options(
    act: Activation, situation: Situation, uid: str, *, mission: str | None = None, m: RowMap | None = None
) -> list[Action]:
    """ROW-4.5 / ROW-9.2 step 3: where an activated unit may go by its 5-MP initial movement (``movement``)."""
    act.at("initial")
    if uid not in act.units:
        raise IllegalAction("ROW-4.5", f"{uid} is not active in this activation")
    if uid in act.declared:
        raise IllegalAction("ROW-9.2", f"{uid} declared a combat, which ended its movement")
    return movement.move_options(situation.piece(uid), situation, "initial", mission=mission, m=m)


def record_move(act: Activation, uid: str, move: Ruling) -> Activation:
    """ROW-4.1: note a unit's one-hex minimum move (it may declare no combat afterwards)."""
    act.at("initial")
    if move.result.get("one_hex_minimum"):
        return replace(act, one_hex=act.one_hex | {uid})
    return act


def declaration_options(
    act: Activation,
    situation: Situation,
    uid: str,
    mp_left: Fraction,
    mp_spent: Fraction,
    *,
    placed_chit_this_turn: bool = False,
    chit_hexes: Iterable[str] = (),
    mission: str | None = None,
    m: RowMap | None = None,
) -> list[Action]:
    """ROW-4.6 / ROW-5.2 / ROW-9.2 step 3 / ROW-9.5: the combats the moving unit may declare now: each adjacent hex
    holding an enemy unit that it could legally enter, each combat type it can pay for (``chits.declaration_cost``);
    none after a one-hex minimum move, under Recruit, or (Vietnamization) by a non-ARVN unit."""
    act.at("initial")
    m = m or load_map()
    if uid not in act.units or uid in act.declared or uid in act.one_hex:
        return []
    row = mission_row(act.side, mission)
    p = situation.piece(uid)
    if row and (row.attacks == "none" or (row.attacks == "arvn_only" and p.nationality != "ARVN")):
        return []
    enemy = situation.occupied(other(p.side))
    ok = allowed_hexes(p, situation.invaded, m)
    chits = set(chit_hexes)
    opts = []
    for h in m.neighbours(p.hex):
        if h not in enemy:
            continue
        for ct in COMBAT_TYPES:
            try:
                r = declaration_cost(
                    _combat_unit(p),
                    ct,
                    int(mp_left),
                    _mp(mp_spent),  # 4.6: half an MP of helicopter flight is MP spent (no Deliberate Attack)
                    placed_chit_this_turn=placed_chit_this_turn,
                    hex_has_chit=h in chits,
                    enterable=h in ok,
                )
            except IllegalAction:
                continue
            opts.append(
                Action.make(
                    "declare_combat",
                    f"{p} declares a {ct.replace('_', ' ')} on {h} ({r.result['mp_cost']} MP)",
                    [h],
                    unit=uid,
                    hex=h,
                    combat_type=ct,
                )
            )
    return opts


def mission_row(side: str, name: str | None) -> MissionVpRow | None:
    return None if name is None else mission(side, name)


def declare(
    act: Activation, situation: Situation, action: Action, mp_left: Fraction, mp_spent: Fraction, **kw
) -> tuple[Activation, Ruling]:
    """ROW-4.6 / ROW-9.2 steps 3 and 3.1: record a declaration from :func:`declaration_options`; it ends the unit's
    movement.  ``result["resolve_now"]`` is True for a Meeting Engagement, which the caller resolves completely
    (advance and Adv exploitation included, R-CBT-04) before the next unit moves."""
    legal = declaration_options(act, situation, action["unit"], mp_left, mp_spent, **kw)
    if action not in legal:
        raise IllegalAction(
            "ROW-4.6", f"{action.label or action.kind} is not a combat this unit may declare now"
        )
    ct = action["combat_type"]
    new = replace(act, declared={**act.declared, action["unit"]: (action["hex"], ct)})
    me = ct == "meeting_engagement"
    return new, _ruling(
        "ROW-9.2",
        "Combat declared",
        f"{action['unit']} declares a {ct.replace('_', ' ')} on {action['hex']} and stops"
        + (
            "; a Meeting Engagement is resolved now, before the next unit moves."
            if me
            else "; it will be resolved after the reserve move and early exploitation."
        ),
        {"unit": action["unit"], "hex": action["hex"], "combat_type": ct, "resolve_now": me},
        side=act.side,
        places=(action["hex"],),
    )


def end_initial_movement(act: Activation) -> Activation:
    """ROW-9.2 step 3 -> 4: every active unit has moved and declared; the other side's reserve move comes next."""
    act.at("initial")
    return act.to("reserve")


# ------------------------------------------------------------------------------------------ step 4: reserve movement
def reserve_hq_options(
    act: Activation, situation: Situation, tracer: LocTracer, *, no_reserve: bool = False
) -> list[Action]:
    """ROW-4.7 / ROW-9.2 step 4: the non-phasing player may pick ONE fresh HQ with a LoC, not in an enemy ZoC (or pass).
    ``no_reserve``: Giap during a General Uprising forbids Capitalist reserve moves (14.2.1)."""
    act.at("reserve")
    side = other(act.side)
    passing = Action.make("no_reserve", f"{side} makes no reserve move")
    if no_reserve or act.reserve_hq:
        return [passing]
    zoc = zoc_hexes(situation, act.side) - situation.occupied(side)
    opts = [
        Action.make("reserve_hq", f"Reserve move with {hq} at {hq.hex}", [hq.hex], hq=hq.uid)
        for hq in situation.hqs(side)
        if hq.fresh and hq.hex not in zoc and tracer.trace(hq).result.ok
    ]
    return [*opts, passing]


def reserve_unit_options(
    act: Activation, situation: Situation, hq_uid: str, *, mission: str | None = None, m: RowMap | None = None
) -> list[Action]:
    """ROW-4.7: the fresh units the reserve HQ may take (up to 4): nationality it commands, within its 10-MP command
    range (decision R-HQ-04), not starting in an enemy ZoC; no LoC needed."""
    act.at("reserve")
    hq = situation.piece(hq_uid)
    rng = command_range(hq, situation, mission=mission, m=m)
    return [
        Action.make("reserve_unit", f"Reserve move {u}", [u.hex], unit=u.uid)
        for u in situation.units(hq.side)
        if u.fresh and u.hex in rng and may_command(hq, u) and not in_enemy_zoc(u, situation, m)
    ]


def reserve_activation(
    act: Activation,
    situation: Situation,
    hq_uid: str,
    uids: Sequence[str],
    tracer: LocTracer,
    *,
    limit: int = UNITS_PER_ACTIVATION,
    mission: str | None = None,
    m: RowMap | None = None,
) -> tuple[Situation, Activation, Ruling]:
    """ROW-4.7: flip the reserve HQ and its units to spent; each then moves up to 5 MP (``movement`` modes
    ``reserve`` and ``reserve_hq``), without combat or exploitation."""
    legal_hq = {a["hq"] for a in reserve_hq_options(act, situation, tracer) if a.kind == "reserve_hq"}
    if hq_uid not in legal_hq:
        raise IllegalAction(
            "ROW-4.7",
            f"{hq_uid} may not make the reserve move (one fresh HQ with a LoC, not in an "
            "enemy ZoC, per enemy activation)",
        )
    if len(uids) > limit or len(set(uids)) != len(uids):
        raise IllegalAction("ROW-4.7", f"a reserve HQ takes at most {limit} different units")
    legal = {a["unit"] for a in reserve_unit_options(act, situation, hq_uid, mission=mission, m=m)}
    bad = [u for u in uids if u not in legal]
    if bad:
        raise IllegalAction("ROW-4.7", f"{bad} may not move in reserve with {hq_uid}")
    new = situation
    for u in (hq_uid, *uids):
        new = new.replace(replace(new.piece(u), fresh=False))
    return (
        new,
        replace(act, reserve_hq=hq_uid),
        _ruling(
            "ROW-4.7",
            "Reserve movement",
            f"The {other(act.side)} moves {hq_uid} and {', '.join(uids) or 'no unit'} "
            "in reserve (5 MP each, no combat); all flip to spent.",
            {"hq": hq_uid, "units": list(uids)},
            side=other(act.side),
            changes=tuple({"piece": u, "fresh": False} for u in (hq_uid, *uids)),
        ),
    )


def end_reserve(act: Activation) -> Activation:
    act.at("reserve")
    return act.to("early_exploitation")


# ------------------------------------------------------------------------------------------ step 5: early exploitation
def _mp(value: Fraction) -> int | float:
    """MP as a plain number for a ruling's inputs: whole MP as an int, half MP (a helicopter hex) as a float."""
    return int(value) if value == int(value) else float(value)


def early_exploitation_units(
    act: Activation, situation: Situation, *, resolved_me: Iterable[str] = (), m: RowMap | None = None
) -> list[Action]:
    """ROW-4.8 / ROW-9.2 step 5: active units not in an enemy ZoC, other than the units that attacked in or supported
    a Meeting Engagement (``resolved_me``, ROW-5.2.2), may move 3 MP never entering an enemy ZoC (``movement`` mode
    ``early_exploitation``)."""
    act.at("early_exploitation")
    me = set(resolved_me) | {u for u, (_, ct) in act.declared.items() if ct == "meeting_engagement"}
    out = []
    for uid in act.units:
        try:
            p = situation.piece(uid)
        except KeyError:
            continue  # eliminated in a Meeting Engagement
        if uid in me or in_enemy_zoc(p, situation, m):
            continue
        out.append(Action.make("early_exploit", f"Early exploitation of {p} (3 MP)", [p.hex], unit=uid))
    return out


def end_early_exploitation(act: Activation) -> Activation:
    act.at("early_exploitation")
    return act.to("combat")


# ------------------------------------------------------------------------------------------ step 6: combats
def combat_order_options(act: Activation, resolved: Iterable[str] = ()) -> list[Action]:
    """ROW-9.2 step 6: the phasing player picks the next Hasty, Prepared or Deliberate combat to resolve (each
    completely, advance and exploitation included, before the next)."""
    act.at("combat")
    done = set(resolved)
    return [
        Action.make("resolve_combat", f"Resolve the {ct.replace('_', ' ')} of {u} on {h}", [h], unit=u, hex=h)
        for u, (h, ct) in sorted(act.declared.items())
        if ct != "meeting_engagement" and u not in done
    ]


def exploitation_options(
    situation: Situation, uid: str, adv: int, *, mission: str | None = None, m: RowMap | None = None
) -> list[Action]:
    """ROW-4.8 / ROW-9.2 step 6.2: a unit that advanced into the combat hex moves the chit's Adv MP (normal rules,
    no one-hex minimum)."""
    return movement.move_options(
        situation.piece(uid), situation, "exploitation", mp=adv, mission=mission, m=m
    )


def end_combats(act: Activation) -> Activation:
    act.at("combat")
    return act.to("hq_move")


# ------------------------------------------------------------------------------------------ step 7: the HQ
def hq_end_options(
    act: Activation,
    situation: Situation,
    pools: Pools,
    tracer: LocTracer,
    *,
    mission: str | None = None,
    m: RowMap | None = None,
) -> list[Action]:
    """ROW-4.5 / ROW-9.2 step 7 / ROW-9.3: the active HQ may move up to 10 MP, or stay; if it stays it may be made
    fresh again for supply (7.1b, LoC needed, each way of paying offered)."""
    act.at("hq_move")
    m = m or load_map()
    hq = situation.piece(act.hq)
    opts = [a for a in movement.move_options(hq, situation, "hq", mission=mission, m=m) if a.kind == "move"]
    opts.append(Action.make("hq_stays", f"{hq} stays at {hq.hex}", [hq.hex], hq=hq.uid))
    opts += refresh_options(hq, pools, tracer, "activation", m=m)
    return opts


def refresh_options(
    hq: Piece, pools: Pools, tracer: LocTracer, phase: str, *, moved: bool = False, m: RowMap | None = None
) -> list[Action]:
    """ROW-9.3 / ROW-7.1 / ROW-7.2: the ways to pay to flip a spent ``hq`` fresh (``phase`` ``"strategic"`` for the
    supply segment A2b, ``"activation"`` at the end of its activation).  None if it moved this activation, has no LoC
    (VC HQs in the supply segment need none) or its pool cannot pay."""
    m = m or load_map()
    if moved or hq.fresh:
        return []
    item = hq_fresh_item(hq, phase, m)
    needs_loc = item != "hq_fresh_vc"
    loc = tracer.trace(hq).result if needs_loc else None
    if needs_loc and not loc.ok:
        return []
    pavn_src = hq.nationality in ("PAVN", "PRC") and loc is not None and tracer.reaches_pavn_source(hq)
    sp = Spender.at(hq, m, has_loc=True, loc_to_pavn_source=pavn_src)
    out = []
    for a in payment_options(item, sp, tracer.s.invaded):
        track = {
            "capitalist": "Capitalist Supply",
            "communist": "Communist Supply",
            "trail": "Ho Chi Minh Trail Supply",
        }
        if a["pool"] != "none" and pools[track[a["pool"]]] < a["amount"]:
            continue
        out.append(
            Action.make(
                "refresh_hq",
                f"Flip {hq} fresh: {a.label}",
                [hq.hex],
                hq=hq.uid,
                item=item,
                pool=a["pool"],
                amount=a["amount"],
            )
        )
    return out


def refresh_hq(
    situation: Situation,
    pools: Pools,
    action: Action,
    tracer: LocTracer,
    phase: str,
    *,
    moved: bool = False,
    m: RowMap | None = None,
) -> tuple[Situation, Pools, Ruling]:
    """ROW-9.3: pay one of :func:`refresh_options` and flip the HQ fresh (it may then activate again)."""
    hq = situation.piece(action["hq"])
    if moved:
        raise IllegalAction("ROW-9.3", f"{hq} moved in this activation and may not be made fresh again")
    legal = refresh_options(hq, pools, tracer, phase, m=m)
    if action not in legal:
        raise IllegalAction(
            "ROW-9.3", f"{hq} cannot be flipped fresh that way (fresh already, no LoC, or not enough supply)"
        )
    pools, paid = pay(
        pools, Action.make("pay", item=action["item"], pool=action["pool"], amount=action["amount"])
    )
    new = situation.replace(replace(hq, fresh=True))
    return (
        new,
        pools,
        _ruling(
            "ROW-9.3",
            "HQ made fresh",
            f"{hq} flips fresh. {paid.explanation}",
            {"hq": hq.uid, "paid": action["amount"]},
            inputs={"phase": phase},
            side=hq.side,
            lookup=paid.lookup,
            changes=({"piece": hq.uid, "fresh": True}, *paid.changes),
        ),
    )


def end_hq_step(act: Activation, moved: bool) -> Activation:
    act.at("hq_move")
    return replace(act.to("stacking"), hq_moved=moved)


# ------------------------------------------------------------------------------------------ step 8 and 9.3
def stacking_step(act: Activation, situation: Situation) -> tuple[Activation, Ruling, list[Action]]:
    """ROW-9.2 step 8 / ROW-4.2: the stacking check of the phasing side; the activation is over once it is legal."""
    act.at("stacking")
    r = movement.stacking_check(situation, act.side)
    opts = movement.stacking_options(situation, act.side)
    return (act if opts else act.to("done")), r, opts


def flip_units_fresh(situation: Situation, side: str) -> tuple[Situation, Ruling]:
    """ROW-9.3 / ROW-3.0 (B3a-i, B3b-i): at the start of the opponent's player turn every spent unit of ``side`` turns
    fresh for free, except OOC units (6.2 case i; decision R-SUP-07); HQs never turn fresh this way."""
    flipped, kept = [], []
    new = situation
    for u in situation.units(side):
        if u.fresh:
            continue
        if u.has("OOC"):
            kept.append(u.uid)
            continue
        new = new.replace(replace(u, fresh=True))
        flipped.append(u.uid)
    text = (
        f"{len(flipped)} spent {side} units turn fresh"
        + (f"; {', '.join(kept)} stay spent (OOC)" if kept else "")
        + "; HQs are not flipped."
    )
    return new, _ruling(
        "ROW-9.3",
        "Units turn fresh",
        text,
        {"flipped": flipped, "kept_spent": kept},
        inputs={"side": side},
        side=side,
        changes=tuple({"piece": u, "fresh": True} for u in flipped),
    )


# ------------------------------------------------------------------------------------------ 9.5 end-of-phase effects
def infiltrate_end_of_phase(
    situation: Situation, dice, m: RowMap | None = None
) -> tuple[Ruling, list[Action]]:
    """ROW-9.5 Infiltrate, at the end of the Communist Activation phase: one D6 per VC unit in a cultivated hex, each 1
    lowers the Capitalist Infrastructure by 1 (the caller applies it with ``supply.change_infrastructure``); the VC units
    in or next to a town or city hex each owe an Airfield Strike of value 4 (10.3.3, listed for the air rules); and
    the Communist may place one Bunker on one VC unit (the Actions returned, with declining)."""
    m = m or load_map()
    vc = [u for u in situation.units(COMMUNIST) if u.nationality == "VC" and not u.in_tunnel]
    rolls, hits = [], 0
    for u in vc:
        if m.terrain(u.hex) == "cultivated" and not m.settlement(u.hex):
            r = dice.roll(6, f"Infiltrate: {u.uid} in a cultivated hex")
            rolls.append(r)
            hits += r.value == 1
    strikes = [u.uid for u in vc if m.settlement(u.hex) or any(m.settlement(n) for n in m.neighbours(u.hex))]
    text = (
        f"Infiltrate: {len(rolls)} VC units in cultivated hexes roll a D6 "
        f"({', '.join(str(r.value) for r in rolls) or 'none'}): Capitalist Infrastructure -{hits}; "
        f"{len(strikes)} VC units in or next to a town or city each owe an Airfield Strike of value 4; the Communist "
        "may place one Bunker on one VC unit."
    )
    opts = [Action.make("place_bunker", f"Place a Bunker on {u}", [u.hex], unit=u.uid) for u in vc]
    opts.append(Action.make("no_bunker", "Place no Bunker"))
    return _ruling(
        "ROW-9.5",
        "Infiltrate: end of the Communist Activation phase",
        text,
        {"infrastructure": -hits, "airfield_strikes": strikes, "strike_value": 4},
        dice=tuple(rolls),
        side=COMMUNIST,
    ), opts


def recruit_bunker_options(
    situation: Situation, communist_controlled: Iterable[str], placed: int = 0
) -> list[Action]:
    """ROW-9.5 Recruit, at the end of the Communist Activation phase: up to three Bunkers on Communist units in hexes the
    Communist controls (``placed`` so far; the Actions of the next one, with stopping)."""
    if placed >= 3:
        return []
    ctl = set(communist_controlled)
    opts = [
        Action.make("place_bunker", f"Place a Bunker on {u} ({placed + 1} of 3)", [u.hex], unit=u.uid)
        for u in situation.units(COMMUNIST)
        if u.hex in ctl
    ]
    return [*opts, Action.make("no_bunker", "Place no more Bunkers")]


def vietnamization_options(situation: Situation, done: int = 0) -> list[Action]:
    """ROW-9.5 Vietnamization, at the end of each Capitalist Activation phase: twice, add an Elite marker to or remove a
    Poor marker from an ARVN division (``done`` so far; the Actions of the next one, with stopping)."""
    if done >= 2:
        return []
    opts = []
    for u in situation.units(CAPITALIST):
        if u.nationality != "ARVN" or u.unit_type != "division":
            continue
        if u.has("Poor"):
            opts.append(Action.make("remove_poor", f"Remove the Poor marker of {u}", [u.hex], unit=u.uid))
        elif not u.has("Elite"):
            opts.append(Action.make("add_elite", f"Give {u} an Elite marker", [u.hex], unit=u.uid))
    return [*opts, Action.make("stop", "No more Vietnamization improvements")]


def uprising_victory_phase(situation: Situation) -> Ruling:
    """ROW-9.5 General Uprising, in that turn's End Phase before its VP awards (digest decision 58, R-WAR-11): every
    VC battalion leaves the map for good (to the Destroyed box); from now on destroyed VC units and routed VC HQs
    are eliminated for good (and a ground commander on such an HQ with it).  Result: the VC battalions removed."""
    gone = [u.uid for u in situation.units(COMMUNIST) if u.nationality == "VC" and u.unit_type == "battalion"]
    return _ruling(
        "ROW-9.5",
        "General Uprising: Victory Phase",
        f"The General Uprising ends: {len(gone)} VC battalions leave the map for good (Destroyed box); from now "
        "on destroyed VC units and routed VC HQs are eliminated for good.",
        {"remove": gone, "permanent_elimination": True},
        side=COMMUNIST,
        changes=tuple({"piece": u, "hex": None} for u in gone),
    )
