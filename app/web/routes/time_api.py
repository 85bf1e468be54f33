"""Time at the table: clocks, "your turn" by Web Push, my tables, and play again."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select

from app.features.rematch import Seat
from app.parlour import JSON, Parlour, ParlourDep, client_id
from app.play.live import LiveTable, PlayerInfo
from app.server.errors import ApiError
from app.storage.models import MoveRecord, Player, TableClock
from app.storage.tokens import hash_token
from app.web.routes.api import SeatDep, lookup_table

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
        live = await parlour.tables.get(table_of[token_hash])
        player = live.player_by_hash(token_hash) if live is not None else None
        found = (live, player) if live is not None and player is not None \
            else await parlour.tables.by_token_hash(token_hash)  # a cache older than the seat: reloaded
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


# -- play again (app/features/rematch.py) --------------------------------------------------------------

def seat_answer(parlour: Parlour, request: Request, seat: Seat) -> JSON:
    base = parlour.public_base(request)
    return {"code": seat.table.code, "invite_url": f"{base}/join/{seat.table.code}", "seat_url": f"/seat/{seat.token}",
            "seat_token": seat.token}


@router.post("/seats/{token}/again", status_code=201)
async def play_again(token: str, seat: SeatDep, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: a new table of the same game, options and clocks, founded by this player;
    every other player of the old table is invited on their seat page, live (and in its chat).
    If someone offered one already, this seat joins that table instead."""
    return seat_answer(parlour, request, await parlour.rematches.again(token, *seat, parlour.public_base(request)))


@router.get("/seats/{token}/again")
async def rematch_offer(seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The new table offered at the end of this one, if any: its code and who offered it."""
    offer = await parlour.rematches.offered(seat[0])
    if offer is None:
        return {"offered": False}
    return {"offered": True, "code": offer[0].code, "by": offer[1], "status": offer[0].status}


@router.post("/seats/{token}/again/join", status_code=201)
async def join_again(token: str, seat: SeatDep, request: Request, parlour: ParlourDep) -> JSON:
    """Take a seat at the new table offered at the end of this one, under the same name, in one
    step. Asked again, it answers the same seat."""
    return seat_answer(parlour, request, await parlour.rematches.take_seat(token, *seat))
