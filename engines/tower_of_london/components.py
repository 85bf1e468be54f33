"""The components of Tower of London, read from the data files in ``data/``.

The rulebook does not print the board, the card numbers, POISON, the event cards or the scoring
cards; the project authored them (see README.md). This module only loads and indexes them: the
behaviour they name (abilities, event effect kinds) lives in ``rules.py``.

>>> CARDS[4].name, CARDS[4].orange
('SWITCH 7', 7)
>>> AREA_OF[11], QUADRANT_OF[11]
('orange', 'II')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

AREAS: tuple[str, ...] = ("orange", "green", "blue")
"""The three scoring areas, inner to outer."""

ABILITIES: tuple[str, ...] = ("FOCUS", "BACKSTAB", "SWITCH", "PROMOTE", "POISON")
"""The engine's ability vocabulary: every card's ability is one of these."""

EFFECT_KINDS: frozenset[str] = frozenset({
    "score_bonus", "only_first_place", "ability_disabled", "turn_order_reversed",
    "area_tiebreak_lowest", "sealed_quadrant", "promoted_wins_ties", "fewest_ravens_starts",
    "min_beefeaters_to_control",
})
"""The engine's event-effect vocabulary: every event card's effect kind is one of these."""


def _load(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


@dataclass(frozen=True, slots=True)
class Card:
    """A player card: three building numbers (orange, green, blue) and an ability."""

    id: int
    name: str
    orange: int
    green: int
    blue: int
    ability: str

    @property
    def buildings(self) -> tuple[int, int, int]:
        return (self.orange, self.green, self.blue)

    def label(self) -> str:
        return f"{self.name} (orange {self.orange}, green {self.green}, blue {self.blue})"

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "orange": self.orange, "green": self.green,
                "blue": self.blue, "ability": self.ability}


@dataclass(frozen=True, slots=True)
class EventCard:
    id: int
    name: str
    text: str
    effect: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.effect["kind"])

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "text": self.text}


@dataclass(frozen=True, slots=True)
class ScoringCard:
    id: str
    name: str
    players: tuple[int, ...]
    ravens: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "players": list(self.players),
                "ravens": list(self.ravens)}


BOARD: dict[str, Any] = _load("board.json")
_CARDS_DATA = _load("cards.json")
_EVENTS_DATA = _load("events.json")
RULES: dict[str, Any] = _load("rules.json")

BUILDINGS: tuple[int, ...] = tuple(sorted(b["number"] for b in BOARD["buildings"]))
MAX_BUILDING: int = max(BUILDINGS)
AREA_OF: dict[int, str] = {b["number"]: b["area"] for b in BOARD["buildings"]}
QUADRANT_OF: dict[int, str] = {b["number"]: b["quadrant"] for b in BOARD["buildings"]}
BUILDINGS_IN_AREA: dict[str, tuple[int, ...]] = {
    a: tuple(n for n in BUILDINGS if AREA_OF[n] == a) for a in AREAS}
BUILDINGS_IN_QUADRANT: dict[str, tuple[int, ...]] = {
    q: tuple(n for n in BUILDINGS if QUADRANT_OF[n] == q) for q in BOARD["quadrants"]}
ADJACENT: dict[int, tuple[int, ...]] = {
    n: tuple(sorted({b for a, b in BOARD["lines"] if a == n} | {a for a, b in BOARD["lines"] if b == n}))
    for n in BUILDINGS}
TRACK_SPACES: tuple[int, ...] = tuple(sorted(BOARD["turn_order_track"]["spaces"]))

ABILITY_TEXT: dict[str, str] = dict(_CARDS_DATA["abilities"])
CARDS: dict[int, Card] = {c["id"]: Card(c["id"], c["name"], c["orange"], c["green"], c["blue"],
                                        c["ability"]) for c in _CARDS_DATA["cards"]}
CARD_IDS: tuple[int, ...] = tuple(sorted(CARDS))
EVENTS: dict[int, EventCard] = {e["id"]: EventCard(e["id"], e["name"], e["text"], dict(e["effect"]))
                                for e in _EVENTS_DATA["events"]}
SCORING_CARDS: tuple[ScoringCard, ...] = tuple(
    ScoringCard(s["id"], s["name"], tuple(s["players"]), tuple(s["ravens"]))
    for s in RULES["scoring_cards"])

RAVENS: int = RULES["ravens"]
RAVENS_TO_WIN: int = RULES["ravens_to_win"]
BEEFEATERS: int = RULES["beefeaters_per_colour"]
PROMOTED_WEIGHT: int = RULES["promoted_beefeater_counts_as"]
HAND_SIZE: int = RULES["hand_size"]
CARDS_KEPT: int = RULES["cards_kept"]
STEPS_PER_ROUND: int = RULES["steps_per_round"]
EVENTS_DRAWN: int = RULES["events_drawn"]
AREAS_SCORED: dict[int, tuple[str, ...]] = {r["round"]: tuple(r["areas_scored"]) for r in RULES["rounds"]}
ROUNDS: int = len(AREAS_SCORED)


def scoring_card_for(players: int) -> ScoringCard:
    """Setup 3: the scoring card matching the number of players.

    >>> scoring_card_for(4).ravens
    (2, 1, 1)
    """
    for card in SCORING_CARDS:
        if players in card.players:
            return card
    raise ValueError(f"no scoring card for {players} players")


def static_json() -> dict[str, Any]:
    """Everything fixed about the game, for a browser to draw from the view alone."""
    return {
        "board": {
            "size": list(BOARD["size"]),
            "centre": list(BOARD["centre"]),
            "ring_radius": dict(BOARD["ring_radius"]),
            "areas": [dict(a) for a in BOARD["areas"]],
            "quadrants": list(BOARD["quadrants"]),
            "lines": [list(line) for line in BOARD["lines"]],
        },
        "cards": [CARDS[c].as_json() for c in CARD_IDS],
        "abilities": dict(ABILITY_TEXT),
        "track_spaces": list(TRACK_SPACES),
        "ravens_to_win": RAVENS_TO_WIN,
        "beefeaters_per_colour": BEEFEATERS,
        "promoted_beefeater_counts_as": PROMOTED_WEIGHT,
        "areas_scored_by_round": {str(r): list(a) for r, a in AREAS_SCORED.items()},
    }
