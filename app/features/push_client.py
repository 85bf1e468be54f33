"""The one way a Web Push leaves the server: an async HTTP client that never follows a redirect,
gives up after a few seconds, and connects only to addresses ``PushPolicy`` allows.

The name of an endpoint is resolved by ``CheckedResolver``, the client's own resolver: what it
answers is what the client connects to (no second lookup a rebinding DNS server could answer
differently), and it answers nothing when any address is not public. TLS is still verified
against the name (the client sends it as SNI and checks the certificate for it). Lookups run on
two threads of their own and pushes on the event loop: neither takes a thread of the loop's
default pool, which replays and other work share.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from ipaddress import ip_address

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from app.features.push_policy import HTTPS_PORT, IPAddress, PushPolicy, Refused, literal_address

CONNECT_SECONDS = 3.0  # TCP and TLS
READ_SECONDS = 5.0  # between two reads of the answer
TOTAL_SECONDS = 10.0
DNS_SECONDS = 3.0
DNS_THREADS = 2
CONNECTIONS = 8

Lookup = Callable[[str, int], Awaitable[list[IPAddress]]]


class CheckedResolver(AbstractResolver):
    """Every address of the name, or none: a name with one inside address is refused whole."""

    def __init__(self, policy: PushPolicy, lookup: Lookup) -> None:
        self.policy = policy
        self.lookup = lookup

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        try:
            found = await asyncio.wait_for(self.lookup(host, port), DNS_SECONDS)
        except TimeoutError:
            raise OSError(f"{host} was not resolved within {DNS_SECONDS:g} s") from None
        if not found:
            raise OSError(f"{host} has no address")
        inside = [ip for ip in found if not self.policy.address_allowed(ip, port)]
        if inside:
            raise Refused(f"{host} resolves to {inside[0]}, which is not a public address")
        return [ResolveResult(hostname=host, host=str(ip), port=port,
                              family=socket.AF_INET6 if ip.version == 6 else socket.AF_INET,
                              proto=socket.IPPROTO_TCP, flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV)
                for ip in found]

    async def close(self) -> None:
        pass


UNANSWERED = (aiohttp.ClientError, OSError, TimeoutError)
"""What a push that got no answer raises: the push service is unreachable, slow or broken."""


class PushClient:
    """``ca_file``: the certificates trusted for push services instead of the system's (tests)."""

    def __init__(self, policy: PushPolicy, ca_file: str | None = None) -> None:
        self.policy = policy
        self.ca_file = ca_file
        self.lookup: Lookup = self.system_lookup
        self._dns = ThreadPoolExecutor(DNS_THREADS, thread_name_prefix="parlour-push-dns")
        self._session: aiohttp.ClientSession | None = None

    async def system_lookup(self, host: str, port: int) -> list[IPAddress]:
        infos = await asyncio.get_running_loop().run_in_executor(
            self._dns, partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM))
        return list(dict.fromkeys(ip_address(info[4][0]) for info in infos))

    def _open(self) -> aiohttp.ClientSession:
        resolver = CheckedResolver(self.policy, lambda host, port: self.lookup(host, port))
        connector = aiohttp.TCPConnector(resolver=resolver, ssl=ssl.create_default_context(cafile=self.ca_file),
                                         limit=CONNECTIONS)
        timeout = aiohttp.ClientTimeout(total=TOTAL_SECONDS, sock_connect=CONNECT_SECONDS, sock_read=READ_SECONDS)
        # No proxy from the environment, no cookies a push service could set for another.
        return aiohttp.ClientSession(connector=connector, timeout=timeout, trust_env=False,
                                     cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False)

    async def post(self, url: URL, body: bytes, headers: dict[str, str]) -> int:
        """The push service's answer (its status); ``Refused``, ``aiohttp.ClientError`` or
        ``TimeoutError`` when there is none."""
        literal = literal_address(url.raw_host or "")
        # The client resolves no address written in the URL itself, so its resolver never sees it.
        if literal is not None and not self.policy.address_allowed(literal, url.port or HTTPS_PORT):
            raise Refused(f"{literal} is not a public address")
        if self._session is None:
            self._session = self._open()
        async with self._session.post(url, data=body, headers=headers, allow_redirects=False) as answer:
            return answer.status

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        self._dns.shutdown(wait=False, cancel_futures=True)
