"""Time at the table: clocks, "your turn" by Web Push, my tables, and play again."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat import post_chat
from app.errors import ApiError, not_found
from app.live import LiveTable, PlayerInfo
from app.models import MoveRecord, Player, Rematch, TableClock
from app.parlour import JSON, Parlour, ParlourDep, client_id
from app.routes.api import SeatDep, lookup_table
from app.tokens import hash_token

router = APIRouter(prefix="/api", tags=["time at the table"])
MY_TABLES_MAX = 100


class SubscriptionIn(BaseModel):
    model_config = ConfigDict(extra="allow")  # the browser's PushSubscription.toJSON() as it is
    endpoint: Any = None
    keys: Any = None


class ForgetPushIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(max_length=1024)


class MyTablesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: list[str] = Field(max_length=MY_TABLES_MAX)


# -- clocks ------------------------------------------------------------------------------------

@router.get("/tables/{code}/clock")
async def table_clock(code: str, request: Request, parlour: ParlourDep) -> JSON:
    """The table's clocks as every seat sees them: each seat's time left (ms), whose runs, and the
    time-outs so far. ``clock`` is null for a table founded without one."""
    live = await lookup_table(parlour, request, code)
    if live.status == "gathering":
        async with parlour.sessions() as s:
            row = await s.get(TableClock, live.id)
        return {"seq": live.seq, "clock": None if row is None else {**row.settings, "seats": [], "timeouts": []}}
    clock = await parlour.clocks.clock(live.id)
    if clock is None:
        return {"seq": live.seq, "clock": None}
    return {"seq": clock.seq, "clock": parlour.clocks.public(live, clock)}


# -- Web Push ----------------------------------------------------------------------------------

@router.get("/push/key")
async def push_key(parlour: ParlourDep) -> JSON:
    """The server's VAPID public key (base64url): the page subscribes with it."""
    return {"key": await parlour.pusher.public_key()}


@router.post("/seats/{token}/push", status_code=201)
async def subscribe_push(body: SubscriptionIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """Send "your turn" to this browser when the seat is awaited and its page is closed."""
    await parlour.pusher.subscribe(seat[1].id, body.model_dump(), table_id=seat[0].id)
    return {"subscribed": True}


@router.post("/seats/{token}/push/forget")
async def forget_push(body: ForgetPushIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    return {"forgotten": await parlour.pusher.unsubscribe(seat[1].id, body.endpoint)}


# -- my tables ---------------------------------------------------------------------------------

@router.post("/my-tables")
async def my_tables(body: MyTablesIn, request: Request, parlour: ParlourDep) -> JSON:
    """The tables of the seat tokens a browser holds (it keeps them; the server keeps no list):
    the game, the players, whose turn it is, the last move's time. An unknown token is answered
    ``{"seat_token": ..., "missing": true}``. At most 100 tokens a request, looked up at once.
    Unknown tokens count as wrong guesses against the address's brake on table codes: while it
    is braked, a request holding one is answered 429 (the seats it holds stay open to it)."""
    client = client_id(request)
    tokens = list(dict.fromkeys(body.seats))  # each once, in the browser's order
    braked = parlour.code_brake.retry_after(client)
    held = await held_seats(parlour, client, tokens)
    unknown = [token for token in tokens if token not in held]
    if unknown and braked:
        raise ApiError(429, "too_many_attempts", "Too many unknown codes or seat addresses from your address; "
                       f"try again in {braked} s.", retry_after=braked)
    for _ in unknown:
        parlour.code_brake.missed(client)
    last = await last_moves(parlour, list({live.id for live, _ in held.values()}))
    out: list[JSON] = []
    for token in tokens:
        if token not in held:
            out.append({"seat_token": token, "missing": True})
            continue
        live, player = held[token]
        names = live.seat_names()  # "Lannister (Cyril)" where the game names its seats
        out.append({
            "seat_token": token, "seat_url": f"/seat/{token}", "code": live.code, "game": live.game,
            "title": live.engine.title, "status": live.status, "name": player.name, "seat": player.seat,
            "players": [p.name for p in sorted(live.players, key=lambda p: (p.seat is None, p.seat, p.joined))],
            "awaiting": [names.get(s, f"Seat {s + 1}") for s in live.awaiting],
            "your_turn": player.seat is not None and player.seat in live.awaiting,
            "last_move_at": iso(last.get(live.id)), "seq": live.seq,
        })
    return {"tables": out}


async def held_seats(parlour: Parlour, client: str, tokens: list[str]) -> dict[str, tuple[LiveTable, PlayerInfo]]:
    """The table and player of each of these seat tokens that has a seat, found with one query
    whatever their number (a guesser's hundred tokens cost what one costs)."""
    hashes = {token: hash_token(token) for token in tokens if 8 <= len(token) <= 128}
    if not hashes:
        return {}
    async with parlour.sessions() as s:
        rows = await s.execute(select(Player.token_hash, Player.table_id)
                               .where(Player.token_hash.in_(hashes.values())))
        table_of: dict[str, int] = {token_hash: table_id for token_hash, table_id in rows}
    out: dict[str, tuple[LiveTable, PlayerInfo]] = {}
    for token, token_hash in hashes.items():
        if token_hash not in table_of:
            continue
        live = await parlour.live.get(table_of[token_hash])
        player = live.player_by_hash(token_hash) if live is not None else None
        found = (live, player) if live is not None and player is not None \
            else await parlour.live.by_token_hash(token_hash)  # a cache older than the seat: reloaded
        if found is not None:
            parlour.code_brake.reached(client, found[0].code)  # a seat's table stays open to its holder
            out[token] = found
    return out


async def last_moves(parlour: Parlour, table_ids: list[int]) -> dict[int, datetime]:
    if not table_ids:
        return {}
    async with parlour.sessions() as s:
        rows = (await s.execute(select(MoveRecord.table_id, func.max(MoveRecord.created_at))
                                .where(MoveRecord.table_id.in_(table_ids)).group_by(MoveRecord.table_id))).all()
    return {r[0]: r[1] for r in rows}


def iso(t: datetime | None) -> str | None:
    return t.isoformat() + "Z" if t is not None else None


# -- play again --------------------------------------------------------------------------------

def again_token(old_token: str) -> str:
    """The seat token at the rematch, derived from the old seat's (only its holder can make it),
    so asking twice lands on the same seat."""
    digest = hmac.new(old_token.encode(), b"parlour: play again", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@router.post("/seats/{token}/again", status_code=201)
async def play_again(token: str, seat: SeatDep, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: a new table of the same game, options and clocks, founded by this player;
    every other player of the old table is invited on their seat page, live (and in its chat).
    If someone offered one already, this seat joins that table instead."""
    live, player = seat
    if live.status != "finished":
        raise ApiError(409, "not_finished", "A new table can be offered once this game has ended.")
    async with parlour.sessions() as s:
        offered = await s.get(Rematch, live.id)
        clock = await s.get(TableClock, live.id)
    if offered is None:

        async def claim(s: AsyncSession, new_table_id: int) -> None:
            # The old table's one next table is stored with the new table, in its founding
            # transaction: of presses at once, the first to commit founds it, and the others'
            # tables are rolled back whole (their seats too) before they join that one.
            s.add(Rematch(table_id=live.id, new_table_id=new_table_id, player_id=player.id))
            try:
                await s.flush()
            except IntegrityError:
                raise OfferedAlready from None

        try:
            ticket = await parlour.rooms.found(live.game, player.name, dict(live.options),
                                               clock=clock.settings if clock is not None else None,
                                               token=again_token(token), claim=claim, hints=live.hints)
        except OfferedAlready:
            return await join_again(token, seat, request, parlour)
        invite = f"{parlour.public_base(request)}/join/{ticket.code}"
        message = await post_chat(parlour.live, parlour.notifier, live, player, f"Play again? New table: {invite}")
        parlour.hub.push_chat(live.id, [message])
        return {"code": ticket.code, "invite_url": invite, "seat_url": f"/seat/{ticket.token}",
                "seat_token": ticket.token}
    return await join_again(token, seat, request, parlour)


class OfferedAlready(Exception):
    """Another press founded this finished table's next table first."""


@router.get("/seats/{token}/again")
async def rematch_offer(seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The new table offered at the end of this one, if any: its code and who offered it."""
    offer = await offered_table(parlour, seat[0])
    if offer is None:
        return {"offered": False}
    return {"offered": True, "code": offer[0].code, "by": offer[1], "status": offer[0].status}


@router.post("/seats/{token}/again/join", status_code=201)
async def join_again(token: str, seat: SeatDep, request: Request, parlour: ParlourDep) -> JSON:
    """Take a seat at the new table offered at the end of this one, under the same name, in one
    step. Asked again, it answers the same seat."""
    new, mine = await take_rematch_seat(parlour, token, *seat)
    base = parlour.public_base(request)
    return {"code": new.code, "invite_url": f"{base}/join/{new.code}", "seat_url": f"/seat/{mine}",
            "seat_token": mine}


async def offered_table(parlour: Parlour, live: LiveTable) -> tuple[LiveTable, str] | None:
    """The new table offered at the end of ``live`` and who offered it (None: no offer)."""
    async with parlour.sessions() as s:
        offered = await s.get(Rematch, live.id)
    new = await parlour.live.get(offered.new_table_id) if offered is not None else None
    if offered is None or new is None:
        return None
    return new, next((p.name for p in live.players if p.id == offered.player_id), "?")


async def rematch_seat(parlour: Parlour, token: str) -> tuple[LiveTable, str] | None:
    """This seat's place at the rematch, if it has taken it: the table and the seat token."""
    mine = again_token(token)
    here = await parlour.live.by_token_hash(hash_token(mine))
    return (here[0], mine) if here is not None else None


async def take_rematch_seat(parlour: Parlour, token: str, live: LiveTable, player: PlayerInfo) -> tuple[LiveTable, str]:
    taken = await rematch_seat(parlour, token)
    if taken is not None:
        return taken
    offer = await offered_table(parlour, live)
    if offer is None:
        raise not_found("rematch")
    mine = again_token(token)
    await parlour.rooms.join(offer[0].id, player.name, token=mine)
    return offer[0], mine
