"""The load benchmark's quick mode, so it never rots: real servers, real sockets, London."""

from __future__ import annotations

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
