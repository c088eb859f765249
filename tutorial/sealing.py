"""Sealing: small JSON values the browser may keep but must not read or forge.

A page that hands the browser something secret to give back later (the play page's deal:
its seed would reveal every hidden card) seals it: encrypted with HMAC-SHA256 in counter mode
and authenticated with HMAC-SHA256 (encrypt-then-MAC, a fresh 16-byte nonce each time),
standard library only so it also runs in Pyodide. The key is ``DURAK_RESUME_KEY`` from the
kernel's environment (``durak_server`` sets it for every kernel: :mod:`durak_server.resume_key`),
else a random 32-byte file created once (mode 0600) in Jupyter's runtime directory; without
either, nothing is sealed. A token starts with a 4-byte id of its key, so a page can tell a
game saved under another key (the server's key changed) from one that was never sealed:
:func:`sealed_with_another_key`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from typing import Any, Final

__all__ = [
    "EARLIER_KEYS_ENV",
    "RESUME_KEY_ENV",
    "key_id",
    "seal",
    "sealed_with_another_key",
    "unseal",
]

RESUME_KEY_ENV: Final = "DURAK_RESUME_KEY"
EARLIER_KEYS_ENV: Final = "DURAK_RESUME_EARLIER_KEYS"
"""The ids (:func:`key_id`, comma-separated) of the server's earlier keys: set by
:mod:`durak_server.resume_key`, so that a page can tell a game saved under one of them."""
_KEY_ID: Final = 4
_NONCE: Final = 16
_TAG: Final = 32
_MAX_TOKEN: Final = 60_000
"""The longest token read (a whole game and a long match's results fit; a websocket message
is at most 64 KiB)."""


_KEY_FILE: Final = "durak-resume.key"


def _key_file() -> bytes | None:
    """The machine's resume key (32 random bytes), created on first use; ``None`` if there
    is no Jupyter runtime directory to keep it in."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir

        folder = jupyter_runtime_dir()
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, _KEY_FILE)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as out:
                out.write(secrets.token_bytes(32))
        with open(path, "rb") as source:
            key = source.read()
    except (ImportError, OSError):
        return None
    return key if len(key) == 32 else None


def _key() -> bytes | None:
    secret = os.environ.get(RESUME_KEY_ENV, "")
    if secret:
        return hashlib.sha256(secret.encode()).digest()
    return _key_file()


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (
        hmac.new(key, b"durak-deal-stream" + nonce + i.to_bytes(4, "big"), hashlib.sha256).digest()
        for i in range(-(-size // 32))
    )
    return b"".join(blocks)[:size]


def _tag(key: bytes, nonce: bytes, cipher: bytes) -> bytes:
    return hmac.new(key, b"durak-deal-tag" + nonce + cipher, hashlib.sha256).digest()


def _key_id(key: bytes) -> bytes:
    return hmac.new(key, b"durak-key-id", hashlib.sha256).digest()[:_KEY_ID]


def _decode(token: object) -> bytes | None:
    if not isinstance(token, str) or len(token) > _MAX_TOKEN:
        return None
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii"))
    except (ValueError, binascii.Error, UnicodeEncodeError):
        return None
    return raw if len(raw) > _KEY_ID + _NONCE + _TAG else None


def seal(value: dict[str, Any], key: bytes | None = None) -> str | None:
    """``value`` encrypted and authenticated with the server's key (``None`` without one)."""
    key = key or _key()
    if key is None:
        return None
    plain = json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
    nonce = secrets.token_bytes(_NONCE)
    cipher = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    token = _key_id(key) + nonce + cipher + _tag(key, nonce, cipher)
    return base64.urlsafe_b64encode(token).decode("ascii")


def unseal(token: object, key: bytes | None = None) -> dict[str, Any] | None:
    """The value sealed in ``token``, or ``None`` if it is not one this server sealed."""
    key = key or _key()
    raw = _decode(token)
    if key is None or raw is None or not hmac.compare_digest(raw[:_KEY_ID], _key_id(key)):
        return None
    nonce, cipher, tag = raw[_KEY_ID : _KEY_ID + _NONCE], raw[_KEY_ID + _NONCE : -_TAG], raw[-_TAG:]
    if not hmac.compare_digest(tag, _tag(key, nonce, cipher)):
        return None
    plain = bytes(a ^ b for a, b in zip(cipher, _stream(key, nonce, len(cipher)), strict=True))
    try:
        value = json.loads(plain)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def key_id(key: bytes | None = None) -> str | None:
    """The id a token sealed with ``key`` (default: the server's) starts with, in hex."""
    key = key or _key()
    return None if key is None else _key_id(key).hex()


def sealed_with_another_key(
    token: object, key: bytes | None = None, earlier: frozenset[str] | None = None
) -> bool:
    """Whether ``token`` was sealed under one of this server's ``earlier`` keys (default:
    :data:`EARLIER_KEYS_ENV`), not its current one: its key was changed since, and the learner
    is told so rather than silently given another game. A damaged or forged token, whose
    key id is no key this server had, is not."""
    key = key or _key()
    raw = _decode(token)
    if key is None or raw is None:
        return False
    if earlier is None:
        earlier = frozenset(filter(None, os.environ.get(EARLIER_KEYS_ENV, "").split(",")))
    return raw[:_KEY_ID].hex() in earlier and not hmac.compare_digest(raw[:_KEY_ID], _key_id(key))
