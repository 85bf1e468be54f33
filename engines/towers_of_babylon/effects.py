"""The effect vocabulary of Towers of Babylon: every effect a card can have, by name.

A card's data names its effects (``{"do": "damage", "amount": 3, "to": "target"}``); this module
declares each name with its parameters and the words it is printed with, and ``rules.HANDLERS``
gives each name its behaviour (a test checks both cover exactly the names the data uses).

Who an effect touches (``to``) is a *selector*: ``target`` is the one the player chose when the
card was played (its kind is the card's ``target``: an enemy minion, a friendly minion, …);
the others need no choice (``self``, ``attacker``, ``all_enemy_raiders``, ``random_enemy_minion``…).

>>> from engines.towers_of_babylon.components import CARDS
>>> card_text(CARDS["fire_fireball"])
'Deal 4 damage to target minion.'
>>> card_text(CARDS["light_sun_blessed_paladin"])
'Regenerating.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.towers_of_babylon.components import (
    ANY_TIME,
    ENEMY_ATTACKING,
    FRIENDLY_ENTERS,
    INVOCATION,
    KEYWORDS,
    WITCHERY,
)

if TYPE_CHECKING:
    from engines.towers_of_babylon.components import Card


@dataclass(frozen=True, slots=True)
class EffectKind:
    """One word of the vocabulary: its name, its parameters, how it is printed."""

    name: str
    params: tuple[str, ...]
    text: str


VOCABULARY: dict[str, EffectKind] = {e.name: e for e in (
    EffectKind("damage", ("amount", "to"), "deal {amount} damage to {to}"),
    EffectKind("heal", ("to",), "remove all damage from {to}"),
    EffectKind("destroy", ("to",), "destroy {to}"),
    EffectKind("exhaust", ("to",), "exhaust {to}"),
    EffectKind("ready", ("to",), "ready {to}"),
    EffectKind("sentence", ("to",), "Sentence {to}"),
    EffectKind("buff", ("might", "health", "to"), "give {to} {buff}"),
    EffectKind("surge", ("amount", "to"), "{to} gets {signed} might this turn"),
    EffectKind("bounce", ("to",), "return {to} to its owner's hand"),
    EffectKind("build", ("amount",), "your Tower gains {levels}"),
    EffectKind("demolish", ("amount",), "the enemy Tower loses {levels}"),
    EffectKind("draw", ("amount",), "draw {cards}"),
    EffectKind("transform", ("amount",), "gain {amount} transformed power"),
    EffectKind("offering", (), "you may make an Offering"),
    EffectKind("discard", ("amount",), "your opponent discards {cards} at random"),
    EffectKind("halt", (), "the attack ends without a clash"),
)}
"""Every effect name a card may use."""

TARGET_KINDS: dict[str, str] = {
    "enemy_minion": "target enemy minion",
    "friendly_minion": "target friendly minion",
    "any_minion": "target minion",
    "enemy_raider": "target enemy Raider",
    "enemy_defender": "target enemy Defender",
    "enemy_builder": "target enemy Builder",
}
"""What a card may ask its player to choose when it is played (the card's ``target``)."""

SELECTORS: dict[str, str] = {
    "target": "",  # printed as the card's target kind
    "self": "this minion",
    "attacker": "the attacking minion",
    "entering": "that minion",
    "all_enemy_minions": "every enemy minion",
    "all_enemy_raiders": "every enemy Raider",
    "all_enemy_defenders": "every enemy Defender",
    "all_enemy_builders": "every enemy Builder",
    "all_friendly_minions": "every friendly minion",
    "random_enemy_minion": "a random enemy minion",
}
"""Who an effect touches (its ``to``)."""

WINDOW_TEXT: dict[str, str] = {
    ANY_TIME: "Witchery — at any time",
    FRIENDLY_ENTERS: "Witchery — when a friendly minion enters the game",
    ENEMY_ATTACKING: "Witchery — when an enemy minion is attacking",
}


def _plural(n: int, word: str) -> str:
    return f"{'a' if n == 1 else n} {word}{'' if n == 1 else 's'}"


def effect_text(effect: Mapping[str, Any], target: str | None) -> str:
    """The words of one effect."""
    kind = VOCABULARY[effect["do"]]
    to = effect.get("to", "")
    who = TARGET_KINDS.get(target or "", "target") if to == "target" else SELECTORS.get(to, "")
    values: dict[str, Any] = dict(effect)
    values["to"] = who
    amount = int(effect.get("amount", 0))
    values["cards"] = _plural(amount, "card")
    values["levels"] = _plural(amount, "level")
    values["signed"] = f"{amount:+d}"
    parts = [f"+{effect[k]} {k}" for k in ("might", "health") if effect.get(k)]
    values["buff"] = " and ".join(parts)
    return kind.text.format(**values)


def _sentence(effects: Sequence[Mapping[str, Any]], target: str | None) -> str:
    words = [effect_text(e, target) for e in effects]
    text = ", then ".join(words)
    return text[:1].upper() + text[1:] + "."


def card_text(card: Card) -> str:
    """The printed text of a card, made from its keywords and effects (so it always says what the
    card does)."""
    lines: list[str] = []
    if card.keywords:
        lines.append(", ".join(KEYWORDS[k]["name"] for k in card.keywords) + ".")
    for trigger in ("swear_allegiance", "shape", "dying_words"):
        effects = getattr(card, trigger)
        if effects:
            lines.append(f"{KEYWORDS[trigger]['name']}: {_sentence(effects, card.target)}")
    if card.effects:
        body = _sentence(card.effects, card.target)
        if card.kind == INVOCATION:
            body = "At the start of your next turn: " + body[:1].lower() + body[1:]
        if card.kind == WITCHERY and card.window:
            body = f"{WINDOW_TEXT[card.window]}: {body}"
        lines.append(body)
    return " ".join(lines)
