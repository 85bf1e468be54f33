"""The conformance suite: every registered engine (and the kit's worked example, Tally) keeps
the protocol's promises, checked the same way for each, at every player count, over seeded
random states reached by play.

1. A move is accepted exactly when it is listed: every listed move is accepted (on a copy), and
   mutated moves (extra fields, fields in another order, lists reordered, missing fields, wrong
   types, huge or negative numbers, another seat's move, a move from another step) are either
   listed or refused with ``IllegalMove``, never another exception; what is stored (the
   canonical form) is exactly the listed move.
2. A refusal leaves ``encode(state)`` byte-identical.
3. ``views`` equals ``view`` seat by seat; ``encode``/``decode`` round-trips through JSON;
   replaying the moves from the seed gives an equal state.
4. No leak: each seat's view (and the spectator's) is identical on the state and on
   ``determinize(state, seat, rng)`` for several rngs, while ``determinize`` does re-draw the
   hidden parts and the generator; the seed and the generator's state never appear in any view
   or log line, in decimal, hex or base64.

The same game through the real server (HTTP, websocket, journal, hub) and ``parlour verify`` of
its record is tests/app/test_conformance_server.py.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import random
from collections.abc import Iterator
from typing import Any, NamedTuple

import orjson
import pytest

from engines.base import Engine, IllegalMove, Move, canonical_move, new_game, rules_version, static_view, views
from engines.kit import Rng
from engines.registry import BUILTIN, load_engines
from tests.support.tinygame import ENGINE as TALLY

ENGINES: dict[str, Engine] = {**load_engines(BUILTIN), "tally": TALLY}


def option_sets(engine: Engine) -> list[dict[str, Any]]:
    """The defaults, then each other choice of each option, one at a time."""
    default = {o.id: o.default for o in engine.options}
    return [default] + [{**default, o.id: c} for o in engine.options for c in o.choices if c != o.default]


def versions(engine: Engine) -> tuple[int, ...]:
    """Every rules version the engine still plays (tables dealt before an upgrade keep theirs)."""
    return tuple(getattr(engine, "rules_versions", (1,)))


CASES = [(gid, n, opts, v) for gid, e in sorted(ENGINES.items()) for v in versions(e)
         for opts in option_sets(e) for n in range(e.min_seats, e.max_seats + 1)]
SEED = 0xA5C3_0F1E_9D2B_4C67_1122_3344_5566_7788  # all 128 bits in use
STATES_PER_GAME = 24


def case_id(case: tuple[str, int, dict[str, Any], int]) -> str:
    gid, seats, opts, version = case
    changed = [f"{k}={v}" for k, v in opts.items() if v != option_sets(ENGINES[gid])[0][k]]
    old = [f"rules{version}"] if version != rules_version(ENGINES[gid]) else []
    return "-".join([gid, f"{seats}p", *changed, *old])


class Case(NamedTuple):
    engine: Engine
    seats: int
    options: dict[str, Any]
    version: int

    def new_game(self, seed: int) -> Any:
        return new_game(self.engine, self.seats, seed, self.options, self.version)


@pytest.fixture(params=CASES, ids=[case_id(c) for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    gid, seats, opts, version = request.param
    return Case(ENGINES[gid], seats, opts, version)


def random_game(case: Case, seed: int, limit: int = 20_000) -> Iterator[tuple[Any, list[Any]]]:
    """Yields (state, moves so far) after each random listed move, to the end of the game."""
    engine = case.engine
    rng = random.Random(seed)
    state = case.new_game(seed)
    played: list[tuple[int, Move]] = []
    yield state, played
    for _ in range(limit):
        awaited = sorted(engine.to_act(state))
        if not awaited:
            return
        seat = rng.choice(awaited)
        move = rng.choice(engine.legal_moves(state, seat))
        engine.play(state, seat, move)
        played.append((seat, move))
        yield state, played
    raise AssertionError(f"{engine.id}: the game did not end in {limit} moves")


def sampled_states(case: Case, seed: int) -> Iterator[tuple[Any, list[Any]]]:
    """About STATES_PER_GAME states spread over a whole game (the first and the last included)."""
    length = sum(1 for _ in random_game(case, seed)) - 1
    step = max(1, length // STATES_PER_GAME)
    for i, (state, played) in enumerate(random_game(case, seed)):
        if i % step == 0 or i == length:
            yield state, played


def dump(data: Any) -> bytes:
    return orjson.dumps(data)


def clone(engine: Engine, state: Any) -> Any:
    return engine.decode(orjson.loads(dump(engine.encode(state))))


# -- 1 and 2: accepted exactly when listed; a refusal changes nothing -------------------------

def mutations(move: Move, others: list[Move]) -> Iterator[Any]:
    """Moves near a listed one: each is either listed too or must be refused."""
    yield {**move, "extra": 1}
    yield {**move, "extra": 1 << 70}
    yield dict(reversed(list(move.items())))
    for key, value in move.items():
        if key == "type":
            yield {**move, key: value.upper()}
            yield {**move, key: 7}
            continue
        yield {k: v for k, v in move.items() if k != key}
        if isinstance(value, bool):
            yield {**move, key: int(value)}
            yield {**move, key: not value}
        elif isinstance(value, int):
            for bad in (value + 1, value - 1, -1, -(1 << 40), 1 << 64, 1 << 70, True, float(value),
                        str(value), None, [value]):
                yield {**move, key: bad}
        elif isinstance(value, str):
            for bad in (value + "x", "", 0, None, [value], "x" * 10_000):
                yield {**move, key: bad}
        elif isinstance(value, list):
            yield {**move, key: list(reversed(value))}
            yield {**move, key: value + value[:1]}
            yield {**move, key: value[:-1]}
            yield {**move, key: [str(v) for v in value]}
            yield {**move, key: {"a": value}}
            if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                yield {**move, key: [1 << 70, *value[1:]]}
                yield {**move, key: [-1, *value[1:]]}
    yield {"type": move["type"]}
    yield from others


def check_move(engine: Engine, state: Any, seat: int, move: Any, listed: list[Move]) -> None:
    before = dump(engine.encode(state))
    trial = clone(engine, state)
    try:
        engine.play(trial, seat, copy.deepcopy(move))
    except IllegalMove as err:
        assert err.message, "a refusal says why"
        assert dump(engine.encode(trial)) == before, f"{engine.id}: refusing {move!r} changed the state"
        return
    stored = canonical_move(engine, move)
    matches = [m for m in listed if m == stored]
    assert matches, f"{engine.id}: {move!r} was accepted although not listed for seat {seat}"
    assert dump(stored) == dump(matches[0]), f"{engine.id}: the stored form of {move!r} is not the listed one"


def test_a_move_is_accepted_exactly_when_it_is_listed(case):
    engine, seats = case.engine, case.seats
    pick = random.Random(seats)
    foreign: list[Move] = []  # moves seen earlier in the game: other steps, other seats
    for state, _ in sampled_states(case, SEED + seats):
        for seat in range(seats):
            listed = engine.legal_moves(state, seat)
            if not listed:
                others = [m for s in engine.to_act(state) for m in engine.legal_moves(state, s)[:3]]
                for move in others[:3]:  # another seat's move
                    check_move(engine, state, seat, move, listed)
                continue
            for move in pick.sample(listed, min(4, len(listed))):
                check_move(engine, state, seat, move, listed)
                for mutated in mutations(move, pick.sample(foreign, min(4, len(foreign)))):
                    check_move(engine, state, seat, mutated, listed)
            for move in listed if len(listed) <= 40 else pick.sample(listed, 40):
                check_move(engine, state, seat, move, listed)
            foreign.extend(listed[:2])
        for junk in (None, 5, "draw", [], {}, {"type": None}, {"type": "no such move"}):
            for seat in (0, seats - 1):
                check_move(engine, state, seat, junk, engine.legal_moves(state, seat))


def test_only_awaited_seats_have_moves_and_the_others_are_refused(case):
    engine, seats = case.engine, case.seats
    checked = 0
    for state, _ in sampled_states(case, SEED + 3 * seats):
        awaited = engine.to_act(state)
        for seat in range(seats):
            if seat in awaited:
                assert engine.legal_moves(state, seat), f"{engine.id}: awaited seat {seat} has no move"
                continue
            assert engine.legal_moves(state, seat) == []
            if awaited:
                before = dump(engine.encode(state))
                with pytest.raises(IllegalMove):
                    engine.play(state, seat, engine.legal_moves(state, min(awaited))[0])
                assert dump(engine.encode(state)) == before
                checked += 1
    assert checked or seats == 1 or all(
        len(engine.to_act(s)) == seats for s, _ in sampled_states(case, SEED + 3 * seats))


def test_moves_for_seats_that_do_not_exist_are_refused(case):
    engine, seats = case.engine, case.seats
    state = case.new_game(SEED)
    seat = min(engine.to_act(state))
    move = engine.legal_moves(state, seat)[0]
    before = dump(engine.encode(state))
    for bad in (-1, seats, 99, 1 << 70):
        with pytest.raises(IllegalMove):
            engine.play(state, bad, move)
    assert dump(engine.encode(state)) == before


# -- 3: views, snapshots, replays ------------------------------------------------------------

def test_views_equal_each_seats_own_view_and_snapshots_round_trip(case):
    engine, seats = case.engine, case.seats
    everyone = [None, *range(seats)]
    for state, _ in sampled_states(case, SEED ^ seats):
        legal = {s: engine.legal_moves(state, s) for s in engine.to_act(state)}
        single = {s: engine.view(state, s) for s in everyone}
        assert views(engine, state, everyone) == single
        assert views(engine, state, everyone, legal) == single
        for s in everyone:
            assert orjson.loads(dump(single[s])) == single[s], "views are JSON"
        data = dump(engine.encode(state))
        again = engine.decode(orjson.loads(data))
        assert dump(engine.encode(again)) == data
        assert {s: engine.view(again, s) for s in everyone} == single


def test_replaying_the_moves_from_the_seed_gives_an_equal_state(case):
    engine, seats = case.engine, case.seats
    *_, (state, played) = random_game(case, SEED - seats)
    assert engine.result(state) is not None
    replay = case.new_game(SEED - seats)
    for seat, move in played:
        engine.play(replay, seat, move)
    assert dump(engine.encode(replay)) == dump(engine.encode(state))
    assert engine.result(replay) == engine.result(state)


# -- 4: no leak ---------------------------------------------------------------------------------

def generators(obj: Any) -> list[Rng]:
    """Every kit generator held anywhere in a state."""
    if isinstance(obj, Rng):
        return [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [r for f in dataclasses.fields(obj) for r in generators(getattr(obj, f.name))]
    if isinstance(obj, list | tuple | set | frozenset):
        return [r for x in obj for r in generators(x)]
    if isinstance(obj, dict):
        return [r for x in obj.values() for r in generators(x)]
    return []


def spellings(number: int) -> list[bytes]:
    """A secret number as it could leak: decimal, hex (both cases), base64 of its bytes."""
    raw = number.to_bytes(max(16, (number.bit_length() + 7) // 8), "big")
    out = [str(number), format(number, "x"), format(number, "X")]
    for b in (raw, raw[::-1], raw.lstrip(b"\0")):
        out += [base64.b64encode(b).decode().rstrip("="), base64.urlsafe_b64encode(b).decode().rstrip("=")]
    return [s.encode() for s in out if len(s) >= 8]


def test_views_are_the_same_on_every_determinization(case):
    engine, seats = case.engine, case.seats
    redrawn = 0
    for i, (state, _) in enumerate(sampled_states(case, SEED + 7 * seats)):
        before = dump(engine.encode(state))
        for seat in [None, *range(seats)]:
            expected = engine.view(state, seat)
            encodings = set()
            for k in range(3):
                other = engine.determinize(state, seat, Rng.from_seed(SEED + 1000 * i + k))  # type: ignore[attr-defined]
                assert engine.view(other, seat) == expected, f"{engine.id}: seat {seat}'s view tells hidden things"
                assert sorted(engine.to_act(other)) == sorted(engine.to_act(state))
                if seat is not None and seat in engine.to_act(state):
                    assert engine.legal_moves(other, seat) == engine.legal_moves(state, seat)
                assert all(g not in generators(state) for g in generators(other)), \
                    f"{engine.id}: determinize must re-draw the generator"
                encodings.add(dump(engine.encode(other)))
            redrawn += len(encodings) > 1
        assert dump(engine.encode(state)) == before, "determinize must not change its input"
    assert redrawn, f"{engine.id}: determinize never re-drew anything hidden"


def test_the_seed_and_the_generator_never_appear_in_a_view_or_a_log_line(case):
    engine, seats = case.engine, case.seats
    rng = random.Random(seats)
    state = case.new_game(SEED)
    secrets = set(spellings(SEED))
    seen = 0
    while True:
        secrets.update(s for g in generators(state) for s in spellings(g.state))
        shown = (dump(list(views(engine, state, [None, *range(seats)]).values()))
                 + dump(static_view(engine, state)))
        leaked = [s for s in secrets if s in shown]
        assert not leaked, f"{engine.id}: a secret number is in a view ({leaked[0]!r})"
        awaited = sorted(engine.to_act(state))
        if not awaited:
            break
        seat = rng.choice(awaited)
        events = engine.play(state, seat, rng.choice(engine.legal_moves(state, seat)))
        texts = dump([[e.for_seat(s) for s in [None, *range(seats)]] for e in events])
        leaked = [s for s in secrets if s in texts]
        assert not leaked, f"{engine.id}: a secret number is in a log line ({leaked[0]!r})"
        seen += 1
    assert seen and engine.result(state) is not None


# -- 5: a move the engine lets its player take back reveals nothing -----------------------------

def test_a_move_that_may_be_taken_back_reveals_nothing(case):
    """``reversible`` (engines/kit/engine.py, "Undo"): the mover's view and the public view after
    such a move are the same on every determinization of what the mover could not see before it,
    so taking it back unlearns nothing; and taking it back (replaying without it) gives the state
    before it again."""
    engine = case.engine
    reversible = getattr(engine, "reversible", None)
    if reversible is None:
        return  # an engine outside the kit lets nothing be taken back
    for i, (state, _) in enumerate(sampled_states(case, SEED + 11 * case.seats)):
        for seat in sorted(engine.to_act(state)):
            for m in [m for m in engine.legal_moves(state, seat) if reversible(state, seat, m)][:3]:
                before = dump(engine.encode(state))
                after = clone(engine, state)
                engine.play(after, seat, m)
                expected = (engine.view(after, seat), engine.view(after, None))
                for k in range(2):
                    other = engine.determinize(state, seat, Rng.from_seed(SEED + 7919 * i + k))  # type: ignore[attr-defined]
                    engine.play(other, seat, m)
                    assert (engine.view(other, seat), engine.view(other, None)) == expected, \
                        f"{engine.id}: {m} may be taken back but reveals something"
                assert dump(engine.encode(state)) == before
