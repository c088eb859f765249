"""The Binder/JupyterHub recipe's outer Jupyter Server runs no visitor code
(security-2026-12-01 finding 6): uploading ``ipykernel_launcher.py`` beside a notebook through
the contents API and starting a session for it ran the upload, since ``python -m
ipykernel_launcher`` puts the notebook's folder first on ``sys.path``. Tried here exactly so,
against ``binder/jupyter_server_config.py`` run by a real Jupyter Server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TOKEN = "binder-test-token"
PAYLOAD = "import pathlib; pathlib.Path({marker!r}).write_text('ran')\n"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def binder_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("binder-root")
    (root / "notebooks").mkdir()
    port = free_port()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(root / ".runtime"), "DURAK_REPO": str(REPO)}
    command = [
        sys.executable, "-m", "jupyter_server",
        f"--config={REPO / 'binder' / 'jupyter_server_config.py'}",
        f"--ServerApp.root_dir={root}", f"--port={port}", "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1", "--ServerApp.open_browser=False",
        f"--IdentityProvider.token={TOKEN}",
        *(["--allow-root"] if os.geteuid() == 0 else []),  # CI runs as root
    ]  # fmt: skip
    log = (root / "server.log").open("wb")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                call(base, "GET", "/api/status")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, (root / "server.log").read_text()
                assert time.monotonic() < deadline, "the Binder server did not start"
                time.sleep(0.3)
        yield base, root
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def call(base: str, method: str, path: str, body: object = None) -> int:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method,
        headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_an_upload_and_a_session_run_nothing(binder_server: tuple[str, Path]) -> None:
    base, root = binder_server
    marker = root / "marker"
    launcher = {"type": "file", "format": "text", "content": PAYLOAD.format(marker=str(marker))}
    notebook = {"type": "notebook", "content": {"cells": [], "metadata": {}, "nbformat": 4,
                                                "nbformat_minor": 5}}  # fmt: skip
    assert call(base, "PUT", "/api/contents/notebooks/ipykernel_launcher.py", launcher) == 403
    assert call(base, "PUT", "/api/contents/notebooks/x.ipynb", notebook) == 403
    assert not (root / "notebooks" / "ipykernel_launcher.py").exists()
    session = {"path": "notebooks/x.ipynb", "type": "notebook", "kernel": {"name": "python3"}}
    assert call(base, "POST", "/api/sessions", session) == 501  # "kernel not available"
    assert call(base, "POST", "/api/kernels", {"name": "python3"}) == 403
    time.sleep(1)
    assert not marker.exists()


def test_files_can_be_read_but_not_moved_or_deleted(binder_server: tuple[str, Path]) -> None:
    base, root = binder_server
    (root / "notebooks" / "kept.txt").write_text("kept")
    assert call(base, "GET", "/api/contents/notebooks/kept.txt") == 200
    assert call(base, "PATCH", "/api/contents/notebooks/kept.txt", {"path": "gone.txt"}) == 403
    assert call(base, "DELETE", "/api/contents/notebooks/kept.txt") == 403
    assert call(base, "POST", "/api/contents/notebooks", {"type": "file"}) == 403
    assert (root / "notebooks" / "kept.txt").read_text() == "kept"
    assert call(base, "GET", "/api/terminals") == 404
