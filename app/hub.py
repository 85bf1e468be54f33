"""Websocket connections per table, and what each is sent.

Every connection has an outbox drained by its own task, so a slow reader never holds up the
others; views are computed once per seat per change, and only for seats that are connected.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.types import Send

from app.live import LiveTable, LiveTables
from app.notify import Notifier
from engines.base import views

log = logging.getLogger("parlour.hub")
OUTBOX_LIMIT = 256


@dataclass(eq=False, slots=True)
class Connection:
    """One websocket. Messages wait in ``pending``; a drain task exists only while some wait,
    so an idle connection costs no task, and a slow reader never holds up the others."""

    asgi_send: Send
    table_id: int
    player_id: int | None  # None: a spectator
    seat: int | None = None
    last_seq: int = -1  # the newest log line this connection has been sent
    last_chat: int = 0
    pending: list[str | None] = field(default_factory=list)  # short: a list costs less than a deque
    draining: asyncio.Task[None] | None = None
    closed: bool = False
    chat_times: list[float] = field(default_factory=list)

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(orjson.dumps(message).decode())

    def send_raw(self, data: str | None) -> None:
        """Queue an encoded message (one str may be shared by many connections)."""
        if self.closed:
            return
        if data is not None and self.draining is None and not self.pending and self._send_now(data):
            return
        if len(self.pending) >= OUTBOX_LIMIT:
            # A reader this far behind gets a fresh start when it reconnects.
            log.info("closing a connection whose outbox is full")
            self.pending.clear()
            data = None
        self.pending.append(data)
        if data is None:
            self.closed = True
        if self.draining is None:
            self.draining = asyncio.create_task(self._drain(None))

    def _send_now(self, data: str) -> bool:
        """Hand a message to the server at once, without a task: its send completes without
        waiting whenever the socket is writable, which is nearly always. When it must wait,
        a drain task finishes it (and whatever queues behind it). True: nothing left to do."""
        step = self.asgi_send({"type": "websocket.send", "text": data})
        try:
            waiting = step.send(None)
        except StopIteration:
            return True
        except Exception:  # the peer went away; the reader side cleans up
            self.closed = True
            return True
        self.draining = asyncio.create_task(self._drain((step, waiting)))
        return True

    def close(self) -> None:
        self.send_raw(None)

    async def _drain(self, started: tuple[Any, Any] | None) -> None:
        try:
            if started is not None:  # finish the send that had to wait
                step, waiting = started
                while True:
                    if waiting is None:  # a bare yield: give the loop one turn
                        await asyncio.sleep(0)
                    else:
                        waiting._asyncio_future_blocking = False
                        await waiting
                    try:
                        waiting = step.send(None)
                    except StopIteration:
                        break
            while self.pending:
                data = self.pending.pop(0)
                if data is None:
                    await self.asgi_send({"type": "websocket.close", "code": 1013})
                    return
                await self.asgi_send({"type": "websocket.send", "text": data})
        except Exception:  # the peer went away; the reader side cleans up
            self.closed = True
            self.pending.clear()
        finally:
            self.draining = None


class Hub:
    def __init__(self, live: LiveTables, notifier: Notifier) -> None:
        self.live = live
        self.notifier = notifier
        self.rooms: dict[int, set[Connection]] = defaultdict(set)
        # player ids connected through other server processes: table -> process -> ids
        self.remote_presence: dict[int, dict[str, set[int]]] = defaultdict(dict)
        self._background: set[asyncio.Task[None]] = set()
        self.serving: set[asyncio.Task[None]] = set()  # the websocket handlers

    # -- membership ---------------------------------------------------------------------------

    def local_connected(self, table_id: int) -> set[int]:
        return {c.player_id for c in self.rooms.get(table_id, ()) if c.player_id is not None}

    def connected(self, table_id: int) -> set[int]:
        ids = self.local_connected(table_id)
        for remote in self.remote_presence.get(table_id, {}).values():
            ids |= remote
        return ids

    async def join(self, conn: Connection, live: LiveTable) -> None:
        before = self.local_connected(live.id)
        self.rooms[live.id].add(conn)
        conn.send({"type": "table", "table": live.public_summary(self.connected(live.id))})
        self.send_view(conn, live)
        if self.local_connected(live.id) != before:
            await self.presence_changed(live)

    async def leave(self, conn: Connection) -> None:
        room = self.rooms.get(conn.table_id)
        if room is None:
            return
        before = self.local_connected(conn.table_id)
        room.discard(conn)
        conn.closed = True
        conn.pending.clear()
        if not room:
            self.rooms.pop(conn.table_id, None)
        if self.local_connected(conn.table_id) != before:
            live = self.live.cached(conn.table_id)
            if live is not None:
                await self.presence_changed(live)

    async def presence_changed(self, live: LiveTable) -> None:
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

    def push_table(self, live: LiveTable) -> None:
        """Players, status, who is connected: after joins, the start, presence changes."""
        message = orjson.dumps({"type": "table", "table": live.public_summary(self.connected(live.id))}).decode()
        for conn in list(self.rooms.get(live.id, ())):
            conn.send_raw(message)

    def view_message(self, live: LiveTable, seat: int | None, after_seq: int,
                     view: dict[str, Any] | None = None,
                     legal: dict[int, list[Any]] | None = None) -> dict[str, Any]:
        engine = live.engine
        awaiting = live.awaiting()
        moves: list[Any] = []
        if seat is not None and seat in awaiting:
            moves = legal[seat] if legal is not None and seat in legal else engine.legal_moves(live.state, seat)
        message: dict[str, Any] = {
            "type": "view",
            "seq": live.seq,
            "seat": seat,
            "status": live.status,
            "awaiting": awaiting,
            "view": view if view is not None else engine.view(live.state, seat),
            "log": live.log_for(seat, after_seq),
            "moves": moves,
        }
        if after_seq < 0:  # a connection's first view: the whole log, to replace what it had
            message["full"] = True
        if live.status == "finished":
            message["result"] = live.result
            message["seed"] = live.seed
        return message

    def send_view(self, conn: Connection, live: LiveTable) -> None:
        if live.state is None or conn.last_seq >= live.seq:
            return
        conn.send(self.view_message(live, conn.seat, conn.last_seq))
        conn.last_seq = live.seq

    def push_views(self, live: LiveTable) -> None:
        """Send every connected seat the view after a change: each seat's view is computed
        once (and the engine may share the public part between seats), whatever the number
        of tabs and spectators."""
        room = self.rooms.get(live.id)
        if not room or live.state is None:
            return
        behind = [conn for conn in room if conn.last_seq < live.seq]
        if not behind:
            return
        seats = {conn.seat for conn in behind}
        # Legal moves once per awaited seat, shared by its message and (if the engine wants
        # them) its prompt.
        legal = {seat: live.engine.legal_moves(live.state, seat)
                 for seat in live.awaiting() if seat in seats}
        seat_views = views(live.engine, live.state, seats, legal)
        cache: dict[tuple[int | None, int], str] = {}
        for conn in behind:
            key = (conn.seat, conn.last_seq)
            data = cache.get(key)
            if data is None:
                data = orjson.dumps(self.view_message(live, conn.seat, conn.last_seq, seat_views[conn.seat],
                                                      legal)).decode()
                cache[key] = data
            conn.send_raw(data)
            conn.last_seq = live.seq

    def push_chat(self, table_id: int, messages: list[dict[str, Any]]) -> None:
        if not messages:
            return
        data = orjson.dumps({"type": "chat", "messages": messages}).decode()
        for conn in list(self.rooms.get(table_id, ())):
            conn.send_raw(data)

    def push_error(self, conn: Connection, error: str, message: str, **extra: Any) -> None:
        conn.send({"type": "error", "error": error, "message": message, **extra})

    # -- other processes ----------------------------------------------------------------------

    async def on_notification(self, payload: dict[str, Any]) -> None:
        kind = payload.get("k")
        if kind == "resync":
            await self.resync()
            return
        table_id = int(payload["t"])
        if kind == "presence":
            self.remote_presence[table_id][str(payload["p"])] = set(payload.get("c", ()))
            live = self.live.cached(table_id)
            if live is not None:
                self.push_table(live)
            return
        if table_id not in self.rooms:
            self.live.forget(table_id)  # nobody here watches it: reload when next asked
            return
        if kind == "lobby":
            self.live.forget(table_id)
            live = await self.live.get(table_id)
            if live is not None:
                self.push_table(live)
                self._assign_seats(live)
                self.push_views(live)
        elif kind == "moves":
            live = await self.live.get(table_id)
            if live is None:
                return
            async with live.lock:
                before = live.status
                carried = payload.get("m")
                try:
                    applied = bool(carried) and self.live.apply_carried(live, carried)
                except Exception:  # a cache that cannot take them is rebuilt from the store
                    log.exception("applying carried moves failed")
                    self.live.forget(table_id)
                    return
                if not applied:
                    await self.live.catch_up(live)
            if live.status != before:
                self.push_table(live)
            self.push_views(live)
        elif kind == "chat":
            from app.chat import recent_chat  # a late import: chat needs the hub's types

            room = self.rooms.get(table_id, set())
            since = min((c.last_chat for c in room), default=0)
            messages = await recent_chat(self.live, table_id, after_id=since)
            for conn in list(room):
                fresh = [m for m in messages if m["id"] > conn.last_chat]
                if fresh:
                    conn.send({"type": "chat", "messages": fresh})
                    conn.last_chat = fresh[-1]["id"]

    async def resync(self) -> None:
        """After missed notifications: reload every table someone here watches, forget the rest."""
        for table_id in list(self.live.cached_ids()):
            if table_id not in self.rooms:
                self.live.forget(table_id)
        for table_id in list(self.rooms):
            await self.on_notification({"t": table_id, "k": "lobby"})

    def _assign_seats(self, live: LiveTable) -> None:
        by_id = {p.id: p for p in live.players}
        for conn in self.rooms.get(live.id, ()):
            if conn.player_id is not None and conn.player_id in by_id:
                conn.seat = by_id[conn.player_id].seat
