"""Actions and their compact notation.

Every action names the seat that makes it. The notation is ``<seat>:<move>``:

========  ==================  ======================================
kind      notation            meaning
========  ==================  ======================================
lead      ``0:8C``            seat 0 opens the bout with 8♣
beat      ``1:10C/8C``        seat 1 beats 8♣ with 10♣
throw     ``2:+10H``          seat 2 throws in 10♥
transfer  ``1:>8D``           seat 1 passes the attack on with 8♦
take      ``1:take``          seat 1 will pick up the table
pass      ``0:pass``          seat 0 is done adding cards («bito»)
swap      ``0:swap``          seat 0 swaps the lowest trump for the turn-up
flash     ``1:!8S``           seat 1 shows the trump 8♠ to pass the attack on (S2)
redeal    ``0:redeal``        seat 0 asks for a new deal: a misdealt hand (S2)
========  ==================  ======================================

>>> a = Action.parse("1:10♣/8♣")
>>> a.kind, a.seat, str(a)
(<ActionKind.BEAT: 'beat'>, 1, '1:10C/8C')
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .cards import Card, CardError

__all__ = ["Action", "ActionKind", "NotationError"]


class NotationError(ValueError):
    """Text that is not a well-formed action."""


class ActionKind(StrEnum):
    """What an action does."""

    LEAD = "lead"
    """The bout's attacker plays the first attack card."""
    BEAT = "beat"
    """The defender covers an attack card (``target``) with ``card``."""
    THROW = "throw"
    """A non-defender adds an attack card of a rank already on the table (podkidnoy)."""
    TRANSFER = "transfer"
    """The defender adds a card of the attack's rank; the next player defends (perevodnoy)."""
    TAKE = "take"
    """The defender gives up; he will pick up every card on the table."""
    PASS = "pass"
    """A thrower is done adding cards for now."""
    SWAP = "swap"
    """The lowest trump's original holder exchanges it for the turned-up trump (S0)."""
    FLASH = "flash"
    """The defender shows a trump of the attack's rank and keeps it; the next player
    defends (S2 «Flash»)."""
    REDEAL = "redeal"
    """A player whose dealt hand is a misdeal asks for a new deal (S2, on request)."""


# The kinds as module constants, for loops that read one on every action (the engine, the
# bots, the solver): on Python 3.11 reading ``ActionKind.LEAD`` goes through
# ``EnumType.__getattr__`` and costs about a function call; these are the same members.
LEAD, BEAT, THROW, TRANSFER, TAKE, PASS, SWAP, FLASH, REDEAL = (
    ActionKind.LEAD,
    ActionKind.BEAT,
    ActionKind.THROW,
    ActionKind.TRANSFER,
    ActionKind.TAKE,
    ActionKind.PASS,
    ActionKind.SWAP,
    ActionKind.FLASH,
    ActionKind.REDEAL,
)


_SIMPLE = {
    ActionKind.TAKE: "take",
    ActionKind.PASS: "pass",
    ActionKind.SWAP: "swap",
    ActionKind.REDEAL: "redeal",
}


class Action(NamedTuple):
    """One move by one seat. ``card`` is the card played; ``target`` the attack card beaten."""

    kind: ActionKind
    seat: int
    card: Card | None = None
    target: Card | None = None

    # The factories check their arguments and accept card text (``Action.lead(0, "9H")``):
    # a wrong seat raises TypeError/ValueError, bad card text CardError, here and not at play.

    @classmethod
    def lead(cls, seat: int, card: Card | str) -> Action:
        """``seat`` opens the bout with ``card``."""
        return cls(ActionKind.LEAD, _seat(seat, "lead"), _card(card, "lead"))

    @classmethod
    def beat(cls, seat: int, card: Card | str, target: Card | str) -> Action:
        """``seat`` (the defender) beats the attack card ``target`` with ``card``."""
        return cls(
            ActionKind.BEAT,
            _seat(seat, "beat"),
            _card(card, "beat"),
            _card(target, "beat", "target"),
        )

    @classmethod
    def throw(cls, seat: int, card: Card | str) -> Action:
        """``seat`` throws in ``card``."""
        return cls(ActionKind.THROW, _seat(seat, "throw"), _card(card, "throw"))

    @classmethod
    def transfer(cls, seat: int, card: Card | str) -> Action:
        """``seat`` (the defender) passes the attack on with ``card`` (perevodnoy)."""
        return cls(ActionKind.TRANSFER, _seat(seat, "transfer"), _card(card, "transfer"))

    @classmethod
    def take(cls, seat: int) -> Action:
        """``seat`` (the defender) will pick up the table."""
        return cls(ActionKind.TAKE, _seat(seat, "take"))

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """``seat`` is done adding cards for now."""
        return cls(ActionKind.PASS, _seat(seat, "pass_"))

    @classmethod
    def swap(cls, seat: int) -> Action:
        """``seat`` swaps the lowest trump for the turned-up trump."""
        return cls(ActionKind.SWAP, _seat(seat, "swap"))

    @classmethod
    def flash(cls, seat: int, card: Card | str) -> Action:
        """``seat`` (the defender) shows the trump ``card`` to pass the attack on (S2)."""
        return cls(ActionKind.FLASH, _seat(seat, "flash"), _card(card, "flash"))

    @classmethod
    def redeal(cls, seat: int) -> Action:
        """``seat`` asks for a new deal because his dealt hand is a misdeal (S2)."""
        return cls(ActionKind.REDEAL, _seat(seat, "redeal"))

    def notation(self, *, unicode: bool = False) -> str:
        """The compact notation, e.g. ``1:10C/8C`` (see the module docstring)."""

        def fmt(card: Card | None) -> str:
            if not isinstance(card, Card):
                return "?"  # a malformed action (see Reason.MALFORMED_ACTION)
            return card.unicode() if unicode else card.ascii()

        kind = self.kind
        if not isinstance(kind, ActionKind):
            return f"{self.seat}:{kind!r}?"
        if kind in _SIMPLE:
            move = _SIMPLE[kind]
        elif kind is ActionKind.LEAD:
            move = fmt(self.card)
        elif kind is ActionKind.BEAT:
            move = f"{fmt(self.card)}/{fmt(self.target)}"
        elif kind is ActionKind.THROW:
            move = "+" + fmt(self.card)
        elif kind is ActionKind.FLASH:
            move = "!" + fmt(self.card)
        else:
            move = ">" + fmt(self.card)
        return f"{self.seat}:{move}"

    def __str__(self) -> str:
        """The ASCII notation, e.g. ``1:10C/8C``."""
        return self.notation()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the compact notation (ASCII or Unicode cards); raises :class:`NotationError`."""
        seat_text, sep, move = text.strip().partition(":")
        seat_text = seat_text.strip()
        if not sep or not (seat_text.isascii() and seat_text.isdigit()) or not move.strip():
            raise NotationError(f"not an action: {text!r} (expected '<seat>:<move>')")
        seat = int(seat_text)
        move = move.strip()
        try:
            for kind, word in _SIMPLE.items():
                if move.lower() == word:
                    return cls(kind, seat)
            if move[0] == "+":
                return cls(ActionKind.THROW, seat, Card.parse(move[1:]))
            if move[0] == ">":
                return cls(ActionKind.TRANSFER, seat, Card.parse(move[1:]))
            if move[0] == "!":
                return cls(ActionKind.FLASH, seat, Card.parse(move[1:]))
            if "/" in move:
                card, _, target = move.partition("/")
                return cls(ActionKind.BEAT, seat, Card.parse(card), Card.parse(target))
            return cls(ActionKind.LEAD, seat, Card.parse(move))
        except CardError as exc:
            raise NotationError(f"not an action: {text!r} ({exc})") from None


def _seat(seat: object, factory: str) -> int:
    """``seat`` checked to be a seat number (a whole number ≥ 0)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise TypeError(f"Action.{factory}: the seat must be a whole number, not {seat!r}")
    if seat < 0:
        raise ValueError(f"Action.{factory}: the seat must be 0 or more, not {seat}")
    return seat


def _card(card: object, factory: str, what: str = "card") -> Card:
    """``card`` as a :class:`Card` (parsing text such as ``"9H"`` or ``"10♥"``)."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except CardError as exc:
            raise CardError(f"Action.{factory}: bad {what}: {exc}") from None
    raise TypeError(
        f"Action.{factory}: the {what} must be a Card or card text such as '9H', not {card!r}"
    )
