"""Hints at casual tables (app/features/hints.py): a table founded with hints lets a seat ask the good bot
about its own decision; the answer is the bot's weighing (its best moves with the figures its
search computed), worked out in the bot workers; the ask is public (a log line every seat reads,
a count per seat) and counted once per decision. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.server.config import Settings
from tests.support.play import join

LONDON = "engines.london:ENGINE"


def london_app(db_url: str) -> Iterator[Any]:
    """A test client of an app hosting London, its bots quick (the hint tests' ``c``)."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = Settings(database_url=db_url, public_url=None, engines=(LONDON,), bot_think_seconds=0.3,
                        clock_poll_seconds=3600)
    with TestClient(create_app(settings), base_url="http://testserver") as tc:
        yield tc


@pytest.fixture
def c(db_url: str) -> Iterator[Any]:
    yield from london_app(db_url)


def london(c: Any, hints: bool) -> dict[str, Any]:
    """A started two-player London table: its code, and each seat's token by seat."""
    r = c.post("/api/tables", json={"game": "london", "name": "Ada", "hints": hints})
    assert r.status_code == 201, r.text
    founded = r.json()
    bob = join(c, founded["code"], "Bob")
    assert c.post(f"/api/seats/{founded['seat_token']}/start").status_code == 200
    tokens = {}
    for token in (founded["seat_token"], bob["seat_token"]):
        tokens[c.get(f"/api/seats/{token}").json()["seat"]] = token
    return {"code": founded["code"], "tokens": tokens}


def awaited(c: Any, table: dict[str, Any]) -> tuple[int, str, str]:
    """The awaited seat's number and token, and the other seat's token."""
    (seat,) = c.get(f"/api/tables/{table['code']}").json()["awaiting"]
    other = next(t for s, t in table["tokens"].items() if s != seat)
    return seat, table["tokens"][seat], other


def log_texts(c: Any, token: str) -> list[str]:
    """The log a seat's page is sent when it opens (the whole log, in its words)."""
    with c.websocket_connect(f"/ws/seats/{token}", headers={"origin": "http://testserver"}) as ws:
        for _ in range(10):
            message = ws.receive_json()
            if message["type"] == "view":
                return [line["text"] for line in message["log"]]
    raise AssertionError("no view was sent")


def test_a_table_founded_without_hints_refuses_one_and_says_so(c: Any) -> None:
    table = london(c, hints=False)
    _, token, _ = awaited(c, table)
    r = c.post(f"/api/seats/{token}/hint")
    assert r.status_code == 403 and r.json()["error"] == "hints_off", r.text
    assert c.get(f"/api/tables/{table['code']}").json()["hints"] is None


def test_a_seat_asking_at_its_decision_gets_the_good_bots_best_moves_with_their_figures(c: Any) -> None:
    table = london(c, hints=True)
    assert c.get(f"/api/tables/{table['code']}").json()["hints"] == {"allowed": True, "asked": {}}
    seat, token, _ = awaited(c, table)
    r = c.post(f"/api/seats/{token}/hint")
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = c.get(f"/api/seats/{token}/moves").json()["moves"]
    assert hint["seat"] == seat and hint["how"] in ("search", "forced", "only_sensible", "rule")
    assert 1 <= len(hint["moves"]) <= 3
    for weighed in hint["moves"]:
        assert weighed["move"] in legal
        assert weighed["label"]  # the prompt's own words for the move
    if hint["how"] == "search":
        assert hint["iterations"] >= sum(w["playouts"] for w in hint["moves"]) > 0
        assert all(0 <= w["result"] <= 1 for w in hint["moves"] if w["result"] is not None)
    assert c.app.state.parlour.bot_pool.decided["hint"] == 1  # worked out in a bot worker


def test_asking_is_public_and_counted_once_per_decision(c: Any) -> None:
    table = london(c, hints=True)
    seat, token, other = awaited(c, table)
    first = c.post(f"/api/seats/{token}/hint").json()
    again = c.post(f"/api/seats/{token}/hint").json()
    assert again["moves"] == first["moves"]  # the same hint, not a second search's
    name = c.get(f"/api/seats/{token}").json()["name"]
    assert log_texts(c, other).count(f"{name} asked for a hint.") == 1
    assert c.get(f"/api/tables/{table['code']}").json()["hints"]["asked"] == {str(seat): 1}


def test_a_seat_that_is_not_awaited_gets_no_hint(c: Any) -> None:
    table = london(c, hints=True)
    _, _, other = awaited(c, table)
    r = c.post(f"/api/seats/{other}/hint")
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn", r.text
    assert not any("hint" in line for line in log_texts(c, other))


def test_a_hint_before_the_game_begins_is_refused(c: Any) -> None:
    r = c.post("/api/tables", json={"game": "london", "name": "Ada", "hints": True})
    token = r.json()["seat_token"]
    r = c.post(f"/api/seats/{token}/hint")
    assert r.status_code == 409 and r.json()["error"] == "not_playing", r.text


def test_hints_must_be_said_yes_or_no_when_founding(c: Any) -> None:
    r = c.post("/api/tables", json={"game": "london", "name": "Ada", "hints": "yes"})
    assert r.status_code == 422, r.text


def test_many_asks_at_once_for_one_decision_take_one_place_in_the_bots_queue(c: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    table = london(c, hints=True)
    seat, token, _ = awaited(c, table)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: c.post(f"/api/seats/{token}/hint"), range(6)))
    assert [r.status_code for r in answers] == [200] * 6
    assert len({str(r.json()["moves"]) for r in answers}) == 1
    assert c.app.state.parlour.bot_pool.decided["hint"] == 1  # one search, however many asked
    assert c.get(f"/api/tables/{table['code']}").json()["hints"]["asked"] == {str(seat): 1}


@pytest.fixture
def got(db_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = Settings(database_url=db_url, public_url=None, engines=("engines.game_of_thrones:ENGINE",),
                        bot_think_seconds=3.0, clock_poll_seconds=3600)  # room on a busy machine
    with TestClient(create_app(settings), base_url="http://testserver") as tc:
        yield tc


def test_a_game_of_thrones_planning_hint_shows_orders_on_one_area_with_the_playouts_it_played(got: Any) -> None:
    r = got.post("/api/tables", json={"game": "game_of_thrones", "name": "Ada", "hints": True})
    founded = r.json()
    for name in ("Bob", "Cy"):
        join(got, founded["code"], name)
    assert got.post(f"/api/seats/{founded['seat_token']}/start").status_code == 200
    token = founded["seat_token"]
    assert got.get(f"/api/seats/{token}").json()["seat"] in got.get(f"/api/tables/{founded['code']}").json()["awaiting"]
    hint = got.post(f"/api/seats/{token}/hint").json()
    legal = got.get(f"/api/seats/{token}/moves").json()["moves"]
    assert hint["how"] == "playouts", hint
    assert 2 <= len(hint["moves"]) <= 3 and len({w["move"]["area"] for w in hint["moves"]}) == 1
    playouts = hint["moves"][0]["playouts"]
    assert playouts >= 2 and all(w["playouts"] == playouts for w in hint["moves"])
    assert hint["iterations"] % playouts == 0 and hint["iterations"] >= len(hint["moves"]) * playouts
    results = [w["result"] for w in hint["moves"]]
    assert all(0 <= x <= 1 for x in results) and results == sorted(results, reverse=True)
    for weighed in hint["moves"]:
        assert weighed["move"] in legal and weighed["label"]  # the planning prompt's own words
    assert hint["seconds"] < 3.0 + 0.5  # the bots' deadline, and the way back
