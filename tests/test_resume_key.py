"""The resume key (security-2026-12-01 finding 5): one per server, in its own file, created when
missing, empty or damaged (and logged), a weak ``DURAK_RESUME_KEY`` refused, handed to every
kernel through the environment; a token sealed under another key is told apart from a forgery
so the page can say the server's key changed."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from durak_server import resume_key
from tutorial.sealing import (
    EARLIER_KEYS_ENV,
    RESUME_KEY_ENV,
    key_id,
    seal,
    sealed_with_another_key,
    unseal,
)

log = logging.getLogger("test.resume_key")


def test_a_missing_key_file_is_created_private_and_kept_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(RESUME_KEY_ENV, raising=False)
    path = tmp_path / "keys" / "site.key"
    assert resume_key.install(str(path), str(tmp_path), log) == str(path)
    first = os.environ[RESUME_KEY_ENV]
    assert path.stat().st_size == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert bytes.fromhex(first) == path.read_bytes()
    monkeypatch.delenv(RESUME_KEY_ENV)
    resume_key.install(str(path), str(tmp_path), log)  # a restart
    assert os.environ[RESUME_KEY_ENV] == first


@pytest.mark.parametrize("content", [b"", b"short", b"x" * 33])
def test_an_empty_or_damaged_key_file_is_replaced_and_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    content: bytes,
) -> None:  # fmt: skip
    monkeypatch.delenv(RESUME_KEY_ENV, raising=False)
    path = tmp_path / "site.key"
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger=log.name):
        resume_key.install(str(path), str(tmp_path), log)
    assert len(path.read_bytes()) == 32 and path.read_bytes() != content
    assert "created a new key" in caplog.text


def test_each_site_gets_its_own_default_key_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert resume_key.default_key_file(str(one)) != resume_key.default_key_file(str(two))
    assert resume_key.default_key_file(str(one)) == resume_key.default_key_file(str(one))


@pytest.mark.parametrize("secret", ["a server secret", "a" * 40, "0123" * 10])
def test_a_weak_secret_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, secret: str
) -> None:
    monkeypatch.setenv(RESUME_KEY_ENV, secret)
    with pytest.raises(resume_key.WeakKeyError, match="at least 32 random characters"):
        resume_key.install("", str(tmp_path), log)


def test_a_strong_secret_is_used_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "Zq3vXb8r-Jm2LpWc9tYh4NdKe7GsAu5F"
    monkeypatch.setenv(RESUME_KEY_ENV, secret)
    assert (
        resume_key.install(str(tmp_path / "unused.key"), str(tmp_path), log) == "$" + RESUME_KEY_ENV
    )
    assert os.environ[RESUME_KEY_ENV] == secret
    assert not (tmp_path / "unused.key").exists()


def test_a_token_under_another_key_is_told_apart_from_a_forgery() -> None:
    old, new = b"o" * 32, b"n" * 32
    token = seal({"seed": 7}, key=old)
    assert token is not None
    assert unseal(token, key=old) == {"seed": 7}
    assert unseal(token, key=new) is None
    earlier = frozenset({key_id(old)} - {None})
    assert sealed_with_another_key(token, key=new, earlier=earlier)
    assert not sealed_with_another_key(token, key=new, earlier=frozenset())  # never our key
    assert not sealed_with_another_key(token, key=old, earlier=earlier)
    forged = token[:-8] + ("A" * 8 if not token.endswith("A" * 8) else "B" * 8)
    assert unseal(forged, key=old) is None and not sealed_with_another_key(forged, key=old)
    for junk in ("", "not base64!", None, 12, "QUJD", "A" * 100):
        assert not sealed_with_another_key(junk, key=new, earlier=earlier)
        assert unseal(junk, key=new) is None


def test_the_server_hands_its_earlier_key_ids_to_its_kernels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = logging.getLogger("test")
    key_file = tmp_path / "site.key"
    monkeypatch.delenv(RESUME_KEY_ENV, raising=False)
    resume_key.install(str(key_file), str(tmp_path), log)
    first = key_id()
    assert os.environ[EARLIER_KEYS_ENV] == ""  # a first key has no earlier one
    monkeypatch.delenv(RESUME_KEY_ENV)
    resume_key.install(str(key_file), str(tmp_path), log)  # a restart: the same key
    assert os.environ[EARLIER_KEYS_ENV] == "" and key_id() == first
    key_file.write_bytes(b"")  # the key file emptied: a new key
    monkeypatch.delenv(RESUME_KEY_ENV)
    resume_key.install(str(key_file), str(tmp_path), log)
    assert key_id() != first and os.environ[EARLIER_KEYS_ENV] == first
    assert (tmp_path / "site.key.ids").read_text().split() == [first, key_id()]
