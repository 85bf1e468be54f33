"""Background tasks the server's parts run while it is up (a sweeper, a watcher, a journal)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stop(task: asyncio.Task[Any] | None) -> None:
    """Cancel a background task, if there is one, and wait until it has ended."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
