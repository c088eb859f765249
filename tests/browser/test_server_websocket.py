"""The kernel websocket filters of durak_server, in Chromium: output, errors and tracebacks of
the kernel never reach the page; the browser cannot open arbitrary comms or send huge
messages."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import Page, WebSocket, expect

from .harness import VoilaServer, open_notebook, pss_kib

PROBE = "DURAK-PROBE"

#: Opens a socket of its own on the page's kernel and sends one message (legacy JSON protocol).
SEND = """async ([kernelId, msgType, content]) => {
    const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernelId}/channels`);
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.send(JSON.stringify({
        header: {msg_id: "probe-" + Math.random(), msg_type: msgType, username: "probe",
                 session: "probe", date: new Date().toISOString(), version: "5.3"},
        parent_header: {}, metadata: {}, channel: "shell", buffers: [], content,
    }));
}"""


def _wait_for_log(server: VoilaServer, pattern: re.Pattern[str], before: int) -> None:
    deadline = time.monotonic() + 15
    while len(pattern.findall(server.log_text())) == before:
        assert time.monotonic() < deadline, f"not logged: {pattern.pattern}\n{server.log_tail()}"
        time.sleep(0.1)


def _kernel_id(page: Page) -> str:
    kernel_id: str = json.loads(page.locator("#jupyter-config-data").inner_text())["kernelId"]
    return kernel_id


def test_prints_and_tracebacks_never_reach_the_page(page: Page) -> None:
    received: list[str | bytes] = []

    def watch(websocket: WebSocket) -> None:
        if "/channels" in websocket.url:
            websocket.on("framereceived", lambda frame: received.append(frame))

    page.on("websocket", watch)
    button = open_notebook(page, "stderr.ipynb", "en", selector=".probe-button")
    for clicks in ("1", "2"):
        button.click()
        # The update follows the click's print()s on the same channel, and the second
        # update follows the first click's traceback.
        expect(page.locator(".probe-clicks")).to_have_text(clicks)

    assert received, "no kernel messages seen at all"
    payloads = [f if isinstance(f, bytes) else f.encode() for f in received]
    assert any(b"comm_msg" in p for p in payloads)  # the widget updates did arrive
    leaked = [p[:200] for p in payloads if PROBE.encode() in p or b"Traceback" in p]
    assert not leaked, leaked
    assert not any(b'"msg_type":"stream"' in p or b'"msg_type": "stream"' in p for p in payloads)
    assert PROBE not in page.content()


def test_browser_cannot_open_other_comms(page: Page, voila_server: VoilaServer) -> None:
    dropped = re.compile(
        r"Dropped a message from the browser: comm_open for target 'jupyter\.widget'"
    )
    before = len(dropped.findall(voila_server.log_text()))
    open_notebook(page, "smoke.ipynb", "en", selector=".smoke-button")
    content = {
        "comm_id": "forged-comm",
        "target_name": "jupyter.widget",
        "data": {
            "state": {
                "_model_name": "ButtonModel",
                "_model_module": "@jupyter-widgets/controls",
                "_model_module_version": "2.0.0",
                "_view_name": "ButtonView",
                "_view_module": "@jupyter-widgets/controls",
                "_view_module_version": "2.0.0",
            },
            "buffer_paths": [],
        },
    }
    page.evaluate(SEND, [_kernel_id(page), "comm_open", content])
    _wait_for_log(voila_server, dropped, before)
    # The page's own connection still works.
    page.locator(".smoke-button").click()
    expect(page.locator(".smoke-clicks")).to_have_text("1")


def test_oversized_messages_are_dropped(page: Page, voila_server: VoilaServer) -> None:
    dropped = re.compile(r"Dropped a \d+-byte message from the browser \(too large\)")
    before = len(dropped.findall(voila_server.log_text()))
    open_notebook(page, "smoke.ipynb", "en", selector=".smoke-button")
    content = {"comm_id": "x", "data": {"method": "update", "state": {"x": "a" * 100_000}}}
    page.evaluate(SEND, [_kernel_id(page), "comm_msg", content])
    _wait_for_log(voila_server, dropped, before)
    page.locator(".smoke-button").click()
    expect(page.locator(".smoke-clicks")).to_have_text("1")


#: Opens a v1-protocol socket (the one Voilà's page uses) and sends raw bytes as one frame.
SEND_V1_FRAME = """async ([kernelId, bytes]) => {
    const ws = new WebSocket(`ws://${location.host}/api/kernels/${kernelId}/channels`,
                             "v1.kernel.websocket.jupyter.org");
    ws.binaryType = "arraybuffer";
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.send(new Uint8Array(bytes));
}"""


def test_forged_frame_offsets_cannot_stall_the_server(
    page: Page, voila_server: VoilaServer
) -> None:
    """A 24-byte v1 frame that claims 10**8 parts: Jupyter Server's decoder would build the
    offset list first (seconds of a blocked event loop, gigabytes); durak_server checks the
    offset table before decoding and drops the frame."""
    unreadable = re.compile(r"Dropped a message from the browser: unreadable message")
    before = len(unreadable.findall(voila_server.log_text()))
    open_notebook(page, "smoke.ipynb", "en", selector=".smoke-button")
    assert voila_server.process is not None
    pss_before = pss_kib(voila_server.process.pid)
    frame = list((10**8).to_bytes(8, "little") + bytes(16))
    page.evaluate(SEND_V1_FRAME, [_kernel_id(page), frame])
    _wait_for_log(voila_server, unreadable, before)
    # The server still answers at once, and did not balloon (it would take gigabytes).
    page.locator(".smoke-button").click()
    expect(page.locator(".smoke-clicks")).to_have_text("1")
    assert pss_kib(voila_server.process.pid) - pss_before < 200 * 1024
