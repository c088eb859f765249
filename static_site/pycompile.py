"""Wheels with their modules compiled to bytecode by the site's own Pyodide.

The browser compiles every ``.py`` it imports, and in WebAssembly that is slow: ``import
IPython`` alone took 2.2 s of a cold page (Pyodide 0.29 under Node on the 2-core machine),
most of it compiling. Pyodide's own packages ship compiled modules for that reason. Here each
shipped wheel is rewritten with every ``module.py`` replaced by ``module.pyc`` (unchecked
hash-based bytecode, which CPython imports without a source beside it), compiled by the very
interpreter the site ships (run under Node), so the bytecode always matches it. The RECORD
is written afresh; everything else in the wheel is kept.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .config import BuildError

#: Where Pyodide installs wheels: the code objects name their files there (tracebacks).
SITE_PACKAGES = "/lib/python3.13/site-packages"

_RUNNER = r"""
const fs = require("fs");
const path = require("path");
const [pyodideDir, jobFile, lockFile] = process.argv.slice(2);
const { loadPyodide } = require(path.join(pyodideDir, "pyodide.js"));
(async () => {
  const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", lockFileURL: lockFile });
  const job = JSON.parse(fs.readFileSync(jobFile, "utf8"));
  pyodide.FS.mkdirTree("/job");
  for (const wheel of job.wheels) {
    pyodide.FS.writeFile("/job/" + path.basename(wheel), fs.readFileSync(wheel));
  }
  pyodide.globals.set("names", pyodide.toPy(job.wheels.map((w) => path.basename(w))));
  pyodide.globals.set("site_packages", job.site_packages);
  pyodide.runPython(job.code);
  for (const wheel of job.wheels) {
    fs.writeFileSync(job.out + "/" + path.basename(wheel),
                     pyodide.FS.readFile("/job/out/" + path.basename(wheel)));
  }
})().catch((error) => { console.error(error); process.exit(1); });
"""

_COMPILE = r"""
import base64, hashlib, importlib.util, os, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def digest(data):
    raw = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + raw.decode()

os.makedirs("/job/out", exist_ok=True)
for name in names:
    with zipfile.ZipFile("/job/" + name) as source:
        entries = [(info.filename, source.read(info)) for info in source.infolist()
                   if not info.is_dir()]
    record_name = next(n for n, _ in entries if n.endswith(".dist-info/RECORD"))
    out = []
    for filename, data in entries:
        if filename.endswith(".py"):
            try:
                code = compile(data, site_packages + "/" + filename, "exec", dont_inherit=True)
            except SyntaxError:  # not a module of this Python (a template, test data): as is
                code = None
            if code is not None:
                data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                filename += "c"
        if filename != record_name:
            out.append((filename, data))
    record = "".join(f"{n},{digest(d)},{len(d)}\n" for n, d in out) + f"{record_name},,\n"
    with zipfile.ZipFile("/job/out/" + name, "w", zipfile.ZIP_DEFLATED) as target:
        for filename, data in out:
            target.writestr(filename, data)
        target.writestr(record_name, record)
"""


def precompile(wheels: Iterable[Path], pyodide_dir: Path, info: Mapping[str, Any]) -> None:
    """Replace each wheel in place by its compiled form (see the module's docstring).
    ``pyodide_dir`` holds the runtime (its lock is written later); ``info`` is the lock's."""
    wheels = list(wheels)
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: it runs the site's Pyodide to compile the wheels")
    with tempfile.TemporaryDirectory(prefix="durak-pyc-") as tmp:
        work = Path(tmp)
        (work / "out").mkdir()
        runner = work / "compile.js"
        runner.write_text(_RUNNER, encoding="utf-8")
        job = {
            "wheels": [str(w) for w in wheels],
            "out": str(work / "out"),
            "site_packages": SITE_PACKAGES,
            "code": _COMPILE,
        }
        (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
        lock = work / "pyodide-lock.json"
        lock.write_text(json.dumps({"info": dict(info), "packages": {}}), encoding="utf-8")
        result = subprocess.run(
            [node, str(runner), str(pyodide_dir), str(work / "job.json"), str(lock)],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if result.returncode != 0:
            output = (result.stderr or result.stdout)[-4000:]
            raise BuildError("compiling the wheels in Pyodide failed:\n" + output)
        for wheel in wheels:
            shutil.move(work / "out" / wheel.name, wheel)
