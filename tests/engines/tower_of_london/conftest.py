"""Fixtures for the Tower of London engine tests: a builder of positions for rule tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import CARD_IDS, CARDS

Board = Mapping[int, Mapping[int, int]]


def card(name: str) -> int:
    """The id of a card by its name ("BACKSTAB 15")."""
    return next(c.id for c in CARDS.values() if c.name == name)


def build(seats: int = 4, *, picks: Mapping[int, tuple[int, int]] | None = None,
          order: list[int] | None = None, board: Board | None = None,
          promoted: Board | None = None, event: int = 0, seed: int = 1) -> R.State:
    """A game in round 1, step 1 with no event (unless ``event``), the given turn order, the
    given Beefeaters on the board ({building: {seat: count}}, taken from the seats' supplies),
    and, if ``picks`` is given, every seat's two cards chosen and the reveal begun."""
    state = ENGINE.new_game(seats, seed, {})
    state.event = event
    if order is not None:
        state.order = list(order)
    for b, row in (board or {}).items():
        for s, n in row.items():
            state.plain[b][s] += n
            state.supply[s] -= n
    for b, row in (promoted or {}).items():
        for s, n in row.items():
            state.promoted[b][s] += n
            state.supply[s] -= 2 * n
    if picks is not None:
        for s in range(seats):
            first, second = picks[s]
            others = [c for c in CARD_IDS if c not in (first, second)][:4]
            state.hands[s] = sorted([first, second, *others])
            state.decks[s] = [c for c in CARD_IDS if c not in state.hands[s]]
        for s in range(seats):
            ENGINE.play(state, s, {"type": "pick", "first": picks[s][0], "second": picks[s][1]})
    return state


@pytest.fixture
def scenario() -> Callable[..., R.State]:
    return build


@pytest.fixture
def card_id() -> Callable[[str], int]:
    return card


def play_all(state: R.State, moves: list[tuple[int, dict[str, Any]]]) -> None:
    for seat, move in moves:
        ENGINE.play(state, seat, move)
