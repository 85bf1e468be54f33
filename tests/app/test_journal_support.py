"""Rows for journal tests: tables to append moves to, without the rest of the server."""

from __future__ import annotations

from app.storage.db import make_engine, sessionmaker
from app.storage.models import GameTable


async def make_table_rows(url: str, n: int) -> list[int]:
    engine = make_engine(url)
    try:
        async with sessionmaker(engine)() as s, s.begin():
            rows = [GameTable(code=f"J{i:05d}", game="tally", options={}, status="playing", seed="0",
                              seed_hash="0", seq=0) for i in range(n)]
            s.add_all(rows)
            await s.flush()
            return [r.id for r in rows]
    finally:
        await engine.dispose()
