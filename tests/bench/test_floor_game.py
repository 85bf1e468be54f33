"""The floor benchmark's game (bench/floor_game.py): it must stay a real game the server hosts, so
that what it measures is the server's path for any move."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from app.storage.db import migrate
from bench import floor, load, move_path
from bench.floor_game import ENGINE, PADDED
from engines.base import IllegalMove


def test_relay_lists_two_passes_to_the_seat_to_play_and_none_to_the_others() -> None:
    state = ENGINE.new_game(4, 1, {})
    assert [len(ENGINE.legal_moves(state, seat)) for seat in range(4)] == [2, 0, 0, 0]
    with pytest.raises(IllegalMove):
        ENGINE.play(state, 1, {"type": "pass", "hand": 0})
    ENGINE.play(state, 0, {"type": "pass", "hand": 1})
    assert [len(ENGINE.legal_moves(state, seat)) for seat in range(4)] == [0, 2, 0, 0]


def test_relay_ends_after_its_length_and_the_last_seat_to_pass_wins() -> None:
    state = ENGINE.new_game(3, 1, {"length": 200})
    for n in range(200):
        assert ENGINE.result(state) is None
        ENGINE.play(state, n % 3, ENGINE.legal_moves(state, n % 3)[n % 2])
    result = ENGINE.result(state)
    assert result is not None and result.winners == (199 % 3,)


def test_the_padded_relays_views_weigh_about_what_a_london_seats_do_in_mid_game() -> None:
    plain, padded = ENGINE.new_game(4, 1, {}), PADDED.new_game(4, 1, {})
    assert len(orjson.dumps(ENGINE.view(plain, 0))) < 300
    assert 3000 < len(orjson.dumps(PADDED.view(padded, 0))) < 3400


def test_quick_load_with_the_node_client_plays_relay_through_the_whole_server() -> None:
    result = load.main(["--quick", "--no-pin", "--tables", "4", "--client", "node", "--game", "relay"])
    assert result["errors"] == 0, result["error_kinds"]
    assert result["moves_s"] > 0
    check = result["moves_check"]
    assert check["moves_stored"] > 0 and check["moves_stored"] == check["moves_answered"], check


def test_the_move_path_measures_relay_in_process(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'parlour.db'}"
    migrate(url)
    per_move = asyncio.run(move_path.run(url, 40, 2, 1, "relay"))
    assert len(per_move) == 2 and all(t > 0 for t in per_move)


def test_the_floors_table_gives_each_servers_cost_a_move_and_the_cost_that_half_again_the_peer_allows() -> None:
    def result(moves_s: float, cpu: float) -> dict[str, float]:
        return {"moves_s": moves_s, "server_cpu_pct": cpu, "errors": 0}

    got = {"peer": [result(1000, 100), result(2000, 80)], "london": [result(1500, 90), result(2000, 100)],
           "relay": [result(2500, 100), result(2500, 100)], "relay_padded": [result(2000, 100), result(2000, 100)]}
    assert floor.us_per_move(result(1500, 90)) == pytest.approx(600)
    text = floor.document(got, 10, 2, 15)
    london = next(line for line in text.splitlines() if line.startswith("| ours, London"))
    assert "| 1,750 (1,500–2,000) |" in london and "| 550 (500–600) |" in london  # µs a move
    assert "| 1.25 (1.00–1.50) |" in london  # moves/s ratio taken round by round
    # the peer's cost a move ÷ 1.5: 1,000 µs / 1.5 = 667 µs and 400 µs / 1.5 = 267 µs
    assert "÷ 1.5: 467 (267–667) µs" in text
