"""Play again: at the end, a new table of the same game, options and clocks; the other players
are invited on their old seat pages, live, and take their seat there in one step."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from tests.support.play import play_one, started_table


def finished(c: Any, **options: Any) -> dict[str, Any]:
    t = started_table(c, ("Ada", "Bob", "Cy"), target=21, **options)
    while c.get(f"/api/seats/{t['tokens'][0]}").json()["status"] != "finished":
        play_one(c, t)
    return t


def test_play_again_founds_the_same_game_and_invites_the_others_live(client: Any) -> None:
    c = client  # on SQLite and on PostgreSQL
    t = finished(c)
    ada, bob, cy = t["tokens"]
    with c.websocket_connect(f"/ws/seats/{bob}", headers={"origin": "http://testserver"}) as ws:
        while ws.receive_json()["type"] != "view":
            pass
        r = c.post(f"/api/seats/{ada}/again")
        assert r.status_code == 201, r.text
        offer = r.json()
        while True:  # Bob's old seat page is told, live
            m = ws.receive_json()
            if m["type"] == "chat":
                break
        assert m["messages"][-1]["name"] == "Ada"
        assert m["messages"][-1]["text"].endswith(f"/join/{offer['code']}")
    new = c.get(f"/api/seats/{offer['seat_token']}").json()
    assert new["status"] == "gathering" and new["founder"] and new["name"] == "Ada"
    assert new["table"]["game"] == "tally"
    assert c.get(f"/api/seats/{cy}/again").json() == {"offered": True, "code": offer["code"], "by": "Ada",
                                                       "status": "gathering"}
    # Bob takes his seat in one step, under the same name; asking twice lands on the same seat
    first = c.post(f"/api/seats/{bob}/again/join")
    assert first.status_code == 201, first.text
    assert c.post(f"/api/seats/{bob}/again/join").json()["seat_token"] == first.json()["seat_token"]
    # Cy presses "Play again" too: she joins Ada's table, no second one is founded
    cy_again = c.post(f"/api/seats/{cy}/again").json()
    assert cy_again["code"] == offer["code"]
    players = c.get(f"/api/tables/{offer['code']}").json()["players"]
    assert [p["name"] for p in players] == ["Ada", "Bob", "Cy"]
    # Ada asking again lands on her own founder's seat
    assert c.post(f"/api/seats/{ada}/again").json()["seat_token"] == offer["seat_token"]
    assert c.post(f"/api/seats/{offer['seat_token']}/start").status_code == 200


def test_the_new_table_keeps_the_options_and_the_clock(sqlite_client: Any) -> None:
    c = sqlite_client
    r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"target": 21},
                                    "clock": {"kind": "deadline", "seconds": 86400, "on_timeout": "pass"}})
    code, ada = r.json()["code"], r.json()["seat_token"]
    bob = c.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()["seat_token"]
    c.post(f"/api/seats/{ada}/start")
    by_seat = {c.get(f"/api/seats/{x}").json()["seat"]: x for x in (ada, bob)}
    t = {"code": code, "tokens": [ada, bob], "by_seat": by_seat}
    while c.get(f"/api/seats/{ada}").json()["status"] != "finished":
        play_one(c, t)
    again = c.post(f"/api/seats/{bob}/again").json()
    clock = c.get(f"/api/tables/{again['code']}/clock").json()["clock"]
    assert clock["kind"] == "deadline" and clock["seconds"] == 86400
    record_options = c.get(f"/api/tables/{code}/record").json()["options"]
    c.post(f"/api/seats/{ada}/again/join")
    c.post(f"/api/seats/{again['seat_token']}/start")
    view = c.get(f"/api/seats/{again['seat_token']}").json()["view"]
    assert view["target"] == record_options["target"] == 21


def test_play_again_waits_for_the_end_and_only_an_offer_can_be_joined(sqlite_client: Any) -> None:
    c = sqlite_client
    t = started_table(c, ("Ada", "Bob"))
    r = c.post(f"/api/seats/{t['tokens'][0]}/again")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    assert c.post(f"/api/seats/{t['tokens'][1]}/again/join").status_code == 404
    assert c.get(f"/api/seats/{t['tokens'][1]}/again").json() == {"offered": False}
    assert c.post("/api/seats/not-a-seat-at-all/again").status_code == 404


def test_the_old_seat_page_offers_the_seat_and_takes_it_with_one_button(sqlite_client: Any) -> None:
    c = sqlite_client
    t = finished(c)
    ada, bob, _ = t["tokens"]
    assert c.get(f"/seat/{bob}/again").status_code == 404  # nothing offered yet
    offer = c.post(f"/api/seats/{ada}/again").json()
    page = c.get(f"/seat/{bob}/again")
    assert page.status_code == 200 and "Ada invites you to play again" in page.text
    assert "Take your seat as Bob" in page.text and offer["code"] in page.text
    refused = c.post(f"/seat/{bob}/again", headers={"origin": "http://evil.example"}, follow_redirects=False)
    assert refused.status_code == 403
    taken = c.post(f"/seat/{bob}/again", headers={"origin": "http://testserver"}, follow_redirects=False)
    assert taken.status_code == 303 and taken.headers["location"].startswith("/seat/")
    # once seated, the offer's page goes straight to the new seat
    again = c.get(f"/seat/{bob}/again", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == taken.headers["location"]
    founder = c.get(f"/seat/{ada}/again", follow_redirects=False)
    assert founder.headers["location"] == f"/seat/{offer['seat_token']}"


def test_three_players_pressing_play_again_at_once_found_one_table_and_all_sit_there(
        db_url: str, server_factory: Any) -> None:
    """One finished table has at most one next table, whoever presses first and on whichever
    server process: every press at once lands at the same new table, and so does "Join" after."""
    # Real concurrency: requests in flight together, on two processes where the database allows
    # several (PostgreSQL), else on one.
    servers = [server_factory(db_url)]
    if db_url.startswith("postgresql"):
        servers.append(server_factory(db_url))
    for _ in range(3):  # the race loses nothing by chance: every round founds one table
        with httpx.Client(base_url=servers[0].base, timeout=30) as c:
            t = finished(c)
        for server in servers[1:]:  # every process holds the finished table
            httpx.get(f"{server.base}/api/seats/{t['tokens'][0]}", timeout=30)

        async def press_at_once(tokens: list[str]) -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=30) as ac:
                return await asyncio.gather(*(ac.post(f"{servers[i % len(servers)].base}/api/seats/{tok}/again")
                                              for i, tok in enumerate(tokens)))

        answers = asyncio.run(press_at_once(t["tokens"]))
        assert [r.status_code for r in answers] == [201, 201, 201], [r.text for r in answers]
        assert len({r.json()["code"] for r in answers}) == 1, "one finished table, one next table"
        code = answers[0].json()["code"]
        with httpx.Client(base_url=servers[-1].base, timeout=30) as c:
            for old, pressed in zip(t["tokens"], answers, strict=True):
                # a seat taken through the other process reaches this one by NOTIFY, a moment later
                for _ in range(50):
                    seat = c.get(f"/api/seats/{pressed.json()['seat_token']}").json()
                    if len(seat["table"]["players"]) == 3:
                        break
                    time.sleep(0.1)
                assert seat["code"] == code and sorted(p["name"] for p in seat["table"]["players"]) == \
                    ["Ada", "Bob", "Cy"]
                # the old seat page offers that table, and "Join" keeps to the seat taken there
                assert c.get(f"/api/seats/{old}/again").json()["code"] == code
                joined = c.post(f"/api/seats/{old}/again/join").json()
                assert joined["code"] == code and joined["seat_token"] == pressed.json()["seat_token"]
