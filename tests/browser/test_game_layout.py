"""London and Tower of London measured against the table's per-game layout rules
(docs: the table's frame), in Chromium at a phone (390×844), a laptop (1366×768) and a wide
screen (1920×1080), light and dark, through real states reached on the API: a turn, a prompt
that asks for a hand card, a prompt that asks for a place on the board (London: the own display
that Run the City works from, the market; Tower of London: the Beefeaters Backstab, Poison and
Switch act on, a building to place in), the end and a spectator.

- what the prompt asks for is on screen: its first target lies fully inside the viewport, not
  under a bar, without the player scrolling;
- tapping a card does not move the page (window.scrollY, and the card itself, by at most 4 px);
- touch targets are at least 24×24 px on a phone (WCAG 2.2, 2.5.8);
- no word is broken in the middle (only after a hyphen, a dash, a slash or a soft hyphen);
- no card clips its own content;
- every mark on the board keeps 3:1 against what lies behind it, light and dark (WCAG 1.4.11);
- the card zoom is the card itself, larger, on hover, on a long press and on keyboard focus.

Every scene is measured once per size and theme (one script in the page collects what each rule
needs); the tests then read those measures, so that a failure names each scene, size and theme."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.browser import scenes
from tests.browser.measure import BROKEN_WORDS_JS, CLIPPED_JS, COLOUR_JS, SMALL_TARGETS_JS, zoom_within
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = "engines.london:ENGINE,engines.tower_of_london:ENGINE"
SIZES = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 768), "wide": (1920, 1080)}
THEMES = ("light", "dark")
# (size, theme) pairs measured: both themes at the phone and the laptop, the wide screen in light
LOOKS = [("phone", "light"), ("phone", "dark"), ("tablet", "light"), ("laptop", "light"), ("laptop", "dark"),
         ("wide", "light")]


def context_args(size: str, theme: str = "light") -> dict[str, Any]:
    w, h = SIZES[size]
    args: dict[str, Any] = {"viewport": {"width": w, "height": h}, "color_scheme": theme, "reduced_motion": "reduce"}
    if size in ("phone", "tablet"):  # (touch screens)
        args.update(device_scale_factor=2, is_mobile=True, has_touch=True)
    return args


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("game-layout"), ENGINES) as srv:
        yield srv


# -- the scenes ---------------------------------------------------------------------------------

def runner(seed: int) -> Callable[[int, list[dict[str, Any]]], int]:
    """London's scene chooser, running the city whenever it likes (not twice a game only)."""
    chooser = scenes.Chooser(seed)

    def pick(seat: int, moves: list[dict[str, Any]]) -> int:
        chooser.runs = 0
        return chooser.pick(moves, stacks=2)
    return pick


def london_at(step: str, min_moves: int = 0, extra: Callable[[scenes.Table], bool] | None = None,
              seed: int = 3) -> Callable[[httpx.Client], scenes.Table]:
    """A table at ``step`` (after ``min_moves``, where ``extra`` holds): the deal is the server's,
    so a game that ends before it gets there is followed by another."""
    def make(api: httpx.Client) -> scenes.Table:
        at = scenes.london_step(step, min_moves)
        for attempt in range(6):
            t = scenes.london(api)
            t.advance(runner(seed + attempt), lambda x: x.finished() or (at(x) and (extra is None or extra(x))))
            if not t.finished():
                return t
        raise AssertionError(f"no game of London reached {step}")
    return make


def tower_ability_with_targets(t: scenes.Table) -> bool:
    """An awaited seat asked to Backstab, Poison or Switch, with Beefeaters to choose on the board."""
    for seat in t.awaiting():
        p = t.view(seat)["prompt"]
        if p and ((p["kind"] in ("backstab", "poison") and p["targets"])
                  or (p["kind"] == "switch" and len(p["beefeaters"]) >= 2)):
            return True
    return False


def run_with_cards(t: scenes.Table) -> bool:
    seat = t.awaiting()[0]
    return any(m["type"] == "activate" for m in t.legal(seat)[1])


def develop_with_choice(t: scenes.Table) -> bool:
    seat = t.awaiting()[0]
    return any(m["type"] == "develop" for m in t.legal(seat)[1])


def build_scenes(api: httpx.Client) -> dict[str, dict[str, Any]]:
    """Every scene measured, by name: the page's path, its game, and what the prompt asks for
    ("hand", "board", "bar" for buttons only, None when the page asks nothing)."""
    out: dict[str, dict[str, Any]] = {}
    lon = scenes.london(api)
    out["london start"] = {"path": lon.seat_url(lon.awaiting()[0]), "game": "london", "asks": "board"}
    lon = london_at("action", 30)(api)
    out["london a turn"] = {"path": lon.seat_url(lon.awaiting()[0]), "game": "london", "asks": "bar"}
    out["london spectator"] = {"path": lon.watch_url(), "game": "london", "asks": None}
    out["london waiting"] = {"path": lon.seat_url(1 - lon.awaiting()[0]), "game": "london", "asks": None}
    lon = london_at("develop", 20, develop_with_choice)(api)
    out["london develop from the hand"] = {"path": lon.seat_url(lon.awaiting()[0]), "game": "london", "asks": "hand"}
    lon = london_at("run", 20, run_with_cards)(api)
    out["london run the city"] = {"path": lon.seat_url(lon.awaiting()[0]), "game": "london", "asks": "board"}
    lon = london_at("buy", 10)(api)
    out["london buy land"] = {"path": lon.seat_url(lon.awaiting()[0]), "game": "london", "asks": "board"}
    lon = scenes.london(api, names=("Ada", "Beatrice", "Cy", "Dot"))
    lon.advance(scenes.london_chooser(5), lambda t: t.finished())
    out["london end"] = {"path": lon.seat_url(0), "game": "london", "asks": None}

    tol = scenes.tower(api)
    out["tower pick"] = {"path": tol.seat_url(0), "game": "tower_of_london", "asks": "hand"}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(1), scenes.tower_kind("place"))
    out["tower place"] = {"path": tol.seat_url(scenes.awaited_with(tol, "place")), "game": "tower_of_london",
                          "asks": "board"}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(2), tower_ability_with_targets)
    seat = scenes.awaited_with(tol, "backstab", "poison", "switch")
    out["tower ability"] = {"path": tol.seat_url(seat), "game": "tower_of_london", "asks": "board"}
    out["tower spectator"] = {"path": tol.watch_url(), "game": "tower_of_london", "asks": None}
    tol = scenes.tower(api)
    tol.advance(scenes.tower_chooser(3), lambda t: t.finished())
    out["tower end"] = {"path": tol.seat_url(0), "game": "tower_of_london", "asks": None}
    return out


@pytest.fixture(scope="module")
def pages(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return build_scenes(httpx.Client(base_url=server.base, timeout=30))


def open_scene(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(250)  # what the page does by itself after its first view (a scroll to the target)
    page.evaluate("() => document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) { /* infinite */ } })")


# -- measuring ------------------------------------------------------------------------------------

# What the prompt asks the player to click, by game: London's things that carry a move (outside
# the action bar and the list of every choice), Tower of London's hand cards and board targets.
TARGETS = {
    "london": "#board [data-move]:not([aria-disabled])",
    "tower_of_london": "#board :is(.tol-hand button.tol-card:not(:disabled), svg .is-target)",
}
# The board's cards (whose content must not be cut off) and marks (3:1 against what lies behind).
CARDS = "#board :is(.lc, .lc-in, .bt, .bt-in, .tol-card, .tol-event-card)"
MARKS = {
    "london": ".lon-devboard .slot, .lon .deck, .lc, .bt, .newstack",
    "tower_of_london": ".tol-quadrant-label, .tol-area-label, .tol-bnum, .tol-divider, .tol-token-body, .tol-bshape, "
                       ".tol-track-spaces li, .tol-event-card",
}

MEASURE_JS = """([targetSel, marksSel]) => {
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
  const out = { scrollY, innerWidth, innerHeight, target: null, small: [], broken: [], clipped: [], faint: [],
                width: document.documentElement.scrollWidth };
  const bar = document.getElementById('action-bar');
  // the first target, and whether it is fully in view and not under a bar that stays on screen
  const targets = [...document.querySelectorAll(targetSel)]
    .filter((e) => !e.closest('#action-bar, details, .lon-list') && shown(e));
  if (targets.length) {
    const t = targets[0];
    const r = t.getBoundingClientRect();
    const problems = [];
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      problems.push(`it lies at ${px(r.left)},${px(r.top)}–${px(r.right)},${px(r.bottom)}`
                    + ` in a ${innerWidth}×${innerHeight} window`);
    }
    for (const e of document.querySelectorAll('body *')) {
      if (e.contains(t) || !shown(e)) continue;
      const pos = getComputedStyle(e).position;
      if (pos !== 'fixed' && pos !== 'sticky') continue;
      const pinned = (f) => f !== e && f.contains(e) && ['fixed', 'sticky'].includes(getComputedStyle(f).position);
      if ([...document.querySelectorAll('body *')].some(pinned)) continue;
      const b = e.getBoundingClientRect();
      const w = Math.min(r.right, b.right) - Math.max(r.left, b.left);
      const h = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
      if (w > 1 && h > 1) problems.push(`${name(e)} (${pos}) covers ${px(w)}×${px(h)} px of it`);
    }
    out.target = { name: name(t), count: targets.length, problems };
  }
  // touch targets (the game's own: the frame's own controls in its action bar are the frame's
  // tests' to measure)
  out.small = smallTargets('#board :is(a[href], button, input, select, summary, [role=button], [data-move])',
    (e) => e.closest('.sr') || (e.closest('#action-bar') && !e.closest('.bar-shell')), 23.5);
  out.broken = brokenWords(document.getElementById('board'), '[hidden], svg, .sr, code');  // (a hash is no word)
  // cards whose content is cut off: more content than box, or a part reaching past its edge
  for (const c of document.querySelectorAll('""" + CARDS + """')) {
    if (!shown(c)) continue;
    const cs = getComputedStyle(c);
    const r = c.getBoundingClientRect();
    const over = clippedBy(c, false);
    if (over) {
      out.clipped.push(`${name(c)}: ${over}`);
      continue;
    }
    const cut = [...c.querySelectorAll('*')].filter((e) => shown(e) && !e.closest('.sr')
      && e.getBoundingClientRect().bottom > r.bottom + 0.5 && getComputedStyle(e).position !== 'absolute');
    if (cut.length && cs.overflow !== 'visible') {
      out.clipped.push(`${name(c)}: ${name(cut[0])} reaches past its bottom`);
    }
  }
  // marks on the board: 3:1 against what lies behind them. An HTML mark (a card, a slot, the
  // deck) stands out by its edge or its fill, against its container's background; an SVG mark by
  // its fill (a line by its stroke), against the shapes drawn under its middle (found by
  // hit-testing with the mark set aside), or against its halo when it has one (paint-order)
  const opacityOf = (e) => {
    let o = 1;
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) o *= +getComputedStyle(n).opacity;
    return o;
  };
  const behind = (mark, x, y) => {  // the colour drawn under (x, y), the mark set aside
    const layers = [];
    for (const e of document.elementsFromPoint(x, y)) {
      if (e === mark || mark.contains(e) || e.closest('#action-bar, .kit-zoom')) continue;
      const cs = getComputedStyle(e);
      const svgElement = e instanceof SVGElement && !(e instanceof SVGSVGElement);
      const shape = svgElement && /^(circle|rect|polygon|ellipse|path)$/.test(e.tagName.toLowerCase());
      if (svgElement && !shape) continue;  // a group, a line, a text paints no area here
      const c = parse(shape ? cs.fill : cs.backgroundColor);
      if (!c || c[3] === 0) continue;
      layers.push([c[0], c[1], c[2], c[3] * (shape ? +cs.fillOpacity : 1) * opacityOf(e)]);
      if (layers[layers.length - 1][3] >= 0.999) break;
    }
    return flatten(layers);
  };
  const board = document.getElementById('board');
  for (const m of board.querySelectorAll(marksSel)) {
    if (!shown(m) || m.closest('#action-bar')) continue;
    const r = m.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) continue;
    const svgBox = m.ownerSVGElement && m.ownerSVGElement.getBoundingClientRect();  // (a zoomed board leaves some out)
    if (svgBox && (r.left + r.width / 2 < svgBox.left || r.left + r.width / 2 > svgBox.right
        || r.top + r.height / 2 < svgBox.top || r.top + r.height / 2 > svgBox.bottom)) continue;
    const cs = getComputedStyle(m);
    const tag = m.tagName.toLowerCase();
    let best = 0;
    if (!(m instanceof SVGElement)) {
      const bg = under(m.parentElement);
      const inks = [];
      if (parseFloat(cs.borderTopWidth) >= 1 && cs.borderTopStyle !== 'none') inks.push(parse(cs.borderTopColor));
      inks.push(parse(cs.backgroundColor));
      for (const ink of inks) {
        if (!ink || !ink[3]) continue;
        best = Math.max(best, ratio(blend([ink[0], ink[1], ink[2], ink[3] * opacityOf(m)], bg), bg));
      }
      if (!inks.some((ink) => ink && ink[3] > 0)) continue;  // nothing drawn of its own
    } else {
      const line = tag === 'line';
      const paint = (c, o) => {
        const x = parse(c);
        return x && x[3] > 0 ? [x[0], x[1], x[2], x[3] * opacityOf(m) * o] : null;
      };
      // a shape's edge counts when it is drawn wide enough to see (1.5 px on the screen)
      const scale = m.getScreenCTM ? Math.hypot(m.getScreenCTM().a, m.getScreenCTM().b) : 1;
      const inks = line ? [paint(cs.stroke, +cs.strokeOpacity)]
        : [paint(cs.fill, +cs.fillOpacity),
           tag !== 'text' && parseFloat(cs.strokeWidth) * scale >= 1.5 ? paint(cs.stroke, +cs.strokeOpacity) : null];
      const haloed = tag === 'text' && /^stroke/.test(cs.paintOrder) && parseFloat(cs.strokeWidth) >= 2;
      const halo = haloed ? parse(cs.stroke) : null;
      const at = (k) => [r.left + r.width * k, r.top + r.height * k];
      const points = line ? [at(0.3), at(0.7)] : [at(0.5)];
      best = Infinity;
      for (const [x, y] of points) {
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        // a piece's own parts (a promoted Beefeater's second cube) are the piece, not its ground
        const group = m.parentElement && m.parentElement.tagName.toLowerCase() === 'g';
        const piece = tag !== 'text' && group ? m.parentElement : m;
        const bg = halo && halo[3] > 0.9 ? [halo[0], halo[1], halo[2], 1] : behind(piece, x, y);
        best = Math.min(best, Math.max(0, ...inks.filter(Boolean).map((ink) => ratio(blend(ink, bg), bg))));
      }
      if (best === Infinity) continue;
    }
    if (best < 3) out.faint.push(`${name(m)}: ${Math.round(best * 100) / 100}:1`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def measures(browser: Browser, server: ServerProcess,
             pages: dict[str, dict[str, Any]]) -> dict[tuple[str, str, str], Any]:
    """(scene, size, theme): what MEASURE_JS found there, as the page opened."""
    out: dict[tuple[str, str, str], Any] = {}
    for size, theme in LOOKS:
        ctx = browser.new_context(**context_args(size, theme))
        page = ctx.new_page()
        for name, scene in pages.items():
            open_scene(page, server.base, scene["path"])
            out[(name, size, theme)] = page.evaluate(MEASURE_JS, [TARGETS[scene["game"]], MARKS[scene["game"]]])
            out[(name, size, theme)]["asks"] = scene["asks"]
        ctx.close()
    return out


Measures = dict[tuple[str, str, str], Any]


def failures(measures: Measures, check: Callable[[dict[str, Any], str], list[str]]) -> list[str]:
    found = []
    for (name, size, theme), m in measures.items():
        for problem in check(m, size) or ():
            found.append(f"{name}, {size} {theme}: {problem}")
    return found


# -- the rules ------------------------------------------------------------------------------------

def test_what_the_prompt_asks_for_is_on_screen_without_scrolling(measures: Measures) -> None:
    def check(m: dict[str, Any], size: str) -> list[str]:
        if m["asks"] in ("hand", "board"):
            if not m["target"]:
                return [f"the prompt asks for the {m['asks']}, but nothing there can be clicked"]
            return [f"its first target {m['target']['name']}: {p}" for p in m["target"]["problems"]]
        return []
    bad = failures(measures, check)
    assert not bad, "\n".join(bad[:40])


def test_nothing_scrolls_sideways(measures: Measures) -> None:
    def check(m: dict[str, Any], size: str) -> list[str]:
        return [f"the page is {m['width']} px wide"] if m["width"] > SIZES[size][0] else []
    bad = failures(measures, check)
    assert not bad, "\n".join(bad)


def test_touch_targets_are_at_least_24_px_square_on_a_phone_and_a_tablet(measures: Measures) -> None:
    bad = failures({k: m for k, m in measures.items() if k[1] in ("phone", "tablet")}, lambda m, size: m["small"])
    assert not bad, "\n".join(bad[:40])


def test_no_word_is_broken_in_the_middle(measures: Measures) -> None:
    bad = failures(measures, lambda m, size: m["broken"])
    assert not bad, "\n".join(bad[:40])


def test_no_card_clips_its_own_content(measures: Measures) -> None:
    bad = failures(measures, lambda m, size: m["clipped"])
    assert not bad, "\n".join(bad[:40])


def test_every_mark_on_the_board_keeps_3_to_1_against_what_lies_behind_it(measures: Measures) -> None:
    bad = failures(measures, lambda m, size: m["faint"])
    assert not bad, "\n".join(bad[:40])


# -- taps, zoom, arriving prompts -------------------------------------------------------------------

# the board's move number (London keeps it on the board, Tower of London on its own element)
SEQ_JS = "() => (document.querySelector('#board [data-seq]') || document.getElementById('board')).dataset.seq"


def tap_and_watch(page: Page, selector: str) -> dict[str, Any]:
    """Taps the first visible match of ``selector`` and says how far the page (window.scrollY) and
    the tapped thing (or what replaced it, by the same key, if it is still there) moved."""
    key = page.evaluate("""(s) => {
      const e = [...document.querySelectorAll(s)].find((x) => x.getBoundingClientRect().height > 0);
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight) e.scrollIntoView({ block: 'center' });
      else if (r.left < 0 || r.right > innerWidth) e.scrollIntoView({ block: 'nearest', inline: 'center' });
      return e.dataset.k || e.dataset.fk || e.dataset.card; }""", selector)
    page.wait_for_timeout(150)
    find = """([s, k]) => { const e = [...document.querySelectorAll('[data-k], [data-fk], [data-card]')]
        .find((x) => (x.dataset.k || x.dataset.fk || x.dataset.card) === k);
      if (!e) return { y: scrollY, gone: true };
      const r = e.getBoundingClientRect();
      return { y: scrollY, top: r.top, left: r.left, cx: r.left + r.width / 2, cy: r.top + r.height / 2 }; }"""
    before = page.evaluate(find, [selector, key])
    seq = page.evaluate(SEQ_JS)
    page.touchscreen.tap(before["cx"], before["cy"])
    page.wait_for_timeout(1200)
    after = page.evaluate(find, [selector, key])
    moved = 0 if after.get("gone") else max(abs(after["top"] - before["top"]), abs(after["left"] - before["left"]))
    now = page.evaluate(SEQ_JS)
    return {"scroll": abs(after["y"] - before["y"]), "moved": moved, "sent": now != seq}


# a building of the hand that may be developed without a loan: its colour is paid from the hand next
DEVELOPABLE = "#board .lon-hand .lc[data-move]:not(.action):not([data-loans])"


def test_tapping_a_card_does_not_move_the_page(browser: Browser, server: ServerProcess,
                                                pages: dict[str, dict[str, Any]]) -> None:
    """A tap on a hand card — one that cannot be chosen now (its reason is shown), one chosen as the
    first of two (Tower of London), one developed (London: the next prompt asks for a card of the
    same colour from the hand) — leaves the page where it was (it used to jump back up)."""
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    bad = []
    checks = [("london waiting", "#board .lon-hand .lc", False, True),
              ("london a turn", "#board .lon-hand .lc", False, True),
              ("tower pick", "#board .tol-hand button.tol-card", False, True),
              ("london develop from the hand", "#board .lon-hand .lc[aria-disabled]", False, False),
              ("london develop from the hand", DEVELOPABLE, True, True)]
    for scene, selector, sends, needed in checks:
        open_scene(page, server.base, pages[scene]["path"])
        if not page.locator(selector).count():
            if needed:  # (a hand whose every card may be developed has none to refuse)
                bad.append(f"{scene}: no {selector} to tap")
            continue
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight / 3)")
        page.wait_for_timeout(100)
        got = tap_and_watch(page, selector)
        if got["scroll"] > 4 or got["moved"] > 4 or got["sent"] != sends:
            bad.append(f"{scene}: a tap on {selector} scrolled the page {got['scroll']} px and moved the card "
                       f"{got['moved']} px (a move {'was' if got['sent'] else 'was not'} sent)")
    ctx.close()
    assert not bad, "\n".join(bad)


def can_run_or_buy(t: scenes.Table) -> bool:
    seat = t.awaiting()[0]
    moves = t.legal(seat)[1]
    return any(m["type"] == "choose_action" and m["action"] in ("run_city", "buy_land") for m in moves)


TARGET_IN_VIEW = """(sel) => {
  const t = [...document.querySelectorAll(sel)]
    .find((e) => !e.closest('#action-bar, details, .lon-list') && e.getBoundingClientRect().height);
  if (!t) return 'no target';
  const r = t.getBoundingClientRect();
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const hand = document.querySelector('.lon-sec-hand');
  const pinned = hand && ['fixed', 'sticky'].includes(getComputedStyle(hand).position) && !hand.contains(t);
  const h = pinned ? hand.getBoundingClientRect() : null;
  const over = (b) => b && Math.min(r.right, b.right) - Math.max(r.left, b.left) > 1
    && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 1;
  if (r.top < 0 || r.bottom > innerHeight) {
    return `${t.className} at ${Math.round(r.top)}–${Math.round(r.bottom)} in ${innerHeight}`;
  }
  if (over(bar)) return `${t.className} under the action bar`;
  if (over(h)) return `${t.className} under the hand`;
  return '';
}"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_new_prompt_brings_its_board_target_into_view_once(browser: Browser, server: ServerProcess,
                                                             size: str) -> None:
    """Choosing Run the City (or Buy Land) in the action bar: the next prompt asks for a card of
    the own display (or a borough of the market), which comes into view by itself; a redraw of the
    same prompt does not move the page again."""
    api = httpx.Client(base_url=server.base, timeout=30)
    t = london_at("action", 16, can_run_or_buy, seed=11)(api)
    ctx = browser.new_context(**context_args(size))
    page = ctx.new_page()
    open_scene(page, server.base, t.seat_url(t.awaiting()[0]))
    seq = int(page.locator("#board").get_attribute("data-seq") or -1)
    page.evaluate("() => window.scrollTo(0, 0)")
    button = page.locator('#board [data-k="action-buy_land"]:not([aria-disabled])')
    if not button.count():
        button = page.locator('#board [data-k="action-run_city"]:not([aria-disabled])')
    button.first.click()
    page.wait_for_function("s => +document.getElementById('board').dataset.seq > s", arg=seq)
    page.wait_for_timeout(400)
    problem = page.evaluate(TARGET_IN_VIEW, TARGETS["london"])
    assert not problem, f"{size}: {problem}"
    # scrolled away by the player, the page stays where the player put it
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(600)
    assert page.evaluate("() => scrollY") == 0
    ctx.close()


ZOOM_JS = """([sel]) => {
  const z = document.querySelector('.kit-zoom:not([hidden])');
  if (!z) return { shown: false };
  const card = document.querySelector(sel);
  const cls = [...card.classList][0];
  const big = z.querySelector('.' + cls);
  const a = card.getBoundingClientRect();
  const b = big ? big.getBoundingClientRect() : null;
  const zr = z.getBoundingClientRect();
  return { shown: true, same: !!big, ratio: b ? b.width / a.width : 0, text: z.textContent.trim().slice(0, 60),
           inside: zr.left >= 0 && zr.top >= 0 && zr.right <= innerWidth && zr.bottom <= innerHeight };
}"""


def closed(page: Page, selector: str, within_ms: int = 3000) -> dict[str, Any]:
    """A zoom that is gone, as a passing entry (one still there after ``within_ms`` fails)."""
    gone = False
    for _ in range(max(1, within_ms // 100)):
        gone = not page.evaluate(ZOOM_JS, [selector])["shown"]
        if gone:
            break
        page.wait_for_timeout(100)
    return {"shown": gone, "same": True, "ratio": 9, "inside": True}



@pytest.mark.parametrize(("scene", "selector"), [
    ("london a turn", "#board .lon-hand .lc"), ("london run the city", "#board .lon-player.me .lc"),
    ("tower pick", "#board .tol-hand .tol-card")])
def test_the_card_zoom_is_the_card_itself_larger_on_hover_long_press_and_focus(
        browser: Browser, server: ServerProcess, pages: dict[str, dict[str, Any]], scene: str, selector: str) -> None:
    """Hovered (a short delay), long-pressed (450 ms) or focused from the keyboard, a card shows
    itself again, larger (a card of the same kind, at least 1.3 times as wide), inside the window;
    Escape closes it, a lifted finger leaves it open, a tap elsewhere closes it."""
    found: dict[str, Any] = {}
    # hover, on a laptop
    ctx = browser.new_context(**context_args("laptop"))
    page = ctx.new_page()
    open_scene(page, server.base, pages[scene]["path"])
    page.locator(selector).first.scroll_into_view_if_needed()
    page.locator(selector).first.hover()
    page.wait_for_timeout(700)
    found["hover"] = zoom_within(page, ZOOM_JS, selector)
    page.keyboard.press("Escape")
    found["escape closes it"] = closed(page, selector)
    # keyboard focus
    page.mouse.move(0, 0)
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    page.wait_for_timeout(900)
    found["focus"] = zoom_within(page, ZOOM_JS, selector)
    ctx.close()
    # a long press, on a phone
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    open_scene(page, server.base, pages[scene]["path"])
    page.locator(selector).first.scroll_into_view_if_needed()
    box = page.locator(selector).first.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    client = ctx.new_cdp_session(page)
    client.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)
    found["long press"] = zoom_within(page, ZOOM_JS, selector)
    client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(200)
    found["long press stays"] = page.evaluate(ZOOM_JS, [selector])
    page.touchscreen.tap(5, 300)
    page.wait_for_timeout(200)
    found["a tap outside closes it"] = closed(page, selector)
    ctx.close()
    bad = {k: v for k, v in found.items() if not (v["shown"] and v["same"] and v["ratio"] >= 1.3 and v["inside"])}
    assert not bad, json.dumps(found, indent=1)
