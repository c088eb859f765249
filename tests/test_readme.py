"""The README's Python examples run and their assertions hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(block: str) -> None:
    exec(compile(block, str(README), "exec"), {})


def _layout() -> dict[str, set[str]]:
    """The README's *Layout* block: for each package folder, the modules it lists."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    listed: dict[str, set[str]] = {}
    folder = ""
    for line in block.splitlines():
        top = re.match(r"^([a-z_0-9]+)/\s", line)
        sub = re.match(r"^  ([a-z_0-9]+)/\s", line)
        module = re.match(r"^ {2,4}([a-z_0-9]+)\s", line)
        if top:
            folder = top.group(1)
            listed.setdefault(folder, set())
        elif sub:
            listed.setdefault(f"{folder}/{sub.group(1)}", set())
            listed[folder].add(sub.group(1))
        elif module and folder:
            indent = len(line) - len(line.lstrip())
            where = folder if indent == 2 else f"{folder}/{_last_sub(block, line)}"
            listed.setdefault(where, set()).add(module.group(1))
    return listed


def _last_sub(block: str, line: str) -> str:
    before = block[: block.index(line)]
    return re.findall(r"^  ([a-z_0-9]+)/\s", before, re.M)[-1]


@pytest.mark.parametrize(
    "package",
    ["durak_core", "durak_core/bots", "tutorial", "durak_server", "static_site"],
)
def test_the_layout_lists_every_module(package: str) -> None:
    """CONTRIBUTING.md promises it: each module has its line, none is listed that is gone."""
    folder = README.parent / package
    modules = {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
    # subpackages and data folders (lessons/, static/, templates/) alike
    folders = {p.name for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert _layout()[package] == modules | folders
