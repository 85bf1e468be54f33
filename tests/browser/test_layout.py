"""The pages before the first move — the front page, the invitation pages and every game's waiting
room — measured in Chromium at a small phone (320 px), a phone, a tablet, a laptop and a wide
screen, in the light and the dark theme, against the measurable rules of the table's frame:
nothing scrolls sideways, every form control lies inside its card, an error is shown in view,
the waiting room fits in two and a half laptop screens with its legend at legend size, touch
targets are at least 24×24 px on a phone, and no word is broken in the middle.

Every page is measured once per size and theme (one script in the page collects what each rule
needs); the tests then read those measures, so that a failure names each page, size and theme
that breaks its rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.browser.measure import BROKEN_WORDS_JS, SMALL_TARGETS_JS
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

GAMES = ("london", "tower_of_london", "towers_of_babylon", "game_of_thrones")
SIZES = {"small-phone": (320, 640), "phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 768),
         "wide": (1920, 1080)}
THEMES = ("light", "dark")
PHONES = ("small-phone", "phone")
LAPTOP = (1366, 768)
WAITING_SCREENS = 2.5  # the waiting room's height at most, in laptop viewport heights


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("layout"), engines="") as srv:  # every built-in game
        yield srv


def context_args(size: str, theme: str) -> dict[str, Any]:
    w, h = SIZES[size]
    args: dict[str, Any] = {"viewport": {"width": w, "height": h}, "color_scheme": theme, "reduced_motion": "reduce"}
    if size in PHONES:
        # a phone lays a page that is too wide out at its full width and zooms out: innerWidth
        # then grows past the screen's, which is why the screen's own width is compared below
        args.update(is_mobile=True, has_touch=True)
    return args


@pytest.fixture(scope="module")
def pages(server: ServerProcess) -> dict[str, str]:
    """The pages measured, by name: a waiting room of each game as its founder sees it (another
    player and, where a third seat exists, a bot seated), a guest's waiting room, an invitation, a
    table that has begun; the front pages are opened after those, with "Your tables" filled."""
    api = httpx.Client(base_url=server.base, timeout=20)
    out: dict[str, str] = {}
    for game in GAMES:
        t = api.post("/api/tables", json={"game": game, "name": "Ada"}).json()
        guest = api.post(f"/api/tables/{t['code']}/join", json={"name": "Bartholomew Fitzwilliam"}).json()
        if game != "towers_of_babylon":  # two seats only
            api.post(f"/api/seats/{t['seat_token']}/bots", json={"level": "easy"}).raise_for_status()
        out[f"waiting {game}"] = f"/seat/{t['seat_token']}"
        if game == "london":
            out["waiting london (a guest)"] = f"/seat/{guest['seat_token']}"
    t = api.post("/api/tables", json={"game": "tower_of_london", "name": "Heather"}).json()
    out["invitation"] = f"/join/{t['code']}"
    t = api.post("/api/tables", json={"game": "london", "name": "Ada"}).json()
    api.post(f"/api/tables/{t['code']}/join", json={"name": "Beatrice"}).raise_for_status()
    api.post(f"/api/seats/{t['seat_token']}/start").raise_for_status()
    out["begun"] = f"/join/{t['code']}"
    for game in GAMES:
        out[f"front {game}"] = f"/?game={game}"
    return out


# One pass over the page as it is: what every rule below needs.
MEASURE_JS = """(screenWidth) => {
  const shown = (e) => {
    if (e.closest('[hidden]')) return false;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= 0) return false;  // (the skip link waits off screen)
    const cs = getComputedStyle(e);
    return cs.visibility === 'visible' && cs.display !== 'none';
  };
  const name = (e) => {
    const what = (e.getAttribute('aria-label') || e.textContent || e.value || e.placeholder || e.name || '').trim();
    return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${what.replace(/\\s+/g, ' ').slice(0, 32)}"`;
  };
  const px = (v) => Math.round(v * 10) / 10;""" + BROKEN_WORDS_JS + SMALL_TARGETS_JS + """
  const out = { scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight,
                height: document.documentElement.scrollHeight, outside: [], small: [], broken: [], legend: [] };
  if (out.scrollWidth > screenWidth) {  // who sticks out
    out.wide = [...document.querySelectorAll('main *')]
      .filter((e) => shown(e) && e.getBoundingClientRect().right > screenWidth + 1).slice(-3)
      .map((e) => `${name(e)} ends at ${px(e.getBoundingClientRect().right)} px`);
  }
  // form controls inside their fieldset and their card
  const controls = [...document.querySelectorAll('main :is(input:not([type=hidden]), select, textarea, button)')]
    .filter(shown);
  for (const c of controls) {
    const r = c.getBoundingClientRect();
    for (const box of [c.closest('fieldset'), c.closest('.card')]) {
      if (!box) continue;
      const b = box.getBoundingClientRect();
      const over = Math.max(b.left - r.left, r.right - b.right, b.top - r.top, r.bottom - b.bottom);
      if (over > 0.5) out.outside.push(`${name(c)} sticks ${px(over)} px out of its ${box.tagName.toLowerCase()}`);
    }
  }
  out.small = smallTargets('a[href], button, input:not([type=hidden]), select, textarea, summary', () => false, 24);
  out.broken = brokenWords(document.body, '[hidden], script, style, svg, select, .sr');
  for (const e of document.querySelectorAll('.legend svg, .legend img, .legend .sym')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    out.legend.push([px(r.width), px(r.height)]);
  }
  return out;
}"""


def open_page(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    if path.startswith("/seat/"):
        page.wait_for_function("() => document.querySelector('#gathered li .presence, #gathered li .badge.bot')")
    page.evaluate("() => document.fonts.ready")
    # what a page folds away is measured unfolded (the founding options)
    page.evaluate("() => document.querySelectorAll('main details').forEach((d) => { d.open = true; })")


@pytest.fixture(scope="module")
def measures(browser: Browser, server: ServerProcess, pages: dict[str, str]) -> dict[tuple[str, str, str], Any]:
    """(page, size, theme): what MEASURE_JS found there."""
    out: dict[tuple[str, str, str], Any] = {}
    for size, (width, _) in SIZES.items():
        for theme in THEMES:
            ctx = browser.new_context(**context_args(size, theme))
            page = ctx.new_page()
            for name, path in pages.items():
                open_page(page, server.base, path)
                out[(name, size, theme)] = page.evaluate(MEASURE_JS, width)
            ctx.close()
    return out


def failures(measures: dict[tuple[str, str, str], Any], check: Any) -> list[str]:
    found = []
    for (name, size, theme), m in measures.items():
        for problem in check(m, size) or ():
            found.append(f"{name}, {size} {theme}: {problem}")
    return found


def test_no_page_scrolls_sideways_from_a_320_px_phone_to_a_1920_px_screen(measures):
    def check(m: dict[str, Any], size: str) -> list[str]:
        width = SIZES[size][0]
        if m["scrollWidth"] <= width and m["innerWidth"] == width:
            return []
        return [f"the page is {m['scrollWidth']} px wide on a {width} px screen (innerWidth {m['innerWidth']}); "
                f"{m.get('wide')}"]
    bad = failures(measures, check)
    assert not bad, "\n".join(bad[:40])


def test_every_form_control_lies_inside_its_card_and_its_fieldset(measures):
    bad = failures(measures, lambda m, size: m["outside"])
    assert not bad, "\n".join(bad[:40])


def test_every_waiting_room_fits_in_two_and_a_half_laptop_screens_with_its_legend_at_legend_size(measures):
    bad = []
    for (name, size, theme), m in measures.items():
        if not name.startswith("waiting"):
            continue
        if SIZES[size] == LAPTOP and m["height"] > WAITING_SCREENS * LAPTOP[1]:
            bad.append(f"{name}, laptop {theme}: {m['height']} px tall, {m['height'] / LAPTOP[1]:.1f} screens")
        huge = [wh for wh in m["legend"] if wh[0] > 64 or wh[1] > 40]
        if huge:
            bad.append(f"{name}, {size} {theme}: {len(huge)} legend symbols drawn larger than 64×40 px, "
                       f"e.g. {huge[0][0]}×{huge[0][1]}")
        if not m["legend"]:
            bad.append(f"{name}, {size} {theme}: no legend symbol is shown")
    assert not bad, "\n".join(bad[:40])


def test_touch_targets_are_at_least_24_px_square_on_a_phone(measures):
    bad = failures({k: m for k, m in measures.items() if k[1] in PHONES}, lambda m, size: m["small"])
    assert not bad, "\n".join(bad[:40])


def test_no_word_is_broken_in_the_middle(measures):
    bad = failures(measures, lambda m, size: m["broken"])
    assert not bad, "\n".join(bad[:40])


def error_in_view(page: Page, field: str, invalid: bool = True) -> list[str]:
    """What is wrong with how the page shows its error: it must be in the viewport, beside
    ``field``, announced (role=alert or aria-live), the field focused and described by it (and
    marked invalid when it holds what was wrong)."""
    return list(page.evaluate("""([field, invalid]) => {
      const problems = [];
      const err = [...document.querySelectorAll('main .error')].find((e) => e.getBoundingClientRect().height > 0);
      if (!err) return ['no error is shown'];
      const r = err.getBoundingClientRect();
      if (r.top < 0 || r.bottom > innerHeight) {
        problems.push(`the error is at ${Math.round(r.top + scrollY)} px, out of the viewport `
                      + `(${innerHeight} px high, scrolled to ${Math.round(scrollY)})`);
      }
      const input = document.querySelector(field);
      const f = input.getBoundingClientRect();
      const gap = Math.max(f.top - r.bottom, r.top - f.bottom, 0);
      if (gap > 80) problems.push(`the error is ${Math.round(gap)} px away from its field`);
      if (!err.closest('[role=alert], [aria-live]')) problems.push('the error is not announced (no alert, aria-live)');
      const focused = document.activeElement;
      if (focused !== input) problems.push(`the focus is on ${focused.tagName}, not the field`);
      const described = (input.getAttribute('aria-describedby') || '').split(' ');
      if (!described.includes(err.id)) problems.push('the field is not described by the error');
      if (invalid && input.getAttribute('aria-invalid') !== 'true') problems.push('the field is not marked invalid');
      return problems;
    }""", [field, invalid]))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_wrong_invitation_code_is_answered_beside_its_field_in_view_focused_and_announced(
        browser: Browser, server: ServerProcess, size: str) -> None:
    ctx = browser.new_context(**context_args(size, "dark" if size == "tablet" else "light"))
    page = ctx.new_page()
    page.goto(f"{server.base}/?game=game_of_thrones")
    page.fill("#code", "QQQQQ")
    page.press("#code", "Enter")
    page.wait_for_url("**/join?code=QQQQQ")
    page.wait_for_load_state()
    problems = error_in_view(page, "#code")
    assert "code" in page.locator("main .error").first.inner_text()
    if size in ("phone", "laptop"):  # an unknown code in a link: the "Alas" page says so the same way
        page.goto(f"{server.base}/join/ZZZZZZ")
        problems += [f"/join/ZZZZZZ: {p}" for p in error_in_view(page, "#code", invalid=False)]
    ctx.close()
    assert not problems, problems


PHONE = (390, 844)
PHONE_WAITING_SCREENS = 2  # a waiting room's height at most on a phone, in its screens, as it opens


def test_every_waiting_room_fits_in_two_phone_screens_with_the_symbols_and_rules_a_tap_away(
        browser: Browser, server: ServerProcess, pages: dict[str, str]) -> None:
    """On a 390×844 phone, each game's waiting room as it opens (nothing unfolded by the test) is
    at most two screens tall; the symbols and the rules are each behind a disclosure in view of the
    page's end, which opens them at legend size."""
    ctx = browser.new_context(**context_args("phone", "light"))
    page = ctx.new_page()
    heights, bad = {}, []
    for game in GAMES:
        page.goto(server.base + pages[f"waiting {game}"])
        page.wait_for_function("() => document.querySelector('#gathered li .presence, #gathered li .badge.bot')")
        page.evaluate("() => document.fonts.ready")
        page.wait_for_timeout(200)
        heights[game] = page.evaluate("() => document.documentElement.scrollHeight")
        if heights[game] > PHONE_WAITING_SCREENS * PHONE[1]:
            bad.append(f"{game}: {heights[game]} px tall, {heights[game] / PHONE[1]:.1f} screens")
        folds = page.locator(".before-play details > summary")
        if folds.count() < 2:
            bad.append(f"{game}: {folds.count()} disclosures for the symbols and the rules")
            continue
        for i in range(folds.count()):
            folds.nth(i).click()
        legend = page.evaluate("""() => [...document.querySelectorAll('.legend svg, .legend img, .legend .sym')]
            .map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height)
            .map((r) => [r.width, r.height])""")
        if not legend or any(w > 64 or h > 40 for w, h in legend):
            bad.append(f"{game}: opened, the legend shows {len(legend)} symbols, e.g. {legend[:1]}")
    ctx.close()
    assert not bad, "\n".join(bad) + f"\nheights: {heights}"
