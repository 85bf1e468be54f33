"""Live tables: each table's current engine state, held in memory and rebuilt from the database.

The database is the truth (moves are append-only); a LiveTable is a cache of the state it implies,
so a move is checked and applied without re-reading anything.

The rule that keeps the cache honest: the state holds only stored moves whenever anyone may look.
A move is applied under the table's lock and marked ``pending`` until its commit; nothing is
derived from a pending state (views, the awaited seats, the log), and when storing fails the
table is rebuilt from the database. A copy dropped from the cache is ``retired``: whoever still
holds it fetches the current one (``LiveTables.hold``) instead of using it.

What stays in memory is what is in use (see ``LiveTables.sweep``): a table nobody has a socket
open to is dropped after ``idle_seconds`` without use (a finished one after
``finished_idle_seconds``), and the rest are capped by an estimate of their memory
(``cache_bytes``), least recently used first. A table with an open socket, a move in flight or
its lock held is never dropped. Loading it again is the snapshot + replay path.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Text, cast, func, select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.play.takeback import (
    BoundaryNotKept,
    History,
    TakeBackGap,
    TurnChain,
    capture_points,
    chain_after,
    chain_points,
    is_take_back,
    restore,
    timed_out,
)
from app.server.single_flight import SingleFlight
from app.storage.models import GameTable, HandoverVote, HintAsked, MoveRecord, Player, SeatChange, Snapshot
from engines.base import Engine, Event, new_game, seat_labels

SEAT_REF = re.compile(r"\{seat:(\d+)\}")


@dataclass(slots=True)
class PlayerInfo:
    id: int
    name: str
    joined: int
    seat: int | None
    is_founder: bool
    token_hash: str
    bot: str | None = None  # the level of the bot playing this seat now (app/tables/bot_seats.py)
    is_bot: bool = False  # added as a bot in the waiting room: nobody takes it back


class TableLog:
    """A table's log, compact: each move's events as the JSON text the journal stored, end to
    end in one buffer, parsed when a connection is sent them.

    A London game keeps about 840 moves of log lines; as Python objects (a list of dicts of
    strings per move) they were about 345 KB, as stored JSON they are about 55 KB. The newest
    move's lines are also kept parsed: every connected seat is sent them right after the move.
    """

    __slots__ = ("_data", "_ends", "_seqs", "_tail")

    def __init__(self) -> None:
        self._data = bytearray()
        self._ends = array("I")
        self._seqs = array("I")
        self._tail: list[dict[str, Any]] | None = None  # the newest move's events, parsed

    def __len__(self) -> int:
        return len(self._seqs)

    @property
    def last_seq(self) -> int:
        return self._seqs[-1] if self._seqs else -1

    @property
    def nbytes(self) -> int:
        return len(self._data) + 8 * len(self._seqs)

    def append(self, seq: int, events: str | bytes | list[dict[str, Any]],
               parsed: list[dict[str, Any]] | None = None) -> None:
        """Add a move's events (their JSON text, or the parsed list) after the newest."""
        if isinstance(events, list):
            parsed, events = events, orjson.dumps(events)
        self._data += events.encode() if isinstance(events, str) else events
        self._ends.append(len(self._data))
        self._seqs.append(seq)
        self._tail = parsed

    def after(self, after_seq: int) -> Iterator[tuple[int, list[dict[str, Any]]]]:
        """(seq, events) of every move after ``after_seq``, oldest first."""
        seqs, ends = self._seqs, self._ends
        start = len(seqs)
        while start > 0 and seqs[start - 1] > after_seq:
            start -= 1
        view = memoryview(self._data)
        last = len(seqs) - 1
        for i in range(start, len(seqs)):
            if i == last and self._tail is not None:
                yield seqs[i], self._tail
            else:
                yield seqs[i], orjson.loads(view[ends[i - 1] if i else 0:ends[i]])


# A load that a change overtook is done again, this many times at most: a table changed faster
# than it loads (never at a human pace) is then cached as last read, until a later change's
# notification drops it or a move catches it up.
LOAD_ATTEMPTS = 5

STATE_BYTES_PER_JSON_BYTE = 8
TABLE_OVERHEAD_BYTES = 8192
"""The cache's memory estimate of a table: this much, plus 8 bytes per byte of its state's
JSON, plus its log's bytes (fitted to tracemalloc at each game's largest, bench/soak.py
table-cost: London 69 KB of which 50 KB log and 1.5 KB of state JSON; Tower of London 59 KB,
17 KB log, 3.9 KB; Towers of Babylon 38 KB, 19 KB log, 6.3 KB, over-estimated)."""


@dataclass(slots=True)
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
    log: TableLog = field(default_factory=TableLog)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: bool = False  # a move is applied to ``state`` but not yet stored
    retired: bool = False  # dropped from the cache: fetch the current copy instead
    used: float = field(default_factory=time.monotonic)  # when it was last asked for
    state_bytes: int = 0  # the encoded state's length when last measured (loads, snapshots)
    # Bots (app/tables/bot_seats.py): after how long away a seat may be handed to one; the seat
    # changes as log lines (seq, seat, text); handover votes (target id -> voter ids); and
    # what the public summary says of each seat that may be handed over now (player id -> counts).
    bot_after: int | None = None
    seat_changes: list[tuple[int, int, str]] = field(default_factory=list)
    votes: dict[int, set[int]] = field(default_factory=dict)
    handover: dict[int, dict[str, int]] = field(default_factory=dict)
    chain: TurnChain | None = None  # the latest moves their seat may take back (app/play/takeback.py)
    # Hints (app/features/hints.py): may seats ask for one, and how many each seat has asked for.
    hints: bool = False
    hints_asked: dict[int, int] = field(default_factory=dict)
    _names: dict[int, str] = field(default_factory=dict)
    _names_key: tuple[str, int] | None = None
    _seat_names: dict[int, str] = field(default_factory=dict)
    _seat_names_key: tuple[str, int, bool] | None = None

    @property
    def min_seats(self) -> int:
        return self.engine.min_seats

    @property
    def max_seats(self) -> int:
        return self.engine.max_seats

    def memory_estimate(self) -> int:
        """About how many bytes this table holds (its state, its log, its own objects)."""
        base = self.chain.base if self.chain is not None else None  # a turn's boundary, as JSON bytes
        return TABLE_OVERHEAD_BYTES + STATE_BYTES_PER_JSON_BYTE * self.state_bytes + self.log.nbytes + len(base or b"")

    def measure_state(self) -> None:
        if self.state is not None:
            self.state_bytes = len(orjson.dumps(self.engine.encode(self.state)))

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

    def labels(self) -> list[str] | None:
        """Each seat's name in the game (a house) when the engine gives one (the optional
        ``seat_labels`` of the protocol), once the game is dealt; else None."""
        if self.state is None or self.status == "gathering":
            return None
        return seat_labels(self.engine, self.state)

    def seat_names(self) -> dict[int, str]:
        """How texts name each seat: its player's name, or, where the game names its seats (a
        house), that name with the player's beside it: "Lannister (Cyril)"."""
        key = (self.status, len(self.players), self.state is not None)
        if self._seat_names_key != key:
            names = self.names_by_seat()
            labels = self.labels()
            if labels is None:
                self._seat_names = dict(names)
            else:
                self._seat_names = {s: f"{label} ({names[s]})" if s in names else label
                                    for s, label in enumerate(labels)}
            self._seat_names_key = key
        return self._seat_names

    def render_text(self, text: str) -> str:
        names = self.seat_names()
        return SEAT_REF.sub(lambda m: names.get(int(m.group(1)), f"Seat {int(m.group(1)) + 1}"), text)

    def line_for(self, event: Mapping[str, Any], seat_key: str | None) -> str:
        """A log line as one seat reads it (``seat_key``: the seat's number as a string; None for
        a spectator): its own private text where it has one, names filled in."""
        private = event.get("private")
        text = private.get(seat_key, event["text"]) if private and seat_key is not None else event["text"]
        return self.render_text(text)

    def add_line(self, seq: int, seat: int, text: str) -> bool:
        """Keep a line just stored (a seat changing hands, a hint asked) in its place in the log:
        after move ``seq`` and the lines stored there before it, where a load puts it too. True
        when it is the log's newest line, so a connection that has all the others needs it alone."""
        at = bisect_right(self.seat_changes, seq, key=lambda c: c[0])
        self.seat_changes.insert(at, (seq, seat, text))
        return at == len(self.seat_changes) - 1 and self.log.last_seq <= seq

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
        add their log lines (a load from a snapshot); a gap raises ``LookupError`` (a take-back
        reaching before a snapshot the load began at: ``TakeBackGap``)."""
        moves = list(moves)
        capture, bases = chain_points([(m[1], m[2]) for m in moves])
        for (seq, seat, move, events), keep, base in zip(moves, capture, bases, strict=True):
            if seq > self.seq:
                if seq != self.seq + 1:
                    raise LookupError(f"move {seq} does not follow move {self.seq}")
                if is_take_back(move):
                    self.state, self.chain = restore(self.engine, self.chain, seat, move["undo"])
                else:  # a time-out's move ends the turn chain (app/play/takeback.py)
                    chain = None if timed_out(events) else chain_after(self.engine, self.chain, self.state, seq,
                                                                       seat, move, keep, base)
                    self.engine.play(self.state, seat, move)
                    self.chain = chain
                self.seq = seq
            if self.log.last_seq < seq:
                self.log.append(seq, events if isinstance(events, (str, bytes)) else list(events))
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
    """The in-memory cache of live tables, loaded on demand (snapshot + replay), kept while in
    use (see ``sweep``)."""

    def __init__(self, sessions: async_sessionmaker[Any], engines: Mapping[str, Engine], *,
                 idle_seconds: float = 600, finished_idle_seconds: float = 60,
                 cache_bytes: int = 128 * 2**20) -> None:
        self.sessions = sessions
        self.engines = engines
        self.idle_seconds = idle_seconds
        self.finished_idle_seconds = finished_idle_seconds
        self.cache_bytes = cache_bytes
        # Is someone connected to this table here (an open socket)? Set by the hub.
        self.watched: Callable[[int], bool] = lambda table_id: False
        self._tables: OrderedDict[int, LiveTable] = OrderedDict()  # least recently used first
        self._by_code: dict[str, int] = {}
        self._by_token: dict[str, int] = {}
        self._loading: SingleFlight[int, LiveTable | None] = SingleFlight()  # one load per table at a time
        # Tables changed (by a notification, or here) while a load of them was reading: that
        # load may have read the database before the change, so it reads again.
        self._outdated: set[int] = set()
        self.evicted = 0
        self.loads = 0

    def cached_ids(self) -> list[int]:
        return list(self._tables)

    def cached(self, table_id: int) -> LiveTable | None:
        return self._tables.get(table_id)

    def touch(self, table_id: int) -> None:
        """Count a use of a cached table (its idle time starts again)."""
        live = self._tables.get(table_id)
        if live is not None:
            live.used = time.monotonic()
            self._tables.move_to_end(table_id)

    def in_use(self, live: LiveTable) -> bool:
        """Never dropped: a table with an open socket here, a move in flight, its lock held."""
        return live.pending or live.lock.locked() or self.watched(live.id)

    def forget(self, table_id: int) -> bool:
        """Drop a table from the cache, unless someone holds its lock (then it may be mid-move:
        only its holder may rebuild it). True if it is gone."""
        live = self._tables.get(table_id)
        if live is None:
            self._outdate(table_id)
            return True
        if live.lock.locked():
            return False
        self._drop(live)
        return True

    def _outdate(self, table_id: int) -> None:
        if table_id in self._loading:
            self._outdated.add(table_id)

    def _drop(self, live: LiveTable) -> None:
        if self._tables.get(live.id) is live:
            del self._tables[live.id]
        live.retired = True
        self._by_code.pop(live.code, None)
        for p in live.players:
            self._by_token.pop(p.token_hash, None)

    def remember(self, live: LiveTable) -> None:
        live.used = time.monotonic()
        self._tables[live.id] = live
        self._tables.move_to_end(live.id)
        self._by_code[live.code] = live.id
        for p in live.players:
            self._by_token[p.token_hash] = live.id

    def sweep(self, now: float | None = None) -> int:
        """Drop what is not in use: a table idle past ``idle_seconds`` (a finished one past
        ``finished_idle_seconds``), then, while the estimate of the rest passes ``cache_bytes``,
        the least recently used. Tables in use are never dropped. Returns how many went."""
        now = time.monotonic() if now is None else now
        soonest = min(self.idle_seconds, self.finished_idle_seconds)
        dropped = 0
        for live in list(self._tables.values()):  # least recently used first
            idle = now - live.used
            if idle < soonest:
                break  # every later table was used more recently still
            limit = self.finished_idle_seconds if live.status == "finished" else self.idle_seconds
            if idle >= limit and not self.in_use(live):
                self._drop(live)
                dropped += 1
        total = sum(live.memory_estimate() for live in self._tables.values())
        if total > self.cache_bytes:
            for live in list(self._tables.values()):
                if total <= self.cache_bytes:
                    break
                if not self.in_use(live):
                    total -= live.memory_estimate()
                    self._drop(live)
                    dropped += 1
        self.evicted += dropped
        return dropped

    def estimated_bytes(self) -> int:
        return sum(t.memory_estimate() for t in self._tables.values())

    def stats(self) -> dict[str, Any]:
        tables = self._tables.values()
        return {"cached": len(self._tables), "in_use": sum(1 for t in tables if self.in_use(t)),
                "estimated_mb": round(self.estimated_bytes() / 2**20, 1),
                "loads": self.loads, "evicted": self.evicted}

    async def reload(self, live: LiveTable) -> LiveTable | None:
        """Rebuild a table from the database. Call it holding ``live.lock`` (or for a table
        nobody holds): the old copy is retired, so it is never used again."""
        self._drop(live)
        self._outdate(live.id)
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
            live.used = time.monotonic()
            self._tables.move_to_end(table_id)
            return live
        return await self._loading.run(table_id, lambda: self._load_current(table_id))

    async def _load_current(self, table_id: int) -> LiveTable | None:
        """Load the table, again while a change overtook the load (at most LOAD_ATTEMPTS times)."""
        try:
            for _ in range(LOAD_ATTEMPTS):
                self._outdated.discard(table_id)
                loaded = await self._load(table_id)
                if table_id not in self._outdated:
                    break
            self.loads += 1
            if loaded is not None:
                self.remember(loaded)
            return loaded
        finally:
            self._outdated.discard(table_id)

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
                players=[PlayerInfo(p.id, p.name, p.joined, p.seat, p.is_founder, p.token_hash, p.bot, p.is_bot)
                         for p in players],
                rules_version=row.rules_version, result=row.result, bot_after=row.bot_after_seconds,
                hints=row.hints,
            )
            if row.status != "gathering":
                await load_bot_notes(s, live)
            if row.status == "gathering":
                return live
            live.players.sort(key=lambda p: p.seat if p.seat is not None else 99)
            snap = (await s.execute(
                select(Snapshot.seq, Snapshot.state).where(Snapshot.table_id == table_id)
                .order_by(Snapshot.seq.desc()).limit(1))).first()
            # The events as their stored text: the log keeps them so (see TableLog).
            moves = (await s.execute(
                select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, cast(MoveRecord.events, Text))
                .where(MoveRecord.table_id == table_id).order_by(MoveRecord.seq))).all()
        if snap is not None:
            live.state = live.engine.decode(snap.state)
            live.seq = snap.seq
        else:
            live.state = new_state(live)
        try:
            live.follow(moves)
        except TakeBackGap:  # a take-back reaches before the snapshot: replay from the start
            live.state, live.seq, live.log, live.chain = new_state(live), 0, TableLog(), None
            live.follow(moves)
        live.measure_state()
        return live

    async def catch_up(self, live: LiveTable, carried: list[list[Any]] | None = None) -> None:
        """Bring a held table up to the database: apply the moves another process stored
        (``carried`` with its notification, else read after ``live.seq``)."""
        if carried and carried[0][0] <= live.seq + 1:
            moves: Sequence[Sequence[Any]] = carried
        else:
            async with self.sessions() as s:
                moves = (await s.execute(
                    select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, cast(MoveRecord.events, Text))
                    .where(MoveRecord.table_id == live.id, MoveRecord.seq > live.seq)
                    .order_by(MoveRecord.seq))).all()
        while True:
            try:
                live.follow(m for m in moves if m[0] > live.seq)
                return
            except BoundaryNotKept as gap:  # another process took back a move of the open turn
                gap.chain.base = await self.boundary(live, gap.chain.base_seq)

    async def boundary(self, live: LiveTable, seq: int) -> bytes:
        """The state after entry ``seq`` (at or before ``live.seq``), encoded, from the store: the
        boundary of a turn chain, which a live table does not keep (app/play/takeback.py). Read
        from the last snapshot at or before it, or from the deal when a take-back reaches past that
        snapshot."""
        engine = live.engine

        async def replay(state: Any, start: int) -> Any:
            async with self.sessions() as s:
                entries = (await s.execute(
                    select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, cast(MoveRecord.events, Text))
                    .where(MoveRecord.table_id == live.id, MoveRecord.seq > start, MoveRecord.seq <= seq)
                    .order_by(MoveRecord.seq))).all()
            history = History(engine, state, start)
            for r, keep in zip(entries, capture_points([(r.seat, r.move) for r in entries]), strict=True):
                history.follow(r.seq, r.seat, r.move, keep, by_clock=timed_out(r.events))
            return history.state

        async with self.sessions() as s:
            snap = (await s.execute(
                select(Snapshot.seq, Snapshot.state)
                .where(Snapshot.table_id == live.id, Snapshot.seq <= seq)
                .order_by(Snapshot.seq.desc()).limit(1))).first()
        state = None
        if snap is not None:
            with contextlib.suppress(TakeBackGap):
                state = await replay(engine.decode(snap.state), snap.seq)
        if state is None:  # a take-back that reaches past the snapshot: from the deal
            state = await replay(new_state(live), 0)
        return orjson.dumps(engine.encode(state))


def new_state(live: LiveTable) -> Any:
    seats = sum(1 for p in live.players if p.seat is not None)
    return new_game(live.engine, seats, int(live.seed, 16), live.options, version=live.rules_version)


async def load_bot_notes(s: Any, live: LiveTable) -> None:
    """A begun table's seat changes and hints asked (log lines), its standing handover votes
    (app/tables/bot_seats.py) and how many hints each seat asked for (app/features/hints.py)."""
    # In the log's order (wire.log_for): by the move they follow, then as stored.
    changes = (await s.execute(select(SeatChange.seq, SeatChange.seat, SeatChange.text)
                               .where(SeatChange.table_id == live.id)
                               .order_by(SeatChange.seq, SeatChange.id))).all()
    live.seat_changes = [(c.seq, c.seat, c.text) for c in changes]
    if live.hints:
        asked = await s.execute(select(HintAsked.seat, func.count()).where(HintAsked.table_id == live.id)
                                .group_by(HintAsked.seat))
        live.hints_asked = {seat: int(n) for seat, n in asked.all()}
    for target, voter in (await s.execute(select(HandoverVote.target_id, HandoverVote.voter_id)
                                          .where(HandoverVote.table_id == live.id))).all():
        live.votes.setdefault(target, set()).add(voter)
