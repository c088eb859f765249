"""A small text demo: a seeded game played out with random legal moves, narrated event by event.

``script/server`` runs this until the Voilà explainer lands::

    script/server --players 3 --seed 7 --preset durak_live_vecinos
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from durak_core import PRESETS, Event, EventKind, Game, Rules, format_cards


def describe(event: Event) -> str:
    """One line of plain-English narration for an event (developer demo, not localized)."""
    who = f"P{event.seat}" if event.seat is not None else ""
    cards = format_cards(event.cards, unicode=True)
    kind = event.kind
    kept = f" kept by {who}" if event.seat is not None else ""
    turnup = " (the turned-up trump)" if event.detail else ""
    result = f"{who} is the durak" if who else "a draw"
    lines = {
        EventKind.DEAL: f"{who} deals {event.n} cards each",
        EventKind.TRUMP: f"trump card {cards}{kept}",
        EventKind.FIRST_ATTACKER: f"{who} attacks first ({f'{event.detail} {cards}'.strip()})",
        EventKind.BOUT_START: f"--- {who} attacks P{event.other}",
        EventKind.LEAD: f"{who} leads {cards}",
        EventKind.BEAT: f"{who} beats {format_cards(event.cards[1:], unicode=True)} "
        f"with {format_cards(event.cards[:1], unicode=True)}",
        EventKind.THROW_IN: f"{who} throws in {cards}",
        EventKind.TRANSFER: f"{who} transfers with {cards} to P{event.other}",
        EventKind.TAKE: f"{who} takes",
        EventKind.PASS: f"{who} is done",
        EventKind.PICK_UP: f"{who} picks up {cards}",
        EventKind.BITO: f"bito: {cards}",
        EventKind.DRAW: f"{who} draws {event.n}{turnup}",
        EventKind.SWAP: f"{who} swaps {cards}",
        EventKind.PLAYER_OUT: f"{who} is out, place {event.n}",
        EventKind.GAME_OVER: f"game over: {result}",
        EventKind.FLASH: f"{who} shows the trump {cards} (kept) to pass to P{event.other}",
        EventKind.MISDEAL: f"misdeal: {who}'s hand {cards}"
        + (" (asked for a new deal)" if event.detail == "request" else "")
        + f", new deal {event.n}",
    }
    return lines[kind]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="classic")
    args = parser.parse_args(argv)
    game = Game.deal(Rules.preset(args.preset), args.players, args.seed)
    rng = random.Random(args.seed)
    print(f"Durak, {args.preset} rules, {args.players} players, seed {args.seed}")
    for seat in range(game.players):
        print(f"P{seat}: {format_cards(game.hand(seat), unicode=True)}")
    shown = 0
    while True:
        for event in game.events_since(shown):
            print(describe(event))
        shown = game.event_count
        if game.outcome is not None:
            return 0
        game.play(rng.choice(list(game.legal_actions())))


if __name__ == "__main__":
    raise SystemExit(main())
