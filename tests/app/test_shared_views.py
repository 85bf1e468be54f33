"""A move's views to several seats: the new log lines are made once when every seat reads them
alike, and every seat is still sent exactly its own view and its own reading of the log."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest

from app.parlour import Parlour
from app.play.hub import Connection
from app.play.live import LiveTable
from app.play.wire import log_for
from app.server.config import Settings
from app.storage.tokens import hash_token

NAMES = ("Ada", "Bob", "Cy", "Di")


class Socket:
    """A connection's sent messages, parsed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.sent.append(orjson.loads(message["text"]))


@pytest.fixture
async def parlour(sqlite_url: str):
    p = Parlour(Settings(database_url=sqlite_url, engines=("engines.london:ENGINE",), public_url=None))
    await p.start()
    yield p
    await p.stop()


async def test_four_seats_get_their_own_views_and_log_lines_made_once_where_all_read_them_alike(
        parlour, monkeypatch):
    ticket = await parlour.rooms.found("london", NAMES[0], {})
    for name in NAMES[1:]:
        await parlour.rooms.join(ticket.table_id, name)
    await parlour.rooms.start(hash_token(ticket.token))
    live = await parlour.tables.get(ticket.table_id)
    assert live is not None
    sockets: dict[int, Socket] = {}
    for player in live.players:
        assert player.seat is not None
        sockets[player.seat] = Socket()
        parlour.hub.join(Connection(sockets[player.seat], live.id, player.id, seat=player.seat), live)
    made = [0]
    line_for = LiveTable.line_for

    def counted(self: LiveTable, event: Any, seat_key: str | None) -> str:
        made[0] += 1
        return line_for(self, event, seat_key)

    monkeypatch.setattr(LiveTable, "line_for", counted)
    rng = random.Random(7)
    public = private = 0
    for _ in range(120):
        live = await parlour.tables.get(ticket.table_id)
        assert live is not None
        seat = live.awaiting[0]
        player = next(p for p in live.players if p.seat == seat)
        before = live.seq
        made[0] = 0
        await parlour.mover.play(live, player, before, rng.choice(live.engine.legal_moves(live.state, seat)))
        (_, events), = live.log.after(before)
        if any(ev.get("private") for ev in events):
            private += 1
        else:  # one reading of each line for the four seats, not one per seat
            assert made[0] == len(events)
            public += 1
        await asyncio.sleep(0.01)  # the connections' outboxes drain on tasks of their own
        monkeypatch.setattr(LiveTable, "line_for", line_for)
        for s, socket in sockets.items():
            message = socket.sent[-1]
            assert message["type"] == "view" and message["seq"] == before + 1
            # exactly what this seat may see: its own view, its own reading of the new lines
            assert message["view"] == orjson.loads(orjson.dumps(live.engine.view(live.state, s)))
            assert message["log"] == log_for(live, s, before)
        monkeypatch.setattr(LiveTable, "line_for", counted)
    assert public > 50 and private > 5  # both kinds were seen
