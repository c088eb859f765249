// The front end of every explainer widget: a small loader shared by all of them.
//
// A widget's code and style are not in its own state: its _module (JavaScript) and _style or
// _styles (CSS) traits refer to other models, one per file of tutorial/static/, which the
// kernel sends once and keeps (tutorial/assets.py). A tab moving from page to page thus
// receives each file once. anywidget would also import each model's _esm afresh (from a new
// blob URL), and an imported module is never freed: here each file's module is imported once
// per tab and shared by every model that uses it. A file's style is in the page (one
// <style> per file) while some view uses it.

const TAB = (globalThis.__durakFrontEnd ??= { modules: new Map(), styles: new Map() });
const LOOKUP_TRIES = 200; // a referred model may still be on its way (25 ms apart: 5 s)
const STYLE_GRACE = 1000; // ms a style stays after its last view, for the next page's

/** The file model a trait refers to ("IPY_MODEL_<id>"), or null. */
async function fileModel(model, ref) {
  if (ref && typeof ref.get === "function") return ref;
  const id = String(ref || "").replace(/^IPY_MODEL_/, "");
  if (!id) return null;
  for (let tries = 0; ; tries++) {
    try {
      return await model.widget_manager.get_model(id);
    } catch (err) {
      if (tries >= LOOKUP_TRIES) throw err;
      await new Promise((resolve) => globalThis.setTimeout(resolve, 25));
    }
  }
}

function load(model) {
  return fileModel(model, model.get("_module")).then((file) => {
    const source = file ? String(file.get("text") || "") : "";
    if (!source) return {};
    let loaded = TAB.modules.get(source);
    if (!loaded) {
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      loaded = import(/* webpackIgnore: true */ url)
        .finally(() => URL.revokeObjectURL(url))
        .then(async (mod) => (typeof mod.default === "function" ? await mod.default() : mod.default) || {});
      TAB.modules.set(source, loaded);
    }
    return loaded;
  });
}

/** Put the style files ``model`` refers to in the page; returns the function that lets
 * them go (a style leaves the page a moment after its last view, unless one takes it). */
async function holdStyles(model) {
  const refs = [model.get("_style"), ...(model.get("_styles") || [])].filter(Boolean);
  const files = (await Promise.all(refs.map((ref) => fileModel(model, ref)))).filter(Boolean);
  const held = files.map((file) => {
    const name = String(file.get("name") || "");
    const text = String(file.get("text") || "");
    let entry = TAB.styles.get(name);
    if (!entry) {
      const node = document.createElement("style");
      node.dataset.durakStyle = name;
      document.head.append(node);
      entry = { name, node, users: 0, timer: null };
      TAB.styles.set(name, entry);
    }
    if (entry.node.textContent !== text) entry.node.textContent = text;
    if (entry.timer !== null) globalThis.clearTimeout(entry.timer);
    entry.timer = null;
    entry.users += 1;
    return entry;
  });
  return () => {
    for (const entry of held) {
      entry.users -= 1;
      if (entry.users > 0 || entry.timer !== null) continue;
      entry.timer = globalThis.setTimeout(() => {
        entry.timer = null;
        if (entry.users > 0) return;
        entry.node.remove();
        if (TAB.styles.get(entry.name) === entry) TAB.styles.delete(entry.name);
      }, STYLE_GRACE);
    }
  };
}

export default {
  async initialize(context) {
    const widget = await load(context.model);
    return widget.initialize ? widget.initialize(context) : undefined;
  },
  async render(context) {
    const release = await holdStyles(context.model);
    const widget = await load(context.model);
    const cleanup = widget.render ? await widget.render(context) : undefined;
    return () => {
      if (typeof cleanup === "function") cleanup();
      release();
    };
  },
};
