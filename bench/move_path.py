"""A London move's path through the server, in-process, without the network: checked, applied,
stored in SQLite, and every seat's view built, encoded and handed to its socket (four sockets
that take every message at once), its durations recorded for /api/stats and /metrics. What a
saturated server spends per move apart from the load client, the event loop's polling and the
kernel's socket work, measured in processor time, which other processes on a shared machine
disturb far less than a load run's moves per second.

    .venv/bin/python bench/move_path.py --moves 3000 --rounds 5
    .venv/bin/python bench/move_path.py --game relay   # the floor: a game whose rules cost nothing
    perf stat -e instructions:u .venv/bin/python bench/move_path.py --moves 3000 --rounds 1

Run from another checkout (``git worktree add DIR COMMIT``; cd there) it measures that
checkout's server: the script puts its own checkout first on the import path. Prints each
round's processor time per move and their median.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.parlour import Parlour  # noqa: E402
from app.play.hub import Connection  # noqa: E402
from app.server.config import Settings  # noqa: E402
from app.storage.db import migrate  # noqa: E402
from app.storage.tokens import hash_token  # noqa: E402
from app.web.prometheus import Exporter  # noqa: E402

NAMES = ("Ada", "Bob", "Cy", "Di")


class Socket:
    """A socket that is always writable: counts what it is handed."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0

    def send_text_now(self, data: str | bytes) -> bool:
        self.messages += 1
        self.bytes += len(data)
        return True


async def _nothing(message: object) -> None:
    return None


GAMES = {"london": "engines.london:ENGINE", "relay": "bench.floor_game:ENGINE"}
"""The games it plays: London, and Relay (bench/floor_game.py), whose rules cost next to nothing."""


async def run(url: str, moves: int, rounds: int, seed: int, game: str = "london") -> list[float]:
    parlour = Parlour(Settings(database_url=url, engines=(GAMES[game],), public_url=None))
    await parlour.start()
    Exporter(parlour)  # the server's /metrics histograms are fed on every move, as in the server
    rng = random.Random(seed)
    sockets: list[Socket] = []
    per_move: list[float] = []
    try:
        table_id = None
        for _ in range(rounds):
            done = 0
            cpu = 0.0
            while done < moves:
                live = await parlour.tables.get(table_id) if table_id is not None else None
                if live is None or live.status != "playing":  # a new table: found, join, start, sockets
                    ticket = await parlour.rooms.found(game, NAMES[0], {})
                    for name in NAMES[1:]:
                        await parlour.rooms.join(ticket.table_id, name)
                    await parlour.rooms.start(hash_token(ticket.token))
                    table_id = ticket.table_id
                    live = await parlour.tables.get(table_id)
                    assert live is not None
                    for player in live.players:
                        socket = Socket()
                        sockets.append(socket)
                        parlour.hub.join(Connection(_nothing, live.id, player.id, seat=player.seat,
                                                    socket=socket), live)
                    continue
                seat = live.awaiting[0]
                player = next(p for p in live.players if p.seat == seat)
                move = rng.choice(live.engine.legal_moves(live.state, seat))  # the client's choice, not timed
                t0 = time.process_time()
                await parlour.mover.play(live, player, live.seq, move)
                cpu += time.process_time() - t0
                done += 1
            per_move.append(cpu / done)
    finally:
        await parlour.stop()
    sent = sum(s.messages for s in sockets)
    print(f"  {sent} messages, {sum(s.bytes for s in sockets) / max(1, sent):.0f} bytes each on average")
    return per_move


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=3000, help="moves per round")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--game", choices=sorted(GAMES), default="london")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'parlour.db'}"
        migrate(url)
        times = asyncio.run(run(url, a.moves, a.rounds, a.seed, a.game))
    print("  processor time per move, each round (µs):", " ".join(f"{1e6 * t:.0f}" for t in times))
    print(f"  median {1e6 * statistics.median(times):.0f} µs ({ROOT})")


if __name__ == "__main__":
    main()
