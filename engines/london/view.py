"""What one seat (or a spectator) may see of a game of London, and the prompt of the awaited seat.

Public: every display (face-down cards included: they were played face-up in front of everyone),
the development board, the borough market, money, loans, poverty, prestige, hand sizes.
Private: a hand (its owner only), the cards St Pancras lets its owner look at. Never sent: the
deck order, the borough deck order, the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import suppress
from typing import Any

from engines.base import Move
from engines.london.components import BOROUGHS, CARDS, DESIGNS, ref
from engines.london.effects import describe, describe_ongoing
from engines.london.rules import hand_limit, legal_moves, loan_amount, repay_cost, run_poverty
from engines.london.scoring import result
from engines.london.state import State
from engines.london.turn import TURN


def _catalogue() -> dict[str, Any]:
    cards: dict[str, Any] = {}
    for key, c in DESIGNS.items():
        act = None
        if c.activation is not None:
            a = c.activation
            cost = {"free": "Free", "money": f"Pay £{a.amount}", "discard": "Discard a card"}[a.pay]
            act = {"pay": a.pay, "amount": a.amount, "effects": list(a.effects), "flips": a.flips,
                   "text": f"{cost}: " + "; ".join(describe(e) for e in a.effects)
                           + (" ⤵" if a.flips else "")}
        cards[key] = {
            "key": key, "name": c.name, "era": c.era, "colour": c.colour, "kind": c.kind,
            "cost": c.cost, "prestige": c.prestige, "copies": c.count, "activation": act,
            "ongoing": None if c.ongoing is None else {**c.ongoing, "text": describe_ongoing(c.ongoing)},
            "on_play": None if not c.is_action else {
                "effects": list(c.on_play), "text": "; ".join(describe(e) for e in c.on_play)},
        }
    boroughs: dict[str, Any] = {}
    for key, b in BOROUGHS.items():
        if b.kind == "active":
            text = "Each Run the City, once: " + "; ".join(describe(e) for e in b.effects)
        elif b.kind == "passive" and b.ongoing is not None:
            text = describe_ongoing(b.ongoing)
        elif b.start_draw == "westminster":
            text = "At the start of your turn draw 0, 1 or 2 cards instead of 1"
        elif b.start_draw == "st_pancras":
            text = ("At the start of your turn you may, instead of drawing, look at the top 3 cards "
                    "of the deck, keep 1 and put the others at the bottom in the order you choose")
        else:
            text = ""
        boroughs[key] = {"key": key, "name": b.name, "side": b.side, "river": b.river,
                         "starter": b.starter, "cost": b.cost, "draw": b.draw,
                         "prestige": b.prestige, "relief": b.relief, "kind": b.kind,
                         "effects": list(b.effects), "ongoing": b.ongoing, "text": text}
    return {"cards": cards, "boroughs": boroughs}


CATALOGUE = _catalogue()
"""Every card design and borough, with plain-words text: static, no instance ids."""


PLAYER_ENTRIES = 512
"""Players whose public entry is kept, the least recently used dropped first: every player of
128 busy tables; an entry is about 2.8 KB (tracemalloc), so at most about 1.4 MB in all."""

_entries: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = {}
"""By the player object's identity: what its entry was made of, and the entry."""


def _public_player(s: State, seat: int) -> dict[str, Any]:
    """A player's entry as everyone sees it (no hand), kept while nothing in it changes.

    A move changes one player's entry, or none: the others are the very dicts the previous
    move's views held, and their displays are not built again (a four-seat move's views took
    35–41 µs instead of 50–55, in-process). One entry is kept per player, the newest: what it
    was made of (everything it reads, the hand only by its size) is kept beside it and compared,
    so a kept entry is right even for another player object that came to have the same
    identity. Views are only serialised, never changed after, so one entry may sit in many."""
    p = s.players[seat]
    built = s.turn.built if seat == s.current and not s.over else ()
    made_of = (seat, len(p.hand), p.money, p.loans, p.poverty, p.prestige, tuple(map(tuple, p.stacks)),
               frozenset(p.facedown), tuple(p.boroughs), tuple(built))
    kept = _entries.pop(id(p), None)
    if kept is not None and kept[0] == made_of:
        entry = kept[1]
    else:
        entry = _player(s, seat, None)
        if len(_entries) >= PLAYER_ENTRIES:
            # the least recently used; replays build views on a thread of their own too
            with suppress(KeyError, RuntimeError, StopIteration):
                del _entries[next(iter(_entries))]
    _entries[id(p)] = (made_of, entry)
    return entry


def _player(s: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = s.players[seat]
    built = s.turn.built if seat == s.current and not s.over else []
    return {
        "seat": seat,
        "money": p.money, "loans": p.loans, "poverty": p.poverty, "prestige": p.prestige,
        "hand_count": len(p.hand),
        "hand": [ref(c) for c in p.hand] if viewer == seat else None,
        "stacks": [{"index": i, "built_this_turn": i in built,
                    "cards": [{**ref(c), "face_up": c not in p.facedown} for c in st]}
                   for i, st in enumerate(p.stacks)],
        "boroughs": [{"key": k, "live": i == len(p.boroughs) - 1} for i, k in enumerate(p.boroughs)],
        "live_borough": p.boroughs[-1] if p.boroughs else None,
        "hand_limit": hand_limit(p), "loan_amount": loan_amount(p), "repay_cost": repay_cost(p),
        "run_poverty": run_poverty(p),
    }


def prompt(s: State, seat: int | None, moves: list[Move] | None = None) -> dict[str, Any] | None:
    """The awaited seat's prompt, from the turn (``turn.TURN``): the kit's shape (``kind``,
    ``text``, ``choices``) with what the renderer also reads (``step``, ``action``, ``pending``,
    ``unavailable``). A choice that takes loans says how many (``loans``)."""
    if seat is None or TURN.step_of(s, seat) is None:
        return None
    return TURN.prompt(s, seat, moves if moves is not None else legal_moves(s, seat))


def view(s: State, seat: int | None) -> dict[str, Any]:
    return views(s, (seat,))[seat]


def views(s: State, seats: Iterable[int | None],
          legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, dict[str, Any]]:
    """Several seats' views: the public part is built once and shared (a move's update sends
    every connected seat its view, so this is the hot path)."""
    seats = list(seats)
    base = _public(s)
    public_players = [_public_player(s, i) for i in range(s.seats)]
    out: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        players = list(public_players)
        if seat is not None:  # the viewer's own entry differs only by the hand
            players[seat] = {**public_players[seat], "hand": [ref(c) for c in s.players[seat].hand]}
        out[seat] = {
            **base,
            "you": seat,
            "players": players,
            "scry": [ref(c) for c in s.turn.scry] if seat is not None and seat == s.current else [],
            "prompt": prompt(s, seat, legal.get(seat) if legal and seat is not None else None),
        }
    return out


def _public(s: State) -> dict[str, Any]:
    t = s.turn
    res = result(s)
    return {
        "game": "london",
        "seats": s.seats,
        "turn_no": s.turn_no,
        "current": None if s.over else s.current,
        "step": t.step,
        "action": t.action,
        "deck": {"count": len(s.deck), "era": CARDS[s.deck[-1]].era if s.deck else None},
        "board": {"spaces_per_row": len(s.board[0]),
                  "rows": [[ref(c) if c is not None else None for c in row] for row in s.board]},
        "market": list(s.market),
        "borough_deck": len(s.borough_deck),
        "loan_supply": s.loan_supply,
        "box_count": len(s.box),
        "turn": {
            "draws_done": t.draws_done, "draws_left": t.draws_left, "developed": t.developed,
            "free_colour": t.free_colour, "built": list(t.built), "activated": list(t.activated),
            "borough_done": t.borough_done, "repay_open": t.repay_open,
            "pending": ref(t.pending) if t.pending is not None else None,
            "looking_at": len(t.scry),
        },
        "endgame": {"triggered": s.endgame, "final_turns_left": s.final_turns_left if s.endgame else None},
        "over": s.over,
        "result": res.as_json() if res is not None else None,
    }
