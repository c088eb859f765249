"""Team play (S0 items 5–10, S2 items 5–6 and «pairs» item 11; rules-research §2 C22, C23).

Seats are clockwise. 2v2: seats 0+2 against 1+3 (partners opposite); 3v3: 0+2+4 against
1+3+5 (team-mates alternate); 2v2v2: 0+3, 1+4, 2+5 (partners opposite).
"""

from __future__ import annotations

import pytest

from durak_core import (
    Action,
    Card,
    Game,
    PositionError,
    Reason,
    Rules,
    RulesError,
    Teams,
    team_of,
)

from .helpers import play, refuse

TWO_V_TWO = Rules(teams="2v2")


def test_team_layouts_seat_partners_as_s0_and_s2_describe() -> None:
    # S0 item 3 / S2: partners of a 2-person team sit opposite, a 3-person team alternates.
    assert team_of(Teams.TWO_V_TWO, 4) == (0, 1, 0, 1)
    assert team_of(Teams.THREE_V_THREE, 6) == (0, 1, 0, 1, 0, 1)
    assert team_of(Teams.TWO_V_TWO_V_TWO, 6) == (0, 1, 2, 0, 1, 2)
    assert team_of(Teams.NONE, 4) is None


@pytest.mark.parametrize(("teams", "players"), [("2v2", 4), ("3v3", 6), ("2v2v2", 6)])
def test_teams_need_their_own_number_of_players_s0_item5(teams: str, players: int) -> None:
    rules = Rules(teams=teams)
    assert rules.player_counts() == [players]
    with pytest.raises(RulesError, match="teams"):
        Game.deal(rules, players - 1, seed=1)
    with pytest.raises(RulesError, match="teams"):
        Rules(teams=teams, max_players=players - 1)


def test_nobody_throws_in_against_his_partner_s0_item6_s2() -> None:
    # Seat 0 attacks seat 1 with 8♣, beaten by 9♣. Seat 2 (0's partner) may add his 8♦;
    # seat 3, the defender's partner, holds 8♠ but may not add it against his partner.
    game = Game.from_position(
        TWO_V_TWO, ["10H JD", "JH QH KH", "8D 7S", "8S 10S"], trump="S", table=[("8C", "9C")]
    )
    refuse(game, "3:+8S", Reason.PARTNER_DEFENDS, seat=3, defender=1)
    refuse(game, "3:pass", Reason.PARTNER_DEFENDS, seat=3, defender=1)
    assert all(a.seat != 3 for a in game.legal_actions())
    play(game, "0:pass")
    assert game.is_legal(Action.parse("2:+8D"))


def test_the_attack_goes_to_the_next_opponent_s0_item7() -> None:
    # S0's example: your left neighbour (seat 1) is out and the next player is your partner
    # (seat 2), so you attack the following player, seat 3, who sits on your right.
    game = Game.from_position(
        TWO_V_TWO, ["8H 9D", "", "JD QD", "10S 7S"], trump="S", out=[1], discard="6S"
    )
    assert (game.attacker, game.defender) == (0, 3)
    # Without teams the next player still in (seat 2) would defend.
    alone = Game.from_position(Rules(), ["8H 9D", "", "JD QD", "10S 7S"], trump="S", out=[1])
    assert alone.defender == 2
    # A set-up that makes partners attack each other is refused.
    with pytest.raises(PositionError, match="partners"):
        Game.from_position(
            TWO_V_TWO, ["8H 9D", "", "JD QD", "10S 7S"], trump="S", out=[1], defender=2
        )


def test_after_a_take_the_defenders_left_attacks_or_his_partner_covers_s0_item8() -> None:
    # 2v2, no stock. Seat 0 leads 8♥ at seat 1, who takes. S0: the turn passes to the
    # defender's left (seat 2); seat 2 has no cards (he is out), so it passes to the
    # attacking player of the same team: seat 0 attacks seat 1 again.
    game = Game.from_position(
        TWO_V_TWO, ["8H 9D", "JH QH", "", "10S 7S"], trump="S", out=[2], discard="6S"
    )
    play(game, "0:8H 1:take 0:pass")
    assert (game.attacker, game.defender) == (0, 1)
    # Without teams the next player after the defender (seat 3) attacks, and seat 0 defends.
    alone = Game.from_position(Rules(), ["8H 9D", "JH QH", "", "10S 7S"], trump="S", out=[2])
    play(alone, "0:8H 1:take 0:pass 3:pass")
    assert (alone.attacker, alone.defender) == (3, 0)


def test_a_team_mate_covers_the_turn_of_one_who_went_out_c23() -> None:
    # 3v3: seat 1 beats seat 0's only attack card with his last card and goes out. His
    # turn to attack passes to the next team-mate with cards, seat 3, who attacks his
    # next opponent, seat 4 (rules-research C23's generic rule).
    hands = ["8H 9D", "9H", "JD QD", "10S 7S", "KD KC", "AD AC"]
    rules = Rules(teams="3v3")
    game = Game.from_position(rules, hands, trump="S", discard="6S")
    play(game, "0:8H 1:9H/8H")  # his hand is empty: the bout ends at once (S2 item 37)
    assert 1 in game.state.out_order
    assert (game.attacker, game.defender) == (3, 4)
    # Without teams the next player still in after seat 1 attacks: seat 2 against seat 3.
    alone = Game.from_position(Rules(), hands, trump="S", discard="6S")
    play(alone, "0:8H 1:9H/8H")
    assert (alone.attacker, alone.defender) == (2, 3)


def test_the_whole_team_loses_when_only_it_holds_cards_s0_item10_ii() -> None:
    # 2v2, seat 2 is out: seat 0 leads his last card and seat 1 takes. Seat 0 is out now,
    # so only team 1+3 holds cards.
    game = Game.from_position(
        TWO_V_TWO, ["8H", "JH QH", "", "10S 7S"], trump="S", out=[2], discard="6S"
    )
    play(game, "0:8H 1:take")
    outcome = game.outcome
    assert outcome is not None
    assert set(outcome.losers) == {1, 3}
    # its durak: the loser nearest clockwise after the first player who went out (seat 2)
    assert outcome.durak == 3


def test_team_mates_play_on_to_a_single_loser_s0_item10_i() -> None:
    rules = Rules(teams="2v2", team_end="single_loser")
    game = Game.from_position(rules, ["8H", "JH QH", "", "10S 7S"], trump="S", out=[2])
    play(game, "0:8H 1:take")
    assert game.outcome is None
    # only team 1+3 is left: the partners now attack each other
    assert {game.attacker, game.defender} == {1, 3}


def test_s2_pairs_play_is_normal_but_nobody_adds_against_his_partner_item11() -> None:
    # S2 «pairs»: the next player still in defends, even a partner (seat 1 is out, so seat 0
    # attacks seat 2); his partner may not add to it, the opponents may.
    rules = Rules(teams="2v2", team_rotation="individual")
    game = Game.from_position(rules, ["8H 8D", "", "JH QH", "8S 10S"], trump="S", out=[1])
    assert (game.attacker, game.defender) == (0, 2)
    play(game, "0:8H 2:JH/8H")
    refuse(game, "0:+8D", Reason.PARTNER_DEFENDS, seat=0, defender=2)
    assert game.is_legal(Action.parse("3:+8S"))


@pytest.mark.parametrize(("teams", "players"), [("2v2", 4), ("3v3", 6), ("2v2v2", 6)])
@pytest.mark.parametrize("end", ["team_loses", "single_loser"])
def test_random_team_games_never_pit_partners_while_two_teams_play(
    teams: str, players: int, end: str
) -> None:
    import random

    rules = Rules(teams=teams, team_end=end, deck_size=52 if players == 6 else 36)
    team = team_of(rules.teams, players)
    assert team is not None
    for seed in range(15):
        game = Game.deal(rules, players, seed=seed)
        rng = random.Random(seed)
        while game.outcome is None:
            s = game.state
            still = {team[i] for i in range(players) if s.active[i]}
            if len(still) > 1:
                assert team[s.attacker] != team[s.defender]
                for action in game.legal_actions():
                    if action.kind.value in ("throw", "pass"):
                        assert team[action.seat] != team[s.defender]
            game.play(rng.choice(list(game.legal_actions())))
        if end == "team_loses":
            losers = set(game.outcome.losers)
            assert losers == {i for i in range(players) if team[i] == team[game.outcome.durak]}
        else:
            assert game.outcome.losers in ((), (game.outcome.durak,))


# ------------------------------------------------- issue 17: the rule edges of team play

SIX = ["8C 9H", "10C JD QD", "8H KC", "8D KD", "8S KH", "9D QC"]


def test_wikihow_neighbours_only_is_a_rule_of_individual_play_3v3_s0_item44() -> None:
    """S0: «Como regla opcional cuando juegan cinco o seis jugadores individualmente, se puede
    imponer que solo los jugadores a cada lado del defensor pueden atacar». The
    ``wikihow_home`` preset's ``neighbours_only_from=5`` is that rule, so with teams it does
    not apply: seat 4, a 3v3 team-mate of the attacker (seat 0), may add once the players
    before him have passed (S0's «until pass» order), and no refusal names the neighbours."""
    rules = Rules.preset("wikihow_home").replace(teams="3v3")
    assert rules.neighbours_only_from == 5 and rules.neighbours_only_limit is None
    game = Game.from_position(rules, SIX, trump="S")
    play(game, "0:8C 1:10C/8C")
    refuse(game, "4:+8S", Reason.NOT_YOUR_PRIORITY, seat=4, priority=0)
    play(game, "0:pass")
    refuse(game, "4:+8S", Reason.NOT_YOUR_PRIORITY, seat=4, priority=2)
    refuse(game, "3:+8D", Reason.PARTNER_DEFENDS, seat=3, defender=1)
    play(game, "2:pass")
    assert game.throw_in_turn() == [4]
    play(game, "4:+8S")
    assert game.table[-1] == (Card.parse("8S"), None)
    # The same six playing individually: only the defender's neighbours (0 and 2) add.
    alone = Game.from_position(Rules.preset("wikihow_home"), SIX, trump="S")
    play(alone, "0:8C 1:10C/8C 0:pass")
    refuse(alone, "4:+8S", Reason.NOT_A_NEIGHBOUR, seat=4, neighbours=[0, 2], active=6)


def test_wikihow_neighbours_only_is_a_rule_of_individual_play_2v2v2_s0_item44() -> None:
    """S0: «cuando juegan cinco o seis jugadores individualmente»: with three pairs (0+3, 1+4,
    2+5) the attacker's partner (seat 3) and the third pair (seat 5) add like seat 2; only the
    defender's partner (seat 4) may not."""
    rules = Rules.preset("wikihow_home").replace(teams="2v2v2")
    game = Game.from_position(rules, SIX, trump="S")
    play(game, "0:8C 1:10C/8C 0:pass 2:pass")
    assert game.throw_in_turn() == [3]
    refuse(game, "4:+8S", Reason.PARTNER_DEFENDS, seat=4, defender=1)
    play(game, "3:+8D")
    assert game.table[-1] == (Card.parse("8D"), None)


def test_dame_karty_neighbours_rule_is_not_switched_off_by_teams_alone_s3() -> None:
    """S3 has no teams («sin ... equipos»): ``neighbours_only_from`` keeps its meaning there;
    the explicit ``throw_in_rights='neighbours'`` still holds in team play."""
    assert Rules.preset("dame_karty").neighbours_only_limit == 5
    rules = Rules(throw_in_rights="neighbours", teams="3v3")
    game = Game.from_position(rules, SIX, trump="S")
    play(game, "0:8C 1:10C/8C 0:pass")
    refuse(game, "4:+8S", Reason.NOT_A_NEIGHBOUR, seat=4, neighbours=[0, 2], active=None)


PAIRS_TRANSFER = Rules(teams="2v2", team_rotation="individual", transfer=True)


def test_pairs_no_transfer_onto_ones_own_partner_s2_item11_item58() -> None:
    """S2: a transfer adds a card to the attack («Para pasar encendido el ataque, él agrega
    esta tarjeta a las tarjetas que atacan»), and in «Pairs» «un jugador no puede agregar a un
    ataque contra su socio». 2v2, seat 2 out: seat 0 attacks seat 1, whose next player is
    his own partner, seat 3; passing the attack on to him is refused."""
    game = Game.from_position(
        PAIRS_TRANSFER, ["9H 8D", "9C QH", "", "JH QS"], trump="S", out=[2], discard="6S"
    )
    play(game, "0:9H")
    refuse(game, "1:>9C", Reason.TRANSFER_TO_PARTNER, seat=1, next_defender=3)
    assert all(a.kind.value != "transfer" for a in game.legal_actions())
    play(game, "1:take")
    # With all four in, the next player is an opponent: the transfer stands.
    full = Game.from_position(PAIRS_TRANSFER, ["9H 8D", "9C QH", "JD 7C", "JH QS"], trump="S")
    play(full, "0:9H 1:>9C")
    assert (full.attacker, full.defender) == (1, 2)


def test_pairs_no_flash_onto_ones_own_partner_s2_item11() -> None:
    """S2's Flash «La idea es similar al "perevodnoy"»: showing the trump passes the attack on
    just the same, making the defender the attacker of his partner: refused too."""
    rules = PAIRS_TRANSFER.replace(flash=True)
    game = Game.from_position(
        rules, ["9H 8D", "9S QH", "", "JH QS"], trump="S", out=[2], discard="6S"
    )
    play(game, "0:9H")
    refuse(game, "1:!9S", Reason.TRANSFER_TO_PARTNER, seat=1, next_defender=3)
    refuse(game, "1:>9S", Reason.TRANSFER_TO_PARTNER, seat=1, next_defender=3)


def test_pairs_transfer_between_partners_once_only_one_team_is_left_s0_item10_i() -> None:
    """Once only one team holds cards (``team_end='single_loser'``), partners play each
    other (S0 item 10 (i)): a transfer to one's partner is then an ordinary transfer."""
    rules = PAIRS_TRANSFER.replace(team_end="single_loser")
    game = Game.from_position(
        rules, ["", "9C QH", "", "9H JH QS"], trump="S", out=[0, 2], attacker=3, defender=1
    )
    play(game, "3:9H 1:>9C")
    assert (game.attacker, game.defender) == (1, 3)


# S0's six-player example (item 9): teams of three, black A C E against yellow B D F, seated
# clockwise A B C D E F (seats 0-5). B beats A's attack with his last card and goes out.
S0_EXAMPLE = ["7H 7D 10H KC", "8H", "QC", "9C 6D AC", "QD", "JC JH AD"]
S0_BOUTS = [
    # (attacker, defender) S0 names, the moves of that bout
    ("AB", "0:7H 1:8H/7H"),  # (1) B repels A and goes out
    ("DC", "3:9C 2:take"),  # (2) «D debe cubrir ese ataque y atacar a C»; (3) C takes
    ("FE", "5:JC 4:take"),  # «ahora F debe atacar a E»; (4) E takes
    ("DA", "3:6D 0:7D/6D"),  # «ese turno ahora es de D, ... debe atacar a A»; (5) A repels
    ("AF", "0:10H"),  # «es el turno ahora de que A ataque a F»
]


def _finish_bout(game: Game) -> None:
    """Everybody but the defender passes until the bout ends."""
    while game.state.phase.value == "bout":
        game.play(Action.pass_(next(s for s in game.acting_seats() if s != game.defender)))


def _s0_example(rotation: str) -> Game:
    rules = Rules.preset("wikihow_home").replace(teams="3v3", team_rotation=rotation)
    return Game.from_position(rules, S0_EXAMPLE, trump="S")


@pytest.mark.parametrize(("ending", "after"), [("5:JH/10H", "FC"), ("5:take", "CD")])
def test_s0_six_player_team_turns_follow_the_worked_example_s0_item9(
    ending: str, after: str
) -> None:
    """S0 item 9: «las rotaciones son para la defensa y para los atacantes cuando se juega por
    equipos»; «los dos jugadores del ataque se turnarán para cubrir el ataque del jugador que
    les falta». ``team_rotation='team_turns'`` plays the example bout by bout, and both of
    its endings: (i) «que F consiga repeler todos los ataques ... es el turno ahora de que F
    ataque a C»; (ii) «F no tenga éxito ... y este es C, que debe atacar a D»."""
    game = _s0_example("team_turns")
    names = "ABCDEF"
    for (attacker, defender), moves in S0_BOUTS:
        assert (names[game.attacker], names[game.defender]) == (attacker, defender)
        play(game, moves)
        if attacker == "A" and defender == "F":
            play(game, ending)
        _finish_bout(game)
    assert names[game.attacker] + names[game.defender] == after
    assert game.state.out_order == [1]


def test_engine_default_team_rotation_on_s0s_example_c23() -> None:
    """The default ``skip_partners`` (rules-research C23's generic rule) is not S0's
    example: after B goes out, D covers B's turn but attacks his own next opponent, E,
    where S0 has him attack C («si B tuviera cartas, este, atacaría a C»)."""
    game = _s0_example("skip_partners")
    play(game, "0:7H 1:8H/7H")
    assert (game.attacker, game.defender) == (3, 4)


def test_team_turns_is_ordinary_play_while_nobody_is_out_s0_item56() -> None:
    """S0 item 56: «Seis jugadores por equipos o individual: las reglas son las mismas»: with
    everybody in, a take passes the attack to the defender's left and a successful defence
    makes the defender attack his left."""
    for teams, hands in (("3v3", SIX), ("2v2", SIX[:4])):
        rules = Rules(teams=teams, team_rotation="team_turns")
        took = Game.from_position(rules, hands, trump="S")
        play(took, "0:8C 1:take")
        _finish_bout(took)
        assert (took.attacker, took.defender) == (2, 3)
        beat = Game.from_position(rules, hands, trump="S")
        play(beat, "0:8C 1:10C/8C")
        _finish_bout(beat)
        assert (beat.attacker, beat.defender) == (1, 2)


def test_team_turns_is_for_two_teams_s0_item9() -> None:
    with pytest.raises(RulesError, match="team_turns"):
        Rules(teams="2v2v2", team_rotation="team_turns")


@pytest.mark.parametrize(("teams", "players"), [("2v2", 4), ("3v3", 6)])
def test_random_team_turns_games_never_pit_partners_s0_item9(teams: str, players: int) -> None:
    import random

    rules = Rules.preset("wikihow_home").replace(
        teams=teams, team_rotation="team_turns", deck_size=52 if players == 6 else 36
    )
    team = team_of(rules.teams, players)
    assert team is not None
    for seed in range(10):
        game = Game.deal(rules, players, seed=seed)
        rng = random.Random(seed)
        while game.outcome is None:
            s = game.state
            if len({team[i] for i in range(players) if s.active[i]}) > 1:
                assert team[s.attacker] != team[s.defender]
                assert s.active[s.attacker] and s.active[s.defender]
            again = Game.from_position(rules, game.position())
            assert again.state == game.state
            game.play(rng.choice(list(game.legal_actions())))


def test_the_rule_switches_are_one_cached_value_and_the_seats_follow_them_s0_item7() -> None:
    """Issue 35, step 1: what the rules decide once (team play, skipping partners, team turns,
    the team's loss) is one frozen value per (rules, players), shared by every game; the seat
    helpers are functions of it and the players still in (S0 item 7: the attack goes to the
    next *opponent*; C23: a team-mate covers for one who is out)."""
    from durak_core.switches import cover, defender_for, next_active, next_mate, switches

    rules = Rules(teams=Teams.TWO_V_TWO)
    sw = switches(rules, 4)
    assert sw is switches(Rules(teams=Teams.TWO_V_TWO), 4)
    assert Game.deal(rules, 4, seed=1).switches is sw
    assert sw.team == (0, 1, 0, 1) and sw.skip_partners and sw.team_loses
    everyone = [True] * 4
    assert defender_for(sw, everyone, 0) == 1  # the next seat is an opponent
    one_out = [True, False, True, True]
    assert defender_for(sw, one_out, 0) == 3  # seat 1 is out: the next opponent is seat 3
    assert next_active(one_out, 0) == 2  # the next player still in is his partner
    assert cover(sw, one_out, 1) == 3 and cover(sw, one_out, 0) == 0
    assert next_mate(sw, one_out, 1) == 3 and next_mate(sw, everyone, 0) == 2
    alone = switches(Rules(), 4)
    assert alone.team is None and not alone.skip_partners
    assert defender_for(alone, one_out, 0) == 2
    assert not switches(Rules(), 2).can_repeat and switches(Rules(), 3).can_repeat
    assert switches(Rules(transfer=True), 2).can_repeat
