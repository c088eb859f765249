"""Why an action is refused: each check returns an :class:`IllegalAction` with a reason code
and the numbers that decide it, or ``None`` when the action is legal."""

from __future__ import annotations

from ._base import (
    PHASE_LEAD,
    PHASE_OVER,
    UNTIL_PASS,
)
from .actions import BEAT, FLASH, LEAD, PASS, REDEAL, SWAP, TAKE, THROW, TRANSFER, Action
from .bout import (
    cap,
    defending,
    is_partner,
    is_partner_of_defender,
    low_trump,
    neighbours,
    neighbours_only,
    rank_set,
    room,
    swap_partner,
    throwable,
    window_open,
)
from .cards import Card, beat_failure
from .misdeal import is_misdeal
from .reasons import IllegalAction, Reason
from .state import State
from .switches import Switches, defender_for

__all__ = ["card_actions", "defender_refusal", "redeal_refusal", "refusal"]


def refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    """Why ``action`` is refused in state ``s``: an :class:`IllegalAction` with its reason and
    the numbers that decide it, or ``None`` when it is legal (behind ``Game.play``,
    ``is_legal`` and ``why_illegal``)."""
    kind, seat, card = action.kind, action.seat, action.card
    if s.phase is PHASE_OVER:
        return IllegalAction(Reason.GAME_OVER, action)
    if not isinstance(seat, int) or not 0 <= seat < sw.players:
        return IllegalAction(Reason.NO_SUCH_SEAT, action, seat=seat, players=sw.players)
    if not s.active[seat]:
        return IllegalAction(Reason.PLAYER_OUT, action, seat=seat)
    if (kind is PASS or kind is TAKE or kind is SWAP or kind is REDEAL) and (
        card is not None or action.target is not None
    ):
        return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)
    if kind is REDEAL:
        return redeal_refusal(sw, s, action)
    if kind is PASS:
        return _pass_refusal(sw, s, action)
    if kind is TAKE:
        return defender_refusal(sw, s, action)
    if kind is SWAP:
        partner = swap_partner(sw, s, seat)
        if isinstance(partner, Reason):
            return IllegalAction(partner, action, seat=seat, card=low_trump(sw, s), turnup=s.turnup)
        return None
    if not isinstance(card, Card) or (kind is BEAT) != isinstance(action.target, Card):
        return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)
    if card not in s.hands[seat]:
        return IllegalAction(Reason.CARD_NOT_IN_HAND, action, seat=seat, card=card)
    if kind is LEAD:
        if s.phase is not PHASE_LEAD:
            return IllegalAction(
                Reason.BOUT_IN_PROGRESS, action, attacker=s.attacker, defender=s.defender
            )
        if seat != s.attacker:
            return IllegalAction(Reason.NOT_ATTACKER, action, seat=seat, attacker=s.attacker)
        return None
    if kind is BEAT or kind is TRANSFER or kind is FLASH:
        return defender_refusal(sw, s, action)
    if kind is THROW:
        return _throw_refusal(sw, s, action)
    return IllegalAction(Reason.MALFORMED_ACTION, action, kind=kind)


def _throw_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    seat = action.seat
    card = action.card
    assert card is not None
    if s.phase is PHASE_LEAD:
        return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
    if seat == s.defender:
        return IllegalAction(Reason.DEFENDER_CANNOT_THROW, action, seat=seat)
    if is_partner_of_defender(sw, s, seat):
        return IllegalAction(Reason.PARTNER_DEFENDS, action, seat=seat, defender=s.defender)
    limit = cap(sw, s)
    if limit.room <= 0 and not _neighbour_refusal(sw, s, action):
        # a full table is the real reason, whatever the timing or priority (S0, S1, S3)
        return IllegalAction(Reason.CAP_REACHED, action, **limit._asdict())
    refusal = _turn_refusal(sw, s, action)
    if refusal is not None:
        return refusal
    why = throwable(sw, s, seat, card)
    if why is Reason.RANK_NOT_ON_TABLE:
        return IllegalAction(why, action, card=card, ranks=sorted(rank_set(s)))
    if why is Reason.ONLY_FIRST_RANK:
        return IllegalAction(
            why, action, card=card, rank=s.attacks[0].rank, privileged=list(neighbours(s))
        )
    return None


def _neighbour_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    seat = action.seat
    if neighbours_only(sw, s) and seat not in neighbours(s):
        only_from = sw.rules.neighbours_only_from
        return IllegalAction(
            Reason.NOT_A_NEIGHBOUR,
            action,
            seat=seat,
            neighbours=list(neighbours(s)),
            active=sum(s.active) if only_from is not None else None,
        )
    return None


def _turn_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    """Rights, timing and priority for a throw-in or pass by a non-defender."""
    seat = action.seat
    if is_partner_of_defender(sw, s, seat):
        return IllegalAction(Reason.PARTNER_DEFENDS, action, seat=seat, defender=s.defender)
    refusal = _neighbour_refusal(sw, s, action)
    if refusal is not None:
        return refusal
    if not window_open(sw, s):
        return IllegalAction(Reason.WAIT_FOR_DEFENCE, action, unbeaten=s.defences.count(None))
    if s.passed[seat] and sw.rules.throw_in_priority is UNTIL_PASS:
        return IllegalAction(Reason.ALREADY_PASSED, action, seat=seat)
    turn = s.throw_in_turn
    if seat not in turn:
        if not turn and room(sw, s) <= 0:
            return IllegalAction(Reason.CAP_REACHED, action, **cap(sw, s)._asdict())
        priority = turn[0] if turn else None
        if s.passed[seat] and priority is None:
            return IllegalAction(Reason.ALREADY_PASSED, action, seat=seat)
        return IllegalAction(Reason.NOT_YOUR_PRIORITY, action, seat=seat, priority=priority)
    return None


def _pass_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    seat = action.seat
    if s.phase is PHASE_LEAD:
        if seat == s.attacker:
            return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
        return IllegalAction(Reason.NOTHING_TO_PASS, action, seat=seat)
    if seat == s.defender:
        return IllegalAction(
            Reason.DEFENDER_CANNOT_PASS, action, seat=seat, unbeaten=s.defences.count(None)
        )
    return _turn_refusal(sw, s, action)


def defender_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    seat, kind, card = action.seat, action.kind, action.card
    if kind is TRANSFER and not sw.rules.transfer:
        return IllegalAction(Reason.TRANSFER_DISABLED, action)
    if kind is FLASH and not sw.rules.flash:
        return IllegalAction(Reason.FLASH_DISABLED, action)
    if seat != s.defender:
        return IllegalAction(Reason.NOT_DEFENDER, action, seat=seat, defender=s.defender)
    if s.phase is PHASE_LEAD:
        return IllegalAction(Reason.MUST_LEAD, action, attacker=s.attacker)
    if s.taking:
        return IllegalAction(Reason.ALREADY_TAKING, action, defender=seat)
    if kind is TAKE:
        if None not in s.defences:
            return IllegalAction(Reason.NOTHING_TO_TAKE, action)
        return None
    assert card is not None
    if kind is BEAT:
        target = action.target
        try:
            i = s.attacks.index(target)  # type: ignore[arg-type]
        except ValueError:
            return IllegalAction(Reason.NO_SUCH_ATTACK_CARD, action, target=target)
        beaten_by = s.defences[i]
        if beaten_by is not None:
            return IllegalAction(Reason.ALREADY_BEATEN, action, target=target, by=beaten_by)
        assert target is not None
        why = beat_failure(card, target, s.trump)
        if why is not None:
            return IllegalAction(
                Reason.CANNOT_BEAT, action, card=card, target=target, trump=s.trump, why=why
            )
        return None
    # transfer (perevodnoy, S1/S2), by playing a card or by showing a trump (Flash, S2)
    if any(d is not None for d in s.defences):
        return IllegalAction(Reason.TRANSFER_AFTER_BEAT, action)
    rank = s.attacks[0].rank
    if card.rank is not rank:
        return IllegalAction(Reason.TRANSFER_RANK_MISMATCH, action, card=card, rank=rank)
    if kind is FLASH:
        if card.suit is not s.trump:
            return IllegalAction(Reason.FLASH_NOT_TRUMP, action, card=card, trump=s.trump)
        if card in s.flashed:
            return IllegalAction(
                Reason.FLASH_ALREADY_SHOWN, action, card=card, reuse=sw.rules.flash_reuse
            )
    nxt = defender_for(sw, s.active, seat)
    if sw.team is not None and is_partner(sw, s, seat, nxt):
        # S2 «pairs»: passing the attack on adds to an attack against one's partner
        return IllegalAction(Reason.TRANSFER_TO_PARTNER, action, seat=seat, next_defender=nxt)
    needed = len(s.attacks) + (kind is not FLASH)
    base = cap(sw, s).base_cap
    next_hand = len(s.hands[nxt])
    if needed > next_hand or needed > base:
        return IllegalAction(
            Reason.TRANSFER_NO_ROOM,
            action,
            next_defender=nxt,
            next_hand=next_hand,
            needed=needed,
            base_cap=base,
        )
    return None


def redeal_refusal(sw: Switches, s: State, action: Action) -> IllegalAction | None:
    """A new deal on request (C20): only a misdealt hand, before the first lead, within
    the cap."""
    rules = sw.rules
    if not sw.redeal:
        return IllegalAction(Reason.REDEAL_DISABLED, action)
    if s.phase is not PHASE_LEAD or s.bouts != 1:
        return IllegalAction(Reason.REDEAL_TOO_LATE, action)
    if s.redeals >= rules.max_redeals:
        return IllegalAction(Reason.REDEAL_CAP, action, max_redeals=rules.max_redeals)
    if not is_misdeal(s.hands[action.seat], rules.misdeal):
        return IllegalAction(
            Reason.REDEAL_NOT_MISDEALT, action, seat=action.seat, rule=rules.misdeal
        )
    return None


def card_actions(
    sw: Switches, s: State, seat: int, card: Card
) -> list[tuple[Action, IllegalAction | None]]:
    """Every action ``seat`` could mean by playing ``card`` now, most likely first, each
    with its refusal (``None`` when legal): a lead; a throw-in; or, for a defender facing
    unbeaten cards, a beat of each of them and (perevodnoy) a transfer — and, for a trump
    under Flash, showing it — the transfer first when the card has the attack's rank (even
    once it is too late: that is what it means).

    >>> from durak_core import Game, Rules
    >>> g = Game.from_position(Rules(), ["7C 9H", "8C 6D"], trump="S", table=[("6C", None)])
    >>> meant = card_actions(g.switches, g.live_state, 1, Card.parse("8C"))
    >>> [(str(a), r and r.reason.value) for a, r in meant]
    [('1:8C/6C', None)]
    """
    candidates: list[Action]
    if s.phase is PHASE_LEAD:
        candidates = [Action.lead(seat, card)]
    elif defending(s, seat):
        beats = [
            Action.beat(seat, card, a)
            for a, d in zip(s.attacks, s.defences, strict=True)
            if d is None
        ]
        transfer = [Action.transfer(seat, card)] if sw.rules.transfer else []
        if sw.rules.flash and card.suit is s.trump:
            transfer.append(Action.flash(seat, card))
        if transfer and card.rank is s.attacks[0].rank:
            candidates = [*transfer, *beats]
        else:
            candidates = [*beats, *transfer]
    else:
        candidates = [Action.throw(seat, card)]
    return [(action, refusal(sw, s, action)) for action in candidates]
