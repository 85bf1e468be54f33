// "Your tables" on the front page: the seats this browser holds (their addresses are kept in
// this browser's localStorage by each seat page, never on the server), with the game, the
// players, whose turn it is and the last move's time, asked of the server with those tokens.
// A seat can be forgotten here. "/?open=CODE" (a "your turn" notification) goes to that seat.
import { el } from "./kit.js";

const KEY = "parlour.seats";

export function seats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]").filter((s) => s && typeof s.token === "string"); } catch { return []; }
}

function keep(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list)); } catch { /* private mode */ }
}

export function forget(token) {
  keep(seats().filter((s) => s.token !== token));
}

function ago(iso) {
  if (!iso) return "no move yet";
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return "last move just now";
  if (s < 3600) return `last move ${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `last move ${Math.floor(s / 3600)} h ago`;
  return `last move ${Math.floor(s / 86400)} days ago`;
}

function turnText(t) {
  if (t.status === "gathering") return "Gathering players";
  if (t.status === "finished") return "Finished";
  if (t.your_turn) return t.awaiting.length > 1 ? `Your turn (with ${t.awaiting.filter((n) => n !== t.name).join(", ")})` : "Your turn";
  return t.awaiting.length ? `Waiting for ${t.awaiting.join(", ")}` : "";
}

function row(t) {
  const li = el("li", { class: `my-table${t.your_turn ? " yours" : ""}`, "data-code": t.code });
  li.append(
    el("a", { class: "my-table-open", href: t.seat_url }, el("strong", { text: t.title }), ` · table ${t.code}`),
    el("span", { class: "my-table-turn", text: turnText(t) }),
    el("span", { class: "my-table-players", text: `${t.players.join(", ")} — you are ${t.name}` }),
    el("span", { class: "my-table-when", text: t.status === "gathering" ? "" : ago(t.last_move_at) }),
    el("button", { type: "button", class: "my-table-forget", "aria-label": `Forget your seat at ${t.title} table ${t.code}`,
      text: "Forget", onclick: () => { forget(t.seat_token); li.remove(); show(); } }));
  return li;
}

async function show() {
  const held = seats();
  const box = document.getElementById("my-tables");
  if (!box) return;
  if (!held.length) { box.hidden = true; return; }
  const list = document.getElementById("my-tables-list");
  if (list.children.length) return; // drawn already: a forget only removes its row
  const r = await fetch("/api/my-tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seats: held.map((s) => s.token).slice(0, 100) }) });
  if (!r.ok) return;
  const { tables } = await r.json();
  const known = tables.filter((t) => !t.missing);
  // a seat whose table is gone is forgotten by itself
  for (const t of tables) if (t.missing) forget(t.seat_token);
  list.replaceChildren(...known.map(row));
  box.hidden = !known.length;
}

function openAsked() {
  const code = new URLSearchParams(location.search).get("open");
  if (!code) return false;
  const seat = seats().find((s) => s.code === code);
  if (seat) location.replace(`/seat/${seat.token}`);
  return Boolean(seat);
}

if (!openAsked()) show();
