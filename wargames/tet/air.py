"""Air strikes and naval gunfire in the Allied combat phase (summary line 55): TET-P6-2 .. TET-P6-5.

* TET-P6-2: in each battle area the aircraft strike before any ground fire; every strike is assigned before
  any die is rolled; several tactical air units may join against one target (one combined attack).  A strike
  below 1:2 may not be assigned (TET-P2-8): a Tac Air is offered a target only if its group can still reach
  1:2 with the Tac Air not yet assigned, and it cannot hold while a group counts on it.
* TET-P6-3: the Arc Light (B-52) bombs twice, at one target or two, each time at full strength, but never
  in a city that also holds Allied units.
* TET-P6-4: striking targets in a city costs the USA and the SVN the city's political value each, once per
  city per turn (decision A-30: air strikes only), charged when the first strike there is rolled: a strike that
  never happens costs nothing.
* TET-P6-5: the battleship adds its 10 to one Allied ground fire group in the province it lies off, or in a
  city of that province, once per Allied combat phase.
A target the aircraft missed may still be fired on by ground units (decision A-19).
"""

from __future__ import annotations

from ..core import Action, Lookup
from .data import COMMUNIST
from .odds import odds_column, ratio_text

STRIKE_TYPES = ("tac_air", "arc_light")
BATTLESHIP = "us_bb"


class AirRules:
    def battleship_area(self) -> set[str]:
        """TET-P4-4: the province the battleship lies off (offshore_11 -> 11) and that province's cities."""
        where = self.loc.get(BATTLESHIP)
        if not where or not where.startswith("offshore_"):
            return set()
        prov = where.split("_", 1)[1]
        return {prov, *self.data.cities_of.get(prov, ())}

    def battleship_ready(self, area: str) -> bool:
        return (
            self.phase is not None
            and self.phase.id == "p6"
            and not self.battleship_used
            and area in self.battleship_area()
        )

    def air_strikes(self, area: str, state):
        """TET-P6-2 / TET-P6-3 / TET-P6-4: assign every strike, then roll them."""
        planes = sorted(u for u in self.units_in(area) if self.unit(u).type in STRIKE_TYPES)
        if not planes:
            return
        targets = sorted(
            u for u in self.units_in(area) if self.unit(u).faction in COMMUNIST and self.face_up[u]
        )
        city_with_friends = self.data.areas[area].kind == "city" and bool(self.allied_ground_in(area))
        plan: list[tuple[str, str]] = []  # (plane, target), Arc Light twice
        sorties = []
        for p in planes:
            u = self.unit(p)
            if u.type == "arc_light" and city_with_friends:
                yield self.ruling(
                    "TET-P6-3",
                    "Arc Light may not bomb here",
                    f"{u.name} may never bomb a city that also holds Allied units, so it does not "
                    f"strike in {self.area_name(area)}.",
                    inputs={"unit": p, "area": area},
                    result={"strikes": 0},
                    places=(area,),
                )
                continue
            sorties += [(p, k) for k in range(2 if u.type == "arc_light" else 1)]
        for i, (p, sortie) in enumerate(sorties):
            u = self.unit(p)
            later = [self.unit(q).cf for q, _ in sorties[i + 1 :] if self.unit(q).type == "tac_air"]
            legal = [t for t in targets if self.strike_can_stand(plan + [(p, t)], later)]
            hold_ok = self.strike_can_stand(plan, later)
            if not legal:
                plan_ok = "" if hold_ok else " (cannot happen)"
                yield self.ruling(
                    "TET-P2-8",
                    f"{u.name} holds its strike",
                    f"{u.name} has no target in {self.area_name(area)} it can strike at 1:2 or better, "
                    f"alone or with the Tac Air still to be assigned, so it holds{plan_ok}: a strike "
                    "below 1:2 may not be assigned (summary lines 34 and 55).",
                    inputs={"unit": p, "area": area, "targets": targets},
                    result={"strikes": 0},
                    places=(area,),
                )
                continue
            options = [
                Action.make(
                    "air_target",
                    label=f"{u.name} strikes {self.describe(t, 'Allied')}"
                    + (f" (bomb run {sortie + 1} of 2)" if u.type == "arc_light" else ""),
                    places=(area,),
                    plane=p,
                    target=t,
                    sortie=sortie,
                )
                for t in legal
            ]
            if hold_ok:
                options.append(
                    Action.make("air_hold", label=f"{u.name} holds this strike", plane=p, sortie=sortie)
                )
            act = yield self.decide(
                "Allied",
                f"Assign {u.name}'s strike in {self.area_name(area)}",
                "TET-P6-2",
                options,
                plan=[list(x) for x in plan],
                kind="air_target",
            )
            if act.kind == "air_target":
                plan.append((p, act["target"]))
        if not plan:
            return
        attacks: list[tuple[str, list[str]]] = []
        for p, t in plan:  # Tac Air on one target combine; each Arc Light run is its own attack
            joined = next(
                (
                    g
                    for tt, g in attacks
                    if tt == t
                    and self.unit(p).type == "tac_air"
                    and all(self.unit(x).type == "tac_air" for x in g)
                ),
                None,
            )
            if joined is not None:
                joined.append(p)
            else:
                attacks.append((t, [p]))
        yield self.ruling(
            "TET-P6-2",
            f"Air strikes over {self.area_name(area)}",
            f"All {len(plan)} strike(s) are assigned before any die is rolled: "
            + "; ".join(
                f"{', '.join(self.unit(x).name for x in g)} on {self.describe(t)}" for t, g in attacks
            )
            + ".",
            inputs={"area": area, "strikes": [[t, g] for t, g in attacks]},
            places=(area,),
        )
        for target, group in attacks:
            if self.loc[target] != area:
                continue  # already overrun or retreated by an earlier strike: this strike never happens
            if self.data.areas[area].kind == "city":
                yield from self.bombing_penalty(area)  # charged when a strike on the city actually happens
            attack = sum(self.unit(x).cf for x in group)
            defense = self.defense_strength(target)
            column = odds_column(attack, defense)
            assert column is not None, "strike_can_stand admits no strike below 1:2"
            roll = self.dice.roll(6, f"air strike at {target}")
            row = next(r for r in self.data.crt if r.die == roll.value)
            cell = row.model_dump(by_alias=True)[column]
            yield self.ruling(
                "TET-P6-2",
                f"Air strike on {self.describe(target)}",
                f"{', '.join(self.unit(x).name for x in group)} strike {self.describe(target)}: "
                f"{ratio_text(attack, defense)} gives {column}; the die shows {roll.value}: {cell} "
                "(the same CRT as ground fire, reconstructed: see data/tet/crt.csv).",
                inputs={
                    "area": area,
                    "planes": group,
                    "target": target,
                    "attack": attack,
                    "defense": defense,
                },
                dice=[roll],
                lookup=Lookup(
                    "Tet CRT", str(roll.value), column, cell, reconstructed=True, source="data/tet/crt.csv"
                ),
                result={"target": target, "result": cell},
                places=(area,),
            )
            yield from self.apply_result(area, target, cell, state)

    def strike_can_stand(self, plan: list[tuple[str, str]], later: list[int]) -> bool:
        """TET-P2-8 with TET-P6-2: every strike assigned must reach 1:2.  An Arc Light run stands alone; Tac Air
        on one target combine, so a Tac Air group still short of 1:2 is acceptable only if the Tac Air not yet
        assigned (combat factors ``later``) can still bring every short group up to 1:2."""
        groups: dict[str, int] = {}
        for p, t in plan:
            if self.unit(p).type == "arc_light":
                if odds_column(self.unit(p).cf, self.defense_strength(t)) is None:
                    return False
            else:
                groups[t] = groups.get(t, 0) + self.unit(p).cf
        short = {t: a for t, a in groups.items() if odds_column(a, self.defense_strength(t)) is None}

        def fill(short: dict[str, int], rest: list[int]) -> bool:
            if not short:
                return True
            if not rest:
                return False
            cf, more = rest[0], rest[1:]
            for t, a in short.items():
                grown = dict(short)
                if odds_column(a + cf, self.defense_strength(t)) is None:
                    grown[t] = a + cf
                else:
                    del grown[t]
                if fill(grown, more):
                    return True
            return fill(short, more)  # this aircraft holds or strikes elsewhere

        return fill(short, sorted(later, reverse=True))

    def bombing_penalty(self, city: str):
        """TET-P6-4: US and SVN each lose the city's political value, once per city per turn."""
        key = f"{self.turn}:{city}"
        if key in self.bombed:
            return
        self.bombed.add(key)
        pv = self.data.areas[city].pv
        before = dict(self.score)
        self.score["USA"] += pv
        self.score["SVN"] += pv
        yield self.ruling(
            "TET-P6-4",
            f"Bombing {self.area_name(city)}",
            f"Striking targets inside {self.area_name(city)} costs the USA and the SVN its political "
            f"value {pv} each (USA {before['USA']} -> {self.score['USA']}, SVN {before['SVN']} -> "
            f"{self.score['SVN']}); further strikes on this city this turn cost nothing more.",
            inputs={"city": city, "pv": pv},
            result={"usa": pv, "svn": pv},
            places=(city,),
            changes=[
                {"track": "USA", "from": before["USA"], "to": self.score["USA"]},
                {"track": "SVN", "from": before["SVN"], "to": self.score["SVN"]},
            ],
        )
