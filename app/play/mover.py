"""Playing a move, in the order lichess's MovePlayer does it: check seat and turn, ask the
engine, store, then broadcast.

A move changes the live state only once it is stored: under the table's lock it is encoded
first (a move the journal could not write is refused before it touches the game), applied to the
cached state with the table marked ``pending`` (nothing is shown from a pending state), stored,
and only then published: seq, log, awaited seats, views. If storing fails, or another server
process stored that seq first, the table is rebuilt from the database: the change is undone
exactly, and the rebuilt table is what everyone is shown.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from app.play.hub import Hub
from app.play.journal import Journal, MoveWrite
from app.play.live import LiveTable, LiveTables, PlayerInfo, encode_events
from app.play.takeback import TurnChain, can_take_back, chain_after, restore, take_back_entry, time_out_line
from app.server.errors import ApiError
from app.server.metrics import RecentTimes, now
from engines.base import IllegalMove, canonical_move

log = logging.getLogger("parlour.mover")


def stale(live: LiveTable | None, seq: int) -> ApiError:
    return ApiError(409, "stale", "The table moved on since you last looked; here is where it stands now.",
                    seq=live.seq if live is not None else seq)


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def whole_seq(seq: object, refusal: str) -> int:
    """The seq a move or a take-back names: a whole number (a bool is none), else 422 ``refusal``."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ApiError(422, "malformed_move", refusal)
    return seq


class MovePlayer:
    def __init__(self, tables: LiveTables, hub: Hub, journal: Journal, snapshot_every: int) -> None:
        self.tables = tables
        self.journal = journal
        self.times = RecentTimes()
        self.hub = hub
        self.snapshot_every = max(1, snapshot_every)

    async def play(self, live: LiveTable, player: PlayerInfo, seq: object, move: object, bot: bool = False,
                   timeout: bool = False) -> int:
        """Apply ``move`` for ``player`` (``bot``: for the bot playing its seat; ``timeout``: for the
        clock, the seat's time having run out) if it is legal at ``seq``; return the new seq."""
        marks = [now()]
        new_seq = await self._play(live.id, player.token_hash, seq, move, bot, marks, timeout)
        ended = now()
        parts = None
        if len(marks) == 4:  # held, applied, stored: the rest is publishing
            parts = {"held": marks[1] - marks[0], "applied": marks[2] - marks[1], "stored": marks[3] - marks[2],
                     "shown": ended - marks[3]}
        self.times.record(ended - marks[0], parts)
        return new_seq

    async def _play(self, table_id: int, token_hash: str, seq: object, move: object, bot: bool,
                    marks: list[float], timeout: bool = False) -> int:
        """``play``'s work; ``marks`` gets the moments the table was held, the move applied and
        stored (app/server/metrics.py's parts)."""
        seq = whole_seq(seq, "A move names the seq it was chosen at (an integer).")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise ApiError(422, "malformed_move", 'A move is an object with a "type", e.g. {"type": "pass"}.')
        try:  # what the journal could not write is refused before it touches the game
            orjson.dumps(move)
        except (TypeError, orjson.JSONEncodeError):
            raise ApiError(422, "malformed_move", "A move holds only JSON values, with whole numbers "
                           "of at most 64 bits.") from None
        async with self.tables.hold(table_id) as held:
            marks.append(now())
            live, player, seat = await self._seated(held, token_hash, seq, "The game is over; no more moves.")
            if (player.bot is not None) != bot:  # the seat changed hands (app/tables/bot_seats.py)
                raise ApiError(409, "seat_changed_hands", "A bot plays this seat now: open your seat's page to "
                               "take it back." if player.bot else "The seat's player took it back.")
            if seat not in live.awaiting:
                names = live.seat_names()
                who = ", ".join(names.get(s, "?") for s in live.awaiting) or "nobody"
                raise ApiError(422, "not_your_turn", f"It is not your turn: the table awaits {who}.")
            live.pending = True
            try:
                write, chain = self._apply(live, seat, move, timeout)
            except ApiError:
                await self._undo(live)
                raise
            except Exception:
                log.exception("applying a move of table %s failed", live.id)
                await self._undo(live)
                raise ApiError(503, "not_stored", "The move could not be stored; nothing was changed. "
                               "Try again.") from None
            marks.append(now())
            return await self._store(live, seq, write, chain, "move", marks)

    async def _seated(self, live: LiveTable | None, token_hash: str, seq: int,
                      over: str) -> tuple[LiveTable, PlayerInfo, int]:
        """What a move and a take-back both ask of the held table: it is there and its game on,
        ``seq`` is its own (once caught up with other processes), and the token holds a seat there
        (the table, that seat's player and the seat). ``over``: the refusal's sentence once the
        game is over."""
        if live is None:
            raise ApiError(404, "unknown_table", "This table is gone.")
        if live.status == "gathering":
            raise ApiError(409, "not_started", "The game has not begun yet.")
        if seq > live.seq and live.status == "playing":  # another server process is ahead
            await self._catch_up(live, seq)
        if live.status == "finished":
            raise ApiError(409, "finished", over)
        if seq != live.seq:
            raise stale(live, seq)
        player = live.player_by_hash(token_hash)
        if player is None or player.seat is None:
            raise ApiError(403, "no_seat", "You have no seat at this table.")
        return live, player, player.seat

    async def _store(self, live: LiveTable, seq: int, write: MoveWrite, chain: TurnChain | None, what: str,
                     marks: list[float] | None = None) -> int:
        """The end of every entry (a move, a take-back) applied to a held table: store it, then
        publish it. If storing fails, or another server process stored that seq first, the table
        is rebuilt from the database (the change undone) and the entry refused. The new seq."""
        try:
            stored = await self.journal.append(write)
        except ApiError:
            await self._undo(live)
            raise
        except Exception:
            log.exception("storing a %s of table %s failed", what, live.id)
            await self._undo(live)
            raise ApiError(503, "not_stored", f"The {what} could not be stored; nothing was changed. "
                           "Try again.") from None
        if not stored:  # another server process stored this seq first
            fresh = await self._undo(live)
            raise stale(fresh, seq)
        if marks is not None:
            marks.append(now())
        self._publish(live, write, chain)
        return live.seq

    def _publish(self, live: LiveTable, write: MoveWrite, chain: TurnChain | None) -> None:
        """A stored entry (a move or a take-back) becomes the table's: seq, log, chain, views."""
        live.pending = False
        live.seq = write.seq
        live.chain = chain
        live.log.append(write.seq, write.events, parsed=write.parsed)
        if write.snapshot is not None:
            live.state_bytes = len(write.snapshot)
        before = live.status
        live.settle()
        if live.status != before:
            self.hub.push_table(live)
        self.hub.push_views(live)

    async def take_back(self, live: LiveTable, player: PlayerInfo, seq: object) -> int:
        """Take back ``player``'s last move of their turn, if they still may (see app/play/takeback.py):
        the state is replayed from the turn's boundary without it, and a take-back entry is
        stored after the moves (none is deleted). Return the new seq."""
        seq = whole_seq(seq, "A take-back names the seq it was asked at (an integer).")
        async with self.tables.hold(live.id) as held:
            live, me, seat = await self._seated(held, player.token_hash, seq,
                                                "The game is over; nothing can be taken back.")
            if me.bot is not None:  # refused like the player's moves while a bot plays the seat
                raise ApiError(409, "seat_changed_hands", "A bot plays this seat now: open your seat's page to "
                               "take it back.")
            if not can_take_back(live.chain, seat):
                raise ApiError(409, "cannot_undo", "There is nothing of yours to take back: a move that "
                               "revealed something (a card drawn, a card turned up), another player's "
                               "move, a move played when your time ran out or the end of your turn "
                               "stands.")
            chain = live.chain
            assert chain is not None
            target = chain.target()
            if chain.base is None:
                chain.base = await self.tables.boundary(live, chain.base_seq)
            live.pending = True
            try:
                state, rest = restore(live.engine, chain, seat, target)
                new_seq = live.seq + 1
                events = [{"text": "{seat:%d} took back a move" % seat}]  # noqa: UP031 -- literal braces
                write = MoveWrite(live.id, new_seq, seat, dumps(take_back_entry(target)), dumps(events),
                                  snapshot=dumps(live.engine.encode(state)) if new_seq % self.snapshot_every == 0
                                  else None, parsed=events)
                live.state = state
            except Exception:
                log.exception("taking back a move of table %s failed", live.id)
                await self._undo(live)
                raise ApiError(503, "not_stored", "The take-back could not be stored; nothing was changed. "
                               "Try again.") from None
            return await self._store(live, seq, write, rest, "take-back")

    def _apply(self, live: LiveTable, seat: int, move: dict[str, Any],
               timeout: bool = False) -> tuple[MoveWrite, TurnChain | None]:
        """Play the move on the cached state and encode what is stored; the caller undoes it
        if anything here fails. Also the turn chain the move leaves (app/play/takeback.py): none after
        a time-out's move, which is never taken back (its log line marks it so when stored)."""
        engine = live.engine
        # the chain keeps no boundary: a take-back reads it from the store (LiveTables.boundary)
        chain = None if timeout else chain_after(engine, live.chain, live.state, live.seq + 1, seat, move,
                                                 keep_base=False)
        try:
            events = engine.play(live.state, seat, move)
        except IllegalMove as exc:  # the state is as it was
            live.pending = False
            raise ApiError(422, exc.code, live.render_text(exc.message), rule=exc.rule) from None
        except Exception:
            log.exception("engine %s failed on a move", live.game)
            raise ApiError(422, "rejected_move", "The rules engine could not apply this move; "
                           "nothing was changed.") from None
        try:
            seq = live.seq + 1
            result = engine.result(live.state)
            encoded = encode_events(events)
            if timeout:
                encoded.insert(0, time_out_line(seat))
            canonical = canonical_move(engine, move)
            if chain is not None:  # the chain replays the stored form
                chain.moves[-1] = (seq, canonical)
            return MoveWrite(
                live.id, seq, seat, dumps(canonical), dumps(encoded),
                snapshot=dumps(engine.encode(live.state)) if seq % self.snapshot_every == 0 else None,
                result=dumps(result.as_json()) if result is not None else None, parsed=encoded), chain
        except Exception:
            log.exception("encoding a move of %s failed", live.game)
            raise ApiError(422, "rejected_move", "This move could not be recorded; nothing was changed.") from None

    async def _undo(self, live: LiveTable) -> LiveTable | None:
        """Rebuild a held table from the database (a no-op when nothing was applied), and show
        the connections anything they missed meanwhile."""
        if not live.pending:
            return live
        fresh = await self.tables.reload(live)
        if fresh is not None:
            self.hub.table_changed(fresh)
        return fresh

    async def _catch_up(self, live: LiveTable, seq: int) -> None:
        """Apply the moves other processes stored. A cache that cannot take them is rebuilt,
        and the move is answered stale: it is judged again against the rebuilt table."""
        try:
            await self.tables.catch_up(live)
        except Exception:
            log.warning("catching up table %s failed; rebuilding it", live.id, exc_info=True)
            live.pending = True
            raise stale(await self._undo(live), seq) from None
