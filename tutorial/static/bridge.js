// The page bridge (anywidget front end): one per page, the first child of the page's root.
//
// When first drawn it sends ONE message:
//   {type: "hello", lang, page, resume, present, step, stored}
// lang: ?lang= as given (even unknown), else the first browser language that is es/en/ru,
// else the default (the first of the bridge's langs, Spanish); page: the last path segment
// without .ipynb/.html; resume: the state stored for this page, only after "Start again where
// I was" (else null); present, step: ?present= and ?step= as given (or null; Python validates
// them); stored (only when there is one): otherwise, the sealed state stored for this page
// ({sealed}: the play page offers to continue its game).
// Keys: →/PageDown/Space send {type: "nav", to: "next"}, ←/PageUp {to: "back"}, R
// {to: "restart"} (not while typing in a form control or a menu, not with Ctrl/Alt/Meta;
// Space on a focused button presses it, except in presenter mode, where it is "next"); at
// the end of a lesson, "next" follows the link to the next lesson.
// Then {type: "ping", n} every few seconds while the tab is visible (every 20 s while it is
// hidden: the server culls a kernel whose page is silent for a minute; the clock runs in a
// worker, whose timers background throttling spares); the kernel answers
// {type: "pong", n}. No answer for a while in a visible tab => the connection-lost overlay,
// in the page's language, with one button that reloads the page and resumes where the
// learner was.
//
// Links between the site's pages (a[data-durak-page]) are followed inside the tab: a plain
// click pushes the new address (exactly the URL a direct load would use) and sends
//   {type: "go", lang, page, resume, present, step}
// read from that address (resume: the sealed state this tab stored for that page, else null:
// the play page's game goes on after a visit to the index); the kernel builds the page, swaps it in and answers {type: "shown"}
// (focus then moves to the new page's h1) or {type: "refused"} (the address is then loaded
// for real). Back and Forward (popstate) do the same without pushing. A middle-click, a
// Ctrl/Shift/Meta-click or "open in new tab" still opens a new tab; inside JupyterLab links
// are plain links.
//
// Python -> browser only, through traits: lang (html lang, ?lang= in the URL), title (the
// tab's title), texts (the overlay's words; texts.loading: the pending label per language),
// resume (kept in sessionStorage for this page), present (?present=1 in the URL; the page's
// zoom, --durak-zoom, follows the window's size), step (?step= in the URL; 0: none).

// The site's languages, default first: the bridge's ``langs`` (tutorial.i18n's list), read
// when the bridge is first drawn.
let LANGS = ["es"];
const STATE_KEY = "durak-state:";
const FLAG_KEY = "durak-resume:";
const MAX_RESUME_CHARS = 60 * 1024;
const OVERLAY_ID = "durak-connection-lost";
const TIMING = {
  tick: 1000,
  every: 3000,
  lostAfter: 6000,
  hiddenEvery: 20000,
  ...(globalThis.durakBridgeTiming || {}),
};
const MAX_LANG = 100;
const MAX_PARAM = 32;
// Presenter mode scales the page so that this much of it fills the window.
const PRESENT_VIEW = { width: 1280, height: 720 };

const HELLO_SENT = new WeakSet(); // models that already said hello
// The page bridge of this tab (the site keeps one for every page it shows) and the page
// change waiting for the kernel's answer.
const TAB = { model: null, pending: null, shownPath: null, left: false };
const FOCUS_TRIES = 180; // animation frames to wait for the new page's heading
const BEATS = new WeakMap(); // model -> heartbeat state (kept across re-renders)

// ---------------------------------------------------------------------------- page facts

function queryLang() {
  const value = new URLSearchParams(globalThis.location.search).get("lang");
  return value ? value.slice(0, MAX_LANG) : null;
}

function queryParam(name, search = globalThis.location.search) {
  const value = new URLSearchParams(search).get(name);
  return value === null ? null : value.slice(0, MAX_PARAM);
}

function browserLang() {
  const wanted = globalThis.navigator?.languages?.length
    ? globalThis.navigator.languages
    : [globalThis.navigator?.language || ""];
  for (const tag of wanted) {
    const primary = String(tag || "").toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(primary)) return primary;
  }
  return LANGS[0];
}

function pageName(pathname = globalThis.location.pathname) {
  const parts = pathname.split("/").filter(Boolean);
  const last = parts.length ? parts[parts.length - 1] : "index";
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch (_err) {
    name = last;
  }
  return name.replace(/\.(ipynb|html)$/, "").slice(0, 200) || "index";
}

function storage() {
  try {
    return globalThis.sessionStorage || null;
  } catch (_err) {
    return null; // storage blocked: resume is just not offered
  }
}

function takeResume() {
  const store = storage();
  if (!store) return null;
  const path = globalThis.location.pathname;
  try {
    if (store.getItem(FLAG_KEY + path) === null) return null;
    store.removeItem(FLAG_KEY + path);
    const text = store.getItem(STATE_KEY + path) || "null";
    // The server drops a whole message over 64 KiB (the page would wait for ever): a state
    // that big is not sent, and the page says it could not continue.
    if (text.length > MAX_RESUME_CHARS) return {};
    const data = JSON.parse(text);
    return data && typeof data === "object" && !Array.isArray(data) ? data : null;
  } catch (_err) {
    return null;
  }
}

/** The sealed state ({sealed: token}) this tab stored for the page at `path`, else null. The
 * kernel checks it (a token only the server can read; older ones are refused). */
function storedSealed(path = globalThis.location.pathname) {
  const store = storage();
  if (!store) return null;
  try {
    const text = store.getItem(STATE_KEY + path);
    if (!text || text.length > MAX_RESUME_CHARS) return null;
    const data = JSON.parse(text);
    const keys = data && typeof data === "object" && !Array.isArray(data) ? Object.keys(data) : [];
    if (keys.length !== 1 || keys[0] !== "sealed" || typeof data.sealed !== "string") return null;
    return { sealed: data.sealed };
  } catch (_err) {
    return null;
  }
}

function storeResume(state) {
  const store = storage();
  if (!store) return;
  const key = STATE_KEY + globalThis.location.pathname;
  try {
    if (state && typeof state === "object" && Object.keys(state).length) {
      store.setItem(key, JSON.stringify(state));
    } else {
      store.removeItem(key);
    }
  } catch (_err) {
    // storage full or blocked: the page still works, it just cannot resume
  }
}

/** The link to another page of the site, in `lang`: .html on the static site, else .ipynb. */
export function pageHref(name, lang) {
  const ext = globalThis.location.pathname.endsWith(".html") ? ".html" : ".ipynb";
  return `${name}${ext}?lang=${encodeURIComponent(lang || LANGS[0])}`;
}

/** Inside JupyterLab, whose tab title and URL are its own. Voilà and Voici pages mark their
 * body with data-voila (and use JupyterLab's shell classes too). */
function inJupyterLab() {
  return !document.body.hasAttribute("data-voila") && Boolean(document.querySelector(".jp-LabShell"));
}

/** Give the page its main landmark (role="main" on Voilà's or Voici's rendered cells, else on
 * the page's root widget), so assistive technology can jump to the content and every part of
 * the page sits in a landmark. Not in JupyterLab, whose shell has its own landmarks; not twice.
 * `host` must be in the document (the view is attached a moment after render). */
function markMain(host) {
  if (!host.isConnected || inJupyterLab() || document.querySelector("main, [role='main']")) return;
  const target = document.getElementById("rendered_cells") || host.closest(".jp-OutputArea") || host.parentElement;
  target?.setAttribute("role", "main");
}

function currentLang() {
  const lang = document.documentElement.lang;
  return LANGS.includes(lang) ? lang : LANGS[0];
}

// Links drawn by Python carry data-durak-page="<stem>": point them at the right file (and
// stay in presenter mode); a plain click is followed inside the tab.
function fixLink(event) {
  const link = event.target instanceof Element ? event.target.closest("a[data-durak-page]") : null;
  if (!link) return;
  const present = queryParam("present") === "1" ? "&present=1" : "";
  // keep an anchor (sources.ipynb#s4): the sources page scrolls to it
  link.setAttribute("href", pageHref(link.dataset.durakPage, currentLang()) + present + link.hash);
  if (event.type === "click" && followsInTab(event, link)) {
    event.preventDefault();
    goTo(link.href, true);
  }
}

/** A plain click on a link to another page of this site, in a tab whose kernel is there. */
function followsInTab(event, link) {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return false;
  if (!TAB.model || inJupyterLab() || document.getElementById(OVERLAY_ID)) return false;
  const url = new URL(link.href, globalThis.location.href);
  if (url.origin !== globalThis.location.origin) return false;
  // a link to a place on the page shown: the browser scrolls to it
  return !(url.pathname === globalThis.location.pathname && url.search === globalThis.location.search);
}

/** Show the page at `href` inside the tab: push its address (unless Back/Forward already
 * did) and ask the kernel for it. Without a kernel to ask, load the address for real. */
function goTo(href, push) {
  const url = new URL(href, globalThis.location.href);
  const model = TAB.model;
  if (push) {
    try {
      globalThis.history.pushState({ durak: true }, "", url.toString());
    } catch (_err) {
      globalThis.location.assign(url.toString());
      return;
    }
  }
  if (!model) {
    globalThis.location.reload();
    return;
  }
  const page = pageName(url.pathname);
  const lang = url.searchParams.get("lang");
  TAB.pending = { page, href: url.toString(), heading: document.querySelector(".durak-site h1") };
  TAB.shownPath = url.pathname;
  document.documentElement.classList.add("durak-navigating");
  try {
    model.send({
      type: "go",
      lang: lang ? lang.slice(0, MAX_LANG) : currentLang(),
      page,
      resume: storedSealed(url.pathname),
      present: queryParam("present", url.search),
      step: queryParam("step", url.search),
    });
  } catch (_err) {
    globalThis.location.reload(); // the comm is gone: the server builds the page instead
  }
}

function onPopState() {
  if (!TAB.model || inJupyterLab()) return;
  // Back or Forward to another place on the same page (an anchor) is the browser's own.
  if (globalThis.location.pathname === TAB.shownPath) return;
  goTo(globalThis.location.href, false);
}

/** The kernel swapped the new page in: once its heading is drawn, move the focus there
 * (screen readers announce the new page) and show its top, or the anchor the address names. */
function pageShown(model) {
  const pending = TAB.pending;
  TAB.pending = null;
  document.documentElement.classList.remove("durak-navigating");
  storeResume(model.get("resume"));
  const old = pending ? pending.heading : null;
  let tries = 0;
  const place = () => {
    const heading = document.querySelector(".durak-site h1");
    if (!heading || heading === old || !heading.isConnected) {
      if (tries++ < FOCUS_TRIES) globalThis.requestAnimationFrame(place);
      return;
    }
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    if (!globalThis.location.hash) scrollToTop(heading);
  };
  place();
}

/** Show the top of the page: Voilà and Voici scroll an element of theirs, not the document. */
function scrollToTop(node) {
  for (let box = node.parentElement; box; box = box.parentElement) {
    if (box.scrollTop > 0) box.scrollTop = 0;
  }
  globalThis.scrollTo(0, 0);
}

function pageRefused(message) {
  const pending = TAB.pending;
  if (!pending || message.page !== pending.page) return; // not asked by this tab
  TAB.pending = null;
  document.documentElement.classList.remove("durak-navigating");
  globalThis.location.replace(pending.href); // the server says what it has at that address
}

// ---------------------------------------------------------------------------- presenter

/** --durak-zoom on <html>: how much presenter mode scales the page (panel.css uses it). */
function fitPresenter() {
  const width = globalThis.innerWidth || PRESENT_VIEW.width;
  const height = globalThis.innerHeight || PRESENT_VIEW.height;
  const zoom = Math.max(1, Math.min(width / PRESENT_VIEW.width, height / PRESENT_VIEW.height, 4));
  document.documentElement.style.setProperty("--durak-zoom", zoom.toFixed(3));
}

const NAV_KEYS = {
  ArrowRight: "next",
  PageDown: "next",
  " ": "next",
  ArrowLeft: "back",
  PageUp: "back",
  r: "restart",
  R: "restart",
};

/** Presenter mode (app.py's PRESENT_CLASS on the lesson page's root). */
const presenting = () => Boolean(document.querySelector(".durak-present"));

/** Space on a focused control presses that control, except in presenter mode, where it is
 * the clicker's "next" whatever was clicked last (a clicker sends Space or PageDown). */
const spaceOnControl = (target, key) =>
  key === " " && target instanceof Element && Boolean(target.closest("button, a[href], summary"));

/** Focus in something that takes typing or arrow keys itself: the keys are its own. */
function typingIn(target, key) {
  if (!(target instanceof Element)) return false;
  if (target.closest("input, select, textarea, [contenteditable=''], [contenteditable='true']")) return true;
  if (target.closest("[role='listbox'], [role='menu'], [role='combobox'], [role='slider']")) return true;
  return spaceOnControl(target, key) && !presenting();
}

/** Presenter mode: a button activates on Space's keyup; that press was "next" already. */
function onKeyUp(event) {
  if (spaceOnControl(event.target, event.key) && presenting() && !typingIn(event.target, "")) {
    if (document.querySelector(".durak-lesson-page")) event.preventDefault();
  }
}

/** The lesson panel's scrolling body: mark whether text is hidden below or above, so that
 * the panel can show it (panel.css fades that edge: a scroll cue, N11). */
function markPanelScroll() {
  for (const body of document.querySelectorAll(".durak-panel-body")) {
    const hiddenBelow = body.scrollHeight - body.clientHeight - body.scrollTop > 2;
    body.classList.toggle("durak-more-below", hiddenBelow);
    body.classList.toggle("durak-more-above", body.scrollTop > 2);
  }
}

function onPanelScroll(event) {
  const target = event.target;
  if (target instanceof Element && target.classList.contains("durak-panel-body")) markPanelScroll();
}

/** The link the finishing panel offers to the next lesson, if the page shows one. */
function nextLessonLink() {
  const link = document.querySelector(".durak-lesson a.durak-finish-next");
  return link && link.getClientRects().length ? link : null;
}

function onKey(event, model) {
  if (event.defaultPrevented || event.repeat || event.ctrlKey || event.altKey || event.metaKey) return;
  const to = NAV_KEYS[event.key];
  if (!to || typingIn(event.target, event.key)) return;
  if (document.getElementById(OVERLAY_ID) || inJupyterLab()) return;
  if (!document.querySelector(".durak-lesson-page")) return; // lesson pages only
  event.preventDefault();
  const link = to === "next" ? nextLessonLink() : null;
  if (link) {
    link.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true })); // fixLink
    goTo(link.href, true);
    return;
  }
  try {
    model.send({ type: "nav", to });
  } catch (_err) {
    // the comm is gone: the heartbeat shows the overlay
  }
}

// ---------------------------------------------------------------------------- leaving

/**
 * The kernel's shutdown beacon when the learner leaves the site (``pagehide``), as Voilà
 * sends it on ``beforeunload``: Chrome skips ``beforeunload`` for a page the learner never
 * touched, and a phone closing a tab or switching apps fires only ``pagehide``. Without it a
 * left page's kernel would wait for culling. Not on the static site (no kernel id) and not
 * for a page kept in the back/forward cache (it may come back).
 */
function onPageHide(event) {
  if (event.persisted || TAB.left) return;
  let config = {};
  try {
    config = JSON.parse(document.getElementById("jupyter-config-data")?.textContent || "{}");
  } catch (_err) {
    return;
  }
  const kernel = config.kernelId;
  const inPyodide = "litePluginSettings" in config; // Voici: the kernel is in the tab
  if (!kernel || inPyodide || typeof navigator.sendBeacon !== "function") return;
  TAB.left = true;
  const base = String(config.baseUrl || "/").replace(/\/?$/, "/");
  const form = new FormData();
  form.append("_xsrf", document.cookie.match(/\b_xsrf=([^;]*)\b/)?.[1] || "");
  navigator.sendBeacon(`${base}voila/api/shutdown/${encodeURIComponent(kernel)}`, form);
}

if (!globalThis.durakBridgeLinks) {
  globalThis.durakBridgeLinks = true;
  for (const type of ["click", "focusin", "pointerdown", "auxclick"]) {
    document.addEventListener(type, fixLink, true);
  }
  globalThis.addEventListener("popstate", onPopState);
  globalThis.addEventListener("pagehide", onPageHide);
}

// ---------------------------------------------------------------------------- overlay

function probeUrl() {
  for (const script of document.querySelectorAll("script[src]")) {
    try {
      const url = new URL(script.src, globalThis.location.href);
      if (url.origin === globalThis.location.origin) return url.toString();
    } catch (_err) {
      // not a URL: try the next one
    }
  }
  return globalThis.location.href;
}

function el(tag, props, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showOverlay(model) {
  if (document.getElementById(OVERLAY_ID)) return;
  const texts = model.get("texts") || {};
  const lang = model.get("lang") || document.documentElement.lang || "";
  const overlay = el("div", {
    id: OVERLAY_ID,
    class: "durak-lost",
    role: "alertdialog",
    "aria-modal": "true",
    "aria-labelledby": `${OVERLAY_ID}-title`,
    "aria-describedby": `${OVERLAY_ID}-body`,
  });
  if (lang) overlay.setAttribute("lang", lang);
  const box = el("div", { class: "durak-lost-box" });
  box.append(
    el("span", { class: "durak-lost-icon", "aria-hidden": "true" }, "⚠"),
    el("h2", { id: `${OVERLAY_ID}-title`, class: "durak-lost-title" }, texts.title || ""),
    el("p", { id: `${OVERLAY_ID}-body`, class: "durak-lost-body" }, texts.body || ""),
  );
  const button = el("button", { type: "button", class: "durak-lost-button" }, texts.button || "↻");
  const status = el("p", { class: "durak-lost-status", role: "status", "aria-live": "polite" });
  box.append(button, status);
  overlay.append(box);

  for (const node of document.body.children) node.setAttribute("inert", "");
  document.body.append(overlay);
  button.focus();

  overlay.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      event.preventDefault();
      button.focus();
    }
  });
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = texts.checking || "";
    let answers = false;
    try {
      // Any HTTP answer will do; a network error means the server is still away. Ask for one
      // of the page's own scripts (a static file: no kernel starts, no error is logged).
      await globalThis.fetch(probeUrl(), { method: "HEAD", cache: "no-store" });
      answers = true;
    } catch (_err) {
      answers = false;
    }
    if (!answers) {
      status.textContent = texts.unreachable || "";
      button.disabled = false;
      button.focus();
      return;
    }
    const store = storage();
    try {
      store?.setItem(FLAG_KEY + globalThis.location.pathname, "1");
    } catch (_err) {
      // cannot resume: the reload still gives a working page
    }
    globalThis.location.reload();
  });
}

// ---------------------------------------------------------------------------- heartbeat

function heartbeat(model) {
  let beat = BEATS.get(model);
  if (!beat) {
    beat = { n: 0, lastPing: 0, waitingSince: null, lost: false };
    BEATS.set(model, beat);
  }
  return beat;
}

function lose(model, beat) {
  if (beat.lost) return;
  beat.lost = true;
  showOverlay(model);
}

function send(model, beat, message) {
  try {
    model.send(message);
  } catch (_err) {
    lose(model, beat); // the comm is gone
  }
}

function ping(model, beat) {
  const now = Date.now();
  beat.lastPing = now;
  if (beat.waitingSince === null) beat.waitingSince = now;
  beat.n += 1;
  send(model, beat, { type: "ping", n: beat.n });
}

function tick(model, beat) {
  if (beat.lost) return;
  const now = Date.now();
  if (document.visibilityState === "hidden") {
    // A hidden tab still tells its kernel it is there (the server culls a page that goes
    // silent), but its throttled timers cannot tell a slow answer from a lost connection.
    if (now - beat.lastPing >= TIMING.hiddenEvery) ping(model, beat);
    beat.waitingSince = null;
    return;
  }
  if (beat.waitingSince !== null && now - beat.waitingSince >= TIMING.lostAfter) {
    lose(model, beat);
    return;
  }
  if (now - beat.lastPing >= TIMING.every) ping(model, beat);
}

/**
 * Call ``fn`` every ``ms`` milliseconds; returns the function that stops it. The clock is a
 * worker's when one can be made: a hidden tab's own timers may be held back to once a minute
 * (Chrome's intensive throttling), which would let the server cull a page still open.
 */
function every(ms, fn) {
  try {
    const source = `setInterval(() => postMessage(0), ${Number(ms)});`;
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    const worker = new Worker(url);
    worker.onmessage = fn;
    return () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    };
  } catch (_err) {
    const timer = globalThis.setInterval(fn, ms);
    return () => globalThis.clearInterval(timer);
  }
}

// ---------------------------------------------------------------------------- view

function render({ model, el: host }) {
  const langs = model.get("langs");
  if (Array.isArray(langs) && langs.length) LANGS = langs.map(String);
  const beat = heartbeat(model);
  TAB.model = model;
  if (TAB.shownPath === null) TAB.shownPath = globalThis.location.pathname;
  const detected = queryLang() || browserLang();
  const loading = el("div", { class: "durak-loading", role: "status" });
  loading.append(el("span", { class: "durak-spinner", "aria-hidden": "true" }));
  host.append(loading);

  function applyTexts() {
    const labels = (model.get("texts") || {}).loading || {};
    const key = LANGS.includes(detected) ? detected : LANGS[0];
    const label = labels[key] || labels[LANGS[0]] || "";
    loading.setAttribute("aria-label", label);
    loading.setAttribute("lang", key);
  }

  function applyLang() {
    const lang = model.get("lang");
    if (!lang) return; // the page is not ready yet: leave the URL and <html lang> alone
    if (inJupyterLab()) return; // the document and its URL belong to JupyterLab there
    document.documentElement.lang = lang;
    const url = new URL(globalThis.location.href);
    if (url.searchParams.get("lang") !== lang) {
      url.searchParams.set("lang", lang);
      try {
        globalThis.history.replaceState(globalThis.history.state, "", url.toString());
      } catch (_err) {
        // some embeddings forbid it; the page works the same
      }
    }
  }

  /** ?present=1 and ?step=N follow the page (like ?lang=), so the address can be shared. */
  function applyAddress() {
    if (!model.get("lang") || inJupyterLab()) return;
    const url = new URL(globalThis.location.href);
    const present = Boolean(model.get("present"));
    const step = Number(model.get("step")) || 0;
    if (present) url.searchParams.set("present", "1");
    else url.searchParams.delete("present");
    if (step > 0) url.searchParams.set("step", String(step));
    else url.searchParams.delete("step");
    if (url.toString() !== globalThis.location.href) {
      try {
        globalThis.history.replaceState(globalThis.history.state, "", url.toString());
      } catch (_err) {
        // some embeddings forbid it; the page works the same
      }
    }
  }

  function applyTitle() {
    const title = model.get("title");
    if (title && !inJupyterLab()) document.title = title;
  }

  const applyResume = () => storeResume(model.get("resume"));
  function onMessage(message) {
    if (!message) return;
    if (message.type === "pong") beat.waitingSince = null;
    else if (message.type === "shown") {
      pageShown(model);
      applyAddress(); // as after a load: ?step= only in presenter mode
    }
    else if (message.type === "refused") pageRefused(message);
  }
  function onVisibility() {
    if (document.visibilityState === "hidden") beat.waitingSince = null;
    else tick(model, beat);
  }

  model.on("change:texts", applyTexts);
  model.on("change:lang", applyLang);
  model.on("change:lang", applyAddress);
  model.on("change:present", applyAddress);
  model.on("change:step", applyAddress);
  const keys = (event) => onKey(event, model);
  document.addEventListener("keydown", keys);
  document.addEventListener("keyup", onKeyUp);
  globalThis.addEventListener("resize", fitPresenter);
  fitPresenter();
  // the panel's content changes with every step: look again a few times a second (cheap)
  document.addEventListener("scroll", onPanelScroll, true);
  const scrollCue = globalThis.setInterval(markPanelScroll, 300);
  model.on("change:title", applyTitle);
  model.on("change:resume", applyResume);
  model.on("msg:custom", onMessage);
  document.addEventListener("visibilitychange", onVisibility);
  applyTexts();
  applyLang();
  applyAddress();
  applyTitle();
  // Lumino attaches the view after render() returns: mark the landmark once it is in place.
  let landmarkTries = 0;
  const placeLandmark = () => {
    if (host.isConnected) markMain(host);
    else if (landmarkTries++ < 100) globalThis.requestAnimationFrame(placeLandmark);
  };
  placeLandmark();

  if (!HELLO_SENT.has(model)) {
    HELLO_SENT.add(model);
    const resume = takeResume();
    const hello = {
      type: "hello",
      lang: detected,
      page: pageName(),
      resume,
      present: queryParam("present"),
      step: queryParam("step"),
    };
    const stored = resume === null ? storedSealed() : null;
    if (stored) hello.stored = stored;
    send(model, beat, hello);
  }
  applyResume(); // after the hello took what was stored: from now on, this page's state
  const stopTicking = every(TIMING.tick, () => tick(model, beat));
  beat.waitingSince = null;
  beat.lastPing = Date.now(); // first ping one period after the hello

  return () => {
    stopTicking();
    model.off("change:texts", applyTexts);
    model.off("change:lang", applyLang);
    model.off("change:lang", applyAddress);
    model.off("change:present", applyAddress);
    model.off("change:step", applyAddress);
    document.removeEventListener("keydown", keys);
    document.removeEventListener("keyup", onKeyUp);
    document.removeEventListener("scroll", onPanelScroll, true);
    globalThis.clearInterval(scrollCue);
    globalThis.removeEventListener("resize", fitPresenter);
    model.off("change:title", applyTitle);
    model.off("change:resume", applyResume);
    model.off("msg:custom", onMessage);
    document.removeEventListener("visibilitychange", onVisibility);
    loading.remove();
  };
}

export default { render };
