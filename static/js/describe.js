// The board in words, on demand: the "D" key or the header's "Describe the board" button (table.js
// fetches this module on the first key pressed or the button's click) open a dialog of sections
// with headings, focused at its title; Escape or "Close" shuts it and gives the focus back.
//
// The convention for a game: static/games/<game>/describe.js beside its renderer, fetched only
// when first asked for (never in the first view), exports
//     describe(view, ctx) -> [{ heading: "Your hand", lines: ["Coffee House, brown…", …] }, …]
// with the same view (fixed data merged in) and ctx (seat, nameOf, moves, awaiting, status…) as
// the renderer's render(). A game without one is described by the kit's sections alone.
import { el } from "./kit.js";

let styled = false;

/** The kit's own first section: whose turn, the prompt, the choices in the server's words. */
function now(ctx) {
  const v = ctx.view || {};
  const lines = [];
  const bar = document.getElementById("prompt");
  if (bar && bar.textContent.trim()) lines.push(bar.textContent.trim());
  const choices = (v.prompt && v.prompt.choices) || [];
  if (ctx.seat !== null && ctx.seat !== undefined && choices.length) {
    // a label may name a seat as {seat:N} (the renderers fill it in the same way)
    const shown = choices.slice(0, 12).map((c) => String(c.label).replace(/\{seat:(\d+)\}/g, (_, n) => (ctx.nameOf ? ctx.nameOf(+n) : `Seat ${+n + 1}`)));
    lines.push(`${choices.length === 1 ? "Your one choice" : `Your ${choices.length} choices`}: ${shown.join("; ")}${choices.length > 12 ? "; and more" : ""}.`);
  }
  const last = [...document.querySelectorAll("#log li")].slice(-3).map((li) => li.textContent);
  if (last.length) lines.push(`Last moves: ${last.join(" ")}`);
  return { heading: "Now", lines };
}

/** The sections for this view: the kit's, then the game's (if it has a describe.js). */
export async function sections(game, ctx) {
  const out = [now(ctx)];
  if (!ctx.view) return out;
  let mod = null;
  try { mod = await import(`/static/games/${game}/describe.js`); } catch { /* none: the kit's alone */ }
  if (mod && mod.describe) {
    try { out.push(...mod.describe(ctx.view, ctx).filter((s) => s && s.lines && s.lines.length)); }
    catch (err) { out.push({ heading: "The board", lines: [`The board could not be described (${err.message}).`] }); }
  }
  return out;
}

/** A key pressed anywhere (or the header's button): "D" opens the board in words, unless typed
 *  into a field or a dialog is already open. */
export function asked(e, boot, ctx) {
  if (e.type === "keydown") {
    if (!/^d$/i.test(e.key) || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const t = e.target;
    if (t.closest && t.closest("input, textarea, select, [contenteditable], dialog")) return;
  }
  open(boot, ctx || {});
}

export async function open(boot, ctx) {
  const was = document.getElementById("describe-board");
  if (was) { was.querySelector("h2").focus(); return; }
  if (!styled) {
    styled = true;
    document.head.append(el("link", { rel: "stylesheet", href: "/static/css/describe.css" }));
  }
  const back = document.activeElement;
  const list = await sections(boot.game, ctx);
  const title = el("h2", { id: "describe-h", tabindex: "-1", text: `${boot.title}: the board in words` });
  const close = el("button", { type: "button", class: "describe-close", text: "Close" });
  const dialog = el("dialog", { id: "describe-board", class: "kit-confirm describe-board", "aria-labelledby": "describe-h" },
    title,
    ...list.map((s) => el("section", {},
      el("h3", { text: s.heading }),
      el("ul", {}, ...s.lines.map((line) => el("li", { text: line }))))),
    el("div", { class: "kit-confirm-buttons" }, close));
  const done = () => {
    dialog.close();
    dialog.remove();
    if (back && back.isConnected && back !== document.body) back.focus({ preventScroll: true });
  };
  close.addEventListener("click", done);
  dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(); });
  document.body.append(dialog);
  dialog.showModal();
  title.focus();
}
