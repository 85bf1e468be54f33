"""Founding a table, answering an invitation, leaving it, and drawing seats by lot at the start.

Who sits at a table is decided by the database, whichever server process a request reaches:
every join, leave and start first locks the table's row (an UPDATE of it while it is still
gathering), so they are decided one at a time; a start turns the status to "playing" under that
lock, and whatever comes after it finds the table begun (409). Each change is then told to
everyone through the hub (and to other processes by NOTIFY, sent at commit)."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.hub import Hub
from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.notify import Notifier
from app.server.errors import ApiError
from app.server.user_text import ascii_int, visible
from app.storage.cascade import delete_with_dependents
from app.storage.models import Base, GameTable, Player, utcnow
from app.storage.tokens import hash_token, new_code, new_seed, new_token
from app.tables.clock_rules import ClockSettings
from app.tables.clocks import store_settings
from engines.base import Engine, resolve_options, rules_version

NAME_MAX = 24
# Run in the founding transaction once the new table has its id (see Rooms.found).
Claim = Callable[[AsyncSession, int], Awaitable[None]]


def clean_name(raw: object) -> str:
    """A player's name: 1–24 characters after trimming, no control characters.

    >>> clean_name("  Ada  Lovelace ")
    'Ada Lovelace'
    """
    if not isinstance(raw, str):
        raise ApiError(422, "invalid_name", "Give your name: 1 to 24 characters.")
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise ApiError(422, "invalid_name", "A name cannot hold control or invisible characters.")
    if not visible(name):  # only spaces, or characters that show nothing (a Hangul filler)
        raise ApiError(422, "invalid_name", "Give your name: 1 to 24 characters.")
    if len(name) > NAME_MAX:
        raise ApiError(422, "invalid_name", f"A name is at most {NAME_MAX} characters long.")
    return name


@dataclass
class SeatTicket:
    code: str
    token: str
    table_id: int


STARTED = "This game has already begun; you can watch it as a spectator."


async def lock_gathering(s: AsyncSession, table_id: int) -> None:
    """Lock the table's row while it gathers players (409 once it has begun): joins, leaves and
    the start are decided one at a time, in any number of server processes."""
    res = await s.execute(update(GameTable).where(GameTable.id == table_id, GameTable.status == "gathering")
                          .values(seq=GameTable.seq))
    if res.rowcount != 1:  # type: ignore[attr-defined]
        raise ApiError(409, "already_started", STARTED)


async def free_seat(s: AsyncSession, live: LiveTable) -> list[Player]:
    """Lock the gathering table's row and read its players: 409 if every seat is taken (a join,
    or a bot seated by the founder)."""
    await lock_gathering(s, live.id)
    players = list((await s.scalars(select(Player).where(Player.table_id == live.id))).all())
    if len(players) >= live.max_seats:
        raise ApiError(409, "table_full", f"This table is full: {live.engine.title} seats at most "
                       f"{live.max_seats} players.")
    return players


async def find_seat(tables: LiveTables, token_hash: str) -> tuple[LiveTable, PlayerInfo]:
    """The table and player of a seat address (404 if none)."""
    found = await tables.by_token_hash(token_hash)
    if found is None:
        raise unknown_seat()
    return found


def seat_at(held: LiveTable | None, token_hash: str) -> tuple[LiveTable, PlayerInfo]:
    """The seat's player at a table held for a change (404 if the table or the seat went meanwhile)."""
    me = held.player_by_hash(token_hash) if held is not None else None
    if held is None or me is None:
        raise unknown_seat()
    return held, me


def unknown_seat() -> ApiError:
    return ApiError(404, "unknown_seat", "No seat has this address.")


BOT_AFTER_MAX = 7 * 24 * 3600


def check_bot_after(value: object) -> int | None:
    """The founder's "hand an absent seat to a bot after" in seconds: None (off) or 1 s to a week."""
    if value is None or value == "" or value == 0:
        return None
    if isinstance(value, str):  # from the founding form: ASCII digits only
        value = ascii_int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= BOT_AFTER_MAX:
        raise ApiError(422, "invalid_bot_after", "The time after which an absent seat may go to a bot "
                       f"is a whole number of seconds from 1 to {BOT_AFTER_MAX} (or none: off).")
    return value


class Rooms:
    def __init__(self, tables: LiveTables, notifier: Notifier, hub: Hub) -> None:
        self.tables = tables
        self.notifier = notifier
        self.hub = hub

    def engine(self, game: object) -> Engine:
        if not isinstance(game, str) or game not in self.tables.engines:
            known = ", ".join(sorted(self.tables.engines))
            raise ApiError(422, "unknown_game", f"This site hosts no game called {game!r}; it hosts {known}.")
        return self.tables.engines[game]

    async def found(self, game: object, name: object, options: object, clock: object = None,
                    token: str | None = None, bot_after: object = None, claim: Claim | None = None,
                    hints: bool = False) -> SeatTicket:
        """A new table, gathering; ``clock`` the clocks chosen (app/tables/clock_rules.py), ``token``
        the founder's seat token when it is derived from another (play again), ``bot_after`` the
        seconds away after which a seat may be voted to a bot (app/tables/bot_seats.py; None: never).
        ``hints`` whether seats may ask the good bot for a hint (app/features/hints.py).
        ``claim`` runs in the same transaction with the new table's id: whatever it raises undoes
        the founding, so a table founded for a place another took first never exists."""
        engine = self.engine(game)
        name = clean_name(name)
        clock_settings = ClockSettings.parse(clock)
        bot_after_seconds = check_bot_after(bot_after)
        if options is not None and not isinstance(options, dict):
            raise ApiError(422, "invalid_options", "Options are an object of option names and values.")
        try:
            resolved = resolve_options(engine, options)
        except ValueError as exc:
            raise ApiError(422, "invalid_options", f"Invalid option: {exc}.") from None
        hex_seed, _, digest = new_seed()
        token = token or new_token()
        for _ in range(8):  # a code collision is rare; draw again
            code = new_code()
            try:
                async with self.tables.sessions() as s, s.begin():
                    row = GameTable(code=code, game=engine.id, options=resolved, status="gathering",
                                    seed=hex_seed, seed_hash=digest, seq=0, bot_after_seconds=bot_after_seconds,
                                    hints=hints)
                    s.add(row)
                    await s.flush()
                    s.add(Player(table_id=row.id, token_hash=hash_token(token), name=name, joined=0,
                                 is_founder=True))
                    await store_settings(s, row.id, clock_settings)
                    if claim is not None:
                        await claim(s, row.id)
                return SeatTicket(code, token, row.id)
            except IntegrityError:
                continue
        raise ApiError(503, "busy", "Could not find a free table code; try again.")

    async def join(self, table_id: int, name: object, token: str | None = None) -> SeatTicket:
        name = clean_name(name)
        token = token or new_token()
        async with self.tables.hold(table_id) as live:
            if live is None:
                raise ApiError(404, "unknown_table", "No table has this code. Check the code and try again.")
            if live.status != "gathering":
                raise ApiError(409, "already_started", STARTED)
            try:
                async with self.tables.sessions() as s, s.begin():
                    players = await free_seat(s, live)
                    if any(p.name.casefold() == name.casefold() for p in players):
                        raise ApiError(409, "name_taken", f"Someone at this table is already called {name}; "
                                       "choose another name.")
                    s.add(Player(table_id=live.id, token_hash=hash_token(token), name=name,
                                 joined=max(p.joined for p in players) + 1 if players else 0, is_founder=False))
                    await s.flush()
                    await self.notifier.in_transaction(s, live.id, "lobby")
            except IntegrityError:  # the one-in-2^192 token collision, or a name raced in
                raise ApiError(409, "name_taken", "That name was just taken; choose another.") from None
            await self._changed(live)
            return SeatTicket(live.code, token, live.id)

    async def leave(self, token_hash: str, name: object = None) -> None:
        """A player leaves a table before it starts; or, naming someone, the founder removes them."""
        found, _ = await find_seat(self.tables, token_hash)
        async with self.tables.hold(found.id) as held:
            live, me = seat_at(held, token_hash)
            if live.status != "gathering":
                raise ApiError(409, "already_started", "The game has begun: nobody leaves it now.")
            if name is None or name == me.name:
                if me.is_founder:
                    raise ApiError(409, "founder_stays", "The founder cannot leave the table they founded.")
                gone = me
            else:
                if not me.is_founder:
                    raise ApiError(403, "not_founder", "Only the player who founded the table can remove others.")
                named = next((p for p in live.players if isinstance(name, str) and p.name == name), None)
                if named is None:
                    raise ApiError(404, "unknown_player", "Nobody of that name is at this table.")
                gone = named
            async with self.tables.sessions() as s, s.begin():
                await lock_gathering(s, live.id)
                # Its chat, push subscriptions and every other row naming the player go with it.
                await delete_with_dependents(s, Base.metadata.tables[Player.__tablename__], [gone.id])
                await self.notifier.in_transaction(s, live.id, "lobby")
            await self._changed(live)

    async def start(self, token_hash: str) -> LiveTable:
        found, _ = await find_seat(self.tables, token_hash)
        async with self.tables.hold(found.id) as held:
            live, player = seat_at(held, token_hash)
            if not player.is_founder:
                raise ApiError(403, "not_founder", "Only the player who founded the table can start it.")
            if live.status != "gathering":
                raise ApiError(409, "already_started", "This game has already begun.")
            async with self.tables.sessions() as s, s.begin():
                res = await s.execute(update(GameTable).where(GameTable.id == live.id,
                                                              GameTable.status == "gathering")
                                      .values(status="playing", started_at=utcnow(),
                                              rules_version=rules_version(live.engine)))
                if res.rowcount != 1:
                    raise ApiError(409, "already_started", "This game has already begun.")
                # Read under the row's lock: every join committed before it, none after.
                players = (await s.scalars(select(Player).where(Player.table_id == live.id)
                                           .order_by(Player.joined))).all()
                n = len(players)
                if not live.min_seats <= n <= live.max_seats:
                    raise ApiError(409, "wrong_player_count",
                                   f"{live.engine.title} needs {live.min_seats} to {live.max_seats} players; "
                                   f"{n} have joined.")
                order = list(range(n))
                secrets.SystemRandom().shuffle(order)  # seats are drawn by lot
                for p, seat in zip(players, order, strict=True):
                    await s.execute(update(Player).where(Player.id == p.id).values(seat=seat))
                await self.notifier.in_transaction(s, live.id, "lobby")
            return await self._changed(live)

    async def changed(self, live: LiveTable) -> LiveTable:
        return await self._changed(live)

    async def _changed(self, live: LiveTable) -> LiveTable:
        """Rebuild a held table from what was just committed, and tell everyone."""
        fresh = await self.tables.reload(live)
        if fresh is None:
            raise ApiError(404, "unknown_table", "This table is gone.")
        self.hub.table_changed(fresh)
        return fresh
