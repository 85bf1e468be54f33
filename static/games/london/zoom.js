// London's card zoom, fetched the first time a card is hovered, pressed or focused: the card (or
// borough) itself drawn again, larger and whole (with the text a small card leaves out), and under
// it why it cannot be chosen now or the loans it would take. The kit shows it on a hover and a
// long press; here also on a card focused from the keyboard; a lifted finger leaves it open, a tap
// elsewhere or Escape closes it; a click is a choice (no zoom), and a card that slides under a
// mouse at rest shows nothing until the mouse moves.
import { attachZoom } from "/static/js/kit.js";

document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/games/london/zoom.css" }));

export function attach(root, selector, woken, draw) {
  attachZoom(root, selector, (node) => describe(node, draw));
  root.addEventListener("focusin", (e) => {
    const t = e.target.closest(selector);
    // (after the scroll that brings it into view, which closes any zoom)
    if (t && t.matches(":focus-visible")) {
      setTimeout(() => {
        if (document.activeElement === t) t.dispatchEvent(new PointerEvent("pointerover", { bubbles: true, pointerType: "mouse" }));
      }, 150);
    }
  });
  root.addEventListener("focusout", (e) => {
    const t = e.target.closest(selector);
    if (t) t.dispatchEvent(new PointerEvent("pointerout", { bubbles: true, pointerType: "mouse" }));
  });
  root.addEventListener("pointerout", (e) => { if (e.pointerType === "touch") e.stopPropagation(); }, true);
  // after a click the page changes under a resting mouse: a card slid under it shows nothing
  // until the mouse moves on
  let still = null;
  root.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse") return;
    still = [e.clientX, e.clientY];
    const t = e.target.closest(selector); // a click on a card is a choice, not a look: no zoom
    if (t) t.dispatchEvent(new PointerEvent("pointerout", { bubbles: true, pointerType: "mouse" }));
  }, true);
  root.addEventListener("pointermove", (e) => {
    if (still && Math.hypot(e.clientX - still[0], e.clientY - still[1]) > 4) still = null;
  }, true);
  root.addEventListener("pointerover", (e) => { if (still && e.isTrusted) e.stopPropagation(); }, true);
  let down = woken.type === "pointerdown" && draw.lifted() < woken.timeStamp;
  root.addEventListener("pointerup", () => { down = false; });
  root.addEventListener("pointercancel", () => { down = false; });
  document.addEventListener("pointerdown", (e) => {
    const z = document.getElementById("kit-zoom");
    if (z && !z.hidden && !z.contains(e.target) && !e.target.closest(selector)) z.hidden = true;
  });
  // the event that fetched this module, once more, now that it is listened to
  const t = woken.target.closest(selector);
  if (!t || !t.isConnected) return;
  if (woken.type === "focusin" && document.activeElement === t) t.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
  else if (woken.type === "pointerover" && t.matches(":hover")) t.dispatchEvent(new PointerEvent("pointerover", { bubbles: true, pointerType: woken.pointerType }));
  else if (woken.type === "pointerdown" && down) t.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, pointerType: woken.pointerType }));
}

function describe(node, { card, borough, esc, view }) {
  const v = view();
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
