"""``script/build-static``: the explainer as an offline Voici site in ``build/static/``.

Run by ``script/build-static`` inside its build venv (``.venv-static/``); see the package
docstring for the parts. Everything comes from PyPI and npm, cached in ``build/cache/``;
the site fetches nothing from any other host at run time.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path

from . import inputs, lean, lock, pycompile, pyodide_dist, voici_site, wheels
from .config import (
    BROWSER_WHEELS,
    BUILD,
    BUILD_REQUIREMENTS,
    CACHE,
    FRONT_END_PACKAGES,
    LANGUAGES,
    PYODIDE_VERSION,
    REPO,
    SITE,
    STAMP,
    WORK,
    BuildError,
    Pin,
    read_pins,
)

#: Metadata-only wheels: name -> (version, why). See :func:`static_site.wheels.stub_wheel`.
STUBS = {
    "sqlite3": ("1.0.0", "Stub: Pyodide's sqlite3 module is not on PyPI or npm; unused here."),
    "jedi": ("0.20.1+stub", "Stub: code completion, which a Voici page never asks for."),
    "prompt_toolkit": (
        "3.0.50+stub",
        "Stub: IPython's terminal front end, which a kernel never starts (static_site/lean.py).",
    ),
}
#: The project's own top-level packages: compiled whole (a click may import more of them).
OWN_PACKAGES = ("durak_core", "tutorial")


#: Where the Pyodide kernel's lab extension keeps the wheels it installs itself.
KERNEL_WHEELS = (
    Path(sys.prefix)
    / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
)
KERNEL_WHEEL_NAMES = frozenset({"ipykernel", "piplite", "pyodide_kernel"})


def check_build_venv(build_pins: Mapping[str, Pin], browser_pins: Mapping[str, Pin]) -> None:
    """The build venv has exactly the pinned versions, and the lab extensions it will copy
    belong to the wheels the browser kernel installs."""
    for pin in build_pins.values():
        try:
            found = metadata.version(pin.name)
        except metadata.PackageNotFoundError:
            found = "nothing"
        if found != pin.version:
            raise BuildError(
                f"the build venv has {pin.name} {found}, {BUILD_REQUIREMENTS.name} pins "
                f"{pin.version}: run script/build-static (it refreshes .venv-static/)"
            )
    for python_name in FRONT_END_PACKAGES:
        browser = browser_pins.get(python_name)
        if browser is None or browser.version != build_pins[python_name].version:
            raise BuildError(
                f"{python_name}: the site's lab extension is {build_pins[python_name].version} "
                f"but the browser kernel gets {browser.version if browser else 'none'}: "
                f"pin the same version in {BUILD_REQUIREMENTS.name} and {BROWSER_WHEELS.name}"
            )
    schema = (
        Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
        / "static/schema/kernel.v0.schema.json"
    )  # fmt: skip
    default_url = json.loads(schema.read_text())["properties"]["pyodideUrl"]["default"]
    if f"/v{PYODIDE_VERSION}/" not in default_url:
        raise BuildError(f"the Pyodide kernel expects {default_url}, not Pyodide {PYODIDE_VERSION}")


def check_widget_pair(ipywidgets_wheel: Path) -> None:
    """The copied ``jupyterlab_widgets`` extension satisfies the browser's ipywidgets."""
    from packaging.requirements import Requirement

    installed = metadata.version("jupyterlab_widgets")
    for line in wheels.read_metadata(ipywidgets_wheel).get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.name.replace("_", "-") == "jupyterlab-widgets" and not (
            requirement.specifier.contains(installed, prereleases=True)
        ):
            raise BuildError(f"jupyterlab_widgets {installed} does not satisfy ipywidgets' {line}")


def assemble_pyodide(target: Path) -> list[Path]:
    """Pyodide's interpreter, every wheel of the browser kernel and their lock in ``target``
    (the lite dir's ``static/pyodide/``). Returns the wheels."""
    browser_pins = read_pins(BROWSER_WHEELS)
    tarball = pyodide_dist.fetch_tarball(PYODIDE_VERSION, CACHE / "npm")
    downloaded = wheels.download(browser_pins.values(), CACHE / "wheels")
    check_widget_pair(downloaded["ipywidgets"])
    slim = lean.lean_wheels(downloaded, WORK / "lean", LANGUAGES)
    print("building the project's wheel")
    project = wheels.build_project_wheel(WORK / "project")
    wheels.check_project_wheel(project, LANGUAGES)

    if target.exists():
        shutil.rmtree(target)
    info = pyodide_dist.unpack_runtime(tarball, target)
    left_out = lean.lean_stdlib(target / pycompile.STDLIB_FILE)
    print(f"standard library: {left_out} files left out")
    shipped = [target / p.name for p in [*slim.values(), project]]
    for source, copy in zip([*slim.values(), project], shipped, strict=True):
        shutil.copyfile(source, copy)
    # The kernel's own wheels (its ipykernel shim, piplite, pyodide_kernel) ship inside its lab
    # extension, where piplite installs them one by one; in the lock, Pyodide loads them at
    # boot with everything else.
    kernel_wheels = sorted(KERNEL_WHEELS.glob("*.whl"))
    kernel_wheels = [w for w in kernel_wheels if w.name.split("-")[0] in KERNEL_WHEEL_NAMES]
    found = {w.name.split("-")[0] for w in kernel_wheels}
    if found != KERNEL_WHEEL_NAMES:
        raise BuildError(f"the kernel extension lacks {sorted(KERNEL_WHEEL_NAMES - found)}")
    for wheel in kernel_wheels:
        shutil.copyfile(wheel, target / wheel.name)
    shipped += [target / wheel.name for wheel in kernel_wheels]
    stubs = [wheels.stub_wheel(name, v, why, target) for name, (v, why) in STUBS.items()]
    lock.write_lock(lock.build_lock(info, shipped, stubs), target / "pyodide-lock.json")
    print("running every page in Pyodide, compiling what they import")
    compiled = pycompile.compile_used(
        shipped,
        target,
        packages=voici_site.boot_packages([*shipped, *stubs]),
        pages=[pycompile.Page.from_notebook(p) for p in voici_site.page_notebooks()],
        always=OWN_PACKAGES,
    )
    stdlib = compiled[pycompile.STDLIB_FILE]
    print(f"  compiled {sum(compiled.values())} modules ({stdlib} of the standard library)")
    # The compiled wheels have new hashes.
    lock.write_lock(lock.build_lock(info, shipped, stubs), target / "pyodide-lock.json")
    return [*shipped, *stubs]


def human(size: float) -> str:
    """``12.3 MB`` (decimal units, as browsers' network panels count)."""
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError


def folder_size(folder: Path) -> int:
    """Bytes in all files under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def report(site: Path, shipped: Sequence[Path], seconds: float) -> None:
    """Print the sizes of the site and its largest parts, and the build time."""
    pyodide = site / "static" / "pyodide"
    runtime = sum((pyodide / name).stat().st_size for name in pyodide_dist.RUNTIME_FILES)
    wheel_sizes = sorted(((pyodide / p.name).stat().st_size, p.name) for p in shipped)[::-1]
    files = sum(1 for p in site.rglob("*") if p.is_file())
    print(f"\nsite: {site.relative_to(REPO)}/  {human(folder_size(site))} in {files} files")
    print(f"  Pyodide interpreter       {human(runtime)}")
    print(f"  browser wheels ({len(shipped):2})       {human(sum(s for s, _ in wheel_sizes))}")
    for size, name in wheel_sizes[:5]:
        print(f"    {name:<46} {human(size)}")
    print(f"  Voici app, pages (voici/) {human(folder_size(site / 'voici'))}")
    print(f"  JupyterLite (build/)      {human(folder_size(site / 'build'))}")
    print(f"  lab extensions            {human(folder_size(site / 'extensions'))}")
    pages = sorted((site / voici_site.PAGES).glob("*.html"))
    print(f"  pages ({len(pages)}): {', '.join(p.stem for p in pages)}")
    print(f"built in {seconds:.1f} s")


def build() -> None:
    """The whole build; replaces ``build/static/`` only when everything succeeded."""
    started = time.monotonic()
    fingerprint = inputs.fingerprint()
    build_pins, browser_pins = read_pins(BUILD_REQUIREMENTS), read_pins(BROWSER_WHEELS)
    check_build_venv(build_pins, browser_pins)

    if WORK.exists():
        shutil.rmtree(WORK)
    lite_dir = WORK / "lite"
    shipped = assemble_pyodide(lite_dir / "static" / "pyodide")
    voici_site.write_lite_dir(lite_dir, voici_site.boot_packages(shipped))
    notebooks = voici_site.page_notebooks()
    voici_site.stage_contents(notebooks, WORK / "contents")
    print(f"voici build: {len(notebooks)} pages")
    output = WORK / "out"
    voici_site.voici_build(lite_dir, WORK / "contents", output, WORK / "jupyter-data")
    voici_site.finish_site(output, notebooks)

    STAMP.unlink(missing_ok=True)
    if SITE.exists():
        shutil.rmtree(SITE)
    output.replace(SITE)
    shutil.rmtree(WORK)
    info: dict[str, object] = {
        "fingerprint": fingerprint,
        "pyodide": PYODIDE_VERSION,
        "wheels": sorted(p.name for p in shipped),
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    inputs.write_stamp(info)
    report(SITE, shipped, time.monotonic() - started)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="script/build-static",
        description=(
            "Build the explainer as an offline static site (Voici + Pyodide) in build/static/, "
            "from PyPI and npm only (cached in build/cache/). Serve the folder with any static "
            "web server, e.g. `python3 -m http.server -d build/static`, and open "
            "/voici/render/index.html (or /, which redirects there; ?lang=es|en|ru works)."
        ),
    )
    parser.add_argument(
        "--if-stale",
        action="store_true",
        help="do nothing when build/static/ was built from the current sources",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    BUILD.mkdir(parents=True, exist_ok=True)
    # One build at a time in a checkout (two test sessions may ask at once); the second one
    # then finds the site up to date.
    with (BUILD / "static.lock").open("w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        if args.if_stale and not inputs.is_stale():
            print(f"{SITE.relative_to(REPO)}/ is up to date")
            return 0
        try:
            build()
        except BuildError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    return 0
