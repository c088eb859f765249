// The front end of every explainer widget: a small loader shared by all of them.
//
// anywidget imports a widget's _esm afresh for each model (from a new blob URL), and an
// imported module is never freed: a tab moving from page to page would keep a copy of every
// old table's code. Here the widget's real module is its _module trait (the text of
// tutorial/static/<name>.js); it is imported once per tab and shared by every model that
// carries the same text.

const MODULES = (globalThis.__durakModules ??= new Map());

function load(model) {
  const source = String(model.get("_module") || "");
  let loaded = MODULES.get(source);
  if (!loaded) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    loaded = import(/* webpackIgnore: true */ url)
      .finally(() => URL.revokeObjectURL(url))
      .then(async (mod) => (typeof mod.default === "function" ? await mod.default() : mod.default) || {});
    MODULES.set(source, loaded);
  }
  return loaded;
}

export default {
  async initialize(context) {
    const widget = await load(context.model);
    return widget.initialize ? widget.initialize(context) : undefined;
  },
  async render(context) {
    const widget = await load(context.model);
    return widget.render ? widget.render(context) : undefined;
  },
};
