"""Who may read the server's own figures (``/api/stats``): its host, not the public.

The figures tell how the server is doing, and what its pushes came to, so they are for the host:
with ``STATS_TOKEN`` set, only a request that carries it (``Authorization: Bearer <token>``);
without, only a request from this machine itself. Behind a reverse proxy on this machine every
request comes from loopback, so a request carrying any forwarding header is never taken for the
machine's own, whatever the header says (X-Forwarded-For is written by whoever sends it; the
address ``uvicorn --proxy-headers`` derives from it is not trusted here either). A proxy that
adds no such header makes the public look local: such a host must set ``STATS_TOKEN``.
"""

from __future__ import annotations

import hmac
from ipaddress import IPv6Address, ip_address

from fastapi import Request

from app.server.errors import ApiError

FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip")


def is_host(request: Request, token: str | None) -> bool:
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())
    if any(name in request.headers for name in FORWARDING_HEADERS):
        return False
    try:
        peer = ip_address(request.client.host if request.client else "")
    except ValueError:  # not an address at all (a test client's name, a socket path)
        return False
    if isinstance(peer, IPv6Address) and peer.ipv4_mapped is not None:  # a dual-stack socket's IPv4 peer
        return peer.ipv4_mapped.is_loopback
    return peer.is_loopback


def require_host(request: Request, token: str | None) -> None:
    if not is_host(request, token):
        raise ApiError(403, "forbidden", "The server's figures are for its host: ask from the server's own "
                                         "machine, or with its STATS_TOKEN.")
