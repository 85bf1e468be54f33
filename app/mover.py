"""Playing a move, in the order lichess's MovePlayer does it: check seat and turn, ask the
engine, store, then broadcast."""

from __future__ import annotations

import logging
from typing import Any

from app.errors import ApiError
from app.hub import Hub
from app.journal import Journal, MoveWrite
from app.live import LiveTable, LiveTables, LogEntry, PlayerInfo, encode_events
from app.metrics import MoveTimes, now
from engines.base import IllegalMove

log = logging.getLogger("parlour.mover")


class SeqTaken(Exception):
    """The move's seq was stored by another server process first."""


def stale(live: LiveTable) -> ApiError:
    return ApiError(409, "stale", "The table moved on since you last looked; here is where it stands now.",
                    seq=live.seq)


class Mover:
    def __init__(self, live: LiveTables, hub: Hub, journal: Journal, snapshot_every: int) -> None:
        self.live = live
        self.journal = journal
        self.times = MoveTimes()
        self.hub = hub
        self.snapshot_every = max(1, snapshot_every)

    async def play(self, live: LiveTable, player: PlayerInfo, seq: object, move: object) -> int:
        """Apply ``move`` for ``player`` if it is legal at ``seq``; return the new seq."""
        started = now()
        new_seq = await self._play(live, player, seq, move)
        self.times.record(now() - started)
        return new_seq

    async def _play(self, live: LiveTable, player: PlayerInfo, seq: object, move: object) -> int:
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ApiError(422, "malformed_move", "A move names the seq it was chosen at (an integer).")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise ApiError(422, "malformed_move", 'A move is an object with a "type", e.g. {"type": "pass"}.')
        async with live.lock:
            if live.status == "gathering":
                raise ApiError(409, "not_started", "The game has not begun yet.")
            if live.status == "finished":
                raise ApiError(409, "finished", "The game is over; no more moves.")
            if seq > live.seq:  # another server process is ahead of this cache
                await self.live.catch_up(live)
            if seq != live.seq:
                raise stale(live)
            seat = player.seat
            engine = live.engine
            if seat is None:
                raise ApiError(403, "no_seat", "You have no seat at this table.")
            awaiting = engine.to_act(live.state)
            if seat not in awaiting:
                names = live.names_by_seat()
                who = ", ".join(names.get(s, "?") for s in sorted(awaiting)) or "nobody"
                raise ApiError(422, "not_your_turn", f"It is not your turn: the table awaits {who}.")
            try:
                events = engine.play(live.state, seat, move)
            except IllegalMove as exc:
                raise ApiError(422, exc.code, live.render_text(exc.message), rule=exc.rule) from None
            except Exception:
                # An engine failure may have left the state half-changed: rebuild it from the store.
                log.exception("engine %s failed on a move", live.game)
                self.live.forget(live.id)
                raise ApiError(422, "rejected_move", "The rules engine could not apply this move; "
                               "nothing was changed.") from None
            new_seq = live.seq + 1
            encoded = encode_events(events)
            result = engine.result(live.state)
            try:
                await self._store(live, seat, new_seq, move, encoded, result)
            except SeqTaken:
                self.live.forget(live.id)  # another server process stored this seq first
                fresh = await self.live.get(live.id)
                raise stale(fresh or live) from None
            except Exception:
                self.live.forget(live.id)
                raise
            live.seq = new_seq
            live.log.append(LogEntry(new_seq, encoded))
            if result is not None:
                live.status = "finished"
                live.result = result.as_json()
        if result is not None:
            self.hub.push_table(live)
        self.hub.push_views(live)
        return new_seq

    async def _store(self, live: LiveTable, seat: int, seq: int, move: dict[str, Any],
                     events: list[dict[str, Any]], result: Any) -> None:
        snapshot = live.engine.encode(live.state) if seq % self.snapshot_every == 0 else None
        stored = await self.journal.append(MoveWrite(
            live.id, seq, seat, move, events, snapshot=snapshot,
            result=result.as_json() if result is not None else None))
        if not stored:
            raise SeqTaken
