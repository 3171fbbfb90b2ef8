"""Area maps: areas with real positions, polygons for drawing, and typed edges (land, road, trail, river).

Movement rules ask :meth:`AreaMap.neighbours` for the edges of the kinds they allow; paths (the Ho Chi
Minh Trail, roads) use networkx on the subgraph of one edge kind.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    kind: str
    lat: float | None = None
    lon: float | None = None
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __getattr__(self, key: str) -> Any:  # area.pv, area.corps ... from attrs
        try:
            return self.__dict__["attrs"][key]
        except KeyError:
            raise AttributeError(key) from None


def _kinds_by_neighbour() -> defaultdict[str, set[str]]:
    """neighbour -> edge kinds (a named function, not a lambda, so that a map pickles into the data cache)."""
    return defaultdict(set)


class AreaMap:
    """Areas + typed undirected edges + optional GeoJSON shapes (id -> geometry)."""

    def __init__(
        self,
        areas: Iterable[Area],
        edges: Iterable[tuple[str, str, str]] = (),
        shapes: dict[str, dict[str, Any]] | None = None,
    ):
        self.areas: dict[str, Area] = {}
        for a in areas:
            if a.id in self.areas:
                raise ValueError(f"area {a.id!r} is listed twice")
            self.areas[a.id] = a
        self._adj: dict[str, dict[str, set[str]]] = defaultdict(_kinds_by_neighbour)
        self.edges: list[tuple[str, str, str]] = []
        for one, two, kind in edges:
            self.add_edge(one, two, kind)
        self.shapes = shapes or {}

    def add_edge(self, a: str, b: str, kind: str) -> None:
        for x in (a, b):
            if x not in self.areas:
                raise ValueError(f"edge {a}-{b} ({kind}) names unknown area {x!r}")
        self._adj[kind][a].add(b)
        self._adj[kind][b].add(a)
        self.edges.append((a, b, kind))

    def __getitem__(self, area_id: str) -> Area:
        return self.areas[area_id]

    def __contains__(self, area_id: str) -> bool:
        return area_id in self.areas

    def __len__(self) -> int:
        return len(self.areas)

    def of_kind(self, *kinds: str) -> list[Area]:
        return [a for a in self.areas.values() if a.kind in kinds]

    def edge_kinds(self) -> list[str]:
        return sorted(self._adj)

    def neighbours(self, area_id: str, kinds: Iterable[str] | None = None) -> set[str]:
        out: set[str] = set()
        for kind in kinds if kinds is not None else self._adj:
            out |= self._adj[kind].get(area_id, set())
        return out

    def adjacent(self, a: str, b: str, kinds: Iterable[str] | None = None) -> bool:
        return b in self.neighbours(a, kinds)

    def graph(self, kinds: Iterable[str] | None = None):
        """A networkx Graph of the given edge kinds (all kinds if None); edges carry their ``kinds``."""
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(self.areas)
        for a, b, kind in self.edges:
            if kinds is not None and kind not in kinds:
                continue
            if g.has_edge(a, b):
                g[a][b]["kinds"].add(kind)
            else:
                g.add_edge(a, b, kinds={kind})
        return g

    def reachable(self, start: str, kinds: Iterable[str], passable) -> set[str]:
        """Areas reachable from ``start`` over edges of ``kinds`` entering only areas where
        ``passable(area_id)`` is true; an area where ``passable`` returns "stop" is entered but not left."""
        seen = {start}
        frontier = [start]
        kinds = list(kinds)
        while frontier:
            nxt = []
            for a in frontier:
                for b in self.neighbours(a, kinds):
                    if b in seen:
                        continue
                    verdict = passable(b)
                    if not verdict:
                        continue
                    seen.add(b)
                    if verdict != "stop":
                        nxt.append(b)
            frontier = nxt
        seen.discard(start)
        return seen
