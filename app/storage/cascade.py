"""Deleting rows together with every row that hangs on them, the same on SQLite and PostgreSQL.

The schema's foreign keys say nothing of deletion (no ON DELETE CASCADE: adding it would mean
rebuilding tables on SQLite, and a forgotten one answers a FOREIGN KEY error, a 500). Instead a
deletion here walks the foreign keys the models declare, so a table added later that points at a
player is cleared with the player without anyone having to remember it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Column, Table, delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.storage.models import Base


def pointing_at(table: Table) -> list[Column[Any]]:
    """The columns of the schema that hold a key of ``table``."""
    return [fk.parent for child in Base.metadata.sorted_tables for fk in child.foreign_keys
            if fk.column.table is table and child is not table]


async def delete_with_dependents(s: AsyncSession, table: Table, ids: Sequence[Any]) -> None:
    """Delete the rows of ``table`` with these primary keys, after every row pointing at them
    (and, first, every row pointing at those). ``table`` and each table pointed at on the way
    have a one-column primary key; a table nothing points at may have any."""
    if not ids:
        return
    (key,) = table.primary_key.columns
    for column in pointing_at(table):
        child = column.table
        assert isinstance(child, Table)
        if pointing_at(child):  # rows hang on these rows too: find them and go deeper
            (child_key,) = child.primary_key.columns
            child_ids = list((await s.scalars(select(child_key).where(column.in_(ids)))).all())
            await delete_with_dependents(s, child, child_ids)
        else:
            await s.execute(delete(child).where(column.in_(ids)))
    await s.execute(delete(table).where(key.in_(ids)))
