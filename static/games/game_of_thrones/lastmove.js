// A Game of Thrones: the last move stays marked on the map until the next one — the areas whose
// units or holder changed, and an arrow from where a house's units left to where they came.
// Found by comparing each view with the one before it (the page's own memory: a page opened
// afresh marks nothing until something moves). Fetched with the second view.

import { svg } from "/static/js/kit.js";
import { arrowGeometry } from "./arrows.js";
import { S } from "./renderer.js";

const count = (a, seat) => (a && a.seat === seat ? (a.units || []).length : 0);
const sig = (a) => JSON.stringify([a.seat ?? null, (a.units || []).map((u) => u.kind).sort(), a.controller ?? null]);

function neighbours(view) {
  if (!S.adj || S.adj.src !== view.adjacency) {
    const m = new Map();
    for (const [a, b] of view.adjacency || []) {
      if (!m.has(a)) m.set(a, new Set());
      if (!m.has(b)) m.set(b, new Set());
      m.get(a).add(b); m.get(b).add(a);
    }
    S.adj = { src: view.adjacency, m };
  }
  return S.adj.m;
}

/** Compares a view's areas with the previous view's; a change becomes the marked move. */
export function noteLastMove(view, beforeList) {
  const now = Object.fromEntries((view.areas || []).map((a) => [a.id, a]));
  const before = Object.fromEntries((beforeList || []).map((a) => [a.id, a]));
  const ids = new Set([...Object.keys(now), ...Object.keys(before)]);
  const changed = [...ids].filter((id) => sig(now[id] || {}) !== sig(before[id] || {}));
  if (!changed.length) return;
  const adj = neighbours(view);
  const arrows = [];
  for (const from of changed) {
    for (const to of changed) {
      if (from === to) continue;
      for (let seat = 0; seat < view.houses.length; seat++) {
        const left = count(before[from], seat) > count(now[from], seat);
        const came = count(now[to], seat) > count(before[to], seat);
        const near = adj.size === 0 || (adj.get(from) && adj.get(from).has(to)) || changed.length <= 3;
        if (left && came && near && !arrows.some(([f, t]) => f === from && t === to)) arrows.push([from, to]);
      }
    }
  }
  S.last = { changed, arrows };
  if (S.built) drawLastMove();
}

/** Marks the last move on the map (after the map's pieces and arrows are drawn). */
export function drawLastMove() {
  const B = S.built;
  const last = S.last || { changed: [], arrows: [] };
  for (const [id, node] of Object.entries(B.nodes)) node.classList.toggle("changed", last.changed.includes(id));
  B.arrows.querySelectorAll(".arrow.last").forEach((n) => n.remove());
  for (const [from, to] of last.arrows) {
    const g = arrowGeometry(from, to, 0.12);
    B.arrows.append(svg("path", { class: "arrow last", d: g.d, "marker-end": "url(#got-arrow)", "data-last": `${from}>${to}` }));
  }
}
