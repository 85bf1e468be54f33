"""What the layout tests measure in a page, one script per rule, shared by every test module that
checks it (look.py holds axe-core and contrast; this module the frame's own rules): words broken
inside, touch targets, clipping, controls covering each other, the prompt said again."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

# The bar's sentence said again on the board: a visible block outside the action bar (cards
# aside) that opens by saying whose turn it is, or holds most (60 %) of the bar's sentence's
# words of four letters or more.
SAID_AGAIN_JS = """() => {
  const bar = document.getElementById('action-bar');
  const full = document.getElementById('prompt').textContent.trim();
  const sentence = full.includes(' — ') ? full.slice(full.indexOf(' — ') + 3) : full;
  const STOP = new Set(['with', 'your', 'from', 'this', 'that', 'then', 'them', 'they', 'have', 'what', 'when',
    'which', 'will', 'into', 'each', 'only', 'more', 'less', 'than', 'there', 'their', 'also', 'same', 'other']);
  const words = (s) => new Set((s.toLowerCase().match(/[a-z\\u00c0-\\u024f]{4,}/g) || []).filter((w) => !STOP.has(w)));
  const want = words(sentence);
  const seen = new Set();
  const blocks = [];
  const walker = document.createTreeWalker(document.getElementById('board'), NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.textContent.trim()) continue;
    let b = t.parentElement;
    while (b && b.id !== 'board' && getComputedStyle(b).display.startsWith('inline')) b = b.parentElement;
    if (!b || seen.has(b)) continue;
    seen.add(b);
    const skip = 'details:not([open]), .kit-zoom, [hidden], .sr, [data-card], .lc, .bt, .tc, .tol-card';
    if (bar.contains(b) || b.closest(skip)) continue;
    const r = b.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(b).visibility === 'hidden') continue;
    const text = b.textContent.replace(/\\s+/g, ' ').trim();
    const whose = /^(your turn|your move|waiting for|you are watching)\\b/i.test(text);
    const have = words(text);
    const shared = [...want].filter((w) => have.has(w)).length;
    if (whose || (want.size >= 3 && shared / want.size >= 0.6)) blocks.push(text.slice(0, 120));
  }
  return { sentence, blocks };
}"""

# Visible controls whose boxes intersect (by more than 1 px each way), among those pinned to the
# window (a fixed or sticky ancestor) and among those in the page's flow; a control inside
# another (a button on a card) is not counted, nor content passing under a pinned bar.
CONTROLS_OVERLAP_JS = """() => {
  const sel = 'button, a[href], input, select, textarea, summary, [role="button"], [role="tab"]';
  const pinned = (e) => { for (let n = e; n && n !== document.body; n = n.parentElement) {
    const p = getComputedStyle(n).position; if (p === 'fixed' || p === 'sticky') return true; } return false; };
  const list = [];
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.top > innerHeight) continue;
    const s = getComputedStyle(e);
    // (a closed disclosure's content keeps boxes in Chromium, but is not drawn)
    if (s.visibility === 'hidden' || +s.opacity === 0 || e.closest('[hidden], .sr, .kit-zoom')
        || e.closest('details:not([open]) > :not(summary)')) continue;
    list.push({ e, r, pinned: pinned(e) });
  }
  const name = (e) => (e.id ? '#' + e.id : '') + (e.dataset.k ? `[data-k=${e.dataset.k}]` : '') + ' ' +
    (e.getAttribute('aria-label') || e.textContent).trim().replace(/\\s+/g, ' ').slice(0, 30);
  const out = [];
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
    const a = list[i], b = list[j];
    if (a.pinned !== b.pinned || a.e.contains(b.e) || b.e.contains(a.e)) continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > 1 && h > 1) out.push(`${name(a.e)} and ${name(b.e)} (${Math.round(w)}×${Math.round(h)} px)`);
  }
  return out;
}"""

# -- pieces of a page's measuring script -----------------------------------------------------------
# Each layout test module measures a page in one script of its own (what it needs, in one pass);
# these are the parts they share, pasted into that script after its own `shown(e)` (is it drawn)
# and `name(e)` (how a failure names it), which they call.

# Words broken inside: a word whose letters lie on two lines, split anywhere but after a hyphen, a
# dash, a slash or a soft hyphen; under `root`, leaving out the text inside `skip`.
BROKEN_WORDS_JS = r"""
  const brokenWords = (root, skip) => {
    const found = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const el = t.parentElement;
      if (!el || el.closest(skip) || !shown(el)) continue;
      for (const m of t.data.matchAll(/\S{2,}/g)) {
        range.setStart(t, m.index); range.setEnd(t, m.index + m[0].length);
        if (range.getClientRects().length < 2) continue;
        let before = null;
        for (let i = 0; i < m[0].length; i++) {
          range.setStart(t, m.index + i); range.setEnd(t, m.index + i + 1);
          const r = range.getBoundingClientRect();
          if (!r.height) continue;
          if (before && r.top >= before.bottom - 2) {
            if (!/[-\u2010\u2011\u2013\u2014\/\u00ad]/.test(m[0][i - 1])) {
              found.push(`"${m[0].replace(/\u00ad/g, '')}" in ${name(el)} broken before "${m[0].slice(i)}"`);
            }
            break;
          }
          before = r;
        }
      }
    }
    return found;
  };
"""

# Touch targets smaller than `min` px either way among the drawn matches of `selector` (but those
# for which `skip(e)` holds); a link inside a sentence is exempt (WCAG 2.5.8's inline exception).
SMALL_TARGETS_JS = r"""
  const smallTargets = (selector, skip, min) => {
    const found = [];
    for (const e of document.querySelectorAll(selector)) {
      if (!shown(e) || skip(e)) continue;
      if (e.tagName === 'A' && getComputedStyle(e).display === 'inline'
          && e.parentElement.textContent.trim().length > e.textContent.trim().length) continue;
      const r = e.getBoundingClientRect();
      const px = (v) => Math.round(v * 10) / 10;
      if (r.width < min || r.height < min) found.push(`${name(e)} is ${px(r.width)}×${px(r.height)} px`);
    }
    return found;
  };
"""

# A box that clips its own content: more content than box, down (or across, when asked), where its
# overflow is not visible; the words of the failure, or null.
CLIPPED_JS = r"""
  const clippedBy = (c, across) => {
    const cs = getComputedStyle(c);
    if (cs.overflowY !== 'visible' && c.scrollHeight > c.clientHeight + 1) {
      return `${c.scrollHeight} px of content in ${c.clientHeight} px`;
    }
    if (across && cs.overflowX !== 'visible' && c.scrollWidth > c.clientWidth + 1) {
      return `${c.scrollWidth} px of content across ${c.clientWidth} px`;
    }
    return null;
  };
"""

# Colours as WCAG reckons contrast: parse(css) → [r, g, b, a]; ratio(a, b); blend(top, under);
# under(e), the opaque colour an element's box sits on (its ancestors' backgrounds, blended onto
# the page's).
COLOUR_JS = r"""
  const parse = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c || ''); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  const blend = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const page = () => {
    const c = parse(getComputedStyle(document.documentElement).backgroundColor);
    return c && c[3] ? c : [255, 255, 255, 1];
  };
  const flatten = (layers) => { let bg = page(); while (layers.length) bg = blend(layers.pop(), bg); return bg; };
  const under = (e) => {
    const layers = [];
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 0.999) break; }
    }
    return flatten(layers);
  };
"""


def zoom_within(page: Page, zoom_js: str, selector: str, within_ms: int = 5000) -> dict[str, Any]:
    """What ``zoom_js`` reads of the card zoom for ``selector`` as soon as the zoom shows (its
    module is fetched on first use: a busy machine is slow), or as it stands after ``within_ms``."""
    found: dict[str, Any] = page.evaluate(zoom_js, [selector])
    for _ in range(within_ms // 100):
        if found["shown"]:
            break
        page.wait_for_timeout(100)
        found = page.evaluate(zoom_js, [selector])
    return found
