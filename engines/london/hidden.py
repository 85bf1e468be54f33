"""What each seat cannot see, and ``determinize``: a game consistent with all one seat sees.

Public in London (see ``view.py``): every display with its face-down cards (built face-up in front
of everyone), the development board, the box (every card in it left the game in plain sight: an
action card played, a pauper discarded, a row pushed off the board), the borough market and every
owned borough, money, loans, poverty, prestige, hand sizes, the deck's size and the set letter on
the back of its top card, how many cards St Pancras shows the current player, and the whole turn.

Hidden: the other seats' hands, the order of the city deck, the order of the borough deck, the
cards St Pancras shows (to all but the current player), and the generator.

Every card's back shows its set (A, B or C), so a seat knows the set of every card in another
hand and at every depth of the deck: ``determinize`` shuffles the unseen cards of each set only
among the unseen places that hold a card of that set.
"""

from __future__ import annotations

from engines.kit import Rng, snapshot
from engines.london.components import CARDS, ERAS
from engines.london.state import State


def unseen_places(s: State, seat: int | None) -> list[list[int]]:
    """The card lists ``seat`` (None: a spectator) cannot see into: the other hands, the deck,
    and the cards St Pancras shows unless ``seat`` is the player looking at them."""
    places = [p.hand for i, p in enumerate(s.players) if i != seat]
    places.append(s.deck)
    if seat is None or seat != s.current:
        places.append(s.turn.scry)
    return places


def redeal_by_set(rng: Rng, places: list[list[int]]) -> None:
    """Shuffle the cards of ``places`` among themselves, in place, each card only into a slot
    that held a card of its own set (so every place keeps its size and its card backs)."""
    for era in ERAS:
        slots = [(place, i) for place in places for i, c in enumerate(place) if CARDS[c].era == era]
        cards = [place[i] for place, i in slots]
        rng.shuffle(cards)
        for (place, i), c in zip(slots, cards, strict=True):
            place[i] = c


def determinize(s: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``s`` that ``seat`` cannot tell from it, every hidden part re-drawn with ``rng``:
    the unseen cards re-dealt among the other hands, the deck and St Pancras's cards (sizes and
    sets kept), the borough deck re-shuffled, and the generator (if the game holds one) re-seeded
    from ``rng``. ``s`` is not changed."""
    d: State = snapshot.decode(State, snapshot.encode(s))
    redeal_by_set(rng, unseen_places(d, seat))
    rng.shuffle(d.borough_deck)
    if d.rng is not None:
        d.rng = rng.fork()
    return d
