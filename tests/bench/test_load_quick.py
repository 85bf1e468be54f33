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
