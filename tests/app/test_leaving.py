"""Leaving a table before its start, or being removed by the founder: the seat goes, and with it
every row that hangs on its player (push subscriptions, chat, private chats' read marks, votes),
so the place is free again. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from app.server.config import sync_url
from app.storage.models import (
    Base,
    ChatMessage,
    HandoverVote,
    Player,
    PrivateChat,
    PrivateChatMember,
    PrivateMessage,
    PushSubscription,
    Rematch,
)
from tests.support.play import found, join

# Every table with a foreign key to a player, and the rows the test gives the leaving player
# there. A new one must be added here, so that the test proves it is cleared too.
HANGING = {"chat", "private_chats", "private_chat_members", "private_messages", "handover_votes",
           "push_subscriptions", "rematches"}


def player_references() -> list[Any]:
    """Every column of the schema that names a player."""
    return [fk.parent for table in Base.metadata.sorted_tables for fk in table.foreign_keys
            if fk.column.table.name == "players"]


def hang_rows_on(db_url: str, name: str, code: str) -> int:
    """Give the player ``name`` a row in every table that can name a player; their id."""
    engine = create_engine(sync_url(db_url))
    with Session(engine) as s, s.begin():
        me = s.scalars(select(Player).where(Player.name == name)).one()
        other = s.scalars(select(Player).where(Player.table_id == me.table_id, Player.id != me.id)).first()
        assert other is not None
        s.add(ChatMessage(table_id=me.table_id, player_id=me.id, text="hello"))
        s.add(PushSubscription(player_id=me.id, endpoint="https://push.example/1", p256dh="k", auth="a"))
        mine = PrivateChat(table_id=me.table_id, members_key=f"{me.id}", opened_by=me.id)
        theirs = PrivateChat(table_id=me.table_id, members_key=f"{other.id}", opened_by=other.id)
        s.add_all([mine, theirs])
        s.flush()
        s.add_all([PrivateChatMember(chat_id=mine.id, player_id=other.id, seat=0),
                   PrivateChatMember(chat_id=theirs.id, player_id=me.id, seat=1, read_id=1),
                   PrivateMessage(chat_id=mine.id, player_id=other.id, text="in their chat"),
                   PrivateMessage(chat_id=theirs.id, player_id=me.id, text="mine, in another's chat"),
                   HandoverVote(table_id=me.table_id, target_id=me.id, voter_id=other.id),
                   HandoverVote(table_id=me.table_id, target_id=other.id, voter_id=me.id),
                   Rematch(table_id=me.table_id, new_table_id=me.table_id, player_id=me.id)])
        player_id = me.id
    engine.dispose()
    return player_id


def rows_naming(db_url: str, player_id: int) -> dict[str, int]:
    engine = create_engine(sync_url(db_url))
    with engine.connect() as conn:
        counts = {f"{col.table.name}.{col.name}": conn.execute(select(func.count()).select_from(col.table)
                                                               .where(col == player_id)).scalar_one()
                  for col in player_references()}
    engine.dispose()
    return {k: n for k, n in counts.items() if n}


def test_every_table_that_names_a_player_is_given_a_row_by_these_tests() -> None:
    assert {col.table.name for col in player_references()} == HANGING


@pytest.mark.parametrize("how", ["removed", "leaves"])
def test_a_seat_that_goes_takes_its_subscriptions_and_every_row_on_its_player_and_frees_the_place(
        client: Any, db_url: str, how: str) -> None:
    c = client
    body = found(c, "Ada")
    tokens = {n: join(c, body["code"], n)["seat_token"] for n in ("Bob", "Cy", "Dee")}  # full: four of four
    assert c.post(f"/api/tables/{body['code']}/join", json={"name": "Eve"}).json()["error"] == "table_full"
    dee = hang_rows_on(db_url, "Dee", body["code"])
    assert set(k.split(".")[0] for k in rows_naming(db_url, dee)) == HANGING
    if how == "removed":
        r = c.post(f"/api/seats/{body['seat_token']}/remove", json={"name": "Dee"})
    else:
        r = c.post(f"/api/seats/{tokens['Dee']}/leave")
    assert r.status_code == 200, r.text
    assert rows_naming(db_url, dee) == {}
    assert c.get(f"/api/seats/{tokens['Dee']}").status_code == 404
    assert c.post(f"/api/tables/{body['code']}/join", json={"name": "Eve"}).status_code == 201  # the place is free
    players = c.get(f"/api/tables/{body['code']}").json()["players"]
    assert [p["name"] for p in players] == ["Ada", "Bob", "Cy", "Eve"]
