"""Where each force may go, the zones of control it projects, and who controls each hex (ROW-14.6, ROW-4.3, ROW-1.0).

* ROW-14.6 / ROW-14.6.1 / ROW-14.6.2 / ROW-14.6.3 / ROW-14.6.4: the nine operational areas limit movement, zones
  of control and HQ activation traces: US pieces to their assigned South Vietnamese areas plus the Capital
  Military District (1st Cavalry and 173rd Airborne: any of them) and invaded countries; ARVN, Laotian and
  Cambodian pieces to their own country; PAVN and VC to North and South Vietnam, the trail and the Free
  Deployment Zone; the DMZ is North Vietnam for the Communist and I Corps for the Capitalist.  The forces the text
  leaves out (Capitalist Minors, Pathet Lao, Khmer Rouge, PRC) follow decision R-MOV-02.
* ROW-4.3: a unit's ZoC is the adjacent hexes it could legally move into.
* ROW-1.0 (glossary, control): the Capitalist controls hexes holding his units, hexes his ZoCs reach, and hexes in or
  next to his supply sources and Fire Bases / Landing Zones; the Communist controls the rest.  A hex with a
  Communist unit on the surface is Communist (decision R-MOV-06).

Everything is precomputed once per map and permission class, so a whole-map query is a set lookup.
"""

from __future__ import annotations

from functools import lru_cache, partial

from ..core.rulings import Ruling, indexed_ruling
from .hexmap import RowMap, load_map
from .pieces import CAPITALIST, COMMUNIST, MINORS, Piece, Situation

SV_AREAS = ("I Corps", "II Corps", "III Corps", "IV Corps", "CMD")
INVADABLE = ("NVN", "LAO", "KHM")


_ruling = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


# ------------------------------------------------------------------------------------------ operational areas
def permission_key(piece: Piece, invaded: frozenset[str] = frozenset()) -> tuple:
    """The facts of ``piece`` that decide where it may go (ROW-14.6): a hashable key for the caches."""
    inv = frozenset(invaded) & frozenset(INVADABLE)
    if piece.nationality in ("US", *MINORS):
        areas = frozenset(SV_AREAS) if piece.any_sv_area or not piece.areas else piece.areas | {"CMD"}
        return (piece.nationality if piece.nationality == "US" else "Minor", areas, inv)
    return (piece.nationality, frozenset(), frozenset())


@lru_cache(maxsize=256)
def _allowed(key: tuple, map_id: int) -> frozenset[str]:
    m = _MAPS[map_id]
    who, areas, invaded = key
    out = set()
    for hid, h in m.hexes.items():
        if h.kind == "sea":
            continue
        if who in ("US", "Minor"):
            area = "I Corps" if h.area == "DMZ" else h.area  # 14.6.4: the DMZ is I Corps for the Capitalist
            ok = (
                (h.country == "SVN" or h.area == "DMZ")
                and area in areas
                or (h.country in invaded and h.area != "DMZ")
            )
        elif who == "ARVN":
            ok = h.country == "SVN" or h.area == "DMZ"
        elif who == "Laos":
            ok = h.country == "LAO"
        elif who == "Cmb":
            ok = h.country == "KHM"
        elif who in ("PAVN", "VC"):
            ok = h.country in ("NVN", "SVN") or h.area == "DMZ" or h.trail or h.fdz
        elif who == "PL":
            ok = h.country == "LAO" or h.trail
        elif who == "KhR":
            ok = h.country == "KHM" or h.trail
        elif who == "PRC":
            ok = h.country in ("NVN", "LAO", "CHN") or h.area == "DMZ"
        else:  # pragma: no cover - Piece validates nationalities
            raise ValueError(f"no area rule for {who}")
        if ok:
            out.add(hid)
    return frozenset(out)


_MAPS: dict[int, RowMap] = {}


def allowed_hexes(
    piece: Piece, invaded: frozenset[str] = frozenset(), m: RowMap | None = None
) -> frozenset[str]:
    """ROW-14.6: every land hex ``piece`` may enter, project a ZoC into or trace HQ activation through.

    Cached per permission class (nationality, assigned areas, invaded countries), so cheap to call per piece.
    """
    m = m or load_map()
    _MAPS[id(m)] = m
    return _allowed(permission_key(piece, invaded), id(m))


def area_check(
    piece: Piece, hid: str, invaded: frozenset[str] = frozenset(), m: RowMap | None = None
) -> Ruling:
    """ROW-14.6 / ROW-14.6.1 - ROW-14.6.4: may ``piece`` enter ``hid``?  The ruling says which boundary rule decides (result True/False)."""
    m = m or load_map()
    h = m.hex(hid)
    ok = hid in allowed_hexes(piece, invaded, m)
    nat = piece.nationality
    if h.kind == "sea":
        rule, why = "ROW-14.6", "an all-sea hex is closed to ground movement"
    elif nat == "US":
        rule = "ROW-14.6.1"
        why = (
            "US pieces go to their assigned South Vietnamese areas (here: "
            + (", ".join(sorted(permission_key(piece, invaded)[1])))
            + "), the Capital Military District always, "
            "and invaded countries"
        )
    elif nat in MINORS:
        rule, why = "ROW-14.6.1", "Capitalist Minor pieces follow the US limits (decision R-MOV-02)"
    elif nat in ("ARVN", "Laos", "Cmb"):
        rule, why = "ROW-14.6.2", f"{nat} pieces never leave their own country"
    elif nat in ("PAVN", "VC"):
        rule, why = (
            "ROW-14.6.3",
            "PAVN and VC go anywhere in North and South Vietnam, on the trail and in the Free Deployment Zone",
        )
    else:
        rule, why = "ROW-14.6.3", f"{nat} limits are our decision R-MOV-02 (the text names none)"
    if h.area == "DMZ":
        rule, why = (
            "ROW-14.6.4",
            why + "; the DMZ counts as I Corps for the Capitalist, North Vietnam for the Communist",
        )
    return _ruling(
        rule,
        "Operational area",
        f"{piece} {'may' if ok else 'may not'} enter {hid} ({h.area}): {why}.",
        ok,
        inputs={"piece": piece.uid, "hex": hid, "area": h.area, "country": h.country},
        side=piece.side,
        places=(hid,),
    )


def dmz_entry(piece: Piece, hid: str, m: RowMap | None = None) -> Ruling | None:
    """ROW-14.6.4: a Capitalist unit entering the DMZ owes one SNAFU draw (the Communist may place it); a Communist
    unit entering it lowers US Unrest by 1.  None when ``hid`` is not a DMZ hex or the piece is an HQ."""
    m = m or load_map()
    if not m.in_dmz(hid) or piece.is_hq:
        return None
    if piece.side == CAPITALIST:
        return _ruling(
            "ROW-14.6.4",
            "Capitalist unit enters the DMZ",
            f"{piece} enters the DMZ at {hid}: draw once from the Cup of SNAFU; the Communist may place it.",
            {"snafu_draws": 1, "placer": COMMUNIST},
            inputs={"piece": piece.uid, "hex": hid},
            side=piece.side,
            places=(hid,),
        )
    return _ruling(
        "ROW-14.6.4",
        "Communist unit enters the DMZ",
        f"{piece} enters the DMZ at {hid}: US Unrest goes down by 1.",
        {"us_unrest": -1},
        inputs={"piece": piece.uid, "hex": hid},
        side=piece.side,
        places=(hid,),
    )


# ------------------------------------------------------------------------------------------ zones of control
def zoc_of(piece: Piece, situation: Situation, m: RowMap | None = None) -> frozenset[str]:
    """ROW-4.3 / ROW-14.6: the hexes ``piece`` projects a ZoC into: adjacent hexes it could legally enter (not sea,
    inside its operational limits; an enemy unit in the hex does not stop the ZoC, decision R-MOV-05).  HQs, Routed
    units and units in tunnels have none."""
    if not piece.has_zoc:
        return frozenset()
    m = m or load_map()
    _MAPS[id(m)] = m
    return _zoc_at(permission_key(piece, situation.invaded), piece.hex, id(m))


@lru_cache(maxsize=65536)
def _zoc_at(key: tuple, hid: str, map_id: int) -> frozenset[str]:
    """The neighbours of ``hid`` a piece of permission class ``key`` may enter (its ZoC there), cached."""
    m = _MAPS[map_id]
    ok = _allowed(key, map_id)
    return frozenset(n for n in m.neighbours(hid) if n in ok)


_ZOCS: dict[tuple[int, str, int], tuple[Situation, frozenset[str]]] = {}


def zoc_hexes(situation: Situation, side: str, m: RowMap | None = None) -> frozenset[str]:
    """ROW-4.3: every hex in the ZoC of at least one ``side`` unit (several ZoCs on a hex add nothing).  Kept for
    the last few situations (a situation is immutable, so its ZoCs never change)."""
    m = m or load_map()
    key = (id(situation), side, id(m))
    hit = _ZOCS.get(key)
    if hit is not None and hit[0] is situation:
        return hit[1]
    out: set[str] = set()
    for p in situation.units(side):
        out |= zoc_of(p, situation, m)
    res = frozenset(out)
    if len(_ZOCS) > 32:
        _ZOCS.clear()
    _ZOCS[key] = (situation, res)
    return res


def enemy_zoc(situation: Situation, side: str, m: RowMap | None = None) -> frozenset[str]:
    """ROW-4.3: the hexes where ``side`` feels an enemy ZoC: enemy ZoC hexes not holding a ``side`` unit (friendly
    units negate enemy ZoCs in their own hex for every rule)."""
    other = COMMUNIST if side == CAPITALIST else CAPITALIST
    return zoc_hexes(situation, other, m) - situation.occupied(side)


def in_enemy_zoc(piece: Piece, situation: Situation, m: RowMap | None = None) -> bool:
    """ROW-4.3: is ``piece`` in an enemy ZoC?  Only another friendly unit in its hex negates it (decision R-MOV-05:
    a unit does not negate the ZoC for itself)."""
    other = COMMUNIST if piece.side == CAPITALIST else CAPITALIST
    if piece.hex not in zoc_hexes(situation, other, m):
        return False
    return not any(
        p.side == piece.side and p.kind == "unit" and p.uid != piece.uid and not p.in_tunnel
        for p in situation.at(piece.hex)
    )


# ------------------------------------------------------------------------------------------ control
def capitalist_controlled(situation: Situation, m: RowMap | None = None) -> frozenset[str]:
    """ROW-1.0 (glossary, control): the land hexes the Capitalist controls; every other land hex is Communist.

    Capitalist: hexes holding a Capitalist unit, hexes a Capitalist ZoC reaches, hexes in or adjacent to a Capitalist
    supply source (R-MAP-11) or a Fire Base / Landing Zone.  A hex holding a Communist unit on the surface is never
    Capitalist (decision R-MOV-06; Communist units in tunnels give no control, 14.3).
    """
    m = m or load_map()
    cap: set[str] = set(situation.occupied(CAPITALIST)) | set(zoc_hexes(situation, CAPITALIST, m))
    for src in m.supply_sources("capitalist"):
        cap.add(src)
        cap.update(m.neighbours(src))
    for fb in situation.fire_bases:
        cap.add(fb)
        cap.update(m.neighbours(fb))
    cap -= situation.occupied(COMMUNIST)
    return frozenset(h for h in cap if m.hex(h).kind != "sea")


def controller(
    situation: Situation, hid: str, m: RowMap | None = None, cap: frozenset[str] | None = None
) -> Ruling:
    """ROW-1.0: who controls ``hid`` and why (pass ``cap`` from :func:`capitalist_controlled` to avoid recomputing)."""
    m = m or load_map()
    m.hex(hid)
    cap = capitalist_controlled(situation, m) if cap is None else cap
    side = CAPITALIST if hid in cap else COMMUNIST
    why = []
    if hid in situation.occupied(COMMUNIST):
        why.append("a Communist unit stands there (R-MOV-06)")
    if hid in situation.occupied(CAPITALIST):
        why.append("a Capitalist unit stands there")
    if hid in zoc_hexes(situation, CAPITALIST, m):
        why.append("a Capitalist ZoC reaches it")
    srcs = set(m.supply_sources("capitalist"))
    if hid in srcs or srcs & set(m.neighbours(hid)):
        why.append("it is in or next to a Capitalist supply source")
    if hid in situation.fire_bases or situation.fire_bases & set(m.neighbours(hid)):
        why.append("it is in or next to a Fire Base / Landing Zone")
    text = (
        f"{hid} is controlled by the {side}"
        + (": " + "; ".join(why) if why else ": nothing Capitalist reaches it")
        + "."
    )
    return _ruling("ROW-1.0", "Control", text, side, inputs={"hex": hid}, places=(hid,))
