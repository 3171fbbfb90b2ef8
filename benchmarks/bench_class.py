"""A class on one server (issue #32): N students open an app (against a server on localhost) and play a few
decisions; then they close their tabs.  Prints, or with ``--write`` writes, a labelled section of
``benchmarks/results/class.md``; a benchmark, not a CI test (``tests/browser/test_class_load.py`` runs a small
version).

    python benchmarks/bench_class.py --students 30 --arrive 30 --label after --write   # the class server
    python benchmarks/bench_class.py --students 30 --mode plain --label before          # plain Voila
    python benchmarks/bench_class.py --students 4 --decisions 2 --arrive 0               # a quick run

**Who the students are.**  ``--browsers K`` of them (default 3, spread evenly over the arrivals: the first, the
middle, the last) open the page in headless Chromium (one Playwright context each), as a student does; their
time to first decision is the figure a student sees.  The others are protocol clients
(``benchmarks/widgetclient.py``): each loads the page over HTTP and drives its kernel over the kernel's websocket
exactly as the page's widget manager does (every widget state requested, the map button pressed as the template
does, Apply clicked), so the server does all its real work for them, but no renderer draws their page.  Why: a
Chromium page costs about 5-6 s of processor to draw; thirty of them on the server's own 2 cores would measure
the bench's browsers, while in a class each browser runs on the student's own machine.  ``--browsers N`` (all of
them) is the all-browser bench of the earlier runs.

Figures per run: the server's start (the preheated pool filled, in ``class`` mode), and for each student: time to
page (the first byte of the page), time to first decision (the page shows, or for a protocol client the widget
models hold, the student's decision with its Apply button: what a student waits for), and the latency of each
decision (Apply pressed to the next decision shown, the built-in players' replies included); the memory of the
server and its kernels (total resident set, sampled every second, peak); and after the tabs close, how long until
their kernels are gone.  Every wait is bounded (``--timeout``): a student who does not get a page in time counts as
failed, and the run still ends.  ``--arrive S`` spreads the arrivals over S seconds (a class does not click at the
same instant).  The run also reports the processor time per student, from the students' arrival to their last
decision: of the server with its kernels, of a Chromium student (Playwright and Chromium) and of a protocol
client (this process); and the load average before and after (other jobs on the machine count in it).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "results" / "class.md"

from benchmarks._results import machine, write_section  # noqa: E402
from wargames.notebook.app import class_args, voila_command, voila_env  # noqa: E402

HEAD = """# A class on one server (issue #32)

Made by `benchmarks/bench_class.py` (see its docstring for what each figure is).  Seconds are wall time on the
machine named in each section; the browser (one headless Chromium, a context per student) shares its cores.
"""

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FLAGS += ["--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Seconds without one more preheated kernel after which the pool counts as filled as far as it will be.
STALL = 60.0
SIDE = {"tet": "Allied", "yotr": "Allied", "fitl": "VC", "row": "Capitalist"}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def _cpu_s(pid: int) -> float:
    """Processor seconds used by ``pid`` (user + system)."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _cpu_split(server_pid: int) -> tuple[float, float]:
    """Processor seconds used so far by (the server and its kernels, the bench's browser): the browser is every
    other descendant of this process (Playwright's driver and Chromium)."""
    server = set(_tree(server_pid))
    browser = [p for p in _tree(os.getpid())[1:] if p not in server]
    return sum(_cpu_s(p) for p in server), sum(_cpu_s(p) for p in browser)


def _kernels(server_pid: int) -> dict[str, int]:
    out = {}
    for p in _tree(server_pid)[1:]:
        try:
            args = Path(f"/proc/{p}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if any("ipykernel" in a for a in args):
            conn = next((a for a in args if a.endswith(".json")), "")
            out[Path(conn).stem.removeprefix("kernel-")] = p
    return out


def _waiting_kernels(server_pid: int, port: int) -> list[int]:
    """The server's kernels that hold an open connection to the server's own port: a preheated kernel that has
    rendered the app and waits for its student's request (Voila's query websocket).  The processor times of the
    kernels cannot tell this under load: a kernel queued for its render is as still as one that is done."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "01" and int(f[2].rsplit(":", 1)[1], 16) == port:  # ESTABLISHED, to the server's port
                inodes.add(f[9])
    out = []
    for pid in _kernels(server_pid).values():
        try:
            links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        except OSError:
            continue
        if any(link[8:-1] in inodes for link in links if link.startswith("socket:[")):
            out.append(pid)
    return out


class Server:
    def __init__(self, app: str, mode: str, students: int, store: Path, log: Path, refill: float = 300.0):
        self.port = _free_port()
        extra = [f"--port={self.port}", "--Voila.ip=127.0.0.1"]
        if mode == "class":
            extra = class_args(students, refill) + extra
        env = voila_env({**os.environ, "WARGAMES_STORE_DIR": str(store)})
        self.log_path = log
        self.log = open(log, "w")  # noqa: SIM115 - closed in stop()
        t0 = time.time()
        self.proc = subprocess.Popen(
            voila_command(app, extra), cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        self.pool = students if mode == "class" else 0
        self.preheated = 0
        self.ready = self._wait_ready(t0)

    def _wait_ready(self, t0: float, timeout: float = 900) -> float:
        import urllib.error
        import urllib.request

        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: see {self.log_path}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/voila/static/", timeout=2)
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.5)
        # every preheated kernel has run the app up to the student's request: it then waits on Voila's query
        # websocket (voila.utils.wait_for_request), a connection from the kernel to the server's port
        # (a kernel that failed to start, e.g. a port taken by another kernel in the same instant, is restarted
        # by Jupyter but never preheated: after STALL seconds without one more kernel ready the run starts, and
        # the section says how many were)
        seen, since = -1, time.time()
        while self.pool and time.time() - t0 < timeout:
            self.preheated = len(_waiting_kernels(self.proc.pid, self.port))
            if self.preheated >= self.pool:
                break
            if self.preheated != seen:
                seen, since = self.preheated, time.time()
            elif self.preheated and time.time() - since > STALL:
                break
            time.sleep(1)
        return time.time() - t0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


async def _student(browser, url: str, side: str, decisions: int, delay: float, timeout: float, out: dict):
    await asyncio.sleep(delay)
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await ctx.new_page()
    out["context"] = ctx
    t0 = time.time()
    try:
        resp = await page.goto(url, wait_until="commit", timeout=timeout * 1000)
        out["page"] = time.time() - t0
        out["status"] = resp.status if resp else None
        mine = page.locator(".widget-html-content", has_text=f"{side} to decide (a person)").first
        await mine.wait_for(timeout=timeout * 1000)
        await page.locator("button.jupyter-button:has-text('Apply')").first.wait_for(timeout=timeout * 1000)
        out["first"] = time.time() - t0
        out["kernel"] = await page.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        lat = []
        where = page.locator(".widget-html-content", has_text="to decide").first
        for _ in range(decisions):
            before = await where.inner_text()
            t1 = time.time()
            await page.locator("button.jupyter-button:has-text('Apply')").first.click()
            while time.time() - t1 < timeout:
                now = await where.inner_text()
                if now != before and "(a person)" in now:
                    break
                await asyncio.sleep(0.05)
            else:
                raise TimeoutError("decision")
            lat.append(time.time() - t1)
        out["latency"] = lat
        out["page_obj"] = page
    except Exception as err:  # counted as a failed student; the run goes on
        out["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:120]}"


async def _protocol_student(
    base: str, query: str, side: str, decisions: int, delay: float, timeout: float, out: dict
) -> None:
    """A student without a browser (``benchmarks/widgetclient.py``): the page over HTTP, the kernel over its
    websocket, the widget protocol as the page speaks it; the same figures as ``_student``."""
    from benchmarks.widgetclient import ProtocolStudent

    await asyncio.sleep(delay)
    student = ProtocolStudent(base, query, side, timeout)
    t0 = time.time()
    try:
        out["page"] = await student.open_page()
        await student.connect()
        await student.first_decision()
        out["first"] = time.time() - t0
        out["kernel"] = student.kernel_id
        out["latency"] = [await student.apply() for _ in range(decisions)]
        out["client"] = student
    except Exception as err:  # counted as a failed student; the run goes on
        out["error"] = f"{type(err).__name__}: {str(err).splitlines()[0][:120] if str(err) else ''}"
        out["client"] = student


def browser_seats(students: int, browsers: int) -> set[int]:
    """Which students (by arrival order) use a real Chromium page: ``browsers`` of them spread evenly over the
    arrivals (the first, the last and between), so that their waits sample the whole burst."""
    if browsers >= students:
        return set(range(students))
    if browsers <= 0:
        return set()
    if browsers == 1:
        return {students // 2}
    return {round(i * (students - 1) / (browsers - 1)) for i in range(browsers)}


async def _run(args, server: Server) -> tuple[list[dict], float | None, tuple[float, float, float]]:
    from playwright.async_api import async_playwright

    results = [{"student": i} for i in range(args.students)]
    seats = browser_seats(args.students, args.browsers)
    for i in range(args.students):
        results[i]["kind"] = "browser" if i in seats else "protocol"
    base = f"http://127.0.0.1:{server.port}/"
    async with async_playwright() as pw:
        browser = None
        if seats:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        gap = args.arrive / max(1, args.students - 1) if args.students > 1 else 0
        tasks = [
            _student(
                browser,
                f"{base}?student=Student%20{i:02d}",
                SIDE[args.app],
                args.decisions,
                i * gap,
                args.timeout,
                results[i],
            )
            if i in seats
            else _protocol_student(
                base,
                f"student=Student%20{i:02d}",
                SIDE[args.app],
                args.decisions,
                i * gap,
                args.timeout,
                results[i],
            )
            for i in range(args.students)
        ]
        cpu0 = (*_cpu_split(server.proc.pid), _cpu_s(os.getpid()))
        await asyncio.gather(*tasks)
        cpu1 = (*_cpu_split(server.proc.pid), _cpu_s(os.getpid()))
        cpu = (cpu1[0] - cpu0[0], cpu1[1] - cpu0[1], cpu1[2] - cpu0[2])
        # the class goes home: every tab closed normally (the browser stays open, as when a tab closes)
        ids = [r["kernel"] for r in results if "kernel" in r]
        t0 = time.time()
        leaving = [r.pop("page_obj").close(run_before_unload=True) for r in results if "page_obj" in r]
        leaving += [r.pop("client").close() for r in results if "client" in r]
        await asyncio.gather(
            *leaving
        )  # all at once, as a class leaves (a protocol goodbye waits for its answer)
        freed = None
        while ids and time.time() - t0 < 60:
            alive = _kernels(server.proc.pid)
            if not any(k in alive for k in ids):
                freed = time.time() - t0
                break
            await asyncio.sleep(0.25)
        for r in results:
            ctx = r.pop("context", None)
            if ctx is not None:
                await ctx.close()
        if browser is not None:
            await browser.close()
    return results, freed, cpu


def _fmt(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
    return f"{statistics.median(xs):.1f} / {p90:.1f} / {xs[-1]:.1f}"


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", default="tet", choices=sorted(SIDE))
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--mode", choices=("class", "plain"), default="class")
    ap.add_argument("--decisions", type=int, default=3)
    ap.add_argument("--arrive", type=float, default=0.0, help="spread the arrivals over this many seconds")
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds a student waits for each step")
    ap.add_argument(
        "--refill", type=float, default=300.0, help="class mode: seconds before a used kernel is replaced"
    )
    ap.add_argument(
        "--browsers",
        type=int,
        default=3,
        help="how many students use a real Chromium page (spread over the arrivals); the others are protocol "
        "clients (benchmarks/widgetclient.py); --browsers N (= --students) is the all-browser bench",
    )
    ap.add_argument("--label", default="")
    ap.add_argument(
        "--out", type=Path, default=None, help=f"write the section here (implies --write; default {OUT})"
    )
    ap.add_argument("--write", action="store_true", help="write the section into the results file")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="bench_class_"))
    load0 = os.getloadavg()
    server = Server(args.app, args.mode, args.students, tmp, tmp / "voila.log", args.refill)
    peak = [_rss_mb(_tree(server.proc.pid))]
    idle_mb = peak[0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak.append(_rss_mb(_tree(server.proc.pid)))
            time.sleep(1)

    threading.Thread(target=sample, daemon=True).start()
    t0 = time.time()
    try:
        results, freed, cpu = asyncio.run(_run(args, server))
    finally:
        stop.set()
        wall = time.time() - t0
        load1 = os.getloadavg()
        log = server.log_path.read_text()
        server.stop()
    ok = [r for r in results if "first" in r and "error" not in r]
    failed = [r for r in results if "error" in r]
    firsts = [r["first"] for r in ok]
    seen = [r["first"] for r in ok if r["kind"] == "browser"]
    served = [r["first"] for r in ok if r["kind"] == "protocol"]
    n_browsers = sum(r["kind"] == "browser" for r in results)
    lat = [x for r in ok for x in r.get("latency", [])]
    summary = {
        "students": args.students,
        "served": len(ok),
        "failed": len(failed),
        "ready_s": round(server.ready, 1),
        "preheated": server.preheated,
        "page": _fmt([r["page"] for r in results if "page" in r]),
        "first": _fmt(firsts),
        "browsers": n_browsers,
        "first_browser": _fmt(seen),
        "first_protocol": _fmt(served),
        "first_browser_worst": max(seen) if seen else None,
        "latency": _fmt(lat),
        "idle_mb": round(idle_mb),
        "peak_mb": round(max(peak)),
        "freed_s": None if freed is None else round(freed, 1),
        "refused_shutdowns": len(re.findall(r"403 POST /voila/api/shutdown", log)),
        "server_cpu_per_student": round(cpu[0] / args.students, 2),
        "browser_cpu_per_student": round(cpu[1] / max(1, n_browsers), 2),
        "protocol_cpu_per_student": round(cpu[2] / max(1, args.students - n_browsers), 3),
        "load_before": [round(x, 2) for x in load0],
        "load_after": [round(x, 2) for x in load1],
        "wall_s": round(wall, 1),
    }
    print(summary)
    label = args.label or f"{args.mode}, {args.students} students"
    rows = "\n".join(
        f"| {r['student']:02d} | {r['kind']} | {r.get('page', float('nan')):.1f} | "
        f"{r.get('first', float('nan')):.1f} | "
        + (" ".join(f"{x:.1f}" for x in r.get("latency", [])) or "-")
        + f" | {r.get('error', '')} |"
        for r in results
    )
    how = "a class server (`--class N`: preheated pool of N)" if args.mode == "class" else "plain Voila"
    body = f"""## {label}

{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC; {machine()}; load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}.
`python benchmarks/bench_class.py --app {args.app} --students {args.students} --mode {args.mode} --decisions {args.decisions} --arrive {args.arrive:g} --browsers {n_browsers}{f" --refill {args.refill:g}" if args.mode == "class" else ""}`: {how}, arrivals over {args.arrive:g} s; {n_browsers} students in Chromium, {args.students - n_browsers} protocol clients (`benchmarks/widgetclient.py`).

| figure | value |
|---|---|
| students served / failed | {len(ok)} / {len(failed)} |
| server ready (up{f", {server.preheated} of {server.pool} preheated kernels waiting" if args.mode == "class" else ""}) | {server.ready:.1f} s |
| time to page, median / 90th pct / worst | {summary["page"]} s |
| time to first decision, all students: median / 90th pct / worst | {summary["first"]} s |
| time to first decision, the {n_browsers} Chromium students (what a student sees) | {summary["first_browser"]} s |
| time to first decision, the {args.students - n_browsers} protocol students (the server's part) | {summary["first_protocol"]} s |
| decision latency ({args.decisions} each), median / 90th pct / worst | {summary["latency"]} s |
| memory of server + kernels: ready / peak | {idle_mb:.0f} MB / {max(peak):.0f} MB |
| all students' kernels gone after the tabs closed | {"no student's kernel known" if not ok else "not within 60 s" if freed is None else f"{freed:.1f} s"} |
| shutdown requests refused (403) | {summary["refused_shutdowns"]} |
| processor time per student while they played: server + kernels / a Chromium student / a protocol student | {summary["server_cpu_per_student"]:.2f} / {summary["browser_cpu_per_student"]:.2f} / {summary["protocol_cpu_per_student"]:.3f} s |

<details><summary>per student: page, first decision, decision latencies (s)</summary>

| student | kind | page | first | latencies | error |
|---|---|---|---|---|---|
{rows}

</details>
"""
    if args.write or args.out is not None:
        out = args.out or OUT
        out.parent.mkdir(parents=True, exist_ok=True)
        write_section(out, HEAD, label, body)
    else:
        print(body)
    return summary


if __name__ == "__main__":
    main()
