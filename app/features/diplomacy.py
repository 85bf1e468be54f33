"""Diplomacy: private chats between some seats of a table, beside the table chat.

A game turns them on with a class attribute of its engine, ``diplomacy = True`` (off when
absent): the site knows nothing else of the game. Any seat opens a chat with one other seat or a
group of them; there is one chat per set of members. Only its members are ever sent its messages
(over their own sockets or the seat API); spectators and other seats learn nothing, not even that
it exists. Each member's read position is stored, so unread marks survive a reload and a restart.
A chat is published with the game's record only when every one of its members has agreed.
Members are seats: a game whose seats have names of their own (houses) gives them through the
engine's optional ``seat_labels``, sent with the chats, so the page names members "Stark (Ada)".

Messages are cleaned and limited like the table chat (length, and a rate per seat). Other server
processes learn of a change by a notification sent in the transaction that stored it (see
app/play/notify.py) and tell their own connected members.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.chat import clean_chat
from app.play.hub import Hub, Window
from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.notify import Notifier
from app.server.errors import ApiError
from app.storage.models import Player, PrivateChat, PrivateChatMember, PrivateMessage, utcnow
from engines.base import Engine, seat_labels

HISTORY = 200  # messages sent at once when a chat is opened (older ones: ``before``)
NEW_MESSAGE, CHAT_CHANGED, READ = "private_message", "private_chat", "private_read"
KINDS = (NEW_MESSAGE, CHAT_CHANGED, READ)


def enabled(engine: Engine) -> bool:
    """Does this game offer private chats? (the engine's ``diplomacy`` attribute, off by default)"""
    return bool(getattr(engine, "diplomacy", False))


def labels(live: LiveTable) -> list[str] | None:
    """Each seat's name in the game (a house: "Stark"), when its engine gives one (the optional
    ``seat_labels`` of the engine protocol): the chats name their members by it and the player."""
    return seat_labels(live.engine, live.state)


def members_key(seats: list[int]) -> str:
    return ",".join(str(s) for s in sorted(seats))


def unknown_chat() -> ApiError:
    # The same answer whether the chat does not exist or is not yours: a non-member cannot
    # even learn that a chat exists.
    return ApiError(404, "unknown_chat", "You have no private chat with this number.")


@dataclass(slots=True)
class Membership:
    chat: PrivateChat
    members: list[PrivateChatMember]

    @property
    def player_ids(self) -> set[int]:
        return {m.player_id for m in self.members}

    def member(self, player_id: int) -> PrivateChatMember | None:
        return next((m for m in self.members if m.player_id == player_id), None)

    def shared(self, opened_by_seat: int | None, last_id: int) -> dict[str, Any]:
        """What every member may know of the chat (the same for all of them)."""
        return {"id": self.chat.id, "members": sorted(m.seat for m in self.members),
                "agreed": sorted(m.seat for m in self.members if m.agreed),
                "opened_by": opened_by_seat, "last_id": last_id}


def message_json(row: Any) -> dict[str, Any]:
    return {"id": row.id, "chat": row.chat_id, "seat": row.seat, "name": row.name, "text": row.text,
            "at": row.created_at.isoformat() + "Z"}


def message_rows() -> Any:
    """Messages with their writer's seat and name."""
    return (select(PrivateMessage.id, PrivateMessage.chat_id, PrivateMessage.text, PrivateMessage.created_at,
                   Player.seat, Player.name)
            .join(Player, Player.id == PrivateMessage.player_id))


class PrivateChats:
    def __init__(self, tables: LiveTables, hub: Hub, notifier: Notifier, max_chars: int) -> None:
        self.tables = tables
        self.hub = hub
        self.notifier = notifier
        self.max_chars = max_chars
        # Per seat, as the table chat's: messages, and the other writes (open, read, agree).
        self.message_limit = Window(5, 10.0)
        self.action_limit = Window(30, 10.0)
        for kind in KINDS:
            hub.listeners.notices[kind] = self.on_notification

    # -- checks ---------------------------------------------------------------------------------

    @staticmethod
    def check(live: LiveTable, player: PlayerInfo) -> int:
        """The player's seat, once the game offers private chats and seats are drawn."""
        if not enabled(live.engine):
            raise ApiError(404, "no_private_chats", f"{live.engine.title} has no private chats.")
        if live.status == "gathering" or player.seat is None:
            raise ApiError(409, "not_started", "Private chats open when the game begins and seats are drawn.")
        return player.seat

    @staticmethod
    def slow_down(window: Window, live: LiveTable, player: PlayerInfo) -> None:
        wait = window.take((live.id, player.id))
        if wait:
            raise ApiError(429, "slow_down", f"You are sending messages too fast; wait {wait:.0f} s.",
                           retry_after=max(1, round(wait)))

    @staticmethod
    def chat_id(raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 < raw < 2**31:
            raise ApiError(422, "invalid_chat", "A chat is named by its number (a positive whole number).")
        return raw

    async def membership(self, s: AsyncSession, live: LiveTable, player: PlayerInfo, chat_id: int) -> Membership:
        chat = (await s.execute(select(PrivateChat).where(PrivateChat.id == chat_id,
                                                          PrivateChat.table_id == live.id))).scalar_one_or_none()
        if chat is None:
            raise unknown_chat()
        members = list((await s.execute(select(PrivateChatMember)
                                        .where(PrivateChatMember.chat_id == chat_id))).scalars())
        found = Membership(chat, members)
        if found.member(player.id) is None:
            raise unknown_chat()
        return found

    # -- reading --------------------------------------------------------------------------------

    async def summaries(self, live: LiveTable, player: PlayerInfo) -> list[dict[str, Any]]:
        """The player's chats, each with its members, who agreed to publish it, its newest message
        and this seat's read position and unread count (messages by others after it)."""
        self.check(live, player)
        async with self.tables.sessions() as s:
            return await self._summaries(s, live, player.id)

    async def _summaries(self, s: AsyncSession, live: LiveTable, player_id: int,
                         only: int | None = None) -> list[dict[str, Any]]:
        mine = select(PrivateChatMember.chat_id).where(PrivateChatMember.player_id == player_id)
        if only is not None:
            mine = mine.where(PrivateChatMember.chat_id == only)
        chats = (await s.execute(select(PrivateChat).where(PrivateChat.table_id == live.id,
                                                           PrivateChat.id.in_(mine))
                                 .order_by(PrivateChat.id))).scalars().all()
        if not chats:
            return []
        ids = [c.id for c in chats]
        members = (await s.execute(select(PrivateChatMember)
                                   .where(PrivateChatMember.chat_id.in_(ids)))).scalars().all()
        last: dict[int, int] = dict((await s.execute(select(PrivateMessage.chat_id, func.max(PrivateMessage.id))
                                     .where(PrivateMessage.chat_id.in_(ids))
                                     .group_by(PrivateMessage.chat_id))).all())
        me = PrivateChatMember
        unread: dict[int, int] = dict((await s.execute(
            select(PrivateMessage.chat_id, func.count())
            .join(me, and_(me.chat_id == PrivateMessage.chat_id, me.player_id == player_id))
            .where(PrivateMessage.chat_id.in_(ids), PrivateMessage.id > me.read_id,
                   PrivateMessage.player_id != player_id)
            .group_by(PrivateMessage.chat_id))).all())
        seats = {p.id: p.seat for p in live.players}
        out = []
        for chat in chats:
            found = Membership(chat, [m for m in members if m.chat_id == chat.id])
            mine_row = found.member(player_id)
            assert mine_row is not None
            out.append({**found.shared(seats.get(chat.opened_by), last.get(chat.id, 0)),
                        "read_id": mine_row.read_id, "unread": unread.get(chat.id, 0)})
        return out

    async def messages(self, live: LiveTable, player: PlayerInfo, chat_id: int,
                       before: int | None = None) -> dict[str, Any]:
        """A chat's newest messages (or those before ``before``), oldest first."""
        self.check(live, player)
        async with self.tables.sessions() as s:
            await self.membership(s, live, player, chat_id)
            query = message_rows().where(PrivateMessage.chat_id == chat_id)
            if before is not None:  # kept within the id column's range
                query = query.where(PrivateMessage.id < min(max(before, 0), 2**31 - 1))
            rows = (await s.execute(query.order_by(PrivateMessage.id.desc()).limit(HISTORY + 1))).all()
            summary = (await self._summaries(s, live, player.id, only=chat_id))[0]
        return {"chat": summary, "messages": [message_json(r) for r in reversed(rows[:HISTORY])],
                "more": len(rows) > HISTORY}

    # -- writing --------------------------------------------------------------------------------

    async def open(self, live: LiveTable, player: PlayerInfo, raw: object) -> tuple[dict[str, Any], bool]:
        """Open a chat with the given seats (the opener is always a member); the chat these seats
        already have if there is one. (summary, whether it is new)"""
        seat = self.check(live, player)
        seated = {p.seat: p for p in live.players if p.seat is not None}
        if (not isinstance(raw, list) or not raw
                or any(isinstance(x, bool) or not isinstance(x, int) for x in raw)):
            raise ApiError(422, "invalid_members", "Name the seats to talk with: a list of seat numbers.")
        unknown = sorted({x for x in raw if x not in seated})
        if unknown:
            raise ApiError(422, "unknown_seat", f"No one sits at seat {unknown[0]}.")
        seats = sorted({*raw, seat})
        if len(seats) < 2:
            raise ApiError(422, "invalid_members", "A private chat needs at least one other seat.")
        self.slow_down(self.action_limit, live, player)
        key = members_key(seats)
        created = True
        try:
            async with self.tables.sessions() as s, s.begin():
                chat = PrivateChat(table_id=live.id, members_key=key, opened_by=player.id, created_at=utcnow())
                s.add(chat)
                await s.flush()
                s.add_all(PrivateChatMember(chat_id=chat.id, player_id=seated[x].id, seat=x, read_id=0,
                                            agreed=False) for x in seats)
                await s.flush()
                await self.notifier.in_transaction(s, live.id, CHAT_CHANGED, c=chat.id)
        except IntegrityError:  # opened already (perhaps a moment ago, by another member)
            created = False
        async with self.tables.sessions() as s:
            chat_id = (await s.execute(select(PrivateChat.id).where(PrivateChat.table_id == live.id,
                                                                    PrivateChat.members_key == key))).scalar_one()
            summary = (await self._summaries(s, live, player.id, only=chat_id))[0]
            if created:
                await self._tell_changed(s, live, chat_id)
        return summary, created

    async def post(self, live: LiveTable, player: PlayerInfo, chat_id: int, raw_text: object) -> dict[str, Any]:
        self.check(live, player)
        text = clean_chat(raw_text, self.max_chars)
        self.slow_down(self.message_limit, live, player)
        async with self.tables.sessions() as s, s.begin():
            found = await self.membership(s, live, player, chat_id)
            row = PrivateMessage(chat_id=chat_id, player_id=player.id, text=text, created_at=utcnow())
            s.add(row)
            await s.flush()
            # What one writes, one has read.
            await s.execute(update(PrivateChatMember)
                            .where(PrivateChatMember.chat_id == chat_id, PrivateChatMember.player_id == player.id)
                            .values(read_id=row.id))
            await self.notifier.in_transaction(s, live.id, NEW_MESSAGE, c=chat_id, m=row.id)
        message = {"id": row.id, "chat": chat_id, "seat": player.seat, "name": player.name, "text": text,
                   "at": row.created_at.isoformat() + "Z"}
        self.push(live.id, found.player_ids, {"type": NEW_MESSAGE, "message": message})
        return message

    async def mark_read(self, live: LiveTable, player: PlayerInfo, chat_id: int, upto: object) -> dict[str, Any]:
        """Move this seat's read position forward to ``upto`` (never back, never past the newest)."""
        self.check(live, player)
        if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
            raise ApiError(422, "invalid_read", "Say up to which message you have read (its number).")
        self.slow_down(self.action_limit, live, player)
        async with self.tables.sessions() as s, s.begin():
            await self.membership(s, live, player, chat_id)
            newest = (await s.execute(select(func.max(PrivateMessage.id))
                                      .where(PrivateMessage.chat_id == chat_id))).scalar() or 0
            await s.execute(update(PrivateChatMember)
                            .where(PrivateChatMember.chat_id == chat_id, PrivateChatMember.player_id == player.id,
                                   PrivateChatMember.read_id < min(upto, newest))
                            .values(read_id=min(upto, newest)))
            summary = (await self._summaries(s, live, player.id, only=chat_id))[0]
            await self.notifier.in_transaction(s, live.id, READ, c=chat_id, w=player.id)
        read = {"chat": chat_id, "read_id": summary["read_id"], "unread": summary["unread"]}
        self.push(live.id, {player.id}, {"type": READ, **read})  # the seat's other tabs
        return read

    async def agree(self, live: LiveTable, player: PlayerInfo, chat_id: int, agree: object) -> dict[str, Any]:
        """This member agrees (or no longer agrees) to the chat being published with the record."""
        self.check(live, player)
        if not isinstance(agree, bool):
            raise ApiError(422, "invalid_agree", 'Say "agree": true or false.')
        self.slow_down(self.action_limit, live, player)
        async with self.tables.sessions() as s, s.begin():
            await self.membership(s, live, player, chat_id)
            await s.execute(update(PrivateChatMember)
                            .where(PrivateChatMember.chat_id == chat_id, PrivateChatMember.player_id == player.id)
                            .values(agreed=agree))
            await self.notifier.in_transaction(s, live.id, CHAT_CHANGED, c=chat_id)
        async with self.tables.sessions() as s:
            summary = (await self._summaries(s, live, player.id, only=chat_id))[0]
            await self._tell_changed(s, live, chat_id)
        return summary

    # -- telling the members --------------------------------------------------------------------

    def push(self, table_id: int, player_ids: set[int], message: dict[str, Any]) -> None:
        """To these players' own connections here, and to nobody else (never a spectator)."""
        self.hub.publish(table_id, message, to=lambda conn: conn.player_id is not None and conn.player_id in player_ids)

    async def _tell_changed(self, s: AsyncSession, live: LiveTable, chat_id: int) -> None:
        """A chat opened, or a member's agreement changed: what all members share of it."""
        chat = await s.get(PrivateChat, chat_id)
        if chat is None:
            return
        members = list((await s.execute(select(PrivateChatMember)
                                        .where(PrivateChatMember.chat_id == chat_id))).scalars())
        last = (await s.execute(select(func.max(PrivateMessage.id))
                                .where(PrivateMessage.chat_id == chat_id))).scalar() or 0
        found = Membership(chat, members)
        seats = {p.id: p.seat for p in live.players}
        self.push(live.id, found.player_ids,
                  {"type": CHAT_CHANGED, "chat": found.shared(seats.get(chat.opened_by), last)})

    async def on_notification(self, payload: dict[str, Any]) -> None:
        """A change stored by another server process: tell the members connected here."""
        table_id = int(payload["t"])
        if table_id not in self.hub.rooms:
            return
        live = await self.tables.get(table_id)
        if live is None:
            return
        chat_id = int(payload["c"])
        async with self.tables.sessions() as s:
            if payload["k"] == NEW_MESSAGE:
                row = (await s.execute(message_rows().where(PrivateMessage.id == int(payload["m"]),
                                                            PrivateMessage.chat_id == chat_id))).one_or_none()
                ids = set((await s.execute(select(PrivateChatMember.player_id)
                                           .where(PrivateChatMember.chat_id == chat_id))).scalars())
                if row is not None:
                    self.push(table_id, ids, {"type": NEW_MESSAGE, "message": message_json(row)})
            elif payload["k"] == READ:
                who = int(payload["w"])
                found = await self._summaries(s, live, who, only=chat_id)
                if found:
                    self.push(table_id, {who}, {"type": READ, "chat": chat_id, "read_id": found[0]["read_id"],
                                                "unread": found[0]["unread"]})
            else:
                await self._tell_changed(s, live, chat_id)

    async def greet(self, live: LiveTable, player: PlayerInfo | None) -> dict[str, Any] | None:
        """The message a newly connected seat is sent: its chats and unread counts (None when
        the game has none, or for a spectator)."""
        if player is None or player.seat is None or live.status == "gathering" or not enabled(live.engine):
            return None
        return {"type": "private_chats", "chats": await self.summaries(live, player), "labels": labels(live)}


async def published_chats(sessions: Any, table_id: int) -> list[dict[str, Any]]:
    """For the game's record: the private chats every member agreed to publish, with their
    members and messages."""
    not_agreed = exists().where(PrivateChatMember.chat_id == PrivateChat.id, PrivateChatMember.agreed.is_(False))
    async with sessions() as s:
        chat_ids = list((await s.execute(select(PrivateChat.id).where(PrivateChat.table_id == table_id, ~not_agreed)
                                         .order_by(PrivateChat.id))).scalars())
        if not chat_ids:
            return []
        members = (await s.execute(select(PrivateChatMember.chat_id, PrivateChatMember.seat, Player.name)
                                   .join(Player, Player.id == PrivateChatMember.player_id)
                                   .where(PrivateChatMember.chat_id.in_(chat_ids))
                                   .order_by(PrivateChatMember.seat))).all()
        rows = (await s.execute(message_rows().where(PrivateMessage.chat_id.in_(chat_ids))
                                .order_by(PrivateMessage.id))).all()
    return [{"members": [{"seat": m.seat, "name": m.name} for m in members if m.chat_id == cid],
             "messages": [{"seat": r.seat, "name": r.name, "text": r.text, "at": r.created_at.isoformat() + "Z"}
                          for r in rows if r.chat_id == cid]}
            for cid in chat_ids]
