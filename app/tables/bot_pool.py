"""The one way a bot decides on the server: a pool of worker processes (app/tables/bot_worker.py) behind
a bounded queue, shared by the bots that hold seats (app/tables/bot_seats.py) and the clock keeper's
time-outs played by a bot (app/tables/clocks.py).

The event loop never thinks: it hands the table's encoded state to a worker, which searches
only ``determinize(state, seat, rng)`` until a deadline, and awaits the answer. At most
``queue`` decisions are handed to the workers at once; the rest wait their turn here (an
asyncio wait, not a blocked loop), and one that waited past its deadline is played as "easy"
(no search), so a crowd of bots never makes one late by more than its queue.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import secrets
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.server.metrics import RecentTimes
from app.tables.bot_worker import hint, load, think, warm
from engines.base import Engine

log = logging.getLogger("parlour.bots")


def plays_bots(engine: Engine) -> bool:
    """Can bots play this game? They need its ``determinize``."""
    method = getattr(type(engine), "determinize", None)
    if method is None:
        return False
    from engines.kit.engine import KitEngine

    return method is not getattr(KitEngine, "determinize", None)


class BotPool:
    def __init__(self, engine_paths: tuple[str, ...], workers: int = 1, queue: int = 4) -> None:
        self.engine_paths = engine_paths
        self.workers = max(1, workers)
        self._slots = asyncio.Semaphore(max(1, queue))
        self._pool: Executor | None = None
        self.thinking = RecentTimes()  # from the ask to the worker's answer, queueing included
        self.decided: Counter[str] = Counter()  # answers from the workers, by who asked ("seat", "clock")
        self.waiting = 0  # decisions waiting for a place in the queue
        self.handed = 0  # decisions handed to the workers (at most ``queue``)

    def warm(self) -> Executor:
        """The workers, started on first use (their first answer then waits for no start-up)."""
        if self._pool is None:
            # spawn: the server process runs threads (the journal, the event loop) a fork would copy
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=load, initargs=(self.engine_paths,))
            for _ in range(self.workers):
                self._pool.submit(warm)
        return self._pool

    async def decide(self, who: str, game: str, seat: int, level: str, deadline: float,
                     encoded: Callable[[], bytes | None]) -> Any | None:
        """A bot's move for ``seat``: ``encoded`` is called once a worker is free and gives the
        table's encoded state, or None when the decision is no longer wanted (the table moved
        on while it queued; then None is returned). ``deadline`` is on ``time.monotonic``.
        A worker that died (killed, out of memory) raises BrokenProcessPool; the next decision
        starts fresh workers."""
        return await self._ask(who, encoded, lambda state: (think, game, state, seat, level, secrets.randbits(64),
                                                            deadline))

    async def hint(self, game: str, seat: int, deadline: float, encoded: Callable[[], bytes | None],
                   top: int = 3) -> dict[str, Any] | None:
        """The good bot's weighing of ``seat``'s decision (app/tables/bot_worker.py ``hint``), in the
        same workers and queue as the bots' moves, searched until ``deadline``."""
        answer = await self._ask("hint", encoded, lambda state: (hint, game, state, seat, secrets.randbits(64),
                                                                 deadline, top))
        return dict(answer) if answer is not None else None

    async def _ask(self, who: str, encoded: Callable[[], bytes | None],
                   task: Callable[[bytes], tuple[Any, ...]]) -> Any | None:
        """Wait for a place in the queue, then run ``task(state)`` (a function and its
        arguments) in a worker on the state ``encoded`` gives (None: no longer wanted)."""
        asked = time.monotonic()
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        self.handed += 1
        try:
            state = encoded()
            if state is None:
                return None
            try:
                answer = await asyncio.get_running_loop().run_in_executor(self.warm(), *task(state))
            except BrokenProcessPool:
                log.error("a bot worker process died; starting new ones")
                self._pool = None
                raise
        finally:
            self.handed -= 1
            self._slots.release()
        self.thinking.record(time.monotonic() - asked)
        self.decided[who] += 1
        return answer

    def stats(self) -> dict[str, Any]:
        return {"thinking": self.thinking.summary(), "workers": self.workers, "decided": dict(self.decided)}

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
