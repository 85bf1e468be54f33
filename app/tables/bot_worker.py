"""What runs in a bot worker process: one decision, from the seat's information only.

The server sends the table's encoded state (JSON bytes); the worker decodes it and at once
replaces it by ``engine.determinize(state, seat, rng)`` — every part the seat cannot see
re-drawn — and hands only that to the bot (engines/bots). The true state is never searched,
and the worker keeps nothing between decisions.

Imports engines only: a worker process never loads the web application.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

import orjson

from engines.base import Engine
from engines.bots import Budget, decide, weigh
from engines.kit.rng import Rng
from engines.registry import load_engines

EASY_BELOW = 0.05
"""Seconds left before the deadline under which "good" plays as "easy" (no time to search)."""

_engines: dict[str, Engine] = {}


WORKER_NICE = 10
"""A worker yields the CPU to the server process (its event loop answers the humans first)."""


def load(paths: tuple[str, ...]) -> None:
    """The pool's initializer: a lower priority, and the hosted games imported once."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    cpus = os.environ.get("BOT_CPUS", "")  # e.g. "1": keep the bots off the server's own core
    if cpus and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError, ValueError):
            os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})
    _engines.update(load_engines(paths))


def warm() -> bool:
    """A no-op task: the first bot move does not wait for the worker to start."""
    return True


def think(game: str, encoded: bytes, seat: int, level: str, seed: int, deadline: float,
          iterations: int = 100_000) -> Any:
    """The move a bot of ``level`` plays for ``seat``; "good" searches until ``deadline``
    (``time.monotonic``, the same clock in every process) or ``iterations``, and plays as
    "easy" when the request waited so long that nothing is left."""
    engine = _engines[game]
    rng = Rng.from_seed(seed)
    seen = engine.determinize(engine.decode(orjson.loads(encoded)), seat, rng.fork())  # type: ignore[attr-defined]
    left = deadline - time.monotonic()
    if level == "good" and left < EASY_BELOW:
        level = "easy"
    budget = Budget(iterations=iterations, seconds=max(left, EASY_BELOW), clock=time.monotonic)
    return decide(engine, seen, seat, level, rng, budget).move


def hint(game: str, encoded: bytes, seat: int, seed: int, deadline: float, top: int = 3) -> dict[str, Any]:
    """The good bot's weighing of ``seat``'s decision (engines/bots ``weigh``): its ``top`` moves
    with the search's own figures, searched until ``deadline`` on the seat's information only."""
    engine = _engines[game]
    rng = Rng.from_seed(seed)
    seen = engine.determinize(engine.decode(orjson.loads(encoded)), seat, rng.fork())  # type: ignore[attr-defined]
    left = max(deadline - time.monotonic(), EASY_BELOW)
    budget = Budget(iterations=100_000, seconds=left, clock=time.monotonic)
    return weigh(engine, seen, seat, "good", rng, budget, top=top).as_json()
