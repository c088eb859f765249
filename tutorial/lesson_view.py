"""Rendering a lesson for the view: the table widget's and the panel's snapshots.

Pure functions of a :class:`~tutorial.controller.LessonController`'s state, every text in the
current language. The view layer (``app.py``) calls them; the controller never does.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from durak_core import (
    Action,
    ActionKind,
    Cap,
    CapScope,
    Card,
    Event,
    EventKind,
    Game,
    HandCap,
    Misdeal,
    MisdealMode,
    Phase,
    team_of,
)

from .comparison import comparison_rows
from .controller import LessonController, PanelView, two_star_slips
from .explain import narrate
from .i18n import Gettext
from .lessons import LESSON_DIR, Lesson, load_lessons
from .names import (
    Role,
    Term,
    action_label,
    card_count,
    card_full,
    rank_symbol,
    role_name,
    suit_name,
    term,
)
from .people import agree
from .progress import stored_stars
from .view_model import ActionButton, CardView, Message, PairView, SeatView, TableView

__all__ = [
    "card_view",
    "feedback_label",
    "finish_view",
    "last_out_together",
    "lesson_links",
    "panel_view",
    "table_view",
]


def card_view(game: Game, card: Card, tr: Gettext, mark: str = "") -> CardView:
    """One card as the table widget shows it (its label says whether it is a trump)."""
    trump = card.suit is game.trump
    label = card_full(card, tr)
    if trump:
        label = tr.gettext("{card} (trump)", card=label)
    view: CardView = {
        "id": card.ascii(),
        "rank": rank_symbol(card.rank, tr),
        "suit": card.suit.letter,  # type: ignore[typeddict-item]
        "symbol": card.suit.symbol,
        "red": card.suit.is_red,
        "trump": trump,
        "label": label,
    }
    if mark:
        view["mark"] = mark  # type: ignore[typeddict-item]
    return view


def table_view(ctl: LessonController) -> TableView:
    """The table widget's snapshot: seats, hand, table, stock, buttons and the feedback line."""
    tr = ctl.i18n
    game, you = ctl.game, ctl.you
    s = game.state
    names = ctl.names(tr)
    legal = ctl.learner_actions()
    hinted = ctl.hint_actions()
    hinted_cards = {a.card for a in hinted if a.card is not None}
    new = {
        e.cards[0]
        for e in game.events_since(ctl.since)
        if e.kind in (EventKind.LEAD, EventKind.THROW_IN, EventKind.BEAT, EventKind.TRANSFER)
        and e.cards
    }
    playable = {a.card for a in legal if a.card is not None}

    def mark(card: Card) -> str:
        if card == ctl.selected:
            return "selected"
        if card in hinted_cards:
            return "hint"
        if card == ctl.explained:
            return "explain"
        if ctl.hints and card in playable:
            return "playable"
        return ""

    step = ctl.step
    # a question about who attacks whom: the badges would answer it (hide_roles)
    hide_roles = (
        step is not None and step.kind == "question" and step.hide_roles and not ctl.step_done
    )
    actors = set(game.acting_seats()) if game.outcome is None and not hide_roles else set()
    teams = team_of(game.rules.teams, game.players)
    over = game.outcome
    # the game is over: every hand left is shown face up (the durak's cards, his team's)
    face_up = ctl.visible_seats() | (
        {seat for seat in range(game.players) if s.hands[seat]} if over is not None else set()
    )
    seats: list[SeatView] = []
    for seat in range(game.players):
        role: str = ""
        if over is not None and over.durak == seat:
            role = "durak"
        elif over is not None and seat in over.losers and len(over.losers) > 1:
            role = "loser"  # team play: the durak's team-mates lose with him, out or not
        elif not s.active[seat]:
            role = "out"
        elif over is not None:
            pass
        elif hide_roles:
            role = ""
        elif seat == s.attacker:
            role = "attacker"
        elif seat == s.defender:
            role = "defender"
        elif seat in game.throw_in_turn():
            role = "thrower"
        view: SeatView = {
            "seat": seat,
            "name": names[seat],
            "count": len(s.hands[seat]),
            "count_label": card_count(len(s.hands[seat]), tr),
            "role": role,  # type: ignore[typeddict-item]
            "role_label": _role_label(role, tr),
            "you": seat == you,
            "acting": seat in actors,
        }
        if seat in face_up and seat != you:
            view["cards"] = [card_view(ctl.game, c, tr) for c in s.hands[seat]]
        if teams is not None:
            view["team"] = teams[seat]
            label = tr.gettext("Team {n}", n=teams[seat] + 1)
            if (
                game.phase is Phase.BOUT
                and not hide_roles
                and seat != s.defender
                and s.active[seat]
                and teams[seat] == teams[s.defender]
            ):
                # S0, S2: nobody adds cards against his own team-mate
                label = tr.gettext(
                    "{team}: the defender's team, no adding cards in this bout",
                    team=label,
                )
            view["team_label"] = label
        seats.append(view)
    defender_turn = game.defending(you)
    pairs: list[PairView] = [
        {
            "attack": card_view(
                ctl.game, a, tr, "selected" if a == ctl.target else ("new" if a in new else "")
            ),
            "defence": card_view(ctl.game, d, tr, "new" if d in new else "") if d else None,
            "selectable": defender_turn and d is None,
        }
        for a, d in game.table
    ]
    kinds = {a.kind for a in legal}
    actions: list[ActionButton] = []
    # In free play, no button while the computer moves or once the game is over, and none
    # once the lesson is finished: it would do nothing (a click on a card says why).
    # (nor while a question about the roles is open: Take or Done would say who defends)
    waiting = (
        (ctl.free_play and not legal)
        or (ctl.completed and not ctl.free_play)
        or game.outcome is not None
        or hide_roles
    )
    if waiting:
        pass
    elif you == s.defender and game.phase is not Phase.OVER:
        actions.append(
            {
                "id": "take",
                "label": action_label(ActionKind.TAKE, tr),
                "enabled": ActionKind.TAKE in kinds,
            }
        )
    else:
        actions.append(
            {
                "id": "pass",
                "label": action_label(ActionKind.PASS, tr, taking=s.taking),
                "enabled": ActionKind.PASS in kinds,
            }
        )
    if ctl.selected is not None and game.is_legal(Action.transfer(you, ctl.selected)):
        actions.append(
            {"id": "transfer", "label": action_label(ActionKind.TRANSFER, tr), "enabled": True}
        )
    if ctl.selected is not None and game.rules.flash and game.defending(you):
        # S2's «Flash»: shown for any held card, so that a click on a card that may not be
        # shown (not a trump, shown before) is explained by the rule that refuses it
        actions.append(
            {
                "id": "flash",
                "label": action_label(ActionKind.FLASH, tr),
                "enabled": game.is_legal(Action.flash(you, ctl.selected)),
            }
        )
    if ActionKind.SWAP in kinds:
        actions.append({"id": "swap", "label": action_label(ActionKind.SWAP, tr), "enabled": True})
    if not waiting and _redeal_open(game):
        # a new deal on request (C20): offered until the first card is led; a click on it
        # without a misdealt hand (or past the cap) says why not
        actions.append(
            {
                "id": "redeal",
                "label": action_label(ActionKind.REDEAL, tr),
                "enabled": ActionKind.REDEAL in kinds,
            }
        )
    if ctl.may_keep_deal():
        # TRANSLATORS: button of a player with a misdealt hand who plays it anyway instead of
        # asking for a new deal.
        actions.append(
            {"id": "keep", "label": tr.pgettext("button", "Keep these cards"), "enabled": True}
        )
    if ctl.can_advise():
        # Free play (and the full-game page) has no panel Hint button: the table offers it.
        # TRANSLATORS: button asking the computer which move it would make here, and why.
        actions.append({"id": "hint", "label": tr.pgettext("button", "Hint"), "enabled": True})
    hinted_kinds = {a.kind.value for a in hinted}
    for button in actions:
        if button["id"] in hinted_kinds:
            button["hint"] = True
    turnup = s.turnup
    cap = game.cap()
    message: Message | None = None
    if ctl.message is not None:
        kind = ctl.message[0]
        message = {"kind": kind, "text": ctl.message[1](tr), "id": ctl.message_id}
        label = feedback_label(kind, tr, quiz=ctl.step is not None and ctl.step.kind == "question")
        if label:
            message["label"] = label
    return {
        "lang": tr.language,
        "labels": {
            "stock": term(Term.STOCK, tr),
            "discard": term(Term.DISCARD, tr),
            "trump": term(Term.TRUMP, tr),
            "table": term(Term.TABLE, tr),
            "hand": term(Term.HAND, tr),
            "open_ranks": tr.gettext("Ranks on the table"),
            "empty_table": tr.gettext("The table is empty."),
            "cap": _cap_caption(cap, tr),
            "acting": tr.gettext("Playing now"),
            "no_stock": tr.gettext("The stock is used up"),
        },
        "seats": seats,
        "you": you,
        "hand": [card_view(ctl.game, c, tr, mark(c)) for c in s.hands[you]],
        "table": pairs,
        "stock_count": len(s.stock),
        "stock_label": card_count(len(s.stock), tr),
        "turnup": card_view(ctl.game, turnup, tr) if turnup is not None else None,
        "turnup_in_stock": game.turnup_in_stock,
        "trump_symbol": s.trump.symbol,
        "trump_name": suit_name(s.trump, tr),
        "discard_count": len(s.discard),
        "discard_label": card_count(len(s.discard), tr),
        "open_ranks": [rank_symbol(r, tr) for r in game.table_ranks()],
        "cap_label": _cap_label(cap, tr) if game.phase is Phase.BOUT else "",
        "actions": actions,
        "message": message,
        # free play has its move log instead
        "narration": narration(ctl, tr) if not ctl.free_play else "",
        "hints": ctl.hints,
        "busy": ctl.opponents_pending(),
    }


def _role_label(role: str, tr: Gettext) -> str:
    if role == "loser":
        # TRANSLATORS: badge next to a team-mate of the durak: under team rules the whole
        # team loses the game, not only its durak.
        return tr.pgettext("role badge", "Loses too")
    return role_name(Role(role), tr) if role else ""


def _cap_caption(cap: Cap, tr: Gettext) -> str:
    """What the attack-limit chip counts: every attack card of the bout, or (S2, C7) only
    the unbeaten ones."""
    if cap.scope is CapScope.UNBEATEN:
        # TRANSLATORS: caption of the attack-limit chip when only the attack cards not yet
        # beaten count against the limit (Wikipedia's rule), e.g. "Unbeaten attack cards:
        # 2 of 5 (the defender's hand)".
        return tr.gettext("Unbeaten attack cards")
    return tr.gettext("Attack cards")


def _cap_label(cap: Cap, tr: Gettext) -> str:
    """``"2 of 6"``; when the defender's hand sets the limit, it says so: ``"2 of 5 (cards
    in the defender's hand)"`` (his hand now) or ``"… (the defender's hand when the bout
    began)"``."""
    shown = tr.gettext("{n} of {cap}", n=cap.on_table, cap=cap.cap)
    if cap.defender_hand >= cap.base_cap:
        return shown
    if cap.hand_rule is HandCap.CURRENT_HAND:
        # TRANSLATORS: the attack limit is the number of cards the defender holds now;
        # {count} is e.g. "2 of 5".
        return tr.gettext("{count} (cards in the defender's hand)", count=shown)
    # TRANSLATORS: the attack limit is the number of cards the defender held when he became
    # the defender; {count} is e.g. "3 of 4".
    return tr.gettext("{count} (the defender's hand at the start)", count=shown)


def _redeal_open(game: Game) -> bool:
    """A new deal may still be asked for: the rules allow it on request and no card of the
    game has been led yet."""
    rules = game.rules
    return (
        rules.misdeal is not Misdeal.OFF
        and rules.misdeal_mode is MisdealMode.ON_REQUEST
        and game.phase is Phase.LEAD
        and game.state.bouts == 1
        and game.outcome is None
    )


def feedback_label(kind: str, tr: Gettext, *, quiz: bool = False) -> str:
    """The short label the feedback line starts with, telling the three kinds of feedback on
    a move apart: refused by the rules, allowed but not the point, allowed but costly. A
    wrong answer to a question (also an ``error``) has none: it says "Not quite" itself."""
    if kind == "error" and not quiz:
        # TRANSLATORS: label of the feedback line: the rules refuse this move.
        return tr.pgettext("feedback", "Not allowed")
    if kind == "detour":
        # TRANSLATORS: label of the feedback line: the move is legal, but this step asks for
        # something else.
        return tr.pgettext("feedback", "Allowed, but…")
    if kind == "hint":
        # TRANSLATORS: label of the feedback line: the computer's advice and why.
        return tr.pgettext("feedback", "Hint")
    if kind == "costly":
        # TRANSLATORS: label of the feedback line: the move is legal but costs something.
        return tr.pgettext("feedback", "Allowed, but costly")
    return ""


def narration(ctl: LessonController, tr: Gettext) -> str:
    """The latest events since the learner's last move, as sentences."""
    events = [
        e
        for e in ctl.game.events_since(ctl.since)
        if e.kind not in (EventKind.PASS,) or e.seat != ctl.you
    ]
    names = ctl.names(tr)
    told = [narrate(e, tr, players=names, you=ctl.you) for e in _shared_places(ctl, events[-6:])]
    over = bool(events) and events[-1].kind is EventKind.GAME_OVER
    why = _team_durak_why(ctl, tr, names) if over else ""
    return " ".join([*told, why] if why else told)


def last_out_together(game: Game) -> frozenset[int]:
    """The seats that went out at the very end, together (at the end of the last bout)."""
    together: set[int] = set()
    for event in reversed(game.events):
        if event.kind in (EventKind.BITO, EventKind.PICK_UP, EventKind.BOUT_START):
            break
        if event.kind is EventKind.PLAYER_OUT and event.seat is not None:
            together.add(event.seat)
    return frozenset(together)


def _shared_places(ctl: LessonController, events: list[Event]) -> list[Event]:
    """A draw: the players who went out together at the end share their place (N19: not
    "place 2" and "place 3" for two who ran out of cards at once)."""
    outcome = ctl.game.outcome
    if outcome is None or outcome.durak is not None:
        return events
    tied = last_out_together(ctl.game)
    places = [e.n for e in events if e.kind is EventKind.PLAYER_OUT and e.seat in tied]
    if len(places) < 2:
        return events
    shared = min(places)
    return [
        e._replace(n=shared) if e.kind is EventKind.PLAYER_OUT and e.seat in tied else e
        for e in events
    ]


def _team_durak_why(ctl: LessonController, tr: Gettext, names: list[str]) -> str:
    """A team loss names one durak among the losers (S0): say why that one."""
    outcome = ctl.game.outcome
    if outcome is None or outcome.durak is None or not outcome.out_order:
        return ""
    holding = [seat for seat in outcome.losers if ctl.game.state.hands[seat]]
    if len(holding) < 2:
        return ""
    first = outcome.out_order[0]
    if first == ctl.you:
        return tr.gettext(
            "{player} counts as the durak: of the players still holding cards, {player} sits "
            "nearest clockwise after you, and you went out first.",
            player=names[outcome.durak],
        )
    if outcome.durak == ctl.you:
        # TRANSLATORS: "went out first" may agree with {first} (ru «Первой из игры выходит
        # Ана», «Первым … Бруно»); the variant without a gender must not agree at all.
        return agree(
            tr,
            names[first],
            "You count as the durak: of the players still holding cards, you sit nearest "
            "clockwise after {first}, who went out first.",
            first=names[first],
        )
    # TRANSLATORS: as above, "went out first" may agree with {first}.
    return agree(
        tr,
        names[first],
        "{player} counts as the durak: of the players still holding cards, {player} sits "
        "nearest clockwise after {first}, who went out first.",
        player=names[outcome.durak],
        first=names[first],
    )


def panel_view(ctl: LessonController) -> PanelView:
    """The lesson panel's snapshot: title, step text, question, comparison, buttons, score."""
    tr = ctl.i18n
    lesson = ctl.lesson
    step = ctl.step
    total = len(lesson.steps)
    panel = PanelView(
        title=tr.gettext(lesson.title),
        summary=tr.gettext(lesson.summary),
        teaches=[tr.gettext(t) for t in lesson.teaches],
        step_label=tr.gettext("Free play")
        if ctl.free_play
        else tr.gettext("Lesson complete")
        if ctl.completed
        else tr.gettext("Step {n} of {total}", n=min(ctl.index + 1, total), total=total),
        text=tr.gettext(step.say) if step is not None and step.say else "",
        question=tr.gettext(step.question) if step is not None and step.kind == "question" else "",
        choices=[
            {
                "label": tr.gettext(c.label),
                "picked": ctl.answer == i,
                "correct": c.correct and ctl.answer == i,
            }
            for i, c in enumerate(step.choices)
        ]
        if step is not None and step.kind == "question"
        else [],
        comparison=comparison_rows(
            ctl.comparison, step, ctl.game.rules, ctl.names(tr), ctl.you, tr
        ),
        can_next=ctl.can_next(),
        can_back=ctl.can_back(),
        can_hint=ctl.can_hint(),
        can_free_play=ctl.can_free_play(),
        completed=ctl.completed,
        stars=ctl.stars() if ctl.completed else 0,
        best_stars=stored_stars(ctl.progress, lesson.id),
        mistakes=ctl.mistakes,
        hints_used=ctl.hints_used,
        skipped=ctl.skipped,
        links=lesson_links(lesson, tr),
        finish=finish_view(ctl) if ctl.completed and not ctl.free_play else None,
        showing_all=ctl.showing_all(),
        can_show_all=ctl.navigation and not ctl.free_play,
    )
    return panel


@cache
def _lesson_pages() -> tuple[tuple[str, str, str], ...]:
    """``(id, page, title msgid)`` of every lesson of the explainer, in order (read once)."""
    return tuple(
        (lesson.id, Path(lesson.source).stem, lesson.title) for lesson in load_lessons(LESSON_DIR)
    )


def lesson_links(lesson: Lesson, tr: Gettext) -> dict[str, Any]:
    """Where a lesson page leads: ``index`` (the page name of the lesson list), and
    ``previous`` / ``next``: ``{"page", "title"}`` of the neighbouring lessons, or ``None``
    (after the last lesson, ``next`` is the full-game page). A lesson that is not one of the
    explainer's (the full-game page's) has only the index."""
    pages = _lesson_pages()
    index = next((i for i, (lesson_id, _, _) in enumerate(pages) if lesson_id == lesson.id), None)
    links: dict[str, Any] = {"index": "index", "previous": None, "next": None}
    if index is None:
        return links
    if index > 0:
        _, page, title = pages[index - 1]
        links["previous"] = {"page": page, "title": tr.gettext(title)}
    if index + 1 < len(pages):
        _, page, title = pages[index + 1]
        links["next"] = {"page": page, "title": tr.gettext(title)}
    else:
        links["next"] = {"page": "play", "title": tr.gettext("Play a whole game"), "last": True}
    return links


def finish_view(ctl: LessonController) -> dict[str, Any]:
    """The finishing panel: the stars this run earned and why (mistakes and hints against
    the lesson's scale, or the skipped steps), and the best result kept in this browser."""
    tr = ctl.i18n
    stars = ctl.stars()
    mistakes, hints = ctl.mistakes, ctl.hints_used
    why: list[str] = []
    if ctl.skipped:
        why.append(
            tr.gettext(
                "Some steps were played for you (the page was opened at a later step, or the "
                "presenter showed them), so this run earns no stars. Try again from the first "
                "step to earn them."
            )
        )
    elif mistakes == 0 and hints == 0:
        why.append(tr.gettext("No mistakes and no hints: a clean run earns three stars."))
    else:
        why.append(
            # TRANSLATORS: {mistakes} is e.g. "2 mistakes", {hints} e.g. "1 hint".
            tr.gettext(
                "In this run: {mistakes} and {hints}.",
                mistakes=tr.ngettext("{n} mistake", "{n} mistakes", mistakes),
                hints=tr.ngettext("{n} hint", "{n} hints", hints),
            )
        )
        slips = two_star_slips(ctl.lesson.par)
        why.append(
            tr.ngettext(
                "Three stars are for a run without mistakes or hints, two for up to {n} slip "
                "(a mistake or a hint), one otherwise.",
                "Three stars are for a run without mistakes or hints, two for up to {n} slips "
                "(mistakes or hints), one otherwise.",
                slips,
            )
        )
    return {
        "stars": stars,
        "stars_label": tr.ngettext("{n} star out of 3", "{n} stars out of 3", stars),
        "why": why,
        "best": stored_stars(ctl.progress, ctl.lesson.id),
    }
