"""The database away (restarting, unreachable, refusing connections while it starts or stops):
what a request that met it is answered. Nothing it began was stored (its transaction never
committed), so it is safe to send again; the pool and the listener reconnect by themselves."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

RETRY_AFTER_SECONDS = 2
ANSWER = {"error": "database_unavailable",
          "message": "The server cannot reach its database just now; nothing was changed. Try again in a moment."}


def database_unavailable(exc: BaseException) -> bool:
    """PostgreSQL's OperationalError is the family of a lost or refused connection (and of a
    server starting up or shutting down); the wrong SQL or data has other classes. SQLite's
    OperationalError also names schema mistakes, so for SQLite only a dropped connection counts."""
    import psycopg

    if isinstance(exc, DBAPIError):
        return bool(exc.connection_invalidated) or isinstance(exc.orig, psycopg.OperationalError)
    return isinstance(exc, psycopg.OperationalError)
