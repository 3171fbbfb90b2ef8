"""The class store: every app game saved after each decision, so that nothing a student did is lost (issue #32).

One row per (student, app): the student's key (an opaque token the app makes, ``?token=...``, 96 random bits,
or the JupyterHub login behind a hub; a name given in the app's link, ``?student=Ann``, is only a label shown to
the teacher and never opens a game), the game's public save (``game.save()``: scenario, seed, options and the
decisions; never pickle) and what a teacher's dashboard shows without replaying it (side, turn, where the game
stands, the result).  Reopening replays the save through the rules (``wargames.open_save``), so a reload, a
crashed kernel or a restarted server brings the student back to the same decision.

The default is an embedded SQLite file next to the server (``wargames-class.sqlite`` in the directory the
server runs in, or ``$WARGAMES_STORE_DIR``), in WAL mode so that thirty kernels write and a dashboard reads at
once; each save is one transaction (an upsert), so a crash leaves the previous save or the new one, never half
of one.  A school server points ``$WARGAMES_STORE_URL`` at any SQLAlchemy database URL, e.g.
``postgresql+psycopg://class@dbhost/wargames``.

    from wargames.store import GameStore
    store = GameStore()                       # the default SQLite file, or $WARGAMES_STORE_URL
    store.put("ann", "tet", game, side="Allied", label="Historical (2 players)")
    game = store.open("ann", "tet")           # replayed to the same decision
    store.rows()                              # every stored game, for the teacher
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core.actions import WargamesError

if TYPE_CHECKING:  # pragma: no cover
    from .core.engine import Game

ENV_URL = "WARGAMES_STORE_URL"
ENV_DIR = "WARGAMES_STORE_DIR"
DEFAULT_FILE = "wargames-class.sqlite"

#: What a student key may be: a name (letters of any script, digits, spaces, ``.-_'``) or a token.
_KEY = re.compile(r"^[\w .'\-]{1,64}$")


class StoreError(WargamesError):
    """The store cannot be used as asked; the message names the database or the key."""


def default_url() -> str:
    """``$WARGAMES_STORE_URL``, else an SQLite file ``wargames-class.sqlite`` in ``$WARGAMES_STORE_DIR`` or the
    current directory (where the class server runs)."""
    url = os.environ.get(ENV_URL, "").strip()
    if url:
        return url
    folder = Path(os.environ.get(ENV_DIR, "") or os.getcwd())
    return f"sqlite:///{(folder / DEFAULT_FILE).resolve()}"


def new_token() -> str:
    """An opaque key for a student's game: 16 random URL-safe characters (96 bits), never derived from a name or a
    counter, so that no one can guess another student's key (issue #32 item 4)."""
    return secrets.token_urlsafe(12)


def student_key(name: str) -> str:
    """The key a student name is stored under: spaces collapsed, case folded (``" Ann  Lee"`` and ``"ann lee"``
    are the same student).  A name that is empty, too long or holds other characters raises StoreError."""
    text = " ".join(str(name).split())
    if not _KEY.match(text):
        raise StoreError(
            f"student name {name!r}: use 1-64 letters, digits, spaces or .-_' (it becomes the key of the saved game)"
        )
    return text.casefold()


@dataclass(frozen=True)
class StoredGame:
    """One stored game, as the dashboard lists it (the save itself is in ``save``)."""

    student: str
    app: str
    name: str
    side: str
    label: str
    scenario: str
    seed: int
    decisions: int
    turn: int
    where: str
    over: bool
    result: str
    winner: str
    shared: bool
    updated: float
    save: dict[str, Any]


class GameStore:
    """The games of a class in one database (SQLAlchemy Core; SQLite by default, PostgreSQL by URL)."""

    def __init__(self, url: str | None = None):
        import sqlalchemy as sa

        self.url = url or default_url()
        kw: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kw["connect_args"] = {"timeout": 30}  # wait for another kernel's write instead of failing
        try:
            self.engine = sa.create_engine(self.url, **kw)
        except Exception as err:  # a bad URL or a missing database driver
            raise StoreError(f"store {self._safe_url()}: {err}") from None
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        meta = sa.MetaData()
        self.games = sa.Table(
            "games",
            meta,
            sa.Column("student", sa.String(80), primary_key=True),
            sa.Column("app", sa.String(20), primary_key=True),
            sa.Column("name", sa.String(80), nullable=False, default=""),
            sa.Column("side", sa.String(40), nullable=False),
            sa.Column("label", sa.String(120), nullable=False, default=""),
            sa.Column("scenario", sa.String(60), nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("decisions", sa.Integer, nullable=False),
            sa.Column("turn", sa.Integer, nullable=False),
            sa.Column("where_", sa.String(200), nullable=False),
            sa.Column("over", sa.Boolean, nullable=False),
            sa.Column("result", sa.String(200), nullable=False, default=""),
            sa.Column("winner", sa.String(40), nullable=False, default=""),
            sa.Column("shared", sa.Boolean, nullable=False, default=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("save", sa.Text, nullable=False),
        )
        try:
            meta.create_all(self.engine)
        except Exception as err:
            raise StoreError(f"store {self._safe_url()}: cannot open or create its table: {err}") from None

    def _safe_url(self) -> str:
        return re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", self.url)  # never print a password

    # ------------------------------------------------------------------ writing
    def put(
        self, student: str, app: str, game: Game, *, side: str, label: str = "", name: str = ""
    ) -> dict[str, Any]:
        """Save ``game`` for ``student`` in ``app`` (one atomic upsert) and return the save written."""
        save = game.save()
        result = game.result.title if getattr(game, "result", None) is not None else ""
        values = {
            "student": student,
            "app": app,
            "name": name,
            "side": side,
            "label": label,
            "scenario": game.scenario_id,
            "seed": int(game.seed),
            "decisions": sum(1 for e in game.record if "act" in e and e.get("by") in ("person", "advisor")),
            "turn": int(game.turn),
            "where_": game.where()[:200],
            "over": bool(game.is_over),
            "result": str(result)[:200],
            "winner": str(game.outcome().get("winner") or "")[:40] if game.is_over else "",
            "updated": time.time(),
            "save": json.dumps(save, separators=(",", ":")),
        }
        self._upsert(values, keep=("shared",))
        return save

    def _upsert(self, values: dict[str, Any], keep: tuple[str, ...] = ()) -> None:
        key = ("student", "app")
        with self.engine.begin() as conn:
            dialect = self.engine.dialect.name
            if dialect in ("sqlite", "postgresql"):
                if dialect == "sqlite":
                    from sqlalchemy.dialects.sqlite import insert
                else:
                    from sqlalchemy.dialects.postgresql import insert
                stmt = insert(self.games).values(**values)
                update = {k: stmt.excluded[k] for k in values if k not in key and k not in keep}
                conn.execute(stmt.on_conflict_do_update(index_elements=list(key), set_=update))
            else:  # any other database: update, else insert, in the same transaction
                t = self.games
                where = (t.c.student == values["student"]) & (t.c.app == values["app"])
                changed = conn.execute(
                    t.update().where(where).values(**{k: v for k, v in values.items() if k not in key})
                ).rowcount
                if not changed:
                    conn.execute(t.insert().values(**values))

    def share(self, student: str, app: str, shared: bool = True) -> None:
        """The teacher shares (or unshares) a student's game with the class (issue #32 item 4)."""
        t = self.games
        with self.engine.begin() as conn:
            n = conn.execute(
                t.update().where((t.c.student == student) & (t.c.app == app)).values(shared=shared)
            ).rowcount
        if not n:
            raise StoreError(f"no stored {app} game for student {student!r}")

    # ------------------------------------------------------------------ reading
    def get(self, student: str, app: str) -> StoredGame | None:
        """The stored game of ``student`` in ``app``, or None."""
        t = self.games
        with self.engine.connect() as conn:
            row = conn.execute(t.select().where((t.c.student == student) & (t.c.app == app))).first()
        return None if row is None else _stored(row)

    def shared_rows(self, app: str) -> list[StoredGame]:
        """The games of ``app`` the teacher shared with the class (``share``), newest first: what a student's page
        may list and open (issue #32 item 4).  An unshared game is never among them."""
        t = self.games
        q = t.select().where((t.c.app == app) & t.c.shared.is_(True)).order_by(t.c.updated.desc())
        with self.engine.connect() as conn:
            return [_stored(r) for r in conn.execute(q)]

    def open_shared(self, student: str, app: str) -> Game:
        """Replay another student's game of ``app`` for a classmate: only if the teacher shared it, else
        StoreError (a student's page never opens a game that is not its own or shared)."""
        from .core.saves import open_save

        row = self.get(student, app)
        if row is None or not row.shared:
            raise StoreError(f"that {app} game is not shared with the class: only the teacher can share it")
        return open_save(row.save)

    def open(self, student: str, app: str) -> Game:
        """Replay the stored game of ``student`` in ``app`` to the decision it was saved at."""
        from .core.saves import open_save

        row = self.get(student, app)
        if row is None:
            raise StoreError(f"no stored {app} game for student {student!r}")
        return open_save(row.save)

    def rows(self, app: str | None = None) -> list[StoredGame]:
        """Every stored game (of one app if given), newest first."""
        t = self.games
        q = t.select().order_by(t.c.updated.desc())
        if app is not None:
            q = q.where(t.c.app == app)
        with self.engine.connect() as conn:
            return [_stored(r) for r in conn.execute(q)]

    def frame(self, app: str | None = None):
        """The stored games as a pandas DataFrame (no saves), for the dashboard."""
        import pandas as pd

        cols = ["student", "name", "app", "side", "label", "seed", "decisions", "turn", "where", "over"]
        cols += ["result", "winner", "shared", "updated"]
        data = [{c: getattr(r, c) for c in cols} for r in self.rows(app)]
        return pd.DataFrame(data, columns=cols)

    def dispose(self) -> None:
        self.engine.dispose()


def _stored(row: Any) -> StoredGame:
    m = row._mapping
    return StoredGame(
        student=m["student"],
        app=m["app"],
        name=m["name"] or "",
        side=m["side"],
        label=m["label"] or "",
        scenario=m["scenario"],
        seed=int(m["seed"]),
        decisions=int(m["decisions"]),
        turn=int(m["turn"]),
        where=m["where_"],
        over=bool(m["over"]),
        result=m["result"] or "",
        winner=m["winner"] or "",
        shared=bool(m["shared"]),
        updated=float(m["updated"]),
        save=json.loads(m["save"]),
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never block the writer, a crash mid-write keeps the last commit), a 30 s wait for a lock
    held by another kernel, and fsync at each checkpoint rather than each commit (safe under WAL)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
