"""How the good A Game of Thrones bot bids its Power tokens (Clash of Kings, the wildlings).

A short search cannot value a place on an influence track (its worth shows over the rounds
after) and bids blind, so it spread its Power at random: nine on one track and nothing on the
next. The rules here spend as a player would: keep some Power for the wildlings when their
threat is high, spread the rest over the tracks still to bid (and a part kept), pay no more than it takes to be
first where every other house's Power is known (bids are public once spent, and so is what
is left), and never pour everything into a track it already leads.
"""

from __future__ import annotations

from math import ceil
from typing import Any

from engines.base import Engine, Move
from engines.game_of_thrones.components import TRACKS

WILDLING_ALERT = 6
"""From this threat on, Power is kept back for the Night's Watch."""


def wildling_reserve(state: Any, seat: int) -> int:
    """Power kept for the next wildling attack: this house's fair part of its strength once the
    threat is high (the attack comes when the track reaches 12 or a card says so)."""
    if state.wildlings < WILDLING_ALERT:
        return 0
    return int(min(state.power[seat], ceil(state.wildlings / state.seats)))


def track_bid(state: Any, seat: int, track: str) -> int:
    """The bid for ``track``: what it takes to be first when that is within this track's part
    of the Power to spend; otherwise that part (half of it on a track already led)."""
    power = int(state.power[seat])
    spend = max(0, power - wildling_reserve(state, seat))
    left = len(TRACKS) - TRACKS.index(track)
    share = spend // (left + 1)  # a part for each track to bid and one kept: never everything
    richest = max((int(state.power[s]) for s in range(state.seats) if s != seat), default=0)
    throne = state.tracks["iron_throne"][0] == seat  # the Iron Throne breaks ties
    first = richest if throne else richest + 1
    if first <= share:
        return first
    if state.tracks[track][0] == seat:
        return share // 2
    return share


def wildling_bid(state: Any, seat: int, strength: int, bidders: int) -> int:
    """The bid for the Night's Watch: a fair part of the attack's strength and one more (the
    highest bidder is rewarded when the Watch holds, the lowest punished when it falls)."""
    return int(min(state.power[seat], ceil(strength / max(1, bidders)) + 1))


def bid_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """The listed bid nearest to the heuristic's (every bid from 0 to the house's Power is
    listed)."""
    top = state.decisions.top
    bids = [m for m in moves if m["type"] == "bid"]
    if top is None or not bids:
        return None
    data = top.data
    if data.get("for") == "wildlings":
        want = wildling_bid(state, seat, int(data["strength"]), len(top.seats))
    elif data.get("for") == "track":
        want = track_bid(state, seat, str(data["track"]))
    else:
        return None
    return min(bids, key=lambda m: abs(m["power"] - want))
