"""Insurrection (summary lines 14, 38): TET-P2-18 placement after phases 1 and 2, TET-UNIT-8 marker bonus."""

from __future__ import annotations


class InsurrectionRules:
    def insurrection_check(self):
        """TET-P2-18: a city with VC units and no Allied unit (Ruff Puffs count) rises.

        The marker carries a bonus attack factor of twice the city's political value (TET-UNIT-8).  The VC
        track improves by the political value, once per city per game (decision A-37); it may go negative.
        NVA units alone never raise a city.  Any Allied unit blocks the rising, a helicopter alone included (the
        text says Allied units, not ground units: decision D-21).
        """
        risen = 0
        for city in sorted(a.id for a in self.data.areas.values() if a.kind == "city"):
            if city in self.insurrection:
                continue
            here = self.units_in(city)
            vc = [u for u in here if self.unit(u).faction == "VC"]
            allied = [u for u in here if self.side_of(u) == "Allied"]
            if not vc or allied:
                continue
            pv = self.data.areas[city].pv
            self.insurrection.add(city)
            risen += 1
            first = city not in self.vc_scored
            changes = [{"insurrection": city, "bonus": 2 * pv}]
            if first:
                self.vc_scored.add(city)
                before = self.score["VC"]
                self.score["VC"] -= pv
                changes.append({"track": "VC", "from": before, "to": self.score["VC"]})
                score_text = (
                    f"The VC demoralization track falls by the political value {pv} "
                    f"({before} -> {self.score['VC']}); this credit is given once per city per game."
                )
            else:
                score_text = (
                    "The VC already scored this city earlier in the game, so its track does not change."
                )
            yield self.ruling(
                "TET-P2-18",
                f"Insurrection in {self.area_name(city)}",
                f"{len(vc)} VC unit(s) hold {self.area_name(city)} and no Allied unit is left there, so the city "
                f"rises: an insurrection marker with a bonus attack factor of 2 x {pv} = {2 * pv} is placed "
                f"(TET-UNIT-8). {score_text}",
                inputs={"city": city, "pv": pv, "vc_units": len(vc), "allied_units": 0},
                result={"bonus": 2 * pv, "vc_change": -pv if first else 0},
                changes=changes,
                places=(city,),
            )
        if not risen:
            yield self.ruling(
                "TET-P2-18",
                "No new insurrection",
                "No city holds VC units without an Allied unit, so no insurrection marker is placed.",
                result={"risen": 0},
            )
