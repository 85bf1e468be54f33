"""Server-rendered pages: front page, invitation, waiting room and table, spectator view."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.parlour import Parlour, ParlourDep, client_id
from app.play.live import LiveTable, PlayerInfo
from app.server.errors import ApiError
from app.server.guard import origin_allowed
from app.server.paths import STATIC, TEMPLATES
from app.tables.bot_pool import plays_bots
from engines.base import Engine

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def seat_range(engine: Engine) -> str:
    """"Two to four players", "Two players"."""
    lo, hi = NUMBER_WORDS.get(engine.min_seats, str(engine.min_seats)), \
        NUMBER_WORDS.get(engine.max_seats, str(engine.max_seats))
    text = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    return text[0].upper() + text[1:]


@cache
def templates() -> Jinja2Templates:
    """The pages' templates, made at the first page asked for: Jinja2 is 1.1 MB of a process
    that may serve only sockets and the API (a load run, a server behind another front end)."""
    from fastapi.templating import Jinja2Templates

    made = Jinja2Templates(directory=str(TEMPLATES))
    made.env.filters["seat_range"] = seat_range
    return made


def page(request: Request, template: str, status_code: int = 200, **context: Any) -> Response:
    parlour: Parlour = request.app.state.parlour
    context.setdefault("games", list(parlour.engines.values()))
    engine = context.get("engine")
    if engine is not None:
        context["game_style"] = (STATIC / "games" / engine.id / "style.css").exists()
    return templates().TemplateResponse(request, template, context, status_code=status_code)


def chosen_engine(parlour: Parlour, game: str | None) -> Engine:
    if game and game in parlour.engines:
        return parlour.engines[game]
    return next(iter(parlour.engines.values()))


@router.get("/")
async def front_page(request: Request, parlour: ParlourDep, game: str | None = None) -> Response:
    return page(request, "front.html", engine=chosen_engine(parlour, game))


def foreign_post(request: Request, parlour: Parlour) -> Response | None:
    """A form posted from another site (a browser always says where from): refused."""
    if origin_allowed(request.scope, parlour.settings.public_url):
        return None
    return page(request, "missing.html", status_code=403,
                message="This form was sent from another site; open Parlour's own page and send it from there.")


@router.post("/found")
async def found_form(request: Request, parlour: ParlourDep) -> Response:
    refused = foreign_post(request, parlour)
    if refused is not None:
        return refused
    form = await request.form()
    game = str(form.get("game", ""))
    engine = parlour.engines.get(game)
    options: dict[str, Any] = {}
    if engine is not None:
        for opt in engine.options:
            raw = form.get(f"option_{opt.id}")
            if raw is not None:
                # form values are strings: match them to the option's own choices
                options[opt.id] = next((c for c in opt.choices if str(c) == raw), raw)
    try:
        ticket = await parlour.rooms.found(game, form.get("name"), options,
                                           clock=clock_choice(form.get("clock"), form.get("on_timeout")),
                                           bot_after=form.get("bot_after"), hints=form.get("hints") == "on")
    except ApiError as err:
        return page(request, "front.html", status_code=err.status, engine=chosen_engine(parlour, game),
                    found_error=err.message, name=form.get("name", ""))
    parlour.code_brake.reached(client_id(request), ticket.code)
    return RedirectResponse(f"/seat/{ticket.token}", status_code=303)


CLOCK_PRESETS = {  # the founding form's choices; the API takes any clock (app/tables/clock_rules.py)
    "fischer-10": {"kind": "fischer", "seconds": 600, "increment": 5},
    "fischer-30": {"kind": "fischer", "seconds": 1800, "increment": 20},
    "day": {"kind": "deadline", "seconds": 86400},
    "three-days": {"kind": "deadline", "seconds": 3 * 86400},
}


def clock_choice(preset: object, on_timeout: object) -> dict[str, Any] | None:
    chosen = CLOCK_PRESETS.get(str(preset or ""))
    if chosen is None:
        return None
    return {**chosen, "on_timeout": str(on_timeout or "pass")}


@router.get("/join")
async def join_by_code(request: Request, parlour: ParlourDep, code: str = "") -> Response:
    live, error, status = await find_for_page(request, parlour, code)
    if live is None:
        return page(request, "front.html", status_code=status, engine=chosen_engine(parlour, None),
                    join_error=error, code=code)
    return RedirectResponse(f"/join/{live.code}", status_code=303)


async def find_for_page(request: Request, parlour: Parlour, raw: str) -> tuple[LiveTable | None, str, int]:
    try:
        return await parlour.find_table(client_id(request), raw), "", 200
    except ApiError as err:
        if err.status == 429:
            return None, f"Too many unknown codes; try again in {err.extra['retry_after']} seconds.", 429
        return None, "No table is assembling under that code. Check it and try again.", err.status


@router.get("/join/{code}")
async def invitation(request: Request, parlour: ParlourDep, code: str) -> Response:
    live, error, status = await find_for_page(request, parlour, code)
    if live is None:
        return page(request, "missing.html", status_code=status, message=error)
    if live.code != code:
        return RedirectResponse(f"/join/{live.code}", status_code=303)
    return _invitation(request, live)


def _invitation(request: Request, live: LiveTable, status_code: int = 200, **extra: Any) -> Response:
    template = "invitation.html" if live.status == "gathering" else "begun.html"
    return page(request, template, status_code=status_code, live=live, engine=live.engine, **extra)


@router.post("/join/{code}")
async def join_form(request: Request, parlour: ParlourDep, code: str, name: str = Form("")) -> Response:
    refused = foreign_post(request, parlour)
    if refused is not None:
        return refused
    live, error, status = await find_for_page(request, parlour, code)
    if live is None:
        return page(request, "missing.html", status_code=status, message=error)
    try:
        ticket = await parlour.rooms.join(live.id, name)
    except ApiError as err:
        current = await parlour.tables.get(live.id) or live
        return _invitation(request, current, status_code=err.status, join_error=err.message, name=name)
    return RedirectResponse(f"/seat/{ticket.token}", status_code=303)


@router.get("/seat/{token}")
async def seat_page(request: Request, parlour: ParlourDep, token: str) -> Response:
    found = await parlour.seat(token, client_id(request))
    if found is None:
        return page(request, "missing.html", status_code=404,
                    message="No seat has this address. Check the link you were given.")
    live, player = found
    if player.bot is not None and not player.is_bot:  # back: the seat is theirs again
        await parlour.bots.reclaim(player.token_hash)
        found = await parlour.seat(token) or found
        live, player = found
    return seat_page_for(request, parlour, live, player, token)


def seat_page_for(request: Request, parlour: Parlour, live: LiveTable, player: PlayerInfo, token: str,
                  status_code: int = 200, **extra: Any) -> Response:
    base = parlour.public_base(request)
    return page(request, "table.html", status_code=status_code, live=live, engine=live.engine, player=player,
                invite_url=f"{base}/join/{live.code}", watch_url=f"{base}/watch/{live.code}",
                socket_path=f"/ws/seats/{token}", api_path=f"/api/seats/{token}", seat_path=f"/seat/{token}",
                bots_play=plays_bots(live.engine), **extra)


@router.post("/seat/{token}/bots")
async def add_bot_form(request: Request, parlour: ParlourDep, token: str, level: str = Form("")) -> Response:
    """The waiting room's "Seat a bot" (the founder's)."""
    return await _bot_form(request, parlour, token,
                           lambda hashed: parlour.bots.add(hashed, level, parlour.rooms.changed))


@router.post("/seat/{token}/bots/remove")
async def remove_bot_form(request: Request, parlour: ParlourDep, token: str, name: str = Form("")) -> Response:
    """The waiting room's "Remove a bot" (the founder's): only a bot is removed this way."""
    async def remove(hashed: str) -> None:
        found = await parlour.tables.by_token_hash(hashed)
        if found is None or not any(p.is_bot and p.name == name for p in found[0].players):
            raise ApiError(404, "unknown_bot", "No bot of that name is at this table.")
        await parlour.rooms.leave(hashed, name)

    return await _bot_form(request, parlour, token, remove)


async def _bot_form(request: Request, parlour: Parlour, token: str,
                    act: Callable[[str], Awaitable[Any]]) -> Response:
    refused = foreign_post(request, parlour)
    if refused is not None:
        return refused
    found = await parlour.seat(token, client_id(request))
    if found is None:
        return page(request, "missing.html", status_code=404,
                    message="No seat has this address. Check the link you were given.")
    try:
        await act(found[1].token_hash)
    except ApiError as err:
        current = await parlour.seat(token) or found
        return seat_page_for(request, parlour, current[0], current[1], token, status_code=err.status,
                             bot_error=err.message)
    return RedirectResponse(f"/seat/{token}", status_code=303)


@router.get("/watch/{code}")
async def watch_page(request: Request, parlour: ParlourDep, code: str) -> Response:
    live, error, status = await find_for_page(request, parlour, code)
    if live is None:
        return page(request, "missing.html", status_code=status, message=error)
    base = parlour.public_base(request)
    return page(request, "table.html", live=live, engine=live.engine, player=None,
                invite_url=f"{base}/join/{live.code}", watch_url=f"{base}/watch/{live.code}",
                socket_path=f"/ws/watch/{live.code}", api_path=None)


@router.get("/favicon.ico", response_class=Response, include_in_schema=False)
async def favicon() -> Response:
    return Response((STATIC / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
