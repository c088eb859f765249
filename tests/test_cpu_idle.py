"""durak_server.cpu_idle: the idle share a pool refill waits for (issue 16: a class's clicks
and page changes come before refilling the pool)."""

from __future__ import annotations

from pathlib import Path

from durak_server.app import DurakServer
from durak_server.cpu_idle import IdleMeter


def stat_file(path: Path, idle: int, busy: int) -> None:
    # user nice system idle iowait irq softirq steal guest guest_nice
    path.write_text(
        f"cpu  {busy} 0 0 {idle} 0 0 0 0 7 7\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2\n",
        encoding="ascii",
    )


def test_the_idle_share_between_two_readings(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat_file(stat, idle=1000, busy=1000)
    meter = IdleMeter(stat)
    stat_file(stat, idle=1150, busy=1050)  # 150 idle of 200 ticks; guests are not counted
    assert meter.idle_since_last() == 0.75
    stat_file(stat, idle=1150, busy=1250)  # a class working: nothing idle
    assert meter.idle_since_last() == 0.0


def test_the_real_file_reads_and_an_unreadable_one_never_blocks(tmp_path: Path) -> None:
    real = IdleMeter()
    assert real.idle_since_last() is None or 0.0 <= (real.idle_since_last() or 0.0) <= 1.0
    missing = IdleMeter(tmp_path / "nothing")
    assert missing.idle_since_last() is None  # the refill then does not wait
    odd = tmp_path / "odd"
    odd.write_text("intr 1 2\n", encoding="ascii")
    assert IdleMeter(odd).idle_since_last() is None


def test_the_server_waits_for_half_the_processors_by_default() -> None:
    server = DurakServer()
    assert server.refill_when_idle == 0.5
