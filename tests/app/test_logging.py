"""LOG_FORMAT=json: every line a real server writes is one JSON object, with the request (and the
table, once the request found one) it was written in; a seat token is never in a line."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from typing import Any

import httpx
import orjson
import pytest
import websockets

from app.server.logs import JsonFormatter, log_config, note_table, request_scope
from tests.support.play import play_one, started_table
from tests.support.server import ROOT

UNKNOWN_TOKEN = "NoSuchSeatXq3V7bLk2Jm9Wc4Rt8Yp1Zs6Hd0"


def lines(text: str) -> list[dict[str, Any]]:
    out = []
    for line in text.splitlines():
        record = json.loads(line)  # every line is one object: a line of anything else fails here
        assert isinstance(record, dict) and {"time", "level", "logger", "message"} <= set(record), line
        out.append(record)
    return out


def test_a_json_server_log_names_requests_and_tables_and_never_a_seat_token(sqlite_url: str,
                                                                            server_factory: Any) -> None:
    server = server_factory(sqlite_url, extra_env={"LOG_FORMAT": "json"})
    with httpx.Client(base_url=server.base) as c:
        t = started_table(c, ("Ada", "Bob"))
        play_one(c, t)
        ada, bob = t["tokens"]
        assert c.get(f"/seat/{ada}").status_code == 200
        assert c.get(f"/api/seats/{bob}/moves").status_code == 200
        assert c.get(f"/api/seats/{UNKNOWN_TOKEN}").status_code == 404
        assert c.get(f"/seat/{UNKNOWN_TOKEN}").status_code == 404

    async def sockets() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/seats/{bob}") as ws:
            await ws.recv()
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/seats/{UNKNOWN_TOKEN}") as ws:
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()

    asyncio.run(sockets())
    server.stop()
    text = server.log_text()
    for token in (ada, bob, UNKNOWN_TOKEN):
        assert token not in text
    records = lines(text)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    moves = [r for r in access if r["path"] == "/api/seats/…/moves" and r["method"] == "POST"]
    assert moves and moves[0]["status"] == 200 and moves[0]["table"] == t["code"]
    seat_page = next(r for r in access if r["path"] == "/seat/…" and r["status"] == 200)
    assert seat_page["table"] == t["code"]
    unknown = next(r for r in access if r["path"] == "/api/seats/…" and r["status"] == 404)
    assert "table" not in unknown
    socket_lines = [r for r in records if r.get("method") == "WEBSOCKET"]
    assert any("[accepted]" in r["message"] and r.get("table") == t["code"] for r in socket_lines)
    assert any(r["level"] == "info" and r["logger"] == "uvicorn.error" and "Started server" in r["message"]
               for r in records)


def record(message: str, *args: Any, exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise RuntimeError("failed at /api/seats/Tok3nTok3nTok3nTok3n/moves")
        except RuntimeError:
            info = sys.exc_info()
    return logging.LogRecord("parlour.ws", logging.ERROR, __file__, 1, message, args, info)


def test_a_line_carries_its_request_and_table_and_hides_tokens_in_arguments_and_tracebacks() -> None:
    scope = {"type": "http", "method": "POST", "path": "/api/seats/Tok3nTok3nTok3nTok3n/moves"}
    with request_scope(scope):
        note_table("ABC234")
        line = JsonFormatter().format(record("socket %s failed", "/ws/seats/Tok3nTok3nTok3nTok3n", exc=True))
    assert "Tok3n" not in line
    out = orjson.loads(line)
    assert out["method"] == "POST" and out["path"] == "/api/seats/…/moves" and out["table"] == "ABC234"
    assert out["message"] == "socket /ws/seats/… failed" and out["level"] == "error"
    assert "RuntimeError: failed at /api/seats/…/moves" in out["exception"]
    assert out["time"].endswith("Z")


def test_a_line_outside_any_request_has_no_request_fields() -> None:
    note_table("ABC234")  # no request: nothing to note it in
    out = orjson.loads(JsonFormatter().format(record("clock: time-out played")))
    assert not {"method", "path", "table"} & set(out)


def test_text_logs_stay_uvicorns_own_and_an_unknown_format_is_refused() -> None:
    assert log_config("text") is None
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        log_config("yaml")
    env = {**os.environ, "LOG_FORMAT": "yaml", "DATABASE_URL": "sqlite+aiosqlite:///./unused.db"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "LOG_FORMAT" in done.stderr
