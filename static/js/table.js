// The table client: the socket, the waiting room, the frame around the board (action bar, panels,
// log, chat); static/games/<id>/renderer.js draws the board and turns clicks into moves.
import { el, importModule } from "./kit.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
const baseTitle = document.title;
// diplomacy.js (a game with private chats): fetched on a private message, an unread mark or its tab
let privateChats = boot.diplomacy && [];
function loadPrivate() {
  if (!Array.isArray(privateChats) || privateChats.loading) return;
  privateChats.loading = import("./diplomacy.js").then((m) => {
    const early = privateChats;
    privateChats = m.start(boot);
    [early.table, ...early].forEach((x) => x && privateChats(x));
  });
}

const state = {
  table: null, // public summary: players, status, awaiting…
  view: null, seq: 0, moves: [], awaiting: [], result: null, seed: null,
  pending: false, socket: null, retry: 0, freshLog: true, renderer: null, rendererGame: null,
  logCount: 0, error: null, wasMine: false, lostTimer: null, decision: 0, asked: null,
};

// window.parlourMetrics: when the first view was drawn, each board render's ms.
const metrics = { firstView: null, renders: [] };
window.parlourMetrics = metrics;

function mySeat() {
  if (!boot.you) return null;
  if (state.you != null) return state.you;
  if (!state.table) return null;
  const me = state.table.players.find((p) => p.name === boot.you.name);
  return me ? me.seat : null;
}

// A game that names its seats (A Game of Thrones' houses) sends them as the table's "labels":
// every seat is then named by it, the player beside it ("Lannister (Cyril)"), as in the log.
function nameOf(seat) {
  const p = state.table && state.table.players.find((q) => q.seat === seat);
  const label = state.table && state.table.labels && state.table.labels[seat];
  if (label) return p ? `${label} (${p.name})` : label;
  return p ? p.name : `Seat ${seat + 1}`;
}

// -- the socket

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}${boot.socket}`);
  state.socket = ws;
  state.freshLog = true;
  ws.onopen = () => {
    state.retry = 0;
    clearTimeout(state.lostTimer);
    state.lostTimer = null;
    state.lost = false;
    setConnection("Connected", "ok");
    setOffline(false);
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = (e) => {
    if (state.socket !== ws) return;
    state.socket = null;
    if (e.code === 4404) { setConnection("This seat no longer exists.", "bad"); return; }
    if (e.code === 4403) { setConnection("Refused: open the page from this site's address.", "bad"); return; }
    // Reconnect quietly: a short drop only shows as "reconnecting"; the alarm comes after 4 s.
    const wait = Math.min(5000, 300 * 2 ** state.retry++);
    if (state.pending) { state.pending = false; document.body.classList.remove("pending"); renderPrompt(); }
    if (!state.lost) setConnection("Reconnecting…", "quiet");
    setOffline(true);
    if (!state.lostTimer) {
      state.lostTimer = setTimeout(() => {
        if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
          state.lost = true;
          setConnection("Connection lost — reconnecting…", "bad");
        }
      }, 4000);
    }
    setTimeout(connect, wait);
  };
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
    return true;
  }
  if (message.type === "move") flash("Not connected — your move was not sent. Reconnecting…");
  return false;
}

export function sendMove(move) {
  if (state.pending) return false;
  if (send({ type: "move", seq: state.seq, move })) {
    state.pending = true;
    state.error = null;
    unflash(); // the refusal it showed is over: the player has moved on
    document.body.classList.add("pending");
    renderPrompt();
    return true;
  }
  return false;
}

// While the socket is down no move can be sent: the page says so instead of "Your turn".
function setOffline(off) {
  if (state.offline === off) return;
  state.offline = off;
  document.body.classList.toggle("offline", off);
  renderPrompt();
}

function setConnection(text, kind) {
  const c = $("connection");
  c.textContent = text;
  c.dataset.kind = kind;
}

function receive(msg) {
  switch (msg.type) {
    case "table": onTable(msg.table); break;
    case "view": onView(msg); break;
    case "log": appendLog(msg.lines || [], false); break;
    // (its own module: a fresh table has no chat)
    case "chat": import("./chat.js").then((m) => m.show(msg.messages, { state, boot, nameOf, lastRead, markRead, chatRefused, renderResult, readKey })); break;
    case "error": onError(msg); break;
    case "clock": import("./clock.js").then((m) => { state.clocks = m; m.show(msg, nameOf, mySeat()); }); break;
    default: break;
  }
  if (!Array.isArray(privateChats)) { if (privateChats) privateChats(msg); }
  else if (msg.type === "table") privateChats.table = msg;
  else if (msg.type.startsWith("private")) {
    privateChats.push(msg);
    if (msg.type !== "private_chats" || msg.chats.some((c) => c.unread)) loadPrivate();
  }
}

function onTable(table) {
  const wasGathering = !state.table || state.table.status === "gathering";
  state.table = table;
  state.awaiting = table.awaiting || state.awaiting;
  if (table.status === "gathering") renderWaiting();
  else {
    if (wasGathering) { $("waiting").hidden = true; $("table").hidden = false; }
    if (table.seed_hash) $("seed-hash").textContent = table.seed_hash;
    renderSeats();
  }
}

function onView(msg) {
  // a new decision (speak.js): the seat newly awaited, another step or sentence, a new connection
  const p = msg.view && msg.view.prompt;
  const asked = msg.seat != null && (msg.awaiting || []).includes(msg.seat) ? `${p && p.kind}\n${p && p.text}` : null;
  if (asked && (asked !== state.asked || state.freshLog)) state.decision++;
  state.asked = asked;
  state.seq = msg.seq;
  state.you = msg.seat;
  state.view = msg.view;
  state.moves = movesOf(msg);
  state.awaiting = msg.awaiting || [];
  state.result = msg.result || null;
  state.seed = msg.seed || null;
  state.undo = Boolean(msg.undo);
  state.pending = false;
  state.error = null;
  document.body.classList.remove("pending");
  $("waiting").hidden = true;
  $("table").hidden = false;
  appendLog(msg.log || [], state.freshLog || Boolean(msg.full)); // a first view carries the whole log
  state.freshLog = false;
  renderSeats();
  renderPrompt();
  renderResult();
  renderBoard();
}

// The seat's legal moves, beside the view or in the prompt's choices: renderers read ctx.moves.
function movesOf(msg) {
  if (Array.isArray(msg.moves)) return msg.moves;
  const p = msg.view && msg.view.prompt;
  if (p && Array.isArray(p.choices)) return p.choices.map((c) => c.move);
  if (p && Array.isArray(p.moves)) return p.moves;
  return [];
}

const CHAT_ERRORS = new Set(["slow_down", "empty_message", "message_too_long"]);

function onError(msg) {
  if (CHAT_ERRORS.has(msg.error) || (state.chatSent && msg.error === "spectator" && !state.pending)) {
    chatRefused(msg.message || "That message was not sent.");
    return;
  }
  state.pending = false;
  state.decision++; // refused: the decision is open again
  state.error = { code: msg.error || "refused", message: msg.message || "That was refused.", seq: state.seq };
  document.body.classList.remove("pending");
  flash(state.error.message);
  renderPrompt();
  if (state.view) renderBoard();
}

// -- the waiting room

// drawn by a module fetched only while the table gathers (static/js/waiting.js)
function renderWaiting() {
  import("./waiting.js").then((m) => m.render(state.table, boot, botTag));
}

// -- around the board

// a bot's seat (static/js/bots.js: the vote)
const botTag = (p) => p.bot ? el("span", { class: "badge bot", text: `${p.is_bot ? "bot" : "bot plays"} · ${p.bot}` }) : null;

// The players, as panels in the side column (as on Board Game Arena): seat, name, presence,
// whether they are awaited, and what the game's renderer adds (money, loans, ravens…).
function renderSeats() {
  const t = state.table;
  if (!t) return;
  const seated = t.players.filter((p) => p.seat !== null).sort((a, b) => a.seat - b.seat);
  const mine = mySeat();
  const extra = state.panel && state.view ? state.panel : null;
  $("seats").replaceChildren(...seated.map((p) => {
    const awaited = state.awaiting.includes(p.seat) && (!state.table || state.table.status !== "finished");
    const stats = extra ? extra(Object.assign({}, state.fixed, state.view), p.seat) || [] : [];
    return el("li", { class: `seat seat-${p.seat}${awaited ? " awaited" : ""}${p.seat === mine ? " me" : ""}`, "data-seat": p.seat },
      el("div", { class: "seat-line" },
        el("span", { class: "seat-no", text: `${p.seat + 1}` }),
        el("span", { class: "name", text: p.name + (p.seat === mine ? " (you)" : "") }),
        p.is_bot ? null : el("span", { class: `presence ${p.connected ? "on" : "off"}`, text: p.connected ? "● here" : "○ away" }),
        botTag(p), awaited ? el("span", { class: "to-play", text: "to play" }) : null),
      p.handover && boot.you ? el("button", { type: "button", class: "handover", text: `Hand to a bot (${p.handover.votes} of ${p.handover.needed} votes)`,
        onclick: () => import("./bots.js").then((m) => m.vote(boot.api, p.seat, flash)) }) : null,
      stats.length ? el("dl", { class: "seat-stats" }, ...stats.map((x) => el("div", { class: `seat-stat${x.warn ? " warn" : ""}`, title: x.title || null },
        el("dt", { text: x.label }), el("dd", { text: x.value })))) : null,
      extra && extra.more ? extra.more(Object.assign({}, state.fixed, state.view), p.seat) : null);
  }));
  // each panel's clock, beside the name (static/js/clock.js, once the table has sent one)
  if (state.clocks) state.clocks.draw(mySeat());
}

// The action bar's first line: whose turn (in words, and marked), and the prompt in one sentence.
function renderPrompt() {
  const box = frame.prompt;
  const mine = mySeat();
  const status = state.table ? state.table.status : boot.status;
  let who = "";
  let text;
  let mineToPlay = false;
  // nothing to answer (a spectator, the end): one line
  const quiet = status === "finished" || (!boot.you && status !== "gathering");
  if (status === "finished") {
    const won = state.result ? state.result.winners.map(nameOf) : [];
    who = "Game over";
    text = won.length === 1 ? `${won[0]} wins` : won.length ? `shared victory: ${won.join(", ")}` : state.result ? "nobody wins" : "";
  } else if (state.offline) text = state.view ? "Not connected — moves cannot be sent until the connection is back…"
    : "Not connected — the table will show once the connection is back…";
  else if (mine !== null && state.awaiting.includes(mine)) {
    // while a move is on its way only "who" changes: the bar keeps its height
    mineToPlay = !state.pending;
    const p = state.view && state.view.prompt;
    who = state.pending ? "Sending your move…" : "Your turn";
    text = frame.say || (p && p.text) || "choose a move";
    const others = state.awaiting.filter((s) => s !== mine);
    if (others.length) text += ` (also awaited: ${others.map(nameOf).join(", ")})`;
  } else if (state.pending) text = "Sending your move…";
  else if (!boot.you) {
    who = "Watching";
    text = state.awaiting.length ? `${state.awaiting.map(nameOf).join(", ")} to play` : "";
  } else if (state.awaiting.length) {
    text = `Waiting for ${state.awaiting.map(nameOf).join(", ")}…`;
  } else text = "";
  if (state.offline) mineToPlay = false;
  box.replaceChildren(...(who ? [el("strong", { class: "who", text: who }), text ? " — " : ""] : []), text);
  frame.bar.classList.toggle("quiet", quiet);
  box.classList.toggle("yours", mineToPlay);
  frame.bar.classList.toggle("yours", mineToPlay);
  frame.bar.dataset.decision = state.decision;
  const spoken = who ? `${who} — ${text}` : text;
  document.title = mineToPlay ? `● Your turn — ${baseTitle}` : baseTitle;
  if (mineToPlay && !state.wasMine && !state.pending) {
    chime();
    if (document.hidden) import("./away.js").then((m) => m.notify(boot, spoken));
  }
  state.wasMine = mineToPlay;
  paintUndo();
  extras();
}

// Undo keeps its place in the bar (hidden, never removed): appearing, it moves nothing.
function paintUndo() {
  const { undo } = frame;
  if (!undo) return;
  const on = Boolean(state.undo && !state.pending && !state.offline && !state.result);
  undo.disabled = !on;
  undo.classList.toggle("on", on);
}

function takeBack() {
  if (!state.pending && send({ type: "undo", seq: state.seq })) {
    state.pending = true;
    document.body.classList.add("pending");
    renderPrompt();
  }
}

// The replay links after the end: a module of their own, fetched only once needed.
function extras() {
  if (state.result) import("./extras.js").then((m) => m.paint(state, boot));
}

// -- the frame (docs/DESIGN.md, "The table's frame")

// The bar, the board's first child, lifts the answers out of the game's [data-prompt] panels.
const frame = { bar: $("action-bar"), barDo: $("bar-do"), undo: $("undo"), prompt: $("prompt"), say: null };
const lifted = new Map(); // shell -> the panel it was lifted from
const answers = (n) => n.matches("button") && !n.closest("details, [data-card], [aria-pressed]") && n.textContent.trim().length <= 60;
const keyOf = (n) => n.getAttribute("data-move") || n.getAttribute("data-k") || n.getAttribute("data-fk")
  || n.getAttribute("data-act") || n.getAttribute("data-area-button") || n.textContent.trim();

function shell(node, board, panel, made) {
  if (!panel.contains(node)) return made.get(board);
  if (!made.has(node)) {
    const copy = el("div", { class: `${node.getAttribute("class") || ""} bar-shell`, "data-prompt": node === panel });
    shell(node.parentElement, board, panel, made).append(copy);
    made.set(node, copy);
  }
  return made.get(node);
}

function liftPrompt() {
  const board = $("board");
  const { bar, barDo } = frame;
  if (board.firstElementChild !== bar) board.prepend(bar);
  const focused = document.activeElement;
  const focusKey = bar.contains(focused) ? keyOf(focused) : null;
  const panels = [...board.querySelectorAll("[data-prompt]")].filter((p) => !bar.contains(p));
  // a panel drawn anew lost its mark
  const fresh = panels.filter((p) => !p.querySelector(":scope > .bar-lifted"));
  for (const [top, from] of lifted) if (fresh.includes(from) || !panels.includes(from)) { top.remove(); lifted.delete(top); }
  for (const panel of fresh) {
    const units = [];
    for (const n of panel.querySelectorAll('button, [role="status"], [role="alert"]')) {
      if (n.closest("details") || !(answers(n) || n.matches("[role]")) || units.some((u) => u.contains(n))) continue;
      const g = n.parentElement;
      units.push(g !== panel && g.children.length > 1 && [...g.children].every((c) => answers(c) || c.matches("small")) ? g : n);
    }
    panel.append(el("span", { class: "bar-lifted", hidden: true }));
    if (!units.length) continue;
    const made = new Map([[board, el("div", { class: "bar-shell" })]]);
    for (const u of units) shell(u.parentElement, board, panel, made).append(u);
    barDo.append(made.get(board));
    lifted.set(made.get(board), panel);
  }
  barDo.classList.toggle("empty", !barDo.querySelector("button"));
  // a renderer's own sentence for the prompt ([data-say]) is the bar's
  const say = panels.map((p) => p.querySelector("[data-say]")).find(Boolean);
  const said = say ? say.textContent.trim() : null;
  if (said !== frame.say) { frame.say = said; renderPrompt(); }
  if (focusKey !== null && !bar.contains(document.activeElement)) {
    const same = [...barDo.querySelectorAll("button:not(:disabled)")].find((b) => keyOf(b) === focusKey)
      || barDo.querySelector("button:not(:disabled)") || frame.undo;
    if (same) same.focus({ preventScroll: true });
  } else if (focused !== document.activeElement && bar.contains(focused)) focused.focus({ preventScroll: true });
}

function watchBoard() {
  const board = $("board");
  const { bar } = frame;
  let queued = false;
  const observer = new MutationObserver((records) => {
    if (queued || records.every((r) => bar.contains(r.target) && r.target !== board)) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      observer.disconnect();
      liftPrompt();
      observer.takeRecords();
      observer.observe(board, { childList: true, subtree: true });
    });
  });
  observer.observe(board, { childList: true, subtree: true });
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar-h", `${Math.ceil(bar.offsetHeight)}px`)).observe(bar);
  // the players above the board in one column, else beside it
  const one = matchMedia("(max-width: 900px)");
  const phone = matchMedia("(max-width: 699.98px)");
  const place = () => {
    if (one.matches) board.before($("players"));
    else document.querySelector(".side").prepend($("players"));
    // on a phone the strip scrolls sideways: the keyboard reaches it too
    $("seats").toggleAttribute("tabindex", phone.matches);
    if (phone.matches) $("seats").tabIndex = 0;
  };
  one.addEventListener("change", place);
  phone.addEventListener("change", place);
  place();
}

// -- the "your turn" sound: off unless the player turns it on (remembered on this device)

const SOUND_KEY = "parlour.sound";
function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

// the bell itself is synthesised by a module fetched the first time it rings
function chime() {
  if (soundOn()) import("./extras.js").then((m) => m.chime());
}

function setupSound() {
  const head = $("head-more");
  if (!head || !boot.you) return;
  const button = el("button", { type: "button", id: "sound-toggle", class: "sound-toggle", "aria-pressed": String(soundOn()) });
  const paint = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "♪ Sound: on" : "♪ Sound: off";
    button.title = on ? "A soft chime plays when it becomes your turn" : "Play a soft chime when it becomes your turn";
  };
  button.addEventListener("click", () => {
    try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch { /* private mode */ }
    paint();
    if (soundOn()) chime();
  });
  paint();
  head.append(button);
}

// The end: the game's renderer names the winner (once); the box offering what comes next is
// drawn by a module fetched then (static/js/extras.js).
function renderResult() {
  const box = $("result");
  if (!state.result) { box.hidden = true; return; }
  // not before the board is drawn: the game's renderer says whether it names the winner itself,
  // and a box drawn before that would be drawn again (its links replaced under the pointer)
  if (!state.ctx) return;
  box.hidden = false;
  import("./extras.js").then((m) => { m.result(state, boot, nameOf, flash, box); extras(); });
}

function loadRenderer() {
  if (!state.renderer) {
    state.rendererGame = boot.game;
    state.renderer = importModule(`/static/games/${boot.game}/renderer.js`).then((mod) => {
      // a renderer may draw its own prompt and result, and add lines to the player panels
      state.ownPrompt = Boolean(mod.ownPrompt);
      state.ownResult = Boolean(mod.ownResult);
      state.panel = mod.panel || null;
      document.body.classList.toggle("own-prompt", state.ownPrompt);
      return mod.render;
    }, () => import("./generic.js").then((mod) => mod.renderGeneric));
  }
  return state.renderer;
}

// The game's fixed data (cards, a board), fetched once over HTTP (the browser caches it), merged
// into every view; a refusal for now (429, a drop, a restart) is waited out, never cached.
function loadStatic() {
  if (!state.staticData) state.staticData = fetchStatic();
  return state.staticData;
}

async function fetchStatic() {
  for (let attempt = 0; ; attempt++) {
    let wait = Math.min(1000 * 2 ** attempt, 15000);
    try {
      const r = await fetch(`/api/tables/${boot.code}/static`);
      if (r.ok) return await r.json();
      if (r.status === 404) return {};
      const after = Number(r.headers.get("Retry-After"));
      if (after > 0) wait = Math.min(after * 1000, 60000);
    } catch (err) { /* offline or restarting: try again */ }
    await new Promise((done) => setTimeout(done, wait));
  }
}

async function renderBoard() {
  const [render, fixed] = await Promise.all([loadRenderer(), loadStatic()]);
  state.fixed = fixed;
  const view = state.view ? Object.assign({}, fixed, state.view) : state.view;
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  const t0 = performance.now();
  render(board, state.ctx = {
    view, seat: mySeat(), moves: state.moves, awaiting: state.awaiting, pending: state.pending,
    players: state.table ? state.table.players : [], nameOf, send: sendMove, seq: state.seq,
    status: state.table ? state.table.status : boot.status, result: state.result,
    seed: state.seed, error: state.error, code: boot.code, offline: Boolean(state.offline),
  });
  const t1 = performance.now();
  // the focused control went away with the redraw: focus the prompt
  if (hadFocus && (document.activeElement === document.body || !document.activeElement)) {
    const next = board.querySelector("[data-prompt] button:not(:disabled), [data-prompt] [tabindex='0'], button:not(:disabled)");
    if (next) next.focus({ preventScroll: true });
  }
  renderSeats();
  if (state.result) renderResult(); // now that the renderer has said whether it names the winner
  metrics.renders.push(t1 - t0);
  if (metrics.firstView === null && state.view) {
    metrics.firstView = t1;
    performance.mark("parlour:first-view");
  }
}

// The log: one way of naming each player (by name, never "You"), a rule between turns, and the
// panel that scrolls follows the newest entry unless the reader has scrolled up.
const TURN_END = /\b(ended (the|their) turn|The game begins|Everyone has chosen|scoring\b|Round \d+ begins)/i;

// A seat's own lines say "You draw Fireball"; the log names the player instead, so the verb
// takes the third person ("Ada draws Fireball").
const AS_HE = { are: "is", were: "was", have: "has", do: "does", go: "goes" };
const STAYS = /^(can(not)?|could|may|might|must|shall|should|will|would|did|had|drew|kept|took|chose|saw|put|bid|got|gave|made|paid|won|lost|left|found|held|built|spent|sold|bought|went|came|threw|knew|\w+ed)$/;
function thirdPerson(verb) {
  if (AS_HE[verb]) return AS_HE[verb];
  if (STAYS.test(verb)) return verb;
  if (/(s|x|z|ch|sh)$/.test(verb)) return verb + "es";
  return /[^aeiou]y$/.test(verb) ? verb.slice(0, -1) + "ies" : verb + "s";
}

export function namedLine(text, me) {
  if (!/^You/.test(text)) return text;
  return text.replace(/^Your\b/, `${me}'s`).replace(/^You're\b/, `${me} is`)
    .replace(/^You ([a-z]+)\b/, (_, v) => `${me} ${thirdPerson(v)}`).replace(/^You\b/, me);
}

function logText(text) {
  const seat = mySeat();
  const me = seat !== null ? nameOf(seat) : boot.you && boot.you.name;
  return me ? namedLine(text, me) : text;
}

function appendLog(entries, replace) {
  const log = $("log");
  const panel = $("tab-log");
  const atEnd = replace || panel.scrollHeight - panel.scrollTop - panel.clientHeight < 40;
  if (replace) log.replaceChildren();
  for (const e of entries) {
    const text = logText(e.text);
    log.append(el("li", { "data-seq": e.seq, class: TURN_END.test(e.text) ? "turn-end" : null, text }));
    if (!replace) import("./speak.js").then((m) => m.say(text));
  }
  if (atEnd) panel.scrollTop = panel.scrollHeight;
}

// -- the chat

const readKey = () => `parlour.chat-read:${boot.code}`;
function lastRead() {
  try { return parseInt(localStorage.getItem(readKey()) || "", 10); } catch { return NaN; }
}
function markRead() {
  const ids = [...$("chat").querySelectorAll("[data-id]")].map((n) => +n.dataset.id);
  if (!ids.length) return;
  try { localStorage.setItem(readKey(), String(Math.max(...ids))); } catch { /* private mode */ }
}

function chatRefused(message) {
  const box = $("chat-error");
  if (!box) { if (message) flash(message); return; }
  box.hidden = !message;
  box.textContent = message || "";
}

let flashTimer = null;
function unflash() {
  const box = document.getElementById("flash");
  if (box) box.hidden = true;
}

function flash(text) {
  let box = document.getElementById("flash");
  if (!box) { box = el("div", { id: "flash", class: "flash", role: "alert" }); document.body.append(box); }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

function setupTabs() {
  const tabs = [...document.querySelectorAll('#table [role="tab"]')];
  const choose = (tab, focus) => {
    tabs.forEach((t) => {
      const on = t === tab;
      t.setAttribute("aria-selected", String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = $(t.getAttribute("aria-controls"));
      panel.hidden = !on;
      if (on && panel.dataset.help) import("./extras.js").then((m) => m.help(panel));
    });
    if (focus) tab.focus();
    if (tab.id === "t-chat") {
      const b = $("chat-unread"); b.hidden = true; b.textContent = "";
      $("t-chat").setAttribute("aria-label", "Chat");
      markRead();
      const panel = $("tab-chat"); panel.scrollTop = panel.scrollHeight;
    }
    if (tab.id === "t-log") { const panel = $("tab-log"); panel.scrollTop = panel.scrollHeight; }
  };
  tabs.forEach((tab, i) => {
    tab.tabIndex = tab.getAttribute("aria-selected") === "true" ? 0 : -1;
    tab.addEventListener("click", () => choose(tab, false));
    tab.addEventListener("keydown", (e) => {
      const d = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (d) { e.preventDefault(); choose(tabs[(i + d + tabs.length) % tabs.length], true); }
    });
  });
}

function setup() {
  watchBoard();
  if (frame.undo) frame.undo.addEventListener("click", takeBack);
  setupTabs();
  setupSound();
  const copy = $("copy-link");
  if (copy) copy.onclick = () => import("./waiting.js").then((m) => m.copy(copy));
  const words = (e) => import("./describe.js").then((m) => m.asked(e, boot, state.ctx));
  $("describe").onclick = words;
  document.addEventListener("keydown", words);
  // the header's menu on a phone
  const more = $("more-toggle");
  if (more) more.onclick = () => import("./menu.js").then((m) => m.toggle(more));
  const nb = $("notify-me");
  if (nb) nb.onclick = () => import("./away.js").then((m) => m.ask(boot, nb));
  // the seats this browser holds, for the front page's "Your tables"
  if (boot.you) try { const k = "parlour.seats", t = boot.socket.slice(10); localStorage[k] = JSON.stringify([{ token: t, code: boot.code }, ...JSON.parse(localStorage[k] || "[]").filter((s) => s.token !== t)].slice(0, 100)); } catch {}
  const start = $("start");
  if (start) start.addEventListener("click", () => import("./waiting.js").then((m) => m.start(boot)));
  const form = $("chat-form");
  // the text stays in the box until the server has taken it; a refusal is shown in the chat
  if (form) form.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    chatRefused(null);
    if (!text) return;
    state.chatSent = text;
    if (!send({ type: "chat", text })) chatRefused("Not connected — your message was not sent.");
  });
  if (privateChats) $("t-private").addEventListener("focus", loadPrivate);
  connect();
}

setup();
