"""The rules of Towers of Babylon: one function per rule, each citing the seed's words.

``engine.py`` asks the predicates here what is legal (the same ones for listing and for
checking a move) and calls the ``do_*`` functions to apply a move. Decisions waiting for a
player are kept on the state's ``DecisionStack``; their kinds:

* ``deck`` — both seats choose a deck, hidden and simultaneous (``state.deck_choice``);
* ``mulligan`` — both seats put up to 3 cards on the bottom, hidden and simultaneous;
* ``start`` — the active player draws a second card or makes an offering;
* ``main`` — the active player's main phase;
* ``defend`` — the attacked player blocks, plays a witchery, or lets the attack through;
* ``twin`` — the attacker chooses the second victim of a Twinstrike;
* ``offering`` — a card's effect lets its player make an offering (or skip).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from engines.kit import Decision, Log
from engines.towers_of_babylon.components import (
    ANY_TIME,
    BATTLEFIELD,
    CARD_LIST,
    CARDS,
    COPY_LIMITS,
    DECK_SIZE,
    DECKS,
    ENEMY_ATTACKING,
    EXHAUSTED,
    FACTIONS,
    FRIENDLY_ENTERS,
    GOAL,
    IMMOBILE,
    INVOCATION,
    LAST_TURN,
    MAX_FACTIONS,
    MULLIGAN_MAX,
    RAMPARTS,
    READY,
    TOWER,
    WITCHERY,
    Card,
    copies_error,
    factions_error,
    size_error,
    unknown_card_error,
    with_article,
)
from engines.towers_of_babylon.state import ALWAYS, TOWER_TARGET, Attack, Minion, Player, State

RULE_DECKS = "Decks (authored): each player chooses a deck"
RULE_SETUP = "Game Setup"
RULE_MULLIGAN = "Game Setup: put up to 3 cards on the bottom, draw as many"
RULE_START = "How to start a Turn"
RULE_OFFERING = "Keywords: Offering"
RULE_PLAY_MINION = "Main Phase: play a Minion card"
RULE_PLAY_SPELL = "Main Phase: play a Spell card"
RULE_PAY = "Main Phase: pay the Power Cost"
RULE_WITCHERY = "Spells: Witcheries"
RULE_MOVE = "Main Phase: move a Minion to another zone"
RULE_BUILD = "Main Phase: use a Minion to build your tower"
RULE_ATTACK = "Main Phase: use a Minion to attack"
RULE_BLOCK = "Clashing: blocking"
RULE_TWIN = "Keywords: Twinstrike"
RULE_END = "End of turn"
RULE_WINDOWS = "Reaction windows (authored)"
RULE_TURN = "Turn order"

DECK = "deck"
MULLIGAN = "mulligan"
START = "start"
MAIN = "main"
DEFEND = "defend"
TWIN = "twin"
OFFERING = "offering"

ZONE_NAME = {RAMPARTS: "the Ramparts", TOWER: "the Tower", BATTLEFIELD: "the Battlefield"}

RULES_VERSION = 2
"""The newest rules version. 1: the engine chose the Power Sources that pay for a card; 2: the
player chooses them (issue #25). A table keeps the version it was dealt under."""
PLAYER_PAYS = 2
"""The first rules version in which the player chooses the Power Sources."""

SYMBOLS: tuple[str, ...] = tuple(FACTIONS)
"""The Power Source symbols, in the order a payment lists them (the factions' order)."""
Payment = tuple[str, ...]
"""Power Sources paid for a card, as a multiset of symbols listed in ``SYMBOLS`` order."""


def other(seat: int) -> int:
    return 1 - seat


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


# ===================================================================================== decks
def draft_of(state: State, seat: int) -> dict[str, int]:
    """The deck list a seat has put together so far (hidden from the other seat)."""
    choice = state.deck_choice.own(seat)
    return dict(choice["cards"]) if choice else {}



def addable(draft: Mapping[str, int]) -> dict[str, int]:
    """Deck rules 1 to 3 from the list so far: each card that may still join it, with the most
    copies that may (the ``add`` moves are 1 up to that many)."""
    total = sum(draft.values())
    factions = {CARDS[c].faction for c in draft}
    full = len(factions) >= MAX_FACTIONS
    room = DECK_SIZE - total
    out: dict[str, int] = {}
    for card in CARD_LIST:
        if full and card.faction not in factions:
            continue
        limit = min(COPY_LIMITS[card.rarity] - draft.get(card.id, 0), room)
        if limit > 0:
            out[card.id] = limit
    return out


def add_limit(draft: Mapping[str, int], card: Card) -> int:
    """How many more copies of ``card`` the deck rules let this draft take (0: none).

    Deck rule 1: 60 cards; rule 2: at most 4 of a common, 3 of an uncommon, 2 of a rare, 1 of
    a super rare; rule 3: at most two factions."""
    total = sum(draft.values())
    factions = {CARDS[c].faction for c in draft}
    if card.faction not in factions and len(factions) >= MAX_FACTIONS:
        return 0
    return max(0, min(COPY_LIMITS[card.rarity] - draft.get(card.id, 0), DECK_SIZE - total))


def add_refusal(draft: Mapping[str, int], card_id: str, copies: int) -> str | None:
    """Why ``copies`` of ``card_id`` cannot join this draft (None: they can)."""
    card = CARDS.get(card_id)
    if card is None:
        return unknown_card_error(card_id)
    if copies < 1:
        return f"{RULE_DECKS}: add at least one copy of {card.name}."
    have = draft.get(card_id, 0)
    if have + copies > COPY_LIMITS[card.rarity]:
        return copies_error(card, have + copies)
    factions = sorted({CARDS[c].faction for c in draft})
    if card.faction not in factions and len(factions) >= MAX_FACTIONS:
        return factions_error(card, factions)
    total = sum(draft.values())
    if total + copies > DECK_SIZE:
        return size_error(total + copies)
    return None


def deal_decks(state: State, choices: Mapping[int, Any], log: Log) -> None:
    """Game Setup: each deck goes to its square, shuffled; the first player draws 4, the second
    5 and moves their Transformed Power Marker to 1; towers at 10, turn markers at 0."""
    for seat in range(2):
        choice = choices[seat]
        pl = state.players[seat]
        pl.deck_name = DECKS[choice["name"]]["name"] if choice["name"] in DECKS else "Custom deck"
        pl.deck_list = dict(sorted(choice["cards"].items()))
        i = 0
        for cid, copies in pl.deck_list.items():
            for _ in range(copies):
                iid = 100 * seat + i
                state.cards[iid] = cid
                pl.deck.append(iid)
                i += 1
        state.rng.shuffle(pl.deck)
        log.say("{0} plays the deck {deck}.", seat, deck=pl.deck_name)
    first, second = state.first, other(state.first)
    log.say("{0} plays first and draws 4 cards; {1} plays second, draws 5 and starts with 1 transformed power.",
            first, second)
    draw(state, first, 4, log)
    draw(state, second, 5, log)
    state.players[second].transformed = 1


# ===================================================================================== setup
def mulligan_options(state: State, seat: int) -> list[list[int]]:
    """Game Setup: "Each player may put up to 3 cards from their hand on the bottom of their
    deck" — every such choice, each as a sorted list of cards."""
    hand = sorted(state.players[seat].hand)
    return [list(c) for n in range(MULLIGAN_MAX + 1) for c in combinations(hand, n)]


def do_mulligans(state: State, choices: Mapping[int, list[int]], log: Log) -> None:
    """"...then draw as many cards as they put away." The first player first."""
    for seat in (state.first, other(state.first)):
        pl = state.players[seat]
        put = choices[seat]
        for iid in put:
            pl.hand.remove(iid)
        pl.deck[0:0] = list(reversed(put))
        pl.known_bottom = len(put)
        pl.mulliganed = len(put)
        log.say("{0} puts {n} on the bottom of their deck.", seat, n=_cards(len(put)))
        draw(state, seat, len(put), log)


# ===================================================================================== cards
def draw(state: State, seat: int, n: int, log: Log) -> None:
    """Draw ``n`` cards. Empty deck (authored; the seed is silent): the Discard Pile is shuffled
    to make a new deck; with no discard pile either, the draw is lost."""
    pl = state.players[seat]
    names: list[str] = []
    for _ in range(n):
        if not pl.deck:
            if not pl.discard:
                log.say("{0} cannot draw: their deck and discard pile are empty.", seat)
                break
            pl.deck = pl.discard
            pl.discard = []
            state.rng.shuffle(pl.deck)
            pl.known_bottom = 0
            log.say("{0}'s deck is empty: their discard pile is shuffled into a new deck.", seat)
        iid = pl.deck.pop()
        pl.hand.append(iid)
        names.append(CARDS[state.cards[iid]].name)
        if pl.known_bottom > len(pl.deck):
            pl.known_bottom = len(pl.deck)
    if names:
        log.say("{0} draws {n}.", seat, n=_cards(len(names)),
                privately={seat: "You draw " + ", ".join(names) + "."})


def leave_hand(pl: Player, iid: int) -> None:
    pl.hand.remove(iid)
    if iid in pl.known_hand:
        pl.known_hand.remove(iid)


def make_offering(state: State, seat: int, iid: int, log: Log) -> None:
    """Offering: "a player puts a card from his hand into the Sacrifice Pile, then gains a Power
    Source that shares a color with the sacrificed card ... in Available Power Sources"."""
    pl = state.players[seat]
    leave_hand(pl, iid)
    pl.sacrifice.append(iid)
    card = state.card(iid)
    pl.available.append(card.faction)
    log.say("{0} offers {card} and gains {colour} Power Source.", seat, card=card.name,
            colour=with_article(FACTIONS[card.faction]["name"]))


def can_pay(pl: Player, card: Card) -> bool:
    """Main Phase: the Power Cost, of which at least the specific cost from sources with the
    card's symbol; a Witchery is paid from Transformed Power instead."""
    if card.kind == WITCHERY:
        return pl.transformed >= card.cost
    return len(pl.available) >= card.cost and pl.available.count(card.faction) >= card.specific


def payments(pl: Player, card: Card) -> list[Payment]:
    """Main Phase: "pay the Power Cost of the card, by moving a number of Power Sources from
    Available ... equal to the Power Cost", at least the specific cost of them with the card's
    symbol — every way to do it, each a multiset of symbols (two sources of one symbol are
    alike, so choosing between them is no choice). In ``SYMBOLS`` order; none when the card
    cannot be paid; a single empty one for a Witchery (paid from Transformed Power)."""
    if card.kind == WITCHERY:
        return [()] if pl.transformed >= card.cost else []
    if not can_pay(pl, card):
        return []
    if card.cost == len(pl.available) or len(set(pl.available)) <= 1:
        # every source pays, or they are all alike: one way (the usual case with a one-faction deck)
        return [tuple(sorted(pl.available, key=SYMBOLS.index)[:card.cost])]
    have = [pl.available.count(s) for s in SYMBOLS]
    least = [card.specific if s == card.faction else 0 for s in SYMBOLS]
    out: list[Payment] = []

    def fill(i: int, left: int, chosen: Payment) -> None:
        if i == len(SYMBOLS):
            if left == 0:
                out.append(chosen)
            return
        if sum(have[i:]) < left:
            return
        for n in range(least[i], min(have[i], left) + 1):
            fill(i + 1, left - n, chosen + (SYMBOLS[i],) * n)

    fill(0, card.cost, ())
    return out


def later_plays(state: State, seat: int, iid: int, payment: Payment) -> int:
    """How many other cards of the hand (not Witcheries: they are paid from Transformed Power)
    could still be paid for after paying ``payment`` for card ``iid``."""
    pl = state.players[seat]
    left = Counter(pl.available)
    left.subtract(payment)
    total = len(pl.available) - len(payment)
    n = 0
    for other_iid in pl.hand:
        if other_iid == iid:
            continue
        c = state.card(other_iid)
        if c.kind != WITCHERY and c.cost <= total and left[c.faction] >= c.specific:
            n += 1
    return n


def cheapest_for_later(state: State, seat: int, iid: int, options: Sequence[Payment]) -> list[Payment]:
    """The payments of card ``iid``, the cheapest for later first: the one leaving the most other
    cards of the hand payable; then the one whose sources left match the most other cards of the
    hand by colour (what a later offering or draw this turn may add to); then the one keeping the
    most sources of the deck's own factions (what it will mostly draw); then the most different
    symbols; then ``SYMBOLS`` order. The page preselects the first; nothing hidden from the seat
    is read (its own hand and deck list)."""
    pl = state.players[seat]
    home = {CARDS[c].faction for c in pl.deck_list}
    wanted = Counter(state.card(i).faction for i in pl.hand if i != iid and state.card(i).kind != WITCHERY)

    def key(payment: Payment) -> tuple[int, int, int, int, list[int]]:
        left = Counter(pl.available)
        left.subtract(payment)
        matching = sum(n * wanted[s] for s, n in left.items() if n > 0)
        kept_home = sum(n for s, n in left.items() if s in home and n > 0)
        kinds = sum(1 for n in left.values() if n > 0)
        return (-later_plays(state, seat, iid, payment), -matching, -kept_home, -kinds,
                [SYMBOLS.index(s) for s in payment])

    return sorted(options, key=key)


def payment_words(payment: Payment) -> str:
    """"2 Light and 1 Fire"."""
    counts = Counter(payment)
    parts = [f"{counts[s]} {FACTIONS[s]['name']}" for s in SYMBOLS if counts[s]]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def payment_refusal(pl: Player, card: Card, named: Sequence[str]) -> str | None:
    """Why ``named`` does not pay for ``card`` (None: it does), naming the first thing wrong."""
    unknown = [s for s in named if s not in FACTIONS]
    if unknown:
        return (f"{unknown[0][:40]!r} is not a Power Source symbol; the symbols are "
                f"{', '.join(SYMBOLS)}.")
    if len(named) != card.cost:
        return (f"{card.name} costs {card.cost} power: name {card.cost} Power Source"
                f"{'' if card.cost == 1 else 's'}, not {len(named)}.")
    wanted = Counter(named)
    for s in SYMBOLS:
        if wanted[s] > pl.available.count(s):
            return (f"you name {wanted[s]} {FACTIONS[s]['name']} Power Source"
                    f"{'' if wanted[s] == 1 else 's'} and have {pl.available.count(s)} available.")
    if wanted[card.faction] < card.specific:
        colour = FACTIONS[card.faction]["name"]
        return (f"{card.name}'s specific cost is {card.specific} {colour}: at least {card.specific} of the "
                f"sources paid must be {colour}, and you name {wanted[card.faction]}.")
    if list(named) != sorted(named, key=SYMBOLS.index):
        return f"list the Power Sources in the order {', '.join(SYMBOLS)}."
    return None


def pay(pl: Player, card: Card, payment: Payment | None = None) -> None:
    """Pay for a card: the sources ``payment`` names (rules version 2: the player chose them, or
    there was one way), or, with None, the engine's choice of rules version 1."""
    if card.kind == WITCHERY:
        pl.transformed -= card.cost
        return
    if payment is None:
        engine_pays(pl, card)
        return
    for s in payment:
        pl.available.remove(s)
        pl.exhausted.append(s)


def engine_pays(pl: Player, card: Card) -> None:
    """Rules version 1: the engine chooses the sources (the specific cost from matching sources,
    the rest from other colours first — the most plentiful first, the earlier in Available on a
    tie). Kept exactly, so tables dealt under version 1 play and replay as they always have."""
    for _ in range(card.specific):
        pl.available.remove(card.faction)
        pl.exhausted.append(card.faction)
    for _ in range(card.cost - card.specific):
        others = [c for c in pl.available if c != card.faction]
        colour = max(others, key=others.count) if others else card.faction
        pl.available.remove(colour)
        pl.exhausted.append(colour)


# ===================================================================================== targets
def chosen_targets(state: State, seat: int, kind: str | None) -> list[int]:
    """The minions a card's ``target`` kind allows, in play order."""
    if kind is None:
        return []
    mine, theirs = state.players[seat].minions, state.players[other(seat)].minions
    if kind == "enemy_minion":
        return [m.iid for m in theirs]
    if kind == "friendly_minion":
        return [m.iid for m in mine]
    if kind == "any_minion":
        return [m.iid for m in mine] + [m.iid for m in theirs]
    zone = {"enemy_raider": BATTLEFIELD, "enemy_defender": RAMPARTS, "enemy_builder": TOWER}[kind]
    return [m.iid for m in theirs if m.zone == zone]


def play_targets(state: State, seat: int, card: Card) -> list[int]:
    """The ``target`` values a play of ``card`` may name: -1 for a card without a choice; a
    Minion whose Swear Allegiance has nothing to choose is still played (the effect fizzles); a
    spell needs a target."""
    if card.target is None:
        return [TOWER_TARGET]
    targets = chosen_targets(state, seat, card.target)
    if card.is_minion and not targets:
        return [TOWER_TARGET]
    return targets


def witchery_window_open(state: State, seat: int, card: Card, kind: str | None = None) -> bool:
    """Spells: "Witcheries are the only cards that can be played at the opponents turn ...
    'when a friendly Minion enters the game' or 'when an enemy Minion is attacking'". ``kind``:
    the decision to judge for (default: the one awaited now)."""
    kind = kind or state.decisions.kind()
    if card.window == ANY_TIME:
        return kind in (MAIN, DEFEND)
    if card.window == FRIENDLY_ENTERS:
        entered = state.minion(state.entered) if kind == MAIN and state.entered >= 0 else None
        return entered is not None and entered.owner == seat
    if card.window == ENEMY_ATTACKING:
        return kind == DEFEND
    return False


def playable(state: State, seat: int, card: Card, kind: str | None = None) -> bool:
    """May ``seat`` play ``card`` from hand now (before targets)?"""
    pl = state.players[seat]
    if card.kind == WITCHERY:
        return witchery_window_open(state, seat, card, kind) and can_pay(pl, card)
    return (kind or state.decisions.kind()) == MAIN and can_pay(pl, card)


def play_moves(state: State, seat: int, kind: str | None = None) -> list[tuple[int, int]]:
    """Every (card, target) the seat may play now (or in the decision ``kind``)."""
    out: list[tuple[int, int]] = []
    for iid in state.players[seat].hand:
        card = state.card(iid)
        if playable(state, seat, card, kind):
            out.extend((iid, t) for t in play_targets(state, seat, card))
    return out


# ===================================================================================== minions
def can_move(m: Minion, zone: str) -> bool:
    """Main Phase: "Only Minions that are Ready (upright) can be moved"."""
    return m.status == READY and zone != m.zone


def can_build(m: Minion) -> bool:
    """Main Phase: "Only Builders can build. Exhausted Builders can't build."""
    return m.zone == TOWER and m.status != EXHAUSTED


def can_attack(m: Minion) -> bool:
    """Main Phase: "Only Raiders can attack. Exhausted Raiders can't attack."""
    return m.zone == BATTLEFIELD and m.status != EXHAUSTED


def attack_targets(state: State, seat: int) -> list[int]:
    """Clashing: "The target can be any enemy Minion ... or the enemy Tower" (-1)."""
    return [TOWER_TARGET] + [m.iid for m in state.players[other(seat)].minions]


def can_be_blocked(state: State, attack: Attack) -> bool:
    """Clashing: "if the attack is targeting an enemy Raider, the Defenders will be unable to
    block"; Tunnel: "can not be blocked, when they attack the enemy Tower"."""
    if attack.target == TOWER_TARGET:
        att = state.minion(attack.attacker)
        return att is not None and not att.has("tunnel")
    target = state.minion(attack.target)
    return target is not None and target.zone != BATTLEFIELD


def blockers(state: State) -> list[int]:
    """The Defenders (Ramparts, not exhausted) that may block the current attack."""
    attack = state.attack
    if attack is None or attack.blocker >= 0 or not can_be_blocked(state, attack):
        return []
    att = state.minion(attack.attacker)
    if att is None:
        return []
    return [m.iid for m in state.players[other(att.owner)].minions
            if m.zone == RAMPARTS and m.status != EXHAUSTED and m.iid != attack.target]


def partner(state: State) -> Minion | None:
    """The minion the attacker clashes with: its blocker, else its target (None: the Tower)."""
    attack = state.attack
    assert attack is not None
    if attack.blocker >= 0:
        return state.minion(attack.blocker)
    return state.minion(attack.target) if attack.target >= 0 else None


def twin_candidates(state: State) -> list[int]:
    """Twinstrike: "if there is one or more other enemy Minion in the same zone as the one they
    clash with, they also deal damage to another Minion in that zone"."""
    attack = state.attack
    if attack is None or attack.halted:
        return []
    att = state.minion(attack.attacker)
    if att is None or not att.has("twinstrike"):
        return []
    p = partner(state)
    if p is None:
        return []
    return [m.iid for m in state.players[p.owner].minions if m.zone == p.zone and m.iid != p.iid]


# ===================================================================================== damage
def exhaust(state: State, m: Minion, log: Log) -> None:
    """Exhaust a minion; Sentence: "A Sentenced Minion takes 1 damage every time it becomes
    exhausted"."""
    if m.status == EXHAUSTED:
        return
    m.status = EXHAUSTED
    if m.sentenced:
        m.damage += 1
        log.say("{0}'s {card} is Sentenced and takes 1 damage as it becomes exhausted.", m.owner,
                card=m.spec.name)


def strike(state: State, source: Minion, victim: Minion, amount: int, log: Log) -> None:
    """Combat damage from ``source`` to ``victim``; Lethal: "When these Minions deal damage to
    another Minion, that Minion dies"."""
    if amount <= 0:
        return
    victim.damage += amount
    if source.has("lethal"):
        victim.damage = max(victim.damage, victim.health)


def settle(state: State, log: Log) -> None:
    """Clashing: "If either Minion then has a number of damage markers equal to or more than its
    health, it dies, and is moved to the Discard Pile." Then their Dying Words, the active
    player's first; deaths they cause settle the same way."""
    while True:
        dead = [m for seat in (state.active, other(state.active)) for m in state.players[seat].minions
                if m.damage >= m.health]
        if not dead:
            return
        for m in dead:
            pl = state.players[m.owner]
            pl.minions.remove(m)
            pl.discard.append(m.iid)
            log.say("{0}'s {card} dies.", m.owner, card=m.spec.name)
        if state.over:
            continue  # the game is decided: no more Dying Words
        for m in dead:
            if m.spec.dying_words:
                log.say("Dying Words of {0}'s {card}.", m.owner, card=m.spec.name)
                resolve(state, m.owner, m.spec.dying_words, m.iid, TOWER_TARGET, log)


def levels_words(n: int) -> str:
    """ "1 level", "3 levels" (log lines)."""
    return f"{n} level" if n == 1 else f"{n} levels"


def raise_tower(state: State, seat: int, levels: int, log: Log) -> None:
    state.players[seat].tower += levels
    check_goal(state, log)


def lower_tower(state: State, seat: int, levels: int) -> int:
    """Lower a Tower (never below 0); the levels it actually lost."""
    pl = state.players[seat]
    lost = min(levels, pl.tower)
    pl.tower -= lost
    return lost


def hit_tower(state: State, att: Minion, amount: int, log: Log) -> None:
    """An attack's damage to the enemy Tower; Thief: "the player who controls the Minion will
    have their Tower gain levels equal to the damage they dealt the enemy Tower" (the levels the
    enemy Tower actually lost)."""
    enemy = other(att.owner)
    lost = lower_tower(state, enemy, amount)
    log.say("{0}'s {card} deals {n} damage to {1}'s Tower ({levels}).", att.owner, enemy,
            card=att.spec.name, n=amount, levels=levels_words(state.players[enemy].tower))
    if att.has("thief") and lost:
        log.say("Thief: {0}'s Tower gains {n}.", att.owner, n=levels_words(lost))
        raise_tower(state, att.owner, lost, log)


def check_goal(state: State, log: Log) -> None:
    """Game Objective: "the first player to have their tower reach 50 levels" wins at once."""
    if state.over:
        return
    for seat in (state.active, other(state.active)):
        if state.players[seat].tower >= GOAL:
            finish(state, seat, "goal", log)
            return


def finish(state: State, winner: int, outcome: str, log: Log) -> None:
    state.over = True
    state.winner = winner
    state.outcome = outcome
    state.decisions.stack.clear()
    state.attack = None
    state.entered = -1
    if outcome == "goal":
        log.say("{0}'s Tower reaches {goal} levels: {0} wins!", winner, goal=GOAL)
    elif winner >= 0:
        log.say("Both players have played {n} turns; {0}'s Tower is the highest: {0} wins!", winner, n=LAST_TURN)
    else:
        log.say("Both players have played {n} turns and the Towers are level: a draw.", n=LAST_TURN)


# ===================================================================================== effects
Handler = Callable[[State, int, int, int, Mapping[str, Any], Log], None]


def select(state: State, seat: int, source: int, target: int, to: str) -> list[Minion]:
    """The minions an effect's ``to`` selector names (see effects.SELECTORS)."""
    enemy = state.players[other(seat)].minions
    if to == "target":
        m = state.minion(target) if target >= 0 else None
        return [m] if m else []
    if to == "self":
        m = state.minion(source)
        return [m] if m else []
    if to == "attacker":
        m = state.minion(state.attack.attacker) if state.attack else None
        return [m] if m else []
    if to == "entering":
        m = state.minion(state.entered) if state.entered >= 0 else None
        return [m] if m else []
    if to == "all_enemy_minions":
        return list(enemy)
    if to == "all_enemy_raiders":
        return [m for m in enemy if m.zone == BATTLEFIELD]
    if to == "all_enemy_defenders":
        return [m for m in enemy if m.zone == RAMPARTS]
    if to == "all_enemy_builders":
        return [m for m in enemy if m.zone == TOWER]
    if to == "all_friendly_minions":
        return list(state.players[seat].minions)
    if to == "random_enemy_minion":
        return [enemy[state.rng.below(len(enemy))]] if enemy else []
    raise ValueError(f"unknown selector {to!r}")


def _each(fn: Callable[[State, Minion, Mapping[str, Any], Log], None]) -> Handler:
    def handler(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
        for m in select(state, seat, source, target, e["to"]):
            fn(state, m, e, log)
    return handler


def _damage(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.damage += e["amount"]
    log.say("{0}'s {card} takes {n} damage.", m.owner, card=m.spec.name, n=e["amount"])


def _heal(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.damage = 0


def _destroy(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.damage = max(m.damage, m.health)


def _exhaust(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    exhaust(state, m, log)


def _ready(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.status = READY


def _sentence(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    """Sentence: "Put a Sentence marker on it"."""
    m.sentenced = True
    log.say("{0}'s {card} is Sentenced.", m.owner, card=m.spec.name)


def _buff(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.might_bonus += e["might"]
    m.health_bonus += e["health"]


def _surge(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    m.surge += e["amount"]


def _bounce(state: State, m: Minion, e: Mapping[str, Any], log: Log) -> None:
    """Return a minion to its owner's hand (its markers are lost; the opponent knows it is there)."""
    pl = state.players[m.owner]
    pl.minions.remove(m)
    pl.hand.append(m.iid)
    pl.known_hand.append(m.iid)
    log.say("{0}'s {card} returns to their hand.", m.owner, card=m.spec.name)


def _build(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    log.say("{0}'s Tower gains {n}.", seat, n=levels_words(e["amount"]))
    raise_tower(state, seat, e["amount"], log)


def _demolish(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    lost = lower_tower(state, other(seat), e["amount"])
    log.say("{0}'s Tower loses {n}.", other(seat), n=levels_words(lost))


def _draw(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    draw(state, seat, e["amount"], log)


def _transform(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    state.players[seat].transformed += e["amount"]
    log.say("{0} gains {n} transformed power.", seat, n=e["amount"])


def _offering(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    """An effect's Offering: the player may make one now (a decision; skipped with an empty hand)."""
    if state.players[seat].hand:
        state.decisions.push(Decision(OFFERING, [seat], {"source": state.cards.get(source, "")}))


def _discard(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    pl = state.players[other(seat)]
    for _ in range(e["amount"]):
        if not pl.hand:
            return
        iid = pl.hand[state.rng.below(len(pl.hand))]
        leave_hand(pl, iid)
        pl.discard.append(iid)
        log.say("{0} discards {card} at random.", other(seat), card=state.card(iid).name)


def _halt(state: State, seat: int, source: int, target: int, e: Mapping[str, Any], log: Log) -> None:
    if state.attack is not None:
        state.attack.halted = True
        log.say("The attack ends without a clash.")


HANDLERS: dict[str, Handler] = {
    "damage": _each(_damage),
    "heal": _each(_heal),
    "destroy": _each(_destroy),
    "exhaust": _each(_exhaust),
    "ready": _each(_ready),
    "sentence": _each(_sentence),
    "buff": _each(_buff),
    "surge": _each(_surge),
    "bounce": _each(_bounce),
    "build": _build,
    "demolish": _demolish,
    "draw": _draw,
    "transform": _transform,
    "offering": _offering,
    "discard": _discard,
    "halt": _halt,
}
"""The behaviour of every name of the effect vocabulary (effects.VOCABULARY)."""


def resolve(state: State, seat: int, effects: Sequence[Mapping[str, Any]], source: int, target: int,
            log: Log) -> None:
    """Resolve a card's effects in order for ``seat``; deaths settle after each effect."""
    for e in effects:
        if state.over:
            return
        HANDLERS[e["do"]](state, seat, source, target, e, log)
        settle(state, log)


# ===================================================================================== turns
def start_turn(state: State, log: Log) -> None:
    """How to start a Turn, in the seed's order: turn marker, power sources, ready minions
    (Regenerating heals), invocations, draw; then the draw-or-offering decision."""
    seat = state.active
    pl = state.players[seat]
    pl.turns += 1
    log.say("Turn {n} of {0} begins.", seat, n=pl.turns)
    pl.available.extend(pl.exhausted)
    pl.exhausted.clear()
    for m in pl.minions:
        m.status = READY
        if m.has("regenerating"):
            m.damage = 0
    invocations, pl.invocations = pl.invocations, []
    for k, iid in enumerate(invocations):
        card = state.card(iid)
        log.say("{0}'s invocation {card} resolves.", seat, card=card.name)
        resolve(state, seat, card.effects, iid, TOWER_TARGET, log)
        pl.discard.append(iid)
        if state.over:
            pl.invocations = invocations[k + 1:]  # the game is decided: the others stay unresolved
            return
    draw(state, seat, 1, log)
    state.decisions.push(Decision(START, [seat]))


def begin_main(state: State) -> None:
    state.decisions.pop()
    state.decisions.push(Decision(MAIN, [state.active]))


def end_turn(state: State, log: Log) -> None:
    """End of turn: "move all your Power Source from Available ... to Exhausted ... Then move
    your Transformed Power Marker one step, for each Power Source moved this way"."""
    seat = state.active
    pl = state.players[seat]
    n = len(pl.available)
    pl.exhausted.extend(pl.available)
    pl.available.clear()
    pl.transformed += n
    log.say("{0} ends their turn and gains {n} transformed power.", seat, n=n)
    for p in state.players:
        for m in p.minions:
            m.surge = 0
    state.entered = -1
    state.decisions.pop()
    if all(p.turns >= LAST_TURN for p in state.players):
        a, b = state.players[0].tower, state.players[1].tower
        finish(state, 0 if a > b else 1 if b > a else -1, "height" if a != b else "draw", log)
        return
    state.active = other(seat)
    start_turn(state, log)


# ===================================================================================== actions
def do_play(state: State, seat: int, iid: int, target: int, log: Log, payment: Payment | None = None,
            named: bool = False) -> None:
    """Play a card from hand (the move was checked): Minions enter the Ramparts immobile and swear
    allegiance; Commands resolve and are discarded; Invocations wait for the start of the next
    turn; Witcheries are paid from transformed power, resolve and are discarded. ``payment``: the
    Power Sources paid (None: the engine chooses, rules version 1); ``named``: the player chose
    them among several ways, which the log then says."""
    pl = state.players[seat]
    card = state.card(iid)
    if card.kind != WITCHERY:
        state.entered = -1
    pay(pl, card, payment)
    paid = f", paying {payment_words(payment)}" if named and payment else ""
    leave_hand(pl, iid)
    on = state.minion(target) if target >= 0 else None
    if card.is_minion:
        m = Minion(iid=iid, card=card.id, owner=seat, zone=RAMPARTS, status=IMMOBILE)
        pl.minions.append(m)
        state.entered = iid
        log.say("{0} plays {card} onto the Ramparts{paid}.", seat, card=card.name, paid=paid)
        if card.swear_allegiance:
            resolve(state, seat, card.swear_allegiance, iid, target, log)
        return
    if on is not None:
        log.say("{0} plays {card} on {1}'s {victim}{paid}.", seat, on.owner, card=card.name, victim=on.spec.name,
                paid=paid)
    else:
        log.say("{0} plays {card}{paid}.", seat, card=card.name, paid=paid)
    if card.kind == INVOCATION:
        pl.invocations.append(iid)
        return
    resolve(state, seat, card.effects, iid, target, log)
    pl.discard.append(iid)  # "Then resolve its effect, then put it into the Discard Pile."
    if state.attack is not None and state.decisions.kind() == DEFEND:
        after_reaction(state, log)


def do_move(state: State, m: Minion, zone: str, log: Log) -> None:
    """Move a ready minion to another zone: "When a Minion is moved, turn it sideways (immobile)"."""
    state.entered = -1
    m.zone = zone
    m.status = IMMOBILE
    log.say("{0} moves {card} to {zone}.", m.owner, card=m.spec.name, zone=ZONE_NAME[zone])


def do_build(state: State, m: Minion, log: Log) -> None:
    """Build: "exhaust a Builder, then move your Tower Marker, increasing the number of levels
    of your tower equal to the construction of the Builder"; then its Shape."""
    state.entered = -1
    seat = m.owner
    exhaust(state, m, log)
    state.players[seat].tower += m.construction
    log.say("{0}'s {card} builds {n}: the Tower stands at {levels}.", seat, card=m.spec.name,
            n=levels_words(m.construction), levels=state.players[seat].tower)
    check_goal(state, log)
    if state.over:
        settle(state, log)
        return
    if m.spec.shape:
        log.say("Shape of {0}'s {card}.", seat, card=m.spec.name)
        resolve(state, seat, m.spec.shape, m.iid, TOWER_TARGET, log)
    else:
        settle(state, log)


def do_attack(state: State, m: Minion, target: int, log: Log) -> None:
    """Attack: "exhaust a Raider, then declare the target"; the defender may then block (or, in
    the reaction window, play a witchery)."""
    state.entered = -1
    seat = m.owner
    victim = state.minion(target) if target >= 0 else None
    if victim is None:
        log.say("{0}'s {card} attacks {1}'s Tower.", seat, other(seat), card=m.spec.name)
    else:
        log.say("{0}'s {card} attacks {1}'s {victim}.", seat, other(seat), card=m.spec.name,
                victim=victim.spec.name)
    state.attack = Attack(attacker=m.iid, target=target)
    exhaust(state, m, log)
    settle(state, log)
    if state.minion(m.iid) is None:
        state.attack = None
        return
    defender = other(seat)
    if state.players[defender].windows == ALWAYS or blockers(state) or reaction_plays(state, defender):
        state.decisions.push(Decision(DEFEND, [defender]))
    else:
        after_defence(state, log)


def reaction_plays(state: State, seat: int) -> list[tuple[int, int]]:
    """The witcheries the defender could play in a defence window, were it open."""
    return play_moves(state, seat, DEFEND)


def after_reaction(state: State, log: Log) -> None:
    """A witchery played in the defence window: an attacker gone or halted ends the window."""
    attack = state.attack
    assert attack is not None
    if attack.halted or state.minion(attack.attacker) is None:
        state.decisions.pop()
        resolve_attack(state, log)


def do_block(state: State, blocker: Minion, log: Log) -> None:
    """Clashing: "they may choose one of their Defenders, and announce that it will block"."""
    assert state.attack is not None
    state.attack.blocker = blocker.iid
    log.say("{0} blocks with {card}.", blocker.owner, card=blocker.spec.name)
    state.decisions.pop()
    after_defence(state, log)


def do_let_through(state: State, seat: int, log: Log) -> None:
    log.say("{0} does not block.", seat)
    state.decisions.pop()
    after_defence(state, log)


def after_defence(state: State, log: Log) -> None:
    """After the block decision: a Twinstrike's second victim (chosen when there are several),
    then the clash."""
    candidates = twin_candidates(state)
    assert state.attack is not None
    if len(candidates) > 1:
        state.decisions.push(Decision(TWIN, [state.active]))
        return
    if candidates:
        state.attack.second = candidates[0]
    resolve_attack(state, log)


def do_twin(state: State, victim: int, log: Log) -> None:
    assert state.attack is not None
    state.attack.second = victim
    state.decisions.pop()
    resolve_attack(state, log)


def resolve_attack(state: State, log: Log) -> None:
    """Clashing: the attacker clashes with its blocker, else its target — both deal their might
    (an exhausted target cannot defend, so it deals none); deaths; Crush; the defending minion
    becomes exhausted; an unblocked attack on the Tower lowers it by the attacker's might;
    Retreating."""
    attack = state.attack
    assert attack is not None
    att = state.minion(attack.attacker)
    if att is None or attack.halted:
        if att is not None and att.has("retreating"):
            att.zone = RAMPARTS
        state.attack = None
        return
    clash_with = partner(state)
    if clash_with is None and attack.target == TOWER_TARGET:
        hit_tower(state, att, att.might, log)
    elif clash_with is None:
        log.say("The target has left the game: {0}'s {card} finds nobody to clash with.", att.owner,
                card=att.spec.name)
    else:
        clash(state, att, clash_with, log)
    if att.has("retreating") and state.minion(att.iid) is not None:
        att.zone = RAMPARTS
        log.say("Retreating: {0}'s {card} moves to the Ramparts.", att.owner, card=att.spec.name)
    state.attack = None
    settle(state, log)


def clash(state: State, att: Minion, defender: Minion, log: Log) -> None:
    """The clash proper, with Lethal, Twinstrike and Crush."""
    attack = state.attack
    assert attack is not None
    hits_back = defender.status != EXHAUSTED
    a_might, d_might = att.might, defender.might if hits_back else 0
    left = defender.health - defender.damage
    log.say("{0}'s {a} ({am} might) clashes with {1}'s {d} ({dm} might).", att.owner, defender.owner,
            a=att.spec.name, am=a_might, d=defender.spec.name, dm=d_might if hits_back else "exhausted: 0")
    strike(state, att, defender, a_might, log)
    strike(state, defender, att, d_might, log)
    second = state.minion(attack.second) if attack.second >= 0 else None
    if second is not None:
        log.say("Twinstrike: {0}'s {a} also deals {n} damage to {1}'s {d}.", att.owner, second.owner,
                a=att.spec.name, n=a_might, d=second.spec.name)
        strike(state, att, second, a_might, log)
    if (attack.blocker >= 0 and att.has("crush") and defender.damage >= defender.health
            and a_might > left):
        excess = a_might - left
        if attack.target == TOWER_TARGET:
            log.say("Crush: {n} excess damage goes on to the Tower.", n=excess)
            hit_tower(state, att, excess, log)
        else:
            target = state.minion(attack.target)
            if target is not None:
                log.say("Crush: {n} excess damage goes on to {0}'s {d}.", target.owner, n=excess,
                        d=target.spec.name)
                strike(state, att, target, excess, log)
    settle(state, log)
    if state.minion(defender.iid) is not None:
        exhaust(state, defender, log)
        settle(state, log)
