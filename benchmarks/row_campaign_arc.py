"""The arc of Rumor of War's campaign ("The Vietnam War", 1965-75) over many bot games (issue #27 items 11-12).

    PYTHONPATH=. nice python benchmarks/row_campaign_arc.py 100 --workers 2 --tag after [--until 21:00]

Plays ``games`` bot games (seeds 0..) with :func:`wargames.row.runs.arc_game`, ``--workers`` processes, and
writes to ``benchmarks/results/``:

* ``row_campaign_arc_<tag>_games.csv``: one row per game (seed, winner, how, last season, both tracks, seconds);
* ``row_campaign_arc_<tag>_seasons.csv``: one row per game and season played (the arc of each game);
* ``row_campaign_arc_<tag>.csv``: the season-by-season arc table over the games (means, shares, missions,
  commanders, elections);
* ``row_campaign_arc.md``: the aggregate figures of the issue, one section per tag (the machine named);
* with ``--tag after``, also ``row_campaign_100.csv``: the same games as the rows of ``row_montecarlo.py`` (the
  campaign's stored run named in ``benchmarks/results/README.md``).

``--until HH:MM`` (UTC) starts no new game after that time, so a shared machine's budget is kept; the figures then
say how many games finished.  ``--from-tags A B ...`` plays nothing: it joins the stored games of runs ``A``, ``B``
... (same code, other seeds: a game is its scenario, seed and decisions) into the run ``--tag``, so a final run can
reuse a calibration step's seeds.  A bounded job: it is not run in CI.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import machine, write_section  # noqa: E402

from wargames.row.runs import ARC_FIELDS, arc_figures, arc_game, arc_table, montecarlo_rows, read_arc  # noqa: E402

SCENARIO = "vietnam-war"
RESULTS = Path(__file__).resolve().parent / "results"


def _one(seed: int) -> dict:
    return arc_game(SCENARIO, seed)


def _write(path: Path, rows: list[dict], fields: list[str] | tuple[str, ...]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(fields), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def run(games: int, workers: int, first: int, stop: dt.datetime | None) -> list[dict]:
    """The games, in seed order; with ``stop``, no game starts after it."""
    seeds = list(range(first, first + games))
    out: list[dict] = []
    if workers <= 1:
        for s in seeds:
            if stop is not None and dt.datetime.now(dt.UTC) >= stop:
                break
            out.append(_one(s))
        return out
    with ProcessPoolExecutor(workers) as pool:
        futs = [pool.submit(_one, s) for s in seeds]
        for f in futs:
            if stop is not None and dt.datetime.now(dt.UTC) >= stop:
                for g in futs:
                    g.cancel()
            if f.cancelled():
                continue
            out.append(f.result())
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tag", default="after")
    ap.add_argument("--until", default=None, help="UTC HH:MM after which no new game starts")
    ap.add_argument("--note", default="", help="what the run measures (written with the figures)")
    ap.add_argument("--from-tags", nargs="*", default=None, help="join these stored runs instead of playing")
    args = ap.parse_args(argv)
    stop = None
    if args.until:
        h, m = map(int, args.until.split(":"))
        now = dt.datetime.now(dt.UTC)
        stop = now.replace(hour=h, minute=m, second=0, microsecond=0)
        if stop <= now:  # a time past midnight is tomorrow's (before: it stopped the run after one game)
            stop += dt.timedelta(days=1)
    if args.from_tags:
        games = sorted((g for t in args.from_tags for g in read_arc(t, RESULTS)), key=lambda g: g["seed"])
    else:
        games = run(args.games, args.workers, args.seed, stop)
    RESULTS.mkdir(parents=True, exist_ok=True)
    base = RESULTS / f"row_campaign_arc_{args.tag}"
    _write(
        Path(f"{base}_games.csv"),
        [{k: v for k, v in g.items() if k != "arc"} for g in games],
        [k for k in games[0] if k != "arc"],
    )
    _write(Path(f"{base}_seasons.csv"), [r for g in games for r in g["arc"]], ARC_FIELDS)
    if args.tag == "after":
        mc = montecarlo_rows(games)
        _write(RESULTS / "row_campaign_100.csv", mc, list(mc[0]))
    table = arc_table(games)
    _write(Path(f"{base}.csv"), table, list(table[0]))
    figs = arc_figures(games)
    body = (
        f"## {args.tag}\n\n"
        f"{len(games)} of {args.games} bot games of The Vietnam War (seeds {args.seed}..), {args.workers} workers, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; {machine()}.\n"
        + (f"{args.note}\n" if args.note else "")
        + "\n| figure | value |\n|---|---|\n"
        + "".join(f"| {k} | {v} |\n" for k, v in figs.items())
    )
    head = (
        "# Rumor of War: the campaign's arc (issue #27)\n\n"
        "Written by `benchmarks/row_campaign_arc.py`; the season-by-season tables are the `row_campaign_arc_<tag>*.csv`"
        " files beside this one. Seconds are wall-clock a game in a worker on a shared machine.\n"
    )
    write_section(RESULTS / "row_campaign_arc.md", head, args.tag, body)
    print(body)


if __name__ == "__main__":
    main()
