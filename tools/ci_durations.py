"""Rank the test files (and notebooks) of a pytest run by the time they took, from its JUnit XML report.

    python -m pytest ... --junitxml=run.xml
    python tools/ci_durations.py run.xml [--top 40] [--tests 25]

Prints a Markdown table: per file the number of tests, the summed time of its tests (setup + call + teardown, as
pytest's JUnit report counts them: a module-scoped fixture is charged to the test that first uses it) and its
slowest test; then the slowest single tests.  With ``--dist loadfile`` a file runs whole on one worker, so a file's
sum is the time it holds that worker.  Used for ``benchmarks/results/ci_durations.md``."""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from collections import defaultdict


def _file_of(case: ET.Element) -> str:
    """The test file or notebook of a JUnit test case (pytest writes ``file`` when it knows it, else the
    dotted class name)."""
    if case.get("file"):
        return case.get("file", "")
    cls = case.get("classname", "")
    if ".ipynb" in cls:
        return cls.split("::")[0]
    parts = cls.split(".")
    while parts and parts[-1][:1].isupper():  # test classes
        parts.pop()
    return "/".join(parts) + ".py"


def rank(path: str) -> tuple[dict[str, list[tuple[str, float]]], float]:
    """Per file: its (test name, seconds) pairs; and the report's total time."""
    root = ET.parse(path).getroot()
    files: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for case in root.iter("testcase"):
        files[_file_of(case)].append((case.get("name", ""), float(case.get("time", 0) or 0)))
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    total = float(suite.get("time", 0)) if suite is not None else 0.0
    return files, total


def main(argv: list[str] | None = None) -> str:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="pytest --junitxml file")
    ap.add_argument("--top", type=int, default=40, help="files listed")
    ap.add_argument("--tests", type=int, default=25, help="single tests listed")
    args = ap.parse_args(argv)
    files, total = rank(args.report)
    summed = sum(t for cases in files.values() for _, t in cases)
    out = [
        f"{len(files)} files, {sum(map(len, files.values()))} tests, {summed:.0f} s summed over the tests, "
        f"{total:.0f} s wall for the run",
        "",
        "| # | file | tests | seconds | share | slowest test (s) |",
        "|---|---|---|---|---|---|",
    ]
    ranked = sorted(files.items(), key=lambda kv: -sum(t for _, t in kv[1]))
    for i, (name, cases) in enumerate(ranked[: args.top], 1):
        s = sum(t for _, t in cases)
        worst = max(cases, key=lambda c: c[1])
        out.append(
            f"| {i} | `{name}` | {len(cases)} | {s:.1f} | {100 * s / summed:.1f}% | `{worst[0][:60]}` {worst[1]:.1f} |"
        )
    rest = ranked[args.top :]
    if rest:
        s = sum(t for _, cases in rest for _, t in cases)
        out.append(
            f"| | {len(rest)} other files | {sum(len(c) for _, c in rest)} | {s:.1f} | {100 * s / summed:.1f}% | |"
        )
    out += ["", "| slowest tests | seconds |", "|---|---|"]
    singles = sorted(((f, n, t) for f, cases in files.items() for n, t in cases), key=lambda x: -x[2])
    out += [f"| `{f}::{n[:70]}` | {t:.1f} |" for f, n, t in singles[: args.tests]]
    text = "\n".join(out)
    print(text)
    return text


if __name__ == "__main__":
    main()
