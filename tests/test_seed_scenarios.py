"""The worked examples of the seeds, scripted as in ``shared/docs/rules-research.md`` §3.

(a) S4 «Ejemplo 1», the growing round, with the 36-card correction 4♦ → 7♦;
(b) S4 «Ejemplo 2», the defender-hand cap, corrected (b1, b2, b3) and its wrong reading;
(c) draw order with a near-empty stock (S4, S2, S0, S3, S1);
(d) S0's 6-of-trumps swap, d1–d4.

Seats: Ana 0 → tú (you) 1 → Bruno 2 → Diana 3, clockwise.
"""

from __future__ import annotations

import pytest

from durak_core import (
    PRESETS,
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
    Suit,
    beats,
)

from .helpers import all_cards, card, cards, check_invariants, of_kind, play, refuse

ANA, YOU, BRUNO, DIANA = 0, 1, 2, 3


# ================================================================== (a) the growing round


A_HANDS = [
    "8C 9S QC AH 7S KS",  # Ana
    "10C JH 7D 9H 6H QS",  # you
    "10H 6S 7C QH 9C AS",  # Bruno
    "JS 8H 6C KC 9D AC",  # Diana
]


def a_game(rules: Rules) -> tuple[Game, list[Card]]:
    """rules-research §3a: deck 36, trump ♦ with turn-up K♦, the proposed hands."""
    game = Game.from_position(rules, A_HANDS, turnup="KD")
    return game, all_cards(game)


def test_a_s4_example1_four_of_diamonds_is_not_in_the_deck() -> None:
    """S4 ex. 1; rules-research §3a: «4♦ does not exist in the 36-card deck, or in the 24-card
    deck»: a position with the seed's 4♦ is refused, saying so."""
    hands = [*A_HANDS]
    hands[YOU] = "10C JH 4D 9H 6H QS"
    with pytest.raises(PositionError, match="4D is not in a 36-card deck"):
        Game.from_position(Rules(), hands, turnup="KD")
    with pytest.raises(PositionError, match="4D is not in a 24-card deck"):
        Game.from_position(Rules(deck_size=24), ["9C 10C", "4D JC"], turnup="KD")


@pytest.mark.parametrize("preset", ["classic", "durak_live_todos"])
def test_a_growing_round_chain_s4_example1_corrected(preset: str) -> None:
    """S4 ex. 1 with 7♦ for 4♦; rules-research §3a under classic and «Todos»: Ana opens one
    rank and your defence opens two more; Ana passes before each throw-in (S3 priority)."""
    game, deck = a_game(Rules.preset(preset))
    play(game, "0:8C")
    assert game.table_ranks() == [Rank.EIGHT]
    play(game, "1:10C/8C")
    assert game.table_ranks() == [Rank.EIGHT, Rank.TEN]
    refuse(game, "2:+10H", Reason.NOT_YOUR_PRIORITY, seat=BRUNO, priority=ANA)
    play(game, "0:pass 2:+10H 1:JH/10H")
    assert game.table_ranks() == [Rank.EIGHT, Rank.TEN, Rank.JACK]
    play(game, "0:pass 2:pass 3:+JS 1:7D/JS")
    assert game.table_ranks() == [Rank.SEVEN, Rank.EIGHT, Rank.TEN, Rank.JACK]
    assert game.table == (
        (card("8C"), card("10C")),
        (card("10H"), card("JH")),
        (card("JS"), card("7D")),
    )
    # the ceiling: 5 in Durak Live's first bout (empty discard), 6 under S1/S3
    assert game.cap().cap == (5 if preset == "durak_live_todos" else 6)
    assert game.cap().room == game.cap().cap - 3
    # «Ana could now add 7♠; Bruno 7♣; Diana 8♥» — each in turn
    assert game.throw_in_turn() == [ANA]
    assert Action.throw(ANA, card("7S")) in game.legal_actions()
    play(game, "0:pass")
    assert Action.throw(BRUNO, card("7C")) in game.legal_actions()
    play(game, "2:pass")
    assert Action.throw(DIANA, card("8H")) in game.legal_actions()
    play(game, "3:+8H")
    check_invariants(game, deck)


def test_a_original_s4_example1_with_a_52_card_deck() -> None:
    """S4 ex. 1 as written is valid only with 52 cards (rules-research §3a): the trump 4♦
    beats J♠ and opens rank 4."""
    hands = [*A_HANDS]
    hands[YOU] = "10C JH 4D 9H 6H QS"
    game = Game.from_position(Rules(deck_size=52), hands, turnup="KD")
    play(game, "0:8C 1:10C/8C 0:pass 2:+10H 1:JH/10H 0:pass 2:pass 3:+JS 1:4D/JS")
    assert game.table_ranks() == [Rank.FOUR, Rank.EIGHT, Rank.TEN, Rank.JACK]


def test_a_under_vecinos_diana_only_adds_the_first_rank_s4_example1() -> None:
    """S4 ex. 1 under S4's own «Vecinos» (rules-research §3a, item 45): Bruno's 10♥ is legal
    (he is the next defender), Diana's J♠ is refused with ONLY_FIRST_RANK, her 8♥ accepted."""
    game, deck = a_game(Rules.preset("durak_live_vecinos"))
    play(game, "0:8C 1:10C/8C 0:pass 2:+10H 1:JH/10H 0:pass 2:pass")
    assert game.throw_in_turn() == [DIANA]
    refuse(
        game,
        "3:+JS",
        Reason.ONLY_FIRST_RANK,
        card=card("JS"),
        rank=Rank.EIGHT,
        privileged=[ANA, BRUNO],
    )
    play(game, "3:+8H")
    assert game.table[-1] == (card("8H"), None)
    play(game, "1:9H/8H")
    check_invariants(game, deck)


def test_a_under_s0_priority_ana_passes_once_then_bruno_then_diana() -> None:
    """rules-research §3a: «Under S0's priority, Ana must pass once, then Bruno, then Diana»
    (C11 attacker_until_pass; preset wikihow_home, whose first bout with 4 players has 5)."""
    game, deck = a_game(Rules.preset("wikihow_home"))
    play(game, "0:8C 1:10C/8C 0:pass 2:+10H 1:JH/10H")
    assert game.throw_in_turn() == [BRUNO]  # Ana's pass was final
    play(game, "2:pass 3:+JS 1:7D/JS")
    assert game.throw_in_turn() == [DIANA]
    refuse(game, "0:+7S", Reason.ALREADY_PASSED, seat=ANA)
    refuse(game, "2:+7C", Reason.ALREADY_PASSED, seat=BRUNO)
    assert game.cap().cap == 5
    play(game, "3:+8H 1:9H/8H 3:pass")
    assert of_kind(game, EventKind.BITO)[-1].n == 8
    check_invariants(game, deck)


def test_a_s3_beating_check_jack_of_hearts_or_six_of_spades_beats_nine_of_hearts() -> None:
    """S3 «Ejemplo práctico»; rules-research §3a: «with ♠ trump, J♥ or 6♠ beats 9♥»."""
    assert beats(card("JH"), card("9H"), Suit.SPADES)
    assert beats(card("6S"), card("9H"), Suit.SPADES)
    game = Game.from_position(Rules(), ["9H 9C", "JH 6S 7H"], turnup="AS", stock="KD")
    play(game, "0:9H")
    beaters = {a.card for a in game.legal_actions() if a.kind is ActionKind.BEAT}
    assert beaters == set(cards("JH 6S"))
    refuse(
        game,
        "1:7H/9H",
        Reason.CANNOT_BEAT,
        card=card("7H"),
        target=card("9H"),
        trump=Suit.SPADES,
        why="lower_rank",
    )


# ================================================================== (b) the defender-hand cap


def b_game(rules: Rules, you: str) -> tuple[Game, list[Card]]:
    """rules-research §3b: three players Ana → you → Bruno, trump ♣, stock empty."""
    game = Game.from_position(rules, ["QS QD 9D", you, "QH 10H"], trump="C")
    return game, all_cards(game)


def test_b1_the_cap_closes_at_the_defenders_hand_s4_example2_corrected() -> None:
    """S4 ex. 2 corrected, b1 (rules-research §3b): you hold A♠ 7♣. Ana Q♠, you A♠; Bruno adds
    Q♥: legal, and min(6, 2) = 2 is reached. You beat it with 7♣ and have 0 cards: the bout
    ends at once (S2 item 37), you are out and safe."""
    game, deck = b_game(Rules(), "AS 7C")
    play(game, "0:QS 1:AS/QS")
    assert game.cap() == Cap(1, 2, 6, False, 2, "at_defence_start", "total", 1)
    play(game, "0:pass 2:+QH")
    assert game.cap() == Cap(0, 2, 6, False, 2, "at_defence_start", "total", 2)
    assert not game.is_legal(Action.throw(ANA, card("QD")))
    mark = game.event_count
    play(game, "1:7C/QH")
    assert [e.kind for e in game.events_since(mark)] == [
        EventKind.BEAT,
        EventKind.BITO,
        EventKind.PLAYER_OUT,
        EventKind.BOUT_START,
    ]
    assert of_kind(game, EventKind.PLAYER_OUT) == [Event(EventKind.PLAYER_OUT, YOU, n=1)]
    assert game.active_seats() == [ANA, BRUNO]
    assert (game.attacker, game.defender) == (BRUNO, ANA)
    assert card("QD") in game.hand(ANA)
    check_invariants(game, deck)


def test_b1_ana_queen_of_diamonds_refused_because_the_cap_is_reached() -> None:
    """S4 ex. 2 corrected, b1 (rules-research §3b; S1/S3 item 48): «A Q♦ from Ana would be
    rejected: the cap is reached». The reason must be CAP_REACHED (min(6, 2) = 2 cards on the
    table), not WAIT_FOR_DEFENCE: once Q♥ is beaten the bout is over, so waiting would never
    let Q♦ in."""
    game, _ = b_game(Rules(), "AS 7C")
    play(game, "0:QS 1:AS/QS 0:pass 2:+QH")
    refuse(
        game,
        "0:+QD",
        Reason.CAP_REACHED,
        exact=False,
        cap=2,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=2,
        hand_rule="at_defence_start",
        scope="total",
        on_table=2,
    )


def test_b2_no_room_at_all_s4_example2_corrected() -> None:
    """b2 (rules-research §3b): you hold only A♠. Ana Q♠, you beat it and hold 0 cards: the
    bout is over at once and Bruno's Q♥ cannot join it; Bruno now attacks Ana."""
    game, deck = b_game(Rules(), "AS")
    play(game, "0:QS")
    assert game.cap() == Cap(0, 1, 6, False, 1, "at_defence_start", "total", 1)
    play(game, "1:AS/QS")
    assert of_kind(game, EventKind.BITO) == [Event(EventKind.BITO, YOU, tuple(cards("QS AS")), n=2)]
    assert game.phase is Phase.LEAD
    assert (game.attacker, game.defender) == (BRUNO, ANA)
    refuse(game, "2:+QH", Reason.MUST_LEAD, attacker=BRUNO)
    assert card("QH") in game.hand(BRUNO)
    check_invariants(game, deck)


def test_b2_under_s2_any_time_the_queen_of_hearts_is_refused_by_the_cap() -> None:
    """b2 under S2 (preset wikipedia: any time, unbeaten ≤ the defender's hand): while Q♠ is
    unbeaten and you hold one card, Bruno's Q♥ is refused with CAP_REACHED."""
    game, _ = b_game(Rules.preset("wikipedia"), "AS")
    play(game, "0:QS")
    refuse(
        game,
        "2:+QH",
        Reason.CAP_REACHED,
        exact=False,
        cap=1,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=1,
        hand_rule="current_hand",
        scope="unbeaten",
        on_table=1,
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_b_s4_example2_bruno_may_add_under_every_preset(preset: str) -> None:
    """S4 ex. 2; rules-research §3b: «Under every stated rule, Bruno may add Q♥» — S1/S3 (2
    ≤ 2), S2 (1 ≤ 1), S4's own «si le quedan tres cartas ... se detiene en tres»."""
    game, _ = b_game(Rules.preset(preset), "AS 7C")
    play(game, "0:QS 1:AS/QS")
    assert game.phase is Phase.BOUT
    assert game.cap().room == 1
    if BRUNO not in game.throw_in_turn():
        play(game, "0:pass")
    play(game, "2:+QH")
    assert game.table[-1] == (card("QH"), None)


def test_b_s4_example2_wrong_reading_only_under_current_hand() -> None:
    """S4 ex. 2 as written («al defensor le queda una carta ... y en la mesa ya hay una carta
    atacante. El ataque está cerrado»), reproduced only by hand_cap="current_hand" (C8, demo):
    the round ends as soon as A♠ beats Q♠; Bruno keeps Q♥; you attack next."""
    game, deck = b_game(Rules(hand_cap="current_hand"), "AS 7C")
    play(game, "0:QS")
    assert game.cap() == Cap(1, 2, 6, False, 2, "current_hand", "total", 1)
    mark = game.event_count
    play(game, "1:AS/QS")
    assert of_kind(game, EventKind.BITO, mark) == [
        Event(EventKind.BITO, YOU, tuple(cards("QS AS")), n=2)
    ]
    assert game.hand(YOU) == (card("7C"),)
    assert card("QH") in game.hand(BRUNO)
    assert (game.attacker, game.defender) == (YOU, BRUNO)
    check_invariants(game, deck)


B3_HANDS = ["6H 7D 8C 9H 10D JC", "7H 8D 9C 10H JD QC", "KH KD KC AH AD AC"]
B3_CHAIN = "0:6H 1:7H/6H 0:+7D 1:8D/7D 0:+8C 1:9C/8C 0:+9H 1:10H/9H 0:+10D"


@pytest.mark.parametrize("preset", ["durak_live_todos", "durak_live_vecinos"])
def test_b3_fifth_card_is_the_limit_while_the_discard_is_empty_s4(preset: str) -> None:
    """b3 (rules-research §3b; S4 item 50): a 6-card defender, empty discard pile: the cap is
    5, so after the fifth attack card is beaten the bout is over though Ana holds J♣."""
    game = Game.from_position(Rules.preset(preset), B3_HANDS, turnup="AS", stock="QS KS")
    deck = all_cards(game)
    play(game, B3_CHAIN)
    assert game.cap() == Cap(0, 5, 5, True, 6, "at_defence_start", "total", 5)
    mark = game.event_count
    play(game, "1:JD/10D")
    assert len(of_kind(game, EventKind.BITO, mark)) == 1
    assert card("JC") in game.hand(ANA)
    assert game.attacker == YOU
    assert game.cap().base_cap == 6  # the discard pile is no longer empty
    check_invariants(game, deck)


def test_b3_sixth_card_accepted_under_classic_s1_s3() -> None:
    """b3 (rules-research §3b): under classic (S1, S3: no first-bout limit) the sixth card is
    accepted; the defender's 6 cards are then all used and the bout ends."""
    game = Game.from_position(Rules(), B3_HANDS, turnup="AS", stock="QS KS")
    play(game, B3_CHAIN + " 1:JD/10D")
    assert game.cap() == Cap(1, 6, 6, False, 6, "at_defence_start", "total", 5)
    play(game, "0:+JC")
    assert len(game.table) == 6
    play(game, "1:QC/JC")
    assert of_kind(game, EventKind.BITO)[-1].n == 12


# ================================================================== (c) draw order


C_HANDS = [
    "8C 8D 6S 7S KC AC",  # Ana
    "JC JD QS 6D 7D 6C",  # you
    "JS 9C 10C QC 10D QD",  # Bruno
    "9S KS AS KD AD 9D",  # Diana
]


def c_game() -> tuple[Game, list[Card]]:
    """rules-research §3c: trump ♥, turn-up 9♥; stock top to bottom X = 10♠, Y = 7♣, 9♥."""
    game = Game.from_position(Rules(), C_HANDS, stock="10S 7C", turnup="9H")
    return game, all_cards(game)


def test_c1_near_empty_stock_you_draw_nothing_bruno_gets_the_turnup_s4() -> None:
    """c1 (rules-research §3c; S4 «si quedan tres cartas por robar y hay dos jugadores por
    delante de ti, tú no robas ninguna»; S3 each completes his draw): Ana plays 2 cards,
    Bruno throws in 1, Diana passes, you beat all three. Ana draws X and Y, Bruno the 9♥
    turn-up, Diana needs none, you get nothing and attack with 3 cards against 6, 6, 6."""
    game, deck = c_game()
    play(game, "0:8C 1:JC/8C 0:+8D 1:JD/8D 0:pass 2:+JS 1:QS/JS 0:pass 2:pass")
    assert game.hand_sizes == (4, 3, 5, 6)
    mark = game.event_count
    play(game, "3:pass")
    assert of_kind(game, EventKind.DRAW, mark) == [
        Event(EventKind.DRAW, ANA, tuple(cards("10S 7C")), n=2),
        Event(EventKind.DRAW, BRUNO, (card("9H"),), n=1, detail="turnup"),
    ]
    assert game.stock == ()
    assert game.hand_sizes == (6, 3, 6, 6)
    assert (game.attacker, game.defender) == (YOU, BRUNO)
    check_invariants(game, deck)


def test_c1_the_same_after_a_take_you_are_still_last_in_line() -> None:
    """c1's lesson point (rules-research §3c; S1 «primero el atacante y el defensor el
    último»): had you taken, the draw is the same; Bruno attacks next."""
    game, deck = c_game()
    play(game, "0:8C 1:JC/8C 0:+8D 1:JD/8D 0:pass 2:+JS 1:take 0:pass 2:pass")
    mark = game.event_count
    play(game, "3:pass")
    assert of_kind(game, EventKind.PICK_UP, mark)[0].cards == tuple(cards("8C 8D JS JC JD"))
    assert of_kind(game, EventKind.DRAW, mark) == [
        Event(EventKind.DRAW, ANA, tuple(cards("10S 7C")), n=2),
        Event(EventKind.DRAW, BRUNO, (card("9H"),), n=1, detail="turnup"),
    ]
    assert game.hand_sizes == (6, 9, 6, 6)
    assert (game.attacker, game.defender) == (BRUNO, DIANA)
    check_invariants(game, deck)


def test_c2_attacker_who_emptied_his_hand_draws_all_six_s2() -> None:
    """c2 (rules-research §3c; S2 «si hay 6 tarjetas dejadas en la cubierta y el atacante
    acaba de pasar su mano entera, dibujan la cubierta entera y ningunas otras dibujan»)."""
    game = Game.from_position(
        Rules(),
        ["8C 8D", "10C 10D JH 7S", "8H KD KC AH AD AC"],
        stock="6C 7C 9C 6D 7D",
        turnup="9S",
    )
    deck = all_cards(game)
    play(game, "0:8C 1:10C/8C 0:+8D 1:10D/8D")
    assert game.throw_in_turn() == [BRUNO]  # Ana has no card left
    play(game, "2:+8H 1:JH/8H")
    assert game.hand_sizes == (0, 1, 5)
    mark = game.event_count
    play(game, "2:pass")
    assert of_kind(game, EventKind.DRAW, mark) == [
        Event(EventKind.DRAW, ANA, tuple(cards("6C 7C 9C 6D 7D 9S")), n=6, detail="turnup")
    ]
    assert game.hand_sizes == (6, 1, 5)
    assert game.active_seats() == [ANA, YOU, BRUNO]
    check_invariants(game, deck)


# ================================================================== (d) the 6-of-trumps swap

SWAP_ANY = Rules(trump_swap="any")
SWAP_ACE = Rules(trump_swap="ace_only")


def _d1_seed() -> int:
    """A two-player deal whose turn-up is K♠ and where 6♠ was dealt (so its holder leads)."""
    for seed in range(20000):
        game = Game.deal(SWAP_ANY, players=2, seed=seed)
        if game.turnup is card("KS") and card("6S") in game.hand(game.attacker):
            return seed
    raise AssertionError("no such deal")


def test_d1_the_six_holder_swaps_before_leading_s0() -> None:
    """d1 (rules-research §3d; S0 item 71): turn-up K♠; A holds 6♠ and therefore attacks first;
    before leading he swaps 6♠ ↔ K♠. 6♠ is now the face-up bottom card, drawn last."""
    seed = _d1_seed()
    game = Game.deal(SWAP_ANY, players=2, seed=seed)
    a = game.attacker
    deck = all_cards(game)
    assert of_kind(game, EventKind.FIRST_ATTACKER)[0].cards == (card("6S"),)
    assert Action.swap(a) in game.legal_actions()
    refuse(game, Action.swap(1 - a), Reason.SWAP_NO_LOWEST_TRUMP, exact=False, seat=1 - a)
    size = len(game.hand(a))
    game.play(Action.swap(a))
    assert game.events[-1] == Event(EventKind.SWAP, a, (card("6S"), card("KS")))
    assert card("KS") in game.hand(a) and card("6S") not in game.hand(a)
    assert len(game.hand(a)) == size
    assert game.turnup is card("6S")
    assert game.stock[-1] is card("6S")
    assert game.trump is Suit.SPADES
    assert game.phase is Phase.LEAD and game.attacker == a
    assert Action.swap(a) not in game.legal_actions()
    check_invariants(game, deck)


def d2_game(rules: Rules) -> tuple[Game, list[Card]]:
    """d2 (rules-research §3d): turn-up A♠. A draws 6♠ from the stock in bout 1; in bout 2 B
    draws the turn-up A♠ as the last stock card; A defended, so he leads bout 3."""
    game = Game.from_position(
        rules,
        ["8C 9D 7H 9H 10H JH", "10C 8D 7D 10D JD QD"],
        stock="6S 8H",
        turnup="AS",
    )
    deck = all_cards(game)
    play(game, "0:8C 1:10C/8C 0:pass")
    assert of_kind(game, EventKind.DRAW)[0] == Event(EventKind.DRAW, 0, (card("6S"),), n=1)
    play(game, "1:8D 0:9D/8D 1:pass")
    assert of_kind(game, EventKind.DRAW)[-1] == Event(
        EventKind.DRAW, 1, (card("AS"),), n=1, detail="turnup"
    )
    assert game.stock == ()
    assert (game.attacker, game.phase) == (0, Phase.LEAD)
    return game, deck


def test_d2_late_window_the_six_holder_demands_the_drawn_turnup_s0() -> None:
    """d2 (rules-research §3d; S0 item 72, «¡me lo quitan de las manos!»): before the next
    bout starts A demands the swap: A gets A♠ and B gets 6♠."""
    game, deck = d2_game(SWAP_ANY)
    assert Action.swap(0) in game.legal_actions()
    game.play(Action.swap(0))
    assert game.events[-1] == Event(EventKind.SWAP, 0, (card("6S"), card("AS")), other=1)
    assert card("AS") in game.hand(0) and card("6S") not in game.hand(0)
    assert card("6S") in game.hand(1) and card("AS") not in game.hand(1)
    assert game.hand_sizes == (5, 6)
    check_invariants(game, deck)


def test_d2_the_late_window_closes_at_the_next_lead_s0() -> None:
    """d2 (rules-research §3d; S0 «siempre y cuando la mano siguiente no hubiera ya
    empezado»): after the next lead the demand is refused with SWAP_WINDOW_CLOSED."""
    game, _ = d2_game(SWAP_ANY)
    play(game, "0:7H")
    refuse(game, Action.swap(0), Reason.SWAP_WINDOW_CLOSED, exact=False, turnup=card("AS"))
    assert card("AS") in game.hand(1)


def test_d3_a_six_picked_up_from_the_table_cannot_be_swapped_s0() -> None:
    """d3 (rules-research §3d; S0 item 73, «Solo puede cambiarlo el jugador que lo tenía
    originalmente»): B picked up 6♠ after a take; his swap request is refused."""
    game = Game.from_position(
        SWAP_ANY,
        ["6S 8C 9C 10C JC QC", "7D 8D 10D JD QD KD"],
        stock="7H 8H 9H 10H",
        turnup="KS",
    )
    deck = all_cards(game)
    assert Action.swap(0) in game.legal_actions()
    play(game, "0:6S 1:take 0:pass")
    assert card("6S") in game.hand(1)
    assert game.stock[-1] is card("KS")  # the turn-up is still under the stock
    refuse(
        game,
        Action.swap(1),
        Reason.SWAP_NOT_ORIGINAL_HOLDER,
        exact=False,
        seat=1,
        card=card("6S"),
    )
    refuse(game, Action.swap(0), Reason.SWAP_NO_LOWEST_TRUMP, exact=False, seat=0)
    assert not [a for a in game.legal_actions() if a.kind is ActionKind.SWAP]
    check_invariants(game, deck)


def test_d4_ace_only_rejects_d1_and_accepts_d2_s0() -> None:
    """d4 (rules-research §3d; S0 item 75, «únicamente por el as»): under ace_only the d1 swap
    for K♠ is refused with SWAP_NOT_ACE, the d2 swap for A♠ accepted."""
    game = Game.deal(SWAP_ACE, players=2, seed=_d1_seed())
    a = game.attacker
    refuse(game, Action.swap(a), Reason.SWAP_NOT_ACE, exact=False, turnup=card("KS"))
    late, _ = d2_game(SWAP_ACE)
    late.play(Action.swap(0))
    assert late.events[-1] == Event(EventKind.SWAP, 0, (card("6S"), card("AS")), other=1)


def test_d_swap_disabled_by_default_s3() -> None:
    """S3 («sin ... intercambiar el seis de triunfo»; item 74): classic has no swap."""
    game = Game.from_position(Rules(), ["6S 8C", "7D 8D"], stock="7H", turnup="KS")
    refuse(game, Action.swap(0), Reason.SWAP_DISABLED, exact=False)


def test_d_swap_at_any_time_while_the_turnup_is_under_the_stock_s0() -> None:
    """S0 item 72 («en cualquier momento»): the swap is also allowed in the middle of a bout;
    it changes no card count, so whose turn it is to add stays the same."""
    game = Game.from_position(SWAP_ANY, ["6S 8C 9C", "10C 8D 7D"], stock="7H 8H 9H", turnup="QS")
    play(game, "0:8C 1:10C/8C")
    assert game.throw_in_turn() == [0]
    game.play(Action.swap(0))
    assert game.events[-1] == Event(EventKind.SWAP, 0, (card("6S"), card("QS")))
    assert game.throw_in_turn() == [0]
    assert game.table == ((card("8C"), card("10C")),)
    assert game.stock[-1] is card("6S")


def test_d_no_swap_without_a_stock_six_players_s0_gap() -> None:
    """rules-research §3d gap: with six players and 36 cards the trump card stays in the
    dealer's hand and there is no stock; default «not available without a stock»."""
    for seed in range(50):
        game = Game.deal(Rules.preset("wikihow_home"), players=6, seed=seed)
        holder = game.attacker  # the lowest trump, the 6, is always dealt with 36 cards
        if holder == game.origin["dealer"] or game.turnup is card(f"6{game.trump.letter}"):
            continue
        assert of_kind(game, EventKind.FIRST_ATTACKER)[0].cards[0].rank is Rank.SIX
        assert not [a for a in game.legal_actions() if a.kind is ActionKind.SWAP]
        refuse(game, Action.swap(holder), Reason.SWAP_WINDOW_CLOSED, exact=False)
        return
    raise AssertionError("no suitable deal")
