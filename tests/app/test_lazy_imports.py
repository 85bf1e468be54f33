"""What a server process loads only when first needed (issue #29, memory): a process whose players
never subscribe to pushes never imports the push client's HTTP library nor the VAPID key's
cryptography — together ~17 MB of a fresh process's 104 MB. Checked in a fresh interpreter, since
this test process has imported everything already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from fastapi.testclient import TestClient
from app.main import create_app
from tests.conftest import make_settings
from tests.support.play import found, join

with TestClient(create_app(make_settings(sys.argv[1])), base_url="http://testserver") as c:
    t = found(c, "Ada")
    join(c, t["code"], "Bob")
    assert c.post(f"/api/seats/{t['seat_token']}/start").status_code == 200
    before = sorted(m for m in ("aiohttp", "py_vapid", "pywebpush", "cryptography") if m in sys.modules)
    key = c.get("/api/push/key").json()["key"]
    after = sorted(m for m in ("py_vapid", "cryptography") if m in sys.modules)
print(json.dumps({"before": before, "after": after, "key": key}))
"""


def in_fresh_process(probe: str, sqlite_url: str) -> dict[str, Any]:
    """What ``probe`` prints last (JSON), run in a new interpreter on a migrated database."""
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, check=True, capture_output=True,
                   env={"DATABASE_URL": sqlite_url, "PATH": ""})
    out = subprocess.run([sys.executable, "-c", probe, sqlite_url], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def test_a_process_loads_the_push_libraries_only_when_a_push_is_wanted(sqlite_url: str) -> None:
    got = in_fresh_process(PROBE, sqlite_url)
    assert got["before"] == [], f"loaded at start, though no push was wanted: {got['before']}"
    assert got["after"] == ["cryptography", "py_vapid"] and len(got["key"]) > 80


LATER = """
import json, sys
from fastapi.testclient import TestClient
from app.main import create_app
from tests.conftest import make_settings
from tests.support.play import found, join, play_one, started_table

WATCHED = ("yarl", "prometheus_client", "pydantic.v1")
with TestClient(create_app(make_settings(sys.argv[1])), base_url="http://testserver") as c:
    t = started_table(c, ("Ada", "Bob"))
    play_one(c, t)
    with c.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        ws.receive_json()
    before = sorted(m for m in WATCHED if sys.modules.get(m) is not None)
    body, _ = c.app.app.state.figures.scrape(None)
    from app.features.push_policy import PushPolicy
    PushPolicy().endpoint("https://fcm.googleapis.com/fcm/send/abc")
    after = sorted(m for m in WATCHED if sys.modules.get(m) is not None)
print(json.dumps({"before": before, "after": after, "moves": "parlour_move_seconds_count 1.0" in body.decode()}))
"""


def test_a_process_loads_the_url_parser_and_the_metrics_library_only_when_first_used(sqlite_url: str) -> None:
    """yarl (1.2 MB) with the first push subscription checked, prometheus_client (about 1 MB)
    with the first scrape, and pydantic.v1 (0.9 MB; FastAPI imports it to ask whether a route's
    types are v1 models) never."""
    got = in_fresh_process(LATER, sqlite_url)
    assert got["before"] == [], f"loaded before they were needed: {got['before']}"
    assert got["after"] == ["prometheus_client", "yarl"]
    assert got["moves"], "the scrape counted the move played before the library was loaded"


PAGES = """
import json, sys
from app.main import create_app  # first, as `parlour serve` imports the server before FastAPI
from fastapi.testclient import TestClient
from tests.conftest import make_settings
from tests.support.play import started_table, play_one

with TestClient(create_app(make_settings(sys.argv[1])), base_url="http://testserver") as c:
    t = started_table(c, ("Ada", "Bob"))
    play_one(c, t)
    with c.websocket_connect(f"/ws/seats/{t['tokens'][0]}") as ws:
        ws.receive_json()
    before = {m: sys.modules.get(m) is not None for m in ("jinja2", "watchfiles")}
    import uvicorn.supervisors
    reloader = uvicorn.supervisors.ChangeReload.__name__
    from fastapi.openapi.models import OpenAPI
    from app.web.routes.api import FoundIn
    built = {"fastapi": OpenAPI.__pydantic_complete__, "ours": FoundIn.__pydantic_complete__}
    page = c.get(f"/seat/{t['tokens'][0]}")
    doc = OpenAPI.model_validate({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}})
    after = {"jinja2": sys.modules.get("jinja2") is not None, "openapi": doc.info.title, "page": page.status_code}
print(json.dumps({"before": before, "reloader": reloader, "built": built, "after": after}))
"""


def test_a_process_loads_jinja2_at_its_first_page_fastapis_models_at_first_use_and_watchfiles_never(
        sqlite_url: str) -> None:
    """Jinja2 (1.1 MB) with the first page; FastAPI's OpenAPI models (1.3 MB) built when first
    used, the server's own payload models built as usual; uvicorn's watchfiles reloader (0.6 MB)
    never — uvicorn falls back to its polling reloader."""
    got = in_fresh_process(PAGES, sqlite_url)
    assert got["before"] == {"jinja2": False, "watchfiles": False}, got
    assert got["reloader"] == "StatReload"
    assert got["built"] == {"fastapi": False, "ours": True}, got
    assert got["after"] == {"jinja2": True, "openapi": "t", "page": 200}, got


def test_parlour_serve_runs_without_docstrings_asserts_and_column_positions(sqlite_url: str, server_factory) -> None:
    """4–5 MB less resident memory (docs/PERFORMANCE.md); the process keeps its pid (an exec), so
    a supervisor's signals still reach it."""
    server = server_factory(sqlite_url)
    assert server.proc is not None
    argv = Path(f"/proc/{server.proc.pid}/cmdline").read_bytes().split(b"\0")
    assert argv[1:4] == [b"-OO", b"-X", b"no_debug_ranges"], argv
    assert httpx.get(f"{server.base}/readyz", timeout=10).status_code == 200
