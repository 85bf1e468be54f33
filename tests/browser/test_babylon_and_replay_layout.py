"""Towers of Babylon and the replay page measured against the table's layout rules (the design
notes: the table's frame), in Chromium at a phone (390×844), a laptop (1366×768) and once a wide
screen (1920×1080), light and dark, through real states reached on the API: a turn, a prompt that
asks for a hand card (an offering, the main phase), a prompt that asks for a target on the board
(a card that strikes an enemy minion, tapped; a Defender to block with), the end and a spectator;
and a finished game's replay on a phone.

- what the prompt asks for is on screen: its first target lies fully inside the window, under no
  bar and no pinned hand, without the player scrolling;
- tapping a card in the hand does not scroll the page (window.scrollY moves by at most 4 px);
- touch targets are at least 24×24 px on a phone (WCAG 2.2, 2.5.8);
- a card's text is whole: no ellipsis, no clamp, no card whose content is taller than its box;
- no word is broken in the middle;
- the hand row either fits or shows that it scrolls (a count and an arrow), and the arrow scrolls it;
- every mark on the board keeps 3:1 against what lies behind it, light and dark (WCAG 1.4.11);
- the card zoom is the card itself, larger, on hover, on a long press and on keyboard focus;
- the game's words (Sacrifice, Exhausted, Available, Transformed power, the keywords…) are
  explained in the Symbols tab and in the waiting room, and a first hand that can play nothing
  says what to do;
- a replay's controls stay on a phone's screen wherever the page is scrolled.

Every scene is measured once per size and theme; the tests read those measures, so that a failure
names each scene, size and theme. Screenshots go to artifacts/towers_of_babylon/layout/."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.look import context_args
from tests.browser.measure import BROKEN_WORDS_JS, CLIPPED_JS, COLOUR_JS, SMALL_TARGETS_JS, zoom_within
from tests.browser.test_towers_of_babylon import Game, Plan, api_table, choose_decks, play_until
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

TOB = "engines.towers_of_babylon:ENGINE"
OUT = Path(__file__).resolve().parents[2] / "artifacts" / "towers_of_babylon" / "layout"
KEYWORDS = Path(__file__).resolve().parents[2] / "engines" / "towers_of_babylon" / "data" / "keywords.json"
# (size, theme) pairs measured: both themes at the phone and the laptop, the wide screen in light
LOOKS = [("phone", "light"), ("phone", "dark"), ("tablet", "light"), ("laptop", "light"), ("laptop", "dark"),
         ("wide", "light")]
WIDTH = {"phone": 390, "tablet": 768, "laptop": 1366, "wide": 1920}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("tob-layout"), TOB) as srv:
        yield srv


# -- the scenes -----------------------------------------------------------------------------------

def dealt(server: ServerProcess) -> Game:
    """Decks chosen (seat 1 Ember Legion, seat 2 Dawn Citadel), both hands kept: the first
    player's first turn begins (draw a second card, or offer one)."""
    game = api_table(server)
    choose_decks(game)
    for seat in (0, 1):
        seq, _ = game.moves(seat)
        game.play(seat, seq, {"type": "mulligan", "cards": []})
    return game


def first_player(game: Game) -> int:
    return int(game.table()["awaiting"][0])


def awaited_in(game: Game, seat: int, kind: str,
               pred: Callable[[dict[str, Any]], bool] = lambda v: True) -> Callable[[], bool]:
    def at() -> bool:
        if seat not in game.table()["awaiting"]:
            return False
        view = game.view(seat)
        return bool(view["prompt"] and view["prompt"]["kind"] == kind and pred(view))
    return at


def moves_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [c["move"] for c in view["prompt"]["choices"]]


def build_scenes(server: ServerProcess) -> dict[str, dict[str, Any]]:
    """Every scene measured, by name: the page's path, what the prompt asks for ("hand", "board",
    or None), and for the scene of a card with a target the hand card tapped first."""
    out: dict[str, dict[str, Any]] = {}
    game = dealt(server)
    seat = first_player(game)
    out["first turn: offer a card"] = {"path": f"/seat/{game.token[seat]}", "asks": "hand", "game": game, "seat": seat}
    cards = game.api.get(f"/api/tables/{game.code}/static").json()["cards"]

    game = dealt(server)
    seat = first_player(game)
    seq, _ = game.moves(seat)
    game.play(seat, seq, {"type": "draw"})
    out["first turn: nothing to play"] = {"path": f"/seat/{game.token[seat]}", "asks": None, "game": game, "seat": seat}

    game = api_table(server)
    choose_decks(game)
    many = awaited_in(game, 0, "main", lambda v: len(v["players"][0]["hand"]) >= 4 and any(
        m["type"] == "play" and m["target"] < 0 for m in moves_of(v)))
    play_until(game, Plan(cards), many)
    plays = [m for m in moves_of(game.view(0)) if m["type"] == "play"]
    plain = next(m["card"] for m in plays if all(p["target"] < 0 for p in plays if p["card"] == m["card"]))
    out["a turn: play a card"] = {"path": f"/seat/{game.token[0]}", "asks": "hand", "game": game, "seat": 0,
                                  "plain": f'#board .tob-hand [data-k="h-{plain}"]'}
    out["the other seat waits"] = {"path": f"/seat/{game.token[1]}", "asks": None, "game": game, "seat": 1}

    game = api_table(server)
    choose_decks(game)
    aimed = awaited_in(game, 0, "main", lambda v: any(m["type"] == "play" and m["target"] >= 0 for m in moves_of(v)))
    play_until(game, Plan(cards), aimed)
    card = next(m["card"] for m in moves_of(game.view(0)) if m["type"] == "play" and m["target"] >= 0)
    out["a card that strikes an enemy minion, tapped"] = {"path": f"/seat/{game.token[0]}", "asks": "board",
                                                          "game": game,
                                                          "seat": 0, "tap": f'#board .tob-hand [data-k="h-{card}"]'}
    out["a spectator"] = {"path": f"/watch/{game.code}", "asks": None, "game": game, "seat": None}

    game = api_table(server)
    choose_decks(game)
    plan = Plan(cards)
    blocking = awaited_in(game, 1, "defend", lambda v: any(m["type"] == "block" for m in moves_of(v)))
    play_until(game, plan, blocking)
    out["an attack: block with a Defender"] = {"path": f"/seat/{game.token[1]}", "asks": "board", "game": game,
                                               "seat": 1}

    game = api_table(server)
    choose_decks(game)
    play_until(game, Plan(cards), lambda: game.table()["status"] == "finished")
    out["the end"] = {"path": f"/seat/{game.token[1]}", "asks": None, "game": game, "seat": 1}
    return out


@pytest.fixture(scope="module")
def pages(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return build_scenes(server)


def open_scene(page: Page, base: str, scene: dict[str, Any]) -> None:
    page.goto(base + scene["path"])
    page.wait_for_function("() => +(document.getElementById('board').dataset.seq || -1) >= 0"
                           " && window.parlourMetrics && window.parlourMetrics.firstView !== null")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(300)  # what the page does by itself after its first view (a scroll to the target)
    if scene.get("tap"):
        card = page.locator(scene["tap"])
        if page.context.browser and page.viewport_size and page.viewport_size["width"] < 700:
            card.tap()
        else:
            card.click()
        page.wait_for_timeout(500)
    page.evaluate("() => document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) { /* infinite */ } })")


def slug(name: str) -> str:
    return re.sub(r"\W+", "-", name).strip("-")


def shot(page: Page, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"))


# -- measuring ------------------------------------------------------------------------------------

TARGETS = {"hand": "#board .tob-hand .tc.can", "board": "#board .mat :is(.mn.target, .trk.tower.target)"}
# the board's marks: a card's edge, a minion's card, markers, power sources, drop zones, the
# tracks' filling, the faction symbols; and the rings that say "can", "selected", "target"
MARKS = ".tc, .mn-card, .mk, .src, .pay-s, .zone.drop, .tob-drop, .trk-svg .fg, .mat svg.g, .tob-hand svg.g, .hand-go"
RINGS = ".tc.can, .tc.sel, .mn.can, .mn.sel, .mn.target, .tob-pay.on"

MEASURE_JS = """([targetSel, marksSel, ringsSel]) => {
  const shown = (e) => {
    if (e.closest('[hidden], details:not([open]) > :not(summary)')) return false;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const cs = getComputedStyle(e);
    return cs.visibility === 'visible' && cs.display !== 'none';
  };
  const name = (e) => {
    const what = (e.getAttribute('aria-label') || e.textContent || '').trim();
    const cls = (e.getAttribute('class') || '').split(/\\s+/).slice(0, 2).join('.');
    return `${e.tagName.toLowerCase()}${cls ? '.' + cls : ''} "${what.replace(/\\s+/g, ' ').slice(0, 36)}"`;
  };
  const px = (v) => Math.round(v * 10) / 10;""" + BROKEN_WORDS_JS + SMALL_TARGETS_JS + CLIPPED_JS + COLOUR_JS + """
  const out = { scrollY, target: null, small: [], broken: [], clipped: [], faint: [], hand: null,
                width: document.documentElement.scrollWidth };
  // the first target: fully in the window, and under nothing that stays on screen (a bar, the hand)
  const targets = targetSel ? [...document.querySelectorAll(targetSel)]
    .filter((e) => !e.closest('#action-bar, details') && shown(e)) : [];
  if (targets.length) {
    const t = targets[0];
    const r = t.getBoundingClientRect();
    const problems = [];
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      problems.push(`it lies at ${px(r.left)},${px(r.top)}–${px(r.right)},${px(r.bottom)} `
        + `in a ${innerWidth}×${innerHeight} window`);
    }
    for (const [x, y] of [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3],
                          [r.right - 3, r.bottom - 3],
                          [(r.left + r.right) / 2, (r.top + r.bottom) / 2]]) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== t && !t.contains(hit)) { problems.push(`${name(hit)} covers it at ${px(x)},${px(y)}`); break; }
    }
    out.target = { name: name(t), count: targets.length, problems };
  }
  out.small = smallTargets(':is(#board, #tab-symbols) '
    + ':is(a[href], button, input, select, summary, [role=button], [tabindex="0"], [data-move])',
    (e) => e.closest('.sr'), 23.5);
  // words broken inside; words cut by an ellipsis or a clamp
  const board = document.getElementById('board');
  out.broken = brokenWords(board, '[hidden], svg, .sr, code');  // (a hash is no word)
  for (const e of board.querySelectorAll('.tob *')) {
    if (!shown(e) || e.closest('.sr') || !e.textContent.trim()) continue;
    const cs = getComputedStyle(e);
    if (cs.textOverflow === 'ellipsis' && cs.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) {
      out.broken.push(`${name(e)} is cut by an ellipsis (${e.scrollWidth} px of text in ${e.clientWidth} px)`);
    }
    const clamp = cs.webkitLineClamp;
    if (clamp && clamp !== 'none' && e.scrollHeight > e.clientHeight + 1) {
      out.clipped.push(`${name(e)} is clamped to ${clamp} lines `
        + `(${e.scrollHeight} px of text in ${e.clientHeight} px)`);
    }
  }
  // cards whose content is cut off: more content than box, or a part reaching past its edge
  for (const c of board.querySelectorAll('.tob :is(.tc, .tc-in, .tc-text, .mn, .mn-face, .mn-name)')) {
    if (!shown(c)) continue;
    const over = clippedBy(c, true);
    if (over) out.clipped.push(`${name(c)}: ${over}`);
  }
  // the hand row: it fits, or says that it scrolls (a count in words and an arrow to press)
  const row = board.querySelector('.tob-hand .hand-row');
  if (row && shown(row)) {
    const count = board.querySelector('.tob-hand .hand-count');
    const arrows = [...board.querySelectorAll('.tob-hand .hand-go')].filter(shown);
    out.hand = { overflows: row.scrollWidth > row.clientWidth + 1,
                 count: count && shown(count) ? count.textContent.trim() : null,
                 arrows: arrows.map((a) => a.getAttribute('aria-label') || a.textContent.trim()),
                 cards: row.querySelectorAll('.tc').length };
  }
  // marks: 3:1 against the background they sit on (an HTML mark by its edge or its fill, an SVG
  // mark by its fill); a ring (a box-shadow) by its colour against the background around it
  const inWindow = (r) => !(r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth);
  for (const m of board.querySelectorAll(marksSel.split(',').map((s) => '.tob ' + s.trim()).join(','))) {
    if (!shown(m) || m.closest('#action-bar') || !inWindow(m.getBoundingClientRect())) continue;
    const cs = getComputedStyle(m);
    const bg = under(m.closest('svg') ? m.closest('svg').parentElement : m.parentElement);
    const inks = [];
    if (m instanceof SVGElement) {
      inks.push(parse(cs.fill), parse(cs.color));
      if (m.tagName.toLowerCase() !== 'svg') inks.splice(1);
    } else {
      if (parseFloat(cs.borderTopWidth) >= 1 && cs.borderTopStyle !== 'none') inks.push(parse(cs.borderTopColor));
      inks.push(parse(cs.backgroundColor));
    }
    let best = 0;
    for (const ink of inks) if (ink && ink[3] > 0) best = Math.max(best, ratio(blend(ink, bg), bg));
    if (!inks.some((ink) => ink && ink[3] > 0)) continue;
    if (m.matches('.trk-svg .fg')) {  // the filling against the empty track it fills
      const empty = m.parentElement.querySelector('.bg');
      if (empty) best = ratio(parse(cs.fill), parse(getComputedStyle(empty).fill));
    }
    if (best < 3) out.faint.push(`${name(m)}: ${Math.round(best * 100) / 100}:1`);
  }
  for (const m of board.querySelectorAll(ringsSel.split(',').map((s) => '.tob ' + s.trim()).join(','))) {
    if (!shown(m) || m.closest('#action-bar') || !inWindow(m.getBoundingClientRect())) continue;
    const ring = parse(getComputedStyle(m).boxShadow);
    if (!ring) { out.faint.push(`${name(m)}: no ring`); continue; }
    const bg = under(m.parentElement);
    const r = ratio(blend(ring, bg), bg);
    if (r < 3) out.faint.push(`the ring of ${name(m)}: ${Math.round(r * 100) / 100}:1`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def measures(browser: Browser, server: ServerProcess,
             pages: dict[str, dict[str, Any]]) -> dict[tuple[str, str, str], Any]:
    """(scene, size, theme): what MEASURE_JS found there, as the page opened (after the tap)."""
    out: dict[tuple[str, str, str], Any] = {}
    for size, theme in LOOKS:
        ctx = browser.new_context(**context_args(size, theme))
        page = ctx.new_page()
        for name, scene in pages.items():
            open_scene(page, server.base, scene)
            asks = scene["asks"]
            out[(name, size, theme)] = page.evaluate(MEASURE_JS, [TARGETS.get(asks or ""), MARKS, RINGS])
            out[(name, size, theme)]["asks"] = asks
            shot(page, f"{slug(name)}-{size}-{theme}")
        ctx.close()
    return out


def failures(measures: dict[tuple[str, str, str], Any], check: Callable[[dict[str, Any], str], list[str]]) -> list[str]:
    found = []
    for (name, size, theme), m in measures.items():
        for problem in check(m, size) or ():
            found.append(f"{name}, {size} {theme}: {problem}")
    return found


# -- the rules ------------------------------------------------------------------------------------

def test_what_the_prompt_asks_for_is_on_screen_without_scrolling(measures):
    def check(m: dict[str, Any], size: str) -> list[str]:
        if m["asks"]:
            if not m["target"]:
                return [f"the prompt asks for the {m['asks']}, but nothing there can be clicked"]
            return [f"its first target {m['target']['name']}: {p}" for p in m["target"]["problems"]]
        return []
    bad = failures(measures, check)
    assert not bad, "\n".join(bad[:40])


def test_nothing_scrolls_sideways(measures):
    bad = failures(measures, lambda m, size: [f"the page is {m['width']} px wide"] if m["width"] > WIDTH[size] else [])
    assert not bad, "\n".join(bad)


def test_touch_targets_are_at_least_24_px_square_on_a_phone_and_a_tablet(measures):
    bad = failures({k: m for k, m in measures.items() if k[1] in ("phone", "tablet")}, lambda m, size: m["small"])
    assert not bad, "\n".join(bad[:40])


def test_no_word_is_broken_or_cut_by_an_ellipsis(measures):
    bad = failures(measures, lambda m, size: m["broken"])
    assert not bad, "\n".join(bad[:40])


def test_a_cards_text_is_whole_and_no_card_clips_its_own_content(measures):
    bad = failures(measures, lambda m, size: m["clipped"])
    assert not bad, "\n".join(bad[:40])


def test_the_hand_row_fits_or_shows_that_it_scrolls(measures):
    def check(m: dict[str, Any], size: str) -> list[str]:
        h = m["hand"]
        if not h or not h["overflows"]:
            return []
        problems = []
        if not h["count"] or f"of {h['cards']}" not in h["count"]:
            problems.append(f"the hand row scrolls ({h['cards']} cards) but says nothing of it: count {h['count']!r}")
        if not h["arrows"]:
            problems.append("the hand row scrolls but shows no arrow")
        return problems
    bad = failures(measures, check)
    assert not bad, "\n".join(bad[:40])
    assert any(m["hand"] and m["hand"]["overflows"] for (_, size, _), m in measures.items() if size == "phone"), \
        "no phone scene has a hand wider than the screen: the sign is never checked"


def test_every_mark_on_the_board_keeps_3_to_1_against_what_lies_behind_it(measures):
    bad = failures(measures, lambda m, size: m["faint"])
    assert not bad, "\n".join(bad[:40])


# -- taps, the hand's arrows, the zoom --------------------------------------------------------------

def test_tapping_a_card_in_the_hand_does_not_scroll_the_page(browser: Browser, server: ServerProcess, pages):
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    bad = []
    # a playable card without a target (it is selected), a card to offer, cards that cannot be
    # played now (they say why)
    for scene, selector, why in (("a turn: play a card", pages["a turn: play a card"]["plain"], False),
                                 ("first turn: offer a card", "#board .tob-hand .tc.can", False),
                                 ("first turn: nothing to play", "#board .tob-hand .tc", True),
                                 ("the other seat waits", "#board .tob-hand .tc", True)):
        open_scene(page, server.base, pages[scene])
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight / 3)")
        page.wait_for_timeout(200)
        # the card brought into the hand row's view (the row scrolls, not the page)
        page.evaluate("""(s) => { const e = document.querySelector(s); const row = e && e.closest('.hand-row');
          if (row) row.scrollLeft += e.getBoundingClientRect().left - row.getBoundingClientRect().left - 8; }""",
                      selector)
        page.wait_for_timeout(200)
        cards = page.locator(selector)
        if not cards.count():
            bad.append(f"{scene}: no {selector} to tap")
            continue
        box = page.evaluate("""(s) => { const e = [...document.querySelectorAll(s)].find((x) => {
            const r = x.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; });
          if (!e) return null; const r = e.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2, y0: scrollY }; }""",
                            selector)
        if not box:
            bad.append(f"{scene}: no {selector} on the screen to tap")
            continue
        page.touchscreen.tap(box["x"], box["y"])
        page.wait_for_timeout(600)
        moved = abs(page.evaluate("scrollY") - box["y0"])
        if moved > 4:
            bad.append(f"{scene}: a tap on {selector} scrolled the page {moved} px")
        told = page.locator("#board .tob-hand .hand-note.why")
        if why and not (told.count() and told.is_visible() and "Not now" in (told.text_content() or "")):
            bad.append(f"{scene}: a tap on a card that cannot be played does not say why")
    ctx.close()
    assert not bad, "\n".join(bad)


def test_the_hand_rows_arrow_scrolls_it_and_its_count_follows(browser: Browser, server: ServerProcess, pages):
    page = browser.new_context(**context_args("phone")).new_page()
    open_scene(page, server.base, pages["a turn: play a card"])
    row = page.locator("#board .tob-hand .hand-row")
    count = page.locator("#board .tob-hand .hand-count")
    assert page.evaluate("() => { const r = document.querySelector('#board .tob-hand .hand-row');"
                         " return r.scrollWidth > r.clientWidth; }")
    row.evaluate("r => { r.scrollLeft = 0; }")  # (the page may have brought a playable card into view)
    expect(count).to_contain_text("Cards 1–")
    first = count.text_content()
    nxt = page.locator("#board .tob-hand .hand-go.next")
    box = nxt.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    nxt.tap()
    page.wait_for_function("() => document.querySelector('#board .tob-hand .hand-row').scrollLeft > 20")
    expect(count).not_to_have_text(first or "")
    assert row.evaluate("r => r.scrollLeft") > 20
    page.context.close()


ZOOM_JS = """([sel]) => {
  const z = document.querySelector('.kit-zoom:not([hidden])');
  if (!z) return { shown: false };
  const card = document.querySelector(sel);
  const big = z.querySelector('.tc');
  const a = card.getBoundingClientRect();
  const b = big ? big.getBoundingClientRect() : null;
  const zr = z.getBoundingClientRect();
  return { shown: true, same: !!big, ratio: b ? b.width / a.width : 0, text: z.textContent.trim().slice(0, 60),
           inside: zr.left >= 0 && zr.top >= 0 && zr.right <= innerWidth && zr.bottom <= innerHeight,
           selected: card.classList.contains('sel') };
}"""



@pytest.mark.parametrize(("scene", "selector"), [
    ("a turn: play a card", "#board .tob-hand .tc"), ("an attack: block with a Defender", "#board .mat .mn")])
def test_the_card_zoom_is_the_card_itself_larger_on_hover_long_press_and_focus(browser: Browser, server: ServerProcess,
                                                                             pages, scene: str, selector: str):
    found = {}
    ok = {"shown": True, "same": True, "ratio": 9, "inside": True}
    ctx = browser.new_context(**context_args("laptop"))
    page = ctx.new_page()
    open_scene(page, server.base, pages[scene])
    page.locator(selector).first.hover()
    page.wait_for_timeout(700)
    found["hover"] = zoom_within(page, ZOOM_JS, selector)
    page.keyboard.press("Escape")
    found["Escape closes it"] = ok if not page.evaluate(ZOOM_JS, [selector])["shown"] else {"shown": "still"}
    page.mouse.move(0, 0)
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    page.wait_for_timeout(900)
    found["keyboard focus"] = zoom_within(page, ZOOM_JS, selector)
    shot(page, f"zoom-{slug(scene)}-laptop")
    ctx.close()
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    open_scene(page, server.base, pages[scene])
    page.locator(selector).first.scroll_into_view_if_needed()
    box = page.locator(selector).first.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    client = ctx.new_cdp_session(page)
    client.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)
    found["long press"] = zoom_within(page, ZOOM_JS, selector)
    client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)
    after = page.evaluate(ZOOM_JS, [selector])
    found["a long press stays and selects nothing"] = after if not after.get("selected") else {"selected": True}
    shot(page, f"zoom-{slug(scene)}-phone")
    page.touchscreen.tap(5, 200)
    page.wait_for_timeout(300)
    for _ in range(30):  # closing may wait on a busy machine
        if not page.evaluate(ZOOM_JS, [selector])["shown"]:
            break
        page.wait_for_timeout(100)
    found["a tap outside closes it"] = ok if not page.evaluate(ZOOM_JS, [selector])["shown"] else {"shown": "still"}
    ctx.close()
    bad = {k: v for k, v in found.items()
           if not (v.get("shown") and v.get("same") and v.get("ratio", 0) >= 1.4 and v.get("inside"))}
    assert not bad, json.dumps(found, indent=1)


# -- words for new players ----------------------------------------------------------------------------

GLOSSARY = ["Available", "Exhausted", "Sacrifice", "Transformed power", "Power Source", "Ready", "Immobile",
            "Defenders", "Builders", "Raiders", "Specific cost", "Witchery", "Command", "Invocation"]


def test_the_games_words_are_explained_in_the_symbols_tab_and_the_waiting_room(browser: Browser, server: ServerProcess,
                                                                               pages):
    words = GLOSSARY + [k["name"] for k in json.loads(KEYWORDS.read_text())["keywords"]]
    page = browser.new_context(**context_args("phone")).new_page()
    open_scene(page, server.base, pages["a turn: play a card"])
    page.locator("#t-symbols").click()
    expect(page.locator("#tab-symbols dt").first).to_be_visible()  # (fetched when the tab first opens)
    terms = page.locator("#tab-symbols dt").all_text_contents()
    missing = [w for w in words if not any(w.lower() in t.lower() for t in terms)]
    assert not missing, f"the Symbols tab explains none of {missing} (its terms: {terms})"
    page.locator("#tab-symbols").scroll_into_view_if_needed()
    shot(page, "glossary-phone")
    # a table still gathering shows the same in its waiting room
    t = page.request.post(f"{server.base}/api/tables", data={"game": "towers_of_babylon", "name": "Ada"}).json()
    page.goto(f"{server.base}/seat/{t['seat_token']}")
    expect(page.locator("#waiting")).to_be_visible()
    terms = page.locator("#waiting dt").all_text_contents()
    missing = [w for w in words if not any(w.lower() in t.lower() for t in terms)]
    assert not missing, f"the waiting room explains none of {missing}"
    page.context.close()


def test_a_first_hand_that_can_play_nothing_says_what_to_do(browser: Browser, server: ServerProcess, pages):
    page = browser.new_context(**context_args("phone")).new_page()
    open_scene(page, server.base, pages["first turn: offer a card"])
    hint = page.locator("#board .tob-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Power Source")
    expect(hint).to_contain_text("offer")
    shot(page, "first-turn-hint-phone")
    open_scene(page, server.base, pages["first turn: nothing to play"])
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("end your turn")
    # a later turn with cards to play carries no such hint
    open_scene(page, server.base, pages["a turn: play a card"])
    expect(hint).to_have_count(0)
    page.context.close()


# -- the replay on a phone ------------------------------------------------------------------------------

REPLAY_JS = """() => {
  const nav = document.querySelector('.replay-controls');
  const out = { off: [], small: [] };
  for (const e of nav.querySelectorAll('button, input, select')) {
    const r = e.getBoundingClientRect();
    const id = e.id || e.tagName;
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
      out.off.push(`${id} at ${Math.round(r.top)}–${Math.round(r.bottom)}`);
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit && hit !== e && !e.contains(hit) && !(e.labels && [...e.labels].includes(hit))) {
      out.off.push(`${id} is under ${hit.tagName}.${hit.className}`);
    }
    const need = ['r-back', 'r-next'].includes(e.id) ? 44 : 24;
    if (r.width < need - 0.5 || r.height < need - 0.5) {
      out.small.push(`${id} is ${Math.round(r.width)}×${Math.round(r.height)} px (${need} wanted)`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_replays_controls_stay_on_a_phones_screen_at_the_top_middle_and_bottom(
        browser: Browser, server: ServerProcess, pages, theme: str):
    game = pages["the end"]["game"]
    page = browser.new_context(**context_args("phone", theme)).new_page()
    found = {}
    for path in (f"/replay/{game.code}#step=30", f"/seat/{game.token[1]}/replay#step=30"):
        page.goto(server.base + path)
        expect(page.locator("#r-where")).to_contain_text("Step 30 of")
        page.wait_for_timeout(300)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height > 844 * 1.5, f"the replay page is {height} px high: too short to test scrolling"
        for where, y in (("top", 0), ("middle", height / 2 - 422), ("bottom", height)):
            page.evaluate("y => window.scrollTo(0, y)", y)
            page.wait_for_timeout(150)
            m = page.evaluate(REPLAY_JS)
            if m["off"] or m["small"]:
                found[f"{path} at the {where}"] = m
            shot(page, f"replay-{'seat' if '/seat/' in path else 'public'}-{where}-phone-{theme}")
        # the controls still work from the bottom of the page
        page.locator("#r-next").tap()
        expect(page.locator("#r-where")).to_contain_text("Step 31 of")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
    assert not found, json.dumps(found, indent=1)
