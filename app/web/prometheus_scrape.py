"""What ``GET /metrics`` reads, made at the first scrape (app/web/prometheus.py): the process's
own registry, the histograms counted since the start, what the parts hold now, and the client
library's process, platform and collector figures."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import (
    CollectorRegistry,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from app.parlour import Parlour
from app.web.histograms import Counts, Histograms

# No "_created" series beside every counter and histogram: a server's start time is
# process_start_time_seconds already, and they would double the exposition.
disable_created_metrics()  # type: ignore[no-untyped-call]


def registry_for(parlour: Parlour, histograms: list[Histograms]) -> CollectorRegistry:
    registry = CollectorRegistry()
    for family in histograms:
        registry.register(HistogramFigures(family))
    registry.register(LiveFigures(parlour))
    ProcessCollector(registry=registry)  # CPU seconds, resident memory, open files (Linux)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    return registry


def cumulative(counts: Counts) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    running = 0
    for bound, count in zip((*map(floatToGoString, counts.bounds), "+Inf"), counts.counts, strict=True):
        running += count
        out.append((bound, running))
    return out


class HistogramFigures(Collector):
    def __init__(self, histograms: Histograms) -> None:
        self.histograms = histograms

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        h = self.histograms
        family = HistogramMetricFamily(h.name, h.documentation, labels=h.label_names)
        for values, child in sorted(h.children.items()):
            family.add_metric(list(values), cumulative(child), child.total)
        yield family


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
