"""The wildlings: an attack (when the track reaches 12, or a Wildlings Attack card) asks every
house for a secret bid of Power tokens; the Night's Watch (the sum of the bids) holds if it
reaches the attack's strength. The top wildling card is then revealed and goes to the bottom of
the deck: on a win its Night's Watch effect strikes the highest bidder only; on a loss the lowest
bidder takes the harsh effect and everyone else the milder one. Ties for highest or lowest are
broken by the Iron Throne holder. The track goes to 0 after a win, back two spaces after a loss.
"""

from __future__ import annotations

from typing import Any

from engines.base import Move
from engines.game_of_thrones import bidding as B
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, HOUSE_CARDS, TRACK_NAMES, TRACKS, WILDLING_CARDS
from engines.game_of_thrones.shared import unit_name
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Auto, Doer, Mover, Task, make
from engines.kit import Decision, Log, counted

WILDLING_STEP = 2  # the track moves 2 per icon: 0, 2, … 12
WILDLING_MAX = 12
KNIGHT, FOOTMAN = "knight", "footman"
PREEMPTIVE_STRENGTH = 6
RULE_WILDLINGS = "Wildling attacks: the wildling card's effects"


def card_name(card: str) -> str:
    return str(WILDLING_CARDS[card]["name"])


def _attack(state: GameState, task: dict[str, Any], log: Log) -> None:
    """An attack: every house (but one kept out by Preemptive Raid) bids in secret."""
    seats = [s for s in range(state.seats) if s not in task.get("exclude", [])]
    log.say("The wildlings attack with strength {n}: every house bids Power tokens for the Night's Watch",
            n=task["strength"])
    B.ask_bids(state, seats, {"for": "wildlings", "strength": task["strength"]})


def after_bids(state: GameState, top: Decision, bids: list[int], log: Log) -> None:
    """The Night's Watch's strength is the sum of the bids (all of them spent); it wins with at
    least the attack's strength. Then the highest (win) or lowest (loss) bidder is found."""
    strength = int(top.data["strength"])
    total = sum(b for b in bids if b >= 0)
    won = total >= strength
    log.say("The Night's Watch musters {t} against the wildlings' {n}: {r}", t=total, n=strength,
            r="the Night's Watch holds" if won else "the wildlings break through")
    data = {"for": "highest" if won else "lowest", "bids": list(bids), "paid": list(bids), "order": []}
    state.decisions.push(Decision("ties", [state.tracks["iron_throne"][0]], data))
    B.settle_ties(state, log)


def after_ranking(state: GameState, data: dict[str, Any], log: Log) -> None:
    """Reveal the top wildling card (it goes to the bottom), move the track, queue its effects."""
    who = data["order"][0]
    won = data["for"] == "highest"
    paid = data["paid"]
    # the bidders from highest to lowest (equal bids in turn order), the chosen highest or
    # lowest bidder at its end
    ranked = sorted((s for s in state.tracks["iron_throne"] if paid[s] >= 0), key=lambda s: -paid[s])
    ranked.remove(who)
    ranked = [who, *ranked] if won else [*ranked, who]
    B.record_bids(state, "wildlings", paid, ranked, data.get("broken"))
    before = state.wildlings
    state.wildlings = 0 if won else max(0, state.wildlings - 2 * WILDLING_STEP)
    card = state.wildling_deck.pop(0)
    state.wildling_deck.append(card)
    state.wildling_known = min(len(state.wildling_deck), state.wildling_known + 1)
    state.wildling_last = card
    state.raven_saw = None
    log.say("The wildling card is {c}; the wildling track goes from {a} to {b}", c=card_name(card), a=before,
            b=state.wildlings)
    if won:
        log.say("{0} is the highest bidder", who)
        tasks = [{"do": "wildling", "card": card, "role": "highest", "seat": who, "paid": paid}]
    else:
        log.say("{0} is the lowest bidder", who)
        others = [s for s in state.tracks["iron_throne"] if s != who and paid[s] >= 0]
        tasks = [{"do": "wildling", "card": card, "role": "lowest", "seat": who, "paid": paid},
                 *({"do": "wildling", "card": card, "role": "other", "seat": s, "paid": paid} for s in others)]
    state.tasks[0:0] = tasks


# -- the nine cards -----------------------------------------------------------------------------

def _effect(state: GameState, task: dict[str, Any], log: Log) -> None:
    card, role, seat = task["card"], task["role"], int(task["seat"])
    EFFECTS[card](state, role, seat, task, log)


def silence_at_the_wall(state: GameState, role: str, seat: int, task: dict[str, Any],
                        log: Log) -> None:
    """Silence at the Wall: nothing happens."""
    if role != "other":
        log.say("Silence at the Wall: nothing happens")


def preemptive_raid(state: GameState, role: str, seat: int, task: dict[str, Any],
                    log: Log) -> None:
    """Preemptive Raid. Night's Watch win: the wildlings attack again at strength 6 and the
    highest bidder takes no part. Loss: the lowest bidder destroys 2 of its units, or drops 2
    places on the influence track where it stands highest (its choice)."""
    if role == "highest":
        log.say("Preemptive Raid: the wildlings attack again at strength 6, without {0}", seat)
        state.tasks.insert(0, {"do": "attack", "strength": PREEMPTIVE_STRENGTH, "exclude": [seat]})
    elif role == "lowest":
        best = min(state.tracks[t].index(seat) for t in TRACKS)
        options = [t for t in TRACKS if state.tracks[t].index(seat) == best]
        if _units_of(state, seat):
            options.insert(0, "units")
        state.decisions.push(Decision("wildling_choice", [seat], {"card": "preemptive-raid", "options": options}))


def crow_killers(state: GameState, role: str, seat: int, task: dict[str, Any],
                 log: Log) -> None:
    """Crow Killers. Loss: the lowest bidder swaps every knight for an available footman; the
    others swap 2 knights; a knight with no footman to replace it is destroyed. Win: the highest
    bidder may swap up to 2 of its footmen for available knights."""
    if role == "lowest":
        knights = [a for a, s in state.owner.items() if s == seat for u in state.units[a] if u.kind == KNIGHT]
        footmen = R.units_in_pool(state, seat, FOOTMAN)
        if 0 < footmen < len(knights) and len(set(knights)) > 1:
            # not enough footmen: the house chooses which knights become footmen, one at a
            # time; the knights left over are destroyed
            state.decisions.push(Decision("swap", [seat], {"from": KNIGHT, "to": FOOTMAN, "left": footmen,
                                                          "optional": False, "rest": "destroy"}))
            return
        for area in sorted(knights):
            _swap_one(state, seat, area, KNIGHT, FOOTMAN, log)
    elif role == "other":
        if any(u.kind == KNIGHT for u in _units_of(state, seat)):
            state.decisions.push(Decision("swap", [seat], {"from": KNIGHT, "to": FOOTMAN, "left": 2,
                                                          "optional": False}))
    elif any(u.kind == FOOTMAN for u in _units_of(state, seat)) and R.units_in_pool(state, seat, KNIGHT) > 0:
        state.decisions.push(Decision("swap", [seat], {"from": FOOTMAN, "to": KNIGHT, "left": 2, "optional": True}))


def rattleshirts_raiders(state: GameState, role: str, seat: int, task: dict[str, Any],
                         log: Log) -> None:
    """Rattleshirt's Raiders. Loss: the lowest bidder moves 2 down the Supply track, the others
    1, each then reconciling its armies. Win: the highest bidder moves 1 up (at most 6)."""
    change = {"lowest": -2, "other": -1, "highest": 1}[role]
    before = state.supply[seat]
    state.supply[seat] = max(0, min(6, before + change))
    log.say("Rattleshirt's Raiders: {0} goes from {a} to {b} on the Supply track", seat, a=before,
            b=state.supply[seat])
    if change < 0:
        state.tasks.insert(0, {"do": "reconcile", "seat": seat})


def massing_on_the_milkwater(state: GameState, role: str, seat: int, task: dict[str, Any],
                             log: Log) -> None:
    """Massing on the Milkwater. Loss: a lowest bidder holding more than one house card discards
    those of the highest printed strength; the others (with more than one) discard one of their
    choice. Win: the highest bidder takes its whole discard pile back."""
    hand = state.hands[seat]
    if role == "highest":
        hand.extend(state.discards[seat])
        state.discards[seat] = []
        log.say("Massing on the Milkwater: {0} takes back every discarded house card", seat)
    elif len(hand) > 1 and role == "lowest":
        top = max(HOUSE_CARDS[c].strength for c in hand)
        for c in sorted(c for c in hand if HOUSE_CARDS[c].strength == top):
            _discard(state, seat, c, log)
    elif len(hand) > 1:
        state.decisions.push(Decision("wildling_choice", [seat], {"card": "massing-on-the-milkwater",
                                                                   "options": sorted(hand)}))


def a_king_beyond_the_wall(state: GameState, role: str, seat: int, task: dict[str, Any],
                           log: Log) -> None:
    """A King Beyond the Wall. Loss: the lowest bidder goes to the last place of all three
    influence tracks; the others, in turn order, each to the last place of the Fiefdoms or the
    King's Court track (their choice). Win: the highest bidder goes to the first place of a track
    of its choice and takes its dominance token."""
    if role == "lowest":
        for t in TRACKS:
            _to_place(state, t, seat, last=True, log=log)
        return
    options = ["fiefdoms", "kings_court"] if role == "other" else list(TRACKS)
    state.decisions.push(Decision("wildling_choice", [seat], {"card": "a-king-beyond-the-wall",
                                                              "options": options, "role": role}))


def mammoth_riders(state: GameState, role: str, seat: int, task: dict[str, Any],
                   log: Log) -> None:
    """Mammoth Riders. Loss: the lowest bidder destroys 3 of its units anywhere, the others 2.
    Win: the highest bidder may take one house card of its choice back from its discard pile."""
    if role == "highest":
        if state.discards[seat]:
            state.decisions.push(Decision("wildling_choice", [seat], {
                "card": "mammoth-riders", "options": [*sorted(state.discards[seat]), "none"]}))
        return
    _ask_destroy(state, seat, 3 if role == "lowest" else 2, castle=False)


def the_horde_descends(state: GameState, role: str, seat: int, task: dict[str, Any],
                       log: Log) -> None:
    """The Horde Descends. Loss: the lowest bidder destroys 2 of its units in one castle or
    stronghold area it controls (2 anywhere if it has none there); the others 1 unit anywhere.
    Win: the highest bidder may muster in one castle or stronghold area it controls."""
    if role == "highest":
        state.tasks.insert(0, {"do": "muster_house", "seat": seat, "one": True})
        return
    if role == "lowest":
        castle = any(a in state.units and state.owner[a] == seat for a in R.CASTLE_AREAS)
        _ask_destroy(state, seat, 2, castle=castle)
    else:
        _ask_destroy(state, seat, 1, castle=False)


def skinchanger_scout(state: GameState, role: str, seat: int, task: dict[str, Any],
                      log: Log) -> None:
    """Skinchanger Scout. Loss: the lowest bidder discards all its available Power tokens, the
    others 2 (or all they have). Win: the highest bidder takes back the tokens it bid."""
    if role == "highest":
        got = R.gain_power(state, seat, int(task["paid"][seat]))
        log.say("Skinchanger Scout: {0} takes back the {n} it bid", seat, n=counted(got, "Power token"))
        return
    lost = state.power[seat] if role == "lowest" else min(2, state.power[seat])
    state.power[seat] -= lost
    log.say("Skinchanger Scout: {0} discards {n}", seat, n=counted(lost, "Power token"))


EFFECTS = {"silence-at-the-wall": silence_at_the_wall, "preemptive-raid": preemptive_raid,
           "crow-killers": crow_killers, "rattleshirts-raiders": rattleshirts_raiders,
           "massing-on-the-milkwater": massing_on_the_milkwater, "a-king-beyond-the-wall": a_king_beyond_the_wall,
           "mammoth-riders": mammoth_riders, "the-horde-descends": the_horde_descends,
           "skinchanger-scout": skinchanger_scout}


# -- helpers ---------------------------------------------------------------------------------------

def _units_of(state: GameState, seat: int) -> list[Any]:
    return [u for a, us in state.units.items() if state.owner[a] == seat for u in us]


def _discard(state: GameState, seat: int, card: str, log: Log) -> None:
    state.hands[seat].remove(card)
    state.discards[seat].append(card)
    log.say("{0} discards {c}", seat, c=HOUSE_CARDS[card].name)
    if not state.hands[seat]:
        state.hands[seat] = sorted(state.discards[seat])
        state.discards[seat] = []
        log.say("{0} takes back its house cards", seat)


def _to_place(state: GameState, track: str, seat: int, *, last: bool, log: Log) -> None:
    order = state.tracks[track]
    order.remove(seat)
    if last:
        order.append(seat)
    else:
        order.insert(0, seat)
    log.say("{0} goes to the {w} place of the {t} track", seat, w="last" if last else "first",
            t=TRACK_NAMES[track])


def _swap_one(state: GameState, seat: int, area: str, old: str, new: str, log: Log) -> None:
    if R.units_in_pool(state, seat, new) > 0:
        next(u for u in state.units[area] if u.kind == old).kind = new
        log.say("{0} swaps a {o} for a {n} in {a}", seat, o=unit_name(old), n=unit_name(new), a=BOARD.areas[area].name)
    else:
        U.destroy(state, area, old)
        log.say("{0} has no {n} left: its {o} in {a} is destroyed", seat, o=unit_name(old), n=unit_name(new),
                a=BOARD.areas[area].name)


def _ask_destroy(state: GameState, seat: int, n: int, *, castle: bool) -> None:
    if _units_of(state, seat):
        state.decisions.push(Decision("destroy", [seat], {"left": n, "castle": castle, "area": ""}))


# -- the decisions ---------------------------------------------------------------------------------

def moves_destroy(state: GameState, seat: int, top: Decision) -> list[Move]:
    """Destroy one of your units (the Horde Descends: all in one castle or stronghold area)."""
    if top.data["area"]:
        areas = [top.data["area"]] if top.data["area"] in state.units else []
    elif top.data["castle"]:
        areas = [a for a in R.CASTLE_AREAS if a in state.units and state.owner[a] == seat]
    else:
        areas = [a for a, s in state.owner.items() if s == seat]
    return [make("destroy", area=a, unit=k) for a in sorted(areas)
            for k in sorted({u.kind for u in state.units[a]})]


def do_destroy(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    U.destroy(state, move["area"], move["unit"])
    log.say("{0} destroys a {k} in {a}", seat, k=unit_name(move["unit"]), a=BOARD.areas[move["area"]].name)
    top.data["left"] -= 1
    if top.data["castle"]:
        top.data["area"] = move["area"]


def auto_destroy(state: GameState, top: Decision, log: Log) -> bool:
    if top.data["left"] <= 0 or not moves_destroy(state, top.seats[0], top):
        state.decisions.pop()
        return True
    return False


def moves_swap(state: GameState, seat: int, top: Decision) -> list[Move]:
    """Crow Killers: choose where a knight becomes a footman (or, after a win, a footman a
    knight); a win's swaps may stop early."""
    old, new = top.data["from"], top.data["to"]
    out = []
    if new == FOOTMAN or R.units_in_pool(state, seat, new) > 0:
        out = [make("choose", option=a) for a in sorted(a for a, s in state.owner.items() if s == seat)
               if any(u.kind == old for u in state.units[a])]
    if top.data["optional"] and out:
        out.append(make("choose", option="done"))
    return out


def do_swap(state: GameState, seat: int, move: Move, top: Decision, log: Log) -> None:
    if move["option"] == "done":
        state.decisions.pop()
        return
    _swap_one(state, seat, move["option"], top.data["from"], top.data["to"], log)
    top.data["left"] -= 1


def auto_swap(state: GameState, top: Decision, log: Log) -> bool:
    seat = top.seats[0]
    if top.data["left"] <= 0 or not moves_swap(state, seat, top):
        state.decisions.pop()
        if top.data.get("rest") == "destroy":
            # Crow Killers, lowest bidder: the knights no footman could replace are destroyed
            for area in sorted(a for a, s in state.owner.items() if s == seat):
                for _ in [u for u in state.units[area] if u.kind == top.data["from"]]:
                    _swap_one(state, seat, area, top.data["from"], top.data["to"], log)
        return True
    return False


def moves_wildling_choice(state: GameState, seat: int, top: Decision) -> list[Move]:
    return [make("choose", option=o) for o in top.data["options"]]


def do_wildling_choice(state: GameState, seat: int, move: Move, top: Decision,
                       log: Log) -> None:
    state.decisions.pop()
    card, option = top.data["card"], move["option"]
    if card == "preemptive-raid":
        if option == "units":
            log.say("Preemptive Raid: {0} destroys 2 of its units", seat)
            _ask_destroy(state, seat, 2, castle=False)
        else:
            order = state.tracks[option]
            i = order.index(seat)
            order.insert(min(len(order) - 1, i + 2), order.pop(i))
            log.say("Preemptive Raid: {0} drops 2 places on the {t} track", seat, t=TRACK_NAMES[option])
    elif card == "massing-on-the-milkwater":
        _discard(state, seat, option, log)
    elif card == "a-king-beyond-the-wall":
        _to_place(state, option, seat, last=top.data["role"] == "other", log=log)
    elif card == "mammoth-riders":
        if option == "none":
            log.say("Mammoth Riders: {0} takes no card back", seat)
        else:
            state.discards[seat].remove(option)
            state.hands[seat].append(option)
            log.say("Mammoth Riders: {0} takes back {c}", seat, c=HOUSE_CARDS[option].name)


TASKS: dict[str, Task] = {"attack": _attack, "wildling": _effect}
"""The steps this module adds to the Westeros phase's (``westeros.py`` runs them)."""
MOVES: dict[str, Mover] = {"destroy": moves_destroy, "swap": moves_swap, "wildling_choice": moves_wildling_choice}
DO: dict[str, Doer] = {"destroy": do_destroy, "swap": do_swap, "wildling_choice": do_wildling_choice}
AUTO: dict[str, Auto] = {"destroy": auto_destroy, "swap": auto_swap}
RULES_BY_KIND = {"destroy": RULE_WILDLINGS, "swap": RULE_WILDLINGS, "wildling_choice": RULE_WILDLINGS}
PROMPTS = {
    "destroy": "Wildlings: destroy one of your units",
    "swap": "Crow Killers: choose where a unit is swapped",
}
CHOICE_PROMPTS = {
    "preemptive-raid": "Preemptive Raid: destroy 2 of your units, or drop 2 places on your best track?",
    "massing-on-the-milkwater": "Massing on the Milkwater: discard one house card",
    "a-king-beyond-the-wall": "A King Beyond the Wall: choose the track",
    "mammoth-riders": "Mammoth Riders: take back one house card?",
}

# the bidding module, below this one, goes on here once an attack's bids are revealed and its
# highest or lowest bidder is found
B.AFTER_BIDS["wildlings"] = after_bids
B.AFTER_RANKING.update(highest=after_ranking, lowest=after_ranking)
