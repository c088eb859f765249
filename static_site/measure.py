"""Measure the built site as a learner meets it: first-visit download and time to the table.

``.venv/bin/python -m static_site.measure [--runs 3] [--page 01-beating]`` (needs Playwright
and Debian's Chromium, as the browser tests do) serves ``build/static/`` on 127.0.0.1 and loads
the page ``--runs`` times, each in a fresh browser (cold HTTP cache), with every other host
unresolvable. It prints the time from navigation to the first table (median and each run) and
the bytes the first visit downloads (as served, and as gzip would send them).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .config import SITE
from .serve import serving

CHROMIUM = "/usr/bin/chromium"
ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)
HAND = ".durak-table .dt-hand"


def cold_load(url: str, timeout_ms: int = 180_000) -> tuple[float, set[str]]:
    """Seconds from navigation to the first table in a fresh browser, and the paths fetched."""
    from playwright.sync_api import sync_playwright

    paths: set[str] = set()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(ARGS))
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.context.on("request", lambda request: paths.add(urlsplit(request.url).path))
            started = time.monotonic()
            page.goto(url, wait_until="commit", timeout=timeout_ms)
            page.locator(HAND).first.wait_for(state="visible", timeout=timeout_ms)
            seconds = time.monotonic() - started
        finally:
            browser.close()
    return seconds, paths


def download_size(paths: set[str], site: Path = SITE) -> tuple[int, int]:
    """Bytes of the site's files behind ``paths``: as stored, and gzip-compressed."""
    raw = packed = 0
    for path in paths:
        local = site / unquote(path).lstrip("/")
        if local.is_dir():
            local = local / "index.html"
        if local.is_file():
            data = local.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, compresslevel=6))
    return raw, packed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="01-beating")
    args = parser.parse_args()
    times: list[float] = []
    fetched: set[str] = set()
    with serving(SITE) as base:
        for run in range(args.runs):
            seconds, paths = cold_load(f"{base}/voici/render/{args.page}.html?lang=es")
            times.append(seconds)
            fetched |= paths
            print(f"run {run + 1}: first table after {seconds:.1f} s")
    raw, packed = download_size(fetched)
    print(
        f"{args.page}: first table median {statistics.median(times):.1f} s "
        f"({', '.join(f'{t:.1f}' for t in times)}); first visit downloads "
        f"{raw / 1e6:.1f} MB ({packed / 1e6:.1f} MB gzipped) in {len(fetched)} files"
    )


if __name__ == "__main__":
    main()
