"""Web Push: a seat that becomes awaited while its page is closed is sent one "your turn",
encrypted for the browser (RFC 8291), signed with the server's VAPID key (made on first start and
kept). A push service runs here, in the test, over TLS on loopback (PUSH_TEST_PORT opens its one
port, PUSH_CA_FILE trusts its certificate), and the message is decrypted with the subscription's
own keys. Where pushes may not go: tests/app/test_push_egress.py."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings
from tests.support.push_service import Browser, Certs, PushService, b64, settle, stored_subscriptions, two_players


@pytest.fixture
def c(db_url: str, service: PushService, certs: Certs) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = make_settings(db_url, push_test_port=service.port, push_ca_file=str(certs.ca),
                             clock_poll_seconds=3600)
    with TestClient(create_app(settings), base_url="http://testserver") as tc:
        yield tc


def test_the_awaited_seat_with_its_page_closed_is_sent_an_encrypted_your_turn(c: Any, service: PushService) -> None:
    t = two_players(c)
    key = c.get("/api/push/key").json()["key"]
    assert len(base64.urlsafe_b64decode(key + "==")) == 65  # an uncompressed P-256 point
    browsers = {who: Browser(service.url(f"/push/{who}")) for who in ("ada", "bob")}
    for who, browser in browsers.items():
        r = c.post(f"/api/seats/{t[who]}/push", json=browser.subscription())
        assert r.status_code == 201, r.text
    assert c.post(f"/api/seats/{t['ada']}/start").status_code == 200
    settle(c)
    first = c.get(f"/api/seats/{t['ada']}").json()["awaiting"][0]
    who = "ada" if c.get(f"/api/seats/{t['ada']}").json()["seat"] == first else "bob"
    assert [r["path"] for r in service.received] == [f"/push/{who}"], "only the awaited seat is told"
    sent = service.received[0]
    assert sent["method"] == "POST" and sent["headers"]["content-encoding"] == "aes128gcm"
    assert f"k={key}" in sent["headers"]["authorization"]  # signed with the server's VAPID key
    assert int(sent["headers"]["ttl"]) > 0
    assert sent["headers"]["host"] == f"localhost:{service.port}"
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
    assert [r["path"] for r in service.received] == [f"/push/{who}", f"/push/{other}"]
    assert browsers[other].decrypt(service.received[1]["body"])["seq"] == 1
    # asked again for the same turn (another server process noticing it), nothing more is sent
    parlour = c.app.state.parlour
    live = c.portal.call(parlour.tables.by_code, t["code"])
    player = next(p for p in live.players if p.seat == live.awaiting[0])
    assert c.portal.call(parlour.pusher.notify, live, player.id, live.seq) == 0
    settle(c)
    assert len(service.received) == 2
    assert parlour.pusher.stats()["sent"] == 2


def test_a_seat_with_its_page_open_is_not_pushed(c: Any, service: PushService) -> None:
    t = two_players(c)
    for who in ("ada", "bob"):
        c.post(f"/api/seats/{t[who]}/push", json=Browser(service.url(f"/push/{who}")).subscription())
    with c.websocket_connect(f"/ws/seats/{t['ada']}", headers={"origin": "http://testserver"}) as ada, \
            c.websocket_connect(f"/ws/seats/{t['bob']}", headers={"origin": "http://testserver"}) as bob:
        for ws in (ada, bob):  # the table's summary: the socket has joined the table, its seat counts as here
            assert ws.receive_json()["type"] == "table"
        assert c.post(f"/api/seats/{t['ada']}/start").status_code == 200
        settle(c)
    assert service.received == []


@pytest.mark.parametrize("path", ["/gone", "/unknown"])
def test_a_subscription_the_push_service_answers_gone_or_unknown_is_forgotten(
        c: Any, service: PushService, path: str) -> None:
    t = two_players(c)
    for who in ("ada", "bob"):
        c.post(f"/api/seats/{t[who]}/push", json=Browser(service.url(f"{path}/{who}")).subscription())
    c.post(f"/api/seats/{t['ada']}/start")
    settle(c)
    assert len(service.received) == 1
    assert stored_subscriptions(c) == 1  # the awaited seat's one is gone, the other's kept
    assert c.app.state.parlour.pusher.stats()["forgotten"] == 1


B64_POINT, B64_AUTH = b64(b"\x04" + bytes(64)), b64(bytes(16))


@pytest.mark.parametrize("subscription, status", [
    ({"endpoint": "http://fcm.googleapis.com/x", "keys": {"p256dh": B64_POINT, "auth": B64_AUTH}}, 422),
    ({"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": "short", "auth": B64_AUTH}}, 422),
    ({"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": B64_POINT, "auth": "!!"}}, 422),
    ({"endpoint": "https://fcm.googleapis.com/x"}, 422),
    ({"endpoint": "https://fcm.googleapis.com/" + "x" * 2000, "keys": {}}, 422),
    ({"endpoint": ["https://fcm.googleapis.com/x"], "keys": {"p256dh": B64_POINT, "auth": B64_AUTH}}, 422),
    ({"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": B64_POINT, "auth": B64_AUTH}}, 201),
])
def test_a_malformed_subscription_is_refused(c: Any, subscription: dict[str, Any], status: int) -> None:
    t = two_players(c)
    r = c.post(f"/api/seats/{t['ada']}/push", json=subscription)
    assert r.status_code == status, r.text
    assert c.post("/api/seats/unknown-token-123/push", json=subscription).status_code == 404


def test_the_vapid_key_is_made_once_and_kept(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    keys = []
    for _ in range(2):  # a restart: the same key, read from the database
        with TestClient(create_app(make_settings(db_url)), base_url="http://testserver") as tc:
            keys.append(tc.get("/api/push/key").json()["key"])
    assert keys[0] == keys[1] and keys[0]


def test_forgetting_a_subscription(c: Any, service: PushService) -> None:
    t = two_players(c)
    browser = Browser(service.url("/push/ada"))
    c.post(f"/api/seats/{t['ada']}/push", json=browser.subscription())
    r = c.post(f"/api/seats/{t['ada']}/push/forget", json={"endpoint": browser.endpoint})
    assert r.json() == {"forgotten": True}
    again = c.post(f"/api/seats/{t['ada']}/push/forget", json={"endpoint": browser.endpoint})
    assert again.json() == {"forgotten": False}


def test_an_endpoint_with_a_nul_character_is_refused_to_subscribe_and_to_forget(c: Any, service: PushService) -> None:
    t = two_players(c)
    endpoint = service.url("/push/ada") + "\x00"
    r = c.post(f"/api/seats/{t['ada']}/push", json=Browser(endpoint).subscription())
    assert r.status_code == 422 and "NUL" in r.json()["message"], r.text
    r = c.post(f"/api/seats/{t['ada']}/push/forget", json={"endpoint": endpoint})
    assert r.status_code == 422, r.text
    assert stored_subscriptions(c) == 0

