"""Bots at the table (app/tables/bot_seats.py): seated in the waiting room, handed an absent player's
seat by the others' vote and giving it back, playing through the mover like anyone — once, with
two server processes — and refusing bad requests."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import orjson
import websockets

from tests.support.play import found, join
from tests.support.server import ROOT

FAST_BOTS = {"BOT_DELAY_SECONDS": "0", "BOT_THINK_SECONDS": "0.05", "BOT_WORKERS": "1"}


async def until(check: Callable[[], Awaitable[Any]], timeout: float = 20.0, what: str = "") -> Any:
    """Poll ``check`` (every 50 ms) until it answers something true."""
    deadline = time.monotonic() + timeout
    while True:
        got = await check()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def drain_log(ws: Any, seen: list[str], timeout: float = 0.2) -> None:
    """Read what the socket was sent for a moment; keep its log lines (a full log replaces)."""
    try:
        while True:
            msg = orjson.loads(await asyncio.wait_for(ws.recv(), timeout))
            if msg["type"] == "view":
                if msg.get("full"):
                    seen.clear()
                seen.extend(line["text"] for line in msg["log"])
    except TimeoutError:
        return


def player(table: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in table["players"] if p["name"] == name)


# -- what a bot sees ----------------------------------------------------------------------------


def test_the_bot_worker_chooses_the_same_move_on_the_true_state_and_on_any_determinization():
    """The server hands the worker the table's encoded state; the worker searches only a
    determinization of it, so with the same seed its move cannot depend on hidden cards."""
    from app.tables import bot_worker
    from engines.base import new_game
    from engines.bots import decide
    from engines.kit.rng import Rng
    from engines.registry import load_engines
    from tests.support.server import TALLY

    bot_worker._engines.update(load_engines((TALLY,)))
    engine = bot_worker._engines["tally"]
    state = new_game(engine, 3, 2024, {"target": 51})
    rng = Rng.from_seed(3)
    for _ in range(4):
        seat = min(engine.to_act(state))
        engine.play(state, seat, decide(engine, state, seat, "easy", rng).move)
    seat = min(engine.to_act(state))
    far = time.monotonic() + 600  # the iterations end the search: reproducible
    for level in ("easy", "good"):
        answers = set()
        for seed in (1, 2, 3, 4):
            truth = bot_worker.think("tally", orjson.dumps(engine.encode(state)), seat, level, seed, far, 200)
            answers.add(truth["card"])
            for k in range(4):
                other = engine.determinize(state, seat, Rng.from_seed(100 + k))
                assert bot_worker.think("tally", orjson.dumps(engine.encode(other)), seat, level, seed, far,
                                        200) == truth, (level, seed, k)
        assert len(answers) == 2  # the seed matters (the choice is a real one): only the hidden cards do not


# -- a whole game against a bot ---------------------------------------------------------------


def test_a_bot_seated_in_the_waiting_room_plays_a_whole_london_game_against_a_player(sqlite_url, server_factory):
    server = server_factory(sqlite_url, engines="engines.london:ENGINE", extra_env=FAST_BOTS)
    with httpx.Client(base_url=server.base, timeout=30) as c:
        ada = found(c, "Ada", game="london")
        token, code = ada["seat_token"], ada["code"]
        assert c.post(f"/api/seats/{token}/start").status_code == 409  # one player: too few
        r = c.post(f"/api/seats/{token}/bots", json={"level": "good"})
        assert r.status_code == 201 and r.json()["name"] == "Good bot 1"
        assert c.post(f"/api/seats/{token}/start").status_code == 200  # the bot counts toward the minimum
        table = c.get(f"/api/tables/{code}").json()
        bot = player(table, "Good bot 1")
        assert bot["is_bot"] and bot["bot"] == "good" and not player(table, "Ada")["is_bot"]
        mine = c.get(f"/api/seats/{token}").json()["seat"]

    async def play() -> tuple[int, list[str]]:
        rng, ours, lines = random.Random(7), 0, []
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/seats/{token}", max_size=2**22) as ws, \
                httpx.AsyncClient(base_url=server.base, timeout=30) as ac:
            while True:
                msg = orjson.loads(await asyncio.wait_for(ws.recv(), 30))  # the bot answers by itself
                if msg["type"] != "view":
                    continue
                lines.extend(line["text"] for line in msg["log"])
                if msg["status"] == "finished":
                    return ours, lines
                if mine in msg["awaiting"]:
                    legal = (await ac.get(f"/api/seats/{token}/moves")).json()
                    if legal["seq"] != msg["seq"]:
                        continue  # a newer view is on its way
                    r = await ac.post(f"/api/seats/{token}/moves",
                                      json={"seq": legal["seq"], "move": rng.choice(legal["moves"])})
                    assert r.status_code == 200, r.text
                    ours += 1

    ours, lines = asyncio.run(play())
    with httpx.Client(base_url=server.base, timeout=30) as c:
        record = c.get(f"/api/tables/{code}/record").json()
        bot_moves = [m for m in record["moves"] if m["seat"] == bot["seat"]]
        assert ours > 0 and len(bot_moves) == len(record["moves"]) - ours > 0
        finished = c.get(f"/api/tables/{code}").json()
        assert finished["status"] == "finished" and player(finished, "Good bot 1")["is_bot"]  # the final table
        assert c.get("/api/stats").json()["bots"]["played"] == len(bot_moves)
    assert any("Good bot 1" in line for line in lines)  # named in the log as a bot
    check = subprocess.run([sys.executable, "-m", "app.cli", "verify", f"{server.base}/api/tables/{code}/record"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


# -- an absent player's seat ------------------------------------------------------------------


def test_a_majority_of_present_players_hands_an_absent_seat_to_a_bot_and_the_player_takes_it_back(
        sqlite_url, server_factory):
    server = server_factory(sqlite_url, extra_env=FAST_BOTS)
    with httpx.Client(base_url=server.base, timeout=30) as c:
        r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"target": 51},
                                        "bot_after_seconds": 1})
        ada, code = r.json()["seat_token"], r.json()["code"]
        bob = join(c, code, "Bob")["seat_token"]
        cy = join(c, code, "Cy")["seat_token"]
        assert c.post(f"/api/seats/{ada}/start").status_code == 200
        cy_seat = c.get(f"/api/seats/{cy}").json()["seat"]
    ws_base = f"ws://127.0.0.1:{server.port}/ws/seats/"

    async def scenario() -> None:
        async with websockets.connect(ws_base + ada) as ws_ada, websockets.connect(ws_base + bob) as ws_bob, \
                httpx.AsyncClient(base_url=server.base, timeout=30) as ac:
            async def vote(token: str) -> httpx.Response:
                return await ac.post(f"/api/seats/{token}/handover", json={"seat": cy_seat})

            async def table() -> dict[str, Any]:
                return dict((await ac.get(f"/api/tables/{code}")).json())

            # Cy never came: after a second away, Ada and Bob (present) may vote; two make a majority.
            r = await vote(ada)
            if r.status_code == 409:  # asked within the first second
                assert r.json()["error"] == "not_away"
            await until(lambda: _handover_of(table, "Cy"), what="Cy's seat to be open to a vote")
            r = await vote(ada)
            assert r.status_code == 200 and r.json() == {"seat": cy_seat, "votes": 1, "needed": 2, "handed": False}
            assert (await vote(ada)).json()["votes"] == 1  # a vote counts once
            assert player(await table(), "Cy")["handover"] == {"votes": 1, "needed": 2}
            r = await vote(bob)
            assert r.status_code == 200 and r.json()["handed"] is True
            assert (await vote(bob)).status_code == 409  # already a bot's
            cy_now = player(await table(), "Cy")
            assert cy_now["bot"] == "good" and not cy_now["is_bot"] and "handover" not in cy_now
            lines: list[str] = []
            await drain_log(ws_ada, lines)
            assert any("a bot (good) now plays Cy's seat" in line for line in lines), lines

            # The bot plays Cy's turns; Cy's own moves are refused meanwhile.
            humans = {(await ac.get(f"/api/seats/{t}")).json()["seat"]: t for t in (ada, bob)}
            await until(lambda: _bot_played(ac, code, humans), what="the bot to play Cy's seat")
            seq = (await table())["seq"]
            refused = await ac.post(f"/api/seats/{cy}/moves", json={"seq": seq, "move": {"type": "play", "card": 1}})
            assert refused.status_code == 409 and refused.json()["error"] == "seat_changed_hands"
            # Cy opens the seat's address: the seat is Cy's again, and the log says so.
            assert (await ac.get(f"/seat/{cy}")).status_code == 200
            assert player(await table(), "Cy")["bot"] is None
            await drain_log(ws_bob, lines := [])
            assert any("Cy is back" in line for line in lines), lines
            assert any("now plays Cy's seat" in line for line in lines)  # both changes, in order
            assert lines.index(next(x for x in lines if "now plays Cy's seat" in x)) < \
                lines.index(next(x for x in lines if "Cy is back" in x))

    asyncio.run(scenario())


async def _handover_of(table: Callable[[], Awaitable[dict[str, Any]]], name: str) -> Any:
    return player(await table(), name).get("handover")


async def _bot_played(ac: httpx.AsyncClient, code: str, humans: dict[int, str]) -> bool:
    """Has a bot played yet? If not, the humans awaited play a move each to get it there."""
    if (await ac.get("/api/stats")).json()["bots"]["played"]:
        return True
    table = (await ac.get(f"/api/tables/{code}")).json()
    for seat in table["awaiting"]:
        if seat in humans:
            legal = (await ac.get(f"/api/seats/{humans[seat]}/moves")).json()
            if legal["moves"]:
                await ac.post(f"/api/seats/{humans[seat]}/moves", json={"seq": legal["seq"], "move": legal["moves"][0]})
    return False


# -- two processes ----------------------------------------------------------------------------


def test_a_bot_move_is_stored_once_and_only_one_process_plays_for_the_bot(postgres_url, server_factory):
    a = server_factory(postgres_url, extra_env=FAST_BOTS)
    b = server_factory(postgres_url, extra_env=FAST_BOTS)
    with httpx.Client(base_url=a.base, timeout=30) as c:
        ada = found(c, "Ada", game="tally", target=51)
        token, code = ada["seat_token"], ada["code"]
        assert c.post(f"/api/seats/{token}/bots", json={"level": "easy"}).status_code == 201
        assert c.post(f"/api/seats/{token}/start").status_code == 200
        mine = c.get(f"/api/seats/{token}").json()["seat"]

    async def scenario() -> int:
        # Both processes hold the table and hear of every move: Ada plays on one, watched on the other.
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/ws/seats/{token}") as ws, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/ws/watch/{code}"), \
                httpx.AsyncClient(timeout=30) as ac:
            ours = 0
            while True:
                msg = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
                if msg["type"] != "view":
                    continue
                if msg["status"] == "finished":
                    return ours
                if mine in msg["awaiting"]:
                    base = (a, b)[ours % 2].base  # Ada's moves go through both processes in turn
                    legal = (await ac.get(f"{base}/api/seats/{token}/moves")).json()
                    # the other process learns of the bot's move a moment later: ask it again
                    # until it has (a later seq means a newer view is on its way here)
                    for _ in range(100):
                        if legal["seq"] >= msg["seq"]:
                            break
                        await asyncio.sleep(0.05)
                        legal = (await ac.get(f"{base}/api/seats/{token}/moves")).json()
                    if legal["seq"] != msg["seq"]:
                        continue
                    r = await ac.post(f"{base}/api/seats/{token}/moves",
                                      json={"seq": legal["seq"], "move": legal["moves"][0]})
                    assert r.status_code == 200, r.text
                    ours += 1

    ours = asyncio.run(scenario())
    record = httpx.get(f"{a.base}/api/tables/{code}/record").json()
    bot_moves = len(record["moves"]) - ours
    assert bot_moves > 0 and sorted(m["seq"] for m in record["moves"]) == list(range(1, len(record["moves"]) + 1))
    stats = [httpx.get(f"{s.base}/api/stats").json()["bots"] for s in (a, b)]
    assert sum(s["played"] for s in stats) == bot_moves  # every bot move stored once …
    assert sorted(s["played"] for s in stats)[0] == 0  # … by one process: the other never played for it
    assert sum(s["refused"] + s["failed"] for s in stats) == 0  # nor chose a move it then could not store


def test_two_last_votes_for_one_seat_on_two_processes_hand_it_over_once(postgres_url, server_factory):
    a = server_factory(postgres_url, extra_env=FAST_BOTS)
    b = server_factory(postgres_url, extra_env=FAST_BOTS)
    with httpx.Client(base_url=a.base, timeout=30) as c:
        r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"target": 51},
                                        "bot_after_seconds": 1})
        ada, code = r.json()["seat_token"], r.json()["code"]
        bob = join(c, code, "Bob")["seat_token"]
        assert c.post(f"/api/seats/{ada}/start").status_code == 200
        ada_seat = c.get(f"/api/seats/{ada}").json()["seat"]

    async def scenario() -> list[int]:
        # Bob is present (on a); Ada never came. Bob alone is the majority of those present.
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/ws/seats/{bob}"), \
                httpx.AsyncClient(timeout=30) as ac:
            for s in (a, b):
                async def open_to_vote(base: str = s.base) -> Any:
                    table = (await ac.get(f"{base}/api/tables/{code}")).json()
                    return player(table, "Ada").get("handover")
                await until(open_to_vote, what="Ada's seat to be open to a vote on both processes")
            rs = await asyncio.gather(*(ac.post(f"{s.base}/api/seats/{bob}/handover", json={"seat": ada_seat})
                                        for s in (a, b)))
            return sorted(r.status_code for r in rs)

    assert asyncio.run(scenario()) == [200, 409]
    for s in (a, b):
        assert player(httpx.get(f"{s.base}/api/tables/{code}").json(), "Ada")["bot"] == "good"
    lines = httpx.get(f"{a.base}/api/seats/{bob}").json()
    assert lines["status"] == "playing"


# -- bad requests -----------------------------------------------------------------------------


def test_bad_bot_requests_are_refused_with_a_clear_4xx(sqlite_client):
    c = sqlite_client
    ada = found(c, "Ada")
    token, code = ada["seat_token"], ada["code"]
    bob = join(c, code, "Bob")["seat_token"]
    add = f"/api/seats/{token}/bots"
    assert c.post(add, json={"level": "genius"}).status_code == 422  # unknown level
    assert c.post(add, json={}).status_code == 422
    assert c.post(add, content=b"{not json").status_code == 422
    assert c.post(add, json={"level": "easy", "extra": 1}).status_code == 422
    r = c.post(f"/api/seats/{bob}/bots", json={"level": "easy"})
    assert r.status_code == 403 and r.json()["error"] == "not_founder"  # only the founder
    assert c.post("/api/seats/nobody-has-this-token/bots", json={"level": "easy"}).status_code == 404
    assert c.post(add, json={"level": "easy"}).json()["name"] == "Easy bot 1"
    assert c.post(add, json={"level": "easy"}).json()["name"] == "Easy bot 2"
    r = c.post(add, json={"level": "good"})  # Tally seats four: Ada, Bob and two bots
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    r = c.post(f"/api/tables/{code}/join", json={"name": "Cy"})
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    assert c.post(f"/api/seats/{token}/remove", json={"name": "Easy bot 2"}).status_code == 200
    assert c.post(f"/api/seats/{token}/start").status_code == 200
    r = c.post(add, json={"level": "easy"})
    assert r.status_code == 409 and r.json()["error"] == "already_started"
    hand = f"/api/seats/{bob}/handover"
    assert c.post(hand, json={"seat": "zero"}).status_code == 422
    assert c.post(hand, json={"seat": -1}).status_code == 422
    assert c.post(hand, json={"seat": 0, "level": "genius"}).status_code == 422
    r = c.post(hand, json={"seat": 0})
    assert r.status_code == 409 and r.json()["error"] == "handover_off"  # the founder left it off
    for bad in (-5, 0.5, "soon", True, 10**9):
        r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "bot_after_seconds": bad})
        assert r.status_code == 422, (bad, r.text)


def test_the_founder_seats_and_removes_a_bot_through_the_waiting_room_forms(sqlite_client):
    c = sqlite_client
    ada = found(c, "Ada")
    token, code = ada["seat_token"], ada["code"]
    bob = join(c, code, "Bob")["seat_token"]
    page = c.get(f"/seat/{token}").text
    assert 'id="add-bot"' in page and 'id="add-bot"' not in c.get(f"/seat/{bob}").text  # the founder's only
    same_site = {"Origin": "http://testserver"}
    r = c.post(f"/seat/{token}/bots", data={"level": "easy"}, headers=same_site, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/seat/{token}"
    page = c.get(f"/seat/{token}").text
    assert "Easy bot 1" in page and "bot · easy" in page and 'id="remove-bot"' in page
    r = c.post(f"/seat/{token}/bots", data={"level": "easy"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403  # another site's form
    r = c.post(f"/seat/{token}/bots", data={"level": "genius"}, headers=same_site)
    assert r.status_code == 422 and "level" in r.text
    r = c.post(f"/seat/{bob}/bots", data={"level": "easy"}, headers=same_site)
    assert r.status_code == 403
    r = c.post(f"/seat/{token}/bots/remove", data={"name": "Bob"}, headers=same_site)
    assert r.status_code == 404  # the form removes bots only
    r = c.post(f"/seat/{token}/bots/remove", data={"name": "Easy bot 1"}, headers=same_site, follow_redirects=False)
    assert r.status_code == 303
    assert [p["name"] for p in c.get(f"/api/tables/{code}").json()["players"]] == ["Ada", "Bob"]
    r = c.post("/found", data={"game": "tally", "name": "Cy", "bot_after": "900"}, headers=same_site,
               follow_redirects=False)
    assert r.status_code == 303
    r = c.post("/found", data={"game": "tally", "name": "Cy", "bot_after": "soon"}, headers=same_site)
    assert r.status_code == 422
