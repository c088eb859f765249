"""``pyodide-lock.json`` written afresh for exactly the wheels the site ships.

Pyodide checks each file's SHA-256 against its lock, and PyPI's wheels differ from Pyodide's
rebuilt ones, so the npm package's lock (which lists files the npm package does not even hold)
cannot be used. Each entry here comes from the wheel itself: name and version from ``METADATA``,
``imports`` from its top-level modules (``loadPackagesFromImports`` maps ``import x`` to the
package through them), ``depends`` from ``Requires-Dist`` evaluated for the browser
(``sys_platform == "emscripten"``, Python 3.13).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .config import BROWSER_PYTHON, BuildError, canonical_name
from .wheels import read_metadata, sha256_file

#: The environment markers of Pyodide 0.29 (CPython 3.13.2, Emscripten, wasm32).
BROWSER_ENVIRONMENT = {
    "implementation_name": "cpython",
    "implementation_version": f"{BROWSER_PYTHON}.2",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "platform_python_implementation": "CPython",
    "platform_release": "4.0.9",
    "platform_system": "Emscripten",
    "platform_version": "#1",
    "python_full_version": f"{BROWSER_PYTHON}.2",
    "python_version": BROWSER_PYTHON,
    "sys_platform": "emscripten",
    "extra": "",
}

#: Dependencies that only carry front-end files for Jupyter (the site ships those as lab
#: extensions) and that no Python code imports: left out of ``depends``.
FRONT_END_ONLY = frozenset({"widgetsnbextension", "jupyterlab-widgets"})


def top_level_imports(path: Path) -> list[str]:
    """The importable top-level names of a wheel: packages (a folder with ``__init__.py``)
    and modules (``x.py`` at the top)."""
    names: set[str] = set()
    with zipfile.ZipFile(path) as wheel:
        for name in wheel.namelist():
            parts = name.split("/")
            if parts[0].endswith((".dist-info", ".data")):
                continue
            if len(parts) == 1 and name.endswith(".py"):
                names.add(name[: -len(".py")])
            elif len(parts) == 2 and parts[1] == "__init__.py":
                names.add(parts[0])
    return sorted(names)


def browser_depends(path: Path) -> list[str]:
    """Canonical names of what the wheel requires in the browser (markers evaluated for
    Emscripten/Python 3.13, extras not requested, front-end-only packages left out)."""
    from packaging.requirements import Requirement

    depends: set[str] = set()
    for line in read_metadata(path).get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate(
            BROWSER_ENVIRONMENT
        ):
            continue
        name = canonical_name(requirement.name)
        if name not in FRONT_END_ONLY:
            depends.add(name)
    return sorted(depends)


def lock_entry(path: Path, *, imports: Iterable[str] | None = None) -> dict[str, Any]:
    """The lock entry of one wheel (``imports`` given for stubs, which import nothing)."""
    metadata = read_metadata(path)
    name, version = metadata["Name"], metadata["Version"]
    if not name or not version:
        raise BuildError(f"{path.name}: METADATA has no Name or Version")
    return {
        "name": name,
        "version": version,
        "file_name": path.name,
        "install_dir": "site",
        "sha256": sha256_file(path),
        "package_type": "package",
        "imports": sorted(imports) if imports is not None else top_level_imports(path),
        "depends": browser_depends(path),
        "unvendored_tests": False,
    }


def build_lock(
    info: Mapping[str, Any], wheels: Iterable[Path], stubs: Iterable[Path]
) -> dict[str, Any]:
    """The whole lock: Pyodide's ``info`` (from the npm package) and one entry per wheel.

    Fails when a wheel depends on something the site does not ship: Pyodide would throw
    "No known package" in the learner's browser.
    """
    packages: dict[str, dict[str, Any]] = {}
    for path, imports in [*((w, None) for w in wheels), *((s, ()) for s in stubs)]:
        entry = lock_entry(path, imports=imports)
        key = canonical_name(entry["name"])
        if key in packages:
            raise BuildError(f"two wheels of {key}: {packages[key]['file_name']}, {path.name}")
        packages[key] = entry
    missing = [
        f"{entry['name']} needs {dep}"
        for entry in packages.values()
        for dep in entry["depends"]
        if dep not in packages
    ]
    if missing:
        raise BuildError(
            "the browser wheels are incomplete (add the missing ones to "
            "static_site/browser-wheels.txt): " + "; ".join(missing)
        )
    owners: dict[str, str] = {}
    for key, entry in packages.items():
        for module in entry["imports"]:
            if module in owners:
                raise BuildError(f"both {owners[module]} and {key} provide `import {module}`")
            owners[module] = key
    return {"info": dict(info), "packages": dict(sorted(packages.items()))}


def write_lock(lock: Mapping[str, Any], path: Path) -> None:
    """Write the lock as Pyodide reads it."""
    path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n", encoding="utf-8")
