"""Is this process ready for players (``GET /readyz``)? Its database answers, and holds the
schema this code was written for.

A database behind this code (its migrations not run yet: a new release's replica that started
before ``parlour migrate``) is not ready: its requests would fail on tables or columns that are
not there yet. A database at a revision this code does not know is taken as one a newer release
has migrated: during a rolling upgrade the old replicas serve on until the new ones replace them
(a release's migrations leave the schema usable by the release before; see the README's
Upgrades), so they stay ready rather than leave the site with none.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.storage.revisions import Revisions

TIMEOUT_SECONDS = 3.0  # a health check's own timeout is a few seconds: answer before it gives up


@dataclass(frozen=True)
class Readiness:
    ready: bool
    detail: dict[str, Any]


async def schema_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one_or_none()


async def readiness(engine: AsyncEngine, revisions: Revisions, timeout: float = TIMEOUT_SECONDS) -> Readiness:
    try:
        async with asyncio.timeout(timeout):
            found = await schema_revision(engine)
    except TimeoutError:
        return Readiness(False, {"status": "not_ready", "reason": f"the database did not answer in {timeout:g} s"})
    except (SQLAlchemyError, OSError) as exc:
        # Unreachable, or no alembic_version table (a database never migrated): either way no
        # schema to serve from. The error's kind only: its text may hold the database's address.
        return Readiness(False, {"status": "not_ready",
                                 "reason": f"the database did not give its schema's revision ({type(exc).__name__})"})
    detail: dict[str, Any] = {"schema": found, "code": revisions.head}
    if found == revisions.head:
        return Readiness(True, {"status": "ready", **detail})
    if found is not None and found not in revisions.known:
        return Readiness(True, {"status": "ready", **detail,
                                "note": "the database is at a revision newer than this code's (a newer release's)"})
    return Readiness(False, {"status": "not_ready", **detail,
                             "reason": "the database is behind this code: run `parlour migrate`"})
