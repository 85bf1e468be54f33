"""Benchmark of the A Game of Thrones engine: seeded random full games with invariants checked.

    python bench/game_of_thrones_engine.py              # 200 random games, 3-6 players
    python bench/game_of_thrones_engine.py --games 40   # fewer
    python bench/game_of_thrones_engine.py --quick      # a few games (the test suite runs this)

Every move is a random listed move (declaring ready is preferred when allowed, undo and taking
back an order are rare, so the planning phase ends). After every move the invariants are
checked: units within each house's pool and of the right kind for their area, ports holding at
most three ships and going with their land, supply limits (outside combat and a house's
reconciling), Power tokens never
negative and conserved with the pool, orders only where their house has units, every awaited
seat has a listed move. It prints games per second, the median milliseconds of a game per
player count (the engine alone, no checks) and the median time to list the moves of a planning
step. Times are CPU time of this process (``time.process_time``), so a busy machine does not
inflate them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD, LAND, PORT, RULES, SHIP
from engines.game_of_thrones.state import OVER, PLANNING, GameState


def check_invariants(state: GameState) -> None:
    assert set(state.units) == set(state.owner), "every area with units has an owner"
    counts: dict[int, Counter[str]] = {s: Counter() for s in range(state.seats)}
    for area, units in state.units.items():
        assert units, f"{area}: an empty unit list"
        assert area not in state.blocked and area not in state.neutral, f"{area}: units in a closed area"
        kind = BOARD.areas[area].kind
        for u in units:
            assert (u.kind == SHIP) == (kind != LAND), f"{area}: a {u.kind} there"
            counts[state.owner[area]][u.kind] += 1
        if kind == PORT:
            assert len(units) <= RULES.port_capacity, f"{area}: more than three ships"
            land = BOARD.areas[area].port_of or ""
            assert state.owner.get(land, state.owner[area]) == state.owner[area], f"{area}: not with its land"
    c = state.combat
    if c is not None:
        counts[c.attacker].update(c.army)
    reconciling = ({d.seats[0] for d in state.decisions.stack if d.kind == "reconcile"}
                   | {t["seat"] for t in state.tasks if t["do"] == "reconcile"})
    for seat, n in counts.items():
        for k, v in n.items():
            assert v <= RULES.unit_limits[k], f"seat {seat}: {v} {k}s"
        if c is None and seat not in reconciling:
            assert R.supply_ok(state, seat), f"seat {seat}: armies beyond supply"
    for area, seat in state.tokens.items():
        assert BOARD.areas[area].kind == LAND and state.owner.get(area, seat) == seat, f"{area}: power token"
    for seat in range(state.seats):
        assert state.power[seat] >= 0 and R.power_pool(state, seat) >= 0, f"seat {seat}: power tokens"
        assert state.power[seat] + R.power_on_board(state, seat) + R.power_pool(state, seat) == RULES.power_max
    for area, order in state.orders.items():
        assert state.owner.get(area) == order.seat, f"{area}: an order without its units"
    assert 0 <= state.wildlings <= 12 and state.wildlings % 2 == 0, "the wildling track"
    if state.phase != OVER:
        awaited = ENGINE.to_act(state)
        assert awaited, "nobody is awaited"
        if state.phase == PLANNING and state.decisions.top is None:
            # a seat's planning moves change only with its own placements, and a random game
            # lists the moves of the seat it picks: listing every seat after every placement
            # would only repeat the same lists (the game's slowest check)
            return
        for s in awaited:
            assert ENGINE.legal_moves(state, s), f"seat {s} awaited without a listed move"


def pick(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A random listed move, preferring progress: ready when allowed, few undos."""
    if {"type": "ready"} in moves and rng.random() < 0.7:
        return {"type": "ready"}
    if {"type": "undo"} in moves and not any(m["type"] == "end_march" for m in moves) and rng.random() < 0.5:
        return {"type": "undo"}  # a march staged beyond supply: step back rather than wander
    useful = [m for m in moves if m["type"] not in ("undo", "unorder")]
    if useful and rng.random() < 0.97:
        return rng.choice(useful)
    return rng.choice(moves)


def random_game(seats: int, seed: int, *, check: bool = True, limit: int = 40_000) -> GameState:
    rng = random.Random(seed)
    state = ENGINE.new_game(seats, seed, {})
    for _ in range(limit):
        awaited = sorted(ENGINE.to_act(state))
        if not awaited:
            assert ENGINE.result(state) is not None, "the game stopped without a result"
            return state
        seat = rng.choice(awaited)
        ENGINE.play(state, seat, pick(rng, ENGINE.legal_moves(state, seat)))
        if check:
            check_invariants(state)
    raise AssertionError(f"seed {seed}: the game did not end in {limit} moves")


def planning_listing_ms(samples: int) -> float:
    """Median time to list every move of one seat at the start of a planning phase."""
    times = []
    for i in range(samples):
        state = ENGINE.new_game(6, 500 + i, {})
        assert state.phase == PLANNING
        t = time.process_time()
        for _ in range(20):
            for seat in range(6):
                ENGINE.legal_moves(state, seat)
        times.append((time.process_time() - t) / 120)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="checked games (3-6 players in turn)")
    parser.add_argument("--quick", action="store_true", help="a few games only (for the test suite)")
    args = parser.parse_args(argv)
    games = 2 if args.quick else args.games
    t0 = time.process_time()
    endings: Counter[str] = Counter()
    for i in range(games):
        state = random_game(3 + i % 4, 10_000 + i)
        endings[state.ended_by] += 1
    checked = time.process_time() - t0
    print(f"{games} random games (3-6 players), invariants checked after every move: {checked:.1f} s CPU, "
          f"{games / checked:.2f} games/s; ended by {dict(endings)}")
    plain: dict[int, list[float]] = defaultdict(list)
    per_count = 1 if args.quick else max(3, games // 8)
    for seats in (3, 4, 5, 6):
        for i in range(per_count):
            t = time.process_time()
            random_game(seats, 20_000 + 100 * seats + i, check=False)
            plain[seats].append(time.process_time() - t)
    medians = {n: statistics.median(v) * 1000 for n, v in plain.items()}
    for n, ms in medians.items():
        print(f"  {n} players, engine only: median {ms:.0f} ms per game ({len(plain[n])} games)")
    listing = planning_listing_ms(5 if args.quick else 50)
    print(f"  listing one seat's moves at the start of planning (6 players): median {listing:.2f} ms")
    return {"games": games, "games_s": games / checked, "median_ms": medians, "planning_ms": listing,
            "endings": dict(endings)}


if __name__ == "__main__":
    main()
