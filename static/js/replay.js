// The replay page: a finished game step by step, drawn by the game's own renderer from the views
// the server rebuilds (the public view, or the player's own seat's). Loaded only on /replay pages.
import { el } from "./kit.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
const PLAY_MS = 900;

const r = { book: null, at: 0, views: new Map(), playing: null, render: null, panel: null, fixed: {} };

const nameOf = (seat) => {
  const p = r.book && r.book.players.find((q) => q.seat === seat);
  const label = r.book && r.book.labels && r.book.labels[seat]; // a house, where the game names seats
  if (label) return p ? `${label} (${p.name})` : label;
  return p ? p.name : `Seat ${seat + 1}`;
};
const last = () => (r.book ? r.book.steps.length : 0);

async function json(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error((await resp.json().catch(() => ({}))).message || `HTTP ${resp.status}`);
  return resp.json();
}

function viewAt(seq) {
  if (!r.views.has(seq)) {
    const got = json(`${boot.api}/${seq}`);
    got.catch(() => r.views.delete(seq));
    r.views.set(seq, got);
  }
  return r.views.get(seq);
}

async function show(seq, focus) {
  seq = Math.max(0, Math.min(last(), seq));
  r.at = seq;
  $("r-slider").value = String(seq);
  history.replaceState(null, "", `#step=${seq}`);
  paintLog(seq);
  paintWhere(seq);
  let step;
  try { step = await viewAt(seq); } catch (err) { $("r-where").textContent = err.message; return; }
  if (r.at !== seq) return; // a later step was asked for meanwhile
  if (seq < last()) viewAt(seq + 1); // the next step is usually next
  const view = Object.assign({}, r.fixed, step.view);
  r.render($("board"), {
    view, seat: boot.seat, moves: [], awaiting: step.awaiting, pending: false,
    players: r.book.players.map((p) => ({ ...p, connected: false })), nameOf, send: () => false, seq,
    status: step.result ? "finished" : "playing", result: step.result, seed: null, error: null,
    code: boot.code, offline: false, replay: true,
  });
  paintSeats(view, step.awaiting);
  if (focus) $(focus).focus();
}

function paintWhere(seq) {
  const s = r.book.steps[seq - 1];
  const what = !s ? "the deal" : s.undo ? `${nameOf(s.seat)} took back a move` : `${nameOf(s.seat)} moved`;
  $("r-where").textContent = `Step ${seq} of ${last()} · ${what}`;
  const round = [...r.book.rounds].reverse().find((x) => x.seq <= seq);
  if (round) $("r-round").value = String(round.seq);
  $("r-back").disabled = $("r-first").disabled = seq === 0;
  $("r-next").disabled = $("r-last").disabled = seq === last();
}

function paintLog(seq) {
  const panel = $("tab-log");
  for (const li of $("log").children) {
    li.hidden = +li.dataset.seq > seq;
    li.classList.toggle("now", +li.dataset.seq === seq); // what this step did
  }
  panel.scrollTop = panel.scrollHeight;
}

function paintSeats(view, awaiting) {
  $("seats").replaceChildren(...r.book.players.map((p) => {
    const stats = r.panel ? r.panel(view, p.seat) || [] : [];
    const mine = p.seat === boot.seat;
    return el("li", { class: `seat seat-${p.seat}${awaiting.includes(p.seat) ? " awaited" : ""}${mine ? " me" : ""}` },
      el("div", { class: "seat-line" }, el("span", { class: "seat-no", text: `${p.seat + 1}` }),
        el("span", { class: "name", text: p.name + (mine ? " (you)" : "") }),
        awaiting.includes(p.seat) ? el("span", { class: "to-play", text: "to play" }) : null),
      stats.length ? el("dl", { class: "seat-stats" }, ...stats.map((x) => el("div", { class: "seat-stat", title: x.title || null },
        el("dt", { text: x.label }), el("dd", { text: x.value })))) : null);
  }));
}

function play(on) {
  clearInterval(r.playing);
  r.playing = null;
  if (on && r.at >= last()) show(0);
  if (on) r.playing = setInterval(() => (r.at >= last() ? play(false) : show(r.at + 1)), PLAY_MS);
  const b = $("r-play");
  b.setAttribute("aria-pressed", String(Boolean(r.playing)));
  b.textContent = r.playing ? "❚❚ Pause" : "▶ Play";
  b.setAttribute("aria-label", r.playing ? "Pause (space)" : "Play (space)");
}

function roundFrom(dir) {
  const marks = r.book.rounds.map((x) => x.seq);
  const next = dir > 0 ? marks.find((s) => s > r.at) : [...marks].reverse().find((s) => s < r.at);
  return next === undefined ? (dir > 0 ? last() : 0) : next;
}

function keys(e) {
  if (e.target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
  const go = { ArrowLeft: r.at - 1, ArrowRight: r.at + 1, Home: 0, End: last(),
    PageUp: roundFrom(-1), PageDown: roundFrom(1) }[e.key];
  if (go !== undefined) { e.preventDefault(); play(false); show(go); }
  else if (e.key === " " && !e.target.closest("button")) { e.preventDefault(); play(!r.playing); }
}

async function start() {
  const [book, fixed, mod] = await Promise.all([
    json(boot.api),
    json(`/api/tables/${boot.code}/static`).catch(() => ({})),
    import(`/static/games/${boot.game}/renderer.js`).catch(() => import("./generic.js").then((g) => ({ render: g.renderGeneric }))),
  ]);
  r.book = book;
  r.fixed = fixed;
  r.render = mod.render;
  r.panel = mod.panel || null;
  $("log").replaceChildren(el("li", { "data-seq": 0, text: "The game begins." }),
    ...book.steps.flatMap((s) => s.log.map((text) => el("li", { "data-seq": s.seq, class: s.undo ? "undo" : null, text }))));
  const slider = $("r-slider");
  slider.max = String(last());
  slider.addEventListener("input", () => { play(false); show(+slider.value); });
  const rounds = $("r-round");
  rounds.replaceChildren(...book.rounds.map((x) => el("option", { value: x.seq, text: x.label })));
  rounds.addEventListener("change", () => { play(false); show(+rounds.value); });
  $("r-first").onclick = () => { play(false); show(0, "r-next"); };
  $("r-back").onclick = () => { play(false); show(r.at - 1, r.at - 1 > 0 ? "r-back" : "r-next"); };
  $("r-next").onclick = () => { play(false); show(r.at + 1, r.at + 1 < last() ? "r-next" : "r-back"); };
  $("r-last").onclick = () => { play(false); show(last(), "r-back"); };
  $("r-play").onclick = () => play(!r.playing);
  document.addEventListener("keydown", keys);
  // on a phone the controls are fixed at the bottom: the page keeps room for them below its end
  const nav = document.querySelector(".replay-controls");
  new ResizeObserver(() => document.documentElement.style.setProperty("--replay-h", `${Math.ceil(nav.getBoundingClientRect().height)}px`)).observe(nav);
  const m = location.hash.match(/step=(\d+)/);
  await show(m ? +m[1] : 0);
}

start().catch((err) => { $("r-where").textContent = `The replay could not be loaded: ${err.message}`; });
