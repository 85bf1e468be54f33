"""`parlour backup PATH` and `parlour restore PATH`: a copy of the database taken while the
server runs, and that copy put back.

SQLite: SQLite's online backup API, in one step, so the copy is the database as one read
transaction saw it (in WAL mode the server's writes go on meanwhile; a copy in several steps
would start over at each write from another connection, and might never end under load). The
copy is a plain SQLite file (rollback journal, no -wal beside it), written beside PATH and
renamed into place, so PATH is never half a backup.

PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot) and ``pg_restore``, found on
the PATH or under /usr/lib/postgresql/*/bin; without them the host runs the same commands
where they are (the README's Backups).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import MetaData, create_engine, inspect, text
from sqlalchemy.engine import URL, make_url

from app.server.config import async_url, is_postgres, sync_url

GAMES_TABLE = "tables"  # Parlour's table of tables: a database with a row in it holds games


class BackupError(Exception):
    """What went wrong, said to the host (the command exits 1)."""


class Refused(BackupError):
    """Not done, to keep something from being overwritten (the command exits 2)."""


@dataclass(frozen=True)
class Done:
    path: Path
    seconds: float
    games: int | None  # the tables in the copy (None: not counted)
    moves: int | None

    def describe(self, verb: str) -> str:
        size = self.path.stat().st_size
        shown = f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size / 2**10:.0f} KB"
        held = f"{self.games} tables, {self.moves} moves; " if self.games is not None else ""
        return f"{verb} {self.path} ({held}{shown}) in {self.seconds:.2f} s"


def backup(url: str, dest: Path, force: bool = False) -> Done:
    dest = dest.resolve()
    if dest.exists() and not force:
        raise Refused(f"{dest} exists already: name a new file, or pass --force to replace it")
    if not dest.parent.is_dir():
        raise BackupError(f"the folder {dest.parent} does not exist")
    started = time.perf_counter()
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        if is_postgres(url):
            _pg_dump(url, part)
            games = moves = None
        else:
            source = sqlite_path(url)
            if not source.exists():
                raise BackupError(f"there is no database at {source}")
            if source == dest:
                raise Refused("the backup would overwrite the database itself: name another file")
            _sqlite_copy(source, part)
            games, moves = _sqlite_counts(part)
        _fsync(part)
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)
    return Done(dest, time.perf_counter() - started, games, moves)


def restore(url: str, source: Path, force: bool = False) -> Done:
    """Put a backup in place of the database (which must hold no games, unless ``force``).
    Stop the server first: a running server keeps its tables in memory and would not see it."""
    source = source.resolve()
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    started = time.perf_counter()
    held = games_held(url)
    if held and not force:
        raise Refused(f"the database holds {held} tables already: restore into an empty database, or pass "
                      "--force to replace everything in it with the backup")
    if is_postgres(url):
        _pg_restore(url, source, wipe=held is not None)
        games, moves = _pg_counts(url)
    else:
        target = sqlite_path(url)
        if target == source:
            raise Refused("the backup is the database itself")
        _sqlite_check(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(source, target)
        games, moves = _sqlite_counts(target)
    return Done(source, time.perf_counter() - started, games, moves)


def games_held(url: str) -> int | None:
    """How many tables (games) the database holds: None when it has no tables of any kind,
    0 when it has Parlour's schema and no game. Any other table makes it not empty."""
    if not is_postgres(url) and not sqlite_path(url).exists():
        return None  # not even made (connecting would make it)
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names())
            if not names:
                return None
            if GAMES_TABLE not in names:
                return len(names)  # tables of something else: never overwritten unasked
            return int(conn.execute(text(f"SELECT count(*) FROM {GAMES_TABLE}")).scalar_one())
    finally:
        engine.dispose()


# -- SQLite -------------------------------------------------------------------------------------

def sqlite_path(url: str) -> Path:
    name = make_url(async_url(url)).database
    if not name or name == ":memory:":
        raise BackupError("the database is in memory: there is nothing to back up")
    return Path(name).resolve()


def _sqlite_copy(source: Path, target: Path) -> None:
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst, pages=-1)  # one step: one consistent read, whatever is written meanwhile
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file (the server sets WAL again)
            ok = dst.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise BackupError(f"the copy failed SQLite's check: {ok}")
        finally:
            dst.close()
    finally:
        src.close()


def _sqlite_check(path: Path) -> None:
    """A backup to restore: a sound SQLite file with Parlour's schema."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(f"{path} fails SQLite's check")
            conn.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a Parlour database backup ({exc})") from None


def _sqlite_counts(path: Path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT count(*) FROM tables").fetchone()[0],
                conn.execute("SELECT count(*) FROM moves").fetchone()[0])
    finally:
        conn.close()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- PostgreSQL ---------------------------------------------------------------------------------

def pg_tool(name: str) -> str | None:
    """``pg_dump`` or ``pg_restore``: on the PATH, else the newest under Debian's
    /usr/lib/postgresql/VERSION/bin (a pg_dump refuses a server newer than itself)."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                        key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parts[-3].split(".")])
    return str(candidates[-1]) if candidates else None


def libpq(url: str) -> tuple[str, dict[str, str]]:
    """The database URL as libpq reads it, and the environment that carries its password
    (never on a command line, where any user of the machine could read it)."""
    parsed: URL = make_url(sync_url(url))
    env = {**os.environ}
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    plain = URL.create("postgresql", username=parsed.username, host=parsed.host, port=parsed.port,
                       database=parsed.database, query=parsed.query)
    return plain.render_as_string(hide_password=False), env


def _run_tool(name: str, args: list[str], env: dict[str, str]) -> None:
    tool = pg_tool(name)
    if tool is None:
        raise BackupError(f"{name} is not installed here: install PostgreSQL's client tools (the same major "
                          f"version as the server, or newer), or run {name} where they are (README: Backups)")
    done = subprocess.run([tool, *args], env=env, capture_output=True, text=True)
    if done.returncode:
        raise BackupError(f"{name} failed: {done.stderr.strip()[-2000:]}")


def _pg_dump(url: str, part: Path) -> None:
    conninfo, env = libpq(url)
    _run_tool("pg_dump", ["--format=custom", f"--file={part}", f"--dbname={conninfo}"], env)


def _pg_restore(url: str, source: Path, wipe: bool) -> None:
    conninfo, env = libpq(url)
    if wipe:
        _drop_all_tables(url)
    # Ownership and grants as the restoring user's: the backup may come from another role.
    _run_tool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
                             f"--dbname={conninfo}", str(source)], env)


def _pg_counts(url: str) -> tuple[int, int]:
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            return (int(conn.execute(text("SELECT count(*) FROM tables")).scalar_one()),
                    int(conn.execute(text("SELECT count(*) FROM moves")).scalar_one()))
    finally:
        engine.dispose()


def _drop_all_tables(url: str) -> None:
    """Everything ``--force`` replaces: every table of the database's schema (their sequences
    and indexes go with them), so the backup's tables are restored into none of their own."""
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as conn:
            found = MetaData()
            found.reflect(conn)
            found.drop_all(conn)
    finally:
        engine.dispose()
