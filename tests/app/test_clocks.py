"""Clocks: chosen when founding, run for the awaited seats, stored, shown to everyone; a time-out is
a move played through the normal path (stored, then shown; the record verifies), exactly once."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.features.record import verify_record
from app.server.config import Settings
from app.storage.models import utcnow
from app.tables import clock_rules as rules
from engines.registry import load_engines
from tests.support.play import join
from tests.support.server import TALLY
from tests.support.stats import own_stats

FISCHER = {"kind": "fischer", "seconds": 600, "increment": 5, "on_timeout": "pass"}
LONDON = "engines.london:ENGINE"  # its moves within a turn may be taken back
TOWER = "engines.tower_of_london:ENGINE"  # its cards, chosen while the other seat chooses, too


def keeper_client(url: str) -> Any:
    from fastapi.testclient import TestClient

    from app.main import create_app

    # The keeper's own loop looks rarely: the tests move time on and sweep themselves. Bots
    # answer at once (no human-like delay).
    return TestClient(create_app(Settings(database_url=url, engines=(TALLY, LONDON, TOWER), public_url=None,
                                          clock_poll_seconds=3600, bot_delay_seconds=0, bot_think_seconds=0.05)),
                      base_url="http://testserver")


@pytest.fixture
def c(sqlite_url: str) -> Iterator[Any]:
    with keeper_client(sqlite_url) as tc:
        yield tc


@pytest.fixture
def both(db_url: str) -> Iterator[Any]:
    """On SQLite and on PostgreSQL."""
    with keeper_client(db_url) as tc:
        yield tc


def clocked_table(client: Any, clock: dict[str, Any], names: tuple[str, ...] = ("Ada", "Bob"),
                  bot_after: int | None = None, game: str = "tally", **options: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, "name": names[0], "options": options, "clock": clock,
                                         "bot_after_seconds": bot_after})
    assert r.status_code == 201, r.text
    founded = r.json()
    tokens = [founded["seat_token"]] + [join(client, founded["code"], n)["seat_token"] for n in names[1:]]
    assert client.post(f"/api/seats/{tokens[0]}/start").status_code == 200
    by_seat = {client.get(f"/api/seats/{t}").json()["seat"]: t for t in tokens}
    return {"code": founded["code"], "tokens": tokens, "by_seat": by_seat}


def keeper(client: Any) -> Any:
    return client.app.state.parlour.clocks


def later(client: Any, seconds: float) -> None:
    """Move the keeper's time on (the stored moves keep their real moments)."""
    keeper(client).now = lambda: utcnow() + timedelta(seconds=seconds)


def sweep(client: Any) -> int:
    return int(client.portal.call(keeper(client).sweep))


def expire(client: Any, code: str) -> bool:
    """The keeper plays one overdue seat's move (a sweep would go on: moved on by minutes, every
    later decision is overdue too)."""
    parlour = client.app.state.parlour
    live = client.portal.call(parlour.tables.by_code, code)
    return bool(client.portal.call(parlour.clocks.expire, live.id))


def clock_of(client: Any, code: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{code}/clock")
    assert r.status_code == 200, r.text
    return dict(r.json())


def seats_of(clock: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in clock["clock"]["seats"]}


@pytest.mark.parametrize("clock, words", [
    ({"kind": "hourglass", "seconds": 60}, "kind"),
    ({"kind": "fischer", "seconds": 0}, "seconds"),
    ({"kind": "fischer", "seconds": "ten"}, "seconds"),
    ({"kind": "fischer", "seconds": 60, "increment": -1}, "increment"),
    ({"kind": "deadline", "seconds": 60, "increment": 5}, "increment"),
    ({"kind": "deadline", "seconds": 60, "on_timeout": "resign"}, "on_timeout"),
    ({"kind": "deadline", "seconds": 60, "colour": "red"}, "colour"),
    ("fast", "dictionary"),
])
def test_a_clock_that_cannot_be_kept_is_refused_with_a_422(c: Any, clock: Any, words: str) -> None:
    r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "clock": clock})
    assert r.status_code == 422, r.text
    assert r.json()["error"] in ("invalid_clock", "invalid_request")
    assert words in r.json()["message"]


def test_a_table_without_a_clock_shows_none(c: Any) -> None:
    r = c.post("/api/tables", json={"game": "tally", "name": "Ada"})
    code = r.json()["code"]
    join(c, code, "Bob")
    assert clock_of(c, code)["clock"] is None
    c.post(f"/api/seats/{r.json()['seat_token']}/start")
    assert clock_of(c, code)["clock"] is None


def test_the_chess_clock_runs_for_the_awaited_seat_only_and_adds_the_increment(c: Any) -> None:
    t = clocked_table(c, FISCHER)
    shown = clock_of(c, t["code"])
    assert shown["clock"]["kind"] == "fischer" and shown["seq"] == 0
    first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    other = 1 - first
    seats = seats_of(shown)
    assert seats[first]["running"] and not seats[other]["running"]
    assert 595_000 < seats[first]["ms"] <= 600_000 and seats[other]["ms"] == 600_000
    # ten minutes on, the awaited seat has 9 m 30 s left and the other still all its time
    later(c, 30)
    seats = seats_of(clock_of(c, t["code"]))
    assert 565_000 < seats[first]["ms"] <= 570_000 and seats[other]["ms"] == 600_000
    keeper(c).now = utcnow
    token = t["by_seat"][first]
    move = c.get(f"/api/seats/{token}/moves").json()["moves"][0]
    assert c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": move}).status_code == 200
    seats = seats_of(clock_of(c, t["code"]))
    assert not seats[first]["running"] and seats[other]["running"]
    assert 600_000 < seats[first]["ms"] <= 605_000  # the move took moments; 5 s were added


def test_a_time_out_passes_through_the_move_path_and_the_record_still_verifies(both: Any, tmp_path: Path) -> None:
    c = both
    t = clocked_table(c, {"kind": "deadline", "seconds": 86400, "on_timeout": "pass"}, target=21)
    first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    legal = c.get(f"/api/seats/{t['by_seat'][first]}/moves").json()["moves"]
    later(c, 3600)
    sweep(c)
    assert clock_of(c, t["code"])["seq"] == 0, "a day's deadline is not up after an hour"
    later(c, 86400 + 1)
    sweep(c)
    shown = clock_of(c, t["code"])
    assert shown["seq"] >= 1
    assert shown["clock"]["timeouts"][0] == {"seq": 1, "seat": first, "action": "pass"}
    # the first listed move (Tally has no pass) was stored like any other
    record_moves = c.get(f"/api/seats/{t['tokens'][0]}").json()
    assert record_moves["seq"] >= 1
    keeper(c).now = utcnow
    # the rest of the game by hand; its record replays
    while True:
        info = c.get(f"/api/seats/{t['tokens'][0]}").json()
        if info["status"] == "finished":
            break
        token = t["by_seat"][info["awaiting"][0]]
        moves = c.get(f"/api/seats/{token}/moves").json()
        c.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    record = c.get(f"/api/tables/{t['code']}/record").json()
    assert record["moves"][0]["move"] == legal[0] and record["moves"][0]["seat"] == first
    assert verify_record(record, load_engines((TALLY,))) == []
    # and as a player would check it: `python -m app.cli verify`
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "app.cli", "verify", str(path)], capture_output=True, text=True,
                          env={**os.environ, "PARLOUR_ENGINES": TALLY}, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.startswith("OK"), done.stdout + done.stderr
    assert not any(s["running"] for s in clock_of(c, t["code"])["clock"]["seats"])


def bots_decided(client: Any) -> dict[str, int]:
    """The bot pool's answers, by who asked: "seat" (a bot holding a seat) or "clock" (a time-out)."""
    return dict(own_stats(client)["bots"]["decided"])


def test_a_bot_from_the_bot_workers_plays_for_the_seat_whose_time_ran_out(c: Any) -> None:
    t = clocked_table(c, {"kind": "fischer", "seconds": 60, "increment": 0, "on_timeout": "bot_good"})
    first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    assert bots_decided(c) == {}
    parlour = c.app.state.parlour
    table_id = c.portal.call(parlour.tables.by_code, t["code"]).id
    # a minute on for the first decision only: the keeper's own loop, woken by the move, must
    # not find the next seat late too while the test's clock is ahead
    keeper(c).now = lambda: utcnow() + timedelta(seconds=61 if parlour.tables.cached(table_id).seq == 0 else 0)
    assert expire(c, t["code"])
    # the move was chosen by a worker process of the bot pool, the one way a bot decides (the
    # keeper's own loop, woken by the move, may have chosen one too and been refused as stale)
    assert set(bots_decided(c)) == {"clock"} and bots_decided(c)["clock"] >= 1
    keeper(c).now = utcnow
    shown = clock_of(c, t["code"])
    assert shown["seq"] == 1
    assert shown["clock"]["timeouts"] == [{"seq": 1, "seat": first, "action": "bot_good"}]
    seats = seats_of(shown)
    assert seats[first]["ms"] == 0 and not seats[first]["running"]  # its time is spent
    assert seats[1 - first]["running"] and seats[1 - first]["ms"] > 55_000


def test_a_simultaneous_decision_runs_every_awaited_seat_clock_and_times_each_out(both: Any) -> None:
    c = both
    t = clocked_table(c, {"kind": "deadline", "seconds": 120, "on_timeout": "bot_easy"}, ("Ada", "Bob", "Cy"),
                      vote=True)
    seats = seats_of(clock_of(c, t["code"]))
    assert all(s["running"] for s in seats.values()), "every voter's clock runs"
    # one voter answers in time; the two others run out
    token = t["by_seat"][2]
    move = c.get(f"/api/seats/{token}/moves").json()["moves"][0]
    assert c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": move}).status_code == 200
    seats = seats_of(clock_of(c, t["code"]))
    assert not seats[2]["running"] and seats[0]["running"] and seats[1]["running"]
    later(c, 121)
    assert expire(c, t["code"]) and expire(c, t["code"])
    keeper(c).now = utcnow
    shown = clock_of(c, t["code"])
    # The keeper's own loop may go on to the next decision while the test's clock is still
    # ahead of the stored move times, so only this decision's entries (seq 2 and 3) are judged.
    assert shown["seq"] >= 3
    late = sorted(x["seat"] for x in shown["clock"]["timeouts"] if x["seq"] <= 3)
    assert late == [0, 1], "both late voters were played for, once each"


def test_every_seat_and_spectator_is_sent_the_clocks_live(c: Any) -> None:
    t = clocked_table(c, FISCHER)
    with c.websocket_connect(f"/ws/watch/{t['code']}", headers={"origin": "http://testserver"}) as ws:
        got = [ws.receive_json() for _ in range(3)]
        clock = next(m for m in got if m["type"] == "clock")
        assert clock["seq"] == 0 and len(clock["clock"]["seats"]) == 2
        first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
        token = t["by_seat"][first]
        move = c.get(f"/api/seats/{token}/moves").json()["moves"][0]
        c.post(f"/api/seats/{token}/moves", json={"seq": 0, "move": move})
        for _ in range(5):
            m = ws.receive_json()
            if m["type"] == "clock" and m["seq"] == 1:
                break
        else:
            raise AssertionError("no clock after the move")
        assert {s["seat"]: s["running"] for s in m["clock"]["seats"]} == {first: False, 1 - first: True}


# -- a seat a bot holds ---------------------------------------------------------------------------

def test_the_clock_of_a_seat_a_bot_holds_stands_still_and_runs_again_when_its_player_is_back() -> None:
    """Pure rules: the time run until the bot took the seat is spent, the bot's moves cost
    nothing and earn no increment, the seat is never due, and the player's clock runs again from
    the moment they take the seat back."""
    settings = rules.ClockSettings("fischer", 60, increment=5)
    t0 = utcnow()
    at = [t0 + timedelta(seconds=s) for s in range(0, 200, 10)]
    state = rules.begin(settings, [0, 1], [1], t0)
    state = rules.hand_over(settings, state, {1}, [1], at[1])  # seat 1 is a bot's after 10 s
    assert state["remaining"]["1"] == 50_000 and "1" not in state["since"]
    assert rules.due(settings, state) is None
    shown = {s["seat"]: s for s in rules.public(settings, state, [0, 1], at[5])["seats"]}
    assert shown[1] == {"seat": 1, "ms": 50_000, "running": False, "bot": True}
    state = rules.advance(settings, state, [(1, 1, at[2])], [0])  # the bot plays: nothing spent, no bonus
    state = rules.advance(settings, state, [(2, 0, at[3])], [1])  # Ada's 10 s, +5 s
    assert state["remaining"] == {"0": 55_000, "1": 50_000} and set(state["since"]) == set()
    state = rules.hand_over(settings, state, set(), [1], at[6])  # the player is back, awaited
    assert state["held"] == [] and rules.due(settings, state) == at[6] + timedelta(seconds=50)
    state = rules.advance(settings, state, [(3, 1, at[7])], [0])
    assert state["remaining"]["1"] == 45_000  # 10 s spent after coming back, +5 s


def small_move(client: Any, token: str) -> None:
    """The seat plays its smallest card (the game lasts)."""
    legal = client.get(f"/api/seats/{token}/moves").json()
    move = min(legal["moves"], key=lambda m: m.get("card", 0))
    assert client.post(f"/api/seats/{token}/moves", json={"seq": legal["seq"], "move": move}).status_code == 200


def test_a_seat_handed_to_a_bot_shows_its_clock_stopped_and_its_player_gets_it_back_running(c: Any) -> None:
    t = clocked_table(c, FISCHER, bot_after=1, target=51)
    first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    away, present = t["by_seat"][first], t["by_seat"][1 - first]  # the awaited player never came

    def awaits_present() -> bool:
        return 1 - first in c.get(f"/api/seats/{present}").json()["awaiting"]

    with c.websocket_connect(f"/ws/seats/{present}", headers={"origin": "http://testserver"}):
        wait_for(lambda: [p for p in c.get(f"/api/tables/{t['code']}").json()["players"]
                          if p["seat"] == first and p.get("handover")])
        r = c.post(f"/api/seats/{present}/handover", json={"seat": first, "level": "easy"})
        assert r.status_code == 200 and r.json()["handed"], r.text
        # the keeper stops the seat's clock where it stood: shown to everyone as a bot's
        wait_for(lambda: seats_of(clock_of(c, t["code"]))[first]["bot"])
        held = seats_of(clock_of(c, t["code"]))[first]
        assert not held["running"] and 590_000 < held["ms"] < 600_000
        # the bot plays the seat's turns; its time neither runs nor grows (no increment)
        for _ in range(2):
            wait_for(awaits_present)
            small_move(c, present)
        wait_for(awaits_present)
        assert seats_of(clock_of(c, t["code"]))[first] == held
        assert bots_decided(c)["seat"] >= 3
        # never timed out: the keeper holds no moment at which the bot's seat would be due
        live = c.portal.call(c.app.state.parlour.tables.by_code, t["code"])
        kept = c.portal.call(keeper(c).clock, live.id)
        assert rules.held_by_bots(kept.state) == {first} and rules.seat_due(kept.settings, kept.state, first) is None
        # the player opens their seat's address: the seat, and its clock, are theirs again
        assert c.get(f"/seat/{away}").status_code == 200
        wait_for(lambda: not seats_of(clock_of(c, t["code"]))[first]["bot"])
        assert seats_of(clock_of(c, t["code"]))[first] == {**held, "bot": False}  # not awaited: waiting
        small_move(c, present)
        back = seats_of(clock_of(c, t["code"]))[first]
        assert back["running"] and not back["bot"] and held["ms"] - 5_000 < back["ms"] <= held["ms"]


def test_a_bot_move_charged_before_the_keeper_saw_the_handover_costs_the_seat_nothing_more(c: Any) -> None:
    """The keeper may first hear of a seat handed to a bot after the bot's move is stored (another
    process, a busy loop): the seat's clock still stops by that move, which earns no increment."""
    t = clocked_table(c, FISCHER, bot_after=1, target=51)
    first = c.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
    present = t["by_seat"][1 - first]
    hub = c.app.state.parlour.hub
    with c.websocket_connect(f"/ws/seats/{present}", headers={"origin": "http://testserver"}):
        wait_for(lambda: [p for p in c.get(f"/api/tables/{t['code']}").json()["players"]
                          if p["seat"] == first and p.get("handover")])
        hub.listeners.shown.remove(keeper(c)._on_change)  # the keeper hears nothing of the handover
        try:
            assert c.post(f"/api/seats/{present}/handover", json={"seat": first}).json()["handed"]
            wait_for(lambda: 1 - first in c.get(f"/api/seats/{present}").json()["awaiting"])  # the bot played
        finally:
            hub.listeners.shown.append(keeper(c)._on_change)
        held = seats_of(clock_of(c, t["code"]))[first]
        assert held["bot"] and not held["running"] and 580_000 < held["ms"] < 600_000, held


# -- take-backs and time-outs --------------------------------------------------------------------

def play(client: Any, token: str, move: dict[str, Any]) -> int:
    seq = client.get(f"/api/seats/{token}").json()["seq"]
    r = client.post(f"/api/seats/{token}/moves", json={"seq": seq, "move": move})
    assert r.status_code == 200, r.text
    return int(r.json()["seq"])


def take_back(client: Any, token: str) -> Any:
    return client.post(f"/api/seats/{token}/undo", json={"seq": client.get(f"/api/seats/{token}").json()["seq"]})


def first_seat(client: Any, t: dict[str, Any]) -> int:
    return int(client.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0])


def kept(client: Any, code: str) -> Any:
    """The keeper's clocks of the table: settings, state and seq, as stored."""
    parlour = client.app.state.parlour
    live = client.portal.call(parlour.tables.by_code, code)
    return client.portal.call(parlour.clocks.clock, live.id)


def stored(client: Any, code: str) -> list[Any]:
    """The table's stored entries (seq, seat, move, events, created_at), oldest first."""
    from sqlalchemy import select

    from app.storage.models import MoveRecord

    parlour = client.app.state.parlour

    async def read() -> list[Any]:
        live = await parlour.tables.by_code(code)
        async with parlour.sessions() as s:
            return list((await s.execute(
                select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events, MoveRecord.created_at)
                .where(MoveRecord.table_id == live.id).order_by(MoveRecord.seq))).all())

    return list(client.portal.call(read))


def ms(a: Any, b: Any) -> int:
    return int((b - a) / timedelta(milliseconds=1))


def test_a_take_back_returns_the_clocks_to_before_the_move_as_if_it_had_never_been_played() -> None:
    """Pure rules: seat 0's move stopped its clock and started seat 1's; taking it back stops seat
    1's where it stood before the move (its wait never began) and runs seat 0's from when its
    decision began, the time since charged to it; no increment is kept. Charged one entry at a
    time (the clocks row written after each) or both at once (a row behind), the same."""
    fischer = rules.ClockSettings("fischer", 60, increment=5)
    t0 = utcnow()
    at = [t0 + timedelta(seconds=s) for s in range(0, 100, 10)]
    start = rules.begin(fischer, [0, 1], [0], t0)
    moved = rules.advance(fischer, start, [(1, 0, at[1])], [1], points=True)
    assert moved["remaining"] == {"0": 55_000, "1": 60_000} and set(moved["since"]) == {"1"}
    back = rules.advance(fischer, moved, [(2, 0, at[3])], [0], taken_back={2: 0}, points=True)
    assert back["remaining"] == {"0": 60_000, "1": 60_000} and back["since"] == {"0": rules.stamp(t0)}
    shown = {s["seat"]: s for s in rules.public(fischer, back, [0, 1], at[3])["seats"]}
    assert shown[0] == {"seat": 0, "ms": 30_000, "running": True, "bot": False}  # 30 s since t0
    assert shown[1] == {"seat": 1, "ms": 60_000, "running": False, "bot": False}
    at_once = rules.advance(fischer, start, [(1, 0, at[1]), (2, 0, at[3])], [0], taken_back={2: 0}, points=True)
    assert (at_once["remaining"], at_once["since"]) == (back["remaining"], back["since"])
    # a deadline per decision: the decision began at t0, and still ends a minute after it
    deadline = rules.ClockSettings("deadline", 60)
    state = rules.advance(deadline, rules.begin(deadline, [0, 1], [0], t0), [(1, 0, at[1])], [1], points=True)
    state = rules.advance(deadline, state, [(2, 0, at[3])], [0], taken_back={2: 0}, points=True)
    assert rules.due(deadline, state) == t0 + timedelta(seconds=60)


def test_a_take_back_keeps_no_increment_of_the_moves_it_takes_back(both: Any) -> None:
    """Three loans taken and taken back on a 60 s + 30 s chess clock: the seat's clock runs on from
    the turn's start as though none had been taken (it once grew from 59 s to 149 s); the other
    seat's stands where it was."""
    c = both
    t = clocked_table(c, {"kind": "fischer", "seconds": 60, "increment": 30}, game="london")
    first = first_seat(c, t)
    ada = t["by_seat"][first]
    began = kept(c, t["code"]).state["since"][str(first)]
    for _ in range(3):
        play(c, ada, {"type": "take_loan"})
        assert seats_of(clock_of(c, t["code"]))[first]["ms"] > 60_000  # the increment, while the move stands
        assert take_back(c, ada).status_code == 200
    shown = clock_of(c, t["code"])
    seats = seats_of(shown)
    assert shown["seq"] == 6 and seats[first]["running"] and 50_000 < seats[first]["ms"] <= 60_000, seats
    assert seats[1 - first] == {"seat": 1 - first, "ms": 60_000, "running": False, "bot": False}
    state = kept(c, t["code"]).state
    assert state["remaining"] == {"0": 60_000, "1": 60_000} and state["since"] == {str(first): began}


def test_a_take_back_runs_again_the_clock_its_move_stopped_from_when_the_decision_began(both: Any) -> None:
    """Tower of London opens with both seats choosing at once: one chooses (its clock stops, the
    increment added), then takes the choice back. Its clock runs again from the start of the
    decision, the time between charged to it, without the increment; the other seat's runs on
    untouched."""
    c = both
    t = clocked_table(c, {"kind": "fischer", "seconds": 60, "increment": 30}, game="tower_of_london")
    start = kept(c, t["code"]).state
    assert set(start["since"]) == {"0", "1"}, "both seats choose at once"
    ada = t["by_seat"][0]
    play(c, ada, c.get(f"/api/seats/{ada}/moves").json()["moves"][0])
    seats = seats_of(clock_of(c, t["code"]))
    assert not seats[0]["running"] and seats[0]["ms"] > 60_000 and seats[1]["running"]
    assert take_back(c, ada).status_code == 200
    seats = seats_of(clock_of(c, t["code"]))
    assert seats[0]["running"] and seats[1]["running"] and seats[0]["ms"] <= 60_000, seats
    state = kept(c, t["code"]).state
    assert state["since"] == start["since"] and state["remaining"] == {"0": 60_000, "1": 60_000}


def test_a_deadline_runs_from_when_the_decision_began_however_often_a_move_is_taken_back(both: Any) -> None:
    """A move and its take-back about every half second on a 2 s deadline: the seat is timed out
    2 s after its decision began (each take-back once gave it a fresh deadline: never timed out)."""
    c = both
    t = clocked_table(c, {"kind": "deadline", "seconds": 2, "on_timeout": "pass"}, game="london")
    first = first_seat(c, t)
    ada = t["by_seat"][first]
    began = rules.parse_stamp(kept(c, t["code"]).state["since"][str(first)])
    stop = time.monotonic() + 4
    cycles = 0
    while time.monotonic() < stop and not clock_of(c, t["code"])["clock"]["timeouts"]:
        seq = c.get(f"/api/seats/{ada}").json()["seq"]
        if c.post(f"/api/seats/{ada}/moves", json={"seq": seq, "move": {"type": "take_loan"}}).status_code != 200:
            break  # the time-out came first
        if c.post(f"/api/seats/{ada}/undo", json={"seq": seq + 1}).status_code != 200:
            break
        cycles += 1
        sweep(c)
        time.sleep(0.4)
    sweep(c)
    timeouts = clock_of(c, t["code"])["clock"]["timeouts"]
    assert cycles >= 2 and timeouts and timeouts[0]["seat"] == first, f"not timed out after {cycles} take-backs"
    moment = next(e.created_at for e in stored(c, t["code"]) if e.seq == timeouts[0]["seq"])
    assert timedelta(seconds=2) <= moment - began < timedelta(seconds=3.5), moment - began


def test_a_time_out_s_move_is_never_taken_back(both: Any) -> None:
    """London: after the draw the player takes a loan, then the clock plays for them (choosing to
    develop, the first listed), a move that could be taken back had they played it. The take-back
    is refused, over the API and the socket, and again once the table is loaded afresh from the
    database (it once answered 200 and gave the seat a fresh deadline); the log says whose time
    ran out."""
    c = both
    t = clocked_table(c, {"kind": "deadline", "seconds": 3600, "on_timeout": "pass"}, game="london")
    first = first_seat(c, t)
    ada = t["by_seat"][first]
    play(c, ada, {"type": "draw", "from": "deck"})
    seq = play(c, ada, {"type": "take_loan"})
    parlour = c.app.state.parlour
    table_id = c.portal.call(parlour.tables.by_code, t["code"]).id
    # an hour on for this decision only (the keeper's own loop, woken by the time-out, must not
    # find the next decision late too)
    keeper(c).now = lambda: utcnow() + timedelta(seconds=3601 if parlour.tables.cached(table_id).seq == seq else 0)
    assert expire(c, t["code"])
    keeper(c).now = utcnow
    assert [e.move["type"] for e in stored(c, t["code"])][-1] == "choose_action"
    info = c.get(f"/api/seats/{ada}").json()
    assert info["seq"] == seq + 1 and info["awaiting"] == [first] and info["undo"] is False
    since = kept(c, t["code"]).state["since"]
    r = take_back(c, ada)
    assert r.status_code == 409 and r.json()["error"] == "cannot_undo", r.text
    with c.websocket_connect(f"/ws/seats/{ada}", headers={"origin": "http://testserver"}) as ws:
        view = receive_kind(ws, "view")
        assert "undo" not in view
        assert any(line["text"].endswith("time ran out") for line in view["log"] if line["seq"] == seq + 1), view["log"]
        ws.send_json({"type": "undo", "seq": seq + 1})
        assert receive_kind(ws, "error")["error"] == "cannot_undo"
    for cached in parlour.tables.cached_ids():  # loaded afresh, as after a restart or by another process
        assert parlour.tables.forget(cached)
    assert c.get(f"/api/seats/{ada}").json()["undo"] is False
    assert take_back(c, ada).json()["error"] == "cannot_undo"
    shown = clock_of(c, t["code"])
    assert shown["seq"] == seq + 1 and kept(c, t["code"]).state["since"] == since  # no fresh deadline


def test_the_clocks_after_take_backs_are_derived_again_from_the_stored_entries_alone(both: Any) -> None:
    """The clocks row, written after each entry, and the clocks derived from the start out of the
    stored entries and their moments (a row lost or behind: a crash between the move and the row,
    another process) agree after take-backs: each is charged from what was stored."""
    c = both
    t = clocked_table(c, {"kind": "fischer", "seconds": 600, "increment": 30}, game="london")
    first = first_seat(c, t)
    ada = t["by_seat"][first]
    began = rules.parse_stamp(kept(c, t["code"]).state["since"][str(first)])
    play(c, ada, {"type": "take_loan"})
    play(c, ada, {"type": "take_loan"})
    assert take_back(c, ada).status_code == 200
    play(c, ada, {"type": "take_loan"})
    assert take_back(c, ada).status_code == 200  # back to after the first loan again
    entries = stored(c, t["code"])
    assert [e.move for e in entries[2:]] == [{"undo": 1}, {"type": "take_loan"}, {"undo": 1}]
    before = kept(c, t["code"])
    # had only the first loan been taken: its 30 s added, and the seat thinking since it was taken
    loan = entries[0].created_at
    assert before.state["remaining"][str(first)] == 600_000 - ms(began, loan) + 30_000
    assert before.state["since"] == {str(first): rules.stamp(loan)}
    from sqlalchemy import update

    from app.storage.models import TableClock

    parlour = c.app.state.parlour
    table_id = c.portal.call(parlour.tables.by_code, t["code"]).id

    async def lose_the_row() -> None:
        async with parlour.sessions() as s:
            await s.execute(update(TableClock).where(TableClock.table_id == table_id)
                            .values(seq=-1, state={}, due_at=None))
            await s.commit()

    c.portal.call(lose_the_row)
    keeper(c)._known.clear()
    again = kept(c, t["code"])
    assert again.seq == before.seq == 5
    assert (again.state["remaining"], again.state["since"]) == (before.state["remaining"], before.state["since"])


def receive_kind(ws: Any, kind: str, limit: int = 10) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


# -- real server processes: a restart, and two processes on one PostgreSQL ------------------------

def found_over_http(base: str, clock: dict[str, Any], **options: Any) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=20) as h:
        return clocked_table(h, clock, **options)


def wait_for(predicate: Any, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def test_clocks_are_stored_and_a_restarted_server_keeps_and_enforces_them(server_factory: Any, tmp_path: Path) -> None:
    server = server_factory(f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}",
                            extra_env={"CLOCK_POLL_SECONDS": "0.2"})
    chess = found_over_http(server.base, FISCHER)
    first = httpx.get(f"{server.base}/api/seats/{chess['tokens'][0]}").json()["awaiting"][0]
    token = chess["by_seat"][first]
    move = httpx.get(f"{server.base}/api/seats/{token}/moves").json()["moves"][0]
    assert httpx.post(f"{server.base}/api/seats/{token}/moves", json={"seq": 0, "move": move}).status_code == 200
    before = seats_of(httpx.get(f"{server.base}/api/tables/{chess['code']}/clock").json())
    # a deadline of two seconds, and the server goes down at once
    short = found_over_http(server.base, {"kind": "deadline", "seconds": 2, "on_timeout": "pass"})
    server.kill()
    time.sleep(2.5)
    server.start()
    after = httpx.get(f"{server.base}/api/tables/{chess['code']}/clock").json()
    seats = seats_of(after)
    assert after["seq"] == 1
    assert seats[first]["ms"] == before[first]["ms"] and not seats[first]["running"]
    assert seats[1 - first]["running"] and seats[1 - first]["ms"] < 600_000 - 2_000  # it ran while down
    # the deadline that passed while the server was down is played for once it is back
    wait_for(lambda: httpx.get(f"{server.base}/api/tables/{short['code']}/clock").json()["seq"] >= 1)
    shown = httpx.get(f"{server.base}/api/tables/{short['code']}/clock").json()
    assert shown["clock"]["timeouts"][0]["seq"] == 1


@pytest.mark.pg
def test_two_server_processes_play_each_time_out_exactly_once(server_factory: Any, postgres_url: str) -> None:
    """Each time-out is a bot's move (chosen in the bot pool's workers), stored once."""
    env = {"CLOCK_POLL_SECONDS": "0.1", "BOT_THINK_SECONDS": "0.05", "BOT_WORKERS": "1"}
    a = server_factory(postgres_url, extra_env=env)
    b = server_factory(postgres_url, extra_env=env)
    deadline = 1.0
    t = found_over_http(a.base, {"kind": "deadline", "seconds": deadline, "on_timeout": "bot_easy"}, target=51)
    # both processes have the table in memory, and both keepers watch the clocks
    for server in (a, b):
        assert httpx.get(f"{server.base}/api/tables/{t['code']}/clock").status_code == 200
    wait_for(lambda: httpx.get(f"{b.base}/api/tables/{t['code']}/clock").json()["seq"] >= 4, seconds=30)
    # every time-out either process played is a stored move (the journal refuses a second move
    # at a seq): counted between two readings of the table, as the game goes on
    before = httpx.get(f"{a.base}/api/tables/{t['code']}/clock").json()["seq"]
    stats = [httpx.get(f"{s.base}/api/stats").json() for s in (a, b)]
    after = httpx.get(f"{a.base}/api/tables/{t['code']}/clock").json()["seq"]
    played = sum(x["clock_timeouts_played"] for x in stats)
    assert before - 1 <= played <= after, f"{played} time-outs played for {before}..{after} moves"
    for x in stats:  # every time-out a process played, its bot workers chose (a move refused was chosen too)
        assert x["bots"]["decided"].get("clock", 0) >= x["clock_timeouts_played"], x
    from sqlalchemy import create_engine, text

    from app.server.config import sync_url

    engine = create_engine(sync_url(postgres_url))
    with engine.connect() as conn:
        stamps = [r[0] for r in conn.execute(text(
            "SELECT m.created_at FROM moves m JOIN tables t ON t.id = m.table_id WHERE t.code = :c ORDER BY m.seq"),
            {"c": t["code"]})]
    engine.dispose()
    gaps = [(b2 - a2).total_seconds() for a2, b2 in itertools.pairwise(stamps)]
    # each decision had its full second: no process played a seat's next decision early
    assert gaps and min(gaps) >= deadline - 0.05, gaps


@pytest.mark.pg
def test_a_take_back_racing_a_time_out_on_two_server_processes_has_one_winner(server_factory: Any,
                                                                               postgres_url: str) -> None:
    """London on a 2 s deadline, two server processes: the player's take-back (sent to one) and the
    time-out (played by either keeper) race for the same entry. Whatever the interleaving, one is
    stored and the take-back's answer says which (200, or 409 when the time-out came first), the
    time-out follows a take-back at once (no fresh deadline), and neither process takes back a
    time-out's move."""
    from sqlalchemy import create_engine, text

    from app.server.config import sync_url

    env = {"CLOCK_POLL_SECONDS": "0.05"}
    a = server_factory(postgres_url, engines=LONDON, extra_env=env)
    b = server_factory(postgres_url, engines=LONDON, extra_env=env)
    db = create_engine(sync_url(postgres_url))

    def entries(code: str) -> list[Any]:
        with db.connect() as conn:
            return list(conn.execute(text(
                "SELECT m.seq, m.seat, m.move, m.events FROM moves m JOIN tables t ON t.id = m.table_id "
                "WHERE t.code = :c ORDER BY m.seq"), {"c": code}))

    def timed_out(entry: Any) -> bool:
        return any(line["text"].endswith("time ran out") for line in entry.events)

    answers = []
    try:
        with httpx.Client(timeout=20) as h:
            for offset in (-0.1, -0.03, 0.0, 0.03, 0.1):
                t = found_over_http(a.base, {"kind": "deadline", "seconds": 2, "on_timeout": "pass"}, game="london")
                for server in (a, b):  # both have the table in memory; both keepers watch it
                    assert h.get(f"{server.base}/api/tables/{t['code']}/clock").status_code == 200
                first = h.get(f"{a.base}/api/seats/{t['tokens'][0]}").json()["awaiting"][0]
                ada = t["by_seat"][first]
                assert h.post(f"{a.base}/api/seats/{ada}/moves",
                              json={"seq": 0, "move": {"type": "draw", "from": "deck"}}).status_code == 200
                assert h.post(f"{a.base}/api/seats/{ada}/moves",
                              json={"seq": 1, "move": {"type": "take_loan"}}).status_code == 200
                time.sleep(max(0.0, 2 + offset))  # the loan's decision runs out about now
                r = h.post(f"{b.base}/api/seats/{ada}/undo", json={"seq": 2})
                answers.append(r.status_code)
                won = r.status_code == 200
                assert won or (r.status_code == 409 and r.json()["error"] in ("stale", "cannot_undo")), r.text
                wait_for(lambda: len(entries(t["code"])) >= (4 if won else 3), seconds=10)  # noqa: B023
                e = entries(t["code"])
                if won:
                    assert e[2].move == {"undo": 1} and timed_out(e[3]) and e[3].seat == first, e
                else:
                    assert timed_out(e[2]) and not any("undo" in x.move for x in e), e
                for server in (b, a):
                    for _ in range(3):  # "stale" only if the next decision ran out meanwhile
                        seq = h.get(f"{server.base}/api/seats/{ada}").json()["seq"]
                        refused = h.post(f"{server.base}/api/seats/{ada}/undo", json={"seq": seq})
                        if refused.json().get("error") != "stale":
                            break
                    assert refused.status_code == 409 and refused.json()["error"] == "cannot_undo", refused.text
    finally:
        db.dispose()
    print("take-backs racing a time-out, answered:", answers)
