"""My tables: the browser keeps its seat addresses; the server, asked with those tokens, tells the
game, the players, whose turn it is and the last move's time, and keeps no list of its own."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import event

from tests.support.play import found, join, play_one, started_table


def test_the_tables_of_the_seats_a_browser_holds_with_whose_turn_and_the_last_move(sqlite_client: Any) -> None:
    c = sqlite_client
    playing = started_table(c, ("Ada", "Bob"))
    gathering = found(c, "Ada")
    join(c, gathering["code"], "Cy")
    play_one(c, playing)
    ada_playing = playing["tokens"][0]
    held = [ada_playing, gathering["seat_token"], "no-such-seat-token", ada_playing]
    r = c.post("/api/my-tables", json={"seats": held})
    assert r.status_code == 200, r.text
    tables = r.json()["tables"]
    assert [t.get("code") for t in tables] == [playing["code"], gathering["code"], None]
    first = tables[0]
    info = c.get(f"/api/seats/{ada_playing}").json()
    assert first["title"] == "Tally" and first["status"] == "playing" and first["name"] == "Ada"
    assert sorted(first["players"]) == ["Ada", "Bob"]
    awaited = next(p["name"] for p in info["table"]["players"] if p["seat"] == info["awaiting"][0])
    assert first["awaiting"] == [awaited] and first["your_turn"] == (awaited == "Ada")
    assert first["last_move_at"].endswith("Z") and first["seq"] == 1
    assert first["seat_url"] == f"/seat/{ada_playing}"
    second = tables[1]
    assert second["status"] == "gathering" and second["players"] == ["Ada", "Cy"]
    assert second["awaiting"] == [] and second["last_move_at"] is None and second["your_turn"] is False
    assert tables[2] == {"seat_token": "no-such-seat-token", "missing": True}


def test_my_tables_refuses_what_is_not_a_list_of_seat_tokens(sqlite_client: Any) -> None:
    c = sqlite_client
    assert c.post("/api/my-tables", json={"seats": "abc"}).status_code == 422
    assert c.post("/api/my-tables", json={"seats": [1, 2]}).status_code == 422
    assert c.post("/api/my-tables", json={"seats": ["x"] * 101}).status_code == 422
    assert c.post("/api/my-tables", json={"tokens": []}).status_code == 422
    r = c.post("/api/my-tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert c.post("/api/my-tables", json={"seats": []}).json() == {"tables": []}


def test_the_front_page_loads_my_tables_only_from_the_browser(sqlite_client: Any) -> None:
    page = sqlite_client.get("/").text
    assert 'id="my-tables"' in page and "/static/js/my_tables.js" in page
    assert "seat/" not in page  # the server renders no seat address of its own


def test_the_api_docs_describe_time_at_the_table(sqlite_client: Any) -> None:
    spec = sqlite_client.get("/api/openapi.json").json()
    for path in ("/api/my-tables", "/api/tables/{code}/clock", "/api/push/key", "/api/seats/{token}/push",
                 "/api/seats/{token}/again", "/api/seats/{token}/again/join"):
        operations = spec["paths"][path].values()
        assert all(op.get("description") for op in operations), path
    assert "fischer" in str(spec["components"]["schemas"]["FoundIn"])


def test_my_tables_looks_up_all_the_addresses_of_a_request_in_one_query(client: Any) -> None:
    c = client  # on SQLite and on PostgreSQL
    t = started_table(c, ("Ada", "Bob"))
    c.get(f"/api/seats/{t['tokens'][0]}")  # its table is in memory: nothing else to load
    engine = c.app.state.parlour.db.sync_engine
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        held = [*t["tokens"], *(f"no-such-seat-address-{i:02}" for i in range(8))]
        r = c.post("/api/my-tables", json={"seats": held})
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert r.status_code == 200, r.text
    assert [x.get("code") for x in r.json()["tables"]] == [t["code"]] * 2 + [None] * 8
    by_address = [s for s in statements if re.search(r"where.*token_hash", s, re.I | re.S)]
    assert len(by_address) == 1, by_address


def test_unknown_seat_addresses_count_as_wrong_guesses_and_a_braked_address_gets_429(client: Any) -> None:
    c = client
    t = started_table(c, ("Ada", "Bob"))
    guesses = [f"guessed-seat-address-{i:03}" for i in range(100)]
    # one answer, so a browser holding many stale addresses learns to forget them …
    first = c.post("/api/my-tables", json={"seats": guesses})
    assert first.status_code == 200 and all(x["missing"] for x in first.json()["tables"])
    # … and then the address is braked, like one that tried ten wrong table codes
    r = c.post("/api/my-tables", json={"seats": ["guessed-seat-address-100"]})
    assert r.status_code == 429 and r.json()["error"] == "too_many_attempts", r.text
    assert 0 < int(r.headers["retry-after"]) <= 61
    assert c.get("/api/tables/ZZZZZZ").status_code == 429  # one brake for codes and seat addresses
    # the seats it holds are still answered
    r = c.post("/api/my-tables", json={"seats": t["tokens"]})
    assert r.status_code == 200 and [x["code"] for x in r.json()["tables"]] == [t["code"]] * 2


def test_wrong_table_codes_brake_the_lookup_of_unknown_seat_addresses(sqlite_client: Any) -> None:
    c = sqlite_client
    t = started_table(c, ("Ada", "Bob"))
    for i in range(10):
        assert c.get(f"/api/tables/QQQQ{i:02}").status_code == 404
    assert c.post("/api/my-tables", json={"seats": ["no-such-seat-address"]}).status_code == 429
    r = c.post("/api/my-tables", json={"seats": [t["tokens"][1]]})
    assert r.status_code == 200 and r.json()["tables"][0]["code"] == t["code"]
