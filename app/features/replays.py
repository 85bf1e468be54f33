"""Replays of finished games: every step's view rebuilt from the published record, for anyone
(the public view) and, with their seat's address, for each player (their own seat's view). The
pages and the API that serve them: app/web/routes/replays.py.

Nothing of a running game is reachable here: every answer first checks the game has ended
(403 ``not_finished`` otherwise). A replay's views are not stored: the game is replayed once when
its replay is first asked for, keeping the encoded state every ``CHECKPOINT_EVERY`` entries (and
the turn chain a take-back may return into); a step is then a decode, a few moves and a view.
The books of the most recently watched games are kept (``BOOKS_KEPT``).

Rounds: the engine's optional ``round_of(state)``; failing that, the log's "Round N begins"
lines; failing both, a mark every ``MOVES_PER_MARK`` entries.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.play.live import LiveTable, new_state
from app.play.takeback import History, TurnChain, capture_points, is_take_back
from app.server.errors import ApiError
from app.server.single_flight import SingleFlight
from app.storage.models import MoveRecord
from engines.base import Engine

CHECKPOINT_EVERY = 16
BOOKS_KEPT = 16
MOVES_PER_MARK = 50
ROUND_LINE = re.compile(r"\bRound (\d+) begins\b")

JSON = dict[str, Any]


@dataclass(slots=True)
class Entry:
    seq: int
    seat: int
    move: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(slots=True)
class Book:
    """One finished game, ready to be stepped through."""

    table_id: int
    engine: Engine
    entries: list[Entry]
    checkpoints: list[tuple[bytes, TurnChain | None]]  # [i]: after entry i * CHECKPOINT_EVERY, as JSON
    rounds: list[dict[str, Any]]
    capture: list[bool]  # where a turn chain may matter (app/play/takeback.py: capture_points)

    def state_at(self, seq: int) -> Any:
        """The engine state after entry ``seq`` (0: the deal)."""
        mark = seq // CHECKPOINT_EVERY
        encoded, chain = self.checkpoints[mark]
        history = History(self.engine, self.engine.decode(orjson.loads(encoded)), mark * CHECKPOINT_EVERY, chain)
        for entry in self.entries[mark * CHECKPOINT_EVERY:seq]:
            history.follow(entry.seq, entry.seat, entry.move, self.capture[entry.seq - 1])
        return history.state


def build_book(live: LiveTable, rows: list[Any]) -> Book:
    engine = live.engine
    state = new_state(live)
    history = History(engine, state)
    entries = [Entry(r.seq, r.seat, r.move, r.events) for r in rows]
    checkpoints: list[tuple[bytes, TurnChain | None]] = [(orjson.dumps(engine.encode(state)), None)]
    round_of = getattr(engine, "round_of", None)
    by_engine: list[dict[str, Any]] = []
    by_log: list[dict[str, Any]] = []
    last_round = round_of(state) if round_of is not None else None
    if last_round is not None:
        by_engine.append({"label": f"Round {last_round}", "seq": 0})
    capture = capture_points([(e.seat, e.move) for e in entries])
    for e, keep in zip(entries, capture, strict=True):
        history.follow(e.seq, e.seat, e.move, keep)
        if e.seq % CHECKPOINT_EVERY == 0:
            checkpoints.append((orjson.dumps(engine.encode(history.state)), history.chain))
        if round_of is not None:
            now = round_of(history.state)
            if now is not None and now != last_round:
                # the round begins with the entry that brought it: show the position after it
                by_engine.append({"label": f"Round {now}", "seq": e.seq})
                last_round = now
        for ev in e.events:
            m = ROUND_LINE.search(str(ev.get("text", "")))
            if m:
                by_log.append({"label": f"Round {m.group(1)}", "seq": e.seq})
                break
    rounds = by_engine or by_log or [{"label": f"Move {n}", "seq": n}
                                     for n in range(0, len(entries), MOVES_PER_MARK)]
    if not rounds or rounds[0]["seq"] != 0:
        rounds.insert(0, {"label": "The deal", "seq": 0})
    return Book(live.id, engine, entries, checkpoints, rounds, capture)


class Replays:
    """The books of recently watched finished games (one service per server, on ``Parlour``)."""

    def __init__(self, sessions: async_sessionmaker[Any]) -> None:
        self.sessions = sessions
        self._books: OrderedDict[int, Book] = OrderedDict()
        self._building: SingleFlight[int, Book] = SingleFlight()  # one build per game, however many ask at once
        self._gate = asyncio.Semaphore(1)  # one game replayed at a time: a burst costs time, not cores
        self.built = 0

    async def book(self, live: LiveTable) -> Book:
        finished(live)
        book = self._books.get(live.id)
        if book is not None:
            self._books.move_to_end(live.id)
            return book
        return await self._building.run(live.id, lambda: self._build(live))

    async def _build(self, live: LiveTable) -> Book:
        async with self.sessions() as s:
            rows = (await s.execute(select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events)
                                    .where(MoveRecord.table_id == live.id)
                                    .order_by(MoveRecord.seq))).all()
        # The engine is pure and the state is the book's own: the replay runs off the loop.
        async with self._gate:
            book = await asyncio.to_thread(build_book, live, list(rows))
        self.built += 1
        self._books[live.id] = book
        while len(self._books) > BOOKS_KEPT:
            self._books.popitem(last=False)
        return book


def finished(live: LiveTable) -> None:
    if live.status != "finished":
        raise ApiError(403, "not_finished", "A game's replay opens when the game has ended.")


def contents(live: LiveTable, book: Book, seat: int | None) -> JSON:
    """The steps (who moved, what the log said, as ``seat`` reads it) and where rounds begin."""
    key = str(seat) if seat is not None else None
    steps = []
    for e in book.entries:
        lines = [live.line_for(ev, key) for ev in e.events]
        steps.append({"seq": e.seq, "seat": e.seat, "undo": is_take_back(e.move), "log": lines})
    return {"code": live.code, "game": live.game, "title": live.engine.title, "seat": seat,
            "players": [{"seat": p.seat, "name": p.name} for p in live.players if p.seat is not None],
            "labels": live.labels(), "steps": steps, "rounds": book.rounds, "result": live.result}


def step(live: LiveTable, book: Book, seq: int, seat: int | None) -> JSON:
    if not 0 <= seq <= len(book.entries):
        raise ApiError(404, "unknown_step", f"This game has steps 0 to {len(book.entries)}.")
    engine = live.engine
    state = book.state_at(seq)
    result = engine.result(state)
    view = engine.view(state, seat)
    if seat is not None:  # a replay decides nothing: the seat's choices then are not offered
        view["prompt"] = None
    return {"seq": seq, "seat": seat, "view": view,
            "awaiting": sorted(engine.to_act(state)) if result is None else [],
            "result": result.as_json() if result is not None else None}
