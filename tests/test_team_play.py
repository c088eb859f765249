"""Team play (S0 items 5–10, S2 items 5–6 and «pairs» item 11; rules-research §2 C22, C23).

Seats are clockwise. 2v2: seats 0+2 against 1+3 (partners opposite); 3v3: 0+2+4 against
1+3+5 (team-mates alternate); 2v2v2: 0+3, 1+4, 2+5 (partners opposite).
"""

from __future__ import annotations

import pytest

from durak_core import (
    Action,
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
