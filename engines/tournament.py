"""Bot-only tournaments for any game, in parallel across processes.

    python -m engines.tournament london --seats 4 --games 200 --bots good,easy --jobs 2

``--bots`` names one level per entrant; with fewer entrants than seats the last level fills the
other seats (``good,easy`` at four seats: one good bot against three easy ones). Game ``g`` seats
entrant ``i`` at seat ``(i + g) % seats``, so no entrant always sits first, and is dealt with a
seed drawn from ``--seed`` and ``g``: the same command plays the same games. Prints each entrant's
and each level's share of the wins (a shared victory is split) with its 95% Wilson interval, the
average game length in moves, and each level's CPU time per decision (a move with a single
sensible choice is not a decision), then what the game's bot hooks say about balance: for every
component a winner can hold (a card, a borough, a deck), how often its holder won.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.base import Engine, new_game
from engines.bots import LEVELS, Budget, decide, hooks_for
from engines.kit.rng import Rng
from engines.registry import BUILTIN, load_engine, load_engines

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in wilson(140, 200)]
    [0.633, 0.759]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_of(entrant: int, game: int, seats: int) -> int:
    """Where entrant ``entrant`` sits in game ``game``: rotated one seat per game."""
    return (entrant + game) % seats


def game_seed(seed: int, game: int) -> int:
    """A 128-bit seed for game ``game`` of a tournament seeded with ``seed``."""
    rng = Rng.from_seed(seed * 1_000_003 + game)
    return (rng.next64() << 64) | rng.next64()


@dataclass(frozen=True)
class Setup:
    game: str
    seats: int
    levels: tuple[str, ...]  # one per entrant; entrant i is levels[i]
    seed: int
    budget: Budget
    options: Mapping[str, Any] = field(default_factory=dict)
    max_moves: int = 20_000


@dataclass
class Outcome:
    game: int
    shares: list[float]  # per entrant
    moves: int
    decisions: dict[str, int] = field(default_factory=dict)  # per level
    seconds: dict[str, float] = field(default_factory=dict)  # per level, decisions only
    slowest: dict[str, float] = field(default_factory=dict)
    iterations: dict[str, int] = field(default_factory=dict)
    held: dict[str, list[int]] = field(default_factory=dict)  # component -> entrants holding it
    error: str | None = None


_ENGINES: dict[str, Engine] = {}


def engine_for(game: str) -> Engine:
    """A registered game by id, or any engine by "module:ATTRIBUTE"."""
    if game not in _ENGINES:
        if ":" in game:
            _ENGINES[game] = load_engine(game)
        else:
            known = load_engines(BUILTIN)
            if game not in known:
                raise SystemExit(f"unknown game {game!r}; registered: {', '.join(sorted(known))}")
            _ENGINES[game] = known[game]
    return _ENGINES[game]


def play_one(setup: Setup, g: int) -> Outcome:
    """Play game ``g`` of the tournament to its end."""
    engine = engine_for(setup.game)
    seats = setup.seats
    entrant_at = {seat_of(i, g, seats): i for i in range(seats)}
    state = new_game(engine, seats, game_seed(setup.seed, g), setup.options)
    rngs = [Rng.from_seed(game_seed(setup.seed, g) ^ (0x9E3779B97F4A7C15 * (i + 1))) for i in range(seats)]
    out = Outcome(g, [0.0] * seats, 0)
    while True:
        awaited = sorted(engine.to_act(state))
        if not awaited:
            break
        if out.moves >= setup.max_moves:
            out.error = f"game {g} did not end within {setup.max_moves} moves"
            return out
        seat = awaited[0]
        who = entrant_at[seat]
        level = setup.levels[who]
        start = time.thread_time()
        choice = decide(engine, state, seat, level, rngs[who], setup.budget)
        spent = time.thread_time() - start
        if choice.considered > 1:
            out.decisions[level] = out.decisions.get(level, 0) + 1
            out.seconds[level] = out.seconds.get(level, 0.0) + spent
            out.slowest[level] = max(out.slowest.get(level, 0.0), spent)
            out.iterations[level] = out.iterations.get(level, 0) + choice.iterations
        engine.play(state, seat, choice.move)
        out.moves += 1
    result = engine.result(state)
    assert result is not None
    for s in result.winners:
        out.shares[entrant_at[s]] += 1.0 / len(result.winners)
    components = hooks_for(engine).components
    if components is not None:
        for name, holders in components(engine, state).items():
            out.held[name] = sorted(entrant_at[s] for s in holders)
    return out


def _play(args: tuple[Setup, int]) -> Outcome:
    return play_one(*args)


def run(setup: Setup, games: range, jobs: int) -> Iterator[Outcome]:
    tasks = [(setup, g) for g in games]
    if jobs <= 1:
        yield from map(_play, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play, tasks, chunksize=1)


@dataclass
class Report:
    setup: Setup
    outcomes: list[Outcome]

    def lines(self) -> list[str]:
        s, done = self.setup, [o for o in self.outcomes if o.error is None]
        n = len(done)
        out = [f"{s.game}, {s.seats} seats, {n} games (seed {s.seed}); bots: "
               + ", ".join(f"{i}={lv}" for i, lv in enumerate(s.levels))
               + f"; good's budget: {s.budget.iterations} iterations"
               + (f", {s.budget.seconds} s" if s.budget.seconds is not None else "")]
        for o in self.outcomes:
            if o.error is not None:
                out.append(f"  FAILED: {o.error}")
        if not n:
            return out
        out.append("  win share (95% Wilson interval)   [fair share: "
                   f"{1 / s.seats:.1%}]")
        for i, level in enumerate(s.levels):
            won = sum(o.shares[i] for o in done)
            lo, hi = wilson(won, n)
            out.append(f"    entrant {i} ({level:4}): {won / n:6.1%}  [{lo:.1%}, {hi:.1%}]")
        for level in sorted(set(s.levels)):
            who = [i for i, lv in enumerate(s.levels) if lv == level]
            if len(who) > 1:
                won = sum(o.shares[i] for o in done for i in who)
                lo, hi = wilson(won, n * len(who))
                out.append(f"    every {level:4} : {won / (n * len(who)):6.1%} per seat  [{lo:.1%}, {hi:.1%}]")
        out.append(f"  game length: {sum(o.moves for o in done) / n:.1f} moves on average")
        for level in sorted(set(s.levels)):
            k = sum(o.decisions.get(level, 0) for o in done)
            if k:
                secs = sum(o.seconds.get(level, 0.0) for o in done)
                worst = max(o.slowest.get(level, 0.0) for o in done)
                its = sum(o.iterations.get(level, 0) for o in done)
                extra = f", {its / k:.0f} iterations" if its else ""
                out.append(f"  {level}: {k / n:.1f} decisions a game, {1000 * secs / k:.1f} ms CPU per decision"
                           f" (slowest {1000 * worst:.0f} ms){extra}")
        out.extend(self.balance())
        return out

    def balance(self) -> list[str]:
        """How often each seat won (seat 0 moves first), and for each component how often its
        holder won; marked when the 95% interval lies wholly above or below the fair share."""
        s, done = self.setup, [o for o in self.outcomes if o.error is None]
        fair = sum(sum(o.shares) for o in done) / max(1, len(done) * s.seats)  # games without a winner
        out = [f"  balance by seat (each entrant sits at each seat in turn; a seat's share: {fair:.1%})"]
        for seat in range(s.seats):
            won = sum(o.shares[i] for o in done for i in range(s.seats) if seat_of(i, o.game, s.seats) == seat)
            lo, hi = wilson(won, len(done))
            flag = "  above its share" if lo > fair else ("  below its share" if hi < fair else "")
            out.append(f"    seat {seat}: {won / max(1, len(done)):6.1%}  [{lo:.1%}, {hi:.1%}]{flag}")
        held: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for o in done:
            for name, entrants in o.held.items():
                for i in entrants:
                    held[name][0] += 1
                    held[name][1] += o.shares[i]
        if not held:
            return out
        groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for name, (n, won) in held.items():
            group = groups[name.split()[0]]
            group[0] += n
            group[1] += won
        out.append("  balance by component: games its holder won (a holder per game and seat); its share is"
                   " what a holder of any component of its kind won")
        for kind_name, (n, won) in sorted(groups.items()):
            out.append(f"    any {kind_name}: {won / n:6.1%} of {int(n)}")
        rows = []
        for name, (n, won) in held.items():
            lo, hi = wilson(won, int(n))
            kn, kw = groups[name.split()[0]]
            rows.append((won / n, name, int(n), lo, hi, kw / kn))
        rows.sort(reverse=True)
        for rate, name, n, lo, hi, share in rows:
            flag = "  above its share" if lo > share else ("  below its share" if hi < share else "")
            out.append(f"    {name:32} {rate:6.1%} of {n:4}  [{lo:.1%}, {hi:.1%}]{flag}")
        return out


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engines.tournament", description=__doc__.split("\n\n")[0])
    p.add_argument("game", help="a registered game id, or module:ATTRIBUTE")
    p.add_argument("--seats", type=int, required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--bots", default="good,easy", help="levels, one per entrant (the last fills the rest)")
    p.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=Budget.iterations, help="good's search iterations per move")
    p.add_argument("--seconds", type=float, default=Budget.seconds,
                   help="good's CPU seconds per move (0: none, the games are then reproducible)")
    p.add_argument("--option", action="append", default=[], help="a game option, key=value")
    p.add_argument("--balance", action="store_true", help="also print the balance table")
    p.add_argument("--first", type=int, default=0, help="the first game's number (to play a tournament in parts)")
    p.add_argument("--record", help="append each game's outcome to this file (JSON lines)")
    p.add_argument("--report", nargs="+", metavar="FILE",
                   help="print the report of recorded games (with the same game, seats and bots) instead of playing")
    a = p.parse_args(argv)
    engine = engine_for(a.game)
    if not engine.min_seats <= a.seats <= engine.max_seats:
        p.error(f"{engine.title} is for {engine.min_seats} to {engine.max_seats} players")
    levels = [lv.strip() for lv in a.bots.split(",") if lv.strip()]
    if not levels or len(levels) > a.seats or any(lv not in LEVELS for lv in levels):
        p.error(f"--bots: 1 to {a.seats} of {', '.join(LEVELS)}")
    levels += [levels[-1]] * (a.seats - len(levels))
    budget = Budget(a.iterations, a.seconds or None)
    setup = Setup(a.game, a.seats, tuple(levels), a.seed, budget, parse_options(a.option))
    if a.report:
        outcomes = [Outcome(**json.loads(line)) for name in a.report
                    for line in Path(name).read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        outcomes = []
        for o in run(setup, range(a.first, a.first + a.games), a.jobs):
            outcomes.append(o)
            if a.record:
                with open(a.record, "a", encoding="utf-8") as f:
                    f.write(json.dumps(dataclasses.asdict(o)) + "\n")
    report = Report(setup, outcomes)
    lines = report.lines()
    if not a.balance:
        lines = lines[:len(lines) - len(report.balance())]
    print("\n".join(lines))
    return 1 if any(o.error for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
