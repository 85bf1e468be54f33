"""The server's figures (GET /api/stats), read in-process the way its host reads them."""

from __future__ import annotations

from typing import Any

import httpx

OWN_MACHINE = ("127.0.0.1", 50000)


def own_stats(client: Any) -> dict[str, Any]:
    """/api/stats asked from the server's own machine. A TestClient reports its address as
    "testclient", which /api/stats does not answer; this asks on the TestClient's own event loop
    (so the same app, in the same state) as a loopback client instead."""
    async def ask() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=client.app, client=OWN_MACHINE)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as own:
            r = await own.get("/api/stats")
            assert r.status_code == 200, r.text
            return dict(r.json())

    return dict(client.portal.call(ask))
