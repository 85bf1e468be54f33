// A Game of Thrones: the arrows on the map — a march staged, a battle's attack, a move a pointer
// or the focus rests on (drawn before it is confirmed), the last move. Fetched the first time
// one is drawn.

import { svg } from "/static/js/kit.js";
import { armyRowY, labelBoxes, rowBox, S, standing, unitGroups, unitSpot, UNIT_NAME } from "./renderer.js";

/** An area's row of units as drawn now (its place, and the boxes an arrow must keep clear of:
 * the units, the attackers' row in a battle there, the name and its icons). */
function arrowEnd(id) {
  const a = S.map.areas[id];
  if (!a) return { at: [0, 0], boxes: [] };
  const info = S.fixed.area[id] || {};
  const e = (S.live || {})[id] || {};
  const n = e.units && e.units.length ? unitGroups(e.units).length : 0;
  const at = unitSpot(a, info, standing(e));
  const boxes = labelBoxes(a, info);
  if (n) boxes.push(rowBox(at[0], at[1], n));
  if (e.neutral_force) boxes.push([at[0] - 14, at[1] - 14, at[0] + 14, at[1] + 14]);
  const c = S.ctx.view.combat;
  if (c && c.area === id && c.army && c.army.length) { const m = unitGroups(c.army.map((k) => ({ kind: k }))).length; boxes.push(rowBox(at[0], armyRowY(a, info, at, m), m)); }
  return { at, boxes };
}

const clearance = ([x, y], boxes) => Math.min(Infinity, ...boxes.map(([x0, y0, x1, y1]) => Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1))));

/** A march, retreat, raid or attack arrow between two areas' unit rows, bent a little. It leaves
 * the first row and stops short of the second (its head clear of the units, the name and the
 * icons there), so that it never hides what stands where it goes. Also a point on the drawn
 * arrow near its head, for its label (an arrow's start may lie off the screen). */
export function arrowGeometry(from, to, bend = 0.18) {
  const A = arrowEnd(from); const B = arrowEnd(to);
  const [x1, y1] = A.at; const [x2, y2] = B.at;
  const mx = (x1 + x2) / 2 - (y2 - y1) * bend; const my = (y1 + y2) / 2 + (x2 - x1) * bend;
  const at = (t) => [(1 - t) ** 2 * x1 + 2 * (1 - t) * t * mx + t * t * x2, (1 - t) ** 2 * y1 + 2 * (1 - t) * t * my + t * t * y2];
  // the head reaches 6 beyond the path's end: 10 keeps it clear of what it points at
  let t1 = 1; let best = -1;
  for (let t = 1; t >= 0.5; t -= 0.02) {
    const c = clearance(at(t), B.boxes);
    if (c >= 10) { t1 = t; break; }
    if (c > best) { best = c; t1 = t; }
  }
  let t0 = 0;
  for (let t = 0; t <= Math.min(0.45, t1 - 0.1); t += 0.02) { t0 = t; if (clearance(at(t), A.boxes) >= 4) break; }
  // the part of the curve from t0 to t1 (a quadratic's control point along its tangent at t0)
  const [sx, sy] = at(t0); const [ex, ey] = at(t1);
  const k = t1 - t0;
  const cx = sx + k * ((1 - t0) * (mx - x1) + t0 * (x2 - mx)); const cy = sy + k * ((1 - t0) * (my - y1) + t0 * (y2 - my));
  const r = (v) => v.toFixed(1);
  return { d: `M${r(sx)} ${r(sy)}Q${r(cx)} ${r(cy)} ${r(ex)} ${r(ey)}`, mid: at(t0 + 0.7 * (t1 - t0)) };
}

export function arrows(view) {
  const out = [];
  const p = view.prompt;
  if (p && p.kind === "march_moves" && p.from) {
    const count = {};
    for (const [kind, to] of p.staged || []) (count[to] = count[to] || []).push(UNIT_NAME[kind]);
    for (const [to, kinds] of Object.entries(count)) {
      const g = arrowGeometry(p.from, to);
      out.push(svg("path", { class: "arrow staged", d: g.d, "marker-end": "url(#got-arrow)" }));
      out.push(svg("text", { class: "arrow-label", x: g.mid[0].toFixed(1), y: (g.mid[1] - 8).toFixed(1), "text-anchor": "middle", text: kinds.join(", ") }));
    }
  }
  const c = view.combat;
  if (c && c.from) out.push(svg("path", { class: "arrow attack", d: arrowGeometry(c.from, c.area).d, "marker-end": "url(#got-arrow)" }));
  return out;
}

/** Where a listed move goes on the map, drawn before it is confirmed: a unit marching, a
 * retreat, a raid. Null for a move that goes nowhere. */
function moveArrow(m) {
  const view = S.ctx.view;
  const p = view.prompt || {};
  if (m.type === "move" && p.from) return [p.from, m.to, UNIT_NAME[m.unit] || m.unit];
  if (m.type === "retreat" && view.combat) return [view.combat.area, m.to, "retreat"];
  if (m.type === "raid" && m.target) return [m.area, m.target, "raid"];
  return null;
}

/** Show (or with null, clear) the arrows of the moves that a pointer or the focus rests on. */
export function preview(list) {
  if (!S.built) return;
  const out = [];
  const seen = new Set();
  for (const m of list || []) {
    const a = moveArrow(m);
    if (!a || seen.has(a[1])) continue;
    seen.add(a[1]);
    const g = arrowGeometry(a[0], a[1]);
    out.push(svg("path", { class: "arrow preview", d: g.d, "marker-end": "url(#got-arrow)" }));
    const names = (list || []).map(moveArrow).filter((b) => b && b[1] === a[1]).map((b) => b[2]);
    out.push(svg("text", { class: "arrow-label preview", x: g.mid[0].toFixed(1), y: (g.mid[1] - 10).toFixed(1), "text-anchor": "middle", text: [...new Set(names)].join(" or ") }));
  }
  S.built.preview.replaceChildren(...out);
  S.built.svg.classList.toggle("previewing", out.length > 0);
}
