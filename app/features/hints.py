"""Hints at casual tables: a seat asks the good bot about its current decision.

A table allows hints only when its founder chose so. The hint is the good bot's own weighing
(engines/bots ``weigh``): its best two or three moves with the playouts that began with each and
their average result, computed in the bot workers (app/tables/bot_pool.py: the same bounded queue and
the same thinking time as a bot's move, never on the event loop) on a determinization of what the
seat sees. Its first move is the move a good bot would play there, but where the bot's own rule
decides without searching and the game names rivals to the rule's pick (A Game of Thrones'
planning): the best of them played out, each with its playouts' average (``how`` "playouts").

A hint is public, its content private: the log says "Ada asked for a hint" (stored, like a seat
changing hands, as a line after the move it was asked at) and the end screen counts each seat's
hints. One per seat and decision: asking again at the same decision answers the same hint (from
this process's memory, or searched again in another process) and is neither logged nor counted
twice, whichever process it reaches.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any

import orjson
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.play.hub import Hub
from app.play.journal import Journal
from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.notify import Notifier
from app.server.errors import ApiError
from app.storage.models import HintAsked, SeatChange, utcnow
from app.tables.bot_pool import BotPool, plays_bots

HINT_ASKED = "hint"
"""The notification other processes hear an ask by: its seat ``s``, decision ``q`` and line ``x``."""

# (the journal's SQLite path: its notifier has no one else to tell, one process holds the tables)
SQLITE_ASK = "INSERT INTO hints_asked (table_id, seat, seq, created_at) VALUES (?, ?, ?, ?)"
SQLITE_LINE = "INSERT INTO seat_changes (table_id, seq, seat, text, created_at) VALUES (?, ?, ?, ?, ?)"

REMEMBERED = 512
"""Hints kept in memory to answer a second ask at the same decision without searching again."""


class Hints:
    def __init__(self, tables: LiveTables, hub: Hub, notifier: Notifier, pool: BotPool, journal: Journal,
                 think_seconds: float = 0.9) -> None:
        self.tables = tables
        self.journal = journal
        self.hub = hub
        self.notifier = notifier
        self.pool = pool
        self.think_seconds = think_seconds
        self._given: OrderedDict[tuple[int, int, int], dict[str, Any]] = OrderedDict()
        self._searching: dict[tuple[int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self.given = 0
        hub.listeners.notices[HINT_ASKED] = self._heard

    async def ask(self, live: LiveTable, player: PlayerInfo) -> dict[str, Any]:
        """The hint for ``player``'s current decision; the ask logged and counted once."""
        seat = self._check(live, player)
        seq = live.seq
        key = (live.id, seat, seq)
        answer = self._given.get(key)
        if answer is None:
            # Asks at once for one decision share one search: a seat pressing many times never
            # holds more than one place in the bots' queue, which every table's bots share.
            searching = self._searching.get(key)
            if searching is None:
                searching = self._searching[key] = asyncio.ensure_future(self._search(live, seat, seq))
                searching.add_done_callback(lambda _: self._searching.pop(key, None))
            answer = await asyncio.shield(searching)
            self._given[key] = answer
            while len(self._given) > REMEMBERED:
                self._given.popitem(last=False)
        await self._record(live.id, player, seq)
        self.given += 1
        return answer

    def _check(self, live: LiveTable, player: PlayerInfo) -> int:
        if not live.hints:
            raise ApiError(403, "hints_off", "This table was founded without hints.")
        if live.status != "playing" or player.seat is None:
            raise ApiError(409, "not_playing", "Hints are for a game in progress.")
        if not plays_bots(live.engine):
            raise ApiError(409, "no_hints_here", f"{live.engine.title} has no bot to give hints.")
        if player.bot is not None:
            raise ApiError(409, "seat_changed_hands", "A bot plays this seat now.")
        if player.seat not in live.awaiting:
            raise ApiError(409, "not_your_turn", "A hint is for your own decision: it is not your turn.")
        return player.seat

    async def _search(self, live: LiveTable, seat: int, seq: int) -> dict[str, Any]:
        table_id = live.id

        def encoded() -> bytes | None:
            """Still this decision once a worker is free? The state to weigh it on."""
            now = self.tables.cached(table_id)
            if now is None or not now.showable or now.seq != seq or seat not in now.awaiting:
                return None
            return orjson.dumps(now.engine.encode(now.state))

        started = time.monotonic()
        weighed = await self.pool.hint(live.game, seat, started + self.think_seconds, encoded)
        if weighed is None:
            raise ApiError(409, "stale", "The table moved on while the hint was being worked out; ask again.")
        labels = _labels(live, seat)
        for w in weighed["moves"]:
            w["label"] = labels.get(orjson.dumps(w["move"], option=orjson.OPT_SORT_KEYS))
        return {"seq": seq, "seat": seat, **weighed, "seconds": round(time.monotonic() - started, 3)}

    async def _record(self, table_id: int, player: PlayerInfo, seq: int) -> None:
        """Log the ask and count it, once per seat and decision (the database's unique key
        settles a race between two processes); the table's connections here and in other
        processes are sent the new line once it is stored."""
        async with self.tables.hold(table_id) as held:
            if held is None or player.seat is None:
                return
            seat = player.seat
            text = f"{held.seat_names().get(seat, player.name)} asked for a hint."
            if not await self._store(table_id, seat, seq, text):
                return  # asked already at this decision (here or through another process)
            # The copy held is the stored table but for this line and count: both are added to
            # it, rather than the table rebuilt from the database.
            held.hints_asked[seat] = held.hints_asked.get(seat, 0) + 1
            self._tell(held, seat, seq, text)

    async def _store(self, table_id: int, seat: int, seq: int, text: str) -> bool:
        """The ask and its line, stored once; False when they were already. With SQLite through
        the journal, as a move: stored in a session of its own, the ask held the write lock
        across several trips to the driver's thread, and one ask in three made a move's commit
        wait for it (docs/PERFORMANCE.md, "Hints beside the humans")."""
        stamp = utcnow().isoformat(sep=" ")
        stored = await self.journal.insert_once([(SQLITE_ASK, (table_id, seat, seq, stamp)),
                                                 (SQLITE_LINE, (table_id, seq, seat, text, stamp))])
        if stored is not None:
            return stored
        try:
            async with self.tables.sessions() as s, s.begin():
                s.add(HintAsked(table_id=table_id, seat=seat, seq=seq))
                s.add(SeatChange(table_id=table_id, seq=seq, seat=seat, text=text))
                await self.notifier.in_transaction(s, table_id, HINT_ASKED, s=seat, q=seq, x=text)
        except IntegrityError:
            return False
        return True

    async def _heard(self, payload: dict[str, Any]) -> None:
        """Another process stored an ask at a table: its line and the seat's count here too."""
        table_id, seat, seq, text = int(payload["t"]), int(payload["s"]), int(payload["q"]), str(payload["x"])
        async with self.tables.hold(table_id) as held:
            if held is None:
                return
            # The count as stored: a copy loaded here around that ask may hold it already.
            async with self.tables.sessions() as s:
                asked = await s.scalar(select(func.count()).select_from(HintAsked)
                                       .where(HintAsked.table_id == table_id, HintAsked.seat == seat))
            held.hints_asked[seat] = int(asked or 0)
            self._tell(held, seat, seq, text)

    def _tell(self, live: LiveTable, seat: int, seq: int, text: str) -> None:
        """The stored line into the table's log here (once) and to its connections, and the
        public summary with the counts."""
        if (seq, seat, text) not in live.seat_changes:
            newest = live.add_line(seq, seat, text)
            self.hub.push_line(live, seq, text, newest)
        self.hub.push_table(live)


def _labels(live: LiveTable, seat: int) -> dict[bytes, str]:
    """The seat's prompt's labels of its listed moves, by move (its fields in a fixed order)."""
    if live.state is None:
        return {}
    prompt = live.engine.view(live.state, seat).get("prompt") or {}
    return {orjson.dumps(c["move"], option=orjson.OPT_SORT_KEYS): str(c.get("label", ""))
            for c in prompt.get("choices", ()) if isinstance(c, dict) and "move" in c}
