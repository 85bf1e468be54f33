"""The pages benchmark (bench/pages.py) once, in the suite's Chromium, so it never rots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from bench import pages

pytestmark = pytest.mark.e2e


def test_the_pages_benchmark_times_a_cold_and_a_warm_opening_of_a_seat_at_each_size(browser: Browser) -> None:
    rows = pages.measure(1, ["towers_of_babylon"], browser)
    assert [(r["game"], r["size"]) for r in rows] == [("towers_of_babylon", "phone"), ("towers_of_babylon", "laptop")]
    for r in rows:
        (cold,), (warm,) = r["cold"], r["warm"]
        assert 0 < cold["html"] <= cold["drawn"] and warm["drawn"] > 0
        assert cold["bytes"] > 10_000  # the page's code came over the wire the first time
    text = pages.table(rows, 1)
    assert text.count("| towers_of_babylon |") == 2
