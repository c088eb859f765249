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
"""

from __future__ import annotations

import os
import random
import re
import time
from typing import Final

__all__ = ["GAME_ID", "KEEP_SECONDS", "Ledger", "ledger"]

GAME_ID: Final = re.compile(r"[0-9a-f]{32}")
"""A game's id: 16 random bytes in hex (``secrets.token_hex(16)``)."""
KEEP_SECONDS: Final = 7 * 24 * 3600
"""How long a game's entry is kept after its last state (a week)."""
_FOLDER: Final = "durak-resume-games"
_PRUNE_EVERY: Final = 200
"""On average, one new game in this many prunes the folder."""


class Ledger:
    """The highest sequence number sealed per game id, in ``folder`` (``None``: keep nothing)."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        self._seen: dict[str, int] = {}

    def _path(self, game_id: str) -> str | None:
        if self.folder is None or not GAME_ID.fullmatch(game_id):
            return None
        return os.path.join(self.folder, game_id)

    def latest(self, game_id: str) -> int | None:
        """The highest number recorded for ``game_id``, or ``None`` if none is."""
        path = self._path(game_id)
        if path is None:
            return self._seen.get(game_id)
        try:
            with open(path, encoding="ascii") as source:
                text = source.read(32)
        except OSError:
            return self._seen.get(game_id)
        return int(text) if text.isdigit() else self._seen.get(game_id)

    def record(self, game_id: str, number: int) -> None:
        """``number`` is now the newest state sealed for ``game_id`` (kept when higher)."""
        if self._seen.get(game_id, -1) >= number:
            return
        new = game_id not in self._seen
        self._seen[game_id] = number
        path = self._path(game_id)
        if path is None or self.folder is None:
            return
        try:
            os.makedirs(self.folder, mode=0o700, exist_ok=True)
            temporary = f"{path}.{os.getpid()}.tmp"
            with open(temporary, "w", encoding="ascii") as out:
                out.write(str(number))
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
