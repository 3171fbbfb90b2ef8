"""Phase 8, Morale (summary lines 62-63) and the sudden-death victory check (line 20).

* TET-P8-1: each faction scores +1 demoralization per combat factor of its units in the Casualties box
  (a sapper counts its bracketed defense factor); then the casualties go to the Eliminated box.
* TET-UNIT-9 / TET-P8-3: South Vietnamese Ruff Puffs, Rangers and Mike Force (white letters) cost nothing.
* TET-P8-4: the USA and SVN each score the political value of every city in insurrection, every turn.
* TET-P8-5: the Australian task force costs the USA 24; Korean losses cost 1 per 2 factors (fractions dropped).
* TET-P8-6: the USA recovers 1 point per 6 NVA/VC factors lost this turn (fractions dropped; decision A-33).
* TET-AIM-1: so losses and held cities are what move the tracks.  A demoralized faction keeps playing
  (decision D-19): only the victory check reads demoralization.
* TET-AIM-2: a side whose two factions are both demoralized at the end of a Morale phase loses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.gametype import Threshold, VictoryFacts
from .data import ALLIED, COMMUNIST


class MoraleRules:
    def loss_value(self, uid: str) -> int:
        """What one lost counter costs its faction (TET-P8-1, TET-P8-3, TET-P8-5; decision A-34)."""
        u = self.unit(uid)
        if u.faction == "SVN" and (u.type == "ruff_puff" or u.white_letters):
            return 0
        if u.nation == "AUS":
            return 24
        if u.nation == "ROK":
            return 0  # Korean factors are pooled: 1 point per 2 factors (morale_losses)
        return u.defense if u.defense is not None else u.cf

    def morale_losses(self, casualties: list[str]) -> dict[str, dict[str, int]]:
        """Per faction: factors lost (the score change before other terms) and the parts that make it."""
        out = {
            f: {"factors": 0, "korean_factors": 0, "korean_points": 0, "australian": 0} for f in self.score
        }
        for uid in casualties:
            u = self.unit(uid)
            row = out[u.faction]
            if u.nation == "ROK":
                row["korean_factors"] += u.cf
            elif u.nation == "AUS":
                row["australian"] += 24
            else:
                row["factors"] += self.loss_value(uid)
        for row in out.values():
            row["korean_points"] = row["korean_factors"] // 2
        return out

    def morale_phase(self):
        """TET-P8-1 .. TET-P8-6: score the turn's losses and insurrections, clear the Casualties box."""
        casualties = sorted(u for u, where in self.loc.items() if where == "casualties")
        losses = self.morale_losses(casualties)
        red_factors = sum(losses[f]["factors"] for f in COMMUNIST)
        insurgent = sorted(self.insurrection)
        pv_total = sum(self.data.areas[c].pv for c in insurgent)
        for faction in ("NVA", "VC", "USA", "SVN"):
            loss = losses[faction]
            before = self.score[faction]
            parts = [f"{loss['factors']} factor(s) of its units in the Casualties box (TET-P8-1)"]
            change = loss["factors"]
            rule = "TET-P8-1"
            if faction == "USA":
                more, delta = _usa_adjustments(loss, red_factors)
                parts += more
                change += delta
            if faction in ALLIED and insurgent:
                parts.append(f"{pv_total} for the cities in insurrection ({', '.join(insurgent)}) (TET-P8-4)")
                change += pv_total
                rule = "TET-P8-4" if not loss["factors"] else rule
            if faction == "SVN":
                free = [u for u in casualties if self.unit(u).faction == "SVN" and self.loss_value(u) == 0]
                if free:
                    parts.append(f"nothing for {len(free)} Ruff Puff/Ranger/Mike Force counter(s) (TET-P8-3)")
            self.score[faction] = before + change
            yield self.ruling(
                rule,
                f"{faction} morale",
                f"The {faction} track moves {change:+d} ({before} -> {self.score[faction]}): "
                + "; ".join(parts)
                + ".",
                inputs={
                    "faction": faction,
                    **loss,
                    "communist_factors_lost": red_factors,
                    "insurrection_pv": pv_total if faction in ALLIED else 0,
                },
                result={"change": change, "score": self.score[faction]},
                changes=[{"track": faction, "from": before, "to": self.score[faction]}],
            )
        for uid in casualties:
            self.loc[uid] = "eliminated"
        if casualties:
            yield self.ruling(
                "TET-P8-1",
                "Casualties eliminated",
                f"The {len(casualties)} counter(s) in the Casualties box move to the Eliminated box.",
                result={"eliminated": len(casualties)},
                changes=[{"unit": u, "from": "casualties", "to": "eliminated"} for u in casualties],
            )
        yield from self.victory_check()

    def victory_check(self):
        """TET-AIM-2 (decision A-35): both enemy factions at or past their level ends the game."""
        dem = self.demoralized()
        allied_win = all(dem[f] for f in COMMUNIST)
        communist_win = all(dem[f] for f in ALLIED)
        levels = ", ".join(
            f"{f} {self.score[f]}/{self.data.factions[f].demoralization_level}" for f in self.score
        )
        if allied_win or communist_win:
            winner = None if allied_win and communist_win else "Allied" if allied_win else "Communist"
            verdict = "both sides collapse together: a draw" if winner is None else f"the {winner} side wins"
            yield self.end(
                "TET-AIM-2",
                "Demoralization victory",
                f"At the end of turn {self.turn}'s Morale phase the scores stand at {levels}: {verdict}.",
                result={"winner": winner, "turn": self.turn},
                inputs=dict(self.score),
            )
        else:
            broken = [f for f, d in dem.items() if d]
            yield self.ruling(
                "TET-AIM-2",
                "No side has broken",
                f"Scores against levels: {levels}. "
                + (
                    f"{', '.join(broken)} demoralized (it keeps playing: TET-AIM-1, decision D-19), but "
                    if broken
                    else ""
                )
                + "no side has both of its enemy's factions demoralized, so play goes on.",
                inputs=dict(self.score),
                result={"winner": None},
            )


def victory_facts() -> VictoryFacts:
    """TET-COMP-2 / TET-AIM-3 as declared facts (issue #29 item 4): a faction is demoralized when its points reach
    its level (``data/tet/factions.csv``); the deciding number is the Communist factions broken minus the Allied
    ones (positive: the Allied side wins, 0: a draw, between the edges -0.5 and 0.5)."""
    from .data import load_data

    factions = load_data().factions
    levels = {f: row.demoralization_level for f, row in factions.items()}

    def broken_balance(outcome: Mapping[str, Any]) -> float:
        broken = {f: int(outcome[f"score_{f}"] >= lvl) for f, lvl in levels.items()}
        return float(
            sum(broken[f] for f in levels if factions[f].side == "Communist")
            - sum(broken[f] for f in levels if factions[f].side == "Allied")
        )

    return VictoryFacts(
        thresholds=tuple(
            Threshold(f"score_{f}", f"{f} demoralized (TET-COMP-2)", lvl) for f, lvl in levels.items()
        ),
        number_name="Communist factions broken minus Allied factions broken",
        number_rule="TET-AIM-3",
        number=broken_balance,
        edges=(-0.5, 0.5),
    )


def _usa_adjustments(loss: dict[str, int], red_factors: int) -> tuple[list[str], int]:
    """What moves the USA track besides its own factors lost: the Australian task force and the Korean factors
    (TET-P8-5), less one point per six NVA/VC factors lost (TET-P8-6); the words and the net change."""
    parts: list[str] = []
    change = 0
    if loss["australian"]:
        parts.append("24 for the Australian task force (TET-P8-5)")
        change += 24
    if loss["korean_factors"]:
        parts.append(
            f"{loss['korean_points']} for {loss['korean_factors']} Korean factor(s), one point per two (TET-P8-5)"
        )
        change += loss["korean_points"]
    heal = red_factors // 6
    if heal:
        parts.append(
            f"minus {heal} because the NVA/VC lost {red_factors} factor(s), one point per six (TET-P8-6)"
        )
        change -= heal
    return parts, change
