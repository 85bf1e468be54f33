// The table's clocks, shown to every seat and spectator: loaded only at a table that has them
// (the server sends a "clock" message only then). Each seat's time left, counted down here
// between messages; whose clock runs, and whose stands still because a bot plays the seat, is
// said in words, not by colour alone.
import { el } from "./kit.js";

let shown = null; // { clock, at (performance.now() when received), seq }
let ticker = null;
let nameOf = (seat) => `Seat ${seat + 1}`;
let lastTimeout = null;

const ACTIONS = {
  pass: "the seat passed (or played its first listed move)",
  bot_easy: "an easy bot played for the seat",
  bot_good: "a good bot played for the seat",
};

const STYLE = `
.clocks { margin: 0 0 .6rem; }
.clocks ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .25rem; }
.clock { display: flex; flex-wrap: wrap; gap: 0 .5rem; align-items: baseline; padding: .2rem .5rem; border: 1px solid var(--rule); border-radius: var(--radius); background: var(--card-2); }
.clock-name { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.clock-time { font-variant-numeric: tabular-nums; font-weight: bold; }
.clock-state { font-size: .85rem; color: var(--ink-soft); }
.clock.running { border: 2px solid var(--accent); }
.clock.bot { border-style: dashed; }
.clock.low .clock-time { color: var(--bad); }
.clock-note { margin: .3rem 0 0; font-size: .9rem; font-style: italic; }`;

function box() {
  let section = document.getElementById("clocks");
  if (section) return section;
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.append(style);
  section = el("section", { id: "clocks", class: "clocks", "aria-label": "Clocks" },
    el("h2", { class: "sr", text: "Clocks" }), el("ol", {}), el("p", { class: "clock-note", "aria-live": "polite", hidden: true }));
  const seats = document.getElementById("seats");
  seats.parentNode.insertBefore(section, seats);
  return section;
}

/** "9:41", "1:02:05" for a chess clock; "23 h 12 min", "4 min 10 s" for a deadline. */
export function format(ms, kind) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (kind === "deadline") {
    if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
    if (h) return `${h} h ${m} min`;
    return m ? `${m} min ${sec} s` : `${sec} s`;
  }
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

function draw() {
  if (!shown) return;
  const { clock, at } = shown;
  const spent = performance.now() - at;
  const items = clock.seats.map((s) => {
    const left = s.running ? s.ms - spent : s.ms;
    const low = s.running && left < Math.min(60000, clock.seconds * 100);
    // a seat a bot plays runs no clock: its player's time waits for them
    const state = s.bot ? "stopped: bot plays" : s.running ? (left <= 0 ? "time is up" : "▶ running") : "waiting";
    return el("li", { class: `clock${s.running ? " running" : ""}${low ? " low" : ""}${s.bot ? " bot" : ""}`, "data-seat": s.seat },
      el("span", { class: "clock-name", text: nameOf(s.seat) }),
      el("span", { class: "clock-time", role: "timer", "aria-label": `${nameOf(s.seat)}: ${format(left, clock.kind)} left${s.bot ? ", stopped while a bot plays" : ""}`, text: format(left, clock.kind) }),
      el("span", { class: "clock-state", text: state }));
  });
  box().querySelector("ol").replaceChildren(...items);
}

/** A "clock" message from the table's socket. */
export function show(message, names) {
  if (names) nameOf = names;
  shown = { clock: message.clock, at: performance.now(), seq: message.seq };
  const out = message.clock.timeouts[message.clock.timeouts.length - 1];
  const note = box().querySelector(".clock-note");
  if (out && (!lastTimeout || out.seq > lastTimeout.seq)) {
    note.textContent = `${nameOf(out.seat)} ran out of time at move ${out.seq}: ${ACTIONS[out.action] || "a move was played"}.`;
    note.hidden = false;
  }
  lastTimeout = out || lastTimeout;
  draw();
  clearInterval(ticker);
  if (message.clock.seats.some((s) => s.running)) ticker = setInterval(draw, 1000);
}
