"""What a host may want to know about the server's speed: recent move times, commit batching."""

from __future__ import annotations

import time
from collections import deque
from typing import Any


class MoveTimes:
    """The server time of the latest moves: received → stored → every view queued."""

    def __init__(self, keep: int = 10_000) -> None:
        self._times: deque[float] = deque(maxlen=keep)
        self.total = 0

    def record(self, seconds: float) -> None:
        self._times.append(seconds)
        self.total += 1

    def reset(self) -> None:
        self._times.clear()

    def summary(self) -> dict[str, Any]:
        times = sorted(self._times)
        if not times:
            return {"moves": self.total, "recent": 0}

        def ms(p: float) -> float:
            return round(1000 * times[min(len(times) - 1, int(p * len(times)))], 3)

        return {"moves": self.total, "recent": len(times), "p50_ms": ms(0.5), "p95_ms": ms(0.95),
                "p99_ms": ms(0.99), "max_ms": round(1000 * times[-1], 3)}


def now() -> float:
    return time.perf_counter()
