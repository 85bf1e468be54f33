"""The server's own figures (GET /api/stats, POST /api/stats/reset) are for its host: asked from
its own machine through no proxy, or, when STATS_TOKEN is set, with that token and only so.

Each request here says who it comes from: it is sent in-process (httpx's ASGITransport on the
app's own loop) with an explicit client address. Starlette's TestClient reports "testclient",
which is no address, so it is a stranger too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import make_settings

HOST_ONLY = ("/api/stats", "/api/stats/reset")


def make_client(url: str, **over: Any) -> Any:
    from fastapi.testclient import TestClient

    from app.main import create_app

    return TestClient(create_app(make_settings(url, **over)), base_url="http://testserver")


@pytest.fixture
def c(sqlite_url: str) -> Iterator[Any]:
    with make_client(sqlite_url) as tc:
        yield tc


@pytest.fixture
def with_token(sqlite_url: str) -> Iterator[Any]:
    with make_client(sqlite_url, stats_token="s3cret-figures") as tc:
        yield tc


def ask(client: Any, path: str, peer: str, headers: dict[str, str] | None = None) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=client.app, client=(peer, 50000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as ac:
            method = "POST" if path.endswith("/reset") else "GET"
            return await ac.request(method, path, headers=headers)

    return client.portal.call(send)  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", HOST_ONLY)
@pytest.mark.parametrize("peer", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_the_servers_own_machine_is_answered(c: Any, path: str, peer: str) -> None:
    r = ask(c, path, peer)
    assert r.status_code == 200, r.text
    if path == "/api/stats":
        assert set(r.json()["pushes"]) >= {"sent", "failed", "refused", "dropped", "forgotten"}


@pytest.mark.parametrize("path", HOST_ONLY)
@pytest.mark.parametrize("peer", ["203.0.113.7", "10.0.0.5", "192.168.1.20", "::ffff:8.8.8.8", "testclient"])
def test_any_other_address_is_refused_and_learns_nothing(c: Any, path: str, peer: str) -> None:
    r = ask(c, path, peer)
    assert r.status_code == 403, r.text
    assert "pushes" not in r.text and "sent" not in r.text


def test_the_in_process_test_client_is_a_stranger(c: Any) -> None:
    assert c.get("/api/stats").status_code == 403
    assert c.post("/api/stats/reset").status_code == 403


@pytest.mark.parametrize("header", [
    {"X-Forwarded-For": "127.0.0.1"}, {"X-Forwarded-For": "203.0.113.7"}, {"Forwarded": "for=127.0.0.1"},
    {"X-Real-IP": "127.0.0.1"}, {"X-Forwarded-Proto": "https"}, {"X-Forwarded-Host": "parlour.example"},
])
def test_a_request_through_a_proxy_is_not_the_machines_own_whatever_it_says(c: Any, header: dict[str, str]) -> None:
    """Behind a reverse proxy on the same machine every request comes from loopback; one that
    carries a forwarding header came through it, from anyone."""
    assert ask(c, "/api/stats", "127.0.0.1", header).status_code == 403
    assert ask(c, "/api/stats/reset", "127.0.0.1", header).status_code == 403


@pytest.mark.parametrize("path", HOST_ONLY)
def test_with_a_stats_token_only_its_bearer_is_answered_wherever_from(with_token: Any, path: str) -> None:
    right = {"Authorization": "Bearer s3cret-figures"}
    assert ask(with_token, path, "203.0.113.7", right).status_code == 200
    assert ask(with_token, path, "127.0.0.1", {**right, "X-Forwarded-For": "203.0.113.7"}).status_code == 200
    assert ask(with_token, path, "127.0.0.1").status_code == 403  # the proxy's loopback is not enough
    for wrong in ({"Authorization": "Bearer s3cret-figure"}, {"Authorization": "Bearer "},
                  {"Authorization": "Basic s3cret-figures"}, {"Authorization": "s3cret-figures"},
                  {"X-Stats-Token": "s3cret-figures"}):
        assert ask(with_token, path, "127.0.0.1", wrong).status_code == 403, wrong
