"""What the engine's modules share: the rules named in refusals, and the words for houses, areas
and units in log lines (the types of the decision tables are in ``table.py``)."""

from __future__ import annotations

from collections import Counter

from engines.game_of_thrones.components import BOARD, HOUSES
from engines.kit import counted

RULE_TURN = "Turn order: only the awaited house decides now"
RULE_PLANNING = "Planning phase: assign orders"
RULE_STARS = "The King's Court track: special orders"
RULE_RESTRICTED = "Westeros phase III: restricted orders"
RULE_RAVEN = "The Messenger Raven token"
RULE_RAID = "Action phase: resolve Raid orders"
RULE_MARCH = "Action phase: resolve March orders"
RULE_SUPPLY = "Supply: armies may never exceed the supply limit"
RULE_ONE_ATTACK = "March orders: only one attack per March order"
RULE_POWER_TOKEN = "March orders: establishing control with a Power token"
RULE_SUPPORT = "Combat: call for support"
RULE_CARDS = "Combat: choose and reveal house cards"
RULE_BLADE = "The Valyrian Steel Blade token"
RULE_CASUALTIES = "Combat: casualties"
RULE_RETREAT = "Combat: retreats and routed units"
RULE_CONSOLIDATE = "Action phase: resolve Consolidate Power orders"
RULE_MUSTER = "Special Consolidate Power: mustering"
RULE_ABILITY = "House card abilities"
RULE_PORT = "Ports: taking control of an enemy port"


def house_name(house: str) -> str:
    return HOUSES[house].name


def area_name(area: str) -> str:
    return BOARD.areas[area].name


UNIT_WORDS = {"footman": ("footman", "footmen"), "knight": ("knight", "knights"), "ship": ("ship", "ships"),
              "siege-engine": ("siege engine", "siege engines")}
"""How a log line names a unit kind, one and many (a kind's id is no word: "siege-engine")."""


def unit_name(kind: str) -> str:
    """A unit kind as a log line names one: "siege engine"."""
    return UNIT_WORDS[kind][0]


def kinds_text(kinds: list[str]) -> str:
    """Units by kind for a log line: "1 footman, 2 knights"."""
    c = Counter(kinds)
    return ", ".join(counted(n, *UNIT_WORDS[k]) for k, n in sorted(c.items())) or "no units"
