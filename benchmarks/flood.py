"""One flooding client against a learner's page changes, side by side (issue 37, item 1; the
2026-12-07 review's finding 1).

What it does (not a test; the real server; bounded in time; stops by itself):

* Starts ``python -m durak_server`` (``tests.browser.harness.VoilaServer``) with the
  repository's ``voila.json`` and no pool; the per-address limits are off so that the learner
  and the flooder may share 127.0.0.1 (the flooder holds ``--kernels`` pages, default 8: what
  one address may hold with ``classroom`` 2).
* A learner (``benchmarks/classroom.py``'s simulated browser: the page's own protocol) opens
  a lesson and then changes page every ``--think`` seconds (a ``go``, as a followed link
  sends), timing each from the ``go`` to the kernel's ``shown``; it pings every 3 s.
* A flooder, in a process of its own (so that reading its sockets does not slow the
  learner's client), opens ``--kernels`` lessons the same way and, while flooding, sends each
  of them a burst of ``--burst`` ``go`` messages naming real pages every second.
* Phases alternate, ``--rounds`` times: ``--phase`` seconds alone, then as long flooded (a
  few seconds' pause after each flooded phase, for what the kernels still do to end). Each
  page change counts for the phase it started in.

It prints each phase's page changes, the flooder's ``go`` sent and pages shown, the server's
budget lines, and the p50/p95 of the page changes alone and flooded. ``--no-budget`` runs the
server with ``--DurakServer.message_rate=0`` (the budget off, as before issue 37; the kernels'
backlog then runs on into the "alone" phases).

Run: ``.venv/bin/python benchmarks/flood.py [--rounds 4] [--phase 20] [--kernels 8]``. The
last line is the headline: ``flood: learner page-change p95 +X% (alone A s, flooded B s)``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import multiprocessing.synchronize
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tornado.httpclient import AsyncHTTPClient  # noqa: E402

from benchmarks.classroom import Learner, percentile  # noqa: E402
from tests.browser.harness import VoilaServer  # noqa: E402

LESSON = "01-beating"
#: The pages the learner walks through, in turn (each has a table: a full lesson page).
WALK = ["02-bout", "01-beating", "03-growing-round", "01-beating"]
#: The pages a flood names.
FLOOD_PAGES = ["index", "02-bout", "01-beating", "03-growing-round", "sources"]


def _start() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event


class Walker(Learner):
    """The learner: page changes every ``think`` seconds, each counted for the phase it
    started in (``phase()`` says which)."""

    def __init__(self, *args: Any, phase: Any, until: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.phase = phase
        self.until = until
        self.samples: dict[str, list[float]] = {"alone": [], "flooded": []}
        self.failed = 0

    async def walk_on(self) -> None:
        bridge = self.bridge()
        assert bridge is not None
        n = 0
        while time.monotonic() < self.until:
            await asyncio.sleep(self.think)
            phase = self.phase()
            page = WALK[n % len(WALK)]
            n += 1
            seen = len(self.shown)
            sent = time.monotonic()
            await self.custom(bridge, {"type": "go", "lang": "es", "page": page, "resume": None})
            while len(self.shown) == seen:
                await self.receive()
            said, when = self.shown[seen]
            if said != f"shown:{page}":
                self.failed += 1
                continue
            if phase is not None:
                self.samples[phase].append(when - sent)


class Flooder(Learner):
    """One flooded page: after it opened, a burst of ``go`` every second while ``flood`` is
    set; its socket is read (and dropped) all along, as a browser would."""

    def __init__(
        self, *args: Any, flood: Any, stop: Any, burst: int, opened: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.flood = flood
        self.stop = stop
        self.burst = burst
        self.opened = opened
        self.sent = 0
        self.shown_count = 0

    async def drain(self) -> None:
        assert self.ws is not None
        while True:
            frame = await self.ws.read_message()
            if frame is None:
                return
            raw = frame if isinstance(frame, bytes) else frame.encode()
            if b'"shown"' in raw:
                self.shown_count += 1

    async def walk_on(self) -> None:
        bridge = self.bridge()
        assert bridge is not None
        reader = asyncio.create_task(self.drain())
        self.opened()
        try:
            n = 0
            while not self.stop.is_set():
                if self.flood.is_set():
                    for _ in range(self.burst):
                        page = FLOOD_PAGES[n % len(FLOOD_PAGES)]
                        n += 1
                        go = {"type": "go", "lang": "es", "page": page, "resume": None}
                        await self.custom(bridge, go)
                        self.sent += 1
                else:
                    await self.custom(bridge, {"type": "ping", "n": n})
                await asyncio.sleep(1.0)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader


def flood_process(
    base: str,
    kernels: int,
    burst: int,
    flood: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
    ready: Any,
    report: Any,
) -> None:
    """The flooding client (a process of its own)."""

    async def main() -> None:
        http = AsyncHTTPClient(max_clients=kernels + 2)
        flooders: list[Flooder] = []
        for i in range(kernels):

            def opened() -> None:
                with ready.get_lock():
                    ready.value += 1

            flooder = Flooder(
                100 + i,
                base,
                LESSON,
                [],
                0.0,
                time.monotonic() + 3600,
                http,
                lambda _kernel: None,
                flood=flood,
                stop=stop,
                burst=burst,
                opened=opened,
            )
            flooders.append(flooder)
        results = await asyncio.gather(*(f.run(_start()) for f in flooders))
        report.put(
            {
                "sent": sum(f.sent for f in flooders),
                "shown": sum(f.shown_count for f in flooders),
                "errors": [r.error for r in results if r.error],
            }
        )

    asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--phase", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--kernels", type=int, default=8, help="the flooder's pages")
    parser.add_argument("--burst", type=int, default=100, help="go messages per page a second")
    parser.add_argument("--think", type=float, default=1.5, help="seconds between page changes")
    parser.add_argument("--settle", type=float, default=4.0, help="pause after a flood")
    parser.add_argument("--no-budget", action="store_true", help="the server's budget off")
    args = parser.parse_args()

    extra = [
        "--classroom=0",
        "--DurakServer.max_kernels_per_address=0",
        "--DurakServer.max_waiting_per_address=0",
    ]
    if args.no_budget:
        extra.append("--DurakServer.message_rate=0")
    log = Path(tempfile.mkdtemp(prefix="durak-flood-")) / "server.log"
    context = multiprocessing.get_context("spawn")
    flood, stop = context.Event(), context.Event()
    ready = context.Value("i", 0)
    report = context.Queue()
    with VoilaServer(log_path=log, extra_args=extra) as server:
        print(f"server {server.url}, log {log}", flush=True)
        flooder = context.Process(
            target=flood_process,
            args=(server.url, args.kernels, args.burst, flood, stop, ready, report),
        )
        flooder.start()
        deadline = time.monotonic() + 180
        while ready.value < args.kernels:
            if time.monotonic() > deadline or not flooder.is_alive():
                raise SystemExit(f"the flooder opened {ready.value} of {args.kernels} pages")
            time.sleep(0.5)
        print(f"flooder: {args.kernels} pages open", flush=True)

        state: dict[str, str | None] = {"phase": None}
        phases: list[tuple[str, float, float]] = []

        async def learner() -> Walker:
            total = args.rounds * (2 * args.phase + args.settle) + 5
            walker = Walker(
                0,
                server.url,
                LESSON,
                [],
                args.think,
                time.monotonic() + total + 120,
                AsyncHTTPClient(),
                lambda _kernel: None,
                phase=lambda: state["phase"],
                until=time.monotonic() + total + 60,
            )
            task = asyncio.create_task(walker.run(_start()))
            while walker.bridge() is None or walker.result.first_table is None:
                if task.done():
                    break
                await asyncio.sleep(0.2)
            for _ in range(args.rounds):
                for name in ("alone", "flooded"):
                    if name == "flooded":
                        flood.set()
                    state["phase"] = name
                    start = time.monotonic()
                    await asyncio.sleep(args.phase)
                    state["phase"] = None
                    flood.clear()
                    phases.append((name, start, time.monotonic()))
                    if name == "flooded":
                        await asyncio.sleep(args.settle)
            walker.until = 0.0
            await task
            return walker

        walker = asyncio.run(learner())
        stop.set()
        flooded = report.get(timeout=120)
        flooder.join(timeout=60)
        text = server.log_text()

    if walker.result.error:
        print(f"learner error: {walker.result.error}")
    alone, hit = walker.samples["alone"], walker.samples["flooded"]
    print(
        f"flooder: {flooded['sent']} go sent, {flooded['shown']} pages shown to it"
        + (f", errors {flooded['errors']}" if flooded["errors"] else "")
    )
    print(
        f"server log: {text.count('refusing them until they stop')} bursts refused (one WARNING "
        f"line each), {text.count('the burst is over')} ended, "
        f"{text.count('tab page ')} pages built in all"
    )
    if not alone or not hit:
        raise SystemExit("no page changes measured")
    for name, values in (("alone", alone), ("flooded", hit)):
        print(
            f"learner {name}: {len(values)} page changes, p50 {percentile(values, 50):.3f} s, "
            f"p95 {percentile(values, 95):.3f} s, max {max(values):.3f} s"
        )
    a95, f95 = percentile(alone, 95), percentile(hit, 95)
    budget = "budget off" if args.no_budget else "budget on"
    print(
        f"flood: learner page-change p95 {100 * (f95 - a95) / a95:+.0f}% "
        f"(alone {a95:.3f} s, flooded {f95:.3f} s; {args.kernels} kernels, {budget})"
    )


if __name__ == "__main__":
    main()
