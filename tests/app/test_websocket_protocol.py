"""The server's own websocket protocol (app/web/websocket_protocol.py) under a real uvicorn, with
real websocket clients: the ASGI behaviour an application relies on, and the protocol's
duties (keepalive, limits, the closing handshake, back-pressure)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any, ClassVar

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK, InvalidStatus
from websockets.sync.client import connect

from app.web.websocket_protocol import INBOX_LIMIT, SEND_NOW, LeanWebSocketProtocol, PingRound
from tests.support.play import started_table
from tests.support.server import free_port

FLOOD_MESSAGES = 400
FLOOD_SIZE = 32 * 1024


class Probe:
    """A small ASGI application: each path exercises one part of the protocol."""

    def __init__(self) -> None:
        self.disconnects: list[dict[str, Any]] = []
        self.longest_send = 0.0
        self.paths: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        path = scope["path"]
        self.paths.append(path)
        assert (await receive())["type"] == "websocket.connect"
        if path == "/refuse":
            await send({"type": "websocket.close", "code": 4403})
            return
        if path == "/crash":
            raise RuntimeError("the application failed before accepting")
        subprotocol = "parlour.v1" if "parlour.v1" in scope["subprotocols"] else None
        await send({"type": "websocket.accept", "subprotocol": subprotocol})
        if path == "/close":
            await send({"type": "websocket.close", "code": 4000, "reason": "bye"})
            return
        if path == "/flood":
            for i in range(FLOOD_MESSAGES):
                started = time.monotonic()
                await send({"type": "websocket.send", "text": f"{i:06d}" + "x" * FLOOD_SIZE})
                self.longest_send = max(self.longest_send, time.monotonic() - started)
            await send({"type": "websocket.close", "code": 1000})
            return
        if path == "/sizes":  # each of the three frame-length encodings, text and binary
            for size in (0, 125, 126, 65535, 65536, 100_000):
                await send({"type": "websocket.send", "text": "é" * (size // 2) + "y" * (size % 2)})
                await send({"type": "websocket.send", "bytes": bytes([size % 251]) * size})
        if path == "/detach":  # the parlour server's way: the coroutine ends, the socket stays
            socket = scope["extensions"][SEND_NOW]

            async def echo() -> None:
                while (message := socket.take()) is not None:
                    if message["type"] == "websocket.disconnect":
                        self.disconnects.append(message)
                        return
                    await asyncio.sleep(0)  # a handler may await: the next message waits its turn
                    assert socket.send_text_now(message["text"])

            socket.detach(echo)
            return
        if path == "/scope":
            headers = {k.decode(): v.decode() for k, v in scope["headers"]}
            await send({"type": "websocket.send", "text": f"{scope['query_string'].decode()}|{headers['x-probe']}"})
        while True:  # echo
            message = await receive()
            if message["type"] == "websocket.disconnect":
                self.disconnects.append(message)
                return
            if path == "/slow":
                await asyncio.sleep(0.002)
            if message.get("text") is not None:
                await send({"type": "websocket.send", "text": message["text"]})
            else:
                await send({"type": "websocket.send", "bytes": message["bytes"]})


class RecordingProtocol(LeanWebSocketProtocol):
    """The protocol, recording how many messages ever waited for the application at once, how
    often reading was paused, and the HTTP protocol each socket was upgraded from (class-wide:
    the probe server serves one test at a time)."""

    most_waiting = 0
    pauses = 0
    upgraded_from: ClassVar[list[weakref.ref[Any]]] = []

    def connection_made(self, transport: Any) -> None:
        RecordingProtocol.upgraded_from.append(weakref.ref(transport.get_protocol()))
        super().connection_made(transport)

    def _deliver(self, message: dict[str, Any]) -> None:
        super()._deliver(message)
        RecordingProtocol.most_waiting = max(RecordingProtocol.most_waiting, len(self.inbox))

    def data_received(self, data: bytes) -> None:
        was_paused = self.read_paused
        super().data_received(data)
        if self.read_paused and not was_paused:
            RecordingProtocol.pauses += 1


@contextlib.contextmanager
def running_probe(ping_interval: float | None) -> Iterator[tuple[str, Probe, uvicorn.Server]]:
    probe = Probe()
    port = free_port()
    config = uvicorn.Config(probe, host="127.0.0.1", port=port, ws=RecordingProtocol, ws_max_size=64 * 1024,
                            ws_ping_interval=ping_interval, lifespan="off", log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the probe server did not start"
        time.sleep(0.02)
    try:
        yield f"ws://127.0.0.1:{port}", probe, server
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def probe_server() -> Iterator[tuple[str, Probe]]:
    with running_probe(ping_interval=0.5) as (url, probe, _):
        yield url, probe


@pytest.fixture(scope="module")
def unpinged_probe_server() -> Iterator[tuple[str, Probe]]:
    """No keepalive: a reader stalled on purpose must not be dropped as dead."""
    with running_probe(ping_interval=None) as (url, probe, _):
        yield url, probe


def raw_handshake(url: str, path: str, key: bool = True) -> socket.socket:
    host, port = url.removeprefix("ws://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=5)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Version: 13"]
    if key:
        lines.append("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


def read_until_eof(sock: socket.socket, timeout: float) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_text_and_binary_messages_echo_in_order(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as ws:
        for i in range(50):
            ws.send(f"message {i}")
        assert [ws.recv(timeout=5) for _ in range(50)] == [f"message {i}" for i in range(50)]
        ws.send(b"\x00\x01binary")
        assert ws.recv(timeout=5) == b"\x00\x01binary"


def test_messages_of_every_frame_length_arrive_intact(probe_server):
    url, _ = probe_server
    with connect(f"{url}/sizes", max_size=None) as ws:
        for size in (0, 125, 126, 65535, 65536, 100_000):
            assert ws.recv(timeout=5) == "é" * (size // 2) + "y" * (size % 2)
            assert ws.recv(timeout=5) == bytes([size % 251]) * size


def test_a_sender_faster_than_the_application_is_held_back(probe_server):
    """Reading pauses while the application has messages waiting: however fast a client sends,
    the messages waiting in the server stay few (the rest wait in the client's and the kernel's
    buffers), and none is lost or reordered."""
    url, _ = probe_server
    RecordingProtocol.most_waiting = RecordingProtocol.pauses = 0
    count, size = 300, 16 * 1024
    with connect(f"{url}/slow", max_size=None) as ws:
        sender = threading.Thread(target=lambda: [ws.send(f"{i:05d}" + "z" * size) for i in range(count)])
        sender.start()
        got = [ws.recv(timeout=30)[:5] for _ in range(count)]
        sender.join(30)
    assert got == [f"{i:05d}" for i in range(count)]
    assert RecordingProtocol.pauses > 0, "reading never paused"
    # Eight waiting pause the reading; the read in progress (asyncio reads up to 256 KiB at
    # once) may still bring sixteen more: never the 300 a server that did not pause would hold.
    assert RecordingProtocol.most_waiting <= INBOX_LIMIT + 256 * 1024 // size + 1, RecordingProtocol.most_waiting


def test_a_message_sent_in_fragments_arrives_whole(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as ws:
        ws.send(iter(['{"type":', ' "ping"', "}"]))
        assert ws.recv(timeout=5) == '{"type": "ping"}'


def test_the_scope_carries_path_query_and_headers(probe_server):
    url, _ = probe_server
    with connect(f"{url}/scope?seat=2", additional_headers={"X-Probe": "looked at"}) as ws:
        assert ws.recv(timeout=5) == "seat=2|looked at"


def test_the_chosen_subprotocol_is_announced(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo", subprotocols=["parlour.v1"]) as ws:
        assert ws.subprotocol == "parlour.v1"


def test_a_ping_from_the_client_is_answered(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as ws:
        assert ws.ping(b"are you there").wait(5)


def test_the_clients_close_code_reaches_the_application(probe_server):
    url, probe = probe_server
    with connect(f"{url}/echo") as ws:
        ws.send("hello")
        ws.recv(timeout=5)
        ws.close(code=4001, reason="leaving")
    deadline = time.monotonic() + 5
    while not any(d["code"] == 4001 for d in probe.disconnects):
        assert time.monotonic() < deadline, probe.disconnects
        time.sleep(0.02)
    assert {"type": "websocket.disconnect", "code": 4001, "reason": "leaving"} in probe.disconnects


def test_the_applications_close_code_reaches_the_client(probe_server):
    url, _ = probe_server
    with connect(f"{url}/close") as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=5)
    assert closed.value.rcvd is not None and (closed.value.rcvd.code, closed.value.rcvd.reason) == (4000, "bye")


def test_closing_before_accepting_refuses_the_handshake_with_403(probe_server):
    url, _ = probe_server
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{url}/refuse")
    assert refused.value.response.status_code == 403


def test_an_application_failing_before_accepting_answers_500(probe_server):
    url, _ = probe_server
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{url}/crash")
    assert refused.value.response.status_code == 500


def test_a_handshake_without_a_key_is_answered_400(probe_server):
    url, _ = probe_server
    with raw_handshake(url, "/echo", key=False) as sock:
        assert read_until_eof(sock, 5).startswith(b"HTTP/1.1 400")


def test_a_message_over_the_size_limit_closes_with_1009(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo", max_size=None) as ws:
        ws.send("x" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_invalid_utf8_in_a_text_message_closes_with_1007(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as ws:
        ws.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007


def test_a_peer_that_stops_answering_pings_is_dropped_with_1011(probe_server):
    url, _ = probe_server
    with raw_handshake(url, "/echo") as sock:
        started = time.monotonic()
        data = read_until_eof(sock, 5)  # never answers the server's pings
        elapsed = time.monotonic() - started
    assert data.startswith(b"HTTP/1.1 101")
    assert b"\x89\x04" in data  # the server's ping: FIN + opcode 9, 4-byte payload
    assert b"\x88" in data and b"\x03\xf3" in data  # a close frame with code 1011
    assert 0.8 <= elapsed < 3  # two intervals of 0.5 s, not the first


def test_a_peer_that_answers_pings_stays_connected(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as ws:  # the client answers pings by itself
        time.sleep(1.6)
        ws.send("still here")
        assert ws.recv(timeout=5) == "still here"


def test_a_reader_that_falls_behind_holds_up_only_its_own_sender(unpinged_probe_server):
    """Back-pressure: the application's send waits while the socket is full; nothing is lost."""
    url, probe = unpinged_probe_server
    with connect(f"{url}/flood", max_size=None) as ws:
        time.sleep(1.0)  # not reading: kernel buffers fill, then the transport pauses
        received = []
        with pytest.raises(ConnectionClosedOK):
            while True:
                received.append(ws.recv(timeout=10))
    assert len(received) == FLOOD_MESSAGES
    assert [int(m[:6]) for m in received] == list(range(FLOOD_MESSAGES))
    assert probe.longest_send > 0.3  # a send really waited for the slow reader


@pytest.mark.parametrize("path", ["/echo", "/detach"])
def test_a_server_shutting_down_closes_open_sockets_with_1012(path):
    """1012 (service restart) tells the browser to come back quietly, not that it was refused;
    the application hears it, awaiting receive() or (detached) in its handler."""
    with running_probe(ping_interval=None) as (url, probe, server), connect(f"{url}{path}") as ws:
        ws.send("hello")
        assert ws.recv(timeout=5) == "hello"
        server.should_exit = True
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        deadline = time.monotonic() + 5
        while not probe.disconnects:
            assert time.monotonic() < deadline, "the application never heard of the shutdown"
            time.sleep(0.02)
        assert probe.disconnects[0]["code"] == 1012


def test_a_detached_application_is_handed_every_message_in_order_and_holds_no_task_while_idle():
    with running_probe(ping_interval=None) as (url, probe, server), connect(f"{url}/detach") as ws:
        for i in range(50):  # more than INBOX_LIMIT at once: reading pauses and resumes
            ws.send(f"m{i}")
        assert [ws.recv(timeout=5) for _ in range(50)] == [f"m{i}" for i in range(50)]
        deadline = time.monotonic() + 5
        while server.server_state.tasks:
            assert time.monotonic() < deadline, "a task outlived the messages it served"
            time.sleep(0.02)
        assert len(server.server_state.connections) == 1
        ws.send("still here")
        assert ws.recv(timeout=5) == "still here"
        ws.close(4001, "bye")
        deadline = time.monotonic() + 5
        while not probe.disconnects:
            assert time.monotonic() < deadline, "the handler never heard the disconnect"
            time.sleep(0.02)
        assert probe.disconnects[0]["code"] == 4001


def test_the_http_protocol_a_socket_is_upgraded_from_is_freed_at_once_not_by_the_collector(probe_server):
    """uvicorn's HTTP protocol and its parser refer to each other; once a socket is upgraded
    nothing else refers to them, and without the protocol's help they would wait for the cyclic
    collector (the server runs it seldom) with their buffers and headers."""
    url, _ = probe_server
    RecordingProtocol.upgraded_from.clear()
    gc.disable()
    try:
        with connect(f"{url}/echo") as ws:
            ws.send("x")
            assert ws.recv(timeout=5) == "x"
            assert len(RecordingProtocol.upgraded_from) == 1
            assert RecordingProtocol.upgraded_from[0]() is None
    finally:
        gc.enable()


def test_every_socket_of_a_server_is_pinged_from_one_timer_dropped_with_the_last_socket(probe_server):
    url, _ = probe_server
    with connect(f"{url}/echo") as a, connect(f"{url}/echo") as b, connect(f"{url}/echo") as c:
        for ws in (a, b, c):
            ws.send("x")
            assert ws.recv(timeout=5) == "x"
        rounds = [r for by_interval in PingRound.rounds.values() for r in by_interval.values()
                  if r.interval == 0.5]
        assert len(rounds) == 1
        assert sum(1 for _, sock in rounds[0].due if sock.pinging) == 3
        time.sleep(1.3)  # two turns: every socket answered its pings and is still there
        for ws in (a, b, c):
            ws.send("y")
            assert ws.recv(timeout=5) == "y"
    deadline = time.monotonic() + 5
    while any(r.interval == 0.5 for by_interval in PingRound.rounds.values() for r in by_interval.values()):
        assert time.monotonic() < deadline, "the round outlived its sockets (and kept its loop)"
        time.sleep(0.05)


def test_parlour_serve_drops_a_silent_seat_and_shows_it_away(sqlite_url, server_factory):
    """The real server: a seat whose connection died without a close is shown as not connected."""
    server = server_factory(sqlite_url, extra_env={"KEEPALIVE_SECONDS": "0.5"})
    with httpx.Client(base_url=server.base) as c:
        t = started_table(c, ("Ada", "Bob"))
        with raw_handshake(f"ws://127.0.0.1:{server.port}", f"/ws/seats/{t['by_seat'][0]}") as sock:
            sock.settimeout(5)
            assert sock.recv(65536).startswith(b"HTTP/1.1 101")

            def seat0_connected() -> bool:
                players = c.get(f"/api/tables/{t['code']}").json()["players"]
                return next(p["connected"] for p in players if p["seat"] == 0)

            deadline = time.monotonic() + 5
            while not seat0_connected():
                assert time.monotonic() < deadline, "the seat never showed as connected"
                time.sleep(0.05)
            read_until_eof(sock, 5)
            deadline = time.monotonic() + 5
            while seat0_connected():
                assert time.monotonic() < deadline, "the silent seat still shows as connected"
                time.sleep(0.05)


def test_parlour_serve_tells_the_browser_why_a_socket_is_refused(sqlite_url, server_factory):
    """Browsers see no status of a failed handshake, only close codes: the reason comes as one."""
    server = server_factory(sqlite_url)
    base = f"ws://127.0.0.1:{server.port}"
    for path, headers, code in [("/ws/seats/nobody-sits-here-at-all", {}, 4404),
                                ("/ws/watch/ZZZZZZ", {}, 4404),
                                ("/ws/seats/nobody-sits-here-at-all", {"Origin": "http://evil.example"}, 4403)]:
        with connect(base + path, additional_headers=headers) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code, path


class FakeTransport(asyncio.Transport):
    """Records what the protocol asks of its socket."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.calls: list[str] = []
        self.closing = False

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.written += bytes(data)

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


def test_reading_pauses_only_while_the_application_has_messages_waiting():
    from uvicorn.server import ServerState
    from websockets.frames import Frame, Opcode

    from app.web.websocket_protocol import INBOX_LIMIT

    async def scenario() -> list[str]:
        gate = asyncio.Event()
        got: list[str] = []

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            await gate.wait()
            for _ in range(INBOX_LIMIT + 4):
                got.append((await receive())["text"])

        config = uvicorn.Config(app, ws_ping_interval=None, lifespan="off")
        config.load()
        protocol = LeanWebSocketProtocol(config, ServerState(), {})
        transport = FakeTransport()
        protocol.connection_made(transport)
        protocol.data_received(b"GET /x HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        await asyncio.sleep(0.01)
        assert transport.written.startswith(b"HTTP/1.1 101")
        frames = b"".join(Frame(Opcode.TEXT, f"{i}".encode()).serialize(mask=True, extensions=[])
                          for i in range(INBOX_LIMIT + 4))
        protocol.data_received(frames[: len(frames) // 2])  # a few messages: reading goes on
        assert transport.calls == []
        protocol.data_received(frames[len(frames) // 2:])  # past the limit: reading pauses
        assert transport.calls == ["pause"]
        gate.set()
        await asyncio.sleep(0.01)
        assert got == [f"{i}" for i in range(INBOX_LIMIT + 4)]
        return transport.calls

    assert asyncio.run(scenario()) == ["pause", "resume"]


def test_the_uvicorn_internals_the_protocol_builds_on_keep_their_shape():
    """The protocol imports uvicorn's internals (not a public API); pyproject.toml pins uvicorn to
    the release they were read from. An upgrade that moves or reshapes any of them fails here by
    name, before any socket does."""
    import inspect

    import uvicorn
    from uvicorn.config import Config
    from uvicorn.protocols import utils
    from uvicorn.server import ServerState

    assert uvicorn.__version__.startswith("0.54."), uvicorn.__version__
    state = ServerState()
    assert isinstance(state.connections, set) and isinstance(state.tasks, set)
    assert isinstance(state.default_headers, list)
    for helper in (utils.get_local_addr, utils.get_remote_addr, utils.is_ssl):
        assert list(inspect.signature(helper).parameters) == ["transport"], helper
    assert issubclass(utils.ClientDisconnected, OSError)
    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        pass

    config = Config(app=asgi, ws="app.web.websocket_protocol:LeanWebSocketProtocol", ws_max_size=1234)
    assert not config.loaded
    config.load()
    assert config.ws_protocol_class is LeanWebSocketProtocol
    assert (config.loaded, config.ws_max_size, config.root_path, config.asgi_version) == (True, 1234, "", "3.0")
    assert config.ws_ping_interval > 0 and callable(config.loaded_app)
