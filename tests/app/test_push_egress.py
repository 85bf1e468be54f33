"""Web Push never makes the server a way into its own network (issue #25).

A push endpoint is given by any player, and the server connects to it by itself when their turn
comes. By default only the push services of today's browsers are accepted, over https on port
443, in a form every URL parser reads alike; before connecting, the name is resolved once and
every address must be public unicast, and the connection goes to the checked address; a redirect
is never followed; a push that hangs gives up in seconds and holds no thread of the event loop's
default pool. The real TLS listeners are tests/support/push_service.py's."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from ipaddress import ip_address
from typing import Any

import pytest

from app.features.push_client import CONNECT_SECONDS, READ_SECONDS
from app.features.push_policy import IPAddress, PushPolicy, public_unicast
from app.storage.models import PushSubscription
from app.storage.tokens import hash_token
from tests.conftest import make_settings
from tests.support.play import found, join
from tests.support.push_service import (
    Browser,
    Certs,
    Listener,
    PushService,
    settle,
    stored_subscriptions,
    two_players,
)


@pytest.fixture
def inside() -> Iterator[Listener]:
    """A plain-http service inside the network (a database, an admin page): never to be reached."""
    listener = Listener()
    yield listener
    listener.close()


@pytest.fixture
def app_factory(db_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    opened: list[Any] = []

    def make(**over: Any) -> Any:
        client = TestClient(create_app(make_settings(db_url, clock_poll_seconds=3600, **over)),
                            base_url="http://testserver")
        opened.append(client.__enter__())
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


def reaching(service: PushService, certs: Certs, **over: Any) -> dict[str, Any]:
    """The settings that let pushes reach the test's push service (its port, its authority)."""
    return {"push_test_port": service.port, "push_ca_file": str(certs.ca), **over}


def subscribe(client: Any, token: str, endpoint: str) -> int:
    return int(client.post(f"/api/seats/{token}/push", json=Browser(endpoint).subscription()).status_code)


def store_directly(client: Any, token: str, endpoint: str) -> None:
    """A subscription stored without today's checks (before them, or by another version)."""
    parlour = client.app.state.parlour
    browser = Browser(endpoint).subscription()

    async def add() -> None:
        seat = await parlour.tables.by_token_hash(hash_token(token))
        assert seat is not None
        player = seat[1]
        async with parlour.sessions() as s, s.begin():
            s.add(PushSubscription(player_id=player.id, endpoint=endpoint, p256dh=browser["keys"]["p256dh"],
                                   auth=browser["keys"]["auth"], last_seq=-1))

    client.portal.call(add)


def pushes(client: Any) -> dict[str, int]:
    return dict(client.app.state.parlour.pusher.stats())


# -- where an endpoint may be ----------------------------------------------------------------

INSIDE = [
    "https://169.254.169.254/latest/meta-data/",  # a cloud's metadata service
    "https://10.0.0.1:6379/",
    "https://[::1]:22/",
    "https://localhost:5432/",
    "https://127.0.0.1:8080/",
    "https://127.0.0.1/",
    "https://localhost/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",  # 169.254.169.254, IPv4-mapped
    "https://[2002:7f00:1::1]/",  # 127.0.0.1, 6to4
    "https://[fd00::1]/",
    "https://[fe80::1]/",
    "https://100.64.0.1/",  # carrier-grade NAT
    "https://2130706433/",  # 127.0.0.1 as one number
    "https://0x7f.1/",
    "https://127.1/",
    "https://0.0.0.0/",
    "https://224.0.0.1/",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://redis/",
]
TRICKS = [
    "http://fcm.googleapis.com/fcm/send/x",  # plain http
    "http://vm\\@127.0.0.1/trick",  # read as host "vm" by one parser, 127.0.0.1 by another
    "https://vm\\@127.0.0.1/trick",
    "https://fcm.googleapis.com\\@127.0.0.1/",
    "https://user@fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com@127.0.0.1/",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://fcm.googleapis.com:80/fcm/send/x",
    "https://fcm.googleapis.com.evil.example/fcm/send/x",
    "https://evilfcm.googleapis.com.example/x",
    "https://notfcm.googleapis.com/x",
    "https://evil.example/#@fcm.googleapis.com/",
    "https://evil.example?@fcm.googleapis.com/",
    "https://fcm%2egoogleapis.com/x",
    "https://fcm.googleapis.com./fcm/send/x",
    "https://fcm.googleapis.com/fcm/send/x\x00",
    "https://fcm.googleapis.com/fcm/send/\u00e9",
    "https://fcm.googleapis.com/fcm send/x",
    "https:fcm.googleapis.com/fcm/send/x",
    "HTTPS://fcm.googleapis.com/fcm/send/x",
    "ftp://fcm.googleapis.com/x",
]
BROWSERS = [
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b",  # Chrome, Edge, Opera, Samsung Internet
    "https://fcm.googleapis.com/wp/dGVzdA",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",  # Firefox
    "https://web.push.apple.com/QGEh5oTNbB8vNcgY",  # Safari
    "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB",  # legacy Edge
]


def test_by_default_an_endpoint_off_the_browsers_push_services_is_refused(app_factory: Any) -> None:
    c = app_factory()
    t = two_players(c)
    accepted = [e for e in INSIDE + TRICKS if subscribe(c, t["ada"], e) != 422]
    assert accepted == [], "these endpoints should have been refused"
    assert stored_subscriptions(c) == 0


def test_the_push_services_of_todays_browsers_are_accepted_by_default(app_factory: Any) -> None:
    c = app_factory()
    t = two_players(c)
    assert [subscribe(c, t["ada"], e) for e in BROWSERS] == [201] * len(BROWSERS)


def test_push_services_names_the_host_suffixes_endpoints_may_be_on(app_factory: Any) -> None:
    c = app_factory(push_services=("push.example.org",))
    t = two_players(c)
    assert subscribe(c, t["ada"], "https://eu.push.example.org/x") == 201
    assert subscribe(c, t["ada"], "https://push.example.org/x") == 201
    assert subscribe(c, t["ada"], "https://fcm.googleapis.com/fcm/send/x") == 422  # the list replaces the default
    assert subscribe(c, t["ada"], "https://badpush.example.org/x") == 422


def test_the_test_port_setting_opens_that_one_loopback_port_and_nothing_else(
        app_factory: Any, service: PushService, certs: Certs) -> None:
    c = app_factory(**reaching(service, certs))
    t = two_players(c)
    port = service.port
    assert subscribe(c, t["ada"], f"https://localhost:{port}/push/a") == 201
    assert subscribe(c, t["ada"], f"https://127.0.0.1:{port}/push/b") == 201
    assert subscribe(c, t["ada"], f"https://[::1]:{port}/push/c") == 201
    for refused in (f"https://127.0.0.1:{port + 1}/", "https://localhost/", f"http://127.0.0.1:{port}/",
                    f"http://vm\\@127.0.0.1:{port}/trick", f"https://vm\\@127.0.0.1:{port}/trick",
                    f"https://vm@127.0.0.1:{port}/trick", f"https://10.0.0.1:{port}/",
                    f"https://169.254.169.254:{port}/"):
        assert subscribe(c, t["ada"], refused) == 422, refused


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.0.1", "192.0.2.1", "198.18.0.1",
    "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "fec0::1", "ff02::1", "ff0e::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
    "2002:7f00:1::1", "2002:a00:1::", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::808:808", "2001:db8::1", "100::1",
])
def test_an_address_that_is_not_public_unicast_is_refused(address: str) -> None:
    ip: IPAddress = ip_address(address)
    assert not public_unicast(ip)
    assert not PushPolicy().address_allowed(ip, 443)


@pytest.mark.parametrize("address", ["8.8.8.8", "142.250.74.42", "2a00:1450:4001:82f::200a",
                                     "2606:4700::6810:84e5", "64:ff9b::808:808", "::ffff:8.8.8.8"])
def test_a_public_unicast_address_is_allowed(address: str) -> None:
    assert PushPolicy().address_allowed(ip_address(address), 443)


def test_the_test_port_allows_loopback_at_that_port_only() -> None:
    policy = PushPolicy(test_port=4443)
    assert policy.address_allowed(ip_address("127.0.0.1"), 4443)
    assert policy.address_allowed(ip_address("::1"), 4443)
    assert not policy.address_allowed(ip_address("127.0.0.1"), 443)
    assert not policy.address_allowed(ip_address("10.0.0.1"), 4443)
    assert not PushPolicy().address_allowed(ip_address("127.0.0.1"), 0)


# -- sending: the address is checked, and is the one connected to ----------------------------

def test_a_stored_endpoint_inside_the_network_is_refused_when_sending(
        app_factory: Any, service: PushService, inside: Listener, caplog: pytest.LogCaptureFixture) -> None:
    """Stored before the rules (or the rules changed): sending checks again, and connects nowhere."""
    c = app_factory()
    t = two_players(c)
    for who in ("ada", "bob"):
        store_directly(c, t[who], f"http://127.0.0.1:{inside.port}/{who}")
        store_directly(c, t[who], f"https://127.0.0.1:{service.port}/push/{who}")
        store_directly(c, t[who], f"https://localhost:{service.port}/push/{who}")
        store_directly(c, t[who], "https://169.254.169.254/latest/meta-data/")
    with caplog.at_level(logging.WARNING, logger="parlour.push"):
        assert c.post(f"/api/seats/{t['ada']}/start").status_code == 200
        settle(c)
    assert inside.received == [] and service.received == []
    assert pushes(c)["refused"] == 4 and pushes(c)["sent"] == 0
    assert sum("was refused" in r.getMessage() for r in caplog.records) == 4


def test_a_push_service_name_that_resolves_inside_is_refused_before_connecting(
        app_factory: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A listed name whose DNS answer is loopback (here the real resolver's "localhost")."""
    c = app_factory(push_services=("localhost",))
    t = two_players(c)
    for who in ("ada", "bob"):
        assert subscribe(c, t[who], f"https://localhost/{who}") == 201  # a listed name: its address is checked later
    with caplog.at_level(logging.WARNING, logger="parlour.push"):
        c.post(f"/api/seats/{t['ada']}/start")
        settle(c)
    assert (pushes(c)["refused"], pushes(c)["failed"], pushes(c)["sent"]) == (1, 0, 0)
    assert any("resolves to" in r.getMessage() and "not a public address" in r.getMessage() for r in caplog.records)


def test_a_name_with_any_inside_address_is_refused_whole(app_factory: Any) -> None:
    c = app_factory(push_services=("push.test",))
    asked: list[str] = []

    async def lookup(host: str, port: int) -> list[IPAddress]:
        asked.append(host)
        return [ip_address("8.8.8.8"), ip_address("10.0.0.1")]

    c.app.state.parlour.pusher.client.lookup = lookup
    t = two_players(c)
    for who in ("ada", "bob"):
        assert subscribe(c, t[who], f"https://push.test/{who}") == 201
    c.post(f"/api/seats/{t['ada']}/start")
    settle(c)
    assert asked == ["push.test"] and pushes(c)["refused"] == 1 and pushes(c)["failed"] == 0


def test_the_connection_goes_to_the_checked_address_and_tls_is_verified_for_the_name(
        app_factory: Any, service: PushService, certs: Certs) -> None:
    """"push.test" exists only in this test's lookup, which answers loopback once: the push
    arrives, so the client connected to that answer (no lookup of its own, no second one), and
    the certificate was checked for the name (it is valid for push.test, not for other.test)."""
    c = app_factory(**reaching(service, certs, push_services=("push.test", "other.test")))
    asked: list[str] = []

    async def lookup(host: str, port: int) -> list[IPAddress]:
        asked.append(host)
        return [ip_address("127.0.0.1")]

    c.app.state.parlour.pusher.client.lookup = lookup
    t = two_players(c)
    for who in ("ada", "bob"):
        assert subscribe(c, t[who], f"https://push.test:{service.port}/push/{who}") == 201
        assert subscribe(c, t[who], f"https://other.test:{service.port}/push/other-{who}") == 201
    c.post(f"/api/seats/{t['ada']}/start")
    settle(c)
    assert [r["headers"]["host"] for r in service.received] == [f"push.test:{service.port}"]
    assert sorted(asked) == ["other.test", "push.test"]  # one lookup each
    assert pushes(c)["sent"] == 1 and pushes(c)["failed"] == 1  # other.test: the certificate is not its


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_never_followed(app_factory: Any, service: PushService, certs: Certs, inside: Listener,
                                      status: int) -> None:
    c = app_factory(**reaching(service, certs))
    t = two_players(c)
    places = [f"http://127.0.0.1:{inside.port}/internal", f"https://localhost:{service.port}/push/elsewhere"]
    for who in ("ada", "bob"):
        for n, place in enumerate(places):
            assert subscribe(c, t[who], service.url(f"/redirect/{status}/{who}{n}?to={place}")) == 201
    c.post(f"/api/seats/{t['ada']}/start")
    settle(c)
    assert inside.received == [], "the redirect to the inside was followed"
    assert len(service.received) == 2, "each of the awaited seat's two pushes was sent once"
    assert all(r["path"].startswith("/redirect/") for r in service.received), "a redirect was followed"
    assert pushes(c)["failed"] == 2 and pushes(c)["sent"] == 0
    assert stored_subscriptions(c) == 4  # a redirect is not "gone": the subscriptions stay


# -- a push that never answers ----------------------------------------------------------------

HANGING = 7  # more than the loop's default pool has threads on a small machine (cores + 4)

def finished_table(client: Any) -> str:
    founded = found(client, "Ada", target=21)
    bob = join(client, founded["code"], "Bob")
    tokens = [founded["seat_token"], bob["seat_token"]]
    assert client.post(f"/api/seats/{tokens[0]}/start").status_code == 200
    while True:
        info = client.get(f"/api/seats/{tokens[0]}").json()
        if info["status"] == "finished":
            return str(founded["code"])
        token = next(tok for tok in tokens if client.get(f"/api/seats/{tok}").json()["seat"] == info["awaiting"][0])
        moves = client.get(f"/api/seats/{token}/moves").json()
        client.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})


def test_pushes_that_never_answer_hold_no_thread_a_replay_needs_and_give_up_in_seconds(
        app_factory: Any, service: PushService, certs: Certs) -> None:
    """Seven tables whose awaited seat's endpoint takes the request and never answers: a replay
    opens at once meanwhile (it is built on the loop's default pool, which pushes never use), and
    each push is given up after its read time-out."""
    c = app_factory(**reaching(service, certs))
    done = finished_table(c)
    tables = [two_players(c) for _ in range(HANGING)]
    for n, t in enumerate(tables):
        for who in ("ada", "bob"):
            assert subscribe(c, t[who], service.url(f"/hang/{n}{who}")) == 201
    began = time.monotonic()
    for t in tables:
        c.post(f"/api/seats/{t['ada']}/start")
    assert service.wait_for(HANGING), "the pushes did not arrive"
    assert pushes(c)["sending"] == HANGING
    opened = time.monotonic()
    r = c.get(f"/api/tables/{done}/replay")
    replay_seconds = time.monotonic() - opened
    assert r.status_code == 200, r.text
    assert replay_seconds < 1.5, f"a replay took {replay_seconds:.2f} s while pushes hung"
    settle(c)
    given_up = time.monotonic() - began
    assert pushes(c)["failed"] == HANGING and pushes(c)["sending"] == 0
    assert READ_SECONDS <= given_up < READ_SECONDS + CONNECT_SECONDS + 3, given_up
    assert stored_subscriptions(c) == 2 * HANGING  # a push that failed is dropped, its subscription kept


def test_pushes_beyond_the_bound_are_dropped_not_queued(app_factory: Any, service: PushService, certs: Certs,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    from app.features import push

    monkeypatch.setattr(push, "SENDING_AT_ONCE", 2)
    c = app_factory(**reaching(service, certs))
    t = two_players(c)
    for who in ("ada", "bob"):
        for n in range(3):
            assert subscribe(c, t[who], service.url(f"/hang/{who}{n}")) == 201
    with caplog.at_level(logging.WARNING, logger="parlour.push"):
        c.post(f"/api/seats/{t['ada']}/start")
        assert service.wait_for(2)
        assert pushes(c)["sending"] == 2 and pushes(c)["dropped"] == 1
        service.release.set()  # the hanging answers end: the two being sent fail at once
        settle(c)
    assert pushes(c)["sending"] == 0 and len(service.received) == 2
    assert any("was dropped" in r.getMessage() for r in caplog.records)
