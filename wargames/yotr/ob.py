"""Orders of battle and Limited Strategic Intelligence (YOTR-OB, YOTR-IFC, YOTR-LSI).

* YOTR-OB: six Allied OBs (A-F) and six Communist OBs (G-M).  Each names its initial forces, reinforcements,
  deployment, special rules and victory conditions (rules L1883-1937); :data:`OB_RULES` holds what each letter
  switches on.  A and G are the historical forces (``oob.csv``).
* YOTR-IFC: the variant initial forces and reinforcements are differences from the historical ones
  (``ob_variants.csv``).  The text gives only one variant multiplier (OB C has no ARVN 1-6); the rest is a
  labelled reconstruction (decision D-63).
* YOTR-LSI: each player secretly numbers his six OB letters 1 to 6; one die roll picks both OBs; the Allied OB
  is revealed, the Communist one stays secret until the end.
"""

from __future__ import annotations

from collections.abc import Mapping

from .data import OobRow, YotrData

ALLIED_OBS = ("A", "B", "C", "D", "E", "F")
COMMUNIST_OBS = ("G", "H", "J", "K", "L", "M")

# YOTR-OB (rules L1883-1937): the options each OB letter calls for (special rules and Victory Modification P)
OB_RULES: dict[str, dict[str, bool]] = {
    "A": {},
    "B": {"special_rule_b": True},
    "C": {"victory_modification_p": True},
    "D": {},
    "E": {},
    "F": {"special_rule_f": True, "victory_modification_p": True},
    "G": {},
    "H": {"special_rule_h": True},
    "J": {"special_rule_j": True},
    "K": {"special_rule_j": True, "special_rule_h": True},
    "L": {},
    "M": {},
}

RULE_LABELS = {
    "special_rule_b": "Special Rule B",
    "special_rule_f": "Special Rule F",
    "special_rule_h": "Special Rule H",
    "special_rule_j": "Special Rule J",
    "victory_modification_p": "Victory Modification P",
}

# YOTR-OB: the OB descriptions in our own words, for menus and notebooks
OB_TITLES = {
    "A": "Historical forces and reinforcements",
    "B": "Historical forces, Pacification Deployment (Special Rule B)",
    "C": "Fulfilled Vietnamization (variant forces), Victory Modification P",
    "D": "Less Vietnamization (variant forces)",
    "E": "Increased naval reinforcement (variant reinforcements)",
    "F": "US Intervention (variant reinforcements, Special Rule F, Victory Modification P)",
    "G": "Historical forces and reinforcements",
    "H": "Historical forces, Increased NLF Participation (Special Rule H)",
    "J": "Historical forces, NVA Infiltration (Special Rule J)",
    "K": "Historical forces, Special Rules J and H",
    "L": "Weaker NVA offensive (variant forces and reinforcements)",
    "M": "Stronger NVA offensive (variant forces and reinforcements)",
}


def check_ob(letter: str, side: str) -> str:
    """The OB letter, or a ValueError naming YOTR-OB when it is not one of ``side``'s six."""
    letters = ALLIED_OBS if side == "Allied" else COMMUNIST_OBS
    if letter not in letters:
        raise ValueError(f"YOTR-OB: the {side} OB must be one of {', '.join(letters)}, not {letter!r}")
    return letter


def forces(data: YotrData, allied_ob: str, communist_ob: str) -> dict[str, OobRow]:
    """YOTR-IFC: every counter, air and naval row of the two OBs: the historical rows of ``oob.csv`` less the
    variant's removals plus its additions (``ob_variants.csv``)."""
    check_ob(allied_ob, "Allied")
    check_ob(communist_ob, "Communist")
    out = dict(data.oob)
    for v in data.ob_variants:
        if v.ob not in (allied_ob, communist_ob):
            continue
        if v.change == "remove":
            del out[v.id]
        else:
            out[v.id] = OobRow(
                id=v.id,
                name=v.name or v.id,
                side=v.side,
                nationality=v.nationality,
                unit_type=v.unit_type,
                values=v.values,
                attack=v.attack,
                defense=v.defense,
                movement=v.movement,
                airmobile=v.airmobile,
                ob=v.ob,
                deploy_area="free deployment",
                turn=v.turn,
                note=v.note,
                source=v.source,
            )
    return out


def implied_options(allied_ob: str, communist_ob: str) -> dict[str, bool]:
    """YOTR-OB / YOTR-SR: the special rules and victory modification the two OB letters call for."""
    return {**OB_RULES[allied_ob], **OB_RULES[communist_ob]}


def lsi_pick(allied: Mapping[str, int], communist: Mapping[str, int], die: int) -> tuple[str, str]:
    """YOTR-LSI: the OB each player numbered with the die's value."""
    for letters, numbers in ((ALLIED_OBS, allied), (COMMUNIST_OBS, communist)):
        if sorted(numbers) != sorted(letters) or sorted(numbers.values()) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(
                f"YOTR-LSI: each of {letters} needs a different number from 1 to 6, got {dict(numbers)}"
            )
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1 to 6, not {die}")
    pick = {v: k for k, v in allied.items()}[die], {v: k for k, v in communist.items()}[die]
    return pick


def ob_summary(data: YotrData) -> list[dict[str, object]]:
    """YOTR-OB / YOTR-IFC: one row per OB letter: what it switches on, its starting strength, its
    reinforcements and how many of its rows are reconstructions (``ob_variants.csv``, D-63)."""
    out = []
    for letter in ALLIED_OBS + COMMUNIST_OBS:
        side = "Allied" if letter in ALLIED_OBS else "Communist"
        f = forces(data, letter if side == "Allied" else "A", letter if side == "Communist" else "G")
        own = [r for r in f.values() if r.side == side]
        start = [r for r in own if r.turn is None and r.is_combat]
        later = [r for r in own if r.turn is not None]
        changed = [v for v in data.ob_variants if v.ob == letter]
        out.append(
            {
                "OB": letter,
                "side": side,
                "what it is": OB_TITLES[letter],
                "rules switched on": ", ".join(RULE_LABELS[k] for k in OB_RULES[letter]) or "-",
                "combat units at start": len(start),
                "attack strength at start": sum(r.attack or 0 for r in start),
                "reinforcements": ", ".join(
                    f"GT{r.turn} {_what(r)}" for r in sorted(later, key=lambda r: (r.turn, r.id))
                ),
                "rows changed": len(changed),
                "of which reconstructed": sum(1 for v in changed if v.source.startswith("reconstruction")),
            }
        )
    return out


def _what(r: OobRow) -> str:
    return {"air_points": f"{r.attack} air points", "naval_marker": "naval marker"}.get(
        r.unit_type, f"{r.nationality} {r.values}"
    )
