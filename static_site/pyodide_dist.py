"""Pyodide's interpreter from the npm registry (``npm pack pyodide@<version>``), no CDN.

The npm package holds the interpreter and a lock of 358 packages, but none of the package
files; the site's own wheels and lock are added by :mod:`static_site.build`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

from .config import BuildError

#: The files of the npm package the browser loads (the rest are typings, maps and demos).
RUNTIME_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)


def fetch_tarball(version: str, cache: Path) -> Path:
    """``pyodide-<version>.tgz`` from the npm registry, cached in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / f"pyodide-{version}.tgz"
    if tarball.is_file():
        return tarball
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm not found: it fetches Pyodide from the npm registry (get Node.js)")
    print(f"npm pack pyodide@{version}")
    result = subprocess.run(
        [npm, "pack", f"pyodide@{version}", "--pack-destination", str(cache), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if result.returncode != 0 or not tarball.is_file():
        raise BuildError(f"npm pack pyodide@{version} failed:\n{result.stdout}{result.stderr}")
    return tarball


def unpack_runtime(tarball: Path, target: Path) -> dict[str, Any]:
    """Extract the interpreter files into ``target``; returns the ``info`` of the npm lock
    (Pyodide's ABI, platform and Python version, kept in the site's lock)."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball, "r:gz") as archive:
        members = {member.name: member for member in archive.getmembers()}
        for name in RUNTIME_FILES:
            member = members.get(f"package/{name}")
            if member is None or not member.isfile():
                raise BuildError(f"{tarball.name} has no {name}")
            source = archive.extractfile(member)
            assert source is not None
            with source, (target / name).open("wb") as out:
                shutil.copyfileobj(source, out)
        lock_member = members.get("package/pyodide-lock.json")
        if lock_member is None:
            raise BuildError(f"{tarball.name} has no pyodide-lock.json")
        lock_file = archive.extractfile(lock_member)
        assert lock_file is not None
        with lock_file:
            info = json.load(lock_file).get("info")
    if not isinstance(info, dict) or "python" not in info:
        raise BuildError(f"{tarball.name}: pyodide-lock.json has no usable 'info'")
    return info
