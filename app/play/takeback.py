"""Taking back moves within one's own turn (Board Game Arena's policy): what may be taken back,
and how the stored history is followed when it holds take-backs.

The engine says, move by move, whether a move may be taken back (``reversible``: it reveals
nothing and hands the game to nobody else; an engine without the method allows none). A seat's
latest moves, each reversible, with no other seat's move after them, form its *turn chain*; the
state before the chain's first move is its boundary. Taking back replays the chain from the
boundary without its last move. A live table does not keep the boundary (a London state is about
13 KB as JSON, held for every table in the middle of a turn, and encoding it cost every turn's
first move): a take-back reads it from the store when asked (``LiveTables.boundary``). A replay
that meets a stored take-back keeps it, encoded, from the chain's start.

A take-back is stored as an entry of its own in the move history, never by deleting a move: a
row whose move is ``{"undo": T}`` (engine moves always have a "type"; this has none), meaning
"the state is again the one after entry T". Everything that replays stored moves (loading a
table, catching up with another process, ``parlour verify``, replays) follows the history
through ``History``.

A move the clock played when a seat's time ran out (app/tables/clocks.py) is never taken back, nor is
anything before it: it ends the turn chain. Its stored log opens with a line saying whose time
ran out, which also marks it (``time_out_line``), so every process, and a load after a restart,
knows it from the stored entry alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from engines.base import Engine, Move

TAKE_BACK_KEY = "undo"
TIME_OUT_KEY = "timeout"


class TakeBackGap(LookupError):
    """A take-back reaches before what this copy of the history holds (a load that began at a
    snapshot inside the chain): replay from the start instead."""


class BoundaryNotKept(TakeBackGap):
    """The chain a take-back returns into keeps no boundary: read the state after
    ``chain.base_seq`` from the store, set it as the chain's base, and take back again."""

    def __init__(self, chain: TurnChain) -> None:
        super().__init__(f"the state after entry {chain.base_seq} is not kept here")
        self.chain = chain


def is_take_back(move: Any) -> bool:
    return type(move) is dict and TAKE_BACK_KEY in move and "type" not in move


def take_back_entry(target: int) -> dict[str, int]:
    return {TAKE_BACK_KEY: target}


def reversible(engine: Engine, state: Any, seat: int, move: Move) -> bool:
    method = getattr(engine, "reversible", None)
    return bool(method(state, seat, move)) if method is not None else False


def offers_take_backs(engine: Engine) -> bool:
    """May any of the game's moves be taken back (a ``reversible`` of its own, not the kit's no)?"""
    from engines.kit.engine import KitEngine

    method = getattr(type(engine), "reversible", None)
    return method is not None and method is not getattr(KitEngine, "reversible", None)


def time_out_line(seat: int) -> dict[str, Any]:
    """The log line opening a move the clock played for ``seat``; its key marks the entry."""
    return {"text": "{seat:%d}'s time ran out" % seat, TIME_OUT_KEY: True}  # noqa: UP031 -- literal braces


def timed_out(events: str | bytes | Sequence[Any] | None) -> bool:
    """Was this stored entry (its events: the stored JSON text, or parsed) played by the clock
    on a time-out? Engines' log lines hold only "text" and "private", so the text is parsed only
    when the key is in it."""
    if events is None:
        return False
    if isinstance(events, bytes):
        if f'"{TIME_OUT_KEY}"'.encode() not in events:
            return False
        events = orjson.loads(events)
    elif isinstance(events, str):
        if f'"{TIME_OUT_KEY}"' not in events:
            return False
        events = orjson.loads(events)
    return any(type(ev) is dict and ev.get(TIME_OUT_KEY) is True for ev in events)


@dataclass(slots=True)
class TurnChain:
    """A seat's latest moves that may still be taken back."""

    seat: int
    base_seq: int  # the entry whose state is the boundary
    base: bytes | None  # that state, encoded as JSON; None: not kept, read from the store when needed
    moves: list[tuple[int, Move]] = field(default_factory=list)  # (seq, move), oldest first

    def target(self) -> int:
        """The entry whose state a take-back of the last move returns to."""
        return self.moves[-2][0] if len(self.moves) > 1 else self.base_seq


def chain_after(engine: Engine, chain: TurnChain | None, state: Any, seq: int, seat: int,
                move: Move, capture: bool = True, keep_base: bool = True) -> TurnChain | None:
    """The chain once ``move`` (entry ``seq``) is played; call it before playing it, and keep
    the answer only if the move is accepted. ``capture=False``: nothing after this entry will
    need its chain (see ``capture_points``), so none is kept and no state is encoded.
    ``keep_base=False``: a chain this move starts keeps no boundary (see ``base_points``)."""
    if not capture:
        return None
    try:
        takes_back = reversible(engine, state, seat, move)
    except Exception:  # a move the rules will refuse anyway (a malformed one) is no boundary
        takes_back = False
    if not takes_back:
        return None
    if chain is None or chain.seat != seat:
        chain = TurnChain(seat, seq - 1, orjson.dumps(engine.encode(state)) if keep_base else None)
    else:
        chain = TurnChain(chain.seat, chain.base_seq, chain.base, list(chain.moves))
    chain.moves.append((seq, move))
    return chain


def capture_points(entries: Sequence[tuple[int, Any]]) -> list[bool]:
    """For stored entries (seat, move) followed in bulk: may the turn chain at each still
    matter? Only when a take-back follows before another seat's entry, or no other seat's entry
    follows at all (the turn still open). Elsewhere a replay keeps no chain, and so encodes no
    state: a whole London replayed keeps chains in its last turn only, not in its hundred."""
    return chain_points(entries)[0]


def base_points(entries: Sequence[tuple[int, Any]]) -> list[bool]:
    """For the same entries: must a chain starting at each keep its boundary? Only when a
    stored take-back follows before another seat's entry; the open turn's chain is kept without
    it (a take-back asked later reads it from the store)."""
    return chain_points(entries)[1]


def chain_points(entries: Sequence[tuple[int, Any]]) -> tuple[list[bool], list[bool]]:
    """``capture_points`` and ``base_points`` of the same entries, in one pass."""
    capture, bases = [False] * len(entries), [False] * len(entries)
    open_turn, take_back_ahead, seat_ahead = True, False, None
    for i in range(len(entries) - 1, -1, -1):
        seat, move = entries[i]
        if seat_ahead is not None and seat != seat_ahead:
            open_turn, take_back_ahead = False, False
        capture[i] = open_turn or take_back_ahead
        bases[i] = take_back_ahead
        take_back_ahead = take_back_ahead or is_take_back(move)
        seat_ahead = seat
    return capture, bases


def can_take_back(chain: TurnChain | None, seat: int | None) -> bool:
    return chain is not None and seat is not None and chain.seat == seat and bool(chain.moves)


def restore(engine: Engine, chain: TurnChain | None, seat: int, target: int) -> tuple[Any, TurnChain]:
    """The state again after entry ``target`` of ``seat``'s chain, and the chain that is left.
    Raises ``TakeBackGap`` when the chain does not reach that far (or is another seat's, or keeps
    no boundary: see ``BoundaryNotKept``), and ``ValueError`` when ``target`` is not a point of
    the chain."""
    if chain is None or chain.seat != seat or not chain.moves or target < chain.base_seq:
        raise TakeBackGap(f"no turn chain of seat {seat} reaches back to entry {target}")
    kept = [(s, m) for s, m in chain.moves if s <= target]
    if target != chain.base_seq and (not kept or kept[-1][0] != target):
        raise ValueError(f"entry {target} is not a point of seat {seat}'s turn")
    if len(kept) == len(chain.moves):
        raise ValueError("a take-back takes back at least one move")
    if chain.base is None:
        raise BoundaryNotKept(chain)
    state = engine.decode(orjson.loads(chain.base))
    for _, move in kept:
        engine.play(state, seat, move)
    return state, TurnChain(seat, chain.base_seq, chain.base, kept)


class History:
    """Follows stored entries (moves and take-backs) on a state, as a live table, a verifier or
    a replay does."""

    __slots__ = ("chain", "engine", "seq", "state")

    def __init__(self, engine: Engine, state: Any, seq: int = 0, chain: TurnChain | None = None) -> None:
        self.engine = engine
        self.state = state
        self.seq = seq
        self.chain = chain

    def follow(self, seq: int, seat: int, move: Mapping[str, Any], capture: bool = True,
               by_clock: bool = False) -> None:
        """Apply entry ``seq`` (the next one). Raises ``IllegalMove`` for a move the rules refuse,
        ``TakeBackGap`` / ``ValueError`` for a take-back that cannot be followed. ``capture``: see
        ``capture_points``; ``by_clock``: the clock played it, which ends the turn chain."""
        if is_take_back(move):
            target = move[TAKE_BACK_KEY]
            if type(target) is not int:
                raise ValueError("a take-back names the entry it returns to")
            self.state, self.chain = restore(self.engine, self.chain, seat, target)
        else:
            chain = None if by_clock else chain_after(self.engine, self.chain, self.state, seq, seat, dict(move),
                                                       capture)
            self.engine.play(self.state, seat, dict(move))
            self.chain = chain
        self.seq = seq
