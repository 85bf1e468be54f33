"""The rules of London: one predicate per move, shared by ``legal_moves`` and ``play``.

Each ``_check_<move>`` returns ``None`` when the move is legal, else a ``Refusal`` naming the rule.
``legal_moves`` lists the candidate moves of the current step and keeps those whose check passes;
``turn.check`` runs the same check for ``play``, once the turn (``turn.TURN``) has let the move
through its frame (the step takes it). There is no other source of legality.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from engines.base import Move
from engines.kit import Log
from engines.london.components import BOROUGHS, CARD_IDS, CARDS, Effect
from engines.london.effects import (
    add_poverty,
    alleviate,
    live_ongoing,
    resolve,
    top_borough,
)
from engines.london.moves import ACTIONS, MOVES
from engines.london.state import HAND_LIMIT, LOAN_AMOUNT, REPAY_COST, Player, State, Turn

R1 = "London rule 1: Turn order"
R2 = "London rule 2: Start of turn"
R3 = "London rule 3: One action"
R4 = "London rule 4: Develop"
R5 = "London rule 5: Buy Land"
R6 = "London rule 6: Run the City"
R7 = "London rule 7: Poverty after a run"
R8 = "London rule 8: Draw Three"
R9 = "London rule 9: Loans"
R10 = "London rule 10: Hand limit"
R11 = "London rule 11: Endgame"

ACTION_NAMES = {"develop": "Develop", "buy_land": "Buy Land", "run_city": "Run the City",
                "draw_three": "Draw Three"}


class Refusal(NamedTuple):
    """Why a well-shaped move may not be played now (the engine raises it as ``IllegalMove``)."""

    message: str
    rule: str | None = None
    code: str = "illegal_move"


# -- live quantities ------------------------------------------------------------------

def hand_limit(p: Player) -> int:
    """Rule 10: 9, plus any live hand-limit bonus."""
    return HAND_LIMIT + sum(int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "hand_limit")


def loan_amount(p: Player, live: list[Effect] | None = None) -> int:
    """Rule 9: £10 a loan (£12 while City tops your pile). ``live``: ``live_ongoing(p)``, when
    the caller has it already."""
    amount = LOAN_AMOUNT
    for o in live_ongoing(p) if live is None else live:
        if o["ability"] == "loan_amount" and o["amount"] > amount:
            amount = int(o["amount"])
    return amount


def repay_cost(p: Player) -> int:
    """Rule 9: £15 to repay a loan (Bank of England, face-up on top: £12)."""
    return min([REPAY_COST] + [int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "repay_cost"])


def develop_cost(p: Player, cid: int, live: list[Effect] | None = None) -> int:
    """Rule 4: the printed £ cost, less any live discount for that colour."""
    card = CARDS[cid]
    off = 0
    for o in live_ongoing(p) if live is None else live:
        if o["ability"] == "develop_discount" and o["colour"] in ("any", card.colour):
            off += int(o["amount"])
    return max(0, card.cost - off)


def cost_words(p: Player, cid: int, cost: int | None = None) -> str:
    """Rule 4: a development's real cost in words (``cost``: ``develop_cost``, if known), with
    the discount when one applies.

    >>> from engines.london.components import DESIGNS
    >>> cost_words(Player(), CARDS.index(DESIGNS["national_gallery"]))
    '£4'
    """
    cost = develop_cost(p, cid) if cost is None else cost
    printed = CARDS[cid].cost
    return f"£{cost}" if cost == printed else f"£{cost} (£{printed} less £{printed - cost} off)"


def poverty_shield(p: Player) -> int:
    return sum(int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "poverty_shield")


def run_poverty(p: Player) -> int:
    """Rule 7: +1 per display stack, +1 per £10 loan, +1 per card left in hand (less shields)."""
    return max(0, len(p.stacks) + p.loans + len(p.hand) - poverty_shield(p))


def can_afford(s: State, p: Player, amount: int) -> bool:
    """Rule 9: you must borrow when you must pay what you cannot, so a price is within reach
    while your money plus the loans left in the supply cover it."""
    return amount <= p.money + s.loan_supply * loan_amount(p)


def loans_for(p: Player, amount: int) -> int:
    """Rule 9: how many loans paying £amount forces (0 when your money covers it)."""
    short = amount - p.money
    return 0 if short <= 0 else -(-short // loan_amount(p))


def loans_taken(s: State, seat: int, m: Move) -> int:
    """How many loans the (legal) move ``m`` takes: one for ``take_loan``, else the forced loans
    of the price it pays (a development, a borough, an activation for money)."""
    typ = m["type"]
    if typ == "take_loan":
        return 1
    p = s.players[seat]
    if typ == "develop":
        return loans_for(p, develop_cost(p, m["card"]))
    if typ == "buy":
        return loans_for(p, BOROUGHS[m["borough"]].cost)
    if typ == "activate":
        act = CARDS[m["card"]].activation
        return loans_for(p, act.amount) if act is not None and act.pay == "money" else 0
    return 0


def pay(s: State, seat: int, amount: int, why: str, log: Log) -> None:
    """Pay £amount, taking the loans needed first (rule 9)."""
    p = s.players[seat]
    while p.money < amount:
        _borrow(s, seat, log, forced=why)
    p.money -= amount


def _borrow(s: State, seat: int, log: Log, forced: str = "") -> None:
    p = s.players[seat]
    amount = loan_amount(p)
    p.loans += 1
    p.money += amount
    s.loan_supply -= 1
    log.say("{0} took a £{amount} loan{why}", seat, amount=amount,
            why=f" to pay for {forced}" if forced else "")


def stack_of(p: Player, cid: int) -> int | None:
    for i, st in enumerate(p.stacks):
        if st[-1] == cid:
            return i
    return None


def hospital_of(p: Player, besides: int) -> int | None:
    """A live "flip instead" card (Hospital) other than ``besides``."""
    for st in p.stacks:
        c = st[-1]
        o = CARDS[c].ongoing
        if c != besides and o is not None and o["ability"] == "flip_instead" and c not in p.facedown:
            return c
    return None


def _name(cid: int) -> str:
    return CARDS[cid].name if 0 <= cid < len(CARDS) else f"card {cid}"


def colour_counts(p: Player) -> dict[str, int]:
    """How many non-pauper cards of each colour the hand holds (paupers pay no colour)."""
    counts = {"brown": 0, "blue": 0, "pink": 0, "grey": 0}
    for h in p.hand:
        card = CARDS[h]
        if not card.is_pauper:
            counts[card.colour] += 1
    return counts


def develop_obstacle(s: State, p: Player, cid: int, live: list[Effect] | None = None,
                     colours: dict[str, int] | None = None) -> str | None:
    """Rule 4: what first stops developing ``cid`` — "hand" (not in it), "pauper", "cost" (the £,
    after discounts, beyond money and the loans left) or "colour" (no other same-colour non-pauper
    card in hand, unless it is an action card or Wren's favour is pending) — or None.
    ``live``/``colours``: ``live_ongoing(p)`` and ``colour_counts(p)``, when the caller has them."""
    if cid not in p.hand:
        return "hand"
    card = CARDS[cid]
    if card.is_pauper:
        return "pauper"
    if live is None:
        live = live_ongoing(p)
    if develop_cost(p, cid, live) > p.money + s.loan_supply * loan_amount(p, live):  # can_afford
        return "cost"
    if card.is_action or s.turn.free_colour > 0:
        return None
    if colours is not None:  # the card itself is one of its colour's non-paupers: a partner makes two
        return "colour" if colours[card.colour] < 2 else None
    colour = card.colour
    for h in p.hand:
        other = CARDS[h]
        if h != cid and other.colour == colour and not other.is_pauper:
            return None
    return "colour"


def why_not_develop(s: State, p: Player, cid: int) -> Refusal | None:
    """Rule 4: a hand card that is not a pauper, whose £ cost you can meet, and (unless it is an
    action card, or Wren's favour is pending) with another same-colour non-pauper card in hand."""
    obstacle = develop_obstacle(s, p, cid)
    if obstacle is None:
        return None
    if obstacle == "hand":
        return Refusal(f"You cannot develop {_name(cid)}: it is not in your hand", R4)
    if obstacle == "pauper":
        return Refusal("You cannot develop a Pauper: paupers can never be placed", R4)
    card = CARDS[cid]
    if obstacle == "cost":
        return Refusal(f"You cannot develop {card.name}: it costs {cost_words(p, cid)}, you have "
                       f"£{p.money} and the loans left cannot cover it", R4)
    return Refusal(f"You cannot develop {card.name}: it needs a {card.colour} card discarded and "
                   f"your hand has none (paupers do not count); it would cost {cost_words(p, cid)}", R4)


def why_not_activate(s: State, p: Player, cid: int) -> Refusal | None:
    """Rule 6: a face-up card on top of one of your stacks, with an activated ability, not yet
    activated in this run, whose activation cost you can pay."""
    if stack_of(p, cid) is None:
        return Refusal(f"You cannot activate {_name(cid)}: only the top card of one of your stacks "
                       f"can be activated", R6)
    card = CARDS[cid]
    if cid in p.facedown:
        return Refusal(f"You cannot activate {card.name}: it is face-down (⤵ flipped)", R6)
    if card.activation is None:
        return Refusal(f"You cannot activate {card.name}: it has no activated ability", R6)
    if cid in s.turn.activated:
        return Refusal(f"You cannot activate {card.name} again: each card activates once per run", R6)
    act = card.activation
    if act.pay == "money" and not can_afford(s, p, act.amount):
        return Refusal(f"You cannot activate {card.name}: it costs £{act.amount} and the loans left "
                       f"cannot cover it", R6)
    if act.pay == "discard" and not p.hand:
        return Refusal(f"You cannot activate {card.name}: it needs a card discarded and your hand is "
                       f"empty", R6)
    return None


def why_not_buy(s: State, p: Player, key: str) -> Refusal | None:
    """Rule 5: a borough on the market whose cost you can meet."""
    if key not in s.market:
        name = BOROUGHS[key].name if key in BOROUGHS else repr(key)
        return Refusal(f"You cannot buy {name}: it is not on the borough market", R5)
    b = BOROUGHS[key]
    if not can_afford(s, p, b.cost):
        return Refusal(f"You cannot buy {b.name}: it costs £{b.cost}, you have £{p.money} and the "
                       f"loans left cannot cover it", R5)
    return None


def can_repay_loan(s: State, p: Player) -> Refusal | None:
    """Rule 2 / 9: repay one loan for £15, only at the very start of a turn, before drawing."""
    if not s.turn.repay_open or s.turn.step != "start":
        return Refusal("You can repay a loan only at the very start of your turn, before drawing", R9)
    if p.loans == 0:
        return Refusal("You have no loan to repay", R9)
    cost = repay_cost(p)
    if p.money < cost:
        return Refusal(f"Repaying a loan costs £{cost} and you have £{p.money}", R9)
    return None


def _check_repay_loan(s: State, seat: int, m: Move) -> Refusal | None:
    return can_repay_loan(s, s.players[seat])


def _check_take_loan(s: State, seat: int, m: Move) -> Refusal | None:
    if s.loan_supply <= 0:
        return Refusal("You cannot take a loan: all 12 loan tokens are out", R9)
    return None


def _check_draw(s: State, seat: int, m: Move) -> Refusal | None:
    rule = R2 if s.turn.step == "start" else R8
    if m["from"] == "deck":
        if not s.deck:
            return Refusal("You cannot draw from the deck: the city deck is empty", rule)
        return None
    cid = m["card"]
    for row in s.board:
        if cid in row:
            return None
    return Refusal(f"You cannot take {_name(cid)}: it is not on the development board", rule)


def _check_scry(s: State, seat: int, m: Move) -> Refusal | None:
    top = top_borough(s.players[seat])
    if top is None or top.start_draw != "st_pancras":
        return Refusal("Only St Pancras on top of your borough pile lets you look at the top 3 cards "
                       "instead of drawing", R2)
    if s.turn.draws_done:
        return Refusal("St Pancras replaces the draw, and you have already drawn this turn", R2)
    if not s.deck:
        return Refusal("The city deck is empty: there is nothing to look at", R2)
    return None


def _check_stop_drawing(s: State, seat: int, m: Move) -> Refusal | None:
    t = s.turn
    if t.draws_done >= t.draw_min or not s.can_draw():
        return None
    return Refusal("You must draw a card at the start of your turn, from the deck or the development "
                   "board", R2)


def _check_keep(s: State, seat: int, m: Move) -> Refusal | None:
    if m["card"] not in s.turn.scry:
        return Refusal(f"{_name(m['card'])} is not among the cards you are looking at", R2)
    return None


_check_bottom = _check_keep


def _check_choose_action(s: State, seat: int, m: Move) -> Refusal | None:
    p = s.players[seat]
    a = m["action"]
    if a == "develop":
        live, colours = live_ongoing(p), colour_counts(p)
        if all(develop_obstacle(s, p, c, live, colours) for c in p.hand):
            return Refusal("You cannot choose Develop: no card in your hand can be developed (each "
                           "needs a same-colour card to discard and its £ cost; paupers never)", R4)
    elif a == "buy_land":
        reach = p.money + s.loan_supply * loan_amount(p)  # what can_afford allows
        if all(BOROUGHS[k].cost > reach for k in s.market):  # why_not_buy for each
            return Refusal("You cannot choose Buy Land: no borough on the market is within your "
                           "means", R5)
    return None


def _check_develop(s: State, seat: int, m: Move) -> Refusal | None:
    return why_not_develop(s, s.players[seat], m["card"])


def _check_end_action(s: State, seat: int, m: Move) -> Refusal | None:
    t = s.turn
    if t.step == "develop" and t.developed == 0:
        return Refusal("Develop means developing at least one card: develop a card before ending "
                       "the action", R4)
    if t.step == "run":
        top = top_borough(s.players[seat])
        if top is not None and top.kind == "active" and not t.borough_done:
            return Refusal(f"Your top borough's ability ({top.name}) must resolve once in every Run "
                           f"the City before the run ends", R6)
    return None


def why_not_pay_colour(s: State, p: Player, cid: int) -> Refusal | None:
    """Rule 4: the development's colour is paid with a same-colour hand card, never a pauper."""
    dev = s.turn.pending
    assert dev is not None
    if cid not in p.hand:
        return Refusal(f"You cannot discard {_name(cid)}: it is not in your hand", R4)
    if CARDS[cid].is_pauper:
        return Refusal("A Pauper can never pay for a development", R4)
    if CARDS[cid].colour != CARDS[dev].colour:
        return Refusal(f"{CARDS[cid].name} is {CARDS[cid].colour}; developing {CARDS[dev].name} "
                       f"needs a {CARDS[dev].colour} card discarded", R4)
    return None


def _check_discard_for_colour(s: State, seat: int, m: Move) -> Refusal | None:
    return why_not_pay_colour(s, s.players[seat], m["card"])


def why_not_place(s: State, seat: int, stack: int | str) -> Refusal | None:
    """Rule 4: a development goes on a new stack or on one of your stacks not built this turn."""
    if stack == "new":
        return None
    p = s.players[seat]
    if not isinstance(stack, int) or not 0 <= stack < len(p.stacks):
        yours = f"stacks 0 to {len(p.stacks) - 1}" if p.stacks else "no stack yet"
        return Refusal(f"You have no stack {stack}: place on a new stack (you have {yours})", R4)
    if stack in s.turn.built:
        return Refusal(f"You cannot place on stack {stack}: it was built this turn; place on a new "
                       f"stack or on a stack not built this turn", R4)
    return None


def _check_place(s: State, seat: int, m: Move) -> Refusal | None:
    return why_not_place(s, seat, m["stack"])


def _check_buy(s: State, seat: int, m: Move) -> Refusal | None:
    return why_not_buy(s, s.players[seat], m["borough"])


def _check_activate(s: State, seat: int, m: Move) -> Refusal | None:
    return why_not_activate(s, s.players[seat], m["card"])


def _check_borough_ability(s: State, seat: int, m: Move) -> Refusal | None:
    top = top_borough(s.players[seat])
    if top is None or top.kind != "active":
        return Refusal("Your top borough has no active ability to resolve", R6)
    if s.turn.borough_done:
        return Refusal(f"{top.name}'s ability has already resolved in this run (exactly once)", R6)
    return None


def _check_pay(s: State, seat: int, m: Move) -> Refusal | None:
    if m["card"] not in s.players[seat].hand:
        return Refusal(f"You cannot discard {_name(m['card'])}: it is not in your hand", R6)
    return None


def _check_flip(s: State, seat: int, m: Move) -> Refusal | None:
    pending = s.turn.pending
    assert pending is not None
    p = s.players[seat]
    if m["card"] == pending or m["card"] == hospital_of(p, pending):
        return None
    return Refusal(f"Either {_name(pending)} flips, or your Hospital flips instead; not "
                   f"{_name(m['card'])}", R6)


def _check_discard(s: State, seat: int, m: Move) -> Refusal | None:
    if m["card"] not in s.players[seat].hand:
        return Refusal(f"You cannot discard {_name(m['card'])}: it is not in your hand", R10)
    return None


def _check_end_turn(s: State, seat: int, m: Move) -> Refusal | None:
    return None


CHECKS: dict[str, Callable[[State, int, Move], Refusal | None]] = {
    "repay_loan": _check_repay_loan, "take_loan": _check_take_loan, "draw": _check_draw,
    "scry": _check_scry, "stop_drawing": _check_stop_drawing, "keep": _check_keep,
    "bottom": _check_bottom, "choose_action": _check_choose_action, "develop": _check_develop,
    "end_action": _check_end_action, "discard_for_colour": _check_discard_for_colour,
    "place": _check_place, "buy": _check_buy, "activate": _check_activate,
    "borough_ability": _check_borough_ability, "pay": _check_pay, "flip": _check_flip,
    "discard": _check_discard, "end_turn": _check_end_turn,
}


# -- candidates -----------------------------------------------------------------------

Candidate = tuple[Move, Callable[[State, int, Move], "Refusal | None"]]
"""A move of the current step and the check that decides whether it is legal now."""


def _candidate(typ: str, **fields: Any) -> Candidate:
    return MOVES.make(typ, **fields), CHECKS[typ]


def _table(typ: str, field: str, values: Iterable[Any]) -> dict[Any, Candidate]:
    return {v: _candidate(typ, **{field: v}) for v in values}


_PLAIN = {t: _candidate(t) for t in ("repay_loan", "take_loan", "scry", "stop_drawing",
                                     "borough_ability", "end_action", "end_turn")}
_DECK_DRAW = _candidate("draw", **{"from": "deck"})
_BOARD_DRAW = {c: _candidate("draw", **{"from": "board", "card": c}) for c in CARD_IDS}
_BY_CARD = {t: _table(t, "card", CARD_IDS) for t in ("keep", "bottom", "develop", "discard_for_colour",
                                                       "activate", "pay", "flip", "discard")}
_PLACE = _table("place", "stack", ["new", *range(len(CARD_IDS))])
_BUY = _table("buy", "borough", BOROUGHS)
_FIXED = {"action": [*(_candidate("choose_action", action=a) for a in ACTIONS), _PLAIN["take_loan"]],
          "end": [_PLAIN["end_turn"], _PLAIN["take_loan"]], "over": []}
"""Every candidate move, made once by ``MOVES.make`` in canonical form with its check;
``legal_moves`` hands out copies of those that pass."""


def _candidates(s: State, seat: int) -> list[Candidate]:
    t = s.turn
    step = t.step
    fixed = _FIXED.get(step)
    if fixed is not None:
        return fixed
    p = s.players[seat]
    out: list[Candidate]
    if step == "start":
        out = [_PLAIN["repay_loan"], _DECK_DRAW]
        out.extend([_BOARD_DRAW[c] for c in s.board_cards()])
        out.append(_PLAIN["scry"])
        out.append(_PLAIN["stop_drawing"])
    elif step == "draw_three":
        out = [_DECK_DRAW]
        out.extend([_BOARD_DRAW[c] for c in s.board_cards()])
    elif step == "scry_keep":
        out = [_BY_CARD["keep"][c] for c in t.scry]
    elif step == "scry_bottom":
        out = [_BY_CARD["bottom"][c] for c in t.scry]
    elif step == "develop":
        table = _BY_CARD["develop"]
        out = [table[c] for c in p.hand]
        out.append(_PLAIN["end_action"])
    elif step == "develop_discard":
        table = _BY_CARD["discard_for_colour"]
        out = [table[c] for c in p.hand]
    elif step == "develop_place":
        out = [_PLACE["new"]]
        out.extend([_PLACE[i] for i in range(len(p.stacks))])
    elif step == "buy":
        out = [_BUY[k] for k in s.market]
    elif step == "run":
        table = _BY_CARD["activate"]
        out = [table[st[-1]] for st in p.stacks]
        out.append(_PLAIN["borough_ability"])
        out.append(_PLAIN["end_action"])
    elif step == "run_pay":
        table = _BY_CARD["pay"]
        out = [table[c] for c in p.hand]
    elif step == "hospital":
        assert t.pending is not None
        out = [_BY_CARD["flip"][t.pending]]
        h = hospital_of(p, t.pending)
        if h is not None:
            out.append(_BY_CARD["flip"][h])
    else:  # "discard"
        table = _BY_CARD["discard"]
        out = [table[c] for c in p.hand]
    out.append(_PLAIN["take_loan"])
    return out


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now (empty when it is not that seat's turn), in canonical form."""
    if s.over or seat != s.current:
        return []
    if s.turn.step == "develop":  # the same checks, with the hand and abilities looked at once
        p = s.players[seat]
        live, colours = live_ongoing(p), colour_counts(p)
        return [m.copy() for m, check in _candidates(s, seat)
                if (develop_obstacle(s, p, m["card"], live, colours) if check is _check_develop
                    else check(s, seat, m)) is None]
    return [m.copy() for m, check in _candidates(s, seat) if check(s, seat, m) is None]


# -- applying moves (after validation) ------------------------------------------------

def begin_turn(s: State, seat: int) -> None:
    """Rule 2: set up the start of ``seat``'s turn; the top borough may replace the draw."""
    s.current = seat
    s.turn = Turn()
    top = top_borough(s.players[seat])
    if top is not None and top.start_draw == "westminster":
        s.turn.draw_min, s.turn.draw_max = 0, 2


def _after_action(s: State) -> None:
    """Rule 1 / 10: after the action, discard down to the hand limit if needed, then end turn."""
    p = s.players[s.current]
    s.turn.pending = None
    s.turn.step = "discard" if len(p.hand) > hand_limit(p) else "end"


def _after_start_draw(s: State) -> None:
    t = s.turn
    t.draws_done += 1
    t.repay_open = False
    if t.draws_done >= t.draw_max:
        t.step = "action"


def _after_draw_three(s: State) -> None:
    t = s.turn
    t.draws_left -= 1
    if t.draws_left <= 0 or not s.can_draw():
        _after_action(s)


def _flip(s: State, seat: int, cid: int, log: Log) -> None:
    s.players[seat].facedown.add(cid)
    log.say("{0}'s {card} flipped face-down", seat, card=CARDS[cid].name)


def _finish_activation(s: State, seat: int, cid: int, log: Log) -> None:
    p = s.players[seat]
    act = CARDS[cid].activation
    assert act is not None
    s.turn.activated.append(cid)
    resolve(s, seat, act.effects, CARDS[cid].name, log)
    s.turn.pending = None
    s.turn.step = "run"
    if act.flips:
        if hospital_of(p, cid) is not None:
            s.turn.pending = cid
            s.turn.step = "hospital"
        else:
            _flip(s, seat, cid, log)


def _end_turn(s: State, seat: int, log: Log) -> None:
    """Rule 11: when the city deck is empty at the end of a turn the endgame triggers; every
    other player gets one last turn, then the game is scored."""
    log.say("{0} ended the turn", seat)
    if not s.endgame and not s.deck:
        s.endgame = True
        s.final_turns_left = s.seats - 1
        log.say("The city deck is empty: every other player has one last turn")
    elif s.endgame:
        s.final_turns_left -= 1
    if s.endgame and s.final_turns_left <= 0:
        s.over = True
        s.turn = Turn(step="over")
        log.say("The game is over")
        return
    s.turn_no += 1
    begin_turn(s, (seat + 1) % s.seats)


def apply(s: State, seat: int, m: Move) -> Log:
    """Carry out a move already found legal by ``refusal``; the log lines it makes."""
    log = Log()
    p = s.players[seat]
    t = s.turn
    typ = m["type"]
    if typ == "take_loan":
        _borrow(s, seat, log)
    elif typ == "repay_loan":
        cost = repay_cost(p)
        p.money -= cost
        p.loans -= 1
        s.loan_supply += 1
        log.say("{0} repaid a loan for £{cost}", seat, cost=cost)
    elif typ == "draw":
        if m["from"] == "deck":
            s.draw_from_deck(seat, log)
        else:
            s.take_from_board(seat, m["card"], log)
        if t.step == "start":
            _after_start_draw(s)
        else:
            _after_draw_three(s)
    elif typ == "stop_drawing":
        t.repay_open = False
        t.step = "action"
        log.say("{0} drew {n} card{s} at the start of the turn", seat, n=t.draws_done,
                s="s" if t.draws_done != 1 else "")
    elif typ == "scry":
        t.repay_open = False
        t.draws_done = 1
        n = min(3, len(s.deck))
        t.scry = [s.deck.pop() for _ in range(n)]
        log.say("{0} looked at the top {n} cards of the deck (St Pancras)", seat,
                privately={seat: "You looked at {cards} (St Pancras)"}, n=n,
                cards=", ".join(_name(c) for c in t.scry))
        t.step = "scry_keep"
    elif typ == "keep":
        cid = m["card"]
        t.scry.remove(cid)
        p.hand.append(cid)
        log.say("{0} kept one card", seat, privately={seat: "You kept {card}"}, card=_name(cid))
        if len(t.scry) >= 2:
            t.step = "scry_bottom"
        else:
            s.deck[:0] = t.scry
            if t.scry:
                log.say("{0} put a card at the bottom of the deck", seat)
            t.scry = []
            t.step = "action"
    elif typ == "bottom":
        cid = m["card"]
        t.scry.remove(cid)
        s.deck[:0] = [cid, *t.scry]  # the chosen card lies at the very bottom
        log.say("{0} put {n} cards at the bottom of the deck", seat, n=len(t.scry) + 1)
        t.scry = []
        t.step = "action"
    elif typ == "choose_action":
        a = m["action"]
        t.action = a
        log.say("{0} chose {action}", seat, action=ACTION_NAMES[a])
        if a == "develop":
            t.step = "develop"
        elif a == "buy_land":
            t.step = "buy"
        elif a == "run_city":
            t.step = "run"
        else:
            t.step = "draw_three"
            t.draws_left = 3
            if not s.can_draw():
                log.say("There is nothing left to draw")
                _after_action(s)
    elif typ == "develop":
        cid = m["card"]
        card = CARDS[cid]
        cost = develop_cost(p, cid)
        p.hand.remove(cid)
        pay(s, seat, cost, card.name, log)
        if card.is_action:
            log.say("{0} played {card} (action card)", seat, card=card.name)
            s.box.append(cid)
            t.developed += 1
            resolve(s, seat, card.on_play, card.name, log)
        else:
            t.pending = cid
            log.say("{0} develops {card} (£{cost})", seat, card=card.name, cost=cost)
            if t.free_colour > 0:
                t.free_colour -= 1
                t.step = "develop_place"
            else:
                t.step = "develop_discard"
    elif typ == "discard_for_colour":
        cid = m["card"]
        s.discard(seat, cid)
        log.say("{0} discarded {card} to the development board", seat, card=_name(cid))
        t.step = "develop_place"
    elif typ == "place":
        cid = t.pending
        assert cid is not None
        if m["stack"] == "new":
            p.stacks.append([cid])
            idx = len(p.stacks) - 1
            log.say("{0} placed {card} on a new stack", seat, card=_name(cid))
        else:
            idx = m["stack"]
            under = p.stacks[idx][-1]
            p.stacks[idx].append(cid)
            log.say("{0} placed {card} on stack {idx}, covering {under}", seat, card=_name(cid),
                    idx=idx, under=_name(under))
        t.built.append(idx)
        t.pending = None
        t.developed += 1
        t.step = "develop"
    elif typ == "end_action":
        if t.step == "run":
            n = run_poverty(p)
            add_poverty(p, n)
            log.say("{0} gained {n} poverty for running the city", seat, n=n)
        else:
            log.say("{0} finished developing", seat)
        _after_action(s)
    elif typ == "buy":
        b = BOROUGHS[m["borough"]]
        pay(s, seat, b.cost, b.name, log)
        s.market.remove(b.key)
        log.say("{0} bought {borough} for £{cost}", seat, borough=b.name, cost=b.cost)
        for _ in range(b.draw):
            if s.draw_from_deck(seat, log, b.name) is None:
                break
        p.prestige += b.prestige
        gone = alleviate(p, b.relief)
        p.boroughs.append(b.key)
        log.say("{0} gained {prestige} prestige and removed {gone} poverty ({borough})", seat,
                prestige=b.prestige, gone=gone, borough=b.name)
        if s.borough_deck:
            new = s.borough_deck.pop()
            s.market.append(new)
            log.say("{borough} came onto the borough market", borough=BOROUGHS[new].name)
        _after_action(s)
    elif typ == "activate":
        cid = m["card"]
        act = CARDS[cid].activation
        assert act is not None
        log.say("{0} activated {card}", seat, card=_name(cid))
        if act.pay == "discard":
            t.pending = cid
            t.step = "run_pay"
        else:
            if act.pay == "money":
                pay(s, seat, act.amount, _name(cid), log)
            _finish_activation(s, seat, cid, log)
    elif typ == "pay":
        cid = m["card"]
        s.discard(seat, cid)
        log.say("{0} discarded {card} to pay", seat, card=_name(cid))
        pending = t.pending
        assert pending is not None
        _finish_activation(s, seat, pending, log)
    elif typ == "flip":
        _flip(s, seat, m["card"], log)
        t.pending = None
        t.step = "run"
    elif typ == "borough_ability":
        top = top_borough(p)
        assert top is not None
        t.borough_done = True
        log.say("{0} resolved {borough}'s ability", seat, borough=top.name)
        resolve(s, seat, top.effects, top.name, log)
    elif typ == "discard":
        cid = m["card"]
        s.discard(seat, cid)
        log.say("{0} discarded {card} (hand limit)", seat, card=_name(cid))
        if len(p.hand) <= hand_limit(p):
            t.step = "end"
    elif typ == "end_turn":
        _end_turn(s, seat, log)
    return log


# -- what may be taken back -----------------------------------------------------------

# Moves that never draw, reveal or pass the turn: the money, the choice of action, building,
# discards (the card was the mover's own; it goes face-up where everyone sees it).
_ALWAYS_REVERSIBLE = frozenset({"take_loan", "repay_loan", "stop_drawing", "choose_action", "discard_for_colour",
                                "place", "end_action", "flip", "discard"})


def _draws(effects: Iterable[Effect]) -> bool:
    return any(e["do"] == "draw" for e in effects)


def reversible(s: State, seat: int, m: Move) -> bool:
    """May ``m`` (legal now) be taken back? Not when it draws from the deck (a draw, St Pancras's
    look, an effect that draws), nor a purchase (a face-down borough comes onto the market), nor
    the end of the turn; the rest reveals nothing the mover did not already know."""
    typ = m["type"]
    if typ in _ALWAYS_REVERSIBLE:
        return True
    if typ == "draw":
        return bool(m["from"] == "board")
    if typ == "develop":
        card = CARDS[m["card"]]
        return not (card.is_action and _draws(card.on_play))
    if typ == "activate":
        act = CARDS[m["card"]].activation
        return act is not None and (act.pay == "discard" or not _draws(act.effects))
    if typ == "pay":
        pending = s.turn.pending
        act = CARDS[pending].activation if pending is not None else None
        return act is not None and not _draws(act.effects)
    if typ == "borough_ability":
        top = top_borough(s.players[seat])
        return top is not None and not _draws(top.effects)
    return False  # a draw from the deck, St Pancras, keep, bottom, buy, the end of the turn
