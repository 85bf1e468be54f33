"""What each seat sees, and what it does not: ``view``/``views``, the prompts, the fixed data
(``static_view``) and ``determinize``, which re-draws exactly what a seat cannot see.

Hidden from a seat: the other seats' hands, their picks and keeps until revealed, every deck's
order (its own too: nobody looks at the order of a shuffled deck) and the other decks' contents
beyond their size, the face-down events, and the generator. Public: the board, the track, played
and boxed cards, revealed picks, counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Move, View
from engines.kit import Rng, redeal
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import (
    ADJACENT,
    AREAS_SCORED,
    BOARD,
    CARDS_KEPT,
    EVENTS,
    SCORING_CARDS,
    static_json,
)
from engines.tower_of_london.turn import TURN

GAME_ID = "tower_of_london"

_STATIC = static_json()
STATIC_VIEW: View = {
    "cards": _STATIC["cards"],
    "abilities": _STATIC["abilities"],
    "rules": {k: _STATIC[k] for k in ("ravens_to_win", "beefeaters_per_colour",
                                      "promoted_beefeater_counts_as", "areas_scored_by_round")},
}
"""The fixed data a browser merges into every view (served once, not with every move)."""

_BOARD_FIXED = _STATIC["board"]  # shared by every view: read-only
_BUILDINGS_FIXED = [
    (b["number"], {"number": b["number"], "area": b["area"], "quadrant": b["quadrant"], "x": b["x"],
                   "y": b["y"]}, list(ADJACENT[b["number"]]))
    for b in sorted(BOARD["buildings"], key=lambda b: b["number"])]
_TRACK_SPACES = _STATIC["track_spaces"]
_SCORING_CARDS = {c.id: c.as_json() for c in SCORING_CARDS}
_AREA_NAME = {a["id"]: a["name"] for a in BOARD["areas"]}


def prompt(state: R.State, seat: int | None, moves: list[Move] | None = None) -> dict[str, Any] | None:
    """The prompt of an awaited seat (None otherwise), from the turn (``turn.TURN``): the kit's
    shape ``{kind, text, choices}`` plus what the renderer draws from."""
    if seat is None or TURN.step_of(state, seat) is None:
        return None
    return TURN.prompt(state, seat, moves if moves is not None else R.legal_moves(state, seat))


def static_view() -> View:
    """The 13 cards, the ability texts and the counts of the rules: the same for every seat and
    every game (the board stays in the view: the browser merges one level deep, and the board's
    buildings carry the Beefeaters)."""
    return STATIC_VIEW


def view(state: R.State, seat: int | None) -> View:
    """What a seat (None: a spectator) may see: never another seat's hand, face-down picks or
    keeps, the deck order, the upcoming events or the generator."""
    return views(state, (seat,))[seat]


def views(state: R.State, seats: Iterable[int | None],
          legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
    """Several seats' views at once: the public part is built once and shared between them (each
    equals ``view`` of its seat). The views share objects: treat them as read-only."""
    n = state.seats
    public = _public(state)
    players = [_player(state, s, own=False) for s in range(n)]
    out: dict[int | None, View] = {}
    for seat in seats:
        me = seat if seat is not None and 0 <= seat < n else None
        mine = players
        if me is not None:
            mine = list(players)
            mine[me] = _player(state, me, own=True)
        chosen = state.choosing.own(me) if me is not None else None
        picks = (chosen if state.phase == R.PICK else state.picks[me]) if me is not None else None
        moves = legal.get(me) if legal is not None and me is not None else None
        out[seat] = {
            **public,
            "seat": me,
            "players": mine,
            "hand": sorted(state.hands[me]) if me is not None else None,
            "deck": sorted(state.decks[me]) if me is not None else None,
            "my_picks": {"first": picks[0], "second": picks[1]} if picks else None,
            "my_keep": list(chosen) if chosen and state.phase == R.KEEP else None,
            "prompt": prompt(state, me, moves),
        }
    return out


def _public(state: R.State) -> View:
    n = state.seats
    buildings = []
    plain, promoted = state.plain, state.promoted
    for num, fixed, adjacent in _BUILDINGS_FIXED:
        row_p, row_q = plain[num], promoted[num]
        stacks = [{"seat": s, "count": row_p[s] + row_q[s], "plain": row_p[s], "promoted": row_q[s],
                   "strength": R.strength(state, num, s)}
                  for s in range(n) if row_p[s] or row_q[s]]
        buildings.append({**fixed, "adjacent": adjacent, "beefeaters": stacks,
                          "controller": R.controller(state, num) if stacks else None})
    reveal = None
    if state.phase == R.REVEAL and state.stage:
        who = state.order[state.turn]
        reveal = {"seat": who, "stage": state.stage, "first": state.picks[who][0],
                  "second": state.picks[who][1] if state.revealed[who] >= 2 else None,
                  "placed": state.placed or None, "ability": state.pending or None}
    result = R.result(state)
    history = [_copy_scoring(t) for t in state.scoring_history]
    return {
        "game": GAME_ID,
        "seats": n,
        "round": state.round,
        "step": state.step,
        "phase": state.phase,
        "areas_scored_this_round": list(AREAS_SCORED[state.round]),
        "turn_order": list(state.order),
        "start_player": state.order[0],
        "track": {"spaces": _TRACK_SPACES,
                  "beefeaters": [{"seat": s, "space": state.track[s]} for s in range(n) if state.track[s]]},
        "board": {**_BOARD_FIXED, "buildings": buildings},
        "event": {"current": EVENTS[state.event].as_json() if state.event else None,
                  "face_down": len(state.event_pile),
                  "past": [EVENTS[e].as_json() for e in state.past_events]},
        "scoring_card": _SCORING_CARDS[state.scoring_card],
        "ravens": {"supply": state.raven_supply, "by_seat": list(state.ravens)},
        "reveal": reveal,
        "step_reveals": [dict(r) for r in state.step_reveals],
        "last_scoring": history[-1] if history else None,
        "scoring_history": history,
        "result": result.as_json() if result else None,
    }


def _copy_scoring(table: dict[str, Any]) -> dict[str, Any]:
    return {**table, "areas": [
        {"area": a["area"], "control": [dict(c) for c in a["control"]],
         "ranking": [{**r, "buildings": list(r["buildings"])} for r in a["ranking"]]}
        for a in table["areas"]], "ravens": list(table["ravens"])}


def _player(state: R.State, s: int, own: bool) -> dict[str, Any]:
    """A seat's public entry (``own``: as its own seat sees it, with its chosen cards)."""
    shown = state.revealed[s]
    picks = (state.choosing.own(s) if own else None) if state.phase == R.PICK else state.picks[s]
    return {
        "seat": s,
        "ravens": state.ravens[s],
        "beefeaters_in_supply": state.supply[s],
        "hand_count": len(state.hands[s]),
        "deck_count": len(state.decks[s]),
        "has_chosen": state.choosing.has_chosen(s) if state.phase == R.PICK else None,
        "has_kept": state.choosing.has_chosen(s) if state.phase == R.KEEP else None,
        "first": picks[0] if picks and (shown >= 1 or own) else None,
        "second": picks[1] if picks and (shown >= 2 or own) else None,
        "revealed": shown,
        "played": list(state.played[s]),
        "boxed": sorted(state.boxed[s]),
        "track_space": state.track[s] or None,
    }


# ---------------------------------------------------------------------------------- determinize
def determinize(state: R.State, seat: int | None, rng: Rng) -> R.State:
    """A copy of ``state`` consistent with all ``seat`` sees (None: a spectator), with everything
    it cannot see re-drawn from ``rng``: each other seat's unseen cards split again between its
    hand, its deck and its unrevealed picks (sizes kept), their keeps if chosen and not yet
    revealed, every deck's order, the face-down events (drawn again from the events not seen),
    and the generator. ``state`` is not changed."""
    d = state.clone()
    for s in range(d.seats):
        if s == seat:
            continue
        hidden: list[int] = []
        if d.phase == R.PICK and d.choosing.has_chosen(s):
            hidden = list(d.choosing.choices[s])
        elif d.phase == R.REVEAL:
            hidden = d.picks[s][d.revealed[s]:]
        redeal(rng, d.hands[s], d.decks[s], hidden)
        d.hands[s].sort()
        if d.phase == R.PICK and d.choosing.has_chosen(s):
            d.choosing.choices[s] = hidden
        elif d.phase == R.REVEAL:
            d.picks[s][d.revealed[s]:] = hidden
        elif d.phase == R.KEEP and d.choosing.has_chosen(s):
            played = list(d.played[s])
            rng.shuffle(played)
            d.choosing.choices[s] = sorted(played[:CARDS_KEPT])
    if seat is not None:
        rng.shuffle(d.decks[seat])
    unseen = [e for e in sorted(EVENTS) if e != d.event and e not in d.past_events]
    rng.shuffle(unseen)
    d.event_pile = unseen[:len(d.event_pile)]
    if d.rng is not None:
        d.rng = rng.fork()
    else:
        d.splitmix = R.SplitMix64(rng.next64()).encode()
    return d

