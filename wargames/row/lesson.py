"""Lesson positions for Rumor of War (issue #26 item 25; the shared machinery is ``core.position``).

    wargames.load("row", position={"units": {"pavn_1_1": "2953"}, "markers": {"pavn_1_1": ["Disrupted"]},
                                   "fresh": {"pavn_1_1": False}, "pools": {"US Artillery": 6}})

The edits a teacher may make, each checked against the scenario's pieces, the map, the markers of 6.2 and the
resource tracks of 7.1/8.1 before any is made, each explained by a ``LESSON`` ruling (not a rule of the game):

* ``units``: piece id -> hex, or a box (reinforcements, vc_cup, replacements, routed, destroyed, unformed); a piece
  leaving the map loses its markers (as ROW-6.1 has it for any piece leaving the map);
* ``fresh``: piece id -> true (fresh) or false (spent), ROW-9.3;
* ``markers``: unit id -> the list of its markers (Disrupted, Routed, Low Morale, OOC, Elite, Poor, Guards, Penal:
  ROW-6.2), replacing the ones it had;
* ``pools``: resource track -> level (support levels, supply, infrastructure, replacements, helicopters: ROW-7.1,
  ROW-8.1, ``data/row/tables/resource_tracks.csv``);
* ``vp``: victory track -> value (us_military_victory, us_unrest, body_count, casualties, pow, secret_ops:
  ROW-12.1);
* ``leaders``: ground commander -> the id of a friendly HQ on the map (ROW-14.2.2), or null to take him off;
* ``tunnels``: hex -> Hidden or Discovered, or null to fill it in (ROW-14.3);
* ``season``: the calendar turn (1-44, ``data/row/calendar.csv``) or its name (``"Summer 1966"``) at whose start the
  position is made: a shorthand for ``at`` (the game is played up to that season first).

The position then passes the game's invariants (ROW-2.3, ROW-4.2 stacking, ROW-7.1 track limits) or is refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core.position import Edit, PositionError, entries, known, mapping, value_edits, whole
from .scenario import MARKERS

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame

BOXES = ("reinforcements", "vc_cup", "replacements", "routed", "destroyed", "unformed")
VP_KEYS = ("us_military_victory", "us_unrest", "body_count", "casualties", "pow", "secret_ops")
TUNNEL_STATES = ("Hidden", "Discovered")

KEYS = {
    "units": "piece id -> hex number, or a box: " + ", ".join(BOXES),
    "fresh": "piece id -> true (fresh) or false (spent) (ROW-9.3)",
    "markers": "unit id -> list of markers from " + ", ".join(MARKERS) + " (ROW-6.2)",
    "pools": "resource track -> level, e.g. 'US Artillery': 6 (ROW-7.1, ROW-8.1)",
    "vp": "victory track -> value: " + ", ".join(VP_KEYS) + " (ROW-12.1)",
    "leaders": "ground commander id -> friendly HQ id on the map, or null (ROW-14.2.2)",
    "tunnels": "hex -> 'Hidden' or 'Discovered', or null to fill it in (ROW-14.3)",
    "season": "calendar turn number or 'Summer 1966': the position is made at that season's start",
}


def _calendar() -> dict[int, str]:
    from .scenario import load_calendar

    return {t: f"{r.season} {r.year}" for t, r in load_calendar().items()}


def season_turn(game: RowGame, value: Any) -> int:
    """The game turn of the ``season`` edit (a calendar turn or its name), inside the scenario's turns."""
    cal = _calendar()
    if isinstance(value, str):
        names = {v.lower(): k for k, v in cal.items()}
        if value.strip().lower() not in names:
            raise PositionError(
                f"position.season: {value!r} is not a season of the calendar, e.g. 'Summer 1966'"
            )
        value = names[value.strip().lower()]
    cal_turn = whole(value, "position.season", 1, max(cal))
    first, last = game.scenario.first_turn, game.scenario.last_turn
    if not first <= cal_turn <= last:
        raise PositionError(
            f"position.season: {cal[cal_turn]} (turn {cal_turn}) is outside this scenario's "
            f"{cal[first]} to {cal.get(last, last)}"
        )
    return cal_turn - first + 1


def _limits(game: RowGame, uid: str) -> frozenset[str]:
    """ROW-14.6: the hexes ``uid`` may stand in (its nationality's operational limits)."""
    from .control import allowed_hexes
    from .entry import US_LIKE
    from .pieces import Piece

    r = game.rows[uid]
    kind = "hq" if r.kind == "hq" else "unit"
    probe = Piece(
        uid,
        r.side,
        r.nationality,
        next(iter(game.window_land)),
        kind=kind,
        unit_type=r.unit_type if kind == "unit" else "regiment",
        areas=frozenset(game.scenario.us_areas) if r.nationality in US_LIKE else frozenset(),
    )
    return allowed_hexes(probe, frozenset(), game.map)


def check(game: RowGame, edits: dict[str, Any]) -> None:
    """Check every id, place and value of a Rumor of War position (PositionError naming the key and entry)."""
    pieces = set(game.all_ids)
    for uid, where in entries(edits, "units", pieces, "piece of this scenario"):
        if where not in BOXES:
            known(str(where), game.map.hexes, f"position.units.{uid}", "hex")
            if game.map.is_sea(where) or where not in game.window_land:
                raise PositionError(f"position.units.{uid}: {where} is not a land hex of this scenario's map")
            if where not in _limits(game, uid):
                raise PositionError(
                    f"position.units.{uid}: {where} is outside the operational limits of {game.rows[uid].name} "
                    "(ROW-14.6)"
                )
    for uid, value in entries(edits, "fresh", pieces, "piece of this scenario"):
        if not isinstance(value, bool):
            raise PositionError(f"position.fresh.{uid}: {value!r} is not true (fresh) or false (spent)")
    for uid, marks in entries(edits, "markers", pieces, "piece of this scenario"):
        if game.rows[uid].kind != "unit":
            raise PositionError(f"position.markers.{uid}: markers go on units, and {uid} is an HQ (ROW-6.2)")
        if not isinstance(marks, list | tuple) or any(m not in MARKERS for m in marks):
            raise PositionError(f"position.markers.{uid}: {marks!r} must be a list of {', '.join(MARKERS)}")
        if {"Disrupted", "Routed"} <= set(marks):
            raise PositionError(f"position.markers.{uid}: a unit is Disrupted or Routed, not both (ROW-5.6)")
    from .supply import supply_tables

    tracks = supply_tables().tracks
    for name, v in entries(edits, "pools", tracks, "resource track"):
        row = tracks[name]
        whole(v, f"position.pools.{name}", row.minimum, row.maximum)
    for name, v in entries(edits, "vp", set(VP_KEYS), "victory track"):
        whole(v, f"position.vp.{name}", 0, None)
    leaders = {u for u, r in game.rows.items() if r.kind == "leader" and r.unit_type == "ground_leader"}
    for ld, hq in entries(edits, "leaders", leaders, "ground commander"):
        if hq is None:
            continue
        if hq not in pieces or game.rows[hq].kind != "hq" or game.rows[hq].side != game.rows[ld].side:
            raise PositionError(f"position.leaders.{ld}: {hq!r} is not an HQ of the {game.rows[ld].side}")
    for h, state in mapping(edits.get("tunnels", {}), "tunnels").items():
        known(str(h), game.map.hexes, f"position.tunnels.{h}", "hex")
        if state is not None and state not in TUNNEL_STATES:
            raise PositionError(f"position.tunnels.{h}: {state!r} is not Hidden, Discovered or null")
    if "season" in edits and game.lesson is not None:  # the season is a shorthand for ``at``: its first phase
        turn, first = season_turn(game, edits["season"]), game.sequence.phases[0].id
        if game.lesson.turn is None:
            game.lesson = replace(game.lesson, turn=turn, phase=first)
        elif (game.lesson.turn, game.lesson.phase) != (turn, first):
            raise PositionError("position.season: give the season or position.at, not both")


def make_edits(game: RowGame, raw: dict[str, Any]) -> list[Edit]:
    """The checked edits against the state at the moment they are made, in the order units, fresh, markers,
    pools, VP, leaders, tunnels."""
    check(game, raw)
    out: list[Edit] = []
    name = game.display_name

    def where(uid: str) -> str:
        return name(game.pos[uid]) if uid in game.pos else f"the {game.box[uid]} box"

    for uid, to in raw.get("units", {}).items():
        old = game.pos.get(uid) or game.box.get(uid)
        dest = name(to) if to not in BOXES else f"the {to} box"
        out.append(
            Edit(
                "units",
                f"{name(uid)} placed",
                f"{name(uid)} is put in {dest} (it was in {where(uid)}).",
                {"piece": uid, "from": old, "to": to},
                lambda u=uid, t=to: _place(game, u, t),
                tuple(h for h in (game.pos.get(uid), to) if h and h not in BOXES),
            )
        )
    for uid, value in raw.get("fresh", {}).items():
        word = "fresh" if value else "spent"
        out.append(
            Edit(
                "fresh",
                f"{name(uid)} {word}",
                f"{name(uid)} is set {word} (ROW-9.3).",
                {"piece": uid, "fresh": value},
                lambda u=uid, v=value: game.fresh.__setitem__(u, v),
            )
        )
    for uid, marks in raw.get("markers", {}).items():
        new = tuple(sorted(set(marks)))
        out.append(
            Edit(
                "markers",
                f"{name(uid)}: markers",
                f"{name(uid)} carries {', '.join(new) or 'no marker'} (ROW-6.2).",
                {"piece": uid, "markers": list(new)},
                lambda u=uid, m=new: game.markers.__setitem__(u, m),
            )
        )
    out += value_edits(
        "pools",
        raw.get("pools", {}),
        game.pools,
        lambda t, v: f"{t}: {v}",
        lambda t, v, was: f"The {t} track is set to {v} (it was {was}).",
    )
    out += value_edits(
        "vp",
        raw.get("vp", {}),
        game.vp,
        lambda k, v: f"{k.replace('_', ' ')}: {v}",
        lambda k, v, was: f"The {k.replace('_', ' ')} track is set to {v} (it was {was}) (ROW-12.1).",
    )
    for ld, hq in raw.get("leaders", {}).items():
        if hq is not None and hq not in game.pos:
            raise PositionError(f"position.leaders.{ld}: {name(hq)} is not on the map")
        text = f"{name(ld)} is with {name(hq)}" if hq else f"{name(ld)} leaves the map"
        out.append(
            Edit(
                "leaders",
                f"{name(ld)}",
                text + " (ROW-14.2.2).",
                {"leader": ld, "hq": hq},
                lambda k=ld, h=hq: game.leaders.__setitem__(k, h) if h else game.leaders.pop(k, None),
                (game.pos[hq],) if hq else (),
            )
        )
    for h, state in raw.get("tunnels", {}).items():
        out.append(
            Edit(
                "tunnels",
                f"Tunnel at {name(h)}",
                (f"A {state} tunnel is in {name(h)}" if state else f"The tunnel in {name(h)} is filled in")
                + " (ROW-14.3).",
                {"hex": h, "tunnel": state},
                lambda k=h, s=state: game.tunnels.__setitem__(k, s) if s else game.tunnels.pop(k, None),
                (h,),
            )
        )
    return out


def _place(game: RowGame, uid: str, to: str) -> None:
    """A piece put on a hex or in a box; leaving the map it loses its markers (ROW-6.1)."""
    if to in BOXES:
        if uid in game.pos:
            game._clear_markers(uid)
        game.place(uid, None, to)
    else:
        game.place(uid, to)


class LessonMixin:
    """The game's lesson-position hooks (``core.engine.Game.position_keys`` and the rest) for Rumor of War."""

    def position_keys(self) -> dict[str, str]:
        return dict(KEYS)

    def check_position(self, edits: dict[str, Any]) -> None:
        check(self, edits)  # type: ignore[arg-type]

    def position_edits(self, edits: dict[str, Any]) -> list[Edit]:
        return make_edits(self, edits)  # type: ignore[arg-type]
