"""Play again: after a game ends, one new table of the same game, options, clocks and hints,
founded by the first player to ask; every other player of the old table is offered it (live, on
their seat page, and in the old table's chat) and takes a seat there under the same name in one
step.

The old table's one next table is stored with the new table, in its founding transaction: of
presses at once (on any process), the first to commit founds it, and the others' tables are
rolled back whole (their seats too) before they join that one. A seat's token at the new table
is derived from its old token, so asking twice lands on the same seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.chat import post_chat
from app.play.hub import Hub
from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.notify import Notifier
from app.server.errors import ApiError, not_found
from app.storage.models import Rematch, TableClock
from app.storage.tokens import hash_token
from app.tables.rooms import Rooms


def again_token(old_token: str) -> str:
    """The seat token at the rematch, derived from the old seat's (only its holder can make it)."""
    digest = hmac.new(old_token.encode(), b"parlour: play again", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


class OfferedAlready(Exception):
    """Another press founded this finished table's next table first."""


@dataclass(frozen=True)
class Seat:
    """A seat at the new table: the table and the seat's token."""

    table: LiveTable
    token: str


class Rematcher:
    def __init__(self, tables: LiveTables, rooms: Rooms, hub: Hub, notifier: Notifier) -> None:
        self.tables = tables
        self.rooms = rooms
        self.hub = hub
        self.notifier = notifier

    async def again(self, token: str, live: LiveTable, player: PlayerInfo, invite_base: str) -> Seat:
        """This player's seat at the finished table's next table: founded now by them if nobody
        offered one yet (and the others told), else taken at the one offered."""
        if live.status != "finished":
            raise ApiError(409, "not_finished", "A new table can be offered once this game has ended.")
        async with self.tables.sessions() as s:
            offered = await s.get(Rematch, live.id)
            clock = await s.get(TableClock, live.id)
        if offered is not None:
            return await self.take_seat(token, live, player)

        async def claim(s: AsyncSession, new_table_id: int) -> None:
            s.add(Rematch(table_id=live.id, new_table_id=new_table_id, player_id=player.id))
            try:
                await s.flush()
            except IntegrityError:
                raise OfferedAlready from None

        try:
            ticket = await self.rooms.found(live.game, player.name, dict(live.options),
                                            clock=clock.settings if clock is not None else None,
                                            token=again_token(token), claim=claim, hints=live.hints)
        except OfferedAlready:
            return await self.take_seat(token, live, player)
        message = await post_chat(self.tables, self.notifier, live, player,
                                  f"Play again? New table: {invite_base}/join/{ticket.code}")
        self.hub.push_chat(live.id, [message])
        new = await self.tables.get(ticket.table_id)
        assert new is not None, "a table founded a moment ago"
        return Seat(new, ticket.token)

    async def offered(self, live: LiveTable) -> tuple[LiveTable, str] | None:
        """The new table offered at the end of ``live`` and who offered it (None: no offer)."""
        async with self.tables.sessions() as s:
            offer = await s.get(Rematch, live.id)
        new = await self.tables.get(offer.new_table_id) if offer is not None else None
        if offer is None or new is None:
            return None
        return new, next((p.name for p in live.players if p.id == offer.player_id), "?")

    async def seat_taken(self, token: str) -> Seat | None:
        """This seat's place at the rematch, if it has taken it."""
        mine = again_token(token)
        here = await self.tables.by_token_hash(hash_token(mine))
        return Seat(here[0], mine) if here is not None else None

    async def take_seat(self, token: str, live: LiveTable, player: PlayerInfo) -> Seat:
        """A seat at the new table offered at the end of ``live``, under the same name; asked
        again, the same seat."""
        taken = await self.seat_taken(token)
        if taken is not None:
            return taken
        offer = await self.offered(live)
        if offer is None:
            raise not_found("rematch")
        mine = again_token(token)
        await self.rooms.join(offer[0].id, player.name, token=mine)
        return Seat(offer[0], mine)
