// The table's clocks, shown to every seat and spectator: loaded only at a table that has them
// (the server sends a "clock" message only then). Each seat's time left, counted down here
// between messages, beside the player's name in their panel (as lichess and Board Game Arena
// place them), and the seat's own clock again in the action bar. Whose clock runs, whose time is
// low, and whose stands still because a bot plays the seat is said in words and marks, not by
// colour alone. The styles are a stylesheet of their own (static/css/clock.css), linked when the
// first clock comes: the site's policy allows no injected <style>, and a table without clocks
// carries none of it.
import { el } from "./kit.js";

const styled = new Promise((done) => {
  const link = el("link", { rel: "stylesheet", href: "/static/css/clock.css" });
  link.addEventListener("load", done);
  link.addEventListener("error", done);
  document.head.append(link);
});

let shown = null; // { clock, at (performance.now() when received), seq }
let ticker = null;
let nameOf = (seat) => `Seat ${seat + 1}`;
let me = null;
let lastTimeout = null;
let barClock = null;

const ACTIONS = {
  pass: "the seat passed (or played its first listed move)",
  bot_easy: "an easy bot played for the seat",
  bot_good: "a good bot played for the seat",
};

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

/** Low time: under a tenth of the starting time, and never more than a minute. */
function isLow(left, clock) {
  return left < Math.min(60000, (clock.seconds || 0) * 100);
}

function parts(s, clock, spent, who) {
  const left = s.running ? s.ms - spent : s.ms;
  const low = !s.bot && isLow(left, clock);
  // a seat a bot plays runs no clock: its player's time waits for them
  const state = s.bot ? "stopped: bot plays" : s.running ? (left <= 0 ? "time is up" : "▶ running") : "waiting";
  const time = format(left, clock.kind);
  return {
    cls: `clock${s.running ? " running" : ""}${low ? " low" : ""}${s.bot ? " bot" : ""}`,
    children: [
      el("span", { class: "clock-time", role: "timer",
        "aria-label": `${who}: ${time} left${s.bot ? ", stopped while a bot plays" : ""}${low ? ", low" : ""}`, text: time }),
      el("span", { class: "clock-state", text: state }),
      low ? el("span", { class: "clock-low", text: "⚠ low time" }) : null,
    ],
  };
}

/** Draws every clock: in each player's panel (#seats) and the seat's own in the action bar. */
export function draw(seat) {
  if (seat !== undefined) me = seat;
  if (!shown) return;
  const { clock, at } = shown;
  const spent = performance.now() - at;
  for (const s of clock.seats) {
    const panel = document.querySelector(`#seats .seat[data-seat="${s.seat}"]`);
    if (!panel) continue;
    let box = panel.querySelector(":scope > .clock");
    if (!box) { box = el("div", { class: "clock", "data-seat": s.seat }); panel.append(box); }
    const p = parts(s, clock, spent, nameOf(s.seat));
    box.className = p.cls;
    box.replaceChildren(...p.children.filter(Boolean));
  }
  // (kept once found: the bar is out of the document for a moment while a board is redrawn)
  barClock = barClock || document.getElementById("my-clock");
  const bar = barClock;
  const mine = me === null ? null : clock.seats.find((s) => s.seat === me);
  if (bar) {
    bar.hidden = !mine;
    if (mine) {
      const p = parts(mine, clock, spent, "Your clock");
      bar.className = `bar-clock ${p.cls}`;
      bar.replaceChildren(...p.children.filter(Boolean));
    }
  }
}

/** A "clock" message from the table's socket (drawn once the clocks' styles are in). */
export async function show(message, names, seat) {
  await styled;
  if (names) nameOf = names;
  if (seat !== undefined) me = seat;
  shown = { clock: message.clock, at: performance.now(), seq: message.seq };
  const out = message.clock.timeouts[message.clock.timeouts.length - 1];
  const note = document.getElementById("clock-note");
  if (note && out && (!lastTimeout || out.seq > lastTimeout.seq)) {
    note.textContent = `${nameOf(out.seat)} ran out of time at move ${out.seq}: ${ACTIONS[out.action] || "a move was played"}.`;
    note.hidden = false;
  }
  lastTimeout = out || lastTimeout;
  draw();
  clearInterval(ticker);
  if (message.clock.seats.some((s) => s.running)) ticker = setInterval(draw, 1000);
}
