"""What the host's machinery asks: is the process alive (/healthz), ready for players
(/readyz), and its figures for Prometheus (/metrics)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.parlour import ParlourDep
from app.storage.readiness import readiness
from app.storage.revisions import revisions
from app.web.host_access import require_host
from app.web.prometheus import FiguresDep

router = APIRouter(tags=["operations"])


@router.get("/healthz", response_class=Response)
async def healthz() -> Response:
    """Alive: the process answers (nothing else is asked, so a slow database never gets a live
    process restarted)."""
    return Response('{"status":"ok"}', media_type="application/json")


@router.get("/readyz")
async def readyz(parlour: ParlourDep) -> JSONResponse:
    """Ready for players: 200 when the database answers at this code's schema (or a newer
    one), 503 otherwise, with the reason."""
    found = await readiness(parlour.db, revisions())
    return JSONResponse(found.detail, status_code=200 if found.ready else 503,
                        headers={"Cache-Control": "no-store"})


@router.get("/metrics", response_class=Response)
async def metrics(parlour: ParlourDep, figures: FiguresDep, request: Request) -> Response:
    """This process's figures in the Prometheus text format; like /api/stats, for the host only
    (the server's own machine through no proxy, or ``Authorization: Bearer <STATS_TOKEN>``)."""
    require_host(request, parlour.settings.stats_token)
    body, content_type = figures.scrape(request.headers.get("accept"))
    return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})
