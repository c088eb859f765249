"""Game records: rules + seed (or set-up position) + actions, as JSON, replaying exactly.

>>> from durak_core import Game, Rules
>>> g = Game.deal(Rules.preset("matsuri"), players=3, seed=11)
>>> for _ in range(5):
...     g.play(next(iter(g.legal_actions())))
>>> replay(loads(dumps(g))).state == g.state
True
"""

from __future__ import annotations

import json
from typing import Any

from .actions import Action, NotationError
from .game import Game, PositionError
from .reasons import IllegalAction
from .rules import Rules, RulesError

__all__ = ["FORMAT", "RecordError", "dumps", "loads", "replay", "to_record"]

FORMAT = "durak-record/1"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the part at fault."""


def to_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game``: how it was set up and every action played."""
    return {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "players": game.players,
        **game.origin,
        "actions": [a.notation() for a in game.history],
    }


def dumps(game: Game, **json_options: Any) -> str:
    """The record of ``game`` as JSON text."""
    return json.dumps(to_record(game), ensure_ascii=False, **json_options)


def loads(text: str) -> dict[str, Any]:
    """Parse record JSON (no replay yet)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def replay(record: dict[str, Any], *, upto: int | None = None) -> Game:
    """Rebuild the game of ``record``, playing its actions (the first ``upto`` of them)."""
    if record.get("format") != FORMAT:
        raise RecordError(f"unknown record format {record.get('format')!r}; expected {FORMAT!r}")
    try:
        rules = Rules.from_dict(dict(record.get("rules", {})))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"rules: {exc}") from None
    try:
        if "position" in record:
            pos = dict(record["position"])
            game = Game.from_position(
                rules,
                pos.pop("hands"),
                table=[tuple(p) for p in pos.pop("table", [])],
                **pos,
            )
        else:
            game = Game.deal(
                rules,
                int(record["players"]),
                int(record["seed"]),
                dealer=record.get("dealer"),
                previous_durak=record.get("previous_durak"),
            )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, PositionError | RulesError):
            raise RecordError(f"set-up: {exc}") from None
        raise RecordError(f"set-up: missing or bad field ({exc!r})") from None
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list of notations")
    for i, text in enumerate(actions[:upto]):
        try:
            game.play(Action.parse(str(text)))
        except (NotationError, IllegalAction) as exc:
            raise RecordError(f"action {i + 1} ({text!r}): {exc}") from None
    return game
