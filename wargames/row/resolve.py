"""One combat from support to advance, as a procedure (ROW-5.0; the digest's resolution procedure 3.8.11).

``resolve_combat`` is a generator in the shape of the core engine's procedures: it yields
:class:`~wargames.core.rulings.Ruling` values and :class:`~wargames.core.actions.Decision` values (receiving the
chosen :class:`~wargames.core.actions.Action` back by ``send``), and returns a :class:`CombatOutcome`.  A game runs it
with ``outcome = yield from resolve_combat(...)``.  It adds no rule of its own: every step is one of the functions of
``combat``, ``randomevents`` and ``losses``, in the order of the rules:

1. ROW-5.3.1 / ROW-5.4.3: the attacker, then the defender, commits support (a decision per type with support),
   then adjacency (ROW-5.3.3), size (ROW-5.3.4) and terrain (ROW-5.4.3) give the two "Die Mods" totals;
2. ROW-5.5: the Random Event (news reporters, or a SNAFU draw the named side places, ROW-6.1), and the support it cuts;
3. ROW-5.4.1: the two dice (the fresh defender chooses), leader re-rolls (ROW-6.1, R-CBT-17), special rolls on the
   kept dice (ROW-5.4.2, R-CBT-10);
4. ROW-5.6: the spread (quality shifts; a side with both kinds chooses one, ROW-5.4.3), the loser's choices one
   point at a time, elimination rolls, retreat paths hex by hex, disruption and rout with the opponent's SNAFU draws
   (ROW-6.2), support lost (R-CBT-11), the road bonus paid;
5. ROW-5.7: the advance, and Low Morale lifted (ROW-6.2).

The map enters only through ``CombatContext``: the hexes of the units and the callables that say what is next to
what and where the enemy is.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..core import Action, Decision
from ..core.dice import Dice
from ..core.rulings import Ruling
from . import losses as L
from . import randomevents as R
from .combat import (
    ATTACKER,
    COMMUNIST,
    DEFENDER,
    CombatSides,
    CombatUnit,
    SupportSituation,
    adjacent_support,
    available_support,
    check_participants,
    commit_support,
    cut_support,
    defender_die_options,
    die_mods,
    final_spread,
    reroll,
    reroll_options,
    roll_attacker,
    roll_defender,
    ruling,
    side_quality_options,
    size_modifiers,
    special_roll,
    special_roll_options,
    terrain_modifier,
)
from .tables import SUPPORT_TYPES

Step = Generator[Ruling | Decision, Action | None, Any]


@dataclass(frozen=True)
class CombatContext:
    """Everything a combat needs from the game around it (map, tracks, options)."""

    attack: SupportSituation
    defense: SupportSituation
    terrain: str = "clear"
    terrain_die_mod: int = 0
    river_mod: int = 0
    every_attacker_across_river: bool = False
    defence_works: str | None = None
    attacker_leader: int = 0
    defender_leader: int = 0
    replacements: Mapping[str, int] = field(default_factory=dict)
    tunnel_units: tuple[str, ...] = ()
    westmoreland: bool = False
    #: ROW-9.5 Evade: the Communist's mission is Evade, so his retreating units may pass enemy ZoCs (a D6 of Body
    #: Count a hex) and his attacks suffer ``attack_die_mod`` (the mission table's attack_die, -4)
    evade: bool = False
    attack_die_mod: int = 0
    #: ROW-5.3.1: a road (or a town or city) joins the declarer's hex and the combat hex without crossing a river, so
    #: the attacker may choose the road bonus for his tanks
    road: bool = False
    no_adjacent: Mapping[str, str] = field(default_factory=dict)
    positions: Mapping[str, str] = field(default_factory=dict)
    neighbours: Callable[[str], Iterable[str]] | None = None
    distance: Callable[[str, str], int] | None = None
    enemy_occupied: Callable[[str, str], bool] | None = None  # (side, hex)
    enemy_zoc: Callable[[str, str], bool] | None = None  # (side, hex)


@dataclass
class CombatOutcome:
    """What the combat changed, for the game to apply."""

    units: dict[str, CombatUnit]
    winner: str = ""
    spread: int = 0
    eliminated: list[str] = field(default_factory=list)
    retreats: dict[str, list[str]] = field(default_factory=dict)
    advanced: list[str] = field(default_factory=list)
    adv_mp: int = 0
    tracks: dict[str, int] = field(default_factory=dict)
    support_levels: dict[str, dict[str, int]] = field(default_factory=dict)
    replacements: dict[str, int] = field(default_factory=dict)
    objective: bool = False
    cup: R.SnafuCup | None = None
    tunnel: str | None = None  # ROW-14.3: the unit that went into its hex's tunnel to meet the spread


def _add(d: dict[str, int], key: str | None, n: int) -> None:
    if key and n:
        d[key] = d.get(key, 0) + n


def _sides(c: CombatSides, units: Mapping[str, CombatUnit]) -> CombatSides:
    pick = lambda us: tuple(units[u.uid] for u in us)  # noqa: E731
    return replace(
        c,
        declarer=units[c.declarer.uid],
        attack_supporters=pick(c.attack_supporters),
        defenders=pick(c.defenders),
        defense_supporters=pick(c.defense_supporters),
    )


def _geometry(ctx: CombatContext, side: str) -> dict:
    return dict(
        neighbours=ctx.neighbours,
        distance=ctx.distance,
        enemy_occupied=lambda h: ctx.enemy_occupied(side, h),
        enemy_zoc=lambda h: ctx.enemy_zoc(side, h),
    )


def _evade(ctx: CombatContext, side: str) -> bool:
    """ROW-9.5 Evade: only Communist units retreat through enemy ZoCs under the Communist's Evade mission."""
    return ctx.evade and side == COMMUNIST


def _reach(ctx: CombatContext, side: str, path: list[str], hex_: str) -> int:
    """ROW-5.6: the longest legal retreat (at most 3 hexes) that starts with ``path`` away from the combat hex."""
    if ctx.neighbours is None or ctx.distance is None:
        return 0
    geo = _geometry(ctx, side)
    best = len(path) - 1
    frontier = [list(path)]
    while frontier:
        p = frontier.pop()
        best = max(best, len(p) - 1)
        if len(p) < 4:
            frontier += [
                [*p, a["hex"]] for a in L.retreat_step_options(p, hex_, evade=_evade(ctx, side), **geo)
            ]
    return best


def _place(
    dice: Dice,
    counter: str,
    action: Action,
    placer: str,
    units: dict[str, CombatUnit],
    c: CombatSides,
    out: CombatOutcome,
    radio: set[str],
) -> Step:
    """Apply a chosen SNAFU placement (ROW-6.1), including the placer's Key Officer Killed choice (R-CBT-12)."""
    if action.kind == "return_snafu":
        out.cup = out.cup.with_(counter)
        yield ruling(
            "ROW-6.1",
            "SNAFU counter returned",
            f"{counter} goes back to the Cup of SNAFU.",
            {"counter": counter},
        )
        return
    o = R.place_snafu(
        dice, counter, action["face"], units[action["unit"]], list(_sides(c, units).all_units())
    )
    units[o.unit.uid] = o.unit
    for track, n in o.losses.items():
        _add(out.tracks, track, n)
    if o.radio_out_side:
        radio.add(o.radio_out_side)
    if o.returned:
        out.cup = out.cup.with_(*o.returned)
    yield o.ruling
    if o.key_officer_options:
        act = yield Decision(
            placer,
            "Key Officer Killed: which unit is struck?",
            "ROW-6.1",
            list(o.key_officer_options),
            kind="key_officer",
        )
        new, r = R.key_officer(units[act["unit"]], act["strike"])
        units[new.uid] = new
        yield r


def _road_bonus_choice(
    c: CombatSides, units: Mapping[str, CombatUnit], sits: dict[str, SupportSituation], att: str
) -> Step:
    """ROW-5.3.1: where a road joins the declarer's hex and the combat hex (not across a river), the attacker may
    pay 1 tank level at the end of the combat to ignore the terrain for his tank support; offered only when it
    would give him more tank support."""
    plain = available_support(_sides(c, units), ATTACKER, sits[ATTACKER]).result["tank"]
    road_sit = replace(sits[ATTACKER], road_bonus=True)
    with_road = available_support(_sides(c, units), ATTACKER, road_sit).result["tank"]
    if with_road <= plain:
        return
    act = yield Decision(
        att,
        f"Use the road bonus: tank support {with_road} instead of {plain}, for 1 tank level after the combat?",
        "ROW-5.3.1",
        [
            Action.make(
                "road_bonus",
                f"Use the road: tank support up to {with_road}, 1 tank level paid",
                tank=with_road,
            ),
            Action.make("no_road_bonus", f"No road bonus: tank support up to {plain}", tank=plain),
        ],
        kind="road_bonus",
    )
    if act.kind == "road_bonus":
        sits[ATTACKER] = road_sit
    yield ruling(
        "ROW-5.3.1",
        "Road bonus" if act.kind == "road_bonus" else "No road bonus",
        (
            f"A road joins {c.declarer} and the combat hex: the attacker ignores the terrain for his tanks "
            f"(up to {with_road} instead of {plain}) and will pay 1 tank level after the combat, win or lose."
            if act.kind == "road_bonus"
            else f"The attacker does not use the road: his tank support stays under the terrain ({plain})."
        ),
        {"road_bonus": act.kind == "road_bonus", "tank": with_road if act.kind == "road_bonus" else plain},
        side=att,
    )


def resolve_combat(dice: Dice, c: CombatSides, ctx: CombatContext, cup: R.SnafuCup) -> Step:
    """ROW-5.0: resolve one declared combat (chit already drawn) from support to advance; see the module docstring."""
    units: dict[str, CombatUnit] = {u.uid: u for u in c.all_units()}
    out = CombatOutcome(units=units, cup=cup)
    att, dfn = c.attacker_side, c.defender_side
    side_of = {ATTACKER: att, DEFENDER: dfn}
    yield check_participants(c)

    # 1. support, adjacency, size, terrain: the attacker first (5.4.3)
    committed: dict[str, dict[str, int]] = {}
    sits = {ATTACKER: ctx.attack, DEFENDER: ctx.defense}
    for role in (ATTACKER, DEFENDER):
        if role == ATTACKER and ctx.road and not sits[role].road_bonus:
            yield from _road_bonus_choice(c, units, sits, att)
        av = available_support(_sides(c, units), role, sits[role])
        yield av
        chosen = {}
        for kind in SUPPORT_TYPES:
            n = av.result[kind]
            if n <= 0:
                chosen[kind] = 0
                continue
            opts = [
                Action.make("support", f"Use {k} of {n} {kind} support", support=kind, amount=k)
                for k in range(n, -1, -1)
            ]
            act = yield Decision(
                side_of[role],
                f"How much {kind} support does the {role} use?",
                "ROW-5.3.1",
                opts,
                kind="combat_support",
            )
            chosen[kind] = act["amount"]
        cr = commit_support(av.result, chosen, role, side_of[role])
        committed[role] = cr.result["support"]
        yield cr

    # 2. the random event, before the dice (5.5)
    radio: set[str] = set()
    ev = R.random_event(dice, c.chit, c.hex)
    yield ev
    if ev.result["event"] == "objective":
        out.objective = True
    elif ev.result["event"] == "snafu":
        out.cup, drawn = R.draw_snafu(dice, out.cup)
        yield drawn
        counter = drawn.result["drawn"][0]
        placer = side_of[ev.result["placer"]]
        opts = R.placement_options(counter, list(_sides(c, units).all_units()))
        act = yield Decision(
            placer,
            f"Place {counter} (Random Event, {ev.result['placer']} places)",
            "ROW-6.1",
            opts,
            kind="snafu_placement",
        )
        yield from _place(dice, counter, act, placer, units, c, out, radio)
        for role in (ATTACKER, DEFENDER):  # a marker may cut support already declared (5.5)
            now = available_support(_sides(c, units), role, sits[role]).result
            if any(committed[role][k] > now[k] for k in SUPPORT_TYPES):
                cut = cut_support(committed[role], now, role, counter)
                committed[role] = cut.result["support"]
                yield cut

    cs = _sides(c, units)
    size = size_modifiers(cs)
    yield size
    adj = {
        role: adjacent_support(
            cs, role, radio_out=side_of[role] in radio, no_support=ctx.no_adjacent.get(role, "")
        )
        for role in (ATTACKER, DEFENDER)
    }
    yield adj[ATTACKER]
    yield adj[DEFENDER]
    terr = terrain_modifier(
        c.hex, ctx.terrain, ctx.terrain_die_mod, ctx.river_mod, ctx.every_attacker_across_river
    )
    yield terr
    a_mods = die_mods(
        ATTACKER,
        {
            "chit": c.chit.modifier,
            "support": sum(committed[ATTACKER].values()),
            "adjacent": adj[ATTACKER].result,
            "size": size.result[ATTACKER],
            **({"Evade mission": ctx.attack_die_mod} if ctx.attack_die_mod else {}),
        },
        att,
    )
    d_mods = die_mods(
        DEFENDER,
        {
            "support": sum(committed[DEFENDER].values()),
            "adjacent": adj[DEFENDER].result,
            "terrain": terr.result,
            "size": size.result[DEFENDER],
        },
        dfn,
    )
    yield a_mods
    yield d_mods

    # 3. the dice (5.4.1), re-rolls (6.1a), special rolls (5.4.2)
    a_roll = roll_attacker(dice, c.chit, att)
    yield a_roll
    act = yield Decision(
        dfn,
        "Which die does the defender roll?",
        "ROW-5.4.1",
        defender_die_options(cs.defenders),
        kind="defender_die",
    )
    d_die = act["die"]
    d_roll = roll_defender(dice, d_die, cs.defenders, dfn)
    yield d_roll
    for ch in d_roll.changes:
        units[ch["unit"]] = replace(units[ch["unit"]], fresh=False)
    values = {ATTACKER: a_roll.result, DEFENDER: d_roll.result}
    die_of = {ATTACKER: c.chit.die, DEFENDER: d_die}
    used = {ATTACKER: {"own": 0, "enemy": 0}, DEFENDER: {"own": 0, "enemy": 0}}
    for role in (ATTACKER, DEFENDER):
        while True:
            opts = reroll_options(_sides(c, units), role, used[role])
            if len(opts) == 1:
                break
            act = yield Decision(
                side_of[role],
                f"Dice {values[ATTACKER]} (attacker) and {values[DEFENDER]} (defender): re-roll?",
                "ROW-6.1",
                opts,
                kind="reroll",
            )
            if act.kind == "pass_reroll":
                break
            which = act["which"]
            target = role if which == "own" else (DEFENDER if role == ATTACKER else ATTACKER)
            rr = reroll(dice, _sides(c, units), role, which, die_of[target], used[role])
            used[role][which] += 1
            values[target] = rr.result["value"]
            yield rr
    for role in (ATTACKER, DEFENDER):
        sr = special_roll(side_of[role], die_of[role], values[role], list(_sides(c, units).units(role)))
        yield sr
        opts = special_roll_options(sr)
        if opts:
            act = yield Decision(
                side_of[role],
                f"Which unit takes the {sr.result['marker']} marker?",
                "ROW-5.4.2",
                opts,
                kind="quality_marker",
            )
            new, qr = R.quality_marker(units[act["unit"]], act["marker"])
            units[new.uid] = new
            yield qr

    # 4. the spread and the losses (5.6)
    quality: dict[str, str | None] = {}
    for role in (ATTACKER, DEFENDER):
        kinds = side_quality_options(_sides(c, units).units(role))
        if len(kinds) == 2:
            act = yield Decision(
                side_of[role],
                "Your units carry both quality kinds: which one applies?",
                "ROW-5.4.3",
                [Action.make("quality", f"Apply {k}", quality=k) for k in kinds],
                kind="combat_quality",
            )
            quality[role] = act["quality"]
        else:
            quality[role] = kinds[0] if kinds else None
    spread = final_spread(
        values[ATTACKER] + a_mods.result,
        values[DEFENDER] + d_mods.result,
        attacker_quality=quality[ATTACKER],
        defender_quality=quality[DEFENDER],
        attacker_leader=ctx.attacker_leader,
        defender_leader=ctx.defender_leader,
        defence_works=ctx.defence_works,
    )
    yield spread
    out.winner, out.spread = spread.result["winner"], spread.result["spread"]
    cs = _sides(c, units)
    state = L.start_losses(cs, spread)
    loser_side = state.side
    kw = dict(
        max_retreat={
            u: _reach(ctx, loser_side, [ctx.positions[u]], c.hex) if u in ctx.positions else 0
            for u in state.units
        },
        replacements_available=ctx.replacements.get(loser_side, 0),
        tunnel_units=ctx.tunnel_units,
        westmoreland=ctx.westmoreland,
    )
    retreated: list[tuple[str, int]] = []
    while not state.done:
        opts = L.loss_options(state, units, **kw)
        act = yield Decision(
            loser_side,
            f"Absorb the spread: {state.remaining} of {state.spread} left",
            "ROW-5.6",
            opts,
            kind="loss",
        )
        state, lr = L.apply_loss(state, act, units, **kw)
        yield lr
        if act.kind == "loss_point":
            _add(out.tracks, lr.result["track"], 1)
        elif act.kind == "replacement":
            _add(out.replacements, loser_side, -1)
        elif act.kind in ("eliminate", "eliminate_all"):
            for uid in [act["unit"]] if act.kind == "eliminate" else lr.result["units"]:
                out.eliminated.append(uid)
                out.retreats.pop(
                    uid, None
                )  # R-CBT-24: a retreated unit eliminated with the rest ends in the box
                er = L.elimination_roll(dice, units[uid])
                _add(out.tracks, er.result["track"], er.result["amount"])
                yield er
        elif act.kind == "retreat":
            uid, n = act["unit"], act["hexes"]
            path = [ctx.positions[uid]]
            geo = _geometry(ctx, loser_side)
            for _ in range(n):
                steps = [
                    a
                    for a in L.retreat_step_options(path, c.hex, evade=_evade(ctx, loser_side), **geo)
                    if _reach(ctx, loser_side, [*path, a["hex"]], c.hex) >= n
                ]
                a = yield Decision(
                    loser_side,
                    f"Retreat {units[uid].named()}: next hex",
                    "ROW-5.6",
                    steps,
                    kind="retreat_hex",
                    context={"unit": uid},
                )
                path.append(a["hex"])
            pr = L.check_retreat(path, c.hex, evade=_evade(ctx, loser_side), **geo)
            yield pr
            if pr.result["evade_zoc_hexes"]:
                ev_r = L.evade_rolls(dice, pr.result["evade_zoc_hexes"])
                _add(out.tracks, "Body Count", ev_r.result["amount"])
                yield ev_r
            rr = L.retreat_result(units[uid], n)
            yield rr
            ch = rr.changes[0]
            units[uid] = replace(units[uid], fresh=False, markers=frozenset(ch["markers"]))
            out.retreats[uid] = path
            retreated.append((uid, n))
            if rr.result["snafu_draws"]:
                drawer = DEFENDER if state.role == ATTACKER else ATTACKER
                out.cup, drawn = R.draw_snafu(
                    dice, out.cup, rr.result["snafu_draws"], why=f"{rr.result['marker']} {uid}"
                )
                yield drawn
                opts = L.retreat_snafu_options(drawn.result["drawn"], units[uid])
                act = yield Decision(
                    side_of[drawer],
                    f"Place a drawn marker on {units[uid].named()}?",
                    "ROW-6.2",
                    opts,
                    kind="snafu_placement",
                )
                placed = act.get("counter") if act.kind == "place_snafu" else None
                back = [x for x in drawn.result["drawn"] if x != placed]
                if placed:
                    yield from _place(dice, placed, act, side_of[drawer], units, c, out, radio)
                if back:
                    out.cup = out.cup.with_(*back)
    if retreated:
        sl = L.retreat_support_losses(loser_side, [n for _, n in retreated], committed[state.role])
        yield sl
        for kind, n in sl.result.items():
            _add(out.support_levels.setdefault(loser_side, {}), kind, -n)
    if sits[ATTACKER].road_bonus and committed[ATTACKER]["tank"] > 0:
        rb = L.road_bonus_cost(att, True)
        yield rb
        _add(out.support_levels.setdefault(att, {}), "tank", -1)

    # 5. after the combat (5.7, 6.2j)
    lm = L.low_morale_after_combat(_sides(c, units), spread)
    if lm is not None:
        yield lm
        if lm.result["removed"]:
            units[c.declarer.uid] = units[c.declarer.uid].with_markers(remove=["Low Morale"])
    gone = set(out.eliminated) | set(out.retreats)
    # R-CBT-22: a unit gone into its hex's tunnel leaves the hex open to the advance
    vacated = all(u.uid in gone or u.uid == state.tunnel for u in c.defenders)
    chosen: list[str] = []
    while True:
        opts = [
            a
            for a in L.advance_options(_sides(c, units), spread, vacated, gone)
            if a.get("unit") not in chosen
        ]
        if len(opts) <= 1:
            break
        act = yield Decision(
            att, f"Advance into {c.hex}?", "ROW-5.7", opts, kind="advance", context={"advanced": list(chosen)}
        )
        if act.kind == "no_advance":
            break
        chosen.append(act["unit"])
    if vacated and out.winner == ATTACKER:
        adv = L.advance(_sides(c, units), spread, vacated, chosen, gone)
        yield adv
        out.advanced, out.adv_mp = chosen, adv.result["adv_mp"]
    out.units = units
    out.tunnel = state.tunnel
    return out


def map_results(
    out: CombatOutcome,
    before: Mapping[str, tuple[bool, frozenset[str]]],
    quality: Mapping[str, str | None],
    name: Callable[[str], str] = str,
) -> tuple[dict[str, tuple[bool, tuple[str, ...]]], Ruling | None]:
    """ROW-5.4.1 / ROW-5.6 / ROW-6.1 / ROW-6.2: what a resolved combat leaves on the map for the units still on it,
    as the game writes it, and the ruling that says so before anything else is asked (issue #26 item 24).

    ``before``: each participating unit's fresh flag and markers when the combat began; ``quality``: its printed
    quality (Elite, Poor...), which is not a marker.  Returns ``{uid: (fresh, markers)}`` for the units whose state
    changed, and a ruling naming each change and each retreat path (None when nothing changed)."""
    gone = set(out.eliminated)
    new: dict[str, tuple[bool, tuple[str, ...]]] = {}
    bits: list[str] = []
    for uid, cu in sorted(out.units.items()):
        if uid in gone or uid not in before:
            continue
        fresh0, marks0 = before[uid]
        marks = tuple(sorted(m for m in cu.markers if m != quality.get(uid)))
        if cu.fresh == fresh0 and set(marks) == set(marks0):
            continue
        new[uid] = (cu.fresh, marks)
        what = []
        if fresh0 and not cu.fresh:
            what.append("is spent")
        added = sorted(set(marks) - set(marks0))
        lost = sorted(set(marks0) - set(marks))
        if added:
            what.append("now carries " + ", ".join(added))
        if lost:
            what.append("no longer carries " + ", ".join(lost))
        bits.append(f"{name(uid)} " + " and ".join(what))
    for uid, path in sorted(out.retreats.items()):
        bits.append(f"{name(uid)} retreats {' -> '.join(path)}")
    if not bits:
        return new, None
    return new, ruling(
        "ROW-5.6",
        "Combat results on the map",
        "After the combat: " + "; ".join(bits) + ".",
        {
            "units": {u: {"fresh": f, "markers": list(m)} for u, (f, m) in new.items()},
            "retreated": sorted(out.retreats),
        },
        places=sorted({h for p in out.retreats.values() for h in p}),
    )
