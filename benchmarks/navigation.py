"""One Python per learner: how fast the explainer's pages follow each other, and what it costs.

What it measures (not a test; loopback only; bounded in count and time; stops by itself):

* **server** (``--way server``): it starts ``python -m durak_server`` the way ``script/server``
  does (the harness's :class:`~tests.browser.harness.VoilaServer`, ``voila.json``, its pool),
  waits until the pool is filled, and opens the index in a fresh Chromium context (cold HTTP
  cache): **cold first table** is the time from navigation to the first lesson's table after
  one click on it (index + lesson 1, each drawn).
* **static** (``--way static``): it builds the static site if it is missing or stale
  (``script/build-static --if-stale``), serves ``build/static/`` on 127.0.0.1 and does the same
  in a fresh Chromium whose resolver knows no other host.
* Then the learner follows the pages' own links, inside the tab, round a fixed walk that mixes
  lesson -> next lesson, lesson -> index -> lesson, -> play, -> house rules, -> sources and a
  previous-lesson link: **page change** runs in the page from the click to the moment the new
  page's heading is focused and its content is drawn (a lesson's or the play page's cards, the
  index's list, the sources' cards); p50/p95 over ``--changes`` changes (at least 12).
* **returning visit** (static): the same first table in a new tab of the same browser, its
  HTTP and compiled-code caches warm.
* **Memory per learner** after 10 and after 100 page changes (``--memory-changes``): the PSS
  of the learner's kernel process (server), or the learner's Python on the static site: the
  WebAssembly memory of Pyodide in the kernel's worker (the benchmark wraps
  ``WebAssembly.Memory`` in the worker's script as it is served to see it; WebAssembly memory
  only grows, so this is the high-water mark). Beside it, the PSS of the tab's renderer
  process: the page's JavaScript, Blink and, on the static site, the worker and Pyodide too.
  That figure also holds what Chromium caches and frees only under memory pressure (a
  deterministic memory dump of the renderer, tried by hand, gave back 14-21 MiB of it).

Run: ``.venv/bin/python benchmarks/navigation.py [--way server|static|both]``. The last line
printed is the headline: ``navigation page change p95: server X s, static Y s``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, VoilaServer, pss_kib  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: The walk, from the index: each step follows a link the current page shows.
WALK = (
    "01-beating",
    "02-bout",
    "03-growing-round",
    "index",
    "play",
    "index",
    "house-rules",
    "index",
    "14-flash",
    "13-misdeal",
    "index",
    "sources",
    "index",
)
#: What shows that a page of each kind has drawn its content.
DRAWN = {
    "index": ".durak-index-item",
    "house-rules": ".durak-title h1",
    "sources": ".durak-src-card",
}
CARDS = ".durak-table .dt-card"
KERNEL_SOCKET = re.compile(r"/api/kernels/([0-9a-f-]{36})/channels")
STATIC_ARGS = (
    *CHROMIUM_ARGS,
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    # gc() in the page's workers too: Pyodide runs in a worker, whose garbage CDP's
    # HeapProfiler.collectGarbage (the page's own heap) does not collect.
    "--js-flags=--expose-gc",
)
TARGET_CHANGE_S = 1.0
TARGET_STATIC_COLD_S = 7.0
TARGET_STATIC_RETURNING_S = 5.0
TARGET_PSS_GROWTH_MIB = 10.0

# Click the link in the page and resolve, in the page, when the new page is there: its
# heading focused (bridge.js does that once the kernel said "shown") and its content drawn.
FOLLOW_JS = """
async ([target, drawn, timeout]) => {
    // A page's parts are drawn one after another: wait for the link as a learner would.
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const selector = `a[data-durak-page='${target}']`;
    const looking = performance.now();
    while (!document.querySelector(selector)) {
        if (performance.now() - looking > timeout) {
            throw new Error(`no link to ${target} on ${location.pathname}`);
        }
        await frame();
    }
    const link = document.querySelector(selector);
    const old = document.querySelector(".durak-site h1");
    const start = performance.now();
    link.click();
    return await new Promise((resolve, reject) => {
        const check = () => {
            const heading = document.activeElement;
            const ready = heading && heading.tagName === "H1" && heading !== old
                && !document.documentElement.classList.contains("durak-navigating")
                && document.querySelector(drawn);
            if (ready) return resolve(performance.now() - start);
            if (performance.now() - start > timeout) return reject(new Error(`${target}: late`));
            requestAnimationFrame(check);
        };
        check();
    });
}
"""


def drawn_selector(page: str) -> str:
    return DRAWN.get(page, CARDS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Figures:
    way: str
    cold_first_table: float = 0.0
    changes: list[float] = field(default_factory=list)
    pss_mib: dict[int, float] = field(default_factory=dict)
    tab_mib: dict[int, float] = field(default_factory=dict)
    """PSS of the tab's renderer at the same counts (server: the page's JavaScript, no Python;
    static site: all of the tab, Pyodide's worker included)."""
    returning_first_table: float = 0.0
    """Static site: the same, in a new tab of the same browser (its caches warm)."""
    processes: int = 0
    """Kernel processes (server) at the end: the learner's one, plus the pool."""

    def p(self, q: float) -> float:
        return percentile(self.changes, q) if self.changes else float("nan")


#: Prepended to the Pyodide kernel's worker script as it is served (static site): keeps each
#: WebAssembly memory the worker makes, so the benchmark can read the Python heap's size.
WASM_MEMORY_PROBE = """
(() => {
    const Memory = WebAssembly.Memory;
    const seen = (globalThis.__durakWasmMemories = []);
    const keep = (instance) => {
        for (const value of Object.values(instance.exports)) {
            if (value instanceof Memory) seen.push(value);
        }
    };
    WebAssembly.Memory = function (descriptor) {
        const memory = new Memory(descriptor);
        seen.push(memory);
        return memory;
    };
    WebAssembly.Memory.prototype = Memory.prototype;
    for (const name of ["instantiate", "instantiateStreaming"]) {
        const original = WebAssembly[name];
        if (!original) continue;
        WebAssembly[name] = async function (...args) {
            const result = await original.apply(this, args);
            keep(result.instance || result);
            return result;
        };
    }
})();
"""
WASM_MEMORY_MIB_JS = (
    "Math.max(0, ...(globalThis.__durakWasmMemories || []).map((m) => m.buffer.byteLength))"
    " / 1048576"
)
KERNEL_WORKER = "**/@jupyterlite/pyodide-kernel-extension/static/*.js*"


def probe_wasm_memory(page: Page) -> None:
    """Serve the Pyodide kernel's worker script with :data:`WASM_MEMORY_PROBE` in front."""
    from playwright.sync_api import Route

    def prepend(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        if "loadPyodide" in body:
            body = WASM_MEMORY_PROBE + body
        route.fulfill(response=response, body=body)

    page.route(KERNEL_WORKER, prepend)


def wasm_memory_mib(page: Page) -> float:
    """The largest WebAssembly memory in the page's workers (Pyodide's heap), in MiB."""
    sizes = [float(worker.evaluate(WASM_MEMORY_MIB_JS)) for worker in page.workers]
    if not sizes or max(sizes) <= 0:
        raise SystemExit("no Pyodide memory seen in the page's workers (the probe missed)")
    return max(sizes)


def walk(
    page: Page, figures: Figures, count: int, pss: dict[int, int], measure: Callable[[], int]
) -> None:
    """Follow ``count`` links round :data:`WALK` (from the index), timing each change; at the
    counts in ``pss`` record ``measure()``, after a full garbage collection in the page and in
    its workers (what is left is what the tab keeps; V8 otherwise collects when it sees
    fit)."""
    cdp = page.context.new_cdp_session(page)
    for n in range(1, count + 1):
        target = WALK[(n - 1) % len(WALK)]
        ms = page.evaluate(FOLLOW_JS, [target, drawn_selector(target), 60_000])
        figures.changes.append(ms / 1000)
        if n in pss:
            cdp.send("HeapProfiler.collectGarbage")
            for worker in page.workers:
                worker.evaluate("globalThis.gc && globalThis.gc()")
            time.sleep(1)
            pss[n] = measure()


def first_table(page: Page, url: str, timeout_ms: float) -> float:
    """Seconds from opening the index at ``url`` to lesson 1's table, reached by its link;
    the page is back on the index afterwards (where :func:`walk` starts)."""
    started = time.monotonic()
    page.goto(url, wait_until="commit", timeout=timeout_ms)
    page.locator(DRAWN["index"]).first.wait_for(state="visible", timeout=timeout_ms)
    page.locator("a[data-durak-page='01-beating']").first.click()
    page.locator(CARDS).first.wait_for(state="visible", timeout=timeout_ms)
    seconds = time.monotonic() - started
    page.locator(".durak-site a[data-durak-page='index']").first.click()
    page.locator(DRAWN["index"]).first.wait_for(state="visible", timeout=60_000)
    return seconds


def renderer_pss(browser_pid: int) -> int:
    """PSS (KiB) of the largest renderer process under the browser: the tab, with Pyodide."""
    import psutil  # type: ignore[import-untyped,unused-ignore]

    best = 0
    for child in psutil.Process(browser_pid).children(recursive=True):
        try:
            if "--type=renderer" in " ".join(child.cmdline()):
                best = max(best, pss_kib(child.pid))
        except (psutil.Error, OSError):
            continue
    return best


@contextmanager
def chromium(args: tuple[str, ...]) -> Iterator[tuple[Browser, int]]:
    """Chromium through Playwright, and the browser process's pid (for its renderers)."""
    import psutil  # type: ignore[import-untyped,unused-ignore]
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        before = {p.pid for p in psutil.process_iter()}
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(args))
        try:
            fresh = [
                p
                for p in psutil.process_iter(["name", "cmdline"])
                if p.pid not in before
                and "--type=" not in " ".join(p.info["cmdline"] or [])
                and "chrom" in (p.info["name"] or "")
            ]
            yield browser, (fresh[0].pid if fresh else 0)
        finally:
            browser.close()


def run_server(args: argparse.Namespace) -> Figures:
    figures = Figures("server")
    with VoilaServer(log_path=REPO / "test-artifacts" / "navigation-voila.log") as server:
        pool = 2
        deadline = time.monotonic() + 120
        while len(server.kernel_pids()) < pool and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)  # the pool's warm-up done
        with chromium(CHROMIUM_ARGS) as (browser, browser_pid):
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            url = server.url + "/voila/render/index.ipynb?lang=es"
            figures.cold_first_table = first_table(page, url, 120_000)
            kernel_ids = {m.group(1) for url in sockets if (m := KERNEL_SOCKET.search(url))}
            if len(kernel_ids) != 1:
                raise SystemExit(f"expected one kernel for the tab, saw {sorted(kernel_ids)}")
            mine = server.kernel_pid(kernel_ids.pop())
            marks = {10: 0, args.memory_changes: 0}
            tab: dict[int, int] = {}

            def both() -> int:
                tab[len(figures.changes)] = renderer_pss(browser_pid)
                return pss_kib(mine)

            walk(page, figures, max(args.changes, args.memory_changes), marks, both)
            figures.pss_mib = {n: kib / 1024 for n, kib in marks.items()}
            figures.tab_mib = {n: kib / 1024 for n, kib in tab.items()}
            page.close(run_before_unload=True)
        time.sleep(3)
        figures.processes = len(server.kernel_pids())
    return figures


def run_static(args: argparse.Namespace) -> Figures:
    from static_site.serve import serving

    figures = Figures("static")
    build = subprocess.run(
        [str(REPO / "script" / "build-static"), "--if-stale"], cwd=REPO, check=False
    )
    if build.returncode != 0:
        raise SystemExit("script/build-static failed")
    with serving() as base, chromium(STATIC_ARGS) as (browser, browser_pid):
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        probe_wasm_memory(page)
        url = base + "/voici/render/index.html?lang=es"
        figures.cold_first_table = first_table(page, url, 180_000)
        marks = {10: 0, args.memory_changes: 0}
        tab: dict[int, int] = {}

        def both() -> int:
            tab[len(figures.changes)] = renderer_pss(browser_pid)
            return round(wasm_memory_mib(page) * 1024)

        walk(page, figures, max(args.changes, args.memory_changes), marks, both)
        figures.pss_mib = {n: kib / 1024 for n, kib in marks.items()}
        figures.tab_mib = {n: kib / 1024 for n, kib in tab.items()}
        page.close()
        # A returning visit: the same browser (its HTTP and code caches), a new tab.
        again = browser.new_page(viewport={"width": 1280, "height": 720})
        figures.returning_first_table = first_table(again, url, 180_000)
    return figures


def report(figures: Figures, memory_changes: int) -> None:
    changes = figures.changes
    print(f"\n{figures.way}:")
    print(f"  cold first table (index, then lesson 1): {figures.cold_first_table:.2f} s")
    if figures.returning_first_table:
        print(f"  returning visit, first table: {figures.returning_first_table:.2f} s")
    print(
        f"  page change over {len(changes)} changes: p50 {figures.p(50):.3f} s, "
        f"p95 {figures.p(95):.3f} s, max {max(changes):.3f} s, "
        f"mean {statistics.fmean(changes):.3f} s"
    )
    first = changes[: len(WALK)]
    print("  first round: " + ", ".join(f"{t}={s:.2f}" for t, s in zip(WALK, first, strict=False)))
    growth = figures.pss_mib[memory_changes] - figures.pss_mib[10]
    what = (
        "PSS of the learner's kernel"
        if figures.way == "server"
        else "the learner's Python (Pyodide's WebAssembly memory)"
    )
    print(
        f"  {what}: {figures.pss_mib[10]:.1f} MiB after 10 changes, "
        f"{figures.pss_mib[memory_changes]:.1f} MiB after {memory_changes} "
        f"(+{growth:.1f} MiB; target <= {TARGET_PSS_GROWTH_MIB:.0f})"
    )
    if figures.tab_mib:
        first, last = figures.tab_mib[10], figures.tab_mib[memory_changes]
        print(
            f"  PSS of the tab's renderer: {first:.1f} MiB after 10 changes, {last:.1f} MiB "
            f"after {memory_changes} (+{last - first:.1f} MiB)"
        )
    if figures.way == "server":
        print(f"  kernel processes after the tab closed: {figures.processes} (the pool refills)")
    ok = figures.p(95) <= TARGET_CHANGE_S
    print(f"  page change p95 <= {TARGET_CHANGE_S:.0f} s: {'PASS' if ok else 'FAIL'}")
    if figures.way == "static":
        ok = figures.cold_first_table <= TARGET_STATIC_COLD_S
        print(f"  cold first table <= {TARGET_STATIC_COLD_S:.0f} s: {'PASS' if ok else 'FAIL'}")
        ok = figures.returning_first_table <= TARGET_STATIC_RETURNING_S
        print(
            f"  returning first table <= {TARGET_STATIC_RETURNING_S:.0f} s: "
            f"{'PASS' if ok else 'FAIL'}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--way", choices=("server", "static", "both"), default="both")
    parser.add_argument("--changes", type=int, default=26, help="timed page changes (26)")
    parser.add_argument(
        "--memory-changes", type=int, default=100, help="changes before the last PSS (100)"
    )
    args = parser.parse_args()
    if args.changes < 12 or args.memory_changes < 10:
        parser.error("at least 12 timed changes and 10 before the memory reading")
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} not found: apt-get install chromium")
    results = []
    if args.way in ("server", "both"):
        results.append(run_server(args))
        report(results[-1], args.memory_changes)
    if args.way in ("static", "both"):
        results.append(run_static(args))
        report(results[-1], args.memory_changes)
    headline = ", ".join(f"{f.way} {f.p(95):.2f} s" for f in results)
    print(f"\nnavigation page change p95: {headline}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
