"""The Tower of London engine: the kit's protocol (``KitEngine``) over ``rules`` and ``view``.

Moves (``rules.MOVES``; every one listed by ``legal_moves`` exactly as ``play`` accepts it):

* ``{"type": "pick", "first": c1, "second": c2}`` — Playing Cards step 1, simultaneous and hidden.
* ``{"type": "place", "building": n}`` — step 2A, one of the first card's three buildings.
* ``{"type": "remove", "building": n, "seat": s, "promoted": bool}`` — BACKSTAB / POISON.
* ``{"type": "switch", "a": [n1, s1], "b": [n2, s2]}`` — SWITCH two Beefeaters ([building, seat]),
  the lower-numbered building first.
* ``{"type": "pass"}`` — decline the ability.
* ``{"type": "keep", "cards": [c1, c2, c3]}`` — Reduce Player Decks, simultaneous and hidden,
  ascending.

>>> state = ENGINE.new_game(3, 7, {})
>>> sorted(ENGINE.to_act(state)), state.rules_version
([0, 1, 2], 2)
>>> len(ENGINE.legal_moves(state, 0))  # two different cards of six, in order
30
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engines.base import Event, IllegalMove, Move, Option, Result, View
from engines.kit import KitEngine, MoveSchema, Rng, Turn, snapshot
from engines.tower_of_london import rules as R
from engines.tower_of_london import view as V
from engines.tower_of_london.turn import TURN


class TowerOfLondon(KitEngine[R.State]):
    """Tower of London (WizKids, 2017) for 2–5 players."""

    id = "tower_of_london"
    title = "Tower of London"
    tagline = "Fight for control of the Tower: the first to gather seven ravens wins — if no one does, all lose."
    min_seats = 2
    max_seats = 5
    options: tuple[Option, ...] = ()
    rules_version: ClassVar[int] = R.RULES_VERSION
    rules_versions: ClassVar[tuple[int, ...]] = (1, 2)
    State: ClassVar[type] = R.State
    MOVES: ClassVar[MoveSchema] = R.MOVES
    TURN: ClassVar[Turn[R.State]] = TURN

    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> R.State:
        return R.new_state(seats, seed, version)

    def legal_moves(self, state: R.State, seat: int) -> list[Move]:
        return R.legal_moves(state, seat)

    def check(self, state: R.State, seat: int, move: Move) -> IllegalMove | None:
        return R.check(state, seat, move)

    def apply(self, state: R.State, seat: int, move: Move) -> list[Event]:
        return R.apply_move(state, seat, move)

    def result(self, state: R.State) -> Result | None:
        return R.result(state)

    def reversible(self, state: R.State, seat: int, move: Move) -> bool:
        """Cards chosen (to play, or to keep) may be chosen again while another seat is still
        choosing: nothing is revealed until the last choice. Every other move reveals a card or
        hands the turn on."""
        return move["type"] in ("pick", "keep") and bool(state.choosing.awaited() - {seat})

    def round_of(self, state: R.State) -> int:
        return int(state.round)

    def view(self, state: R.State, seat: int | None) -> View:
        return V.view(state, seat)

    def views(self, state: R.State, seats: Iterable[int | None],
              legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
        return V.views(state, seats, legal)

    def static_view(self, state: R.State) -> View:
        return V.static_view()

    def determinize(self, state: R.State, seat: int | None, rng: Rng) -> R.State:
        return V.determinize(state, seat, rng)

    def decode(self, data: Mapping[str, Any]) -> R.State:
        """A snapshot of today's form, or one written before rules versions (see
        ``rules.upgrade_snapshot``)."""
        state: R.State = snapshot.decode(R.State, R.upgrade_snapshot(dict(data)))
        return state


ENGINE = TowerOfLondon()
