"""Towers of Babylon's bot hooks.

Hidden from a seat (``TowersOfBabylon.determinize``): the other hand but the cards it saw go there,
the other deck's order, its own deck's order above the cards it put on the bottom, and the other
seat's deck choice or mulligan while they are secret. ``canonical`` sorts the unseen cards of the
other seat (its unknown hand cards and its deck, pooled) and deals them back in the same sizes,
sorts the seat's own deck above its known bottom, and puts a fixed deck choice and an empty
mulligan in place of the other seat's secret ones, so ``determinize`` of the result depends only
on what the seat sees. Easy play takes a ready-made deck (the pool is some 350 cards: a deck built
at random would be no deck), leaves the page's window settings alone, and pays for a card the way
the page preselects (the cheapest for later, listed first): the other ways to pay would multiply
the moves to search without a short playout telling them apart. A playout is 30 moves
of easy play, then ``evaluate`` weighs the towers and the minions in play; a playout that
finishes the game rewards the lead in tower height as well as the win.
"""

from __future__ import annotations

import copy
from typing import Any

from engines.base import Engine, Move
from engines.bots.hooks import Hooks
from engines.bots.ismcts import lead
from engines.towers_of_babylon.playout import cheapest_ways

MINION_WORTH = 0.5
"""Tower levels a minion in play is worth per point of its might (what it may build or strike)."""


def canonical(state: Any, seat: int) -> Any:
    out = copy.deepcopy(state)
    for s, pl in enumerate(out.players):
        if s == seat:
            pl.deck[pl.known_bottom:] = sorted(pl.deck[pl.known_bottom:])
            continue
        known = [i for i in pl.hand if i in pl.known_hand]
        unknown = [i for i in pl.hand if i not in pl.known_hand]
        pool = sorted(unknown + pl.deck)
        pl.hand = known + pool[:len(unknown)]
        pl.deck = pool[len(unknown):]
        if out.deck_choice.has_chosen(s):
            out.deck_choice.choices[s] = {"name": "", "cards": {}}
        if out.mulligan.has_chosen(s):
            out.mulligan.choices[s] = []
    return out


def sensible(engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """A ready-made deck rather than one built card by card, then ready; never the window
    settings (how the page asks, not a play); a card paid the cheapest way for later."""
    for wanted in ("deck", "ready"):
        chosen = [m for m in moves if m["type"] == wanted]
        if chosen:
            return chosen
    return cheapest_ways([m for m in moves if m["type"] != "windows"])


def evaluate(engine: Engine, state: Any) -> list[float]:
    """Each seat's lead in tower height, its minions in play counted at half their might."""
    worth = [p.tower + MINION_WORTH * sum(m.might for m in p.minions) for p in state.players]
    return [lead(worth, s, 5.0) for s in range(len(worth))]


def components(engine: Engine, state: Any) -> dict[str, list[int]]:
    """Balance: the deck each seat played."""
    out: dict[str, list[int]] = {}
    for seat, p in enumerate(state.players):
        out.setdefault(f"deck {p.deck_name or 'built'}", []).append(seat)
    return out


HOOKS = Hooks(canonical=canonical, sensible=sensible, margin=5.0, evaluate=evaluate, depth=30,
              components=components)
