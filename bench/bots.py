"""How much a "good" bot searches in its time budget, per game and player count.

    python bench/bots.py                    # every registered game with determinize, 0.9 s a move
    python bench/bots.py --seconds 0.3 --positions 3 --games london

For each game and player count, plays a seeded game with easy bots and, at a few positions where
seat 0 has a choice, asks the good bot (default budget: 0.9 s of CPU) for a move: prints the
iterations it reached and the CPU time it took (median and slowest).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.bots import Budget, decide
from engines.kit import Rng
from engines.registry import BUILTIN, load_engines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=0.9)
    p.add_argument("--positions", type=int, default=5)
    p.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    a = p.parse_args()
    engines = load_engines(BUILTIN)
    wanted = [g for g in a.games.split(",") if g] or sorted(engines)
    budget = Budget(iterations=10**9, seconds=a.seconds)
    for gid in wanted:
        engine = engines[gid]
        for seats in range(engine.min_seats, engine.max_seats + 1):
            state = engine.new_game(seats, 1000 + seats, {})
            easy = Rng.from_seed(seats)
            iterations: list[int] = []
            seconds: list[float] = []
            move = 0
            while engine.to_act(state) and len(iterations) < a.positions:
                seat = min(engine.to_act(state))
                if seat == 0 and move % 7 == 0 and len(engine.legal_moves(state, 0)) > 1:
                    start = time.thread_time()
                    choice = decide(engine, state, 0, "good", Rng.from_seed(move), budget)
                    if choice.iterations:
                        seconds.append(time.thread_time() - start)
                        iterations.append(choice.iterations)
                engine.play(state, seat, decide(engine, state, seat, "easy", easy).move)
                move += 1
            if iterations:
                print(f"{gid:16} {seats}p  iterations median {statistics.median(iterations):7.0f}"
                      f" (min {min(iterations)})  CPU median {statistics.median(seconds):.3f} s"
                      f" (slowest {max(seconds):.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
