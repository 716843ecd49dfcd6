"""Tournament pairings: the Berger tables as published, Swiss rounds played out with
random results and checked against a brute-force optimum, and arena pools."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.pairings import (
    ARENA_ROUND,
    FIRST,
    SECOND,
    ArenaPlayer,
    Colour,
    Pairing,
    PairingImpossibleError,
    SwissPlayer,
    arena_pairs,
    round_robin,
    swiss_round,
)

Table = list[list[tuple[int, int]]]

# FIDE Handbook C.05, Annex 1 (Berger tables for round-robin tournaments), the tables
# for "3 or 4" and "5 or 6" players: first-side player first. Copied from the
# handbook's table as reproduced, identically, by Chris Fox's Berger tables page
# (c.w.fox.tripod.com/chess/berger.html) and the "Crenshaw-Berger" sheet.
BERGER_4: Table = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
BERGER_6: Table = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def as_table(rounds: list[list[Pairing]]) -> list[list[tuple[int, int | None]]]:
    return [[(p.first, p.second) for p in boards] for boards in rounds]


# --- round robin -----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "table"), [(4, BERGER_4), (6, BERGER_6)])
def test_a_round_robin_is_the_published_berger_table(n: int, table: Table) -> None:
    assert as_table(round_robin(list(range(1, n + 1)))) == table


@pytest.mark.parametrize(("n", "table"), [(3, BERGER_4), (5, BERGER_6)])
def test_an_odd_field_plays_the_next_table_and_meeting_the_last_number_is_a_bye(
    n: int, table: Table
) -> None:
    expected = [
        [(a, b) for a, b in boards if n + 1 not in (a, b)]
        + [(a if b == n + 1 else b, None) for a, b in boards if n + 1 in (a, b)]
        for boards in table
    ]
    assert as_table(round_robin(list(range(1, n + 1)))) == expected


def test_a_double_round_robin_plays_the_table_again_with_the_sides_swapped() -> None:
    rounds = round_robin([11, 12, 13, 14], double=True)
    assert [[p.round for p in boards] for boards in rounds] == [[r, r] for r in range(1, 7)]
    shifted = [[(a + 10, b + 10) for a, b in boards] for boards in BERGER_4]
    # The first cycle's last two rounds swapped (FIDE), so that no one plays the same
    # side three times running across the two cycles.
    assert as_table(rounds[:3]) == [shifted[0], shifted[2], shifted[1]]
    assert as_table(rounds[3:]) == [[(b + 10, a + 10) for a, b in boards] for boards in BERGER_4]


def test_round_robin_refuses_a_player_twice_and_a_field_of_one() -> None:
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 2, 1])
    with pytest.raises(ValueError, match="two players"):
        round_robin([1])


@settings(max_examples=60, deadline=None)
@given(
    players=st.lists(st.integers(-(10**12), 10**12), min_size=2, max_size=12, unique=True),
    double=st.booleans(),
)
def test_a_round_robin_meets_everyone_once_per_cycle_with_balanced_sides(
    players: list[int], double: bool
) -> None:
    cycles = 2 if double else 1
    n = len(players)
    rounds = round_robin(players, double=double)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == cycles * per_cycle
    meetings: Counter[frozenset[int]] = Counter()
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    sides: dict[int, str] = dict.fromkeys(players, "")
    for number, boards in enumerate(rounds, 1):
        seated = [p.first for p in boards] + [p.second for p in boards if p.second is not None]
        assert sorted(seated) == sorted(players)  # everyone, once
        assert {p.round for p in boards} == {number}
        for p in boards:
            if p.second is None:
                byes[p.first] += 1
            else:
                meetings[frozenset((p.first, p.second))] += 1
                firsts[p.first] += 1
                seconds[p.second] += 1
                sides[p.first] += "F"
                sides[p.second] += "S"
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    # Never the same side three games running (a bye between does not reset it).
    assert not any("FFF" in played or "SSS" in played for played in sides.values())
    assert set(meetings.values()) == {cycles}
    for player in players:
        gap = abs(firsts[player] - seconds[player])
        assert gap == 0 if double else gap <= 1
    assert byes == (Counter({player: cycles for player in players}) if n % 2 else Counter())


# --- Swiss: the rules, one by one --------------------------------------------------------


def fresh(*ratings: float) -> list[SwissPlayer]:
    """New players numbered from 1, with these ratings."""
    return [SwissPlayer(i, 0.0, rating, (), (), False) for i, rating in enumerate(ratings, 1)]


def test_round_one_pairs_the_top_half_with_the_bottom_half_alternating_sides() -> None:
    field = fresh(1500, 2400, 1200, 2000, 1800, 1300, 2200, 1600)
    # By rating 2, 7, 4, 5 | 8, 1, 6, 3: the k-th of the top half meets the k-th of the
    # bottom half; the higher rated plays first on boards 1 and 3, second on 2 and 4.
    assert swiss_round(field, 1) == [
        Pairing(2, 8, 1),
        Pairing(1, 7, 1),
        Pairing(4, 6, 1),
        Pairing(3, 5, 1),
    ]


def test_equal_scores_meet_and_a_repeat_is_never_paired() -> None:
    one, two, three, four = fresh(2000, 1900, 1800, 1700)
    field = [
        replace(one, score=1, opponents=(3,), colours=(FIRST,)),
        replace(two, score=1, opponents=(4,), colours=(SECOND,)),
        replace(three, score=0, opponents=(1,), colours=(SECOND,)),
        replace(four, score=0, opponents=(2,), colours=(FIRST,)),
    ]
    assert swiss_round(field, 2) == [Pairing(2, 1, 2), Pairing(3, 4, 2)]
    # When the leaders have met already, each meets a player a point below instead.
    met = [replace(p, opponents=(*p.opponents, 3 - p.id)) if p.id < 3 else p for p in field]
    pairs = {frozenset((p.first, p.second)) for p in swiss_round(met, 3)}
    assert pairs == {frozenset((1, 4)), frozenset((2, 3))}


def test_the_bye_goes_to_the_lowest_placed_player_who_has_not_had_one() -> None:
    a, b, c, d, e = fresh(2000, 1900, 1800, 1700, 1600)
    field = [a, b, replace(c, score=0.5), replace(d, had_bye=True), e]
    # Lowest placed: 5 (0 points, 1600); 5 has had no bye.
    assert swiss_round(field, 2)[-1] == Pairing(5, None, 2)
    # 5 and 4 placed lowest, but 5 has had a bye and 4 too: 2 is the lowest without one.
    field = [a, b, replace(c, score=0.5), replace(d, had_bye=True), replace(e, had_bye=True)]
    assert swiss_round(field, 2)[-1] == Pairing(2, None, 2)


def test_the_bye_passes_up_to_a_player_whose_absence_lets_everyone_else_play() -> None:
    a, b, c = fresh(2000, 1900, 1800)
    # 3 is lowest, but without 3 the others (who met) could not play: 2 sits out instead.
    field = [replace(a, opponents=(2,)), replace(b, opponents=(1,)), c]
    pairing = swiss_round(field, 2)
    assert pairing[-1] == Pairing(2, None, 2)
    assert {pairing[0].first, pairing[0].second} == {1, 3}


def test_a_round_that_can_only_repeat_games_is_refused() -> None:
    a, b, c, d = fresh(2000, 1900, 1800, 1700)
    field = [replace(a, opponents=(2, 3, 4)), replace(b, opponents=(1,)), c, d]
    with pytest.raises(PairingImpossibleError, match="round 4: every way to pair these 4 players"):
        swiss_round(field, 4)


def test_no_third_same_side_in_a_row_when_a_pairing_of_equal_scores_avoids_it() -> None:
    a, b, c, d = fresh(2000, 1900, 1800, 1700)
    # 1 and 2 had the first side twice, 3 and 4 the second: 1 and 2 must not meet (one
    # of them would have the first side again), nor 3 and 4. By rating, 1 meets 3.
    field = [
        replace(a, score=1, opponents=(7, 8), colours=(FIRST, FIRST)),
        replace(b, score=1, opponents=(5, 6), colours=(FIRST, FIRST)),
        replace(c, score=1, opponents=(5, 7), colours=(SECOND, SECOND)),
        replace(d, score=1, opponents=(6, 8), colours=(SECOND, SECOND)),
    ]
    assert swiss_round(field, 3) == [Pairing(3, 1, 3), Pairing(4, 2, 3)]


def test_sides_follow_what_each_had_less_of_then_alternation() -> None:
    a, b = fresh(2000, 1900)
    # Both would like the first side: 1 because they had the second more often, 2 to
    # alternate. Having had less of it comes first: 1 plays first.
    field = [
        replace(a, colours=(SECOND, FIRST, SECOND)),
        replace(b, colours=(FIRST, SECOND)),
    ]
    assert swiss_round(field, 4) == [Pairing(1, 2, 4)]
    # Equal wishes: the higher placed, 1, has theirs (not the side they had last).
    field = [replace(a, colours=(SECOND, FIRST)), replace(b, colours=(SECOND, FIRST))]
    assert swiss_round(field, 3) == [Pairing(2, 1, 3)]


def test_the_same_players_in_any_order_give_the_same_pairings() -> None:
    rng = random.Random(7)
    field = play_swiss(fresh(*(rng.randrange(1200, 2400) for _ in range(21))), 4, rng)
    shuffled = field[:]
    rng.shuffle(shuffled)
    assert swiss_round(shuffled, 5) == swiss_round(field, 5)


def test_swiss_refuses_a_player_twice_and_a_round_zero() -> None:
    with pytest.raises(ValueError, match="twice"):
        swiss_round(fresh(1500, 1500) * 2, 1)
    with pytest.raises(ValueError, match="from 1"):
        swiss_round(fresh(1500, 1500), 0)


# --- Swiss: whole tournaments with random results ------------------------------------------


def played(
    field: Sequence[SwissPlayer], pairing: Sequence[Pairing], results: Iterator[float]
) -> list[SwissPlayer]:
    """The field after a round: the first-side player scores each result, a bye 1."""
    by_id = {p.id: p for p in field}
    for game in pairing:
        a = by_id[game.first]
        if game.second is None:
            by_id[a.id] = replace(a, score=a.score + 1, had_bye=True)
            continue
        b, result = by_id[game.second], next(results)
        by_id[a.id] = replace(
            a, score=a.score + result, opponents=(*a.opponents, b.id), colours=(*a.colours, FIRST)
        )
        by_id[b.id] = replace(
            b,
            score=b.score + 1 - result,
            opponents=(*b.opponents, a.id),
            colours=(*b.colours, SECOND),
        )
    return list(by_id.values())


def play_swiss(field: list[SwissPlayer], rounds: int, rng: random.Random) -> list[SwissPlayer]:
    for number in range(1, rounds + 1):
        pairing = swiss_round(field, number)
        field = played(field, pairing, iter(lambda: rng.choice((1.0, 0.5, 0.0)), None))
    return field


def place(player: SwissPlayer) -> tuple[float, float, int]:
    """The standing as swiss_round documents it: score, rating, then the lower id."""
    return (-player.score, -player.rating, player.id)


def matchings(ids: Sequence[int], allowed: set[frozenset[int]]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair all of `ids` using only allowed pairs."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) in allowed:
            for more in matchings([*rest[:k], *rest[k + 1 :]], allowed):
                yield [(first, other), *more]


def thirds(a: SwissPlayer, b: SwissPlayer) -> int:
    """The fewest of the two who must take a side a third time running, however seated."""

    def third(p: SwissPlayer, side: Colour) -> int:
        return int(p.colours[-2:] == (side, side))

    return min(third(a, FIRST) + third(b, SECOND), third(a, SECOND) + third(b, FIRST))


def check_against_brute_force(field: Sequence[SwissPlayer], pairing: Sequence[Pairing]) -> None:
    """The bye and the pairs are what an exhaustive search finds best: the lowest-placed
    bye that lets the rest play, the fewest third same sides in a row, and among those
    the least total of squared score gaps."""
    by_id = {p.id: p for p in field}
    allowed = {
        frozenset((a.id, b.id))
        for a, b in itertools.combinations(field, 2)
        if b.id not in a.opponents and a.id not in b.opponents
    }
    ids = [p.id for p in sorted(field, key=place)]
    bye = None
    if len(ids) % 2:
        upwards = sorted(ids[::-1], key=lambda i: by_id[i].had_bye)  # stable: lowest first
        bye = next(i for i in upwards if next(matchings([j for j in ids if j != i], allowed), None))
        ids.remove(bye)
    assert [p.first for p in pairing if p.second is None] == ([bye] if bye is not None else [])

    def gaps(pairs: Sequence[tuple[int, int]]) -> float:
        return sum((by_id[a].score - by_id[b].score) ** 2 for a, b in pairs)

    def colour_faults(pairs: Sequence[tuple[int, int]]) -> int:
        return sum(thirds(by_id[a], by_id[b]) for a, b in pairs)

    options = list(matchings(ids, allowed))
    best_colours = min(colour_faults(pairs) for pairs in options)
    best_gaps = min(gaps(pairs) for pairs in options if colour_faults(pairs) == best_colours)
    ours = [(p.first, p.second) for p in pairing if p.second is not None]
    assert colour_faults(ours) == best_colours
    assert gaps(ours) == best_gaps


def check_round(field: Sequence[SwissPlayer], pairing: Sequence[Pairing], number: int) -> None:
    """Everyone plays once or has the bye (one when the field is odd), and nobody meets
    anyone a second time."""
    seated = [p.first for p in pairing] + [p.second for p in pairing if p.second is not None]
    assert sorted(seated) == sorted(p.id for p in field)
    assert {p.round for p in pairing} == {number}
    by_id = {p.id: p for p in field}
    assert sum(game.second is None for game in pairing) == len(field) % 2
    for game in pairing:
        if game.second is not None:
            assert game.second not in by_id[game.first].opponents


def no_pairing_exists(field: Sequence[SwissPlayer]) -> bool:
    allowed = {
        frozenset((a.id, b.id))
        for a, b in itertools.combinations(field, 2)
        if b.id not in a.opponents and a.id not in b.opponents
    }
    ids = [p.id for p in field]
    if len(ids) % 2 == 0:
        return next(matchings(ids, allowed), None) is None
    return all(next(matchings([j for j in ids if j != i], allowed), None) is None for i in ids)


RESULTS = st.sampled_from((1.0, 0.5, 0.0))


@pytest.mark.parametrize("n", [5, 8])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_small_swiss_is_paired_as_well_as_an_exhaustive_search_pairs_it(
    n: int, data: st.DataObject
) -> None:
    # Close ratings, so that equal ones (placed by id) come up often.
    ratings = data.draw(st.lists(st.integers(1000, 1010), min_size=n, max_size=n))
    field = fresh(*ratings)
    for number in range(1, n):  # as many rounds as a round robin has (5 players: 4)
        try:
            pairing = swiss_round(field, number)
        except PairingImpossibleError:
            assert no_pairing_exists(field)
            return
        check_round(field, pairing, number)
        check_against_brute_force(field, pairing)
        games = sum(p.second is not None for p in pairing)
        results = data.draw(st.lists(RESULTS, min_size=games, max_size=games))
        field = played(field, pairing, iter(results))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_eight_players_never_take_a_side_three_times_running_in_five_rounds(
    data: st.DataObject,
) -> None:
    field = fresh(*data.draw(st.lists(st.integers(1000, 2400), min_size=8, max_size=8)))
    for number in range(1, 6):
        pairing = swiss_round(field, number)
        results = data.draw(st.lists(RESULTS, min_size=4, max_size=4))
        field = played(field, pairing, iter(results))
    for player in field:
        assert all(len(set(player.colours[k : k + 3])) == 2 for k in range(len(player.colours) - 2))


def check_no_better_swap(field: Sequence[SwissPlayer], pairing: Sequence[Pairing]) -> None:
    """No two boards could swap opponents (without a repeat) for fewer third same sides
    in a row, or as few and closer scores: what the optimum implies, checked directly."""
    by_id = {p.id: p for p in field}

    def fault(a: int, b: int) -> tuple[int, float] | None:
        x, y = by_id[a], by_id[b]
        if b in x.opponents or a in y.opponents:
            return None
        return (thirds(x, y), (x.score - y.score) ** 2)

    def total(*pairs: tuple[int, int]) -> tuple[int, float] | None:
        faults = [fault(a, b) for a, b in pairs]
        if any(f is None for f in faults):
            return None
        return (sum(f[0] for f in faults if f), sum(f[1] for f in faults if f))

    games = [(p.first, p.second) for p in pairing if p.second is not None]
    for (a, b), (c, d) in itertools.combinations(games, 2):
        now = total((a, b), (c, d))
        assert now is not None
        for swapped in (total((a, c), (b, d)), total((a, d), (b, c))):
            assert swapped is None or swapped >= now


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_thirty_three_players_over_nine_rounds(data: st.DataObject) -> None:
    field = fresh(*data.draw(st.lists(st.integers(1000, 2400), min_size=33, max_size=33)))
    for number in range(1, 10):
        pairing = swiss_round(field, number)  # 9 of 32 opponents met: a pairing always exists
        check_round(field, pairing, number)
        check_no_better_swap(field, pairing)
        games = len(pairing) - 1
        results = data.draw(st.lists(RESULTS, min_size=games, max_size=games))
        field = played(field, pairing, iter(results))
    assert sorted(p.had_bye for p in field) == [False] * 24 + [True] * 9
    for player in field:  # and no third same side: with 33 players one is always avoidable
        assert all(len(set(player.colours[k : k + 3])) == 2 for k in range(len(player.colours) - 2))


def test_with_random_results_most_games_are_between_equal_scores() -> None:
    rng = random.Random(11)
    field = fresh(*(rng.randrange(1000, 2400) for _ in range(33)))
    for number in range(1, 10):
        pairing = swiss_round(field, number)
        by_id = {p.id: p for p in field}
        games = [(by_id[p.first], by_id[p.second]) for p in pairing if p.second is not None]
        equal = sum(a.score == b.score for a, b in games)
        assert equal == 16 if number == 1 else equal > len(games) / 2
        field = played(field, pairing, iter(lambda: rng.choice((1.0, 0.5, 0.0)), None))


def test_a_large_field_paired_in_blocks_never_repeats_and_keeps_scores_close() -> None:
    rng = random.Random(3)
    field = fresh(*(rng.randrange(1000, 2400) for _ in range(201)))
    for number in range(1, 7):
        pairing = swiss_round(field, number)
        check_round(field, pairing, number)
        by_id = {p.id: p for p in field}
        gaps = [
            abs(by_id[p.first].score - by_id[p.second].score)
            for p in pairing
            if p.second is not None
        ]
        assert max(gaps) <= 1
        assert sum(gap > 0 for gap in gaps) <= len({p.score for p in field}) + 2
        field = played(field, pairing, iter(lambda: rng.choice((1.0, 0.5, 0.0)), None))
    assert sum(p.had_bye for p in field) == 6


# --- arena -----------------------------------------------------------------------------


def test_an_arena_pairs_the_nearest_scores_from_the_top_and_the_lowest_waits() -> None:
    pool = [
        ArenaPlayer(1, 10, None, ()),
        ArenaPlayer(2, 4, None, ()),
        ArenaPlayer(3, 9, None, ()),
        ArenaPlayer(4, 5, None, ()),
        ArenaPlayer(5, 0, None, ()),
    ]
    # 1 v 3 and 4 v 2 (sides by board: no one has played yet); 5 waits.
    assert [(p.first, p.second) for p in arena_pairs(pool)] == [(1, 3), (2, 4)]
    assert {p.round for p in arena_pairs(pool)} == {ARENA_ROUND}


def test_an_arena_never_pairs_again_the_two_who_just_met_while_another_is_free() -> None:
    pool = [ArenaPlayer(1, 10, 2, ()), ArenaPlayer(2, 9, 1, ()), ArenaPlayer(3, 0, None, ())]
    assert [(p.first, p.second) for p in arena_pairs(pool)] == [(1, 3)]  # 2 waits
    # The arena's only two players play again rather than wait forever.
    assert len(arena_pairs(pool[:2])) == 1  # the arena's only two players: again
    assert arena_pairs(pool[:2], players=4) == []  # two of four: they wait for the others
    assert arena_pairs(pool[:1]) == []


def test_an_arena_gives_each_the_side_they_had_less_of() -> None:
    pool = [ArenaPlayer(1, 3, None, (FIRST, FIRST, SECOND)), ArenaPlayer(2, 3, None, (SECOND,))]
    assert arena_pairs(pool) == [Pairing(2, 1, ARENA_ROUND)]
    pool = [ArenaPlayer(1, 3, None, (SECOND, SECOND, FIRST)), ArenaPlayer(2, 3, None, (FIRST,))]
    assert arena_pairs(pool) == [Pairing(1, 2, ARENA_ROUND)]


def all_matchings(
    ids: Sequence[int], allowed: set[frozenset[int]]
) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair some of `ids` (anyone may wait) using allowed pairs."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    yield from all_matchings(rest, allowed)
    for k, other in enumerate(rest):
        if frozenset((first, other)) in allowed:
            for more in all_matchings([*rest[:k], *rest[k + 1 :]], allowed):
                yield [(first, other), *more]


@st.composite
def arena_pools(draw: st.DrawFn) -> list[ArenaPlayer]:
    ids = draw(st.lists(st.integers(1, 40), max_size=9, unique=True))
    return [
        ArenaPlayer(
            player,
            draw(st.integers(0, 12)),
            draw(st.one_of(st.none(), st.sampled_from(ids))),
            tuple(draw(st.lists(st.sampled_from((FIRST, SECOND)), max_size=5))),
        )
        for player in ids
    ]


@settings(max_examples=300, deadline=None)
@given(pool=arena_pools())
def test_an_arena_pairs_as_many_as_can_play_nearest_scores_never_just_met(
    pool: list[ArenaPlayer],
) -> None:
    pairing = arena_pairs(pool)
    by_id = {p.id: p for p in pool}
    seated = [p.first for p in pairing] + [p.second for p in pairing]
    assert len(seated) == len(set(seated)) and set(seated) <= set(by_id)
    just_met = {
        frozenset((p.id, p.last_opponent)) for p in pool if p.last_opponent not in (None, p.id)
    }
    ours = [(p.first, p.second) for p in pairing if p.second is not None]
    if len(pool) > 2:
        assert not {frozenset(pair) for pair in ours} & just_met
    allowed = {frozenset(pair) for pair in itertools.combinations(by_id, 2)} - (
        just_met if len(pool) > 2 else set()
    )
    options = list(all_matchings(sorted(by_id), allowed))
    most = max(len(pairs) for pairs in options)
    assert len(ours) == most
    if 2 * most >= len(pool) - 1:  # all play, or one waits: the lowest placed who can
        order = sorted(pool, key=lambda p: (-p.score, p.id))
        waiting = [p.id for p in order if p.id not in seated]
        can_wait = [
            p.id
            for p in order
            if any(
                p.id not in {i for pair in pairs for i in pair}
                for pairs in options
                if len(pairs) == most
            )
        ]
        assert waiting == can_wait[-1:] if len(pool) % 2 else waiting == []

        def gaps(pairs: Sequence[tuple[int, int]]) -> int:
            return sum((by_id[a].score - by_id[b].score) ** 2 for a, b in pairs)

        best = min(
            gaps(pairs)
            for pairs in options
            if len(pairs) == most and not set(waiting) & {i for pair in pairs for i in pair}
        )
        assert gaps(ours) == best
