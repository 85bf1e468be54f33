"""Websockets: a seat's live connection, and a spectator's."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.chat import check_flood, clean_chat, post_chat, recent_chat
from app.errors import ApiError
from app.hub import Connection
from app.live import LiveTable, PlayerInfo
from app.parlour import Parlour, get_parlour
from app.tokens import normalize_code

router = APIRouter(tags=["websocket"])
log = logging.getLogger("parlour.ws")


def origin_allowed(ws: WebSocket, parlour: Parlour) -> bool:
    """Browsers always send Origin: it must be this site. Scripts that send none are fine."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    allowed = {ws.headers.get("host", "").lower()}
    if parlour.settings.public_url:
        allowed.add(urlsplit(parlour.settings.public_url).netloc.lower())
    return netloc in allowed


@router.websocket("/ws/seats/{token}")
async def seat_socket(ws: WebSocket, token: str) -> None:
    parlour = get_parlour(ws)
    if not origin_allowed(ws, parlour):
        await ws.close(code=4403, reason="origin not allowed")
        return
    found = await parlour.seat(token)
    if found is None:
        await ws.close(code=4404, reason="unknown seat")
        return
    live, player = found
    await serve(ws, parlour, live, player)


@router.websocket("/ws/watch/{code}")
async def watch_socket(ws: WebSocket, code: str) -> None:
    parlour = get_parlour(ws)
    if not origin_allowed(ws, parlour):
        await ws.close(code=4403, reason="origin not allowed")
        return
    client = ws.client.host if ws.client else "unknown"
    if parlour.failed_lookups.retry_after(client):
        await ws.close(code=4429, reason="too many unknown codes")
        return
    norm = normalize_code(code)
    live = await parlour.live.by_code(norm) if norm else None
    if live is None:
        parlour.failed_lookups.failed(client)
        await ws.close(code=4404, reason="unknown table")
        return
    await serve(ws, parlour, live, None)


async def serve(ws: WebSocket, parlour: Parlour, live: LiveTable, player: PlayerInfo | None) -> None:
    await ws.accept()
    conn = Connection(ws, live.id, player.id if player else None,
                      seat=player.seat if player else None)
    token_hash = player.token_hash if player else None
    parlour.hub.serving.add(asyncio.current_task())  # type: ignore[arg-type]
    try:
        history = await recent_chat(parlour.live, live.id)
        await parlour.hub.join(conn, live)
        if history:
            conn.send({"type": "chat", "messages": history})
            conn.last_chat = history[-1]["id"]
        while True:
            raw = await ws.receive_text()
            # Re-read the table each time: the cache may have been rebuilt since the socket opened.
            current = await parlour.live.get(conn.table_id)
            if current is None:
                break
            me = current.player_by_hash(token_hash) if token_hash else None
            await handle(raw, conn, parlour, current, me)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # receiving after the peer closed
        pass
    finally:
        await parlour.hub.leave(conn)
        parlour.hub.serving.discard(asyncio.current_task())  # type: ignore[arg-type]


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
