"""The combat tables of Vietnam: Rumor of War as validated data (``data/row/tables/``; ROW-2.2 charts, ROW-2.0 dice).

Every table of the combat rules is a CSV file whose every row has a ``source``; this module reads them through
the core's schema reader (a bad cell is a :class:`~wargames.core.data.DataError` naming file, line and column)
and then checks each table as a whole (every die face present, every combat type with its planning row, every
SNAFU face described), again naming file, line and column.  Nothing here decides a rule: ``combat``,
``chits`` and ``randomevents`` read these values.

* ROW-4.6 declaring combat costs (``combat_costs.csv``); ROW-5.3.1 / ROW-5.3.2 / ROW-8.2 the Support Planning
  Table (``support_planning.csv``); ROW-5.3.3 adjacent support (``adjacent_support.csv``); ROW-5.3.4 size classes
  and modifiers (``size_classes.csv``, ``size_modifiers.csv``); ROW-5.4.1 combat dice (``combat_dice.csv``);
  ROW-5.4.2 / ROW-5.4.3 / ROW-6.2 special rolls and unit quality (``special_rolls.csv``, ``quality_effects.csv``);
  ROW-5.5 Random Event Tables A, B, C (``random_events.csv``); ROW-5.6 losses, elimination rolls and retreat
  results (``loss_limits.csv``, ``elimination_rolls.csv``, ``retreat_results.csv``); ROW-6.1 the Cup of SNAFU
  (``snafu_cup.csv`` reconstructed, ``snafu_markers.csv``); ROW-5.2.1 the combat chits (``combat_chits.csv``,
  reconstructed: the mix is not in the rules text); the other fixed loss rolls (``loss_rolls.csv``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, field_validator

from ..core.data import DataError, Row, cached_build, game_dir, read_csv

SIDES = ("Capitalist", "Communist")
CLASSES = ("A", "B", "C")
COMBAT_TYPES = ("meeting_engagement", "hasty", "prepared", "deliberate")
MUGS = ("ME_HASTY", "PREP_DELIB")
SUPPORT_TYPES = ("tank", "artillery", "air", "bombardment")


def _game_die(v: int) -> int:
    """The game rolls only D6 and D10 (rules 2.0): a table naming another die is a data error."""
    if v not in (6, 10):
        raise ValueError("the game's dice are the D6 and the D10")
    return v


GameDie = Annotated[int, AfterValidator(_game_die)]
RE_TABLES = ("A", "B", "C")

YesNo = Literal["yes", "no"]


# ------------------------------------------------------------------------------------------ schemas
class CombatCostRow(Row):
    """ROW-4.6: one combat type: MP cost (or all MP), its chit mug, and its adjacent-support multiplier."""

    combat_type: Literal["meeting_engagement", "hasty", "prepared", "deliberate"]
    label: str
    mp_cost: int
    costs_all_mp: YesNo
    mug: Literal["ME_HASTY", "PREP_DELIB"]
    resolved: str
    adjacent_multiplier: int
    low_morale_allowed: YesNo
    planning_row: str


class PlanningRow(Row):
    """ROW-5.3.1: one row of the Support Planning Table (deductions from the support levels)."""

    row: str
    used_by: Literal["attacker", "defender"]
    tank: int
    artillery: int
    air: int
    bombardment: int

    @field_validator("tank", "artillery", "air", "bombardment")
    @classmethod
    def _not_negative(cls, v: int) -> int:
        if v < 0:
            raise ValueError("a planning deduction is never negative")
        return v


class SizeModifierRow(Row):
    """ROW-5.3.4: the die modifier of a side whose largest unit is ``my_class`` against ``their_class``."""

    my_class: Literal["A", "B", "C"]
    their_class: Literal["A", "B", "C"]
    modifier: int


class SizeClassRow(Row):
    """ROW-5.3.4: the size class of a unit type of a nationality."""

    side: Literal["Capitalist", "Communist"]
    nationality: str
    unit_type: Literal["division", "brigade", "regiment", "battalion", "cadre"]
    size_class: Literal["A", "B", "C"]


class AdjacentRow(Row):
    """ROW-5.3.3: how supporting units add to a side's die (triangular 1+2+3.. or linear 2 each)."""

    role: Literal["attacker", "defender"]
    scheme: Literal["triangular", "linear"]
    step: int
    deliberate_multiplier: int


class DiceRow(Row):
    """ROW-5.4.1: which die each side rolls."""

    role: Literal["attacker", "defender"]
    condition: Literal["always", "fresh", "spent"]
    die: Literal["chit", "D6", "D10"]
    optional_die: Literal["D6", "D10"] | None = None
    flips_to_spent: YesNo


class SpecialRollRow(Row):
    """ROW-5.4.2: a natural die face that gives a unit-quality marker."""

    natural: int
    die: Literal["D6", "D10"]
    capitalist_marker: str
    communist_marker: str
    quality: Literal["elite", "poor"]


class QualityRow(Row):
    """ROW-5.4.3 / ROW-6.2: the final-spread shift of a quality, seen from the marked side."""

    quality: Literal["elite", "poor"]
    if_side_wins: int
    if_side_loses: int


class RandomEventRow(Row):
    """ROW-5.5: one face of a Random Event Table."""

    table: Literal["A", "B", "C"]
    d10: int
    event: Literal["objective", "snafu"]
    placer: Literal["attacker", "defender"] | None = None


class EliminationRow(Row):
    """ROW-5.6: the loss roll when a unit of a size class is eliminated."""

    size_class: Literal["A", "B", "C"]
    dice: int
    die: GameDie


class RetreatRow(Row):
    """ROW-5.6 / ROW-6.2: what a retreat of 1, 2 or 3 hexes does to the unit and its side's support."""

    hexes: int
    marker: Literal["Disrupted", "Routed"] | None = None
    tank_loss: int
    artillery_loss: int
    snafu_draws: int
    snafu_keep: int


class LossLimitRow(Row):
    """ROW-5.6: a way to absorb the spread, its points and its per-combat limit."""

    way: Literal["retreat_hex", "eliminate_unit", "loss_point", "replacement", "eliminate_all", "tunnel"]
    points_each: str
    max_per_combat: int | None = None


class ChitRow(Row):
    """ROW-5.2.1: one combat chit: die and modifier, Random Event table, Spt row, Adv MP (reconstructed mix)."""

    mug: Literal["ME_HASTY", "PREP_DELIB"]
    chit: str
    die: Literal["D6", "D10"]
    modifier: int
    re: Literal["No", "A", "B", "C"]
    spt: Literal["A", "B", "C", "D"]
    adv: int

    @field_validator("adv")
    @classmethod
    def _adv(cls, v: int) -> int:
        if not 0 <= v <= 10:
            raise ValueError("Adv must be 0-10 movement points")
        return v


class SnafuCounterRow(Row):
    """ROW-6.1: a counter in the Cup of SNAFU: its colour (side), its faces and how many (counts reconstructed)."""

    counter: str
    side: Literal["Capitalist", "Communist"]
    front: str
    back: str | None = None
    count: int


class SnafuMarkerRow(Row):
    """ROW-6.1: what a SNAFU face does."""

    face: str
    effect: Literal[
        "reroll_own",
        "reroll_enemy",
        "ammo_shortage",
        "ammo_out",
        "fuel_shortage",
        "fuel_out",
        "loss_roll",
        "radio_out",
        "key_officer",
    ]
    stays_on_unit: YesNo
    dice: int
    die: GameDie | None = None
    halve_up: YesNo
    loss_track: Literal["marked_side", "body_count"] | None = None


class LossRollRow(Row):
    """ROW-5.6, ROW-6.1, ROW-9.5, ROW-14.1.2, ROW-14.3: a fixed roll of casualties or Body Count and its track
    (``owner``: the loss track of the side whose unit or marker it is)."""

    trigger: str
    rule: str
    dice: int
    die: GameDie
    halve_up: YesNo
    track: Literal["owner", "Body Count", "US Casualties"]


class SupportTrackRow(Row):
    """ROW-8.1: which Support Level Track a nationality's combat uses (decision R-CBT-05)."""

    nationality: str
    side: Literal["Capitalist", "Communist"]
    tank: str | None = None
    artillery: str | None = None
    air: str | None = None
    bombardment: str | None = None


class SpreadReductionRow(Row):
    """ROW-6.2: the final-spread reduction a Fortification or Bunker gives the defender (reconstructed values)."""

    marker: Literal["Fortification", "Bunker"]
    reduction: int


# ------------------------------------------------------------------------------------------ the tables
@dataclass(frozen=True)
class Chit:
    """A combat chit (ROW-5.2.1): die and attacker modifier, Random Event table (``None`` for No), Spt row, Adv MP."""

    id: str
    mug: str
    die: int
    modifier: int
    re: str | None
    spt: str
    adv: int
    reconstructed: bool = True
    source: str = ""

    def __str__(self) -> str:
        re = self.re or "No"
        return f"{self.id} (D{self.die} {self.modifier:+d}, RE {re}, Spt {self.spt}, Adv {self.adv})"


@dataclass(frozen=True)
class CombatTables:
    """Every combat table, validated, keyed for the rules code."""

    costs: dict[str, CombatCostRow]
    planning: dict[str, PlanningRow]
    size_modifiers: dict[tuple[str, str], int]
    size_classes: dict[tuple[str, str], str]
    adjacent: dict[str, AdjacentRow]
    dice: tuple[DiceRow, ...]
    special: dict[tuple[int, int], SpecialRollRow]
    quality: dict[str, QualityRow]
    random_events: dict[tuple[str, int], RandomEventRow]
    elimination: dict[str, EliminationRow]
    retreat: dict[int, RetreatRow]
    loss_limits: dict[str, LossLimitRow]
    chits: dict[str, tuple[Chit, ...]]
    snafu_cup: tuple[SnafuCounterRow, ...]
    snafu_markers: dict[str, SnafuMarkerRow]
    support_tracks: dict[str, SupportTrackRow]
    spread_reductions: dict[str, SpreadReductionRow]
    loss_rolls: dict[str, LossRollRow]
    base: Path

    def path(self, name: str) -> str:
        return f"data/row/tables/{name}"

    def snafu_counter(self, counter: str) -> SnafuCounterRow:
        for row in self.snafu_cup:
            if row.counter == counter:
                return row
        raise KeyError(counter)


def _unique(path: Path, rows, key, column: str) -> dict:
    out: dict = {}
    for line, row in enumerate(rows, start=2):
        k = key(row)
        if k in out:
            raise DataError(path, f"duplicate {column} {k!r}", row=line, column=column)
        out[k] = row
    return out


def _require(path: Path, have, want, column: str, what: str) -> None:
    missing = [w for w in want if w not in have]
    if missing:
        raise DataError(path, f"{what}: missing {missing}", column=column)


TABLE_FILES = (
    "combat_costs",
    "support_planning",
    "size_modifiers",
    "size_classes",
    "adjacent_support",
    "combat_dice",
    "special_rolls",
    "quality_effects",
    "random_events",
    "elimination_rolls",
    "retreat_results",
    "loss_limits",
    "combat_chits",
    "snafu_cup",
    "snafu_markers",
    "support_tracks",
    "spread_reductions",
    "loss_rolls",
)


def load_tables(base: Path | str | None = None) -> CombatTables:
    """Read and check every combat table in ``base`` (default ``data/row/tables``).

    Raises :class:`DataError` naming the file, the line and the column of the first problem; nothing is loaded.
    """
    base = Path(base) if base is not None else game_dir("row") / "tables"
    p = {name: base / f"{name}.csv" for name in TABLE_FILES}

    costs = _unique(
        p["combat_costs"], read_csv(p["combat_costs"], CombatCostRow), lambda r: r.combat_type, "combat_type"
    )
    _require(p["combat_costs"], costs, COMBAT_TYPES, "combat_type", "every combat type of 4.6 needs a row")
    planning = _unique(
        p["support_planning"], read_csv(p["support_planning"], PlanningRow), lambda r: r.row, "row"
    )
    _require(
        p["support_planning"],
        planning,
        ("A", "B", "C", "D", *COMBAT_TYPES),
        "row",
        "the Support Planning Table needs rows A-D and one per combat type",
    )
    for line, row in enumerate(costs.values(), start=2):
        if row.planning_row not in planning or planning[row.planning_row].used_by != "defender":
            raise DataError(
                p["combat_costs"],
                f"planning_row {row.planning_row!r} is not a defender row of support_planning.csv",
                row=line,
                column="planning_row",
            )
        if row.costs_all_mp == "no" and row.mp_cost < 1:
            raise DataError(
                p["combat_costs"],
                "a combat that does not cost all MP costs at least 1 MP",
                row=line,
                column="mp_cost",
            )
    for line, row in enumerate(planning.values(), start=2):
        if (row.row in "ABCD") != (row.used_by == "attacker"):
            raise DataError(
                p["support_planning"],
                "rows A-D are the attacker's, the combat types the defender's",
                row=line,
                column="used_by",
            )

    sm_rows = read_csv(p["size_modifiers"], SizeModifierRow)
    size_mod = {
        k: r.modifier
        for k, r in _unique(
            p["size_modifiers"], sm_rows, lambda r: (r.my_class, r.their_class), "my_class,their_class"
        ).items()
    }
    _require(
        p["size_modifiers"],
        size_mod,
        [(a, b) for a in CLASSES for b in CLASSES],
        "my_class,their_class",
        "every pair of size classes needs a row",
    )
    sc_rows = read_csv(p["size_classes"], SizeClassRow)
    size_classes = {
        k: r.size_class
        for k, r in _unique(
            p["size_classes"], sc_rows, lambda r: (r.nationality, r.unit_type), "nationality,unit_type"
        ).items()
    }

    adjacent = _unique(
        p["adjacent_support"], read_csv(p["adjacent_support"], AdjacentRow), lambda r: r.role, "role"
    )
    _require(p["adjacent_support"], adjacent, ("attacker", "defender"), "role", "both roles need a row")
    dice = tuple(read_csv(p["combat_dice"], DiceRow))
    special_rows = read_csv(p["special_rolls"], SpecialRollRow)
    special = _unique(p["special_rolls"], special_rows, lambda r: (r.natural, int(r.die[1:])), "natural,die")
    for line, row in enumerate(special_rows, start=2):
        if not 1 <= row.natural <= int(row.die[1:]):
            raise DataError(
                p["special_rolls"], f"{row.natural} is not a face of a {row.die}", row=line, column="natural"
            )
    quality = _unique(
        p["quality_effects"], read_csv(p["quality_effects"], QualityRow), lambda r: r.quality, "quality"
    )
    _require(p["quality_effects"], quality, ("elite", "poor"), "quality", "both qualities need a row")

    re_rows = read_csv(p["random_events"], RandomEventRow)
    random_events = _unique(p["random_events"], re_rows, lambda r: (r.table, r.d10), "table,d10")
    for line, row in enumerate(re_rows, start=2):
        if not 1 <= row.d10 <= 10:
            raise DataError(p["random_events"], "a D10 face is 1-10 (0 reads as 10)", row=line, column="d10")
        if (row.event == "snafu") != (row.placer is not None):
            raise DataError(
                p["random_events"],
                "a SNAFU draw names who places the marker (attacker or defender); an objective names nobody",
                row=line,
                column="placer",
            )
    _require(
        p["random_events"],
        random_events,
        [(t, d) for t in RE_TABLES for d in range(1, 11)],
        "table,d10",
        "tables A, B and C need all ten faces",
    )

    elimination = _unique(
        p["elimination_rolls"],
        read_csv(p["elimination_rolls"], EliminationRow),
        lambda r: r.size_class,
        "size_class",
    )
    _require(p["elimination_rolls"], elimination, CLASSES, "size_class", "every size class needs a roll")
    retreat = _unique(
        p["retreat_results"], read_csv(p["retreat_results"], RetreatRow), lambda r: r.hexes, "hexes"
    )
    _require(p["retreat_results"], retreat, (1, 2, 3), "hexes", "retreats of 1, 2 and 3 hexes need rows")
    for line, row in enumerate(retreat.values(), start=2):
        if row.snafu_keep > row.snafu_draws:
            raise DataError(
                p["retreat_results"], "cannot keep more markers than drawn", row=line, column="snafu_keep"
            )
    loss_limits = _unique(p["loss_limits"], read_csv(p["loss_limits"], LossLimitRow), lambda r: r.way, "way")

    chit_rows = read_csv(p["combat_chits"], ChitRow)
    _unique(p["combat_chits"], chit_rows, lambda r: r.chit, "chit")
    chits: dict[str, list[Chit]] = {m: [] for m in MUGS}
    for row in chit_rows:
        chits[row.mug].append(
            Chit(
                row.chit,
                row.mug,
                int(row.die[1:]),
                row.modifier,
                None if row.re == "No" else row.re,
                row.spt,
                row.adv,
                row.source.startswith("reconstruction:"),
                row.source,
            )
        )
    for mug, content in chits.items():
        if not content:
            raise DataError(p["combat_chits"], f"mug {mug} holds no chit", column="mug")

    markers = _unique(
        p["snafu_markers"], read_csv(p["snafu_markers"], SnafuMarkerRow), lambda r: r.face, "face"
    )
    for line, row in enumerate(markers.values(), start=2):
        if row.effect == "loss_roll" and (row.dice < 1 or row.die is None or row.loss_track is None):
            raise DataError(
                p["snafu_markers"], "a loss roll needs dice, die and loss_track", row=line, column="dice"
            )
    cup_rows = read_csv(p["snafu_cup"], SnafuCounterRow)
    _unique(p["snafu_cup"], cup_rows, lambda r: r.counter, "counter")
    for line, row in enumerate(cup_rows, start=2):
        for column, face in (("front", row.front), ("back", row.back)):
            if face is not None and face not in markers:
                raise DataError(
                    p["snafu_cup"],
                    f"face {face!r} is not described in snafu_markers.csv",
                    row=line,
                    column=column,
                )
        if row.count < 0:
            raise DataError(p["snafu_cup"], "a count is never negative", row=line, column="count")
        if row.side == "Communist" and "Fuel" in row.front:
            raise DataError(
                p["snafu_cup"], "Fuel markers are Capitalist only (6.1c)", row=line, column="side"
            )

    tracks = _unique(
        p["support_tracks"],
        read_csv(p["support_tracks"], SupportTrackRow),
        lambda r: r.nationality,
        "nationality",
    )
    for line, row in enumerate(sc_rows, start=2):
        if row.nationality not in tracks:
            raise DataError(
                p["size_classes"],
                f"nationality {row.nationality!r} has no row in support_tracks.csv",
                row=line,
                column="nationality",
            )
    spread = _unique(
        p["spread_reductions"],
        read_csv(p["spread_reductions"], SpreadReductionRow),
        lambda r: r.marker,
        "marker",
    )
    lr_rows = read_csv(p["loss_rolls"], LossRollRow)
    loss_rolls = _unique(p["loss_rolls"], lr_rows, lambda r: r.trigger, "trigger")
    lines = {r.trigger: n for n, r in enumerate(lr_rows, start=2)}
    for cls in CLASSES:
        key = f"elimination_class_{cls}"
        row = loss_rolls.get(key)
        if row is None or (row.dice, row.die) != (elimination[cls].dice, elimination[cls].die):
            raise DataError(
                p["loss_rolls"],
                f"{key} must agree with elimination_rolls.csv",
                row=lines.get(key),
                column="dice",
            )
    return CombatTables(
        costs,
        planning,
        size_mod,
        size_classes,
        adjacent,
        dice,
        special,
        quality,
        random_events,
        elimination,
        retreat,
        loss_limits,
        {m: tuple(c) for m, c in chits.items()},
        tuple(cup_rows),
        markers,
        tracks,
        spread,
        loss_rolls,
        base,
    )


@cache
def tables() -> CombatTables:
    """The game's combat tables, read once per process; the checked tables are cached whole
    (``core.data.cached_build``, keyed by the bytes of every table file and this package's code), so a first
    ``load()`` reads one cache entry, not eighteen (issue #21)."""
    base = game_dir("row") / "tables"
    return cached_build([base / f"{name}.csv" for name in TABLE_FILES], "row-tables", __name__, load_tables)


def terrain_factor(text: str) -> Fraction:
    """An "Effect on Support" factor written ``1/1`` .. ``1/4`` (ROW-8.2) as an exact fraction."""
    try:
        f = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"support factor {text!r} is not a fraction like 1/2") from None
    if not 0 <= f <= 1:
        raise ValueError(f"support factor {text!r} must be between 0 and 1")
    return f
