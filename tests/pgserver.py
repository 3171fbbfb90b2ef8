"""A throw-away PostgreSQL server for tests (issue #32: the class store on PostgreSQL, where Debian's packages can be
installed): ``initdb`` in a temporary folder, trust authentication on 127.0.0.1 and a free port, stopped at the end.
As root it runs as the ``postgres`` user (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    hits = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return hits[-1] if hits else None


def available() -> str:
    """Why a server cannot be started here ("" if it can)."""
    if not (_bin("initdb") and _bin("pg_ctl")):
        return "PostgreSQL (initdb, pg_ctl) is not installed"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed"
    return ""


class PgServer:
    """``with PgServer() as url:`` a SQLAlchemy URL of an empty database."""

    def __enter__(self) -> str:
        self.dir = Path(tempfile.mkdtemp(prefix="wargames-pg-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        data = self.dir / "data"
        run = dict(check=True, capture_output=True, timeout=120)
        subprocess.run(
            [*self.prefix, _bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"], **run
        )
        opts = f"-p {self.port} -k {self.dir} -h 127.0.0.1 -c fsync=off"
        subprocess.run(
            [
                *self.prefix,
                _bin("pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-l",
                str(self.dir / "log"),
                "-w",
                "start",
            ],
            **run,
        )
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def __exit__(self, *exc) -> None:
        subprocess.run(
            [*self.prefix, _bin("pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.dir, ignore_errors=True)
