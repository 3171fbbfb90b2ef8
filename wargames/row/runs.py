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
    and the VP at once when a marker passes 9 (12.1.4), objectives fought for or claimed (12.1.3); VPs passed by the zero rule (12.1.2) are a cause of their
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
    awards = {a.id: a.name for a in game.scenario.victory.awards}
    for r in game.log:
        res = r.result if isinstance(r.result, dict) else {}
        if r.title == "Accumulator roll":
            side = "Capitalist" if res.get("track") == "body_count" else "Communist"
            add(
                r, side, "Body Count roll" if side == "Capitalist" else "US Casualties roll", res.get("vp", 0)
            )
        elif r.title == "Accumulator" and res.get("auto_vp"):  # 12.1.4: a track passing 9 gives 1 VP at once
            from .victory import ACCUMULATORS

            track = res.get("track", "")
            add(r, ACCUMULATORS[track][0], f"{track.replace('_', ' ')} passed 9", res["auto_vp"])
        elif r.title in ("Victory points", "Objective resolved", "Objective claimed") and "before" in res:
            cause = {
                "Objective resolved": "objective fought for",
                "Objective claimed": "objective claimed",
            }.get(
                r.title,
                str((r.inputs or {}).get("why", "award")).removeprefix("scenario award ").split(" (")[0],
            )
            cause = awards.get(cause, cause)  # a scenario award by its name (its id is the data's key)
            add(r, res["side"], cause, res["after"] - res["before"])
            add(r, other[res["side"]], f"{cause} (zero rule)", res.get("to_opponent", 0))
    return out


# ------------------------------------------------------------------------------------------ the campaign's arc
#: the columns of one season's arc row (:func:`arc_rows`)
ARC_FIELDS = (
    "seed",
    "season",
    "label",
    "year",
    "us_military_victory",
    "us_unrest",
    "capitalist_infrastructure",
    "communist_infrastructure",
    "capitalist_supply_paid",
    "communist_supply_paid",
    "trail_supply",
    "trail_status",
    "combats",
    "units_us",
    "units_capitalist",
    "units_communist",
    "capitalist_mission",
    "communist_mission",
    "aircraft_committed",
    "strikes",
    "capitalist_commander",
    "communist_commander",
    "election",
    "china",
    "over",
)

#: the Communist missions counted as a major offensive (ROW-9.5)
MAJOR_OFFENSIVES = ("offensive", "general_uprising")


def _season_arc(g: Any, seed: int, season: int, log: list[Any], over: bool) -> dict[str, Any]:
    """One season's arc row from the state at its end and the rulings of the season (``log``)."""
    from .scenario import load_calendar

    missions = {"Capitalist": "", "Communist": ""}
    paid = {"Capitalist": 0, "Communist": 0}
    election = ""
    for r in log:
        res = r.result if isinstance(r.result, dict) else {}
        if r.title == "HQ mission" and r.side in missions:
            missions[r.side] = res.get("mission", "")
            paid[r.side] = res.get("paid", 0)
        elif r.rule_id == "ROW-14.5" and r.title.startswith("US election"):
            election = str(res.get("winner", ""))
    pol = g.pol or {}
    return {
        "seed": seed,
        "season": season,
        "label": turn_label(season),
        "year": load_calendar()[season].year,
        "us_military_victory": g.vp["us_military_victory"],
        "us_unrest": g.vp["us_unrest"],
        "capitalist_infrastructure": g.pools.get("Capitalist Infrastructure", 0),
        "communist_infrastructure": g.pools.get("Communist Infrastructure", 0),
        "capitalist_supply_paid": paid["Capitalist"],
        "communist_supply_paid": paid["Communist"],
        "trail_supply": g.pools.get("Ho Chi Minh Trail Supply", 0),
        "trail_status": g.trail_status,
        "combats": sum(1 for r in log if r.rule_id == "ROW-5.3.3" and r.title == "Who fights"),
        "units_us": sum(1 for u in g.pos if g.rows[u].kind == "unit" and g.rows[u].nationality == "US"),
        "units_capitalist": _units_on_map(g, "Capitalist"),
        "units_communist": _units_on_map(g, "Communist"),
        "capitalist_mission": missions["Capitalist"],
        "communist_mission": missions["Communist"],
        "aircraft_committed": sum(1 for r in log if r.title == "Aircraft committed"),
        "strikes": sum(1 for r in log if r.rule_id.startswith("ROW-10.3.") and "strike" in r.title.lower()),
        "capitalist_commander": (pol.get("commanders") or {}).get("Capitalist", ""),
        "communist_commander": (pol.get("commanders") or {}).get("Communist", ""),
        "election": election,
        "china": bool((pol.get("china") or {}).get("intervened")),
        "over": over,
    }


def arc_game(scenario: str, seed: int) -> dict[str, Any]:
    """ROW-3.0 / ROW-12.1: play one bot game of ``scenario`` season by season; return its outcome (winner, level,
    last season, seconds) and its arc: one :data:`ARC_FIELDS` row a season played (the victory tracks, the
    infrastructure and trail at the season's end; the missions, combats, aircraft committed and strikes of the
    season; the commanders, an election's winner and China at its end)."""
    g = wargames.load("row", scenario, seed)
    t = time.perf_counter()
    rows: list[dict[str, Any]] = []
    while True:
        turn, n0 = g.turn, len(g.log)
        g.advance("turn")
        season = turn + g.scenario.first_turn - 1
        done = g.is_over or g.turn == turn
        rows.append(_season_arc(g, seed, season, g.log[n0:], done))
        if done:
            break
    res = g.result.result or {}
    return {
        "seed": seed,
        "winner": res.get("winner"),
        "level": res.get("level"),
        "last_season": rows[-1]["season"],
        "label": rows[-1]["label"],
        "us_military_victory": g.vp["us_military_victory"],
        "us_unrest": g.vp["us_unrest"],
        "turn": g.turn,
        "body_count": g.vp["body_count"],
        "casualties": g.vp["casualties"],
        "seconds": round(time.perf_counter() - t, 3),
        "arc": rows,
    }


def montecarlo_rows(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`arc_game` results as the rows of ``benchmarks/row_montecarlo.py`` (``wargames.core.montecarlo``:
    seed, winner, level, rule, turn, the four tracks, each side's margin, seconds, and the season it ended), so the
    campaign's stored run ``row_campaign_100.csv`` is the calibration's final run (ROW-12.1)."""
    out = []
    for g in games:
        mv, unrest = int(g["us_military_victory"]), int(g["us_unrest"])
        out.append(
            {
                "seed": g["seed"],
                "winner": g["winner"],
                "level": g["level"],
                "rule": "ROW-12.1",
                "turn": g.get("turn", ""),
                "score_US Military Victory": mv,
                "score_US Unrest": unrest,
                "score_Body Count": g.get("body_count", ""),
                "score_US Casualties": g.get("casualties", ""),
                "margin_Capitalist": mv - unrest,
                "margin_Communist": unrest - mv,
                "seconds": g["seconds"],
                "season": g["label"],
            }
        )
    return out


def arc_figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The issue-27 figures of a set of :func:`arc_game` results: the share of seasons of 1965-72 with combat, the
    games decided before 1968, US Unrest rising over Tet 1968 (Winter 1968 against Fall 1967) in the games that
    reach it, the games with a Communist major offensive (Offensive or General Uprising, 9.5) in 1968, 1972 and
    1975 (of those reaching the year), the trail's growth (status and supply, first season against 1972's last
    played), and the win shares."""
    n = len(games) or 1
    seasons = [r for g in games for r in g["arc"] if r["year"] <= 1972]
    out: dict[str, Any] = {"games": len(games)}
    out["seasons 1965-72 with combat %"] = round(
        100 * sum(1 for r in seasons if r["combats"]) / (len(seasons) or 1), 1
    )
    out["decided before 1968 %"] = round(100 * sum(1 for g in games if g["arc"][-1]["year"] < 1968) / n, 1)
    tet = []
    for g in games:
        by = {r["label"]: r for r in g["arc"]}
        if "Winter 1968" in by and "Fall 1967" in by:
            tet.append(by["Winter 1968"]["us_unrest"] > by["Fall 1967"]["us_unrest"])
    out["Unrest rises over Tet 1968 %"] = round(100 * sum(tet) / (len(tet) or 1), 1)
    out["games reaching Tet 1968"] = len(tet)
    every = []
    for year in (1968, 1972, 1975):
        reach = [g for g in games if any(r["year"] == year for r in g["arc"])]
        hit = [
            g
            for g in reach
            if any(r["year"] == year and r["communist_mission"] in MAJOR_OFFENSIVES for r in g["arc"])
        ]
        out[f"major offensive {year} %"] = round(100 * len(hit) / (len(reach) or 1), 1)
        out[f"games reaching {year}"] = len(reach)
        every.append({g["seed"] for g in hit})
    full = [g for g in games if g["arc"][-1]["year"] >= 1975]
    out["all three offensives % (games reaching 1975)"] = round(
        100 * sum(1 for g in full if all(g["seed"] in s for s in every)) / (len(full) or 1), 1
    )
    grow = []
    for g in games:
        first = g["arc"][0]
        late = [r for r in g["arc"] if r["year"] <= 1972][-1]
        grow.append(
            (late["trail_status"] - first["trail_status"], late["trail_supply"] - first["trail_supply"])
        )
    out["trail status growth to 1972 (mean)"] = round(sum(a for a, _ in grow) / n, 2)
    out["trail supply growth to 1972 (mean)"] = round(sum(b for _, b in grow) / n, 2)
    out["games whose trail grew %"] = round(100 * sum(1 for a, b in grow if a > 0 or b > 0) / n, 1)
    wins = Counter(g["winner"] for g in games)
    for side in ("Capitalist", "Communist"):
        out[f"{side} wins %"] = round(100 * wins.get(side, 0) / n, 1)
    out["ended at 31 VP %"] = round(100 * sum(1 for g in games if g["level"] == "31 VP") / n, 1)
    secs = sorted(g["seconds"] for g in games)
    out["median seconds"] = secs[len(secs) // 2] if secs else None
    out["worst seconds"] = secs[-1] if secs else None
    return out


def arc_table(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The season-by-season arc over many games: for each season, the games still playing, the means of the tracks
    (victory, infrastructure, trail, units, combats, aircraft, strikes), the share of games with combat, the
    Communist and Capitalist missions declared (counts by mission), the commanders in the box (counts), the
    election results and the games with China in."""
    by: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        for r in g["arc"]:
            by.setdefault(r["season"], []).append(r)
    means = (
        "us_military_victory",
        "us_unrest",
        "capitalist_infrastructure",
        "communist_infrastructure",
        "trail_supply",
        "trail_status",
        "combats",
        "units_us",
        "units_capitalist",
        "units_communist",
        "aircraft_committed",
        "strikes",
    )
    out = []
    for season in sorted(by):
        rs = by[season]
        k = len(rs)

        def counts(field: str, rs: list[dict[str, Any]] = rs) -> str:
            return "; ".join(f"{v or 'none'} {c}" for v, c in sorted(Counter(r[field] for r in rs).items()))

        out.append(
            {
                "season": season,
                "label": rs[0]["label"],
                "games": k,
                **{f"mean {m}": round(sum(r[m] for r in rs) / k, 2) for m in means},
                "with combat %": round(100 * sum(1 for r in rs if r["combats"]) / k, 1),
                "communist missions": counts("communist_mission"),
                "capitalist missions": counts("capitalist_mission"),
                "capitalist commanders": counts("capitalist_commander"),
                "communist commanders": counts("communist_commander"),
                "elections": counts("election") if any(r["election"] for r in rs) else "",
                "china in": sum(1 for r in rs if r["china"]),
                "games ended": sum(1 for r in rs if r["over"]),
            }
        )
    return out


def read_arc(tag: str, results: str | Path | None = None) -> list[dict[str, Any]]:
    """The stored games of ``benchmarks/row_campaign_arc.py --tag <tag>`` in :func:`arc_game`'s shape (each with its
    ``arc``), from ``row_campaign_arc_<tag>_games.csv`` and ``_seasons.csv`` in ``results`` (default: the
    project's ``benchmarks/results``)."""
    if results is None:
        from ..core.data import results_dir

        results = results_dir()
    base = Path(results) / f"row_campaign_arc_{tag}"
    ints = {"seed", "season", "year", "last_season"}
    arcs: dict[int, list[dict[str, Any]]] = {}
    for r in read_csv(f"{base}_seasons.csv"):
        row: dict[str, Any] = {}
        for k, v in r.items():
            if k in ("over", "china"):
                row[k] = v == "True"
            elif k in ints or (k not in ("label",) and v.lstrip("-").isdigit()):
                row[k] = int(v)
            else:
                row[k] = v
        arcs.setdefault(row["seed"], []).append(row)
    games = []
    for r in read_csv(f"{base}_games.csv"):
        seed = int(r["seed"])
        games.append(
            {
                **r,
                "seed": seed,
                "seconds": float(r["seconds"]),
                "level": r["level"] or None,
                "winner": r["winner"] or None,
                "arc": arcs.get(seed, []),
            }
        )
    return games
