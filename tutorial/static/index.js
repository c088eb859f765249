// The lesson list of the index page. Python sends the lessons (already in the page's
// language); the stars come straight from the browser's localStorage, where the lesson
// pages keep the learner's progress. Links go to `<page>.ipynb?lang=..` on Voilà and to
// `<page>.html?lang=..` on the static (Voici) site, whose pages end in .html.
const STORAGE_KEY = "durak-explainer:progress:v1";
/** Fired on this window when this page changed the stored progress: the page's other lesson
 * lists redraw (a `storage` event only reaches the *other* windows). */
const CHANGED = "durak-explainer:progress-changed";

/** Whether `progress` holds at least one star. */
function hasStars(progress) {
  return Object.values(progress).some((r) => r && typeof r.stars === "number" && r.stars > 0);
}

/** Delete every lesson's stars from this browser; false when the browser refused. */
function clearProgress() {
  try {
    globalThis.localStorage.removeItem(STORAGE_KEY);
    return true;
  } catch (_err) {
    return false;
  }
}

function readProgress() {
  try {
    const raw = globalThis.localStorage ? globalThis.localStorage.getItem(STORAGE_KEY) : null;
    const data = raw ? JSON.parse(raw) : {};
    return data && typeof data === "object" ? data : {};
  } catch (_err) {
    return {};
  }
}

/** The link to page `name` (a notebook stem) in `lang`, for the site this page is on. */
export function pageHref(name, lang) {
  const ext = globalThis.location.pathname.endsWith(".html") ? ".html" : ".ipynb";
  return `${name}${ext}?lang=${encodeURIComponent(lang)}`;
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function stars(n) {
  const wrap = el("span", "durak-index-stars");
  for (let i = 0; i < 3; i += 1) {
    wrap.appendChild(el("span", i < n ? "on" : "off", i < n ? "★" : "☆"));
  }
  return wrap;
}

// The "reset my stars" control: a quiet button; a first click only asks, and the safe answer
// ("keep") takes the first click's place, so a double click deletes nothing.
function resetControl(view, progress, ui, redraw) {
  const texts = view.reset;
  const box = el("div", "durak-index-reset");
  if (!texts) return box;
  if (ui.status) {
    const status = el("p", `durak-index-reset-status ${ui.status}`, texts[ui.status] || "");
    status.setAttribute("role", "status");
    status.tabIndex = -1;
    box.appendChild(status);
  }
  if (ui.confirming) {
    const ask = el("div", "durak-index-reset-ask");
    ask.setAttribute("role", "group");
    const question = el("p", "", texts.question);
    question.id = "durak-index-reset-question";
    ask.setAttribute("aria-labelledby", question.id);
    ask.appendChild(question);
    const keep = el("button", "durak-index-reset-keep", texts.cancel);
    keep.type = "button";
    const yes = el("button", "durak-index-reset-yes", texts.confirm);
    yes.type = "button";
    keep.addEventListener("click", () => {
      ui.confirming = false;
      ui.focus = ".durak-index-reset-open";
      redraw();
    });
    yes.addEventListener("click", () => {
      ui.confirming = false;
      ui.status = clearProgress() ? "done" : "failed";
      ui.focus = ".durak-index-reset-status";
      redraw();
      globalThis.dispatchEvent(new Event(CHANGED));
    });
    ask.addEventListener("keydown", (event) => {
      if (event.key === "Escape") keep.click();
    });
    const buttons = el("div", "durak-index-reset-buttons");
    buttons.append(keep, yes);
    ask.appendChild(buttons);
    box.appendChild(ask);
  } else if (hasStars(progress)) {
    const open = el("button", "durak-index-reset-open", texts.button);
    open.type = "button";
    open.addEventListener("click", () => {
      ui.confirming = true;
      ui.status = "";
      ui.focus = ".durak-index-reset-keep";
      redraw();
    });
    box.appendChild(open);
  }
  return box;
}

function draw(model, root, ui, redraw) {
  const view = model.get("view") || {};
  const progress = readProgress();
  const lang = view.lang || "es";
  root.replaceChildren();
  const list = el("ol", "durak-index-list");
  for (const lesson of view.lessons || []) {
    const item = el("li", "durak-index-item");
    const link = el("a", "durak-index-link");
    link.href = pageHref(lesson.page, lang);
    link.dataset.durakPage = lesson.page; // followed inside the tab (bridge.js)
    const record = progress[lesson.id];
    const earned = record && typeof record.stars === "number" ? record.stars : 0;
    const head = el("div", "durak-index-head");
    head.appendChild(el("span", "durak-index-number", String(lesson.order)));
    head.appendChild(el("span", "durak-index-title", lesson.title));
    const starNode = stars(earned);
    starNode.setAttribute("aria-label", earned ? lesson.stars_label.replace("{n}", earned) : view.not_done);
    head.appendChild(starNode);
    link.appendChild(head);
    link.appendChild(el("p", "durak-index-summary", lesson.summary));
    if (lesson.teaches && lesson.teaches.length) {
      const ul = el("ul", "durak-index-teaches");
      for (const point of lesson.teaches) ul.appendChild(el("li", "", point));
      link.appendChild(ul);
    }
    item.appendChild(link);
    list.appendChild(item);
  }
  root.appendChild(list);
  const more = el("div", "durak-index-more");
  for (const extra of view.extras || []) {
    const link = el("a", "durak-index-extra");
    link.href = pageHref(extra.page, lang);
    link.dataset.durakPage = extra.page;
    link.appendChild(el("strong", "", extra.title));
    link.appendChild(el("span", "", extra.summary));
    more.appendChild(link);
  }
  root.appendChild(more);
  root.appendChild(resetControl(view, progress, ui, redraw));
  if (ui.focus) {
    const target = root.querySelector(ui.focus);
    ui.focus = "";
    if (target) target.focus();
  }
}

export default {
  render({ model, el: host }) {
    const root = document.createElement("nav");
    root.className = "durak-index";
    host.appendChild(root);
    const ui = { confirming: false, status: "", focus: "" };
    const redraw = () => draw(model, root, ui, redraw);
    model.on("change:view", redraw);
    globalThis.addEventListener("storage", redraw);
    globalThis.addEventListener(CHANGED, redraw);
    redraw();
    return () => {
      model.off("change:view", redraw);
      globalThis.removeEventListener("storage", redraw);
      globalThis.removeEventListener(CHANGED, redraw);
    };
  },
};
