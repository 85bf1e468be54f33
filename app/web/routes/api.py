"""The public JSON API: the pages use it, and so can bots and scripts."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.features.diplomacy import enabled as diplomacy_enabled
from app.parlour import JSON, Parlour, ParlourDep, client_id
from app.play.live import LiveTable, PlayerInfo
from app.play.takeback import can_take_back
from app.play.wire import public_summary
from app.server.errors import not_found
from app.web.host_access import require_host
from engines.base import Engine, static_view

router = APIRouter(prefix="/api", tags=["api"])


class FoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    name: Any = None
    options: dict[str, Any] | None = None
    clock: dict[str, Any] | None = Field(default=None, description=(
        'Optional clocks: {"kind": "fischer", "seconds": 600, "increment": 5, "on_timeout": "pass"} (a chess '
        'clock per player) or {"kind": "deadline", "seconds": 86400, "on_timeout": "bot_easy"} (a time per '
        'decision); on_timeout is "pass", "bot_easy" or "bot_good". See app/tables/clock_rules.py.'))
    # After how many seconds away a seat may be handed to a bot by the others (None: never).
    bot_after_seconds: int | None = Field(default=None, strict=True)
    # May a seat ask the good bot for a hint at its decisions (public: the log says who asked)?
    hints: bool = Field(default=False, strict=True)


class AddBotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Literal["easy", "good"]


class HandoverIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(strict=True, ge=0, le=63)
    level: Literal["easy", "good"] = "good"


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Any = None


class RemoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(strict=True)
    move: dict[str, Any]


async def lookup_table(parlour: Parlour, request: Request, raw_code: str) -> LiveTable:
    """Find a table by code; wrong codes from one client are braked."""
    return await parlour.find_table(client_id(request), raw_code)


async def current_seat(token: str, request: Request, parlour: ParlourDep) -> tuple[LiveTable, PlayerInfo]:
    found = await parlour.seat(token, client_id(request))
    if found is None:
        raise not_found("seat")
    return found


SeatDep = Annotated[tuple[LiveTable, PlayerInfo], Depends(current_seat)]


def seat_urls(parlour: Parlour, request: Request, token: str) -> JSON:
    base = parlour.public_base(request)
    return {"seat_url": f"{base}/seat/{token}", "seat_token": token}


def describe_game(engine: Engine) -> JSON:
    return {"id": engine.id, "title": engine.title, "tagline": engine.tagline,
            "min_seats": engine.min_seats, "max_seats": engine.max_seats,
            "options": [o.as_json() for o in engine.options], "private_chats": diplomacy_enabled(engine)}


@router.get("/games")
async def list_games(parlour: ParlourDep) -> JSON:
    return {"games": [describe_game(e) for e in parlour.engines.values()]}


@router.post("/tables", status_code=201)
async def found_table(body: FoundIn, request: Request, parlour: ParlourDep) -> JSON:
    ticket = await parlour.rooms.found(body.game, body.name, body.options, clock=body.clock,
                                      bot_after=body.bot_after_seconds, hints=body.hints)
    parlour.code_brake.reached(client_id(request), ticket.code)
    base = parlour.public_base(request)
    return {"code": ticket.code, "invite_url": f"{base}/join/{ticket.code}",
            **seat_urls(parlour, request, ticket.token)}


@router.get("/tables/{code}")
async def get_table(code: str, request: Request, parlour: ParlourDep) -> JSON:
    live = await lookup_table(parlour, request, code)
    parlour.bots.refresh(live)
    summary = public_summary(live, parlour.hub.connected(live.id))
    summary["invite_url"] = f"{parlour.public_base(request)}/join/{live.code}"
    return summary


@router.post("/tables/{code}/join", status_code=201)
async def join_table(code: str, body: JoinIn, request: Request, parlour: ParlourDep) -> JSON:
    live = await lookup_table(parlour, request, code)
    ticket = await parlour.rooms.join(live.id, body.name)
    return {"code": ticket.code, **seat_urls(parlour, request, ticket.token)}


@router.post("/seats/{token}/leave")
async def leave_table(seat: SeatDep, parlour: ParlourDep) -> JSON:
    """Leave a table before it starts (the founder stays)."""
    await parlour.rooms.leave(seat[1].token_hash)
    return {"left": True}


@router.post("/seats/{token}/remove")
async def remove_player(body: RemoveIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The founder removes a player, by name, before the start."""
    await parlour.rooms.leave(seat[1].token_hash, body.name)
    return {"removed": body.name}


@router.post("/seats/{token}/bots", status_code=201)
async def add_bot(body: AddBotIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The founder seats a bot before the start (it counts toward the minimum); remove it like
    a player, by its name (``/remove``)."""
    name = await parlour.bots.add(seat[1].token_hash, body.level, parlour.rooms.changed)
    return {"name": name, "bot": body.level}


@router.post("/seats/{token}/handover")
async def hand_over(body: HandoverIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """A present player's vote to hand a seat whose player has been away long enough to a bot;
    a majority of the players present hands it over."""
    return await parlour.bots.vote(seat[1].token_hash, body.seat, body.level)


@router.post("/seats/{token}/start")
async def start_table(seat: SeatDep, parlour: ParlourDep) -> JSON:
    live = await parlour.rooms.start(seat[1].token_hash)
    return {"status": live.status, "seq": live.seq,
            "seats": [{"seat": p.seat, "name": p.name} for p in live.players]}


def seated(live: LiveTable | None, token_hash: str) -> tuple[LiveTable, PlayerInfo]:
    """The held table and the token's player in it, read under the table's lock (the seat may
    have left since the token was looked up): 404 when either is gone."""
    player = live.player_by_hash(token_hash) if live is not None else None
    if live is None or player is None:
        raise not_found("seat")
    return live, player


@router.get("/seats/{token}")
async def get_seat(seat: SeatDep, parlour: ParlourDep) -> JSON:
    async with parlour.tables.hold(seat[0].id) as live:
        live, player = seated(live, seat[1].token_hash)
        out: JSON = {"code": live.code, "game": live.game, "status": live.status, "name": player.name,
                     "founder": player.is_founder, "seat": player.seat, "seq": live.seq,
                     "table": public_summary(live, parlour.hub.connected(live.id))}
        if live.state is not None:
            out["view"] = live.engine.view(live.state, player.seat)
            out["awaiting"] = list(live.awaiting)
            out["undo"] = live.status == "playing" and can_take_back(live.chain, player.seat)
        return out


@router.get("/seats/{token}/moves")
async def get_moves(seat: SeatDep, parlour: ParlourDep) -> JSON:
    async with parlour.tables.hold(seat[0].id) as live:
        live, player = seated(live, seat[1].token_hash)
        if player.seat is None or player.seat not in live.awaiting:
            return {"seq": live.seq, "moves": []}
        return {"seq": live.seq, "moves": live.engine.legal_moves(live.state, player.seat)}


@router.post("/seats/{token}/moves")
async def post_move(body: MoveIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    live, player = seat
    new_seq = await parlour.mover.play(live, player, body.seq, body.move)
    return {"seq": new_seq}


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(strict=True)


@router.post("/seats/{token}/undo")
async def take_back(body: UndoIn, seat: SeatDep, parlour: ParlourDep) -> JSON:
    """Take back your last move of this turn (while it revealed nothing and nobody else has
    moved since): 200 ``{seq}``; 409 ``cannot_undo`` when nothing may be taken back, 409 ``stale``
    when the table moved on (a move and a take-back at once: one of them wins)."""
    live, player = seat
    return {"seq": await parlour.mover.take_back(live, player, body.seq)}


@router.get("/tables/{code}/static")
async def table_static(code: str, request: Request, parlour: ParlourDep) -> Any:
    """The game's fixed, public data (a card catalogue, a board's layout): the same for the
    whole game, so browsers fetch it once and cache it, and the live updates never carry it."""
    live = await lookup_table(parlour, request, code)
    if live.state is None:
        return JSONResponse(status_code=409, content={"error": "not_started",
                                                      "message": "The game has not begun yet."})
    body = orjson.dumps(static_view(live.engine, live.state))
    etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "private, max-age=86400", "ETag": etag})


@router.get("/stats")
async def server_stats(parlour: ParlourDep, request: Request) -> JSON:
    """How this server process is doing: recent move times, commit batching, the table cache,
    pushes. For the host only: asked from the server's own machine (through no proxy), or with
    ``Authorization: Bearer <STATS_TOKEN>`` (then only so); 403 otherwise."""
    require_host(request, parlour.settings.stats_token)
    journal = parlour.journal
    return {"moves": parlour.mover.times.summary(),
            "commits": {"batches": journal.batches, "moves": journal.moves, "on_loop": journal.on_loop,
                        "write": journal.write_times.summary(),
                        "moves_per_commit": round(journal.moves / journal.batches, 2) if journal.batches else None},
            "loop_lag": parlour.loop_lag.lateness.summary(),
            "collector": parlour.collector.summary(),
            "tables_in_memory": len(parlour.tables.cached_ids()),
            "cache": parlour.tables.stats(),
            "connections": sum(len(r) for r in parlour.hub.rooms.values()),
            "clock_timeouts_played": parlour.clocks.played,
            "pushes": parlour.pusher.stats(), "bots": parlour.bots.stats()}


@router.post("/stats/reset", include_in_schema=False)
async def reset_stats(parlour: ParlourDep, request: Request) -> JSON:
    require_host(request, parlour.settings.stats_token)
    parlour.mover.times.reset()
    parlour.journal.write_times.reset()
    parlour.loop_lag.lateness.reset()
    parlour.collector.reset()
    return {"ok": True}


@router.get("/tables/{code}/record")
async def table_record(code: str, request: Request, parlour: ParlourDep) -> Any:
    """After the game: the seed and every move, so anyone can replay and verify the shuffles."""
    live = await lookup_table(parlour, request, code)
    if live.status != "finished":
        return JSONResponse(status_code=409, content={
            "error": "not_finished", "message": "The record is published when the game ends.",
            "seed_hash": live.seed_hash})
    from app.features.record import table_record as build

    return await build(parlour, live)
