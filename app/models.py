"""Database tables: tables (games), players, the append-only moves, snapshots and chat."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


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
