"""The published record of a finished game, and its verification by replay."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from sqlalchemy import select

from app.features import diplomacy
from app.play.live import LiveTable
from app.play.takeback import History, capture_points, is_take_back
from app.storage.models import MoveRecord
from app.storage.tokens import seed_hash
from engines.base import Engine, IllegalMove, new_game, static_view


async def table_record(parlour: Any, live: LiveTable) -> dict[str, Any]:
    async with parlour.sessions() as s:
        moves = (await s.execute(select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move)
                                 .where(MoveRecord.table_id == live.id)
                                 .order_by(MoveRecord.seq))).all()
    record = {
        "code": live.code, "game": live.game, "rules_version": live.rules_version, "options": live.options,
        "seats": [{"seat": p.seat, "name": p.name} for p in live.players if p.seat is not None],
        "seed": live.seed, "seed_hash": live.seed_hash,
        "moves": [{"seq": m.seq, "seat": m.seat, "move": m.move} for m in moves],
        "result": live.result,
        "final_view": live.engine.view(live.state, None),
    }
    if diplomacy.enabled(live.engine):  # only the private chats all of whose members agreed
        record["private_chats"] = await diplomacy.published_chats(parlour.sessions, live.id)
    return record


def verify_record(record: Mapping[str, Any], engines: Mapping[str, Engine]) -> list[str]:
    """Replay a published record; return the list of problems (empty: it checks out)."""
    problems: list[str] = []
    engine = engines.get(record["game"])
    if engine is None:
        return [f"unknown game {record['game']!r}"]
    if seed_hash(record["seed"]) != record["seed_hash"]:
        problems.append("the seed does not match the hash published at the start")
    # The rules the table was dealt under (records published before versions: version 1).
    version = int(record.get("rules_version", 1))
    state = new_game(engine, len(record["seats"]), int(record["seed"], 16), record["options"], version=version)
    history = History(engine, state)
    capture = capture_points([(m["seat"], m["move"]) for m in record["moves"]])
    for i, m in enumerate(record["moves"], start=1):
        if m["seq"] != i:
            problems.append(f"move {i} is numbered {m['seq']}")
            break
        # A take-back entry ({"undo": T}) returns to the state after entry T, which must lie
        # within its seat's own turn of moves that revealed nothing (app/play/takeback.py).
        if not is_take_back(m["move"]) and m["move"] not in engine.legal_moves(history.state, m["seat"]):
            problems.append(f"move {i} was not among the legal moves")
        try:
            history.follow(i, m["seat"], m["move"], capture[i - 1])
        except IllegalMove as exc:
            problems.append(f"move {i} is illegal in the replay: {exc.message}")
            return problems
        except (LookupError, ValueError) as exc:
            problems.append(f"entry {i} takes back what may not be taken back: {exc}")
            return problems
    state = history.state
    result = engine.result(state)
    if result is None:
        problems.append("the replayed game has not ended")
    elif result.as_json() != record["result"]:
        problems.append("the replayed result differs from the published one")
    # The final position as the browser shows it: the view with the game's fixed data merged in.
    # Compared on what the record published: an engine may since have moved fixed data out of
    # its view (into static_view), or added to its view, without changing the game.
    replayed = orjson.loads(orjson.dumps({**static_view(engine, state), **engine.view(state, None)}))
    published = record["final_view"]
    if not isinstance(published, dict) or any(replayed.get(k) != v for k, v in published.items()):
        problems.append("the replayed final position differs from the published one")
    return problems
