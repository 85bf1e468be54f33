"""Benchmark and balance check of the Tower of London engine.

    python bench/tower_of_london_engine.py                 # 10,000 random games, invariants checked
    python bench/tower_of_london_engine.py --games 2000    # fewer
    python bench/tower_of_london_engine.py --balance 4000  # random and greedy games: who wins
    python bench/tower_of_london_engine.py --against OLD   # side by side with another checkout

The benchmark plays random legal moves (2-5 players, seeded), checks the invariants after every
move (Beefeaters conserved per colour, 31 ravens, decks of 13/10/7, every awaited seat has a
legal move) and prints games per second and the median milliseconds of a 5-player game.

Times are wall-clock (as the server feels them) and CPU time of the process (what the engine
costs, whatever else the machine runs).

``--against OLD`` (a checkout of another commit, e.g. made with ``git worktree add``) runs this
benchmark on that checkout's engine (``--engine-root OLD``) and on this one in turns,
``--rounds`` times each, in fresh processes, so that both meet the same machine load; it prints
the best figure of each side.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

# the engine of this checkout, or of another with --engine-root (for --against)
sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--engine-root") + 1]).resolve()
                       if "--engine-root" in sys.argv else Path(__file__).resolve().parent.parent))

from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import (
    AREAS_SCORED,
    BEEFEATERS,
    BUILDINGS_IN_AREA,
    CARDS,
    RAVENS,
    ROUNDS,
)


def check_invariants(state: R.State) -> None:
    n = state.seats
    for s in range(n):
        assert R.beefeaters_accounted(state, s) == BEEFEATERS, f"Beefeaters of seat {s} not conserved"
        reductions = state.round - 1 + (1 if state.phase == R.OVER and state.round < ROUNDS else 0)
        assert R.cards_owned(state, s) == 13 - 3 * reductions, f"cards of seat {s}"
    assert state.raven_supply + sum(state.ravens) == RAVENS, "ravens not conserved"
    if state.phase != R.OVER:
        assert ENGINE.to_act(state), "nobody is awaited"
        for s in ENGINE.to_act(state):
            assert ENGINE.legal_moves(state, s), f"seat {s} awaited without a legal move"


def random_game(seats: int, seed: int, check: bool = True) -> R.State:
    return bot_game(seats, seed, [None] * seats, check=check)


# ----------------------------------------------------------------------------------- greedy bot
def standing(state: R.State, seat: int) -> float:
    """How many ravens the seat would take if every area still to be scored were scored now
    (weighted by how many times it will still be scored), plus a little per controlled building."""
    value = 0.0
    for rnd in range(state.round, R.ROUNDS + 1):
        for area in AREAS_SCORED[rnd]:
            ranking = R.area_ranking(state, area)
            for place, row in enumerate(ranking, start=1):
                if row["seat"] == seat:
                    value += (state.scoring_ravens[place - 1] if place <= len(state.scoring_ravens)
                              else 0) + 0.1 * len(row["buildings"])
    return value


class Greedy:
    """Places and uses abilities to maximise ``standing`` now; chooses cards by where the first
    can go and by a weight per ability (``favourite`` gets a bonus); keeps ``favourite_card``."""

    def __init__(self, rnd: random.Random, favourite: str | None = None,
                 favourite_card: int | None = None) -> None:
        self.rnd = rnd
        self.favourite = favourite
        self.favourite_card = favourite_card

    def ability_weight(self, ability: str) -> float:
        base = {"BACKSTAB": 1.0, "POISON": 1.0, "SWITCH": 0.8, "PROMOTE": 0.9, "FOCUS": 0.0}[ability]
        return base + (2.0 if ability == self.favourite else 0.0)

    def choose(self, state: R.State, seat: int, moves: list[dict[str, Any]]) -> dict[str, Any]:
        kind = moves[0]["type"]
        if kind == "pick":
            place_value: dict[int, float] = {}
            for card in state.hands[seat]:
                best = -1e9
                for b in CARDS[card].buildings:
                    state.plain[b][seat] += 1  # try it, then take it back
                    best = max(best, standing(state, seat))
                    state.plain[b][seat] -= 1
                place_value[card] = best

            def score(m: dict[str, Any]) -> float:
                ability = CARDS[m["second"]].ability
                if ability == "FOCUS":
                    ability = CARDS[m["first"]].ability
                bonus = 3.0 if self.favourite_card in (m["first"], m["second"]) else 0.0
                return (place_value[m["first"]] + self.ability_weight(ability) + bonus
                        + self.rnd.random() * 0.3)
            return max(moves, key=score)
        if kind == "keep":
            def keep_score(m: dict[str, Any]) -> float:
                return sum((5.0 if c == self.favourite_card else 0.0) + self.rnd.random()
                           for c in m["cards"])
            return max(moves, key=keep_score)
        best_moves, best = [], -1e9
        for m in moves:
            trial = state.clone()
            ENGINE.play(trial, seat, m)
            v = standing(trial, seat) + self.rnd.random() * 1e-3
            if v > best:
                best_moves, best = [m], v
        return best_moves[0]


def bot_game(seats: int, seed: int, bots: list[Any], check: bool = False) -> R.State:
    """A seeded game; a seat whose bot is None plays uniformly random legal moves."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(seats, seed, {})
    while state.phase != R.OVER:
        awaited = sorted(ENGINE.to_act(state))
        seat = awaited[rnd.randrange(len(awaited))]
        moves = ENGINE.legal_moves(state, seat)
        bot = bots[seat]
        move = moves[rnd.randrange(len(moves))] if bot is None else bot.choose(state, seat, moves)
        ENGINE.play(state, seat, move)
        if check:
            check_invariants(state)
    return state


# ---------------------------------------------------------------------------------- reports
def bench(games: int) -> None:
    times: dict[int, list[float]] = defaultdict(list)
    cpu: dict[int, list[float]] = defaultdict(list)
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        seats = 2 + i % 4
        t, c = time.perf_counter(), time.process_time()
        random_game(seats, i)
        times[seats].append(time.perf_counter() - t)
        cpu[seats].append(time.process_time() - c)
    total, total_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{games} random games (2-5 players), invariants checked after every move: "
          f"{total:.1f} s, {games / total:.0f} games/s (CPU {games / total_cpu:.0f} games/s)")
    for seats in sorted(times):
        print(f"  {seats} players: median {statistics.median(times[seats]) * 1000:.2f} ms per game "
              f"(CPU {statistics.median(cpu[seats]) * 1000:.2f} ms)")
    t_plain, c_plain = [], []
    for i in range(min(games, 2000)):
        t, c = time.perf_counter(), time.process_time()
        random_game(5, 10**6 + i, check=False)
        t_plain.append(time.perf_counter() - t)
        c_plain.append(time.process_time() - c)
    print(f"  5 players, engine only (no invariant checks): median "
          f"{statistics.median(t_plain) * 1000:.2f} ms per game (CPU {statistics.median(c_plain) * 1000:.2f} ms)")


def balance(games: int) -> None:
    def summary(label: str, states: list[R.State], seat_of: Any = None) -> None:
        by_n: dict[int, list[R.State]] = defaultdict(list)
        for st in states:
            by_n[st.seats].append(st)
        print(label)
        for n in sorted(by_n):
            sts = by_n[n]
            won = [st for st in sts if st.winner >= 0]
            rounds = Counter(st.round for st in won)
            pos = Counter((st.start_player_initial_pos if seat_of is None else seat_of(st))
                          for st in won)  # type: ignore[attr-defined]
            print(f"  {n}p: {len(sts)} games, winner in {100 * len(won) / len(sts):.0f}% "
                  f"(ended in round 1/2/3: {rounds[1]}/{rounds[2]}/{rounds[3]}); wins by position "
                  f"in round-1 turn order: "
                  + " ".join(f"{p + 1}:{100 * pos[p] / max(1, len(won)):.0f}%" for p in range(n)))

    def play_set(kind: str, count: int) -> list[R.State]:
        out = []
        for i in range(count):
            n = 2 + i % 4
            rnd = random.Random(i)
            bots: list[Any] = [None] * n if kind == "random" else [Greedy(rnd) for _ in range(n)]
            st = bot_game(n, 50_000 + i, bots)
            first_start = _initial_start(50_000 + i, n)
            st.start_player_initial_pos = (st.winner - first_start) % n  # type: ignore[attr-defined]
            out.append(st)
        return out

    summary("Random players:", play_set("random", games))
    greedy = play_set("greedy", games // 4)
    summary("Greedy players:", greedy)

    # abilities: five greedy bots, each favouring one ability, seats rotated
    abilities = ["FOCUS", "BACKSTAB", "SWITCH", "PROMOTE", "POISON"]
    wins: Counter[str] = Counter()
    played = 0
    for i in range(games // 8):
        rnd = random.Random(i)
        favs = abilities[i % 5:] + abilities[:i % 5]
        st = bot_game(5, 70_000 + i, [Greedy(rnd, favourite=f) for f in favs])
        played += 1
        if st.winner >= 0:
            wins[favs[st.winner]] += 1
    print(f"Ability lovers (5 greedy bots, one favouring each ability, {played} games): "
          + " ".join(f"{a}:{100 * wins[a] / played:.1f}%" for a in abilities)
          + f" none:{100 * (played - sum(wins.values())) / played:.1f}%")

    # cards: one greedy bot that always plays and keeps card c, against three plain greedy bots
    print("Card lovers (4 players: one greedy bot always keeping and favouring the card, three plain "
          "greedy bots; win rate of the lover, fair share 25%):")
    per = max(8, games // 60)
    line = []
    for c in sorted(CARDS):
        w = g = 0
        for i in range(per):
            rnd = random.Random(i)
            lover = i % 4
            bots = [Greedy(rnd, favourite_card=c) if s == lover else Greedy(rnd) for s in range(4)]
            st = bot_game(4, 90_000 + 100 * c + i, bots)
            g += 1
            w += st.winner == lover
        line.append(f"{CARDS[c].name}:{100 * w / g:.0f}%")
    print("  " + "  ".join(line))
    # area sizes for reference
    print("Buildings per area:", {a: len(b) for a, b in BUILDINGS_IN_AREA.items()})


def _initial_start(seed: int, seats: int) -> int:
    return ENGINE.new_game(seats, seed, {}).start_player


def side_by_side(other: Path, games: int, rounds: int) -> None:
    """This benchmark and ``other``'s in turns, in fresh processes; the best of each side."""
    here = Path(__file__).resolve()
    roots = {"before": ["--engine-root", str(other.resolve())], "now": []}
    figures: dict[str, dict[str, list[float]]] = {k: defaultdict(list) for k in roots}
    for _ in range(rounds):
        for side, extra in roots.items():
            out = subprocess.run([sys.executable, str(here), "--games", str(games), *extra],
                                 check=True, capture_output=True, text=True).stdout
            got = figures[side]
            games_s = re.search(r"(\d+) games/s \(CPU (\d+) games/s\)", out)
            assert games_s is not None, out
            got["games/s"].append(float(games_s[1]))
            got["games/s CPU"].append(float(games_s[2]))
            for seats, ms, cpu in re.findall(r"(\d) players: median ([\d.]+) ms per game \(CPU ([\d.]+)", out):
                got[f"{seats}p ms/game"].append(float(ms))
                got[f"{seats}p ms/game CPU"].append(float(cpu))
            plain = re.search(r"engine only.*median ([\d.]+) ms per game \(CPU ([\d.]+)", out)
            assert plain is not None, out
            got["5p engine only ms"].append(float(plain[1]))
            got["5p engine only ms CPU"].append(float(plain[2]))
    print(f"{games} games per run, {rounds} runs each, alternating; best of each side:")
    print(f"  {'':24} {'before':>9} {'now':>9}")
    for key in figures["now"]:
        pick = max if key.startswith("games/s") else min
        print(f"  {key:24} {pick(figures['before'][key]):9.2f} {pick(figures['now'][key]):9.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--balance", type=int, default=0, metavar="N",
                        help="instead of the benchmark, play N random games and N/4 greedy ones")
    parser.add_argument("--against", type=Path, metavar="OLD",
                        help="a checkout of another commit: run its benchmark and this one in turns")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each side")
    parser.add_argument("--engine-root", type=Path, metavar="DIR",
                        help="benchmark the engine of another checkout (read before the imports)")
    args = parser.parse_args(argv)
    if args.against:
        side_by_side(args.against, args.games, args.rounds)
    elif args.balance:
        balance(args.balance)
    else:
        bench(args.games)


if __name__ == "__main__":
    main()
