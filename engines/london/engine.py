"""London as an ``engines.base.Engine``: the protocol's methods over the rules module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Event, IllegalMove, Move, Option, Result, View
from engines.london import rules, scoring, state, view
from engines.london.state import State


class LondonEngine:
    """The whole game of London for 2–4 players.

    >>> from engines.london import ENGINE
    >>> s = ENGINE.new_game(seats=2, seed=1, options={})
    >>> sorted(ENGINE.to_act(s)), ENGINE.legal_moves(s, 0)[0]
    ([0], {'type': 'draw', 'from': 'deck'})
    """

    id = "london"
    title = "London"
    tagline = "Raise the city from its ashes — and mind the poverty."
    min_seats = 2
    max_seats = 4
    options: tuple[Option, ...] = ()

    def new_game(self, seats: int, seed: int, options: Mapping[str, Any]) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"London is for {self.min_seats} to {self.max_seats} players, not {seats}")
        if options:
            raise ValueError(f"London has no options (got {sorted(options)})")
        s = state.new_state(seats, seed)
        rules.begin_turn(s, 0)
        return s

    def to_act(self, s: State) -> frozenset[int]:
        return frozenset() if s.over else frozenset((s.current,))

    def legal_moves(self, s: State, seat: int) -> list[Move]:
        return rules.legal_moves(s, seat)

    def is_legal(self, s: State, seat: int, move: Move) -> bool:
        """True exactly when ``move`` is in ``legal_moves(s, seat)``."""
        return rules.refusal(s, seat, move) is None

    def play(self, s: State, seat: int, move: Move) -> list[Event]:
        why = rules.refusal(s, seat, move)
        if why is not None:
            raise IllegalMove(why.message, rule=why.rule, code=why.code)
        return rules.apply(s, seat, move)

    def view(self, s: State, seat: int | None) -> View:
        return view.view(s, seat)

    def views(self, s: State, seats: Iterable[int | None],
              legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
        return view.views(s, seats, legal)

    def static_view(self, s: State) -> View:
        """The card and borough catalogue: sent once per connection, not with every view."""
        return {"catalogue": view.CATALOGUE}

    def result(self, s: State) -> Result | None:
        return scoring.result(s)

    def encode(self, s: State) -> dict[str, Any]:
        return state.encode(s)

    def decode(self, data: Mapping[str, Any]) -> State:
        return state.decode(data)
