// A Game of Thrones: the map of Westeros, its pieces, and the panel of this seat's decision.
// Every move sent is one of ctx.moves. Fixed data is fetched once: outlines and card texts
// (map.json), areas, houses and orders (the table's static data, merged into every view).

import { el, importModule, moveKey, Moves, plural, signed, svg } from "/static/js/kit.js";
import { fitAreas, frameBox, setupGestures, showAll, zoomButtons } from "./mapview.js";


const HOUSES = {
  stark: { name: "Stark", letter: "S", fill: "#dfe4e6", ink: "#1b2227", tint: "#c5ccd2" },
  lannister: { name: "Lannister", letter: "L", fill: "#a3262f", ink: "#ffffff", tint: "#e8bcb5" },
  baratheon: { name: "Baratheon", letter: "B", fill: "#e6c229", ink: "#241c00", tint: "#efdf95" },
  greyjoy: { name: "Greyjoy", letter: "G", fill: "#2b2e33", ink: "#ffffff", tint: "#aeb3b9" },
  tyrell: { name: "Tyrell", letter: "T", fill: "#3f7f35", ink: "#ffffff", tint: "#bcd8ad" },
  martell: { name: "Martell", letter: "M", fill: "#e07a1c", ink: "#1e1100", tint: "#f2c596" },
};
const UNIT_NAME = { footman: "footman", knight: "knight", ship: "ship", "siege-engine": "siege engine" };

const S = {
  root: null, ctx: null, moves: null, map: null, fixed: null, loading: null, built: null,
  sel: null, zoom: { k: 1, x: 0, y: 0 }, selSeq: -1,
};


function load() {
  if (!S.loading) {
    S.loading = fetch("/static/games/game_of_thrones/map.json").then((r) => (r.ok ? r.json() : Promise.reject(new Error("map"))))
      .then((map) => {
        S.map = map;
        if (S.root && S.ctx) render(S.root, S.ctx);
      }, () => { S.loading = null; if (S.root) S.root.querySelector(".got-loading").textContent = "The map could not be loaded; reload the page."; });
  }
}


// The first view carries the map, its pieces and the decision (the 40 KB budget); the rest is
// fetched when first needed, with its styles, and the page drawn again.
const LAZY = {};
let cssLoad = null;

function panelsCss() {
  if (!cssLoad) {
    cssLoad = new Promise((done) => {
      const link = el("link", { rel: "stylesheet", href: "/static/games/game_of_thrones/panels.css" });
      link.addEventListener("load", done);
      link.addEventListener("error", done);
      document.head.append(link);
    });
  }
  return cssLoad;
}

function lazy(name, then = null) {
  const l = LAZY[name] || (LAZY[name] = { mod: null, p: null, then: [] });
  if (then) l.then.push(then);
  if (!l.mod && !l.p) {
    l.p = Promise.all([importModule(new URL(`./${name}.js`, import.meta.url).href), panelsCss()]).then(([m]) => {
      l.mod = m;
      if (S.root && S.ctx) render(S.root, S.ctx);
      for (const f of l.then.splice(0)) f(m);
    }, () => { l.p = null; });
  } else if (l.mod && then) l.then.splice(0).forEach((f) => f(l.mod));
  return l.mod;
}

function preview(list) {
  const goes = (m) => m.type === "move" || m.type === "retreat" || (m.type === "raid" && m.target);
  // the latest wish wins, whatever order the fetch and the pointer's moves come in
  S.previewWant = list;
  if (!LAZY.arrows && !(list && list.some(goes))) return;
  lazy("arrows", (m) => m.preview(S.previewWant));
}

function previewMoveKey(key) {
  const m = key && S.moves ? S.moves.byKey.get(key) : null;
  preview(m ? [m] : null);
}

function fixedOf(view) {
  if (!view.area_info) return null;
  if (!S.fixed || S.fixed.area_info !== view.area_info) {
    S.fixed = { area_info: view.area_info, houses: view.house_info, area: Object.fromEntries(view.area_info.map((a) => [a.id, a])) };
  }
  return S.fixed;
}

const areaName = (id) => (S.fixed && S.fixed.area[id] ? S.fixed.area[id].name : id);
const houseOf = (view, seat) => HOUSES[view.houses[seat]] || { name: `Seat ${seat + 1}`, letter: "?", fill: "#777", ink: "#fff", tint: "#ccc" };
const stars = (n) => (n <= 4 ? [3, 2, 1, 0] : [3, 3, 2, 1, 0, 0]);
const orderInfo = (view, id) => (view.orders && view.orders[id]) || { kind: id, modifier: 0, special: false, name: id };

// (every order's name comes with the table's static data)
const orderLabel = (view, id) => orderInfo(view, id).name;


const ORDER_GLYPH = {
  march: "M-6 0H4M0-4L5 0L0 4",
  defense: "M-5-5H5V0Q5 5 0 7Q-5 5-5 0Z",
  support: "M0-6V6M-6 0H6",
  raid: "M-5-5L5 5M5-5L-5 5",
  consolidate: "M-6 4V-4L-3 0L0-5L3 0L6-4V4Z",
};

// four figures told apart by their outline alone, each about 24 map units across
const FIGURE = {
  footman: "M-8 11C-8 4-5 1-3 0A5.5 5.5 0 1 1 3 0C5 1 8 4 8 11Z",
  knight: "M-8 11L-7 4C-9 0-7-5-3-8L-2-12L0-9C5-9 9-5 9 1L9 5L5 3L3 5L6 11Z",
  ship: "M-12 2H12L8 10H-8Z M-1 0V-12L9 0Z",
  "siege-engine": "M-11 6H11V10H-11Z M-8 6L0-5L8 6H4L0 0L-4 6Z M-12-9L-10-11.5L11 0.5L9 3Z",
};
const LETTER_Y = { footman: 9, knight: 9, ship: 8.6, "siege-engine": null };
const KIND_ORDER = ["knight", "footman", "siege-engine", "ship"];
const STEP = 25;

function buildMap() {
  const map = S.map;
  const [w, h] = map.size;
  const areas = svg("g", { class: "g-areas" });
  const labels = svg("g", { class: "g-labels", "aria-hidden": "true" });
  const nodes = {};
  for (const [id, a] of Object.entries(map.areas)) {
    const info = S.fixed.area[id] || { name: id, kind: "land" };
    const p = svg("path", { d: a.d, class: `a ${info.kind}`, "fill-rule": "evenodd", "data-area": id, role: "button" });
    nodes[id] = p;
    areas.append(p);
    labels.append(areaLabel(id, a, info));
  }
  const borders = svg("g", { class: "g-borders", "aria-hidden": "true" },
    map.borders.filter((b) => !b.wall).map((b) => svg("path", { d: b.d, class: "b" })),
    map.borders.filter((b) => b.wall).map((b) => svg("g", { class: "wall" },
      svg("title", { text: `No passage between ${areaName(b.a[0])} and ${areaName(b.a[1])}` }),
      svg("path", { d: b.d, class: "wall-under" }), svg("path", { d: b.d, class: "wall-over" }))),
    map.frame.map((d) => svg("path", { d, class: "frame" })));
  const dyn = svg("g", { class: "g-dyn", "aria-hidden": "true" });
  const arrows = svg("g", { class: "g-arrows", "aria-hidden": "true" });
  const defs = svg("defs", {},
    svg("pattern", { id: "got-hatch", width: "8", height: "8", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: "8", height: "8", fill: "#8d8577" }), svg("path", { d: "M0 0V8", stroke: "#5c564c", "stroke-width": "3" })),
    svg("marker", { id: "got-arrow", viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" },
      svg("path", { d: "M0 0L10 5L0 10Z", class: "arrowhead" })));
  const previewLayer = svg("g", { class: "g-arrows g-preview", "aria-hidden": "true" });
  const world = svg("g", { class: "world" }, areas, borders, labels, dyn, arrows, previewLayer);
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "got-svg", role: "group", tabindex: "-1", "aria-label": "Map of Westeros: every area is a button" }, defs, world);
  root.addEventListener("click", (e) => {
    if (S.dragged) { S.dragged = false; return; }
    const t = e.target.closest("[data-area]");
    if (t) onArea(t.dataset.area);
  });
  root.addEventListener("keydown", (e) => {
    const t = e.target.closest("[data-area]");
    if (t && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); onArea(t.dataset.area); }
  });
  const hover = (e) => {
    // the map moving (or redrawn) under a resting pointer is no pointing: only a pointer that
    // moved counts
    if (e.type === "pointerover") {
      const at = `${e.clientX},${e.clientY}`;
      if (at === S.pointedAt || (S.pannedAt != null && performance.now() - S.pannedAt < 1000)) return;
      S.pointedAt = at;
    }
    const t = e.target.closest && e.target.closest("[data-area]"); preview(t ? areaMoves(t.dataset.area) : null);
  };
  root.addEventListener("pointerover", hover);
  root.addEventListener("focusin", hover);
  // leaving the map clears what the pointer showed, not what the focused area shows
  root.addEventListener("pointerleave", () => { const f = document.activeElement; if (!(f && root.contains(f) && f.closest("[data-area]"))) preview(null); });
  root.addEventListener("focusout", () => preview(null));
  return { svg: root, world, nodes, dyn, arrows, preview: previewLayer };
}

function labelAt(a, info) {
  return info.kind === "port" ? [a.l[0], a.l[1] - PORT_LIFT] : a.l;
}

// the word stands above its anchor, so that drawn larger (a map zoomed out) it grows away from
// the ships below it
const PORT_LIFT = 9;
const PORT_SHIPS_DROP = 14;

function areaLabel(id, a, info) {
  const [x, y] = labelAt(a, info);
  const outer = svg("g", { class: `lab ${info.kind}`, "data-label": id, transform: `translate(${x} ${y})` });
  // drawn larger while the map is small (mapview.js sets the scale): names stay readable
  const g = svg("g", { class: "lab-in" });
  outer.append(g);
  const name = info.kind === "port" ? "Port" : info.name;
  g.append(svg("text", { class: "name", "text-anchor": "middle", y: info.kind === "port" ? "-4" : "4", text: name }));
  const icons = [];
  if (info.fortification === "stronghold") icons.push(svg("path", { class: "ic fort", d: "M-7 6V-4H-5V-7H-2V-4H2V-7H5V-4H7V6Z", "data-icon": "stronghold" }));
  else if (info.fortification === "castle") icons.push(svg("path", { class: "ic fort", d: "M-5 5V-3H-3V-5H-1V-3H1V-5H3V-3H5V5Z", "data-icon": "castle" }));
  for (let i = 0; i < (info.supply || 0); i++) icons.push(svg("g", { class: "ic barrel" }, svg("rect", { x: "-4", y: "-6", width: "8", height: "11", rx: "3" }), svg("path", { d: "M-4-2H4M-4 2H4" })));
  for (let i = 0; i < (info.crowns || 0); i++) icons.push(svg("path", { class: "ic crown", d: "M-6 4V-5L-3-1L0-6L3-1L6-5V4Z" }));
  if (info.home && HOUSES[info.home]) {
    const hh = HOUSES[info.home];
    icons.unshift(svg("g", { class: "ic sigil" }, svg("path", { d: "M-7-7H7V3L0 8L-7 3Z", fill: hh.fill }),
      svg("text", { "text-anchor": "middle", y: "2.5", fill: hh.ink, text: hh.letter })));
  }
  icons.forEach((ic, i) => { ic.setAttribute("transform", `translate(${(i - (icons.length - 1) / 2) * 15} 15)`); g.append(ic); });
  return outer;
}

function unitGroups(units) {
  const out = [];
  for (const kind of KIND_ORDER) {
    for (const routed of [false, true]) {
      const n = units.filter((u) => u.kind === kind && Boolean(u.routed) === routed).length;
      if (n) out.push({ kind, routed, n });
    }
  }
  return out;
}

function unitsAt(cx, cy, units, house, routedClass = true) {
  const g = svg("g", {});
  const groups = unitGroups(units);
  groups.forEach((u, i) => {
    const x = cx + (i - (groups.length - 1) / 2) * STEP;
    const t = svg("g", { class: `unit ${u.kind}${u.routed && routedClass ? " routed" : ""}`, "data-n": String(u.n), transform: `translate(${x} ${cy})${u.routed ? " rotate(90)" : ""}` },
      svg("path", { class: "fig", d: FIGURE[u.kind] }),
      LETTER_Y[u.kind] != null ? svg("text", { class: "who", "text-anchor": "middle", y: String(LETTER_Y[u.kind]), text: house.letter }) : null,
      u.n > 1 ? svg("g", { class: "count" }, svg("circle", { cx: "10", cy: "-10", r: "6.5" }), svg("text", { x: "10", y: "-6.6", "text-anchor": "middle", text: String(u.n) })) : null);
    t.style.setProperty("--h", house.fill);
    t.style.setProperty("--hi", house.ink);
    g.append(t);
  });
  return g;
}

function orderToken(view, order, x, y) {
  const house = houseOf(view, order.seat);
  const g = svg("g", { class: `order${order.token ? " up" : " down"}${order.hidden && order.token ? " mine" : ""}`, transform: `translate(${x} ${y})` });
  g.style.setProperty("--h", house.fill);
  g.style.setProperty("--hi", house.ink);
  g.append(svg("circle", { r: "13" }));
  if (!order.token) {
    g.append(svg("circle", { class: "ring", r: "15" }), svg("text", { "text-anchor": "middle", y: "4.5", text: house.letter }));
    return g;
  }
  g.append(svg("circle", { class: "ring", r: "15" }));
  const o = orderInfo(view, order.token);
  const mod = (o.modifier ? signed(o.modifier, true) : "") + (o.special ? "★" : "");
  g.append(svg("path", { class: "glyph", d: ORDER_GLYPH[o.kind] || "", transform: `translate(0 ${mod ? -4 : -0.5}) scale(${mod ? 1 : 1.25})` }));
  if (mod) g.append(svg("text", { class: "mod", "text-anchor": "middle", y: "10.6", text: mod }));
  return g;
}

function labelBoxes(a, info) {
  const [lx, ly] = labelAt(a, info);
  const name = info.kind === "port" ? "Port" : info.name || "";
  const half = info.kind === "port" ? 11 : name.length * 3.4 + 3;
  const icons = (info.fortification === "stronghold" || info.fortification === "castle" ? 1 : 0) + (info.supply || 0) + (info.crowns || 0) + (info.home ? 1 : 0);
  const boxes = [info.kind === "port" ? [lx - half, ly - 14, lx + half, ly + 2] : [lx - half, ly - 10, lx + half, ly + 6]];
  if (icons) boxes.push([lx - icons * 7.5 - 1, ly + 7, lx + icons * 7.5 + 1, ly + 23]);
  return boxes;
}

const rowBox = (x, y, n) => { const half = (n - 1) * STEP / 2 + 12; return [x - half, y - 12, x + half, y + 12]; };

/** Where the attackers stand in an embattled area, apart from its holders: below them, or above
 * when below would cover the area's name. */
function armyRowY(a, info, [ux, uy], n) {
  return labelBoxes(a, info).some((b) => meets(rowBox(ux, uy + 27, n), b)) ? uy - 27 : uy + 27;
}

const standing = (e) => (e.units && e.units.length ? unitGroups(e.units).length : e.neutral_force ? 1 : 0);

const meets = (b, c) => b[0] < c[2] && c[0] < b[2] && b[1] < c[3] && c[1] < b[3];

/** A row of units (or a neutral force) at its place in the map's data, unless it would cover the
 * area's name or icons (the data puts a few right on them): then just below or above them. */
function unitSpot(a, info, n) {
  const [ux, uy] = a.u;
  if (info.kind === "port") return n ? [ux, uy + PORT_SHIPS_DROP] : [ux, uy];
  if (!n) return [ux, uy];
  const half = (n - 1) * STEP / 2 + 12;
  const [name, icons] = labelBoxes(a, info);
  const row = (y) => [ux - half, y - 11, ux + half, y + 11];
  if (!meets(row(uy), name) && !(icons && meets(row(uy), icons))) return [ux, uy];
  const below = name[3] + 12 + (icons && icons[0] < ux + half && ux - half < icons[2] ? 17 : 0);
  for (const y of [below, name[1] - 12]) if (Math.abs(y - uy) <= 36 && !meets(row(y), name) && !(icons && meets(row(y), icons))) return [ux, y];
  return [ux, uy];
}

/** Where an area's order token goes: above its units, unless that covers the area's name or
 * icons; then beside them (right, left) or below. */
function orderSpot(a, info, n, taken, [ux, uy]) {
  const boxes = labelBoxes(a, info);
  const side = n ? n * STEP / 2 + 17 : 0;
  if (info.kind === "port") {
    // beside the ships, on the side away from the port's land (whose own order stands there)
    const land = S.map.areas[info.port_of];
    const away = land && land.u[0] > ux ? -1 : 1;
    return [ux + away * (side + 3), uy];
  }
  const spots = [taken.above ? null : [ux, uy - 23], taken.power ? null : [ux + side + 3, uy], taken.garrison ? null : [ux - side - 3, uy], taken.below ? null : [ux, uy + 23]].filter(Boolean);
  const clear = ([x, y]) => boxes.every(([x0, y0, x1, y1]) => {
    const dx = x - Math.min(Math.max(x, x0), x1); const dy = y - Math.min(Math.max(y, y0), y1);
    return dx * dx + dy * dy >= 13 * 13;
  });
  return spots.find(clear) || spots[0];
}

function drawDynamic(view) {
  const B = S.built;
  const live = Object.fromEntries((view.areas || []).map((a) => [a.id, a]));
  S.live = live;
  const hl = new Set(highlighted());
  const parts = [];
  for (const [id, a] of Object.entries(S.map.areas)) {
    const info = S.fixed.area[id] || {};
    const e = live[id] || {};
    const node = B.nodes[id];
    const ctrl = e.controller != null ? houseOf(view, e.controller) : null;
    node.style.fill = e.blocked ? "url(#got-hatch)" : info.kind === "land" && ctrl ? ctrl.tint : "";
    node.classList.toggle("hl", hl.has(id));
    node.classList.toggle("sel", S.sel === id);
    node.classList.toggle("combat", Boolean(view.combat && view.combat.area === id));
    // Tab goes to the areas that may be chosen now (the others are read, and described, not chosen)
    node.tabIndex = hl.has(id) || S.sel === id ? 0 : -1;
    node.setAttribute("aria-label", describeArea(view, id, e, info, hl.has(id)));
    const [ux, uy] = unitSpot(a, info, standing(e));
    const g = svg("g", { "data-at": id });
    if (e.units && e.units.length) g.append(unitsAt(ux, uy, e.units, houseOf(view, e.seat)));
    if (e.neutral_force) {
      g.append(svg("g", { class: "neutral", transform: `translate(${ux} ${uy})` },
        svg("path", { d: "M-6-14H6L14-6V6L6 14H-6L-14 6V-6Z" }), svg("text", { "text-anchor": "middle", y: "5", text: String(e.neutral_force) })));
    }
    const n = e.units && e.units.length ? unitGroups(e.units).length : 0;
    if (e.power_token != null) {
      const hh = houseOf(view, e.power_token);
      const pt = svg("g", { class: "power", transform: `translate(${ux + (n ? n * STEP / 2 + 13 : 0)} ${uy})` },
        svg("path", { d: "M-9 0L-4.5-8H4.5L9 0L4.5 8H-4.5Z" }), svg("text", { "text-anchor": "middle", y: "3.5", text: hh.letter }));
      pt.style.setProperty("--h", hh.fill);
      pt.style.setProperty("--hi", hh.ink);
      g.append(pt);
    }
    if (e.garrison) {
      const hh = houseOf(view, e.controller != null ? e.controller : 0);
      const gt = svg("g", { class: "garrison", transform: `translate(${ux - (n ? n * STEP / 2 + 15 : 0)} ${uy})` },
        svg("path", { d: "M-10 12V-4H-11.5V-12H-7V-8.5H-2.5V-12H2.5V-8.5H7V-12H11.5V-4H10V12Z" }), svg("text", { "text-anchor": "middle", y: "7.5", text: String(e.garrison) }));
      gt.style.setProperty("--h", hh.fill);
      g.append(gt);
    }
    const c = view.combat;
    const battle = Boolean(c && c.area === id && c.army && c.army.length);
    // the attackers stand in the embattled area during the battle, apart from its holders: below
    // them, or above when below would cover the area's name
    const armyY = battle ? armyRowY(a, info, [ux, uy], unitGroups(c.army.map((k) => ({ kind: k }))).length) : uy + 27;
    if (e.order) {
      const [ox, oy] = orderSpot(a, info, n, { power: e.power_token != null, garrison: Boolean(e.garrison), below: battle && armyY > uy, above: battle && armyY < uy }, [ux, uy]);
      g.append(orderToken(view, e.order, ox, oy));
    }
    if (battle) {
      const army = unitsAt(ux, armyY, c.army.map((k) => ({ kind: k, routed: false })), houseOf(view, c.attacker));
      army.setAttribute("class", "attacking");
      g.append(army);
    }
    parts.push(g);
  }
  B.dyn.replaceChildren(...parts);
  const A = needsArrows(view) || LAZY.arrows ? lazy("arrows") : null;
  B.arrows.replaceChildren(...(A ? A.arrows(view) : []));
}

const needsArrows = (view) => Boolean((view.prompt && view.prompt.kind === "march_moves" && (view.prompt.staged || []).length) || (view.combat && view.combat.from));

function describeArea(view, id, e, info, actionable) {
  const bits = [info.name || id];
  if (info.kind === "sea") bits.push("sea");
  if (info.kind === "port") bits.push("port");
  if (info.fortification && info.fortification !== "none") bits.push(info.fortification);
  if (info.supply) bits.push(plural(info.supply, "barrel"));
  if (info.crowns) bits.push(plural(info.crowns, "crown"));
  if (info.home && HOUSES[info.home]) bits.push(`home of ${HOUSES[info.home].name}`);
  if (e.blocked) bits.push("blocked in this game");
  if (e.controller != null) bits.push(`held by ${houseOf(view, e.controller).name}`);
  if (e.units && e.units.length) bits.push(e.units.map((u) => UNIT_NAME[u.kind] + (u.routed ? " (routed)" : "")).join(", "));
  if (e.garrison) bits.push(`garrison ${e.garrison}`);
  if (e.neutral_force) bits.push(`neutral force ${e.neutral_force}`);
  if (e.power_token != null) bits.push(`Power token of ${houseOf(view, e.power_token).name}`);
  if (e.order) bits.push(e.order.token ? `order: ${orderLabel(view, e.order.token)}${e.order.hidden ? " (face down to the others)" : ""}` : `a face-down order of ${houseOf(view, e.order.seat).name}`);
  if (view.combat && view.combat.area === id) bits.push(`battle: ${houseOf(view, view.combat.attacker).name} attacks with ${view.combat.army.map((k) => UNIT_NAME[k]).join(", ")}`);
  if (actionable) bits.push("you may choose it now");
  return bits.join("; ");
}


const AREA_TYPES = new Set(["order", "unorder", "raven_swap", "march", "consolidate", "muster", "move", "recruit", "retreat", "destroy", "raid"]);

function mapArea(m) {
  if (m.type === "raid") return S.sel && m.area === S.sel && m.target ? m.target : m.area;
  if (m.type === "move" || m.type === "recruit" || m.type === "retreat") return m.to;
  // a casualty is chosen on the embattled area, where both sides' units stand during the battle
  if (m.type === "casualty") return S.ctx.view && S.ctx.view.combat ? S.ctx.view.combat.area : null;
  if (AREA_TYPES.has(m.type)) return m.area;
  const v = m.type === "ability" ? m.choice : m.type === "choose" ? m.option : null;
  return v && S.fixed.area[v] ? v : null;
}

function areaMoves(id) {
  const all = [...S.moves.byKey.values()];
  if (S.sel && all.some((m) => m.type === "raid" && m.area === S.sel)) {
    const hit = all.filter((m) => m.type === "raid" && m.area === S.sel && m.target === id);
    if (hit.length) return hit;
  }
  return all.filter((m) => mapArea(m) === id && !(m.type === "raid" && S.sel === m.area && m.target));
}

function highlighted() {
  if (!S.moves) return [];
  const all = [...S.moves.byKey.values()];
  if (S.sel && all.some((m) => m.type === "raid" && m.area === S.sel)) return all.filter((m) => m.type === "raid" && m.area === S.sel && m.target).map((m) => m.target).concat([S.sel]);
  return [...new Set(all.map((m) => (m.type === "raid" ? m.area : mapArea(m))).filter(Boolean))];
}

const popoverFor = (id) => areaMoves(id).some((m) => POPOVER_TYPES.has(m.type));

function closePopover(refocus = true) {
  if (LAZY.popover && LAZY.popover.mod) LAZY.popover.mod.closePopover(refocus);
  else S.pop = null;
}

const placePopover = () => { if (LAZY.popover && LAZY.popover.mod) LAZY.popover.mod.placePopover(); };

/** How far above the window's bottom a sheet stands: on the action bar fixed at a phone's
 * bottom (its box, not the page's estimate of its height). */
function barRise() {
  const bar = document.getElementById("action-bar");
  const r = bar ? bar.getBoundingClientRect() : null;
  return r && r.height && r.top > innerHeight / 2 ? Math.max(0, Math.ceil(innerHeight - r.top)) : 0;
}

const PANEL_TITLE = { orders: "Your orders", raven: "The Messenger Raven", cards: "Choose your house card", bid: "Your bid" };
const POPOVER_TYPES = new Set(["order", "raven_swap", "unorder"]);
const NEEDS_PANEL = new Set(["order", "raven_swap", "raid", "unorder", "casualty"]);

function onArea(id) {
  if (!S.ctx) return;
  const list = areaMoves(id);
  if (popoverFor(id)) {
    if (S.pop === id) { closePopover(); return; }
    S.sel = id;
    S.pop = id;
    const P = lazy("popover", () => {
      const first = S.built.pop && S.built.pop.querySelector("button[data-move]:not(:disabled)");
      if (first) first.focus({ preventScroll: true });
    });
    if (P) render(S.root, S.ctx);
    return;
  }
  if (S.pop) closePopover(false);
  if (list.length === 1 && !NEEDS_PANEL.has(list[0].type) && !S.ctx.pending) { S.sel = null; S.ctx.send(list[0]); return; }
  if (list.length === 1 && list[0].type === "raid" && list[0].target && S.sel === list[0].area) { S.sel = null; S.ctx.send(list[0]); return; }
  S.sel = S.sel === id && !list.length ? null : id;
  render(S.root, S.ctx);
  const first = document.querySelector("#bar-do .area-choices button:not(:disabled)");
  if (first && list.length) first.focus({ preventScroll: true });
}


function houseChip(view, seat, extra = "") {
  const h = houseOf(view, seat);
  const chip = el("span", { class: `chip${extra}`, title: h.name },
    el("span", { class: "chip-letter", "aria-hidden": "true", text: h.letter }), el("span", { class: "chip-name", text: h.name }));
  chip.style.setProperty("--h", h.fill);
  chip.style.setProperty("--hi", h.ink);
  return chip;
}

function button(move, cls = "") {
  const choice = S.moves.choice(move);
  return el("button", { type: "button", class: `choice ${cls}`, "data-move": moveKey(move), disabled: S.ctx.pending || S.ctx.offline,
    onclick: () => { S.sel = null; S.ctx.send(move); } }, (choice && choice.label) || move.type);
}

/** An area's button said in full: "March from Winterfell to Castle Black"; while planning its
 * units and order. */
function areaSays(view, p, id) {
  const n = areaName(id);
  const e = S.live[id] || {};
  if (p.kind === "march_moves") return `March from ${areaName(p.from)} to ${n}`;
  if (p.kind === "orders" || p.kind === "raven") return `${n}, ${(e.units || []).map((u) => UNIT_NAME[u.kind]).join(", ")}: ${e.order && e.order.token ? orderLabel(view, e.order.token) : "no order yet"}`;
  const one = areaMoves(id).map((m) => (S.moves.choice(m) || {}).label);
  return p.kind === "raid" ? `Raid from ${n}` : one.length === 1 && one[0] ? (one[0].includes(n) ? one[0] : `${n}: ${one[0]}`) : n;
}

function actionPanel(view, more) {
  const ctx = S.ctx;
  const p = view.prompt;
  const box = el("section", { class: "got-act", "data-prompt": "", "aria-label": "Your decision" });
  S.areaList = null;
  if (!p && view.standings && more) return more.finalPanel(view);
  if (!p) {
    const who = (ctx.awaiting || []).map((s) => houseOf(view, s).name);
    box.append(el("h2", { text: view.winner != null ? `${houseOf(view, view.winner).name} takes the Iron Throne` : ctx.seat == null ? "Watching" : "Waiting" }),
      el("p", { text: who.length ? `Waiting for ${who.join(", ")}.` : view.winner != null ? "The game is over." : "" }));
    if (view.phase === "planning" && ctx.seat != null && view.planning && (view.planning.ready || []).includes(ctx.seat)) box.append(el("p", { class: "note", text: "Your orders are in. The others are still planning." }));
    return box;
  }
  box.classList.add("mine");
  // the prompt's sentence is in the action bar; the panel names the decision in a few words
  box.append(el("h2", { text: PANEL_TITLE[p.kind] || p.text }));
  const all = [...S.moves.byKey.values()];
  const onMap = all.filter((m) => mapArea(m) || m.type === "raid");
  const loose = all.filter((m) => !onMap.includes(m));
  if (p.kind === "orders" || p.kind === "raven") box.append(planningSummary(view));
  if (p.kind === "march_moves") {
    box.append(el("p", { class: "note", text: `Marching from ${areaName(p.from)}. ` + ((p.staged || []).length ? "So far: " + p.staged.map(([k, to]) => `${UNIT_NAME[k]} → ${areaName(to)}`).join("; ") + "." : "No unit has moved yet.") }));
  }
  if (more == null && needsPanels(view)) box.append(el("p", { class: "note", text: "…" }));
  if (more) box.append(...more.promptParts(view, loose));
  if (onMap.length) {
    const areas = [...new Set(onMap.map((m) => (m.type === "raid" ? m.area : mapArea(m))))];
    const sel = S.sel && !popoverFor(S.sel) && (areas.includes(S.sel) || areaMoves(S.sel).length) ? S.sel : null;
    if (!sel) {
      const done = p.kind === "orders" ? ordered(view) : new Set();
      const todo = areas.filter((id) => !done.has(id));
      if (p.kind === "orders" && !todo.length) {
        box.append(el("p", { class: "all-placed", text: "Every area holding your units has an order: press Ready in the bar (tap an area to change its order)." }));
      } else {
        box.append(el("p", { class: "hint", text: p.kind === "orders" ? `Tap an area on the map to give it an order (${plural(todo.length, "area")} without one), or here:` : "Choose a highlighted area on the map, or here:" }));
      }
      const list = el("div", { class: "area-list" }, areas.map((id) => el("button", { type: "button", class: `area-button${done.has(id) ? " done" : ""}`, "data-area-button": id, "aria-label": areaSays(view, p, id), onclick: () => onArea(id) }, areaName(id))));
      // orders are given on the map (a popover at the area): the list of areas stays in the
      // panel, out of the action bar, which keeps to Ready
      if (p.kind === "orders") S.areaList = el("section", { class: "got-areas", "aria-label": "Your areas" }, list);
      else box.append(list);
    } else {
      const list = areaMoves(sel);
      const head = el("h3", { text: areaName(sel) });
      const choices = el("div", { class: "area-choices" });
      for (const m of list) if (!POPOVER_TYPES.has(m.type)) choices.append(button(m));
      const raidOrigin = list.some((m) => m.type === "raid" && m.area === sel && m.target);
      box.append(head, raidOrigin ? el("p", { class: "hint", text: "Choose the raided area on the map, or:" }) : "", choices,
        el("button", { type: "button", class: "link", onclick: () => { S.sel = null; render(S.root, S.ctx); } }, "Back to all areas"));
    }
  }
  // (the cards and the bids: in the panels, panels.js)
  const rest = loose.filter((m) => m.type !== "card" && m.type !== "bid");
  if (rest.length) box.append(el("div", { class: "buttons" }, rest.map((m) => button(m, m.type === "ready" || m.type === "end_march" && !m.power || m.type === "end_muster" ? "primary" : ""))));
  if (p.kind === "orders" && !all.some((m) => m.type === "ready")) {
    box.append(el("div", { class: "buttons" }, el("button", { type: "button", class: "choice primary", disabled: true, title: "Place an order on every area holding your units first" }, "Ready"),
      el("small", { class: "note", text: " Place an order on every area holding your units first." })));
  }
  return box;
}

function ordered(view) {
  return new Set((view.areas || []).filter((a) => a.order && a.order.seat === S.ctx.seat).map((a) => a.id));
}

function planningSummary(view) {
  // who has placed how many is in the player panels
  const pos = view.tracks.kings_court.indexOf(S.ctx.seat);
  const allowed = stars(view.houses.length)[pos] || 0;
  const special = (view.areas || []).filter((a) => a.order && a.order.seat === S.ctx.seat && a.order.token && orderInfo(view, a.order.token).special).length;
  const restricted = (view.restricted || []).map((id) => orderLabel(view, id));
  return el("p", { class: "planning" }, `Special orders: ${special} of ${allowed} ★ (King's Court, ${ordinal(pos + 1)} place).`,
    restricted.length ? el("span", { class: "restricted", text: ` Restricted this round: ${restricted.join(", ")}.` }) : null);
}

const ordinal = (n) => `${n}${["th", "st", "nd", "rd"][n % 100 > 10 && n % 100 < 14 ? 0 : n % 10 < 4 ? n % 10 : 0]}`;

function statusBar(view) {
  // the engine's own words for the phase and the step being decided (the Raven, a battle, …)
  const st = view.status || {};
  const me = S.ctx.seat != null && view.houses[S.ctx.seat] ? houseChip(view, S.ctx.seat, " me") : null;
  return el("div", { class: "got-bar", title: st.text || "" }, el("span", { class: "round", text: `Round ${Math.min(view.round, view.rounds || 10)}` }),
    el("span", { class: "phase", text: st.phase || view.phase }), st.step ? el("span", { class: "next", text: st.step }) : null,
    me ? el("span", { class: "you" }, "You are ", me) : el("span", { class: "you", text: "Spectator" }),
    view.winner != null ? el("strong", { class: "won", text: `${houseOf(view, view.winner).name} wins` }) : null);
}


function needsPanels(view) {
  const kind = view.prompt ? view.prompt.kind : "";
  return Boolean(view.combat || view.bids || view.standings || view.wildling_last || (view.westeros_cards || []).length || (view.bid_results || []).length
    || ["cards", "ties", "wildling", "westeros_choice", "wildling_choice", "bid"].includes(kind));
}

const panels = () => lazy("panels");


export function render(root, ctx) {
  S.root = root; S.ctx = ctx;
  const view = ctx.view;
  if (!view) return;
  if (!S.map || !fixedOf(view)) {
    load();
    if (!root.querySelector(".got-loading")) root.replaceChildren(el("p", { class: "got-loading", text: "Unrolling the map of Westeros…" }));
    return;
  }
  S.moves = new Moves(ctx);
  if (ctx.seq !== S.selSeq) { S.selSeq = ctx.seq; if (S.sel && !areaMoves(S.sel).length) S.sel = null; }
  if (!S.built || !root.contains(S.built.svg)) {
    S.built = buildMap();
    const box = el("div", { class: "got-map", tabindex: "0", "aria-label": "The map: + and − zoom, arrow keys pan, Tab moves between the areas you may choose now" }, S.built.svg);
    S.built.box = box;
    // the panels of the moment: over the sea beside Westeros on a wide screen, a sheet above the
    // action bar on a phone when a decision needs them (a battle, the cards, a bid)
    S.built.dockBody = el("div", { class: "dock-body" });
    S.built.fold = el("button", { type: "button", class: "dock-fold", "aria-expanded": "true", onclick: () => {
      S.folded = !S.folded; paintFold(); placePopover(); } }, "Hide panel");
    S.built.dock = el("div", { class: "got-dock", "aria-label": "This moment of the game", role: "region" }, S.built.fold, S.built.dockBody);
    S.built.below = el("div", { class: "got-below" });
    S.built.bar = el("div", { class: "got-bar-wrap" });
    S.built.wrap = el("div", { class: "got-mapwrap" }, box, S.built.bar, zoomButtons(), S.built.dock);
    root.replaceChildren(el("div", { class: "got" }, S.built.wrap, S.built.below));
    S.onZoom = placePopover;
    const above = () => box.style.setProperty("--got-above", `${Math.round(root.getBoundingClientRect().top + scrollY)}px`);
    above();
    addEventListener("resize", above);
    setupGestures(box);
    frameBox();
    S.moment = null;
    if (!root.dataset.gotHover) {
      // a move's arrow while a pointer or the focus rests on its button (in the panel or the bar)
      root.dataset.gotHover = "1";
      // a finger is no pointer resting on a button (it stays where it last tapped while the bar is
      // drawn anew under it): on touch the arrow follows the focus only; nor is a mouse at rest
      const onButton = (e) => {
        const b = e.pointerType !== "touch" && e.target.closest && e.target.closest("[data-move]");
        const at = e.type === "pointerover" ? `${e.clientX},${e.clientY}` : null;
        if (b && at !== S.pointedAt) previewMoveKey(b.dataset.move);
        if (at) S.pointedAt = at;
      };
      const off = (e) => { if (e.pointerType !== "touch" && e.target.closest && e.target.closest("[data-move]")) preview(null); };
      root.addEventListener("pointerover", onButton);
      root.addEventListener("focusin", onButton);
      root.addEventListener("pointerout", off);
      root.addEventListener("focusout", off);
      addEventListener("scroll", placePopover, { passive: true });
      addEventListener("resize", placeSheets);
      // the bar grows and shrinks with what is lifted into it: the sheets stand on it
      const bar = document.getElementById("action-bar");
      if (bar) new ResizeObserver(placeSheets).observe(bar);
    }
    // the log's links to the map and its round filter: fetched when the log is first pointed
    // at, tapped or opened
    for (const id of ["tab-log", "chat", "t-log"]) {
      const node = document.getElementById(id);
      if (node && !node.dataset.gotWatch) {
        node.dataset.gotWatch = "1";
        const wake = (e) => { if (!LAZY.loglinks) lazy("loglinks", (m) => { m.watchLog(); m.logFilter(S.ctx.view); m.replay(e); }); };
        for (const type of ["pointerover", "click", "focusin"]) node.addEventListener(type, wake);
      }
    }
    new IntersectionObserver((seen, obs) => { if (seen.some((x) => x.isIntersecting)) { obs.disconnect(); lazy("tracks"); } },
      { rootMargin: "0px" }).observe(S.built.below);
  }
  const focus = document.activeElement && S.built.dock.contains(document.activeElement) ? document.activeElement.getAttribute("data-move") || document.activeElement.getAttribute("data-area-button") : null;
  // the last move: each view is compared with the one before (marks drawn once fetched)
  if (S.prevSeq !== ctx.seq) {
    const before = S.prevAreas;
    S.prevAreas = view.areas; S.prevSeq = ctx.seq;
    if (before) lazy("lastmove", (m) => m.noteLastMove(view, before));
  }
  drawDynamic(view);
  if (LAZY.lastmove && LAZY.lastmove.mod) LAZY.lastmove.mod.drawLastMove(view);
  S.built.bar.replaceChildren(statusBar(view));
  const more = needsPanels(view) ? panels() : null;
  const act = actionPanel(view, more);
  S.built.dockBody.replaceChildren((more && more.combatPanel(view)) || "", act, S.areaList || "", (more && more.combatHands(view)) || "",
    (more && more.westerosPanel(view)) || "");
  const T = LAZY.tracks && LAZY.tracks.mod;
  S.built.below.replaceChildren(T ? T.tracksPanel(view) : el("p", { class: "got-tracks-wait", text: "The tracks…" }));
  S.built.dock.classList.toggle("sheet", sheetMoment(view));
  placeSheets();
  paintFold();
  if (focus) {
    const again = S.built.dock.querySelector(`[data-move="${CSS.escape(focus)}"], [data-area-button="${CSS.escape(focus)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  const P = S.pop ? lazy("popover") : null;
  if (P) P.drawPopover(view);
  else if (S.built.pop) { S.built.pop.remove(); S.built.pop = null; }
  fitMoment(view);
  placePopover();
  if (LAZY.loglinks && LAZY.loglinks.mod) LAZY.loglinks.mod.logFilter(view);
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-area]");
  preview(focused && S.built.svg.contains(focused) ? areaMoves(focused.dataset.area) : null);
  // the seq says "this view is drawn": not before the panels it needs have come
  if (more || !needsPanels(view)) root.dataset.seq = String(ctx.seq);
  root.dataset.kind = view.prompt ? view.prompt.kind : "";
  root.dataset.phase = view.phase;
  root.dataset.round = String(view.round);
  root.dataset.sel = S.sel || "";
  root.classList.toggle("got-mine", Boolean(view.prompt));
  root.classList.toggle("got-over", view.winner != null);
}

/** Whether a phone shows the panels as a sheet above the bar now: a battle, or a decision made
 * in the panel (house cards, a bid, a Westeros or wildling card). */
function sheetMoment(view) {
  const kind = view.prompt ? view.prompt.kind : "";
  return Boolean(view.combat) || ["cards", "bid", "ties", "wildling", "westeros_choice", "wildling_choice", "support"].includes(kind);
}

function placeSheets() {
  if (!S.built) return;
  S.built.dock.style.bottom = S.built.dock.classList.contains("sheet") && innerWidth < 700 ? `${barRise()}px` : "";
  placePopover();
}

function paintFold() {
  const B = S.built;
  // folding is for a panel over the map (a phone's panels below it never fold)
  const folded = Boolean(S.folded) && (B.dock.classList.contains("sheet") || innerWidth >= 700);
  B.dockBody.hidden = folded;
  B.dock.classList.toggle("folded", folded);
  B.fold.textContent = folded ? "Show panel" : "Hide panel";
  B.fold.setAttribute("aria-expanded", String(!folded));
}

const PHONE_PX = 1.12; // map units to screen pixels on a phone: its smallest texts (9) at 10 px

/** At each new moment the view fits what matters now: all of Westeros at the opening and for
 * spectators, a battle's areas, on a phone (or a small map) the seat's areas; between moments
 * the player's own zoom and pan stay. */
function fitMoment(view) {
  const p = view.prompt;
  const c = view.combat;
  const moment = c ? `c:${view.round}:${c.from}:${c.area}` : `${view.round}:${view.phase}:${p ? p.kind : ""}`;
  if (moment === S.moment || !S.frame) return;
  const first = S.moment == null;
  S.moment = moment;
  const phone = S.built.box.clientWidth < 700;
  const least = phone ? PHONE_PX : 0;
  if (c) {
    fitAreas([c.area, c.from, ...Object.keys(c.supporters || {})].filter(Boolean), { least, most: 1.3 });
    return;
  }
  // the seat's home first (its capital: a player looks there first), then the smaller areas
  const home = S.ctx.seat != null && S.fixed.houses[view.houses[S.ctx.seat]] ? S.fixed.houses[view.houses[S.ctx.seat]].home : null;
  const kindRank = (id) => (id === home ? 0 : (S.fixed.area[id] || {}).kind === "land" ? 1 : 2);
  const targets = (p ? highlighted() : []).sort((a, b) => kindRank(a) - kindRank(b));
  if (p && p.from) targets.unshift(p.from);
  if (!targets.length || (!phone && (first || S.frame.s >= 0.5))) {
    if (first || !targets.length) showAll();
    return;
  }
  fitAreas(targets, { least, most: phone ? 1.6 : 1.2 });
}

// the winner is named here (with the final standings), not again in the table's end box
export const ownResult = true;

export { areaMoves, areaName, armyRowY, HOUSES, houseChip, houseOf, labelBoxes, mapArea, ordinal, orderInfo, orderLabel, orderToken, rowBox, S, standing, stars, unitGroups, unitSpot, UNIT_NAME };

export function panel(view, seat) {
  if (!view || !view.houses || !view.houses[seat]) return [];
  const h = HOUSES[view.houses[seat]];
  const hand = ((view.hands || {})[seat] || []).length;
  const used = ((view.discards || {})[seat] || []).length;
  const out = [{ label: "House", value: h ? h.name : view.houses[seat] },
    { label: "Power", value: String(view.power[seat]), title: "Power tokens available" },
    { label: "Supply", value: String(view.supply[seat]) },
    { label: "Castles", value: `${view.castles[seat]}/7` },
    { label: "Cards", value: `${hand} in hand, ${used} used` }];
  // the house cards already played, by name (they come back when the last one is played)
  if (used) out.push({ label: "Used", value: view.discards[seat].map((id) => ((view.house_cards || {})[id] || {}).name || id).join(", ") });
  if (view.planning && (view.planning.asked || []).includes(seat)) {
    out.push({ label: "Orders", value: (view.planning.ready || []).includes(seat) ? "ready" : `${(view.planning.placed || {})[seat] || 0} placed, not ready`, warn: !(view.planning.ready || []).includes(seat) });
  }
  return out;
}
