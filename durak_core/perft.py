"""Perft: a game's behaviour summed up in counts and digests (issue 20, item 3).

As in python-chess's perft tests: :func:`perft` counts the action sequences of a given
length from a position, every seat's legal actions counted at each step (the whole table's
``legal_actions()``). :func:`children_digest` hashes the position after each legal action, and
:func:`refusals` asks ``why_illegal`` about every action a seat could try with his cards
(:func:`candidates`). ``script/make_perft.py`` writes ``tests/data/perft.json`` with these;
``tests/test_perft.py`` checks the engine against it. Only the public API of
:class:`~durak_core.Game` is used, so the counts survive an internal redesign.

>>> from durak_core import Game, Rules
>>> game = Game.deal(Rules.preset("classic"), 2, seed=1)
>>> perft(game, 0), perft_counts(game, 2) == [perft(game, 1), perft(game, 2)]
(1, True)
>>> sorted(refusals(game).accepted) == sorted(map(str, game.legal_actions()))
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from .actions import Action
from .game import Game
from .position import Position

__all__ = [
    "FORMAT",
    "Refusals",
    "candidates",
    "children_digest",
    "perft",
    "perft_counts",
    "position_json",
    "refusals",
]

FORMAT = "durak-perft/1"
"""The ``format`` of ``tests/data/perft.json``."""


def perft_counts(game: Game, depth: int) -> list[int]:
    """``[perft(1), ..., perft(depth)]`` in one walk (push/undo: the game ends as it began).

    A finished game has no legal actions, so a sequence that ends the game early is no leaf of
    a deeper perft."""
    totals = [0] * depth

    def walk(level: int) -> None:
        if level == depth - 1:
            totals[level] += game.legal_actions().count()
            return
        for action in game.legal_actions():
            totals[level] += 1
            game.push(action)
            walk(level + 1)
            game.undo()

    if depth:
        walk(0)
    return totals


def perft(game: Game, depth: int) -> int:
    """The number of action sequences of length ``depth`` from the game's position
    (``perft(game, 0) == 1``)."""
    return perft_counts(game, depth)[-1] if depth else 1


def position_json(position: Position) -> str:
    """The position's serialised form as canonical JSON (keys sorted, UTF-8 kept)."""
    return json.dumps(position.to_dict(), sort_keys=True, ensure_ascii=False)


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("".join(lines).encode()).hexdigest()[:16]


def children_digest(game: Game) -> str:
    """sha256 (first 16 hex digits) of the lines ``'<action>\\t<position json>\\n'``, one per
    legal action sorted by notation, each action played (checked) and undone."""
    lines = []
    for action in sorted(game.legal_actions(), key=str):
        game.play(action)
        lines.append(f"{action}\t{position_json(game.position())}\n")
        game.undo()
    return _digest(lines)


def candidates(game: Game) -> list[Action]:
    """Every action a seat could try with the cards he holds (as a table's clicks offer):
    each card as a lead, a throw-in, a transfer, a Flash and a beat of each attack card on
    the table; and take, pass, swap and redeal; for every seat."""
    attacks = [attack for attack, _ in game.table]
    tried: list[Action] = []
    for seat in range(game.players):
        for card in game.hand(seat):
            tried += (
                Action.lead(seat, card),
                Action.throw(seat, card),
                Action.transfer(seat, card),
                Action.flash(seat, card),
            )
            tried += (Action.beat(seat, card, attack) for attack in attacks)
        tried += (Action.take(seat), Action.pass_(seat), Action.swap(seat), Action.redeal(seat))
    return tried


@dataclass(frozen=True)
class Refusals:
    """What ``why_illegal`` says of the :func:`candidates`."""

    reasons: dict[str, int]
    """How many are refused for each :class:`~durak_core.Reason` code."""
    digest: str
    """sha256 (first 16 hex digits) of the sorted lines ``'<action>\\t<reason>\\n'`` of the
    refused ones."""
    accepted: frozenset[str]
    """The notation of the accepted ones (they should be exactly the legal actions)."""

    def to_dict(self) -> dict[str, object]:
        """The perft file's ``refusals``: ``{"digest": ..., "reasons": ...}``."""
        return {"digest": self.digest, "reasons": self.reasons}


def refusals(game: Game) -> Refusals:
    """Ask ``why_illegal`` about each of the game's :func:`candidates`."""
    tally: dict[str, int] = {}
    lines, accepted = [], set()
    for action in candidates(game):
        refusal = game.why_illegal(action)
        if refusal is None:
            accepted.add(str(action))
            continue
        reason = refusal.reason.value
        tally[reason] = tally.get(reason, 0) + 1
        lines.append(f"{action}\t{reason}\n")
    return Refusals(tally, _digest(sorted(lines)), frozenset(accepted))
