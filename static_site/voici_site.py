"""``voici build`` of the page notebooks, with the locally assembled Pyodide, and its checks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .config import NOTEBOOKS, BuildError

KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: The lab extensions the site must hold (the kernel, the widget managers, Voici's own).
EXPECTED_EXTENSIONS = frozenset(
    {
        "@jupyter-widgets/jupyterlab-manager",
        "@jupyterlite/pyodide-kernel-extension",
        "@voila-dashboards/jupyterlab-preview",
        "anywidget",
        "jupyterlab_pygments",
    }
)
#: Where Voici puts the rendered pages, relative to the site.
PAGES = Path("voici/render")

#: A ``<link>`` to another host: Voilà's lab template links Font Awesome from a CDN (its CSS is
#: bundled in the front end too, so nothing is lost without it).
OUTSIDE_LINK = re.compile(r"""<link\b[^>]*\bhref=["']https?://[^>]*>\s*""", re.IGNORECASE)
#: Any other reference to another host in a page's markup fails the build.
OUTSIDE_REFERENCE = re.compile(r"""\b(?:src|href)=["'](?:https?:)?//""", re.IGNORECASE)

#: The site's front door: opens the index page, keeping ``?lang=``.
ROOT_REDIRECT = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Durak</title>
<script>location.replace("voici/render/index.html" + location.search + location.hash);</script>
<meta http-equiv="refresh" content="0; url=voici/render/index.html">
</head>
<body><a href="voici/render/index.html">Durak</a></body>
</html>
"""


def page_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebooks that are pages: all but those starting with ``_`` (the Voilà server's
    internal ones, e.g. the pre-started pool's ``_shell``)."""
    found = sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("_"))
    if not found:
        raise BuildError(f"no page notebooks in {folder}")
    return found


#: The names the kernel (pyodide-kernel 0.7) looks for in ``loadPyodideOptions.packages`` to
#: skip installing them itself, one after the other, once Pyodide is up.
KERNEL_NAMES = ("micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi")


def boot_packages(wheels: list[Path]) -> list[str]:
    """Every package the site ships, for ``loadPyodideOptions.packages``: Pyodide fetches them
    all at once while it boots, instead of the kernel installing its own one by one and the
    first cell then loading the explainer's. The kernel's own under the names it checks."""
    from .config import canonical_name
    from .wheels import wheel_name_version

    names = {canonical_name(wheel_name_version(wheel)[0]) for wheel in wheels}
    kernel = [name for name in KERNEL_NAMES if canonical_name(name) in names]
    missing = set(KERNEL_NAMES) - set(kernel)
    if missing:
        raise BuildError(f"the site does not ship the kernel's {sorted(missing)}")
    rest = sorted(names - {canonical_name(name) for name in kernel})
    return [*kernel, "ipython", *(name for name in rest if name != "ipython")]


def write_lite_dir(lite_dir: Path, packages: list[str]) -> None:
    """The lite dir's ``jupyter-lite.json``: piplite must never reach for pypi.org, and Pyodide
    loads ``packages`` while it boots. (The Pyodide addon sets ``pyodideUrl`` itself because
    ``static/pyodide/`` exists there.)"""
    kernel = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": packages}}
    settings = {"jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: kernel}}}
    lite_dir.mkdir(parents=True, exist_ok=True)
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(settings, indent=2) + "\n")


def stage_contents(notebooks: list[Path], contents: Path) -> None:
    """Copy the page notebooks into a folder of their own (Voici builds a whole folder)."""
    if contents.exists():
        shutil.rmtree(contents)
    contents.mkdir(parents=True)
    for notebook in notebooks:
        shutil.copy2(notebook, contents / notebook.name)


def voici_build(lite_dir: Path, contents: Path, output: Path, jupyter_data: Path) -> None:
    """Run ``voici build`` (source maps left out). Jupyter's per-user data folder is pointed
    at an empty one, so only the build venv's lab extensions are copied."""
    voici = Path(sys.executable).with_name("voici")
    if not voici.exists():
        raise BuildError(f"{voici} not found: the build venv lacks voici-core")
    if output.exists():
        shutil.rmtree(output)
    jupyter_data.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "JUPYTER_DATA_DIR": str(jupyter_data)}
    env["JUPYTER_CONFIG_DIR"] = str(jupyter_data)
    command = [
        str(voici), "build", "--no-sourcemaps", "--show_tracebacks=False",
        f"--lite-dir={lite_dir}", f"--contents={contents}", f"--output-dir={output}",
    ]  # fmt: skip
    result = subprocess.run(
        command, cwd=lite_dir, env=env, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise BuildError(
            f"voici build failed (exit {result.returncode}):\n"
            + (result.stdout + result.stderr)[-6000:]
        )


def finish_site(output: Path, notebooks: list[Path]) -> dict[str, Any]:
    """Check the built site and give it its front door; returns the kernel settings found.

    Fails when a page, the Pyodide folder or an expected lab extension is missing, when
    ``pyodideUrl`` is not local, or when piplite could fall back to PyPI. Every page gets the
    service-worker shim and the localized waiting screen
    (:func:`tutorial.loading_screen.loading_script`); Voici's bundle is patched so that closed
    widget models are freed (:func:`free_closed_comms`) and no service worker is started
    (:func:`no_service_worker`).
    """
    expected = [PAGES / f"{notebook.stem}.html" for notebook in notebooks]
    missing = [str(page) for page in expected if not (output / page).is_file()]
    if missing:
        raise BuildError(f"voici build made no page for: {', '.join(missing)}")
    config = json.loads((output / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config.get("jupyter-config-data", {})
    kernel = data.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    url = kernel.get("pyodideUrl", "")
    if not url.startswith("./") or not (output / url).is_file():
        raise BuildError(f"pyodideUrl is {url!r}, not the site's own Pyodide")
    if kernel.get("disablePyPIFallback") is not True:
        raise BuildError("disablePyPIFallback is not set: piplite could reach for pypi.org")
    extensions = {ext.get("name") for ext in data.get("federated_extensions", [])}
    if extensions != EXPECTED_EXTENSIONS:
        raise BuildError(
            f"unexpected lab extensions: missing {sorted(EXPECTED_EXTENSIONS - extensions)}, "
            f"extra {sorted(e for e in extensions - EXPECTED_EXTENSIONS if e)}"
        )
    (output / "index.html").write_text(ROOT_REDIRECT, encoding="utf-8")
    drop_outside_links(output)
    free_closed_comms(output)
    no_service_worker(output)
    from tutorial.loading_screen import loading_script

    head = loading_script()
    for page in sorted((output / "voici").rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if html.count("<head>") != 1:
            raise BuildError(f"{page.relative_to(output)}: no single <head> to add the shim to")
        page.write_text(html.replace("<head>", "<head>\n" + head), "utf-8")
    return dict(kernel)


#: In the @jupyterlab/services that Voici bundles, every comm connects a handler to its
#: kernel's ``statusChanged`` and never disconnects it: each widget model ever opened stays
#: reachable (its comm's callbacks hold it), with its state and views. On the site's page
#: changes that kept ~270 KB per change in the page's heap (23 -> 39 MiB over 90 changes).
COMM_STATUS_SLOT = (
    'this._kernel.statusChanged.connect((()=>{"restarting"===this._kernel.status'
    "&&this._cleanSubshells()}))"
)
#: The same handler, disconnected when the comm is disposed (a comm_close disposes it).
COMM_STATUS_SLOT_FREED = (
    'this._kernel.statusChanged.connect(this._durakStatus=(()=>{"restarting"==='
    "this._kernel.status&&this._cleanSubshells()})),this._durakDispose=this.dispose,"
    "this.dispose=()=>{this.isDisposed||this._kernel.statusChanged.disconnect("
    "this._durakStatus),this._durakDispose.call(this)}"
)


#: Voici starts JupyterLite's service-worker manager, and where there is a service worker the
#: kernel mounts the site's contents at ``/drive`` and makes it the working directory. Every
#: ``stat`` there is a synchronous request to the service worker (about 6 ms), and Python's
#: import system stats the working directory (``''`` on ``sys.path``) for every import: that
#: was 1.1 s of ``import pyodide_kernel`` and more of every page's first cell. The pages read
#: no file of the contents and never ask for ``input()`` (the other thing the worker relays),
#: so the manager is left out of the plugins Voici picks from JupyterLite's application.
SERVICE_WORKER_PLUGIN = '"@jupyterlite/application-extension:service-worker-manager"===e.id'
SERVICE_WORKER_PLUGIN_LEFT_OUT = "!1"


def _patch_bundles(
    output: Path, old: str, new: str, *, files: int | None, what: str, hint: str
) -> None:
    """Replace ``old`` (found exactly once in each bundle that has it) by ``new`` in Voici's
    bundles; fail unless it was found in ``files`` bundles (``None``: in at least one)."""
    found = [
        (path, text)
        for path in sorted((output / "voici" / "build").glob("*.js"))
        if old in (text := path.read_text(encoding="utf-8"))
    ]
    counts_ok = all(text.count(old) == 1 for _, text in found)
    if not found or not counts_ok or (files is not None and len(found) != files):
        raise BuildError(f"{what} is not where it was (voici/build/*.js): {hint}")
    for path, text in found:
        path.write_text(text.replace(old, new), encoding="utf-8")


def free_closed_comms(output: Path) -> None:
    """Patch Voici's bundle so that a closed comm lets go of its widget model
    (:data:`COMM_STATUS_SLOT`). Fails if the code is not found exactly once: a new Voici
    either fixed it (drop this step) or changed it (look again)."""
    _patch_bundles(
        output, COMM_STATUS_SLOT, COMM_STATUS_SLOT_FREED, files=1,
        what="Voici's comm handler",
        hint="statusChanged connected in CommHandler's constructor; is the leak fixed?",
    )  # fmt: skip


def no_service_worker(output: Path) -> None:
    """Patch Voici's app bundles to leave out the service-worker manager
    (:data:`SERVICE_WORKER_PLUGIN`): no drive, a fast working directory, nothing to wait for."""
    _patch_bundles(
        output, SERVICE_WORKER_PLUGIN, SERVICE_WORKER_PLUGIN_LEFT_OUT, files=None,
        what="Voici's pick of JupyterLite's service-worker manager",
        hint="the plugins Voici's app activates; does it still start the manager?",
    )  # fmt: skip


def drop_outside_links(output: Path) -> None:
    """Remove stylesheet links to other hosts from every page; fail if any other reference
    to another host is left (the site must work with no network but its own host)."""
    for page in sorted(output.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        cleaned = OUTSIDE_LINK.sub("", html)
        left = OUTSIDE_REFERENCE.search(cleaned)
        if left:
            context = cleaned[max(0, left.start() - 80) : left.end() + 80]
            raise BuildError(f"{page.relative_to(output)} refers to another host: {context}")
        if cleaned != html:
            page.write_text(cleaned, encoding="utf-8")
