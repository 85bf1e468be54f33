"""Push services of our own for the tests: real listeners on loopback, over TLS with a certificate
from a test authority made here (trusted by the server through PUSH_CA_FILE), and a plain-http
"inside" listener that a push must never reach."""

from __future__ import annotations

import asyncio
import base64
import datetime
import ipaddress
import json
import os
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CERT_NAMES = ("localhost", "push.test")  # what the service's certificate is valid for


@dataclass(frozen=True)
class Certs:
    ca: Path  # the authority's certificate: PUSH_CA_FILE
    cert: Path
    key: Path


def make_certs(folder: Path) -> Certs:
    """A test authority and a server certificate it signed, for CERT_NAMES and loopback."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Parlour test authority")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = [x509.DNSName(n) for n in CERT_NAMES]
    names += [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.IPAddress(ipaddress.ip_address("::1"))]
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CERT_NAMES[0])]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    found = Certs(folder / "ca.pem", folder / "cert.pem", folder / "key.pem")
    found.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    found.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    found.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return found


class _Server(ThreadingHTTPServer):
    tls: ssl.SSLContext | None = None

    def get_request(self) -> tuple[socket.socket, Any]:
        sock, address = self.socket.accept()
        if self.tls is None:
            return sock, address
        # The handshake happens in the request's own thread, so one slow client holds no other.
        return self.tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address


class Listener:
    """Records every request (method, path, headers, body) and answers as ``answer`` says."""

    def __init__(self, certs: Certs | None = None) -> None:
        self.received: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        self.release = threading.Event()  # lets the requests that hang go
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def handle_one_request(self) -> None:
                try:
                    super().handle_one_request()
                except (ssl.SSLError, OSError):  # a client that did not trust us, or gave up
                    self.close_connection = True

            def _any(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with listener.arrived:
                    listener.received.append({"method": self.command, "path": self.path, "headers": headers,
                                              "body": body})
                    listener.arrived.notify_all()
                listener.answer(self)

            do_GET = do_POST = do_PUT = do_DELETE = _any

            def log_message(self, *args: Any) -> None:
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        if certs is not None:
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(certs.cert, certs.key)
            self.server.tls = tls
        self.port = int(self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(204)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def wait_for(self, count: int, timeout: float = 10) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.received) >= count, timeout)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class PushService(Listener):
    """A push service over TLS. By path: ``/push/...`` 201 (stored); ``/gone/...`` 410 and
    ``/unknown/...`` 404 (the subscription is no more); ``/redirect/<status>?to=<url>`` that
    redirect; ``/hang/...`` reads the request and never answers."""

    def __init__(self, certs: Certs) -> None:
        super().__init__(certs)

    def url(self, path: str, host: str = "localhost") -> str:
        return f"https://{host}:{self.port}{path}"

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        kind = parts.path.split("/")[1]
        if kind == "hang":
            self.release.wait(60)
            return
        status = {"push": 201, "gone": 410, "unknown": 404}.get(kind, 400)
        if kind == "redirect":
            status = int(parts.path.split("/")[2])
        handler.send_response(status)
        if kind == "redirect":
            handler.send_header("Location", parse_qs(parts.query)["to"][0])
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def hanging(self) -> int:
        return sum(1 for r in self.received if r["path"].startswith("/hang/"))


class Browser:
    """A browser's side of a subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(json.loads(plain))


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def settle(client: Any, timeout: float = 20) -> None:
    """Let the pushes the last changes started finish (a push may start others' sending)."""
    pusher = client.app.state.parlour.pusher

    async def wait() -> None:
        deadline = time.monotonic() + timeout
        while pusher._tasks and time.monotonic() < deadline:
            await asyncio.wait(set(pusher._tasks), timeout=deadline - time.monotonic())

    client.portal.call(wait)


def two_players(client: Any) -> dict[str, Any]:
    """A table founded by Ada and joined by Bob: its code and both seat tokens."""
    from tests.support.play import found, join

    founded = found(client, "Ada")
    bob = join(client, founded["code"], "Bob")
    return {"code": founded["code"], "ada": founded["seat_token"], "bob": bob["seat_token"]}


def stored_subscriptions(client: Any) -> int:
    """How many push subscriptions the database holds."""
    from sqlalchemy import func, select

    from app.storage.models import PushSubscription

    async def count() -> int:
        async with client.app.state.parlour.sessions() as s:
            return int(await s.scalar(select(func.count()).select_from(PushSubscription)) or 0)

    return int(client.portal.call(count))
