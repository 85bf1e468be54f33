"""The rules of Tower of London: the state, one function per rule, and the flow of a round.

Vocabulary (as the rulebook names things): a *seat* is a player (0..n-1, clockwise); a *card* is
one of the 13 player cards (ids 1..13, the same 13 in every colour); a *building* is a numbered
building of the board; a *Beefeater* is a cube of a seat's colour, plain or *promoted* (a second
cube on top). The *turn order* is the list of seats acting in a step, start player first.

A round: Prepare (flip an event, shuffle, draw six) -> Playing Cards, three steps of
(pick two cards at once, hidden) -> (reveal in turn order: first card places, second card's
ability) -> (Turn Order Track) -> Reduce Player Decks (keep three of the six played; not in the
last round, where it would change nothing) -> Scoring.

Rules versions: 2 (the newest) deals with the kit's ``Rng`` over all 128 bits of the seed and
reads the Turn Order Track under Mutiny for every step of its own round only. Version 1 is how
the first tables were dealt (SplitMix64 over the low 64 bits of the seed) and played (Mutiny
from step 2 of its round to step 1 of the next): tables and records of that time replay exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

from engines.base import Event, IllegalMove, Move, Result
from engines.kit import BOOL, INT, INT_LIST, PAIR, Commitments, Log, MoveSchema, MoveSpec, Rng, ref, say
from engines.tower_of_london.components import (
    ADJACENT,
    AREA_OF,
    AREAS_SCORED,
    BEEFEATERS,
    BUILDINGS,
    BUILDINGS_IN_AREA,
    BUILDINGS_IN_QUADRANT,
    CARD_IDS,
    CARDS,
    CARDS_KEPT,
    EVENTS,
    EVENTS_DRAWN,
    HAND_SIZE,
    MAX_BUILDING,
    PROMOTED_WEIGHT,
    QUADRANT_OF,
    RAVENS,
    RAVENS_TO_WIN,
    ROUNDS,
    STEPS_PER_ROUND,
    scoring_card_for,
)

GAME = "Tower of London"
RULE_SETUP = f"{GAME} — Setup"
RULE_PREPARE = f"{GAME} — Prepare"
RULE_PICK = f"{GAME} — Playing Cards, step 1"
RULE_PLACE = f"{GAME} — Playing Cards, step 2A"
RULE_ABILITY = f"{GAME} — Playing Cards, step 2B (Card Abilities)"
RULE_TRACK = f"{GAME} — Playing Cards, step 3 (Turn Order Track)"
RULE_REDUCE = f"{GAME} — Reduce Player Decks"
RULE_SCORING = f"{GAME} — Scoring"
RULE_WIN = f"{GAME} — Winning The Game"

PICK, REVEAL, KEEP, OVER = "pick", "reveal", "keep", "over"
STAGE_PLACE, STAGE_ABILITY = "place", "ability"

RULES_VERSION = 2
"""The newest rules version (see the module's docstring)."""

MOVES = MoveSchema(
    MoveSpec("pick", first=INT, second=INT),
    MoveSpec("place", building=INT),
    MoveSpec("remove", building=INT, seat=INT, promoted=BOOL),
    MoveSpec("switch", a=PAIR, b=PAIR),
    MoveSpec("pass"),
    MoveSpec("keep", cards=INT_LIST),
    game=GAME,
)
"""Every move's shape, in canonical key order (``legal_moves`` builds them with ``MOVES.make``)."""

_MASK = (1 << 64) - 1


# ----------------------------------------------------------------------------------- randomness
class SplitMix64:
    """Rules version 1's generator: SplitMix64 over the low 64 bits of the seed, stirred once.
    Kept so that tables dealt under version 1 go on being dealt exactly as they were.

    >>> g = SplitMix64.from_seed(7)
    >>> [g.below(6) for _ in range(4)]
    [0, 0, 3, 4]
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> SplitMix64:
        gen = cls(seed)
        gen.next64()  # stir the seed once
        return gen

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher–Yates."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def encode(self) -> str:
        return format(self.state, "x")  # as text: JSON readers may round 64-bit integers

    @classmethod
    def decode(cls, text: str) -> SplitMix64:
        return cls(int(text, 16))


def shuffle(state: State, items: list[int]) -> None:
    """Shuffle with the state's generator (the only source of randomness)."""
    if state.rng is not None:
        state.rng.shuffle(items)
        return
    gen = SplitMix64.decode(state.splitmix)
    gen.shuffle(items)
    state.splitmix = gen.encode()


def draw_below(state: State, n: int) -> int:
    """A uniform integer in [0, n) from the state's generator."""
    if state.rng is not None:
        return state.rng.below(n)
    gen = SplitMix64.decode(state.splitmix)
    x = gen.below(n)
    state.splitmix = gen.encode()
    return x


# ------------------------------------------------------------------------------------- the log
# ----------------------------------------------------------------------------------------- state
@dataclass(eq=True)
class State:
    """The whole game; snapshots are generic (``engines.kit.snapshot``)."""

    seats: int
    rules_version: int
    rng: Rng | None  # rules version 2: the kit's generator, seeded with all 128 bits
    splitmix: str  # rules version 1: SplitMix64's state as hex text ("" under version 2)
    start_player: int
    scoring_card: str
    scoring_ravens: list[int]
    round: int = 1
    step: int = 1
    phase: str = PICK
    order: list[int] = field(default_factory=list)
    event_pile: list[int] = field(default_factory=list)  # face down, next to flip first
    event: int = 0  # the face-up event of this round (0: none yet)
    past_events: list[int] = field(default_factory=list)
    decks: list[list[int]] = field(default_factory=list)  # order matters, drawn from the end
    hands: list[list[int]] = field(default_factory=list)
    choosing: Commitments = field(default_factory=Commitments)  # picks, then keeps: hidden
    picks: list[list[int]] = field(default_factory=list)  # this step's [first, second] once all chose
    played: list[list[int]] = field(default_factory=list)  # the cards played this round
    boxed: list[list[int]] = field(default_factory=list)  # returned to the game box
    supply: list[int] = field(default_factory=list)  # Beefeaters not on board or track
    plain: list[list[int]] = field(default_factory=list)  # [building][seat] plain Beefeaters
    promoted: list[list[int]] = field(default_factory=list)  # [building][seat] promoted stacks
    track: list[int] = field(default_factory=list)  # space of each seat's Beefeater (0: none)
    ravens: list[int] = field(default_factory=list)
    raven_supply: int = RAVENS
    turn: int = 0  # index in ``order`` of the seat revealing now
    stage: str = ""  # "place" / "ability" while awaiting the revealing seat, else ""
    placed: int = 0  # building where the revealing seat placed this turn (0: none)
    pending: str = ""  # the ability awaiting a choice
    revealed: list[int] = field(default_factory=list)  # per seat: 0, 1 (first card) or 2 (both)
    step_reveals: list[dict[str, Any]] = field(default_factory=list)
    scoring_history: list[dict[str, Any]] = field(default_factory=list)
    winner: int = -1
    end_reason: str = ""

    def clone(self) -> State:
        """A deep copy, for bots and what-if checks."""
        from engines.kit import snapshot

        return snapshot.decode(State, snapshot.encode(self))


def upgrade_snapshot(data: dict[str, Any]) -> dict[str, Any]:
    """A snapshot written before rules versions (rules version 1, one field per attribute, the
    generator as ``rng`` hex text, picks and keeps as lists with ``[]`` for "not chosen yet") in
    today's form. Snapshots of today's form are returned as they are."""
    if "rules_version" in data:
        return data
    out = {k: v for k, v in data.items() if k not in ("rng", "keeps", "picks")}
    seats = int(data["seats"])
    out.update(rules_version=1, rng=None, splitmix=data["rng"])
    picks, keeps = data["picks"], data["keeps"]
    choosing: dict[str, Any] = {"asked": [], "choices": {}, "ready": []}
    if data["phase"] == PICK:
        chosen = [s for s in range(seats) if picks[s]]
        choosing = {"asked": list(range(seats)), "choices": {str(s): list(picks[s]) for s in chosen},
                    "ready": chosen}
        picks = [[] for _ in range(seats)]
    elif data["phase"] == KEEP:
        chosen = [s for s in range(seats) if keeps[s]]
        choosing = {"asked": list(range(seats)), "choices": {str(s): list(keeps[s]) for s in chosen},
                    "ready": chosen}
    out["choosing"] = choosing
    out["picks"] = [list(p) for p in picks]
    return out


# ----------------------------------------------------------------------------------- small facts
def event_effect(state: State) -> dict[str, Any]:
    """The effect of this round's face-up event card ({} if none)."""
    return EVENTS[state.event].effect if state.event else {}


def ability_disabled_by_event(state: State, ability: str) -> bool:
    eff = event_effect(state)
    return eff.get("kind") == "ability_disabled" and eff.get("ability") == ability


def strength(state: State, building: int, seat: int) -> int:
    """Beefeaters of a seat in a building; a promoted one counts with the Beefeater on top."""
    return state.plain[building][seat] + PROMOTED_WEIGHT * state.promoted[building][seat]


def controller(state: State, building: int) -> int | None:
    """Scoring 1: a player controls a building with strictly the most Beefeaters in it.

    Events may change this for the round: Garrison Inspection (a minimum), Night Watch (a tie
    goes to the only tied player with a promoted Beefeater there).
    """
    eff = event_effect(state)
    kind = eff.get("kind")
    best, who, tied = 0, -1, False
    for seat in range(state.seats):
        s = state.plain[building][seat] + PROMOTED_WEIGHT * state.promoted[building][seat]
        if s > best:
            best, who, tied = s, seat, False
        elif s == best and s > 0:
            tied = True
    if best == 0:
        return None
    if kind == "min_beefeaters_to_control" and best < int(eff["count"]):
        return None
    if tied:
        if kind == "promoted_wins_ties":
            top = [s for s in range(state.seats) if strength(state, building, s) == best
                   and state.promoted[building][s] > 0]
            if len(top) == 1:
                return top[0]
        return None
    return who


# ------------------------------------------------------------------------------------ setup
def new_state(seats: int, seed: int, version: int = RULES_VERSION) -> State:
    """Setup: scoring card by player count, three events face down, a random start player,
    round 1's turn order clockwise from the start player; then round 1 is prepared."""
    card = scoring_card_for(seats)
    state = State(seats=seats, rules_version=version,
                  rng=Rng.from_seed(seed) if version >= 2 else None,
                  splitmix=SplitMix64.from_seed(seed).encode() if version < 2 else "",
                  start_player=0, scoring_card=card.id, scoring_ravens=list(card.ravens))
    pile = list(EVENTS)
    shuffle(state, pile)
    state.event_pile = pile[:EVENTS_DRAWN]
    state.start_player = draw_below(state, seats)
    state.order = [(state.start_player + i) % seats for i in range(seats)]
    state.decks = [list(CARD_IDS) for _ in range(seats)]
    state.hands = [[] for _ in range(seats)]
    state.picks = [[] for _ in range(seats)]
    state.played = [[] for _ in range(seats)]
    state.boxed = [[] for _ in range(seats)]
    state.supply = [BEEFEATERS] * seats
    state.plain = [[0] * seats for _ in range(MAX_BUILDING + 1)]
    state.promoted = [[0] * seats for _ in range(MAX_BUILDING + 1)]
    state.track = [0] * seats
    state.ravens = [0] * seats
    state.revealed = [0] * seats
    begin_round(state, Log())
    return state


def begin_round(state: State, log: Log) -> None:
    """Prepare: flip a new event card; each player shuffles their deck and draws six."""
    if state.event:
        state.past_events.append(state.event)
    state.event = state.event_pile.pop(0)
    ev = EVENTS[state.event]
    log.say("Round {round}: the event card {name} is flipped — {effect}", round=state.round,
            name=ev.name, effect=ev.text)
    if state.rules_version >= 2:
        state.order = read_track(state.order, state.track, mutiny(state))
    if ev.kind == "fewest_ravens_starts":
        seat = min(state.order, key=lambda s: (state.ravens[s], state.order.index(s)))
        state.order = [seat] + [s for s in state.order if s != seat]
        log.say("Ceremony of the Keys: {0} becomes the start player.", seat)
    for seat in range(state.seats):
        deck = state.decks[seat]
        shuffle(state, deck)
        hand = deck[-HAND_SIZE:]
        del deck[-HAND_SIZE:]
        state.hands[seat] = sorted(hand)
        state.played[seat] = []
        log.say("{0} draws six cards.", seat, privately={seat: "You draw {names}."},
                names=", ".join(CARDS[c].name for c in state.hands[seat]))
    state.step = 1
    begin_step(state)


def begin_step(state: State) -> None:
    """Playing Cards, step 1 begins: every player chooses two cards at once, hidden."""
    state.phase = PICK
    state.choosing = Commitments.ask(range(state.seats))
    state.picks = [[] for _ in range(state.seats)]
    state.revealed = [0] * state.seats
    state.step_reveals = []
    state.turn = 0
    state.stage = ""
    state.placed = 0
    state.pending = ""


# -------------------------------------------------------------------------------- who is awaited
def decision(state: State, seat: int) -> str | None:
    """What ``seat`` decides now: "pick", "place", "BACKSTAB" / "POISON" / "SWITCH", "keep",
    or None when it is not awaited. Legal moves read it; the turn (``turn.TURN``) says the same for
    refusals and prompts."""
    phase = state.phase
    if phase == REVEAL:
        stage = state.stage
        if stage and state.order[state.turn] == seat:
            return STAGE_PLACE if stage == STAGE_PLACE else state.pending
        return None
    if phase == OVER:
        return None
    choosing = state.choosing
    return phase if seat in choosing.asked and seat not in choosing.ready else None


# --------------------------------------------------------------------------- step 1: choose two
def can_pick(state: State, seat: int, first: int, second: int) -> bool:
    """Step 1: two different cards from your own hand, in order (first: where; second: what)."""
    hand = state.hands[seat]
    return first != second and first in hand and second in hand


def pick_moves(state: State, seat: int) -> list[Move]:
    """Every ordered pair of two different cards of the hand."""
    return list(map(dict.copy, map(_PICK.__getitem__, permutations(state.hands[seat], 2))))


_PICK: dict[tuple[int, int], Move] = {
    (a, b): MOVES.make("pick", first=a, second=b) for a in CARD_IDS for b in CARD_IDS if a != b}
"""Every pick move, made once (``legal_moves`` hands out copies: a step asks for the same moves
again and again, and a copy costs less than making one)."""


# ---------------------------------------------------------------------------- step 2A: placing
_PLACE: dict[int, Move] = {b: MOVES.make("place", building=b) for b in BUILDINGS}

def placement_buildings(state: State, seat: int, card: int) -> list[int]:
    """Step 2A: the three buildings of the first card (orange, green, blue numbers), if you still
    have a Beefeater in your supply, less any quadrant sealed by this round's event."""
    if state.supply[seat] <= 0:
        return []
    eff = event_effect(state)
    sealed = eff.get("quadrant") if eff.get("kind") == "sealed_quadrant" else None
    return [b for b in CARDS[card].buildings if QUADRANT_OF[b] != sealed]


# ---------------------------------------------------------------------------- step 2B: abilities
def ability_of_turn(state: State, seat: int) -> str:
    """The ability activated: the second card's, or with FOCUS the first card's ("use the power
    from the card you chose for your location"). FOCUS on FOCUS has nothing left to use."""
    first, second = state.picks[seat]
    ability = CARDS[second].ability
    if ability == "FOCUS":
        return CARDS[first].ability
    return ability


def backstab_buildings(placed: int) -> list[int]:
    """BACKSTAB reaches the buildings numbered one higher or one lower than where you placed
    (whatever their colour or quadrant)."""
    return [b for b in (placed - 1, placed + 1) if b in AREA_OF]


def poison_buildings(placed: int) -> list[int]:
    """POISON reaches the buildings adjacent (connected by a line) to where you placed."""
    return list(ADJACENT[placed])


def removal_targets(state: State, buildings: list[int]) -> list[tuple[int, int, bool]]:
    """Every Beefeater that may be removed from these buildings: (building, seat, promoted)."""
    out: list[tuple[int, int, bool]] = []
    for b in buildings:
        row_p, row_q = state.plain[b], state.promoted[b]
        for s in range(state.seats):
            if row_p[s]:
                out.append((b, s, False))
            if row_q[s]:
                out.append((b, s, True))
    return out


def movable_beefeaters(state: State, placed: int) -> list[tuple[int, int]]:
    """SWITCH: Beefeaters in the quadrant where you placed that may move; promoted ones cannot be
    moved (PROMOTE)."""
    out: list[tuple[int, int]] = []
    for b in BUILDINGS_IN_QUADRANT[QUADRANT_OF[placed]]:
        row = state.plain[b]
        for s in range(state.seats):
            if row[s]:
                out.append((b, s))
    return out


def can_switch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """A switch that changes something: two Beefeaters of different players in different
    buildings (swapping same-coloured or same-building Beefeaters would change nothing)."""
    return a[0] != b[0] and a[1] != b[1]


def switch_pairs(state: State, placed: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    movable = movable_beefeaters(state, placed)
    return [(x, y) for i, x in enumerate(movable) for y in movable[i + 1:] if can_switch(x, y)]


def ability_moves(state: State) -> list[Move]:
    """The choices of the pending ability, plus "pass" (an ability may be declined)."""
    ability, placed = state.pending, state.placed
    make = MOVES.make
    moves: list[Move] = []
    if ability in ("BACKSTAB", "POISON"):
        moves = [make("remove", building=b, seat=s, promoted=p)
                 for b, s, p in removal_targets(state, reach_of(ability, placed))]
    elif ability == "SWITCH":
        moves = [make("switch", a=[x[0], x[1]], b=[y[0], y[1]]) for x, y in switch_pairs(state, placed)]
    moves.append(make("pass"))
    return moves


def reach_of(ability: str, placed: int) -> list[int]:
    """The buildings BACKSTAB or POISON reaches from where you placed."""
    return backstab_buildings(placed) if ability == "BACKSTAB" else poison_buildings(placed)


def has_ability_choice(state: State, ability: str, placed: int) -> bool:
    if ability == "BACKSTAB":
        return bool(removal_targets(state, backstab_buildings(placed)))
    if ability == "POISON":
        return bool(removal_targets(state, poison_buildings(placed)))
    if ability == "SWITCH":
        movable = movable_beefeaters(state, placed)
        return any(can_switch(x, y) for i, x in enumerate(movable) for y in movable[i + 1:])
    return False


def can_promote(state: State, seat: int) -> bool:
    """PROMOTE needs the Beefeater just placed still plain in its building and a Beefeater in
    your supply to put on top of it."""
    return bool(state.placed) and state.plain[state.placed][seat] > 0 and state.supply[seat] > 0


# ------------------------------------------------------------------------- step 3: turn order
def next_turn_order(order: list[int], first: dict[int, int], second: dict[int, int],
                    lowest_first: bool = False) -> tuple[list[int], dict[int, int]]:
    """Step 3: each player's Beefeater goes on the track space of the orange number of their first
    card; players who played the same first card use their second card's orange number instead;
    players still sharing a space reverse their previous relative order. The track is read from
    highest (start player) to lowest (or lowest first under the Mutiny event).

    >>> next_turn_order([0, 1, 2, 3], {0: 4, 1: 8, 2: 6, 3: 8}, {0: 1, 1: 5, 2: 1, 3: 5})[0]
    [2, 3, 1, 0]
    """
    counts: dict[int, int] = {}
    for s in order:
        counts[first[s]] = counts.get(first[s], 0) + 1
    space = {s: CARDS[second[s] if counts[first[s]] > 1 else first[s]].orange for s in order}
    rank = {s: i for i, s in enumerate(order)}
    sign = 1 if lowest_first else -1
    new = sorted(order, key=lambda s: (sign * space[s], -rank[s]))
    return new, space


def mutiny(state: State) -> bool:
    """Mutiny: "This round the Turn Order Track is read from lowest to highest"."""
    return event_effect(state).get("kind") == "turn_order_reversed"


def read_track(order: list[int], track: list[int], lowest_first: bool) -> list[int]:
    """The turn order read from the Turn Order Track: highest space first (lowest first under
    Mutiny); players sharing a space keep the order step 3 gave them. Before the first step
    (an empty track) the order stays as it is.

    >>> read_track([2, 1, 0], [7, 7, 30], lowest_first=True)  # seats 1 and 0 share space 7
    [1, 0, 2]
    >>> read_track([1, 0, 2], [7, 7, 30], lowest_first=False)
    [2, 1, 0]
    """
    sign = 1 if lowest_first else -1
    return sorted(order, key=lambda s: sign * track[s])


# ----------------------------------------------------------------------------------- scoring
def area_ranking(state: State, area: str,
                 owners: dict[int, int | None] | None = None) -> list[dict[str, Any]]:
    """Scoring 1–3: count the buildings each player controls in the area; ties between players go
    to the one controlling the highest-numbered building there (lowest under Topsy-Turvy).
    Players controlling no building are not ranked. (``owners``: each building's controller,
    if already known.)"""
    if owners is None:
        owners = {b: controller(state, b) for b in BUILDINGS_IN_AREA[area]}
    controlled: dict[int, list[int]] = {}
    for b in BUILDINGS_IN_AREA[area]:
        who = owners[b]
        if who is not None:
            controlled.setdefault(who, []).append(b)
    lowest = event_effect(state).get("kind") == "area_tiebreak_lowest"
    if lowest:
        order = sorted(controlled, key=lambda s: (-len(controlled[s]), min(controlled[s])))
    else:
        order = sorted(controlled, key=lambda s: (-len(controlled[s]), -max(controlled[s])))
    return [{"seat": s, "buildings": sorted(controlled[s])} for s in order]


def ravens_for_place(state: State, area: str, place: int) -> int:
    """The scoring card's ravens for a place (1-based), changed by this round's event."""
    eff = event_effect(state)
    kind = eff.get("kind")
    if kind == "only_first_place" and place > 1:
        return 0
    base = state.scoring_ravens[place - 1] if place <= len(state.scoring_ravens) else 0
    if kind == "score_bonus" and eff["place"] == place and eff["area"] in ("all", area):
        base += int(eff["ravens"])
    return base


def score_round(state: State, log: Log) -> None:
    """Scoring: the areas of this round in order; ravens first place first, then second, then
    third, while the supply lasts; seven ravens wins at once and no more scoring takes place."""
    table: dict[str, Any] = {"round": state.round, "event": state.event, "areas": [],
                             "winner": None}
    for area in AREAS_SCORED[state.round]:
        owners = {b: controller(state, b) for b in BUILDINGS_IN_AREA[area]}
        ranking = area_ranking(state, area, owners)
        entry: dict[str, Any] = {
            "area": area,
            "control": [{"building": b, "seat": owners[b]} for b in BUILDINGS_IN_AREA[area]],
            "ranking": [],
        }
        table["areas"].append(entry)
        log.say("Scoring the {area} area.", area=area)
        if not ranking:
            log.say("Nobody controls a building in the {area} area.", area=area)
        for place, row in enumerate(ranking, start=1):
            want = ravens_for_place(state, area, place)
            got = min(want, state.raven_supply)
            seat = row["seat"]
            state.raven_supply -= got
            state.ravens[seat] += got
            entry["ranking"].append({"seat": seat, "place": place, "buildings": row["buildings"],
                                     "ravens": got})
            if want:
                log.say("{0} is {place} in the {area} area with {buildings} and takes {ravens}{short}; "
                        "now {total}.", seat, place=_ordinal(place), area=area,
                        buildings=_count(len(row["buildings"]), "building"), ravens=_count(got, "raven"),
                        total=state.ravens[seat], short="" if got == want else f" (the supply had only {got})")
            if state.ravens[seat] >= RAVENS_TO_WIN:
                state.winner = seat
                state.end_reason = "seven_ravens"
                table["winner"] = seat
                log.say("{0} has {n} ravens and wins the Tower of London!", seat, n=state.ravens[seat])
                break
        if state.winner >= 0:
            break
    table["ravens"] = list(state.ravens)
    state.scoring_history.append(table)
    if state.winner >= 0:
        state.phase = OVER
    elif state.round >= ROUNDS:
        state.phase = OVER
        state.end_reason = "everyone_loses"
        log.say("Round 3 is scored and nobody has seven ravens: everyone loses!")
    else:
        state.round += 1
        begin_round(state, log)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"number {n}")


def _count(n: int, thing: str) -> str:
    """ "1 raven", "3 ravens" — words, not "raven(s)". """
    return f"{n} {thing}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- the reveal flow
def advance_reveals(state: State, log: Log) -> None:
    """Runs the reveal until a seat must decide (placing or an ability), or the step ends."""
    while True:
        if state.turn >= state.seats:
            end_step(state, log)
            return
        seat = state.order[state.turn]
        first, second = state.picks[seat]
        if state.revealed[seat] == 0:
            state.revealed[seat] = 1
            state.played[seat].append(first)
            state.step_reveals.append({"seat": seat, "first": first, "second": None, "placed": None,
                                       "ability": None, "outcome": ""})
            log.add(f"{ref(seat)} reveals {CARDS[first].label()} as first card.")
            options = placement_buildings(state, seat, first)
            if options:
                state.stage = STAGE_PLACE
                return
            why = ("has no Beefeater left in their supply" if state.supply[seat] <= 0
                   else "cannot place: every building of the card is in the sealed quadrant")
            log.add(f"{ref(seat)} {why}.")
            state.placed = 0
        # second card
        state.revealed[seat] = 2
        state.played[seat].append(second)
        rec = state.step_reveals[-1]
        rec["second"] = second
        ability = ability_of_turn(state, seat)
        rec["ability"] = ability
        via = f" (FOCUS uses the first card's {ability})" if CARDS[second].ability == "FOCUS" else ""
        log.add(f"{ref(seat)} reveals {CARDS[second].name} as second card{via}.")
        outcome = ""
        if CARDS[second].ability == "FOCUS" and ability == "FOCUS":
            outcome = "FOCUS on FOCUS: no power to use"
        elif ability_disabled_by_event(state, ability):
            outcome = f"{ability} has no effect this round ({EVENTS[state.event].name})"
        elif not state.placed:
            outcome = f"{ability} has no effect: no Beefeater was placed"
        elif ability == "PROMOTE":
            if can_promote(state, seat):
                apply_promote(state, seat)
                outcome = f"promotes their Beefeater in building {state.placed}"
            else:
                outcome = "PROMOTE has no effect: no Beefeater left in the supply to put on top"
        elif has_ability_choice(state, ability, state.placed):
            state.stage = STAGE_ABILITY
            state.pending = ability
            return
        else:
            outcome = f"{ability} has no effect: nothing it could reach"
        rec["outcome"] = outcome
        log.add(f"{ref(seat)}: {outcome}.")
        finish_turn(state)


def finish_turn(state: State) -> None:
    state.turn += 1
    state.stage = ""
    state.pending = ""
    state.placed = 0


def apply_place(state: State, seat: int, building: int) -> None:
    state.supply[seat] -= 1
    state.plain[building][seat] += 1
    state.placed = building
    state.step_reveals[-1]["placed"] = building


def apply_promote(state: State, seat: int) -> None:
    b = state.placed
    state.plain[b][seat] -= 1
    state.promoted[b][seat] += 1
    state.supply[seat] -= 1


def apply_remove(state: State, building: int, victim: int, promoted: bool) -> None:
    """A removed Beefeater goes back to its owner's supply (a promoted one with its top cube)."""
    if promoted:
        state.promoted[building][victim] -= 1
        state.supply[victim] += 2
    else:
        state.plain[building][victim] -= 1
        state.supply[victim] += 1


def apply_switch(state: State, a: tuple[int, int], b: tuple[int, int]) -> None:
    (ba, sa), (bb, sb) = a, b
    state.plain[ba][sa] -= 1
    state.plain[bb][sa] += 1
    state.plain[bb][sb] -= 1
    state.plain[ba][sb] += 1


def end_step(state: State, log: Log) -> None:
    """Step 3, then the next step, or Reduce Player Decks after the third step."""
    for s in range(state.seats):
        if state.track[s]:
            state.supply[s] += 1
            state.track[s] = 0
    first = {s: state.picks[s][0] for s in range(state.seats)}
    second = {s: state.picks[s][1] for s in range(state.seats)}
    state.order, space = next_turn_order(state.order, first, second, mutiny(state))
    for s in range(state.seats):
        state.supply[s] -= 1
        state.track[s] = space[s]
    log.say("Turn order: " + ", ".join(f"{{{i}}} ({space[s]})" for i, s in enumerate(state.order))
            + ".", *state.order)
    state.stage = ""
    if state.step < STEPS_PER_ROUND:
        state.step += 1
        begin_step(state)
        return
    if state.round < ROUNDS:
        state.phase = KEEP
        state.choosing = Commitments.ask(range(state.seats))
        log.say("Reduce Player Decks: everyone keeps three of the six cards played.")
        return
    score_round(state, log)


# ------------------------------------------------------------------------- reduce player decks
def keep_moves(state: State, seat: int) -> list[Move]:
    """Every three of the six cards played, ascending."""
    return [{**_KEEP[t], "cards": list(t)} for t in combinations(sorted(state.played[seat]), 3)]


_KEEP: dict[tuple[int, ...], Move] = {
    (a, b, c): MOVES.make("keep", cards=[a, b, c])
    for a in CARD_IDS for b in CARD_IDS for c in CARD_IDS if a < b < c}


def can_keep(state: State, seat: int, cards: list[int]) -> bool:
    """Reduce Player Decks: three different cards among the six you played this round."""
    return len(cards) == CARDS_KEPT and len(set(cards)) == CARDS_KEPT and all(
        c in state.played[seat] for c in cards)


def apply_keeps(state: State, keeps: dict[int, list[int]], log: Log) -> None:
    """Everyone has chosen: the kept cards go back into the decks, the others to the box."""
    for s in range(state.seats):
        kept = keeps[s]
        gone = sorted(c for c in state.played[s] if c not in kept)
        state.decks[s].extend(kept)
        state.boxed[s].extend(gone)
        state.played[s] = []
        log.say("{0} keeps {kept}; {gone} go to the box.", s,
                kept=", ".join(CARDS[c].name for c in kept), gone=", ".join(CARDS[c].name for c in gone))
    score_round(state, log)


# ------------------------------------------------------------------------------ legal moves
def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now, in canonical form: the one source of legality (the turn's refusal
    refuses exactly the moves not listed here)."""
    now = decision(state, seat)
    if now is None:
        return []
    if now == PICK:
        return pick_moves(state, seat)
    if now == KEEP:
        return keep_moves(state, seat)
    if now == STAGE_PLACE:
        return [_PLACE[b].copy() for b in placement_buildings(state, seat, state.picks[seat][0])]
    return ability_moves(state)


def check(state: State, seat: int, move: Move) -> IllegalMove | None:
    """What a well-shaped move (``MOVES.parse``) breaks by itself, once the turn (``turn.TURN``)
    has found ``seat`` awaited and the move one its step takes: the most specific rule; None when
    it is legal — exactly when ``legal_moves`` lists it."""
    kind = move["type"]
    if kind == "pick":
        return _pick_refusal(state, seat, move["first"], move["second"])
    if kind == "place":
        return _place_refusal(state, seat, move["building"])
    if kind == "remove":
        return _remove_refusal(state, move["building"], move["seat"], move["promoted"])
    if kind == "switch":
        return _switch_refusal(state, (move["a"][0], move["a"][1]), (move["b"][0], move["b"][1]))
    if kind == "keep":
        return _keep_refusal(state, seat, move["cards"])
    return None  # pass: an ability may always be declined


def _pick_refusal(state: State, seat: int, first: int, second: int) -> IllegalMove | None:
    if first == second:
        return IllegalMove(f"{RULE_PICK}: you must choose two different cards from your hand.",
                           rule=RULE_PICK)
    if not can_pick(state, seat, first, second):
        missing = first if first not in state.hands[seat] else second
        return IllegalMove(f"{RULE_PICK}: card {missing} is not in your hand; choose two cards from "
                           "your hand.", rule=RULE_PICK)
    return None


def _place_refusal(state: State, seat: int, b: int) -> IllegalMove | None:
    card = state.picks[seat][0]
    if b in placement_buildings(state, seat, card):
        return None
    why = ("it is in the quadrant sealed by this round's event" if b in CARDS[card].buildings else
           f"{CARDS[card].name} shows buildings {', '.join(map(str, CARDS[card].buildings))}")
    return IllegalMove(f"{RULE_PLACE}: you cannot place in building {b}: {why}.", rule=RULE_PLACE)


def _remove_refusal(state: State, b: int, victim: int, promoted: bool) -> IllegalMove | None:
    ability = state.pending
    if b not in reach_of(ability, state.placed):
        where = "+/- 1 away from" if ability == "BACKSTAB" else "adjacent to"
        return IllegalMove(f"{RULE_ABILITY}: {ability} removes a Beefeater from a building {where} "
                           f"where you placed (building {state.placed}); building {b} is not.",
                           rule=RULE_ABILITY)
    if (b, victim, promoted) not in removal_targets(state, [b]):
        what = "promoted Beefeater" if promoted else "plain Beefeater"
        return IllegalMove(f"{RULE_ABILITY}: there is no {what} of seat {victim} in building {b} to "
                           "remove.", rule=RULE_ABILITY)
    return None


def _switch_refusal(state: State, pa: tuple[int, int], pb: tuple[int, int]) -> IllegalMove | None:
    movable = movable_beefeaters(state, state.placed)
    quadrant = QUADRANT_OF[state.placed]
    for b, s in (pa, pb):
        if (b, s) in movable:
            continue
        if b in AREA_OF and QUADRANT_OF[b] != quadrant:
            why = f"building {b} is not in quadrant {quadrant}, where you placed"
        elif b in AREA_OF and 0 <= s < state.seats and state.promoted[b][s]:
            why = f"the promoted Beefeater of seat {s} in building {b} cannot be moved"
        else:
            why = f"there is no movable Beefeater of seat {s} in building {b}"
        return IllegalMove(f"{RULE_ABILITY}: SWITCH: {why}.", rule=RULE_ABILITY)
    if not can_switch(pa, pb):
        return IllegalMove(f"{RULE_ABILITY}: SWITCH exchanges Beefeaters of two different players in "
                           "two different buildings.", rule=RULE_ABILITY)
    if pa[0] > pb[0]:
        return IllegalMove(f"{RULE_ABILITY}: SWITCH: name the Beefeater in the lower-numbered building "
                           f"first (\"a\": [{pb[0]}, {pb[1]}], \"b\": [{pa[0]}, {pa[1]}]).",
                           rule=RULE_ABILITY)
    return None


def _keep_refusal(state: State, seat: int, cards: list[int]) -> IllegalMove | None:
    if not can_keep(state, seat, cards):
        return IllegalMove(f"{RULE_REDUCE}: keep exactly three different cards among the six you "
                           "played this round.", rule=RULE_REDUCE)
    if cards != sorted(cards):
        return IllegalMove(f"{RULE_REDUCE}: list the three cards you keep in ascending order "
                           f"({sorted(cards)}).", rule=RULE_REDUCE)
    return None


# ------------------------------------------------------------------------------ playing a move
def apply_move(state: State, seat: int, move: Move) -> list[Event]:
    """The effect of a legal move (``refusal`` said None), with the log lines it makes."""
    kind = move["type"]
    log = Log()
    if kind == "pick":
        first, second = move["first"], move["second"]
        state.choosing.choose(seat, [first, second], ready=True)
        state.hands[seat].remove(first)
        state.hands[seat].remove(second)
        log.add(f"{ref(seat)} has chosen two cards.", {
            seat: f"You chose {CARDS[first].name} first and {CARDS[second].name} second."})
        if state.choosing.everyone_ready():
            chosen = state.choosing.reveal()
            state.picks = [list(chosen[s]) for s in range(state.seats)]
            log.say("Everyone has chosen; the cards are revealed in turn order.")
            state.phase = REVEAL
            advance_reveals(state, log)
    elif kind == "place":
        b = move["building"]
        apply_place(state, seat, b)
        log.add(f"{ref(seat)} places a Beefeater in building {b} ({AREA_OF[b]}, quadrant {QUADRANT_OF[b]}).")
        advance_reveals(state, log)
    elif kind in ("remove", "switch", "pass"):
        ability = state.pending
        rec = state.step_reveals[-1]
        if kind == "remove":
            b, victim, promoted = move["building"], move["seat"], move["promoted"]
            apply_remove(state, b, victim, promoted)
            rec["outcome"] = say("removes a {what} of {0} from building {b}", victim, b=b,
                                 what="promoted Beefeater" if promoted else "Beefeater")
        elif kind == "switch":
            (ba, sa), (bb, sb) = move["a"], move["b"]
            apply_switch(state, (ba, sa), (bb, sb))
            rec["outcome"] = say("switches {0}'s Beefeater in building {ba} with {1}'s in building {bb}",
                                 sa, sb, ba=ba, bb=bb)
        else:
            rec["outcome"] = f"declines {ability}"
        log.add(f"{ref(seat)} ({ability}) {rec['outcome']}.")
        finish_turn(state)
        advance_reveals(state, log)
    elif kind == "keep":
        cards = list(move["cards"])
        state.choosing.choose(seat, cards, ready=True)
        log.say("{0} has chosen the cards to keep.", seat, privately={seat: "You keep {names}."},
                names=", ".join(CARDS[c].name for c in cards))
        if state.choosing.everyone_ready():
            apply_keeps(state, state.choosing.reveal(), log)
    return log.events


def result(state: State) -> Result | None:
    """Winning The Game: the seat with seven ravens, or nobody when round 3 ends without one."""
    if state.phase != OVER:
        return None
    return Result(winners=(state.winner,) if state.winner >= 0 else (),
                  scores=tuple(float(r) for r in state.ravens),
                  details={"reason": state.end_reason, "round": state.round,
                           "scoring": copy.deepcopy(state.scoring_history)})


# ---------------------------------------------------------------------------------- invariants
def cards_owned(state: State, seat: int) -> int:
    """Deck + hand + chosen + played this round: 13, 10 and 7 in rounds 1, 2 and 3."""
    if state.phase == PICK:
        chosen = len(state.choosing.choices.get(seat, ()))
    elif state.phase == REVEAL:
        chosen = 2 - state.revealed[seat]
    else:
        chosen = 0
    return len(state.decks[seat]) + len(state.hands[seat]) + chosen + len(state.played[seat])


def beefeaters_accounted(state: State, seat: int) -> int:
    """Supply + board (promoted stacks are two cubes) + track: always 20."""
    plain = sum([row[seat] for row in state.plain])  # row 0 (no building) stays empty
    promoted = sum([row[seat] for row in state.promoted])
    return state.supply[seat] + plain + 2 * promoted + (1 if state.track[seat] else 0)
