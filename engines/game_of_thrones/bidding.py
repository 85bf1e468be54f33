"""Bidding, hidden and at once (a kit ``Commitments``): the bids revealed together and paid to the
Power Pool, then the bidders ranked, the Iron Throne holder breaking ties. A bidding for an
influence track (Clash of Kings) ends here with the track in bid order; a bidding for anything
else goes on where it was asked for, registered in ``AFTER_BIDS`` and ``AFTER_RANKING`` (the
wildling attack's, by ``wildlings.py``). Bidding belongs to the Westeros phase, whose module
holds its words (the rules named in refusals, the prompts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Move
from engines.game_of_thrones.components import HOUSES, TRACK_NAMES
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Auto, Doer, Mover, make
from engines.kit import Commitments, Decision, Log

AfterBids = Callable[[GameState, Decision, list[int], Log], None]
AfterRanking = Callable[[GameState, dict[str, Any], Log], None]

AFTER_BIDS: dict[str, AfterBids] = {}
"""What follows the reveal of a bidding that is not for a track, by what it is for (the bid
decision's ``for``); the wildlings module registers its attack's ("wildlings")."""

AFTER_RANKING: dict[str, AfterRanking] = {}
"""What follows the ranking of bidders that is not a track's, by whom it looks for (the ties
decision's ``for``); the wildlings module registers its highest and lowest bidders'."""


def ask_bids(state: GameState, seats: list[int], data: dict[str, Any]) -> None:
    """Every house bids in secret (a kit ``Commitments``); a house with no Power token bids 0
    without being asked."""
    state.bids = Commitments.ask(seats)
    for s in seats:
        if state.power[s] == 0:
            state.bids.choose(s, 0, ready=True)
    state.decisions.push(Decision("bid", list(seats), data))


def moves_bid(state: GameState, seat: int, top: Decision) -> list[Move]:
    """Bid any number of one's available Power tokens, 0 included."""
    if seat not in state.bids.awaited():
        return []
    return [make("bid", power=n) for n in range(state.power[seat] + 1)]


def do_bid(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    state.bids.choose(seat, move["power"], ready=True)
    log.say("{0} has bid", seat, privately={seat: "You bid {n}"}, n=move["power"])


def auto_bid(state: GameState, top: Decision, log: Log) -> bool:
    """Once every bid is in, they are revealed together and every bid goes to the Power Pool."""
    if state.bids.open and not state.bids.everyone_ready():
        return False
    state.decisions.pop()
    chosen = state.bids.reveal() if state.bids.open else {}
    bids = [-1] * state.seats
    for s, n in chosen.items():
        bids[int(s)] = int(n)
        state.power[int(s)] -= int(n)
    log.say("Bids: {b}", b=", ".join(f"{HOUSES[state.houses[s]].name} {bids[s]}" for s in range(state.seats)
                                     if bids[s] >= 0))
    if top.data["for"] == "track":
        state.decisions.push(Decision("ties", [state.tracks["iron_throne"][0]],
                                      {"for": "track", "track": top.data["track"], "bids": bids, "order": []}))
        settle_ties(state, log)
        return True
    AFTER_BIDS[top.data["for"]](state, top, bids, log)
    return True


def tied_group(data: dict[str, Any]) -> list[int]:
    """The bidders still to be placed who share the highest remaining bid (lowest, when ranking
    the lowest bidder of a wildling attack)."""
    bids, order = data["bids"], data["order"]
    left = [s for s, b in enumerate(bids) if b >= 0 and s not in order]
    if not left:
        return []
    best = min(bids[s] for s in left) if data["for"] == "lowest" else max(bids[s] for s in left)
    return [s for s in left if bids[s] == best]


def settle_ties(state: GameState, log: Log) -> None:
    """Place bidders while their place is not tied; stop when the Iron Throne holder must choose
    among tied bidders, or finish."""
    top = state.decisions.top
    assert top is not None and top.kind == "ties"
    data = top.data
    while True:
        group = tied_group(data)
        if len(group) > 1:
            return
        if group:
            data["order"].append(group[0])
            if data["for"] != "track":
                break
            continue
        break
    state.decisions.pop()
    if data["for"] == "track":
        place_track(state, data["track"], list(data["order"]), data["bids"], log)
        record_bids(state, data["track"], data["bids"], list(data["order"]), data.get("broken"))
        return
    AFTER_RANKING[data["for"]](state, data, log)


def place_track(state: GameState, track: str, order: list[int], bids: list[int], log: Log) -> None:
    """The influence track in bid order; its first place takes the dominance token."""
    state.tracks[track] = order
    log.say("The {t} track: {o}", t=TRACK_NAMES[track],
            o=", ".join(HOUSES[state.houses[s]].name for s in order))
    log.say("{0} takes the {d}", order[0], d=DOMINANCE[track])


def record_bids(state: GameState, track: str, bids: list[int], order: list[int], broken: int | None) -> None:
    """Keep a revealed bidding for the views until the next Westeros phase: the track (or
    "wildlings"), each bidder's bid, the resulting order and who broke a tie (if anyone had to)."""
    state.bid_results.append({"track": track, "round": state.round,
                              "bids": {str(s): b for s, b in enumerate(bids) if b >= 0},
                              "order": order, "tie_broken_by": broken})


DOMINANCE = {"iron_throne": "Iron Throne", "fiefdoms": "Valyrian Steel Blade", "kings_court": "Messenger Raven"}


def moves_ties(state: GameState, seat: int, top: Decision) -> list[Move]:
    """The Iron Throne holder names which of the tied houses takes the next (higher) place —
    for the Iron Throne track itself, the holder before the bidding."""
    return [make("rank", house=state.houses[s]) for s in tied_group(top.data)]


def do_ties(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    chosen = state.houses.index(move["house"])
    top.data["order"].append(chosen)
    top.data["broken"] = seat
    what = {"track": "the next place", "highest": "the highest bidder", "lowest": "the lowest bidder"}
    log.say("{0} breaks the tie: {1} is {w}", seat, chosen, w=what[top.data["for"]])
    if top.data["for"] != "track":
        top.data["bids"] = [b if s == chosen else -1 for s, b in enumerate(top.data["bids"])]
    settle_ties(state, log)


MOVES: dict[str, Mover] = {"bid": moves_bid, "ties": moves_ties}
DO: dict[str, Doer] = {"bid": do_bid, "ties": do_ties}
AUTO: dict[str, Auto] = {"bid": auto_bid}
