"""GET /metrics: the server's figures in the Prometheus text format, for its host only, from a
registry of each app's own: moves and where their time went, commits, the loop's lateness,
sockets, tables in memory, bots, clocks, pushes, and the process's own."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from app.server.metrics import RecentTimes
from app.tables import bot_pool as bot_pool_module
from app.tables.bot_pool import BotPool
from app.web.histograms import Histograms
from app.web.prometheus_scrape import HistogramFigures
from tests.conftest import make_settings
from tests.support.play import play_one, started_table
from tests.support.stats import OWN_MACHINE, own_stats


def scrape(client: Any, headers: dict[str, str] | None = None,
           address: tuple[str, int] = OWN_MACHINE) -> httpx.Response:
    """/metrics asked on the app's own loop, from ``address`` (the server's own machine unless told)."""
    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=client.app, client=address)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as own:
            return await own.get("/metrics", headers=headers or {})

    return client.portal.call(ask)  # type: ignore[no-any-return]


def figures(client: Any) -> dict[str, float]:
    """Every sample of a scrape, by name and labels: ``name{label="value"}``."""
    r = scrape(client)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()) if k != "le")
            if "le" not in s.labels:
                out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


def make_client(url: str, **over: Any) -> Any:
    from fastapi.testclient import TestClient

    from app.main import create_app

    return TestClient(create_app(make_settings(url, **over)), base_url="http://testserver")


def test_the_moves_their_parts_and_commits_are_counted_as_they_are_played(client: Any) -> None:
    t = started_table(client, ("Ada", "Bob"))
    for _ in range(5):
        play_one(client, t)
    got = figures(client)
    assert got["parlour_move_seconds_count"] == 5 == own_stats(client)["moves"]["moves"]
    assert got["parlour_move_seconds_sum"] > 0
    for part in ("held", "applied", "stored", "shown"):
        assert got[f'parlour_move_part_seconds_count{{part="{part}"}}'] == 5
    assert got["parlour_moves_stored_total"] == 5
    assert 1 <= got["parlour_commit_seconds_count"] <= 5  # moves may share a commit
    assert got["parlour_tables_in_memory"] >= 1


def test_a_duration_on_a_bucket_bound_counts_in_that_bucket_and_every_one_above() -> None:
    family: list[Histograms] = []
    moves = Histograms("m_seconds", "durations", ["part"], buckets=(0.001, 0.01, 1.0), family=family)
    registry = CollectorRegistry()
    registry.register(HistogramFigures(moves))
    for seconds in (0.0005, 0.001, 0.002, 0.01, 0.5, 3.0):
        moves.labels("held").observe(seconds)
    samples = {(s.name, s.labels.get("le")): s.value
               for family in text_string_to_metric_families(generate_latest(registry).decode())
               for s in family.samples if s.labels.get("part") == "held"}
    assert samples[("m_seconds_bucket", "0.001")] == 2  # 0.0005 and 0.001 itself ("le")
    assert samples[("m_seconds_bucket", "0.01")] == 4
    assert samples[("m_seconds_bucket", "1.0")] == 5
    assert samples[("m_seconds_bucket", "+Inf")] == samples[("m_seconds_count", None)] == 6
    assert samples[("m_seconds_sum", None)] == pytest.approx(3.5135)


def test_sockets_and_the_loops_lateness_are_read_as_they_are(client: Any) -> None:
    t = started_table(client, ("Ada", "Bob"))
    with client.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        ws.receive_json()
        got = figures(client)
        assert got["parlour_sockets"] == 1 and got["parlour_tables_with_sockets"] == 1
        assert got["parlour_tables_in_use"] == 1
    deadline = time.monotonic() + 5
    while (got := figures(client))["parlour_sockets"] or not got["parlour_loop_lateness_seconds_count"]:
        assert time.monotonic() < deadline, got
        time.sleep(0.05)
    assert got["parlour_tables_with_sockets"] == 0


def test_bots_clocks_pushes_and_the_process_are_there_from_the_start(sqlite_client: Any) -> None:
    got = figures(sqlite_client)
    assert got["parlour_bot_workers"] >= 1 and got["parlour_bot_decisions_waiting"] == 0
    assert got["parlour_clock_timeouts_total"] == 0 and got["parlour_clocks_kept"] == 0
    for outcome in ("sent", "failed", "refused", "dropped"):
        assert got[f'parlour_pushes_total{{outcome="{outcome}"}}'] == 0
    assert got["process_resident_memory_bytes"] > 0
    assert "python_info" in " ".join(got)


def test_each_app_keeps_figures_of_its_own(sqlite_url: str, tmp_path: Any) -> None:
    from app.storage.db import migrate

    other_url = f"sqlite+aiosqlite:///{tmp_path / 'other.db'}"
    migrate(other_url)
    with make_client(sqlite_url) as one, make_client(other_url) as other:
        play_one(one, started_table(one))
        assert figures(one)["parlour_move_seconds_count"] == 1
        assert figures(other)["parlour_move_seconds_count"] == 0


def test_openmetrics_when_the_scraper_asks_for_it(sqlite_client: Any) -> None:
    r = scrape(sqlite_client, {"Accept": "application/openmetrics-text; version=1.0.0"})
    assert r.headers["content-type"].startswith("application/openmetrics-text")
    assert r.text.endswith("# EOF\n")


@pytest.mark.parametrize("address, headers", [
    (("203.0.113.9", 40000), {}),  # from elsewhere
    (OWN_MACHINE, {"X-Forwarded-For": "127.0.0.1"}),  # through a proxy on this machine
])
def test_the_figures_are_refused_to_anyone_but_the_host(sqlite_client: Any, address: tuple[str, int],
                                                        headers: dict[str, str]) -> None:
    r = scrape(sqlite_client, headers, address)
    assert r.status_code == 403 and "parlour_" not in r.text
    assert sqlite_client.get("/metrics").status_code == 403  # the test client: no address at all


def test_with_a_stats_token_only_its_bearer_gets_the_figures(sqlite_url: str) -> None:
    with make_client(sqlite_url, stats_token="figures-for-the-host") as c:
        assert scrape(c).status_code == 403  # not even from this machine
        assert scrape(c, {"Authorization": "Bearer wrong"}, ("203.0.113.9", 1)).status_code == 403
        r = scrape(c, {"Authorization": "Bearer figures-for-the-host"}, ("203.0.113.9", 1))
        assert r.status_code == 200 and "parlour_move_seconds" in r.text


def test_the_bot_queue_is_seen_as_it_fills_and_drains(monkeypatch: pytest.MonkeyPatch) -> None:
    go_on = threading.Event()

    def think(*args: Any) -> dict[str, str]:  # a worker busy until told
        go_on.wait(10)
        return {"type": "pass"}

    monkeypatch.setattr(bot_pool_module, "think", think)
    pool = BotPool((), workers=1, queue=1)
    pool._pool = ThreadPoolExecutor(1)

    async def scenario() -> list[Any]:
        asks = [asyncio.create_task(pool.decide("seat", "tally", 0, "good", time.monotonic() + 5, lambda: b""))
                for _ in range(3)]
        while pool.handed != 1 or pool.waiting != 2:
            await asyncio.sleep(0.01)
        go_on.set()
        return list(await asyncio.gather(*asks))

    try:
        assert asyncio.run(scenario()) == [{"type": "pass"}] * 3
    finally:
        pool.stop()
    assert pool.handed == 0 and pool.waiting == 0 and pool.decided["seat"] == 3


def test_recent_times_keep_only_the_latest_durations_with_their_parts() -> None:
    times = RecentTimes(keep=5)
    for ms in range(1, 9):
        times.record(ms / 1000, {"stored": ms / 2000})
    got = times.summary()
    assert (got["moves"], got["recent"]) == (8, 5)  # all counted, the latest five kept: 4..8 ms
    assert (got["p50_ms"], got["max_ms"]) == (6.0, 8.0)
    assert got["parts"]["stored"]["max_ms"] == 4.0 and got["parts"]["stored"]["p50_ms"] == 3.0
    times.record(0.0001)  # the oldest kept (4 ms) goes
    assert sorted(times._times.values())[0] == pytest.approx(0.0001) and len(times._times) == 5
    times.reset()
    assert times.summary() == {"moves": 9, "recent": 0}
