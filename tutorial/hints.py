"""Hints that say why: the move the computer would make, and the facts behind it.

:func:`hint` reads one seat's :class:`~durak_core.Observation` only (never the hidden cards):
it asks a :class:`~durak_core.bots.Evaluator` (the play page passes its own, the one its
end-of-game review asks too, so the two agree) to score every legal action, takes the best
one (in a lesson, the best of the moves the step asks for, compared only with the step's
other moves) and the runner-up, and lists :class:`Fact` codes with their numbers: cards
counted (the discard pile, the learner's hand, the table), what the move keeps or spends, and
how the runner-up fared: exactly in a solved endgame (:attr:`FactCode.SOLVED`, with the other
player's best answer to a move that does not win), else in the
trial games, or "too close to call" when the difference is within the sample's noise
(:attr:`FactCode.CLOSE`). While the stock lasts it follows the seeds' advice (S1: attack with
low plain cards) over an ace or a trump lead that did no clearly better
(:attr:`FactCode.PLAIN_LEAD`), and says so when one did (:attr:`FactCode.CLEAR_GAIN`). Every
fact is true of the position (``tests/test_hints.py`` checks each against the engine).
:func:`explain_hint` words a hint in the learner's language (here rather than in
``explain.py``, whose test renders every message of that module from its own samples;
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
from durak_core.bots import Assessment, Evaluator, card_value
from durak_core.bots import evaluator as _evaluator
from durak_core.cards import beats
from durak_core.determinize import determinize
from durak_core.solver import Value

from .i18n import Gettext
from .names import action_label, card_short, player_name, rank_symbol
from .people import as_person

__all__ = [
    "MAX_SAMPLES",
    "MIN_SAMPLES",
    "PLAYOUT_BUDGET",
    "Fact",
    "FactCode",
    "Hint",
    "describe_action",
    "explain_hint",
    "hint",
    "hint_alternative",
    "hint_fact",
    "hint_move",
    "join_sentences",
    "rate",
    "samples_for",
    "trumps_needed",
]

PLAYOUT_BUDGET: Final = _evaluator.PLAYOUT_BUDGET
"""Playouts one hint may cost (sampled deals × legal actions): about 0.15–0.3 s here."""
MIN_SAMPLES: Final = _evaluator.MIN_SAMPLES
MAX_SAMPLES: Final = _evaluator.MAX_SAMPLES


class FactCode(StrEnum):
    """What a hint can say, each with its parameters (see :class:`Fact`)."""

    ONLY_MOVE = "only_move"
    """No choice: the only legal action (``action``)."""
    KEEPS_TRUMP = "keeps_trump"
    """The move plays the plain card ``move`` where the runner-up spends the trump ``card``
    (``tied``: said as the rule of thumb that breaks a :attr:`TIE`)."""
    CHEAPEST = "cheapest"
    """``card`` is the lowest card (trumps above plain cards) that does this job (``tied``:
    said as the rule of thumb that breaks a :attr:`TIE`)."""
    RANK_GONE = "rank_gone"
    """Nobody else can hold a card of ``rank``: ``discarded`` of them are in the discard
    pile, ``in_hand`` in the learner's hand, ``on_table`` on the table."""
    PAIR = "pair"
    """The learner holds ``n`` cards of the led ``rank`` (leading ``card``): the others can
    follow (``tied``: said as the rule of thumb that breaks a :attr:`TIE`)."""
    NEEDS_TRUMPS = "needs_trumps"
    """Beating everything on the table would take at least ``n`` of the learner's
    ``trumps`` trumps (``n`` unbeaten cards no plain card of the hand beats)."""
    STOCK_LEFT = "stock_left"
    """``n`` cards are still to draw (the turned-up trump included)."""
    FEWEST_CARDS = "fewest_cards"
    """The stock is empty and ``seat`` holds only ``n`` cards, fewer than a full hand."""
    TRANSFER_TO = "transfer_to"
    """Passing the attack on makes ``seat`` the defender."""
    GOES_OUT = "goes_out"
    """The move plays the learner's last card and the stock is empty."""
    OUTCOMES = "outcomes"
    """In ``samples`` trial games, the move scored ``best`` (a share: not being the durak; a
    draw counts half) and the runner-up ``other`` (an action) ``second``, clearly less (beyond
    the noise of the sample); ``hidden``: the games dealt the hidden cards at random (else
    every card is placed and ``samples`` is 1)."""
    CLOSE = "close"
    """In ``samples`` trial games (``hidden`` as for :attr:`OUTCOMES`) the move and ``other``
    did too nearly as well to call one better (within the noise of the sample)."""
    PLAIN_LEAD = "plain_lead"
    """The seeds' advice (S1: «ataca con cartas bajas de palos sin triunfo»): the move leads a
    plain card where leading ``card`` (an ace or a trump; ``trump``: whether it is one) did
    no clearly better."""
    CLEAR_GAIN = "clear_gain"
    """The move leads ``card`` (an ace or a trump; ``trump``: whether it is one) against the
    usual advice, because it did clearly better than the best plain lead ``other``."""
    TIE = "tie"
    """Said first: the ``moves`` (the advice first) are too close to call, none clearly
    better than another (what the review also finds), in ``samples`` trial games
    (``hidden`` as for :attr:`OUTCOMES`; ``every``: they are all the moves there are); when
    solved (``samples`` 0) they have the same exact ``value`` against best play, ``seat``
    being the opponent. The table marks each."""
    SOLVED = "solved"
    """Every card is placed (two players, the stock empty) and the position is solved
    exactly: the move's ``value`` (``"win"``, ``"draw"`` or ``"loss"`` against best play),
    the position's ``best`` (the best of every legal move, the step's or not), the runner-up
    ``other`` and its ``other_value``; ``seat``: the opponent; ``answer`` and ``other_answer``:
    the opponent's best answer to the move and to the runner-up (None where it wins for the
    learner, the game ends, the learner moves again or the answer is forced); ``tied``: a
    :attr:`TIE` already said the value, so only the runner-up is compared."""


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
    ties: tuple[Action, ...] = ()
    """Other moves too close to call with ``action`` (see :attr:`FactCode.TIE`)."""

    def codes(self) -> list[FactCode]:
        return [f.code for f in self.facts]

    def moves(self) -> tuple[Action, ...]:
        """What the hint points at on the table: the advice and every move tied with it."""
        return (self.action, *self.ties)


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


def hint(
    source: Game | Observation,
    seat: int | None,
    rng: random.Random | None = None,
    *,
    among: Collection[Action] | None = None,
    samples: int | None = None,
    evaluator: Evaluator | None = None,
) -> Hint:
    """The computer's advice for ``seat`` (``source`` a game, read through ``observe``, or
    that seat's observation). ``among``: recommend only one of these and compare it only with
    the others of them (a lesson step's moves). ``evaluator``: the judge to ask (the play
    page's, which its review asks too); without one, a fresh judge seeded from ``rng``.
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
    if len(legal) == 1:
        only = legal[0]
        facts = [Fact(FactCode.ONLY_MOVE, {"action": only})]
        facts += _position_facts(obs, only, None, only=True)
        return Hint(obs.seat, only, 1.0, None, None, 0, tuple(facts))
    allowed = [a for a in legal if among is None or a in among]
    lesson = bool(allowed) and len(allowed) < len(legal)
    if not allowed:
        allowed = list(legal)
    if evaluator is None:
        evaluator = Evaluator((rng or random.Random(0)).getrandbits(64))
    found = evaluator.assess(obs, samples=samples)
    ranked = found.ranked(allowed)
    best = ranked[0]
    lead_fact: Fact | None = None
    plain = _plain_lead(obs, found, ranked, best)
    if plain is not None:
        fancy = best
        if found.better_than(plain) is None:
            best = plain
            lead_fact = Fact(FactCode.PLAIN_LEAD, _lead_params(obs, fancy))
        else:
            lead_fact = Fact(FactCode.CLEAR_GAIN, {**_lead_params(obs, fancy), "other": plain})
    # the runner-up: in a lesson the best other of the step's moves (none if it asks for one
    # move only); else the best other move, or the plain lead the advice was weighed against
    pool = ranked if lesson else found.ranked()
    rivals = [a for a in pool if a != best]
    # ties: the others no move of the pool does clearly better than (so the review, which
    # asks the same judge, never calls one of them costly); said first, each marked
    ties = tuple(a for a in rivals if not any(found.clearly_better(x, a) for x in pool))
    runner: Action | None = rivals[0] if rivals else None
    if lead_fact is not None and lead_fact.code is FactCode.CLEAR_GAIN:
        runner = plain
    score = found.scores[best]
    if found.exact is not None:
        values = found.exact
        opponent = next(i for i in range(obs.players) if i != obs.seat and i not in obs.out)
        if ties:  # the runner-up compared is the best move that does worse
            runner = next((a for a in rivals if a not in ties), None)
        facts = (
            _position_facts(obs, best, ties[0], tied=True)
            if ties
            else _position_facts(obs, best, runner)
        )
        if ties:
            value = _VALUE_WORDS[values[best]]
            facts.insert(
                0,
                Fact(
                    FactCode.TIE,
                    {"moves": (best, *ties), "samples": 0, "value": value, "seat": opponent},
                ),
            )
        facts.append(
            Fact(
                FactCode.SOLVED,
                {
                    "value": _VALUE_WORDS[values[best]],
                    "best": _VALUE_WORDS[max(values.values())],
                    "other": runner,
                    "other_value": None if runner is None else _VALUE_WORDS[values[runner]],
                    "seat": opponent,
                    "answer": None if ties else found.answers.get(best),
                    "other_answer": None if runner is None else found.answers.get(runner),
                    "tied": bool(ties),
                },
            )
        )
        runner_score = None if runner is None else found.scores[runner]
        return Hint(obs.seat, best, score, runner, runner_score, 0, tuple(facts), ties)
    n, hidden = found.samples, found.hidden
    if ties:
        # the rules of thumb break the tie against a tied move; the outcomes are compared
        # with the best move the advice does clearly better than (if any)
        facts = _position_facts(obs, best, ties[0], tied=True)
        if lead_fact is None or lead_fact.code is not FactCode.CLEAR_GAIN:
            runner = next((a for a in rivals if found.clearly_better(best, a)), None)
    else:
        facts = _position_facts(obs, best, runner)
    runner_score = None if runner is None else found.scores[runner]
    if ties:
        facts.insert(
            0,
            Fact(
                FactCode.TIE,
                {
                    "moves": (best, *ties),
                    "samples": n,
                    "hidden": hidden,
                    "every": len(ties) + 1 == len(pool),
                },
            ),
        )
        if runner is not None and hidden and lead_fact is None:
            facts.append(_outcomes(n, score, runner, runner_score, hidden, tied=True))
    elif runner is not None:
        if not hidden or found.close(best, runner):
            facts.append(Fact(FactCode.CLOSE, {"samples": n, "other": runner, "hidden": hidden}))
        else:
            facts.append(_outcomes(n, score, runner, runner_score, hidden))
    if lead_fact is not None:
        if ties and lead_fact.code is FactCode.PLAIN_LEAD:
            # the sources' advice breaks the tie (no second rule of thumb)
            lead_fact = Fact(FactCode.PLAIN_LEAD, {**lead_fact.params, "tied": True})
            facts = [f for f in facts if not f.params.get("tied")]
        facts.append(lead_fact)
    return Hint(obs.seat, best, score, runner, runner_score, found.samples, tuple(facts), ties)


def _outcomes(
    samples: int,
    best: float,
    other: Action,
    second: float | None,
    hidden: bool,
    *,
    tied: bool = False,
) -> Fact:
    """OUTCOMES; ``tied``: said after a TIE, about the same trial games."""
    params = {"samples": samples, "best": best, "other": other, "second": second}
    return Fact(FactCode.OUTCOMES, {**params, "hidden": hidden, **({"tied": True} if tied else {})})


def _fancy_lead(obs: Observation, action: Action) -> bool:
    """A lead of an ace or a trump: what the seeds advise against while a low plain card
    would do."""
    card = action.card
    return (
        action.kind is ActionKind.LEAD
        and card is not None
        and (card.suit is obs.trump or card.rank is Rank.ACE)
    )


def _plain_lead(
    obs: Observation, found: Assessment, ranked: Sequence[Action], best: Action
) -> Action | None:
    """When ``best`` leads an ace or a trump while the stock still lasts and a plain card
    below the ace could lead instead: the best-scored such lead (of ``ranked``); else None."""
    if obs.stock_size == 0 or not _fancy_lead(obs, best) or found.exact is not None:
        return None
    return next(
        (
            a
            for a in ranked
            if a.kind is ActionKind.LEAD and a.card is not None and not _fancy_lead(obs, a)
        ),
        None,
    )


def _lead_params(obs: Observation, action: Action) -> dict[str, object]:
    card = action.card
    return {"card": card, "trump": card is not None and card.suit is obs.trump}


def samples_for(legal: int) -> int:
    """Sampled deals for a hint among ``legal`` actions (the play page's judge may take
    fewer on the static site): :data:`PLAYOUT_BUDGET` playouts, between
    :data:`MIN_SAMPLES` and :data:`MAX_SAMPLES` deals (a fixed number, so the same seed gives
    the same hint on any machine)."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, PLAYOUT_BUDGET // max(1, legal)))


def _position_facts(
    obs: Observation,
    best: Action,
    runner: Action | None,
    *,
    only: bool = False,
    tied: bool = False,
) -> list[Fact]:
    """The facts of the position that bear on ``best`` (against ``runner``; ``only``: the
    only legal move, when no fact may read as a reason to do otherwise; ``tied``: other
    moves are as good, so only the rules of thumb that break the tie (a kept trump, the
    cheapest card: said as such) and the facts that favour none of them)."""
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
            facts.append(Fact(FactCode.KEEPS_TRUMP, {"card": runner.card, "move": card}))
        same_job = [
            a
            for a in obs.legal
            if a.kind is kind and a.target == best.target and a.card is not None
        ]
        # "the lowest card that does the job: keep the higher ones" only when a higher card
        # of the same kind (plain or trump) could do it too (an ace against trumps is not
        # "lower", it keeps the trumps: said by KEEPS_TRUMP when a trump is the runner-up)
        alike = [
            a
            for a in same_job
            if a.card is not None and (a.card.suit is trump) == (card.suit is trump)
        ]
        if len(alike) > 1 and all(
            card_value(card, trump, low) <= card_value(a.card, trump, low)
            for a in same_job
            if a.card is not None
        ):
            facts.append(Fact(FactCode.CHEAPEST, {"card": card}))
        if kind is ActionKind.BEAT and not tied:
            gone = _rank_gone(obs, card.rank)
            if gone is not None:
                facts.append(Fact(FactCode.RANK_GONE, gone))
        if kind is ActionKind.LEAD:
            n = sum(1 for c in obs.hand if c.rank == card.rank)
            if n >= 2:
                facts.append(Fact(FactCode.PAIR, {"rank": card.rank, "n": n, "card": card}))
        if tied:  # the first rule of thumb breaks the tie, said as such; nothing else
            breakers = [Fact(f.code, {**f.params, "tied": True}) for f in facts[:1]]
            return breakers + _neutral_facts(obs, kind)
        if len(obs.hand) == 1 and obs.stock_size == 0:
            facts.append(Fact(FactCode.GOES_OUT, {}))
    if tied:
        return _neutral_facts(obs, kind)
    if (kind is ActionKind.TRANSFER or kind is ActionKind.FLASH) and card is not None:
        world = determinize(obs, random.Random(0), undo=False, events=False)
        world.push(best)
        facts.append(Fact(FactCode.TRANSFER_TO, {"seat": world.defender}))
    if kind is ActionKind.TAKE:
        trumps = sum(1 for c in obs.hand if c.suit is trump)
        needed = trumps_needed(obs)
        if needed and not (only and needed <= trumps):
            facts.append(Fact(FactCode.NEEDS_TRUMPS, {"n": needed, "trumps": trumps}))
    return facts + _neutral_facts(obs, kind)


def _neutral_facts(obs: Observation, kind: ActionKind) -> list[Fact]:
    """Facts of the position that favour no move over another of its kind: the stock left
    (with a take or a lead) and the shortest other hand once the stock is used up."""
    facts: list[Fact] = []
    if kind in (ActionKind.TAKE, ActionKind.LEAD) and obs.stock_size:
        facts.append(Fact(FactCode.STOCK_LEFT, {"n": obs.stock_size}))
    if obs.stock_size == 0:
        others = [
            (size, s)
            for s, size in enumerate(obs.hand_sizes)
            if s != obs.seat and obs.active[s] and size
        ]
        # "holds only 2 cards" bears on the move; "only 15" (after a big take) does not
        if others and min(others)[0] < obs.rules.hand_size:
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
    return tr.pgettext("move", "adding nothing more")


def describe_action(action: Action, tr: Gettext) -> str:
    """A move in a few words ("beat 8♥ with 9♠")."""
    card = card_short(action.card, tr) if action.card is not None else ""
    kind = action.kind
    if kind is ActionKind.LEAD:
        # TRANSLATORS: a move in the end-of-game review (an infinitive or imperative phrase).
        return tr.pgettext("move", "lead {card}", card=card)
    if kind is ActionKind.BEAT:
        target = card_short(action.target, tr) if action.target is not None else ""
        return tr.pgettext("move", "beat {target} with {card}", target=target, card=card)
    if kind is ActionKind.THROW:
        return tr.pgettext("move", "add {card}", card=card)
    if kind is ActionKind.TRANSFER:
        return tr.pgettext("move", "pass the attack on with {card}", card=card)
    if kind is ActionKind.TAKE:
        return tr.pgettext("move", "take the cards")
    if kind is ActionKind.PASS:
        return tr.pgettext("move", "add nothing more")
    if kind is ActionKind.FLASH:
        return tr.pgettext("move", "show the trump {card} to pass the attack on", card=card)
    if kind is ActionKind.REDEAL:
        return tr.pgettext("move", "ask for a new deal")
    return tr.pgettext("move", "swap for the turned-up trump")


def hint_fact(fact: Fact, tr: Gettext, *, players: Sequence[str] | None = None) -> str:
    """One fact of a hint as a sentence."""
    p = fact.params
    code = fact.code
    if code is FactCode.ONLY_MOVE:
        return tr.gettext("It is the only move the rules allow you now.")
    if code is FactCode.KEEPS_TRUMP:
        if p.get("tied"):  # after a TIE
            return tr.gettext(
                "A rule of thumb breaks the tie: {move} keeps your trump {card} for later.",
                move=_card(tr, p.get("move")),
                card=_card_param(tr, p),
            )
        return tr.gettext("It keeps your trump {card} for later.", card=_card_param(tr, p))
    if code is FactCode.CHEAPEST:
        if p.get("tied"):  # after a TIE
            return tr.gettext(
                "A rule of thumb breaks the tie: {card} is your lowest card that does the job.",
                card=_card_param(tr, p),
            )
        return tr.gettext(
            "{card} is your lowest card that does the job: keep the higher ones.",
            card=_card_param(tr, p),
        )
    if code is FactCode.RANK_GONE:
        n = _int(p, "discarded")
        if _int(p, "in_hand") == 0 and _int(p, "on_table") == 0:
            return tr.ngettext(
                "Nobody can add another card of this rank after it: the other {n} is already "
                "in the discard pile.",
                "Nobody can add another card of this rank after it: the other {n} are already "
                "in the discard pile.",
                n,
            )
        return tr.ngettext(
            "Nobody can add another card of this rank after it: {n} is in the discard pile, "
            "and the others are on the table or in your hand.",
            "Nobody can add another card of this rank after it: {n} are in the discard pile, "
            "and the others are on the table or in your hand.",
            n,
        )
    if code is FactCode.PAIR:
        more = _int(p, "n") - 1
        if p.get("tied"):  # after a TIE
            return tr.ngettext(
                "A rule of thumb breaks the tie: lead {card}, and you can add your {n} other "
                "card of that rank to this bout too.",
                "A rule of thumb breaks the tie: lead {card}, and you can add your {n} other "
                "cards of that rank to this bout too.",
                more,
                card=_card_param(tr, p),
            )
        return tr.ngettext(
            "You hold {n} more card of rank {rank}: you can add it to this bout too.",
            "You hold {n} more cards of rank {rank}: you can add them to this bout too.",
            more,
            rank=rank_symbol(_rank_param(p), tr),
        )
    if code is FactCode.NEEDS_TRUMPS:
        return _needs_trumps(_int(p, "n"), _int(p, "trumps"), tr)
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
    if code is FactCode.TIE:
        return _tie(p, tr, players)
    other = p.get("other")
    alternative = hint_alternative(other, tr) if isinstance(other, Action) else "?"
    if code is FactCode.PLAIN_LEAD:
        if p.get("tied"):  # after a TIE: the advice breaks it
            return tr.gettext(
                "The usual advice breaks the tie: while there are cards to draw, lead plain "
                "cards and keep aces and trumps for later."
            )
        if p.get("trump"):
            return tr.gettext(
                "That follows the usual advice: while there are cards to draw, lead plain cards."
            )
        return tr.gettext(
            "That follows the usual advice: while there are cards to draw, lead lower cards "
            "and keep {card} for later.",
            card=_card_param(tr, p),
        )
    if code is FactCode.CLEAR_GAIN:
        if p.get("trump"):
            return tr.gettext(
                "Leading a trump early usually wastes it, but here the trial games found a "
                "clear gain over {other}.",
                other=alternative,
            )
        return tr.gettext(
            "Leading an ace early is usually a waste, but here the trial games found a clear "
            "gain over {other}.",
            other=alternative,
        )
    n = _int(p, "samples")
    if code is FactCode.CLOSE:
        if not p.get("hidden"):
            return tr.gettext(
                "Played out to the end, this move and {other} come out too close to call.",
                other=alternative,
            )
        # TRANSLATORS: {n} games the computer played to the end, the hidden cards dealt at
        # random; {other} is a move, e.g. "taking the cards".
        return tr.ngettext(
            "In {n} trial game, with the hidden cards dealt at random, this move and {other} "
            "did about as well: too close to call.",
            "In {n} trial games, with the hidden cards dealt at random, this move and {other} "
            "did about as well: too close to call.",
            n,
            other=alternative,
        )
    # FactCode.OUTCOMES
    best, second = _rates(tr, _float(p, "best"), _float(p, "second"))
    if p.get("tied"):  # after a TIE, in the same trial games
        # TRANSLATORS: after "too close to call" (the same trial games); {second} is a rate,
        # e.g. "in about 3 games of every 10"; {other} is a move.
        return _capitalized(
            tr.gettext(
                "{other} did clearly worse in the same games: it kept you from being the durak "
                "{second}.",
                other=alternative,
                second=second,
            )
        )
    # TRANSLATORS: {n} games the computer played to the end, the hidden cards dealt at
    # random; {best} and {second} are rates, e.g. "in about 3 games of every 10"; {other} is
    # a move, e.g. "taking the cards".
    return tr.ngettext(
        "In {n} trial game, with the hidden cards dealt at random, this move kept you from "
        "being the durak {best}, and {other} {second}.",
        "In {n} trial games, with the hidden cards dealt at random, this move kept you from "
        "being the durak {best}, and {other} {second}.",
        n,
        best=best,
        second=second,
        other=alternative,
    )


def _rates(tr: Gettext, first: float, second: float) -> tuple[str, str]:
    """Two shares in words, on a scale of 10, or of 100 when they would read alike on 10."""
    scale = 100 if _round(first, 10) == _round(second, 10) else 10
    return rate(first, tr, scale=scale), rate(second, tr, scale=scale)


def _round(share: float, scale: int) -> int:
    return int(share * scale + 0.5)


def rate(share: float, tr: Gettext, *, scale: int = 10) -> str:
    """A share of games in words: "in about 3 games of every 10" (``scale`` 10 or 100),
    "in hardly any of them", "in nearly all of them"."""
    k = _round(share, scale)
    if k <= 0:
        # TRANSLATORS: how often a move did well in the computer's trial games ("them").
        return tr.pgettext("rate", "in hardly any of them")
    if k >= scale:
        return tr.pgettext("rate", "in nearly all of them")
    if scale == 100:
        return tr.ngettext(
            "in about {k} game of every 100", "in about {k} games of every 100", k, k=k
        )
    # TRANSLATORS: how often a move did well in the computer's trial games.
    return tr.ngettext("in about {k} game of every 10", "in about {k} games of every 10", k, k=k)


#: Moves a tie names one by one; more are counted ("and 3 more moves": each is marked).
TIE_NAMED: Final = 4


def _tie(p: Mapping[str, object], tr: Gettext, players: Sequence[str] | None) -> str:
    """Moves too close to call (or of the same exact value), the advice first."""
    found = p.get("moves")
    moves = [m for m in found if isinstance(m, Action)] if isinstance(found, tuple) else []
    n = _int(p, "samples")
    if n and p.get("every") and len(moves) > TIE_NAMED:  # rather than "… and 5 more moves"
        if not p.get("hidden"):
            return tr.gettext(
                "Too close to call: played out to the end, every move you have comes out "
                "about the same."
            )
        return tr.ngettext(
            "Too close to call: in {n} trial game, with the hidden cards dealt at random, every "
            "move you have did about as well.",
            "Too close to call: in {n} trial games, with the hidden cards dealt at random, "
            "every move you have did about as well.",
            n,
        )
    # TRANSLATORS: one move inside a list of moves, quoted as the language quotes a phrase
    # (ru «{move}», es «{move}»; English needs no quotes).
    named = [tr.pgettext("move in a list", "{move}", move=hint_alternative(m, tr)) for m in moves]
    if len(named) > TIE_NAMED:
        extra = len(named) - (TIE_NAMED - 1)
        # TRANSLATORS: the last item of a list of moves: the others are marked on the table.
        named = [*named[: TIE_NAMED - 1], tr.ngettext("{n} more move", "{n} more moves", extra)]
    listed = tr.format_list(named)
    if n == 0:
        player = _name(_int(p, "seat"), tr, players)
        value = p.get("value")
        if value == "win":
            return tr.gettext(
                "Every card is known now, and these moves are equally good: {moves}. After any "
                "of them {player} ends up the durak, however {player} plays.",
                moves=listed,
                player=player,
            )
        if value == "draw":
            return tr.gettext(
                "Every card is known now, and these moves are equally good: {moves}. With the "
                "best play on both sides each ends in a draw.",
                moves=listed,
            )
        return tr.gettext(
            "Every card is known now, and these moves come to the same: {moves}. After any of "
            "them {player} can make you the durak with the right play.",
            moves=listed,
            player=player,
        )
    if not p.get("hidden"):
        return tr.gettext(
            "Too close to call: played out to the end, {moves} come out about the same.",
            moves=listed,
        )
    # TRANSLATORS: {n} games the computer played to the end, the hidden cards dealt at
    # random; {moves} is a list of moves ("attacking with 7♣ and taking the cards").
    return tr.ngettext(
        "Too close to call: in {n} trial game, with the hidden cards dealt at random, {moves} "
        "did about as well.",
        "Too close to call: in {n} trial games, with the hidden cards dealt at random, {moves} "
        "did about as well.",
        n,
        moves=listed,
    )


def _solved(p: Mapping[str, object], tr: Gettext, players: Sequence[str] | None) -> str:
    """A solved endgame, said exactly: what the move leads to against best play, and the
    runner-up when it does worse or as well."""
    player = _name(_int(p, "seat"), tr, players)
    value, other_value, best = p.get("value"), p.get("other_value"), p.get("best")
    if value == "win":
        # TRANSLATORS: a solved two-player endgame. Durak has no winner, only a loser: say who
        # ends up the durak, never who "wins" (locales/GLOSSARY.md).
        text = tr.gettext(
            "Every card is known now: after this move {player} ends up the durak, however "
            "{player} plays.",
            player=player,
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
            "Every card is known now, and {player} can make you the durak whatever you play; "
            "this move leaves {player} the most chances to go wrong.",
            player=player,
        )
    else:
        text = tr.gettext(
            "Every card is known now: after this move {player} can make you the durak with the "
            "right play.",
            player=player,
        )
    if p.get("tied"):  # the tie said the value of every move it names
        text = ""
    answer = p.get("answer")
    if isinstance(answer, Action):  # only to a move that does not win
        text = join_sentences(
            tr,
            text,
            tr.gettext(
                "{player}'s best answer to it is to {move}.",
                player=player,
                move=describe_action(answer, tr),
            ),
        )
    other = p.get("other")
    if not isinstance(other, Action):
        return text
    alternative = hint_alternative(other, tr)
    other_answer = p.get("other_answer")
    move = describe_action(other_answer, tr) if isinstance(other_answer, Action) else None
    if other_value == value == "loss":
        then = tr.gettext("{other} would not save you either.", other=alternative)
    elif other_value == value:
        then = tr.gettext("{other} does just as well.", other=alternative)
    elif other_value == "loss" and move:
        then = tr.gettext(
            "{other} would let {player} make you the durak: the best answer to it is to {move}.",
            other=alternative,
            player=player,
            move=move,
        )
    elif other_value == "loss":
        then = tr.gettext(
            "{other} would let {player} make you the durak.", other=alternative, player=player
        )
    elif move:
        then = tr.gettext(
            "{other} would only draw: the best answer to it is to {move}.",
            other=alternative,
            move=move,
        )
    else:
        then = tr.gettext("{other} would only draw.", other=alternative)
    return join_sentences(tr, text, _capitalized(then)) if text else _capitalized(then)


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def explain_hint(
    advice: Hint,
    tr: Gettext,
    *,
    players: Sequence[str] | None = None,
    taking: bool = False,
    instructed: bool = False,
) -> str:
    """A hint in words: the move, then why (every fact, most telling first); moves too close
    to call are named together instead of one move. ``instructed``: the learner was just told
    what to do (a lesson step's own hint, "Click your 6♣."), so the move is not said again,
    only why."""
    tied = FactCode.TIE in advice.codes()  # the tie is said first, naming every move
    text = "" if instructed or tied else hint_move(advice.action, tr, taking=taking)
    for fact in advice.facts:
        sentence = hint_fact(fact, tr, players=players)
        if sentence:
            text = join_sentences(tr, text, sentence) if text else sentence
    return text


def _card_param(tr: Gettext, params: Mapping[str, object]) -> str:
    return _card(tr, params.get("card"))


def _rank_param(params: Mapping[str, object]) -> Rank:
    rank = params.get("rank")
    return rank if isinstance(rank, Rank) else Rank.ACE


def _float(params: Mapping[str, object], name: str) -> float:
    value = params.get(name)
    return float(value) if isinstance(value, (int, float)) else 0.0


def _int(params: Mapping[str, object], name: str) -> int:
    value = params.get(name)
    return value if isinstance(value, int) else 0


def _card(tr: Gettext, card: object) -> str:
    return card_short(card, tr) if isinstance(card, Card) else "?"


def _name(seat: int, tr: Gettext, players: Sequence[str] | None) -> str:
    if players is not None and 0 <= seat < len(players):
        return as_person(players[seat], tr)
    return player_name(seat, tr)


def _needs_trumps(n: int, trumps: int, tr: Gettext) -> str:
    """Why to take rather than beat: beating everything needs at least ``n`` trumps, and the
    learner holds ``trumps``. Said as what taking saves: more trumps than the hand has (none,
    or too few), or the trumps beating would spend (all of them, or ``n`` of them); never as
    "you hold enough", which would argue for beating."""
    if trumps == 0:
        return tr.ngettext(
            "Beating everything would take at least {n} trump, and you hold none.",
            "Beating everything would take at least {n} trumps, and you hold none.",
            n,
        )
    if trumps < n:
        return tr.ngettext(
            "Beating everything would take at least {n} trump, and you hold only {trumps}.",
            "Beating everything would take at least {n} trumps, and you hold only {trumps}.",
            n,
            trumps=trumps,
        )
    if trumps == n:
        return tr.ngettext(
            "Beating everything would spend {n} trump: the only one you hold.",
            "Beating everything would spend {n} trumps: all you hold.",
            n,
        )
    return tr.ngettext(
        "Beating everything would spend at least {n} trump of the {trumps} you hold.",
        "Beating everything would spend at least {n} trumps of the {trumps} you hold.",
        n,
        trumps=trumps,
    )


def join_sentences(tr: Gettext, first: str, second: str) -> str:
    """Two sentences one after the other, as the language joins them."""
    # TRANSLATORS: how two sentences follow each other (a space in most languages).
    return tr.pgettext("joining two sentences", "{first} {second}", first=first, second=second)
