"""`parlour serve` runs the site; `parlour migrate` brings the database to the newest schema;
`parlour backup` and `parlour restore` copy the database out and back; `parlour verify` replays
a finished game's published record."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from app.server.config import Settings

# On SIGTERM: how long requests and sockets still at work (a move being stored) may take before
# they are cancelled; a socket's message in hand has SHUTDOWN_GRACE (app/web/websocket_protocol.py)
# before its close. With the application's own stop after it, a process is gone well within the
# 10 s a container is given before SIGKILL.
GRACEFUL_SHUTDOWN_SECONDS = 6


def database_folder_problem(url: str) -> str | None:
    """For a SQLite database: why this user cannot write where it lies (None: it can)."""
    from sqlalchemy.engine import make_url

    from app.server.config import async_url, is_postgres

    if is_postgres(url):
        return None
    name = make_url(async_url(url)).database
    if not name or name == ":memory:":
        return None
    path = Path(name).resolve()
    folder = path.parent
    if not folder.is_dir():
        return f"the folder {folder} for the database does not exist"
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return (f"user {os.getuid()} cannot write to {folder}, where the database {path.name} lies. If it is a "
                f"folder of the host mounted into a container, let that user own it: `chown {os.getuid()} "
                "<the host folder>` (or use a named volume)")
    return None


LEAN_FLAGS = ["-OO", "-X", "no_debug_ranges"]
"""The long-lived server runs without docstrings, asserts and column positions in its code
objects: 4–5 MB less resident memory at every size (docs/PERFORMANCE.md, "Round three,
2026-12-02: memory"); nothing of the server reads a docstring or relies on an assert."""


def lean_interpreter() -> list[str] | None:
    """The command that runs this one again under LEAN_FLAGS; None when it already does (or
    PARLOUR_LEAN=0 asks for the interpreter as it is)."""
    if sys.flags.optimize >= 2 or os.environ.get("PARLOUR_LEAN") == "0":
        return None
    return [sys.executable, *LEAN_FLAGS, *sys.orig_argv[1:]]


def serve(args: argparse.Namespace) -> int:
    again = lean_interpreter()
    if again is not None:
        os.execv(sys.executable, again)  # the same process (its pid, its signals), leaner
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from app.main import create_app
    from app.server.logs import log_config

    settings = Settings()
    problem = database_folder_problem(settings.database_url)
    if problem:
        print(f"parlour: cannot start: {problem}.", file=sys.stderr)
        return 2
    try:
        logs = log_config(settings.log_format, args.log_level)
    except ValueError as exc:
        print(f"parlour: cannot start: {exc}.", file=sys.stderr)
        return 2
    # Migrating in a child process keeps Alembic's machinery out of the long-lived server.
    if subprocess.run([sys.executable, "-m", "app.cli", "migrate"]).returncode:
        return 1
    uvicorn.run(create_app(settings), host=args.host or settings.host, port=args.port or settings.port,
                proxy_headers=True, ws="app.web.websocket_protocol:LeanWebSocketProtocol", ws_max_size=1024 * 1024,
                ws_ping_interval=settings.keepalive_seconds or None, ws_per_message_deflate=False,
                log_level=args.log_level, access_log=not args.no_access_log,
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
                log_config=logs if logs is not None else LOGGING_CONFIG)
    return 0


def migrate(args: argparse.Namespace) -> int:
    from app.storage.db import migrate as upgrade

    problem = database_folder_problem(Settings().database_url)
    if problem:
        print(f"parlour: cannot migrate: {problem}.", file=sys.stderr)
        return 2
    upgrade(Settings().database_url)
    return 0


def backup(args: argparse.Namespace) -> int:
    from app.storage.backup import BackupError, Refused
    from app.storage.backup import backup as copy_out

    try:
        done = copy_out(Settings().database_url, Path(args.path), force=args.force)
    except BackupError as exc:
        print(f"parlour: backup not made: {exc}.", file=sys.stderr)
        return 2 if isinstance(exc, Refused) else 1
    print(done.describe("backed up to"))
    return 0


def restore(args: argparse.Namespace) -> int:
    from app.storage.backup import BackupError, Refused
    from app.storage.backup import restore as copy_in

    try:
        done = copy_in(Settings().database_url, Path(args.path), force=args.force)
    except BackupError as exc:
        print(f"parlour: not restored: {exc}.", file=sys.stderr)
        return 2 if isinstance(exc, Refused) else 1
    print(done.describe("restored from"))
    print("`parlour serve` (or `parlour migrate`) brings it to this release's schema.")
    return 0


def verify(args: argparse.Namespace) -> int:
    from app.features.record import verify_record
    from engines.registry import load_engines

    source: str = args.record
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as resp:
            record = json.load(resp)
    else:
        with open(source, encoding="utf-8") as fh:
            record = json.load(fh)
    problems = verify_record(record, load_engines(Settings().engines))
    if problems:
        for p in problems:
            print(f"FAILED: {p}")
        return 1
    print(f"OK: table {record['code']} ({record['game']}): seed matches its published hash, "
          f"{len(record['moves'])} moves replayed, final position and result match.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="parlour")
    sub = parser.add_subparsers(dest="command", required=True)
    p_serve = sub.add_parser("serve", help="migrate the database and serve the site")
    p_serve.add_argument("--host")
    p_serve.add_argument("--port", type=int)
    p_serve.add_argument("--log-level", default="info")
    p_serve.add_argument("--no-access-log", action="store_true")
    p_serve.set_defaults(func=serve)
    sub.add_parser("migrate", help="bring the database to the newest schema").set_defaults(func=migrate)
    p_backup = sub.add_parser("backup", help="copy the database to a file, while the server runs")
    p_backup.add_argument("path", help="the backup file to write (SQLite: a database file; PostgreSQL: "
                                       "a pg_dump custom-format archive)")
    p_backup.add_argument("--force", action="store_true", help="replace the file if it exists")
    p_backup.set_defaults(func=backup)
    p_restore = sub.add_parser("restore", help="put a backup in place of the database (stop the server first)")
    p_restore.add_argument("path", help="a file `parlour backup` wrote")
    p_restore.add_argument("--force", action="store_true",
                           help="replace a database that holds games (everything in it is lost)")
    p_restore.set_defaults(func=restore)
    p_verify = sub.add_parser("verify", help="replay a finished game's record (file or URL)")
    p_verify.add_argument("record", help="a record file, or the URL /api/tables/CODE/record")
    p_verify.set_defaults(func=verify)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
