"""Game records: rules + dealt deck (or set-up position) + actions, as JSON, replaying exactly.

A record of a dealt game (``durak-record/2``) stores the deck in the order it was dealt, the
dealer and, when the rules chose it at random, the first attacker: replaying it draws no random
numbers, so it replays alike on any Python. The shuffle ``seed`` is kept as metadata only.
Records of the first format (``durak-record/1``, seed only) still load: they are replayed by
shuffling with their seed again.

>>> from durak_core import Game, Rules
>>> g = Game.deal(Rules.preset("matsuri"), players=3, seed=11)
>>> for _ in range(5):
...     g.play(next(iter(g.legal_actions())))
>>> replay(loads(dumps(g))).state == g.state
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .actions import Action, NotationError
from .game import Game, PositionError
from .reasons import IllegalAction
from .rules import Rules, RulesError

__all__ = ["FORMAT", "FORMATS", "FORMAT_1", "RecordError", "dumps", "loads", "replay", "to_record"]

FORMAT = "durak-record/2"
"""The format :func:`to_record` writes."""
FORMAT_1 = "durak-record/1"
"""The first format: a dealt game is stored by its shuffle seed only."""
FORMATS = (FORMAT_1, FORMAT)
"""The formats :func:`replay` reads."""


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the part at fault."""


def to_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game``: how it was set up and every action played.

    A dealt game's record holds ``deck`` (top first), ``dealer``, ``first_attacker`` (only when
    the rules drew it at random), ``previous_durak``, the ``seed`` (metadata) and, under a
    mandatory misdeal rule, the discarded deals (``misdealt``: [seat, hand] each) and their
    number (``redeals``); a set-up
    game's holds its ``position``."""
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


def replay(record: Mapping[str, Any], *, upto: int | None = None) -> Game:
    """Rebuild the game of ``record``, playing its actions (the first ``upto`` of them)."""
    version = record.get("format")
    if version not in FORMATS:
        raise RecordError(
            f"unknown record format {version!r}; expected {FORMAT!r} (or {FORMAT_1!r})"
        )
    try:
        rules = Rules.from_dict(dict(record.get("rules", {})))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"rules: {exc}") from None
    try:
        if "position" in record:
            game = _set_up_position(rules, record["position"])
        elif version == FORMAT_1:
            game = Game.deal(
                rules,
                int(record["players"]),
                int(record["seed"]),
                dealer=record.get("dealer"),
                previous_durak=record.get("previous_durak"),
            )
        else:
            game = _deal_from_deck(rules, record)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, PositionError | RulesError | RecordError):
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


def _deal_from_deck(rules: Rules, record: Mapping[str, Any]) -> Game:
    """A ``durak-record/2`` deal: the stored deck, dealer and first attacker; no random numbers."""
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"seed must be a whole number or null, not {seed!r}")
    deck = record["deck"]
    if not isinstance(deck, str):
        raise RecordError(f"deck must be the cards as text, top first, not {deck!r}")
    return Game.deal(
        rules,
        int(record["players"]),
        seed,
        deck=deck,
        dealer=_seat(record, "dealer", required=True),
        first_attacker=_seat(record, "first_attacker"),
        previous_durak=_seat(record, "previous_durak"),
        misdealt=_misdealt(record, int(record["players"])),
    )


def _misdealt(record: Mapping[str, Any], players: int) -> list[tuple[int, str]]:
    """The discarded deals of a mandatory misdeal rule: [[seat, hand text], ...]."""
    listed = record.get("misdealt", [])
    if not isinstance(listed, list):
        raise RecordError(f"misdealt must be a list of [seat, hand], not {listed!r}")
    out: list[tuple[int, str]] = []
    for item in listed:
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not isinstance(item[0], int)
            or isinstance(item[0], bool)
            or not 0 <= item[0] < players
            or not isinstance(item[1], str)
        ):
            raise RecordError(f"misdealt: not a [seat, hand] pair: {item!r}")
        out.append((item[0], item[1]))
    return out


def _seat(record: Mapping[str, Any], key: str, *, required: bool = False) -> int | None:
    value = record[key] if required else record.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{key} must be a seat number, not {value!r}")
    return value


def _set_up_position(rules: Rules, position: object) -> Game:
    """A set-up position in ``from_position``'s keyword form (cards as text, seats as keys)."""
    if not isinstance(position, Mapping):
        raise RecordError("position must be an object of from_position's keywords")
    keywords = dict(position)
    if "hands" not in keywords:
        raise RecordError("the position has no hands")
    for key in ("undo", "events"):
        keywords.pop(key, None)  # settings of a game, not part of a position
    table = keywords.get("table")
    if isinstance(table, list):
        keywords["table"] = [tuple(p) if isinstance(p, list) else p for p in table]
    return Game.from_position(rules, **keywords)
