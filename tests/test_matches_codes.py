"""The service's refusals as codes with params, their English word for word, and the
questions the bot asks instead of re-deciding (choices, draws, challenges that start at once)."""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import words
from games.base import Side
from matches import (
    BadInput,
    BadMove,
    ChallengeClosed,
    FirstLegalMove,
    GameOver,
    GameView,
    ManualClock,
    MatchService,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    StaleAction,
)
from matches.errors import MatchError
from store import open_store
from tests.matches_support import refused
from words.english.service import TEXTS
from words.service import headline

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    store = await open_store(f"sqlite:///{tmp_path / 'k.db'}")
    yield MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=ManualClock(), rng=random.Random(1)
    )
    await store.close()


async def start(service: MatchService, game: str = "oska") -> GameView:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game=game,
        opponent_id=BOB, first="challenger",
    )  # fmt: skip
    return await service.accept(offered.id, BOB)


def test_every_error_class_has_its_default_code_in_english() -> None:
    classes: list[type[MatchError]] = [MatchError, *_subclasses(MatchError)]
    for kind in classes:
        if kind is BadMove:  # carries the engine's code
            continue
        assert words.has_text(kind.code), kind
        assert kind().code == kind.code and kind().params == {}


def test_every_service_code_is_a_match_or_headline_code() -> None:
    assert all(re.fullmatch(r"(match|headline)\.[a-z.-]+", code) for code in TEXTS)


def test_errors_pickle_with_their_code_and_params() -> None:
    error = NoGameHere("match.no-game-id", game_id=42)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is NoGameHere and again.code == error.code and again.params == error.params


async def test_refusals_carry_code_params_and_todays_words(service: MatchService) -> None:
    view = await start(service)
    with refused(NotYourTurn, "^It is not your turn: wait for your opponent's move.$",
                 code="match.not-your-turn"):  # fmt: skip
        await service.move(BOB, "a5-b4", channel_id=CHANNEL)
    with refused(NoGameHere, r"^There is no game #42\.$", code="match.no-game-id", game_id=42):
        await service.view(game_id=42)
    with refused(NoGameHere, r"^The game here is Oska, not Lasca\.$", code="match.other-game",
                 here="oska", asked="lasca"):  # fmt: skip
        await service.move(ALICE, "a1-b2", channel_id=CHANNEL, game="lasca")
    with refused(StaleAction, r"^That board is out of date: the game has moved on\. Look again\.$",
                 code="match.stale.board"):  # fmt: skip
        await service.move(ALICE, "a1-b2", game_id=view.id, expected_ply=3)
    with refused(BadInput, r"^The move is too long: at most 64 characters \(65 given\)\.$",
                 code="match.input.too-long.move", limit=64, given=65):  # fmt: skip
        await service.move(ALICE, "x" * 65, channel_id=CHANNEL)
    with refused(BadInput, r"^`0` is not a valid user id\.$", code="match.input.bad-id.user"):
        await service.open_games_of(0)
    with refused(ChallengeClosed, r"^This challenge was already accepted\.$",
                 code="match.challenge-closed.accepted"):  # fmt: skip
        await service.accept(view.id, CAROL)
    await service.resign(BOB, channel_id=CHANNEL)
    with refused(GameOver, r"^This game is over: 1-0 \(Red resigned\)\.$",
                 code="match.game-over.result", result="1-0", game="oska"):  # fmt: skip
        await service.resign(ALICE, game_id=view.id)


async def test_a_bad_move_keeps_the_engines_code_and_params(service: MatchService) -> None:
    view = await start(service)
    with pytest.raises(BadMove) as caught:
        await service.move(ALICE, "a1-c3", channel_id=CHANNEL)
    try:
        view.state.play("a1-c3")
    except Exception as engine:  # the engine's own error for the same move
        assert caught.value.code == getattr(engine, "code")  # noqa: B009
        assert caught.value.params["legal"] == view.state.legal_moves()
        assert caught.value.move == "a1-c3" and caught.value.legal == view.state.legal_moves()
    assert words.explain(caught.value).endswith("Legal moves: " + ", ".join(caught.value.legal))


async def test_the_headline_reads_as_before(service: MatchService) -> None:
    await start(service)
    result = await service.move(ALICE, "a1-b2", channel_id=CHANNEL)
    assert headline(result) == "Blue played a1-b2. Red to move."
    assert result.headline_parts()[0] == ("headline.played", {"side": Side.FIRST, "move": "a1-b2"})


# ------------------------------------------------------------------- questions


async def test_choices_for_the_player_to_move(service: MatchService) -> None:
    view = await start(service)
    everything = await service.choices_for(ALICE, channel_id=CHANNEL)
    assert sorted(everything) == sorted(view.state.legal_moves())
    assert await service.choices_for(ALICE, game_id=view.id, square="a1") == ("a1-b2",)
    assert await service.choices_for(ALICE, channel_id=CHANNEL, typed="C1") == ("c1-b2", "c1-d2")
    starting_then_containing = await service.choices_for(ALICE, channel_id=CHANNEL, typed="d2")
    assert starting_then_containing == ("c1-d2", "e1-d2")
    with refused(BadInput, r"^No move starts from b2: pick another piece\.$",
                 code="match.no-move-from", square="b2"):  # fmt: skip
        await service.choices_for(ALICE, game_id=view.id, square="b2")
    with refused(NotYourTurn):
        await service.choices_for(BOB, channel_id=CHANNEL)
    with refused(NotAPlayer):
        await service.choices_for(CAROL, channel_id=CHANNEL)
    with refused(StaleAction, code="match.stale.board"):
        await service.choices_for(ALICE, game_id=view.id, square="a1", expected_ply=2)


async def test_captures_come_first(service: MatchService) -> None:
    view = await start(service)
    for move in ("e1-f2", "e5-d4", "c1-d2", "a5-b4", "d2-e3", "b4-c3", "e3-f4"):
        user = view.to_move_id
        assert user is not None
        view = (await service.move(user, move, game_id=view.id)).view
    choices = await service.choices_for(BOB, game_id=view.id)
    captures = [m for m in choices if "x" in m]
    assert captures and list(choices[: len(captures)]) == captures


async def test_who_may_offer_a_draw(service: MatchService) -> None:
    view = await start(service)
    assert view.can_offer_draw
    against_bot = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL + 1, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    assert not against_bot.can_offer_draw
    record = '[Game "Oska"]\n[Result "*"]\n\n1. a1-b2 *\n'
    study = await service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 2, user_id=ALICE, text=record
    )
    assert not study.can_offer_draw
    ended = await service.resign(ALICE, channel_id=CHANNEL)
    assert not ended.can_offer_draw


def test_which_challenges_start_at_once(service: MatchService) -> None:
    assert service.starts_at_once(BOT)
    assert not service.starts_at_once(BOB)
    assert not service.starts_at_once(None)
    assert service.starts_at_once(None, importing=True)
    assert service.starts_at_once(BOT, importing=True)
    assert not service.starts_at_once(BOB, importing=True)


def _subclasses(kind: type[MatchError]) -> list[type[MatchError]]:
    found: list[type[MatchError]] = []
    for sub in kind.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


async def test_a_move_on_a_closed_challenge_says_what_became_of_it(service: MatchService) -> None:
    offered = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOB
    )
    await service.decline(offered.id, BOB)
    with refused(NoGameHere, r"^This challenge was declined: there is no game\.$",
                 code="match.no-game.declined"):  # fmt: skip
        await service.move(ALICE, "a1-b2", game_id=offered.id)
    error = NoGameHere("match.no-game.declined")
    assert words.explain(error, "cs") == "Tahle výzva byla odmítnuta: žádná partie není."
