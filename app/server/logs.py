"""Logs for machines: one JSON object per line (``LOG_FORMAT=json``), each with the request it
was written in (method, path, and for uvicorn's access lines the status) and the table's code
once the request has found one.

A seat token never reaches a line: every path and message is passed through the same
redaction as the text logs (app/server/guard.py), after the message is formatted, so a token in an
argument, a traceback or a field is caught alike.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import orjson
from starlette.types import Scope

from app.server.guard import TOKEN_IN_PATH

FORMATS = ("text", "json")


class RequestFacts:
    """What a request has told its log lines so far: changed in place, so the table code noted
    deep in a route is seen by the lines written after it, the access line too. Kept as long as a
    socket is open, so it is small: the path is the scope's own string, redacted when written."""

    __slots__ = ("method", "path", "table")

    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path
        self.table: str | None = None

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method, "path": redact(self.path)}
        if self.table is not None:
            out["table"] = self.table
        return out


_request: ContextVar[RequestFacts | None] = ContextVar("parlour_request", default=None)


def redact(text: str) -> str:
    return TOKEN_IN_PATH.sub(r"\1…", text)


@contextmanager
def request_scope(scope: Scope) -> Iterator[None]:
    """The lines written while an HTTP request or a websocket is served carry it."""
    if scope["type"] not in ("http", "websocket"):
        yield
        return
    method = scope.get("method", "GET") if scope["type"] == "http" else "WEBSOCKET"
    token = _request.set(RequestFacts(method, scope.get("path", "")))
    try:
        yield
    finally:
        _request.reset(token)


def current_request() -> RequestFacts | None:
    return _request.get()


@contextmanager
def request_facts(facts: RequestFacts | None) -> Iterator[None]:
    """The lines written meanwhile carry ``facts`` (a socket's messages, served after the
    coroutine that opened it has ended)."""
    token = _request.set(facts)
    try:
        yield
    finally:
        _request.reset(token)


def note_table(code: str) -> None:
    """The request reached this table: its later lines say so."""
    current = _request.get()
    if current is not None:
        current.table = code


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, the request's
    fields when there is one, and the traceback as ``exception``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        current = _request.get()
        if current is not None:
            out.update(current.fields())
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            # uvicorn's access line: client, method, path with query, HTTP version, status
            client, method, path, _version, status = record.args
            out.update(client=client, method=method, path=redact(str(path)), status=status)
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exception"] = redact(record.exc_text)
        return orjson.dumps(out, default=str).decode()


def log_config(log_format: str, level: str = "info") -> dict[str, Any] | None:
    """The logging set-up for ``parlour serve`` (uvicorn's ``log_config``): None keeps uvicorn's
    own text logs; "json" sends every logger's lines, uvicorn's and the server's, to standard
    error as JSON."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT is {log_format!r}: it is one of {', '.join(FORMATS)}")
    if log_format == "text":
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        # uvicorn's loggers hand their lines to the root's handler, like the server's own.
        "loggers": {"uvicorn": {"handlers": [], "propagate": True},
                    "uvicorn.access": {"handlers": [], "propagate": True}},
        "root": {"handlers": ["json"], "level": level.upper()},
    }
