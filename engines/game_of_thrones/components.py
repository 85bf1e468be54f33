"""The components of A Game of Thrones (2nd edition), loaded once from ``data/``: the map (areas,
ports, adjacency), the houses and their setups by player count, the house cards, the order
tokens, the Westeros and wildling decks, and the numbers of the tracks.

>>> BOARD.areas["winterfell"].fortification, BOARD.areas["winterfell"].home
('stronghold', 'stark')
>>> sorted(BOARD.adjacent["dragonstone"])
['port-of-dragonstone', 'shipbreaker-bay']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data")

LAND, SEA, PORT = "land", "sea", "port"
FOOTMAN, KNIGHT, SHIP, SIEGE = "footman", "knight", "ship", "siege-engine"
UNIT_KINDS = (FOOTMAN, KNIGHT, SIEGE, SHIP)
LAND_UNITS = (FOOTMAN, KNIGHT, SIEGE)
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
TRACK_NAMES = {"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court"}
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")


def _load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as f:
        return json.load(f)


@dataclass(frozen=True, slots=True)
class Area:
    id: str
    name: str
    kind: str  # land, sea or port
    fortification: str  # none, castle or stronghold
    supply: int  # barrel icons
    crowns: int  # crown (power) icons
    home: str | None  # the house whose home area this is
    port_of: str | None  # a port: its land area
    port_sea: str | None  # a port: its sea area
    x: float
    y: float

    @property
    def castle(self) -> bool:
        """True for an area with a castle or a stronghold (what victory counts)."""
        return self.fortification != "none"

    @property
    def mustering_points(self) -> int:
        return {"none": 0, "castle": 1, "stronghold": 2}[self.fortification]


@dataclass(frozen=True, slots=True)
class Board:
    areas: dict[str, Area]
    adjacent: dict[str, frozenset[str]]
    port_of_land: dict[str, str]  # land area -> its port
    pairs: tuple[tuple[str, str], ...]
    neutral_every_count: dict[str, int]

    def is_land(self, area: str) -> bool:
        return self.areas[area].kind == LAND

    def is_sea(self, area: str) -> bool:
        return self.areas[area].kind == SEA

    def is_port(self, area: str) -> bool:
        return self.areas[area].kind == PORT


@dataclass(frozen=True, slots=True)
class Setup:
    """What one player count changes: the houses in play, blocked areas, neutral forces, the
    starting order of the influence tracks and the King's Court stars."""

    players: int
    houses: tuple[str, ...]
    blocked: frozenset[str]
    neutral_forces: dict[str, int]
    units_not_placed_in: frozenset[str]
    tracks: dict[str, tuple[str, ...]]
    stars: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class House:
    id: str
    name: str
    home: str
    units: dict[str, dict[str, int]]  # area -> kind -> count
    positions: dict[str, int]  # iron_throne, fiefdoms, kings_court, supply (6-player positions)
    house_cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HouseCard:
    id: str
    house: str
    name: str
    strength: int
    swords: int
    fortifications: int
    timing: str
    text: str


@dataclass(frozen=True, slots=True)
class OrderToken:
    id: str
    kind: str  # march, defense, support, raid, consolidate
    modifier: int
    special: bool
    count: int  # tokens of this id per house

    @property
    def name(self) -> str:
        return ORDER_NAMES[self.id]


ORDER_NAMES = {
    "march-minus-one": "March −1", "march": "March +0", "march-plus-one": "March +1 ★",
    "defense-plus-one": "Defense +1", "defense-plus-two": "Defense +2 ★",
    "support": "Support +0", "support-plus-one": "Support +1 ★",
    "raid": "Raid", "special-raid": "Raid ★",
    "consolidate-power": "Consolidate Power", "special-consolidate-power": "Consolidate Power ★",
}


@dataclass(frozen=True, slots=True)
class Rules:
    rounds: int
    castles_to_win: int
    supply_limits: tuple[tuple[int, ...], ...]
    stars_5_6: tuple[int, ...]
    stars_3_4: tuple[int, ...]
    unit_limits: dict[str, int]
    strength: dict[str, int]
    siege_vs_castle: int
    muster_costs: dict[str, int]
    upgrade_cost: int
    port_capacity: int
    wildling_start: int
    garrison: int
    power_start: int
    power_max: int


def _board() -> Board:
    raw = _load("board.json")
    areas = {a["id"]: Area(a["id"], a["name"], a["kind"], a["fortification"], a["supply"], a["crowns"],
                           a["home"], a.get("port_of"), a.get("port_sea"), a["x"], a["y"])
             for a in raw["areas"]}
    adjacent: dict[str, set[str]] = {a: set() for a in areas}
    for a, b in raw["adjacency"]:
        adjacent[a].add(b)
        adjacent[b].add(a)
    ports = {a.port_of: a.id for a in areas.values() if a.port_of}
    return Board(areas, {a: frozenset(s) for a, s in adjacent.items()}, ports,
                 tuple((a, b) for a, b in raw["adjacency"]), dict(raw["neutral_forces_every_count"]))


def _houses() -> tuple[dict[str, House], dict[int, Setup], dict[str, Any]]:
    raw = _load("houses.json")
    houses = {h["id"]: House(h["id"], h["name"], h["home"], h["units"],
                             {k: h[k] for k in (*TRACKS, "supply")}, tuple(h["house_cards"]))
              for h in raw["houses"]}
    setups = {int(n): Setup(int(n), tuple(p["houses"]), frozenset(p["blocked"]), dict(p["neutral_forces"]),
                            frozenset(p["units_not_placed_in"]), {t: tuple(p[t]) for t in TRACKS},
                            tuple(p["stars"]))
              for n, p in raw["player_counts"].items()}
    return houses, setups, raw


BOARD = _board()
HOUSES, SETUPS, _HOUSES_RAW = _houses()
HOUSE_ORDER = tuple(HOUSES)
"""Houses in the data's order; seat N of an N-player game plays ``SETUPS[N].houses`` in this order."""

HOUSE_CARDS = {c["id"]: HouseCard(**c) for c in _load("house_cards.json")["house_cards"]}

_RULES = _load("rules.json")
ORDERS = {o["id"]: OrderToken(o["id"], o["kind"], o["modifier"], o["special"], o["count"])
          for o in _RULES["orders"]}
RULES = Rules(
    rounds=_RULES["rounds"], castles_to_win=_RULES["castles_to_win"],
    supply_limits=tuple(tuple(x) for x in _RULES["supply_limits"]),
    stars_5_6=tuple(_RULES["stars"]["5_6"]), stars_3_4=tuple(_RULES["stars"]["3_4"]),
    unit_limits=dict(_RULES["unit_limits"]), strength=dict(_RULES["strength"]),
    siege_vs_castle=_RULES["siege_engine_vs_castle"], muster_costs=dict(_RULES["mustering"]["costs"]),
    upgrade_cost=_RULES["mustering"]["upgrade"], port_capacity=_RULES["port_capacity"],
    wildling_start=_RULES["wildling_track"]["start"], garrison=_HOUSES_RAW["garrison"],
    power_start=_HOUSES_RAW["power_tokens"]["start"], power_max=_HOUSES_RAW["power_tokens"]["max"],
)

_CARDS = _load("westeros_cards.json")
WESTEROS_DECKS: dict[str, tuple[str, ...]] = {
    deck: tuple(c["id"] for c in cards for _ in range(c["count"])) for deck, cards in _CARDS["decks"].items()}
WESTEROS_CARDS = {(deck, c["id"]): c for deck, cards in _CARDS["decks"].items() for c in cards}
WILDLING_CARDS = {c["id"]: c for c in _CARDS["wildling_cards"]}


def stars_for(players: int) -> tuple[int, ...]:
    """Special orders by King's Court position: the 3–4 player overlay, or the printed track."""
    return RULES.stars_3_4 if players <= 4 else RULES.stars_5_6


def static_data() -> dict[str, Any]:
    """The fixed public data a page needs (sent once, merged into every view). Its keys are
    not the live view's: "area_info" and "house_info" beside the view's own "areas" and
    "houses", which would shadow them in the merge."""
    return {
        "area_info": [{"id": a.id, "name": a.name, "kind": a.kind, "fortification": a.fortification,
                   "supply": a.supply, "crowns": a.crowns, "home": a.home, "port_of": a.port_of,
                   "port_sea": a.port_sea, "x": a.x, "y": a.y} for a in BOARD.areas.values()],
        "adjacency": [list(p) for p in BOARD.pairs],
        "house_info": {h.id: {"name": h.name, "home": h.home, "house_cards": list(h.house_cards)}
                   for h in HOUSES.values()},
        "house_cards": {c.id: {"house": c.house, "name": c.name, "strength": c.strength, "swords": c.swords,
                               "fortifications": c.fortifications, "text": c.text}
                        for c in HOUSE_CARDS.values()},
        "orders": {o.id: {"kind": o.kind, "modifier": o.modifier, "special": o.special, "count": o.count,
                          "name": o.name} for o in ORDERS.values()},
        "supply_limits": [list(x) for x in RULES.supply_limits],
        "rounds": RULES.rounds,
    }
