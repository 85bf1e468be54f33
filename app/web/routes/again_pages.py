"""The page behind "Join Ada's new table" on an old seat's end screen: the offer, and a button
that takes a seat there under the same name (no script needed)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.parlour import ParlourDep, client_id
from app.server.errors import ApiError
from app.web.routes.pages import foreign_post, page

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)


@router.get("/seat/{token}/again")
async def again_page(request: Request, parlour: ParlourDep, token: str) -> Response:
    found = await parlour.seat(token, client_id(request))
    offer = await parlour.rematches.offered(found[0]) if found is not None else None
    if found is None or offer is None:
        return page(request, "missing.html", status_code=404, message="No new table is offered at this seat.")
    taken = await parlour.rematches.seat_taken(token)
    if taken is not None:  # seated there already
        return RedirectResponse(f"/seat/{taken.token}", status_code=303)
    return page(request, "again.html", live=offer[0], engine=offer[0].engine, by=offer[1], player=found[1],
                token=token)


@router.post("/seat/{token}/again")
async def again_form(request: Request, parlour: ParlourDep, token: str) -> Response:
    refused = foreign_post(request, parlour)
    if refused is not None:
        return refused
    found = await parlour.seat(token, client_id(request))
    if found is None:
        return page(request, "missing.html", status_code=404, message="No seat has this address.")
    try:
        mine = await parlour.rematches.take_seat(token, *found)
    except ApiError as err:
        return page(request, "missing.html", status_code=err.status, message=err.message)
    return RedirectResponse(f"/seat/{mine.token}", status_code=303)
