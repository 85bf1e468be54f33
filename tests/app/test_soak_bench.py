"""The soak benchmark's in-process modes, quick, so they never rot (the figures come from its
full runs: docs/PERFORMANCE.md)."""

from __future__ import annotations

from bench.soak import main


def test_table_cost_measures_a_live_table_at_its_largest():
    (row,) = main(["table-cost", "--quick", "--only", "tower_of_london"])[:1]
    assert row["size"] > row["log"] > 0 and row["seq"] == row["moves"] > 0
    assert row["old_log"] > row["log"]  # the compact log is smaller than lists of dicts


def test_reload_times_a_table_loaded_again_from_its_snapshot_and_moves():
    (row,) = main(["reload", "--quick", "--only", "tower_of_london"])
    assert row["status"] == "finished" and row["moves"] > 0 and row["reload_ms_median"] > 0
