"""A game's fixed data (London's catalogue) is fetched once over HTTP, never pushed per move."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from app.server.config import Settings
from engines.london.view import CATALOGUE


def test_london_catalogue_is_served_by_http_and_absent_from_live_updates(sqlite_url):
    settings = Settings(database_url=sqlite_url, engines=("engines.london:ENGINE",))
    with TestClient(create_app(settings)) as client:
        founded = client.post("/api/tables", json={"game": "london", "name": "Ada"}).json()
        client.post(f"/api/tables/{founded['code']}/join", json={"name": "Bob"})
        client.post(f"/api/seats/{founded['seat_token']}/start")
        static = client.get(f"/api/tables/{founded['code']}/static").json()
        assert static == {"catalogue": CATALOGUE}
        with client.websocket_connect(f"/ws/seats/{founded['seat_token']}") as ws:
            messages = [ws.receive_text() for _ in range(2)]
        assert all("catalogue" not in m for m in messages)
        assert len(messages[1]) < 8000  # the view alone, a few KB


