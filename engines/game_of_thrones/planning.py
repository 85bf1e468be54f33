"""Planning: the phase begun, orders placed hidden and at once (one by one, changed until the
house is ready), their reveal's Messenger Raven (swap an order, or look at the top wildling card
and keep or bury it), and the kinds ``determinize`` draws for other houses' face-down orders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from engines.base import Move
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import ORDERS, WILDLING_CARDS
from engines.game_of_thrones.shared import area_name
from engines.game_of_thrones.state import PLANNING, GameState, PlacedOrder
from engines.game_of_thrones.table import Doer, Mover, make
from engines.kit import Commitments, Decision, Log, Rng


def begin_planning(state: GameState) -> None:
    """Planning: every house holding units places its orders, hidden and at once."""
    state.phase = PLANNING
    state.step = ""
    state.orders = {}
    asked = [s for s in range(state.seats) if R.order_areas(state, s)]
    state.planning = Commitments.ask(asked)
    for s in asked:
        state.planning.choices[s] = {}


def placed_orders(state: GameState, seat: int) -> dict[str, str]:
    return dict(state.planning.choices.get(seat) or {})


def moves_orders(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Planning: place (or replace) an order on an area holding your units, remove one, or
    declare yourself ready once every area has an order (or no token fits the rest)."""
    return list(_listing(state, seat).moves)


def order_choices(state: GameState, seat: int,
                  label: Callable[[Move], str]) -> list[dict[str, Any]]:
    """The planning prompt's labelled choices: ``moves_orders`` with each move's label."""
    listing = _listing(state, seat)
    if listing.choices is None:
        listing.choices = tuple(_choice(m, label) for m in listing.moves)
    return list(listing.choices)


class _Listing:
    __slots__ = ("choices", "moves")

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves
        self.choices: tuple[dict[str, Any], ...] | None = None


# The hottest listing of a game: every planning seat's is listed, and its prompt labelled, after
# every placement at the table, though only the placing seat's changed. A listing is a pure
# function of what it is keyed by below (the areas to order, the orders placed, the star limit,
# the barred tokens), so listings are kept by that key for every table at once, and their moves
# and choices are the same objects wherever they recur (a move stands for an area and a token:
# a few hundred in all), so a kept listing costs two tuples of references.
_LISTINGS: dict[str, _Listing] = {}
_LISTINGS_KEPT = 8192
_MOVES: dict[tuple[str, ...], Move] = {}
_CHOICES: dict[int, dict[str, Any]] = {}  # id of a move of _MOVES -> its choice


def _listing(state: GameState, seat: int) -> _Listing:
    placed: Mapping[str, str] = state.planning.choices.get(seat) or {}
    areas = R.order_areas(state, seat)
    stars = R.star_limit(state, seat)
    # text, not tuples: a key kept is then no object for the collector to count and visit (tuples
    # for every listing kept woke it every ~20 s under load, for a 30 ms pass)
    key = f"{stars}|{','.join(areas)}|{','.join([f'{a}:{t}' for a, t in placed.items()])}|{','.join(state.restricted)}"
    found = _LISTINGS.get(key)
    if found is None:
        if len(_LISTINGS) >= _LISTINGS_KEPT:  # the older half goes: most are listings left behind
            for old in list(islice(_LISTINGS, _LISTINGS_KEPT // 2)):
                del _LISTINGS[old]
        found = _LISTINGS[key] = _Listing(tuple(_list_orders(areas, placed, stars, state.restricted)))
    return found


def _move(kind: str, *values: str) -> Move:
    """The one object standing for this planning move (``order``: area and token; ``unorder``:
    area; ``ready``), in its canonical form."""
    key = (kind, *values)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = make(kind, **dict(zip(("area", "order"), values, strict=False)))
    return move


def _choice(move: Move, label: Callable[[Move], str]) -> dict[str, Any]:
    choice = _CHOICES.get(id(move))
    if choice is None:
        choice = _CHOICES[id(move)] = {"move": move, "label": label(move)}
    return choice


def _list_orders(areas: list[str], placed: Mapping[str, str], stars: int,
                 barred: list[str]) -> list[Move]:
    """The tokens left are found once for the seat (``R.placeable``'s rule: not barred, not all
    used, a special one only within the stars), then each area takes them without its own
    token; an area without an order that takes none is what ``may_declare_ready`` allows."""
    out: list[Move] = []
    used = Counter(placed.values())
    specials = sum(n for t, n in used.items() if ORDERS[t].special)
    left = [(token, o.special) for token, o in ORDERS.items() if token not in barred and used[token] < o.count]
    ready = True
    for area in areas:
        mine = placed.get(area)
        if mine is None:
            full = specials >= stars
            before = len(out)
            out.extend(_move("order", area, token) for token, special in left if not (special and full))
            ready = ready and len(out) == before  # no token fits this area
            continue
        # ``mine`` is counted in ``used``: every other token's uses are elsewhere
        full = specials - ORDERS[mine].special >= stars
        out.extend(_move("order", area, token)
                   for token, special in left if token != mine and not (special and full))
        out.append(_move("unorder", area))
    if ready:
        out.append(_move("ready"))
    return out


def may_declare_ready(state: GameState, seat: int, placed: Mapping[str, str]) -> bool:
    """Rules §1.1: exactly one order on every area holding the house's units."""
    for area in R.order_areas(state, seat):
        if area not in placed and R.placeable(state, seat, placed, area):
            return False
    return True


def do_orders(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    placed = placed_orders(state, seat)
    if move["type"] == "order":
        placed[move["area"]] = move["order"]
        state.planning.choose(seat, placed)
    elif move["type"] == "unorder":
        del placed[move["area"]]
        state.planning.choose(seat, placed)
    else:
        state.planning.declare_ready(seat)
        log.say("{0} is ready", seat)


def moves_raven(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Seed, The Messenger Raven: swap one of your placed orders for an unused one (star
    limit and restrictions still apply), or look at the top wildling card; or neither."""
    placed = {a: o.token for a, o in state.orders.items() if o.seat == seat}
    out = []
    for area in sorted(placed):
        for token in ORDERS:
            if token != placed[area] and R.may_place(state, seat, placed, area, token) is None:
                out.append(make("raven_swap", area=area, order=token))
    if state.wildling_deck:
        out.append(make("raven_look"))
    out.append(make("raven_pass"))
    return out


def do_raven(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    state.raven_used = True
    if move["type"] == "raven_swap":
        old = state.orders[move["area"]].token
        state.orders[move["area"]] = PlacedOrder(seat, move["order"])
        log.say("{0} uses the Messenger Raven: {old} in {area} becomes {new}", seat, old=ORDERS[old].name,
                area=area_name(move["area"]), new=ORDERS[move["order"]].name)
    elif move["type"] == "raven_look":
        state.raven_saw = seat
        log.say("{0} uses the Messenger Raven to look at the top wildling card", seat,
                privately={seat: "You look at the top wildling card: {card}"},
                card=WILDLING_CARDS[state.wildling_deck[0]]["name"])
        state.decisions.push(Decision("wildling", [seat]))
    else:
        log.say("{0} does not use the Messenger Raven", seat)


def moves_wildling(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [make("wildling", bury=False), make("wildling", bury=True)]


def do_wildling(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    if move["bury"]:
        state.wildling_deck.append(state.wildling_deck.pop(0))
        state.raven_saw = None
        state.wildling_known = 0  # only the raven holder knows the card now at the bottom
        log.say("{0} puts the top wildling card at the bottom of the deck", seat)
    else:
        log.say("{0} leaves the top wildling card where it is", seat)


def random_kinds(state: GameState, seat: int, placed: Mapping[str, str],
                 rng: Rng) -> dict[str, str]:
    """Other kinds of order on the same areas: where a house's face-down orders lie is public
    (the tokens sit on the board), only their kinds are hidden. A few random tries at a legal set;
    the placed one itself if none comes (it is legal, and the areas are all anyone learns)."""
    areas = sorted(placed)
    for _ in range(4):
        rng.shuffle(areas)
        drawn: dict[str, str] = {}
        for area in areas:
            options = [t for t in ORDERS if R.may_place(state, seat, drawn, area, t) is None]
            if not options:
                break
            drawn[area] = rng.choice(options)
        else:
            return drawn
    return dict(placed)


MOVES: dict[str, Mover] = {"raven": moves_raven, "wildling": moves_wildling}


DO: dict[str, Doer] = {"raven": do_raven, "wildling": do_wildling}
