"""Time to first widget and click latency in Voilà, with Chromium (not a test).

Starts the server as ``script/server`` does (``python -m durak_server``, ``voila.json``) on a
free port of 127.0.0.1 and drives Debian's ``/usr/bin/chromium`` with Playwright:

(a) **render**: from ``page.goto`` to the first visible widget, for
    ``tests/data/notebooks/empty.ipynb`` (one Button, waited for as
    ``button.jupyter-widgets``: the floor Voilà itself sets) and for
    ``--notebook`` (default ``smoke.ipynb``, waited for as ``--selector``, default
    ``.jupyter-widgets button``). Each load uses a fresh browser context (cold cache, a new
    kernel), the two notebooks alternate, and one unrecorded load of each comes first. Prints
    the medians and their ratio.
(b) **click**: on one loaded ``--notebook`` page, ``--clicks`` clicks on ``--click-selector``;
    each is timed in the page (``performance.now()``) from the click to the DOM change of
    ``--changed-selector`` seen by a ``MutationObserver``, so it is kernel round trip plus
    re-render, without Playwright's own overhead. Prints p50 and p95. Back-to-back clicks
    (the default, ``--gap-ms 0``) measure ~45 ms here where clicks 100 ms or more apart measure
    ~5 ms: a click sent right after an update waits out a ~40 ms delay somewhere between the
    page and the kernel. ``--gap-ms 250`` is closer to a person clicking.

Requests to other hosts are blocked (the machine has no internet; Voilà's template links Font
Awesome from a CDN), so loads do not wait on DNS. After each load the page's kernel is shut
down through the API (without waiting for the page's own shutdown beacon), so every load
finds the server in the same state.

Run: ``.venv/bin/python benchmarks/voila_render.py [-n 5] [--notebook lesson1.ipynb
--selector .durak-card]``. The last line printed is ``render ratio: X`` (target / empty).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the harness lives with the browser tests
    sys.path.insert(0, str(REPO))

from tests.browser.harness import (  # noqa: E402
    CHROMIUM,
    VoilaServer,
    close_context,
    launch_chromium,
    new_context,
    open_notebook,
)

EMPTY = "empty.ipynb"
#: empty.ipynb's Button is the page's only widget, so its view is the ``button.jupyter-widgets``
#: itself (``.jupyter-widgets button`` needs a container widget around the button).
EMPTY_SELECTOR = "button.jupyter-widgets"

# Resolves with the milliseconds from the click to the first change of the watched element's
# text, or rejects after `timeout` ms.
CLICK_JS = """
async ([clickSel, changedSel, timeout]) => {
    const button = document.querySelector(clickSel);
    const watched = document.querySelector(changedSel);
    if (!button || !watched) throw new Error(`not found: ${clickSel} / ${changedSel}`);
    const before = watched.textContent;
    return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`no change of ${changedSel} within ${timeout} ms`));
        }, timeout);
        const observer = new MutationObserver(() => {
            if (watched.textContent !== before) {
                const elapsed = performance.now() - start;
                observer.disconnect();
                clearTimeout(timer);
                resolve(elapsed);
            }
        });
        observer.observe(watched, {subtree: true, childList: true, characterData: true});
        const start = performance.now();
        button.click();
    });
}
"""


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil
    return ordered[int(rank) - 1]


def load_seconds(
    browser: Browser, server: VoilaServer, name: str, selector: str, lang: str | None
) -> float:
    context, log = new_context(browser, server.url)
    try:
        page = context.new_page()
        start = time.perf_counter()
        open_notebook(page, name, lang, selector=selector, timeout=60_000)
        elapsed = time.perf_counter() - start
        log.assert_clean()
        return elapsed
    finally:
        close_context(context, log, server)  # and stop its kernel: the same load every time


def lesson_script(notebook: str, clicks: int) -> list[str]:
    """Selectors a learner clicks to walk the notebook's lesson (Next, cards, buttons,
    answers), restarting it as often as needed for ``clicks`` clicks. Each click changes the
    page's text (a new step, message or table), so each one is timed to a visible update."""
    from tests.lesson_clicks import clicks_for, expected_action
    from tutorial.controller import LessonController
    from tutorial.i18n import I18n
    from tutorial.index_page import notebook_name
    from tutorial.lessons import load_lessons

    lesson = next(x for x in load_lessons() if notebook_name(x) == notebook)
    shadow = LessonController(lesson, I18n("es"))
    script: list[str] = []
    while len(script) < clicks:
        step = shadow.step
        if shadow.completed or step is None:
            script.append("button.durak-restart")
            shadow.restart()
            continue
        if step.kind == "move":
            for click in clicks_for(shadow, expected_action(shadow, step)):
                if click["type"] == "action":
                    script.append(
                        f".durak-table button[data-kind='action'][data-id='{click['id']}']"
                    )
                else:
                    script.append(
                        f".durak-table button[data-kind='card'][data-zone='{click['zone']}']"
                        f"[data-id='{click['id']}']"
                    )
                shadow.click(click)
        elif step.kind == "question":
            good = next(i for i, c in enumerate(step.choices) if c.correct)
            script.append(f".durak-choices > button:nth-child({good + 1})")
            shadow.answer_question(good)
        script.append("button.durak-next")
        shadow.next()
    return script[:clicks]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--repeat", type=int, default=5, help="loads per notebook (5)")
    parser.add_argument(
        "--notebook",
        default="03-growing-round.ipynb",
        help="target, under notebooks/ or tests/data/notebooks/",
    )
    parser.add_argument(
        "--selector",
        default=".durak-table button[data-kind='card']",
        help="the element that marks a rendered page (default: a card of the table)",
    )
    parser.add_argument("--lang", default=None, help="?lang= for the target (default: none)")
    parser.add_argument("--clicks", type=int, default=20, help="timed clicks (20; 0: skip)")
    parser.add_argument(
        "--click-selector",
        default="",
        help="click this element repeatedly (default: walk the --notebook lesson by clicks)",
    )
    parser.add_argument("--changed-selector", default=".durak-lesson")
    parser.add_argument(
        "--gap-ms",
        type=int,
        default=0,
        help="pause before each click (0: click as soon as the last one showed)",
    )
    args = parser.parse_args()

    if not CHROMIUM.exists():
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    log_path = Path(tempfile.mkdtemp(prefix="voila-bench-")) / "voila.log"
    with VoilaServer(log_path=log_path) as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        print(f"Voilà at {server.url} (log {log_path}); Chromium {browser.version}")

        targets = [
            (EMPTY, EMPTY_SELECTOR, None),
            (args.notebook, args.selector, args.lang),
        ]
        times: dict[str, list[float]] = {EMPTY: [], args.notebook: []}
        for name, selector, lang in targets:  # warm-up: imports, OS file cache, JS bundle
            load_seconds(browser, server, name, selector, lang)
        for _ in range(args.repeat):
            for name, selector, lang in targets:
                times[name].append(load_seconds(browser, server, name, selector, lang))

        print(f"\n(a) time from page.goto to the first rendered widget, {args.repeat} loads each")
        for name, selector, _ in targets:
            runs = " ".join(f"{t:.2f}" for t in times[name])
            median = statistics.median(times[name])
            print(f"  {name:<24} median {median:.2f} s   ({runs})  [{selector}]")
        ratio = statistics.median(times[args.notebook]) / statistics.median(times[EMPTY])

        if args.clicks > 0:
            context, log = new_context(browser, server.url)
            page = context.new_page()
            open_notebook(page, args.notebook, args.lang, selector=args.selector)
            page.wait_for_timeout(500)  # let the page settle after the first paint
            script = (
                [args.click_selector] * args.clicks
                if args.click_selector
                else lesson_script(args.notebook, args.clicks)
            )
            latencies = []
            for selector in script:
                if args.gap_ms:
                    page.wait_for_timeout(args.gap_ms)
                watch = [selector, args.changed_selector, 30_000]
                latencies.append(float(page.evaluate(CLICK_JS, watch)))
            log.assert_clean()
            close_context(context, log, server)
            what = args.click_selector or f"the {args.notebook} lesson, walked by clicks"
            print(
                f"\n(b) click -> DOM updated, {len(latencies)} clicks on {what}, "
                f"watching {args.changed_selector}, {args.gap_ms} ms between"
            )
            print(
                f"  p50 {percentile(latencies, 50):.0f} ms   p95 {percentile(latencies, 95):.0f} ms"
                f"   (min {min(latencies):.0f}, max {max(latencies):.0f})"
            )
        browser.close()

    print(f"\nrender ratio: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
