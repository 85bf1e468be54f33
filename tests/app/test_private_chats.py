"""Private chats (diplomacy): between two seats or a group, stored, read positions kept, sent only
to members (never to another seat's or a spectator's socket, never through another token), limited
like the table chat, published with the record only when every member agreed. Each test runs on
SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest.mock import ANY
from urllib.parse import quote

import httpx
import orjson
import pytest
import websockets
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from app.features.diplomacy import enabled
from app.features.record import verify_record
from app.main import create_app
from app.server.config import Settings
from engines.registry import load_engines
from tests.app.test_fuzz import FUZZ, JSON, assert_clean_error
from tests.support.diplomatic import DIPLOMATIC_TALLY
from tests.support.play import found, join, play_one, started_table

SECRET = "Meet me at Harrenhal"


def settings(url: str) -> Settings:
    return Settings(database_url=url, engines=(DIPLOMATIC_TALLY,), public_url=None)


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings(db_url)), base_url="http://testserver") as c:
        yield c


def three_seats(client: Any, **options: Any) -> dict[str, Any]:
    """A started table of Ada, Bob and Cy (seats drawn by lot): ``by_seat`` maps seats 0, 1, 2
    to their tokens, ``names`` to their names."""
    t = started_table(client, ("Ada", "Bob", "Cy"), **options)
    players = client.get(f"/api/tables/{t['code']}").json()["players"]
    t["names"] = {p["seat"]: p["name"] for p in players}
    return t


def open_chat(client: Any, token: str, members: list[int]) -> dict[str, Any]:
    r = client.post(f"/api/seats/{token}/chats", json={"members": members})
    assert r.status_code in (200, 201), r.text
    return dict(r.json()["chat"])


def say(client: Any, token: str, chat: int, text: str) -> dict[str, Any]:
    r = client.post(f"/api/seats/{token}/chats/{chat}/messages", json={"text": text})
    assert r.status_code == 201, r.text
    return dict(r.json()["message"])


def chats_of(client: Any, token: str) -> dict[int, dict[str, Any]]:
    r = client.get(f"/api/seats/{token}/chats")
    assert r.status_code == 200, r.text
    return {c["id"]: c for c in r.json()["chats"]}


def frames_until(ws: Any, kind: str, limit: int = 20) -> list[dict[str, Any]]:
    """Every message up to and including the first of ``kind``, as sent (raw text kept)."""
    out = []
    for _ in range(limit):
        raw = ws.receive_text()
        msg = orjson.loads(raw)
        msg["_raw"] = raw
        out.append(msg)
        if msg["type"] == kind:
            return out
    raise AssertionError(f"no {kind} message in {[m['type'] for m in out]}")


def test_a_private_message_reaches_its_members_and_never_another_seat_or_a_spectator(app_client):
    c = app_client
    t = three_seats(c)
    ada, bob, cy = (t["by_seat"][s] for s in (0, 1, 2))
    with c.websocket_connect(f"/ws/seats/{ada}") as wa, c.websocket_connect(f"/ws/seats/{bob}") as wb, \
            c.websocket_connect(f"/ws/seats/{cy}") as wc, c.websocket_connect(f"/ws/watch/{t['code']}") as ws:
        greetings = [frames_until(w, "private_chats")[-1] for w in (wa, wb, wc)]
        assert all(g["chats"] == [] for g in greetings)
        frames_until(ws, "view")
        chat = open_chat(c, ada, [1])
        assert chat["members"] == [0, 1] and chat["unread"] == 0
        sent = say(c, ada, chat["id"], SECRET)
        for w in (wa, wb):
            got = frames_until(w, "private_message")[-1]["message"]
            assert got == sent and got["seat"] == 0 and got["name"] == t["names"][0]
        # A table-chat line after it: whoever would have been sent the private one has it first.
        wc.send_text(orjson.dumps({"type": "chat", "text": "Winter is coming"}).decode())
        for w in (wc, ws):
            seen = frames_until(w, "chat")
            while "Winter is coming" not in seen[-1]["_raw"]:
                seen += frames_until(w, "chat")
            assert not [m for m in seen if m["type"].startswith("private")]
            assert all(SECRET not in m["_raw"] and "Harrenhal" not in m["_raw"] for m in seen)
        # Nor does the spectator's socket take one in.
        ws.send_text(orjson.dumps({"type": "private_message", "chat": chat["id"], "text": "hi"}).decode())
        assert frames_until(ws, "error")[-1]["error"] == "spectator"

    # Cy's token reaches nothing of it: not in his list, and its messages, read marks and consent
    # answer as if it did not exist.
    assert chats_of(c, cy) == {}
    for method, path, body in [("GET", "messages", None), ("POST", "messages", {"text": "let me in"}),
                               ("POST", "read", {"upto": 999}), ("PUT", "publish", {"agree": True})]:
        r = c.request(method, f"/api/seats/{cy}/chats/{chat['id']}/{path}", json=body)
        assert r.status_code == 404 and r.json()["error"] == "unknown_chat", (path, r.text)
        assert SECRET not in r.text
    # There is no way in without a member's token: not through the table's code.
    for path in (f"/api/tables/{t['code']}/chats", f"/api/tables/{t['code']}/chats/{chat['id']}/messages"):
        r = c.get(path)
        assert r.status_code == 404 and SECRET not in r.text
    r = c.get(f"/api/seats/{bob}/chats/{chat['id']}/messages")
    assert [m["text"] for m in r.json()["messages"]] == [SECRET]
    assert r.headers["cache-control"] == "no-store"  # never kept by a shared cache or proxy


def test_a_group_chat_has_the_chosen_members_and_opening_it_again_finds_the_same_chat(app_client):
    c = app_client
    t = three_seats(c)
    ada, bob, cy = (t["by_seat"][s] for s in (0, 1, 2))
    r = c.post(f"/api/seats/{ada}/chats", json={"members": [2, 1]})
    assert r.status_code == 201
    group = r.json()["chat"]
    assert group["members"] == [0, 1, 2] and group["opened_by"] == 0
    again = c.post(f"/api/seats/{cy}/chats", json={"members": [0, 1, 2]})  # the opener's own seat may be named
    assert again.status_code == 200 and again.json()["chat"]["id"] == group["id"]
    pair = open_chat(c, bob, [2])
    assert pair["id"] != group["id"] and pair["members"] == [1, 2]
    assert set(chats_of(c, cy)) == {group["id"], pair["id"]}
    assert set(chats_of(c, ada)) == {group["id"]}


def test_two_members_opening_the_same_chat_at_once_get_one_chat(app_client):
    """A race of two openers: one makes the chat (201), the other is given that chat (200)."""
    c = app_client
    t = three_seats(c)
    ada, bob = t["by_seat"][0], t["by_seat"][1]
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda call: c.post(f"/api/seats/{call[0]}/chats", json={"members": call[1]}),
                                [(ada, [1]), (bob, [0])]))
    assert sorted(r.status_code for r in answers) == [200, 201], [r.text for r in answers]
    assert answers[0].json()["chat"]["id"] == answers[1].json()["chat"]["id"]
    assert len(chats_of(c, ada)) == len(chats_of(c, bob)) == 1


def test_unread_marks_count_others_messages_after_the_stored_read_position(app_client):
    c = app_client
    t = three_seats(c)
    ada, bob = t["by_seat"][0], t["by_seat"][1]
    chat = open_chat(c, ada, [1])["id"]
    first = say(c, ada, chat, "One")
    say(c, ada, chat, "Two")
    say(c, bob, chat, "Bob's answer")  # one's own messages count as read
    last = say(c, ada, chat, "Three")
    assert chats_of(c, ada)[chat]["unread"] == 0
    assert chats_of(c, bob)[chat] | {"agreed": None} == {
        "id": chat, "members": [0, 1], "agreed": None, "opened_by": 0, "last_id": last["id"],
        "read_id": last["id"] - 1, "unread": 1}
    r = c.post(f"/api/seats/{bob}/chats/{chat}/read", json={"upto": first["id"]})  # never backwards
    assert r.status_code == 200 and r.json()["unread"] == 1
    with c.websocket_connect(f"/ws/seats/{bob}") as other_tab:
        assert frames_until(other_tab, "private_chats")[-1]["chats"][0]["unread"] == 1
        r = c.post(f"/api/seats/{bob}/chats/{chat}/read", json={"upto": 10**9})  # never past the newest
        assert r.json() == {"chat": chat, "read_id": last["id"], "unread": 0}
        # The seat's other tabs are told, so their marks clear too.
        assert frames_until(other_tab, "private_read")[-1] == {"type": "private_read", **r.json(),
                                                                "_raw": ANY}
    assert chats_of(c, bob)[chat]["unread"] == 0


def test_private_chats_and_read_marks_survive_a_server_restart(db_url):
    with TestClient(create_app(settings(db_url)), base_url="http://testserver") as c:
        t = three_seats(c)
        ada, bob = t["by_seat"][0], t["by_seat"][1]
        chat = open_chat(c, ada, [1])["id"]
        first = say(c, ada, chat, "Before the restart")
        c.post(f"/api/seats/{bob}/chats/{chat}/read", json={"upto": first["id"]})
        say(c, ada, chat, "Still there?")
        c.put(f"/api/seats/{bob}/chats/{chat}/publish", json={"agree": True})
    with TestClient(create_app(settings(db_url)), base_url="http://testserver") as c:
        mine = chats_of(c, bob)[chat]
        assert mine["unread"] == 1 and mine["read_id"] == first["id"] and mine["agreed"] == [1]
        got = c.get(f"/api/seats/{bob}/chats/{chat}/messages").json()
        assert [m["text"] for m in got["messages"]] == ["Before the restart", "Still there?"]
        with c.websocket_connect(f"/ws/seats/{bob}") as ws:  # a new connection is told at once
            greeting = frames_until(ws, "private_chats")[-1]
            assert [(g["id"], g["unread"]) for g in greeting["chats"]] == [(chat, 1)]


def test_a_seat_can_post_through_its_socket_and_a_refusal_comes_back_as_an_error(app_client):
    c = app_client
    t = three_seats(c)
    ada, cy = t["by_seat"][0], t["by_seat"][2]
    chat = open_chat(c, ada, [1])["id"]
    with c.websocket_connect(f"/ws/seats/{ada}") as wa, c.websocket_connect(f"/ws/seats/{cy}") as wc:
        frames_until(wa, "private_chats")
        frames_until(wc, "private_chats")
        wa.send_text(orjson.dumps({"type": "private_message", "chat": chat, "text": "By socket"}).decode())
        assert frames_until(wa, "private_message")[-1]["message"]["text"] == "By socket"
        for bad, error in [({"chat": chat, "text": "Let me in"}, "unknown_chat"),
                           ({"chat": "one", "text": "x"}, "invalid_chat"),
                           ({"chat": chat, "text": "x" * 501}, "message_too_long")]:
            wc.send_text(orjson.dumps({"type": "private_message", **bad}).decode())
            assert frames_until(wc, "error")[-1]["error"] == error
    assert [m["text"] for m in c.get(f"/api/seats/{ada}/chats/{chat}/messages").json()["messages"]] == ["By socket"]


BAD_INPUT = [
    ("POST", "", {"members": "Bob"}, 422, "invalid_members"),
    ("POST", "", {"members": []}, 422, "invalid_members"),
    ("POST", "", {"members": [True]}, 422, "invalid_members"),
    ("POST", "", {"members": [1.5]}, 422, "invalid_members"),
    ("POST", "", {"members": [7]}, 422, "unknown_seat"),
    ("POST", "", {"members": [-1]}, 422, "unknown_seat"),
    ("POST", "", {"members": [0]}, 422, "invalid_members"),  # only oneself
    ("POST", "", {"members": [1], "title": "x"}, 422, "invalid_request"),
    ("POST", "/{chat}/messages", {"text": ""}, 422, "empty_message"),
    ("POST", "/{chat}/messages", {"text": "   "}, 422, "empty_message"),
    ("POST", "/{chat}/messages", {"text": 42}, 422, "empty_message"),
    ("POST", "/{chat}/messages", {"text": "x" * 501}, 422, "message_too_long"),
    ("POST", "/0/messages", {"text": "hi"}, 422, "invalid_chat"),
    ("POST", "/99999999999/messages", {"text": "hi"}, 422, "invalid_chat"),
    ("GET", "/abc/messages", None, 422, "invalid_request"),
    ("GET", "/424242/messages", None, 404, "unknown_chat"),
    ("POST", "/{chat}/read", {"upto": -1}, 422, "invalid_read"),
    ("POST", "/{chat}/read", {"upto": "all"}, 422, "invalid_read"),
    ("PUT", "/{chat}/publish", {"agree": "yes"}, 422, "invalid_agree"),
    ("PUT", "/{chat}/publish", {}, 422, "invalid_agree"),
]


def test_bad_input_gets_a_clear_4xx(app_client):
    c = app_client
    t = three_seats(c)
    ada = t["by_seat"][0]
    chat = open_chat(c, ada, [1])["id"]
    for method, path, body, status, error in BAD_INPUT:
        r = c.request(method, f"/api/seats/{ada}/chats{path.format(chat=chat)}", json=body)
        assert r.status_code == status and r.json()["error"] == error, (method, path, body, r.text)
        assert r.json()["message"]
    assert chats_of(c, ada)[chat]["last_id"] == 0  # nothing was stored


def test_malformed_json_an_unknown_token_and_an_old_message_page_are_answered_cleanly(app_client):
    c = app_client
    t = three_seats(c)
    ada = t["by_seat"][0]
    chat = open_chat(c, ada, [1])["id"]
    r = c.post(f"/api/seats/{ada}/chats/{chat}/messages", content=b"{not json",
               headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "invalid_request"
    assert c.get("/api/seats/not-a-real-token-at-all/chats").status_code == 404
    ids = [say(c, ada, chat, f"Line {i}")["id"] for i in range(3)]
    older = c.get(f"/api/seats/{ada}/chats/{chat}/messages", params={"before": ids[2]}).json()
    assert [m["text"] for m in older["messages"]] == ["Line 0", "Line 1"] and older["more"] is False
    huge = c.get(f"/api/seats/{ada}/chats/{chat}/messages", params={"before": 10**15})
    assert huge.status_code == 200 and len(huge.json()["messages"]) == 3


def test_private_messages_are_rate_limited_per_seat_like_the_table_chat(app_client):
    c = app_client
    t = three_seats(c)
    ada = t["by_seat"][0]
    chat = open_chat(c, ada, [1])["id"]
    for i in range(5):
        say(c, ada, chat, f"Message {i}")
    r = c.post(f"/api/seats/{ada}/chats/{chat}/messages", json={"text": "One too many"})
    assert r.status_code == 429 and r.json()["error"] == "slow_down" and int(r.headers["retry-after"]) >= 1
    assert len(c.get(f"/api/seats/{ada}/chats/{chat}/messages").json()["messages"]) == 5


def test_private_chats_open_only_once_seats_are_drawn(app_client):
    c = app_client
    table = found(c, "Ada")
    join(c, table["code"], "Bob")
    r = c.post(f"/api/seats/{table['seat_token']}/chats", json={"members": [1]})
    assert r.status_code == 409 and r.json()["error"] == "not_started"


def test_a_game_that_does_not_enable_diplomacy_has_no_private_chats(client):
    """The platform's Tally (no ``diplomacy`` attribute): every private-chat call is a 404 that
    says so, and its sockets are never sent private-chat messages."""
    t = started_table(client, ("Ada", "Bob"))
    ada = t["by_seat"][0]
    for method, path, body in [("GET", "", None), ("POST", "", {"members": [1]}),
                               ("POST", "/1/messages", {"text": "hi"})]:
        r = client.request(method, f"/api/seats/{ada}/chats{path}", json=body)
        assert r.status_code == 404 and r.json()["error"] == "no_private_chats", r.text
    with client.websocket_connect(f"/ws/seats/{ada}") as ws:
        ws.send_text(orjson.dumps({"type": "ping"}).decode())
        assert not [m for m in frames_until(ws, "pong") if m["type"].startswith("private")]
    assert '"diplomacy": false' in client.get(f"/seat/{ada}").text


def test_a_game_of_thrones_names_each_seat_by_its_house_in_the_chat_list_and_the_greeting(db_url):
    """The engine's ``seat_labels``: the chat list (seat API) and the greeting on a seat's socket
    carry each seat's house, by seat, as the view's houses (the page names members "Stark (Ada)");
    a spectator's socket is not greeted at all."""
    got = Settings(database_url=db_url, engines=("engines.game_of_thrones:ENGINE",), public_url=None)
    with TestClient(create_app(got), base_url="http://testserver") as c:
        t = started_table(c, ("Ada", "Bob", "Cy"), game="game_of_thrones")
        houses = c.get(f"/api/seats/{t['by_seat'][0]}").json()["view"]["houses"]
        expected = [{"stark": "Stark", "lannister": "Lannister", "baratheon": "Baratheon"}[h] for h in houses]
        for token in t["by_seat"].values():
            r = c.get(f"/api/seats/{token}/chats")
            assert r.status_code == 200 and r.json() == {"chats": [], "labels": expected}, r.text
            with c.websocket_connect(f"/ws/seats/{token}") as ws:
                assert frames_until(ws, "private_chats")[-1]["labels"] == expected
        with c.websocket_connect(f"/ws/watch/{t['code']}") as ws:
            ws.send_text(orjson.dumps({"type": "ping"}).decode())
            assert not [m for m in frames_until(ws, "pong") if m["type"].startswith("private")]


def test_a_game_whose_seats_have_no_names_of_their_own_sends_no_labels(app_client):
    c = app_client
    t = three_seats(c)
    assert c.get(f"/api/seats/{t['by_seat'][0]}/chats").json()["labels"] is None
    with c.websocket_connect(f"/ws/seats/{t['by_seat'][1]}") as ws:
        assert frames_until(ws, "private_chats")[-1]["labels"] is None


def test_only_a_game_of_thrones_enables_private_chats_of_the_hosted_games():
    engines = load_engines(("engines.london:ENGINE", "engines.tower_of_london:ENGINE",
                            "engines.towers_of_babylon:ENGINE", "engines.game_of_thrones:ENGINE"))
    assert {gid for gid, e in engines.items() if enabled(e)} == {"game_of_thrones"}


def test_the_games_list_says_which_games_offer_private_chats(app_client, sqlite_client):
    assert [g["private_chats"] for g in app_client.get("/api/games").json()["games"]] == [True]
    assert [g["private_chats"] for g in sqlite_client.get("/api/games").json()["games"]] == [False]


def test_the_table_page_loads_the_private_chats_only_for_a_seat_of_a_game_that_has_them(app_client):
    c = app_client
    t = three_seats(c)
    page = c.get(f"/seat/{t['by_seat'][0]}").text
    assert '"diplomacy": true' in page and 'id="tab-private"' in page
    watch = c.get(f"/watch/{t['code']}").text
    assert '"diplomacy": false' in watch and 'id="tab-private"' not in watch


def finish(client: Any, t: dict[str, Any]) -> None:
    for _ in range(200):
        if client.get(f"/api/tables/{t['code']}").json()["status"] == "finished":
            return
        play_one(client, t)
    raise AssertionError("the game did not end")


def test_the_record_publishes_a_private_chat_only_when_every_member_agreed(app_client):
    c = app_client
    t = three_seats(c, target=21)
    ada, bob, cy = (t["by_seat"][s] for s in (0, 1, 2))
    agreed = open_chat(c, ada, [1])["id"]
    say(c, ada, agreed, "An alliance against Cy?")
    say(c, bob, agreed, "Agreed, until the end.")
    withheld = open_chat(c, ada, [2])["id"]
    say(c, cy, withheld, SECRET)
    group = open_chat(c, bob, [0, 2])["id"]
    say(c, bob, group, "Nobody trusts anybody")
    for token, chat, agree in [(ada, agreed, True), (bob, agreed, True),
                               (ada, withheld, True),  # Cy never agrees
                               (ada, group, True), (bob, group, True), (cy, group, True), (cy, group, False)]:
        r = c.put(f"/api/seats/{token}/chats/{chat}/publish", json={"agree": agree})
        assert r.status_code == 200, r.text
    assert chats_of(c, ada)[group]["agreed"] == [0, 1]
    assert c.get(f"/api/tables/{t['code']}/record").status_code == 409  # before the end: nothing
    finish(c, t)
    record = c.get(f"/api/tables/{t['code']}/record").json()
    names = t["names"]
    [published] = record["private_chats"]
    assert published["members"] == [{"seat": 0, "name": names[0]}, {"seat": 1, "name": names[1]}]
    assert [(m["seat"], m["name"], m["text"]) for m in published["messages"]] == [
        (0, names[0], "An alliance against Cy?"), (1, names[1], "Agreed, until the end.")]
    assert all(m["at"].endswith("Z") for m in published["messages"])
    text = orjson.dumps(record).decode()
    assert SECRET not in text and "Nobody trusts anybody" not in text
    assert verify_record(record, load_engines((DIPLOMATIC_TALLY,))) == []
    # Once the last member agrees, the group is published too.
    c.put(f"/api/seats/{cy}/chats/{group}/publish", json={"agree": True})
    chats = c.get(f"/api/tables/{t['code']}/record").json()["private_chats"]
    assert [[m["text"] for m in ch["messages"]] for ch in chats] == [
        ["An alliance against Cy?", "Agreed, until the end."], ["Nobody trusts anybody"]]


def test_the_record_of_a_game_without_diplomacy_has_no_private_chats(client):
    t = started_table(client, ("Ada", "Bob"), target=21)
    finish(client, t)
    assert "private_chats" not in client.get(f"/api/tables/{t['code']}/record").json()


@pytest.mark.pg
def test_a_private_message_through_one_process_reaches_a_member_on_another_and_no_one_else(
        postgres_url, server_factory):
    a = server_factory(postgres_url, engines=DIPLOMATIC_TALLY)
    b = server_factory(postgres_url, engines=DIPLOMATIC_TALLY)
    with httpx.Client(base_url=a.base) as c:
        t = three_seats(c)
        ada, bob, cy = (t["by_seat"][s] for s in (0, 1, 2))
        chat = open_chat(c, ada, [1])["id"]

    async def until(ws: Any, kind: str, seen: list[str]) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while True:
            raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            seen.append(raw)
            msg = orjson.loads(raw)
            if msg["type"] == kind:
                return dict(msg)

    async def scenario() -> list[str]:
        cy_saw: list[str] = []
        async with websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{bob}") as wb, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{cy}") as wc:
            await until(wb, "private_chats", [])
            await until(wc, "private_chats", cy_saw)
            async with httpx.AsyncClient(base_url=a.base) as ac:
                r = await ac.post(f"/api/seats/{ada}/chats/{chat}/messages", json={"text": SECRET})
                assert r.status_code == 201
                got = await until(wb, "private_message", [])
                assert got["message"]["text"] == SECRET
                # Bob reads on process a: his socket on b is told, and the table chat after it
                # shows Cy's socket was sent nothing private in between.
                await ac.post(f"/api/seats/{bob}/chats/{chat}/read", json={"upto": got["message"]["id"]})
                assert (await until(wb, "private_read", []))["unread"] == 0
                await ac.post(f"/api/seats/{cy}/chats", json={"members": [2, 0]})
                await wc.send(orjson.dumps({"type": "chat", "text": "Anyone there?"}).decode())
                await until(wc, "chat", cy_saw)
        return cy_saw

    cy_saw = asyncio.run(scenario())
    assert all(SECRET not in raw and '"private_message"' not in raw for raw in cy_saw)


def test_the_private_chats_migration_goes_down_and_up_again(db_url):
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine, inspect

    from app.server.config import sync_url
    from app.server.paths import ROOT

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["database_url"] = db_url
    cfg.attributes["configure_logging"] = False
    before = ScriptDirectory.from_config(cfg).get_revision("0004_private_chats").down_revision
    ours = {"private_chats", "private_chat_members", "private_messages"}

    def tables() -> set[str]:
        engine = create_engine(sync_url(db_url))
        try:
            return set(inspect(engine).get_table_names())
        finally:
            engine.dispose()

    assert ours <= tables()
    command.downgrade(cfg, str(before))
    assert not ours & tables() and {"tables", "players", "chat"} <= tables()
    command.upgrade(cfg, "head")
    assert ours <= tables()


@pytest.fixture(scope="module")
def fuzz_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, Any], int]]:
    """One SQLite server of the diplomatic Tally, a started table and a chat of seats 0 and 1."""
    from app.storage.db import migrate

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz-private') / 'parlour.db'}"
    migrate(url)
    with TestClient(create_app(settings(url)), base_url="http://testserver") as c:
        chats = c.app.state.parlour.private_chats
        chats.message_limit.limit = chats.action_limit.limit = 10**9  # the fuzzer writes fast on purpose
        t = three_seats(c)
        yield c, t, open_chat(c, t["by_seat"][0], [1])["id"]


@given(path=st.sampled_from(["", "/{chat}/messages", "/{chat}/read", "/{chat}/publish", "/{junk}/messages"]),
       method=st.sampled_from(["GET", "POST", "PUT"]),
       body=st.one_of(JSON.map(lambda v: json.dumps(v).encode()), st.binary(max_size=64)),  # ints past 64 bits too
       junk=st.one_of(st.integers(min_value=-(2**70), max_value=2**70).map(str), st.text(max_size=8)),
       seat=st.sampled_from([0, 2]))
@FUZZ
def test_private_chat_requests_of_any_shape_are_answered_cleanly(fuzz_site, path, method, body, junk, seat):
    c, t, chat = fuzz_site
    url = f"/api/seats/{t['by_seat'][seat]}/chats" + path.format(chat=chat, junk=quote(junk, safe=""))
    r = c.request(method, url, content=body, headers={"content-type": "application/json"})
    assert_clean_error(r)
    if seat == 2:  # a non-member never reads the chat through any of it
        assert SECRET not in r.text


@given(message=st.fixed_dictionaries({"type": st.just("private_message")}, optional={"chat": JSON, "text": JSON}))
@FUZZ
def test_private_messages_of_any_shape_over_a_socket_get_an_answer_and_keep_the_socket(fuzz_site, message):
    c, t, _ = fuzz_site
    with c.websocket_connect(f"/ws/seats/{t['by_seat'][2]}") as ws:
        frames_until(ws, "private_chats")
        ws.send_text(json.dumps(message))
        ws.send_text('{"type": "ping"}')
        for reply in frames_until(ws, "pong"):
            if reply["type"] == "error":
                assert isinstance(reply["error"], str) and isinstance(reply["message"], str)
