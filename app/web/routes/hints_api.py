"""Hints at casual tables (app/features/hints.py): a seat asks the good bot about its current decision."""

from __future__ import annotations

from fastapi import APIRouter

from app.parlour import JSON, ParlourDep
from app.web.routes.api import SeatDep

router = APIRouter(prefix="/api", tags=["hints"])


@router.post("/seats/{token}/hint")
async def ask_for_a_hint(seat: SeatDep, parlour: ParlourDep) -> JSON:
    """The good bot's best moves for this seat's decision, with the figures its search computed:
    ``moves`` best first, each with its ``label`` (the prompt's), the ``playouts`` that began with
    it and their average ``result`` for the seat (1 a win, 0 a loss; see engines/bots/core.py);
    ``how`` says whether it searched ("search") or why not ("forced", "only_sensible", "rule").
    The table's log says the seat asked; asked again at the same decision, the same hint."""
    live, player = seat
    return await parlour.hints.ask(live, player)
