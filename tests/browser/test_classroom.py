"""Real-browser tests of a class server (issue #32): ``python -m wargames.notebook.app tet --class N`` (Voila with
a preheated kernel pool, the classroom template, the class store in a temporary folder), in Debian's Chromium.

* a reload brings the student back to the same decision, and the old page's kernel is shut down at once (the
  ``beforeunload`` shutdown request is no longer refused for want of an ``_xsrf`` cookie);
* a killed kernel: the page says it lost its game server and its Restore button brings the game back;
* a restarted server: the same, once the server is up again;
* the teacher's dashboard lists the class and replays a game; a classmate's game is seen only once shared.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from .playdrive import wait, where
from .test_ui import ART, CHROMIUM, _free_port, _serve, _stop, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
    pytest.mark.skipif(
        not Path("/proc/self/stat").exists(), reason="needs /proc to see the kernel processes"
    ),
]
pytest.importorskip("voila")
pytest.importorskip("sqlalchemy")

from wargames.notebook.app import ROOT, class_args, voila_command, voila_env  # noqa: E402


class ClassServer:
    """A class server for the Tet app on a fixed port, which a test may stop and start again."""

    def __init__(self, store_dir: Path, pool: int = 1):
        self.store_dir = store_dir
        self.port = _free_port()
        self.env = voila_env({**os.environ, "WARGAMES_STORE_DIR": str(store_dir)})
        self.cmd = voila_command(
            "tet", [f"--port={self.port}", "--Voila.ip=127.0.0.1", *class_args(pool, refill=1)]
        )
        self.proc = None
        self.log = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        self.log = open(ART / f"voila_class_{self.starts}.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = _serve(
            self.cmd, f"http://127.0.0.1:{self.port}/voila/static/", ROOT, self.log, env=self.env
        )

    def stop(self) -> None:
        _stop(self.proc)
        self.log.close()

    def kernels(self) -> dict[str, int]:
        """The server's kernel processes: kernel id (from the connection file's name) -> pid."""
        out = {}
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                args = (d / "cmdline").read_bytes().decode().split("\0")
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.proc.pid and any("ipykernel" in a for a in args):
                conn = next((a for a in args if a.endswith(".json")), "")
                out[Path(conn).stem.removeprefix("kernel-")] = int(d.name)
        return out

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    ART.mkdir(parents=True, exist_ok=True)
    s = ClassServer(tmp_path_factory.mktemp("store"))
    s.start()
    yield s
    s.stop()


def _first_decision(page) -> str:
    sync_api.expect(
        page.locator(".widget-html-content", has_text="Allied to decide (a person)").first
    ).to_be_visible(timeout=180000)
    return where(page)


def _apply(page) -> str:
    """Apply the top choice; wait for the next decision of the student; return the stepper's line."""
    before = where(page)
    page.locator("button.jupyter-button:has-text('Apply')").first.click()
    assert wait(lambda: where(page) != before, 60), "Apply did not move the game"
    sync_api.expect(
        page.locator(".widget-html-content", has_text="to decide (a person)").first
    ).to_be_visible(timeout=60000)
    return where(page)


def address(page) -> str:
    """The page's address as the page itself has it now.  Not ``page.url``: the sync API learns of the page's
    own ``history.replaceState`` only while it waits on the page, and a test polling ``page.url`` between
    ``time.sleep`` calls (``wait``) would read the address of the first view forever."""
    return page.evaluate("location.href")


def _kernel_id(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def test_reload_brings_back_the_same_decision_and_frees_the_old_kernel(server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(server.url, timeout=180000)
        _first_decision(page)
        assert wait(lambda: "token=" in address(page), 60), f"the page did not keep its key: {address(page)}"
        shown = _apply(page)
        old = _kernel_id(page)
        assert old in server.kernels()
        page.reload(timeout=180000)
        assert _first_decision(page) == shown, "the reload did not bring back the same decision"
        sync_api.expect(
            page.locator(".widget-html-content", has_text="back at the decision").first
        ).to_be_visible()
        assert wait(lambda: old not in server.kernels(), 10), (
            "the reloaded page's old kernel was left running"
        )
        page.screenshot(path=str(ART / "class_reload.png"))
        last = _kernel_id(page)
        page.close(run_before_unload=True)
        assert wait(lambda: last not in server.kernels(), 10), "the closed page's kernel was left running"
    finally:
        context.close()
    log = (ART / "voila_class_1.log").read_text()
    assert "403 POST /voila/api/shutdown" not in log


def test_closed_tab_frees_its_kernel_within_seconds(server, browser):
    """A tab closed in a browser that stays open (a page of its own context would take the context down with it,
    and the goodbye request with them, which a real browser does not do when one tab closes)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "?student=Closer", timeout=180000)
        _first_decision(page)
        kid = _kernel_id(page)
        assert kid in server.kernels()
        page.close(run_before_unload=True)
        t0 = time.time()
        assert wait(lambda: kid not in server.kernels(), 10), "a closed tab left its kernel running"
        print(f"closed tab: kernel gone after {time.time() - t0:.1f} s")
    finally:
        context.close()


def test_killed_kernel_page_says_so_and_restores(server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(server.url + "?student=Kim", timeout=180000)
        _first_decision(page)
        shown = _apply(page)
        os.kill(server.kernels()[_kernel_id(page)], signal.SIGKILL)
        banner = page.locator("#wargames-lost")
        sync_api.expect(banner).to_contain_text("lost its game server", timeout=60000)
        page.screenshot(path=str(ART / "class_kernel_lost.png"))
        page.locator("#wargames-restore").click()
        assert _first_decision(page) == shown, "Restore did not bring back the same decision"
        assert "student=Kim" in address(page)
    finally:
        page.close(run_before_unload=True)


def test_restarted_server_brings_the_student_back(server, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(server.url + "?student=Lee", timeout=180000)
        _first_decision(page)
        shown = _apply(page)
        server.stop()
        sync_api.expect(page.locator("#wargames-lost")).to_be_visible(timeout=60000)
        server.start()
        time.sleep(1)
        page.locator("#wargames-restore").click()
        assert _first_decision(page) == shown, "after the server restart the game is not at the same decision"
        page.screenshot(path=str(ART / "class_server_restarted.png"))
    finally:
        page.close(run_before_unload=True)


class Dashboard:
    """The teacher's dashboard notebook served by Voila on the class server's store."""

    def __init__(self, env: dict[str, str]):
        self.port = _free_port()
        cmd = voila_command(
            "notebooks/teacher/class-dashboard.ipynb", [f"--port={self.port}", "--Voila.ip=127.0.0.1"]
        )
        self.log = open(ART / "voila_dashboard.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = _serve(cmd, f"http://127.0.0.1:{self.port}/voila/static/", ROOT, self.log, env=env)

    def open(self, browser):
        """A new dashboard page, once its class table is shown."""
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"http://127.0.0.1:{self.port}/", timeout=180000)
        page.locator("table.wg-class-table").first.wait_for(timeout=180000)
        return page

    def stop(self) -> None:
        _stop(self.proc)
        self.log.close()


@pytest.fixture(scope="module")
def dashboard(server):
    d = Dashboard(server.env)
    yield d
    d.stop()


def _pick(page, starts: str) -> None:
    """Choose the first of the dashboard's "Student's game" entries that starts with ``starts``."""
    box = page.locator(".widget-dropdown", has_text="Student's game")
    label = next(o for o in box.locator("option").all_inner_texts() if o.startswith(starts))
    box.locator("select").select_option(label=label)


def test_dashboard_lists_the_class_and_replays_a_students_game(server, dashboard, browser):
    """After the tests above: the teacher's dashboard page (Voila, same store) lists the students they made
    play, and opens one's game as a replay with its map and rulings."""
    page = dashboard.open(browser)
    try:
        table = page.locator("table.wg-class-table").first
        for name in ("Kim", "Lee", "Closer"):
            sync_api.expect(table).to_contain_text(name)
        sync_api.expect(page.locator("body")).to_contain_text("In history:")
        _pick(page, "Kim:")
        page.locator("button.jupyter-button:has-text('Open as a replay')").click()
        sync_api.expect(
            page.locator(".widget-html-content", has_text="The replay is at").first
        ).to_be_visible(timeout=120000)
        page.locator("canvas").first.wait_for(state="attached", timeout=60000)
        sync_api.expect(page.locator(".widget-html-content", has_text="Turn 1").first).to_be_visible()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(ART / "class_dashboard.png"), full_page=True)
    finally:
        page.close(run_before_unload=True)


def test_a_classmates_game_is_seen_only_once_the_teacher_shares_it(server, dashboard, browser):
    """Issue #32 item 4: Ann plays; Bo's page lists no shared game (a page never gets another's key: see
    tests/test_classroom.py for a typed name); the teacher ticks "shared with the class" on Ann's game in the dashboard; Bo's page then lists Ann's
    game by her name and opens it as a replay."""
    ann = browser.new_page(viewport={"width": 1400, "height": 1000})
    bo_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    bo = bo_context.new_page()
    try:
        ann.goto(server.url + "?student=Ann", timeout=180000)
        _first_decision(ann)
        assert wait(lambda: "token=" in address(ann), 60), f"Ann's page did not keep its key: {address(ann)}"
        ann_shown = _apply(ann)
        ann_token = address(ann).split("token=", 1)[1].split("&", 1)[0]
        bo.goto(server.url + "?student=Bo", timeout=180000)
        _first_decision(bo)
        assert ann_token not in address(bo) and where(bo) != ann_shown
        shared = bo.locator("button.jupyter-button:has-text('Games your teacher shared')")
        shared.click()
        sync_api.expect(
            bo.locator(".widget-html-content", has_text="has not shared any game").first
        ).to_be_visible(timeout=60000)

        teacher = dashboard.open(browser)
        try:
            _pick(teacher, "Ann:")
            teacher.locator(".widget-checkbox", has_text="shared with the class").locator("input").check()
            sync_api.expect(
                teacher.locator(".widget-html-content", has_text="Shared with the class:").first
            ).to_be_visible(timeout=60000)
            teacher.screenshot(path=str(ART / "class_dashboard_shared.png"), full_page=True)
        finally:
            teacher.close(run_before_unload=True)

        shared.click()
        box = bo.locator(".widget-dropdown", has_text="Shared game")
        box.wait_for(timeout=60000)
        options = box.locator("option").all_inner_texts()
        assert options and all(o.startswith("Ann:") for o in options), options
        assert ann_token not in bo.content(), "Bo's page received Ann's key"
        bo.locator("button.jupyter-button:has-text('Open as a replay')").click()
        sync_api.expect(
            bo.locator(".widget-html-content", has_text="shared by your teacher").first
        ).to_be_visible(timeout=120000)
        bo.wait_for_timeout(1500)
        bo.screenshot(path=str(ART / "class_shared_replay.png"), full_page=True)
    finally:
        ann.close(run_before_unload=True)
        bo.close(run_before_unload=True)
        bo_context.close()
