"""The state of a game of London, its setup under each rules version, and the primitive card
movements.

The state is a tree of dataclasses, so ``engines.kit.snapshot`` encodes and decodes it; a snapshot
written before the kit (no ``rules_version``, no ``rng``) has the very same keys otherwise, and
decodes into a rules-version-1 state. ``play`` validates a move completely before it calls anything
here. Deck lists keep the top card at the END of the list.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.kit import Log, Rng
from engines.london.components import BOROUGHS, CARDS, ERAS, STARTERS

STARTING_MONEY = 5
STARTING_HAND = 6
HAND_LIMIT = 9
LOAN_AMOUNT = 10
REPAY_COST = 15
LOAN_TOKENS = 12
MARKET_SIZE = 3
BOARD_SPACES = {2: 3, 3: 4, 4: 5}
"""Usable spaces per development-board row by player count (two rows)."""


@dataclass(slots=True)
class Player:
    hand: list[int] = field(default_factory=list)
    money: int = STARTING_MONEY
    loans: int = 0
    poverty: int = 0
    prestige: int = 0
    stacks: list[list[int]] = field(default_factory=list)  # bottom -> top
    facedown: set[int] = field(default_factory=set)
    boroughs: list[str] = field(default_factory=list)  # bottom -> top; the last one is live


@dataclass(slots=True)
class Turn:
    """What the current turn has done so far (reset at every start of turn)."""

    step: str = "start"
    action: str | None = None
    repay_open: bool = True
    draws_done: int = 0
    draw_min: int = 1
    draw_max: int = 1
    draws_left: int = 0  # Draw Three
    developed: int = 0
    free_colour: int = 0  # Wren: developments that need no colour discard
    built: list[int] = field(default_factory=list)  # stack indices built this turn
    pending: int | None = None  # card being developed, or activated (discard to pay / flip)
    activated: list[int] = field(default_factory=list)
    borough_done: bool = False
    scry: list[int] = field(default_factory=list)  # St Pancras: cards looked at (top first)


@dataclass(slots=True)
class State:
    seats: int
    players: list[Player]
    deck: list[int]
    board: list[list[int | None]]  # [top row, bottom row]
    box: list[int]  # cards that left the game
    market: list[str]
    borough_deck: list[str]  # top at the end
    loan_supply: int
    current: int = 0
    turn_no: int = 1
    turn: Turn = field(default_factory=Turn)
    endgame: bool = False
    final_turns_left: int = 0
    over: bool = False
    rules_version: int = 1
    """How this table was dealt (a snapshot without it was written under version 1)."""
    rng: Rng | None = None
    """Version 2: the kit's generator, seeded with the whole seed, that dealt the game. Version 1
    dealt with ``random.Random(seed)`` at setup and holds no generator."""

    # -- primitive movements (no legality checks: callers have validated) ---------------
    def draw_from_deck(self, seat: int, log: Log, why: str = "") -> int | None:
        if not self.deck:
            return None
        cid = self.deck.pop()
        self.players[seat].hand.append(cid)
        suffix = f" ({why})" if why else ""
        log.say("{0} drew a card from the deck{suffix}", seat,
                privately={seat: "You drew {card} from the deck{suffix}"},
                card=CARDS[cid].name, suffix=suffix)
        return cid

    def take_from_board(self, seat: int, cid: int, log: Log) -> None:
        for row in self.board:
            for i, c in enumerate(row):
                if c == cid:
                    row[i] = None
        self.players[seat].hand.append(cid)
        log.say("{0} took {card} from the development board", seat, card=CARDS[cid].name)

    def discard(self, seat: int, cid: int) -> None:
        """A card leaves a hand: onto the development board, or to the box for a pauper."""
        self.players[seat].hand.remove(cid)
        self.to_board(cid)

    def to_board(self, cid: int) -> None:
        """Discards fill the top row, then the bottom row; when both are full, the bottom row
        leaves the game, the top row moves down, and the card starts the new top row."""
        if CARDS[cid].is_pauper:
            self.box.append(cid)
            return
        for row in self.board:
            for i, c in enumerate(row):
                if c is None:
                    row[i] = cid
                    return
        top, bottom = self.board
        self.box.extend(c for c in bottom if c is not None)
        self.board = [[cid] + [None] * (len(top) - 1), top]

    def board_cards(self) -> list[int]:
        return [c for row in self.board for c in row if c is not None]

    def can_draw(self) -> bool:
        return bool(self.deck) or any(c is not None for row in self.board for c in row)


def new_state(seats: int, seed: int, version: int = 2) -> State:
    """Set up: each set shuffled alone (C bottom, B, A top); 6 cards and £5 each; the three
    starter boroughs form the market, the other 17 shuffled face-down beneath.

    Version 2 shuffles with the kit's ``Rng.from_seed(seed)`` (all 128 bits of the seed), kept in
    the state; version 1 with ``random.Random(seed)``, exactly as tables dealt before the kit."""
    shuffle: Callable[[list[Any]], None]
    rng: Rng | None = None
    if version == 1:
        shuffle = random.Random(seed).shuffle
    else:
        rng = Rng.from_seed(seed)
        shuffle = rng.shuffle
    deck: list[int] = []
    for era in reversed(ERAS):  # C first = bottom of the deck
        part = [cid for cid, c in enumerate(CARDS) if c.era == era]
        shuffle(part)
        deck += part  # deck[-1] is the top, so era A ends up on top
    players = [Player() for _ in range(seats)]
    state = State(seats=seats, players=players, deck=deck,
                  board=[[None] * BOARD_SPACES[seats] for _ in range(2)], box=[],
                  market=list(STARTERS), borough_deck=[], loan_supply=LOAN_TOKENS,
                  rules_version=version, rng=rng)
    others = [k for k in BOROUGHS if k not in STARTERS]
    shuffle(others)
    state.borough_deck = others
    for _ in range(STARTING_HAND):
        for p in players:
            p.hand.append(state.deck.pop())
    return state
