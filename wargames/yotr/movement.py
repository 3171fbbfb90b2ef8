"""Movement (YOTR-MOV), zones of control (YOTR-ZOC) and the Terrain Effects Chart (YOTR-TEC).

A move is one decision for the unit and one for its destination, chosen among every hex it can reach this
phase (a cheapest-path search over the TEC costs), so the unit's whole path is committed at once (YOTR-MOV-G).
The player traces the path: where the legal paths to a destination differ in what they do on the way (a town
taken by passing it, YOTR-TWN-H, D-55), each distinct path is offered instead of the destination alone
(decision D-67); paths that do the same thing are one move, taken along the cheapest.

* YOTR-MOV-A / YOTR-MOV-R / YOTR-TEC: entry cost by terrain (clear 1, rough or swamp 2), or the road rate
  through a road hexside (Communist 1, Allied 1/2) or the Allied trail rate (2) through a trail hexside
  (YOTR-MOV-Q, YOTR-TEC-3); the Communist pays the terrain on trails (D-44); +3 across an unbridged river
  (YOTR-TEC-6); sea hexes are prohibited.
* YOTR-MOV-P: ARVN enter rough or swamp only through a road or trail hexside.
* YOTR-MOV-F / YOTR-TWN-C: never into enemy units, enemy militia towns or (Allied) an intact Supply Center
  (D-27); YOTR-TWN-H / YOTR-DUM-B: an empty strength-0 Allied town is captured by moving in or through (D-19).
* YOTR-MOV-S: no Allied unit in North Vietnam; ROK and NLF stay in their Region; USA never move.
* YOTR-MOV-J: one hex is always possible (never over a prohibition, D-45); YOTR-MOV-L: Isolated Communist and
  Unsupplied Allied units have half their allowance (D-14, D-39).
* YOTR-ZOC / YOTR-ZOC-G: enemy zones stop movement; entering costs +1 (Communist) / +2 (Allied), leaving
  +2 / +3; YOTR-ZOC-E: never straight from one enemy zone to another; YOTR-ZOC-F1: no zone across a river
  hexside; YOTR-ZOC-F2: USA zones only once a USA unit has been attacked; YOTR-ZOC-F3: ARVN zones never reach
  rough or swamp (a limit by terrain only: they do reach clear North Vietnamese hexes); YOTR-ZOC-B: zones
  reach hexes with friendly units for movement.
* YOTR-MOV-T: airmobile units hop between friendly South Vietnamese towns and bases for 3 points plus zone
  costs (D-24, D-59); one unit in or out of a besieged town per phase (YOTR-TWN-N, D-25).
* YOTR-MOV-M: Communist counters move face down; the Allied log shows only that a counter moved.
* YOTR-MOV-B: moving is voluntary (the "done" and "stay" choices); YOTR-MOV-N: no stacking limit;
  YOTR-MOV-H: mixed terrain is crossed hex by hex, paying each cost; YOTR-MOV-E: no combat while moving;
  YOTR-ZOC-A: a side's own zones never hinder it (only the enemy's zones are read).
* YOTR-TEC-2: town, base and Supply Center symbols cost nothing themselves; the hex's terrain is paid.
* YOTR-DUM / YOTR-DUM-A: dummies move like NVA units (six points, same costs, zones of their own).
* YOTR-SR-F (option ``special_rule_f``): Allied units move freely, USA and ROK included, even into North
  Vietnam (decision D-21).
* YOTR-SOP-A2b / YOTR-SOP-B2b: the two Movement Phases.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from functools import cache, lru_cache

from ..core import Action, IllegalAction
from .data import load_data

DONE_MOVING = "done"

_MP = {
    c: f"{c / 2:g}" for c in range(64)
}  # half points -> movement points as a destination's label shows them
#: unit -> (hex, half points) -> its "move there" Action: the same unit reaches the same hex at the same cost again
#: and again over a game (and over the games of a Monte Carlo), and Actions are immutable, so each is built once
_DESTINATIONS: dict[str, dict[tuple[str, int], Action]] = {}


@cache
def _outside(region: str) -> frozenset[str]:
    """Hexes outside ``region`` (closed to ROK and NLF units, YOTR-MOV-S)."""
    return frozenset(h for h, r in load_data().hexes.items() if r.region != region)


@cache
def _extra_costs(who: str) -> tuple[int, int, int]:
    """Half points to enter and to leave an enemy zone (YOTR-ZOC-G) and for an air hop (YOTR-MOV-T)."""
    d = load_data()
    tec = "allied" if who == "arvn" else who
    return (
        int(2 * d.tec_mp("enter_enemy_zoc", tec)),
        int(2 * d.tec_mp("leave_enemy_zoc", tec)),
        int(2 * d.tec_mp("airlift", "allied")),
    )


@cache
def _zoc_reach(arvn: bool) -> dict[str, tuple[str, ...]]:
    """The hexes a unit's zone reaches from each hex: never across a river hexside (YOTR-ZOC-F1); for ARVN
    never into rough or swamp (YOTR-ZOC-F3 limits ARVN zones by terrain type only, so a clear hex of North
    Vietnam next to an ARVN unit is in its zone although the unit may not move there, YOTR-MOV-S)."""
    d = load_data()
    sides, none = d.pair_features, frozenset()
    closed = {h for h in d.hexes if d.terrain(h) in ("rough", "swamp")} if arvn else set()
    return {
        h: tuple(n for n in ns if "river" not in sides.get((h, n), none) and n not in closed)
        for h, ns in d.adj.items()
    }


@cache
def _edge_costs(who: str, no_nvn: bool, communist_trail: int | None) -> dict[str, dict[str, int]]:
    """hex -> {neighbour: entry cost in half points} for a mover class (YOTR-TEC, YOTR-MOV-P, YOTR-MOV-Q)."""
    d = load_data()
    tec = "allied" if who == "arvn" else who
    road = d.tec_mp("road", who)
    trail = d.tec_mp("trail", who)
    if who == "communist" and communist_trail is not None:
        trail = Fraction(communist_trail)  # D-44 alternative
    river = d.tec_mp("river", who)
    terrain_mp = {t: d.tec_mp(t, tec) for t in ("clear", "rough", "swamp")}

    def cost(terrain: str, feats: frozenset[str]) -> int | None:
        options = []
        if "road" in feats:
            options.append(road)
        if "trail" in feats and trail is not None:
            options.append(trail)
        if not (who == "arvn" and terrain in ("rough", "swamp")):
            options.append(terrain_mp[terrain])
        options = [o for o in options if o is not None]
        if not options:
            return None
        best = min(options)
        if "river" in feats and "bridge" not in feats:
            best += river
        return int(2 * best)

    costs: dict[tuple[str, frozenset[str]], int | None] = {}  # a few terrain and hexside combinations
    none: frozenset[str] = frozenset()
    out: dict[str, dict[str, int]] = {}
    for a, ns in d.adj.items():
        row: dict[str, int] = {}
        for b in ns:
            terrain = d.terrain(b)
            if terrain == "sea" or (no_nvn and d.country(b) == "NVN"):
                continue
            key = (terrain, d.pair_features.get((a, b), none))
            if key not in costs:
                costs[key] = cost(*key)
            if costs[key] is not None:
                row[b] = costs[key]
        out[a] = row
    return out


@cache
def _steps(
    who: str, no_nvn: bool, communist_trail: int | None, home: str | None
) -> dict[str, tuple[tuple[str, int], ...]]:
    """:func:`_edge_costs` as tuples of (neighbour, half points), in the map's neighbour order, without the hexes
    outside ``home`` (YOTR-MOV-S: ROK and NLF stay in their Region); what the path searches walk."""
    edges = _edge_costs(who, no_nvn, communist_trail)
    outside = _outside(home) if home is not None else frozenset()
    return {
        a: tuple((b, c) for b, c in row.items() if b not in outside)
        for a, row in edges.items()
        if a not in outside
    }  # a unit kept in its Region never stands outside it


@lru_cache(maxsize=64)
def _search(
    start: str,
    ma: int,
    who: str,
    no_nvn: bool,
    communist_trail: int | None,
    home: str | None,
    ezoc: frozenset[str],
    blocked: frozenset[str],
    air_ok: tuple[str, ...],
) -> tuple[dict[str, int], dict[str, str]]:
    """The cheapest-path search of :meth:`MovementRules.reachable` (YOTR-MOV-A, YOTR-TEC, YOTR-ZOC, YOTR-MOV-T):
    hex -> least half points from ``start`` within the allowance ``ma``, and each hex's previous hex on that
    path.  A function of its arguments and the map only (the enemy zones ``ezoc``, the hexes ``blocked`` by the
    enemy, the towns ``air_ok`` open to an air hop), so units of one stack that move alike share one search;
    callers copy the result before changing it."""
    enter_z, leave_z, hop = _extra_costs(who)
    edges = _steps(
        who, no_nvn, communist_trail, home
    )  # hexes outside the unit's Region left out (YOTR-MOV-S)
    start_in_zoc = start in ezoc
    best: dict[str, int] = {start: 0}
    prev: dict[str, str] = {}
    air_set = set(air_ok)
    far = best.get
    # Every step costs at least one half point, so the hexes can be taken cost by cost (one list per cost,
    # each in hex order): the same order as a heap of (cost, hex) pairs, so the same paths on ties.
    todo: list[list[str]] = [[] for _ in range(ma + 1)]
    todo[0].append(start)
    hopped = False  # an air hop taken from a town reached earlier, at no more cost
    for cost in range(ma + 1):
        for h in sorted(todo[cost]):
            if cost > best[h]:
                continue
            if h != start:
                if h in ezoc:
                    continue  # YOTR-ZOC: stop on entering an enemy zone
                leaving = False
            else:
                leaving = start_in_zoc
            steps = edges[h]
            if h in air_set and cost + hop <= ma and not hopped:
                steps = steps + tuple((t, hop) for t in air_ok if t != h)  # D-24: no terrain cost
                # Towns are taken in order of cost, and a hop costs the same from every town, so once one town
                # has offered its hops (not the start inside an enemy zone, which pays to leave it), a later
                # town's hops would never be cheaper: they are skipped (the same costs and paths).
                hopped = not leaving
            for n, c in steps:
                if n in blocked:
                    continue
                total = cost + c
                if leaving:
                    if n in ezoc:
                        continue  # YOTR-ZOC-E
                    total += leave_z
                if n in ezoc:
                    total += enter_z
                if total <= ma and total < far(n, 999):
                    best[n] = total
                    prev[n] = h
                    todo[total].append(n)
    return best, prev


class MovementRules:
    # ------------------------------------------------------------------ zones of control
    def zoc(self, side: str) -> frozenset[str]:
        """Hexes in the zone of control of ``side`` for movement (YOTR-ZOC, YOTR-ZOC-B, -F1..F3)."""
        key = ("zoc", side)
        if key in self._cache:
            return self._cache[key]
        out: set[str] = set()
        for uid in self.on_map(side):
            u = self.counters[uid]
            if self.is_supply_unit(uid):
                continue  # supply units are not combat counters
            if u.nationality == "USA" and not self.usa_zoc:
                continue  # YOTR-ZOC-F2
            out.update(_zoc_reach(u.nationality == "ARVN")[self.loc[uid]])
        res = self._cache[key] = frozenset(out)
        return res

    def zoc_for_tracing(self, side: str) -> frozenset[str]:
        """YOTR-ZOC-C / YOTR-ZOC-D: for supply lines and retreats a zone does not reach a hex holding units
        of the other side."""
        key = ("zoc_t", side)
        if key not in self._cache:
            other = "Allied" if side == "Communist" else "Communist"
            self._cache[key] = frozenset(h for h in self.zoc(side) if not self.occupied_by(h, other))
        return self._cache[key]

    # ------------------------------------------------------------------ who may go where
    def mover_class(self, uid: str) -> str:
        u = self.counters[uid]
        return "communist" if u.side == "Communist" else ("arvn" if u.nationality == "ARVN" else "allied")

    def may_enter_terrain(self, uid: str, a: str, b: str) -> str | None:
        """None if ``uid`` may cross from ``a`` into ``b`` as terrain and borders go, else the rule id it breaks."""
        d = self.data
        u = self.counters[uid]
        if d.terrain(b) == "sea":
            return "YOTR-TEC"
        if u.side == "Allied" and d.country(b) == "NVN" and not self.opts.special_rule_f:
            return "YOTR-MOV-S"
        if (
            uid in self.home_region
            and d.region(b) != self.home_region[uid]
            and not (u.nationality == "ROK" and self.opts.special_rule_f)
        ):
            return "YOTR-MOV-S"
        if (
            u.nationality == "ARVN"
            and d.terrain(b) in ("rough", "swamp")
            and not (d.side_has(a, b, "road") or d.side_has(a, b, "trail"))
        ):
            return "YOTR-MOV-P"
        return None

    def blocked_for(self, side: str) -> frozenset[str]:
        """Hexes a unit of ``side`` may not enter because of the enemy (YOTR-MOV-F, YOTR-TWN-C)."""
        key = ("blocked", side)
        if key not in self._cache:
            d = self.data
            if side == "Communist":
                extra = {h for h in d.towns if self.allied_militia(h) > 0}
                out = self.occupied("Allied") | extra
            else:
                extra = {h for h in d.towns if self.communist_militia(h)} | {
                    h for h in d.supply_centers if h not in self.sc_destroyed
                }
                out = self.occupied("Communist") | extra
            self._cache[key] = frozenset(out)
        return self._cache[key]

    def enemy_blocks(self, uid: str, h: str) -> str | None:
        """YOTR-MOV-F / YOTR-TWN-C: enemy units, enemy militia and intact Supply Centers block entry."""
        side = self.side_of(uid)
        if self.occupied_by(h, "Allied" if side == "Communist" else "Communist"):
            return "YOTR-MOV-F"
        if side == "Communist" and self.allied_militia(h) > 0:
            return "YOTR-TWN-C"
        if side == "Allied" and (self.communist_militia(h) or self.sc_intact(h)):
            return "YOTR-TWN-C"
        return None

    def terrain_cost(self, uid: str, a: str, b: str) -> Fraction | None:
        """Cost to enter ``b`` from ``a`` before zones (YOTR-MOV-A, YOTR-MOV-Q, YOTR-TEC, YOTR-TEC-3, -6)."""
        if self.may_enter_terrain(uid, a, b):
            return None
        c = self.edge_costs(uid)[a].get(b)
        return None if c is None else Fraction(c, 2)

    def edge_costs(self, uid: str) -> dict[str, dict[str, int]]:
        """Static entry costs in half movement points for this unit's class (region limits not included)."""
        u = self.counters[uid]
        return _edge_costs(
            self.mover_class(uid),
            u.side == "Allied" and not self.opts.special_rule_f,
            self.opts.communist_trail_rate,
        )

    def allowance2(self, uid: str) -> int:
        """Movement allowance in half points with supply effects (YOTR-MOV-L, YOTR-SUP-CHART, D-14, D-39)."""
        u = self.counters[uid]
        ma2 = 2 * (u.movement or 6)
        state = self.supply.get(uid)
        if u.side == "Communist" and state == "isolated":
            return ma2 // 2
        if u.side == "Allied" and state == "unsupplied":
            return int(ma2 * self.opts.unsupplied_arvn_movement) if u.nationality == "ARVN" else ma2 // 2
        return ma2

    def allowance(self, uid: str) -> Fraction:
        """Movement allowance in movement points (YOTR-MOV-L)."""
        return Fraction(self.allowance2(uid), 2)

    def friendly_town(self, h: str) -> bool:
        """YOTR-MOV-T / D-24: a South Vietnamese town or base with no Communist unit and no NLF militia."""
        return h in self.data.towns and self.town[h] != "nlf" and not self.occupied_by(h, "Communist")

    def why_cannot_move(self, uid: str) -> tuple[str, str] | None:
        u = self.counters[uid]
        if u.nationality == "USA" and not self.opts.special_rule_f:
            return "YOTR-MOV-S", "USA units never move except to retreat"
        if uid in self.pinned:
            return "YOTR-BMB-BRT", "a Pinned counter may not move (decision D-07)"
        if uid in self.disrupted:
            return "YOTR-BMB-BRT", "a Disrupted counter may not move (decision D-08)"
        if self.is_supply_unit(uid):
            return "YOTR-SUP-D", "supply units never move"
        if uid in self.moved:
            return "YOTR-MOV-G", "this unit has already moved this phase"
        return None

    def reachable(self, uid: str) -> dict[str, int]:
        """Every hex ``uid`` can end its move in -> movement points spent, in half points (the Allied road
        rate is 1/2).  :meth:`path_to` gives the path; a step between non-adjacent hexes is an air hop."""
        key = ("reach", uid)
        if key in self._cache:
            return self._cache[key]
        d = self.data
        side = self.side_of(uid)
        enemy = "Allied" if side == "Communist" else "Communist"
        ezoc = self.zoc(enemy)
        home = self.home_region.get(uid)
        if self.opts.special_rule_f and self.counters[uid].nationality == "ROK":
            home = None
        u = self.counters[uid]
        start = self.loc[uid]
        ma = self.allowance2(uid)
        start_in_zoc = start in ezoc
        # YOTR-MOV-T: friendly towns usable for a hop (a besieged one only if nobody used it this phase)
        air_ok = (
            tuple(
                t
                for t in sorted(d.towns)
                if self.friendly_town(t) and not (t in ezoc and self.airlifts.get(t, 0) >= 1)
            )
            if u.airmobile
            else ()
        )
        found, came = _search(
            start,
            ma,
            self.mover_class(uid),
            u.side == "Allied" and not self.opts.special_rule_f,
            self.opts.communist_trail_rate,
            home,
            ezoc,
            self.blocked_for(side),
            air_ok,
        )
        best, prev = dict(found), dict(came)  # copies: the one-hex moves below are this unit's own
        best.pop(start)
        # YOTR-MOV-J: one hex is always possible, unless prohibited or from one enemy zone to another (D-45)
        for n in d.adj[start]:
            if n in best or self.terrain_cost(uid, start, n) is None or self.enemy_blocks(uid, n):
                continue
            if start_in_zoc and n in ezoc:
                continue
            best[n] = ma
            prev[n] = start
        self._cache[key] = best
        self._cache[("prev", uid)] = prev
        return best

    def move_cost(self, uid: str, to: str) -> Fraction:
        """Movement points ``uid`` spends to reach ``to`` (YOTR-MOV-A), from :meth:`reachable`."""
        return Fraction(self.reachable(uid)[to], 2)

    def path_to(self, uid: str, to: str) -> list[str]:
        """The hexes of the cheapest path to ``to`` (start first); a non-adjacent step is an air hop."""
        self.reachable(uid)
        prev = self._cache[("prev", uid)]
        start = self.loc[uid]
        path = [to]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return path[::-1]

    def towns_taken_by_passing(self, side: str) -> frozenset[str]:
        """Towns a unit of ``side`` takes by moving into or through them: for the Communist an empty strength-0
        Allied town (YOTR-TWN-H, D-19); for the Allies a Communist town whose NLF militia is gone and that no
        Communist unit holds (D-55)."""
        d = self.data
        if side == "Communist":
            return frozenset(
                h
                for h in d.towns
                if self.town[h] != "nlf" and self.allied_militia(h) == 0 and not self.occupied_by(h, "Allied")
            )
        return frozenset(
            h for h in self.militia_gone if self.town[h] == "nlf" and not self.occupied_by(h, "Communist")
        )

    def path_choices(self, uid: str) -> dict[str, dict[tuple[str, ...], int]]:
        """YOTR-MOV-A / YOTR-TWN-H: for every destination whose legal paths differ in what they do on the way (the
        towns taken by passing them), each distinct set of such towns -> its cheapest cost in half points.
        Destinations where every path does the same are left out (one move, decision D-67).  A search over
        (hex, towns passed) states with the costs and limits of :meth:`reachable`; run only when such a town
        lies within reach, which is rare (three strength-0 towns on the map)."""
        key = ("via", uid)
        if key in self._cache:
            return self._cache[key]
        reach = self.reachable(uid)
        side = self.side_of(uid)
        track = self.towns_taken_by_passing(side) & set(reach)
        if not track:
            self._cache[key] = {}
            return {}
        d = self.data
        enemy = "Allied" if side == "Communist" else "Communist"
        ezoc = self.zoc(enemy)
        enter_z, leave_z, hop = _extra_costs(self.mover_class(uid))
        edges = self.edge_costs(uid)
        home = self.home_region.get(uid)
        if self.opts.special_rule_f and self.counters[uid].nationality == "ROK":
            home = None
        start = self.loc[uid]
        ma = self.allowance2(uid)
        start_in_zoc = start in ezoc
        air_ok = (
            [
                t
                for t in sorted(d.towns)
                if self.friendly_town(t) and not (t in ezoc and self.airlifts.get(t, 0) >= 1)
            ]
            if self.counters[uid].airmobile
            else []
        )
        air_set = set(air_ok)
        blocked = self.blocked_for(side)
        bad = blocked | _outside(home) if home is not None else blocked
        best: dict[tuple[str, tuple[str, ...]], int] = {(start, ()): 0}
        prev: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}
        heap: list[tuple[int, str, tuple[str, ...]]] = [(0, start, ())]
        while heap:
            cost, h, got = heapq.heappop(heap)
            if cost > best[(h, got)]:
                continue
            at_start = h == start
            if not at_start and h in ezoc:
                continue  # YOTR-ZOC: stop on entering an enemy zone
            steps = list(edges[h].items())
            if h in air_set and cost + hop <= ma:
                steps += [(t, hop) for t in air_ok if t != h]
            for n, c in steps:
                if n in bad:
                    continue
                total = cost + c
                if at_start and start_in_zoc:
                    if n in ezoc:
                        continue  # YOTR-ZOC-E
                    total += leave_z
                if n in ezoc:
                    total += enter_z
                now = tuple(sorted({*got, n})) if n in track else got
                if total <= ma and total < best.get((n, now), 999):
                    best[(n, now)] = total
                    prev[(n, now)] = (h, got)
                    heapq.heappush(heap, (total, n, now))
        out: dict[str, dict[tuple[str, ...], int]] = {}
        for (h, got), c in best.items():
            if h != start:
                out.setdefault(h, {})[got] = c
        for n in d.adj[start]:  # YOTR-MOV-J: the one-hex move, where nothing else reaches
            if n in reach and n not in out:
                got = (n,) if n in track else ()
                out[n] = {got: reach[n]}
                prev[(n, got)] = (start, ())
        out = {h: v for h, v in out.items() if len(v) > 1}
        self._cache[key] = out
        self._cache[("via_prev", uid)] = prev
        return out

    def path_via(self, uid: str, to: str, via: tuple[str, ...]) -> list[str]:
        """The cheapest path to ``to`` passing exactly the towns ``via`` among those :meth:`path_choices` tracks."""
        self.path_choices(uid)
        prev = self._cache[("via_prev", uid)]
        state = (to, via)
        path = [to]
        while state != (self.loc[uid], ()):
            state = prev[state]
            path.append(state[0])
        return path[::-1]

    def is_air_hop(self, a: str, b: str) -> bool:
        return b not in self.data.adj[a]

    # ------------------------------------------------------------------ why a destination is illegal
    def why_not_destination(self, uid: str, to: str) -> IllegalAction:
        d = self.data
        start = self.loc[uid]
        if to not in d.hexes:
            return IllegalAction("YOTR-MOV-S", f"{to} is not a hex of the map")
        if to in d.adj[start]:
            rule = self.may_enter_terrain(uid, start, to) or self.enemy_blocks(uid, to)
            if rule == "YOTR-MOV-P":
                return IllegalAction(
                    rule,
                    f"ARVN units enter rough or swamp hex {to} only along a road or trail (Movement case P)",
                )
            if rule == "YOTR-MOV-S":
                return IllegalAction(
                    rule,
                    f"{to} is closed to this unit: North Vietnam or outside its Region (Movement case S)",
                )
            if rule == "YOTR-TEC":
                return IllegalAction(rule, f"{to} is an all-sea hex, prohibited on the Terrain Effects Chart")
            if rule == "YOTR-MOV-F":
                return IllegalAction(
                    rule, f"{to} holds enemy units, which may never be entered (Movement case F)"
                )
            if rule == "YOTR-TWN-C":
                return IllegalAction(
                    rule,
                    f"{to} holds enemy militia or a Supply Center: it must be attacked first (Towns case C)",
                )
            enemy = "Allied" if self.side_of(uid) == "Communist" else "Communist"
            if start in self.zoc(enemy) and to in self.zoc(enemy):
                return IllegalAction(
                    "YOTR-ZOC-E",
                    f"from an enemy zone straight into another one ({start} to "
                    f"{to}) is forbidden (Zones of Control case E)",
                )
        return IllegalAction(
            "YOTR-MOV-A",
            f"{to} cannot be reached with the movement points of {uid} this phase "
            "(Movement case A and the Terrain Effects Chart)",
        )

    # ------------------------------------------------------------------ the phases
    def communist_movement(self):
        """YOTR-SOP-A2b: the Communist moves his counters, face down (YOTR-MOV-M)."""
        yield from self._movement("Communist")

    def allied_movement(self):
        """YOTR-SOP-B2b: the Allied player moves by ground and by air (YOTR-MOV-T)."""
        yield from self._movement("Allied")

    def movable(self, side: str) -> list[str]:
        return [u for u in self.on_map(side) if self.why_cannot_move(u) is None]

    def _movement(self, side: str):
        if self.resumed("moves") is None:  # a restartable loop: Back resumes between moves (issue #13)
            self.moved = set()
            self.airlifts = {}
            self.touch()  # supply states and airlift counts feed the cached reachable sets
        offered: dict[tuple[str, str], Action] = {}  # (unit, hex) -> its option: it reads the same all phase
        while True:
            self.checkpoint("moves")
            units = self.movable(side)
            if not units:
                return
            opts = []
            for u in units:
                if (u, self.loc[u]) not in offered:
                    offered[u, self.loc[u]] = Action.make(
                        "move_unit",
                        f"Move {self.describe(u)} from {self.hex_name(self.loc[u])}",
                        [self.loc[u]],
                        unit=u,
                    )
                opts.append(offered[u, self.loc[u]])
            opts.append(Action.make(DONE_MOVING, f"End {side} movement"))
            act = yield self.decide(
                side,
                "Choose a unit to move (or end movement)",
                "YOTR-MOV-C",
                opts,
                check=lambda a, s=side: self._check_unit_choice(a, s),
                kind="move_unit",
            )
            if act.kind == DONE_MOVING:
                return
            uid = act["unit"]
            reach = self.reachable(uid)
            choices = self.path_choices(uid)
            dests = []
            unit = ("unit", uid)
            made = _DESTINATIONS.get(uid)
            if made is None or len(made) > 1500:  # a bound on memory over many games (about 10 MB in all)
                made = _DESTINATIONS[uid] = {}
            for h, c in sorted(reach.items()):
                if h not in choices:
                    a = made.get((h, c))
                    if a is None:
                        a = made[h, c] = Action(
                            "move_to", (("to", h), unit), f"{uid} to {h} ({_MP[c]} MP)", (h,)
                        )
                    dests.append(a)
                    continue
                for via, cv in sorted(choices[h].items()):  # D-67: the paths differ in the towns they take
                    names = ", ".join(self.hex_name(t) for t in via)
                    dests.append(
                        Action(
                            "move_to",
                            (("to", h), unit, ("via", "+".join(via) or "-")),
                            f"{uid} to {h} ({_MP[cv]} MP), "
                            + (f"taking {names} on the way" if via else "taking no town on the way"),
                            (h, *via),
                        )
                    )
            dests.append(
                Action.make(
                    "stay", f"{self.describe(uid)} stays in {self.loc[uid]}", [self.loc[uid]], unit=uid
                )
            )
            dest = yield self.decide(
                side,
                f"Where does {self.describe(uid)} go?",
                "YOTR-MOV-A",
                dests,
                check=lambda a, u=uid: self._check_destination(a, u),
                kind="move_to",
            )
            self.moved.add(uid)
            if dest.kind == "stay":
                continue
            via = dest.get("via")
            yield from self.commit_move(
                uid, dest["to"], None if via is None else tuple(v for v in via.split("+") if v != "-")
            )

    def _check_destination(self, act: Action, uid: str) -> IllegalAction | None:
        """A destination answer must name the unit being moved (Movement case C: one unit at a time)."""
        if act.kind in ("move_to", "stay") and act.get("unit") != uid:
            named = act.get("unit")
            return IllegalAction(
                "YOTR-MOV-C",
                f"the unit being moved is {uid}; the action names "
                f"{'no unit' if named is None else repr(named)} (give unit={uid!r})",
            )
        if act.kind == "stay":
            return None
        to = act.get("to", "")
        choices = self.path_choices(uid).get(to)
        if choices is not None or act.get("via") is not None:
            offered = ["+".join(v) or "-" for v in (choices or {})]
            if act.get("via") not in offered:
                return IllegalAction(
                    "YOTR-TWN-H",
                    f"the paths of {uid} to {to} differ in the towns they take on the "
                    f"way, so the move names one (via= one of {offered}, decision "
                    "D-67)"
                    if offered
                    else f"every path of {uid} to {to} does the same: give no via (decision D-67)",
                )
        return self.why_not_destination(uid, to)

    def _check_unit_choice(self, act: Action, side: str) -> IllegalAction | None:
        uid = act.get("unit")
        if uid is None:  # issue #30 item 13: say what is missing, not "unit None"
            return IllegalAction("YOTR-MOV-C", "choose a unit to move: this action names no unit")
        if uid not in self.counters:
            return IllegalAction("YOTR-MOV-C", f"there is no unit {uid!r} in this game")
        if self.side_of(uid) != side:
            return IllegalAction(
                "YOTR-MOV-D",
                f"{uid} is an enemy unit: no enemy movement in a player's Movement Phase (Movement case D)",
            )
        why = self.why_cannot_move(uid)
        if why:
            return IllegalAction(*why)
        return None

    def commit_move(self, uid: str, to: str, via: tuple[str, ...] | None = None):
        """Carry out a chosen move: the counter goes along its path (the cheapest, or the cheapest passing exactly
        the towns ``via`` when the player chose among paths, D-67); strength-0 towns passed are taken."""
        if via is None:
            cost = self.move_cost(uid, to)
            path = self.path_to(uid, to)
        else:
            cost = Fraction(self.path_choices(uid)[to][via], 2)
            path = self.path_via(uid, to, via)
        side = self.side_of(uid)
        start = path[0]
        hops = [(a, b) for a, b in zip(path, path[1:], strict=False) if self.is_air_hop(a, b)]
        for a, b in hops:
            self.airlifts[a] = self.airlifts.get(a, 0) + 1
            self.airlifts[b] = self.airlifts.get(b, 0) + 1
        self.place(uid, to)
        how = " by air" if hops else ""
        changes = [{"unit": uid, "from": start, "to": to}]
        if side == "Communist":
            yield self.ruling(
                "YOTR-MOV-M",
                f"{uid} moves",
                f"{self.describe(uid)} moves from {start} to "
                f"{to}"
                + (f" by way of {', '.join(via)}" if via else "")
                + f", spending {float(cost):g} of {float(self.allowance(uid)):g} movement points.",
                result={"unit": uid, "to": to, "mp": float(cost)},
                changes=changes,
                hidden_from=("Allied",),
                places=[start, to],
                side=side,
                public=f"A face-down Communist counter moves from {start} to {to}.",
                public_title="A face-down counter moves",
            )
        else:
            rule = "YOTR-MOV-T" if hops else "YOTR-MOV-A"
            yield self.ruling(
                rule,
                f"{uid} moves{how}",
                f"{self.describe(uid)} moves{how} from "
                f"{self.hex_name(start)} to {self.hex_name(to)}"
                + (f" by way of {', '.join(via)}" if via else "")
                + f", spending {float(cost):g} of "
                f"{float(self.allowance(uid)):g} movement points"
                + (" (3 for the air hop, decision D-24)." if hops else "."),
                result={"unit": uid, "to": to, "mp": float(cost)},
                changes=changes,
                places=[start, to],
                side=side,
            )
        if side == "Allied":
            for h in path[1:]:
                yield from self.retake_unheld(h)  # D-55
        if side == "Communist":
            for h in path[1:]:
                if (
                    h in self.data.towns
                    and self.town[h] != "nlf"
                    and self.allied_militia(h) == 0
                    and not self.occupied_by(h, "Allied")
                ):
                    yield from self.capture_town(
                        h,
                        "Communist",
                        "YOTR-TWN-H",
                        f"{self.hex_name(h)} has no militia strength and no Allied unit: "
                        "a Communist counter moving in or through takes it "
                        "(Towns case H; dummies can do it too, case B).",
                    )
        yield from self.check_victory()
