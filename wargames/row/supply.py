"""Infrastructure, supply, support levels and lines of communications (ROW-7.0 - ROW-7.2, ROW-8.0 - ROW-8.2,
ROW-14.4, ROW-6.2 case i).

* ROW-7.0: each turn each side's Supply marker is set to its Infrastructure (unspent supply is lost); the Helicopter
  Used marker goes to Helicopter Available (sequence of play A2a).  Infrastructure never exceeds 19, and the
  Communist's never falls below 2.
* ROW-7.1: the price list (``data/row/tables/supply_costs.csv``); spending needs a LoC (except the VC HQ flip).
* ROW-7.2: which pool pays: the Capitalist pays double in Laos, Cambodia and North Vietnam unless invaded; the
  Communist pays from the red marker in North Vietnam and from the Ho Chi Minh Trail marker outside it, where PAVN
  and PRC pieces with a LoC to a PAVN/PRC source may use the red one instead (offered as a choice); HQ missions
  always from the main pool.
* ROW-8.0 / ROW-8.1 / ROW-8.2: support levels, helicopters and replacements as tracks (``resource_tracks.csv``)
  that never go below their minimum: a spend beyond it is refused, a forced loss stops at it; a gain above the
  track's maximum is lost.
* ROW-14.4 / ROW-14.4.1 / ROW-14.4.2 (and the glossary): the two sides' LoC traces, with the Capitalist's SNAFU
  draw when a trace crosses enemy-controlled hexes; ROW-6.2 case i: OOC markers.

Pools are immutable values (:class:`Pools`); every change returns the new pools and its ruling.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, partial
from typing import Literal

from ..core import Action, IllegalAction
from ..core.data import DataError, Row, game_dir, read_csv
from ..core.rulings import Lookup, Ruling, indexed_ruling
from .control import capitalist_controlled, enemy_zoc
from .hexmap import RowMap, load_map
from .movement import TICKS, search
from .pieces import CAPITALIST, COMMUNIST, Piece, Situation

COMMUNIST_LOC_MP = 15  # ROW-14.4.2
CAPITALIST_LOC_MP = 6  # ROW-14.4.1
SUPPLY_TRACK = {CAPITALIST: "Capitalist Supply", COMMUNIST: "Communist Supply"}
INFRA_TRACK = {CAPITALIST: "Capitalist Infrastructure", COMMUNIST: "Communist Infrastructure"}
TRAIL_TRACK = "Ho Chi Minh Trail Supply"
POOL_TRACK = {"capitalist": "Capitalist Supply", "communist": "Communist Supply", "trail": TRAIL_TRACK}


_ruling = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


# ------------------------------------------------------------------------------------------ tables
class CostRow(Row):
    item: str
    phase: Literal["strategic", "activation"]
    side: Literal["Capitalist", "Communist", "both"]
    description: str
    cost: int
    pool: Literal["capitalist", "communist", "trail", "location", "none"]
    loc_needed: Literal["yes", "no"]


class TrackRow(Row):
    track: str
    side: Literal["Capitalist", "Communist"]
    kind: Literal["infrastructure", "supply", "support", "replacements"]
    minimum: int
    maximum: int | None = None
    counted_max: int


@dataclass(frozen=True)
class SupplyTables:
    costs: dict[str, CostRow]
    tracks: dict[str, TrackRow]


@cache
def supply_tables() -> SupplyTables:
    """``supply_costs.csv`` (ROW-7.1) and ``resource_tracks.csv`` (ROW-7.0, ROW-8.1, ROW-8.2), checked once."""
    base = game_dir("row") / "tables"
    costs: dict[str, CostRow] = {}
    p = base / "supply_costs.csv"
    for line, r in enumerate(read_csv(p, CostRow), start=2):
        if r.item in costs:
            raise DataError(p, f"duplicate item {r.item!r}", row=line, column="item")
        costs[r.item] = r
    tracks: dict[str, TrackRow] = {}
    p = base / "resource_tracks.csv"
    for line, t in enumerate(read_csv(p, TrackRow), start=2):
        if t.track in tracks:
            raise DataError(p, f"duplicate track {t.track!r}", row=line, column="track")
        if t.maximum is not None and t.maximum < t.minimum:
            raise DataError(p, "maximum below minimum", row=line, column="maximum")
        tracks[t.track] = t
    return SupplyTables(costs, tracks)


# ------------------------------------------------------------------------------------------ pools
@dataclass(frozen=True)
class Pools:
    """The value of every resource track (ROW-7.0, ROW-8.1): ``{"Capitalist Supply": 8, "US Artillery": 6, ...}``."""

    values: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = supply_tables().tracks
        vals = dict(self.values)
        for k, v in vals.items():
            if k not in t:
                raise ValueError(f"unknown resource track {k!r} (data/row/tables/resource_tracks.csv)")
            row = t[k]
            if v < row.minimum or (row.maximum is not None and v > row.maximum):
                raise ValueError(f"{k} = {v} is outside {row.minimum}-{row.maximum} (ROW-7.1 / ROW-8.2)")
        object.__setattr__(self, "values", dict(sorted(vals.items())))

    @classmethod
    def start(cls, **values: int) -> Pools:
        """Pools from keyword names (underscores for spaces): ``Pools.start(Capitalist_Supply=1)``; others at minimum."""
        t = supply_tables().tracks
        vals = {k: r.minimum for k, r in t.items()}
        for k, v in values.items():
            vals[k.replace("_", " ")] = v
        return cls(vals)

    def __getitem__(self, track: str) -> int:
        if track not in self.values:
            raise KeyError(f"no resource track {track!r}")
        return self.values[track]

    def with_(self, **changes: int) -> Pools:
        return Pools({**self.values, **{k.replace("_", " "): v for k, v in changes.items()}})

    def set(self, track: str, value: int) -> Pools:
        return Pools({**self.values, track: value})

    def counted(self, track: str) -> int:
        """ROW-8.2: the value that counts in a combat (air may sit above 19 but only 19 counts)."""
        return min(self[track], supply_tables().tracks[track].counted_max)


def _rule_of(track: str) -> str:
    kind = supply_tables().tracks[track].kind
    return {
        "infrastructure": "ROW-7.1",
        "supply": "ROW-7.2",
        "support": "ROW-8.2",
        "replacements": "ROW-8.1",
    }[kind]


def change(pools: Pools, track: str, delta: int, why: str, *, forced: bool = False) -> tuple[Pools, Ruling]:
    """ROW-7.1 / ROW-7.2 / ROW-8.1 / ROW-8.2: move one track by ``delta``.

    A voluntary spend (``forced=False``) that would take the track below its minimum is refused (IllegalAction,
    pools unchanged).  A forced loss (combat, strikes) stops at the minimum and the ruling says how much could not
    be taken.  A gain above the track's maximum is lost (8.2: extra tank and artillery are ignored; infrastructure
    never above 19).  Result: ``{"track", "before", "after", "lost"}``.
    """
    row = supply_tables().tracks.get(track)
    if row is None:
        raise IllegalAction("ROW-8.1", f"unknown resource track {track!r}")
    before = pools[track]
    target = before + delta
    rule = _rule_of(track)
    if target < row.minimum and not forced:
        raise IllegalAction(
            rule, f"{track} is at {before}: it cannot pay {-delta} (never below {row.minimum})"
        )
    after = max(row.minimum, target)
    if row.maximum is not None:
        after = min(after, row.maximum)
    lost = target - after
    text = (
        f"{track} {before} -> {after} ({why})"
        + (
            f"; {abs(lost)} {'could not be taken (the track stops at its minimum)' if lost < 0 else 'above the maximum is lost'}"
            if lost
            else ""
        )
        + "."
    )
    return pools.set(track, after), _ruling(
        rule,
        track,
        text,
        {"track": track, "before": before, "after": after, "lost": lost},
        inputs={"delta": delta, "forced": forced, "why": why},
        changes=({"track": track, "value": after},),
    )


def determine_supply(pools: Pools) -> tuple[Pools, Ruling]:
    """ROW-7.0 (sequence of play A2a): each side's Supply is set to its Infrastructure (unspent supply is lost), and
    Helicopter Used to Helicopter Available.  The Ho Chi Minh Trail supply is not reset here (14.7)."""
    new = pools.with_(
        **{
            "Capitalist Supply": pools["Capitalist Infrastructure"],
            "Communist Supply": pools["Communist Infrastructure"],
            "Helicopter Used": pools["Helicopter Available"],
        }
    )
    text = (
        f"Capitalist Supply {pools['Capitalist Supply']} -> {new['Capitalist Supply']} and Communist Supply "
        f"{pools['Communist Supply']} -> {new['Communist Supply']} (each equal to its Infrastructure); Helicopter "
        f"Used {pools['Helicopter Used']} -> {new['Helicopter Used']} (Helicopter Available)."
    )
    return new, _ruling(
        "ROW-7.0",
        "Infrastructure and supply determination",
        text,
        {k: new[k] for k in ("Capitalist Supply", "Communist Supply", "Helicopter Used")},
        inputs={
            k: pools[k]
            for k in (
                "Capitalist Infrastructure",
                "Communist Infrastructure",
                "Capitalist Supply",
                "Communist Supply",
                "Helicopter Available",
                "Helicopter Used",
            )
        },
        changes=tuple(
            {"track": k, "value": new[k]}
            for k in ("Capitalist Supply", "Communist Supply", "Helicopter Used")
        ),
    )


# ------------------------------------------------------------------------------------------ paying (7.1, 7.2)
@dataclass(frozen=True)
class Spender:
    """Who spends supply and where (ROW-7.2): the side, the spending piece's nationality, the country of its hex
    (DMZ hexes count as North Vietnam for the Communist and South Vietnam for the Capitalist, 14.6.4), whether it has
    a LoC (7.0) and, for PAVN/PRC pieces, whether that LoC reaches a PAVN or PRC source (the red-pool exception)."""

    side: str
    nationality: str
    country: str
    has_loc: bool = True
    loc_to_pavn_source: bool = False

    @classmethod
    def at(cls, piece: Piece, m: RowMap | None = None, **kw) -> Spender:
        m = m or load_map()
        h = m.hex(piece.hex)
        country = h.country
        if h.area == "DMZ":
            country = "NVN" if piece.side == COMMUNIST else "SVN"
        return cls(piece.side, piece.nationality, country, **kw)


def cost_item(item: str) -> CostRow:
    try:
        return supply_tables().costs[item]
    except KeyError:
        raise IllegalAction(
            "ROW-7.1", f"no supply cost item {item!r} (data/row/tables/supply_costs.csv)"
        ) from None


def hq_fresh_item(hq: Piece, phase: str, m: RowMap | None = None) -> str:
    """ROW-7.1 a/b: which price-list line flips this HQ fresh (``phase`` ``"strategic"`` or ``"activation"``)."""
    m = m or load_map()
    sp = Spender.at(hq, m)
    if hq.side == CAPITALIST:
        inside = sp.country == "SVN"
        return (
            ("hq_fresh_sv" if inside else "hq_fresh_outside_sv")
            if phase == "strategic"
            else ("refresh_sv" if inside else "refresh_outside_sv")
        )
    if phase == "strategic" and hq.nationality == "VC":
        return "hq_fresh_vc"
    if sp.country == "NVN":
        return "hq_fresh_nvn" if phase == "strategic" else "refresh_nvn"
    return "hq_fresh_trail" if phase == "strategic" else "refresh_trail"


def payment_options(
    item: str, spender: Spender, invaded: frozenset[str] = frozenset(), *, mission_cost: int | None = None
) -> list[Action]:
    """ROW-7.1 / ROW-7.2: the ways ``spender`` may pay for ``item`` (``"hq_mission"`` with ``mission_cost`` for 9.5).

    Each Action names the pool and the amount.  Refused (IllegalAction) without the LoC the item needs; an empty list
    never happens: a payment the pools cannot meet is refused later by :func:`pay`.
    """
    if item == "hq_mission":
        if mission_cost is None:
            raise IllegalAction("ROW-7.2", "an HQ mission payment needs its cost")
        pool = "capitalist" if spender.side == CAPITALIST else "communist"
        return [
            Action.make(
                "pay",
                f"Pay {mission_cost} from {POOL_TRACK[pool]} (HQ missions use the main pool)",
                item=item,
                pool=pool,
                amount=mission_cost,
            )
        ]
    row = cost_item(item)
    if row.side not in ("both", spender.side):
        raise IllegalAction("ROW-7.1", f"{row.description} is a {row.side} item")
    if row.loc_needed == "yes" and not spender.has_loc:
        raise IllegalAction("ROW-7.0", f"spending supply to {row.description} needs a LoC, and there is none")
    if row.pool == "none":
        return [Action.make("pay", f"{row.description}: free", item=item, pool="none", amount=0)]
    if spender.side == CAPITALIST:
        outside = spender.country != "SVN" and spender.country not in invaded
        double = outside and row.pool == "location"  # the HQ lines already price the outside case (R-SUP-01)
        amount = row.cost * (2 if double else 1)
        why = " (double: outside South Vietnam and not invaded)" if double else ""
        return [
            Action.make(
                "pay",
                f"Pay {amount} from Capitalist Supply{why}",
                item=item,
                pool="capitalist",
                amount=amount,
            )
        ]
    if item.startswith("trail_"):  # the trail items are bought with the main (red) supply
        return [
            Action.make(
                "pay", f"Pay {row.cost} from Communist Supply", item=item, pool="communist", amount=row.cost
            )
        ]
    if spender.country == "NVN":
        return [
            Action.make(
                "pay",
                f"Pay {row.cost} from Communist Supply (in North Vietnam)",
                item=item,
                pool="communist",
                amount=row.cost,
            )
        ]
    opts = [
        Action.make(
            "pay",
            f"Pay {row.cost} from Ho Chi Minh Trail Supply (outside North Vietnam)",
            item=item,
            pool="trail",
            amount=row.cost,
        )
    ]
    if spender.nationality in ("PAVN", "PRC") and spender.loc_to_pavn_source:
        opts.append(
            Action.make(
                "pay",
                f"Pay {row.cost} from Communist Supply (PAVN/PRC with a LoC to a PAVN/PRC source)",
                item=item,
                pool="communist",
                amount=row.cost,
            )
        )
    return opts


def pay(pools: Pools, action: Action) -> tuple[Pools, Ruling]:
    """ROW-7.2: pay one of :func:`payment_options`; refused (pools unchanged) if the pool cannot cover it."""
    if action.kind != "pay":
        raise IllegalAction("ROW-7.2", f"not a payment: {action.kind}")
    pool, amount, item = action["pool"], action["amount"], action["item"]
    if pool == "none" or amount == 0:
        return pools, _ruling(
            "ROW-7.1", "Supply paid", f"{item}: nothing to pay.", {"paid": 0}, inputs={"item": item}
        )
    track = POOL_TRACK[pool]
    if pools[track] < amount:
        raise IllegalAction("ROW-7.2", f"{track} holds {pools[track]}, {amount} is needed for {item}")
    new, r = change(pools, track, -amount, f"paid for {item}")
    lookup = None
    if item != "hq_mission":
        row = cost_item(item)
        lookup = Lookup(
            "General supply costs", row.item, "cost", str(row.cost), source="data/row/tables/supply_costs.csv"
        )
    return new, _ruling(
        "ROW-7.2",
        "Supply paid",
        f"{amount} supply from {track} for {item}: {r.explanation}",
        {"paid": amount, "pool": track, "after": new[track]},
        inputs={"item": item},
        lookup=lookup,
        changes=r.changes,
    )


def change_infrastructure(pools: Pools, side: str, delta: int, why: str) -> tuple[Pools, Ruling]:
    """ROW-7.1 (limits): Infrastructure rises (Foreign Aid, Chinese intervention) or falls (strikes, Infiltrate),
    never above 19 nor, for the Communist, below 2 (forced changes stop at the limit)."""
    return change(pools, INFRA_TRACK[side], delta, why, forced=True)


# ------------------------------------------------------------------------------------------ lines of communications
@dataclass(frozen=True)
class LocResult:
    """A LoC trace: ``ok`` (a LoC exists), ``snafu`` (the Capitalist's trace must cross enemy-controlled hexes, so
    tracing costs a SNAFU draw, 14.4.1), ``via`` (what it reached), ``mp`` (the trace's MP)."""

    ok: bool
    snafu: bool = False
    via: str = ""
    mp: Fraction = Fraction(0)


#: Communist HQ traces (14.4) by map, hex, enemy units, enemy ZoC, rule, targets and land (see communist_hq)
_HQ_TRACES: dict[tuple, tuple] = {}
#: the land hexes of each map (static)
_LAND: dict[int, frozenset[str]] = {}


class LocTracer:
    """ROW-14.4: traces LoCs for every piece of one situation, with the per-situation structures built once
    (enemy ZoCs, Capitalist control, the road network's clean and dirty reach from each kind of source)."""

    def __init__(
        self,
        situation: Situation,
        m: RowMap | None = None,
        *,
        mission: str | None = None,
        active_termini: frozenset[str] = frozenset(),
    ):
        self.s = situation
        self.m = m or load_map()
        self.mission = mission  # the Communist mission in force (Infiltrate ignores ZoC for LoC, 9.5)
        self.termini = frozenset(active_termini)
        land = _LAND.get(id(self.m))
        if land is None:
            land = _LAND[id(self.m)] = frozenset(h for h, r in self.m.hexes.items() if r.kind != "sea")
        self.land = land
        self.cap_control = capitalist_controlled(situation, self.m)
        self.zoc = {
            CAPITALIST: enemy_zoc(situation, CAPITALIST, self.m),
            COMMUNIST: enemy_zoc(situation, COMMUNIST, self.m),
        }
        self.enemy_units = {
            CAPITALIST: situation.occupied(COMMUNIST),
            COMMUNIST: situation.occupied(CAPITALIST),
        }
        self._roads: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._hq_loc: dict[str, LocResult] = {}
        self._costs: dict[str, dict[str, int]] = {}  # Communist 15-MP trace costs by start hex
        self._unit_loc: dict[tuple[str, ...], LocResult] = {}  # a unit's LoC by (hex, nationality)

    # -- Capitalist (14.4.1)
    def _road_reach(self, kind: str) -> tuple[frozenset[str], frozenset[str]]:
        """Road hexes joined by road hexsides to a ``kind`` source, never through enemy units or enemy ZoC: (reached
        through Capitalist-controlled hexes only, reached at all)."""
        if kind in self._roads:
            return self._roads[kind]
        bad = self.enemy_units[CAPITALIST] | self.zoc[CAPITALIST]
        srcs = [h for h in self.m.supply_sources(kind) if h not in bad]
        out = []
        for clean in (True, False):
            seen = {h for h in srcs if not clean or h in self.cap_control}
            q = deque(seen)
            while q:
                h = q.popleft()
                for n in self.m.road_neighbours(h):
                    if n in seen or n in bad or (clean and n not in self.cap_control):
                        continue
                    seen.add(n)
                    q.append(n)
            out.append(frozenset(seen))
        self._roads[kind] = (out[0], out[1])
        return self._roads[kind]

    def capitalist(self, piece: Piece) -> LocResult:
        """ROW-14.4.1: up to 6 MP (Capitalist costs) free of enemy units and enemy ZoC to a road hex joined by road,
        also free of them, to an eligible source (Capitalist sources for everyone, Laotian and Cambodian ones for those
        armies), or to a Fire Base / Landing Zone.  If every such trace crosses an enemy-controlled hex, the LoC exists
        at the price of one SNAFU draw (``snafu``).  The start hex's own ZoC does not block (decision R-SUP-02).
        The answer depends only on the unit's hex and nationality in this situation, so it is worked out once."""
        key = ("C", piece.hex, piece.nationality)
        if key not in self._unit_loc:
            self._unit_loc[key] = self._capitalist(piece)
        return self._unit_loc[key]

    def _capitalist(self, piece: Piece) -> LocResult:
        kinds = (
            ["capitalist"]
            + (["laotian"] if piece.nationality == "Laos" else [])
            + (["cambodian"] if piece.nationality == "Cmb" else [])
        )
        clean_roads: set[str] = set(self.s.fire_bases)
        any_roads: set[str] = set(self.s.fire_bases)
        for k in kinds:
            c, a = self._road_reach(k)
            clean_roads |= c
            any_roads |= a
        blocked = self.enemy_units[CAPITALIST]
        budget = CAPITALIST_LOC_MP * TICKS
        zoc = self.zoc[CAPITALIST] - {piece.hex}
        best = None
        if piece.hex in self.cap_control:
            costs, _ = search(
                self.m,
                CAPITALIST,
                piece.hex,
                budget,
                allowed=self.cap_control,
                blocked=blocked,
                zoc=zoc,
                zoc_rule="forbid",
            )
            hits = [(c, h) for h, c in costs.items() if h in clean_roads]
            if hits:
                c, h = min(hits)
                best = LocResult(True, False, self._via(h), Fraction(c, TICKS))
        if best is None:
            costs, _ = search(
                self.m,
                CAPITALIST,
                piece.hex,
                budget,
                allowed=self.land,
                blocked=blocked,
                zoc=zoc,
                zoc_rule="forbid",
            )
            hits = [(c, h) for h, c in costs.items() if h in any_roads]
            if hits:
                c, h = min(hits)
                best = LocResult(True, True, self._via(h), Fraction(c, TICKS))
        return best or LocResult(False)

    def _via(self, h: str) -> str:
        if h in self.s.fire_bases:
            return f"Fire Base/LZ {h}"
        return f"road at {h}"

    # -- Communist (14.4.2)
    def communist_hq(self, hq: Piece) -> LocResult:
        """ROW-14.4 / glossary (decision R-SUP-03): an HQ traces any distance, never through Capitalist units or
        Capitalist ZoC (friendly units negate it; Infiltrate ignores it), to a PAVN or PRC source, a source of its own
        nationality, or an active trail terminus.  A VC HQ may also trace as a VC unit (decision R-SUP-03)."""
        if hq.uid in self._hq_loc:
            return self._hq_loc[hq.uid]
        targets = frozenset(self._sources(hq))
        rule = "ignore" if self.mission == "infiltrate" else "forbid"
        zoc = self.zoc[COMMUNIST] - {hq.hex}
        key = (id(self.m), hq.hex, self.enemy_units[COMMUNIST], zoc, rule, targets, self.land)
        hit = _HQ_TRACES.get(
            key
        )  # the same trace on the same map picture gives the same answer (a speed-up only)
        if hit is None:
            costs, _ = search(
                self.m,
                COMMUNIST,
                hq.hex,
                None,
                allowed=self.land,
                blocked=self.enemy_units[COMMUNIST],
                zoc=zoc,
                zoc_rule=rule,
                stop_at=targets,
            )
            hits = sorted((c, h) for h, c in costs.items() if h in targets)
            hit = hits[0] if hits else ()
            if len(_HQ_TRACES) > 4096:
                _HQ_TRACES.clear()
            _HQ_TRACES[key] = hit
        res = (
            LocResult(True, False, f"supply source {hit[1]}", Fraction(hit[0], TICKS))
            if hit
            else LocResult(False)
        )
        if not res.ok and hq.nationality == "VC":
            res = self._vc_targets(hq)
        self._hq_loc[hq.uid] = res
        return res

    def reaches_pavn_source(self, piece: Piece) -> bool:
        """ROW-7.2: does ``piece`` have a LoC to a PAVN or PRC supply source (the condition for a PAVN or PRC piece
        outside North Vietnam to pay from the red Communist pool)?  An HQ by its own trace; a unit directly within 15
        MP or through an HQ that has one."""
        if piece.side != COMMUNIST:
            return False
        pavn = set(self.m.supply_sources("pavn")) | set(self.m.supply_sources("prc"))
        if piece.is_hq:
            key = "pavn:" + piece.uid
            if key not in self._hq_loc:
                rule = "ignore" if self.mission == "infiltrate" else "forbid"
                costs, _ = search(
                    self.m,
                    COMMUNIST,
                    piece.hex,
                    None,
                    allowed=self.land,
                    blocked=self.enemy_units[COMMUNIST],
                    zoc=self.zoc[COMMUNIST] - {piece.hex},
                    zoc_rule=rule,
                    stop_at=pavn,
                )
                self._hq_loc[key] = LocResult(bool(pavn & set(costs)))
            return self._hq_loc[key].ok
        costs = self._communist_costs(piece)
        return bool(pavn & set(costs)) or any(
            h.hex in costs and self.reaches_pavn_source(h) for h in self.s.hqs(COMMUNIST)
        )

    def _sources(self, piece: Piece) -> set[str]:
        """ROW-14.4: PAVN and PRC sources serve every Communist piece, other sources their own nationality; active trail
        termini count as sources (decision R-SUP-03)."""
        targets = set(self.m.supply_sources("pavn")) | set(self.m.supply_sources("prc")) | set(self.termini)
        own = {"PL": "pathet_lao", "KhR": "khmer_rouge"}.get(piece.nationality)
        if own:
            targets |= set(self.m.supply_sources(own))
        return targets

    def _vc_targets(self, piece: Piece) -> LocResult:
        cap = self.cap_control
        costs = self._communist_costs(piece)
        best = None
        for h, c in sorted(costs.items(), key=lambda kv: kv[1]):
            r = self.m.hex(h)
            why = (
                "trail hex"
                if r.trail
                else r.zone
                if r.zone
                else "Communist-controlled cultivated hex"
                if r.terrain == "cultivated" and h not in cap
                else ""
            )
            if why:
                best = LocResult(True, False, f"{why} {h}", Fraction(c, TICKS))
                break
        return best or LocResult(False)

    def _communist_costs(self, piece: Piece) -> dict[str, int]:
        """The Communist trace costs (sixths of an MP) of every hex within 15 MP of ``piece``'s hex (14.4.2), searched
        once per hex of this situation (a VC unit's trace and its PAVN-source check read them again)."""
        costs = self._costs.get(piece.hex)
        if costs is None:
            rule = "ignore" if self.mission == "infiltrate" else "forbid"
            costs, _ = search(
                self.m,
                COMMUNIST,
                piece.hex,
                COMMUNIST_LOC_MP * TICKS,
                allowed=self.land,
                blocked=self.enemy_units[COMMUNIST],
                zoc=self.zoc[COMMUNIST] - {piece.hex},
                zoc_rule=rule,
            )
            self._costs[piece.hex] = costs
        return costs

    def communist(self, piece: Piece) -> LocResult:
        """ROW-14.4.2: a non-VC unit traces at most 15 MP (Communist costs, not through Capitalist units or ZoC,
        decision R-SUP-03) to a Communist HQ that has a LoC, or (glossary) to an eligible supply source; a VC unit as well, or to a trail hex, a Communist-controlled
        cultivated hex or a hex of War Zone C, War Zone D or the Iron Triangle (within the same 15 MP, R-SUP-03).
        The answer depends only on the unit's hex and nationality in this situation, so it is worked out once."""
        key = (piece.hex, piece.nationality)
        if key in self._unit_loc:
            return self._unit_loc[key]
        costs = self._communist_costs(piece)
        best = None
        for hq in self.s.hqs(COMMUNIST):
            if hq.hex in costs and self.communist_hq(hq).ok:
                c = costs[hq.hex]
                if best is None or c < best[0]:
                    best = (c, f"HQ {hq.uid}")
        for h in sorted(self._sources(piece)):
            if h in costs and (best is None or costs[h] < best[0]):
                best = (costs[h], f"supply source {h}")
        res = LocResult(True, False, best[1], Fraction(best[0], TICKS)) if best else LocResult(False)
        if piece.nationality == "VC":
            vc = self._vc_targets(piece)
            if vc.ok and (not res.ok or vc.mp < res.mp):
                res = vc
        self._unit_loc[key] = res
        return res

    def trace(self, piece: Piece) -> Ruling:
        """ROW-14.4: does ``piece`` have a LoC now?  Communist units in tunnels always do (14.3).  Result: a
        :class:`LocResult`; for a Capitalist trace with ``snafu`` the caller offers :func:`capitalist_trace_options`."""
        if piece.side == COMMUNIST and piece.in_tunnel:
            res, rule = LocResult(True, False, "tunnel"), "ROW-14.4"
        elif piece.special_forces:
            res, rule = LocResult(True, False, "Special Forces (always in supply, 14.1.5)"), "ROW-14.4"
        elif piece.side == CAPITALIST:
            res, rule = self.capitalist(piece), "ROW-14.4.1"
        elif piece.is_hq:
            res, rule = self.communist_hq(piece), "ROW-14.4"
        else:
            res, rule = self.communist(piece), "ROW-14.4.2"
        if not res.ok:
            text = f"{piece} at {piece.hex} cannot trace a LoC."
        else:
            text = (
                f"{piece} at {piece.hex} traces a LoC to {res.via} ({float(res.mp):g} MP)"
                + (
                    "; the trace crosses enemy-controlled hexes, so it costs one SNAFU draw (the Capitalist may "
                    "decline to trace)"
                    if res.snafu
                    else ""
                )
                + "."
            )
        return _ruling(
            rule,
            "Line of communications",
            text,
            res,
            inputs={"piece": piece.uid, "hex": piece.hex, "mission": self.mission},
            side=piece.side,
            places=(piece.hex,),
        )


def capitalist_trace_options(trace: Ruling) -> list[Action]:
    """ROW-14.4.1: a Capitalist trace that crosses enemy-controlled hexes is offered: trace (one SNAFU draw for the
    tracing unit) or decline (the game function needing the LoC is not performed)."""
    res: LocResult = trace.result
    if not res.ok or not res.snafu:
        return []
    uid = trace.inputs["piece"]
    return [
        Action.make("trace_loc", f"Trace {uid}'s LoC and draw once from the Cup of SNAFU", unit=uid),
        Action.make("decline_loc", f"Do not trace {uid}'s LoC (the action is not performed)", unit=uid),
    ]


def ooc_sweep(
    situation: Situation,
    side: str,
    tracer: LocTracer,
    segment: Literal["supply_determination", "player_turn"],
) -> tuple[Situation, list[Ruling]]:
    """ROW-6.2 case i / ROW-3.0 (A2d, B3a-ii, B3b-ii): trace every unit of ``side`` and place or remove OOC markers
    (:func:`ooc_update`).  Returns the new situation and one ruling per unit whose marker changed; the opponent's
    SNAFU draws are in each placing ruling (``snafu_for``).  A Capitalist trace that would cost a SNAFU draw counts as
    a LoC here (the draw is owed only when a game function uses the trace, 14.4.1)."""
    new = situation
    out = []
    for u in situation.units(side):
        r = ooc_update(u, tracer.trace(u), segment)
        if r.result["placed"] or r.result["removed"]:
            marks = (u.markers | {"OOC"}) if r.result["ooc"] else (u.markers - {"OOC"})
            new = new.replace(replace(u, markers=marks))
            out.append(r)
    return new, out


def ooc_update(
    piece: Piece, trace: Ruling, segment: Literal["supply_determination", "player_turn"]
) -> Ruling:
    """ROW-6.2 case i (decision R-SUP-07): OOC markers.  In the Infrastructure and Supply Determination segment a unit
    without a LoC is marked OOC and one with a LoC loses its marker; at the start of a player turn (B3a-ii, B3b-ii)
    markers are only placed.  Each new OOC marker gives the opponent one SNAFU draw (he may place it or not, and
    chooses its face).  Result: ``{"ooc": bool, "placed": bool, "removed": bool, "snafu_for": side | None}``."""
    if piece.is_hq:
        raise IllegalAction("ROW-6.2", f"{piece} is an HQ: OOC markers go on units")
    has = trace.result.ok
    was = piece.has("OOC")
    placed = not has and not was
    removed = has and was and segment == "supply_determination"
    ooc = (was and not removed) or placed
    opp = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
    text = (
        f"{piece} has no LoC: it is marked OOC (no support of any kind, cannot turn fresh); the {opp} draws once from "
        "the Cup of SNAFU and may place it."
        if placed
        else f"{piece} traces a LoC again: its OOC marker is removed."
        if removed
        else f"{piece} stays OOC (markers come off only in the Infrastructure and Supply Determination segment)."
        if ooc
        else f"{piece} has a LoC: no OOC marker."
    )
    return _ruling(
        "ROW-6.2",
        "Out of communications",
        text,
        {"ooc": ooc, "placed": placed, "removed": removed, "snafu_for": opp if placed else None},
        inputs={"piece": piece.uid, "has_loc": has, "segment": segment},
        side=piece.side,
        places=(piece.hex,),
    )
