"""The rules of Tower of London: the state, one function per rule, and the flow of a round.

Vocabulary (as the rulebook names things): a *seat* is a player (0..n-1, clockwise); a *card* is
one of the 13 player cards (ids 1..13, the same 13 in every colour); a *building* is a numbered
building of the board; a *Beefeater* is a cube of a seat's colour, plain or *promoted* (a second
cube on top). The *turn order* is the list of seats acting in a step, start player first.

A round: Prepare (flip an event, shuffle, draw six) -> Playing Cards, three steps of
(pick two cards at once, hidden) -> (reveal in turn order: first card places, second card's
ability) -> (Turn Order Track) -> Reduce Player Decks (keep three of the six played; not in the
last round, where it would change nothing) -> Scoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

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

_MASK = (1 << 64) - 1


# ----------------------------------------------------------------------------------- randomness
def rng_next(state: State) -> int:
    """SplitMix64: the only source of randomness, its 64-bit state kept in ``state.rng``."""
    state.rng = (state.rng + 0x9E3779B97F4A7C15) & _MASK
    z = state.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def rng_below(state: State, n: int) -> int:
    """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
    limit = ((1 << 64) // n) * n
    while True:
        x = rng_next(state)
        if x < limit:
            return x % n


def shuffle(state: State, items: list[int]) -> None:
    """Fisher–Yates with the state's generator."""
    for i in range(len(items) - 1, 0, -1):
        j = rng_below(state, i + 1)
        items[i], items[j] = items[j], items[i]


# ----------------------------------------------------------------------------------------- state
@dataclass(eq=True)
class State:
    """The whole game. Every field is JSON-safe (ints, strings, lists, dicts with str keys)."""

    seats: int
    rng: int
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
    picks: list[list[int]] = field(default_factory=list)  # [first, second] or [] if not chosen
    played: list[list[int]] = field(default_factory=list)  # the cards played this round
    keeps: list[list[int]] = field(default_factory=list)  # chosen keeps ([]: not yet)
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
        """A deep copy (faster than ``copy.deepcopy``), for bots and what-if checks."""
        return decode_state(encode_state(self))


def encode_state(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(State):
        value = getattr(state, f.name)
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else (dict(v) if isinstance(v, dict) else v)
                     for v in value]
        out[f.name] = value
    out["rng"] = format(state.rng, "x")  # as text: JSON readers may round 64-bit integers
    return out


def decode_state(data: Any) -> State:
    names = {f.name for f in fields(State)}
    kwargs: dict[str, Any] = {}
    for name in names:
        value = data[name]
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else (dict(v) if isinstance(v, dict) else v)
                     for v in value]
        kwargs[name] = value
    kwargs["rng"] = int(data["rng"], 16)
    return State(**kwargs)


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
def new_state(seats: int, seed: int) -> State:
    """Setup: scoring card by player count, three events face down, a random start player,
    round 1's turn order clockwise from the start player; then round 1 is prepared."""
    card = scoring_card_for(seats)
    state = State(seats=seats, rng=seed & _MASK, start_player=0, scoring_card=card.id,
                  scoring_ravens=list(card.ravens))
    rng_next(state)  # stir the seed once
    pile = list(EVENTS)
    shuffle(state, pile)
    state.event_pile = pile[:EVENTS_DRAWN]
    state.start_player = rng_below(state, seats)
    state.order = [(state.start_player + i) % seats for i in range(seats)]
    state.decks = [list(CARD_IDS) for _ in range(seats)]
    state.hands = [[] for _ in range(seats)]
    state.picks = [[] for _ in range(seats)]
    state.played = [[] for _ in range(seats)]
    state.keeps = [[] for _ in range(seats)]
    state.boxed = [[] for _ in range(seats)]
    state.supply = [BEEFEATERS] * seats
    state.plain = [[0] * seats for _ in range(MAX_BUILDING + 1)]
    state.promoted = [[0] * seats for _ in range(MAX_BUILDING + 1)]
    state.track = [0] * seats
    state.ravens = [0] * seats
    state.revealed = [0] * seats
    begin_round(state, [])
    return state


def begin_round(state: State, log: list[Any]) -> None:
    """Prepare: flip a new event card; each player shuffles their deck and draws six."""
    if state.event:
        state.past_events.append(state.event)
    state.event = state.event_pile.pop(0)
    ev = EVENTS[state.event]
    log.append(("public", f"Round {state.round}: the event card {ev.name} is flipped — {ev.text}"))
    if ev.kind == "fewest_ravens_starts":
        seat = min(state.order, key=lambda s: (state.ravens[s], state.order.index(s)))
        state.order = [seat] + [s for s in state.order if s != seat]
        log.append(("public", f"Ceremony of the Keys: {{seat:{seat}}} becomes the start player."))
    for seat in range(state.seats):
        deck = state.decks[seat]
        shuffle(state, deck)
        hand = deck[-HAND_SIZE:]
        del deck[-HAND_SIZE:]
        state.hands[seat] = sorted(hand)
        state.played[seat] = []
        state.keeps[seat] = []
        names = ", ".join(CARDS[c].name for c in state.hands[seat])
        log.append(("private", seat, f"{{seat:{seat}}} draws six cards.", f"You draw {names}."))
    state.step = 1
    begin_step(state)


def begin_step(state: State) -> None:
    state.phase = PICK
    state.picks = [[] for _ in range(state.seats)]
    state.revealed = [0] * state.seats
    state.step_reveals = []
    state.turn = 0
    state.stage = ""
    state.placed = 0
    state.pending = ""


# -------------------------------------------------------------------------------- who is awaited
def awaited(state: State) -> frozenset[int]:
    if state.phase == PICK:
        return frozenset(s for s in range(state.seats) if not state.picks[s])
    if state.phase == REVEAL and state.stage:
        return frozenset((state.order[state.turn],))
    if state.phase == KEEP:
        return frozenset(s for s in range(state.seats) if not state.keeps[s])
    return frozenset()


# --------------------------------------------------------------------------- step 1: choose two
def can_pick(state: State, seat: int, first: int, second: int) -> bool:
    """Step 1: two different cards from your own hand, in order (first: where; second: what)."""
    hand = state.hands[seat]
    return first != second and first in hand and second in hand


def pick_moves(state: State, seat: int) -> list[dict[str, Any]]:
    hand = state.hands[seat]
    return [{"type": "pick", "first": a, "second": b} for a in hand for b in hand if a != b]


# ---------------------------------------------------------------------------- step 2A: placing
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


def ability_moves(state: State) -> list[dict[str, Any]]:
    """The choices of the pending ability, plus "pass" (an ability may be declined)."""
    ability, placed = state.pending, state.placed
    moves: list[dict[str, Any]] = []
    if ability in ("BACKSTAB", "POISON"):
        where = backstab_buildings(placed) if ability == "BACKSTAB" else poison_buildings(placed)
        moves = [{"type": "remove", "building": b, "seat": s, "promoted": p}
                 for b, s, p in removal_targets(state, where)]
    elif ability == "SWITCH":
        moves = [{"type": "switch", "a": [x[0], x[1]], "b": [y[0], y[1]]}
                 for x, y in switch_pairs(state, placed)]
    moves.append({"type": "pass"})
    return moves


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


# ----------------------------------------------------------------------------------- scoring
def area_ranking(state: State, area: str) -> list[dict[str, Any]]:
    """Scoring 1–3: count the buildings each player controls in the area; ties between players go
    to the one controlling the highest-numbered building there (lowest under Topsy-Turvy).
    Players controlling no building are not ranked."""
    controlled: dict[int, list[int]] = {}
    for b in BUILDINGS_IN_AREA[area]:
        who = controller(state, b)
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


def score_round(state: State, log: list[Any]) -> None:
    """Scoring: the areas of this round in order; ravens first place first, then second, then
    third, while the supply lasts; seven ravens wins at once and no more scoring takes place."""
    table: dict[str, Any] = {"round": state.round, "event": state.event, "areas": [],
                             "winner": None}
    for area in AREAS_SCORED[state.round]:
        ranking = area_ranking(state, area)
        entry: dict[str, Any] = {
            "area": area,
            "control": [{"building": b, "seat": controller(state, b)} for b in BUILDINGS_IN_AREA[area]],
            "ranking": [],
        }
        table["areas"].append(entry)
        log.append(("public", f"Scoring the {area} area."))
        if not ranking:
            log.append(("public", f"Nobody controls a building in the {area} area."))
        for place, row in enumerate(ranking, start=1):
            want = ravens_for_place(state, area, place)
            got = min(want, state.raven_supply)
            seat = row["seat"]
            state.raven_supply -= got
            state.ravens[seat] += got
            entry["ranking"].append({"seat": seat, "place": place, "buildings": row["buildings"],
                                     "ravens": got})
            if want:
                short = "" if got == want else f" (the supply had only {got})"
                log.append(("public", f"{{seat:{seat}}} is {_ordinal(place)} in the {area} area "
                                      f"with {len(row['buildings'])} building(s) and takes {got} "
                                      f"raven(s){short}; now {state.ravens[seat]}."))
            if state.ravens[seat] >= RAVENS_TO_WIN:
                state.winner = seat
                state.end_reason = "seven_ravens"
                table["winner"] = seat
                log.append(("public", f"{{seat:{seat}}} has {state.ravens[seat]} ravens and wins "
                                      "the Tower of London!"))
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
        log.append(("public", "Round 3 is scored and nobody has seven ravens: everyone loses!"))
    else:
        state.round += 1
        begin_round(state, log)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"#{n}")


# ---------------------------------------------------------------------------- the reveal flow
def advance_reveals(state: State, log: list[Any]) -> None:
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
            log.append(("public", f"{{seat:{seat}}} reveals {CARDS[first].label()} as first card."))
            options = placement_buildings(state, seat, first)
            if options:
                state.stage = STAGE_PLACE
                return
            why = ("has no Beefeater left in their supply" if state.supply[seat] <= 0
                   else "cannot place: every building of the card is in the sealed quadrant")
            log.append(("public", f"{{seat:{seat}}} {why}."))
            state.placed = 0
        # second card
        state.revealed[seat] = 2
        state.played[seat].append(second)
        rec = state.step_reveals[-1]
        rec["second"] = second
        ability = ability_of_turn(state, seat)
        rec["ability"] = ability
        via = f" (FOCUS uses the first card's {ability})" if CARDS[second].ability == "FOCUS" else ""
        log.append(("public", f"{{seat:{seat}}} reveals {CARDS[second].name} as second card{via}."))
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
        log.append(("public", f"{{seat:{seat}}}: {outcome}."))
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


def end_step(state: State, log: list[Any]) -> None:
    """Step 3, then the next step, or Reduce Player Decks after the third step."""
    for s in range(state.seats):
        if state.track[s]:
            state.supply[s] += 1
            state.track[s] = 0
    first = {s: state.picks[s][0] for s in range(state.seats)}
    second = {s: state.picks[s][1] for s in range(state.seats)}
    lowest = event_effect(state).get("kind") == "turn_order_reversed"
    state.order, space = next_turn_order(state.order, first, second, lowest)
    for s in range(state.seats):
        state.supply[s] -= 1
        state.track[s] = space[s]
    log.append(("public", "Turn order: " + ", ".join(
        f"{{seat:{s}}} ({space[s]})" for s in state.order) + "."))
    state.stage = ""
    if state.step < STEPS_PER_ROUND:
        state.step += 1
        begin_step(state)
        return
    if state.round < ROUNDS:
        state.phase = KEEP
        state.keeps = [[] for _ in range(state.seats)]
        log.append(("public", "Reduce Player Decks: everyone keeps three of the six cards played."))
        return
    score_round(state, log)


# ------------------------------------------------------------------------- reduce player decks
def keep_moves(state: State, seat: int) -> list[dict[str, Any]]:
    played = sorted(state.played[seat])
    n = len(played)
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                out.append({"type": "keep", "cards": [played[i], played[j], played[k]]})
    return out


def can_keep(state: State, seat: int, cards: list[int]) -> bool:
    """Reduce Player Decks: three different cards among the six you played this round."""
    return len(cards) == CARDS_KEPT and len(set(cards)) == CARDS_KEPT and all(
        c in state.played[seat] for c in cards)


def apply_keeps(state: State, log: list[Any]) -> None:
    for s in range(state.seats):
        kept = state.keeps[s]
        gone = sorted(c for c in state.played[s] if c not in kept)
        state.decks[s].extend(kept)
        state.boxed[s].extend(gone)
        state.played[s] = []
        log.append(("public", f"{{seat:{s}}} keeps {', '.join(CARDS[c].name for c in kept)}; "
                              f"{', '.join(CARDS[c].name for c in gone)} go to the box."))
    score_round(state, log)


def cards_owned(state: State, seat: int) -> int:
    """Deck + hand + chosen + played this round: 13, 10 and 7 in rounds 1, 2 and 3."""
    chosen = ([c for c in state.picks[seat] if c not in state.played[seat]]
              if state.phase in (PICK, REVEAL) else [])
    return len(state.decks[seat]) + len(state.hands[seat]) + len(chosen) + len(state.played[seat])


def beefeaters_accounted(state: State, seat: int) -> int:
    """Supply + board (promoted stacks are two cubes) + track: always 20."""
    on_board = sum(state.plain[b][seat] + 2 * state.promoted[b][seat] for b in BUILDINGS)
    return state.supply[seat] + on_board + (1 if state.track[seat] else 0)
