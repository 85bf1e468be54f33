"""Why a well-shaped move that is not listed is refused: the most specific rule it breaks; and,
for a move the decision does not take at all, the rule of that decision (``RULES``, which the
turn's steps name, and ``out_of_step``)."""

from __future__ import annotations

from engines.base import IllegalMove, Move
from engines.game_of_thrones import marches as M
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.components import BOARD, ORDERS
from engines.game_of_thrones.shared import (
    RULE_ABILITY,
    RULE_BLADE,
    RULE_CARDS,
    RULE_CASUALTIES,
    RULE_CONSOLIDATE,
    RULE_MARCH,
    RULE_MUSTER,
    RULE_ONE_ATTACK,
    RULE_PLANNING,
    RULE_PORT,
    RULE_POWER_TOKEN,
    RULE_RAID,
    RULE_RAVEN,
    RULE_RESTRICTED,
    RULE_RETREAT,
    RULE_STARS,
    RULE_SUPPLY,
    RULE_SUPPORT,
    RULE_TURN,
    area_name,
    house_name,
)
from engines.game_of_thrones.state import GameState

RULES: dict[str, str] = {
    "orders": RULE_PLANNING, "raven": RULE_RAVEN, "wildling": RULE_RAVEN, "raid": RULE_RAID,
    "march": RULE_MARCH, "march_moves": RULE_MARCH, "support": RULE_SUPPORT, "cards": RULE_CARDS,
    "blade": RULE_BLADE, "casualties": RULE_CASUALTIES, "retreat": RULE_RETREAT,
    "consolidate": RULE_CONSOLIDATE, "muster": RULE_MUSTER, "ability": RULE_ABILITY, "port": RULE_PORT,
    "supply_loss": RULE_SUPPLY, **W.RULES_BY_KIND, **WL.RULES_BY_KIND}
"""The rule each decision kind (a step of the turn) is played under."""


def out_of_step(state: GameState, seat: int, kind: str) -> IllegalMove:
    """A move the decision ``kind`` does not take, or one it takes but does not list where no more
    specific rule applies: what the decision asks, under its rule."""
    if kind == "orders":
        return IllegalMove("It is the Planning phase: place orders, then declare yourself ready.",
                           rule=RULE_PLANNING)
    if kind == "march_moves":
        return IllegalMove("Move units, undo, or end the march.", rule=RULE_MARCH)
    what = {"cards": "choose a house card from your hand"}.get(kind, "choose one of the listed moves")
    return IllegalMove(f"{house_name(state.houses[seat])} cannot do that now: {what}.",
                       rule=RULES.get(kind, RULE_TURN))


def explain(state: GameState, seat: int, move: Move) -> IllegalMove:
    """The most specific rule a well-shaped but unlisted move breaks."""
    top = state.decisions.top
    kind = top.kind if top is not None else "orders"
    t = move["type"]
    house = house_name(state.houses[seat])
    if kind == "orders":
        if t in ("order", "unorder"):
            area, token = move["area"], move.get("order")
            if area not in BOARD.areas or area not in R.order_areas(state, seat):
                return IllegalMove(f"{house} can place orders only on areas holding its units.", rule=RULE_PLANNING)
            if t == "unorder":
                return IllegalMove(f"{house} has no order in {area_name(area)} to remove.", rule=RULE_PLANNING)
            if token not in ORDERS:
                return IllegalMove(f"There is no order token {token!r}.", rule=RULE_PLANNING)
            why = R.may_place(state, seat, P.placed_orders(state, seat), area, str(token))
            if why == "restricted":
                return IllegalMove(f"{ORDERS[token].name} orders may not be placed this round.",
                                   rule=RULE_RESTRICTED)
            if why == "stars":
                return IllegalMove(f"{house} may place only {R.star_limit(state, seat)} special orders, "
                                   "by its King's Court position.", rule=RULE_STARS)
            if why == "used":
                return IllegalMove(f"{house} has no {ORDERS[token].name} token left.", rule=RULE_PLANNING)
            return IllegalMove(f"That order is already in {area_name(area)}.", rule=RULE_PLANNING)
        if t == "ready":
            return IllegalMove(f"{house} must first place an order on every area holding its units.",
                               rule=RULE_PLANNING)
        return out_of_step(state, seat, kind)
    if kind == "march_moves" and top is not None:
        if t == "end_march":
            changes, _ = M.march_plan(state, seat, top.data["from"], top.data["staged"])
            if not R.supply_ok(state, seat, changes):
                return IllegalMove(f"This march would leave {house} with armies beyond its supply limit.",
                                   rule=RULE_SUPPLY)
            return IllegalMove(f"{house} may not leave a Power token in {area_name(top.data['from'])}.",
                               rule=RULE_POWER_TOKEN)
        if t == "move":
            to = move["to"]
            _, attack = M.march_plan(state, seat, top.data["from"], top.data["staged"])
            if to in BOARD.areas and attack is not None and to != attack and R.is_attack(state, seat, to):
                return IllegalMove(f"This march already attacks {area_name(attack)}.", rule=RULE_ONE_ATTACK)
            if to in state.blocked:
                return IllegalMove(f"{area_name(to)} is blocked in this game.", rule=RULE_MARCH)
            return IllegalMove(f"No {move['unit']} in {area_name(top.data['from'])} may march to "
                               f"{area_name(to) if to in BOARD.areas else to!r}.", rule=RULE_MARCH)
    return out_of_step(state, seat, kind)
