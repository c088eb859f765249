"""Serve a built site on 127.0.0.1 with the MIME types Pyodide needs (standard library only).

``python3 -m static_site.serve [--port 8000] [--bind 0.0.0.0]`` serves ``build/static/`` (on
127.0.0.1 unless ``--bind`` says otherwise, e.g. a classroom laptop's LAN); the browser test and
:mod:`static_site.measure` use :func:`serving`.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

from .config import SITE

#: ``.wasm`` must be ``application/wasm`` (streaming compilation); ``.mjs`` JavaScript.
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/octet-stream",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with :data:`MIME_TYPES`, quietly."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}  # noqa: RUF012

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serving(site: Path = SITE, port: int = 0, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``site`` on ``host`` (a free port unless given) in a thread; yields the URL."""
    handler = functools.partial(Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve build/static/ (the static site).")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on")
    args = parser.parse_args()
    if not (SITE / "index.html").is_file():
        raise SystemExit(f"{SITE} has no site: run script/build-static first")
    with serving(SITE, args.port, args.bind) as url:
        print(f"serving {SITE} at {url}/ (Ctrl-C stops)")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
