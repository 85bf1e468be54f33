"""Relay: a game whose rules cost next to nothing, for measuring the server's floor.

``bench/load.py --game relay`` plays it through the whole server exactly as London is played
(found, joins, start over REST; each move over a seat's websocket, checked, applied, stored before
anyone is shown it, every seat's view built, encoded and sent), so what a saturated server spends
per Relay move is what it spends on any move apart from a game's own rules and the size of its
views: the floor under every game. Each turn the seat to play passes the baton (one of two listed
moves, as a London seat's prompt lists several); after ``length`` moves the last seat to pass
wins. A view is a few numbers, or about ``pad`` bytes more of public text when asked, to weigh
what a view's size costs.

``relay_padded`` (``PADDED``) is the same game with views about the size of a London seat's in
mid-game. Neither is hosted by the server unless named in ``PARLOUR_ENGINES`` (bench/load.py names
it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engines.base import Event, IllegalMove, Move, Option, Result, View
from engines.kit import INT, KitEngine, Log, MoveSchema, MoveSpec, Step, Turn, current

RULE_PASS = "Relay rule 1: pass the baton"


@dataclass
class RelayState:
    seats: int
    length: int
    pad: int
    current: int = 0
    moves: int = 0
    winner: int | None = None


def label(state: RelayState, seat: int, move: Move) -> str:
    return f"Pass {move['hand']}"


def not_your_turn(state: RelayState, seat: int, step: Step) -> IllegalMove:
    return IllegalMove("It is not your turn.", rule=RULE_PASS, code="not_your_turn")


TURN = Turn(
    Step("pass", moves=("pass",), seats=current(), rule=RULE_PASS, doing="passing",
         ask="Pass the baton"),
    where=lambda state: "pass",
    over=lambda state: state.winner is not None,
    label=label,
    waiting=not_your_turn,
)


def pad_option(default: int) -> Option:
    return Option("pad", "View padding", (0, 1000, 3000), default, "Bytes of public text in each view.")


class Relay(KitEngine[RelayState]):
    id = "relay"
    title = "Relay"
    tagline = "Pass the baton (a benchmark's game)."
    min_seats = 2
    max_seats = 6
    options = (
        Option("length", "Moves", (200, 700, 2000), 700, "The moves a game lasts."),
        pad_option(0),
    )
    State = RelayState
    MOVES = MoveSchema(MoveSpec("pass", hand=INT), game="Relay")
    TURN = TURN

    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> RelayState:
        return RelayState(seats, int(options["length"]), int(options["pad"]))

    def legal_moves(self, state: RelayState, seat: int) -> list[Move]:
        if TURN.step_of(state, seat) is None:
            return []
        return [self.MOVES.make("pass", hand=h) for h in (0, 1)]

    def check(self, state: RelayState, seat: int, move: Move) -> IllegalMove | None:
        if move["hand"] not in (0, 1):
            return IllegalMove("Pass with hand 0 or 1.", rule=RULE_PASS)
        return None

    def apply(self, state: RelayState, seat: int, move: Move) -> list[Event]:
        log = Log()
        state.moves += 1
        log.say("{0} passed", seat)
        if state.moves >= state.length:
            state.winner = seat
        else:
            state.current = (state.current + 1) % state.seats
        return log.events

    def view(self, state: RelayState, seat: int | None) -> View:
        return {
            "moves": state.moves,
            "length": state.length,
            "current": state.current,
            "padding": "x" * state.pad,
            "prompt": self.prompt(state, seat),
            "winner": state.winner,
        }

    def result(self, state: RelayState) -> Result | None:
        if state.winner is None:
            return None
        scores = tuple(1.0 if s == state.winner else 0.0 for s in range(state.seats))
        return Result((state.winner,), scores, {"moves": state.moves})

    def determinize(self, state: RelayState, seat: int | None, rng: Any) -> RelayState:
        return replace(state)  # nothing is hidden: a copy


class PaddedRelay(Relay):
    """Relay with views about the size of a London seat's in mid-game (about 3 KB)."""

    id = "relay_padded"
    title = "Relay (padded views)"
    options = (Relay.options[0], pad_option(3000))


ENGINE = Relay()
PADDED = PaddedRelay()
