"""Combat odds and the Combat Results Table (summary lines 4, 34-36): TET-P2-8, TET-COMP-4.

Pure functions, so the worked examples of the digest (section 8, cases 1-10) are tested directly.
"""

from __future__ import annotations

from fractions import Fraction

COLUMNS = ("1:2", "1:1", "2:1", "3:1", "4:1", "5:1")


def odds_column(attack: float | Fraction, defense: float | Fraction) -> str | None:
    """TET-P2-8: the ratio rounded in the defender's favour to a listed column; None below 1:2 (not allowed);
    anything above 5:1 counts as 5:1.  Halves (mech/cav) are kept exactly before rounding (decision A-16)."""
    # exact comparisons of attack against multiples of defense (ints and Fractions as they are: no rounding)
    if defense <= 0:
        return COLUMNS[-1]
    if 2 * attack < defense:  # below 1:2
        return None
    if attack < defense:
        return "1:2"
    return f"{min(5, int(attack // defense))}:1"  # whole multiples, rounded down (the defender's favour)


def shift(column: str, steps: int) -> str:
    """Column shifts after the odds are found, clamped to 1:2 .. 5:1 (decision A-15)."""
    i = COLUMNS.index(column) + steps
    return COLUMNS[max(0, min(len(COLUMNS) - 1, i))]


def ratio_text(attack: float | Fraction, defense: float | Fraction) -> str:
    a, d = Fraction(attack), Fraction(defense)

    def fmt(x):
        return str(int(x)) if x.denominator == 1 else f"{float(x):g}"

    return f"{fmt(a)} to {fmt(d)}" + (f" = {float(a / d):.2f}" if d else "")
