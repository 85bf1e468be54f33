"""Live tables: each table's current engine state, held in memory and rebuilt from the database.

The database is the truth (moves are append-only); a LiveTable is a cache of the state it implies,
so a move is checked and applied without re-reading anything.

The rule that keeps the cache honest: the state holds only stored moves whenever anyone may look.
A move is applied under the table's lock and marked ``pending`` until its commit; nothing is
derived from a pending state (views, the awaited seats, the log), and when storing fails the
table is rebuilt from the database. A copy dropped from the cache is ``retired``: whoever still
holds it fetches the current one (``LiveTables.hold``) instead of using it.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import GameTable, MoveRecord, Player, Snapshot
from engines.base import Engine, Event, new_game

SEAT_REF = re.compile(r"\{seat:(\d+)\}")


@dataclass
class PlayerInfo:
    id: int
    name: str
    joined: int
    seat: int | None
    is_founder: bool
    token_hash: str


@dataclass
class LogEntry:
    seq: int
    events: list[dict[str, Any]]  # {"text": ..., "private": {"0": ...}}


@dataclass
class LiveTable:
    id: int
    code: str
    game: str
    engine: Engine
    options: dict[str, Any]
    status: str
    seed: str
    seed_hash: str
    players: list[PlayerInfo]
    rules_version: int = 1
    seq: int = 0
    state: Any = None
    result: dict[str, Any] | None = None
    awaiting: list[int] = field(default_factory=list)  # the seats awaited at ``seq``
    log: list[LogEntry] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: bool = False  # a move is applied to ``state`` but not yet stored
    retired: bool = False  # dropped from the cache: fetch the current copy instead
    _names: dict[int, str] = field(default_factory=dict)
    _names_key: tuple[str, int] | None = None

    @property
    def min_seats(self) -> int:
        return self.engine.min_seats

    @property
    def max_seats(self) -> int:
        return self.engine.max_seats

    @property
    def showable(self) -> bool:
        """May views be derived from ``state`` now (it holds only stored moves)?"""
        return self.state is not None and not self.pending and not self.retired

    def player_by_hash(self, token_hash: str) -> PlayerInfo | None:
        for p in self.players:
            if p.token_hash == token_hash:
                return p
        return None

    def names_by_seat(self) -> dict[int, str]:
        # Players and seats change only while gathering and at the start; a key of both
        # keeps the cache honest without anyone having to clear it.
        key = (self.status, len(self.players))
        if self._names_key != key:
            self._names = {p.seat: p.name for p in self.players if p.seat is not None}
            self._names_key = key
        return self._names

    def render_text(self, text: str) -> str:
        names = self.names_by_seat()
        return SEAT_REF.sub(lambda m: names.get(int(m.group(1)), f"Seat {int(m.group(1)) + 1}"), text)

    def settle(self) -> None:
        """Derive the awaited seats, the status and the result from a state of stored moves."""
        if self.state is None or self.status == "gathering":
            self.awaiting = []
            return
        result = self.engine.result(self.state)
        if result is not None:
            self.status, self.result = "finished", result.as_json()
            self.awaiting = []
        else:
            self.awaiting = sorted(self.engine.to_act(self.state))

    def follow(self, moves: Iterable[Sequence[Any]]) -> None:
        """Apply stored moves (seq, seat, move, events) in order. Moves at or before ``seq`` only
        add their log lines (a load from a snapshot); a gap raises ``LookupError``."""
        for seq, seat, move, events in moves:
            if seq > self.seq:
                if seq != self.seq + 1:
                    raise LookupError(f"move {seq} does not follow move {self.seq}")
                self.engine.play(self.state, seat, move)
                self.seq = seq
            if not self.log or self.log[-1].seq < seq:
                self.log.append(LogEntry(seq, list(events)))
        self.settle()


def encode_events(events: list[Event]) -> list[dict[str, Any]]:
    out = []
    for ev in events:
        item: dict[str, Any] = {"text": ev.text}
        if ev.private:
            item["private"] = {str(k): v for k, v in ev.private.items()}
        out.append(item)
    return out


class LiveTables:
    """The in-memory cache of live tables, loaded on demand (snapshot + replay)."""

    def __init__(self, sessions: async_sessionmaker[Any], engines: dict[str, Engine],
                 capacity: int = 20000) -> None:
        self.sessions = sessions
        self.engines = engines
        self.capacity = capacity
        self._tables: OrderedDict[int, LiveTable] = OrderedDict()
        self._by_code: dict[str, int] = {}
        self._by_token: dict[str, int] = {}
        self._loading: dict[int, asyncio.Future[LiveTable | None]] = {}

    def cached_ids(self) -> list[int]:
        return list(self._tables)

    def cached(self, table_id: int) -> LiveTable | None:
        return self._tables.get(table_id)

    def forget(self, table_id: int) -> bool:
        """Drop a table from the cache, unless someone holds its lock (then it may be mid-move:
        only its holder may rebuild it). True if it is gone."""
        live = self._tables.get(table_id)
        if live is None:
            return True
        if live.lock.locked():
            return False
        self._drop(live)
        return True

    def _drop(self, live: LiveTable) -> None:
        if self._tables.get(live.id) is live:
            del self._tables[live.id]
        live.retired = True
        self._by_code.pop(live.code, None)
        for p in live.players:
            self._by_token.pop(p.token_hash, None)

    def remember(self, live: LiveTable) -> None:
        self._tables[live.id] = live
        self._tables.move_to_end(live.id)
        self._by_code[live.code] = live.id
        for p in live.players:
            self._by_token[p.token_hash] = live.id
        for _ in range(len(self._tables) - self.capacity):
            oldest = next(iter(self._tables.values()))
            if oldest.lock.locked():  # in use: keep it, try the next one later
                self._tables.move_to_end(oldest.id)
                continue
            self._drop(oldest)

    async def reload(self, live: LiveTable) -> LiveTable | None:
        """Rebuild a table from the database. Call it holding ``live.lock`` (or for a table
        nobody holds): the old copy is retired, so it is never used again."""
        self._drop(live)
        return await self.get(live.id)

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[LiveTable | None]:
        """The table's current copy, with its lock held: moves, catch-ups and reloads happen
        only here, one at a time."""
        live = await self.get(table_id)
        while live is not None:
            await live.lock.acquire()
            if not live.retired:
                break
            live.lock.release()
            live = await self.get(table_id)
        try:
            yield live
        finally:
            if live is not None:
                live.lock.release()

    async def by_code(self, code: str) -> LiveTable | None:
        table_id = self._by_code.get(code)
        if table_id is None:
            async with self.sessions() as s:
                table_id = await s.scalar(select(GameTable.id).where(GameTable.code == code))
            if table_id is None:
                return None
        return await self.get(table_id)

    async def by_token_hash(self, token_hash: str) -> tuple[LiveTable, PlayerInfo] | None:
        table_id = self._by_token.get(token_hash)
        if table_id is None:
            async with self.sessions() as s:
                table_id = await s.scalar(select(Player.table_id).where(Player.token_hash == token_hash))
            if table_id is None:
                return None
        live = await self.get(table_id)
        if live is None:
            return None
        player = live.player_by_hash(token_hash)
        if player is None:  # the cache predates this player: reload once
            async with self.hold(table_id) as held:
                if held is not None and held.player_by_hash(token_hash) is None:
                    held = await self.reload(held)
                live = held
            player = live.player_by_hash(token_hash) if live else None
            if live is None or player is None:
                return None
        return live, player

    async def get(self, table_id: int) -> LiveTable | None:
        live = self._tables.get(table_id)
        if live is not None:
            self._tables.move_to_end(table_id)
            return live
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            loaded = await self._load(table_id)
            if loaded is not None:
                self.remember(loaded)
            fut.set_result(loaded)
            return loaded
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # the waiters re-raise it; mark it retrieved
            raise
        finally:
            self._loading.pop(table_id, None)

    async def _load(self, table_id: int) -> LiveTable | None:
        async with self.sessions() as s:
            row = await s.get(GameTable, table_id)
            if row is None or row.game not in self.engines:
                return None
            players = (await s.scalars(
                select(Player).where(Player.table_id == table_id).order_by(Player.joined))).all()
            live = LiveTable(
                id=row.id, code=row.code, game=row.game, engine=self.engines[row.game],
                options=dict(row.options), status=row.status, seed=row.seed, seed_hash=row.seed_hash,
                players=[PlayerInfo(p.id, p.name, p.joined, p.seat, p.is_founder, p.token_hash)
                         for p in players],
                rules_version=row.rules_version, result=row.result,
            )
            if row.status == "gathering":
                return live
            live.players.sort(key=lambda p: p.seat if p.seat is not None else 99)
            snap = (await s.execute(
                select(Snapshot.seq, Snapshot.state).where(Snapshot.table_id == table_id)
                .order_by(Snapshot.seq.desc()).limit(1))).first()
            moves = (await s.execute(
                select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events)
                .where(MoveRecord.table_id == table_id).order_by(MoveRecord.seq))).all()
        if snap is not None:
            live.state = live.engine.decode(snap.state)
            live.seq = snap.seq
        else:
            live.state = new_state(live)
        live.follow(moves)
        return live

    async def catch_up(self, live: LiveTable, carried: list[list[Any]] | None = None) -> None:
        """Bring a held table up to the database: apply the moves another process stored
        (``carried`` with its notification, else read after ``live.seq``)."""
        if carried and carried[0][0] <= live.seq + 1:
            live.follow(m for m in carried if m[0] > live.seq)
            return
        async with self.sessions() as s:
            moves = (await s.execute(
                select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events)
                .where(MoveRecord.table_id == live.id, MoveRecord.seq > live.seq)
                .order_by(MoveRecord.seq))).all()
        live.follow(moves)


def new_state(live: LiveTable) -> Any:
    seats = sum(1 for p in live.players if p.seat is not None)
    return new_game(live.engine, seats, int(live.seed, 16), live.options, version=live.rules_version)
