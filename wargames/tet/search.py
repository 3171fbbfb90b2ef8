"""Phase 5, Allied search (summary lines 51-52): TET-P5-1 .. TET-P5-4.

Hidden NVA/VC units outside cities cannot be attacked until detected.  In each province or sanctuary
holding Allied ground units and face-down NVA/VC units, the Allied unit with the best detection factor
(DF) rolls one die: a roll at most the DF (DF - 1 in a sanctuary) succeeds and turns face up as many
enemy units as there are Allied ground units there.  The pick is blind (all face-down counters look the
same), so the engine draws them at random (decision D-12).  Recce teams (on the recce turns, A-20)
each turn up one unit in a province of their country.
"""

from __future__ import annotations

from ..core import Action
from .data import COMMUNIST


class SearchRules:
    def hidden_communists(self, area: str) -> list[str]:
        return sorted(
            u for u in self.units_in(area) if self.unit(u).faction in COMMUNIST and not self.face_up[u]
        )

    def search_areas(self) -> list[str]:
        """TET-P5-1: provinces and sanctuaries where Allied ground units meet face-down NVA/VC units."""
        out = []
        for a in self.data.areas.values():
            if (
                a.kind in ("province", "sanctuary")
                and self.allied_ground_in(a.id)
                and self.hidden_communists(a.id)
            ):
                out.append(a.id)
        return sorted(out)

    def detection(self, area: str):
        """TET-P5-2 and TET-P5-3: one detection roll in one area."""
        ground = self.allied_ground_in(area)
        spotters = [u for u in ground if self.unit(u).df is not None]
        hidden = self.hidden_communists(area)
        if not spotters:
            yield self.ruling(
                "TET-P5-2",
                f"No detection in {self.area_name(area)}",
                "None of the Allied ground units here has a detection factor, so no roll is made.",
                inputs={"area": area},
                result={"detected": 0},
                places=(area,),
            )
            return
        best = max(spotters, key=lambda u: (self.unit(u).df, u))
        df = self.unit(best).df
        sanctuary = self.data.areas[area].kind == "sanctuary"
        eff = df - 1 if sanctuary else df
        roll = self.dice.roll(6, f"detection in {area}")
        n_ground = len(ground)
        success = roll.value <= eff
        inputs = {
            "area": area,
            "spotter": best,
            "df": df,
            "sanctuary_modifier": -1 if sanctuary else 0,
            "effective_df": eff,
            "allied_ground_units": n_ground,
            "face_down_enemy": len(hidden),
        }
        mod = f" less 1 in a sanctuary (TET-P5-3) = {eff}" if sanctuary else ""
        if not success:
            yield self.ruling(
                "TET-P5-3" if sanctuary else "TET-P5-2",
                f"Search fails in {self.area_name(area)}",
                f"The best spotter, {self.describe(best)}, has detection factor {df}{mod}. It rolls "
                f"{roll.value}, more than {eff}, so the {len(hidden)} hidden unit(s) stay hidden.",
                inputs=inputs,
                dice=[roll],
                result={"detected": 0},
                places=(area,),
            )
            return
        k = min(n_ground, len(hidden))
        picks = []
        pool = list(hidden)
        for _ in range(k):
            picks.append(pool.pop(self.dice.choice_index(len(pool))))
        for u in picks:
            self.face_up[u] = True
        names = "; ".join(self.describe(u) for u in picks)
        yield self.ruling(
            "TET-P5-3" if sanctuary else "TET-P5-2",
            f"Search succeeds in {self.area_name(area)}",
            f"The best spotter, {self.describe(best)}, has detection factor {df}{mod}. It rolls {roll.value}, "
            f"at most {eff}, so the search succeeds. {n_ground} Allied ground unit(s) here may turn up as many "
            f"enemy units; {len(hidden)} are hidden, so {k} are turned face up, picked blind: {names}.",
            inputs=inputs,
            dice=[roll],
            result={"detected": len(picks), "units": picks},
            changes=[{"unit": u, "face_up": True} for u in picks],
            places=(area,),
        )

    def allied_search(self):
        """TET-P5-1: detection in every area where Allied ground units meet hidden NVA/VC units."""
        areas = self.search_areas()
        yield self.ruling(
            "TET-P5-1",
            "Areas to search",
            f"Allied ground units share {len(areas)} province(s) or sanctuaries with hidden NVA/VC "
            f"units: {', '.join(areas) or 'none'}. Each gets one detection roll.",
            inputs={"areas": areas},
            result={"areas": len(areas)},
            places=tuple(areas),
        )
        for area in areas:
            yield from self.detection(area)

    # ------------------------------------------------------------------ Recce
    def recce_targets(self, uid: str) -> list[str]:
        country = self.data.recce_country(uid)
        return sorted(
            a.id
            for a in self.data.areas.values()
            if a.kind == "province" and a.country == country and self.hidden_communists(a.id)
        )

    def allied_recce(self):
        """TET-P5-4: on recce turns, each Recce may go to a province of its country and reveal one unit."""
        if self.turn not in self.rules_opts.recce_turns:
            yield self.ruling(
                "TET-P5-4",
                "No Recce this turn",
                f"Recce teams work on alternate turns ({', '.join(map(str, self.rules_opts.recce_turns))}"
                f"; decision A-20); turn {self.turn} is not one of them.",
                inputs={"turn": self.turn},
                result={"recce": 0},
            )
            return
        recces = sorted(
            u.id for u in self.data.units.values() if u.type == "recce" and self.loc[u.id] == "recce_pool"
        )
        for r in recces:
            targets = self.recce_targets(r)
            if not targets:
                yield self.ruling(
                    "TET-P5-4",
                    f"{self.unit(r).name}: nothing to find",
                    f"No province of {self.data.recce_country(r)} holds hidden NVA/VC units.",
                    inputs={"recce": r},
                    result={"detected": 0},
                )
                continue
            options = [
                Action.make(
                    "recce",
                    label=f"{self.unit(r).name} -> {t} ({len(self.hidden_communists(t))} hidden)",
                    places=(t,),
                    recce=r,
                    area=t,
                )
                for t in targets
            ]
            options.append(Action.make("recce_skip", label=f"Keep {self.unit(r).name} in reserve", recce=r))
            act = yield self.decide(
                "Allied", f"Send {self.unit(r).name} to a province", "TET-P5-4", options, kind="recce"
            )
            if act.kind == "recce_skip":
                yield self.ruling(
                    "TET-P5-4",
                    f"{self.unit(r).name} stays in reserve",
                    "The Allied player does not use this Recce team this turn.",
                    inputs={"recce": r},
                )
                continue
            area = act["area"]
            hidden = self.hidden_communists(area)
            pick = hidden[self.dice.choice_index(len(hidden))]
            self.face_up[pick] = True
            yield self.ruling(
                "TET-P5-4",
                f"Recce finds a unit in {self.area_name(area)}",
                f"{self.unit(r).name} goes into {self.area_name(area)} and detects one unit without a roll: "
                f"{self.describe(pick)} is turned face up. The team then returns to the Recce pool.",
                inputs={"recce": r, "area": area, "hidden": len(hidden)},
                result={"detected": 1, "units": [pick]},
                changes=[{"unit": pick, "face_up": True}],
                places=(area,),
            )
