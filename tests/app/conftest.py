"""Fixtures of the server tests beside the shared ones in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings
from tests.support.push_service import Certs, PushService, make_certs


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[Any]:
    """The app in-process on SQLite only: for behaviour that does not depend on the database."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(make_settings(sqlite_url)), base_url="http://testserver") as c:
        yield c


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """A test certificate authority and a loopback certificate signed by it, for push services."""
    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def service(certs: Certs) -> Iterator[PushService]:
    """A real push service over TLS on loopback, recording what it is sent."""
    listener = PushService(certs)
    yield listener
    listener.close()
