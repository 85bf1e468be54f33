"""Constructed positions for the London rule tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engines.base import IllegalMove, Move
from engines.london import ENGINE
from engines.london.components import CARDS
from engines.london.rules import begin_turn
from engines.london.state import State


class Table:
    """A position built card by card: every card not placed somewhere goes into the deck.

    Example: ``t = Table(2); t.hand(0, "hospital", "school"); s = t.ready(step="action")``.
    """

    def __init__(self, seats: int = 2) -> None:
        self.s: State = ENGINE.new_game(seats, 0, {})
        for p in self.s.players:
            p.hand = []
            p.money = 5
        self.s.board = [[None] * len(self.s.board[0]) for _ in range(2)]
        self.free = list(range(len(CARDS)))
        self.top: list[int] = []
        self.empty_deck = False

    def take(self, key: str) -> int:
        for cid in self.free:
            if CARDS[cid].key == key:
                self.free.remove(cid)
                return cid
        raise KeyError(f"no free copy of {key}")

    def hand(self, seat: int, *keys: str) -> list[int]:
        ids = [self.take(k) for k in keys]
        self.s.players[seat].hand += ids
        return ids

    def stack(self, seat: int, *keys: str, facedown: tuple[str, ...] = ()) -> list[int]:
        """A stack, bottom first; keys listed in ``facedown`` lie face-down."""
        ids = [self.take(k) for k in keys]
        self.s.players[seat].stacks.append(ids)
        for k, c in zip(keys, ids, strict=True):
            if k in facedown:
                self.s.players[seat].facedown.add(c)
        return ids

    def board(self, *keys: str) -> list[int]:
        ids = [self.take(k) for k in keys]
        for c in ids:
            self.s.to_board(c)
        return ids

    def deck_top(self, *keys: str) -> list[int]:
        """Cards on top of the deck, the first one on top."""
        ids = [self.take(k) for k in keys]
        self.top = ids
        return ids

    def boroughs(self, seat: int, *keys: str) -> None:
        self.s.players[seat].boroughs = list(keys)
        for k in keys:
            if k in self.s.market:
                self.s.market.remove(k)
                self.s.market.append(self.s.borough_deck.pop())
            elif k in self.s.borough_deck:
                self.s.borough_deck.remove(k)

    def ready(self, seat: int = 0, step: str = "start", **turn: Any) -> State:
        s = self.s
        s.box = []
        rest = [c for c in self.free]
        if self.empty_deck:
            s.box += rest
            s.deck = []
        else:
            s.deck = rest + list(reversed(self.top))
        self.free = []
        begin_turn(s, seat)
        s.turn.step = step
        if step != "start":
            s.turn.repay_open = False
        for k, v in turn.items():
            setattr(s.turn, k, v)
        return s


@pytest.fixture
def table() -> Callable[..., Table]:
    return Table


def play(s: State, seat: int, *moves: Move) -> list[str]:
    texts: list[str] = []
    for m in moves:
        texts += [e.text for e in ENGINE.play(s, seat, m)]
    return texts


def refused(s: State, seat: int, move: Move) -> IllegalMove:
    before = ENGINE.encode(s)
    with pytest.raises(IllegalMove) as info:
        ENGINE.play(s, seat, move)
    assert ENGINE.encode(s) == before, "a refused move changed the state"
    return info.value


@pytest.fixture
def do() -> Callable[..., list[str]]:
    return play


@pytest.fixture
def refuse() -> Callable[..., IllegalMove]:
    return refused
