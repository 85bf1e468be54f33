"""A Game of Thrones' bot hooks.

Easy play places an order on each area that has none, then declares itself ready (it never
takes an order back, which only makes a random player slow). A march is built one unit at a
time and ends only when supply holds (Rules §2.2), so easy play stages a unit only where the
march could end right after it, and backs out (undo) only from a staged march that can neither
end nor go on — a position it never makes itself, but may inherit from a player whose seat it
took over. So a march never loops (stage, undo, stage …) and always ends.

Good play (``policy``) places its orders, moves a march's units, raids, supports, picks its
house card, musters (``got_muster``) and bids (``got_bids``) by heuristic — a face-down order's
or a track's worth shows only rounds later, beyond any playout a budget allows — keeping its
capital held (``got_defense``), and searches the other choices with playouts of 10 easy moves, after which
``evaluate`` weighs each house's castles and strongholds (what wins), land areas and Power.

A hint at Planning (``weigh``, never the bot's own move) plays the rule's order out against the
best order of each other kind on the same area (``order_rivals``) to the end of the round
(``round_over``), every house by these rules, and shows each one's average ``evaluate``.

Hidden from a seat: the order of the Westeros and wildling decks (but the cards it has seen),
the other houses' face-down orders while Planning, their house card in a combat and their bids
until revealed. ``canonical`` puts all of it in a fixed order.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engines.base import Engine, Move
from engines.bots.got_bids import bid_pick
from engines.bots.got_defense import capital, capital_threatened, held_strength, threat
from engines.bots.got_muster import consolidate_pick, muster_pick, mustering_pick
from engines.bots.hooks import Hooks
from engines.bots.ismcts import lead
from engines.game_of_thrones import marches as M
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD, LAND, ORDERS, SEA
from engines.kit import Rng

CASTLE_WORTH = 3.0
"""Land areas a castle or stronghold is worth (seven of them win at once)."""
POWER_WORTH = 0.2
"""Land areas an available Power token is worth (bids, supporting a march into the open)."""
SPARE_POWER = 5
"""Below this many Power tokens the bot saves them (bids, the wildlings, castles to hold)."""
CAPITAL_GUARD = 12.0
"""A Defense order on a threatened capital scores above any march (which score 10 and more)."""
BATTLE_SUPPORT = 4.0
"""What a Support order next to a battle our own march will fight adds to its score."""


def canonical(state: Any, seat: int) -> Any:
    """A copy with what ``seat`` cannot see in a fixed order: the unseen part of the wildling deck
    and of each Westeros deck sorted (the top wildling card stays for the seat that looked at it,
    the cards seen at the bottom stay), other houses' face-down orders replaced by stand-ins on the
    same areas, their chosen house cards and bids by fixed ones, the generator by a fixed one."""
    s = copy.deepcopy(state)
    if s.planning.open:
        for other, placed in list(s.planning.choices.items()):
            if other != seat and placed:
                s.planning.choices[other] = stand_in_orders(s, other, placed)
    c = s.combat
    if c is not None and c.cards.open:
        for other in list(c.cards.choices):
            if other != seat and s.hands[other]:
                c.cards.choices[other] = min(s.hands[other])
    if s.bids.open:
        for other in list(s.bids.choices):
            if other != seat:
                s.bids.choices[other] = 0
    keep = 1 if seat == s.raven_saw else 0
    end = len(s.wildling_deck) - s.wildling_known
    if end > keep:
        s.wildling_deck[keep:end] = sorted(s.wildling_deck[keep:end])
    for deck, pile in s.westeros_decks.items():
        end = len(pile) - s.westeros_known.get(deck, 0)
        pile[:end] = sorted(pile[:end])
    s.rng = Rng.from_seed(0)
    return s


def stand_in_orders(state: Any, seat: int, placed: dict[str, str]) -> dict[str, str]:
    """Orders on the same areas as ``placed``, each the first token the rules allow there."""
    out: dict[str, str] = {}
    for area in sorted(placed):
        fits = [t for t in ORDERS if R.may_place(state, seat, out, area, t) is None]
        out[area] = fits[0] if fits else placed[area]
    return out


def march_may_end_after(engine: Engine, state: Any, seat: int, staged: list[list[str]], move: Move) -> bool:
    """Whether the march could end (supply holding) with ``move`` staged after ``staged``."""
    origin = state.decisions.top.data["from"]
    changes, _ = M.march_plan(state, seat, origin, [*staged, [move["unit"], move["to"]]])
    return R.supply_ok(state, seat, changes)


def sensible_march(engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """Stage only what keeps the march endable, or end it; undo only out of a dead end."""
    staged = state.decisions.top.data["staged"]
    ends = [m for m in moves if m["type"] == "end_march"]
    onward = [m for m in moves if m["type"] == "move" and march_may_end_after(engine, state, seat, staged, m)]
    if ends or onward:
        return onward + ends
    return [m for m in moves if m["type"] == "undo"] or moves


def sensible(engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """Ready once allowed; orders only on areas still without one; no take-back; marches that
    always end."""
    top = state.decisions.top
    if top is not None and top.kind == "march_moves":
        return sensible_march(engine, state, seat, moves)
    ready = [m for m in moves if m["type"] == "ready"]
    if ready:
        return ready
    placed = state.planning.choices.get(seat) or {} if state.planning.open else {}
    kept = [m for m in moves if m["type"] not in ("unorder", "undo")
            and not (m["type"] == "order" and m["area"] in placed)]
    return kept or moves


def evaluate(engine: Engine, state: Any) -> list[float]:
    """Each house's lead in castles and strongholds (worth three land areas each), land areas
    and available Power tokens."""
    worth = [CASTLE_WORTH * R.castles_held(state, s) + R.land_held(state, s) + POWER_WORTH * state.power[s]
             for s in range(state.seats)]
    return [lead(worth, s, 4.0) for s in range(state.seats)]


# -- the good level's heuristic ----------------------------------------------------------------

def enemy_strength(state: Any, seat: int, area: str) -> int:
    """What an attack on ``area`` must beat, as far as the board shows: the units there, a
    neutral force, a garrison (orders and house cards unknown)."""
    held = sum(R.unit_strength(u.kind, routed=u.routed) for u in state.units.get(area, [])
               if state.owner.get(area) != seat)
    garrison = state.garrisons.get(area, 0) if state.homes.get(area) not in (None, seat) else 0
    return int(held + state.neutral.get(area, 0) + garrison)


def area_worth(area: str) -> float:
    """What holding an area is worth: a castle or stronghold most (seven win), then barrels
    (supply) and crowns (power), then any land."""
    a = BOARD.areas[area]
    return (CASTLE_WORTH if a.castle else 0.0) + 1.0 + 0.5 * a.supply + 0.5 * a.crowns


def march_target(state: Any, seat: int, area: str, modifier: int) -> float:
    """The best area the units in ``area`` could take with a march of ``modifier``: its worth,
    discounted when the board says the attack would likely fail (0: nothing worth taking)."""
    units = [u for u in state.units.get(area, []) if not u.routed]
    if not units:
        return 0.0
    best = 0.0
    for kind in sorted({u.kind for u in units}):
        for to in R.destinations(state, seat, area, kind):
            if BOARD.areas[to].kind != LAND or R.controller(state, to) == seat:
                continue
            castle = BOARD.areas[to].castle
            mine = sum(R.unit_strength(u.kind, attacking_castle=castle) for u in units
                       if u.kind != "ship" and to in R.destinations(state, seat, area, u.kind)) + modifier
            against = enemy_strength(state, seat, to)
            odds = 1.0 if against == 0 else (0.7 if mine > against else 0.35 if mine >= against - 1 else 0.05)
            best = max(best, area_worth(to) * odds)
    return best


def threatened(state: Any, seat: int, area: str) -> int:
    """Enemy units next to ``area``: what a Defense order there guards against."""
    return sum(len(state.units.get(b, [])) for b in BOARD.adjacent[area]
               if state.owner.get(b, seat) != seat)


def order_score(state: Any, seat: int, area: str, token: str) -> float:
    """How much an order helps in ``area``: marches where there is something to take (the best
    march token on the best target), consolidating where crowns are, defending threatened
    castles, supporting or raiding next to the enemy."""
    order = ORDERS[token]
    here = BOARD.areas[area]
    kind = order.kind
    if kind == "march":
        value = march_target(state, seat, area, order.modifier)
        return 10.0 + value + order.modifier if value > 0 else 0.0
    if kind == "consolidate":
        if here.kind != LAND:
            return 0.5
        muster = 3.0 if order.special and here.castle else 0.0
        poor = 1.5 if state.power[seat] < SPARE_POWER else 0.0
        return 2.0 + here.crowns + muster + poor
    near = threatened(state, seat, area)
    if kind == "defense":
        if area == capital(state, seat) and capital_threatened(state, seat):
            return CAPITAL_GUARD + threat(state, seat, area) + order.modifier
        return (1.0 + near * (2.0 if here.castle else 0.5) + order.modifier) if near else 0.2
    if kind == "support":
        battle = BATTLE_SUPPORT if supports_own_attack(state, seat, area) else 0.0
        return battle + ((1.5 + order.modifier + (1.0 if here.kind == SEA else 0.0)) if near else 0.8)
    return 1.2 + (1.0 if order.special else 0.0) if near else 0.3


def supports_own_attack(state: Any, seat: int, area: str) -> bool:
    """Whether a Support order in ``area`` could back an attack by one of our March orders
    already placed: next to an area held by another house (or a neutral force) that the
    march's units could enter."""
    placed = (state.planning.choices.get(seat) or {}) if state.planning.open else {}
    marches = [a for a, t in placed.items() if ORDERS[t].kind == "march" and a != area]
    for target in BOARD.adjacent[area]:
        if BOARD.areas[target].kind != LAND or not R.may_support(state, area, target):
            continue
        if R.controller(state, target) == seat or not R.is_attack(state, seat, target):
            continue
        if any(target in R.destinations(state, seat, m, u.kind) for m in marches
               for u in state.units.get(m, []) if u.kind != "ship"):
            return True
    return False


def policy(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """Good play by heuristic where a short search sees little: orders (their worth shows only
    later), a march's units, raids, support, house cards. The other choices are searched."""
    top = state.decisions.top
    if top is None:
        return planning_pick(state, seat, moves) if state.planning.open else None
    pick = PICKS.get(top.kind)
    return pick(engine, state, seat, moves) if pick is not None else None


def planning_pick(state: Any, seat: int, moves: list[Move]) -> Move | None:
    """The best-scoring order on any area still without one; ready when every area has one."""
    ready = [m for m in moves if m["type"] == "ready"]
    if ready:
        return ready[0]
    orders = [m for m in moves if m["type"] == "order"]
    if not orders:
        return None
    return max(orders, key=lambda m: order_score(state, seat, m["area"], m["order"]))


def order_rivals(engine: Engine, state: Any, seat: int, moves: list[Move], picked: Move) -> list[Move]:
    """For a hint at Planning: the orders to weigh on the area the rule orders next — its pick,
    then the best-scoring token of each other kind the rules allow there (one area: every area
    gets an order this round, so what a plan changes is the token on each)."""
    if picked["type"] != "order":
        return []
    best: dict[str, Move] = {}
    for m in sorted((m for m in moves if m["type"] == "order" and m["area"] == picked["area"]),
                    key=lambda m: -order_score(state, seat, m["area"], m["order"])):
        best.setdefault(ORDERS[m["order"]].kind, m)
    return [picked, *(m for kind, m in best.items() if kind != ORDERS[picked["order"]].kind)]


def round_over(start: Any, state: Any) -> bool:
    """A hint's playout runs to the end of the round (the orders' worth shows in the Action
    phase; the next Westeros phase is the next decision's)."""
    return bool(state.round != start.round)


def march_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """Stage the unit that takes the most: into land nobody of ours holds (one unit is enough
    where nobody defends), or every unit that can into an attack the board says it wins; then
    end the march, leaving a Power token behind when the area is emptied."""
    top = state.decisions.top
    origin, staged = top.data["from"], top.data["staged"]
    order = state.orders.get(origin)
    modifier = ORDERS[order.token].modifier if order is not None else 0
    _, attack = M.march_plan(state, seat, origin, staged)
    entered = {to for _, to in staged}
    guard = capital_guard(state, seat, origin, staged)
    best, best_value = None, 0.0
    for m in moves:
        if m["type"] != "move" or m["unit"] == "ship" or BOARD.areas[m["to"]].kind != LAND:
            continue
        if guard is not None and held_strength(state, seat, origin, guard + R.unit_strength(m["unit"])) < \
                threat(state, seat, origin):
            continue  # the capital would be left weaker than the enemy next to it
        to = m["to"]
        if to == attack:
            value = area_worth(to)
        elif R.is_attack(state, seat, to):
            value = area_worth(to) if winnable(state, seat, origin, to, modifier) else 0.0
        elif R.controller(state, to) != seat and to not in entered:
            value = area_worth(to) - 0.5
        else:
            value = 0.0
        if value > best_value:
            best, best_value = m, value
    if best is not None:
        return best
    ends = [m for m in moves if m["type"] == "end_march"]
    keep = [m for m in ends if m["power"]] if token_worth_leaving(state, seat, origin) else []
    return (keep or ends)[0] if ends else None


def token_worth_leaving(state: Any, seat: int, area: str) -> bool:
    """Whether to spend a Power token holding an area a march empties: a castle (seven win)
    always; other land only while two tokens stay for bids and the wildlings."""
    power = int(state.power[seat])
    return power >= 1 if BOARD.areas[area].castle else power >= 3


def capital_guard(state: Any, seat: int, origin: str, staged: list[list[str]]) -> int | None:
    """When marching out of our capital with an enemy next to it: the strength already staged
    out of it (None: no capital to keep here)."""
    if origin != capital(state, seat) or threat(state, seat, origin) == 0:
        return None
    return sum(R.unit_strength(unit) for unit, _ in staged)


def winnable(state: Any, seat: int, origin: str, area: str, modifier: int) -> bool:
    """Whether every unit of ``origin`` that can reach ``area`` beats, with the march's
    modifier, what the board shows there (units, neutral force, garrison, a Defense order)."""
    castle = BOARD.areas[area].castle
    mine = sum(R.unit_strength(u.kind, attacking_castle=castle) for u in state.units.get(origin, [])
               if not u.routed and u.kind != "ship" and area in R.destinations(state, seat, origin, u.kind))
    defense = state.orders.get(area)
    guard = ORDERS[defense.token].modifier if defense is not None and ORDERS[defense.token].kind == "defense" else 0
    return mine + modifier > enemy_strength(state, seat, area) + guard


def raid_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """Raid something rather than nothing: a Consolidate Power first (a Power token each way)."""
    rank = {"consolidate": 3, "support": 2, "defense": 2, "raid": 1}
    def worth(m: Move) -> int:
        target = state.orders.get(m["target"]) if m["target"] else None
        return rank.get(ORDERS[target.token].kind, 0) if target is not None else 0
    return max(moves, key=worth) if moves else None


def support_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """Back our own side; between two others, back nobody."""
    c = state.combat
    side = "attacker" if c.attacker == seat else "defender" if c.defender == seat else "none"
    return next((m for m in moves if m["side"] == side), None)


def card_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """The strongest house card in hand."""
    return max(moves, key=lambda m: R.card_strength(m["card"])) if moves else None


Pick = Callable[[Engine, Any, int, list[Move]], Move | None]
PICKS: dict[str, Pick] = {"march_moves": march_pick, "raid": raid_pick, "support": support_pick, "cards": card_pick,
                          "bid": bid_pick, "mustering": mustering_pick, "muster": muster_pick,
                          "consolidate": consolidate_pick}


def components(engine: Engine, state: Any) -> dict[str, list[int]]:
    """Balance: each house in play -> the seat that played it."""
    return {f"house {house}": [seat] for seat, house in enumerate(state.houses)}


HOOKS = Hooks(canonical=canonical, sensible=sensible, evaluate=evaluate, depth=10, components=components, policy=policy,
              rivals=order_rivals, horizon=round_over)
