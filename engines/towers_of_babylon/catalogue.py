"""The fixed data a Towers of Babylon page refers to, sent once per connection: factions,
rarities, keywords, zones, the rules' numbers, every card with its printed text, the decks. Apart
from components.py, which the effect vocabulary (effects.py) reads, because a card's text is
printed from its effects."""

from __future__ import annotations

from typing import Any

from engines.towers_of_babylon.components import (
    _KEYWORDS,
    CARD_LIST,
    DECKS,
    FACTIONS,
    KEYWORDS,
    RARITIES,
    RULES,
)
from engines.towers_of_babylon.effects import card_text


def static_json() -> dict[str, Any]:
    """The catalogue and fixed data every view may refer to (sent once, cached)."""
    return {
        "factions": list(FACTIONS.values()),
        "rarities": list(RARITIES.values()),
        "keywords": list(KEYWORDS.values()),
        "zones": _KEYWORDS["zones"],
        "states": _KEYWORDS["states"],
        "rules": RULES,
        "cards": {c.id: {
            "id": c.id, "name": c.name, "faction": c.faction, "kind": c.kind, "cost": c.cost,
            "specific": c.specific, "rarity": c.rarity, "type": c.type,
            **({"construction": c.construction, "might": c.might, "health": c.health} if c.is_minion else {}),
            **({"window": c.window} if c.window else {}),
            "keywords": sorted(c.flags), "text": card_text(c),
        } for c in CARD_LIST},
        "decks": [{"id": d["id"], "name": d["name"], "description": d["description"],
                   "factions": d["factions"], "cards": d["cards"]} for d in DECKS.values()],
    }
