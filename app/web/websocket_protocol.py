"""The server's websocket side: a lean uvicorn protocol built on the websockets library's
sans-I/O core.

A table keeps its four sockets open for hours, so what one idle socket costs decides how many
tables a small machine carries. uvicorn's own protocols keep, per socket, an asyncio.Queue, two
asyncio.Events, the handshake's request and response with their header maps, and a plain
instance dictionary: about 21 KB of Python objects. This one keeps the same ASGI behaviour
with a slotted object, a list and at most one future for the inbox, a future for
back-pressure only while the socket is paused, and no handshake objects once the socket is
open. The websockets library still does all the protocol work (handshake checks, framing,
masking, size limits, the closing handshake). An application may go further and ``detach``:
its coroutine ends, the socket stays open, and a handler runs only while messages wait; the
keepalive of every socket shares one timer (``PingRound``).

Used by ``parlour serve`` through uvicorn's ``ws`` setting; the application stays a plain ASGI
application that any server (or Starlette's test client) can run.
"""

from __future__ import annotations

import asyncio
import logging
import os
import struct
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any, ClassVar, cast
from urllib.parse import unquote

from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected, get_local_addr, get_remote_addr, is_ssl
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

log = logging.getLogger("uvicorn.error")
CLOSE_TIMEOUT = 10.0  # seconds to wait for the peer's answer to our close frame
SHUTDOWN_GRACE = 5.0  # seconds a message in hand at shutdown (a move being stored) has to finish
RESTART_CODE = 1012  # service restart: the page reconnects, to another replica behind a proxy
INBOX_LIMIT = 8  # messages received and not yet taken by the application, before reading pauses
OPCODE_TEXT = 0x81  # FIN + text
OPCODE_BINARY = 0x82  # FIN + binary
SEND_NOW = "parlour.send_now"
"""The scope extension naming a socket with a synchronous ``send_text_now(text or UTF-8 bytes) -> bool``."""


def frame_header(first: int, length: int) -> bytes:
    """RFC 6455 5.2: the header of an unfragmented, unmasked frame."""
    if length < 126:
        return bytes((first, length))
    if length < 65536:
        return struct.pack("!BBH", first, 126, length)
    return struct.pack("!BBQ", first, 127, length)


class LeanWebSocketProtocol(asyncio.Protocol):
    __slots__ = (
        "app",
        "app_state",
        "close_sent",
        "close_timer",
        "config",
        "conn",
        "connections",
        "default_headers",
        "disconnected",
        "fragments",
        "fragments_text",
        "handler",
        "handler_task",
        "handshake_complete",
        "inbox",
        "loop",
        "ping_payload",
        "pinging",
        "read_paused",
        "response",
        "scope",
        "shutting_down",
        "tasks",
        "transport",
        "waiter",
        "write_paused",
        "write_waiter",
    )

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        if not config.loaded:
            config.load()
        self.config = config
        self.app = config.loaded_app
        self.loop = _loop or asyncio.get_event_loop()
        self.app_state = app_state
        self.connections = server_state.connections
        self.tasks = server_state.tasks
        self.default_headers = server_state.default_headers
        self.transport: asyncio.Transport = None  # type: ignore[assignment]
        self.conn = ServerProtocol(max_size=config.ws_max_size, logger=log)
        self.scope: dict[str, Any] | None = None
        self.response: Response | None = None  # the 101 answer, until the application accepts
        self.inbox: list[dict[str, Any]] = []
        self.waiter: asyncio.Future[None] | None = None  # the application awaiting receive()
        self.read_paused = False
        self.write_waiter: asyncio.Future[None] | None = None  # a send() awaiting a drained socket
        self.write_paused = False
        self.handshake_complete = False
        self.shutting_down = False
        self.close_sent = False
        self.disconnected = False
        self.close_timer: asyncio.TimerHandle | None = None
        self.pinging = False  # in its loop's PingRound
        self.ping_payload: bytes | None = None  # the keepalive ping awaiting its pong
        self.fragments: list[bytes] | None = None  # a message arriving in several frames
        self.fragments_text = False
        self.handler: Callable[[], Awaitable[None]] | None = None  # see detach()
        self.handler_task: asyncio.Task[None] | None = None

    # -- the transport's calls ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvicorn's set is typed with its own protocols; shutdown only calls shutdown() on each
        self.connections.add(cast(Any, self))
        self.transport = cast(asyncio.Transport, transport)
        try:
            upgraded_from = transport.get_protocol()
        except NotImplementedError:  # a transport need not say
            return
        if upgraded_from is not self and hasattr(upgraded_from, "parser"):
            # uvicorn's HTTP protocol hands the socket over and is dropped, but its parser
            # refers back to it: a cycle only the collector frees, long after the memory could
            # have served the next socket. uvicorn breaks it in connection_lost, which an
            # upgraded protocol never reaches.
            upgraded_from.parser = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.discard(cast(Any, self))
        self._stop_timers()
        self._deliver({"type": "websocket.disconnect", "code": 1005 if self.handshake_complete else 1006})
        self.handshake_complete = True
        self._wake_writer()  # a transport lost while paused never resumes writing

    def eof_received(self) -> None:
        pass

    def pause_writing(self) -> None:
        self.write_paused = True

    def resume_writing(self) -> None:
        self.write_paused = False
        self._wake_writer()

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        conn.receive_data(data)
        for event in conn.events_received():
            if isinstance(event, Request):
                self._handshake(event)
            elif isinstance(event, Frame):
                self._frame(event)
        if conn.parser_exc is not None:
            self._failed()
        else:
            self._flush()

    # -- uvicorn's shutdown ---------------------------------------------------------------------

    def shutdown(self) -> None:
        """The server is stopping (SIGTERM). Nothing more is read; a message the application
        has in hand (a move being stored) is finished, its answers sent, and then the socket is
        closed with 1012 so the page reconnects, through the proxy, to a replica that stays.
        Messages received and not yet taken are dropped: their sender was never answered, and
        sends them again after reconnecting. An application idle in receive() is closed now."""
        self._stop_timers()
        if self.close_sent:
            self.transport.close()
            return
        if not self.handshake_complete:
            self.conn.send_response(self.conn.reject(HTTPStatus.INTERNAL_SERVER_ERROR, ""))
            self._flush()
            self.close_sent = True
            self.transport.close()
            return
        self.shutting_down = True
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()
        self.inbox = [m for m in self.inbox if m["type"] == "websocket.disconnect"]
        if self.waiter is not None or (self.scope is None and self.handler_task is None):
            self._close_for_restart()  # idle in receive(), or no message in hand
        else:
            self.close_timer = self.loop.call_later(SHUTDOWN_GRACE, self._close_for_restart)

    def _close_for_restart(self) -> None:
        self._stop_timers()
        if self.close_sent:
            return
        self._deliver({"type": "websocket.disconnect", "code": RESTART_CODE})
        if self.conn.state is State.OPEN:
            self.conn.send_close(RESTART_CODE)
            self._flush()
        self.close_sent = True
        self.transport.close()

    # -- what arrives -----------------------------------------------------------------------------

    def _handshake(self, request: Request) -> None:
        response = self.conn.accept(request)
        if response.status_code != 101:  # not a valid websocket request
            self.handshake_complete = self.close_sent = True
            self.conn.send_response(response)
            self._flush()
            self.transport.close()
            return
        self.response = response
        raw_path, _, query = request.path.partition("?")
        root = self.config.root_path
        subprotocols = [p.strip() for h in request.headers.get_all("Sec-WebSocket-Protocol") for p in h.split(",")]
        self.scope = {
            "type": "websocket",
            "asgi": {"version": self.config.asgi_version, "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": "wss" if is_ssl(self.transport) else "ws",
            "server": get_local_addr(self.transport),
            "client": get_remote_addr(self.transport),
            "root_path": root,
            "path": root + unquote(raw_path),
            "raw_path": (root + raw_path).encode("ascii"),
            "query_string": query.encode("ascii"),
            "headers": [(k.lower().encode("ascii"), v.encode("latin-1")) for k, v in request.headers.raw_items()],
            "subprotocols": subprotocols,
            "state": self.app_state.copy(),
            # The application may send through ``send_text_now`` without awaiting (see there).
            "extensions": {SEND_NOW: self},
        }
        # The library's parser keeps the request for the socket's lifetime; its headers now
        # live in the scope, so drop the copies.
        request.headers.clear()
        self._deliver({"type": "websocket.connect"})
        task = self.loop.create_task(self._run_app())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if frame.fin:
                self._message(frame.data, opcode is Opcode.TEXT)
            else:
                self.fragments = [bytes(frame.data)]
                self.fragments_text = opcode is Opcode.TEXT
        elif opcode is Opcode.CONT:
            if self.fragments is not None:
                self.fragments.append(bytes(frame.data))
                if frame.fin:
                    data, self.fragments = b"".join(self.fragments), None
                    self._message(data, self.fragments_text)
        elif opcode is Opcode.PONG:
            if self.ping_payload is not None and bytes(frame.data) == self.ping_payload:
                self.ping_payload = None
        elif opcode is Opcode.CLOSE:
            if self.close_sent:  # the peer answered our close: done
                self.transport.close()
                return
            close = self.conn.close_rcvd
            self._deliver({"type": "websocket.disconnect", "code": close.code if close else 1005,
                           "reason": close.reason if close else ""})
            self.close_sent = True  # the library has queued its answer
            self._flush()
            self.transport.close()
        # PING: the library has queued the pong; the caller flushes it

    def _message(self, data: bytes | bytearray | memoryview, text: bool) -> None:
        if self.close_sent:
            return  # the application is past websocket.close
        if text:
            try:
                self._deliver({"type": "websocket.receive", "text": bytes(data).decode()})
            except UnicodeDecodeError:
                self.conn.fail(1007, "invalid UTF-8")
                self._failed()
                return
        else:
            self._deliver({"type": "websocket.receive", "bytes": bytes(data)})
        if len(self.inbox) >= INBOX_LIMIT and not self.read_paused:
            # Back-pressure: stop reading until the application catches up. Not after every
            # message: pausing and resuming cost a system call each.
            self.read_paused = True
            self.transport.pause_reading()

    def _failed(self) -> None:
        """The peer broke the protocol (or a limit); the library has queued the close frame."""
        sent = self.conn.close_sent
        self._deliver({"type": "websocket.disconnect", "code": sent.code if sent else 1006,
                       "reason": sent.reason if sent else ""})
        self.close_sent = True
        self._flush()
        self.transport.close()

    def _deliver(self, message: dict[str, Any]) -> None:
        """Hand a message to the application's receive(); a disconnect only once."""
        if message["type"] == "websocket.disconnect":
            if self.disconnected:
                return
            self.disconnected = True
        self.inbox.append(message)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        elif self.handler is not None and self.handler_task is None and self.scope is None:
            self._spawn()

    # -- the application's side -----------------------------------------------------------------

    async def _run_app(self) -> None:
        try:
            result = await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            log.exception("Exception in ASGI application\n")
            self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR)
        else:
            if not self.handshake_complete:
                log.error("ASGI callable returned without completing handshake.")
                self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR)
            elif result is not None:
                log.error("ASGI callable should return None, but returned '%s'.", result)
            elif self.handler is not None:  # detached: the socket stays open, served by the handler
                self.scope = None
                if self.shutting_down:
                    self._close_for_restart()  # its disconnect reaches the handler
                elif self.inbox:
                    self._spawn()
                return
        self.scope = None
        self.handler = None
        if self.shutting_down:
            self._close_for_restart()
        if self.close_timer is None:
            self.transport.close()

    # -- a detached application -------------------------------------------------------------------

    def detach(self, handler: Callable[[], Awaitable[None]]) -> None:
        """Let the application's coroutine end without closing the socket. From then on,
        whenever messages wait, ``handler()`` runs in a task of its own and takes them with
        ``take()`` until it returns None; the disconnect comes last, as in ``receive()``. An
        idle socket then holds no task, no coroutine frames and no scope: a seat's socket is
        open for hours and idle nearly all of them (docs/PERFORMANCE.md, "Round three,
        2026-12-02: memory"). ``end()`` is the handler's return from the application: the socket is closed."""
        self.handler = handler

    def take(self) -> dict[str, Any] | None:
        """The next message for a detached handler; None when none waits (the handler returns)."""
        if self.shutting_down:  # the message in hand is done: nothing more is taken
            self._close_for_restart()
        if not self.inbox:
            return None
        message = self.inbox.pop(0)
        if message["type"] == "websocket.disconnect":
            self.handler = None  # nothing comes after it
        if self.read_paused and not self.inbox and not self.close_sent and not self.shutting_down:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    def end(self) -> None:
        """The detached application is done with this socket (as an ASGI application returning)."""
        self.handler = None
        if self.shutting_down:
            self._close_for_restart()
        if self.close_timer is None:
            self.transport.close()

    def _spawn(self) -> None:
        task = self.loop.create_task(self._run_handler())
        self.handler_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run_handler(self) -> None:
        handler = self.handler
        assert handler is not None
        try:
            await handler()
        except ClientDisconnected:
            pass
        except asyncio.CancelledError:  # the server stopping
            self.end()
        except BaseException:
            log.exception("Exception in ASGI application\n")
            self.end()
        finally:
            self.handler_task = None
        if self.handler is not None and self.inbox:  # arrived as the handler was returning
            self._spawn()

    async def receive(self) -> dict[str, Any]:
        if self.shutting_down:  # the message in hand is done: nothing more is taken
            self._close_for_restart()
        while not self.inbox:
            self.waiter = self.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        message = self.inbox.pop(0)
        if self.read_paused and not self.inbox and not self.close_sent and not self.shutting_down:
            self.read_paused = False
            self.transport.resume_reading()
        return message

    async def send(self, message: dict[str, Any]) -> None:
        if self.write_paused and not self.disconnected:
            self.write_waiter = self.loop.create_future()
            try:
                await self.write_waiter
            finally:
                self.write_waiter = None
        if self.disconnected and self.handshake_complete and not self.close_sent:
            raise ClientDisconnected()
        kind = message["type"]
        if not self.handshake_complete:
            if kind == "websocket.accept":
                self._accept(message)
            elif kind == "websocket.close":
                self._deliver({"type": "websocket.disconnect", "code": 1006})
                self._refuse(HTTPStatus.FORBIDDEN)
            else:
                raise RuntimeError(f"Expected ASGI message 'websocket.accept' or 'websocket.close', but got {kind!r}.")
        elif self.close_sent or self.disconnected:
            if kind == "websocket.send" or kind == "websocket.close":
                raise ClientDisconnected()
            raise RuntimeError(f"Unexpected ASGI message {kind!r} after sending 'websocket.close'.")
        elif kind == "websocket.send":
            if self.conn.state is not State.OPEN:
                raise ClientDisconnected()
            text = message.get("text")
            payload = text.encode() if text is not None else bytes(message.get("bytes") or b"")
            # A server's data frame is one header and the payload, unmasked and uncompressed
            # (no extension is offered): framed here, it costs a tenth of a library Frame.
            self.transport.write(frame_header(OPCODE_TEXT if text is not None else OPCODE_BINARY, len(payload))
                                 + payload)
        elif kind == "websocket.close":
            code = message.get("code", 1000)
            self._deliver({"type": "websocket.disconnect", "code": code, "reason": message.get("reason") or ""})
            try:
                self.conn.send_close(code, message.get("reason") or "")
            except InvalidState as exc:
                raise ClientDisconnected() from exc
            self._flush()
            self.close_sent = True
            self._stop_timers()
            if self.read_paused:  # read on, to receive the peer's answer
                self.read_paused = False
                self.transport.resume_reading()
            self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.close)
        else:
            raise RuntimeError(f"Expected ASGI message 'websocket.send' or 'websocket.close', but got {kind!r}.")

    def send_text_now(self, text: str | bytes) -> bool:
        """Send a text message at once if the socket is open and writable (True); otherwise send
        nothing and say so (False): the caller then awaits the ASGI ``send``, which waits for the
        socket to drain, or reports the disconnect. Same frames as ``send``, without a coroutine."""
        if (self.write_paused or self.disconnected or self.close_sent or not self.handshake_complete
                or self.conn.state is not State.OPEN):
            return False
        payload = text if isinstance(text, bytes) else text.encode()  # bytes: UTF-8 text already
        self.transport.write(frame_header(OPCODE_TEXT, len(payload)) + payload)
        return True

    def _accept(self, message: dict[str, Any]) -> None:
        response = self.response
        assert response is not None and self.scope is not None
        self.response = None
        log.info('%s - "WebSocket %s" [accepted]', _client(self.scope), self.scope["path"])
        del response.headers["Date"]
        for name, value in [*self.default_headers, *message.get("headers", ())]:
            response.headers[name.decode("latin-1")] = value.decode("latin-1")
        if message.get("subprotocol"):
            response.headers["Sec-WebSocket-Protocol"] = message["subprotocol"]
        if self.transport.is_closing():
            return
        self.handshake_complete = True
        self.conn.send_response(response)
        self._flush()
        self._schedule_ping()

    def _refuse(self, status: HTTPStatus) -> None:
        """Answer the handshake with an HTTP error (the application closed before accepting)."""
        if self.handshake_complete:
            return
        self.response = None
        if self.scope is not None and status is HTTPStatus.FORBIDDEN:
            log.info('%s - "WebSocket %s" 403', _client(self.scope), self.scope["path"])
        self.conn.send_response(self.conn.reject(status, ""))
        self._flush()
        self.handshake_complete = self.close_sent = True
        self.transport.close()

    # -- helpers --------------------------------------------------------------------------------

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data and not self.transport.is_closing():
            self.transport.write(b"".join(data))

    def _wake_writer(self) -> None:
        waiter = self.write_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _schedule_ping(self) -> None:
        interval = self.config.ws_ping_interval
        if interval:
            self.pinging = True
            PingRound.of(self.loop, interval).add(self)

    def _ping(self) -> None:
        """Every interval a ping; a peer that has not answered the previous one by then is gone.
        One turn of the round serves both, so the timeout is the interval."""
        if not self.pinging or self.close_sent or self.transport.is_closing():
            self.pinging = False
            return
        if self.ping_payload is not None:
            self.pinging = False
            self.conn.fail(1011, "keepalive ping timeout")
            self._failed()
            return
        self.ping_payload = os.urandom(4)
        self.conn.send_ping(self.ping_payload)
        self._flush()
        self._schedule_ping()

    def _stop_timers(self) -> None:
        self.pinging = False  # its place in the round is passed over
        if self.close_timer is not None:
            self.close_timer.cancel()
        self.close_timer = None


class PingRound:
    """The keepalive of every socket of a loop on one timer. All sockets wait the same interval,
    so the order they joined in is the order they are due in: a queue, and one timer for its
    head. A timer of the loop's own per socket cost about 0.5 KB each (uvloop's handle and its
    libuv timer); a place in the queue is a tuple. A socket that stopped keeps its place until
    it comes round, and is passed over; the round is dropped once no socket is left in it."""

    rounds: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[float, PingRound]]] = (
        weakref.WeakKeyDictionary())

    def __init__(self, loop: asyncio.AbstractEventLoop, interval: float) -> None:
        self.loop = loop
        self.interval = interval
        self.due: deque[tuple[float, LeanWebSocketProtocol]] = deque()
        self.timer: asyncio.TimerHandle | None = None

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop, interval: float) -> PingRound:
        by_interval = cls.rounds.setdefault(loop, {})
        found = by_interval.get(interval)
        if found is None:
            found = by_interval[interval] = cls(loop, interval)
        return found

    def add(self, socket: LeanWebSocketProtocol) -> None:
        self.due.append((self.loop.time() + self.interval, socket))
        if self.timer is None:
            self.timer = self.loop.call_at(self.due[0][0], self._turn)

    def _turn(self) -> None:
        self.timer = None
        due = self.due
        now = self.loop.time()
        while due and due[0][0] <= now + 0.002:  # a timer may fire a little early
            due.popleft()[1]._ping()  # which takes its next place at the back
        if due and self.timer is None:
            self.timer = self.loop.call_at(due[0][0], self._turn)
        elif not due:  # every socket gone: the round (which refers to its loop) goes too
            by_interval = self.rounds.get(self.loop, {})
            if by_interval.get(self.interval) is self:
                del by_interval[self.interval]
            if not by_interval:
                self.rounds.pop(self.loop, None)


def _client(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else ""
