"""Measuring A Game of Thrones' table page with bounding boxes: the part of the map the player
sees (in the window, not under the action bar or a phone's sheet), its share of the window, the
area names' heights, Westeros' box, sideways overflow, and the buttons under 24 px."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

MEASURE = """() => {
  const map = document.querySelector('.got-map').getBoundingClientRect();
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const [l, t, r, b] = [Math.max(map.left, 0), Math.max(map.top, 0), Math.min(map.right, innerWidth),
    Math.min(map.bottom, innerHeight)];
  // the part of the map the player sees: in the window, not under the bar (or a phone's sheet)
  let top = t, bottom = b;
  if (bar.top > innerHeight / 2) bottom = Math.min(bottom, bar.top);
  else if (bar.bottom > top && bar.top <= top + 1) top = bar.bottom;
  for (const s of document.querySelectorAll('.got-dock, .got-pop')) {
    if (getComputedStyle(s).position !== 'fixed' || !s.classList.contains('sheet')) continue;
    const q = s.getBoundingClientRect(); if (q.height && q.top > top) bottom = Math.min(bottom, q.top); }
  const names = [...document.querySelectorAll('#board .lab .name')].map((n) => n.getBoundingClientRect());
  const world = document.querySelector('#board .g-areas').getBoundingClientRect();
  return {
    share: Math.max(0, r - l) * Math.max(0, b - t) / (innerWidth * innerHeight),
    visible: [l, top, r, bottom], world: [world.left, world.top, world.right, world.bottom],
    minName: Math.min(...names.map((n) => n.height)),
    zoom: +document.querySelector('.got-map').dataset.zoom,
    overflow: document.documentElement.scrollWidth - innerWidth,
  };
}"""


def measure(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE))


def inside(box: list[float], outer: list[float], slack: float = 1.5) -> bool:
    return (box[0] >= outer[0] - slack and box[1] >= outer[1] - slack and box[2] <= outer[2] + slack
            and box[3] <= outer[3] + slack)


def rect(page: Page, selector: str) -> list[float]:
    """The first match's box. The map's pieces are drawn anew at every view (and again when a
    module it fetched arrives), so the element found may be replaced before it is measured: the
    box is asked again, for up to 2 s, before its absence counts."""
    for _ in range(20):
        got = page.locator(selector).first.bounding_box()
        if got:
            return [got["x"], got["y"], got["x"] + got["width"], got["y"] + got["height"]]
        page.wait_for_timeout(100)
    raise AssertionError(selector)


def small_targets(page: Page) -> list[tuple[str, float, float]]:
    """Visible buttons of the board and the bar under 24×24 CSS px."""
    return [tuple(x) for x in page.evaluate("""() => [...document.querySelectorAll(
        '#board button, #action-bar button, .got-pop button, #board select')].filter((b) => {
          const r = b.getBoundingClientRect();
          return r.width && r.height && getComputedStyle(b).visibility === 'visible' && (r.width < 24 || r.height < 24);
        }).map((b) => [b.textContent.trim().slice(0, 30), b.getBoundingClientRect().width,
          b.getBoundingClientRect().height])""")]
