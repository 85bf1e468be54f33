// Parlour's load client in Node (the same technology as the peer's load client), driven by
// bench/load.py --client node. One websocket per seat; every awaited seat plays a random legal
// move (with --policy progress, one that makes progress: policy.mjs) after a think time uniform in
// [0.5, 1.5] x think. Round trip = a move sent until every seat of that table holds the new
// view. Prints "WINDOW_START" and "WINDOW_END" lines (the orchestrator samples the server's CPU
// there), then one JSON line of figures.
//
// A socket the server closes, or a connection cut, is not the end of the run: the seat
// reconnects as the page does (static/js/table.js), to the next address when several are given
// (another process; through a proxy, the same address reaches another replica), after a short
// wait (1012, the server going away: at once; 1013, try again later: half a second; otherwise
// doubling from 50 ms up to 2 s). The server sends a new socket the table and the seat's view
// at once (a "sync" is asked only if none came within 2 s), and the seat plays on from that
// view's seq: a move that was in flight when the socket closed was either stored (the view
// says so, and the seat is no longer awaited there) or not (the seat plays again at the same
// seq), so it is neither lost nor doubled; a "stale" answer is counted, not fatal. Close codes
// 4404 (no such seat) and 4403 (origin refused) are final: counted, and the table replaced.
// Drops, reconnects and the time from a drop to the seat's next view are in the figures, and
// so is each table's last seq seen (`seen`), read after a drain (no new moves; every seat
// connected and no view for 300 ms), so that the stored moves can be checked against it.
//
// It never ends silently: either it prints its figures and exits 0, or it exits non-zero with
// a line on stderr saying why (a table it could not set up, a table with no new view for
// --stall seconds, or nothing left to wait for).
import { writeFileSync } from "node:fs";
import WebSocket from "ws";
import { pickMove } from "./policy.mjs";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const BASES = args.urls.split(",");
const TABLES = +args.tables, SEATS = +args.seats, THINK = +args.think, GAME = args.game;
const DURATION = +args.duration * 1000, WARMUP = +args.warmup * 1000;
const NAMES = ["Ada", "Bob", "Cy", "Di", "Ed", "Flo"];
// --games N (the soak, bench/soak.py): play until N games have finished, printing
// "FINISHED code seq" for each, then the figures; the window is the whole run.
const GAMES = +(args.games || 0);
// --policy progress (the soak of A Game of Thrones): moves that make progress (policy.mjs).
const POLICY = args.policy || "random";
// A table with no new view for this long has stalled (a refused move, a lost message).
const STALL_MS = +(args.stall || 120) * 1000;
// --timeline 1: also print, second by second, the moves done and their slowest round trip.
const TIMELINE = args.timeline === "1";
// --rtts FILE: also write every measured round trip, "sent rtt" a line (sent: the wall clock in
// s, rtt in ms), so that bench/load.py can tell those in the host's slow spells (host_canary.py).
const RTTS = args.rtts || "";

// Each table's sockets come from their own loopback address, as each household's would: the
// server takes at most 64 sockets per address, and 20 five-seat tables, with the sockets of the
// tables just finished still closing, are past that from one address.
let tableNo = 0;
const nextAddress = () => { const n = tableNo++; return `127.0.${1 + Math.floor(n / 250) % 250}.${1 + n % 250}`; };

let summarized = false;
function fatal(why) {
  if (summarized) return;
  summarized = true;
  console.error(`load client: stopped after ${stats.finished} finished games: ${why}`);
  process.exit(1);
}
process.on("exit", (code) => {
  if (summarized) return;
  console.error(`load client: ended without its figures after ${stats.finished} finished games ` +
    `(exit code ${code}): nothing left to wait for`);
  process.exitCode = code || 1;
});
const active = new Set(); // the tables being set up or played

const stats = { measuring: false, done: 0, rtts: [], sent: [], errors: {}, stale: 0, finished: 0, timeline: [],
  movesSent: 0, drops: 0, dropCodes: {}, reconnects: 0, failedConnects: 0, backMs: [], openMs: [] };
let w0 = 0;
let playing = false, stopping = false, draining = false;
let lastViewAt = 0;
// Each table's last seq seen by any of its seats: what the players were shown stored.
const seenByCode = new Map();
// A seat's legal moves travel inside its prompt's choices (older servers sent them beside it):
// the one --policy picks (policy.mjs), or null when the seat has none.
const moveOf = (msg) => {
  const p = msg.view && msg.view.prompt;
  const moves = p && Array.isArray(p.choices) ? p.choices.map((c) => c.move) : (msg.moves || []);
  return moves.length ? pickMove(POLICY, moves) : null;
};
// A view message begins {"type":"view","seq":N,"seat":S,"status":"...","awaiting":[...], (the
// server writes its keys in that order): enough to count a round trip and to know whether this
// seat is awaited, without parsing the view.
const HEAD = /^\{"type":"view","seq":(\d+),"seat":(null|\d+),"status":"(\w+)","awaiting":\[([\d,]*)\]/;
function viewHead(data) {
  const m = HEAD.exec(data.toString("latin1", 0, 160));
  if (!m) return null;
  const seat = m[2] === "null" ? null : +m[2];
  return { seq: +m[1], finished: m[3] === "finished",
    awaited: seat !== null && m[4].split(",").includes(String(seat)) };
}
const err = (k) => { stats.errors[k] = (stats.errors[k] || 0) + 1; };
// fetch's own message is "fetch failed"; what failed is in its cause.
const why = (e) => `${e.message}${e.cause ? ` (${e.cause.code || ""} ${e.cause.message})` : ""}`;

// A request that failed is tried again (up to 5 times, waiting 50 ms doubling to 1.6 s: a busy
// server), each time at the next address: a process that is gone does not stop the run. Each
// failure is counted by its kind: http_503, http_network...
async function post(path, body) {
  for (let attempt = 0; ; attempt++) {
    const base = BASES[attempt % BASES.length];
    try {
      const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined });
      if (!r.ok) {
        err(`http_${r.status}`);
        throw new Error(`${path} ${r.status} ${await r.text()}`);
      }
      return await r.json();
    } catch (e) {
      if (!(e.message || "").startsWith(path)) err("http_network");
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

let permits = 32;
const waiters = [];
async function limited(fn) {
  while (permits === 0) await new Promise((r) => waiters.push(r));
  permits--;
  try { return await fn(); } finally { permits++; const w = waiters.shift(); if (w) w(); }
}

class Table {
  constructor() { this.socks = []; this.seen = []; this.timers = []; this.sentAt = new Map(); this.due = null; }

  async setup() {
    active.add(this);
    this.lastAt = performance.now();
    const found = await post("/api/tables", { game: GAME, name: NAMES[0], options: {} });
    this.code = found.code;
    const tokens = [found.seat_token];
    for (let i = 1; i < SEATS; i++) {
      tokens.push((await post(`/api/tables/${found.code}/join`, { name: NAMES[i] })).seat_token);
    }
    await post(`/api/seats/${tokens[0]}/start`);
    this.tokens = tokens;
    this.seen = tokens.map(() => -1);
    // Each seat's latest view: its seq, whether the seat is awaited, its bytes (copied into a
    // buffer of the seat's own), the move drawn from it once its think time ends, and when that
    // is (0: not thinking). Nothing here is allocated per view and outlives it: a view's bytes
    // kept as they came held the socket's read buffer, and a think timer per view, 1,300 a
    // second each living seconds, outlived the young generation; the old one's collections then
    // paused the client every ~7 s for up to 50 ms, counted as the server's round trips.
    this.seqs = new Float64Array(SEATS);
    this.awaited = new Uint8Array(SEATS);
    this.lens = new Int32Array(SEATS);
    this.bufs = tokens.map(() => Buffer.allocUnsafeSlow(16384));
    this.moves = tokens.map(() => undefined);
    this.timers = tokens.map(() => null);
    this.due = new Float64Array(SEATS);
    this.localAddress = nextAddress();
    // Each seat's socket: which address it uses (seats split across processes), whether it is
    // open, since when it has been away (0: it is not) and how many tries it has had since.
    this.at = tokens.map((_, i) => Math.floor(i * BASES.length / tokens.length));
    this.up = new Uint8Array(SEATS);
    this.downAt = new Float64Array(SEATS);
    this.tries = new Int32Array(SEATS);
    this.opened = [];
    await Promise.all(tokens.map((_, i) => new Promise((resolve) => { this.opened[i] = resolve; this.open(i); })));
  }

  open(i) {
    if (stopping || this.closed) return;
    const url = BASES[this.at[i]].replace("http", "ws") + `/ws/seats/${this.tokens[i]}`;
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: this.localAddress });
    this.socks[i] = ws;
    ws.on("open", () => {
      if (this.socks[i] !== ws) return;
      this.up[i] = 1;
      if (this.opened[i]) { this.opened[i](); this.opened[i] = null; }
      if (this.downAt[i]) {
        stats.reconnects++;
        stats.openMs.push(performance.now() - this.downAt[i]);
        // The server sends a new socket its view at once; if none came, the seat asks for it.
        setTimeout(() => {
          if (this.socks[i] === ws && this.downAt[i] && ws.readyState === WebSocket.OPEN) {
            ws.send(JSON.stringify({ type: "sync" }));
          }
        }, 2000);
      }
    });
    // A failed connection (refused, or a handshake answered with a status, e.g. a proxy's 502)
    // is followed by "close": counted here, retried there.
    ws.on("error", (e) => {
      const status = /Unexpected server response: (\d+)/.exec(e.message || "");
      if (status) err(`handshake_${status[1]}`);
    });
    ws.on("message", (data) => { if (this.socks[i] === ws) this.onMessage(i, data); });
    ws.on("close", (code, reason) => this.onClose(i, ws, code, String(reason)));
  }

  onClose(i, ws, code, reason) {
    if (this.socks[i] !== ws || stopping || this.closed) return;
    const wasUp = this.up[i] === 1;
    this.up[i] = 0;
    this.cancel(i);
    this.sentAt.clear(); // a round trip across a drop is not the server's: none is timed until all are back
    if (code === 4404 || code === 4403) { // final: this seat is gone (or refused); a new table instead
      err(`closed_${code}`);
      console.error(`load client: table ${this.code} seat ${i} closed for good (${code} ${reason}); replaced`);
      this.replace();
      return;
    }
    if (wasUp) {
      stats.drops++;
      stats.dropCodes[code] = (stats.dropCodes[code] || 0) + 1;
      if (!this.downAt[i]) this.downAt[i] = performance.now();
    } else {
      stats.failedConnects++;
      if (!this.downAt[i] && this.opened[i] === null) this.downAt[i] = performance.now();
    }
    this.at[i] = (this.at[i] + 1) % BASES.length;
    const n = this.tries[i]++;
    const wait = code === 1012 ? 0 : code === 1013 ? 500 : Math.min(2000, 50 * 2 ** n);
    setTimeout(() => this.open(i), n === 0 && code === 1012 ? 0 : wait + 20 * Math.random());
  }

  onMessage(i, data) {
    const head = viewHead(data);
    if (head) {
      const now = performance.now();
      this.lastAt = lastViewAt = now;
      const seq = head.seq;
      this.seen[i] = seq;
      if (this.downAt[i]) {
        stats.backMs.push(now - this.downAt[i]);
        this.downAt[i] = 0;
        this.tries[i] = 0;
      }
      if (!(seenByCode.get(this.code) >= seq)) seenByCode.set(this.code, seq);
      const sent = this.sentAt.get(seq);
      if (sent !== undefined && this.seen.every((s) => s >= seq)) {
        this.sentAt.delete(seq);
        if (stats.measuring) {
          const rtt = performance.now() - sent;
          stats.rtts.push(rtt);
          if (RTTS) stats.sent.push(performance.timeOrigin + sent);
          stats.done++;
          if (TIMELINE) {
            const b = Math.floor((performance.now() - w0) / 1000);
            (stats.timeline[b] ||= []).push(rtt);
          }
        }
      }
      // The view is kept as bytes and parsed only when this seat's think time ends and it plays
      // from it: most views are replaced by the next one before then. Parsing each (8 KB of
      // JSON at six Game of Thrones seats, 1,300 a second) filled the young generation about
      // once a second, and its collections, pausing the client for p50 6-8 ms, were counted as
      // the server's round trips.
      this.cancel(i);
      if (this.bufs[i].length < data.length) this.bufs[i] = Buffer.allocUnsafeSlow(2 * data.length);
      data.copy(this.bufs[i]);
      this.lens[i] = data.length;
      this.seqs[i] = seq;
      this.awaited[i] = head.awaited ? 1 : 0;
      this.moves[i] = undefined;
      if (head.finished) {
        if (i === 0) {
          stats.finished++;
          if (GAMES) console.log(`FINISHED ${this.code} ${seq}`);
          if (!GAMES || stats.finished + TABLES <= GAMES) this.replace(); else this.close();
          if (GAMES && stats.finished >= GAMES) finish();
        }
        return;
      }
      if (head.awaited && playing && !draining) this.think(i);
      return;
    }
    const msg = JSON.parse(data);
    if (msg.type === "view") fatal(`a view message not in the shape expected: ${String(data).slice(0, 120)}`);
    if (msg.type === "error") {
      if (msg.error === "stale") stats.stale++; else err(msg.error);
    }
  }

  cancel(i) {
    if (this.timers[i]) clearImmediate(this.timers[i]);
    this.timers[i] = null;
    if (this.due) this.due[i] = 0;
  }

  kick() { if (this.lens) this.lens.forEach((n, i) => { if (n && this.awaited[i]) this.think(i); }); }

  // A think time's end is a due time the clock below looks at every millisecond. With no think
  // time, as the peer's client does: setTimeout(0) waits at least 1 ms in Node, setImmediate not.
  think(i) {
    if (THINK) this.due[i] = performance.now() + THINK * (0.5 + Math.random());
    else this.timers[i] = setImmediate(() => { this.timers[i] = null; this.fire(i); });
  }

  fire(i) {
    if (stopping || draining || this.closed) return;
    // Away: the fresh view that comes with the next socket says what to play, at which seq.
    if (!this.up[i] || this.socks[i].readyState !== WebSocket.OPEN) return;
    let move = this.moves[i];
    if (move === undefined) move = this.moves[i] = moveOf(JSON.parse(this.bufs[i].toString("utf8", 0, this.lens[i])));
    if (!move) return;
    const seq = this.seqs[i];
    if (!this.sentAt.has(seq + 1) && this.up.every((u) => u === 1)) this.sentAt.set(seq + 1, performance.now());
    stats.movesSent++;
    this.socks[i].send(JSON.stringify({ type: "move", seq, move }));
  }

  replace() {
    if (stopping) return;
    this.close();
    const next = new Table();
    limited(() => next.setup()).then(() => { if (playing) next.kick(); }).catch((e) => {
      err("setup");
      fatal(`a new table could not be set up: ${why(e)}`);
    });
  }

  close() {
    active.delete(this);
    this.closed = true;
    this.timers.forEach((_, i) => this.cancel(i));
    this.socks.forEach((s) => s.close());
    (this.opened || []).forEach((resolve) => resolve && resolve()); // a setup waiting on them ends
  }

  settled() { return this.closed || (this.up && this.up.every((u) => u === 1)); }
}

// The think times' clock: every millisecond, the seats whose think time has ended play.
if (THINK) {
  setInterval(() => {
    const now = performance.now();
    for (const t of active) {
      const due = t.due;
      if (!due) continue;
      for (let i = 0; i < due.length; i++) {
        if (due[i] !== 0 && due[i] <= now) { due[i] = 0; t.fire(i); }
      }
    }
  }, 1).unref();
}
// The client's own lateness (a timer every 10 ms): a pause of the client is in every round
// trip it measures, so it is reported beside them.
const lateness = [];
let tick = performance.now();
setInterval(() => {
  const now = performance.now();
  if (stats.measuring) lateness.push(now - tick - 10);
  tick = now;
}, 10).unref();
// From a drop to the seat's next view: how long a player saw "reconnecting".
// From a drop to the new socket's opening (what the proxy or the next process took), and to the
// seat's next view (what a player saw as "reconnecting").
function backFigures() {
  const fig = (xs, name) => {
    const b = xs.sort((x, y) => x - y);
    return { [`${name}_p50_ms`]: b.length ? +b[Math.floor(0.5 * b.length)].toFixed(1) : null,
      [`${name}_max_ms`]: b.length ? +b[b.length - 1].toFixed(1) : null };
  };
  return { ...fig(stats.openMs, "open"), ...fig(stats.backMs, "back") };
}
let finish = () => {};
const tables = Array.from({ length: TABLES }, () => new Table());
const t0 = performance.now();
await Promise.all(tables.map((t) => limited(() => t.setup())))
  .catch((e) => fatal(`the tables could not be set up: ${why(e)}`));
const setupS = (performance.now() - t0) / 1000;
setInterval(() => {
  const now = performance.now();
  for (const t of active) {
    if (now - t.lastAt > STALL_MS) fatal(`table ${t.code || "(being set up)"} had no new view for ${STALL_MS / 1000} s`);
  }
}, 1000).unref(); // unref: the watchdog alone never keeps the client alive
playing = true;
// Tables start over one think time, as a site's tables do, not all at once: 500 tables kicked
// together make their first moves in one wave, and the next waves stay bunched for several
// think times (the window's first seconds had 40 % more moves than the rest).
tables.forEach((t) => { if (THINK) setTimeout(() => t.kick(), THINK * Math.random()); else t.kick(); });
if (!GAMES) await new Promise((r) => setTimeout(r, WARMUP));
const cpu0 = process.cpuUsage();
console.log("WINDOW_START");
stats.measuring = true;
w0 = performance.now();
// SIGTERM (the soak's time limit) ends the run early, with its figures.
await new Promise((r) => { finish = r; process.once("SIGTERM", r); if (!GAMES) setTimeout(r, DURATION); });
stats.measuring = false;
const windowS = (performance.now() - w0) / 1000;
console.log("WINDOW_END");
const cpu = process.cpuUsage(cpu0);
// Play on a second more while the orchestrator reads the server's figures, so that they are the
// window's and not the end's (3,000 sockets closing hold the server's loop ~150 ms).
if (!GAMES) await new Promise((r) => setTimeout(r, 1000));
// The drain: no new moves; once every seat is connected and no view has come for 300 ms (10 s at
// most), each table's last seq seen is what its players were shown stored.
draining = true;
const drainEnd = performance.now() + (GAMES ? 0 : 10000);
while (performance.now() < drainEnd &&
       ([...active].some((t) => !t.settled()) || performance.now() - lastViewAt < 300)) {
  await new Promise((r) => setTimeout(r, 50));
}
stopping = true;
summarized = true;
if (RTTS) writeFileSync(RTTS, stats.rtts.map((r, i) => `${(stats.sent[i] / 1000).toFixed(4)} ${r.toFixed(3)}`).join("\n"));
const rt = stats.rtts.sort((a, b) => a - b);
const pct = (p) => rt.length ? +rt[Math.min(rt.length - 1, Math.floor(p * rt.length))].toFixed(2) : null;
console.log(JSON.stringify({
  moves_s: +(stats.done / windowS).toFixed(1), rtt_p50_ms: pct(0.5), rtt_p95_ms: pct(0.95), rtt_p99_ms: pct(0.99),
  rtt_max_ms: rt.length ? +rt[rt.length - 1].toFixed(2) : null, errors: Object.values(stats.errors).reduce((a, b) => a + b, 0),
  error_kinds: stats.errors, stale_retries: stats.stale, games_finished: stats.finished, setup_s: +setupS.toFixed(1),
  ...(TIMELINE ? { timeline: Array.from(stats.timeline, (b) => b ? [b.length, +Math.max(...b).toFixed(1)] : [0, 0]) } : {}),
  client_late_p99_ms: lateness.length ? +lateness.sort((a, b) => a - b)[Math.floor(0.99 * lateness.length)].toFixed(1) : null,
  client_late_max_ms: lateness.length ? +lateness[lateness.length - 1].toFixed(1) : null,
  window_s: +windowS.toFixed(1), client_cpu_pct: +(100 * (cpu.user + cpu.system) / 1e6 / windowS).toFixed(1),
  moves_sent: stats.movesSent, drops: stats.drops, drop_codes: stats.dropCodes, reconnects: stats.reconnects,
  failed_connects: stats.failedConnects, ...backFigures(),
  ...(GAMES ? {} : { seen: Object.fromEntries(seenByCode) }),
}));
process.exit(0);
