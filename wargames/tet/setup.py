"""Tet set-up (summary lines 24-25): Allied units face up, Ruff Puffs face down at random, then NVA/VC."""

from __future__ import annotations

from collections import Counter

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
            "TET-SETUP-1", "Allied set-up",
            f"{placed['USA']} US/allied and {placed['SVN']} South Vietnamese units are placed face up at their "
            f"start areas (reconstructed from the dispositions of 30 January 1968; the printed counter backs are "
            f"not available). The theater air units {', '.join(off)} start in the off-map boxes (TET-SETUP-6).",
            inputs=dict(placed), result={"placed": sum(placed.values())})

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
            "TET-SETUP-2", "Ruff Puffs placed face down",
            f"The {len(rps)} Ruff Puff counters were shuffled and one was put face down in every city except "
            f"{self.data.areas[exempt].name}. Their strengths (0 to 8) stay hidden until NVA/VC units enter the city.",
            inputs={"exempt_city": exempt, "cities": len(cities)}, result={"placed": len(rps)},
            changes=[{"unit": rp, "to": c} for c, rp in zip(cities, shuffled, strict=True)],
            hidden_from=("Communist", "Allied"),
            public=f"One face-down Ruff Puff was placed in each of {len(cities)} cities (all but "
                   f"{self.data.areas[exempt].name}).")

    def setup_communist(self):
        """TET-SETUP-3, TET-SETUP-4, TET-SETUP-5: the historical scenario places VC and NVA face down at their listed areas."""
        count = Counter()
        for u in self.data.units.values():
            if u.faction in COMMUNIST:
                self.loc[u.id] = u.start
                self.face_up[u.id] = False
                count[u.faction] += 1
        yield self.ruling(
            "TET-SETUP-3", "NVA and VC set up face down",
            f"{count['VC']} VC units set up face down in provinces of their own Corps or bordering sanctuaries, "
            f"and {count['NVA']} NVA units in sanctuaries, Laos/Cambodia and (regiments only, TET-SETUP-5) the "
            "I Corps provinces. The areas are the historical reconstruction of this scenario.",
            inputs=dict(count), result={"placed": sum(count.values())},
            hidden_from=("Allied",), public="The NVA and VC set up face down; the Allies do not know what is where.")
