"""The replay pages and their API (the replays themselves: app/features/replays.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.features.replays import contents, step
from app.parlour import JSON, Parlour, ParlourDep, client_id
from app.play.live import LiveTable
from app.server.errors import ApiError, not_found
from app.web.routes.pages import find_for_page, page

router = APIRouter(tags=["replays"])


async def seat_of(parlour: Parlour, request: Request, token: str) -> tuple[LiveTable, int]:
    found = await parlour.seat(token, client_id(request))
    if found is None:
        raise not_found("seat")
    live, player = found
    if player.seat is None:
        raise ApiError(403, "no_seat", "You had no seat at this table; watch the public replay.")
    return live, player.seat


@router.get("/api/tables/{code}/replay", tags=["api"])
async def replay_contents(code: str, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: every step of the game (who moved, the public log lines, take-backs
    marked) and where each round begins. 403 ``not_finished`` while the game runs."""
    live = await parlour.find_table(client_id(request), code)
    return contents(live, await parlour.replays.book(live), None)


@router.get("/api/tables/{code}/replay/{seq}", tags=["api"])
async def replay_step(code: str, seq: int, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: the public view after entry ``seq`` (0: the deal)."""
    live = await parlour.find_table(client_id(request), code)
    return step(live, await parlour.replays.book(live), seq, None)


@router.get("/api/seats/{token}/replay", tags=["api"])
async def seat_replay_contents(token: str, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: the steps as this seat read them (its own private log lines)."""
    live, seat = await seat_of(parlour, request, token)
    return contents(live, await parlour.replays.book(live), seat)


@router.get("/api/seats/{token}/replay/{seq}", tags=["api"])
async def seat_replay_step(token: str, seq: int, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: this seat's own view after entry ``seq`` (its hand included)."""
    live, seat = await seat_of(parlour, request, token)
    return step(live, await parlour.replays.book(live), seq, seat)


def replay_page(request: Request, live: LiveTable, api: str, seat: int | None) -> Response:
    return page(request, "replay.html", live=live, engine=live.engine, api_path=api, seat=seat,
                watch_url=f"/replay/{live.code}")


@router.get("/replay/{code}", response_class=HTMLResponse, tags=["pages"])
async def public_replay_page(code: str, request: Request, parlour: ParlourDep) -> Response:
    live, error, status = await find_for_page(request, parlour, code)
    if live is None:
        return page(request, "missing.html", status_code=status, message=error)
    if live.status != "finished":
        return page(request, "missing.html", status_code=403,
                    message="This game is still being played; its replay opens when it ends.")
    return replay_page(request, live, f"/api/tables/{live.code}/replay", None)


@router.get("/seat/{token}/replay", response_class=HTMLResponse, tags=["pages"])
async def seat_replay_page(token: str, request: Request, parlour: ParlourDep) -> Response:
    found = await parlour.seat(token, client_id(request))
    if found is None or found[1].seat is None:
        return page(request, "missing.html", status_code=404,
                    message="No seat has this address. Check the link you were given.")
    live, player = found
    if live.status != "finished":
        return page(request, "missing.html", status_code=403,
                    message="This game is still being played; its replay opens when it ends.")
    return replay_page(request, live, f"/api/seats/{token}/replay", player.seat)
