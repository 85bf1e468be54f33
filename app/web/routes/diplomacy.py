"""The seat API of private chats (diplomacy, app/features/diplomacy.py): only a seat's own token reaches
its chats; there is no spectator's or table-wide way in."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict

from app.features.diplomacy import labels
from app.parlour import JSON, ParlourDep
from app.web.routes.api import SeatDep

router = APIRouter(prefix="/api/seats/{token}/chats", tags=["private chats"])


class OpenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    members: Any = None  # checked by the service, for its own clear errors


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Any = None


class ReadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    upto: Any = None


class AgreeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agree: Any = None


@router.get("")
async def list_chats(seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The seat's private chats: members (seats), who agreed to publish, the newest message's
    number, this seat's read position and unread count; and each seat's name in the game
    ("labels", by seat: houses) when the game gives them, else null."""
    chats = await parlour.private_chats.summaries(*seat)
    return {"chats": chats, "labels": labels(seat[0])}


@router.post("", status_code=201)
async def open_chat(body: OpenIn, seat: SeatDep, parlour: ParlourDep, response: Response) -> JSON:
    """Open a chat with these seats (201), or find the one they already have (200)."""
    summary, created = await parlour.private_chats.open(*seat, body.members)
    if not created:
        response.status_code = 200
    return {"chat": summary}


@router.get("/{chat_id}/messages")
async def chat_messages(chat_id: int, seat: SeatDep, parlour: ParlourDep, before: int | None = None) -> JSON:
    chats = parlour.private_chats
    return await chats.messages(*seat, chats.chat_id(chat_id), before)


@router.post("/{chat_id}/messages", status_code=201)
async def post_message(chat_id: int, body: MessageIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    chats = parlour.private_chats
    return {"message": await chats.post(*seat, chats.chat_id(chat_id), body.text)}


@router.post("/{chat_id}/read")
async def mark_read(chat_id: int, body: ReadIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    chats = parlour.private_chats
    return await chats.mark_read(*seat, chats.chat_id(chat_id), body.upto)


@router.put("/{chat_id}/publish")
async def agree_to_publish(chat_id: int, body: AgreeIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """This member agrees (true) or not (false) to the chat being published with the record:
    it is, once every member agrees."""
    chats = parlour.private_chats
    return {"chat": await chats.agree(*seat, chats.chat_id(chat_id), body.agree)}
