"""The rules of London: one predicate per move, shared by ``legal_moves`` and ``play``.

Each ``_check_<move>`` returns ``None`` when the move is legal, else a ``Refusal`` naming the rule.
``legal_moves`` lists the candidate moves of the current step and keeps those whose check passes;
``refusal`` runs the same check for ``play``. There is no other source of legality.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from engines.base import Event, Move
from engines.london.components import BOROUGHS, CARDS
from engines.london.effects import (
    add_poverty,
    alleviate,
    live_ongoing,
    resolve,
    top_borough,
)
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

ACTIONS = ("develop", "buy_land", "run_city", "draw_three")
ACTION_NAMES = {"develop": "Develop", "buy_land": "Buy Land", "run_city": "Run the City",
                "draw_three": "Draw Three"}


class Refusal(NamedTuple):
    message: str
    rule: str | None = None
    code: str = "illegal_move"


# -- the moves each step accepts ------------------------------------------------------

STEP_MOVES: dict[str, tuple[str, ...]] = {
    "start": ("repay_loan", "draw", "scry", "stop_drawing"),
    "scry_keep": ("keep",),
    "scry_bottom": ("bottom",),
    "action": ("choose_action",),
    "develop": ("develop", "end_action"),
    "develop_discard": ("discard_for_colour",),
    "develop_place": ("place",),
    "buy": ("buy",),
    "run": ("activate", "borough_ability", "end_action"),
    "run_pay": ("pay",),
    "hospital": ("flip",),
    "draw_three": ("draw",),
    "discard": ("discard",),
    "end": ("end_turn",),
    "over": (),
}

STEP_WORDS = {
    "start": "the start of your turn (repay loans, then draw)",
    "scry_keep": "choosing which of the top cards to keep (St Pancras)",
    "scry_bottom": "putting the other cards at the bottom of the deck (St Pancras)",
    "action": "choosing your action",
    "develop": "developing (play a card, or end the action)",
    "develop_discard": "discarding a same-colour card to pay for a development",
    "develop_place": "placing the developed card in your display",
    "buy": "buying a borough",
    "run": "running the city (activate cards, resolve your borough, end the run)",
    "run_pay": "discarding a card to pay for an activation",
    "hospital": "choosing which card flips (Hospital)",
    "draw_three": "drawing three cards",
    "discard": "discarding down to your hand limit",
    "end": "ending your turn",
    "over": "the end of the game",
}

# Fields of each move besides "type": name -> kind ("card", "stack", "action", "borough", "from")
SHAPES: dict[str, tuple[str, ...]] = {
    "repay_loan": (), "take_loan": (), "stop_drawing": (), "scry": (), "end_action": (),
    "borough_ability": (), "end_turn": (),
    "draw": ("from",),  # plus "card" when from == "board"
    "keep": ("card",), "bottom": ("card",), "choose_action": ("action",), "develop": ("card",),
    "discard_for_colour": ("card",), "place": ("stack",), "buy": ("borough",),
    "activate": ("card",), "pay": ("card",), "flip": ("card",), "discard": ("card",),
}


# -- live quantities ------------------------------------------------------------------

def hand_limit(p: Player) -> int:
    """Rule 10: 9, plus any live hand-limit bonus."""
    return HAND_LIMIT + sum(int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "hand_limit")


def loan_amount(p: Player) -> int:
    """Rule 9: £10 a loan (£12 while City tops your pile)."""
    return max([LOAN_AMOUNT] + [int(o["amount"]) for o in live_ongoing(p)
                                if o["ability"] == "loan_amount"])


def repay_cost(p: Player) -> int:
    """Rule 9: £15 to repay a loan (Bank of England, face-up on top: £12)."""
    return min([REPAY_COST] + [int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "repay_cost"])


def develop_cost(p: Player, cid: int) -> int:
    """Rule 4: the printed £ cost, less any live discount for that colour."""
    card = CARDS[cid]
    off = sum(int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "develop_discount"
              and o["colour"] in ("any", card.colour))
    return max(0, card.cost - off)


def poverty_shield(p: Player) -> int:
    return sum(int(o["amount"]) for o in live_ongoing(p) if o["ability"] == "poverty_shield")


def run_poverty(p: Player) -> int:
    """Rule 7: +1 per display stack, +1 per £10 loan, +1 per card left in hand (less shields)."""
    return max(0, len(p.stacks) + p.loans + len(p.hand) - poverty_shield(p))


def can_afford(s: State, p: Player, amount: int) -> bool:
    """Rule 9: you must borrow when you must pay what you cannot, so a price is within reach
    while your money plus the loans left in the supply cover it."""
    return amount <= p.money + s.loan_supply * loan_amount(p)


def pay(s: State, seat: int, amount: int, why: str, events: list[Event]) -> None:
    """Pay £amount, taking the loans needed first (rule 9)."""
    p = s.players[seat]
    while p.money < amount:
        _borrow(s, seat, events, forced=why)
    p.money -= amount


def _borrow(s: State, seat: int, events: list[Event], forced: str = "") -> None:
    p = s.players[seat]
    amount = loan_amount(p)
    p.loans += 1
    p.money += amount
    s.loan_supply -= 1
    why = f" to pay for {forced}" if forced else ""
    events.append(Event(f"{{seat:{seat}}} took a £{amount} loan{why}"))


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


def _colour_partner(p: Player, cid: int) -> bool:
    colour = CARDS[cid].colour
    return any(h != cid and CARDS[h].colour == colour and not CARDS[h].is_pauper for h in p.hand)


# -- the rule predicates (one per move) -------------------------------------------------

def why_not_develop(s: State, p: Player, cid: int) -> Refusal | None:
    """Rule 4: a hand card that is not a pauper, whose £ cost you can meet, and (unless it is an
    action card, or Wren's favour is pending) with another same-colour non-pauper card in hand."""
    if cid not in p.hand:
        return Refusal(f"You cannot develop {_name(cid)}: it is not in your hand", R4)
    card = CARDS[cid]
    if card.is_pauper:
        return Refusal("You cannot develop a Pauper: paupers can never be placed", R4)
    cost = develop_cost(p, cid)
    if not can_afford(s, p, cost):
        return Refusal(f"You cannot develop {card.name}: it costs £{cost}, you have £{p.money} and "
                       f"the loans left cannot cover it", R4)
    if not card.is_action and s.turn.free_colour == 0 and not _colour_partner(p, cid):
        return Refusal(f"You cannot develop {card.name}: it needs a {card.colour} card discarded and "
                       f"your hand has none (paupers do not count)", R4)
    return None


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
    if a == "develop" and all(why_not_develop(s, p, c) for c in p.hand):
        return Refusal("You cannot choose Develop: no card in your hand can be developed (each needs "
                       "a same-colour card to discard and its £ cost; paupers never)", R4)
    if a == "buy_land" and all(why_not_buy(s, p, k) for k in s.market):
        return Refusal("You cannot choose Buy Land: no borough on the market is within your means", R5)
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


def _check_discard_for_colour(s: State, seat: int, m: Move) -> Refusal | None:
    p = s.players[seat]
    cid = m["card"]
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


def _check_place(s: State, seat: int, m: Move) -> Refusal | None:
    stack = m["stack"]
    if stack == "new":
        return None
    p = s.players[seat]
    if not 0 <= stack < len(p.stacks):
        return Refusal(f"You have no stack {stack}: place on a new stack or on stacks 0 to "
                       f"{len(p.stacks) - 1}", R4)
    if stack in s.turn.built:
        return Refusal(f"You cannot place on stack {stack}: it was built this turn; place on a new "
                       f"stack or on a stack not built this turn", R4)
    return None


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


def _malformed(m: Any) -> Refusal | None:
    """Shape: a dict with a known "type" and exactly that move's fields, of the right kinds."""
    if not isinstance(m, dict) or not isinstance(m.get("type"), str):
        return Refusal('A move must be a JSON object with a "type"', code="malformed_move")
    typ = m["type"]
    if typ not in SHAPES:
        return Refusal(f"Unknown move type {typ!r}; London knows {', '.join(sorted(SHAPES))}",
                       code="unknown_move")
    fields = SHAPES[typ]
    if typ == "draw":
        src = m.get("from")
        if src not in ("deck", "board"):
            return Refusal('A draw needs "from": "deck" or "board"', code="malformed_move")
        fields = ("from", "card") if src == "board" else ("from",)
    extra = set(m) - {"type", *fields}
    if extra:
        return Refusal(f"A {typ} move has no field {sorted(extra)[0]!r}", code="malformed_move")
    for f in fields:
        if f not in m:
            return Refusal(f'A {typ} move needs a "{f}"', code="malformed_move")
        v = m[f]
        ok = {
            "card": isinstance(v, int) and not isinstance(v, bool),
            "stack": v == "new" or (isinstance(v, int) and not isinstance(v, bool)),
            "action": v in ACTIONS,
            "borough": isinstance(v, str),
            "from": True,
        }[f]
        if not ok:
            want = {"card": "a card id (an integer)", "stack": '"new" or a stack index',
                    "action": "one of " + ", ".join(ACTIONS), "borough": "a borough key"}[f]
            return Refusal(f'The "{f}" of a {typ} move must be {want}', code="malformed_move")
    return None


def refusal(s: State, seat: int, m: Any) -> Refusal | None:
    """Why ``m`` may not be played now by ``seat`` (None: it may)."""
    bad = _malformed(m)
    if bad is not None:
        return bad
    if s.over:
        return Refusal("The game is over", R11, code="not_your_turn")
    if seat != s.current:
        return Refusal(f"It is not your turn: {{seat:{s.current}}} is to play", R1, code="not_your_turn")
    typ = m["type"]
    step = s.turn.step
    if typ not in ("take_loan", "repay_loan") and typ not in STEP_MOVES[step]:
        return Refusal(f"You cannot {typ.replace('_', ' ')} now: you are at {STEP_WORDS[step]}", R1)
    return CHECKS[typ](s, seat, m)


# -- candidates -----------------------------------------------------------------------

def _candidates(s: State, seat: int) -> list[Move]:
    p = s.players[seat]
    t = s.turn
    step = t.step
    out: list[Move] = []
    if step == "start":
        out.append({"type": "repay_loan"})
        out.append({"type": "draw", "from": "deck"})
        out.extend({"type": "draw", "from": "board", "card": c} for c in s.board_cards())
        out.append({"type": "scry"})
        out.append({"type": "stop_drawing"})
    elif step == "draw_three":
        out.append({"type": "draw", "from": "deck"})
        out.extend({"type": "draw", "from": "board", "card": c} for c in s.board_cards())
    elif step == "scry_keep":
        out.extend({"type": "keep", "card": c} for c in t.scry)
    elif step == "scry_bottom":
        out.extend({"type": "bottom", "card": c} for c in t.scry)
    elif step == "action":
        out.extend({"type": "choose_action", "action": a} for a in ACTIONS)
    elif step == "develop":
        out.extend({"type": "develop", "card": c} for c in p.hand)
        out.append({"type": "end_action"})
    elif step == "develop_discard":
        out.extend({"type": "discard_for_colour", "card": c} for c in p.hand)
    elif step == "develop_place":
        out.append({"type": "place", "stack": "new"})
        out.extend({"type": "place", "stack": i} for i in range(len(p.stacks)))
    elif step == "buy":
        out.extend({"type": "buy", "borough": k} for k in s.market)
    elif step == "run":
        out.extend({"type": "activate", "card": st[-1]} for st in p.stacks)
        out.append({"type": "borough_ability"})
        out.append({"type": "end_action"})
    elif step == "run_pay":
        out.extend({"type": "pay", "card": c} for c in p.hand)
    elif step == "hospital":
        assert t.pending is not None
        out.append({"type": "flip", "card": t.pending})
        h = hospital_of(p, t.pending)
        if h is not None:
            out.append({"type": "flip", "card": h})
    elif step == "discard":
        out.extend({"type": "discard", "card": c} for c in p.hand)
    elif step == "end":
        out.append({"type": "end_turn"})
    if step != "over":
        out.append({"type": "take_loan"})
    return out


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now (empty when it is not that seat's turn)."""
    if s.over or seat != s.current:
        return []
    return [m for m in _candidates(s, seat) if CHECKS[m["type"]](s, seat, m) is None]


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


def _flip(s: State, seat: int, cid: int, events: list[Event]) -> None:
    s.players[seat].facedown.add(cid)
    events.append(Event(f"{{seat:{seat}}}'s {CARDS[cid].name} flipped face-down"))


def _finish_activation(s: State, seat: int, cid: int, events: list[Event]) -> None:
    p = s.players[seat]
    act = CARDS[cid].activation
    assert act is not None
    s.turn.activated.append(cid)
    resolve(s, seat, act.effects, CARDS[cid].name, events)
    s.turn.pending = None
    s.turn.step = "run"
    if act.flips:
        if hospital_of(p, cid) is not None:
            s.turn.pending = cid
            s.turn.step = "hospital"
        else:
            _flip(s, seat, cid, events)


def _end_turn(s: State, seat: int, events: list[Event]) -> None:
    """Rule 11: when the city deck is empty at the end of a turn the endgame triggers; every
    other player gets one last turn, then the game is scored."""
    events.append(Event(f"{{seat:{seat}}} ended the turn"))
    if not s.endgame and not s.deck:
        s.endgame = True
        s.final_turns_left = s.seats - 1
        events.append(Event("The city deck is empty: every other player has one last turn"))
    elif s.endgame:
        s.final_turns_left -= 1
    if s.endgame and s.final_turns_left <= 0:
        s.over = True
        s.turn = Turn(step="over")
        events.append(Event("The game is over"))
        return
    s.turn_no += 1
    begin_turn(s, (seat + 1) % s.seats)


def apply(s: State, seat: int, m: Move) -> list[Event]:
    """Carry out a move already found legal by ``refusal``."""
    ev: list[Event] = []
    p = s.players[seat]
    t = s.turn
    typ = m["type"]
    if typ == "take_loan":
        _borrow(s, seat, ev)
    elif typ == "repay_loan":
        cost = repay_cost(p)
        p.money -= cost
        p.loans -= 1
        s.loan_supply += 1
        ev.append(Event(f"{{seat:{seat}}} repaid a loan for £{cost}"))
    elif typ == "draw":
        if m["from"] == "deck":
            s.draw_from_deck(seat, ev)
        else:
            s.take_from_board(seat, m["card"], ev)
        if t.step == "start":
            _after_start_draw(s)
        else:
            _after_draw_three(s)
    elif typ == "stop_drawing":
        t.repay_open = False
        t.step = "action"
        ev.append(Event(f"{{seat:{seat}}} drew {t.draws_done} card{'s' if t.draws_done != 1 else ''} "
                        f"at the start of the turn"))
    elif typ == "scry":
        t.repay_open = False
        t.draws_done = 1
        n = min(3, len(s.deck))
        t.scry = [s.deck.pop() for _ in range(n)]
        ev.append(Event(f"{{seat:{seat}}} looked at the top {n} cards of the deck (St Pancras)",
                        {seat: "You looked at " + ", ".join(_name(c) for c in t.scry) + " (St Pancras)"}))
        t.step = "scry_keep"
    elif typ == "keep":
        cid = m["card"]
        t.scry.remove(cid)
        p.hand.append(cid)
        ev.append(Event(f"{{seat:{seat}}} kept one card", {seat: f"You kept {_name(cid)}"}))
        if len(t.scry) >= 2:
            t.step = "scry_bottom"
        else:
            s.deck[:0] = t.scry
            if t.scry:
                ev.append(Event(f"{{seat:{seat}}} put a card at the bottom of the deck"))
            t.scry = []
            t.step = "action"
    elif typ == "bottom":
        cid = m["card"]
        t.scry.remove(cid)
        s.deck[:0] = [cid, *t.scry]  # the chosen card lies at the very bottom
        ev.append(Event(f"{{seat:{seat}}} put {len(t.scry) + 1} cards at the bottom of the deck"))
        t.scry = []
        t.step = "action"
    elif typ == "choose_action":
        a = m["action"]
        t.action = a
        ev.append(Event(f"{{seat:{seat}}} chose {ACTION_NAMES[a]}"))
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
                ev.append(Event("There is nothing left to draw"))
                _after_action(s)
    elif typ == "develop":
        cid = m["card"]
        card = CARDS[cid]
        cost = develop_cost(p, cid)
        p.hand.remove(cid)
        pay(s, seat, cost, card.name, ev)
        if card.is_action:
            ev.append(Event(f"{{seat:{seat}}} played {card.name} (action card)"))
            s.box.append(cid)
            t.developed += 1
            resolve(s, seat, card.on_play, card.name, ev)
        else:
            t.pending = cid
            ev.append(Event(f"{{seat:{seat}}} develops {card.name} (£{cost})"))
            if t.free_colour > 0:
                t.free_colour -= 1
                t.step = "develop_place"
            else:
                t.step = "develop_discard"
    elif typ == "discard_for_colour":
        cid = m["card"]
        s.discard(seat, cid)
        ev.append(Event(f"{{seat:{seat}}} discarded {_name(cid)} to the development board"))
        t.step = "develop_place"
    elif typ == "place":
        cid = t.pending
        assert cid is not None
        if m["stack"] == "new":
            p.stacks.append([cid])
            idx = len(p.stacks) - 1
            ev.append(Event(f"{{seat:{seat}}} placed {_name(cid)} on a new stack"))
        else:
            idx = m["stack"]
            under = p.stacks[idx][-1]
            p.stacks[idx].append(cid)
            ev.append(Event(f"{{seat:{seat}}} placed {_name(cid)} on stack {idx}, covering "
                            f"{_name(under)}"))
        t.built.append(idx)
        t.pending = None
        t.developed += 1
        t.step = "develop"
    elif typ == "end_action":
        if t.step == "run":
            n = run_poverty(p)
            add_poverty(p, n)
            ev.append(Event(f"{{seat:{seat}}} gained {n} poverty for running the city"))
        else:
            ev.append(Event(f"{{seat:{seat}}} finished developing"))
        _after_action(s)
    elif typ == "buy":
        b = BOROUGHS[m["borough"]]
        pay(s, seat, b.cost, b.name, ev)
        s.market.remove(b.key)
        ev.append(Event(f"{{seat:{seat}}} bought {b.name} for £{b.cost}"))
        for _ in range(b.draw):
            if s.draw_from_deck(seat, ev, b.name) is None:
                break
        p.prestige += b.prestige
        gone = alleviate(p, b.relief)
        p.boroughs.append(b.key)
        ev.append(Event(f"{{seat:{seat}}} gained {b.prestige} prestige and removed {gone} poverty "
                        f"({b.name})"))
        if s.borough_deck:
            new = s.borough_deck.pop()
            s.market.append(new)
            ev.append(Event(f"{BOROUGHS[new].name} came onto the borough market"))
        _after_action(s)
    elif typ == "activate":
        cid = m["card"]
        act = CARDS[cid].activation
        assert act is not None
        ev.append(Event(f"{{seat:{seat}}} activated {_name(cid)}"))
        if act.pay == "discard":
            t.pending = cid
            t.step = "run_pay"
        else:
            if act.pay == "money":
                pay(s, seat, act.amount, _name(cid), ev)
            _finish_activation(s, seat, cid, ev)
    elif typ == "pay":
        cid = m["card"]
        s.discard(seat, cid)
        ev.append(Event(f"{{seat:{seat}}} discarded {_name(cid)} to pay"))
        pending = t.pending
        assert pending is not None
        _finish_activation(s, seat, pending, ev)
    elif typ == "flip":
        _flip(s, seat, m["card"], ev)
        t.pending = None
        t.step = "run"
    elif typ == "borough_ability":
        top = top_borough(p)
        assert top is not None
        t.borough_done = True
        ev.append(Event(f"{{seat:{seat}}} resolved {top.name}'s ability"))
        resolve(s, seat, top.effects, top.name, ev)
    elif typ == "discard":
        cid = m["card"]
        s.discard(seat, cid)
        ev.append(Event(f"{{seat:{seat}}} discarded {_name(cid)} (hand limit)"))
        if len(p.hand) <= hand_limit(p):
            t.step = "end"
    elif typ == "end_turn":
        _end_turn(s, seat, ev)
    return ev
