"""The first load's waiting screen in the learner's language.

Until its kernel has run the page's notebook, a page shows Voilà's (or Voici's) own screen:
"Running <notebook title>...", then "Executing 1 of 1", in English, with the notebook's
English title in the tab. :func:`loading_script` is a small inline script that the server
(``durak_server``) and the static build (``static_site``) put at the top of every page's
``<head>``: it reads the language the page will use (``?lang=``, else the browser's, else
Spanish, as the page bridge does), sets ``<html lang>`` and the tab title, and says "Opening
the page…" in that language instead, also over Voilà's "Executing" updates. Once the page is
drawn the page bridge takes over the title and the language.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Final

from .i18n import N_, SUPPORTED_LANGUAGES, translator

__all__ = ["loading_script", "loading_texts"]

#: The title of each page that is not a lesson (a lesson's is its own title).
_PAGE_TITLES: Final = {
    "house-rules": N_("House rules"),
    "play": N_("Play a whole game"),
    "sources": N_("Where the rules come from"),
}

_SCRIPT: Final = """<script>
(() => {
  const TEXTS = %s;
  const primary = (tag) => String(tag || "").trim().toLowerCase().split(/[-_]/)[0];
  const wanted = new URLSearchParams(location.search).get("lang");
  let lang = null;
  if (wanted) {
    lang = primary(wanted); // an unknown one: the page opens in Spanish and says so
  } else {
    for (const tag of navigator.languages || [navigator.language]) {
      if (!lang && Object.hasOwn(TEXTS, primary(tag))) lang = primary(tag);
    }
  }
  if (!Object.hasOwn(TEXTS, lang)) lang = "es";
  const texts = TEXTS[lang];
  document.documentElement.lang = lang;
  let page = location.pathname.split("/").pop() || "index";
  try { page = decodeURIComponent(page); } catch (_err) { /* keep it */ }
  page = page.replace(/\\.(ipynb|html)$/, "");
  if (Object.hasOwn(texts.titles, page)) document.title = texts.titles[page];
  const say = () => {
    const line = document.getElementById("loading_text");
    if (line && line.textContent !== texts.loading) line.textContent = texts.loading;
    return Boolean(line);
  };
  // Voila defines its own update_loading_text ("Executing 1 of 1") later in the page.
  Object.defineProperty(window, "update_loading_text", {
    configurable: true,
    get: () => say,
    set: () => {},
  });
  if (!say()) {
    const watch = new MutationObserver(() => { if (say()) watch.disconnect(); });
    watch.observe(document.documentElement, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", () => { say(); watch.disconnect(); });
  }
})();
</script>
"""


def loading_texts() -> dict[str, dict[str, object]]:
    """For each language: ``loading`` (what the waiting screen says) and ``titles`` (the tab
    title of every page, by page name)."""
    from .index_page import page_name
    from .lessons import load_lessons
    from .page import site_title

    lessons = load_lessons()
    texts: dict[str, dict[str, object]] = {}
    for code in SUPPORTED_LANGUAGES:
        tr = translator(code)
        titles = {"index": site_title(tr)}
        for lesson in lessons:
            titles[page_name(lesson)] = site_title(tr, tr.gettext(lesson.title))
        for name, title in _PAGE_TITLES.items():
            titles[name] = site_title(tr, tr.gettext(title))
        texts[code] = {"loading": tr.gettext("Opening the page…"), "titles": titles}
    return texts


@cache
def loading_script() -> str:
    """The ``<script>`` element to put first in a page's ``<head>``."""
    # ASCII only: the page's <meta charset> comes after this script, maybe too late to count.
    data = json.dumps(loading_texts(), ensure_ascii=True, sort_keys=True)
    return _SCRIPT % data.replace("</", "<\\/")
