"""Why an action is refused: machine-readable reason codes and the :class:`IllegalAction` error.

The engine never speaks a human language to learners: it reports a :class:`Reason` and its
parameters, and the tutorial turns them into an explanation.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action

__all__ = ["IllegalAction", "Reason"]


class Reason(StrEnum):
    """Reason codes. Parameters (in ``IllegalAction.params``) are listed for each."""

    GAME_OVER = "game_over"
    """The game has ended. ``{}``"""
    MALFORMED_ACTION = "malformed_action"
    """The action lacks the card (or attack card) its kind needs, or is of no known kind
    (e.g. a forged message). ``{"kind"}``"""
    NO_SUCH_SEAT = "no_such_seat"
    """``{"seat", "players"}``"""
    PLAYER_OUT = "player_out"
    """The seat has left the game with no cards. ``{"seat"}``"""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """``{"seat", "card"}``"""
    NOT_ATTACKER = "not_attacker"
    """Only the bout's attacker leads. ``{"seat", "attacker"}``"""
    BOUT_IN_PROGRESS = "bout_in_progress"
    """A lead while cards are on the table. ``{"attacker", "defender"}``"""
    MUST_LEAD = "must_lead"
    """The table is empty: the attacker must lead a card first. ``{"attacker"}``"""
    NOT_DEFENDER = "not_defender"
    """Only the defender beats, takes or transfers. ``{"seat", "defender"}``"""
    ALREADY_TAKING = "already_taking"
    """The defender already said «take». ``{"defender"}``"""
    NO_SUCH_ATTACK_CARD = "no_such_attack_card"
    """``{"target"}``"""
    ALREADY_BEATEN = "already_beaten"
    """``{"target", "by"}``"""
    CANNOT_BEAT = "cannot_beat"
    """``{"card", "target", "trump", "why"}`` with ``why`` one of ``"lower_rank"``,
    ``"wrong_suit"``, ``"trump_needs_higher_trump"``."""
    NOTHING_TO_TAKE = "nothing_to_take"
    """Every attack card is beaten; there is nothing to give up. ``{}``"""
    DEFENDER_CANNOT_THROW = "defender_cannot_throw"
    """The defender never adds attack cards against himself (S2, S4). ``{"seat"}``"""
    DEFENDER_CANNOT_PASS = "defender_cannot_pass"
    """The defender must beat every card or take. ``{"seat", "unbeaten"}``"""
    NOT_A_NEIGHBOUR = "not_a_neighbour"
    """Only the defender's neighbours throw in. ``{"seat", "neighbours", "active"}``
    (``active`` is the number of players still in, or None when always neighbours-only)."""
    WAIT_FOR_DEFENCE = "wait_for_defence"
    """Cards are added only once everything on the table is beaten. ``{"unbeaten"}``"""
    NOT_YOUR_PRIORITY = "not_your_priority"
    """Another player has the right to add (or pass) first. ``{"seat", "priority"}``"""
    ALREADY_PASSED = "already_passed"
    """Under «until pass» priority a pass is final for the bout. ``{"seat"}``"""
    RANK_NOT_ON_TABLE = "rank_not_on_table"
    """``{"card", "ranks"}``: ``ranks`` is the sorted list of ranks on the table."""
    ONLY_FIRST_RANK = "only_first_rank"
    """«Vecinos»: this seat may add only the first attack card's rank. ``{"card", "rank",
    "privileged"}``"""
    CAP_REACHED = "cap_reached"
    """``{"room", "cap", "base_cap", "first_bout_cap", "defender_hand", "hand_rule", "scope",
    "on_table"}``: ``cap`` = min(base_cap, defender_hand) cards counted as ``scope``; ``room``
    (≤ 0 here) is how many more would fit. See :class:`durak_core.game.Cap`."""
    NOTHING_TO_PASS = "nothing_to_pass"
    """There is no throw-in turn to pass (the bout has not started). ``{"seat"}``"""
    TRANSFER_DISABLED = "transfer_disabled"
    """These rules are podkidnoy: no transfer. ``{}``"""
    TRANSFER_AFTER_BEAT = "transfer_after_beat"
    """Once a card is beaten the attack can no longer be passed on (S2). ``{}``"""
    TRANSFER_RANK_MISMATCH = "transfer_rank_mismatch"
    """``{"card", "rank"}``: the transfer card must have the attack's rank."""
    TRANSFER_NO_ROOM = "transfer_no_room"
    """The next player could not face that many cards. ``{"next_defender", "next_hand",
    "needed", "base_cap"}``"""
    TRANSFER_TO_PARTNER = "transfer_to_partner"
    """S2's «pairs» (``team_rotation="individual"``): the next player, who would defend the
    passed-on attack, is the defender's own partner. A transfer adds a card to the attack
    («agrega esta tarjeta a las tarjetas que atacan») and nobody adds to an attack against his
    partner; a Flash makes him the attacker of his partner just the same. ``{"seat",
    "next_defender"}``"""
    PARTNER_DEFENDS = "partner_defends"
    """Team play: nobody adds cards (or passes) against his own partner (S0, S2).
    ``{"seat", "defender"}``"""
    FLASH_DISABLED = "flash_disabled"
    """These rules have no Flash (S2's variant of perevodnoy). ``{}``"""
    FLASH_NOT_TRUMP = "flash_not_trump"
    """Only a trump may be shown to pass the attack on (S2). ``{"card", "trump"}``"""
    FLASH_ALREADY_SHOWN = "flash_already_shown"
    """That trump was already shown once (S2: once per game; or once per bout). ``{"card",
    "reuse"}``"""
    REDEAL_DISABLED = "redeal_disabled"
    """These rules have no misdeal on request. ``{}``"""
    REDEAL_NOT_MISDEALT = "redeal_not_misdealt"
    """The seat's hand is not a misdeal under these rules (C20). ``{"seat", "rule"}``"""
    REDEAL_TOO_LATE = "redeal_too_late"
    """A new deal may be asked for only before the first card is led. ``{}``"""
    REDEAL_CAP = "redeal_cap"
    """No more new deals: the rules' cap is reached. ``{"max_redeals"}``"""
    SWAP_DISABLED = "swap_disabled"
    """``{}``"""
    SWAP_NO_LOWEST_TRUMP = "swap_no_lowest_trump"
    """The seat does not hold the lowest trump. ``{"seat", "card"}``"""
    SWAP_NOT_ORIGINAL_HOLDER = "swap_not_original_holder"
    """It was picked up from the table, not dealt or drawn (S0). ``{"seat", "card"}``"""
    SWAP_NOT_ACE = "swap_not_ace"
    """Ace-only swap and the turned-up card is not the ace. ``{"turnup"}``"""
    SWAP_WINDOW_CLOSED = "swap_window_closed"
    """No turned-up trump to take: gone, and the next bout began (S0). ``{"turnup"}``"""


class IllegalAction(ValueError):
    """An action refused by the rules. The game state is left exactly as it was.

    ``reason`` is a :class:`Reason`; ``params`` its parameters; ``action`` what was tried.
    Making one is cheap: the human-readable :attr:`message` (also ``str(exc)`` and
    ``exc.args``) is formatted only when it is asked for, so refusal checks cost no formatting.
    """

    reason: Reason
    action: Action | None
    params: dict[str, Any]

    def __init__(self, reason: Reason, action: Action | None = None, **params: Any) -> None:
        # ValueError.__init__ is skipped on purpose: it would only store args (see ``args``)
        self.reason = reason
        self.action = action
        self.params = params

    @property
    def message(self) -> str:
        """``<action>: <reason code> (<name>=<value>, ...)``, formatted now."""
        detail = ", ".join(f"{k}={_show(v)}" for k, v in self.params.items())
        what = f"{self.action}: " if self.action is not None else ""
        return f"{what}{self.reason.value}" + (f" ({detail})" if detail else "")

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    @property
    def args(self) -> tuple[Any, ...]:
        """``(message,)``, formatted when read, as ``ValueError(message)`` would have it
        (unless something assigned other args)."""
        assigned: tuple[Any, ...] | None = self.__dict__.get("_assigned_args")
        return (self.message,) if assigned is None else assigned

    @args.setter
    def args(self, value: tuple[Any, ...]) -> None:
        self.__dict__["_assigned_args"] = tuple(value)


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + " ".join(str(v) for v in value) + "]"
    return str(value)
