"""Matches of several games (durak_core.match): dealing, who leads, scoring, records.

Sources as in ``shared/docs/rules-research.md``: S0 wikiHow, S2 Wikipedia, S3 Dáme Karty.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from durak_core import Action, EventKind, Game, Rank, RecordError, Rules, make_deck
from durak_core.match import (
    MATCH_FORMAT,
    GameResult,
    Match,
    MatchError,
    MatchRecordError,
    game_result,
    match_record,
    replay_match,
    score_match,
)
from durak_core.rules import MatchScoring

from .helpers import cards, check_invariants

MATCHES = Path(__file__).parent / "data" / "matches"
FIXTURES = {
    # file name: (rules changes, players, seed, games to play at most)
    # three losses; game 2 ends with everybody empty (allow_draw=False: no draw)
    "wikihow_no_draw_3p.json": (
        {"preset": "wikihow_home", "match_scoring": "three_losses"},
        3,
        139,
        2,
    ),
    # the epaulette ladder; game 3 is a draw
    "wikipedia_draw_3p.json": (
        {"preset": "wikipedia", "match_scoring": "epaulette_ladder"},
        3,
        0,
        3,
    ),
}


def fixture(name: str) -> Match:
    return replay_match(json.loads((MATCHES / name).read_text(encoding="utf-8")))


def play_out(game: Game, rng: random.Random, limit: int | None = None) -> None:
    """Random legal actions until the game is over (or ``limit`` actions), checking after
    every one that every card is in exactly one place (the invariants of random play)."""
    universe = make_deck(game.rules.deck_size)
    n = 0
    while game.outcome is None and (limit is None or n < limit):
        game.play(rng.choice(list(game.legal_actions())))
        check_invariants(game, universe)
        n += 1


def play_match(match: Match, rng: random.Random, games: int = 50) -> Match:
    """Random play until the match is finished or ``games`` games were dealt."""
    while True:
        play_out(match.game, rng)
        if match.finished or len(match.games) >= games:
            return match
        match.next_game()


def first_decided(rules: Rules, players: int, seeds: int = 400) -> Match:
    """A match (of three losses unless the rules say otherwise) whose first game ended with a
    durak."""
    if rules.match_scoring is MatchScoring.SINGLE:
        rules = rules.replace(match_scoring=MatchScoring.THREE_LOSSES)
    for seed in range(seeds):
        match = Match(rules, players, seed)
        play_out(match.game, random.Random(seed))
        if match.game.outcome.durak is not None:  # type: ignore[union-attr]
            return match
    raise AssertionError("no such game found")  # pragma: no cover


def result(number: int, loser: int | None, attack: str = "", low: int = 6) -> GameResult:
    """A synthetic game result: ``loser`` finished by the cards ``attack``."""
    final = tuple(cards(attack))
    return GameResult(
        number=number,
        dealer=0,
        previous_durak=None,
        durak=loser,
        losers=() if loser is None else (loser,),
        final_defender=loser,
        final_attack=final,
        epaulettes=min(2, sum(c.rank == low for c in final)),
    )


# ---------------------------------------------------------------- dealing and leading


def test_first_dealer_is_drawn_from_the_seed_S0() -> None:
    dealers = {Match(Rules(), 4, seed).game.origin["dealer"] for seed in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert Match(Rules(), 4, 9).game.history == ()
    assert Match(Rules(), 4, 9).game.origin == Match(Rules(), 4, 9).game.origin


def test_previous_durak_deals_S0_S2() -> None:
    match = first_decided(Rules(), 3)
    durak = match.game.outcome.durak  # type: ignore[union-attr]
    game = match.next_game()
    assert match.game is game and len(match.games) == 2
    assert game.origin["dealer"] == durak
    assert game.previous_durak == durak
    assert match.results[0].durak == durak and match.results[0].losers == (durak,)


def test_draw_keeps_previous_durak_S0() -> None:
    """After a draw the previous durak stays durak and deals again (S0 item 27)."""
    match = fixture("wikipedia_draw_3p.json")
    drawn = match.results[-1]
    previous = drawn.previous_durak
    assert drawn.is_draw and drawn.durak is None and previous is not None
    assert match.results[-2].durak == previous == drawn.dealer
    assert match.next_dealing() == (previous, previous)
    game = match.next_game()
    assert (game.origin["dealer"], game.previous_durak) == (previous, previous)
    assert (game.attacker, game.defender) == ((previous + 1) % 3, (previous + 2) % 3)


def test_without_draws_the_previous_durak_loses_again_S0() -> None:
    """allow_draw=False: when everybody empties at once the previous durak stays durak and
    loses the game (S0 item 69); nobody finished him, so no epaulettes."""
    match = fixture("wikihow_no_draw_3p.json")
    last = match.results[-1]
    previous = last.previous_durak
    assert not match.game.active_seats() and previous is not None
    assert last.durak == previous and last.losers == (previous,)
    assert last.final_attack == () and last.epaulettes == 0
    assert match.scores()[previous] == 2
    assert match.next_dealing() == (previous, previous)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_left_of_durak_leads_S0_S2(players: int) -> None:
    rules = Rules(next_game_start="left_of_durak")
    match = first_decided(rules, players)
    durak = match.game.outcome.durak  # type: ignore[union-attr]
    game = match.next_game()
    assert (game.attacker, game.defender) == ((durak + 1) % players, (durak + 2) % players)
    first = next(e for e in game.events if e.kind is EventKind.FIRST_ATTACKER)
    assert first.detail == "left_of_durak"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_durak_attacked_first_S0(players: int) -> None:
    """«The fool is taught»: the player on the durak's right attacks him (S0 item 25a)."""
    rules = Rules(first_attacker="left_of_dealer", next_game_start="durak_attacked_first")
    match = first_decided(rules, players)
    durak = match.game.outcome.durak  # type: ignore[union-attr]
    game = match.next_game()
    assert (game.attacker, game.defender) == ((durak - 1) % players, durak)


def test_every_game_as_the_first_S3() -> None:
    """next_game_start='lowest_trump': a later game starts like the first (S3 item 26)."""
    match = first_decided(Rules(), 4)
    game = match.next_game()
    first = next(e for e in game.events if e.kind is EventKind.FIRST_ATTACKER)
    assert first.detail in ("lowest_trump", "random")


def test_next_game_only_after_the_game_and_before_the_end() -> None:
    match = Match(Rules(match_scoring="three_losses"), 2, 3)
    with pytest.raises(MatchError, match="not over"):
        match.next_game()
    single = Match(Rules(), 2, 3)  # match_scoring='single': one game is the match
    play_out(single.game, random.Random(3))
    assert single.finished and single.loser == single.results[0].durak
    with pytest.raises(MatchError, match="match is over"):
        single.next_game()


def test_results_follow_undo() -> None:
    match = first_decided(Rules(), 2)
    assert len(match.results) == 1 and match.game.previous_durak is None
    match.game.undo()
    assert match.results == () and not match.finished
    with pytest.raises(MatchError, match="not over"):
        match.next_game()


def test_games_are_dealt_from_the_match_seed() -> None:
    a, b = Match(Rules(), 3, 77), Match(Rules(), 3, 77)
    assert a.game.origin["deck"] == b.game.origin["deck"]
    assert Match(Rules(), 3, 78).game.origin["deck"] != a.game.origin["deck"]
    assert isinstance(Match(Rules(), 3).seed, int)


# ---------------------------------------------------------------- scoring


def test_three_losses_consecutive_or_not_S0() -> None:
    """Whoever is left with cards three times, consecutive or not, loses (S0 item 76)."""
    rules = Rules(match_scoring="three_losses")
    games = [result(1, 1), result(2, 0), result(3, None), result(4, 1), result(5, 2)]
    score = score_match(rules, 3, games)
    assert [s.losses for s in score.standings] == [1, 2, 1] and not score.finished
    score = score_match(rules, 3, [*games, result(6, 1)])
    assert score.finished and score.loser == 1
    with pytest.raises(MatchError, match="after the match was over"):
        score_match(rules, 3, [*games, result(6, 1), result(7, 0)])


def test_three_losses_random_match_S0() -> None:
    for seed in range(3):
        match = play_match(Match(Rules(match_scoring="three_losses"), 3, seed), random.Random(seed))
        assert match.finished and match.loser is not None
        assert match.scores()[match.loser] == 3 and sorted(match.scores())[-2] < 3
        last = match.results[-1]
        assert last.losers == (match.loser,)
        assert sum(match.scores()) == sum(not r.is_draw for r in match.results)


def test_single_game_match() -> None:
    score = score_match(Rules(), 2, [result(1, None)])
    assert score.finished and score.loser is None
    assert score_match(Rules(), 2, [result(1, 0)]).loser == 0


def epaulette_game(attacker_hand: str, defender_hand: str, moves: list[str]) -> Game:
    game = Game.from_position(Rules(), [attacker_hand, defender_hand], trump="S")
    for move in moves:
        game.play(move)
    assert game.outcome is not None
    return game


def test_epaulette_one_six_S2() -> None:
    """A durak finished by a 6 is «durak with an epaulette» (S2 item 77)."""
    game = epaulette_game("6C", "7H 8H", ["0:6C", "1:take"])
    res = game_result(game)
    assert (res.durak, res.final_defender, res.epaulettes) == (1, 1, 1)
    assert res.final_attack == tuple(cards("6C"))


def test_epaulettes_two_sixes_both_shoulders_S2() -> None:
    game = epaulette_game("6C 6D", "7H 8H", ["0:6C", "1:take", "0:+6D"])
    res = game_result(game)
    assert res.epaulettes == 2 and sorted(res.final_attack) == sorted(cards("6C 6D"))


def test_no_epaulette_when_the_durak_attacked_last_S2() -> None:
    game = epaulette_game("7H 9C", "8H", ["0:7H", "1:8H/7H"])
    res = game_result(game)
    assert (res.durak, res.final_defender) == (0, 1)
    assert res.final_attack == () and res.epaulettes == 0


def test_no_epaulette_for_other_ranks_S2() -> None:
    res = game_result(epaulette_game("7C 7D", "8H 9H", ["0:7C", "1:take", "0:+7D"]))
    assert res.epaulettes == 0 and res.epaulettes_of(Rank.SEVEN) == 2


def test_epaulette_ladder_six_to_ace_S2() -> None:
    """6 first, then 7, 8, … up to the ace; the ace epaulette loses the match (S2 item 78)."""
    rules = Rules(match_scoring="epaulette_ladder")
    games = [
        result(1, 1, "6C"),
        result(2, 1, "8C 8D"),  # needs a 7: no rung
        result(3, 0, "6H"),  # the other side starts its own ladder at 6
        result(4, 1, "7C 7D"),  # two epaulettes, still one rung
        result(5, None),
    ]
    ranks = ["8", "9", "10", "J", "Q", "K", "A"]
    games += [result(6 + i, 1, f"{r}C") for i, r in enumerate(ranks)]
    for n in range(1, len(games)):
        score = score_match(rules, 2, games[:n])
        assert not score.finished
    score = score_match(rules, 2, games)
    assert score.finished and score.loser == 1
    assert [s.ladder for s in score.standings] == [1, 9]
    assert [s.next_rank for s in score.standings] == [Rank.SEVEN, None]
    assert score.ladder[:5] == (
        (Rank.SIX, 1),
        (Rank.SEVEN, 0),
        (Rank.SIX, 1),
        (Rank.SEVEN, 2),
        (None, 0),
    )
    assert score.ladder[-1] == (Rank.ACE, 1)
    assert [s.epaulettes for s in score.standings] == [1, 1]  # sixes worn, any scoring


@pytest.mark.parametrize(("deck", "first"), [(24, Rank.NINE), (36, Rank.SIX), (52, Rank.TWO)])
def test_ladder_starts_at_the_lowest_rank_S2(deck: int, first: Rank) -> None:
    rules = Rules(deck_size=deck, match_scoring="epaulette_ladder")
    score = score_match(rules, 2, [])
    assert [s.next_rank for s in score.standings] == [first, first]
    card = f"{first.symbol}H"
    score = score_match(rules, 2, [result(1, 0, card, low=first)])
    assert score.standings[0].next_rank == Rank(first + 1) and score.ladder == ((first, 1),)


def test_epaulettes_are_reported_whatever_the_scoring_S2() -> None:
    score = score_match(Rules(match_scoring="three_losses"), 2, [result(1, 1, "6C 6D")])
    assert score.standings[1].epaulettes == 2 and score.ladder == ((None, 0),)


def test_epaulette_ladder_random_match_S2() -> None:
    rules = Rules(match_scoring="epaulette_ladder")
    match = play_match(Match(rules, 2, 8), random.Random(8), games=12)
    summaries = match.summaries()
    assert len(summaries) == len(match.games)
    rungs = [0, 0]
    for summary in summaries:
        assert summary["ladder_rank"] is None or summary["losing_sides"]
        if summary["ladder_epaulettes"]:
            (side,) = summary["losing_sides"]
            assert summary["ladder_rank"] == Rank(6 + rungs[side]).symbol
            rungs[side] += 1
    assert list(match.scores()) == rungs


def test_team_scoring_2v2_S0_S2() -> None:
    """With teams, a team is one side: its losses count together (S0, S2)."""
    rules = Rules(teams="2v2", match_scoring="three_losses")
    match = play_match(Match(rules, 4, 21), random.Random(21))
    assert match.by_team and match.sides == (0, 1, 0, 1)
    standings = match.standings()
    assert [s.seats for s in standings] == [(0, 2), (1, 3)]
    assert match.finished and match.loser in (0, 1)
    assert standings[match.loser].losses == 3
    for res, summary in zip(match.results, match.summaries(), strict=True):
        assert summary["losing_sides"] == sorted({s % 2 for s in res.losers})


def test_team_score_counts_a_team_once_per_game_S0() -> None:
    rules = Rules(teams="2v2", match_scoring="three_losses")
    whole_team = GameResult(1, 0, None, 1, (1, 3), 1, (), 0)
    score = score_match(rules, 4, [whole_team, whole_team])
    assert [s.losses for s in score.standings] == [0, 2]
    score = score_match(rules, 4, [whole_team, whole_team, result(3, 3)])
    assert score.finished and score.loser == 1


# ---------------------------------------------------------------- records


def assert_same_match(a: Match, b: Match) -> None:
    assert a.results == b.results and a.scores() == b.scores()
    assert (a.finished, a.loser) == (b.finished, b.loser)
    assert len(a.games) == len(b.games)
    for x, y in zip(a.games, b.games, strict=True):
        assert x.history == y.history and x.origin == y.origin
        assert x.state == y.state
    assert match_record(a) == match_record(b)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_matches_replay_exactly(players: int) -> None:
    scorings = ["three_losses", "epaulette_ladder", "single"]
    for seed in range(3):
        rules = Rules(
            match_scoring=scorings[seed],
            next_game_start=["left_of_durak", "durak_attacked_first", "lowest_trump"][seed],
            transfer=seed == 1,
        )
        rng = random.Random(seed * 10 + players)
        match = play_match(Match(rules, players, seed), rng, games=4)
        if not match.finished:  # stop half-way into one more game
            match.next_game()
            play_out(match.game, rng, limit=rng.randrange(20))
        text = json.dumps(match_record(match))
        again = replay_match(json.loads(text))
        assert_same_match(match, again)
        if not match.finished and match.game.outcome is not None:
            assert again.next_game().origin == match.next_game().origin


VARIANTS = {
    "3v3 single loser": ({"teams": "3v3", "team_end": "single_loser"}, 6),
    "2v2v2 pairs": ({"teams": "2v2v2", "team_rotation": "individual"}, 6),
    "flash": ({"transfer": True, "flash": True}, 4),
    "misdeal": ({"misdeal": "four_of_a_suit"}, 3),
    "misdeal on request": ({"misdeal": "five_of_a_suit", "misdeal_mode": "on_request"}, 3),
    "no draws, swap": ({"preset": "wikihow_home"}, 5),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_matches_of_variants_replay_exactly(variant: str) -> None:
    changes, players = VARIANTS[variant]
    rules = Rules.from_dict({**changes, "match_scoring": "three_losses"})
    match = play_match(Match(rules, players, 3), random.Random(3), games=3)
    assert_same_match(match, replay_match(json.loads(json.dumps(match_record(match)))))


def test_replayed_match_deals_on_like_the_original() -> None:
    rules = Rules(match_scoring="three_losses")
    match = first_decided(rules, 3)
    again = replay_match(match_record(match))
    assert again.next_game().origin == match.next_game().origin


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixtures_replay(name: str) -> None:
    data = json.loads((MATCHES / name).read_text(encoding="utf-8"))
    assert data["format"] == MATCH_FORMAT
    match = replay_match(data)
    assert match_record(match) == data
    changes, players, seed, _ = FIXTURES[name]
    assert (match.rules, match.players, match.seed) == (Rules.from_dict(changes), players, seed)


def make_fixture(name: str) -> dict[str, Any]:
    """The fixture's record, played afresh (``python -m tests.test_match`` writes them)."""
    changes, players, seed, games = FIXTURES[name]
    match = play_match(Match(Rules.from_dict(changes), players, seed), random.Random(seed), games)
    return match_record(match)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixtures_are_what_the_code_deals(name: str) -> None:
    """The fixtures were made by ``make_fixture`` (random play may change with the engine's
    order of legal actions, the deals from the seed may not)."""
    data = json.loads((MATCHES / name).read_text(encoding="utf-8"))
    changes, players, seed, _ = FIXTURES[name]
    match = Match(Rules.from_dict(changes), players, seed)
    assert match_record(match)["games"][0]["deck"] == data["games"][0]["deck"]


def good_record() -> dict[str, Any]:
    match = play_match(Match(Rules(match_scoring="three_losses"), 2, 4), random.Random(4), 3)
    return match_record(match)


def broken(change: str) -> dict[str, Any]:
    data = copy.deepcopy(RECORD)
    games = data["games"]
    if change == "format":
        data["format"] = "durak-match/0"
    elif change == "rules":
        data["rules"] = {"deck_size": 40}
    elif change == "players":
        data["players"] = 7
    elif change == "seed":
        data["seed"] = "x"
    elif change == "no games":
        data["games"] = []
    elif change == "game seed":
        games[1]["seed"] += 1
    elif change == "dealer":
        games[1]["dealer"] = 1 - games[1]["dealer"]
    elif change == "game rules":
        games[1]["rules"]["transfer"] = True
    elif change == "action":
        games[0]["actions"][0] = "0:take"
    elif change == "unfinished":
        games[0]["actions"].pop()
    elif change == "results":
        data["results"][0]["durak"] = 1 - data["results"][0]["durak"]
    elif change == "position":
        games[1] = {**games[1], "position": {}}
    return data


RECORD = good_record()
BROKEN = {
    "format": "unknown match record format",
    "rules": "rules: deck_size",
    "players": "players:",
    "seed": "seed must be",
    "no games": "non-empty list",
    "game seed": "game 2: seed",
    "dealer": "game 2: dealer and previous durak",
    "game rules": "game 2: its rules differ",
    "action": "game 1: action 1",
    "unfinished": "game 2: the game before it is not over",
    "results": "results: they differ",
    "position": "game 2: a game of a match is dealt",
}


@pytest.mark.parametrize("change", sorted(BROKEN))
def test_malformed_records_are_refused(change: str) -> None:
    with pytest.raises(MatchRecordError, match=BROKEN[change]) as info:
        replay_match(broken(change))
    assert isinstance(info.value, RecordError) and isinstance(info.value, ValueError)


def test_a_game_after_the_end_is_refused() -> None:
    match = play_match(Match(Rules(), 2, 6), random.Random(6))
    data = match_record(match)
    assert match.finished and len(data["games"]) == 1
    data["games"].append(copy.deepcopy(data["games"][0]))
    del data["results"]
    with pytest.raises(MatchRecordError, match="game 2: the match was over"):
        replay_match(data)
    with pytest.raises(MatchRecordError, match="a JSON object"):
        replay_match([])  # type: ignore[arg-type]


def test_good_record_replays() -> None:
    assert replay_match(RECORD).results == replay_match(copy.deepcopy(RECORD)).results
    assert Action.parse(RECORD["games"][0]["actions"][0])


if __name__ == "__main__":  # regenerate the fixtures
    MATCHES.mkdir(parents=True, exist_ok=True)
    for name in FIXTURES:
        text = json.dumps(make_fixture(name), ensure_ascii=False, indent=1)
        (MATCHES / name).write_text(text + "\n", encoding="utf-8")


# ---------------------------------------------------------------- issue 17: the last card


def test_epaulette_is_the_last_card_played_not_any_six_of_the_bout_S2() -> None:
    """S2 item 77: «Si la tarjeta última jugada por un atacante es un "6" ... y el defensor
    pierde»: the six must be the *last* card the attack played. Here the 6♣ was followed
    by the 7♦, so the durak wears no epaulette (the engine used to give one)."""
    res = game_result(epaulette_game("6C 7D", "7C 8H 9H", ["0:6C", "1:7C/6C", "0:+7D", "1:take"]))
    assert res.durak == 1 and res.final_attack == tuple(cards("6C 7D"))
    assert res.epaulettes == 0 and res.epaulettes_of(Rank.SEVEN) == 1
    # the other way round the last card is the six (the trump 6♠ put sixes on the table)
    res = game_result(epaulette_game("7D 6D", "6S 8H 9H", ["0:7D", "1:6S/7D", "0:+6D", "1:take"]))
    assert res.final_attack == tuple(cards("7D 6D")) and res.epaulettes == 1


def test_two_epaulettes_need_the_last_two_cards_to_be_sixes_S2() -> None:
    """S2 item 77: «Si el atacante juega el "dos 6" el es, éste significa ... "epaulettes en
    ambos shoulders"»: two sixes as the attack's last two cards; a six earlier in the bout,
    before another rank, does not count."""
    res = game_result(
        epaulette_game("6C 7D 6D", "7C 8H 9H", ["0:6C", "1:7C/6C", "0:+7D", "1:take", "0:+6D"])
    )
    assert res.final_attack == tuple(cards("6C 7D 6D")) and res.epaulettes == 1
    res = game_result(epaulette_game("6C 6D", "7C 8H 9H", ["0:6C", "1:7C/6C", "0:+6D", "1:take"]))
    assert res.epaulettes == 2


def test_a_transfer_card_joins_the_attack_for_the_epaulettes_S2() -> None:
    """S2: the transfer card is added to the attack («agrega esta tarjeta a las tarjetas que
    atacan»), so it counts as played by an attacker: seat 0 leads the 6♣, seat 1 passes the
    attack on with the 6♥ and seat 2 takes both: two sixes last, two epaulettes."""
    game = Game.from_position(Rules(transfer=True), ["6C", "6H", "7H 8C"], trump="D")
    for move in ["0:6C", "1:>6H", "2:take"]:
        game.play(move)
    res = game_result(game)
    assert res.durak == 2 and res.final_attack == tuple(cards("6C 6H"))
    assert res.epaulettes == 2


def test_the_ladder_counts_the_last_card_played_S2() -> None:
    """S2 item 78 on top of item 77: on the ladder the rank needed must be the last attack
    card's rank; the same rank earlier in the attack climbs nothing."""
    rules = Rules(match_scoring="epaulette_ladder")
    score = score_match(rules, 2, [result(1, 1, "6C 7D"), result(2, 1, "7C 6D")])
    assert score.ladder == ((Rank.SIX, 0), (Rank.SIX, 1))
    assert score.standings[1].next_rank is Rank.SEVEN
