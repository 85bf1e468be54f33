"""Replays: a finished game step by step, rebuilt from its stored moves; the public view for
anyone, each player's own view with their seat's address; nothing of a running game."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.features.replays import build_book, step
from app.main import create_app
from app.play.live import LiveTable, PlayerInfo
from app.play.takeback import History
from app.server.config import Settings
from engines.base import new_game
from engines.london import ENGINE as LONDON
from engines.registry import load_engines
from tests.support.play import started_pair

GAMES = ("engines.london:ENGINE", "engines.tower_of_london:ENGINE")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from app.storage.db import migrate

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('replays') / 'parlour.db'}"
    migrate(url)
    with TestClient(create_app(Settings(database_url=url, engines=GAMES, public_url=None)),
                    base_url="http://testserver") as c:
        yield c


def started(client: TestClient, game: str = "tower_of_london") -> dict[str, Any]:
    return started_pair(client, game)


@pytest.fixture(scope="module")
def finished(client: TestClient) -> dict[str, Any]:
    """A two-player Tower of London played to its end (with a take-back), and its record."""
    t = started(client)
    took_back = False
    while True:
        info = client.get(f"/api/seats/{t['by_seat'][0]}").json()
        if info["status"] == "finished":
            break
        who = info["awaiting"][0]
        if info["undo"] and not took_back:
            assert client.post(f"/api/seats/{t['by_seat'][0]}/undo", json={"seq": info["seq"]}).status_code == 200
            took_back = True
            continue
        moves = client.get(f"/api/seats/{t['by_seat'][who]}/moves").json()
        r = client.post(f"/api/seats/{t['by_seat'][who]}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
        assert r.status_code == 200, r.text
    assert took_back
    t["record"] = client.get(f"/api/tables/{t['code']}/record").json()
    return t


def replayed_views(record: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """Every step's view, straight from the record (the engine, not the server's replay)."""
    engine = load_engines(GAMES)[record["game"]]
    state = new_game(engine, len(record["seats"]), int(record["seed"], 16), record["options"],
                     version=record["rules_version"])
    h = History(engine, state)
    out = [engine.view(h.state, seat)]
    for m in record["moves"]:
        h.follow(m["seq"], m["seat"], m["move"])
        out.append(engine.view(h.state, seat))
    return out


def test_a_running_games_replay_is_refused_everywhere(client):
    t = started(client)
    tok = t["by_seat"][0]
    for url in (f"/api/tables/{t['code']}/replay", f"/api/tables/{t['code']}/replay/0",
                f"/api/seats/{tok}/replay", f"/api/seats/{tok}/replay/0"):
        r = client.get(url)
        assert r.status_code == 403 and r.json()["error"] == "not_finished", url
    for url in (f"/replay/{t['code']}", f"/seat/{tok}/replay"):
        r = client.get(url)
        assert r.status_code == 403 and "replay opens when it ends" in r.text and "boot" not in r.text


def test_a_finished_game_replays_step_by_step_in_the_public_view(client, finished):
    code, record = finished["code"], finished["record"]
    book = client.get(f"/api/tables/{code}/replay").json()
    assert [s["seq"] for s in book["steps"]] == [m["seq"] for m in record["moves"]]
    assert sum(s["undo"] for s in book["steps"]) == 1
    assert [r["label"] for r in book["rounds"]] == ["Round 1", "Round 2", "Round 3"][:len(book["rounds"])]
    assert book["rounds"][0]["seq"] == 0 and len(book["rounds"]) >= 2
    expected = replayed_views(record, None)
    for seq in sorted({0, 1, 2, len(expected) // 2, len(expected) - 1}):
        got = client.get(f"/api/tables/{code}/replay/{seq}").json()
        assert got["view"] == expected[seq], f"step {seq}"
    last = client.get(f"/api/tables/{code}/replay/{len(expected) - 1}").json()
    assert last["result"] == record["result"] and last["awaiting"] == []
    assert client.get(f"/api/tables/{code}/replay/{len(expected)}").status_code == 404
    assert client.get(f"/api/tables/{code}/replay/-1").status_code == 404
    assert client.get(f"/api/tables/{code}/replay/x").status_code == 422


def test_each_player_steps_through_their_own_seats_view_with_their_seat_address(client, finished):
    code, record = finished["code"], finished["record"]
    for seat, tok in finished["by_seat"].items():
        expected = replayed_views(record, seat)
        for seq in (1, len(expected) // 3, len(expected) - 1):
            got = client.get(f"/api/seats/{tok}/replay/{seq}").json()
            assert got["view"] == {**expected[seq], "prompt": None} and got["seat"] == seat
        own = client.get(f"/api/seats/{tok}/replay").json()
        assert any(line.startswith("You chose") for s in own["steps"] for line in s["log"])
    public = client.get(f"/api/tables/{code}/replay").json()
    assert not any(line.startswith("You ") for s in public["steps"] for line in s["log"])
    assert client.get("/api/seats/not-a-seat-token/replay/0").status_code == 404


def test_the_replay_pages_are_served_with_the_games_renderer(client, finished):
    code, tok = finished["code"], finished["by_seat"][1]
    page = client.get(f"/replay/{code}")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text
    assert f'"api": "/api/tables/{code}/replay"' in page.text and '"seat": null' in page.text
    mine = client.get(f"/seat/{tok}/replay")
    assert mine.status_code == 200 and f"/api/seats/{tok}/replay" in mine.text and '"seat": 1' in mine.text
    assert mine.headers["cache-control"] == "no-store"


def test_a_long_london_game_replays_in_milliseconds_a_step():
    """A four-player London played to the end by random listed moves (about a thousand entries):
    the book is built once, then a step is a decode, at most CHECKPOINT_EVERY - 1 moves and a
    view. Timings on a busy machine are upper bounds."""
    rng = random.Random(11)
    state = LONDON.new_game(4, 0xBEEF, {})
    rows = []
    while LONDON.result(state) is None:
        seat = next(iter(LONDON.to_act(state)))
        move = rng.choice(LONDON.legal_moves(state, seat))
        LONDON.play(state, seat, move)
        rows.append(SimpleNamespace(seq=len(rows) + 1, seat=seat, move=move, events=[]))
    live = LiveTable(id=1, code="LONG", game="london", engine=LONDON, options={}, status="finished",
                     seed=format(0xBEEF, "x"), seed_hash="", rules_version=LONDON.rules_version,
                     players=[PlayerInfo(i, f"P{i}", i, i, i == 0, f"h{i}") for i in range(4)])
    started = time.perf_counter()
    book = build_book(live, rows)
    built = time.perf_counter() - started
    times = []
    for seq in rng.sample(range(len(rows) + 1), 60):
        t0 = time.perf_counter()
        got = step(live, book, seq, None)
        times.append(time.perf_counter() - t0)
        assert got["seq"] == seq
    assert step(live, book, len(rows), None)["result"] is not None
    print(f"London, {len(rows)} entries: book {built * 1000:.0f} ms, step median "
          f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    assert len(rows) > 500
    assert max(times) < 0.5, "a step must cost milliseconds, not seconds"


def test_rounds_come_from_the_engine_else_the_log_else_move_numbers():
    from tests.support.tinygame import ENGINE as TALLY

    rng = random.Random(4)
    state = TALLY.new_game(2, 21, {})
    rows = []
    while TALLY.result(state) is None:
        seat = next(iter(TALLY.to_act(state)))
        move = rng.choice(TALLY.legal_moves(state, seat))
        TALLY.play(state, seat, move)
        rows.append(SimpleNamespace(seq=len(rows) + 1, seat=seat, move=move, events=[{"text": "a move"}]))
    live = LiveTable(id=2, code="TALLY", game="tally", engine=TALLY, options={}, status="finished",
                     seed=format(21, "x"), seed_hash="", players=[PlayerInfo(i, f"P{i}", i, i, i == 0, f"t{i}")
                                                                  for i in range(2)])
    assert build_book(live, rows).rounds == [{"label": "Move 0", "seq": 0}]  # Tally has no rounds
    rows[2].events = [{"text": "Round 2 begins"}]  # as A Game of Thrones logs it
    assert build_book(live, rows).rounds == [{"label": "The deal", "seq": 0}, {"label": "Round 2", "seq": 3}]
    london = LiveTable(id=3, code="LON", game="london", engine=LONDON, options={}, status="finished",
                       seed="1", seed_hash="", rules_version=LONDON.rules_version,
                       players=[PlayerInfo(i, f"P{i}", i, i, i == 0, f"l{i}") for i in range(2)])
    s = LONDON.new_game(2, 1, {})
    turn = [{"type": "draw", "from": "deck"}, {"type": "choose_action", "action": "run_city"},
            {"type": "end_action"}, {"type": "end_turn"}]
    rows = []
    for seat in (0, 1):
        for m in turn:
            LONDON.play(s, seat, m)
            rows.append(SimpleNamespace(seq=len(rows) + 1, seat=seat, move=m, events=[]))
    # London's round: every player's turn once; round 2 begins with the second player's end of turn
    assert build_book(london, rows).rounds == [{"label": "Round 1", "seq": 0}, {"label": "Round 2", "seq": 8}]
