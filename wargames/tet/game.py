"""Tet Offensive 1968 (GDW 1991) on the shared core.

The game reads like the summary's table of contents: set-up (``setup.py``), phase 1 movement
(``movement.py``), insurrection (``insurrection.py``), ground combat in phases 2 and 6 (``combat.py``,
``odds.py``), phase 5 search (``search.py``), phase 8 morale (``morale.py``).  Phases 3, 4 and 7 are declared in the sequence of play and announce themselves as not yet implemented (issue #4).
Rule ids are those of ``data/tet/rules_index.csv``.
"""

from __future__ import annotations

import re
from typing import Any

from ..core import Game, Player
from ..core.data import DataError, merge_options, read_scenario
from ..core.gametype import GameType, VictoryFacts
from ..core.journal import JournalDict, JournalSet, Tracked
from ..core.placement import Placement
from ..core.position import (
    Edit,
    PositionError,
    check_unit_places,
    entries,
    placement_edits,
    value_edits,
    whole,
)
from ..core.state import StateDecl, StateField, by_key, flagged, members
from .air import AirRules
from .allied_movement import AlliedMovementRules
from .combat import CombatRules
from .data import ALLIED, COMMUNIST, NOT_GROUND, SIDE_OF, TetData, load_data
from .insurrection import InsurrectionRules
from .morale import MoraleRules
from .movement import MovementRules
from .replacements import ReplacementRules
from .scenario import Scenario
from .search import SearchRules
from .setup import SetupRules
from .standing import demoralization_lead

BOXES = ("casualties", "eliminated")
FACTIONS_OF = {"Communist": ("NVA", "VC"), "Allied": ("USA", "SVN")}
LEAD = {"Communist": "VC", "Allied": "USA"}  # decision A-40: who takes a whole side's choices with 4 players


class TetGame(
    SetupRules,
    MovementRules,
    InsurrectionRules,
    AirRules,
    CombatRules,
    ReplacementRules,
    AlliedMovementRules,
    SearchRules,
    MoraleRules,
    Game,
):
    """Tet Offensive 1968: four factions (NVA, VC, USA, SVN) on two sides, 5 turns of 8 phases."""

    game_type = GameType(
        id="tet",
        title="Tet Offensive 1968",
        sides=("Communist", "Allied"),
        factions=("NVA", "VC", "USA", "SVN"),
        players=(2, 4),
        map_kind="area",
        hidden_information=True,
        rule_prefix="TET",
        publisher="GDW 1991",
        model="attrition and hidden forces: the offensive breaks whichever side's will gives way first",
    )
    #: the state, declared once (core.state): the units' places, faces and the tracks are journalled
    #: (core.journal): every change is in a ruling by construction; the battleship's use is the phase's
    #: bookkeeping (issue #13)
    declared_state = StateDecl(
        (
            StateField("loc", by_key, journalled=True),
            StateField("face_up", flagged, journalled=True),
            StateField("insurrection", members, journalled=True),
            StateField("vc_scored", members, journalled=True),
            StateField("svn_scored", members, journalled=True),
            StateField("score", by_key, journalled=True),
            StateField("moved", members),
            StateField("nva_points", journalled=True),
            StateField("heli_lifted", by_key),  # passenger -> helicopter (phase 4 until phase 7)
            StateField("allowance", by_key),  # slow reaction (TET-P7-2)
            StateField("used", by_key),  # sector units moved this phase 7, per Corps
            StateField("bombed", members),  # "turn:city" already charged for bombing (TET-P6-4)
            StateField("battleship_used", explained="bookkeeping"),  # TET-P6-5, once per Allied combat phase
        ),
        static=frozenset({"data", "scenario", "four_players", "sides", "rules_opts"}),
    )
    #: a Tet decision replays fast (a few tenths of a millisecond): fewer checkpoints inside steps keep bot games
    #: as fast as before while Back stays far under 50 ms (benchmarks/results/back.md)
    checkpoint_every = 20
    #: the NVA replacement points (TET-P3-4, decision A-22): journalled as a track (core.journal)
    nva_points = Tracked("track")

    # ------------------------------------------------------------------ data and state
    def load_scenario(self, scenario: str) -> None:
        self.data: TetData = load_data()
        path, self.scenario = read_scenario("tet", scenario, Scenario, "Tet")
        players = self.game_options.get("players", self.scenario.players)
        if players not in (2, 4):
            raise DataError(path, f"players must be 2 or 4 (TET-COMP-5), not {players!r}", column="players")
        self.four_players = players == 4
        self.sides = (
            tuple(f for s in FACTIONS_OF.values() for f in s) if self.four_players else type(self).sides
        )
        self.rules_opts = merge_options(path, self.scenario.options, self.game_options, skip=("players",))
        self._check_rule_options(path)

    def _check_rule_options(self, path: Any) -> None:
        """Issue #30 item 11: the exempt city of TET-SETUP-2 (A-38) is a city of the map, and the Recce turns
        (A-20) are turns of this scenario (DataError naming the scenario file and the option)."""
        exempt = self.rules_opts.ruff_puff_exempt_city
        area = self.data.areas.get(exempt)
        if area is None or area.kind != "city":
            cities = sorted(a.id for a in self.data.areas.values() if a.kind == "city")
            raise DataError(
                path,
                f"{exempt!r} is not a city of the map (TET-SETUP-2, A-38); cities: {', '.join(cities)}",
                column="options.ruff_puff_exempt_city",
            )
        bad = [t for t in self.rules_opts.recce_turns if not 1 <= t <= self.scenario.turns]
        if bad:
            raise DataError(
                path,
                f"Recce turn(s) {bad} outside the game's turns 1-{self.scenario.turns} (TET-P5-4, A-20)",
                column="options.recce_turns",
            )

    def new_state(self) -> None:
        d = self.data
        j = self._journal  # the main state is journalled: each ruling lists what it changed (core.journal)
        # unit -> area (or box), with the reverse index area -> units (core.placement; every area ever occupied)
        self.loc: Placement = Placement(((u, None) for u in d.units), journal=j, keep_empty=True)
        self.face_up: dict[str, bool] = JournalDict(
            ((u.id, u.faction in ALLIED and u.type != "ruff_puff") for u in d.units.values()),
            journal=j,
            field="face_up",
            key="unit",
            flag=True,
        )
        self.insurrection: set[str] = JournalSet(journal=j, field="insurrection", key="area")
        self.vc_scored: set[str] = JournalSet(journal=j, field="vc_scored", key="area")
        self.svn_scored: set[str] = JournalSet(journal=j, field="svn_scored", key="area")
        self.score: dict[str, int] = JournalDict(
            ((f, row.start_score) for f, row in d.factions.items()), journal=j, field="score", key="track"
        )
        self.moved: set[str] = set()
        self.nva_points = 0
        self.heli_lifted: dict[str, str] = {}  # passenger -> helicopter (phase 4 until phase 7)
        self.allowance: dict[str, int | None] = {}  # slow reaction (TET-P7-2)
        self.used: dict[str, int] = {}  # sector units moved this phase 7, per Corps
        self.bombed: set[str] = set()  # "turn:city" already charged for bombing (TET-P6-4)
        self.battleship_used = False  # TET-P6-5, once per Allied combat phase

    # ------------------------------------------------------------------ lesson positions (core.position)
    def position_keys(self) -> dict[str, str]:
        return {
            "units": "unit id -> area id, or 'eliminated' / 'casualties'",
            "face_up": "unit id -> true (revealed) or false (face down)",
            "score": "faction (NVA, VC, USA, SVN) -> demoralization points",
        }

    def check_position(self, edits: dict[str, Any]) -> None:
        d = self.data
        check_unit_places(edits, d.units, d.areas, BOXES, "unit", "area")
        for uid, up in entries(edits, "face_up", d.units, "unit"):
            if not isinstance(up, bool):
                raise PositionError(f"position.face_up.{uid}: {up!r} is not true or false")
            if not up and self.unit(uid).faction in ALLIED and self.unit(uid).type != "ruff_puff":
                raise PositionError(
                    f"position.face_up.{uid}: only NVA/VC units and Ruff Puffs are ever face down"
                )
        for faction, points in entries(edits, "score", d.factions, "faction"):
            whole(points, f"position.score.{faction}", -99, 999)

    def position_edits(self, edits: dict[str, Any]) -> list[Edit]:
        """Units placed (and face up or down), demoralization tracks set; each edit explained."""
        self.check_position(edits)
        out: list[Edit] = []
        out += placement_edits(
            edits.get("units", {}),
            self.loc,
            self.describe,
            lambda a: self.area_name(a) if a in self.data.areas else a,
            lambda a: a in self.data.areas,
            self.loc.__setitem__,
        )
        for uid, up in edits.get("face_up", {}).items():
            out.append(
                Edit(
                    "face_up",
                    f"{self.describe(uid)} {'revealed' if up else 'hidden'}",
                    f"{self.describe(uid)} is turned {'face up' if up else 'face down'}.",
                    {"unit": uid, "face_up": up},
                    lambda u=uid, v=up: self.face_up.__setitem__(u, v),
                )
            )
        out += value_edits(
            "score",
            edits.get("score", {}),
            self.score,
            lambda f, p: f"{f} demoralization set to {p}",
            lambda f, p, was: f"The {f} demoralization track is set to {p} (it was {was}).",
            field="faction",
        )
        return out

    # ------------------------------------------------------------------ queries used by the rules
    def unit(self, uid: str):
        return self.data.units[uid]

    def units_in(self, area: str) -> list[str]:
        return self.loc.pieces_at(area)

    def side_of(self, uid: str) -> str:
        return SIDE_OF[self.data.units[uid].faction]

    def communists_in(self, area: str) -> list[str]:
        return [u for u in self.units_in(area) if self.data.units[u].faction in COMMUNIST]

    def allied_in(self, area: str) -> list[str]:
        return [u for u in self.units_in(area) if self.data.units[u].faction in ALLIED]

    def allied_ground_in(self, area: str) -> list[str]:
        """Allied ground units (air units, the battleship and Recce are not ground units: decision A-21)."""
        return [u for u in self.allied_in(area) if self.data.units[u].type not in NOT_GROUND]

    def describe(self, uid: str, side: str | None = None) -> str:
        """A unit as ``side`` sees it ("face-down NVA/VC unit" when hidden from that side)."""
        u = self.data.units[uid]
        if side is not None and not self.face_up[uid] and self.side_of(uid) != side:
            return "a face-down Ruff Puff" if u.type == "ruff_puff" else "a face-down NVA/VC unit"
        return self.data.counter_names[uid]

    def area_name(self, area: str) -> str:
        a = self.data.areas[area]
        return a.name if a.kind != "province" else f"{a.name} ({a.id})"

    def display_name(self, key: str, side: str | None = None) -> str:
        """Areas by name (``area_name``), e.g. ``"S4"`` -> its sanctuary's name, ``"21"`` -> ``"Kontum (21)"``;
        units as ``side`` may see them (``describe``: a face-down NVA/VC unit is not named to the Allies)."""
        if key in self.data.areas:
            a = self.data.areas[key]
            return self.area_name(key) if key.isdigit() else a.name
        return self.describe(key, self.visibility_side(side)) if key in self.data.units else key

    def display_text(self, text: str, side: str | None = None) -> str:
        """Ids written out in a label, a ruling or a bot's reason ("retreat to S8", "no more fire in ben_tre",
        "air units us_tac_t, ...") replaced by ``display_name`` as ``side`` may see them; numbered provinces ("21")
        only through an action's places (a bare number in a text may be a strength), the boxes' ids are words
        ("casualties"), and an id already in brackets after its name ("... (KH1)") is left alone; one alone in
        brackets ("insurrection (hoi_an)") is named there."""
        ids = _text_ids(self.data)

        def name(m: re.Match[str]) -> str:
            if m.group(2) not in ids:
                return m.group(0)
            named = self.display_name(m.group(2), side)
            if m.group(1) and m.group(3) and m.string[: m.start()].rstrip().endswith(named):
                return m.group(
                    0
                )  # "Kontum (KH1)": the id after its name stays (``_invented_ids`` drops ours)
            return m.group(1) + named + m.group(3)

        return _invented_ids(self.data).sub(r"\1", _WORD.sub(name, text))

    # ------------------------------------------------------------------ two or four players (TET-COMP-5)
    def factions_acting(self, side: str) -> list[str | None]:
        """TET-COMP-5: with 4 players each faction of ``side`` acts in its own turn (NVA before VC, USA before
        SVN: decision A-40); with 2 players the side acts once for both (``[None]``: no faction filter)."""
        return list(FACTIONS_OF[side]) if self.four_players else [None]

    def acts_for(self, faction: str | None, uid: str) -> bool:
        """Whether ``uid`` belongs to ``faction`` (any faction when None)."""
        return faction is None or self.unit(uid).faction == faction

    def decide(self, side: str, prompt: str, rule_id: str, options: list, **kw: Any):
        """TET-COMP-5: in a four-player game a choice goes to the faction whose units it concerns; a choice
        for the whole side (battle order, a mixed fire group) goes to the side's lead faction (A-40)."""
        if self.four_players and side in FACTIONS_OF:
            side = self.faction_deciding(side, options, kw)
        return super().decide(side, prompt, rule_id, options, **kw)

    def faction_deciding(self, side: str, options: list, context: dict[str, Any]) -> str:
        own: set[str] = set()
        for uid in [context.get("unit")] + [a.get(k) for a in options for k in ("unit", "plane", "recce")]:
            if uid in self.data.units and self.side_of(uid) == side:
                own.add(self.unit(uid).faction)
        return own.pop() if len(own) == 1 else LEAD[side]

    def visibility_side(self, side: str | None) -> str | None:
        """Partners share what they know: NVA and VC see as the Communist side, USA and SVN as the Allies."""
        return SIDE_OF.get(side, side) if side else side

    # ------------------------------------------------------------------ the interface
    def scores(self) -> dict[str, Any]:
        """The four demoralization tracks as plain integers (TET-P8-2: the board's 1s/10s/100s tracks)."""
        return dict(self.score)

    def demoralized(self) -> dict[str, bool]:
        """TET-COMP-2 / decision A-35: a faction is demoralized when its score reaches its level."""
        return {f: self.score[f] >= row.demoralization_level for f, row in self.data.factions.items()}

    def public_state(self, side: str | None) -> dict[str, Any]:
        side = self.visibility_side(side)
        units = []
        hidden: list[str] = []  # the areas of the counters this side may not identify
        for uid, where in sorted(self.loc.items()):
            if where is None:
                continue
            u = self.data.units[uid]
            if (
                side is not None
                and not self.face_up[uid]
                and self.side_of(uid) != side
                or side is not None
                and u.type == "ruff_puff"
                and not self.face_up[uid]
            ):
                hidden.append(f"{where}\t{'Allied' if u.type == 'ruff_puff' else 'NVA/VC'}")
            else:
                units.append(
                    {
                        "id": uid,
                        "area": where,
                        "face_up": self.face_up[uid],
                        "faction": u.faction,
                        "name": u.name,
                        "cf": u.cf,
                        "type": u.type,
                    }
                )
        # Face-down counters after the others, sorted by area and faction, numbered within their area: their place
        # in the list says nothing of which units they are (issue #30 item 5: sorted with the rest by unit id, a
        # hidden counter's position named it).
        count: dict[str, int] = {}
        for key in sorted(hidden):
            where, faction = key.split("\t")
            k = count[where] = count.get(where, 0) + 1
            units.append(
                {
                    "id": f"hidden@{where}#{k}",
                    "area": where,
                    "face_up": False,
                    "faction": faction,
                    "name": "Ruff Puff (face down)" if faction == "Allied" else "face-down unit",
                }
            )
        return {
            "turn": self.turn,
            "phase": self.phase.id if self.phase else None,
            "units": units,
            "insurrection": sorted(self.insurrection),
            "score": dict(self.score),
        }

    def default_player(self, side: str) -> Player:
        from .bots import AlliedBot, CommunistBot

        return CommunistBot(self.seed) if SIDE_OF.get(side, side) == "Communist" else AlliedBot(self.seed)

    def invariants(self) -> list[str]:
        problems = []
        d = self.data
        for uid, where in self.loc.items():
            u = d.units[uid]
            if where is None:
                problems.append(f"{uid} is nowhere after set-up")
                continue
            if where not in d.areas:
                problems.append(f"{uid} is in unknown area {where}")
            if u.faction in ALLIED and u.type != "ruff_puff" and not self.face_up[uid]:
                problems.append(f"Allied unit {uid} is face down")
            if u.faction in COMMUNIST and d.areas[where].kind == "city" and not self.face_up[uid]:
                problems.append(f"{uid} is face down in city {where} (TET-P1-3)")
            if u.faction == "VC" and where not in BOXES and not self.vc_may_enter(uid, where):
                problems.append(f"VC unit {uid} is outside its Corps in {where} (TET-UNIT-5)")
        for city in self.insurrection:
            if d.areas[city].kind != "city":
                problems.append(f"insurrection marker on non-city {city}")
        return problems if self.turn > 0 else []

    # ------------------------------------------------------------------ map layers (plain data, no Bokeh)
    def map_layers(self, side: str | None = None) -> dict[str, Any]:
        """The theatre as semantic map layers, units as ``side`` may see them (issue #14 item 2; TET-P5-1: a
        hidden enemy unit is a piece of unknown faction and strength)."""
        from .mapdata import map_layers

        return map_layers(self, side)

    # ------------------------------------------------------------------ the end
    def final_result(self):
        """TET-AIM-3 (decision A-36): after turn 5, the side that demoralized more enemy factions wins."""
        dem = self.demoralized()
        allied_wins, communist_wins, winner = demoralization_lead(dem)
        levels = ", ".join(
            f"{f} {self.score[f]}/{self.data.factions[f].demoralization_level}" for f in self.score
        )
        verdict = f"the {winner} side wins" if winner else "the game is a draw"
        yield self.end(
            "TET-AIM-3",
            "End of the game",
            f"After turn {self.turn} no side has demoralized both enemy factions. Scores against "
            f"levels: {levels}. The Allies demoralized {allied_wins} Communist faction(s), the "
            f"Communists {communist_wins} Allied faction(s), so {verdict}.",
            result={
                "winner": winner,
                "allied_demoralized": allied_wins,
                "communist_demoralized": communist_wins,
            },
            inputs=dict(self.score),
        )

    @classmethod
    def victory_facts(cls) -> VictoryFacts:
        """What decides the game (TET-COMP-2, TET-AIM-3), declared for shared code (issue #29 item 4): ``morale.victory_facts``."""
        from .morale import victory_facts

        return victory_facts()


#: a word that may be an area or unit id, with the brackets around it (if any)
_WORD = re.compile(r"(?<![\w])(\(?)([A-Za-z][A-Za-z0-9_]*)(?![\w])(\)?)")


_IDS: dict[int, tuple[TetData, frozenset[str]]] = {}
_INVENTED: dict[int, tuple[TetData, re.Pattern[str]]] = {}


def _invented_ids(data: TetData) -> re.Pattern[str]:
    """An area's name followed by its id in brackets where the id is ours, not printed on the map (the Laos and
    Cambodia provinces ``LA1``, ``KH1``: only the Vietnamese provinces have numbers, ``areas.csv``): the name
    is group 1, so the substitution keeps the name and drops the id (issue #31 item 3)."""
    hit = _INVENTED.get(id(data))
    if hit is None or hit[0] is not data:
        pairs = [(a.name, k) for k, a in data.areas.items() if a.kind == "province" and not k.isdigit()]
        names = "|".join(re.escape(n) for n, _ in pairs) or "(?!)"
        ids = "|".join(re.escape(k) for _, k in pairs) or "(?!)"
        hit = _INVENTED[id(data)] = (data, re.compile(rf"({names}) \(({ids})\)"))
    return hit[1]


def _text_ids(data: TetData) -> frozenset[str]:
    """The ids ``display_text`` names: lettered areas (a box only when its id is not a word: ``offmap_box_1``, not
    ``casualties``) and every unit."""
    hit = _IDS.get(id(data))
    if hit is None or hit[0] is not data:
        ids = frozenset(
            a for a, row in data.areas.items() if not a.isdigit() and (row.kind != "box" or not a.isalpha())
        ) | set(data.units)
        hit = _IDS[id(data)] = (data, ids)
    return hit[1]
