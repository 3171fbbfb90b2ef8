"""The four models side by side (issue #20, ``notebooks/four-models.ipynb``): the same questions asked of every
engine, answered from the engines' own runs.

* :func:`stored_run_of` and :func:`stored_run`: the many-game runs kept in ``benchmarks/results/`` (one row per
  seed, the shape of :meth:`~wargames.core.engine.Game.outcome`), and :func:`check_stored`, which replays a few of
  their seeds live and compares, so a notebook can show that a stored file still matches the engine.
* :func:`deciding_rules` and :func:`tracks_table`: what decides the winner in each model (the rule that ended the
  game, and the tracks read against their thresholds).
* :func:`spread_table` and :func:`deciding_number`: how much chance matters (the spread of one deciding number
  over games that differ only in their seed).
* :func:`hidden_facts`: what each side can see at a given moment: the umpire's view of the state against each
  side's :meth:`~wargames.core.engine.Game.view`, and the rulings whose wording is masked for that side.
* :func:`find_scenario`: a scenario looked up by a word of its id or title (Rumor of War's Tet and Eastertide
  scenarios are used when they are registered, never assumed).

Nothing here draws (the charts are in :mod:`wargames.notebook.charts`); nothing here imports Bokeh.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..core.presentation import StoredRun, presentation, stored_games
from ..core.registry import game_type, load, scenarios, victory_facts

if TYPE_CHECKING:  # pragma: no cover
    from ..core.engine import Game

#: the models the notebook sets side by side: every game with a stored many-game run, in their declared order
#: (``data/<game>/notebook.yaml``; the order of issue #20: Tet 1968, Year of the Rat, Fire in the Lake, Rumor of War)
MODELS: tuple[str, ...] = stored_games()


def stored_run_of(game: str) -> StoredRun:
    """The stored many-game run ``game`` declares (``stored_run`` of ``data/<game>/notebook.yaml``)."""
    run = presentation(game).stored_run
    if run is None:
        raise KeyError(f"{game!r} declares no stored run (stored_run in data/{game}/notebook.yaml)")
    return run


def results_dir() -> Path:
    """``benchmarks/results`` of this checkout (:func:`wargames.core.data.results_dir`)."""
    from ..core.data import results_dir as stored

    return stored()


def normalise(frame: pd.DataFrame) -> pd.DataFrame:
    """A run in the shape of ``Game.outcome()`` rows whatever script wrote it: ``winner`` "none" for no winner,
    ``margin_<faction>`` (older files say ``margins_``), without columns that only one script writes."""
    out = frame.copy()
    out = out.rename(
        columns={c: "margin_" + c[len("margins_") :] for c in out.columns if c.startswith("margins_")}
    )
    out = out.drop(
        columns=[c for c in out.columns if c.startswith("party_margins_")] + ["final_coup", "title"],
        errors="ignore",
    )
    out["winner"] = out["winner"].fillna("none").astype(str)
    return out


@cache
def _read(path: str) -> pd.DataFrame:
    return pd.read_csv(path)


def stored_run(game: str) -> pd.DataFrame:
    """The stored run of ``game`` (:func:`stored_run_of`), normalised (:func:`normalise`), one row per seed."""
    run = stored_run_of(game)
    return normalise(_read(str(results_dir() / run.file)))


def stored_runs() -> dict[str, pd.DataFrame]:
    return {g: stored_run(g) for g in MODELS}


def runs_table(runs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per model: its title, the scenario and file of its stored run, how many games and which seeds."""
    rows = []
    for g, frame in runs.items():
        s = stored_run_of(g)
        rows.append(
            {
                "model": game_type(g).title,
                "scenario": s.scenario,
                "file": f"benchmarks/results/{s.file}",
                "games": len(frame),
                "seeds": f"{frame.seed.min()}-{frame.seed.max()}",
                "made by": s.made_by,
            }
        )
    return pd.DataFrame(rows)


def check_stored(game: str, seeds: Iterable[int] = (0, 1, 2)) -> pd.DataFrame:
    """Replay ``seeds`` of the stored run live (``wargames.montecarlo``) and compare every column both have
    (winner, deciding rule, last turn, the final scores and margins): one row per seed, ``same`` True when all agree."""
    from ..core.montecarlo import montecarlo

    stored = stored_run(game).set_index("seed")
    live = normalise(montecarlo(game, seeds=list(seeds), scenario=stored_run_of(game).scenario)).set_index(
        "seed"
    )
    cols = [c for c in live.columns if c in stored.columns and c not in ("seconds", "level")]
    rows = []
    for s in live.index:
        diff = [c for c in cols if str(live.at[s, c]) != str(stored.at[s, c])]
        rows.append(
            {
                "model": game,
                "seed": int(s),
                "winner (live)": live.at[s, "winner"],
                "winner (stored)": stored.at[s, "winner"],
                "columns compared": len(cols),
                "differ": ", ".join(diff),
                "same": not diff,
            }
        )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------- what decides the winner
@cache
def rule_titles(game: str) -> dict[str, str]:
    """Rule id -> title, from ``data/<game>/rules_index.csv``."""
    from ..core.data import game_dir

    frame = pd.read_csv(game_dir(game) / "rules_index.csv", dtype=str)
    return dict(zip(frame["rule_id"], frame["title"], strict=True))


def deciding_rules(runs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """For every model: which rule ended its games, with which winner, in how many games and what share."""
    rows = []
    for g, frame in runs.items():
        n = len(frame)
        for (rule, winner), k in frame.groupby(["rule", "winner"]).size().items():
            rows.append(
                {
                    "model": game_type(g).title,
                    "deciding rule": rule,
                    "what it says": rule_titles(g).get(rule, ""),
                    "winner": winner,
                    "games": int(k),
                    "share %": round(100 * k / n, 1),
                }
            )
    return pd.DataFrame(rows)


def winner_shares(runs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Model x winner: the share of games (in %) each side or faction won ("none": a draw)."""
    rows = {
        game_type(g).title: frame["winner"].value_counts(normalize=True).mul(100).round(1)
        for g, frame in runs.items()
    }
    return pd.DataFrame(rows).T.fillna(0.0)


def thresholds(game: str) -> dict[str, tuple[str, int]]:
    """Per score column: (what reaching it means, the value that counts), as the game declares them
    (``victory_facts``: its rules data, e.g. Tet's factions.csv, Fire in the Lake's 7.2 thresholds)."""
    return {th.score: (th.meaning, th.value) for th in victory_facts(game).thresholds}


def tracks_table(runs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """For every model, the tracks its victory rule reads: the final value over the games (mean, lowest, highest)
    and how often a track reached the value that counts."""
    rows = []
    for g, frame in runs.items():
        for col, (meaning, value) in thresholds(g).items():
            s = frame[col]
            rows.append(
                {
                    "model": game_type(g).title,
                    "track": col.removeprefix("score_"),
                    "counts when": meaning,
                    "value": value,
                    "mean final": round(float(s.mean()), 1),
                    "lowest": int(s.min()),
                    "highest": int(s.max()),
                    "reached %": round(100 * float((s >= value).mean()), 1),
                }
            )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------- how much chance matters
def deciding(game: str) -> tuple[str, str]:
    """The one number that decides ``game``'s result and the rule that reads it, as the game declares them."""
    facts = victory_facts(game)
    return facts.number_name, facts.number_rule


def deciding_number(game: str, frame: pd.DataFrame) -> pd.Series:
    """The deciding number (:func:`deciding`) of every game of a run, computed by the game's declared rule from
    each outcome row (positive: Allied/Capitalist ahead in Tet and Rumor of War; in Fire in the Lake, how far the
    best margin is ahead of the second best)."""
    number = victory_facts(game).number
    values = [number(row) for row in frame.to_dict("records")]
    return pd.Series(values, index=frame.index, dtype=float, name="number")


def result_edges(game: str) -> list[float]:
    """Where the deciding number changes the result (for the dashed lines of a histogram), as the game declares it:
    Tet's draw lies between -0.5 and 0.5 (TET-AIM-3); Year of the Rat's Allied levels end and Communist levels begin
    on the Level of Victory Table (YOTR-VIC-LEVELS); Rumor of War's tie goes to the Communist (ROW-12.1); Fire in
    the Lake's lead is never negative (FITL-7.1)."""
    return [float(e) for e in victory_facts(game).edges]


def spread_panels(runs: Mapping[str, pd.DataFrame]) -> list[dict[str, Any]]:
    """One histogram panel per model for :func:`wargames.notebook.charts.spread_figure`."""
    return [
        {
            "title": f"{game_type(g).title} ({deciding(g)[1]})",
            "values": deciding_number(g, frame),
            "xlabel": deciding(g)[0],
            "lines": result_edges(g),
        }
        for g, frame in runs.items()
    ]


def spread_table(runs: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """How much the result moves between games that differ only in their seed: the deciding number's middle
    half and whole range, the most common winner's share and how sure a share measured on 20 games and on the
    whole run is (half the width of a 95% interval, in percentage points)."""
    rows = []
    for g, frame in runs.items():
        x = deciding_number(g, frame)
        top = frame["winner"].value_counts(normalize=True)
        p, n = float(top.iloc[0]), len(frame)
        rows.append(
            {
                "model": game_type(g).title,
                "deciding number": deciding(g)[0],
                "games": n,
                "median": float(x.median()),
                "middle half": f"{x.quantile(0.25):g} to {x.quantile(0.75):g}",
                "range": f"{x.min():g} to {x.max():g}",
                "distinct values": int(x.nunique()),
                "most common result": top.index[0],
                "its share %": round(100 * p, 1),
                "+/- with 20 games": round(100 * margin_of_error(p, 20), 1),
                "+/- with this run": round(100 * margin_of_error(p, n), 1),
            }
        )
    return pd.DataFrame(rows)


def margin_of_error(share: float, games: int) -> float:
    """Half the width of a 95% interval for a share measured on ``games`` games (normal approximation)."""
    return 1.96 * math.sqrt(share * (1 - share) / games)


# ------------------------------------------------------------------------------------- what each side can see
def masked(full: Any, seen: Any) -> int:
    """How many entries of the umpire's ``full`` value a side's ``seen`` value lacks or shows differently: a list
    replaced by its length counts its items, a dict counts its keys missing or changed, a list of records (units)
    counts the records that differ."""
    if full == seen:
        return 0
    if isinstance(full, list) and not isinstance(seen, list):
        return len(full)
    if isinstance(full, dict) and isinstance(seen, dict):
        return sum(1 for k, v in full.items() if k not in seen or seen[k] != v)
    if isinstance(full, list) and isinstance(seen, list):
        return sum(1 for a, b in zip(full, seen, strict=False) if a != b) + abs(len(full) - len(seen))
    return 1


def hidden_facts(game: Game) -> pd.DataFrame:
    """At the game's present moment, for every side: each part of the state its view masks (with how many
    entries and what they are), and how many rulings of the log it reads in their public wording only."""
    full = game.view(None).state
    rows = []
    for side in game.sides:
        view = game.view(side)
        team = game.visibility_side(side)
        for key, value in full.items():
            if key not in view.state:
                continue
            k = masked(value, view.state[key])
            if k:
                rows.append(
                    {
                        "model": game.title,
                        "side": side,
                        "what is hidden": presentation(game.game_id).hidden.get(key, key),
                        "state entry": key,
                        "count": k,
                    }
                )
        hidden_log = sum(1 for r in game.log if team in r.hidden_from)
        rows.append(
            {
                "model": game.title,
                "side": side,
                "what is hidden": "rulings it reads only in their public wording",
                "state entry": "log",
                "count": hidden_log,
            }
        )
    return pd.DataFrame(rows)


def hidden_totals(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Model x side: hidden state entries and masked rulings (the totals of :func:`hidden_facts` tables)."""
    frame = pd.concat(list(frames), ignore_index=True)
    frame["kind"] = frame["state entry"].map(
        lambda k: "rulings masked" if k == "log" else "state entries hidden"
    )
    return frame.pivot_table(
        index=["model", "side"], columns="kind", values="count", aggfunc="sum", fill_value=0, sort=False
    ).reset_index()


def facts_table() -> pd.DataFrame:
    """The declared facts of the four models (GameType): sides, factions, map, hidden information."""
    rows = []
    for g in MODELS:
        t = game_type(g)
        rows.append(
            {
                "model": t.title,
                "sides": ", ".join(t.sides),
                "factions": ", ".join(t.factions),
                "map": t.map_kind,
                "hidden information": t.hidden_information,
                "what it models": t.model,
            }
        )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------- the same event
def scenario_title(game: str, scenario: str) -> str:
    """A scenario's title from its file (the id when the file has none)."""
    import yaml

    from ..core.data import game_dir

    path = game_dir(game) / "scenarios" / f"{scenario}.yaml"
    if not path.exists():
        return scenario
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return str(data.get("title") or scenario)


def find_scenario(game: str, word: str) -> str | None:
    """The first registered scenario of ``game`` whose id or title has a word starting with ``word`` (case
    ignored), or None: ``find_scenario("row", "tet")``, ``find_scenario("row", "easter")``."""
    pattern = re.compile(rf"(?<![a-z]){re.escape(word.lower())}")
    for sid in scenarios(game):
        if pattern.search(sid.lower()) or pattern.search(scenario_title(game, sid).lower()):
            return sid
    return None


def tracks_by_turn(game: Any) -> pd.DataFrame:
    """Play ``game`` to its end a turn at a time (the built-in players decide) and record its scores after every
    turn: one row per turn, the shape every game shares (``Game.scores()``)."""
    rows = []
    while not game.is_over:
        turn = game.turn
        game.advance("turn")
        rows.append({"turn": turn, **game.scores()})
    return pd.DataFrame(rows).drop_duplicates("turn", keep="last").reset_index(drop=True)


def event_run(game: str, scenario: str, games: int = 4, seed: int = 0) -> pd.DataFrame:
    """A few live games of one scenario (the event's scenario of a model), one outcome row each."""
    from ..core.montecarlo import montecarlo

    return normalise(montecarlo(game, games, scenario=scenario, seed=seed))


def event_games(game: str, scenario: str, games: int = 3) -> tuple[pd.DataFrame, str]:
    """The games of an event's scenario: a stored run in ``benchmarks/results/`` whose name holds the scenario id
    (``row_<scenario>_200.csv``, or its first word: ``row_tet_200.csv`` for ``tet-offensive``) when there is one,
    else ``games`` games played live; and where they come from."""
    for path in sorted(results_dir().glob(f"{game}_*.csv")):
        if scenario in path.stem or scenario.split("-")[0] in path.stem.split("_"):
            return normalise(pd.read_csv(path)), f"the stored run benchmarks/results/{path.name}"
    return event_run(game, scenario, games), f"{games} games played live (seeds 0-{games - 1})"


def load_at_turn(game: str, turn: int, seed: int = 0, scenario: str | None = None) -> Any:
    """A game of ``game`` played by its built-in players to the start of ``turn``."""
    g = load(game, scenario, seed)
    g.advance_to(turn=turn)
    return g


def shares_text(frame: pd.DataFrame, label: str = "games") -> str:
    """ "Allied 40%, Communist 20%, draw 40% of 1000 games": who won how often in a run, in words."""
    shares = frame["winner"].value_counts(normalize=True)
    parts = [f"{'draw' if w == 'none' else w} {p:.0%}" for w, p in shares.items()]
    return f"{', '.join(parts)} of {len(frame)} {label}"


def markers_text(markers: pd.DataFrame) -> str:
    """The change of victory markers (a frame with a ``change`` column by marker, as
    ``wargames.fitl.cards.event_effect`` returns), in words."""
    return ", ".join(f"{f} {int(c):+d}" for f, c in markers["change"].items()) + " on the victory markers"


def event_table(
    event: str,
    runs: Mapping[str, pd.DataFrame],
    markers: pd.DataFrame,
    scenario: str | None,
    games: pd.DataFrame | None,
) -> pd.DataFrame:
    """One historical event (an id of the ``events`` the games declare in ``data/<game>/notebook.yaml``: "tet",
    "easter") as each model that declares it has it: how it appears, what it moves, and the result measured in this
    notebook.  A model whose result is its ``stored run`` reads ``runs``; a ``card markers`` one the change of the
    victory markers by the event's card (``markers``, :func:`markers_text`); an ``event scenario`` one the games of
    its ``scenario`` for the event (``games``; None when no scenario for it is registered)."""
    rows = []
    for g in MODELS:
        view = presentation(g).events.get(event)
        if view is None:
            continue
        if view.result == "stored run":
            how = scenario_title(g, stored_run_of(g).scenario)
            result = shares_text(runs[g], "stored games")
        elif view.result == "card markers":
            how, result = view.appears, markers_text(markers)
        else:
            how = scenario_title(g, scenario) if scenario else "(no scenario for it registered yet)"
            result = shares_text(games) if games is not None else "not played"
        rows.append(
            {"model": game_type(g).title, "how it appears": how, "what moves": view.moves, "result": result}
        )
    if not rows:
        raise KeyError(event)
    return pd.DataFrame(rows)
