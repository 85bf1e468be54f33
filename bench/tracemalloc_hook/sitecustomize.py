"""Loaded by a server the soak starts with ``--trace`` (this folder on PYTHONPATH): on SIGUSR2 the
server starts tracemalloc (after its imports: tracing them would take minutes), on SIGUSR1 it
writes a snapshot to SOAK_TRACE_DIR/<n>.snap, so the soak can diff what Python holds between
two points of a run."""

from __future__ import annotations

import os
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

_folder = os.environ.get("SOAK_TRACE_DIR")


def _start(signum: int, frame: FrameType | None) -> None:
    tracemalloc.start(8)
    assert _folder is not None
    (Path(_folder) / "tracing").touch()


def _dump(signum: int, frame: FrameType | None) -> None:
    assert _folder is not None
    done = sorted(Path(_folder).glob("*.snap"))
    target = Path(_folder) / f"{len(done):03d}.snap"
    tracemalloc.take_snapshot().dump(str(target) + ".part")
    os.replace(str(target) + ".part", target)  # whole, or not there


if _folder:
    signal.signal(signal.SIGUSR2, _start)
    signal.signal(signal.SIGUSR1, _dump)
