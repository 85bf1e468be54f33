"""`parlour serve` runs the site; `parlour verify` replays a finished game's published record."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import urllib.request

from app.config import Settings


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.main import create_app

    settings = Settings()
    # Migrating in a child process keeps Alembic's machinery out of the long-lived server.
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], check=True)
    uvicorn.run(create_app(settings), host=args.host or settings.host, port=args.port or settings.port,
                proxy_headers=True, ws="app.websocket_protocol:LeanWebSocketProtocol", ws_max_size=1024 * 1024,
                ws_ping_interval=settings.keepalive_seconds or None, ws_per_message_deflate=False,
                log_level=args.log_level, access_log=not args.no_access_log)
    return 0


def migrate(args: argparse.Namespace) -> int:
    from app.db import migrate as upgrade

    upgrade(Settings().database_url)
    return 0


def verify(args: argparse.Namespace) -> int:
    from app.record import verify_record
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
    p_verify = sub.add_parser("verify", help="replay a finished game's record (file or URL)")
    p_verify.add_argument("record", help="a record file, or the URL /api/tables/CODE/record")
    p_verify.set_defaults(func=verify)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
