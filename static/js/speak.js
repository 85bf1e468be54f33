// What a screen reader hears at the table (templates/table.html holds the two live regions):
// - #announce (polite): every new log line once, as the seat's log says it (the mover named, a
//   private detail only in its own seat's log). table.js hands each new line to say(); the lines
//   of a first view or a reconnection are history, never spoken. A line leaves the region after
//   a while, so that reading the page does not meet a second copy of the log.
// - #announce-turn (assertive): the seat's own turn with the prompt ("Your turn — Choose an
//   action"), once per decision. table.js numbers the decisions on the bar (data-decision): a new
//   one when the seat becomes awaited, when the step asked (the prompt's kind) or its sentence
//   changes, after a refusal and when the connection is back; never because somebody else at the
//   table moved, nor after a move of the seat's own that leaves it at the same step (A Game of
//   Thrones' orders, placed one area after another; Towers of Babylon's main phase).
// Fetched with the first new log line: never in a game's first view (the page title already says
// "● Your turn" when the page opens on one).
const $ = (id) => document.getElementById(id);
const bar = $("action-bar");
const prompt = $("prompt");
let told = null;
let timer = 0;

const line = (text) => Object.assign(document.createElement("p"), { textContent: text });

/** A new log line, spoken once. */
export function say(text) {
  const said = line(text);
  $("announce").append(said);
  setTimeout(() => said.remove(), 30000);
}

// the turn: the bar is marked "yours" while the seat has a decision to make (not while its move
// is on its way); its sentence is read once the board (and the sentence its renderer gives the
// bar) has been drawn, without the "also awaited" tail, which changes as the others decide
function watch() {
  clearTimeout(timer);
  if (!bar.classList.contains("yours") || bar.dataset.decision === told) return;
  timer = setTimeout(() => {
    const text = prompt.textContent.replace(/ \(also awaited: .*\)$/, "").trim();
    if (!bar.classList.contains("yours") || !text) return;
    told = bar.dataset.decision;
    $("announce-turn").replaceChildren(line(text));
  }, 60);
}

new MutationObserver(watch).observe(bar, { attributes: true, attributeFilter: ["class", "data-decision"] });
new MutationObserver(watch).observe(prompt, { childList: true, subtree: true, characterData: true });
watch();
