"""Vietnam: Rumor of War, what the steps have in common: a unit's move made (ROW-4.0), enemy HQs routed (ROW-9.1),
a unit eliminated with its loss roll (ROW-5.6), victory points awarded and accumulated (ROW-12.1, 12.1.4), a Cup of
SNAFU counter drawn and placed (ROW-6.1, 6.2 case i), and a rules module's procedure relayed into the game's record
(its rulings stamped, its decisions asked of the players with plain-valued actions).
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core import Action
from ..core.rulings import Ruling
from . import movement
from . import victory as V
from .combat import CombatUnit
from .pieces import CAPITALIST, COMMUNIST
from .randomevents import (
    SnafuCup,
    counter_row,
    draw_snafu,
    faces,
    key_officer,
    place_snafu,
    placement_options,
)
from .victory import ACC_TRACK

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from .game import RowGame


def plain_actions(actions: list[Action]) -> list[Action]:
    """Actions whose parameters are all plain values (a path becomes "h1-h2-h3"), so the record saves as JSON."""
    out = []
    for a in actions:
        if any(isinstance(v, (tuple, list)) for _, v in a.params):
            params = {k: ("-".join(map(str, v)) if isinstance(v, (tuple, list)) else v) for k, v in a.params}
            a = Action.make(a.kind, a.label, a.places, **params)
        out.append(a)
    return out


class OutcomesMixin:
    """The outcomes steps of :class:`RowGame`."""

    def _move(
        self: RowGame,
        uid: str,
        act: Action,
        mode: str,
        mp: int | None = None,
        mp_spent: Fraction = Fraction(0),
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
        yield from self._entered(uid, path)
        return r

    def _entered(self: RowGame, uid: str, path: list[str]):
        """What a unit's move, retreat or advance along ``path`` (its start hex first) sets off on the way: enemy
        HQs in any hex it entered are routed (ROW-9.1), and entering the DMZ from outside costs a Capitalist unit a
        SNAFU draw the Communist may place, a Communist unit 1 US Unrest (ROW-14.6.4)."""
        side = self.side_of(uid)
        if self.rows[uid].kind == "unit":
            for h in path[1:-1]:
                yield from self._rout(h, side, passing=True)
        yield from self._rout(path[-1], side)
        if self.rows[uid].kind != "unit" or uid not in self.pos or self.map.in_dmz(path[0]):
            return
        into = next((h for h in path[1:] if self.map.in_dmz(h)), None)
        if into is None:
            return
        from .control import dmz_entry

        r = dmz_entry(self.situation().piece(uid), into, self.map)
        if r is None:  # not a unit, or not the DMZ (both checked above)
            return
        yield self._stamp(r)
        if side == CAPITALIST:
            yield from self._snafu_for(COMMUNIST, uid, f"{uid} entered the DMZ")
        elif not self._over:
            yield from self._award(COMMUNIST, -1, "a Communist unit entered the DMZ (14.6.4)")

    def _rout(self: RowGame, hid: str, side: str, passing: bool = False):
        """ROW-9.1: enemy HQs in a hex a unit of ``side`` has entered (``passing``: moved or retreated through) are
        routed (to the Routed HQ box)."""
        here = any(self.side_of(u) == side and self.rows[u].kind == "unit" for u in self.at_hex.get(hid, []))
        if not (here or passing):
            return
        for u in list(self.at_hex.get(hid, [])):
            if self.side_of(u) != side and self.rows[u].kind == "hq":
                if self.rows[u].nationality == "VC" and self.uprising_over():  # 9.5 (R-WAR-11)
                    self.place(u, None, "destroyed")
                    self.fresh[u] = False
                    gone = sorted(c for c, h in self.leaders.items() if h == u)
                    for c in gone:
                        del self.leaders[c]
                    self._touch()
                    yield self.ruling(
                        "ROW-9.5",
                        "HQ routed and eliminated",
                        f"{self.rows[u].name} is caught by the {side} at {hid}; since the General Uprising a "
                        "routed VC HQ is eliminated for good (Destroyed box)"
                        + (f", and {', '.join(self.display_name(c) for c in gone)} with it" if gone else "")
                        + ".",
                        result={"hq": u, "hex": hid, "destroyed": True, "leaders": gone},
                        places=[hid],
                    )
                    continue
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

    def _award(self: RowGame, side: str, amount: int, why: str, *, valued: bool = False):
        """ROW-12.1: VPs to ``side``; 31 ends the game at once (R-VIC-03).  ROW-12.2 (R-WAR-12): with China in,
        every VP award (a gain) of either side is doubled, unless ``valued`` says the caller has already weighed it
        (:func:`victory.vp_value` doubles it there)."""
        if amount > 0 and not valued and self.china_in():
            amount, why = 2 * amount, f"{why}; doubled with China in (12.2)"
        s, r = V.award(self.vstate(), side, amount, why)
        self.set_vstate(s)
        yield self.ruling(r.rule_id, r.title, r.explanation, result=r.result, inputs=r.inputs)
        yield from self._check_win()

    def _check_win(self: RowGame):
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

    def _accumulate(self: RowGame, track: str, points: int):
        """ROW-12.1.4: points on Body Count or US Casualties; the entitled side may roll for a VP."""
        if points <= 0 or self._over:
            return
        key = ACC_TRACK[track]
        s, r, opts = V.add_points(self.vstate(), key, points, vp=self._auto_vp(key))
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

    def _vp_value(self: RowGame, key: str) -> int:
        """ROW-9.5 / ROW-14.2.1 / ROW-12.2: what a VP of an accumulator track (``body_count``, ``casualties``,
        ``pow``, ``secret_ops``) is worth under the missions, the commander and China (every award doubled); a VP
        to US Unrest is also an Unrest award, which the General Uprising doubles (R-WAR-10)."""
        kind = {"body_count": "body_count", "casualties": "casualty"}.get(key, "other")
        return V.vp_value(
            kind,
            missions=dict(self.missions),
            commander={CAPITALIST: self.commander(CAPITALIST), COMMUNIST: None},
            chinese=self.china_in(),
            also=("unrest_award",) if V.ACCUMULATORS[key][0] == COMMUNIST else (),
        ).result

    def elimination_box(self: RowGame, uid: str) -> str:
        """ROW-13.2 / ROW-9.5: where an eliminated unit goes: a created battalion back to the unformed ones, a VC
        unit to the Destroyed box once the General Uprising is over (R-WAR-11), any other to Replacements."""
        if self.rows[uid].has("created"):
            return "unformed"
        if self.rows[uid].nationality == "VC" and self.uprising_over():
            return "destroyed"
        return "replacements"

    def _auto_vp(self: RowGame, key: str) -> int:
        """ROW-12.1.4 / ROW-12.2 / ROW-9.5: the VP a track passing 9 gives at once: 1, doubled with China in and,
        for a track of US Unrest, in the General Uprising's season (R-WAR-10, R-WAR-12); the mission and commander
        multipliers of the roll are not applied to it (as before)."""
        return V.vp_value(
            "other",
            missions=dict(self.missions),
            chinese=self.china_in(),
            also=("unrest_award",) if V.ACCUMULATORS[key][0] == COMMUNIST else (),
        ).result

    def _eliminate(self: RowGame, uid: str, why: str):
        """ROW-5.6 / ROW-4.2: a unit goes to the Replacements box with its loss roll (R-GAME-08); a VC unit after
        the General Uprising to the Destroyed box (9.5, R-WAR-11)."""
        cu = self._cu(uid)
        hid = self.pos.get(uid)
        box = self.elimination_box(uid)
        self.place(uid, None, box)  # 13.2
        self._clear_markers(uid)
        self.fresh[uid] = False
        self._touch()
        from .losses import elimination_roll  # the combat modules come in at the first loss (issue #21)

        er = elimination_roll(self.dice, cu)
        yield self.ruling(
            er.rule_id,
            f"{self.rows[uid].name} eliminated",
            f"{why}. {er.explanation} "
            + (
                "It is eliminated for good (Destroyed box: the General Uprising is over, 9.5)."
                if box == "destroyed"
                else "It goes to the Replacements box."
            ),
            result=er.result,
            dice=er.dice,
            places=[hid] if hid else [],
        )
        if er.result["track"]:
            yield from self._accumulate(er.result["track"], er.result["amount"])

    def _stamp(self: RowGame, r: Ruling) -> Ruling:
        """A ruling made by a rules module, stamped with the game's turn, phase, step and sequence number."""
        return dc_replace(
            r,
            seq=len(self.log) + 1,
            turn=self.turn,
            phase=self.phase.name if self.phase else "",
            step=self.step.id if self.step else "",
        )

    def _relay(self: RowGame, gen):
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
                plain = plain_actions(item.options)
                chosen = yield dc_replace(item, options=plain)
                send = item.options[plain.index(chosen)]

    def _clear_markers(self: RowGame, uid: str) -> None:
        """ROW-6.1: a unit leaving the map loses its markers; the Cup of SNAFU counters among them (Ammo, Fuel,
        leaders: each counter is unique, so its side and face name it) go back to the cup."""
        side = self.side_of(uid)
        for m in self.markers[uid]:
            for c in SnafuCup.full().counters:
                if c not in self.snafu and counter_row(c).side == side and m in faces(c):
                    self.snafu.add(c)
                    break
        self.markers[uid] = ()

    def _snafu_for(self: RowGame, placer: str, uid: str, why: str, among: Sequence[str] | None = None):
        """ROW-6.2 case i / ROW-6.1: the opponent of a newly OOC unit draws one counter from the Cup of SNAFU and
        may place it on that unit (his choice of face), or put it back.  ``among``: the units it may go on instead
        (a traced HQ's draw goes on one of its units, ROW-14.4.1, decision R-GAME-41)."""
        if not self.snafu:
            yield self.ruling(
                "ROW-6.1", "Cup of SNAFU empty", "The cup is empty: no counter is drawn.", result={}
            )
            return
        cup, drawn = draw_snafu(self.dice, SnafuCup(tuple(sorted(self.snafu))), 1, why=why)
        self.snafu.assign(cup.counters)
        yield self._stamp(drawn)
        counter = drawn.result["drawn"][0]
        targets = [self._cu(u) for u in (among if among is not None else [uid])]
        opts = placement_options(counter, targets, optional=True)
        a = yield self.decide(
            placer,
            f"Place {counter} on {self.rows[uid].name}?"
            if among is None
            else f"Place {counter} on one of {self.rows[uid].name}'s units?",
            "ROW-6.1",
            opts,
            unit=uid,
            kind="snafu_placement",
        )
        if a.kind == "return_snafu":
            self.snafu.add(counter)
            yield self.ruling(
                "ROW-6.1",
                "SNAFU counter returned",
                f"{counter} goes back to the Cup of SNAFU.",
                result={"counter": counter},
            )
            return
        uid = a["unit"]  # the unit it goes on (the one unit, or the placer's choice ``among``)
        cu = self._cu(uid)
        o = place_snafu(self.dice, counter, a["face"], cu, [cu])
        quality = self.rows[uid].quality
        self.markers[uid] = tuple(sorted(m for m in o.unit.markers if m != quality))
        self.snafu.update(o.returned)
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

    def _cu(self: RowGame, uid: str, active: bool = False) -> CombatUnit:
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
            name=r.name,
        )
