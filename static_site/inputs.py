"""The fingerprint of everything a static build is made from (standard library only).

``script/build-static --if-stale`` and the browser test compare it with the one recorded by the
last successful build (``build/static.stamp.json``) to decide whether to build again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from .config import REPO, SITE, STAMP

#: Files (globs relative to the repository) whose content ends up in the site.
INPUT_GLOBS = (
    "pyproject.toml",
    "hatch_build.py",
    "durak_core/**/*",
    "tutorial/**/*",
    "locales/*/LC_MESSAGES/*.po",
    "notebooks/*.ipynb",
    "static_site/**/*",
    "script/build-static",
)


def input_files(root: Path = REPO) -> Iterator[Path]:
    """Every input file, sorted, without caches (``__pycache__``, ``*.pyc``)."""
    seen: set[Path] = set()
    for pattern in INPUT_GLOBS:
        for path in root.glob(pattern):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                seen.add(path)
    yield from sorted(seen)


def fingerprint(root: Path = REPO) -> str:
    """SHA-256 over the inputs' relative paths and contents."""
    digest = hashlib.sha256()
    for path in input_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def read_stamp(stamp: Path = STAMP) -> dict[str, object]:
    """What the last successful build recorded (empty when there is none)."""
    try:
        data = json.loads(stamp.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_stamp(info: dict[str, object], stamp: Path = STAMP) -> None:
    """Record a successful build (``info`` holds at least ``fingerprint``)."""
    stamp.write_text(json.dumps(info, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def is_stale(root: Path = REPO, site: Path = SITE, stamp: Path = STAMP) -> bool:
    """True when the site is missing or was built from other inputs than the current ones."""
    if not (site / "index.html").is_file():
        return True
    return read_stamp(stamp).get("fingerprint") != fingerprint(root)
