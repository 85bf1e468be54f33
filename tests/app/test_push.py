"""Web Push: a seat that becomes awaited while its page is closed is sent one "your turn",
encrypted for the browser (RFC 8291), signed with the server's VAPID key (made on first start and
kept). A push endpoint runs here, in the test, and the message is decrypted with the
subscription's own keys."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.conftest import make_settings
from tests.support.play import found, join


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushEndpoint:
    """A push service of our own: records each request (headers and encrypted body)."""

    def __init__(self, status: int = 201) -> None:
        received = self.received = []  # type: list[dict[str, Any]]
        self.arrived = threading.Event()
        arrived = self.arrived

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                received.append({"path": self.path, "headers": headers, "body": body})
                self.send_response(status)
                self.end_headers()
                arrived.set()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(json.loads(plain))


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    service = PushEndpoint()
    yield service
    service.close()


@pytest.fixture
def c(sqlite_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = make_settings(sqlite_url, push_allow_http=True, clock_poll_seconds=3600)
    with TestClient(create_app(settings), base_url="http://testserver") as tc:
        yield tc


def two_players(client: Any) -> dict[str, Any]:
    founded = found(client, "Ada")
    bob = join(client, founded["code"], "Bob")
    return {"code": founded["code"], "ada": founded["seat_token"], "bob": bob["seat_token"]}


def settle(client: Any) -> None:
    """Let the pushes the last change started finish."""
    pusher = client.app.state.parlour.pusher

    async def wait() -> None:
        import asyncio

        if pusher._tasks:
            await asyncio.wait(set(pusher._tasks), timeout=20)

    client.portal.call(wait)


def test_the_awaited_seat_with_its_page_closed_is_sent_an_encrypted_your_turn(c: Any, endpoint: PushEndpoint) -> None:
    t = two_players(c)
    key = c.get("/api/push/key").json()["key"]
    assert len(base64.urlsafe_b64decode(key + "==")) == 65  # an uncompressed P-256 point
    browsers = {who: Browser(endpoint.url(f"/push/{who}")) for who in ("ada", "bob")}
    for who, browser in browsers.items():
        r = c.post(f"/api/seats/{t[who]}/push", json=browser.subscription())
        assert r.status_code == 201, r.text
    assert c.post(f"/api/seats/{t['ada']}/start").status_code == 200
    settle(c)
    first = c.get(f"/api/seats/{t['ada']}").json()["awaiting"][0]
    who = "ada" if c.get(f"/api/seats/{t['ada']}").json()["seat"] == first else "bob"
    assert [r["path"] for r in endpoint.received] == [f"/push/{who}"], "only the awaited seat is told"
    sent = endpoint.received[0]
    assert sent["headers"]["content-encoding"] == "aes128gcm"
    assert f"k={key}" in sent["headers"]["authorization"]  # signed with the server's VAPID key
    assert int(sent["headers"]["ttl"]) > 0
    message = browsers[who].decrypt(sent["body"])
    assert message["code"] == t["code"] and message["title"].startswith("Your turn")
    assert message["url"] == f"/?open={t['code']}" and message["seq"] == 0
    assert t[who] not in json.dumps(message), "a seat address never travels through a push service"
    # the other seat plays in turn: now it is told, once
    token = t[who]
    moves = c.get(f"/api/seats/{token}/moves").json()
    c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": moves["moves"][0]})
    settle(c)
    other = "bob" if who == "ada" else "ada"
    assert [r["path"] for r in endpoint.received] == [f"/push/{who}", f"/push/{other}"]
    assert browsers[other].decrypt(endpoint.received[1]["body"])["seq"] == 1
    # asked again for the same turn (another server process noticing it), nothing more is sent
    parlour = c.app.state.parlour
    live = c.portal.call(parlour.live.by_code, t["code"])
    player = next(p for p in live.players if p.seat == live.awaiting[0])
    assert c.portal.call(parlour.pusher.notify, live, player.id, live.seq) == 0
    assert len(endpoint.received) == 2


def test_a_seat_with_its_page_open_is_not_pushed(c: Any, endpoint: PushEndpoint) -> None:
    t = two_players(c)
    for who in ("ada", "bob"):
        c.post(f"/api/seats/{t[who]}/push", json=Browser(endpoint.url(f"/push/{who}")).subscription())
    with c.websocket_connect(f"/ws/seats/{t['ada']}", headers={"origin": "http://testserver"}), \
            c.websocket_connect(f"/ws/seats/{t['bob']}", headers={"origin": "http://testserver"}):
        assert c.post(f"/api/seats/{t['ada']}/start").status_code == 200
        settle(c)
    assert endpoint.received == []


def test_a_subscription_the_push_service_dropped_is_forgotten(c: Any) -> None:
    gone = PushEndpoint(status=410)
    try:
        t = two_players(c)
        for who in ("ada", "bob"):
            c.post(f"/api/seats/{t[who]}/push", json=Browser(gone.url(f"/push/{who}")).subscription())
        c.post(f"/api/seats/{t['ada']}/start")
        settle(c)
        assert len(gone.received) == 1
        from sqlalchemy import func, select

        from app.models import PushSubscription

        async def count() -> int:
            async with c.app.state.parlour.sessions() as s:
                return int(await s.scalar(select(func.count()).select_from(PushSubscription)) or 0)

        assert c.portal.call(count) == 1
    finally:
        gone.close()


@pytest.mark.parametrize("subscription, status", [
    ({"endpoint": "http://push.example/x", "keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": b64(bytes(16))}}, 422),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": "short", "auth": b64(bytes(16))}}, 422),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": "!!"}}, 422),
    ({"endpoint": "https://push.example/x"}, 422),
    ({"endpoint": "https://push.example/" + "x" * 2000, "keys": {}}, 422),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": b64(b"\x04" + bytes(64)), "auth": b64(bytes(16))}}, 201),
])
def test_a_malformed_subscription_is_refused(c: Any, subscription: dict[str, Any], status: int) -> None:
    t = two_players(c)
    r = c.post(f"/api/seats/{t['ada']}/push", json=subscription)
    assert r.status_code == status, r.text
    assert c.post("/api/seats/unknown-token-123/push", json=subscription).status_code == 404


def test_the_vapid_key_is_made_once_and_kept(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    keys = []
    for _ in range(2):  # a restart: the same key, read from the database
        with TestClient(create_app(make_settings(sqlite_url)), base_url="http://testserver") as tc:
            keys.append(tc.get("/api/push/key").json()["key"])
    assert keys[0] == keys[1] and keys[0]


def test_forgetting_a_subscription(c: Any, endpoint: PushEndpoint) -> None:
    t = two_players(c)
    browser = Browser(endpoint.url("/push/ada"))
    c.post(f"/api/seats/{t['ada']}/push", json=browser.subscription())
    r = c.post(f"/api/seats/{t['ada']}/push/forget", json={"endpoint": browser.endpoint})
    assert r.json() == {"forgotten": True}
    again = c.post(f"/api/seats/{t['ada']}/push/forget", json={"endpoint": browser.endpoint})
    assert again.json() == {"forgotten": False}
