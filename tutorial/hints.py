"""Hints that say why: the move the computer would make, and the facts behind it.

:func:`hint` reads one seat's :class:`~durak_core.Observation` only (never the hidden cards):
it asks :class:`~durak_core.bots.PIMCBot` to score every legal action on the same sampled
deals, takes the best one (in a lesson, the best of the moves the step asks for) and the
runner-up, and lists :class:`Fact` codes with their numbers: cards counted (the discard pile,
the learner's hand, the table), what the move keeps or spends, and how the alternatives fared
in the sampled games. Every fact is true of the position (``tests/test_hints.py`` checks each
against the engine). :func:`explain_hint` words a hint in the learner's language (here rather
than in ``explain.py``, whose test renders every message of that module from its own samples;
``tests/test_hints.py`` renders these).

>>> import random
>>> from durak_core import Game, Rules
>>> game = Game.deal(Rules(), players=2, seed=3)
>>> advice = hint(game, game.attacker, random.Random(0))
>>> advice.action in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from durak_core import Action, ActionKind, Card, Game, Observation, Rank, observe
from durak_core.bots import PIMCBot, card_value
from durak_core.cards import beats
from durak_core.determinize import determinize
from durak_core.solver import Value

from .i18n import Gettext
from .names import action_label, card_short, player_name, rank_symbol

__all__ = [
    "MAX_SAMPLES",
    "MIN_SAMPLES",
    "PLAYOUT_BUDGET",
    "Fact",
    "FactCode",
    "Hint",
    "explain_hint",
    "hint",
    "hint_alternative",
    "hint_fact",
    "hint_move",
    "samples_for",
    "trumps_needed",
]

PLAYOUT_BUDGET: Final = 480
"""Playouts one hint may cost (sampled deals × legal actions): about 0.15–0.3 s here."""
MIN_SAMPLES: Final = 12
MAX_SAMPLES: Final = 48


class FactCode(StrEnum):
    """What a hint can say, each with its parameters (see :class:`Fact`)."""

    ONLY_MOVE = "only_move"
    """No choice: the only legal action (``action``)."""
    KEEPS_TRUMP = "keeps_trump"
    """The move plays a plain card where the runner-up spends the trump ``card``."""
    CHEAPEST = "cheapest"
    """``card`` is the lowest card (trumps above plain cards) that does this job."""
    RANK_GONE = "rank_gone"
    """Nobody else can hold a card of ``rank``: ``discarded`` of them are in the discard
    pile, ``in_hand`` in the learner's hand, ``on_table`` on the table."""
    PAIR = "pair"
    """The learner holds ``n`` cards of the led ``rank``: the others can follow."""
    NEEDS_TRUMPS = "needs_trumps"
    """Beating everything on the table would take at least ``n`` of the learner's
    ``trumps`` trumps (``n`` unbeaten cards no plain card of the hand beats)."""
    STOCK_LEFT = "stock_left"
    """``n`` cards are still to draw (the turned-up trump included)."""
    FEWEST_CARDS = "fewest_cards"
    """The stock is empty and ``seat`` holds only ``n`` cards."""
    TRANSFER_TO = "transfer_to"
    """Passing the attack on makes ``seat`` the defender."""
    GOES_OUT = "goes_out"
    """The move plays the learner's last card and the stock is empty."""
    OUTCOMES = "outcomes"
    """In ``samples`` sampled deals, the move scored ``best`` tenths (not being the durak; a
    draw counts half) and the runner-up ``other`` (``action``) ``second`` tenths."""
    SOLVED = "solved"
    """Every card is placed (two players, the stock empty) and the position is solved
    exactly: the move's ``value`` (``"win"``, ``"draw"`` or ``"loss"`` against best play),
    the position's ``best`` (the best of every legal move, the step's or not), the runner-up
    ``other`` and its ``other_value``; ``seat``: the opponent."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One reason, as a code and its numbers (cards, seats, counts, actions)."""

    code: FactCode
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Hint:
    """The computer's advice for ``seat``: ``action`` (scored ``score``: 1 never the durak,
    0 always), the ``runner_up`` (or ``None`` when there was no choice) and ``facts``."""

    seat: int
    action: Action
    score: float
    runner_up: Action | None
    runner_score: float | None
    samples: int
    facts: tuple[Fact, ...]

    def codes(self) -> list[FactCode]:
        return [f.code for f in self.facts]


def samples_for(legal: int) -> int:
    """Sampled deals for a hint among ``legal`` actions: :data:`PLAYOUT_BUDGET` playouts,
    between :data:`MIN_SAMPLES` and :data:`MAX_SAMPLES` deals (a fixed number, so the same
    seed gives the same hint on any machine)."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, PLAYOUT_BUDGET // max(1, legal)))


def trumps_needed(obs: Observation) -> int:
    """How many unbeaten table cards no plain (non-trump) card of the hand beats: beating
    them all takes at least that many trumps."""
    trump = obs.trump
    plain = [c for c in obs.hand if c.suit is not trump]
    return sum(
        1
        for attack, defence in obs.table
        if defence is None and not any(beats(c, attack, trump) for c in plain)
    )


_VALUE_WORDS: Final = {Value.WIN: "win", Value.DRAW: "draw", Value.LOSS: "loss"}


def _tenths(score: float) -> int:
    return int(score * 10 + 0.5)


def hint(
    source: Game | Observation,
    seat: int | None,
    rng: random.Random,
    *,
    among: Collection[Action] | None = None,
    samples: int | None = None,
) -> Hint:
    """The computer's advice for ``seat`` (``source`` a game, read through ``observe``, or
    that seat's observation). ``among``: recommend only one of these (a lesson step's
    moves); the runner-up is the best other of them, else the best other legal action.
    Raises ``ValueError`` when the seat has no legal action."""
    if isinstance(source, Game):
        if seat is None:
            raise ValueError("give the seat to advise")
        obs = observe(source, seat)
    else:
        obs = source
        if seat is not None and seat != obs.seat:
            raise ValueError(f"the observation is seat {obs.seat}'s, not seat {seat}'s")
    legal = obs.legal
    if not legal:
        raise ValueError(f"seat {obs.seat} has no legal action")
    allowed = [a for a in legal if among is None or a in among] or list(legal)
    if len(legal) == 1:
        only = legal[0]
        facts = [Fact(FactCode.ONLY_MOVE, {"action": only})]
        facts += _position_facts(obs, only, None)
        return Hint(obs.seat, only, 1.0, None, None, 0, tuple(facts))
    n = samples if samples is not None else samples_for(len(legal))
    bot = PIMCBot(n, exact=True)
    ranked = bot.ranked(obs, rng)
    # every card is placed where it is solvable: any stream deals the one world (the
    # bot's table answers at once the second time)
    solved = bot.solution(obs, random.Random(0))
    best, score = next((a, s) for a, s in ranked if a in allowed)
    # the runner-up: the best other move the step asks for, if any; else the best other move
    rivals = [(a, s) for a, s in ranked if a != best]
    runner, runner_score = next(((a, s) for a, s in rivals if a in allowed), rivals[0])
    facts = _position_facts(obs, best, runner)
    if solved is not None:
        values = solved.action_values
        opponent = next(i for i in range(obs.players) if i != obs.seat and i not in obs.out)
        facts.append(
            Fact(
                FactCode.SOLVED,
                {
                    "value": _VALUE_WORDS[values[best]],
                    "best": _VALUE_WORDS[max(values.values())],
                    "other": runner,
                    "other_value": _VALUE_WORDS[values[runner]],
                    "seat": opponent,
                },
            )
        )
        return Hint(obs.seat, best, score, runner, runner_score, 0, tuple(facts))
    facts.append(
        Fact(
            FactCode.OUTCOMES,
            {
                "samples": n,
                "best": _tenths(score),
                "other": runner,
                "second": _tenths(runner_score),
            },
        )
    )
    return Hint(obs.seat, best, score, runner, runner_score, n, tuple(facts))


def _position_facts(obs: Observation, best: Action, runner: Action | None) -> list[Fact]:
    """The facts of the position that bear on ``best`` (against ``runner``)."""
    facts: list[Fact] = []
    trump = obs.trump
    low = obs.rules.lowest_rank
    card = best.card
    kind = best.kind
    if card is not None and kind is not ActionKind.SWAP:
        if (
            runner is not None
            and runner.card is not None
            and runner.kind is not ActionKind.SWAP
            and card.suit is not trump
            and runner.card.suit is trump
        ):
            facts.append(Fact(FactCode.KEEPS_TRUMP, {"card": runner.card}))
        same_job = [
            a
            for a in obs.legal
            if a.kind is kind and a.target == best.target and a.card is not None
        ]
        if len(same_job) > 1 and all(
            card_value(card, trump, low) <= card_value(a.card, trump, low)
            for a in same_job
            if a.card is not None
        ):
            facts.append(Fact(FactCode.CHEAPEST, {"card": card}))
        if kind is ActionKind.BEAT:
            gone = _rank_gone(obs, card.rank)
            if gone is not None:
                facts.append(Fact(FactCode.RANK_GONE, gone))
        if kind is ActionKind.LEAD:
            n = sum(1 for c in obs.hand if c.rank == card.rank)
            if n >= 2:
                facts.append(Fact(FactCode.PAIR, {"rank": card.rank, "n": n}))
        if len(obs.hand) == 1 and obs.stock_size == 0:
            facts.append(Fact(FactCode.GOES_OUT, {}))
    if (kind is ActionKind.TRANSFER or kind is ActionKind.FLASH) and card is not None:
        world = determinize(obs, random.Random(0), undo=False, events=False)
        world.push(best)
        facts.append(Fact(FactCode.TRANSFER_TO, {"seat": world.defender}))
    if kind is ActionKind.TAKE:
        trumps = sum(1 for c in obs.hand if c.suit is trump)
        needed = trumps_needed(obs)
        if needed:
            facts.append(Fact(FactCode.NEEDS_TRUMPS, {"n": needed, "trumps": trumps}))
    if kind in (ActionKind.TAKE, ActionKind.LEAD) and obs.stock_size:
        facts.append(Fact(FactCode.STOCK_LEFT, {"n": obs.stock_size}))
    if obs.stock_size == 0:
        others = [
            (size, s)
            for s, size in enumerate(obs.hand_sizes)
            if s != obs.seat and obs.active[s] and size
        ]
        if others:
            size, s = min(others)
            facts.append(Fact(FactCode.FEWEST_CARDS, {"seat": s, "n": size}))
    return facts


def _rank_gone(obs: Observation, rank: Rank) -> dict[str, object] | None:
    """Where every card of ``rank`` is, if none can be in another hand or the stock."""
    discarded = sum(1 for c in obs.discard if c.rank == rank)
    in_hand = sum(1 for c in obs.hand if c.rank == rank)
    on_table = sum(1 for pair in obs.table for c in pair if c is not None and c.rank == rank)
    if discarded + in_hand + on_table < 4 or discarded == 0:
        return None
    return {"rank": rank, "discarded": discarded, "in_hand": in_hand - 1, "on_table": on_table}


# ------------------------------------------------------------------------------- words
# The hint in the learner's language: the move, then one sentence per fact.


def hint_move(action: Action, tr: Gettext, *, taking: bool = False) -> str:
    """What the hint tells the learner to do, as an imperative sentence."""
    kind = action.kind
    if kind is ActionKind.LEAD:
        return tr.gettext("Attack with {card}.", card=_card(tr, action.card))
    if kind is ActionKind.THROW:
        return tr.gettext("Add {card}.", card=_card(tr, action.card))
    if kind is ActionKind.BEAT:
        return tr.gettext(
            "Beat {target} with {card}.",
            card=_card(tr, action.card),
            target=_card(tr, action.target),
        )
    if kind is ActionKind.TRANSFER:
        return tr.gettext("Pass the attack on with {card}.", card=_card(tr, action.card))
    if kind is ActionKind.FLASH:
        return tr.gettext(
            "Show the trump {card} to pass the attack on (you keep it).",
            card=_card(tr, action.card),
        )
    if kind is ActionKind.TAKE:
        return tr.gettext("Take the cards.")
    # TRANSLATORS: {button} is a button's label, e.g. "Done" or "Swap trump".
    return tr.gettext("Press “{button}”.", button=action_label(kind, tr, taking=taking))


def hint_alternative(action: Action, tr: Gettext) -> str:
    """The runner-up move as a short noun phrase, for the comparison of outcomes."""
    kind = action.kind
    if kind is ActionKind.LEAD:
        # TRANSLATORS: a move named as a noun: attacking with this card.
        return tr.pgettext("move", "attacking with {card}", card=_card(tr, action.card))
    if kind is ActionKind.THROW:
        return tr.pgettext("move", "adding {card}", card=_card(tr, action.card))
    if kind is ActionKind.BEAT:
        return tr.pgettext(
            "move",
            "{card} on {target}",
            card=_card(tr, action.card),
            target=_card(tr, action.target),
        )
    if kind is ActionKind.TRANSFER:
        return tr.pgettext("move", "passing the attack on with {card}", card=_card(tr, action.card))
    if kind is ActionKind.FLASH:
        return tr.pgettext(
            "move", "showing the trump {card} to pass the attack on", card=_card(tr, action.card)
        )
    if kind is ActionKind.TAKE:
        return tr.pgettext("move", "taking the cards")
    if kind is ActionKind.SWAP:
        return tr.pgettext("move", "swapping the trump")
    if kind is ActionKind.REDEAL:
        return tr.pgettext("move", "asking for a new deal")
    return tr.pgettext("move", "stopping (no more cards)")


def hint_fact(fact: Fact, tr: Gettext, *, players: Sequence[str] | None = None) -> str:
    """One fact of a hint as a sentence."""
    p = fact.params
    code = fact.code
    if code is FactCode.ONLY_MOVE:
        return tr.gettext("It is the only move the rules allow you now.")
    if code is FactCode.KEEPS_TRUMP:
        return tr.gettext("It keeps your trump {card} for later.", card=_card_param(tr, p))
    if code is FactCode.CHEAPEST:
        return tr.gettext(
            "{card} is your lowest card that does the job: keep the higher ones.",
            card=_card_param(tr, p),
        )
    if code is FactCode.RANK_GONE:
        rank = rank_symbol(_rank_param(p), tr)
        n = _int(p, "discarded")
        if _int(p, "in_hand") == 0 and _int(p, "on_table") == 0:
            return tr.ngettext(
                "Nobody can add another {rank} after it: the other {n} is already in the "
                "discard pile.",
                "Nobody can add another {rank} after it: the other {n} are already in the "
                "discard pile.",
                n,
                rank=rank,
            )
        return tr.ngettext(
            "Nobody can add another {rank} after it: {n} is in the discard pile, and the others "
            "are on the table or in your hand.",
            "Nobody can add another {rank} after it: {n} are in the discard pile, and the others "
            "are on the table or in your hand.",
            n,
            rank=rank,
        )
    if code is FactCode.PAIR:
        more = _int(p, "n") - 1
        return tr.ngettext(
            "You hold {n} more card of rank {rank}: you can add it to this bout too.",
            "You hold {n} more of rank {rank}: you can add them to this bout too.",
            more,
            rank=rank_symbol(_rank_param(p), tr),
        )
    if code is FactCode.NEEDS_TRUMPS:
        return tr.ngettext(
            "Beating everything would cost at least {n} trump, and you hold {trumps}.",
            "Beating everything would cost at least {n} trumps, and you hold {trumps}.",
            _int(p, "n"),
            trumps=_int(p, "trumps"),
        )
    if code is FactCode.STOCK_LEFT:
        return tr.ngettext(
            "There is still {n} card to draw.", "There are still {n} cards to draw.", _int(p, "n")
        )
    if code is FactCode.FEWEST_CARDS:
        return tr.ngettext(
            "The stock is used up, and {player} holds only {n} card.",
            "The stock is used up, and {player} holds only {n} cards.",
            _int(p, "n"),
            player=_name(_int(p, "seat"), tr, players),
        )
    if code is FactCode.TRANSFER_TO:
        return tr.gettext(
            "Then {player} has to defend.", player=_name(_int(p, "seat"), tr, players)
        )
    if code is FactCode.GOES_OUT:
        return tr.gettext("It is your last card, and there is nothing left to draw.")
    if code is FactCode.SOLVED:
        return _solved(p, tr, players)
    # FactCode.OUTCOMES
    other = p.get("other")
    # TRANSLATORS: {n} deals the computer imagined for the hidden cards and played to the
    # end; {best} and {second} count out of 10; {other} is a move, e.g. "taking the cards".
    return tr.ngettext(
        "In {n} deal of the hidden cards, played out to the end, this move kept you from being "
        "the durak in about {best} of every 10, and {other} in about {second} of every 10.",
        "In {n} deals of the hidden cards, played out to the end, this move kept you from being "
        "the durak in about {best} of every 10, and {other} in about {second} of every 10.",
        _int(p, "samples"),
        best=_int(p, "best"),
        second=_int(p, "second"),
        other=hint_alternative(other, tr) if isinstance(other, Action) else "?",
    )


def _solved(p: Mapping[str, object], tr: Gettext, players: Sequence[str] | None) -> str:
    """A solved endgame, said exactly: what the move leads to against best play, and the
    runner-up when it does worse or as well."""
    player = _name(_int(p, "seat"), tr, players)
    value, other_value, best = p.get("value"), p.get("other_value"), p.get("best")
    if value == "win":
        text = tr.gettext(
            "Every card is known now, and this move wins however {player} plays.", player=player
        )
    elif value == "draw" and best == "draw":
        text = tr.gettext(
            "Every card is known now: with the best play on both sides this move ends in a "
            "draw, and nothing does better.",
        )
    elif value == "draw":
        text = tr.gettext(
            "Every card is known now: with the best play on both sides this move ends in a draw."
        )
    elif best == "loss":
        text = tr.gettext(
            "Every card is known now, and {player} can win against any move of yours; this "
            "one leaves {player} the most chances to go wrong.",
            player=player,
        )
    else:
        text = tr.gettext(
            "Every card is known now: after this move {player} can win with the right play.",
            player=player,
        )
    other = p.get("other")
    if not isinstance(other, Action):
        return text
    alternative = hint_alternative(other, tr)
    if other_value == value:
        then = tr.gettext("{other} does just as well.", other=alternative)
    elif other_value == "loss":
        then = tr.gettext("{other} would let {player} win.", other=alternative, player=player)
    else:
        then = tr.gettext("{other} would only draw.", other=alternative)
    return _join(tr, text, _capitalized(then))


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def explain_hint(
    advice: Hint,
    tr: Gettext,
    *,
    players: Sequence[str] | None = None,
    taking: bool = False,
) -> str:
    """A hint in words: the move, then why (every fact, most telling first)."""
    text = hint_move(advice.action, tr, taking=taking)
    for fact in advice.facts:
        text = _join(tr, text, hint_fact(fact, tr, players=players))
    return text


def _card_param(tr: Gettext, params: Mapping[str, object]) -> str:
    return _card(tr, params.get("card"))


def _rank_param(params: Mapping[str, object]) -> Rank:
    rank = params.get("rank")
    return rank if isinstance(rank, Rank) else Rank.ACE


def _int(params: Mapping[str, object], name: str) -> int:
    value = params.get(name)
    return value if isinstance(value, int) else 0


def _card(tr: Gettext, card: object) -> str:
    return card_short(card, tr) if isinstance(card, Card) else "?"


def _name(seat: int, tr: Gettext, players: Sequence[str] | None) -> str:
    if players is not None and 0 <= seat < len(players):
        return players[seat]
    return player_name(seat, tr)


def _join(tr: Gettext, first: str, second: str) -> str:
    # TRANSLATORS: how two sentences follow each other (a space in most languages).
    return tr.pgettext("joining two sentences", "{first} {second}", first=first, second=second)
