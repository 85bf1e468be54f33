"""Every hosted engine keeps the protocol's promises, checked the same way for each."""

from __future__ import annotations

import random

import orjson
import pytest

from engines.base import Engine, IllegalMove, static_view, views
from engines.registry import BUILTIN, load_engines

ENGINES = load_engines(BUILTIN)


@pytest.fixture(params=sorted(ENGINES))
def engine(request: pytest.FixtureRequest) -> Engine:
    return ENGINES[request.param]


def random_game(engine: Engine, seats: int, seed: int, limit: int = 3000):
    """Yields the state after each random legal move."""
    rng = random.Random(seed)
    state = engine.new_game(seats, seed, {})
    yield state
    for _ in range(limit):
        awaited = sorted(engine.to_act(state))
        if not awaited:
            return
        seat = rng.choice(awaited)
        engine.play(state, seat, rng.choice(engine.legal_moves(state, seat)))
        yield state
    raise AssertionError("the game did not end")


def test_batch_views_equal_each_seats_own_view(engine):
    for seats in (engine.min_seats, engine.max_seats):
        for i, state in enumerate(random_game(engine, seats, seed=seats)):
            if i % 7:
                continue
            everyone = [None, *range(seats)]
            legal = {seat: engine.legal_moves(state, seat) for seat in engine.to_act(state)}
            for batch in (views(engine, state, everyone), views(engine, state, everyone, legal)):
                for seat in everyone:
                    assert batch[seat] == engine.view(state, seat)


def test_views_and_static_data_are_json_and_never_hold_the_seed(engine):
    seed = 987654321987654321
    for state in random_game(engine, engine.max_seats, seed=seed):
        data = orjson.dumps(static_view(engine, state)) + b"".join(
            orjson.dumps(v) for v in views(engine, state, [None, *range(engine.max_seats)]).values())
        assert str(seed).encode() not in data


def test_only_awaited_seats_have_moves_and_others_are_refused(engine):
    checked = 0
    for state in random_game(engine, engine.min_seats, seed=5):
        awaited = engine.to_act(state)
        idle = [s for s in range(engine.min_seats) if s not in awaited]
        if not awaited or not idle:
            continue
        assert all(engine.legal_moves(state, s) == [] for s in idle)
        before = engine.encode(state)
        with pytest.raises(IllegalMove):
            engine.play(state, idle[0], engine.legal_moves(state, min(awaited))[0])
        assert engine.encode(state) == before
        checked += 1
        if checked == 20:
            break
    assert checked == 20


def test_replaying_the_same_seed_and_moves_gives_an_equal_state(engine):
    rng = random.Random(3)
    a = engine.new_game(engine.max_seats, 42, {})
    b = engine.new_game(engine.max_seats, 42, {})
    for _ in range(200):
        awaited = sorted(engine.to_act(a))
        if not awaited:
            break
        seat = rng.choice(awaited)
        move = rng.choice(engine.legal_moves(a, seat))
        engine.play(a, seat, move)
        engine.play(b, seat, move)
    assert engine.encode(a) == engine.encode(b)
    assert engine.encode(engine.decode(orjson.loads(orjson.dumps(engine.encode(a))))) == engine.encode(a)
