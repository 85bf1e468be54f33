// Fetched on first need: the "your turn" bell, the end's box and the replay links.
import { el } from "./kit.js";

export function paint(state, boot) {
  const next = document.querySelector("#result .next-game");
  if (state.result && next && !next.querySelector(".replay")) {
    next.append(" ", el("a", { class: "button replay", href: `/replay/${boot.code}`, text: "Watch the replay" }));
    if (boot.api) next.append(" ", el("a", { class: "button replay", href: `${boot.api.replace("/api/seats/", "/seat/")}/replay`, text: "Replay from your seat" }));
  }
}

let audio = null;

// The "your turn" bell: E5 then B5.
export function chime() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const t = audio.currentTime;
    for (const [i, f] of [[0, 659.25], [1, 987.77]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t + i * 0.16);
      gain.gain.exponentialRampToValueAtTime(0.08, t + i * 0.16 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.16 + 0.6);
      osc.connect(gain).connect(audio.destination);
      osc.start(t + i * 0.16);
      osc.stop(t + i * 0.16 + 0.65);
    }
  } catch { /* no sound on this device */ }
}

// The end's box: the winner (unless the game's renderer names it), scores, play again, the seed.
export function result(state, boot, nameOf, flash, box) {
  // who was a bot at the end, in words (a seat handed to one keeps its player's name)
  const bots = (state.table ? state.table.players : []).filter((p) => p.bot && p.seat !== null)
    .map((p) => p.is_bot ? `${p.name} (a bot, ${p.bot})` : `${p.name}'s seat (a ${p.bot} bot played it)`);
  const names = (state.result.scores || []).map((_, i) => nameOf(i));
  // redrawn only when what it says changed: a link being clicked stays (a player coming or going
  // changes the table's summary, not this box)
  const key = JSON.stringify([state.ownResult, state.result, names, bots, state.again, state.seed]);
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  const parts = [];
  if (!state.ownResult) {
    const winners = state.result.winners.map(nameOf);
    parts.push(el("h2", { text: winners.length === 1 ? `${winners[0]} wins` : winners.length ? `Shared victory: ${winners.join(", ")}` : "Everyone loses — nobody wins" }),
      el("p", { text: "Scores: " + state.result.scores.map((s, i) => `${names[i]} ${String(s).replace("-", "−")}`).join(" · ") }));
  }
  if (bots.length) parts.push(el("p", { class: "bots-at-end", text: `Bots at the end: ${bots.join(", ")}.` }));
  const next = el("p", { class: "next-game" });
  if (state.again) next.append(el("a", { class: "button primary play-again", href: boot.you ? location.pathname + "/again" : state.again.href, text: state.again.mine ? "Go to your new table" : `Join ${state.again.by}'s new table` }));
  else if (boot.you) next.append(el("button", { type: "button", class: "primary play-again", onclick: (ev) => playAgain(ev, boot, flash), text: "Play again" }),
    el("span", { class: "note", text: " — a new table of the same game; the others are invited on their pages." }));
  parts.push(next);
  box.replaceChildren(...parts);
  if (state.seed) {
    const record = `/api/tables/${boot.code}/record`;
    document.getElementById("seed-reveal").replaceChildren("The seed is now revealed: ", el("code", { class: "hash", text: state.seed }),
      " — ", el("a", { href: record, text: "the full record" }), " lets anyone replay and verify the game.");
  }
}

async function playAgain(e, boot, flash) {
  const button = e.currentTarget;
  button.disabled = true;
  const resp = await fetch(`${boot.api}/again`, { method: "POST" });
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) { flash(body.message || "A new table could not be set up."); button.disabled = false; return; }
  location.href = body.seat_url;
}

// The symbols and the rules: fetched the first time their tab opens (the browser keeps them).
export async function help(panel) {
  const url = panel.dataset.help;
  if (!url) return; // asked twice while this module came
  delete panel.dataset.help;
  try {
    const r = await fetch(url);
    if (!r.ok) throw new Error(r.status);
    panel.innerHTML = await r.text();
  } catch {
    panel.dataset.help = url;
    panel.firstElementChild.textContent = "Not connected — open the tab again.";
  }
}
