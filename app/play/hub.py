"""Websocket connections per table, and what each is sent: the one place that tells everyone
about a change (moves, joins, the start, chat, presence), here or in other server processes.

A message goes to the socket at once when it is writable, else it waits in that connection's
outbox, drained by a task of its own, so a slow reader never holds up the others; views are
computed once per seat per change, and only for seats that are connected.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from starlette.types import Send

from app.play.chat import recent_chat
from app.play.live import LiveTable, LiveTables
from app.play.notify import Notifier
from app.play.wire import log_for, log_is_public, public_summary, view_message
from app.server.errors import ApiError
from engines.base import views

log = logging.getLogger("parlour.hub")
OUTBOX_LIMIT = 256


class SendNow(Protocol):
    """A socket that sends without awaiting when it can (app/web/websocket_protocol.py)."""

    def send_text_now(self, text: str | bytes) -> bool: ...


@dataclass(eq=False, slots=True)
class Connection:
    """One websocket. A message goes straight to the socket when the server offers a synchronous
    send and the socket is writable; otherwise it waits in ``pending``, drained by a task that
    exists only while some wait, so an idle connection costs no task."""

    asgi_send: Send
    table_id: int
    player_id: int | None  # None: a spectator
    seat: int | None = None
    address: str = ""
    socket: SendNow | None = None
    last_seq: int = -1  # the newest log line this connection has been sent
    last_chat: int = 0
    pending: list[str | bytes | tuple[int, str]] = field(default_factory=list)  # a tuple: close (code, reason)
    draining: asyncio.Task[None] | None = None
    closed: bool = False

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(orjson.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        """Send an encoded message (one str, or its UTF-8 bytes, may be shared by many
        connections). Bytes go to the socket as they are: a view holds non-ASCII text (★, −),
        and decoding it to send it encoded again costs two copies per connection."""
        if self.closed:
            return
        if self.draining is None and self.socket is not None and self.socket.send_text_now(data):
            return
        if len(self.pending) >= OUTBOX_LIMIT:
            # A reader this far behind gets a fresh start when it reconnects.
            log.info("closing a connection whose outbox is full")
            self.pending.clear()
            self.close(1013, "too far behind")
            return
        self.pending.append(data)
        self._drain_later()

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is already queued; nothing is sent after it."""
        if self.closed:
            return
        self.closed = True
        self.pending.append((code, reason))
        self._drain_later()

    def _drain_later(self) -> None:
        if self.draining is None:
            self.draining = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.pending:
                item = self.pending.pop(0)
                if isinstance(item, tuple):
                    await self.asgi_send({"type": "websocket.close", "code": item[0], "reason": item[1]})
                    return
                text = item.decode() if isinstance(item, bytes) else item
                await self.asgi_send({"type": "websocket.send", "text": text})
        except Exception:  # the peer went away; the reader side cleans up
            self.closed = True
            self.pending.clear()
        finally:
            self.draining = None


class Window:
    """At most ``limit`` events per ``seconds`` for each key (a seat, an address)."""

    def __init__(self, limit: int, seconds: float, capacity: int = 20000) -> None:
        self.limit = limit
        self.seconds = seconds
        self.capacity = capacity
        self._times: dict[Any, list[float]] = {}

    def take(self, key: Any, now: float | None = None) -> float:
        """Count one event; 0 if allowed, else the seconds to wait (and it is not counted)."""
        now = time.monotonic() if now is None else now
        times = self._times.get(key)
        if times is None:
            if len(self._times) >= self.capacity:
                self._times.pop(next(iter(self._times)))
            times = self._times[key] = []
        while times and now - times[0] >= self.seconds:
            times.pop(0)
        if len(times) >= self.limit:
            return max(0.1, self.seconds - (now - times[0]))
        times.append(now)
        return 0.0


@dataclass
class Listeners:
    """What the features ask to be told, each a list they append to (app/tables/bot_seats.py, clocks,
    pushes, private chats)."""

    summary: list[Callable[[LiveTable], None]] = field(default_factory=list)
    """Before a table's summary is sent (joins, the start, presence)."""
    views: list[Callable[[LiveTable], None]] = field(default_factory=list)
    """Before a table's views are sent after a change."""
    shown: list[Callable[[LiveTable, Connection | None], None]] = field(default_factory=list)
    """What else a table's connections are shown (its clocks): with the connection that just
    opened, or with None after a change of the table."""
    elsewhere: list[Callable[[int, str], None]] = field(default_factory=list)
    """Another process changed a table (its id and the kind of change)."""
    notices: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = field(default_factory=dict)
    """Notifications of a feature's own kinds from other processes, by kind (one feature a kind)."""


OPENING_AT_ONCE = 16


class Hub:
    def __init__(self, tables: LiveTables, notifier: Notifier, *, sockets_per_seat: int = 8,
                 sockets_per_address: int = 64) -> None:
        self.tables = tables
        self.notifier = notifier
        self.rooms: dict[int, set[Connection]] = defaultdict(set)
        tables.watched = self.rooms.__contains__  # a table with an open socket stays in memory
        # player ids connected through other server processes: table -> process -> ids
        self.remote_presence: dict[int, dict[str, set[int]]] = defaultdict(dict)
        self._background: set[asyncio.Task[None]] = set()
        self.serving: set[asyncio.Task[None]] = set()  # the websocket handlers
        # Sockets being opened at once (the seat found, the table's view and chat sent): a crowd
        # arriving together (a restart's reconnections, a tournament's start) is let in a few at
        # a time. Each opening builds a first view and reads the database; hundreds at once left
        # their scattered remains pinning the allocator's pages: 100 tables' 400 sockets opened
        # together grew the process by 7 MB, 16 at a time by 0.4 MB (docs/PERFORMANCE.md).
        self.opening = asyncio.Semaphore(OPENING_AT_ONCE)
        self.sockets_per_seat = sockets_per_seat
        self.sockets_per_address = sockets_per_address
        self.by_address: Counter[str] = Counter()
        # Per seat (or, for spectators, per address), whatever the number of sockets it opens.
        self.chat_limit = Window(5, 10.0)
        self.sync_limit = Window(10, 10.0)
        # The features (bots, clocks, pushes, private chats) hear of changes here, one way.
        self.listeners = Listeners()

    # -- membership ---------------------------------------------------------------------------

    def local_connected(self, table_id: int) -> set[int]:
        return {c.player_id for c in self.rooms.get(table_id, ()) if c.player_id is not None}

    def connected(self, table_id: int) -> set[int]:
        ids = self.local_connected(table_id)
        for remote in self.remote_presence.get(table_id, {}).values():
            ids |= remote
        return ids

    def admit(self, table_id: int, player_id: int | None, address: str) -> None:
        """Refuse a socket past the limits per seat and per address (ApiError 429)."""
        if self.by_address[address] >= self.sockets_per_address:
            raise ApiError(429, "too_many_connections", "Too many open connections from your address.")
        if player_id is not None:
            same_seat = sum(1 for c in self.rooms.get(table_id, ()) if c.player_id == player_id)
            if same_seat >= self.sockets_per_seat:
                raise ApiError(429, "too_many_connections",
                               f"This seat is open in {same_seat} places already; close some of them.")

    def join(self, conn: Connection, live: LiveTable) -> None:
        before = self.local_connected(live.id)
        self.rooms[live.id].add(conn)
        self.by_address[conn.address] += 1
        conn.send({"type": "table", "table": public_summary(live, self.connected(live.id))})
        self.send_view(conn, live)
        for shown in self.listeners.shown:
            shown(live, conn)
        if self.local_connected(live.id) != before:
            self.presence_changed(live)

    def leave(self, conn: Connection) -> None:
        room = self.rooms.get(conn.table_id)
        if room is None or conn not in room:
            return
        before = self.local_connected(conn.table_id)
        room.discard(conn)
        self.by_address[conn.address] -= 1
        if self.by_address[conn.address] <= 0:
            del self.by_address[conn.address]
        conn.closed = True
        conn.pending.clear()
        if not room:
            self.rooms.pop(conn.table_id, None)
            self.tables.touch(conn.table_id)  # its idle time starts when its last socket closes
        if self.local_connected(conn.table_id) != before:
            live = self.tables.cached(conn.table_id)
            if live is not None:
                self.presence_changed(live)

    def presence_changed(self, live: LiveTable) -> None:
        self.push_table(live)
        # Shared with other processes in the background: a closing socket never waits on it.
        task = asyncio.create_task(self._share_presence(live.id, sorted(self.local_connected(live.id))))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _share_presence(self, table_id: int, connected: list[int]) -> None:
        try:
            await asyncio.wait_for(self.notifier.send(table_id, "presence", c=connected), timeout=5)
        except Exception:
            log.warning("could not share presence of table %s", table_id)

    async def drain(self) -> None:
        """At shutdown: end the websocket handlers and finish sharing presence, before the
        database and the notifier close under them."""
        for task in list(self.serving):
            task.cancel()
        if self.serving:
            await asyncio.wait(set(self.serving), timeout=5)
        await asyncio.sleep(0.05)  # let cancelled database calls hand their connections back
        if self._background:
            await asyncio.wait(set(self._background), timeout=5)

    # -- what is sent -------------------------------------------------------------------------

    def table_changed(self, live: LiveTable) -> None:
        """After joins, leaves, the start, or a rebuild: seats, the table, and the views."""
        self.assign_seats(live)
        self.push_table(live)
        self.push_views(live)

    def assign_seats(self, live: LiveTable) -> None:
        """Each player's connections take the player's seat; a player no longer at the table
        (left, or removed by the founder) is told so and disconnected."""
        by_id = {p.id: p for p in live.players}
        for conn in list(self.rooms.get(live.id, ())):
            if conn.player_id is None:
                continue
            player = by_id.get(conn.player_id)
            if player is None:
                conn.send({"type": "error", "error": "not_at_table", "message": "You are no longer at this table."})
                conn.close(4404, "no longer at this table")
            else:
                conn.seat = player.seat

    def push_table(self, live: LiveTable) -> None:
        """Players, status, who is connected: after joins, the start, presence changes."""
        for summary in self.listeners.summary:
            summary(live)
        message = orjson.dumps({"type": "table", "table": public_summary(live, self.connected(live.id))})
        for conn in list(self.rooms.get(live.id, ())):
            conn.send_raw(message)

    def send_view(self, conn: Connection, live: LiveTable) -> None:
        if not live.showable or conn.last_seq >= live.seq:
            return
        conn.send(view_message(live, conn.seat, conn.last_seq))
        conn.last_seq = live.seq

    def push_views(self, live: LiveTable) -> None:
        """Send every connected seat the view after a change: each seat's view is computed
        once (and the engine may share the public part between seats), whatever the number
        of tabs and spectators. Never from a state holding a move not yet stored."""
        for before_views in self.listeners.views:
            before_views(live)
        if live.showable:
            for shown in self.listeners.shown:
                shown(live, None)
        room = self.rooms.get(live.id)
        if not room or not live.showable:
            return
        behind = [conn for conn in room if conn.last_seq < live.seq]
        if not behind:
            return
        seats = {conn.seat for conn in behind}
        # Legal moves once per awaited seat, shared by its message and (if the engine wants
        # them) its prompt.
        legal = {seat: live.engine.legal_moves(live.state, seat)
                 for seat in live.awaiting if seat in seats}
        seat_views = views(live.engine, live.state, seats, legal)
        # The new log lines are made once when every seat reads them alike (no private text).
        # (Encoding the views' shared public part once was measured too: orjson encodes a
        # London view in about 4 µs, less than finding and splicing the shared parts cost.)
        logs: dict[int, list[dict[str, Any]] | None] = {}
        cache: dict[tuple[int | None, int], bytes] = {}
        for conn in behind:
            key = (conn.seat, conn.last_seq)
            data = cache.get(key)
            if data is None:
                after = conn.last_seq
                if after not in logs:
                    shared = len(seat_views) > 1 and log_is_public(live, after)
                    logs[after] = log_for(live, None, after) if shared else None
                data = orjson.dumps(view_message(live, conn.seat, after, seat_views[conn.seat], legal,
                                                 log=logs[after]))
                cache[key] = data
            conn.send_raw(data)
            conn.last_seq = live.seq

    def publish(self, table_id: int, message: dict[str, Any] | bytes,
                to: Callable[[Connection], bool] | None = None) -> None:
        """One message to the table's connections here (those ``to`` accepts), encoded once.
        Every message a feature sends to sockets goes through here or the hub's own pushes."""
        data = message if isinstance(message, bytes) else orjson.dumps(message)
        for conn in list(self.rooms.get(table_id, ())):
            if to is None or to(conn):
                conn.send_raw(data)

    def push_line(self, live: LiveTable, seq: int, text: str, newest: bool) -> None:
        """A log line just stored after move ``seq`` (a hint asked; see ``LiveTable.add_line``).
        The newest line of the log goes alone to each connection that has every line before
        it (the others read it in their next view); a line landing among older ones means every
        connection's whole view and log again."""
        if not newest:
            self.resend_logs(live.id)
            self.push_views(live)
            return
        message = orjson.dumps({"type": "log", "lines": [{"seq": seq, "text": text}]})
        for conn in list(self.rooms.get(live.id, ())):
            if conn.last_seq >= seq:
                conn.send_raw(message)

    def resend_logs(self, table_id: int) -> None:
        """The table's connections are sent their whole view and log with the next push: a
        line was stored among the old ones (a seat changing hands, a hint asked)."""
        for conn in self.rooms.get(table_id, ()):
            conn.last_seq = -1

    def push_chat(self, table_id: int, messages: list[dict[str, Any]]) -> None:
        """Chat lines to every connection at the table that has not had them."""
        if not messages:
            return
        for conn in list(self.rooms.get(table_id, ())):
            fresh = [m for m in messages if m["id"] > conn.last_chat]
            if fresh:
                conn.send({"type": "chat", "messages": fresh})
                conn.last_chat = fresh[-1]["id"]

    def push_error(self, conn: Connection, error: str, message: str, **extra: Any) -> None:
        conn.send({"type": "error", "error": error, "message": message, **extra})

    # -- other processes ----------------------------------------------------------------------

    async def on_notification(self, payload: dict[str, Any]) -> None:
        kind = payload.get("k")
        if kind == "resync":
            await self.resync()
            return
        table_id = int(payload["t"])
        if kind in ("moves", "lobby"):
            for elsewhere in self.listeners.elsewhere:
                elsewhere(table_id, kind)
        if kind == "presence":
            remote = self.remote_presence[table_id]
            connected = set(payload.get("c", ()))
            if connected:
                remote[str(payload["p"])] = connected
            else:  # nothing kept for a table nobody there watches any more
                remote.pop(str(payload["p"]), None)
                if not remote:
                    del self.remote_presence[table_id]
            live = self.tables.cached(table_id)
            if live is not None:
                self.push_table(live)
            return
        if table_id not in self.rooms and self.tables.forget(table_id):
            return  # nobody here watches it: it is reloaded when next asked for
        if kind == "lobby":
            await self.reload(table_id)
        elif kind == "moves":
            async with self.tables.hold(table_id) as live:
                if live is None:
                    return
                before = live.status
                try:
                    await self.tables.catch_up(live, payload.get("m"))
                except Exception:  # a cache that cannot take them is rebuilt from the store
                    log.warning("catching up table %s failed; rebuilding it", table_id, exc_info=True)
                    fresh = await self.tables.reload(live)
                    if fresh is not None:
                        self.table_changed(fresh)
                    return
                if live.status != before:
                    self.push_table(live)
                self.push_views(live)
        elif kind == "chat":
            room = self.rooms.get(table_id, set())
            since = min((c.last_chat for c in room), default=0)
            self.push_chat(table_id, await recent_chat(self.tables, table_id, after_id=since))
        elif kind in self.listeners.notices:
            await self.listeners.notices[kind](payload)

    async def reload(self, table_id: int) -> None:
        """Rebuild a table from the database and tell its connections."""
        async with self.tables.hold(table_id) as live:
            fresh = await self.tables.reload(live) if live is not None else None
            if fresh is not None:
                self.table_changed(fresh)

    async def resync(self) -> None:
        """After missed notifications: reload every table someone here watches, forget the rest."""
        for table_id in list(self.tables.cached_ids()):
            if table_id not in self.rooms:
                self.tables.forget(table_id)
        for table_id in list(self.rooms):
            await self.reload(table_id)
