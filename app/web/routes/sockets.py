"""Websockets: a seat's live connection, and a spectator's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import orjson
from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from app.parlour import Parlour
from app.play.chat import clean_chat, post_chat, recent_chat
from app.play.hub import Connection
from app.play.live import LiveTable, PlayerInfo
from app.play.wire import public_summary
from app.server.errors import ApiError
from app.server.guard import origin_allowed
from app.server.logs import current_request, request_facts, request_scope
from app.server.user_text import refuse_nul
from app.web import outage
from app.web.outage import database_unavailable
from app.web.websocket_protocol import SEND_NOW

log = logging.getLogger("parlour.ws")
SEAT_PATH = "/ws/seats/"
WATCH_PATH = "/ws/watch/"
TRY_AGAIN_LATER = 1013  # RFC 6455's close code for a server that cannot serve for now


class SocketEndpoint:
    """The whole site as one ASGI application: websockets handled right here, everything else
    (pages, the JSON API, the lifespan) by the FastAPI application.

    A live connection lives for hours and carries a message per move, so it skips every layer
    of the web framework (routing, middleware, exception handling): less memory per socket and
    less time per message.
    """

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.state = app.state  # as FastAPI's, for tests and tools

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with request_scope(scope):  # the log lines of a request or a socket say which (app/server/logs.py)
            if scope["type"] == "websocket" and scope.get("path", "").startswith((SEAT_PATH, WATCH_PATH)):
                await connect(scope, receive, send, self.app.state.parlour)
            else:
                await self.app(scope, receive, send)


async def refuse(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Accept, then close with the reason: a browser is never told why a handshake failed
    (it sees 1006 and would retry forever), but it is told a close code."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})


async def connect(scope: Scope, receive: Receive, send: Send, parlour: Parlour) -> None:
    opening = parlour.hub.opening  # a few sockets opened at a time (app/play/hub.py)
    await opening.acquire()
    waiting = [True]

    def let_next_in() -> None:
        if waiting[0]:
            waiting[0] = False
            opening.release()

    try:
        try:
            found = await find_connection(scope, receive, send, parlour)
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            # Finding the seat or table needs the database: without it the handshake would end
            # in a 500, so the page is told to come back instead.
            await refuse(receive, send, TRY_AGAIN_LATER, "database unavailable")
            return
        if found is not None:
            live, player, client = found
            await serve(scope, receive, send, parlour, live, player, client, let_next_in)
    finally:
        let_next_in()


async def find_connection(scope: Scope, receive: Receive, send: Send,
                          parlour: Parlour) -> tuple[LiveTable, PlayerInfo | None, str] | None:
    """The table and seat (None for a spectator) a socket is for, once admitted; None once refused."""
    path: str = scope["path"]
    client = scope["client"][0] if scope.get("client") else "unknown"
    if not origin_allowed(scope, parlour.settings.public_url):
        await refuse(receive, send, 4403, "origin not allowed")
        return None
    if path.startswith(SEAT_PATH):
        found = await parlour.seat(path[len(SEAT_PATH):], client)
        if found is None:
            await refuse(receive, send, 4404, "unknown seat")
            return None
        live, player = found
        if player.bot is not None and not player.is_bot:  # back: the seat is theirs again
            await parlour.bots.reclaim(player.token_hash)
            found = await parlour.seat(path[len(SEAT_PATH):])
            if found is None:
                await refuse(receive, send, 4404, "unknown seat")
                return None
            live, player = found
    else:
        try:
            live, player = await parlour.find_table(client, path[len(WATCH_PATH):]), None
        except ApiError as err:
            await refuse(receive, send, 4429 if err.status == 429 else 4404,
                         "too many unknown codes" if err.status == 429 else "unknown table")
            return None
    try:
        parlour.hub.admit(live.id, player.id if player else None, client)
    except ApiError as err:
        await refuse(receive, send, 4429, err.error.replace("_", " "))
        return None
    return live, player, client


async def serve(scope: Scope, receive: Receive, send: Send, parlour: Parlour, live: LiveTable,
                player: PlayerInfo | None, client: str, opened: Callable[[], None]) -> None:
    """The socket opened (``opened()`` once it is: the next may open), then served."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    socket = (scope.get("extensions") or {}).get(SEND_NOW)
    conn = Connection(send, live.id, player.id if player else None, seat=player.seat if player else None,
                      address=client, socket=socket)
    served = ServedSocket(parlour, conn, player.token_hash if player else None, socket)
    task = asyncio.current_task()
    assert task is not None
    hub = parlour.hub
    hub.serving.add(task)
    try:
        if not await served.guarded(served.open(player)):
            return
        opened()
        detach = getattr(socket, "detach", None)
        if detach is not None:
            # parlour's own server: the socket stays open after this coroutine ends, and its
            # messages are served by tasks that exist only while some wait
            detach(served.drain)
            served.detached = True
            return
        while await served.guarded(served.on(await receive())):
            pass
    finally:
        hub.serving.discard(task)
        if not served.detached:
            hub.leave(conn)


class ServedSocket:
    """One open socket of a seat or a spectator: its connection to the hub and what each of
    its messages does. Kept by the server's socket once its opening coroutine has ended
    (``drain``), so an idle socket costs only this, the connection and the socket itself."""

    __slots__ = ("conn", "detached", "facts", "parlour", "socket", "token_hash")

    def __init__(self, parlour: Parlour, conn: Connection, token_hash: str | None, socket: Any) -> None:
        self.parlour = parlour
        self.conn = conn
        self.token_hash = token_hash
        self.socket = socket
        self.detached = False
        self.facts = current_request()  # what its log lines say of it

    async def open(self, player: PlayerInfo | None) -> bool:
        """The table, its chat and any private greeting sent; False: the table is gone."""
        parlour, conn = self.parlour, self.conn
        history = await recent_chat(parlour.tables, conn.table_id)
        current = await parlour.tables.get(conn.table_id)
        if current is None:
            return False
        parlour.hub.join(conn, current)
        if history:
            conn.send({"type": "chat", "messages": history})
            conn.last_chat = history[-1]["id"]
        greeting = await parlour.private_chats.greet(current, player)
        if greeting is not None:
            conn.send(greeting)
        return True

    async def on(self, message: Mapping[str, Any]) -> bool:
        """One message received; False when the socket is done (a disconnect, the table gone,
        the seat left or removed by the founder)."""
        if message["type"] != "websocket.receive":
            return False  # websocket.disconnect
        raw = message.get("text")
        if raw is None:
            raw = (message.get("bytes") or b"").decode("utf-8", "replace")
        # Re-read the table each time: the cache may have been rebuilt since the socket opened.
        current = await self.parlour.tables.get(self.conn.table_id)
        if current is None:
            return False
        me = current.player_by_hash(self.token_hash) if self.token_hash else None
        if self.token_hash and me is None:
            return False
        await handle(raw, self.conn, self.parlour, current, me)
        return True

    async def guarded(self, step: Coroutine[Any, Any, bool]) -> bool:
        """``step`` as the socket's serving goes on after it: False when the socket is done,
        also when the peer went away mid-send or the database did."""
        try:
            return await step
        except OSError:  # the peer went away mid-send
            return False
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            # Reading the table or its chat found the database away: a close code the page
            # retries on, never a cut connection (which a client sees as a protocol error).
            with contextlib.suppress(OSError, RuntimeError):
                await self.conn.asgi_send({"type": "websocket.close", "code": TRY_AGAIN_LATER,
                                 "reason": "database unavailable"})
            return False

    async def drain(self) -> None:
        """A detached socket's waiting messages, in order (app/web/websocket_protocol.py)."""
        hub = self.parlour.hub
        task = asyncio.current_task()
        assert task is not None
        hub.serving.add(task)
        try:
            with request_facts(self.facts):
                while (message := self.socket.take()) is not None:
                    if not await self.guarded(self.on(message)):
                        hub.leave(self.conn)
                        self.socket.end()
                        return
        except BaseException:
            hub.leave(self.conn)
            raise
        finally:
            hub.serving.discard(task)


async def handle(raw: str, conn: Connection, parlour: Parlour, live: LiveTable,
                 player: PlayerInfo | None) -> None:
    hub = parlour.hub
    if len(raw.encode()) > parlour.settings.max_frame_bytes:
        hub.push_error(conn, "too_large",
                       f"A message is at most {parlour.settings.max_frame_bytes // 1024} KiB.")
        return
    try:
        msg = orjson.loads(raw)
    except orjson.JSONDecodeError:
        hub.push_error(conn, "malformed", "That message is not valid JSON.")
        return
    if not isinstance(msg, dict):
        hub.push_error(conn, "malformed", 'A message is a JSON object with a "type".')
        return
    kind = msg.get("type")
    # Limits count per seat (a spectator: per address), whatever the number of sockets it opens.
    who = (live.id, player.id) if player is not None else conn.address
    try:
        # In a chat, a move's keys or texts, anything: PostgreSQL cannot store a NUL. JSON can
        # only write one as an escape, so a message without "\u0000" is not walked (4 µs a move).
        if "\\u0000" in raw:
            refuse_nul(msg)
        if kind == "move":
            if player is None:
                raise ApiError(403, "spectator", "Spectators cannot play moves.")
            conn.seat = player.seat
            await parlour.mover.play(live, player, msg.get("seq"), msg.get("move"))
        elif kind == "undo":
            if player is None:
                raise ApiError(403, "spectator", "Spectators cannot take back moves.")
            await parlour.mover.take_back(live, player, msg.get("seq"))
        elif kind == "chat":
            if player is None:
                raise ApiError(403, "spectator", "Spectators cannot chat.")
            text = clean_chat(msg.get("text"), parlour.settings.chat_max_chars)
            wait = hub.chat_limit.take(who)
            if wait:
                raise ApiError(429, "slow_down", f"You are sending messages too fast; wait {wait:.0f} s.")
            hub.push_chat(live.id, [await post_chat(parlour.tables, parlour.notifier, live, player, text)])
        elif kind == "private_message":  # a message in one of the seat's private chats (diplomacy)
            if player is None:
                raise ApiError(403, "spectator", "Spectators have no private chats.")
            chats = parlour.private_chats
            await chats.post(live, player, chats.chat_id(msg.get("chat")), msg.get("text"))
        elif kind == "sync":
            wait = hub.sync_limit.take(who)
            if wait:
                raise ApiError(429, "slow_down", f"Too many requests to resync; wait {wait:.0f} s.")
            conn.last_seq = -1
            conn.send({"type": "table", "table": public_summary(live, hub.connected(live.id))})
            hub.send_view(conn, live)
        elif kind == "ping":
            conn.send({"type": "pong"})
        else:
            raise ApiError(422, "unknown_type", f"Unknown message type {kind!r}; "
                           "send move, undo, chat, private_message, sync or ping.")
    except ApiError as err:
        hub.push_error(conn, err.error, err.message, **err.extra)
        if err.error == "stale":
            current = await parlour.tables.get(live.id)
            if current is not None:
                hub.send_view(conn, current)
    except Exception as exc:
        if not database_unavailable(exc):
            raise
        # Nothing was stored; the table is loaded again when the database is back.
        hub.push_error(conn, outage.ANSWER["error"], outage.ANSWER["message"], retry_after=outage.RETRY_AFTER_SECONDS)
