"""Tournament standings: one hand-checked table per tie-break, and standings kept up to date
one result at a time that always agree with the definitions computed from scratch."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.glicko2 import Glicko, Result, performance
from matches.standings import Line, Played, Standings, compute
from matches.tournament_records import Format

ANNA, BORIS, CLARA, DAVID, EMIL = 1, 2, 3, 4, 5
ROUND_ROBINS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)


def table(lines: Sequence[Line]) -> list[tuple[int, int, float, tuple[float | None, ...]]]:
    """rank, player, points, tie-breaks: what the standings message shows of each line."""
    return [(line.rank, line.player, line.points, line.tiebreaks) for line in lines]


def line_of(lines: Sequence[Line], player: int) -> Line:
    return next(line for line in lines if line.player == player)


def round_robin(*results: tuple[int, int, float]) -> list[Played]:
    return [Played(first, second, score, 1) for first, second, score in results]


def test_round_robin_points_tied_go_to_the_better_sonneborn_berger() -> None:
    games = round_robin(
        (ANNA, BORIS, 1), (ANNA, CLARA, 0), (ANNA, DAVID, 1),
        (BORIS, CLARA, 1), (BORIS, DAVID, 1), (CLARA, DAVID, 0.5),
    )  # fmt: skip
    # Anna: beat Boris (2) and David (½) = 2½; Boris: beat Clara (1½) and David (½) = 2;
    # Clara: beat Anna (2), drew David (½ of ½) = 2¼; David: drew Clara (½ of 1½) = ¾.
    assert table(compute(Format.ROUND_ROBIN, games)) == [
        (1, ANNA, 2.0, (2.5, None)),
        (2, BORIS, 2.0, (2.0, None)),
        (3, CLARA, 1.5, (2.25, None)),
        (4, DAVID, 0.5, (0.75, None)),
    ]


CLARA_DAVID_TIED = round_robin(
    (ANNA, BORIS, 1), (ANNA, CLARA, 0.5), (ANNA, DAVID, 1),
    (BORIS, CLARA, 0), (BORIS, DAVID, 0.5), (CLARA, DAVID, 0),
)  # fmt: skip
# Clara and David: 1½ points each, Sonneborn-Berger ¼ + 1½ = 1¾ each; David beat Clara.
# Clara is rated higher and has the lower id: only the direct encounter puts David first.
RATINGS = {CLARA: Glicko(1700), DAVID: Glicko(1500)}


def test_round_robin_still_tied_go_to_the_direct_encounter() -> None:
    assert table(compute(Format.ROUND_ROBIN, CLARA_DAVID_TIED, ratings=RATINGS)) == [
        (1, ANNA, 2.5, (2.75, None)),
        (2, DAVID, 1.5, (1.75, 1.0)),
        (3, CLARA, 1.5, (1.75, 0.0)),
        (4, BORIS, 0.5, (0.75, None)),
    ]


def test_the_direct_encounter_waits_until_the_tied_players_met_as_often_as_scheduled() -> None:
    # The same games as the first half of a double round robin: they have met once of twice.
    lines = compute(Format.DOUBLE_ROUND_ROBIN, CLARA_DAVID_TIED, ratings=RATINGS)
    assert table(lines)[1:3] == [(2, CLARA, 1.5, (1.75, None)), (2, DAVID, 1.5, (1.75, None))]
    # The second half ends as the first (colours swapped): every total doubles,
    # every Sonneborn-Berger is four times as much, and now they have met twice.
    second_half = [
        Played(game.second, game.first, 1 - game.score, 2)
        for game in CLARA_DAVID_TIED
        if game.second is not None and game.score is not None
    ]
    lines = compute(Format.DOUBLE_ROUND_ROBIN, CLARA_DAVID_TIED + second_half, ratings=RATINGS)
    assert table(lines)[1:3] == [(2, DAVID, 3.0, (7.0, 2.0)), (3, CLARA, 3.0, (7.0, 0.0))]


def test_players_tied_on_everything_share_a_rank_listed_by_rating_then_id() -> None:
    games = [Played(ANNA, BORIS, 0.5, 1), Played(CLARA, DAVID, 0.5, 1)]
    ratings = {DAVID: Glicko(1600)}  # the others are unrated: 1500
    lines = compute(Format.ROUND_ROBIN, games, players=[EMIL], ratings=ratings)
    assert [(line.rank, line.player) for line in lines] == [
        (1, DAVID), (1, ANNA), (1, BORIS), (1, CLARA), (5, EMIL),
    ]  # fmt: skip


# A Swiss of five over three rounds, a bye each round:
#   round 1: Anna beats Boris, Clara draws David, Emil has the bye;
#   round 2: Emil beats Anna, Clara beats Boris, David has the bye;
#   round 3: Emil draws Clara, Anna beats David, Boris has the bye.
SWISS = [
    Played(ANNA, BORIS, 1, 1), Played(CLARA, DAVID, 0.5, 1), Played(EMIL, None, 1, 1),
    Played(EMIL, ANNA, 1, 2), Played(CLARA, BORIS, 1, 2), Played(DAVID, None, 1, 2),
    Played(EMIL, CLARA, 0.5, 3), Played(ANNA, DAVID, 1, 3), Played(BORIS, None, 1, 3),
]  # fmt: skip


def test_swiss_goes_by_buchholz_then_sonneborn_berger_and_a_bye_meets_a_virtual_opponent() -> None:
    # Final points: Emil 2½, Anna 2, Clara 2, David 1½, Boris 1.
    # A bye's virtual opponent has the player's points before that round and draws after it:
    # Emil's (round 1 of 3) 0 + ½ + ½ = 1, David's (round 2) ½ + ½ = 1, Boris's (round 3) 0.
    # Buchholz: Emil 2 + 2 + 1 = 5; Anna 1 + 2½ + 1½ = 5; Clara 1½ + 1 + 2½ = 5;
    # David 2 + 2 + 1 = 5; Boris 2 + 2 + 0 = 4. Sonneborn-Berger (byes count nothing):
    # Emil 2 + 1 = 3; Anna 1 + 1½ = 2½; Clara ¾ + 1 + 1¼ = 3; David 1; Boris 0.
    lines = compute(Format.SWISS, SWISS)
    assert table(lines) == [
        (1, EMIL, 2.5, (5.0, 3.0)),
        (2, CLARA, 2.0, (5.0, 3.0)),
        (3, ANNA, 2.0, (5.0, 2.5)),
        (4, DAVID, 1.5, (5.0, 1.0)),
        (5, BORIS, 1.0, (4.0, 0.0)),
    ]
    emil = lines[0]
    assert (emil.games, emil.wins, emil.draws, emil.losses, emil.byes) == (2, 1, 1, 0, 1)


def test_a_byes_virtual_opponent_draws_every_round_played_after_it() -> None:
    after_round = {
        number: compute(Format.SWISS, [game for game in SWISS if game.round <= number])
        for number in (1, 2, 3)
    }
    # Emil's Buchholz after round 1: his bye alone (virtual 0); after round 2: Anna's 1 and a
    # virtual ½; after round 3: Anna's 2, Clara's 2 and a virtual 1.
    buchholz = [line_of(lines, EMIL).tiebreaks[0] for lines in after_round.values()]
    assert buchholz == [0.0, 1.5, 5.0]


def test_a_forfeit_is_a_win_for_the_one_who_stayed_and_a_loss_for_the_one_who_withdrew() -> None:
    games = [Played(ANNA, BORIS, 1, 1), Played(CLARA, ANNA, 0, 2, forfeit=True)]
    lines = {line.player: line for line in compute(Format.SWISS, games)}
    assert (lines[ANNA].points, lines[ANNA].wins, lines[ANNA].games) == (2.0, 2, 2)
    assert (lines[CLARA].points, lines[CLARA].losses, lines[CLARA].games) == (0.0, 1, 1)
    assert lines[ANNA].tiebreaks == (0.0, 0.0)  # both beaten opponents have no points
    assert lines[BORIS].tiebreaks == (2.0, 0.0)  # the forfeit counts in his opponent's points


def test_unfinished_games_count_nothing_but_list_their_players() -> None:
    games = [Played(ANNA, BORIS, 1, 1), Played(ANNA, CLARA, None, 2)]
    lines = compute(Format.SWISS, games)
    assert [(line.player, line.points, line.games) for line in lines] == [
        (ANNA, 1.0, 1), (BORIS, 0.0, 1), (CLARA, 0.0, 0),
    ]  # fmt: skip


def test_the_direct_encounter_skips_a_group_whose_game_is_unfinished() -> None:
    games = round_robin(
        (ANNA, BORIS, 0.5), (ANNA, CLARA, 0.5), (ANNA, DAVID, 0.5),
        (BORIS, CLARA, 0.5), (BORIS, DAVID, 0.5),
    )  # fmt: skip
    games.append(Played(CLARA, DAVID, None, 1))
    # Anna and Boris met (a draw): their direct encounter applies and leaves them tied.
    # Clara and David, tied on 1 point and ½ of 1½ + ½ of 1½, have not finished theirs.
    assert table(compute(Format.ROUND_ROBIN, games)) == [
        (1, ANNA, 1.5, (1.75, 0.5)),
        (1, BORIS, 1.5, (1.75, 0.5)),
        (3, CLARA, 1.0, (1.5, None)),
        (3, DAVID, 1.0, (1.5, None)),
    ]


def test_an_arena_doubles_wins_after_two_wins_in_a_row_until_a_draw_or_loss() -> None:
    # Anna: win, win, win (doubled), draw (not doubled; the streak ends), win.
    results = [(BORIS, 1), (CLARA, 1), (DAVID, 1), (EMIL, 0.5), (BORIS, 1)]
    standings = Standings(Format.ARENA)
    anna_points = []
    for opponent, score in results:
        standings.apply(Played(ANNA, opponent, score, 0))
        anna_points.append(line_of(standings.lines(), ANNA).points)
    assert anna_points == [2.0, 4.0, 8.0, 9.0, 11.0]


def test_an_arena_tie_goes_to_the_better_performance_then_to_fewer_games() -> None:
    ratings = {10: Glicko(1800, 60), 11: Glicko(1400, 60), 12: Glicko(1500, 60)}
    games = [
        Played(ANNA, 10, 1, 0),  # 2 points against 1800
        Played(BORIS, 11, 1, 0),  # 2 points against 1400
        Played(12, CLARA, 1, 0),  # no points, one game against 1500
        Played(12, DAVID, 1, 0),  # no points, two games against 1500
        Played(12, DAVID, 1, 0),
    ]
    lines = {line.player: line for line in compute(Format.ARENA, games, ratings=ratings)}
    assert lines[ANNA].rank < lines[BORIS].rank
    anna, boris = lines[ANNA].tiebreaks[0], lines[BORIS].tiebreaks[0]
    assert anna is not None and boris is not None and anna > boris
    clara, david = lines[CLARA], lines[DAVID]
    assert (clara.points, clara.tiebreaks[0]) == (david.points, david.tiebreaks[0])
    assert (clara.tiebreaks[1], david.tiebreaks[1]) == (1.0, 2.0)
    assert clara.rank < david.rank


@pytest.mark.parametrize(
    ("format", "game"),
    [
        (Format.SWISS, Played(ANNA, BORIS, 0.5, 1, forfeit=True)),
        (Format.SWISS, Played(ANNA, BORIS, 2, 1)),
        (Format.SWISS, Played(ANNA, ANNA, 1, 1)),
        (Format.SWISS, Played(ANNA, None, 0, 1)),
        (Format.ARENA, Played(ANNA, None, 1, 0)),
    ],
)
def test_what_no_pairing_makes_is_refused(format: Format, game: Played) -> None:
    with pytest.raises(ValueError):
        Standings(format).apply(game)


# Random tournaments: six players, a few rounds, byes (not in an arena), forfeits, unfinished.
PLAYERS = range(1, 7)


@st.composite
def tournaments(draw: st.DrawFn, format: Format) -> list[Played]:
    games = []
    for _ in range(draw(st.integers(0, 24))):
        first = draw(st.sampled_from(PLAYERS))
        if format is not Format.ARENA and draw(st.integers(0, 9)) == 0:
            games.append(Played(first, None, 1.0, draw(st.integers(1, 5))))
            continue
        second = draw(st.sampled_from([player for player in PLAYERS if player != first]))
        score = draw(st.sampled_from([1.0, 0.5, 0.0, None]))
        forfeit = score in (0.0, 1.0) and draw(st.booleans())
        rounds = st.just(0) if format is Format.ARENA else st.integers(1, 5)
        games.append(Played(first, second, score, draw(rounds), forfeit))
    return games


def by_definition(
    format: Format, games: Sequence[Played], ratings: dict[int, Glicko]
) -> dict[int, tuple[float, tuple[float | None, ...]]]:
    """Points and tie-breaks (the direct encounter apart) from the rules, all at once."""
    finished = [game for game in games if game.score is not None]
    met: dict[int, list[tuple[int, float, int]]] = defaultdict(list)
    byes: dict[int, list[int]] = defaultdict(list)
    for game in finished:
        assert game.score is not None
        if game.second is None:
            byes[game.first].append(game.round)
        else:
            met[game.first].append((game.second, game.score, game.round))
            met[game.second].append((game.first, 1 - game.score, game.round))
    points = {
        player: sum(score for _, score, _ in met[player]) + len(byes[player]) for player in PLAYERS
    }
    if format is Format.ARENA:
        for player in PLAYERS:
            scores = [score for _, score, _ in met[player]]
            doubled = [i for i in range(2, len(scores)) if scores[i - 2 : i + 1] == [1, 1, 1]]
            points[player] = 2 * sum(scores) + 2 * len(doubled)
    last = max((game.round for game in finished), default=0)

    def virtual(player: int, bye: int) -> float:
        before = sum(score for _, score, played in met[player] if played < bye)
        return before + sum(1 for other in byes[player] if other < bye) + (last - bye) / 2

    found: dict[int, tuple[float, tuple[float | None, ...]]] = {}
    for player in PLAYERS:
        berger = sum(score * points[opponent] for opponent, score, _ in met[player])
        buchholz = sum(points[opponent] for opponent, _, _ in met[player])
        buchholz += sum(virtual(player, bye) for bye in byes[player])
        results = [Result(ratings.get(o, Glicko()), score) for o, score, _ in met[player]]
        tiebreaks: tuple[float | None, ...] = {
            Format.ROUND_ROBIN: (berger,),
            Format.DOUBLE_ROUND_ROBIN: (berger,),
            Format.SWISS: (buchholz, berger),
            Format.ARENA: (performance(results), float(len(met[player]))),
        }[format]
        found[player] = (points[player], tiebreaks)
    return found


RATED = {player: Glicko(1300 + 100 * player, 80) for player in PLAYERS}


@pytest.mark.parametrize("format", list(Format))
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_standings_kept_one_result_at_a_time_agree_with_the_rules_from_scratch(
    format: Format, data: st.DataObject
) -> None:
    games = data.draw(tournaments(format))
    standings = Standings(format, players=PLAYERS, ratings=RATED)
    shown = 1 if format in ROUND_ROBINS else 2  # the direct encounter has its own tests
    for count, game in enumerate(games, start=1):
        standings.apply(game)
        lines = standings.lines()
        assert {line.player: (line.points, line.tiebreaks[:shown]) for line in lines} == (
            by_definition(format, games[:count], RATED)
        )
    assert standings.lines() == compute(format, games, players=PLAYERS, ratings=RATED)


@pytest.mark.parametrize("format", list(Format))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_every_table_is_ranked_best_first_and_accounts_for_every_game(
    format: Format, data: st.DataObject
) -> None:
    games = data.draw(tournaments(format))
    lines = compute(format, games, players=PLAYERS, ratings=RATED)
    assert sorted(line.player for line in lines) == list(PLAYERS)
    assert lines[0].rank == 1
    for place, (above, below) in enumerate(pairwise(lines), start=2):
        assert above.points >= below.points
        tied = (above.points, above.tiebreaks) == (below.points, below.tiebreaks)
        assert below.rank == (above.rank if tied else place)
    finished = [game for game in games if game.score is not None]
    assert sum(line.games for line in lines) == 2 * sum(g.second is not None for g in finished)
    assert sum(line.byes for line in lines) == sum(g.second is None for g in finished)
    for line in lines:
        assert line.wins + line.draws + line.losses == line.games
    if format is not Format.ARENA:
        assert sum(line.points for line in lines) == len(finished)


@pytest.mark.parametrize("format", [*ROUND_ROBINS, Format.SWISS])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_round_robin_and_swiss_standings_do_not_depend_on_the_order_results_came_in(
    format: Format, data: st.DataObject
) -> None:
    games = data.draw(tournaments(format))
    shuffled = data.draw(st.permutations(games))
    assert compute(format, shuffled, players=PLAYERS) == compute(format, games, players=PLAYERS)
