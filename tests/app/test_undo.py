"""Taking back one's own moves within the turn, through the API and the websocket: allowed while
the moves revealed nothing and nobody else moved; refused (409) after a card is drawn from the
deck, for another seat, at a stale seq; stored as an entry of its own that every seat reads in
the log, that a reload from the database follows (snapshots or not), and that the published
record verifies with."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.features.record import verify_record
from app.main import create_app
from app.server.config import Settings
from engines.registry import load_engines
from tests.support.play import started_pair

LONDON, TOWER = "engines.london:ENGINE", "engines.tower_of_london:ENGINE"


def make_client(url: str, snapshot_every: int = 50, **over: Any) -> TestClient:
    return TestClient(create_app(Settings(database_url=url, engines=(LONDON, TOWER), public_url=None,
                                          snapshot_every=snapshot_every, **over)), base_url="http://testserver")


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


def london(client: TestClient, game: str = "london") -> dict[str, Any]:
    """A started two-player table: its code and the seat tokens by seat."""
    return started_pair(client, game)


def seat(client: TestClient, token: str) -> dict[str, Any]:
    r = client.get(f"/api/seats/{token}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def move(client: TestClient, token: str, m: dict[str, Any]) -> int:
    seq = seat(client, token)["seq"]
    r = client.post(f"/api/seats/{token}/moves", json={"seq": seq, "move": m})
    assert r.status_code == 200, r.text
    return int(r.json()["seq"])


def undo(client: TestClient, token: str, seq: int | None = None) -> Any:
    return client.post(f"/api/seats/{token}/undo", json={"seq": seat(client, token)["seq"] if seq is None else seq})


def test_a_player_takes_back_a_loan_and_the_table_is_as_before(client):
    t = london(client)
    ada = t["by_seat"][0]
    before = seat(client, ada)
    assert before["undo"] is False
    move(client, ada, {"type": "take_loan"})
    after = seat(client, ada)
    assert after["undo"] is True and after["view"]["players"][0]["loans"] == 1
    r = undo(client, ada)
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == 2, "a take-back is an entry of its own: the seq goes on"
    back = seat(client, ada)
    assert back["view"] == before["view"] and back["awaiting"] == [0] and back["undo"] is False


def test_a_take_back_is_refused_after_a_card_is_drawn_from_the_deck(client):
    t = london(client)
    ada = t["by_seat"][0]
    move(client, ada, {"type": "take_loan"})
    move(client, ada, {"type": "draw", "from": "deck"})
    assert seat(client, ada)["undo"] is False
    r = undo(client, ada)
    assert r.status_code == 409 and r.json()["error"] == "cannot_undo", r.text
    # moves after the draw may be taken back again, one at a time, back to the draw and no further
    drawn = seat(client, ada)["view"]
    move(client, ada, {"type": "choose_action", "action": "develop"})
    move(client, ada, {"type": "take_loan"})
    assert undo(client, ada).status_code == 200
    assert undo(client, ada).status_code == 200
    assert seat(client, ada)["view"] == drawn
    assert undo(client, ada).status_code == 409


def test_only_the_mover_may_take_back_and_only_at_the_current_seq(client):
    t = london(client)
    ada, bea = t["by_seat"][0], t["by_seat"][1]
    seq = move(client, ada, {"type": "take_loan"})
    r = undo(client, bea)
    assert r.status_code == 409 and r.json()["error"] == "cannot_undo"
    r = undo(client, ada, seq - 1)
    assert r.status_code == 409 and r.json()["error"] == "stale" and r.json()["seq"] == seq
    for bad in ({"seq": "1"}, {"seq": seq, "extra": 1}, {}):
        assert client.post(f"/api/seats/{ada}/undo", json=bad).status_code == 422
    assert client.post("/api/seats/no-such-seat-token/undo", json={"seq": seq}).status_code == 404


def test_other_seats_read_the_take_back_in_the_log_and_spectators_cannot_take_back(client):
    t = london(client)
    ada, bea = t["by_seat"][0], t["by_seat"][1]
    with client.websocket_connect(f"/ws/seats/{ada}") as a, client.websocket_connect(f"/ws/seats/{bea}") as b, \
            client.websocket_connect(f"/ws/watch/{t['code']}") as w:
        for ws in (a, b, w):
            first = receive(ws, "view")
            assert "undo" not in first
        a.send_text(orjson.dumps({"type": "move", "seq": 0, "move": {"type": "take_loan"}}).decode())
        assert receive(a, "view")["undo"] is True
        assert "undo" not in receive(b, "view") and "undo" not in receive(w, "view")
        w.send_text(orjson.dumps({"type": "undo", "seq": 1}).decode())
        assert receive(w, "error")["error"] == "spectator"
        a.send_text(orjson.dumps({"type": "undo", "seq": 1}).decode())
        va, vb = receive(a, "view"), receive(b, "view")
        assert va["seq"] == vb["seq"] == 2 and "undo" not in va
        mover = next(p["name"] for p in client.get(f"/api/tables/{t['code']}").json()["players"] if p["seat"] == 0)
        assert [line["text"] for line in vb["log"]] == [f"{mover} took back a move"]
        assert vb["view"]["players"][0]["loans"] == 0


def test_a_move_and_a_take_back_at_once_have_one_winner_and_a_409(client):
    t = london(client)
    ada = t["by_seat"][0]
    seq = move(client, ada, {"type": "take_loan"})
    with client.websocket_connect(f"/ws/seats/{ada}") as one, client.websocket_connect(f"/ws/seats/{ada}") as two:
        receive(one, "view"), receive(two, "view")
        one.send_text(orjson.dumps({"type": "move", "seq": seq, "move": {"type": "draw", "from": "deck"}}).decode())
        two.send_text(orjson.dumps({"type": "undo", "seq": seq}).decode())
        for ws in (one, two):  # a socket's messages are handled in order: its pong comes after
            ws.send_text('{"type": "ping"}')
        outcomes = until_pong(one) + until_pong(two)
    errors = [m for m in outcomes if m["type"] == "error"]
    assert len(errors) == 1 and errors[0]["error"] == "stale", outcomes
    assert seat(client, ada)["seq"] == seq + 1


@pytest.mark.parametrize("snapshot_every", [2, 50])
def test_a_table_with_take_backs_loads_again_from_the_database_as_it_was(db_url, snapshot_every):
    """With a snapshot every 2 entries a take-back reaches back before the snapshot a load begins
    at: the load replays from the deal instead."""
    with make_client(db_url, snapshot_every) as client:
        t = london(client)
        ada = t["by_seat"][0]
        move(client, ada, {"type": "take_loan"})
        move(client, ada, {"type": "draw", "from": "deck"})
        move(client, ada, {"type": "choose_action", "action": "develop"})
        move(client, ada, {"type": "take_loan"})
        assert undo(client, ada).status_code == 200
        assert undo(client, ada).status_code == 200
        move(client, ada, {"type": "choose_action", "action": "run_city"})
        before = seat(client, ada)
        parlour = client.app.state.parlour  # type: ignore[attr-defined]
        for table_id in parlour.tables.cached_ids():
            assert parlour.tables.forget(table_id)
        again = seat(client, ada)
        assert again["view"] == before["view"] and again["seq"] == before["seq"] == 7
        assert again["undo"] is True  # the chain of moves since the draw is known again
        assert undo(client, ada).status_code == 200
        assert undo(client, ada).status_code == 409


@pytest.mark.parametrize("snapshot_every", [2, 50])
def test_a_live_table_keeps_no_turn_boundary_and_a_take_back_reads_it_from_the_store(db_url, snapshot_every):
    """The state before a turn's first move is about 13 KB of JSON in London: held for every table
    in the middle of a turn, it was most of what a thousand tables grew by in play. The table keeps
    the turn's moves only; a take-back reads the state before them from the store (from a snapshot
    inside the turn or from the deal), and keeps it for the turn's further take-backs."""
    with make_client(db_url, snapshot_every) as client:
        t = london(client)
        ada = t["by_seat"][0]
        move(client, ada, {"type": "draw", "from": "deck"})  # a card drawn: nothing before it goes back
        drawn = seat(client, ada)
        move(client, ada, {"type": "take_loan"})
        move(client, ada, {"type": "choose_action", "action": "develop"})
        move(client, ada, {"type": "take_loan"})
        parlour = client.app.state.parlour  # type: ignore[attr-defined]
        (live,) = [parlour.tables.cached(i) for i in parlour.tables.cached_ids()]
        assert live.chain is not None and live.chain.base is None and live.chain.base_seq == 1
        assert [seq for seq, _ in live.chain.moves] == [2, 3, 4]
        assert undo(client, ada).status_code == 200
        assert live.chain.base is not None, "read once, kept for the turn's further take-backs"
        assert undo(client, ada).status_code == 200
        assert undo(client, ada).status_code == 200
        back = seat(client, ada)
        assert back["view"] == drawn["view"] and back["undo"] is False and back["seq"] == 7
        assert undo(client, ada).status_code == 409


def test_a_finished_game_with_take_backs_publishes_a_record_that_verifies(client):
    """Tower of London: chosen cards may be chosen again while the other seat still chooses."""
    t = london(client, "tower_of_london")
    toks = t["by_seat"]
    takes = 0
    for _ in range(2000):
        info = {s: seat(client, toks[s]) for s in (0, 1)}
        if info[0]["status"] == "finished":
            break
        taker = next((s for s in (0, 1) if info[s]["undo"]), None)
        if taker is not None and takes < 6:
            assert undo(client, toks[taker]).status_code == 200
            takes += 1
            continue
        awaiting = info[0]["awaiting"]
        who = awaiting[0]
        moves = client.get(f"/api/seats/{toks[who]}/moves").json()
        r = client.post(f"/api/seats/{toks[who]}/moves", json={"seq": moves["seq"], "move": moves["moves"][-1]})
        assert r.status_code == 200, r.text
        if info[who]["view"].get("phase") in ("pick", "keep") and len(awaiting) > 1:
            assert seat(client, toks[who])["undo"] is True, "a choice while another still chooses"
    assert takes == 6
    record = client.get(f"/api/tables/{t['code']}/record").json()
    assert sum(1 for m in record["moves"] if "undo" in m["move"]) == 6
    engines = load_engines((LONDON, TOWER))
    assert verify_record(record, engines) == []
    # a take-back the rules did not allow is caught
    forged = dict(record, moves=[*record["moves"]])
    first = next(i for i, m in enumerate(forged["moves"]) if "undo" in m["move"])
    forged["moves"][first] = {**forged["moves"][first], "seat": 1 - forged["moves"][first]["seat"]}
    assert any("take" in p for p in verify_record(forged, engines))


def test_an_absent_player_cannot_take_back_while_a_bot_holds_their_seat(db_url):
    """Ada takes a loan and goes; her seat is voted to a bot. Her take-back is refused like her
    moves (409 seat_changed_hands: it once answered 200 and undid the loan under the bot), over
    the API and over a socket left open while the seat changed hands; once she is back (her seat's
    socket opened), the loan is hers to take back again."""
    import time

    from sqlalchemy import update

    from app.storage.models import Player

    origin = {"origin": "http://testserver"}
    # the bot, once given the seat, holds it a minute before it moves: long past this test
    with make_client(db_url, bot_delay_seconds=60, bot_think_seconds=0.05) as client:
        r = client.post("/api/tables", json={"game": "london", "name": "Ada", "bot_after_seconds": 1})
        code, tokens = r.json()["code"], [r.json()["seat_token"]]
        tokens.append(client.post(f"/api/tables/{code}/join", json={"name": "Bea"}).json()["seat_token"])
        assert client.post(f"/api/seats/{tokens[0]}/start").status_code == 200
        by_seat = {seat(client, tok)["seat"]: tok for tok in tokens}
        first = seat(client, tokens[0])["awaiting"][0]
        ada, bea = by_seat[first], by_seat[1 - first]
        seq = move(client, ada, {"type": "take_loan"})
        with client.websocket_connect(f"/ws/seats/{bea}", headers=origin):
            for _ in range(100):  # a second away, and Bea (present) may vote
                r = client.post(f"/api/seats/{bea}/handover", json={"seat": first, "level": "easy"})
                if r.status_code == 200:
                    break
                assert r.json()["error"] in ("not_away", "not_present"), r.text  # Bea's presence not yet heard
                time.sleep(0.1)
            assert r.json()["handed"] is True, r.text
            r = undo(client, ada)
            assert r.status_code == 409 and r.json()["error"] == "seat_changed_hands", r.text
            assert seat(client, ada)["seq"] == seq and seat(client, bea)["view"]["players"][first]["loans"] == 1
            with client.websocket_connect(f"/ws/seats/{ada}", headers=origin) as ws:  # back: her seat again
                receive(ws, "view")
                parlour = client.app.state.parlour

                async def handed_again() -> None:
                    """The seat goes to a bot while her socket stays open (as when another process
                    counted her away before it heard she was back)."""
                    live = await parlour.tables.by_code(code)
                    async with parlour.sessions() as s:
                        await s.execute(update(Player).where(Player.table_id == live.id, Player.seat == first)
                                        .values(bot="easy"))
                        await s.commit()
                    async with parlour.tables.hold(live.id) as held:
                        await parlour.tables.reload(held)

                client.portal.call(handed_again)
                ws.send_text(orjson.dumps({"type": "undo", "seq": seq}).decode())
                assert receive(ws, "error")["error"] == "seat_changed_hands"
            assert seat(client, ada)["seq"] == seq
            with client.websocket_connect(f"/ws/seats/{ada}", headers=origin) as ws:  # back again
                receive(ws, "view")
                ws.send_text(orjson.dumps({"type": "undo", "seq": seq}).decode())
                assert receive(ws, "view")["seq"] == seq + 1
        assert seat(client, bea)["view"]["players"][first]["loans"] == 0


def receive(ws: Any, kind: str, limit: int = 10) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


def until_pong(ws: Any, limit: int = 10) -> list[dict[str, Any]]:
    out = []
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == "pong":
            return out
        out.append(msg)
    raise AssertionError("no pong")


@pytest.mark.pg
def test_a_take_back_on_one_server_process_reaches_a_socket_on_another(postgres_url, server_factory):
    """The take-back entry travels to the other process like a move (PostgreSQL NOTIFY), which
    follows it on its cached table: its socket is shown the state before the taken-back move."""
    import asyncio

    import httpx
    import websockets

    one, two = server_factory(postgres_url, engines=LONDON), server_factory(postgres_url, engines=LONDON)
    with httpx.Client(base_url=one.base) as api:
        t = london(api)  # type: ignore[arg-type]  # an httpx client answers like the test client
        ada, bea = t["by_seat"][0], t["by_seat"][1]

        async def watch() -> list[dict[str, Any]]:
            seen: list[dict[str, Any]] = []
            async with websockets.connect(f"ws://127.0.0.1:{two.port}/ws/seats/{bea}") as ws:
                async def until(seq: int) -> None:
                    while True:
                        msg = orjson.loads(await asyncio.wait_for(ws.recv(), 20))
                        if msg["type"] == "view":
                            seen.append(msg)
                            if msg["seq"] >= seq:
                                return
                await until(0)
                seq = (await asyncio.to_thread(api.post, f"/api/seats/{ada}/moves",
                                               json={"seq": 0, "move": {"type": "take_loan"}})).json()["seq"]
                await until(seq)
                r = await asyncio.to_thread(api.post, f"/api/seats/{ada}/undo", json={"seq": seq})
                assert r.status_code == 200, r.text
                await until(seq + 1)
            return seen

        seen = asyncio.run(watch())
    first, last = seen[0], seen[-1]
    assert last["seq"] == 2 and last["view"] == first["view"]
    assert any(line["text"].endswith("took back a move") for line in last["log"])
    assert httpx.get(f"{two.base}/api/seats/{ada}").json()["undo"] is False
    # the second process read the turn's boundary from the store; it did not rebuild the table
    assert "rebuilding it" not in two.log_text()
