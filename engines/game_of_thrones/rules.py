"""One function per rule: control, supply, movement, raids, support, strength, retreats, victory.
Each reads the state and changes nothing; the engine's flow calls them. Rules are cited from the
seed (the rulebook's first part) or the reference summary of the rest ("Rules §2.2")."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping

from engines.game_of_thrones.components import (
    BOARD,
    HOUSE_CARDS,
    LAND,
    LAND_UNITS,
    ORDERS,
    PORT,
    RULES,
    SEA,
    SHIP,
    SIEGE,
    stars_for,
)
from engines.game_of_thrones.state import GameState

# -- control --------------------------------------------------------------------------------


def controller(state: GameState, area: str) -> int | None:
    """Who controls an area (Rules §0): the house whose units are there; else, on land, the
    house whose Power token is there; else the house whose home area it is (its printed sigil).
    A port with no ships goes with its land area."""
    if area in state.owner:
        return state.owner[area]
    a = BOARD.areas[area]
    if a.kind == PORT:
        return controller(state, a.port_of or "")
    if a.kind == LAND:
        if area in state.tokens:
            return state.tokens[area]
        return state.homes.get(area)
    return None


CASTLE_AREAS = tuple(a.id for a in BOARD.areas.values() if a.castle)
LAND_AREAS = tuple(a.id for a in BOARD.areas.values() if a.kind == LAND)


def castles_held(state: GameState, seat: int) -> int:
    """Areas with a castle or stronghold that ``seat`` controls (the victory count)."""
    return sum(1 for a in CASTLE_AREAS if controller(state, a) == seat)


def castles_by_seat(state: GameState) -> Counter[int | None]:
    return Counter(controller(state, a) for a in CASTLE_AREAS)


def land_held(state: GameState, seat: int) -> int:
    return sum(1 for a in LAND_AREAS if controller(state, a) == seat)


def final_standing(state: GameState, seat: int) -> tuple[int, int, int, int]:
    """A house's place at the end of round 10, greater is better (Rules §6): castles and
    strongholds; ties by land areas, then the Supply track, then the Iron Throne track."""
    return (castles_held(state, seat), land_held(state, seat), state.supply[seat],
            -state.tracks["iron_throne"].index(seat))


def barrels(state: GameState, seat: int) -> int:
    """Supply icons in the land areas ``seat`` controls, at most 6 (seed, Supply)."""
    return min(6, sum(a.supply for a in BOARD.areas.values() if a.supply and controller(state, a.id) == seat))


def crowns_power(state: GameState, seat: int, area: str) -> int:
    """What a Consolidate Power order in ``area`` collects (Rules §2.3): on land 1 plus the crown
    icons; in a port 1 when its sea holds no enemy ship; at sea nothing."""
    a = BOARD.areas[area]
    if a.kind == LAND:
        return 1 + a.crowns
    if a.kind == PORT:
        sea = a.port_sea or ""
        return 0 if state.owner.get(sea, seat) != seat else 1
    return 0


def crown_income(state: GameState, seat: int, *, ports: bool = True) -> int:
    """Westeros card A Game of Thrones: a Power token per crown icon in the areas ``seat``
    controls, and (``ports``) one per port it controls holding one of its ships while the
    port's sea holds no enemy ship (Dark Wings, Dark Words counts crowns only)."""
    n = sum(a.crowns for a in BOARD.areas.values() if a.crowns and controller(state, a.id) == seat)
    if ports:
        for a in BOARD.areas.values():
            if a.kind == PORT and state.owner.get(a.id) == seat and state.owner.get(a.port_sea or "", seat) == seat:
                n += 1
    return n


# -- power tokens ---------------------------------------------------------------------------


def power_on_board(state: GameState, seat: int) -> int:
    return sum(1 for s in state.tokens.values() if s == seat)


def power_pool(state: GameState, seat: int) -> int:
    """Tokens of ``seat`` in the Power Pool: its 20 less those available and those on the board."""
    return RULES.power_max - state.power[seat] - power_on_board(state, seat)


def gain_power(state: GameState, seat: int, n: int) -> int:
    """Take up to ``n`` tokens from the pool (Rules §7.15: gains beyond what is left are lost)."""
    got = max(0, min(n, power_pool(state, seat)))
    state.power[seat] += got
    return got


# -- supply ---------------------------------------------------------------------------------


def army_sizes(state: GameState, seat: int, changes: Mapping[str, int] | None = None) -> dict[str, int]:
    """Units of ``seat`` per area, with ``changes`` (area -> size after a move) applied."""
    sizes = {a: len(u) for a, u in state.units.items() if state.owner.get(a) == seat}
    for area, n in (changes or {}).items():
        sizes[area] = n
    return sizes


def within_supply(sizes: Iterable[int], level: int) -> bool:
    """Seed, Supply: armies (two or more units in one area) must fit the limits of the house's
    Supply position, largest army against the largest limit. Single units are never limited."""
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    limits = RULES.supply_limits[max(0, min(6, level))]
    return len(armies) <= len(limits) and all(a <= b for a, b in zip(armies, limits, strict=False))


def supply_ok(state: GameState, seat: int, changes: Mapping[str, int] | None = None) -> bool:
    return within_supply(army_sizes(state, seat, changes).values(), state.supply[seat])


def units_in_pool(state: GameState, seat: int, kind: str) -> int:
    """Units of a kind ``seat`` may still put on the board (Rules §2.4: 10 footmen, 5 knights,
    6 ships, 2 siege engines)."""
    on_board = sum(1 for a, us in state.units.items() if state.owner.get(a) == seat for u in us if u.kind == kind)
    c = state.combat
    if c is not None and c.attacker == seat:  # the attacking army is off the board until it wins
        on_board += sum(1 for k in c.army if k == kind)
    return RULES.unit_limits[kind] - on_board


# -- orders ---------------------------------------------------------------------------------


def star_limit(state: GameState, seat: int) -> int:
    """Seed, The King's Court track: special orders allowed by the house's position."""
    return stars_for(state.seats)[state.tracks["kings_court"].index(seat)]


def order_areas(state: GameState, seat: int) -> list[str]:
    """Areas where ``seat`` must place an order: every area holding its units (Rules §1.1)."""
    return sorted([a for a, s in state.owner.items() if s == seat])


def tokens_free(placed: Mapping[str, str], token: str, except_area: str | None = None) -> int:
    used = sum(1 for a, t in placed.items() if t == token and a != except_area)
    return ORDERS[token].count - used


def specials_used(placed: Mapping[str, str], except_area: str | None = None) -> int:
    return sum(1 for a, t in placed.items() if ORDERS[t].special and a != except_area)


def may_place(state: GameState, seat: int, placed: Mapping[str, str], area: str, token: str) -> str | None:
    """None when ``token`` may go on ``area`` given the orders already ``placed``; else why not:
    ``restricted`` (Westeros III), ``used`` (no such token left), ``stars`` (King's Court)."""
    if token in state.restricted:
        return "restricted"
    if tokens_free(placed, token, area) <= 0:
        return "used"
    if ORDERS[token].special and specials_used(placed, area) >= star_limit(state, seat):
        return "stars"
    return None


def placeable(state: GameState, seat: int, placed: Mapping[str, str], area: str) -> list[str]:
    """Every token ``may_place`` allows on ``area`` (the same rule, counted once for speed)."""
    used = Counter(t for a, t in placed.items() if a != area)
    specials = sum(n for t, n in used.items() if ORDERS[t].special)
    stars = star_limit(state, seat)
    return [t for t, o in ORDERS.items()
            if t not in state.restricted and used[t] < o.count and (not o.special or specials < stars)]


# -- movement -------------------------------------------------------------------------------


def passable(state: GameState, area: str) -> bool:
    """Rules §7.14: blocked areas (3 players) are never entered, supported into or raided."""
    return area not in state.blocked


def is_attack(state: GameState, seat: int, area: str) -> bool:
    """Rules §2.2: entering an area with enemy units, a neutral force, or an enemy home area that
    still has its garrison is an attack; an area with only an enemy Power token is not."""
    if state.owner.get(area, seat) != seat:
        return True
    if area in state.neutral:
        return True
    home = state.homes.get(area)
    return home is not None and home != seat and area in state.garrisons and area not in state.owner


def transport_reach(state: GameState, seat: int, origin: str) -> set[str]:
    """Land areas a land unit in ``origin`` reaches by ship transport: through a chain of sea
    areas each holding a ship of ``seat`` (ships in ports do not carry) (Rules §2.2)."""
    seen: set[str] = set()
    todo = deque(b for b in BOARD.adjacent[origin] if BOARD.areas[b].kind == SEA and state.owner.get(b) == seat)
    reach: set[str] = set()
    seen.update(todo)
    while todo:
        sea = todo.popleft()
        for b in BOARD.adjacent[sea]:
            kind = BOARD.areas[b].kind
            if kind == LAND and b != origin:
                reach.add(b)
            elif kind == SEA and b not in seen and state.owner.get(b) == seat:
                seen.add(b)
                todo.append(b)
    return reach


def destinations(state: GameState, seat: int, origin: str, kind: str) -> set[str]:
    """Areas one unit of ``kind`` in ``origin`` may march to (Rules §2.2): land units to adjacent
    land areas or by ship transport; ships to adjacent seas and to ports whose land ``seat``
    controls (at most 3 ships in a port); never into a blocked area."""
    if kind == SHIP:
        out = set()
        for b in BOARD.adjacent[origin]:
            a = BOARD.areas[b]
            if a.kind == SEA or (a.kind == PORT and controller(state, a.port_of or "") == seat
                                 and state.owner.get(b, seat) == seat):
                out.add(b)
        return {b for b in out if passable(state, b)}
    near = {b for b in BOARD.adjacent[origin] if BOARD.areas[b].kind == LAND}
    return {b for b in near | transport_reach(state, seat, origin) if passable(state, b)}


# -- raids ----------------------------------------------------------------------------------


def raid_targets(state: GameState, seat: int, area: str) -> list[str]:
    """Areas whose order the raid in ``area`` may remove (Rules §2.1): an adjacent enemy Support,
    Raid or Consolidate Power order (a special raid also a Defense order); land units raid only
    land; ships raid land or sea; ships in a port raid only its sea; a port is raided only from
    its sea."""
    token = ORDERS[state.orders[area].token]
    kinds = {"support", "raid", "consolidate"} | ({"defense"} if token.special else set())
    here = BOARD.areas[area]
    out = []
    for b in sorted(BOARD.adjacent[area]):
        target = state.orders.get(b)
        if target is None or target.seat == seat or ORDERS[target.token].kind not in kinds:
            continue
        there = BOARD.areas[b]
        if here.kind == LAND and there.kind != LAND:
            continue
        if here.kind == PORT and b != here.port_sea:
            continue
        if there.kind == PORT and area != there.port_sea:
            continue
        out.append(b)
    return out


# -- combat ---------------------------------------------------------------------------------


def may_support(state: GameState, support_area: str, combat_area: str) -> bool:
    """Rules §3.1: a Support order in an adjacent area may back a combat; land units never
    support a combat at sea; ships in a port support only in its sea."""
    if combat_area not in BOARD.adjacent[support_area] or not passable(state, support_area):
        return False
    here, there = BOARD.areas[support_area], BOARD.areas[combat_area]
    if here.kind == LAND and there.kind != LAND:
        return False
    return not (here.kind == PORT and combat_area != here.port_sea)


def supports_for(state: GameState, combat_area: str) -> list[str]:
    """Areas whose Support order may back the combat in ``combat_area``."""
    return sorted(a for a, o in state.orders.items()
                  if ORDERS[o.token].kind == "support" and may_support(state, a, combat_area))


def unit_strength(kind: str, *, routed: bool = False, attacking_castle: bool = False) -> int:
    """Rules §3.2: footman 1, knight 2, ship 1; a siege engine 4 attacking (or supporting an
    attack on) a castle or stronghold, else 0; a routed unit 0."""
    if routed:
        return 0
    if kind == SIEGE:
        return RULES.siege_vs_castle if attacking_castle else 0
    return RULES.strength[kind]


def card_strength(card: str) -> int:
    return HOUSE_CARDS[card].strength


def retreat_areas(state: GameState, seat: int, area: str, origin: str, kinds: list[str]) -> list[str]:
    """Rules §3.7: where a losing defender may retreat: adjacent (or by its own ship transport for
    land units), empty or its own (no enemy units, no enemy Power token, no neutral force), not
    the area the attacker came from; land units only to land, ships only to seas or to a port
    whose land it controls; not a blocked area."""
    ships = bool(kinds) and kinds[0] == SHIP
    if ships:
        near = {b for b in BOARD.adjacent[area]
                if BOARD.areas[b].kind == SEA
                or (BOARD.areas[b].kind == PORT and controller(state, BOARD.areas[b].port_of or "") == seat)}
    else:
        near = {b for b in BOARD.adjacent[area] if BOARD.areas[b].kind == LAND} | transport_reach(state, seat, area)
    out = []
    for b in sorted(near):
        if b in (origin, area) or not passable(state, b) or b in state.neutral:
            continue
        holder = controller(state, b)
        if holder is not None and holder != seat:
            continue
        if BOARD.areas[b].kind == PORT and len(state.units.get(b, [])) + len(kinds) > RULES.port_capacity:
            continue
        out.append(b)
    return out


def kinds_count(kinds: Iterable[str]) -> Counter[str]:
    return Counter(kinds)


LAND_KINDS = frozenset(LAND_UNITS)
