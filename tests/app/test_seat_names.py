"""Seats named as the game names them: where an engine gives seat labels (the optional
``seat_labels`` of the protocol, as A Game of Thrones' houses), the log, the refusals, the
replays and the table's summary (which the page names seats from: the banner, the chat, the end)
name each seat by its label with the player beside it, "Stark (Ada)"; a game without labels
keeps the player's name alone. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.server.config import Settings
from tests.support.diplomatic import HOUSES, HOUSES_TALLY
from tests.support.play import awaited_token, play_one, started_table

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def houses(db_url: str) -> Iterator[TestClient]:
    """A site hosting Tally whose seats are houses (Stark, Lannister, …)."""
    settings = Settings(database_url=db_url, engines=(HOUSES_TALLY,), public_url=None)
    with TestClient(create_app(settings), base_url="http://testserver") as c:
        yield c


def names_by_seat(client: TestClient, code: str) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in client.get(f"/api/tables/{code}").json()["players"]}


def log_of(client: TestClient, token: str) -> list[str]:
    with client.websocket_connect(f"/ws/seats/{token}", headers=ORIGIN) as ws:
        for _ in range(10):
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] == "view":
                return [line["text"] for line in msg["log"]]
    raise AssertionError("no view message")


def test_the_log_names_each_seat_by_its_house_with_the_player_beside_it(houses):
    t = started_table(houses, ("Ada", "Bob", "Cy"), game="tally")
    names = names_by_seat(houses, t["code"])
    mover = awaited_token(houses, t)[1]
    play_one(houses, t)
    log = log_of(houses, t["by_seat"][(mover + 1) % 3])
    drawn = ", ".join(f"{s + 1}. {HOUSES[s]} ({names[s]})" for s in range(3))
    assert log[0] == f"Seats were drawn by lot: {drawn}. The game begins."
    assert any(line.startswith(f"{HOUSES[mover]} ({names[mover]}) ") for line in log[1:]), log


def test_the_table_summary_gives_the_house_of_every_seat_once_dealt(houses):
    t = started_table(houses, ("Ada", "Bob", "Cy"), game="tally")
    assert houses.get(f"/api/tables/{t['code']}").json()["labels"] == list(HOUSES[:3])


def test_a_move_out_of_turn_is_refused_naming_the_awaited_house_and_player(houses):
    t = started_table(houses, ("Ada", "Bob"), game="tally")
    names = names_by_seat(houses, t["code"])
    _, seq = awaited_token(houses, t)
    awaited = houses.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    other = t["by_seat"][1 - awaited]
    r = houses.post(f"/api/seats/{other}/moves", json={"seq": seq, "move": {"type": "draw"}})
    assert r.status_code == 422
    assert r.json()["message"] == f"It is not your turn: the table awaits {HOUSES[awaited]} ({names[awaited]})."


def test_a_game_without_seat_labels_names_its_players_alone(client):
    t = started_table(client, ("Ada", "Bob"), game="tally")
    names = names_by_seat(client, t["code"])
    assert client.get(f"/api/tables/{t['code']}").json()["labels"] is None
    mover = awaited_token(client, t)[1]
    play_one(client, t)
    log = log_of(client, t["by_seat"][1 - mover])
    assert log[0] == f"Seats were drawn by lot: 1. {names[0]}, 2. {names[1]}. The game begins."
    assert any(line.startswith(f"{names[mover]} ") for line in log[1:]), log


def test_your_tables_name_the_awaited_seat_by_its_house_and_player(houses):
    t = started_table(houses, ("Ada", "Bob"), game="tally")
    names = names_by_seat(houses, t["code"])
    awaited = houses.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    r = houses.post("/api/my-tables", json={"seats": [t["tokens"][0]]})
    assert r.status_code == 200, r.text
    assert r.json()["tables"][0]["awaiting"] == [f"{HOUSES[awaited]} ({names[awaited]})"]
