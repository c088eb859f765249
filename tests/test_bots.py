"""Computer players (issue 11, points 1 and 2): one small interface, every level legal in every
preset, blind by construction and by test, and the search stronger than chance.

Blindness is checked two ways: two games that differ only in cards the seat cannot see give
equal observations and the same decisions seed by seed (so the same decision distribution), and
an observation holds nothing but plain values — no path from it leads to a game or a state.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from durak_core import (
    PRESETS,
    Action,
    Cap,
    Card,
    Event,
    Game,
    IllegalAction,
    Observation,
    PositionError,
    Rules,
    determinize,
    observe,
)
from durak_core.bots import (
    LEVELS,
    Bot,
    HeuristicBot,
    PIMCBot,
    RandomBot,
    make_bot,
    next_seat,
    outcome_score,
    play_game,
)
from durak_core.bots import pimc as pimc_module
from durak_core.bots.heuristic import live_cards
from durak_core.bots.pimc import _still_in_doubt

# Small, fast stand-ins for the search levels (same code, fewer samples).
FAST_BOTS: list[Bot] = [
    RandomBot(),
    HeuristicBot(),
    PIMCBot(2, second_best=0.3, name="newcomer"),
    PIMCBot(3),
]

VARIANTS: list[tuple[str, Rules]] = [(name, p.rules) for name, p in PRESETS.items()] + [
    # perevodnoy, as Matsuri's lobby toggle (S1) and S2's option
    ("matsuri+transfer", PRESETS["matsuri"].rules.replace(transfer=True)),
    ("wikipedia+transfer", PRESETS["wikipedia"].rules.replace(transfer=True)),
    # Durak Live's deck size is a table setting (S4; the preset's notes)
    ("durak_live_todos/24", PRESETS["durak_live_todos"].rules.replace(deck_size=24)),
    ("durak_live_todos/52", PRESETS["durak_live_todos"].rules.replace(deck_size=52)),
]


def random_game(rules: Rules, players: int, seed: int, steps: int) -> Game:
    """A dealt game after up to ``steps`` random legal actions (still going)."""
    rng = random.Random(seed)
    game = Game.deal(rules, players, seed=seed)
    for _ in range(steps):
        actions = list(game.legal_actions())
        if not actions:
            break
        action = rng.choice(actions)
        game.push(action)
        if game.outcome is not None:
            game.undo()
            break
    return game


def positions(rules: Rules, players: int, count: int, seed: int) -> Iterator[Observation]:
    """Observations of the seat to move in ``count`` random positions."""
    rng = random.Random(seed)
    for i in range(count):
        game = random_game(rules, players, seed * 1000 + i, rng.randrange(0, 90))
        seat = next_seat(game)
        assert seat is not None
        yield observe(game, seat)


# ---------------------------------------------------------------- the interface


def test_every_level_is_a_bot() -> None:
    for level in LEVELS:
        bot = make_bot(level)
        assert isinstance(bot, Bot)
        assert bot.name == level
    assert make_bot().name == "pimc"
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster")


@pytest.mark.parametrize(("name", "rules"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_every_bot_plays_legally_in_every_preset(name: str, rules: Rules) -> None:
    for players in rules.player_counts():
        for obs in positions(rules, players, 3, seed=players):
            assert obs.legal
            for bot in FAST_BOTS:
                for seed in range(2):
                    action = bot.choose(obs, random.Random(seed))
                    assert action in obs.legal, (name, players, bot.name, action)


def test_the_real_levels_play_legally() -> None:
    rules = Rules()
    for obs in positions(rules, 2, 1, seed=7):
        for level in LEVELS:
            assert make_bot(level).choose(obs, random.Random(0)) in obs.legal


def test_a_whole_game_between_levels() -> None:
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        bots = [FAST_BOTS[(i + seed) % len(FAST_BOTS)] for i in range(players)]
        game = Game.deal(Rules(), players, seed=seed)
        result = play_game(game, bots, [random.Random(seed + i) for i in range(players)])
        assert result.finished and game.outcome is not None
        assert result.durak == game.outcome.durak
        assert {d.seat for d in result.decisions} <= set(range(players))
        assert all(d.choices >= 1 and d.seconds >= 0 for d in result.decisions)


def test_play_game_refuses_a_cheating_bot() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, observation: Observation, rng: random.Random) -> Action:
            return Action.take(observation.seat)  # not legal when leading

    game = Game.deal(Rules(), 2, seed=5)
    with pytest.raises(ValueError, match=r"cheat bot at seat .* not legal"):
        play_game(game, [Cheat(), Cheat()], [random.Random(0), random.Random(1)])


def test_bots_refuse_an_observation_without_actions() -> None:
    game = Game.deal(Rules(), 2, seed=5)
    idle = 1 - game.attacker
    obs = observe(game, idle)
    assert obs.legal == ()
    for bot in FAST_BOTS:
        with pytest.raises(ValueError, match="no legal action"):
            bot.choose(obs, random.Random(0))


def test_outcome_score_counts_a_draw_half() -> None:
    # S1: «si los dos últimos se quedan sin cartas a la vez, no hay durak y es empate»
    assert outcome_score(None, 0) == 0.5
    assert outcome_score(1, 0) == 1.0
    assert outcome_score(0, 0) == 0.0


# ---------------------------------------------------------------- blindness


def _hidden_swaps(game: Game, seat: int, rng: random.Random) -> Iterator[Game]:
    """The same game dealt from a deck with two cards ``seat`` never saw exchanged (in two
    different places now), and the same actions replayed: the public history is the same, the
    hidden cards are not. Yields one such game, or none if no exchange replays."""
    origin = game.origin
    deck = [Card.parse(c) for c in origin["deck"].split()]
    obs = observe(game, seat)
    unseen = obs.unseen()
    place = {}
    for i, hand in enumerate(game.position().hands):
        place.update(dict.fromkeys(hand, i))
    candidates = [c for c in deck if c in unseen]
    rng.shuffle(candidates)
    for a in candidates:
        for b in candidates:
            if place.get(a, -1) == place.get(b, -1):
                continue  # the same hand (or both in the stock): nothing would differ
            if (a in obs.undealt) != (b in obs.undealt):
                continue  # a trump below the one shown to lead was not dealt (S0, S3)
            swapped = [b if c is a else a if c is b else c for c in deck]
            try:
                other = Game.deal(
                    game.rules,
                    game.players,
                    deck=swapped,
                    dealer=origin["dealer"],
                    first_attacker=origin.get("first_attacker"),
                )
                for action in game.history:
                    other.play(action)
            except (PositionError, IllegalAction):
                continue  # e.g. a trump that would change who leads first
            yield other
            return


def _blind_pairs() -> Iterator[tuple[str, Observation, Observation]]:
    rng = random.Random(11)
    for name, rules in VARIANTS:
        for players in (2, 3, 5):
            if players not in rules.player_counts():
                continue
            for i in range(1):
                game = random_game(rules, players, 500 + 10 * players + i, rng.randrange(5, 70))
                seat = next_seat(game)
                assert seat is not None
                for other in _hidden_swaps(game, seat, rng):
                    yield f"{name}/{players}p/{i}", observe(game, seat), observe(other, seat)
                    assert game.position() != other.position()


def test_hidden_cards_change_neither_observation_nor_decision() -> None:
    pairs = list(_blind_pairs())
    assert len(pairs) >= 15
    for label, mine, theirs in pairs:
        assert mine == theirs, label  # the observation does not show the hidden cards...
        for bot in FAST_BOTS:
            # ...and every bot decides alike seed by seed: the same decision distribution
            first = [bot.choose(mine, random.Random(seed)) for seed in range(2)]
            second = [bot.choose(theirs, random.Random(seed)) for seed in range(2)]
            assert first == second, (label, bot.name)


def test_worlds_sampled_from_one_observation_look_alike_to_the_seat() -> None:
    # Two worlds determinize deals from one observation differ in the cards the seat cannot see;
    # each world's own observation is the same, and so is every decision on it.
    for players in (2, 4):
        for obs in positions(Rules(), players, 3, seed=40 + players):
            one = determinize(obs, random.Random(1))
            two = determinize(obs, random.Random(2))
            seen_one, seen_two = observe(one, obs.seat), observe(two, obs.seat)
            assert seen_one == seen_two
            assert seen_one.legal == obs.legal
            for bot in FAST_BOTS:
                assert bot.choose(seen_one, random.Random(3)) == bot.choose(
                    seen_two, random.Random(3)
                )


def test_the_decision_distribution_is_the_same() -> None:
    pairs = list(_blind_pairs())[:3]
    bot = PIMCBot(2, second_best=0.5)
    for _label, mine, theirs in pairs:
        one = Counter(bot.choose(mine, random.Random(s)) for s in range(12))
        two = Counter(bot.choose(theirs, random.Random(s)) for s in range(12))
        assert one == two


_PLAIN = (int, float, str, bool, type(None), Card, enum.Enum)


def _reachable(value: object, path: str = "obs") -> Iterator[tuple[str, object]]:
    """Every object reachable from ``value`` through fields and items, with its path."""
    yield path, value
    if isinstance(value, _PLAIN):
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _reachable(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple | frozenset):
        for i, item in enumerate(value):
            yield from _reachable(item, f"{path}[{i}]")
    else:
        raise AssertionError(f"{path}: unexpected {type(value).__name__} in an observation")


def test_an_observation_leads_nowhere_near_the_game() -> None:
    # Only plain values: a bot handed an Observation cannot reach the Game, its state or its
    # legal-action views (none of those is a value of these types).
    allowed = (*_PLAIN, Observation, Rules, Cap, Event, Action, tuple, frozenset)
    for players in (2, 3, 6):
        for obs in positions(Rules(), players, 4, seed=90 + players):
            for path, value in _reachable(obs):
                assert isinstance(value, allowed), path
                assert not isinstance(value, Game), path
            assert not hasattr(obs, "__dict__")  # slots: nothing can be attached to it


def test_bots_keep_no_game_after_playing() -> None:
    game = Game.deal(Rules(), 2, seed=9)
    for bot in FAST_BOTS:
        bot.choose(observe(game, game.attacker), random.Random(0))
        held = vars(bot) if hasattr(bot, "__dict__") else {}
        assert not any(isinstance(v, Game) for v in held.values()), bot.name


# ---------------------------------------------------------------- the heuristic (the seeds' advice)


def test_heuristic_leads_the_lowest_plain_card_and_prefers_pairs() -> None:
    # S1: «Ataca con cartas bajas de palos sin triunfo y deshazte de las parejas»
    bot = HeuristicBot()
    game = Game.from_position(Rules(), ["6S 7C KD 9H", "8C 9D AD 10H"], trump="S", stock="7H 8H")
    assert bot.choose(observe(game, 0), random.Random(0)) == Action.lead(0, "7C")
    game = Game.from_position(Rules(), ["7C 8H 8D KD", "8C 9D AD 10H"], trump="S", stock="7H 9H")
    assert bot.choose(observe(game, 0), random.Random(0)) == Action.lead(0, "8H")


def test_heuristic_beats_cheaply_and_keeps_trumps() -> None:
    # S1: «Guarda los triunfos para cuando cuenten»
    bot = HeuristicBot()
    stock = "6H 7H 8H 9H JH QH KH AH 8D 9D 10D"
    game = Game.from_position(
        Rules(), ["KC 10H", "JC 8C 6S QS"], trump="S", stock=stock, table=[("7C", None)]
    )
    assert bot.choose(observe(game, 1), random.Random(0)) == Action.beat(1, "8C", "7C")
    # only a high trump would beat it, the stock is long: take instead (S1, tutorial/opponent)
    game = Game.from_position(
        Rules(), ["KC 10H", "6D 7D AS QS"], trump="S", stock=stock, table=[("9C", None)]
    )
    assert bot.choose(observe(game, 1), random.Random(0)) == Action.take(1)


def test_heuristic_transfers_with_a_plain_card() -> None:
    # perevodnoy (S1, S2): a card of the attack's rank passes the attack on
    bot = HeuristicBot()
    rules = Rules(transfer=True)
    game = Game.from_position(
        rules,
        ["KC 9H", "7D JC AS", "8C 8D 10C"],
        trump="S",
        stock="6H 7H 8H 10H",
        table=[("7C", None)],
    )
    assert bot.choose(observe(game, 1), random.Random(0)) == Action.transfer(1, "7D")


def test_heuristic_throws_in_only_cheap_cards_while_the_stock_lasts() -> None:
    # S1: «Añade cartas con cuidado ... guárdate las cartas cuando solo le ayudarías»
    bot = HeuristicBot()
    stock = "6H 7H 8H 9H 10H JH"
    game = Game.from_position(
        Rules(), ["KC KH 6C", "AC 7D 8D"], trump="S", stock=stock, table=[("KD", "AD")]
    )
    assert bot.choose(observe(game, 0), random.Random(0)) == Action.pass_(0)
    game = Game.from_position(
        Rules(), ["8C KH 6C", "AC 7D 10D"], trump="S", stock=stock, table=[("8D", "9D")]
    )
    assert bot.choose(observe(game, 0), random.Random(0)) == Action.throw(0, "8C")


def test_live_cards_are_what_the_seat_cannot_rule_out() -> None:
    # S1: «Cuenta las cartas que han salido»: the discard pile is gone for good
    game = Game.from_position(
        Rules(deck_size=24), ["9C 10C", "9D 10D"], trump="S", discard="9H 10H", stock="JC"
    )
    live = live_cards(observe(game, 0))
    assert Card.parse("9H") not in live and Card.parse("9C") not in live
    assert Card.parse("9D") in live and len(live) == 24 - 2 - 2


# ---------------------------------------------------------------- the search


def test_pimc_scores_every_legal_action() -> None:
    for obs in positions(Rules(), 3, 3, seed=3):
        bot = PIMCBot(3)
        scores = bot.evaluate(obs, random.Random(0))
        assert list(scores) == list(obs.legal)
        assert all(0.0 <= s <= 1.0 for s in scores.values())
        ranked = bot.ranked(obs, random.Random(0))
        assert [s for _, s in ranked] == sorted(scores.values(), reverse=True)
        if len(obs.legal) > 1:
            assert bot.choose(obs, random.Random(0)) == ranked[0][0]
            gentle = PIMCBot(3, second_best=1.0)
            assert gentle.choose(obs, random.Random(0)) == ranked[1][0]


def test_pimc_with_a_time_budget_samples_at_least_one_world() -> None:
    ticks = iter(range(1000))
    bot = PIMCBot(None, time_budget=0.5, clock=lambda: float(next(ticks)))
    obs = next(positions(Rules(), 2, 1, seed=4))
    scores = bot.evaluate(obs, random.Random(0))
    assert set(scores) == set(obs.legal)
    with pytest.raises(ValueError, match="samples"):
        PIMCBot(None)


def test_racing_drops_only_actions_clearly_behind() -> None:
    """The race's rule (issue 18 item 3): over the same worlds, an action trailing the
    leader by more than RACE_Z standard errors of the paired difference is dropped; a
    trail within the noise, a tie and the leader stay."""
    n = 32
    lead = [1.0] * 20 + [0.0] * 12
    behind = [0.0] * 20 + [0.0] * 12  # 0.63 worse, every world at least as bad
    noisy = [1.0] * 19 + [0.0] + [0.0] * 11 + [1.0]  # as good on the whole, other worlds
    assert len(lead) == len(behind) == len(noisy) == n
    assert _still_in_doubt([lead, behind, noisy, list(lead)], [0, 1, 2, 3]) == [0, 2, 3]
    # already dropped actions are not looked at; one world says nothing yet
    assert _still_in_doubt([lead, behind, noisy], [0, 2]) == [0, 2]
    assert _still_in_doubt([[1.0], [0.0]], [0, 1]) == [0, 1]


def test_a_racing_bot_spends_its_worlds_on_the_actions_in_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seeded positions: scores for every legal action, dropped ones below every action still
    in the race, the choice among those, no more than ``samples`` worlds, and no playouts for
    an action once it is out."""
    worlds: list[int] = []
    playouts: list[int] = []
    real_world, real_playout = pimc_module.determinize, pimc_module.playout

    def counted_world(*args: object, **kwargs: object) -> Game:
        worlds.append(1)
        return real_world(*args, **kwargs)  # type: ignore[arg-type]

    def counted_playout(game: Game, seat: int, limit: int = 1000) -> float:
        playouts.append(1)
        return real_playout(game, seat, limit)

    monkeypatch.setattr(pimc_module, "determinize", counted_world)
    monkeypatch.setattr(pimc_module, "playout", counted_playout)
    seen: Counter[str] = Counter()
    for obs in positions(Rules(), 2, 12, seed=21):
        if len(obs.legal) < 2:
            continue
        bot = PIMCBot(96, race=True)
        worlds.clear()
        playouts.clear()
        scores = bot.evaluate(obs, random.Random(1))
        assert list(scores) == list(obs.legal) and len(worlds) <= 96
        spent = len(playouts)
        assert scores == PIMCBot(96, race=True).evaluate(obs, random.Random(1))
        alive = [a for a, s in scores.items() if s >= 0.0]
        dropped = [a for a, s in scores.items() if s < 0.0]
        assert alive and all(-1.0 <= s <= 1.0 for s in scores.values())
        if dropped:
            assert max(scores[a] for a in dropped) < min(scores[a] for a in alive)
            seen["dropped"] += 1
        assert bot.choose(obs, random.Random(1)) in alive
        # the worlds saved: no playouts for an action once it is out of the race
        assert spent <= len(worlds) * len(obs.legal)
        seen["saved"] += spent < len(worlds) * len(obs.legal)
        seen["positions"] += 1
    assert seen["positions"] >= 6 and seen["dropped"] and seen["saved"], seen


def _match(bot: Bot, other: Bot, deals: int, seed: int) -> float:
    """``bot``'s score heads-up over ``deals`` deals, each played twice with seats swapped."""
    score = 0.0
    for d in range(deals):
        for seat in (0, 1):
            bots = [bot, other] if seat == 0 else [other, bot]
            game = Game.deal(Rules(), 2, seed=seed + d)
            rngs = [random.Random(seed + 2 * d), random.Random(seed + 2 * d + 1)]
            result = play_game(game, bots, rngs)
            assert result.finished
            score += outcome_score(result.durak, seat)
    return score / (2 * deals)


def test_the_heuristic_beats_random_play() -> None:
    assert _match(HeuristicBot(), RandomBot(), 20, seed=100) >= 0.75


def test_pimc_beats_random_play() -> None:
    # 40 games heads-up, deals and seats rotated; PIMC scores about 0.95 here, the bound is loose
    assert _match(PIMCBot(4), RandomBot(), 20, seed=200) >= 0.7


def test_levels_are_named_in_order() -> None:
    assert list(LEVELS) == ["random", "heuristic", "newcomer", "pimc", "strong"]
    gentle = make_bot("newcomer")
    assert isinstance(gentle, PIMCBot) and gentle.second_best > 0
