"""Two server processes on one PostgreSQL, racing: moves, joins and the start. Whatever the
interleaving, exactly one racer wins, the others are told 409, and no socket is ever shown a
state that did not happen."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
import websockets

from tests.conftest import reset_postgres
from tests.support.play import found, join, started_table
from tests.support.server import ServerProcess

pytestmark = pytest.mark.pg


@pytest.fixture(scope="module")
def two_servers(postgres_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    """Two server processes on one PostgreSQL, shared by this module's races (each race uses
    tables of its own)."""
    from app.storage.db import migrate

    reset_postgres(postgres_server)
    migrate(postgres_server)
    logs = tmp_path_factory.mktemp("races")
    servers = [ServerProcess(postgres_server, logs / f"server{i}.log") for i in range(2)]
    try:
        for s in servers:
            s.start()
        yield servers[0], servers[1]
    finally:
        for s in servers:
            s.stop()


async def views_until_quiet(ws: Any, quiet: float = 0.3) -> list[dict[str, Any]]:
    out = []
    while True:
        try:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), quiet))
        except TimeoutError:
            return out
        if msg["type"] == "view":
            out.append(msg)


def test_simultaneous_hidden_picks_on_two_processes_never_show_the_losers_pick(two_servers):
    a, b = two_servers
    tables = []
    with httpx.Client(base_url=a.base) as c:
        for _ in range(5):
            tables.append(started_table(c, ("Ada", "Bob"), vote=True))

    async def race(t: dict[str, Any]) -> None:
        urls = {0: f"ws://127.0.0.1:{a.port}/ws/seats/{t['by_seat'][0]}",
                1: f"ws://127.0.0.1:{b.port}/ws/seats/{t['by_seat'][1]}"}
        async with websockets.connect(urls[0]) as ws0, websockets.connect(urls[1]) as ws1:
            socks = {0: ws0, 1: ws1}
            for ws in socks.values():
                assert (await views_until_quiet(ws, 0.3))[-1]["seq"] == 0
            await asyncio.gather(*(ws.send(orjson.dumps(
                {"type": "move", "seq": 0, "move": {"type": "vote", "value": 1 + seat}}).decode())
                for seat, ws in socks.items()))
            seen = {seat: await views_until_quiet(ws) for seat, ws in socks.items()}
        truth = httpx.get(f"{a.base}/api/tables/{t['code']}").json()
        assert truth["seq"] == 1, "one pick was stored, the other refused"
        loser = truth["awaiting"][0]
        winner = 1 - loser
        for seat, views in seen.items():
            assert views and views[-1]["seq"] == 1, f"seat {seat} was left behind"
            for v in views:
                assert v["seq"] == 1 and v["view"]["voted"] == [winner] and v["awaiting"] == [loser], v
                if seat == loser:
                    assert v["view"]["my_vote"] is None, "a pick that was never stored was shown"

    for t in tables:
        asyncio.run(race(t))


def test_racing_moves_at_many_tables_on_two_processes_get_one_200_and_otherwise_409(two_servers):
    a, b = two_servers
    with httpx.Client(base_url=a.base) as c:
        tables = [started_table(c, ("Ada", "Bob"), target=51) for _ in range(8)]
    for t in tables:
        httpx.get(f"{b.base}/api/seats/{t['tokens'][0]}")  # both processes hold every table

    async def round_(seq: int) -> None:
        async with httpx.AsyncClient(timeout=30) as ac:
            plays = []
            for t in tables:
                info = (await ac.get(f"{a.base}/api/tables/{t['code']}")).json()
                token = t["by_seat"][info["awaiting"][0]]
                move = (await ac.get(f"{a.base}/api/seats/{token}/moves")).json()["moves"][0]
                plays.append((token, move))
            # The same moves through both processes, in opposite orders, all at once.
            sends = [ac.post(f"{server.base}/api/seats/{tok}/moves", json={"seq": seq, "move": mv})
                     for server, order in ((a, plays), (b, plays[::-1])) for tok, mv in order]
            answers = await asyncio.gather(*sends)
        per_table: dict[str, list[int]] = {}
        for (tok, _), r in zip(plays + plays[::-1], answers, strict=True):
            assert r.status_code in (200, 409), r.text
            per_table.setdefault(tok, []).append(r.status_code)
        assert all(sorted(codes) == [200, 409] for codes in per_table.values()), per_table

    for seq in range(5):
        asyncio.run(round_(seq))
    for server in (a, b):
        for t in tables:
            assert httpx.get(f"{server.base}/api/tables/{t['code']}").json()["seq"] == 5
    assert "Traceback" not in a.log_text() + b.log_text()


def test_two_people_taking_the_last_seat_through_two_processes_one_gets_it(two_servers):
    a, b = two_servers
    for attempt in range(4):
        with httpx.Client(base_url=a.base) as c:
            code = found(c, "Ada")["code"]
            join(c, code, "Bob")
            join(c, code, "Cy")
        httpx.get(f"{b.base}/api/tables/{code}")

        async def race(code: str = code, attempt: int = attempt) -> list[int]:
            async with httpx.AsyncClient(timeout=30) as ac:
                rs = await asyncio.gather(
                    ac.post(f"{a.base}/api/tables/{code}/join", json={"name": f"Dee{attempt}"}),
                    ac.post(f"{b.base}/api/tables/{code}/join", json={"name": f"Eve{attempt}"}))
            return sorted(r.status_code for r in rs)

        assert asyncio.run(race()) == [201, 409]
        for server in (a, b):
            assert len(httpx.get(f"{server.base}/api/tables/{code}").json()["players"]) == 4


def test_a_join_racing_the_start_on_another_process_is_seated_or_refused(two_servers):
    a, b = two_servers
    for _ in range(5):
        with httpx.Client(base_url=a.base) as c:
            body = found(c, "Ada")
            join(c, body["code"], "Bob")
        httpx.get(f"{b.base}/api/tables/{body['code']}")

        async def race(body: dict[str, Any] = body) -> tuple[int, httpx.Response]:
            async with httpx.AsyncClient(timeout=30) as ac:
                start, joined = await asyncio.gather(
                    ac.post(f"{a.base}/api/seats/{body['seat_token']}/start"),
                    ac.post(f"{b.base}/api/tables/{body['code']}/join", json={"name": "Late"}))
            return start.status_code, joined

        started, joined = asyncio.run(race())
        assert started == 200
        assert joined.status_code in (201, 409), joined.text
        for server in (a, b):
            deadline = time.monotonic() + 10  # the start reaches the other process (a busy machine: slowly)
            table = httpx.get(f"{server.base}/api/tables/{body['code']}").json()
            while table["status"] != "playing" and time.monotonic() < deadline:
                time.sleep(0.05)
                table = httpx.get(f"{server.base}/api/tables/{body['code']}").json()
            assert table["status"] == "playing"
            assert all(p["seat"] is not None for p in table["players"]), table["players"]
            assert ("Late" in {p["name"] for p in table["players"]}) == (joined.status_code == 201)
        if joined.status_code == 201:
            seat = httpx.get(f"{b.base}/api/seats/{joined.json()['seat_token']}").json()
            assert seat["seat"] is not None
