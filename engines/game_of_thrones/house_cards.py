"""The house cards' texts: their strength and icon texts, Mace Tyrell, and the cards that ask
their owner (Tyrion, Aeron, Queen of Thorns, Doran, Renly, Cersei, Patchface)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.base import Move
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, HOUSE_CARDS, ORDERS, SHIP, TRACK_NAMES, TRACKS
from engines.game_of_thrones.shared import Doer, Mover, area_name
from engines.game_of_thrones.state import Combat, GameState
from engines.kit import Commitments, Decision, Log

if TYPE_CHECKING:
    from engines.game_of_thrones.engine import GameOfThrones

IMMEDIATE = ("queen-of-thorns", "doran-martell", "mace-tyrell", "aeron-damphair")
"""House cards whose text acts "immediately" after the reveal (Rules §3.3)."""

def unit_value(eng: GameOfThrones, state: GameState, c: Combat, seat: int, kind: str, routed: bool, vs_castle: bool,
                side: str, card: dict[int, str], *, supporting: bool = False) -> int:
    """A unit's combat strength with the house cards' strength texts (Kevan, Victarion,
    Salladhor Saan)."""
    value = R.unit_strength(kind, routed=routed, attacking_castle=vs_castle)
    if value == 0:
        return 0
    attacker_card = card.get(c.attacker)
    if side == "attacker" and seat == c.attacker:
        if kind == "footman" and attacker_card == "ser-kevan-lannister":
            value = 2
        if kind == SHIP and attacker_card == "victarion-greyjoy":
            value = 2
    if kind == SHIP:
        for s, cid in card.items():
            if cid == "salladhor-saan" and C.is_supported(eng, state, c, s) and state.houses[seat] != "baratheon":
                return 0
    return value


def mace_tyrell(eng: GameOfThrones, state: GameState, seat: int, log: Log) -> None:
    """Mace Tyrell: immediately destroy one of the opponent's attacking or defending footmen
    (footmen are alike, so no choice is asked)."""
    c = state.combat
    assert c is not None and c.defender is not None
    other = C.opponent(eng, c, seat)
    if other == c.attacker and "footman" in c.army:
        c.army.remove("footman")
    elif other == c.defender and any(u.kind == "footman" and not u.routed for u in state.units.get(c.area, [])):
        U.destroy(eng, state, c.area, "footman")
    else:
        log.say("Mace Tyrell: {0} has no footman of {1} to destroy", seat, other)
        return
    log.say("Mace Tyrell: {0} destroys a footman of {1}", seat, other)


def ability_moves(eng: GameOfThrones, state: GameState, seat: int, card: str) -> list[Move]:
    """The choices a card text gives its owner (the decline choice, when there is one, last)."""
    make = eng.MOVES.make
    c = state.combat
    if card == "patchface":
        victim = patchface_victim(eng, state, seat)
        if victim is None:
            return []
        return [*(make("ability", choice=x) for x in sorted(state.hands[victim])), make("ability", choice="none")]
    assert c is not None and c.defender is not None
    other = C.opponent(eng, c, seat)
    if card == "tyrion-lannister":
        return [make("ability", choice="cancel"), make("ability", choice="keep")]
    if card == "aeron-damphair":
        if state.power[seat] < 2 or not state.hands[seat]:
            return []
        return [*(make("ability", choice=x) for x in sorted(state.hands[seat])), make("ability", choice="keep")]
    if card == "queen-of-thorns":
        return [make("ability", choice=a) for a in queen_targets(eng, state, other)]
    if card == "doran-martell":
        return [make("ability", choice=t) for t in TRACKS]
    if card == "renly-baratheon":
        areas = renly_areas(eng, state, seat)
        return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
    if card == "cersei-lannister":
        areas = sorted(a for a, o in state.orders.items() if o.seat == other)
        return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
    return []


def queen_targets(eng: GameOfThrones, state: GameState, other: int) -> list[str]:
    """Queen of Thorns: the opponent's orders in areas adjacent to the embattled area (the
    march that started the combat is no longer on the board)."""
    c = state.combat
    assert c is not None
    return sorted(a for a in BOARD.adjacent[c.area] if a in state.orders and state.orders[a].seat == other)


def renly_areas(eng: GameOfThrones, state: GameState, seat: int) -> list[str]:
    """Renly Baratheon: where a footman of the winner that took part (the embattled area
    stands for the attacking army) or a supporting Baratheon footman may become a knight."""
    c = state.combat
    assert c is not None
    if R.units_in_pool(state, seat, "knight") <= 0:
        return []
    out = []
    if seat == c.attacker and "footman" in c.army:
        out.append(c.area)
    if seat == c.defender and any(u.kind == "footman" for u in state.units.get(c.area, [])):
        out.append(c.area)
    side = "attacker" if seat == c.attacker else "defender"
    for area, chosen in sorted(c.supporters.items()):
        if (chosen == side and area in state.orders and state.owner.get(area) == seat
                and state.houses[seat] == "baratheon"
                and any(u.kind == "footman" for u in state.units.get(area, []))):
            out.append(area)
    return out


def patchface_victim(eng: GameOfThrones, state: GameState, seat: int) -> int | None:
    top = state.decisions.top
    victim = top.data.get("victim") if top is not None and top.kind == "ability" else None
    if victim is None or not state.hands[victim]:
        return None
    return int(victim)


def moves_ability(eng: GameOfThrones, state: GameState, seat: int, top: Decision | None) -> list[Move]:
    assert top is not None
    return ability_moves(eng, state, seat, top.data["card"])


def do_ability(eng: GameOfThrones, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    assert top is not None
    state.decisions.pop()
    card, choice = top.data["card"], move["choice"]
    if card == "patchface":
        ability_patchface(eng, state, seat, choice, int(top.data["victim"]), log)
        return
    ABILITIES[card](eng, state, seat, choice, log)


def ability_tyrion_lannister(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
    """Tyrion Lannister: cancel the opponent's card; it goes back to hand and the opponent
    chooses another (none left: it fights without a card)."""
    c = state.combat
    assert c is not None
    other = C.opponent(eng, c, seat)
    if choice == "keep":
        log.say("Tyrion Lannister: {0} lets {1}'s card stand", seat, other)
        C.card_windows(eng, state, log)
        return
    cancelled = c.card.pop(other)
    state.hands[other].append(cancelled)
    log.say("Tyrion Lannister: {0} cancels {1}'s {card}", seat, other, card=HOUSE_CARDS[cancelled].name)
    if any(x != cancelled for x in state.hands[other]):
        c.cards = Commitments.ask([other])
        state.decisions.push(Decision("cards", [other], {"exclude": cancelled}))
        return
    log.say("{0} has no other house card and fights without one", other)
    C.card_windows(eng, state, log)


def ability_aeron_damphair(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
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
    C.card_windows(eng, state, log)


def ability_queen_of_thorns(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
    """Queen of Thorns: remove one of the opponent's orders next to the embattled area."""
    victim = state.orders.pop(choice)
    log.say("Queen of Thorns: {0} removes {1}'s {o} in {a}", seat, victim.seat, o=ORDERS[victim.token].name,
            a=area_name(choice))
    C.card_windows(eng, state, log)


def ability_doran_martell(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
    """Doran Martell: the opponent goes to the last place of an influence track; the
    dominance tokens follow the first places (a used token stays used this round)."""
    c = state.combat
    assert c is not None
    other = C.opponent(eng, c, seat)
    track = state.tracks[choice]
    track.remove(other)
    track.append(other)
    log.say("Doran Martell: {0} moves {1} to the last place of the {t} track", seat, other,
            t=TRACK_NAMES[choice])
    C.card_windows(eng, state, log)


def ability_renly_baratheon(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
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
    C.after_winner_window(eng, state, log)


def ability_cersei_lannister(eng: GameOfThrones, state: GameState, seat: int, choice: str, log: Log) -> None:
    """Cersei Lannister: the winner may remove one order of the loser anywhere."""
    if choice != "none":
        victim = state.orders.pop(choice)
        log.say("Cersei Lannister: {0} removes {1}'s {o} in {a}", seat, victim.seat,
                o=ORDERS[victim.token].name, a=area_name(choice))
    C.after_winner_window(eng, state, log)


def ability_patchface(eng: GameOfThrones, state: GameState, seat: int, choice: str, victim: int, log: Log) -> None:
    """Patchface: after the combat, look at the opponent's hand and discard one card of it."""
    if choice == "none":
        log.say("Patchface: {0} discards nothing", seat)
        return
    state.hands[victim].remove(choice)
    state.discards[victim].append(choice)
    log.say("Patchface: {0} discards {1}'s {card}", seat, victim, card=HOUSE_CARDS[choice].name)
    if not state.hands[victim]:
        state.hands[victim] = sorted(x for x in state.discards[victim] if x != choice)
        state.discards[victim] = [choice]
        log.say("{0} takes back its house cards", victim)


def card_strength(eng: GameOfThrones, state: GameState, c: Combat, seat: int, other: int) -> int:
    cid = c.card.get(seat)
    if cid is None:
        return 0
    value = 0 if c.card.get(other) == "balon-greyjoy" else HOUSE_CARDS[cid].strength
    throne = state.tracks["iron_throne"]
    if cid == "stannis-baratheon" and throne.index(other) < throne.index(seat):
        value += 1
    if cid == "ser-davos-seaworth" and "stannis-baratheon" in state.discards[seat]:
        value += 1
    if cid == "theon-greyjoy" and seat == c.defender and BOARD.areas[c.area].castle:
        value += 1
    return value


def icons(eng: GameOfThrones, state: GameState, seat: int) -> tuple[int, int]:
    """Swords and fortifications of ``seat``'s house card in this combat, with their texts."""
    c = state.combat
    assert c is not None
    cid = c.card.get(seat)
    if cid is None:
        return 0, 0
    card = HOUSE_CARDS[cid]
    swords, forts = card.swords, card.fortifications
    if cid == "ser-davos-seaworth" and "stannis-baratheon" in state.discards[seat]:
        swords += 1
    if cid == "theon-greyjoy" and seat == c.defender and BOARD.areas[c.area].castle:
        swords += 1
    if cid == "asha-greyjoy" and not C.is_supported(eng, state, c, seat):
        swords, forts = swords + 2, forts + 1
    if cid == "nymeria-sand":
        if seat == c.defender:
            forts += 1
        else:
            swords += 1
    return swords, forts


MOVES: dict[str, Mover] = {"ability": moves_ability}


DO: dict[str, Doer] = {"ability": do_ability}

ABILITIES = {"tyrion-lannister": ability_tyrion_lannister, "aeron-damphair": ability_aeron_damphair,
             "queen-of-thorns": ability_queen_of_thorns, "doran-martell": ability_doran_martell,
             "renly-baratheon": ability_renly_baratheon, "cersei-lannister": ability_cersei_lannister}
"""The texts that ask their owner, by card (Patchface, asked after the combat, apart)."""
