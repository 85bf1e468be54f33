"""Loaded by a server the soak starts with ``--trace`` (this folder on PYTHONPATH, tracemalloc
on through PYTHONTRACEMALLOC): on SIGUSR1 the server writes a tracemalloc snapshot to
SOAK_TRACE_DIR/<n>.snap, so the soak can diff what Python holds between two points of a run."""

from __future__ import annotations

import os
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

_folder = os.environ.get("SOAK_TRACE_DIR")


def _dump(signum: int, frame: FrameType | None) -> None:
    assert _folder is not None
    done = sorted(Path(_folder).glob("*.snap"))
    target = Path(_folder) / f"{len(done):03d}.snap"
    tracemalloc.take_snapshot().dump(str(target) + ".part")
    os.replace(str(target) + ".part", target)  # whole, or not there


if _folder and tracemalloc.is_tracing():
    signal.signal(signal.SIGUSR1, _dump)
