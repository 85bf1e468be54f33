"""The action bar says things once, and is no bigger than what it holds (London, Tower of London,
Towers of Babylon; docs/DESIGN.md, "The table's frame"):

- the prompt is said once, in the action bar: no block of the board outside it says whose turn it
  is ("Your turn", "Your move", "Waiting for…") or repeats most of the bar's sentence;
- a spectator's bar says who is to play ("Watching — Ada to play"), the end's who won ("Game
  over — Ada wins"), in one line, with no empty row for buttons that never come;
- on a phone, no visible control covers another (Undo floating over London's pinned hand did).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.browser import scenes
from tests.browser.look import context_args, settle
from tests.browser.measure import CONTROLS_OVERLAP_JS, SAID_AGAIN_JS
from tests.browser.test_game_layout import london_at, tower_ability_with_targets
from tests.browser.test_towers_of_babylon import Plan, api_table, choose_decks, play_until
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = "engines.london:ENGINE,engines.tower_of_london:ENGINE,engines.towers_of_babylon:ENGINE"
OUT = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("action-bar"), ENGINES) as srv:
        yield srv


def babylon_dealt(server: ServerProcess) -> Any:
    game = api_table(server)
    choose_decks(game)
    for seat in (0, 1):
        seq, _ = game.moves(seat)
        game.play(seat, seq, {"type": "mulligan", "cards": []})
    return game


@pytest.fixture(scope="module")
def pages(server: ServerProcess) -> dict[str, dict[str, Any]]:
    """Each scene's path, and for the end and the spectators the names the bar should give."""
    api = httpx.Client(base_url=server.base, timeout=30)
    out: dict[str, dict[str, Any]] = {}
    lon = london_at("action", 30)(api)
    out["london a turn"] = {"path": lon.seat_url(lon.awaiting()[0])}
    out["london spectator"] = {"path": lon.watch_url(), "watching": lon.summary()}
    lon = london_at("develop", 10)(api)
    out["london develop"] = {"path": lon.seat_url(lon.awaiting()[0])}
    lon = scenes.london(api)
    lon.advance(scenes.london_chooser(5), lambda t: t.finished())
    out["london end"] = {"path": lon.seat_url(0), "over": lon.summary()}
    tol = scenes.tower(api)
    out["tower pick"] = {"path": tol.seat_url(0)}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(1), scenes.tower_kind("place"))
    out["tower place"] = {"path": tol.seat_url(scenes.awaited_with(tol, "place"))}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(2), tower_ability_with_targets)
    out["tower ability"] = {"path": tol.seat_url(scenes.awaited_with(tol, "backstab", "poison", "switch"))}
    out["tower spectator"] = {"path": tol.watch_url(), "watching": tol.summary()}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(3), lambda t: t.finished())
    out["tower end"] = {"path": tol.seat_url(0), "over": tol.summary()}
    game = babylon_dealt(server)
    out["babylon first turn"] = {"path": f"/seat/{game.token[game.table()['awaiting'][0]]}"}
    out["babylon spectator"] = {"path": f"/watch/{game.code}", "watching": game.table()}
    cards = game.api.get(f"/api/tables/{game.code}/static").json()["cards"]
    game = api_table(server)
    choose_decks(game)
    play_until(game, Plan(cards), lambda: game.table()["status"] == "finished")
    out["babylon end"] = {"path": f"/seat/{game.token[1]}", "over": game.table()}
    return out


def shot(page: Page, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"))


def open_scene(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(400)
    settle(page)


BAR_JS = """() => {
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  return { h: bar.height, text: document.getElementById('prompt').textContent.trim(),
           empty: [...document.querySelectorAll('#action-bar > *')].filter((e) => e.getBoundingClientRect().height > 4
             && !e.textContent.trim()).map((e) => e.id || e.className) };
}"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_prompt_is_said_once_in_the_action_bar(browser: Browser, server: ServerProcess,
                                                    pages: dict[str, dict[str, Any]], size: str) -> None:
    ctx = browser.new_context(**context_args(size))
    page = ctx.new_page()
    bad = []
    for name in ("london a turn", "london develop", "london spectator", "tower pick", "tower place",
                 "tower ability", "tower spectator", "babylon first turn", "babylon spectator"):
        open_scene(page, server.base, pages[name]["path"])
        again = page.evaluate(SAID_AGAIN_JS)
        if again["blocks"]:
            bad.append(f"{name}: the bar says {again['sentence']!r}; the board again: {again['blocks']}")
    ctx.close()
    assert not bad, "\n".join(bad)


def names(summary: dict[str, Any], seats: list[int]) -> list[str]:
    by_seat = {p["seat"]: p["name"] for p in summary["players"]}
    return [by_seat[s] for s in seats]


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_spectators_bar_and_the_ends_say_who_plays_or_won_in_one_short_line(
        browser: Browser, server: ServerProcess, pages: dict[str, dict[str, Any]], size: str) -> None:
    """At most one line of text and its padding (≤ 56 px), no empty row kept for buttons, and the
    words: "Watching — Ada to play", "Game over — Ada wins"."""
    ctx = browser.new_context(**context_args(size))
    page = ctx.new_page()
    bad = []
    measured = {}
    for name in ("london spectator", "tower spectator", "babylon spectator", "london end", "tower end", "babylon end"):
        scene = pages[name]
        open_scene(page, server.base, scene["path"])
        bar = page.evaluate(BAR_JS)
        measured[name] = round(bar["h"])
        shot(page, f"action-bar-{name.replace(' ', '-')}-{size}")
        if "watching" in scene:
            who = names(scene["watching"], scene["watching"]["awaiting"])
            if not (bar["text"].startswith("Watching — ") and all(n in bar["text"] for n in who)):
                bad.append(f"{name}: the bar says {bar['text']!r}, not who is to play ({who})")
        else:
            won = names(scene["over"], scene["over"]["result"]["winners"])
            if not (bar["text"].startswith("Game over — ") and all(n in bar["text"] for n in won)):
                bad.append(f"{name}: the bar says {bar['text']!r}, not who won ({won})")
        if bar["h"] > 56 or bar["empty"]:
            bad.append(f"{name}: the bar is {bar['h']:.0f} px tall, empty rows {bar['empty']}")
    ctx.close()
    assert not bad, "\n".join(bad) + "\n" + json.dumps(measured)


@pytest.mark.parametrize("scene", ["london undo", "london a turn", "london develop", "tower pick", "tower place",
                                   "babylon first turn"])
def test_no_control_covers_another_on_a_phone(browser: Browser, server: ServerProcess, pages: dict[str, dict[str, Any]],
                                              scene: str) -> None:
    """Every pair of visible controls (buttons, links, cards that act as buttons, Undo) on a phone:
    their boxes do not intersect, at the top and the bottom of the page. "london undo": a loan
    taken at the start of a turn, so Undo shows above a pinned hand."""
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    if scene == "london undo":
        api = httpx.Client(base_url=server.base, timeout=30)
        t = scenes.london(api)
        seat = t.awaiting()[0]
        open_scene(page, server.base, t.seat_url(seat))
        page.locator('#board [data-k="loan"]').click()
        page.wait_for_function("() => document.getElementById('undo').classList.contains('on')")
        page.wait_for_timeout(300)
    else:
        open_scene(page, server.base, pages[scene]["path"])
    found = {}
    for where in ("top", "bottom"):
        page.evaluate("(w) => window.scrollTo(0, w === 'top' ? 0 : document.documentElement.scrollHeight)", where)
        page.wait_for_timeout(250)
        found[where] = page.evaluate(CONTROLS_OVERLAP_JS)
        shot(page, f"action-bar-overlap-{scene.replace(' ', '-')}-{where}")
    ctx.close()
    assert not (found["top"] or found["bottom"]), json.dumps(found, indent=1)[:3000]
