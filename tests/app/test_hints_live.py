"""A hint's ask told to the table (app/features/hints.py ``_record``, app/play/hub.py ``push_line``): the
stored line goes alone to every connection that has the log before it, never a whole view; a line
stored after the table moved on takes its place among the older lines for everyone; the counts
kept in memory are the stored ones; and a socket on another server process hears the ask, logged
and counted once whichever process stores it. On SQLite and PostgreSQL (two processes: PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
import websockets

from tests.app.test_hints import LONDON, awaited, london, london_app

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def c(db_url: str) -> Iterator[Any]:
    yield from london_app(db_url)


def first_view(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == "view":
            return dict(message)


def until_pong(ws: Any) -> list[dict[str, Any]]:
    """Every message the socket was sent before the answer to a ping sent now."""
    ws.send_json({"type": "ping"})
    got = []
    while (message := ws.receive_json())["type"] != "pong":
        got.append(message)
    return got


def log_of(c: Any, path: str) -> list[dict[str, Any]]:
    """The whole log a connection opening now is sent."""
    with c.websocket_connect(path, headers=ORIGIN) as ws:
        return list(first_view(ws)["log"])


def play(c: Any, token: str) -> None:
    legal = c.get(f"/api/seats/{token}/moves").json()
    r = c.post(f"/api/seats/{token}/moves", json={"seq": legal["seq"], "move": legal["moves"][0]})
    assert r.status_code == 200, r.text


def test_an_ask_sends_every_other_connection_its_log_line_alone_and_no_whole_view(c: Any) -> None:
    table = london(c, hints=True)
    seat, token, other = awaited(c, table)
    name = c.get(f"/api/seats/{token}").json()["name"]
    with c.websocket_connect(f"/ws/seats/{other}", headers=ORIGIN) as theirs, \
            c.websocket_connect(f"/ws/watch/{table['code']}", headers=ORIGIN) as watcher:
        seq = first_view(theirs)["seq"]
        first_view(watcher)
        assert c.post(f"/api/seats/{token}/hint").status_code == 200
        for ws in (theirs, watcher):
            told = until_pong(ws)
            assert [m["type"] for m in told if m["type"] not in ("table", "clock")] == ["log"]
            assert next(m for m in told if m["type"] == "log") == {
                "type": "log", "lines": [{"seq": seq, "text": f"{name} asked for a hint."}]}
            summaries = [m["table"] for m in told if m["type"] == "table"]
            assert summaries and summaries[-1]["hints"]["asked"] == {str(seat): 1}
        assert c.post(f"/api/seats/{token}/hint").status_code == 200  # the same decision: not again
        assert not [m for m in until_pong(theirs) if m["type"] in ("log", "view")]
    # what a page opening now reads: the line once, where it was sent live (the log's end)
    whole = log_of(c, f"/ws/seats/{other}")
    assert whole[-1] == {"seq": seq, "text": f"{name} asked for a hint."}
    assert [line["text"] for line in whole].count(f"{name} asked for a hint.") == 1


def test_an_ask_stored_after_the_table_moved_on_takes_its_place_among_the_older_lines_for_everyone(
        c: Any) -> None:
    table = london(c, hints=True)
    parlour = c.app.state.parlour
    seat, token, other = awaited(c, table)
    name = c.get(f"/api/seats/{token}").json()["name"]
    live = next(t for t in map(parlour.tables.cached, parlour.tables.cached_ids()) if t.code == table["code"])
    asker = next(p for p in live.players if p.seat == seat)
    asked_at = live.seq
    with c.websocket_connect(f"/ws/seats/{other}", headers=ORIGIN) as theirs:
        first_view(theirs)
        play(c, token)  # the seat moved while its hint was worked out: the ask is stored after this move
        until_pong(theirs)
        c.portal.call(parlour.hints._record, live.id, asker, asked_at)
        views = [m for m in until_pong(theirs) if m["type"] in ("view", "log")]
        assert [(m["type"], m.get("full")) for m in views] == [("view", True)]  # the whole log again
        lines = views[0]["log"]
    line = {"seq": asked_at, "text": f"{name} asked for a hint."}
    assert line in lines
    after = lines[lines.index(line) + 1:]
    assert after and all(later["seq"] > asked_at for later in after)  # before the move that followed it
    assert lines == log_of(c, f"/ws/seats/{other}")  # as a page opening now reads it
    parlour.tables.forget(live.id)
    assert lines == log_of(c, f"/ws/seats/{other}")  # and as the table loaded from the database gives it


def test_the_counts_kept_in_memory_are_the_stored_ones(c: Any) -> None:
    """The end screen counts each player's hints from the public summary: the counts an ask adds
    in memory must be those a process loading the table from the database reads."""
    table = london(c, hints=True)
    parlour = c.app.state.parlour
    asked: dict[str, int] = {}
    for _ in range(3):
        seat, token, _ = awaited(c, table)
        assert c.post(f"/api/seats/{token}/hint").status_code == 200
        assert c.post(f"/api/seats/{token}/hint").status_code == 200
        asked[str(seat)] = asked.get(str(seat), 0) + 1
        play(c, token)
    kept = c.get(f"/api/tables/{table['code']}").json()
    assert kept["hints"]["asked"] == asked
    for table_id in parlour.tables.cached_ids():
        assert parlour.tables.forget(table_id)
    loaded = c.get(f"/api/tables/{table['code']}").json()
    assert loaded["hints"] == kept["hints"]


async def _until(ws: Any, wanted: Any) -> list[dict[str, Any]]:
    got = []
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
        got.append(message)
        if wanted(message):
            return got


def test_an_ask_stored_by_either_process_reaches_a_socket_on_the_other_once_and_is_counted_once(
        postgres_url: str, server_factory: Any) -> None:
    env = {"BOT_THINK_SECONDS": "0.2", "BOT_WORKERS": "1"}
    a = server_factory(postgres_url, engines=LONDON, extra_env=env)
    b = server_factory(postgres_url, engines=LONDON, extra_env=env)
    with httpx.Client(base_url=a.base) as api:
        table = london(api, hints=True)
        seat, token, other = awaited(api, table)
        name = api.get(f"/api/seats/{token}").json()["name"]
    line = f"{name} asked for a hint."

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with websockets.connect(f"ws://{b.address}/ws/seats/{other}") as ws:
            await _until(ws, lambda m: m["type"] == "view")
            # the same seat and decision, through both at once; each process starts its search
            # worker at its first ask, which a loaded machine may take seconds over
            async with httpx.AsyncClient(timeout=60) as http:
                answers = await asyncio.gather(*(http.post(f"{s.base}/api/seats/{token}/hint") for s in (a, b)))
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            told = await _until(ws, lambda m: m["type"] == "log")
            await ws.send('{"type":"ping"}')
            told += await _until(ws, lambda m: m["type"] == "pong")
            async with websockets.connect(f"ws://{b.address}/ws/seats/{other}") as fresh:
                opened = await _until(fresh, lambda m: m["type"] == "view")
        return told, opened[-1]["log"]

    told, opened = asyncio.run(scenario())
    sent = [entry for m in told if m["type"] == "log" for entry in m["lines"]]
    assert [entry["text"] for entry in sent] == [line]
    assert not [m for m in told if m["type"] == "view"]
    assert [entry["text"] for entry in opened].count(line) == 1
    for server in (a, b):
        assert httpx.get(f"{server.base}/api/tables/{table['code']}").json()["hints"]["asked"] == {str(seat): 1}
