"""Movement (ROW-4.0: ROW-4.1 - ROW-4.8 except 4.6): terrain costs, roads and trail, rivers, zones of control, the one-hex
minimum move, strategic, reserve and exploitation movement, HQ movement, and the stacking check of ROW-4.2.

* ROW-4.1: a piece pays the Terrain Effects Chart cost of each hex it enters (``data/row/map/tec.csv``, a
  reconstruction, R-MAP-15): the hex's terrain, or 1 in a town or city; 1 along a road hexside whatever the terrain;
  the Communist pays 1 along a trail hexside; +1 across a river hexside unless a bridge carries a road over it;
  all-sea hexes are closed.  Each side has its own costs.  A piece may not enter a hex it cannot pay for, except the
  one-hex minimum move (initial and reserve movement only; not from one enemy ZoC into another; no combat after it).
* ROW-4.3: entering an enemy ZoC costs +1 MP unless a friendly unit is in the hex (``control.enemy_zoc``).
* ROW-4.4: Communist strategic movement, 10 MP, fresh pieces only, never starting in or entering an enemy ZoC.
* ROW-4.5: initial movement of 5 MP; the active HQ moves 10 MP at the end of its activation.
* ROW-4.7: reserve movement of 5 MP (the HQ too, decision R-HQ-02), never starting in an enemy ZoC.
* ROW-4.8: early exploitation of 3 MP never entering an enemy ZoC; exploitation after combat of the chit's Adv MP.
* ROW-9.5 mission limits: Hearts and Minds (Capitalist units never enter a Communist ZoC), Infiltrate (Communist
  units ignore enemy ZoC), Evade (Communist units never end a move in an enemy ZoC).
* ROW-14.6: operational areas (``control.allowed_hexes``).
* ROW-4.2: at the end of an activation at most one spent unit per hex (US battalions exempt); the owner chooses
  which to eliminate.

Costs are kept in sixths of an MP (exact for the halves and thirds of helicopter and amphibious moves).  The
per-side edge costs are built once per map; a search over the whole map takes a few milliseconds.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from ..core import Action, IllegalAction
from ..core.rulings import Lookup, Ruling, indexed_ruling
from ..maps.hexgrid import hexside
from .control import allowed_hexes, enemy_zoc, in_enemy_zoc, zoc_hexes
from .hexmap import RowMap, load_map
from .pieces import CAPITALIST, COMMUNIST, Piece, Situation

TICKS = 6  # one MP in sixths
UNIT_MP = 5  # ROW-4.5
HQ_MP = 10  # ROW-4.5
STRATEGIC_MP = 10  # ROW-4.4
EARLY_EXPLOITATION_MP = 3  # ROW-4.8


_ruling = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


@dataclass(frozen=True)
class Mode:
    """One kind of movement: its rule, MP allowance, whether the one-hex minimum applies, how enemy ZoC is treated
    (``"cost"`` +1 MP, ``"forbid"`` never entered) and whether the piece may start in an enemy ZoC."""

    name: str
    rule_id: str
    mp: int
    one_hex_minimum: bool
    zoc: str
    may_start_in_zoc: bool
    hq: bool = False


MODES = {
    "initial": Mode("initial", "ROW-4.5", UNIT_MP, True, "cost", True),
    "reserve": Mode("reserve", "ROW-4.7", UNIT_MP, True, "cost", False),
    "reserve_hq": Mode("reserve_hq", "ROW-4.7", UNIT_MP, False, "cost", False, hq=True),
    "early_exploitation": Mode(
        "early_exploitation", "ROW-4.8", EARLY_EXPLOITATION_MP, False, "forbid", False
    ),
    "exploitation": Mode("exploitation", "ROW-4.8", 0, False, "cost", True),
    "strategic": Mode("strategic", "ROW-4.4", STRATEGIC_MP, False, "forbid", False),
    # 4.4: fresh Communist HQs move strategically too (10 MP, no LoC, never in or into an enemy ZoC, stay fresh)
    "strategic_hq": Mode("strategic_hq", "ROW-4.4", STRATEGIC_MP, False, "forbid", False, hq=True),
    "hq": Mode("hq", "ROW-4.5", HQ_MP, False, "cost", True, hq=True),
}
MISSIONS_AFFECTING_MOVES = ("hearts_and_minds", "infiltrate", "evade")


# ------------------------------------------------------------------------------------------ terrain costs
_TICKS: dict[tuple[int, str, str], int | None] = {}


def _tec_ticks(m: RowMap, feature: str, side: str) -> int | None:
    key = (id(m.tec), feature, side)
    if key not in _TICKS:
        v = m.tec_mp(feature, side)  # type: ignore[arg-type]
        _TICKS[key] = None if v is None else int(v * TICKS)
    return _TICKS[key]


def step_cost(m: RowMap, side: str, frm: str, to: str) -> tuple[int | None, str]:
    """ROW-4.1: the cost in sixths of an MP for ``side`` to move from ``frm`` into the adjacent ``to`` (before any
    ZoC cost), and the TEC rows read.  None = the hex may not be entered (all sea)."""
    return _entry_cost(m, side, to, m.side_features(frm, to))


def _entry_cost(m: RowMap, side: str, to: str, feats: frozenset[str]) -> tuple[int | None, str]:
    """:func:`step_cost` into the map hex ``to`` across a hexside with the features ``feats``."""
    h = m.hexes[to]
    if h.kind == "sea":
        return None, "all-sea hex: prohibited"
    river = "river" in feats and "bridge" not in feats
    if "road" in feats:
        base, why = _tec_ticks(m, "road", side), "road hexside"
    elif "trail" in feats and side == COMMUNIST:
        base, why = _tec_ticks(m, "trail", side), "trail hexside"
    else:
        town = m.settlement(to)
        feature = town or h.terrain
        base, why = _tec_ticks(m, feature, side), feature
    if base is None:
        return None, f"{why}: prohibited"
    if river:
        base += int(
            Fraction(m.tec["river"].mp_capitalist if side == CAPITALIST else m.tec["river"].mp_communist)
            * TICKS
        )
        why += " + river hexside"
    elif "bridge" in feats:
        why += " (bridge)"
    return base, why


NO_FEATURES: frozenset[str] = frozenset()
_EDGES: dict[tuple[int, str], tuple[list[str], dict[str, int], list[list[tuple[int, int]] | None]]] = {}


def _edges(m: RowMap, side: str):
    """Per map and side: hex ids, their index, and for each hex its (neighbour index, ticks) edges, or None for a
    hex whose edges are not built yet (:func:`_edges_at` builds them the first time a search leaves that hex, so
    a short trace at set-up does not pay for the whole map; issue #21)."""
    key = (id(m), side)
    if key not in _EDGES:
        ids = list(m.hexes)
        _EDGES[key] = (ids, {h: i for i, h in enumerate(ids)}, [None] * len(ids))
    return _EDGES[key]


def _edges_at(m: RowMap, side: str, i: int) -> list[tuple[int, int]]:
    """The (neighbour index, ticks) edges out of hex number ``i`` for ``side``, built once."""
    ids, index, edges = _edges(m, side)
    out = edges[i]
    if out is None:
        out = []
        frm = ids[i]
        for n in m.adj[frm]:  # adjacent map hexes, so the hexside's features are read straight from the map
            c, _ = _entry_cost(m, side, n, m.sides.get(hexside(frm, n), NO_FEATURES))
            if c is not None:
                out.append((index[n], c))
        edges[i] = out
    return out


def search(
    m: RowMap,
    side: str,
    start: str,
    budget: int | None,
    *,
    allowed: frozenset[str],
    blocked: frozenset[str] = frozenset(),
    zoc: frozenset[str] = frozenset(),
    zoc_rule: str = "cost",
    zoc_extra: int = TICKS,
    stop_at: frozenset[str] | set[str] | None = None,
) -> tuple[dict[str, int], dict[str, str]]:
    """Cheapest costs (in sixths of an MP) from ``start`` to every hex reachable within ``budget`` (None: no limit).

    ``allowed``: hexes the piece may enter (ROW-14.6); ``blocked``: hexes it may not enter (enemy units);
    ``zoc``: enemy ZoC hexes not negated; ``zoc_rule``: ``"cost"`` (+``zoc_extra``), ``"forbid"`` or ``"ignore"``.
    ``stop_at``: when given, the search stops once the cheapest hex of that set is settled and every hex as cheap
    has been settled too, so the costs of the nearest targets (and of all their ties) are exact and the rest of the
    map is not searched (a speed-up for whole-map traces; the nearest target found is the same).
    Returns (cost by hex, predecessor by hex).  Pure Dijkstra over the per-side edge lists.
    """
    ids, index, edges = _edges(m, side)
    s = index[start]
    # Distances in a list indexed by hex number (faster than a dict in this inner loop); ``order`` keeps the order in
    # which hexes were first reached, so the returned dicts iterate exactly as before (callers break ties by it).
    inf = 1 << 60
    dist = [inf] * len(ids)
    dist[s] = 0
    order = [s]
    prev: dict[int, int] = {}
    heap = [(0, s)]
    pop, push = heapq.heappop, heapq.heappush
    cost_zoc = zoc_rule == "cost"
    forbid_zoc = zoc_rule == "forbid"
    limit = inf if budget is None else budget
    bound = None
    while heap:
        d, i = pop(heap)
        if d > dist[i]:
            continue
        if bound is not None and d > bound:
            break
        if stop_at is not None and bound is None and ids[i] in stop_at:
            bound = d
        for j, c in edges[i] or _edges_at(m, side, i):
            h = ids[j]
            if h not in allowed or h in blocked:
                continue
            if h in zoc:
                if forbid_zoc:
                    continue
                if cost_zoc:
                    c += zoc_extra
            nd = d + c
            if nd > limit:
                continue
            old = dist[j]
            if nd < old:
                if old == inf:
                    order.append(j)
                dist[j] = nd
                prev[j] = i
                push(heap, (nd, j))
    return {ids[i]: dist[i] for i in order}, {ids[j]: ids[i] for j, i in prev.items()}


# ------------------------------------------------------------------------------------------ reachable hexes
@dataclass(frozen=True)
class Reach:
    """Where a piece can go in one movement: cost (sixths of an MP) and predecessor of each hex, and the hexes open
    only by the one-hex minimum move (ROW-4.1).  ``ends`` are the hexes it may end in (Evade, ROW-9.5)."""

    piece: Piece
    mode: Mode
    mp: int
    costs: dict[str, int]
    prev: dict[str, str]
    one_hex: frozenset[str]
    ends: frozenset[str]
    routs: dict[str, tuple[str, ...]]

    def path(self, hid: str) -> tuple[str, ...]:
        if hid in self.one_hex:
            return (self.piece.hex, hid)
        if hid not in self.costs:
            raise KeyError(f"{self.piece} cannot reach {hid} by {self.mode.name} movement")
        out = [hid]
        while out[-1] != self.piece.hex:
            out.append(self.prev[out[-1]])
        return tuple(reversed(out))

    def mp_spent(self, hid: str) -> Fraction:
        if hid in self.one_hex:
            return Fraction(self.mp)
        return Fraction(self.costs[hid], TICKS)


def _zoc_rule(piece: Piece, mode: Mode, mission: str | None) -> str:
    if piece.side == COMMUNIST and mission == "infiltrate":
        return "ignore"  # ROW-9.5 Infiltrate (decision R-MOV-07: also for strategic and early exploitation moves)
    if piece.side == CAPITALIST and mission == "hearts_and_minds" and not piece.is_hq:
        return "forbid"  # ROW-9.5 Hearts and Minds
    return mode.zoc


def _context(piece: Piece, situation: Situation, mode: Mode, mission: str | None, m: RowMap):
    enemy_side = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
    allowed = allowed_hexes(piece, situation.invaded, m)
    blocked = set(situation.occupied(enemy_side))
    if piece.is_hq:  # an HQ is not a unit: it cannot rout an enemy HQ by entering its hex (9.1)
        blocked |= {p.hex for p in situation.hqs(enemy_side)}
    zoc = enemy_zoc(situation, piece.side, m)
    return allowed, frozenset(blocked), zoc, _zoc_rule(piece, mode, mission)


def _check_mode(
    piece: Piece, situation: Situation, mode: Mode, mission: str | None, m: RowMap, zoc_rule: str
) -> None:
    if mode.hq != piece.is_hq:
        raise IllegalAction(
            mode.rule_id, f"{piece}: {mode.name} movement is for {'HQs' if mode.hq else 'units'}"
        )
    if piece.special_forces:
        raise IllegalAction("ROW-14.1.5", f"{piece} is a Special Forces battalion: it never leaves its hex")
    if (
        mission == "search_and_destroy"
        and piece.kind == "unit"
        and piece.nationality == "US"
        and piece.unit_type != "battalion"
    ):
        raise IllegalAction(
            "ROW-9.5",
            f"{piece} may not move: under Search and Destroy only US battalions move among the US forces "
            "(its battalions may be created and fly, 14.1.1)",
        )
    if mode.name in ("strategic", "strategic_hq"):
        if piece.side != COMMUNIST:
            raise IllegalAction("ROW-4.4", "in Vietnam only the Communist makes strategic movement")
        if not piece.fresh:
            raise IllegalAction("ROW-4.4", f"{piece} is spent: only fresh HQs and units move strategically")
    if not mode.may_start_in_zoc and zoc_rule != "ignore":
        if piece.is_hq:
            other = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
            bad = piece.hex in zoc_hexes(situation, other, m) - situation.occupied(piece.side)
        else:
            bad = in_enemy_zoc(piece, situation, m)
        if bad:
            raise IllegalAction(
                mode.rule_id,
                f"{piece} starts in an enemy ZoC at {piece.hex} and may not make a "
                f"{mode.name.replace('_', ' ')} move",
            )


def reachable(
    piece: Piece,
    situation: Situation,
    mode: str,
    *,
    mp: int | None = None,
    mp_spent: Fraction = Fraction(0),
    mission: str | None = None,
    m: RowMap | None = None,
) -> Reach:
    """ROW-4.1 / ROW-4.3 / ROW-4.4 / ROW-4.5 / ROW-4.7 / ROW-4.8: every hex ``piece`` may reach by one ``mode``
    movement, with the cheapest path to each.

    ``mp`` overrides the mode's allowance (the chit's Adv MP for ``"exploitation"``); ``mp_spent`` is what the
    piece has already spent in this movement (the one-hex minimum needs none spent).  ``mission`` is the moving
    side's HQ mission in force (ROW-9.5).  Raises IllegalAction if the piece may not make this movement at all.
    """
    m = m or load_map()
    try:
        md = MODES[mode]
    except KeyError:
        raise IllegalAction("ROW-4.1", f"unknown movement {mode!r}; kinds are {tuple(MODES)}") from None
    allowance = md.mp if mp is None else mp
    if allowance < 0 or mp_spent < 0 or mp_spent > allowance:
        raise IllegalAction(md.rule_id, f"bad MP: allowance {allowance}, already spent {mp_spent}")
    if piece.hex not in m:
        raise IllegalAction("ROW-4.1", f"{piece} is not on a map hex ({piece.hex!r})")
    allowed, blocked, zoc, rule = _context(piece, situation, md, mission, m)
    _check_mode(piece, situation, md, mission, m, rule)
    budget = int((allowance - mp_spent) * TICKS)
    costs, prev = search(
        m, piece.side, piece.hex, budget, allowed=allowed, blocked=blocked, zoc=zoc, zoc_rule=rule
    )
    one: set[str] = set()
    if md.one_hex_minimum and mp_spent == 0 and not piece.is_hq:
        start_zoc = in_enemy_zoc(piece, situation, m)
        for n in m.neighbours(piece.hex):
            if n in costs or n not in allowed or n in blocked or m.hex(n).kind == "sea":
                continue
            if rule == "forbid" and n in zoc:
                continue
            if start_zoc and n in zoc and rule != "ignore":
                continue  # ROW-4.1: never from one enemy ZoC into another
            one.add(n)
    ends = set(costs) | one
    ends.discard(piece.hex)
    if piece.side == COMMUNIST and mission == "evade" and not piece.is_hq:
        ends -= zoc  # ROW-9.5 Evade: never end a move in an enemy ZoC
    enemy_side = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
    hq_at: dict[str, list[str]] = {}
    if not piece.is_hq:
        for h in situation.hqs(enemy_side):
            hq_at.setdefault(h.hex, []).append(h.uid)
    # ROW-9.1: an enemy HQ in any hex the unit may enter (on its path or at its end) is routed when it passes
    routs = {h: tuple(v) for h, v in hq_at.items() if h in costs or h in one}
    return Reach(piece, md, allowance, costs, prev, frozenset(one), frozenset(ends), routs)


def move_options(piece: Piece, situation: Situation, mode: str, **kw) -> list[Action]:
    """The destinations of one ``mode`` movement of ``piece`` as Actions (the player chooses; staying is
    offered as ``"stay"``).  Each carries the cheapest path and its MP; ``one_hex_minimum`` marks a move open only
    by that rule (no combat may follow it)."""
    r = reachable(piece, situation, mode, **kw)
    opts = []
    for h in sorted(r.ends):
        p = r.path(h)
        spent = r.mp_spent(h)
        label = (
            f"Move {piece} to {h} ({float(spent):g} MP"
            + (", one-hex minimum" if h in r.one_hex else "")
            + ")"
        )
        caught = [u for x in p[1:] for u in r.routs.get(x, ())]
        if caught:
            label += f", routing enemy HQ {', '.join(caught)}"
        opts.append(
            Action.make(
                "move",
                label,
                [h],
                unit=piece.uid,
                to=h,
                path=p,
                mp=str(spent),
                one_hex_minimum=h in r.one_hex,
                mode=mode,
            )
        )
    opts.append(Action.make("stay", f"{piece} stays at {piece.hex}", [piece.hex], unit=piece.uid, mode=mode))
    return opts


def check_move(
    piece: Piece,
    situation: Situation,
    path: Sequence[str],
    mode: str,
    *,
    mp: int | None = None,
    mp_spent: Fraction = Fraction(0),
    mission: str | None = None,
    m: RowMap | None = None,
) -> Ruling:
    """ROW-4.1 and the rule of ``mode``: is the path (starting at the piece's hex) legal?  Raises IllegalAction
    naming the rule broken; otherwise the ruling lists each step's cost and the result
    ``{"to", "path", "mp_spent", "mp_left", "one_hex_minimum", "zoc_entered", "routs"}``."""
    m = m or load_map()
    md = MODES.get(mode)
    if md is None:
        raise IllegalAction("ROW-4.1", f"unknown movement {mode!r}; kinds are {tuple(MODES)}")
    path = tuple(path)
    if len(path) < 2 or path[0] != piece.hex:
        raise IllegalAction(
            "ROW-4.1", f"a move of {piece} must start at its hex {piece.hex} and enter at least one hex"
        )
    allowance = md.mp if mp is None else mp
    allowed, blocked, zoc, rule = _context(piece, situation, md, mission, m)
    _check_mode(piece, situation, md, mission, m, rule)
    spent = Fraction(mp_spent) * TICKS
    budget = allowance * TICKS
    steps, entered_zoc = [], []
    for a, b in zip(path, path[1:], strict=False):
        if b not in m.neighbours(a):
            raise IllegalAction("ROW-4.1", f"{a} and {b} are not adjacent")
        if b not in allowed:
            raise IllegalAction(
                "ROW-14.6", f"{piece} may not enter {b} ({m.area(b)}): outside its operational limits"
            )
        if b in blocked:
            raise IllegalAction(
                "ROW-4.1", f"{b} holds enemy {'pieces' if piece.is_hq else 'units'}: it may not be entered"
            )
        c, why = step_cost(m, piece.side, a, b)
        if c is None:
            raise IllegalAction("ROW-4.1", f"{b} may not be entered ({why})")
        if b in zoc:
            if rule == "forbid":
                rid = "ROW-9.5" if piece.side == CAPITALIST and mission == "hearts_and_minds" else md.rule_id
                raise IllegalAction(rid, f"{piece} may not enter the enemy ZoC at {b} during this movement")
            if rule == "cost":
                c += TICKS
                why += " + enemy ZoC"
                entered_zoc.append(b)
        spent += c
        steps.append((b, Fraction(c, TICKS), why))
    one_hex = False
    if spent > budget:
        start_zoc = in_enemy_zoc(piece, situation, m)
        if (
            md.one_hex_minimum
            and len(path) == 2
            and mp_spent == 0
            and not piece.is_hq
            and not (start_zoc and path[1] in zoc and rule != "ignore")
        ):
            one_hex = True
            spent = Fraction(budget)
        else:
            why = (
                "it would cost "
                + f"{float(Fraction(spent, TICKS)):g} MP of {allowance}"
                + (
                    ""
                    if md.one_hex_minimum
                    else f"; no one-hex minimum in {md.name.replace('_', ' ')} movement"
                )
                + (
                    "; the one-hex minimum never goes from one enemy ZoC to another"
                    if md.one_hex_minimum and len(path) == 2 and in_enemy_zoc(piece, situation, m)
                    else ""
                )
            )
            raise IllegalAction("ROW-4.1", f"{piece} cannot pay for {'-'.join(path)}: {why}")
    if piece.side == COMMUNIST and mission == "evade" and not piece.is_hq and path[-1] in zoc:
        raise IllegalAction(
            "ROW-9.5", f"under Evade {piece} may not end its move in the enemy ZoC at {path[-1]}"
        )
    enemy_side = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
    routs = [] if piece.is_hq else [h.uid for h in situation.hqs(enemy_side) if h.hex in path[1:]]
    total = Fraction(spent, TICKS)
    text = (
        f"{piece} moves {'-'.join(path)} ({md.name.replace('_', ' ')} movement): "
        + "; ".join(f"{b} {float(c):g} ({w})" for b, c, w in steps)
        + f"; {float(total):g} of {allowance} MP spent"
        + (" (one-hex minimum: all its MP, and no combat may be declared after it)" if one_hex else "")
        + (f"; enemy HQ {', '.join(routs)} routed" if routs else "")
        + "."
    )
    return _ruling(
        md.rule_id,
        "Movement",
        text,
        {
            "to": path[-1],
            "path": path,
            "mp_spent": total,
            "mp_left": Fraction(allowance) - total,
            "one_hex_minimum": one_hex,
            "zoc_entered": tuple(entered_zoc),
            "routs": tuple(routs),
        },
        inputs={
            "piece": piece.uid,
            "mode": mode,
            "allowance": allowance,
            "mp_already_spent": mp_spent,
            "mission": mission,
        },
        lookup=Lookup(
            "Terrain Effects Chart",
            steps[-1][2],
            piece.side,
            f"{float(steps[-1][1]):g}",
            reconstructed=True,
            source="data/row/map/tec.csv",
        ),
        side=piece.side,
        places=path,
        changes=({"piece": piece.uid, "hex": path[-1]},),
    )


def command_costs(
    hq: Piece,
    situation: Situation,
    budget_mp: int = HQ_MP,
    m: RowMap | None = None,
    mission: str | None = None,
) -> dict[str, int]:
    """ROW-9.2 step 2 / ROW-4.5 (decision R-HQ-03): the MP (in sixths) from an HQ to every hex within its 10-MP
    command range: its side's terrain and ZoC costs, never through enemy units, inside its operational limits
    (ROW-14.6).  A dict hex -> sixths of an MP."""
    m = m or load_map()
    allowed = allowed_hexes(hq, situation.invaded, m)
    enemy_side = COMMUNIST if hq.side == CAPITALIST else CAPITALIST
    zoc = enemy_zoc(situation, hq.side, m)
    rule = "ignore" if hq.side == COMMUNIST and mission == "infiltrate" else "cost"
    costs, _ = search(
        m,
        hq.side,
        hq.hex,
        budget_mp * TICKS,
        allowed=allowed | {hq.hex},
        blocked=situation.occupied(enemy_side),
        zoc=zoc,
        zoc_rule=rule,
    )
    return costs


# ------------------------------------------------------------------------------------------ stacking
def stacking_check(situation: Situation, side: str) -> Ruling:
    """ROW-4.2: at the end of an activation at most one spent unit of ``side`` per hex; fresh units, HQs, US
    battalions and units inside tunnels (decision R-MOV-04) do not count.  Result: ``{hex: [spent units]}`` for
    every overstacked hex (empty when legal)."""
    by_hex: dict[str, list[str]] = {}
    for p in situation.units(side):
        if not p.fresh and not p.us_battalion and not p.in_tunnel:
            by_hex.setdefault(p.hex, []).append(p.uid)
    over = {h: sorted(v) for h, v in sorted(by_hex.items()) if len(v) > 1}
    text = (
        f"{side} stacking is legal: no hex holds more than one spent unit."
        if not over
        else f"{side} is overstacked in "
        + "; ".join(f"{h} ({', '.join(v)})" for h, v in over.items())
        + ": the owner eliminates spent units there until one is left; each goes to the Replacements box with "
        "its US Casualty or Body Count roll."
    )
    return _ruling(
        "ROW-4.2", "Stacking check", text, over, inputs={"side": side}, side=side, places=tuple(over)
    )


def stacking_options(situation: Situation, side: str) -> list[Action]:
    """ROW-4.2: the eliminations the owner may choose, one Action per spent unit in an overstacked hex (he picks one
    at a time until :func:`stacking_check` is empty)."""
    over = stacking_check(situation, side).result
    return [
        Action.make(
            "eliminate_overstacked", f"Eliminate {situation.piece(u)} at {h} (overstacked)", [h], unit=u
        )
        for h, us in over.items()
        for u in us
    ]
