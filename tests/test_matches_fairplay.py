"""The fair-play figures on hand-made games, on both backends.

Two rated Oska games on a server, whose every position's exact value was worked out with
the solved table (the values of a few are checked below by hand):

- COPIED: Ann (Blue) plays the table's best move each time; Bob (Red) plays the first
  legal move and throws the draw at move 4. Ann kept the value in all 6 of her moves where
  one could change the result (her moves 9 is forced, and at 15 every move wins); Bob in 1
  of 2 (at 6, 8 he is lost whatever he plays; 10, 12, 14 are forced).
- THROWN: Carol (Blue) plays the first legal move and, winning after 5. d2xb4, throws the
  win with 7. e1-f2; Dave (Red) plays the best move. Carol kept 3 of 4, Dave 3 of 4.

Ann thinks 2 seconds a move, everyone else 40. Kamen's `hard` pick is played here by a
picker that plays the table's first best move (`Perfect`). A game of another server, in
which Ann throws a win, never counts.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from games import oware
from games.ai.oska_player import move_values, perfect_moves
from games.ai.oska_solver import describe
from games.base import GameState
from games.oska import OskaState
from games.registry import GAMES
from matches import GameView, ManualClock, MatchService
from matches.fairplay import Ply, Share, kept_value
from matches.move_times import move_times
from matches.storage import Store
from tests import store_support

GUILD, OTHER_GUILD, CHANNEL = 1, 2, 10
ANN, BOB, CAROL, DAVE, EVE, KAMEN = 100, 200, 300, 400, 500, 999

store_url, store = store_support.store_url, store_support.any_store

COPIED = (
    "a1-b2", "a5-b4", "c1-d2", "b4-c3", "d2xb4", "c5-d4", "e1-d2", "d4-c3", "b2xd4",
    "e5xc3xe1", "g1-f2", "g5-f4", "f2-e3", "f4xd2", "b4-a5",
)  # fmt: skip
THROWN = (
    "a1-b2", "a5-b4", "c1-d2", "b4-c3", "d2xb4", "c5-d4", "e1-f2", "d4-c3", "b2xd4",
    "e5xc3", "f2-e3", "g5-f4", "e3xg5", "c3-b2", "g1-f2", "b2-a1",
)  # fmt: skip


class Perfect:
    """Kamen at `hard`, made certain: the table's first best move."""

    async def pick(self, state: GameState, level: str) -> str:
        assert isinstance(state, OskaState) and level == "hard"
        return perfect_moves(state)[0]


@pytest.fixture
async def service(store: Store) -> AsyncIterator[MatchService]:
    yield MatchService(
        store, bot_user_id=KAMEN, picker=Perfect(), clock=ManualClock(), rng=random.Random(7)
    )


def at(moves: tuple[str, ...], ply: int) -> OskaState:
    state = GAMES["oska"].replay("", moves[:ply])
    assert isinstance(state, OskaState)
    return state


def test_the_hand_made_games_values_are_the_tables() -> None:
    start = move_values(at(COPIED, 0))
    assert describe(start["a1-b2"]) == "draw" and describe(start["c1-b2"]) == "loss in 16 plies"
    before_4 = move_values(at(COPIED, 3))  # Red: g5-f4 holds the draw, b4-c3 loses
    assert describe(before_4["g5-f4"]) == "draw"
    assert describe(before_4["b4-c3"]) == "loss in 16 plies"
    before_5 = move_values(at(COPIED, 4))  # Blue wins by d2xb4 only
    assert {m: describe(v) for m, v in before_5.items()} == {
        "b2xd4": "loss in 13 plies", "d2xb4": "win in 15 plies",
    }  # fmt: skip
    before_7 = move_values(at(THROWN, 6))  # every Blue move wins but e1-f2
    assert describe(before_7["e1-f2"]) == "loss in 10 plies"
    assert all(v > 0 for m, v in before_7.items() if m != "e1-f2")
    assert at(COPIED, len(COPIED)).outcome().winner == 0  # type: ignore[union-attr]
    assert at(THROWN, len(THROWN)).outcome().winner == 1  # type: ignore[union-attr]


async def played(
    service: MatchService, guild: int, blue: int, red: int, moves: tuple[str, ...],
    challenge: GameView,
) -> GameView:  # fmt: skip
    """`challenge` accepted now and `moves` played, Ann thinking 2 s a move, others 40 s."""
    clock = service.clock
    assert isinstance(clock, ManualClock)
    view = await service.accept(challenge.id, red, guild_id=guild)
    for move in moves:
        mover = view.to_move_id
        clock.advance(2 if mover == ANN else 40)
        assert mover is not None
        view = (await service.move(mover, move, game_id=view.id)).view
    return view


async def offer(
    service: MatchService, guild: int, blue: int, red: int, channel: int, *, rated: bool = True
) -> GameView:
    return await service.challenge(
        guild_id=guild, channel_id=channel, challenger_id=blue, game="oska", opponent_id=red,
        first="challenger", time="1d", rated=rated,
    )  # fmt: skip


async def test_a_copier_and_a_thrower_get_their_exact_shares_baselines_and_times(
    service: MatchService,
) -> None:
    # Offered together (the period the baseline covers starts there), then played one by one.
    copied = await offer(service, GUILD, ANN, BOB, CHANNEL)
    thrown = await offer(service, GUILD, CAROL, DAVE, CHANNEL + 1)
    elsewhere = await offer(service, OTHER_GUILD, ANN, EVE, CHANNEL + 2)
    copied = await played(service, GUILD, ANN, BOB, COPIED, copied)
    thrown = await played(service, GUILD, CAROL, DAVE, THROWN, thrown)
    await played(service, OTHER_GUILD, ANN, EVE, THROWN, elsewhere)  # Ann throws, elsewhere
    assert copied.result == "1-0" and thrown.result == "0-1"
    # The times kept with the game: Ann's 2 s, Bob's 40 s, ply by ply.
    assert move_times(copied.row) == (2000, 40000) * 7 + (2000,)

    ann = await service.fairplay.report(GUILD, ANN)
    assert ann.counted == {"oska": 1, "lasca": 0, "oware": 0}
    assert ann.exact == Share(6, 6)
    assert ann.baseline == Share(1 + 3 + 3, 2 + 4 + 4) and ann.baseline_players == 3
    assert ann.hard == Share(7, 7) and ann.hard_games == 1  # move 9 forced: not asked
    assert ann.median_ms == 2000 and ann.quick == Share(7, 7) and ann.untimed == 0

    carol = await service.fairplay.report(GUILD, CAROL, "oska")
    assert carol.games == ("oska",) and carol.counted == {"oska": 1}
    assert carol.exact == Share(3, 4)
    assert carol.baseline == Share(3 + 6 + 1, 4 + 6 + 2) and carol.baseline_players == 3
    assert carol.hard == Share(5, 6)  # her first legal moves were the best but at 7. e1-f2
    assert carol.median_ms == 40000 and carol.quick == Share(0, 6)

    # The other server sees only its game: Ann threw the win there.
    there = await service.fairplay.report(OTHER_GUILD, ANN)
    assert there.exact == Share(3, 4) and there.baseline == Share(3, 4)
    # Nobody's figures for a player with no rated game here; Lasca has none at all.
    none = await service.fairplay.report(GUILD, EVE)
    assert none.counted == {"oska": 0, "lasca": 0, "oware": 0} and none.exact == Share()
    lasca = await service.fairplay.report(GUILD, ANN, "lasca")
    assert lasca.counted == {"lasca": 0} and lasca.exact == Share() and lasca.hard == Share()


async def test_moves_taken_back_take_their_times_with_them(
    service: MatchService,
) -> None:
    clock = service.clock
    assert isinstance(clock, ManualClock)
    game = await offer(service, GUILD, ANN, BOB, CHANNEL, rated=False)
    view = await service.accept(game.id, BOB)
    clock.advance(3)
    await service.move(ANN, "a1-b2", game_id=view.id)
    clock.advance(10)
    await service.move(BOB, "a5-b4", game_id=view.id)
    clock.advance(1)
    await service.ask_takeback(BOB, game_id=view.id)
    clock.advance(5)
    await service.answer_takeback(ANN, True, game_id=view.id)
    clock.advance(7)
    after = await service.move(BOB, "g5-f4", game_id=view.id)
    # Bob's second try is timed from when Ann's move reached its position.
    assert move_times(after.view.row) == (3000, 23000)


def oware_ply(text: str, move: str) -> Ply:
    state = oware.from_text(text, oware.SPEC.variant())
    return Ply(ANN, state, move, 1)


# South A1 D1 against North's e1 f1, 21 to 23: A wins, D loses, whatever came before.
WON_BY_A = "\n".join(
    [
        "North  f  e  d  c  b  a     store 23",
        "1 1 0 0 0 0",
        "1 0 0 1 0 0",
        "South  A  B  C  D  E  F     store 21",
        "South to move",
    ]
)
# South B1 F1 against an empty row, 23 each: a draw or a win by what came before.
HISTORY_DECIDES = "\n".join(
    [
        "North  f  e  d  c  b  a     store 23",
        "0 0 0 0 0 0",
        "0 1 0 0 0 1",
        "South  A  B  C  D  E  F     store 23",
        "South to move",
    ]
)


def test_oware_endgames_count_where_the_tables_settle_every_moves_result() -> None:
    assert kept_value(oware_ply(WON_BY_A, "A")) is True
    assert kept_value(oware_ply(WON_BY_A, "D")) is False
    # The tables' value here rests on the game's history: the position does not count.
    assert kept_value(oware_ply(HISTORY_DECIDES, "F")) is None
    start = oware.start(oware.SPEC.variant())
    assert kept_value(Ply(ANN, start, "A", 1)) is None  # 48 seeds: above the tables
