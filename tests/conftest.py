"""Shared fixtures: a fresh database per test (SQLite, and a real PostgreSQL: TEST_DATABASE_URL's,
or a private server started here), the app in-process, and real server processes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app.server.config import Settings, sync_url
from tests.support.postgres import PrivatePostgres, installed
from tests.support.server import TALLY, ServerProcess

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """TEST_DATABASE_URL when given; otherwise a private server for this test run."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    if not installed():
        pytest.fail("PostgreSQL is not installed: run the README's test command, which installs it, "
                    "or set TEST_DATABASE_URL")
    server = PrivatePostgres(fsync=False, dbname="parlour_test")
    try:
        yield server.url
    finally:
        server.stop()


def reset_postgres(url: str) -> None:
    engine = create_engine(sync_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.pg)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A freshly migrated database, once on SQLite and once on PostgreSQL."""
    from app.storage.db import migrate

    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'parlour.db'}"
    else:
        url = request.getfixturevalue("postgres_server")
        reset_postgres(url)
    migrate(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    from app.storage.db import migrate

    url = f"sqlite+aiosqlite:///{tmp_path / 'parlour.db'}"
    migrate(url)
    return url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    from app.storage.db import migrate

    url = postgres_server
    reset_postgres(url)
    migrate(url)
    return url


def make_settings(url: str, **over: Any) -> Settings:
    return Settings(database_url=url, engines=(TALLY,), public_url=None, **over)


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(make_settings(db_url)), base_url="http://testserver") as c:
        yield c


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    started: list[ServerProcess] = []

    def make(url: str, **kw: Any) -> ServerProcess:
        server = ServerProcess(url, tmp_path / f"server{len(started)}.log", **kw)
        started.append(server)
        return server.start()

    yield make
    for s in started:
        s.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": shutil.which("chromium"),
            "args": CHROMIUM_ARGS, "headless": True}


# Browser tests run under the site's real Content-Security-Policy (never bypass_csp), and any
# violation the page meets fails the test: an injected <style>, a style attribute, an inline
# script are blocked for every player, so a page that needs one is broken. The browser reports
# each violation as a `securitypolicyviolation` event, which this script turns into a console line.
CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || "an inline one"}`
    + ` (${e.sourceFile || location.pathname}:${e.lineNumber}) ${e.sample || ""}`);
}, true);"""


def csp_complaint(text: str) -> bool:
    return "Content-Security-Policy" in text or "Content Security Policy" in text


# What the pages of a browser test said went wrong (console errors, failed requests, uncaught
# errors): printed with a failure, beside the end of the test server's log, so that a failure
# seen once on a loaded machine can be read afterwards.
PAGE_TRAIL = pytest.StashKey[list[str]]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when != "call" or not report.failed:
        return
    trail = item.stash.get(PAGE_TRAIL, [])
    if trail:
        report.sections.append(("what the pages said", "\n".join(trail[-80:])))
    server = getattr(item, "funcargs", {}).get("server")
    if isinstance(server, ServerProcess):
        report.sections.append(("the end of the server's log", "\n".join(server.log_text().splitlines()[-80:])))


@pytest.fixture(autouse=True)
def csp_violations_fail_the_test(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Watches every browser context a browser test opens (browser.new_context / new_page) and
    fails the test on any Content-Security-Policy violation in a page's console."""
    if "browser" not in request.fixturenames:
        yield []
        return
    browser = request.getfixturevalue("browser")
    seen: list[str] = []
    trail = request.node.stash.setdefault(PAGE_TRAIL, [])
    make = browser.new_context

    def heard(m: Any) -> None:
        if csp_complaint(m.text):
            seen.append(f"{m.text} [{m.location.get('url')}]")
        if m.type in ("error", "warning"):
            trail.append(f"console {m.type}: {m.text} [{m.location.get('url')}]")

    def new_context(*args: Any, **kwargs: Any) -> Any:
        assert not kwargs.get("bypass_csp"), "browser tests run under the site's Content-Security-Policy"
        context = make(*args, **kwargs)
        context.add_init_script(script=CSP_WATCH)
        context.on("console", heard)
        context.on("requestfailed", lambda r: trail.append(f"request failed: {r.method} {r.url} ({r.failure})"))
        context.on("weberror", lambda e: trail.append(f"page error: {e.error}"))
        return context

    def new_page(*args: Any, **kwargs: Any) -> Any:
        return new_context(*args, **kwargs).new_page()

    browser.new_context = new_context
    browser.new_page = new_page
    try:
        yield seen
    finally:
        del browser.new_context, browser.new_page
    assert not seen, "Content-Security-Policy violations:\n" + "\n".join(dict.fromkeys(seen))


@pytest.fixture(scope="session")
def screenshots() -> Path:
    path = ARTIFACTS / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
