"""A move changes the live state only once it is stored: nothing derived from an unstored move
leaves the server, a move that cannot be stored fails alone, and the stored move is the listed one.

In-process, against the server's own parts, so the moments in between can be held still."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from sqlalchemy import select

from app.parlour import Parlour
from app.play.hub import Connection
from app.play.journal import MoveWrite, SqliteJournal, make_journal
from app.play.live import LiveTable, PlayerInfo
from app.play.notify import Notifier
from app.play.wire import public_summary
from app.server.errors import ApiError
from app.storage.models import MoveRecord
from app.storage.tokens import hash_token
from engines.base import canonical_move
from tests.conftest import make_settings


class Lenient:
    """Tally as engines were before the engine kit: fields it does not know are ignored, so a
    move can carry anything beside them (here a number no 64-bit JSON encoder takes)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @staticmethod
    def known(move: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in move.items() if k in ("type", "card", "value")}

    def play(self, state: Any, seat: int, move: dict[str, Any]) -> Any:
        return self.inner.play(state, seat, self.known(move))

    def canonical(self, move: dict[str, Any]) -> dict[str, Any]:
        return canonical_move(self.inner, self.known(move))


class Seats:
    def __init__(self, parlour: Parlour, table_id: int, tokens: list[str]) -> None:
        self.parlour = parlour
        self.table_id = table_id
        self.tokens = tokens

    async def live(self) -> LiveTable:
        live = await self.parlour.tables.get(self.table_id)
        assert live is not None
        return live

    async def player(self, seat: int) -> PlayerInfo:
        live = await self.live()
        return next(p for p in live.players if p.seat == seat)

    async def awaited(self) -> tuple[PlayerInfo, dict[str, Any]]:
        live = await self.live()
        seat = live.awaiting[0]
        return await self.player(seat), live.engine.legal_moves(live.state, seat)[0]


async def started(parlour: Parlour, names: tuple[str, ...] = ("Ada", "Bob"), **options: Any) -> Seats:
    ticket = await parlour.rooms.found("tally", names[0], options)
    tokens = [ticket.token] + [(await parlour.rooms.join(ticket.table_id, n)).token for n in names[1:]]
    await parlour.rooms.start(hash_token(ticket.token))
    return Seats(parlour, ticket.table_id, tokens)


class Socket:
    """A connection whose sent messages are kept."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.sent.append(orjson.loads(message["text"]))

    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "view"]


@pytest.fixture
async def parlour(sqlite_url: str):
    p = Parlour(make_settings(sqlite_url))
    p.engines.host("tally", Lenient(p.engines["tally"]))  # type: ignore[arg-type]
    await p.start()
    yield p
    await p.stop()


async def test_a_move_waiting_for_its_commit_is_shown_to_nobody_and_undone_when_storing_fails(parlour, monkeypatch):
    seats = await started(parlour)
    player, move = await seats.awaited()
    other = await seats.player(1 - player.seat)
    live = await seats.live()
    before = live.engine.view(live.state, other.seat)
    gate = asyncio.Event()

    async def failing_append(write: MoveWrite) -> bool:
        await gate.wait()
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(parlour.journal, "append", failing_append)
    task = asyncio.create_task(parlour.mover.play(live, player, 0, move))
    await asyncio.sleep(0.05)  # the move is applied to the cached game, its commit not done
    socket = Socket()
    parlour.hub.join(Connection(socket, live.id, other.id, seat=other.seat), live)  # a socket opens now
    summary = public_summary(live)
    assert summary["seq"] == 0 and summary["awaiting"] == [player.seat]
    gate.set()
    with pytest.raises(ApiError) as refused:
        await task
    assert refused.value.status == 503 and refused.value.error == "not_stored"
    await asyncio.sleep(0.05)
    views = socket.views()
    assert views, "the socket was shown the table once the failed move was undone"
    assert all(v["seq"] == 0 and v["view"] == before and v["awaiting"] == [player.seat] for v in views)
    fresh = await seats.live()
    assert fresh.seq == 0 and fresh.engine.view(fresh.state, other.seat) == before
    monkeypatch.undo()
    assert await parlour.mover.play(fresh, player, 0, move) == 1  # the same move, stored this time


async def test_a_move_the_journal_cannot_encode_fails_alone_and_its_group_commit_succeeds(parlour):
    tables = [await started(parlour) for _ in range(6)]
    poisoned = tables[0]
    p_player, p_move = await poisoned.awaited()
    bad = {**p_move, "note": 2**70}  # the engine ignores it; no 64-bit JSON encoder takes it
    batches = parlour.journal.batches
    plays = []
    for t in tables:
        player, move = await t.awaited()
        plays.append(parlour.mover.play(await t.live(), player, 0, move) if t is not poisoned else
                     parlour.mover.play(await t.live(), p_player, 0, bad))
    outcomes = await asyncio.gather(*plays, return_exceptions=True)
    assert isinstance(outcomes[0], ApiError) and outcomes[0].status == 422
    assert outcomes[0].error == "malformed_move"
    assert outcomes[1:] == [1] * 5
    commits = parlour.journal.batches - batches
    if isinstance(parlour.journal, SqliteJournal):  # handled in one pass of the loop: one commit
        assert commits == 1
    else:
        assert commits < 5  # they went in shared commits
    live = await poisoned.live()
    assert live.seq == 0 and live.awaiting == [p_player.seat] and not live.log
    assert await parlour.mover.play(live, p_player, 0, p_move) == 1  # the honest move goes through


async def test_the_stored_move_is_the_canonical_listed_move(parlour):
    seats = await started(parlour)
    player, move = await seats.awaited()
    live = await seats.live()
    await parlour.mover.play(live, player, 0, {"note": "hello", **dict(reversed(move.items()))})
    async with parlour.sessions() as s:
        stored = await s.scalar(select(MoveRecord.move).where(MoveRecord.table_id == seats.table_id))
    assert stored == move and list(stored) == list(move)


async def test_a_move_that_fails_to_write_fails_alone_in_its_batch(db_url):
    """The journal isolates a failing row: the others of its batch are stored."""
    from tests.app.test_journal_support import make_table_rows

    table_ids = await make_table_rows(db_url, 4)
    journal = make_journal(db_url, Notifier())
    await journal.start()
    try:
        writes = [MoveWrite(t, 1, 0, '{"type":"pass"}', "[]") for t in table_ids]
        writes.insert(2, MoveWrite(table_ids[0], 2, None, '{"type":"pass"}', "[]"))  # type: ignore[arg-type]
        outcomes = await asyncio.gather(*(journal.append(w) for w in writes), return_exceptions=True)
    finally:
        await journal.stop()
    assert isinstance(outcomes[2], Exception)
    assert [o for i, o in enumerate(outcomes) if i != 2] == [True] * 4
