"""Tables leave memory when nobody uses them, and come back exactly as they were."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import orjson
import pytest
import websockets
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings
from tests.support.play import awaited_token, moves_of, play_one, started_table
from tests.support.stats import own_stats

LATER = 10**7  # seconds: far past any idle limit


@pytest.fixture
def app_client(db_url: str) -> Any:
    with TestClient(create_app(make_settings(db_url)), base_url="http://testserver") as c:
        yield c


def parlour_of(client: TestClient) -> Any:
    return client.app.state.parlour  # type: ignore[attr-defined]


def table_id(client: TestClient, code: str) -> int:
    live = client.portal.call(parlour_of(client).tables.by_code, code)  # type: ignore[union-attr]
    assert live is not None
    return int(live.id)


def sweep(client: TestClient, later: float = LATER) -> int:
    tables = parlour_of(client).tables
    return int(client.portal.call(lambda: tables.sweep(time.monotonic() + later)))  # type: ignore[union-attr]


def wait_closed(client: TestClient, tid: int) -> None:
    """The server notices a closed socket a moment after the client closes it."""
    hub = parlour_of(client).hub
    deadline = time.monotonic() + 5
    while tid in hub.rooms:
        assert time.monotonic() < deadline, "the socket never left its room"
        time.sleep(0.01)


def first_messages(ws: Any) -> dict[str, dict[str, Any]]:
    """A connection's opening: the table, the view with the whole log, the chat."""
    got: dict[str, dict[str, Any]] = {}
    while set(got) != {"table", "view", "chat"}:
        msg = ws.receive_json()
        got[msg["type"]] = msg
    return got


def test_an_evicted_table_comes_back_equal_when_its_seat_reconnects(app_client):
    c = app_client
    t = started_table(c, ("Ada", "Bob", "Cy"), target=51)
    for _ in range(7):
        play_one(c, t)
    tid = table_id(c, t["code"])
    token = t["by_seat"][1]
    with c.websocket_connect(f"/ws/seats/{token}") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_text(orjson.dumps({"type": "chat", "text": "before the nap"}).decode())
        while ws.receive_json()["type"] != "chat":
            pass
    with c.websocket_connect(f"/ws/seats/{token}") as ws:
        before = first_messages(ws)
    wait_closed(c, tid)
    tables = parlour_of(c).tables
    cached = tables.cached(tid)
    assert sweep(c) >= 1
    assert tables.cached(tid) is None and cached.retired
    with c.websocket_connect(f"/ws/seats/{token}") as ws:
        after = first_messages(ws)
    assert after == before
    assert after["view"]["seq"] == 7 and len(after["view"]["log"]) > 7
    assert [m["text"] for m in after["chat"]["messages"]] == ["before the nap"]
    assert tables.cached(tid) is not None  # loaded again by the snapshot + replay path
    play_one(c, t)  # and it plays on
    assert c.get(f"/api/tables/{t['code']}").json()["seq"] == 8


def test_no_table_is_evicted_while_a_socket_is_open(app_client):
    c = app_client
    t = started_table(c)
    other = started_table(c)
    tid, other_id = table_id(c, t["code"]), table_id(c, other["code"])
    tables = parlour_of(c).tables
    with c.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        ws.receive_json()
        held = tables.cached(tid)
        sweep(c)
        assert tables.cached(tid) is held and not held.retired
        assert tables.cached(other_id) is None  # nobody at the other one
        tables.cache_bytes = 0  # nor by the memory budget
        sweep(c, 0)
        assert tables.cached(tid) is held
        play_one(c, t)
        assert ws.receive_json()["type"] == "view"
    wait_closed(c, tid)
    sweep(c)
    assert tables.cached(tid) is None


def test_no_table_is_evicted_while_a_move_is_in_flight(app_client):
    c = app_client
    t = started_table(c)
    tid = table_id(c, t["code"])
    token, seq = awaited_token(c, t)
    move = c.get(f"/api/seats/{token}/moves").json()["moves"][0]
    parlour = parlour_of(c)
    tables = parlour.tables

    async def scenario() -> int:
        journal = parlour.journal
        gate = asyncio.Event()
        append = journal.append

        async def slow_append(write: Any) -> bool:
            await gate.wait()
            return await append(write)

        journal.append = slow_append
        try:
            found = await parlour.seat(token)
            assert found is not None
            playing = asyncio.create_task(parlour.mover.play(found[0], found[1], seq, move))
            while not found[0].pending:
                await asyncio.sleep(0.001)
            assert tables.sweep(time.monotonic() + LATER) == 0
            tables.cache_bytes = 0
            assert tables.sweep(time.monotonic()) == 0
            assert tables.cached(tid) is found[0]
            gate.set()
            return await playing
        finally:
            journal.append = append

    assert c.portal.call(scenario) == seq + 1
    assert tables.sweep(time.monotonic() + LATER) == 1


def test_idle_limits_finished_tables_sooner_and_the_memory_budget(app_client):
    c = app_client
    tables = parlour_of(c).tables
    t_done = started_table(c, target=21)
    while c.get(f"/api/tables/{t_done['code']}").json()["status"] != "finished":
        play_one(c, t_done)
    t_play, t_new = started_table(c), started_table(c)
    play_one(c, t_play)
    ids = [table_id(c, t["code"]) for t in (t_done, t_play, t_new)]
    tables.idle_seconds, tables.finished_idle_seconds = 600, 30
    assert sweep(c, 0) == 0  # all just used
    assert sweep(c, 60) == 1 and tables.cached(ids[0]) is None  # the finished one first
    assert tables.cached(ids[1]) is not None and tables.cached(ids[2]) is not None
    assert all(tables.cached(i).memory_estimate() > 0 for i in ids[1:])
    tables.cache_bytes = tables.cached(ids[2]).memory_estimate()  # room for one: the newest stays
    c.get(f"/api/tables/{t_new['code']}")
    assert sweep(c, 0) == 1
    assert tables.cached(ids[1]) is None and tables.cached(ids[2]) is not None
    assert c.get(f"/api/tables/{t_play['code']}").json()["seq"] == 1  # loaded again
    stats = own_stats(c)["cache"]
    assert stats["evicted"] == 2 and stats["cached"] >= 1


async def _view_at(ws: Any, seq: int, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = orjson.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if msg["type"] == "view" and msg["seq"] >= seq:
            return msg


@pytest.mark.pg
def test_postgres_catch_up_works_for_a_table_another_process_evicted(postgres_url, server_factory):
    a = server_factory(postgres_url)
    b = server_factory(postgres_url, extra_env={"TABLE_IDLE_SECONDS": "0.2"})
    with httpx.Client(base_url=a.base) as c:
        t = started_table(c, ("Ada", "Bob"), target=51)
        play_one(c, t)
    ada, bob = t["by_seat"][0], t["by_seat"][1]

    def cached_on_b() -> int:
        return int(httpx.get(f"{b.base}/api/stats").json()["cache"]["cached"])

    async def scenario() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{bob}") as ws:
            await _view_at(ws, 1)
        deadline = time.monotonic() + 10
        while cached_on_b():  # evicted on b once its socket closed
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        async with httpx.AsyncClient(base_url=a.base) as ac:  # moves on a meanwhile
            for _ in range(3):
                seat_info = (await ac.get(f"/api/seats/{ada}")).json()
                token = t["by_seat"][seat_info["awaiting"][0]]
                moves = (await ac.get(f"/api/seats/{token}/moves")).json()
                r = await ac.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
                assert r.status_code == 200, r.text
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/ws/seats/{ada}") as on_a, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{bob}") as on_b:
            view_b = await _view_at(on_b, 4)  # b loaded the table again, with a's moves
            assert view_b["seq"] == 4 and view_b["full"]
            view_a = await _view_at(on_a, 4)
            if moves_of(view_b):  # b plays; a's socket sees it, and the other way round
                await on_b.send(orjson.dumps({"type": "move", "seq": 4, "move": moves_of(view_b)[0]}).decode())
                await _view_at(on_a, 5)
            else:
                await on_a.send(orjson.dumps({"type": "move", "seq": 4, "move": moves_of(view_a)[0]}).decode())
                await _view_at(on_b, 5)

    asyncio.run(scenario())
    with httpx.Client(base_url=b.base) as c:
        assert c.get(f"/api/tables/{t['code']}").json()["seq"] == 5
