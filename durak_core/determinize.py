"""Worlds consistent with what one seat knows: the unseen cards dealt at random, as S1's
computer player does («Reparte en su cabeza las cartas que no ha visto de varias maneras
posibles y juega cada una hasta el final», remembering «las cartas que han salido y las que vio
recoger»).

:func:`determinize` turns an :class:`~durak_core.observation.Observation` into a full
:class:`~durak_core.game.Game` in exactly the public state of the real game — the same
attacker, defender, passes, bout count, hand cap, cards on the table, discard pile, seats out
and swap window — with this seat's hand as it is, every card the seat knows to be in a hand in
that hand, every hand and the stock of their real sizes, and the turn-up where it is known to
be. The cards the seat cannot place are dealt uniformly at random among the worlds that agree
with everything it knows.

What a seat can infer about hidden cards:

- **Nothing from play.** In Durak the defender may always take instead of beating (S2, S3),
  and nobody is ever obliged to beat, throw in, transfer or swap (S0–S4); there is no suit to
  follow (S3). So no play reveals that a hand lacks a suit or a rank: there are no voids to
  infer, and none are invented here.
- **Something from the deal.** The holder of the lowest trump shows it to lead first (S0, S1,
  S3), so every lower trump lay in the stock after the deal; if nobody held a trump, every
  trump did (S3). Such an *undealt* card can be hidden in a hand only if that seat drew it,
  so each hand holds at most as many undealt cards as it has unseen draws
  (:attr:`Observation.unseen_draws <durak_core.observation.Observation.unseen_draws>`). The
  sampler respects these limits exactly (still uniform among the worlds that meet them).
- **The turn-up.** In the stock it is the stock's bottom card, drawn last; once drawn it is
  known to be in the drawer's hand (or in the dealer's, who kept it), so it never needs
  dealing. A turn-up known only to have left the stock lies in the hand of the seat seen
  drawing it (``turnup_holder``), else in some other hand — never in the stock.
- **The lowest trump's swap right** (S0). A lowest trump hidden in a hand was dealt or drawn
  there (cards picked up or swapped are public), so that seat holds the right
  (``low_trump_origin``, as drawing and a deal set it); hidden
  in the stock, nobody does.

:func:`determinize` is built for search: the plan of an observation (which cards are unseen,
which places take how many, the counting tables of the deal inference) is computed once and
reused while the same observation object is passed again.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from math import comb

from .cards import Card
from .game import Game
from .observation import Observation
from .position import Position
from .rules import TrumpSwap

__all__ = ["determinize", "sample_position"]

_STOCK = -1
"""The stock's place id."""
_ABSENT = -2
"""Cards of the deck that a set-up position does not hold (not every position holds them all)."""


def determinize(
    observation: Observation,
    rng: random.Random,
    *,
    undo: bool = True,
    events: bool = True,
) -> Game:
    """A game consistent with ``observation``: its unseen cards dealt at random (see the module
    docstring). ``undo=False, events=False`` make a fast game for playouts, as in
    :meth:`Game.from_position <durak_core.game.Game.from_position>`.

    Raises :class:`ValueError` if the observation holds too few unseen cards for the hidden
    places (it was not made by :func:`~durak_core.observation.observe`).
    """
    position = sample_position(observation, rng)
    # consistent by construction (the tests check every world against from_position's checks)
    return Game.from_position(observation.rules, position, undo=undo, events=events, check=False)


def sample_position(observation: Observation, rng: random.Random) -> Position:
    """The :class:`Position` of one world :func:`determinize` would set up."""
    return _plan(observation).sample(rng)


@dataclass(frozen=True, slots=True)
class _Deal:
    """How the unseen cards are dealt once the turn-up's place is fixed.

    ``sizes`` are the places' hidden slots; ``ways`` counts the deals of the undealt cards
    (each weighted by the ways to fill the other slots). ``cumulative[j][n]`` lists, for each
    ``k``, the running total of the ways to put ``n`` undealt cards in places ``j..`` with ``k``
    of them in place ``j``; None when no cap binds (then a plain shuffle deals uniformly)."""

    sizes: tuple[int, ...]
    ways: int
    cumulative: tuple[tuple[tuple[int, ...], ...], ...] | None

    @classmethod
    def make(cls, sizes: tuple[int, ...], caps: tuple[int | None, ...], low: int) -> _Deal:
        """``caps``: the most undealt cards each place may take (None: any number)."""
        binding = any(c is not None and c < min(s, low) for s, c in zip(sizes, caps, strict=True))
        if not binding:
            return cls(sizes, comb(sum(sizes), low), None)
        after = [1] + [0] * low  # ways to put n undealt cards in no place at all
        rows: list[tuple[tuple[int, ...], ...]] = []
        for size, cap in zip(reversed(sizes), reversed(caps), strict=True):
            top = size if cap is None else min(size, cap)
            row: list[tuple[int, ...]] = []
            for n in range(low + 1):
                running = 0
                totals = []
                for k in range(min(top, n) + 1):
                    running += comb(size, k) * after[n - k]
                    totals.append(running)
                row.append(tuple(totals))
            rows.append(tuple(row))
            after = [totals[-1] for totals in row]
        return cls(sizes, after[low], tuple(reversed(rows)))

    def counts(self, low: int, rng: random.Random) -> list[int]:
        """How many undealt cards go to each place, drawn with the right weights."""
        assert self.cumulative is not None
        counts = []
        for row in self.cumulative:
            totals = row[low]
            k = bisect_right(totals, rng.randrange(totals[-1]))
            counts.append(k)
            low -= k
        return counts


class _Plan:
    """What :func:`sample_position` needs from one observation, computed once."""

    __slots__ = (
        "deals",
        "high",
        "low",
        "low_trump",
        "observation",
        "origin",
        "places",
        "prefixes",
        "turnup",
        "turnup_low",
        "weights",
    )

    def __init__(self, obs: Observation) -> None:
        self.observation = obs
        seat = obs.seat
        unseen = sorted(obs.unseen(), key=_index)
        prefixes = [
            obs.hand if i == seat else tuple(sorted(obs.known[i], key=_index))
            for i in range(obs.players)
        ]
        sizes = {i: obs.hand_sizes[i] - len(obs.known[i]) for i in range(obs.players) if i != seat}
        turnup = obs.turnup
        self.turnup: Card | None = None
        forced_origin = obs.low_trump_origin
        if turnup is not None and not obs.turnup_in_stock and turnup in unseen:
            holder = obs.turnup_holder
            if holder is not None and holder != seat:
                # seen drawing it: it is in his hand (it cannot leave before the next lead)
                unseen.remove(turnup)
                prefixes[holder] = (*prefixes[holder], turnup)
                sizes[holder] -= 1
                if turnup == Card(obs.rules.lowest_rank, obs.trump):
                    forced_origin = holder  # drawn as the last card: his by draw
            else:
                self.turnup = turnup  # in some hand (or not in a set-up position at all)
                unseen.remove(turnup)
        places = [i for i, n in sizes.items() if n > 0]
        slots = [sizes[i] for i in places]
        if any(n < 0 for n in sizes.values()):
            raise ValueError("the observation lists more known cards than a hand holds")
        stock = obs.stock_size - obs.turnup_in_stock
        if stock:
            places.append(_STOCK)
            slots.append(stock)
        hidden = sum(slots)  # the turn-up, when not placed, takes one of the slots
        total = len(unseen) + (self.turnup is not None)
        if total < hidden:
            raise ValueError(f"the observation has {total} unseen cards for {hidden} hidden places")
        if total > hidden:
            places.append(_ABSENT)
            slots.append(total - hidden)
        undealt = obs.undealt
        low_cards = [c for c in unseen if c in undealt]
        self.low = low_cards
        self.high = [c for c in unseen if c not in undealt]
        self.turnup_low = self.turnup is not None and self.turnup in undealt
        caps: list[int | None] = [
            min(slots[j], obs.unseen_draws[p]) if p >= 0 and undealt else None
            for j, p in enumerate(places)
        ]
        self.places = tuple(places)
        self.prefixes = prefixes
        swap = obs.rules.trump_swap is not TrumpSwap.OFF
        self.origin = forced_origin if swap else None
        low_trump = Card(obs.rules.lowest_rank, obs.trump)
        hidden_low = low_trump in unseen or low_trump == self.turnup
        # a hidden lowest trump gives the swap right to the seat it is dealt to
        self.low_trump: Card | None = low_trump if swap and hidden_low else None
        n_low = len(low_cards)
        if self.turnup is None:
            deal = _Deal.make(tuple(slots), tuple(caps), n_low)
            if deal.ways == 0:
                raise ValueError("no deal of the unseen cards agrees with the observation")
            self.deals: tuple[_Deal, ...] = (deal,)
            self.weights: tuple[int, ...] = (1,)
            return
        # the turn-up goes to a hand (or is absent): weigh each place by its worlds
        deals: list[_Deal] = []
        weights: list[int] = []
        for j, p in enumerate(places):
            if p == _STOCK or (self.turnup_low and caps[j] == 0):
                deals.append(_Deal.make((), (), 0))
                weights.append(0)
                continue
            fewer = list(slots)
            fewer[j] -= 1
            fewer_caps = list(caps)
            cap = caps[j]
            if self.turnup_low and cap is not None:
                fewer_caps[j] = cap - 1
            deal = _Deal.make(tuple(fewer), tuple(fewer_caps), n_low)
            deals.append(deal)
            weights.append(slots[j] * deal.ways)
        if not any(weights):
            raise ValueError("no deal of the unseen cards agrees with the observation")
        self.deals = tuple(deals)
        self.weights = tuple(weights)

    def sample(self, rng: random.Random) -> Position:
        obs = self.observation
        places = self.places
        deal = self.deals[0]
        turnup_place: int | None = None
        if self.turnup is not None:
            weights = self.weights
            r = rng.randrange(sum(weights))
            j = 0
            while r >= weights[j]:
                r -= weights[j]
                j += 1
            deal = self.deals[j]
            turnup_place = places[j]
        dealt: dict[int, list[Card]] = {}
        if deal.cumulative is None:
            cards = [*self.low, *self.high]
            rng.shuffle(cards)
            start = 0
            for place, size in zip(places, deal.sizes, strict=True):
                dealt[place] = cards[start : start + size]
                start += size
        else:
            counts = deal.counts(len(self.low), rng)
            low = self.low[:]
            high = self.high[:]
            rng.shuffle(low)
            rng.shuffle(high)
            randrange = rng.randrange
            a = b = 0
            for place, size, k in zip(places, deal.sizes, counts, strict=True):
                mine = high[b : b + size - k]  # in random order; the few undealt cards are
                for card in low[a : a + k]:  # put in at random, which keeps it so
                    mine.insert(randrange(len(mine) + 1), card)
                dealt[place] = mine
                a += k
                b += size - k
        turnup = self.turnup
        if turnup is not None and turnup_place is not None:
            mine = dealt.setdefault(turnup_place, [])
            mine.insert(rng.randrange(len(mine) + 1), turnup)
        prefixes = self.prefixes
        hands = tuple(
            (*prefixes[i], *dealt[i]) if i in dealt else prefixes[i] for i in range(obs.players)
        )
        origin = self.origin
        low_trump = self.low_trump
        if low_trump is not None:
            for i in dealt:
                if low_trump in dealt[i]:
                    origin = i if i >= 0 else None
                    break
        return Position(
            hands=hands,
            stock=tuple(dealt.get(_STOCK, ())),
            turnup=obs.turnup,
            turnup_in_stock=obs.turnup_in_stock,
            trump=obs.trump,
            discard=obs.discard,
            table=obs.table,
            attacker=obs.attacker,
            defender=obs.defender,
            lead_attacker=obs.lead_attacker,
            defender_hand_at_start=obs.defender_hand_at_start,
            phase=obs.phase,
            taking=obs.taking,
            passed=obs.passed,
            out=obs.out,
            durak=obs.durak,
            bouts=obs.bouts,
            previous_durak=obs.previous_durak,
            low_trump_origin=origin,
            turnup_holder=obs.turnup_holder,
            known=obs.public,
            flashed=obs.flashed,
            redeals=obs.redeals,
            dealer=obs.dealer,
            seen=obs.seen,
        )


def _index(card: Card) -> int:
    return card.index


_last: tuple[Observation, _Plan] | None = None


def _plan(observation: Observation) -> _Plan:
    """The plan of ``observation``, reused while the same object comes back (search)."""
    global _last
    last = _last
    if last is not None and last[0] is observation:
        return last[1]
    plan = _Plan(observation)
    _last = (observation, plan)
    return plan
