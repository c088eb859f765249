"""durak_server's settings that need no running server (issue 19: no lockout)."""

from __future__ import annotations

import pytest

from durak_server.app import DurakServer


@pytest.mark.parametrize(
    ("limit", "classroom", "in_force"),
    [(8, 2, 10), (8, 30, 38), (3, 0, 3), (0, 30, 0)],
)
def test_a_class_behind_one_address_is_never_held_back_by_the_per_address_limit(
    limit: int, classroom: int, in_force: int
) -> None:
    # A class of 30 opening a lesson at once from a school's one NAT address holds up to 30
    # kernels whose browsers are still connecting (benchmarks/classroom.py: 24 of 30 GETs got
    # the "full" page with the limit at 8, two with it at 32); 0 keeps the limit off.
    server = DurakServer(max_waiting_per_address=limit, classroom=classroom)
    assert server.waiting_per_address() == in_force
    # the same for every live kernel of one address (silent websockets, several tabs)
    server = DurakServer(max_kernels_per_address=limit, classroom=classroom)
    assert server.kernels_per_address() == in_force


def test_by_default_one_address_holds_a_few_kernels_and_a_class_more() -> None:
    """security-2026-12-01 finding 3: a per-client limit on kernels, default a few."""
    server = DurakServer()
    assert 3 <= server.max_kernels_per_address <= 8
    assert server.kernels_per_address() == server.max_kernels_per_address + server.classroom
    assert server.kernels_per_address() < server.max_kernels // 2
