"""GET /readyz: 200 when the database answers at this code's schema (or a newer release's),
503 with the reason when it is behind, never migrated, or does not answer. GET /healthz only
says the process is alive."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app.server.config import sync_url
from app.storage.db import make_engine
from app.storage.readiness import readiness
from app.storage.revisions import revisions
from tests.conftest import make_settings
from tests.support.server import free_port


def sql(url: str, statement: str) -> None:
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        conn.execute(text(statement))
    engine.dispose()


@pytest.fixture
def app_on(db_url: str) -> Iterator[tuple[Any, str]]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(make_settings(db_url)), base_url="http://testserver") as c:
        yield c, db_url


def test_ready_when_the_database_is_at_this_codes_schema(app_on: tuple[Any, str]) -> None:
    c, _ = app_on
    r = c.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"status": "ready", "schema": revisions().head, "code": revisions().head}


def test_not_ready_while_the_database_is_behind_this_code(app_on: tuple[Any, str]) -> None:
    c, url = app_on
    sql(url, "UPDATE alembic_version SET version_num = '0004_private_chats'")  # as before the last migration
    r = c.get("/readyz")
    assert r.status_code == 503
    assert r.json()["schema"] == "0004_private_chats" and "parlour migrate" in r.json()["reason"]
    sql(url, f"UPDATE alembic_version SET version_num = '{revisions().head}'")
    assert c.get("/readyz").status_code == 200


def test_not_ready_on_a_database_never_migrated(app_on: tuple[Any, str]) -> None:
    c, url = app_on
    sql(url, "DROP TABLE alembic_version")
    r = c.get("/readyz")
    assert r.status_code == 503 and r.json()["status"] == "not_ready"


def test_ready_on_a_database_a_newer_release_migrated(app_on: tuple[Any, str]) -> None:
    """A rolling upgrade: the new release migrated, the old replicas serve on until replaced."""
    c, url = app_on
    sql(url, "UPDATE alembic_version SET version_num = '9999_from_a_newer_release'")
    r = c.get("/readyz")
    assert r.status_code == 200 and "newer" in r.json()["note"]


def test_alive_whatever_the_database_says(app_on: tuple[Any, str]) -> None:
    c, url = app_on
    sql(url, "DROP TABLE alembic_version")
    assert c.get("/healthz").json() == {"status": "ok"}


def test_not_ready_when_the_database_refuses_connections() -> None:
    engine = make_engine(f"postgresql+psycopg://parlour@127.0.0.1:{free_port()}/parlour")

    async def ask() -> Any:
        try:
            return await readiness(engine, revisions())
        finally:
            await engine.dispose()

    found = asyncio.run(ask())
    assert not found.ready and "OperationalError" in found.detail["reason"]


def test_not_ready_when_the_database_does_not_answer_in_time() -> None:
    with socket.socket() as silent:  # accepts connections (the kernel does), never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        engine = make_engine(f"postgresql+psycopg://parlour@127.0.0.1:{silent.getsockname()[1]}/parlour")

        async def ask() -> Any:
            try:
                return await readiness(engine, revisions(), timeout=0.5)
            finally:
                await engine.dispose()

        found = asyncio.run(ask())
    assert not found.ready and "did not answer in 0.5 s" in found.detail["reason"]


def test_the_revisions_read_from_the_migration_files_are_alembics() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from app.server.paths import ROOT

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    script = ScriptDirectory.from_config(cfg)
    assert [revisions().head] == script.get_heads()
    assert revisions().known == {s.revision for s in script.walk_revisions()}
