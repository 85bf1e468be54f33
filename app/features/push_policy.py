"""Where a Web Push may go: the rules that keep the server from being a way into its own network.

A push endpoint comes from a browser, so from anyone, and the server later sends a request to it
by itself. So an endpoint is accepted only on the push services browsers use (``PUSH_SERVICES``,
host suffixes), only ``https`` on port 443, and only in a form no two URL parsers read
differently (printable ASCII, no user-info, no backslash, no fragment, an authority that is just
the host). It is parsed once, by yarl, the parser of the HTTP client that sends the push, and the
parsed URL itself is what is sent to. When a push is sent the name is resolved once, every
address it gives must be public unicast, and the connection goes to those checked addresses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address
from typing import TYPE_CHECKING

from app.server.config import DEFAULT_PUSH_SERVICES

if TYPE_CHECKING:
    from yarl import URL

MAX_ENDPOINT = 1024
HTTPS_PORT = 443
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# A DNS name: letter-digit-hyphen labels; the last one begins with a letter, so no number form of
# an address (2130706433, 0x7f.1, 127.1) ever passes as a name.
NAME = re.compile(r"(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?")

IPAddress = IPv4Address | IPv6Address

# Not public unicast. ``is_global`` says most of it, but its answers changed between Python
# releases (and it calls multicast global), so the ranges are spelled out as well.
REFUSED_V4 = tuple(IPv4Network(n) for n in (
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
    "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4"))
REFUSED_V6 = tuple(IPv6Network(n) for n in (
    "::/8", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7",
    "fe80::/10", "fec0::/10", "ff00::/8"))
NAT64 = IPv6Network("64:ff9b::/96")  # DNS64 answers for IPv4-only names on IPv6-only hosts


class Refused(Exception):
    """The endpoint, or an address its name resolved to, is not a place pushes may go."""


def public_unicast(ip: IPAddress) -> bool:
    """Is this an address of the public internet, reached by one host (not a group)?"""
    if isinstance(ip, IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is a.b.c.d
            return public_unicast(ip.ipv4_mapped)
        if ip in NAT64:  # the gateway connects to the embedded IPv4 address
            return public_unicast(IPv4Address(int(ip) & 0xFFFF_FFFF))
        if ip.sixtofour is not None or ip.teredo is not None or ip.scope_id:
            return False  # tunnels to an address of their own choosing; a zone is a local link
        refused: tuple[IPv4Network | IPv6Network, ...] = REFUSED_V6
    else:
        refused = REFUSED_V4
    return ip.is_global and not ip.is_multicast and not any(ip in net for net in refused)


@dataclass(frozen=True)
class PushPolicy:
    """``services``: host suffixes push endpoints may be on. ``test_port`` (tests and trials, 0:
    off): endpoints on this machine at that one port are accepted too, and sending may connect
    to a loopback address at that port and no other."""

    services: tuple[str, ...] = DEFAULT_PUSH_SERVICES
    test_port: int = 0

    def endpoint(self, text: str) -> URL:
        """The endpoint as the HTTP client will send to it; ``Refused`` (saying why) otherwise."""
        if len(text) > MAX_ENDPOINT:
            raise Refused(f"an endpoint is at most {MAX_ENDPOINT} characters")
        if any(not 0x21 <= ord(ch) <= 0x7E for ch in text):
            raise Refused("an endpoint is printable ASCII: no spaces, control characters or NUL")
        if "\\" in text or "#" in text:  # read as "/" or cut off by some parsers and not others
            raise Refused("an endpoint has no backslash and no fragment")
        if not text.startswith("https://"):
            raise Refused("the endpoint is an https address")
        from yarl import URL  # with the first subscription: a server nobody subscribes on never loads it

        url = URL(text)
        host = url.raw_host or ""
        if url.scheme != "https" or not host:
            raise Refused("the endpoint is an https address")
        if url.user is not None or url.password is not None or "@" in (url.raw_authority or ""):
            raise Refused("an endpoint has no user name or password")
        port = url.explicit_port
        shown = f"[{host}]" if ":" in host else host
        if url.raw_authority != (shown if port is None else f"{shown}:{port}"):
            raise Refused("the endpoint's host is a plain name")  # percent-escapes, empty ports...
        if self.test_port and port == self.test_port and (host in LOOPBACK_NAMES or self.on_service(host)):
            return url
        if port not in (None, HTTPS_PORT):
            raise Refused("an endpoint is on port 443")
        if not self.on_service(host):
            raise Refused("the endpoint is not on a push service this server sends to")
        return url

    def on_service(self, host: str) -> bool:
        return NAME.fullmatch(host) is not None and any(
            host == s or host.endswith("." + s) for s in self.services)

    def address_allowed(self, ip: IPAddress, port: int) -> bool:
        if public_unicast(ip):
            return True
        return bool(self.test_port) and port == self.test_port and ip.is_loopback


def literal_address(host: str) -> IPAddress | None:
    """The address a URL's host spells out, if it is one (the client then resolves nothing)."""
    try:
        return ip_address(host)
    except ValueError:
        return None
