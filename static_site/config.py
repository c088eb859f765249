"""Where things are, and the versions that must move together."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tutorial.i18n import SUPPORTED_LANGUAGES

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
BUILD = REPO / "build"
SITE = BUILD / "static"
CACHE = BUILD / "cache"
WORK = BUILD / "static-work"
#: Fingerprint of the inputs of the last successful build (see :mod:`static_site.inputs`).
STAMP = BUILD / "static.stamp.json"

BUILD_REQUIREMENTS = Path(__file__).with_name("requirements.txt")
BROWSER_WHEELS = Path(__file__).with_name("browser-wheels.txt")

PYODIDE_VERSION = "0.29.0"
#: What the browser's Python is: the wheels' dependency markers are evaluated for it.
BROWSER_PYTHON = "3.13"
#: The languages of the site (tutorial.i18n's one list): Babel's locale data is trimmed to these
#: (and CLDR's root).
LANGUAGES = SUPPORTED_LANGUAGES

#: Packages whose lab extension is copied from the build venv into the site (ipywidgets' is in
#: jupyterlab_widgets): the browser kernel's wheel must have the same version.
FRONT_END_PACKAGES = ("anywidget", "ipywidgets")


class BuildError(RuntimeError):
    """A missing or inconsistent piece: the build stops with this message."""


@dataclass(frozen=True)
class Pin:
    """One ``name==version`` line of a requirements file."""

    name: str
    version: str

    @property
    def key(self) -> str:
        """The canonical project name (PEP 503): ``typing_extensions`` -> ``typing-extensions``."""
        return canonical_name(self.name)


def canonical_name(name: str) -> str:
    """PEP 503 normalization: lower case, runs of ``-_.`` become ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: Path) -> dict[str, Pin]:
    """The ``name==version`` pins of a requirements file, by canonical name.

    Anything but an exact pin (a range, an URL, an option) is an error: the site must be
    reproducible.
    """
    pins: dict[str, Pin] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        found = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)", line)
        if found is None:
            raise BuildError(f"{path}:{number}: expected an exact pin name==version, got {line!r}")
        pin = Pin(found.group(1), found.group(2))
        if pin.key in pins:
            raise BuildError(f"{path}:{number}: {pin.name} is pinned twice")
        pins[pin.key] = pin
    return pins
