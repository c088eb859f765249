"""Fixtures shared by the widget tests (no kernel, no browser)."""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import comm
import pytest
from comm.base_comm import BaseComm


class RecordingComm(BaseComm):
    """A comm that keeps every message it would publish, instead of sending it."""

    log: ClassVar[list[tuple[str, Any]]] = []

    def publish_msg(self, msg_type: str, data: Any = None, *args: Any, **keys: Any) -> None:
        self.log.append((msg_type, copy.deepcopy(data)))


@pytest.fixture
def messages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every widget created during the test gets a :class:`RecordingComm`; the list holds
    ``(msg_type, data)`` of everything they would have sent to the browser, in order."""
    log: list[tuple[str, Any]] = []
    monkeypatch.setattr(RecordingComm, "log", log)
    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: RecordingComm(**kwargs))
    return log
