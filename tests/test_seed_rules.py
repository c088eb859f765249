"""Seed-rule tests: one or more tests per rule of the five source documents.

Sources are cited as in ``shared/docs/rules-research.md``: S0 wikiHow (home rules), S1 Matsuri,
S2 Wikipedia (machine translated), S3 Dáme Karty, S4 Durak Live; "item N" is the numbered rule
of rules-research §1 and "C N" the conflict of §2. The worked examples of §3 are in
``test_seed_scenarios.py``.

Seats are numbered clockwise; seat 0 attacks seat 1 unless a test says otherwise.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from durak_core import (
    Action,
    ActionKind,
    Cap,
    Card,
    Event,
    EventKind,
    Game,
    Phase,
    PositionError,
    Rank,
    Reason,
    Rules,
    RulesError,
    Suit,
    beat_failure,
    beats,
    make_deck,
)

from .helpers import all_cards, card, cards, check_invariants, of_kind, play, refuse

# ---------------------------------------------------------------------------------- helpers


def kinds(events: list[Event] | tuple[Event, ...]) -> list[EventKind]:
    return [e.kind for e in events]


def universe(game: Game) -> list[Card]:
    """Every card of a set-up position, for :func:`check_invariants`."""
    return all_cards(game)


def position(rules: Rules | None, hands: list[str], **kwargs: Any) -> tuple[Game, list[Card]]:
    game = Game.from_position(rules or Rules(), hands, **kwargs)
    return game, universe(game)


# ============================================================ beating (item 16, 17)


@pytest.mark.parametrize(
    ("defence", "attack", "expected"),
    [
        ("10H", "9H", True),  # higher card of the same suit
        ("AH", "KH", True),  # aces are high (S0, S1, S2, S3)
        ("8H", "9H", False),  # lower card of the same suit
        ("9H", "9H", False),  # not higher
        ("6S", "9H", True),  # any trump beats a non-trump (S3's example)
        ("JH", "9H", True),  # S3's example: J♥ also beats 9♥
        ("6S", "AH", True),  # S2: a trump 6 beats a non-trump ace
        ("AD", "9H", False),  # another non-trump suit never beats
        ("7S", "6S", True),  # trump beaten by a higher trump
        ("6S", "7S", False),  # ... not by a lower one
        ("AH", "6S", False),  # a non-trump never beats a trump, not even an ace
    ],
)
def test_beats_rule_s0_s1_s2_s3_item16(defence: str, attack: str, expected: bool) -> None:
    """S0, S1, S2, S3 (item 16): higher card of the suit or any trump; trump only by a higher
    trump; S2: trump 6 beats a non-trump ace. Trump is ♠ throughout."""
    assert beats(card(defence), card(attack), Suit.SPADES) is expected
    assert (beat_failure(card(defence), card(attack), Suit.SPADES) is None) is expected


def test_s3_example_jack_of_hearts_or_six_of_spades_beats_nine_of_hearts_item17() -> None:
    """S3 «Ejemplo práctico» (item 17; rules-research §3a): with ♠ trump, J♥ or 6♠ beats 9♥,
    and the defender need not follow suit: 6♠ is legal although he holds hearts."""
    game, deck = position(None, ["9H 7C 8C", "JH 6S 10H 7D"], turnup="AS", stock="KD")
    play(game, "0:9H")
    beats_9h = {a.card for a in game.legal_actions() if a.kind is ActionKind.BEAT}
    assert beats_9h == set(cards("JH 6S 10H"))
    assert game.is_legal(Action.beat(1, card("JH"), card("9H")))
    game.play(Action.beat(1, card("6S"), card("9H")))
    assert game.table == ((card("9H"), card("6S")),)
    assert game.events[-1] == Event(EventKind.BEAT, 1, (card("6S"), card("9H")))
    check_invariants(game, deck)


def test_s2_trump_six_beats_non_trump_ace_in_play_item16() -> None:
    """S2 (item 16): «un triunfo 6 bate siempre un as del nontrump»."""
    game, _ = position(None, ["AH 7C", "6S 8D"], turnup="KS", stock="QD")
    play(game, "0:AH 1:6S/AH")
    assert game.table == ((card("AH"), card("6S")),)


@pytest.mark.parametrize(
    ("attack", "defence", "why"),
    [
        ("9H", "7H", "lower_rank"),  # same suit, lower
        ("9H", "KD", "wrong_suit"),  # another non-trump suit (no follow-suit duty, but no beat)
        ("8S", "AH", "trump_needs_higher_trump"),  # S0, S1, S2, S3: a trump needs a higher trump
        ("8S", "7S", "lower_rank"),  # a lower trump
    ],
)
def test_cannot_beat_reports_why_s0_s1_s2_s3(attack: str, defence: str, why: str) -> None:
    """S0, S1, S2, S3 (item 16): CANNOT_BEAT names the card, the target, the trump and why."""
    game, _ = position(None, ["QC", f"{defence} 10C"], trump="S", table=[(attack, None)])
    refuse(
        game,
        f"1:{defence}/{attack}",
        Reason.CANNOT_BEAT,
        card=card(defence),
        target=card(attack),
        trump=Suit.SPADES,
        why=why,
    )


def test_beat_refusals_wrong_target_and_already_beaten() -> None:
    """S0, S2 (item 29): each attack card is covered by its own card, once."""
    game, _ = position(None, ["8C 8D", "10C JC 9D"], trump="S", stock="AS")
    play(game, "0:8C")
    refuse(game, "1:JC/8D", Reason.NO_SUCH_ATTACK_CARD, target=card("8D"))
    play(game, "1:10C/8C")
    refuse(game, "1:JC/8C", Reason.ALREADY_BEATEN, target=card("8C"), by=card("10C"))


# ============================================================ deck (item 12-15, 21)


@pytest.mark.parametrize(("size", "low"), [(24, Rank.NINE), (36, Rank.SIX), (52, Rank.TWO)])
def test_deck_sizes_24_36_52_and_ace_high_item12_13(size: int, low: Rank) -> None:
    """S0, S1, S2, S3 (item 12): 36 cards 6–A, aces high; S4 (item 13): 24, 36 or 52 cards."""
    deck = make_deck(size)
    assert len(deck) == len(set(deck)) == size
    assert min(c.rank for c in deck) is low
    assert max(c.rank for c in deck) is Rank.ACE
    for suit in Suit:
        in_suit = [c for c in deck if c.suit is suit]
        assert len(in_suit) == size // 4
        assert all(beats(Card(Rank.ACE, suit), c, None) for c in in_suit if c.rank < Rank.ACE)
    rules = Rules(deck_size=size)
    assert rules.lowest_rank is low
    game = Game.deal(rules, players=2, seed=5)
    assert set(all_cards(game)) == set(deck)


@pytest.mark.parametrize("size", [20, 32, 40, 54])
def test_other_deck_sizes_rejected_c1(size: int) -> None:
    """C1: only the decks the seeds name (S0, S4) can be chosen."""
    with pytest.raises(RulesError, match="deck_size must be one of"):
        Rules(deck_size=size)


def test_52_card_deck_lowest_trump_is_the_two_s0_item14() -> None:
    """S0 (item 14): with the full 52-card deck the lowest trump is the 2; there is a stock."""
    rules = Rules(deck_size=52)
    assert rules.lowest_rank is Rank.TWO
    for seed in range(10):
        game = Game.deal(rules, players=6, seed=seed)
        assert len(game.stock) == 52 - 36
        shown = of_kind(game, EventKind.FIRST_ATTACKER)[0]
        held = [c for h in game.state.hands for c in h if c.suit is game.trump]
        if held:
            assert shown.cards == (min(held, key=lambda c: c.rank),)


def test_seven_card_hand_only_with_52_cards_and_5_or_6_players_s0_item15() -> None:
    """S0 (item 15, C2): seven cards may be dealt only with 52 cards and 5–6 players."""
    with pytest.raises(RulesError, match="52-card deck"):
        Rules(hand_size=7)
    rules = Rules(deck_size=52, hand_size=7)
    with pytest.raises(RulesError, match="5 or 6 players"):
        rules.check_players(4)
    game = Game.deal(rules, players=6, seed=1)
    assert game.hand_sizes == (7,) * 6
    assert len(game.stock) == 52 - 42


@pytest.mark.parametrize("seed", range(6))
def test_six_players_36_cards_no_stock_dealer_shows_and_keeps_last_card_s0_s3(
    seed: int,
) -> None:
    """S0 («similar al tute»), S3 step 1 (item 21, C3): with six players every card is dealt;
    the dealer shows his last card, which fixes trumps, and keeps it."""
    game = Game.deal(Rules(), players=6, seed=seed)
    dealer = game.origin["dealer"]
    hands = game.state.hands
    shown = hands[dealer][-1]  # the last card dealt goes to the dealer
    assert game.stock == ()
    assert game.hand_sizes == (6,) * 6
    assert {c for h in hands for c in h} == set(make_deck(36))
    assert game.turnup is shown
    assert game.trump is shown.suit
    assert of_kind(game, EventKind.TRUMP) == [
        Event(EventKind.TRUMP, dealer, (shown,), detail="dealer")
    ]
    check_invariants(game, make_deck(36))


def test_with_a_stock_the_turnup_lies_under_it_and_is_drawn_last_item20() -> None:
    """S0, S1, S2, S3, S4 (item 20): with fewer players the next card is turned up under the
    stock: it is part of the stock and the last card drawn."""
    game = Game.deal(Rules(), players=4, seed=2)
    turnup = game.turnup
    assert turnup is not None
    assert len(game.stock) == 36 - 24
    assert game.stock[-1] is turnup
    assert game.trump is turnup.suit
    assert turnup not in {c for h in game.state.hands for c in h}
    assert of_kind(game, EventKind.TRUMP) == [
        Event(EventKind.TRUMP, None, (turnup,), detail="stock")
    ]


@pytest.mark.parametrize(("players", "need"), [(6, 36), (5, 30)])
def test_too_many_players_for_24_cards_rejected_s4(players: int, need: int) -> None:
    """S4 offers a 24-card deck; S0/S3's six-player deal needs 36 cards: 6 × 6 of 24 is
    impossible and must be refused with a clear message, by Rules, deal and from_position."""
    rules = Rules(deck_size=24)
    message = f"{players} players need {need} cards"
    with pytest.raises(RulesError, match=message):
        rules.check_players(players)
    with pytest.raises(RulesError, match=message):
        Game.deal(rules, players=players, seed=1)
    hands = ["9C", "9D", "9H", "9S", "10C", "10D"][:players]
    with pytest.raises(PositionError, match=message):
        Game.from_position(rules, hands, trump="C")


def test_four_players_with_24_cards_deal_every_card_like_six_with_36() -> None:
    """S4's 24-card deck with four players: 24 cards dealt, no stock, so the dealer shows
    his last card as in S0/S3's six-player deal (item 21)."""
    game = Game.deal(Rules(deck_size=24), players=4, seed=3)
    dealer = game.origin["dealer"]
    assert game.stock == ()
    assert game.turnup is game.state.hands[dealer][-1]
    assert of_kind(game, EventKind.TRUMP)[0].detail == "dealer"


# ============================================================ first attacker (item 23)


@pytest.mark.parametrize("players", range(2, 7))
def test_first_attacker_is_lowest_trump_shown_in_event_s0_s1_s2_s3(players: int) -> None:
    """S0, S1, S2, S3 (item 23, C5): the holder of the lowest trump attacks first and shows
    it (FIRST_ATTACKER event); S3: he need not lead it."""
    checked = 0
    for seed in range(12):
        game = Game.deal(Rules(), players=players, seed=seed)
        held = [
            (c.rank, s, c)
            for s, h in enumerate(game.state.hands)
            for c in h
            if c.suit is game.trump
        ]
        if not held:
            continue
        _, seat, low = min(held)
        assert of_kind(game, EventKind.FIRST_ATTACKER) == [
            Event(EventKind.FIRST_ATTACKER, seat, (low,), detail="lowest_trump")
        ]
        assert game.attacker == seat
        assert game.defender == (seat + 1) % players
        assert game.phase is Phase.LEAD
        leads = {a.card for a in game.legal_actions() if a.kind is ActionKind.LEAD}
        assert leads == set(game.hand(seat))  # S3: «no tiene que jugarlo»
        checked += 1
    assert checked >= 10


def _no_trump_seeds(rules: Rules, players: int, wanted: int) -> list[int]:
    seeds = []
    for seed in range(5000):
        game = Game.deal(rules, players=players, seed=seed)
        if not any(c.suit is game.trump for h in game.state.hands for c in h):
            seeds.append(seed)
            if len(seeds) == wanted:
                break
    return seeds


def test_nobody_holds_a_trump_random_first_attacker_s3_item23_c4() -> None:
    """S3 step 2 (item 23, C4): «Si nadie tiene triunfo, empieza un jugador al azar». Found by
    searching seeds for a two-player deal with no trump in either hand."""
    seeds = _no_trump_seeds(Rules(), 2, 8)
    assert len(seeds) == 8
    left_of_dealer = []
    for seed in seeds:
        game = Game.deal(Rules(), players=2, seed=seed)
        shown = of_kind(game, EventKind.FIRST_ATTACKER)
        assert shown == [Event(EventKind.FIRST_ATTACKER, game.attacker, (), detail="random")]
        again = Game.deal(Rules(), players=2, seed=seed)
        assert again.attacker == game.attacker  # drawn from the game's seed
        dealer = game.origin["dealer"]
        left_of_dealer.append(game.attacker == (dealer + 1) % 2)
        # The other fallback of C4: the dealer's left, with the very same deal.
        other = Game.deal(Rules(no_trump_fallback="left_of_dealer"), players=2, seed=seed)
        assert other.state.hands == game.state.hands
        assert other.attacker == (dealer + 1) % 2
        assert of_kind(other, EventKind.FIRST_ATTACKER)[0].detail == "left_of_dealer"
    # random, not a disguised «left of dealer»
    assert not all(left_of_dealer)


@pytest.mark.parametrize("dealer", range(4))
def test_left_of_dealer_first_attacker_option_s0_item25(dealer: int) -> None:
    """S0 optional rule (item 25, C5): the player on the dealer's left attacks first."""
    game = Game.deal(Rules(first_attacker="left_of_dealer"), players=4, seed=9, dealer=dealer)
    assert game.attacker == (dealer + 1) % 4
    assert game.defender == (dealer + 2) % 4
    assert of_kind(game, EventKind.FIRST_ATTACKER) == [
        Event(EventKind.FIRST_ATTACKER, (dealer + 1) % 4, (), detail="left_of_dealer")
    ]


def test_only_the_attacker_leads_one_card_item28() -> None:
    """S0, S1, S2, S3 (item 28): the bout opens with one card of any rank and suit, played by
    the attacker; nobody else leads and nothing is added before the lead."""
    game, _ = position(None, ["8C 9D", "10C JD", "8H QS"], turnup="AS", stock="KS")
    refuse(game, "2:8H", Reason.NOT_ATTACKER, seat=2, attacker=0)
    refuse(game, "2:+8H", Reason.MUST_LEAD, attacker=0)
    refuse(game, "1:take", Reason.MUST_LEAD, attacker=0)
    refuse(game, "0:pass", Reason.MUST_LEAD, attacker=0)
    refuse(game, "0:QS", Reason.CARD_NOT_IN_HAND, seat=0, card=card("QS"))
    play(game, "0:9D")
    refuse(game, "0:8C", Reason.BOUT_IN_PROGRESS, attacker=0, defender=1)


# ============================================================ rank rule (item 30, 31)


def test_throw_in_rank_from_attack_or_defence_cards_s0_s4_item30() -> None:
    """S0 («índice ya utilizado»), S4 («cada carta con la que te defiendes abre su propio
    valor») (item 30): an added card matches a rank on the table, attack or defence; suit is
    irrelevant, the trump of that rank included (S4). RANK_NOT_ON_TABLE lists the ranks."""
    game, deck = position(
        None, ["8C 8D 10S 9H", "10C KS 7D 6D", "8H 9C QC"], turnup="AS", stock="QD"
    )
    play(game, "0:8C 1:10C/8C")
    assert game.table_ranks() == [Rank.EIGHT, Rank.TEN]
    refuse(game, "0:+9H", Reason.RANK_NOT_ON_TABLE, card=card("9H"), ranks=[Rank.EIGHT, Rank.TEN])
    assert game.is_legal(Action.throw(0, card("8D")))  # the attack's rank
    play(game, "0:+10S")  # the defence's rank, and a trump: suit does not matter
    assert game.table[-1] == (card("10S"), None)
    play(game, "1:KS/10S")
    assert game.table_ranks() == [Rank.EIGHT, Rank.TEN, Rank.KING]
    refuse(
        game,
        "0:+9H",
        Reason.RANK_NOT_ON_TABLE,
        card=card("9H"),
        ranks=[Rank.EIGHT, Rank.TEN, Rank.KING],
    )
    check_invariants(game, deck)


def test_defender_never_throws_in_against_himself_s2_s4_item31() -> None:
    """S2 («El defensor puede no agregar las tarjetas que atacan para que sí mismos defiendan
    contra»), S4 («El que nunca puede añadir cartas es el propio defensor») (item 31)."""
    game, _ = position(None, ["8C 9D", "10C 8H JD", "QS KS"], turnup="AS", stock="QD")
    play(game, "0:8C 1:10C/8C")
    refuse(game, "1:+8H", Reason.DEFENDER_CANNOT_THROW, seat=1)
    refuse(game, "1:pass", Reason.DEFENDER_CANNOT_PASS, seat=1, unbeaten=0)
    assert all(a.seat != 1 for a in game.legal_actions())


# ============================================================ take and bito (34-37, 56)


def test_take_picks_up_everything_next_attacker_left_of_defender_s0_s4_item34() -> None:
    """S0, S1, S2, S3, S4 (item 34; S1/S2/S3 item 54): the defender picks up every table card,
    beaten ones and later throw-ins included, and loses his attack: the player on his left
    attacks next."""
    game, deck = position(
        None,
        ["8C 8D 10H 9S", "10C 6D 7D JH QH KH", "8H QD", "KC AC"],
        turnup="AS",
        stock="QS KS",
    )
    play(game, "0:8C 1:10C/8C 0:+8D 1:take")
    assert game.taking
    refuse(game, "1:JH/8D", Reason.ALREADY_TAKING, defender=1)
    refuse(game, "1:take", Reason.ALREADY_TAKING, defender=1)
    mark = game.event_count
    play(game, "0:+10H 0:pass 2:+8H 0:pass 2:pass 3:pass")
    table = cards("8C 8D 10H 8H 10C")
    assert of_kind(game, EventKind.PICK_UP, mark) == [
        Event(EventKind.PICK_UP, 1, tuple(table), n=5)
    ]
    assert game.hand(1) == (*cards("6D 7D JH QH KH"), *table)
    assert game.discard == ()
    assert (game.attacker, game.defender) == (2, 3)
    assert game.phase is Phase.LEAD
    check_invariants(game, deck)


def test_nothing_to_take_once_everything_is_beaten() -> None:
    """S0, S2 (items 33-35): with every card beaten the defender has defended: no take."""
    game, _ = position(None, ["8C 8D", "10C 6D", "8H QD"], turnup="AS", stock="QS")
    play(game, "0:8C 1:10C/8C")
    refuse(game, "1:take", Reason.NOTHING_TO_TAKE)


def test_defender_may_take_at_any_moment_even_able_to_beat_s2_s3_item33() -> None:
    """S3 («puede elegir Recoger cartas aunque pueda superar el ataque»), S2 (before any
    defence card) (item 33)."""
    game, _ = position(None, ["8C 9D", "10C JD"], turnup="AS", stock="QS")
    play(game, "0:8C")
    assert Action.beat(1, card("10C"), card("8C")) in game.legal_actions()
    play(game, "1:take")
    assert game.taking


def test_two_players_after_a_take_the_same_attacker_attacks_again_s0_item56() -> None:
    """S0 item 56: «Dos jugadores: ... en caso de que el defensor pasara el mismo atacante
    original anterior»."""
    game, deck = position(None, ["8C 8D 9H", "10C 6D 7D"], turnup="AS", stock="QS KS")
    play(game, "0:8C 1:take 0:+8D 0:pass")
    assert game.hand(1)[-2:] == tuple(cards("8C 8D"))
    assert (game.attacker, game.defender) == (0, 1)
    assert of_kind(game, EventKind.BOUT_START)[-1] == Event(EventKind.BOUT_START, 0, other=1)
    check_invariants(game, deck)


def test_successful_defence_bito_defender_attacks_next_s0_s4_item35() -> None:
    """S0, S1, S2, S3, S4 (item 35): everything beaten and nobody adds: the whole table goes to
    the discard pile («bito») and the defender attacks next."""
    game, deck = position(None, ["8C 9H", "10C 6D", "QD KD"], turnup="AS", stock="QS KS KH")
    mark = game.event_count
    play(game, "0:8C 1:10C/8C 0:pass 2:pass")
    assert game.discard == tuple(cards("8C 10C"))
    assert of_kind(game, EventKind.BITO, mark) == [
        Event(EventKind.BITO, 1, tuple(cards("8C 10C")), n=2)
    ]
    assert (game.attacker, game.defender) == (1, 2)
    assert game.table == ()
    check_invariants(game, deck)


def test_two_players_successful_defender_attacks_s0_item56() -> None:
    """S0 item 56: with two players the successful defender attacks."""
    game, _ = position(None, ["8C 9H", "10C 6D"], turnup="AS", stock="QS KS")
    play(game, "0:8C 1:10C/8C 0:pass")
    assert (game.attacker, game.defender) == (1, 0)


def test_defender_out_of_cards_ends_bout_at_once_s2_item37() -> None:
    """S2 (item 37): «Si el defensor funciona de tarjetas en su mano, la defensa es necesario
    acertada y los extremos de la vuelta inmediatamente»; S0: he is the next attacker. Both
    throwers still hold eights, the stock is not empty: nobody is asked to add or pass."""
    game, deck = position(
        None,
        ["8C 8D 7H 9H JH QH", "10C", "8H QD KD AD 6H 7D"],
        turnup="AS",
        stock="6C 7C 9C 6D 8S 9S JS",
    )
    mark = game.event_count
    play(game, "0:8C 1:10C/8C")
    assert kinds(game.events_since(mark)) == [
        EventKind.LEAD,
        EventKind.BEAT,
        EventKind.BITO,
        EventKind.DRAW,
        EventKind.DRAW,
        EventKind.BOUT_START,
    ]
    assert game.discard == tuple(cards("8C 10C"))
    assert game.hand_sizes == (6, 6, 6)
    assert game.hand(1) == tuple(cards("7C 9C 6D 8S 9S JS"))
    assert game.active_seats() == [0, 1, 2]
    assert (game.attacker, game.defender) == (1, 2)
    check_invariants(game, deck)


# ============================================================ caps (items 47-53, C7-C9)


def _six_card_position(rules: Rules) -> tuple[Game, list[Card]]:
    """Five beaten pairs on the table, a defender who held 8 cards, throwers with matching
    ranks."""
    return position(
        rules,
        ["9C 6C QH", "10C 10D JS", "7S 8S QD"],
        turnup="AS",
        stock="KS",
        table=[("6H", "7H"), ("6D", "7D"), ("7C", "8C"), ("8H", "9H"), ("8D", "9D")],
    )


def test_six_attack_cards_at_most_defence_cards_do_not_count_s0_s1_s3_item47() -> None:
    """S0 («Un ataque no puede ser superior a seis cartas»), S1 («hasta seis por ronda»), S3
    («como máximo 6 cartas de ataque ... Las cartas de defensa no cuentan») (item 47): after
    the sixth attack card is beaten the bout ends though both throwers hold matching ranks."""
    game, deck = _six_card_position(Rules())
    assert game.cap() == Cap(1, 6, 6, False, 8, "at_defence_start", "total", 5)
    play(game, "0:+9C")
    assert game.cap().room == 0
    mark = game.event_count
    play(game, "1:10C/9C")
    bito = of_kind(game, EventKind.BITO, mark)
    assert len(bito) == 1 and bito[0].n == 12
    assert card("6C") in game.hand(0) and card("7S") in game.hand(2)
    assert game.attacker == 1
    check_invariants(game, deck)


@pytest.mark.parametrize("timing", ["any_time", "after_all_beaten"])
def test_full_table_refuses_a_seventh_card_with_cap_reached_s0_s1_s3_item47(timing: str) -> None:
    """S0, S1, S3 (item 47): with six attack cards on the table no seventh may ever be added,
    and CAP_REACHED explains the limit (C7, C8). Under S2's timing (C12 any_time) the cap is
    the only obstacle; under the classic after-all-beaten timing the refusal must still say
    CAP_REACHED: telling the learner to wait for the defence (WAIT_FOR_DEFENCE) would be
    wrong, because after the defence the bout simply ends."""
    game, _ = _six_card_position(Rules(throw_in_timing=timing))
    play(game, "0:+9C")
    refuse(
        game,
        "0:+6C",
        Reason.CAP_REACHED,
        exact=False,
        cap=6,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=8,
        hand_rule="at_defence_start",
        scope="total",
        on_table=6,
    )


def test_defender_hand_cap_counts_his_hand_at_defence_start_s1_s3_item48() -> None:
    """S1 («nunca más de las que tenía el defensor al empezar»), S3 («al comienzo») (item 48,
    C8): a 3-card defender faces 3 attack cards although he holds 1 when the third comes."""
    game, deck = position(None, ["8C 8D 8H", "10C 10D 10H", "QS KS"], turnup="AS", stock="6C 7C")
    play(game, "0:8C 1:10C/8C 0:+8D 1:10D/8D")
    assert game.hand(1) == (card("10H"),)
    assert game.cap() == Cap(1, 3, 6, False, 3, "at_defence_start", "total", 2)
    play(game, "0:+8H")
    assert game.cap().room == 0
    play(game, "1:10H/8H")
    assert of_kind(game, EventKind.BITO)[-1].n == 6
    check_invariants(game, deck)


def test_current_hand_reading_closes_the_attack_earlier_s4_example2_c8() -> None:
    """S4 example 2's reading (total attack cards vs the *current* hand; C8, demos only): the
    same bout stops after two cards; the attacker keeps his third eight."""
    game, _ = position(
        Rules(hand_cap="current_hand"),
        ["8C 8D 8H", "10C 10D 10H", "QS KS"],
        turnup="AS",
        stock="6C 7C",
    )
    play(game, "0:8C 1:10C/8C")
    assert game.cap() == Cap(1, 2, 6, False, 2, "current_hand", "total", 1)
    play(game, "0:+8D 1:10D/8D")
    assert of_kind(game, EventKind.BITO)[-1].cards == tuple(cards("8C 8D 10C 10D"))
    assert card("8H") in game.hand(0)
    assert game.attacker == 1


def test_throw_in_after_take_up_to_the_original_limit_s3_item53() -> None:
    """S3 (item 53): after «Recoger» the others may add legal cards up to the original limit
    (the defender's hand at the start): a 2-card defender takes at most 2 attack cards; the
    pick-up then happens at once."""
    game, deck = position(None, ["8C 8D 8H", "10C JH", "QS KS"], turnup="AS", stock="6C 7C")
    play(game, "0:8C 1:take")
    assert game.cap() == Cap(1, 2, 6, False, 2, "at_defence_start", "total", 1)
    mark = game.event_count
    play(game, "0:+8D")
    assert of_kind(game, EventKind.PICK_UP, mark) == [
        Event(EventKind.PICK_UP, 1, tuple(cards("8C 8D")), n=2)
    ]
    assert card("8H") in game.hand(0)
    check_invariants(game, deck)


def _s2_position(rules: Rules) -> Game:
    """Eight attack cards, six of them unbeaten, against an 8-card defender."""
    return Game.from_position(
        rules,
        ["10D 9C", "7H JS QH KD AD JD 7D 9S", "10C KH"],
        turnup="AC",
        table=[
            ("6D", "8D"),
            ("8H", "10H"),
            ("6H", None),
            ("6S", None),
            ("6C", None),
            ("8S", None),
            ("8C", None),
            ("10S", None),
        ],
    )


def test_s2_caps_only_unbeaten_cards_wikipedia_item49_c7() -> None:
    """S2 literally (item 49, C7, preset wikipedia): «el número total de tarjetas que atacan
    invictas no excede de seises o el número de tarjetas en la mano del defensor». Eight attack
    cards may be on the table; a seventh unbeaten one is refused; beating one makes room."""
    with pytest.raises(PositionError, match="more attack cards than the limit"):
        _s2_position(Rules())  # eight attack cards: impossible under S0/S1/S3
    game = _s2_position(Rules.preset("wikipedia"))
    refuse(
        game,
        "0:+10D",
        Reason.CAP_REACHED,
        exact=False,
        cap=6,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=8,
        hand_rule="current_hand",
        scope="unbeaten",
        on_table=6,
    )
    play(game, "1:7H/6H")
    play(game, "0:+10D")  # the ninth attack card of the bout
    assert len(game.table) == 9
    refuse(game, "2:+10C", Reason.CAP_REACHED, exact=False, defender_hand=7, on_table=6)


def test_s4_five_until_first_discard_a_take_does_not_lift_it_durak_live_item50_c9() -> None:
    """S4 (item 50, C9, presets durak_live_*): the cap is 5 while the discard pile is empty,
    6 once a bout was beaten off; «no es una regla de primera ronda»: a take puts nothing in
    the discard pile, so the next bout is still capped at 5."""
    hands = ["6C 7H 8D 9C 10H JD JC", "8H 9D 10C JH QD"]
    for preset in ("durak_live_todos", "durak_live_vecinos"):
        game, deck = position(Rules.preset(preset), hands, turnup="AS", stock="KS QS")
        assert game.cap() == Cap(5, 5, 5, True, 5, "at_defence_start", "total", 0)
        play(game, "0:6C 1:take 0:pass")  # bout 1: taken, the discard pile stays empty
        assert game.discard == ()
        assert (game.attacker, game.defender, game.state.bouts) == (0, 1, 2)
        assert game.cap() == Cap(5, 5, 5, True, 6, "at_defence_start", "total", 0)
        mark = game.event_count
        play(game, "0:7H 1:8H/7H 0:+8D 1:9D/8D 0:+9C 1:10C/9C 0:+10H 1:JH/10H 0:+JD 1:QD/JD")
        # five attack cards beaten: the bout is over though the attacker holds J♣
        assert len(of_kind(game, EventKind.BITO, mark)) == 1
        assert card("JC") in game.hand(0)
        assert game.attacker == 1
        assert game.cap().base_cap == 6 and not game.cap().first_bout_cap
        check_invariants(game, deck)


def test_classic_has_no_first_cap_the_sixth_card_is_accepted_s3_item52() -> None:
    """S3 («La primera defensa usa el mismo límite», item 52): the bout above continues with a
    sixth card under the classic preset."""
    game, _ = position(
        Rules(), ["6C 7H 8D 9C 10H JD JC", "8H 9D 10C JH QD"], turnup="AS", stock="KS QS"
    )
    assert game.cap().base_cap == 6
    play(game, "0:6C 1:take 0:pass")
    play(game, "0:7H 1:8H/7H 0:+8D 1:9D/8D 0:+9C 1:10C/9C 0:+10H 1:JH/10H 0:+JD 1:QD/JD")
    play(game, "0:+JC")
    assert len(game.table) == 6


@pytest.mark.parametrize(("players", "bouts", "base"), [(4, 1, 5), (4, 2, 6), (3, 1, 6), (2, 1, 6)])
def test_s0_first_bout_cap_five_with_four_or_more_players(
    players: int, bouts: int, base: int
) -> None:
    """S0 optional rule (item 51, C9, preset wikihow_home): «a partir de cuatro jugadores ...
    el primer atacante no puede utilizar más de cinco cartas»: the game's first bout only."""
    hands = ["8C 9C", "10C JC 6D 7D 8D 9D", "QH KH", "QS KS"][:players]
    game = Game.from_position(
        Rules.preset("wikihow_home"), hands, turnup="AD", stock="AH", bouts=bouts
    )
    c = game.cap()
    assert (c.base_cap, c.first_bout_cap, c.cap) == (base, base == 5, base)


def test_s0_first_bout_cap_is_lifted_by_a_take_unlike_s4_item51() -> None:
    """S0 (item 51) vs S4 (item 50): after a taken first bout S0's cap is back to 6."""
    game, _ = position(
        Rules.preset("wikihow_home"),
        ["8C 9C 7S", "10C JC 6D 7D 8D 9D", "QH KH", "QS KS"],
        turnup="AD",
        stock="AH",
    )
    assert game.cap().cap == 5
    play(game, "0:8C 1:take 0:pass 2:pass 3:pass")
    assert game.discard == ()
    assert (game.attacker, game.state.bouts) == (2, 2)
    assert game.cap().base_cap == 6 and not game.cap().first_bout_cap


# ============================================================ priority and timing (C11-C13)


FOUR = ["8C 8D 6S", "10C 10D JH QH KH", "8H 10S 9C", "8S 10H 9D"]


def test_attacker_first_priority_returns_after_every_new_card_s3_item40() -> None:
    """S3 step 4 (item 40, C11): «Tiene prioridad el atacante original y después los demás en
    sentido horario ... Cada carta nueva devuelve la prioridad al atacante original»; S1 names
    the same order (item 39). NOT_YOUR_PRIORITY names who has priority."""
    game, deck = position(None, FOUR, turnup="AC", stock="KC")
    play(game, "0:8C 1:10C/8C")
    assert game.throw_in_turn() == [0]
    refuse(game, "2:+8H", Reason.NOT_YOUR_PRIORITY, seat=2, priority=0)
    refuse(game, "3:pass", Reason.NOT_YOUR_PRIORITY, seat=3, priority=0)
    play(game, "0:pass")
    assert game.throw_in_turn() == [2]
    refuse(game, "3:+8S", Reason.NOT_YOUR_PRIORITY, seat=3, priority=2)
    play(game, "2:+8H")
    play(game, "1:JH/8H")
    assert game.throw_in_turn() == [0]  # the new card gave priority back to Ana
    play(game, "0:+8D")  # ... who may add again although she had passed
    play(game, "1:10D/8D 0:pass 2:pass")
    assert game.throw_in_turn() == [3]
    play(game, "3:+10H 1:QH/10H")
    assert game.throw_in_turn() == [0]
    play(game, "0:pass 2:pass 3:pass")
    assert of_kind(game, EventKind.BITO)[-1].n == 8
    check_invariants(game, deck)


def test_attacker_until_pass_then_clockwise_passes_final_s0_item41() -> None:
    """S0 (item 41, C11): the original attacker adds until he passes, then the others
    clockwise; a pass is final for the bout (ALREADY_PASSED)."""
    game, deck = position(
        Rules(throw_in_priority="attacker_until_pass"), FOUR, turnup="AC", stock="KC"
    )
    play(game, "0:8C 1:10C/8C")
    assert game.throw_in_turn() == [0]
    play(game, "0:pass")
    assert game.throw_in_turn() == [2]
    refuse(game, "0:+8D", Reason.ALREADY_PASSED, seat=0)
    play(game, "2:+8H 1:JH/8H")
    assert game.throw_in_turn() == [2]  # Bruno goes on until he passes
    refuse(game, "0:+8D", Reason.ALREADY_PASSED, seat=0)
    refuse(game, "0:pass", Reason.ALREADY_PASSED, seat=0)
    play(game, "2:pass")
    assert game.throw_in_turn() == [3]
    play(game, "3:+10H 1:QH/10H 3:pass")
    assert of_kind(game, EventKind.BITO)[-1].n == 6
    assert card("8D") in game.hand(0)
    check_invariants(game, deck)


def test_wikihow_preset_uses_until_pass_priority_s0() -> None:
    """S0 (preset wikihow_home): same as above through the preset."""
    game, _ = position(Rules.preset("wikihow_home"), FOUR, turnup="AC", stock="KC")
    play(game, "0:8C 1:10C/8C 0:pass 2:+8H 1:JH/8H")
    refuse(game, "0:+8D", Reason.ALREADY_PASSED, seat=0)


def test_free_priority_any_time_s2_item42() -> None:
    """S2 (item 42, C11, C12, preset wikipedia): «En cualquier momento durante una defensa, el
    atacante o ninguna poder de tercera persona echar adentro tarjetas»: no order, and also
    while cards are still unbeaten."""
    game, deck = position(Rules.preset("wikipedia"), FOUR, turnup="AC", stock="KC")
    play(game, "0:8C")
    assert game.throw_in_turn() == [0, 2, 3]
    play(game, "3:+8S")  # Diana first, the 8♣ still unbeaten
    play(game, "2:+8H")
    assert game.table == ((card("8C"), None), (card("8S"), None), (card("8H"), None))
    play(game, "1:10C/8C 1:JH/8H 1:take")
    play(game, "0:pass 2:pass 3:pass")
    assert of_kind(game, EventKind.PICK_UP)[-1].n == 5
    check_invariants(game, deck)


def test_after_all_beaten_timing_wait_for_defence_s1_s3_item32() -> None:
    """S1 («Cuando todo está vencido ... pueden añadir»), S3 («una carta cada vez») (item 32,
    C12): nothing is added while a card is unbeaten (WAIT_FOR_DEFENCE)."""
    game, _ = position(None, FOUR, turnup="AC", stock="KC")
    play(game, "0:8C")
    assert game.throw_in_turn() == []
    refuse(game, "0:+8D", Reason.WAIT_FOR_DEFENCE, unbeaten=1)
    refuse(game, "2:+8H", Reason.WAIT_FOR_DEFENCE, unbeaten=1)
    refuse(game, "0:pass", Reason.WAIT_FOR_DEFENCE, unbeaten=1)


def test_throw_in_after_take_allowed_starting_with_attacker_s1_s2_s3_item54() -> None:
    """S1 («Si el defensor recoge, los atacantes aún pueden añadir cartas antes de que las
    lleve»), S2, S3 (item 54, C13): once the defender takes, the others may still add."""
    game, _ = position(None, FOUR, turnup="AC", stock="KC")
    play(game, "0:8C 1:take")
    assert game.throw_in_turn() == [0]
    refuse(game, "2:+8H", Reason.NOT_YOUR_PRIORITY, seat=2, priority=0)
    play(game, "0:+8D 0:pass 2:+8H 0:pass 2:pass 3:+8S 0:pass 2:pass 3:pass")
    assert of_kind(game, EventKind.PICK_UP)[-1].cards == tuple(cards("8C 8D 8H 8S"))


def test_no_throw_in_after_take_option_s0_item55() -> None:
    """S0 (item 55, C13): throwing in after a take is only optional; with it off, the take
    ends the bout at once and the defender picks up only what is on the table."""
    game, deck = position(Rules(throw_in_after_take=False), FOUR, turnup="AC", stock="KC")
    play(game, "0:8C 1:10C/8C 0:+8D")
    mark = game.event_count
    play(game, "1:take")
    assert kinds(game.events_since(mark))[:2] == [EventKind.TAKE, EventKind.PICK_UP]
    assert of_kind(game, EventKind.PICK_UP, mark)[0].cards == tuple(cards("8C 8D 10C"))
    assert (game.attacker, game.defender) == (2, 3)
    refuse(game, "0:+6S", Reason.MUST_LEAD, attacker=2)
    check_invariants(game, deck)


# ============================================================ who may throw in (C10)


VECINOS_HANDS = ["8C 10S 7H 6C", "10C JH QS 7D KS AS", "10H 8D JC 6H", "JS 8H 10D 6S"]


def test_vecinos_others_only_first_rank_with_four_players_s4_item45() -> None:
    """S4 «Vecinos» (item 45, C10): the round's attacker and the next defender add any rank on
    the table; everybody else only the rank of the first attack card (ONLY_FIRST_RANK)."""
    game, deck = position(
        Rules.preset("durak_live_vecinos"), VECINOS_HANDS, turnup="KD", stock="QD"
    )
    play(game, "0:8C 1:10C/8C 0:pass")
    play(game, "2:+10H")  # Bruno, the next defender: a defence rank
    play(game, "1:JH/10H")
    play(game, "0:+10S")  # Ana, the attacker: a rank opened by a throw-in
    play(game, "1:QS/10S 0:pass 2:pass")
    assert game.throw_in_turn() == [3]
    refuse(
        game, "3:+JS", Reason.ONLY_FIRST_RANK, card=card("JS"), rank=Rank.EIGHT, privileged=[0, 2]
    )
    refuse(
        game, "3:+10D", Reason.ONLY_FIRST_RANK, card=card("10D"), rank=Rank.EIGHT, privileged=[0, 2]
    )
    refuse(game, "3:+6S", Reason.RANK_NOT_ON_TABLE, card=card("6S"), ranks=[8, 10, 11, 12])
    assert set(game.legal_actions()) == {Action.throw(3, card("8H")), Action.pass_(3)}
    play(game, "3:+8H")
    check_invariants(game, deck)


def test_todos_everyone_any_table_rank_s4_item45() -> None:
    """S4 «Todos» (item 45): the same position lets Diana add J♠."""
    game, _ = position(Rules.preset("durak_live_todos"), VECINOS_HANDS, turnup="KD", stock="QD")
    play(game, "0:8C 1:10C/8C 0:pass 2:+10H 1:JH/10H 0:+10S 1:QS/10S 0:pass 2:pass")
    assert Action.throw(3, card("JS")) in game.legal_actions()
    assert Action.throw(3, card("10D")) in game.legal_actions()
    play(game, "3:+JS")


@pytest.mark.parametrize("players", [2, 3])
def test_vecinos_and_todos_identical_with_two_or_three_players_s4_item45(players: int) -> None:
    """S4 (item 45): «con dos y tres jugadores, "Vecinos" y "Todos" se comportan exactamente
    igual». Random seeded games: the legal actions agree at every step."""
    vecinos, todos = Rules.preset("durak_live_vecinos"), Rules.preset("durak_live_todos")
    for seed in range(6):
        a = Game.deal(vecinos, players=players, seed=seed)
        b = Game.deal(todos, players=players, seed=seed)
        rng = random.Random(seed)
        while a.outcome is None:
            legal = list(a.legal_actions())
            assert set(legal) == set(b.legal_actions())
            action = rng.choice(legal)
            a.play(action)
            b.play(action)
        assert a.outcome == b.outcome


def test_vecinos_differs_from_todos_from_four_players_s4_item45() -> None:
    """S4 (item 45): «La diferencia solo empieza a existir a partir de cuatro» (the previous
    test's comparison is not vacuous)."""
    vecinos, todos = Rules.preset("durak_live_vecinos"), Rules.preset("durak_live_todos")
    differing = 0
    for seed in range(6):
        a = Game.deal(vecinos, players=5, seed=seed)
        b = Game.deal(todos, players=5, seed=seed)
        rng = random.Random(seed)
        while a.outcome is None:
            legal = list(a.legal_actions())
            other = set(b.legal_actions())
            assert set(legal) <= other
            differing += set(legal) != other
            action = rng.choice(legal)
            a.play(action)
            b.play(action)
    assert differing > 0


FIVE = ["8C 9H", "10C JD QD", "8H KC", "8D KD", "8S KH"]


def test_neighbours_only_with_five_active_players_s3_item44() -> None:
    """S3 step 4 (item 44, C10, preset dame_karty): «Con 5 o 6 jugadores activos solo atacan
    los dos vecinos del defensor»: the attacker and the player on the defender's left."""
    game, deck = position(Rules.preset("dame_karty"), FIVE, trump="S")
    play(game, "0:8C 1:10C/8C")
    refuse(game, "3:+8D", Reason.NOT_A_NEIGHBOUR, seat=3, neighbours=[0, 2], active=5)
    refuse(game, "4:pass", Reason.NOT_A_NEIGHBOUR, seat=4, neighbours=[0, 2], active=5)
    play(game, "0:pass 2:pass")
    assert of_kind(game, EventKind.BITO)[-1].n == 2
    assert card("8D") in game.hand(3)
    check_invariants(game, deck)


def test_everyone_throws_in_with_four_players_dame_karty_s3_item44() -> None:
    """S3 (item 44): with four players the neighbours-only rule does not apply."""
    game, _ = position(Rules.preset("dame_karty"), FIVE[:4], trump="S")
    play(game, "0:8C 1:10C/8C 0:pass 2:pass 3:+8D")
    assert game.table[-1] == (card("8D"), None)


def test_neighbours_skip_out_players_and_count_only_active_ones_s3_item44() -> None:
    """S3 (item 44): counted on *active* players: six seats with one out are five active, so
    neighbours-only holds, and the defender's left neighbour is the next active seat."""
    hands = ["8C 9H", "10C JD QD", "", "8H KC", "8D KD", "8S KH"]
    game, _ = position(Rules.preset("dame_karty"), hands, trump="S", out=[2])
    play(game, "0:8C 1:10C/8C 0:pass")
    assert game.throw_in_turn() == [3]
    refuse(game, "4:+8D", Reason.NOT_A_NEIGHBOUR, seat=4, neighbours=[0, 3], active=5)
    refuse(game, "2:pass", Reason.PLAYER_OUT, seat=2)
    play(game, "3:+8H")
    # five seats with one out: four active, everyone throws in
    game, _ = position(Rules.preset("dame_karty"), [*FIVE[:4], ""], trump="S", out=[4])
    play(game, "0:8C 1:10C/8C 0:pass 2:pass 3:+8D")
    assert game.table[-1] == (card("8D"), None)


def test_neighbours_only_re_evaluated_when_a_player_goes_out_s3_item44() -> None:
    """S3 (item 44): the rule is re-evaluated as players leave: the attacker goes out in the
    first bout (5 → 4 active), and in the next bout a non-neighbour may throw in."""
    hands = ["8C", "10C 9D 7S", "JD KC", "8D KD", "9S 9H"]
    game, deck = position(Rules.preset("dame_karty"), hands, trump="C")
    play(game, "0:8C 1:10C/8C")
    assert game.throw_in_turn() == [2]  # Ana has no card left
    refuse(game, "3:+8D", Reason.NOT_A_NEIGHBOUR, seat=3, neighbours=[0, 2], active=5)
    play(game, "2:pass")
    assert of_kind(game, EventKind.PLAYER_OUT) == [Event(EventKind.PLAYER_OUT, 0, n=1)]
    assert (game.attacker, game.defender) == (1, 2)
    play(game, "1:9D 2:JD/9D 1:pass 3:pass")
    assert game.throw_in_turn() == [4]
    play(game, "4:+9S")  # seat 4 is not a neighbour of seat 2, but only 4 are active now
    check_invariants(game, deck)


# ============================================================ transfer (C16, item 58)

TRANSFER = Rules(transfer=True)


def test_transfer_disabled_in_podkidnoy_s3_s4_item61() -> None:
    """S3 («sin transferir ataques»), S4 («El traspaso no existe aquí») (item 61)."""
    game, _ = position(None, ["8C 9C", "8D 9D"], turnup="AS", stock="KS")
    play(game, "0:8C")
    refuse(game, "1:>8D", Reason.TRANSFER_DISABLED)


def test_transfer_same_rank_only_s1_s2_item58() -> None:
    """S1 («añadiendo una carta del mismo valor»), S2 («una tarjeta de la misma fila»)."""
    game, _ = position(TRANSFER, ["8C 10C", "9C 8D 6S", "7H JC QC"], turnup="AS", stock="KS")
    play(game, "0:8C")
    refuse(game, "1:>9C", Reason.TRANSFER_RANK_MISMATCH, card=card("9C"), rank=Rank.EIGHT)
    transfers = [a for a in game.legal_actions() if a.kind is ActionKind.TRANSFER]
    assert transfers == [Action.transfer(1, card("8D"))]


def test_transfer_only_before_any_beat_s2_item58() -> None:
    """S2: «Tan pronto como se haya jugado una tarjeta de defensa, el defensor tiene no más la
    opción para pasar el ataque»; S1: «antes de vencer nada»."""
    game, _ = position(
        TRANSFER, ["8C 8S 10C KD", "8D 9C 6S 7S", "8H JC QC"], turnup="AS", stock="KS"
    )
    play(game, "0:8C 1:9C/8C 0:+8S")
    refuse(game, "1:>8D", Reason.TRANSFER_AFTER_BEAT)


def test_transfer_needs_enough_cards_in_next_hand_s1_item58() -> None:
    """S1: «el siguiente jugador debe defenderse de todas las cartas, si tiene suficientes»."""
    game, _ = position(TRANSFER, ["8C 10C", "8D 9D 6S 7S", "8H"], turnup="AS", stock="KS")
    play(game, "0:8C")
    refuse(
        game,
        "1:>8D",
        Reason.TRANSFER_NO_ROOM,
        next_defender=2,
        next_hand=1,
        needed=2,
        base_cap=6,
    )
    assert not [a for a in game.legal_actions() if a.kind is ActionKind.TRANSFER]


def test_transfer_chain_new_defender_hand_cap_s1_s2_item58() -> None:
    """S2: «es perfectamente posible que alguien termine para arriba la defensa contra un
    ataque que comenzaron esa vuelta»: transfers chain around to the first attacker. Each new
    defender's own hand fixes the cap (C8, C16)."""
    game, deck = position(
        TRANSFER, ["8C 9C 10C KD", "8D 9D 6S 7S", "8H JC QC"], turnup="AS", stock="6H AH"
    )
    mark = game.event_count
    play(game, "0:8C 1:>8D")
    assert (game.attacker, game.defender) == (1, 2)
    assert game.cap() == Cap(1, 3, 6, False, 3, "at_defence_start", "total", 2)
    play(game, "2:>8H")
    assert (game.attacker, game.defender) == (2, 0)
    assert game.cap() == Cap(0, 3, 6, False, 3, "at_defence_start", "total", 3)
    assert of_kind(game, EventKind.TRANSFER, mark) == [
        Event(EventKind.TRANSFER, 1, (card("8D"),), other=2),
        Event(EventKind.TRANSFER, 2, (card("8H"),), other=0),
    ]
    play(game, "0:take")
    assert game.hand(0) == tuple(cards("9C 10C KD 8C 8D 8H"))
    draws = of_kind(game, EventKind.DRAW, mark)
    assert draws == [Event(EventKind.DRAW, 1, tuple(cards("6H AH AS")), n=3, detail="turnup")]
    assert (game.attacker, game.defender) == (1, 2)
    check_invariants(game, deck)


def test_two_player_transfer_back_s2_item58() -> None:
    """S2 (item 58): with two players the attack can be passed back to its leader, and back
    again, while each next hand holds enough cards."""
    game, deck = position(TRANSFER, ["8C 8S 10C", "8D 9D 6S 7S"], turnup="KS", stock="6H AH")
    play(game, "0:8C 1:>8D")
    assert (game.attacker, game.defender) == (1, 0)
    play(game, "0:>8S")
    assert (game.attacker, game.defender) == (0, 1)
    assert len(game.table) == 3
    play(game, "1:take")
    assert of_kind(game, EventKind.PICK_UP)[-1].cards == tuple(cards("8C 8D 8S"))
    assert (game.attacker, game.defender) == (0, 1)
    check_invariants(game, deck)


# ============================================================ drawing (items 62-65, C18)


def test_draw_order_attacker_then_clockwise_defender_last_each_completes_s0_s4_item62() -> None:
    """S0, S1, S2, S3, S4 (item 62): the attacker first, then the others clockwise, the
    defender last; S3 (item 63): «Cada jugador completa su robo antes del siguiente»."""
    hands = ["9S JC QC KC AC", "6H 7H 8H 9H AH", "8C 8D 6S 7S 10S KS", "10C 10D 6D 7D QS JS"]
    game, deck = position(None, hands, attacker=2, turnup="AD", stock="6C 7C 9C JH QH KH")
    mark = game.event_count
    play(game, "2:8C 3:10C/8C 2:+8D 3:10D/8D 2:pass 0:pass 1:pass")
    assert of_kind(game, EventKind.DRAW, mark) == [
        Event(EventKind.DRAW, 2, tuple(cards("6C 7C")), n=2),
        Event(EventKind.DRAW, 0, (card("9C"),), n=1),
        Event(EventKind.DRAW, 1, (card("JH"),), n=1),
        Event(EventKind.DRAW, 3, tuple(cards("QH KH")), n=2),
    ]
    assert game.hand_sizes == (6, 6, 6, 6)
    assert game.stock == (card("AD"),)
    check_invariants(game, deck)


def test_turnup_is_drawn_last_by_whoever_reaches_it_s0_s4_item65() -> None:
    """S0, S2, S3, S4 (item 65): the turned-up trump is the last card drawn and goes to whoever
    reaches it (DRAW detail "turnup"); then play goes on without drawing (S0, S2)."""
    game, deck = position(
        None, ["8C 8D 9H QS KS AS", "10C 10D 6D 7D QD KD"], turnup="9S", stock="6C"
    )
    play(game, "0:8C 1:10C/8C 0:+8D 1:10D/8D 0:pass")
    assert of_kind(game, EventKind.DRAW) == [
        Event(EventKind.DRAW, 0, tuple(cards("6C 9S")), n=2, detail="turnup")
    ]
    assert game.stock == ()
    assert game.turnup is card("9S")  # still shown as the trump
    assert game.hand_sizes == (6, 4)
    play(game, "1:6D 0:take 1:pass")
    assert game.hand_sizes == (7, 3)  # no more drawing
    check_invariants(game, deck)


def test_drawing_after_a_take_defender_last_s0_s4_item62() -> None:
    """S4 («Después, y solo después, se roba ... El defensor siempre el último»), S1: the same
    order after a take: the short defender who took gets only what is left."""
    game, deck = position(None, ["8C 8D 9H QS KS AS", "10C JH"], turnup="AC", stock="6C 7C")
    play(game, "0:8C 1:take 0:+8D")  # the defender's two cards are the limit: picked up at once
    assert of_kind(game, EventKind.DRAW) == [
        Event(EventKind.DRAW, 0, tuple(cards("6C 7C")), n=2),
        Event(EventKind.DRAW, 1, (card("AC"),), n=1, detail="turnup"),
    ]
    assert game.hand(1) == (*cards("10C JH 8C 8D"), card("AC"))
    check_invariants(game, deck)


def test_defender_can_go_out_before_the_stock_reaches_him_s2_item64() -> None:
    """S2 (item 64): drawing attacker-first «permite que un defensor gane el juego antes de que
    la cubierta esté pasada»: the attacker takes the last cards and the empty defender is out."""
    game, deck = position(
        None, ["8C 8D", "10C 10D", "QH KH 6S 7S 9S JS"], turnup="AS", stock="6C 7C 9C"
    )
    play(game, "0:8C 1:10C/8C 0:+8D 1:10D/8D")
    assert of_kind(game, EventKind.DRAW)[0] == Event(
        EventKind.DRAW, 0, tuple(cards("6C 7C 9C AS")), n=4, detail="turnup"
    )
    assert of_kind(game, EventKind.PLAYER_OUT) == [Event(EventKind.PLAYER_OUT, 1, n=1)]
    assert game.active_seats() == [0, 2]
    assert (game.attacker, game.defender) == (2, 0)
    check_invariants(game, deck)


# ============================================================ going out, the end (66-69)


def test_nobody_goes_out_while_the_stock_has_cards_s0_s1_s3_item67() -> None:
    """S0, S1, S2, S3 (item 67): going out needs an empty stock; before that you draw."""
    game, _ = position(None, ["8C", "10C 6D", "QH KH"], turnup="AS", stock="6C")
    play(game, "0:8C 1:10C/8C 2:pass")
    assert game.active_seats() == [0, 1, 2]
    assert game.hand(0) == tuple(cards("6C AS"))
    assert not of_kind(game, EventKind.PLAYER_OUT)


def test_empty_players_go_out_and_are_skipped_s3_item67() -> None:
    """S3 step 8 (item 67): «quienes no tienen cartas salen y se omiten sus turnos»: the
    attack goes to the next *active* player (S3 step 2)."""
    game, deck = position(None, ["8C", "10C 9D 7D", "JD QD", "KH 7H"], trump="S")
    play(game, "0:8C 1:10C/8C 2:pass 3:pass")
    assert of_kind(game, EventKind.PLAYER_OUT) == [Event(EventKind.PLAYER_OUT, 0, n=1)]
    refuse(game, "0:pass", Reason.PLAYER_OUT, seat=0)
    assert (game.attacker, game.defender) == (1, 2)
    play(game, "1:9D 2:take 1:pass 3:pass")
    assert (game.attacker, game.defender) == (3, 1)  # seat 0 is skipped
    check_invariants(game, deck)


def test_last_player_with_cards_is_the_durak_s0_s4_item68() -> None:
    """All seeds (item 68): no winner, one loser: the last player holding cards."""
    game, _ = position(None, ["8C", "10C 9D 7H", "JD"], trump="S")
    play(game, "0:8C 1:10C/8C 2:pass")
    assert game.active_seats() == [1, 2]
    play(game, "1:9D 2:JD/9D")
    assert game.outcome is not None
    assert game.outcome.durak == 1 and not game.outcome.is_draw
    assert game.outcome.out_order == (0, 2)
    assert game.events[-1] == Event(EventKind.GAME_OVER, 1, detail="durak")
    assert game.phase is Phase.OVER
    refuse(game, "1:take", Reason.GAME_OVER)


@pytest.mark.parametrize("players", [2, 3])
def test_all_empty_together_is_a_draw_s1_s3_item69(players: int) -> None:
    """S1 («si los dos últimos se quedan sin cartas a la vez, no hay durak y es empate»), S3
    («Si nadie conserva cartas, hay empate») (item 69, C19)."""
    hands = ["8C", "10C"] if players == 2 else ["8C", "10C", ""]
    out = [] if players == 2 else [2]
    game, _ = position(None, hands, trump="S", out=out)
    play(game, "0:8C 1:10C/8C")
    assert game.outcome is not None and game.outcome.is_draw
    assert game.outcome.durak is None
    assert game.events[-1] == Event(EventKind.GAME_OVER, None, detail="draw")


def test_no_draw_the_previous_durak_stays_durak_s0_item69() -> None:
    """S0 (item 27, 69, C19): «El jugador durak anterior es el nuevo durak»."""
    game, _ = position(Rules(allow_draw=False), ["8C", "10C"], trump="S", previous_durak=1)
    play(game, "0:8C 1:10C/8C")
    assert game.outcome is not None
    assert game.outcome.durak == 1
    assert game.events[-1] == Event(EventKind.GAME_OVER, 1, detail="previous_durak")


@pytest.mark.parametrize(
    ("rule", "attacker", "defender"),
    [("next_active", 2, 0), ("previous_attacker", 0, 2)],
)
def test_attacker_after_the_defender_goes_out_s0_footnote9_vs_s3_item57(
    rule: str, attacker: int, defender: int
) -> None:
    """C15: the successful defender went out. S3 («El defensor que resistió ataca después si
    sigue en juego»): the next active player clockwise attacks. S0 footnote 9 («el jugador que
    atacaba previamente es de nuevo el atacante»): the previous attacker attacks again."""
    game, _ = position(
        Rules(attacker_after_defender_out=rule), ["8C 9H", "10C", "8H KC"], trump="S"
    )
    play(game, "0:8C 1:10C/8C")
    assert of_kind(game, EventKind.PLAYER_OUT) == [Event(EventKind.PLAYER_OUT, 1, n=1)]
    assert (game.attacker, game.defender) == (attacker, defender)
    assert game.events[-1] == Event(EventKind.BOUT_START, attacker, other=defender)
