"""Giving freed memory back to the system.

A long-running server frees what a finished table held, but glibc's malloc keeps freed pages in
its arenas (one per thread that ever allocated: the event loop, the journal's, each SQLite
connection's) for reuse; after hours of tables coming and going the process's RSS records its
busiest moment rather than what is live. ``malloc_trim`` hands the free pages at the top and
middle of every arena back. Elsewhere (another C library, another system) there is nothing to do.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger("parlour")


def _find_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # absent from musl
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _find_trim()


def can_trim() -> bool:
    return _TRIM is not None


def trim() -> float:
    """Give malloc's free pages back to the system; the seconds it took (0 where it cannot).
    ctypes lets go of the interpreter lock during the call: run it in a thread and the event
    loop goes on meanwhile."""
    if _TRIM is None:
        return 0.0
    started = time.perf_counter()
    _TRIM(0)
    took = time.perf_counter() - started
    log.debug("malloc_trim took %.1f ms", took * 1000)
    return took
