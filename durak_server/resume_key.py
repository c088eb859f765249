"""The resume key: one per server, kept in a file of its own, handed to every kernel it starts.

The play page seals its deal (:mod:`tutorial.sealing`) with this key so that "Start again
where I was" can deal the same game and nobody can read or forge it. The server decides the
key once at start and puts it in its environment as ``DURAK_RESUME_KEY``, which every kernel
inherits:

* ``DURAK_RESUME_KEY`` already set: used as it is, unless it is weak (fewer than
  :data:`MIN_SECRET` characters or fewer than :data:`MIN_DISTINCT` different ones): the server
  then refuses to start, naming the fix;
* else the file ``DurakServer.resume_key_file`` (default: ``durak-resume-<folder>.key`` in
  Jupyter's runtime folder, ``<folder>`` a digest of the notebook folder, so two checkouts or
  two sites of one user never share a key): 32 random bytes, created when missing, and
  created anew (with a warning in the log) when empty or damaged.

A restart keeps the file, so a learner resumes across it; a new key (a new file, another
``DURAK_RESUME_KEY``) makes every saved game unusable. The ids of the server's keys (not the
keys) are kept, newest last, in ``<key file>.ids`` beside the key file, and the earlier ones
are handed to the kernels as ``DURAK_RESUME_EARLIER_KEYS``: a page then says that a game
could not be continued because the key changed, and only then.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from pathlib import Path

from tutorial.sealing import EARLIER_KEYS_ENV, RESUME_KEY_ENV, key_id

#: A ``DURAK_RESUME_KEY`` shorter than this is refused.
MIN_SECRET = 32
#: ... and one with fewer different characters (``"a" * 40``, ``"0123" * 10``).
MIN_DISTINCT = 10
_KEY_BYTES = 32
#: The most key ids kept (the current one and the earlier ones).
MAX_KEY_IDS = 16


class WeakKeyError(ValueError):
    """``DURAK_RESUME_KEY`` is too easy to guess."""


def default_key_file(root_dir: str) -> Path:
    """``durak-resume-<digest of root_dir>.key`` in Jupyter's runtime folder."""
    from jupyter_core.paths import jupyter_runtime_dir

    digest = hashlib.sha256(os.path.realpath(root_dir).encode()).hexdigest()[:12]
    return Path(jupyter_runtime_dir()) / f"durak-resume-{digest}.key"


def check_secret(secret: str) -> None:
    """Raise :class:`WeakKeyError` unless ``secret`` is long and varied enough."""
    if len(secret) < MIN_SECRET or len(set(secret)) < MIN_DISTINCT:
        raise WeakKeyError(
            f"{RESUME_KEY_ENV} is too weak: use at least {MIN_SECRET} random characters, e.g. "
            "the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )


def key_from_file(path: Path, log: logging.Logger) -> bytes:
    """The 32-byte key in ``path``, created (mode 0600) when missing, empty or damaged."""
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = b""
        log.info("Resume key: creating %s", path)
    else:
        if len(key) != _KEY_BYTES:
            log.warning(
                "Resume key: %s held %d bytes, not %d: created a new key (games saved with the "
                "old one can no longer be resumed)",
                path,
                len(key),
                _KEY_BYTES,
            )
    if len(key) == _KEY_BYTES:
        return key
    key = secrets.token_bytes(_KEY_BYTES)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    partial.replace(path)
    return key


def install(key_file: str, root_dir: str, log: logging.Logger) -> str:
    """Decide the server's resume key (see the module's docstring) and put it, and its
    earlier keys' ids, in the environment its kernels inherit; returns where it came from,
    for the log."""
    path = Path(key_file) if key_file else default_key_file(root_dir)
    secret = os.environ.get(RESUME_KEY_ENV, "")
    if secret:
        check_secret(secret)
        source = f"${RESUME_KEY_ENV}"
    else:
        os.environ[RESUME_KEY_ENV] = key_from_file(path, log).hex()
        source = str(path)
    os.environ[EARLIER_KEYS_ENV] = ",".join(remember_key_id(path.with_name(path.name + ".ids")))
    return source


def remember_key_id(ids_file: Path) -> list[str]:
    """Record the current key's id (newest last) in ``ids_file``; the earlier keys' ids."""
    current = key_id()
    assert current is not None  # install() has just put the key in the environment
    try:
        known = [line.strip() for line in ids_file.read_text("ascii").splitlines()]
    except (OSError, UnicodeDecodeError):
        known = []
    earlier = [i for i in known if len(i) == 8 and i != current][-(MAX_KEY_IDS - 1) :]
    try:
        ids_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        ids_file.write_text("".join(f"{i}\n" for i in [*earlier, current]), "ascii")
    except OSError:
        pass
    return earlier
