"""The status line: the table's current step in words, and the houses it waits for.

It follows the decision being made, not the step of the Action phase that the decisions sit
inside: while the Messenger Raven is decided the raids have not begun, and while a battle is
fought the march that started it waits. Every decision kind has its words (tested), so the line
never names a step other than the one the prompt asks about.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from engines.game_of_thrones import westeros as W
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.components import HOUSE_CARDS, TRACK_NAMES, WESTEROS_CARDS
from engines.game_of_thrones.shared import area_name, house_name
from engines.game_of_thrones.state import ACTION, OVER, PLANNING, WESTEROS, GameState
from engines.kit import Decision

PHASES = {WESTEROS: "Westeros phase", PLANNING: "Planning phase", ACTION: "Action phase", OVER: "The game is over"}

Words = Callable[[GameState, Decision], str]


def _battle(state: GameState, what: str) -> str:
    c = state.combat
    return f"Battle for {area_name(c.area)}: {what}" if c is not None else what.capitalize()


def _bid(state: GameState, top: Decision) -> str:
    if top.data.get("for") == "wildlings":
        return f"Wildlings attack (strength {top.data['strength']}): bidding for the Night's Watch"
    return f"Clash of Kings: bidding for the {TRACK_NAMES[top.data['track']]} track"


def _ties(state: GameState, top: Decision) -> str:
    if top.data.get("for") == "track":
        return f"Clash of Kings: a tie on the {TRACK_NAMES[top.data['track']]} track"
    return "Wildlings: a tie among the " + ("highest" if top.data.get("for") == "highest" else "lowest") + " bidders"


def _ability(state: GameState, top: Decision) -> str:
    name = HOUSE_CARDS[top.data["card"]].name
    return _battle(state, name) if state.combat is not None else name


STEPS: dict[str, Words] = {
    "raven": lambda s, t: "Messenger Raven",
    "wildling": lambda s, t: "Messenger Raven: the top wildling card",
    "raid": lambda s, t: "Raids",
    "march": lambda s, t: "Marches",
    "march_moves": lambda s, t: f"Marches: the march from {area_name(t.data['from'])}",
    "support": lambda s, t: _battle(s, "support"),
    "cards": lambda s, t: _battle(s, "house cards"),
    "blade": lambda s, t: _battle(s, "the Valyrian Steel Blade"),
    "ability": _ability,
    "casualties": lambda s, t: _battle(s, "casualties"),
    "retreat": lambda s, t: _battle(s, "the retreat"),
    "supply_loss": lambda s, t: _battle(s, "units lost to supply"),
    "port": lambda s, t: _battle(s, "the ships of a taken port"),
    "consolidate": lambda s, t: "Consolidate Power",
    "muster": lambda s, t: f"Mustering in {area_name(t.data['area'])}",
    "mustering": lambda s, t: "Westeros: Mustering",
    "reconcile": lambda s, t: "Westeros: Supply",
    "westeros_choice": lambda s, t: f"Westeros: {_westeros_card(t.data['card'])}",
    "bid": _bid,
    "ties": _ties,
    "wildling_choice": lambda s, t: f"Wildlings: {WL.card_name(t.data['card'])}",
    "destroy": lambda s, t: "Wildlings: units destroyed",
    "swap": lambda s, t: "Wildlings: Crow Killers",
}
"""Decision kind -> the words of the step it belongs to."""


def _westeros_card(card: str) -> str:
    return W.card_name(next(d for (d, c) in WESTEROS_CARDS if c == card), card)


def who(state: GameState, seats: Collection[int], verb: tuple[str, str]) -> str:
    """The houses awaited and what they do: "Lannister decides", "Stark, Tyrell decide"."""
    names = ", ".join(house_name(state.houses[s]) for s in sorted(seats))
    return f"{names} {verb[0] if len(seats) == 1 else verb[1]}"


def status(state: GameState, awaited: Collection[int]) -> dict[str, Any]:
    """The phase, the current step and who is awaited, in words:
    ``{"phase": "Action phase", "step": "Messenger Raven", "text": "Messenger Raven — Lannister decides"}``."""
    phase = PHASES.get(state.phase, state.phase)
    top = state.decisions.top
    if state.phase == OVER:
        step = f"{house_name(state.houses[state.winner])} wins" if state.winner is not None else ""
        return {"phase": phase, "step": step, "text": step}
    if top is None:
        step = "Placing orders" if state.phase == PLANNING else ""
        verb = ("is still placing orders", "are still placing orders")
    else:
        step = STEPS[top.kind](state, top)
        verb = ("bids", "bid") if top.kind == "bid" else ("decides", "decide")
    text = f"{step} — {who(state, awaited, verb)}" if awaited and step else step
    return {"phase": phase, "step": step, "text": text}
