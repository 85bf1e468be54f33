"""The table's frame, one for every game (docs/DESIGN.md, "The table's frame"), measured on the
four games mid-turn, each at a table with clocks: London (at its action step), Tower of London
(choosing cards, a bot in the third seat), Towers of Babylon (the start of a turn) and A Game of
Thrones (placing orders), on a phone (390×844), a laptop (1366×768) and a wide screen
(1920×1080), in the light and the dark theme.

* The action bar — whose turn, the prompt, the buttons that answer it, Undo, the seat's own
  clock — is in view at the top, the middle and the bottom of the page; nothing scrolls sideways.
* The prompt's buttons and Undo are in the action bar; Undo appearing moves no other control.
* Each player's clock is beside their name in the player panels, styled (digits in their own
  element, the running one framed and marked in words), and the seat's own clock is in the bar.
* The board keeps at least half of a 1366×768 window; every control of the frame is at least
  24×24 px on a phone; the frame's marks keep 3:1 in both themes; axe-core (WCAG 2.2 AA) finds
  nothing serious on any of the four games.
* Every page runs under the site's real Content-Security-Policy, and a violation fails the test
  (tests/conftest.py). Screenshots: artifacts/screenshots/frame-*.png.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import scenes
from tests.browser.look import axe, context_args, settle
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = ("engines.london:ENGINE,engines.tower_of_london:ENGINE,engines.towers_of_babylon:ENGINE,"
           "engines.game_of_thrones:ENGINE")
CLOCK = {"kind": "fischer", "seconds": 1800, "increment": 10}
GAMES = ["london", "tower_of_london", "towers_of_babylon", "game_of_thrones"]
GAME_TITLES = {"london": "London", "tower_of_london": "Tower of London", "towers_of_babylon": "Towers of Babylon",
               "game_of_thrones": "A Game of Thrones"}
LOOKS = [("phone", "light"), ("phone", "dark"), ("laptop", "light"), ("laptop", "dark"), ("wide", "light"),
         ("tablet", "light")]


class ClockedTable(scenes.Table):
    """A table with a chess clock per seat, and bots seated before the start when asked."""

    def __init__(self, api: httpx.Client, game: str, names: tuple[str, ...], bots: int = 0) -> None:
        self.api = api
        founded = api.post("/api/tables", json={"game": game, "name": names[0], "clock": CLOCK})
        assert founded.status_code == 201, founded.text
        self.code = founded.json()["code"]
        tokens = [founded.json()["seat_token"]]
        for name in names[1:]:
            joined = api.post(f"/api/tables/{self.code}/join", json={"name": name})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["seat_token"])
        for _ in range(bots):
            assert api.post(f"/api/seats/{tokens[0]}/bots", json={"level": "easy"}).status_code == 201
        api.post(f"/api/seats/{tokens[0]}/start").raise_for_status()
        self.by_seat = {api.get(f"/api/seats/{tok}").json()["seat"]: tok for tok in tokens}
        self.moves = 0

    def advance(self, pick: Callable[[int, list[dict[str, Any]]], int], until: Callable[[scenes.Table], bool],
                limit: int = 3000) -> None:
        """As Table.advance, the bots' seats left to the bots."""
        while not until(self):
            awaited = [s for s in self.awaiting() if s in self.by_seat]
            if not awaited:
                time.sleep(0.05)
                continue
            for seat in awaited:
                seq, moves = self.legal(seat)
                if moves:
                    self.play(seat, moves[pick(seat, moves)], seq)
            assert self.moves < limit, "the scene was never reached"


@dataclass
class Scene:
    table: ClockedTable
    seat: int
    answers: list[str]  # labels of buttons that answer this prompt (they belong in the action bar)

    @property
    def url(self) -> str:
        return self.table.seat_url(self.seat)


def london_scene(api: httpx.Client) -> Scene:
    t = ClockedTable(api, "london", ("Ada", "Beatrice"))
    t.advance(scenes.london_chooser(3), scenes.london_step("action", min_moves=30))
    return Scene(t, t.awaiting()[0], ["Develop", "Buy Land", "Run the City", "Draw Three", "Take a £10 loan"])


def tower_scene(api: httpx.Client) -> Scene:
    t = ClockedTable(api, "tower_of_london", ("Heather", "Ross"), bots=1)
    return Scene(t, min(t.by_seat), ["Lay them face down", "Swap order", "Clear"])  # a seat not the bot's


def babylon_scene(api: httpx.Client) -> Scene:
    t = ClockedTable(api, "towers_of_babylon", ("Ada", "Beatrice"))
    for seat, deck in ((0, "fire_legion"), (1, "light_citadel")):
        seq, _ = t.legal(seat)
        t.play(seat, {"type": "deck", "deck": deck}, seq)
    for seat in (0, 1):
        seq, moves = t.legal(seat)
        t.play(seat, next(m for m in moves if m["type"] == "mulligan" and m["cards"] == []), seq)
    seat = t.awaiting()[0]
    _, moves = t.legal(seat)
    assert {m["type"] for m in moves} >= {"draw"}, moves
    return Scene(t, seat, ["Draw"])


def thrones_scene(api: httpx.Client) -> Scene:
    t = ClockedTable(api, "game_of_thrones", ("Ada", "Bea", "Cyril"))
    return Scene(t, 0, ["Ready"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("frame"), ENGINES) as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as c:
        yield c


@pytest.fixture(scope="module")
def mid_turn(api: httpx.Client) -> dict[str, Scene]:
    """Each game at a decision of the seat looked from (the scenes are only looked at)."""
    return {"london": london_scene(api), "tower_of_london": tower_scene(api),
            "towers_of_babylon": babylon_scene(api), "game_of_thrones": thrones_scene(api)}


def open_seat(browser: Browser, server: ServerProcess, scene: Scene, size: str, theme: str = "light") -> Page:
    page = browser.new_context(**context_args(size, theme)).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(server.base + scene.url)
    seq = scene.table.summary()["seq"]
    seats = len(scene.table.summary()["players"])
    # drawn: the view at the table's seq, every panel with its clock, the map (if any) loaded
    page.wait_for_function("""([seq, seats]) => {
        const b = document.querySelector('#board[data-seq]') || document.querySelector('#board [data-seq]');
        return b && +b.dataset.seq >= seq && !document.body.classList.contains('pending')
          && document.querySelectorAll('#seats .seat').length === seats
          && document.querySelectorAll('[role=timer]').length >= seats; }""",
                           arg=[seq, seats], timeout=20000)
    page.wait_for_timeout(200)
    settle(page)
    return page


def close(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


# -- measures, in the page ---------------------------------------------------------------------

BAR_IN_VIEW = """() => {
  const bar = document.getElementById('action-bar');
  if (!bar) return { bar: false };
  const r = bar.getBoundingClientRect();
  const p = document.getElementById('prompt').getBoundingClientRect();
  const inside = (q) => q.top >= -1 && q.bottom <= innerHeight + 1 && q.left >= -1 && q.right <= innerWidth + 1;
  return { bar: true,
           intersects: r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
           prompt: p.height > 0 && inside(p),
           top: Math.round(r.top), bottom: Math.round(r.bottom), y: Math.round(scrollY) };
}"""

SIDEWAYS = "() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth })"

# The buttons of the game's decision panel that answer the prompt: not a card, not inside a
# reference list (<details>), not a paragraph of a label (a deck described). Those outside the bar.
LEFT_BEHIND = """() => [...document.querySelectorAll('#board [data-prompt] button')]
  .filter((b) => !b.closest('#action-bar') && !b.closest('details, [data-card], [aria-pressed]')
    && b.textContent.trim().length <= 60 && b.getBoundingClientRect().width > 0)
  .map((b) => b.textContent.trim())"""

# The place of every control of the board and the action bar, by a key that survives a redraw.
# Left out: the player panels and the side column (the move itself changes their figures and the
# log), and what a game pins to the screen itself (position sticky or fixed, but the action bar).
CONTROLS = """() => {
  const out = {};
  const sel = 'button, a[href], input, select, textarea, summary, [role=tab], [tabindex="0"]';
  const pinned = (n) => { for (let e = n; e && e.id !== 'action-bar'; e = e.parentElement) {
    if (/sticky|fixed/.test(getComputedStyle(e).position)) return true; } return false; };
  for (const n of document.querySelectorAll(sel)) {
    if (n.id === 'undo' || !n.closest('#table') || n.closest('.side, #players') || pinned(n)) continue;
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(n).visibility !== 'visible') continue;
    const key = n.id || n.getAttribute('data-k') || n.getAttribute('data-act') || n.getAttribute('data-move')
      || n.getAttribute('data-fk') || n.getAttribute('data-area')
      || `${n.tagName}:${n.textContent.trim().slice(0, 40)}`;
    if (key in out) continue;
    // a control of a bar fixed to the screen is placed on the screen, any other on the page
    const onScreen = n.closest('#action-bar') && getComputedStyle(n.closest('#action-bar')).position === 'fixed';
    out[key] = onScreen ? [r.left, r.top] : [r.left + scrollX, r.top + scrollY];
  }
  return out;
}"""

CLOCKS = """() => [...document.querySelectorAll('#seats .seat')].map((seat) => {
  const name = seat.querySelector('.name');
  const clock = seat.querySelector('.clock');
  if (!clock) return { seat: seat.dataset.seat, clock: false };
  const timer = clock.querySelector('[role=timer]');
  const state = clock.querySelector('.clock-state');
  const n = name.getBoundingClientRect(), c = clock.getBoundingClientRect();
  const t = timer ? timer.getBoundingClientRect() : null, s = state ? state.getBoundingClientRect() : null;
  const cs = getComputedStyle(clock);
  return { seat: seat.dataset.seat, clock: true, tag: clock.tagName, display: cs.display, marker: cs.listStyleType,
    digits: timer ? timer.textContent.trim() : null, digitsOwnElement: !!timer && timer.children.length === 0,
    tabular: timer ? getComputedStyle(timer).fontVariantNumeric : '',
    beside: c.top < n.bottom && c.bottom > n.top && c.left >= n.right - 1,
    state: state ? state.textContent.trim() : null, stateOwnLine: !!(t && s) && s.top >= t.bottom - 2,
    running: clock.classList.contains('running'), border: parseFloat(cs.borderTopWidth),
    awaited: seat.classList.contains('awaited'), bot: clock.classList.contains('bot') };
})"""

OWN_CLOCK = """() => { const t = document.querySelector('#action-bar [role=timer]');
  return t && t.getBoundingClientRect().width > 0 ? t.textContent.trim() : null; }"""

# What is left of the window for the game: the board's visible box, but the action bar's.
BOARD_SHARE = """() => {
  const vis = (r) => Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0))
                   * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  const board = vis(document.getElementById('board').getBoundingClientRect());
  const bar = document.getElementById('action-bar');
  const inside = bar && document.getElementById('board').contains(bar) ? vis(bar.getBoundingClientRect()) : 0;
  return (board - inside) / (innerWidth * innerHeight);
}"""

# The frame's controls (the action bar, the tabs, the head, the players, the chat and the
# table's details) smaller than 24×24 CSS px.
SMALL_TARGETS = """() => {
  const sel = ['#action-bar button', '#action-bar a[href]', '.tabs [role=tab]', '.table-head button',
               '.table-head a[href]',
               '#seats button', '#chat-form input', '#chat-form button', '.table-info summary'].join(', ');
  return [...document.querySelectorAll(sel)].filter((n) => getComputedStyle(n).visibility === 'visible')
    .map((n) => ({ n, r: n.getBoundingClientRect() })).filter(({ r }) => r.width > 0 && r.height > 0)
    .filter(({ r }) => r.width < 24 || r.height < 24)
    .map(({ n, r }) => `${n.id || n.className || n.tagName} "${n.textContent.trim().slice(0, 30)}"`
      + ` ${Math.round(r.width)}×${Math.round(r.height)}`);
}"""

# The frame's marks against what lies behind them (WCAG 1.4.11, 3:1): the running clock's frame,
# the awaited player's edge, the selected tab, the action bar's edge on the seat's turn.
MARKS = """() => {
  const rgb = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return p.length > 3 && p[3] === 0 ? null : p.slice(0, 3); };
  const lum = (p) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const behind = (n) => { for (let e = n; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor); if (c) return c; }
    return [255, 255, 255]; };
  const out = [];
  const check = (name, node, colour, against) => { if (!node) return;
    out.push({ name, ratio: Math.round(ratio(rgb(colour), against) * 100) / 100 }); };
  const run = document.querySelector('#seats .clock.running');
  if (run) check('running clock frame', run, getComputedStyle(run).borderTopColor, behind(run.parentElement));
  const aw = document.querySelector('#seats .seat.awaited');
  if (aw) check('awaited player edge', aw, getComputedStyle(aw).borderLeftColor, behind(aw.parentElement));
  const tab = document.querySelector('[role=tab][aria-selected=true]');
  if (tab) check('selected tab', tab, getComputedStyle(tab).backgroundColor, behind(tab.parentElement));
  const bar = document.querySelector('#action-bar.yours');
  if (bar) check('action bar edge', bar, getComputedStyle(bar).borderLeftColor || getComputedStyle(bar).borderTopColor,
    behind(bar.parentElement));
  return out;
}"""


def scroll_to(page: Page, where: str) -> None:
    page.evaluate("""(w) => { const max = document.documentElement.scrollHeight - innerHeight;
        scrollTo(0, w === 'top' ? 0 : w === 'middle' ? Math.round(max / 2) : max); }""", where)
    page.wait_for_timeout(50)


LOOK_IDS = [f"{s}-{t}" for s, t in LOOKS]


# -- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("size", "theme"), LOOKS, ids=LOOK_IDS)
def test_the_action_bar_is_in_view_at_the_top_middle_and_bottom_and_nothing_scrolls_sideways(
        browser: Browser, server: ServerProcess, mid_turn: dict[str, Scene], screenshots: Path,
        game: str, size: str, theme: str) -> None:
    page = open_seat(browser, server, mid_turn[game], size, theme)
    page.screenshot(path=str(screenshots / f"frame-{game}-{size}-{theme}.png"))
    seen = {}
    for where in ("top", "middle", "bottom"):
        scroll_to(page, where)
        seen[where] = page.evaluate(BAR_IN_VIEW)
    sideways = page.evaluate(SIDEWAYS)
    close(page)
    assert all(s["bar"] and s["intersects"] and s["prompt"] for s in seen.values()), seen
    assert sideways["scroll"] <= sideways["width"], f"the page scrolls sideways: {sideways}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_prompts_buttons_and_undo_are_in_the_action_bar(browser: Browser, server: ServerProcess,
                                                            mid_turn: dict[str, Scene], game: str, size: str) -> None:
    scene = mid_turn[game]
    page = open_seat(browser, server, scene, size)
    bar = page.locator("#action-bar")
    expect(bar.locator("#undo")).to_have_count(1)
    for label in scene.answers:
        expect(bar.get_by_role("button", name=label).first).to_be_attached()
    assert page.evaluate(LEFT_BEHIND) == [], "answers left outside the action bar"
    close(page)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_each_players_clock_is_styled_beside_their_name_and_the_own_clock_is_in_the_action_bar(
        browser: Browser, server: ServerProcess, mid_turn: dict[str, Scene], game: str, size: str) -> None:
    page = open_seat(browser, server, mid_turn[game], size)
    clocks = page.evaluate(CLOCKS)
    own = page.evaluate(OWN_CLOCK)
    close(page)
    assert clocks and all(c["clock"] for c in clocks), clocks
    for c in clocks:
        assert c["tag"] != "LI" and c["display"] != "list-item" and c["marker"] in ("none", ""), c
        assert c["digitsOwnElement"] and c["digits"] and c["digits"].count(":") >= 1, c
        assert "tabular-nums" in c["tabular"], c
        assert c["beside"], f"the clock is not beside the name: {c}"
        assert c["stateOwnLine"], f"the clock's words run into its digits: {c}"
        if c["bot"]:
            assert c["state"] == "stopped: bot plays", c
        if c["running"]:
            assert "running" in c["state"] and c["border"] >= 2, c
    assert any(c["running"] for c in clocks), clocks
    assert own is not None and ":" in own, "the seat's own clock is not in the action bar"


@pytest.mark.parametrize("game", GAMES)
def test_the_board_keeps_at_least_half_of_a_1366x768_window(browser: Browser, server: ServerProcess,
                                                           mid_turn: dict[str, Scene], game: str) -> None:
    page = open_seat(browser, server, mid_turn[game], "laptop")
    share = page.evaluate(BOARD_SHARE)
    close(page)
    assert share >= 0.5, f"the board has {share:.0%} of the window"


@pytest.mark.parametrize("game", GAMES)
def test_every_control_of_the_frame_is_at_least_24px_square_on_a_phone(browser: Browser, server: ServerProcess,
                                                                       mid_turn: dict[str, Scene], game: str) -> None:
    page = open_seat(browser, server, mid_turn[game], "phone")
    assert page.locator("#action-bar").count() == 1, "no action bar"
    small = page.evaluate(SMALL_TARGETS)
    page.locator("#t-chat").click()
    small += page.evaluate(SMALL_TARGETS)
    close(page)
    assert not small, sorted(set(small))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_frames_marks_keep_3_to_1_against_their_background(browser: Browser, server: ServerProcess,
                                                              mid_turn: dict[str, Scene], game: str,
                                                              theme: str) -> None:
    page = open_seat(browser, server, mid_turn[game], "laptop", theme)
    marks = page.evaluate(MARKS)
    close(page)
    names = {m["name"] for m in marks}
    assert {"running clock frame", "awaited player edge", "selected tab", "action bar edge"} <= names, marks
    assert all(m["ratio"] >= 3 for m in marks), marks


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_undo_appearing_moves_no_other_control(browser: Browser, server: ServerProcess, api: httpx.Client,
                                               size: str) -> None:
    # a loan at the start of London's first turn may be taken back
    t = ClockedTable(api, "london", ("Ada", "Beatrice"))
    scene = Scene(t, t.awaiting()[0], [])
    page = open_seat(browser, server, scene, size)
    undo = page.locator("#undo")
    expect(undo).to_be_hidden()
    before = page.evaluate(CONTROLS)
    page.locator('#board [data-k="loan"]').click()
    expect(undo).to_be_visible()
    page.wait_for_function("() => !document.body.classList.contains('pending')")
    page.wait_for_timeout(200)
    after = page.evaluate(CONTROLS)
    close(page)
    moved = {k: (before[k], after[k]) for k in before.keys() & after.keys()
             if max(abs(before[k][0] - after[k][0]), abs(before[k][1] - after[k][1])) > 4}
    assert {"draw", "loan", "repay", "deck"} <= before.keys() & after.keys(), sorted(before.keys() & after.keys())
    assert not moved, json.dumps(moved)[:2000]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("size", "theme"), LOOKS[:4], ids=LOOK_IDS[:4])
def test_axe_finds_nothing_serious_on_every_game_mid_turn(browser: Browser, server: ServerProcess,
                                                          mid_turn: dict[str, Scene], game: str, size: str,
                                                          theme: str) -> None:
    page = open_seat(browser, server, mid_turn[game], size, theme)
    bad = axe(page)
    close(page)
    assert not bad, json.dumps(bad, indent=1)[:6000]


# The table's header: its box, its controls' boxes and names (the accessible name, as the tree
# gives it), the title's box.
HEADER = """() => {
  const head = document.querySelector('#table .table-head');
  const box = (n) => { const r = n.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, height: r.height, width: r.width }; };
  const shown = (n) => n.checkVisibility({ checkVisibilityCSS: true }) && n.getBoundingClientRect().width > 0;
  return { head: box(head), title: box(head.querySelector('h1')),
    controls: [...head.querySelectorAll('button, a[href]')].filter(shown)
      .map((n) => ({ id: n.id || n.textContent.trim(), ...box(n) })),
    sideways: document.documentElement.scrollWidth - innerWidth };
}"""


def header_names(page: Page) -> list[str]:
    """The header's buttons and links, by their accessible names, in the tree's order."""
    names = []
    for raw in page.locator("#table .table-head").aria_snapshot().splitlines():
        m = re.match(r'^\s*- (button|link) "((?:[^"\\]|\\.)*)"', raw)
        if m:
            names.append(m[2])
    return names


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", ["phone", "tablet", "laptop"])
def test_the_header_is_one_row_and_each_of_its_controls_is_named_and_reached_by_the_keyboard(
        browser: Browser, server: ServerProcess, mid_turn: dict[str, Scene], screenshots: Path, game: str,
        size: str) -> None:
    """One row of controls, as high as its tallest button (the phone's header had wrapped to two
    or three rows of buttons since "Describe the board (D)" joined it): below 1000 px the seat's
    alerts fold into one button, a disclosure; every control is named and reached with Tab;
    the menu opens with Enter over the page (nothing moves), Escape closes it and the focus goes
    back to its button; the D key still opens the board in words."""
    scene = mid_turn[game]
    page = open_seat(browser, server, scene, size)
    m = page.evaluate(HEADER)
    page.locator("#table .table-head").screenshot(path=str(screenshots / f"header-{game}-{size}.png"))
    tallest = max(c["height"] for c in m["controls"])
    assert m["head"]["height"] <= tallest + 2, f"the header is {m['head']['height']} px, its buttons {tallest}: {m}"
    for c in [*m["controls"], m["title"]]:
        assert c["top"] >= m["head"]["top"] - 1 and c["bottom"] <= m["head"]["bottom"] + 1, (c, m["head"])
    assert all(c["width"] >= 24 and c["height"] >= 24 for c in m["controls"]), m
    assert m["sideways"] <= 0, m
    names = header_names(page)
    alerts = ["Notify me", re.compile(r"^♪ Sound: (on|off)$")]
    # the title's link first, then "Describe the board (D)", then the seat's alerts (or their menu)
    assert names[0] == GAME_TITLES[game] and names[1] == "Describe the board (D)", names
    head = page.locator("#table .table-head")
    page.locator("#table .table-head h1 a").focus()
    for_keyboard = [head.get_by_role("button", name="Describe the board (D)")]
    toggle = head.get_by_role("button", name="Notifications and sound")
    if size != "laptop":  # below 1000 px wide
        assert names[2:] == ["Notifications and sound"], names
        expect(toggle).to_have_attribute("aria-expanded", "false")
        for_keyboard.append(toggle)
    else:
        expect(toggle).to_be_hidden()
        for_keyboard += [head.get_by_role("button", name=a) for a in alerts]
    for control in for_keyboard:  # Tab goes from one to the next, in this order
        page.keyboard.press("Tab")
        expect(control).to_be_focused()
    if size != "laptop":
        before = page.evaluate(CONTROLS)
        page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-expanded", "true")
        menu = [head.get_by_role("button", name=a) for a in alerts]
        for control in menu:
            expect(control).to_be_visible()
            page.keyboard.press("Tab")
            expect(control).to_be_focused()
            box = control.bounding_box()
            assert box and box["width"] >= 44 and box["height"] >= 44, box
        page.locator("#table .table-head").screenshot(path=str(screenshots / f"header-{game}-{size}-menu.png"))
        page.screenshot(path=str(screenshots / f"header-{game}-{size}-menu-page.png"))
        after = page.evaluate(CONTROLS)
        moved = {k: (before[k], after[k]) for k in before.keys() & after.keys()
                 if max(abs(before[k][0] - after[k][0]), abs(before[k][1] - after[k][1])) > 4}
        assert not moved, moved
        page.keyboard.press("Escape")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        expect(toggle).to_be_focused()
        for control in menu:
            expect(control).to_be_hidden()
        page.keyboard.press("Enter")  # open again, and a tap elsewhere closes it
        expect(menu[0]).to_be_visible()
        page.locator("#board").click(position={"x": 5, "y": 5})
        expect(menu[0]).to_be_hidden()
    # the D key: the board in words, and Escape back
    page.locator("#table .table-head h1 a").focus()
    page.keyboard.press("d")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    close(page)
    # a spectator's header: one row too, the description its one button
    watcher = browser.new_context(**context_args(size)).new_page()
    watcher.goto(server.base + scene.table.watch_url())
    watcher.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    w = watcher.evaluate(HEADER)
    names = header_names(watcher)
    watcher.context.close()
    assert names == [GAME_TITLES[game], "Describe the board (D)"], names
    assert w["head"]["height"] <= max(c["height"] for c in w["controls"]) + 2, w
