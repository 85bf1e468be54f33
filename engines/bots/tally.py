"""Tally's bot hooks (the worked example of tests/support/tinygame.py).

Hidden from a seat: the other hands, the deck's order, the others' votes. ``canonical`` sorts the
unseen cards and deals them back in the same sizes, and sets the others' votes to 1, so
``determinize`` of the result depends on what the seat sees and on the bot's generator only.
Games are a few moves long: playouts run to the end, no evaluation needed.
"""

from __future__ import annotations

import copy
from typing import Any

from engines.bots.hooks import Hooks


def canonical(state: Any, seat: int) -> Any:
    out = copy.deepcopy(state)
    places = [out.deck, *(h for s, h in enumerate(out.hands) if s != seat)]
    pool = sorted(c for place in places for c in place)
    for place in places:
        n = len(place)
        place[:], pool = pool[:n], pool[n:]
    for s in out.votes.choices:
        if s != seat:
            out.votes.choices[s] = 1
    return out


HOOKS = Hooks(canonical=canonical)
