"""Explanations of refused moves and narration of events, in every language.

Every :class:`Reason` and every :class:`EventKind` must have words in es, en and ru: the
sample tables below must cover them all, so a new code without a message (or a sample) fails.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from durak_core import (
    PRESETS,
    Action,
    ActionKind,
    Card,
    Event,
    EventKind,
    FirstBoutCap,
    FlashReuse,
    Game,
    HandCap,
    IllegalAction,
    Misdeal,
    Rank,
    Reason,
    Rules,
    Suit,
    ThrowInTiming,
)
from tutorial.explain import EXPLAINED_REASONS, NARRATED_EVENTS, explain, narrate
from tutorial.i18n import SUPPORTED_LANGUAGES, I18n, Translator, translator

from .helpers import recording_catalog

LANGS = SUPPORTED_LANGUAGES
NAMES = ["Ana", "Bruno", "Carla", "Diana", "Eva", "Fede"]
ROOT = Path(__file__).resolve().parent.parent


def c(text: str) -> Card:
    return Card.parse(text)


def a(text: str) -> Action:
    return Action.parse(text)


# ------------------------------------------------------------------------------ samples

#: One refusal per reason, with the documented parameters (seat 1 acts unless said).
REFUSALS: dict[Reason, IllegalAction] = {
    Reason.GAME_OVER: IllegalAction(Reason.GAME_OVER, a("1:take")),
    Reason.MALFORMED_ACTION: IllegalAction(
        Reason.MALFORMED_ACTION, a("1:take"), kind=ActionKind.TAKE
    ),
    Reason.NO_SUCH_SEAT: IllegalAction(Reason.NO_SUCH_SEAT, a("7:take"), seat=7, players=3),
    Reason.PLAYER_OUT: IllegalAction(Reason.PLAYER_OUT, a("1:pass"), seat=1),
    Reason.CARD_NOT_IN_HAND: IllegalAction(
        Reason.CARD_NOT_IN_HAND, a("1:10H"), seat=1, card=c("10H")
    ),
    Reason.NOT_ATTACKER: IllegalAction(Reason.NOT_ATTACKER, a("1:10H"), seat=1, attacker=2),
    Reason.BOUT_IN_PROGRESS: IllegalAction(
        Reason.BOUT_IN_PROGRESS, a("1:10H"), attacker=1, defender=2
    ),
    Reason.MUST_LEAD: IllegalAction(Reason.MUST_LEAD, a("1:take"), attacker=2),
    Reason.NOT_DEFENDER: IllegalAction(Reason.NOT_DEFENDER, a("1:JS/10S"), seat=1, defender=2),
    Reason.ALREADY_TAKING: IllegalAction(Reason.ALREADY_TAKING, a("1:JS/10S"), defender=1),
    Reason.NO_SUCH_ATTACK_CARD: IllegalAction(
        Reason.NO_SUCH_ATTACK_CARD, a("1:JS/10S"), target=c("10S")
    ),
    Reason.ALREADY_BEATEN: IllegalAction(
        Reason.ALREADY_BEATEN, a("1:KS/10S"), target=c("10S"), by=c("JS")
    ),
    Reason.CANNOT_BEAT: IllegalAction(
        Reason.CANNOT_BEAT,
        a("1:9S/10S"),
        card=c("9S"),
        target=c("10S"),
        trump=Suit.HEARTS,
        why="lower_rank",
    ),
    Reason.NOTHING_TO_TAKE: IllegalAction(Reason.NOTHING_TO_TAKE, a("1:take")),
    Reason.DEFENDER_CANNOT_THROW: IllegalAction(Reason.DEFENDER_CANNOT_THROW, a("1:+10H"), seat=1),
    Reason.DEFENDER_CANNOT_PASS: IllegalAction(
        Reason.DEFENDER_CANNOT_PASS, a("1:pass"), seat=1, unbeaten=2
    ),
    Reason.NOT_A_NEIGHBOUR: IllegalAction(
        Reason.NOT_A_NEIGHBOUR, a("1:+10H"), seat=1, neighbours=[2, 4], active=None
    ),
    Reason.WAIT_FOR_DEFENCE: IllegalAction(Reason.WAIT_FOR_DEFENCE, a("1:+10H"), unbeaten=1),
    Reason.NOT_YOUR_PRIORITY: IllegalAction(
        Reason.NOT_YOUR_PRIORITY, a("1:+10H"), seat=1, priority=2
    ),
    Reason.ALREADY_PASSED: IllegalAction(Reason.ALREADY_PASSED, a("1:+10H"), seat=1),
    Reason.RANK_NOT_ON_TABLE: IllegalAction(
        Reason.RANK_NOT_ON_TABLE, a("1:+9H"), card=c("9H"), ranks=[Rank.EIGHT, Rank.JACK]
    ),
    Reason.ONLY_FIRST_RANK: IllegalAction(
        Reason.ONLY_FIRST_RANK, a("1:+JH"), card=c("JH"), rank=Rank.EIGHT, privileged=[2, 4]
    ),
    Reason.CAP_REACHED: IllegalAction(
        Reason.CAP_REACHED,
        a("1:+8H"),
        room=0,
        cap=6,
        base_cap=6,
        first_bout_cap=False,
        defender_hand=6,
        hand_rule="at_defence_start",
        scope="total",
        on_table=6,
    ),
    Reason.NOTHING_TO_PASS: IllegalAction(Reason.NOTHING_TO_PASS, a("1:pass"), seat=1),
    Reason.TRANSFER_DISABLED: IllegalAction(Reason.TRANSFER_DISABLED, a("1:>8H")),
    Reason.TRANSFER_AFTER_BEAT: IllegalAction(Reason.TRANSFER_AFTER_BEAT, a("1:>8H")),
    Reason.TRANSFER_RANK_MISMATCH: IllegalAction(
        Reason.TRANSFER_RANK_MISMATCH, a("1:>9H"), card=c("9H"), rank=Rank.EIGHT
    ),
    Reason.TRANSFER_NO_ROOM: IllegalAction(
        Reason.TRANSFER_NO_ROOM, a("1:>8H"), next_defender=2, next_hand=1, needed=2, base_cap=6
    ),
    Reason.PARTNER_DEFENDS: IllegalAction(Reason.PARTNER_DEFENDS, a("1:+10H"), seat=1, defender=3),
    Reason.TRANSFER_TO_PARTNER: IllegalAction(
        Reason.TRANSFER_TO_PARTNER, a("1:>9C"), seat=1, next_defender=3
    ),
    Reason.FLASH_DISABLED: IllegalAction(Reason.FLASH_DISABLED, a("1:!8H")),
    Reason.FLASH_NOT_TRUMP: IllegalAction(
        Reason.FLASH_NOT_TRUMP, a("1:!8C"), card=c("8C"), trump=Suit.HEARTS
    ),
    Reason.FLASH_ALREADY_SHOWN: IllegalAction(
        Reason.FLASH_ALREADY_SHOWN, a("1:!8H"), card=c("8H"), reuse=FlashReuse.ONCE_PER_GAME
    ),
    Reason.REDEAL_DISABLED: IllegalAction(Reason.REDEAL_DISABLED, a("1:redeal")),
    Reason.REDEAL_NOT_MISDEALT: IllegalAction(
        Reason.REDEAL_NOT_MISDEALT, a("1:redeal"), seat=1, rule=Misdeal.FOUR_OF_A_SUIT
    ),
    Reason.REDEAL_TOO_LATE: IllegalAction(Reason.REDEAL_TOO_LATE, a("1:redeal")),
    Reason.REDEAL_CAP: IllegalAction(Reason.REDEAL_CAP, a("1:redeal"), max_redeals=3),
    Reason.SWAP_DISABLED: IllegalAction(
        Reason.SWAP_DISABLED, a("1:swap"), seat=1, card=c("6H"), turnup=c("AH")
    ),
    Reason.SWAP_NO_LOWEST_TRUMP: IllegalAction(
        Reason.SWAP_NO_LOWEST_TRUMP, a("1:swap"), seat=1, card=c("6H"), turnup=c("AH")
    ),
    Reason.SWAP_NOT_ORIGINAL_HOLDER: IllegalAction(
        Reason.SWAP_NOT_ORIGINAL_HOLDER, a("1:swap"), seat=1, card=c("6H"), turnup=c("AH")
    ),
    Reason.SWAP_NOT_ACE: IllegalAction(
        Reason.SWAP_NOT_ACE, a("1:swap"), seat=1, card=c("6H"), turnup=c("KH")
    ),
    Reason.SWAP_WINDOW_CLOSED: IllegalAction(
        Reason.SWAP_WINDOW_CLOSED, a("1:swap"), seat=1, card=c("6H"), turnup=c("KH")
    ),
}

#: One event per kind (seat 1 acts, seat 2 is the other seat).
EVENTS: dict[EventKind, Event] = {
    EventKind.DEAL: Event(EventKind.DEAL, 1, n=6),
    EventKind.TRUMP: Event(EventKind.TRUMP, None, (c("10H"),), detail="stock"),
    EventKind.FIRST_ATTACKER: Event(EventKind.FIRST_ATTACKER, 1, (c("6H"),), detail="lowest_trump"),
    EventKind.BOUT_START: Event(EventKind.BOUT_START, 1, other=2),
    EventKind.LEAD: Event(EventKind.LEAD, 1, (c("8C"),)),
    EventKind.BEAT: Event(EventKind.BEAT, 1, (c("10C"), c("8C"))),
    EventKind.THROW_IN: Event(EventKind.THROW_IN, 1, (c("10H"),)),
    EventKind.TRANSFER: Event(EventKind.TRANSFER, 1, (c("8D"),), other=2),
    EventKind.TAKE: Event(EventKind.TAKE, 1),
    EventKind.PASS: Event(EventKind.PASS, 1),
    EventKind.PICK_UP: Event(EventKind.PICK_UP, 1, (c("8C"), c("10C"), c("JH")), n=3),
    EventKind.BITO: Event(EventKind.BITO, 1, (c("8C"), c("10C")), n=2),
    EventKind.DRAW: Event(EventKind.DRAW, 1, (c("7S"), c("10H")), n=2, detail="turnup"),
    EventKind.SWAP: Event(EventKind.SWAP, 1, (c("6H"), c("AH")), other=None),
    EventKind.PLAYER_OUT: Event(EventKind.PLAYER_OUT, 1, n=1),
    EventKind.GAME_OVER: Event(EventKind.GAME_OVER, 1, detail="durak"),
    EventKind.FLASH: Event(EventKind.FLASH, 1, (c("8H"),), other=2),
    EventKind.MISDEAL: Event(EventKind.MISDEAL, 1, (c("6H"), c("9D"), c("QH"), c("AD")), n=1),
    EventKind.REPETITION: Event(EventKind.REPETITION, 0, other=3, n=2),
}

#: Parameter variants that choose another message.
REFUSAL_VARIANTS: list[IllegalAction] = [
    *(
        IllegalAction(
            Reason.CANNOT_BEAT,
            a("1:9S/10S"),
            card=c("9S"),
            target=c("10S"),
            trump=Suit.HEARTS,
            why=why,
        )
        for why in ("wrong_suit", "trump_needs_higher_trump", "something_new")
    ),
    IllegalAction(Reason.NOT_DEFENDER, a("1:take"), seat=1, defender=2),
    IllegalAction(Reason.NOT_DEFENDER, a("1:>8H"), seat=1, defender=2),
    IllegalAction(Reason.NOT_A_NEIGHBOUR, a("1:+10H"), seat=1, neighbours=[2, 4], active=5),
    IllegalAction(Reason.NOT_YOUR_PRIORITY, a("1:+10H"), seat=1, priority=None),
    *(
        IllegalAction(
            Reason.CAP_REACHED,
            a("1:+8H"),
            room=0,
            cap=cap,
            base_cap=base,
            first_bout_cap=first,
            defender_hand=hand,
            hand_rule=rule,
            scope=scope,
            on_table=cap,
        )
        for cap, base, first, hand, rule, scope in [
            (2, 6, False, 2, "at_defence_start", "total"),
            (1, 6, False, 1, "current_hand", "total"),
            (5, 5, True, 6, "at_defence_start", "total"),
            (3, 6, False, 3, "current_hand", "unbeaten"),
            (6, 6, False, 6, "current_hand", "unbeaten"),
        ]
    ),
    IllegalAction(
        Reason.TRANSFER_NO_ROOM, a("1:>8H"), next_defender=2, next_hand=8, needed=7, base_cap=6
    ),
    IllegalAction(Reason.SWAP_WINDOW_CLOSED, a("1:swap"), seat=1, card=c("6H"), turnup=None),
    IllegalAction(Reason.SWAP_WINDOW_CLOSED, a("1:swap"), seat=1, card=c("6H"), turnup=c("6H")),
    IllegalAction(Reason.NOT_DEFENDER, a("1:!8H"), seat=1, defender=2),
    IllegalAction(Reason.PARTNER_DEFENDS, a("1:pass"), seat=1, defender=2),
    IllegalAction(Reason.TRANSFER_TO_PARTNER, a("0:>9C"), seat=0, next_defender=2),
    IllegalAction(
        Reason.FLASH_ALREADY_SHOWN, a("1:!8H"), card=c("8H"), reuse=FlashReuse.ONCE_PER_BOUT
    ),
    IllegalAction(Reason.REDEAL_NOT_MISDEALT, a("1:redeal"), seat=1, rule=Misdeal.FIVE_OF_A_SUIT),
    IllegalAction(Reason.REDEAL_CAP, a("1:redeal"), max_redeals=1),
]

EVENT_VARIANTS: list[Event] = [
    Event(EventKind.TRUMP, 1, (c("10H"),), detail="dealer"),
    Event(EventKind.TRUMP, None, (), detail="S"),
    Event(EventKind.FIRST_ATTACKER, 1, (), detail="random"),
    Event(EventKind.FIRST_ATTACKER, 1, (), detail="left_of_dealer"),
    Event(EventKind.FIRST_ATTACKER, 1, (), detail="something_new"),
    Event(EventKind.FIRST_ATTACKER, 1, (), detail="left_of_durak"),
    Event(EventKind.FIRST_ATTACKER, 1, (), detail="durak_attacked_first"),
    Event(EventKind.MISDEAL, 1, (c("6H"), c("9D"), c("QH"), c("AD")), n=1, detail="request"),
    Event(EventKind.DRAW, 1, (c("7S"),), n=1),
    Event(EventKind.DRAW, 1, (), n=3),
    Event(EventKind.SWAP, 1, (c("6H"), c("AH")), other=2),
    Event(EventKind.GAME_OVER, None, detail="draw"),
    Event(EventKind.GAME_OVER, 1, detail="team"),
    Event(EventKind.GAME_OVER, 1, detail="previous_durak"),
    Event(EventKind.GAME_OVER, None, n=3, detail="repetition"),
    Event(EventKind.REPETITION, 1, other=3, n=3),  # the limit: game_over follows
    Event(EventKind.REPETITION, 1, other=5, n=2),
]

ALL_REFUSALS = [*REFUSALS.values(), *REFUSAL_VARIANTS]
ALL_EVENTS = [*EVENTS.values(), *EVENT_VARIANTS]

PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


# ------------------------------------------------------------------------------ coverage


def test_every_reason_has_an_explanation() -> None:
    missing = set(Reason) - EXPLAINED_REASONS
    assert not missing, f"no explanation for {sorted(missing)} (add one in tutorial/explain.py)"
    assert set(REFUSALS) == set(Reason), "add a sample refusal for each new reason"


def test_every_event_has_a_narration() -> None:
    missing = set(EventKind) - NARRATED_EVENTS
    assert not missing, f"no narration for {sorted(missing)} (add one in tutorial/explain.py)"
    assert set(EVENTS) == set(EventKind), "add a sample event for each new kind"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("you", [None, 1, 2, 0])
def test_every_refusal_reads_well_in_every_language(lang: str, you: int | None) -> None:
    tr = translator(lang)
    for refusal in ALL_REFUSALS:
        text = explain(refusal, tr, players=NAMES, you=you)
        assert text[:1].isupper() or text[:1].isdigit() or text[:1] == "¡", text
        assert text.rstrip()[-1] in ".!", text
        assert not PLACEHOLDER.search(text), text
        assert "?" not in text.replace("¿", ""), f"missing parameter in {text!r}"
        if lang != "en":
            assert text != explain(refusal, translator("en"), players=NAMES, you=you)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("you", [None, 1, 2])
def test_every_event_reads_well_in_every_language(lang: str, you: int | None) -> None:
    tr = translator(lang)
    for event in ALL_EVENTS:
        text = narrate(event, tr, players=NAMES, you=you)
        assert text and (text[0].isupper() or text[0] == "¡"), text
        assert text.rstrip()[-1] in ".!", text
        assert not PLACEHOLDER.search(text), text
        if lang != "en":
            assert text != narrate(event, translator("en"), players=NAMES, you=you)


def test_learner_is_spoken_to_and_others_are_named() -> None:
    refusal = REFUSALS[Reason.CARD_NOT_IN_HAND]
    assert explain(refusal, translator("en"), players=NAMES, you=1) == (
        "You don't have 10♥ in your hand."
    )
    assert explain(refusal, translator("en"), players=NAMES, you=0) == (
        "Bruno doesn't have 10♥ in hand."
    )
    assert explain(refusal, translator("es"), players=NAMES, you=1) == (
        "No tienes el 10♥ en la mano."
    )
    assert explain(refusal, translator("ru"), players=NAMES, you=1) == "У тебя на руках нет 10♥."
    # without names, seats get default names (numbered from 1)
    assert explain(refusal, translator("es")) == "Jugador 2 no tiene el 10♥ en la mano."
    assert explain(refusal, translator("ru")).startswith("Игрок 2 ")


def test_russian_names_stay_in_the_nominative() -> None:
    ru = translator("ru")
    refusal = REFUSALS[Reason.NOT_YOUR_PRIORITY]  # seat 1 tried, seat 2 has the turn
    assert explain(refusal, ru, players=["Ана", "Борис", "Вера"], you=0) == (
        "Борис пока не может подкидывать: очередь ещё не пришла. "
        "Сейчас подкидывает или пасует Вера."
    )
    assert explain(refusal, ru, players=["Ана", "Борис", "Вера"], you=1) == (
        "Твоя очередь подкидывать ещё не пришла. Сейчас подкидывает или пасует Вера."
    )
    assert explain(refusal, ru, players=["Ана", "Борис", "Вера"], you=2) == (
        "Борис пока не может подкидывать: очередь ещё не пришла. "
        "Сейчас подкидываешь или пасуешь ты."
    )


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "ещё 1 карта не побита. Побей её"),
        (2, "ещё 2 карты не побиты. Побей их"),
        (5, "ещё 5 карт не побито. Побей их"),
        (21, "ещё 21 карта не побита. Побей её"),
    ],
)
def test_russian_plural_agreement_in_explanations(n: int, expected: str) -> None:
    refusal = IllegalAction(Reason.DEFENDER_CANNOT_PASS, a("1:pass"), seat=1, unbeaten=n)
    assert expected in explain(refusal, translator("ru"), you=1)


def test_spanish_and_english_plurals_in_explanations() -> None:
    one = IllegalAction(Reason.WAIT_FOR_DEFENCE, a("1:+10H"), unbeaten=1)
    two = IllegalAction(Reason.WAIT_FOR_DEFENCE, a("1:+10H"), unbeaten=2)
    assert explain(one, translator("es")).endswith("aún queda 1 carta sin matar.")
    assert explain(two, translator("es")).endswith("aún quedan 2 cartas sin matar.")
    assert explain(one, translator("en")).endswith("and 1 card is still unbeaten.")
    assert explain(two, translator("en")).endswith("and 2 cards are still unbeaten.")


def test_draws_of_other_players_never_name_their_cards() -> None:
    secret = Event(EventKind.DRAW, 2, (c("7S"), c("QH")), n=2)
    for lang in LANGS:
        text = narrate(secret, translator(lang), players=NAMES, you=0)
        assert "7♠" not in text and "Q♥" not in text and "Д♥" not in text
        own = narrate(secret, translator(lang), players=NAMES, you=2)
        assert "7♠" in own


def test_unknown_codes_fall_back_without_crashing() -> None:
    odd = IllegalAction(Reason.GAME_OVER, None)
    odd.reason = "from_the_future"  # type: ignore[assignment]
    assert explain(odd, translator("es")) == "Ahora no se puede hacer esta jugada."
    event = Event("from_the_future", 1)  # type: ignore[arg-type]
    assert narrate(event, translator("es")) == ""


# ------------------------------------------------------------------------------ real refusals


def _refusal(game: Game, action: str) -> IllegalAction:
    refusal = game.why_illegal(Action.parse(action))
    assert refusal is not None, f"{action} is legal"
    with pytest.raises(IllegalAction):
        game.play(action)
    return refusal


def _say(refusal: IllegalAction, lang: str, *, you: int | None = 0, game: Game | None = None):
    return explain(
        refusal,
        translator(lang),
        players=NAMES,
        you=you,
        rules=game.rules if game is not None else None,
    )


def test_rank_not_on_table_as_a_teacher_says_it() -> None:
    game = Game.from_position(
        hands=["9D AS KS", "7C 7H 7S", "QH 9S 6H"],
        trump="D",
        table=[("8C", "10C"), ("10H", "JH")],
    )
    refusal = _refusal(game, "0:+9D")
    assert refusal.reason is Reason.RANK_NOT_ON_TABLE
    assert _say(refusal, "es") == (
        "Solo puedes echar cartas de un valor que ya esté en la mesa: 8, 10 o J."
    )
    assert _say(refusal, "ru") == (
        "Подкидывать можно только карты тех достоинств, что уже лежат на столе: 8, 10 или В."
    )
    assert _say(refusal, "en") == (
        "You can only add cards of a rank that is already on the table: 8, 10, or J."
    )
    assert _say(refusal, "es", you=1) == (
        "Ana solo puede echar cartas de un valor que ya esté en la mesa: 8, 10 o J."
    )


def test_cannot_beat_for_each_cause() -> None:
    game = Game.from_position(
        hands=["9D AS KS", "7C 9H AC AD"], trump="D", table=[("8C", None)], attacker=0
    )
    lower = _refusal(game, "1:7C/8C")
    suit = _refusal(game, "1:9H/8C")
    assert lower.params["why"] == "lower_rank" and suit.params["why"] == "wrong_suit"
    assert _say(lower, "es", you=1) == (
        "El 7♣ no mata al 8♣: dentro del mismo palo solo mata una carta más alta."
    )
    assert _say(suit, "ru", you=1) == (
        "9♥ не бьёт 8♣: нужна старшая карта той же масти (♣) или козырь (♦)."
    )
    trump_game = Game.from_position(hands=["9S AS", "7C AC"], trump="D", table=[("8D", None)])
    trump = _refusal(trump_game, "1:AC/8D")
    assert trump.params["why"] == "trump_needs_higher_trump"
    assert _say(trump, "ru", you=1) == (
        "Т♣ не бьёт 8♦: 8♦ — козырь, а козырь бьётся только старшим козырем."
    )
    assert _say(trump, "en", you=1) == (
        "A♣ doesn't beat 8♦: 8♦ is a trump, and only a higher trump beats it."
    )


# Cards may be added while some are unbeaten (S2's timing), so the full table is the only
# reason a throw-in is refused below, whatever else is checked first.
ANY_TIME = Rules(throw_in_timing=ThrowInTiming.ANY_TIME)


def test_cap_of_the_defenders_hand_at_the_start_of_the_defence() -> None:
    game = Game.from_position(
        ANY_TIME, hands=["KS 7C", "9H", "QH 8C"], trump="D", table=[("QS", "AS"), ("QD", None)]
    )
    refusal = _refusal(game, "2:+QH")
    assert refusal.reason is Reason.CAP_REACHED
    assert refusal.params["cap"] == 2 and refusal.params["hand_rule"] == "at_defence_start"
    assert "у отбивающегося было всего 2 карты" in _say(refusal, "ru")
    assert "el defensor tenía solo 2 cartas al empezar a defenderse" in _say(refusal, "es")
    assert "the defender had only 2 cards when the defence began" in _say(refusal, "en")


def test_cap_of_the_defenders_current_hand() -> None:
    rules = ANY_TIME.replace(hand_cap=HandCap.CURRENT_HAND)
    game = Game.from_position(
        rules, hands=["KS 7C", "9H", "QH 8C"], trump="D", table=[("QS", None)]
    )
    refusal = _refusal(game, "2:+QH")
    assert refusal.reason is Reason.CAP_REACHED and refusal.params["hand_rule"] == "current_hand"
    assert _say(refusal, "ru").startswith(
        "Больше подкидывать нельзя: у отбивающегося на руках всего 1 карта"
    )
    assert "el defensor solo tiene 1 carta" in _say(refusal, "es")


def test_cap_of_six_and_the_first_bout_cap() -> None:
    table = [("6C", "7C"), ("6H", "7H"), ("6S", "7S"), ("7D", "8D"), ("8C", "9C"), ("9H", None)]
    hands = ["8H 9S", "JC QC KC AC JS", "8S 9D"]
    game = Game.from_position(ANY_TIME, hands=hands, trump="D", table=table)
    refusal = _refusal(game, "0:+8H")
    assert refusal.reason is Reason.CAP_REACHED and refusal.params["cap"] == 6
    assert _say(refusal, "ru").endswith("в одном ходу может быть не больше 6 атакующих карт.")
    assert _say(refusal, "es").endswith("una ronda admite como máximo 6 cartas de ataque.")

    rules = Rules.preset("durak_live_todos").replace(throw_in_timing=ThrowInTiming.ANY_TIME)
    assert rules.first_bout_cap is FirstBoutCap.UNTIL_FIRST_DISCARD
    game = Game.from_position(rules, hands=hands, trump="D", table=[*table[:4], ("8C", None)])
    refusal = _refusal(game, "0:+8H")
    assert refusal.params["cap"] == 5 and refusal.params["first_bout_cap"]
    assert "пока не было ни одного отбоя" in _say(refusal, "ru", game=game)
    assert "5 атакующих карт" in _say(refusal, "ru", game=game)
    assert "hasta que se mate una ronda por primera vez" in _say(refusal, "es", game=game)
    # without the rules, the wording stays true but vaguer
    assert "пока что в одном ходу может быть не больше 5" in _say(refusal, "ru")


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ([("8C", None)], "ещё 1 карта не побита"),
        ([("8C", None), ("8H", None)], "ещё 2 карты не побиты"),
    ],
)
def test_defender_cannot_pass(table: list[tuple[str, str | None]], expected: str) -> None:
    rules = Rules.preset("wikipedia")  # cards may be added before the defence
    game = Game.from_position(rules, hands=["8S 9S", "JC QC KC"], trump="D", table=table)
    refusal = _refusal(game, "1:pass")
    assert refusal.reason is Reason.DEFENDER_CANNOT_PASS
    assert expected in _say(refusal, "ru", you=1)


def test_transfer_without_room() -> None:
    rules = Rules(transfer=True)
    game = Game.from_position(
        rules, hands=["7S KS", "8H 9S", "6H"], trump="D", table=[("8C", None)]
    )
    refusal = _refusal(game, "1:>8H")
    assert refusal.reason is Reason.TRANSFER_NO_ROOM
    assert _say(refusal, "ru", you=0) == (
        "Перевести нельзя: атакующих карт стало бы 2, а Carla держит всего 1 карту."
    )
    assert _say(refusal, "ru", you=2).endswith("а у тебя всего 1 карта.")
    assert _say(refusal, "es", you=0) == (
        "No se puede traspasar el ataque: habría 2 cartas de ataque, pero Carla solo tiene 1 carta."
    )


def test_priority_and_neighbours() -> None:
    game = Game.from_position(
        hands=["8H 9S", "JC QC KC", "8S 9D"], trump="D", table=[("8C", "10C")]
    )
    refusal = _refusal(game, "2:+8S")
    assert refusal.reason is Reason.NOT_YOUR_PRIORITY and refusal.params["priority"] == 0
    assert _say(refusal, "ru", you=2) == (
        "Твоя очередь подкидывать ещё не пришла. Сейчас подкидывает или пасует Ana."
    )
    assert _say(refusal, "es", you=0) == (
        "Todavía no le toca a Carla echar cartas. Ahora te toca a ti echar una carta o pasar."
    )

    rules = Rules.preset("dame_karty")
    hands = ["8H 9S", "JC QC KC", "8S 9D", "8D 10S", "7H 7D"]
    game = Game.from_position(rules, hands=hands, trump="D", table=[("8C", "10C")])
    refusal = _refusal(game, "3:+8D")
    assert refusal.reason is Reason.NOT_A_NEIGHBOUR
    assert _say(refusal, "ru", you=0) == (
        "Diana не может подкидывать в этом ходу. Пока в игре 5 игроков, подкидывают "
        "только соседи отбивающегося: ты и Carla."
    )
    assert _say(refusal, "es", you=3) == (
        "No puedes echar cartas en esta ronda. Con 5 jugadores todavía en la partida, "
        "solo echan cartas los vecinos del defensor: Ana y Carla."
    )


def test_roles_in_refusals() -> None:
    game = Game.from_position(hands=["8H 9S", "JC QC KC"], trump="D", attacker=0)
    must_lead = _refusal(game, "1:take")
    assert must_lead.reason is Reason.MUST_LEAD
    assert _say(must_lead, "es", you=1) == (
        "La mesa todavía está vacía: primero tiene que salir Ana con una carta."
    )
    assert _say(must_lead, "ru", you=0) == (
        "Стол пока пуст: ходишь ты, так что начни ход любой картой."
    )
    beaten = Game.from_position(
        hands=["8H 9S", "JC QC KC"], trump="D", table=[("8C", "10C"), ("10S", None)]
    )
    already = _refusal(beaten, "1:JC/8C")
    assert already.reason is Reason.ALREADY_BEATEN
    assert _say(already, "ru", you=1) == "Карта 8♣ уже побита: на ней лежит 10♣."
    assert _say(already, "es", you=1) == "El 8♣ ya está matado: encima tiene el 10♣."


def test_not_defender_names_the_defender() -> None:
    game = Game.from_position(
        hands=["8H 9S 10D", "JC QC KC", "AC"], trump="D", table=[("8C", None)]
    )
    refusal = _refusal(game, "0:10D/8C")
    assert refusal.reason is Reason.NOT_DEFENDER
    assert _say(refusal, "es", you=0) == (
        "Solo el defensor mata las cartas de ataque. Ahora se defiende Bruno."
    )
    assert _say(refusal, "ru", you=0) == (
        "Бить атакующие карты может только тот, кто отбивается. Сейчас отбивается Bruno."
    )


def test_random_play_every_refusal_and_event_in_every_language() -> None:
    """Seeded games of every preset: explain refused moves and narrate every event."""
    rng = random.Random(5)
    # S2's options too: pairs, Flash and the misdeal (mandatory and on request)
    extra = [
        ("pairs", Rules.preset("wikipedia").replace(teams="2v2", transfer=True, flash=True), 4),
        ("misdeal", Rules(misdeal="five_of_a_suit", misdeal_mode="on_request"), 2),
        ("redealt", Rules(misdeal="four_of_a_suit", teams="2v2"), 4),
    ]
    for name, rules, players in [*((n, Rules.preset(n), 3) for n in sorted(PRESETS)), *extra]:
        if name == "matsuri":
            rules = rules.replace(transfer=True)
        game = Game.deal(rules, players=players, seed=rng.randrange(1000))
        steps = 0
        while game.outcome is None and steps < 300:
            if steps % 7 == 0:
                seat = rng.randrange(game.players)
                hand = game.hand(seat)
                tries = [Action(ActionKind.TAKE, seat), Action(ActionKind.PASS, seat)]
                tries += [Action(ActionKind.SWAP, seat), Action(ActionKind.REDEAL, seat)]
                for card in hand[:3]:
                    tries += [Action(ActionKind.FLASH, seat, card)]
                    tries += [Action(ActionKind.LEAD, seat, card)]
                    tries += [Action(ActionKind.THROW, seat, card)]
                    tries += [Action(ActionKind.TRANSFER, seat, card)]
                    for attack, _ in game.table:
                        tries += [Action(ActionKind.BEAT, seat, card, attack)]
                for action in tries:
                    refusal = game.why_illegal(action)
                    if refusal is None:
                        continue
                    for lang in LANGS:
                        text = explain(refusal, translator(lang), you=0, rules=game.rules)
                        assert text and not PLACEHOLDER.search(text), (refusal, text)
            game.play(rng.choice(list(game.legal_actions())))
            steps += 1
        for event in game.events:
            for lang in LANGS:
                text = narrate(event, translator(lang), you=1)
                assert text and not PLACEHOLDER.search(text), (event, text)


# ------------------------------------------------------------------------------ switching


def test_switching_language_changes_explanations_and_notifies() -> None:
    state = I18n("en")
    refusal = REFUSALS[Reason.RANK_NOT_ON_TABLE]
    shown: list[str] = []

    def redraw(_: str) -> None:
        shown.append(explain(refusal, state, players=NAMES, you=1))

    state.on_change(redraw)
    before = explain(refusal, state, players=NAMES, you=1)
    assert before == "You can only add cards of a rank that is already on the table: 8 or J."
    state.set_language("ru")
    state.set_language("es")
    assert shown == [
        "Подкидывать можно только карты тех достоинств, что уже лежат на столе: 8 или В.",
        "Solo puedes echar cartas de un valor que ya esté en la mesa: 8 o J.",
    ]
    assert narrate(EVENTS[EventKind.LEAD], state, players=NAMES, you=1) == ("Atacas con el 8♣.")


# ------------------------------------------------------------------------------ no hard-coded text


def _upper_outside_braces(text: str) -> str:
    return re.sub(r"([^{}]+)(?=\{|$)|(?<=\})([^{}]+)", lambda m: m.group(0).upper(), text)


def _shouting_translator() -> Translator:
    """A pseudo-language whose catalog is the English one in upper case (placeholders kept)."""
    with (ROOT / "locales" / "en" / "LC_MESSAGES" / "messages.po").open("rb") as fp:
        catalog = read_po(fp, locale="en")
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(_upper_outside_braces(s) for s in message.id)
        else:
            message.string = _upper_outside_braces(message.id)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translator("en", Translations(buffer))


def test_every_word_comes_from_the_catalog() -> None:
    shouting = _shouting_translator()
    assert _upper_outside_braces("You lead {card}.") == "YOU LEAD {card}."
    names = [n.upper() for n in NAMES]
    list_words = re.compile(r",? (and|or) ")
    for you in (None, 1):
        for refusal in ALL_REFUSALS:
            text = list_words.sub(" ", explain(refusal, shouting, players=names, you=you))
            assert text == text.upper(), text
        for event in ALL_EVENTS:
            text = list_words.sub(" ", narrate(event, shouting, players=names, you=you))
            assert text == text.upper(), text


def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
    self.used.add((context, singular))
    return super().npgettext(context, singular, plural, n)


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_message_is_rendered_by_some_sample(lang: str) -> None:
    """Each message of explain.py and names.py is looked up and formatted at least once by the
    samples above (so a placeholder typo in a rarely used branch cannot hide), and nothing is
    left unused. (Lesson, controller and page texts are rendered by their own tests.)"""
    from durak_core import PRESETS
    from durak_core import Suit as _Suit
    from tutorial.names import (
        SOURCES,
        Role,
        Term,
        action_label,
        card_count,
        card_full,
        card_short,
        player_name,
        preset_description,
        preset_name,
        rank_name,
        role_name,
        source_name,
        suit_name,
        term,
        you_label,
    )

    catalog, recording = recording_catalog(lang)
    tr = Translator(lang, recording)

    first_bout = REFUSALS[Reason.CAP_REACHED].params | {"cap": 5, "first_bout_cap": True}
    first = IllegalAction(Reason.CAP_REACHED, a("1:+8H"), **first_bout)
    for you in (None, 1, 2):
        for refusal in ALL_REFUSALS:
            explain(refusal, tr, players=NAMES, you=you)
        for kind in FirstBoutCap:
            explain(first, tr, players=NAMES, you=you, rules=Rules(first_bout_cap=kind))
        for event in ALL_EVENTS:
            narrate(event, tr, players=NAMES, you=you)
    for rank in Rank:
        rank_name(rank, tr)
        card_full(Card(rank, _Suit.SPADES), tr)
        card_short(Card(rank, _Suit.SPADES), tr)
    for suit in _Suit:
        suit_name(suit, tr)
        card_full(Card(Rank.ACE, suit), tr)
    for role in Role:
        role_name(role, tr)
    for key in Term:
        term(key, tr)
    for action_kind in ActionKind:
        action_label(action_kind, tr)
    action_label(ActionKind.PASS, tr, taking=True)
    player_name(0, tr)
    you_label(tr)
    card_count(3, tr)
    for preset in PRESETS:
        preset_name(preset, tr)
        preset_description(preset, tr)
    for code in SOURCES:
        source_name(code, tr)
    unknown_reason = IllegalAction(Reason.GAME_OVER, None)
    unknown_reason.reason = "from_the_future"  # type: ignore[assignment]
    explain(unknown_reason, tr)

    sampled = {"tutorial/explain.py", "tutorial/names.py"}
    everything = {
        (m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
        for m in catalog
        if m.id and any(path in sampled for path, _ in m.locations)
    }
    unused = everything - recording.used
    assert not unused, f"never rendered by a sample: {sorted(unused, key=str)}"
    known = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog if m.id}
    unknown = recording.used - known
    assert not unknown, f"looked up but not in the catalog: {sorted(unknown, key=str)}"
