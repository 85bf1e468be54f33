"""What a server process loads only when first needed (issue #29, memory): a process whose players
never subscribe to pushes never imports the push client's HTTP library nor the VAPID key's
cryptography — together ~17 MB of a fresh process's 104 MB. Checked in a fresh interpreter, since
this test process has imported everything already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_a_process_loads_the_push_libraries_only_when_a_push_is_wanted(sqlite_url: str) -> None:
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, check=True, capture_output=True,
                   env={"DATABASE_URL": sqlite_url, "PATH": ""})
    out = subprocess.run([sys.executable, "-c", PROBE, sqlite_url], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    assert got["before"] == [], f"loaded at start, though no push was wanted: {got['before']}"
    assert got["after"] == ["cryptography", "py_vapid"] and len(got["key"]) > 80
