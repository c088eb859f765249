// The sources page's content. Python sends it as HTML (already escaped and in the page's
// language). Opened as sources.ipynb#s4, the page scrolls to that source once it is drawn and
// shown (the page stays hidden until the kernel has answered the browser's hello).
const TRIES = 40;
const EVERY_MS = 250;

function targetOf(root) {
  let id = "";
  try {
    id = decodeURIComponent((globalThis.location.hash || "").slice(1));
  } catch (_err) {
    return null;
  }
  if (!id) return null;
  return [...root.querySelectorAll("[id]")].find((node) => node.id === id) || null;
}

function render({ model, el }) {
  const root = document.createElement("div");
  el.appendChild(root);
  let done = !globalThis.location.hash;
  let tries = 0;
  let timer = null;

  function scrollToHash() {
    timer = null;
    if (done) return;
    const target = targetOf(root);
    const shown = target && target.isConnected && !el.closest(".durak-pending");
    if (shown) {
      done = true;
      target.setAttribute("tabindex", "-1");
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
      return;
    }
    tries += 1;
    if (tries < TRIES) timer = setTimeout(scrollToHash, EVERY_MS);
  }

  function draw() {
    root.innerHTML = model.get("html") || "";
    if (!done && timer === null) scrollToHash();
  }

  model.on("change:html", draw);
  draw();
  return () => {
    model.off("change:html", draw);
    if (timer !== null) clearTimeout(timer);
  };
}

export default { render };
