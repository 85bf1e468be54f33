"""Towers of Babylon's turn, declared with the kit's ``Turn``: each decision the table can wait
for, the moves it takes, whom it awaits, the rule a move out of it breaks and its prompt.

The deck choice and the mulligan are hidden and simultaneous: each awaits the seats of its
``Commitments`` (``state.deck_choice``, ``state.mulligan``). Every other decision is the top of
the state's ``DecisionStack``: its seats are awaited (the active player; the defender answering
an attack; the player asked for an Offering).
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalMove, Move
from engines.kit import Step, Turn, committing, deciding, say
from engines.towers_of_babylon import rules as R
from engines.towers_of_babylon.components import CARDS, DECK_SIZE, DECKS, FACTIONS, MULLIGAN_MAX, ROLE, with_article
from engines.towers_of_babylon.state import WHEN_ABLE
from engines.towers_of_babylon.state import State as GameState


def illegal(message: str, rule: str) -> IllegalMove:
    """A refusal in this game's words: the game and the rule before the reason."""
    return IllegalMove(f"Towers of Babylon — {rule}: {message}", rule=rule)


def label(state: GameState, seat: int, move: Move) -> str:
    """Plain words for a listed move (a button's text)."""
    t = move["type"]
    if t == "deck":
        return f"Play the deck {DECKS[move['deck']]['name']}"
    if t == "add":
        return f"Add {move['copies']} × {CARDS[move['card']].name}"
    if t == "clear":
        return "Clear your deck list"
    if t == "ready":
        return "This deck is ready"
    if t == "mulligan":
        cards = [state.card(c).name for c in move["cards"]]
        return "Keep your hand" if not cards else "Put back " + ", ".join(cards)
    if t == "draw":
        return "Draw a second card"
    if t == "offer":
        card = state.card(move["card"])
        return f"Offer {card.name} for {with_article(FACTIONS[card.faction]['name'])} Power Source"
    if t == "skip":
        return "Make no offering"
    if t == "play":
        card = state.card(move["card"])
        on = state.minion(move["target"]) if move["target"] >= 0 else None
        where = "" if on is None else f" on {'your' if on.owner == seat else 'the enemy'} {on.spec.name}"
        paying = f", paying {R.payment_words(tuple(move['pay']))}" if "pay" in move else ""
        return f"Play {card.name}{where} ({card.cost_text()}){paying}"
    if t == "move":
        m = state.minion(move["minion"])
        assert m is not None
        return f"Move {m.spec.name} to {R.ZONE_NAME[move['zone']]} (as {with_article(ROLE[move['zone']])})"
    if t == "build":
        m = state.minion(move["minion"])
        assert m is not None
        return f"Build {m.construction} levels with {m.spec.name}"
    if t == "attack":
        m = state.minion(move["minion"])
        assert m is not None
        target = state.minion(move["target"]) if move["target"] >= 0 else None
        what = "the enemy Tower" if target is None else f"the enemy {target.spec.name}"
        return f"Attack {what} with {m.spec.name}"
    if t == "block":
        m = state.minion(move["minion"])
        assert m is not None
        return f"Block with {m.spec.name}"
    if t == "pass":
        return "Let it through"
    if t == "strike":
        m = state.minion(move["minion"])
        assert m is not None
        return f"Also strike {m.spec.name}"
    if t == "windows":
        if move["mode"] == WHEN_ABLE:
            return ("Ask me to react only when I can block or play a witchery "
                    "(my opponent will then see when I could react)")
        return "Ask me to react at every enemy attack (reveals nothing)"
    return "End your turn"


# -- the prompts' extras ---------------------------------------------------------------------
def _deck_extra(state: GameState, seat: int, moves: list[Move]) -> dict[str, Any]:
    """The ``add`` moves (up to ~360 of them) are not spelled out one by one: the prompt carries
    each card that may join the list with its most copies (``addable``), and the choices are the
    ready-made decks, ``clear`` and ``ready``. Every add the prompt allows is listed by
    ``legal_moves`` and no other (tested); a view stays small."""
    draft = R.draft_of(state, seat)
    return {"draft": {"cards": draft, "count": sum(draft.values())}, "addable": R.addable(draft)}


def _ask_defend(state: GameState, seat: int) -> str:
    if state.attack is None:
        return ""
    att = state.minion(state.attack.attacker)
    target = state.minion(state.attack.target) if state.attack.target >= 0 else None
    what = "your Tower" if target is None else f"your {target.spec.name}"
    name = att.spec.name if att else "a minion"
    return say("{0}'s {name} attacks {what}. Block it with a Defender, play a witchery, or let it "
               "through.", R.other(seat), name=name, what=what)


def _defend_extra(state: GameState, seat: int, moves: list[Move]) -> dict[str, Any]:
    if state.attack is None:
        return {}
    return {"attack": {"attacker": state.attack.attacker, "target": state.attack.target}}


def _main_extra(state: GameState, seat: int, moves: list[Move]) -> dict[str, Any]:
    pl = state.players[seat]
    return {"power": {"available": len(pl.available), "transformed": pl.transformed}}


# -- the refusals of the turn's frame ----------------------------------------------------------
def _ended(state: GameState, seat: int) -> IllegalMove:
    return IllegalMove("The game is over.", rule=R.RULE_TURN, code="not_your_turn")


def _waiting(state: GameState, seat: int, step: Step) -> IllegalMove:
    who = " and ".join(say("{0}", s) for s in sorted(TURN.awaited(state))) or "nobody"
    return IllegalMove(f"It is not your turn: the table waits for {who}.", rule=R.RULE_TURN,
                       code="not_your_turn")


def _elsewhere(state: GameState, seat: int, kind: str, step: Step) -> IllegalMove:
    return illegal(f"now you must {step.doing}; a {kind!r} move is not possible.", step.rule or R.RULE_TURN)


TURN: Turn[GameState] = Turn(
    Step(R.DECK, ("deck", "add", "clear", "ready"), seats=committing("deck_choice"), rule=R.RULE_DECKS,
         doing="choose a deck", unlisted=("add",), extra=_deck_extra,
         ask=("Choose your deck: a ready-made deck, or put one together card by card (exactly "
              f"{DECK_SIZE} cards; at most 4 copies of a common card, 3 of an uncommon, 2 of a "
              "rare, 1 of a super rare; at most two factions). Your opponent will not see it "
              "until both decks are chosen.")),
    Step(R.MULLIGAN, ("mulligan",), seats=committing("mulligan"), rule=R.RULE_MULLIGAN,
         doing="choose the cards to put on the bottom of your deck",
         ask=(f"Put up to {MULLIGAN_MAX} cards from your hand on the bottom of your deck; you "
              "then draw as many. Your opponent chooses at the same time and will not see "
              "your choice.")),
    Step(R.START, ("draw", "offer"), seats=deciding(), rule=R.RULE_START,
         doing="draw a second card or make an offering",
         ask=("Draw a second card, or make an offering: put a card from your hand into the "
              "Sacrifice Pile for a Power Source of its colour, usable at once.")),
    Step(R.MAIN, ("play", "move", "build", "attack", "windows", "end"), seats=deciding(), rule=R.RULE_TURN,
         doing="act in your main phase", extra=_main_extra,
         ask=("Your main phase: play cards, move ready minions, build with Builders and attack "
              "with Raiders as long as you can; then end your turn.")),
    Step(R.DEFEND, ("block", "play", "pass"), seats=deciding(), rule=R.RULE_BLOCK,
         doing="answer the attack (block, play a witchery or let it through)", ask=_ask_defend,
         extra=_defend_extra),
    Step(R.TWIN, ("strike",), seats=deciding(), rule=R.RULE_TWIN,
         doing="choose the second victim of a Twinstrike",
         ask="Twinstrike: choose the second enemy minion your attacker strikes."),
    Step(R.OFFERING, ("offer", "skip"), seats=deciding(), rule=R.RULE_OFFERING,
         doing="make an offering or skip it",
         ask="You may make an offering: a card from your hand for a Power Source of its colour."),
    where=lambda state: state.decisions.kind(),
    over=lambda state: state.over,
    label=label,
    ended=_ended,
    waiting=_waiting,
    elsewhere=_elsewhere,
)
"""A game of Towers of Babylon: the two hidden choices of the setup, then the turns' decisions."""
