"""One seat's view of a game (durak_core.observation): nothing hidden leaks, nothing public is lost.

The broad checks follow the corpus's seeded random games (tests/corpus.py: every preset and
option) with an independent tracker of what was revealed, computed from state differences and
the actions rather than from the engine's event log.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from durak_core import (
    ActionKind,
    Card,
    EventKind,
    FirstAttacker,
    Game,
    Observation,
    Rules,
    make_deck,
    observe,
)

from . import corpus
from .helpers import card, cards

CONFIGS = corpus.CONFIGS


class RevealTracker:
    """Cards publicly known to be in each hand, followed by diffing states around each action."""

    def __init__(self, game: Game) -> None:
        s = game.state
        self.public: list[set[Card]] = [set() for _ in range(game.players)]
        self.from_stock: list[set[Card]] = [set() for _ in range(game.players)]
        """Cards each seat drew face down (not the turn-up), whether still held or not."""
        self.undealt: frozenset[Card] = frozenset()
        if game.rules.first_attacker is FirstAttacker.LOWEST_TRUMP:
            trumps = [(c.rank, seat, c) for seat, h in enumerate(s.hands) for c in h]
            trumps = [t for t in trumps if t[2].suit is s.trump]
            if trumps:
                _, seat, lowest = min(trumps)
                self.public[seat].add(lowest)  # shown to decide the first attacker
            # S0, S3: no hand held a lower trump (or, with none shown, any trump)
            self.undealt = frozenset(
                c
                for c in make_deck(game.rules.deck_size)
                if c.suit is s.trump and (not trumps or c.rank < min(trumps)[0])
            )
            assert not any(self.undealt & set(h) for h in s.hands)
        if not s.stock:  # every card dealt: the dealer shows the trump he keeps
            dealer = game.origin["dealer"]
            assert s.turnup in s.hands[dealer]
            self.public[dealer].add(s.turnup)

    def play(self, game: Game, action: Any) -> None:
        before = game.state.copy()
        face_up = (
            before.stock[0]
            if before.stock and before.turnup is not None and before.stock[0] is before.turnup
            else None
        )
        table = {*before.attacks, *(d for d in before.defences if d is not None)}
        if action.card is not None:
            table.add(action.card)
        game.play(action)
        after = game.state
        for seat in range(game.players):
            old, new = set(before.hands[seat]), set(after.hands[seat])
            self.public[seat] -= old - new
            for c in new - old:
                if c in table or c is face_up or action.kind is ActionKind.SWAP:
                    self.public[seat].add(c)
                else:
                    self.from_stock[seat].add(c)
        if action.kind is ActionKind.FLASH:  # S2: the trump is shown and stays in the hand
            self.public[action.seat].add(action.card)

    def hidden_draws(self, game: Game, seat: int) -> set[Card]:
        """Cards ``seat`` holds that it drew face down and nobody else has seen."""
        return (self.from_stock[seat] & set(game.state.hands[seat])) - self.public[seat]


def check_observation(
    game: Game, seat: int, public: list[set[Card]] | None, tracker: RevealTracker | None = None
) -> Observation:
    obs = observe(game, seat)
    s = game.state
    deck = set(make_deck(game.rules.deck_size))

    # own hand, all of it; nobody else's hidden cards
    assert obs.seat == seat
    assert obs.hand == game.hand(seat)
    assert obs.known[seat] == frozenset(s.hands[seat])
    assert len(obs.known) == game.players
    for other in range(game.players):
        if other == seat:
            continue
        assert obs.known[other] <= set(s.hands[other])
        if public is not None:
            assert obs.known[other] == public[other], (other, obs.known[other], public[other])
    assert all(obs.public[i] == obs.known[i] for i in range(game.players) if i != seat)
    assert obs.public[seat] <= set(s.hands[seat])
    if public is not None:
        assert obs.public[seat] == public[seat]

    # the event log: other seats' draws carry no cards except the turned-up trump
    real = game.events
    assert len(obs.events) == len(real)
    for shown, event in zip(obs.events, real, strict=True):
        if event.kind is EventKind.DRAW and event.seat != seat:
            assert shown._replace(cards=event.cards) == event
            if event.detail == "turnup":
                assert shown.cards == (event.cards[-1],)
                assert event.cards[-1] is s.turnup or event.cards[-1] in deck
            else:
                assert shown.cards == ()
            assert shown.n == event.n == len(event.cards)
        else:
            assert shown == event

    # legal actions and public fields
    assert obs.legal == tuple(game.legal_actions().for_seat(seat))
    assert set(obs.legal) == {a for a in game.legal_actions() if a.seat == seat}
    assert obs.acting == tuple(game.acting_seats())
    assert obs.cap == game.cap()
    assert obs.players == game.players and obs.rules == game.rules
    assert obs.hand_sizes == game.hand_sizes
    assert obs.stock_size == len(s.stock)
    assert obs.turnup is s.turnup and obs.trump is s.trump
    assert obs.turnup_in_stock == (bool(s.stock) and s.stock[0] is s.turnup)
    assert obs.table == game.table
    assert obs.discard == tuple(s.discard)
    pos = game.position()
    assert (
        obs.lead_attacker,
        obs.defender_hand_at_start,
        obs.passed,
        obs.out,
        obs.durak,
        obs.previous_durak,
        obs.turnup_holder,
    ) == (
        s.lead_attacker,
        s.defender_hand_at_start,
        frozenset(i for i, p in enumerate(s.passed) if p),
        tuple(s.out_order),
        s.durak,
        game.previous_durak,
        s.turnup_holder,
    )
    assert obs.public == pos.known

    # the lowest trump's swap right: public unless the card is hidden in another hand
    low = Card(game.rules.lowest_rank, s.trump)
    hidden_low = any(low in h and low not in obs.known[i] for i, h in enumerate(s.hands))
    assert obs.low_trump_origin == (None if hidden_low else s.low_trump_origin)

    # the deal's inference (S0, S3) holds in the real game: it is one of the possible worlds
    assert len(obs.unseen_draws) == game.players
    if tracker is not None:
        assert obs.undealt == tracker.undealt
        for other in range(game.players):
            drawn = tracker.hidden_draws(game, other)
            assert len(drawn) <= obs.unseen_draws[other], (other, drawn, obs.unseen_draws)
            hidden = set(s.hands[other]) - obs.public[other]
            assert obs.undealt & hidden <= drawn
    assert (obs.attacker, obs.defender, obs.phase, obs.taking, obs.bouts) == (
        s.attacker,
        s.defender,
        s.phase,
        s.taking,
        s.bouts,
    )
    assert obs.active == tuple(s.active)

    # unseen: exactly what this seat cannot place
    placed = set(obs.hand) | set(obs.discard)
    placed |= {c for pair in obs.table for c in pair if c is not None}
    for known in obs.known:
        placed |= known
    if obs.turnup_in_stock:
        placed.add(obs.turnup)  # type: ignore[arg-type]
    unseen = obs.unseen()
    assert isinstance(unseen, frozenset)
    assert unseen == frozenset(deck - placed)
    hidden_in_hands = {c for i, h in enumerate(s.hands) if i != seat for c in h} - set(
        c for k in obs.known for c in k
    )
    hidden_in_stock = {c for c in s.stock if not (obs.turnup_in_stock and c is s.turnup)}
    assert hidden_in_hands <= unseen
    assert hidden_in_stock <= unseen
    in_game = {c for h in s.hands for c in h} | set(s.stock) | set(s.discard) | set(s.attacks)
    in_game |= {d for d in s.defences if d is not None}
    if in_game == deck:  # dealt games hold the whole deck: unseen is exactly the hidden cards
        assert unseen == frozenset(hidden_in_hands | hidden_in_stock)
    assert not unseen & set(obs.hand)
    if obs.turnup_in_stock:
        assert obs.turnup not in unseen
    return obs


def run(corpus_game: corpus.CorpusGame, *, every: int = 1) -> dict[str, int]:
    """Check every seat's observation at every ``every``-th position of a corpus game (and at
    its end) against the tracker's record of what was shown."""
    game = corpus_game.deal()
    tracker = RevealTracker(game)
    stats = {"steps": 0, "known": 0, "swaps": 0, "flashes": 0, "turnup_draws": 0}
    for action in (*corpus_game.actions, None):
        if stats["steps"] % every == 0 or action is None:
            for seat in range(game.players):
                obs = check_observation(game, seat, tracker.public, tracker)
                stats["known"] += sum(len(k) for i, k in enumerate(obs.known) if i != seat)
        if action is None:
            break
        stats["swaps"] += action.kind is ActionKind.SWAP
        stats["flashes"] += action.kind is ActionKind.FLASH
        tracker.play(game, action)
        stats["steps"] += 1
    assert game.outcome is not None
    stats["turnup_draws"] = sum(
        e.kind is EventKind.DRAW and e.detail == "turnup" for e in game.events
    )
    return stats


@pytest.mark.parametrize("config", sorted(corpus.CONFIGS))
def test_observations_in_random_games(config: str) -> None:
    """The corpus's first game of each player count, every sixth position (what a seat was
    shown stays in the tracker's record, so a reveal missed or invented is still caught at
    the next check). The dealer who shows and keeps the trump (36 cards among 6, or 24
    among 4) comes up in classic and the 24-card configurations."""
    total: dict[str, int] = {}
    for corpus_game in corpus.games(config):
        if corpus_game.seed == 0:
            stats = run(corpus_game, every=6)
            for key, value in stats.items():
                total[key] = total.get(key, 0) + value
    assert total["known"] > 0  # the check had something to compare


def test_swaps_flashes_and_turnup_draws_are_covered() -> None:
    """The corpus's games include the rarer reveals: a swap and a drawn turn-up (S0), a Flash
    (S2), each checked as it happens."""
    swaps = turnup_draws = flashes = 0
    for corpus_game in corpus.games("wikihow_home"):
        if corpus_game.players == 2 and corpus_game.seed < 12:
            stats = run(corpus_game, every=4)
            swaps += stats["swaps"]
            turnup_draws += stats["turnup_draws"]
    for config in (name for name, rules in CONFIGS.items() if rules.flash):
        for corpus_game in corpus.games(config):
            if corpus_game.seed == 0:
                flashes += run(corpus_game, every=3)["flashes"]
    assert swaps > 0 and turnup_draws > 0 and flashes > 0


def test_six_player_dealer_trump_is_known() -> None:
    game = Game.deal(Rules(), 6, seed=3)
    dealer = game.origin["dealer"]
    turnup = game.turnup
    assert turnup in game.hand(dealer)
    assert not game.stock
    for seat in range(6):
        obs = observe(game, seat)
        assert turnup in obs.known[dealer]
        assert not obs.turnup_in_stock
        assert turnup not in obs.unseen()


def test_lowest_trump_shown_is_known() -> None:
    game = Game.deal(Rules(), 3, seed=8)
    first = next(e for e in game.events if e.kind is EventKind.FIRST_ATTACKER)
    assert first.detail == "lowest_trump" and first.cards
    (shown,) = first.cards
    for seat in range(3):
        assert shown in observe(game, seat).known[first.seat]  # type: ignore[index]


def test_own_hand_only() -> None:
    game = Game.deal(Rules(), 4, seed=1)
    for seat in range(4):
        obs = observe(game, seat)
        assert obs.hand == game.hand(seat)
        for other in range(4):
            if other != seat:
                assert len(obs.known[other]) <= 1  # at most the lowest trump shown
                assert obs.known[other] <= set(game.hand(other))


def test_other_seats_draws_are_hidden() -> None:
    game = Game.deal(Rules(), 2, seed=4)
    rng = random.Random(4)
    while not any(e.kind is EventKind.DRAW for e in game.events):
        game.play(rng.choice(list(game.legal_actions())))
    for seat in range(2):
        obs = observe(game, seat)
        for shown, event in zip(obs.events, game.events, strict=True):
            if event.kind is EventKind.DRAW:
                assert event.cards  # the real log has them
                if event.seat == seat:
                    assert shown.cards == event.cards
                else:
                    assert shown.cards == ()
                    assert shown.n == event.n


def picked_up_position() -> Game:
    return Game.from_position(
        Rules(),
        ["8C 8H KD", "9C 7D QS", "10D JD AH"],
        table=[("8S", None)],
        trump="C",
    )


def test_picked_up_cards_are_known_until_played() -> None:
    game = picked_up_position()
    assert all(not k for i, k in enumerate(observe(game, 0).known) if i != 0)
    game.play("1:take")
    game.play("0:+8C")
    game.play("0:+8H")  # three attacks against a three-card defender: he picks them up
    picked = frozenset(cards("8S 8C 8H"))
    assert set(game.hand(1)) == picked | set(cards("9C 7D QS"))
    for seat in (0, 2):
        obs = check_observation(game, seat, None)
        assert obs.known[1] == picked
        assert not picked & obs.unseen()
        assert set(cards("9C 7D QS")) <= obs.unseen()
    mine = observe(game, 1)  # the taker knows his whole hand, and what the others know of it
    assert mine.known[1] == set(game.hand(1)) and mine.public[1] == picked
    game.play("2:10D")
    game.play("0:KD/10D")  # seat 0 is out; seat 1 attacks seat 2
    assert (game.attacker, game.defender) == (1, 2)
    for seat in (0, 2):
        assert check_observation(game, seat, None).known[1] == picked
    game.play("1:8S")
    for seat in (0, 2):
        obs = check_observation(game, seat, None)
        assert obs.known[1] == picked - {card("8S")}
        assert card("8S") not in obs.unseen()  # it is on the table
    game.play("2:take")
    game.play("1:+8H")  # a second card against a two-card defender: he picks both up
    obs = check_observation(game, 0, None)
    assert obs.known[1] == frozenset({card("8C")})
    assert obs.known[2] == frozenset(cards("8S 8H"))


def test_observe_rejects_a_bad_seat() -> None:
    game = Game.deal(Rules(), 3, seed=0)
    for seat in (-1, 3, 10):
        with pytest.raises(ValueError, match=f"no seat {seat}"):
            observe(game, seat)


def test_observation_is_a_snapshot() -> None:
    game = Game.deal(Rules(), 2, seed=2)
    obs = observe(game, 0)
    hand = obs.hand
    game.play(next(iter(game.legal_actions())))
    assert obs.hand == hand
    assert observe(game, 0) != obs


def test_hands_shown_face_up_are_known_but_not_public() -> None:
    """A lesson's open hands (``show``): the learner knows them; the others have not seen
    them, so they stay out of ``public``; and every world a sampler deals keeps them."""
    from durak_core.determinize import determinize

    game = Game.deal(Rules(), 3, seed=4)
    hands = game.position().hands
    plain = observe(game, 1)
    obs = observe(game, 1, shown=[0])
    assert obs.known[0] == frozenset(hands[0]) and obs.known[2] == plain.known[2]
    assert obs.public == plain.public
    assert obs.unseen() == plain.unseen() - frozenset(hands[0])
    rng = random.Random(0)
    for _ in range(20):
        dealt = determinize(obs, rng).position().hands
        assert sorted(dealt[0]) == sorted(hands[0]) and sorted(dealt[1]) == sorted(hands[1])
    with pytest.raises(ValueError, match="no seat 3"):
        observe(game, 1, shown=[3])
