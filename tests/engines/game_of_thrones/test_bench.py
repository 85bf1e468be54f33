"""The engine benchmark's quick mode, so it never rots: a few checked random games."""

from __future__ import annotations

from bench import game_of_thrones_engine as bench


def test_quick_benchmark_plays_checked_games_and_reports_times(capsys):
    result = bench.main(["--quick"])
    assert result["games"] == 2 and result["games_s"] > 0
    assert set(result["median_ms"]) == {3, 4, 5, 6} and result["planning_ms"] > 0
    assert "games/s" in capsys.readouterr().out
