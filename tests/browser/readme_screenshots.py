"""The README's screenshots, taken from a real server in headless Chromium (``script/screenshots``).

Each shot opens one page at one viewport size, optionally goes to a lesson step through the
page's own ``?step=`` deep link, and saves ``docs/screenshot-<name>.png``. Run it after a
visible change and look at the pictures before committing them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from .harness import REPO, VoilaServer, launch_chromium, new_context, open_notebook

DOCS = REPO / "docs"
READY = ".durak-page-ready, .durak-lesson:not(.durak-pending)"


@dataclass(frozen=True)
class Shot:
    """One screenshot: a page, a language, a viewport and what to do before taking it."""

    name: str
    notebook: str
    lang: str
    size: tuple[int, int]
    query: dict[str, str] = field(default_factory=dict)
    before: Callable[[Page], None] | None = None
    full_page: bool = False


def _finish_lesson_one(page: Page) -> None:
    """Click through lesson 1 the way its steps ask (the shadow controller knows how)."""
    from tests.lesson_clicks import clicks_for, expected_action
    from tutorial.controller import LessonController
    from tutorial.i18n import I18n
    from tutorial.lessons import load_lessons

    lesson = next(lesson for lesson in load_lessons() if lesson.order == 1)
    shadow = LessonController(lesson, I18n("es"))
    while not shadow.completed:
        step = shadow.step
        assert step is not None
        if step.kind == "move" and not shadow.step_done:
            action = expected_action(shadow, step)
            for click in clicks_for(shadow, action):
                if click["type"] == "action":
                    selector = f"button[data-kind='action'][data-id='{click['id']}']"
                else:
                    selector = (
                        f"button[data-kind='card'][data-zone='{click['zone']}']"
                        f"[data-id='{click['id']}']"
                    )
                page.locator(f".durak-table {selector}").first.click()
                shadow.click(click)
        elif step.kind == "question" and not shadow.step_done:
            index = next(i for i, c in enumerate(step.choices) if c.correct)
            page.locator("button.durak-choice").nth(index).click()
            shadow.answer_question(index)
        page.locator("button.durak-next").click()
        shadow.next()
    page.wait_for_timeout(800)


def _play_a_few_moves(page: Page) -> None:
    """On the play page: play the first legal card a few times so the log has entries."""
    for _ in range(4):
        cards = page.locator(".durak-table button[data-kind='card'][data-zone='hand']")
        if not cards.count():
            break
        cards.first.click()
        page.wait_for_timeout(2500)


SHOTS = (
    Shot("lesson-ru", "03-growing-round", "ru", (1280, 720), {"step": "6"}),
    Shot("lesson-en", "09-who-throws-in", "en", (1280, 720), {"step": "3"}),
    Shot("index-es", "index", "es", (1280, 900), full_page=False),
    # a phone is 375 px wide; the page scrolls inside Voilà, so the shot is as tall as the page
    Shot("phone-es", "01-beating", "es", (375, 1480), {"step": "3"}),
    Shot("presenter-es", "04-hand-cap", "es", (1920, 1080), {"step": "2", "present": "1"}),
    Shot("house-rules-ru", "house-rules", "ru", (1280, 900)),
    Shot("finished-es", "01-beating", "es", (1280, 720), before=_finish_lesson_one),
    Shot("play-en", "play", "en", (1280, 720), before=_play_a_few_moves),
)


def take(shots: tuple[Shot, ...], out: Path = DOCS) -> list[Path]:
    """Take ``shots`` against a fresh server; returns the files written."""
    written = []
    with VoilaServer(extra_args=["--classroom=0"]) as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for shot in shots:
            width, height = shot.size
            context, _log = new_context(
                browser,
                server.url,
                viewport={"width": width, "height": height},
                reduced_motion="no-preference",  # as most learners see it
            )
            page = context.new_page()
            open_notebook(page, f"{shot.notebook}.ipynb", shot.lang, **shot.query)
            page.locator(".durak-pending").first.wait_for(state="detached", timeout=30_000)
            page.wait_for_timeout(1500)  # web fonts, card transitions
            if shot.before is not None:
                shot.before(page)
            path = out / f"screenshot-{shot.name}.png"
            page.screenshot(path=str(path), full_page=shot.full_page)
            written.append(path)
            shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path
            print(f"{shown}  {width}×{height}")
            context.close()
        browser.close()
    return written


NOTEBOOK_SHOT = "notebook-en"
"""The README's ``tutorial.notebook.play`` example, run in JupyterLab."""

NOTEBOOK_CELL = """\
from durak_core import Game, Rules
from tutorial.notebook import play

game = Game.from_position(Rules(), ["9H 7C QD", "JH 6S 8C 10D"], stock="7D AC", turnup="KS")
play(game, seat=1, language="en")"""


def take_notebook(out: Path = DOCS) -> Path:
    """Run :data:`NOTEBOOK_CELL` in a fresh JupyterLab and photograph the cell and its table."""
    import secrets
    import tempfile

    from .harness import free_port
    from .test_jupyterlab import LabServer, run_until_visible, write_notebook

    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        root, home = Path(scratch) / "root", Path(scratch) / "home"
        root.mkdir()
        write_notebook(root / "position.ipynb", NOTEBOOK_CELL)
        lab = LabServer(root, home, free_port(), secrets.token_hex(16))
        lab.start()
        try:
            browser = launch_chromium(playwright)
            context, _log = new_context(browser, lab.url, viewport={"width": 1280, "height": 1000})
            page = context.new_page()
            page.goto(lab.notebook_url("position.ipynb"))
            table = page.locator(".durak-notebook").first
            run_until_visible(page, table)
            page.locator("#jp-main-dock-panel").click(position={"x": 5, "y": 5})
            page.keyboard.press("Control+b")  # the file browser closed: the page is the cell
            # the computer's lead in the move log, then web fonts and card transitions
            page.locator(".durak-log", has_text="9♥").first.wait_for(timeout=30_000)
            page.wait_for_timeout(1500)
            path = out / f"screenshot-{NOTEBOOK_SHOT}.png"
            page.screenshot(path=str(path))
            browser.close()
        finally:
            lab.stop()
    return path


def main(argv: list[str]) -> int:
    names = set(argv)
    unknown = names - {shot.name for shot in SHOTS} - {NOTEBOOK_SHOT}
    if unknown:
        print(f"unknown shot(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    chosen = tuple(shot for shot in SHOTS if not names or shot.name in names)
    written = take(chosen) if chosen else []
    if not names or NOTEBOOK_SHOT in names:
        written.append(take_notebook())
        print(f"docs/screenshot-{NOTEBOOK_SHOT}.png  1280×1000")
    print(f"{len(written)} screenshots written to docs/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
