"""The play page's deals come from 128 bits of the operating system's generator
(security-2026-12-01 finding 2: with 31 bits, searching every seed took about 6½ CPU-minutes
and, from the learner's own hand and the turn-up, found the whole deal). Records keep the
dealt deck, so a replay does not need the seed."""

from __future__ import annotations

import pytest

from tutorial.game_page import Deal, GameApp, _valid_deal

pytestmark = pytest.mark.usefixtures("no_server_language")


def test_a_page_draws_its_seed_from_128_bits() -> None:
    seeds = {GameApp(players=2, language="en", pace=0)._seed for _ in range(12)}
    assert len(seeds) == 12
    # 12 draws below 2**120 would happen once in 2**96 tries: the space is not 31 bits
    assert max(seeds) >= 2**120


@pytest.mark.parametrize(("seed", "valid"), [(0, True), (2**128 - 1, True), (2**128, False),
                                             (-1, False), (True, False)])  # fmt: skip
def test_a_sealed_deal_accepts_exactly_the_128_bit_seeds(seed: int, valid: bool) -> None:
    deal = Deal(seed, 2, "durak_live_todos", "pimc").sealed()
    assert (_valid_deal(deal) is not None) is valid


def test_no_widget_of_the_page_holds_the_seed() -> None:
    from ipywidgets.widgets.widget import _instances

    app = GameApp(players=2, language="en", pace=0)
    seed = str(app._seed)
    assert len(seed) > 20
    # every widget still open (other tests' closed ones may linger in the registry)
    states = []
    for widget in list(_instances.values()):
        try:
            states.append(repr(widget.get_state()))
        except AttributeError:  # a closed widget, or one referring to a closed one
            continue
    assert states and not any(seed in state for state in states)
