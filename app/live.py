"""Live tables: each table's current engine state, held in memory and rebuilt from the database.

The database is the truth (moves are append-only); a LiveTable is a cache of the state it implies,
so a move is checked and applied without re-reading anything.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import GameTable, MoveRecord, Player, Snapshot
from engines.base import Engine, Event

SEAT_REF = re.compile(r"\{seat:(\d+)\}")


@dataclass
class PlayerInfo:
    id: int
    name: str
    joined: int
    seat: int | None
    is_founder: bool
    token_hash: str

    def public(self, connected: bool) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "founder": self.is_founder,
                "joined": self.joined, "connected": connected}


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
    seq: int = 0
    state: Any = None
    result: dict[str, Any] | None = None
    log: list[LogEntry] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _names: dict[int, str] = field(default_factory=dict)
    _names_key: tuple[str, int] | None = None

    @property
    def min_seats(self) -> int:
        return self.engine.min_seats

    @property
    def max_seats(self) -> int:
        return self.engine.max_seats

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

    def awaiting(self) -> list[int]:
        if self.status != "playing" or self.state is None:
            return []
        return sorted(self.engine.to_act(self.state))

    def render_text(self, text: str) -> str:
        names = self.names_by_seat()
        return SEAT_REF.sub(lambda m: names.get(int(m.group(1)), f"Seat {int(m.group(1)) + 1}"), text)

    def log_for(self, seat: int | None, after_seq: int = -1) -> list[dict[str, Any]]:
        """The log lines after ``after_seq`` as this seat reads them (names filled in);
        ``after_seq`` < 0 is the whole log, opening with the seats drawn by lot."""
        out: list[dict[str, Any]] = []
        if after_seq < 0 and self.status != "gathering":
            order = ", ".join(f"{p.seat + 1}. {p.name}" for p in self.players if p.seat is not None)
            out.append({"seq": 0, "text": f"Seats were drawn by lot: {order}. The game begins."})
        key = str(seat) if seat is not None else None
        start = len(self.log)
        while start > 0 and self.log[start - 1].seq > after_seq:
            start -= 1
        for entry in self.log[start:]:
            for ev in entry.events:
                private = ev.get("private") or {}
                text = private.get(key, ev["text"]) if key is not None else ev["text"]
                out.append({"seq": entry.seq, "text": self.render_text(text)})
        return out

    def public_summary(self, connected: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
        """What anybody holding the code may know about the table."""
        return {
            "code": self.code,
            "game": self.game,
            "title": self.engine.title,
            "status": self.status,
            "players": [p.public(p.id in connected) for p in self.players],
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "seq": self.seq,
            "awaiting": self.awaiting(),
            "seed_hash": self.seed_hash if self.status != "gathering" else None,
            "seed": self.seed if self.status == "finished" else None,
            "result": self.result,
        }


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
        self._loading: dict[int, asyncio.Future[LiveTable]] = {}

    def cached_ids(self) -> list[int]:
        return list(self._tables)

    def cached(self, table_id: int) -> LiveTable | None:
        return self._tables.get(table_id)

    def forget(self, table_id: int) -> None:
        live = self._tables.pop(table_id, None)
        if live is not None:
            self._by_code.pop(live.code, None)
            for p in live.players:
                self._by_token.pop(p.token_hash, None)

    def remember(self, live: LiveTable) -> None:
        self._tables[live.id] = live
        self._tables.move_to_end(live.id)
        self._by_code[live.code] = live.id
        for p in live.players:
            self._by_token[p.token_hash] = live.id
        while len(self._tables) > self.capacity:
            oldest, _ = next(iter(self._tables.items()))
            self.forget(oldest)

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
            self.forget(table_id)
            live = await self.get(table_id)
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
        fut: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            loaded = await self._load(table_id)
            if loaded is not None:
                self.remember(loaded)
            fut.set_result(loaded)  # type: ignore[arg-type]
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
                result=row.result,
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
        engine = live.engine
        if snap is not None:
            live.state = engine.decode(snap.state)
            live.seq = snap.seq
        else:
            live.state = new_state(live)
        for m in moves:
            live.log.append(LogEntry(m.seq, list(m.events)))
            if m.seq > live.seq:
                engine.play(live.state, m.seat, m.move)
                live.seq = m.seq
        return live

    def apply_carried(self, live: LiveTable, moves: list[list[Any]]) -> bool:
        """Apply moves another process stored and sent along with its notification.
        False when they do not follow on from this cache (then read them from the database)."""
        fresh = [m for m in moves if m[0] > live.seq]
        if not fresh:
            return True
        if fresh[0][0] != live.seq + 1:
            return False
        for seq, seat, move, events in fresh:
            live.engine.play(live.state, seat, move)
            live.seq = seq
            live.log.append(LogEntry(seq, list(events)))
        result = live.engine.result(live.state)
        if result is not None:
            live.status, live.result = "finished", result.as_json()
        return True

    async def catch_up(self, live: LiveTable) -> int:
        """Apply the moves another server process stored since this cache was built."""
        async with self.sessions() as s:
            moves = (await s.execute(
                select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events)
                .where(MoveRecord.table_id == live.id, MoveRecord.seq > live.seq)
                .order_by(MoveRecord.seq))).all()
            if moves:
                row = await s.get(GameTable, live.id)
                if row is not None:
                    live.status, live.result = row.status, row.result
        for m in moves:
            live.engine.play(live.state, m.seat, m.move)
            live.seq = m.seq
            live.log.append(LogEntry(m.seq, list(m.events)))
        return len(moves)


def new_state(live: LiveTable) -> Any:
    seats = sum(1 for p in live.players if p.seat is not None)
    return live.engine.new_game(seats, int(live.seed, 16), live.options)
