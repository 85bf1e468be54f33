"""The public JSON API, on SQLite and on PostgreSQL."""

from __future__ import annotations

import gc
import re

from app.storage.tokens import CODE_ALPHABET
from tests.support.play import awaited_token, found, join, play_one, started_table
from tests.support.stats import own_stats


def test_games_lists_hosted_games_with_seat_counts_and_options(client):
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == ["tally"]
    tally = games[0]
    assert (tally["title"], tally["min_seats"], tally["max_seats"]) == ("Tally", 2, 4)
    assert {o["id"] for o in tally["options"]} == {"target", "vote"}


def test_found_returns_code_invite_and_seat_addresses(client):
    body = found(client)
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", body["code"])
    assert body["invite_url"] == f"http://testserver/join/{body['code']}"
    assert body["seat_url"] == f"http://testserver/seat/{body['seat_token']}"
    assert len(body["seat_token"]) >= 22  # at least 128 random bits


def test_table_summary_lists_players_and_status(client):
    body = found(client, "Ada")
    join(client, body["code"], "Bob")
    t = client.get(f"/api/tables/{body['code']}").json()
    assert t["status"] == "gathering"
    assert [p["name"] for p in t["players"]] == ["Ada", "Bob"]
    assert (t["min_seats"], t["max_seats"], t["game"]) == (2, 4, "tally")


def test_codes_are_case_insensitive(client):
    body = found(client)
    assert client.get(f"/api/tables/{body['code'].lower()}").status_code == 200
    r = client.post(f"/api/tables/{body['code'].lower()}/join", json={"name": "Bob"})
    assert r.status_code == 201


def test_start_draws_every_seat_once_and_views_appear(client):
    t = started_table(client, ("Ada", "Bob", "Cy"))
    assert sorted(t["by_seat"]) == [0, 1, 2]
    seat = client.get(f"/api/seats/{t['tokens'][0]}").json()
    assert seat["status"] == "playing" and seat["seq"] == 0 and "view" in seat


def test_only_the_founder_may_start(client):
    body = found(client, "Ada")
    bob = join(client, body["code"], "Bob")
    r = client.post(f"/api/seats/{bob['seat_token']}/start")
    assert r.status_code == 403
    assert r.json()["error"] == "not_founder"
    assert r.json()["message"] == "Only the player who founded the table can start it."
    assert client.get(f"/api/tables/{body['code']}").json()["status"] == "gathering"


def test_start_needs_the_minimum_number_of_players(client):
    body = found(client, "Ada")
    r = client.post(f"/api/seats/{body['seat_token']}/start")
    assert r.status_code == 409 and r.json()["error"] != ""
    assert r.json()["message"] == "Tally needs 2 to 4 players; 1 have joined."


def test_a_full_table_refuses_another_player(client):
    body = found(client, "A")
    for n in ("B", "C", "D"):
        join(client, body["code"], n)
    r = client.post(f"/api/tables/{body['code']}/join", json={"name": "E"})
    assert r.status_code == 409 and r.json()["error"] == "table_full"
    assert len(client.get(f"/api/tables/{body['code']}").json()["players"]) == 4


def test_a_started_table_refuses_new_players(client):
    t = started_table(client)
    r = client.post(f"/api/tables/{t['code']}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "already_started"


def test_names_are_trimmed_and_must_be_1_to_24_characters(client):
    body = found(client, "  Ada   Lovelace  ")
    assert client.get(f"/api/seats/{body['seat_token']}").json()["name"] == "Ada Lovelace"
    for bad in ("", "   ", "x" * 25, None, 12, "bell\x07"):
        r = client.post(f"/api/tables/{body['code']}/join", json={"name": bad})
        assert r.status_code == 422, bad
        assert r.json()["error"] == "invalid_name" and "name" in r.json()["message"].lower()
    assert client.post(f"/api/tables/{body['code']}/join", json={"name": "y" * 24}).status_code == 201


def test_names_are_unique_within_a_table_ignoring_case(client):
    body = found(client, "Ada")
    r = client.post(f"/api/tables/{body['code']}/join", json={"name": "ada"})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"


def test_unknown_code_and_unknown_seat_are_clear_404s(client):
    r = client.get("/api/tables/ZZZZZZ")
    assert r.status_code == 404 and r.json()["error"] == "unknown_table"
    r = client.get("/api/seats/not-a-real-token-at-all")
    assert r.status_code == 404 and r.json()["error"] == "unknown_seat"
    r = client.post("/api/seats/not-a-real-token-at-all/start")
    assert r.status_code == 404 and r.json()["error"] == "unknown_seat"


def test_repeated_failed_code_lookups_are_slowed_down(client):
    for _ in range(10):
        r = client.get("/api/tables/ZZZZZZ")
        assert r.status_code == 404 and r.json()["error"] == "unknown_table"
    r = client.get("/api/tables/ZZZZZZ")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert r.json()["error"] == "too_many_attempts"


def test_unknown_game_and_bad_options_are_refused(client):
    r = client.post("/api/tables", json={"game": "chess", "name": "Ada"})
    assert r.status_code == 422 and r.json()["error"] == "unknown_game"
    r = client.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"target": 7}})
    assert r.status_code == 422 and r.json()["error"] == "invalid_options"
    r = client.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"colour": 1}})
    assert r.status_code == 422 and r.json()["error"] == "invalid_options"
    assert "unknown option 'colour'" in r.json()["message"]


def test_malformed_json_is_a_clear_error(client):
    r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json() == {"error": "invalid_request", "message": "The request body is not valid JSON."}


def test_bodies_over_64_kib_are_refused(client):
    body = found(client)
    r = client.post(f"/api/tables/{body['code']}/join", json={"name": "x" * 70000})
    assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_legal_moves_are_listed_only_for_the_awaited_seat(client):
    t = started_table(client)
    token, seq = awaited_token(client, t)
    other = next(tok for tok in t["tokens"] if tok != token)
    assert client.get(f"/api/seats/{other}/moves").json() == {"seq": seq, "moves": []}
    moves = client.get(f"/api/seats/{token}/moves").json()["moves"]
    assert moves and all(m["type"] == "play" for m in moves)


def test_every_listed_move_is_accepted(client):
    """Whole games in which the move played at each turn goes round the listed ones (first,
    second, …), each answered 200 with the next seq: every position of the list is exercised,
    not only the first move."""
    accepted = set()
    for game in range(4):
        t = started_table(client, ("Ada", "Bob", "Cy"), vote=True)
        for turn in range(200):
            summary = client.get(f"/api/tables/{t['code']}").json()
            if summary["status"] == "finished":
                break
            for seat in summary["awaiting"]:
                token = t["by_seat"][seat]
                listed = client.get(f"/api/seats/{token}/moves").json()
                i = (turn + game + seat) % len(listed["moves"])
                r = client.post(f"/api/seats/{token}/moves", json={"seq": listed["seq"], "move": listed["moves"][i]})
                assert r.status_code == 200 and r.json() == {"seq": listed["seq"] + 1}, r.text
                accepted.add(i)
        assert client.get(f"/api/tables/{t['code']}").json()["status"] == "finished"
    assert accepted == {0, 1, 2}  # a hand has three cards: every position was played


def test_a_stale_move_gets_409_and_changes_nothing(client):
    t = started_table(client)
    play_one(client, t)
    token, seq = awaited_token(client, t)
    move = client.get(f"/api/seats/{token}/moves").json()["moves"][0]
    r = client.post(f"/api/seats/{token}/moves", json={"seq": seq - 1, "move": move})
    assert r.status_code == 409 and r.json()["error"] == "stale" and r.json()["seq"] == seq
    assert client.get(f"/api/seats/{token}").json()["seq"] == seq


def test_an_illegal_move_gets_422_naming_the_rule_and_changes_nothing(client):
    t = started_table(client)
    token, seq = awaited_token(client, t)
    before = client.get(f"/api/seats/{token}").json()["view"]
    r = client.post(f"/api/seats/{token}/moves", json={"seq": seq, "move": {"type": "play", "card": 99}})
    assert r.status_code == 422
    assert r.json()["error"] == "illegal_move" and r.json()["rule"] == "Tally rule 2: play a card"
    assert r.json()["message"] == "Play a card from your hand."
    after = client.get(f"/api/seats/{token}").json()
    assert after["view"] == before and after["seq"] == seq


def test_an_unknown_move_type_is_refused(client):
    t = started_table(client)
    token, seq = awaited_token(client, t)
    r = client.post(f"/api/seats/{token}/moves", json={"seq": seq, "move": {"type": "castle"}})
    assert r.status_code == 422 and r.json()["error"] == "unknown_move"
    assert r.json()["message"] == "Unknown move 'castle': Tally moves are vote, play."


def test_a_move_out_of_turn_is_refused(client):
    t = started_table(client)
    token, seq = awaited_token(client, t)
    other = next(tok for tok in t["tokens"] if tok != token)
    r = client.post(f"/api/seats/{other}/moves", json={"seq": seq, "move": {"type": "play", "card": 1}})
    assert r.status_code == 422 and r.json()["error"] == "not_your_turn"
    assert "the table awaits" in r.json()["message"]


def test_malformed_move_payloads_are_refused(client):
    t = started_table(client)
    token, seq = awaited_token(client, t)
    for body, error, words in (
        ({"seq": "1", "move": {"type": "play"}}, "invalid_request", "seq"),
        ({"seq": seq}, "invalid_request", "move"),
        ({"seq": seq, "move": []}, "invalid_request", "move"),
        ({"seq": seq, "move": {"card": 1}}, "malformed_move", 'object with a "type"'),
        ({"seq": seq, "move": {"type": 5}}, "malformed_move", 'object with a "type"'),
        ({"seq": seq, "move": {"type": "play"}}, "malformed_move", "needs 'card'"),
        ({"seq": seq, "move": {"type": "play", "card": True}}, "malformed_move", "'card' must be a whole number"),
        ({"seq": seq, "move": {"type": "play", "card": 1, "x": 2}}, "malformed_move", "no field 'x'"),
    ):
        r = client.post(f"/api/seats/{token}/moves", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"] == error and words in r.json()["message"], (body, r.json())
    assert client.get(f"/api/seats/{token}").json()["seq"] == seq


def test_moves_before_the_start_are_refused(client):
    body = found(client)
    r = client.post(f"/api/seats/{body['seat_token']}/moves", json={"seq": 0, "move": {"type": "play"}})
    assert r.status_code == 409 and r.json()["error"] == "not_started"


def test_a_game_played_to_the_end_finishes_and_refuses_more_moves(client):
    t = started_table(client, target=21)
    for _ in range(40):
        status = client.get(f"/api/tables/{t['code']}").json()
        if status["status"] == "finished":
            break
        play_one(client, t)
    status = client.get(f"/api/tables/{t['code']}").json()
    assert status["status"] == "finished" and status["result"]["winners"]
    assert status["seed"]  # revealed at the end
    token = t["tokens"][0]
    r = client.post(f"/api/seats/{token}/moves", json={"seq": status["seq"], "move": {"type": "play", "card": 1}})
    assert r.status_code == 409 and r.json()["error"] == "finished"


def test_the_seed_stays_secret_until_the_end(client):
    t = started_table(client)
    summary = client.get(f"/api/tables/{t['code']}").json()
    assert summary["seed"] is None and len(summary["seed_hash"]) == 64
    r = client.get(f"/api/tables/{t['code']}/record")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"


def test_healthz(client):
    assert client.get("/healthz").json() == {"status": "ok"}


def test_stats_report_move_times_and_commit_batching(client):
    t = started_table(client)
    for _ in range(3):
        play_one(client, t)
    stats = own_stats(client)
    assert stats["moves"]["moves"] == 3 and stats["moves"]["p50_ms"] > 0
    # where a move's time went: waiting for its table, the engine, the commit, the views
    parts = stats["moves"]["parts"]
    assert set(parts) == {"held", "applied", "stored", "shown"}
    assert all(parts[p]["p50_ms"] >= 0 for p in parts)
    assert sum(parts[p]["p50_ms"] for p in parts) <= stats["moves"]["max_ms"] * 4
    assert stats["commits"]["write"]["recent"] == stats["commits"]["batches"]  # each transaction timed
    assert stats["loop_lag"]["recent"] >= 1 and stats["loop_lag"]["p50_ms"] >= 0  # the loop's timer ran
    gc.collect()  # a full pass of the collector is timed
    assert own_stats(client)["collector"]["gen2"]["recent"] >= 1
    assert stats["commits"]["moves"] == 3 and stats["commits"]["batches"] >= 1
    assert stats["tables_in_memory"] == 1


def test_a_games_fixed_data_is_served_once_over_http_and_cached(client):
    t = started_table(client)
    r = client.get(f"/api/tables/{t['code']}/static")
    assert r.status_code == 200 and r.json() == {}  # Tally has no fixed data
    assert "max-age" in r.headers["cache-control"] and r.headers["etag"]
    body = found(client)
    assert client.get(f"/api/tables/{body['code']}/static").status_code == 409
