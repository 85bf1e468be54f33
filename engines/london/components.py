"""The components of London, read from ``data/``: city cards and boroughs.

Every physical city card gets a stable instance id (its position in the expanded list), so a
browser can name "card 17" and the engine knows which copy is meant.

>>> CARDS[0].name, len(CARDS), len(BOROUGHS)
('Vintners', 101, 20)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data")

COLOURS = ("brown", "blue", "pink", "grey")
ERAS = ("A", "B", "C")
KINDS = ("building", "action", "pauper")

Effect = dict[str, Any]
"""One effect: {"do": <vocabulary name>, ...parameters}."""


@dataclass(frozen=True, slots=True)
class Activation:
    """What running the city with this card costs and does."""

    pay: str  # "free" | "money" | "discard"
    amount: int  # the £ for "money", else 0
    effects: tuple[Effect, ...]
    flips: bool


@dataclass(frozen=True, slots=True)
class CardDef:
    """One city card design (several physical copies share it)."""

    key: str
    name: str
    era: str
    colour: str
    kind: str
    cost: int
    prestige: int
    activation: Activation | None
    ongoing: Effect | None
    on_play: tuple[Effect, ...]
    count: int

    @property
    def is_pauper(self) -> bool:
        return self.kind == "pauper"

    @property
    def is_action(self) -> bool:
        return self.kind == "action"


@dataclass(frozen=True, slots=True)
class BoroughDef:
    key: str
    name: str
    side: str  # "north" | "south"
    river: bool
    starter: bool
    cost: int
    draw: int
    prestige: int
    relief: int
    kind: str  # "active" | "passive" | "start_of_turn" | "none"
    effects: tuple[Effect, ...]  # for "active"
    ongoing: Effect | None  # for "passive"
    start_draw: str | None  # "westminster" | "st_pancras" for "start_of_turn"


def _card(raw: dict[str, Any]) -> CardDef:
    act = raw.get("activation")
    activation = None
    if act is not None:
        activation = Activation(pay=act["pay"], amount=int(act.get("amount", 0)),
                                effects=tuple(act["effects"]), flips=bool(act["flips"]))
    card = CardDef(key=raw["key"], name=raw["name"], era=raw["era"], colour=raw["colour"],
                   kind=raw.get("kind", "building"), cost=int(raw["cost"]),
                   prestige=int(raw["prestige"]), activation=activation,
                   ongoing=raw.get("ongoing"), on_play=tuple(raw.get("on_play", ())),
                   count=int(raw["count"]))
    if card.era not in ERAS or card.colour not in COLOURS or card.kind not in KINDS:
        raise ValueError(f"bad card data for {card.key!r}")
    if (card.kind == "pauper") != (card.colour == "grey"):
        raise ValueError(f"{card.key!r}: paupers, and only paupers, are grey")
    return card


def _borough(raw: dict[str, Any]) -> BoroughDef:
    ability = raw.get("ability") or {"kind": "none"}
    return BoroughDef(key=raw["key"], name=raw["name"], side=raw["side"], river=bool(raw["river"]),
                      starter=bool(raw.get("starter", False)), cost=int(raw["cost"]),
                      draw=int(raw["draw"]), prestige=int(raw["prestige"]),
                      relief=int(raw["relief"]), kind=ability["kind"],
                      effects=tuple(ability.get("effects", ())), ongoing=ability.get("ongoing"),
                      start_draw=ability.get("draw"))


def _load() -> tuple[tuple[CardDef, ...], dict[str, CardDef], dict[str, BoroughDef]]:
    raw_cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["cards"]
    designs = [_card(r) for r in raw_cards]
    by_key = {d.key: d for d in designs}
    if len(by_key) != len(designs):
        raise ValueError("duplicate card keys in cards.json")
    instances = tuple(d for d in designs for _ in range(d.count))
    raw_boroughs = json.loads((DATA / "boroughs.json").read_text(encoding="utf-8"))["boroughs"]
    boroughs = {b.key: b for b in (_borough(r) for r in raw_boroughs)}
    return instances, by_key, boroughs


CARDS, DESIGNS, BOROUGHS = _load()
"""CARDS[instance id] -> design; DESIGNS[key] -> design; BOROUGHS[key] -> borough."""

STARTERS: tuple[str, ...] = tuple(k for k, b in BOROUGHS.items() if b.starter)
CARD_IDS: tuple[int, ...] = tuple(range(len(CARDS)))

REFS = [{"id": cid, "key": card.key} for cid, card in enumerate(CARDS)]


def ref(cid: int) -> dict[str, Any]:
    """A card as views name it; built once per card and shared (views are only serialised)."""
    return REFS[cid]


def card_name(cid: int) -> str:
    return CARDS[cid].name
