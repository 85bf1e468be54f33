"""The FastAPI application."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.parlour import Parlour
from app.server.config import Settings
from app.server.errors import ApiError
from app.server.guard import GuardMiddleware, install_log_redaction
from app.server.paths import STATIC
from app.server.user_text import TextRefused, refuse_nul_in_request
from app.storage.db import is_busy
from app.web import outage
from app.web.lean_scripts import LeanScripts
from app.web.outage import database_unavailable
from app.web.prometheus import Exporter
from app.web.routes import again_pages, api, diplomacy, game_help, hints_api, ops, pages, replays, sockets, time_api

log = logging.getLogger("parlour")


def create_app(settings: Settings | None = None) -> sockets.SocketEndpoint:
    """The site: FastAPI for pages and the API, with the websockets in front of it."""
    return sockets.SocketEndpoint(create_fastapi(settings))


def create_fastapi(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    parlour = Parlour(settings)
    install_log_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await parlour.start()
        yield
        await parlour.stop()

    app = FastAPI(title="Parlour", lifespan=lifespan, dependencies=[Depends(refuse_nul_in_request)],
                  docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)
    app.state.parlour = parlour
    app.state.figures = Exporter(parlour)  # GET /metrics: the parts' figures, fed from now on
    app.include_router(api.router)
    app.include_router(diplomacy.router)
    app.include_router(time_api.router)
    app.include_router(pages.router)
    app.include_router(game_help.router)
    app.include_router(again_pages.router)
    app.include_router(replays.router)
    app.include_router(ops.router)
    app.include_router(hints_api.router)
    app.mount("/static", LeanScripts(directory=str(STATIC)), name="static")  # scripts without comment lines
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # pages, scripts, JSON: a phone on 3G
    app.add_middleware(GuardMiddleware, max_body=settings.max_frame_bytes)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
        if exc.status == 503 and headers is None:  # every 503 says when to come back
            headers = {"Retry-After": str(outage.RETRY_AFTER_SECONDS)}
        return JSONResponse(exc.as_json(), status_code=exc.status, headers=headers)

    @app.exception_handler(TextRefused)
    async def text_refused(request: Request, exc: TextRefused) -> Response:
        if request.url.path.startswith("/api/"):
            return await api_error(request, exc)
        return pages.page(request, "missing.html", status_code=exc.status, message=exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        if first.get("type") == "json_invalid":
            message = "The request body is not valid JSON."
        else:
            message = f"{where}: {first.get('msg', 'invalid')}."
        return JSONResponse({"error": "invalid_request", "message": message}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        words = {404: "not_found", 405: "method_not_allowed"}
        return JSONResponse({"error": words.get(exc.status_code, "http_error"), "message": str(exc.detail)},
                            status_code=exc.status_code)

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        if is_busy(exc):
            # Under a burst the write lock can be held past the wait; the request changed
            # nothing (its transaction rolled back), so it is safe to send again.
            log.warning("database busy: %s %s answered 503", request.method, request.url.path)
            return JSONResponse({"error": "busy", "message": "The server is busy; nothing was changed. "
                                 "Try again in a moment."}, status_code=503, headers={"Retry-After": "1"})
        return await unexpected(request, exc)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        if database_unavailable(exc):
            log.warning("database unavailable: %s %s answered 503 (%s)", request.method, request.url.path,
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            return JSONResponse(outage.ANSWER, status_code=503,
                                headers={"Retry-After": str(outage.RETRY_AFTER_SECONDS)})
        log.exception("unexpected error")
        return JSONResponse({"error": "server_error", "message": "Something went wrong on the server; "
                             "nothing was changed."}, status_code=500)

    return app
