"""Database engine, sessions and migrations."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.server.config import async_url, is_postgres
from app.server.paths import ROOT

# lock_not_available, serialization_failure, deadlock_detected
BUSY_SQLSTATES = {"55P03", "40001", "40P01"}


def make_engine(url: str, busy_seconds: float = 30) -> AsyncEngine:
    url = async_url(url)
    if is_postgres(url):
        # Pre-ping: after the database restarts, a pooled connection it dropped is replaced
        # before use instead of failing the request that drew it.
        return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    # Five connections and no more: SQLite takes one writer at a time, and each connection is a
    # thread with its own caches. A burst of 100 tables founded at once opened the fifteen
    # SQLAlchemy allows by default and grew the process 2 MB more than five (docs/PERFORMANCE.md);
    # a request beyond five waits its turn for a connection.
    engine = create_async_engine(url, connect_args={"timeout": busy_seconds}, pool_size=5, max_overflow=0)

    @event.listens_for(engine.sync_engine, "connect")
    def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
        # WAL: readers never block the writer; NORMAL keeps every committed move across a
        # process crash (only an OS crash could lose the last commits).
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cur.close()

    return engine


def is_busy(exc: BaseException) -> bool:
    """A database that could not take the write in time: SQLite's lock held past the busy
    timeout, or PostgreSQL's lock or serialization refusal. Nothing was written; try again."""
    if not isinstance(exc, DBAPIError):
        return False
    text = str(exc.orig).lower()
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return "database is locked" in text or "database table is locked" in text or code in BUSY_SQLSTATES


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)


def migrate(url: str) -> None:
    """Bring the database to the newest schema (what `parlour serve` does first)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["database_url"] = url
    cfg.attributes["configure_logging"] = False
    command.upgrade(cfg, "head")
