"""Fair shuffles: the seed's hash is published at the start, the seed and moves at the end,
and the verify command replays them."""

from __future__ import annotations

import json

from app.cli import main as cli
from app.storage.tokens import seed_hash
from tests.support.play import play_one, started_table


def finish(client, t) -> None:
    for _ in range(60):
        if client.get(f"/api/tables/{t['code']}").json()["status"] == "finished":
            return
        play_one(client, t)
    raise AssertionError("the game did not end")


def test_the_revealed_seed_matches_the_hash_published_at_the_start(client):
    t = started_table(client, ("Ada", "Bob", "Cy"), target=21)
    published = client.get(f"/api/tables/{t['code']}").json()["seed_hash"]
    finish(client, t)
    summary = client.get(f"/api/tables/{t['code']}").json()
    assert summary["seed_hash"] == published == seed_hash(summary["seed"])


def test_verify_replays_the_record_and_finds_it_matches(client, tmp_path, capsys, monkeypatch):
    t = started_table(client, ("Ada", "Bob"), target=21)
    finish(client, t)
    record = client.get(f"/api/tables/{t['code']}/record").json()
    assert [m["seq"] for m in record["moves"]] == list(range(1, len(record["moves"]) + 1))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    monkeypatch.setenv("PARLOUR_ENGINES", "tests.support.tinygame:ENGINE")
    assert cli(["verify", str(path)]) == 0
    assert "final position and result match" in capsys.readouterr().out


def test_verify_catches_a_tampered_record(client, tmp_path, capsys, monkeypatch):
    t = started_table(client, ("Ada", "Bob"), target=21)
    finish(client, t)
    record = client.get(f"/api/tables/{t['code']}/record").json()
    monkeypatch.setenv("PARLOUR_ENGINES", "tests.support.tinygame:ENGINE")
    forged = dict(record, seed="0" * 32)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert cli(["verify", str(path)]) == 1
    assert "does not match the hash" in capsys.readouterr().out
