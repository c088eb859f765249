"""Translations for the tutorial: one translator per language, switchable at run time.

Every word a learner reads comes from the gettext catalogs under ``locales/``
(``locales/<lang>/LC_MESSAGES/messages.po``; English msgids are the source text). Nothing
here touches the process-global :mod:`gettext` state (no ``install()``): each language is a
:class:`Translator` object, and an :class:`I18n` object holds the *current* one::

    >>> i18n = I18n("es")
    >>> i18n.ngettext("{n} card", "{n} cards", 5)
    '5 cartas'
    >>> i18n.set_language("ru")
    >>> i18n.ngettext("{n} card", "{n} cards", 5)
    '5 карт'

Widgets register ``i18n.on_change(callback)`` and re-render when the language changes.
Placeholders are named, python-brace style (``{card}``); keyword arguments fill them.

Where catalogs come from, in order:

1. a source checkout: ``<repo>/locales/<lang>/LC_MESSAGES/messages.mo`` when it is at least as
   new as the ``.po`` beside it; otherwise the ``.po`` is compiled in memory with Babel (so an
   edited or never-compiled catalog still works, without writing anything);
2. an installed wheel: ``tutorial/locales/<lang>/LC_MESSAGES/messages.mo`` (compiled by the
   build hook, ``hatch_build.py``).

If neither exists, :class:`CatalogNotFoundError` says what to run.
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final, Protocol
from urllib.parse import parse_qs

from babel import Locale, UnknownLocaleError
from babel.lists import format_list as _babel_format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "N_",
    "SUPPORTED_LANGUAGES",
    "CatalogNotFoundError",
    "Gettext",
    "I18n",
    "Translator",
    "format_list",
    "initial_language",
    "language_choices",
    "language_from_query",
    "language_name",
    "locale_dirs",
    "normalize_language",
    "reload_catalogs",
    "translator",
]

#: Languages with a complete catalog, in the order a language menu shows them, the default
#: first. The project's one list: the page's JavaScript gets it from the page bridge
#: (``PageBridge.langs``), the static build from here (``static_site.config.LANGUAGES``).
SUPPORTED_LANGUAGES: Final[tuple[str, ...]] = ("es", "en", "ru")

#: The language used when the page asks for none (or for one we do not have). Spanish: the
#: source rule texts are Spanish and the explainer is first used in Spanish classrooms.
DEFAULT_LANGUAGE: Final = SUPPORTED_LANGUAGES[0]

#: The gettext domain: ``messages.po`` / ``messages.mo``.
DOMAIN: Final = "messages"

_PACKAGE_DIR: Final = Path(__file__).resolve().parent
#: Compiled catalogs inside an installed wheel.
PACKAGE_LOCALES: Final = _PACKAGE_DIR / "locales"
#: The catalogs of a source (or editable) checkout: ``<repo>/locales``.
SOURCE_LOCALES: Final = _PACKAGE_DIR.parent / "locales"


class CatalogNotFoundError(RuntimeError):
    """No catalog (compiled or not) was found for a supported language."""


class Gettext(Protocol):
    """What message functions need: a :class:`Translator` or an :class:`I18n` (current language)."""

    @property
    def language(self) -> str: ...

    def gettext(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...

    def pgettext(self, context: str, message: str, /, **params: object) -> str: ...

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str: ...

    def format_list(self, items: Iterable[str], style: str = "standard") -> str: ...


# --------------------------------------------------------------------------- language codes


def N_(message: str) -> str:
    """Mark ``message`` as a msgid for extraction without translating it: it is translated
    later, when it is shown (e.g. titles kept in data)."""
    return message


def normalize_language(code: str | None) -> str | None:
    """The supported language for ``code`` (``"ru-RU"``, ``"RU"``, ``"es_AR"`` …), or ``None``."""
    if not code:
        return None
    key = code.strip().replace("-", "_").lower()
    if not key:
        return None
    if key in SUPPORTED_LANGUAGES:
        return key
    try:
        language = Locale.parse(key).language
    except (ValueError, TypeError, UnknownLocaleError):
        language = key.split("_", 1)[0]
    return language if language in SUPPORTED_LANGUAGES else None


def language_from_query(query_string: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The language asked for by a page's query string (``"lang=ru&x=1"`` → ``"ru"``).

    Voilà gives the kernel the page's query string as ``os.environ["QUERY_STRING"]``. A leading
    ``?`` is ignored; a missing, empty or unsupported ``lang`` gives ``default``.
    """
    if query_string:
        values = parse_qs(query_string.lstrip("?"), keep_blank_values=False).get("lang", [])
        for value in values:
            found = normalize_language(value)
            if found is not None:
                return found
    return default


def _from_accept_language(header: str) -> str | None:
    """The best supported language of an HTTP ``Accept-Language`` header."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag))
    for _, _, tag in sorted(weighted):
        found = normalize_language(tag)
        if found is not None:
            return found
    return None


def initial_language(environ: Mapping[str, str] | None = None) -> str:
    """The language a new page starts in.

    ``?lang=`` in ``QUERY_STRING`` (Voilà) wins; then ``HTTP_ACCEPT_LANGUAGE`` if the server
    passes it on (Voilà does with ``VoilaConfiguration.http_header_envs``); then
    :data:`DEFAULT_LANGUAGE`.
    """
    env = os.environ if environ is None else environ
    from_query = language_from_query(env.get("QUERY_STRING"), default="")
    if from_query:
        return from_query
    accept = env.get("HTTP_ACCEPT_LANGUAGE")
    if accept:
        found = _from_accept_language(accept)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def _require_language(code: str) -> str:
    found = normalize_language(code)
    if found is None:
        supported = ", ".join(SUPPORTED_LANGUAGES)
        raise ValueError(f"unsupported language {code!r}; supported: {supported}")
    return found


def language_name(code: str, in_language: str | None = None) -> str:
    """The name of language ``code`` in ``in_language`` (default: in itself), from Babel's
    CLDR data: ``language_name("ru", "es") == "ruso"``, ``language_name("es") == "español"``."""
    locale = Locale.parse(code.replace("-", "_"))
    display = Locale.parse((in_language or code).replace("-", "_"))
    name = locale.get_display_name(display)
    return name if name is not None else code


def language_choices() -> list[tuple[str, str]]:
    """``(label, code)`` pairs for a language menu: each language named in itself, capitalized
    as a menu item (``"Español"``, ``"English"``, ``"Русский"``)."""
    choices = []
    for code in SUPPORTED_LANGUAGES:
        name = language_name(code)
        choices.append((name[:1].upper() + name[1:], code))
    return choices


# --------------------------------------------------------------------------- lists


def _starts_with_sound(item: str, sounds: tuple[str, ...], unless: tuple[str, ...] = ()) -> bool:
    word = item.strip().lower()
    return word.startswith(sounds) and not word.startswith(unless)


def _spanish_conjunction(items: Sequence[str], result: str, style: str) -> str:
    """Spanish writes «y» as «e» before an /i/ sound and «o» as «u» before an /o/ sound
    («Ana e Inés», «6 u 8»): CLDR's list patterns do not know that."""
    if len(items) < 2:
        return result
    last = items[-1]
    if style.startswith("or"):
        # «8» (ocho) and «11» (once) start with /o/ when read aloud.
        if _starts_with_sound(last, ("o", "ho", "8", "11")) and result.endswith(f" o {last}"):
            return result[: -len(last) - 3] + f" u {last}"
    elif _starts_with_sound(last, ("i", "hi"), unless=("hia", "hie", "hio", "hiu")) and (
        result.endswith(f" y {last}")
    ):
        return result[: -len(last) - 3] + f" e {last}"
    return result


def format_list(items: Iterable[str], language: str, style: str = "standard") -> str:
    """Join ``items`` the way ``language`` does (Babel/CLDR list patterns).

    ``style="standard"`` is "and" ("8, 10 y J", "8, 10 и В", "8, 10, and J"); ``"or"`` is "or"
    ("8, 10 o J", "8, 10 или В"). Spanish «y»/«o» become «e»/«u» where the next word asks.
    """
    seq = [str(item) for item in items]
    if not seq:
        return ""
    result = _babel_format_list(seq, style=style, locale=language)  # type: ignore[arg-type]
    if language == "es":
        result = _spanish_conjunction(seq, result, style)
    return result


# --------------------------------------------------------------------------- catalogs


def locale_dirs() -> list[Path]:
    """Where catalogs are looked for, most specific first (see the module docstring)."""
    extra = os.environ.get("DURAK_LOCALES_DIR")
    dirs = [Path(extra)] if extra else []
    dirs += [SOURCE_LOCALES, PACKAGE_LOCALES]
    return dirs


def compile_po(po_path: Path, language: str) -> Translations:
    """Compile a ``.po`` file in memory (fuzzy entries left out, as ``pybabel compile`` does)."""
    with po_path.open("rb") as fp:
        catalog = read_po(fp, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def _load_translations(language: str, dirs: Sequence[Path]) -> Translations:
    tried: list[str] = []
    for base in dirs:
        folder = base / language / "LC_MESSAGES"
        po = folder / f"{DOMAIN}.po"
        mo = folder / f"{DOMAIN}.mo"
        if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as fp:
                return Translations(fp, domain=DOMAIN)
        if po.is_file():
            return compile_po(po, language)
        tried.append(str(folder))
    raise CatalogNotFoundError(
        f"no {DOMAIN}.po or {DOMAIN}.mo for language {language!r} in: {', '.join(tried)}. "
        "In a source checkout run script/test (or `pybabel compile`); "
        "an installed wheel must ship tutorial/locales (built by hatch_build.py)."
    )


class Translator:
    """One language: its gettext catalog and its Babel :class:`~babel.Locale`.

    The message functions fill named placeholders from keyword arguments::

        tr.gettext("You lead {card}.", card="8♣")
        tr.ngettext("{n} card", "{n} cards", 5)       # ``n`` is filled in for you
        tr.pgettext("rank symbol", "J")               # "В" in Russian
    """

    __slots__ = ("_translations", "language", "locale")

    def __init__(self, language: str, translations: Translations) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        self._translations = translations

    @classmethod
    def load(cls, language: str, dirs: Sequence[Path] | None = None) -> Translator:
        """Load ``language``'s catalog from ``dirs`` (default :func:`locale_dirs`)."""
        code = _require_language(language)
        return cls(code, _load_translations(code, locale_dirs() if dirs is None else dirs))

    def gettext(self, message: str, /, **params: object) -> str:
        return _fill(self._translations.gettext(message), params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        params.setdefault("n", n)
        return _fill(self._translations.ngettext(singular, plural, n), params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return _fill(str(self._translations.pgettext(context, message)), params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        params.setdefault("n", n)
        return _fill(str(self._translations.npgettext(context, singular, plural, n)), params)

    def format_list(self, items: Iterable[str], style: str = "standard") -> str:
        return format_list(items, self.language, style)

    def language_name(self, code: str) -> str:
        """The name of language ``code`` in this translator's language."""
        return language_name(code, self.language)

    def __repr__(self) -> str:
        return f"<Translator {self.language}>"


#: A name in a case, ``{player.gen}`` (see :mod:`tutorial.people`).
_NAME_IN_A_CASE: Final = re.compile(r"\{([a-z_]+)\.(?:gen|dat|acc|ins|pre)\}")

#: Set (to anything) to make a name in a case that was given as plain text an error, as the
#: test suite does; otherwise the sentence shows the name as it was given.
STRICT_ENV: Final = "DURAK_STRICT_MESSAGES"


def _fill(text: str, params: Mapping[str, object]) -> str:
    if not params:
        return text
    try:
        return text.format(**params)
    except AttributeError:
        # a translation declines a name ({player.gen}) that came as plain text, not as a
        # tutorial.people.PersonName: a caller's slip, so a sentence with the name undeclined
        # beats no sentence at all (the tests make it an error)
        if os.environ.get(STRICT_ENV) or not _NAME_IN_A_CASE.search(text):
            raise
        return _NAME_IN_A_CASE.sub(r"{\1}", text).format(**params)


_CACHE: dict[str, Translator] = {}
_CACHE_LOCK = threading.Lock()


def translator(language: str) -> Translator:
    """The (cached) :class:`Translator` for a supported language."""
    code = _require_language(language)
    with _CACHE_LOCK:
        found = _CACHE.get(code)
        if found is None:
            found = _CACHE[code] = Translator.load(code)
        return found


def reload_catalogs() -> None:
    """Forget cached translators (after editing or recompiling a catalog)."""
    with _CACHE_LOCK:
        _CACHE.clear()


# --------------------------------------------------------------------------- current language

LanguageCallback = Callable[[str], object]


class I18n:
    """The current language of one page (one Voilà kernel): switchable while a lesson is open.

    It has the same message functions as :class:`Translator`, always in the current language,
    so explanations built with it follow a switch. ``set_language`` calls every callback
    registered with :meth:`on_change` with the new code, so widgets can re-render.
    """

    def __init__(
        self,
        language: str | None = None,
        *,
        load: Callable[[str], Translator] = translator,
    ) -> None:
        self._load = load
        self._callbacks: list[LanguageCallback] = []
        code = _require_language(language) if language else initial_language()
        self._translator = load(code)

    @property
    def language(self) -> str:
        return self._translator.language

    @property
    def translator(self) -> Translator:
        return self._translator

    @property
    def locale(self) -> Locale:
        return self._translator.locale

    def set_language(self, language: str) -> None:
        """Switch to ``language`` and notify the callbacks (not when it is already current).

        Raises :class:`ValueError` for an unsupported language, leaving the current one.
        Every callback runs even if one fails; the failures are raised afterwards.
        """
        code = _require_language(language)
        if code == self.language:
            return
        self._translator = self._load(code)
        errors: list[Exception] = []
        for callback in list(self._callbacks):
            try:
                callback(code)
            except Exception as exc:
                errors.append(exc)
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise ExceptionGroup("language-change callbacks failed", errors)

    def on_change(self, callback: LanguageCallback) -> Callable[[], None]:
        """Call ``callback(new_language)`` after each switch; returns an unregister function."""
        self._callbacks.append(callback)

        def unregister() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unregister

    def gettext(self, message: str, /, **params: object) -> str:
        return self._translator.gettext(message, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self._translator.ngettext(singular, plural, n, **params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        return self._translator.pgettext(context, message, **params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        return self._translator.npgettext(context, singular, plural, n, **params)

    def format_list(self, items: Iterable[str], style: str = "standard") -> str:
        return self._translator.format_list(items, style)

    def language_name(self, code: str) -> str:
        return self._translator.language_name(code)

    def __repr__(self) -> str:
        return f"<I18n {self.language}>"
