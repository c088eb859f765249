"""Names that agree (issue 34, item 1; tutorial/people.py).

The seats' names carry their gender and, in Russian, their case forms; a translation declines a
name with ``{player.gen}`` and so on, and a sentence that agrees a verb or an adjective with a
name comes in a variant said of a woman, of a man, and one where nothing agrees
(:func:`tutorial.people.agree`). These tests render every such message with every name in
every language, and scan every translation for a name put where agreement is needed without
either mechanism (the translation review of 2026-12-07, T1, T4 and T5: «как бы ни играл Ана»,
«Перевести на Диана», «Первым из игры выходит {first}»).
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from durak_core import Action, IllegalAction, Reason
from tutorial.babel_extract import AGREE_CONTEXTS
from tutorial.explain import explain
from tutorial.i18n import SUPPORTED_LANGUAGES, Translator, translator
from tutorial.people import (
    GENDER_CONTEXTS,
    KNOWN_NAMES,
    Gender,
    PersonName,
    agree,
    default_name,
    seat_name,
    typed_name,
)

ROOT = Path(__file__).resolve().parent.parent

#: What a Russian speaker writes for each seat name: nominative, then CASES.
RUSSIAN_FORMS = {
    "Ana": ("Ана", "Аны", "Ане", "Ану", "Аной", "Ане"),
    "Bruno": ("Бруно",) * 6,  # a foreign masculine name in -o does not decline
    "Diana": ("Диана", "Дианы", "Диане", "Диану", "Дианой", "Диане"),
    "Elena": ("Елена", "Елены", "Елене", "Елену", "Еленой", "Елене"),
    "Fiodor": ("Фёдор", "Фёдора", "Фёдору", "Фёдора", "Фёдором", "Фёдоре"),
}
GENDERS = {
    "Ana": Gender.FEMININE,
    "Bruno": Gender.MASCULINE,
    "Diana": Gender.FEMININE,
    "Elena": Gender.FEMININE,
    "Fiodor": Gender.MASCULINE,
}

#: Placeholders that hold a player's name (``first`` only in the team-durak explanations).
NAME_FIELDS = frozenset({"player", "partner", "defender", "attacker", "giver"})

#: Words that agree with a woman / a man (Russian past tense, ordinals, short adjectives;
#: Spanish adjectives and nouns of a person), for checking the gendered variants.
FEMININE_WORDS = {
    "ru": {"первой", "последней", "вышла", "сама", "одна", "должна", "готова", "осталась"},
    "es": {"primera", "última", "sola", "lista", "compañera", "jugadora", "obligada"},
}
MASCULINE_WORDS = {
    "ru": {"первым", "последним", "вышел", "сам", "один", "должен", "готов", "остался"},
    "es": {"primero", "último", "solo", "listo", "compañero", "jugador", "obligado"},
}
#: Russian past tense agrees with its subject: «играл» / «играла».
RU_PAST = re.compile(r"\b[а-яё]{2,}(?:л|ла|лся|лась)\b", re.IGNORECASE)
RU_NOT_PAST = {"сначала", "стол", "мала"}
#: Russian prepositions that govern a case: a bare nominative name after one is wrong.
RU_PREPOSITIONS = (
    "на|у|для|к|ко|от|с|со|за|под|о|об|обо|при|без|до|из|по|перед|между|через|про|над|"
    "вместо|кроме|после|против"
)
#: Spanish words that agree with a person (not «solo», which is also the adverb).
ES_AGREEING = re.compile(
    r"\b(?:primer[oa]|últim[oa]|sola|list[oa]|compañer[oa]|obligad[oa]|eliminad[oa]|"
    r"salvad[oa]|ganador[a]?|perdedor[a]?)\b",
    re.IGNORECASE,
)
#: Phrases that agree with no person: the adverb «primero» ("first of all"), and an
#: adjective before the noun it goes with («la primera carta», «su última carta»).
ES_NOT_AGREEING = re.compile(
    r"\bprimero tiene que\b|\b(?:primer[oa]|últim[oa])\s+(?:carta|ronda|partida|jugada|vez)\b"
)


@functools.cache
def _catalog(lang: str) -> Catalog:
    """``lang``'s catalog, read once (the tests only read it)."""
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def _strings(message: Message) -> tuple[str, ...]:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return tuple(str(text) for text in strings)


def _msgid(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _names(tr: Translator) -> list[PersonName]:
    """Every kind of name a seat can have: each known one, a typed one, a default one."""
    return [
        *(seat_name(name, tr) for name in KNOWN_NAMES),
        typed_name("Маша" if tr.language == "ru" else "Marta", tr),
        default_name(2, tr),
    ]


def _render(tr: Translator, message: Message, values: dict[str, object]) -> list[str]:
    """The message in every plural form it has (n = 1, 2, 5), through the translator."""
    if isinstance(message.id, tuple):
        singular, plural = message.id[0], message.id[1]
        if message.context:
            return [tr.npgettext(message.context, singular, plural, n, **values) for n in (1, 2, 5)]
        return [tr.ngettext(singular, plural, n, **values) for n in (1, 2, 5)]
    if message.context:
        return [tr.pgettext(message.context, _msgid(message), **values)]
    return [tr.gettext(_msgid(message), **values)]


def _dummy_values(msgid: str) -> dict[str, object]:
    return {field: 3 if field == "n" else "X" for field in _fields(msgid)}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_name_we_give_a_seat_has_its_gender_and_cases(lang: str) -> None:
    tr = translator(lang)
    assert set(KNOWN_NAMES) == set(RUSSIAN_FORMS)
    for key, gender in GENDERS.items():
        name = seat_name(key, tr)
        assert name.gender is gender, key
        forms = tuple(name.forms().values())
        if lang == "ru":
            assert forms == RUSSIAN_FORMS[key], key
        else:  # no cases: every form is the name
            assert set(forms) == {str(name)}, key
    # Fiodor was missing from the catalogs (shown in Latin letters in Russian)
    assert seat_name("Fiodor", tr) == {"en": "Fyodor", "es": "Fiódor", "ru": "Фёдор"}[lang]


def test_names_nobody_translated_decline_through_a_noun() -> None:
    ru, es = translator("ru"), translator("es")
    masha = typed_name("Маша", ru)
    assert masha == "Маша" and masha.gender is None
    assert masha.forms() == {
        "nom": "Маша",
        "gen": "игрока Маша",
        "dat": "игроку Маша",
        "acc": "игрока Маша",
        "ins": "игроком Маша",
        "pre": "игроке Маша",
    }
    assert set(typed_name("Marta", es).forms().values()) == {"Marta"}
    player = default_name(1, ru)
    assert (player, player.gen, player.ins) == ("Игрок 2", "Игрока 2", "Игроком 2")
    assert player.gender is Gender.MASCULINE  # «Игрок 2», «Jugador 2» are masculine nouns
    with pytest.raises(ValueError, match="5"):
        PersonName("Ана", Gender.FEMININE, ("Аны", "Ане"))


def test_lessons_and_scenarios_name_only_seats_we_know() -> None:
    """A lesson's players are msgids with a known gender and declension; a new name needs a
    row in tutorial.people.KNOWN_NAMES (and its declension in every catalog)."""
    files = [*(ROOT / "tutorial" / "lessons").glob("*.toml")]
    files.append(ROOT / "tutorial" / "lessons" / "house" / "scenarios.toml")
    seen: set[str] = set()
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        tables = [data, *data.get("scenario", [])]
        for table in tables:
            seen.update(name for name in table.get("players", []) if name)
    assert seen and seen <= set(KNOWN_NAMES), seen - set(KNOWN_NAMES)


def test_the_extractor_knows_the_gender_contexts() -> None:
    assert tuple(GENDER_CONTEXTS.values()) == AGREE_CONTEXTS


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_declined_name_renders_in_its_case_for_every_name(lang: str) -> None:
    tr = translator(lang)
    declining = [
        m
        for m in _catalog(lang)
        if m.id and any("." in field for s in _strings(m) for field in _fields(s))
    ]
    if lang == "ru":  # the device of the nominative-only days («у игрока Ана») is gone
        assert len(declining) >= 6
    for message in declining:
        uses = {
            tuple(field.split(".", 1))
            for text in _strings(message)
            for field in _fields(text)
            if "." in field
        }
        for name in _names(tr):
            values = _dummy_values(_msgid(message)) | {field: name for field, _ in uses}
            for text in _render(tr, message, values):
                assert "{" not in text, text
                for _field, case in uses:
                    assert getattr(name, case) in text, (case, name, text)


def _gendered_words(lang: str, text: str) -> tuple[set[str], set[str]]:
    words = set(re.findall(r"\w+", text.lower()))
    feminine = words & FEMININE_WORDS.get(lang, set())
    masculine = words & MASCULINE_WORDS.get(lang, set())
    if lang == "ru":
        for word in RU_PAST.findall(text.lower()):
            if word not in RU_NOT_PAST:
                (feminine if word.endswith(("ла", "лась")) else masculine).add(word)
    return feminine, masculine


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_agreeing_message_agrees_with_every_name(lang: str) -> None:
    tr = translator(lang)
    catalog = _catalog(lang)
    agreeing = {_msgid(m) for m in catalog if m.id and m.context in AGREE_CONTEXTS}
    assert len(agreeing) >= 3  # the team-durak explanations and the partner line
    for msgid in agreeing:
        for context in (None, *AGREE_CONTEXTS):
            assert catalog.get(msgid, context=context) is not None, (msgid, context)
        plain = tr.gettext(msgid, **_dummy_values(msgid))
        feminine, masculine = _gendered_words(lang, plain)
        assert not feminine and not masculine, f"the variant without a gender agrees: {plain}"
        for name in _names(tr):
            values = _dummy_values(msgid) | {
                field: name for field in _fields(msgid) if field in NAME_FIELDS | {"first"}
            }
            text = agree(tr, name, msgid, **values)
            feminine, masculine = _gendered_words(lang, text)
            if name.gender is Gender.FEMININE:
                assert not masculine, (name, text)
            elif name.gender is Gender.MASCULINE:
                assert not feminine, (name, text)
            else:
                assert not feminine and not masculine, (name, text)
    if lang == "ru":
        first = seat_name("Ana", tr), seat_name("Bruno", tr), typed_name("Маша", tr)
        msgid = (
            "You count as the durak: of the players still holding cards, you sit nearest "
            "clockwise after {first}, who went out first."
        )
        starts = [agree(tr, name, msgid, first=name).split(";")[0] for name in first]
        assert starts == [
            "Первой из игры выходит Ана",
            "Первым из игры выходит Бруно",
            "Раньше всех из игры выходит Маша",
        ]


def _name_fields(message: Message) -> set[str]:
    fields = _fields(_msgid(message)) & NAME_FIELDS
    if "{first}" in _msgid(message) and any(
        path.endswith("lesson_view.py") for path, _ in message.locations
    ):
        fields.add("first")
    return fields


def _clauses_with(text: str, field: str) -> list[str]:
    return [c for c in re.split(r"[,;:.—()]", text) if "{" + field + "}" in c]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_no_translation_agrees_with_a_name_outside_the_mechanism(lang: str) -> None:
    """A name in the nominative after a Russian preposition, the old «игрока {player}»
    device, or a word that agrees with the name in its clause, in a message that is not
    one of agree()'s: each needs ``{player.<case>}`` or :func:`~tutorial.people.agree`."""
    problems = []
    for message in _catalog(lang):
        if not message.id or message.context in AGREE_CONTEXTS:
            continue
        catalog_has_variants = message.context is None and any(
            _catalog(lang).get(_msgid(message), context=context) is not None
            for context in AGREE_CONTEXTS
        )
        for field in _name_fields(message):
            for text in _strings(message):
                bare = "{" + field + "}"
                if lang == "ru":
                    if re.search(rf"\b(?:{RU_PREPOSITIONS})\s+«?\{{{field}\}}", text, re.I):
                        problems.append(f"preposition + nominative {bare}: {text}")
                    if re.search(rf"\bигрок[а-я]*\s+\{{{field}\}}", text):
                        problems.append(f"«игрок… {bare}»: write {{{field}.gen}} …: {text}")
                if catalog_has_variants:
                    continue  # the variant without a gender (checked above)
                for clause in _clauses_with(text, field):
                    if lang == "ru":
                        feminine, masculine = _gendered_words("ru", clause)
                        if feminine or masculine:
                            problems.append(f"{feminine | masculine} agree with {bare}: {text}")
                    elif found := ES_AGREEING.findall(ES_NOT_AGREEING.sub("", clause)):
                        problems.append(f"{found} agree with {bare}: {text}")
    assert not problems, "\n".join(problems)


def test_the_guard_catches_what_the_review_found() -> None:
    """The scan's patterns on the review's own examples (T1, T4, T5)."""
    assert _gendered_words("ru", "как бы ни играл {player}")[1] == {"играл"}
    assert _gendered_words("ru", "Первым из игры выходит {first}")[1] == {"первым"}
    assert re.search(rf"\b(?:{RU_PREPOSITIONS})\s+«?\{{partner\}}", "Перевести на {partner}")
    assert ES_AGREEING.search("{first} ha sido la primera en salir")
    assert not ES_AGREEING.search("{player} solo puede echar cartas")
    assert not ES_AGREEING.search(ES_NOT_AGREEING.sub("", "{player} enseña su última carta"))


def test_a_partner_is_declined_in_a_real_refusal() -> None:
    """T4: «Перевести на Диану нельзя», never «на Диана», and through the public function
    with plain names («на игрока Маша»)."""
    ru = translator("ru")
    refusal = IllegalAction(
        Reason.TRANSFER_TO_PARTNER, Action.parse("1:>9C"), seat=1, next_defender=3
    )
    names = [seat_name(n, ru) for n in ("Ana", "Elena", "Bruno", "Diana")]
    assert explain(refusal, ru, players=names, you=1).startswith("Перевести на Диану нельзя")
    assert explain(refusal, ru, players=names, you=0).startswith(
        "Елена не может перевести на Диану:"
    )
    plain = ["Ана", "Лена", "Бруно", "Маша"]
    assert explain(refusal, ru, players=plain, you=0).startswith(
        "Лена не может перевести на игрока Маша:"
    )
