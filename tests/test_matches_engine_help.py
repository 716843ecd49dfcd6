"""No engine help in one's own game, on both backends: while Alice plays Bob, Kamen thinks
about no position their game has passed through for her (an import against Kamen or to
study, a review, a move against Kamen), whatever the move order; the start position stays
open, other players' games are not hers, and everything opens again once the game ends."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator

import pytest

from matches import BadInput, FirstLegalMove, GameView, ManualClock, MatchService, OwnGameRunning
from matches.storage import Store
from tests import store_support
from tests.matches_support import refused

GUILD, OTHER_GUILD, CHANNEL = 1, 2, 10
ALICE, BOB, CAROL, KAMEN = 100, 200, 300, 999

store_url, store = store_support.store_url, store_support.any_store

CHANNELS = itertools.count(1000)
OPENING = ("a1-b2", "a5-b4", "g1-f2", "g5-f4")
# The same position as after OPENING's first three moves, another way round.
TRANSPOSED = ("g1-f2", "a5-b4", "a1-b2")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[MatchService]:
    yield MatchService(
        store, bot_user_id=KAMEN, picker=FirstLegalMove(), clock=ManualClock(),
        rng=random.Random(7),
    )  # fmt: skip


async def rated_game(
    service: MatchService, first: int, second: int, moves: tuple[str, ...], channel: int = CHANNEL
) -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=first, game="oska",
        opponent_id=second, first="challenger", time="1d",
    )  # fmt: skip
    view = await service.accept(offered.id, second)
    for move in moves:
        assert view.to_move_id is not None
        view = (await service.move(view.to_move_id, move, game_id=view.id)).view
    return view


def record(moves: tuple[str, ...]) -> str:
    numbered = []
    for index in range(0, len(moves), 2):
        numbered.append(f"{index // 2 + 1}. " + " ".join(moves[index : index + 2]))
    return '[Game "Oska"]\n\n' + " ".join(numbered) + " *"


async def against_kamen(
    service: MatchService, user: int, moves: tuple[str, ...], guild: int = GUILD
) -> GameView:
    """The exact cheat: the record, played on against Kamen at max, Kamen to move first."""
    channel = next(CHANNELS)
    return await service.import_record(
        guild_id=guild, channel_id=channel, user_id=user, text=record(moves),
        game="oska", opponent_id=KAMEN, first="opponent", level="max",
    )  # fmt: skip


async def test_a_running_games_record_is_not_played_on_against_kamen_or_studied(
    service: MatchService,
) -> None:
    game = await rated_game(service, ALICE, BOB, OPENING)
    exported = await service.export_record(game_id=game.id)
    said = rf"occurs in game #{game.id}, which you are still playing\. It opens again"
    with refused(OwnGameRunning, said, id=game.id):
        await service.import_record(
            guild_id=GUILD, channel_id=CHANNEL + 50, user_id=ALICE, text=exported, game="oska",
            opponent_id=KAMEN, first="opponent", level="max",
        )  # fmt: skip
    for user in (ALICE, BOB):  # either player, any prefix beyond the start, any move order
        for moves in (OPENING[:1], OPENING[:3], TRANSPOSED):
            with refused(OwnGameRunning, id=game.id):
                await against_kamen(service, user, moves)
        with refused(OwnGameRunning, id=game.id):  # alone, to study
            await service.import_record(
                guild_id=GUILD, channel_id=CHANNEL + 60, user_id=user, text=record(TRANSPOSED),
                game="oska",
            )  # fmt: skip
    with refused(OwnGameRunning, id=game.id):  # from another server too
        await against_kamen(service, ALICE, TRANSPOSED, guild=OTHER_GUILD)
    with refused(OwnGameRunning, id=game.id):  # the bot's check before it posts anything
        await service.may_import(ALICE, record(TRANSPOSED), "oska", KAMEN)
    # Against another person Kamen thinks about nothing: that import is a challenge like any.
    challenge = await service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 70, user_id=ALICE, text=exported, game="oska",
        opponent_id=CAROL,
    )  # fmt: skip
    assert challenge.moves == OPENING

    # The start position occurs in every game: a fresh record, a position off the game's
    # path, and the same record for a player not in the game are all Kamen's to think about.
    assert (await against_kamen(service, ALICE, ())).bot_to_move
    assert (await against_kamen(service, ALICE, ("c1-d2", "a5-b4"))).bot_to_move
    assert (await against_kamen(service, CAROL, OPENING)).moves == OPENING

    await service.resign(BOB, game_id=game.id)  # over: open to everything again
    again = await against_kamen(service, ALICE, OPENING)
    assert again.moves == OPENING and again.bot_to_move


async def test_a_move_against_kamen_or_in_a_study_may_not_reach_a_running_games_position(
    service: MatchService,
) -> None:
    game = await rated_game(service, ALICE, BOB, OPENING)
    kamen = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL + 1, challenger_id=ALICE, game="oska",
        opponent_id=KAMEN, first="challenger", level="easy",
    )  # fmt: skip
    with refused(OwnGameRunning, id=game.id):
        await service.move(ALICE, "a1-b2", game_id=kamen.id)
    played = await service.move(ALICE, "c1-d2", game_id=kamen.id)  # off the game's path
    assert played.view.moves == ("c1-d2",)
    # A study of the other opening moves, which transposes into the game: refused at the move
    # that would reach its position, allowed once the game is over.
    study = await service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 2, user_id=ALICE, text=record(("g1-f2", "a5-b4")),
        game="oska",
    )  # fmt: skip
    with refused(OwnGameRunning, id=game.id):
        await service.move(ALICE, "a1-b2", game_id=study.id)
    # Carol plays no game that position occurs in: against Kamen it is hers to play.
    carol = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL + 3, challenger_id=CAROL, game="oska",
        opponent_id=KAMEN, first="challenger", level="easy",
    )  # fmt: skip
    assert (await service.move(CAROL, "a1-b2", game_id=carol.id)).view.moves[0] == "a1-b2"
    # Between two people the same move is no help from Kamen: it is played.
    other = await rated_game(service, ALICE, CAROL, ("a1-b2",), channel=CHANNEL + 4)
    assert other.moves == ("a1-b2",)

    await service.resign(ALICE, game_id=game.id)
    assert (await service.move(ALICE, "a1-b2", game_id=study.id)).view.ply == 3


async def test_a_review_is_refused_while_one_of_its_positions_is_in_a_running_game(
    service: MatchService,
) -> None:
    running = await rated_game(service, ALICE, BOB, OPENING)
    # Carol and Alice played the same opening another way round, and Carol resigned.
    finished = await rated_game(service, CAROL, ALICE, TRANSPOSED, channel=CHANNEL + 5)
    finished = await service.resign(CAROL, game_id=finished.id)
    with refused(OwnGameRunning, rf"game #{running.id}", id=running.id):
        await service.reviews.may_see(finished, ALICE)
    await service.reviews.may_see(finished, CAROL)  # not her running game
    with refused(BadInput, "not over yet"):  # the review's own rules still apply after it
        await service.reviews.check(running)
    await service.resign(BOB, game_id=running.id)
    await service.reviews.may_see(finished, ALICE)
