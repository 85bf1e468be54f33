"""The server's figures in the Prometheus text format (``GET /metrics``), for its host.

Each server process has a registry of its own (never the client library's global one: a test
run makes many apps in one process, and each app's figures are its own). Durations are
histograms fed by the same records as ``/api/stats`` (app/server/metrics.py's ``RecentTimes.sinks``);
what can be read at any moment (tables in memory, sockets, the bots' queue, counts the parts
keep anyway) is read when Prometheus asks, by a collector, so nothing is counted twice.

The histograms are counted here from the start; the client library, its registry and the
collectors are made at the first scrape (app/web/prometheus_scrape.py): a host that never
scrapes never loads them (about 1 MB of a server's memory).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.parlour import Parlour
from app.server.metrics import RecentTimes
from app.web.histograms import Counts, Histograms

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

# Seconds. A move is usually a few milliseconds; a slow disk or a busy loop shows as the tail.
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A bot's decision: queueing and up to BOT_THINK_SECONDS of search.
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
# The collector's pauses: microseconds to tens of milliseconds.
PAUSE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)


def _feed(times: RecentTimes, histogram: Counts, parts: Histograms | None = None) -> None:
    """Every duration ``times`` records is observed by ``histogram`` too (and its parts, if any,
    by ``parts``, labelled by the part's name)."""
    whole = histogram.observe
    if parts is None:
        times.sinks.append(lambda seconds, _parts: whole(seconds))
        return
    by_part: dict[str, Callable[[float], None]] = {}

    def observe(seconds: float, named: Mapping[str, float] | None) -> None:
        whole(seconds)
        for name, took in (named or {}).items():
            child = by_part.get(name)
            if child is None:  # resolved once per part: a move is the hot path
                child = by_part[name] = parts.labels(name).observe
            child(took)

    times.sinks.append(observe)


class Exporter:
    """The process's histograms, fed as things happen, and ``scrape`` for /metrics."""

    def __init__(self, parlour: Parlour) -> None:
        self.parlour = parlour
        self.histograms: list[Histograms] = []
        self._registry: CollectorRegistry | None = None
        reg = self.histograms
        _feed(parlour.mover.times,
              Histograms("parlour_move_seconds", "A move played through this process, from its arrival to every "
                         "view of it queued", buckets=FAST_BUCKETS, family=reg).labels(),
              Histograms("parlour_move_part_seconds", "Where a move's time went: waiting for its table (held), "
                         "the engine (applied), the commit (stored), building the views (shown)", ["part"],
                         buckets=FAST_BUCKETS, family=reg))
        _feed(parlour.journal.write_times,
              Histograms("parlour_commit_seconds", "A transaction storing a batch of moves, from its start to its "
                         "commit", buckets=FAST_BUCKETS, family=reg).labels())
        _feed(parlour.loop_lag.lateness,
              Histograms("parlour_loop_lateness_seconds", "How late the event loop ran a timer due every "
                         f"{parlour.loop_lag.every:g} s", buckets=FAST_BUCKETS, family=reg).labels())
        _feed(parlour.bot_pool.thinking,
              Histograms("parlour_bot_decision_seconds", "A bot's decision, from the ask (queueing included) to its "
                         "worker's answer", buckets=BOT_BUCKETS, family=reg).labels())
        pauses = Histograms("parlour_gc_pause_seconds", "The cyclic garbage collector's passes, by generation",
                            ["generation"], buckets=PAUSE_BUCKETS, family=reg)
        for generation, times in parlour.collector.pauses.items():
            _feed(times, pauses.labels(str(generation)))

    @property
    def registry(self) -> CollectorRegistry:
        if self._registry is None:
            from app.web.prometheus_scrape import registry_for

            self._registry = registry_for(self.parlour, self.histograms)
        return self._registry

    def scrape(self, accept: str | None) -> tuple[bytes, str]:
        """The exposition and its content type (OpenMetrics when the scraper asks for it)."""
        from prometheus_client.exposition import choose_encoder

        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type


async def get_figures(conn: HTTPConnection) -> Exporter:  # async: see get_parlour
    figures: Exporter = conn.app.state.figures  # made with the app, beside its Parlour (app/main.py)
    return figures


FiguresDep = Annotated[Exporter, Depends(get_figures)]
