"""The first load's waiting screen speaks the learner's language (issue 16).

:func:`tutorial.loading_screen.loading_script` carries, for each language, the waiting line and
the tab title of every page: the same title the page's bridge sets once it is drawn, so the
tab does not change its words when the page appears.
"""

from __future__ import annotations

import json
import re

import pytest

from tutorial.i18n import SUPPORTED_LANGUAGES, translator
from tutorial.loading_screen import loading_script, loading_texts
from tutorial.page import BridgedPage
from tutorial.pages import PAGES, page

pytestmark = pytest.mark.usefixtures("no_server_language")


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_page_has_its_own_tab_title_in_every_language(lang: str) -> None:
    texts = loading_texts()[lang]
    assert texts["loading"] == translator(lang).gettext("Opening the page…")
    titles = texts["titles"]
    assert isinstance(titles, dict) and set(titles) == set(PAGES)
    for name in PAGES:
        built = page(name, lang)
        assert isinstance(built, BridgedPage)
        assert titles[name] == built.bridge.title, name


def test_the_script_is_one_inline_element_with_the_texts() -> None:
    script = loading_script()
    assert script.startswith("<script>") and script.rstrip().endswith("</script>")
    assert script.count("</script>") == 1  # the data cannot close the element early
    data = re.search(r"const TEXTS = (\{.*?\});\n", script, re.S)
    assert data is not None
    assert json.loads(data.group(1).replace("<\\/", "</")) == loading_texts()
    assert "http" not in script  # nothing from another host


def test_the_script_is_ascii() -> None:
    """It comes first in <head>, before the page's <meta charset>: its bytes must read the
    same in any encoding a browser may guess."""
    assert loading_script().isascii()
