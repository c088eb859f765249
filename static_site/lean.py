"""Third-party wheels and the standard library slimmed for the browser: what no page can use
is left out.

Every byte of a wheel is downloaded and unpacked on a learner's first visit, so each rule here
leaves out files the browser kernel never reads (lab-extension copies of the front end,
test suites, CLDR data of other languages, lexers of other languages) or avoids an import it
never needs. :func:`lean_stdlib` does the same for Pyodide's ``python_stdlib.zip``: modules
for what a page in a browser tab cannot do (processes, servers, mail, the tools of a
developer's machine) and the codecs of 8-bit and East Asian encodings (the site's text is
UTF-8 throughout) are left out.

A rewritten wheel gets the version ``<version>+lean``, so the lock names exactly what ships.
A patch whose text is not found exactly once, or a file to leave out that is no longer there,
stops the build: the upstream code moved, and the rule must be looked at again.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .config import BuildError
from .wheels import dist_info_dir, wheel_name_version, write_wheel

#: The local version label of a rewritten wheel.
LABEL = "lean"


@dataclass(frozen=True)
class Lean:
    """How one project's wheel is rewritten."""

    why: str
    #: Archive path -> True when the file is left out.
    drop: Callable[[str], bool] = lambda name: False
    #: Archive path -> (old, new): ``old`` must occur exactly once in that file.
    patches: Mapping[str, tuple[bytes, bytes]] = field(default_factory=dict)
    #: Archive paths the rewritten wheel must still hold.
    required: frozenset[str] = frozenset()


def _under(*folders: str) -> Callable[[str], bool]:
    return lambda name: name.startswith(folders)


def _data_folder(name: str) -> bool:
    """A wheel's ``<name>-<version>.data/`` (files installed outside site-packages)."""
    return name.split("/", 1)[0].endswith(".data")


#: IPython 9.0 imports its terminal front end (and with it prompt_toolkit: 115 modules) on
#: ``import IPython`` only to offer ``IPython.embed``; 9.1+ made that lazy, but the Pyodide
#: kernel 0.7 needs 9.0. The same lazy attribute here.
_IPYTHON_EMBED = (
    b"from .terminal.embed import embed\n",
    b"def __getattr__(name):\n"
    b"    if name == 'embed':  # the terminal front end, never needed in a kernel\n"
    b"        from .terminal.embed import embed\n"
    b"        return embed\n"
    b"    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n",
)

#: The Python lexer is what IPython's tracebacks highlight with; no page shows other code.
_PYGMENTS_LEXERS_KEPT = frozenset(
    {"pygments/lexers/__init__.py", "pygments/lexers/_mapping.py", "pygments/lexers/python.py"}
)


#: IPython.core.shellapp, which the kernel's shell app builds on, imports ``pt_inputhooks``, and
#: the shell loads its ``storemagic`` extension at start.
_IPYTHON_KEPT = (
    "IPython/terminal/__init__.py",
    "IPython/terminal/pt_inputhooks/",
    "IPython/extensions/__init__.py",
    "IPython/extensions/storemagic.py",
)


def rules(languages: Iterable[str]) -> dict[str, Lean]:
    """The rewrite of each project (canonical name) whose wheel the site slims."""
    keep_locales = {"root", *languages}

    def other_locale(name: str) -> bool:
        found = re.fullmatch(r"babel/locale-data/([^/]+)\.dat", name)
        return found is not None and found.group(1) not in keep_locales

    front_end = _under("anywidget/labextension/", "anywidget/nbextension/")
    return {
        "babel": Lean(
            "CLDR data of the site's languages (and root) only",
            drop=other_locale,
            required=frozenset(f"babel/locale-data/{code}.dat" for code in keep_locales),
        ),
        "pygments": Lean(
            "lexers of other languages left out",
            drop=lambda name: (
                name.startswith("pygments/lexers/") and name not in _PYGMENTS_LEXERS_KEPT
            ),
            required=_PYGMENTS_LEXERS_KEPT,
        ),
        "anywidget": Lean(
            "its front end ships as the site's lab extension",
            drop=lambda name: front_end(name) or _data_folder(name),
        ),
        "ipywidgets": Lean("test suite left out", drop=lambda name: "/tests/" in name),
        "ipython": Lean(
            "no terminal front end (prompt_toolkit is a stub), `IPython.embed` imported lazily",
            drop=lambda name: (
                name.startswith(("IPython/terminal/", "IPython/extensions/", "IPython/sphinxext/"))
                and not name.startswith(_IPYTHON_KEPT)
            ),
            patches={"IPython/__init__.py": _IPYTHON_EMBED},
        ),
    }


def lean_wheel(source: Path, out_dir: Path, rule: Lean) -> Path:
    """``source`` rewritten by ``rule`` as ``<name>-<version>+lean`` in ``out_dir``."""
    _, version = wheel_name_version(source)
    new_version = f"{version}+{LABEL}"
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(source) as wheel:
        old_info = dist_info_dir(wheel)
        new_info = old_info.replace(version, new_version, 1)
        for name in wheel.namelist():
            if name.endswith("/") or rule.drop(name):
                continue
            data = wheel.read(name)
            if name == f"{old_info}/METADATA":
                data = re.sub(
                    rb"^Version: .*$", f"Version: {new_version}".encode(), data, count=1,
                    flags=re.MULTILINE,
                )  # fmt: skip
            if name in rule.patches:
                old, new = rule.patches[name]
                if data.count(old) != 1:
                    raise BuildError(f"{source.name}: {name} no longer holds {old!r} once")
                data = data.replace(old, new)
            files[name.replace(f"{old_info}/", f"{new_info}/", 1)] = data
    missing = (set(rule.patches) | rule.required) - set(files)
    if missing:
        raise BuildError(f"{source.name}: has no {sorted(missing)}")
    stem = source.name.split("-")[0]
    return write_wheel(out_dir / f"{stem}-{new_version}-py3-none-any.whl", files, new_info)


def lean_wheels(
    downloaded: Mapping[str, Path], out_dir: Path, languages: Iterable[str]
) -> dict[str, Path]:
    """The downloaded wheels (by canonical name) with every rule of :func:`rules` applied."""
    found = rules(languages)
    unknown = set(found) - set(downloaded)
    if unknown:
        raise BuildError(f"lean rules for wheels the site does not ship: {sorted(unknown)}")
    return {
        name: lean_wheel(path, out_dir, found[name]) if name in found else path
        for name, path in downloaded.items()
    }


#: Standard-library packages and modules a page in a browser tab cannot use: other processes,
#: servers, mail and news clients, a developer's tools, XML, pure-
#: Python fallbacks of modules Pyodide has in C, other platforms' helpers. The build runs every
#: page with the slimmed library (:mod:`static_site.pycompile`), so an import of one of these
#: fails there (``unittest`` stays: the kernel's package manager imports ``unittest.mock``).
STDLIB_LEFT_OUT = frozenset(
    {
        "multiprocessing", "concurrent.futures.process", "xmlrpc", "wsgiref", "http.server",
        "doctest", "pickletools", "mailbox", "imaplib", "smtplib", "ftplib", "poplib", "netrc",
        "trace", "tabnanny", "modulefinder", "compileall", "py_compile", "zipapp",
        "pyclbr", "symtable", "webbrowser", "pty", "tty", "shelve", "sched", "wave", "xml",
        "_pyio", "_pydatetime", "asyncio.windows_events", "asyncio.windows_utils",
        "_android_support", "_apple_support", "_ios_support", "__hello__", "__phello__",
        "antigravity", "this",
    }
)  # fmt: skip
#: The codecs kept: Unicode's, ASCII and Latin-1, the byte-to-byte ones, cp437 (zip file
#: names) and cp1252 (what much text that is not UTF-8 is in).
STDLIB_CODECS_KEPT = frozenset(
    {
        "__init__", "aliases", "ascii", "latin_1", "charmap", "utf_8", "utf_8_sig", "utf_7",
        "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "idna",
        "punycode", "raw_unicode_escape", "unicode_escape", "undefined", "base64_codec",
        "hex_codec", "quopri_codec", "uu_codec", "zlib_codec", "bz2_codec", "rot_13",
        "cp437", "cp1252", "iso8859_1", "iso8859_15",
    }
)  # fmt: skip


def stdlib_left_out(name: str) -> bool:
    """Whether ``python_stdlib.zip``'s entry ``name`` is left out (see :data:`STDLIB_LEFT_OUT`
    and :data:`STDLIB_CODECS_KEPT`)."""
    parts = _module_path(name)
    if any(".".join(parts[: i + 1]) in STDLIB_LEFT_OUT for i in range(len(parts))):
        return True
    codec = re.fullmatch(r"encodings/([^/]+)\.py", name)
    return codec is not None and codec.group(1) not in STDLIB_CODECS_KEPT


def _module_path(name: str) -> list[str]:
    """``http/server.py`` -> ``["http", "server"]``; ``xml/__init__.py`` -> ``["xml"]``."""
    parts = name.removesuffix(".py").split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


def lean_stdlib(path: Path) -> int:
    """Rewrite Pyodide's ``python_stdlib.zip`` at ``path`` without what
    :func:`stdlib_left_out` names; returns the number of files left out."""
    with zipfile.ZipFile(path) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    kept = [(info, data) for info, data in entries if not stdlib_left_out(info.filename)]
    present = {".".join(_module_path(info.filename)) for info, _ in entries}
    missing = STDLIB_LEFT_OUT - present
    if missing:
        raise BuildError(f"{path.name}: has no {sorted(missing)} to leave out any more")
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info, data in kept:
            target.writestr(info, data)
    partial.replace(path)
    return len(entries) - len(kept)
