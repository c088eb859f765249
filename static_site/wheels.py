"""The wheels the browser kernel loads: downloaded, built from the checkout, or stubbed.

Every wheel written here is deterministic (sorted entries, fixed timestamps), so a rebuild from
the same inputs gives the same bytes and the same SHA-256 in ``pyodide-lock.json``.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Mapping
from email.message import Message
from email.parser import HeaderParser
from pathlib import Path

from .config import BROWSER_PYTHON, REPO, BuildError, Pin, canonical_name

#: Zip entries' timestamp in the wheels written here (the earliest a zip can hold).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: What pip may download for the browser: pure-Python wheels only, for Python 3.13.
PIP_DOWNLOAD_TARGET = (
    "--no-deps",
    "--only-binary=:all:",
    "--platform",
    "any",
    "--python-version",
    BROWSER_PYTHON,
    "--implementation",
    "py",
    "--abi",
    "none",
)


def wheel_name_version(path: Path) -> tuple[str, str]:
    """``(canonical name, version)`` from a wheel's file name."""
    parts = path.name[: -len(".whl")].split("-")
    if not path.name.endswith(".whl") or len(parts) < 5:
        raise BuildError(f"{path.name}: not a wheel file name")
    return canonical_name(parts[0]), parts[1]


def dist_info_dir(wheel: zipfile.ZipFile) -> str:
    """The ``<name>-<version>.dist-info`` folder of an open wheel."""
    folders = {name.split("/", 1)[0] for name in wheel.namelist()}
    found = [folder for folder in folders if folder.endswith(".dist-info")]
    if len(found) != 1:
        raise BuildError(f"{wheel.filename}: expected one .dist-info folder, found {found}")
    return found[0]


def read_metadata(path: Path) -> Message:
    """The wheel's ``METADATA`` (name, version, ``Requires-Dist`` …) as an email message."""
    with zipfile.ZipFile(path) as wheel:
        text = wheel.read(f"{dist_info_dir(wheel)}/METADATA").decode("utf-8")
    return HeaderParser().parsestr(text)


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def write_wheel(path: Path, files: Mapping[str, bytes], dist_info: str) -> Path:
    """Write a wheel with ``files`` (archive path -> bytes; ``<dist_info>/RECORD`` is written
    here, any given one is replaced), entries sorted, timestamps fixed."""
    record_name = f"{dist_info}/RECORD"
    entries = {name: data for name, data in files.items() if name != record_name}
    record = "".join(
        f"{name},{_record_hash(data)},{len(data)}\n" for name, data in sorted(entries.items())
    )
    entries[record_name] = (record + f"{record_name},,\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name in sorted(entries, key=lambda n: (n == record_name, n)):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            wheel.writestr(info, entries[name])
    partial.replace(path)
    return path


def stub_wheel(name: str, version: str, summary: str, out_dir: Path) -> Path:
    """A metadata-only wheel: it satisfies an install request of ``name`` and holds no module.

    The Pyodide kernel installs ``sqlite3`` (a CPython module that only Pyodide's full
    distribution has; IPython's history is off in the kernel) and ``jedi`` (completion, which a
    Voici page never asks for; IPython checks for jedi lazily) at start.
    """
    dist_info = f"{name}-{version}.dist-info"
    metadata = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
    ).encode()
    wheel = (
        b"Wheel-Version: 1.0\nGenerator: static_site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files = {f"{dist_info}/METADATA": metadata, f"{dist_info}/WHEEL": wheel}
    return write_wheel(out_dir / f"{name}-{version}-py3-none-any.whl", files, dist_info)


def find_cached(pin: Pin, folder: Path) -> Path | None:
    """The wheel of exactly ``pin`` in ``folder``, if it was downloaded before."""
    for path in sorted(folder.glob("*.whl")):
        if wheel_name_version(path) == (pin.key, pin.version):
            return path
    return None


def download(pins: Iterable[Pin], folder: Path) -> dict[str, Path]:
    """The wheels of ``pins`` from PyPI (pure-Python, for the browser's Python), cached in
    ``folder``: only the missing ones are downloaded. Returns canonical name -> wheel."""
    folder.mkdir(parents=True, exist_ok=True)
    pins = list(pins)
    missing = [pin for pin in pins if find_cached(pin, folder) is None]
    if missing:
        print(f"downloading {len(missing)} wheels from PyPI: {', '.join(p.name for p in missing)}")
        command = [
            sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
            *PIP_DOWNLOAD_TARGET, "--dest", str(folder),
            *(f"{pin.name}=={pin.version}" for pin in missing),
        ]  # fmt: skip
        run(command, "pip download")
    found: dict[str, Path] = {}
    for pin in pins:
        path = find_cached(pin, folder)
        if path is None:
            raise BuildError(f"pip download gave no pure-Python wheel of {pin.name}=={pin.version}")
        found[pin.key] = path
    return found


def build_project_wheel(out_dir: Path, repo: Path = REPO) -> Path:
    """The project's own wheel, built from the checkout without build isolation (hatchling and
    Babel come from the build venv; the build hook compiles the catalogs into it)."""
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    command = [
        sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "--quiet",
        "--no-deps", "--no-build-isolation", "--wheel-dir", str(out_dir), str(repo),
    ]  # fmt: skip
    run(command, "building the project's wheel")
    built = sorted(out_dir.glob("*.whl"))
    if len(built) != 1:
        raise BuildError(f"expected one wheel of the project in {out_dir}, found {built}")
    return built[0]


def check_project_wheel(path: Path, languages: Iterable[str]) -> None:
    """Fail unless the wheel holds a compiled catalog per language and requires nothing that
    cannot run in the browser (the server's packages belong in an extra)."""
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
    missing = [
        lang
        for lang in languages
        if f"tutorial/locales/{lang}/LC_MESSAGES/messages.mo" not in names
    ]
    if missing:
        raise BuildError(f"{path.name} has no compiled catalog for {', '.join(missing)}")
    from packaging.requirements import Requirement

    server_only = {"voila", "ipykernel", "jupyter-server", "tornado"}
    required = [
        Requirement(line)
        for line in read_metadata(path).get_all("Requires-Dist") or []
    ]
    unconditional = {canonical_name(r.name) for r in required if r.marker is None}
    wrong = sorted(unconditional & server_only)
    if wrong:
        raise BuildError(
            f"{path.name} requires {', '.join(wrong)}, which cannot run in the browser: "
            "pyproject.toml must keep them in the `server` extra"
        )


def run(command: list[str], what: str) -> None:
    """Run a command; a failure stops the build with its output."""
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BuildError(
            f"{what} failed (exit {result.returncode}): {' '.join(command)}\n"
            + (result.stdout + result.stderr)[-4000:]
        )
