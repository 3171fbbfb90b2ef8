"""Speed of whole bot games, per game and scenario (issue #21 "Speed a class can feel").  Prints figures and
writes them to ``benchmarks/results/speed.md``; not a timed test.

    python benchmarks/bench_speed.py                     # every case, 40 seeds each
    python benchmarks/bench_speed.py --seeds 10          # while the machine is shared
    python benchmarks/bench_speed.py --games yotr tet    # only these games
    python benchmarks/bench_speed.py --mc 500            # also a 500-game Monte Carlo on 2 workers per game
    python benchmarks/bench_speed.py --label before      # the section of speed.md to (re)write
    python benchmarks/bench_speed.py --compare ../old --seeds 6 --games yotr   # alternate runs against a checkout

For each case (game, scenario):

* a bot game (``play()`` after ``load()``) over N seeds: median and worst, in CPU time (``time.process_time``)
  and wall time (the machine is shared, so wall time is noisy; CPU time is the figure to compare);
* decisions per second (bot decisions in the record / CPU seconds of play);
* the median ``apply()`` of one bot decision (the bot chooses outside the timing, the rules run inside it);
* the first ``load()`` of the game in a fresh interpreter (after ``import wargames``) and a later one;
* the peak memory of one whole game (load + play) in a fresh interpreter: Python's allocations
  (``tracemalloc``) and the process's maximum resident set (``ru_maxrss``, interpreter and imports included);
* with ``--mc N``: ``wargames.montecarlo(game, N, workers=2)``, wall time and CPU time of the workers.

Targets (issue #21): Tet bot game <= 0.25 s, YotR <= 0.5 s, FitL Short <= 0.3 s, Full <= 1 s, Rumor of War's
"A Year in I Corps" <= 1 s; first ``load()``
<= 150 ms; peak memory of one game <= 150 MB.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's wargames, not whichever one is installed

import wargames  # noqa: E402

CASES: list[tuple[str, str]] = [
    ("tet", "historical"),
    ("yotr", "historical"),
    ("fitl", "short"),
    ("fitl", "full"),
    ("row", "year-in-i-corps"),
]
TARGETS_S = {
    ("tet", "historical"): 0.25,
    ("yotr", "historical"): 0.5,
    ("fitl", "short"): 0.3,
    ("fitl", "full"): 1.0,
    ("row", "year-in-i-corps"): 1.0,
}
OUT = ROOT / "benchmarks" / "results" / "speed.md"


def bench_games(game: str, scenario: str, seeds: int) -> dict[str, float]:
    """Bot games over ``seeds`` seeds: CPU and wall seconds of ``play()``, decisions per CPU second."""
    cpu, wall, decisions = [], [], 0
    for seed in range(seeds):
        g = wargames.load(game, scenario, seed)
        c, w = time.process_time(), time.perf_counter()
        g.play()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        decisions += sum(1 for e in g.record if "act" in e)
    return {
        "cpu_median": statistics.median(cpu),
        "cpu_worst": max(cpu),
        "wall_median": statistics.median(wall),
        "wall_worst": max(wall),
        "decisions_per_s": decisions / sum(cpu),
        "decisions_per_game": decisions / seeds,
    }


def bench_apply(game: str, scenario: str, seeds: int) -> float:
    """Median CPU milliseconds of one ``apply()`` with the built-in bots choosing (their choice not timed)."""
    times = []
    for seed in range(seeds):
        g = wargames.load(game, scenario, seed)
        bots = {s: g.player_for(s) for s in g.sides}
        g.set_players({s: None for s in g.sides})
        while not g.is_over:
            if g.decision is None:
                g.advance("decision")
                continue
            bot = bots[g.decision.side]
            act = bot.choose(g, g.decision)
            t = time.process_time()
            g.apply(act)
            times.append(time.process_time() - t)
    return 1000 * statistics.median(times)


def _fresh(code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=ROOT
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_load(game: str, scenario: str) -> dict[str, float]:
    """First ``load()`` in a fresh interpreter (after ``import wargames``), and a later one, in CPU ms."""
    code = f"""
import json, time, wargames
c = time.process_time(); wargames.load({game!r}, {scenario!r}, 0); first = time.process_time() - c
c = time.process_time(); wargames.load({game!r}, {scenario!r}, 1); later = time.process_time() - c
print(json.dumps({{"first_ms": 1000 * first, "later_ms": 1000 * later}}))
"""
    return _fresh(code)


def bench_memory(game: str, scenario: str) -> dict[str, float]:
    """Peak memory of one whole game (load + play, seed 0) in a fresh interpreter, in MB."""
    code = f"""
import json, resource, tracemalloc, wargames
tracemalloc.start()
g = wargames.load({game!r}, {scenario!r}, 0)
g.play()
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({{"tracemalloc_mb": peak / 1e6, "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3}}))
"""
    return _fresh(code)


def bench_mc(game: str, scenario: str, games: int) -> dict[str, float]:
    """``wargames.montecarlo(game, games, workers=2)``: wall seconds and the workers' CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    frame = wargames.montecarlo(game, games, scenario=scenario, workers=2)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert len(frame) == games
    return {"mc_games": games, "mc_wall_s": wall, "mc_cpu_s": cpu}


def median_in(checkout: Path, game: str, scenario: str, seeds: int) -> dict:
    """Median CPU seconds of ``play()`` over seeds 1..``seeds`` with the wargames of ``checkout``, in a fresh
    interpreter (seed 0 first, untimed in the median: it pays for the process's static tables)."""
    code = f"""
import json, statistics, sys, time
sys.path.insert(0, {str(checkout)!r})
import wargames
c = time.process_time(); g = wargames.load({game!r}, {scenario!r}, 0); g.play(); first = time.process_time() - c
t = []
for s in range(1, {seeds} + 1):
    g = wargames.load({game!r}, {scenario!r}, s); c = time.process_time(); g.play(); t.append(time.process_time() - c)
print(json.dumps({{"median": statistics.median(t), "first": first}}))
"""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=checkout
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(other: Path, cases: list[tuple[str, str]], seeds: int, rounds: int) -> str:
    """Interleaved runs of ``other`` (an older checkout) and this one, same seeds: the fair comparison on a
    shared machine, where CPU time drifts with the load."""
    lines = [
        "| game | scenario | round | other: median CPU s | this: median CPU s | other: first game s | "
        "this: first game s |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, scenario in cases:
        for r in range(1, rounds + 1):
            a, b = median_in(other, game, scenario, seeds), median_in(ROOT, game, scenario, seeds)
            lines.append(
                f"| {game} | {scenario} | {r} | {a['median']:.3f} | {b['median']:.3f} | {a['first']:.2f} | "
                f"{b['first']:.2f} |"
            )
            print(lines[-1], flush=True)
    return "\n".join(lines)


def machine() -> str:
    return (
        f"{os.cpu_count()} cores (nproc), Python {platform.python_version()}, {platform.machine()}, "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; the machine shared with other jobs "
        f"(load average {os.getloadavg()[0]:.1f}); bytecode cache "
        f"{'off (PYTHONDONTWRITEBYTECODE: every fresh interpreter compiles the modules)' if sys.flags.dont_write_bytecode else 'on'}"
    )


def table(rows: list[dict]) -> str:
    head = (
        "| game | scenario | seeds | play CPU median s | worst | wall median s | worst | target s | "
        "decisions/s | decisions/game | apply() median ms | first load() ms | later load() ms | "
        "peak tracemalloc MB | max RSS MB | Monte Carlo |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        mc = (
            f"{r['mc_games']} games: {r['mc_wall_s']:.0f} s wall, {r['mc_cpu_s']:.0f} s CPU"
            if "mc_games" in r
            else ""
        )
        lines.append(
            f"| {r['game']} | {r['scenario']} | {r['seeds']} | {r['cpu_median']:.3f} | {r['cpu_worst']:.3f} | "
            f"{r['wall_median']:.3f} | {r['wall_worst']:.3f} | {r['target']} | {r['decisions_per_s']:.0f} | "
            f"{r['decisions_per_game']:.0f} | {r['apply_ms']:.2f} | {r['first_ms']:.0f} | {r['later_ms']:.0f} | "
            f"{r['tracemalloc_mb']:.0f} | {r['maxrss_mb']:.0f} | {mc} |"
        )
    return "\n".join(lines)


def write(label: str, rows: list[dict], commit: str, out: Path = OUT) -> None:
    """(Re)write the section ``## <label>`` of ``out`` with the table of ``rows``."""
    write_text(label, f"Commit `{commit}`; {machine()}.\n\n{table(rows)}\n", out)


def write_text(label: str, body: str, out: Path = OUT) -> None:
    """(Re)write the section ``## <label>`` of ``out``, keeping the other sections."""
    text = (
        out.read_text(encoding="utf-8")
        if out.exists()
        else (
            "# Speed of whole bot games (issue #21)\n\nMade by `python benchmarks/bench_speed.py`; CPU time is the "
            "figure to compare (the machine is shared, wall time is noisy). Targets: Tet <= 0.25 s, YotR <= 0.5 s, "
            "FitL Short <= 0.3 s, Full <= 1 s per bot game; first `load()` <= 150 ms; peak memory <= 150 MB.\n"
        )
    )
    section = f"## {label}\n\n{body}"
    pattern = re.compile(rf"^## {re.escape(label)}\n.*?(?=^## |\Z)", re.S | re.M)
    text = (
        pattern.sub(lambda _m: section + "\n", text)
        if pattern.search(text)
        else text.rstrip("\n") + "\n\n" + section
    )
    out.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40, help="bot games per case (default 40)")
    ap.add_argument(
        "--apply-seeds", type=int, default=3, help="games whose apply() calls are timed (default 3)"
    )
    ap.add_argument("--games", nargs="*", help="only these games (tet, yotr, fitl, row)")
    ap.add_argument("--mc", type=int, default=0, help="also a Monte Carlo of this many games on 2 workers")
    ap.add_argument("--label", default="latest", help="the section of speed.md to write (default 'latest')")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--compare", type=Path, help="an older checkout to time against this one, alternately")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of --compare (default 2)")
    args = ap.parse_args(argv)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    cases = [(g, s) for g, s in CASES if not args.games or g in args.games]
    if args.compare:
        text = compare(args.compare.resolve(), cases, args.seeds, args.rounds)
        if not args.no_write:
            write_text(
                args.label,
                f"Commit `{commit}` against `{args.compare}`, seeds 1-{args.seeds}; {machine()}.\n\n{text}\n",
            )
        return []
    rows = []
    for game, scenario in cases:
        row = {"game": game, "scenario": scenario, "seeds": args.seeds, "target": TARGETS_S[(game, scenario)]}
        row.update(bench_load(game, scenario))
        row.update(bench_memory(game, scenario))
        row.update(bench_games(game, scenario, args.seeds))
        row["apply_ms"] = bench_apply(game, scenario, args.apply_seeds)
        if args.mc:
            row.update(bench_mc(game, scenario, args.mc))
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(table(rows))
    if not args.no_write:
        write(args.label, rows, commit)
    return rows


if __name__ == "__main__":
    main()
