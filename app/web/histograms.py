"""The server's duration histograms, counted as things happen (app/web/prometheus.py) and read
at each scrape (app/web/prometheus_scrape.py)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence


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


class Histograms:
    """A histogram family, exposed at each scrape from ``Counts`` (one per label value, or one
    without labels)."""

    def __init__(self, name: str, documentation: str, labels: Sequence[str] = (), *,
                 buckets: Sequence[float], family: list[Histograms]) -> None:
        self.name, self.documentation, self.label_names = name, documentation, tuple(labels)
        self.buckets = tuple(buckets)
        self.children: dict[tuple[str, ...], Counts] = {}
        family.append(self)

    def labels(self, *values: str) -> Counts:
        child = self.children.get(values)
        if child is None:
            child = self.children[values] = Counts(self.buckets)
        return child
