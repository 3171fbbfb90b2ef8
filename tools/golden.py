"""Golden replays: whole bot-against-bot games stored as their decision records (issue #13).

    python tools/golden.py            # regenerate every file in tests/golden/
    python tools/golden.py tet        # only Tet's
    python tools/golden.py --check    # compare without writing (what tests/test_golden.py does)

Each file holds one game, scenario, option set and seed: the decision record (every action, by whom, with
the bot's reason), the final digest, the number of rulings and the result.  ``tests/test_golden.py`` plays
each game again from the seed with the built-in players and replays the stored record, and both must give
the same decisions, digest, ruling count and result.  A change that is not a deliberate rule change leaves
these files identical; a deliberate one regenerates them in the same commit and says why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
sys.path.insert(0, str(ROOT))  # this checkout's wargames, not whichever one is installed

# (game, scenario, options, seeds): every game and scenario, a few seeds each; kept short so CI stays fast.
CASES: list[tuple[str, str, dict, tuple[int, ...]]] = [
    ("tet", "historical", {}, (0, 1, 2)),
    ("tet", "historical", {"players": 4}, (3,)),
    ("tet", "standard", {}, (4,)),
    ("yotr", "historical", {}, (0, 1)),
    ("yotr", "standard", {}, (2,)),
    ("yotr", "ob-options", {"lsi": True}, (3,)),
    ("fitl", "short", {}, (0, 1, 2)),
    ("fitl", "medium", {}, (3,)),
    ("fitl", "full", {}, (4,)),
    ("row", "year-in-i-corps", {}, (0,)),
    ("row", "i-corps-air-war", {}, (0,)),
    ("row", "tet-offensive", {}, (0,)),
    ("row", "eastertide", {}, (0,)),
    ("row", "vietnam-war", {}, (0,)),
]


def case_name(game: str, scenario: str, options: dict, seed: int) -> str:
    opts = "".join(f"-{k}{'' if v is True else v}" for k, v in sorted(options.items()))
    return f"{game}-{scenario}{opts}-seed{seed}"


def cases(only: str | None = None):
    for game, scenario, options, seeds in CASES:
        if only and game != only:
            continue
        for seed in seeds:
            yield case_name(game, scenario, options, seed), game, scenario, options, seed


def play(game: str, scenario: str, options: dict, seed: int) -> dict:
    """Play one whole game with the built-in players; the golden record of it."""
    import wargames

    g = wargames.load(game, scenario, seed, **options)
    g.play()
    res = g.result
    return {
        "game": game,
        "scenario": scenario,
        "options": options,
        "seed": seed,
        "digest": g.digest(),
        "rulings": len(g.log),
        "turn": g.turn,
        "result": {
            "rule": res.rule_id,
            "title": res.title,
            "result": json.loads(json.dumps(res.result, default=str)),
        },
        "decisions": len([e for e in g.record if "act" in e]),
        "record": g.record,
    }


def dump(data: dict) -> str:
    """One record entry per line, so a regenerated file diffs decision by decision."""
    head = {k: v for k, v in data.items() if k != "record"}
    lines = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in data["record"]]
    return (
        json.dumps(head, indent=1, sort_keys=True)[:-2]
        + ',\n "record": [\n'
        + ",\n".join(lines)
        + "\n ]\n}\n"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?")
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, game, scenario, options, seed in cases(args.game):
        data = play(game, scenario, options, seed)
        path = GOLDEN / f"{name}.json"
        text = dump(data)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        status = "same" if old == text else ("new" if old is None else "CHANGED")
        if args.check:
            bad += status != "same"
        else:
            path.write_text(text, encoding="utf-8")
        print(
            f"{name}: {data['decisions']} decisions, {data['rulings']} rulings, {data['result']['title']} [{status}]"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
