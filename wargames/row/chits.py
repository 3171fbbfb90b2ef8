"""Declaring a combat and drawing its chit (ROW-4.6, ROW-5.1, ROW-5.2, ROW-5.2.1).

* ROW-4.6 / ROW-5.2: the declarer pays the combat type's MP (Meeting Engagement 1, Hasty 2, Prepared 3, Deliberate
  all MP, so it must not have moved, R-CBT-19); Low Morale adds 1 and forbids the Deliberate Attack (ROW-6.2 case j).
* ROW-5.1: one chit per activated unit per turn; one chit on a hex at a time.
* ROW-5.2.1: the chit comes from the mug of the declared type (ME/Hasty or Prepared/Deliberate; R-CBT-02), drawn by
  a die over the mug's fixed order (R-CBT-03, so forced dice work); Ye Jianying's two draws and the General
  Uprising's three let the Communist keep one (ROW-14.2.1, ROW-9.5): ``draw_chits`` returns them, the player picks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core import Action, IllegalAction
from ..core.dice import Dice
from ..core.rulings import Lookup, Ruling
from .combat import CombatUnit, ruling
from .tables import COMBAT_TYPES, Chit, CombatTables, tables


def _check_may_declare(
    unit: CombatUnit, row, placed_chit_this_turn: bool, hex_has_chit: bool, enterable: bool
) -> None:
    """ROW-5.1 / ROW-4.6 / ROW-6.2: raise IllegalAction naming the rule when ``unit`` may not declare the combat of
    ``row`` (its costs row) at all: one chit a turn and one a hex, a hex it could enter, not Routed, and not a
    combat its Low Morale forbids."""
    if placed_chit_this_turn:
        raise IllegalAction("ROW-5.1", f"{unit} has already placed a combat chit this turn (one per turn)")
    if hex_has_chit:
        raise IllegalAction("ROW-5.1", "that hex already carries a combat chit (one at a time)")
    if not enterable:
        raise IllegalAction(
            "ROW-4.6", "the attacker could not legally enter that hex, so it may not attack it"
        )
    if unit.has("Routed"):
        raise IllegalAction("ROW-6.2", f"{unit} is Routed and may not attack (6.2 case g)")
    if unit.has("Low Morale") and row.low_morale_allowed == "no":
        raise IllegalAction("ROW-6.2", f"{unit} has Low Morale and may never make a {row.label} (6.2 case j)")


def declaration_cost(
    unit: CombatUnit,
    combat_type: str,
    mp_left: int,
    mp_spent: int | float,
    *,
    placed_chit_this_turn: bool = False,
    hex_has_chit: bool = False,
    enterable: bool = True,
    t: CombatTables | None = None,
) -> Ruling:
    """ROW-4.6 / ROW-5.2 / ROW-5.1: may ``unit`` declare a ``combat_type`` now, and what it costs.

    Raises IllegalAction naming the rule broken; otherwise the ruling's result is ``{"mp_cost", "mug"}``
    (a Deliberate Attack costs every MP left).
    """
    t = t or tables()
    if combat_type not in COMBAT_TYPES:
        raise IllegalAction("ROW-4.6", f"unknown combat type {combat_type!r}; types are {COMBAT_TYPES}")
    row = t.costs[combat_type]
    _check_may_declare(unit, row, placed_chit_this_turn, hex_has_chit, enterable)
    low = unit.has("Low Morale")
    if row.costs_all_mp == "yes":
        if mp_spent > 0:
            raise IllegalAction(
                "ROW-4.6",
                f"a {row.label} costs all MP, so {unit} must start the activation "
                "adjacent and not move (R-CBT-19)",
            )
        if mp_left < 1:
            raise IllegalAction("ROW-4.6", f"{unit} has no MP left")
        cost = mp_left
    else:
        cost = row.mp_cost + (1 if low else 0)
        if mp_left < cost:
            raise IllegalAction(
                "ROW-4.6",
                f"a {row.label} costs {cost} MP"
                + (" (+1 for Low Morale)" if low else "")
                + f" and {unit} has {mp_left}",
            )
    text = (
        f"{unit} declares a {row.label}: it pays {cost} MP"
        + (" (all its MP)" if row.costs_all_mp == "yes" else "")
        + (" including +1 for Low Morale" if low and row.costs_all_mp == "no" else "")
        + f" and draws from the {row.mug} mug."
    )
    return ruling(
        "ROW-4.6",
        "Combat declared",
        text,
        {"mp_cost": cost, "mug": row.mug, "combat_type": combat_type},
        inputs={"unit": unit.uid, "mp_left": mp_left, "mp_spent": mp_spent, "low_morale": low},
        lookup=Lookup(
            "Declaring combat costs",
            row.label,
            "MP",
            "all" if row.costs_all_mp == "yes" else str(row.mp_cost),
            source="data/row/tables/combat_costs.csv",
        ),
        side=unit.side,
    )


def mug(combat_type: str, t: CombatTables | None = None) -> tuple[Chit, ...]:
    """ROW-5.2.1: the chits of the mug the declared combat type draws from, in their fixed order."""
    t = t or tables()
    return tuple(sorted(t.chits[t.costs[combat_type].mug], key=lambda c: c.id))


def draw_chits(
    dice: Dice,
    combat_type: str,
    n: int = 1,
    side: str = "",
    t: CombatTables | None = None,
    on_map: Iterable[str] = (),
) -> Ruling:
    """ROW-5.2.1: draw ``n`` chits from the right mug without putting them back (R-CBT-03: a die over the mug).

    ``n`` is 1, or 2 with Ye Jianying, 3 under a General Uprising (ROW-14.2.1, ROW-9.5); ``result["chits"]`` are
    the chits drawn; with more than one the drawer keeps one (``chit_options``) and the others go back.
    ``on_map``: the chits lying on combat hexes not yet resolved; they are not in the mug (ROW-5.1, ROW-5.2.1: a
    chit goes back only once its combat is resolved).
    """
    t = t or tables()
    away = set(on_map)
    content = [c for c in mug(combat_type, t) if c.id not in away]
    absent = len(mug(combat_type, t)) - len(content)
    if not 1 <= n <= len(content):
        raise IllegalAction("ROW-5.2.1", f"cannot draw {n} chits from a mug of {len(content)}")
    rolls, drawn = [], []
    for _ in range(n):
        r = dice.roll(len(content), f"combat chit draw from {t.costs[combat_type].mug}")
        rolls.append(r)
        drawn.append(content.pop(r.value - 1))
    recon = any(c.reconstructed for c in drawn)
    text = (
        f"{t.costs[combat_type].label}: drawn from the {t.costs[combat_type].mug} mug: "
        + "; ".join(str(c) for c in drawn)
        + "."
        + (" The drawer keeps one and returns the others." if n > 1 else "")
        + (" (The mix of chits in this mug is our reconstruction.)" if recon else "")
        + (
            f" {absent} chit(s) of this mug lie on combats still to be resolved and were not in it."
            if absent
            else ""
        )
    )
    return ruling(
        "ROW-5.2.1",
        "Combat chit drawn",
        text,
        {"chits": [c.id for c in drawn]},
        inputs={"combat_type": combat_type, "draws": n, **({"on_map": sorted(away)} if away else {})},
        dice=rolls,
        lookup=Lookup(
            "Combat chits",
            drawn[0].id,
            "chit",
            str(drawn[0]),
            reconstructed=recon,
            source="data/row/tables/combat_chits.csv",
        ),
        side=side,
    )


def chit_by_id(chit_id: str, t: CombatTables | None = None) -> Chit:
    t = t or tables()
    for content in t.chits.values():
        for c in content:
            if c.id == chit_id:
                return c
    raise KeyError(chit_id)


def chit_options(drawn: Ruling) -> list[Action]:
    """ROW-14.2.1 / ROW-9.5: the chits the drawer may keep (one only)."""
    return [Action.make("keep_chit", f"Keep chit {chit_by_id(c)}", chit=c) for c in drawn.result["chits"]]


def keep_chit(drawn: Ruling, chit_id: str) -> tuple[Chit, Ruling]:
    """ROW-5.2.1: the drawer keeps ``chit_id`` from the chits drawn; the rest go back to the mug."""
    ids: Sequence[str] = drawn.result["chits"]
    if chit_id not in ids:
        raise IllegalAction("ROW-5.2.1", f"chit {chit_id} was not drawn (drawn: {list(ids)})")
    back = [c for c in ids if c != chit_id]
    chit = chit_by_id(chit_id)
    return chit, ruling(
        "ROW-5.2.1",
        "Combat chit kept",
        f"Chit {chit} is placed on the combat hex"
        + (f"; {', '.join(back)} go back to the mug." if back else "."),
        {"chit": chit_id, "returned": back},
    )
