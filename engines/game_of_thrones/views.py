"""What each seat sees: the board, the tracks, the public part of hidden choices, the combat
with its strength by part, the bids revealed, and the prompt (the turn's: ``turn.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Move, View
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import kinds as K
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD
from engines.game_of_thrones.state import PLANNING, GameState
from engines.game_of_thrones.status import status
from engines.game_of_thrones.turn import TURN


def view(state: GameState, seat: int | None) -> View:
    return seat_view(state, public_view(state), seat, None)


def views(state: GameState, seats: Iterable[int | None],
          legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
    """Every listed seat's view, the public part built once (each seat's equals ``view``)."""
    public = public_view(state)
    return {s: seat_view(state, public, s, legal.get(s) if legal is not None and s is not None else None)
            for s in seats}


def public_view(state: GameState) -> dict[str, Any]:
    """What every seat and the spectators see alike."""
    areas = []
    holders = {a: R.controller(state, a) for a in BOARD.areas}
    planning = state.phase == PLANNING and state.planning.open
    # Rules §1.1: orders are placed face down on the board, so where each lies and whose it is
    # are public while planning; only its kind waits for the reveal
    face_down = ({a: s for s, placed in state.planning.choices.items() for a in placed or {}}
                 if planning else {})
    for area in BOARD.areas:
        entry: dict[str, Any] = {"id": area}
        if area in state.units:
            entry["units"] = [{"kind": u.kind, "routed": u.routed} for u in state.units[area]]
            entry["seat"] = state.owner[area]
        if area in state.tokens:
            entry["power_token"] = state.tokens[area]
        if area in state.garrisons:
            entry["garrison"] = state.garrisons[area]
        if area in state.neutral:
            entry["neutral_force"] = state.neutral[area]
        if area in state.blocked:
            entry["blocked"] = True
        holder = holders[area]
        if holder is not None:
            entry["controller"] = holder
        if area in state.orders:
            o = state.orders[area]
            entry["order"] = {"seat": o.seat, "token": o.token}
        elif area in face_down:
            entry["order"] = {"seat": face_down[area], "hidden": True}
        if len(entry) > 1:
            areas.append(entry)
    castles = Counter(holders[a] for a in R.CASTLE_AREAS)
    c = state.combat
    combat = None
    if c is not None:
        combat = {"attacker": c.attacker, "defender": c.defender, "area": c.area, "from": c.origin,
                  "army": list(c.army), "march": c.march, "supporters": dict(c.supporters),
                  "cards": {str(s): v for s, v in c.card.items()},
                  "chosen": c.cards.public()["chosen"] if c.cards.open else [],
                  "my_card": None, "strength": {str(s): v for s, v in c.strength.items()},
                  "winner": c.winner, "blade": c.blade, "breakdown": C.combat_breakdown(state)}
    top = state.decisions.top
    return {
        "round": state.round, "phase": state.phase, "step": state.step, "seat": None,
        "houses": list(state.houses), "areas": areas,
        "tracks": {t: list(v) for t, v in state.tracks.items()},
        "supply": list(state.supply), "power": list(state.power),
        "power_pool": [R.power_pool(state, s) for s in range(state.seats)],
        "castles": [castles[s] for s in range(state.seats)],
        "hands": {str(s): sorted(h) for s, h in enumerate(state.hands)},
        "discards": {str(s): list(d) for s, d in enumerate(state.discards)},
        "planning": ({**state.planning.public(),
                      "placed": {str(s): len(v or {}) for s, v in state.planning.choices.items()}}
                     if planning else None),
        "restricted": list(state.restricted),
        "raven_used": state.raven_used, "blade_used": state.blade_used,
        "wildlings": state.wildlings, "wildling_deck": len(state.wildling_deck),
        "wildling_top": None,
        "westeros_decks": {d: len(p) for d, p in state.westeros_decks.items()},
        "westeros_cards": list(state.revealed),
        "wildling_last": state.wildling_last or None,
        "bids": ({**state.bids.public(), "mine": None} if state.bids.open else None),
        "bid_results": [dict(r) for r in state.bid_results],
        "combat": combat,
        "decision": top.kind if top is not None else ("orders" if planning else None),
        "awaited": sorted(TURN.awaited(state)),
        "status": status(state, TURN.awaited(state)),
        "winner": state.winner,
        "standings": standings(state) if state.winner is not None else None,
        "prompt": None,
    }


def standings(state: GameState) -> dict[str, Any]:
    """The end: how the game ended, and every house in its final place (the winner first, the
    others by the tenth round's count) with what decided it."""
    order = sorted(range(state.seats), key=lambda s: (s != state.winner, tuple(-x for x in R.final_standing(state, s))))
    return {"ended_by": state.ended_by,
            "houses": [{"seat": s, "castles": R.castles_held(state, s), "land": R.land_held(state, s),
                        "supply": state.supply[s], "throne": state.tracks["iron_throne"].index(s) + 1}
                       for s in order]}


def seat_view(state: GameState, public: dict[str, Any], seat: int | None,
              legal: list[Move] | None) -> View:
    """The public part with what only ``seat`` sees: the kinds of its own face-down orders, its
    chosen house card, its bid, the wildling card it looked at, and its prompt."""
    out = dict(public)
    out["seat"] = seat
    if seat is None:
        return out
    if state.phase == PLANNING and state.planning.open:
        own = P.placed_orders(state, seat)
        if own:
            out["areas"] = [{**e, "order": {"seat": seat, "token": own[e["id"]], "hidden": True}}
                            if e["id"] in own else e for e in public["areas"]]
    c = state.combat
    if c is not None and c.cards.open and public["combat"] is not None:
        out["combat"] = {**public["combat"], "my_card": c.cards.own(seat)}
    if state.bids.open and public["bids"] is not None:
        out["bids"] = {**public["bids"], "mine": state.bids.own(seat)}
    if seat == state.raven_saw and state.wildling_deck:
        out["wildling_top"] = state.wildling_deck[0]
    out["prompt"] = seat_prompt(state, seat, legal)
    return out


def seat_prompt(state: GameState, seat: int | None,
                legal: list[Move] | None = None) -> dict[str, Any] | None:
    """The prompt of ``seat`` from the turn (None: not awaited); ``legal`` its legal moves when
    the caller has them already."""
    if seat is None or TURN.step_of(state, seat) is None:
        return None
    return TURN.prompt(state, seat, legal if legal is not None else K.legal_moves(state, seat))
