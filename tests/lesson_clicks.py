"""Drive a :class:`~tutorial.controller.LessonController` the way a learner does: by clicks.

:func:`clicks_for` turns an action into the clicks the table widget would send for it, and
:func:`complete` walks a whole lesson with them (optionally trying one listed wrong answer and
one wrong choice first), checking what the learner is told along the way.
"""

from __future__ import annotations

from collections.abc import Callable

from durak_core import Action, ActionKind, Phase
from tutorial.clicks import hand_click
from tutorial.controller import LessonController
from tutorial.lesson_view import table_view
from tutorial.lessons import Step, WrongAnswer
from tutorial.view_model import Click

__all__ = ["WalkRecord", "check_reachable", "clicks_for", "complete", "expected_action"]


def _hand(action: Action) -> Click:
    assert action.card is not None
    return {"type": "card", "zone": "hand", "id": action.card.ascii()}


def _button(name: str) -> Click:
    return {"type": "action", "id": name}


def clicks_for(controller: LessonController, action: Action) -> list[Click]:
    """The clicks a learner makes for ``action`` in the controller's current position.

    Lead and throw-in: the hand card. Beat: the hand card alone when it beats exactly one
    unbeaten card (and cannot be a transfer); otherwise the attack card on the table first,
    then the hand card. Transfer and Flash: the hand card, then the Transfer (Show trump) button
    when the card has another legal meaning too (the controller then asks). Take, pass, swap,
    a new deal: their buttons.
    """
    game = controller.game
    kind = action.kind
    if kind in (ActionKind.LEAD, ActionKind.THROW):
        return [_hand(action)]
    if kind in (ActionKind.TAKE, ActionKind.PASS, ActionKind.SWAP, ActionKind.REDEAL):
        return [_button(kind.value)]
    card = action.card
    assert card is not None
    unbeaten = [a for a, d in game.table if d is None]
    beatable = [t for t in unbeaten if game.is_legal(Action.beat(action.seat, card, t))]
    if kind is ActionKind.TRANSFER or kind is ActionKind.FLASH:
        chosen = hand_click(game, action.seat, card).play
        return [_hand(action)] if chosen == action else [_hand(action), _button(kind.value)]
    assert kind is ActionKind.BEAT and action.target is not None
    transfer = Action.transfer(action.seat, card)
    if beatable == [action.target] and not game.is_legal(transfer):
        return [_hand(action)]
    target: Click = {"type": "card", "zone": "table", "id": action.target.ascii()}
    return [target, _hand(action)]


def expected_action(controller: LessonController, step: Step) -> Action:
    """The action a move step wants (the first expected one, or the first legal one of the
    accepted kind)."""
    if step.expect:
        return step.expect[0]
    game, you = controller.game, controller.you
    for action in game.legal_actions():
        if action.seat == you and (step.accept == "any" or action.kind.value == step.accept):
            return action
    raise AssertionError(f"no move of kind {step.accept!r} for the learner")


class WalkRecord:
    """What a walk saw: every message shown (kind, text), the listed wrong answers it tried,
    and how many steps it went through."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []
        self.answers: list[WrongAnswer] = []
        self.steps = 0


#: The feedback line's kind for each kind of listed wrong answer (see tutorial.lessons).
FEEDBACK_KIND = {"illegal": "error", "detour": "detour", "costly": "costly"}


def check_reachable(controller: LessonController, click: Click, *, wrong: bool = False) -> None:
    """The click targets something the table shows: a card in the learner's hand, an attack
    card the learner may select, or a button that is there and enabled. A wrong answer may
    press a button shown as unavailable (``aria-disabled``, not ``disabled``: the click still
    reaches the controller, which says why, e.g. a new deal for a hand that is no misdeal)."""
    view = table_view(controller)
    if click["type"] == "action":
        buttons = {b["id"]: b["enabled"] for b in view["actions"]}
        if wrong:
            assert click["id"] in buttons, f"no {click['id']!r} button: {view['actions']}"
        else:
            assert buttons.get(click["id"]), f"no enabled {click['id']!r} button: {view['actions']}"
    elif click.get("zone") == "hand":
        assert click["id"] in [c["id"] for c in view["hand"]], f"{click['id']} is not in the hand"
    else:
        selectable = [p["attack"]["id"] for p in view["table"] if p["selectable"]]
        assert click["id"] in selectable, f"{click['id']} can't be selected: {selectable}"


def _click_all(controller: LessonController, clicks: list[Click], *, wrong: bool = False) -> None:
    for click in clicks:
        check_reachable(controller, click, wrong=wrong)
        controller.click(click)


def complete(
    controller: LessonController,
    *,
    wrong: bool = False,
    every_wrong: bool = False,
    pick: Callable[[Step], Action] | None = None,
    on_step: Callable[[LessonController], None] | None = None,
) -> WalkRecord:
    """Walk the lesson to its end with clicks: Next through say, auto and compare steps; the
    expected move's clicks for move steps; the first correct choice for questions.

    With ``wrong=True`` each move step first tries its first listed wrong answer (the message
    must be of the answer's kind, error, detour or costly, and include its explanation) and
    each question first gets a wrong choice; ``every_wrong=True`` tries every listed wrong
    answer and every wrong choice.
    ``pick`` chooses the move for a move step (default: the first expected); ``on_step`` is
    called on entering each step and after each learner action.
    """
    record = WalkRecord()
    tr = controller.i18n
    guard = 0
    while not controller.completed:
        guard += 1
        assert guard < 200, "the lesson does not end"
        step = controller.step
        assert step is not None
        record.steps += 1
        if on_step is not None:
            on_step(controller)
        if step.kind == "move":
            hand = controller.game.hand(controller.you)
            # on a branch where the learner already played a wrong answer's card, it can't
            # be clicked any more
            clickable = [w for w in step.wrong if w.play.card is None or w.play.card in hand]
            for answer in clickable[: len(clickable) if every_wrong else int(wrong)]:
                assert answer.play.seat == controller.you
                before = len(controller.game.history)
                clicks = clicks_for(controller, answer.play)
                _click_all(controller, clicks, wrong=True)
                message = controller.message
                kind = FEEDBACK_KIND[answer.feedback]
                if kind == "error" and clicks[-1]["type"] == "action":
                    kind = "info"  # a greyed button: explained neutrally, no mistake (N13)
                assert message is not None and message[0] == kind, (step, message)
                text = message[1](tr)
                assert tr.gettext(answer.explain) in text, (text, answer.explain)
                assert len(controller.game.history) == before, "a wrong answer was played"
                assert not controller.step_done
                record.messages.append((message[0], text))
                record.answers.append(answer)
                if on_step is not None:
                    on_step(controller)
            action = pick(step) if pick is not None else expected_action(controller, step)
            clicks = clicks_for(controller, action)
            _click_all(controller, clicks)
            assert controller.game.history and controller.game.history[-1] == action, (
                f"step {controller.index + 1}: {action} was not played by {clicks}: "
                f"{controller.message and controller.message[1](tr)}"
            )
            assert controller.step_done
            message = controller.message
            assert message is not None and message[0] == "success"
            record.messages.append((message[0], message[1](tr)))
        elif step.kind == "question":
            bad_choices = [i for i, c in enumerate(step.choices) if not c.correct]
            for bad in bad_choices[: len(bad_choices) if every_wrong else int(wrong)]:
                controller.answer_question(bad)
                message = controller.message
                assert message is not None and message[0] == "error"
                record.messages.append((message[0], message[1](tr)))
                assert not controller.step_done
                if on_step is not None:
                    on_step(controller)
            good = next(i for i, c in enumerate(step.choices) if c.correct)
            controller.answer_question(good)
            message = controller.message
            assert message is not None and message[0] == "success"
            record.messages.append((message[0], message[1](tr)))
        if on_step is not None:
            on_step(controller)
        assert controller.step_done, f"step {controller.index + 1} is not done"
        controller.next()
    assert controller.game.phase is Phase.OVER or controller.game.outcome is None
    return record
