"""Vietnam: Rumor of War, tactical air during the player turns (ROW-10.4): aircraft staying on station, the air
support a combat uses flown by the Ground Support box (10.4.2), interdiction after reconnaissance of HQ activations,
strategic moves and combat support (10.4.1, 10.4.3), and the HQ Interdicted markers removed (C-c).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .air_common import (
    AIR_TRACK,
)
from .airdata import (
    aircraft_counters,
    aircraft_types,
    mission_boxes,
)
from .pieces import CAPITALIST, COMMUNIST, other

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class AirTacticalMixin:
    """The air tactical procedures of :class:`RowGame`."""

    def _recon_flight(self: RowGame, me: str, recons: list[str], hid: str, where: str):
        """ROW-10.4.3: ``me`` picks one of ``recons`` to reconnoitre ``hid`` (``where``: how the ruling names it);
        it rolls its recon value (a 10 fails and damages it, else it rolls to stay on station).  Returns whether
        the target was found."""
        rc = yield from self.choose_one(
            me,
            "Which aircraft flies the reconnaissance?",
            "ROW-10.4.3",
            recons,
            kind="recon_aircraft",
            option="recon_with",
            key="aircraft",
            label=lambda x: aircraft_counters()[x].name,
        )
        v, how = self.air_value(rc, "recon")
        r, ok = self._roll(v, f"recon of {hid}")
        ok = ok and r.value != 10
        yield self.ruling(
            "ROW-10.4.3",
            "Reconnaissance",
            f"{aircraft_counters()[rc].name} ({how}) reconnoitres {where}:"
            f" rolls {r.value}, " + ("the target is found" if ok else "nothing found") + ".",
            result={"aircraft": rc, "success": ok},
            dice=[r],
            places=[hid],
            side=me,
            **self._air_lookup(rc, "recon", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(rc, False, "a 10 on the reconnaissance", "ROW-10.4.3")
        else:
            yield from self._stay(rc, "ROW-10.4.3")
        return ok

    def _stay(self: RowGame, uid: str, rule: str):
        """ROW-10.4: after a mission a D10 at most the Station number keeps the aircraft in its box; more sends it
        to Available (a Ground Support aircraft takes its value off the level, decision R-AIR-11); a 10 damages it
        (not reduced).  The Station number is not a mission value: neither reduction nor monsoon change it
        (decision R-AIR-12)."""
        rec = self.airwar["aircraft"][uid]
        st = aircraft_types()[aircraft_counters()[uid].type].station
        r, ok = self._roll(st, f"stay on station {uid}")
        side = aircraft_counters()[uid].side
        box = rec["box"]
        if ok:
            yield self.ruling(
                rule,
                "Stays on station",
                f"{aircraft_counters()[uid].name} rolls {r.value} against "
                f"Station {st}: it stays in the {mission_boxes()[box].name} box.",
                result={"aircraft": uid, "stays": True},
                dice=[r],
                side=side,
            )
            return
        lost = self.air_value(uid, "ground_support")[0] if box == "ground_support" else 0
        if lost:
            self.pools[AIR_TRACK[side]] = max(0, self.pools[AIR_TRACK[side]] - lost)
        if r.value == 10:
            yield self.ruling(
                rule,
                "Leaves station",
                f"{aircraft_counters()[uid].name} rolls a 10 against Station {st}:"
                " it leaves the box damaged." + (f" {AIR_TRACK[side]} -{lost}." if lost else ""),
                result={"aircraft": uid, "stays": False, "air_level": self.pools[AIR_TRACK[side]]},
                dice=[r],
                side=side,
            )
            yield from self._air_damage(uid, False, "a 10 on the stay-on-station roll", rule)
            return
        rec.update(box="available", airfield="", restricted=False)
        self._touch()
        yield self.ruling(
            rule,
            "Leaves station",
            f"{aircraft_counters()[uid].name} rolls {r.value} against Station "
            f"{st}: back to the Available Aircraft box until next season."
            + (f" {AIR_TRACK[side]} -{lost} = {self.pools[AIR_TRACK[side]]}." if lost else ""),
            result={"aircraft": uid, "stays": False, "air_level": self.pools[AIR_TRACK[side]]},
            dice=[r],
            side=side,
        )

    def air_pools(self: RowGame, hid: str) -> dict[str, int]:
        """ROW-10.4.2 / ROW-11.4: the support levels a combat at ``hid`` reads: the tracks, less the ground
        support of Navy aircraft when ``hid`` lies on the other side of the Station line from the fleet."""
        if not self.air_on():
            return self.pools
        out = dict(self.pools)
        for a in self._craft(CAPITALIST, "ground_support"):
            if not self.navy_may_fly_at(a, hid):
                out[AIR_TRACK[CAPITALIST]] = max(
                    0, out[AIR_TRACK[CAPITALIST]] - self.air_value(a, "ground_support")[0]
                )
        return out

    def air_after_combat(self: RowGame, mark: int, hid: str = ""):
        """ROW-10.4.2: the air support each side used in the combat just fought (its ROW-5.3.1 commitment) is
        flown by aircraft of its Ground Support box, chosen by the owner until the amount is covered (a larger
        value may give part of itself); each rolls to stay on station."""
        if not self.air_on():
            return
        used: dict[str, int] = {}
        for r in self.log[mark:]:
            if (
                r.rule_id == "ROW-5.3.1"
                and r.title.endswith("commits support")
                and isinstance(r.result, dict)
            ):
                used[r.side] = used.get(r.side, 0) + int(r.result["support"].get("air", 0))
        for side in (CAPITALIST, COMMUNIST):
            need = used.get(side, 0)
            flown: list[str] = []
            while need > 0 and not self._over:
                box = [
                    a
                    for a in self._craft(side, "ground_support")
                    if a not in flown and (not hid or self.navy_may_fly_at(a, hid))
                ]
                if not box:
                    break
                a = yield from self.choose_one(
                    side,
                    f"Which aircraft flew the air support ({need} still to cover)?",
                    "ROW-10.4.2",
                    box,
                    kind="air_support",
                    option="fly_support",
                    key="aircraft",
                    label=lambda x: (
                        f"{aircraft_counters()[x].name} (ground support "
                        f"{self.air_value(x, 'ground_support')[0]})"
                    ),
                )
                flown.append(a)
                need -= self.air_value(a, "ground_support")[0]
            if flown:
                yield self.ruling(
                    "ROW-10.4.2",
                    "Air support flown",
                    f"{used[side]} air support was flown by "
                    f"{', '.join(aircraft_counters()[x].name for x in flown)}; each rolls to stay on "
                    "station.",
                    result={"side": side, "used": used[side], "aircraft": flown},
                    side=side,
                )
            for a in flown:
                if self.airwar["aircraft"][a]["box"] == "ground_support" and not self._over:
                    yield from self._stay(a, "ROW-10.4.2")

    def air_interdicts(self: RowGame, target_side: str, what: str, hid: str, label: str):
        """ROW-10.4.1 / 10.4.3: may the enemy of ``target_side`` interdict this action (``what``: hq_activation,
        strategic_move, combat_support) at ``hid``?  The interdictor decides; a recon aircraft must first roll at
        most its recon value (a 10 damages it), then an Interdiction aircraft rolls a D10 (decision R-AIR-08) at
        most its value, halved under restricted ops (10.3.7); a 10 damages it.  Each aircraft not damaged rolls to
        stay on station.  Returns True when the action is stopped."""
        if not self.air_on():
            return False
        me = other(target_side)
        strikers = [a for a in self._craft(me, "interdiction") if self.navy_may_fly_at(a, hid)]  # 11.4
        recons = self._craft(me, "recon")
        if not strikers or not recons:
            return False
        a = yield self.decide(
            me,
            f"Interdict {label}?",
            "ROW-10.4.1",
            [
                *(
                    Action.make(
                        "interdict",
                        f"Interdict with {aircraft_counters()[s].name}",
                        aircraft=s,
                        what=what,
                        hex=hid,
                    )
                    for s in strikers
                ),
                Action.make("no_interdiction", "Let it pass", what=what, hex=hid),
            ],
            what=what,
            kind="air_interdiction",
        )
        if a.kind == "no_interdiction":
            return False
        striker = a["aircraft"]
        ok = yield from self._recon_flight(me, recons, hid, hid)
        if not ok or self._over:
            return False
        restricted = self.restricted.get(me, "none") != "none"
        v, how = self.air_value(striker, "interdiction", restricted=restricted)
        r, hit = self._roll(v, f"interdiction at {hid}")
        yield self.ruling(
            "ROW-10.4.1",
            "Interdiction",
            f"{aircraft_counters()[striker].name} ({how}) rolls {r.value} "
            f"against {label}: " + ("the LoC is cut for this action" if hit else "no effect") + ".",
            result={"aircraft": striker, "what": what, "success": hit},
            dice=[r],
            places=[hid],
            side=me,
            **self._air_lookup(striker, "interdiction", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(striker, False, "a 10 on the interdiction", "ROW-10.4.1")
        elif not self._over:
            yield from self._stay(striker, "ROW-10.4.1")
        return hit

    # -------------------------------------------------------------- 10.4.1 / 14.7.2: the trail strike
    def trail_strikes_in_play(self: RowGame) -> bool:
        """Sequence predicate of step a6f: the scenario has both the air war and the Ho Chi Minh Trail."""
        return self.air_on() and self.trail_in_play()

    def trail_strike_hexes(self: RowGame) -> list[str]:
        """ROW-14.7.2 (decision R-WAR-14): the trail hexes an air strike may mark: inside the scenario's window,
        without a Trail Interdicted marker and without a Communist unit (whose presence lifts a marker)."""
        marks = self.trail_markers()
        com = {h for u, h in self.pos.items() if self.side_of(u) == COMMUNIST}
        return sorted(h for h in self.window_land if self.map.is_trail(h) and h not in marks and h not in com)

    def trail_strikes(self: RowGame):
        """ROW-10.4.1 / ROW-14.7.2 / ROW-10.4.3 (step a6f, decision R-WAR-14): the Capitalist may strike the trail
        with an aircraft of the Trail Strike box, as often as his aircraft stay on station: he names the trail hex,
        a reconnaissance aircraft must find it (D10 at most its recon value; a 10 damages it), then the striker
        rolls a D10 at most its Ho Chi Minh strike value (halved under restricted ops, 10.3.7): a hit puts a Trail
        Interdicted marker on the hex; a 10 damages the striker; each aircraft not damaged rolls to stay on
        station."""
        tried: list[str] = []
        while not self._over:
            strikers = [a for a in self._craft(CAPITALIST, "hcm_strike") if a not in tried]
            recons = self._craft(CAPITALIST, "recon")
            hexes = self.trail_strike_hexes()
            trail = self.scenario.trail
            room = trail is not None and len(self.trail_markers()) < trail.markers
            opts = [
                Action.make(
                    "trail_strike",
                    f"{aircraft_counters()[s].name} strikes the trail at {h}",
                    [h],
                    aircraft=s,
                    hex=h,
                )
                for s in strikers
                for h in hexes
                if self.navy_may_fly_at(s, h)  # 11.4: carrier wings on their Station's side
            ]
            if not opts or not recons or not room:
                return
            a = yield self.decide(
                CAPITALIST,
                "Strike the Ho Chi Minh Trail?",
                "ROW-14.7.2",
                [*opts, Action.make("no_trail_strike", "No (more) trail strikes this season")],
                kind="trail_strike",
            )
            if a.kind == "no_trail_strike":
                return
            striker, hid = a["aircraft"], a["hex"]
            tried.append(striker)
            ok = yield from self._recon_flight(CAPITALIST, recons, hid, f"the trail at {hid}")
            if not ok or self._over:
                continue
            restricted = self.restricted.get(CAPITALIST, "none") != "none"
            v, how = self.air_value(striker, "hcm_strike", restricted=restricted)
            r, hit = self._roll(v, f"trail strike at {hid}")
            yield self.ruling(
                "ROW-14.7.2",
                "Trail strike",
                f"{aircraft_counters()[striker].name} ({how}) rolls {r.value} against the trail at {hid}: "
                + ("a hit" if hit else "a miss")
                + ".",
                result={"aircraft": striker, "hex": hid, "success": hit},
                dice=[r],
                places=[hid],
                side=CAPITALIST,
                **self._air_lookup(striker, "hcm_strike", v, how),
            )
            if hit:
                yield from self.interdict_trail(hid, "air")
            if r.value == 10:
                yield from self._air_damage(striker, False, "a 10 on the trail strike", "ROW-14.7.2")
            elif not self._over:
                yield from self._stay(striker, "ROW-14.7.2")
                if self.airwar["aircraft"][striker]["box"] == "hcm_strike":
                    tried.remove(striker)  # 10.4: still on station, it may strike again

    def air_hq_interdicted(self: RowGame, hq: str) -> bool:
        return hq in self.airwar.get("interdicted", [])

    def air_interdict_hq(self: RowGame, side: str, hq: str):
        """ROW-10.4.1: an HQ about to activate may be interdicted: it may not activate this season (an HQ
        Interdicted marker until the End Phase); it stays fresh."""
        hit = yield from self.air_interdicts(
            side, "hq_activation", self.pos[hq], f"the activation of {self.rows[hq].name}"
        )
        if hit:
            self.airwar["interdicted"] = sorted({*self.airwar["interdicted"], hq})
            self._touch()
            yield self.ruling(
                "ROW-10.4.1",
                "HQ Interdicted",
                f"{self.rows[hq].name} may not activate this season (HQ "
                "Interdicted marker until the End Phase); it stays fresh.",
                result={"hq": hq},
                places=[self.pos[hq]],
                side=other(side),
            )
        return hit

    def air_remove_interdicted(self: RowGame):
        """ROW-10.4.1 (C-c): the HQ Interdicted markers come off."""
        gone = list(self.airwar["interdicted"])
        self.airwar["interdicted"] = []
        self._touch()
        yield self.ruling(
            "ROW-10.4.1",
            "HQ Interdicted markers removed",
            f"{len(gone)} HQ Interdicted markers come off" + (f": {', '.join(gone)}" if gone else "") + ".",
            result={"removed": gone},
        )
