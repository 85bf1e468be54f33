"""Fixtures of the server tests beside the shared ones in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[Any]:
    """The app in-process on SQLite only: for behaviour that does not depend on the database."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(make_settings(sqlite_url)), base_url="http://testserver") as c:
        yield c
