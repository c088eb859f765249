"""Write ``tests/data/perft.json``: positions with their perft counts (issue 20, item 3).

    .venv/bin/python script/make_perft.py            # write the file, print a summary
    .venv/bin/python script/make_perft.py --check    # exit 1 if the file is not up to date

Like python-chess's perft files: each entry is a position, stored in the engine's own
serialised form (``Position.to_dict()``, the keyword form of ``Game.from_position``), with the
number of legal actions and of action sequences to depth 2 and deeper while that stays cheap
(up to 6), the legal actions' notation in the engine's order, a digest of the position after
each action, and the reason codes of the refused actions (see :data:`ABOUT`, the file's
header). ``tests/test_perft.py`` rebuilds each position and checks all of it, so that a change
of the engine's behaviour (an internal redesign, say) shows as a failing entry.

Before writing, each position is checked to round-trip (rebuilt from its JSON, it has the same
position, legal actions, perft counts and children, and ``why_illegal`` accepts exactly the
generated actions, there and after each action); a failure is printed as a PROBLEM and the
script exits 1.

Every position comes from a seeded game: ``Game.deal(rules, players, seed, **deal)``, then
seeded random legal actions (``random.Random(f"{name}/{seed}")``) until the entry's condition
holds. The first seed and the first ply where it holds are taken, so the file is regenerated
identically (keys sorted, entries in the order of :data:`SPECS`). Only the public API is used.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Game,
    Phase,
    Position,
    Reason,
    Rules,
    Teams,
    is_misdeal,
)
from durak_core.perft import (
    FORMAT,
    children_digest,
    perft,
    perft_counts,
    position_json,
    refusals,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "perft.json"
MAX_DEPTH = 6
LEAF_BUDGET = 200_000
"""Counts go from depth 1 to the deepest depth (at most :data:`MAX_DEPTH`, at least 2) with no
more leaves than this: the whole test must stay fast on a shared 2-core machine."""
SEEDS = 1_000
"""Seeds tried per entry before giving up."""
MAX_PLIES = 400

ABOUT = [
    "Perft counts of durak_core (issue 20, item 3), written by script/make_perft.py: do not "
    "edit by hand, regenerate.",
    "Each entry: 'name'; 'about' (what it covers, with the rule sources S0-S4 of "
    "shared/docs/rules-research.md); 'rules' (Rules.from_dict input: a preset and the options "
    "changed); 'position' (Position.to_dict(), the keyword form of Game.from_position); "
    "'origin' (how the generator reached it: Game.deal(rules, players, seed, **deal), then "
    "'ply' random legal actions drawn with random.Random(f'{name}/{seed}')).",
    "'counts'[d-1] is perft(d) (d = 1, 2 and deeper where cheap, at most 6): the number of "
    "action sequences of length d from the position, every seat's legal actions counted at "
    "each step (legal_actions() of the whole table, not one player's). perft(0) = 1; a "
    "finished game has no legal actions, so a finished game counts 0 at every depth >= 1, "
    "and a sequence that ends the game early is not a leaf of a deeper perft. A redeal "
    "(misdeal on request) is one action whose result is fixed (its shuffle is seeded by the "
    "cards).",
    "'actions': the legal actions' notation (Action.__str__) in the order legal_actions() "
    "yields them (the documented generation order: the defender's beats, transfers, flashes "
    "and take, then each throw-in seat's cards and pass in priority order, then redeals or "
    "the swap).",
    "'children': sha256 (first 16 hex digits) of the lines "
    "'<action>\\t<json of the position after it>\\n' for every legal action, sorted by action "
    "notation; the json is json.dumps(position.to_dict(), sort_keys=True, ensure_ascii=False).",
    "'refusals': why_illegal() of every action a seat could try with a card he holds (each "
    "card as a lead, a throw-in, a transfer, a Flash, a beat of each attack card on the "
    "table) and of take, pass, swap and redeal, for every seat: the refused ones counted by "
    "Reason code ('reasons'), and 'digest', sha256 (first 16 hex digits) of the sorted lines "
    "'<action>\\t<reason code>\\n' of the refused ones. The accepted ones are exactly "
    "'actions'.",
]


# ---------------------------------------------------------------- conditions on a game


def kinds(game: Game) -> set[ActionKind]:
    """The kinds of the legal actions now."""
    return {a.kind for a in game.legal_actions()}


def unbeaten(game: Game) -> int:
    return sum(d is None for _, d in game.table)


def beaten(game: Game) -> int:
    return sum(d is not None for _, d in game.table)


def first_lead(game: Game) -> bool:
    """The first attack of the game: nothing played yet."""
    return not game.history


def defending(game: Game) -> bool:
    """The defender faces unbeaten cards (at least two of them, or one he can beat two ways)."""
    beats = sum(a.kind is ActionKind.BEAT for a in game.legal_actions())
    return game.defending(game.defender) and beats >= 2


def throw_in(game: Game) -> bool:
    """Everything is beaten and someone may throw in."""
    return (
        game.phase is Phase.BOUT
        and not game.taking
        and unbeaten(game) == 0
        and ActionKind.THROW in kinds(game)
    )


def take_then_throw(game: Game) -> bool:
    """The defender said «take»; the others may still add cards."""
    return game.taking and ActionKind.THROW in kinds(game)


def transfer(game: Game) -> bool:
    return ActionKind.TRANSFER in kinds(game)


def transfer_again(game: Game) -> bool:
    """A transfer after a transfer: two or more unbeaten cards of one rank, transfer legal."""
    return len(game.table) >= 2 and beaten(game) == 0 and transfer(game)


def transfer_refused(game: Game) -> bool:
    """The defender holds the attack's rank, nothing is beaten yet, but may not transfer."""
    if not game.defending(game.defender) or beaten(game) or game.taking:
        return False
    rank = game.table[0][0].rank
    holds = any(c.rank is rank for c in game.hand(game.defender))
    return holds and not transfer(game)


def no_room(game: Game, kind: ActionKind) -> list[dict[str, Any]]:
    """The parameters of the defender's ``kind`` actions (transfer, flash) refused for want
    of room (``Reason.TRANSFER_NO_ROOM``), with each card of his of the attack's rank."""
    if not game.defending(game.defender) or beaten(game):
        return []
    rank = game.table[0][0].rank
    found = []
    for card in game.hand(game.defender):
        if card.rank is rank:
            refusal = game.why_illegal(Action(kind, game.defender, card))
            if refusal is not None and refusal.reason is Reason.TRANSFER_NO_ROOM:
                found.append(refusal.params)
    return found


def flash_not_transfer(game: Game) -> bool:
    """A Flash is possible where a transfer is not: the next player holds as many cards as
    the table's attacks, one short of a transfer (S2: showing the trump adds no card)."""
    return flash(game) and bool(no_room(game, ActionKind.TRANSFER))


def transfer_over_cap(game: Game) -> bool:
    """A transfer refused only by the attack limit: the next player holds enough cards."""
    return any(
        p["needed"] > p["base_cap"] and p["next_hand"] >= p["needed"]
        for p in no_room(game, ActionKind.TRANSFER)
    )


def flash(game: Game) -> bool:
    return ActionKind.FLASH in kinds(game)


def flash_refused(game: Game) -> bool:
    """The defender holds a trump of the attack's rank that he already showed: no Flash with
    it again (S2: once per game)."""
    if not game.defending(game.defender) or beaten(game):
        return False
    rank = game.table[0][0].rank
    shown = game.position().flashed
    return any(c in shown and c.rank is rank for c in game.hand(game.defender))


def flash_again(game: Game) -> bool:
    """A Flash with a trump already shown in an earlier bout (legal once per bout)."""
    shown = {a.card for a in game.history if a.kind is ActionKind.FLASH}
    return any(a.kind is ActionKind.FLASH and a.card in shown for a in game.legal_actions())


def any_time_throw(game: Game) -> bool:
    """Cards may be thrown in while others are still unbeaten (S2)."""
    return unbeaten(game) > 0 and not game.taking and ActionKind.THROW in kinds(game)


def empty_stock(game: Game) -> bool:
    """A bout about to start with the stock gone, every player still holding several cards."""
    return (
        game.phase is Phase.LEAD
        and not game.stock
        and game.position().bouts > 1
        and min(game.hand_sizes[s] for s in game.active_seats()) >= 3
    )


def someone_out(game: Game) -> bool:
    """A player went out and the game goes on; the next bout is about to start."""
    return game.outcome is None and bool(game.position().out) and game.phase is Phase.LEAD


def endgame(game: Game) -> bool:
    """Stock empty, few cards left in hands, a bout in progress."""
    return (
        game.phase is Phase.BOUT
        and not game.stock
        and sum(game.hand_sizes) <= 8
        and len(game.active_seats()) >= 2
    )


def ending(game: Game) -> list[bool]:
    """For each legal action: does it end the game?"""
    ends = []
    for action in game.legal_actions():
        game.push(action)
        ends.append(game.outcome is not None)
        game.undo()
    return ends


def before_end(game: Game) -> bool:
    """Some legal action ends the game."""
    return any(ending(game))


def before_end_or_not(game: Game) -> bool:
    """Some legal actions end the game, others do not."""
    ends = ending(game)
    return any(ends) and not all(ends)


def all_empty_end(game: Game) -> bool:
    """Some legal action ends the game with every hand empty (a draw, or S0's old durak)."""
    for action in game.legal_actions():
        game.push(action)
        empty = game.outcome is not None and not any(game.hand_sizes)
        game.undo()
        if empty:
            return True
    return False


def defender_goes_out(game: Game) -> bool:
    """Some legal action ends the bout beaten off, the defender out of cards and out, and
    the game goes on: who attacks next (C15)?"""
    defender, bouts = game.defender, game.position().bouts
    if game.phase is not Phase.BOUT or game.taking:
        return False
    for action in game.legal_actions():
        game.push(action)
        done = (
            game.outcome is None
            and game.position().bouts > bouts
            and defender in game.position().out
            and bool(game.discard)
            and game.attacker != game.defender
        )
        game.undo()
        if done:
            return True
    return False


def over(game: Game) -> bool:
    return game.outcome is not None


def swap(game: Game) -> bool:
    return ActionKind.SWAP in kinds(game)


def late_swap(game: Game) -> bool:
    """The swap with the turn-up drawn as the stock's last card (S0), later in the game."""
    return bool(game.history) and swap(game) and game.position().turnup_holder is not None


def redeal(game: Game) -> bool:
    return ActionKind.REDEAL in kinds(game)


def after_redeal(game: Game) -> bool:
    """A new deal was asked for and dealt (C20); the first attack of the new deal."""
    return game.position().redeals > 0 and not game.table and game.position().bouts == 1


def redeal_capped(game: Game) -> bool:
    """A misdealt hand after the last new deal allowed: no redeal any more."""
    rules = game.rules
    return (
        game.position().redeals == rules.max_redeals
        and game.phase is Phase.LEAD
        and game.position().bouts == 1
        and any(is_misdeal(game.hand(s), rules.misdeal) for s in range(game.players))
    )


def mandatory_redealt(game: Game) -> bool:
    """A deal that stood after one or more mandatory new deals (S2 as written)."""
    return first_lead(game) and int(game.origin.get("redeals", 0)) > 0


def first_bout_full(n: int) -> Callable[[Game], bool]:
    """The first bout (empty discard) with at least ``n`` attack cards on the table."""

    def condition(game: Game) -> bool:
        return not game.discard and len(game.table) >= n and game.phase is Phase.BOUT

    return condition


def first_bout_limit(game: Game) -> bool:
    """The lower first-bout limit (C9) is reached, and only it keeps cards off the table: the
    defender held more, and someone could throw a rank on the table."""
    cap = game.cap()
    if not (cap.first_bout_cap and cap.room == 0 and cap.defender_hand > cap.base_cap):
        return False
    ranks = set(game.table_ranks())
    return any(
        c.rank in ranks for s in game.active_seats() if s != game.defender for c in game.hand(s)
    )


def unbeaten_cap(game: Game) -> bool:
    """S2's cap: more attack cards on the table than the defender holds, some beaten."""
    return (
        beaten(game) >= 2
        and len(game.table) > len(game.hand(game.defender))
        and ActionKind.THROW in kinds(game)
    )


def attacker_passed(game: Game) -> bool:
    """S0: the attacker has passed (for good); the others add cards."""
    position = game.position()
    return game.attacker in position.passed and ActionKind.THROW in kinds(game)


def several_ranks_throw(game: Game) -> bool:
    """«Vecinos»: a throw-in with two or more ranks on the table and four or more players in."""
    return throw_in(game) and len(game.table_ranks()) >= 2 and len(game.active_seats()) >= 4


def take_possible(game: Game) -> bool:
    """The defender faces unbeaten cards and may take (throw_in_after_take off: S0 option)."""
    return game.defending(game.defender) and len(game.table) >= 2


def team_mate_out(game: Game) -> bool:
    """Team play with a player out and two teams still in; a bout about to start."""
    return someone_out(game) and len(game.active_seats()) >= 2


def one_team_left(game: Game) -> bool:
    """Team play on to a single loser: only one team left, team-mates play each other (S0 (i))."""
    rules = game.rules
    if game.outcome is not None or rules.teams is Teams.NONE:
        return False
    count = 3 if rules.teams is Teams.TWO_V_TWO_V_TWO else 2
    return len({s % count for s in game.active_seats()}) == 1 and game.phase is Phase.BOUT


def and_(*conditions: Callable[[Game], bool]) -> Callable[[Game], bool]:
    def condition(game: Game) -> bool:
        return all(c(game) for c in conditions)

    return condition


def active(n: int) -> Callable[[Game], bool]:
    def condition(game: Game) -> bool:
        return len(game.active_seats()) == n

    return condition


# ---------------------------------------------------------------- the entries


@dataclass(frozen=True)
class Spec:
    name: str
    about: str
    rules: dict[str, Any]
    players: int
    condition: Callable[[Game], bool]
    deal: dict[str, Any] = field(default_factory=dict)


def p(preset: str, **options: Any) -> dict[str, Any]:
    return {"preset": preset, **options}


C = "classic"
M = "matsuri"
DK = "dame_karty"
DV = "durak_live_vecinos"
DT = "durak_live_todos"
WH = "wikihow_home"
WP = "wikipedia"
S2_MISDEAL = {"misdeal": "four_of_a_suit", "misdeal_mode": "on_request"}

SPECS: tuple[Spec, ...] = (
    # classic (S1, S3)
    Spec(
        "classic-2p-first-attack",
        "first attack of a game, lowest trump leads (S1, S3)",
        p(C),
        2,
        first_lead,
    ),
    Spec(
        "classic-2p-defence",
        "defender facing unbeaten cards, several beats (S0-S3)",
        p(C),
        2,
        defending,
    ),
    Spec(
        "classic-3p-throw-in",
        "all beaten, others may throw in ranks on the table (S1, S3)",
        p(C),
        3,
        throw_in,
    ),
    Spec(
        "classic-4p-take-then-throw-in",
        "take announced, throw-ins after it (S1, S2, S3)",
        p(C),
        4,
        take_then_throw,
    ),
    Spec("classic-4p-defence", "four players, defence in progress", p(C), 4, defending),
    Spec("classic-5p-first-attack", "five players, first attack", p(C), 5, first_lead),
    Spec("classic-5p-throw-in", "five players, everyone may throw in (S1)", p(C), 5, throw_in),
    Spec(
        "classic-6p-first-attack",
        "six players with 36 cards: no stock, the dealer keeps the turn-up (S0, S3)",
        p(C),
        6,
        first_lead,
    ),
    Spec(
        "classic-6p-take-then-throw-in",
        "six players, take announced, throw-ins",
        p(C),
        6,
        take_then_throw,
    ),
    Spec("classic-2p-empty-stock", "stock gone, next bout about to start", p(C), 2, empty_stock),
    Spec("classic-3p-empty-stock", "three players, stock gone", p(C), 3, empty_stock),
    Spec(
        "classic-3p-someone-out", "a player went out, the game goes on (S3)", p(C), 3, someone_out
    ),
    Spec("classic-2p-endgame", "endgame: empty stock, few cards, a bout on", p(C), 2, endgame),
    Spec("classic-2p-before-end", "one action can end the game", p(C), 2, before_end_or_not),
    Spec("classic-4p-before-end", "four players, one action can end the game", p(C), 4, before_end),
    Spec(
        "classic-2p-draw-possible",
        "everyone can empty at once: a draw, no durak (S1, S3)",
        p(C),
        2,
        all_empty_end,
    ),
    Spec("classic-2p-game-over", "a finished game: no actions, 0 at every depth", p(C), 2, over),
    Spec(
        "classic-24-2p-defence",
        "24-card deck, 9-A (S4 table setting)",
        p(C, deck_size=24),
        2,
        defending,
    ),
    Spec(
        "classic-24-4p-first-attack",
        "24 cards, 4 players: all dealt, no stock (S4)",
        p(C, deck_size=24),
        4,
        first_lead,
    ),
    Spec(
        "classic-24-2p-no-trump-leader",
        "nobody holds a trump: a random seat leads (S3)",
        p(C, deck_size=24),
        2,
        and_(
            first_lead,
            lambda g: not any(c.suit is g.trump for s in range(g.players) for c in g.hand(s)),
        ),
    ),
    Spec(
        "classic-52-2p-throw-in",
        "52-card deck, 2-A (S4 table setting)",
        p(C, deck_size=52),
        2,
        throw_in,
    ),
    Spec("classic-52-6p-defence", "52 cards, six players", p(C, deck_size=52), 6, defending),
    Spec(
        "classic-3p-left-of-dealer",
        "S0 option: the dealer's left leads",
        p(C, first_attacker="left_of_dealer"),
        3,
        first_lead,
    ),
    Spec(
        "classic-3p-no-throw-in-after-take",
        "S0 option: no throw-ins after a take",
        p(C, throw_in_after_take=False),
        3,
        and_(take_possible, defending),
    ),
    Spec(
        "classic-3p-hand-cap-current-hand",
        "hand cap against the current hand (demos, S4 example 2's reading)",
        p(C, hand_cap="current_hand"),
        3,
        and_(throw_in, lambda g: beaten(g) >= 2),
    ),
    Spec(
        "classic-2p-attack-cap-4",
        "attack_cap 4 (a smaller limit)",
        p(C, attack_cap=4, first_bout_cap_value=4),
        2,
        first_bout_full(3),
    ),
    # Matsuri (S1)
    Spec(
        "matsuri-2p-before-end",
        "Matsuri, 2 players, the game about to end (S1)",
        p(M),
        2,
        before_end_or_not,
    ),
    Spec("matsuri-3p-defence", "Matsuri, 3 players, defence (S1)", p(M), 3, defending),
    Spec(
        "matsuri-4p-throw-in",
        "Matsuri, attacker first then from the defender's left (S1)",
        p(M),
        4,
        throw_in,
    ),
    Spec(
        "matsuri-3p-transfer",
        "perevodnoy (Matsuri's lobby toggle): a transfer possible (S1)",
        p(M, transfer=True),
        3,
        transfer,
    ),
    Spec(
        "matsuri-4p-transfer-refused",
        "perevodnoy: the defender holds the rank but may not transfer (S1, S2)",
        p(M, transfer=True),
        4,
        transfer_refused,
    ),
    # Dáme Karty (S3)
    Spec(
        "dame_karty-5p-neighbours-throw-in",
        "five active: only the defender's neighbours throw in (S3)",
        p(DK),
        5,
        and_(throw_in, active(5)),
    ),
    Spec(
        "dame_karty-6p-first-attack", "Dáme Karty, 6 players, no stock (S3)", p(DK), 6, first_lead
    ),
    Spec(
        "dame_karty-6p-take-then-throw-in",
        "six players, neighbours add after a take (S3)",
        p(DK),
        6,
        take_then_throw,
    ),
    Spec(
        "dame_karty-5p-four-left-throw-in",
        "a player out: four active, everyone throws in again (S3)",
        p(DK),
        5,
        and_(throw_in, active(4)),
    ),
    # Durak Live «Vecinos» (S4)
    Spec(
        "vecinos-4p-throw-in",
        "«Vecinos»: others throw only the first card's rank (S4)",
        p(DV),
        4,
        several_ranks_throw,
    ),
    Spec(
        "vecinos-3p-first-bout-cap",
        "5 attack cards until the first discard (S4)",
        p(DV),
        3,
        first_bout_limit,
    ),
    Spec(
        "vecinos-52-5p-defence",
        "«Vecinos» with 52 cards, five players (S4)",
        p(DV, deck_size=52),
        5,
        defending,
    ),
    Spec(
        "vecinos-24-2p-throw-in", "«Vecinos» with 24 cards (S4)", p(DV, deck_size=24), 2, throw_in
    ),
    Spec(
        "vecinos-6p-take-then-throw-in",
        "«Vecinos», six players, take announced (S4)",
        p(DV),
        6,
        take_then_throw,
    ),
    # Durak Live «Todos» (S4)
    Spec(
        "todos-3p-throw-in",
        "«Todos»: everyone throws any rank on the table (S4)",
        p(DT),
        3,
        throw_in,
    ),
    Spec("todos-5p-first-attack", "«Todos», five players (S4)", p(DT), 5, first_lead),
    Spec(
        "todos-4p-first-bout-cap",
        "«Todos»: 5 cards until the first discard (S4)",
        p(DT),
        4,
        first_bout_limit,
    ),
    Spec("todos-24-3p-defence", "«Todos» with 24 cards (S4)", p(DT, deck_size=24), 3, defending),
    # wikiHow home rules (S0)
    Spec(
        "wikihow-2p-swap-first-lead",
        "the lowest trump may be swapped for the turn-up (S0)",
        p(WH),
        2,
        and_(first_lead, swap),
    ),
    Spec(
        "wikihow-3p-late-swap",
        "swap with the turn-up drawn as the stock's last card (S0)",
        p(WH),
        3,
        late_swap,
    ),
    Spec(
        "wikihow-2p-ace-only-swap",
        "S0's alternative: swap only for a turned-up ace",
        p(WH, trump_swap="ace_only"),
        2,
        swap,
    ),
    Spec(
        "wikihow-4p-first-bout-cap",
        "5 cards in the first bout with 4+ players (S0)",
        p(WH),
        4,
        first_bout_limit,
    ),
    Spec(
        "wikihow-5p-neighbours-throw-in",
        "five playing individually: neighbours only (S0)",
        p(WH),
        5,
        and_(throw_in, active(5)),
    ),
    Spec(
        "wikihow-3p-attacker-passed",
        "the attacker adds until he passes, then the others (S0)",
        p(WH),
        3,
        attacker_passed,
    ),
    Spec(
        "wikihow-4p-defender-goes-out",
        "the defender beats off his last cards: the bout's attacker attacks again (S0, footnote 9)",
        p(WH),
        4,
        defender_goes_out,
    ),
    Spec(
        "classic-4p-defender-goes-out",
        "the defender beats off his last cards: the next player in attacks (S3)",
        p(C),
        4,
        defender_goes_out,
    ),
    Spec(
        "wikihow-2v2-throw-in",
        "teams 2v2: partners never attack each other (S0)",
        p(WH, teams="2v2"),
        4,
        throw_in,
    ),
    Spec(
        "wikihow-2v2-mate-out",
        "teams 2v2, a player out: attack skips partners (S0)",
        p(WH, teams="2v2"),
        4,
        team_mate_out,
    ),
    Spec(
        "wikihow-3v3-team-turns",
        "teams 3v3, S0's six-player rotation, a player out",
        p(WH, teams="3v3", team_rotation="team_turns"),
        6,
        team_mate_out,
    ),
    Spec(
        "wikihow-2v2-single-loser",
        "teams play on to a single loser: one team left (S0 (i))",
        p(WH, teams="2v2", team_end="single_loser"),
        4,
        one_team_left,
    ),
    Spec(
        "wikihow-52-5p-seven-cards",
        "52 cards, 7 each, five players (S0)",
        p(WH, deck_size=52, hand_size=7),
        5,
        first_lead,
    ),
    Spec(
        "wikihow-52-6p-seven-cards-defence",
        "52 cards, 7 each, six players (S0)",
        p(WH, deck_size=52, hand_size=7),
        6,
        defending,
    ),
    Spec(
        "wikihow-2p-no-draw",
        "everyone can empty at once: no draw, the previous durak stays durak (S0)",
        p(WH),
        2,
        all_empty_end,
        {"previous_durak": 1},
    ),
    Spec(
        "wikihow-3p-before-end",
        "S0 home rules, one action can end the game",
        p(WH),
        3,
        before_end_or_not,
    ),
    Spec(
        "wikihow-3p-later-game",
        "a later game: left of the previous durak leads (S0, S2)",
        p(WH),
        3,
        first_lead,
        {"previous_durak": 0},
    ),
    Spec(
        "wikihow-4p-durak-attacked-first",
        "«the fool is taught»: the durak's right attacks him first (S0)",
        p(WH, first_attacker="left_of_dealer", next_game_start="durak_attacked_first"),
        4,
        first_lead,
        {"previous_durak": 2},
    ),
    # Wikipedia (S2)
    Spec(
        "wikipedia-3p-any-time-throw-in",
        "throw-ins at any moment, in no order (S2)",
        p(WP),
        3,
        any_time_throw,
    ),
    Spec(
        "wikipedia-4p-unbeaten-cap",
        "at most 6 unbeaten and never more than the defender holds now (S2)",
        p(WP),
        4,
        unbeaten_cap,
    ),
    Spec(
        "wikipedia-6p-take-then-throw-in",
        "six players, throw-ins after a take (S2)",
        p(WP),
        6,
        take_then_throw,
    ),
    Spec(
        "wikipedia-2p-transfer", "perevodnoy, two players (S2)", p(WP, transfer=True), 2, transfer
    ),
    Spec(
        "wikipedia-3p-transfer", "perevodnoy, three players (S2)", p(WP, transfer=True), 3, transfer
    ),
    Spec(
        "wikipedia-4p-transfer-again",
        "perevodnoy: a transfer after a transfer (S2)",
        p(WP, transfer=True),
        4,
        transfer_again,
    ),
    Spec(
        "wikipedia-5p-transfer-any-time",
        "perevodnoy with throw-ins at any time (S2)",
        p(WP, transfer=True),
        5,
        and_(transfer, lambda g: ActionKind.THROW in kinds(g)),
    ),
    Spec(
        "wikipedia-3p-flash",
        "Flash: show a trump of the attack's rank (S2)",
        p(WP, transfer=True, flash=True),
        3,
        flash,
    ),
    Spec(
        "wikipedia-3p-flash-not-transfer",
        "Flash possible where a transfer is not: the next player has no card to spare (S2)",
        p(WP, transfer=True, flash=True),
        3,
        flash_not_transfer,
    ),
    Spec(
        "classic-3p-transfer-over-cap",
        "perevodnoy: no transfer that would put more cards on the table than the limit",
        p(C, transfer=True, attack_cap=3, first_bout_cap_value=3),
        3,
        transfer_over_cap,
    ),
    Spec(
        "wikipedia-4p-flash-refused",
        "Flash: a trump already shown may not be shown again in the game (S2)",
        p(WP, transfer=True, flash=True),
        4,
        flash_refused,
    ),
    Spec(
        "wikipedia-4p-flash-once-per-bout",
        "Flash once per bout (another engine's reading): a trump shown in an earlier bout "
        "is shown again",
        p(WP, transfer=True, flash=True, flash_reuse="once_per_bout"),
        4,
        flash_again,
    ),
    Spec(
        "wikipedia-4p-pairs",
        "«pairs»: 2v2, normal play, no adding against a partner (S2)",
        p(WP, teams="2v2", team_rotation="individual"),
        4,
        throw_in,
    ),
    Spec("wikipedia-6p-2v2v2", "three pairs (S2)", p(WP, teams="2v2v2"), 6, defending),
    Spec(
        "wikipedia-6p-3v3-before-end",
        "3v3, the whole team loses (S2): one action can end it",
        p(WP, teams="3v3"),
        6,
        before_end,
    ),
    Spec(
        "wikipedia-3p-misdeal-redeal",
        "misdeal on request: a new deal may be asked for (S2, C20)",
        p(WP, **S2_MISDEAL),
        3,
        redeal,
    ),
    Spec(
        "wikipedia-2p-after-redeal",
        "misdeal: the first attack after a new deal (S2, C20)",
        p(WP, **S2_MISDEAL),
        2,
        after_redeal,
    ),
    Spec(
        "wikipedia-3p-redeal-capped",
        "misdeal: no more new deals than max_redeals (C20)",
        p(WP, **S2_MISDEAL, max_redeals=1),
        3,
        redeal_capped,
    ),
    Spec(
        "wikipedia-4p-mandatory-misdeal",
        "mandatory misdeal: the deal that stood (S2)",
        p(WP, misdeal="five_of_a_suit"),
        4,
        mandatory_redealt,
    ),
    Spec("wikipedia-5p-endgame", "five players, endgame", p(WP), 5, endgame),
)


# ---------------------------------------------------------------- perft


def counts(game: Game) -> list[int]:
    """perft(1), perft(2) and deeper while the deepest level stays within its budget."""
    found = perft_counts(game, 2)
    for depth in range(3, MAX_DEPTH + 1):
        leaves = perft(game, depth)
        if leaves > LEAF_BUDGET:
            break
        found.append(leaves)
    return found


def after_each(game: Game) -> list[Game]:
    """A copy of the game after each legal action."""
    games = []
    for action in game.legal_actions():
        child = game.copy()
        child.play(action)
        games.append(child)
    return games


# ---------------------------------------------------------------- search


@dataclass
class Found:
    spec: Spec
    seed: int
    ply: int
    game: Game


class NotFound(RuntimeError):
    pass


def games(spec: Spec, rules: Rules) -> Iterator[tuple[int, int, Game]]:
    """Every position of the seeded random games of ``spec``: (seed, ply, game)."""
    for seed in range(SEEDS):
        game = Game.deal(rules, spec.players, seed, **spec.deal)
        rng = random.Random(f"{spec.name}/{seed}")
        for ply in range(MAX_PLIES):
            yield seed, ply, game
            actions = list(game.legal_actions())
            if not actions:
                break
            game.push(rng.choice(actions))


def find(spec: Spec) -> Found:
    rules = Rules.from_dict(spec.rules)
    for seed, ply, game in games(spec, rules):
        if spec.condition(game):
            return Found(spec, seed, ply, game)
    raise NotFound(f"{spec.name}: no position found in {SEEDS} seeds")


def check_round_trip(found: Found, problems: list[str]) -> Game:
    """The game rebuilt from the serialised position, checked against the original."""
    game, name = found.game, found.spec.name
    data = json.loads(position_json(game.position()))
    again = Game.from_position(game.rules, **data)
    if again.position() != game.position():
        problems.append(f"{name}: position does not round-trip")
    if Position.from_dict(data, game.rules).to_dict() != data:
        problems.append(f"{name}: Position.from_dict(d).to_dict() != d")
    if list(map(str, again.legal_actions())) != list(map(str, game.legal_actions())):
        problems.append(f"{name}: legal actions differ after the round trip")
    if perft_counts(again, 3) != perft_counts(game, 3):
        problems.append(f"{name}: perft(1..3) differs after the round trip")
    for child in [again, *after_each(again)]:
        if refusals(child).accepted != {str(a) for a in child.legal_actions()}:
            problems.append(f"{name}: the refusal checks and legal_actions() disagree")
    if children_digest(again) != children_digest(game):
        problems.append(f"{name}: the positions after each action differ after the round trip")
    return again


def entry(found: Found, game: Game) -> dict[str, Any]:
    spec = found.spec
    origin: dict[str, Any] = {"players": spec.players, "seed": found.seed, "ply": found.ply}
    if spec.deal:
        origin["deal"] = spec.deal
    return {
        "name": spec.name,
        "about": spec.about,
        "rules": spec.rules,
        "origin": origin,
        "position": game.position().to_dict(),
        "counts": counts(game),
        "actions": [str(a) for a in game.legal_actions()],
        "children": children_digest(game),
        "refusals": refusals(game).to_dict(),
    }


# ---------------------------------------------------------------- output


def dump(value: Any, indent: int = 0, width: int = 100) -> str:
    """Stable, readable JSON: keys sorted; an object or list below the top on one line when
    it fits, else one key or item a line."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        flat = json.dumps(value, ensure_ascii=False, sort_keys=True)
        if indent and len(flat) + indent + 30 <= width:
            return flat
        items = [
            f"{inner}{json.dumps(k)}: {dump(value[k], indent + 2, width)}" for k in sorted(value)
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        flat = json.dumps(value, ensure_ascii=False, sort_keys=True)
        if len(flat) + indent + 30 <= width or not value:
            return flat
        items = [f"{inner}{dump(v, indent + 2, width)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def build() -> tuple[str, list[str]]:
    problems: list[str] = []
    entries = []
    names = [spec.name for spec in SPECS]
    assert len(set(names)) == len(names), "duplicate names"
    for spec in SPECS:
        start = time.perf_counter()
        found = find(spec)
        game = check_round_trip(found, problems)
        item = entry(found, game)
        entries.append(item)
        print(
            f"{spec.name:40} seed {found.seed:3} ply {found.ply:3}  counts {item['counts']}"
            f"  ({time.perf_counter() - start:.2f} s)"
        )
    seen: dict[str, str] = {}
    for e in entries:
        key = json.dumps([Rules.from_dict(e["rules"]).to_dict(), e["position"]], sort_keys=True)
        if key in seen:
            problems.append(f"{e['name']}: the same game as {seen[key]}")
        seen.setdefault(key, e["name"])
    covered = {e["rules"]["preset"] for e in entries}
    missing = sorted(set(PRESETS) - covered)
    if missing:
        problems.append(f"presets without entries: {', '.join(missing)}")
    text = dump({"format": FORMAT, "about": ABOUT, "entries": entries}) + "\n"
    return text, problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the file")
    args = parser.parse_args(argv)
    text, problems = build()
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    entries = json.loads(text)["entries"]
    leaves = sum(e["counts"][-1] for e in entries)
    presets = Counter(str(e["rules"]["preset"]) for e in entries)
    players = Counter(len(e["position"]["hands"]) for e in entries)
    print(f"{len(entries)} entries, {leaves} leaves at their deepest depths")
    print("by preset:", ", ".join(f"{name} {presets[name]}" for name in PRESETS))
    print("by players:", ", ".join(f"{n}p {players[n]}" for n in sorted(players)))
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)} is {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same and not problems else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
