"""Vietnam: Rumor of War, A6 the strategic air war (ROW-10.3): AEW (10.3.4), Downtown air combat (10.3.1), SAM fire
(10.3.5; the order of 10.3, R-AIR-01), the infrastructure, airfield and SAM strikes (10.3.2), and the VC's airfield
attacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Action
from .air_common import (
    STRATEGIC,
    STRIKES,
)
from .airdata import (
    aces,
    aircraft_counters,
    airfields,
    locations,
    mission_boxes,
)
from .pieces import CAPITALIST, COMMUNIST, other
from .supply import change_infrastructure

if TYPE_CHECKING:  # pragma: no cover
    from .game import RowGame


class AirStrategicMixin:
    """The air strategic procedures of :class:`RowGame`."""

    def air_aew(self: RowGame):
        """ROW-10.3.4: each AEW aircraft rolls a D10; one success gives +1 to every Capitalist aircraft on a
        strategic mission this season (not cumulative, decision R-AIR-03)."""
        ok_any = False
        for a in self._craft(CAPITALIST, "aew"):
            v, how = self.air_value(a, "aew")
            r, ok = self._roll(v, f"AEW roll of {a}")
            ok_any = ok_any or ok
            yield self.ruling(
                "ROW-10.3.4",
                "AEW",
                f"{aircraft_counters()[a].name} ({how}) rolls {r.value}: "
                + ("success" if ok else "no warning")
                + ".",
                result={"aircraft": a, "success": ok},
                dice=[r],
                **self._air_lookup(a, "aew", v, how),
            )
        self.airwar["aew"] = ok_any
        self._touch()
        yield self.ruling(
            "ROW-10.3.4",
            "AEW result",
            (
                "Airborne early warning works: +1 to every Capitalist aircraft on a strategic mission"
                if ok_any
                else "No AEW bonus this season"
            )
            + f"; SAM fire is reduced by the {len(self._craft(CAPITALIST, 'aew'))} aircraft in the AEW box.",
            result={"aew": ok_any},
        )

    def _shoot(self: RowGame, shooter: str, target: str, why: str):
        """ROW-10.3.1: one air-to-air attack: D10 at most the shooter's air-to-air value reduces and damages the
        target (a reduced target is eliminated)."""
        v, how = self.air_value(
            shooter, "a2a", box="downtown" if self.airwar["aircraft"][shooter]["box"] == "downtown" else None
        )
        r, hit = self._roll(v, f"air-to-air {shooter} at {target}")
        yield self.ruling(
            "ROW-10.3.1",
            "Air-to-air",
            f"{aircraft_counters()[shooter].name} ({how}) attacks "
            f"{aircraft_counters()[target].name}{why}: rolls {r.value}, "
            + ("a hit" if hit else "a miss")
            + ".",
            result={"shooter": shooter, "target": target, "hit": hit},
            dice=[r],
            **self._air_lookup(shooter, "a2a", v, how),
            side=aircraft_counters()[shooter].side,
        )
        if hit:
            yield from self._air_damage(
                target, True, f"shot down by {aircraft_counters()[shooter].name}", "ROW-10.3.1"
            )

    def air_downtown(self: RowGame):
        """ROW-10.3.1: air combat over Hanoi (see the module docstring and decisions R-AIR-01, digest 9 no. 64)."""
        us, com = self._craft(CAPITALIST, "downtown"), self._craft(COMMUNIST, "downtown")
        if not us and not com:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Nobody is in the Downtown box: no air combat.",
                result={"combat": "none"},
            )
            return
        if us and not com:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Only US aircraft are over Downtown: nothing happens.",
                result={"combat": "none"},
            )
            return
        if com and not us:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown",
                "Only Communist fighters are over Downtown: each may attack one "
                "US aircraft in a strategic box; nobody fires back.",
                result={"combat": "one-sided"},
            )
            yield from self._downtown_unopposed(com)
            return
        yield self.ruling(
            "ROW-10.3.1",
            "Downtown",
            "Both sides are over Downtown: air-to-air combat, the highest "
            "air-to-air value first, the Capitalist first at equal values.",
            result={"combat": "both"},
        )
        order = sorted(
            us + com,
            key=lambda a: (
                -self.air_value(a, "a2a")[0],
                0 if aircraft_counters()[a].side == CAPITALIST else 1,
                a,
            ),
        )
        for a in order:
            if self._over or self.airwar["aircraft"][a]["box"] != "downtown":
                continue  # damaged before its turn to fire
            side = aircraft_counters()[a].side
            targets = self._craft(other(side), "downtown")
            if not targets:
                break
            yield from self._attack(a, targets, "")
        if not self._craft(CAPITALIST, "downtown") and self._craft(COMMUNIST, "downtown") and not self._over:
            yield self.ruling(
                "ROW-10.3.1",
                "Downtown lost",
                "Only Communist fighters are left over Downtown: US Military Victory -1.",
                result={"us_military_victory": -1},
            )
            yield from self._award(CAPITALIST, -1, "the Communist holds the sky over Downtown (10.3.1)")

    def _downtown_unopposed(self: RowGame, com: list[str]):
        """ROW-10.3.1: with no US aircraft over Downtown, each Communist fighter there may attack one US aircraft in
        a strategic mission box; nobody fires back."""
        for m in com:
            if self.airwar["aircraft"][m]["box"] != "downtown" or self._over:
                continue
            targets = [a for a in self._craft(CAPITALIST) if self.airwar["aircraft"][a]["box"] in STRATEGIC]
            if not targets:
                break
            yield from self._attack(m, targets, " (unopposed)")

    def _attack(self: RowGame, shooter: str, targets: list[str], why: str):
        side = aircraft_counters()[shooter].side
        a = yield self.decide(
            side,
            f"{aircraft_counters()[shooter].name}: attack which aircraft?",
            "ROW-10.3.1",
            [
                Action.make("air_target", f"Attack {aircraft_counters()[t].name}", shooter=shooter, target=t)
                for t in targets
            ],
            kind="air_target",
        )
        yield from self._shoot(shooter, a["target"], why)

    def air_sams(self: RowGame):
        """ROW-10.3.5: one D10 (+ the ARMs, decision R-AIR-08); less than the SAMs (minus the AEW aircraft)
        hits the difference in aircraft on strategic missions, the Capitalist choosing the first, the Communist
        the second, and so on."""
        aw = self.airwar
        n_aew = len(self._craft(CAPITALIST, "aew"))
        sams = max(0, aw["sams"] - n_aew)
        if not sams:
            yield self.ruling(
                "ROW-10.3.5",
                "SAMs",
                f"{aw['sams']} SAMs less {n_aew} AEW aircraft: no SAM fire.",
                result={"hits": 0},
            )
            return
        r = self.dice.roll(10, "SAM fire")
        roll = r.value + aw["arms"]
        hits = max(0, sams - roll)
        yield self.ruling(
            "ROW-10.3.5",
            "SAM fire",
            f"{aw['sams']} SAMs - {n_aew} AEW aircraft = {sams}; the Communist "
            f"rolls {r.value}"
            + (f" + {aw['arms']} ARMs = {roll}" if aw["arms"] else "")
            + (f": {hits} hit(s)." if hits else ": no hit (the roll must be less than the SAMs)."),
            result={"sams": sams, "roll": roll, "hits": hits},
            dice=[r],
            side=COMMUNIST,
            inputs={"sams": aw["sams"], "aew_aircraft": n_aew, "arms": aw["arms"]},
        )
        for k in range(hits):
            targets = [a for a in self._craft(CAPITALIST) if aw["aircraft"][a]["box"] in STRATEGIC]
            if not targets or self._over:
                break
            chooser = CAPITALIST if k % 2 == 0 else COMMUNIST
            a = yield self.decide(
                chooser,
                f"SAM hit {k + 1} of {hits}: which aircraft is hit?",
                "ROW-10.3.5",
                [
                    Action.make(
                        "sam_target",
                        f"{aircraft_counters()[t].name} in {mission_boxes()[aw['aircraft'][t]['box']].name}",
                        target=t,
                    )
                    for t in targets
                ],
                kind="sam_hit",
            )
            yield from self._air_damage(
                a["target"], True, f"SAM hit {k + 1} (chosen by the {chooser})", "ROW-10.3.5"
            )

    def air_strikes(self: RowGame):
        """ROW-10.3 / 10.3.2 / 10.3.3: the strike boxes, one whole type at a time, in the Capitalist's order."""
        done: list[str] = []
        while not self._over:
            left = [b for b in STRIKES if b not in done and self._craft(CAPITALIST, b)]
            if not left:
                break
            b = yield from self.choose_one(
                CAPITALIST,
                "Which strike missions are flown next?",
                "ROW-10.3",
                left,
                kind="strike_order",
                option="strike_type",
                key="box",
                label=lambda x: f"{mission_boxes()[x].name} next",
            )
            done.append(b)
            for uid in self._craft(CAPITALIST, b):
                if self._over or self.airwar["aircraft"][uid]["box"] != b:
                    continue
                yield from {
                    "infrastructure": self._infra_strike,
                    "airfield_strike": self._airfield_strike,
                    "sam_strike": self._sam_strike,
                }[b](uid)
        if not done:
            yield self.ruling("ROW-10.3", "No strikes", "No aircraft are left in a strike box.", result={})

    def _infra_strike(self: RowGame, uid: str):
        """ROW-10.3.2: D10 <= value: Communist Infrastructure -1 (a 1: -2); a 10 damages the striker."""
        v, how = self.air_value(uid, "infrastructure")
        r, ok = self._roll(v, f"infrastructure strike of {uid}")
        loss = 2 if r.value == 1 else (1 if ok else 0)
        text = f"{aircraft_counters()[uid].name} ({how}) rolls {r.value}: "
        if loss:
            new, cr = change_infrastructure(self.pools_obj(), COMMUNIST, -loss, "infrastructure strike")
            self.set_pools(new)
            self._touch()
            text += f"Communist Infrastructure -{loss}. {cr.explanation}"
        else:
            text += "no effect" + (" and the aircraft is damaged" if r.value == 10 else "") + "."
        yield self.ruling(
            "ROW-10.3.2",
            "Infrastructure strike",
            text,
            result={"aircraft": uid, "loss": loss, "infrastructure": self.pools["Communist Infrastructure"]},
            dice=[r],
            side=CAPITALIST,
            **self._air_lookup(uid, "infrastructure", v, how),
        )
        if r.value == 10:
            yield from self._air_damage(uid, False, "a 10 on the infrastructure strike", "ROW-10.3.2")

    def _airfield_strike(self: RowGame, uid: str):
        """ROW-10.3.3.1: against a Communist airfield the US may strike (not China's, R-AIR-02): success damages it
        and one Communist aircraft in the Available or Damaged box is removed for good (the Communist picks)."""
        targets = [
            f
            for f, st in sorted(self.airwar["airfields"].items())
            if airfields()[f].side == COMMUNIST
            and not st["damaged"]
            and locations()[airfields()[f].location].strikable == "yes"
        ]
        if not targets:
            yield self.ruling(
                "ROW-10.3.3.1",
                "Airfield strike",
                f"{aircraft_counters()[uid].name}: no Communist "
                "airfield the US may strike is undamaged; the mission is not flown.",
                result={"aircraft": uid, "target": None},
            )
            return
        t = yield self.decide(
            CAPITALIST,
            f"{aircraft_counters()[uid].name}: strike which airfield?",
            "ROW-10.3.3.1",
            [Action.make("strike_airfield", f"Strike {airfields()[f].name}", airfield=f) for f in targets],
            kind="airfield_strike",
        )
        v, how = self.air_value(uid, "airfield")
        r, ok = self._roll(v, f"airfield strike of {uid}")
        if ok:  # the strike's ruling states the damage
            self.airwar["airfields"][t["airfield"]]["damaged"] = True
        yield self.ruling(
            "ROW-10.3.3.1",
            "Airfield strike",
            f"{aircraft_counters()[uid].name} ({how}) strikes "
            f"{airfields()[t['airfield']].name}: rolls {r.value}, "
            + ("the airfield is damaged" if ok else "no effect")
            + ".",
            result={"aircraft": uid, "target": t["airfield"], "success": ok},
            dice=[r],
            side=CAPITALIST,
            **self._air_lookup(uid, "airfield", v, how),
        )
        if ok:
            self._touch()
            victims = [
                a
                for a in self._craft(COMMUNIST)
                if self.airwar["aircraft"][a]["box"] in ("available", "damaged")
            ]
            if victims:
                d = yield self.decide(
                    COMMUNIST,
                    "Airfield strike: which of your aircraft is destroyed on the ground?",
                    "ROW-10.3.3.1",
                    [
                        Action.make("lose_aircraft", f"Lose {aircraft_counters()[a].name}", aircraft=a)
                        for a in victims
                    ],
                    kind="aircraft_lost",
                )
                rec = self.airwar["aircraft"][d["aircraft"]]
                rec["box"] = "eliminated"
                ace, rec["ace"] = rec["ace"], ""
                if ace:
                    self.airwar["aces"][ace] = "lost"
                self._touch()
                yield self.ruling(
                    "ROW-10.3.3.1",
                    "Aircraft destroyed on the ground",
                    f"{aircraft_counters()[d['aircraft']].name} is removed from play.",
                    result={"aircraft": d["aircraft"], "box": "eliminated"},
                )
                if ace:
                    yield from self._award(
                        CAPITALIST, 1, f"the Communist ace {aces()[ace].name} is lost (10.3.6)"
                    )
        if r.value == 10:
            yield from self._air_damage(uid, False, "a 10 on the airfield strike", "ROW-10.3.3.1")

    def _sam_strike(self: RowGame, uid: str):
        """ROW-10.3.3.2: D10 <= value removes one SAM; a 9 or 10 reduces and damages the striker."""
        v, how = self.air_value(uid, "sam")
        r, ok = self._roll(v, f"SAM strike of {uid}")
        if ok and self.airwar["sams"]:
            self.airwar["sams"] -= 1
            self._touch()
        yield self.ruling(
            "ROW-10.3.3.2",
            "SAM strike",
            f"{aircraft_counters()[uid].name} ({how}) rolls {r.value}: "
            + (f"one SAM destroyed, {self.airwar['sams']} left" if ok else "no effect")
            + ".",
            result={"aircraft": uid, "success": ok, "sams": self.airwar["sams"]},
            dice=[r],
            **self._air_lookup(uid, "sam", v, how),
            side=CAPITALIST,
        )
        if r.value >= 9:
            yield from self._air_damage(uid, True, f"a {r.value} on the SAM strike", "ROW-10.3.3.2")

    def air_vc_airfield_strikes(self: RowGame):
        """ROW-9.5 (Infiltrate) / ROW-10.3.3.1: at the end of the Communist Activation phase every VC unit in or next
        to a town or city hex makes an Airfield Strike at value 4 (D10 <= 4): the Communist picks an undamaged
        Capitalist airfield in South Vietnam, which is damaged, and one Capitalist aircraft in the Available or
        Damaged box is destroyed (the Capitalist picks; not a Navy wing).  Only South Vietnamese fields are in reach
        of the VC, and a 10 has no further effect: there is no aircraft to damage (decision R-AIR-15)."""
        vcs = [
            u
            for u in sorted(self.pos)
            if self.rows[u].nationality == "VC"
            and self.rows[u].kind == "unit"
            and any(self.map.settlement(h) for h in (self.pos[u], *self.map.neighbours(self.pos[u])))
        ]
        for u in vcs:
            targets = [
                f
                for f, st in sorted(self.airwar["airfields"].items())
                if airfields()[f].side == CAPITALIST
                and airfields()[f].location == "svn"
                and not st["damaged"]
            ]
            if not targets or self._over:
                break
            t = yield self.decide(
                COMMUNIST,
                f"{self.rows[u].name}: strike which airfield?",
                "ROW-10.3.3.1",
                [
                    Action.make("strike_airfield", f"Strike {airfields()[f].name}", airfield=f)
                    for f in targets
                ],
                kind="airfield_strike",
            )
            r, ok = self._roll(4, f"VC airfield strike by {u}")
            if ok:  # the strike's ruling states the damage
                self.airwar["airfields"][t["airfield"]]["damaged"] = True
            yield self.ruling(
                "ROW-10.3.3.1",
                "VC airfield strike",
                f"{self.rows[u].name} (Infiltrate, value 4) strikes "
                f"{airfields()[t['airfield']].name}: rolls {r.value}, "
                + ("the airfield is damaged" if ok else "no effect")
                + ".",
                result={"unit": u, "target": t["airfield"], "success": ok},
                dice=[r],
                places=[self.pos[u]],
                side=COMMUNIST,
            )
            if not ok:
                continue
            self._touch()
            victims = [
                a
                for a in self._craft(CAPITALIST)
                if self.airwar["aircraft"][a]["box"] in ("available", "damaged")
                and aircraft_counters()[a].service != "Navy"
            ]  # R-AIR-15: the carriers are out of reach
            if victims:
                d = yield self.decide(
                    CAPITALIST,
                    "VC airfield strike: which of your aircraft is destroyed on the ground?",
                    "ROW-10.3.3.1",
                    [
                        Action.make("lose_aircraft", f"Lose {aircraft_counters()[a].name}", aircraft=a)
                        for a in victims
                    ],
                    kind="aircraft_lost",
                )
                rec = self.airwar["aircraft"][d["aircraft"]]
                rec["box"], rec["airfield"] = "eliminated", ""
                ace, rec["ace"] = rec["ace"], ""
                if ace:
                    self.airwar["aces"][ace] = "lost"
                self._touch()
                yield self.ruling(
                    "ROW-10.3.3.1",
                    "Aircraft destroyed on the ground",
                    f"{aircraft_counters()[d['aircraft']].name} is removed from play.",
                    result={"aircraft": d["aircraft"], "box": "eliminated"},
                    side=CAPITALIST,
                )
                if ace:
                    yield from self._air_points("pow", 2, f"the US ace {aces()[ace].name} is lost (10.3.6)")
