"""Words for the engine's reason codes and events, in the learner's language.

:func:`explain` says why a move was refused (every :class:`~durak_core.Reason`, with its
parameters filled in); :func:`narrate` tells what happened (every
:class:`~durak_core.EventKind`). Both take the translator to speak with, the players' names
(already localized, indexed by seat) and the learner's own seat, ``you``::

    >>> from durak_core import Action, Game
    >>> from tutorial.i18n import translator
    >>> game = Game.from_position(hands=["9D QS", "JH KH"], trump="D", table=[("8C", "10C")])
    >>> refusal = game.why_illegal(Action.parse("0:+9D"))
    >>> explain(refusal, translator("es"), players=["Ana", "Bruno"], you=0)
    'Solo puedes echar cartas de un valor que ya esté en la mesa: 8 o 10.'
    >>> explain(refusal, translator("ru"), players=["Ана", "Борис"], you=1)
    'Ана может подкидывать только карты тех достоинств, что уже лежат на столе: 8 или 10.'

The learner is spoken to in the second person, informally ("You…", "Tú…", «Ты…»); anyone else
in the third person, by name. A name that is a :class:`~tutorial.people.PersonName` (the pages
pass them) declines where a translation asks for a case, «Перевести на Диану нельзя»; a plain
string is taken as a name nobody translated and declines through a noun, «на игрока Маша».
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from durak_core import (
    ActionKind,
    Card,
    Event,
    EventKind,
    FirstBoutCap,
    IllegalAction,
    Rank,
    Reason,
    Rules,
    Suit,
)

from .i18n import Gettext
from .names import card_short, cards_list, player_name, rank_symbol, ranks_list, suit_name
from .people import as_person

__all__ = ["EXPLAINED_REASONS", "NARRATED_EVENTS", "explain", "narrate"]


class _Speaker:
    """Who is who, in the words of one language."""

    __slots__ = ("players", "rules", "tr", "you")

    def __init__(
        self,
        tr: Gettext,
        players: Sequence[str] | None,
        you: int | None,
        rules: Rules | None = None,
    ) -> None:
        self.tr = tr
        self.players = players
        self.you = you
        self.rules = rules

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and seat == self.you

    def name(self, seat: int | None) -> str:
        """A seat's name, or the default "Player N" when none was given; a name given as plain
        text declines as a typed one (:func:`~tutorial.people.as_person`)."""
        if seat is None:
            return "?"
        if self.players is not None and 0 <= seat < len(self.players):
            return as_person(self.players[seat], self.tr)
        return player_name(seat, self.tr)

    def names(self, seats: Sequence[int]) -> str:
        """Several seats joined with "and"; the learner appears as "you"."""
        tr = self.tr
        # TRANSLATORS: the learner inside a list of players: "Ana and you", «Ана и ты».
        words = [
            tr.pgettext("in a list of players", "you") if self.is_you(s) else self.name(s)
            for s in seats
        ]
        return tr.format_list(words)

    def card(self, card: Card | None) -> str:
        return card_short(card, self.tr) if card is not None else "?"

    def rank(self, rank: Rank) -> str:
        return rank_symbol(rank, self.tr)

    def join(self, first: str, second: str) -> str:
        # TRANSLATORS: how two sentences follow each other (a space in most languages).
        return self.tr.pgettext(
            "joining two sentences", "{first} {second}", first=first, second=second
        )

    # --------------------------------------------------------- sentences reused by several messages

    def attacking_now(self, seat: int | None) -> str:
        if self.is_you(seat):
            return self.tr.gettext("You are attacking now.")
        return self.tr.gettext("{attacker} is attacking now.", attacker=self.name(seat))

    def defending_now(self, seat: int | None) -> str:
        if self.is_you(seat):
            return self.tr.gettext("You are defending now.")
        return self.tr.gettext("{defender} is defending now.", defender=self.name(seat))

    def adding_now(self, seat: int | None) -> str:
        if self.is_you(seat):
            return self.tr.gettext("Now you may add a card or pass.")
        return self.tr.gettext("Now {player} may add a card or pass.", player=self.name(seat))

    def bout_roles(self, attacker: int | None, defender: int | None) -> str:
        tr = self.tr
        if self.is_you(attacker):
            return tr.gettext("You attack; {defender} defends.", defender=self.name(defender))
        if self.is_you(defender):
            return tr.gettext("{attacker} attacks; you defend.", attacker=self.name(attacker))
        return tr.gettext(
            "{attacker} attacks; {defender} defends.",
            attacker=self.name(attacker),
            defender=self.name(defender),
        )


# ===================================================================================== refusals

_Explainer = Callable[[_Speaker, IllegalAction], str]
_REASONS: dict[Reason, _Explainer] = {}


def _reason(reason: Reason) -> Callable[[_Explainer], _Explainer]:
    def register(func: _Explainer) -> _Explainer:
        _REASONS[reason] = func
        return func

    return register


def _actor(refusal: IllegalAction) -> int | None:
    seat = refusal.params.get("seat")
    if seat is None and refusal.action is not None:
        seat = refusal.action.seat
    return seat if isinstance(seat, int) else None


def _p(refusal: IllegalAction, name: str, default: Any = None) -> Any:
    return refusal.params.get(name, default)


@_reason(Reason.GAME_OVER)
def _game_over(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext("The game is over: no more moves can be made.")


@_reason(Reason.MALFORMED_ACTION)
def _malformed_action(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext("This move can't be made: it is incomplete or of an unknown kind.")


@_reason(Reason.NO_SUCH_SEAT)
def _no_such_seat(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.ngettext(
        "There is no such player: this game has {n} player.",
        "There is no such player: this game has {n} players.",
        int(_p(r, "players", 0)),
    )


@_reason(Reason.PLAYER_OUT)
def _player_out(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    if sp.is_you(seat):
        return sp.tr.gettext("You are already out of the game: you have no cards left to play.")
    return sp.tr.gettext(
        "{player} is already out of the game and plays no more.", player=sp.name(seat)
    )


@_reason(Reason.CARD_NOT_IN_HAND)
def _card_not_in_hand(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    card = sp.card(_p(r, "card"))
    if sp.is_you(seat):
        return sp.tr.gettext("You don't have {card} in your hand.", card=card)
    return sp.tr.gettext("{player} doesn't have {card} in hand.", player=sp.name(seat), card=card)


@_reason(Reason.NOT_ATTACKER)
def _not_attacker(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    if sp.is_you(seat):
        main = sp.tr.gettext("You can't open this bout: the attacker plays the first card.")
    else:
        main = sp.tr.gettext(
            "{player} can't open this bout: the attacker plays the first card.",
            player=sp.name(seat),
        )
    return sp.join(main, sp.attacking_now(_p(r, "attacker")))


@_reason(Reason.BOUT_IN_PROGRESS)
def _bout_in_progress(sp: _Speaker, r: IllegalAction) -> str:
    main = sp.tr.gettext(
        "This bout is already under way: cards can only be added to it now, not led."
    )
    return sp.join(main, sp.bout_roles(_p(r, "attacker"), _p(r, "defender")))


@_reason(Reason.MUST_LEAD)
def _must_lead(sp: _Speaker, r: IllegalAction) -> str:
    attacker = _p(r, "attacker")
    if sp.is_you(attacker):
        return sp.tr.gettext(
            "The table is still empty: you are attacking, so start the bout with any card."
        )
    return sp.tr.gettext(
        "The table is still empty: first {attacker} starts the bout with a card.",
        attacker=sp.name(attacker),
    )


@_reason(Reason.NOT_DEFENDER)
def _not_defender(sp: _Speaker, r: IllegalAction) -> str:
    kind = r.action.kind if r.action is not None else None
    if kind is ActionKind.TAKE:
        main = sp.tr.gettext("Only the defender can take the cards.")
    elif kind is ActionKind.TRANSFER or kind is ActionKind.FLASH:
        main = sp.tr.gettext("Only the defender can pass the attack on.")
    else:
        main = sp.tr.gettext("Only the defender beats attack cards.")
    return sp.join(main, sp.defending_now(_p(r, "defender")))


@_reason(Reason.ALREADY_TAKING)
def _already_taking(sp: _Speaker, r: IllegalAction) -> str:
    defender = _p(r, "defender", _actor(r))
    if sp.is_you(defender):
        return sp.tr.gettext(
            "You have already decided to take the cards, so there is no more defending "
            "in this bout."
        )
    return sp.tr.gettext(
        "{player} has already decided to take the cards, so there is no more defending "
        "in this bout.",
        player=sp.name(defender),
    )


@_reason(Reason.NO_SUCH_ATTACK_CARD)
def _no_such_attack_card(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "{target} is not an attack card waiting on the table.", target=sp.card(_p(r, "target"))
    )


@_reason(Reason.ALREADY_BEATEN)
def _already_beaten(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "{target} is already beaten: {by} lies on it.",
        target=sp.card(_p(r, "target")),
        by=sp.card(_p(r, "by")),
    )


@_reason(Reason.CANNOT_BEAT)
def _cannot_beat(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    card = sp.card(_p(r, "card"))
    target_card = _p(r, "target")
    target = sp.card(target_card)
    why = _p(r, "why")
    if why == "lower_rank":
        return tr.gettext(
            "{card} doesn't beat {target}: within a suit only a higher card beats.",
            card=card,
            target=target,
        )
    if why == "wrong_suit":
        trump = _p(r, "trump")
        return tr.gettext(
            "{card} doesn't beat {target}: it takes a higher card of the same suit ({suit}) "
            "or a trump ({trump}).",
            card=card,
            target=target,
            suit=target_card.suit.symbol if isinstance(target_card, Card) else "?",
            trump=trump.symbol if isinstance(trump, Suit) else "?",
        )
    if why == "trump_needs_higher_trump":
        return tr.gettext(
            "{card} doesn't beat {target}: {target} is a trump, and only a higher trump beats it.",
            card=card,
            target=target,
        )
    return tr.gettext("{card} doesn't beat {target}.", card=card, target=target)


@_reason(Reason.NOTHING_TO_TAKE)
def _nothing_to_take(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext("Every card on the table is already beaten: there is nothing to take.")


@_reason(Reason.DEFENDER_CANNOT_THROW)
def _defender_cannot_throw(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    if sp.is_you(seat):
        return sp.tr.gettext("You are defending, and the defender never adds cards to the attack.")
    return sp.tr.gettext(
        "{player} is defending, and the defender never adds cards to the attack.",
        player=sp.name(seat),
    )


@_reason(Reason.DEFENDER_CANNOT_PASS)
def _defender_cannot_pass(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    unbeaten = int(_p(r, "unbeaten", 0))
    if sp.is_you(seat):
        return sp.tr.ngettext(
            "You can't just pass as the defender: {n} card is still unbeaten. "
            "Beat it or take the cards.",
            "You can't just pass as the defender: {n} cards are still unbeaten. "
            "Beat them or take the cards.",
            unbeaten,
        )
    return sp.tr.ngettext(
        "{player} can't just pass as the defender: {n} card is still unbeaten, "
        "so it must be beaten or taken.",
        "{player} can't just pass as the defender: {n} cards are still unbeaten, "
        "so they must be beaten or taken.",
        unbeaten,
        player=sp.name(seat),
    )


@_reason(Reason.NOT_A_NEIGHBOUR)
def _not_a_neighbour(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    seat = _actor(r)
    if sp.is_you(seat):
        main = tr.gettext("You can't add cards in this bout.")
    else:
        main = tr.gettext("{player} can't add cards in this bout.", player=sp.name(seat))
    neighbours = sp.names(list(_p(r, "neighbours", [])))
    active = _p(r, "active")
    if active is None:
        rule = tr.gettext(
            "Only the defender's neighbours add cards: {neighbours}.", neighbours=neighbours
        )
    else:
        rule = tr.ngettext(
            "With {n} player still in the game, only the defender's neighbours add cards: "
            "{neighbours}.",
            "With {n} players still in the game, only the defender's neighbours add cards: "
            "{neighbours}.",
            int(active),
            neighbours=neighbours,
        )
    return sp.join(main, rule)


@_reason(Reason.WAIT_FOR_DEFENCE)
def _wait_for_defence(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.ngettext(
        "Not yet: cards are added only when everything on the table is beaten, "
        "and {n} card is still unbeaten.",
        "Not yet: cards are added only when everything on the table is beaten, "
        "and {n} cards are still unbeaten.",
        int(_p(r, "unbeaten", 0)),
    )


@_reason(Reason.NOT_YOUR_PRIORITY)
def _not_your_priority(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    if sp.is_you(seat):
        main = sp.tr.gettext("It's not your turn to add cards yet.")
    else:
        main = sp.tr.gettext("It's not {player}'s turn to add cards yet.", player=sp.name(seat))
    priority = _p(r, "priority")
    if priority is None:
        return main
    return sp.join(main, sp.adding_now(priority))


@_reason(Reason.ALREADY_PASSED)
def _already_passed(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    if sp.is_you(seat):
        return sp.tr.gettext(
            "You have already passed in this bout, and a pass is final: you can't add more cards."
        )
    return sp.tr.gettext(
        "{player} has already passed in this bout, and a pass is final.", player=sp.name(seat)
    )


@_reason(Reason.RANK_NOT_ON_TABLE)
def _rank_not_on_table(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    ranks = ranks_list(list(_p(r, "ranks", [])), sp.tr)
    if sp.is_you(seat):
        return sp.tr.gettext(
            "You can only add cards of a rank that is already on the table: {ranks}.",
            ranks=ranks,
        )
    return sp.tr.gettext(
        "{player} can only add cards of a rank that is already on the table: {ranks}.",
        player=sp.name(seat),
        ranks=ranks,
    )


@_reason(Reason.ONLY_FIRST_RANK)
def _only_first_rank(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    seat = _actor(r)
    rank = _p(r, "rank")
    rank_text = sp.rank(rank) if isinstance(rank, Rank) else "?"
    if sp.is_you(seat):
        main = tr.gettext(
            "You may only add cards of the first attack card's rank: {rank}.", rank=rank_text
        )
    else:
        main = tr.gettext(
            "{player} may only add cards of the first attack card's rank: {rank}.",
            player=sp.name(seat),
            rank=rank_text,
        )
    rule = tr.gettext(
        "Any rank on the table may be added only by the attacker and the next defender: {players}.",
        players=sp.names(list(_p(r, "privileged", []))),
    )
    return sp.join(main, rule)


@_reason(Reason.CAP_REACHED)
def _cap_reached(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    cap = int(_p(r, "cap", 0))
    base = int(_p(r, "base_cap", cap))
    hand = int(_p(r, "defender_hand", cap))
    by_hand = hand < base
    if _p(r, "scope") == "unbeaten":
        if by_hand:
            return tr.ngettext(
                "The attack is full: the defender holds only {n} card, and there are never "
                "more unbeaten cards on the table than that.",
                "The attack is full: the defender holds only {n} cards, and there are never "
                "more unbeaten cards on the table than that.",
                cap,
            )
        return tr.ngettext(
            "The attack is full: at most {n} unbeaten card may lie on the table at once.",
            "The attack is full: at most {n} unbeaten cards may lie on the table at once.",
            cap,
        )
    if by_hand:
        if _p(r, "hand_rule") == "current_hand":
            return tr.ngettext(
                "The attack is full: the defender holds only {n} card, and there are never "
                "more attack cards than that.",
                "The attack is full: the defender holds only {n} cards, and there are never "
                "more attack cards than that.",
                cap,
            )
        return tr.ngettext(
            "The attack is full: the defender had only {n} card when the defence began, "
            "and there are never more attack cards than that.",
            "The attack is full: the defender had only {n} cards when the defence began, "
            "and there are never more attack cards than that.",
            cap,
        )
    if _p(r, "first_bout_cap"):
        kind = sp.rules.first_bout_cap if sp.rules is not None else None
        if kind is FirstBoutCap.UNTIL_FIRST_DISCARD:
            return tr.ngettext(
                "The attack is full: until a bout has been beaten off for the first time, "
                "a bout has at most {n} attack card.",
                "The attack is full: until a bout has been beaten off for the first time, "
                "a bout has at most {n} attack cards.",
                cap,
            )
        if kind is FirstBoutCap.FIRST_BOUT_4PLUS:
            return tr.ngettext(
                "The attack is full: the first bout of the game has at most {n} attack card.",
                "The attack is full: the first bout of the game has at most {n} attack cards.",
                cap,
            )
        return tr.ngettext(
            "The attack is full: for now a bout has at most {n} attack card.",
            "The attack is full: for now a bout has at most {n} attack cards.",
            cap,
        )
    return tr.ngettext(
        "The attack is full: a bout has at most {n} attack card.",
        "The attack is full: a bout has at most {n} attack cards.",
        cap,
    )


@_reason(Reason.NOTHING_TO_PASS)
def _nothing_to_pass(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext("There is nothing to pass yet: the bout has not started.")


@_reason(Reason.TRANSFER_DISABLED)
def _transfer_disabled(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "These rules have no transfer (this is podkidnoy): beat the cards or take them."
    )


@_reason(Reason.TRANSFER_AFTER_BEAT)
def _transfer_after_beat(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "Too late to pass the attack on: once a card has been beaten, the attack can no "
        "longer be transferred."
    )


@_reason(Reason.TRANSFER_RANK_MISMATCH)
def _transfer_rank_mismatch(sp: _Speaker, r: IllegalAction) -> str:
    rank = _p(r, "rank")
    return sp.tr.gettext(
        "Only a card of the attack's rank ({rank}) passes the attack on, and {card} is not one.",
        rank=sp.rank(rank) if isinstance(rank, Rank) else "?",
        card=sp.card(_p(r, "card")),
    )


@_reason(Reason.TRANSFER_NO_ROOM)
def _transfer_no_room(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    needed = int(_p(r, "needed", 0))
    hand = int(_p(r, "next_hand", 0))
    nxt = _p(r, "next_defender")
    if needed > hand:
        if sp.is_you(nxt):
            return tr.ngettext(
                "The attack can't be passed on: there would be {needed} attack cards, "
                "and you hold only {n} card.",
                "The attack can't be passed on: there would be {needed} attack cards, "
                "and you hold only {n} cards.",
                hand,
                needed=needed,
            )
        return tr.ngettext(
            "The attack can't be passed on: there would be {needed} attack cards, "
            "and {player} holds only {n} card.",
            "The attack can't be passed on: there would be {needed} attack cards, "
            "and {player} holds only {n} cards.",
            hand,
            needed=needed,
            player=sp.name(nxt),
        )
    return tr.gettext(
        "The attack can't be passed on: there would be {needed} attack cards, "
        "more than the {cap} a bout allows.",
        needed=needed,
        cap=int(_p(r, "base_cap", 0)),
    )


@_reason(Reason.TRANSFER_TO_PARTNER)
def _transfer_to_partner(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    seat, partner = _actor(r), _p(r, "next_defender")
    if sp.is_you(seat):
        return tr.gettext(
            "You can't pass the attack on to {partner}: {partner} is on your team, and passing "
            "it on adds your card to the attack, which team-mates never do to each other. Beat "
            "the cards or take them.",
            partner=sp.name(partner),
        )
    return tr.gettext(
        "{player} can't pass the attack on to {partner}: they are on the same team, and "
        "passing it on adds a card to the attack, which team-mates never do to each other.",
        player=sp.name(seat),
        partner=sp.name(partner),
    )


@_reason(Reason.PARTNER_DEFENDS)
def _partner_defends(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    seat = _actor(r)
    defender = _p(r, "defender")
    if sp.is_you(seat):
        return tr.gettext(
            "You can't add cards in this bout: {defender}, who is defending, is on your team, "
            "and team-mates never add cards against each other.",
            defender=sp.name(defender),
        )
    if sp.is_you(defender):
        return tr.gettext(
            "{player} can't add cards against you: you are on the same team, and team-mates "
            "never add cards against each other.",
            player=sp.name(seat),
        )
    return tr.gettext(
        "{player} can't add cards in this bout: {defender}, who is defending, is on the same "
        "team, and team-mates never add cards against each other.",
        player=sp.name(seat),
        defender=sp.name(defender),
    )


@_reason(Reason.FLASH_DISABLED)
def _flash_disabled(sp: _Speaker, r: IllegalAction) -> str:
    # TRANSLATORS: "Flash" is Wikipedia's name for passing the attack on by showing a trump.
    return sp.tr.gettext(
        "These rules have no “Flash”: here the attack can't be passed on by showing a trump."
    )


@_reason(Reason.FLASH_NOT_TRUMP)
def _flash_not_trump(sp: _Speaker, r: IllegalAction) -> str:
    trump = _p(r, "trump")
    return sp.tr.gettext(
        "Only a trump can be shown to pass the attack on, and {card} is not a trump "
        "(trumps are {suit}).",
        card=sp.card(_p(r, "card")),
        suit=suit_name(trump, sp.tr) if isinstance(trump, Suit) else "?",
    )


@_reason(Reason.FLASH_ALREADY_SHOWN)
def _flash_already_shown(sp: _Speaker, r: IllegalAction) -> str:
    card = sp.card(_p(r, "card"))
    if _p(r, "reuse") == "once_per_bout":
        return sp.tr.gettext(
            "{card} has already been shown in this bout, and a trump may be shown to pass "
            "the attack on only once per bout.",
            card=card,
        )
    return sp.tr.gettext(
        "{card} has already been shown in this game, and a trump may be shown to pass "
        "the attack on only once per game.",
        card=card,
    )


@_reason(Reason.REDEAL_DISABLED)
def _redeal_disabled(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "These rules have no new deal on request: the cards stay as they were dealt."
    )


@_reason(Reason.REDEAL_NOT_MISDEALT)
def _redeal_not_misdealt(sp: _Speaker, r: IllegalAction) -> str:
    tr = sp.tr
    seat = _actor(r)
    if sp.is_you(seat):
        main = tr.gettext("You can't ask for a new deal: your hand is fine to play.")
    else:
        main = tr.gettext(
            "{player} can't ask for a new deal: that hand is fine to play.", player=sp.name(seat)
        )
    if _p(r, "rule") == "five_of_a_suit":
        rule = tr.gettext(
            "A new deal is only for a hand that is all red, all black, or holds five or more "
            "cards of one suit."
        )
    else:
        rule = tr.gettext(
            "A new deal is only for a hand that is all red, all black, or holds four or more "
            "cards of one suit."
        )
    return sp.join(main, rule)


@_reason(Reason.REDEAL_TOO_LATE)
def _redeal_too_late(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "It's too late to ask for a new deal: that is only possible before the first card "
        "is played."
    )


@_reason(Reason.REDEAL_CAP)
def _redeal_cap(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.ngettext(
        "No more new deals: the cards have already been dealt again {n} time, the most these "
        "rules allow.",
        "No more new deals: the cards have already been dealt again {n} times, the most these "
        "rules allow.",
        int(_p(r, "max_redeals", 0)),
    )


@_reason(Reason.SWAP_DISABLED)
def _swap_disabled(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "These rules don't allow swapping the lowest trump for the turned-up trump."
    )


@_reason(Reason.SWAP_NO_LOWEST_TRUMP)
def _swap_no_lowest_trump(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    card = sp.card(_p(r, "card"))
    if sp.is_you(seat):
        return sp.tr.gettext(
            "You don't hold the lowest trump ({card}), so you have nothing to swap.", card=card
        )
    return sp.tr.gettext(
        "{player} doesn't hold the lowest trump ({card}), so there is nothing to swap.",
        player=sp.name(seat),
        card=card,
    )


@_reason(Reason.SWAP_NOT_ORIGINAL_HOLDER)
def _swap_not_original_holder(sp: _Speaker, r: IllegalAction) -> str:
    seat = _actor(r)
    card = sp.card(_p(r, "card"))
    if sp.is_you(seat):
        return sp.tr.gettext(
            "Only the player who was dealt {card} or drew it from the stock may swap it, "
            "and you got it another way.",
            card=card,
        )
    return sp.tr.gettext(
        "{player} can't swap {card}: only the player who was dealt it or drew it from "
        "the stock may swap it.",
        player=sp.name(seat),
        card=card,
    )


@_reason(Reason.SWAP_NOT_ACE)
def _swap_not_ace(sp: _Speaker, r: IllegalAction) -> str:
    return sp.tr.gettext(
        "Under these rules the swap is allowed only when the turned-up trump is the ace, "
        "and it is {turnup}.",
        turnup=sp.card(_p(r, "turnup")),
    )


@_reason(Reason.SWAP_WINDOW_CLOSED)
def _swap_window_closed(sp: _Speaker, r: IllegalAction) -> str:
    turnup = _p(r, "turnup")
    if turnup is None:
        return sp.tr.gettext("There is no turned-up trump to swap for.")
    if turnup == _p(r, "card"):
        return sp.tr.gettext(
            "There is nothing to swap: the turned-up card, {turnup}, is itself the lowest trump.",
            turnup=sp.card(turnup),
        )
    return sp.tr.gettext(
        "It's too late to swap: the turned-up trump ({turnup}) has been drawn and a new bout "
        "has begun.",
        turnup=sp.card(turnup),
    )


#: Every reason :func:`explain` has words for (a test checks that this is all of them).
EXPLAINED_REASONS: Final = frozenset(_REASONS)


def explain(
    refusal: IllegalAction,
    tr: Gettext,
    *,
    players: Sequence[str] | None = None,
    you: int | None = None,
    rules: Rules | None = None,
) -> str:
    """Why ``refusal``'s action was refused, as a tutor would say it in ``tr``'s language.

    ``players``: names by seat (default "Player 1", …); ``you``: the learner's seat, spoken
    to as "you"; ``rules``: the game's rules, for wording that depends on them (the first-bout
    limit). With an :class:`~tutorial.i18n.I18n`, the current language is used at each call.
    """
    speaker = _Speaker(tr, players, you, rules)
    func = _REASONS.get(refusal.reason)
    if func is None:
        return tr.gettext("This move is not allowed now.")
    return func(speaker, refusal)


# ======================================================================================= events

_Narrator = Callable[[_Speaker, Event], str]
_EVENTS: dict[EventKind, _Narrator] = {}


def _event(kind: EventKind) -> Callable[[_Narrator], _Narrator]:
    def register(func: _Narrator) -> _Narrator:
        _EVENTS[kind] = func
        return func

    return register


@_event(EventKind.DEAL)
def _deal(sp: _Speaker, e: Event) -> str:
    if sp.is_you(e.seat):
        return sp.tr.ngettext(
            "You deal {n} card to each player.", "You deal {n} cards to each player.", e.n
        )
    return sp.tr.ngettext(
        "{player} deals {n} card to each player.",
        "{player} deals {n} cards to each player.",
        e.n,
        player=sp.name(e.seat),
    )


@_event(EventKind.TRUMP)
def _trump(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    if not e.cards:
        return tr.gettext(
            "There is no turned-up card in this position: trumps are {suit}.",
            suit=suit_name(Suit.parse(e.detail), tr),
        )
    card = e.cards[0]
    suit = suit_name(card.suit, sp.tr)
    if e.detail == "dealer":
        if sp.is_you(e.seat):
            return tr.gettext(
                "All the cards have been dealt, so you show your last card, {card}, and keep "
                "it: trumps are {suit}.",
                card=sp.card(card),
                suit=suit,
            )
        return tr.gettext(
            "All the cards have been dealt, so {player} shows the last card, {card}, and keeps "
            "it: trumps are {suit}.",
            player=sp.name(e.seat),
            card=sp.card(card),
            suit=suit,
        )
    return tr.gettext(
        "The card turned up under the stock is {card}: trumps are {suit}.",
        card=sp.card(card),
        suit=suit,
    )


@_event(EventKind.FIRST_ATTACKER)
def _first_attacker(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    you = sp.is_you(e.seat)
    player = sp.name(e.seat)
    if e.detail == "lowest_trump" and e.cards:
        card = sp.card(e.cards[0])
        if you:
            return tr.gettext("You have the lowest trump, {card}, so you start.", card=card)
        return tr.gettext(
            "{player} has the lowest trump, {card}, and starts.", player=player, card=card
        )
    if e.detail == "random":
        if you:
            return tr.gettext(
                "Nobody has a trump, so the player who starts is chosen at random: you."
            )
        return tr.gettext(
            "Nobody has a trump, so the player who starts is chosen at random: {player}.",
            player=player,
        )
    if e.detail == "left_of_dealer":
        if you:
            return tr.gettext("You sit to the dealer's left, so you start.")
        return tr.gettext("{player} sits to the dealer's left and starts.", player=player)
    if e.detail == "left_of_durak":
        if you:
            return tr.gettext("You sit to the left of the last game's durak, so you start.")
        return tr.gettext(
            "{player} sits to the left of the last game's durak and starts.", player=player
        )
    if e.detail == "durak_attacked_first":
        # TRANSLATORS: “the fool is taught” is wikiHow's saying (Russian «дурака учат»).
        if you:
            return tr.gettext(
                "The last game's durak is attacked first (“the fool is taught”): you sit to "
                "the durak's right, so you start."
            )
        return tr.gettext(
            "The last game's durak is attacked first (“the fool is taught”): {player} sits to "
            "the durak's right and starts.",
            player=player,
        )
    if you:
        return tr.gettext("You start.")
    return tr.gettext("{player} starts.", player=player)


@_event(EventKind.BOUT_START)
def _bout_start(sp: _Speaker, e: Event) -> str:
    return sp.bout_roles(e.seat, e.other)


@_event(EventKind.LEAD)
def _lead(sp: _Speaker, e: Event) -> str:
    card = sp.card(e.cards[0] if e.cards else None)
    if sp.is_you(e.seat):
        return sp.tr.gettext("You lead {card}.", card=card)
    return sp.tr.gettext("{player} leads {card}.", player=sp.name(e.seat), card=card)


@_event(EventKind.BEAT)
def _beat(sp: _Speaker, e: Event) -> str:
    card = sp.card(e.cards[0] if e.cards else None)
    target = sp.card(e.cards[1] if len(e.cards) > 1 else None)
    if sp.is_you(e.seat):
        return sp.tr.gettext("You beat {target} with {card}.", target=target, card=card)
    return sp.tr.gettext(
        "{player} beats {target} with {card}.", player=sp.name(e.seat), target=target, card=card
    )


@_event(EventKind.THROW_IN)
def _throw_in(sp: _Speaker, e: Event) -> str:
    card = sp.card(e.cards[0] if e.cards else None)
    if sp.is_you(e.seat):
        return sp.tr.gettext("You add {card}.", card=card)
    return sp.tr.gettext("{player} adds {card}.", player=sp.name(e.seat), card=card)


@_event(EventKind.TRANSFER)
def _transfer(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    card = sp.card(e.cards[0] if e.cards else None)
    if sp.is_you(e.seat):
        return tr.gettext(
            "You pass the attack on with {card}: now {defender} defends.",
            card=card,
            defender=sp.name(e.other),
        )
    if sp.is_you(e.other):
        return tr.gettext(
            "{player} passes the attack on to you with {card}: now you defend.",
            player=sp.name(e.seat),
            card=card,
        )
    return tr.gettext(
        "{player} passes the attack on with {card}: now {defender} defends.",
        player=sp.name(e.seat),
        card=card,
        defender=sp.name(e.other),
    )


@_event(EventKind.FLASH)
def _flash(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    card = sp.card(e.cards[0] if e.cards else None)
    if sp.is_you(e.seat):
        return tr.gettext(
            "You show the trump {card} and keep it: the attack passes on, and now {defender} "
            "defends.",
            card=card,
            defender=sp.name(e.other),
        )
    if sp.is_you(e.other):
        return tr.gettext(
            "{player} shows the trump {card} and keeps it: the attack passes on to you, and "
            "now you defend.",
            player=sp.name(e.seat),
            card=card,
        )
    return tr.gettext(
        "{player} shows the trump {card} and keeps it: the attack passes on, and now "
        "{defender} defends.",
        player=sp.name(e.seat),
        card=card,
        defender=sp.name(e.other),
    )


@_event(EventKind.TAKE)
def _take(sp: _Speaker, e: Event) -> str:
    if sp.is_you(e.seat):
        return sp.tr.gettext("You decide to take the cards.")
    return sp.tr.gettext("{player} decides to take the cards.", player=sp.name(e.seat))


@_event(EventKind.PASS)
def _pass(sp: _Speaker, e: Event) -> str:
    if sp.is_you(e.seat):
        return sp.tr.gettext("You are done adding cards.")
    return sp.tr.gettext("{player} is done adding cards.", player=sp.name(e.seat))


@_event(EventKind.PICK_UP)
def _pick_up(sp: _Speaker, e: Event) -> str:
    cards = cards_list(e.cards, sp.tr)
    if sp.is_you(e.seat):
        return sp.tr.ngettext(
            "You pick up {n} card: {cards}.", "You pick up {n} cards: {cards}.", e.n, cards=cards
        )
    return sp.tr.ngettext(
        "{player} picks up {n} card: {cards}.",
        "{player} picks up {n} cards: {cards}.",
        e.n,
        player=sp.name(e.seat),
        cards=cards,
    )


@_event(EventKind.BITO)
def _bito(sp: _Speaker, e: Event) -> str:
    if sp.is_you(e.seat):
        return sp.tr.ngettext(
            "Bito! You have beaten everything off: {n} card goes to the discard pile.",
            "Bito! You have beaten everything off: {n} cards go to the discard pile.",
            e.n,
        )
    return sp.tr.ngettext(
        "Bito! {player} has beaten everything off: {n} card goes to the discard pile.",
        "Bito! {player} has beaten everything off: {n} cards go to the discard pile.",
        e.n,
        player=sp.name(e.seat),
    )


@_event(EventKind.DRAW)
def _draw(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    if sp.is_you(e.seat) and e.cards:
        text = tr.ngettext(
            "You draw {n} card from the stock: {cards}.",
            "You draw {n} cards from the stock: {cards}.",
            e.n,
            cards=cards_list(e.cards, tr),
        )
    elif sp.is_you(e.seat):
        text = tr.ngettext(
            "You draw {n} card from the stock.", "You draw {n} cards from the stock.", e.n
        )
    else:
        text = tr.ngettext(
            "{player} draws {n} card from the stock.",
            "{player} draws {n} cards from the stock.",
            e.n,
            player=sp.name(e.seat),
        )
    if e.detail == "turnup" and e.cards:
        last = tr.gettext(
            "The last one was the turned-up trump, {card}: the stock is empty now.",
            card=sp.card(e.cards[-1]),
        )
        text = sp.join(text, last)
    return text


@_event(EventKind.SWAP)
def _swap(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    low = sp.card(e.cards[0] if e.cards else None)
    up = sp.card(e.cards[1] if len(e.cards) > 1 else None)
    if e.other is None:
        if sp.is_you(e.seat):
            return tr.gettext(
                "You swap your lowest trump, {low}, for the turned-up trump, {up}.", low=low, up=up
            )
        return tr.gettext(
            "{player} swaps the lowest trump, {low}, for the turned-up trump, {up}.",
            player=sp.name(e.seat),
            low=low,
            up=up,
        )
    if sp.is_you(e.seat):
        return tr.gettext(
            "You swap your {low} for {giver}'s {up}.", low=low, up=up, giver=sp.name(e.other)
        )
    if sp.is_you(e.other):
        return tr.gettext(
            "{player} swaps {low} for your {up}.", player=sp.name(e.seat), low=low, up=up
        )
    return tr.gettext(
        "{player} swaps {low} for {giver}'s {up}.",
        player=sp.name(e.seat),
        low=low,
        up=up,
        giver=sp.name(e.other),
    )


@_event(EventKind.MISDEAL)
def _misdeal(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    cards = cards_list(e.cards, tr)
    if e.detail == "request":
        if sp.is_you(e.seat):
            text = tr.gettext("You ask for a new deal and show your hand: {cards}.", cards=cards)
        else:
            text = tr.gettext(
                "{player} asks for a new deal and shows the hand: {cards}.",
                player=sp.name(e.seat),
                cards=cards,
            )
    elif sp.is_you(e.seat):
        text = tr.gettext(
            "A misdeal: you were dealt {cards}, a hand too one-sided to play.", cards=cards
        )
    else:
        text = tr.gettext(
            "A misdeal: {player} was dealt {cards}, a hand too one-sided to play.",
            player=sp.name(e.seat),
            cards=cards,
        )
    again = tr.gettext("The cards are shuffled and dealt again.")
    return sp.join(text, again)


@_event(EventKind.PLAYER_OUT)
def _player_out_event(sp: _Speaker, e: Event) -> str:
    if sp.is_you(e.seat):
        return sp.tr.gettext(
            "You have no cards left and the stock is empty: you are out of the game and safe "
            "(place {place}).",
            place=e.n,
        )
    return sp.tr.gettext(
        "{player} has no cards left and goes out, safe (place {place}).",
        player=sp.name(e.seat),
        place=e.n,
    )


@_event(EventKind.REPETITION)
def _repetition(sp: _Speaker, e: Event) -> str:
    tr = sp.tr
    # TRANSLATORS: the repetition rule (Rules.repetition_limit): with transfers, two players
    # can bring the game back to where it was. {n} is at least 2.
    again = tr.ngettext(
        "This position has now come up {n} time: the same cards in every hand, the same "
        "attacker and defender.",
        "This position has now come up {n} times: the same cards in every hand, the same "
        "attacker and defender.",
        e.n,
    )
    left = (e.other or 0) - e.n
    if left <= 0:
        return again  # game_over follows
    return sp.join(
        again,
        tr.ngettext(
            "If it comes up {n} more time, the game is a draw.",
            "If it comes up {n} more times, the game is a draw.",
            left,
        ),
    )


@_event(EventKind.GAME_OVER)
def _game_over_event(sp: _Speaker, e: Event) -> str:
    if e.detail == "repetition":
        return sp.tr.ngettext(
            "Game over: the same position came up {n} time, so the game is a draw and "
            "nobody is the durak.",
            "Game over: the same position came up {n} times, so the game is a draw and "
            "nobody is the durak.",
            e.n,
        )
    if e.seat is None:
        return sp.tr.gettext(
            "Game over: everybody ran out of cards at the same time, so there is no durak. "
            "It's a draw."
        )
    you = sp.is_you(e.seat)
    if e.detail == "previous_durak":
        if you:
            return sp.tr.gettext(
                "Game over: everybody ran out of cards at the same time. Under these rules "
                "that is no draw: you were the durak of the last game, so you stay durak."
            )
        return sp.tr.gettext(
            "Game over: everybody ran out of cards at the same time. Under these rules that "
            "is no draw: {player} was the durak of the last game and stays durak.",
            player=sp.name(e.seat),
        )
    if e.detail == "team":
        if you:
            return sp.tr.gettext(
                "Game over: only your team still holds cards, so your whole team loses; you "
                "are its durak."
            )
        return sp.tr.gettext(
            "Game over: only {player}'s team still holds cards, so that whole team loses; "
            "{player} is its durak.",
            player=sp.name(e.seat),
        )
    if you:
        return sp.tr.gettext(
            "Game over: you are the last one with cards, so you are the durak this time."
        )
    return sp.tr.gettext("Game over: the durak is {player}.", player=sp.name(e.seat))


#: Every event kind :func:`narrate` has words for (a test checks that this is all of them).
NARRATED_EVENTS: Final = frozenset(_EVENTS)


def narrate(
    event: Event,
    tr: Gettext,
    *,
    players: Sequence[str] | None = None,
    you: int | None = None,
) -> str:
    """What ``event`` means, as one or two sentences in ``tr``'s language.

    ``players`` and ``you`` as for :func:`explain`. The cards of other seats' draws are never
    named, even when the event holds them.
    """
    func = _EVENTS.get(event.kind)
    if func is None:
        return ""
    return func(_Speaker(tr, players, you), event)
