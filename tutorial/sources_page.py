"""The sources page: the five documents the rules come from (S0–S4), what each one is and
adds, where they disagree, and which rule set (preset) follows which.

Every source has an anchor (``#s0`` … ``#s4``) so other text can link to it:
:func:`source_href` and :func:`source_link` build such links (a ``data-durak-page`` link, which
``bridge.js`` points at the ``.ipynb`` or ``.html`` page of the site the learner is on).
A notebook shows the page with ``page("sources")`` (:mod:`tutorial.pages`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import anywidget
from traitlets import Unicode

from durak_core import PRESETS, Card

from .assets import MODULE_LOADER, file_trait
from .bridge import PageBridge
from .i18n import N_, Gettext
from .lessons import load_lessons
from .names import (
    SOURCES,
    Term,
    card_short,
    preset_description,
    preset_name,
    source_name,
    term,
)
from .page import BridgedPage, escape, title_html

__all__ = [
    "PAGE",
    "SourcesApp",
    "SourcesView",
    "lesson_link",
    "page_link",
    "source_anchor",
    "source_href",
    "source_link",
    "source_presets",
]


PAGE: Final = "sources"
"""This page's name in :data:`tutorial.pages.PAGES` (``notebooks/sources.ipynb``)."""


# --------------------------------------------------------------------------- links


def source_anchor(code: str) -> str:
    """The anchor of a source on this page: ``"s4"`` for ``"S4"``."""
    return code.lower()


def source_href(code: str, language: str) -> str:
    """``sources.ipynb?lang=ru#s4``: the sources page at source ``code``."""
    return f"{PAGE}.ipynb?lang={language}#{source_anchor(code)}"


def page_link(page: str, text: str, language: str, *, anchor: str = "", title: str = "") -> str:
    """An ``<a>`` to another page of the site (``text`` and ``title`` are escaped here)."""
    href = f"{page}.ipynb?lang={language}" + (f"#{anchor}" if anchor else "")
    title_attr = f" title='{escape(title)}'" if title else ""
    return (
        f"<a href='{escape(href)}' data-durak-page='{escape(page)}'{title_attr}>{escape(text)}</a>"
    )


def source_link(code: str, tr: Gettext) -> str:
    """The source's name as a link to its place on the sources page (HTML)."""
    return page_link(PAGE, source_name(code, tr), tr.language, anchor=source_anchor(code))


def source_presets(code: str) -> list[str]:
    """The presets that follow source ``code``, in :data:`~durak_core.PRESETS` order."""
    return [name for name, preset in PRESETS.items() if code in preset.sources]


@cache
def _lesson_pages() -> dict[str, tuple[int, str, str]]:
    """Lesson id -> (order, title msgid, page name), read once per kernel."""
    return {
        lesson.id: (lesson.order, lesson.title, Path(lesson.source).stem)
        for lesson in load_lessons()
    }


def lesson_link(lesson_id: str, tr: Gettext) -> str:
    """ "Lesson 9: Who may add cards…" as a link to that lesson ("" for an unknown id)."""
    found = _lesson_pages().get(lesson_id)
    if found is None:
        return ""
    order, title, page = found
    # TRANSLATORS: a link to a lesson: "Lesson 9: Who may add cards".
    text = tr.gettext("Lesson {n}: {title}", n=order, title=tr.gettext(title))
    return page_link(page, text, tr.language)


def _html(tr: Gettext, message: str, **params: str) -> str:
    """``message`` translated and escaped, with ``params`` (already HTML) filled in."""
    text = escape(tr.gettext(message))
    return text.format(**params) if params else text


# --------------------------------------------------------------------------- content


@dataclass(frozen=True, slots=True)
class _Source:
    code: str
    kind: str
    gives: str
    caution: str = ""
    corrected_in: tuple[str, ...] = ()


_SOURCES: Final = (
    _Source(
        "S0",
        N_(
            "A step-by-step guide from {source} to playing at home, full of optional house "
            "rules, with footnotes to its own sources."
        ),
        N_(
            "The game as it is played around a kitchen table: seating, dealing, teams, who "
            "attacks first and who next. It is the only source that lets the holder of the "
            "lowest trump swap it for the turned-up card, and it makes several rules optional: "
            "five cards in the first bout with four or more players, only the defender's two "
            "neighbours attacking with five or six players, and adding cards after a take. "
            "Its attacker keeps adding cards until he passes; only then may the others add."
        ),
        N_(
            "Many of its rules are options, so “the {source} rule” can mean two things: the "
            "lessons always say which option they use. The text was copied from the web with "
            "some points repeated, and its explanations of the Russian sayings it quotes are "
            "wrong."
        ),
    ),
    _Source(
        "S1",
        N_("The rules page of {source}, a free online Durak game for two to four players."),
        N_(
            "A short, clear statement of the classic rules as an online game plays them: "
            "cards are added once everything on the table is beaten, the attacker first, then "
            "the others starting from the defender's left; at most six attack cards, and never "
            "more than the defender held when the bout began; cards may still be added after "
            "a take; the attacker draws first and the defender last; and when the last two "
            "players run out of cards together, it is a draw with no durak. It offers "
            "perevodnoy as a switch."
        ),
    ),
    _Source(
        "S2",
        N_(
            "An old version of the English {source} article on Durak, machine-translated "
            "into Spanish."
        ),
        N_(
            "The widest view of the whole family of games: perevodnoy, “Flash”, playing in "
            "pairs, the “epaulettes”, and the misdeal, a new deal when a hand is too one-sided. "
            "It is the only source in which anyone may add cards at any moment, even while "
            "cards are still unbeaten, and it applies the limit of six to the unbeaten cards "
            "only."
        ),
        N_(
            "Read it with care: the machine translation mangles words. It says “{game}” (game) "
            "where the original means suit, and “{right}” (to the right) where it means "
            "clockwise; play goes to the left in every source. Its misdeal rule (a new deal for a "
            "hand all red, all black, or with four cards of one suit) would throw away between a "
            "fifth and almost half of all deals, depending on the number of players; other "
            "sources say five cards of one suit."
        ),
    ),
    _Source(
        "S3",
        N_(
            "The rules page of {source}, a card-games website, describing exactly what its "
            "online game does."
        ),
        N_(
            "Precise, numbered rules: cards are added one at a time, and after each new card "
            "the original attacker has priority again; with five or six players still in, only "
            "the defender's two neighbours add cards; defence cards do not count towards the "
            "six; if nobody holds a trump, a random player starts. It rules out perevodnoy and "
            "the trump swap. Its example opens lesson 1: with spades as trumps, {a} or {b} "
            "beats {c}."
        ),
    ),
    _Source(
        "S4",
        N_(
            "{source}'s guide to classic Durak (podkidnoy): who adds cards, when, and with "
            "which ranks."
        ),
        N_(
            "The best explanation of how a bout grows: defence cards open ranks too. Its own "
            "rules: five attack cards while the discard pile is empty, six once any bout has "
            "been beaten off; a table setting, “Vecinos” or “Todos”, for who may add cards; "
            "and the draw order when the stock runs low. It ends with five typical mistakes "
            "that are well worth reading."
        ),
        N_(
            "Its examples contain mistakes of their own, which the lessons correct. Example 1 "
            "beats with {four}, a card that is not in a 36-card deck (the lesson uses {seven}), "
            "and the {jack} added in it is allowed only under “Todos”. Example 2 says a card "
            "cannot be added although every rule, {source}'s own included, allows it. And "
            "with five or six players it counts one player too many as tied to the first "
            "card's rank."
        ),
        ("growing-round", "hand-cap"),
    ),
)


@dataclass(frozen=True, slots=True)
class _Answer:
    text: str
    sources: tuple[tuple[str, str], ...]
    """(source code, qualifier msgid or "")."""


@dataclass(frozen=True, slots=True)
class _Topic:
    anchor: str
    question: str
    answers: tuple[_Answer, ...]
    lesson: str = ""


_OPTION = N_("as an option")
_TODOS = N_("with “Todos”")
_VECINOS = N_("with “Vecinos”")

_TOPICS: Final = (
    _Topic(
        "who-adds",
        N_("Who may add cards?"),
        (
            _Answer(
                N_("Everyone except the defender"),
                (("S1", ""), ("S2", ""), ("S4", _TODOS)),
            ),
            _Answer(
                N_("With five or six players, only the defender's two neighbours"),
                (("S3", ""), ("S0", _OPTION)),
            ),
            _Answer(
                N_(
                    "Everyone, but only the attacker and the next defender add any rank on the "
                    "table; the others add only the rank of the first attack card"
                ),
                (("S4", _VECINOS),),
            ),
        ),
        "who-throws-in",
    ),
    _Topic(
        "order",
        N_("In what order, and when?"),
        (
            _Answer(
                N_(
                    "Once everything is beaten: the attacker first, then the others from the "
                    "defender's left"
                ),
                (("S1", ""),),
            ),
            _Answer(
                N_("One card at a time; after each new card the attacker has priority again"),
                (("S3", ""),),
            ),
            _Answer(N_("The attacker until he passes, then the others"), (("S0", ""),)),
            _Answer(
                N_("Anyone, at any moment, even while cards are still unbeaten"),
                (("S2", ""),),
            ),
        ),
    ),
    _Topic(
        "how-many",
        N_("How many attack cards may a bout have?"),
        (
            _Answer(
                N_("Six at most, and never more than the defender held when the bout began"),
                (("S1", ""), ("S3", "")),
            ),
            _Answer(
                N_(
                    "Six unbeaten cards at most, and never more than the defender holds now "
                    "(which limits the attack by his hand just the same)"
                ),
                (("S2", ""),),
            ),
            _Answer(
                N_("Five while the discard pile is empty, six once a bout has been beaten off"),
                (("S4", ""),),
            ),
            _Answer(
                N_("Five in the game's first bout with four or more players"),
                (("S0", _OPTION),),
            ),
        ),
        "hand-cap",
    ),
    _Topic(
        "after-take",
        N_("May cards still be added when the defender takes?"),
        (
            _Answer(N_("Yes"), (("S1", ""), ("S2", ""), ("S3", ""))),
            _Answer(N_("Only if the players agree to it"), (("S0", ""),)),
            _Answer(N_("The source does not say; the explainer assumes it may"), (("S4", ""),)),
        ),
        "after-take",
    ),
    _Topic(
        "transfer",
        N_("May the defender pass the attack on (perevodnoy)?"),
        (
            _Answer(N_("Yes, as a variant you switch on"), (("S1", ""), ("S2", ""))),
            _Answer(N_("Only in a separate game"), (("S4", ""),)),
            _Answer(N_("Not played"), (("S3", ""),)),
        ),
        "transfer",
    ),
    _Topic(
        "swap",
        N_("May the lowest trump be swapped for the turned-up card?"),
        (
            _Answer(
                N_("Yes, as a house rule; or only when the ace is turned up; or not at all"),
                (("S0", ""),),
            ),
            _Answer(N_("Not allowed"), (("S3", ""),)),
        ),
        "trump-swap",
    ),
    _Topic(
        "next-attacker",
        N_("Who attacks next when the defender beats everything and goes out?"),
        (
            _Answer(N_("The next player still in the game"), (("S3", ""),)),
            _Answer(N_("The same attacker again"), (("S0", ""),)),
        ),
        "endgame",
    ),
)

_AGREE: Final = (
    N_("A 36-card deck, from six to ace; six cards each, and the card turned up sets trumps."),
    N_("The lowest trump leads the first bout, and play goes clockwise, to the left."),
    N_(
        "A card is beaten by a higher one of its suit or by any trump; a trump only by a "
        "higher trump."
    ),
    N_("Cards are added only in ranks already on the table, attack or defence cards alike."),
    N_(
        "A defender who beats everything attacks next; one who takes picks up the whole table "
        "and loses his turn."
    ),
    N_(
        "When the stock is gone, players with no cards are out, and the last one left is the durak."
    ),
)


# --------------------------------------------------------------------------- widget


class SourcesView(anywidget.AnyWidget):  # type: ignore[misc,unused-ignore]
    """The page's content (HTML built here); the browser scrolls to ``#s4`` once it shows."""

    _esm = MODULE_LOADER
    _module = file_trait("sources.js")
    _style = file_trait("sources.css")
    html = Unicode("").tag(sync=True)


class SourcesApp(BridgedPage):
    """The sources page."""

    def __init__(self, language: str | None = None, *, bridge: PageBridge | None = None) -> None:
        self._start_page(language, bridge)
        self.content = SourcesView()
        self._build_page(self.content, classes=["durak-sources-page"])
        self.render()
        self._finish_page()

    def page_title(self) -> str:
        return self.i18n.gettext("Where the rules come from")

    def render(self) -> None:
        tr = self.i18n
        title = tr.gettext("Where the rules come from")
        subtitle = tr.gettext("Five documents: what each one adds, and where they disagree.")
        self.heading.value = title_html(title, subtitle)
        self.language.description = term(Term.LANGUAGE, tr)
        self.content.html = render_sources(tr)


def render_sources(tr: Gettext) -> str:
    """The page's content as HTML, in ``tr``'s language."""
    lang = tr.language
    nav = (
        "<nav class='durak-src-nav'>"
        + page_link("index", "← " + tr.gettext("All lessons"), lang)
        + page_link("house-rules", tr.gettext("House rules"), lang)
        + "</nav>"
    )
    intro = _html(
        tr,
        N_(
            "Durak has no official rulebook: families, clubs and game sites each play it their own "
            "way. This explainer is built on five documents about the game, all of them in "
            "Spanish. They agree on the heart of the game and part ways on the details. Wherever "
            "they do, the explainer turns the point into a rule you can switch, and the lessons "
            "say whose rule they follow."
        ),
    )
    codes = _html(
        tr,
        N_("In the project's notes they are cited by short codes, {first} to {last}:"),
        first=SOURCES[0],
        last=SOURCES[-1],
    )
    chips = "".join(
        f"<li><a href='#{source_anchor(code)}'><span class='durak-src-code'>{code}</span> "
        f"{escape(source_name(code, tr))}</a></li>"
        for code in SOURCES
    )
    parts = [
        nav,
        f"<p class='durak-src-lead'>{intro}</p>",
        f"<p>{codes}</p><ul class='durak-src-chips'>{chips}</ul>",
        "<div class='durak-src-cards'>",
        *(_source_card(source, tr) for source in _SOURCES),
        "</div>",
        _agreement(tr),
        _disagreements(tr),
        _presets(tr),
    ]
    return f"<div class='durak-sources'>{''.join(parts)}</div>"


def _cards(tr: Gettext, **cards: str) -> dict[str, str]:
    return {name: escape(card_short(Card.parse(text), tr)) for name, text in cards.items()}


def _source_card(source: _Source, tr: Gettext) -> str:
    code = source.code
    params = {"source": escape(source_name(code, tr))}
    if code == "S2":
        # S2's machine translation, quoted as it stands (Spanish in every language).
        params |= {"game": "juego", "right": "a la derecha"}
    if code == "S3":
        params |= _cards(tr, a="JH", b="6S", c="9H")
    if code == "S4":
        params |= _cards(tr, four="4D", seven="7D", jack="JS")
    gives_label = tr.gettext("What it brings")
    caution_label = tr.gettext("Watch out")
    rows = [
        f"<p class='durak-src-kind'>{_html(tr, source.kind, **params)}</p>",
        f"<h4>{escape(gives_label)}</h4><p>{_html(tr, source.gives, **params)}</p>",
    ]
    if source.caution:
        rows.append(f"<h4>{escape(caution_label)}</h4><p>{_html(tr, source.caution, **params)}</p>")
        links = [lesson_link(lesson, tr) for lesson in source.corrected_in]
        if any(links):
            label = tr.gettext("The lessons that correct them:")
            rows.append(
                f"<p class='durak-src-lessons'>{escape(label)} "
                f"{tr.format_list([link for link in links if link])}</p>"
            )
    presets = source_presets(code)
    if presets:
        label = tr.gettext("Rule sets that follow it:")
        names = tr.format_list([f"<strong>{escape(preset_name(p, tr))}</strong>" for p in presets])
        rows.append(f"<p class='durak-src-presets'>{escape(label)} {names}</p>")
    anchor = source_anchor(code)
    return (
        f"<section class='durak-src-card' id='{anchor}' aria-labelledby='{anchor}-h'>"
        f"<h3 id='{anchor}-h'><span class='durak-src-code'>{code}</span> "
        f"{escape(source_name(code, tr))}</h3>{''.join(rows)}</section>"
    )


def _agreement(tr: Gettext) -> str:
    title = tr.gettext("What they all agree on")
    items = "".join(f"<li>{_html(tr, line)}</li>" for line in _AGREE)
    note = _html(
        tr,
        N_(
            "{live} also offers 24 or 52 cards, and {wikihow} a 52-card deck for five or six "
            "players."
        ),
        live=escape(source_name("S4", tr)),
        wikihow=escape(source_name("S0", tr)),
    )
    return (
        f"<section class='durak-src-section' id='agree'><h3>{escape(title)}</h3>"
        f"<ul>{items}</ul><p class='durak-src-note'>{note}</p></section>"
    )


def _disagreements(tr: Gettext) -> str:
    title = tr.gettext("Where they disagree")
    intro = _html(
        tr,
        N_(
            "The same question, different answers. Each answer is an option in the explainer: "
            "the {house_rules} page plays the same moves under two rule sets side by side."
        ),
        house_rules=page_link("house-rules", tr.gettext("House rules"), tr.language),
    )
    blocks = []
    for topic in _TOPICS:
        answers = []
        for answer in topic.answers:
            who = tr.format_list(
                [
                    source_link(code, tr)
                    + (f" {escape(tr.gettext(qualifier))}" if qualifier else "")
                    for code, qualifier in answer.sources
                ]
            )
            answers.append(
                f"<li><span class='durak-src-answer'>{_html(tr, answer.text)}</span>"
                f"<span class='durak-src-who'>{who}</span></li>"
            )
        lesson = lesson_link(topic.lesson, tr) if topic.lesson else ""
        more = f"<p class='durak-src-try'>{lesson}</p>" if lesson else ""
        blocks.append(
            f"<div class='durak-src-topic' id='{topic.anchor}'>"
            f"<h4>{_html(tr, topic.question)}</h4><ul>{''.join(answers)}</ul>{more}</div>"
        )
    return (
        f"<section class='durak-src-section' id='disagree'><h3>{escape(title)}</h3>"
        f"<p>{intro}</p><div class='durak-src-topics'>{''.join(blocks)}</div></section>"
    )


def _presets(tr: Gettext) -> str:
    title = tr.gettext("The rule sets in this explainer")
    intro = _html(
        tr,
        N_(
            "Each rule set follows one or two of the documents. You pick them on the house-rules "
            "page and when you play a whole game."
        ),
    )
    items = []
    for name, preset in PRESETS.items():
        follows = tr.format_list([source_link(code, tr) for code in preset.sources])
        label = tr.gettext("Follows:")
        items.append(
            f"<li><strong>{escape(preset_name(name, tr))}</strong>"
            f"<span>{escape(preset_description(name, tr))}</span>"
            f"<span class='durak-src-who'>{escape(label)} {follows}</span></li>"
        )
    return (
        f"<section class='durak-src-section' id='presets'><h3>{escape(title)}</h3>"
        f"<p>{intro}</p><ul class='durak-src-presets-list'>{''.join(items)}</ul></section>"
    )
