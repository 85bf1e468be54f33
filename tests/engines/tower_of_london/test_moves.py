"""A move is accepted exactly when ``legal_moves`` lists it; anything else is refused with
``IllegalMove`` naming the most specific rule, and changes nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R

from .conftest import build, card


def snapshot(state: R.State) -> str:
    return json.dumps(ENGINE.encode(state), sort_keys=True)


def test_a_switch_with_its_two_ends_in_the_other_order_is_refused_not_accepted_unlisted() -> None:
    state = build(3, order=[0, 1, 2], board={11: {1: 1}, 13: {2: 1}},
                  picks={0: (card("FOCUS 12"), card("SWITCH 30")), 1: (5, 6), 2: (7, 8)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    listed = {"type": "switch", "a": [11, 1], "b": [13, 2]}
    assert listed in ENGINE.legal_moves(state, 0)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="lower-numbered building first") as err:
        ENGINE.play(state, 0, {"type": "switch", "a": [13, 2], "b": [11, 1]})
    assert err.value.rule == R.RULE_ABILITY and err.value.code == "illegal_move"
    assert snapshot(state) == before


@pytest.mark.parametrize("move", [
    {"type": "pick", "first": 1, "second": 2, "extra": True},
    {"type": "pass", "please": 1},
])
def test_a_move_with_extra_fields_is_refused_as_malformed(move: dict[str, Any]) -> None:
    state = build(2)
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="has no field") as err:
        ENGINE.play(state, 0, move)
    assert err.value.code == "malformed_move" and snapshot(state) == before


def test_a_keep_with_its_cards_unsorted_is_refused_naming_the_order() -> None:
    state = build(2)
    state.phase, state.played = R.KEEP, [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]
    state.choosing = R.Commitments.ask(range(2))
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="ascending order") as err:
        ENGINE.play(state, 0, {"type": "keep", "cards": [3, 1, 2]})
    assert err.value.rule == R.RULE_REDUCE and snapshot(state) == before


def test_a_remove_without_promoted_is_malformed_not_a_crash() -> None:
    state = build(2, order=[0, 1], board={11: {1: 1}},
                  picks={0: (card("FOCUS 12"), card("BACKSTAB 15")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="needs 'promoted'") as err:
        ENGINE.play(state, 0, {"type": "remove", "building": 11, "seat": 1})
    assert err.value.code == "malformed_move" and snapshot(state) == before


def test_what_is_accepted_is_stored_in_its_canonical_form() -> None:
    assert ENGINE.canonical({"second": 2, "first": 1, "type": "pick"}) == {
        "type": "pick", "first": 1, "second": 2}
    assert list(ENGINE.canonical({"promoted": False, "seat": 1, "building": 3, "type": "remove"})) == [
        "type", "building", "seat", "promoted"]


# ------------------------------------------------------------------------------- mutation fuzz
ODD_VALUES: list[Any] = [None, True, False, "3", 3.0, -1, 0, 99, 1 << 40, -(1 << 40), [], [1], {}]


def mutations(move: dict[str, Any], rnd: random.Random) -> Iterator[Any]:
    """Wrong versions of a listed move: fields added, dropped, reordered, of the wrong type,
    out of range, lists reordered or cut, pairs swapped."""
    fields = [k for k in move if k != "type"]
    yield {**move, "extra": 1}
    yield dict(reversed(list(move.items())))
    for k in fields:
        yield {x: v for x, v in move.items() if x != k}
        for odd in rnd.sample(ODD_VALUES, 4):
            yield {**move, k: odd}
        v = move[k]
        if isinstance(v, int) and not isinstance(v, bool):
            yield {**move, k: v + 1}
            yield {**move, k: v - 1}
        if isinstance(v, list):
            yield {**move, k: list(reversed(v))}
            yield {**move, k: v[:-1]}
            yield {**move, k: [*v, v[0]]}
    if move["type"] == "switch":
        yield {**move, "a": move["b"], "b": move["a"]}
    if move["type"] == "pick":
        yield {**move, "first": move["second"], "second": move["first"]}
    yield {"type": move["type"]}
    yield [move]
    yield {"type": 7}


OTHER_STEPS: list[dict[str, Any]] = [
    {"type": "pick", "first": 1, "second": 2}, {"type": "place", "building": 12},
    {"type": "remove", "building": 11, "seat": 0, "promoted": False},
    {"type": "switch", "a": [11, 0], "b": [13, 1]}, {"type": "pass"},
    {"type": "keep", "cards": [1, 2, 3]},
]


def check_accepted_exactly_when_listed(state: R.State, seat: int, move: Any) -> bool:
    """Plays ``move`` on a copy: accepted only if listed (in canonical form), else refused with
    IllegalMove leaving the state as it was. Returns whether it was accepted."""
    listed = ENGINE.legal_moves(state, seat)
    trial = ENGINE.decode(ENGINE.encode(state))
    before = snapshot(trial)
    try:
        ENGINE.play(trial, seat, move)
    except IllegalMove as err:
        assert snapshot(trial) == before
        assert err.code in ("illegal_move", "malformed_move", "unknown_move", "not_your_turn")
        assert err.message
        assert not ENGINE.is_legal(state, seat, move)
        assert json.dumps(move) not in {json.dumps(m) for m in listed}  # 3.0 or true are not 3 or 1
        return False
    assert ENGINE.canonical(move) in listed, move
    assert ENGINE.is_legal(state, seat, move)
    return True


@pytest.mark.parametrize(("seats", "version"), [(2, 1), (3, 2), (4, 1), (5, 2)])
def test_mutated_moves_are_listed_or_refused_with_illegal_move(version: int, seats: int) -> None:
    rnd = random.Random(seats * 10 + version)
    state = ENGINE.new_game(seats, rnd.getrandbits(128), {}, rules_version=version)
    accepted = refused = 0
    kinds = set()
    while ENGINE.result(state) is None:
        awaited = sorted(ENGINE.to_act(state))
        seat = rnd.choice(awaited)
        listed = ENGINE.legal_moves(state, seat)
        kinds.add(listed[0]["type"])
        for move in rnd.sample(listed, min(2, len(listed))):
            assert check_accepted_exactly_when_listed(state, seat, move)
            for wrong in mutations(move, rnd):
                if check_accepted_exactly_when_listed(state, seat, wrong):
                    accepted += 1
                else:
                    refused += 1
        idle = [s for s in range(seats) if s not in awaited]
        for other in [*idle[:1], seats, -1]:  # another seat's move, no such seat
            assert not check_accepted_exactly_when_listed(state, other, listed[0])
        for move in OTHER_STEPS:
            check_accepted_exactly_when_listed(state, seat, move)
        ENGINE.play(state, seat, rnd.choice(listed))
    for move in OTHER_STEPS:  # the game is over: nothing is accepted
        assert not check_accepted_exactly_when_listed(state, 0, move)
    assert refused > 1000 and accepted > 100  # fields in another order are the listed move
    assert kinds >= {"pick", "place", "keep"}
