// The move log of a free game (anywidget front end).
//
// Draws the `head` trait ({lang, title, empty, hidden}) and the log's lines (each a LogLine
// of tutorial/move_log.py) as a numbered list in a
// scrollable box, newest at the bottom and scrolled into view. New entries are announced
// politely (aria-live on the list, additions only); a language switch or a new game redraws
// the list silently.
//
// The kernel sends what changed, not the whole log (issue 19): the `lines` trait is
// {seq, start, lines, total}, the lines from place `start` on (`start` 0: the whole log).
// Each model keeps the whole list once (`logOf`), applying every update as it comes; an
// update whose `seq` is not the next one (one was missed) asks the kernel for the whole log
// again ({type: "resync"}), the only message the log sends back.

function h(tag, props, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false || child === "") continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const cls = (...names) => names.filter(Boolean).join(" ");
const text = (value) => (typeof value === "string" ? value : value == null ? "" : String(value));
const list = (value) => (Array.isArray(value) ? value : []);

/** What identifies an entry's content: redraw an item only when this changes. */
const SIGNATURES = new WeakMap();
const signature = (line) => {
  if (line === null || typeof line !== "object") return JSON.stringify(line);
  let sig = SIGNATURES.get(line);
  if (sig === undefined) {
    sig = JSON.stringify([line.kind, line.who, line.label, line.text, list(line.after)]);
    SIGNATURES.set(line, sig);
  }
  return sig;
};

/** Does `sentence` start with the name `who` (as a whole word)? */
function startsWithName(sentence, who) {
  if (!who || !sentence.startsWith(who)) return false;
  const next = sentence.slice(who.length, who.length + 1);
  return next === "" || !/[\p{L}\p{N}]/u.test(next);
}

function entryEl(line) {
  const who = text(line.who);
  const sentence = text(line.text);
  const after = list(line.after).map(text).filter(Boolean);
  // "Ana leads 9♣.": the name that starts the sentence is the coloured chip itself, not
  // a chip followed by the name again (N21); a label ("Not allowed") keeps the chip first.
  const inline = !line.label && startsWithName(sentence, who);
  return h(
    "li",
    {
      class: cls("dl-entry", `kind-${text(line.kind) || "move"}`, line.you && "is-you"),
      "data-key": String(Number(line.key) || 0),
    },
    who ? h("span", { class: "dl-who" }, who) : null,
    who ? " " : null, // (read out "Ana leads 9♣", not "Analeads")
    line.label ? h("span", { class: "dl-label" }, text(line.label)) : null,
    h("span", { class: "dl-text" }, inline ? sentence.slice(who.length).replace(/^\s+/, "") : sentence),
    after.length ? h("span", { class: "dl-after" }, after.join(" ")) : null,
  );
}

/** The whole list of a model's log, kept up to date with each update of `lines`. */
const LOGS = new WeakMap();

function logOf(model) {
  let log = LOGS.get(model);
  if (!log) {
    log = { seq: -1, lines: [], applied: undefined, asked: false };
    LOGS.set(model, log);
  }
  const update = model.get("lines");
  if (update && update !== log.applied) {
    log.applied = update;
    const seq = Number(update.seq);
    const start = Number(update.start) || 0;
    const fresh = list(update.lines);
    if (start === 0 || (seq === log.seq + 1 && start <= log.lines.length)) {
      log.lines = start === 0 ? fresh.slice() : log.lines.slice(0, start).concat(fresh);
      log.seq = seq;
      log.asked = false;
    } else if (!log.asked) {
      // an update was missed: what we hold is not the kernel's log any more
      log.asked = true;
      try {
        model.send({ type: "resync" });
      } catch (_err) {
        log.asked = false; // the comm is gone; ask again if it comes back
      }
    }
  }
  return log.lines;
}

function initialize({ model }) {
  // every update, also while no view is drawn: the list never misses one
  const follow = () => logOf(model);
  model.on("change:lines", follow);
  follow();
  return () => model.off("change:lines", follow);
}

function render({ model, el }) {
  const heading = h("h3", { class: "dl-title" });
  const empty = h("p", { class: "dl-empty" });
  const items = h("ol", { class: "dl-list", "aria-live": "polite", "aria-relevant": "additions" });
  // A scrollable region must be reachable by keyboard (WCAG 2.1.1): it takes focus.
  const scroller = h("div", { class: "dl-scroll", role: "region", tabindex: "0" }, items);
  const root = h("section", { class: "durak-log" }, heading, scroller, empty);
  let lang = null;
  let signatures = [];
  let scheduled = false;
  // Follow the newest entry while the reader is at the end (not when scrolled up to read).
  let stick = true;

  // The box lays its list out from the end (CSS: column-reverse), so the browser keeps the
  // newest entries in view by itself; there scrollTop is 0 at the end and negative above it.
  function nearBottom() {
    const reverse = getComputedStyle(scroller).flexDirection === "column-reverse";
    const fromEnd = reverse
      ? -scroller.scrollTop
      : scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop;
    return fromEnd < 48;
  }

  function toEnd() {
    // clamped to the end in either layout (0 when reversed, the maximum otherwise)
    scroller.scrollTop = scroller.scrollHeight;
  }

  const onScroll = () => {
    stick = nearBottom();
  };
  scroller.addEventListener("scroll", onScroll, { passive: true });
  // The box or its entries change size (a narrower window, a panel resized): stay at the end.
  const resized = typeof ResizeObserver === "function" ? new ResizeObserver(() => stick && toEnd()) : null;
  if (resized) {
    resized.observe(scroller);
    resized.observe(items);
  }

  function draw() {
    scheduled = false;
    const view = model.get("head") || {};
    const lines = logOf(model);
    const title = text(view.title);
    heading.textContent = title;
    scroller.setAttribute("aria-label", title);
    empty.textContent = lines.length ? "" : text(view.empty);
    empty.hidden = lines.length > 0;
    const newLang = text(view.lang);
    if (newLang) root.setAttribute("lang", newLang);

    const wasHidden = root.hidden;
    root.hidden = Boolean(view.hidden);
    const follow = stick || wasHidden;
    const sigs = lines.map(signature);
    const keepsOld =
      newLang === lang && sigs.length >= signatures.length && signatures.every((s, i) => s === sigs[i]);
    if (keepsOld) {
      // Only new entries: append them (they are announced).
      items.append(...lines.slice(signatures.length).map(entryEl));
    } else {
      // Another language, another game or play again: redraw without announcing it all.
      items.setAttribute("aria-live", "off");
      items.replaceChildren(...lines.map(entryEl));
      requestAnimationFrame(() => items.setAttribute("aria-live", "polite"));
    }
    signatures = sigs;
    lang = newLang;
    // Newest visible: follow the end, unless the reader scrolled up to read older moves.
    if (follow || !keepsOld) {
      stick = true;
      requestAnimationFrame(toEnd);
    }
  }

  // One update may change the head and the lines together: draw once, after both.
  const later = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(draw);
  };
  model.on("change:head", later);
  model.on("change:lines", later);
  draw();
  el.append(root);
  requestAnimationFrame(toEnd);
  return () => {
    model.off("change:head", later);
    model.off("change:lines", later);
    scroller.removeEventListener("scroll", onScroll);
    if (resized) resized.disconnect();
    root.remove();
  };
}

export default { initialize, render };
