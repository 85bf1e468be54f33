"""The state of a game: a dataclass (snapshots come from the kit), named as the rulebook names
things. Seats are numbers; ``houses[seat]`` is the house a seat plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.kit import Commitments, DecisionStack, Rng

WESTEROS, PLANNING, ACTION, OVER = "westeros", "planning", "action", "over"
RAID, MARCH, CONSOLIDATE = "raid", "march", "consolidate"


@dataclass
class Unit:
    kind: str
    routed: bool = False


@dataclass
class PlacedOrder:
    seat: int
    token: str


@dataclass
class Combat:
    """One combat (or an attack on a neutral force), from the march that started it to its end."""

    attacker: int
    defender: int | None  # None: a neutral force
    area: str
    origin: str
    army: list[str]  # the attacking units' kinds (they stay out of the area until they win)
    march: str  # the march order token
    step: str = "support"
    supporters: dict[str, str] = field(default_factory=dict)  # support area -> attacker/defender/none
    to_ask: list[int] = field(default_factory=list)  # supporting seats still to decide, in order
    cards: Commitments = field(default_factory=Commitments)
    card: dict[int, str] = field(default_factory=dict)  # seat -> revealed house card
    blade: bool = False  # the Valyrian Steel Blade was used
    strength: dict[int, int] = field(default_factory=dict)
    winner: int | None = None
    loser: int | None = None
    casualties: int = 0
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class GameState:
    seats: int
    houses: list[str]
    rng: Rng
    units: dict[str, list[Unit]]  # area -> the units there (all of one house)
    owner: dict[str, int]  # area -> the seat whose units are there
    tokens: dict[str, int]  # land area -> the seat whose Power token is there
    garrisons: dict[str, int]  # home area -> garrison strength
    neutral: dict[str, int]  # area -> neutral force strength
    blocked: list[str]
    homes: dict[str, int]  # home area -> its seat (houses in play)
    power: list[int]  # available Power tokens per seat
    supply: list[int]  # Supply track position per seat
    tracks: dict[str, list[int]]  # iron_throne / fiefdoms / kings_court -> seats, first place first
    hands: list[list[str]]
    discards: list[list[str]]
    wildling_deck: list[str]
    westeros_decks: dict[str, list[str]]
    wildlings: int
    round: int = 1
    phase: str = PLANNING
    step: str = ""
    restricted: list[str] = field(default_factory=list)  # order tokens barred this round (Westeros III)
    planning: Commitments = field(default_factory=Commitments)
    orders: dict[str, PlacedOrder] = field(default_factory=dict)
    raven_used: bool = False
    raven_saw: int | None = None  # the seat that looked at the top wildling card (until it moves)
    blade_used: bool = False
    cursor: int = 0  # Iron Throne position whose turn it is in the current action step
    decisions: DecisionStack = field(default_factory=DecisionStack)
    combat: Combat | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)  # questions an effect raised, asked next
    revealed: list[str] = field(default_factory=list)  # this round's Westeros cards, decks I, II, III
    tasks: list[dict[str, Any]] = field(default_factory=list)  # the Westeros phase's steps still to run
    bids: Commitments = field(default_factory=Commitments)  # hidden bids (Clash of Kings, wildlings)
    # the bids revealed in the latest Westeros phase: track, round, bids, resulting order, tie-breaker
    bid_results: list[dict[str, Any]] = field(default_factory=list)
    westeros_known: dict[str, int] = field(default_factory=dict)  # deck -> cards drawn since its shuffle
    wildling_known: int = 0  # wildling cards at the bottom everyone has seen
    wildling_last: str = ""  # the last wildling card revealed
    winner: int | None = None
    ended_by: str = ""
    moves_played: int = 0
