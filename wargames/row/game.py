"""Vietnam: Rumor of War (Compass Games 2019) on the shared core: the game object of "A Year in I Corps".

The sequence of play is ``data/row/sequence.yaml`` (ROW-3.0): each season a Strategic Phase (supply, HQ
re-freshing, missions), a Turn Phase (reinforcements, routed HQs, VC recruitment), the Communist player turn, the
Capitalist player turn (each a round-by-round alternating step of HQ activations, ROW-9.2, with the other side's
reserve move as a reaction window, ROW-4.7) and the End Phase (victory points, ROW-12.1).  Every rule is one of the
rules modules of this package (``movement``, ``control``, ``supply``, ``hq``, ``resolve``, ``victory``); this module
keeps the state and asks the players.

Simplifications and readings of this first playable version are decisions R-GAME-01 .. R-GAME-16 of
``data/row/decisions.csv``; each step that a simplification touches says so in its ruling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import Any

from ..core import Action, Explained, Game, IllegalAction, Player
from ..core.gametype import GameType
from ..core.journal import JournalDict
from ..core.rulings import Ruling
from . import hq as H
from . import movement
from . import victory as V
from .air import AirMixin
from .chits import draw_chits
from .combat import ATTACKER, CombatSides, CombatUnit, SupportSituation, support_levels
from .control import allowed_hexes, capitalist_controlled, enemy_zoc, in_enemy_zoc
from .hexmap import PlaceRow, RowMap, hex_lonlat, load_map
from .leaders import planning_relief, westmoreland_arvn
from .naval import NavalMixin
from .pieces import CAPITALIST, COMMUNIST, Piece, Situation
from .politics import PoliticsMixin
from .randomevents import (
    SnafuCup,
    counter_row,
    draw_snafu,
    faces,
    key_officer,
    place_snafu,
    placement_options,
)
from .reinforce import ReinforceMixin
from .scenario import RowScenario, load_row_sequence, load_scenario, turn_label
from .sow import SowMixin
from .supply import (
    LocTracer,
    Pools,
    Spender,
    change,
    change_infrastructure,
    determine_supply,
    ooc_sweep,
    pay,
    payment_options,
    supply_tables,
)
from .tables import tables, terrain_factor
from .trail import TrailMixin
from .tunnels import TunnelMixin
from .units import load_units

SIDES = (COMMUNIST, CAPITALIST)
BOXES = ("reinforcements", "vc_cup", "replacements", "routed", "destroyed", "unformed")
COMMANDERS = {"westmoreland": "Westmoreland", "abrams": "Abrams", "weyand": "Weyand"}
ACC_TRACK = {"Body Count": "body_count", "US Casualties": "casualties"}
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


def other(side: str) -> str:
    return COMMUNIST if side == CAPITALIST else CAPITALIST


def _plain(actions: list[Action]) -> list[Action]:
    """Actions whose parameters are all plain values (a path becomes "h1-h2-h3"), so the record saves as JSON."""
    out = []
    for a in actions:
        if any(isinstance(v, (tuple, list)) for _, v in a.params):
            params = {k: ("-".join(map(str, v)) if isinstance(v, (tuple, list)) else v) for k, v in a.params}
            a = Action.make(a.kind, a.label, a.places, **params)
        out.append(a)
    return out


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


class RowGame(AirMixin, NavalMixin, PoliticsMixin, TrailMixin, SowMixin, ReinforceMixin, TunnelMixin, Game):
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
    static_attrs = frozenset({"scenario", "map", "rows", "window", "window_land", "start_hex", "all_ids"})
    cache_attrs = frozenset({"_cache"})
    derived_attrs = frozenset({"at_hex", "version"})
    #: VP tracks move only by a ROW-12.1 ruling (journalled, and still diffed for the rule); the pieces' places are
    #: journalled (core.journal), so every change is in a ruling by construction (issue #13)
    explained = (
        Explained("vp.us_military_victory", "rule", rule="ROW-12.1"),
        Explained("vp.us_unrest", "rule", rule="ROW-12.1"),
        Explained("act", "bookkeeping"),
    )

    # ------------------------------------------------------------------ data and state
    def load_sequence(self):
        """ROW-3.0: the sequence of play, cross-checked by ``scenario.load_row_sequence`` (rule ids, predicates,
        who activates and who reacts)."""
        return load_row_sequence()

    def load_scenario(self, scenario: str) -> None:
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
        self.pos: dict[str, str] = JournalDict(journal=j, field="pos", key="piece")
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
        self.snafu: list[str] = list(SnafuCup.full().counters)
        self.trail_status = 0
        self.tunnels: dict[str, str] = JournalDict(journal=j, field="tunnels", key="hex")
        self.works: dict[str, str] = JournalDict(journal=j, field="works", key="hex")
        self.lz: list[str] = []  # Landing Zones (14.1.2), for the activation
        # hex -> "Fire Base" or "Hot FB" (14.1.2)
        self.fire_bases: dict[str, str] = JournalDict(journal=j, field="fire_bases", key="hex")
        # ground commander -> the HQ he is with (14.2.2)
        self.leaders: dict[str, str] = JournalDict(journal=j, field="leaders", key="commander")
        self.chit_hexes: list[str] = []
        self.objectives: dict[str, dict[str, Any]] = {}
        self.obj_pool: dict[int, int] = JournalDict(
            self.scenario.objective_pool.values, journal=j, field="obj_pool", key="value"
        )
        self.act: H.Activation | None = None
        self.airwar: dict[
            str, Any
        ] = {}  # the Air Display and the 7th Fleet (air.py, naval.py); empty without them
        self.at_hex: dict[str, list[str]] = {}
        self.version = 0
        #: the state of 12.2, 14.2.1, 14.5, 14.6.1, 14.7.2 and 14.8 (politics.py, trail.py, sow.py): {} without them
        self.pol: dict[str, Any] = self._pol_start()
        sc = self.scenario
        for u in sc.politics.china.prc_units if sc.politics and sc.politics.china else []:
            self.box[u] = "china"
        for u in sc.sow.special_forces_ready if sc.sow else []:
            self.box[u] = "sf_ready"

    def state_dict(self) -> dict[str, Any]:
        act = (
            None
            if self.act is None
            else {
                "side": self.act.side,
                "hq": self.act.hq,
                "step": self.act.step,
                "units": list(self.act.units),
                "declared": {u: list(v) for u, v in sorted(self.act.declared.items())},
                "one_hex": sorted(self.act.one_hex),
                "reserve_hq": self.act.reserve_hq,
                "hq_moved": self.act.hq_moved,
            }
        )
        st = {
            "pos": dict(sorted(self.pos.items())),
            "box": dict(sorted(self.box.items())),
            "fresh": dict(sorted(self.fresh.items())),
            "markers": {k: sorted(v) for k, v in sorted(self.markers.items())},
            "pools": dict(sorted(self.pools.items())),
            "vp": dict(self.vp),
            "missions": dict(self.missions),
            "restricted": dict(self.restricted),
            "passed": dict(self.passed),
            "snafu": sorted(self.snafu),
            "trail_status": self.trail_status,
            "tunnels": dict(sorted(self.tunnels.items())),
            "works": dict(sorted(self.works.items())),
            "lz": list(self.lz),
            "fire_bases": dict(sorted(self.fire_bases.items())),
            "leaders": dict(sorted(self.leaders.items())),
            "chit_hexes": sorted(self.chit_hexes),
            "objectives": {h: dict(v) for h, v in sorted(self.objectives.items())},
            "obj_pool": {str(k): v for k, v in sorted(self.obj_pool.items())},
            "act": act,
        }
        if self.airwar:  # only with an air: or fleet: block, so A Year in I Corps keeps its digest
            st["airwar"] = self.air_public()
        if self.pol:  # only with a politics:, trail: or sow: block (politics.py), likewise
            st["pol"] = self.pol
        return st

    def map_layers(self, side: str | None = None) -> dict[str, Any]:
        """The map as semantic layers, units and HQs as ``side`` may see them (issue #14 item 2)."""
        from .mapdata import map_layers

        return map_layers(self, side)

    def public_state(self, side: str | None) -> dict[str, Any]:
        """ROW-14.3 / ROW-13.1.2: the Capitalist does not see Hidden tunnels nor which VC units wait in the cup."""
        st = self.state_dict()
        if side == CAPITALIST:
            st["tunnels"] = {h: s for h, s in st["tunnels"].items() if s != "Hidden"}
            st["box"] = {u: b for u, b in st["box"].items() if b != "vc_cup"}
            st["vc_cup_size"] = sum(1 for b in self.box.values() if b == "vc_cup")
            st["objectives"] = {
                h: (v if v["revealed"] else {**v, "value": None}) for h, v in st["objectives"].items()
            }
            st["obj_pool"] = {"markers": sum(self.obj_pool.values())}
        return st

    def scores(self) -> dict[str, Any]:
        return {
            "US Military Victory": self.vp["us_military_victory"],
            "US Unrest": self.vp["us_unrest"],
            "Body Count": self.vp["body_count"],
            "US Casualties": self.vp["casualties"],
        }

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
        if len(set(self.snafu)) != len(self.snafu) or not set(self.snafu) <= full:
            bad.append("ROW-6.1: the Cup of SNAFU holds an unknown or doubled counter")
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

    def place(self, uid: str, hid: str | None, box: str = "") -> None:
        """Put a piece on a hex (``hid``) or in a box (``box``), keeping the reverse index."""
        old = self.pos.pop(uid, None)
        if old is not None:
            self.at_hex[old].remove(uid)
            if not self.at_hex[old]:
                del self.at_hex[old]
        self.box.pop(uid, None)
        if hid is not None:
            self.pos[uid] = hid
            self.at_hex.setdefault(hid, []).append(uid)
            self.at_hex[hid].sort()
        else:
            self.box[uid] = box
        self._touch()

    def side_of(self, uid: str) -> str:
        return self.rows[uid].side

    def piece(self, uid: str) -> Piece:
        key = (id(self.scenario), uid, self.pos[uid], self.fresh[uid], tuple(self.markers[uid]))
        got = _PIECES.get(key)  # a Piece is immutable: the same facts give the same Piece (a speed-up only)
        if got is None:
            if len(_PIECES) > 50000:
                _PIECES.clear()
            got = _PIECES[key] = self._make_piece(uid)
        return got

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
        opts = self.in_window(_plain(opts))
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
        """Units and HQs by their names (``units.csv``), hexes with a town or city by its name and number."""
        if key in self.rows:
            return self.rows[key].name
        if key in self.map.hexes:
            names = [p.name for p in self.map.places_in.get(key, ()) if p.kind in ("city", "town", "base")]
            return f"{' / '.join(names)} ({key})" if names else key
        return key

    def display_text(self, text: str, side: str | None = None) -> str:
        """Unit and HQ ids in a prompt or a ruling's text (``vc_lf_09``) replaced by their names, and a hex number
        standing alone (``Advance into 3854?``) by its town's name and number (``Quang Ngai (3854)``) where the
        hex has a town, city or base (issue #31)."""
        import re

        text = re.sub(
            r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b",
            lambda m: self.rows[m.group(0)].name if m.group(0) in self.rows else m.group(0),
            text,
        )
        return re.sub(r"(?<![(\d])\b(\d{4})\b(?![)\d])", lambda m: self.display_name(m.group(1), side), text)

    def default_player(self, side: str) -> Player:
        from .bots import RowBot

        return RowBot(side, seed=self.seed)

    # ------------------------------------------------------------------ helpers that yield
    def _move(
        self, uid: str, act: Action, mode: str, mp: int | None = None, mp_spent: Fraction = Fraction(0)
    ):
        """Make one chosen move: the path is checked again by ``movement.check_move``; enemy HQs in the hex it ends
        in are routed (ROW-9.1)."""
        if act.kind != "move":
            yield self.ruling(
                movement.MODES[mode].rule_id,
                "No move",
                f"{self.piece(uid)} stays at {self.pos[uid]}.",
                result={"unit": uid, "mode": mode},
            )
            return None
        path = act["path"].split("-")
        r = movement.check_move(
            self.situation().piece(uid),
            self.situation(),
            path,
            mode,
            mp=mp,
            mp_spent=mp_spent,
            mission=self.missions[self.side_of(uid)],
            m=self.map,
        )
        self.place(uid, act["to"])
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs, places=path)
        yield from self._rout(act["to"], self.side_of(uid))
        return r

    def _rout(self, hid: str, side: str):
        """ROW-9.1: enemy HQs in a hex a unit of ``side`` has entered are routed (to the Routed HQ box)."""
        if not any(self.side_of(u) == side and self.rows[u].kind == "unit" for u in self.at_hex.get(hid, [])):
            return
        for u in list(self.at_hex.get(hid, [])):
            if self.side_of(u) != side and self.rows[u].kind == "hq":
                self.place(u, None, "routed")
                self.fresh[u] = False
                self._touch()
                yield self.ruling(
                    "ROW-9.1",
                    "HQ routed",
                    f"{self.rows[u].name} is caught by the {side} at {hid} and "
                    "is routed: it goes to the Routed HQ box and returns in its side's next Turn Phase.",
                    result={"hq": u, "hex": hid},
                    places=[hid],
                )

    def _award(self, side: str, amount: int, why: str):
        """ROW-12.1: VPs to ``side``; 31 ends the game at once (R-VIC-03)."""
        s, r = V.award(self.vstate(), side, amount, why)
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs)
        yield from self._check_win()

    def _check_win(self):
        """ROW-12.1 (R-VIC-03): a side at 31 VP wins at once."""
        s = self.vstate()
        if s.winner and not self._over:
            yield self.end(
                "ROW-12.1",
                f"The {s.winner} wins",
                V.result(s).explanation,
                result={
                    "winner": s.winner,
                    "level": "31 VP",
                    "margins": {
                        CAPITALIST: s.us_military_victory - s.us_unrest,
                        COMMUNIST: s.us_unrest - s.us_military_victory,
                    },
                },
            )

    def _accumulate(self, track: str, points: int):
        """ROW-12.1.4: points on Body Count or US Casualties; the entitled side may roll for a VP."""
        if points <= 0 or self._over:
            return
        key = ACC_TRACK[track]
        s, r, opts = V.add_points(self.vstate(), key, points)
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs)
        if s.winner:
            yield from self._check_win()
            return
        if opts:
            roller = V.ACCUMULATORS[key][1]
            a = yield self.decide(
                roller,
                f"Roll a D10 on {track} ({getattr(s, key)})?",
                "ROW-12.1.4",
                opts,
                kind="accumulator_roll",
            )
            if a.kind == "roll_accumulator":
                s, rr = V.roll_accumulator(self.vstate(), key, self.dice, vp=self._vp_value(key))
                self.set_vstate(s)
                yield self.ruling(rr.rule_id, rr.title, rr.explanation, result=rr.result, dice=rr.dice)
                if s.winner:
                    yield from self._check_win()

    def _vp_value(self, key: str) -> int:
        """ROW-9.5 / ROW-14.2.1: what a Body Count or Casualty VP is worth under the missions and commander."""
        return V.vp_value(
            "body_count" if key == "body_count" else "casualty",
            missions=dict(self.missions),
            commander={CAPITALIST: self.commander(CAPITALIST), COMMUNIST: None},
            chinese=self.china_in(),
        ).result

    def _eliminate(self, uid: str, why: str):
        """ROW-5.6 / ROW-4.2: a unit goes to the Replacements box with its loss roll (R-GAME-08)."""
        cu = self._cu(uid)
        hid = self.pos.get(uid)
        self.place(uid, None, "unformed" if self.rows[uid].has("created") else "replacements")  # 13.2
        self._clear_markers(uid)
        self.fresh[uid] = False
        self._touch()
        from .losses import elimination_roll  # the combat modules come in at the first loss (issue #21)

        er = elimination_roll(self.dice, cu)
        yield self.ruling(
            er.rule_id,
            f"{self.rows[uid].name} eliminated",
            f"{why}. {er.explanation} It goes to the Replacements box.",
            result=er.result,
            dice=er.dice,
            places=[hid] if hid else [],
        )
        if er.result["track"]:
            yield from self._accumulate(er.result["track"], er.result["amount"])

    def _stamp(self, r: Ruling) -> Ruling:
        """A ruling made by a rules module, stamped with the game's turn, phase, step and sequence number."""
        return dc_replace(
            r,
            seq=len(self.log) + 1,
            turn=self.turn,
            phase=self.phase.name if self.phase else "",
            step=self.step.id if self.step else "",
        )

    def _relay(self, gen):
        """Run a rules module's procedure (``resolve.resolve_combat``) inside the game: its rulings are stamped,
        its decisions go to the players; returns what it returns."""
        send = None
        while True:
            try:
                item = gen.send(send)
            except StopIteration as stop:
                return stop.value
            if isinstance(item, Ruling):
                yield self._stamp(item)
                send = None
            else:  # the record keeps plain values: a tuple parameter is offered as text, then mapped back
                plain = _plain(item.options)
                chosen = yield dc_replace(item, options=plain)
                send = item.options[plain.index(chosen)]

    def _clear_markers(self, uid: str) -> None:
        """ROW-6.1: a unit leaving the map loses its markers; the Cup of SNAFU counters among them (Ammo, Fuel,
        leaders: each counter is unique, so its side and face name it) go back to the cup."""
        side = self.side_of(uid)
        for m in self.markers[uid]:
            for c in SnafuCup.full().counters:
                if c not in self.snafu and counter_row(c).side == side and m in faces(c):
                    self.snafu = sorted([*self.snafu, c])
                    break
        self.markers[uid] = ()

    def _snafu_for(self, placer: str, uid: str, why: str):
        """ROW-6.2 case i / ROW-6.1: the opponent of a newly OOC unit draws one counter from the Cup of SNAFU and
        may place it on that unit (his choice of face), or put it back."""
        if not self.snafu:
            yield self.ruling(
                "ROW-6.1", "Cup of SNAFU empty", "The cup is empty: no counter is drawn.", result={}
            )
            return
        cup, drawn = draw_snafu(self.dice, SnafuCup(tuple(sorted(self.snafu))), 1, why=why)
        self.snafu = list(cup.counters)
        yield self._stamp(drawn)
        counter = drawn.result["drawn"][0]
        cu = self._cu(uid)
        opts = placement_options(counter, [cu], optional=True)
        a = yield self.decide(
            placer,
            f"Place {counter} on {self.rows[uid].name}?",
            "ROW-6.1",
            opts,
            unit=uid,
            kind="snafu_placement",
        )
        if a.kind == "return_snafu":
            self.snafu = sorted([*self.snafu, counter])
            yield self.ruling(
                "ROW-6.1",
                "SNAFU counter returned",
                f"{counter} goes back to the Cup of SNAFU.",
                result={"counter": counter},
            )
            return
        o = place_snafu(self.dice, counter, a["face"], cu, [cu])
        quality = self.rows[uid].quality
        self.markers[uid] = tuple(sorted(m for m in o.unit.markers if m != quality))
        self.snafu = sorted([*self.snafu, *o.returned])
        self._touch()
        yield self._stamp(o.ruling)
        if o.key_officer_options:
            k = yield self.decide(
                placer,
                "Key Officer Killed: which strike?",
                "ROW-6.1",
                list(o.key_officer_options),
                kind="key_officer",
            )
            new, r = key_officer(self._cu(uid), k["strike"])
            self.markers[uid] = tuple(sorted(m for m in new.markers if m != quality))
            self._touch()
            yield self._stamp(r)
        for track, n in sorted(o.losses.items()):
            if track in ACC_TRACK:
                yield from self._accumulate(track, n)

    def _cu(self, uid: str, active: bool = False) -> CombatUnit:
        r = self.rows[uid]
        marks = set(self.markers[uid]) | ({r.quality} if r.quality else set())
        return CombatUnit(
            uid,
            r.side,
            r.nationality,
            r.unit_type,
            fresh=self.fresh[uid],
            active=active,
            markers=frozenset(marks),
        )

    # ================================================================== set-up (ROW-2.3)
    def setup_levels(self):
        """ROW-8.1 / ROW-2.3: the tracks start at the scenario's levels."""
        vals = dict(self.pools)
        for lv in self.scenario.levels:
            name = lv.track.removesuffix(" Support")
            if name in vals:
                vals[name] = lv.value
            elif lv.track == "Ho Chi Minh Trail Status":
                self.trail_status = lv.value
            elif lv.track == "US Military Victory":
                self.vp["us_military_victory"] = lv.value
            elif lv.track == "US Public Unrest":
                self.vp["us_unrest"] = lv.value
            elif lv.track in ACC_TRACK:
                self.vp[ACC_TRACK[lv.track]] = lv.value
        self.set_pools(Pools(vals))
        for t in self.scenario.tunnels:
            self.tunnels[t.hex] = t.state
        for lp in self.scenario.leaders:
            self.leaders[lp.leader] = lp.hq
        yield self.ruling(
            "ROW-8.1",
            "Tracks and levels",
            f"The scenario sets the tracks: {self.pools}; trail status "
            f"{self.trail_status}; {len(self.tunnels)} Hidden tunnels.",
            result={"pools": dict(self.pools), "trail_status": self.trail_status},
        )
        yield from self.air_setup()  # ROW-10.1 / ROW-11.1: the Air Display and the fleet, when in the scenario

    def _setup_side(self, side: str):
        placed = []
        for p in self.scenario.placements(side):
            self.place(p.unit, p.hex)
            placed.append(p.unit)
        yield self.ruling(
            "ROW-2.3",
            f"{side} set-up",
            f"{len(placed)} {side} pieces go on their start hexes, fresh "
            "side up (the scenario fixes every hex, so there is no choice to make).",
            result={"placed": placed},
            places=sorted({self.pos[u] for u in placed}),
        )

    def setup_capitalist(self):
        yield from self._setup_side(CAPITALIST)

    def setup_communist(self):
        yield from self._setup_side(COMMUNIST)

    def setup_vc_cup(self):
        for u in self.scenario.vc_cup.units:
            self.box[u] = "vc_cup"
        yield self.ruling(
            "ROW-13.1.2",
            "The VC cup",
            f"{len(self.scenario.vc_cup.units)} VC units go into the VC cup for recruitment.",
            result={"cup": len(self.scenario.vc_cup.units)},
        )

    # ================================================================== A) Strategic phase
    def chinese_intervention_check(self):
        """ROW-12.2: a roll only with Capitalist units in North Vietnam or Laos (none can be there in this scenario)."""
        if "china" in self.pol:
            yield from self.china_step()  # politics.py: a scenario with a politics block
            return
        there = [
            u
            for u, h in self.pos.items()
            if self.side_of(u) == CAPITALIST
            and self.map.country(h) in ("NVN", "LAO")
            and self.map.area(h) != "DMZ"
        ]  # 14.6.4: the DMZ is I Corps for the Capitalist
        if there:
            raise IllegalAction(
                "ROW-12.2",
                f"Capitalist units {there} are in North Vietnam or Laos, which this "
                "scenario forbids (special rule chinese_intervention_moot)",
            )
        yield self.ruling(
            "ROW-12.2",
            "Chinese intervention check",
            "No Capitalist unit is in North Vietnam or Laos "
            "(the DMZ counts as I Corps, 14.6.4), so China does not roll: in this scenario China "
            "never intervenes.",
            result={"roll": False},
            inputs={"scenario rule": "chinese_intervention_moot"},
        )

    def supply_determination(self):
        """ROW-7.0 (A2a): Supply to Infrastructure, Helicopter Used to Available."""
        new, r = determine_supply(self.pools_obj())
        self.set_pools(new)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs)

    def refresh_hqs(self):
        """ROW-9.3 / ROW-7.1 (A2b): each side (the Capitalist first) may pay to flip spent HQs fresh."""
        for side in (CAPITALIST, COMMUNIST):
            while True:
                opts = []
                for uid in sorted(self.pos):
                    if self.side_of(uid) == side and self.rows[uid].kind == "hq" and not self.fresh[uid]:
                        opts += H.refresh_options(
                            self.situation().piece(uid),
                            self.pools_obj(),
                            self.tracer(),
                            "strategic",
                            m=self.map,
                        )
                if not opts:
                    break
                a = yield self.decide(
                    side,
                    "Flip a spent HQ fresh for supply?",
                    "ROW-9.3",
                    [*opts, Action.make("done_refresh", f"{side}: no more HQs re-freshened")],
                    kind="hq_refresh",
                )
                if a.kind == "done_refresh":
                    break
                sit, pools, r = H.refresh_hq(
                    self.situation(), self.pools_obj(), a, self.tracer(), "strategic", m=self.map
                )
                self.fresh[a["hq"]] = True
                self.set_pools(pools)
                self._touch()
                yield self.ruling(
                    r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side
                )

    def _purchases(self, side: str, trail_raised: bool) -> list[Action]:
        """ROW-7.1 / ROW-7.2 (A2c): what ``side`` may buy now, each with each way of paying it can afford:
        removing Ammo/Fuel markers from its units (a LoC needed, R-SUP-06), a Bunker improved to a Fortification,
        and for the Communist the trail's supply (+1) and status (+1, once a turn)."""
        sit, tracer, pools = self.situation(), self.tracer(), self.pools_obj()
        track = {
            "capitalist": "Capitalist Supply",
            "communist": "Communist Supply",
            "trail": "Ho Chi Minh Trail Supply",
        }
        out: list[Action] = []

        def offer(item: str, piece: Piece | None, label: str, **params: Any) -> None:
            if piece is not None:
                loc = tracer.trace(piece).result.ok
                pavn = piece.nationality in ("PAVN", "PRC") and loc and tracer.reaches_pavn_source(piece)
                sp = Spender.at(piece, self.map, has_loc=loc, loc_to_pavn_source=pavn)
            else:
                sp = Spender(side, "PAVN", "NVN")
            try:
                pays = payment_options(item, sp, sit.invaded)
            except IllegalAction:
                return  # no LoC: the purchase is not possible (7.0)
            for p in pays:
                if p["pool"] == "none" or pools[track[p["pool"]]] >= p["amount"]:
                    out.append(
                        Action.make(
                            "buy",
                            f"{label}: {p.label}",
                            [piece.hex] if piece else [],
                            item=item,
                            pool=p["pool"],
                            amount=p["amount"],
                            **params,
                        )
                    )

        for u in sorted(self.pos):
            if self.side_of(u) != side or self.rows[u].kind != "unit":
                continue
            for mk in self.markers[u]:
                if mk in ("Ammo Shortage", "Fuel Shortage", "Ammo Out", "Fuel Out"):
                    item = "remove_out" if mk.endswith("Out") else "remove_shortage"
                    offer(item, sit.piece(u), f"Remove {mk} from {self.rows[u].name}", unit=u, marker=mk)
        if side == COMMUNIST:
            for h, w in sorted(self.works.items()):
                holder = next(
                    (
                        u
                        for u in self.at_hex.get(h, [])
                        if self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit"
                    ),
                    None,
                )
                if w == "Bunker" and holder:
                    offer("bunker_to_fortification", sit.piece(holder), f"Improve the Bunker at {h}", hex=h)
            for h, holder in self.tunnel_sites():  # 14.3 (tunnels.py, R-TUN-02)
                near = any(n in self.tunnels for n in self.map.neighbours(h))
                offer(
                    "tunnel_adjacent" if near else "tunnel_isolated",
                    sit.piece(holder),
                    f"Build a Hidden tunnel at {h}" + (" (next to a tunnel)" if near else ""),
                    hex=h,
                )
            offer("trail_supply_plus_1", None, "Ho Chi Minh Trail supply +1")
            if not trail_raised and self.trail_status < 6:
                offer(
                    "trail_status_plus_1",
                    None,
                    f"Ho Chi Minh Trail status {self.trail_status} -> {self.trail_status + 1}",
                )
        return out

    def spend_supply(self):
        """ROW-7.1 (A2c): the Capitalist, then the Communist, buys what he wants from :meth:`_purchases`, one
        purchase at a time (decision R-GAME-04; Hidden tunnels for 1 or 3, 14.3, R-TUN-02)."""
        for side in (CAPITALIST, COMMUNIST):
            raised = False
            while True:
                opts = self._purchases(side, raised)
                if not opts:
                    break
                a = yield self.decide(
                    side,
                    f"{side}: spend supply on something else?",
                    "ROW-7.1",
                    [*opts, Action.make("done_spending", f"{side} spends nothing more")],
                    kind="spend_supply",
                )
                if a.kind == "done_spending":
                    break
                new, paid = pay(
                    self.pools_obj(), Action.make("pay", item=a["item"], pool=a["pool"], amount=a["amount"])
                )
                self.set_pools(new)
                item = a["item"]
                if item in ("remove_shortage", "remove_out"):
                    u, mk = a["unit"], a["marker"]
                    self.markers[u] = tuple(m for m in self.markers[u] if m != mk)
                    for c in SnafuCup.full().counters:
                        if c not in self.snafu and counter_row(c).side == side and mk in faces(c):
                            self.snafu = sorted([*self.snafu, c])
                            break
                    what = f"{mk} comes off {self.rows[u].name}; its counter goes back to the Cup of SNAFU"
                    places = [self.pos[u]]
                elif item == "bunker_to_fortification":
                    self.works[a["hex"]] = "Fortification"
                    what, places = f"the Bunker at {a['hex']} becomes a Fortification", [a["hex"]]
                elif item in ("tunnel_adjacent", "tunnel_isolated"):  # 14.3: the hex stays secret (R-TUN-02)
                    self.tunnels[a["hex"]] = "Hidden"
                    what, places = "a Hidden tunnel is built (where, the Capitalist does not learn)", []
                elif item == "trail_supply_plus_1":
                    new, r = change(self.pools_obj(), "Ho Chi Minh Trail Supply", 1, "bought in A2c")
                    self.set_pools(new)
                    what, places = r.explanation, []
                else:
                    raised = True
                    self.trail_status += 1
                    what, places = f"the Ho Chi Minh Trail status rises to {self.trail_status}", []
                self._touch()
                yield self.ruling(
                    "ROW-7.1",
                    "Supply spent",
                    f"{paid.explanation} {what[0].upper() + what[1:]}.",
                    result={"item": item, "paid": a["amount"]},
                    lookup=paid.lookup,
                    places=places,
                    side=side,
                )
        yield self.ruling(
            "ROW-7.1",
            "Other supply spending over",
            (
                "Airfield repairs and improvements come in step A3; "
                if self.air_on()
                else "Airfields are not in this scenario; "
            )
            + "tunnels are built in this step (14.3).",
            result={},
            inputs={"decisions": "R-AIR-09, R-TUN-02"},
        )

    def supply_status(self):
        """ROW-14.4 / ROW-6.2 case i (A2d): OOC markers on and off; the opponent draws from the Cup of SNAFU for
        each new one and may place the counter on that unit."""
        yield from self.trail_step()  # 14.7.2 (trail.py, R-TRL-01): nothing without the scenario's trail block
        for side in (CAPITALIST, COMMUNIST):
            changed = yield from self._ooc_markers(side, "supply_determination")
            if self._over:
                return
            yield self.ruling(
                "ROW-14.4",
                f"{side} supply status",
                f"Every {side} unit's LoC is traced; {changed} OOC markers change.",
                result={"changed": changed},
            )

    def _no_air(self, title: str, rule: str):
        yield self.ruling(
            rule,
            f"{title}: not in this scenario",
            "This scenario leaves the air war out, so nothing happens in this step.",
            result={"in_play": False},
            inputs={"scenario rule": "air_war_not_in_play", "decision": "R-SCN-08"},
        )

    def air_war_in_play(self) -> bool:
        return not self.scenario.has_rule("air_war_not_in_play")

    def fleet_in_play(self) -> bool:
        return not self.scenario.has_rule("navy_not_in_play")

    def election_turn(self) -> bool:
        return "election" in (self._calendar_row().fixed_events or "")

    def _calendar_row(self):
        from .scenario import load_calendar

        return load_calendar()[self.season]

    def aircraft_reinforcement(self):
        if self.air_on():
            return (yield from self.air_reinforcement())
        yield from self._no_air("Aircraft and airfields", "ROW-10.1")

    def capitalist_air_commitment(self):
        """ROW-10.2 replaced by R-SCN-08: the US Air Support level is set from the scenario for this turn."""
        if self.air_on():
            return (yield from self.air_commitment(CAPITALIST))
        value = next((t.value for t in self.scenario.air_support if t.turn == self.season), None)
        if value is not None:
            self.pools["US Air"] = value
        yield self.ruling(
            "ROW-10.2",
            "Capitalist air commitment: not in this scenario",
            f"No aircraft are committed in this scenario; instead US Air Support is set to {value} for "
            f"{turn_label(self.season)}, as the scenario's turn track gives it.",
            result={"US Air": value},
            inputs={"scenario table": "air_support", "decision": "R-SCN-08"},
        )

    def communist_air_commitment(self):
        if self.air_on():
            return (yield from self.air_commitment(COMMUNIST))
        yield from self._no_air("Communist air commitment", "ROW-10.2")

    def aew_resolution(self):
        if self.air_on():
            return (yield from self.air_aew())
        yield from self._no_air("AEW resolution", "ROW-10.3.4")

    def sam_resolution(self):
        if self.air_on():
            return (yield from self.air_sams())
        yield from self._no_air("SAM resolution", "ROW-10.3.5")

    def downtown_resolution(self):
        if self.air_on():
            return (yield from self.air_downtown())
        yield from self._no_air("Downtown resolution", "ROW-10.3.1")

    def strategic_bombing(self):
        if self.air_on():
            return (yield from self.air_strikes())
        yield from self._no_air("Strategic bombing", "ROW-10.3.2")

    def declare_missions(self):
        """ROW-9.5 (A7): the Capitalist, then the Communist, declares and pays a mission."""
        for side in (CAPITALIST, COMMUNIST):
            cmd = self.commander(side)
            opts = H.mission_options(side, self.pools_obj(), commander=cmd, chinese=self.china_in())  # 12.2
            if not opts:
                self.missions[side] = None
                self.restricted[side] = "none"
                yield self.ruling(
                    "ROW-9.5",
                    "No mission affordable",
                    f"The {side} cannot pay for any mission it may "
                    f"declare ({self.pools[side + ' Supply']} supply left, commander {cmd}): it has no "
                    "mission this season, so no mission effect applies (decision R-GAME-13).",
                    result={"mission": None},
                    side=side,
                )
                continue
            a = yield self.decide(
                side,
                f"{side}: declare the HQ mission for {turn_label(self.season)}",
                "ROW-9.5",
                opts,
                kind="mission",
            )
            pools, r = H.declare_mission(self.pools_obj(), a, commander=cmd, chinese=self.china_in())
            self.set_pools(pools)
            self.missions[side] = a["mission"]
            self.restricted[side] = r.result["restricted"]
            self._touch()
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side)
            if r.result["objectives"]:
                yield from self._place_objectives(side, r.result["objectives"])
            if r.result["us_unrest"]:
                yield from self._award(COMMUNIST, r.result["us_unrest"], f"the {side} mission")

    def _place_objectives(self, side: str, count: int):
        """ROW-9.5 / ROW-12.1.3: the declarer places ``count`` Objective markers, drawn at random and face down:
        a Communist mission on Capitalist-controlled hexes, a Capitalist one on hexes he does not control (inside
        the scenario's window, on land, one marker a hex)."""
        cap = capitalist_controlled(self.situation(), self.map)
        placed: list[str] = []
        for k in range(count):
            if not sum(self.obj_pool.values()):
                yield self.ruling(
                    "ROW-12.1.3",
                    "No Objective marker left",
                    "The objective pool is empty: no more markers are placed.",
                    result={"placed": placed},
                )
                return
            hexes = [
                h
                for h in self.window_land
                if (h in cap) == (side == COMMUNIST)
                and h not in self.objectives
                and self.map.country(h) in ("SVN",)
            ]
            opts = [
                Action.make("place_objective", f"Objective marker on {h}", [h], hex=h) for h in sorted(hexes)
            ]
            if not opts:
                break
            a = yield self.decide(
                side,
                f"Place Objective marker {k + 1} of {count}",
                "ROW-12.1.3",
                opts,
                kind="objective_placement",
            )
            value, self.obj_pool, r = V.draw_objective(self.dice, self.obj_pool)
            self.objectives[a["hex"]] = {"value": value, "revealed": False, "chit": False}
            placed.append(a["hex"])
            yield self._stamp(dc_replace(r, places=(a["hex"],)))
        yield self.ruling(
            "ROW-9.5",
            "Objectives placed",
            f"The {side} has placed Objective markers face down on {', '.join(placed) or 'no hex'}.",
            result={"placed": placed},
            places=placed,
        )

    def _objective_after_combat(self, hid: str, capitalist_won: bool):
        """ROW-12.1.3 (R-VIC-07): the combat in an objective's hex is over: its value goes to or comes off US
        Military Victory, and the marker is removed."""
        o = self.objectives.pop(hid, None)
        if o is None:
            return
        s, r = V.resolve_objective(self.vstate(), o["value"], capitalist_won, hid)
        self.set_vstate(s)
        yield self._stamp(r)
        yield from self._check_win()

    # ================================================================== B) Turn phase
    def fleet_redeployment(self):
        if self.fleet_on():
            return (yield from self.fleet_move())
        yield self.ruling(
            "ROW-11.1",
            "Fleet redeployment: not in this scenario",
            "The 7th Fleet stays at Yankee "
            "Station: this scenario leaves the navy out, so naval bombardment stays at "
            f"{self.pools['US Navy Bombardment']}.",
            result={"station": "Yankee"},
            inputs={"scenario rule": "navy_not_in_play", "decision": "R-SCN-09"},
        )

    def _reinforce(self, side: str):
        arrived, waiting = [], []
        for uid in sorted(
            u
            for u, b in self.box.items()
            if b == "reinforcements" and self.side_of(u) == side and self._arrival_turn(u) <= self.season
        ):
            hid = self.start_hex[uid]
            if any(self.side_of(x) != side for x in self.at_hex.get(hid, [])):
                if arrived and self.rows[uid].nationality in (
                    "US",
                    "PAVN",
                ):  # named before a diversion is asked
                    yield self.ruling(
                        "ROW-13.1.1",
                        f"{side} reinforcements so far",
                        f"{', '.join(arrived)} have arrived at their chart hexes.",
                        result={"arrived": list(arrived)},
                        places=[self.pos[u] for u in arrived],
                    )
                hid = yield from self.alternate_entry(uid, side)  # 13.1.1 (reinforce.py, R-REI-01)
                if hid is None:
                    waiting.append(uid)
                    continue
            self.place(uid, hid)
            self.fresh[uid] = True
            self._touch()
            arrived.append(uid)
        yield self.ruling(
            "ROW-13.1.1",
            f"{side} reinforcements",
            (
                f"{', '.join(arrived)} arrive fresh at their chart hexes"
                if arrived
                else "No reinforcement arrives"
            )
            + (
                f"; {', '.join(waiting)} wait: an enemy unit holds the arrival hex (R-GAME-09)"
                if waiting
                else ""
            )
            + ".",
            result={"arrived": arrived, "waiting": waiting},
            places=[self.pos[u] for u in arrived],
        )

    def _arrival_turn(self, uid: str) -> int:
        return next((r.turn for r in self.scenario.reinforcements if r.unit == uid), 0)

    def _levels(self, side: str):
        for lc in self.scenario.level_changes:
            name = lc.track.removesuffix(" Support")
            if lc.turn != self.season or supply_tables().tracks[name].side != side:
                continue
            new, r = change(self.pools_obj(), name, lc.change, "reinforcement chart", forced=True)
            self.set_pools(new)
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def capitalist_reinforcements(self):
        """ROW-13.1.1 / ROW-8.1: the chart's units, level changes and events (R-SCN-15); withdrawals (13.1.3)."""
        yield from self.withdrawals_step()
        yield from self._reinforce(CAPITALIST)
        yield from self._levels(CAPITALIST)
        for ev in self.scenario.events:
            if ev.turn != self.season:
                continue
            text = ev.summary
            if ev.kind == "marker":
                for u in ev.units:
                    if u in self.pos and ev.marker not in self.markers[u]:
                        self.markers[u] = tuple(sorted([*self.markers[u], ev.marker]))
                self._touch()
                text += f" ({ev.marker} on {', '.join(ev.units)}.)"
            elif (
                ev.kind == "commander"
            ):  # 14.2.1: the chart's forced change of theater commander (politics.py)
                text += " " + self.chart_commander(ev.leader)
            elif ev.kind == "leader":
                self.leaders[ev.leader] = ev.hq
                text += (
                    f" ({self.rows[ev.leader].name}, value {self.rows[ev.leader].leader_value:+d}, goes to "
                    f"{self.rows[ev.hq].name}; a ground commander he replaces there is relieved, 14.2.2.)"
                )
                for other_leader, hq in list(self.leaders.items()):
                    if hq == ev.hq and other_leader != ev.leader:
                        del self.leaders[other_leader]
            yield self.ruling("ROW-13.1", f"Event: {ev.id.replace('_', ' ')}", text, result={"event": ev.id})

    def capitalist_replacements(self):
        yield from self._replacements(CAPITALIST)

    def _replacements(self, side: str):
        """ROW-13.2 (B2b): for 1 replacement point a unit leaves the Replacements box while another, of the same
        size class or larger, goes to the Destroyed box; the returning unit enters at the next Reinforcement
        Placement at its start hex (a VC unit goes back into the VC cup, to return by recruitment; R-GAME-08)."""
        track = f"{side} Replacements"
        rank = {"A": 3, "B": 2, "C": 1}
        while True:
            box = sorted(u for u, b in self.box.items() if b == "replacements" and self.side_of(u) == side)
            if self.pools[track] < 1 or len(box) < 2:
                break
            opts = [
                Action.make(
                    "replace_unit",
                    f"Bring back {self.rows[u].name} (class {self.rows[u].size_class})",
                    unit=u,
                )
                for u in box
                if any(
                    d != u and rank[self.rows[d].size_class or "C"] >= rank[self.rows[u].size_class or "C"]
                    for d in box
                )
            ]
            if not opts:
                break
            a = yield self.decide(
                side,
                f"{side} replacements ({self.pools[track]} points): bring a unit back?",
                "ROW-13.2",
                [*opts, Action.make("no_replacement", "No more replacements")],
                kind="replacement",
            )
            if a.kind == "no_replacement":
                break
            back = a["unit"]
            do = [
                Action.make(
                    "destroy_unit",
                    f"{self.rows[d].name} (class {self.rows[d].size_class}) goes to the Destroyed box",
                    unit=d,
                )
                for d in box
                if d != back
                and rank[self.rows[d].size_class or "C"] >= rank[self.rows[back].size_class or "C"]
            ]
            d = yield self.decide(
                side,
                f"Which unit goes to the Destroyed box for {self.rows[back].name}?",
                "ROW-13.2",
                do,
                kind="replacement_cost",
            )
            new, r = change(self.pools_obj(), track, -1, f"{self.rows[back].name} replaced")
            self.set_pools(new)
            self.place(d["unit"], None, "destroyed")
            vc = back not in self.start_hex
            self.place(back, None, "vc_cup" if vc else "reinforcements")
            self.fresh[back] = True
            self._touch()
            yield self.ruling(
                "ROW-13.2",
                "Replacement",
                f"{self.rows[back].name} leaves the Replacements box "
                + (
                    "for the VC cup (it returns by recruitment)"
                    if vc
                    else "and enters at the next Reinforcement Placement at its start hex"
                )
                + f"; {self.rows[d['unit']].name} goes to the Destroyed box. {r.explanation}",
                result={"returned": back, "destroyed": d["unit"]},
            )

    def _routed_return(self, side: str):
        """ROW-9.1 (B2c): each routed HQ returns fresh on a friendly supply source of the owner's choice (the
        Communist's include the active trail termini, R-SUP-03) inside the window and its limits, with no enemy
        piece there; with none free it stays routed."""
        back = []
        for uid in sorted(u for u, b in self.box.items() if b == "routed" and self.side_of(u) == side):
            srcs = (
                set(self.map.supply_sources("capitalist"))
                if side == CAPITALIST
                else (
                    set(self.map.supply_sources("pavn"))
                    | set(self.map.supply_sources("prc"))
                    | {self.map.terminus(n) for n in self.active_terminus_numbers()}
                )
            )
            probe = Piece(
                uid,
                side,
                self.rows[uid].nationality,
                self.start_hex.get(uid, next(iter(srcs))),
                kind="hq",
                areas=frozenset(self.scenario.us_areas)
                if self.rows[uid].nationality == "US"
                else frozenset(),
            )
            ok = allowed_hexes(probe, frozenset(), self.map)
            enemy = {h for u, h in self.pos.items() if self.side_of(u) != side}
            spots = sorted(h for h in srcs if h in self.window_land and h in ok and h not in enemy)
            if not spots:
                yield self.ruling(
                    "ROW-9.1",
                    "Routed HQ waits",
                    f"No friendly supply source is free for {self.rows[uid].name}: it stays routed.",
                    result={"hq": uid},
                )
                continue
            yield from self.enter_fresh(
                side,
                uid,
                spots,
                "ROW-9.1",
                kind="hq_return",
                option="return_hq",
                key="hq",
                prompt=f"Where does {self.rows[uid].name} return?",
                label="returns at",
                title="Routed HQ returns",
                text="returns fresh at the supply source",
            )
            back.append(uid)
        yield self.ruling(
            "ROW-9.1",
            f"{side} routed HQs",
            (f"{', '.join(back)} returned" if back else "No routed HQ returned") + ".",
            result={"returned": back},
        )

    def capitalist_routed_hqs(self):
        yield from self._routed_return(CAPITALIST)

    def communist_reinforcements(self):
        yield from self._reinforce(COMMUNIST)
        yield from self._levels(COMMUNIST)
        yield from self.china_replacements()  # 12.2 (politics.py): nothing unless China is in

    def communist_replacements(self):
        yield from self._replacements(COMMUNIST)

    def communist_routed_hqs(self):
        yield from self._routed_return(COMMUNIST)

    def vc_recruitment(self):
        """ROW-13.1.2: each VC cadre in a cultivated hex or town may draw one unit from the cup (two in a city; the
        Recruit mission: every cadre in South Vietnam); the recruit appears in or next to the cadre's hex, not
        with a Capitalist unit (R-GAME-11);
        Hearts and Minds: an even Capitalist die cancels a draw (9.5); a draw due from an empty cup gives the
        scenario's 2 VP, once per segment (R-GAME-16)."""
        cadres = [
            u
            for u in sorted(self.pos)
            if self.rows[u].nationality == "VC" and self.rows[u].unit_type == "cadre"
        ]
        empty_paid = False
        for c in cadres:
            hid = self.pos[c]
            terrain = self.map.terrain(hid)
            place = self.map.settlement(hid)
            recruit = self.missions[COMMUNIST] == "recruit" and self.map.country(hid) == "SVN"
            n = 2 if place == "city" else 1 if (terrain == "cultivated" or place == "town" or recruit) else 0
            if not n:
                continue
            a = yield self.decide(
                COMMUNIST,
                f"Cadre {c} at {hid} may recruit {n} unit(s) from the VC cup",
                "ROW-13.1.2",
                [
                    Action.make("recruit", f"{c} recruits", [hid], cadre=c),
                    Action.make("no_recruit", f"{c} does not recruit", [hid], cadre=c),
                ],
                kind="recruit",
            )
            if a.kind == "no_recruit":
                continue
            for _ in range(n):
                cup = sorted(u for u, b in self.box.items() if b == "vc_cup")
                if not cup:
                    if empty_paid:
                        yield self.ruling(
                            "ROW-13.1.2",
                            "The VC cup is empty",
                            "The cup is still empty; the award was given once this segment (R-GAME-16).",
                            result={"empty": True},
                        )
                        break
                    empty_paid = True
                    vp = next((a.vp for a in self.scenario.victory.awards if a.id == "empty_vc_cup"), 2)
                    yield self.ruling(
                        "ROW-13.1.2",
                        "The VC cup is empty",
                        "A recruitment draw is due and the cup is "
                        f"empty: the scenario gives the Communist {vp} VP (once per segment, R-GAME-16).",
                        result={"empty": True, "vp": vp},
                    )
                    yield from self._award(COMMUNIST, vp, "empty VC cup (scenario award empty_vc_cup)")
                    if self._over:
                        return
                    break
                if self.missions[CAPITALIST] == "hearts_and_minds":
                    d = self.dice.roll(6, "Hearts and Minds check")
                    if d.value % 2 == 0:
                        yield self.ruling(
                            "ROW-9.5",
                            "Recruitment fails",
                            f"Hearts and Minds: the Capitalist rolls "
                            f"{d.value} (even): the draw of {c} fails.",
                            dice=[d],
                            result={"failed": c},
                        )
                        continue
                roll = self.dice.roll(len(cup), "VC cup draw")
                uid = cup[roll.value - 1]
                yield self.ruling(
                    "ROW-13.1.2",
                    "VC recruit drawn",
                    f"The cadre {c} at {hid} ({place or terrain}) "
                    f"draws {self.rows[uid].name} from the VC cup.",
                    dice=[roll],
                    result={"cadre": c, "unit": uid},
                    places=[hid],
                )
                cap_units = {h for u, h in self.pos.items() if self.side_of(u) == CAPITALIST}
                ok = allowed_hexes(
                    Piece(uid, COMMUNIST, "VC", hid, unit_type=self.rows[uid].unit_type),
                    frozenset(),
                    self.map,
                )  # 14.6.3: where VC units may be
                spots = [hid] + [
                    n
                    for n in self.map.neighbours(hid)
                    if n in self.window_land and n not in cap_units and n in ok
                ]
                w = yield self.decide(
                    COMMUNIST,
                    f"Where does {self.rows[uid].name} appear?",
                    "ROW-13.1.2",
                    [
                        Action.make(
                            "recruit_at", f"{self.rows[uid].name} appears at {h}", [h], unit=uid, hex=h
                        )
                        for h in spots
                    ],
                    kind="recruit_hex",
                )
                self.place(uid, w["hex"])
                self.fresh[uid] = True
                self._touch()
                yield self.ruling(
                    "ROW-13.1.2",
                    "VC recruit",
                    f"{self.rows[uid].name} appears fresh at {w['hex']}, in or next to the cadre {c}.",
                    result={"cadre": c, "unit": uid, "hex": w["hex"]},
                    places=[w["hex"]],
                )
        yield self.ruling(
            "ROW-13.1.2",
            "VC recruitment done",
            f"{len(cadres)} cadres on the map; "
            f"{sum(1 for b in self.box.values() if b == 'vc_cup')} units left in the cup.",
            result={"cadres": len(cadres)},
        )

    # ================================================================== B3) player turns
    def _flip(self, side: str):
        sit, r = H.flip_units_fresh(self.situation(), side)
        for p in sit.units(side):
            self.fresh[p.uid] = p.fresh
        self.passed[other(side)] = False
        self.chit_hexes = []
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def flip_capitalist_units_fresh(self):
        for o in self.objectives.values():  # 12.1.3: chits are counted over one Activation Phase
            o["chit"] = False
        yield from self._flip(CAPITALIST)

    def flip_communist_units_fresh(self):
        yield from self._flip(COMMUNIST)

    def _ooc_markers(self, side: str, when: str):
        """ROW-14.4 / ROW-6.2 case i: trace every unit's LoC, put OOC markers on and off, and let the opponent
        draw from the Cup of SNAFU for each new one.  Returns how many markers changed."""
        sit, rulings = ooc_sweep(self.situation(), side, self.tracer(), when)
        for p in sit.units(side):
            self.markers[p.uid] = tuple(sorted(p.markers))
        self._touch()
        for r in rulings:
            yield self._stamp(r)
            if r.result["placed"]:
                yield from self._snafu_for(
                    r.result["snafu_for"], r.inputs["piece"], f"OOC {r.inputs['piece']}"
                )
                if self._over:
                    return len(rulings)
        return len(rulings)

    def _ooc(self, side: str):
        placed = yield from self._ooc_markers(side, "player_turn")
        if self._over:
            return
        yield self.ruling(
            "ROW-6.2",
            f"{side} OOC check",
            f"{placed} {side} units are newly out of communications.",
            result={"placed": placed},
        )

    def mark_capitalist_ooc(self):
        yield from self._ooc(CAPITALIST)

    def mark_communist_ooc(self):
        yield from self._ooc(COMMUNIST)

    def communist_strategic_movement(self):
        """ROW-4.4: the Communist may move fresh units up to 10 MP, one after another in his order, never starting
        in or entering an enemy ZoC; they stay fresh.  HQs do not move strategically in this version: the movement
        module has no strategic mode for HQs (decision R-GAME-02).  A restartable loop: Back resumes between
        units (issue #13)."""
        again = self.resumed("strategic")
        moved: list[str] = list(again["moved"]) if again else []
        while True:
            self.checkpoint("strategic", moved=list(moved))
            sit = self.situation()
            cands = [
                u
                for u in sorted(self.pos)
                if self.side_of(u) == COMMUNIST
                and self.rows[u].kind == "unit"
                and self.fresh[u]
                and u not in moved
                and not self._surprised(u)
                and not in_enemy_zoc(sit.piece(u), sit, self.map)
            ]
            opts = [
                Action.make(
                    "strategic_unit",
                    f"Move {self.rows[u].name} strategically from {self.pos[u]}",
                    [self.pos[u]],
                    unit=u,
                )
                for u in cands
            ]
            if not opts:
                break
            a = yield self.decide(
                COMMUNIST,
                "Strategic movement: which fresh unit moves next?",
                "ROW-4.4",
                [*opts, Action.make("done_strategic", "No more strategic movement")],
                kind="strategic_unit",
            )
            if a.kind == "done_strategic":
                break
            moved.append(a["unit"])
            if (
                yield from self.air_interdicts(
                    COMMUNIST,
                    "strategic_move",
                    self.pos[a["unit"]],  # ROW-10.4.1
                    f"the strategic move of {self.rows[a['unit']].name}",
                )
            ):
                continue
            mo = self.moves(a["unit"], "strategic")
            if len(mo) > 1:
                m = yield self.decide(
                    COMMUNIST,
                    f"Strategic move of {self.rows[a['unit']].name} (10 MP, no enemy ZoC)",
                    "ROW-4.4",
                    mo,
                    unit=a["unit"],
                    kind="move",
                )
                yield from self._move(a["unit"], m, "strategic")
        yield self.ruling(
            "ROW-4.4",
            "Strategic movement over",
            f"{len(moved)} Communist units moved strategically "
            "and stay fresh (HQs do not move strategically in this version, R-GAME-02).",
            result={"moved": moved},
        )

    def _surprised(self, uid: str) -> bool:
        """Special rules with ``effect: pinned`` (R-SCN-13 starlite_surprise, R-SCN-28): the listed units may not
        activate or move on the listed turns."""
        for sr in self.scenario.special_rules:
            if sr.effect == "pinned" and self.season in (sr.turns or []) and uid in (sr.units or []):
                return True
        return False

    def _activations_over(self, side: str) -> bool:
        if self.passed[side]:
            return True
        return not any(
            self.fresh[u] and self.side_of(u) == side and self.rows[u].kind == "hq" for u in self.pos
        )

    def communist_activations_over(self) -> bool:
        return self._activations_over(COMMUNIST)

    def capitalist_activations_over(self) -> bool:
        return self._activations_over(CAPITALIST)

    def activation(self, side: str):
        """ROW-9.2: one whole activation of ``side`` (steps 1-8), the other side's reserve move inside it.  It is
        restartable (issue #13): Back resumes it between units in step 3 and between combats in step 6, from the
        checkpoint "activation" whose data (``ctx``) holds its place; everything else is in the state."""
        ctx = self.resumed("activation")
        if ctx is None:
            ctx = yield from self._activation_start(side)
            if ctx is None:
                return
        if ctx["stage"] == "move":
            yield from self._activation_moves(side, ctx)
            if self._over:
                return
        yield from self._activation_combats(side, ctx)

    def _activation_start(self, side: str):
        """ROW-9.2 steps 1-2: the HQ, then its units; returns the activation's place (None: no activation)."""
        opts = _plain(H.hq_activation_options(self.situation(), side, self.tracer()))
        if self.airwar.get("interdicted"):  # ROW-10.4.1: an HQ Interdicted marker bars activation this season
            opts = [o for o in opts if o.kind != "activate_hq" or not self.air_hq_interdicted(o["hq"])]
        a = yield self.decide(
            side,
            f"{side}: activate a fresh HQ, or end the activations",
            "ROW-9.2",
            opts,
            kind="hq_activation",
        )
        if a.kind == "activate_hq" and (yield from self.air_interdict_hq(side, a["hq"])):
            return
        if a.kind == "end_activations":
            self.passed[side] = True
            yield self.ruling(
                "ROW-9.2",
                "Activations over",
                f"The {side} makes no more activations this turn.",
                result={"side": side},
            )
            return None
        mission = self.missions[side]
        sit, act, r = H.activate_hq(self.situation(), a["hq"], self.tracer())
        self.fresh[a["hq"]] = False
        self.act = act
        self._touch()
        yield self.ruling(
            r.rule_id,
            r.title,
            r.explanation
            + (
                " Its trace would cost a SNAFU draw, not made in this version (R-GAME-05)."
                if a["snafu_draw"]
                else ""
            ),
            result=r.result,
            places=r.places,
            side=side,
        )
        # step 2: units
        chosen: list[str] = []
        created: dict[str, str] = {}  # parent -> the battalion (ARVN regiment) it created (14.1.1)
        while len(chosen) < H.UNITS_PER_ACTIVATION:
            uo = [
                o
                for o in H.unit_activation_options(self.act, self.situation(), mission=mission, m=self.map)
                if o.kind != "activate_unit" or (o["unit"] not in chosen and not self._surprised(o["unit"]))
            ]
            if len(uo) == 1:
                break
            u = yield self.decide(
                side,
                f"Activate a unit with {a['hq']} ({len(chosen)} of 4)",
                "ROW-4.5",
                uo,
                kind="unit_activation",
            )
            if u.kind == "done_activating":
                break
            chosen.append(u["unit"])
            kids = self._creatable(u["unit"])
            if kids:
                c = yield self.decide(
                    side,
                    f"{self.rows[u['unit']].name}: activate it, or create a battalion on it?",
                    "ROW-14.1.1",
                    [
                        *(
                            Action.make(
                                "create_unit",
                                f"Create {self.rows[k].name} on {self.pos[u['unit']]}",
                                [self.pos[u["unit"]]],
                                unit=k,
                                parent=u["unit"],
                            )
                            for k in kids[:1]
                        ),
                        Action.make("activate_normally", "Activate it normally", unit=u["unit"]),
                    ],
                    kind="create_battalion",
                )
                if c.kind == "create_unit":
                    created[u["unit"]] = c["unit"]
        sit, self.act, r = H.activate_units(self.act, self.situation(), chosen, mission=mission, m=self.map)
        for u in chosen:
            self.fresh[u] = False
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)
        for parent, kid in created.items():  # 14.1.1: the new unit activates in its parent's place
            self.place(kid, self.pos[parent])
            self.fresh[kid] = False
            self.markers[kid] = tuple(self.markers[parent])
            self.act = replace(self.act, units=(*self.act.units, kid))
            self._touch()
            yield self.ruling(
                "ROW-14.1.1",
                "Unit created",
                f"{self.rows[kid].name} is created on "
                f"{self.rows[parent].name} at {self.pos[parent]} with its markers; it moves and fights "
                "in this activation while its parent may not move, and it leaves the map at the end of "
                "the activation; it may fly from here (14.1.2) (R-GAME-06).",
                result={"unit": kid, "parent": parent},
                places=[self.pos[parent]],
            )
        order = [created.get(u, u) for u in chosen]
        if side == CAPITALIST:
            yield from self._build_fire_base()
        # amphibious_used, 14.1.3: one amphibious move an activation
        return {
            "stage": "move",
            "hq": a["hq"],
            "created": created,
            "waiting": list(order),
            "chits": {},
            "resolved_me": [],
            "amphibious_used": False,
        }

    def _activation_moves(self, side: str, ctx: dict[str, Any]):
        """ROW-9.2 steps 3-5: initial movement and declarations unit by unit (a restartable loop), the reserve
        move, early exploitation."""
        mission = self.missions[side]
        created, chits, resolved_me, waiting = (
            ctx["created"],
            ctx["chits"],
            ctx["resolved_me"],
            ctx["waiting"],
        )
        # step 3: initial movement and declarations, one unit after another in the player's order
        while waiting:
            ctx["waiting"] = waiting = [u for u in waiting if u in self.pos]
            if not waiting:
                break
            self.checkpoint("activation", **ctx)
            # 4.5: the units move one after another in the phasing player's order
            uid = yield from self.choose_one(
                side,
                "Which active unit moves next?",
                "ROW-4.5",
                waiting,
                kind="move_order",
                option="move_next",
                key="unit",
                label=lambda u: f"{self.rows[u].name} at {self.pos[u]} moves next",
                places=lambda u: [self.pos[u]],
            )
            waiting.remove(uid)
            mo = self.moves(uid, "initial")
            spent = Fraction(0)
            flights = self._flights(uid) + ([] if ctx["amphibious_used"] else self._landings(uid))
            if flights:
                mo = flights + mo
            if mo:
                m = yield self.decide(
                    side,
                    f"Initial movement of {self.rows[uid].name} (5 MP, to a destination by "
                    "the cheapest path, R-GAME-07)",
                    "ROW-4.5",
                    mo,
                    unit=uid,
                    kind="move",
                )
                if m.kind in ("fly", "amphibious"):
                    if m.kind == "fly":
                        yield from self._fly(uid, m)
                    else:
                        ctx["amphibious_used"] = True
                        yield from self._land(uid, m)
                    spent = Fraction(m["mp"])
                    lo = [o for o in self.moves(uid, "initial", mp_spent=spent) if o.kind == "move"]
                    if lo:
                        stay = Action.make(
                            "stay", f"{self.rows[uid].name} stays where it landed", unit=uid, mode="initial"
                        )
                        rule = "ROW-14.1.2" if m.kind == "fly" else "ROW-14.1.3"
                        m = yield self.decide(
                            side,
                            f"{self.rows[uid].name} landed: land movement with the "
                            f"{float(movement.UNIT_MP - spent):g} MP left?",
                            rule,
                            [*lo, stay],
                            unit=uid,
                            kind="move",
                        )
                    else:
                        m = Action.make("stay", unit=uid, mode="initial")
                    if m.kind == "move":
                        yield from self._move(uid, m, "initial", mp_spent=spent)
                        spent += Fraction(m["mp"])  # the land move's own cost, after the flight's
                else:
                    yield from self._move(uid, m, "initial")
                    if m.kind == "move":
                        spent = Fraction(m["mp"])
                        if m["one_hex_minimum"]:
                            self.act = replace(self.act, one_hex=self.act.one_hex | {uid})
            if uid not in self.pos:
                continue
            left = max(Fraction(movement.UNIT_MP) - spent, Fraction(0))
            do = _plain(
                H.declaration_options(
                    self.act,
                    self.situation(),
                    uid,
                    left,
                    spent,
                    chit_hexes=self.chit_hexes,
                    mission=mission,
                    m=self.map,
                )
            )
            if not do:
                continue
            d = yield self.decide(
                side,
                f"Declare a combat with {self.rows[uid].name}?",
                "ROW-4.6",
                [*do, Action.make("no_combat", f"{self.rows[uid].name} declares no combat", unit=uid)],
                unit=uid,
                kind="combat_declaration",
            )
            if d.kind == "no_combat":
                continue
            self.act, r = H.declare(
                self.act,
                self.situation(),
                d,
                left,
                spent,
                chit_hexes=self.chit_hexes,
                mission=mission,
                m=self.map,
            )
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, places=r.places, side=side)
            from .chits import chit_by_id, chit_options, keep_chit, mug
            from .leaders import chits_to_draw

            n = min(
                chits_to_draw(side, self.missions[side], self.commander_id(side)), len(mug(d["combat_type"]))
            )
            drawn = draw_chits(
                self.dice, d["combat_type"], n, side
            )  # 9.5 / 14.2.1: 3 or 2 kept as 1 (R-LDR-05)
            yield self.ruling(
                drawn.rule_id,
                drawn.title,
                drawn.explanation,
                result=drawn.result,
                dice=drawn.dice,
                lookup=drawn.lookup,
                places=[d["hex"]],
            )
            if n > 1:
                k = yield self.decide(
                    side, "Which combat chit is kept?", "ROW-5.2.1", chit_options(drawn), kind="combat_chit"
                )
                chits[uid], kr = keep_chit(drawn, k["chit"])
                yield self._stamp(kr)
            else:
                chits[uid] = chit_by_id(drawn.result["chits"][0])
            self.chit_hexes = sorted({*self.chit_hexes, d["hex"]})
            o = self.objectives.get(d["hex"])
            if o is not None:
                o["chit"] = True
                if not o["revealed"]:
                    o["revealed"] = True
                    yield self.ruling(
                        "ROW-12.1.3",
                        "Objective revealed",
                        f"A combat chit is placed on {d['hex']}: "
                        f"its Objective marker is revealed, value {o['value']}; the combat decides it.",
                        result={"hex": d["hex"], "value": o["value"]},
                        places=[d["hex"]],
                    )
            if r.result["resolve_now"]:
                yield from self._fight(uid, d["hex"], "meeting_engagement", chits[uid])
                resolved_me.append(uid)
                if self._over:
                    return
        self.act = H.end_initial_movement(self.act)
        # step 4: the other side's reserve move (the reaction window, 4.7)
        yield from self.react("reserve")
        if self.act.step == "reserve":
            self.act = H.end_reserve(self.act)
        # step 5: early exploitation
        for eo in H.early_exploitation_units(self.act, self.situation(), resolved_me=resolved_me, m=self.map):
            if eo["unit"] in self.act.declared or eo["unit"] in created:
                continue  # ROW-4.6: declaring a combat ended the unit's movement; 14.1.1: a parent stays put
            mo = self.moves(eo["unit"], "early_exploitation")
            if len(mo) > 1:
                m = yield self.decide(
                    side,
                    f"Early exploitation of {self.rows[eo['unit']].name} (3 MP, no enemy ZoC)",
                    "ROW-4.8",
                    mo,
                    unit=eo["unit"],
                    kind="early_exploitation",
                )
                yield from self._move(eo["unit"], m, "early_exploitation")
        self.act = H.end_early_exploitation(self.act)
        ctx["stage"], ctx["done"] = "combat", list(resolved_me)

    def _activation_combats(self, side: str, ctx: dict[str, Any]):
        """ROW-9.2 steps 6-8: the declared combats in the player's order (a restartable loop), the HQ, stacking."""
        mission = self.missions[side]
        created, chits, done = ctx["created"], ctx["chits"], ctx["done"]
        # step 6: combats in the phasing player's order
        while True:
            self.checkpoint("activation", **ctx)
            co = H.combat_order_options(self.act, done)
            if not co:
                break
            c = (
                co[0]
                if len(co) == 1
                else (
                    yield self.decide(
                        side, "Which declared combat is resolved next?", "ROW-9.2", co, kind="combat_order"
                    )
                )
            )
            done.append(c["unit"])
            ct = self.act.declared[c["unit"]][1]
            yield from self._fight(c["unit"], c["hex"], ct, chits[c["unit"]])
            if self._over:
                return
        self.act = H.end_combats(self.act)
        # step 7: the HQ moves, stays, or stays and re-freshens
        moved = False
        if self.act.hq in self.pos:
            ho = _plain(
                H.hq_end_options(
                    self.act, self.situation(), self.pools_obj(), self.tracer(), mission=mission, m=self.map
                )
            )
            ho = self.in_window([o for o in ho if o.kind != "hq_stays"]) + [
                o for o in ho if o.kind == "hq_stays"
            ]
            h = yield self.decide(
                side,
                f"{self.rows[self.act.hq].name}: move, stay, or stay and re-freshen",
                "ROW-9.3",
                ho,
                kind="hq_end",
            )
            if h.kind == "move":
                yield from self._move(self.act.hq, h, "hq")
                moved = True
            elif h.kind == "refresh_hq":
                sit, pools, r = H.refresh_hq(
                    self.situation(), self.pools_obj(), h, self.tracer(), "activation", m=self.map
                )
                self.fresh[h["hq"]] = True
                self.set_pools(pools)
                self._touch()
                yield self.ruling(
                    r.rule_id, r.title, r.explanation, result=r.result, lookup=r.lookup, side=side
                )
            else:
                yield self.ruling(
                    "ROW-9.3",
                    "HQ stays",
                    f"{self.rows[self.act.hq].name} stays spent at {self.pos[self.act.hq]}.",
                    result={"hq": self.act.hq},
                )
        self.act = H.end_hq_step(self.act, moved)
        if side == CAPITALIST:  # 14.3 (tunnels.py, R-TUN-01): active units on Hidden tunnels
            yield from self.tunnel_casualties(list(self.act.units))
            if self._over:
                return
        # 14.1.1: created units leave the map at the end of the activation (before the stacking check, R-GAME-06)
        for parent, kid in sorted(created.items()):
            yield from self._disband(kid, parent)
            if self._over:
                return
        if self.lz:
            yield self.ruling(
                "ROW-14.1.2",
                "Landing Zones removed",
                f"The Landing Zones at {', '.join(self.lz)} come off the map.",
                result={"removed": list(self.lz)},
                places=list(self.lz),
            )
            self.lz = []
            self._touch()
        # step 8: stacking (both sides' spent units, R-GAME-14)
        for s in (side, other(side)):
            while True:
                so = movement.stacking_options(self.situation(), s)
                if not so:
                    break
                yield self.ruling(
                    "ROW-4.2",
                    "Stacking check",
                    movement.stacking_check(self.situation(), s).explanation,
                    result={"side": s},
                )
                e = yield self.decide(
                    s, "Overstacked: which spent unit is eliminated?", "ROW-4.2", so, kind="overstack_loss"
                )
                yield from self._eliminate(e["unit"], "Overstacked (4.2)")
                if self._over:
                    return
        self.act = None
        self._touch()
        yield from self._hot_fire_bases()
        yield from self._prune_works()
        yield self.ruling(
            "ROW-9.2",
            "Activation over",
            f"The {side} activation of {ctx['hq']} is over.",
            result={"hq": ctx["hq"]},
        )

    def _flights(self, uid: str) -> list[Action]:
        """ROW-14.1.2: a created unit on the hex where it was created may fly: ½ MP a hex (up to 5 MP, so 10
        hexes) ignoring terrain and enemy units, landing on a hex with no enemy piece inside its operational
        limits, for its helicopter points (Helicopter Used counts down)."""
        r = self.rows[uid]
        cost = r.helicopter_cost
        if (
            not r.has("created")
            or cost is None
            or self.pools["Helicopter Used"] < cost
            or uid not in self.pos
        ):
            return []
        here = self.pos[uid]
        if self.rows[r.parent].kind != "unit" or self.pos.get(r.parent) != here:
            return []
        sit = self.situation()
        ok = allowed_hexes(sit.piece(uid), sit.invaded, self.map) & self.window_land
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != r.side}
        out = []
        for h in sorted(ok):
            d = self.map.distance(here, h)
            if 0 < d <= 2 * movement.UNIT_MP and h not in enemy:
                out.append(
                    Action.make(
                        "fly",
                        f"Fly {r.name} to {h} ({cost} helicopter points, {d / 2:g} MP)",
                        [h],
                        unit=uid,
                        to=h,
                        cost=cost,
                        mp=str(Fraction(d, 2)),
                    )
                )
        return out

    def _landings(self, uid: str) -> list[Action]:
        """ROW-14.1.3: a Marine battalion on a coastal hex may move by sea, coastal and all-sea hexes only, 1/3 MP
        a hex (so 15 hexes) ignoring terrain, enemy units and ZoCs, and land on a coastal hex with no enemy piece
        inside its limits and the window (then move on land with the MP left)."""
        r = self.rows[uid]
        if r.nationality != "US" or r.unit_type != "battalion" or not r.has("marine") or uid not in self.pos:
            return []
        here = self.pos[uid]
        if not self.map.is_coastal(here):
            return []
        sit = self.situation()
        ok = allowed_hexes(sit.piece(uid), sit.invaded, self.map) & self.window_land
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != r.side}
        seen, frontier, out = {here: 0}, [here], []
        while frontier:
            nxt = []
            for h in frontier:
                for n in self.map.neighbours(h):
                    if (
                        n in seen
                        or not (self.map.is_sea(n) or self.map.is_coastal(n))
                        or not self.window.contains(n)
                    ):
                        continue
                    seen[n] = seen[h] + 1
                    if seen[n] < 3 * movement.UNIT_MP:
                        nxt.append(n)
            frontier = nxt
        for h, d in sorted(seen.items()):
            if d and self.map.is_coastal(h) and h in ok and h not in enemy and d <= 3 * movement.UNIT_MP:
                out.append(
                    Action.make(
                        "amphibious",
                        f"Land {r.name} at {h} from the sea ({d} hexes, {d / 3:.2g} MP)",
                        [h],
                        unit=uid,
                        to=h,
                        mp=str(Fraction(d, 3)),
                    )
                )
        return out

    def _land(self, uid: str, a: Action):
        """ROW-14.1.3: the amphibious move (its path by sea is not blocked by enemy units or ZoCs)."""
        frm = self.pos[uid]
        self.place(uid, a["to"])
        self._touch()
        yield self.ruling(
            "ROW-14.1.3",
            "Amphibious landing",
            f"{self.rows[uid].name} moves by sea from {frm} and "
            f"lands at {a['to']} ({a['mp']} MP); only one such move is made in an activation.",
            result={"unit": uid, "to": a["to"]},
            places=[frm, a["to"]],
        )
        yield from self._rout(a["to"], self.side_of(uid))

    def _fly(self, uid: str, a: Action):
        """ROW-14.1.2.2: the flight, the Landing Zone (Capitalist control around it) and a Hot LZ if the landing hex
        is in an enemy ZoC (Helicopter Available -1)."""
        frm = self.pos[uid]
        new, r = change(self.pools_obj(), "Helicopter Used", -a["cost"], f"{uid} flies")
        self.set_pools(new)
        self.place(uid, a["to"])
        self.lz = sorted({*self.lz, a["to"]})
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Helicopter movement",
            f"{self.rows[uid].name} flies from {frm} to "
            f"{a['to']} ({a['mp']} MP) and a Landing Zone is placed there. {r.explanation}",
            result={"unit": uid, "to": a["to"], "cost": a["cost"]},
            places=[frm, a["to"]],
        )
        sit = self.situation()
        if a["to"] in enemy_zoc(sit, CAPITALIST, self.map):
            new, r = change(self.pools_obj(), "Helicopter Available", -1, "Hot LZ", forced=True)
            self.set_pools(new)
            yield self.ruling(
                "ROW-14.1.2",
                "Hot LZ",
                f"The Landing Zone at {a['to']} is in an enemy ZoC: it turns Hot. {r.explanation}",
                result={"hex": a["to"]},
                places=[a["to"]],
            )

    def _creatable(self, uid: str) -> list[str]:
        """ROW-14.1.1: the battalions (ARVN regiments) a US cadre, regiment or brigade, or an ARVN division, may
        create now: its own, not on the map."""
        r = self.rows[uid]
        if not (
            (r.nationality == "US" and r.unit_type in ("cadre", "regiment", "brigade"))
            or (r.nationality == "ARVN" and r.unit_type == "division")
        ):
            return []
        return [k for k in self.all_ids if self.rows[k].parent == uid and self.box.get(k) == "unformed"]

    def _disband(self, kid: str, parent: str):
        """ROW-14.1.1: a created unit leaves the map at the end of its activation: free with a LoC, else a D6 of US
        Casualties (US only); markers it gained pass to its parent if the parent is on the map (which never moved)."""
        if kid not in self.pos:
            return
        hid = self.pos[kid]
        loc = self.tracer().trace(self.situation().piece(kid))
        gained = [m for m in self.markers[kid] if m not in self.markers.get(parent, [])]
        roll = None
        if not loc.result.ok and self.rows[kid].nationality == "US":
            roll = self.dice.roll(6, f"{kid} leaves without a LoC")
        if parent in self.pos and gained:
            self.markers[parent] = tuple(sorted({*self.markers[parent], *gained}))
            self.markers[kid] = ()
        else:
            self._clear_markers(kid)
        self.place(kid, None, "unformed")
        self.fresh[kid] = True
        self._touch()
        yield self.ruling(
            "ROW-14.1.1",
            "Created unit leaves",
            f"{self.rows[kid].name} leaves the map at {hid}"
            + (
                f"; it cannot trace a LoC: D6 = {roll.value} US Casualties"
                if roll
                else " (it traces a LoC)"
                if loc.result.ok
                else " (no LoC; not a US unit, so no roll)"
            )
            + (f"; its markers {', '.join(gained)} pass to {parent}" if gained and parent in self.pos else "")
            + ".",
            result={"unit": kid, "hex": hid, "casualties": roll.value if roll else 0},
            dice=[roll] if roll else [],
            places=[hid],
        )
        if roll:
            yield from self._accumulate("US Casualties", roll.value)

    def may_reserve(self) -> bool:
        """ROW-4.7 / ROW-5.2.2: a reserve move needs a fresh HQ with a LoC, not in an enemy ZoC."""
        return any(
            o.kind == "reserve_hq"
            for o in H.reserve_hq_options(
                self.act, self.situation(), self.tracer(), no_reserve=self._giap_uprising()
            )
        )

    def division_of(self, uid: str) -> str:
        """ROW-9.4 / R-SCN-12: a US unit's division, or the one the scenario attaches it to until a turn."""
        for a in self.scenario.attachments:
            if a.unit == uid and self.season < a.until_turn:
                return a.division
        return self.rows[uid].division or ""

    def cadre_trace(self, c: CombatSides, role: str, hid: str) -> Ruling | None:
        """ROW-9.4 (cadres.py, R-CAD-01): None when no US division unit is a key unit of ``role``; else the trace
        of the first such unit whose division has a cadre on the map (attacker: from every attacking unit;
        defender: from the combat hex), passing when any of them passes."""
        from .cadres import cadre_trace

        out = None
        for u in c.key_units(role):
            div = self.division_of(u.uid) if self.rows[u.uid].nationality == "US" else ""
            if not div or self.rows[u.uid].unit_type == "cadre":
                continue
            frm = [self.pos[x.uid] for x in c.attackers() if x.uid in self.pos] if role == ATTACKER else [hid]
            cad = [
                h
                for x, h in self.pos.items()
                if self.rows[x].unit_type == "cadre"
                and self.division_of(x) == div
                and self.rows[x].nationality == "US"
            ]
            r = cadre_trace(self.map, div, frm, cad, self.fire_bases)
            if r.result:
                return r
            out = r
        return out

    def _giap_uprising(self) -> bool:
        """ROW-14.2.1: with Giap in command, no Capitalist reserve moves during a General Uprising."""
        return (
            self.act is not None
            and self.act.side == COMMUNIST
            and self.commander_id(COMMUNIST) == "vo_nguyen_giap"
            and self.missions[COMMUNIST] == "general_uprising"
        )

    def reserve_movement(self, side: str):
        """ROW-4.7 (the reaction window): the non-phasing side may move one fresh HQ and up to 4 fresh units."""
        opts = H.reserve_hq_options(
            self.act, self.situation(), self.tracer(), no_reserve=self._giap_uprising()
        )
        a = yield self.decide(
            side, f"{side}: a reserve move against this activation?", "ROW-4.7", opts, kind="reserve_hq"
        )
        if a.kind == "no_reserve":
            yield self.ruling("ROW-4.7", "No reserve move", f"The {side} makes no reserve move.", result={})
            return
        chosen: list[str] = []
        while len(chosen) < H.UNITS_PER_ACTIVATION:
            uo = [
                o
                for o in H.reserve_unit_options(
                    self.act, self.situation(), a["hq"], mission=self.missions[side], m=self.map
                )
                if o["unit"] not in chosen and not self._surprised(o["unit"])
            ]
            if not uo:
                break
            u = yield self.decide(
                side,
                f"Reserve unit for {a['hq']} ({len(chosen)} of 4)",
                "ROW-4.7",
                [*uo, Action.make("done_reserve", "No more reserve units")],
                kind="reserve_unit",
            )
            if u.kind == "done_reserve":
                break
            chosen.append(u["unit"])
        sit, self.act, r = H.reserve_activation(
            self.act,
            self.situation(),
            a["hq"],
            chosen,
            self.tracer(),
            mission=self.missions[side],
            m=self.map,
        )
        for u in (a["hq"], *chosen):
            self.fresh[u] = False
        self._touch()
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, side=side)
        for uid in chosen:
            mo = self.moves(uid, "reserve")
            if len(mo) > 1:
                m = yield self.decide(
                    side,
                    f"Reserve move of {self.rows[uid].name} (5 MP)",
                    "ROW-4.7",
                    mo,
                    unit=uid,
                    kind="move",
                )
                yield from self._move(uid, m, "reserve")
        mo = self.moves(a["hq"], "reserve_hq")
        if len(mo) > 1:
            m = yield self.decide(
                side,
                f"Reserve move of {self.rows[a['hq']].name} (5 MP, R-HQ-02)",
                "ROW-4.7",
                mo,
                unit=a["hq"],
                kind="move",
            )
            yield from self._move(a["hq"], m, "reserve_hq")

    # ------------------------------------------------------------------ one combat (ROW-5.0)
    def _fight(self, uid: str, hid: str, ct: str, chit):
        """ROW-5.0: resolve one declared combat with ``resolve.resolve_combat`` and apply what it changed.  The
        attacker, then the defender, picks adjacent supporting units (5.3.3); every unit in the hex defends
        (R-CBT-06); a combat with nobody left to fight lapses (R-GAME-03)."""
        from .resolve import CombatContext, resolve_combat  # imported at the first combat (issue #21)

        side = self.side_of(uid)
        defenders = [
            u for u in self.at_hex.get(hid, []) if self.side_of(u) != side and self.rows[u].kind == "unit"
        ]
        if uid not in self.pos or not defenders or hid not in self.map.neighbours(self.pos[uid]):
            yield self.ruling(
                "ROW-5.1",
                "Combat lapses",
                f"No enemy unit is left at {hid}, or the attacker is gone or no "
                "longer next to it: "
                "the declared combat is not fought (R-GAME-03).",
                result={"hex": hid},
                places=[hid],
            )
            return
        supporters: dict[str, list[str]] = {}
        row = H.mission_row(side, self.missions[side])
        for who in (side, other(side)):  # ROW-5.3.3: the attacker chooses his supporters first
            cands = sorted(
                u
                for h in self.map.neighbours(hid)
                for u in self.at_hex.get(h, [])
                if self.side_of(u) == who
                and self.rows[u].kind == "unit"
                and u != uid
                and "Routed" not in self.markers[u]
            )
            if who == side and row is not None and row.attacks == "arvn_only":  # ROW-9.5 Vietnamization
                cands = [u for u in cands if self.rows[u].nationality == "ARVN"]
            chosen: list[str] = []
            while True:
                opts = [
                    Action.make(
                        "add_supporter",
                        f"{self.rows[u].name} at {self.pos[u]} supports the "
                        + ("attack" if who == side else "defence"),
                        [self.pos[u]],
                        unit=u,
                    )
                    for u in cands
                    if u not in chosen
                ]
                if not opts:
                    break
                a = yield self.decide(
                    who,
                    f"Combat at {hid}: add an adjacent unit to the "
                    + ("attack" if who == side else "defence")
                    + f"? ({len(chosen)} so far)",
                    "ROW-5.3.3",
                    [*opts, Action.make("done_support", "No more supporting units")],
                    kind="combat_supporter",
                )
                if a.kind == "done_support":
                    break
                chosen.append(a["unit"])
            supporters[who] = chosen
        active = set(self.act.units) if self.act is not None else set()
        active -= {
            self.rows[k].parent for k in active if self.rows[k].has("created")
        }  # 14.1.1: parents stay put
        c = CombatSides(
            hid,
            ct,
            chit,
            self._cu(uid, active=True),
            tuple(self._cu(u, active=u in active) for u in supporters[side]),
            tuple(self._cu(d) for d in defenders),
            tuple(self._cu(u) for u in supporters[other(side)]),
        )
        sit = self.situation()
        terr = self.map.settlement(hid) or self.map.terrain(hid)  # a town or city replaces the terrain (TEC)
        tec = self.map.tec.get(terr)
        factor = terrain_factor(tec.support_factor) if tec else Fraction(1)
        die_mod = int(tec.defender_die_mod) if tec else 0
        across = next((f for f in ("river", "bridge") if self.map.side_has(self.pos[uid], hid, f)), None)
        river_mod = int(self.map.tec[across].defender_die_mod) if across else 0
        near_sea = any(self.map.is_sea(h) for h in self.map.within(hid, 2))
        if self.fleet_on():  # ROW-11.2: only the fleet's own zone of the Station line
            near_sea = self.fleet_reaches(hid)
        cut = set()  # ROW-10.4.1: sides whose tank and artillery support air interdiction cuts in this combat
        for s in (side, other(side)):
            if (
                yield from self.air_interdicts(
                    s, "combat_support", hid, f"the {s} tank and artillery support at {hid}"
                )
            ):
                cut.add(s)

        def sup(role: str, s: str) -> SupportSituation:
            lv = support_levels(c, role, self.air_pools(hid)).result  # ROW-11.4: Navy air by station
            loc_ok = not any("OOC" in self.markers[u.uid] for u in c.key_units(role))
            fb = s == CAPITALIST and any(self.map.distance(h, hid) <= 2 for h in self.fire_bases)
            cad = self.cadre_trace(c, role, hid) if loc_ok and s == CAPITALIST else None  # 9.4 (cadres.py)
            keys = c.key_units(role)
            near = {
                hid,
                *self.map.neighbours(hid),
            }  # 14.2.1 (leaders.py, R-LDR-04): a US unit in or next to it
            wm = westmoreland_arvn(
                self.commander_id(s),
                {self.rows[u.uid].nationality for u in keys},
                any(
                    self.rows[x].nationality == "US" and self.rows[x].kind == "unit"
                    for h in near
                    for x in self.at_hex.get(h, ())
                ),
            )
            relief = planning_relief(self.commander_id(s), self.rows[keys[0].uid].nationality) if keys else {}
            return SupportSituation(
                lv,
                factor,
                trace=loc_ok,
                fire_base=fb,
                bombardment_in_range=near_sea,
                restricted=self.restricted[s] != "none" and s == CAPITALIST,
                interdicted=s in cut,
                no_support="out of communications (6.2 case i)"
                if not loc_ok
                else (
                    f"9.4: {cad.explanation}"
                    if cad is not None and not cad.result
                    else (wm.explanation if wm is not None else "")
                ),
                planning_relief=relief,
            )

        # 14.2.2: a ground commander on the activating HQ counts for the attack of a unit of his nationality; one on
        # an HQ within whose command range the defenders stand counts for the defence (the attacker picks if
        # several; decision R-GAME-10)
        att_lead = 0
        if self.act is not None:
            for ld, hq in sorted(self.leaders.items()):
                if hq == self.act.hq and self.rows[ld].nationality == self.rows[uid].nationality:
                    att_lead = self.rows[ld].leader_value or 0
        def_nats = {self.rows[d].nationality for d in defenders}
        cands = [
            (ld, hq)
            for ld, hq in sorted(self.leaders.items())
            if hq in self.pos
            and self.side_of(hq) == other(side)
            and self.rows[ld].nationality in def_nats
            and hid in H.command_range(sit.piece(hq), sit, m=self.map)
        ]
        def_lead = 0
        if cands:
            pick = cands[0]
            if len(cands) > 1:
                a = yield self.decide(
                    side,
                    "Which enemy ground commander counts for the defence?",
                    "ROW-14.2.2",
                    [
                        Action.make(
                            "defence_leader",
                            f"{self.rows[ld].name} ({self.rows[ld].leader_value:+d})",
                            leader=ld,
                        )
                        for ld, _ in cands
                    ],
                    kind="defence_leader",
                )
                pick = next(c for c in cands if c[0] == a["leader"])
            def_lead = self.rows[pick[0]].leader_value or 0
        if att_lead or def_lead:
            yield self.ruling(
                "ROW-14.2.2",
                "Ground commanders",
                f"Ground commander values on the final spread: "
                f"attacker {att_lead:+d}, defender {def_lead:+d}.",
                result={"attacker": att_lead, "defender": def_lead},
                places=[hid],
            )
        zocs = {s: enemy_zoc(sit, s, self.map) for s in SIDES}
        occ = {s: sit.occupied(other(s)) for s in SIDES}
        # ROW-14.6: a retreat never enters a hex a retreating unit's operational limits forbid (nor leaves the
        # scenario's window): such hexes are closed to the side like enemy-occupied ones
        allowed = {}
        for s in SIDES:
            ok = None
            for cu in c.all_units():
                if cu.side == s:
                    mine = allowed_hexes(sit.piece(cu.uid), sit.invaded, self.map)
                    ok = mine if ok is None else ok & mine
            allowed[s] = ok if ok is not None else frozenset()
        ctx = CombatContext(
            attack=sup(ATTACKER, side),
            defense=sup("defender", other(side)),
            terrain=terr,
            terrain_die_mod=die_mod,
            river_mod=river_mod,
            every_attacker_across_river=bool(across),
            defence_works=self.works.get(hid) if side == CAPITALIST else None,
            attacker_leader=att_lead,
            defender_leader=def_lead,
            replacements={
                CAPITALIST: self.pools["Capitalist Replacements"],
                COMMUNIST: self.pools["Communist Replacements"],
            },
            westmoreland=self.commander(CAPITALIST) == "Westmoreland",
            positions={u.uid: self.pos[u.uid] for u in c.all_units()},
            neighbours=lambda h: [n for n in self.map.neighbours(h) if n in self.window_land],
            distance=self.map.distance,
            enemy_occupied=lambda s, h: h in occ[s] or h not in allowed[s],
            enemy_zoc=lambda s, h: h in zocs[s],
        )
        t = tables()
        track_of = {CAPITALIST: None, COMMUNIST: None}
        for role, s in ((ATTACKER, side), ("defender", other(side))):
            who = c.declarer if role == ATTACKER else sorted(c.defenders, key=lambda u: u.size_class)[0]
            track_of[s] = t.support_tracks[who.nationality]
        yield self.ruling(
            "ROW-5.3.3",
            "Who fights",
            f"{self.rows[uid].name} attacks {hid} ({terr}"
            + (f", across a {across}" if across else "")
            + ")"
            + (f" supported by {', '.join(supporters[side])}" if supporters[side] else "")
            + f"; {', '.join(self.rows[d].name for d in defenders)} defend"
            + (f", supported by {', '.join(supporters[other(side)])}" if supporters[other(side)] else "")
            + ".",
            result={
                "attacker": uid,
                "attack_supporters": supporters[side],
                "defenders": defenders,
                "defense_supporters": supporters[other(side)],
                "terrain": terr,
                "river": across,
            },
            places=[hid],
        )
        mark = len(self.log)
        out = yield from self._relay(resolve_combat(self.dice, c, ctx, SnafuCup(tuple(sorted(self.snafu)))))
        # apply the outcome
        self.snafu = list(out.cup.counters) if out.cup else self.snafu
        for u, cu in out.units.items():
            if u in self.pos:
                self.fresh[u] = cu.fresh
                self.markers[u] = tuple(sorted(m for m in cu.markers if m != self.rows[u].quality))
        for u, path in out.retreats.items():
            if u in self.pos:
                self.place(u, path[-1])
        self._touch()
        if out.retreats:
            yield self.ruling(
                "ROW-5.6",
                "Retreats",
                "; ".join(f"{u} retreats {' -> '.join(p)}" for u, p in sorted(out.retreats.items())) + ".",
                result={"retreated": sorted(out.retreats)},
                places=sorted({h for p in out.retreats.values() for h in p}),
            )
        for s, kinds in out.support_levels.items():
            for kind, n in kinds.items():
                track = getattr(track_of[s], kind, None)
                if track and n:
                    new, r = change(
                        self.pools_obj(), track, n, "support lost in the retreat (R-CBT-11)", forced=True
                    )
                    self.set_pools(new)
                    yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)
        for s, n in out.replacements.items():
            new, r = change(
                self.pools_obj(), f"{s} Replacements", n, "a replacement point absorbs a loss", forced=True
            )
            self.set_pools(new)
            yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)
        for u in out.eliminated:
            if u in self.pos:
                self.place(u, None, "unformed" if self.rows[u].has("created") else "replacements")  # 13.2
                self._clear_markers(u)
                self.fresh[u] = False
        self._touch()
        if out.eliminated:
            yield self.ruling(
                "ROW-5.6",
                "Eliminated units",
                f"{', '.join(out.eliminated)} go to the Replacements box (their loss rolls are above).",
                result={"eliminated": list(out.eliminated)},
            )
        yield from self.air_after_combat(mark, hid)  # ROW-10.4.2: the aircraft that flew the air support
        cap_won = (out.winner == ATTACKER) == (side == CAPITALIST)
        if out.objective and hid not in self.objectives and sum(self.obj_pool.values()):
            value, self.obj_pool, r = V.draw_objective(self.dice, self.obj_pool, revealed=True)
            self.objectives[hid] = {"value": value, "revealed": True, "chit": True}
            yield self._stamp(dc_replace(r, places=(hid,)))
        yield from self._objective_after_combat(hid, cap_won)
        if self._over:
            return
        for u in out.advanced:
            if u in self.pos:
                self.place(u, hid)
        if out.advanced:
            yield self.ruling(
                "ROW-5.7",
                "Advance",
                f"{', '.join(out.advanced)} enter {hid}.",
                result={"advanced": list(out.advanced), "hex": hid},
                places=[hid],
            )
            yield from self._rout(hid, side)
        for track, n in sorted(out.tracks.items()):
            if track in ACC_TRACK:
                yield from self._accumulate(track, n)
            if self._over:
                return
        if out.advanced:
            for u in out.advanced:
                if out.adv_mp and u in self.pos:
                    mo = self.moves(u, "exploitation", mp=out.adv_mp)
                    if len(mo) > 1:
                        m = yield self.decide(
                            side,
                            f"Exploitation of {self.rows[u].name} ({out.adv_mp} MP)",
                            "ROW-4.8",
                            mo,
                            unit=u,
                            kind="move",
                        )
                        yield from self._move(u, m, "exploitation", mp=out.adv_mp)

    # ------------------------------------------------------------------ end of the player turns
    def _prune_works(self):
        """ROW-6.2 b, c: a Bunker or Fortification no Communist unit occupies is removed (at the end of each
        activation, decision R-GAME-12)."""
        for h in sorted(self.works):
            if not any(
                self.side_of(u) == COMMUNIST and self.rows[u].kind == "unit" for u in self.at_hex.get(h, [])
            ):
                gone = self.works.pop(h)
                yield self.ruling(
                    "ROW-6.2",
                    f"{gone} removed",
                    f"No Communist unit holds {h}: its {gone} is removed.",
                    result={"hex": h, "works": gone},
                    places=[h],
                )

    def _place_bunker(self, a: Action):
        hid = self.pos[a["unit"]]
        if self.works.get(hid) != "Fortification":
            self.works[hid] = "Bunker"
        yield self.ruling(
            "ROW-9.5",
            "Bunker placed",
            f"A Bunker is placed with {self.rows[a['unit']].name} at "
            f"{hid}: a defender there takes 1 less from the final spread (6.2 c).",
            result={"hex": hid},
            places=[hid],
        )

    def communist_mission_effects(self):
        """ROW-9.5, end of the Communist Activation phase: Infiltrate (a D6 per VC unit in a cultivated hex, each 1
        costs the Capitalist 1 Infrastructure; one Bunker on a VC unit; the Airfield Strikes are not in this
        scenario) or Recruit (up to three Bunkers on units in Communist-controlled hexes)."""
        mission = self.missions[COMMUNIST]
        sit = self.situation()
        if mission == "infiltrate":
            r, opts = H.infiltrate_end_of_phase(sit, self.dice, self.map)
            yield self._stamp(
                dc_replace(
                    r,
                    explanation=r.explanation
                    + ("" if self.air_on() else " (Airfield strikes: none, this scenario has no airfields.)"),
                )
            )
            if self.air_on():  # ROW-10.3.3.1: the VC's airfield strikes under Infiltrate
                yield from self.air_vc_airfield_strikes()
            if r.result["infrastructure"]:
                new, rr = change_infrastructure(
                    self.pools_obj(), CAPITALIST, r.result["infrastructure"], "Infiltrate"
                )
                self.set_pools(new)
                yield self._stamp(rr)
            a = yield self.decide(
                COMMUNIST, "Infiltrate: place a Bunker on a VC unit?", "ROW-9.5", opts, kind="bunker"
            )
            if a.kind == "place_bunker":
                yield from self._place_bunker(a)
        elif mission == "recruit":
            cap = capitalist_controlled(sit, self.map)
            placed = 0
            while True:
                ctl = frozenset(h for h in self.at_hex if h not in cap)
                opts = H.recruit_bunker_options(self.situation(), ctl, placed)
                if len(opts) <= 1:
                    break
                a = yield self.decide(
                    COMMUNIST, f"Recruit: place Bunker {placed + 1} of 3?", "ROW-9.5", opts, kind="bunker"
                )
                if a.kind == "no_bunker":
                    break
                placed += 1
                yield from self._place_bunker(a)
        else:
            yield self.ruling(
                "ROW-9.5",
                "End-of-phase mission effects",
                f"The Communist mission ({mission}) has no effect at the end of the Activation phase.",
                result={"mission": mission},
            )

    def capitalist_mission_effects(self):
        """ROW-9.5 Vietnamization, end of the Capitalist Activation phase: twice, an Elite marker on an ARVN
        division or a Poor marker off one."""
        mission = self.missions[CAPITALIST]
        if mission != "vietnamization":
            yield self.ruling(
                "ROW-9.5",
                "End-of-phase mission effects",
                f"The Capitalist mission ({mission}) has no effect at the end of the Activation phase.",
                result={"mission": mission},
            )
            return
        done = 0
        while True:
            opts = H.vietnamization_options(self.situation(), done)
            if len(opts) <= 1:
                break
            a = yield self.decide(
                CAPITALIST,
                f"Vietnamization: improvement {done + 1} of 2",
                "ROW-9.5",
                opts,
                kind="vietnamization",
            )
            if a.kind == "stop":
                break
            done += 1
            u = a["unit"]
            marks = set(self.markers[u])
            marks = (marks | {"Elite"}) if a.kind == "add_elite" else (marks - {"Poor"})
            self.markers[u] = tuple(sorted(marks))
            self._touch()
            yield self.ruling(
                "ROW-9.5",
                "Vietnamization",
                f"{a.label}.",
                result={"unit": u, "change": a.kind},
                places=[self.pos[u]],
            )

    def _build_fire_base(self):
        """ROW-14.1.2: the Capitalist may build a Fire Base on a Capitalist-controlled hex (2 helicopter points): it
        controls its hex and the adjacent ones and gives artillery support within 2 hexes whatever the trace; in an
        enemy ZoC it turns Hot (US Artillery -1)."""
        if self.pools["Helicopter Used"] < 2:
            return
        cap = capitalist_controlled(self.situation(), self.map)
        enemy = {h for u, h in self.pos.items() if self.side_of(u) != CAPITALIST}
        spots = sorted(
            h
            for h in cap & self.window_land
            if h not in self.fire_bases and h not in enemy and self.map.country(h) == "SVN"
        )
        if not spots:
            return
        a = yield self.decide(
            CAPITALIST,
            "Build a Fire Base (2 helicopter points)?",
            "ROW-14.1.2",
            [
                *(Action.make("fire_base", f"Fire Base at {h}", [h], hex=h) for h in spots),
                Action.make("no_fire_base", "No Fire Base"),
            ],
            kind="fire_base",
        )
        if a.kind == "no_fire_base":
            return
        new, r = change(self.pools_obj(), "Helicopter Used", -2, "a Fire Base")
        self.set_pools(new)
        self.fire_bases[a["hex"]] = "Fire Base"
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Fire Base built",
            f"A Fire Base goes on {a['hex']}. {r.explanation}",
            result={"hex": a["hex"]},
            places=[a["hex"]],
        )
        yield from self._hot_fire_bases()

    def _hot_fire_bases(self):
        """ROW-14.1.2: a Fire Base in an enemy ZoC turns Hot once: US Artillery -1."""
        zoc = enemy_zoc(self.situation(), CAPITALIST, self.map)
        for h, state in sorted(self.fire_bases.items()):
            if state == "Fire Base" and h in zoc:
                self.fire_bases[h] = "Hot FB"
                new, r = change(self.pools_obj(), "US Artillery", -1, "Hot Fire Base", forced=True)
                self.set_pools(new)
                self._touch()
                yield self.ruling(
                    "ROW-14.1.2",
                    "Hot Fire Base",
                    f"The Fire Base at {h} is in an enemy ZoC and turns Hot. {r.explanation}",
                    result={"hex": h},
                    places=[h],
                )

    def remove_fire_bases(self):
        """ROW-14.1.2: the Fire Bases still on the map come off at the end of the Capitalist turn."""
        gone = sorted(self.fire_bases)
        self.fire_bases.clear()
        self._touch()
        yield self.ruling(
            "ROW-14.1.2",
            "Fire Bases",
            (f"The Fire Bases at {', '.join(gone)} come off" if gone else "No Fire Base is on the map") + ".",
            result={"removed": gone},
            places=gone,
        )

    def discover_tunnels(self):
        """ROW-14.3: a Hidden tunnel with a US or Capitalist Minor unit on it is Discovered (not by ARVN)."""
        found = []
        for h, st in sorted(self.tunnels.items()):
            if st == "Hidden" and any(
                self.side_of(u) == CAPITALIST
                and self.rows[u].kind == "unit"
                and self.rows[u].nationality in ("US", "ROK", "Thai", "Aus")
                for u in self.at_hex.get(h, [])
            ):
                self.tunnels[h] = "Discovered"
                found.append(h)
        yield self.ruling(
            "ROW-14.3",
            "Tunnels",
            (
                f"Tunnels discovered at {', '.join(found)}"
                if found
                else "No Hidden tunnel has a US or Minor unit on it"
            )
            + ". (Units do not "
            "go into tunnels in this version, decision R-GAME-15.)",
            result={"discovered": found},
            places=found,
        )

    # ================================================================== C) End phase
    def _voluntary(self, side: str, rule: str):
        while True:
            own = [u for u in sorted(self.pos) if self.side_of(u) == side and self.rows[u].kind == "unit"]
            opts = [
                Action.make(
                    "give_up", f"Remove {self.rows[u].name} to the Replacements box", [self.pos[u]], unit=u
                )
                for u in own
            ]
            a = yield self.decide(
                side,
                f"{side}: remove units voluntarily?",
                rule,
                [*opts, Action.make("keep_all", f"{side} keeps every unit")],
                kind="voluntary_removal",
            )
            if a.kind == "keep_all":
                return
            hid = self.pos[a["unit"]]
            sf = (
                self.rows[a["unit"]].has("special_forces") and self.sow_in_play()
            )  # 14.1.5: ready for SOW (sow.py)
            self.place(a["unit"], None, "sf_ready" if sf else "replacements")
            self._clear_markers(a["unit"])
            self._touch()
            yield self.ruling(
                rule,
                "Voluntary elimination",
                f"{self.rows[a['unit']].name} leaves {hid} for the Replacements box (no loss roll).",
                result={"unit": a["unit"]},
                places=[hid],
            )

    def communist_voluntary_elimination(self):
        yield from self._voluntary(COMMUNIST, "ROW-3.0")

    def capitalist_voluntary_elimination(self):
        yield from self._voluntary(CAPITALIST, "ROW-14.1.5")

    def remove_hq_interdicted(self):
        if self.air_on():
            return (yield from self.air_remove_interdicted())
        yield from self._no_air("HQ Interdicted markers", "ROW-10.4.1")

    def us_election(self):
        if self.pol.get("party") and self.scenario.politics.elections:
            yield from self.election_step()  # politics.py (14.5)
            return
        yield self.ruling(
            "ROW-14.5",
            "US election",
            "No US election falls in this scenario.",
            result={"election": False},
            inputs={"scenario rule": "no_elections"},
        )

    def victory_point_check(self):
        """ROW-12.1 / ROW-12.1.1 (C-e): the scenario's end-of-turn awards (immediate ones are given at once), the accumulator rolls, Westmoreland's +1 Unrest,
        the accumulators reset; 31 VP wins at once."""
        sit = self.situation()
        cap = capitalist_controlled(sit, self.map)
        com_units = sit.occupied(COMMUNIST)
        while True:  # 12.1.3: the Communist may claim unfought objectives in hexes he controls
            opts = V.claim_options(
                {h: (o["value"], o["chit"]) for h, o in self.objectives.items()},
                frozenset(h for h in self.objectives if h not in cap),
            )
            if not opts:
                break
            a = yield self.decide(
                COMMUNIST,
                "Claim an Objective marker?",
                "ROW-12.1.3",
                [*opts, Action.make("no_claim", "Claim no more objectives")],
                kind="objective_claim",
            )
            if a.kind == "no_claim":
                break
            o = self.objectives.pop(a["hex"])
            s, r = V.claim_objective(self.vstate(), a["hex"], o["value"], o["chit"], a["hex"] not in cap)
            self.set_vstate(s)
            yield self._stamp(r)
            yield from self._check_win()
            if self._over:
                return
        for aw in self.scenario.victory.awards:
            if aw.when != "end_of_turn":
                continue
            if aw.per == "hex":
                held = [h for h in aw.hexes if h not in cap]
                n = aw.vp * len(held)
                text = (
                    f"{aw.id.replace('_', ' ')}: the {aw.side} controls {', '.join(held) or 'none of them'}"
                )
            elif aw.per == "season" and aw.vp < 0:  # R-SCN-41: a loss every season, never below 0
                have = self.vp["us_military_victory" if aw.side == CAPITALIST else "us_unrest"]
                n = max(aw.vp, -have)
                text = f"{aw.id.replace('_', ' ')}: {aw.condition} ({aw.vp} VP, never below 0)"
                yield self.ruling(
                    "ROW-12.1.2",
                    f"Award: {aw.id.replace('_', ' ')}",
                    text + f": {n} VP to the {aw.side}.",
                    result={"award": aw.id, "vp": n},
                )
                if n:
                    yield from self._award(aw.side, n, f"scenario award {aw.id}")
                continue
            else:
                zone = {
                    x for h in aw.hexes for x in ([h, *self.map.within(h, aw.radius)] if aw.radius else [h])
                }
                ok = not (zone & com_units)
                n = aw.vp if ok else 0
                text = f"{aw.id.replace('_', ' ')}: {'met' if ok else 'not met'} ({aw.condition})"
            if n:
                val = V.vp_value(
                    "end_turn",
                    missions=dict(self.missions),
                    commander={CAPITALIST: self.commander(CAPITALIST), COMMUNIST: None},
                    base=n,
                    chinese=self.china_in(),
                )
                text += f"; {val.explanation}"
                n = val.result
            yield self.ruling(
                "ROW-12.1",
                f"Award: {aw.id.replace('_', ' ')}",
                text + f": {n} VP to the {aw.side}.",
                result={"award": aw.id, "vp": n},
                places=list(aw.hexes),
            )
            if n:
                yield from self._award(aw.side, n, f"scenario award {aw.id}")
                if self._over:
                    return
        for track, key, side in (
            ("Body Count", "body_count", CAPITALIST),
            ("US Casualties", "casualties", COMMUNIST),
        ):
            if self.vp[key] > 0:
                a = yield self.decide(
                    side,
                    f"End Phase: roll on {track} ({self.vp[key]})?",
                    "ROW-12.1.4",
                    [
                        Action.make("roll_accumulator", f"Roll on {track}", track=key),
                        Action.make("no_roll", f"Do not roll on {track}", track=key),
                    ],
                    kind="accumulator_roll",
                )
                if a.kind == "roll_accumulator":
                    s, r = V.roll_accumulator(self.vstate(), key, self.dice, vp=self._vp_value(key))
                    self.set_vstate(s)
                    yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, dice=r.dice)
                    if s.winner:
                        yield from self._check_win()
                        return
        if self.commander(CAPITALIST) == "Westmoreland":
            yield from self._award(COMMUNIST, 1, "Westmoreland in command (14.2.1)")
            if self._over:
                return
        s, r = V.end_phase_reset(self.vstate())
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result)

    def advance_turn(self):
        """ROW-3.0 / ROW-12.1: the next season, or the end of the scenario (the higher total wins, ties to the
        Communist)."""
        if self.season >= self.scenario.last_turn:
            yield from self.final_result()
            return
        self.missions.update({CAPITALIST: None, COMMUNIST: None})
        self.restricted.update({CAPITALIST: "none", COMMUNIST: "none"})
        yield self.ruling(
            "ROW-3.0",
            "Next season",
            f"{turn_label(self.season)} ends; {turn_label(self.season + 1)} begins.",
            result={"next": self.season + 1},
        )

    def final_result(self):
        r = V.result(self.vstate(), final=True)
        s = self.vstate()
        yield self.end(
            "ROW-12.1",
            f"End of the scenario: the {r.result} wins",
            r.explanation,
            result={
                "winner": r.result,
                "level": "end of scenario",
                "margins": {
                    CAPITALIST: s.us_military_victory - s.us_unrest,
                    COMMUNIST: s.us_unrest - s.us_military_victory,
                },
            },
        )


def _assign(store: dict[str, Any], values: dict[str, Any]) -> None:
    """Make ``store`` hold exactly ``values``, in place (a journalled store writes down the keys that change)."""
    for k in [k for k in store if k not in values]:
        del store[k]
    for k, v in values.items():
        if k not in store or store[k] != v:
            store[k] = v
