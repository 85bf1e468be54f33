"""The components of Towers of Babylon, read from the data files in ``data/``.

The seed prints the rules but not the card pool: the factions, the cards, the ready-made decks
and the deck rules were authored for this project (see README.md). This module loads and indexes
them and checks deck lists; what the cards *do* is the effect vocabulary of ``effects.py``.

>>> elder = CARDS["fire_scarlet_elder"]
>>> elder.cost, elder.specific, elder.construction, elder.might, elder.health, elder.type, elder.rarity
(5, 2, 3, 4, 3, 'Human Mage', 'rare')
>>> deck_errors({"fire_scarlet_elder": 3})[0]
'Deck rule 2 (copies by rarity): Scarlet Elder is rare, and a deck may hold at most 2 copies of a rare card, not 3.'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

MINION = "minion"
COMMAND = "command"
INVOCATION = "invocation"
WITCHERY = "witchery"
SPELL_KINDS: tuple[str, ...] = (COMMAND, INVOCATION, WITCHERY)

RAMPARTS = "ramparts"
TOWER = "tower"
BATTLEFIELD = "battlefield"
ZONES: tuple[str, ...] = (RAMPARTS, TOWER, BATTLEFIELD)
"""The three zones a Minion can be in: Defenders, Builders, Raiders."""
ROLE = {RAMPARTS: "Defender", TOWER: "Builder", BATTLEFIELD: "Raider"}

READY = "ready"
IMMOBILE = "immobile"
EXHAUSTED = "exhausted"

ANY_TIME = "any_time"
FRIENDLY_ENTERS = "friendly_enters"
ENEMY_ATTACKING = "enemy_attacking"
WINDOWS: tuple[str, ...] = (ANY_TIME, FRIENDLY_ENTERS, ENEMY_ATTACKING)
"""When a Witchery may be played (the situations the seed names)."""

ABILITIES: tuple[str, ...] = ("tunnel", "lethal", "thief", "regenerating", "crush", "twinstrike", "retreating")
TRIGGERS: tuple[str, ...] = ("swear_allegiance", "shape", "dying_words")


def _load(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


RULES: dict[str, Any] = _load("rules.json")
START_TOWER: int = RULES["start_tower"]
GOAL: int = RULES["goal"]
LAST_TURN: int = RULES["last_turn"]
DECK_SIZE: int = RULES["deck_size"]
MULLIGAN_MAX: int = RULES["mulligan_max"]
COPY_LIMITS: dict[str, int] = RULES["copy_limits"]
MAX_FACTIONS: int = RULES["max_factions"]

_FACTIONS = _load("factions.json")
FACTIONS: dict[str, dict[str, Any]] = {f["id"]: f for f in _FACTIONS["factions"]}
RARITIES: dict[str, dict[str, Any]] = {r["id"]: r for r in _FACTIONS["rarities"]}
_KEYWORDS = _load("keywords.json")
KEYWORDS: dict[str, dict[str, Any]] = {k["id"]: k for k in _KEYWORDS["keywords"]}


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the catalogue. Minions have construction/might/health; spells have effects."""

    id: str
    name: str
    faction: str
    kind: str
    cost: int
    specific: int
    rarity: str
    type: str = ""
    construction: int = 0
    might: int = 0
    health: int = 0
    keywords: tuple[str, ...] = ()
    target: str | None = None
    window: str | None = None
    effects: tuple[Mapping[str, Any], ...] = ()
    swear_allegiance: tuple[Mapping[str, Any], ...] = ()
    shape: tuple[Mapping[str, Any], ...] = ()
    dying_words: tuple[Mapping[str, Any], ...] = ()
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_minion(self) -> bool:
        return self.kind == MINION

    def has(self, keyword: str) -> bool:
        return keyword in self.flags

    def cost_text(self) -> str:
        if self.kind == WITCHERY:
            return f"{self.cost} transformed power"
        sym = FACTIONS[self.faction]["name"]
        return f"{self.cost} power, {self.specific} {sym}" if self.specific else f"{self.cost} power"


def _card(raw: Mapping[str, Any]) -> Card:
    keywords = tuple(raw.get("keywords", ()))
    triggers = {t: tuple(raw.get(t, ())) for t in TRIGGERS}
    flags = set(keywords) | {t for t, effects in triggers.items() if effects}
    all_effects = [*raw.get("effects", ()), *(e for t in TRIGGERS for e in triggers[t])]
    flags |= {e["do"] for e in all_effects if e["do"] in ("offering", "sentence")}
    return Card(
        id=raw["id"], name=raw["name"], faction=raw["faction"], kind=raw["kind"], cost=raw["cost"],
        specific=raw["specific"], rarity=raw["rarity"], type=raw.get("type", ""),
        construction=raw.get("construction", 0), might=raw.get("might", 0), health=raw.get("health", 0),
        keywords=keywords, target=raw.get("target"), window=raw.get("window"),
        effects=tuple(raw.get("effects", ())), swear_allegiance=triggers["swear_allegiance"],
        shape=triggers["shape"], dying_words=triggers["dying_words"], flags=frozenset(flags),
    )


CARD_LIST: tuple[Card, ...] = tuple(_card(c) for c in _load("cards.json")["cards"])
CARDS: dict[str, Card] = {c.id: c for c in CARD_LIST}

_DECKS = _load("decks.json")
DECKS: dict[str, dict[str, Any]] = {d["id"]: d for d in _DECKS["decks"]}
"""The ready-made decks: id → {id, name, description, cards: {card id: copies}}."""


# ------------------------------------------------------------------------------- deck rules
DECK_RULE_SIZE = "Deck rule 1 (size)"
DECK_RULE_COPIES = "Deck rule 2 (copies by rarity)"
DECK_RULE_FACTIONS = "Deck rule 3 (factions)"
DECK_RULE_CARDS = "Deck rule 0 (known cards)"


def with_article(word: str) -> str:
    """The word with its indefinite article: "an Earth", "an uncommon", "a Fire"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def unknown_card_error(card: str) -> str:
    return f"{DECK_RULE_CARDS}: there is no card {card[:60]!r} in the Towers of Babylon catalogue."


def copies_error(card: Card, copies: int) -> str:
    limit = COPY_LIMITS[card.rarity]
    rarity = RARITIES[card.rarity]["name"].lower()
    return (f"{DECK_RULE_COPIES}: {card.name} is {rarity}, and a deck may hold at most {limit} "
            f"{'copy' if limit == 1 else 'copies'} of {with_article(rarity)} card, not {copies}.")


def factions_error(card: Card, factions: list[str]) -> str:
    names = " and ".join(FACTIONS[f]["name"] for f in factions)
    return (f"{DECK_RULE_FACTIONS}: {card.name} is {with_article(FACTIONS[card.faction]['name'])} card, and a deck "
            f"draws on at most {MAX_FACTIONS} factions; this one already holds {names} cards.")


def size_error(count: int) -> str:
    return f"{DECK_RULE_SIZE}: a deck holds exactly {DECK_SIZE} cards; this one holds {count}."


def deck_errors(cards: Mapping[str, int]) -> list[str]:
    """Every way a deck list ({card id: copies}) breaks the deck rules; [] for a legal deck.

    >>> deck_errors(DECKS["fire_legion"]["cards"])
    []
    """
    errors: list[str] = []
    factions: list[str] = []
    for cid, copies in cards.items():
        card = CARDS.get(cid)
        if card is None:
            errors.append(unknown_card_error(cid))
            continue
        if copies > COPY_LIMITS[card.rarity]:
            errors.append(copies_error(card, copies))
        if card.faction not in factions:
            if len(factions) >= MAX_FACTIONS:
                errors.append(factions_error(card, factions))
                continue
            factions.append(card.faction)
    total = sum(cards.values())
    if total != DECK_SIZE:
        errors.append(size_error(total))
    return errors


def parse_deck_list(text: str) -> tuple[dict[str, int], list[str]]:
    """A pasted deck list, one ``<copies> <card name or id>`` a line (``3x Fireball``,
    ``2 fire_fireball``; blank lines and lines starting with ``#`` are skipped), as
    ({card id: copies}, errors). The errors name the line and the card.

    >>> parse_deck_list("3x Fireball\\n2 Scarlet Elder")[0]
    {'fire_fireball': 3, 'fire_scarlet_elder': 2}
    """
    by_name = {c.name.lower(): c.id for c in CARD_LIST}
    cards: dict[str, int] = {}
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(" ")
        head = head.lower().rstrip("x")
        if not head.isdigit() or not rest.strip():
            errors.append(f"Line {number} ({line[:60]!r}): write the number of copies, then the card's name.")
            continue
        name = rest.strip()
        cid = name if name in CARDS else by_name.get(name.lower())
        if cid is None:
            errors.append(f"Line {number}: {unknown_card_error(name)}")
            continue
        cards[cid] = cards.get(cid, 0) + int(head)
    return cards, errors + deck_errors(cards)

