"""What a host may want to know about the server's speed: recent move times and where they went,
commits, the event loop's lateness, the collector's pauses."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from array import array
from collections.abc import Callable, Mapping
from typing import Any

from app.server import background


class RecentTimes:
    """The latest durations of one thing (a move received → stored → every view queued, a
    commit, the loop's lateness, a collector pass) and their percentiles; a record may say where
    its time went (``parts``: for a move, waiting for the table, the engine, the commit, the
    views), so a host can tell a slow disk from a slow game. (``summary`` counts them under
    "moves", the name the statistics have always used.)

    The exact recent percentiles, and a reset between a benchmark's phases, are what
    ``/api/stats`` reports; ``sinks`` hand every record on as well (app/web/prometheus.py's
    histograms, which serve ``/metrics``)."""

    def __init__(self, keep: int = 10_000) -> None:
        self._keep = keep
        self._times = Ring(keep)
        self._parts: dict[str, Ring] = {}
        self.total = 0
        self.sinks: list[Callable[[float, Mapping[str, float] | None], None]] = []

    def record(self, seconds: float, parts: dict[str, float] | None = None) -> None:
        self._times.append(seconds)
        self.total += 1
        if parts:
            for name, took in parts.items():
                ring = self._parts.get(name)
                if ring is None:
                    ring = self._parts[name] = Ring(self._keep)
                ring.append(took)
        for sink in self.sinks:
            sink(seconds, parts)

    def reset(self) -> None:
        self._times.clear()
        self._parts.clear()

    def summary(self) -> dict[str, Any]:
        if not len(self._times):
            return {"moves": self.total, "recent": 0}
        found: dict[str, Any] = {"moves": self.total, "recent": len(self._times), **_percentiles(self._times)}
        if self._parts:
            found["parts"] = {name: _percentiles(times) for name, times in self._parts.items()}
        return found


class Ring:
    """The latest ``keep`` durations as machine doubles: 8 bytes each, where a deque of floats
    holds a 24-byte object and an 8-byte slot for each (five rings of 10,000 for the moves
    alone: 0.4 MB instead of 1.6 MB once full). It grows as durations come, then goes round."""

    __slots__ = ("_at", "_keep", "_values")

    def __init__(self, keep: int) -> None:
        self._values = array("d")
        self._keep = keep
        self._at = 0  # once full: the oldest, overwritten next

    def append(self, value: float) -> None:
        values = self._values
        if len(values) < self._keep:
            values.append(value)
            return
        values[self._at] = value
        self._at = (self._at + 1) % self._keep

    def clear(self) -> None:
        self._values = array("d")
        self._at = 0

    def __len__(self) -> int:
        return len(self._values)

    def values(self) -> list[float]:
        return self._values.tolist()


def _percentiles(recent: Ring) -> dict[str, float]:
    times = sorted(recent.values())

    def ms(p: float) -> float:
        return round(1000 * times[min(len(times) - 1, int(p * len(times)))], 3)

    return {"p50_ms": ms(0.5), "p95_ms": ms(0.95), "p99_ms": ms(0.99), "max_ms": round(1000 * times[-1], 3)}


def now() -> float:
    return time.perf_counter()


class LoopLag:
    """How late the event loop runs a timer set every ``every`` seconds: what a move that
    arrived at that moment waited before the server even looked at it (a view being built, a
    commit on the loop, a host's CPU taken away)."""

    def __init__(self, every: float = 0.02) -> None:
        self.every = every
        self.lateness = RecentTimes()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        await background.stop(self._task)

    async def _watch(self) -> None:
        while True:
            due = now() + self.every
            await asyncio.sleep(self.every)
            self.lateness.record(max(0.0, now() - due))


class CollectorPauses:
    """How long the cyclic garbage collector stops everything, by generation (gc.callbacks)."""

    def __init__(self) -> None:
        self.pauses = {gen: RecentTimes(keep=1000) for gen in range(3)}
        self._began = 0.0

    def start(self) -> None:
        gc.callbacks.append(self._note)

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._note)

    def _note(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = now()
        else:
            self.pauses[info["generation"]].record(now() - self._began)

    def summary(self) -> dict[str, Any]:
        return {f"gen{gen}": times.summary() for gen, times in self.pauses.items()}

    def reset(self) -> None:
        for times in self.pauses.values():
            times.reset()
