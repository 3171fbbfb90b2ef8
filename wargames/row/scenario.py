"""Rumor of War scenarios and the turn track as data (ROW-3.0, ROW-13.1, ROW-13.1.1, ROW-13.1.2, ROW-14.6; scenario book absent).

``data/row/scenarios/<name>.yaml`` holds a scenario: its turns on the calendar (``data/row/calendar.csv``,
decision R-SCN-02), the map window, starting levels, the set-up of units, HQs and leaders, the VC cup (13.1.2),
the reinforcement chart (13.1: units, level changes, events, withdrawals 13.1.3), special rules and the victory
awards (12.1).  The scenario book of the published game is not in our source, so every scenario is a
reconstruction whose every datum carries a ``source`` (decisions R-SCN-nn).

``load_scenario`` validates the file against the counters (``wargames.row.units``), the map
(``wargames.row.hexmap``) and the calendar, and refuses a bad file with a :class:`DataError` that names the
file, the line of the offending YAML entry and its path (``setup[3].hex``):

* a unit on an unknown hex, an all-sea hex, a hex outside the window, or in an area its nationality may not
  enter (ROW-14.6, decision R-SCN-16);
* a leader on an unknown HQ or on an HQ that is not on the map (ROW-14.2.2);
* a reinforcement that is not on a friendly supply source of its nationality (ROW-13.1.1; PAVN may use an
  active trail terminus, decision R-SCN-10) or is a VC unit (VC arrive only by recruitment, 13.1.2);
* a counter used twice, a created battalion or regiment set up (14.1.1), an unknown track, rule id or turn.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..core.data import (
    DataError,
    cached_build,
    game_dir,
    read_yaml,
    rules_index,
    yaml_load,
)
from ..core.sequence import SequenceOfPlay
from .airdata import aircraft_counters
from .hexmap import COLS, ROWS, RowMap, load_map
from .scenario_schema import (  # noqa: F401 - the scenario file's models (section 15), re-exported: scenario.<name> keeps working
    MARKERS,
    SCENARIO_DIR,
    SEASONS,
    SIDES,
    SV_AREAS,
    TRACK_MAX,
    Attachment,
    Award,
    CalendarRow,
    Commander,
    Event,
    ExtraSource,
    LeaderPlacement,
    Level,
    LevelChange,
    ObjectivePool,
    Placement,
    Reinforcement,
    RowScenario,
    SpecialRule,
    Track,
    Tunnel,
    TurnLevel,
    VcCup,
    Victory,
    Window,
    Withdrawal,
    _Item,
    load_calendar,
    turn_label,
)
from .units import UnitRow, load_units
from .victory import missions_table

if TYPE_CHECKING:  # pragma: no cover
    import yaml


# ------------------------------------------------------------------------------------------ YAML lines
def _line_of(root: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the YAML node at ``loc`` (keys and list indexes), or of its nearest parent."""
    import yaml

    node, line = root, (root.start_mark.line + 1 if root is not None else None)
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if getattr(k, "value", None) == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            nxt = node.value[key]
        else:
            nxt = None
        if nxt is None:
            break
        node, line = nxt, nxt.start_mark.line + 1
    return line


def _loc_text(loc: tuple[Any, ...]) -> str:
    out = ""
    for k in loc:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def _check_air(sc: RowScenario, ck: _Checker, check_turn: Any) -> None:
    """ROW-10.0 / ROW-11.0: the ``air:`` and ``fleet:`` blocks (wargames.row.air): not together with the special
    rules that leave them out; turns inside the scenario; Navy aircraft only with the 7th Fleet (11.4)."""
    if sc.air is not None:
        if sc.has_rule("air_war_not_in_play"):
            raise ck.fail(
                ("air",), "an air: block and the special rule air_war_not_in_play exclude each other"
            )
        if sc.air_support:
            raise ck.fail(
                ("air_support",),
                "with an air: block the air support level comes from the Ground Support "
                "box (10.4.2), not from air_support",
            )
        for i, r in enumerate(sc.air.arrivals):
            check_turn(("air", "arrivals", i, "turn"), r.turn)
        for i, r in enumerate(sc.air.withdrawals):
            check_turn(("air", "withdrawals", i, "turn"), r.turn)
        for i, r in enumerate(sc.air.aces):
            check_turn(("air", "aces", i, "turn"), r.turn)
        navy = [p.id for p in sc.air.aircraft if aircraft_counters()[p.id].service == "Navy"]
        navy += [a for r in sc.air.arrivals for a in r.aircraft if aircraft_counters()[a].service == "Navy"]
        if navy and sc.fleet is None:
            raise ck.fail(
                ("air", "aircraft"),
                f"Navy aircraft {navy[0]} fly from the 7th Fleet carriers (11.4): the "
                "scenario needs a fleet: block",
            )
    if sc.fleet is not None and sc.has_rule("navy_not_in_play"):
        raise ck.fail(("fleet",), "a fleet: block and the special rule navy_not_in_play exclude each other")


class _Checker:
    """Makes the DataError of a bad scenario file; the YAML node tree that gives its line is composed only
    then (issue #21: the pure-Python composer took longer than the rest of the load)."""

    def __init__(self, path: Path, text: str | None):
        self.path, self.text = path, text

    def fail(self, loc: tuple[Any, ...], message: str) -> DataError:
        import yaml

        root = yaml.compose(self.text) if self.text is not None else None
        return DataError(self.path, message, row=_line_of(root, loc), column=_loc_text(loc) or None)


# ------------------------------------------------------------------------------------------ 14.6 at set-up
def may_stand(unit: UnitRow, hid: str, m: RowMap, us_areas: tuple[str, ...] = ("I Corps",)) -> str | None:
    """ROW-14.6: why ``unit`` may not stand on ``hid`` at set-up or arrival, or None if it may (decision R-SCN-16).

    US: its assigned areas and the CMD (14.6.1), the DMZ counting as I Corps (14.6.4); ARVN: South Vietnam and
    the DMZ (14.6.2, 14.6.4); Lao and Cambodian government: their own country (14.6.2); PAVN and VC: North and
    South Vietnam, trail hexes and the Free Deployment Zone (14.6.3); PRC: North Vietnam and Laos; Pathet Lao:
    Laos and trail hexes; Khmer Rouge: Cambodia and trail hexes (digest 9 decision 19).
    """
    h = m.hex(hid)
    if h.kind == "sea":
        return f"hex {hid} is all-sea"
    area, nat = h.area, unit.nationality
    if nat == "US":
        allowed = set(us_areas) | {"CMD"} | ({"DMZ"} if "I Corps" in us_areas else set())
        if area not in allowed:
            return f"US units may enter only {', '.join(sorted(allowed))} here (14.6.1), not {area}"
    elif nat in ("ARVN", "ROK", "Thai", "Aus"):
        if area not in (*SV_AREAS, "DMZ"):
            return f"{nat} units stay in South Vietnam (14.6.2), not {area}"
    elif nat in ("Laos", "Cmb"):
        own = "Laos" if nat == "Laos" else "Cambodia"
        if area != own:
            return f"{nat} units stay in {own} (14.6.2), not {area}"
    elif nat in ("PAVN", "VC"):
        if area not in ("North Vietnam", "DMZ", *SV_AREAS) and not h.trail and not h.fdz:
            return f"PAVN and VC may enter North and South Vietnam, trail hexes and the Free Deployment Zone (14.6.3), not {area} hex {hid}"
    elif nat == "PRC":
        if area not in ("North Vietnam", "DMZ", "Laos"):
            return f"PRC units stay in North Vietnam and Laos (R-SCN-16), not {area}"
    elif nat == "PL":
        if area != "Laos" and not h.trail:
            return f"Pathet Lao units stay in Laos and on trail hexes (R-SCN-16), not {area}"
    elif nat == "KhR":
        if area != "Cambodia" and not h.trail:
            return f"Khmer Rouge units stay in Cambodia and on trail hexes (R-SCN-16), not {area}"
    return None


def _rule_ids() -> set[str]:
    return set(rules_index("row", "ROW"))


# ------------------------------------------------------------------------------------------ the loader
def scenario_names() -> list[str]:
    return sorted(p.stem for p in (game_dir("row") / SCENARIO_DIR).glob("*.yaml"))


def load_scenario(name: str = "year-in-i-corps", path: Path | str | None = None) -> RowScenario:
    """Read and cross-check a scenario (see the module docstring); ``path`` overrides the data directory."""
    p = Path(path) if path is not None else game_dir("row") / SCENARIO_DIR / f"{name}.yaml"
    return _load(p.resolve())


@cache
def _load(p: Path) -> RowScenario:
    if not p.exists():
        known = ", ".join(scenario_names())
        raise DataError(p, f"no such Rumor of War scenario (known: {known})")
    sc = cached_build(p, "row-scenario", RowScenario, lambda: _validated(p))
    _cross_check(sc, _Checker(p, p.read_text(encoding="utf-8")))
    return sc


def _validated(p: Path) -> RowScenario:
    """The scenario file read into :class:`RowScenario` (before the cross-checks against the other tables)."""
    import yaml

    text = p.read_text(encoding="utf-8")
    try:
        data = yaml_load(text)
    except yaml.YAMLError as err:
        raise DataError(p, f"not valid YAML: {err}") from None
    ck = _Checker(p, text)
    if not isinstance(data, dict):
        raise ck.fail((), "a scenario file is a YAML mapping")
    try:
        return RowScenario.model_validate({**data, "path": str(p)})
    except ValidationError as err:
        e = err.errors()[0]
        loc = tuple(e.get("loc", ()))
        got = e.get("input")
        msg = e.get("msg", "invalid") + (
            f" (got {got!r})" if got is not None and not isinstance(got, dict | list) else ""
        )
        raise ck.fail(loc, msg) from None


def _cross_check(sc: RowScenario, ck: _Checker) -> None:
    units, m, cal = load_units(), load_map(), load_calendar()

    # turns and the calendar (R-SCN-02)
    if not sc.turns or sc.turns != list(range(sc.turns[0], sc.turns[0] + len(sc.turns))):
        raise ck.fail(("turns",), "turns must be consecutive calendar turns")
    for i, t in enumerate(sc.turns):
        if t not in cal:
            raise ck.fail(("turns", i), f"turn {t} is not on data/row/calendar.csv")
        if (sc.variant_of or sc.id) not in (cal[t].scenarios or "").split(";"):
            raise ck.fail(("turns", i), f"calendar.csv does not list {sc.id} on turn {t}")
    turns = set(sc.turns)

    def check_turn(loc: tuple[Any, ...], t: int) -> None:
        if t not in turns:
            raise ck.fail(loc, f"turn {t} is not a turn of this scenario ({sc.first_turn}-{sc.last_turn})")

    w = sc.map_window
    if not (1 <= w.cols[0] <= w.cols[1] <= COLS and 1 <= w.rows[0] <= w.rows[1] <= ROWS):
        raise ck.fail(("map_window",), f"window must lie within columns 1-{COLS} and rows 1-{ROWS}")

    def check_hex(loc: tuple[Any, ...], hid: str, land: bool = True) -> None:
        if hid not in m:
            raise ck.fail(loc, f"hex {hid!r} is not a hex of the map (data/row/map/hexes.csv)")
        if land and m.is_sea(hid):
            raise ck.fail(loc, f"hex {hid} is all-sea")
        if not w.contains(hid):
            raise ck.fail(loc, f"hex {hid} is outside the scenario's map window")

    def unit(loc: tuple[Any, ...], uid: str, kinds: tuple[str, ...] = ("unit", "hq")) -> UnitRow:
        u = units.get(uid)
        if u is None:
            raise ck.fail(loc, f"unknown counter {uid!r} (data/row/units.csv)")
        if u.kind not in kinds:
            raise ck.fail(loc, f"{uid} is a {u.kind}, expected {' or '.join(kinds)}")
        return u

    def hq(loc: tuple[Any, ...], hid: str) -> UnitRow:
        u = units.get(hid)
        if u is None or u.kind != "hq":
            raise ck.fail(loc, f"unknown HQ {hid!r} (no HQ of that id in data/row/units.csv)")
        return u

    # theater commanders (14.2.1)
    for side, c in sc.theater_commanders.items():
        u = unit(("theater_commanders", side, "leader"), c.leader, ("leader",))
        if u.unit_type != "theater_commander" or u.side != side:
            raise ck.fail(
                ("theater_commanders", side, "leader"), f"{c.leader} is not a {side} theater commander"
            )

    # levels
    seen: set[str] = set()
    for i, lv in enumerate(sc.levels):
        if lv.track in seen:
            raise ck.fail(("levels", i, "track"), f"track {lv.track!r} is set twice")
        seen.add(lv.track)
        if lv.value > TRACK_MAX[lv.track]:
            raise ck.fail(("levels", i, "value"), f"{lv.track} is at most {TRACK_MAX[lv.track]}")
    _check_air(sc, ck, check_turn)
    for i, tl in enumerate(sc.air_support):
        check_turn(("air_support", i, "turn"), tl.turn)
        if tl.value > TRACK_MAX[tl.track]:
            raise ck.fail(("air_support", i, "value"), f"{tl.track} is at most {TRACK_MAX[tl.track]}")
    if sc.has_rule("air_war_not_in_play"):
        given = sorted(tl.turn for tl in sc.air_support if tl.track == "US Air Support")
        if given != sorted(turns):
            raise ck.fail(
                ("air_support",),
                "with the air war out of play, US Air Support needs one value per turn "
                f"(R-SCN-08); turns given {given}",
            )

    # extra supply sources
    extra: list[tuple[str, str, int]] = []
    for i, s in enumerate(sc.supply_sources):
        check_hex(("supply_sources", i, "hex"), s.hex)
        check_turn(("supply_sources", i, "from_turn"), s.from_turn)
        extra.append((s.hex, s.nationality, s.from_turn))

    # set-up
    placed: dict[str, int] = {}
    occupant: dict[str, str] = {}
    us_areas = tuple(sc.us_areas)
    for i, pl in enumerate(sc.setup):
        u = unit(("setup", i, "unit"), pl.unit)
        if pl.unit in placed:
            raise ck.fail(("setup", i, "unit"), f"{pl.unit} is already set up (setup[{placed[pl.unit]}])")
        if u.has("created"):
            raise ck.fail(
                ("setup", i, "unit"),
                f"{pl.unit} exists only inside an activation (14.1.1); set up its parent",
            )
        check_hex(("setup", i, "hex"), pl.hex)
        why = may_stand(u, pl.hex, m, us_areas)
        if why:
            raise ck.fail(("setup", i, "hex"), f"{pl.unit} may not set up there: {why}")
        other = occupant.get(pl.hex)
        if other is not None and other != u.side:
            raise ck.fail(("setup", i, "hex"), f"hex {pl.hex} already holds {other} counters")
        for j, mk in enumerate(pl.markers):
            if mk not in MARKERS:
                raise ck.fail(
                    ("setup", i, "markers", j), f"unknown marker {mk!r}; markers are {', '.join(MARKERS)}"
                )
        placed[pl.unit] = i
        occupant[pl.hex] = u.side

    # tunnels (14.3): Communist locations inside a hex a VC unit could stand on, never under a Capitalist unit
    vc_probe = next((x for x in units.values() if x.nationality == "VC" and x.kind == "unit"), None)
    for i, tn in enumerate(sc.tunnels):
        check_hex(("tunnels", i, "hex"), tn.hex)
        why = may_stand(vc_probe, tn.hex, m) if vc_probe else None
        if why:
            raise ck.fail(("tunnels", i, "hex"), f"no tunnel here: {why}")
        if occupant.get(tn.hex) == "Capitalist":
            raise ck.fail(("tunnels", i, "hex"), f"hex {tn.hex} holds Capitalist units at set-up")
        if [x.hex for x in sc.tunnels].index(tn.hex) != i:
            raise ck.fail(("tunnels", i, "hex"), f"hex {tn.hex} already has a tunnel")
    for v, n in sc.objective_pool.values.items():
        if n < 0:
            raise ck.fail(("objective_pool", "values", v), "a count cannot be negative")
    if sum(sc.objective_pool.values.values()) == 0:
        raise ck.fail(("objective_pool", "values"), "the objective pool is empty (12.1.3)")

    # leaders on HQs (14.2.2)
    on_map_hqs = {pl.unit for pl in sc.setup if units[pl.unit].kind == "hq"}
    led: set[str] = set()
    for i, lp in enumerate(sc.leaders):
        ld = unit(("leaders", i, "leader"), lp.leader, ("leader",))
        if ld.unit_type != "ground_leader":
            raise ck.fail(("leaders", i, "leader"), f"{lp.leader} is not a ground commander (14.2.2)")
        h = hq(("leaders", i, "hq"), lp.hq)
        if h.side != ld.side:
            raise ck.fail(("leaders", i, "hq"), f"{lp.leader} must go on a friendly HQ, not {lp.hq} (14.2.2)")
        if lp.hq not in on_map_hqs:
            raise ck.fail(("leaders", i, "hq"), f"HQ {lp.hq} is not set up in this scenario")
        if lp.leader in led:
            raise ck.fail(("leaders", i, "leader"), f"{lp.leader} is placed twice")
        led.add(lp.leader)

    # attachments (9.4)
    for i, a in enumerate(sc.attachments):
        u = unit(("attachments", i, "unit"), a.unit, ("unit",))
        if u.nationality != "US" or not any(
            c.division == a.division and c.unit_type == "cadre" for c in units.values()
        ):
            raise ck.fail(
                ("attachments", i, "division"), f"{a.division!r} is not a US division with a cadre (9.4)"
            )
        check_turn(("attachments", i, "until_turn"), a.until_turn)

    # reinforcements (13.1, 13.1.1)
    arriving: dict[str, int] = {}
    trail_status = sc.level("Ho Chi Minh Trail Status")
    for i, r in enumerate(sc.reinforcements):
        check_turn(("reinforcements", i, "turn"), r.turn)
        u = unit(("reinforcements", i, "unit"), r.unit)
        if r.unit in placed or r.unit in arriving:
            raise ck.fail(("reinforcements", i, "unit"), f"{r.unit} is already set up or arriving")
        if u.has("created"):
            raise ck.fail(
                ("reinforcements", i, "unit"), f"{r.unit} exists only inside an activation (14.1.1)"
            )
        if u.nationality == "VC":
            raise ck.fail(
                ("reinforcements", i, "unit"), "VC units arrive only by recruitment (13.1.1, 13.1.2)"
            )
        check_hex(("reinforcements", i, "at"), r.at)
        why = may_stand(u, r.at, m, us_areas)
        if why:
            raise ck.fail(("reinforcements", i, "at"), f"{r.unit} may not arrive there: {why}")
        if not _entry_hex_ok(u, r.at, r.turn, m, extra, trail_status):
            raise ck.fail(
                ("reinforcements", i, "at"),
                f"{r.unit} must arrive on a friendly supply source of its nationality (13.1.1"
                f"{'; or an active trail terminus, R-SCN-10' if u.side == 'Communist' else ''}), "
                f"not hex {r.at}",
            )
        arriving[r.unit] = i
    for i, wd in enumerate(sc.withdrawals):
        check_turn(("withdrawals", i, "turn"), wd.turn)
        unit(("withdrawals", i, "unit"), wd.unit)

    # the VC cup (13.1.2)
    for i, uid in enumerate(sc.vc_cup.units):
        u = unit(("vc_cup", "units", i), uid, ("unit",))
        if u.nationality != "VC":
            raise ck.fail(("vc_cup", "units", i), f"only VC units go into the VC cup (13.1.2), not {uid}")
        if uid in placed or uid in arriving or sc.vc_cup.units.index(uid) != i:
            raise ck.fail(("vc_cup", "units", i), f"{uid} is already set up, arriving or in the cup")

    for i, lc in enumerate(sc.level_changes):
        check_turn(("level_changes", i, "turn"), lc.turn)

    # events
    for i, ev in enumerate(sc.events):
        check_turn(("events", i, "turn"), ev.turn)
        if ev.kind == "marker":
            if ev.marker not in MARKERS:
                raise ck.fail(("events", i, "marker"), f"unknown marker {ev.marker!r}")
            if not ev.units:
                raise ck.fail(("events", i, "units"), "a marker event names the units it marks")
            for j, uid in enumerate(ev.units):
                unit(("events", i, "units", j), uid, ("unit",))
        elif ev.kind == "text":
            if ev.marker or ev.units or ev.leader or ev.hq:
                raise ck.fail(
                    ("events", i, "kind"), "a text event has no game effect: no marker, units, leader or HQ"
                )
        elif ev.kind == "leader":
            ld = unit(("events", i, "leader"), ev.leader or "", ("leader",))
            h = hq(("events", i, "hq"), ev.hq or "")
            if h.side != ld.side:
                raise ck.fail(("events", i, "hq"), f"{ev.leader} must go on a friendly HQ (14.2.2)")
            if ev.hq not in on_map_hqs and ev.hq not in arriving:
                raise ck.fail(("events", i, "hq"), f"HQ {ev.hq} is not in this scenario")
        elif ev.kind == "commander":
            ld = unit(("events", i, "leader"), ev.leader or "", ("leader",))
            if ld.unit_type != "theater_commander" or ev.hq or ev.units:
                raise ck.fail(
                    ("events", i, "leader"),
                    f"{ev.leader!r}: a commander event names one theater commander and nothing else (14.2.1)",
                )
            if sc.politics is None:
                raise ck.fail(("events", i, "kind"), "a commander event needs the scenario's politics block")

    # special rules and awards
    known_rules = _rule_ids()
    for i, s in enumerate(sc.special_rules):
        for j, rid in enumerate(s.rules):
            if rid not in known_rules:
                raise ck.fail(
                    ("special_rules", i, "rules", j), f"unknown rule id {rid!r} (data/row/rules_index.csv)"
                )
        for j, t in enumerate(s.turns):
            check_turn(("special_rules", i, "turns", j), t)
        for j, uid in enumerate(s.units):
            unit(("special_rules", i, "units", j), uid)
    for i, aw in enumerate(sc.victory.awards):
        for j, hid in enumerate(aw.hexes):
            check_hex(("victory", "awards", i, "hexes", j), hid)
        if aw.vp == 0 or (aw.vp < 0 and aw.per != "season"):
            raise ck.fail(
                ("victory", "awards", i, "vp"),
                "an award gives at least 1 VP; only a per-season award may take VPs away (R-SCN-41)",
            )
        if aw.us_units_at_least is not None and aw.per != "season":
            raise ck.fail(
                ("victory", "awards", i, "us_units_at_least"),
                "only a per-season award may depend on the American units on the map (R-WAR-38)",
            )
        if aw.unless_missions and aw.per != "season":
            raise ck.fail(
                ("victory", "awards", i, "unless_missions"),
                "only a per-season award may be skipped in the season of a mission (R-WAR-39)",
            )
        for side, names in aw.unless_missions.items():
            known = {m for (sd, m) in missions_table() if sd == side}
            for j, name in enumerate(names):
                if name not in known:
                    raise ck.fail(
                        ("victory", "awards", i, "unless_missions", side, j),
                        f"{name!r} is not a {side} HQ mission (9.5: {', '.join(sorted(known))}; R-WAR-39)",
                    )
        if aw.per == "season" and (aw.hexes or aw.when != "end_of_turn"):
            raise ck.fail(
                ("victory", "awards", i, "per"),
                "a per-season award has no hexes and is given at the end of each turn (R-SCN-41)",
            )
        if aw.per == "hex" and not aw.hexes:
            raise ck.fail(("victory", "awards", i, "hexes"), "a per-hex award lists its hexes")
        if aw.controlled_by == "Communist":
            for j, hid in enumerate(aw.hexes):
                src = _always_capitalist(hid, m, extra)
                if src:
                    raise ck.fail(
                        ("victory", "awards", i, "hexes", j),
                        f"hex {hid} is in or next to the Capitalist supply source {src}, so the Capitalist "
                        "always controls it (glossary: control) and the award could never be won",
                    )
    _check_extras(sc, ck, units, m, check_turn)


def _check_extras(
    sc: RowScenario, ck: _Checker, units: dict[str, UnitRow], m: RowMap, check_turn: Any
) -> None:
    """The optional politics, trail and sow blocks (scenario_extras): PRC units are PRC counters not set up;
    ready Special Forces are Special Forces counters not set up; interdicted hexes are trail hexes."""
    used = {p.unit for p in sc.setup} | {r.unit for r in sc.reinforcements}
    if sc.politics and sc.politics.china:
        for j, uid in enumerate(sc.politics.china.prc_units):
            if uid not in units or units[uid].nationality != "PRC":
                raise ck.fail(("politics", "china", "prc_units", j), f"{uid!r} is not a PRC counter (12.2)")
            if uid in used:
                raise ck.fail(
                    ("politics", "china", "prc_units", j), f"{uid} is set up or a reinforcement already"
                )
    if sc.trail:
        for j, hid in enumerate(sc.trail.interdicted):
            if hid not in m or not m.is_trail(hid):
                raise ck.fail(
                    ("trail", "interdicted", j), f"hex {hid!r} is not a Ho Chi Minh Trail hex (14.7.2)"
                )
        if len(sc.trail.interdicted) > sc.trail.markers:
            raise ck.fail(
                ("trail", "interdicted"), "more Trail Interdicted markers than the countermix holds"
            )
    if sc.sow:
        for j, uid in enumerate(sc.sow.special_forces_ready):
            if uid not in units or not units[uid].has("special_forces"):
                raise ck.fail(
                    ("sow", "special_forces_ready", j), f"{uid!r} is not a Special Forces counter (14.1.5)"
                )
            if uid in used:
                raise ck.fail(
                    ("sow", "special_forces_ready", j), f"{uid} is set up or a reinforcement already"
                )


def _always_capitalist(hid: str, m: RowMap, extra: list[tuple[str, str, int]]) -> str | None:
    """Glossary (control): the Capitalist controls every hex in or adjacent to a Capitalist supply source,
    whoever stands there; the source's hex if ``hid`` is such a hex, else None."""
    sources = set(m.supply_sources("capitalist")) | {h for h, nat, _ in extra if nat == "capitalist"}
    for s in sorted(sources):
        if hid == s or hid in m.neighbours(s):
            return s
    return None


def _entry_hex_ok(
    u: UnitRow, hid: str, turn: int, m: RowMap, extra: list[tuple[str, str, int]], trail_status: int
) -> bool:
    """ROW-13.1.1: US and ARVN on Capitalist supply sources in South Vietnam; Lao and Cambodian on their own;
    PAVN/PRC/PL/KhR on PAVN or PRC sources, their own, or an active trail terminus (14.7.1, decision R-SCN-10)."""
    kinds = {p.supply for p in m.places_at(hid) if p.supply}
    kinds |= {nat for h, nat, t in extra if h == hid and t <= turn}
    nat = u.nationality
    if nat in ("US", "ARVN", "ROK", "Thai", "Aus"):
        return "capitalist" in kinds and m.area(hid) in SV_AREAS
    if nat == "Laos":
        return "laotian" in kinds
    if nat == "Cmb":
        return "cambodian" in kinds
    own = {"PL": "pathet_lao", "KhR": "khmer_rouge"}.get(nat)
    if kinds & {"pavn", "prc"} or (own and own in kinds):
        return True
    terminus = next((p.terminus for p in m.places_at(hid) if p.terminus), None)
    return terminus is not None and terminus <= trail_status


# ------------------------------------------------------------------------------------------ the sequence of play
SEQUENCE_PREDICATES = {
    "air_war_in_play": "air war (10.x)",
    "fleet_in_play": "7th Fleet (11.1)",
    "election_turn": "US election turns (14.5)",
    "politics_in_play": "a politics block (14.2.1, 14.6.1; wargames.row.politics)",
    "sow_in_play": "a sow block (14.8; wargames.row.sow)",
    "trail_strikes_in_play": "the air war and a trail block (10.4.1, 14.7.2; decision R-WAR-14)",
}


def load_row_sequence(path: Path | None = None) -> SequenceOfPlay:
    """ROW-3.0: ``data/row/sequence.yaml`` read in the core's shape and cross-checked (decision R-SCN-17).

    Every step cites a rule of ``rules_index.csv``; ``when`` names one of the known predicates; a step left out
    of A Year in I Corps (air war, fleet) says so in its summary; in each player turn (B3a, B3b) only the phasing
    side activates (the alternating step's sides) and the reserve movement reaction window belongs to the other
    side (4.7); step ids are unique within a phase (decision R-GAME-01).
    """
    p = Path(path) if path is not None else game_dir("row") / "sequence.yaml"
    seq = read_yaml(p, SequenceOfPlay)
    known = _rule_ids()
    for block in (seq.setup, seq.phases):
        for ph in block:
            if ph.rule not in known:
                raise DataError(p, f"phase {ph.id}: unknown rule id {ph.rule!r}", column=f"{ph.id}.rule")
            ids: set[str] = set()
            for st in ph.steps:
                where = f"{ph.id}.{st.id}"
                if st.id in ids:
                    raise DataError(p, f"step id {st.id!r} twice in phase {ph.id}", column=where)
                ids.add(st.id)
                if st.rule not in known:
                    raise DataError(p, f"unknown rule id {st.rule!r}", column=f"{where}.rule")
                if st.when is not None and st.when not in SEQUENCE_PREDICATES:
                    raise DataError(
                        p,
                        f"unknown predicate {st.when!r}; known: {', '.join(SEQUENCE_PREDICATES)}",
                        column=f"{where}.when",
                    )
                if (
                    st.when in ("air_war_in_play", "fleet_in_play")
                    and "Not in this scenario" not in st.summary
                ):
                    raise DataError(
                        p,
                        "a step A Year in I Corps leaves out must say 'Not in this scenario'",
                        column=f"{where}.summary",
                    )
                if ph.actor in SIDES and st.alternate is not None:
                    other = SIDES[1 - SIDES.index(ph.actor)]
                    if st.alternate.sides != [ph.actor]:
                        raise DataError(
                            p,
                            f"only the {ph.actor} activates HQs in his player turn (3.0 B3, 9.2)",
                            column=f"{where}.alternate.sides",
                        )
                    for rx in st.reactions:
                        if rx.rule == "ROW-4.7" and rx.who not in ("other", other):
                            raise DataError(
                                p,
                                f"reserve movement in the {ph.actor} player turn is the {other}'s (4.7)",
                                column=f"{where}.{rx.id}.who",
                            )
    return seq
