// London's card zoom, fetched the first time the kit's zoom asks for a card (a hover, a long press,
// a card reached from the keyboard): the card (or borough) itself drawn again, larger and whole
// (with the text a small card leaves out), and under it why it cannot be chosen now or the loans
// it would take.

const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/games/london/zoom.css" });
// (the zoom is drawn once its styles are there: it is measured to be placed)
const styled = new Promise((done) => { sheet.onload = sheet.onerror = done; });
document.head.append(sheet);

export async function describe(node, { card, borough, esc, view: v }) {
  await styled;
  if (!v) return null;
  let html;
  if (node.matches(".bt")) {
    const key = node.dataset.borough || node.dataset.key;
    if (!v.catalogue.boroughs[key]) return null;
    html = borough(key, { live: node.classList.contains("live") });
  } else {
    const key = node.dataset.key;
    if (!v.catalogue.cards[key]) return null;
    const note = node.querySelector(".lc-note:not(.lc-loan)");
    html = card({ id: node.dataset.card || "", key }, { faceDown: node.classList.contains("down"), note: note ? note.textContent : null });
  }
  const box = document.createElement("div");
  box.className = "lon lon-zoom";
  box.innerHTML = html;
  box.firstElementChild.classList.add("zoomed");
  const why = node.getAttribute("aria-disabled") === "true" ? node.dataset.why : null;
  const loans = +(node.dataset.loans || 0);
  if (loans) box.insertAdjacentHTML("beforeend", `<p class="z-loan">Choosing it now takes ${loans === 1 ? "a £10 loan" : `${loans} £10 loans`} (−7 VP each at the end unless repaid).</p>`);
  if (why) box.insertAdjacentHTML("beforeend", `<p class="z-why"><b>Not now:</b> ${esc(why)}</p>`);
  return box;
}
