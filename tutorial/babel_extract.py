"""Babel extractors: lesson data files (``tutorial/lessons/*.toml``), and Python with the
gendered variants of :func:`tutorial.people.agree` (:func:`extract_python`, at the end).

Lesson text is extracted like strings in code, so ``pybabel extract`` puts it in the catalog
and the lesson loader translates it with ``gettext(text)``. Every string value under one of
:data:`TEXT_KEYS`, anywhere in the document (top level, tables, arrays of tables, inline
tables), is a message; a key's value may be a string or a list of strings. A sibling key
``comment`` in the same table becomes the translators' comment. There is no msgctxt.

Registered in ``pyproject.toml`` as the entry point ``durak_lessons`` of the group
``babel.extractors`` and mapped with::

    [[tool.babel.mappings]]
    method = "durak_lessons"
    pattern = "lessons/**.toml"
    # keys = "title say"   # optional: replace the default keys

The signature is Babel's: ``(fileobj, keywords, comment_tags, options)`` yielding
``(lineno, funcname, message, comments)``; ``funcname`` is ``None`` so each message is taken
whole, without a keyword spec.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any, Final

__all__ = ["AGREE_CONTEXTS", "COMMENT_KEY", "TEXT_KEYS", "extract_lessons", "extract_python"]

#: Keys whose string values are lesson text for the learner (``players`` holds the names of the
#: other seats, which are spelled in each language's alphabet: «Ана» in Russian).
TEXT_KEYS: Final[tuple[str, ...]] = (
    "title",
    "summary",
    "say",
    "hint",
    "explain",
    "question",
    "label",
    "note",
    "wrong",
    "teaches",
    "players",
)

#: A sibling key whose value is a comment for translators.
COMMENT_KEY: Final = "comment"

_Result = tuple[int, str | None, str, list[str]]


def _keys_option(options: Mapping[str, Any]) -> frozenset[str]:
    value = options.get("keys")
    if not value:
        return frozenset(TEXT_KEYS)
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    return frozenset(str(item) for item in items)


class _LineFinder:
    """Finds the line where ``key = …`` is written, moving forward through the file.

    ``tomllib`` keeps no positions, but it keeps document order, so searching on from the
    previous hit, never reusing a (line, key) pair, finds the right line for repeated keys
    (``say`` in each ``[[steps]]``) and for several keys on one line (inline tables).
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.cursor = 0
        self.used: set[tuple[int, str]] = set()

    def find(self, key: str) -> int:
        name = re.escape(key)
        pattern = re.compile(rf"(^|[{{,\s])(\"{name}\"|'{name}'|{name})\s*=")
        for start in (self.cursor, 0):
            for index in range(start, len(self.lines)):
                if (index, key) not in self.used and pattern.search(self.lines[index]):
                    self.used.add((index, key))
                    self.cursor = index
                    return index + 1
        return self.cursor + 1


def _walk(node: Any, keys: frozenset[str], lines: _LineFinder) -> Iterator[_Result]:
    if isinstance(node, dict):
        comment = node.get(COMMENT_KEY)
        comments = [comment.strip()] if isinstance(comment, str) and comment.strip() else []
        for key, value in node.items():
            if key in keys and isinstance(value, str | list):
                lineno = lines.find(key)
                texts = [value] if isinstance(value, str) else value
                for item in texts:
                    if isinstance(item, str):
                        if item.strip():
                            yield (lineno, None, item, list(comments))
                    else:
                        yield from _walk(item, keys, lines)
            elif isinstance(value, dict | list):
                yield from _walk(value, keys, lines)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, keys, lines)


def extract_lessons(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[_Result]:
    """Extract lesson text from a TOML lesson file (see the module docstring)."""
    raw = fileobj.read()
    encoding = str(options.get("encoding", "utf-8"))
    text = raw.decode(encoding) if isinstance(raw, bytes) else str(raw)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        name = getattr(fileobj, "name", "<lesson file>")
        raise ValueError(f"{name}: not valid TOML: {exc}") from exc
    yield from _walk(document, _keys_option(options), _LineFinder(text))


#: The msgctxt of the variants of a message passed to ``tutorial.people.agree``: said of a
#: woman, of a man (``tutorial.people.GENDER_CONTEXTS`` reads them here; this module imports
#: nothing of ours, so that pybabel can load it on its own).
AGREE_CONTEXTS: Final = ("said of a woman", "said of a man")


def extract_python(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, Any, list[str]]]:
    """Babel's Python extractor, plus the gendered variants of :func:`tutorial.people.agree`.

    A call ``agree(tr, name, "msgid", …)`` (keyword spec ``agree:3``) stands for three entries:
    the plain msgid (the name's gender unknown: nothing may agree) and the same msgid under each
    of :data:`AGREE_CONTEXTS`, yielded as ``pgettext`` calls so that Babel's own keyword spec
    for ``pgettext`` reads them.
    """
    from babel.messages.extract import extract_python as babel_extract_python

    # Babel annotates its results as (lineno, message, comments, context), but its extractors
    # yield (lineno, funcname, messages, comments), as its method API documents.
    results: Iterator[Any] = babel_extract_python(
        fileobj,
        keywords,
        comment_tags,
        options,  # type: ignore[arg-type]
    )
    for lineno, funcname, messages, comments in results:
        yield lineno, funcname, messages, comments
        if funcname == "agree" and isinstance(messages, tuple) and len(messages) >= 3:
            msgid = messages[2]
            if isinstance(msgid, str):
                for context in AGREE_CONTEXTS:
                    yield lineno, "pgettext", (context, msgid), list(comments)
