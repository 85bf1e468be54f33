"""A move's views to several seats: what they share is encoded once, and every seat is still
sent exactly its own view and log lines, as the plain encoding of its message would read."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest

import app.hub as hub_module
from app.config import Settings
from app.hub import Connection, SharedViews
from app.parlour import Parlour
from app.tokens import hash_token
from app.wire import log_for
from engines.base import views
from engines.london import ENGINE

NAMES = ("Ada", "Bob", "Cy", "Di")


class Socket:
    """A connection's sent messages, parsed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            self.sent.append(orjson.loads(message["text"]))


class Counting:
    """orjson for the hub, keeping what each ``dumps`` encoded itself: an encoded part it is
    handed (a ``Fragment``) is copied, not encoded, so it counts as nothing."""

    Fragment = orjson.Fragment
    JSONEncodeError = orjson.JSONEncodeError

    def __init__(self) -> None:
        self.encoded = 0

    def dumps(self, value: Any) -> bytes:
        self.encoded += len(orjson.dumps(_without_fragments(value)))
        return orjson.dumps(value)


def _without_fragments(value: Any) -> Any:
    if isinstance(value, orjson.Fragment):
        return None
    if isinstance(value, dict):
        return {k: _without_fragments(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_fragments(v) for v in value]
    return value


@pytest.fixture
async def parlour(sqlite_url: str):
    p = Parlour(Settings(database_url=sqlite_url, engines=("engines.london:ENGINE",), public_url=None))
    await p.start()
    yield p
    await p.stop()


async def test_four_seats_are_sent_their_own_views_and_the_shared_part_is_encoded_once(parlour, monkeypatch):
    ticket = await parlour.rooms.found("london", NAMES[0], {})
    for name in NAMES[1:]:
        await parlour.rooms.join(ticket.table_id, name)
    await parlour.rooms.start(hash_token(ticket.token))
    live = await parlour.live.get(ticket.table_id)
    assert live is not None
    sockets: dict[int, Socket] = {}
    for player in live.players:
        assert player.seat is not None
        sockets[player.seat] = Socket()
        parlour.hub.join(Connection(sockets[player.seat], live.id, player.id, seat=player.seat), live)
    counting = Counting()
    monkeypatch.setattr(hub_module, "orjson", counting)
    rng = random.Random(7)
    work = sent = 0
    for _ in range(120):
        live = await parlour.live.get(ticket.table_id)
        assert live is not None
        seat = live.awaiting[0]
        player = next(p for p in live.players if p.seat == seat)
        before = live.seq
        encoded = counting.encoded
        await parlour.mover.play(live, player, before, rng.choice(live.engine.legal_moves(live.state, seat)))
        work += counting.encoded - encoded
        await asyncio.sleep(0.01)  # the connections' outboxes drain on tasks of their own
        for s, socket in sockets.items():
            message = socket.sent[-1]
            assert message["type"] == "view" and message["seq"] == before + 1
            # exactly what this seat may see: its own view, its own reading of the new log lines
            assert message["view"] == orjson.loads(orjson.dumps(live.engine.view(live.state, s)))
            assert message["log"] == log_for(live, s, before)
            sent += len(orjson.dumps(message))
    # The public part (board, market, turn, every player's public entry) encoded once for the
    # four seats, not four times: encoding each message whole would be all of their bytes.
    assert work < 0.75 * sent, (work, sent)


def test_a_view_encoded_around_its_shared_parts_is_byte_for_byte_the_plain_encoding():
    rng = random.Random(11)
    s = ENGINE.new_game(4, 11, {})
    checked = 0
    while ENGINE.result(s) is None:
        (seat,) = ENGINE.to_act(s)
        seat_views = views(ENGINE, s, (0, 1, 2, 3, None), {seat: ENGINE.legal_moves(s, seat)})
        shared = SharedViews(seat_views.values())
        assert shared.lead > 0 and shared.fragments
        for view in seat_views.values():
            assert orjson.dumps(shared.encode(view)) == orjson.dumps(view)
            checked += 1
        ENGINE.play(s, seat, rng.choice(ENGINE.legal_moves(s, seat)))
    assert checked > 1000
