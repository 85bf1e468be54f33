"""Benchmark, soak and balance report of the Towers of Babylon engine.

    python bench/towers_of_babylon_engine.py                  # 10,000 random games, invariants checked
    python bench/towers_of_babylon_engine.py --games 200      # fewer
    python bench/towers_of_babylon_engine.py --time 500       # median milliseconds of a random game
    python bench/towers_of_babylon_engine.py --balance 400    # random and greedy games between decks

The soak plays random legal moves (each seat on a ready-made deck drawn by lot; one game in ten
from the very first move, decks put together card by card; one player in two greedy), checking the
invariants of ``playout.check_invariants`` after every move: cards conserved across zones, power
sources conserved, towers and damage consistent, the end when it is due, a legal move for every
awaited seat and none for the others.

The timing plays the same random games without the checks, one after the other on one core,
and prints the median milliseconds of a whole game (deck choice to result), and the same for a
game whose deck choice is uniform among the listed moves too (decks put together card by card).

The balance report plays every pair of ready-made decks both ways round (seats swapped every
other game, who plays first by lot), with two random players and with two greedy players, and
prints how often each deck wins; draws count half.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.towers_of_babylon import ENGINE
from engines.towers_of_babylon.components import DECKS
from engines.towers_of_babylon.playout import check_invariants, play_game
from engines.towers_of_babylon.state import State

DECK_IDS = tuple(DECKS)


def decks_for(seed: int) -> tuple[str, str]:
    rng = random.Random(seed ^ 0x5EED)
    return (DECK_IDS[rng.randrange(len(DECK_IDS))], DECK_IDS[rng.randrange(len(DECK_IDS))])


def random_game(seed: int, check: bool = True) -> State:
    return play_game(seed, decks_for(seed), ("random", "random"), check_invariants if check else None)


def uniform_game(seed: int, check: bool = False) -> State:
    """A game of uniformly random listed moves from the very first (deck choice included)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed, {})
    while not state.over:
        if check:
            check_invariants(state)
        awaited = sorted(ENGINE.to_act(state))
        seat = rng.choice(awaited)
        ENGINE.play(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    if check:
        check_invariants(state)
    return state


SOAK_PLAYERS = (("random", "random"), ("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))


def soak_game(seed: int) -> State:
    """Game ``seed`` of the soak: one in ten with decks put together by random moves, the others on
    ready-made decks, by random and greedy players in turn (so towers reach the goal too)."""
    if seed % 10 == 9:
        return uniform_game(seed, check=True)
    return play_game(seed, decks_for(seed), SOAK_PLAYERS[seed % 4], check_invariants)


def soak(games: int, first: int = 0) -> dict[str, object]:
    start = time.perf_counter()
    outcomes: Counter[str] = Counter()
    for seed in range(first, first + games):
        try:
            state = soak_game(seed)
        except AssertionError as err:
            raise AssertionError(f"soak game {seed}: {err}") from err
        outcomes[state.outcome] += 1
    seconds = time.perf_counter() - start
    report = {"games": games, "seconds": round(seconds, 1), "outcomes": dict(outcomes)}
    print(f"soak: games {first} to {first + games - 1}, random and greedy, invariants checked after every "
          f"move, in {seconds:.1f} s ({games / seconds:.0f} games/s); outcomes {dict(outcomes)}")
    return report


def timing(games: int) -> dict[str, float]:
    """CPU time of this process (``time.process_time``): what one core spends on a game, even
    when other processes share the machine; wall-clock time beside it."""
    per_game, wall, moves = [], [], []
    for seed in range(games):
        t, w = time.process_time(), time.perf_counter()
        state = random_game(seed, check=False)
        per_game.append((time.process_time() - t) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
        moves.append(state.moves)
    uniform = []
    for seed in range(max(1, games // 5)):
        t = time.process_time()
        uniform_game(seed, check=False)
        uniform.append((time.process_time() - t) * 1000)
    out = {"median_ms": statistics.median(per_game), "p90_ms": sorted(per_game)[int(0.9 * len(per_game))],
           "median_wall_ms": statistics.median(wall), "median_moves": statistics.median(moves),
           "uniform_median_ms": statistics.median(uniform)}
    print(f"timing: a random game (ready-made decks) takes {out['median_ms']:.1f} ms of CPU median "
          f"(p90 {out['p90_ms']:.1f} ms; wall {out['median_wall_ms']:.1f} ms; {out['median_moves']:.0f} moves) "
          f"over {games} games; with decks put together by random moves too: "
          f"{out['uniform_median_ms']:.1f} ms median")
    return out


def balance(games: int) -> dict[str, dict[str, float]]:
    """Win rate of the first deck of each pair against the second, per kind of player."""
    report: dict[str, dict[str, float]] = {}
    for kind in ("random", "greedy"):
        rates: dict[str, float] = {}
        first_wins = total = 0.0
        outcomes: Counter[str] = Counter()
        for i, (a, b) in enumerate(itertools.combinations(DECK_IDS, 2)):
            score = 0.0
            for g in range(games):
                swap = g % 2 == 1
                state = play_game(100_000 * i + g, (b, a) if swap else (a, b), (kind, kind))
                seat_a = 1 if swap else 0
                score += 1.0 if state.winner == seat_a else 0.5 if state.winner < 0 else 0.0
                first_wins += 1.0 if state.winner == state.first else 0.5 if state.winner < 0 else 0.0
                total += 1
                outcomes[state.outcome] += 1
            rates[f"{a} vs {b}"] = score / games
        worst = max(max(r, 1 - r) for r in rates.values())
        print(f"balance, {kind} players, {games} games a pair:")
        for pair, rate in rates.items():
            print(f"  {pair:32s} {rate:.1%}")
        print(f"  highest win rate of a deck against another: {worst:.1%}; the first player wins "
              f"{first_wins / total:.1%}; outcomes {dict(outcomes)}")
        report[kind] = {**rates, "worst": worst, "first_player": first_wins / total}
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="random games of the soak (default 10,000)")
    parser.add_argument("--first", type=int, default=0, help="the soak's first game (seed)")
    parser.add_argument("--time", type=int, default=0, help="only time this many random games")
    parser.add_argument("--balance", type=int, default=0, help="only the balance report, this many games a pair")
    args = parser.parse_args(argv)
    if args.balance:
        balance(args.balance)
        return
    if args.time:
        timing(args.time)
        return
    soak(args.games, args.first)
    timing(min(args.games, 1000))


if __name__ == "__main__":
    main()
