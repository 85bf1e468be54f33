"""Benchmark and soak test for the London engine: N seeded random games, 2/3/4 players.

After every move it checks the invariants (cards conserved, loan tokens conserved, money,
poverty and loans never negative); every ``--views-every`` moves it checks that no seat's view
(nor a spectator's) shows a hidden card and that views are JSON; every ``--all-moves-every``
moves it plays every listed legal move on a copy; at the end of each game it replays seed + moves
and compares, and resumes from a decoded snapshot taken mid-game and compares.

It prints games per second (with checks), the median engine time per game (legal_moves + play
only), moves per game, and every failure.

    python bench/london_engine.py --games 10000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.london.playout import ENGINE, check_invariants, random_move, replay


def one_game(seats: int, seed: int, views_every: int, all_moves_every: int) -> tuple[float, int]:
    """Play and check one game; return (engine seconds, moves)."""
    rng = random.Random(seed * 7919 + seats)
    s = ENGINE.new_game(seats, seed, {})
    moves = []
    engine_time = 0.0
    cut = None
    snapshot = None
    n = 0
    while not s.over:
        if n > 20000:
            raise AssertionError("game did not end within 20000 moves")
        (seat,) = ENGINE.to_act(s)
        t0 = time.perf_counter()
        legal = ENGINE.legal_moves(s, seat)
        m = random_move(legal, rng)
        ENGINE.play(s, seat, m)
        engine_time += time.perf_counter() - t0
        moves.append((seat, m))
        n += 1
        check_invariants(s, views=bool(views_every) and n % views_every == 0)
        if all_moves_every and n % all_moves_every == 0 and not s.over:
            snap = ENGINE.encode(s)
            (nxt,) = ENGINE.to_act(s)
            for lm in ENGINE.legal_moves(s, nxt):
                ENGINE.play(ENGINE.decode(snap), nxt, lm)
        if cut is None and rng.random() < 0.01:
            cut, snapshot = n, ENGINE.encode(s)
    final = ENGINE.encode(s)
    assert ENGINE.result(s) is not None
    assert ENGINE.encode(replay(seats, seed, moves)) == final, "replay differs"
    if snapshot is not None and cut is not None:
        resumed = ENGINE.decode(snapshot)
        for seat, m in moves[cut:]:
            ENGINE.play(resumed, seat, m)
        assert ENGINE.encode(resumed) == final, "resumed snapshot differs"
    return engine_time, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--views-every", type=int, default=25)
    ap.add_argument("--all-moves-every", type=int, default=50)
    args = ap.parse_args(argv)
    per_seats: dict[int, list[tuple[float, int]]] = {2: [], 3: [], 4: []}
    failures: list[str] = []
    t0 = time.perf_counter()
    for i in range(args.start, args.start + args.games):
        seats = 2 + i % 3
        try:
            per_seats[seats].append(one_game(seats, i, args.views_every, args.all_moves_every))
        except Exception:
            failures.append(f"{seats} players, seed {i}:\n{traceback.format_exc()}")
    wall = time.perf_counter() - t0
    done = sum(len(v) for v in per_seats.values())
    out = sys.stdout
    out.write(f"London engine: {done} games finished, {len(failures)} failures, {wall:.1f} s\n")
    out.write(f"  with all checks: {done / wall:.1f} games/s\n")
    for seats, rows in per_seats.items():
        if not rows:
            continue
        ms = sorted(t * 1000 for t, _ in rows)
        lengths = sorted(n for _, n in rows)
        per_move_us = statistics.median(t / n * 1e6 for t, n in rows)
        out.write(f"  {seats} players: {len(rows)} games; engine time (legal_moves + play) per game "
                  f"median {statistics.median(ms):.2f} ms, p95 {ms[int(len(ms) * 0.95)]:.2f} ms "
                  f"({1000 / statistics.median(ms):.0f} games/s on one core); "
                  f"{per_move_us:.1f} µs per move; moves per game median {statistics.median(lengths):.0f} "
                  f"(min {lengths[0]}, max {lengths[-1]})\n")
    for f in failures[:10]:
        out.write("FAILURE " + f + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
