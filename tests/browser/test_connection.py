"""Connection lost: when the page's kernel dies or the server goes away, the page says so in
its language within seconds, and one click starts the page again where the learner was."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.lesson_clicks import clicks_for, expected_action
from tutorial.app import find_lesson
from tutorial.controller import LessonController
from tutorial.i18n import I18n, translator
from tutorial.lesson_view import panel_view, table_view
from tutorial.page import overlay_texts

from .harness import BrowserLog, VoilaServer, new_context, open_notebook, screenshot

HAND = ".durak-table .dt-hand"
#: The heartbeat notices a dead kernel within ~10 s; the wait allows a slow, busy machine.
NOTICE_MS = 30_000


def click(page: Page, click: dict[str, str]) -> None:
    if click["type"] == "action":
        selector = f"button[data-kind='action'][data-id='{click['id']}']"
    else:
        selector = f"button[data-kind='card'][data-zone='{click['zone']}'][data-id='{click['id']}']"
    page.locator(f".durak-table {selector}").first.click()


def test_a_killed_kernel_shows_the_overlay_and_one_click_resumes(
    page: Page, browser_log: BrowserLog, voila_server: VoilaServer
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(page, "03-growing-round.ipynb", "ru", selector=HAND)
    # Walk to the first move step and make the move, as the learner would.
    shadow = LessonController(find_lesson("growing-round"), I18n("ru"))
    step_label = page.locator(".durak-step")
    while (step := shadow.step) is not None and step.kind != "move":
        page.locator("button.durak-next").click()
        shadow.next()
        expect(step_label).to_have_text(panel_view(shadow)["step_label"])
    for move in clicks_for(shadow, expected_action(shadow, step)):
        click(page, move)
        shadow.click(move)
    message = table_view(shadow)["message"]
    assert message is not None
    expect(page.locator(".dt-message")).to_contain_text(message["text"])
    expect(page.locator("button.durak-next")).to_be_enabled()

    os.kill(voila_server.kernel_pid(browser_log.kernels[-1]), signal.SIGKILL)

    texts = overlay_texts(translator("ru"))
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible(timeout=NOTICE_MS)
    expect(dialog).to_contain_text(texts["title"])
    button = dialog.get_by_role("button", name=texts["button"])
    expect(button).to_be_focused()
    # behind the overlay no widget sprouts ipywidgets' red broken-link icon (N17)
    icons = page.evaluate(
        """() => [...document.querySelectorAll('.jupyter-widgets-disconnected')]
          .filter((n) => !['none', 'normal'].includes(getComputedStyle(n, '::before').content))
          .length"""
    )
    assert icons == 0
    screenshot(page, "connection-lost-kernel-ru-1280", full_page=False)

    # The button reloads the page: wait for the new one (the old page's table stays visible
    # until then, and every check below would pass on it).
    with page.expect_navigation(wait_until="commit", timeout=60_000):
        button.click()
    page.locator(HAND).wait_for(state="visible", timeout=60_000)
    expect(step_label).to_have_text(panel_view(shadow)["step_label"])
    expect(page.locator(".dt-message")).to_contain_text(message["text"])
    expect(page.locator("button.durak-next")).to_be_enabled()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(dialog).to_have_count(0)
    for _ in range(100):  # the websocket event reaches the test on Playwright's next turn
        if len(browser_log.kernels) == 2:
            break
        page.wait_for_timeout(100)
    assert len(browser_log.kernels) == 2  # a new kernel for the resumed page
    browser_log.assert_clean()


def test_a_stopped_server_shows_the_overlay(browser: Browser, tmp_path: Path) -> None:
    server = VoilaServer(log_path=tmp_path / "server.log", extra_args=["--classroom=0"])
    server.start()
    context, _log = new_context(browser, server.url, viewport={"width": 375, "height": 720})
    try:
        page = context.new_page()
        open_notebook(page, "01-beating.ipynb", "en", selector=HAND)
        server.stop()
        texts = overlay_texts(translator("en"))
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_be_visible(timeout=NOTICE_MS)
        expect(dialog).to_contain_text(texts["body"])
        screenshot(page, "connection-lost-server-en-375", full_page=False)
        dialog.get_by_role("button", name=texts["button"]).click()
        expect(dialog.locator(".durak-lost-status")).to_have_text(texts["unreachable"])
        expect(dialog.get_by_role("button")).to_be_focused()  # ready to try again
        expect(page).to_have_url(f"{server.url}/voila/render/01-beating.ipynb?lang=en")
    finally:
        context.close()
        server.stop()
