"""Victory points as a function of the state (YOTR-VIC), checked after every change.

* YOTR-VIC-TOWN / YOTR-TWN-K: a town held by the Communist (face-up NLF militia) scores its seizure value, a town
  the Allies retook (face-down NLF) its reduced value, by printed militia strength (``town_vp.csv``, D-16).
* YOTR-VIC-REGION / YOTR-TWN-J: a Region scores while the Communist holds every town in it (bases count, D-18,
  D-42; Saigon Region = the two Saigon hexes, D-26).
* YOTR-VIC-SAIGON: 5 while all four Saigon road hexes are Communist-occupied or in a Communist zone with no
  Allied unit, unless the Communist holds both Saigon hexes.
* YOTR-VIC-SCORE / D-41: the track is kept equal to this function after every change; YOTR-VIC-DEC: 40 or more
  ends the game at once; YOTR-VIC-LEVELS: after Game-Turn 13 the level is read from ``vp.csv``.
* YOTR-LSI: at the end the Communist's secret OB and numbering are shown (:meth:`lsi_reveal`).
* YOTR-VM / YOTR-VM-P (option ``victory_modification_p``): at the end only, NVA strength in South Vietnam
  above or below 70 is added to or taken off the total (D-30, D-31).
"""

from __future__ import annotations

from typing import Any

from ..core.gametype import Threshold, VictoryFacts
from .ob import OB_TITLES


def modification_p(vp: int, nva_strength: int) -> int:
    """YOTR-VM-P: each NVA strength point in South Vietnam above 70 adds one, each below 70 takes one off."""
    return vp + nva_strength - 70


class VictoryRules:
    def vp_function(self) -> dict[str, Any]:
        d = self.data
        towns = 0
        for h, state in self.town.items():
            row = d.town_vp[d.towns[h].intrinsic_strength or 0]
            if state == "nlf":
                towns += row.vp_on_seizure
            elif state == "retaken":
                towns += row.vp_while_retaken
        regions = {
            r: d.regions[r].vp
            for r, hexes in d.region_towns.items()
            if hexes and all(self.town[h] == "nlf" for h in hexes)
        }
        saigon = 0
        if not all(self.town[h] == "nlf" for h in d.saigon_hexes):
            czoc = self.zoc("Communist")
            if all(
                self.occupied_by(h, "Communist") or (h in czoc and not self.occupied_by(h, "Allied"))
                for h in d.saigon_roads
            ):
                saigon = 5
        total = towns + sum(regions.values()) + saigon
        return {"towns": towns, "regions": regions, "saigon_isolation": saigon, "total": total}

    def check_victory(self):
        """YOTR-VIC-SCORE: move the track to the state function; YOTR-VIC-DEC: 40 or more ends the game."""
        f = self.vp_function()
        if f["total"] != self.vp:
            old = self.vp
            self.vp = f["total"]
            parts = (
                f"towns {f['towns']}, Regions {sum(f['regions'].values())}"
                + (f" ({', '.join(sorted(f['regions']))})" if f["regions"] else "")
                + f", Saigon isolation {f['saigon_isolation']}"
            )
            yield self.ruling(
                "YOTR-VIC-SCORE",
                f"Victory points {old} -> {self.vp}",
                f"The Communist victory points are recounted at once: {parts}; total {self.vp}.",
                result=f,
                changes=[{"track": "vp", "from": old, "to": self.vp}],
            )
        if self.vp >= 40:
            yield from self.lsi_reveal()
            yield self.end(
                "YOTR-VIC-DEC",
                "Communist Decisive Victory",
                f"The Communist has {self.vp} victory points, 40 or more: the government of South "
                "Vietnam falls and the game ends at once.",
                result={"winner": "Communist", "level": "Communist Decisive Victory", "vp": self.vp},
            )

    def lsi_reveal(self):
        """YOTR-LSI: at the end the Communist's sealed numbering is opened and checked against the die."""
        if not self.lsi_numbers:
            return
        letter = self.obs[1]
        numbers = ", ".join(f"{k}={v}" for k, v in sorted(self.lsi_numbers["Communist"].items()))
        yield self.ruling(
            "YOTR-LSI",
            f"The Communist played OB {letter}",
            f"The game is over, so the Communist's sealed list is opened ({numbers}): the die picked "
            f"number {self.lsi_numbers['Communist'][letter]}: OB {letter} "
            f"({OB_TITLES[letter]}).",
            result={"communist_ob": letter, "numbers": self.lsi_numbers["Communist"]},
        )

    def nva_strength_in_svn(self) -> int:
        """D-31: printed strength of the real NVA combat units inside South Vietnam (Battlegroups by attack)."""
        return sum(
            self.attack_value(u)
            for u in self.on_map("Communist")
            if self.counters[u].nationality == "NVA"
            and self.is_combat(u)
            and self.data.country(self.loc[u]) == "SVN"
        )

    def final_result(self):
        """YOTR-VIC-LEVELS: after Game-Turn 13 the victory points give the level of victory."""
        yield from self.lsi_reveal()
        if self.opts.victory_modification_p:
            sp = self.nva_strength_in_svn()
            total = modification_p(self.vp, sp)
            row = self.data.level(total)
            yield self.end(
                "YOTR-VM-P",
                row.level,
                f"After Game-Turn {self.turn} the Communist has {self.vp} victory "
                f"points and {sp} NVA strength points in South Vietnam: {sp - 70:+d} for Victory "
                f"Modification P gives {total}, {row.level} (decision D-30).",
                result={"winner": row.winner, "level": row.level, "vp": self.vp, "net": total},
            )
            return
        row = self.data.level(self.vp)
        yield self.end(
            "YOTR-VIC-LEVELS",
            row.level,
            f"After Game-Turn {self.turn} the Communist has {self.vp} victory points: "
            f"{row.level} on the Level of Victory Table.",
            result={"winner": row.winner, "level": row.level, "vp": self.vp},
        )


def victory_facts() -> VictoryFacts:
    """YOTR-VIC-LEVELS as declared facts (issue #29 item 4): the Communist victory points at the end decide the
    level of victory; a Communist level begins at the lowest total of the table's Communist rows, and the
    Allied levels end at the highest total of its Allied rows (``data/yotr/vp.csv``)."""
    from .analysis import level_bands

    bands = level_bands(None)
    low = int(bands[bands.winner == "Communist"]["low"].min())
    high = int(bands[bands.winner == "Allied"]["high"].max())
    return VictoryFacts(
        thresholds=(
            Threshold("score_VP", f"a Communist level of victory (YOTR-VIC-LEVELS, {low}+ VP)", low),
        ),
        number_name="Communist victory points at the end",
        number_rule="YOTR-VIC-LEVELS",
        number=lambda outcome: float(outcome["score_VP"]),
        edges=(high + 0.5, low - 0.5),
    )
