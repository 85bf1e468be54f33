// Parlour's load client in Node (the same technology as the peer's load client), driven by
// bench/load.py --client node. One websocket per seat; every awaited seat plays a random legal
// move after a think time uniform in [0.5, 1.5] x think. Round trip = a move sent until every
// seat of that table holds the new view. Prints "WINDOW_START" and "WINDOW_END" lines (the
// orchestrator samples the server's CPU there), then one JSON line of figures.
import WebSocket from "ws";

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

const stats = { measuring: false, done: 0, rtts: [], errors: {}, stale: 0, finished: 0 };
let playing = false, stopping = false;
// A seat's legal moves travel inside its prompt's choices (older servers sent them beside it).
const movesOf = (msg) => {
  const p = msg.view && msg.view.prompt;
  return p && Array.isArray(p.choices) ? p.choices.map((c) => c.move) : (msg.moves || []);
};
const err = (k) => { stats.errors[k] = (stats.errors[k] || 0) + 1; };

async function post(base, path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined });
      if (!r.ok) throw new Error(`${path} ${r.status} ${await r.text()}`);
      return await r.json();
    } catch (e) {
      if (attempt >= 3) throw e;
      err("http_retry");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

let permits = 32;
let socketsOpened = 0;
const waiters = [];
async function limited(fn) {
  while (permits === 0) await new Promise((r) => waiters.push(r));
  permits--;
  try { return await fn(); } finally { permits++; const w = waiters.shift(); if (w) w(); }
}

class Table {
  constructor() { this.socks = []; this.seen = []; this.latest = []; this.timers = []; this.sentAt = new Map(); }

  async setup() {
    const base = BASES[0];
    const found = await post(base, "/api/tables", { game: GAME, name: NAMES[0], options: {} });
    this.code = found.code;
    const tokens = [found.seat_token];
    for (let i = 1; i < SEATS; i++) {
      tokens.push((await post(base, `/api/tables/${found.code}/join`, { name: NAMES[i] })).seat_token);
    }
    await post(base, `/api/seats/${tokens[0]}/start`);
    this.seen = tokens.map(() => -1);
    this.latest = tokens.map(() => null);
    this.timers = tokens.map(() => null);
    await Promise.all(tokens.map((tok, i) => new Promise((resolve, reject) => {
      const base = BASES[Math.floor(i * BASES.length / tokens.length)]; // seats split across processes
      // from many loopback addresses: the server takes at most 64 sockets per address
      const n = socketsOpened++;
      const localAddress = `127.0.${1 + Math.floor(n / 50 / 250)}.${1 + Math.floor(n / 50) % 250}`;
      const ws = new WebSocket(base.replace("http", "ws") + `/ws/seats/${tok}`, { perMessageDeflate: false, localAddress });
      this.socks[i] = ws;
      ws.on("open", resolve);
      ws.on("error", (e) => { err("connect"); reject(e); });
      ws.on("message", (data) => this.onMessage(i, data));
      ws.on("close", () => { if (!stopping && !this.closed) err("disconnect"); });
    })));
  }

  onMessage(i, data) {
    const msg = JSON.parse(data);
    if (msg.type === "view") {
      const seq = msg.seq;
      this.seen[i] = seq;
      const sent = this.sentAt.get(seq);
      if (sent !== undefined && this.seen.every((s) => s >= seq)) {
        this.sentAt.delete(seq);
        if (stats.measuring) { stats.rtts.push(performance.now() - sent); stats.done++; }
      }
      msg.moves = movesOf(msg);
      this.latest[i] = msg;
      this.cancel(i);
      if (msg.status === "finished") {
        if (i === 0) {
          stats.finished++;
          if (GAMES) console.log(`FINISHED ${this.code} ${seq}`);
          if (!GAMES || stats.finished + TABLES <= GAMES) this.replace(); else this.close();
          if (GAMES && stats.finished >= GAMES) finish();
        }
        return;
      }
      if (msg.moves.length && playing) this.think(i);
    } else if (msg.type === "error") {
      if (msg.error === "stale") stats.stale++; else err(msg.error);
    }
  }

  cancel(i) {
    const t = this.timers[i];
    if (t) { if (THINK) clearTimeout(t); else clearImmediate(t); }
    this.timers[i] = null;
  }

  kick() { this.latest.forEach((m, i) => { if (m && m.moves.length) this.think(i); }); }

  think(i) {
    const fire = () => {
      if (stopping) return;
      const m = this.latest[i];
      if (!this.sentAt.has(m.seq + 1)) this.sentAt.set(m.seq + 1, performance.now());
      const move = m.moves[Math.floor(Math.random() * m.moves.length)];
      this.socks[i].send(JSON.stringify({ type: "move", seq: m.seq, move }));
    };
    // As the peer's client does: setTimeout(0) waits at least 1 ms in Node, setImmediate does not.
    this.timers[i] = THINK ? setTimeout(fire, THINK * (0.5 + Math.random())) : setImmediate(fire);
  }

  replace() {
    if (stopping) return;
    this.close();
    const next = new Table();
    limited(() => next.setup()).then(() => { if (playing) next.kick(); }).catch(() => err("setup"));
  }

  close() {
    this.closed = true;
    this.timers.forEach((_, i) => this.cancel(i));
    this.socks.forEach((s) => s.close());
  }
}

let finish = () => {};
const tables = Array.from({ length: TABLES }, () => new Table());
const t0 = performance.now();
await Promise.all(tables.map((t) => limited(() => t.setup())));
const setupS = (performance.now() - t0) / 1000;
playing = true;
tables.forEach((t) => t.kick());
if (!GAMES) await new Promise((r) => setTimeout(r, WARMUP));
const cpu0 = process.cpuUsage();
console.log("WINDOW_START");
stats.measuring = true;
const w0 = performance.now();
await new Promise((r) => { finish = r; if (!GAMES) setTimeout(r, DURATION); });
stats.measuring = false;
const windowS = (performance.now() - w0) / 1000;
console.log("WINDOW_END");
const cpu = process.cpuUsage(cpu0);
stopping = true;
const rt = stats.rtts.sort((a, b) => a - b);
const pct = (p) => rt.length ? +rt[Math.min(rt.length - 1, Math.floor(p * rt.length))].toFixed(2) : null;
console.log(JSON.stringify({
  moves_s: +(stats.done / windowS).toFixed(1), rtt_p50_ms: pct(0.5), rtt_p95_ms: pct(0.95), rtt_p99_ms: pct(0.99),
  rtt_max_ms: rt.length ? +rt[rt.length - 1].toFixed(2) : null, errors: Object.values(stats.errors).reduce((a, b) => a + b, 0),
  error_kinds: stats.errors, stale_retries: stats.stale, games_finished: stats.finished, setup_s: +setupS.toFixed(1),
  window_s: +windowS.toFixed(1), client_cpu_pct: +(100 * (cpu.user + cpu.system) / 1e6 / windowS).toFixed(1),
}));
process.exit(0);
