"""London's turn, declared with the kit's ``Turn``: each step of a turn, the moves it takes, the
rule a move out of it breaks, what the player is doing there and what the prompt says; and the
words of the prompt (the buttons' labels, the cards that cannot be chosen now and why).

A turn: the start (repay loans, then draw; St Pancras may look at three cards instead), one
action (Develop, Buy Land, Run the City, Draw Three: each a phase of one or more steps), the
hand limit, the end. Only the current player is awaited. A loan may be taken at any step (and
``repay_loan`` is checked by its own rule at every step): the turn passes both to their checks.
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalMove, Move
from engines.kit import Phase, Step, Turn, current, say
from engines.london.components import BOROUGHS, CARDS, ref
from engines.london.effects import top_borough
from engines.london.rules import (
    ACTION_NAMES,
    CHECKS,
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R8,
    R10,
    R11,
    Refusal,
    develop_cost,
    hand_limit,
    hospital_of,
    loan_amount,
    loans_taken,
    repay_cost,
    run_poverty,
    why_not_activate,
    why_not_develop,
    why_not_pay_colour,
    why_not_place,
)
from engines.london.state import State

# -- what each step's prompt says -------------------------------------------------------------

def _ask_start(s: State, seat: int) -> str:
    p = s.players[seat]
    t = s.turn
    parts = ["Start of your turn."]
    if t.repay_open and p.loans and p.money >= repay_cost(p):
        parts.append(f"You may repay a loan (£{repay_cost(p)}) now, before drawing.")
    top = top_borough(p)
    if not s.can_draw():
        parts.append("There is nothing left to draw: stop drawing.")
    elif top is not None and top.start_draw == "westminster":
        parts.append(f"Westminster: draw 0, 1 or 2 cards (drawn so far: {t.draws_done}), then stop.")
    elif top is not None and top.start_draw == "st_pancras" and s.deck:
        parts.append("Draw a card from the deck or the development board, or (St Pancras) look at "
                     "the top 3 cards and keep one.")
    else:
        parts.append("Draw a card from the deck or the development board.")
    return " ".join(parts)


def _pending(s: State) -> str:
    return CARDS[s.turn.pending].name if s.turn.pending is not None else ""


def _ask_scry_keep(s: State, seat: int) -> str:
    return "St Pancras: keep one of " + ", ".join(CARDS[c].name for c in s.turn.scry)


def _ask_develop(s: State, seat: int) -> str:
    if s.turn.developed == 0:
        return "Develop: choose a card to develop"
    return "Develop: choose another card to develop, or stop developing"


def _ask_develop_discard(s: State, seat: int) -> str:
    t = s.turn
    colour = CARDS[t.pending].colour if t.pending is not None else ""
    return f"Discard a {colour} card to pay for {_pending(s)}"


def _ask_develop_place(s: State, seat: int) -> str:
    return f"Place {_pending(s)} on a new stack or on a stack not built this turn"


def _ask_run(s: State, seat: int) -> str:
    p = s.players[seat]
    top = top_borough(p)
    parts = ["Run the City: activate any of your face-up cards, once each"]
    if top is not None and top.kind == "active":
        parts.append(f"resolve {top.name}'s ability ({'done' if s.turn.borough_done else 'required'})")
    parts.append(f"then end the run (poverty afterwards: +{run_poverty(p)})")
    return "; ".join(parts)


def _ask_run_pay(s: State, seat: int) -> str:
    return f"Discard a card to activate {_pending(s)}"


def _ask_hospital(s: State, seat: int) -> str:
    t = s.turn
    h = hospital_of(s.players[seat], t.pending) if t.pending is not None else None
    other = CARDS[h].name if h is not None else "Hospital"
    return f"{_pending(s)} flips: flip it, or flip your {other} instead"


def _ask_draw_three(s: State, seat: int) -> str:
    return f"Draw Three: draw card {4 - s.turn.draws_left} of 3 from the deck or the development board"


def _ask_discard(s: State, seat: int) -> str:
    p = s.players[seat]
    extra = len(p.hand) - hand_limit(p)
    plural = "s" if extra != 1 else ""
    return f"Your hand is over the limit of {hand_limit(p)}: discard {extra} more card{plural}"


def label(s: State, seat: int, m: Move) -> str:
    """Plain words for a legal move (the button text)."""
    p = s.players[seat]
    typ = m["type"]
    cid = m.get("card")
    name = CARDS[cid].name if isinstance(cid, int) and 0 <= cid < len(CARDS) else ""
    if typ == "take_loan":
        return f"Take a £{loan_amount(p)} loan"
    if typ == "repay_loan":
        return f"Repay a loan (£{repay_cost(p)})"
    if typ == "draw":
        return "Draw from the deck" if m["from"] == "deck" else f"Take {name} from the development board"
    if typ == "scry":
        return "Look at the top 3 cards instead (St Pancras)"
    if typ == "stop_drawing":
        return "Stop drawing"
    if typ == "keep":
        return f"Keep {name}"
    if typ == "bottom":
        return f"Put {name} at the very bottom"
    if typ == "choose_action":
        return ACTION_NAMES[str(m["action"])]
    if typ == "develop":
        return f"Develop {name} (£{develop_cost(p, cid) if isinstance(cid, int) else 0})"
    if typ == "discard_for_colour":
        return f"Discard {name} to pay the colour"
    if typ == "place":
        if m["stack"] == "new":
            return "Place on a new stack"
        return f"Place on stack {m['stack']} (covering {CARDS[p.stacks[m['stack']][-1]].name})"
    if typ == "buy":
        b = BOROUGHS[m["borough"]]
        return f"Buy {b.name} (£{b.cost})"
    if typ == "activate":
        return f"Activate {name}"
    if typ == "borough_ability":
        top = top_borough(p)
        return f"Resolve {top.name if top else 'the borough'}'s ability"
    if typ == "end_action":
        return "End the run" if s.turn.step == "run" else "Stop developing"
    if typ == "pay":
        return f"Discard {name} to pay"
    if typ == "flip":
        return f"Flip {name}"
    if typ == "discard":
        return f"Discard {name}"
    if typ == "end_turn":
        return "End turn"
    return str(typ)


def unavailable(s: State, seat: int) -> list[dict[str, Any]]:
    """The cards the current step could concern that cannot be chosen now, each with the reason
    (the rule, and the real cost after discounts where the cost is the obstacle): in Develop the
    hand cards that cannot be developed, while paying a development's colour the hand cards that
    cannot pay it, while placing the tops of stacks built this turn, in a run every display card
    that cannot be activated."""
    p = s.players[seat]
    t = s.turn
    whys: list[tuple[int, Refusal | None]] = []
    if t.step == "develop":
        whys = [(c, why_not_develop(s, p, c)) for c in p.hand]
    elif t.step == "develop_discard":
        whys = [(c, why_not_pay_colour(s, p, c)) for c in p.hand]
    elif t.step == "develop_place":
        whys = [(st[-1], why_not_place(s, seat, i)) for i, st in enumerate(p.stacks)]
    elif t.step == "run":
        whys = [(c, why_not_activate(s, p, c)) for st in p.stacks for c in st]
    return [{"card": c, "reason": f"{why.message} ({why.rule})"} for c, why in whys if why is not None]


def _extra(s: State, seat: int, moves: list[Move]) -> dict[str, Any]:
    """What the renderer reads beside the choices (``step``, ``action``, ``pending``,
    ``unavailable``)."""
    t = s.turn
    return {"step": t.step, "action": t.action, "pending": ref(t.pending) if t.pending is not None else None,
            "unavailable": unavailable(s, seat)}


def _loans(s: State, seat: int, m: Move) -> dict[str, Any] | None:
    """A choice that takes loans says how many."""
    loans = loans_taken(s, seat, m)
    return {"loans": loans} if loans else None


# -- the refusals of the turn's frame ---------------------------------------------------------

START_STEPS = ("start", "scry_keep", "scry_bottom")
START_MOVES = ("draw", "scry", "stop_drawing", "keep", "bottom")
ACTION_RULES = {"develop": R4, "develop_discard": R4, "develop_place": R4, "buy": R5, "run": R6,
                "run_pay": R6, "hospital": R6, "draw_three": R8}
"""The steps inside an action, and the rule that says how that action goes."""
ACTION_MOVES = {R4: ("develop", "discard_for_colour", "place"), R5: ("buy",),
                R6: ("activate", "borough_ability", "pay", "flip"), R8: ("draw",)}


def out_of_step(s: State, typ: str) -> Refusal:
    """A move the current step does not take, refused under the most specific rule that forbids
    it: before the draw is done, rule 2 (nothing but repaying and drawing comes first); a second
    action, rule 3; a hand-limit discard out of place, or ending the turn over the limit,
    rule 10; inside an action, that action's rule for its own moves and for finishing early,
    rule 3 for another action's moves."""
    t = s.turn
    step = t.step
    what = f"You cannot {typ.replace('_', ' ')} now: you are at {TURN.steps[step].doing}"
    chosen = ACTION_NAMES.get(t.action or "", "")
    if step in START_STEPS:
        if typ in START_MOVES:
            return Refusal(what, R2)
        return Refusal(f"{what}; the start of the turn (repay loans, then draw) comes before "
                       f"anything else", R2)
    if typ in START_MOVES and not (typ == "draw" and step != "action"):
        if typ == "draw":
            return Refusal(f"{what}; the start of the turn draws once, and only Draw Three draws "
                           f"more", R2)
        return Refusal(f"{what}; that belongs to the start of the turn, which is over", R2)
    if typ == "choose_action":
        return Refusal(f"{what}; you have already chosen {chosen}, and each turn has exactly one "
                       f"action", R3)
    if typ == "discard":
        return Refusal(f"{what}; hand-limit discards come after the action, and only while your "
                       f"hand is over the limit", R10)
    if typ == "end_turn" and step == "discard":
        p = s.players[s.current]
        return Refusal(f"{what}; your hand holds {len(p.hand)} cards, over the limit of "
                       f"{hand_limit(p)}: discard down to it before ending the turn", R10)
    rule = ACTION_RULES.get(step)
    if rule is not None:
        if typ in ACTION_MOVES[rule] or typ in ("end_action", "end_turn"):
            return Refusal(what, rule)
        return Refusal(f"{what}; you chose {chosen}, and each turn has exactly one action", R3)
    if step == "action":
        return Refusal(f"{what}; choose your one action first", R3)
    return Refusal(f"{what}; your one action this turn is done", R3)


def _ended(s: State, seat: int) -> IllegalMove:
    return IllegalMove("The game is over", rule=R11, code="not_your_turn")


def _waiting(s: State, seat: int, step: Step) -> IllegalMove:
    return IllegalMove(say("It is not your turn: {0} is to play", s.current), rule=R1, code="not_your_turn")


def _elsewhere(s: State, seat: int, typ: str, step: Step) -> IllegalMove:
    why = out_of_step(s, typ)
    return IllegalMove(why.message, rule=why.rule, code=why.code)


def check(s: State, seat: int, m: Move) -> IllegalMove | None:
    """What the move itself breaks, once the turn has let it through (``rules.CHECKS``)."""
    why = CHECKS[m["type"]](s, seat, m)
    return None if why is None else IllegalMove(why.message, rule=why.rule, code=why.code)


def _step(name: str, moves: tuple[str, ...], doing: str, ask: str | Any) -> Step:
    return Step(name, moves, doing=doing, ask=ask, extra=_extra)


TURN: Turn[State] = Turn(
    Phase("start", (
        _step("start", ("repay_loan", "draw", "scry", "stop_drawing"),
              "the start of your turn (repay loans, then draw)", _ask_start),
        _step("scry_keep", ("keep",), "choosing which of the top cards to keep (St Pancras)", _ask_scry_keep),
        _step("scry_bottom", ("bottom",), "putting the other cards at the bottom of the deck (St Pancras)",
              "St Pancras: choose the card for the very bottom of the deck (the other goes just above it)"),
    ), seats=current(), rule=R2),
    Phase("action", (
        _step("action", ("choose_action",), "choosing your action",
              "Choose your action: Develop, Buy Land, Run the City or Draw Three"),
    ), seats=current(), rule=R3),
    Phase("develop", (
        _step("develop", ("develop", "end_action"), "developing (play a card, or end the action)", _ask_develop),
        _step("develop_discard", ("discard_for_colour",),
              "discarding a same-colour card to pay for a development", _ask_develop_discard),
        _step("develop_place", ("place",), "placing the developed card in your display", _ask_develop_place),
    ), seats=current(), rule=R4),
    Phase("buy_land", (
        _step("buy", ("buy",), "buying a borough", "Buy Land: choose a borough from the market"),
    ), seats=current(), rule=R5),
    Phase("run_city", (
        _step("run", ("activate", "borough_ability", "end_action"),
              "running the city (activate cards, resolve your borough, end the run)", _ask_run),
        _step("run_pay", ("pay",), "discarding a card to pay for an activation", _ask_run_pay),
        _step("hospital", ("flip",), "choosing which card flips (Hospital)", _ask_hospital),
    ), seats=current(), rule=R6),
    Phase("draw_three", (
        _step("draw_three", ("draw",), "drawing three cards", _ask_draw_three),
    ), seats=current(), rule=R8),
    Phase("end", (
        _step("discard", ("discard",), "discarding down to your hand limit", _ask_discard),
        _step("end", ("end_turn",), "ending your turn", "End your turn"),
        _step("over", (), "the end of the game", ""),
    ), seats=current(), rule=R10),
    where=lambda s: s.turn.step,
    over=lambda s: s.over,
    label=label,
    mark=_loans,
    anytime=("take_loan", "repay_loan"),
    ended=_ended,
    waiting=_waiting,
    elsewhere=_elsewhere,
)
"""A London turn: the steps, by phase (each action is a phase), the current player at each."""
