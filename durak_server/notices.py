"""Small self-contained HTML pages the server answers with itself, in the learner's language:
"the explainer is full" and "too many pages from your connection" (HTTP 503) and "page not
found" (HTTP 404).

They need no kernel, no script and nothing from another URL, so they cost the server almost
nothing. The language is ``?lang=`` if supported, else the best of ``Accept-Language``, else
Spanish (:func:`tutorial.i18n.initial_language`).
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from tutorial.i18n import Translator, initial_language, translator

#: Seconds after which a "full" page asks again (Retry-After, and the page reloads itself).
RETRY_AFTER = 60

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:34rem;margin:12vh auto;padding:0 1.2rem;"
    "color:#1d2b24;background:#f6f3ea;line-height:1.5}"
    "h1{font-size:1.5rem}a{color:#0b5d3b}"
)


def request_language(query: str, accept_language: str | None) -> str:
    """The page language for a request: ``?lang=``, then ``Accept-Language``, then Spanish."""
    environ = {"QUERY_STRING": query}
    if accept_language:
        environ["HTTP_ACCEPT_LANGUAGE"] = accept_language
    return initial_language(environ)


def _page(tr: Translator, title: str, body: str, head: str = "") -> str:
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{tr.language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{head}<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main><h1>{escape(title)}</h1>{body}</main></body></html>\n"
    )


def full_page(language: str, retry_url: str) -> str:
    """The 503 page: the server runs as many lessons as it may; it reloads ``retry_url`` by
    itself after :data:`RETRY_AFTER` seconds."""
    tr = translator(language)
    title = tr.gettext("The explainer is full right now")
    text = tr.gettext(
        "Too many lessons are open on this server at the same time. "
        "Wait a minute: this page tries again by itself."
    )
    return _retrying_page(tr, title, text, retry_url)


def too_many_pages_page(language: str, retry_url: str) -> str:
    """The 503 page for one client address holding as many kernels as it may (many tabs, or
    a school's one address with the server not told about the class)."""
    tr = translator(language)
    title = tr.gettext("Too many pages open from your connection")
    text = tr.gettext(
        "Many pages of the explainer are open from your connection at the same time. "
        "Close the tabs you no longer need: this page tries again by itself in a minute."
    )
    return _retrying_page(tr, title, text, retry_url)


def _retrying_page(tr: Translator, title: str, text: str, retry_url: str) -> str:
    again = tr.gettext("Try again now")
    url = escape(retry_url, quote=True)
    head = f'<meta http-equiv="refresh" content="{RETRY_AFTER};url={url}">'
    body = f'<p>{escape(text)}</p><p><a href="{url}">{escape(again)}</a></p>'
    return _page(tr, title, body, head)


def not_found_page(language: str, index_url: str) -> str:
    """The 404 page, with a link to the index."""
    tr = translator(language)
    title = tr.gettext("Page not found")
    text = tr.gettext("There is no page with this address. The lessons are all on the index.")
    link = tr.gettext("Go to the list of lessons")
    url = escape(index_url, quote=True)
    body = f'<p>{escape(text)}</p><p><a href="{url}">{escape(link)}</a></p>'
    return _page(tr, title, body)


def with_lang(url: str, language: str | None) -> str:
    """``url`` with ``?lang=<language>`` appended (when a language is given)."""
    return f"{url}?{urlencode({'lang': language})}" if language else url
