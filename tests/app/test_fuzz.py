"""Fuzzing the server's inputs: HTTP bodies, websocket messages and moves of every shape, for
every hosted game. Whatever arrives, the answer is never a 5xx, every error is
{error, message}, and a refused move changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.server.config import Settings
from engines.registry import BUILTIN
from tests.support.server import TALLY

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**80), max_value=2**80),
                      st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
FIELDS = ("type", "card", "value", "from", "action", "to", "cards", "pay", "choice", "seat", "id", "index")


def move_shapes(types: list[str]) -> st.SearchStrategy[Any]:
    """Moves near the real ones (known types and field names, any values), and anything at all.
    The type is drawn as an index over a fixed range, so the draw stays the same when an accepted
    move changes how many types the game lists (Hypothesis replays a draw and needs it stable)."""
    kinds = st.integers(0, 63).map(lambda i: types[i % len(types)]) if types else st.text(max_size=10)
    near = st.fixed_dictionaries({"type": kinds},
                                 optional={f: JSON for f in FIELDS if f != "type"})
    return st.one_of(near, JSON)


FUZZ = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, dict[str, dict[str, Any]]]]:
    """One server with every game, and a started table of each (tokens by seat)."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.storage.db import migrate

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('fuzz') / 'parlour.db'}"
    migrate(url)
    with TestClient(create_app(Settings(database_url=url, engines=(*BUILTIN, TALLY), public_url=None)),
                    base_url="http://testserver") as client:
        client.app.state.parlour.code_brake.per_minute = 10**9  # the fuzzer misses codes on purpose
        tables = {}
        for game in client.get("/api/games").json()["games"]:
            founded = client.post("/api/tables", json={"game": game["id"], "name": "Ada"}).json()
            tokens = [founded["seat_token"]] + [
                client.post(f"/api/tables/{founded['code']}/join", json={"name": n}).json()["seat_token"]
                for n in ("Bob", "Cy", "Dee")[:game["min_seats"] - 1]]
            assert client.post(f"/api/seats/{tokens[0]}/start").status_code == 200
            tables[game["id"]] = {"code": founded["code"], "tokens": tokens}
        yield client, tables


def assert_clean_error(r: Any) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        body = r.json()
        assert isinstance(body.get("error"), str) and isinstance(body.get("message"), str), body


def awaited(client: Any, table: dict[str, Any]) -> tuple[str, int, list[str]]:
    for token in table["tokens"]:
        moves = client.get(f"/api/seats/{token}/moves").json()
        if moves["moves"]:
            return token, moves["seq"], sorted({m["type"] for m in moves["moves"]})
    raise AssertionError("nobody is awaited")


@given(data=st.data())
@FUZZ
def test_moves_of_any_shape_for_every_game_are_answered_cleanly_and_refusals_change_nothing(site, data):
    client, tables = site
    game = data.draw(st.sampled_from(sorted(tables)))
    token, seq, types = awaited(client, tables[game])
    before = client.get(f"/api/seats/{token}").json()
    move = data.draw(move_shapes(types))
    body = {"seq": data.draw(st.one_of(st.just(seq), JSON)), "move": move}
    r = client.post(f"/api/seats/{token}/moves", content=_dumps(body), headers={"content-type": "application/json"})
    assert_clean_error(r)
    if r.status_code != 200:
        assert client.get(f"/api/seats/{token}").json() == before


def _dumps(value: Any) -> bytes:
    import json

    return json.dumps(value).encode()


@given(path=st.sampled_from(["/api/tables", "/api/tables/{code}/join", "/api/seats/{token}/start",
                             "/api/seats/{token}/moves", "/api/seats/{token}/remove", "/found", "/join/{code}"]),
       body=st.one_of(JSON.map(_dumps), st.binary(max_size=64)),
       kind=st.sampled_from(["application/json", "application/x-www-form-urlencoded", "text/plain"]))
@FUZZ
def test_http_bodies_of_any_shape_are_answered_cleanly(site, path, body, kind):
    client, tables = site
    table = tables["tally"]
    url = path.format(code=table["code"], token=table["tokens"][1])
    r = client.post(url, content=body, headers={"content-type": kind}, follow_redirects=False)
    if url.startswith("/api/"):
        assert_clean_error(r)
    else:  # pages answer with a page
        assert r.status_code < 500 and r.headers["content-type"].startswith("text/html"), r.text


@given(message=st.one_of(JSON.map(lambda v: _dumps(v).decode()), st.text(max_size=50),
                         st.fixed_dictionaries({"type": st.sampled_from(["move", "chat", "sync", "ping"])},
                                               optional={"seq": JSON, "move": JSON, "text": JSON})
                         .map(lambda v: _dumps(v).decode())))
@FUZZ
def test_websocket_messages_of_any_shape_get_an_answer_and_keep_the_socket(site, message):
    client, tables = site
    table = tables["tally"]
    client.app.state.parlour.hub.chat_limit.limit = 10**9
    client.app.state.parlour.hub.sync_limit.limit = 10**9
    with client.websocket_connect(f"/ws/seats/{table['tokens'][1]}") as ws:
        while ws.receive_json()["type"] != "view":
            pass
        ws.send_text(message)
        ws.send_text('{"type": "ping"}')
        while (reply := ws.receive_json())["type"] != "pong":
            if reply["type"] == "error":
                assert isinstance(reply["error"], str) and isinstance(reply["message"], str)
