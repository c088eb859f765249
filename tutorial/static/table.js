// The Durak card table (anywidget front end).
//
// Draws the whole table from one TableView snapshot (the `view` trait, see
// tutorial/view_model.py) and reports clicks with model.send():
//   {type: "card", zone: "hand" | "table" | "seat", id: "10H"}
//   {type: "action", id: "take" | "pass" | "swap" | "transfer" | "hint"}
//   {type: "progress", data: {...}}   once, with what localStorage held at load
// The table never applies a rule: a click on a card that cannot be played is sent too, so
// the controller can explain why. No network access: no fonts, images or scripts are loaded.

const STORAGE_KEY = "durak-explainer:progress:v1";
const PROGRESS_SENT = new WeakSet(); // models whose progress was already sent

// ---------------------------------------------------------------------------- DOM helpers

/** Create an element. `props`: attributes (class, data-*, aria-*, style as object). */
function h(tag, props, ...children) {
  const node = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "style") Object.assign(node.style, value);
      else node.setAttribute(key, value === true ? "" : String(value));
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
const redSuit = (symbol) => symbol === "♥" || symbol === "♦";

// ---------------------------------------------------------------------------- cards

// Pip positions for number cards (x, y in % of the pip field); pips below the middle are
// drawn upside down, as on real cards.
const PIPS = {
  2: [[50, 0], [50, 100]],
  3: [[50, 0], [50, 50], [50, 100]],
  4: [[0, 0], [100, 0], [0, 100], [100, 100]],
  5: [[0, 0], [100, 0], [50, 50], [0, 100], [100, 100]],
  6: [[0, 0], [100, 0], [0, 50], [100, 50], [0, 100], [100, 100]],
  7: [[0, 0], [100, 0], [50, 25], [0, 50], [100, 50], [0, 100], [100, 100]],
  8: [[0, 0], [100, 0], [50, 25], [0, 50], [100, 50], [50, 75], [0, 100], [100, 100]],
  9: [[0, 0], [100, 0], [0, 33.3], [100, 33.3], [50, 50], [0, 66.7], [100, 66.7], [0, 100], [100, 100]],
  10: [
    [0, 0], [100, 0], [50, 16.7], [0, 33.3], [100, 33.3],
    [0, 66.7], [100, 66.7], [50, 83.3], [0, 100], [100, 100],
  ],
};

/** A repeat of the card's index (its second corner, the rank on a face card), drawn by CSS
 * from data-text (table.css): decoration, so the card's visible text is its top corner alone,
 * which starts its accessible name ("K♥, the king of hearts"). */
const repeated = (className, value) => h("span", { class: cls(className, "dt-repeat"), "data-text": value });

/** "10H" -> "10"; "QS" -> "Q" (engine notation, not the localized rank). */
const engineRank = (id) => text(id).slice(0, -1);

function cardCenter(card) {
  const rank = engineRank(card.id);
  const symbol = text(card.symbol);
  if (PIPS[rank]) {
    const pips = PIPS[rank].map(([x, y]) =>
      h("span", { class: cls("dt-pip", y > 50 && "is-flipped"), style: { left: `${x}%`, top: `${y}%` } }, symbol),
    );
    return [
      h("span", { class: "dt-pips", "aria-hidden": "true" }, pips),
      h("span", { class: "dt-big-pip is-compact", "aria-hidden": "true" }, symbol),
    ];
  }
  if (rank === "J" || rank === "Q" || rank === "K") {
    return [
      h(
        "span",
        { class: "dt-face", "aria-hidden": "true" },
        repeated("dt-face-rank", text(card.rank)),
        h("span", { class: "dt-face-suit" }, symbol),
      ),
    ];
  }
  return [h("span", { class: "dt-big-pip", "aria-hidden": "true" }, symbol)];
}

/** "10♣": the text the card shows in its corners (its rank and suit symbol). */
const shownText = (card) => `${text(card.rank)}${text(card.symbol)}`;

/**
 * A face-up card. `zone` set: a real <button> sending {type: "card", zone, id}, named
 * "10♣, the ten of clubs": its name starts with the text it shows (WCAG 2.5.3, label in
 * name: a speech-input user says what they see). Otherwise a picture (role="img") named by
 * the card's localized label; `seat` set: a picture of another player's face-up card, which
 * is no control (nothing can be done with it, and a tab stop per card would keep keyboard
 * users from their own hand), but a pointer click on it is still reported as
 * {type: "card", zone: "seat", id} so the controller can say whose card it is.
 */
function cardEl(card, { zone = null, seat = false, extra = "", mini = false } = {}) {
  const mark = text(card.mark);
  const corner = (where) =>
    h(
      "span",
      { class: cls("dt-corner", where), "aria-hidden": "true" },
      where === "is-top"
        ? h("span", { class: "dt-corner-rank" }, text(card.rank))
        : repeated("dt-corner-rank", text(card.rank)),
      h("span", { class: "dt-corner-suit" }, text(card.symbol)),
    );
  const className = cls(
    "dt-card",
    card.red ? "is-red" : "is-black",
    card.trump && "is-trump",
    mark && `mark-${mark}`,
    mini && "is-mini",
    extra,
  );
  const face = [
    corner("is-top"),
    cardCenter(card),
    corner("is-bottom"),
    card.trump ? h("span", { class: "dt-trump-mark", "aria-hidden": "true" }) : null,
  ];
  if (zone) {
    return h(
      "button",
      {
        type: "button",
        class: className,
        "data-kind": "card",
        "data-zone": zone,
        "data-id": text(card.id),
        "data-key": `card:${zone}:${text(card.id)}`,
        "aria-label": `${shownText(card)}, ${text(card.label)}`,
        "aria-pressed": mark === "selected" ? "true" : null,
      },
      face,
    );
  }
  const where = seat ? { "data-kind": "card", "data-zone": "seat", "data-id": text(card.id) } : {};
  return h("span", { class: className, role: "img", "aria-label": text(card.label), ...where }, face);
}

const cardBack = (extra, style) => h("span", { class: cls("dt-back", extra), style, "aria-hidden": "true" });

// ---------------------------------------------------------------------------- seats

function roleBadge(seat) {
  if (!seat.role || !seat.role_label) return null;
  return h("span", { class: cls("dt-badge", `role-${seat.role}`) }, text(seat.role_label));
}

/** Team play: a coloured marker with the team's number; its text (also for screen readers)
 * says which team, and for a team-mate of the defender that he adds no cards. */
function teamMarker(seat) {
  if (seat.team === undefined || seat.team === null) return null;
  const team = Math.abs(Number(seat.team) || 0) % 3;
  const label = text(seat.team_label);
  return h(
    "span",
    { class: cls("dt-team", `team-${team}`), title: label || null },
    h("span", { class: "dt-team-dot", "aria-hidden": "true" }, String(team + 1)),
    label ? h("span", { class: "dt-sr" }, label) : null,
  );
}

function seatHead(seat, labels) {
  const name = text(seat.name);
  return h(
    "div",
    { class: "dt-seat-head" },
    h(
      "span",
      { class: cls("dt-avatar", seat.you ? "is-you" : `tone-${Math.abs(Number(seat.seat) || 0) % 6}`), "aria-hidden": "true" },
      seat.you ? "" : Array.from(name)[0] || "",
    ),
    h("span", { class: "dt-name", title: name }, name),
    roleBadge(seat),
    teamMarker(seat),
    seat.acting
      ? h(
          "span",
          { class: "dt-acting", title: text(labels.acting) || null },
          h("span", { class: "dt-acting-dot", "aria-hidden": "true" }),
          labels.acting ? h("span", { class: "dt-sr" }, text(labels.acting)) : null,
        )
      : null,
  );
}

/** A fan of card backs for a hidden hand (at most 8 drawn; the label gives the count). */
function fan(count) {
  const n = Math.max(0, Math.min(Number(count) || 0, 8));
  const backs = [];
  for (let i = 0; i < n; i += 1) {
    const o = i - (n - 1) / 2;
    backs.push(
      cardBack("is-fan", { transform: `translateY(${(o * o * 0.9).toFixed(1)}px) rotate(${(o * 6).toFixed(1)}deg)` }),
    );
  }
  return h("div", { class: cls("dt-fan", n === 0 && "is-empty"), "aria-hidden": "true" }, backs);
}

function opponentEl(seat, labels) {
  const faceUp = Array.isArray(seat.cards);
  return h(
    "div",
    {
      class: cls("dt-seat", `role-${seat.role || "none"}`, seat.acting && "is-acting", faceUp && "is-face-up"),
      role: "group",
      "aria-label": text(seat.name),
    },
    seatHead(seat, labels),
    faceUp
      ? h("div", { class: "dt-seat-cards" }, seat.cards.map((card) => cardEl(card, { seat: true, mini: true })))
      : fan(seat.count),
    h("div", { class: "dt-count" }, text(seat.count_label)),
  );
}

/** Opponents in seat order, starting with the seat after the learner's. */
function opponentsInOrder(view) {
  const seats = list(view.seats).slice().sort((a, b) => a.seat - b.seat);
  const mine = seats.findIndex((s) => s.you || s.seat === view.you);
  if (mine < 0) return seats;
  return seats.slice(mine + 1).concat(seats.slice(0, mine));
}

// ---------------------------------------------------------------------------- middle

function trumpIndicator(view, labels) {
  if (!view.trump_symbol) return null;
  const red = redSuit(view.trump_symbol);
  return h(
    "div",
    { class: "dt-trump" },
    h("span", { class: cls("dt-trump-suit", red ? "is-red" : "is-black"), "aria-hidden": "true" }, text(view.trump_symbol)),
    h(
      "span",
      { class: "dt-trump-text" },
      h("span", { class: "dt-caption" }, text(labels.trump)),
      h("span", { class: "dt-trump-name" }, text(view.trump_name)),
    ),
  );
}

function deckEl(view, labels) {
  const stock = Math.max(0, Number(view.stock_count) || 0);
  const turnup = view.turnup && view.turnup_in_stock ? view.turnup : null;
  const backs = Math.min(Math.max(stock - (turnup ? 1 : 0), 0), 5);
  let pile;
  if (stock > 0) {
    const layers = [];
    for (let i = 0; i < backs; i += 1) {
      layers.push(cardBack("is-stack", { transform: `translate(${-i * 1.5}px, ${-i * 1.5}px)` }));
    }
    pile = h(
      "div",
      { class: cls("dt-stock", turnup && "has-turnup") },
      turnup ? cardEl(turnup, { extra: "dt-turnup" }) : null,
      layers,
    );
  } else {
    // No stock left: an empty place; the trump suit stays visible below.
    pile = h(
      "div",
      { class: "dt-stock is-empty" },
      h("span", { class: "dt-stock-ghost", "aria-hidden": "true" }, text(view.trump_symbol)),
    );
  }
  const countText = stock > 0 || !labels.no_stock ? text(view.stock_label) : text(labels.no_stock);
  const name = [text(labels.stock), countText].filter(Boolean).join(": ");
  return h(
    "div",
    { class: "dt-deck", role: "group", "aria-label": name || null },
    pile,
    h(
      "div",
      { class: "dt-pile-label" },
      h("span", { class: "dt-caption" }, text(labels.stock)),
      h("span", { class: "dt-count" }, countText),
    ),
    trumpIndicator(view, labels),
  );
}

function discardEl(view, labels) {
  const count = Math.max(0, Number(view.discard_count) || 0);
  const tilts = [-9, 6, -3, 11, -13];
  const layers = [];
  for (let i = 0; i < Math.min(count, tilts.length); i += 1) {
    layers.push(cardBack("is-stack", { transform: `rotate(${tilts[i]}deg) translate(${i % 2 ? 3 : -2}px, ${-i}px)` }));
  }
  const name = [text(labels.discard), text(view.discard_label)].filter(Boolean).join(": ");
  return h(
    "div",
    { class: "dt-discard", role: "group", "aria-label": name || null },
    h("div", { class: cls("dt-discard-pile", count === 0 && "is-empty") }, layers),
    h(
      "div",
      { class: "dt-pile-label" },
      h("span", { class: "dt-caption" }, text(labels.discard)),
      h("span", { class: "dt-count" }, text(view.discard_label)),
    ),
  );
}

function pairEl(pair) {
  const attack = pair.attack;
  const defended = Boolean(pair.defence);
  return h(
    "div",
    { class: cls("dt-pair", defended ? "is-defended" : "is-open", pair.selectable && "is-selectable") },
    pair.selectable ? cardEl(attack, { zone: "table", extra: "dt-attack" }) : cardEl(attack, { extra: "dt-attack" }),
    defended
      ? cardEl(pair.defence, { extra: "dt-defence" })
      : h("span", { class: "dt-defence-slot", "aria-hidden": "true" }),
  );
}

function battleEl(view, labels) {
  const pairs = list(view.table);
  const ranks = list(view.open_ranks);
  return h(
    "div",
    { class: "dt-battle", role: "group", "aria-label": text(labels.table) || null },
    h(
      "div",
      { class: "dt-battle-head" },
      h("span", { class: "dt-caption" }, text(labels.table)),
      view.cap_label
        ? h(
            "span",
            { class: "dt-cap" },
            labels.cap ? h("span", { class: "dt-cap-caption" }, `${text(labels.cap)}:`) : null,
            text(view.cap_label),
          )
        : null,
    ),
    pairs.length
      ? h("div", { class: "dt-pairs" }, pairs.map(pairEl))
      : h("div", { class: "dt-pairs is-empty" }, h("span", { class: "dt-empty-text" }, text(labels.empty_table))),
    ranks.length
      ? h(
          "div",
          { class: "dt-open-ranks" },
          h("span", { class: "dt-caption" }, text(labels.open_ranks)),
          ranks.map((rank) => h("span", { class: "dt-chip" }, text(rank))),
        )
      : null,
  );
}

// ---------------------------------------------------------------------------- learner

function youEl(view, labels) {
  const seat = list(view.seats).find((s) => s.you || s.seat === view.you);
  const hand = list(view.hand);
  return [
    seat
      ? h(
          "div",
          { class: cls("dt-you-head", seat.acting && "is-acting", `role-${seat.role || "none"}`) },
          seatHead(seat, labels),
          h("span", { class: "dt-count" }, text(seat.count_label)),
        )
      : null,
    h(
      "div",
      {
        class: cls("dt-hand", hand.length === 0 && "is-empty"),
        role: "group",
        "aria-label": text(labels.your_hand || labels.hand) || null,
        "aria-busy": view.busy ? "true" : null,
      },
      hand.map((card) => cardEl(card, { zone: "hand" })),
    ),
  ];
}

function actionEl(action) {
  const id = text(action.id);
  return h(
    "button",
    {
      type: "button",
      class: cls("dt-action", `action-${id}`, action.hint && "is-hint", !action.enabled && "is-disabled"),
      "data-kind": "action",
      "data-id": id,
      "data-key": `action:${id}`,
      // Not `disabled`: a click on an unavailable action still reaches the controller,
      // which explains why it is not possible now.
      "aria-disabled": action.enabled ? null : "true",
    },
    text(action.label),
  );
}

// The feedback kinds (view_model.Message): "error" is a move the rules refuse, "detour" an
// allowed move that is not this step's point, "costly" an allowed move that costs something.
// Each has its colour, its icon and (from Python) a short label such as "Not allowed".
// "hint" is the computer's advice and why (a calm colour: nothing went wrong).
const MESSAGE_ICONS = {
  info: "i",
  error: "!",
  detour: "↪",
  costly: "⚠",
  success: "✓",
  question: "?",
  hint: "✦",
};

// ---------------------------------------------------------------------------- progress

function readProgress() {
  try {
    const raw = globalThis.localStorage ? globalThis.localStorage.getItem(STORAGE_KEY) : null;
    if (!raw) return {};
    const data = JSON.parse(raw);
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function writeProgress(value) {
  try {
    globalThis.localStorage.setItem(STORAGE_KEY, JSON.stringify(value ?? {}));
  } catch {
    // Storage full, disabled or blocked: progress just is not saved in this browser.
  }
}

// ---------------------------------------------------------------------------- widget

function render({ model, el }) {
  const root = h("div", { class: "durak-table" });
  const felt = h("div", { class: "dt-felt" });
  const opponents = h("div", { class: "dt-opponents" });
  const middle = h("div", { class: "dt-middle" });
  const you = h("div", { class: "dt-you" });
  const actions = h("div", { class: "dt-actions" });
  // Live regions stay in the DOM across redraws so screen readers announce changes.
  const message = h("div", { class: "dt-message", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const narration = h("p", { class: "dt-narration", "aria-live": "polite" });
  // The feedback (message and narration) can move next to the lesson's task: a lesson page
  // offers a .durak-feedback-slot (app.py); elsewhere it stays under the felt.
  const feedback = h("div", { class: "durak-table dt-feedback" }, message, narration);
  felt.append(opponents, middle, you, actions);
  root.append(felt, feedback);

  let lastMessage = null;
  let shownId; // the id of the message last drawn (undefined before the first draw)

  function focusKey() {
    const active = document.activeElement;
    if (!active || !root.contains(active) || !active.dataset.key) return null;
    const siblings = active.parentElement ? [...active.parentElement.querySelectorAll("[data-key]")] : [];
    return { key: active.dataset.key, zone: active.dataset.zone || null, index: siblings.indexOf(active) };
  }

  function restoreFocus(saved) {
    if (!saved) return;
    let target = root.querySelector(`[data-key="${CSS.escape(saved.key)}"]`);
    if (!target && saved.zone === "hand") {
      // The card was played: keep the keyboard in the hand, on its neighbour.
      const cards = root.querySelectorAll(".dt-hand [data-key]");
      target = cards[Math.min(saved.index, cards.length - 1)] || null;
    }
    if (target) target.focus({ preventScroll: true });
  }

  /** Move the feedback into the page's slot once both are in the document (Lumino attaches
   * views a moment after render); without a free slot it stays in the table. */
  let slotTries = 0;
  function placeFeedback() {
    const page = el.isConnected ? el.closest(".durak-lesson") : null;
    const slot = page ? page.querySelector(".durak-feedback-slot") : null;
    if (slot && !slot.querySelector(".dt-feedback")) {
      slot.append(feedback);
      fitHeight(); // now in the page: the table's room is known
      return;
    }
    if (!feedback.isConnected) root.append(feedback);
    if (!slot && slotTries++ < 120) globalThis.requestAnimationFrame(placeFeedback);
  }

  function draw() {
    const view = model.get("view") || {};
    const labels = view.labels && typeof view.labels === "object" ? view.labels : {};
    const saved = focusKey();

    if (view.lang) root.setAttribute("lang", text(view.lang));
    if (view.lang) feedback.setAttribute("lang", text(view.lang));
    if (!feedback.isConnected && el.isConnected) placeFeedback();
    root.classList.toggle("hints-on", Boolean(view.hints));
    root.classList.toggle("is-busy", Boolean(view.busy));

    const others = opponentsInOrder(view);
    opponents.replaceChildren(...others.map((seat) => opponentEl(seat, labels)));
    opponents.classList.toggle("is-empty", others.length === 0);
    middle.replaceChildren(deckEl(view, labels), battleEl(view, labels), discardEl(view, labels));
    you.replaceChildren(...youEl(view, labels).filter(Boolean));
    const buttons = list(view.actions);
    actions.replaceChildren(...buttons.map(actionEl));
    actions.classList.toggle("is-empty", buttons.length === 0);

    const msg = view.message && typeof view.message === "object" ? view.message : null;
    const kind = msg && Object.hasOwn(MESSAGE_ICONS, msg.kind) ? msg.kind : "info";
    const msgText = msg ? text(msg.text) : "";
    const msgLabel = msg && msgText ? text(msg.label) : "";
    // the card an explanation is about takes the colour of its kind of feedback
    if (msgText) root.dataset.feedback = kind;
    else delete root.dataset.feedback;
    const msgKey = `${kind}\u0000${msgLabel}\u0000${msgText}`;
    if (msgKey !== lastMessage) {
      lastMessage = msgKey;
      message.className = cls("dt-message", msgText && `kind-${kind}`, !msgText && "is-empty");
      message.replaceChildren(
        ...(msgText
          ? [
              h("span", { class: "dt-message-icon", "aria-hidden": "true" }, MESSAGE_ICONS[kind]),
              h(
                "span",
                { class: "dt-message-text" },
                msgLabel ? [h("strong", { class: "dt-message-label" }, msgLabel), " "] : null,
                msgText,
              ),
            ]
          : []),
      );
    }
    const story = text(view.narration);
    if (narration.textContent !== story) narration.textContent = story;
    narration.classList.toggle("is-empty", !story);

    restoreFocus(saved);
    fitHeight();
    // A new message next to a long task may be below the panel's fold: bring it into view.
    const msgId = msg && msgText ? msg.id : null;
    if (msgId !== null && shownId !== undefined && msgId !== shownId && feedback.parentElement !== root) {
      message.scrollIntoView({ block: "nearest" });
    }
    shownId = msgId;
  }

  /** On a page that gives the table a fixed height (a wide lesson page, panel.css: the
   * table beside the panel in a .durak-stage grid), shrink the cards until the felt fits, so
   * the hand is never below the fold; elsewhere the cards follow the width alone. */
  let watched = null; // the stage whose size changes (presenter zoom, panel) refit the cards
  const stageWatch =
    typeof ResizeObserver === "function" ? new ResizeObserver(() => fitHeight()) : null;
  function fitHeight() {
    felt.style.removeProperty("--dt-cw-fit");
    const stage = el.isConnected ? el.closest(".durak-stage") : null;
    if (stage && stage !== watched && stageWatch) {
      stageWatch.disconnect();
      stageWatch.observe(stage);
      watched = stage;
    }
    if (!stage || getComputedStyle(stage).display !== "grid") return;
    const room = stage.getBoundingClientRect().height;
    const fits = () => root.getBoundingClientRect().height <= room + 0.5;
    if (fits()) return;
    // the widest card size that fits (binary search, to the pixel)
    const zoom = Number(felt.currentCSSZoom) || 1;
    const card = felt.querySelector(".dt-hand .dt-card, .dt-pair .dt-attack");
    const shown = card ? card.getBoundingClientRect().width / zoom : 96;
    let low = 38;
    let high = card && card.closest(".dt-pair") ? shown / 0.86 : shown;
    while (high - low > 1) {
      const middle = (low + high) / 2;
      felt.style.setProperty("--dt-cw-fit", `${middle}px`);
      if (fits()) low = middle;
      else high = middle;
    }
    felt.style.setProperty("--dt-cw-fit", `${Math.floor(low)}px`);
  }

  function onClick(event) {
    // Buttons, and the pictures of other players' face-up cards (see cardEl).
    const button = event.target instanceof Element ? event.target.closest("[data-kind]") : null;
    if (!button || !root.contains(button)) return;
    const { kind, zone, id } = button.dataset;
    try {
      if (kind === "card") model.send({ type: "card", zone, id });
      else if (kind === "action") model.send({ type: "action", id });
    } catch (_err) {} // the comm is gone: the bridge shows the lost-connection notice
  }

  function onProgress() {
    writeProgress(model.get("progress"));
  }

  root.addEventListener("click", onClick);
  model.on("change:view", draw);
  globalThis.addEventListener("resize", fitHeight);
  model.on("change:progress", onProgress);
  draw();
  el.append(root);
  placeFeedback();

  if (!PROGRESS_SENT.has(model)) {
    // A table may render while its page is being left and the comm is already gone;
    // the bridge tells the learner when the connection is lost, so nothing to do here.
    try {
      model.send({ type: "progress", data: readProgress() });
      PROGRESS_SENT.add(model);
    } catch (_err) {}
  }

  return () => {
    root.removeEventListener("click", onClick);
    model.off("change:view", draw);
    globalThis.removeEventListener("resize", fitHeight);
    stageWatch?.disconnect();
    model.off("change:progress", onProgress);
    root.remove();
    feedback.remove();
  };
}

export default { render };
