"""Players' names that sentences can agree with: gender and the Russian cases.

A name is a :class:`PersonName`: a ``str`` (its nominative, so it goes anywhere text goes) that
also knows its grammatical gender and its forms in the oblique cases. Messages use them in two
ways, both checked for every name in every language by ``tests/test_person_names.py``:

* **Case**: a translation may write ``{player.gen}``, ``{player.dat}``, ``{player.acc}``,
  ``{player.ins}`` or ``{player.pre}`` where its grammar puts the name in a case:
  «Передай устройство {player.dat}» → «Передай устройство Ане»; ``{player}`` is the nominative.
  The forms of the names we give seats are translations too (msgctxt ``name declension``), and
  a name nobody translated (typed in hot seat, given by a teacher) declines through the noun
  «игрок»: «у игрока Маша», which is right whatever the name.
* **Gender**: a message that agrees a verb or an adjective with a name is looked up with
  :func:`agree`, which picks the variant said of a woman or of a man (msgctxt ``said of a
  woman`` / ``said of a man``), or, when the gender is unknown, the plain msgid, worded so that
  nothing agrees: «Первой из игры выходит Ана», «Первым … Бруно», «Раньше всех … Маша».
  ``tutorial/babel_extract.py`` puts all three variants of each :func:`agree` message in the
  catalog.

English and Spanish translate the declensions with the name itself (no case endings); Spanish
uses the gendered variants where an adjective agrees («la primera en salir»).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from .babel_extract import AGREE_CONTEXTS
from .i18n import N_, Gettext

__all__ = [
    "CASES",
    "GENDER_CONTEXTS",
    "KNOWN_NAMES",
    "Gender",
    "PersonName",
    "agree",
    "as_person",
    "default_name",
    "seat_name",
    "typed_name",
]


class Gender(StrEnum):
    """The grammatical gender a name makes words agree with."""

    FEMININE = "feminine"
    MASCULINE = "masculine"


#: The oblique cases a translation may ask a name for, as attributes: ``{player.gen}``.
CASES: Final = ("gen", "dat", "acc", "ins", "pre")

#: The msgctxt of the variant of an :func:`agree` message said of a woman / of a man (the
#: extractor's list, which writes them into the catalog).
GENDER_CONTEXTS: Final = dict(zip((Gender.FEMININE, Gender.MASCULINE), AGREE_CONTEXTS, strict=True))

#: The names we give seats (msgids, translated like any text) and their gender. Lessons, the
#: play page and the house-rules scenarios use only these (a test checks the lesson files).
KNOWN_NAMES: Final[dict[str, Gender]] = {
    N_("Ana"): Gender.FEMININE,
    N_("Bruno"): Gender.MASCULINE,
    N_("Diana"): Gender.FEMININE,
    N_("Elena"): Gender.FEMININE,
    N_("Fiodor"): Gender.MASCULINE,
}


def _declension(name: str, tr: Gettext) -> str:
    """The translated case forms of one of :data:`KNOWN_NAMES`, joined by "|"."""
    # TRANSLATORS: a player's name in the genitive, dative, accusative, instrumental and
    # prepositional, separated by "|", for sentences that decline it («Аны|Ане|Ану|Аной|Ане»:
    # «у Аны», «передай Ане», «на Ану», «с Аной», «об Ане»). Languages without cases write the
    # name once.
    forms = {
        "Ana": lambda: tr.pgettext("name declension", "Ana"),
        "Bruno": lambda: tr.pgettext("name declension", "Bruno"),
        "Diana": lambda: tr.pgettext("name declension", "Diana"),
        "Elena": lambda: tr.pgettext("name declension", "Elena"),
        "Fiodor": lambda: tr.pgettext("name declension", "Fiodor"),
    }
    return forms[name]()


class PersonName(str):
    """A name in one language: the nominative (the string itself), its gender if known, and
    its forms in :data:`CASES` order (genitive, dative, accusative, instrumental,
    prepositional), read as attributes by format strings.

    >>> ana = PersonName("Ана", Gender.FEMININE, ("Аны", "Ане", "Ану", "Аной", "Ане"))
    >>> "Передай устройство {player.dat}".format(player=ana)
    'Передай устройство Ане'
    """

    gender: Gender | None
    _forms: tuple[str, ...]

    def __new__(
        cls, text: str, gender: Gender | None = None, forms: Sequence[str] = ()
    ) -> PersonName:
        if forms and len(forms) != len(CASES):
            raise ValueError(f"{len(forms)} case forms for {text!r}; expected {len(CASES)}")
        self = super().__new__(cls, text)
        self.gender = gender
        self._forms = tuple(forms) if forms else (text,) * len(CASES)
        return self

    @property
    def gen(self) -> str:
        """Genitive: «у Аны», «у игрока Маша»."""
        return self._forms[0]

    @property
    def dat(self) -> str:
        """Dative: «передай Ане»."""
        return self._forms[1]

    @property
    def acc(self) -> str:
        """Accusative: «перевести на Ану»."""
        return self._forms[2]

    @property
    def ins(self) -> str:
        """Instrumental: «вместе с Аной»."""
        return self._forms[3]

    @property
    def pre(self) -> str:
        """Prepositional: «об Ане»."""
        return self._forms[4]

    def forms(self) -> dict[str, str]:
        """Every form by case, the nominative under ``"nom"``."""
        return {"nom": str(self), **dict(zip(CASES, self._forms, strict=True))}


def _split_forms(text: str, name: str) -> tuple[str, ...]:
    parts = [part.strip() for part in text.split("|")]
    if len(parts) == 1:
        return (parts[0],) * len(CASES)
    if len(parts) != len(CASES) or not all(parts):
        raise ValueError(f"the declension of {name!r} needs {len(CASES)} forms: {text!r}")
    return tuple(parts)


def seat_name(name: str, tr: Gettext) -> PersonName:
    """One of :data:`KNOWN_NAMES` in ``tr``'s language with its gender and case forms; any
    other msgid is translated and then declined like a typed name (:func:`typed_name`)."""
    gender = KNOWN_NAMES.get(name)
    if gender is None:
        return typed_name(tr.gettext(name), tr)
    return PersonName(tr.gettext(name), gender, _split_forms(_declension(name, tr), name))


def typed_name(text: str, tr: Gettext) -> PersonName:
    """A name typed by a person (hot seat, a teacher's table): its gender is unknown, and it
    declines through a noun that does («игрока Маша»), as the translation says."""
    # TRANSLATORS: a name nobody translated (a player typed it) in the genitive, dative,
    # accusative, instrumental and prepositional, separated by "|": Russian declines the noun
    # instead of the name («игрока {name}|игроку {name}|…»). Languages without cases write
    # {name} once.
    forms = tr.pgettext("name declension", "{name}", name=text)
    return PersonName(text, None, _split_forms(forms, "{name}"))


def default_name(seat: int, tr: Gettext) -> PersonName:
    """The name of a seat nobody named, numbered from 1: "Player 2", «Игрок 2» (grammatically
    masculine in Spanish and Russian: «Jugador 2», «Игрок 2»)."""
    number = seat + 1
    # TRANSLATORS: default name of a player without a name; {number} counts from 1.
    text = tr.gettext("Player {number}", number=number)
    # TRANSLATORS: "Player {number}" in the genitive, dative, accusative, instrumental and
    # prepositional, separated by "|" («Игрока {number}|Игроку {number}|…»). Languages
    # without cases write it once.
    forms = tr.pgettext("name declension", "Player {number}", number=number)
    return PersonName(text, Gender.MASCULINE, _split_forms(forms, "Player {number}"))


def as_person(name: str, tr: Gettext) -> PersonName:
    """``name`` itself if it is a :class:`PersonName`, else the text as a typed name: callers
    of the public functions may pass plain names («Маша»), and they decline through «игрок»."""
    return name if isinstance(name, PersonName) else typed_name(name, tr)


def agree(tr: Gettext, name: str, message: str, /, **params: object) -> str:
    """``message`` in the variant that agrees with ``name``'s gender (see the module).

    ``name`` is the one the sentence agrees with; pass it in ``params`` as well if the message
    shows it. A plain ``str`` has no known gender and gets the variant where nothing agrees.
    """
    gender = name.gender if isinstance(name, PersonName) else None
    if gender is None:
        return tr.gettext(message, **params)
    return tr.pgettext(GENDER_CONTEXTS[gender], message, **params)
