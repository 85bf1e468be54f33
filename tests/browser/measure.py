"""What the layout tests measure in a page, one script per rule, shared by every test module that
checks it (look.py holds axe-core and contrast; this module the frame's own rules): words broken
inside, touch targets, clipping, controls covering each other, the prompt said again."""

from __future__ import annotations

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
