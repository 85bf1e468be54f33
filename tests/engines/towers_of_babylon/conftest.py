"""Helpers for the Towers of Babylon tests: positions built by play, then arranged by hand."""

from __future__ import annotations

from typing import Any

from engines.base import Event
from engines.towers_of_babylon import ENGINE
from engines.towers_of_babylon import rules as R
from engines.towers_of_babylon.components import CARDS, READY
from engines.towers_of_babylon.state import Minion, State


def dealt(seed: int = 1, decks: tuple[str, str] = ("fire_legion", "light_citadel"),
          version: int | None = None) -> State:
    """A game where both seats chose their ready-made deck and kept their hands: the first
    player's start-of-turn decision is awaited. ``version``: the rules version (None: the newest)."""
    state = ENGINE.new_game(2, seed, {}, rules_version=version)
    for seat in (0, 1):
        ENGINE.play(state, seat, {"type": "deck", "deck": decks[seat]})
    for seat in (0, 1):
        ENGINE.play(state, seat, {"type": "mulligan", "cards": []})
    return state


def main_phase(seed: int = 1, decks: tuple[str, str] = ("fire_legion", "light_citadel"),
               first: int = 0, version: int | None = None) -> State:
    """A game in the main phase of ``first``'s first turn, hands emptied back into the decks, no
    power: tests arrange the rest by hand."""
    while True:
        state = dealt(seed, decks, version)
        if state.first == first:
            break
        seed += 1
    ENGINE.play(state, first, {"type": "draw"})
    for pl in state.players:
        pl.deck.extend(pl.hand)
        pl.hand.clear()
        pl.known_bottom = 0
    return state


_next_iid = [60]


def take(state: State, seat: int, card: str) -> int:
    """A card of ``seat``'s with this id: from its deck if there is one, else a new one."""
    pl = state.players[seat]
    for iid in pl.deck:
        if state.cards[iid] == card:
            pl.deck.remove(iid)
            return iid
    iid = 100 * seat + _next_iid[0]
    _next_iid[0] = 60 + (_next_iid[0] - 59) % 39
    while iid in state.cards:
        iid += 1
    state.cards[iid] = card
    return iid


def give(state: State, seat: int, card: str) -> int:
    """Put a card into ``seat``'s hand; its instance id."""
    iid = take(state, seat, card)
    state.players[seat].hand.append(iid)
    return iid


def put(state: State, seat: int, card: str, zone: str, status: str = READY, **markers: Any) -> Minion:
    """Put a minion into play for ``seat``."""
    iid = take(state, seat, card)
    m = Minion(iid=iid, card=card, owner=seat, zone=zone, status=status, **markers)
    state.players[seat].minions.append(m)
    return m


def power(state: State, seat: int, *colours: str) -> None:
    state.players[seat].available = list(colours)


def play(state: State, seat: int, **move: Any) -> list[Event]:
    return ENGINE.play(state, seat, move)


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def minion(state: State, iid: int) -> Minion:
    m = state.minion(iid)
    assert m is not None
    return m


__all__ = ["CARDS", "ENGINE", "R", "dealt", "give", "main_phase", "minion", "play", "power", "put", "take", "texts"]
