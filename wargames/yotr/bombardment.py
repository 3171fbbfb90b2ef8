"""Air and naval bombardment (YOTR-BMB) and the Bombardment Results Table (YOTR-BMB-BRT).

* YOTR-SOP-B3a / YOTR-BMB-PROC: the Allied player allots air points (and the naval marker) to Communist-occupied
  hexes, then each hex is resolved: the total is doubled in clear terrain (YOTR-TEC-5; a Supply Center hex in
  clear counts as clear, D-27) and one die is rolled for every Communist counter there (YOTR-SOP-B3b), dummies
  included and not revealed (D-11); a P or D result marks a dummy as it marks any counter and binds its
  movement the same way (YOTR-DUM: dummies act as NVA units in all but combat; decision D-70), so what the
  Allies see never tells a dummy from a unit; an E removes it unrevealed.
* YOTR-BMB-NAVAL: the naval marker fires 2 at a hex next to an all-sea hex or 1 at two hexes, unsplit.
* YOTR-BMB-B: the target's strength does not matter.  YOTR-BMB-C / YOTR-BMB-D: anywhere on the map, markers
  are placed, not moved.  YOTR-BMB-E: points split freely.  YOTR-BMB-F: at most half the air points (rounded
  down) on one hex.  YOTR-BMB-G: supply units and Supply Centers are not affected; YOTR-BMB-A: militia neither.
  YOTR-BMB-H: air points are never lost.
* YOTR-BMB-BRT: rows 1-3 from the text, rows 4-6 reconstructed (D-09); 10 or more uses the 10 column (D-10).
  P = Pinned (may not move next Communist Movement Phase, D-07); D = Disrupted (may not move or attack, D-08);
  E = eliminated outright, never a Battlegroup (D-12).  A D on a Pinned counter makes it Disrupted.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from ..core import Action
from ..core.rulings import Lookup
from .data import load_data


@cache
def sea_distance() -> dict[str, int]:
    """Land hexes at distance 1 or 2 from an all-sea hex (YOTR-BMB-NAVAL)."""
    d = load_data()
    dist = {h: 0 for h in d.hexes if d.terrain(h) == "sea"}
    q = deque(sorted(dist))
    while q:
        h = q.popleft()
        if dist[h] >= 2:
            continue
        for n in d.adj[h]:
            if n not in dist:
                dist[n] = dist[h] + 1
                q.append(n)
    return {h: v for h, v in dist.items() if v > 0}


def brt_column(points: int) -> str | None:
    """YOTR-BMB-BRT / D-10: the BRT column for an effective total (None: no attack)."""
    if points <= 0:
        return None
    if points <= 5:
        return str(points)
    if points <= 7:
        return "6-7"
    if points <= 9:
        return "8-9"
    return "10"


class BombardmentRules:
    def bomb_targets(self) -> list[str]:
        return sorted({self.loc[u] for u in self.on_map("Communist") if not self.is_supply_unit(u)})

    def air_cap(self) -> int:
        """YOTR-BMB-F: no more than half the air points, fractions dropped, on one hex."""
        return self.air // 2

    def bombardment_multiplier(self, h: str) -> int:
        """YOTR-TEC-5: x2 in a hex with no rough, swamp, town or base symbol; a town outside South Vietnam (Svay
        Rieng) has the symbol too, though no militia or VP (YOTR-TWN-B), so it is not doubled.  A symbol counts
        whatever part of the hex it covers; the hex's terrain is its majority terrain (YOTR-TEC-4, D-65)."""
        d = self.data
        return 2 if d.terrain(h) == "clear" and h not in d.town_symbols else 1

    def _allotment_options(
        self, air: dict[str, int], naval: dict[str, int], left: int, markers: int, seas: dict[str, int]
    ) -> list[Action]:
        """YOTR-BMB-E: what the Allied player may allot next: 1 up to the points left (and the hex's cap) on each
        target hex, and a naval marker still unused on a target within reach of the sea."""
        targets = self.bomb_targets()
        opts = []
        for h in targets:
            room = min(self.air_cap() - air.get(h, 0), left)
            opts += [
                Action.make("air", f"{k} air point(s) on {self.hex_name(h)}", [h], hex=h, points=k)
                for k in range(1, room + 1)
            ]
        if markers > len(naval):
            opts += [
                Action.make("naval", f"Naval marker fires at {self.hex_name(h)} ({3 - seas[h]})", [h], hex=h)
                for h in targets
                if h in seas and h not in naval
            ]
        return opts

    def bombardment(self):
        """YOTR-SOP-B3a then YOTR-SOP-B3b: allot, then resolve each bombarded hex."""
        air: dict[str, int] = {}
        naval: dict[str, int] = {}
        markers = self.naval
        seas = sea_distance()
        while True:
            left = self.air - sum(air.values())
            opts = self._allotment_options(air, naval, left, markers, seas)
            if not opts:
                break
            opts.append(Action.make("done", "Resolve the bombardment" if air or naval else "No bombardment"))
            act = yield self.decide(
                "Allied",
                f"Allot air points ({left} of {self.air} left) and the naval marker",
                "YOTR-BMB-E",
                opts,
                kind="bombard",
            )
            if act.kind == "done":
                break
            if act.kind == "air":
                air[act["hex"]] = air.get(act["hex"], 0) + act["points"]
            else:
                naval[act["hex"]] = 3 - seas[act["hex"]]
        for h in sorted(set(air) | set(naval)):
            yield from self.resolve_bombardment(h, air.get(h, 0), naval.get(h, 0))
            if self._over:
                return

    def resolve_bombardment(self, h: str, air: int, naval: int):
        mult = self.bombardment_multiplier(h)
        eff = (air + naval) * mult
        col = brt_column(eff)
        targets = [
            u for u in self.units_at(h) if self.side_of(u) == "Communist" and not self.is_supply_unit(u)
        ]
        yield self.ruling(
            "YOTR-BMB-PROC",
            f"Bombardment of {self.hex_name(h)}",
            f"{air} air point(s) and naval fire {naval}"
            + (", doubled in clear terrain" if mult == 2 else "")
            + f": {eff} effective points, BRT column {col}; one die for each of the "
            f"{len(targets)} Communist counter(s) there (decision D-11).",
            result={"hex": h, "effective": eff, "column": col},
            inputs={"air": air, "naval": naval, "multiplier": mult},
            places=[h],
        )
        if col is None:
            return
        d = self.data
        for i, uid in enumerate(targets, start=1):
            roll = self.dice.roll(6, "bombard")
            die = roll.value
            res = d.brt[(die, col)]
            recon = die in d.brt_reconstructed_rows
            lookup = Lookup(
                "BRT", str(die), col, res, reconstructed=recon, source="decision D-09" if recon else ""
            )
            changes = []
            if res == "E":
                self.place(uid, "eliminated")
                self.pinned.discard(uid)
                self.disrupted.discard(uid)
                changes = [{"unit": uid, "from": h, "to": "eliminated"}]
                what = "eliminated (never a Battlegroup, decision D-12)"
            elif res == "D":
                self.pinned.discard(uid)
                self.disrupted.add(uid)
                what = "Disrupted: it may not move or attack until it recovers (decision D-08)"
            elif res == "P":
                if uid not in self.disrupted:
                    self.pinned.add(uid)
                what = "Pinned: it may not move in the next Communist Movement Phase (decision D-07)"
            else:
                what = "not affected"
            if res in ("P", "D") and self.is_dummy(uid):
                what += (
                    "; a dummy takes the marker like any counter and is held by it the same way, so the Allies"
                    " cannot tell it from a unit (YOTR-DUM, decision D-70)"
                )
            yield self.ruling(
                "YOTR-BMB-BRT",
                f"Bombardment result at {h}: {res}",
                f"Die {die} on column {col}: {self.describe(uid)} is {what}.",
                result={"hex": h, "die": die, "brt": res, "unit": uid},
                dice=[roll],
                lookup=lookup,
                changes=changes,
                places=[h],
                hidden_from=("Allied",),
                public=f"Die {die} on column {col}: face-down counter {i} in {h} is {res}"
                + (" and removed." if res == "E" else "."),
            )
        yield from self.check_victory()
