"""Who plays whom in a tournament, as pure functions: round robin, Swiss and arena.

No I/O, no clock, no chance: the same players give the same pairings, whatever
order they come in. Players are int ids; a `Pairing` names who plays the first
side (the side that moves first, White in chess) and who the second, or a bye.

- Round robin: the FIDE Berger tables (Handbook C.05, Annex 1). A double round
  robin plays the table again with the sides swapped; an odd field adds a
  dummy, the highest number, and meeting it is a bye.
- Swiss: a maximum-weight matching over the pairs that have not met. Its
  weights rank, in this order: the fewest players given a side a third time in
  a row (FIDE's absolute colour rule: a third is given only when no pairing
  avoids it); the smallest sum of squared score differences; the fewest given
  the side they had more of; the fewest not alternating; then the rating order
  (in a score group the top half meets the bottom half, 1 v 1 + n/2, ...; a
  floater comes from the bottom of its group to the top of the next). The bye
  is chosen first: the lowest-placed player who has had none and without whom
  the rest can all be paired. Ties of score and rating place the lower id first.
- Arena: the free players paired at once, highest scores first, each with the
  nearest score, never with the player they just met while anyone else is
  free; an odd one out, the lowest placed, waits for the next free player.

Sides within a pair: no third same side in a row, else the side a player had
less of, else the side they did not have last; the higher placed wins a tie.
Scores, tie-breaks and standings are the standings module's business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, Literal

Colour = Literal["first", "second"]
FIRST: Final = "first"
SECOND: Final = "second"
ARENA_ROUND: Final = 0  # an arena has no rounds: its pairings carry this number

# networkx matches in pure Python, in about cubic time: 200 players take a second
# even when each is offered only a few dozen opponents. Larger fields are therefore
# paired in blocks of about BLOCK players down the standing, the unpaired carried into
# the next block; a score group larger than BLOCK is cut so that each block keeps
# its top-half and bottom-half partners together. Up to ONE_BLOCK players are
# paired in one matching, which is the exact optimum.
ONE_BLOCK: Final = 64
BLOCK: Final = 24

Cost = tuple[int, ...]


class PairingImpossibleError(ValueError):
    """Every way to pair these players repeats a game: the tournament cannot go on."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game: `first` plays the first side; `second` None is a bye for `first`."""

    first: int
    second: int | None
    round: int  # 1-based; ARENA_ROUND for an arena's pairing


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """A player as a Swiss round sees them."""

    id: int
    score: float  # points so far: a win 1, a draw ½, a bye 1
    rating: float  # orders players of equal score
    opponents: tuple[int, ...]  # everyone met so far, in order
    colours: tuple[Colour, ...]  # the side of each game played, in order (no byes)
    had_bye: bool


@dataclass(frozen=True, slots=True)
class ArenaPlayer:
    """A free player of an arena, waiting for a game."""

    id: int
    score: int
    last_opponent: int | None
    colours: tuple[Colour, ...]


# --- round robin -----------------------------------------------------------------------


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pairing]]:
    """Every round of a round robin by the Berger tables; players[0] is number 1.

    A round lists its boards in the table's order, a bye last. `double` plays the
    table again with the sides swapped, as rounds n to 2(n - 1); the first cycle's
    last two rounds are then played in reverse order (FIDE's advice for double round
    robins), or with an even number of players someone would have the same side in
    the last two rounds of the first cycle and the first of the second.
    """
    _check_unique(players)
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    seats: list[int | None] = [*players, None] if len(players) % 2 else [*players]
    cycle = _berger(len(seats))
    first_cycle = [*cycle[:-2], cycle[-1], cycle[-2]] if double and len(cycle) >= 2 else cycle
    rounds = [_seat(seats, boards, number) for number, boards in enumerate(first_cycle, 1)]
    if double:
        rounds += [
            _seat(seats, [(second, first) for first, second in boards], len(cycle) + number)
            for number, boards in enumerate(cycle, 1)
        ]
    return rounds


def _berger(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for an even n: each round's boards as (first, second) numbers.

    Number n stays put and meets p in round r, where 2p = r + 1 modulo n - 1 (n has
    the second side in odd rounds); board k + 1 seats p + k (first) against p - k.
    """
    ring = n - 1
    table = []
    for r in range(1, n):
        p = (r + 1) // 2 if r % 2 else (r + n) // 2
        boards = [(p, n) if r % 2 else (n, p)]
        boards += [((p + k - 1) % ring + 1, (p - k - 1) % ring + 1) for k in range(1, n // 2)]
        table.append(boards)
    return table


def _seat(
    seats: Sequence[int | None], boards: Iterable[tuple[int, int]], number: int
) -> list[Pairing]:
    games, byes = [], []
    for first, second in boards:
        a, b = seats[first - 1], seats[second - 1]
        if a is not None and b is not None:
            games.append(Pairing(a, b, number))
        elif a is not None:
            byes.append(Pairing(a, None, number))
        elif b is not None:
            byes.append(Pairing(b, None, number))
    return games + byes


# --- Swiss -----------------------------------------------------------------------------


def swiss_round(players: Sequence[SwissPlayer], round: int) -> list[Pairing]:
    """Pair one Swiss round: boards in order of their higher-placed player, the bye last.

    Raises `PairingImpossibleError` when every pairing repeats a game (late rounds, few players).
    """
    _check_unique([player.id for player in players])
    if round < 1:
        raise ValueError(f"rounds are numbered from 1, not {round}")
    standing = sorted(players, key=lambda p: (-p.score, -p.rating, p.id))
    if len(standing) % 2 == 0:
        boards = _swiss_boards(standing, round)
        if boards is None:
            raise PairingImpossibleError(
                f"round {round}: every way to pair these {len(standing)} players repeats a game"
            )
        return boards
    for bye in _bye_candidates(standing):
        boards = _swiss_boards([player for player in standing if player is not bye], round)
        if boards is not None:
            return [*boards, Pairing(bye.id, None, round)]
    raise PairingImpossibleError(
        f"round {round}: every way to pair these {len(standing)} players repeats a game"
    )


def _bye_candidates(standing: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """Lowest placed first; a second bye only when no one without one can take it."""
    upwards = standing[::-1]
    return [p for p in upwards if not p.had_bye] + [p for p in upwards if p.had_bye]


def _swiss_boards(standing: Sequence[SwissPlayer], round: int) -> list[Pairing] | None:
    """Everyone in the standing paired and seated, or None when that cannot be done."""
    groups = _score_groups([player.score for player in standing])
    gives = [(_given(p.colours, FIRST), _given(p.colours, SECOND)) for p in standing]

    def cost(i: int, j: int) -> Cost | None:
        a, b = standing[i], standing[j]
        if b.id in a.opponents or a.id in b.opponents:
            return None
        gap = int(abs(a.score - b.score) * 2 + 0.5)  # in half points: scores move by halves
        third, more, unwished = min(_add(gives[i][0], gives[j][1]), _add(gives[i][1], gives[j][0]))
        return (third, gap * gap, more, unwished, _rating_cost(groups, i, j))

    blocks = [list(range(len(standing)))] if len(standing) <= ONE_BLOCK else _blocks(groups)
    pairs, unpaired = _match_in_blocks(blocks, cost, leftover=0)
    if unpaired:
        return None
    return [
        Pairing(
            *_sides(
                standing[i].id, standing[i].colours, standing[j].id, standing[j].colours, board
            ),
            round,
        )
        for board, (i, j) in enumerate(pairs)
    ]


def _score_groups(scores: Sequence[float]) -> list[tuple[int, int]]:
    """For each place in the standing: where its score group starts, and its size."""
    groups: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(scores) + 1):
        if i == len(scores) or scores[i] != scores[start]:
            groups += [(start, i - start)] * (i - start)
            start = i
    return groups


def _rating_cost(groups: Sequence[tuple[int, int]], i: int, j: int) -> int:
    """How far places i < j are from the rating order's ideal: in a score group place
    k meets k + size/2; between groups, the bottom of one meets the top of the next."""
    (start, size), (lower_start, _) = groups[i], groups[j]
    if start == lower_start:
        return (j - i - size // 2) ** 2
    return (start + size - 1 - i) + (j - lower_start)


def _blocks(groups: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The places of the standing cut into blocks of about BLOCK, in pairing order.

    Small score groups are taken together; a large one is cut into slices of its top
    half, each with the matching slice of its bottom half (the partners the rating
    order wants), the last slice taking what remains.
    """
    blocks: list[list[int]] = []
    current: list[int] = []
    start = 0
    while start < len(groups):
        size = groups[start][1]
        if size <= BLOCK:
            current += range(start, start + size)
            if len(current) >= BLOCK:
                blocks.append(current)
                current = []
        else:
            half, step = size // 2, BLOCK // 2
            cuts = [*range(0, half - step // 2, step), half]  # no slice under half a step
            for top, end in pairwise(cuts):
                bottom_end = half + end if end < half else size
                current += [
                    *range(start + top, start + end),
                    *range(start + half + top, start + bottom_end),
                ]
                blocks.append(current)
                current = []
        start += size
    if current:
        blocks.append(current)
    return blocks


# --- arena -----------------------------------------------------------------------------


def arena_pairs(free: Sequence[ArenaPlayer], *, players: int | None = None) -> list[Pairing]:
    """Pair the free players now, highest scores first, each with the nearest score.

    No one meets the player they just met: they wait for another to be free, unless
    the two are the arena's only players (`players`, by default those free). An odd
    one out waits: the lowest placed who can. Pairings carry ARENA_ROUND.
    """
    _check_unique([player.id for player in free])
    order = sorted(free, key=lambda player: (-player.score, player.id))
    everyone = len(order) if players is None else players

    def cost(i: int, j: int) -> Cost | None:
        a, b = order[i], order[j]
        if everyone > 2 and (a.last_opponent == b.id or b.last_opponent == a.id):
            return None
        return ((a.score - b.score) ** 2, (j - i) ** 2)  # the score gap, then 1 v 2, 3 v 4

    places = list(range(len(order)))
    blocks = [places] if len(order) <= ONE_BLOCK else _chunks(places, BLOCK)
    pairs, _ = _match_in_blocks(blocks, cost, leftover=1)
    return [
        Pairing(
            *_sides(order[i].id, order[i].colours, order[j].id, order[j].colours, board),
            ARENA_ROUND,
        )
        for board, (i, j) in enumerate(pairs)
    ]


def _chunks(places: list[int], size: int) -> list[list[int]]:
    return [places[start : start + size] for start in range(0, len(places), size)]


# --- sides -----------------------------------------------------------------------------


def _other(side: Colour) -> Colour:
    return SECOND if side == FIRST else FIRST


def _wish(colours: Sequence[Colour]) -> Colour | None:
    """The side a player would like next: the one they had less of, else not their last."""
    firsts, seconds = colours.count(FIRST), colours.count(SECOND)
    if firsts != seconds:
        return FIRST if firsts < seconds else SECOND
    return _other(colours[-1]) if colours else None


def _given(colours: Sequence[Colour], side: Colour) -> Cost:
    """What giving `side` costs: a third in a row, a side had more of, not alternating."""
    third = int(len(colours) >= 2 and colours[-1] == colours[-2] == side)
    more = int(colours.count(side) > colours.count(_other(side)))
    unwished = int(not more and _wish(colours) not in (None, side))
    return (third, more, unwished)


def _add(a: Cost, b: Cost) -> Cost:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _sides(
    high: int, high_colours: Sequence[Colour], low: int, low_colours: Sequence[Colour], board: int
) -> tuple[int, int]:
    """Who of a pair plays first (high is the higher placed): the cheaper way; on a tie the
    sides alternate from the last game where the two had different sides, else the higher
    placed has their wish, else plays first on even boards (counted from 0)."""
    high_first = _add(_given(high_colours, FIRST), _given(low_colours, SECOND))
    low_first = _add(_given(high_colours, SECOND), _given(low_colours, FIRST))
    if high_first != low_first:
        return (high, low) if high_first < low_first else (low, high)
    for mine, theirs in zip(reversed(high_colours), reversed(low_colours), strict=False):
        if mine != theirs:
            return (high, low) if mine == SECOND else (low, high)
    wish = _wish(high_colours) or (FIRST if board % 2 == 0 else SECOND)
    return (high, low) if wish == FIRST else (low, high)


# --- matching --------------------------------------------------------------------------


def _match_in_blocks(
    blocks: Sequence[Sequence[int]], cost: Callable[[int, int], Cost | None], leftover: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair block after block, the unpaired carried into the next. While more than
    `leftover` remain at the end, the last blocks are paired again as one, twice as many
    each time. The pairs (i, j), i < j, sorted, and who is left unpaired."""
    made: list[list[tuple[int, int]]] = []
    carried: list[int] = []
    for block in blocks:
        made.append(_pair_block([*carried, *block], cost))
        carried = _unpaired([*carried, *block], made[-1])
    reach = 1
    while len(carried) > leftover and len(made) > 1:
        reach = min(reach, len(made) - 1)
        places = carried + [
            place for pairs in made[-reach - 1 :] for pair in pairs for place in pair
        ]
        del made[-reach - 1 :]
        made.append(_pair_block(places, cost))
        carried = _unpaired(places, made[-1])
        reach *= 2
    return sorted(pair for pairs in made for pair in pairs), carried


def _pair_block(
    places: Sequence[int], cost: Callable[[int, int], Cost | None]
) -> list[tuple[int, int]]:
    """The best matching of `places`; of an odd number, the lowest placed (highest place)
    whose absence lets all the others play is left out, else whoever must be."""
    if len(places) % 2:
        for out in sorted(places, reverse=True):
            rest = [place for place in places if place != out]
            pairs = _best_matching(rest, cost)
            if 2 * len(pairs) == len(rest):
                return pairs
    return _best_matching(places, cost)


def _unpaired(places: Sequence[int], pairs: Sequence[tuple[int, int]]) -> list[int]:
    paired = {place for pair in pairs for place in pair}
    return sorted(place for place in places if place not in paired)


def _best_matching(
    places: Sequence[int], cost: Callable[[int, int], Cost | None]
) -> list[tuple[int, int]]:
    """The most pairs among `places` (None from `cost` forbids a pair), and among those the
    smallest total cost tier by tier: a lower tier only breaks ties of the ones above.

    The tiers become one integer weight per edge in mixed radix: each tier's unit
    exceeds the most all lower tiers can add up to over a whole matching, so networkx's
    maximum-weight matching minimises them in order, in exact integers.
    """
    nodes = sorted(places)  # sorted nodes and edges: the same input, the same answer
    costs = {
        (i, j): c
        for k, i in enumerate(nodes)
        for j in nodes[k + 1 :]
        if (c := cost(i, j)) is not None
    }
    if not costs:
        return []
    tiers = len(next(iter(costs.values())))
    bounds = [max(c[t] for c in costs.values()) for t in range(tiers)]
    units = [1] * tiers
    for t in range(tiers - 2, -1, -1):
        units[t] = units[t + 1] * (len(nodes) // 2 * bounds[t + 1] + 1)
    # Imported here, not at the top: every process that imports the service (each bot
    # process, each AI worker's parent) would otherwise load networkx's 300 modules at
    # start, while only a tournament's round ever pairs.
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (i, j), c in costs.items():
        weight = 1 + sum(
            (bound - x) * unit for bound, x, unit in zip(bounds, c, units, strict=True)
        )
        graph.add_edge(i, j, weight=weight)
    return sorted(
        (min(pair), max(pair)) for pair in nx.max_weight_matching(graph, maxcardinality=True)
    )


def _check_unique(ids: Sequence[int]) -> None:
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
