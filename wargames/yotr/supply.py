"""Supply (YOTR-SUP) and the Supply Effects Chart (YOTR-SUP-CHART).

* YOTR-SUP / YOTR-SUP-PROC: a Communist unit is in Attack Supply within 8 hexes of a revealed real supply
  unit, in General Supply within 8 hexes of an intact Supply Center, else Isolated (D-22: the unit's own hex
  is not counted).  An Allied unit is Supplied in a town or base, or with a line of any length to an
  unbesieged Allied town or base (sources: D-58); else Unsupplied.  The Cambodian town of Svay Rieng counts as
  a town hex here as it does for bombardment (YOTR-TEC-5): a unit in it is Supplied, and unbesieged and free
  of Communist units it is a source (D-72), though it scores nothing and has no militia (YOTR-TWN-B).
* YOTR-SUP-A: every Communist unit is in Attack Supply on Game-Turns 1 and 2.
* YOTR-SUP-B: NLF guerrillas (and 2-1-6 Battlegroups) are always in Attack Supply; militia is never affected.
* YOTR-SUP-C: lines never pass enemy units, enemy militia, enemy zones (unless a friendly unit stands there,
  YOTR-ZOC-C), terrain the unit could not enter, unbridged river hexsides or the sea.
* YOTR-SUP-E: from Game-Turn 3 the Communist may reveal real supply units in his Combat Phase; they are
  removed at its end.  YOTR-SUP-F: supply is judged at the start of movement and again at each combat.
* YOTR-SUP-G / YOTR-SUP-H: no attrition; any number of units share one source.
* YOTR-SOP-A2a / YOTR-SOP-B2a: the supply determination steps.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from functools import cache, lru_cache

from ..core import Action
from .data import load_data

RANGE = 8  # YOTR-SUP: eight hexes or fewer


@cache
def _factor(side: str, arvn: bool, state: str, column: str, isolated_attack: float) -> Fraction:
    """One cell of the Supply Effects Chart as an exact fraction (D-13 for the Isolated attack cell)."""
    if side == "Communist":
        if state == "isolated" and column == "attack":
            return Fraction(isolated_attack).limit_denominator(100)
        row = load_data().effect("Communist", "all", state)
    else:
        row = load_data().effect("Allied", "ARVN" if arvn else "non_ARVN", state)
    return Fraction(getattr(row, column)).limit_denominator(100)


@cache
def _communist_trace_edges() -> dict[str, tuple[str, ...]]:
    """Static supply-line steps for the Communist (YOTR-SUP-C): land only, never across an unbridged river."""
    d = load_data()
    return {
        a: tuple(
            b
            for b in ns
            if d.terrain(b) != "sea" and not (d.side_has(a, b, "river") and not d.side_has(a, b, "bridge"))
        )
        for a, ns in d.adj.items()
    }


@cache
def _allied_trace_edges(cls: str, region: str | None, no_nvn: bool) -> dict[str, tuple[str, ...]]:
    """Static supply-line steps for an Allied class (YOTR-SUP-C): land, no North Vietnam, the ROK Region,
    ARVN off rough and swamp except by road or trail, never across an unbridged river."""
    d = load_data()
    out = {}
    for a, ns in d.adj.items():
        row = []
        for b in ns:
            if d.terrain(b) == "sea" or (no_nvn and d.country(b) == "NVN"):
                continue
            if region and d.region(b) != region:
                continue
            if (
                cls == "arvn"
                and d.terrain(b) in ("rough", "swamp")
                and not (d.side_has(a, b, "road") or d.side_has(a, b, "trail"))
            ):
                continue
            if d.side_has(a, b, "river") and not d.side_has(a, b, "bridge"):
                continue
            row.append(b)
        out[a] = tuple(row)
    return out


@cache
def _allied_trace_back(cls: str, region: str | None, no_nvn: bool) -> dict[str, tuple[str, ...]]:
    """:func:`_allied_trace_edges` reversed: each hex -> the hexes a supply line may step into it from."""
    back: dict[str, list[str]] = {}
    for a, ns in _allied_trace_edges(cls, region, no_nvn).items():
        for b in ns:
            back.setdefault(b, []).append(a)
    return {b: tuple(ns) for b, ns in back.items()}


def _line_back(
    back: dict[str, tuple[str, ...]], h: str, sources: frozenset[str], blocked: frozenset[str]
) -> bool:
    """Whether a supply line runs from one of ``sources`` to ``h`` along the steps ``back`` reverses, never through
    ``blocked`` (YOTR-SUP, YOTR-SUP-C): a search backwards from ``h`` that stops at the first source."""
    if h in sources:
        return True
    if h in blocked:
        return False
    seen = {h}
    todo = deque([h])
    while todo:
        for p in back.get(todo.popleft(), ()):
            if p in sources:
                return True
            if p not in seen and p not in blocked:
                seen.add(p)
                todo.append(p)
    return False


@lru_cache(maxsize=16)
def _communist_reach(sources: tuple[str, ...], blocked: frozenset[str]) -> dict[str, int]:
    """Hexes within 8 steps of any source along Communist supply lines that avoid ``blocked`` -> the distance
    (YOTR-SUP-C, D-22).  A function of its arguments and the map only, so it is kept for the next time the same
    sources meet the same obstacles (most moves leave them unchanged); callers must not change the result."""
    edges = _communist_trace_edges()
    dist = {s: 0 for s in sources}
    q = deque(sorted(sources))
    while q:
        h = q.popleft()
        nd = dist[h] + 1
        if nd > RANGE:
            continue
        for n in edges[h]:
            if n not in dist and n not in blocked:
                dist[n] = nd
                q.append(n)
    return dist


@lru_cache(maxsize=8)
def _allied_reach(
    cls: str, region: str | None, no_nvn: bool, sources: tuple[str, ...], blocked: frozenset[str]
) -> frozenset[str]:
    """Hexes from which a line of any length along the Allied class's steps, avoiding ``blocked``, reaches one
    of ``sources`` (YOTR-SUP, YOTR-SUP-C); kept like :func:`_communist_reach`."""
    edges = _allied_trace_edges(cls, region, no_nvn)
    seen = set(sources)
    q = deque(sources)
    while q:
        h = q.popleft()
        for n in edges[h]:
            if n not in seen and n not in blocked:
                seen.add(n)
                q.append(n)
    return frozenset(seen)


class SupplyRules:
    # ------------------------------------------------------------------ tracing
    def _communist_passable(self, h: str) -> bool:
        d = self.data
        if d.terrain(h) == "sea" or self.occupied_by(h, "Allied") or self.allied_militia(h) > 0:
            return False
        return h not in self.zoc_for_tracing("Allied")

    def communist_range(self, sources: tuple[str, ...]) -> dict[str, int]:
        """Hexes within 8 unobstructed hexes of any source, with their distance (YOTR-SUP-C, D-22)."""
        key = ("crange", sources)
        if key in self._cache:
            return self._cache[key]
        blocked = (
            self.occupied("Allied")
            | self.zoc_for_tracing("Allied")
            | {h for h in self.data.towns if self.allied_militia(h) > 0}
        )
        dist = self._cache[key] = _communist_reach(tuple(sources), frozenset(blocked))
        return dist

    def sc_hexes_intact(self) -> set[str]:
        return {h for h in self.data.supply_centers if h not in self.sc_destroyed}

    def general_sources(self) -> tuple[str, ...]:
        return tuple(sorted(h for h in self.data.supply_centers if self.sc_intact(h)))

    def communist_supply(self, uid: str, combat: bool = False) -> str:
        """attack_supply, general_supply or isolated (YOTR-SUP, YOTR-SUP-A, YOTR-SUP-B, YOTR-SUP-F)."""
        u = self.counters[uid]
        if self.turn <= 2 or u.nationality == "NLF" or (uid in self.bg and self.opts.special_rule_h):
            return "attack_supply"  # YOTR-SUP-A, YOTR-SUP-B (YOTR-SR-H: the 2-1-6 Battlegroups too, D-48)
        h = self.loc[uid]
        if (
            combat
            and self.attack_sources
            and h in self.communist_range(tuple(sorted(set(self.attack_sources))))
        ):
            return "attack_supply"
        if h in self.communist_range(self.general_sources()):
            return "general_supply"
        return "isolated"

    def allied_class(self, uid: str) -> str:
        u = self.counters[uid]
        if u.nationality == "ROK" and not self.opts.special_rule_f:
            return f"rok:{self.home_region[uid]}"
        return "arvn" if u.nationality == "ARVN" else "allied"

    def besieged(self, h: str) -> bool:
        """YOTR-TWN-N / D-25: an Allied town or base in a Communist zone of control."""
        return h in self.data.towns and self.town[h] != "nlf" and h in self.zoc("Communist")

    def _allied_lines(self, cls: str) -> tuple[tuple[str, ...], frozenset[str]]:
        """The sources of an Allied class's supply lines (its unbesieged towns and bases, D-58) and the hexes a
        line may not pass (YOTR-SUP-C), kept until the next change."""
        key = ("alines", cls)
        if key not in self._cache:
            d = self.data
            region = cls.split(":", 1)[1] if cls.startswith("rok:") else None
            blocked = (
                set(self.zoc_for_tracing("Communist"))
                | self.occupied("Communist")
                | self.sc_hexes_intact()
                | {h for h in self.town if self.communist_militia(h)}
            )
            zoc = self.zoc("Communist")
            sources = tuple(
                sorted(
                    [
                        h
                        for h in d.towns
                        if self.town[h] != "nlf"
                        and not self.besieged(h)
                        and not self.occupied_by(h, "Communist")
                        and (region is None or d.region(h) == region)
                    ]
                    + [  # D-72: a town hex outside South Vietnam (Svay Rieng), unbesieged and not held
                        h
                        for h in d.town_symbols - d.towns.keys()
                        if h not in zoc
                        and not self.occupied_by(h, "Communist")
                        and (region is None or d.region(h) == region)
                    ]
                )
            )
            self._cache[key] = sources, frozenset(blocked)
        return self._cache[key]

    def allied_supplied_hexes(self, cls: str) -> frozenset[str]:
        """Hexes from which a unit of class ``cls`` traces to an unbesieged Allied town or base (any length)."""
        key = ("arange", cls)
        if key not in self._cache:
            region = cls.split(":", 1)[1] if cls.startswith("rok:") else None
            self._cache[key] = _allied_reach(
                cls.split(":", 1)[0], region, not self.opts.special_rule_f, *self._allied_lines(cls)
            )
        return self._cache[key]

    def allied_supply(self, uid: str) -> str:
        """supplied or unsupplied (YOTR-SUP): in a town or base, or a line to an unbesieged one.  The line is
        traced back from the unit's hex to the first source found (a unit is seldom far from a town): the same
        answer as membership in :meth:`allied_supplied_hexes`, without tracing from every source over the map."""
        h = self.loc[uid]
        if (
            h in self.data.towns
            and self.town[h] != "nlf"
            or h in self.data.town_symbols - self.data.towns.keys()
        ):
            return "supplied"  # in a town or base hex, besieged or not; Svay Rieng too (D-72)
        cls = self.allied_class(uid)
        key = ("aline", cls, h)
        if key not in self._cache:
            region = cls.split(":", 1)[1] if cls.startswith("rok:") else None
            back = _allied_trace_back(cls.split(":", 1)[0], region, not self.opts.special_rule_f)
            sources, blocked = self._allied_lines(cls)
            self._cache[key] = _line_back(back, h, frozenset(sources), blocked)
        return "supplied" if self._cache[key] else "unsupplied"

    def supply_state(self, uid: str, combat: bool = False) -> str:
        if self.side_of(uid) == "Communist":
            return self.communist_supply(uid, combat)
        return self.allied_supply(uid)

    # ------------------------------------------------------------------ the Supply Effects Chart
    def supply_factor(self, uid: str, state: str, column: str) -> Fraction:
        """YOTR-SUP-CHART: the multiplier of attack, defense or movement for a unit in ``state``."""
        u = self.counters[uid]
        return _factor(u.side, u.nationality == "ARVN", state, column, self.opts.isolated_attack_factor)

    # ------------------------------------------------------------------ the steps
    def communist_supply_phase(self):
        """YOTR-SOP-A2a: each Communist counter's supply state for this Movement Phase."""
        self.supply = {}
        counts: dict[str, int] = {}
        for uid in self.on_map("Communist"):
            if self.is_supply_unit(uid):
                continue
            s = self.communist_supply(uid)
            self.supply[uid] = s
            counts[s] = counts.get(s, 0) + 1
        self.touch()
        why = (
            "on Game-Turns 1 and 2 every Communist unit is in Attack Supply (Supply case A)"
            if self.turn <= 2
            else "a unit more than 8 clear hexes from every intact Supply Center is Isolated "
            "and moves at half its allowance (decisions D-23, D-39)"
        )
        yield self.ruling(
            "YOTR-SOP-A2a",
            "Communist supply for movement",
            f"Supply states: {', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}; {why}.",
            result=dict(sorted(counts.items())),
            hidden_from=("Allied",),
            public="The Communist checks the supply of his counters.",
        )

    def allied_supply_phase(self):
        """YOTR-SOP-B2a: each Allied unit is Supplied or Unsupplied for this Movement Phase."""
        self.supply = {uid: self.allied_supply(uid) for uid in self.on_map("Allied")}
        self.touch()
        out = sorted(u for u, s in self.supply.items() if s == "unsupplied")
        yield self.ruling(
            "YOTR-SOP-B2a",
            "Allied supply for movement",
            f"{len(self.supply) - len(out)} Allied units are Supplied"
            + (f"; Unsupplied (half movement): {', '.join(out)}." if out else "; none is Unsupplied."),
            result={"unsupplied": out},
        )

    def reveal_attack_supply(self):
        """YOTR-SUP-E: the Communist may reveal real supply units for Attack Supply this Combat Phase."""
        self.attack_sources = []
        while True:
            real = [
                u
                for u in self.on_map("Communist")
                if self.counters[u].unit_type == "supply_real" and self.loc[u] not in self.attack_sources
            ]
            if not real:
                return
            opts = [
                Action.make(
                    "reveal_supply",
                    f"Reveal supply unit {u} at {self.hex_name(self.loc[u])}",
                    [self.loc[u]],
                    unit=u,
                )
                for u in real
            ]
            opts.append(Action.make("done", "Reveal no (more) supply units"))
            act = yield self.decide(
                "Communist",
                "Reveal a real supply unit for Attack Supply?",
                "YOTR-SUP-E",
                opts,
                kind="reveal_supply",
            )
            if act.kind == "done":
                return
            uid = act["unit"]
            self.attack_sources.append(self.loc[uid])
            self.face_up.add(uid)
            self.touch()
            n = sum(1 for v in self.communist_range((self.loc[uid],)) if v)
            yield self.ruling(
                "YOTR-SUP-E",
                f"Supply unit revealed at {self.loc[uid]}",
                f"The Communist reveals the real supply unit {uid} at {self.hex_name(self.loc[uid])}: "
                f"every Communist unit within 8 unobstructed hexes ({n} hexes) is in Attack Supply for "
                "this Combat Phase; the unit is spent at its end.",
                result={"unit": uid},
                places=[self.loc[uid]],
            )

    def remove_spent_supply(self):
        """YOTR-SUP-E: supply units revealed this Combat Phase are removed at its end."""
        spent = sorted(
            u for u in self.face_up if self.is_supply_unit(u) and self.loc[u] not in ("removed", "eliminated")
        )
        for uid in spent:
            frm = self.loc[uid]
            self.place(uid, "removed")
            self.face_up.discard(uid)
            yield self.ruling(
                "YOTR-SUP-E",
                f"Supply unit {uid} spent",
                f"The supply unit revealed at {frm} has been used for Attack Supply and is removed.",
                changes=[{"unit": uid, "from": frm, "to": "removed"}],
                places=[frm],
            )
        self.attack_sources = []
        self.face_up = {u for u in self.face_up if not self.is_supply_unit(u)}
