"""A tiny local HTTP server for the table widget's browser tests.

``/`` serves ``index.html`` (a fake anywidget model that mounts ``table.js``) and
``/static/…`` serves ``tutorial/static/`` (the widget's real JS and CSS). Nothing else is
reachable, and it listens on 127.0.0.1 only.

Run it by hand to look at the table in a browser::

    .venv/bin/python -m tests.browser_harness.server   # prints the URL

then mount a view from the devtools console: ``mountTable({...TableView JSON...})``; what the
table sends is in ``model.sent``, and ``model.set("view", …)`` redraws it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HARNESS_DIR = Path(__file__).parent
STATIC_DIR = HARNESS_DIR.parent.parent / "tutorial" / "static"

_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}


class _Handler(SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path in ("/", "/index.html"):
            return str(HARNESS_DIR / "index.html")
        if path.startswith("/static/"):
            name = path.removeprefix("/static/")
            if "/" not in name and name in {p.name for p in STATIC_DIR.iterdir()}:
                return str(STATIC_DIR / name)
        return str(HARNESS_DIR / "does-not-exist")

    def guess_type(self, path: str | Path) -> str:  # type: ignore[override]
        return _TYPES.get(Path(path).suffix, "application/octet-stream")

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve() -> Iterator[str]:
    """Serve the harness on a free port of 127.0.0.1; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(HARNESS_DIR)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


if __name__ == "__main__":
    with serve() as url:
        print(f"Table harness at {url} (Ctrl-C to stop)")
        with suppress(KeyboardInterrupt):
            threading.Event().wait()
