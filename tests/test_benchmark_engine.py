"""``benchmarks/engine.py --baseline-tree``: the A/B mode with tiny settings (this tree as its
own baseline), ending on its headline; and its refusals to measure the wrong ``durak_core``
(this process's, or a child's that leaks to another tree)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENGINE = REPO / "benchmarks" / "engine.py"
HEADLINE = re.compile(
    r"after/before 2p first-legal: \d+\.\d{3}x \(A/A spread \d+\.\d{3}-\d+\.\d{3}\)"
)


def run_engine(*args: str, pythonpath: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DURAKGAME_VENV": ""}
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(
        [sys.executable, str(ENGINE), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_ab_mode_against_this_tree_ends_on_its_headline() -> None:
    result = run_engine("--baseline-tree", str(REPO), "--repeat", "2", "--games", "20")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert HEADLINE.fullmatch(lines[-1]), lines[-1]
    assert "cpu clock" in lines[0]
    assert f"({REPO / 'durak_core' / '__init__.py'})" in lines[0]
    assert sum(line.startswith("(ab)   after/before ") for line in lines) == 2
    assert "(ab) 2p classic first-legal, with undo snapshots" in result.stdout


def test_ab_mode_refuses_a_baseline_without_durak_core(tmp_path: Path) -> None:
    result = run_engine("--baseline-tree", str(tmp_path), "--repeat", "1", "--games", "5")
    assert result.returncode == 1
    assert "no durak_core/__init__.py there" in result.stderr
    assert "worktree add" in result.stderr


def test_ab_mode_refuses_another_tree_in_its_own_process(tmp_path: Path) -> None:
    package = tmp_path / "durak_core"
    package.mkdir()
    (package / "__init__.py").write_text("__version__ = 'other'\nGame = Rules = None\n")
    result = run_engine(
        "--baseline-tree", str(REPO), "--repeat", "1", "--games", "5", pythonpath=str(tmp_path)
    )
    assert result.returncode == 1
    assert f"this process (this tree, {REPO})" in result.stderr
    assert str(package / "__init__.py") in result.stderr


def test_ab_mode_refuses_a_child_whose_durak_core_leaks_to_another_tree(tmp_path: Path) -> None:
    """A baseline whose ``durak_core`` hands over to whichever other one is importable (this
    tree's, by the editable install): the child's ``durak_core.__file__`` gives it away."""
    package = tmp_path / "durak_core"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import importlib, sys\n"
        f"sys.path.remove({str(tmp_path)!r})\n"
        "del sys.modules[__name__]\n"
        "sys.modules[__name__] = importlib.import_module(__name__)\n"
    )
    result = run_engine("--baseline-tree", str(tmp_path), "--repeat", "1", "--games", "5")
    assert result.returncode == 1
    assert f"the baseline worker (PYTHONPATH={tmp_path})" in result.stderr
    assert f"not from {package / '__init__.py'}" in result.stderr
