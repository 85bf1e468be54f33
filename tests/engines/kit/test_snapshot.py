"""Generic snapshots of dataclass states round-trip exactly, through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from engines.kit import Commitments, Decision, DecisionStack, Rng, snapshot


@dataclass
class Inner:
    cards: list[int] = field(default_factory=list)
    face_down: set[int] = field(default_factory=set)


@dataclass
class Sample:
    seats: int
    rng: Rng
    players: list[Inner]
    by_seat: dict[int, list[int]]
    names: dict[str, str]
    pair: tuple[int, ...]
    maybe: int | None
    blob: Any
    picks: Commitments = field(default_factory=Commitments)
    decisions: DecisionStack = field(default_factory=DecisionStack)
    flag: bool = False


def sample() -> Sample:
    picks = Commitments.ask([0, 1])
    picks.choose(1, [4, 2], ready=True)
    decisions = DecisionStack()
    decisions.push(Decision("march", [2], {"from": "Winterfell"}))
    return Sample(seats=3, rng=Rng.from_seed(1 << 127), players=[Inner([3, 1], {9, 2}), Inner()],
                  by_seat={0: [1], 2: [5, 6]}, names={"a": "b"}, pair=(1, 2), maybe=None,
                  blob={"x": [1, "y"]}, picks=picks, decisions=decisions, flag=True)


def test_a_state_round_trips_through_json_unchanged():
    state = sample()
    data = orjson.loads(orjson.dumps(snapshot.encode(state)))
    assert snapshot.decode(Sample, data) == state


def test_sets_are_stored_sorted_and_int_keys_as_text():
    data = snapshot.encode(sample())
    assert data["players"][0]["face_down"] == [2, 9]
    assert data["by_seat"] == {"0": [1], "2": [5, 6]}
    assert data["picks"]["choices"] == {"1": [4, 2]}


def test_the_generator_is_stored_as_text_and_continues():
    state = sample()
    copy = snapshot.decode(Sample, snapshot.encode(state))
    assert copy.rng.next64() == state.rng.next64()


def test_an_unsupported_field_type_is_refused_clearly():
    @dataclass
    class Bad:
        x: complex

    with pytest.raises(TypeError, match="do not support"):
        snapshot.encode(Bad(1j))
