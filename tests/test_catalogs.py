"""Translation gates on the committed catalogs (locales/<lang>/LC_MESSAGES/messages.po).

script/test also runs ``pybabel update --check`` and GNU ``msgfmt -c``; these tests check what
those tools do not: completeness, placeholders, plural counts, and that es/ru are real
translations. They also build the wheel's compiled catalogs through the hatch build hook.
"""

from __future__ import annotations

import gettext
import re
import shutil
import string
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po

from tutorial.i18n import SUPPORTED_LANGUAGES, Translator
from tutorial.people import CASES

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"

#: nplurals each catalog must declare. Spanish uses GNU gettext's two forms; CLDR's extra
#: "many" form (for multiples of a million) never occurs with cards (see locales/GLOSSARY.md).
NPLURALS = {"en": 2, "es": 2, "ru": 3}

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _catalog(lang: str) -> Catalog:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def _messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _fields(text: str) -> list[str | None]:
    return [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]


def _template_keys() -> set[tuple[str, str | None]]:
    """Extract the messages now, with the mapping of pyproject.toml (as pybabel does)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["babel"]
    method_map = [(m["pattern"], m["method"]) for m in config["mappings"]]
    settings = config["extract_messages"]
    # extra keywords (e.g. "fail:2 LessonError:2") add to Babel's defaults, as in pybabel
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(settings.get("keywords", "").split())}
    keys = set()
    for path in settings["input-paths"]:
        found = extract_from_dir(str(ROOT / path), method_map, keywords=keywords)
        for _, _, message, _, context in found:
            msgid = message[0] if isinstance(message, tuple) else message
            keys.add((msgid, context))
    return keys


def test_every_supported_language_has_a_catalog() -> None:
    found = sorted(p.parent.parent.name for p in LOCALES.glob("*/LC_MESSAGES/messages.po"))
    assert found == sorted(SUPPORTED_LANGUAGES)
    ignored = (LOCALES / ".gitignore").read_text(encoding="utf-8").split()
    assert "*.pot" in ignored  # the template is regenerated, never committed


def test_compiled_catalogs_are_not_committed() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(
        ["git", "ls-files", "locales"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert not [p for p in tracked if p.endswith((".mo", ".pot"))]


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_header(lang: str) -> None:
    catalog = _catalog(lang)
    assert not catalog.fuzzy, "the header is marked fuzzy: pybabel compile would skip it"
    assert str(catalog.locale) == lang
    headers = dict(catalog.mime_headers)
    assert headers["Language"] == lang
    assert "charset=utf-8" in headers["Content-Type"].lower()
    assert catalog.num_plurals == NPLURALS[lang]
    for default in ("FULL NAME", "LANGUAGE <LL@li.org>", "YEAR-MO-DA"):
        assert default not in headers.get("Last-Translator", "") + headers.get(
            "Language-Team", ""
        ) + headers.get("PO-Revision-Date", "")


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("ru", {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 111: 2, 101: 0}),
        ("es", {0: 1, 1: 0, 2: 1, 21: 1, 1000000: 1}),
        ("en", {0: 1, 1: 0, 2: 1}),
    ],
)
def test_plural_rule(lang: str, forms: dict[int, int]) -> None:
    rule = gettext.c2py(_catalog(lang).plural_expr)
    assert {n: rule(n) for n in forms} == forms


def test_russian_plural_forms_at_run_time() -> None:
    translator = Translator.load("ru")
    forms = {n: translator.ngettext("{n} card", "{n} cards", n) for n in (1, 2, 5, 11, 21, 22)}
    assert forms == {
        1: "1 карта",
        2: "2 карты",
        5: "5 карт",
        11: "11 карт",
        21: "21 карта",
        22: "22 карты",
    }


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_catalog_matches_the_code_and_lessons(lang: str) -> None:
    expected = _template_keys()
    catalog = _catalog(lang)
    present = {
        (m.id[0] if isinstance(m.id, tuple) else m.id, m.context) for m in _messages(catalog)
    }
    missing = expected - present
    extra = present - expected
    hint = "run `pybabel extract && pybabel update` (see locales/README.md)"
    assert not missing, f"{lang}: not in the catalog: {sorted(missing)[:5]}; {hint}"
    assert not extra, f"{lang}: no longer in the code: {sorted(extra)[:5]}; {hint}"
    assert not catalog.obsolete, f"{lang}: obsolete entries; {hint}"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_complete_no_fuzzy_right_plural_count(lang: str) -> None:
    catalog = _catalog(lang)
    problems = []
    for message in _messages(catalog):
        name = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.fuzzy:
            problems.append(f"fuzzy: {name!r}")
        if isinstance(message.id, tuple):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if len(strings) != catalog.num_plurals:
                problems.append(f"{len(strings)} plural forms, not {catalog.num_plurals}: {name!r}")
        else:
            strings = (message.string,)
        if not all(isinstance(s, str) and s.strip() for s in strings):
            problems.append(f"untranslated: {name!r}")
    assert not problems, f"{lang}: " + "; ".join(problems)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_placeholders_are_named_and_identical(lang: str) -> None:
    problems = []
    for message in _messages(_catalog(lang)):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = sorted(set(_fields(ids[0])))
        for msgid in ids:
            fields = _fields(msgid)
            if any(not f or f.isdigit() for f in fields):
                problems.append(f"positional placeholder in {msgid!r}")
            if sorted(set(fields)) != wanted:
                problems.append(f"singular and plural differ: {msgid!r}")
            if "python-format" in message.flags:
                problems.append(f"%-format in {msgid!r}: use named {{braces}}")
        for text in strings:
            try:
                fields = _fields(text)
            except ValueError as exc:
                problems.append(f"broken braces in {text!r}: {exc}")
                continue
            # a translation may put a name in a case: {player.gen} (tutorial/people.py)
            for field in fields:
                if field and "." in field and field.split(".", 1)[1] not in CASES:
                    problems.append(f"{field!r} is not a name in a case {CASES} in {text!r}")
            fields = [f.split(".", 1)[0] if f else f for f in fields]
            if sorted(set(fields)) != wanted:
                problems.append(f"{wanted} expected in {text!r}")
    assert not problems, f"{lang}: " + "; ".join(problems)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_babel_catalog_check(lang: str) -> None:
    errors = [(m.id, errs) for m, errs in _catalog(lang).check()]
    assert not errors


# Messages whose translation may look like the English: symbols, formats, loanwords.
SAME_AS_ENGLISH = {
    "{first} {second}",
    "J",
    "Q",
    "K",
    "A",
    "Durak",
}


def _lesson_player_names() -> set[str]:
    """Names of the lessons' players: msgids too (Russian spells them in Cyrillic), but
    Spanish writes them as English does."""
    names: set[str] = set()
    for path in (ROOT / "tutorial" / "lessons").glob("*.toml"):
        players = tomllib.loads(path.read_text(encoding="utf-8")).get("players", [])
        names.update(name for name in players if isinstance(name, str) and name)
    return names


# ("{name}" is the declension of a typed name: Spanish has no cases to add)
SPANISH_SAME = (
    SAME_AS_ENGLISH | {"{rank} of {suit}", "{option}: {value}.", "{name}"} | _lesson_player_names()
)
RUSSIAN_WITHOUT_CYRILLIC = {"{first} {second}", "{rank} of {suit}", "{option}: {value}.", "{move}"}
BRANDS = ("wikiHow", "Matsuri", "Wikipedia", "Dáme Karty", "Durak Live")


def test_spanish_is_a_real_translation() -> None:
    copied = [
        m.id
        for m in _messages(_catalog("es"))
        if not isinstance(m.id, tuple) and m.string == m.id and m.id not in SPANISH_SAME
    ]
    assert not copied, f"Spanish msgstr equal to the English msgid: {copied}"


def test_russian_is_a_real_translation() -> None:
    problems = []
    for message in _messages(_catalog("ru")):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if ids[0] in RUSSIAN_WITHOUT_CYRILLIC:
            continue
        for text in strings:
            if not CYRILLIC.search(text):
                problems.append(text)
            # Latin words left over (placeholders and the sources' brand names, which stay in
            # Latin script: GLOSSARY.md, stripped) mean an untranslated fragment.
            bare = re.sub(r"\{[a-z_]+(\.[a-z]+)?\}", "", text)
            for brand in BRANDS:
                bare = bare.replace(brand, "")
            leftover = LATIN_WORD.findall(bare)
            if leftover:
                problems.append(f"{text} ({leftover})")
    assert not problems, problems


def test_english_catalog_is_filled_in() -> None:
    for message in _messages(_catalog("en")):
        if isinstance(message.id, tuple):
            singular, plural = message.string
            assert singular and plural and singular != plural, message.id


def test_learner_is_addressed_informally() -> None:
    """tú and ты, never usted/вы (a friendly tutor)."""
    for message in _messages(_catalog("es")):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert not re.search(r"\busted(es)?\b", text, re.IGNORECASE), text
    for message in _messages(_catalog("ru")):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            # «меняетесь» with «ты и Ана» is a plural, not a polite «вы»
            assert not re.search(r"\b(вы|вас|вам|ваш\w*)\b", text, re.IGNORECASE), text


# ------------------------------------------------------------------------------ wheel build hook


def _hook(module: Any) -> Any:
    return module.CatalogBuildHook(str(ROOT), {}, None, None, str(ROOT / "dist"), "wheel")


def test_build_hook_compiles_catalogs_into_the_wheel(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    import hatch_build

    hook = _hook(hatch_build)
    build_data: dict[str, dict[str, str]] = {"force_include": {}}
    hook.initialize("standard", build_data)
    try:
        included = build_data["force_include"]
        assert sorted(included.values()) == [
            f"tutorial/locales/{lang}/LC_MESSAGES/messages.mo"
            for lang in sorted(SUPPORTED_LANGUAGES)
        ]
        # lay them out as the wheel does and load them as an installed package would
        for source, relative in included.items():
            target = tmp_path / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(Path(source).read_bytes())
        ru = Translator.load("ru", [tmp_path / "tutorial" / "locales"])
        assert ru.pgettext("term", "Trump") == "Козырь"
        assert ru.ngettext("{n} card", "{n} cards", 5) == "5 карт"
    finally:
        hook.finalize("standard", build_data, "")
    assert not any(Path(source).exists() for source in build_data["force_include"])


def test_build_hook_leaves_editable_installs_alone() -> None:
    pytest.importorskip("hatchling")
    import hatch_build

    hook = _hook(hatch_build)
    build_data: dict[str, dict[str, str]] = {"force_include": {}}
    hook.initialize("editable", build_data)
    assert build_data["force_include"] == {}
