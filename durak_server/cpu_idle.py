"""How idle the machine's processors have been lately, from Linux's ``/proc/stat``.

The pool refills in the background (:mod:`durak_server.kernels`): starting a kernel and
rendering the page shell takes a processor for about two seconds. While a class is working
the processors are busy with its kernels, and a refill then slows every learner's click and
page change (``benchmarks/classroom.py``: click p95 0.05 s without refills, 0.2 s with). So a
refill waits until the processors have been idle enough over a short window.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["IdleMeter"]

_STAT = Path("/proc/stat")


def _cpu_times(stat: Path = _STAT) -> tuple[int, int] | None:
    """(idle, total) clock ticks of all processors since boot, or None if unreadable."""
    try:
        first = stat.read_text(encoding="ascii").split("\n", 1)[0].split()
    except (OSError, UnicodeDecodeError):
        return None
    if not first or first[0] != "cpu":
        return None
    try:
        ticks = [int(v) for v in first[1:]]
    except ValueError:
        return None
    if len(ticks) < 4:
        return None
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    total = sum(ticks[:8])  # user nice system idle iowait irq softirq steal (not guests)
    return idle, total


class IdleMeter:
    """The idle share of all processors between one :meth:`idle_since_last` call and the
    next; ``None`` where ``/proc/stat`` cannot be read (then the caller does not wait)."""

    def __init__(self, stat: Path = _STAT) -> None:
        self._stat = stat
        self._last = _cpu_times(stat)

    def idle_since_last(self) -> float | None:
        now = _cpu_times(self._stat)
        last, self._last = self._last, now
        if now is None or last is None or now[1] <= last[1]:
            return None
        return (now[0] - last[0]) / (now[1] - last[1])
