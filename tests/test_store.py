"""The class store (issue #32 item 3): every app game saved after each decision and reopened at the same decision."""

from __future__ import annotations

import sqlite3
import threading

import pytest

import wargames

pytest.importorskip("sqlalchemy")

from wargames.store import GameStore, StoreError, default_url, student_key  # noqa: E402


@pytest.fixture(scope="module")
def pg_url():
    """A PostgreSQL server for the module, where one can be started (Debian's postgresql package)."""
    from .pgserver import PgServer, available

    why = available()
    if why:
        pytest.skip(why)
    with PgServer() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    """The store on the SQLite default, and on PostgreSQL by URL where it can be run."""
    if request.param == "sqlite":
        s = GameStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    else:
        s = GameStore(request.getfixturevalue("pg_url"))
        with s.engine.begin() as conn:
            conn.execute(s.games.delete())
    yield s
    s.dispose()


def _play(game, n: int) -> None:
    """Make ``n`` decisions with the first legal action, letting the bots move between them."""
    for _ in range(n):
        game.apply(game.legal_actions()[0])
        game.advance("end")


def test_store_default_is_an_sqlite_file_next_to_the_server(tmp_path, monkeypatch):
    monkeypatch.delenv("WARGAMES_STORE_URL", raising=False)
    monkeypatch.setenv("WARGAMES_STORE_DIR", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'wargames-class.sqlite'}"
    monkeypatch.setenv("WARGAMES_STORE_URL", "postgresql+psycopg://class@db/wargames")
    assert default_url().startswith("postgresql")


def test_store_sqlite_runs_in_wal_mode(tmp_path):
    store = GameStore(f"sqlite:///{tmp_path / 'class.sqlite'}")
    g = wargames.load("tet", "historical", seed=3)
    store.put("token:abc", "tet", g, side="Allied")
    with sqlite3.connect(tmp_path / "class.sqlite") as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_reopens_the_same_decision(store):
    g = wargames.load("tet", "historical", seed=5)
    g.set_players({"Allied": None})
    g.advance("end")
    _play(g, 3)
    store.put("name:ann", "tet", g, side="Allied", label="Historical", name="Ann")
    back = store.open("name:ann", "tet")
    assert back.digest() == g.digest() and back.position == g.position
    row = store.get("name:ann", "tet")
    assert (row.side, row.name, row.turn, row.over) == ("Allied", "Ann", g.turn, False)


def test_store_put_replaces_the_students_game_atomically(store):
    g = wargames.load("yotr", "historical", seed=2)
    store.put("token:t1", "yotr", g, side="Allied")
    _play(g, 1)
    store.put("token:t1", "yotr", g, side="Allied")
    rows = store.rows()
    assert len(rows) == 1 and rows[0].save["record"] == [dict(e) for e in g.record]


def test_store_keeps_each_student_and_app_apart(store):
    a, b = wargames.load("tet", seed=1), wargames.load("tet", seed=2)
    store.put("name:ann", "tet", a, side="Allied")
    store.put("name:bob", "tet", b, side="Communist")
    store.put("name:ann", "yotr", wargames.load("yotr", seed=1), side="Allied")
    assert {(r.student, r.app) for r in store.rows()} == {
        ("name:ann", "tet"),
        ("name:bob", "tet"),
        ("name:ann", "yotr"),
    }
    assert store.open("name:bob", "tet").seed == 2
    assert list(store.frame("tet").student) and "save" not in store.frame().columns


def test_store_share_is_kept_when_the_student_saves_again(store):
    g = wargames.load("tet", seed=1)
    store.put("name:ann", "tet", g, side="Allied")
    store.share("name:ann", "tet")
    store.put("name:ann", "tet", g, side="Allied")
    assert store.get("name:ann", "tet").shared
    with pytest.raises(StoreError, match="no stored tet game"):
        store.share("name:zoe", "tet")


def test_store_concurrent_writers_lose_nothing(store):
    """Thirty kernels write at once (threads here, one connection pool): every save lands."""
    g = wargames.load("tet", seed=1)
    errors: list[Exception] = []

    def write(i: int) -> None:
        try:
            store.put(f"token:s{i:02d}", "tet", g, side="Allied")
        except Exception as err:  # pragma: no cover - the assertion below reports it
            errors.append(err)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(store.rows("tet")) == 30


def test_store_missing_game_and_bad_names_are_clear_errors(store):
    with pytest.raises(StoreError, match="no stored fitl game for student 'name:x'"):
        store.open("name:x", "fitl")
    assert student_key("  Ann   LEE ") == "ann lee"
    with pytest.raises(StoreError, match="student name"):
        student_key("<script>")
    with pytest.raises(StoreError, match="student name"):
        student_key("")


def test_store_bad_url_names_the_database_not_its_password():
    with pytest.raises(StoreError) as err:
        GameStore("nosuchdb://teacher:secret@host/db")
    assert "secret" not in str(err.value) and "nosuchdb://teacher:***@host/db" in str(err.value)


def test_store_a_game_opens_for_classmates_only_once_shared(store):
    """Issue #32 item 4: ``open_shared`` (what a student's page uses for another's game) refuses an unshared game;
    ``shared_rows`` lists only what the teacher shared."""
    g = wargames.load("tet", seed=1)
    store.put("token:AAAAAAAAAAAAAAAA", "tet", g, side="Allied", name="Ann")
    store.put("token:BBBBBBBBBBBBBBBB", "tet", g, side="Allied", name="Bo")
    assert store.shared_rows("tet") == []
    with pytest.raises(StoreError, match="not shared with the class"):
        store.open_shared("token:AAAAAAAAAAAAAAAA", "tet")
    with pytest.raises(StoreError, match="not shared with the class"):
        store.open_shared("token:nobody", "tet")
    store.share("token:AAAAAAAAAAAAAAAA", "tet")
    assert [r.name for r in store.shared_rows("tet")] == ["Ann"] and store.shared_rows("yotr") == []
    assert store.open_shared("token:AAAAAAAAAAAAAAAA", "tet").digest() == g.digest()
