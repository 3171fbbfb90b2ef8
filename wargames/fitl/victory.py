"""Fire in the Lake: victory (rules 7.0-7.3; FITL-7.0: each faction its own condition) and the Victory Phase
of a Coup Round (6.1).

* FITL-7.2: at the start of each Coup Round each faction's victory marker (FITL-1.9) is compared with its
  threshold (US 50, ARVN 50, NVA 18, VC 35); a marker strictly above it wins (decision F-17).
* FITL-7.3: after the final Coup Round the margins (marker minus threshold) rank the factions.
* FITL-7.1: ranking by margin, ties to Non-players, then VC, then ARVN, then NVA (the US loses every tie);
  if a Non-player passes a victory check, all players lose equally.
* FITL-1.5 (No Non-Player option, 2-3 players): a combined NVA+VC player uses the higher margin at Coup Rounds
  and the lower after the final Coup (Politburo); a combined US+ARVN player always uses the lower margin and
  ends the game at a check only if both factions pass (Sovereignty).

Options: ``non_players`` (factions run by the Non-player rules: only their effect on victory is done here)
and ``combined`` ("NVA+VC" and/or "US+ARVN").  With four players (the default) every faction is a player.
* FITL-8.9 (option ``one_player``: "standard", "easy", "A", "B" or a "+" of them): one person against the
  Non-players.  The person never wins at a Victory Phase; a Non-player passing its check wins at once; with
  Difficulty Option B, from the 2nd Coup Round on, so does a Non-player whose margin is above the person's; after
  the final Coup the person wins only with the highest margin, else the best Non-player wins (ties: VC, ARVN, NVA).
  A combined person (US+ARVN or NVA+VC) always counts the lower margin of its two factions.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from ..core.gametype import Threshold, VictoryFacts
from .data import FACTIONS

THRESHOLDS: dict[str, int] = {"US": 50, "ARVN": 50, "NVA": 18, "VC": 35}
#: FITL-7.1: tie order, earlier wins a tie (Non-players come before all of these).
TIE_ORDER: tuple[str, ...] = ("VC", "ARVN", "NVA", "US")
COMBINED: dict[str, tuple[str, str]] = {"NVA+VC": ("NVA", "VC"), "US+ARVN": ("US", "ARVN")}
#: FITL-8.9: the 1-player game ("standard") and its Easy and Difficulty A / B options
ONE_PLAYER_OPTIONS: tuple[str, ...] = ("standard", "easy", "A", "B")
#: FITL-8.9: what a Non-player win means, in our own words
NON_PLAYER_WIN = {
    "VC": "the VC's revolution takes the countryside and then the cities",
    "NVA": "the NVA's army and supply lines make a conventional conquest of the South only a matter of time",
    "ARVN": "the Saigon government, kept up by foreign aid and firepower, secures its hold on the South",
    "US": "the US-backed order holds and the insurgency fades",
}
MARKER_NAMES: dict[str, str] = {
    "US": "Total Support + US Troops and Bases Available",
    "ARVN": "COIN-Controlled Population + Patronage",
    "NVA": "NVA-Controlled Population + NVA Bases on the map",
    "VC": "Total Opposition + VC Bases on the map",
}


class VictoryRules:
    """Mixin: FITL-6.1 Victory Phase, FITL-7.1 ranking, FITL-7.2 conditions, FITL-7.3 margins."""

    def margins(self) -> dict[str, int]:
        """FITL-7.3: each faction's victory marker minus its threshold (positive once the goal is passed)."""
        v = self.board.victory()
        return {f: v[f] - THRESHOLDS[f] for f in FACTIONS}

    # ------------------------------------------------------------------ who plays what (1.5)
    def contenders(self) -> list[str]:
        """The ranked parties: each combined player ("NVA+VC", "US+ARVN") and each other faction."""
        combined = list(self.rules_opts.get("combined") or [])
        inside = {f for c in combined for f in COMBINED[c]}
        return [f for f in FACTIONS if f not in inside] + combined

    def is_non_player(self, party: str) -> bool:
        return party in (self.rules_opts.get("non_players") or [])

    def one_player_options(self) -> set[str]:
        """FITL-8.9: the 1-player options in play (empty: not a 1-player game)."""
        value = str(self.rules_opts.get("one_player") or "")
        return set(value.split("+")) if value else set()

    def solo_party(self) -> str | None:
        """FITL-8.9: the one party a person plays in a 1-player game (None otherwise)."""
        if not self.one_player_options():
            return None
        return next((p for p in self.contenders() if not self.is_non_player(p)), None)

    def party_margin(self, party: str, final: bool) -> int:
        """FITL-1.5: Politburo takes the higher margin at Coup Rounds and the lower after the final Coup;
        Sovereignty always the lower."""
        m = self.margins()
        if party not in COMBINED:
            return m[party]
        a, b = COMBINED[party]
        if party == "NVA+VC" and not final and not self.one_player_options():  # FITL-8.9: always the lower
            return max(m[a], m[b])
        return min(m[a], m[b])

    def party_passes(self, party: str) -> bool:
        """FITL-7.2 with FITL-1.5: a faction passes when its marker exceeds the threshold; Politburo when either
        faction does; Sovereignty only when both do."""
        m = self.margins()
        if party not in COMBINED:
            return m[party] > 0
        a, b = COMBINED[party]
        return (m[a] > 0 or m[b] > 0) if party == "NVA+VC" else (m[a] > 0 and m[b] > 0)

    def _tie_rank(self, party: str) -> tuple[int, int]:
        best = min(TIE_ORDER.index(f) for f in COMBINED.get(party, (party,)))  # decision F-42
        return (0 if self.is_non_player(party) else 1, best)

    def ranking(self, final: bool = True) -> list[str]:
        """FITL-7.1: parties by margin, highest first; ties go to Non-players, then VC, ARVN, NVA, the US."""
        return sorted(self.contenders(), key=lambda p: (-self.party_margin(p, final), self._tie_rank(p)))

    def _standing(self) -> str:
        v, m = self.board.victory(), self.margins()
        return "; ".join(
            f"{f} {MARKER_NAMES[f]} = {v[f]} against {THRESHOLDS[f]} (margin {m[f]:+d})" for f in FACTIONS
        )

    # ------------------------------------------------------------------ the checks
    def victory_phase(self) -> Generator[Any, Any, None]:
        """FITL-6.1 / FITL-7.2: a party passing its condition ends the game; the margins rank everyone."""
        if self.one_player_options():
            yield from self.solo_check(final=False)
            return
        v, m = self.board.victory(), self.margins()
        winners = [p for p in self.contenders() if self.party_passes(p)]
        inputs = {"markers": v, "thresholds": dict(THRESHOLDS)}
        if not winners:
            yield self.ruling(
                "FITL-7.2",
                "Victory check: no winner",
                f"No victory condition is met: {self._standing()}. The Coup Round goes on.",
                result={"winner": None, "margins": m},
                inputs=inputs,
            )
            return
        yield from self._declare_result(
            "FITL-7.2",
            f"{', '.join(winners)} passed the victory check at this Coup Round.",
            inputs,
            final=False,
            passed=winners,
        )

    def final_victory(self, rule_id: str = "FITL-7.3") -> Generator[Any, Any, None]:
        """FITL-7.3 (via FITL-2.4.2 / FITL-6.4.5): the final Coup Round is over with no winner: margins decide."""
        if self.one_player_options():
            yield from self.solo_check(final=True)
            return
        yield from self._declare_result(
            rule_id,
            "The final Coup Round is over without a victory-check win, so the highest victory margin wins.",
            {"markers": self.board.victory(), "thresholds": dict(THRESHOLDS)},
            final=True,
            passed=[],
        )

    def _declare_result(
        self, rule_id: str, why: str, inputs: dict[str, Any], *, final: bool, passed: list[str]
    ) -> Generator[Any, Any, None]:
        order = self.ranking(final)
        pm = {p: self.party_margin(p, final) for p in order}
        ties = [f"{a} ahead of {b}" for a, b in zip(order, order[1:], strict=False) if pm[a] == pm[b]]
        tie_text = (
            f" Ties broken by FITL-7.1 (Non-players, then VC, ARVN, NVA, the US): {', '.join(ties)}."
            if ties
            else ""
        )
        places = ", ".join(f"{i + 1}. {p} ({pm[p]:+d})" for i, p in enumerate(order))
        combined = [p for p in order if p in COMBINED]
        comb_text = ""
        if combined:
            comb_text = (
                " Combined players (FITL-1.5): "
                + "; ".join(
                    f"{p} counts the {'higher' if p == 'NVA+VC' and not final else 'lower'} margin of its factions"
                    for p in combined
                )
                + "."
            )
        np_winners = [p for p in passed if self.is_non_player(p)]
        winner: str | None = order[0]
        title = f"Game over: {order[0]} wins"
        if np_winners:
            winner = None
            title = f"Game over: the Non-player {', '.join(np_winners)} won, all players lose"
            why += f" A Non-player ({', '.join(np_winners)}) passed a victory check, so all players lose equally."
        yield self.end(
            rule_id,
            title,
            f"{why} {self._standing()}.{comb_text} Ranking by margin: {places}.{tie_text}",
            result={
                "winner": winner,
                "ranking": order,
                "margins": self.margins(),
                "party_margins": pm,
                "non_player_win": np_winners,
                "final_coup": bool(self.final_coup),
            },
            inputs=inputs,
        )

    def solo_check(self, final: bool) -> Generator[Any, Any, None]:
        """FITL-8.9: the 1-player game's victory: at a Victory Phase (``final`` False) and after the final Coup."""
        me = self.solo_party() or ""
        others = [p for p in self.contenders() if p != me]
        pm = {p: self.party_margin(p, final) for p in self.contenders()}
        best = sorted(others, key=lambda p: (-pm[p], TIE_ORDER.index(p)))
        opts = self.one_player_options()
        inputs = {
            "player": me,
            "margins": pm,
            "options": sorted(opts),
            "coup_rounds": getattr(self, "coups_held", 0),
            "markers": self.board.victory(),
            "thresholds": dict(THRESHOLDS),
        }
        margins = ", ".join(f"{p} {pm[p]:+d}" for p in [me, *best])
        winner, why = None, ""
        if not final:
            passed = [p for p in best if self.party_passes(p)]
            if passed:
                winner, why = passed[0], f"the Non-player {passed[0]} passed its victory check"
            elif "B" in opts and inputs["coup_rounds"] >= 2 and pm[best[0]] > pm[me]:
                winner, why = (
                    best[0],
                    (
                        f"Difficulty Option B: from the 2nd Coup Round the player may not trail any "
                        f"Non-player, and {best[0]} leads {me}"
                    ),
                )
            if winner is None:
                mine = self.party_passes(me)
                yield self.ruling(
                    "FITL-8.9",
                    "1-player Victory Phase: no win",
                    f"No Non-player passed its check ({margins}). "
                    + (
                        f"{me} meets its condition, but a lone player never wins at a Victory Phase; "
                        "play goes on."
                        if mine
                        else "Play goes on."
                    ),
                    result={"winner": None, "margins": pm},
                    inputs=inputs,
                )
                return
        elif pm[me] > pm[best[0]]:
            yield self.end(
                "FITL-8.9",
                f"Game over: {me} (the player) wins",
                f"After the final Coup Round {me} has the highest margin ({margins}) and no Non-player won "
                "on the way: the player succeeds.",
                result={"winner": me, "margins": self.margins(), "party_margins": pm, "non_player_win": []},
                inputs=inputs,
            )
            return
        else:
            winner, why = (
                best[0],
                (
                    f"after the final Coup Round {me} does not have the highest margin "
                    f"(ties go to the Non-players, VC first, then ARVN, then NVA)"
                ),
            )
        yield self.end(
            "FITL-8.9",
            f"Game over: the Non-player {winner} wins",
            f"{why[0].upper()}{why[1:]} ({margins}), so the player fails and the Non-player {winner} wins the war: "
            f"{NON_PLAYER_WIN[winner]}.",
            result={
                "winner": winner,
                "margins": self.margins(),
                "party_margins": pm,
                "non_player_win": [winner],
            },
            inputs=inputs,
        )

    def final_result(self) -> Generator[Any, Any, None]:
        """Only reached if the deck runs out before a final Coup (not possible with a well-built deck)."""
        yield from self.final_victory()


def _lead(outcome: Mapping[str, Any]) -> float:
    """FITL-7.1: how far the best margin (marker minus threshold) is ahead of the second best."""
    margins = sorted((v for k, v in outcome.items() if str(k).startswith("margin_")), reverse=True)
    return float(margins[0] - margins[1])


def victory_facts() -> VictoryFacts:
    """FITL-7.2 / FITL-7.1 as declared facts (issue #29 item 4): a faction's marker above its threshold wins at a
    Coup Round; the deciding number is the winner's margin over the runner-up (never negative)."""
    return VictoryFacts(
        thresholds=tuple(
            Threshold(f"score_{f}", f"{f} marker above {t} (FITL-7.2)", t + 1) for f, t in THRESHOLDS.items()
        ),
        number_name="the winner's margin over the runner-up (marker minus threshold)",
        number_rule="FITL-7.1",
        number=_lead,
    )
