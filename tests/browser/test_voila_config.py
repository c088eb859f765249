"""voila.json is what the server runs with: sources stripped, no query overrides of the
template or theme, only images served as files, no code execution from the browser, and the
classroom settings (pool, cap, culling) of its DurakServer section, and kernels on Unix
sockets."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .harness import CELL_ERROR, REPO, VoilaServer, open_notebook


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def test_render_strips_sources_and_ignores_overrides(voila_server: VoilaServer) -> None:
    status, html = fetch(
        voila_server.render_url("smoke.ipynb", "ru", theme="dark", template="reveal")
    )
    assert status == 200
    assert CELL_ERROR not in html
    assert "application/vnd.jupyter.widget-view+json" in html
    assert "initial_language" not in html  # strip_sources
    assert 'data-jp-theme-light="true"' in html  # ?theme=dark ignored
    assert "reveal.js" not in html.lower()  # ?template=reveal ignored


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("smoke.ipynb", 403),  # notebooks are never served as files
        ("../voila.json", 404),  # a ".." path never reaches a handler (request_guard)
        ("missing.png", 404),  # images are allowed (and this one does not exist)
        ("missing.svg", 404),
        ("missing.txt", 403),
        (".hidden.png", 403),
    ],
)
def test_only_images_are_served_as_files(
    voila_server: VoilaServer, path: str, expected: int
) -> None:
    status, _ = fetch(f"{voila_server.url}/voila/files/{path}")
    assert status == expected


def test_browser_cannot_execute_code(page: Page, voila_server: VoilaServer) -> None:
    """Standalone Voilà only forwards comm and info messages to the kernel: an
    ``execute_request`` sent on the page's own kernel socket is dropped (and logged)."""
    refused = re.compile(r'message of type "execute_request", which is not allowed')
    before = len(refused.findall(voila_server.log_text()))
    open_notebook(page, "smoke.ipynb", "en", selector=".smoke-button")
    config = json.loads(page.locator("#jupyter-config-data").inner_text())
    page.evaluate(
        """async (kernelId) => {
            const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernelId}/channels`);
            await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
            ws.send(JSON.stringify({
                header: {msg_id: "probe-execute", msg_type: "execute_request", username: "probe",
                         session: "probe", date: new Date().toISOString(), version: "5.3"},
                parent_header: {}, metadata: {}, channel: "shell", buffers: [],
                content: {code: "status.value = 'EXECUTED'", silent: false, store_history: false,
                          user_expressions: {}, allow_stdin: false, stop_on_error: true},
            }));
        }""",
        config["kernelId"],
    )
    deadline = time.monotonic() + 15
    while len(refused.findall(voila_server.log_text())) == before:
        assert time.monotonic() < deadline, "Voilà did not log the refused execute_request"
        time.sleep(0.1)
    # The page's own connection still works, and the code never ran.
    page.locator(".smoke-button").click()
    expect(page.locator(".smoke-clicks")).to_have_text("1")
    expect(page.locator(".smoke-status")).not_to_contain_text("EXECUTED")


def test_classroom_settings_are_read_from_voila_json(voila_server: VoilaServer) -> None:
    """The DurakServer section reaches the server, and culling is a safety net a classroom
    can live with: an open page keeps its kernel by its heartbeat (a visible tab pings every
    few seconds, a hidden one every 20 s from a worker, which background throttling spares),
    a silent or vanished one goes within a minute (issue 19 item 3), not within seconds: a
    slow first load must not lose its kernel."""
    config = json.loads((REPO / "voila.json").read_text(encoding="utf-8"))
    durak, culling = config["DurakServer"], config["MappingKernelManager"]
    pool, cap = durak["classroom"], durak["max_kernels"]
    assert f"Kernel pool: {pool} x _shell.ipynb; at most {cap} kernels" in voila_server.log_text()
    assert 0 < pool < cap
    # a connected but silent websocket must not hold a kernel forever (security-2026-12-01
    # finding 3); the page's heartbeat keeps every real page's kernel active
    assert culling["cull_connected"] is True and culling["cull_busy"] is False
    idle, interval = culling["cull_idle_timeout"], culling["cull_interval"]
    assert idle >= 40 and idle + interval <= 60  # culled within a minute of going silent
    assert interval <= idle / 4
    timing = (REPO / "tutorial" / "static" / "bridge.js").read_text(encoding="utf-8")
    hidden = re.search(r"hiddenEvery: (\d+),", timing)
    assert hidden and int(hidden.group(1)) / 1000 <= idle / 2  # two pings per idle period
    assert durak["ws_ping_interval"] < durak["ws_ping_timeout"]
    assert config["VoilaConfiguration"]["preheat_kernel"] is False  # durak_server pools itself


def test_kernels_talk_over_unix_sockets(voila_server: VoilaServer) -> None:
    """``KernelManager.transport = "ipc"``: each kernel's channels are Unix sockets named after
    its own connection file. Over TCP, a port is picked free and bound later by the kernel, so
    two processes starting kernels at once (a classroom server beside another Jupyter, or two
    test servers) can pick the same port: one server then reads the other's kernel and drops
    its messages as "Invalid Signature", and the page never appears."""
    config = json.loads((REPO / "voila.json").read_text(encoding="utf-8"))
    assert config["KernelManager"]["transport"] == "ipc"
    status, _ = fetch(voila_server.render_url("smoke.ipynb"))
    assert status == 200
    found = re.search(r"Storing connection files in (\S+?)\.?$", voila_server.log_text(), re.M)
    assert found, "Voilà did not log its connection-file directory"
    files = list(Path(found.group(1)).glob("kernel-*.json"))
    assert files, "no kernel connection files"
    for path in files:
        info = json.loads(path.read_text(encoding="utf-8"))
        assert info["transport"] == "ipc"
        assert info["ip"] == str(path.with_suffix("")) + "-ipc"
