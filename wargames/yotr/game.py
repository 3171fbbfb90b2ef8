"""Year of the Rat (SPI 1972) on the shared core.

The sequence of play is ``data/yotr/sequence.yaml`` (YOTR-SOP): each Game-Turn a Communist Player-Turn
(reinforcement, supply and movement, combat, disruption recovery, dummy removal) then an Allied one
(reinforcement, supply and movement, bombardment, combat).  The rules live in mixins: ``movement.py``
(YOTR-MOV, YOTR-ZOC, YOTR-TEC), ``supply.py`` (YOTR-SUP), ``combat.py`` (YOTR-CBT, YOTR-TWN),
``bombardment.py`` (YOTR-BMB), ``turns.py`` (set-up, reinforcements, recovery, dummies) and ``victory.py``
(YOTR-VIC).  Rule ids are those of ``data/yotr/rules_index.csv``; decisions D-nn / M-nn of ``decisions.csv``.
"""

from __future__ import annotations

import re
from typing import Any

from ..core import Game, Player
from ..core.data import DataError, merge_options, read_scenario
from ..core.gametype import GameType, VictoryFacts
from ..core.journal import JournalDict, JournalSet, Tracked
from ..core.placement import Placement
from ..core.position import Edit, PositionError, check_unit_places, entries, placement_edits
from ..core.state import StateDecl, StateField, by_key, in_order, members
from .bombardment import BombardmentRules
from .combat import CombatRules
from .data import OobRow, YotrData, load_data
from .deploy import DeployRules
from .movement import MovementRules
from .ob import forces, implied_options
from .scenario import Scenario
from .supply import SupplyRules
from .turns import TurnRules
from .victory import VictoryRules

BOXES = ("track", "eliminated", "removed")
#: what a side reads of an enemy counter it may not see (YOTR-MOV-M; issue #19)
HIDDEN_UNIT = "a Communist unit"
NOT_COUNTERS = ("air_points", "naval_marker")


def _attacks(pending: list[Any]) -> list[list[Any]]:
    """The declared attacks not yet resolved: [target, attackers, extra hexes] each (YOTR-CBT)."""
    return [[t, list(g), list(x)] for t, g, x in pending]


class YotrGame(
    TurnRules, DeployRules, MovementRules, SupplyRules, CombatRules, BombardmentRules, VictoryRules, Game
):
    """Year of the Rat: the 1972 Easter Offensive, 13 weekly Game-Turns, Communist against Allied."""

    game_type = GameType(
        id="yotr",
        title="Year of the Rat (SPI 1972)",
        sides=("Communist", "Allied"),
        players=(2,),
        map_kind="hex",
        hidden_information=True,
        rule_prefix="YOTR",
        publisher="SPI 1972",
        model="a conventional offensive and its supply: the 1972 Easter Offensive town by town",
    )
    #: the state, declared once (core.state): the counters' places and the VP are journalled (core.journal): every
    #: change is in a ruling by construction; the units moved and the attacks declared but not yet resolved are the
    #: phase's bookkeeping (issue #13).  set_obs() computes the derived fields from ``obs`` (YOTR-OB); ``loc``
    #: indexes itself (core.placement); ``_ver`` counts changes for the caches
    declared_state = StateDecl(
        (
            StateField("loc", by_key, journalled=True),
            StateField("bg", members, journalled=True),
            StateField("pinned", members),
            StateField("disrupted", members, journalled=True),
            StateField("face_up", members),
            StateField("defended", members),
            StateField("pending_attacks", _attacks, explained="bookkeeping"),
            StateField("town", by_key, journalled=True),
            StateField("militia_gone", members, journalled=True),
            StateField("sc_destroyed", members, journalled=True),
            StateField("air", journalled=True),
            StateField("naval", journalled=True),
            StateField("usa_zoc"),
            StateField("supply", by_key),
            StateField("moved", members, explained="bookkeeping"),
            StateField("airlifts", by_key),
            StateField("attack_sources", in_order),
            StateField("vp", journalled=True),
            StateField("obs", in_order),
            StateField("lsi_numbers"),
        ),
        derived=frozenset({"opts", "forces", "counters", "home_region", "_ver"}),
        cache=frozenset({"_cache"}),
        static=frozenset({"data", "scenario", "base_opts", "first_obs"}),
    )
    #: the victory points: a journalled track (core.journal)
    vp = Tracked("track")
    #: the Allied air points and naval markers in the Bombardment Strength Available box (YOTR-BMB), journalled:
    #: set by the deployment ruling that puts them there
    air = Tracked("track")
    naval = Tracked("track")

    def snapshot_shared(self):
        """The order-of-battle rows of the two OBs are rules data: checkpoints share them."""
        return self.forces.values()

    # ------------------------------------------------------------------ data and state
    def load_scenario(self, scenario: str) -> None:
        self.data: YotrData = load_data()
        path, self.scenario = read_scenario("yotr", scenario, Scenario, "Year of the Rat")
        self.base_opts = merge_options(path, self.scenario.options, self.game_options)
        o = self.base_opts
        self.first_obs = (
            o.allied_ob or self.scenario.allied_ob,
            o.communist_ob or self.scenario.communist_ob,
        )
        if self.scenario.deployment == "historical" and (self.first_obs != ("A", "G") or o.lsi):
            raise DataError(
                path,
                "YOTR-SET-SCEN: the Historical Game is played with OB A and G only (their "
                "historical deployment); choose other OBs, or Limited Strategic Intelligence, in the "
                "'ob-options' scenario",
                column="options",
            )
        self.set_obs(*self.first_obs)

    def set_obs(self, allied_ob: str, communist_ob: str) -> None:
        """YOTR-OB / YOTR-IFC: the forces of the two OBs, and the special rules their letters call for."""
        d = self.data
        self.obs = (allied_ob, communist_ob)
        self.opts = self.base_opts.model_copy(update=implied_options(allied_ob, communist_ob))
        self.forces: dict[str, OobRow] = forces(d, allied_ob, communist_ob)
        self.counters: dict[str, OobRow] = {
            u.id: u for u in self.forces.values() if u.unit_type not in NOT_COUNTERS
        }
        # YOTR-MOV-S: ROK and NLF never leave the Region of their initial placement
        self.home_region: dict[str, str] = {
            u.id: d.region(u.start_hex)
            for u in self.counters.values()
            if u.nationality in ("ROK", "NLF") and u.start_hex
        }
        # every move journalled, with the reverse index hex -> counters (core.placement; boxes not indexed)
        self.loc: Placement = Placement(
            ((u, "track") for u in self.counters), journal=self._journal, unindexed=BOXES
        )
        self._ver = getattr(self, "_ver", 0) + 1
        self._cache = {}

    def new_state(self) -> None:
        self.set_obs(*self.first_obs)  # the counters, all on the track
        self.lsi_numbers: dict[str, dict[str, int]] = {}  # YOTR-LSI: each side's secret numbering
        j = self._journal  # the main state is journalled: each ruling lists what it changed (core.journal)
        self.bg: set[str] = JournalSet(
            journal=j, field="bg", key="unit"
        )  # NVA units reduced to Battlegroups (YOTR-CBT-Q)
        self.pinned: set[str] = set()
        self.disrupted: set[str] = JournalSet(journal=j, field="disrupted", key="unit")
        self.pending_attacks: list = []  # declared attacks not yet resolved: (target, attackers, extra hexes)
        self.defended: set[str] = set()  # enemy units attacked this Combat Phase (YOTR-CBT-C, D-66)
        self.face_up: set[str] = set()  # Communist counters revealed at this instant of combat (YOTR-MOV-M)
        self.town: dict[str, str] = JournalDict(
            ((h, "allied") for h in self.data.towns), journal=j, field="town", key="town"
        )  # allied | nlf | retaken (YOTR-TWN-A)
        # Communist towns whose NLF militia fell while a Battlegroup held on (D-55)
        self.militia_gone: set[str] = JournalSet(journal=j, field="militia_gone", key="town")
        self.sc_destroyed: set[str] = JournalSet(journal=j, field="sc_destroyed", key="hex")
        self.air = 0
        self.naval = 0
        self.usa_zoc = False  # YOTR-ZOC-F2
        self.supply: dict[str, str] = {}
        self.moved: set[str] = set()
        self.airlifts: dict[str, int] = {}
        self.attack_sources: list[
            str
        ] = []  # hexes of real supply units revealed this Combat Phase (YOTR-SUP-E)
        self.vp = 0
        self._ver = 0
        self._cache: dict[Any, Any] = {}

    # ------------------------------------------------------------------ lesson positions (core.position)
    def position_keys(self) -> dict[str, str]:
        return {
            "units": "counter id -> hex number, or 'eliminated' / 'removed' / 'track'",
            "towns": "town hex -> 'allied', 'nlf' or 'retaken' (YOTR-TWN-A)",
        }

    def check_position(self, edits: dict[str, Any]) -> None:
        d = self.data
        check_unit_places(
            edits, self.counters, d.hexes, BOXES, "counter of this game's orders of battle", "hex"
        )
        for h, owner in entries(edits, "towns", d.towns, "South Vietnamese town hex"):
            if owner not in ("allied", "nlf", "retaken"):
                raise PositionError(f"position.towns.{h}: {owner!r} is not allied, nlf or retaken")

    def position_edits(self, edits: dict[str, Any]) -> list[Edit]:
        """Counters placed and towns' owners set; the victory points are then counted again (YOTR-VIC-SCORE)."""
        self.check_position(edits)
        out: list[Edit] = []
        out += placement_edits(
            edits.get("units", {}),
            self.loc,
            self.describe,
            lambda h: self.hex_name(h) if h not in BOXES else f"the {h} box",
            lambda h: h not in BOXES,
            self.place,
        )
        for h, owner in edits.get("towns", {}).items():
            out.append(
                Edit(
                    "towns",
                    f"{self.hex_name(h)}: {owner}",
                    f"{self.hex_name(h)} is set to {owner} (it was {self.town[h]}).",
                    {"town": h, "from": self.town[h], "to": owner},
                    lambda t=h, o=owner: (self.town.__setitem__(t, o), self.touch()),
                    (h,),
                )
            )
        if out:
            out.append(
                Edit(
                    "vp",
                    "Victory points counted",
                    "The Communist victory points are counted again for "
                    "the towns and units as now placed (YOTR-VIC-SCORE).",
                    {"vp": "recounted"},
                    self._recount_vp,
                )
            )
        return out

    def _recount_vp(self) -> None:
        self.vp = self.vp_function()["total"]

    # ------------------------------------------------------------------ placing counters
    @property
    def at(self) -> dict[str, set[str]]:
        """The counters in each hex: the reverse index of ``loc`` (core.placement)."""
        return self.loc.index

    def place(self, uid: str, to: str) -> None:
        """Move a counter to a hex or a box, keeping the hex index in step (no rule applied here)."""
        self.loc[uid] = to
        self._ver += 1
        self._cache.clear()

    def touch(self) -> None:
        """Something other than a counter's hex changed (town owner, SC, USA zones): drop cached maps."""
        self._ver += 1
        self._cache.clear()

    # ------------------------------------------------------------------ queries
    def unit(self, uid: str) -> OobRow:
        return self.counters[uid]

    def side_of(self, uid: str) -> str:
        return self.counters[uid].side

    def units_at(self, h: str) -> list[str]:
        return self.loc.pieces_at(h)

    def on_map(self, side: str | None = None) -> list[str]:
        """The counters (of ``side``) on the map, sorted (cached until the next change)."""
        key = ("on_map", side)
        if key not in self._cache:
            self._cache[key] = tuple(
                sorted(
                    u
                    for u, w in self.loc.items()
                    if w not in BOXES and (side is None or self.counters[u].side == side)
                )
            )
        return list(self._cache[key])

    def is_dummy(self, uid: str) -> bool:
        return self.counters[uid].unit_type == "dummy"

    def is_supply_unit(self, uid: str) -> bool:
        return self.counters[uid].unit_type in ("supply_real", "supply_dummy")

    def is_combat(self, uid: str) -> bool:
        return self.counters[uid].is_combat

    def full_nva(self, uid: str) -> bool:
        """YOTR-CBT-Q: an NVA combat unit at its original strength (4, 5 or 6)."""
        u = self.counters[uid]
        return u.nationality == "NVA" and u.is_combat and uid not in self.bg

    def attack_value(self, uid: str) -> int:
        """Printed attack; a Battlegroup is a 1-6, or a 2-1-6 under Special Rule H (YOTR-SR-H)."""
        if uid in self.bg:
            return 2 if self.opts.special_rule_h else 1
        return self.counters[uid].attack or 0

    def bg_values(self) -> str:
        """YOTR-CBT-Q / YOTR-SR-H: a Battlegroup's printed values: 1-6, or 2-1-6 under Special Rule H (D-48)."""
        return "2-1-6" if self.opts.special_rule_h else "1-6"

    def defense_value(self, uid: str) -> int:
        return 1 if uid in self.bg else (self.counters[uid].defense or 0)

    def combat_units_at(self, h: str, side: str) -> list[str]:
        return [u for u in self.units_at(h) if self.counters[u].side == side and self.is_combat(u)]

    def counters_at(self, h: str, side: str) -> list[str]:
        """Combat units and dummies of ``side`` in ``h`` (supply units are not counted)."""
        return [u for u in self.units_at(h) if self.counters[u].side == side and not self.is_supply_unit(u)]

    def occupied(self, side: str) -> frozenset[str]:
        """Hexes holding at least one counter of ``side`` (cached until the next change)."""
        key = ("occ", side)
        if key not in self._cache:
            self._cache[key] = frozenset(
                h for h, us in self.at.items() if any(self.counters[u].side == side for u in us)
            )
        return self._cache[key]

    def occupied_by(self, h: str, side: str) -> bool:
        return h in self.occupied(side)

    def allied_militia(self, h: str) -> int:
        """YOTR-TWN: the printed militia of an Allied-controlled town (restored on retake, YOTR-TWN-M); none once
        a result eliminated it while an Allied unit kept the town (D-55, D-71)."""
        if h in self.data.towns and self.town[h] in ("allied", "retaken") and h not in self.militia_gone:
            return self.data.towns[h].intrinsic_strength or 0
        return 0

    def communist_militia(self, h: str) -> int:
        """YOTR-TWN-PROC: a face-up NLF militia counter defends with 1 (none once eliminated under a Battlegroup
        that kept the town, D-55)."""
        return 1 if h in self.data.towns and self.town[h] == "nlf" and h not in self.militia_gone else 0

    def sc_intact(self, h: str) -> bool:
        return h in self.data.supply_centers and h not in self.sc_destroyed

    def describe(self, uid: str, side: str | None = None) -> str:
        """A counter as ``side`` sees it ("a face-down Communist counter" when hidden from that side)."""
        u = self.counters[uid]
        if side == "Allied" and u.side == "Communist" and uid not in self.face_up:
            return "a face-down Communist counter"
        if u.unit_type == "dummy":
            return f"dummy {uid}"
        if uid in self.bg:
            return f"NVA Battlegroup {self.bg_values()} ({uid})"
        return f"{u.nationality} {u.values} ({uid})"

    def hex_name(self, h: str) -> str:
        p = self.data.towns.get(h) or self.data.supply_centers.get(h)
        return f"{p.name} ({h})" if p else h

    def hidden_from(self, uid: str, side: str | None) -> bool:
        """YOTR-MOV-M: whether counter ``uid`` is face down to ``side`` (a Communist counter not revealed at this
        instant, seen by the Allied player); the umpire (None) and the owner see every counter."""
        u = self.forces.get(uid)
        return side == "Allied" and u is not None and u.side == "Communist" and uid not in self.face_up

    def unit_name(self, uid: str, side: str | None = None) -> str:
        """A counter as ``side`` may see it: its name (D-69) and values, "ARVN 4th Quang Tri (1-6)", a Battlegroup
        with its reduced values; a Communist counter face down to the Allied player is "a Communist unit", which
        tells nothing of it (YOTR-MOV-M); one face up only by its face ("NVA 5-6") while Limited Strategic
        Intelligence hides the Communist OB from the Allies (a variant counter's name says its OB, D-64)."""
        u = self.forces[uid]
        if self.hidden_from(uid, side):
            return HIDDEN_UNIT
        values = self.bg_values() if uid in self.bg else u.values
        if side == "Allied" and u.side == "Communist" and self.lsi_numbers and not self.is_over:
            return f"{u.nationality} {'Battlegroup ' if uid in self.bg else ''}{values or ''}".strip()
        if uid in self.bg:
            return f"{u.name} Battlegroup ({values})"
        return f"{u.name} ({values})" if values and u.is_combat else u.name

    def display_name(self, key: str, side: str | None = None) -> str:
        """Hexes by their town or Supply Center and number (``hex_name``), counters by ``unit_name`` as ``side`` may
        see them."""
        if key in self.data.hexes:
            return self.hex_name(key)
        return self.unit_name(key, side) if key in self.forces else key

    def display_text(self, text: str, side: str | None = None) -> str:
        """Counter ids in a prompt, a label, a ruling or a bot's reason replaced by ``unit_name`` as ``side`` may
        see the counter: "ARVN 1-6 (arvn_qt_4)" (``describe``) and a bare "arvn_qt_4" both read "ARVN 4th Quang
        Tri (1-6)"; the face a text already shows of a counter now face down to ``side`` stays, without its id
        (the ruling was public when made); a bare id of a face-down counter reads "a Communist unit".  A hex number
        standing alone reads as its town or Supply Center with the number ("Quang Tri (3808)", ``hex_name``) where it
        has one (issue #31); a number already in brackets stays."""

        def name(m: re.Match[str]) -> str:
            uid = m.group("did") or m.group("uid") or m.group("bare")
            if uid not in self.forces:
                return m.group(0)
            if m.group("bare") is None and self.hidden_from(uid, side):
                return HIDDEN_UNIT if m.group("did") else m.group("face")
            return self.unit_name(uid, side)

        text = _UNIT.sub(name, text)
        text = _SUPPLY_STATE.sub(lambda m: _SUPPLY_WORDS[m.group(0)], text)  # YOTR-SUP: a unit's supply state
        # issue #31: a hex number standing alone ("Attack on 3609 declared") by its town or Supply Center and number
        return _HEX_NUMBER.sub(
            lambda m: self.hex_name(m.group(1)) if m.group(1) in self.data.hexes else m.group(0), text
        )

    # ------------------------------------------------------------------ the interface
    def scores(self) -> dict[str, Any]:
        """YOTR-VIC: the Communist victory points (the only score track)."""
        return {"VP": self.vp}

    def map_layers(self, side: str | None = None) -> dict[str, Any]:
        """The hex map as semantic layers, counters as ``side`` sees them (issue #14 item 2; YOTR-MOV-M)."""
        from .mapdata import map_layers

        return map_layers(self, side)

    def public_state(self, side: str | None) -> dict[str, Any]:
        """YOTR-MOV-M / D-39: the Allied view shows Communist counters only as face-down counters in hexes."""
        units = []
        hidden: dict[str, int] = {}
        for uid in self.on_map():
            h = self.loc[uid]
            u = self.counters[uid]
            markers = ["P"] * (uid in self.pinned) + ["D"] * (uid in self.disrupted)
            if side == "Allied" and u.side == "Communist" and uid not in self.face_up:
                k = hidden[h] = hidden.get(h, 0) + 1
                units.append(
                    {
                        "id": f"hidden@{h}#{k}",
                        "hex": h,
                        "side": "Communist",
                        "face_up": False,
                        "kind": "supply" if self.is_supply_unit(uid) else "counter",
                        "markers": markers,
                    }
                )
            else:
                units.append(
                    {
                        "id": uid,
                        "hex": h,
                        "side": u.side,
                        "face_up": True,
                        "nationality": u.nationality,
                        "type": u.unit_type,
                        "values": self.bg_values() if uid in self.bg else u.values,
                        "markers": markers,
                    }
                )
        units.sort(key=lambda x: (x["hex"], x["id"]))
        return {
            "turn": self.turn,
            "phase": self.phase.id if self.phase else None,
            "units": units,
            "town": dict(sorted(self.town.items())),
            "militia_gone": sorted(self.militia_gone),
            "sc_destroyed": sorted(self.sc_destroyed),
            "air": self.air,
            "naval": self.naval,
            "usa_zoc": self.usa_zoc,
            "vp": self.vp,
            "obs": {
                "Allied": self.obs[0],
                "Communist": self.obs[1]
                if side != "Allied" or not self.lsi_numbers or self.is_over
                else "hidden (YOTR-LSI)",
            },
        }

    def default_player(self, side: str) -> Player:
        from .bots import AlliedBot, CommunistBot

        return CommunistBot(self.seed) if side == "Communist" else AlliedBot(self.seed)

    def invariants(self) -> list[str]:
        """Unit conservation, legal positions, no mixed stacks, VP equal to the state function."""
        problems: list[str] = []
        d = self.data
        if set(self.loc) != set(self.counters):
            problems.append("the counter list changed (unit conservation)")
        for uid, h in self.loc.items():
            if h in BOXES:
                continue
            u = self.counters[uid]
            if h not in d.hexes or d.terrain(h) == "sea":
                problems.append(f"{uid} is on {h}, not a land hex")
                continue
            if u.side == "Allied" and d.country(h) == "NVN" and not self.opts.special_rule_f:
                problems.append(f"Allied {uid} is in North Vietnam (YOTR-MOV-S)")
            if (
                uid in self.home_region
                and d.region(h) != self.home_region[uid]
                and not (u.nationality == "ROK" and self.opts.special_rule_f)
            ):
                problems.append(f"{uid} left its Region (YOTR-MOV-S)")
            if self.is_supply_unit(uid) and h not in d.supply_centers:
                problems.append(f"supply unit {uid} is off the Supply Centers")
            if u.side == "Allied" and (self.communist_militia(h) or self.sc_intact(h)):
                problems.append(f"Allied {uid} stands in a Communist militia town or Supply Center {h}")
        index: dict[str, set[str]] = {}
        for u, h in self.loc.items():
            if h not in BOXES:
                index.setdefault(h, set()).add(u)
        if index != self.at:
            problems.append("the hex index is out of step with the counters' positions")
        for h in self.occupied("Allied") & self.occupied("Communist"):
            problems.append(f"hex {h} holds units of both sides")
        if self.bg - {u for u in self.counters if self.counters[u].nationality == "NVA"}:
            problems.append("a non-NVA unit is a Battlegroup")
        if self.air < 0 or self.naval < 0:
            problems.append("negative air or naval strength")
        vp = self.vp_function()["total"]
        if vp != self.vp:
            problems.append(f"VP track {self.vp} differs from the state function {vp} (YOTR-VIC-SCORE)")
        return problems

    @classmethod
    def victory_facts(cls) -> VictoryFacts:
        """What decides the game (YOTR-VIC-LEVELS), declared for shared code (issue #29 item 4): ``victory.victory_facts``."""
        from .victory import victory_facts

        return victory_facts()


#: a counter id in a text: ``describe``'s forms ("NVA 5-6 (nva_3)", "NVA Battlegroup 2-1-6 (nva_3)", "dummy
#: dummy_1") and a bare id ("arvn_qt_4", not "hidden@3609#1"); ``display_text`` keeps the words that are not ids
#: YOTR-SUP-A/B: a Communist unit's supply state (``supply.communist_supply``) in the rules' words
_SUPPLY_WORDS = {"attack_supply": "Attack Supply", "general_supply": "General Supply"}
_SUPPLY_STATE = re.compile(r"\b(?:attack_supply|general_supply)\b")
#: a hex number standing alone in a text, not inside brackets or a longer number (issue #31)
_HEX_NUMBER = re.compile(r"(?<![(\d.\-@])\b(\d{4})\b(?![)\d.\-#])")
_UNIT = re.compile(
    r"(?P<face>\b(?:USA|ROK|ARVN|NVA|NLF) (?:Battlegroup )?[^\s()]+) \((?P<uid>[a-z][a-z0-9_]*)\)"
    r"|\bdummy (?P<did>[a-z][a-z0-9_]*)(?![\w])|(?<![\w@])(?P<bare>[a-z][a-z0-9_]*)(?![\w])"
)
