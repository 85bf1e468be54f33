"""Tower of London's turn, declared with the kit's ``Turn``: the steps of a round, the moves each
takes, whom each awaits, the rule it follows, and what its prompt says.

Playing Cards, step 1 (``pick``) and Reduce Player Decks (``keep``) await every seat that has
not chosen (a hidden ``Commitments``, ``state.choosing``); in the reveal, the revealing seat
places a Beefeater (``place``) and then may use its card's ability (``backstab``, ``poison``,
``switch``: the abilities with a choice; the others resolve by themselves).
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalMove, Move
from engines.kit import Phase, Step, Turn, committing, say
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import AREA_OF, BOARD, CARDS, CARDS_KEPT, QUADRANT_OF

_AREA_NAME = {a["id"]: a["name"] for a in BOARD["areas"]}


def label(state: R.State, seat: int, move: Move) -> str:
    """Plain words for a listed move (a button's text)."""
    kind = move["type"]
    if kind == "pick":
        return f"First {CARDS[move['first']].name}, then {CARDS[move['second']].name}"
    if kind == "place":
        b = move["building"]
        return f"Place in building {b} ({_AREA_NAME[AREA_OF[b]]})"
    if kind == "remove":
        what = "promoted Beefeater" if move["promoted"] else "Beefeater"
        return say("Remove {0}'s {what} from building {b}", move["seat"], what=what, b=move["building"])
    if kind == "switch":
        (ba, sa), (bb, sb) = move["a"], move["b"]
        return say("Switch {0}'s Beefeater in building {ba} with {1}'s in building {bb}", sa, sb,
                   ba=ba, bb=bb)
    if kind == "keep":
        return "Keep " + ", ".join(CARDS[c].name for c in move["cards"])
    return f"Pass (do not use {state.pending})" if state.pending else "Pass"


# -- the steps' prompts --------------------------------------------------------------------------
def _pick_extra(state: R.State, seat: int, moves: list[Move]) -> dict[str, Any]:
    return {"cards": sorted(state.hands[seat])}


def _keep_extra(state: R.State, seat: int, moves: list[Move]) -> dict[str, Any]:
    return {"cards": sorted(state.played[seat]), "count": CARDS_KEPT}


def _ask_place(state: R.State, seat: int) -> str:
    first = state.picks[seat][0]
    words = ", ".join(f"{b} ({AREA_OF[b]})" for b in R.placement_buildings(state, seat, first))
    return f"Place a Beefeater with {CARDS[first].name}: building {words}."


def _place_extra(state: R.State, seat: int, moves: list[Move]) -> dict[str, Any]:
    return {"card": state.picks[seat][0], "buildings": [m["building"] for m in moves]}


def _ask_remove(state: R.State, seat: int) -> str:
    ability, placed = state.pending, state.placed
    where = (f"numbered one more or one less than {placed}" if ability == "BACKSTAB"
             else f"joined by a line to building {placed}")
    reach = R.reach_of(ability, placed)
    return f"{ability}: remove one Beefeater from a building {where} ({', '.join(map(str, reach))}), or pass."


def _ability(state: R.State, seat: int) -> dict[str, Any]:
    return {"ability": state.pending, "card": state.picks[seat][1], "placed": state.placed, "can_pass": True}


def _remove_extra(state: R.State, seat: int, moves: list[Move]) -> dict[str, Any]:
    return {**_ability(state, seat), "buildings": R.reach_of(state.pending, state.placed), "targets": [
        {"building": m["building"], "seat": m["seat"], "promoted": m["promoted"]}
        for m in moves if m["type"] == "remove"]}


def _ask_switch(state: R.State, seat: int) -> str:
    return (f"SWITCH: choose two Beefeaters of different players in different buildings of "
            f"quadrant {QUADRANT_OF[state.placed]} to swap, or pass.")


def _switch_extra(state: R.State, seat: int, moves: list[Move]) -> dict[str, Any]:
    return {**_ability(state, seat), "quadrant": QUADRANT_OF[state.placed],
            "beefeaters": [list(x) for x in R.movable_beefeaters(state, state.placed)]}


# -- the refusals of the turn's frame -----------------------------------------------------------
def _ended(state: R.State, seat: int) -> IllegalMove:
    return IllegalMove(f"{R.RULE_WIN}: the game is over.", rule=R.RULE_WIN, code="not_your_turn")


def _waiting(state: R.State, seat: int, step: Step) -> IllegalMove:
    if state.phase == R.PICK:
        text = f"{R.RULE_PICK}: you have already chosen your two cards; waiting for the others."
    elif state.phase == R.KEEP:
        text = f"{R.RULE_REDUCE}: you have already chosen the cards to keep."
    else:
        text = say("{rule}: it is not your turn; the cards are revealed in turn order and {0} is acting.",
                   state.order[state.turn], rule=R.RULE_PLACE)
    # between two reveals the table is at no step: the ability's rule, as the reveal goes on
    return IllegalMove(text, rule=step.rule or R.RULE_ABILITY, code="not_your_turn")


def _elsewhere(state: R.State, seat: int, kind: str, step: Step) -> IllegalMove:
    return IllegalMove(f"{step.rule}: now is not the time to {kind}; {step.doing}.", rule=step.rule)


def _where(state: R.State) -> str | None:
    if state.phase in (R.PICK, R.KEEP):
        return state.phase
    if state.phase == R.REVEAL and state.stage:
        return R.STAGE_PLACE if state.stage == R.STAGE_PLACE else state.pending.lower()
    return None


def _revealing(state: R.State) -> tuple[int]:
    return (state.order[state.turn],)


TURN: Turn[R.State] = Turn(
    Step(R.PICK, ("pick",), seats=committing("choosing"), rule=R.RULE_PICK, doing="choose two cards",
         ask="Choose two cards in order: the first says where you place a Beefeater, the second which "
             "ability you use.", extra=_pick_extra),
    Phase("reveal", (
        Step(R.STAGE_PLACE, ("place",), rule=R.RULE_PLACE, doing="place a Beefeater", ask=_ask_place,
             extra=_place_extra),
        Step("backstab", ("remove", "pass"), doing="use BACKSTAB or pass", ask=_ask_remove, extra=_remove_extra),
        Step("poison", ("remove", "pass"), doing="use POISON or pass", ask=_ask_remove, extra=_remove_extra),
        Step("switch", ("switch", "pass"), doing="use SWITCH or pass", ask=_ask_switch, extra=_switch_extra),
    ), seats=_revealing, rule=R.RULE_ABILITY),
    Step(R.KEEP, ("keep",), seats=committing("choosing"), rule=R.RULE_REDUCE, doing="keep three cards",
         ask="Reduce your deck: keep three of the six cards you played this round; the other three go "
             "to the box.", extra=_keep_extra),
    where=_where,
    over=lambda state: state.phase == R.OVER,
    label=label,
    ended=_ended,
    waiting=_waiting,
    elsewhere=_elsewhere,
)
"""A round of Tower of London: the hidden picks, the reveal in turn order, the hidden keeps."""
