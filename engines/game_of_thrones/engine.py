"""A Game of Thrones (2nd edition) on the engine kit: setup, the round (Westeros, Planning,
Action, clean-up), orders, raids, marches, combat, consolidating power and victory.

The flow is a stack of decisions (``state.decisions``): a march inside the action phase, a
combat inside a march, a retreat inside a combat. ``_advance`` runs everything that needs no
decision and stops at the next one. Each decision kind has its moves, its prompt and its
effect here; the rules themselves (control, supply, movement, strength …) are in ``rules.py``.

>>> from engines.game_of_thrones import ENGINE
>>> state = ENGINE.new_game(3, seed=7, options={})
>>> sorted(ENGINE.to_act(state))
[0, 1, 2]
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engines.base import Event, IllegalMove, Move, Result, View
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.components import (
    BOARD,
    HOUSE_CARDS,
    HOUSES,
    LAND,
    ORDERS,
    PORT,
    RULES,
    SEA,
    SETUPS,
    SHIP,
    SIEGE,
    TRACK_NAMES,
    TRACKS,
    WESTEROS_DECKS,
    WILDLING_CARDS,
    static_data,
)
from engines.game_of_thrones.state import (
    ACTION,
    CONSOLIDATE,
    MARCH,
    OVER,
    PLANNING,
    RAID,
    WESTEROS,
    Combat,
    GameState,
    PlacedOrder,
    Unit,
)
from engines.kit import BOOL, INT, STR, Commitments, Decision, KitEngine, Log, MoveSchema, MoveSpec, Rng, prompt

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

ABILITY_PROMPTS = {
    "tyrion-lannister": "Tyrion Lannister: cancel your opponent's house card (they choose another)?",
    "aeron-damphair": "Aeron Damphair: pay 2 Power tokens to use another house card instead?",
    "queen-of-thorns": "Queen of Thorns: remove one of your opponent's orders next to the embattled area",
    "doran-martell": "Doran Martell: move your opponent to the last place of which influence track?",
    "renly-baratheon": "Renly Baratheon: upgrade a footman to a knight where?",
    "cersei-lannister": "Cersei Lannister: remove one of the loser's orders from anywhere?",
    "patchface": "Patchface: discard one card from your opponent's hand?",
}

IMMEDIATE = ("queen-of-thorns", "doran-martell", "mace-tyrell", "aeron-damphair")
"""House cards whose text acts "immediately" after the reveal (Rules §3.3)."""


def _name(seat_house: str) -> str:
    return HOUSES[seat_house].name


def _area(area: str) -> str:
    return BOARD.areas[area].name


def _kinds_text(kinds: list[str]) -> str:
    c = Counter(kinds)
    return ", ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in sorted(c.items())) or "no units"


class GameOfThrones(KitEngine[GameState]):
    id = "game_of_thrones"
    title = "A Game of Thrones"
    tagline = "Orders in secret, marches in turn: seven castles take the Iron Throne."
    min_seats = 3
    max_seats = 6
    State = GameState
    MOVES = MoveSchema(
        MoveSpec("order", area=STR, order=STR),
        MoveSpec("unorder", area=STR),
        MoveSpec("ready"),
        MoveSpec("raven_swap", area=STR, order=STR),
        MoveSpec("raven_look"),
        MoveSpec("raven_pass"),
        MoveSpec("wildling", bury=BOOL),
        MoveSpec("raid", area=STR, target=STR),
        MoveSpec("march", area=STR),
        MoveSpec("move", unit=STR, to=STR),
        MoveSpec("undo"),
        MoveSpec("end_march", power=BOOL),
        MoveSpec("support", side=STR),
        MoveSpec("card", card=STR),
        MoveSpec("blade", use=BOOL),
        MoveSpec("casualty", unit=STR),
        MoveSpec("retreat", to=STR),
        MoveSpec("consolidate", area=STR),
        MoveSpec("muster", area=STR),
        MoveSpec("recruit", unit=STR, to=STR),
        MoveSpec("end_muster"),
        MoveSpec("ability", choice=STR),
        MoveSpec("replace", ships=INT),
        MoveSpec("bid", power=INT),
        MoveSpec("rank", house=STR),
        MoveSpec("destroy", area=STR, unit=STR),
        MoveSpec("choose", option=STR),
        game="A Game of Thrones",
    )

    # -- setup ----------------------------------------------------------------------------------
    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> GameState:
        """Setup for 3–6 players: houses in play, their units, garrisons, neutral forces and
        blocked areas, 5 Power tokens each, track and supply positions, decks shuffled."""
        rng = Rng.from_seed(seed)
        setup = SETUPS[seats]
        houses = list(setup.houses)
        seat_of = {h: i for i, h in enumerate(houses)}
        units: dict[str, list[Unit]] = {}
        owner: dict[str, int] = {}
        for house in houses:
            for area, kinds in HOUSES[house].units.items():
                if area in setup.units_not_placed_in:
                    continue
                units[area] = [Unit(k) for k in ("footman", "knight", SIEGE, SHIP) for _ in range(kinds.get(k, 0))]
                owner[area] = seat_of[house]
        homes = {HOUSES[h].home: seat_of[h] for h in houses}
        wildling = sorted(WILDLING_CARDS)
        rng.shuffle(wildling)
        decks = {}
        for deck, cards in WESTEROS_DECKS.items():
            pile = list(cards)
            rng.shuffle(pile)
            decks[deck] = pile
        state = GameState(
            seats=seats, houses=houses, rng=rng, units=units, owner=owner, tokens={},
            garrisons={a: RULES.garrison for a in homes}, neutral=dict(setup.neutral_forces),
            blocked=sorted(setup.blocked), homes=homes, power=[RULES.power_start] * seats,
            supply=[HOUSES[h].positions["supply"] for h in houses],
            tracks={t: [seat_of[h] for h in setup.tracks[t]] for t in TRACKS},
            hands=[list(HOUSES[h].house_cards) for h in houses], discards=[[] for _ in houses],
            wildling_deck=wildling, westeros_decks=decks, wildlings=RULES.wildling_start,
        )
        log = Log()
        self._start_round(state, log)
        return state

    # -- the protocol ---------------------------------------------------------------------------
    def awaited(self, state: GameState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        if state.decisions.top is not None:
            top = state.decisions.top
            if top.kind == "cards" and state.combat is not None:
                return state.combat.cards.awaited()
            if top.kind == "bid":
                return state.bids.awaited()
            return state.decisions.awaited()
        if state.phase == PLANNING:
            return state.planning.awaited()
        return frozenset()

    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        if seat not in self.awaited(state):
            return []
        top = state.decisions.top
        kind = top.kind if top is not None else "orders"
        if kind in PHASE_MOVES:
            assert top is not None
            return PHASE_MOVES[kind](self, state, seat, top)
        return list(getattr(self, f"_moves_{kind}")(state, seat, top))

    def refusal(self, state: GameState, seat: int, move: Move) -> IllegalMove | None:
        if seat not in self.awaited(state):
            return IllegalMove(f"It is not {_name(state.houses[seat]) if 0 <= seat < state.seats else 'your'}'s "
                               "turn to decide.", rule=RULE_TURN, code="not_your_turn")
        if move in self.legal_moves(state, seat):
            return None
        return self._explain(state, seat, move)

    def apply(self, state: GameState, seat: int, move: Move) -> list[Event]:
        log = Log()
        top = state.decisions.top
        kind = top.kind if top is not None else "orders"
        if kind in PHASE_DO:
            assert top is not None
            PHASE_DO[kind](self, state, seat, move, top, log)
        else:
            getattr(self, f"_do_{kind}")(state, seat, move, top, log)
        state.moves_played += 1
        self._advance(state, log)
        return log.events

    def result(self, state: GameState) -> Result | None:
        if state.phase != OVER or state.winner is None:
            return None
        castles = tuple(float(R.castles_held(state, s)) for s in range(state.seats))
        return Result((state.winner,), castles, {
            "houses": list(state.houses), "ended_by": state.ended_by, "round": min(state.round, RULES.rounds),
            "castles": [int(c) for c in castles],
            "land_areas": [R.land_held(state, s) for s in range(state.seats)],
            "supply": list(state.supply), "iron_throne": list(state.tracks["iron_throne"])})

    def static_view(self, state: GameState) -> View:
        return static_data()

    # -- the round ------------------------------------------------------------------------------
    def _start_round(self, state: GameState, log: Log) -> None:
        """Seed, the game round: Westeros (not in round 1), Planning, Action."""
        log.say("Round {r} begins", r=state.round)
        state.restricted = []
        if state.round > 1:
            W.start(self, state, log)
            return
        self._begin_planning(state, log)

    def _begin_planning(self, state: GameState, log: Log) -> None:
        """Planning: every house holding units places its orders, hidden and at once."""
        state.phase = PLANNING
        state.step = ""
        state.orders = {}
        asked = [s for s in range(state.seats) if R.order_areas(state, s)]
        state.planning = Commitments.ask(asked)
        for s in asked:
            state.planning.choices[s] = {}

    def _advance(self, state: GameState, log: Log) -> None:
        """Run what needs no decision until a decision is due or the game is over."""
        for _ in range(10_000):
            if state.phase == OVER:
                return
            if self._check_victory(state, log):
                return
            if state.pending:
                self._flush_pending(state)
            if state.decisions.top is not None:
                if self._auto(state, log):
                    continue
                return
            if state.phase == WESTEROS:
                W.run_task(self, state, log)
                continue
            if state.phase == PLANNING:
                if state.planning.open and not state.planning.everyone_ready():
                    return
                self._reveal(state, log)
                continue
            if state.phase == ACTION:
                if not self._next_turn(state, log):
                    self._clean_up(state, log)
                continue
        raise AssertionError("the flow did not settle")

    def _reveal(self, state: GameState, log: Log) -> None:
        """Planning, step 2: every order is revealed at once."""
        choices = state.planning.reveal() if state.planning.open else {}
        state.orders = {}
        for seat, placed in choices.items():
            for area, token in sorted(placed.items()):
                state.orders[area] = PlacedOrder(seat, token)
        for seat in range(state.seats):
            mine = sorted((a, o.token) for a, o in state.orders.items() if o.seat == seat)
            if mine:
                log.say("{0} reveals: {orders}", seat,
                        orders="; ".join(f"{ORDERS[t].name} in {_area(a)}" for a, t in mine))
        holder = state.tracks["kings_court"][0]
        state.phase = ACTION
        state.step = RAID
        state.cursor = 0
        if not state.raven_used:
            state.decisions.push(Decision("raven", [holder]))

    def _next_turn(self, state: GameState, log: Log) -> bool:
        """Action phase: raids, then marches, then consolidate power; in each step the houses take
        turns in Iron Throne order, one order at a time, until none of that kind is left."""
        kinds = {RAID: "raid", MARCH: "march", CONSOLIDATE: "consolidate"}
        while True:
            order_kind = kinds[state.step]
            throne = state.tracks["iron_throne"]
            for i in range(len(throne)):
                seat = throne[(state.cursor + i) % len(throne)]
                if any(o.seat == seat and ORDERS[o.token].kind == order_kind for o in state.orders.values()):
                    state.cursor = (throne.index(seat) + 1) % len(throne)
                    state.decisions.push(Decision(state.step, [seat]))
                    return True
            if state.step == RAID:
                state.step, state.cursor = MARCH, 0
            elif state.step == MARCH:
                state.step, state.cursor = CONSOLIDATE, 0
            else:
                return False

    def _clean_up(self, state: GameState, log: Log) -> None:
        """Action phase, clean-up: remaining orders go, routed units stand up, the Raven and the
        Blade are refreshed; after round 10 the game ends."""
        state.orders = {}
        for us in state.units.values():
            for u in us:
                u.routed = False
        state.raven_used = False
        state.blade_used = False
        if state.round >= RULES.rounds:
            self._end_by_count(state, log)
            return
        state.round += 1
        self._start_round(state, log)

    def _check_victory(self, state: GameState, log: Log) -> bool:
        """Victory: a house controlling seven castle or stronghold areas wins at once."""
        held = R.castles_by_seat(state)
        for seat in state.tracks["iron_throne"]:
            if held[seat] >= RULES.castles_to_win:
                state.winner, state.phase, state.ended_by = seat, OVER, "seven castles"
                state.decisions.stack.clear()
                log.say("{0} controls seven castles and strongholds and wins the game", seat)
                return True
        return False

    def _end_by_count(self, state: GameState, log: Log) -> None:
        """After round 10: most castles and strongholds; ties by land areas, then the Supply
        track, then the Iron Throne track (Rules §6)."""
        def key(seat: int) -> tuple[int, int, int, int]:
            return (R.castles_held(state, seat), R.land_held(state, seat), state.supply[seat],
                    -state.tracks["iron_throne"].index(seat))
        state.winner = max(range(state.seats), key=key)
        state.phase, state.ended_by = OVER, "round 10"
        log.say("The tenth round is over: {0} wins with {n} castles and strongholds", state.winner,
                n=R.castles_held(state, state.winner))

    def _auto(self, state: GameState, log: Log) -> bool:
        """Resolve the top decision without a player when it leaves no choice; True if it did."""
        top = state.decisions.top
        assert top is not None
        if top.kind == "cards" and state.combat is not None:
            c = state.combat
            if not c.cards.open or c.cards.everyone_ready():
                self._after_cards(state, log)
                return True
        if top.kind in PHASE_AUTO:
            return PHASE_AUTO[top.kind](self, state, top, log)
        handler = getattr(self, f"_auto_{top.kind}", None)
        return bool(handler and handler(state, top, log))

    # -- planning -------------------------------------------------------------------------------
    def _placed(self, state: GameState, seat: int) -> dict[str, str]:
        return dict(state.planning.choices.get(seat) or {})

    def _moves_orders(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Planning: place (or replace) an order on an area holding your units, remove one, or
        declare yourself ready once every area has an order (or no token fits the rest)."""
        placed = self._placed(state, seat)
        out: list[Move] = []
        # the tokens' use counted once for the seat (this listing is the hottest code of a game),
        # then, area by area, without the token already on that area (R.placeable's rule)
        used = Counter(placed.values())
        specials = sum(n for t, n in used.items() if ORDERS[t].special)
        stars = R.star_limit(state, seat)
        barred = state.restricted
        for area in R.order_areas(state, seat):
            mine = placed.get(area)
            other_specials = specials - (1 if mine is not None and ORDERS[mine].special else 0)
            for token, o in ORDERS.items():
                if token == mine or token in barred or used[token] >= o.count:
                    continue  # (``token`` is not the area's own, so all its uses are elsewhere)
                if o.special and other_specials >= stars:
                    continue
                out.append({"type": "order", "area": area, "order": token})
            if mine is not None:
                out.append({"type": "unorder", "area": area})
        if self._may_declare_ready(state, seat, placed):
            out.append(self.MOVES.make("ready"))
        return out

    def _may_declare_ready(self, state: GameState, seat: int, placed: Mapping[str, str]) -> bool:
        """Rules §1.1: exactly one order on every area holding the house's units."""
        for area in R.order_areas(state, seat):
            if area not in placed and R.placeable(state, seat, placed, area):
                return False
        return True

    def _do_orders(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        placed = self._placed(state, seat)
        if move["type"] == "order":
            placed[move["area"]] = move["order"]
            state.planning.choose(seat, placed)
        elif move["type"] == "unorder":
            del placed[move["area"]]
            state.planning.choose(seat, placed)
        else:
            state.planning.declare_ready(seat)
            log.say("{0} is ready", seat)

    # -- the Messenger Raven ----------------------------------------------------------------------
    def _moves_raven(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Seed, The Messenger Raven: swap one of your placed orders for an unused one (star
        limit and restrictions still apply), or look at the top wildling card; or neither."""
        placed = {a: o.token for a, o in state.orders.items() if o.seat == seat}
        out = []
        for area in sorted(placed):
            for token in ORDERS:
                if token != placed[area] and R.may_place(state, seat, placed, area, token) is None:
                    out.append(self.MOVES.make("raven_swap", area=area, order=token))
        if state.wildling_deck:
            out.append(self.MOVES.make("raven_look"))
        out.append(self.MOVES.make("raven_pass"))
        return out

    def _do_raven(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        state.raven_used = True
        if move["type"] == "raven_swap":
            old = state.orders[move["area"]].token
            state.orders[move["area"]] = PlacedOrder(seat, move["order"])
            log.say("{0} uses the Messenger Raven: {old} in {area} becomes {new}", seat, old=ORDERS[old].name,
                    area=_area(move["area"]), new=ORDERS[move["order"]].name)
        elif move["type"] == "raven_look":
            state.raven_saw = seat
            log.say("{0} uses the Messenger Raven to look at the top wildling card", seat,
                    privately={seat: "You look at the top wildling card: {card}"},
                    card=WILDLING_CARDS[state.wildling_deck[0]]["name"])
            state.decisions.push(Decision("wildling", [seat]))
        else:
            log.say("{0} does not use the Messenger Raven", seat)

    def _moves_wildling(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        return [self.MOVES.make("wildling", bury=False), self.MOVES.make("wildling", bury=True)]

    def _do_wildling(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        if move["bury"]:
            state.wildling_deck.append(state.wildling_deck.pop(0))
            state.raven_saw = None
            state.wildling_known = 0  # only the raven holder knows the card now at the bottom
            log.say("{0} puts the top wildling card at the bottom of the deck", seat)
        else:
            log.say("{0} leaves the top wildling card where it is", seat)

    # -- raids ----------------------------------------------------------------------------------
    def _moves_raid(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Resolve one of your Raid orders: remove an adjacent enemy order it may raid, or none."""
        out = []
        for area in self._my_orders(state, seat, "raid"):
            for target in R.raid_targets(state, seat, area):
                out.append(self.MOVES.make("raid", area=area, target=target))
            out.append(self.MOVES.make("raid", area=area, target=""))
        return out

    def _do_raid(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        area, target = move["area"], move["target"]
        del state.orders[area]
        if not target:
            log.say("{0} removes the raid in {a} without raiding", seat, a=_area(area))
            return
        victim = state.orders.pop(target)
        log.say("{0} raids from {a}: {1}'s {o} in {t} is removed", seat, victim.seat, a=_area(area),
                o=ORDERS[victim.token].name, t=_area(target))
        if ORDERS[victim.token].kind == "consolidate":
            # Rules §2.1: raiding Consolidate Power: the raider gains 1 power, the victim loses 1
            if state.power[victim.seat] > 0:
                state.power[victim.seat] -= 1
                log.say("{0} loses a Power token", victim.seat)
            if R.gain_power(state, seat, 1):
                log.say("{0} gains a Power token", seat)

    def _my_orders(self, state: GameState, seat: int, kind: str) -> list[str]:
        return sorted(a for a, o in state.orders.items() if o.seat == seat and ORDERS[o.token].kind == kind)

    # -- marches --------------------------------------------------------------------------------
    def _moves_march(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        return [self.MOVES.make("march", area=a) for a in self._my_orders(state, seat, "march")]

    def _do_march(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        state.decisions.push(Decision("march_moves", [seat], {"from": move["area"], "staged": []}))

    def _movable(self, state: GameState, origin: str, staged: list[list[str]]) -> Counter[str]:
        left = Counter(u.kind for u in state.units.get(origin, []) if not u.routed)
        left.subtract(Counter(k for k, _ in staged))
        return +left

    def _march_plan(self, state: GameState, seat: int, origin: str,
                    staged: list[list[str]]) -> tuple[dict[str, int], str | None]:
        """Sizes after the staged moves (the attacked area counted as won) and the attacked area."""
        attack = next((to for _, to in staged if R.is_attack(state, seat, to)), None)
        changes = {origin: len(state.units.get(origin, [])) - len(staged)}
        for _, to in staged:
            base = 0 if to == attack else len(state.units.get(to, []))
            changes[to] = changes.get(to, base) + 1
        return changes, attack

    def _moves_march_moves(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """A march step by step: move one unit to an area it may reach (at most one attacked
        area per march), undo the last step, or end the march (supply must hold)."""
        assert top is not None
        origin, staged = top.data["from"], top.data["staged"]
        out = []
        _, attack = self._march_plan(state, seat, origin, staged)
        for kind in sorted(self._movable(state, origin, staged)):
            for to in sorted(R.destinations(state, seat, origin, kind)):
                if attack is not None and to != attack and R.is_attack(state, seat, to):
                    continue
                if BOARD.areas[to].kind == PORT:
                    ships = len(state.units.get(to, [])) + sum(1 for _, t in staged if t == to)
                    if ships >= RULES.port_capacity:
                        continue
                out.append(self.MOVES.make("move", unit=kind, to=to))
        if staged:
            out.append(self.MOVES.make("undo"))
        changes, attack = self._march_plan(state, seat, origin, staged)
        if R.supply_ok(state, seat, changes):
            out.append(self.MOVES.make("end_march", power=False))
            if self._may_leave_power(state, seat, origin, staged):
                out.append(self.MOVES.make("end_march", power=True))
        return out

    def _may_leave_power(self, state: GameState, seat: int, origin: str, staged: list[list[str]]) -> bool:
        """Rules §2.2: leaving a land area empty, a house may place a Power token from its
        available power there to keep control (not at sea, not needed in its home area)."""
        return (BOARD.areas[origin].kind == LAND and len(staged) == len(state.units.get(origin, []))
                and state.power[seat] > 0 and origin not in state.tokens and state.homes.get(origin) != seat)

    def _do_march_moves(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        assert top is not None
        staged = top.data["staged"]
        if move["type"] == "move":
            staged.append([move["unit"], move["to"]])
            return
        if move["type"] == "undo":
            staged.pop()
            return
        state.decisions.pop()
        origin = top.data["from"]
        _, attack = self._march_plan(state, seat, origin, staged)
        token = state.orders.pop(origin).token
        peaceful = [(k, to) for k, to in staged if to != attack]
        army = [k for k, to in staged if to == attack]
        for kind, _to in staged:
            self._take_unit(state, origin, kind)
        by_dest: dict[str, list[str]] = {}
        for kind, to in peaceful:
            by_dest.setdefault(to, []).append(kind)
        if not staged:
            log.say("{0} resolves the march in {a} without moving", seat, a=_area(origin))
        for to, kinds in sorted(by_dest.items()):
            self._enter(state, seat, to, kinds, log)
            log.say("{0} marches {u} from {a} to {b}", seat, u=_kinds_text(kinds), a=_area(origin), b=_area(to))
        if move["power"]:
            state.power[seat] -= 1
            state.tokens[origin] = seat
            log.say("{0} leaves a Power token in {a}", seat, a=_area(origin))
        if attack is not None:
            self._start_combat(state, seat, origin, attack, army, token, log)

    def _take_unit(self, state: GameState, area: str, kind: str) -> Unit:
        us = state.units[area]
        i = next(i for i, u in enumerate(us) if u.kind == kind and not u.routed)
        unit = us.pop(i)
        if not us:
            del state.units[area]
            del state.owner[area]
            state.orders.pop(area, None)
        return unit

    def _destroy(self, state: GameState, area: str, kind: str, *, routed_first: bool = False) -> None:
        us = state.units[area]
        order = sorted(range(len(us)), key=lambda i: (us[i].kind != kind, us[i].routed != routed_first))
        us.pop(order[0])
        if not us:
            del state.units[area]
            del state.owner[area]
            state.orders.pop(area, None)

    def _enter(self, state: GameState, seat: int, area: str, kinds: list[str], log: Log,
               *, routed: bool = False) -> None:
        """Units arrive in an area: an enemy Power token there goes back to its pool."""
        if area in state.tokens and state.tokens[area] != seat:
            victim = state.tokens.pop(area)
            log.say("{0}'s Power token in {a} returns to the Power Pool", victim, a=_area(area))
        state.units.setdefault(area, []).extend(Unit(k, routed) for k in kinds)
        state.owner[area] = seat
        port = BOARD.port_of_land.get(area)
        if port is not None and state.owner.get(port, seat) != seat:
            # Rules §3.8: the new holder of a land area takes its port: the other house's ships
            # there are removed, and the new holder may replace them with its own (asked next)
            victim = state.owner.pop(port)
            n = len(state.units.pop(port))
            state.orders.pop(port, None)
            log.say("{0} loses {n} ship(s) in {p} to {1}", victim, seat, n=n, p=_area(port))
            if self._port_choices(state, seat, port, n) != [0]:
                state.pending.append({"kind": "port", "seat": seat, "port": port, "ships": n})

    def _port_choices(self, state: GameState, seat: int, port: str, ships: int) -> list[int]:
        """How many of the captured ships the new holder may replace with its own: its available
        ships, within its supply limits (0: they are all destroyed)."""
        most = min(ships, R.units_in_pool(state, seat, SHIP), RULES.port_capacity)
        return [k for k in range(most + 1) if k < 2 or R.supply_ok(state, seat, {port: k})]

    def _moves_port(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        assert top is not None
        return [self.MOVES.make("replace", ships=k)
                for k in reversed(self._port_choices(state, seat, top.data["port"], top.data["ships"]))]

    def _do_port(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        assert top is not None
        state.decisions.pop()
        port, k = top.data["port"], move["ships"]
        if k:
            state.units[port] = [Unit(SHIP) for _ in range(k)]
            state.owner[port] = seat
        log.say("{0} replaces {k} captured ship(s) in {p} with its own", seat, k=k, p=_area(port))

    def _flush_pending(self, state: GameState) -> None:
        """Questions raised by an effect (a captured port) are asked before the flow goes on."""
        for item in reversed(state.pending):
            state.decisions.push(Decision(item["kind"], [item["seat"]],
                                          {k: v for k, v in item.items() if k not in ("kind", "seat")}))
        state.pending = []

    # -- combat ---------------------------------------------------------------------------------
    def _start_combat(self, state: GameState, seat: int, origin: str, area: str, army: list[str], token: str,
                      log: Log) -> None:
        defender = state.owner.get(area)
        if defender is None and area not in state.neutral:
            defender = state.homes.get(area)
        c = Combat(attacker=seat, defender=defender if area not in state.neutral else None, area=area,
                   origin=origin, army=list(army), march=token)
        state.combat = c
        if c.defender is None:
            log.say("{0} attacks the neutral force in {a} (strength {n}) with {u}", seat, a=_area(area),
                    n=state.neutral[area], u=_kinds_text(army))
        else:
            log.say("{0} attacks {1} in {a} with {u}", seat, c.defender, a=_area(area), u=_kinds_text(army))
        areas = R.supports_for(state, area)
        seats = {state.orders[a].seat for a in areas}
        c.to_ask = [s for s in state.tracks["iron_throne"] if s in seats]
        state.decisions.push(Decision("combat", []))
        self._combat_next(state, log)

    def _combat_next(self, state: GameState, log: Log) -> None:
        """Push the next decision of the combat, or finish it."""
        c = state.combat
        assert c is not None
        if c.to_ask:
            state.decisions.push(Decision("support", [c.to_ask[0]]))
            return
        if c.defender is None:
            self._neutral_outcome(state, log)
            return
        if c.step == "support":
            c.step = "cards"
            asked = [s for s in (c.attacker, c.defender) if state.hands[s]]
            c.cards = Commitments.ask(asked)
            state.decisions.push(Decision("cards", asked))
            return

    def _moves_support(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Call for support: back the attacker, the defender, or nobody (a neutral force gets no
        support)."""
        c = state.combat
        assert c is not None
        sides = ["attacker", "none"] if c.defender is None else ["attacker", "defender", "none"]
        return [self.MOVES.make("support", side=s) for s in sides]

    def _do_support(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        c = state.combat
        assert c is not None
        state.decisions.pop()
        c.to_ask.pop(0)
        for area in R.supports_for(state, c.area):
            if state.orders[area].seat == seat:
                c.supporters[area] = move["side"]
        side = move["side"]
        if side == "none":
            log.say("{0} supports nobody", seat)
        else:
            backed = c.attacker if side == "attacker" else c.defender
            log.say("{0} supports {1}", seat, backed if backed is not None else c.attacker)
        self._combat_next(state, log)

    def _support_strength(self, state: GameState, c: Combat, side: str, seat_card: dict[int, str]) -> int:
        total = 0
        castle = BOARD.areas[c.area].castle
        for area, chosen in c.supporters.items():
            if chosen != side or area not in state.orders:
                continue
            order = state.orders[area]
            total += ORDERS[order.token].modifier
            for u in state.units.get(area, []):
                total += self._unit_value(state, c, order.seat, u.kind, u.routed, side == "attacker" and castle,
                                          side, seat_card, supporting=True)
        return total

    def _unit_value(self, state: GameState, c: Combat, seat: int, kind: str, routed: bool, vs_castle: bool,
                    side: str, card: dict[int, str], *, supporting: bool = False) -> int:
        """A unit's combat strength with the house cards' strength texts (Kevan, Victarion,
        Salladhor Saan)."""
        value = R.unit_strength(kind, routed=routed, attacking_castle=vs_castle)
        if value == 0:
            return 0
        attacker_card = card.get(c.attacker)
        if side == "attacker" and seat == c.attacker:
            if kind == "footman" and attacker_card == "ser-kevan-lannister":
                value = 2
            if kind == SHIP and attacker_card == "victarion-greyjoy":
                value = 2
        if kind == SHIP:
            for s, cid in card.items():
                if cid == "salladhor-saan" and self._is_supported(state, c, s) and state.houses[seat] != "baratheon":
                    return 0
        return value

    def _is_supported(self, state: GameState, c: Combat, seat: int) -> bool:
        side = "attacker" if seat == c.attacker else "defender"
        return any(v == side and a in state.orders for a, v in c.supporters.items())

    def _neutral_outcome(self, state: GameState, log: Log) -> None:
        """Rules §2.2: a neutral force falls when the attacking units' strength, the march
        modifier and the support given reach its value; no house cards, no Blade."""
        c = state.combat
        assert c is not None
        castle = BOARD.areas[c.area].castle
        total = sum(R.unit_strength(k, attacking_castle=castle) for k in c.army)
        total += ORDERS[c.march].modifier + self._support_strength(state, c, "attacker", {})
        need = state.neutral[c.area]
        self._end_combat_decisions(state)
        if total >= need:
            del state.neutral[c.area]
            self._enter(state, c.attacker, c.area, c.army, log)
            log.say("{0} defeats the neutral force in {a} ({t} against {n}) and marches in", c.attacker,
                    a=_area(c.area), t=total, n=need)
        else:
            log.say("{0} is too weak for the neutral force in {a} ({t} against {n}): the units stay in {o}",
                    c.attacker, a=_area(c.area), t=total, n=need, o=_area(c.origin))
            if not self._back_to_origin(state, log, then="neutral"):
                return
        state.combat = None

    def _back_to_origin(self, state: GameState, log: Log, *, routed: bool = False, then: str) -> bool:
        """The attacking army goes back to the area it marched from. If that would break its
        supply limits, units are lost until they fit: chosen by the attacker one at a time when
        the army mixes kinds (a ``supply_loss`` decision; False is returned and ``then`` says
        how the flow goes on once it is settled), else at once."""
        c = state.combat
        assert c is not None
        here = len(state.units.get(c.origin, []))
        keep = len(c.army)
        while keep and not R.supply_ok(state, c.attacker, {c.origin: here + keep}):
            keep -= 1
        lose = len(c.army) - keep
        if lose and keep and len(set(c.army)) > 1:
            state.decisions.push(Decision("supply_loss", [c.attacker], {
                "side": "attacker", "to": c.origin, "left": lose, "routed": routed, "then": then}))
            return False
        for kind in c.army[:lose]:
            log.say("{0} loses a {k} to supply going back to {o}", c.attacker, k=kind, o=_area(c.origin))
        c.army = c.army[lose:]
        if c.army:
            self._enter(state, c.attacker, c.origin, c.army, log, routed=routed)
        return True

    def _moves_supply_loss(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Supply on the way back or in a retreat: the owner chooses which unit to lose, one at
        a time, among the units that move."""
        return [self.MOVES.make("casualty", unit=k) for k in sorted(set(self._supply_loss_units(state, top)))]

    def _supply_loss_units(self, state: GameState, top: Decision | None) -> list[str]:
        c = state.combat
        assert c is not None and top is not None
        if top.data["side"] == "attacker":
            return list(c.army)
        return [u.kind for u in state.units.get(c.area, [])]

    def _do_supply_loss(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        c = state.combat
        assert c is not None and top is not None
        kind, to = move["unit"], top.data["to"]
        if top.data["side"] == "attacker":
            c.army.remove(kind)
            log.say("{0} loses a {k} to supply going back to {o}", seat, k=kind, o=_area(to))
        else:
            self._destroy(state, c.area, kind)
            log.say("{0} loses a {k} to supply while retreating to {o}", seat, k=kind, o=_area(to))
        top.data["left"] -= 1
        if top.data["left"] > 0:
            return
        state.decisions.pop()
        if top.data["side"] == "defender":
            self._retreat_to(state, to, log)
            return
        self._enter(state, c.attacker, to, c.army, log, routed=bool(top.data["routed"]))
        self._after_return(state, str(top.data["then"]), log)

    def _after_return(self, state: GameState, then: str, log: Log) -> None:
        """How the flow goes on once an attacking army is back in its area: the attack on a
        neutral force is over; a lost combat or Arianne's refusal goes on to its end."""
        c = state.combat
        assert c is not None
        if then == "neutral":
            state.combat = None
            return
        if then == "retreat" and c.army:
            log.say("{0} retreats {u} to {o}, routed", c.attacker, u=_kinds_text(c.army), o=_area(c.origin))
        elif then == "arianne":
            log.say("Arianne Martell: {0}'s units go back to {o}", c.attacker, o=_area(c.origin))
        c.army = []
        self._finish_combat(state, log)

    def _end_combat_decisions(self, state: GameState) -> None:
        while state.decisions.top is not None and state.decisions.top.kind != "combat":
            state.decisions.pop()
        if state.decisions.top is not None:
            state.decisions.pop()

    def _moves_cards(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Both combatants choose a house card from hand, hidden until both have chosen."""
        exclude = top.data.get("exclude") if top is not None else None
        return [self.MOVES.make("card", card=cid) for cid in sorted(state.hands[seat]) if cid != exclude]

    def _do_cards(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        c = state.combat
        assert c is not None
        c.cards.choose(seat, move["card"], ready=True)
        log.say("{0} chooses a house card", seat, privately={seat: "You choose {card}"},
                card=HOUSE_CARDS[move["card"]].name)

    def _after_cards(self, state: GameState, log: Log) -> None:
        """Both cards are revealed together (or, after Tyrion's cancel, the replacement); then
        the card texts' windows run: cancel, immediately, the Blade, the winner."""
        c = state.combat
        assert c is not None
        state.decisions.pop()  # the cards decision
        chosen = c.cards.reveal() if c.cards.asked else {}
        for s, cid in sorted(chosen.items()):
            c.card[int(s)] = str(cid)
            state.hands[s].remove(cid)
            log.say("{0} reveals {card}", s, card=HOUSE_CARDS[cid].name)
        if c.step == "cards":
            c.step = "cancel"
        self._card_windows(state, log)

    def _opponent(self, c: Combat, seat: int) -> int:
        assert c.defender is not None
        return c.defender if seat == c.attacker else c.attacker

    def _card_windows(self, state: GameState, log: Log) -> None:
        """House card texts by timing (Rules §3.3), the combatants in Iron Throne order: first
        cancel effects (Tyrion), then "immediately" effects (Queen of Thorns, Doran, Mace,
        Aeron), then the Valyrian Steel Blade and the winner."""
        c = state.combat
        assert c is not None and c.defender is not None
        order = [s for s in state.tracks["iron_throne"] if s in (c.attacker, c.defender)]
        if c.step == "cancel":
            for s in order:
                if (c.card.get(s) == "tyrion-lannister" and c.card.get(self._opponent(c, s)) is not None
                        and not c.notes.get("tyrion")):
                    c.notes["tyrion"] = True
                    state.decisions.push(Decision("ability", [s], {"card": "tyrion-lannister"}))
                    return
            c.step = "immediately"
        if c.step == "immediately":
            done: list[str] = c.notes.setdefault("done", [])
            for s in order:
                cid = c.card.get(s)
                if cid not in IMMEDIATE or cid in done:
                    continue
                done.append(cid)
                if cid == "mace-tyrell":
                    self._mace_tyrell(state, s, log)
                    continue
                if self._ability_moves(state, s, cid):
                    state.decisions.push(Decision("ability", [s], {"card": cid}))
                    return
                log.say("{card}: {0} has nothing to do", s, card=HOUSE_CARDS[cid].name)
            c.step = "blade"
            self._offer_blade(state, log)

    def _mace_tyrell(self, state: GameState, seat: int, log: Log) -> None:
        """Mace Tyrell: immediately destroy one of the opponent's attacking or defending footmen
        (footmen are alike, so no choice is asked)."""
        c = state.combat
        assert c is not None and c.defender is not None
        other = self._opponent(c, seat)
        if other == c.attacker and "footman" in c.army:
            c.army.remove("footman")
        elif other == c.defender and any(u.kind == "footman" and not u.routed for u in state.units.get(c.area, [])):
            self._destroy(state, c.area, "footman")
        else:
            log.say("Mace Tyrell: {0} has no footman of {1} to destroy", seat, other)
            return
        log.say("Mace Tyrell: {0} destroys a footman of {1}", seat, other)

    # -- house card texts that ask their owner ------------------------------------------------------
    def _ability_moves(self, state: GameState, seat: int, card: str) -> list[Move]:
        """The choices a card text gives its owner (the decline choice, when there is one, last)."""
        make = self.MOVES.make
        c = state.combat
        if card == "patchface":
            victim = self._patchface_victim(state, seat)
            if victim is None:
                return []
            return [*(make("ability", choice=x) for x in sorted(state.hands[victim])), make("ability", choice="none")]
        assert c is not None and c.defender is not None
        other = self._opponent(c, seat)
        if card == "tyrion-lannister":
            return [make("ability", choice="cancel"), make("ability", choice="keep")]
        if card == "aeron-damphair":
            if state.power[seat] < 2 or not state.hands[seat]:
                return []
            return [*(make("ability", choice=x) for x in sorted(state.hands[seat])), make("ability", choice="keep")]
        if card == "queen-of-thorns":
            return [make("ability", choice=a) for a in self._queen_targets(state, other)]
        if card == "doran-martell":
            return [make("ability", choice=t) for t in TRACKS]
        if card == "renly-baratheon":
            areas = self._renly_areas(state, seat)
            return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
        if card == "cersei-lannister":
            areas = sorted(a for a, o in state.orders.items() if o.seat == other)
            return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
        return []

    def _queen_targets(self, state: GameState, other: int) -> list[str]:
        """Queen of Thorns: the opponent's orders in areas adjacent to the embattled area (the
        march that started the combat is no longer on the board)."""
        c = state.combat
        assert c is not None
        return sorted(a for a in BOARD.adjacent[c.area] if a in state.orders and state.orders[a].seat == other)

    def _renly_areas(self, state: GameState, seat: int) -> list[str]:
        """Renly Baratheon: where a footman of the winner that took part (the embattled area
        stands for the attacking army) or a supporting Baratheon footman may become a knight."""
        c = state.combat
        assert c is not None
        if R.units_in_pool(state, seat, "knight") <= 0:
            return []
        out = []
        if seat == c.attacker and "footman" in c.army:
            out.append(c.area)
        if seat == c.defender and any(u.kind == "footman" for u in state.units.get(c.area, [])):
            out.append(c.area)
        side = "attacker" if seat == c.attacker else "defender"
        for area, chosen in sorted(c.supporters.items()):
            if (chosen == side and area in state.orders and state.owner.get(area) == seat
                    and state.houses[seat] == "baratheon"
                    and any(u.kind == "footman" for u in state.units.get(area, []))):
                out.append(area)
        return out

    def _patchface_victim(self, state: GameState, seat: int) -> int | None:
        top = state.decisions.top
        victim = top.data.get("victim") if top is not None and top.kind == "ability" else None
        if victim is None or not state.hands[victim]:
            return None
        return int(victim)

    def _moves_ability(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        assert top is not None
        return self._ability_moves(state, seat, top.data["card"])

    def _do_ability(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        assert top is not None
        state.decisions.pop()
        card, choice = top.data["card"], move["choice"]
        if card == "patchface":
            self._ability_patchface(state, seat, choice, int(top.data["victim"]), log)
            return
        getattr(self, "_ability_" + card.replace("-", "_"))(state, seat, choice, log)

    def _ability_tyrion_lannister(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Tyrion Lannister: cancel the opponent's card; it goes back to hand and the opponent
        chooses another (none left: it fights without a card)."""
        c = state.combat
        assert c is not None
        other = self._opponent(c, seat)
        if choice == "keep":
            log.say("Tyrion Lannister: {0} lets {1}'s card stand", seat, other)
            self._card_windows(state, log)
            return
        cancelled = c.card.pop(other)
        state.hands[other].append(cancelled)
        log.say("Tyrion Lannister: {0} cancels {1}'s {card}", seat, other, card=HOUSE_CARDS[cancelled].name)
        if any(x != cancelled for x in state.hands[other]):
            c.cards = Commitments.ask([other])
            state.decisions.push(Decision("cards", [other], {"exclude": cancelled}))
            return
        log.say("{0} has no other house card and fights without one", other)
        self._card_windows(state, log)

    def _ability_aeron_damphair(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Aeron Damphair: pay 2 Power tokens to discard Aeron and use another card instead."""
        c = state.combat
        assert c is not None
        if choice != "keep":
            state.power[seat] -= 2
            state.discards[seat].append(c.card[seat])
            state.hands[seat].remove(choice)
            c.card[seat] = choice
            log.say("Aeron Damphair: {0} pays 2 Power tokens, discards Aeron and reveals {card}", seat,
                    card=HOUSE_CARDS[choice].name)
        else:
            log.say("Aeron Damphair: {0} keeps Aeron", seat)
        self._card_windows(state, log)

    def _ability_queen_of_thorns(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Queen of Thorns: remove one of the opponent's orders next to the embattled area."""
        victim = state.orders.pop(choice)
        log.say("Queen of Thorns: {0} removes {1}'s {o} in {a}", seat, victim.seat, o=ORDERS[victim.token].name,
                a=_area(choice))
        self._card_windows(state, log)

    def _ability_doran_martell(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Doran Martell: the opponent goes to the last place of an influence track; the
        dominance tokens follow the first places (a used token stays used this round)."""
        c = state.combat
        assert c is not None
        other = self._opponent(c, seat)
        track = state.tracks[choice]
        track.remove(other)
        track.append(other)
        log.say("Doran Martell: {0} moves {1} to the last place of the {t} track", seat, other,
                t=TRACK_NAMES[choice])
        self._card_windows(state, log)

    def _ability_renly_baratheon(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Renly Baratheon: the winner may upgrade one footman that took part (or a supporting
        Baratheon footman) to a knight."""
        c = state.combat
        assert c is not None
        if choice != "none":
            if choice == c.area and seat == c.attacker:
                c.army[c.army.index("footman")] = "knight"
            else:
                next(u for u in state.units[choice] if u.kind == "footman").kind = "knight"
            log.say("Renly Baratheon: {0} upgrades a footman to a knight in {a}", seat, a=_area(choice))
        self._after_winner_window(state, log)

    def _ability_cersei_lannister(self, state: GameState, seat: int, choice: str, log: Log) -> None:
        """Cersei Lannister: the winner may remove one order of the loser anywhere."""
        if choice != "none":
            victim = state.orders.pop(choice)
            log.say("Cersei Lannister: {0} removes {1}'s {o} in {a}", seat, victim.seat,
                    o=ORDERS[victim.token].name, a=_area(choice))
        self._after_winner_window(state, log)

    def _ability_patchface(self, state: GameState, seat: int, choice: str, victim: int, log: Log) -> None:
        """Patchface: after the combat, look at the opponent's hand and discard one card of it."""
        if choice == "none":
            log.say("Patchface: {0} discards nothing", seat)
            return
        state.hands[victim].remove(choice)
        state.discards[victim].append(choice)
        log.say("Patchface: {0} discards {1}'s {card}", seat, victim, card=HOUSE_CARDS[choice].name)
        if not state.hands[victim]:
            state.hands[victim] = sorted(x for x in state.discards[victim] if x != choice)
            state.discards[victim] = [choice]
            log.say("{0} takes back its house cards", victim)

    def _offer_blade(self, state: GameState, log: Log) -> None:
        """The Valyrian Steel Blade: its holder, when a combatant, may add +1 once a round."""
        c = state.combat
        assert c is not None
        holder = state.tracks["fiefdoms"][0]
        if not state.blade_used and holder in (c.attacker, c.defender):
            state.decisions.push(Decision("blade", [holder]))
            return
        self._resolve_combat(state, log)

    def _moves_blade(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        return [self.MOVES.make("blade", use=True), self.MOVES.make("blade", use=False)]

    def _do_blade(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        c = state.combat
        assert c is not None
        state.decisions.pop()
        if move["use"]:
            c.blade = True
            state.blade_used = True
            log.say("{0} uses the Valyrian Steel Blade (+1)", seat)
        self._resolve_combat(state, log)

    def combat_totals(self, state: GameState) -> dict[int, int]:
        """Final combat strength of both sides (Rules §3.2–3.5)."""
        c = state.combat
        assert c is not None and c.defender is not None
        parts = self.combat_breakdown(state, final=True)
        return {c.attacker: int(parts["attacker"]["total"] or 0), c.defender: int(parts["defender"]["total"] or 0)}

    def combat_breakdown(self, state: GameState, *, final: bool = False) -> dict[str, dict[str, int | None]]:
        """Each side's strength by part, as far as it is known now (a part not known yet is
        None; ``final`` counts everything, at the winner's step): the units (with the house
        cards' unit texts once revealed), the March or Defense order, the garrison, the support
        declared so far, the house card once both are revealed, the Valyrian Steel Blade once
        its holder has decided, and the total of the known parts."""
        c = state.combat
        assert c is not None
        castle = BOARD.areas[c.area].castle
        att: dict[str, int | None] = {
            "units": sum(self._unit_value(state, c, c.attacker, k, False, castle, "attacker", c.card) for k in c.army),
            "order": ORDERS[c.march].modifier,
            "support": self._support_strength(state, c, "attacker", c.card),
        }
        if c.defender is None:
            att["total"] = sum(v or 0 for v in att.values())
            force = state.neutral.get(c.area, 0)
            return {"attacker": att, "defender": {"neutral_force": force, "total": force}}
        dfn_seat = c.defender
        defense = state.orders.get(c.area)
        bonus = 0
        if defense is not None and defense.seat == dfn_seat and ORDERS[defense.token].kind == "defense":
            bonus = ORDERS[defense.token].modifier * (2 if c.card.get(dfn_seat) == "catelyn-stark" else 1)
        dfn: dict[str, int | None] = {
            "units": sum(self._unit_value(state, c, dfn_seat, u.kind, u.routed, False, "defender", c.card)
                         for u in state.units.get(c.area, [])),
            "order": bonus,
            "garrison": state.garrisons[c.area] if state.homes.get(c.area) == dfn_seat and c.area in state.garrisons
            else 0,
            "support": self._support_strength(state, c, "defender", c.card),
        }
        top = state.decisions.top
        choosing = top is not None and top.kind == "cards"
        cards_known = final or (c.step not in ("support", "cards") and not choosing)
        blade_known = final or c.blade or c.winner is not None
        holder = state.tracks["fiefdoms"][0]
        for seat, other, parts in ((c.attacker, dfn_seat, att), (dfn_seat, c.attacker, dfn)):
            parts["card"] = self._card_strength(state, c, seat, other) if cards_known else None
            parts["blade"] = (1 if c.blade and seat == holder else 0) if blade_known else None
            parts["total"] = sum(v or 0 for v in parts.values())
        return {"attacker": att, "defender": dfn}

    def _card_strength(self, state: GameState, c: Combat, seat: int, other: int) -> int:
        cid = c.card.get(seat)
        if cid is None:
            return 0
        value = 0 if c.card.get(other) == "balon-greyjoy" else HOUSE_CARDS[cid].strength
        throne = state.tracks["iron_throne"]
        if cid == "stannis-baratheon" and throne.index(other) < throne.index(seat):
            value += 1
        if cid == "ser-davos-seaworth" and "stannis-baratheon" in state.discards[seat]:
            value += 1
        if cid == "theon-greyjoy" and seat == c.defender and BOARD.areas[c.area].castle:
            value += 1
        return value

    def icons(self, state: GameState, seat: int) -> tuple[int, int]:
        """Swords and fortifications of ``seat``'s house card in this combat, with their texts."""
        c = state.combat
        assert c is not None
        cid = c.card.get(seat)
        if cid is None:
            return 0, 0
        card = HOUSE_CARDS[cid]
        swords, forts = card.swords, card.fortifications
        if cid == "ser-davos-seaworth" and "stannis-baratheon" in state.discards[seat]:
            swords += 1
        if cid == "theon-greyjoy" and seat == c.defender and BOARD.areas[c.area].castle:
            swords += 1
        if cid == "asha-greyjoy" and not self._is_supported(state, c, seat):
            swords, forts = swords + 2, forts + 1
        if cid == "nymeria-sand":
            if seat == c.defender:
                forts += 1
            else:
                swords += 1
        return swords, forts

    def _resolve_combat(self, state: GameState, log: Log) -> None:
        """Rules §3.5–3.6: the higher total wins; a tie goes to the combatant higher on the
        Fiefdoms track. The loser takes casualties: the winner's swords less its fortifications."""
        c = state.combat
        assert c is not None and c.defender is not None
        totals = self.combat_totals(state)
        c.strength = totals
        att, dfn = c.attacker, c.defender
        if totals[att] != totals[dfn]:
            winner = att if totals[att] > totals[dfn] else dfn
        else:
            fief = state.tracks["fiefdoms"]
            winner = att if fief.index(att) < fief.index(dfn) else dfn
        loser = dfn if winner == att else att
        c.winner, c.loser = winner, loser
        log.say("{0} {a} against {1} {d}: {2} wins", att, dfn, winner, a=totals[att], d=totals[dfn])
        self._after_winner(state, log)
        c.step = "after_winner"
        self._after_winner_window(state, log)

    def _after_winner(self, state: GameState, log: Log) -> None:
        """House cards that act once the winner is known and ask nothing (Tywin, Roose)."""
        c = state.combat
        assert c is not None and c.winner is not None and c.loser is not None
        if c.card.get(c.winner) == "tywin-lannister":
            got = R.gain_power(state, c.winner, 2)
            log.say("Tywin Lannister: {0} gains {n} Power tokens", c.winner, n=got)
        if c.card.get(c.loser) == "roose-bolton":
            c.notes["roose"] = True

    def _after_winner_window(self, state: GameState, log: Log) -> None:
        """The winner's card texts that ask (Renly Baratheon, Cersei Lannister), then the
        casualties: the winner's swords less the loser's fortifications."""
        c = state.combat
        assert c is not None and c.winner is not None and c.loser is not None
        cid = c.card.get(c.winner)
        if cid in ("renly-baratheon", "cersei-lannister") and not c.notes.get("after_winner"):
            c.notes["after_winner"] = True
            if self._ability_moves(state, c.winner, cid):
                state.decisions.push(Decision("ability", [c.winner], {"card": cid}))
                return
            log.say("{card}: {0} has nothing to do", c.winner, card=HOUSE_CARDS[cid].name)
        swords, _ = self.icons(state, c.winner)
        _, forts = self.icons(state, c.loser)
        c.casualties = max(0, swords - forts)
        if c.card.get(c.loser) == "the-blackfish":
            c.casualties = 0
        c.step = "casualties"
        self._casualties_next(state, log)

    def _loser_units(self, state: GameState) -> list[str]:
        """Units the loser may lose as casualties: the attacking army, or the defender's
        units in the embattled area that are not routed."""
        c = state.combat
        assert c is not None
        if c.loser == c.attacker:
            return list(c.army)
        return [u.kind for u in state.units.get(c.area, []) if not u.routed]

    def _casualties_next(self, state: GameState, log: Log) -> None:
        c = state.combat
        assert c is not None and c.loser is not None
        units = self._loser_units(state)
        while c.casualties > 0 and units:
            if c.casualties >= len(units) or len(set(units)) == 1:
                self._lose_unit(state, units[0], log)
                c.casualties -= 1
                units = self._loser_units(state)
                continue
            state.decisions.push(Decision("casualties", [c.loser]))
            return
        c.casualties = 0
        self._retreat_step(state, log)

    def _lose_unit(self, state: GameState, kind: str, log: Log) -> None:
        c = state.combat
        assert c is not None and c.loser is not None
        if c.loser == c.attacker:
            c.army.remove(kind)
        else:
            self._destroy(state, c.area, kind)
        log.say("{0} loses a {k} in {a}", c.loser, k=kind, a=_area(c.area))

    def _moves_casualties(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        return [self.MOVES.make("casualty", unit=k) for k in sorted(set(self._loser_units(state)))]

    def _do_casualties(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        c = state.combat
        assert c is not None
        state.decisions.pop()
        self._lose_unit(state, move["unit"], log)
        c.casualties -= 1
        self._casualties_next(state, log)

    def _retreat_step(self, state: GameState, log: Log) -> None:
        """Rules §3.7: the losing attacker goes back where it came from, routed; the losing
        defender retreats all survivors to one legal area (routed), or loses them."""
        c = state.combat
        assert c is not None and c.loser is not None
        if c.loser == c.attacker:
            if c.army and not self._back_to_origin(state, log, routed=True, then="retreat"):
                return
            self._after_return(state, "retreat", log)
            return
        here = state.units.get(c.area, [])
        for u in list(here):
            if u.routed or u.kind == SIEGE:
                self._destroy(state, c.area, u.kind, routed_first=u.routed)
                log.say("{0}'s {k} in {a} cannot retreat and is destroyed", c.loser, k=u.kind, a=_area(c.area))
        kinds = [u.kind for u in state.units.get(c.area, [])]
        if not kinds:
            self._finish_combat(state, log)
            return
        options = self._retreat_options(state)
        if not options:
            for k in kinds:
                self._destroy(state, c.area, k)
            log.say("{0} has nowhere to retreat: {u} destroyed", c.loser, u=_kinds_text(kinds))
            self._finish_combat(state, log)
            return
        chooser = c.winner if c.card.get(c.winner or 0) == "robb-stark" else c.loser
        assert chooser is not None
        if len(options) == 1:
            self._retreat_to(state, options[0], log)
            return
        state.decisions.push(Decision("retreat", [chooser]))

    def _retreat_losses(self, state: GameState, to: str) -> int:
        """Units the retreating defender would lose to supply by retreating to ``to``."""
        c = state.combat
        assert c is not None and c.loser is not None
        moving = len(state.units.get(c.area, []))
        n = moving
        while n > 0:
            changes = {c.area: 0, to: len(state.units.get(to, [])) + n}
            if R.supply_ok(state, c.loser, changes):
                return moving - n
            n -= 1
        return moving

    def _retreat_options(self, state: GameState) -> list[str]:
        """Legal retreat areas; those breaking supply only when there is nothing else, and then
        those losing the fewest units. Robb Stark's owner must also pick one losing the fewest."""
        c = state.combat
        assert c is not None and c.loser is not None
        kinds = [u.kind for u in state.units.get(c.area, [])]
        areas = R.retreat_areas(state, c.loser, c.area, c.origin, kinds)
        if not areas:
            return []
        losses = {a: self._retreat_losses(state, a) for a in areas}
        best = min(losses.values())
        if best == 0 and c.card.get(c.winner or 0) != "robb-stark":
            return [a for a in areas if losses[a] == 0]
        return [a for a in areas if losses[a] == best]

    def _moves_retreat(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        return [self.MOVES.make("retreat", to=a) for a in self._retreat_options(state)]

    def _do_retreat(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        self._retreat_to(state, move["to"], log)

    def _retreat_to(self, state: GameState, to: str, log: Log) -> None:
        c = state.combat
        assert c is not None and c.loser is not None
        losses = self._retreat_losses(state, to)
        moving = state.units.get(c.area, [])
        if 0 < losses < len(moving) and len({u.kind for u in moving}) > 1:
            # the retreating house chooses which units supply costs it, one at a time
            state.decisions.push(Decision("supply_loss", [c.loser], {"side": "defender", "to": to, "left": losses}))
            return
        here = state.units.pop(c.area)
        del state.owner[c.area]
        state.orders.pop(c.area, None)
        # units lost to supply without a choice: all alike, or all of them
        lost, kept = here[:losses], here[losses:]
        if lost:
            log.say("{0} loses {u} to supply while retreating", c.loser, u=_kinds_text([u.kind for u in lost]))
        self._enter(state, c.loser, to, [u.kind for u in kept], log, routed=True)
        log.say("{0} retreats {u} from {a} to {b}, routed", c.loser, u=_kinds_text([u.kind for u in kept]),
                a=_area(c.area), b=_area(to))
        self._finish_combat(state, log)

    def _finish_combat(self, state: GameState, log: Log) -> None:
        """Rules §3.8: the winning attacker moves in (an enemy Power token there is discarded, a
        defeated home garrison removed, the loser's ships in the port destroyed); house cards go
        to the discard pile and a house with an empty hand takes its discards back."""
        c = state.combat
        assert c is not None and c.winner is not None
        arianne = c.winner == c.attacker and c.card.get(c.defender or 0) == "arianne-martell"
        if arianne and c.army:
            # Arianne Martell: the defender lost, but the attackers may not enter
            if self._back_to_origin(state, log, then="arianne"):
                self._after_return(state, "arianne", log)
            return
        if c.winner == c.attacker and c.army:
            if c.area in state.owner and state.owner[c.area] != c.attacker:
                raise AssertionError("the embattled area is still held")
            self._enter(state, c.attacker, c.area, c.army, log)
            state.garrisons.pop(c.area, None)
            log.say("{0} takes {a}", c.attacker, a=_area(c.area))
            if c.card.get(c.attacker) == "ser-loras-tyrell":
                # Ser Loras: the march order moves into the conquered area, to be resolved again
                state.orders[c.area] = PlacedOrder(c.attacker, c.march)
                log.say("Ser Loras Tyrell: {0}'s march order moves into {a}", c.attacker, a=_area(c.area))
        for seat, cid in sorted(c.card.items()):
            state.discards[seat].append(cid)
            if seat == c.loser and c.notes.get("roose"):
                state.hands[seat].extend(state.discards[seat])
                state.discards[seat] = []
                log.say("Roose Bolton: {0} takes back every discarded house card", seat)
            if not state.hands[seat]:
                keep = [x for x in state.discards[seat] if x != cid]
                state.hands[seat] = sorted(keep)
                state.discards[seat] = [cid]
                log.say("{0} takes back its house cards", seat)
        state.combat = None
        self._end_combat_decisions(state)
        for seat, cid in sorted(c.card.items()):
            other = self._opponent(c, seat)
            if cid == "patchface" and state.hands[other]:
                state.decisions.push(Decision("ability", [seat], {"card": "patchface", "victim": other}))

    # -- consolidate power ----------------------------------------------------------------------
    def _moves_consolidate(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        """Resolve one Consolidate Power order: collect power, or with the special order in a
        castle or stronghold area, muster there instead."""
        out = []
        for area in self._my_orders(state, seat, "consolidate"):
            out.append(self.MOVES.make("consolidate", area=area))
            if ORDERS[state.orders[area].token].special and BOARD.areas[area].castle:
                out.append(self.MOVES.make("muster", area=area))
        return out

    def _do_consolidate(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        state.decisions.pop()
        area = move["area"]
        del state.orders[area]
        if move["type"] == "muster":
            points = BOARD.areas[area].mustering_points
            state.decisions.push(Decision("muster", [seat], {"area": area, "points": points}))
            log.say("{0} musters in {a} ({n} points)", seat, a=_area(area), n=points)
            return
        got = R.gain_power(state, seat, R.crowns_power(state, seat, area))
        log.say("{0} consolidates power in {a}: +{n}", seat, a=_area(area), n=got)

    def _muster_options(self, state: GameState, seat: int, area: str, points: int) -> list[Move]:
        """Seed, Mustering: footman 1, knight 2, siege engine 2, ship 1 (into the port or an
        adjacent sea holding no enemy ship), a footman upgraded for 1; supply and the unit limits
        hold after each unit."""
        out = []
        costs = RULES.muster_costs
        for kind in ("footman", "knight", SIEGE):
            if costs[kind] <= points and R.units_in_pool(state, seat, kind) > 0:
                size = len(state.units.get(area, []))
                if R.supply_ok(state, seat, {area: size + 1}):
                    out.append(self.MOVES.make("recruit", unit=kind, to=area))
        if costs[SHIP] <= points and R.units_in_pool(state, seat, SHIP) > 0:
            for b in sorted(BOARD.adjacent[area]):
                a = BOARD.areas[b]
                sea_ok = a.kind == SEA and state.owner.get(b, seat) == seat and R.passable(state, b)
                port_ok = a.kind == PORT and a.port_of == area and len(state.units.get(b, [])) < RULES.port_capacity
                if not (sea_ok or port_ok):
                    continue
                if R.supply_ok(state, seat, {b: len(state.units.get(b, [])) + 1}):
                    out.append(self.MOVES.make("recruit", unit=SHIP, to=b))
        if RULES.upgrade_cost <= points and any(u.kind == "footman" for u in state.units.get(area, [])):
            for kind in ("knight", SIEGE):
                if R.units_in_pool(state, seat, kind) > 0:
                    out.append(self.MOVES.make("recruit", unit=f"upgrade:{kind}", to=area))
        return out

    def _moves_muster(self, state: GameState, seat: int, top: Decision | None) -> list[Move]:
        assert top is not None
        return [*self._muster_options(state, seat, top.data["area"], top.data["points"]),
                self.MOVES.make("end_muster")]

    def _do_muster(self, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
        assert top is not None
        if move["type"] == "end_muster":
            state.decisions.pop()
            return
        unit, to = move["unit"], move["to"]
        if unit.startswith("upgrade:"):
            kind = unit.split(":", 1)[1]
            for u in state.units[to]:
                if u.kind == "footman":
                    u.kind = kind
                    break
            top.data["points"] -= RULES.upgrade_cost
            log.say("{0} upgrades a footman to a {k} in {a}", seat, k=kind, a=_area(to))
        else:
            self._enter(state, seat, to, [unit], log)
            top.data["points"] -= RULES.muster_costs[unit]
            log.say("{0} musters a {k} in {a}", seat, k=unit, a=_area(to))
        if top.data["points"] <= 0:
            state.decisions.pop()

    def _auto_muster(self, state: GameState, top: Decision, log: Log) -> bool:
        if not self._muster_options(state, top.seats[0], top.data["area"], top.data["points"]):
            state.decisions.pop()
            return True
        return False

    def _auto_combat(self, state: GameState, top: Decision, log: Log) -> bool:
        raise AssertionError("a combat is always waiting on one of its steps")

    # -- refusals -------------------------------------------------------------------------------
    def _explain(self, state: GameState, seat: int, move: Move) -> IllegalMove:
        """The most specific rule a well-shaped but unlisted move breaks."""
        top = state.decisions.top
        kind = top.kind if top is not None else "orders"
        t = move["type"]
        house = _name(state.houses[seat])
        if kind == "orders":
            if t in ("order", "unorder"):
                area, token = move["area"], move.get("order")
                if area not in BOARD.areas or area not in R.order_areas(state, seat):
                    return IllegalMove(f"{house} can place orders only on areas holding its units.", rule=RULE_PLANNING)
                if t == "unorder":
                    return IllegalMove(f"{house} has no order in {_area(area)} to remove.", rule=RULE_PLANNING)
                if token not in ORDERS:
                    return IllegalMove(f"There is no order token {token!r}.", rule=RULE_PLANNING)
                why = R.may_place(state, seat, self._placed(state, seat), area, str(token))
                if why == "restricted":
                    return IllegalMove(f"{ORDERS[token].name} orders may not be placed this round.",
                                       rule=RULE_RESTRICTED)
                if why == "stars":
                    return IllegalMove(f"{house} may place only {R.star_limit(state, seat)} special orders, "
                                       "by its King's Court position.", rule=RULE_STARS)
                if why == "used":
                    return IllegalMove(f"{house} has no {ORDERS[token].name} token left.", rule=RULE_PLANNING)
                return IllegalMove(f"That order is already in {_area(area)}.", rule=RULE_PLANNING)
            if t == "ready":
                return IllegalMove(f"{house} must first place an order on every area holding its units.",
                                   rule=RULE_PLANNING)
            return IllegalMove("It is the Planning phase: place orders, then declare yourself ready.",
                               rule=RULE_PLANNING)
        rules = {"raven": RULE_RAVEN, "wildling": RULE_RAVEN, "raid": RULE_RAID, "march": RULE_MARCH,
                 "support": RULE_SUPPORT, "cards": RULE_CARDS, "blade": RULE_BLADE, "casualties": RULE_CASUALTIES,
                 "retreat": RULE_RETREAT, "consolidate": RULE_CONSOLIDATE, "muster": RULE_MUSTER,
                 "ability": RULE_ABILITY, "port": RULE_PORT, "supply_loss": RULE_SUPPLY,
                 **W.RULES_BY_KIND, **WL.RULES_BY_KIND}
        if kind == "march_moves" and top is not None:
            if t == "end_march":
                changes, _ = self._march_plan(state, seat, top.data["from"], top.data["staged"])
                if not R.supply_ok(state, seat, changes):
                    return IllegalMove(f"This march would leave {house} with armies beyond its supply limit.",
                                       rule=RULE_SUPPLY)
                return IllegalMove(f"{house} may not leave a Power token in {_area(top.data['from'])}.",
                                   rule=RULE_POWER_TOKEN)
            if t == "move":
                to = move["to"]
                _, attack = self._march_plan(state, seat, top.data["from"], top.data["staged"])
                if to in BOARD.areas and attack is not None and to != attack and R.is_attack(state, seat, to):
                    return IllegalMove(f"This march already attacks {_area(attack)}.", rule=RULE_ONE_ATTACK)
                if to in state.blocked:
                    return IllegalMove(f"{_area(to)} is blocked in this game.", rule=RULE_MARCH)
                return IllegalMove(f"No {move['unit']} in {_area(top.data['from'])} may march to "
                                   f"{_area(to) if to in BOARD.areas else to!r}.", rule=RULE_MARCH)
            return IllegalMove("Move units, undo, or end the march.", rule=RULE_MARCH)
        what = {"cards": "choose a house card from your hand"}.get(kind, "choose one of the listed moves")
        return IllegalMove(f"{house} cannot do that now: {what}.", rule=rules.get(kind, RULE_TURN))

    # -- views ----------------------------------------------------------------------------------
    def view(self, state: GameState, seat: int | None) -> View:
        areas = []
        planning = state.phase == PLANNING and state.planning.open
        own = self._placed(state, seat) if planning and seat is not None else {}
        for area in BOARD.areas:
            entry: dict[str, Any] = {"id": area}
            if area in state.units:
                entry["units"] = [{"kind": u.kind, "routed": u.routed} for u in state.units[area]]
                entry["seat"] = state.owner[area]
            if area in state.tokens:
                entry["power_token"] = state.tokens[area]
            if area in state.garrisons:
                entry["garrison"] = state.garrisons[area]
            if area in state.neutral:
                entry["neutral_force"] = state.neutral[area]
            if area in state.blocked:
                entry["blocked"] = True
            if area in state.orders:
                o = state.orders[area]
                entry["order"] = {"seat": o.seat, "token": o.token}
            elif area in own:
                entry["order"] = {"seat": seat, "token": own[area], "hidden": True}
            holder = R.controller(state, area)
            if holder is not None:
                entry["controller"] = holder
            if len(entry) > 1:
                areas.append(entry)
        c = state.combat
        combat = None
        if c is not None:
            combat = {"attacker": c.attacker, "defender": c.defender, "area": c.area, "from": c.origin,
                      "army": list(c.army), "march": c.march, "supporters": dict(c.supporters),
                      "cards": {str(s): v for s, v in c.card.items()},
                      "chosen": c.cards.public()["chosen"] if c.cards.open else [],
                      "my_card": c.cards.own(seat) if c.cards.open else None, "strength":
                      {str(s): v for s, v in c.strength.items()}, "winner": c.winner, "blade": c.blade,
                      "breakdown": self.combat_breakdown(state)}
        top = state.decisions.top
        return {
            "round": state.round, "phase": state.phase, "step": state.step, "seat": seat,
            "houses": list(state.houses), "areas": areas,
            "tracks": {t: list(v) for t, v in state.tracks.items()},
            "supply": list(state.supply), "power": list(state.power),
            "power_pool": [R.power_pool(state, s) for s in range(state.seats)],
            "castles": [R.castles_held(state, s) for s in range(state.seats)],
            "hands": {str(s): sorted(h) for s, h in enumerate(state.hands)},
            "discards": {str(s): list(d) for s, d in enumerate(state.discards)},
            "planning": ({**state.planning.public(),
                          "placed": {str(s): len(v or {}) for s, v in state.planning.choices.items()}}
                         if planning else None),
            "restricted": list(state.restricted),
            "raven_used": state.raven_used, "blade_used": state.blade_used,
            "wildlings": state.wildlings, "wildling_deck": len(state.wildling_deck),
            "wildling_top": (state.wildling_deck[0] if seat is not None and seat == state.raven_saw
                             and state.wildling_deck else None),
            "westeros_decks": {d: len(p) for d, p in state.westeros_decks.items()},
            "westeros_cards": list(state.revealed),
            "wildling_last": state.wildling_last or None,
            "bids": ({**state.bids.public(), "mine": state.bids.own(seat)} if state.bids.open else None),
            "bid_results": [dict(r) for r in state.bid_results],
            "combat": combat,
            "decision": top.kind if top is not None else ("orders" if planning else None),
            "awaited": sorted(self.awaited(state)),
            "winner": state.winner,
            "prompt": self._prompt(state, seat),
        }

    def _prompt(self, state: GameState, seat: int | None) -> dict[str, Any] | None:
        if seat is None or seat not in self.awaited(state):
            return None
        top = state.decisions.top
        kind = top.kind if top is not None else "orders"
        moves = self.legal_moves(state, seat)
        texts = {
            "orders": "Place an order on every area holding your units, then declare yourself ready",
            "raven": "Messenger Raven: swap one of your orders, look at the top wildling card, or pass",
            "wildling": "Keep the wildling card on top of the deck, or bury it at the bottom",
            "raid": "Resolve one of your Raid orders",
            "march": "Choose which March order to resolve",
            "march_moves": "Move units one by one, then end the march",
            "support": "Choose whom your Support orders back in this combat",
            "cards": "Choose a house card for this combat",
            "blade": "Use the Valyrian Steel Blade (+1)?",
            "casualties": "Choose a unit to lose",
            "retreat": "Choose where the defeated units retreat",
            "consolidate": "Resolve one of your Consolidate Power orders",
            "muster": "Muster units, then end mustering",
            "port": "You took a port: replace the captured ships with your own?",
            "supply_loss": "Supply: choose a unit to lose so the units that move fit your supply",
        }
        text = texts.get(kind) or W.PROMPTS.get(kind) or WL.PROMPTS.get(kind) or "Decide"
        if kind == "ability" and top is not None:
            text = ABILITY_PROMPTS[top.data["card"]]
        if kind == "westeros_choice" and top is not None:
            text = W.WESTEROS_CHOICE_PROMPTS[top.data["card"]]
        if kind == "wildling_choice" and top is not None:
            text = WL.CHOICE_PROMPTS[top.data["card"]]
        return prompt(kind, text, moves, self._label, **(top.data if top else {}))

    def _label(self, move: Move) -> str:
        t = move["type"]
        if t == "order":
            return f"{ORDERS[move['order']].name} in {_area(move['area'])}"
        if t == "unorder":
            return f"Take back the order in {_area(move['area'])}"
        if t == "raven_swap":
            return f"Raven: {ORDERS[move['order']].name} in {_area(move['area'])}"
        if t == "raid":
            return (f"Raid from {_area(move['area'])} on {_area(move['target'])}" if move["target"]
                    else f"Remove the raid in {_area(move['area'])}")
        if t in ("march", "consolidate", "muster"):
            return f"{t.capitalize()} in {_area(move['area'])}"
        if t == "move":
            return f"Move a {move['unit']} to {_area(move['to'])}"
        if t == "end_march":
            return "End the march, leaving a Power token" if move["power"] else "End the march"
        if t == "support":
            return {"attacker": "Support the attacker", "defender": "Support the defender"}.get(
                move["side"], "Support nobody")
        if t == "card":
            return HOUSE_CARDS[move["card"]].name
        if t == "blade":
            return "Use the blade" if move["use"] else "Keep the blade"
        if t == "casualty":
            return f"Lose a {move['unit']}"
        if t == "retreat":
            return f"Retreat to {_area(move['to'])}"
        if t == "recruit":
            return f"{move['unit']} in {_area(move['to'])}"
        if t == "wildling":
            return "Bury it" if move["bury"] else "Keep it on top"
        if t == "replace":
            return f"Replace {move['ships']} ship(s)" if move["ships"] else "Destroy them all"
        if t == "ability":
            return self._ability_label(move["choice"])
        if t == "choose":
            return W.OPTION_NAMES.get(move["option"]) or self._ability_label(move["option"])
        if t == "bid":
            return f"Bid {move['power']}"
        if t == "rank":
            return HOUSES[move["house"]].name
        if t == "destroy":
            return f"Destroy a {move['unit']} in {_area(move['area'])}"
        return {"ready": "Ready", "raven_look": "Look at the top wildling card", "raven_pass": "Pass",
                "undo": "Undo the last step", "end_muster": "End mustering"}.get(t, str(t))

    def _ability_label(self, choice: str) -> str:
        if choice in BOARD.areas:
            return _area(choice)
        if choice in HOUSE_CARDS:
            return HOUSE_CARDS[choice].name
        if choice in TRACK_NAMES:
            return f"The {TRACK_NAMES[choice]} track"
        return {"cancel": "Cancel the card", "keep": "Keep it", "none": "Nothing", "done": "Stop here",
                "units": "Destroy 2 units"}.get(choice, choice)

    # -- hidden information -----------------------------------------------------------------------
    def determinize(self, state: GameState, seat: int | None, rng: Rng) -> GameState:
        """Re-draw what ``seat`` cannot see: others' face-down orders (the same number placed, on
        their areas), others' chosen house cards, others' bids, the wildling deck and the Westeros
        decks (but the cards seen: the top wildling card for the seat that looked, the cards
        revealed at the bottom), and the generator."""
        out = copy.deepcopy(state)
        if out.planning.open:
            for s in list(out.planning.choices):
                if s == seat:
                    continue
                n = len(out.planning.choices[s] or {})
                out.planning.choices[s] = self._random_orders(out, s, n, rng)
        c = out.combat
        if c is not None and c.cards.open:
            top = out.decisions.top
            exclude = top.data.get("exclude") if top is not None and top.kind == "cards" else None
            for s in list(c.cards.choices):
                options = sorted(x for x in out.hands[s] if x != exclude)
                if s != seat and options:
                    c.cards.choices[s] = rng.choice(options)
        if out.bids.open:
            for s in list(out.bids.choices):
                if s != seat:
                    out.bids.choices[s] = rng.below(out.power[s] + 1)
        # the wildling deck: the top card stays for the seat that looked at it, the cards seen at
        # the bottom stay; the rest is re-drawn; the same for each Westeros deck
        keep = 1 if seat is not None and seat == out.raven_saw else 0
        end = len(out.wildling_deck) - out.wildling_known
        if end > keep:
            rest = out.wildling_deck[keep:end]
            rng.shuffle(rest)
            out.wildling_deck[keep:end] = rest
        for deck, pile in out.westeros_decks.items():
            end = len(pile) - out.westeros_known.get(deck, 0)
            rest = pile[:end]
            rng.shuffle(rest)
            pile[:end] = rest
        out.rng = rng.fork()
        return out

    def _random_orders(self, state: GameState, seat: int, n: int, rng: Rng) -> dict[str, str]:
        areas = R.order_areas(state, seat)
        rng.shuffle(areas)
        placed: dict[str, str] = {}
        for area in areas[:n]:
            options = [t for t in ORDERS if R.may_place(state, seat, placed, area, t) is None]
            if options:
                placed[area] = rng.choice(options)
        return placed


PHASE_MOVES: dict[str, W.Mover] = {**W.MOVES, **WL.MOVES}
PHASE_DO: dict[str, W.Doer] = {**W.DO, **WL.DO}
PHASE_AUTO: dict[str, W.Auto] = {**W.AUTO, **WL.AUTO}
"""The Westeros phase's and the wildlings' decisions (their moves, effects and automatic ends)."""

ENGINE = GameOfThrones()

__all__ = ["ENGINE", "LAND", "SEA", "TRACK_NAMES", "GameOfThrones"]
