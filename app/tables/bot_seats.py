"""Bots at the table: seats added as bots in the waiting room, absent players' seats handed to a
bot by the others' vote (and taken back), and the bots' moves.

**Who plays.** A seat's player row says who plays it now: ``bot`` is a bot's level, or None for
its player; ``is_bot`` marks a seat added as a bot (nobody holds its token). A bot's move goes
through the mover like anyone's (store, then show), named by the seq it was chosen at: a move
chosen for a table that moved on is refused (409) and never stored.

**Where it thinks.** In the server's one bot pool (app/tables/bot_pool.py), never on the event loop:
the table's encoded state goes to a worker process, which searches a determinization of it
until a deadline (``think_seconds`` after the bot was asked), and the move comes back; the
queue is bounded there. Humans' moves never go through the pool. The answer is shown after a
human-like ``delay`` (counted from the ask, so thinking fills it).

**Which process plays a bot.** With several server processes on one PostgreSQL, the one
holding the table's advisory lock (``pg_try_advisory_lock``, on a connection of its own) drives
its bots; another takes over only when that connection goes (the process ended). On SQLite
there is one process. The unique (table, seq) of the moves would keep a second writer out
anyway; the lock keeps a second process from even thinking for the bot.

**Absent players.** The founder sets a time (``bot_after_seconds``, default off). A player
without an open socket for longer than that may have their seat handed to a bot: each other
present player may vote, and a majority of those present hands it over. The player takes the
seat back by opening their seat's address. Both are log lines. Absence is timed by this
process from when it saw the player go (or first saw the table): a restart only makes the wait
longer, never shorter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import orjson
from sqlalchemy import delete, select, update

from app.play.hub import Hub
from app.play.live import LiveTable, LiveTables
from app.play.mover import MovePlayer
from app.play.notify import Notifier
from app.server.config import is_postgres
from app.server.errors import ApiError
from app.storage.models import HandoverVote, Player, SeatChange
from app.storage.tokens import hash_token, new_token
from app.tables.bot_pool import BotPool, plays_bots
from app.tables.rooms import find_seat, free_seat, seat_at
from engines.bots import LEVELS

log = logging.getLogger("parlour.bots")
LOCK_SPACE = 0x626F  # the first key of the bots' advisory locks ("bo"); the second is the table id
CLAIM_AGAIN_SECONDS = 2.0


def check_level(level: object) -> str:
    if level not in LEVELS:
        raise ApiError(422, "unknown_level", f"A bot's level is one of {', '.join(LEVELS)}.")
    return str(level)


def bot_name(level: str, taken: set[str]) -> str:
    """"Easy bot 1", "Good bot 2": the first free number; the name says it is a bot."""
    n = 1
    while f"{level.capitalize()} bot {n}".casefold() in taken:
        n += 1
    return f"{level.capitalize()} bot {n}"


class Driver:
    """Which tables' bots this process plays: on PostgreSQL, those whose advisory lock it holds
    on its own connection (released when the connection goes); on SQLite, all."""

    def __init__(self, database_url: str) -> None:
        self.dsn = database_url.replace("postgresql+psycopg://", "postgresql://", 1) \
            if is_postgres(database_url) else None
        self.held: set[int] = set()
        self._conn: Any = None
        self._lock = asyncio.Lock()
        self._tried: dict[int, float] = {}

    async def claim(self, table_id: int) -> bool:
        if self.dsn is None or table_id in self.held:
            return True
        now = time.monotonic()
        if now - self._tried.get(table_id, -1e9) < CLAIM_AGAIN_SECONDS:
            return False
        self._tried[table_id] = now
        got = await self._ask("SELECT pg_try_advisory_lock(%s, %s)", table_id)
        if got:
            self.held.add(table_id)
            self._tried.pop(table_id, None)
        return bool(got)

    async def release(self, table_id: int) -> None:
        if self.dsn is not None and table_id in self.held:
            self.held.discard(table_id)
            await self._ask("SELECT pg_advisory_unlock(%s, %s)", table_id)

    async def _ask(self, sql: str, table_id: int) -> Any:
        import psycopg

        assert self.dsn is not None, "only PostgreSQL's locks are asked for"
        async with self._lock:
            try:
                if self._conn is None or self._conn.closed or self._conn.broken:
                    self.held.clear()  # a new connection holds none of the old one's locks
                    self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                row = await (await self._conn.execute(sql, (LOCK_SPACE, table_id))).fetchone()
                return row[0] if row else None
            except Exception:
                log.warning("the bots' lock connection failed", exc_info=True)
                self.held.clear()
                with contextlib.suppress(Exception):
                    await self._conn.close()
                self._conn = None
                return None

    async def stop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()


class BotSeats:
    def __init__(self, tables: LiveTables, hub: Hub, mover: MovePlayer, notifier: Notifier, pool: BotPool, *,
                 database_url: str, delay: float = 0.7, think_seconds: float = 0.9) -> None:
        self.tables = tables
        self.hub = hub
        self.mover = mover
        self.notifier = notifier
        self.pool = pool
        self.delay = max(0.0, delay)
        self.think_seconds = think_seconds
        self.driver = Driver(database_url)
        self._turns: dict[tuple[int, int], tuple[int, asyncio.Task[None]]] = {}
        self._away: dict[int, dict[int, float]] = {}  # table -> player -> away since (monotonic)
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.played = 0  # bot moves stored by this process
        self.refused = 0  # bot moves the table had moved on from (409): chosen, never stored
        self.failed = 0
        hub.listeners.summary.append(self.on_table)
        hub.listeners.views.append(self.poke)
        hub.listeners.elsewhere.append(self.on_elsewhere)

    # -- lifetime -----------------------------------------------------------------------------

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        tasks = [t for _, t in self._turns.values()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for h in self._timers.values():
            h.cancel()
        await self.driver.stop()

    def stats(self) -> dict[str, Any]:
        return {"played": self.played, "refused": self.refused, "failed": self.failed, **self.pool.stats(),
                "tables_driven": len(self.driver.held) if self.driver.dsn else None}

    # -- the waiting room ---------------------------------------------------------------------

    async def add(self, token_hash: str, level: object, changed: Callable[[LiveTable], Any]) -> str:
        """The founder seats a bot of ``level`` before the start; returns its name."""
        level = check_level(level)
        live, me = await find_seat(self.tables, token_hash)
        if not me.is_founder:
            raise ApiError(403, "not_founder", "Only the player who founded the table can add a bot.")
        if not plays_bots(live.engine):
            raise ApiError(422, "no_bots", f"Bots do not play {live.engine.title} yet.")
        async with self.tables.hold(live.id) as held:
            if held is None or held.status != "gathering":
                raise ApiError(409, "already_started", "The game has begun: seats are added before the start.")
            async with self.tables.sessions() as s, s.begin():
                players = await free_seat(s, held)
                name = bot_name(level, {p.name.casefold() for p in players})
                s.add(Player(table_id=held.id, token_hash=hash_token(new_token()), name=name,
                             joined=max(p.joined for p in players) + 1, bot=level, is_bot=True))
                await self.notifier.in_transaction(s, held.id, "lobby")
            await changed(held)
        self.pool.warm()  # its workers start while the players gather
        return name

    # -- absent players -----------------------------------------------------------------------

    def on_table(self, live: LiveTable) -> None:
        """Before the table's summary is sent (presence changed, among others): time who is
        away, say whose seat the others may hand to a bot, and wake the bots."""
        self.refresh(live)
        self.poke(live)

    def refresh(self, live: LiveTable) -> None:
        live.handover = {}
        if live.status != "playing" or live.bot_after is None:
            self._away.pop(live.id, None)
            return
        connected = self.hub.connected(live.id)
        now = time.monotonic()
        away = self._away.setdefault(live.id, {})
        humans = [p for p in live.players if not p.is_bot and p.seat is not None]
        present = {p.id for p in humans if p.id in connected}
        soonest = None
        for p in humans:
            if p.id in present:
                away.pop(p.id, None)
                continue
            since = away.setdefault(p.id, now)
            if p.bot is not None:
                continue
            left = since + live.bot_after - now
            if left > 0:
                soonest = left if soonest is None else min(soonest, left)
            elif present:
                voters = live.votes.get(p.id, set()) & present
                live.handover[p.id] = {"votes": len(voters), "needed": len(present) // 2 + 1}
        if soonest is not None:  # tell the table when the next absent seat may be voted on
            old = self._timers.pop(live.id, None)
            if old is not None:
                old.cancel()
            self._timers[live.id] = asyncio.get_running_loop().call_later(soonest + 0.05, self._due, live.id)

    def _due(self, table_id: int) -> None:
        self._timers.pop(table_id, None)
        live = self.tables.cached(table_id)
        if live is not None:
            self.hub.push_table(live)

    async def vote(self, token_hash: str, seat: int, level: object) -> dict[str, Any]:
        """A present player votes to hand ``seat`` (its player away long enough) to a bot."""
        level = check_level(level)
        live, _ = await find_seat(self.tables, token_hash)
        async with self.tables.hold(live.id) as table:
            held, me = seat_at(table, token_hash)
            if held.status != "playing":
                raise ApiError(409, "not_playing", "Seats are handed to bots only while the game is played.")
            if held.bot_after is None:
                raise ApiError(409, "handover_off", "The founder did not allow absent seats to go to bots.")
            target = next((p for p in held.players if p.seat == seat), None)
            if target is None:
                raise ApiError(404, "unknown_seat", f"This table has no seat {seat}.")
            if target.bot is not None:
                raise ApiError(409, "already_bot", f"A bot already plays {target.name}'s seat.")
            if target.id == me.id:
                raise ApiError(422, "own_seat", "You cannot vote to hand your own seat to a bot.")
            self.refresh(held)
            if me.id not in self.hub.connected(held.id):
                raise ApiError(409, "not_present", "Only players present at the table vote: open the table's page.")
            counts = held.handover.get(target.id)
            if counts is None:
                raise ApiError(409, "not_away", f"{target.name} has not been away long enough "
                               f"({held.bot_after} s) for their seat to go to a bot.")
            present = {p.id for p in held.players if not p.is_bot and p.seat is not None
                       and p.id in self.hub.connected(held.id)}
            async with self.tables.sessions() as s, s.begin():
                # Lock the absent player's row: votes for one seat are counted one at a time, in
                # any process; a seat already handed over answers 409.
                res = await s.execute(update(Player).where(Player.id == target.id, Player.bot.is_(None))
                                      .values(bot=None))
                if res.rowcount != 1:
                    raise ApiError(409, "already_bot", f"A bot already plays {target.name}'s seat.")
                voters = set((await s.scalars(select(HandoverVote.voter_id)
                                              .where(HandoverVote.target_id == target.id))).all())
                if me.id not in voters:
                    s.add(HandoverVote(table_id=held.id, target_id=target.id, voter_id=me.id))
                    voters.add(me.id)
                count, needed = len(voters & present), counts["needed"]
                handed = count >= needed
                if handed:
                    await s.execute(update(Player).where(Player.id == target.id).values(bot=level))
                    await s.execute(delete(HandoverVote).where(HandoverVote.target_id == target.id))
                    s.add(SeatChange(table_id=held.id, seq=held.seq, seat=seat, text=(
                        f"{target.name} has been away: {count} of the {len(present)} players present voted, "
                        f"and a bot ({level}) now plays {target.name}'s seat. Opening the seat's address "
                        "takes it back.")))
                await self.notifier.in_transaction(s, held.id, "lobby")
            await self._changed(held)
        return {"seat": seat, "votes": count, "needed": needed, "handed": handed}

    async def reclaim(self, token_hash: str) -> None:
        """A player whose seat a bot plays opened their seat's address: the seat is theirs again."""
        found = await self.tables.by_token_hash(token_hash)
        if found is None or found[1].bot is None or found[1].is_bot:
            return
        async with self.tables.hold(found[0].id) as held:
            me = held.player_by_hash(token_hash) if held is not None else None
            if held is None or me is None or me.bot is None or held.status != "playing":
                return
            async with self.tables.sessions() as s, s.begin():
                res = await s.execute(update(Player).where(Player.id == me.id, Player.bot.is_not(None))
                                      .values(bot=None))
                if res.rowcount != 1:
                    return  # taken back through another process just now
                await s.execute(delete(HandoverVote).where(HandoverVote.target_id == me.id))
                s.add(SeatChange(table_id=held.id, seq=held.seq, seat=me.seat if me.seat is not None else -1,
                                 text=f"{me.name} is back and plays their seat again; the bot leaves it."))
                await self.notifier.in_transaction(s, held.id, "lobby")
            await self._changed(held)

    async def _changed(self, held: LiveTable) -> None:
        """Rebuild a held table after a seat changed hands; every connection is sent its whole
        view and log again (the new log line sits among the old)."""
        self.hub.resend_logs(held.id)
        fresh = await self.tables.reload(held)
        if fresh is not None:
            self.hub.table_changed(fresh)

    def on_elsewhere(self, table_id: int, kind: str) -> None:
        """Another process changed the table: a seat changing hands is a whole new log for
        this process's connections; a move may be this process's bots' turn."""
        if kind == "lobby":
            self.hub.resend_logs(table_id)
        elif kind == "moves" and table_id in self.driver.held and table_id not in self.hub.rooms:
            self._spawn(self._wake(table_id), (table_id, -1), -1)

    async def _wake(self, table_id: int) -> None:
        """A table this process drives but nobody here watches: bring it up to date, poke it."""
        async with self.tables.hold(table_id) as live:
            if live is not None:
                with contextlib.suppress(Exception):
                    await self.tables.catch_up(live)
        live = await self.tables.get(table_id)
        if live is not None:
            self.poke(live)

    # -- the bots' turns ----------------------------------------------------------------------

    def poke(self, live: LiveTable) -> None:
        """After any change shown to the table: start a turn for each awaited seat a bot plays."""
        if not live.showable or live.status != "playing":
            if live.status == "finished" and live.id in self.driver.held:
                self._spawn(self.driver.release(live.id), (live.id, -2), -1)
            return
        for seat in live.awaiting:
            player = next((p for p in live.players if p.seat == seat), None)
            if player is None or player.bot is None:
                continue
            key = (live.id, seat)
            current = self._turns.get(key)
            if current is not None and current[0] == live.seq and not current[1].done():
                continue
            self._spawn(self._turn(live.id, seat, live.seq), key, live.seq)

    def _spawn(self, coro: Any, key: tuple[int, int], seq: int) -> None:
        task = asyncio.create_task(coro)
        self._turns[key] = (seq, task)

        def done(t: asyncio.Task[None]) -> None:
            if self._turns.get(key, (0, None))[1] is t:
                del self._turns[key]

        task.add_done_callback(done)

    async def _turn(self, table_id: int, seat: int, seq: int) -> None:
        try:
            if not await self.driver.claim(table_id):
                return  # another process drives this table's bots
            asked = time.monotonic()
            live = self.tables.cached(table_id)
            player = next((p for p in live.players if p.seat == seat), None) if live is not None else None
            if live is None or player is None or player.bot is None:
                return

            def encoded() -> bytes | None:
                """Still this bot's decision once a worker is free? The state to think on."""
                now = self.tables.cached(table_id)
                if now is None or not now.showable or now.seq != seq or seat not in now.awaiting:
                    return None
                if next((p.bot for p in now.players if p.seat == seat), None) is None:
                    return None
                return orjson.dumps(now.engine.encode(now.state))

            move = await self.pool.decide("seat", live.game, seat, player.bot, asked + self.think_seconds, encoded)
            if move is None:
                return
            wait = asked + self.delay - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            live = await self.tables.get(table_id)
            if live is None:
                return
            await self.mover.play(live, player, seq, move, bot=True)
            self.played += 1
        except ApiError as err:
            if err.status == 409:
                self.refused += 1  # the table moved on, or the player took the seat back
            else:
                self.failed += 1
                log.warning("a bot's move at table %s was refused: %s", table_id, err.message)
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool next turn
            self.failed += 1
        except Exception:
            self.failed += 1
            log.exception("a bot at table %s could not play", table_id)

    async def _sweep(self) -> None:
        """Now and then: a bot awaited at a cached table nobody drives (its process ended) is
        taken up here."""
        while True:
            await asyncio.sleep(CLAIM_AGAIN_SECONDS)
            try:
                for table_id in self.tables.cached_ids():
                    live = self.tables.cached(table_id)
                    if live is not None and any(p.bot for p in live.players):
                        self.poke(live)
            except Exception:
                log.exception("the bots' sweep failed")

