"""Fire in the Lake: the data tables of ``data/fitl/`` and their schemas (rules 1.3, 1.4, 1.8, 2.1).

FITL-1.0 / FITL-1.5: four factions (FACTIONS), any of them a player or a Non-player.  FITL-1.2 / FITL-1.4: the
229 pieces of the force pool (``pieces.csv``, checked on load).  FITL-1.3 / FITL-1.3.1 / FITL-1.3.7: the 47 spaces
with their kind, terrain, Population, Econ and coastal flag (``spaces.csv``).  FITL-SETUP and the scenarios
FITL-SCN-SHORT, FITL-SCN-MEDIUM, FITL-SCN-FULL: ``scenarios/*.yaml`` (``load_scenario``).

The board and force pool come from open transcriptions cross-checked against the rules text (see each row's
``source`` and ``data/fitl/decisions.csv``); the scenarios are transcribed from the rules' set-up pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..core.data import DataError, Row, by_id, cached_csv, game_dir, read_scenario

Faction = Literal["US", "ARVN", "NVA", "VC"]
FACTIONS: tuple[str, ...] = ("US", "ARVN", "NVA", "VC")
COIN: tuple[str, ...] = ("US", "ARVN")
INSURGENTS: tuple[str, ...] = ("NVA", "VC")


class SpaceRow(Row):
    id: str
    name: str
    kind: Literal["city", "province", "loc"]
    terrain: Literal["highland", "lowland", "jungle", "highway", "mekong", "highway_mekong"] | None = None
    population: int = Field(default=0, ge=0, le=6)
    econ: int = Field(default=0, ge=0, le=2)
    country: Literal["SVN", "NVN", "LAO", "KHM"]
    coastal: bool = False
    lat: float
    lon: float

    @field_validator("population", "econ", mode="before")
    @classmethod
    def _blank_is_zero(cls, v: Any) -> Any:
        return 0 if v is None else v


class AdjacencyRow(Row):
    a: str
    b: str


class TownRow(Row):
    id: str
    name: str
    locs: str
    lat: float
    lon: float


class PieceRow(Row):
    id: str
    faction: Literal["US", "ARVN", "NVA", "VC"] | None = None
    type: Literal["troops", "bases", "irregulars", "police", "rangers", "guerrillas", "marker"]
    name: str
    count: int = Field(ge=1)


class CardRow(Row):
    number: int = Field(ge=1, le=130)
    title: str
    period: Literal["1964", "1965", "1968"] | None = None
    faction_order: str | None = None
    kind: Literal["event", "capability", "momentum", "coup", "pivotal"]

    @property
    def order(self) -> tuple[str, ...]:
        """The card's faction order (2.3.2): the four faction symbols left to right."""
        return tuple((self.faction_order or "").split())


class TrackRow(Row):
    id: str
    name: str
    min: int
    max: int | None = None
    threshold: int | None = None
    short: int
    medium: int
    full: int


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)


class ScenarioSpace(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    id: str
    control: Literal["coin", "nva", "none"]
    support: Literal[
        "active_support", "passive_support", "neutral", "passive_opposition", "active_opposition"
    ]
    pieces: dict[str, int] = {}
    tunneled_bases: dict[str, int] | None = None
    source: str


class ScenarioTracks(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    aid: int
    patronage: int
    econ: int
    trail: int
    resources: dict[str, int]
    source: str


class ScenarioBoxes(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)
    out_of_play: dict[str, int] = {}
    casualties: dict[str, int] = {}
    available: dict[str, int] = {}


class FitlOptions(BaseModel):
    """The rule options a scenario sets and ``wargames.load`` may override (``core.data.merge_options``).

    ``period_events`` is the Period Events option (FITL-SETUP-PERIOD, decision F-16), ``us_policy`` the US
    Non-player's policy (FITL-8.8.1), ``tournament`` the tournament rules in play (FITL-TOURNAMENT),
    ``non_players`` / ``combined`` who the Non-players are and which factions one person plays together
    (FITL-1.5), ``one_player`` the one-player difficulty options (FITL-8.9); ``deck`` and ``rvn_leader`` are
    the lesson options of ``lesson.py`` (checked there).  Types are strict: ``"yes"`` is not a bool.
    """

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)
    period_events: bool = False
    us_policy: str = "LBJ"
    tournament: list[str] = []
    non_players: list[str] = []
    combined: list[str] = []
    one_player: str = ""
    deck: list[Any] = []
    rvn_leader: str | None = None


#: the keys a scenario file has beyond the declared fields of :class:`Scenario`
SCENARIO_EXTRA_KEYS = frozenset({"conventions"})
FACTION_NAMES = ("US", "ARVN", "NVA", "VC")


class Scenario(BaseModel):
    """One scenario file ``data/fitl/scenarios/<id>.yaml`` (rules 2.1 and the set-up pages)."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    id: str
    title: str
    subtitle: str = ""
    years: str = ""
    source: str
    options: FitlOptions = Field(default_factory=FitlOptions)  # built when needed, not at import (issue #21)
    deck: dict[str, Any]
    rvn_leader: dict[str, Any]
    tracks: ScenarioTracks
    eligibility: dict[str, Any]
    boxes: ScenarioBoxes
    capabilities: list[Any] = []
    momentum: list[Any] = []
    markers: dict[str, list[str]] = {}
    spaces: list[ScenarioSpace]


SCENARIO_KEYS = frozenset(Scenario.model_fields) | SCENARIO_EXTRA_KEYS


LEVELS: dict[str, int] = {
    "active_support": 2,
    "passive_support": 1,
    "neutral": 0,
    "passive_opposition": -1,
    "active_opposition": -2,
}
LEVEL_NAMES: dict[int, str] = {v: k.replace("_", " ").title() for k, v in LEVELS.items()}


@dataclass(frozen=True)
class FitlData:
    spaces: dict[str, SpaceRow]
    adjacent: dict[str, frozenset[str]]
    towns: dict[str, TownRow]
    pieces: dict[str, PieceRow]
    cards: dict[int, CardRow]
    tracks: dict[str, TrackRow]
    #: derived once from the tables above, for the hot paths of the bot games (issue #33 item 4): every piece key
    #: (``vc_guerrillas:u``, rules 1.4.3-1.4.4) -> (faction, type, state); each space's neighbours sorted (1.3.6)
    key_info: dict[str, tuple[str | None, str, str]] = field(init=False, repr=False, compare=False)
    sorted_adjacent: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    #: each space's neighbours that are LoCs or Cities, sorted (the lines a Patrol moves along, 3.2.2)
    lines_adjacent: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        info: dict[str, tuple[str | None, str, str]] = {}
        for pid, row in self.pieces.items():
            for state in ("", "u", "a", "t"):
                info[f"{pid}:{state}" if state else pid] = (row.faction, row.type, state)
        object.__setattr__(self, "key_info", info)
        object.__setattr__(self, "sorted_adjacent", {s: tuple(sorted(n)) for s, n in self.adjacent.items()})
        lines = {
            s: tuple(n for n in sorted(adj) if self.spaces[n].kind in ("loc", "city"))
            for s, adj in self.adjacent.items()
        }
        object.__setattr__(self, "lines_adjacent", lines)


@cache
def load_data() -> FitlData:
    """Read and cross-check the static FitL tables (a bad row is a DataError naming file and row)."""
    spaces = by_id("fitl", "spaces.csv", SpaceRow)
    adjacent: dict[str, set[str]] = {s: set() for s in spaces}
    for line, row in enumerate(cached_csv("fitl", "adjacency.csv", AdjacencyRow), start=2):
        for end in (row.a, row.b):
            if end not in spaces:
                raise DataError(game_dir("fitl") / "adjacency.csv", f"unknown space {end!r}", row=line)
        adjacent[row.a].add(row.b)
        adjacent[row.b].add(row.a)
    pieces = by_id("fitl", "pieces.csv", PieceRow)
    total = sum(p.count for p in pieces.values() if p.type != "marker")
    if total != 229:
        raise DataError(
            game_dir("fitl") / "pieces.csv", f"the force pool must hold 229 pieces (rules 1.2), not {total}"
        )
    cards: dict[int, CardRow] = {}
    for line, c in enumerate(cached_csv("fitl", "cards.csv", CardRow), start=2):
        if c.number in cards:  # issue #30 item 9
            raise DataError(
                game_dir("fitl") / "cards.csv", f"card {c.number} listed twice", row=line, column="number"
            )
        cards[c.number] = c
    missing = sorted(set(range(1, 131)) - set(cards))
    if missing:
        raise DataError(
            game_dir("fitl") / "cards.csv", f"the deck has 130 cards (rules 1.1); missing {missing[:10]}"
        )
    return FitlData(
        spaces=spaces,
        adjacent={k: frozenset(v) for k, v in adjacent.items()},
        towns=by_id("fitl", "towns.csv", TownRow),
        pieces=pieces,
        cards=cards,
        tracks=by_id("fitl", "tracks.csv", TrackRow),
    )


def load_scenario(scenario: str) -> Scenario:
    """FITL-2.1: ``scenarios/<scenario>.yaml`` (``core.data.read_scenario``), its spaces and pieces cross-checked."""
    path, sc = read_scenario("fitl", scenario, Scenario, "Fire in the Lake")
    data = load_data()
    unknown = sorted(set(sc.model_extra or {}) - SCENARIO_EXTRA_KEYS)
    if unknown:  # issue #30 item 9: a misspelt key is refused, not ignored
        raise DataError(
            path, f"unknown key {unknown[0]!r}; a scenario has {sorted(SCENARIO_KEYS)}", column=unknown[0]
        )
    placed: dict[str, int] = dict.fromkeys(data.pieces, 0)
    seen: set[str] = set()
    for i, s in enumerate(sc.spaces):
        if s.id not in data.spaces:
            raise DataError(path, f"unknown space {s.id!r}", column=f"spaces.{i}.id")
        if s.id in seen:
            raise DataError(path, f"space {s.id!r} set up twice", column=f"spaces.{i}.id")
        seen.add(s.id)
        for key, n in s.pieces.items():
            if key not in data.pieces or data.pieces[key].type == "marker":
                raise DataError(path, f"unknown piece {key!r} in {s.id}", column=f"spaces.{i}.pieces")
            if n < 0:
                raise DataError(
                    path, f"{n} {key} in {s.id}: a count is 0 or more", column=f"spaces.{i}.pieces"
                )
            placed[key] += n
        for faction in s.tunneled_bases or {}:
            if faction not in FACTION_NAMES:
                raise DataError(
                    path, f"unknown faction {faction!r} in {s.id}", column=f"spaces.{i}.tunneled_bases"
                )
    for box in ("out_of_play", "casualties"):
        for key, n in getattr(sc.boxes, box).items():
            if key not in data.pieces or data.pieces[key].type == "marker":
                raise DataError(path, f"unknown piece {key!r} in the {box} box", column=f"boxes.{box}")
            placed[key] += n
    for key, n in placed.items():  # rules 1.2: no more pieces than the force pool holds
        if n > data.pieces[key].count:
            raise DataError(
                path,
                f"{n} {data.pieces[key].name} on the map and in the boxes; the game has {data.pieces[key].count}"
                " (rules 1.2)",
                column="spaces",
            )
    t = sc.tracks
    values = {"aid": t.aid, "patronage": t.patronage, "econ": t.econ, "trail": t.trail}
    for faction, n in t.resources.items():
        if faction not in ("ARVN", "NVA", "VC"):
            raise DataError(
                path, f"unknown faction {faction!r} (Resources: ARVN, NVA, VC)", column="tracks.resources"
            )
        values[f"{faction.lower()}_resources"] = n
    for key, n in values.items():  # rules 1.8: every track within its printed range
        row = data.tracks[key]
        if n < row.min or (row.max is not None and n > row.max):
            raise DataError(
                path,
                f"{row.name} {n} is off its track ({row.min}-{row.max}, rules 1.8)",
                column=f"tracks.{key}",
            )
    for key in ("eligible", "ineligible"):
        for faction in sc.eligibility.get(key) or []:
            if faction not in FACTION_NAMES:
                raise DataError(path, f"unknown faction {faction!r}", column=f"eligibility.{key}")
    return sc
