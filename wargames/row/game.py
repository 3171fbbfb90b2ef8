"""Vietnam: Rumor of War (Compass Games 2019) on the shared core: the game object of "A Year in I Corps".

The sequence of play is ``data/row/sequence.yaml`` (ROW-3.0): each season a Strategic Phase (supply, HQ
re-freshing, missions), a Turn Phase (reinforcements, routed HQs, VC recruitment), the Communist player turn, the
Capitalist player turn (each a round-by-round alternating step of HQ activations, ROW-9.2, with the other side's
reserve move as a reaction window, ROW-4.7) and the End Phase (victory points, ROW-12.1).  Every rule is one of the
rules modules of this package (``movement``, ``control``, ``supply``, ``hq``, ``resolve``, ``victory``); this module
keeps the state and the map picture, and the steps that ask the players are the phase modules, in the order of the
rules' table of contents:

* ``setup_phase``: the set-up (2.3);
* ``strategic``: A) the Strategic Phase (12.2, 7.x, 9.3, 14.4, the air-war steps, 9.5 missions);
* ``naval`` (B1, 11.x) and ``reinforce``: B) the Turn Phase (reinforcements, replacements, routed HQs, VC
  recruitment, 13.x, 9.1);
* ``activation``: the player turns' Activation Phase (9.2), with ``ground_moves`` (4.4, 4.7, 14.1) and
  ``fight`` (one combat, 5.0);
* ``end_phase``: the end of the player turns and C) the End Phase (9.5 effects, 14.x, 12.1);
* ``outcomes``: what the steps share (a move made, an HQ routed, a unit eliminated, VPs awarded, SNAFU draws);
* ``air``, ``politics``, ``trail``, ``sow``, ``tunnels``: the optional rules a scenario may bring in.

Simplifications and readings of this first playable version are decisions R-GAME-01 .. R-GAME-16 of
``data/row/decisions.csv``; each step that a simplification touches says so in its ruling.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace as dc_replace
from typing import Any, ClassVar

from ..core import Action, Explained, Game, IllegalAction, Player
from ..core.data import DataError, game_dir
from ..core.gametype import GameType, VictoryFacts
from ..core.journal import JournalDict, JournalList, JournalSet, JournalTree, Tracked
from ..core.placement import Placement
from ..core.state import StateDecl, StateField, by_key, in_order, members
from . import hq as H
from . import movement
from . import victory as V
from .activation import ActivationMixin
from .air import AirMixin
from .end_phase import EndPhaseMixin
from .fight import FightMixin
from .ground_moves import GroundMovesMixin
from .hexmap import PlaceRow, RowMap, hex_lonlat, load_map
from .lesson import LessonMixin
from .naval import NavalMixin
from .outcomes import OutcomesMixin, plain_actions
from .pieces import CAPITALIST, COMMUNIST, TURN_ORDER, Piece, Situation
from .politics import PoliticsMixin
from .randomevents import (
    SnafuCup,
)
from .reinforce import ReinforceMixin
from .scenario import RowScenario, load_row_sequence, load_scenario
from .setup_phase import SetupMixin
from .sow import SowMixin
from .strategic import StrategicMixin
from .supply import (
    LocTracer,
    Pools,
    supply_tables,
)
from .trail import TrailMixin
from .tunnels import TunnelMixin
from .units import load_units

SIDES = TURN_ORDER
BOXES = ("reinforcements", "vc_cup", "replacements", "routed", "destroyed", "unformed")
COMMANDERS = {"westmoreland": "Westmoreland", "abrams": "Abrams", "weyand": "Weyand"}
VP_FIELDS = (
    "us_military_victory",
    "us_unrest",
    "unrest_floor",
    "body_count",
    "casualties",
    "pow",
    "secret_ops",
    "secret_ops_allowed",
    "winner",
)


_SCENARIO_MAPS: dict[str, RowMap] = {}
_PIECES: dict[tuple, Piece] = {}
_WINDOW_LAND: dict[tuple[int, int], frozenset[str]] = {}  # land hexes of a scenario's window (static)


def scenario_map(sc: RowScenario) -> RowMap:
    """ROW-14.4 / R-SCN-11: the map with the scenario's own supply sources added (Chu Lai in A Year in I Corps),
    so LoC traces and Capitalist control see them.  One map object per scenario, so the rules modules' caches
    (keyed by the map) are shared by every game of it.  Sources that open on a later turn are not supported
    (none in this scenario; the load refuses them, decision R-GAME-15)."""
    if sc.id in _SCENARIO_MAPS:
        return _SCENARIO_MAPS[sc.id]
    m = load_map()
    places = dict(m.places)
    places_in = {h: tuple(v) for h, v in m.places_in.items()}
    for src in sc.supply_sources:
        if src.from_turn > sc.first_turn:
            raise IllegalAction(
                "ROW-14.4",
                f"scenario {sc.id}: a supply source opening on turn {src.from_turn} is "
                "not supported by this version (decision R-GAME-15)",
            )
        old = places.get(src.place or "")
        if old is not None and old.hex == src.hex:
            new = old.model_copy(update={"supply": src.nationality})
        else:
            lon, lat = hex_lonlat(src.hex)
            new = PlaceRow(
                id=f"scenario_{src.hex}",
                name=f"scenario supply source {src.hex}",
                hex=src.hex,
                lat=lat,
                lon=lon,
                country=m.country(src.hex),
                area=m.area(src.hex),
                kind="site",
                recruit_draws=0,
                supply=src.nationality,
            )
        places[new.id] = new
        places_in[src.hex] = tuple(p for p in places_in.get(src.hex, ()) if p.id != new.id) + (new,)
    out = dc_replace(m, places=places, places_in=places_in) if sc.supply_sources else m
    _SCENARIO_MAPS[sc.id] = out
    return out


def _markers(markers: Any) -> dict[str, list[str]]:
    """Each unit's markers, sorted."""
    return {k: sorted(v) for k, v in sorted(markers.items())}


def _objectives(objectives: Any) -> dict[str, dict[str, Any]]:
    """The Objective markers on the map, by hex (ROW-12.1.3)."""
    return {h: dict(v) for h, v in sorted(objectives.items())}


def _tree(value: Any) -> Any:
    """A nested record (a JournalTree) as plain dicts, in its own order (the optional rules' state, ``pol``)."""
    if isinstance(value, dict):
        return {k: _tree(v) for k, v in value.items()}
    return value


def _obj_pool(pool: Any) -> dict[str, int]:
    """How many Objective markers of each value are left in the pool (ROW-12.1.3)."""
    return {str(k): v for k, v in sorted(pool.items())}


def _activation(act: Any) -> dict[str, Any] | None:
    """The activation under way (ROW-9.2), as plain data; None between activations."""
    if act is None:
        return None
    return {
        "side": act.side,
        "hq": act.hq,
        "step": act.step,
        "units": list(act.units),
        "declared": {u: list(v) for u, v in sorted(act.declared.items())},
        "one_hex": sorted(act.one_hex),
        "reserve_hq": act.reserve_hq,
        "hq_moved": act.hq_moved,
    }


class RowGame(
    LessonMixin,
    OutcomesMixin,
    SetupMixin,
    StrategicMixin,
    ActivationMixin,
    GroundMovesMixin,
    FightMixin,
    EndPhaseMixin,
    AirMixin,
    NavalMixin,
    PoliticsMixin,
    TrailMixin,
    SowMixin,
    ReinforceMixin,
    TunnelMixin,
    Game,
):
    """Vietnam: Rumor of War, "A Year in I Corps": four seasons, Communist against Capitalist."""

    game_type = GameType(
        id="row",
        title="Vietnam: Rumor of War",
        sides=SIDES,
        players=(2,),
        map_kind="hex",
        hidden_information=True,
        rule_prefix="ROW",
        default_scenario="year-in-i-corps",
        publisher="Compass Games 2019",
        model="headquarters, supply and attrition: HQs with a line of communications activate a few units at a "
        "time, the enemy answers with reserves, and losses feed Body Count and US Casualties towards 31 VP",
    )
    #: ROW-14.6.1: the Ho Chi Minh Trail status, and ROW-9.2: the activation under way (the rules' own bookkeeping:
    #: journalled, never stated in a ruling); both journalled attributes (core.journal.Tracked)
    trail_status: int = Tracked("track")  # type: ignore[assignment]
    act: H.Activation | None = Tracked("state", told=False)  # type: ignore[assignment]
    #: the state, declared once (core.state): every field is journalled (core.journal; issue #29 item 2), so every
    #: change is in a ruling by construction (issue #13), except the rules' own bookkeeping (the activation under
    #: way, the SOW wings flown this season), journalled and never told; the Air Display (airwar) and the optional
    #: rules' state (pol) are written only when present, so A Year in I Corps keeps its digest; ``pos`` indexes
    #: itself (core.placement), ``version`` counts changes for the caches
    declared_state = StateDecl(
        (
            StateField("pos", by_key, journalled=True),
            StateField("box", by_key, journalled=True),
            StateField("fresh", by_key, journalled=True),
            StateField("markers", _markers, journalled=True),
            StateField("pools", by_key, journalled=True),
            StateField("vp", dict, journalled=True),
            StateField("missions", dict, journalled=True),
            StateField("restricted", dict, journalled=True),
            StateField("passed", dict, journalled=True),
            StateField("snafu", members, journalled=True),
            StateField("trail_status", journalled=True),
            StateField("tunnels", by_key, journalled=True),
            StateField("works", by_key, journalled=True),
            StateField("lz", in_order, journalled=True),
            StateField("fire_bases", by_key, journalled=True),
            StateField("leaders", by_key, journalled=True),
            StateField("inside", by_key, omit_empty=True, journalled=True),
            StateField("chit_hexes", members, journalled=True),
            StateField("objectives", _objectives, journalled=True),
            StateField("obj_pool", _obj_pool, journalled=True),
            StateField("act", _activation, journalled=True, explained="bookkeeping"),
            StateField("airwar", omit_empty=True, method="air_public", journalled=True),
            StateField("pol", _tree, omit_empty=True, journalled=True),
        ),
        derived=frozenset({"version"}),
        cache=frozenset({"_cache"}),
        static=frozenset({"scenario", "map", "rows", "window", "window_land", "start_hex", "all_ids"}),
    )
    #: VP tracks move only by a ROW-12.1 ruling (journalled, and still diffed for the rule)
    explained = (
        Explained("vp.us_military_victory", "rule", rule="ROW-12.1"),
        Explained("vp.us_unrest", "rule", rule="ROW-12.1"),
    )

    # ------------------------------------------------------------------ data and state
    def load_sequence(self):
        """ROW-3.0: the sequence of play, cross-checked by ``scenario.load_row_sequence`` (rule ids, predicates,
        who activates and who reacts)."""
        return load_row_sequence()

    #: the load options Rumor of War reads (besides the core's ``position`` and ``dice``)
    load_options: ClassVar[frozenset[str]] = frozenset({"extras"})
    #: the game rolls six- and ten-sided dice (a 0 on the D10 reads 10), so a lesson may fix a die at up to 10
    die_faces: ClassVar[int] = 10

    def load_scenario(self, scenario: str) -> None:
        unknown = sorted(set(self.game_options) - self.load_options)
        if unknown:  # issue #30 item 11: an unknown option is refused, never silently ignored
            raise DataError(
                game_dir("row") / "scenarios" / f"{scenario}.yaml",
                f"unknown option {unknown[0]!r}; options are {sorted(self.load_options)}",
                column="options",
            )
        self.scenario = load_scenario(scenario)
        if self.options.get("extras"):  # a what-if: the optional blocks of scenario_extras (12.2, 14.x)
            from .scenario_extras import with_extras

            self.scenario = with_extras(self.scenario, self.options["extras"])
        self.map = scenario_map(self.scenario)
        self.rows = load_units()
        self.window = self.scenario.map_window
        #: the land hexes inside the scenario's window (special rule map_window, R-SCN-01)
        self.window_land = frozenset(
            h for h, r in self.map.hexes.items() if r.kind != "sea" and self.window.contains(h)
        )
        start = {p.unit: p.hex for p in self.scenario.setup}
        start.update({r.unit: r.at for r in self.scenario.reinforcements})
        self.start_hex = start
        ids = [p.unit for p in self.scenario.setup] + [r.unit for r in self.scenario.reinforcements]
        ids += list(self.scenario.vc_cup.units)
        # 14.1.1: the battalions (ARVN regiments) the scenario's regiments, brigades, cadres and divisions may create
        ids += sorted(
            u for u, r in self.rows.items() if r.kind == "unit" and r.has("created") and r.parent in ids
        )
        sc = (
            self.scenario
        )  # 12.2 PRC units and 14.8 ready Special Forces of the optional blocks (scenario_extras)
        ids += list(sc.politics.china.prc_units) if sc.politics and sc.politics.china else []
        ids += list(sc.sow.special_forces_ready) if sc.sow else []
        self.all_ids = tuple(ids)

    def new_state(self) -> None:
        self._cache: dict[str, Any] = {}
        j = self._journal  # the main state is journalled: each ruling lists what it changed (core.journal)
        # piece -> hex, with the reverse index hex -> pieces, sorted (core.placement)
        self.pos: Placement = Placement(journal=j, field="pos", key="piece", ordered=True)
        self.box: dict[str, str] = JournalDict(
            (
                (uid, "unformed" if self.rows[uid].has("created") else "reinforcements")
                for uid in self.all_ids
            ),
            journal=j,
            field="box",
            key="piece",
        )
        self.fresh: dict[str, bool] = JournalDict(
            ((uid, True) for uid in self.all_ids), journal=j, field="fresh", key="piece", flag=True
        )
        # each unit's markers, a tuple replaced whole (never changed in place): journalled like the pieces
        self.markers: dict[str, tuple[str, ...]] = JournalDict(
            ((uid, ()) for uid in self.all_ids), journal=j, field="markers", key="piece"
        )
        self.pools: dict[str, int] = JournalDict(Pools.start().values, journal=j, field="pools", key="track")
        self.vp: dict[str, Any] = JournalDict(
            ((k, getattr(V.VictoryState(), k)) for k in VP_FIELDS), journal=j, field="vp", key="track"
        )
        # the sides' missions, Restricted Ops and passes, the map's tunnels, works, Fire Bases and leaders, and the
        # Objective pool: journalled too (plain values, changed only through the dicts' own mutators)
        self.missions: dict[str, str | None] = JournalDict(
            {CAPITALIST: None, COMMUNIST: None}, journal=j, field="missions", key="side"
        )
        self.restricted: dict[str, str] = JournalDict(
            {CAPITALIST: "none", COMMUNIST: "none"}, journal=j, field="restricted", key="side"
        )
        self.passed: dict[str, bool] = JournalDict(
            {CAPITALIST: False, COMMUNIST: False}, journal=j, field="passed", key="side"
        )
        # ROW-6.1: the counters in the Cup of SNAFU (drawn, placed and returned through the set's own mutators)
        self.snafu: JournalSet = JournalSet(SnafuCup.full().counters, journal=j, field="snafu", key="counter")
        self.trail_status = 0  # ROW-14.6.1: the Ho Chi Minh Trail status (Tracked: every change journalled)
        self.tunnels: dict[str, str] = JournalDict(journal=j, field="tunnels", key="hex")
        self.works: dict[str, str] = JournalDict(journal=j, field="works", key="hex")
        # Landing Zones (14.1.2), for the activation: sorted, changed in place
        self.lz: list[str] = JournalList(journal=j, field="lz")
        # hex -> "Fire Base" or "Hot FB" (14.1.2)
        self.fire_bases: dict[str, str] = JournalDict(journal=j, field="fire_bases", key="hex")
        # ground commander -> the HQ he is with (14.2.2)
        self.leaders: dict[str, str] = JournalDict(journal=j, field="leaders", key="commander")
        # 14.3: Communist units inside a tunnel: unit -> the tunnel's hex (they leave it when they leave the hex)
        self.inside: dict[str, str] = JournalDict(journal=j, field="inside", key="piece")
        # 5.1 / 12.1.3: the hexes with a chit this Activation Phase, and the Objective markers on the map by hex
        self.chit_hexes: list[str] = JournalList(journal=j, field="chit_hexes")
        self.objectives: dict[str, dict[str, Any]] = JournalTree(journal=j, field="objectives", key="hex")
        self.obj_pool: dict[int, int] = JournalDict(
            self.scenario.objective_pool.values, journal=j, field="obj_pool", key="value"
        )
        self.act = None
        # the Air Display and the 7th Fleet (air.py, naval.py), journalled at every depth; empty without them
        self.airwar: dict[str, Any] = JournalTree(journal=j, field="airwar", key="item")
        self.version = 0
        #: the state of 12.2, 14.2.1, 14.5, 14.6.1, 14.7.2 and 14.8 (politics.py, trail.py, sow.py): {} without them
        self.pol: dict[str, Any] = JournalTree(
            self._pol_start(), journal=j, field="pol", untold=("sow_done",)
        )  # the SOW wings flown this season (14.8) are the rules' bookkeeping: journalled, never told
        sc = self.scenario
        for u in sc.politics.china.prc_units if sc.politics and sc.politics.china else []:
            self.box[u] = "china"
        for u in sc.sow.special_forces_ready if sc.sow else []:
            self.box[u] = "sf_ready"

    def map_layers(self, side: str | None = None) -> dict[str, Any]:
        """The map as semantic layers, units and HQs as ``side`` may see them (issue #14 item 2)."""
        from .mapdata import map_layers

        return map_layers(self, side)

    def public_state(self, side: str | None) -> dict[str, Any]:
        """ROW-14.3 / ROW-13.1.2: the Capitalist does not see Hidden tunnels nor which VC units wait in the cup (not
        in ``box``, ``fresh`` or ``markers``: only how many, issue #30 item 8).  ROW-12.1.3: a face-down Objective
        marker's value is unknown to both players until it is revealed, and so is what is left in the pool (only
        how many markers, issue #30 item 7)."""
        st = self.state_dict()
        if side is None:
            return st
        st["objectives"] = {
            h: (v if v["revealed"] else {**v, "value": None}) for h, v in st["objectives"].items()
        }
        st["obj_pool"] = {"markers": sum(self.obj_pool.values())}
        if side == CAPITALIST:
            cup = {u for u, b in self.box.items() if b == "vc_cup"}
            st["tunnels"] = {h: s for h, s in st["tunnels"].items() if s != "Hidden"}
            st["box"] = {u: b for u, b in st["box"].items() if u not in cup}
            st["vc_cup_size"] = len(cup)
            for key in ("fresh", "markers"):
                value = st.get(key)
                if isinstance(value, dict):
                    st[key] = {u: v for u, v in value.items() if u not in cup}
                elif isinstance(value, list):
                    st[key] = [u for u in value if u not in cup]
        return st

    def scores(self) -> dict[str, Any]:
        return {name: self.vp[key] for key, name in VP_NAMES.items()}

    def invariants(self) -> list[str]:
        bad = []
        placed = set(self.pos) | set(self.box)
        if placed != set(self.all_ids) or set(self.pos) & set(self.box):
            bad.append("ROW-2.3: every piece is on the map or in exactly one box")
        if set(self.fresh) != set(self.all_ids):
            bad.append("ROW-9.3: every piece is fresh or spent")
        for k, v in self.pools.items():
            row = supply_tables().tracks[k]
            if v < row.minimum or (row.maximum is not None and v > row.maximum):
                bad.append(f"ROW-7.1: {k} = {v} outside {row.minimum}-{row.maximum}")
        for k in ("us_military_victory", "us_unrest", "body_count", "casualties"):
            if self.vp[k] < 0:
                bad.append(f"ROW-12.1: {k} negative")
        full = set(SnafuCup.full().counters)
        if not set(self.snafu) <= full:  # a set: no counter is in the cup twice
            bad.append("ROW-6.1: the Cup of SNAFU holds an unknown counter")
        if self.act is None:
            for side in SIDES:
                over = movement.stacking_check(self.situation(), side).result
                if over:
                    bad.append(f"ROW-4.2: {side} overstacked between activations: {over}")
        index: dict[str, list[str]] = {}
        for uid, h in self.pos.items():
            index.setdefault(h, []).append(uid)
        if {h: sorted(v) for h, v in index.items()} != self.at_hex:
            bad.append("the reverse index at_hex disagrees with pos")
        return bad

    # ------------------------------------------------------------------ pieces and the map picture
    def _touch(self) -> None:
        self.version += 1

    @property
    def at_hex(self) -> dict[str, list[str]]:
        """The pieces on each hex, sorted: the reverse index of ``pos`` (core.placement)."""
        return self.pos.index

    def place(self, uid: str, hid: str | None, box: str = "") -> None:
        """Put a piece on a hex (``hid``) or in a box (``box``), keeping the reverse index."""
        self.pos.pop(uid, None)
        self.box.pop(uid, None)
        if uid in self.inside and self.inside[uid] != hid:  # 14.3: leaving the hex, it leaves the tunnel
            del self.inside[uid]
        if hid is not None:
            self.pos[uid] = hid
        else:
            self.box[uid] = box
        self._touch()

    def side_of(self, uid: str) -> str:
        return self.rows[uid].side

    def piece(self, uid: str) -> Piece:
        key = (
            id(self.scenario),
            uid,
            self.pos[uid],
            self.fresh[uid],
            tuple(self.markers[uid]),
            self._in_hidden_tunnel(uid),
        )
        got = _PIECES.get(key)  # a Piece is immutable: the same facts give the same Piece (a speed-up only)
        if got is None:
            if len(_PIECES) > 50000:
                _PIECES.clear()
            got = _PIECES[key] = self._make_piece(uid)
        return got

    def _in_hidden_tunnel(self, uid: str) -> bool:
        """ROW-14.3: a Communist unit inside a tunnel that is still Hidden (it cannot be attacked, projects no ZoC
        and does not control its hex); once the tunnel is Discovered the unit is fought as if on the surface."""
        h = self.inside.get(uid)
        return h is not None and h == self.pos.get(uid) and self.tunnels.get(h) == "Hidden"

    def _make_piece(self, uid: str) -> Piece:
        r = self.rows[uid]
        kind = "hq" if r.kind == "hq" else "unit"
        hq_class = ""
        if kind == "hq":
            acts = set(r.activates_nations)
            hq_class = "Capitalist" if {"US", "ARVN"} <= acts else r.nationality
        us_like = r.nationality in ("US", "ROK", "Thai", "Aus")
        return Piece(
            uid,
            r.side,
            r.nationality,
            self.pos[uid],
            kind=kind,
            unit_type=r.unit_type if kind == "unit" else "regiment",
            fresh=self.fresh[uid],
            markers=frozenset(self.markers[uid]),
            areas=frozenset(self.scenario.us_areas) if us_like else frozenset(),
            hq_class=hq_class,
            division=r.division or "",
            special_forces=r.has("special_forces"),
            in_tunnel=self._in_hidden_tunnel(uid),
        )

    def situation(self) -> Situation:
        """The map picture the rules modules read (rebuilt when the state has changed)."""
        if self._cache.get("sit_version") != self.version:
            self._cache["sit_version"] = self.version
            self._cache["sit"] = Situation.of(
                (self.piece(u) for u in sorted(self.pos)),
                fire_bases=frozenset(self.lz) | frozenset(self.fire_bases),
                invaded=self.invaded(),
            )
        return self._cache["sit"]

    def tracer(self) -> LocTracer:
        """ROW-14.4: the LoC tracer of the present map picture.  LoCs depend on where pieces stand and on their
        markers (a Routed unit has no ZoC), not on fresh or spent, so one tracer serves until a piece moves.  The
        map it reads carries the scenario's own supply sources (``scenario_map``)."""
        key = (
            tuple(sorted(self.pos.items())),
            tuple(sorted((u, tuple(m)) for u, m in self.markers.items() if m and u in self.pos)),
            self.missions[COMMUNIST],
            self.trail_status,
            tuple(self.lz),
            tuple(sorted(self.fire_bases)),
            tuple(sorted(self.trail_markers())),
        )
        tracers = self._cache.setdefault("tracers", {})
        if key not in tracers:
            if len(tracers) > 16:
                tracers.clear()
            # 14.7.1: trail termini 1..status less the Trail Interdicted markers are active (trail.py)
            termini = frozenset(self.map.terminus(n) for n in self.active_terminus_numbers())
            tr = LocTracer(
                self.situation(), self.map, mission=self.missions[COMMUNIST], active_termini=termini
            )
            # special rule map_window (R-SCN-01): only hexes inside the window are in play, LoC traces included
            key_land = (id(self.map), id(self.scenario))
            if key_land not in _WINDOW_LAND:
                _WINDOW_LAND[key_land] = tr.land & self.window_land
            tr.land = _WINDOW_LAND[key_land]
            tracers[key] = tr
        return tracers[key]

    def pools_obj(self) -> Pools:
        return Pools(self.pools)

    def set_pools(self, pools: Pools) -> None:
        _assign(self.pools, pools.values)

    def vstate(self) -> V.VictoryState:
        return V.VictoryState(**self.vp)

    def set_vstate(self, s: V.VictoryState) -> None:
        _assign(self.vp, {k: getattr(s, k) for k in VP_FIELDS})

    def enter_fresh(
        self,
        side: str,
        uid: str,
        spots: list[str],
        rule_id: str,
        *,
        kind: str,
        option: str,
        key: str,
        prompt: str,
        label: str,
        title: str,
        text: str,
    ):
        """A piece off the map comes back fresh at one of ``spots`` (a routed HQ at a supply source, ROW-9.1; a PRC
        unit at the north edge, ROW-12.2): ``side`` chooses the hex (a decision of ``kind`` whose options are
        ``option`` actions naming the piece as ``key``), the piece is placed fresh and a ruling says where."""
        name = self.rows[uid].name
        a = yield self.decide(
            side,
            prompt,
            rule_id,
            [Action.make(option, f"{name} {label} {h}", [h], hex=h, **{key: uid}) for h in spots],
            kind=kind,
        )
        self.place(uid, a["hex"])
        self.fresh[uid] = True
        self._touch()
        yield self.ruling(
            rule_id,
            title,
            f"{name} {text} {a['hex']}.",
            result={key: uid, "hex": a["hex"]},
            places=[a["hex"]],
        )

    def choose_one(
        self,
        side: str,
        prompt: str,
        rule_id: str,
        items: list[str],
        *,
        kind: str,
        option: str,
        key: str,
        label: Callable[[str], str],
        places: Callable[[str], list[str]] | None = None,
        check: Callable[[Action], IllegalAction | None] | None = None,
    ):
        """One of ``items``: the only one without asking, else ``side`` chooses (a decision of ``kind`` whose options
        are ``option`` actions naming the item as ``key``, with ``label`` and ``places`` for each).  Returns it."""
        if len(items) == 1:
            return items[0]
        a = yield self.decide(
            side,
            prompt,
            rule_id,
            [Action.make(option, label(x), places(x) if places else (), **{key: x}) for x in items],
            check=check,
            kind=kind,
        )
        return a[key]

    def in_window(self, actions: list[Action]) -> list[Action]:
        """Special rule map_window (R-SCN-01): no piece may end a move outside the scenario's window."""
        return [a for a in actions if a.kind != "move" or a["to"] in self.window_land]

    def moves(self, uid: str, mode: str, **kw: Any) -> list[Action]:
        """ROW-4.1 and the rule of ``mode``: the destinations of one movement (``movement.move_options``); the
        last option is to stay.  [] when the piece may not make this movement at all (the reason is the rule's)."""
        try:
            opts = movement.move_options(
                self.situation().piece(uid),
                self.situation(),
                mode,
                mission=self.missions[self.side_of(uid)],
                m=self.map,
                **kw,
            )
        except IllegalAction:
            return []
        opts = self.in_window(plain_actions(opts))
        stay = [a for a in opts if a.kind == "stay"]
        return [a for a in opts if a.kind != "stay"] + stay

    @property
    def season(self) -> int:
        """ROW-3.0: the calendar turn (data/row/calendar.csv) of the engine's game turn; a scenario's first game turn
        is its first calendar turn (Winter 1968 = 11 for the Tet Offensive, decision R-SCN-29)."""
        return self.turn + self.scenario.first_turn - 1

    def commander(self, side: str) -> str | None:
        c = self.commander_id(
            side
        )  # 14.2.1: the scenario's, or the one a change put in command (politics.py)
        return COMMANDERS.get(c) if c else None

    def display_name(self, key: str, side: str | None = None) -> str:
        """Units and HQs by their names (``units.csv``), hexes with a city, town, base or named site (``map/places.csv``:
        the Rockpile, a pass, a valley) by its name and number."""
        if key in self.rows:
            return self.rows[key].name
        if key in self.map.hexes:
            names = [
                p.name for p in self.map.places_in.get(key, ()) if p.kind in ("city", "town", "base", "site")
            ]
            return f"{' / '.join(names)} ({key})" if names else key
        return key

    def display_text(self, text: str, side: str | None = None) -> str:
        """Unit and HQ ids in a prompt or a ruling's text (``vc_lf_09``) replaced by their names, and a hex number
        standing alone (``Advance into 3854?``) by its town's name and number (``Quang Ngai (3854)``) where the
        hex has a town, city or base (issue #31); a supply purchase (``trail_status_plus_1``, ROW-7.1) by what it buys,
        from the price list (``supply_costs.csv``)."""

        from .supply import supply_tables

        costs = supply_tables().costs
        named = self.id_names()

        def word(m: re.Match[str]) -> str:
            key = m.group(0)
            if key in self.rows:
                return self.rows[key].name
            if key in costs:
                return f"'{costs[key].description}'"
            return named.get(key, key)

        text = re.sub(r"(?<![/\w])[a-z][a-z0-9]*_[a-z0-9_]+\b(?!\.\w)", word, text)
        text = self._proper_ids().sub(lambda m: self.rows[m.group(1)].name, text)
        text = re.sub(r"\b(ME_HASTY|PREP_DELIB)\b", lambda m: _MUGS[m.group(1)], text)  # ROW-5.2.1
        return re.sub(r"(?<![(\d])\b(\d{4})\b(?![)\d])", lambda m: self.display_name(m.group(1), side), text)

    def _proper_ids(self) -> re.Pattern[str]:
        """The units whose id is one small-letter word of their proper name (the leaders ``westmoreland``,
        ``abrams``: "William Westmoreland"), as whole words; a plain word is never such an id."""
        hit = _PROPER.get(self.scenario.id)
        if hit is None:
            ids = [
                k
                for k, r in self.rows.items()
                if k.isalpha() and k.islower() and k.capitalize() in r.name.split()[1:]
            ]
            alt = "|".join(sorted(ids, key=len, reverse=True)) or "(?!)"
            hit = _PROPER[self.scenario.id] = re.compile(rf"(?<![\w-])({alt})(?![\w-])")
        return hit

    def id_names(self) -> dict[str, str]:
        """The names a student reads for the ids of this game's data that a ruling's text or a change line may
        carry (issue #31 item 3), each from its data file: places (``map/places.csv``: ``chu_lai`` -> Chu Lai),
        aircraft counters, aces, airfields and air mission boxes (``air/*.csv``), HQ missions (``tables/hq_missions.csv``
        labels), the off-map boxes (``tables/boxes.csv``), the kinds of decision (``decision_kinds.csv``: also the modes of a move, ``early_exploitation``), the
        victory tracks (``VP_NAMES``, the names the score board uses), this scenario's VP awards (their ``name`` in
        the scenario file, ``cities_held`` -> "Province capitals held") and its special rules (which have no name:
        the id read as words, ``chinese_intervention_moot`` -> "chinese intervention moot")."""
        cached = _ID_NAMES.get(self.scenario.id)
        if cached is not None:
            return cached
        from ..core.lesson import decision_kinds
        from .airdata import aces, aircraft_counters, airfields, mission_boxes

        # a kind of decision (``decision_kinds.csv``), also a movement's mode: "early_exploitation" -> its name
        out: dict[str, str] = {k: row.name for k, row in decision_kinds("row").items()}
        out.update({a.id: a.name for a in self.scenario.victory.awards})
        out.update({r.id: r.id.replace("_", " ") for r in self.scenario.special_rules})
        out.update(_box_names())
        out.update({p.id: p.name for p in self.map.places.values()})
        out.update({k: a.name for k, a in airfields().items()})
        out.update({k: b.name for k, b in mission_boxes().items()})
        out.update({k: a.name for k, a in aircraft_counters().items()})
        out.update({k: a.name for k, a in aces().items()})
        out.update({m.mission: m.label for m in V.missions_table().values()})
        out.update(VP_NAMES)
        _ID_NAMES[self.scenario.id] = out
        return out

    def default_player(self, side: str) -> Player:
        from .bots import RowBot

        return RowBot(side, seed=self.seed)

    @classmethod
    def victory_facts(cls) -> VictoryFacts:
        """What decides the game (ROW-12.1), declared for shared code (issue #29 item 4): ``victory.victory_facts``."""
        from .victory import victory_facts

        return victory_facts()


def _box_names() -> dict[str, str]:
    """The off-map boxes by name (``data/row/tables/boxes.csv``: ``sf_ready`` -> "Special Forces ready (off the
    map)"); every box of ``BOXES`` must have a row (a clear error naming the file otherwise)."""
    import csv

    path = game_dir("row") / "tables" / "boxes.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        names = {r["id"]: r["name"] for r in csv.DictReader(fh)}
    missing = [b for b in (*BOXES, "sf_ready") if b not in names]
    if missing:
        raise DataError(path, f"no row for the box(es) {missing}")
    return names


#: ``RowGame.id_names`` by scenario id (the data it reads does not change while the process runs)
_ID_NAMES: dict[str, dict[str, str]] = {}
#: ``RowGame._proper_ids`` by scenario id
_PROPER: dict[str, re.Pattern[str]] = {}

#: ROW-12.1: the victory tracks (``vp`` keys) by the names the score board shows
VP_NAMES = {
    "us_military_victory": "US Military Victory",
    "us_unrest": "US Unrest",
    "body_count": "Body Count",
    "casualties": "US Casualties",
}

#: ROW-5.2.1: the two chit mugs (``combat_chits.csv``) as a student reads them
_MUGS = {"ME_HASTY": "Meeting Engagement/Hasty", "PREP_DELIB": "Prepared/Deliberate"}


def _assign(store: dict[str, Any], values: dict[str, Any]) -> None:
    """Make ``store`` hold exactly ``values``, in place (a journalled store writes down the keys that change)."""
    for k in [k for k in store if k not in values]:
        del store[k]
    for k, v in values.items():
        if k not in store or store[k] != v:
            store[k] = v
