"""Table chat: stored, escaped by the client (sent as text), length-limited (slowed when flooded:
see the hub's per-seat limit)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.notify import Notifier
from app.server.errors import ApiError
from app.server.user_text import refuse_nul, visible
from app.storage.models import ChatMessage, Player, utcnow

HISTORY = 100


def clean_chat(text: object, max_chars: int) -> str:
    """A message as it is stored: trimmed, without control or format characters. Refused when
    it holds a NUL, is too long, or shows nothing (only spaces, zero-width or direction marks)."""
    if not isinstance(text, str):
        raise empty_message()
    refuse_nul(text)
    text = text.strip()
    if len(text) > max_chars:
        raise ApiError(422, "message_too_long", f"A message is at most {max_chars} characters.")
    text = "".join(c for c in text if c in "\n\t" or c.isprintable())
    if not visible(text):
        raise empty_message()
    return text


def empty_message() -> ApiError:
    return ApiError(422, "empty_message", "Write something to send.")


async def post_chat(tables: LiveTables, notifier: Notifier, live: LiveTable, player: PlayerInfo,
                    text: str) -> dict[str, Any]:
    async with tables.sessions() as s, s.begin():
        row = ChatMessage(table_id=live.id, player_id=player.id, text=text, created_at=utcnow())
        s.add(row)
        await s.flush()
        await notifier.in_transaction(s, live.id, "chat")
    return {"id": row.id, "name": player.name, "seat": player.seat, "text": text,
            "at": row.created_at.isoformat() + "Z"}


async def recent_chat(tables: LiveTables, table_id: int, after_id: int = 0) -> list[dict[str, Any]]:
    async with tables.sessions() as s:
        rows = (await s.execute(
            select(ChatMessage.id, ChatMessage.text, ChatMessage.created_at, Player.name, Player.seat)
            .join(Player, Player.id == ChatMessage.player_id)
            .where(ChatMessage.table_id == table_id, ChatMessage.id > after_id)
            .order_by(ChatMessage.id.desc()).limit(HISTORY))).all()
    return [{"id": r.id, "name": r.name, "seat": r.seat, "text": r.text,
             "at": r.created_at.isoformat() + "Z"} for r in reversed(rows)]
