"""The live connection: views pushed after every change, each seat seeing only its own."""

from __future__ import annotations

import contextlib

import orjson
import pytest
from starlette.websockets import WebSocketDisconnect

from app.play.hub import OPENING_AT_ONCE
from tests.support.play import found, join, moves_of, started_table


def receive_until(ws, kind: str, limit: int = 10) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def receive_table(client, t) -> dict:
    return client.get(f"/api/tables/{t['code']}").json()


def test_connect_sends_the_table_then_the_current_view(client):
    t = started_table(client)
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        table = ws.receive_json()
        assert table["type"] == "table" and table["table"]["status"] == "playing"
        view = ws.receive_json()
        assert view["type"] == "view" and view["seq"] == 0 and "view" in view


def test_a_move_over_the_socket_reaches_every_seat_with_its_own_view(client):
    t = started_table(client, ("Ada", "Bob"))
    a_tok, b_tok = t["by_seat"][0], t["by_seat"][1]
    with client.websocket_connect(f"/ws/seats/{a_tok}") as a, client.websocket_connect(f"/ws/seats/{b_tok}") as b:
        va, vb = receive_until(a, "view"), receive_until(b, "view")
        assert moves_of(va) and not moves_of(vb)  # seat 0 plays first in Tally
        card = va["view"]["hand"][0]
        a.send_text(orjson.dumps({"type": "move", "seq": 0, "move": {"type": "play", "card": card}}).decode())
        na, nb = receive_until(a, "view"), receive_until(b, "view")
        assert na["seq"] == nb["seq"] == 1
        assert na["view"]["tally"] == nb["view"]["tally"] == card
        assert na["awaiting"] == [1] and moves_of(nb)
        # the log is redacted per seat: only the drawer learns the drawn card
        assert any(line["text"].startswith("You drew") for line in na["log"])
        seat0 = next(p["name"] for p in receive_table(client, t)["players"] if p["seat"] == 0)
        assert any(line["text"] == f"{seat0} drew a card" for line in nb["log"])


def test_a_seat_never_sees_another_seats_hand(client):
    t = started_table(client, ("Ada", "Bob"))
    b_view = client.get(f"/api/seats/{t['by_seat'][1]}").json()["view"]
    with client.websocket_connect(f"/ws/seats/{t['by_seat'][1]}") as ws:
        view = receive_until(ws, "view")
        assert view["view"] == b_view
        # Exactly Tally's public fields and this seat's own hand: nothing that holds another hand.
        assert set(b_view) == {"tally", "target", "deck", "hand", "hand_sizes", "voted", "my_vote",
                               "current", "prompt", "winner"}
        assert len(b_view["hand"]) == 3 and b_view["hand_sizes"] == [3, 3] and b_view["my_vote"] is None


def test_two_tabs_of_one_seat_both_stay_live(client):
    t = started_table(client)
    token = t["by_seat"][0]
    with client.websocket_connect(f"/ws/seats/{token}") as one, client.websocket_connect(f"/ws/seats/{token}") as two:
        v1 = receive_until(one, "view")
        receive_until(two, "view")
        card = v1["view"]["hand"][0]
        one.send_text(orjson.dumps({"type": "move", "seq": 0, "move": {"type": "play", "card": card}}).decode())
        assert receive_until(one, "view")["seq"] == 1
        assert receive_until(two, "view")["seq"] == 1


def test_the_waiting_room_sees_players_arrive_and_the_start(client):
    body = found(client, "Ada")
    with client.websocket_connect(f"/ws/seats/{body['seat_token']}") as ws:
        assert [p["name"] for p in ws.receive_json()["table"]["players"]] == ["Ada"]
        join(client, body["code"], "Bob")
        msg = receive_until(ws, "table")
        while len(msg["table"]["players"]) < 2:
            msg = receive_until(ws, "table")
        assert [p["name"] for p in msg["table"]["players"]] == ["Ada", "Bob"]
        client.post(f"/api/seats/{body['seat_token']}/start")
        msg = receive_until(ws, "table")
        while msg["table"]["status"] != "playing":
            msg = receive_until(ws, "table")
        view = receive_until(ws, "view")
        assert view["seq"] == 0 and view["seat"] in (0, 1)


def test_bad_frames_get_clear_errors_and_change_nothing(client):
    t = started_table(client)
    with client.websocket_connect(f"/ws/seats/{t['by_seat'][0]}") as ws:
        receive_until(ws, "view")
        cases = [
            ("{nope", "malformed"),
            ("[1, 2]", "malformed"),
            ('{"type": "dance"}', "unknown_type"),
            ('{"type": "move", "seq": 0, "move": {"type": "castle"}}', "unknown_move"),
            ('{"type": "move", "seq": 0, "move": "play"}', "malformed_move"),
            ('{"type": "move", "seq": 5, "move": {"type": "play", "card": 1}}', "stale"),
            ("x" * 70000, "too_large"),
        ]
        for frame, error in cases:
            ws.send_text(frame)
            msg = receive_until(ws, "error")
            assert msg["error"] == error, frame[:40]
            assert msg["message"]
        ws.send_text('{"type": "ping"}')
        assert receive_until(ws, "pong")["type"] == "pong"
    assert client.get(f"/api/seats/{t['tokens'][0]}").json()["seq"] == 0


def test_a_stale_move_on_the_socket_resends_the_current_view(client):
    t = started_table(client)
    token = t["by_seat"][0]
    with client.websocket_connect(f"/ws/seats/{token}") as ws:
        view = receive_until(ws, "view")
        card = view["view"]["hand"][0]
        ws.send_text(orjson.dumps({"type": "move", "seq": 0, "move": {"type": "play", "card": card}}).decode())
        receive_until(ws, "view")
        ws.send_text(orjson.dumps({"type": "move", "seq": 0, "move": {"type": "play", "card": card}}).decode())
        err = receive_until(ws, "error")
        assert err["error"] == "stale" and err["seq"] == 1
        ws.send_text('{"type": "sync"}')
        assert receive_until(ws, "view")["seq"] == 1


def test_unknown_seat_socket_is_closed_with_4404(client):
    with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect("/ws/seats/nobody-sits-here-at-all") as ws:
        ws.receive_json()
    assert exc.value.code == 4404


def test_sockets_past_the_opening_limit_all_open_and_a_refused_one_gives_its_place_back(client):
    """Sockets open a few at a time (app/play/hub.py OPENING_AT_ONCE); the place is given back
    once a socket is open, or refused, never held for its life."""
    t = started_table(client)
    for _ in range(OPENING_AT_ONCE + 2):
        with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect("/ws/seats/nobody-here") as ws:
            ws.receive_json()
        assert exc.value.code == 4404
    with contextlib.ExitStack() as stack:
        watching = [stack.enter_context(client.websocket_connect(f"/ws/watch/{t['code']}"))
                    for _ in range(OPENING_AT_ONCE + 4)]
        for ws in watching:
            assert receive_until(ws, "view")["seq"] == 0
        with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
            assert receive_until(ws, "view")["seat"] is not None


def test_the_socket_refuses_a_foreign_origin(client):
    t = started_table(client)
    with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect(
            f"/ws/seats/{t['tokens'][0]}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    assert exc.value.code == 4403
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "table"


def test_chat_is_stored_and_survives_a_reload(client):
    t = started_table(client)
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        receive_until(ws, "view")
        ws.send_text(orjson.dumps({"type": "chat", "text": "<b>Good luck</b> all"}).decode())
        msg = receive_until(ws, "chat")
        assert msg["messages"][0]["text"] == "<b>Good luck</b> all"  # sent as text; the page escapes
    with client.websocket_connect(f"/ws/seats/{t['tokens'][1]}") as ws:
        history = receive_until(ws, "chat")
        assert [m["text"] for m in history["messages"]] == ["<b>Good luck</b> all"]


def test_chat_is_length_limited_and_slowed_when_flooded(client):
    t = started_table(client)
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        receive_until(ws, "view")
        ws.send_text(orjson.dumps({"type": "chat", "text": "x" * 501}).decode())
        assert receive_until(ws, "error")["error"] == "message_too_long"
        for i in range(5):
            ws.send_text(orjson.dumps({"type": "chat", "text": f"m{i}"}).decode())
            receive_until(ws, "chat")
        ws.send_text(orjson.dumps({"type": "chat", "text": "one too many"}).decode())
        assert receive_until(ws, "error")["error"] == "slow_down"


def test_spectators_see_only_public_information(client):
    t = started_table(client)
    with client.websocket_connect(f"/ws/watch/{t['code']}") as ws:
        view = receive_until(ws, "view")
        assert view["view"]["hand"] is None and moves_of(view) == [] and view["seat"] is None
        assert all("You drew" not in line["text"] for line in view["log"])
        ws.send_text('{"type": "move", "seq": 0, "move": {"type": "play", "card": 1}}')
        assert receive_until(ws, "error")["error"] == "spectator"
        ws.send_text('{"type": "chat", "text": "hi"}')
        assert receive_until(ws, "error")["error"] == "spectator"


def test_simultaneous_decisions_await_several_seats(client):
    t = started_table(client, ("Ada", "Bob", "Cy"), vote=True)
    seat_info = client.get(f"/api/seats/{t['tokens'][0]}").json()
    assert seat_info["awaiting"] == [0, 1, 2]
    with client.websocket_connect(f"/ws/seats/{t['by_seat'][1]}") as ws:
        view = receive_until(ws, "view")
        assert view["awaiting"] == [0, 1, 2] and moves_of(view)
        r = client.post(f"/api/seats/{t['by_seat'][0]}/moves", json={"seq": 0, "move": {"type": "vote", "value": 2}})
        assert r.status_code == 200
        view = receive_until(ws, "view")
        assert view["awaiting"] == [1, 2]
        assert all("voted 2" not in line["text"] for line in view["log"])


def test_the_log_opens_with_the_seats_drawn_by_lot(client):
    t = started_table(client, ("Ada", "Bob"))
    order = sorted(receive_table(client, t)["players"], key=lambda p: p["seat"])
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        first = receive_until(ws, "view")["log"][0]
        assert first == {"seq": 0, "text": f"Seats were drawn by lot: 1. {order[0]['name']}, 2. {order[1]['name']}. "
                                           "The game begins."}
