"""Tet set-up (summary lines 24-25): Allied units face up, Ruff Puffs face down at random, then NVA/VC."""

from __future__ import annotations

from collections import Counter

from ..core import Action
from .data import ALLIED, COMMUNIST


class SetupRules:
    def setup_allied(self):
        """TET-SETUP-1 and TET-SETUP-6: every Allied unit at its start area, face up."""
        placed = Counter()
        for u in self.data.units.values():
            if u.faction in ALLIED and u.type != "ruff_puff":
                self.loc[u.id] = u.start
                placed[u.faction] += 1
        off = [u.id for u in self.data.units.values() if u.start.startswith("offmap_box")]
        yield self.ruling(
            "TET-SETUP-1",
            "Allied set-up",
            f"{placed['USA']} US/allied and {placed['SVN']} South Vietnamese units are placed face up at their "
            f"start areas (reconstructed from the dispositions of 30 January 1968; the printed counter backs are "
            f"not available). The theater air units {', '.join(off)} start in the off-map boxes (TET-SETUP-6).",
            inputs=dict(placed),
            result={"placed": sum(placed.values())},
        )

    def setup_ruff_puffs(self):
        """TET-SETUP-2: Ruff Puffs face down, at random, one per city except the exempt city (A-38)."""
        exempt = self.rules_opts.ruff_puff_exempt_city
        cities = sorted(a.id for a in self.data.areas.values() if a.kind == "city" and a.id != exempt)
        rps = sorted(u.id for u in self.data.units.values() if u.type == "ruff_puff")
        if len(cities) != len(rps):
            raise ValueError(f"{len(rps)} Ruff Puffs for {len(cities)} cities: the data break TET-SETUP-2")
        shuffled = self.dice.shuffle(rps)
        for city, rp in zip(cities, shuffled, strict=True):
            self.loc[rp] = city
            self.face_up[rp] = False
        yield self.ruling(
            "TET-SETUP-2",
            "Ruff Puffs placed face down",
            f"The {len(rps)} Ruff Puff counters were shuffled and one was put face down in every city except "
            f"{self.data.areas[exempt].name}. Their strengths (0 to 8) stay hidden until NVA/VC units enter the city.",
            inputs={"exempt_city": exempt, "cities": len(cities)},
            result={"placed": len(rps)},
            changes=[{"unit": rp, "to": c} for c, rp in zip(cities, shuffled, strict=True)],
            hidden_from=("Communist", "Allied"),
            public=f"One face-down Ruff Puff was placed in each of {len(cities)} cities (all but "
            f"{self.data.areas[exempt].name}).",
        )

    def communist_setup_areas(self, uid: str) -> list[str]:
        """TET-SETUP-3 .. TET-SETUP-5: where an NVA or VC unit may set up face down.

        VC: a province of its own Corps, or a sanctuary lying in or bordering it (never a city).  NVA: any
        sanctuary, North Vietnam included, or any Laos/Cambodia province; the 14 non-divisional units
        (regiments) also any I Corps province."""
        u = self.unit(uid)
        out = []
        for a in self.data.areas.values():
            if a.kind == "sanctuary":
                ok = u.faction == "NVA" or self.vc_may_enter(uid, a.id)
            elif a.kind == "province" and a.country in ("LAO", "KHM"):
                ok = u.faction == "NVA"
            elif a.kind == "province":
                ok = a.corps == u.sector if u.faction == "VC" else (u.type == "regiment" and a.corps == "I")
            else:
                ok = False
            if ok:
                out.append(a.id)
        return sorted(out)

    def setup_communist(self):
        """TET-SETUP-3, TET-SETUP-4, TET-SETUP-5 (decision D-23): the Communist player places the VC, then the
        NVA, face down in the areas the rules allow; with the option ``communist_setup: historical`` (the
        historical scenario) every unit goes to its reconstructed 1968 area instead."""
        if self.rules_opts.communist_setup == "historical":
            yield from self.setup_communist_historical()
            return
        order = sorted(
            (u for u in self.data.units.values() if u.faction in COMMUNIST),
            key=lambda u: (u.faction != "VC", u.id),
        )  # the VC first, then the NVA, as line 24 reads
        for i, u in enumerate(order):
            options = [
                Action.make(
                    "setup",
                    label=f"Set up {self.describe(u.id)} face down in {self.area_name(a)}",
                    places=(a,),
                    unit=u.id,
                    to=a,
                )
                for a in self.communist_setup_areas(u.id)
            ]
            rest = order[i:]
            options.append(
                Action.make(
                    "setup_historical",
                    label=f"Set up this and the {len(rest) - 1} remaining "
                    "NVA/VC units at their historical areas",
                    unit=u.id,
                )
            )
            act = yield self.decide(
                "Communist",
                f"Where does {self.describe(u.id)} set up?",
                self.setup_rule(u.id),
                options,
                unit=u.id,
                kind="setup",
            )
            if act.kind == "setup_historical":
                yield from self.setup_communist_historical([x.id for x in rest])
                return
            self.loc[u.id] = act["to"]
            self.face_up[u.id] = False
            yield self.ruling(
                self.setup_rule(u.id),
                f"{u.name} sets up",
                f"{self.describe(u.id)} sets up face down in {self.area_name(act['to'])}.",
                inputs={"unit": u.id, "options": len(options) - 1},
                result={"to": act["to"]},
                changes=[{"unit": u.id, "to": act["to"]}],
                places=(act["to"],),
                hidden_from=("Allied",),
                public=f"A face-down NVA/VC unit is set up in {self.area_name(act['to'])}.",
                public_title="A face-down unit sets up",
            )

    def setup_rule(self, uid: str) -> str:
        u = self.unit(uid)
        return (
            "TET-SETUP-3" if u.faction == "VC" else "TET-SETUP-5" if u.type == "regiment" else "TET-SETUP-4"
        )

    def setup_communist_historical(self, units: list[str] | None = None):
        """TET-SETUP-3 .. TET-SETUP-5: the historical scenario's VC and NVA, face down at their listed areas."""
        count = Counter()
        changes = []
        for u in self.data.units.values():
            if u.faction in COMMUNIST and (units is None or u.id in units):
                self.loc[u.id] = u.start
                self.face_up[u.id] = False
                count[u.faction] += 1
                changes.append({"unit": u.id, "to": u.start})
        yield self.ruling(
            "TET-SETUP-3",
            "NVA and VC set up face down",
            f"{count['VC']} VC units set up face down in provinces of their own Corps or bordering sanctuaries, "
            f"and {count['NVA']} NVA units in sanctuaries, Laos/Cambodia and (regiments only, TET-SETUP-5) the "
            "I Corps provinces. The areas are the historical reconstruction of this scenario (decision D-05).",
            inputs=dict(count),
            result={"placed": sum(count.values())},
            changes=changes,
            hidden_from=("Allied",),
            public="The NVA and VC set up face down; the Allies do not know what is where.",
        )
