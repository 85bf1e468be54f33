"""Looking at a page as a checker would: axe-core (vendored next to this file, evaluated in the
page through the DevTools protocol, so that the site's Content-Security-Policy stays on), the
contrast of every visible text in the state the page is in, and what lies on the first screen."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

SIZES = {"laptop": (1366, 768), "wide": (1920, 1080), "phone": (390, 844), "tablet": (768, 1024)}
TOUCH = ("phone", "tablet")  # sizes of a touch screen


def context_args(size: str, theme: str = "light") -> dict[str, Any]:
    w, h = SIZES[size]
    # the site's Content-Security-Policy stays on: a page that works only with it lifted is broken
    args: dict[str, Any] = {"viewport": {"width": w, "height": h}, "color_scheme": theme, "reduced_motion": "reduce"}
    if size in TOUCH:
        args.update(device_scale_factor=2, is_mobile=True, has_touch=True)
    return args


@functools.cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def settle(page: Page) -> None:
    """Finishes running animations (a card appearing, a highlight fading) so that what is
    measured is what stays on the screen."""
    page.evaluate("() => document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) { /* infinite */ } })")


def axe(page: Page, rules: list[str] | None = None, scope: str | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now (or in the first
    element matching ``scope``)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated, not added as a <script> (which the page's policy rightly refuses)
        page.evaluate(axe_source() + "\n;0")
    settle(page)
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    else:
        options["runOnly"] = {"type": "tag", "values": AXE_TAGS}
    found = page.evaluate("async ([o, s]) => (await axe.run(s ? document.querySelector(s) : document, o)).violations",
                          [options, scope])
    serious = [{"id": v["id"], "impact": v["impact"], "help": v["help"],
                "nodes": [{"target": n["target"], "summary": n.get("failureSummary", "")[:300],
                           # the elements axe names as the cause (a covering one, a too-near neighbour)
                           "related": sorted({str(r["target"]) for k in ("any", "all", "none")
                                              for c in n.get(k, []) for r in c.get("relatedNodes", [])})[:6]}
                          for n in v["nodes"][:6]],
                "count": len(v["nodes"])}
               for v in found if v["impact"] in ("serious", "critical")]
    for v in serious:
        if v["id"] == "target-size":
            # a covered control is told with what the browser finds over it: a passing thing (a
            # popover, a toast) a later screenshot no longer shows, or nothing when axe was misled
            # (it measures boxes and not clips: a clipped element's box reaches past its clip)
            for n in v["nodes"]:
                n["covered_by"] = page.evaluate(COVERS_JS, n["target"][-1])
    return serious


# Resolves once the page has kept still for a few frames: the same scroll offsets and the same
# boxes for the header, the board and the action bar.
STILL_JS = """(frames) => new Promise((done) => {
  const look = () => JSON.stringify([scrollX, scrollY, innerWidth, innerHeight,
    ...[".table-head, header", "#board", "#action-bar"].map((s) => { const e = document.querySelector(s);
      return e ? Object.values(e.getBoundingClientRect().toJSON()) : null; })]);
  const until = performance.now() + 5000;
  let last = look(), same = 0;
  const tick = () => { const now = look(); same = now === last ? same + 1 : 0; last = now;
    if (same >= frames || performance.now() > until) done(same >= frames); else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})"""


def still(page: Page, frames: int = 5) -> bool:
    """Waits until the page has stopped moving (see STILL_JS): False when it still moved after
    five seconds."""
    return bool(page.evaluate(STILL_JS, frames))


def axe_at_rest(page: Page) -> list[dict[str, Any]]:
    """axe's serious findings on a page that has stopped moving (a view come late, a scroll
    still under way: axe takes its boxes over many frames)."""
    still(page)
    return axe(page)


# What lies over a control: the topmost element at points across its box, when it is neither the
# control nor inside it.
COVERS_JS = """(sel) => {
  const t = document.querySelector(sel); if (!t) return null;
  const r = t.getBoundingClientRect(), seen = new Map();
  for (const fx of [.1, .3, .5, .7, .9]) for (const fy of [.2, .5, .8]) {
    const e = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
    if (!e || e === t || t.contains(e) || seen.has(e)) continue;
    const b = e.getBoundingClientRect(), cs = getComputedStyle(e);
    seen.set(e, {tag: e.tagName.toLowerCase(), id: e.id, cls: e.getAttribute("class") || "",
      box: [b.left, b.top, b.width, b.height].map(Math.round), position: cs.position, pointer: cs.pointerEvents,
      html: e.outerHTML.slice(0, 160)});
  }
  return {box: [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10) / 10), scrollY: window.scrollY,
          scrollX: window.scrollX, covers: [...seen.values()]};
}"""


# The contrast of each visible text node against the colour behind it, found by walking up to
# the first opaque background (blending translucent ones on the way). Texts over an image or a
# gradient are skipped (axe reports those as "needs review" too).
CONTRAST_JS = """(scope) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const blend = (top, under) => {
    const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
  function background(el) {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const c = parse(cs.backgroundColor);
      // an image: not measurable; a gradient: measured on the colour beneath it, when there is one
      const image = cs.backgroundImage && cs.backgroundImage !== 'none';
      if (image && (!/gradient/.test(cs.backgroundImage) || !(c && c[3] >= 1))) return null;
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
      if (n === document.documentElement && !(c && c[3] >= 1)) layers.push([255, 255, 255, 1]);
    }
    let bg = layers.pop() || [255, 255, 255, 1];
    while (layers.length) bg = blend(layers.pop(), bg);
    return bg;
  }
  const out = [];
  const root = scope ? document.querySelector(scope) : document.body;
  if (!root) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim()) continue;
    const el = t.parentElement;
    if (!el || el.closest('svg, [aria-hidden="true"] .sr, .sr, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || +cs.opacity === 0) continue;
    let opacity = 1;
    for (let n = el; n; n = n.parentElement) opacity *= +getComputedStyle(n).opacity;
    if (opacity === 0) continue;
    const fg = parse(cs.color);
    const bg = background(el);
    if (!fg || !bg) continue;
    const ink = blend([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
    const a = lum(ink), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(cs.fontSize); const bold = +cs.fontWeight >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) out.push({ text: t.textContent.trim().slice(0, 40), ratio: Math.round(ratio * 100) / 100, need,
      where: el.className || el.tagName });
  }
  return out;
}"""


def low_contrast(page: Page, scope: str | None = None) -> list[dict[str, Any]]:
    settle(page)
    return list(page.evaluate(CONTRAST_JS, scope))


def on_first_screen(page: Page, selector: str) -> bool:
    """Whether the element's top lies within the first screen (no scrolling needed to find it)."""
    return bool(page.evaluate("""(s) => { const e = document.querySelector(s); if (!e) return false;
        const r = e.getBoundingClientRect();
        return r.top + window.scrollY < window.innerHeight - 40 && r.height > 0; }""", selector))
