"""Benchmark and soak test for the London engine: N seeded random games, 2/3/4 players.

After every move it checks the invariants (cards conserved, loan tokens conserved, money,
poverty and loans never negative); every ``--views-every`` moves it checks that no seat's view
(nor a spectator's) shows a hidden card and that views are JSON; every ``--all-moves-every``
moves it plays every listed legal move on a copy; at the end of each game it replays seed + moves
and compares, and resumes from a decoded snapshot taken mid-game and compares.

It prints games per second (with checks), the median engine time per game (legal_moves + play
only), moves per game, and every failure.

    python bench/london_engine.py --games 10000
    python bench/london_engine.py --games 300 --rules-version 1

``--code DIR`` measures the engine of another checkout of the project (for example one made with
``git worktree add DIR <commit>``) with this very harness. ``--side-by-side DIR`` compares that
older engine with this one: ``--rounds`` times, the sides run at once, each in a fresh process,
over the same seeds — this engine under rules version 1 (whose games are move for move the older code's
games) and under the newest version — and it prints each run's figures and the medians side by
side. The engine time is processor time in ``legal_moves`` and ``play`` only, not in the random
player.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path


def _code_root(argv: list[str]) -> Path:
    """The checkout whose engine is measured: ``--code DIR``, else this one."""
    for i, arg in enumerate(argv):
        if arg == "--code" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
        if arg.startswith("--code="):
            return Path(arg.split("=", 1)[1]).resolve()
    return Path(__file__).resolve().parents[1]


sys.path.insert(0, str(_code_root(sys.argv)))

from engines.london.playout import ENGINE, check_invariants, random_move, replay  # noqa: E402


def _new_game(seats: int, seed: int, version: int | None):  # type: ignore[no-untyped-def]
    if version is None:  # the newest; an older checkout may know no rules versions
        return ENGINE.new_game(seats, seed, {})
    return ENGINE.new_game(seats, seed, {}, rules_version=version)


cpu = time.process_time
"""The engine's time is this process's processor time, so that other work on a shared machine
does not count (the games per second are wall-clock)."""


def one_game(seats: int, seed: int, views_every: int, all_moves_every: int,
             version: int | None = None) -> tuple[float, int]:
    """Play and check one game; return (engine seconds, moves)."""
    rng = random.Random(seed * 7919 + seats)
    s = _new_game(seats, seed, version)
    moves = []
    engine_time = 0.0
    cut = None
    snapshot = None
    n = 0
    while not s.over:
        if n > 20000:
            raise AssertionError("game did not end within 20000 moves")
        (seat,) = ENGINE.to_act(s)
        t0 = cpu()
        legal = ENGINE.legal_moves(s, seat)
        t1 = cpu()
        m = random_move(legal, rng)  # the random player: not the engine's time
        t2 = cpu()
        ENGINE.play(s, seat, m)
        engine_time += cpu() - t2 + t1 - t0
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
    again = replay(seats, seed, moves) if version is None else replay(seats, seed, moves, version)
    assert ENGINE.encode(again) == final, "replay differs"
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
    ap.add_argument("--rules-version", type=int, default=None, help="default: the newest")
    ap.add_argument("--code", metavar="DIR", help="measure the engine of the checkout in DIR")
    ap.add_argument("--side-by-side", metavar="DIR", help="compare with the older checkout in DIR")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each side (--side-by-side)")
    args = ap.parse_args(argv)
    if args.side_by_side:
        return side_by_side(args)
    per_seats: dict[int, list[tuple[float, int]]] = {2: [], 3: [], 4: []}
    failures: list[str] = []
    t0 = time.perf_counter()
    for i in range(args.start, args.start + args.games):
        seats = 2 + i % 3
        try:
            per_seats[seats].append(one_game(seats, i, args.views_every, args.all_moves_every,
                                             args.rules_version))
        except Exception:
            failures.append(f"{seats} players, seed {i}:\n{traceback.format_exc()}")
    wall = time.perf_counter() - t0
    done = sum(len(v) for v in per_seats.values())
    out = sys.stdout
    newest = getattr(ENGINE, "rules_version", 1)
    version = newest if args.rules_version is None else args.rules_version
    out.write(f"London engine (rules version {version}): {done} games finished, {len(failures)} "
              f"failures, {wall:.1f} s\n")
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


_FIGURES = {
    "games/s with all checks": re.compile(r"with all checks: ([0-9.]+) games/s"),
    "2 players µs/move": re.compile(r"2 players:.*?([0-9.]+) µs per move"),
    "3 players µs/move": re.compile(r"3 players:.*?([0-9.]+) µs per move"),
    "4 players µs/move": re.compile(r"4 players:.*?([0-9.]+) µs per move"),
    "2 players ms/game": re.compile(r"2 players:.*?median ([0-9.]+) ms"),
    "3 players ms/game": re.compile(r"3 players:.*?median ([0-9.]+) ms"),
    "4 players ms/game": re.compile(r"4 players:.*?median ([0-9.]+) ms"),
}


def side_by_side(args: argparse.Namespace) -> int:
    """Run the older checkout's benchmark and this one in turn; print the medians of each."""
    here = str(Path(__file__).resolve())
    common = ["--games", str(args.games), "--start", str(args.start),
              "--views-every", str(args.views_every), "--all-moves-every", str(args.all_moves_every)]
    sides = {"older code": [here, "--code", str(Path(args.side_by_side).resolve()), *common],
             "this code, rules v1 (same games)": [here, *common, "--rules-version", "1"],
             "this code, newest rules": [here, *common]}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    out = sys.stdout
    failed = False
    for r in range(args.rounds):
        # the sides of a round run at the same time: whatever else the machine is doing weighs
        # on all of them alike
        procs = {name: subprocess.Popen([sys.executable, *cmd], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
                 for name, cmd in sides.items()}
        for name, proc in procs.items():
            stdout, _ = proc.communicate()
            failed |= proc.returncode != 0
            figures = {k: float(m.group(1)) for k, rx in _FIGURES.items() if (m := rx.search(stdout))}
            runs[name].append(figures)
            out.write(f"round {r + 1}, {name}: " + ", ".join(f"{k} {v:g}" for k, v in figures.items())
                      + ("" if proc.returncode == 0 else f"  [exit {proc.returncode}]") + "\n")
    out.write(f"\nMedians over {args.rounds} rounds of {args.games} games (lower is better, except "
              f"games/s):\n")
    out.write(f"  {'':28}" + "".join(f"{name:>34}" for name in sides) + "\n")
    for key in _FIGURES:
        cells = []
        for name in sides:
            values = [f[key] for f in runs[name] if key in f]
            cells.append(f"{statistics.median(values):>34.2f}" if values else f"{'-':>34}")
        out.write(f"  {key:28}" + "".join(cells) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
