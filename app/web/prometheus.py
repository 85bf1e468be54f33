"""The server's figures in the Prometheus text format (``GET /metrics``), for its host.

Each server process has a registry of its own (never the client library's global one: a test
run makes many apps in one process, and each app's figures are its own). Durations are
histograms fed by the same records as ``/api/stats`` (app/server/metrics.py's ``RecentTimes.sinks``);
what can be read at any moment (tables in memory, sockets, the bots' queue, counts the parts
keep anyway) is read when Prometheus asks, by a collector, so nothing is counted twice.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Annotated

from fastapi import Depends
from prometheus_client import (
    CollectorRegistry,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString
from starlette.requests import HTTPConnection

from app.parlour import Parlour
from app.server.metrics import RecentTimes

# No "_created" series beside every counter and histogram: a server's start time is
# process_start_time_seconds already, and they would double the exposition.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Seconds. A move is usually a few milliseconds; a slow disk or a busy loop shows as the tail.
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A bot's decision: queueing and up to BOT_THINK_SECONDS of search.
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
# The collector's pauses: microseconds to tens of milliseconds.
PAUSE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)


class Counts:
    """One histogram's counts by bucket and their sum. Observing is a bisection and two additions:
    the client library's ``Histogram.observe`` takes a lock for the sum and another for the
    bucket, about 2.4 µs against 0.3 µs here, five or six times a move. No lock is needed: a
    histogram is observed from the event loop's thread, or (the collector's pauses) from the
    callback of a collector pass, and passes never overlap."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound (+Inf only)
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1  # "le": a value on a bound is in it
        self.total += seconds

    def cumulative(self) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip((*map(floatToGoString, self.bounds), "+Inf"), self.counts, strict=True):
            running += count
            out.append((bound, running))
        return out


class Histograms(Collector):
    """A histogram family exposed at each scrape from ``Counts`` (one per label value, or one
    without labels)."""

    def __init__(self, name: str, documentation: str, labels: Sequence[str] = (), *,
                 buckets: Sequence[float], registry: CollectorRegistry) -> None:
        self.name, self.documentation, self.label_names = name, documentation, tuple(labels)
        self.buckets = tuple(buckets)
        self.children: dict[tuple[str, ...], Counts] = {}
        registry.register(self)

    def labels(self, *values: str) -> Counts:
        child = self.children.get(values)
        if child is None:
            child = self.children[values] = Counts(self.buckets)
        return child

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.label_names)
        for values, child in sorted(self.children.items()):
            family.add_metric(list(values), child.cumulative(), child.total)
        yield family


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
    """The process's registry, its histograms fed as things happen, and ``scrape`` for /metrics."""

    def __init__(self, parlour: Parlour) -> None:
        self.registry = CollectorRegistry()
        reg = self.registry
        _feed(parlour.mover.times,
              Histograms("parlour_move_seconds", "A move played through this process, from its arrival to every "
                         "view of it queued", buckets=FAST_BUCKETS, registry=reg).labels(),
              Histograms("parlour_move_part_seconds", "Where a move's time went: waiting for its table (held), "
                         "the engine (applied), the commit (stored), building the views (shown)", ["part"],
                         buckets=FAST_BUCKETS, registry=reg))
        _feed(parlour.journal.write_times,
              Histograms("parlour_commit_seconds", "A transaction storing a batch of moves, from its start to its "
                         "commit", buckets=FAST_BUCKETS, registry=reg).labels())
        _feed(parlour.loop_lag.lateness,
              Histograms("parlour_loop_lateness_seconds", "How late the event loop ran a timer due every "
                         f"{parlour.loop_lag.every:g} s", buckets=FAST_BUCKETS, registry=reg).labels())
        _feed(parlour.bot_pool.thinking,
              Histograms("parlour_bot_decision_seconds", "A bot's decision, from the ask (queueing included) to its "
                         "worker's answer", buckets=BOT_BUCKETS, registry=reg).labels())
        pauses = Histograms("parlour_gc_pause_seconds", "The cyclic garbage collector's passes, by generation",
                            ["generation"], buckets=PAUSE_BUCKETS, registry=reg)
        for generation, times in parlour.collector.pauses.items():
            _feed(times, pauses.labels(str(generation)))
        reg.register(LiveFigures(parlour))
        ProcessCollector(registry=reg)  # CPU seconds, resident memory, open files (Linux)
        PlatformCollector(registry=reg)
        GCCollector(registry=reg)

    def scrape(self, accept: str | None) -> tuple[bytes, str]:
        """The exposition and its content type (OpenMetrics when the scraper asks for it)."""
        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type


def get_figures(conn: HTTPConnection) -> Exporter:
    figures: Exporter = conn.app.state.figures  # made with the app, beside its Parlour (app/main.py)
    return figures


FiguresDep = Annotated[Exporter, Depends(get_figures)]


class LiveFigures(Collector):
    """What the server's parts hold or have counted, read at each scrape."""

    def __init__(self, parlour: Parlour) -> None:
        self.parlour = parlour

    def describe(self) -> list[Metric]:
        return []  # figures are read only when asked for (no scrape at registration)

    def collect(self) -> Iterator[Metric]:
        p = self.parlour
        tables = p.tables
        cached = [tables.cached(i) for i in tables.cached_ids()]
        yield _gauge("parlour_tables_in_memory", "Tables held in this process's memory", len(cached))
        yield _gauge("parlour_tables_in_use", "Tables in memory with an open socket or a move in flight",
                     sum(1 for t in cached if t is not None and tables.in_use(t)))
        yield _gauge("parlour_table_memory_bytes", "The estimated memory of the tables held", tables.estimated_bytes())
        yield _counter("parlour_table_loads", "Tables loaded from the database into memory", tables.loads)
        yield _counter("parlour_table_evictions", "Tables dropped from memory, idle or over CACHE_MB", tables.evicted)
        rooms = p.hub.rooms
        yield _gauge("parlour_sockets", "Open websockets (seats and spectators) on this process",
                     sum(len(room) for room in rooms.values()))
        yield _gauge("parlour_tables_with_sockets", "Tables with at least one open websocket here", len(rooms))
        journal = p.journal
        yield _counter("parlour_moves_stored", "Moves this process stored in the database", journal.moves)
        yield _counter("parlour_commits_on_loop", "Commits written on the event loop itself (SQLite, its lock "
                       "free)", journal.on_loop)
        bots, pool = p.bots, p.bot_pool
        yield _counter("parlour_bot_moves", "Bot moves stored by this process", bots.played)
        yield _counter("parlour_bot_moves_refused", "Bot moves chosen after the table had moved on", bots.refused)
        yield _counter("parlour_bot_failures", "Bot turns that failed", bots.failed)
        decided = CounterMetricFamily("parlour_bot_decisions", "Decisions the bot workers answered, by who asked",
                                      labels=["by"])
        for who, count in sorted(pool.decided.items()):
            decided.add_metric([who], count)
        yield decided
        yield _gauge("parlour_bot_decisions_waiting", "Bot decisions waiting for a place in the queue (BOT_QUEUE)",
                     pool.waiting)
        yield _gauge("parlour_bot_decisions_handed", "Bot decisions handed to the workers now", pool.handed)
        yield _gauge("parlour_bot_workers", "Processes the bots think in (BOT_WORKERS)", pool.workers)
        yield _counter("parlour_clock_timeouts", "Time-outs this process played for a clock", p.clocks.played)
        yield _gauge("parlour_clocks_kept", "Tables whose clocks this process keeps in memory", p.clocks.kept())
        pusher = p.pusher
        pushes = CounterMetricFamily("parlour_pushes", "Web Pushes by outcome: sent, failed (no answer), refused "
                                     "(an error status), dropped (too many at once)", labels=["outcome"])
        for outcome in ("sent", "failed", "refused", "dropped"):
            pushes.add_metric([outcome], getattr(pusher, outcome))
        yield pushes
        yield _counter("parlour_push_subscriptions_forgotten", "Push subscriptions the push service said are gone",
                       pusher.forgotten)
        yield _gauge("parlour_pushes_sending", "Web Pushes being sent now", pusher.sending)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _counter(name: str, documentation: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, documentation, value=value)
