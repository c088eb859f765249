"""A page flooded with forged widget messages: what the kernel spends, and a real click after.

What it measures (not a test; in-process; bounded in count; stops by itself):

* It builds the real play page in this process (``GameApp``: two players, the computer moving
  at once, the page's own ``harden_kernel``) and finds a deal where the learner defends and
  holds two cards that cannot beat the attack card.
* It sends ``--messages`` forged messages (default 10 000) through the path a browser's
  message takes in a kernel: ``comm.get_comm_manager().comm_msg(stream, ident, msg)``, the
  function ipykernel's shell dispatches every ``comm_msg`` to (with the rate limit of
  ``tutorial.kernel_safety``, when there is one). Each message is a table click on one of the
  two cards in turn: a refused try each (issue 19, finding 4 of the 2026-12-01 probe). They are
  sent as fast as this process can: a flood queued in the kernel all at once.
* Then a real click (the learner's "Take"), re-sent every ``--retry`` seconds as a learner
  clicks again when nothing happens, until the table answers.

It prints: the flood's processing time (in a kernel, the queue a real click waits behind),
how many messages did any work, the move log's lines, the bytes sent back to the browser (every
comm message's data as JSON), the memory growth (the process's RSS after the flood minus
before; with ``--tracemalloc`` also the traced Python memory kept, after a garbage
collection, which slows the flood down), and **the real click's answer time**: from the
flood's start (every message queued at once, as in a kernel, where the click waits behind
them) to the table's redraw answering it (target ≤ 1 s), and from the click's first try.
``--no-limit`` switches the rate limit off (when there is one), to see the bounded log
alone.

Run: ``.venv/bin/python benchmarks/message_flood.py [--messages N] [--no-limit]``. The last
line printed is the headline: ``message flood N: real click answered in X s, Y B sent,
RSS +Z KiB``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import comm  # noqa: E402
from comm.base_comm import BaseComm  # noqa: E402

SENT = {"bytes": 0, "messages": 0}


class CountingComm(BaseComm):
    """A comm that only counts what it would send to the browser."""

    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        SENT["messages"] += 1
        SENT["bytes"] += len(json.dumps(data, separators=(",", ":"), default=str))


def rss_kib() -> int:
    """This process's resident memory (Linux), KiB; 0 elsewhere."""
    try:
        fields = Path("/proc/self/status").read_text().split("VmRSS:")[1].split()
    except (OSError, IndexError):
        return 0
    return int(fields[0])


def message(comm_id: str, content: dict[str, Any]) -> dict[str, Any]:
    """A ``comm_msg`` as ipykernel hands it to the comm manager (a custom widget message)."""
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "comm_msg"},
        "parent_header": {},
        "metadata": {},
        "content": {"comm_id": comm_id, "data": {"method": "custom", "content": content}},
        "buffers": [],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--retry", type=float, default=0.1, help="re-click every S seconds")
    parser.add_argument("--no-limit", action="store_true", help="switch the rate limit off")
    parser.add_argument("--tracemalloc", action="store_true", help="trace Python memory too")
    args = parser.parse_args()

    comm.create_comm = lambda *a, **k: CountingComm(*a, **k)  # type: ignore[assignment]
    from tutorial import kernel_safety

    kernel_safety.harden_kernel()
    manager = comm.get_comm_manager()
    limiter = getattr(kernel_safety, "MESSAGE_LIMIT", None)
    if args.no_limit and limiter is not None:
        limiter.enabled = False
    from tests.helpers import defending_play_page

    app, wrong = defending_play_page()
    table = app.table
    comm_id = table.comm.comm_id
    ctl = app.controller
    clicks = [{"type": "card", "zone": "hand", "id": card} for card in wrong]
    print(f"deal: learner defends, refused tries alternate {wrong[0]} and {wrong[1]}")

    gc.collect()
    if args.tracemalloc:
        tracemalloc.start()
    gc.collect()
    traced_before = tracemalloc.get_traced_memory()[0]
    rss_before = rss_kib()
    SENT.update(bytes=0, messages=0)
    redraws = [0]
    table.observe(lambda _change: redraws.__setitem__(0, redraws[0] + 1), names="view")
    start = time.perf_counter()
    for i in range(args.messages):
        manager.comm_msg(None, None, message(comm_id, clicks[i % 2]))
    flood = time.perf_counter() - start
    flood_bytes, flood_messages = SENT["bytes"], SENT["messages"]
    worked = redraws[0]
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - traced_before
    rss_growth = rss_kib() - rss_before
    tracemalloc.stop()

    # the real click: "Take", again every --retry seconds until the table answers
    moves = len(ctl.game.history)
    tries = 0
    first_try = time.perf_counter()
    while len(ctl.game.history) == moves and time.perf_counter() - start < 120:
        tries += 1
        manager.comm_msg(None, None, message(comm_id, {"type": "action", "id": "take"}))
        if len(ctl.game.history) == moves:
            time.sleep(args.retry)
    answered = time.perf_counter()
    lines = len(app.free_play.panel.log.view["lines"])

    print(f"flood: {args.messages} messages processed in {flood:.2f} s")
    print(f"messages that did work (a table redraw): {worked}")
    kinds = " ".join(e.kind for e in ctl.log.entries)
    print(f"move log: {len(ctl.log)} entries ({kinds}), {lines} lines shown")
    print(f"sent back during the flood: {flood_bytes} B in {flood_messages} comm messages")
    print(f"sent back per flood message: {flood_bytes / max(args.messages, 1):.0f} B")
    print(f"memory: RSS +{rss_growth} KiB during the flood")
    if args.tracemalloc:
        print(f"memory kept after the flood (tracemalloc): {kept / 1024:.0f} KiB")
    print(
        f"real click: {tries} tries, answered {answered - first_try:.2f} s after its first try, "
        f"{answered - start:.2f} s after the flood began"
    )
    print(
        f"message flood {args.messages}: real click answered in {answered - start:.2f} s, "
        f"{flood_bytes} B sent, RSS +{rss_growth} KiB"
    )


if __name__ == "__main__":
    main()
