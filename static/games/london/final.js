// London's final scores, fetched once the game is over: the totals first (highest first), then
// how each was made, step by step (rule 13), and the fair-shuffle seed revealed.
import { esc, plural, signed } from "/static/js/kit.js";

// its look, in a sheet of its own: the scores are drawn once it has come (or failed to)
const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/games/london/final.css" });
export const ready = new Promise((done) => { sheet.onload = done; sheet.onerror = done; });
document.head.append(sheet);

export function section(v, ctx) {
  const r = v.result || ctx.result;
  if (!v.over || !r) return "";
  const sc = r.details.scoring;
  const names = sc.map((s) => ctx.nameOf(s.seat));
  const win = r.winners.map((w) => ctx.nameOf(w));
  const head = win.length === 1 ? `${esc(win[0])} wins` : win.length ? `A shared victory: ${esc(win.join(", "))}` : "Nobody wins";
  const stepLine = (s) => {
    switch (s.step) {
      case 1: return `${plural(s.cards, "card")} → ${s.poverty} poverty`;
      case 3: return s.loans ? `${plural(s.loans, "loan")} repaid (£${s.money_spent})` : "none";
      case 4: return `£${s.money} left`;
      case 5: return s.loans ? plural(s.loans, "loan") + " unpaid" : "none";
      case 6: return `${s.poverty_before} − ${s.subtracted} = ${signed(s.poverty_after)}`;
      case 7: return `${s.poverty} poverty`;
      default: return "";
    }
  };
  const rows = [];
  rows.push(`<tr><th scope="row">Prestige scored during play</th>${sc.map((s) => `<td><b>${signed(s.prestige_in_play)}</b></td>`).join("")}</tr>`);
  for (let i = 0; i < 7; i++) {
    const label = sc[0].steps[i].label;
    rows.push(`<tr><th scope="row"><span class="stepno">${i + 1}</span> ${esc(label)}</th>` + sc.map((s) => {
      const st = s.steps[i];
      const vp = st.vp ? `<b>${signed(st.vp, true)}</b>` : `<b class="zero">0</b>`;
      const note = stepLine(st);
      return `<td>${vp}${note ? `<small>${esc(note)}</small>` : ""}</td>`;
    }).join("") + `</tr>`);
  }
  rows.push(`<tr class="total"><th scope="row">Total VP</th>${sc.map((s) => `<td><b>${signed(s.total)}</b></td>`).join("")}</tr>`);
  rows.push(`<tr class="tb"><th scope="row">Poverty left · boroughs · best card</th>${sc.map((s) => `<td><small>${s.poverty} · ${s.boroughs} · ${s.best_card}★</small></td>`).join("")}</tr>`);
  const tb = r.details.tiebreak;
  let tie = "";
  if (tb && tb.tied_on_vp && tb.tied_on_vp.length > 1) {
    tie = `<p class="lon-tie">Tied on VP: ${esc(tb.tied_on_vp.map((s) => ctx.nameOf(s)).join(", "))} — decided by <b>${esc(tb.decided_by)}</b>` +
      ` (rule 13: fewest poverty, then most boroughs, then the single highest-prestige card, then a shared victory).</p>`;
  } else tie = `<p class="lon-tie">No tie-break was needed.</p>`;
  const hash = document.getElementById("seed-hash");
  const seed = ctx.seed
    ? `<p class="lon-seed">The fair-shuffle seed is now revealed: <code class="hash">${esc(ctx.seed)}</code>` +
      `${hash && hash.textContent.trim() !== "—" ? ` — its SHA-256, published when the game began, was <code class="hash">${esc(hash.textContent.trim())}</code>` : ""}.` +
      `${ctx.code ? ` <a href="/api/tables/${esc(ctx.code)}/record">The full record</a> lets anyone replay and verify the game.` : ""}</p>`
    : `<p class="lon-seed">The fair-shuffle seed is revealed when the table closes.</p>`;
  // the totals first, highest first: the table below explains them step by step
  const standing = sc.slice().sort((a, b) => b.total - a.total || (r.winners.includes(b.seat) - r.winners.includes(a.seat)));
  const totals = `<ol class="lon-totals" aria-label="Total victory points">${standing.map((s) =>
    `<li${r.winners.includes(s.seat) ? ' class="winner"' : ""}><span class="who">${esc(ctx.nameOf(s.seat))}${r.winners.includes(s.seat) ? " ❦" : ""}</span>` +
    ` <b>${signed(s.total)}</b> <small>VP</small></li>`).join("")}</ol>`;
  return `<section class="lon-final" aria-labelledby="lon-final-h"><p class="fleuron" aria-hidden="true">❦</p>` +
    `<h2 id="lon-final-h">Final scores</h2><p class="lon-winner">${head}</p>${totals}` +
    `<div class="lon-scorewrap" tabindex="0" role="region" aria-label="Final scores, step by step"><table class="lon-scores"><caption class="sr">The seven scoring steps for each player</caption>` +
    `<thead><tr><th scope="col">Scoring step</th>${names.map((n, i) => `<th scope="col"${r.winners.includes(sc[i].seat) ? ' class="winner"' : ""}>${esc(n)}${r.winners.includes(sc[i].seat) ? " ❦" : ""}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>${tie}${seed}</section>`;
}

