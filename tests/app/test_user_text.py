"""Text from a user: a NUL character is refused with a clear 422 in every field (PostgreSQL
cannot store one), a message or a name that shows nothing is refused like an empty one, and a
number typed in a form is read from ASCII digits only. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.server.config import Settings
from app.server.user_text import ascii_int, has_nul, visible
from tests.support.diplomatic import DIPLOMATIC_TALLY
from tests.support.play import found, join, started_table

# Zero-width, joiners, direction marks, embeddings, overrides and isolates, word joiner and
# invisible operators, byte order mark, soft hyphen, grapheme joiner, Mongolian vowel separator,
# Hangul filler, Braille blank, and spaces of every width.
INVISIBLE = ("\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064"
             "\u2066\u2067\u2068\u2069\ufeff\u00ad\u034f\u180e\u3164\u2800 \u00a0\u2003\u3000\t\n")


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    """Tally with private chats, so every kind of text has a way in."""
    settings = Settings(database_url=db_url, engines=(DIPLOMATIC_TALLY,), public_url=None)
    with TestClient(create_app(settings), base_url="http://testserver") as c:
        yield c


def refused(r: Any) -> bool:
    return r.status_code == 422 and r.json()["error"] == "invalid_text" and "NUL" in r.json()["message"]


def page_refused(r: Any) -> bool:
    return r.status_code == 422 and r.headers["content-type"].startswith("text/html") and "NUL" in r.text


def receive_until(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


def error_for(ws: Any, message: dict[str, Any] | str) -> dict[str, Any] | None:
    """Send a message (or this JSON text), then a ping: the error it was answered with before
    the pong, if any."""
    ws.send_text(message if isinstance(message, str) else orjson.dumps(message).decode())
    ws.send_text('{"type": "ping"}')
    error = None
    while (reply := ws.receive_json())["type"] != "pong":
        if reply["type"] == "error":
            error = reply
    return error


def awaited(c: Any, t: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    token = t["by_seat"][c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]]
    return token, c.get(f"/api/seats/{token}/moves").json()["moves"][0]


def test_a_nul_in_any_field_of_a_request_is_refused_with_a_clear_422(app_client: TestClient) -> None:
    c = app_client
    assert refused(c.post("/api/tables", json={"game": "tally", "name": "Ada\x00"}))
    assert refused(c.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"tar\x00get": 21}}))
    t = started_table(c, ("Ada", "Bob"))
    gathering = found(c, "Cy")
    # table codes, in the API, the pages and a query
    assert refused(c.get("/api/tables/AB%00CDE"))
    assert refused(c.post("/api/tables/AB%00CDE/join", json={"name": "Dee"}))
    assert page_refused(c.get("/join", params={"code": "AB\x00CDE"}))
    assert page_refused(c.get("/watch/AB%00CDE"))
    # names, in the API and the forms
    assert refused(c.post(f"/api/tables/{gathering['code']}/join", json={"name": "Dee\x00"}))
    assert page_refused(c.post(f"/join/{gathering['code']}", data={"name": "Dee\x00"}))
    assert page_refused(c.post("/found", data={"game": "tally", "name": "Ada\x00"}))
    assert refused(c.post(f"/api/seats/{gathering['seat_token']}/remove", json={"name": "Cy\x00"}))
    # the keys and the texts of a move, anywhere in it: nothing is played
    token, move = awaited(c, t)
    for bad in ({**move, "note\x00": 1}, {**move, "type": "play\x00"}, {**move, "more": [{"deep": ["\x00"]}]}):
        assert refused(c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": bad}))
    assert c.get(f"/api/seats/{token}").json()["seq"] == 0
    # the seat addresses a browser sends for its tables
    assert refused(c.post("/api/my-tables", json={"seats": [t["tokens"][0], "abcdefgh\x00ijkl"]}))
    # a private message
    assert c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": move}).status_code == 200
    chat = c.post(f"/api/seats/{t['by_seat'][0]}/chats", json={"members": [1]}).json()["chat"]
    r = c.post(f"/api/seats/{t['by_seat'][0]}/chats/{chat['id']}/messages", json={"text": "Meet\x00me"})
    assert refused(r)
    assert c.get(f"/api/seats/{t['by_seat'][1]}/chats/{chat['id']}/messages").json()["messages"] == []


def test_a_nul_in_a_websocket_message_is_answered_with_an_error_and_nothing_is_stored(app_client: TestClient) -> None:
    c = app_client
    t = started_table(c, ("Ada", "Bob"))
    token, move = awaited(c, t)
    with c.websocket_connect(f"/ws/seats/{token}") as ws:
        receive_until(ws, "view")
        for bad in ({"type": "chat", "text": "good\x00luck"},
                    {"type": "move", "seq": 0, "move": {**move, "x": "\x00"}},
                    {"type": "move", "seq": 0, "move": {**move, "\x00": 1}},
                    {"type": "private_message", "chat": 1, "text": "\x00"}):
            error = error_for(ws, bad)
            assert error is not None and error["error"] == "invalid_text" and "NUL" in error["message"], (bad, error)
        for raw in ('{"type": "chat", "text": "by hand \\u0000"}', '{"type": "chat", "te\\u0000xt": "hi"}'):
            error = error_for(ws, raw)
            assert error is not None and error["error"] == "invalid_text", (raw, error)
        ws.send_text(orjson.dumps({"type": "chat", "text": "good luck"}).decode())
        assert [m["text"] for m in receive_until(ws, "chat")["messages"]] == ["good luck"]
        # The six characters that write a NUL in JSON, themselves written as text, are no NUL.
        ws.send_text(orjson.dumps({"type": "chat", "text": "JSON writes it \\u0000"}).decode())
        assert [m["text"] for m in receive_until(ws, "chat")["messages"]] == ["JSON writes it \\u0000"]
    assert c.get(f"/api/seats/{token}").json()["seq"] == 0


def test_a_message_or_a_name_made_only_of_invisible_characters_is_refused_like_an_empty_one(
        app_client: TestClient) -> None:
    c = app_client
    t = started_table(c, ("Ada", "Bob"))
    seat0 = t["by_seat"][0]
    with c.websocket_connect(f"/ws/seats/{seat0}") as ws:
        receive_until(ws, "view")
        for text in (INVISIBLE, "\u200b", "\u202e\u2066\u2069", "\ufeff\u00ad"):
            error = error_for(ws, {"type": "chat", "text": text})
            assert error is not None and error["error"] == "empty_message", (text, error)
        ws.send_text(orjson.dumps({"type": "chat", "text": "g\u200bg"}).decode())  # something shows: sent
        assert len(receive_until(ws, "chat")["messages"]) == 1
    token, move = awaited(c, t)
    assert c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": move}).status_code == 200
    chat = c.post(f"/api/seats/{seat0}/chats", json={"members": [1]}).json()["chat"]
    r = c.post(f"/api/seats/{seat0}/chats/{chat['id']}/messages", json={"text": INVISIBLE})
    assert r.status_code == 422 and r.json()["error"] == "empty_message"
    assert c.get(f"/api/seats/{seat0}/chats/{chat['id']}/messages").json()["messages"] == []
    gathering = found(c, "Cy")
    for name in ("\u3164", "\u200b\u200b", "\u2800"):
        r = c.post(f"/api/tables/{gathering['code']}/join", json={"name": name})
        assert r.status_code == 422 and r.json()["error"] == "invalid_name", repr(name)
    assert join(c, gathering["code"], "Dee")["seat_token"]


def test_a_number_from_a_form_is_read_from_ascii_digits_or_refused(app_client: TestClient) -> None:
    c = app_client
    for raw in ("²", "1²", "١٢", "１２", "-5", "1e3", " 60"):
        r = c.post("/found", data={"game": "tally", "name": "Ada", "bot_after": raw}, follow_redirects=False)
        assert r.status_code == 422 and "whole number of seconds" in r.text, raw
    r = c.post("/found", data={"game": "tally", "name": "Ada", "bot_after": "60"}, follow_redirects=False)
    assert r.status_code == 303


def test_the_checks_of_text_from_a_user() -> None:
    assert has_nul({"a": [1, {"b": ("x", "y\x00")}]}) and has_nul({"k\x00": 1}) and not has_nul({"a": ["b", 1.5]})
    deep: Any = "\x00"
    for _ in range(5000):  # nesting as deep as a parser allows is walked without recursion
        deep = [deep]
    assert has_nul(deep)
    assert not visible(INVISIBLE) and visible("a\u200b") and visible("👋") and visible("\u05d0")
    assert ascii_int("0042") == 42 and ascii_int("²") is None and ascii_int("") is None and ascii_int("+1") is None
