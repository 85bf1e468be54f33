"""Database tables: tables (games), players, the append-only moves, snapshots, chat and private chats."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

EPOCH = datetime(1970, 1, 1)


def utcnow() -> datetime:
    """The time in UTC, naive as the columns store it. From the epoch rather than through
    ``datetime.now(UTC).replace(tzinfo=None)``: every stored move takes one, and the replace
    alone cost 2.7 µs of a move's (measured in 3.11; ``datetime.utcnow`` is deprecated)."""
    return EPOCH + timedelta(seconds=time.time())


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


class GameTable(Base):
    """One game table: found, gathering players, playing, then finished."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(6), unique=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(12), default="gathering")
    seed: Mapped[str] = mapped_column(String(64))  # secret until the game ends
    seed_hash: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(Integer, default=0)
    # The engine's rules version the table was dealt under (set at the start; 1 before versions).
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    # After how long away an absent player's seat may be handed to a bot (None: never).
    bot_after_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    # May a seat ask the good bot for a hint (app/features/hints.py)? Chosen at founding, off by default.
    hints: Mapped[bool] = mapped_column(default=False, server_default=false())


class Player(Base):
    """A person at a table. ``seat`` is drawn by lot at start; the token is stored hashed."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(24))
    joined: Mapped[int] = mapped_column(Integer)  # order of arrival, 0 = founder
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    is_founder: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Who plays the seat now when it is a bot: its level ("easy", "good"); None: its player.
    bot: Mapped[str | None] = mapped_column(String(8), default=None)
    # A seat added as a bot in the waiting room (nobody holds its token: no one takes it back).
    is_bot: Mapped[bool] = mapped_column(default=False, server_default=false())


class MoveRecord(Base):
    """One accepted move. ``seq`` counts from 1; the unique pair makes concurrent writers safe."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_moves_table_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column()
    events: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Snapshot(Base):
    """The engine state after move ``seq``, so loading a long game replays only a few moves."""

    __tablename__ = "snapshots"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column()


class ChatMessage(Base):
    __tablename__ = "chat"
    __table_args__ = (Index("ix_chat_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PrivateChat(Base):
    """A private chat between some of a table's seats (diplomacy): one per set of members, named
    by its seats in order ("0,2,5"), so opening the same chat twice finds the first."""

    __tablename__ = "private_chats"
    __table_args__ = (UniqueConstraint("table_id", "members_key", name="uq_private_chats_members"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    members_key: Mapped[str] = mapped_column(String(64))
    opened_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PrivateChatMember(Base):
    """A seat in a private chat: how far it has read, and whether it agrees to the chat being
    published with the game's record."""

    __tablename__ = "private_chat_members"

    chat_id: Mapped[int] = mapped_column(ForeignKey("private_chats.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    read_id: Mapped[int] = mapped_column(Integer, default=0)  # the newest message this seat has read
    agreed: Mapped[bool] = mapped_column(default=False)


class PrivateMessage(Base):
    __tablename__ = "private_messages"
    __table_args__ = (Index("ix_private_messages_chat_id_id", "chat_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    chat_id: Mapped[int] = mapped_column(ForeignKey("private_chats.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandoverVote(Base):
    """A present player's vote to hand an absent player's seat to a bot (app/tables/bot_seats.py)."""

    __tablename__ = "handover_votes"
    __table_args__ = (UniqueConstraint("target_id", "voter_id", name="uq_handover_votes_target_voter"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    voter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SeatChange(Base):
    """A seat changing hands (to a bot, back to its player): a log line after move ``seq``."""

    __tablename__ = "seat_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HintAsked(Base):
    """A seat asked for a hint at its decision after move ``seq``: once per decision, public
    (the log says so, the end screen counts them)."""

    __tablename__ = "hints_asked"
    __table_args__ = (UniqueConstraint("table_id", "seat", "seq", name="uq_hints_asked_decision"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TableClock(Base):
    """A table's clocks (chosen at founding): the settings, and each seat's time as of move
    ``seq`` (written after each move, guarded so an older state never overwrites a newer one).
    ``due_at`` is the earliest time-out of an awaited seat, for the clock keeper's query."""

    __tablename__ = "clocks"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column()
    seq: Mapped[int] = mapped_column(Integer, default=-1)  # -1: the game has not begun
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    due_at: Mapped[datetime | None] = mapped_column(default=None, index=True)


class PushSubscription(Base):
    """A browser's Web Push subscription for one seat (asked for by the player on its page)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("player_id", "endpoint", name="uq_push_player_endpoint"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    # The seq of the last "your turn" sent: claimed with a guarded update, so one push per turn
    # whichever server process notices it.
    last_seq: Mapped[int] = mapped_column(Integer, default=-1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ServerKey(Base):
    """Keys the server makes for itself on first start (the Web Push VAPID key pair)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Rematch(Base):
    """"Play again": the new table a player founded at the end of this one."""

    __tablename__ = "rematches"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    new_table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
