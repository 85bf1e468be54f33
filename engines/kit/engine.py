"""``KitEngine``: the engine protocol written once; a game supplies its rules.

A game subclasses ``KitEngine`` and provides:

* ``State`` (a dataclass: snapshots come for free) and ``MOVES`` (a ``MoveSchema``);
* ``setup(seats, seed, options, version)`` — the first state; randomness from ``Rng.from_seed(seed)``;
* ``TURN`` (a ``Turn``: the steps, their moves, seats, rules and prompts) with ``check(state, seat,
  move)`` (what the move itself breaks, once the turn's frame has let it through): ``awaited``,
  ``refusal`` and ``prompt`` then come from the turn; or, without a ``TURN``, its own
  ``awaited(state)`` and ``refusal``;
* ``legal_moves(state, seat)`` — every legal move, built with ``MOVES.make``;
* ``refusal(state, seat, move)`` — ``None`` when the (well-shaped) move is legal, else the
  ``IllegalMove`` naming the most specific rule; it never changes the state;
* ``apply(state, seat, move)`` — the move's effect, returning its log lines;
* ``view(state, seat)``, ``result(state)``, ``determinize(state, seat, rng)``;
* optionally ``static_view(state)`` and ``views(state, seats, legal)``;
* optionally ``reversible(state, seat, move)`` — True when the (legal) move, played now, reveals
  nothing (no card drawn from a deck, no reveal, no generator used) and hands the game to no
  other seat, so the player may take it back (see "Undo" below); the kit says False to every move;
* optionally ``round_of(state)`` — the round (or era, or turn) the game is in, a number, for
  replays to jump between; the kit says None (replays then jump by move numbers).

Undo. The site lets a player take back their own latest moves while each was ``reversible`` and
no other seat has moved since: it replays the stored moves from the state before them. A game
opts in move by move; the conformance suite checks every move it calls reversible leaves the
mover's view and the public view the same on every determinization of the hidden parts (nothing
was learnt that could be unlearnt by taking it back).

``play`` is then: check the shape (``MOVES.parse``), ask ``refusal``, ``apply``. The conformance
suite (tests/engines/test_conformance.py) checks every game keeps the promises that follow:
a move is accepted exactly when it is listed; a refusal leaves ``encode(state)`` unchanged;
views leak nothing ``determinize`` would re-draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from engines.base import Event, IllegalMove, Move, Option, Result, View, resolve_options
from engines.kit import snapshot
from engines.kit.moves import MoveSchema
from engines.kit.rng import Rng
from engines.kit.turns import Turn

S = TypeVar("S")


class KitEngine(Generic[S]):
    id: str
    title: str
    tagline: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = ()
    rules_version: ClassVar[int] = 1
    """The newest rules version; tables dealt under an older one keep it (``rules_versions``
    lists every version the engine still plays). Raise it when a change would deal or play an
    existing table differently."""
    rules_versions: ClassVar[tuple[int, ...]] = (1,)
    State: ClassVar[type]
    MOVES: ClassVar[MoveSchema]
    TURN: ClassVar[Turn[Any] | None] = None
    """The game's steps, declared (``engines.kit.turns``); None for a game that writes ``awaited``,
    ``refusal`` and its prompts itself."""

    # -- the protocol ------------------------------------------------------------------------
    def new_game(self, seats: int, seed: int, options: Mapping[str, Any],
                 rules_version: int | None = None) -> S:
        resolved = resolve_options(self, options)
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{self.title} is for {self.min_seats} to {self.max_seats} players, not {seats}")
        version = self.rules_version if rules_version is None else rules_version
        if version not in self.rules_versions:
            raise ValueError(f"{self.title} has no rules version {version}")
        return self.setup(seats, seed, resolved, version)

    def to_act(self, state: S) -> frozenset[int]:
        return self.awaited(state)

    def play(self, state: S, seat: int, move: Move) -> list[Event]:
        canonical = self.MOVES.parse(move)
        if type(seat) is not int or not 0 <= seat < self.seats_of(state):
            raise IllegalMove(f"There is no seat {seat!r} at this table.", code="not_your_turn")
        why = self.refusal(state, seat, canonical)
        if why is not None:
            raise why
        return self.apply(state, seat, canonical)

    def is_legal(self, state: S, seat: int, move: Move) -> bool:
        """True exactly when ``move`` is in ``legal_moves(state, seat)``."""
        try:
            canonical = self.MOVES.parse(move)
        except IllegalMove:
            return False
        return self.refusal(state, seat, canonical) is None

    def canonical(self, move: Move) -> Move:
        """The stored form of a move (see ``engines.base.canonical_move``)."""
        return self.MOVES.parse(move)

    def encode(self, state: S) -> dict[str, Any]:
        return snapshot.encode(state)

    def decode(self, data: Mapping[str, Any]) -> S:
        return snapshot.decode(self.State, data)

    def views(self, state: S, seats: Iterable[int | None],
              legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
        return {seat: self.view(state, seat) for seat in seats}

    def static_view(self, state: S) -> View:
        return {}

    def reversible(self, state: S, seat: int, move: Move) -> bool:
        """May ``seat`` take back ``move`` (legal in ``state``, not yet played) once played? Only
        when it reveals nothing to anyone and passes the game to no other seat. The kit's answer
        is no: a game opts in for the moves its rules show to be safe."""
        return False

    def round_of(self, state: S) -> int | None:
        """The round the game is in (replays jump between rounds); None: the game has none."""
        return None

    # -- what a game supplies ------------------------------------------------------------------
    def seats_of(self, state: S) -> int:
        return int(state.seats)  # type: ignore[attr-defined]

    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> S:
        raise NotImplementedError

    def awaited(self, state: S) -> frozenset[int]:
        if self.TURN is None:
            raise NotImplementedError
        return self.TURN.awaited(state)

    def legal_moves(self, state: S, seat: int) -> list[Move]:
        raise NotImplementedError

    def refusal(self, state: S, seat: int, move: Move) -> IllegalMove | None:
        if self.TURN is None:
            raise NotImplementedError
        return self.TURN.refusal(state, seat, move, self.check)

    def check(self, state: S, seat: int, move: Move) -> IllegalMove | None:
        """What the move itself breaks (None: nothing), asked by the turn's ``refusal`` once the
        seat is awaited and the step takes the move's type."""
        raise NotImplementedError

    def prompt(self, state: S, seat: int | None, moves: list[Move] | None = None) -> dict[str, Any] | None:
        """The prompt of ``seat`` from the turn (None: not awaited); ``moves`` are its legal moves
        when the caller has them already."""
        if self.TURN is None:
            raise NotImplementedError
        if moves is None and seat is not None and self.TURN.step_of(state, seat) is not None:
            moves = self.legal_moves(state, seat)
        return self.TURN.prompt(state, seat, moves or [])

    def apply(self, state: S, seat: int, move: Move) -> list[Event]:
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> View:
        raise NotImplementedError

    def result(self, state: S) -> Result | None:
        raise NotImplementedError

    def determinize(self, state: S, seat: int | None, rng: Rng) -> S:
        """A state consistent with all ``seat`` can see (None: a spectator), every hidden part it
        cannot see re-drawn with ``rng``: other hands, deck orders, face-down choices — and the
        generator itself, so the future is not known either. The input is not changed."""
        raise NotImplementedError
