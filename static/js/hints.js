// Hints at casual tables (app/features/hints.py): the Hint button of the action bar asks the good bot
// about this seat's decision and shows its weighing — the best moves with the figures its
// search computed, the first one marked among the choices. The page loads this module only at
// a table founded with hints; it reads the page as it stands (the bar says whose turn it is,
// the log grows with every move), so the table's own script carries nothing for it.
import { el, moveKey, plural } from "./kit.js";

const $ = (id) => document.getElementById(id);
const WHY = {
  forced: "It is your only move.",
  only_sensible: "It is the only move worth making here.",
  rule: "The bot's own rule for this step chose it (it does not search this step).",
};

const percent = (x) => `${Math.round(x * 100)} %`;
const named = (w) => w.label || JSON.stringify(w.move);

// what a figure is: a search's average result, or (where the bot's rule decides) the average
// position value after playing the move out to the end of the round
const WHAT = { search: "average result", playouts: "average position value" };
const NOTE = {
  search: (h) => `${plural(h.iterations, "playout")} searched in ${h.seconds} s, `
    + "on what you can see; 100 % would be a win in every one.",
  playouts: (h) => `Each move played out ${plural(h.moves[0].playouts, "time")} to the end of the round `
    + `(${h.seconds} s), every player by the good bot's own rules, on what you can see. Position value: `
    + "the bot's reckoning of your lead over the strongest other player then; 50 % is level, a won game 100 %.",
};

const line = (what) => (w, i) => {
  const figures = w.result == null ? "not reached by the search"
    : `${percent(w.result)} ${what} over ${plural(w.playouts, "playout")}`;
  return el("li", { class: i === 0 ? "hint-best" : null },
    el("strong", { text: named(w) }), el("span", { class: "hint-figures", text: ` — ${figures}` }));
};

/** The hint drawn into `box`: the search's figures, or why there was no search. */
export function draw(box, hint) {
  const best = hint.moves[0];
  const parts = [el("p", { class: "hint-head", text: "The good bot's weighing" })];
  if (NOTE[hint.how]) {
    parts.push(el("ol", { class: "hint-moves" }, ...hint.moves.map(line(WHAT[hint.how]))),
      el("p", { class: "hint-note", text: NOTE[hint.how](hint) }));
  } else {
    parts.push(el("p", {}, el("strong", { text: named(best) }), ` — ${WHY[hint.how] || ""}`));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

/** Marks the controls that play `move` (those carrying its key in data-move), or none; a move
 *  on a map's area with no control of its own on screen (an order is chosen in the area's
 *  popover) marks the area and its button in the keyboard's list. */
function mark(move) {
  const key = move ? moveKey(move) : null;
  let found = false;
  for (const node of document.querySelectorAll("[data-move], .hinted")) {
    const on = key !== null && node.getAttribute("data-move") === key;
    node.classList.toggle("hinted", on);
    found = found || on;
  }
  if (found || !move || typeof move.area !== "string") return;
  const area = CSS.escape(move.area);
  for (const node of document.querySelectorAll(`[data-area="${area}"], [data-area-button="${area}"]`)) node.classList.add("hinted");
}

/** At the end, under the result: how many hints each player asked for (public, like the asks). */
async function counts(result, code) {
  const r = await fetch(`/api/tables/${code}`);
  if (!r.ok) return;
  const table = await r.json();
  if (!table.hints || result.querySelector(".hints-count")) return;
  const seated = table.players.filter((p) => p.seat !== null).sort((a, b) => a.seat - b.seat);
  const label = (p) => (table.labels ? `${table.labels[p.seat]} (${p.name})` : p.name);
  const each = seated.map((p) => `${label(p)} ${table.hints.asked[String(p.seat)] || 0}`);
  result.append(el("p", { class: "hints-count", text: `Hints asked: ${each.join(" · ")}` }));
}

function watchEnd(code) {
  const result = $("result");
  if (!result) return;
  let busy = false;
  // the end screen's own module draws the result (and may draw it anew): the count goes under it
  new MutationObserver(() => {
    if (busy || result.hidden || !result.childElementCount || result.querySelector(".hints-count")) return;
    busy = true;
    counts(result, code).finally(() => { busy = false; });
  }).observe(result, { attributes: true, childList: true });
}

function start() {
  const boot = JSON.parse($("boot").textContent);
  watchEnd(boot.code);
  const button = $("hint");
  const box = $("hint-box");
  const bar = $("action-bar");
  if (!button || !box || !bar) return;
  const api = boot.api;
  let shown = null; // the hint on screen: for one decision only
  let asking = false;

  const clear = () => { shown = null; box.hidden = true; box.replaceChildren(); mark(null); };
  const allow = () => { button.disabled = asking || !bar.classList.contains("yours"); };

  button.addEventListener("click", async () => {
    asking = true;
    allow();
    try {
      const r = await fetch(`${api}/hint`, { method: "POST" });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(body.message || "No hint could be worked out; try again.");
      shown = body;
      draw(box, body);
      mark(body.moves[0].move);
    } catch (err) {
      box.replaceChildren(el("p", { class: "hint-error", role: "alert", text: err.message }));
      box.hidden = false;
    } finally {
      asking = false;
      allow();
    }
  });
  // whose turn it is: the bar says so
  new MutationObserver(allow).observe(bar, { attributes: true, attributeFilter: ["class"] });
  // a move by anyone ends the decision the hint was for; a redrawn board loses the marks
  new MutationObserver(() => {
    const last = $("log").lastElementChild;
    if (shown && last && +last.getAttribute("data-seq") > shown.seq) clear();
    else if (shown) mark(shown.moves[0].move);
  }).observe(document.body, { childList: true, subtree: true });
  allow();
}

start();
