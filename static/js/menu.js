// The table header's menu below 1000 px wide: one button (#more-toggle, aria-expanded) shows or hides
// the seat's alerts (notifications, the sound) in a panel laid over the page, so nothing moves.
// A disclosure: Enter, Space or a tap opens and closes it (the focus stays on the button; Tab goes
// on into the panel); Escape closes it and puts the focus back on its button; a tap elsewhere or
// the focus leaving both closes it. On a wider screen the button is hidden and the panel's
// buttons sit in the header. Fetched on the button's first use.
let wired = null;

export async function toggle(button, open = button.getAttribute("aria-expanded") !== "true") {
  const panel = document.getElementById(button.getAttribute("aria-controls"));
  const head = button.closest(".table-head");
  if (!wired) {
    // its style sheet first (the panel is not shown before it has come)
    const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/css/menu.css" });
    wired = new Promise((done) => { sheet.onload = sheet.onerror = done; });
    document.head.append(sheet);
    const shut = (focus) => {
      if (button.getAttribute("aria-expanded") !== "true") return;
      toggle(button, false);
      if (focus) button.focus();
    };
    head.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && (panel.contains(e.target) || e.target === button)) { e.preventDefault(); shut(true); }
    });
    document.addEventListener("click", (e) => { if (!head.contains(e.target)) shut(false); });
    for (const n of [button, panel]) n.addEventListener("focusout", (e) => {
      if (e.relatedTarget && !panel.contains(e.relatedTarget) && e.relatedTarget !== button) shut(false);
    });
  }
  await wired;
  button.setAttribute("aria-expanded", String(open));
  head.classList.toggle("more-open", open);
}
