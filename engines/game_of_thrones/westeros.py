"""The Westeros phase (rounds 2–10): advance the round, draw the top card of decks I, II and III,
advance the wildling track by their icons (an attack at 12), then resolve the cards in deck
order. Also Supply with its reconciling, Mustering for every house, the choices the
dominance-token holders make, and the words of the phase's decisions (the rules named in
refusals, the prompts), bidding's included (the bids themselves are in ``bidding.py``, for Clash
of Kings and for the wildling attacks of ``wildlings.py``).

The phase is a list of steps (``state.tasks``: this module's and the wildlings') run in order by
the engine's flow; a step that needs a player pushes a decision, and the flow goes on when it is
settled; when none is left, Planning begins. Each decision kind here has its moves (``MOVES``),
its effect (``DO``) and, where it may settle itself, ``AUTO``.
"""

from __future__ import annotations

from typing import Any

from engines.base import Move
from engines.game_of_thrones import consolidate as CP
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.bidding import ask_bids
from engines.game_of_thrones.components import BOARD, TRACK_NAMES, TRACKS, WESTEROS_CARDS
from engines.game_of_thrones.shared import unit_name
from engines.game_of_thrones.state import WESTEROS, GameState
from engines.game_of_thrones.table import Auto, Doer, Mover, Task, make
from engines.kit import Decision, Log, counted

DECKS = ("I", "II", "III")

RESTRICTIONS = {
    "no-defense": ("defense-plus-one", "defense-plus-two"),
    "no-march-plus-one": ("march-plus-one",),
    "no-raid": ("raid", "special-raid"),
    "no-support": ("support", "support-plus-one"),
    "no-consolidate": ("consolidate-power", "special-consolidate-power"),
}
"""Westeros III restrictions: the order tokens each bars for the round's Planning phase."""

CARD_RESTRICTION = {"storm-of-swords": "no-defense", "rains-of-autumn": "no-march-plus-one",
                    "sea-of-storms": "no-raid", "web-of-lies": "no-support", "feast-for-crows": "no-consolidate"}

HOLDER_CHOICES = {
    "a-throne-of-blades": ("iron_throne", ("supply", "mustering", "nothing")),
    "dark-wings-dark-words": ("kings_court", ("clash-of-kings", "game-of-thrones", "nothing")),
    "put-to-the-sword": ("fiefdoms", ("no-defense", "no-march-plus-one", "nothing")),
}
"""Cards whose effect a dominance-token holder chooses: the track whose first place decides, and
the choices (A Throne of Blades: the Iron Throne; Dark Wings, Dark Words: the Messenger Raven;
Put to the Sword: the Valyrian Steel Blade)."""

RULE_WESTEROS = "The Westeros phase: resolve Westeros cards"
RULE_BIDDING = "Clash of Kings: bidding on the influence tracks"
RULE_TIES = "The Iron Throne token: the holder decides ties"
RULE_SUPPLY_CARD = "Westeros card Supply: reconcile armies"
RULE_MUSTERING_CARD = "Westeros card Mustering"


def card_name(deck: str, card: str) -> str:
    return str(WESTEROS_CARDS[(deck, card)]["name"])


def throne_order(state: GameState) -> list[int]:
    return list(state.tracks["iron_throne"])


# -- the phase ------------------------------------------------------------------------------------

def start(state: GameState, log: Log) -> None:
    """Westeros phase steps 1–3: (the round marker moved) draw the top card of each deck, then
    advance the wildling track one space per icon; reaching 12 means an attack at once, surplus
    icons ignored. The cards are then resolved in deck order."""
    state.phase, state.step = WESTEROS, ""
    state.restricted = []
    state.revealed = []
    state.bid_results = []
    for deck in DECKS:
        card = draw(state, deck, log)
        state.revealed.append(card)
    icons = sum(int(WESTEROS_CARDS[(d, c)]["wildling_icons"]) for d, c in zip(DECKS, state.revealed, strict=True))
    log.say("Westeros cards: {a} (I), {b} (II), {c} (III)", a=card_name("I", state.revealed[0]),
            b=card_name("II", state.revealed[1]), c=card_name("III", state.revealed[2]))
    state.tasks = []
    if icons:
        before = state.wildlings
        state.wildlings = min(WL.WILDLING_MAX, state.wildlings + WL.WILDLING_STEP * icons)
        log.say("The wildling track advances by {n}: {a} → {b}", n=counted(icons, "icon"), a=before, b=state.wildlings)
        if state.wildlings >= WL.WILDLING_MAX:
            log.say("The wildling threat reaches 12: the wildlings attack")
            state.tasks.append({"do": "attack", "strength": state.wildlings, "exclude": []})
    state.tasks.extend({"do": "card", "deck": d} for d in DECKS)


def draw(state: GameState, deck: str, log: Log) -> str:
    """The top card of a deck, put at the bottom once drawn. Winter is Coming shuffles the whole
    deck at once (the cards drawn before and itself included) and the top card is drawn in its
    place (again, if Winter is Coming comes back)."""
    pile = state.westeros_decks[deck]
    card = pile.pop(0)
    pile.append(card)
    state.westeros_known[deck] = min(len(pile), state.westeros_known.get(deck, 0) + 1)
    while card == "winter-is-coming":
        log.say("Winter is Coming: deck {d} is shuffled and a new card drawn in its place", d=deck)
        state.rng.shuffle(pile)
        card = pile.pop(0)
        pile.append(card)
        state.westeros_known[deck] = 1
    return card


def run_task(state: GameState, log: Log) -> None:
    """Run the next step of the Westeros phase; when none is left, Planning begins."""
    if not state.tasks:
        state.revealed = list(state.revealed)
        P.begin_planning(state)
        return
    task = state.tasks.pop(0)
    {**TASKS, **WL.TASKS}[task["do"]](state, task, log)


def _card(state: GameState, task: dict[str, Any], log: Log) -> None:
    """Step 4: resolve one revealed card."""
    deck = task["deck"]
    card = state.revealed[DECKS.index(deck)]
    log.say("Westeros card {d}: {c}", d=deck, c=card_name(deck, card))
    resolve_card(state, card, log)


def resolve_card(state: GameState, card: str, log: Log) -> None:
    if card in ("supply",):
        state.tasks.insert(0, {"do": "supply"})
    elif card == "mustering":
        state.tasks[0:0] = [{"do": "muster_house", "seat": s} for s in throne_order(state)]
    elif card == "clash-of-kings":
        state.tasks[0:0] = [{"do": "bid_track", "track": t} for t in TRACKS]
    elif card == "game-of-thrones":
        collect_power(state, log, ports=True)
    elif card in HOLDER_CHOICES:
        track, _ = HOLDER_CHOICES[card]
        holder = state.tracks[track][0]
        state.decisions.push(Decision("westeros_choice", [holder], {"card": card}))
    elif card in CARD_RESTRICTION:
        restrict(state, CARD_RESTRICTION[card], log)
    elif card == "wildlings-attack":
        state.tasks.insert(0, {"do": "attack", "strength": state.wildlings, "exclude": []})
    elif card == "last-days-of-summer":
        log.say("Last Days of Summer: nothing happens")
    else:  # pragma: no cover - every card of the data is handled above (tested)
        raise AssertionError(f"no effect for Westeros card {card!r}")


KNOWN_CARDS = frozenset({"supply", "mustering", "clash-of-kings", "game-of-thrones", "wildlings-attack",
                         "last-days-of-summer", "winter-is-coming", *HOLDER_CHOICES, *CARD_RESTRICTION})
"""Every Westeros card this module resolves (a test checks the data uses no other)."""


def restrict(state: GameState, restriction: str, log: Log) -> None:
    """Westeros III: the round's Planning phase may not use these order tokens."""
    if restriction == "nothing":
        log.say("No order is restricted this round")
        return
    state.restricted = sorted({*state.restricted, *RESTRICTIONS[restriction]})
    words = {"no-defense": "Defense", "no-march-plus-one": "March +1", "no-raid": "Raid", "no-support": "Support",
             "no-consolidate": "Consolidate Power"}[restriction]
    log.say("No {o} orders may be placed this round", o=words)


def collect_power(state: GameState, log: Log, *, ports: bool) -> None:
    """A Game of Thrones: each house takes a Power token per crown icon in the areas it controls
    and, unless ``ports`` is False (Dark Wings, Dark Words), one per port it controls holding one of
    its ships while the port's sea holds no enemy ship."""
    for seat in throne_order(state):
        n = R.crown_income(state, seat, ports=ports)
        got = R.gain_power(state, seat, n)
        log.say("{0} collects {n}", seat, n=counted(got, "Power token"))


# -- Supply ---------------------------------------------------------------------------------------

def _supply(state: GameState, task: dict[str, Any], log: Log) -> None:
    """Supply: every house moves its Supply token to the barrels it controls (at most 6), then in
    turn order each reconciles its armies by destroying units of its choice."""
    for seat in throne_order(state):
        level = R.barrels(state, seat)
        if level != state.supply[seat]:
            log.say("{0} moves to {n} on the Supply track", seat, n=level)
        state.supply[seat] = level
    state.tasks[0:0] = [{"do": "reconcile", "seat": s} for s in throne_order(state)]


def _reconcile(state: GameState, task: dict[str, Any], log: Log) -> None:
    seat = task["seat"]
    if not R.supply_ok(state, seat):
        log.say("{0} has armies beyond its supply and must destroy units", seat)
        state.decisions.push(Decision("reconcile", [seat]))


def moves_reconcile(state: GameState, seat: int, top: Decision) -> list[Move]:
    """Destroy a unit of an army (two or more units in an area) until the armies fit."""
    out = []
    for area in sorted(a for a, s in state.owner.items() if s == seat and len(state.units[a]) >= 2):
        for kind in sorted({u.kind for u in state.units[area]}):
            out.append(make("destroy", area=area, unit=kind))
    return out


def do_reconcile(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    U.destroy(state, move["area"], move["unit"])
    log.say("{0} destroys a {k} in {a} to meet its supply", seat, k=unit_name(move["unit"]),
            a=BOARD.areas[move["area"]].name)


def auto_reconcile(state: GameState, top: Decision, log: Log) -> bool:
    if R.supply_ok(state, top.seats[0]):
        state.decisions.pop()
        return True
    return False


# -- Mustering ------------------------------------------------------------------------------------

def _muster_house(state: GameState, task: dict[str, Any], log: Log) -> None:
    """Mustering: in turn order each house musters in every castle and stronghold area it
    controls (all of one house before the next)."""
    seat = task["seat"]
    areas = [a for a in R.CASTLE_AREAS if R.controller(state, a) == seat]
    if areas:
        state.decisions.push(Decision("mustering", [seat], {"areas": areas, "one": bool(task.get("one"))}))


def _can_muster(state: GameState, seat: int, area: str) -> bool:
    return bool(CP.muster_options(state, seat, area, BOARD.areas[area].mustering_points))


def moves_mustering(state: GameState, seat: int, top: Decision) -> list[Move]:
    """Choose the next castle or stronghold area to muster in (its points are spent there or
    lost), or end mustering."""
    out = [make("muster", area=a) for a in top.data["areas"] if _can_muster(state, seat, a)]
    return [*out, make("end_muster")]


def do_mustering(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    if move["type"] == "end_muster":
        state.decisions.pop()
        log.say("{0} ends mustering", seat)
        return
    area = move["area"]
    top.data["areas"] = [a for a in top.data["areas"] if a != area]
    if top.data.get("one"):
        state.decisions.pop()
    points = BOARD.areas[area].mustering_points
    state.decisions.push(Decision("muster", [seat], {"area": area, "points": points}))
    log.say("{0} musters in {a} ({n})", seat, a=BOARD.areas[area].name, n=counted(points, "point"))


def auto_mustering(state: GameState, top: Decision, log: Log) -> bool:
    seat = top.seats[0]
    if not any(_can_muster(state, seat, a) for a in top.data["areas"]):
        state.decisions.pop()
        return True
    return False


# -- choices of the dominance-token holders ---------------------------------------------------------

def moves_westeros_choice(state: GameState, seat: int, top: Decision) -> list[Move]:
    _, options = HOLDER_CHOICES[top.data["card"]]
    return [make("choose", option=o) for o in options]


def do_westeros_choice(state: GameState, seat: int, move: Move, top: Decision,
                       log: Log) -> None:
    """A Throne of Blades (Iron Throne): Supply, Mustering or nothing; Dark Wings, Dark Words
    (Messenger Raven): Clash of Kings, crowns-only Game of Thrones or nothing; Put to the Sword
    (Valyrian Steel Blade): no Defense, no March +1, or no restriction."""
    state.decisions.pop()
    card, option = top.data["card"], move["option"]
    log.say("{0} chooses: {o}", seat, o=OPTION_NAMES[option])
    if card == "put-to-the-sword":
        restrict(state, option, log)
    elif option == "game-of-thrones":
        collect_power(state, log, ports=False)
    elif option != "nothing":
        resolve_card(state, option, log)


OPTION_NAMES = {"supply": "Supply", "mustering": "Mustering", "nothing": "nothing happens",
                "clash-of-kings": "Clash of Kings", "game-of-thrones": "everyone collects power for crowns",
                "no-defense": "no Defense orders", "no-march-plus-one": "no March +1 order"}


# -- bidding (Clash of Kings) ------------------------------------------------------------------------


def _bid_track(state: GameState, task: dict[str, Any], log: Log) -> None:
    """Clash of Kings: bid for one influence track (Iron Throne, then Fiefdoms, then King's
    Court)."""
    log.say("Bidding for the {t} track", t=TRACK_NAMES[task["track"]])
    ask_bids(state, list(range(state.seats)), {"for": "track", "track": task["track"]})


# -- the tables the engine dispatches on ------------------------------------------------------------

TASKS: dict[str, Task] = {"card": _card, "supply": _supply, "reconcile": _reconcile,
                          "muster_house": _muster_house, "bid_track": _bid_track}
"""The steps of the phase; the wildlings module's (the attack and the wildling cards) run beside them."""
MOVES: dict[str, Mover] = {"reconcile": moves_reconcile, "mustering": moves_mustering,
                           "westeros_choice": moves_westeros_choice}
DO: dict[str, Doer] = {"reconcile": do_reconcile, "mustering": do_mustering,
                       "westeros_choice": do_westeros_choice}
AUTO: dict[str, Auto] = {"reconcile": auto_reconcile, "mustering": auto_mustering}
RULES_BY_KIND = {"reconcile": RULE_SUPPLY_CARD, "mustering": RULE_MUSTERING_CARD,
                 "westeros_choice": RULE_WESTEROS, "bid": RULE_BIDDING, "ties": RULE_TIES}
PROMPTS = {
    "reconcile": "Supply: destroy units until your armies fit your supply",
    "mustering": "Mustering: choose a castle or stronghold area to muster in, or end mustering",
    "bid": "Bid Power tokens (in secret)",
    "ties": "Iron Throne: choose which of the tied houses goes first",
}
WESTEROS_CHOICE_PROMPTS = {
    "a-throne-of-blades": "A Throne of Blades: Supply, Mustering, or nothing?",
    "dark-wings-dark-words": "Dark Wings, Dark Words: Clash of Kings, power for crowns, or nothing?",
    "put-to-the-sword": "Put to the Sword: forbid Defense orders, the March +1 order, or nothing?",
}
