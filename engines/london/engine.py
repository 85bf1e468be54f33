"""London on the engine kit: ``KitEngine`` over the rules module.

``play`` is the kit's: the move's shape (``MOVES.parse``), then ``refusal`` (the rule that forbids
it, if any), then ``apply``. Snapshots are the kit's generic dataclass snapshots; the tables dealt
before the kit (rules version 1) keep their deal and their snapshots.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engines.base import Event, IllegalMove, Move, Option, Result, View
from engines.kit import KitEngine, MoveSchema, Rng, Turn, snapshot
from engines.london import hidden, rules, scoring, state, view
from engines.london.moves import MOVES
from engines.london.state import State as LondonState
from engines.london.turn import TURN, check


class LondonEngine(KitEngine[LondonState]):
    """The whole game of London for 2–4 players.

    >>> from engines.london import ENGINE
    >>> s = ENGINE.new_game(seats=2, seed=1, options={})
    >>> sorted(ENGINE.to_act(s)), ENGINE.legal_moves(s, 0)[0], s.rules_version
    ([0], {'type': 'draw', 'from': 'deck'}, 2)
    """

    id = "london"
    title = "London"
    tagline = "Raise the city from its ashes — and mind the poverty."
    min_seats = 2
    max_seats = 4
    options: tuple[Option, ...] = ()
    rules_version: ClassVar[int] = 2
    """2: dealt with the kit's generator (``Rng.from_seed``); 1: with ``random.Random(seed)``."""
    rules_versions: ClassVar[tuple[int, ...]] = (1, 2)
    State: ClassVar[type] = LondonState
    MOVES: ClassVar[MoveSchema] = MOVES
    TURN: ClassVar[Turn[LondonState]] = TURN

    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> LondonState:
        s = state.new_state(seats, seed, version)
        rules.begin_turn(s, 0)
        return s

    def seats_of(self, s: LondonState) -> int:
        return s.seats

    def legal_moves(self, s: LondonState, seat: int) -> list[Move]:
        return rules.legal_moves(s, seat)

    def check(self, s: LondonState, seat: int, move: Move) -> IllegalMove | None:
        return check(s, seat, move)

    def apply(self, s: LondonState, seat: int, move: Move) -> list[Event]:
        return rules.apply(s, seat, move).events

    def view(self, s: LondonState, seat: int | None) -> View:
        return view.view(s, seat)

    def views(self, s: LondonState, seats: Iterable[int | None],
              legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
        return view.views(s, seats, legal)

    def static_view(self, s: LondonState) -> View:
        """The card and borough catalogue: sent once per connection, not with every view."""
        return {"catalogue": view.CATALOGUE}

    def result(self, s: LondonState) -> Result | None:
        return scoring.result(s)

    def reversible(self, s: LondonState, seat: int, move: Move) -> bool:
        """A move may be taken back unless it draws from the deck (a draw, St Pancras, an effect
        that draws), brings a face-down borough onto the market, or ends the turn."""
        return rules.reversible(s, seat, move)

    def round_of(self, s: LondonState) -> int:
        """London has no rounds of its own: a round here is every player's turn once."""
        return (s.turn_no - 1) // s.seats + 1

    def decode(self, data: Mapping[str, Any]) -> LondonState:
        """A state from its snapshot; a snapshot written before the kit (no ``rules_version``)
        decodes into the rules-version-1 state it stood for."""
        return snapshot.decode(LondonState, data)

    def determinize(self, s: LondonState, seat: int | None, rng: Rng) -> LondonState:
        return hidden.determinize(s, seat, rng)
