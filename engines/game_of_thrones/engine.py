"""A Game of Thrones (2nd edition) on the engine kit: the protocol, setup, and the round's flow
(Westeros, Planning, Action, clean-up, victory).

The flow is a stack of decisions (``state.decisions``): a march inside the action phase, a
combat inside a march, a retreat inside a combat. ``_advance`` runs everything that needs no
decision and stops at the next one. Each decision kind has its moves, its effect and maybe an
automatic end in the module of its phase (``planning``, ``marches``, ``combat``, ``retreats``,
``abilities``, ``consolidate``, ``units``, ``bidding``, ``westeros``, ``wildlings``), gathered in
``kinds.py``; the rules themselves (control, supply, movement, strength …) are in ``rules.py``,
the turn (who is awaited, prompts, the frame of refusals) in ``turn.py``, the most specific rule
a move breaks in ``refusals.py``, views in ``views.py``. This module is the top of the
package: of its modules only ``__init__`` imports it, and the phases receive the state, not the
engine.

>>> from engines.game_of_thrones import ENGINE
>>> state = ENGINE.new_game(3, seed=7, options={})
>>> sorted(ENGINE.to_act(state))
[0, 1, 2]
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Event, IllegalMove, Move, Result, View
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import kinds as K
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import refusals as X
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import table as T
from engines.game_of_thrones import units as U
from engines.game_of_thrones import views as V
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones.components import (
    HOUSES,
    LAND,
    ORDERS,
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
from engines.game_of_thrones.kinds import AUTO_BY_KIND, DO_BY_KIND
from engines.game_of_thrones.shared import area_name, house_name
from engines.game_of_thrones.state import (
    ACTION,
    CONSOLIDATE,
    MARCH,
    OVER,
    PLANNING,
    RAID,
    WESTEROS,
    GameState,
    PlacedOrder,
    Unit,
)
from engines.game_of_thrones.turn import TURN
from engines.kit import Decision, KitEngine, Log, Rng, counted


class GameOfThrones(KitEngine[GameState]):
    id = "game_of_thrones"
    title = "A Game of Thrones"
    tagline = "Orders in secret, marches in turn: seven castles take the Iron Throne."
    min_seats = 3
    max_seats = 6
    diplomacy = True  # the site offers private chats between houses (off unless a game says so)
    State = GameState
    MOVES = T.MOVES
    TURN = TURN

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
    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        return K.legal_moves(state, seat)

    def check(self, state: GameState, seat: int, move: Move) -> IllegalMove | None:
        """A move of the step the seat is at that is not listed breaks the most specific rule
        ``refusals.explain`` finds (the turn has refused the game's end, a seat not awaited and a
        move of another step)."""
        if move in K.legal_moves(state, seat):
            return None
        return X.explain(state, seat, move)

    def apply(self, state: GameState, seat: int, move: Move) -> list[Event]:
        log = Log()
        top = state.decisions.top
        if top is None:
            P.do_orders(state, seat, move, None, log)
        else:
            DO_BY_KIND[top.kind](state, seat, move, top, log)
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

    def round_of(self, state: GameState) -> int:
        """The game round (replays jump between rounds)."""
        return state.round

    def static_view(self, state: GameState) -> View:
        return static_data()

    def seat_labels(self, state: GameState) -> list[str]:
        """Each seat's house (private chats name their members by house: "Stark (Ada)")."""
        return [house_name(h) for h in state.houses]

    # -- the round ------------------------------------------------------------------------------
    def _start_round(self, state: GameState, log: Log) -> None:
        """Seed, the game round: Westeros (not in round 1), Planning, Action."""
        log.say("Round {r} begins", r=state.round)
        state.restricted = []
        if state.round > 1:
            W.start(state, log)
            return
        P.begin_planning(state)

    def _advance(self, state: GameState, log: Log) -> None:
        """Run what needs no decision until a decision is due or the game is over."""
        for _ in range(10_000):
            if state.phase == OVER:
                return
            if self._check_victory(state, log):
                return
            if state.pending:
                U.flush_pending(state)
            if state.decisions.top is not None:
                if self._auto(state, log):
                    continue
                return
            if state.phase == WESTEROS:
                W.run_task(state, log)
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
                        orders="; ".join(f"{ORDERS[t].name} in {area_name(a)}" for a, t in mine))
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
        state.winner = max(range(state.seats), key=lambda seat: R.final_standing(state, seat))
        state.phase, state.ended_by = OVER, "round 10"
        log.say("The tenth round is over: {0} wins with {n}", state.winner,
                n=counted(R.castles_held(state, state.winner), "castle or stronghold", "castles and strongholds"))

    def _auto(self, state: GameState, log: Log) -> bool:
        """Resolve the top decision without a player when it leaves no choice; True if it did."""
        top = state.decisions.top
        assert top is not None
        if top.kind == "cards" and state.combat is not None:
            c = state.combat
            if not c.cards.open or c.cards.everyone_ready():
                C.after_cards(state, log)
                return True
        auto = AUTO_BY_KIND.get(top.kind)
        return auto is not None and auto(state, top, log)

    # -- views ----------------------------------------------------------------------------------
    def view(self, state: GameState, seat: int | None) -> View:
        return V.view(state, seat)

    def views(self, state: GameState, seats: Iterable[int | None],
              legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
        return V.views(state, seats, legal)

    # -- hidden information -----------------------------------------------------------------------
    def determinize(self, state: GameState, seat: int | None, rng: Rng) -> GameState:
        """Re-draw what ``seat`` cannot see: others' face-down orders (their kinds: where they lie is
        public), others' chosen house cards, others' bids, the wildling deck and the Westeros
        decks (but the cards seen: the top wildling card for the seat that looked, the cards
        revealed at the bottom), and the generator."""
        out = copy.deepcopy(state)
        if out.planning.open:
            for s in list(out.planning.choices):
                if s == seat:
                    continue
                out.planning.choices[s] = P.random_kinds(out, s, out.planning.choices[s] or {}, rng)
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


ENGINE = GameOfThrones()

__all__ = ["ENGINE", "LAND", "SEA", "TRACK_NAMES", "GameOfThrones"]
