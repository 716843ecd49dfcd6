"""Playing through the service on a real SQLite file: whole games, refusals, passes,
resigning, draws, history, records in and out."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import words
from games.base import Side, Termination
from games.record import load
from games.registry import GAMES
from matches import (
    BadInput,
    BadMove,
    DrawError,
    DrawEvent,
    Ending,
    FirstLegalMove,
    GameOver,
    GameView,
    ManualClock,
    MatchService,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    ReplayError,
    StaleAction,
    Status,
)
from store import open_store
from tests.matches_support import refused
from words.games import outcome_text
from words.service import headline

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL, BOT = 100, 200, 300, 999

# Red's c3xa1 leaves Blue's two stones blocked: Blue's only move is `pass`.
OSKA_TO_PASS = ("e1-f2", "e5-d4", "c1-d2", "a5-b4", "d2-e3", "b4-c3", "e3-f4", "g5xe3", "a1-b2")
OSKA_PASSING_MOVE = "c3xa1"


class Env:
    def __init__(self, service: MatchService, clock: ManualClock, path: Path) -> None:
        self.service, self.clock, self.path = service, clock, path

    def count(self) -> int:
        db = sqlite3.connect(self.path)
        try:
            count: int = db.execute("SELECT count(*) FROM games").fetchone()[0]
            return count
        finally:
            db.close()


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    path = tmp_path / "kamen.db"
    store = await open_store(f"sqlite:///{path}")
    clock = ManualClock()
    service = MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=clock, rng=random.Random(3)
    )
    yield Env(service, clock, path)
    await store.close()


async def start(
    env: Env, game: str = "oska", channel: int = CHANNEL, variant: str = ""
) -> GameView:
    """A game of ALICE (first) against BOB (second)."""
    offered = await env.service.challenge(
        guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game=game,
        opponent_id=BOB, first="challenger", variant=variant,
    )  # fmt: skip
    return await env.service.accept(offered.id, BOB)


async def play_moves(env: Env, view: GameView, moves: tuple[str, ...]) -> GameView:
    for move in moves:
        assert view.to_move_id is not None
        view = (await env.service.move(view.to_move_id, move, channel_id=view.channel_id)).view
    return view


# --------------------------------------------------------------- whole games


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_whole_games_of_every_variant_are_played_to_a_result(
    env: Env, tmp_path: Path, name: str
) -> None:
    spec = GAMES[name]
    for index, variant in enumerate(spec.all_variants()):
        chooser = random.Random(index)
        view = await start(env, name, channel=1000 + index, variant=str(variant))
        while view.status is Status.ACTIVE:
            move = chooser.choice(view.state.legal_moves())
            user = view.to_move_id
            assert user is not None
            if chooser.random() < 0.5:  # by slash command, or by component with its move number
                result = await env.service.move(user, move, channel_id=view.channel_id, game=name)
            else:
                result = await env.service.move(user, move, game_id=view.id, expected_ply=view.ply)
            assert result.move == move and result.mover_id == user
            assert result.view.moves[: view.ply + 1] == (*view.moves, move)
            view = result.view
        outcome = view.state.outcome()
        assert outcome is not None and view.ending is Ending.RULES
        assert (view.result, view.reason) == (outcome.result, outcome.reason)
        assert view.outcome == outcome
        assert view.deadline is None and view.to_move_id is None
        await check_replays_from_the_file(env, view)


async def check_replays_from_the_file(env: Env, view: GameView) -> None:
    """A fresh service on the same file (an empty cache) rebuilds the same game."""
    store = await open_store(f"sqlite:///{env.path}")
    try:
        again = await MatchService(store, clock=env.clock).view(game_id=view.id)
    finally:
        await store.close()
    assert again.moves == view.moves
    assert again.state.to_text() == view.state.to_text()
    assert again.status is view.status and again.result == view.result


# ------------------------------------------------------------------- refusals


async def test_moves_out_of_turn_or_by_strangers_are_refused(env: Env) -> None:
    view = await start(env)
    with pytest.raises(NotYourTurn):
        await env.service.move(BOB, "a5-b4", channel_id=CHANNEL)
    with pytest.raises(NotAPlayer):
        await env.service.move(CAROL, "a1-b2", channel_id=CHANNEL)
    with pytest.raises(NoGameHere):
        await env.service.move(ALICE, "a1-b2", channel_id=CHANNEL + 1)
    with refused(NoGameHere, "The game here is Oska, not Lasca"):
        await env.service.move(ALICE, "a3-b4", channel_id=CHANNEL, game="lasca")
    assert (await env.service.view(game_id=view.id)).version == view.version


async def test_bad_moves_name_the_legal_ones(env: Env) -> None:
    view = await start(env)
    with pytest.raises(BadMove) as malformed:
        await env.service.move(ALICE, "z9", channel_id=CHANNEL)
    with pytest.raises(BadMove) as illegal:
        await env.service.move(ALICE, "a1-c3", channel_id=CHANNEL)
    for error in (malformed.value, illegal.value):
        assert error.legal == view.state.legal_moves()
        assert "Legal moves: a1-b2" in words.explain(error)
    with refused(BadInput, "too long"):
        await env.service.move(ALICE, "a1-b2" * 20, channel_id=CHANNEL)
    assert (await env.service.view(game_id=view.id)).ply == 0


async def test_moves_are_read_in_the_notation_alternatives(env: Env) -> None:
    await start(env)
    result = await env.service.move(ALICE, "  A1-B2 ", channel_id=CHANNEL)
    assert result.move == "a1-b2" and result.view.moves == ("a1-b2",)


async def test_a_stale_component_is_refused(env: Env) -> None:
    view = await start(env)
    await env.service.move(ALICE, "a1-b2", game_id=view.id, expected_ply=0)
    with refused(StaleAction, "out of date"):
        await env.service.move(BOB, "a5-b4", game_id=view.id, expected_ply=0)
    assert (await env.service.move(BOB, "a5-b4", game_id=view.id, expected_ply=1)).view.ply == 2
    # Resigning does not depend on the position: the button of an old board still resigns.
    resigned = await env.service.resign(BOB, game_id=view.id)
    assert resigned.status is Status.FINISHED and resigned.result == "1-0"


async def test_no_moves_before_acceptance_nor_after_the_end(env: Env) -> None:
    offered = await env.service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oware", opponent_id=BOB
    )
    with refused(NoGameHere, "not been accepted"):
        await env.service.move(ALICE, "A", game_id=offered.id)
    view = await start(env, channel=CHANNEL + 1)
    await env.service.resign(BOB, channel_id=view.channel_id)
    with refused(GameOver, "1-0"):
        await env.service.move(ALICE, "a1-b2", game_id=view.id)
    with pytest.raises(NoGameHere):  # the channel is free again
        await env.service.move(ALICE, "a1-b2", channel_id=view.channel_id)


# -------------------------------------------------------------- automatic pass


async def test_a_player_whose_only_move_is_pass_passes_automatically(env: Env) -> None:
    view = await play_moves(env, await start(env), OSKA_TO_PASS)
    result = await env.service.move(BOB, OSKA_PASSING_MOVE, channel_id=CHANNEL)
    assert result.passes == (Side.FIRST,)
    assert result.view.moves == (*OSKA_TO_PASS, OSKA_PASSING_MOVE, "pass")
    assert result.view.to_move is Side.SECOND and result.view.to_move_id == BOB
    assert result.view.ply == view.ply + 2
    assert "Blue has no move and passes. Red to move." in headline(result)
    assert result.info.captured == ("b2",)
    with pytest.raises(NotYourTurn):
        await env.service.move(ALICE, "pass", channel_id=CHANNEL)


async def test_an_imported_record_that_leaves_only_pass_starts_with_it(env: Env) -> None:
    text = record_text("Oska", (*OSKA_TO_PASS, OSKA_PASSING_MOVE))
    view = await env.service.import_record(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=text
    )
    assert view.moves[-1] == "pass" and view.to_move is Side.SECOND


# ------------------------------------------------------------------- resigning


async def test_either_player_may_resign_at_any_time(env: Env) -> None:
    view = await start(env)
    with pytest.raises(NotAPlayer):
        await env.service.resign(CAROL, channel_id=CHANNEL)
    ended = await env.service.resign(BOB, channel_id=CHANNEL)  # not Bob's turn: still allowed
    assert ended.status is Status.FINISHED and ended.ending is Ending.RESIGNED
    assert (
        ended.result == "1-0"
        and ended.winner_id == ALICE
        and ended.reason is Termination.RESIGNATION
    )
    assert ended.outcome is not None
    assert outcome_text(ended.outcome, "oska") == "Red resigned"
    with pytest.raises(GameOver):
        await env.service.resign(ALICE, game_id=view.id)


# ----------------------------------------------------------------------- draws


async def test_a_draw_offered_and_accepted(env: Env) -> None:
    await start(env)
    offered = await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    assert offered.event is DrawEvent.OFFERED and offered.view.draw_offer_by == ALICE
    with refused(DrawError, "already offered"):
        await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    with refused(DrawError, "your own"):
        await env.service.accept_draw(ALICE, channel_id=CHANNEL)
    with pytest.raises(NotAPlayer):
        await env.service.accept_draw(CAROL, channel_id=CHANNEL)
    accepted = await env.service.accept_draw(BOB, channel_id=CHANNEL)
    assert accepted.event is DrawEvent.ACCEPTED and accepted.by == BOB
    view = accepted.view
    assert view.status is Status.FINISHED and view.result == "1/2-1/2"
    assert view.ending is Ending.AGREED and view.winner_id is None


async def test_offering_when_the_opponent_has_offered_accepts(env: Env) -> None:
    await start(env)
    await env.service.offer_draw(BOB, channel_id=CHANNEL)
    answered = await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    assert answered.event is DrawEvent.ACCEPTED and answered.view.result == "1/2-1/2"


async def test_a_draw_declined_leaves_no_offer(env: Env) -> None:
    await start(env)
    with refused(DrawError, "no draw offer"):
        await env.service.decline_draw(BOB, channel_id=CHANNEL)
    await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    declined = await env.service.decline_draw(BOB, channel_id=CHANNEL)
    assert declined.event is DrawEvent.DECLINED and declined.view.draw_offer_by is None
    assert declined.view.status is Status.ACTIVE
    with refused(DrawError, "no draw offer"):
        await env.service.accept_draw(BOB, channel_id=CHANNEL)


async def test_an_offer_lapses_when_its_author_moves_not_before(env: Env) -> None:
    await start(env)
    await env.service.move(ALICE, "a1-b2", channel_id=CHANNEL)
    await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    kept = await env.service.move(BOB, "a5-b4", channel_id=CHANNEL)
    assert not kept.draw_offer_lapsed and kept.view.draw_offer_by == ALICE
    lapsed = await env.service.move(ALICE, "c1-d2", channel_id=CHANNEL)
    assert lapsed.draw_offer_lapsed and lapsed.view.draw_offer_by is None
    assert "The draw offer lapsed." in headline(lapsed)
    with pytest.raises(DrawError):
        await env.service.accept_draw(BOB, channel_id=CHANNEL)


async def test_no_draws_with_the_bot_or_with_oneself(env: Env) -> None:
    await env.service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT
    )
    with refused(DrawError, "bot"):
        await env.service.offer_draw(ALICE, channel_id=CHANNEL)
    await env.service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=ALICE, text=record_text("Oska", ())
    )
    with refused(DrawError, "both sides"):
        await env.service.offer_draw(ALICE, channel_id=CHANNEL + 1)


# ---------------------------------------------------------------- bot games


async def test_a_whole_game_against_the_bot(env: Env) -> None:
    view = await env.service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oware", opponent_id=BOT,
        first="challenger",
    )  # fmt: skip
    chooser = random.Random(5)
    while view.status is Status.ACTIVE:
        if view.bot_to_move:
            result = await env.service.play_bot_move(view.id, expected_ply=view.ply)
            assert result is not None and result.mover_id == BOT
        else:
            move = chooser.choice(view.state.legal_moves())
            result = await env.service.move(ALICE, move, game_id=view.id)
        view = result.view
    assert view.result in ("1-0", "0-1", "1/2-1/2") and view.ending is Ending.RULES


async def test_a_stale_bot_move_is_refused(env: Env) -> None:
    view = await env.service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, game="oska", opponent_id=BOT,
        first="opponent",
    )  # fmt: skip
    with pytest.raises(StaleAction):
        await env.service.play_bot_move(view.id, expected_ply=view.ply + 1)
    with pytest.raises(NotYourTurn):
        await env.service.move(ALICE, "a5-b4", game_id=view.id)


# ------------------------------------------------------------ history, records


def record_text(title: str, moves: tuple[str, ...], result: str = "*", variant: str = "") -> str:
    numbered = " ".join(
        f"{i // 2 + 1}. {move}" if i % 2 == 0 else move for i, move in enumerate(moves)
    )
    return f'[Game "{title}"]\n[Variant "{variant}"]\n[Result "{result}"]\n\n{numbered} {result}\n'


async def test_history_and_record_export(env: Env) -> None:
    view = await play_moves(env, await start(env, "lasca"), ("c3-d4", "e5xc3", "b2xd4"))
    history = await env.service.view(channel_id=CHANNEL)
    assert history.moves == ("c3-d4", "e5xc3", "b2xd4") and history.last_move == "b2xd4"
    text = await env.service.export_record(
        channel_id=CHANNEL, site="Club #lasca", first_name="Alice", second_name="Bob"
    )
    assert '[Game "Lasca"]' in text and '[Site "Club #lasca"]' in text
    assert '[Date "2026.01.01"]' in text and '[Result "*"]' in text
    assert "1. c3-d4 e5xc3 2. b2xd4 *" in text
    record, state = load(text)
    assert record.moves == view.moves and state.to_text() == view.state.to_text()
    with refused(BadInput, "too long"):
        await env.service.export_record(channel_id=CHANNEL, site="#" * 300)


async def test_the_record_of_a_resigned_game_carries_the_result(env: Env) -> None:
    view = await play_moves(env, await start(env, "oware"), ("C", "d"))
    await env.service.resign(ALICE, game_id=view.id)
    text = await env.service.export_record(game_id=view.id)
    assert '[Result "0-1"]' in text and text.rstrip().endswith("1. C d 0-1")
    assert load(text)[0].result == "0-1"


async def test_a_record_imported_alone_is_played_on_by_its_importer(env: Env) -> None:
    text = record_text("Oware", ("C", "d", "A"), variant="grandslam=nocapture")
    view = await env.service.import_record(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=text, game="oware"
    )
    assert view.status is Status.ACTIVE and view.players == (ALICE, ALICE)
    assert view.moves == ("C", "d", "A") and str(view.state.variant) == "grandslam=nocapture"
    after = await env.service.move(ALICE, view.state.legal_moves()[0], channel_id=CHANNEL)
    assert after.side is Side.SECOND and after.view.to_move_id == ALICE
    assert (await env.service.export_record(channel_id=CHANNEL)).count("grandslam=nocapture") == 1


async def test_a_record_imported_against_someone_is_a_challenge(env: Env) -> None:
    text = record_text("Oska", ("a1-b2", "a5-b4"))
    offered = await env.service.import_record(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=text, opponent_id=BOB,
        first="opponent",
    )  # fmt: skip
    assert offered.status is Status.CHALLENGE and offered.moves == ("a1-b2", "a5-b4")
    # Against the bot it starts at once (before Bob's game from it runs: matches.engine_help).
    against_bot = await env.service.import_record(
        guild_id=GUILD, channel_id=CHANNEL + 1, user_id=ALICE, text=text, opponent_id=BOT
    )
    assert against_bot.status is Status.ACTIVE and against_bot.ply == 2
    view = await env.service.accept(offered.id, BOB)
    assert view.players == (BOB, ALICE) and view.to_move_id == BOB and view.ply == 2


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (record_text("Oska", ("a1-b2", "a1-b2")), "Red's move 1"),
        (record_text("Oska", ("a1-b2", "zz")), "Red's move 1"),
        ("1. a1-b2 *", "no \\[Game"),
        (record_text("Chess", ("e4",)), "not a game here"),
        (record_text("Oska", (), variant="capture=never"), "capture=forced"),
        (record_text("Oska", ("a1-b2",), result="2-0"), "Result tag says 2-0"),
        (record_text("Lasca", ("c3-d4",)), "record of Lasca, not Oska"),
        (record_text("Oska", ()) + " " * 70_000, "too long"),
    ],
)  # fmt: skip
async def test_a_bad_record_is_refused_and_nothing_is_written(
    env: Env, text: str, words: str
) -> None:
    with refused(BadInput, words):
        await env.service.import_record(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=text, game="oska"
        )
    assert env.count() == 0


async def test_a_finished_record_cannot_be_played_on(env: Env) -> None:
    spec, chooser = GAMES["oska"], random.Random(1)
    state = spec.new()
    while state.outcome() is None:
        state = state.play(chooser.choice(state.legal_moves()))
    text = record_text("Oska", state.moves, state.outcome().result)  # type: ignore[union-attr]
    with refused(BadInput, "over"):
        await env.service.import_record(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, text=text
        )
    assert env.count() == 0


# --------------------------------------------------------------- bookkeeping


async def test_the_board_message_is_kept_without_a_new_version(env: Env) -> None:
    view = await start(env)
    await env.service.set_board_message(view.id, 4242)
    again = await env.service.view(game_id=view.id)
    assert again.message_id == 4242 and again.version == view.version
    moved = await env.service.move(ALICE, "a1-b2", game_id=view.id, expected_ply=0)
    assert moved.view.message_id == 4242


async def test_a_stored_game_that_no_longer_replays_is_a_fault_not_a_refusal(env: Env) -> None:
    view = await start(env)
    db = sqlite3.connect(env.path)
    db.execute("UPDATE games SET moves = 'a1-b2 a1-b2' WHERE id = ?", (view.id,))
    db.commit()
    db.close()
    with pytest.raises(ReplayError, match="move 2"):
        await env.service.view(game_id=view.id)
