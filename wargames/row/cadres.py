"""US division cadres as support bases (9.4).

A US unit that belongs to a division gets tank, artillery, air and bombardment support only when one of its
division's cadres is within 4 hexes (whatever lies between): of any attacking unit (the declarer or a supporter)
when it attacks, of the combat hex when it defends; a friendly Fire Base within 4 hexes serves as well.  A unit
not in a division, or whose division has no cadre on the map any more (withdrawn or lost), traces a normal Line
of Communications instead (which the game already asks of every unit).  A unit attached to another division by
the scenario (``attachments``, R-SCN-12) counts as that division's until the given turn.  Decision R-CAD-01.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.rulings import Ruling
from .hexmap import RowMap

CADRE_RANGE = 4


def cadre_trace(
    m: RowMap,
    division: str,
    from_hexes: Iterable[str],
    cadre_hexes: Iterable[str],
    fire_bases: Iterable[str] = (),
) -> Ruling:
    """ROW-9.4: may a unit of ``division`` get support from ``from_hexes``?  ``cadre_hexes``: where the division's
    cadres stand (none: the normal LoC rule applies, result True).  Result: bool."""
    src = sorted(set(from_hexes))
    cadres = sorted(set(cadre_hexes))
    if not cadres:
        return Ruling(
            rule_id="ROW-9.4",
            title="Cadre trace",
            explanation=f"The {division} has no cadre on the map: "
            "its units trace a normal Line of Communications for support.",
            result=True,
            inputs={"division": division, "from": src},
        )
    bases = [(c, "cadre") for c in cadres] + [(f, "Fire Base") for f in sorted(set(fire_bases))]
    best = min(((m.distance(h, b), h, b, kind) for h in src for b, kind in bases), default=None)
    ok = best is not None and best[0] <= CADRE_RANGE
    text = (
        f"The nearest {best[3]} of the {division} is {best[0]} hexes from {best[1]}"
        if best
        else "No hex to trace from"
    ) + (
        f": within {CADRE_RANGE}, support may be used."
        if ok
        else f": beyond {CADRE_RANGE}, no tank, artillery, air or bombardment support."
    )
    return Ruling(
        rule_id="ROW-9.4",
        title="Cadre trace",
        explanation=text,
        result=ok,
        inputs={"division": division, "from": src, "cadres": cadres, "fire_bases": sorted(set(fire_bases))},
    )
