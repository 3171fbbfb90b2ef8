"""Fire in the Lake: the board state (rules 1.3-1.9) shared by every procedure.

Pieces are counted, not individually identified (rules 1.4: pieces of one type and state are identical).
A space holds a counter of *piece keys*:

* plain force-pool ids for pieces with one state: ``us_troops``, ``us_bases``, ``arvn_troops``,
  ``arvn_police``, ``arvn_bases``, ``nva_troops``;
* ``<id>:u`` / ``<id>:a`` for pieces that are Underground or Active (1.4.3): ``us_irregulars``,
  ``arvn_rangers``, ``nva_guerrillas``, ``vc_guerrillas``;
* ``nva_bases`` / ``vc_bases`` and ``nva_bases:t`` / ``vc_bases:t`` for Tunneled Bases (1.4.4).

The boxes (Available, Casualties, Out of Play) count plain force-pool ids: pieces leave the map in their
default state (Underground, untunneled).  Victory markers and Control are functions of this state (1.7, 1.9),
never stored, so they cannot drift.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from ..core.journal import Journal, JournalCounter, JournalDict, JournalSet
from .data import COIN, LEVELS, FitlData, Scenario, load_data

FLIPPABLE = frozenset({"us_irregulars", "arvn_rangers", "nva_guerrillas", "vc_guerrillas"})
TUNNELABLE = frozenset({"nva_bases", "vc_bases"})
TRACK_IDS = ("aid", "patronage", "econ", "trail", "arvn_resources", "nva_resources", "vc_resources")
BOXES = ("available", "casualties", "out_of_play")


@cache  # a few dozen distinct keys, asked about a million times a game
def piece_id(key: str) -> str:
    """The force-pool id of a piece key (``vc_guerrillas:a`` -> ``vc_guerrillas``)."""
    return key.split(":", 1)[0]


@cache
def piece_state(key: str) -> str:
    """``u`` (Underground), ``a`` (Active), ``t`` (Tunneled) or ``""`` for single-state pieces."""
    return key.split(":", 1)[1] if ":" in key else ""


def default_key(pid: str) -> str:
    """The key a piece takes when it is placed from a box: flippable pieces arrive Underground (1.4.3)."""
    return f"{pid}:u" if pid in FLIPPABLE else pid


class Board:
    """Everything on the board and the tracks (FITL-1.3 to FITL-1.9)."""

    def __init__(self, scenario: Scenario, data: FitlData | None = None, journal: Journal | None = None):
        self.data = data or load_data()
        d = self.data
        self.pieces: dict[str, Counter[str]] = {s: Counter() for s in d.spaces}
        self.support: dict[str, int] = {s: 0 for s in d.spaces}
        self.terror: Counter[str] = Counter()  # Terror markers in Provinces/Cities (3.3.4)
        self.sabotage: set[str] = set()  # Sabotage markers on LoCs (3.3.4)
        # marker aids and Momentum sides set by Events (FITL-5.1, 5.4); part of the state digest
        self.event_flags: dict[str, object] = {}
        for s in scenario.spaces:
            for pid, n in s.pieces.items():
                self.pieces[s.id][default_key(pid)] += n
            for faction, n in (s.tunneled_bases or {}).items():
                pid = f"{faction.lower()}_bases"
                self.pieces[s.id][pid] -= n
                self.pieces[s.id][f"{pid}:t"] += n
            self.support[s.id] = LEVELS[s.support]
        self.out_of_play: Counter[str] = Counter(scenario.boxes.out_of_play)
        self.casualties: Counter[str] = Counter(scenario.boxes.casualties)
        # pieces a lesson position takes out of the game (a smaller force pool, ``position.removed``); never in play
        self.removed: Counter[str] = Counter()
        on_map = Counter()
        for c in self.pieces.values():
            for key, n in c.items():
                on_map[piece_id(key)] += n
        self.available: Counter[str] = Counter(
            {
                pid: row.count - on_map[pid] - self.out_of_play[pid] - self.casualties[pid]
                for pid, row in d.pieces.items()
                if row.type != "marker"
            }
        )
        t = scenario.tracks
        self.tracks: dict[str, int] = {
            "aid": t.aid,
            "patronage": t.patronage,
            "econ": t.econ,
            "trail": t.trail,
            **{f"{f.lower()}_resources": n for f, n in t.resources.items()},
        }
        for name in scenario.markers.get("terror", []):
            self.terror[name] += 1
        self.sabotage |= set(scenario.markers.get("sabotage", []))
        for c in self.pieces.values():
            c += Counter()  # drop zero entries
        if journal is not None:
            self.journal_to(journal)

    def journal_to(self, journal: Journal) -> None:
        """Keep the board in journalled containers (issue #13, core.journal): every change of a space's pieces,
        Support, markers, boxes and tracks is written to ``journal`` and lands in the next ruling's changes
        (``{"field": "pieces", "pieces": "vc_guerrillas:u", "space": "saigon", "from": 1, "to": 2}``,
        ``{"field": "tracks", "track": "aid", "from": 15, "to": 12}``, ``{"field": "support", "support": ...}``)."""
        j = journal
        self.pieces = {
            s: JournalCounter(c, journal=j, field="pieces", key="pieces", where={"space": s})
            for s, c in self.pieces.items()
        }
        self.support = JournalDict(self.support, journal=j, field="support", key="support")
        self.terror = JournalCounter(self.terror, journal=j, field="terror", key="space")
        self.sabotage = JournalSet(self.sabotage, journal=j, field="sabotage", key="space")
        # momentum_pending (the Momentum Event just played, FITL-5.4) is set by the Event's ruling and cleared by the
        # ruling revealing the next card, which moves the card into the Momentum box (decision F-112)
        self.event_flags = JournalDict(self.event_flags, journal=j, field="event_flags", key="flag")
        for box in (*BOXES, "removed"):
            setattr(self, box, JournalCounter(getattr(self, box), journal=j, field=box, key="pieces"))
        self.tracks = JournalDict(self.tracks, journal=j, field="tracks", key="track")

    # ------------------------------------------------------------------ counting
    def count(
        self, space: str, faction: str | None = None, ptype: str | None = None, state: str | None = None
    ) -> int:
        """Pieces in ``space`` filtered by faction (US/ARVN/NVA/VC), type (troops, bases, ...) and state."""
        info = self.data.key_info
        total = 0
        for key, n in self.pieces[space].items():
            f, t, st = info.get(key) or self._key_info(key)
            if (
                (faction is None or f == faction)
                and (ptype is None or t == ptype)
                and (state is None or st == state)
            ):
                total += n
        return total

    def _key_info(self, key: str) -> tuple[str | None, str, str]:
        """(faction, type, state) of a piece key the precomputed table lacks (an unknown id raises KeyError)."""
        row = self.data.pieces[piece_id(key)]
        return row.faction, row.type, piece_state(key)

    def sides_count(self, space: str) -> tuple[int, int, int]:
        """The pieces of US+ARVN, of the NVA and of the VC in ``space`` (FITL-1.7), counted in one pass."""
        info = self.data.key_info
        coin = nva = vc = 0
        for key, n in self.pieces[space].items():
            f = (info.get(key) or self._key_info(key))[0]
            if f == "NVA":
                nva += n
            elif f == "VC":
                vc += n
            elif f in COIN:
                coin += n
        return coin, nva, vc

    def faction_count(self, space: str, factions: tuple[str, ...]) -> int:
        info = self.data.key_info
        return sum(
            n
            for key, n in self.pieces[space].items()
            if (info.get(key) or self._key_info(key))[0] in factions
        )

    # ------------------------------------------------------------------ functions of the state (1.6, 1.7, 1.9)
    def control(self, space: str) -> str | None:
        """FITL-1.7: "coin" if US+ARVN pieces outnumber NVA+VC; "nva" if NVA outnumber all others; else None."""
        coin, nva, vc = self.sides_count(space)
        if coin > nva + vc:
            return "coin"
        if nva > coin + vc:
            return "nva"
        return None

    def population(self, space: str) -> int:
        return self.data.spaces[space].population

    def total_support(self) -> int:
        """FITL-1.6.2: Population at Passive Support counts once, at Active Support twice."""
        return sum(lvl * self.population(s) for s, lvl in self.support.items() if lvl > 0)

    def total_opposition(self) -> int:
        return sum(-lvl * self.population(s) for s, lvl in self.support.items() if lvl < 0)

    def on_map(self, pid: str) -> int:
        """Pieces of force-pool id ``pid`` on the map, in any state."""
        under, active, tunneled = f"{pid}:u", f"{pid}:a", f"{pid}:t"
        total = 0
        for c in self.pieces.values():
            if c:
                total += c.get(pid, 0) + c.get(under, 0) + c.get(active, 0) + c.get(tunneled, 0)
        return total

    def on_space(self, space: str, pid: str) -> int:
        """Pieces of force-pool id ``pid`` in ``space``, in any state."""
        c = self.pieces[space]
        return c.get(pid, 0) + c.get(f"{pid}:u", 0) + c.get(f"{pid}:a", 0) + c.get(f"{pid}:t", 0)

    def victory(self) -> dict[str, int]:
        """FITL-1.9 / FITL-7.2: the four victory markers as functions of the board."""
        controls = [(s, self.control(s)) for s in self.pieces]
        coin_pop = sum(self.population(s) for s, c in controls if c == "coin")
        nva_pop = sum(self.population(s) for s, c in controls if c == "nva")
        return {
            "US": self.total_support() + self.available["us_troops"] + self.available["us_bases"],
            "ARVN": coin_pop + self.tracks["patronage"],
            "NVA": nva_pop + self.on_map("nva_bases"),
            "VC": self.total_opposition() + self.on_map("vc_bases"),
        }

    # ------------------------------------------------------------------ changing pieces
    def place(self, space: str, pid: str, n: int = 1, *, source: str = "available") -> None:
        """Move ``n`` ``pid`` pieces from a box onto ``space`` in their default state (1.4.1)."""
        box: Counter[str] = getattr(self, source)
        if box[pid] < n:
            raise ValueError(f"only {box[pid]} {pid} in {source}, not {n}")
        box[pid] -= n
        self.pieces[space][default_key(pid)] += n

    def _take(self, space: str, key: str, n: int) -> None:
        c = self.pieces[space]
        if c[key] < n:
            raise ValueError(f"only {c[key]} {key} in {space}, not {n}")
        c[key] -= n
        if not c[key]:
            del c[key]

    def remove(self, space: str, key: str, n: int = 1, *, to: str = "available") -> None:
        """Take ``n`` pieces of ``key`` off ``space`` into a box (Available, Casualties or Out of Play)."""
        self._take(space, key, n)
        getattr(self, to)[piece_id(key)] += n

    def move(self, src: str, dst: str, key: str, n: int = 1) -> None:
        self._take(src, key, n)
        self.pieces[dst][key] += n

    def flip(self, space: str, pid: str, to_state: str, n: int = 1) -> None:
        """FITL-1.4.3: turn ``n`` flippable pieces Underground (``u``) or Active (``a``)."""
        frm = "a" if to_state == "u" else "u"
        self._take(space, f"{pid}:{frm}", n)
        self.pieces[space][f"{pid}:{to_state}"] += n

    def shift_track(self, track: str, delta: int) -> int:
        """Add ``delta`` to a track, clamped to its printed range (1.8); returns the change actually made."""
        row = self.data.tracks[track]
        old = self.tracks[track]
        top = row.max if row.max is not None else 10**6
        self.tracks[track] = max(row.min, min(top, old + delta))
        return self.tracks[track] - old

    # ------------------------------------------------------------------ canonical form and invariants
    def to_dict(self) -> dict[str, Any]:
        return {
            "pieces": {
                s: dict(sorted((k, v) for k, v in c.items() if v))
                for s, c in sorted(self.pieces.items())
                if +c
            },
            "support": {s: v for s, v in sorted(self.support.items()) if v},
            "terror": dict(sorted((k, v) for k, v in self.terror.items() if v)),
            "sabotage": sorted(self.sabotage),
            **{b: dict(sorted((k, v) for k, v in getattr(self, b).items() if v)) for b in BOXES},
            "tracks": dict(sorted(self.tracks.items())),
            "event_flags": {k: self.event_flags[k] for k in sorted(self.event_flags)},
            **(
                {"removed": dict(sorted((k, v) for k, v in self.removed.items() if v))}
                if +self.removed
                else {}
            ),
        }

    def invariants(self) -> list[str]:
        """Broken board rules: 229 pieces conserved (1.2, 1.4.1), stacking (1.4.2), support only where people
        live (1.6), tracks in range (1.8)."""
        bad: list[str] = []
        d = self.data
        on_map: Counter[str] = Counter()  # one pass over the map (invariants run after every decision)
        for c in self.pieces.values():
            for key, n in c.items():
                on_map[piece_id(key)] += n
        for pid, row in d.pieces.items():
            if row.type == "marker":
                continue
            total = on_map[pid] + sum(getattr(self, b)[pid] for b in BOXES)
            if total + self.removed[pid] != row.count:
                bad.append(
                    f"FITL-1.4.1: {pid} total {total}, force pool {row.count}"
                    + (f" less {self.removed[pid]} out of the game for a lesson" if self.removed[pid] else "")
                )
            for b in BOXES:
                if getattr(self, b)[pid] < 0:
                    bad.append(f"{b} holds {getattr(self, b)[pid]} {pid}")
        for s, c in self.pieces.items():
            sp = d.spaces[s]
            if any(n < 0 for n in c.values()):
                bad.append(f"negative count in {s}: {dict(c)}")
            bases = self.count(s, ptype="bases")
            if bases > 2:
                bad.append(f"FITL-1.4.2: {bases} Bases in {s}")
            if bases and sp.kind == "loc":
                bad.append(f"FITL-1.4.2: a Base on LoC {s}")
            if sp.country == "NVN" and self.faction_count(s, COIN):
                bad.append(f"FITL-1.4.2: US/ARVN pieces in North Vietnam ({s})")
            if self.support[s] and (sp.kind == "loc" or sp.population == 0):
                bad.append(f"FITL-1.6: Support/Opposition in {s} with no Population")
            if not -2 <= self.support[s] <= 2:
                bad.append(f"FITL-1.6.1: support level {self.support[s]} in {s}")
            for key in c:
                pid, st = piece_id(key), piece_state(key)
                if (
                    pid in FLIPPABLE
                    and st not in ("u", "a")
                    or pid in TUNNELABLE
                    and st not in ("", "t")
                    or pid not in FLIPPABLE | TUNNELABLE
                    and st
                ):
                    bad.append(f"bad piece key {key} in {s}")
        for t, v in self.tracks.items():
            row = d.tracks[t]
            if not row.min <= v <= (row.max if row.max is not None else v):
                bad.append(f"FITL-1.8: track {t} at {v} outside {row.min}-{row.max}")
        return bad
