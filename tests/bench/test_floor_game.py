"""The floor benchmark's game (bench/floor_game.py): it must stay a real game the server hosts, so
that what it measures is the server's path for any move."""

from __future__ import annotations

import orjson
import pytest

from bench import load
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
