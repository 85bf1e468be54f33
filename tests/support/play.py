"""Helpers for tests that play through the API like a script would."""

from __future__ import annotations

from typing import Any


def found(client: Any, name: str = "Ada", game: str = "tally", **options: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, "name": name, "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(client: Any, code: str, name: str) -> dict[str, Any]:
    r = client.post(f"/api/tables/{code}/join", json={"name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


def started_table(client: Any, names: tuple[str, ...] = ("Ada", "Bob"), **options: Any) -> dict[str, Any]:
    """Found, join and start a table; return code and the tokens by seat."""
    founded = found(client, names[0], **options)
    tokens = [founded["seat_token"]] + [join(client, founded["code"], n)["seat_token"] for n in names[1:]]
    r = client.post(f"/api/seats/{tokens[0]}/start")
    assert r.status_code == 200, r.text
    by_seat: dict[int, str] = {}
    for t in tokens:
        by_seat[client.get(f"/api/seats/{t}").json()["seat"]] = t
    return {"code": founded["code"], "tokens": tokens, "by_seat": by_seat}


def awaited_token(client: Any, table: dict[str, Any]) -> tuple[str, int]:
    seat_info = client.get(f"/api/seats/{table['tokens'][0]}").json()
    seat = seat_info["awaiting"][0]
    return table["by_seat"][seat], seat_info["seq"]


def play_one(client: Any, table: dict[str, Any]) -> dict[str, Any]:
    token, _ = awaited_token(client, table)
    moves = client.get(f"/api/seats/{token}/moves").json()
    r = client.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    assert r.status_code == 200, r.text
    return dict(r.json())


def moves_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The legal moves a websocket view message offers: its prompt's choices (or, for an engine
    whose prompt lists none, the message's ``moves``)."""
    prompt = message["view"].get("prompt") if isinstance(message.get("view"), dict) else None
    if isinstance(prompt, dict) and isinstance(prompt.get("choices"), list):
        return [c["move"] for c in prompt["choices"]]
    return list(message.get("moves", []))


def started_pair(client: Any, game: str) -> dict[str, Any]:
    """A started two-player table (Ada and Bea): its code and the seat tokens by seat."""
    t = client.post("/api/tables", json={"game": game, "name": "Ada"}).json()
    bea = client.post(f"/api/tables/{t['code']}/join", json={"name": "Bea"}).json()
    assert client.post(f"/api/seats/{t['seat_token']}/start").status_code == 200
    by_seat = {client.get(f"/api/seats/{tok}").json()["seat"]: tok for tok in (t["seat_token"], bea["seat_token"])}
    return {"code": t["code"], "by_seat": by_seat}
