"""A standing fuzz of the engine and the data (issue #30 item 14).

Games: random and built-in players on every scenario of every game; after each decision the invariants hold and
every change is explained by a ruling; at random points Back then the same decision again (same digest),
save -> reopen -> continue on the reopened game, and a branch played a few decisions while the original stays as it
was.  Data: each data file of each game mutated (not UTF-8, cut in half, emptied, its first row doubled) in a
copy of ``data/``, and the game loaded from it in a fresh process: a clear error naming the file
(:class:`~wargames.core.WargamesError` whose message names it), a load that goes through (a "wrong load" unless
the mutation is harmless), or a traceback.

``python tools/fuzz.py --seconds 300 --data-seconds 700 --out benchmarks/results/fuzz.md`` writes the closing figures;
``tests/test_fuzz.py`` runs a bounded slice of both in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

#: the checkout whose code is fuzzed ($WARGAMES_FUZZ_ROOT: another checkout, e.g. for a "before" figure)
ROOT = Path(os.environ.get("WARGAMES_FUZZ_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

import wargames  # noqa: E402
from wargames.core import RandomPlayer  # noqa: E402
from wargames.core.data import data_root  # noqa: E402
from wargames.core.registry import game_class  # noqa: E402
from wargames.core.saves import open_save  # noqa: E402

MUTATIONS = ("not-utf8", "half", "empty", "dup-row")


@dataclass
class GameFigures:
    games: int = 0
    decisions: int = 0
    undo_redo: int = 0
    reopened: int = 0
    branches: int = 0
    failures: list[str] = field(default_factory=list)


def fuzz_game(game_id: str, scenario: str, seed: int, figs: GameFigures, max_decisions: int = 400) -> None:
    """One game (random or built-in players, chosen by the seed) with the checks of the module docstring."""
    rng = random.Random(f"fuzz:{game_id}:{scenario}:{seed}")
    game = wargames.load(game_id, scenario, seed)
    bots = rng.random() < 0.5
    players = {
        s: (game.default_player(s) if bots else RandomPlayer(seed * 7 + i)) for i, s in enumerate(game.sides)
    }
    game.set_players({s: None for s in game.sides})
    figs.games += 1
    where = f"{game_id}/{scenario} seed {seed}"
    n = 0
    try:
        while not game.is_over and n < max_decisions:
            if game.decision is None:
                game.advance("decision")
                continue
            action = players[game.decision.side].choose(game, game.decision)
            before = game.state_dict()
            rulings = game.apply(action)
            n += 1
            figs.decisions += 1
            problems = game.invariants() + game.transition_problems(before, rulings)
            if problems:
                figs.failures.append(f"{where}, decision {n}: {problems[:3]}")
                return
            roll = rng.random()
            if roll < 0.05 and game.decision is not None:
                here, act = game.digest(), game.legal_actions()[0]
                game.apply(act)
                after = game.digest()
                game.undo()
                if game.digest() != here:
                    figs.failures.append(f"{where}, decision {n}: Back does not return to the same digest")
                    return
                game.apply(act)
                figs.undo_redo += 1
                if game.digest() != after:
                    figs.failures.append(
                        f"{where}, decision {n}: the same decision again gives another digest"
                    )
                    return
            elif roll < 0.07:
                again = open_save(json.loads(json.dumps(game.save())))
                if again.digest() != game.digest():
                    figs.failures.append(f"{where}, decision {n}: the save reopens to another digest")
                    return
                again.set_players({s: None for s in again.sides})
                game = again  # continue on the reopened game
                figs.reopened += 1
            elif roll < 0.08 and game.decision is not None:
                here = game.digest()
                other = game.branch()
                for _ in range(3):
                    if other.decision is None:
                        break
                    other.apply(other.legal_actions()[-1])
                figs.branches += 1
                if game.digest() != here:
                    figs.failures.append(f"{where}, decision {n}: playing a branch changed the original")
                    return
        if game.is_over and game.unexplained_changes():
            figs.failures.append(f"{where}: changes with no ruling: {game.unexplained_changes()[:2]}")
    except Exception as err:  # noqa: BLE001 - a fuzz counts every failure
        figs.failures.append(
            f"{where}, decision {n}: {type(err).__name__}: {err}\n{traceback.format_exc(limit=4)}"
        )


def fuzz_games(
    seconds: float, first_seed: int = 0, max_decisions: int = 400, min_games: int = 1
) -> GameFigures:
    """Games round-robin over every scenario of every game (each game's default scenario first) until ``seconds``
    have passed and at least ``min_games`` were played."""
    figs = GameFigures()
    defaults = [(g, game_class(g).default_scenario) for g in wargames.games()]
    cases = defaults + [
        (g, s) for g in wargames.games() for s in wargames.scenarios(g) if (g, s) not in defaults
    ]
    end = time.monotonic() + seconds
    seed = first_seed
    while True:
        for game_id, scenario in cases:
            fuzz_game(game_id, scenario, seed, figs, max_decisions)
            if time.monotonic() > end and figs.games >= min_games:
                return figs
        seed += 1


# ---------------------------------------------------------------------------- corrupted data
def mutate(path: Path, how: str) -> None:
    """Damage one data file in place (on a copy of ``data/``)."""
    raw = path.read_bytes()
    if how == "not-utf8":
        path.write_bytes(b"\xff\xfe" + raw[:40] + b"\xe9\xff" + raw[40:])
    elif how == "half":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "dup-row":
        lines = raw.decode("utf-8", "replace").splitlines(keepends=True)
        if path.suffix == ".csv" and len(lines) > 1:
            lines.insert(1, lines[1])
        elif path.suffix in (".yaml", ".yml") and lines:
            lines.append(lines[0] if lines[0].strip() else "x: 1\n")
        path.write_text("".join(lines), encoding="utf-8")


CHILD = """
import json, sys
import wargames
from wargames.core import WargamesError
game_id, scenario, name = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    g = wargames.load(game_id, scenario, 0)
    g.advance("turn")
    print(json.dumps({"kind": "loaded"}))
except WargamesError as err:
    text = str(err)
    print(json.dumps({"kind": "clear" if name in text else "unnamed", "message": text[:300]}))
except Exception as err:
    print(json.dumps({"kind": "traceback", "message": f"{type(err).__name__}: {str(err)[:300]}"}))
"""


def data_files(game_id: str) -> list[Path]:
    base = data_root() / game_id
    return sorted(
        p
        for p in base.rglob("*")
        if p.is_file() and p.suffix in (".csv", ".yaml", ".yml", ".geojson", ".json")
    )


def corrupt_one(game_id: str, rel: Path, how: str) -> dict[str, str]:
    """Load ``game_id`` (its default scenario) in a fresh process from a copy of ``data/`` with ``rel`` mutated."""
    with tempfile.TemporaryDirectory(prefix="wargames-fuzz-") as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(data_root(), copy)
        mutate(copy / rel, how)
        env = {**os.environ, "WARGAMES_DATA": str(copy), "WARGAMES_CACHE": "off", "PYTHONPATH": str(ROOT)}
        # a scenario file is loaded as its own scenario; any other file with the game's default one
        scenario = rel.stem if rel.parent.name == "scenarios" else game_class(game_id).default_scenario
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, game_id, scenario, rel.name],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
    try:
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        out = {"kind": "traceback", "message": (proc.stderr or "no output")[-300:]}
    return {"game": game_id, "file": str(rel), "mutation": how, **out}


def corrupt_all(
    seconds: float, only: list[tuple[str, Path, str]] | None = None, seed: int = 0
) -> list[dict[str, str]]:
    """Every (game, file, mutation) in an order shuffled by ``seed`` (so a time budget samples every game), or
    ``only`` those, until ``seconds`` have passed."""
    cases = only or [
        (g, p.relative_to(data_root()), how)
        for g in wargames.games()
        for p in data_files(g)
        for how in MUTATIONS
    ]
    if only is None:
        random.Random(seed).shuffle(cases)
    end = time.monotonic() + seconds
    out = []
    for game_id, rel, how in cases:
        if time.monotonic() > end:
            break
        out.append(corrupt_one(game_id, Path(rel), how))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=600, help="time for the games")
    ap.add_argument("--data-seconds", type=float, default=600, help="time for the corrupted data files")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="write the figures as markdown")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    figs = fuzz_games(args.seconds, args.seed)
    t_games = time.monotonic() - t0
    t1 = time.monotonic()
    rows = corrupt_all(args.data_seconds, seed=args.seed)
    t_data = time.monotonic() - t1
    kinds: dict[str, int] = {}
    for r in rows:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    lines = [
        "# Fuzz (issue #30 item 14)",
        "",
        f"`python tools/fuzz.py --seconds {args.seconds:g} --data-seconds {args.data_seconds:g} --seed {args.seed}`"
        " (nice'd, on a shared 2-core machine).",
        "",
        "## Games",
        "",
        f"- {figs.games} games, {figs.decisions} decisions in {t_games:.0f} s; "
        f"{figs.undo_redo} Back + same decision, {figs.reopened} save-reopen-continue, {figs.branches} branches",
        f"- failures: {len(figs.failures)}",
        *[f"  - {f.splitlines()[0]}" for f in figs.failures[:20]],
        "",
        "## Corrupted data",
        "",
        f"- inputs tried: {len(rows)} in {t_data:.0f} s (data files x mutations {', '.join(MUTATIONS)}; a shuffled"
        " sample when the time runs out)",
        f"- clear errors naming the file: {kinds.get('clear', 0)}",
        f"- errors not naming the file: {kinds.get('unnamed', 0)}",
        f"- loads that went through (wrong loads unless the mutation is harmless): {kinds.get('loaded', 0)}",
        f"- tracebacks: {kinds.get('traceback', 0)}",
        "",
        "| game | file | mutation | result | message |",
        "|---|---|---|---|---|",
        *[
            f"| {r['game']} | {r['file']} | {r['mutation']} | {r['kind']} | {r.get('message', '')[:120].replace('|', '/')} |"
            for r in rows
            if r["kind"] != "clear"
        ],
    ]
    text = "\n".join(lines) + "\n"
    if args.out:
        try:
            from wargames.core.record import write_atomic
        except ImportError:  # an older checkout (a "before" figure)
            args.out.write_text(text, encoding="utf-8")
        else:
            write_atomic(args.out, text)
    print(text)
    return 1 if figs.failures else 0


if __name__ == "__main__":
    sys.exit(main())
