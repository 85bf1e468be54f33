"""Loaded by a server the soak starts with ``--trace`` (this folder on PYTHONPATH).

On SIGUSR1 the server writes SOAK_TRACE_DIR/<n>.json: what Python's allocator holds (blocks,
objects the collector tracks) and what C's malloc holds (in use, free but kept), so the soak can
tell growth in Python objects from growth below them (SQLite's caches, a fragmented heap). With
SOAK_TRACE_FRAMES set, tracemalloc starts on SIGUSR2 (after the imports: tracing them takes
minutes) and each SIGUSR1 also writes <n>.snap, a snapshot to diff."""

from __future__ import annotations

import ctypes
import gc
import json
import os
import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType

_folder = os.environ.get("SOAK_TRACE_DIR")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _malloc() -> dict[str, int]:
    try:
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):  # not glibc
        return {}
    return {"malloc_in_use": info.uordblks, "malloc_free_kept": info.fordblks, "malloc_mmapped": info.hblkhd}


def _start(signum: int, frame: FrameType | None) -> None:
    tracemalloc.start(int(os.environ.get("SOAK_TRACE_FRAMES", "8")))
    assert _folder is not None
    (Path(_folder) / "tracing").touch()


def _dump(signum: int, frame: FrameType | None) -> None:
    assert _folder is not None
    n = len(list(Path(_folder).glob("*.json")))
    target = Path(_folder) / f"{n:03d}"
    if tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(f"{target}.snap")
    stats = {"python_blocks": sys.getallocatedblocks(), "gc_objects": len(gc.get_objects()), **_malloc()}
    Path(f"{target}.part").write_text(json.dumps(stats))
    os.replace(f"{target}.part", f"{target}.json")  # whole, or not there


if _folder:
    signal.signal(signal.SIGUSR1, _dump)
    if os.environ.get("SOAK_TRACE_FRAMES"):
        signal.signal(signal.SIGUSR2, _start)
