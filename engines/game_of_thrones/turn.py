"""A Game of Thrones' turn, declared with the kit's ``Turn``: one step per decision kind (the
kinds gathered in ``kinds.py``) with the moves it takes, the seats it awaits, the rule a move out
of it breaks and its prompt's words; the labels of the listed moves; the frame of every refusal.

Planning's orders are no decision on the stack: the step ``orders`` is where the table is while
the stack is empty in the Planning phase, and awaits the houses not yet ready (the planning
``Commitments``). A combat's house cards and a bidding are hidden choices too: their steps await
the seats that have not chosen. Every other step awaits the seats of the top decision, and its
prompt carries the decision's data for the renderer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engines.base import IllegalMove, Move
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import refusals as X
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.components import BOARD, HOUSE_CARDS, HOUSES, ORDERS, TRACK_NAMES
from engines.game_of_thrones.shared import RULE_TURN, area_name, house_name
from engines.game_of_thrones.state import OVER, PLANNING, GameState
from engines.kit import Step, Turn, committing, counted, deciding

ABILITY_PROMPTS = {
    "tyrion-lannister": "Tyrion Lannister: cancel your opponent's house card (they choose another)?",
    "aeron-damphair": "Aeron Damphair: pay 2 Power tokens to use another house card instead?",
    "queen-of-thorns": "Queen of Thorns: remove one of your opponent's orders next to the embattled area",
    "doran-martell": "Doran Martell: move your opponent to the last place of which influence track?",
    "renly-baratheon": "Renly Baratheon: upgrade a footman to a knight where?",
    "cersei-lannister": "Cersei Lannister: remove one of the loser's orders from anywhere?",
    "patchface": "Patchface: discard one card from your opponent's hand?",
}

PROMPTS = {
    "orders": "Place an order on every area holding your units, then declare yourself ready",
    "raven": "Messenger Raven: swap one of your orders, look at the top wildling card, or pass",
    "wildling": "Keep the wildling card on top of the deck, or bury it at the bottom",
    "raid": "Resolve one of your Raid orders",
    "march": "Choose which March order to resolve",
    "march_moves": "Move units one by one, then end the march",
    "support": "Choose whom your Support orders back in this combat",
    "cards": "Choose a house card for this combat",
    "blade": "Use the Valyrian Steel Blade (+1)?",
    "casualties": "Choose a unit to lose",
    "retreat": "Choose where the defeated units retreat",
    "consolidate": "Resolve one of your Consolidate Power orders",
    "muster": "Muster units, then end mustering",
    "port": "You took a port: replace the captured ships with your own?",
    "supply_loss": "Supply: choose a unit to lose so the units that move fit your supply",
}


_LABELS: dict[tuple[tuple[str, Any], ...], str] = {}


def label(move: Move) -> str:
    """A listed move's label; kept once made: a prompt lists dozens of moves after every move
    at the table (a planning seat's every order on every area), and a move's label never
    changes. The moves of a game are finitely many; the store is emptied if it ever fills."""
    key = tuple(move.items())
    try:
        return _LABELS[key]
    except KeyError:
        pass
    except TypeError:  # a value that cannot be a key: made each time
        return make_label(move)
    if len(_LABELS) >= 20_000:
        _LABELS.clear()
    text = _LABELS[key] = make_label(move)
    return text


def make_label(move: Move) -> str:
    t = move["type"]
    if t == "order":
        return f"{ORDERS[move['order']].name} in {area_name(move['area'])}"
    if t == "unorder":
        return f"Take back the order in {area_name(move['area'])}"
    if t == "raven_swap":
        return f"Raven: {ORDERS[move['order']].name} in {area_name(move['area'])}"
    if t == "raid":
        return (f"Raid from {area_name(move['area'])} on {area_name(move['target'])}" if move["target"]
                else f"Remove the raid in {area_name(move['area'])}")
    if t in ("march", "consolidate", "muster"):
        return f"{t.capitalize()} in {area_name(move['area'])}"
    if t == "move":
        return f"Move a {move['unit']} to {area_name(move['to'])}"
    if t == "end_march":
        return "End the march, leaving a Power token" if move["power"] else "End the march"
    if t == "support":
        return {"attacker": "Support the attacker", "defender": "Support the defender"}.get(
            move["side"], "Support nobody")
    if t == "card":
        return HOUSE_CARDS[move["card"]].name
    if t == "blade":
        return "Use the blade" if move["use"] else "Keep the blade"
    if t == "casualty":
        return f"Lose a {move['unit']}"
    if t == "retreat":
        return f"Retreat to {area_name(move['to'])}"
    if t == "recruit":
        return f"{move['unit']} in {area_name(move['to'])}"
    if t == "wildling":
        return "Bury it" if move["bury"] else "Keep it on top"
    if t == "replace":
        return f"Replace {counted(move['ships'], 'ship')}" if move["ships"] else "Destroy them all"
    if t == "ability":
        return ability_label(move["choice"])
    if t == "choose":
        return W.OPTION_NAMES.get(move["option"]) or ability_label(move["option"])
    if t == "bid":
        return f"Bid {move['power']}"
    if t == "rank":
        return HOUSES[move["house"]].name
    if t == "destroy":
        return f"Destroy a {move['unit']} in {area_name(move['area'])}"
    return {"ready": "Ready", "raven_look": "Look at the top wildling card", "raven_pass": "Pass",
            "undo": "Undo the last step", "end_muster": "End mustering"}.get(t, str(t))


def ability_label(choice: str) -> str:
    if choice in BOARD.areas:
        return area_name(choice)
    if choice in HOUSE_CARDS:
        return HOUSE_CARDS[choice].name
    if choice in TRACK_NAMES:
        return f"The {TRACK_NAMES[choice]} track"
    return {"cancel": "Cancel the card", "keep": "Keep it", "none": "Nothing", "done": "Stop here",
            "units": "Destroy 2 units"}.get(choice, choice)


# -- the prompts' words and extras ------------------------------------------------------------------
def _ask_ability(state: GameState, seat: int) -> str:
    top = state.decisions.top
    assert top is not None
    return ABILITY_PROMPTS[top.data["card"]]


def _ask_westeros_choice(state: GameState, seat: int) -> str:
    top = state.decisions.top
    assert top is not None
    return W.WESTEROS_CHOICE_PROMPTS[top.data["card"]]


def _ask_wildling_choice(state: GameState, seat: int) -> str:
    top = state.decisions.top
    assert top is not None
    return WL.CHOICE_PROMPTS[top.data["card"]]


def _decision_data(state: GameState, seat: int, moves: list[Move]) -> dict[str, Any]:
    """What the renderer reads beside the choices: the top decision's data (the combat's area,
    the card asking, the points left to muster …)."""
    top = state.decisions.top
    assert top is not None
    return dict(top.data)


def _order_choices(state: GameState, seat: int, moves: list[Move]) -> list[dict[str, Any]]:
    """Planning's labelled choices, kept with its listing (``planning.order_choices``)."""
    return P.order_choices(state, seat, label)


# -- who each step awaits ------------------------------------------------------------------------
def _choosing_cards(state: GameState) -> Iterable[int]:
    """The combatants who have not chosen their house card (hidden until both have)."""
    return state.combat.cards.awaited() if state.combat is not None else state.decisions.awaited()


# -- the refusals of the turn's frame --------------------------------------------------------------
def _not_deciding(state: GameState, seat: int) -> IllegalMove:
    name = house_name(state.houses[seat]) if 0 <= seat < state.seats else "your"
    return IllegalMove(f"It is not {name}'s turn to decide.", rule=RULE_TURN, code="not_your_turn")


def _waiting(state: GameState, seat: int, step: Step) -> IllegalMove:
    return _not_deciding(state, seat)


def _elsewhere(state: GameState, seat: int, kind: str, step: Step) -> IllegalMove:
    return X.out_of_step(state, seat, step.name)


def _step(name: str, moves: tuple[str, ...], ask: Any = None, seats: Any = None) -> Step:
    """A decision kind's step: its rule from ``refusals.RULES``, its words from the tables of
    prompts unless given, the top decision's seats and data."""
    text = ask if ask is not None else PROMPTS.get(name) or W.PROMPTS.get(name) or WL.PROMPTS.get(name) or "Decide"
    return Step(name, moves, seats=seats or deciding(), rule=X.RULES[name], ask=text, extra=_decision_data)


TURN: Turn[GameState] = Turn(
    Step("orders", ("order", "unorder", "ready"), seats=committing("planning"), rule=X.RULES["orders"],
         ask=PROMPTS["orders"], choices=_order_choices),
    _step("raven", ("raven_swap", "raven_look", "raven_pass")),
    _step("wildling", ("wildling",)),
    _step("raid", ("raid",)),
    _step("march", ("march",)),
    _step("march_moves", ("move", "undo", "end_march")),
    _step("port", ("replace",)),
    _step("support", ("support",)),
    _step("cards", ("card",), seats=_choosing_cards),
    _step("blade", ("blade",)),
    _step("casualties", ("casualty",)),
    _step("retreat", ("retreat",)),
    _step("supply_loss", ("casualty",)),
    _step("ability", ("ability",), ask=_ask_ability),
    _step("consolidate", ("consolidate", "muster")),
    _step("muster", ("recruit", "end_muster")),
    _step("bid", ("bid",), seats=committing("bids")),
    _step("ties", ("rank",)),
    _step("reconcile", ("destroy",)),
    _step("mustering", ("muster", "end_muster")),
    _step("westeros_choice", ("choose",), ask=_ask_westeros_choice),
    _step("destroy", ("destroy",)),
    _step("swap", ("choose",)),
    _step("wildling_choice", ("choose",), ask=_ask_wildling_choice),
    # the Planning phase with nothing on the stack is the orders' step; between two decisions,
    # nobody is awaited
    where=lambda s: s.decisions.kind() or ("orders" if s.phase == PLANNING else None),
    over=lambda s: s.phase == OVER,
    label=lambda s, seat, m: label(m),
    ended=_not_deciding,
    waiting=_waiting,
    elsewhere=_elsewhere,
)
"""A round's decisions, one step per decision kind; the houses each awaits."""
