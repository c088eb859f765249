// The lesson list of the index page. Python sends the lessons (already in the page's
// language); the stars come straight from the browser's localStorage, where the lesson
// pages keep the learner's progress. Links go to `<page>.ipynb?lang=..` on Voilà and to
// `<page>.html?lang=..` on the static (Voici) site, whose pages end in .html.
const STORAGE_KEY = "durak-explainer:progress:v1";

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

function draw(model, root) {
  const view = model.get("view") || {};
  const progress = readProgress();
  const lang = view.lang || "es";
  root.replaceChildren();
  const list = el("ol", "durak-index-list");
  for (const lesson of view.lessons || []) {
    const item = el("li", "durak-index-item");
    const link = el("a", "durak-index-link");
    link.href = pageHref(lesson.page, lang);
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
    link.appendChild(el("strong", "", extra.title));
    link.appendChild(el("span", "", extra.summary));
    more.appendChild(link);
  }
  root.appendChild(more);
}

export default {
  render({ model, el: host }) {
    const root = document.createElement("nav");
    root.className = "durak-index";
    host.appendChild(root);
    const redraw = () => draw(model, root);
    model.on("change:view", redraw);
    globalThis.addEventListener("storage", redraw);
    redraw();
    return () => {
      model.off("change:view", redraw);
      globalThis.removeEventListener("storage", redraw);
    };
  },
};
