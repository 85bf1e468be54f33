"""Protections around every request: security headers, body size, code-guessing brakes,
and keeping seat tokens out of the logs."""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]
TOKEN_IN_PATH = re.compile(r"(/(?:api/|ws/)?seats?/)[A-Za-z0-9_\-]{8,}")


class GuardMiddleware:
    """Adds security headers, and refuses request bodies over ``max_body`` bytes with 413."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_body:
                await _too_large(send, self.max_body)
                return

        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge
            return message

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            await _too_large(send, self.max_body)


class BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = (b'{"error":"too_large","message":"A request body is at most %d bytes."}' % limit)
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class FailedLookups:
    """Counts failed code look-ups per client; past the limit in a minute, answers 429."""

    def __init__(self, per_minute: int, capacity: int = 10000) -> None:
        self.per_minute = per_minute
        self.capacity = capacity
        self._hits: OrderedDict[str, list[float]] = OrderedDict()

    def _recent(self, client: str, now: float) -> list[float]:
        hits = [t for t in self._hits.get(client, []) if now - t < 60.0]
        self._hits[client] = hits
        self._hits.move_to_end(client)
        while len(self._hits) > self.capacity:
            self._hits.popitem(last=False)
        return hits

    def retry_after(self, client: str, now: float | None = None) -> int:
        """Seconds this client must wait before looking up another code (0: go ahead)."""
        now = time.monotonic() if now is None else now
        hits = self._recent(client, now)
        if len(hits) < self.per_minute:
            return 0
        return max(1, int(60.0 - (now - hits[0])) + 1)

    def failed(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self._recent(client, now).append(now)


class RedactTokens(logging.Filter):
    """Seat tokens are keys to seats: never write them to a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(_redact(a) for a in record.args) if isinstance(record.args, tuple) \
                else record.args
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_PATH.sub(r"\1…", record.msg)
        return True


def _redact(value: Any) -> Any:
    return TOKEN_IN_PATH.sub(r"\1…", value) if isinstance(value, str) else value


def install_log_redaction() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "parlour"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
