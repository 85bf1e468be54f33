"""One settings object, read from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from engines.registry import BUILTIN

# The push services of today's browsers: Chrome, Edge's Chromium, Opera, Samsung Internet (FCM);
# Firefox (Mozilla's autopush); Safari (Apple); legacy Edge (Windows Notification Service).
DEFAULT_PUSH_SERVICES = ("fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com")


def parse_push_services(raw: str) -> tuple[str, ...]:
    """PUSH_SERVICES: comma-separated host suffixes ("push.apple.com" allows web.push.apple.com)."""
    found = tuple(s.strip().lower().strip(".") for s in raw.split(",") if s.strip())
    return found or DEFAULT_PUSH_SERVICES


def _default_engines() -> tuple[str, ...]:
    raw = os.environ.get("PARLOUR_ENGINES", "")
    return tuple(p.strip() for p in raw.split(",") if p.strip()) or BUILTIN


@dataclass(frozen=True)
class Settings:
    """How this server runs.

    DATABASE_URL  SQLAlchemy URL; SQLite file in the working folder by default.
    HOST, PORT    where `parlour serve` listens.
    PUBLIC_URL    the address players reach the site at, for absolute invitation links
                  (default: taken from each request).
    PARLOUR_ENGINES  comma-separated "module:ENGINE" paths of the games to host (default: all).
    SNAPSHOT_EVERY   store an engine snapshot every N moves.
    KEEPALIVE_SECONDS  how often `parlour serve` pings an open websocket; a peer that has not
                  answered by the next ping is dropped (0: never ping).
    TABLE_IDLE_SECONDS  a table nobody has a socket open to is dropped from memory after this
                  long without use (it is loaded again when next asked for).
    FINISHED_IDLE_SECONDS  the same for a finished table (sooner).
    CLOCK_POLL_SECONDS  how often the clock keeper looks for a time-out other processes set.
    PUSH_CONTACT  the contact given to push services with each Web Push ("mailto:..." or a URL).
    PUSH_SERVICES  comma-separated host suffixes of the push services endpoints may be on
                  (default: those of today's browsers, app/features/push_policy.py).
    PUSH_TEST_PORT  tests and trials only: also accept https push endpoints on this machine at
                  this one port (0: off).
    PUSH_CA_FILE  tests and trials only: the certificates (PEM) trusted for push services
                  instead of the system's.
    STATS_TOKEN   when set, GET /api/stats and GET /metrics answer only "Authorization: Bearer
                  <it>"; unset, they answer only this machine's own requests that came through no proxy.
    LOG_FORMAT    "text" (uvicorn's lines) or "json" (one JSON object per line, app/server/logs.py).
    DB_BUSY_SECONDS  how long a request waits for the database's write lock (SQLite) before
                  it is answered 503 "busy" with nothing changed.
    CACHE_MB      the estimated memory of the tables kept without an open socket is held under
                  this, least recently used dropped first.
    MEMORY_TRIM_SECONDS  how often freed memory is handed back to the system (glibc's
                  malloc_trim; 0: never).
    BOT_WORKERS   processes the bots think in (default: half the CPU cores, at least one).
    BOT_QUEUE     bot decisions handed to those processes at once; the rest wait their turn.
    BOT_DELAY_SECONDS  a bot's answer is shown no sooner than this after its turn began.
    BOT_THINK_SECONDS  how long (wall clock) a "good" bot searches, queueing included.
    """

    database_url: str = field(default_factory=lambda: os.environ.get(
        "DATABASE_URL", "sqlite+aiosqlite:///./parlour.db"))
    host: str = field(default_factory=lambda: os.environ.get("HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(os.environ.get("PORT", "8000")))
    public_url: str | None = field(default_factory=lambda: os.environ.get("PUBLIC_URL") or None)
    engines: tuple[str, ...] = field(default_factory=_default_engines)
    snapshot_every: int = field(default_factory=lambda: int(os.environ.get("SNAPSHOT_EVERY", "50")))
    keepalive_seconds: float = field(default_factory=lambda: float(os.environ.get("KEEPALIVE_SECONDS", "20")))
    table_idle_seconds: float = field(default_factory=lambda: float(os.environ.get("TABLE_IDLE_SECONDS", "600")))
    finished_idle_seconds: float = field(default_factory=lambda: float(os.environ.get("FINISHED_IDLE_SECONDS", "30")))
    db_busy_seconds: float = field(default_factory=lambda: float(os.environ.get("DB_BUSY_SECONDS", "30")))
    cache_mb: float = field(default_factory=lambda: float(os.environ.get("CACHE_MB", "128")))
    memory_trim_seconds: float = field(default_factory=lambda: float(os.environ.get("MEMORY_TRIM_SECONDS", "60")))
    bot_workers: int = field(default_factory=lambda: int(os.environ.get(
        "BOT_WORKERS", str(max(1, (os.cpu_count() or 2) // 2)))))
    bot_queue: int = field(default_factory=lambda: int(os.environ.get("BOT_QUEUE", "8")))
    bot_delay_seconds: float = field(default_factory=lambda: float(os.environ.get("BOT_DELAY_SECONDS", "0.7")))
    bot_think_seconds: float = field(default_factory=lambda: float(os.environ.get("BOT_THINK_SECONDS", "0.9")))
    clock_poll_seconds: float = field(default_factory=lambda: float(os.environ.get("CLOCK_POLL_SECONDS", "1")))
    push_contact: str = field(default_factory=lambda: os.environ.get("PUSH_CONTACT", "mailto:parlour@localhost"))
    push_services: tuple[str, ...] = field(
        default_factory=lambda: parse_push_services(os.environ.get("PUSH_SERVICES", "")))
    push_test_port: int = field(default_factory=lambda: int(os.environ.get("PUSH_TEST_PORT") or "0"))
    push_ca_file: str | None = field(default_factory=lambda: os.environ.get("PUSH_CA_FILE") or None)
    stats_token: str | None = field(default_factory=lambda: os.environ.get("STATS_TOKEN") or None)
    log_format: str = field(default_factory=lambda: os.environ.get("LOG_FORMAT", "text").strip().lower() or "text")
    max_frame_bytes: int = 64 * 1024
    chat_max_chars: int = 500
    failed_lookups_per_minute: int = 10
    sockets_per_seat: int = 8
    sockets_per_address: int = 64


def async_url(url: str) -> str:
    """The async-driver form of a database URL (what the server uses)."""
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url.removeprefix("sqlite:///")
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def sync_url(url: str) -> str:
    """The sync-driver form of a database URL (what Alembic uses)."""
    url = async_url(url)
    if url.startswith("sqlite+aiosqlite:"):
        return "sqlite:" + url.removeprefix("sqlite+aiosqlite:")
    return url  # psycopg 3 serves both sync and async


def is_postgres(url: str) -> bool:
    return async_url(url).startswith("postgresql")
