"""Protections around every request: security headers, body size, code-guessing brakes,
and keeping seat tokens out of the logs."""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SECURITY_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
                            b"interest-cohort=()"),
]
# No inline script, no foreign origin for anything; the page's JSON boot data is a data block
# (never executed). The API's own documentation page loads its viewer from elsewhere: it is
# left without this policy.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
NO_CSP = ("/api/docs",)
# Seat pages and the seat API carry a player's hand: never kept by a browser or a proxy cache.
NO_STORE = ("/seat/", "/api/seats/")
HOST = re.compile(r"[A-Za-z0-9.\-]+(?::[0-9]+)?|\[[0-9A-Fa-f:.]+\](?::[0-9]+)?")
TOKEN_IN_PATH = re.compile(r"(/(?:api/|ws/)?seats?/)[A-Za-z0-9_\-]{8,}")


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def origin_allowed(scope: Scope, public_url: str | None) -> bool:
    """Browsers send Origin with every websocket and every cross-site form post: it must be
    this site. Scripts that send none are fine (they hold no one's cookies or session)."""
    origin = header(scope, b"origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    allowed = {(header(scope, b"host") or "").lower()}
    if public_url:
        allowed.add(urlsplit(public_url).netloc.lower())
    return netloc in allowed


def response_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries, for this request."""
    path: str = scope.get("path", "")
    out = list(SECURITY_HEADERS)
    if not path.startswith(NO_CSP):
        host = header(scope, b"host") or ""
        sockets = f" ws://{host} wss://{host}" if HOST.fullmatch(host) else ""
        out.append((b"content-security-policy", CSP.format(sockets=sockets).encode()))
    if path.startswith(NO_STORE):
        out.append((b"cache-control", b"no-store"))
    return out


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
                extra = response_headers(scope)
                names = {name for name, _ in extra}
                message["headers"] = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names] + extra
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


class CodeBrake:
    """Brakes the guessing of table codes, per client address.

    Only wrong codes count: past ``per_minute`` of them in a minute, the address is braked.
    A braked address still reaches every table it has reached before (and every table where it
    holds a seat), so a household or an office behind one address plays on while one of them
    mistypes. What it may not do is learn whether a code it never reached is valid: that would
    let a guesser go on guessing at full speed, so such look-ups are answered 429 until the
    brake lifts.
    """

    def __init__(self, per_minute: int, capacity: int = 10000, remembered: int = 64) -> None:
        self.per_minute = per_minute
        self.capacity = capacity
        self.remembered = remembered
        self._misses: OrderedDict[str, list[float]] = OrderedDict()
        self._known: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()

    def _recent(self, client: str, now: float) -> list[float]:
        misses = [t for t in self._misses.get(client, []) if now - t < 60.0]
        if not misses:
            self._misses.pop(client, None)
            return misses
        self._misses[client] = misses
        self._misses.move_to_end(client)
        return misses

    def retry_after(self, client: str, now: float | None = None) -> int:
        """Seconds until this client may look up codes it never reached (0: not braked)."""
        now = time.monotonic() if now is None else now
        misses = self._recent(client, now)
        if len(misses) < self.per_minute:
            return 0
        return max(1, int(60.0 - (now - misses[0])) + 1)

    def missed(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self._misses[client] = [*self._recent(client, now), now]
        self._misses.move_to_end(client)
        while len(self._misses) > self.capacity:
            self._misses.popitem(last=False)

    def reached(self, client: str, code: str) -> None:
        """This client reached the table ``code`` (a valid look-up, or a seat of it)."""
        codes = self._known.get(client)
        if codes is None:
            codes = self._known[client] = OrderedDict()
            while len(self._known) > self.capacity:
                self._known.popitem(last=False)
        codes[code] = None
        codes.move_to_end(code)
        self._known.move_to_end(client)
        while len(codes) > self.remembered:
            codes.popitem(last=False)

    def knows(self, client: str, code: str) -> bool:
        return code in self._known.get(client, ())


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
