"""What the ground-war rules need to know about a piece on the map (ROW-1.0, ROW-2.3, ROW-9.1, ROW-14.6).

The order of battle (``units.py``, ``data/row/units*.csv``) is written elsewhere; the movement, supply, HQ and
control rules only read the few facts listed here, so a game object can build a :class:`Piece` from whatever its
unit records hold.  A :class:`Situation` is the map picture those rules look at: where each side's units and
HQs stand, which hexes their zones of control cover (ROW-4.3) and which hexes hold Fire Bases or Landing Zones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

CAPITALIST, COMMUNIST = "Capitalist", "Communist"
SIDES = (CAPITALIST, COMMUNIST)
TURN_ORDER = (COMMUNIST, CAPITALIST)  # ROW-3.0: the Communist player turn comes first (B3a, B3b)
NATIONALITIES = {
    CAPITALIST: ("US", "ARVN", "ROK", "Thai", "Aus", "Cmb", "Laos"),
    COMMUNIST: ("PAVN", "VC", "PRC", "PL", "KhR"),
}
MINORS = ("ROK", "Thai", "Aus")  # the Capitalist Minor Powers (glossary, 2.3)
UNIT_TYPES = ("division", "brigade", "regiment", "cadre", "battalion")


def other(side: str) -> str:
    """The opposing side (ROW-1.0: two sides, Communist and Capitalist)."""
    return COMMUNIST if side == CAPITALIST else CAPITALIST


@dataclass(frozen=True)
class Piece:
    """A unit or an HQ as the non-combat ground rules see it.

    ``kind`` is ``"unit"`` or ``"hq"`` (an HQ is not a unit, glossary).  ``hq_class`` says which units an HQ may
    activate (ROW-9.1): ``"Capitalist"`` (the blue-background HQs), ``"US"``, ``"ARVN"``, ``"Laos"``, ``"Cmb"``,
    ``"PAVN"``, ``"PRC"``, ``"VC"``, ``"PL"`` or ``"KhR"``; it defaults to the nationality.  ``areas`` are the
    South Vietnamese operational areas a US unit or HQ is assigned to (ROW-14.6.1; empty = none given, which the
    rules read as all of them only for ``any_sv_area`` units).  ``markers`` are marker faces (``"OOC"``,
    ``"Routed"``, ``"Low Morale"`` ...).  ``in_tunnel`` marks a Communist unit inside a tunnel (ROW-14.3).
    """

    uid: str
    side: str
    nationality: str
    hex: str
    kind: str = "unit"
    unit_type: str = "regiment"
    fresh: bool = True
    markers: frozenset[str] = field(default_factory=frozenset)
    areas: frozenset[str] = field(default_factory=frozenset)
    any_sv_area: bool = False
    hq_class: str = ""
    division: str = ""
    in_tunnel: bool = False
    special_forces: bool = False

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"{self.uid}: side must be one of {SIDES}, not {self.side!r} (ROW-1.0)")
        if self.nationality not in NATIONALITIES[self.side]:
            raise ValueError(
                f"{self.uid}: {self.nationality!r} is not a {self.side} nationality "
                f"{NATIONALITIES[self.side]} (ROW-2.3)"
            )
        if self.kind not in ("unit", "hq"):
            raise ValueError(f"{self.uid}: kind must be 'unit' or 'hq' (ROW-1.0: an HQ is not a unit)")
        if self.kind == "unit" and self.unit_type not in UNIT_TYPES:
            raise ValueError(f"{self.uid}: unit type must be one of {UNIT_TYPES} (ROW-2.3)")
        if self.special_forces and (self.nationality != "US" or self.unit_type != "battalion" or self.is_hq):
            raise ValueError(f"{self.uid}: Special Forces are US battalions (ROW-14.1.5)")
        object.__setattr__(self, "markers", frozenset(self.markers))
        object.__setattr__(self, "areas", frozenset(self.areas))
        if not self.hq_class:
            object.__setattr__(self, "hq_class", self.nationality)

    @property
    def is_hq(self) -> bool:
        return self.kind == "hq"

    def has(self, *markers: str) -> bool:
        return any(m in self.markers for m in markers)

    @property
    def us_battalion(self) -> bool:
        """US Army, Marine, Special Forces and Riverine battalions (exempt from stacking, ROW-4.2)."""
        return self.kind == "unit" and self.nationality == "US" and self.unit_type == "battalion"

    @property
    def has_zoc(self) -> bool:
        """ROW-4.3: every unit has a ZoC; an HQ is not a unit, a Routed unit has none (6.2 case g) and a unit in a
        tunnel is off the surface (14.3, decision R-MOV-04)."""
        return self.kind == "unit" and not self.has("Routed") and not self.in_tunnel

    def __str__(self) -> str:
        what = "HQ" if self.is_hq else self.unit_type
        return f"{self.nationality} {what} {self.uid}"


@dataclass(frozen=True)
class Situation:
    """The pieces on the map and the markers the ground rules read (Fire Bases and Landing Zones, ROW-14.1.2).

    ``invaded`` holds the countries (``NVN``, ``LAO``, ``KHM``) the Capitalist has invaded (ROW-14.6.1, ROW-7.2;
    decision R-MOV-03).  The HQ missions in force (ROW-9.5) are passed to the rules that read them, not kept here.
    """

    pieces: tuple[Piece, ...]
    fire_bases: frozenset[str] = field(default_factory=frozenset)
    invaded: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", tuple(self.pieces))
        object.__setattr__(self, "fire_bases", frozenset(self.fire_bases))
        object.__setattr__(self, "invaded", frozenset(self.invaded))
        seen: set[str] = set()
        for p in self.pieces:
            if p.uid in seen:
                raise ValueError(f"piece {p.uid!r} appears twice in the situation")
            seen.add(p.uid)

    @classmethod
    def of(cls, pieces: Iterable[Piece], **kw) -> Situation:
        return cls(tuple(pieces), **kw)

    def piece(self, uid: str) -> Piece:
        for p in self.pieces:
            if p.uid == uid:
                return p
        raise KeyError(f"no piece {uid!r} on the map")

    def units(self, side: str | None = None) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.kind == "unit" and (side is None or p.side == side))

    def hqs(self, side: str | None = None) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.is_hq and (side is None or p.side == side))

    def occupied(self, side: str) -> frozenset[str]:
        """Hexes holding a unit of ``side`` on the surface (units in tunnels do not count, 14.3)."""
        return frozenset(
            p.hex for p in self.pieces if p.kind == "unit" and p.side == side and not p.in_tunnel
        )

    def at(self, hid: str) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.hex == hid)

    def replace(self, piece: Piece) -> Situation:
        """A copy with one piece replaced (same uid)."""
        self.piece(piece.uid)
        return Situation(
            tuple(piece if p.uid == piece.uid else p for p in self.pieces), self.fire_bases, self.invaded
        )
