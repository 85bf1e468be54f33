"""Every page and game state, looked at in Chromium: axe-core in light and dark, desktop and
phone, and again with the main controls hovered; the contrast of every text; the first screen at
1366×768, 1920×1080 and 390×844 (screenshots kept in artifacts/screenshots/look-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.browser import scenes
from tests.browser.look import SIZES, axe, context_args, low_contrast, settle
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = "engines.london:ENGINE,engines.tower_of_london:ENGINE"

# The main controls of each kind of page, hovered one after another while axe looks again.
HOVER = [
    "#board .lon-actions .lon-btn.can", "#board .deck", "#board .lon-hand .lc", "#board .lon-city .bt",
    "#board .lon-btn.primary", "#board .tol-hand button.tol-card", "#board .tol-buttons button",
    '[role="tab"][aria-selected="true"]', '[role="tab"][aria-selected="false"]', "#start", "#copy-link",
    "form button[type=submit]", ".game-picker a", ".play-again", "#chat-form button",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("look"), ENGINES) as srv:
        yield srv


@pytest.fixture(scope="module")
def pages(server: ServerProcess) -> dict[str, str]:
    """Every page worth looking at, by name: path on the server."""
    api = httpx.Client(base_url=server.base, timeout=20)
    out: dict[str, str] = {"front": "/", "front-tower": "/?game=tower_of_london", "missing": "/join/ZZZZZZ"}
    gathering = api.post("/api/tables", json={"game": "london", "name": "Ada"}).json()
    out["invitation"] = f"/join/{gathering['code']}"
    out["waiting-london"] = f"/seat/{gathering['seat_token']}"
    t = api.post("/api/tables", json={"game": "tower_of_london", "name": "Heather"}).json()
    out["waiting-tower"] = f"/seat/{t['seat_token']}"

    lon = scenes.london(api)
    out["begun"] = f"/join/{lon.code}"
    seat = lon.awaiting()[0]
    out["london-start"] = lon.seat_url(seat)
    lon = scenes.london(api)
    lon.advance(scenes.london_chooser(3), scenes.london_step("action", min_moves=40))
    out["london-action"] = lon.seat_url(lon.awaiting()[0])
    out["london-other"] = lon.seat_url(1 - lon.awaiting()[0])
    out["london-spectator"] = lon.watch_url()
    lon = scenes.london(api, names=("Ada", "Beatrice", "Cy", "Dot"))
    lon.advance(scenes.london_chooser(5), lambda t: t.finished())
    out["london-end"] = lon.seat_url(0)

    out["tower-pick"] = scenes.tower(api).seat_url(0)
    tol = scenes.tower(api)
    pick = scenes.tower_chooser(1)
    tol.advance(pick, scenes.tower_kind("place"))
    out["tower-place"] = tol.seat_url(scenes.awaited_with(tol, "place"))
    out["tower-reveal"] = tol.seat_url((scenes.awaited_with(tol, "place") + 1) % 3)
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(2), scenes.tower_kind("backstab", "poison", "switch"))
    out["tower-ability"] = tol.seat_url(scenes.awaited_with(tol, "backstab", "poison", "switch"))
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(3), scenes.tower_kind("keep"))
    out["tower-keep"] = tol.seat_url(0)
    tol.advance(scenes.tower_chooser(3), scenes.tower_kind("pick"))
    out["tower-scoring"] = tol.seat_url(0)
    tol.advance(scenes.tower_chooser(3), lambda t: t.finished())
    out["tower-end"] = tol.seat_url(0)
    out["tower-spectator"] = tol.watch_url()
    return out


def open_page(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    if path.startswith(("/seat/", "/watch/")):
        page.wait_for_function("() => window.parlourMetrics && (window.parlourMetrics.firstView !== null"
                               " || !document.getElementById('waiting').hidden)")
        page.wait_for_timeout(150)
    settle(page)


SCREENS = ["front", "waiting-london", "london-start", "london-action", "london-other", "london-end",
           "tower-pick", "tower-reveal", "tower-ability", "tower-end"]


def test_first_screens_at_three_sizes(browser: Browser, server: ServerProcess, pages: dict[str, str],
                                      screenshots: Path) -> None:
    for size in SIZES:
        ctx = browser.new_context(**context_args(size))
        page = ctx.new_page()
        for name in SCREENS:
            open_page(page, server.base, pages[name])
            page.screenshot(path=str(screenshots / f"look-{name}-{size}.png"))
        ctx.close()


THEMES = [("light", "laptop"), ("dark", "laptop"), ("light", "phone"), ("dark", "phone")]


@pytest.mark.parametrize(("theme", "size"), THEMES, ids=[f"{t}-{s}" for t, s in THEMES])
def test_axe_finds_nothing_serious(browser: Browser, server: ServerProcess, pages: dict[str, str],
                                   theme: str, size: str, screenshots: Path) -> None:
    ctx = browser.new_context(**context_args(size, theme))
    page = ctx.new_page()
    found: dict[str, Any] = {}
    for name, path in pages.items():
        open_page(page, server.base, path)
        bad = axe(page)
        if bad:
            found[name] = bad
        hovered = []
        for sel in (HOVER if size != "phone" else []):  # a phone has no hover
            loc = page.locator(sel)
            if loc.count() and loc.first.is_visible():
                loc.first.hover()
                hovered.append(sel)
                # the hovered control, in its hover state (what else a hover changes is the control's own)
                low = {"id": "low-contrast", "nodes": low_contrast(page, sel)}
                bad = [*axe(page, ["color-contrast"], scope=sel), low]
                bad = [b for b in bad if b["nodes"]]
                if bad:
                    found[f"{name} hover {sel}"] = bad
        page.mouse.move(0, 0)
        low = low_contrast(page)
        if low:
            found[f"{name} contrast"] = low
    ctx.close()
    (screenshots.parent / f"axe-{theme}-{size}.json").write_text(json.dumps(found, indent=1))
    assert not found, json.dumps(found, indent=1)[:6000]
