"""Perft: the engine's behaviour pinned by counting action sequences (issue 20, item 3).

Like python-chess's perft tests. ``tests/data/perft.json`` (written by
``script/make_perft.py`` from seeded games; regenerate it, never edit it) lists positions in
the engine's own serialised form, ``Position.to_dict()``, with the rules to rebuild them
(``Rules.from_dict``: a preset and the options changed), and for each:

- ``counts``: perft(1), perft(2) and deeper while cheap (up to perft(6)): the number of
  action sequences of that length, counting every seat's legal actions at each step (the
  whole table's ``legal_actions()``, not one player's). A finished game
  has no legal actions, so it counts 0 at every depth ≥ 1 and a sequence that ends the game
  early is no leaf of a deeper perft (perft(0) would be 1);
- ``actions``: the legal actions' notation in the order ``legal_actions()`` yields them;
- ``children``: a digest of the position after each legal action (see the file's ``about``);
- ``refusals``: the reason codes ``why_illegal`` gives every other action a seat could try
  with his cards (counted by code, and a digest of which action gets which code).

The counts, digests and refusals are computed by :mod:`durak_core.perft`, shared with the
script. Only the public API is used (``Rules.from_dict``, ``Game.from_position``,
``legal_actions``, ``push``/``play``/``undo``, ``why_illegal``, ``position().to_dict()``,
``Position.from_dict``), so the file survives an internal redesign and fails exactly where
behaviour changed. It must cover every preset of :data:`durak_core.PRESETS` (one per source:
S0 wikiHow, S1 Matsuri, S2 Wikipedia, S3 Dáme Karty, S4 Durak Live), 2–6 players, teams (S0,
S2), perevodnoy (S1, S2), Flash (S2) and the misdeal (S2, C20).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from durak_core import PRESETS, Game, Position, Rules, Teams
from durak_core.perft import FORMAT, children_digest, perft_counts, refusals

DATA = Path(__file__).parent / "data" / "perft.json"


@cache
def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


ENTRIES: list[dict[str, Any]] = load()["entries"]
IDS = [str(entry["name"]) for entry in ENTRIES]


def rules_of(entry: dict[str, Any]) -> Rules:
    return Rules.from_dict(entry["rules"])


def rebuild(entry: dict[str, Any]) -> Game:
    """The entry's game, set up from its serialised position."""
    return Game.from_position(rules_of(entry), **entry["position"])


# ---------------------------------------------------------------- per entry


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_perft_counts(entry: dict[str, Any]) -> None:
    game = rebuild(entry)
    expected = entry["counts"]
    assert perft_counts(game, len(expected)) == expected
    # undo after push restored the position exactly
    assert game.position().to_dict() == entry["position"]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_legal_actions(entry: dict[str, Any]) -> None:
    """The same actions under the same names (sorted: a renamed, added or lost action), then
    in the same order (``legal_actions()``'s order; seeded bots choose by index in it)."""
    actions = [str(a) for a in rebuild(entry).legal_actions()]
    assert sorted(actions) == sorted(entry["actions"]), "different legal actions"
    assert actions == entry["actions"], "the same legal actions in another order"
    assert len(actions) == entry["counts"][0]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_positions_after_each_action(entry: dict[str, Any]) -> None:
    game = rebuild(entry)
    assert children_digest(game) == entry["children"]
    assert game.position().to_dict() == entry["position"]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_refusals(entry: dict[str, Any]) -> None:
    """Every other action a seat could try with his cards is refused, for the same reason
    codes (the tutorial explains with them); ``why_illegal`` accepts exactly the generated
    actions, here and after each of them."""
    game = rebuild(entry)
    found = refusals(game)
    assert found.reasons == entry["refusals"]["reasons"]
    assert found.to_dict() == entry["refusals"]
    for action in game.legal_actions():
        game.push(action)
        assert refusals(game).accepted == {str(a) for a in game.legal_actions()}, action
        game.undo()
    assert found.accepted == set(entry["actions"])


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_position_round_trip(entry: dict[str, Any]) -> None:
    """serialise(parse(text)) == text, through every reader of the serialised form."""
    rules = rules_of(entry)
    data = entry["position"]
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    parsed = Position.from_dict(json.loads(text), rules)
    assert json.dumps(parsed.to_dict(), sort_keys=True, ensure_ascii=False) == text
    assert Game.from_position(rules, **data).position().to_dict() == data
    game = Game.from_position(rules, parsed)
    assert game.position() == parsed
    assert len(parsed.hands) == entry["origin"]["players"]


# ---------------------------------------------------------------- the file as a whole


def test_file_format() -> None:
    data = load()
    assert data["format"] == FORMAT
    assert len(IDS) == len(set(IDS)), "entry names must be unique"
    assert 40 <= len(ENTRIES) <= 120
    for entry in ENTRIES:
        assert set(entry) == {
            "about",
            "actions",
            "children",
            "counts",
            "name",
            "origin",
            "position",
            "refusals",
            "rules",
        }, entry["name"]
        assert 2 <= len(entry["counts"]) <= 6, entry["name"]


def test_every_preset_has_entries() -> None:
    """Each preset of the engine (read from durak_core, so a new preset fails here until the
    file is regenerated with entries for it)."""
    covered = {entry["rules"]["preset"] for entry in ENTRIES}
    assert set(PRESETS) <= covered, f"presets without perft entries: {set(PRESETS) - covered}"


def test_covers_players_and_options() -> None:
    """2–6 players (S0, S3), the three deck sizes (S4) and 7-card hands (S0), every team
    layout (S0, S2), perevodnoy (S1, S2), Flash (S2), both misdeal modes (S2), the swap (S0)."""
    rules = [rules_of(entry) for entry in ENTRIES]
    players = {len(entry["position"]["hands"]) for entry in ENTRIES}
    assert players >= {2, 3, 4, 5, 6}
    assert {r.deck_size for r in rules} >= {24, 36, 52}
    assert any(r.hand_size == 7 for r in rules)
    assert {r.teams for r in rules} >= set(Teams)
    assert any(r.transfer and not r.flash for r in rules)
    assert any(r.flash for r in rules)
    assert {r.misdeal_mode.value for r in rules if r.misdeal.value != "off"} == {
        "mandatory",
        "on_request",
    }
    assert any(r.trump_swap.value != "off" for r in rules)


def ends_the_game(game: Game) -> bool:
    """Whether some legal action ends the game."""
    for action in game.legal_actions():
        game.push(action)
        over = game.outcome is not None
        game.undo()
        if over:
            return True
    return False


def test_covers_situations() -> None:
    """The situations the file is for: first attacks, defences, throw-ins, a take announced
    with throw-ins after it, a transfer, a Flash, a swap and a redeal possible, a position
    after a redeal and one after a Flash, an empty stock, a player out, positions one action
    before the end, and a finished game."""
    games = [rebuild(entry) for entry in ENTRIES]
    kinds = [{a.kind.value for a in game.legal_actions()} for game in games]

    def some(condition: Callable[[Game, set[str]], bool]) -> bool:
        return any(condition(game, k) for game, k in zip(games, kinds, strict=True))

    def first_attack(g: Game, k: set[str]) -> bool:
        sizes = set(g.hand_sizes)
        return g.position().bouts == 1 and not g.table and not g.discard and len(sizes) == 1

    assert some(first_attack)
    assert some(lambda g, k: g.defending(g.defender) and "beat" in k)
    assert some(lambda g, k: not g.taking and "throw" in k)
    assert some(lambda g, k: g.taking and "throw" in k)
    for kind in ("transfer", "flash", "swap", "redeal", "pass", "take"):
        assert any(kind in k for k in kinds), kind
    assert some(lambda g, k: g.position().redeals > 0)
    assert some(lambda g, k: bool(g.position().flashed))
    assert some(lambda g, k: g.outcome is None and not g.stock and g.phase.value == "lead")
    assert some(lambda g, k: g.outcome is None and bool(g.position().out))
    assert sum(ends_the_game(g) for g in games) >= 3
    assert some(lambda g, k: g.outcome is not None)
