"""A simple, honest opponent for free play: it sees only its seat's :class:`Observation`.

It plays like a careful beginner: lead the lowest non-trump, beat with the cheapest card that
works, take rather than spend a high trump early, add only low non-trumps, pass otherwise.
The computer-opponent issue replaces it with a search-based player.
"""

from __future__ import annotations

import random

from durak_core import Action, ActionKind, Card, Observation, Suit

__all__ = ["choose"]


def _cost(card: Card, trump: Suit) -> int:
    """How much a card is worth keeping: trumps above every plain card."""
    return int(card.rank) + (20 if card.suit is trump else 0)


def choose(obs: Observation, rng: random.Random) -> Action:
    """Pick one of ``obs.legal`` (which must not be empty)."""
    legal = list(obs.legal)
    if not legal:
        raise ValueError(f"seat {obs.seat} has no legal action")
    trump = obs.trump
    by_kind: dict[ActionKind, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)

    def cheapest(actions: list[Action]) -> Action:
        return min(actions, key=lambda a: (_cost(a.card, trump) if a.card else 0, rng.random()))

    if ActionKind.SWAP in by_kind:
        return by_kind[ActionKind.SWAP][0]
    if ActionKind.LEAD in by_kind:
        return cheapest(by_kind[ActionKind.LEAD])
    if ActionKind.BEAT in by_kind:
        best = cheapest(by_kind[ActionKind.BEAT])
        assert best.card is not None
        late = obs.stock_size == 0
        if best.card.suit is not trump or best.card.rank <= 10 or late:
            return best
        if ActionKind.TRANSFER in by_kind:
            return cheapest(by_kind[ActionKind.TRANSFER])
        return by_kind.get(ActionKind.TAKE, [best])[0]
    if ActionKind.TRANSFER in by_kind:
        return cheapest(by_kind[ActionKind.TRANSFER])
    if ActionKind.TAKE in by_kind:
        return by_kind[ActionKind.TAKE][0]
    throws = [
        a
        for a in by_kind.get(ActionKind.THROW, [])
        if a.card is not None and (a.card.suit is not trump or obs.stock_size == 0)
    ]
    if throws:
        return cheapest(throws)
    if ActionKind.PASS in by_kind:
        return by_kind[ActionKind.PASS][0]
    return rng.choice(legal)
