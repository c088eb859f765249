"""WCAG 2.1 AA in Chromium: axe-core on every page in every language, and along a lesson.

axe-core comes from the npm registry: ``script/test`` installs the pinned version under
``build/axe/`` (git-ignored); without it these tests skip, saying how to get it, and with
``CI`` set a skip fails the run (``tests/conftest.py``).

* Every page of :data:`tutorial.pages.PAGES` (new pages are covered as they are registered),
  opened with ``?lang=`` in each language: no WCAG 2.0/2.1 A or AA rule may report a
  ``serious`` or ``critical`` violation, and the landmark rules (every part of the page in a
  landmark, one main landmark) report none at all.
* Tabbing through each page: every control that takes the keyboard focus shows a ring of its
  own at least 2 px wide whose colour has a contrast of at least 3:1 with what is behind it
  (WCAG 2.4.7 and 1.4.11; the browser's default ``auto`` ring does not count).
* No page, in any language, asks another host for anything (an offline classroom would see
  blocked requests and console errors; Voilà's own template links Font Awesome from a CDN,
  durak_server's does not).
* A lesson in presenter mode (``?present=1``) at 1920×1080: the same checks.
* A lesson walked by clicking (the one whose wrong answers show the most kinds of feedback):
  axe runs again after each kind of feedback first appears (a refusal, a detour, a costly
  move), on a question with its choices (focus rings included), after a wrong choice, after
  a success, and on the finished lesson.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.lesson_clicks import expected_action
from tutorial.i18n import SUPPORTED_LANGUAGES, language_choices
from tutorial.index_page import notebook_name
from tutorial.lessons import Lesson, load_lessons
from tutorial.pages import PAGES

from .harness import REPO, SiteTab, open_notebook, screenshot
from .test_lessons import Walker

AXE_JS = REPO / "build" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
LANGS = SUPPORTED_LANGUAGES
#: axe's tags for the success criteria of WCAG 2.0 and 2.1, levels A and AA.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
#: Landmark rules (axe files them under best practices, "moderate"): asserted in full.
LANDMARK_RULES = (
    "region",
    "landmark-one-main",
    "landmark-no-duplicate-main",
    "landmark-main-is-top-level",
)
FAILING_IMPACTS = frozenset({"serious", "critical"})
MIN_RING_WIDTH = 2.0  # CSS px
MIN_RING_CONTRAST = 3.0


@pytest.fixture(scope="module")
def axe_js() -> Path:
    if not AXE_JS.exists():
        pytest.skip(
            f"{AXE_JS.relative_to(REPO)} not found: script/test installs axe-core from the npm "
            "registry (or run: npm install --prefix build/axe axe-core@4)"
        )
    return AXE_JS


# ----------------------------------------------------------------------------- page state

_READY = """lang => document.documentElement.lang === lang
    && document.querySelector('.durak-lesson, .durak-failure') !== null
    && document.querySelector('.durak-pending') === null"""

# Resolves once the document has not changed for 300 ms (widgets draw in several passes),
# or after 10 s whatever happens.
_SETTLE = """() => new Promise(resolve => {
    let timer = null;
    const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(done, 300);
    });
    const cap = setTimeout(done, 10000);
    function done() {
        observer.disconnect(); clearTimeout(cap); clearTimeout(timer); resolve();
    }
    observer.observe(
        document.body, {subtree: true, childList: true, attributes: true, characterData: true}
    );
    timer = setTimeout(done, 300);
})"""


def open_page(page: Page, name: str, lang: str, *, present: bool = False) -> None:
    """Open page ``name`` in ``lang`` (in presenter mode: ``&present=1``) and wait until it
    is drawn in that language."""
    if present:
        open_notebook(page, f"{name}.ipynb", lang, present="1")
    else:
        open_notebook(page, f"{name}.ipynb", lang)
    drawn(page, lang)


def show_page(tab: SiteTab, name: str, lang: str) -> Page:
    """Show page ``name`` in ``lang`` in the module's tab (inside it after the first) and
    wait until it is drawn in that language."""
    tab.show(f"{name}.ipynb", lang)
    drawn(tab.page, lang)
    return tab.page


def drawn(page: Page, lang: str) -> None:
    page.wait_for_function(_READY, arg=lang)
    settle(page)


def switch_language(page: Page, lang: str) -> None:
    """Choose ``lang`` in the page's own language menu (the same kernel redraws every text)
    and wait until the page is drawn in it."""
    label = next(name for name, code in language_choices() if code == lang)
    page.locator(".durak-language select").first.select_option(label=label)
    page.wait_for_function(_READY, arg=lang)
    settle(page)


def settle(page: Page) -> None:
    page.evaluate(_SETTLE)


# ----------------------------------------------------------------------------- axe

_RUN_AXE = """async ([tags, rules]) => {
    const result = await axe.run(document, {
        runOnly: {type: "tag", values: tags},
        rules: Object.fromEntries(rules.map(id => [id, {enabled: true}])),
        resultTypes: ["violations"],
    });
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
        nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary || ""})),
    }));
}"""


def axe_failures(page: Page, axe_js: Path) -> list[dict[str, Any]]:
    """The violations that fail these tests: serious or critical ones under the WCAG 2.1 A/AA
    tags, and any landmark violation."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_js))
    violations: list[dict[str, Any]] = page.evaluate(
        _RUN_AXE, [list(WCAG_TAGS), list(LANDMARK_RULES)]
    )
    return [v for v in violations if v["impact"] in FAILING_IMPACTS or v["id"] in LANDMARK_RULES]


def describe(where: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"{where}:"]
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:5]:
            summary = " ".join(node["summary"].split())
            lines.append(f"      {node['target']}\n        {summary}")
        if len(v["nodes"]) > 5:
            lines.append(f"      … and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- focus rings

# The focused element's outline, and the background colours behind it, innermost first, up
# to the first opaque one (the outline is drawn outside the element, over its parents).
_FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    const seen = el.hasAttribute("data-a11y-seen");
    el.setAttribute("data-a11y-seen", "");
    const style = getComputedStyle(el);
    const backgrounds = [];
    for (let node = el.parentElement; node; node = node.parentElement) {
        const colour = getComputedStyle(node).backgroundColor;
        backgrounds.push(colour);
        if (!/^rgba\\(/.test(colour) || /,\\s*1\\)$/.test(colour)) break;
    }
    const name = el.getAttribute("aria-label") || (el.innerText || el.value || "").trim();
    return {
        seen,
        what: `<${el.tagName.toLowerCase()} class="${el.className}"> ${name.slice(0, 40)}`,
        style: style.outlineStyle, width: parseFloat(style.outlineWidth) || 0,
        colour: style.outlineColor, backgrounds,
    };
}"""

_RGB = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)")


def parse_rgba(colour: str) -> tuple[float, float, float, float]:
    found = _RGB.fullmatch(colour.strip())
    assert found, f"unexpected CSS colour {colour!r}"
    r, g, b, a = found.groups()
    alpha = 1.0 if a is None else float(a[:-1]) / 100 if a.endswith("%") else float(a)
    return float(r), float(g), float(b), alpha


def composite(colours: list[str]) -> tuple[float, float, float]:
    """The colour seen through ``colours`` (innermost first) over a white page."""
    result = (255.0, 255.0, 255.0)
    for colour in reversed(colours):
        r, g, b, a = parse_rgba(colour)
        result = (
            r * a + result[0] * (1 - a),
            g * a + result[1] * (1 - a),
            b * a + result[2] * (1 - a),
        )
    return result


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: Start the Tab walk at the top of the document whatever had the focus (a page changed in
#: the tab focuses its heading): focus a mark before everything, then drop it.
_FROM_THE_TOP = """() => {
    for (const e of document.querySelectorAll("[data-a11y-seen]")) {
        e.removeAttribute("data-a11y-seen");
    }
    document.activeElement?.blur();
    const mark = document.createElement("span");
    mark.tabIndex = -1;
    document.body.prepend(mark);
    mark.focus();
    mark.addEventListener("blur", () => mark.remove(), {once: true});
}"""


def focus_ring_problems(page: Page, where: str, limit: int = 150) -> tuple[list[str], int]:
    """Tab through the page once; what is wrong with the focus rings, and how many controls
    took the focus."""
    page.evaluate(_FROM_THE_TOP)
    problems: list[str] = []
    visited = 0
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(_FOCUSED)
        if info is None or info["seen"]:
            break
        visited += 1
        behind = composite(info["backgrounds"])
        if info["style"] in ("none", "auto", "hidden"):
            problems.append(
                f"{where}: {info['what']}: no focus ring of its own (outline {info['style']})"
            )
            continue
        if info["width"] < MIN_RING_WIDTH:
            problems.append(
                f"{where}: {info['what']}: the focus ring is {info['width']:g} px wide "
                f"(at least {MIN_RING_WIDTH:g} px)"
            )
            continue
        ring = parse_rgba(info["colour"])
        ratio = contrast(composite([info["colour"], *info["backgrounds"]]), behind)
        if ring[3] < 1 or ratio < MIN_RING_CONTRAST:
            problems.append(
                f"{where}: {info['what']}: focus ring {info['colour']} has a contrast of "
                f"{ratio:.2f}:1 with rgb{tuple(round(v) for v in behind)} behind it"
            )
    return problems, visited


# ----------------------------------------------------------------------------- tests


def test_contrast_helpers_follow_wcag() -> None:
    """The helpers above give WCAG's numbers (black on white 21:1, the attacker badge's old
    #d9483b under white 4.25:1), and see through translucent layers."""
    white, black = (255.0, 255.0, 255.0), (0.0, 0.0, 0.0)
    assert contrast(white, black) == pytest.approx(21.0)
    assert contrast(white, (0xD9, 0x48, 0x3B)) == pytest.approx(4.25, abs=0.01)
    assert composite(["rgba(0, 0, 0, 0.5)", "rgb(255, 255, 255)"]) == (127.5, 127.5, 127.5)
    assert parse_rgba("rgba(1, 2, 3, 0)") == (1.0, 2.0, 3.0, 0.0)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_has_no_serious_violation(tab: SiteTab, axe_js: Path, name: str) -> None:
    """Every page, in every language: axe finds no serious or critical WCAG 2.1 A/AA
    violation and no landmark gap; in the first language, every focus ring is clear. The
    page is shown in the first language (the module's first page is loaded, the next ones
    follow inside the tab, as a learner's pages do); the others are chosen in its menu.
    Nothing on the way asks another host for anything (the tab blocks and records it)."""
    failures: list[str] = []
    for lang in LANGS:
        where = f"{name}?lang={lang}"
        if lang == LANGS[0]:
            page = show_page(tab, name, lang)
        else:
            switch_language(page, lang)
        violations = axe_failures(page, axe_js)
        if violations:
            failures.append(describe(where, violations))
            screenshot(page, f"a11y-{name}-{lang}")
        if lang == LANGS[0]:
            problems, visited = focus_ring_problems(page, where)
            assert visited > 0, f"{where}: nothing on the page takes the keyboard focus"
            failures += problems
    # nothing from another host (issue 34): the first page's load, every page and language
    failures += [f"{name}: a request to another host: {url}" for url in tab.log.blocked]
    assert not failures, "\n".join(failures)


def test_presenter_mode_has_no_serious_violation(page: Page, axe_js: Path) -> None:
    """A lesson in presenter mode on a 1920×1080 projector: the same checks."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    name = notebook_name(load_lessons()[0]).removesuffix(".ipynb")
    open_page(page, name, "es", present=True)
    where = f"{name}?lang=es&present=1"
    failures = [describe(where, v) for v in [axe_failures(page, axe_js)] if v]
    failures += focus_ring_problems(page, where)[0]
    assert not failures, "\n".join(failures)


def _feedback_kinds(lesson: Lesson) -> set[str]:
    return {w.feedback for step in lesson.steps if step.kind == "move" for w in step.wrong}


def _richest_lesson() -> Lesson:
    """The lesson whose wrong answers show the most kinds of feedback (and that asks a
    question, if any does)."""
    lessons = load_lessons()
    return max(
        lessons,
        key=lambda lesson: (
            len(_feedback_kinds(lesson)),
            any(step.kind == "question" for step in lesson.steps),
        ),
    )


class Audit:
    """Runs axe (and the focus-ring walk) at chosen moments of a walk; collects failures."""

    def __init__(self, page: Page, axe_js: Path, lesson: Lesson) -> None:
        self.page, self.axe_js, self.lesson = page, axe_js, lesson
        self.failures: list[str] = []
        self.moments: list[str] = []

    def check(self, moment: str, *, focus: bool = False) -> None:
        settle(self.page)
        where = f"{self.lesson.id}: {moment}"
        self.moments.append(moment)
        violations = axe_failures(self.page, self.axe_js)
        if violations:
            self.failures.append(describe(where, violations))
            screenshot(self.page, f"a11y-{self.lesson.id}-{len(self.moments)}")
        if focus:
            self.failures += focus_ring_problems(self.page, where)[0]


@pytest.fixture
def lesson_walk(tab: SiteTab, axe_js: Path) -> Iterator[tuple[Walker, Audit]]:
    lesson = _richest_lesson()
    lang = "ru"
    page = show_page(tab, notebook_name(lesson).removesuffix(".ipynb"), lang)
    yield Walker(page, lesson, lang), Audit(page, axe_js, lesson)


def test_feedback_questions_and_the_end_have_no_serious_violation(
    lesson_walk: tuple[Walker, Audit],
) -> None:
    """Walk a lesson by clicking, trying one wrong answer of each feedback kind and a wrong
    choice: axe finds nothing serious at any of those moments, nor on the finished lesson."""
    walker, audit = lesson_walk
    kinds_left = _feedback_kinds(walker.shadow.lesson)
    asked = chose_wrong = succeeded = False
    guard = 0
    while not walker.shadow.completed:
        guard += 1
        assert guard < 200, "the lesson does not end"
        step = walker.shadow.step
        assert step is not None
        number = walker.shadow.index + 1
        if step.kind == "move":
            hand = walker.shadow.game.hand(walker.shadow.you)
            for wrong in step.wrong:
                playable = wrong.play.card is None or wrong.play.card in hand
                if wrong.feedback in kinds_left and playable and not walker.shadow.step_done:
                    walker.play(wrong.play)
                    kinds_left.discard(wrong.feedback)
                    audit.check(f"step {number}, a wrong answer ({wrong.feedback})")
                    hand = walker.shadow.game.hand(walker.shadow.you)
            if not walker.shadow.step_done:
                walker.play(expected_action(walker.shadow, step))
                if not succeeded:
                    succeeded = True
                    audit.check(f"step {number}, the expected move")
        elif step.kind == "question":
            if not asked:
                asked = True
                audit.check(f"step {number}, a question", focus=True)
            if not chose_wrong:
                chose_wrong = True
                walker.choose(next(i for i, c in enumerate(step.choices) if not c.correct))
                audit.check(f"step {number}, a wrong choice")
            walker.choose(next(i for i, c in enumerate(step.choices) if c.correct))
        walker.next()
    audit.check("the finished lesson", focus=True)
    print(f"{walker.shadow.lesson.id}: axe ran at " + "; ".join(audit.moments))
    assert succeeded, "the walk played no move"
    assert not kinds_left, f"no wrong answer of kind {sorted(kinds_left)} could be tried"
    assert asked == any(s.kind == "question" for s in walker.shadow.lesson.steps)
    assert not audit.failures, "\n".join(audit.failures)
