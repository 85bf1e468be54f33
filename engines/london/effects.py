"""The effect vocabulary: every ``{"do": name}`` in the data names an entry of ``EFFECTS``, and
every ongoing ability names an entry of ``ONGOING``. A test checks each name in the data resolves.

Effects never ask the player anything: choices are separate moves of the rules module.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.kit import Log, counted
from engines.london.components import BOROUGHS, CARDS, BoroughDef, Effect
from engines.london.state import Player, State

EffectFn = Callable[[State, int, Effect, str, Log], None]


def owned_boroughs(p: Player, where: str) -> int:
    """Boroughs owned that match ``where`` ("any", "north", "south", "river"); every borough in
    the pile counts, not just the live one (rule 5)."""
    if where == "any":
        return len(p.boroughs)
    if where == "river":
        return sum(1 for b in p.boroughs if BOROUGHS[b].river)
    return sum(1 for b in p.boroughs if BOROUGHS[b].side == where)


def top_cards(p: Player) -> list[int]:
    return [st[-1] for st in p.stacks if st]


def face_up_top_cards(p: Player, colour: str | None = None) -> list[int]:
    """The visible face-up card of each stack (covered cards are out of sight)."""
    return [c for c in top_cards(p)
            if c not in p.facedown and (colour is None or CARDS[c].colour == colour)]


def add_poverty(p: Player, n: int) -> None:
    p.poverty += max(0, n)


def alleviate(p: Player, n: int) -> int:
    """Remove up to n poverty (all, if you have fewer). Returns how many went."""
    gone = min(max(0, n), p.poverty)
    p.poverty -= gone
    return gone


def _gain_money(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    s.players[seat].money += int(e["amount"])
    log.say("{0} gained £{n} ({src})", seat, n=e["amount"], src=src)


def _draw(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    for _ in range(int(e["count"])):
        if s.draw_from_deck(seat, log, src) is None:
            log.say("The city deck is empty: {0} draws no more ({src})", seat, src=src)
            break


def _gain_prestige(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    s.players[seat].prestige += int(e["amount"])
    log.say("{0} gained {n} prestige ({src})", seat, n=e["amount"], src=src)


def _gain_poverty(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    add_poverty(s.players[seat], int(e["amount"]))
    log.say("{0} gained {n} poverty ({src})", seat, n=e["amount"], src=src)


def _alleviate_poverty(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    gone = alleviate(s.players[seat], int(e["amount"]))
    log.say("{0} alleviated {n} poverty ({src})", seat, n=gone, src=src)


def _money_per_borough(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    n = owned_boroughs(s.players[seat], e["where"]) * int(e["amount"])
    s.players[seat].money += n
    log.say("{0} gained £{n} ({src})", seat, n=n, src=src)


def _alleviate_per_borough(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    gone = alleviate(s.players[seat], owned_boroughs(s.players[seat], e["where"]) * int(e["amount"]))
    log.say("{0} alleviated {n} poverty ({src})", seat, n=gone, src=src)


def _prestige_per_colour(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    n = len(face_up_top_cards(s.players[seat], e["colour"])) * int(e["amount"])
    s.players[seat].prestige += n
    log.say("{0} gained {n} prestige ({src})", seat, n=n, src=src)


def _money_per_colour(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    n = len(face_up_top_cards(s.players[seat], e["colour"])) * int(e["amount"])
    s.players[seat].money += n
    log.say("{0} gained £{n} ({src})", seat, n=n, src=src)


def _free_colour_discard(s: State, seat: int, e: Effect, src: str, log: Log) -> None:
    s.turn.free_colour += int(e["count"])
    log.say("{0}'s next development this turn needs no colour discard ({src})", seat, src=src)


EFFECTS: dict[str, EffectFn] = {
    "gain_money": _gain_money,
    "draw": _draw,
    "gain_prestige": _gain_prestige,
    "gain_poverty": _gain_poverty,
    "alleviate_poverty": _alleviate_poverty,
    "money_per_borough": _money_per_borough,
    "alleviate_per_borough": _alleviate_per_borough,
    "prestige_per_colour": _prestige_per_colour,
    "money_per_colour": _money_per_colour,
    "free_colour_discard": _free_colour_discard,
}

ONGOING: dict[str, str] = {
    "flip_instead": "When another card of yours would flip, you may flip this card instead.",
    "repay_cost": "Repaying a loan at the start of your turn costs £{amount} instead of £15.",
    "develop_discount": "Developing a {colour} card costs £{amount} less.",
    "hand_limit": "Your hand limit is {amount} higher.",
    "poverty_shield": "Running the city costs you {amount} poverty less.",
    "loan_amount": "Each loan gives you £{amount} instead of £10.",
}
"""Ongoing (passive) abilities, live while the card is face-up on top of its stack, or while the
borough tops your pile. Their meaning is applied by the rules module; this is their text."""


def resolve(s: State, seat: int, effects: tuple[Effect, ...], source: str, log: Log) -> None:
    for e in effects:
        EFFECTS[e["do"]](s, seat, e, source, log)


def live_ongoing(p: Player) -> list[Effect]:
    """Ongoing abilities now live for this player: face-up top cards, and the top borough."""
    out: list[Effect] = []
    for st in p.stacks:
        c = st[-1]
        ongoing = CARDS[c].ongoing
        if ongoing is not None and c not in p.facedown:
            out.append(ongoing)
    top = top_borough(p)
    if top is not None and top.ongoing is not None:
        out.append(top.ongoing)
    return out


def top_borough(p: Player) -> BoroughDef | None:
    return BOROUGHS[p.boroughs[-1]] if p.boroughs else None


# -- words for the rules vocabulary (cards' text for the renderer) ---------------------

_WHERE = {"any": "borough you own", "north": "borough you own north of the Thames",
          "south": "borough you own south of the Thames", "river": "borough you own on the river"}


_DESCRIPTIONS = {
    "gain_money": "Gain £{amount}",
    "gain_prestige": "+{amount} prestige now",
    "gain_poverty": "+{amount} poverty",
    "alleviate_poverty": "−{amount} poverty",
    "money_per_borough": "£{amount} per {where_text}",
    "alleviate_per_borough": "−{amount} poverty per {where_text}",
    "prestige_per_colour": "+{amount} prestige now per face-up {colour} card on top of your stacks",
    "money_per_colour": "£{amount} per face-up {colour} card on top of your stacks",
    "free_colour_discard": "Your next development this turn needs no colour discard",
}


def describe(e: Effect) -> str:
    """Plain words for one effect.

    >>> describe({"do": "money_per_borough", "where": "river", "amount": 2})
    '£2 per borough you own on the river'
    """
    d = e["do"]
    if d == "draw":
        return f"Draw {counted(e['count'], 'card')} from the deck"
    return _DESCRIPTIONS[d].format(**e, where_text=_WHERE.get(e.get("where", ""), ""))


def describe_ongoing(o: Effect) -> str:
    return ONGOING[o["ability"]].format(**{k: v for k, v in o.items() if k != "ability"}
                                        | {"colour": o.get("colour", "any")}).replace(
        "Developing a any card", "Developing any card")
