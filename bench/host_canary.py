"""How fast the machine itself ran during a benchmark's window: the host's slow spells.

On a virtual machine the host may run the guest's processors slower for a while, unseen from
inside: a process keeps its processor (nothing else runs, no time is marked stolen) but does a
fraction of its usual work. Here, on an idle machine, a tight loop's fixed piece of work took
10-17 times its usual time for 50-100 ms about every 1.5 s, on both processors at once. A load
benchmark's round trips in such a spell are the host's, not the server's; the canary marks them.

The canary does a fixed piece of pure-Python work (about 0.1 ms) every ``every`` seconds on a
thread of its own and keeps each piece's time against the median of its first pieces. A slow
spell is a run of at least ``RUN`` pieces over ``SLOWER`` times that median, each within
``GAP`` seconds of the last (a lone slow piece is the canary preempted on a busy core, not the
host). It costs about 3 % of one core.

    .venv/bin/python bench/host_canary.py --seconds 60     # the idle machine's slow spells
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

SLOWER = 3.0  # a piece this many times its median is slow
RUN = 3  # slow pieces in a row that make a spell
GAP = 0.02  # s between two slow pieces of one spell
CALIBRATE = 250  # pieces whose median is the usual time (all of them in a shorter window)
MIN_PIECES = 25  # fewer, and the usual time is not known well enough to call any piece slow


def _piece() -> int:
    total = 0
    for i in range(1500):
        total += i * i
    return total


@dataclass(frozen=True)
class Spell:
    start: float  # wall clock, s
    end: float
    pieces: int
    worst: float  # the slowest piece's time over the median

    @property
    def seconds(self) -> float:
        return self.end - self.start


class Canary:
    """Measures the host's speed on a thread until ``stop``; ``spells`` are its slow spells."""

    def __init__(self, every: float = 0.004) -> None:
        self.every = every
        self.samples: list[tuple[float, float, float]] = []  # (start, end, seconds) on the wall clock
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="host-canary", daemon=True)
        self._started = 0.0

    def start(self) -> Canary:
        self._started = time.time()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            wall = time.time()
            t0 = time.perf_counter()
            _piece()
            took = time.perf_counter() - t0
            self.samples.append((wall, wall + took, took))

    @property
    def median(self) -> float:
        """A piece's usual time: the median of the first CALIBRATE pieces (0 before any)."""
        first = [s for _, _, s in self.samples[:CALIBRATE]]
        return statistics.median(first) if first else 0.0

    def spells(self) -> list[Spell]:
        """The slow spells; none in a window too short to know the usual time (a few pieces)."""
        if len(self.samples) < MIN_PIECES:
            return []
        return find_spells(self.samples, self.median)

    def summary(self) -> dict[str, float | int]:
        spells = self.spells()
        window = (self.samples[-1][1] - self.samples[0][0]) if self.samples else 0.0
        slowed = sum(s.seconds for s in spells)
        return {"host_spells": len(spells), "host_slowed_pct": round(100 * slowed / window, 1) if window else 0.0,
                "host_spell_max_ms": round(1000 * max((s.seconds for s in spells), default=0.0), 1),
                "host_worst_x": round(max((s.worst for s in spells), default=0.0), 1),
                "canary_piece_ms": round(1000 * self.median, 3)}


def find_spells(samples: Iterable[tuple[float, float, float]], median: float) -> list[Spell]:
    """Runs of at least RUN pieces over SLOWER × ``median``, each within GAP of the last."""
    spells: list[Spell] = []
    run: list[tuple[float, float, float]] = []

    def close() -> None:
        if len(run) >= RUN:
            spells.append(Spell(run[0][0], run[-1][1], len(run), max(s for _, _, s in run) / median))

    for sample in samples:
        if sample[2] <= SLOWER * median:
            continue
        if run and sample[0] - run[-1][1] > GAP:
            close()
            run = []
        run.append(sample)
    close()
    return spells


def outside(times: Iterable[tuple[float, float]], spells: list[Spell], after: float = 0.01) -> list[float]:
    """The round trips (``(sent, ms)``, sent on the wall clock in s) that overlap no spell, nor the
    ``after`` seconds following one (the backlog a spell leaves)."""
    kept: list[float] = []
    bounds = sorted((s.start, s.end + after) for s in spells)
    for sent, ms in times:
        done = sent + ms / 1000
        if not any(a < done and sent < b for a, b in bounds):
            kept.append(ms)
    return kept


def main() -> None:
    p = argparse.ArgumentParser(description="the host's slow spells on this machine, now")
    p.add_argument("--seconds", type=float, default=60)
    a = p.parse_args()
    canary = Canary().start()
    time.sleep(a.seconds)
    canary.stop()
    summary = canary.summary()
    spells = canary.spells()
    print(f"{len(canary.samples)} pieces of {summary['canary_piece_ms']} ms (median) in {a.seconds:g} s; "
          f"{summary['host_spells']} slow spells, {summary['host_slowed_pct']} % of the time, the longest "
          f"{summary['host_spell_max_ms']} ms, the slowest piece {summary['host_worst_x']} × the median")
    if spells:
        gaps = [b.start - a.start for a, b in itertools.pairwise(spells)]
        if gaps:
            print(f"  from one spell's start to the next: median {statistics.median(gaps):.2f} s")


if __name__ == "__main__":
    main()
