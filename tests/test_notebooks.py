"""Every notebook under ``notebooks/`` (the site) and ``tests/data/notebooks/`` (served only by
the test harness) runs top to bottom without an error, in the venv's kernel (the same
``python3`` kernelspec Voilà uses), and is stored without outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
TEST_NOTEBOOKS = REPO / "tests" / "data" / "notebooks"
PATHS = sorted(
    p
    for root in (NOTEBOOKS, TEST_NOTEBOOKS)
    for p in root.rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)
KERNEL = "python3"


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(REPO)) for p in paths]


def run(nb: nbformat.NotebookNode, cwd: Path = NOTEBOOKS) -> nbformat.NotebookNode:
    client = NotebookClient(
        nb, kernel_name=KERNEL, timeout=120, resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    return nb


def test_there_are_notebooks() -> None:
    assert {"index.ipynb", "_shell.ipynb"} <= {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    assert {"smoke.ipynb", "empty.ipynb", "stderr.ipynb"} <= {
        p.name for p in TEST_NOTEBOOKS.glob("*.ipynb")
    }


@pytest.mark.parametrize("path", PATHS, ids=_ids(PATHS))
def test_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: clear the outputs before committing"
            assert cell.execution_count is None, f"{path.name}: clear the execution counts"
    assert nb.metadata.get("kernelspec", {}).get("name", KERNEL) == KERNEL


@pytest.mark.parametrize("path", PATHS, ids=_ids(PATHS))
def test_runs_without_errors(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What Voilà gives the kernel for /voila/render/<name>?lang=ru (not set by nbclient).
    monkeypatch.setenv("QUERY_STRING", "lang=ru")
    nb = run(nbformat.read(path, as_version=4), cwd=path.parent)
    errors = [
        f"cell {i}: {out.get('ename')}: {out.get('evalue')}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert not errors, f"{path.name}:\n" + "\n".join(errors)
    widget_views = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if "application/vnd.jupyter.widget-view+json" in out.get("data", {})
    ]
    assert widget_views, f"{path.name} displays no widget"


def test_kernel_is_the_venv_python() -> None:
    """nbclient's kernel runs this interpreter (the venv's), with the project importable."""
    code = "import sys, tutorial\nprint(sys.prefix)"
    nb = run(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]))
    assert nb.cells[0].outputs[0]["text"].strip() == sys.prefix


def test_voila_kernelspec_resolves_to_the_venv_python() -> None:
    """The venv's ``voila`` starts ``python3`` kernels with the venv's interpreter: the
    kernelspec ipykernel installs into the venv says ``python``, which jupyter_client replaces
    with the launching interpreter (``.venv/bin/voila`` runs ``.venv/bin/python``)."""
    bindir = Path(sys.executable).parent
    listed = json.loads(
        subprocess.run(
            [str(bindir / "jupyter"), "kernelspec", "list", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    spec = listed["kernelspecs"][KERNEL]
    assert Path(spec["resource_dir"]).is_relative_to(sys.prefix), spec["resource_dir"]

    voila_python = (bindir / "voila").read_text(encoding="utf-8").splitlines()[0].removeprefix("#!")
    probe = (
        "from jupyter_client import KernelManager; "
        f"print(KernelManager(kernel_name={KERNEL!r}).format_kernel_cmd()[0])"
    )
    command = subprocess.run(
        [voila_python, "-c", probe], check=True, capture_output=True, text=True
    ).stdout.strip()
    assert Path(command).parent == bindir, command
