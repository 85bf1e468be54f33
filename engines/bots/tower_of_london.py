"""Tower of London's bot hooks.

Hidden from a seat (``engines/tower_of_london/view.py``): each other seat's hand, deck and
unrevealed picks (their sizes are known), the others' keeps until revealed, every deck's order
(its own too) and the face-down events. ``canonical`` sorts each other seat's unseen cards and
deals them back in the same sizes, sorts the seat's own deck, and puts a fixed keep in place of
each other seat's chosen one, so ``determinize`` of the result depends only on what the seat sees
and on the bot's generator (events are re-drawn from the sorted unseen ones by ``determinize``
itself). Games are about fifty moves long: playouts run to the end.
"""

from __future__ import annotations

from typing import Any

from engines.bots.hooks import Hooks
from engines.tower_of_london import rules as R


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


HOOKS = Hooks(canonical=canonical)
