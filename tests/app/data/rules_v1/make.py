"""How the files beside this one were made (by the code of rules version 1, before the engine
kit): a SQLite database holding a running London and a running Tower of London table, the seat
tokens of their players, and the published records of one finished game of each.

    .venv/bin/python tests/app/data/rules_v1/make.py

Run by the code of that time only; kept to say what the files are. Tests load the files, never
run this.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))

from tests.support.server import ServerProcess  # noqa: E402


def play(client: httpx.Client, by_seat: dict[int, str], rng: random.Random, count: int | None) -> int:
    played = 0
    while count is None or played < count:
        info = client.get(f"/api/seats/{by_seat[0]}").json()
        if info["status"] != "playing":
            break
        seat = rng.choice(sorted(info["awaiting"]))
        legal = client.get(f"/api/seats/{by_seat[seat]}/moves").json()
        r = client.post(f"/api/seats/{by_seat[seat]}/moves",
                        json={"seq": legal["seq"], "move": rng.choice(legal["moves"])})
        assert r.status_code == 200, r.text
        played += 1
    return played


def table(client: httpx.Client, game: str, names: list[str]) -> dict:
    founded = client.post("/api/tables", json={"game": game, "name": names[0], "options": {}}).json()
    tokens = [founded["seat_token"]] + [
        client.post(f"/api/tables/{founded['code']}/join", json={"name": n}).json()["seat_token"]
        for n in names[1:]]
    assert client.post(f"/api/seats/{tokens[0]}/start").status_code == 200
    by_seat = {client.get(f"/api/seats/{t}").json()["seat"]: t for t in tokens}
    return {"code": founded["code"], "game": game, "by_seat": by_seat}


def main() -> None:
    rng = random.Random(2026)
    db = HERE / "parlour.db"
    db.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite+aiosqlite:///{db}", Path(tmp) / "log", engines="").start()
        try:
            with httpx.Client(base_url=server.base, timeout=30) as client:
                running, records = [], {}
                for game, names, moves in (("london", ["Ada", "Bob", "Cy"], 40),
                                           ("tower_of_london", ["Ada", "Bob", "Cy"], 12)):
                    t = table(client, game, names)
                    play(client, t["by_seat"], rng, moves)
                    running.append({**t, "seq": client.get(f"/api/tables/{t['code']}").json()["seq"]})
                    done = table(client, game, names)
                    play(client, done["by_seat"], rng, None)
                    records[game] = client.get(f"/api/tables/{done['code']}/record").json()
        finally:
            server.stop()
    (HERE / "running.json").write_text(json.dumps(running, indent=1) + "\n")
    for game, record in records.items():
        (HERE / f"{game}.record.json").write_text(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
