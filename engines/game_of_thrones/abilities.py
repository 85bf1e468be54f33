"""The house card texts that ask their owner, carried out once chosen (Tyrion, Aeron, Queen of
Thorns, Doran, Renly, Cersei, Patchface): each changes the combat, then the combat goes on from
the window it was asked in (``combat.py``). What the texts add to strength and icons, and the
choices they offer, are in ``house_cards.py``."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import house_cards as H
from engines.game_of_thrones.components import HOUSE_CARDS, ORDERS, TRACK_NAMES
from engines.game_of_thrones.shared import area_name
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Doer, Mover
from engines.kit import Commitments, Decision, Log


def moves_ability(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    assert top is not None
    return H.ability_moves(state, seat, top.data["card"])


def do_ability(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    assert top is not None
    state.decisions.pop()
    card, choice = top.data["card"], move["choice"]
    if card == "patchface":
        ability_patchface(state, seat, choice, int(top.data["victim"]), log)
        return
    ABILITIES[card](state, seat, choice, log)


def ability_tyrion_lannister(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Tyrion Lannister: cancel the opponent's card; it goes back to hand and the opponent
    chooses another (none left: it fights without a card)."""
    c = state.combat
    assert c is not None
    other = H.opponent(c, seat)
    if choice == "keep":
        log.say("Tyrion Lannister: {0} lets {1}'s card stand", seat, other)
        C.card_windows(state, log)
        return
    cancelled = c.card.pop(other)
    state.hands[other].append(cancelled)
    log.say("Tyrion Lannister: {0} cancels {1}'s {card}", seat, other, card=HOUSE_CARDS[cancelled].name)
    if any(x != cancelled for x in state.hands[other]):
        c.cards = Commitments.ask([other])
        state.decisions.push(Decision("cards", [other], {"exclude": cancelled}))
        return
    log.say("{0} has no other house card and fights without one", other)
    C.card_windows(state, log)


def ability_aeron_damphair(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Aeron Damphair: pay 2 Power tokens to discard Aeron and use another card instead."""
    c = state.combat
    assert c is not None
    if choice != "keep":
        state.power[seat] -= 2
        state.discards[seat].append(c.card[seat])
        state.hands[seat].remove(choice)
        c.card[seat] = choice
        log.say("Aeron Damphair: {0} pays 2 Power tokens, discards Aeron and reveals {card}", seat,
                card=HOUSE_CARDS[choice].name)
    else:
        log.say("Aeron Damphair: {0} keeps Aeron", seat)
    C.card_windows(state, log)


def ability_queen_of_thorns(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Queen of Thorns: remove one of the opponent's orders next to the embattled area."""
    victim = state.orders.pop(choice)
    log.say("Queen of Thorns: {0} removes {1}'s {o} in {a}", seat, victim.seat, o=ORDERS[victim.token].name,
            a=area_name(choice))
    C.card_windows(state, log)


def ability_doran_martell(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Doran Martell: the opponent goes to the last place of an influence track; the
    dominance tokens follow the first places (a used token stays used this round)."""
    c = state.combat
    assert c is not None
    other = H.opponent(c, seat)
    track = state.tracks[choice]
    track.remove(other)
    track.append(other)
    log.say("Doran Martell: {0} moves {1} to the last place of the {t} track", seat, other,
            t=TRACK_NAMES[choice])
    C.card_windows(state, log)


def ability_renly_baratheon(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Renly Baratheon: the winner may upgrade one footman that took part (or a supporting
    Baratheon footman) to a knight."""
    c = state.combat
    assert c is not None
    if choice != "none":
        if choice == c.area and seat == c.attacker:
            c.army[c.army.index("footman")] = "knight"
        else:
            next(u for u in state.units[choice] if u.kind == "footman").kind = "knight"
        log.say("Renly Baratheon: {0} upgrades a footman to a knight in {a}", seat, a=area_name(choice))
    C.after_winner_window(state, log)


def ability_cersei_lannister(state: GameState, seat: int, choice: str, log: Log) -> None:
    """Cersei Lannister: the winner may remove one order of the loser anywhere."""
    if choice != "none":
        victim = state.orders.pop(choice)
        log.say("Cersei Lannister: {0} removes {1}'s {o} in {a}", seat, victim.seat,
                o=ORDERS[victim.token].name, a=area_name(choice))
    C.after_winner_window(state, log)


def ability_patchface(state: GameState, seat: int, choice: str, victim: int, log: Log) -> None:
    """Patchface: after the combat, look at the opponent's hand and discard one card of it."""
    if choice == "none":
        log.say("Patchface: {0} discards nothing", seat)
        return
    state.hands[victim].remove(choice)
    state.discards[victim].append(choice)
    log.say("Patchface: {0} discards {1}'s {card}", seat, victim, card=HOUSE_CARDS[choice].name)
    H.take_back_when_empty(state, victim, choice, log)


MOVES: dict[str, Mover] = {"ability": moves_ability}


DO: dict[str, Doer] = {"ability": do_ability}

ABILITIES = {"tyrion-lannister": ability_tyrion_lannister, "aeron-damphair": ability_aeron_damphair,
             "queen-of-thorns": ability_queen_of_thorns, "doran-martell": ability_doran_martell,
             "renly-baratheon": ability_renly_baratheon, "cersei-lannister": ability_cersei_lannister}
"""The texts that ask their owner, by card (Patchface, asked after the combat, apart)."""
