"""Bytecode for exactly what the pages import, compiled by the site's own Pyodide.

The browser compiles every ``.py`` it imports, and in WebAssembly that is slow: under Node on
the 2-core machine, compiling the standard library's modules was half of Pyodide's boot and
more than half of ``import pyodide_kernel``. Bytecode is larger than source, though (a
compiled wheel downloads about twice the bytes), so only what is used gets compiled.

What is used is measured, not guessed: :func:`compile_used` boots the site's Pyodide under
Node with the site's lock and boot packages, starts the kernel as the browser does (``import
pyodide_kernel``), runs every page notebook's code cells in that one interpreter (as in-page
navigation does), and notes every module then loaded. Those modules, and every module of the
project's own packages (a click may import more of them), are replaced in the wheels and in
``python_stdlib.zip`` by unchecked hash-based ``.pyc`` files (which CPython imports without a
source beside them); everything else stays source. A page that fails here, or logs a warning
or an error, fails the build with its traceback. Compiled modules leave out their docstrings
(a fifth of the bytes; no page reads one, and what the libraries do with ``__doc__`` copes
with ``None``, as under ``python -OO``), but keep their asserts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .config import BuildError

#: Where Pyodide installs wheels: the code objects name their files there (tracebacks).
SITE_PACKAGES = "/lib/python3.13/site-packages"
#: Where Pyodide mounts ``python_stdlib.zip``.
STDLIB = "/lib/python313.zip"
STDLIB_FILE = "python_stdlib.zip"

_RUNNER = r"""
const fs = require("fs");
const path = require("path");
const [pyodideDir, jobFile] = process.argv.slice(2);
const { loadPyodide } = require(path.join(pyodideDir, "pyodide.js"));
(async () => {
  const job = JSON.parse(fs.readFileSync(jobFile, "utf8"));
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", packages: job.packages });
  pyodide.setStdout({ batched: () => {} });
  pyodide.FS.mkdirTree("/job/out");
  for (const file of job.files) {
    pyodide.FS.writeFile("/job/" + path.basename(file), fs.readFileSync(file));
  }
  pyodide.globals.set("job", pyodide.toPy(job));
  await pyodide.runPythonAsync(job.code);
  fs.writeFileSync(path.join(job.out, "report.json"), pyodide.FS.readFile("/job/report.json"));
  for (const file of job.files) {
    const out = "/job/out/" + path.basename(file);
    if (pyodide.FS.analyzePath(out).exists) {  // none when a page failed
      fs.writeFileSync(path.join(job.out, path.basename(file)), pyodide.FS.readFile(out));
    }
  }
})().catch((error) => { console.error(error.message || error); process.exit(1); });
"""

_CENSUS_AND_COMPILE = r"""
import ast, importlib.util, json, sys, traceback, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

import logging

logged = []  # every warning or error any logger passes to a handler: a page must log none
_handle = logging.Handler.handle

def _noting(handler, record):
    if record.levelno >= logging.WARNING:
        note = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            note += "\n" + "".join(traceback.format_exception(*record.exc_info))
        if note not in logged:
            logged.append(note)
    return _handle(handler, record)

logging.Handler.handle = _noting

# What the kernel's worker runs once Pyodide is up: its package manager, then the kernel.
import piplite.piplite
import pyodide_kernel

shell = pyodide_kernel.kernel_instance.interpreter
shell.send_comm = lambda *args, **kwargs: None  # no front end here: comms go nowhere
failures = []
for page in job["pages"]:
    for cell in page["cells"]:
        result = await shell.run_cell_async(cell, store_history=False)
        error = result.error_before_exec or result.error_in_exec
        if error is not None:
            lines = traceback.format_exception(error)
            failures.append(page["name"] + ":\n" + "".join(lines))
used = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
failures += [f"logged: {note}" for note in logged]

DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

def rewrite(name, prefix, always):
    counted = 0
    with zipfile.ZipFile("/job/" + name) as source:
        entries = [(i.filename, source.read(i)) for i in source.infolist() if not i.is_dir()]
    record = next((n for n, _ in entries if n.endswith(".dist-info/RECORD")), None)
    out = []
    for filename, data in entries:
        where = prefix + "/" + filename
        if filename.endswith(".py") and (where in used or filename.split("/")[0] in always):
            try:
                tree = without_docstrings(ast.parse(data, where))
                code = compile(tree, where, "exec", dont_inherit=True)
            except SyntaxError:  # not a module of this Python (a template, test data): as is
                code = None
            if code is not None:
                data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                filename += "c"
                counted += 1
        if filename != record:
            out.append((filename, data))
    if record is not None:
        rows = [f"{n},sha256={digest(d)},{len(d)}\n" for n, d in out]
        out.append((record, ("".join(rows) + record + ",,\n").encode()))
    with zipfile.ZipFile("/job/out/" + name, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for filename, data in out:
            info = zipfile.ZipInfo(filename, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            target.writestr(info, data)
    return counted

def digest(data):
    import base64, hashlib
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

compiled = {}
if not failures:
    for name in job["wheels"]:
        compiled[name] = rewrite(name, job["site_packages"], set(job["always"]))
    compiled[job["stdlib_file"]] = rewrite(job["stdlib_file"], job["stdlib"], set())
with open("/job/report.json", "w") as report:
    json.dump({"failures": failures, "compiled": compiled}, report)
"""


@dataclass(frozen=True)
class Page:
    """A page notebook's name and the code of its cells, in order."""

    name: str
    cells: tuple[str, ...]

    @classmethod
    def from_notebook(cls, path: Path) -> Page:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        cells = tuple(
            "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in notebook["cells"]
            if cell["cell_type"] == "code"
        )
        return cls(path.stem, cells)


def compile_used(
    wheels: Iterable[Path],
    pyodide_dir: Path,
    *,
    packages: Sequence[str],
    pages: Iterable[Page],
    always: Iterable[str],
) -> dict[str, int]:
    """Rewrite ``wheels`` and ``pyodide_dir``'s standard library in place with what the pages
    import compiled (see the module's docstring). ``pyodide_dir`` holds the runtime and a
    lock of exactly these wheels; ``packages`` are the boot packages; ``always`` the
    top-level packages compiled whole. Returns the number of modules compiled per file."""
    wheels = list(wheels)
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: it runs the site's Pyodide to compile the modules")
    stdlib = pyodide_dir / STDLIB_FILE
    with tempfile.TemporaryDirectory(prefix="durak-pyc-") as tmp:
        work = Path(tmp)
        (work / "out").mkdir()
        runner = work / "compile.js"
        runner.write_text(_RUNNER, encoding="utf-8")
        job = {
            "files": [str(w) for w in [*wheels, stdlib]],
            "wheels": [w.name for w in wheels],
            "stdlib_file": STDLIB_FILE,
            "out": str(work / "out"),
            "packages": list(packages),
            "pages": [{"name": p.name, "cells": list(p.cells)} for p in pages],
            "always": sorted(always),
            "site_packages": SITE_PACKAGES,
            "stdlib": STDLIB,
            "code": _CENSUS_AND_COMPILE,
        }
        (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
        result = subprocess.run(
            [node, str(runner), str(pyodide_dir), str(work / "job.json")],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if result.returncode != 0:
            output = (result.stderr or result.stdout)[-4000:]
            raise BuildError("running the pages in Pyodide failed:\n" + output)
        report = json.loads((work / "out" / "report.json").read_text(encoding="utf-8"))
        if report["failures"]:
            raise BuildError("a page fails in Pyodide:\n" + "\n".join(report["failures"]))
        for file in [*wheels, stdlib]:
            shutil.move(work / "out" / file.name, file)
    compiled: dict[str, int] = report["compiled"]
    return compiled
