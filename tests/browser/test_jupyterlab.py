"""A lesson in a real JupyterLab: open the notebook, run all cells, play one move by clicking.

The design promises the lessons are "usable in JupyterLab", not only in Voilà. This starts
``jupyter lab`` (the venv's, so the kernel imports the editable ``tutorial``) on a free port of
127.0.0.1 with a random token and private config, settings, workspace and runtime directories
(no news or update prompts, nothing from ``~/.jupyter``), serving a temporary copy of
``notebooks/01-beating.ipynb``. Chromium opens the notebook, runs it through JupyterLab's
own menu (Run > Run All Cells), waits for the lesson's table, goes to the first move step
and plays it by clicking cards; a shadow controller checks that the page shows the same
step, message and buttons after every click (see :class:`tests.browser.test_lessons.Walker`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.lesson_clicks import expected_action
from tutorial.index_page import notebook_name
from tutorial.lessons import load_lessons

from .harness import (
    NOTEBOOKS,
    _die_with_parent,
    free_port,
    new_context,
    screenshot,
    stop_process_group,
)
from .test_lessons import Walker

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

LESSON = load_lessons()[0]
#: JupyterLab's notification settings: no "Would you like to get news?" prompt, no update check.
QUIET_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


@dataclass
class LabServer:
    """``jupyter lab`` serving ``root`` on 127.0.0.1, isolated under ``home``."""

    root: Path
    home: Path
    port: int
    token: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"

    def start(self, timeout: float = 90.0) -> None:
        settings = self.home / "settings"
        for relative, values in QUIET_SETTINGS.items():
            path = settings / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "JUPYTER_CONFIG_DIR": str(self.home / "config"),
            "JUPYTER_RUNTIME_DIR": str(self.home / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.home / "workspaces"),
            "IPYTHONDIR": str(self.home / "ipython"),
        }
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",  # no PyPI look-ups
            # CI and dev containers run as root (as for Chromium's --no-sandbox)
            *(["--allow-root"] if os.geteuid() == 0 else []),
        ]
        self.log_path = self.home / "jupyterlab.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=self.root,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
                env=env,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited while starting:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2):
                    return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"jupyter lab did not answer in {timeout:.0f} s:\n{self.log_tail()}"
                )
            time.sleep(0.2)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM to the process group (the server shuts its kernels down), SIGKILL if it
        lingers."""
        process, self.process = self.process, None
        stop_process_group(process, timeout)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except (AttributeError, OSError):
            return ""
        return "\n".join(text.splitlines()[-lines:])


def write_notebook(path: Path, source: str) -> None:
    """A notebook of one code cell, ``source``, at ``path``."""
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    notebook = {
        "cells": [{**cell, "source": source}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    if importlib.util.find_spec("jupyterlab") is None:
        pytest.skip("jupyterlab is not installed in this environment (pip install -e '.[test]')")
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copyfile(NOTEBOOKS / notebook_name(LESSON), root / notebook_name(LESSON))
    server = LabServer(
        root, tmp_path_factory.mktemp("lab-home"), free_port(), secrets.token_hex(16)
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()
        print(f"last lines of the JupyterLab log:\n{server.log_tail(20)}")


def run_all_cells(page: Page) -> bool:
    """Run > Run All Cells, through JupyterLab's menu bar; ``False`` (menu closed again) when
    the item is disabled because the notebook is not ready yet."""
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    item = page.locator(".lm-Menu-content").get_by_role(
        "menuitem", name="Run All Cells", exact=True
    )
    item.wait_for(state="visible")
    if "lm-mod-disabled" in (item.get_attribute("class") or ""):
        page.keyboard.press("Escape")
        return False
    item.click()
    return True


def run_until_visible(page: Page, target: Locator, timeout: float = 120.0) -> None:
    """Run all cells until ``target`` shows. JupyterLab needs time after loading: until the
    notebook and its kernel are ready, the menu item is disabled or the run does not start
    (then it is tried again), and a kernel dialog may ask which kernel to use (its default,
    the venv's Python 3, is accepted)."""
    dialog = page.locator(".jp-Dialog")
    prompt = page.locator(".jp-NotebookPanel .jp-Cell .jp-InputPrompt").first
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if target.is_visible():
            return
        if dialog.is_visible():
            dialog.locator(".jp-Dialog-footer .jp-mod-accept").first.click()
            dialog.first.wait_for(state="detached")
        elif prompt.inner_text().strip() in ("[ ]:", ""):  # the cell has not started
            if run_all_cells(page):
                with contextlib.suppress(PlaywrightTimeoutError):
                    page.wait_for_function(
                        """() => document.querySelector('.jp-Dialog') !== null ||
                        !['[ ]:', ''].includes(document.querySelector(
                            '.jp-NotebookPanel .jp-Cell .jp-InputPrompt').innerText.trim())""",
                        timeout=15_000,
                    )
            else:
                page.wait_for_timeout(500)
        else:  # running or done: the widgets draw
            with contextlib.suppress(PlaywrightTimeoutError):
                target.or_(dialog).first.wait_for(state="visible", timeout=15_000)
    raise AssertionError(f"{target} did not appear within {timeout:.0f} s of running all cells")


def test_a_lesson_plays_a_move_in_jupyterlab(browser: Browser, lab_server: LabServer) -> None:
    context, log = new_context(browser, lab_server.url, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        # JupyterLab starts the notebook's kernel by itself; running before it is connected
        # would only open the kernel dialog.
        with page.expect_websocket(lambda ws: "/api/kernels/" in ws.url, timeout=90_000):
            page.goto(lab_server.notebook_url(notebook_name(LESSON)))
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(state="visible")
        run_until_visible(
            page, page.locator(".jp-OutputArea-output .durak-table .dt-hand button").first
        )

        walker = Walker(page, LESSON, "en")
        walker.expect_same()
        while walker.shadow.step is not None and walker.shadow.step.kind != "move":
            if walker.shadow.step.kind == "question":
                choices = walker.shadow.step.choices
                walker.choose(next(i for i, choice in enumerate(choices) if choice.correct))
            walker.next()
        step = walker.shadow.step
        assert step is not None, f"{LESSON.id} has no move step"
        before = walker.shadow.index
        move = expected_action(walker.shadow, step)
        walker.play(move)
        # The kernel took the move: the card left the hand, the page shows the controller's
        # success message, and Next leads on to the following step.
        assert walker.shadow.step_done
        if move.card is not None:
            hand = page.locator(".durak-table .dt-hand")
            expect(hand.locator(f"[data-id='{move.card.ascii()}']")).to_have_count(0)
        expect(page.locator(".dt-message")).to_have_class(re.compile(r"\bkind-success\b"))
        walker.next()
        assert walker.shadow.index == before + 1
        log.assert_clean()
    except Exception:
        print(f"screenshot: {screenshot(page, 'FAILED-jupyterlab')}")
        raise
    finally:
        context.close()


def test_a_position_plays_in_a_teachers_notebook(browser: Browser, lab_server: LabServer) -> None:
    """The README's ``tutorial.notebook.play`` cell in JupyterLab, wide enough for the table
    and the panel side by side (issue 21): the computer's lead is in the move log and in
    view (the log is not stretched to a page's height), and a click plays a card."""
    from .readme_screenshots import NOTEBOOK_CELL

    write_notebook(lab_server.root / "position.ipynb", NOTEBOOK_CELL)
    context, log = new_context(
        browser, lab_server.url, locale="en-US", viewport={"width": 1600, "height": 1000}
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        with page.expect_websocket(lambda ws: "/api/kernels/" in ws.url, timeout=90_000):
            page.goto(lab_server.notebook_url("position.ipynb"))
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(state="visible")
        run_until_visible(page, page.locator(".durak-notebook .dt-hand button").first)
        lead = page.locator(".durak-log .dl-entry", has_text="9♥").last
        expect(lead).to_be_in_viewport()
        table = page.locator(".durak-notebook .durak-table").first.bounding_box()
        panel = page.locator(".durak-notebook .durak-log").bounding_box()
        assert table and panel and panel["x"] > table["x"] + table["width"] / 2  # side by side
        assert panel["height"] < 400, panel  # a box of its entries, not the panel's height
        page.locator(".durak-notebook .dt-hand [data-id='JH']").click()
        expect(page.locator(".durak-log .dl-entry", has_text="J♥").last).to_be_in_viewport()
        log.assert_clean()
    except Exception:
        print(f"screenshot: {screenshot(page, 'FAILED-jupyterlab-position')}")
        raise
    finally:
        context.close()
