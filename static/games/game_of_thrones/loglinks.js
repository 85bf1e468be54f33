// A Game of Thrones: an area named in the log (or the chat) lights up on the map while the
// pointer rests on its line, or for a few seconds after a tap on it; a tap also brings the area
// into view when it lies outside the visible part of the map.

import { fitAreas, visibleRect } from "./mapview.js";
import { S } from "./renderer.js";

let pattern = null;

function areaPattern() {
  if (!pattern || pattern.src !== S.fixed.area_info) {
    const byName = new Map(S.fixed.area_info.map((a) => [a.name.toLowerCase(), a.id]));
    const names = [...byName.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    pattern = { src: S.fixed.area_info, re: new RegExp(`\\b(${names.join("|")})\\b`, "gi"), byName };
  }
  return pattern;
}

/** The areas a line of text names, in the order named. */
export function areasIn(text) {
  if (!S.fixed) return [];
  const { re, byName } = areaPattern();
  const out = [];
  for (const m of text.matchAll(re)) { const id = byName.get(m[1].toLowerCase()); if (id && !out.includes(id)) out.push(id); }
  return out;
}

let timer = null;

function mark(ids) {
  if (!S.built) return;
  for (const [id, node] of Object.entries(S.built.nodes)) node.classList.toggle("named", ids.includes(id));
}

function inView(ids) {
  const v = visibleRect();
  return ids.every((id) => {
    const r = S.built.nodes[id].getBoundingClientRect();
    return r.left < v.left + v.width && r.right > v.left && r.top < v.top + v.height && r.bottom > v.top;
  });
}

function watch(list) {
  if (!list || list.dataset.gotLinks) return;
  list.dataset.gotLinks = "1";
  list.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const li = e.target.closest("li");
    if (li) { clearTimeout(timer); mark(areasIn(li.textContent)); }
  });
  list.addEventListener("pointerleave", (e) => { if (e.pointerType !== "touch") mark([]); });
  list.addEventListener("click", (e) => {
    const li = e.target.closest("li");
    const ids = li ? areasIn(li.textContent) : [];
    if (!ids.length) return;
    mark(ids);
    clearTimeout(timer);
    timer = setTimeout(() => mark([]), 4000);
    if (!inView(ids)) fitAreas(ids, { least: S.frame.s * S.zoom.k, most: Math.max(1.2, S.frame.s) });
  });
}

export function watchLog() {
  watch(document.getElementById("log"));
  watch(document.getElementById("chat"));
}
