"""Limits and protections: the code brake, sockets and messages per seat and address, headers,
foreign form posts, and leaving a table before it starts."""

from __future__ import annotations

import orjson
import pytest
from starlette.websockets import WebSocketDisconnect

from tests.support.play import found, join, started_table


def miss_ten_times(client) -> None:
    for _ in range(10):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404


def test_the_code_brake_keeps_an_address_at_the_tables_it_already_reached(sqlite_client):
    client = sqlite_client
    t = started_table(client)  # the household's table: its pages and sockets keep working
    assert client.get(f"/api/tables/{t['code']}").status_code == 200
    waiting = found(client, "Zed")
    miss_ten_times(client)  # someone in the same household mistypes a code ten times
    assert client.get("/api/tables/ZZZZZZ").status_code == 429
    assert client.get(f"/api/tables/{t['code']}").status_code == 200
    assert client.get(f"/api/tables/{t['code']}/static").status_code == 200
    assert client.get(f"/watch/{t['code']}").status_code == 200
    assert client.get(f"/join/{waiting['code']}").status_code == 200  # the founder's own table
    with client.websocket_connect(f"/ws/watch/{t['code']}") as ws:
        assert ws.receive_json()["type"] == "table"


def test_a_braked_address_cannot_tell_a_valid_code_it_never_reached_from_a_wrong_one(sqlite_client):
    client = sqlite_client
    with pytest.MonkeyPatch.context() as mp:
        # Someone else founds a table (another address): this client never reached it.
        mp.setattr("app.web.routes.api.client_id", lambda request: "10.0.0.9")
        other = found(client, "Ann")
    miss_ten_times(client)
    valid, wrong = client.get(f"/api/tables/{other['code']}"), client.get("/api/tables/ZZZZZY")
    assert valid.status_code == wrong.status_code == 429
    assert valid.json()["error"] == wrong.json()["error"] == "too_many_attempts"


def test_chat_is_limited_per_seat_whatever_the_number_of_sockets(sqlite_client):
    t = started_table(sqlite_client)
    url = f"/ws/seats/{t['tokens'][0]}"
    with sqlite_client.websocket_connect(url) as one, sqlite_client.websocket_connect(url) as two:
        for ws in (one, two):
            while ws.receive_json()["type"] != "view":
                pass
        answers = []
        for i in range(8):
            ws = (one, two)[i % 2]
            ws.send_text(orjson.dumps({"type": "chat", "text": f"m{i}"}).decode())
            while (msg := ws.receive_json())["type"] not in ("error",) and not (
                    msg["type"] == "chat" and msg["messages"][-1]["text"] == f"m{i}"):
                pass
            answers.append(msg["type"])
    assert answers[:5] == ["chat"] * 5 and answers[5:] == ["error"] * 3


def test_a_seat_opened_in_too_many_places_is_refused_another_socket(sqlite_client):
    t = started_table(sqlite_client)
    url = f"/ws/seats/{t['tokens'][0]}"
    from contextlib import ExitStack

    with ExitStack() as stack:
        for _ in range(8):
            ws = stack.enter_context(sqlite_client.websocket_connect(url))
            assert ws.receive_json()["type"] == "table"
        with sqlite_client.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429


def test_sockets_per_address_are_limited(sqlite_client):
    t = started_table(sqlite_client)
    sqlite_client.app.state.parlour.hub.sockets_per_address = 3
    from contextlib import ExitStack

    with ExitStack() as stack:
        for token in (t["tokens"][0], t["tokens"][1], t["tokens"][0]):
            ws = stack.enter_context(sqlite_client.websocket_connect(f"/ws/seats/{token}"))
            assert ws.receive_json()["type"] == "table"
        with sqlite_client.websocket_connect(f"/ws/watch/{t['code']}") as ws, \
                pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429


def test_resyncs_are_rate_limited(sqlite_client):
    t = started_table(sqlite_client)
    with sqlite_client.websocket_connect(f"/ws/watch/{t['code']}") as ws:
        while ws.receive_json()["type"] != "view":
            pass
        kinds = []
        for _ in range(12):
            ws.send_text('{"type": "sync"}')
            msg = ws.receive_json()
            if msg["type"] == "table":
                assert ws.receive_json()["type"] == "view"
            kinds.append(msg["type"])
    assert kinds[:10] == ["table"] * 10 and kinds[10:] == ["error"] * 2


def test_pages_forbid_inline_script_and_seat_answers_are_never_stored(sqlite_client):
    t = started_table(sqlite_client)
    for path in ("/", f"/seat/{t['tokens'][0]}", f"/api/tables/{t['code']}"):
        headers = sqlite_client.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self';" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert "camera=()" in headers["permissions-policy"]
    for path in (f"/seat/{t['tokens'][0]}", f"/api/seats/{t['tokens'][0]}", f"/api/seats/{t['tokens'][0]}/moves"):
        assert sqlite_client.get(path).headers["cache-control"] == "no-store"
    assert "no-store" not in sqlite_client.get("/").headers.get("cache-control", "")


def test_forms_posted_from_another_site_are_refused(sqlite_client):
    evil = {"origin": "http://evil.example"}
    r = sqlite_client.post("/found", data={"game": "tally", "name": "Ada"}, headers=evil, follow_redirects=False)
    assert r.status_code == 403
    body = found(sqlite_client, "Ada")
    r = sqlite_client.post(f"/join/{body['code']}", data={"name": "Bob"}, headers=evil, follow_redirects=False)
    assert r.status_code == 403
    assert len(sqlite_client.get(f"/api/tables/{body['code']}").json()["players"]) == 1
    ours = {"origin": "http://testserver"}
    r = sqlite_client.post(f"/join/{body['code']}", data={"name": "Bob"}, headers=ours, follow_redirects=False)
    assert r.status_code == 303


def test_a_player_may_leave_before_the_start_and_the_founder_may_remove_one(client):
    body = found(client, "Ada")
    bob = join(client, body["code"], "Bob")
    cy = join(client, body["code"], "Cy")
    with client.websocket_connect(f"/ws/seats/{cy['seat_token']}") as ws:
        assert ws.receive_json()["type"] == "table"
        r = client.post(f"/api/seats/{body['seat_token']}/remove", json={"name": "Cy"})
        assert r.status_code == 200
        kinds = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                kinds.append(ws.receive_json()["type"])
        assert closed.value.code == 4404 and "error" in kinds
    assert client.get(f"/api/seats/{cy['seat_token']}").status_code == 404
    r = client.post(f"/api/seats/{bob['seat_token']}/remove", json={"name": "Ada"})
    assert r.status_code == 403 and r.json()["error"] == "not_founder"
    assert client.post(f"/api/seats/{body['seat_token']}/leave").json()["error"] == "founder_stays"
    assert client.post(f"/api/seats/{bob['seat_token']}/leave").status_code == 200
    assert [p["name"] for p in client.get(f"/api/tables/{body['code']}").json()["players"]] == ["Ada"]
    again = join(client, body["code"], "Bob")  # the place and the name are free again
    assert client.post(f"/api/seats/{body['seat_token']}/start").status_code == 200
    assert client.post(f"/api/seats/{again['seat_token']}/leave").json()["error"] == "already_started"
