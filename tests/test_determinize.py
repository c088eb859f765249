"""Worlds consistent with one seat's knowledge (durak_core.determinize, issue 10 point 5).

Every sampled world agrees with the observation (own hand, public zones, known cards, sizes, the
turn-up's place, the whole public state) and plays on legally; over many samples with a fixed
seed, every unseen card lands in every possible place with the frequency a uniform deal over the
consistent worlds gives — checked with a chi-square test whose critical values come from the
exact chi-square tail for whole degrees of freedom (no scipy), itself checked against a table.

The expected frequencies are computed here independently, by enumerating how many undealt cards
(S0, S3: trumps lower than the one shown) each place gets, not by the sampler's own tables.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from durak_core import (
    PRESETS,
    ActionKind,
    Card,
    EventKind,
    FirstAttacker,
    Game,
    Observation,
    Phase,
    Position,
    Rules,
    TrumpSwap,
    determinize,
    make_deck,
    observe,
    sample_position,
)

from .helpers import check_invariants

STOCK = -1
ABSENT = -2


# ---------------------------------------------------------------- chi-square without scipy


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X ~ χ²(df), exact for whole ``df`` (closed forms of the incomplete gamma)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    tail = math.erfc(math.sqrt(half))
    if df == 1:
        return tail
    term = math.sqrt(x) * math.sqrt(2 / math.pi) * math.exp(-half)
    total = term
    for i in range(1, (df - 1) // 2):
        term *= x / (2 * i + 1)
        total += term
    return tail + total


def chi2_critical(df: int, p: float = 0.001) -> float:
    """The x with P(χ²(df) ≥ x) = p (bisection on :func:`chi2_sf`)."""
    lo, hi = 0.0, 10.0 * df + 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return lo


# Tabulated critical values of χ² at p = 0.001 (NIST/SEMATECH e-Handbook, table 1.3.6.7.4).
TABLE_0001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 10: 29.588, 20: 45.315}
TABLE_0001 |= {30: 59.703, 50: 86.661, 100: 149.449}


def test_chi2_critical_values_match_the_table() -> None:
    for df, value in TABLE_0001.items():
        assert chi2_critical(df) == pytest.approx(value, abs=0.002), df


# ---------------------------------------------------------------- positions


def play_until(
    game: Game, rng: random.Random, stop: Callable[[Game], bool], limit: int = 3000
) -> bool:
    """Random legal play until ``stop(game)`` is true (False if the game ended first)."""
    for _ in range(limit):
        if stop(game):
            return True
        if game.outcome is not None:
            return False
        game.play(rng.choice(list(game.legal_actions())))
    return False


def find(rules: Rules, players: int, stop: Callable[[Game], bool], first_seed: int = 0) -> Game:
    """The first seeded random game that reaches a position where ``stop`` holds."""
    for seed in range(first_seed, first_seed + 500):
        game = Game.deal(rules, players, seed)
        if play_until(game, random.Random(seed), stop):
            return game
    raise AssertionError("no such position in 500 seeded games")


def hidden(obs: Observation, position: Position, seat: int) -> set[Card]:
    return set(position.hands[seat]) - obs.public[seat]


def random_positions(rules: Rules, players: int, seed: int, every: int) -> Iterator[Game]:
    """Positions of one seeded random game, every ``every`` actions and at its end."""
    game = Game.deal(rules, players, seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % every == 0 or game.outcome is not None:
            yield game
        if game.outcome is not None:
            return
        game.play(rng.choice(list(game.legal_actions())))
        step += 1
        assert step < 3000


# ---------------------------------------------------------------- consistency of a world

PUBLIC = (
    "turnup",
    "turnup_in_stock",
    "trump",
    "discard",
    "table",
    "attacker",
    "defender",
    "lead_attacker",
    "defender_hand_at_start",
    "phase",
    "taking",
    "passed",
    "out",
    "durak",
    "bouts",
    "previous_durak",
    "turnup_holder",
    "known",
)
FROM_EVENTS = {"events", "undealt", "unseen_draws", "acting"}
"""Observation fields a world rebuilt from a position may differ in: the log (and what is
inferred from it) and who may act (a hidden lowest trump's swap right moves with the card)."""


def check_world(world: Game, obs: Observation, real: Game) -> None:
    """``world`` agrees with everything ``obs`` knows about ``real``."""
    seat = obs.seat
    wpos, rpos = world.position(), real.position()
    assert Game.from_position(world.rules, wpos).position() == wpos  # passes every check
    for name in PUBLIC:
        assert getattr(wpos, name) == getattr(rpos, name), name
    assert wpos.hands[seat] == rpos.hands[seat]  # own hand, in order
    assert [len(h) for h in wpos.hands] == [len(h) for h in rpos.hands]
    assert len(wpos.stock) == len(rpos.stock)
    for i, known in enumerate(obs.public):
        assert known <= set(wpos.hands[i])
    unseen = obs.unseen()
    others = [i for i in range(world.players) if i != seat]
    world_hidden = set(wpos.stock).union(*(hidden(obs, wpos, i) for i in others))
    real_hidden = set(rpos.stock).union(*(hidden(obs, rpos, i) for i in others))
    assert world_hidden <= unseen
    assert len(world_hidden) == len(real_hidden)
    deck = set(make_deck(real.rules.deck_size))
    in_real = {c for h in rpos.hands for c in h} | set(rpos.stock) | set(rpos.discard)
    in_real |= {c for pair in rpos.table for c in pair if c is not None}
    in_real |= {rpos.turnup} if rpos.turnup_in_stock and rpos.turnup else set()
    if in_real == deck:
        check_invariants(world, deck)
    # S0, S3: an undealt card hides in a hand only as one of that seat's unseen draws
    for i in range(world.players):
        if i != seat:
            assert len(obs.undealt & hidden(obs, wpos, i)) <= obs.unseen_draws[i]
    # the lowest trump's swap right (S0): its hidden holder got it by deal or draw
    low = Card(real.rules.lowest_rank, rpos.trump)
    if real.rules.trump_swap is TrumpSwap.OFF:
        assert wpos.low_trump_origin is None
    elif low in unseen:
        holder = next((i for i, h in enumerate(wpos.hands) if low in h), None)
        assert wpos.low_trump_origin == holder
    else:
        assert wpos.low_trump_origin == rpos.low_trump_origin
    # what the seat sees of the world is what it saw of the real game
    mine = observe(world, seat)
    for field in dataclasses.fields(Observation):
        if field.name not in FROM_EVENTS:
            assert getattr(mine, field.name) == getattr(obs, field.name), field.name
    assert tuple(world.legal_actions().for_seat(seat)) == obs.legal


CONFIGS: dict[str, Rules] = {name: preset.rules for name, preset in PRESETS.items()}
CONFIGS["matsuri+transfer"] = PRESETS["matsuri"].rules.replace(transfer=True)
CONFIGS["wikihow_home+ace_only"] = PRESETS["wikihow_home"].rules.replace(trump_swap="ace_only")
CONFIGS["wikihow_home+left_of_dealer"] = PRESETS["wikihow_home"].rules.replace(
    first_attacker="left_of_dealer"
)
CONFIGS["durak_live_vecinos+24"] = PRESETS["durak_live_vecinos"].rules.replace(deck_size=24)
CONFIGS["durak_live_todos+52"] = PRESETS["durak_live_todos"].rules.replace(deck_size=52)
# issue 12: teams (S0, S2), Flash (S2: a shown trump is public), new deals on request (S2)
CONFIGS["wikihow_home+2v2"] = PRESETS["wikihow_home"].rules.replace(teams="2v2")
CONFIGS["wikipedia+flash"] = PRESETS["wikipedia"].rules.replace(
    transfer=True, flash=True, max_players=4
)
CONFIGS["classic+misdeal_on_request"] = Rules(
    misdeal="four_of_a_suit", misdeal_mode="on_request", max_players=3
)
TABLES = [(name, n) for name, rules in CONFIGS.items() for n in rules.player_counts()]


@pytest.mark.parametrize(("config", "players"), TABLES, ids=[f"{c}-{n}p" for c, n in TABLES])
def test_worlds_agree_with_the_observation(config: str, players: int) -> None:
    """Over random positions of every preset (2–6 players where it allows): each world is in
    the real game's public state, and the observing seat's legal actions are the same."""
    rules = CONFIGS[config]
    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        for game in random_positions(rules, players, seed, every=5 + players):
            seat = rng.randrange(players)
            obs = observe(game, seat)
            for _ in range(2):
                check_world(determinize(obs, rng), obs, game)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize(("config", "players"), TABLES, ids=[f"{c}-{n}p" for c, n in TABLES])
def test_worlds_play_on_legally(config: str, players: int) -> None:
    """Random play from sampled worlds reaches the end, every card in one place throughout."""
    rules = CONFIGS[config]
    deck = make_deck(rules.deck_size)
    rng = random.Random(100 + players)
    for game in random_positions(rules, players, seed=7, every=25):
        obs = observe(game, rng.randrange(players))
        world = determinize(obs, rng)
        steps = 0
        while world.outcome is None:
            action = rng.choice(list(world.legal_actions()))
            world.play(action)  # checked: a generated action is legal
            check_invariants(world, deck)
            steps += 1
            assert steps < 3000
        fast = determinize(obs, rng, undo=False, events=False)
        while fast.outcome is None:
            fast.push(rng.choice(list(fast.legal_actions())))
        check_invariants(fast, deck)


def test_playout_keywords_pass_through() -> None:
    game = Game.deal(Rules(), 3, seed=1)
    obs = observe(game, 1)
    fast = determinize(obs, random.Random(0), undo=False, events=False)
    assert fast.events == ()
    fast.push(next(iter(fast.legal_actions())))
    with pytest.raises(RuntimeError):
        fast.undo()
    slow = determinize(obs, random.Random(0))
    first = next(iter(slow.legal_actions()))
    slow.play(first)
    assert slow.undo() == first
    assert slow.events


def test_same_seed_same_world_and_the_plan_follows_the_observation() -> None:
    a, b = Game.deal(Rules(), 3, seed=2), Game.deal(Rules(), 4, seed=3)
    oa, ob = observe(a, 0), observe(b, 2)
    first = sample_position(oa, random.Random(5))
    assert sample_position(ob, random.Random(5)).players == 4  # another observation: new plan
    assert sample_position(oa, random.Random(5)) == first
    assert sample_position(dataclasses.replace(oa), random.Random(5)) == first


def test_an_impossible_observation_is_refused() -> None:
    obs = observe(Game.deal(Rules(), 2, seed=1), 0)
    sizes = (obs.hand_sizes[0], obs.hand_sizes[1] + 30)
    with pytest.raises(ValueError, match="unseen cards"):
        sample_position(dataclasses.replace(obs, hand_sizes=sizes), random.Random(0))
    seven = frozenset(make_deck(36)[:7])
    too_many = dataclasses.replace(obs, known=(obs.known[0], seven), public=(frozenset(), seven))
    with pytest.raises(ValueError, match="known cards"):
        sample_position(too_many, random.Random(0))


# ---------------------------------------------------------------- the deal's inference


def shown_rank(game: Game) -> int | None:
    event = next(e for e in game.events if e.kind is EventKind.FIRST_ATTACKER)
    return int(event.cards[0].rank) if event.cards else None


def test_trumps_lower_than_the_one_shown_lie_in_the_stock_until_drawn_S0_S3() -> None:
    """S0: the holder of the lowest trump shows it; S3: «quien tenga el menor triunfo
    repartido». Every lower trump lay in the stock after the deal, so before anybody draws no
    world puts one in a hand."""
    game = next(
        g for g in (Game.deal(Rules(), 2, seed) for seed in range(200)) if (shown_rank(g) or 0) >= 8
    )
    obs = observe(game, 1)
    shown = shown_rank(game)
    assert shown is not None
    assert obs.undealt == {c for c in make_deck(36) if c.suit is game.trump and c.rank < shown}
    assert obs.unseen_draws == (0, 0)
    rng = random.Random(3)
    for _ in range(300):
        pos = sample_position(obs, rng)
        assert not obs.undealt & set(pos.hands[0])
        assert obs.undealt & obs.unseen() <= set(pos.stock)


def test_nobody_held_a_trump_so_all_were_in_the_stock_S3() -> None:
    """S3: «Si nadie tiene triunfo, empieza un jugador al azar» — the trumps were all undealt."""
    game = next(
        g for g in (Game.deal(Rules(), 2, seed) for seed in range(5000)) if shown_rank(g) is None
    )
    obs = observe(game, 0)
    trumps = {c for c in make_deck(36) if c.suit is game.trump}
    assert obs.undealt == trumps
    rng = random.Random(4)
    for _ in range(200):
        pos = sample_position(obs, rng)
        assert not any(c.suit is game.trump for c in pos.hands[1])


def test_left_of_dealer_shows_nothing_so_nothing_is_inferred_S0() -> None:
    rules = Rules(first_attacker=FirstAttacker.LEFT_OF_DEALER)
    obs = observe(Game.deal(rules, 3, seed=1), 0)
    assert obs.undealt == frozenset()


def test_an_undealt_card_played_uses_up_a_draw_S0_S3() -> None:
    """A lower trump first seen in a seat's play was drawn by it: that draw no longer hides one."""
    rules = Rules()

    def first_played_by(game: Game, seat: int) -> list[Card]:
        """Undealt cards (not the turn-up) whose first appearance was ``seat``'s play."""
        undealt = observe(game, 0).undealt - {game.turnup}
        first: dict[Card, int | None] = {}
        for e in game.events:
            if e.kind in (EventKind.LEAD, EventKind.THROW_IN, EventKind.BEAT, EventKind.TRANSFER):
                first.setdefault(e.cards[0], e.seat)
        return [c for c in undealt if first.get(c) == seat]

    game = find(rules, 2, lambda g: bool(first_played_by(g, 1)))
    obs = observe(game, 0)
    draws = [e for e in game.events if e.kind is EventKind.DRAW and e.seat == 1]
    unseen = sum(e.n for e in draws) - sum(e.detail == "turnup" for e in draws)
    assert obs.unseen_draws[1] == unseen - len(first_played_by(game, 1)) < unseen


# ---------------------------------------------------------------- the turn-up


def test_the_turnup_in_the_stock_stays_its_bottom_card_S1_S2() -> None:
    """S1: «la carta de abajo del mazo se da la vuelta»; S2: the last card drawn."""
    game = Game.deal(Rules(), 4, seed=6)
    obs = observe(game, 2)
    rng = random.Random(6)
    for _ in range(50):
        world = determinize(obs, rng)
        assert world.stock[-1] is game.turnup  # drawn last
        assert world.turnup_in_stock


def test_the_dealer_keeps_the_shown_trump_when_every_card_is_dealt_S0_S3() -> None:
    game = Game.deal(Rules(), 6, seed=3)
    dealer = game.origin["dealer"]
    rng = random.Random(3)
    for seat in (0, (dealer + 1) % 6):
        obs = observe(game, seat)
        for _ in range(30):
            world = determinize(obs, rng)
            assert game.turnup in world.hand(dealer)
            assert not world.stock


def test_a_drawn_turnup_stays_with_the_seat_seen_drawing_it_S0() -> None:
    """A set-up position where the turn-up was drawn (``turnup_holder``) but not declared known:
    it is still in the drawer's hand, in every world."""
    game = Game.from_position(
        Rules(trump_swap=TrumpSwap.ANY),
        ["7C 8C 9C", "10H JH AS", "QD KD"],
        turnup="AS",
        turnup_in_stock=False,
        turnup_holder=1,
    )
    obs = observe(game, 0)
    assert Card.parse("AS") in obs.unseen()
    rng = random.Random(1)
    for _ in range(100):
        pos = sample_position(obs, rng)
        assert Card.parse("AS") in pos.hands[1]
        assert len(pos.hands[1]) == 3 and len(pos.hands[2]) == 2


def test_a_turnup_gone_from_the_stock_is_never_put_back() -> None:
    """Out of the stock, with nobody seen taking it: it is in some hand (or, in a set-up
    position that does not hold the whole deck, in none), never in the stock."""
    game = Game.from_position(
        Rules(),
        ["7C 8C 9C", "10H JH AS", "QD KD"],
        stock="6D",
        turnup="AS",
        turnup_in_stock=False,
    )
    obs = observe(game, 0)
    rng = random.Random(2)
    for _ in range(300):
        pos = sample_position(obs, rng)
        assert Card.parse("AS") not in pos.stock


def test_a_turnup_that_is_the_lowest_trump_gives_its_drawer_the_swap_right_S0() -> None:
    """After a swap with the stock the lowest trump lies turned up (transitions._apply_swap);
    whoever drew it got it from the stock, so he holds the right (transitions._draw)."""
    game = Game.from_position(
        Rules(trump_swap=TrumpSwap.ANY),
        ["7C 8C 9C", "10H JH 6S", "QD KD 9S"],
        turnup="6S",
        turnup_in_stock=False,
        low_trump_origin=1,
    )
    obs = observe(game, 0)
    rng = random.Random(3)
    holders: set[int | None] = set()
    for _ in range(100):
        pos = sample_position(obs, rng)
        # in a hand, or out of this partial deck's game altogether
        holder = next((i for i in (1, 2) if Card.parse("6S") in pos.hands[i]), None)
        holders.add(holder)
        assert Game.from_position(game.rules, pos).position().low_trump_origin == holder
    assert holders == {1, 2, None}


# ---------------------------------------------------------------- the lowest trump's swap right


def test_a_hidden_lowest_trump_gives_its_holder_the_swap_right_S0() -> None:
    """S0: «El jugador que posea el triunfo más bajo, ya sea porque se le repartió … o porque lo
    obtiene de la baceta … puede intercambiar». Hidden in a hand it was dealt or drawn there, so
    in every world its holder may swap; in the stock, nobody may."""
    rules = CONFIGS["wikihow_home+left_of_dealer"]  # the lowest trump is not shown

    def low_of(game: Game) -> Card:
        return Card(rules.lowest_rank, game.trump)

    game = find(
        rules,
        3,
        lambda g: (
            any(low_of(g) in g.hand(i) for i in (1, 2))
            and g.phase is Phase.LEAD
            and g.turnup_in_stock
        ),  # the swap window is open
    )
    obs = observe(game, 0)
    low = low_of(game)
    assert low in obs.unseen() and obs.low_trump_origin is None
    places: Counter[int] = Counter()
    rng = random.Random(8)
    for _ in range(300):
        world = determinize(obs, rng)
        holder = next((i for i in range(3) if low in world.hand(i)), STOCK)
        places[holder] += 1
        assert world.position().low_trump_origin == (None if holder == STOCK else holder)
        swaps = {a.seat for a in world.legal_actions() if a.kind is ActionKind.SWAP}
        assert swaps == (set() if holder == STOCK else {holder})
    assert set(places) == {1, 2, STOCK}


def test_the_lowest_trump_drawn_from_the_stock_gives_the_swap_right_S0() -> None:
    """The real game's origin is the drawer (transitions._draw); worlds that put the card in that
    hand agree with it."""
    rules = CONFIGS["wikihow_home+left_of_dealer"]

    def drawn_low(game: Game) -> bool:
        low = Card(rules.lowest_rank, game.trump)
        return (
            any(
                e.kind is EventKind.DRAW and e.seat == 1 and low in e.cards and e.detail != "turnup"
                for e in game.events
            )
            and low in game.hand(1)
            and game.position().low_trump_origin == 1
        )

    game = find(rules, 2, drawn_low)
    obs = observe(game, 0)
    rng = random.Random(9)
    for _ in range(50):
        world = determinize(obs, rng)
        if Card(rules.lowest_rank, game.trump) in world.hand(1):
            assert world.position().low_trump_origin == 1
        else:
            assert world.position().low_trump_origin is None


# ---------------------------------------------------------------- frequencies


def expected_places(obs: Observation) -> dict[Card, dict[int, Fraction]]:
    """For each unseen card, the chance of each place in a uniform deal over the consistent
    worlds, by enumerating the number of undealt cards each place takes."""
    seat = obs.seat
    unseen = sorted(obs.unseen(), key=lambda c: c.index)
    slots = {i: obs.hand_sizes[i] - len(obs.public[i]) for i in range(obs.players) if i != seat}
    result: dict[Card, dict[int, Fraction]] = {}
    free = None
    up = obs.turnup
    if up is not None and not obs.turnup_in_stock and up in unseen:
        unseen.remove(up)
        if obs.turnup_holder is not None:
            slots[obs.turnup_holder] -= 1
            result[up] = {obs.turnup_holder: Fraction(1)}
        else:
            free = up
    slots[STOCK] = obs.stock_size - obs.turnup_in_stock
    absent = len(unseen) + (free is not None) - sum(slots.values())
    assert absent >= 0
    slots[ABSENT] = absent
    places = [p for p, n in slots.items() if n > 0]
    caps = {p: obs.unseen_draws[p] if p >= 0 and obs.undealt else 99 for p in places}
    low = [c for c in unseen if c in obs.undealt]
    high = [c for c in unseen if c not in obs.undealt]
    total = 0
    low_in: Counter[int] = Counter()
    high_in: Counter[int] = Counter()
    up_in: Counter[int] = Counter()
    options: list[int | None] = [None] if free is None else [p for p in places if p != STOCK]
    for t in options:
        size, cap, weight = dict(slots), dict(caps), 1
        if t is not None:
            weight = size[t]
            size[t] -= 1
            if free in obs.undealt and t >= 0:
                cap[t] -= 1
        if min(cap.values()) < 0:
            continue
        for ks in itertools.product(*(range(min(size[p], cap[p]) + 1) for p in places)):
            if sum(ks) != len(low):
                continue
            w = weight * math.prod(math.comb(size[p], k) for p, k in zip(places, ks, strict=True))
            total += w
            for p, k in zip(places, ks, strict=True):
                low_in[p] += w * k
                high_in[p] += w * (size[p] - k)
            if t is not None:
                up_in[t] += w
    for c in low:
        result[c] = {p: Fraction(low_in[p], total * len(low)) for p in places}
    for c in high:
        result[c] = {p: Fraction(high_in[p], total * len(high)) for p in places}
    if free is not None:
        result[free] = {p: Fraction(up_in[p], total) for p in places}
    return result


def where(pos: Position, obs: Observation) -> dict[Card, int]:
    placed = {c: STOCK for c in pos.stock}
    for i, hand in enumerate(pos.hands):
        if i != obs.seat:
            placed.update((c, i) for c in hand if c not in obs.public[i])
    return placed


def assert_uniform(obs: Observation, samples: int = 3000, seed: int = 0) -> float:
    """Chi-square test (p = 0.001) of where each unseen card lands; returns the statistic."""
    expected = expected_places(obs)
    counts: dict[Card, Counter[int]] = {c: Counter() for c in expected}
    rng = random.Random(seed)
    for _ in range(samples):
        placed = where(sample_position(obs, rng), obs)
        for c, seen in counts.items():
            seen[placed.get(c, ABSENT)] += 1
    statistic = 0.0
    df = 0
    for c, probs in expected.items():
        assert sum(probs.values()) == 1
        landed = counts[c]
        for p in landed:
            assert probs.get(p, 0) > 0, f"{c} landed in impossible place {p}"
        possible = [p for p, q in probs.items() if q > 0]
        for p in possible:
            e = samples * float(probs[p])
            assert landed[p] > 0, f"{c} never landed in {p} (expected {e:.1f})"
            statistic += (landed[p] - e) ** 2 / e
        df += len(possible) - 1
    if df:
        assert statistic < chi2_critical(df), (statistic, df)
    return statistic


def assert_stock_order_uniform(obs: Observation, samples: int = 3000, seed: int = 0) -> None:
    """Chi-square test (p = 0.001) of where in the stock each unseen card lies: each depth
    (who draws it, and when) equally likely."""
    size = obs.stock_size - obs.turnup_in_stock
    counts: Counter[tuple[Card, int]] = Counter()
    rng = random.Random(seed)
    for _ in range(samples):
        for depth, c in enumerate(sample_position(obs, rng).stock):
            counts[c, depth] += 1
    statistic = 0.0
    df = 0
    for c, probs in expected_places(obs).items():
        q = float(probs.get(STOCK, 0))
        if not q:
            assert not any(counts[c, depth] for depth in range(size))
            continue
        cells = [(counts[c, depth], samples * q / size) for depth in range(size)]
        if q < 1:
            cells.append((samples - sum(o for o, _ in cells), samples * (1 - q)))
        statistic += sum((o - e) ** 2 / e for o, e in cells)
        df += len(cells) - 1
    assert statistic < chi2_critical(df), (statistic, df)


def test_frequencies_three_players_midgame() -> None:
    game = find(Rules(), 3, lambda g: g.state.bouts >= 3 and len(g.stock) >= 6)
    obs = observe(game, 0)
    if not obs.undealt & obs.unseen():  # nothing constrained: each place in proportion to size
        sizes = {i: obs.hand_sizes[i] - len(obs.public[i]) for i in (1, 2)}
        sizes[STOCK] = obs.stock_size - 1
        total = sum(sizes.values())
        for probs in expected_places(obs).values():
            assert {p: q for p, q in probs.items() if q} == {
                p: Fraction(n, total) for p, n in sizes.items() if n
            }
    assert_uniform(obs, seed=1)
    assert_stock_order_uniform(obs, seed=11)


def test_frequencies_four_players_with_a_swap_rule_S0() -> None:
    rules = PRESETS["wikihow_home"].rules
    game = find(rules, 4, lambda g: g.state.bouts >= 2 and g.phase is Phase.BOUT)
    assert_uniform(observe(game, 3), seed=2)


def test_frequencies_with_cards_seen_picked_up() -> None:
    def picked(game: Game) -> bool:
        pos = game.position()
        return bool(pos.stock) and any(len(pos.known[i]) >= 2 for i in (1, 2))

    game = find(Rules(), 3, picked)
    obs = observe(game, 0)
    assert any(len(obs.public[i]) >= 2 for i in (1, 2))
    assert not set().union(*obs.public) & set(expected_places(obs))
    assert_uniform(obs, seed=3)


def test_frequencies_late_game_with_the_turnup_drawn() -> None:
    def drawn(game: Game) -> bool:
        if game.stock or game.turnup not in game.hand(1) or game.phase is Phase.OVER:
            return False
        obs = observe(game, 0)
        return sum(len(game.hand(i)) > len(obs.public[i]) for i in (1, 2, 3)) >= 2

    game = find(Rules(), 4, drawn)
    obs = observe(game, 0)
    assert game.turnup in obs.public[1] and not obs.turnup_in_stock
    assert game.turnup not in expected_places(obs)
    assert assert_uniform(obs, seed=4) > 0


def test_frequencies_when_undealt_cards_are_capped_S0_S3() -> None:
    """After a few draws some hands may hold some of the lower trumps, but no more than their
    unseen draws: the caps bind and the deal is no longer in proportion to sizes."""

    def capped(game: Game) -> bool:
        obs = observe(game, 0)
        low = len(obs.undealt & obs.unseen())
        if low < 2 or not game.stock:
            return False
        sizes = [obs.hand_sizes[i] - len(obs.public[i]) for i in range(game.players)]
        return any(0 < obs.unseen_draws[i] < min(sizes[i], low) for i in range(1, game.players))

    game = find(Rules(), 3, capped)
    obs = observe(game, 0)
    probs = expected_places(obs)
    low = next(c for c in obs.unseen() if c in obs.undealt)
    high = next(c for c in obs.unseen() if c not in obs.undealt)
    assert probs[low] != probs[high]
    assert_uniform(obs, seed=5)
    assert_stock_order_uniform(obs, seed=15)


def test_frequencies_first_bout_two_players_S0_S3() -> None:
    game = find(Rules(), 2, lambda g: (shown_rank(g) or 0) >= 8 and g.position().attacker == 0)
    obs = observe(game, 1)
    assert_uniform(obs, seed=6)
    assert_stock_order_uniform(obs, seed=16)


def test_frequencies_turnup_out_of_the_stock_in_a_set_up_position() -> None:
    """A set-up position short of the whole deck: unseen cards may also be absent."""
    game = Game.from_position(
        Rules(),
        ["7C 8C 9C", "10H JH AS", "QD KD 6S"],
        stock="6D 9H",
        turnup="AS",
        turnup_in_stock=False,
        discard="KS QS",
    )
    obs = observe(game, 0)
    probs = expected_places(obs)
    assert probs[Card.parse("AS")][STOCK] == 0
    assert probs[Card.parse("AS")][ABSENT] > 0
    assert_uniform(obs, seed=7)


def test_a_turnup_out_of_the_stock_fills_a_hand_when_every_card_is_placed() -> None:
    """The whole deck placed, the turn-up out of the stock and nobody seen taking it (a game
    kept without events, or a set-up): it is in one of the hidden hands — before, the sampler
    counted it twice and refused the observation."""
    from durak_core.cards import make_deck

    hands = ["7C 8C 9C", "10H JH AS", "QD KD"]
    held = " ".join(hands).split()
    rest = " ".join(str(c) for c in make_deck(36) if str(c) not in held)
    game = Game.from_position(Rules(), hands, turnup="AS", turnup_in_stock=False, discard=rest)
    obs = observe(game, 0)
    probs = expected_places(obs)
    places = probs[Card.parse("AS")]
    assert places.get(STOCK, 0) == places.get(ABSENT, 0) == 0
    assert places[1] > 0 and places[2] > 0
    assert_uniform(obs, seed=8)


def test_every_consistent_world_is_equally_likely() -> None:
    """A late three-player position has few worlds: count each one."""

    def small(game: Game) -> bool:
        obs = observe(game, 0)
        n = len(obs.unseen())
        return not game.stock and 4 <= n <= 7 and game.phase is not Phase.OVER

    game = find(Rules(), 3, small)
    obs = observe(game, 0)
    unseen = sorted(obs.unseen(), key=lambda c: c.index)
    size1 = obs.hand_sizes[1] - len(obs.public[1])
    worlds = [frozenset(c) for c in itertools.combinations(unseen, size1)]
    assert len(worlds) >= 4
    rng = random.Random(11)
    samples = 200 * len(worlds)
    counts = Counter(frozenset(hidden(obs, sample_position(obs, rng), 1)) for _ in range(samples))
    assert set(counts) == set(worlds)
    e = samples / len(worlds)
    statistic = sum((counts[w] - e) ** 2 / e for w in worlds)
    assert statistic < chi2_critical(len(worlds) - 1)


def test_the_real_game_is_among_the_worlds() -> None:
    """Sampling a tiny position long enough meets the real deal itself."""

    def tiny(game: Game) -> bool:
        return not game.stock and len(observe(game, 0).unseen()) <= 5

    game = find(Rules(), 2, tiny)
    obs = observe(game, 0)
    real = game.position()
    rng = random.Random(12)
    assert any(set(sample_position(obs, rng).hands[1]) == set(real.hands[1]) for _ in range(200))


def test_known_cards_are_never_dealt() -> None:
    game = Game.from_position(
        Rules(),
        ["7C 8C", "10H JH AH", "QD KD"],
        stock="6D 9H 10S",
        turnup="6S",
        known={1: "AH"},
    )
    obs = observe(game, 0)
    rng = random.Random(13)
    for _ in range(100):
        pos = sample_position(obs, rng)
        assert Card.parse("AH") in pos.hands[1]
        assert Card.parse("6S") not in pos.stock  # the turn-up is not in Position.stock
        assert Card.parse("AH") not in pos.stock
