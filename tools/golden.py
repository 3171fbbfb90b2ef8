"""Golden replays: whole bot-against-bot games stored as their decision records (issue #13).

    python tools/golden.py            # regenerate every file in tests/golden/
    python tools/golden.py tet        # only Tet's
    python tools/golden.py --check    # compare without writing (what tests/test_golden.py does)

Each file holds one game, scenario, option set and seed: the decision record (every action, by whom, with
the bot's reason), the final digest, the number of rulings, the result, and the rulings themselves as readable
lines (``ruling_lines``: number, turn, step, rule, a fingerprint of what the ruling decided, title and a short
result; see :func:`ruling_line`).  ``tests/test_golden.py`` plays each game again from the seed with the
built-in players and replays the stored record, and both must give the same rulings, decisions, digest, ruling
count and result; when they do not, the failure names the first ruling where the two games part, the stored
one and the new one side by side (:func:`first_parting`).  A change that is not a deliberate rule change leaves
these files identical; a deliberate one regenerates them in the same commit and says why.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

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


#: the fields of a ruling line that must agree (the title and the short result are there to be read)
KEY_FIELDS = 5
RESULT_CHARS = 48


def ruling_line(r: Any) -> str:
    """One ruling as a line ``seq|T<turn>|<step>|<rule>|<fingerprint>|<title>|<short result>``.

    The fingerprint is a hash of what the ruling decided (result, inputs, dice, table cell, state changes,
    places, side, visibility), not of its wording, so a clearer explanation or title does not break a golden
    while any change of substance does; the title and the first characters of the result are there to be read."""
    d = r.to_dict()
    substance = {
        k: d[k] for k in ("result", "inputs", "dice", "lookup", "changes", "places", "side", "hidden_from")
    }
    # the changes in a canonical order: a set updated at once (FitL's Sabotage markers) journals its members in
    # the set's order, which Python's string hashing varies from run to run
    substance["changes"] = sorted(
        (json.dumps(c, sort_keys=True, default=str) for c in substance["changes"] or []),
    )
    fp = hashlib.sha1(json.dumps(substance, sort_keys=True, default=str).encode()).hexdigest()[:10]
    short = json.dumps(d["result"], sort_keys=True, default=str, separators=(",", ":"))
    if len(short) > RESULT_CHARS:
        short = short[: RESULT_CHARS - 3] + "..."
    return f"{r.seq}|T{r.turn}|{r.step}|{r.rule_id}|{fp}|{r.title}|{short}"


def _key(line: str) -> list[str]:
    return line.split("|", KEY_FIELDS)[:KEY_FIELDS]


def first_parting(now: list[str], stored: list[str]) -> str | None:
    """Where two games' rulings part: None when they agree line by line (key fields), else a text naming the
    first ruling that differs, with the stored and the new ruling side by side and the two rulings before it."""
    for i in range(max(len(now), len(stored))):
        a = now[i] if i < len(now) else "(no such ruling: the new game ended)"
        b = stored[i] if i < len(stored) else "(no such ruling: the stored game ended)"
        if i < len(now) and i < len(stored) and _key(a) == _key(b):
            continue
        before = "\n".join(f"    same   {x}" for x in now[max(0, i - 2) : i])
        return (
            f"the games part at ruling {i + 1}:\n{before}\n"
            f"    stored {b}\n"
            f"    now    {a}\n"
            "(fields: number|turn|step|rule|fingerprint of what it decided|title|result)"
        )
    return None


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
        "ruling_lines": [ruling_line(r) for r in g.log],
    }


def dump(data: dict) -> str:
    """One record entry and one ruling per line, so a regenerated file diffs decision by decision and ruling by
    ruling."""
    head = {k: v for k, v in data.items() if k not in ("record", "ruling_lines")}
    lines = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in data["record"]]
    rulings = [json.dumps(x, ensure_ascii=False) for x in data["ruling_lines"]]
    return (
        json.dumps(head, indent=1, sort_keys=True)[:-2]
        + ',\n "record": [\n'
        + ",\n".join(lines)
        + '\n ],\n "ruling_lines": [\n'
        + ",\n".join(rulings)
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
        if status == "CHANGED" and old is not None and "ruling_lines" in json.loads(old):
            parting = first_parting(data["ruling_lines"], json.loads(old)["ruling_lines"])
            if parting:
                print(f"{name}: {parting}")
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
