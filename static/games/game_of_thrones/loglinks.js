// A Game of Thrones: an area named in the log (or the chat) lights up on the map while the
// pointer rests on its line, or for a few seconds after a tap on it; a tap also brings the area
// into view when it lies outside the visible part of the map; and the log shown one round at a
// time when asked. Fetched when the log or the chat is first pointed at, tapped or opened.

import { el } from "/static/js/kit.js";
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

/** The event that had this module fetched, handled now that it is here. */
export function replay(e) {
  const li = e && e.target && e.target.closest && e.target.closest("#log li, #chat li");
  if (!li) return;
  if (e.type === "click") li.click();
  else if (e.pointerType !== "touch") mark(areasIn(li.textContent));
}

export function watchLog() {
  watch(document.getElementById("log"));
  watch(document.getElementById("chat"));
}

// -- the log, filtered by round ----------------------------------------------------------------

const ROUND_LINE = /^Round (\d+) begins/;

/** Hide the log lines outside the chosen round ("" = every round). A line belongs to the round
 * begun by the last "Round N begins" line before it (the setup to round 1). */
function filterLog() {
  const log = document.getElementById("log");
  const pick = document.getElementById("got-log-round");
  if (!log || !pick) return;
  const want = pick.value;
  let round = "1";
  for (const li of log.children) {
    const m = ROUND_LINE.exec(li.textContent);
    if (m) round = m[1];
    li.dataset.round = round;
    li.hidden = Boolean(want) && round !== want;
  }
}

/** A "Round" chooser above the table's log, added once; its rounds follow the game. */
export function logFilter(view) {
  const log = document.getElementById("log");
  if (!log) return;
  let pick = document.getElementById("got-log-round");
  if (!pick) {
    pick = el("select", { id: "got-log-round", onchange: () => { filterLog(); const panel = document.getElementById("tab-log"); if (panel) panel.scrollTop = pick.value ? 0 : panel.scrollHeight; } });
    // after the log, where its panel is kept scrolled: appearing, it moves no line under the pointer
    log.after(el("p", { class: "got-log-filter" }, el("label", { for: "got-log-round", text: "Show the log of " }), pick));
    new MutationObserver(filterLog).observe(log, { childList: true });
  }
  const rounds = Math.min(view.round, view.rounds || 10);
  if (pick.options.length !== rounds + 1) {
    const keep = pick.value;
    pick.replaceChildren(el("option", { value: "", text: "every round" }),
      ...Array.from({ length: rounds }, (_, i) => el("option", { value: String(i + 1), text: `round ${i + 1}` })));
    pick.value = keep;
  }
  filterLog();
}
