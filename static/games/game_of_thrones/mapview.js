// A Game of Thrones: how the map is looked at — the frame that fits Westeros into the box (beside
// the panel docked over the sea on a wide screen), zoom and pan by wheel, pinch, drag and keys,
// fitting the view to the areas that matter now, and names kept readable at every zoom.

import { el } from "/static/js/kit.js";
import { S } from "./renderer.js";

export const MAX_ZOOM = 8;
// a name's font box is about 1.16 em high (serif, bold): names are drawn at least this high
const NAME_PX = 12.4;
const NAME_EM = 1.16;
const NAME_FS = 11;
const PORT_FS = 9.5;

export const fitScale = () => (S.frame ? S.frame.s : 1);

function freeWidth(W) {
  const dock = S.built.dock;
  if (!dock || getComputedStyle(dock).position !== "absolute" || dock.hidden) return W;
  return Math.max(W * 0.45, W - dock.offsetWidth - 16);
}

// the viewBox covers the whole box, Westeros fitted beside the panel docked on its right
export function frameBox() {
  const box = S.built.box;
  const W = box.clientWidth; const H = box.clientHeight;
  if (!W || !H) return;
  const [w, h] = S.map.size;
  const free = freeWidth(W);
  const s = Math.min(free / w, H / h);
  // a box resized (the bar grew, the window turned) keeps the map as large on the screen and
  // the same point of it in the middle
  const was = S.frame;
  if (was && S.zoom.k > 1.001) {
    const [mx, my] = [(was.x0 + was.vw / 2 - S.zoom.x) / S.zoom.k, (was.y0 + was.vh / 2 - S.zoom.y) / S.zoom.k];
    const k = Math.max(1, S.zoom.k * was.s / s);
    const [x0n, y0n] = [-(free / s - w) / 2, -(H / s - h) / 2];
    S.zoom = { k, x: x0n + W / s / 2 - mx * k, y: y0n + H / s / 2 - my * k };
  }
  const vw = W / s; const vh = H / s;
  const x0 = -(free / s - w) / 2; const y0 = -(vh - h) / 2;
  S.frame = { s, x0, y0, vw, vh, fw: free / s };
  S.built.svg.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${vw.toFixed(1)} ${vh.toFixed(1)}`);
  applyZoom();
}

export function applyZoom() {
  const z = S.zoom;
  const [w, h] = S.map.size;
  const f = S.frame || { x0: 0, y0: 0, vw: w, vh: h, s: 1 };
  z.k = Math.min(MAX_ZOOM, Math.max(1, z.k));
  // the map may move anywhere inside the view while it is smaller, and must cover it when larger
  const clamp = (v, x0, vw, size) => { const a = x0; const b = x0 + vw - size * z.k; return Math.min(Math.max(a, b), Math.max(Math.min(a, b), v)); };
  // (sideways within the part left of the docked panel: an east coast can come out from under it)
  z.x = z.k <= 1.001 ? 0 : clamp(z.x, f.x0, f.fw || f.vw, w);
  z.y = z.k <= 1.001 ? 0 : clamp(z.y, f.y0, f.vh, h);
  S.built.world.setAttribute("transform", `translate(${z.x.toFixed(1)} ${z.y.toFixed(1)}) scale(${z.k.toFixed(3)})`);
  S.built.box.style.touchAction = z.k > 1.01 ? "none" : "pan-y";
  S.built.box.dataset.zoom = z.k.toFixed(2);
  // names keep a readable size however far out the map is: drawn larger when it is small
  const px = fitScale() * z.k;
  const grow = (fs) => Math.min(2.1, Math.max(1, NAME_PX / (fs * NAME_EM * px)));
  S.built.svg.style.setProperty("--ls", grow(NAME_FS).toFixed(3));
  S.built.svg.style.setProperty("--lsp", grow(PORT_FS).toFixed(3));
  if (S.onZoom) S.onZoom();
}

export function showAll() { S.zoom = { k: 1, x: 0, y: 0 }; S.pannedAt = performance.now(); applyZoom(); }

export function zoomButtons() {
  return el("div", { class: "zoom", role: "group", "aria-label": "Zoom" },
    el("button", { type: "button", "data-zoom": "in", "aria-label": "Zoom in", onclick: () => S.zoomBy(1.4) }, "+"),
    el("button", { type: "button", "data-zoom": "out", "aria-label": "Zoom out", onclick: () => S.zoomBy(1 / 1.4) }, "−"),
    el("button", { type: "button", "data-zoom": "reset", "aria-label": "Show the whole map", onclick: showAll }, "⤢"));
}

/** The part of the map's box the player sees: in the window, clear of the bars and panels. */
export function visibleRect(whole = false) {
  const b = S.built.box.getBoundingClientRect();
  // whole: the box itself, wherever the page is scrolled (what a scroll would bring to view)
  let top = whole ? b.top : Math.max(b.top, 0); let bottom = whole ? b.bottom : Math.min(b.bottom, innerHeight);
  const bar = document.getElementById("action-bar");
  if (bar) {
    const r = bar.getBoundingClientRect();
    if (r.height && r.top > innerHeight / 2) bottom = Math.min(bottom, r.top);
    else if (r.height && r.bottom > top && r.top <= top + 1) top = Math.max(top, r.bottom);
  }
  const dock = S.built.dock;
  const sheet = dock && getComputedStyle(dock).position === "fixed" ? dock.getBoundingClientRect() : null;
  if (sheet && sheet.height && sheet.top > top) bottom = Math.min(bottom, sheet.top);
  const right = b.left + freeWidth(b.width);
  return { left: b.left, top, width: Math.max(40, right - b.left), height: Math.max(40, bottom - top) };
}

// around areas' pieces and names, where a tap on an area is expected
function areaBox(ids) {
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
  for (const id of ids) {
    const a = S.map.areas[id];
    if (!a) continue;
    for (const [x, y] of [a.u, a.l]) {
      x0 = Math.min(x0, x - 45); y0 = Math.min(y0, y - 35); x1 = Math.max(x1, x + 45); y1 = Math.max(y1, y + 35);
    }
  }
  return x0 < x1 ? [x0, y0, x1, y1] : null;
}

/** The areas brought into view as close as they fit, at `least` to `most` screen px per map
 * unit; the first stays in view when they do not all fit. */
export function fitAreas(ids, { least = 0, most = 1.6, whole = false } = {}) {
  const box = areaBox(ids);
  if (!box || !S.frame) return;
  const r = visibleRect(whole);
  const pad = 24;
  const s = S.frame.s;
  let px = Math.min((r.width - 2 * pad) / (box[2] - box[0]), (r.height - 2 * pad) / (box[3] - box[1]));
  px = Math.min(Math.max(px, least), Math.max(most, least));
  const k = Math.min(MAX_ZOOM, Math.max(1, px / s));
  px = s * k;
  let [cx, cy] = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  if ((box[2] - box[0]) * px > r.width - 2 * pad || (box[3] - box[1]) * px > r.height - 2 * pad) {
    const first = areaBox(ids.slice(0, 1));
    if (first) [cx, cy] = [(first[0] + first[2]) / 2, (first[1] + first[3]) / 2];
  }
  const b = S.built.box.getBoundingClientRect();
  const [vx, vy] = [S.frame.x0 + (r.left + r.width / 2 - b.left) / s, S.frame.y0 + (r.top + r.height / 2 - b.top) / s];
  S.zoom = { k, x: vx - cx * k, y: vy - cy * k };
  // the map moved under a resting pointer: that is no pointing at an area (renderer.js: hover)
  S.pannedAt = performance.now();
  applyZoom();
}

// gestures.js is fetched at the first touch of the map; what came before it is held, then applied
export function setupGestures(box) {
  let mod = null;
  const held = [];
  const load = () => import("./gestures.js").then((m) => {
    if (mod) return;
    mod = m;
    m.setupGestures(box);
    for (const f of held.splice(0)) f(m);
  });
  const wake = (e) => {
    if (mod) return;
    const { type, key, target } = e;
    if (type === "pointerdown") S.pressAt = performance.now();
    if (type === "wheel") { e.preventDefault(); const { clientX, clientY, deltaY } = e; held.push((m) => m.wheel(clientX, clientY, deltaY)); }
    if (type === "keydown" && (["+", "=", "-", "0"].includes(key) || (key.startsWith("Arrow") && S.zoom.k > 1.01))) {
      e.preventDefault(); held.push((m) => m.key(key));
    }
    if (type === "focusin") held.push((m) => m.focusArea(target));
    load();
  };
  box.addEventListener("wheel", wake, { passive: false });
  for (const type of ["pointerdown", "keydown", "focusin"]) box.addEventListener(type, wake);
  S.zoomBy = (f) => (mod ? mod.zoomCentre(f) : (held.push((m) => m.zoomCentre(f)), load()));
  new ResizeObserver(() => frameBox()).observe(box);
}
