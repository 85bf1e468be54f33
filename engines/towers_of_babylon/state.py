"""The state of a game of Towers of Babylon: plain dataclasses (snapshots come from the kit).

Every physical card has an instance id (``iid``): ``100 * seat + i`` for the i-th card of that
seat's deck list sorted by card id, so a game's record names cards the same way on every replay.
A deck is a list whose *last* element is the top card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.kit import Commitments, DecisionStack, Rng
from engines.towers_of_babylon.components import CARDS, START_TOWER, Card

ALWAYS = "always"
WHEN_ABLE = "when_able"
WINDOW_MODES: tuple[str, ...] = (ALWAYS, WHEN_ABLE)
"""How reaction windows open for a player on the opponent's turn (see README: "Reaction windows")."""

TOWER_TARGET = -1
"""The ``target`` of an attack on the enemy Tower, and of a card played without a target."""


@dataclass(slots=True)
class Minion:
    """A Minion in play: where it is, its state (ready / immobile / exhausted) and its markers."""

    iid: int
    card: str
    owner: int
    zone: str
    status: str
    damage: int = 0
    sentenced: bool = False
    might_bonus: int = 0
    health_bonus: int = 0
    surge: int = 0  # might until the end of this turn

    @property
    def spec(self) -> Card:
        return CARDS[self.card]

    @property
    def might(self) -> int:
        return max(0, CARDS[self.card].might + self.might_bonus + self.surge)

    @property
    def health(self) -> int:
        return CARDS[self.card].health + self.health_bonus

    @property
    def construction(self) -> int:
        return CARDS[self.card].construction

    def has(self, keyword: str) -> bool:
        return keyword in CARDS[self.card].flags


@dataclass(slots=True)
class Player:
    """One player's play mat."""

    deck_name: str = ""
    deck_list: dict[str, int] = field(default_factory=dict)
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    known_hand: list[int] = field(default_factory=list)
    """Cards in this hand the opponent has seen go there (minions returned from play)."""
    known_bottom: int = 0
    """How many cards at the bottom of the deck this player put there (and so knows)."""
    discard: list[int] = field(default_factory=list)
    sacrifice: list[int] = field(default_factory=list)
    invocations: list[int] = field(default_factory=list)
    minions: list[Minion] = field(default_factory=list)
    tower: int = START_TOWER
    transformed: int = 0
    available: list[str] = field(default_factory=list)
    exhausted: list[str] = field(default_factory=list)
    turns: int = 0
    windows: str = ALWAYS
    mulliganed: int = -1  # cards put back at setup (-1: not yet revealed)


@dataclass(slots=True)
class Attack:
    """The attack being resolved: attacker, its target (an enemy minion, or TOWER_TARGET), the
    blocker (-1: none), whether a witchery halted it, the Twinstrike victim (-1: none)."""

    attacker: int
    target: int
    blocker: int = -1
    halted: bool = False
    second: int = -1


@dataclass(slots=True)
class State:
    seats: int
    rng: Rng
    first: int
    active: int = -1
    players: list[Player] = field(default_factory=list)
    cards: dict[int, str] = field(default_factory=dict)
    decisions: DecisionStack = field(default_factory=DecisionStack)
    deck_choice: Commitments = field(default_factory=Commitments)
    mulligan: Commitments = field(default_factory=Commitments)
    attack: Attack | None = None
    entered: int = -1
    """The minion that just entered the game under the active player (the "when a friendly
    minion enters the game" window is open until the player's next other action); -1: none."""
    winner: int = -1
    over: bool = False
    outcome: str = ""
    moves: int = 0
    rules_version: int = 1
    """The rules version the table was dealt under (see README, "Rules versions"): 1, the engine
    chose the Power Sources that pay for a card; 2, the player does. A snapshot written before
    versions has no such key and reads as 1, which is what it was played under."""

    def card(self, iid: int) -> Card:
        return CARDS[self.cards[iid]]

    def minion(self, iid: int) -> Minion | None:
        """The minion in play with this instance id (None if it is not in play)."""
        for p in self.players:
            for m in p.minions:
                if m.iid == iid:
                    return m
        return None
