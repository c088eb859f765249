"""The resume ledger: the newest state a server sealed for each game, so an older one is refused.

A sealed resume state (:mod:`tutorial.sealing`) cannot be read or forged, but the browser keeps
every one it was sent: handing back an older one would take a move back after seeing the
computer's answer. Each sealed state of a game carries the game's random id and a sequence
number; the ledger keeps the highest number sealed for each id, in one small file per game in
Jupyter's runtime folder (shared by every kernel of the server's user, so a reload, which
starts a new kernel, sees it too). A state older than the ledger's is refused.

A kernel that dies after sealing a state but before the browser received it leaves the
browser one state behind: that game cannot be resumed (the page deals anew and says so).
Files older than :data:`KEEP_SECONDS` are removed now and then. Without a runtime folder (no
``jupyter_core``, nothing writable) the ledger keeps nothing and refuses nothing.

A game is played in one tab (issue 37 item 2). The ledger also keeps the newest sealed token
of each game, and :meth:`Ledger.advance` moves a game on only from the number its caller
holds, as one step under a lock shared by every kernel: a page *reserves* the next number
before it changes its game (the token is stored once sealed), and a resume takes the game by
advancing it past the number it resumed. A page whose number is no longer the newest lost
its game to another tab: it freezes, and may take the game back from the newest token
(:meth:`Ledger.entry`), never from an older position. While a number is reserved (its token
not stored yet) nobody can take the game: the position is about to change.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final, NamedTuple

try:
    import fcntl
except ImportError:  # Windows, Pyodide: one process at a time anyway
    fcntl = None  # type: ignore[assignment]

__all__ = ["GAME_ID", "KEEP_SECONDS", "Entry", "Ledger", "ledger"]

GAME_ID: Final = re.compile(r"[0-9a-f]{32}")
"""A game's id: 16 random bytes in hex (``secrets.token_hex(16)``)."""
KEEP_SECONDS: Final = 7 * 24 * 3600
"""How long a game's entry is kept after its last state (a week)."""
_FOLDER: Final = "durak-resume-games"
_PRUNE_EVERY: Final = 200
"""On average, one new game in this many prunes the folder."""
_MAX_ENTRY: Final = 64 * 1024
"""The most read of a game's file (its number, a newline and its newest token)."""


class Entry(NamedTuple):
    """A game's newest number and the token sealed with it (``""``: reserved, not sealed yet)."""

    number: int
    token: str


class Ledger:
    """The highest sequence number sealed per game id, in ``folder`` (``None``: keep nothing)."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        self._seen: dict[str, Entry] = {}

    def _path(self, game_id: str) -> str | None:
        if self.folder is None or not GAME_ID.fullmatch(game_id):
            return None
        return os.path.join(self.folder, game_id)

    def entry(self, game_id: str) -> Entry | None:
        """The newest number recorded for ``game_id`` and its token, or ``None`` if none is."""
        path = self._path(game_id)
        if path is None:
            return self._seen.get(game_id)
        try:
            with open(path, encoding="ascii") as source:
                text = source.read(_MAX_ENTRY)
        except (OSError, UnicodeDecodeError):
            return self._seen.get(game_id)
        number, _, token = text.partition("\n")
        if not number.isdigit():
            return self._seen.get(game_id)
        return Entry(int(number), token.strip())

    def latest(self, game_id: str) -> int | None:
        """The highest number recorded for ``game_id``, or ``None`` if none is."""
        found = self.entry(game_id)
        return None if found is None else found.number

    def record(self, game_id: str, number: int, token: str = "") -> None:
        """``number`` is now the newest state sealed for ``game_id`` (kept when higher)."""
        with self._locked(game_id):
            found = self.entry(game_id)
            if found is None or found.number < number:
                self._write(game_id, Entry(number, token))

    def advance(self, game_id: str, held: int, number: int, token: str = "") -> bool:
        """Record ``number`` (and ``token``) for ``game_id`` if the newest number recorded is
        at most ``held``, the number the caller holds; ``False``, changing nothing, when
        another page moved the game past it. One step for every kernel of the folder."""
        with self._locked(game_id):
            found = self.entry(game_id)
            if found is not None and found.number > held:
                return False
            self._write(game_id, Entry(number, token))
            return True

    @contextmanager
    def _locked(self, game_id: str) -> Iterator[None]:
        """Hold the ledger's lock for one read and one write: a file beside the folder (not in
        it: :meth:`prune` sees only games), locked by one kernel at a time, for a moment."""
        if self._path(game_id) is None or self.folder is None or fcntl is None:
            yield
            return
        try:
            fd = os.open(f"{self.folder.rstrip(os.sep)}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _write(self, game_id: str, entry: Entry) -> None:
        new = game_id not in self._seen
        self._seen[game_id] = entry
        path = self._path(game_id)
        if path is None or self.folder is None:
            return
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "w", encoding="ascii") as out:
                out.write(f"{entry.number}\n{entry.token}")
            os.replace(temporary, path)
        except OSError:
            return
        if new and random.randrange(_PRUNE_EVERY) == 0:
            self.prune()

    def prune(self, now: float | None = None) -> int:
        """Remove the entries older than :data:`KEEP_SECONDS`; how many were removed."""
        if self.folder is None:
            return 0
        limit = (time.time() if now is None else now) - KEEP_SECONDS
        removed = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        for entry in entries:
            try:
                if entry.stat().st_mtime < limit:
                    os.remove(entry.path)
                    removed += 1
            except OSError:
                continue
        return removed


def _default_folder() -> str | None:
    try:
        from jupyter_core.paths import jupyter_runtime_dir

        folder = os.path.join(jupyter_runtime_dir(), _FOLDER)
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except (ImportError, OSError):
        return None
    return folder


_LEDGER: Ledger | None = None


def ledger() -> Ledger:
    """This kernel's ledger, in Jupyter's runtime folder (made on first use)."""
    global _LEDGER
    if _LEDGER is None:
        _LEDGER = Ledger(_default_folder())
    return _LEDGER
