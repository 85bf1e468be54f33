"""`parlour migrate` run by several replicas at once on a fresh PostgreSQL: they take turns
(migrations/env.py's advisory lock), one migrates and the others find it done."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.storage.revisions import revisions
from tests.conftest import reset_postgres
from tests.support.server import ROOT


@pytest.mark.pg
def test_replicas_migrating_at_once_all_succeed(postgres_server: str) -> None:
    from sqlalchemy import create_engine, text

    from app.server.config import sync_url

    reset_postgres(postgres_server)
    env = {**os.environ, "DATABASE_URL": postgres_server}
    started = [subprocess.Popen([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=env,
                                stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for p in started:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
    engine = create_engine(sync_url(postgres_server))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [revisions().head]
    engine.dispose()
