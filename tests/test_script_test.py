"""``script/test`` on a machine without Chromium: it installs Debian's when it can (root and
apt-get, as for gettext and npm); when it cannot, it stops with the fix instead of letting
~150 browser tests skip. Run here with ``DURAK_CHROMIUM`` naming a file that does not exist
and ``DURAK_NO_APT=1`` (what a user without root gets), so nothing is installed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_script_test(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DURAK_CHROMIUM": str(tmp_path / "no-chromium"), "DURAK_NO_APT": "1"}
    return subprocess.run(
        [str(REPO / "script" / "test"), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_without_chromium_it_stops_and_names_the_fix(tmp_path: Path) -> None:
    result = run_script_test(tmp_path, "-k", "nothing")
    assert result.returncode == 1
    assert f"{tmp_path / 'no-chromium'} not found" in result.stderr
    assert "apt-get install --no-install-recommends chromium" in result.stderr
    assert 'script/test -m "not browser"' in result.stderr
    assert "==> ruff check" not in result.stdout  # it stopped before any check ran
