"""London's bot hooks.

Hidden from a seat (``engines/london/hidden.py``): the other hands, the order of the city deck
and of the borough deck, St Pancras's cards (but to the player looking at them). ``canonical``
sorts the unseen cards of each set (A, B, C) among the unseen slots of that set, and sorts the
borough deck, so ``determinize`` of the result depends only on what the seat sees.

A random game of London is some 500 moves long, too long to play out a few hundred times a second.
So a playout is a few turns of easy play, then ``evaluate`` scores the position as if the game
ended there, except that cards in hand are not yet poverty; each seat's reward is a logistic of
its lead over the best other seat.

Easy play never takes a loan it was not forced to (a loan costs £15 back or 7 points).
"""

from __future__ import annotations

import math
from typing import Any

from engines.base import Engine, Move
from engines.bots.hooks import Hooks
from engines.kit import snapshot
from engines.london import scoring
from engines.london.components import BOROUGHS, CARDS, ERAS
from engines.london.hidden import unseen_places
from engines.london.state import REPAY_COST, State

LEAD_SCALE = 6.0
"""Points of lead that make a reward of about 0.73 (a logistic's unit)."""


def canonical(state: Any, seat: int) -> Any:
    s: State = snapshot.decode(State, snapshot.encode(state))
    places = unseen_places(s, seat)
    for era in ERAS:
        slots = [(place, i) for place in places for i, c in enumerate(place) if CARDS[c].era == era]
        cards = sorted(place[i] for place, i in slots)
        for (place, i), c in zip(slots, cards, strict=True):
            place[i] = c
    s.borough_deck.sort()
    return s


def sensible(engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """No voluntary loan while anything else may be done."""
    return [m for m in moves if m["type"] != "take_loan"]


def standing(s: State) -> list[float]:
    """Each seat's points if the game ended now, its hand not counted as poverty."""
    rows = []
    for p in s.players:
        card_vp = sum(CARDS[c].prestige for st in p.stacks for c in st)
        repaid = min(p.loans, p.money // REPAY_COST)
        money = p.money - repaid * REPAY_COST
        rows.append((p.prestige + card_vp + money / scoring.MONEY_PER_VP
                     - scoring.UNPAID_LOAN_PENALTY * (p.loans - repaid), p.poverty))
    lowest = min(poverty for _, poverty in rows)
    return [points - scoring.poverty_penalty(poverty - lowest) for points, poverty in rows]


def evaluate(engine: Engine, state: Any) -> list[float]:
    points = standing(state)
    out = []
    for i, mine in enumerate(points):
        best_other = max(p for j, p in enumerate(points) if j != i)
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / LEAD_SCALE)))
    return out


def components(engine: Engine, state: Any) -> dict[str, list[int]]:
    """Balance: every borough and every card design in a display at the end -> who held it."""
    out: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        for key in p.boroughs:
            out.setdefault(f"borough {BOROUGHS[key].name}", []).append(seat)
        for design in sorted({CARDS[c].key for st in p.stacks for c in st}):
            out.setdefault(f"card {design}", []).append(seat)
    return out


HOOKS = Hooks(canonical=canonical, sensible=sensible, evaluate=evaluate, depth=20, components=components)
