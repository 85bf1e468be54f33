// A plain renderer for a game that has no board drawing of its own: what the seat may see,
// and every legal move as a button (the prompt's label when the server gives one).
import { choiceButton, el, Moves } from "./kit.js";

export function renderGeneric(root, ctx) {
  root.replaceChildren();
  if (!ctx.view) return;
  const moves = new Moves(ctx);
  const list = el("div", { class: "generic-moves", "data-prompt": "" }, ...ctx.moves.map((move) => {
    const choice = moves.choice(move);
    const label = choice && choice.label ? choice.label : describe(move);
    return choiceButton({ move, label }, ctx.send, { class: "move", disabled: ctx.pending });
  }));
  root.append(list, el("pre", { class: "generic-view", tabindex: "0", text: JSON.stringify(ctx.view, null, 2) }));
}

function describe(move) {
  const { type, ...rest } = move;
  const args = Object.entries(rest).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return args.length ? `${type}: ${args.join(", ")}` : type;
}
