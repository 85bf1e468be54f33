"""Websockets: a seat's live connection, and a spectator's."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from app.chat import check_flood, clean_chat, post_chat, recent_chat
from app.errors import ApiError
from app.hub import Connection
from app.live import LiveTable, PlayerInfo
from app.parlour import Parlour
from app.tokens import normalize_code

log = logging.getLogger("parlour.ws")
SEAT_PATH = "/ws/seats/"
WATCH_PATH = "/ws/watch/"


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
        if scope["type"] == "websocket" and scope.get("path", "").startswith((SEAT_PATH, WATCH_PATH)):
            await connect(scope, receive, send, self.app.state.parlour)
        else:
            await self.app(scope, receive, send)


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def origin_allowed(scope: Scope, parlour: Parlour) -> bool:
    """Browsers always send Origin: it must be this site. Scripts that send none are fine."""
    origin = header(scope, b"origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    allowed = {(header(scope, b"host") or "").lower()}
    if parlour.settings.public_url:
        allowed.add(urlsplit(parlour.settings.public_url).netloc.lower())
    return netloc in allowed


async def refuse(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Accept, then close with the reason: a browser is never told why a handshake failed
    (it sees 1006 and would retry forever), but it is told a close code."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})


async def connect(scope: Scope, receive: Receive, send: Send, parlour: Parlour) -> None:
    path: str = scope["path"]
    if not origin_allowed(scope, parlour):
        await refuse(receive, send, 4403, "origin not allowed")
        return
    if path.startswith(SEAT_PATH):
        found = await parlour.seat(path[len(SEAT_PATH):])
        if found is None:
            await refuse(receive, send, 4404, "unknown seat")
            return
        live, player = found
        await serve(receive, send, parlour, live, player)
        return
    client = scope["client"][0] if scope.get("client") else "unknown"
    if parlour.failed_lookups.retry_after(client):
        await refuse(receive, send, 4429, "too many unknown codes")
        return
    norm = normalize_code(path[len(WATCH_PATH):])
    live = await parlour.live.by_code(norm) if norm else None
    if live is None:
        parlour.failed_lookups.failed(client)
        await refuse(receive, send, 4404, "unknown table")
        return
    await serve(receive, send, parlour, live, None)


async def serve(receive: Receive, send: Send, parlour: Parlour, live: LiveTable,
                player: PlayerInfo | None) -> None:
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    conn = Connection(send, live.id, player.id if player else None, seat=player.seat if player else None)
    token_hash = player.token_hash if player else None
    task = asyncio.current_task()
    assert task is not None
    parlour.hub.serving.add(task)
    try:
        history = await recent_chat(parlour.live, live.id)
        await parlour.hub.join(conn, live)
        if history:
            conn.send({"type": "chat", "messages": history})
            conn.last_chat = history[-1]["id"]
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                break  # websocket.disconnect
            raw = message.get("text")
            if raw is None:
                raw = (message.get("bytes") or b"").decode("utf-8", "replace")
            # Re-read the table each time: the cache may have been rebuilt since the socket opened.
            current = await parlour.live.get(conn.table_id)
            if current is None:
                break
            me = current.player_by_hash(token_hash) if token_hash else None
            await handle(raw, conn, parlour, current, me)
    except OSError:  # the peer went away mid-send
        pass
    finally:
        await parlour.hub.leave(conn)
        parlour.hub.serving.discard(task)


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
    try:
        if kind == "move":
            if player is None:
                raise ApiError(403, "spectator", "Spectators cannot play moves.")
            conn.seat = player.seat
            await parlour.mover.play(live, player, msg.get("seq"), msg.get("move"))
        elif kind == "chat":
            if player is None:
                raise ApiError(403, "spectator", "Spectators cannot chat.")
            text = clean_chat(msg.get("text"), parlour.settings.chat_max_chars)
            check_flood(conn.chat_times)
            message = await post_chat(parlour.live, parlour.notifier, live, player, text)
            for other in list(hub.rooms.get(live.id, ())):
                other.send({"type": "chat", "messages": [message]})
                other.last_chat = max(other.last_chat, message["id"])
        elif kind == "sync":
            conn.last_seq = -1
            conn.send({"type": "table", "table": live.public_summary(hub.connected(live.id))})
            hub.send_view(conn, live)
        elif kind == "ping":
            conn.send({"type": "pong"})
        else:
            raise ApiError(422, "unknown_type", f"Unknown message type {kind!r}; "
                           "send move, chat, sync or ping.")
    except ApiError as err:
        hub.push_error(conn, err.error, err.message, **err.extra)
        if err.error == "stale":
            hub.send_view(conn, live)
