"""Rumor of War bot games as numbers: one game's tracks season by season, and small samples of many games.

Used to calibrate the scenarios (decisions R-SCN-nn record each step) and by the notebooks
``notebooks/row/06-the-whole-war.ipynb`` and ``07-tet-and-eastertide.ipynb``.  Everything here only plays games
with the built-in players (``RowBot``) and reads the rulings and the state (ROW-12.1: the two victory tracks,
US Military Victory for the Capitalist and US Public Unrest for the Communist; ROW-3.0: one game turn a season).
"""

from __future__ import annotations

import csv
import time
from collections import Counter
from pathlib import Path
from typing import Any

import wargames

from .scenario import turn_label

#: the columns of one season's row (:func:`season_rows`)
SEASON_FIELDS = (
    "season",
    "label",
    "us_military_victory",
    "us_unrest",
    "units_capitalist",
    "units_communist",
    "combats",
    "capitalist_supply",
    "communist_supply",
)


def _units_on_map(g: Any, side: str) -> int:
    return sum(1 for u in g.pos if g.side_of(u) == side and g.rows[u].kind == "unit")


def play_with_tracks(scenario: str, seed: int = 0) -> tuple[Any, list[dict[str, Any]]]:
    """ROW-12.1 / ROW-3.0: play one bot game of ``scenario`` and return it with one row per season played: the
    victory tracks at the end of the season (or when the game ended), the units on the map, the combats fought in
    the season and the two supply pools left."""
    g = wargames.load("row", scenario, seed)
    rows: list[dict[str, Any]] = []
    while True:
        turn, n0 = g.turn, len(g.log)
        g.advance("turn")
        combats = sum(1 for r in g.log[n0:] if r.rule_id == "ROW-5.3.3")
        season = turn + g.scenario.first_turn - 1
        rows.append(
            {
                "season": season,
                "label": turn_label(season),
                "us_military_victory": g.vp["us_military_victory"],
                "us_unrest": g.vp["us_unrest"],
                "units_capitalist": _units_on_map(g, "Capitalist"),
                "units_communist": _units_on_map(g, "Communist"),
                "combats": combats,
                "capitalist_supply": g.pools.get("Capitalist Supply", 0),
                "communist_supply": g.pools.get("Communist Supply", 0),
            }
        )
        if g.is_over or g.turn == turn:
            return g, rows


def one_game(scenario: str, seed: int) -> dict[str, Any]:
    """One bot game of ``scenario``: who won (ROW-12.1), how (31 VP at once or at the end), when, both tracks."""
    g = wargames.load("row", scenario, seed)
    t = time.perf_counter()
    g.play()
    res = g.result.result or {}
    return {
        "scenario": scenario,
        "seed": seed,
        "winner": res.get("winner"),
        "level": res.get("level"),
        "last_season": g.season,
        "label": turn_label(g.season),
        "us_military_victory": g.vp["us_military_victory"],
        "us_unrest": g.vp["us_unrest"],
        "seconds": round(time.perf_counter() - t, 3),
    }


def sample(scenario: str, games: int, first_seed: int = 0) -> list[dict[str, Any]]:
    """``games`` bot games of ``scenario`` with seeds ``first_seed``.. (one process: the machine is shared)."""
    return [one_game(scenario, s) for s in range(first_seed, first_seed + games)]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Win shares by side, how the games ended, median seconds."""
    n = len(rows) or 1
    wins = Counter(r["winner"] for r in rows)
    secs = sorted(r["seconds"] for r in rows)
    return {
        "games": len(rows),
        **{f"{k} wins": round(100 * v / n, 1) for k, v in sorted(wins.items())},
        "ended at 31 VP": sum(1 for r in rows if r["level"] == "31 VP"),
        "median seconds": secs[len(secs) // 2] if secs else None,
    }


def write_csv(rows: list[dict[str, Any]], path: str | Path) -> Path:
    from ..core.record import atomic_open

    p = Path(path)
    with atomic_open(p, "w", newline="", encoding="utf-8") as fh:  # issue #30 item 3: never half a file
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return p


def read_csv(path: str | Path) -> list[dict[str, Any]]:
    with Path(path).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


#: how the chart counts forces: the US, the ARVN, the other Capitalist allies, the PAVN and the VC
FORCES = {
    "US": "US",
    "ARVN": "ARVN",
    "ROK": "Allies",
    "Thai": "Allies",
    "Aus": "Allies",
    "PAVN": "PAVN",
    "PRC": "PAVN",
    "VC": "VC",
    "PL": "PAVN",
    "KhR": "PAVN",
}


def chart_by_season(scenario: str) -> list[dict[str, Any]]:
    """ROW-13.1 / ROW-13.1.3: the formations (units, not HQs) each force has in play season by season by the
    scenario's chart alone, before any loss: the set-up, plus the reinforcements of the seasons so far, minus the
    withdrawals; and the US Air Support level of the season.  VC recruits from the cup are not counted (they come
    by recruitment, 13.1.2, not by the chart)."""
    from .scenario import load_scenario
    from .units import load_units

    sc, units = load_scenario(scenario), load_units()
    present = {p.unit for p in sc.setup if units[p.unit].kind == "unit"}
    air = {t.turn: t.value for t in sc.air_support}
    out = []
    for season in sc.turns:
        present |= {r.unit for r in sc.reinforcements if r.turn == season and units[r.unit].kind == "unit"}
        present -= {w.unit for w in sc.withdrawals if w.turn == season}
        counts = Counter(FORCES[units[u].nationality] for u in present)
        out.append(
            {
                "season": season,
                "label": turn_label(season),
                **{f: counts.get(f, 0) for f in ("US", "ARVN", "Allies", "PAVN", "VC")},
                "US Air Support": air.get(season),
            }
        )
    return out


def vp_sources(game: Any) -> list[dict[str, Any]]:
    """ROW-12.1 / 12.1.2 / 12.1.3 / 12.1.4: every change of the two victory tracks in a played game, with its
    cause and season: scenario awards and Westmoreland's point (12.1, 14.2.1), the Body Count and Casualties rolls
    (12.1.4), objectives fought for or claimed (12.1.3); VPs passed by the zero rule (12.1.2) are a cause of their
    own.  One row per change: season, label, side, cause, vp (negative for a loss)."""
    out: list[dict[str, Any]] = []
    first = game.scenario.first_turn - 1

    def add(r: Any, side: str, cause: str, vp: int) -> None:
        if vp:
            out.append(
                {
                    "season": r.turn + first,
                    "label": turn_label(r.turn + first),
                    "side": side,
                    "cause": cause,
                    "vp": vp,
                }
            )

    other = {"Capitalist": "Communist", "Communist": "Capitalist"}
    for r in game.log:
        res = r.result if isinstance(r.result, dict) else {}
        if r.title == "Accumulator roll":
            side = "Capitalist" if res.get("track") == "body_count" else "Communist"
            add(
                r, side, "Body Count roll" if side == "Capitalist" else "US Casualties roll", res.get("vp", 0)
            )
        elif r.title in ("Victory points", "Objective resolved", "Objective claimed") and "before" in res:
            cause = {
                "Objective resolved": "objective fought for",
                "Objective claimed": "objective claimed",
            }.get(
                r.title,
                str((r.inputs or {}).get("why", "award")).removeprefix("scenario award ").split(" (")[0],
            )
            add(r, res["side"], cause, res["after"] - res["before"])
            add(r, other[res["side"]], f"{cause} (zero rule)", res.get("to_opponent", 0))
    return out
