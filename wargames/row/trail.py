"""The Ho Chi Minh Trail (14.7): its status, which termini are active, and its interdiction.

* ``active_termini(status, markers)`` (14.7.1): terminus ``n`` is an active Communist supply source when ``n`` is
  at most the Trail Status minus the number of Trail Interdicted markers on the map (examples E11 and E12 of the
  digest: status 4 -> 1-4; status 6 with 2 markers -> 1-4).
* ``ground_interdiction_options`` (14.7.2): each Capitalist unit that stands in, or projects a ZoC into, a trail hex
  with no Communist unit may put one Trail Interdicted marker there, up to the countermix.
* :class:`TrailMixin` runs it in the game in the supply status step (A2d), before the LoC traces (decision
  R-TRL-01), and removes the markers that no longer hold (R-TRL-02).  The air war's trail strikes (10.4.1) add
  markers through :meth:`TrailMixin.interdict_trail` (cause ``air``).

Without the scenario's ``trail`` block no marker is ever placed, as in A Year in I Corps.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from ..core import Action, IllegalAction
from ..core.rulings import Ruling, indexed_ruling
from .control import zoc_of
from .pieces import CAPITALIST, COMMUNIST, Situation

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame
    from .hexmap import RowMap

MAX_STATUS = 6


_r = partial(indexed_ruling, "row")  # a ruling of this game, its rule_ref from the rules index


def active_termini(status: int, markers: int = 0) -> Ruling:
    """ROW-14.7.1: the active termini for a Trail Status of ``status`` (0-6) and ``markers`` Trail Interdicted
    markers on the map.  Result: the list of terminus numbers (possibly empty)."""
    if not 0 <= status <= MAX_STATUS:
        raise IllegalAction("ROW-14.7.1", f"the Trail Status runs from 0 to {MAX_STATUS}, not {status}")
    if markers < 0:
        raise IllegalAction("ROW-14.7.1", "the number of Trail Interdicted markers may not be negative")
    top = max(0, status - markers)
    act = list(range(1, top + 1))
    return _r(
        "ROW-14.7.1",
        "Active trail termini",
        f"Trail Status {status}"
        + (f" less {markers} Trail Interdicted marker(s)" if markers else "")
        + (f": termini 1-{top} are active supply sources" if top else ": no terminus is active")
        + (
            f"; {', '.join(str(n) for n in range(top + 1, MAX_STATUS + 1))} are not."
            if top < MAX_STATUS
            else "."
        ),
        act,
        inputs={"status": status, "markers": markers},
    )


def interdiction_hexes(situation: Situation, uid: str, m: RowMap) -> list[str]:
    """ROW-14.7.2: the trail hexes with no Communist unit that Capitalist unit ``uid`` stands in or reaches
    with its ZoC (the ZoC as 4.3 and 14.6 project it)."""
    p = situation.piece(uid)
    if p.side != CAPITALIST or p.kind != "unit":
        return []
    reach = {p.hex} | set(zoc_of(p, situation, m))
    com = situation.occupied(COMMUNIST)
    return sorted(h for h in reach if h in m and m.is_trail(h) and h not in com)


def ground_interdiction_options(
    situation: Situation, m: RowMap, markers: dict[str, str], limit: int
) -> dict[str, list[Action]]:
    """ROW-14.7.2: for each Capitalist unit that may place a marker, its ``interdict`` options (one per hex not
    yet marked).  {} when the countermix (``limit``) is used up."""
    if len(markers) >= limit:
        return {}
    out: dict[str, list[Action]] = {}
    for p in sorted(situation.units(CAPITALIST), key=lambda p: p.uid):
        hexes = [h for h in interdiction_hexes(situation, p.uid, m) if h not in markers]
        if hexes:
            out[p.uid] = [
                Action.make("interdict", f"Trail Interdicted marker at {h} ({p.uid})", [h], unit=p.uid, hex=h)
                for h in hexes
            ]
    return out


class TrailMixin:
    """The trail in the game: the markers (``pol['trail_interdicted']``: hex -> cause) and their effect."""

    def trail_markers(self: RowGame) -> dict[str, str]:
        return self.pol.get("trail_interdicted", {})

    def active_terminus_numbers(self: RowGame) -> list[int]:
        """ROW-14.7.1: the active termini now (without a trail block: 1..status, as before)."""
        return list(active_termini(self.trail_status, len(self.trail_markers())).result)

    def trail_in_play(self: RowGame) -> bool:
        return getattr(self.scenario, "trail", None) is not None

    def interdict_trail(self: RowGame, hid: str, cause: str = "air"):
        """ROW-14.7.2 / ROW-10.4.1: put a Trail Interdicted marker on trail hex ``hid`` (the air war's strikes
        call this with cause ``air``); refused off the trail, on a marked hex or beyond the countermix."""
        limit = self.scenario.trail.markers if self.trail_in_play() else 0
        if hid not in self.map or not self.map.is_trail(hid):
            raise IllegalAction("ROW-14.7.2", f"{hid} is not a Ho Chi Minh Trail hex")
        marks = self.trail_markers()
        if hid in marks:
            raise IllegalAction("ROW-14.7.2", f"{hid} already holds a Trail Interdicted marker")
        if len(marks) >= limit:
            raise IllegalAction(
                "ROW-14.7.2", f"all {limit} Trail Interdicted markers are on the map (countermix)"
            )
        self.pol["trail_interdicted"] = {**marks, hid: cause}
        self._touch()
        yield self.ruling(
            "ROW-14.7.2",
            "Trail interdicted",
            f"A Trail Interdicted marker goes on {hid} ({cause}). "
            + active_termini(self.trail_status, len(marks) + 1).explanation,
            result={"hex": hid, "cause": cause},
            places=[hid],
        )

    def trail_step(self: RowGame):
        """ROW-14.7.2 (in A2d before the LoC traces, R-TRL-01): markers come off where a Communist unit stands,
        air markers come off (the Communist repairs, R-TRL-02), ground markers come off where no Capitalist unit or
        ZoC reaches any more; then each Capitalist unit reaching an unoccupied trail hex places one marker there
        (the Capitalist chooses the hex), up to the countermix."""
        if not self.trail_in_play():
            return
        sit = self.situation()
        com = sit.occupied(COMMUNIST)
        reach = {h for p in sit.units(CAPITALIST) for h in interdiction_hexes(sit, p.uid, self.map)}
        keep, gone = {}, []
        for h, cause in sorted(self.trail_markers().items()):
            if h in com or cause == "air" or (cause == "ground" and h not in reach):
                gone.append(h)
            else:
                keep[h] = cause
        if gone:
            self.pol["trail_interdicted"] = keep
            self._touch()
            yield self.ruling(
                "ROW-14.7.2",
                "Trail markers removed",
                f"Trail Interdicted markers come off "
                f"{', '.join(gone)} (a Communist unit there, an air strike repaired, or no Capitalist "
                "unit or ZoC reaching the hex any more; R-TRL-02).",
                result={"removed": gone},
                places=gone,
            )
        done: list[str] = []
        while True:
            opts = ground_interdiction_options(
                self.situation(), self.map, self.trail_markers(), self.scenario.trail.markers
            )
            opts = {u: o for u, o in opts.items() if u not in done}
            if not opts:
                break
            uid = sorted(opts)[0]
            a = yield self.decide(
                CAPITALIST,
                f"{self.rows[uid].name} reaches the trail: where does its Trail Interdicted marker go?",
                "ROW-14.7.2",
                opts[uid],
                unit=uid,
                kind="trail_marker",
            )
            done.append(uid)
            yield from self.interdict_trail(a["hex"], "ground")
        yield self._stamp(active_termini(self.trail_status, len(self.trail_markers())))


def trail_marker_choice(game: RowGame, d) -> tuple[Action, str]:
    """ROW-14.7.2: the built-in players' Trail Interdicted marker goes on the first trail hex in reach."""
    a = min(d.options, key=lambda a: a["hex"])
    return a, "marks the first trail hex it reaches (any marker cuts a terminus)"
