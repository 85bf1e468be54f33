// A Game of Thrones: the map's zoom and pan by wheel, drag, pinch and keys. Fetched at the first
// touch of the map (mapview.js holds a wheel or a key pressed before it comes).

import { applyZoom, fitAreas, fitScale, MAX_ZOOM, showAll, visibleRect } from "./mapview.js";
import { S } from "./renderer.js";

function toMap(clientX, clientY) {
  const m = S.built.svg.getScreenCTM();
  if (!m) return [0, 0];
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function zoomAt(factor, mx, my) {
  const z = S.zoom;
  const k = Math.min(MAX_ZOOM, Math.max(1, z.k * factor));
  z.x = mx - (mx - z.x) * (k / z.k);
  z.y = my - (my - z.y) * (k / z.k);
  z.k = k;
  applyZoom();
}

export function zoomCentre(factor) {
  const r = visibleRect();
  const [mx, my] = toMap(r.left + r.width / 2, r.top + r.height / 2);
  zoomAt(factor, mx, my);
}

function pan(dx, dy) { S.zoom.x += dx; S.zoom.y += dy; applyZoom(); }

export function wheel(x, y, deltaY) {
  const [mx, my] = toMap(x, y);
  zoomAt(deltaY < 0 ? 1.2 : 1 / 1.2, mx, my);
}

/** A key's zoom or pan; false when the key does nothing here. */
export function key(k) {
  const step = 80;
  const act = { "+": () => zoomCentre(1.3), "=": () => zoomCentre(1.3), "-": () => zoomCentre(1 / 1.3), 0: showAll,
    ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0), ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step) }[k];
  if (!act || (k.startsWith("Arrow") && S.zoom.k <= 1.01)) return false;
  act();
  return true;
}

export function setupGestures(box) {
  const pts = new Map();
  let start = null;
  box.addEventListener("wheel", (e) => { e.preventDefault(); wheel(e.clientX, e.clientY, e.deltaY); }, { passive: false });
  box.addEventListener("pointerdown", (e) => {
    S.pressAt = performance.now();
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    start = { pts: new Map(pts), zoom: { ...S.zoom }, moved: false };
  });
  box.addEventListener("pointermove", (e) => {
    if (!pts.has(e.pointerId) || !start) return;
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    if (pts.size === 1 && start.pts.has(e.pointerId)) {
      const [sx, sy] = start.pts.get(e.pointerId);
      const dx = e.clientX - sx; const dy = e.clientY - sy;
      if (!start.moved && Math.hypot(dx, dy) < 8) return;
      if (S.zoom.k <= 1.01 && e.pointerType === "touch") return; // the page scrolls instead
      start.moved = true;
      S.zoom.x = start.zoom.x + dx / fitScale(); S.zoom.y = start.zoom.y + dy / fitScale();
      applyZoom();
    } else if (pts.size === 2) {
      const [a, b] = [...pts.values()]; const [a0, b0] = [...start.pts.values()];
      if (!a0 || !b0) return;
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]); const d0 = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) || 1;
      S.zoom = { ...start.zoom };
      applyZoom();
      const [mx, my] = toMap((a0[0] + b0[0]) / 2, (a0[1] + b0[1]) / 2);
      start.moved = true;
      zoomAt(d / d0, mx, my);
    }
  });
  const end = (e) => {
    pts.delete(e.pointerId);
    if (start && start.moved) S.dragged = true;
    if (!pts.size) { start = null; setTimeout(() => { S.dragged = false; }, 0); } else start = { pts: new Map(pts), zoom: { ...S.zoom }, moved: true };
  };
  box.addEventListener("pointerup", end);
  box.addEventListener("pointercancel", end);
  box.addEventListener("keydown", (e) => { if (key(e.key)) e.preventDefault(); });
  box.addEventListener("focusin", (e) => focusArea(e.target));
}

/** An area reached by the keyboard off-screen comes into view; one pressed by a pointer never
 * moves (the press and its release must land on the same area: one tap chooses it). */
export function focusArea(target) {
  const id = target.dataset && target.dataset.area;
  if (!id || S.zoom.k <= 1.01 || (S.pressAt != null && performance.now() - S.pressAt < 1000)) return;
  const r = target.getBoundingClientRect(); const v = visibleRect();
  if (r.left >= v.left && r.right <= v.left + v.width && r.top >= v.top && r.bottom <= v.top + v.height) return;
  S.pannedAt = performance.now();
  // centred in the box (focusing may have scrolled the page: the box's middle stays in view)
  fitAreas([id], { least: fitScale() * S.zoom.k, most: fitScale() * S.zoom.k, whole: true });
}
