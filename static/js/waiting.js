// The waiting room: who has sat down, and the founder's button to begin. Fetched only while a
// table gathers, so a game's page carries none of it.
import { el } from "./kit.js";

const $ = (id) => document.getElementById(id);

// On a phone the symbols and the rules fold away, a tap each: the room then fits in about two
// screens. They are drawn open (a wide screen shows them beside the invitation; so does a page
// without scripts).
if (matchMedia("(max-width: 699.98px)").matches) {
  for (const d of document.querySelectorAll(".before-play details.fold[open]")) d.open = false;
}

export function render(t, boot, botTag) {
  $("gathered").replaceChildren(...t.players.map((p) => el("li", {},
    el("span", { class: "name", text: p.name }),
    p.founder ? el("span", { class: "badge", text: "founder" }) : null,
    p.is_bot ? botTag(p) : el("span", { class: `presence ${p.connected ? "on" : "off"}`, text: p.connected ? "here" : "away" }))));
  // a full table has no empty seat for a bot
  const addBot = $("add-bot");
  if (addBot) addBot.hidden = t.players.length >= t.max_seats;
  const start = $("start");
  if (start) {
    const n = t.players.length;
    const ok = n >= t.min_seats && n <= t.max_seats;
    start.disabled = !ok;
    $("start-hint").textContent = ok
      ? `${n} players are seated. Begin when everyone is here.`
      : `${boot.title} needs ${t.min_seats} to ${t.max_seats} players; ${n} ${n === 1 ? "has" : "have"} joined.`;
  }
}

export async function start(boot) {
  const button = $("start");
  button.disabled = true;
  const resp = await fetch(`${boot.api}/start`, { method: "POST" });
  if (!resp.ok) {
    const body = await resp.json().catch(() => ({}));
    $("start-hint").textContent = body.message || "The game could not begin.";
    button.disabled = false;
  }
}

/** The waiting room's "Copy" beside the invitation link. */
export async function copy(button) {
  const input = $("invite-link");
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
}
