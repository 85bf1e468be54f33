"""The soak benchmark's in-process modes, quick, so they never rot (the figures come from its
full runs: docs/PERFORMANCE.md); and what makes a soak trustworthy: it never ends silently,
and a record with a move lost or changed does not verify."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from app.storage.tokens import seed_hash
from bench.soak import NODE_CLIENT, ClientFailed, Verifier, follow_client, hosted, main, record_problems, traced_growth
from engines.base import new_game, rules_version


def test_table_cost_measures_a_live_table_at_its_largest():
    (row,) = main(["table-cost", "--quick", "--only", "tower_of_london"])[:1]
    assert row["size"] > row["log"] > 0 and row["seq"] == row["moves"] > 0
    assert row["old_log"] > row["log"]  # the compact log is smaller than lists of dicts


def test_reload_times_a_table_loaded_again_from_its_snapshot_and_moves():
    (row,) = main(["reload", "--quick", "--only", "tower_of_london"])
    assert row["status"] == "finished" and row["moves"] > 0 and row["reload_ms_median"] > 0


# -- the load client's end -----------------------------------------------------------------------
# Stand-ins for the Node client (a real process each), speaking its protocol: "FINISHED code seq"
# lines, then one JSON line of figures.

def client(script: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(script)]


def test_a_client_that_stops_saying_why_fails_the_soak_with_its_reason(tmp_path: Path):
    seen: list[tuple[str, int]] = []
    stopped = client("""
        import sys
        print("FINISHED ABC123 40", flush=True)
        sys.stderr.write("load client: stopped after 1 finished games: table XYZ789 seat 2: "
                         "the server closed its socket (4429 too many connections)\\n")
        sys.exit(1)
    """)
    with pytest.raises(ClientFailed, match=r"after 1 finished games .*exit code 1.*4429 too many connections"):
        follow_client(stopped, tmp_path / "client.err", lambda code, seq: seen.append((code, seq)))
    assert seen == [("ABC123", 40)]


def test_a_client_that_exits_cleanly_without_its_figures_still_fails_the_soak(tmp_path: Path):
    silent = client("""
        print("FINISHED ABC123 40", flush=True)
    """)
    with pytest.raises(ClientFailed, match=r"without its figures \(exit code 0\): it said nothing"):
        follow_client(silent, tmp_path / "client.err", lambda code, seq: None)


def test_a_client_asked_to_stop_at_the_time_limit_ends_with_its_figures(tmp_path: Path):
    endless = client("""
        import json, signal, time
        stop = []
        signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
        n = 0
        while not stop:
            n += 1
            print(f"FINISHED T{n} 10", flush=True)
            time.sleep(0.01)
        print(json.dumps({"games_finished": n}), flush=True)
    """)
    seen: list[str] = []
    result = follow_client(endless, tmp_path / "client.err", lambda code, seq: seen.append(code),
                           deadline=time.perf_counter() + 0.3)
    assert result["asked_to_stop"] and result["games_finished"] >= len(seen) > 0


# -- the progress policy (A Game of Thrones' soak) ---------------------------------------------------

def test_the_soak_plays_a_whole_game_of_thrones_game_in_a_few_hundred_moves_and_its_record_verifies(tmp_path: Path):
    (row,) = main(["soak", "--only", "game_of_thrones", "--games", "1", "--tables", "1", "--seats", "3",
                   "--no-pin", "--stall", "60", "--rest", "1", "--out", str(tmp_path / "soak.jsonl")])
    assert row["policy"] == "progress" and row["games"] == 1 and row["stopped"] is None
    assert row["verified"] == 1 and row["problems"] == [] and row["errors"] == 0
    assert row["rss_mb_rested"] > 0 and row["samples"][-1]["rss_mb"] == row["rss_mb_rested"]  # measured at rest too
    # Random legal moves take about 2,400 at three seats (orders placed and taken back).
    assert 100 < row["moves"] < 1200


def picks(script: str) -> Any:
    """What bench/node/policy.mjs chooses, run by Node: ``script`` prints one JSON value."""
    code = f"import {{ pickMove }} from {json.dumps((NODE_CLIENT / 'policy.mjs').as_uri())};\n{script}"
    out = subprocess.run(["node", "--input-type=module", "-e", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_progress_policy_backs_out_of_a_march_step_that_leaves_only_undo_and_ends_the_march():
    # The trap an undo-refusing policy cycles in: after one "move" only "undo" is listed.
    steps = picks("""
        const staged = [{type: "move", unit: "footman", to: "blackwater"}, {type: "end_march", power: false},
                        {type: "undo"}];
        const steps = [];
        for (let run = 0; run < 200; run++) {
          let n = 0;
          for (let moves = staged; ; n++) {
            const m = pickMove("progress", moves);
            if (m.type === "end_march") break;
            moves = m.type === "move" ? [{type: "undo"}] : staged;
          }
          steps.push(n);
        }
        console.log(JSON.stringify(steps));
    """)
    assert len(steps) == 200 and max(steps) < 60 and sum(steps) / len(steps) < 4


def test_the_progress_policy_backs_out_as_many_steps_as_a_march_that_cannot_end_needs():
    # Seen in a soak (11,219 times round): after two staged steps the march could not end (no
    # "end_march" listed), and every third step left only "undo": undoing that one step alone
    # went straight back into the trap. Here a march can end only with nothing staged.
    steps = picks("""
        const step = (to) => ({type: "move", unit: "knight", to});
        const listed = (depth) => depth === 0 ? [step("seagard"), {type: "end_march", power: false}]
          : depth < 3 ? [step("seagard"), step("lannisport"), {type: "undo"}]
          : [{type: "undo"}];
        const steps = [];
        for (let run = 0; run < 200; run++) {
          let n = 0;
          for (let depth = 0; ; n++) {
            const m = pickMove("progress", listed(depth));
            if (m.type === "end_march") break;
            depth += m.type === "move" ? 1 : -1;
            if (n > 100000) break;
          }
          steps.push(n);
        }
        console.log(JSON.stringify(steps));
    """)
    assert len(steps) == 200 and max(steps) < 200 and sum(steps) / len(steps) < 12, (max(steps), sum(steps) / 200)


def test_the_progress_policy_readies_and_orders_only_areas_without_an_order():
    chosen = picks("""
        const planning = [{type: "order", area: "winterfell", order: "march"},
                          {type: "order", area: "the-eyrie", order: "raid"},
                          {type: "unorder", area: "winterfell"}];
        const out = {ready: 0, eyrie: 0, n: 1000};
        for (let i = 0; i < out.n; i++) {
          if (pickMove("progress", [...planning, {type: "ready"}]).type === "ready") out.ready++;
          const m = pickMove("progress", planning);
          if (m.type === "order" && m.area === "the-eyrie") out.eyrie++;
        }
        console.log(JSON.stringify(out));
    """)
    # All but the 3 % of any listed move.
    assert chosen["ready"] > 900 and chosen["eyrie"] > 900


# -- records -------------------------------------------------------------------------------------

def published_record(gid: str, seats: int, seed: int) -> dict[str, Any]:
    """A finished game's record as the server publishes it (app.features.record.table_record)."""
    engine = hosted()[gid]
    state = new_game(engine, seats, seed, {})
    rnd = random.Random(seed)
    moves = []
    while engine.result(state) is None:
        seat = min(engine.to_act(state))
        move = rnd.choice(engine.legal_moves(state, seat))
        engine.play(state, seat, move)
        moves.append({"seq": len(moves) + 1, "seat": seat, "move": move})
    result = engine.result(state)
    assert result is not None
    return {"code": "SOAK01", "game": gid, "rules_version": rules_version(engine), "options": {},
            "seats": [{"seat": i, "name": f"P{i}"} for i in range(seats)], "seed": f"{seed:032x}",
            "seed_hash": seed_hash(f"{seed:032x}"), "moves": moves, "result": result.as_json(),
            "final_view": engine.view(state, None)}


def test_a_record_verifies_only_with_every_move_seen_stored_and_unchanged():
    engines = hosted()
    record = published_record("tower_of_london", 2, 0x50A4)
    seen = len(record["moves"])
    assert record_problems(record, seen, engines) == []
    assert record_problems(record, seen + 1, engines) == [f"{seen} moves stored, {seen + 1} seen"]
    lost = {**record, "moves": record["moves"][:-1]}
    assert "the replayed game has not ended" in record_problems(lost, seen, engines)
    first, *rest = record["moves"]
    other = next(m for m in hosted()["tower_of_london"].legal_moves(
        new_game(engines["tower_of_london"], 2, 0x50A4, {}), first["seat"]) if m != first["move"])
    assert record_problems({**record, "moves": [{**first, "move": other}, *rest]}, seen, engines)
    assert record_problems({"error": "not_finished"}, seen, engines) == ["no record: {'error': 'not_finished'}"]


@contextmanager
def record_server(record: dict[str, Any], failures: int) -> Iterator[tuple[str, list[int]]]:
    """A real HTTP server publishing ``record`` after answering 503 ``failures`` times."""
    answered: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status = 503 if len(answered) < failures else 200
            answered.append(status)
            body = json.dumps(record if status == 200 else {"error": "busy"}).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", answered
    finally:
        server.shutdown()
        server.server_close()


def verified(base: str, seq: int, attempts: int) -> tuple[Verifier, list[str]]:
    said: list[str] = []
    verifier = Verifier(base, hosted(), said.append, attempts=attempts, timeout=30)
    verifier.start()
    verifier.todo.put(("SOAK01", seq))
    verifier.todo.put(None)
    verifier.join(timeout=60)
    return verifier, said


def test_a_record_the_server_was_too_busy_to_give_is_fetched_again_and_verifies():
    record = published_record("tower_of_london", 2, 0x50A4)
    with record_server(record, failures=1) as (base, answered):
        verifier, said = verified(base, len(record["moves"]), attempts=3)
    assert answered == [503, 200] and verifier.verified == 1 and verifier.problems == []
    assert said == ['the record of SOAK01 could not be fetched (HTTP 503 {"error": "busy"}); trying again']


def test_a_record_never_fetched_counts_as_lost_and_is_said_at_once():
    record = published_record("tower_of_london", 2, 0x50A4)
    with record_server(record, failures=5) as (base, answered):
        verifier, said = verified(base, len(record["moves"]), attempts=2)
    assert answered == [503, 503] and verifier.verified == 0
    assert verifier.problems == [
        'SOAK01: the record could not be fetched: 2 attempts, the last: HTTP 503 {"error": "busy"}']
    assert said[-1].startswith("PROBLEM with the record of SOAK01") and "2 attempts" in said[-1]


# -- finding growth ------------------------------------------------------------------------------

def test_traced_growth_names_the_line_that_kept_memory(tmp_path: Path):
    kept: list[bytes] = []
    tracemalloc.start(4)
    try:
        tracemalloc.take_snapshot().dump(str(tmp_path / "000.snap"))
        kept += [bytes(1000) for _ in range(2000)]  # the growth: about 2 MB
        tracemalloc.take_snapshot().dump(str(tmp_path / "001.snap"))
    finally:
        tracemalloc.stop()
    report = traced_growth(tmp_path / "000.snap", tmp_path / "001.snap", 3)
    top = report.splitlines()[1]
    assert "test_soak_bench.py" in top and "+2000 blocks" in top and len(kept) == 2000
