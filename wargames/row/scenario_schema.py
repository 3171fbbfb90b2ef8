"""What a Rumor of War scenario file holds (ROW-3.0, ROW-13.1, ROW-13.1.2, ROW-12.1): the tracks and their limits, the calendar of
seasons, and each block of a scenario (commanders, levels, placements, tunnels, reinforcements, withdrawals, events,
special rules, awards, victory) as a validated model.  Loading and cross-checking a scenario is
:mod:`wargames.row.scenario`, which also re-exports every name here."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import ConfigDict, Field

from ..core.data import (
    DataError,
    Row,
    ScenarioHead,
    game_dir,
    read_csv,
)
from .airdata import AirBlock, FleetBlock
from .scenario_extras import PoliticsSetup, SowSetup, TrailSetup
from .units import load_units

if TYPE_CHECKING:  # pragma: no cover
    pass


SCENARIO_DIR = "scenarios"


SV_AREAS = ("I Corps", "II Corps", "III Corps", "IV Corps", "CMD")


# Track markers of rule 2.3 (victory, support level, replacements/infrastructure/supply, helicopter, trail)
# and their ranges: infrastructure max 19 (7.0), support levels max 19 (8.2), trail status 0-6 (14.7.1),
# victory tracks 0-31 (12.1), accumulators 0-9 (12.1.4).
TRACK_MAX: dict[str, int] = {
    "Capitalist Infrastructure": 19,
    "Communist Infrastructure": 19,
    "Capitalist Supply": 19,
    "Communist Supply": 19,
    "Ho Chi Minh Trail Supply": 19,
    "Ho Chi Minh Trail Status": 6,
    "Capitalist Replacements": 19,
    "Communist Replacements": 19,
    "Helicopter Available": 19,
    "Helicopter Used": 19,
    "US Tank Support": 19,
    "US Artillery Support": 19,
    "US Air Support": 19,
    "US Navy Bombardment": 19,
    "ARVN Tank Support": 19,
    "ARVN Artillery Support": 19,
    "PAVN Tank Support": 19,
    "PAVN Artillery Support": 19,
    "VC Artillery Support": 19,
    "Communist Air Support": 19,
    "US Military Victory": 31,
    "US Public Unrest": 31,
    "Body Count": 9,
    "US Casualties": 9,
    "POWs": 9,
    "Secret Ops": 9,
}


Track = Literal[tuple(TRACK_MAX)]  # type: ignore[valid-type]


MARKERS = ("Low Morale", "Elite", "Poor", "Guards", "Penal", "Disrupted", "Routed", "OOC")


SIDES = ("Capitalist", "Communist")


# ------------------------------------------------------------------------------------------ the calendar
class CalendarRow(Row):
    """One turn of the reconstructed turn track (digest 4.Z.5, decision R-SCN-02)."""

    turn: int = Field(ge=1)
    season: Literal["Winter", "Spring", "Summer", "Fall"]
    year: int = Field(ge=1965, le=1975)
    months: str
    monsoon: Literal["yes", "no"]
    fixed_events: str | None = None
    scenarios: str | None = None


SEASONS = ("Winter", "Spring", "Summer", "Fall")


@cache
def load_calendar(path: Path | None = None) -> dict[int, CalendarRow]:
    """``data/row/calendar.csv``: turns numbered 1.. without gaps, one season after another (rules 3.0: four
    turns a year), the monsoon on Summer turns only (ROW-10.3.9)."""
    p = Path(path) if path is not None else game_dir("row") / "calendar.csv"
    out: dict[int, CalendarRow] = {}
    prev: CalendarRow | None = None
    for line, r in enumerate(read_csv(p, CalendarRow), start=2):
        if r.turn != len(out) + 1:
            raise DataError(
                p, f"turn {r.turn} out of order (expected {len(out) + 1})", row=line, column="turn"
            )
        if prev is not None:
            i = SEASONS.index(prev.season)
            want = (SEASONS[(i + 1) % 4], prev.year + (1 if i == 3 else 0))
            if (r.season, r.year) != want:
                raise DataError(
                    p,
                    f"after {prev.season} {prev.year} comes {want[0]} {want[1]} (four seasons a year)",
                    row=line,
                    column="season",
                )
        if (r.monsoon == "yes") != (r.season == "Summer"):
            raise DataError(p, "the monsoon falls on Summer turns only (10.3.9)", row=line, column="monsoon")
        out[r.turn] = r
        prev = r
    return out


def turn_label(turn: int) -> str:
    """'Summer 1965' for turn 1 (the calendar's season and year)."""
    c = load_calendar()[turn]
    return f"{c.season} {c.year}"


# ------------------------------------------------------------------------------------------ the schema
class _Item(Row):
    """A scenario entry: no unknown keys, and a ``source`` of a known kind (rules:/external:/reconstruction:/decision:)."""


class Window(_Item):
    cols: tuple[int, int]
    rows: tuple[int, int]

    def contains(self, hid: str) -> bool:
        c, r = int(hid[:2]), int(hid[2:])
        return self.cols[0] <= c <= self.cols[1] and self.rows[0] <= r <= self.rows[1]


class Commander(_Item):
    leader: str


class Level(_Item):
    track: Track
    value: int = Field(ge=0)


class TurnLevel(_Item):
    turn: int
    track: Track
    value: int = Field(ge=0)


class ExtraSource(_Item):
    hex: str = Field(pattern=r"^\d{4}$")
    nationality: Literal["capitalist", "laotian", "cambodian", "pavn", "prc", "pathet_lao", "khmer_rouge"]
    from_turn: int
    place: str | None = None


class Attachment(_Item):
    unit: str
    division: str
    until_turn: int


class Placement(_Item):
    unit: str
    hex: str
    markers: list[str] = []


class Tunnel(_Item):
    hex: str
    state: Literal["Hidden", "Discovered"]


class ObjectivePool(_Item):
    values: dict[Literal[1, 2, 3], int]


class LeaderPlacement(_Item):
    leader: str
    hq: str


class VcCup(_Item):
    units: list[str]


class Reinforcement(_Item):
    turn: int
    unit: str
    at: str


class Withdrawal(_Item):
    turn: int
    unit: str


class LevelChange(_Item):
    turn: int
    track: Track
    change: int


class Event(_Item):
    turn: int
    id: str
    kind: Literal["marker", "leader", "text", "commander"]  # commander: 14.2.1 forced change (politics.py)
    summary: str
    marker: str | None = None
    units: list[str] = []
    leader: str | None = None
    hq: str | None = None


class SpecialRule(_Item):
    """A scenario's special rule.  ``effect: pinned`` (decision R-SCN-28): the listed ``units`` may not be activated,
    move strategically or make a reserve move on the listed ``turns`` (A Year in I Corps' starlite_surprise,
    the Tet Offensive's khe_sanh_held); other special rules are read by their ``id``."""

    id: str
    rules: list[str]
    summary: str
    effect: Literal["pinned"] | None = None
    turns: list[int] = []
    units: list[str] = []


class Award(_Item):
    """A scenario VP award (12.1.1, 12.1.2: scenarios list what is gained and lost).  ``per: season`` (decision
    R-SCN-41) is given every End Phase without a condition; its ``vp`` may be negative (a loss), and such a loss
    never takes the track below 0, so it never passes VPs to the opponent by the zero rule.  ``us_units_at_least``
    (per-season awards only, decision R-WAR-38): the award is given only in an End Phase with at least that many
    American units (formations, not HQs) on the map, e.g. a credibility gap that lasts while the Americans fight.
    ``unless_missions`` (per-season awards only, R-WAR-39): side -> HQ missions (9.5) in whose season the award is not
    given, e.g. the public's attention does not drift in a season of a Communist Offensive or General Uprising.
    ``name``: what a student reads for the award (rulings, the VP tables), the ``id`` staying the data's key."""

    id: str
    name: str = Field(min_length=1)
    side: Literal["Capitalist", "Communist"]
    when: Literal["end_of_turn", "immediate", "scenario_end"]
    vp: int
    per: Literal["hex", "condition", "event", "season"]
    condition: str
    controlled_by: Literal["Capitalist", "Communist"] | None = None
    hexes: list[str] = []
    radius: int | None = Field(default=None, ge=0)
    us_units_at_least: int | None = Field(default=None, ge=1)
    unless_missions: dict[Literal["Capitalist", "Communist"], list[str]] = {}


class Victory(_Item):
    win_at: int = Field(ge=1)
    tie_goes_to: Literal["Capitalist", "Communist"]
    awards: list[Award]


class RowScenario(ScenarioHead):
    """A validated Rumor of War scenario (see the module docstring): the head every game's scenario starts with
    (id, title, summary: :class:`~wargames.core.data.ScenarioHead`), then its own fields; ``path`` is the file it
    came from."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rules_section: str
    classroom_note: str = ""
    turns: list[int]
    source: str
    map_window: Window
    theater_commanders: dict[Literal["Capitalist", "Communist"], Commander]
    us_areas: list[Literal["I Corps", "II Corps", "III Corps", "IV Corps"]] = ["I Corps"]  # 14.6.1 assignment
    levels: list[Level]
    air_support: list[TurnLevel] = []
    supply_sources: list[ExtraSource] = []
    attachments: list[Attachment] = []
    setup: list[Placement]
    tunnels: list[Tunnel] = []
    objective_pool: ObjectivePool
    leaders: list[LeaderPlacement] = []
    vc_cup: VcCup
    reinforcements: list[Reinforcement] = []
    withdrawals: list[Withdrawal] = []
    level_changes: list[LevelChange] = []
    events: list[Event] = []
    special_rules: list[SpecialRule] = []
    victory: Victory
    variant_of: str | None = None  # a lesson variant plays the turns of this scenario (decision R-AIR-13)
    air: AirBlock | None = None  # ROW-10.0 (wargames.row.air; decision R-AIR-01)
    fleet: FleetBlock | None = None  # ROW-11.0 (wargames.row.naval)
    politics: PoliticsSetup | None = None  # 12.2, 14.2.1, 14.5, 14.6.1 (wargames.row.politics)
    trail: TrailSetup | None = None  # 14.7 (wargames.row.trail)
    sow: SowSetup | None = None  # 14.8 (wargames.row.sow)
    path: str = ""

    # -- queries the game object will use
    def level(self, track: str) -> int:
        """Starting value of a track (0 when the scenario does not set it)."""
        return next((lv.value for lv in self.levels if lv.track == track), 0)

    def placements(self, side: str | None = None) -> list[Placement]:
        units = load_units()
        return [p for p in self.setup if side is None or units[p.unit].side == side]

    def arriving(self, turn: int, side: str | None = None) -> list[Reinforcement]:
        """ROW-13.1.1: the reinforcements of one turn's Reinforcement Placement segment (B2a)."""
        units = load_units()
        return [
            r for r in self.reinforcements if r.turn == turn and (side is None or units[r.unit].side == side)
        ]

    def has_rule(self, rule_id: str) -> bool:
        return any(s.id == rule_id for s in self.special_rules)

    @property
    def first_turn(self) -> int:
        return self.turns[0]

    @property
    def last_turn(self) -> int:
        return self.turns[-1]
