"""One run of a load per key, however many ask for it at once.

Who asks while a load of the same key runs awaits that load's answer, or its error, instead of
starting another: a table loaded from the database (app/play/live.py), a finished game's replay
rebuilt (app/features/replays.py). A waiter is shielded: cancelling it leaves the load running
for the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SingleFlight(Generic[K, V]):
    __slots__ = ("_running",)

    def __init__(self) -> None:
        self._running: dict[K, asyncio.Future[V]] = {}

    def __contains__(self, key: object) -> bool:
        """Is a load of ``key`` running now?"""
        return key in self._running

    async def run(self, key: K, load: Callable[[], Awaitable[V]]) -> V:
        """``load()``'s answer, from this call's own run of it or from the one running already."""
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        fut: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._running[key] = fut
        try:
            value = await load()
            fut.set_result(value)
            return value
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # the waiters re-raise it; mark it retrieved
            raise
        finally:
            self._running.pop(key, None)
