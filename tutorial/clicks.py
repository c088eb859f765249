"""What a click on the table means: the engine lists what a card could do, this module picks.

No rule is decided here. :meth:`durak_core.Game.card_actions` lists the actions a card could
mean, most likely first, each with the engine's verdict; a click plays the one legal meaning,
asks which one when there are several, and otherwise tries the most likely meaning so that the
learner hears the rule that refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from durak_core import Action, ActionKind, Card, Game

__all__ = ["Intent", "button_action", "hand_click", "table_click"]


@dataclass(frozen=True, slots=True)
class Intent:
    """What to do with a click: ``play`` an action (legal or not: the controller tries it and
    explains a refusal), or ``choose`` (hold the card, ask for a target or a transfer)."""

    play: Action | None = None
    choose: bool = False
    transfer: bool = False
    """With ``choose``: passing the attack on is one of the card's legal meanings."""
    flash: bool = False
    """With ``choose``: showing the card (a trump) to pass the attack on is one of its legal
    meanings (S2's «Flash»)."""


def hand_click(game: Game, seat: int, card: Card, target: Card | None = None) -> Intent:
    """A click on ``card`` in ``seat``'s hand; ``target`` is an attack card clicked before."""
    if target is not None and game.defending(seat):
        return Intent(Action.beat(seat, card, target))
    candidates = game.card_actions(seat, card)
    legal = [action for action, refusal in candidates if refusal is None]
    if len(legal) == 1:
        return Intent(legal[0])
    if not legal:
        return Intent(candidates[0][0])
    return Intent(
        choose=True,
        transfer=any(a.kind is ActionKind.TRANSFER for a in legal),
        flash=any(a.kind is ActionKind.FLASH for a in legal),
    )


def table_click(game: Game, seat: int, card: Card, selected: Card | None) -> Intent | None:
    """A click on an attack card on the table: a target for the defender, else nothing.
    With a card already held (``selected``) it means "beat this with that"."""
    if not game.defending(seat):
        return None
    if selected is not None:
        return Intent(Action.beat(seat, selected, card))
    return Intent(choose=True)


def button_action(seat: int, button: str, selected: Card | None) -> Action | None:
    """The action of a table button (take, pass, swap, a new deal, and passing the attack on
    with the held card: transfer, or flash by showing it)."""
    if button == "take":
        return Action.take(seat)
    if button == "pass":
        return Action.pass_(seat)
    if button == "swap":
        return Action.swap(seat)
    if button == "redeal":
        return Action.redeal(seat)
    if button == "transfer" and selected is not None:
        return Action.transfer(seat, selected)
    if button == "flash" and selected is not None:
        return Action.flash(seat, selected)
    return None
