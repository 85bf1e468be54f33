"""The load benchmark's quick mode, so it never rots: real servers, real sockets, London."""

from __future__ import annotations

from typing import Any

import pytest

from bench import load
from tests.conftest import reset_postgres


def test_quick_load_on_sqlite_plays_london_without_errors(capsys):
    result = load.main(["--quick", "--no-pin", "--tables", "4"])
    assert result["errors"] == 0, result["error_kinds"]
    assert result["moves_s"] > 0 and result["rtt_p99_ms"] > 0
    assert "round trip ms" in capsys.readouterr().out


def test_quick_load_on_postgres_with_two_processes_without_errors(postgres_server):
    reset_postgres(postgres_server)
    result = load.main(["--quick", "--no-pin", "--tables", "4", "--db", "postgres", "--processes", "2",
                        "--database-url", postgres_server])
    assert result["errors"] == 0, result["error_kinds"]
    assert result["moves_s"] > 0


def test_quick_load_with_the_node_client_plays_game_of_thrones_and_reports_its_own_lateness(capsys):
    result = load.main(["--quick", "--no-pin", "--tables", "4", "--client", "node", "--game", "game_of_thrones"])
    assert result["errors"] == 0, result["error_kinds"]
    assert result["moves_s"] > 0 and result["rtt_p99_ms"] > 0
    assert result["client_late_max_ms"] is not None and result["client_late_max_ms"] >= result["client_late_p99_ms"]
    out = capsys.readouterr().out
    assert "the load client's own lateness" in out
    # the host's speed was watched in the window, and the round trips away from its slow spells
    # are every measured round trip but those in a spell
    assert result["canary_piece_ms"] > 0 and "the host's slow spells" in out
    away = result["rtt_outside_spells"]
    assert 0 < away["moves"] <= away["of"] and away["p50_ms"] <= away["max_ms"]


def kill_run(postgres_server: str, client: str, signal: str) -> dict[str, Any]:
    """Two processes on PostgreSQL, the second stopped 1.5 s into a 4 s window."""
    reset_postgres(postgres_server)
    return load.main(["--no-pin", "--client", client, "--tables", "4", "--think", "50", "--duration", "4",
                      "--warmup", "0.5", "--db", "postgres", "--processes", "2", "--database-url", postgres_server,
                      "--kill-one-after", "1.5", "--kill-signal", signal])


def assert_no_move_lost_or_doubled(result: dict[str, Any]) -> None:
    check = result["moves_check"]
    assert check["tables"] >= 4 and check["moves_stored"] > 0
    assert check["moves_stored"] == check["moves_answered"], check
    assert (check["lost"], check["doubled"], check["gaps"], check["unanswered"]) == (0, 0, 0, 0), check


@pytest.mark.pg
def test_the_node_load_client_reconnects_after_a_process_is_killed_and_no_move_is_lost_or_doubled(
        postgres_server: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = kill_run(postgres_server, "node", "kill")
    assert result["killed"]["signal"] == "kill"
    # the seats on the killed process (half of each table's) lost their sockets without a close
    # frame, came back on the other process and were shown the table again
    assert result["drops"] >= 4 and set(result["drop_codes"]) == {"1006"}, result["drop_codes"]
    assert result["reconnects"] >= result["drops"]
    assert result["back_max_ms"] is not None and result["back_max_ms"] < 5000
    assert result["errors"] == 0, result["error_kinds"]
    assert_no_move_lost_or_doubled(result)
    assert "lost 0, doubled 0, gaps 0" in capsys.readouterr().out


@pytest.mark.pg
def test_the_python_load_client_reconnects_after_a_process_stops_gracefully_and_no_move_is_lost_or_doubled(
        postgres_server: str) -> None:
    result = kill_run(postgres_server, "python", "term")
    # SIGTERM: the process closed its sockets with 1012 (going away), and they came back elsewhere
    assert result["drops"] >= 4 and set(result["drop_codes"]) == {"1012"}, result["drop_codes"]
    assert result["reconnects"] >= result["drops"]
    assert result["errors"] == 0, result["error_kinds"]
    assert_no_move_lost_or_doubled(result)
