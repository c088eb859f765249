"""Kernel hardening, in a real ipykernel started with jupyter_client: the browser cannot
create widgets, and no traceback or log line reaches the page (only the server's log)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parent.parent
FORGED = 1_000
BASELINE = 200
TRACED = "(gc.collect(), tracemalloc.get_traced_memory()[0])[1]"  # Python memory in use


class Kernel:
    """A kernel and a client speaking the same protocol as the page's websocket."""

    def __init__(self, manager: KernelManager, client: BlockingKernelClient, log: Path) -> None:
        self.manager = manager
        self.client = client
        self.log = log
        self.iopub: list[dict[str, Any]] = []

    def run(self, code: str) -> str:
        """Execute ``code``; its stdout (a ``print``), every iopub message kept."""
        msg_id = self.client.execute(code)
        out = []
        while True:
            msg = self.client.get_iopub_msg(timeout=60)
            self.iopub.append(msg)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                out.append(msg["content"]["text"])
            if msg["msg_type"] == "error":
                raise AssertionError(msg["content"]["evalue"])
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        reply = self.client.get_shell_msg(timeout=60)
        assert reply["content"]["status"] == "ok", reply["content"]
        return "".join(out)

    def value(self, expression: str) -> Any:
        return json.loads(self.run(f"import json as _j; print(_j.dumps({expression}))"))

    def send(self, msg_type: str, content: dict[str, Any], **metadata: Any) -> None:
        msg = self.client.session.msg(msg_type, content, metadata=metadata)
        self.client.shell_channel.send(msg)

    def drain(self) -> None:
        while True:
            try:
                self.iopub.append(self.client.get_iopub_msg(timeout=0.2))
            except Empty:
                return


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[Kernel]:
    log = tmp_path / "kernel.log"
    manager = KernelManager(kernel_name="python3")
    with log.open("w") as stream:
        manager.start_kernel(cwd=str(ROOT), stdout=stream, stderr=stream)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        yield Kernel(manager, client, log)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def widget_open(comm_id: str) -> dict[str, Any]:
    """A comm_open the browser could forge: a Button model, as ipywidgets 8 would build it."""
    state = {
        "_model_module": "@jupyter-widgets/controls",
        "_model_module_version": "2.0.0",
        "_model_name": "ButtonModel",
        "_view_module": "@jupyter-widgets/controls",
        "_view_module_version": "2.0.0",
        "_view_name": "ButtonView",
        "description": "forged",
    }
    return {
        "comm_id": comm_id,
        "target_name": "jupyter.widget",
        "data": {"state": state, "buffer_paths": []},
    }


WIDGETS = "len(__import__('ipywidgets').widgets.widget._instances)"


def test_the_browser_cannot_create_widgets(kernel: Kernel) -> None:
    kernel.run("import ipywidgets, gc, tracemalloc; tracemalloc.start()")
    before = kernel.value(WIDGETS)
    # the forged message is well formed: without the hardening it does create a widget,
    # and what each one costs is the baseline, measured in this run by the kernel itself
    traced = kernel.value(TRACED)
    for _ in range(BASELINE):
        kernel.send("comm_open", widget_open(uuid.uuid4().hex), version="2.1.0")
    assert kernel.value(WIDGETS) == before + BASELINE
    per_widget = (kernel.value(TRACED) - traced) / BASELINE

    kernel.run(
        "from tutorial import kernel_safety; kernel_safety.harden_kernel(); "
        "kernel_safety.harden_kernel(); "
        "kernel_safety.MESSAGE_LIMIT.enabled = False"  # the refusal alone, every open handled
    )
    for _ in range(BASELINE):  # warm-up: first-use caches are not a leak
        kernel.send("comm_open", widget_open(uuid.uuid4().hex), version="2.1.0")
    widgets, traced = kernel.value(WIDGETS), kernel.value(TRACED)
    for _ in range(FORGED):
        kernel.send("comm_open", widget_open(uuid.uuid4().hex), version="2.1.0")
    per_forged = (kernel.value(TRACED) - traced) / FORGED
    print(f"kept per forged comm: {per_forged:.0f} B; per unhardened widget: {per_widget:.0f} B")
    assert kernel.value(WIDGETS) == widgets
    registered = "len(__import__('comm').get_comm_manager().comms)"
    assert kernel.value(registered) <= widgets + 1  # the refused comms are not kept either
    assert per_forged < per_widget / 10  # nothing of a refused comm is kept
    kernel.drain()
    closes = [m for m in kernel.iopub if m["msg_type"] == "comm_close"]
    assert len(closes) >= FORGED + BASELINE  # each one is closed on the browser's side too


def test_the_widget_control_channel_still_works(kernel: Kernel) -> None:
    kernel.run(
        "from tutorial.kernel_safety import harden_kernel; harden_kernel()\n"
        "import ipywidgets as w; b = w.Button(description='kept')"
    )
    control = uuid.uuid4().hex
    kernel.send(
        "comm_open",
        {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
        version="1.0.0",
    )
    kernel.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    kernel.run("pass")
    kernel.drain()
    states = [
        m["content"]["data"]
        for m in kernel.iopub
        if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == control
    ]
    assert states and states[0]["method"] == "update_states"
    assert "kept" in json.dumps(states[0]["states"])


def broken_button(failure: str) -> str:
    """Code that makes a button whose click raises ``RuntimeError(failure)`` and prints the
    button's model id."""
    return f"""
import ipywidgets as w
def broken(_button):
    raise RuntimeError({failure!r})
button = w.Button()
button.on_click(broken)
print(button.model_id)
"""


def click(button: str) -> dict[str, Any]:
    """The ``comm_msg`` content of a click on ``button`` (a model id), as a browser sends it."""
    return {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}}


FAILING = """
import logging, warnings, threading
from tutorial.kernel_safety import harden_kernel
harden_kernel()
harden_kernel()
""" + broken_button("SECRET-CALLBACK-FAILURE")


def test_failures_never_reach_the_page(kernel: Kernel) -> None:
    button = kernel.run(FAILING).strip()
    assert kernel.value(
        "[len(logging.getLogger(n).handlers) for n in ('tutorial', 'durak_core')]"
    ) == [1, 1]
    # a click whose callback raises, and a malformed message (the handler itself raises)
    kernel.send("comm_msg", click(button))
    kernel.send("comm_msg", {"comm_id": button, "data": {"no-method": 1}})
    kernel.run(
        "logging.getLogger('tutorial.app').error('SECRET-TUTORIAL-LOG')\n"
        "logging.getLogger('durak_core').warning('SECRET-ENGINE-LOG')\n"
        "logging.getLogger('Comm').error('SECRET-UNHANDLED-LOG')\n"
        "warnings.warn('SECRET-WARNING')\n"
        "t = threading.Thread(target=lambda: 1 / 0, name='SECRET-THREAD'); t.start(); t.join()"
    )
    kernel.drain()
    page = json.dumps([m["content"] for m in kernel.iopub if m["msg_type"] in ("stream", "error")])
    for secret in ("SECRET", "Traceback", str(ROOT)):
        assert secret not in page, page[:2000]
    assert not [m for m in kernel.iopub if m["msg_type"] == "error"]
    # … they went to the server's log instead
    server_log = kernel.log.read_text()
    for secret in (
        "SECRET-CALLBACK-FAILURE",
        "SECRET-TUTORIAL-LOG",
        "SECRET-ENGINE-LOG",
        "SECRET-UNHANDLED-LOG",
        "SECRET-WARNING",
        "SECRET-THREAD",
    ):
        assert secret in server_log, secret


LIMITED = """
from tutorial import kernel_safety
kernel_safety.harden_kernel()
kernel_safety.harden_kernel()
kernel_safety.MESSAGE_LIMIT.rate = 1e-9  # no refill while the test floods
import ipywidgets as w
clicks = []
button = w.Button()
button.on_click(lambda _b: clicks.append(1))
print(button.model_id)
"""


def test_browser_messages_beyond_the_burst_are_dropped_and_logged_once(kernel: Kernel) -> None:
    """The kernel's shell handler for ``comm_msg`` is the limited one: a flood of forged
    clicks does the work of one burst only, says so once in the server log, and then a
    click works again (issue 19, item 4)."""
    from tutorial.kernel_safety import BURST

    button = kernel.run(LIMITED).strip()
    for name in ("comm_open", "comm_msg", "comm_close"):
        handler = f"get_ipython().kernel.shell_handlers['{name}']"
        assert kernel.value(f"bool(getattr({handler}, '_durak_rate_limited', 0))"), name
    for _ in range(BURST * 6):
        kernel.send("comm_msg", click(button))
    assert kernel.value("len(clicks)") == BURST
    assert kernel.value("kernel_safety.MESSAGE_LIMIT.dropped") == BURST * 5
    kernel.run("kernel_safety.MESSAGE_LIMIT.rate = 1e9")  # time passes: the bucket refills
    kernel.send("comm_msg", click(button))
    assert kernel.value("len(clicks)") == BURST + 1
    kernel.drain()
    assert not [m for m in kernel.iopub if m["msg_type"] == "error"]
    assert kernel.log.read_text().count("dropping them until they stop") == 1


TEACHER = """
import warnings
from durak_core import Game, Rules
from tutorial.notebook import play
table = play(Game.deal(Rules(), 2, seed=5), language="en", pace=0)
""" + broken_button("TEACHER-CALLBACK-FAILURE")


def test_a_notebook_table_leaves_the_teachers_kernel_alone(kernel: Kernel) -> None:
    """``tutorial.notebook.play`` runs in someone's own kernel: unlike a page the site
    serves, it does not harden it, so their warnings and their widgets' tracebacks still
    reach their notebook, and their own widgets' messages are not rate-limited."""
    button = kernel.run(TEACHER).strip()
    kernel.send("comm_msg", click(button))
    kernel.run("warnings.warn('TEACHER-WARNING')")
    kernel.drain()
    page = json.dumps([m["content"] for m in kernel.iopub if m["msg_type"] in ("stream", "error")])
    assert "TEACHER-WARNING" in page
    assert "TEACHER-CALLBACK-FAILURE" in page
    handler = "get_ipython().kernel.shell_handlers['comm_msg']"
    assert not kernel.value(f"bool(getattr({handler}, '_durak_rate_limited', 0))")
