"""Tower of London's bot hooks.

Hidden from a seat (``engines/tower_of_london/view.py``): each other seat's hand, deck and
unrevealed picks (their sizes are known), the others' keeps until revealed, every deck's order
(its own too) and the face-down events. ``canonical`` sorts each other seat's unseen cards and
deals them back in the same sizes, sorts the seat's own deck, and puts a fixed keep in place of
each other seat's chosen one, so ``determinize`` of the result depends only on what the seat sees
and on the bot's generator (events are re-drawn from the sorted unseen ones by ``determinize``
itself). A playout is 24 moves of easy play (about a step of the game); then ``evaluate``
projects the ravens the areas still to be scored would give as they stand. A playout that
finishes the game rewards the lead in ravens as well as the win (``margin``).
"""

from __future__ import annotations

from typing import Any

from engines.base import Engine
from engines.bots.hooks import Hooks
from engines.bots.ismcts import lead
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import AREAS_SCORED, ROUNDS

LATER_ROUNDS = 0.5
"""How much an area's standing counts toward a later round's scoring than this round's."""


def canonical(state: Any, seat: int) -> Any:
    d = state.clone()
    for s in range(d.seats):
        if s == seat:
            continue
        picked: list[int] = []
        if d.phase == R.PICK and d.choosing.has_chosen(s):
            picked = list(d.choosing.choices[s])
        elif d.phase == R.REVEAL:
            picked = d.picks[s][d.revealed[s]:]
        pool = sorted([*d.hands[s], *d.decks[s], *picked])
        n_hand, n_deck = len(d.hands[s]), len(d.decks[s])
        d.hands[s] = pool[:n_hand]
        d.decks[s] = pool[n_hand:n_hand + n_deck]
        picked = pool[n_hand + n_deck:]
        if d.phase == R.PICK and d.choosing.has_chosen(s):
            d.choosing.choices[s] = picked
        elif d.phase == R.REVEAL:
            d.picks[s][d.revealed[s]:] = picked
        elif d.phase == R.KEEP and d.choosing.has_chosen(s):
            d.choosing.choices[s] = sorted(d.played[s])[:len(d.choosing.choices[s])]
    if seat in range(d.seats):
        d.decks[seat].sort()
    return d


def projected(state: Any) -> list[float]:
    """Each seat's ravens, plus those the areas still to be scored would give it as they stand
    (later rounds' at half weight)."""
    out = [float(r) for r in state.ravens]
    if state.phase == R.OVER:
        return out
    for rnd in range(state.round, ROUNDS + 1):
        weight = 1.0 if rnd == state.round else LATER_ROUNDS
        for area in AREAS_SCORED[rnd]:
            for place, entry in enumerate(R.area_ranking(state, area), start=1):
                out[entry["seat"]] += weight * R.ravens_for_place(state, area, place)
    return out


def evaluate(engine: Engine, state: Any) -> list[float]:
    ravens = projected(state)
    return [lead(ravens, s, 2.0) for s in range(len(ravens))]


HOOKS = Hooks(canonical=canonical, margin=2.0, evaluate=evaluate, depth=24)
