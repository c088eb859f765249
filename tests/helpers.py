"""Shared test helpers: invariant checks and position shorthands."""

from __future__ import annotations

from collections.abc import Iterable

from durak_core import CapScope, Card, Game, Phase, parse_cards


def cards(text: str) -> list[Card]:
    """``cards("8C 10H")`` → the cards (ASCII or Unicode notation)."""
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def all_cards(game: Game) -> list[Card]:
    """Every card the game holds, wherever it lies (with repetitions, if any)."""
    s = game.state
    return [
        *(c for h in s.hands for c in h),
        *s.stock,
        *s.discard,
        *s.attacks,
        *(d for d in s.defences if d is not None),
    ]


def check_invariants(game: Game, universe: Iterable[Card]) -> None:
    """Every card in exactly one place, nothing lost or duplicated; seats and table sane."""
    placed = all_cards(game)
    assert len(placed) == len(set(placed)), "a card is in two places"
    assert set(placed) == set(universe), "cards were lost or created"
    s = game.state
    rules = game.rules
    for seat, hand in enumerate(s.hands):
        if not s.active[seat]:
            assert not hand, f"seat {seat} is out but holds cards"
    assert len(s.attacks) == len(s.defences)
    if s.stock:
        assert all(s.active), "nobody goes out while the stock has cards"
    if s.phase is Phase.OVER:
        assert not s.attacks
        assert sum(s.active) <= 1
        return
    assert s.active[s.attacker] and s.active[s.defender]
    assert s.attacker != s.defender
    if s.phase is Phase.LEAD:
        assert not s.attacks and not s.taking
        assert s.hands[s.attacker], "the attacker must have a card to lead"
    else:
        assert s.attacks
    if rules.cap_scope is CapScope.TOTAL:
        assert len(s.attacks) <= min(rules.attack_cap, s.h0)
    else:
        assert s.defences.count(None) <= rules.attack_cap
