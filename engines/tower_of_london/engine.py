"""The Tower of London engine: the protocol of ``engines.base`` over ``rules``.

Moves (every one listed by ``legal_moves`` exactly as ``play`` accepts it):

* ``{"type": "pick", "first": c1, "second": c2}`` — Playing Cards step 1, simultaneous and hidden.
* ``{"type": "place", "building": n}`` — step 2A, one of the first card's three buildings.
* ``{"type": "remove", "building": n, "seat": s, "promoted": bool}`` — BACKSTAB / POISON.
* ``{"type": "switch", "a": [n1, s1], "b": [n2, s2]}`` — SWITCH two Beefeaters ([building, seat]).
* ``{"type": "pass"}`` — decline the ability.
* ``{"type": "keep", "cards": [c1, c2, c3]}`` — Reduce Player Decks, simultaneous and hidden.

>>> state = ENGINE.new_game(3, 7, {})
>>> sorted(ENGINE.to_act(state))
[0, 1, 2]
>>> len(ENGINE.legal_moves(state, 0))  # two different cards of six, in order
30
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engines.base import Event, IllegalMove, Move, Option, Result, View, resolve_options
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import (
    ADJACENT,
    AREA_OF,
    AREAS_SCORED,
    BOARD,
    CARDS,
    CARDS_KEPT,
    EVENTS,
    QUADRANT_OF,
    SCORING_CARDS,
    static_json,
)

MOVE_TYPES = ("pick", "place", "remove", "switch", "pass", "keep")

_STATIC = static_json()
_BUILDINGS_STATIC = [
    {"number": b["number"], "area": b["area"], "quadrant": b["quadrant"], "x": b["x"], "y": b["y"],
     "adjacent": list(ADJACENT[b["number"]])}
    for b in sorted(BOARD["buildings"], key=lambda b: b["number"])]


def _events(log: list[Any]) -> list[Event]:
    out = []
    for item in log:
        if item[0] == "public":
            out.append(Event(item[1]))
        else:
            _, seat, public, private = item
            out.append(Event(public, {seat: private}))
    return out


def _int(move: Move, key: str) -> int:
    value = move.get(key)
    if type(value) is not int:
        raise IllegalMove(f"Malformed move: {key!r} must be a whole number.", code="malformed_move")
    return value


def _pair(move: Move, key: str) -> tuple[int, int]:
    value = move.get(key)
    if (not isinstance(value, list | tuple) or len(value) != 2
            or any(type(v) is not int for v in value)):
        raise IllegalMove(f"Malformed move: {key!r} must be [building, seat].", code="malformed_move")
    return (value[0], value[1])


class TowerOfLondon:
    """Tower of London (WizKids, 2017) for 2–5 players."""

    id = "tower_of_london"
    title = "Tower of London"
    tagline = "Fight for control of the Tower: the first to gather seven ravens wins — if no one does, all lose."
    min_seats = 2
    max_seats = 5
    options: tuple[Option, ...] = ()

    # ------------------------------------------------------------------------- the protocol
    def new_game(self, seats: int, seed: int, options: Mapping[str, Any]) -> R.State:
        resolve_options(self, options)
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{R.RULE_SETUP}: Tower of London is for 2 to 5 players, not {seats}")
        return R.new_state(seats, seed)

    def to_act(self, state: R.State) -> frozenset[int]:
        return R.awaited(state)

    def legal_moves(self, state: R.State, seat: int) -> list[Move]:
        if seat not in R.awaited(state):
            return []
        if state.phase == R.PICK:
            return R.pick_moves(state, seat)
        if state.phase == R.KEEP:
            return R.keep_moves(state, seat)
        if state.stage == R.STAGE_PLACE:
            first = state.picks[seat][0]
            return [{"type": "place", "building": b} for b in R.placement_buildings(state, seat, first)]
        return R.ability_moves(state)

    def play(self, state: R.State, seat: int, move: Move) -> list[Event]:
        kind = self._check(state, seat, move)
        log: list[Any] = []
        if kind == "pick":
            first, second = move["first"], move["second"]
            state.picks[seat] = [first, second]
            state.hands[seat].remove(first)
            state.hands[seat].remove(second)
            log.append(("private", seat, f"{{seat:{seat}}} has chosen two cards.",
                        f"You chose {CARDS[first].name} first and {CARDS[second].name} second."))
            if all(state.picks):
                log.append(("public", "Everyone has chosen; the cards are revealed in turn order."))
                state.phase = R.REVEAL
                R.advance_reveals(state, log)
        elif kind == "place":
            b = move["building"]
            R.apply_place(state, seat, b)
            log.append(("public", f"{{seat:{seat}}} places a Beefeater in building {b} "
                                  f"({AREA_OF[b]}, quadrant {QUADRANT_OF[b]})."))
            R.advance_reveals(state, log)
        elif kind in ("remove", "switch", "pass"):
            ability = state.pending
            rec = state.step_reveals[-1]
            if kind == "remove":
                b, victim, promoted = move["building"], move["seat"], move["promoted"]
                R.apply_remove(state, b, victim, promoted)
                what = "promoted Beefeater" if promoted else "Beefeater"
                rec["outcome"] = f"removes a {what} of {{seat:{victim}}} from building {b}"
            elif kind == "switch":
                a, b2 = tuple(move["a"]), tuple(move["b"])
                R.apply_switch(state, (a[0], a[1]), (b2[0], b2[1]))
                rec["outcome"] = (f"switches {{seat:{a[1]}}}'s Beefeater in building {a[0]} with "
                                  f"{{seat:{b2[1]}}}'s in building {b2[0]}")
            else:
                rec["outcome"] = f"declines {ability}"
            log.append(("public", f"{{seat:{seat}}} ({ability}) {rec['outcome']}."))
            R.finish_turn(state)
            R.advance_reveals(state, log)
        elif kind == "keep":
            cards = sorted(move["cards"])
            state.keeps[seat] = cards
            log.append(("private", seat, f"{{seat:{seat}}} has chosen the cards to keep.",
                        f"You keep {', '.join(CARDS[c].name for c in cards)}."))
            if all(state.keeps):
                R.apply_keeps(state, log)
        return _events(log)

    def result(self, state: R.State) -> Result | None:
        if state.phase != R.OVER:
            return None
        winners = (state.winner,) if state.winner >= 0 else ()
        return Result(winners=winners, scores=tuple(float(r) for r in state.ravens),
                      details={"reason": state.end_reason, "round": state.round,
                               "scoring": copy.deepcopy(state.scoring_history)})

    def encode(self, state: R.State) -> dict[str, Any]:
        return R.encode_state(state)

    def decode(self, data: Mapping[str, Any]) -> R.State:
        return R.decode_state(data)

    # ----------------------------------------------------------------------------- validation
    def _check(self, state: R.State, seat: int, move: Move) -> str:
        """Validates completely (nothing is changed) and returns the move's type."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("Malformed move: a move is a JSON object with a \"type\".",
                              code="malformed_move")
        kind = str(move["type"])
        if kind not in MOVE_TYPES:
            raise IllegalMove(f"Unknown move {kind!r}: Tower of London moves are "
                              f"{', '.join(MOVE_TYPES)}.", code="unknown_move")
        if state.phase == R.OVER:
            raise IllegalMove(f"{R.RULE_WIN}: the game is over.", rule=R.RULE_WIN, code="not_your_turn")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalMove(f"There is no seat {seat!r} at this table.", code="not_your_turn")
        if seat not in R.awaited(state):
            raise IllegalMove(self._not_awaited(state, seat), rule=self._phase_rule(state),
                              code="not_your_turn")
        expected = self._expected_types(state)
        if kind not in expected:
            raise IllegalMove(f"{self._phase_rule(state)}: now is not the time to {kind}; "
                              f"{self._now(state)}.", rule=self._phase_rule(state))
        if kind == "pick":
            first, second = _int(move, "first"), _int(move, "second")
            if first == second:
                raise IllegalMove(f"{R.RULE_PICK}: you must choose two different cards from your hand.",
                                  rule=R.RULE_PICK)
            if not R.can_pick(state, seat, first, second):
                missing = first if first not in state.hands[seat] else second
                raise IllegalMove(f"{R.RULE_PICK}: card {missing} is not in your hand; choose two "
                                  "cards from your hand.", rule=R.RULE_PICK)
        elif kind == "place":
            b = _int(move, "building")
            card = state.picks[seat][0]
            if b not in R.placement_buildings(state, seat, card):
                sealed = b in CARDS[card].buildings
                why = ("it is in the quadrant sealed by this round's event" if sealed else
                       f"{CARDS[card].name} shows buildings {', '.join(map(str, CARDS[card].buildings))}")
                raise IllegalMove(f"{R.RULE_PLACE}: you cannot place in building {b}: {why}.",
                                  rule=R.RULE_PLACE)
        elif kind == "remove":
            b, victim = _int(move, "building"), _int(move, "seat")
            promoted = move.get("promoted", False)
            if not isinstance(promoted, bool):
                raise IllegalMove("Malformed move: 'promoted' must be true or false.",
                                  code="malformed_move")
            ability = state.pending
            reach = (R.backstab_buildings(state.placed) if ability == "BACKSTAB"
                     else R.poison_buildings(state.placed))
            if b not in reach:
                where = ("+/- 1 away from" if ability == "BACKSTAB" else "adjacent to")
                raise IllegalMove(f"{R.RULE_ABILITY}: {ability} removes a Beefeater from a building "
                                  f"{where} where you placed (building {state.placed}); building {b} "
                                  "is not.", rule=R.RULE_ABILITY)
            if (b, victim, promoted) not in R.removal_targets(state, [b]):
                what = "promoted Beefeater" if promoted else "plain Beefeater"
                raise IllegalMove(f"{R.RULE_ABILITY}: there is no {what} of seat {victim} in "
                                  f"building {b} to remove.", rule=R.RULE_ABILITY)
        elif kind == "switch":
            pa, pb = _pair(move, "a"), _pair(move, "b")
            movable = R.movable_beefeaters(state, state.placed)
            quadrant = QUADRANT_OF[state.placed]
            for x in (pa, pb):
                if x not in movable:
                    if x[0] in AREA_OF and QUADRANT_OF[x[0]] != quadrant:
                        why = f"building {x[0]} is not in quadrant {quadrant}, where you placed"
                    elif x[0] in AREA_OF and 0 <= x[1] < state.seats and state.promoted[x[0]][x[1]]:
                        why = f"the promoted Beefeater of seat {x[1]} in building {x[0]} cannot be moved"
                    else:
                        why = f"there is no movable Beefeater of seat {x[1]} in building {x[0]}"
                    raise IllegalMove(f"{R.RULE_ABILITY}: SWITCH: {why}.", rule=R.RULE_ABILITY)
            if not R.can_switch(pa, pb):
                raise IllegalMove(f"{R.RULE_ABILITY}: SWITCH exchanges Beefeaters of two different "
                                  "players in two different buildings.", rule=R.RULE_ABILITY)
        elif kind == "keep":
            cards = move.get("cards")
            if not isinstance(cards, list) or any(type(c) is not int for c in cards):
                raise IllegalMove("Malformed move: 'cards' must be a list of card ids.",
                                  code="malformed_move")
            if not R.can_keep(state, seat, cards):
                raise IllegalMove(f"{R.RULE_REDUCE}: keep exactly three different cards among the six "
                                  "you played this round.", rule=R.RULE_REDUCE)
        return kind

    @staticmethod
    def _expected_types(state: R.State) -> tuple[str, ...]:
        if state.phase == R.PICK:
            return ("pick",)
        if state.phase == R.KEEP:
            return ("keep",)
        if state.stage == R.STAGE_PLACE:
            return ("place",)
        if state.pending == "SWITCH":
            return ("switch", "pass")
        return ("remove", "pass")

    @staticmethod
    def _phase_rule(state: R.State) -> str:
        return {R.PICK: R.RULE_PICK, R.KEEP: R.RULE_REDUCE}.get(
            state.phase, R.RULE_PLACE if state.stage == R.STAGE_PLACE else R.RULE_ABILITY)

    @staticmethod
    def _now(state: R.State) -> str:
        if state.phase == R.PICK:
            return "choose two cards"
        if state.phase == R.KEEP:
            return "keep three cards"
        if state.stage == R.STAGE_PLACE:
            return "place a Beefeater"
        return f"use {state.pending} or pass"

    def _not_awaited(self, state: R.State, seat: int) -> str:
        if state.phase == R.PICK:
            return f"{R.RULE_PICK}: you have already chosen your two cards; waiting for the others."
        if state.phase == R.KEEP:
            return f"{R.RULE_REDUCE}: you have already chosen the cards to keep."
        who = state.order[state.turn]
        return (f"{R.RULE_PLACE}: it is not your turn; the cards are revealed in turn order and "
                f"{{seat:{who}}} is acting.")

    # ----------------------------------------------------------------------------------- view
    def view(self, state: R.State, seat: int | None) -> View:
        """What a seat (None: a spectator) may see: never another seat's hand, face-down picks or
        keeps, the deck order, the upcoming events or the generator."""
        n = state.seats
        me = seat if seat is not None and 0 <= seat < n else None
        buildings = []
        for b in _BUILDINGS_STATIC:
            num = b["number"]
            stacks = [{"seat": s, "count": state.plain[num][s] + state.promoted[num][s],
                       "plain": state.plain[num][s], "promoted": state.promoted[num][s],
                       "strength": R.strength(state, num, s)}
                      for s in range(n) if state.plain[num][s] or state.promoted[num][s]]
            buildings.append({**b, "adjacent": list(b["adjacent"]), "beefeaters": stacks,
                              "controller": R.controller(state, num)})
        players = []
        for s in range(n):
            picks = state.picks[s]
            shown = state.revealed[s]
            own = s == me
            players.append({
                "seat": s,
                "ravens": state.ravens[s],
                "beefeaters_in_supply": state.supply[s],
                "hand_count": len(state.hands[s]),
                "deck_count": len(state.decks[s]),
                "has_chosen": bool(picks) if state.phase == R.PICK else None,
                "has_kept": bool(state.keeps[s]) if state.phase == R.KEEP else None,
                "first": picks[0] if picks and (shown >= 1 or own) else None,
                "second": picks[1] if picks and (shown >= 2 or own) else None,
                "revealed": shown,
                "played": list(state.played[s]),
                "boxed": sorted(state.boxed[s]),
                "track_space": state.track[s] or None,
            })
        reveal = None
        if state.phase == R.REVEAL and state.stage:
            who = state.order[state.turn]
            reveal = {"seat": who, "stage": state.stage, "first": state.picks[who][0],
                      "second": state.picks[who][1] if state.revealed[who] >= 2 else None,
                      "placed": state.placed or None, "ability": state.pending or None}
        result = self.result(state)
        view: View = {
            "game": self.id,
            "seat": me,
            "seats": n,
            "round": state.round,
            "step": state.step,
            "phase": state.phase,
            "areas_scored_this_round": list(AREAS_SCORED[state.round]),
            "turn_order": list(state.order),
            "start_player": state.order[0],
            "track": {"spaces": list(_STATIC["track_spaces"]),
                      "beefeaters": [{"seat": s, "space": state.track[s]}
                                     for s in range(n) if state.track[s]]},
            "board": {**copy.deepcopy(_STATIC["board"]), "buildings": buildings},
            "cards": copy.deepcopy(_STATIC["cards"]),
            "abilities": dict(_STATIC["abilities"]),
            "rules": {k: copy.deepcopy(_STATIC[k]) for k in (
                "ravens_to_win", "beefeaters_per_colour", "promoted_beefeater_counts_as",
                "areas_scored_by_round")},
            "event": {"current": EVENTS[state.event].as_json() if state.event else None,
                      "face_down": len(state.event_pile),
                      "past": [EVENTS[e].as_json() for e in state.past_events]},
            "scoring_card": next(c.as_json() for c in SCORING_CARDS if c.id == state.scoring_card),
            "ravens": {"supply": state.raven_supply, "by_seat": list(state.ravens)},
            "players": players,
            "hand": sorted(state.hands[me]) if me is not None else None,
            "deck": sorted(state.decks[me]) if me is not None else None,
            "my_picks": ({"first": state.picks[me][0], "second": state.picks[me][1]}
                         if me is not None and state.picks[me] else None),
            "my_keep": list(state.keeps[me]) if me is not None and state.keeps[me] else None,
            "reveal": reveal,
            "step_reveals": copy.deepcopy(state.step_reveals),
            "last_scoring": copy.deepcopy(state.scoring_history[-1]) if state.scoring_history else None,
            "scoring_history": copy.deepcopy(state.scoring_history),
            "result": result.as_json() if result else None,
            "prompt": self._prompt(state, me),
        }
        return view

    def _prompt(self, state: R.State, seat: int | None) -> dict[str, Any] | None:
        if seat is None or seat not in R.awaited(state):
            return None
        moves = self.legal_moves(state, seat)
        if state.phase == R.PICK:
            return {"kind": "pick", "moves": moves, "cards": sorted(state.hands[seat]),
                    "text": (f"Round {state.round}, step {state.step}: choose two cards in order — "
                             "the first says where you place a Beefeater (its orange, green or blue "
                             "building), the second gives the ability you use.")}
        if state.phase == R.KEEP:
            return {"kind": "keep", "moves": moves, "cards": sorted(state.played[seat]),
                    "count": CARDS_KEPT,
                    "text": ("Reduce your deck: keep three of the six cards you played this round; "
                             "the other three go to the box.")}
        first = state.picks[seat][0]
        if state.stage == R.STAGE_PLACE:
            options = [m["building"] for m in moves]
            words = ", ".join(f"{b} ({AREA_OF[b]})" for b in options)
            return {"kind": "place", "moves": moves, "card": first, "buildings": options,
                    "text": f"Place a Beefeater with {CARDS[first].name}: building {words}."}
        ability, placed = state.pending, state.placed
        prompt: dict[str, Any] = {"kind": ability.lower(), "ability": ability, "moves": moves,
                                  "card": state.picks[seat][1], "placed": placed,
                                  "can_pass": True}
        if ability == "SWITCH":
            prompt["quadrant"] = QUADRANT_OF[placed]
            prompt["beefeaters"] = [list(x) for x in R.movable_beefeaters(state, placed)]
            prompt["text"] = (f"SWITCH: choose two Beefeaters of different players in different "
                              f"buildings of quadrant {QUADRANT_OF[placed]} to swap, or pass.")
        else:
            reach = R.backstab_buildings(placed) if ability == "BACKSTAB" else R.poison_buildings(placed)
            prompt["buildings"] = reach
            prompt["targets"] = [{"building": m["building"], "seat": m["seat"], "promoted": m["promoted"]}
                                 for m in moves if m["type"] == "remove"]
            where = "+/- 1 away from" if ability == "BACKSTAB" else "adjacent to"
            prompt["text"] = (f"{ability}: remove one Beefeater from a building {where} building "
                              f"{placed} ({', '.join(map(str, reach))}), or pass.")
        return prompt


ENGINE = TowerOfLondon()
