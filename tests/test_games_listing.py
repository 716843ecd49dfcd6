"""`/games` reads a page of summaries from the games' rows, on both engines: the same
lines as the whole games showed, oldest first, how many there are, and no position
replayed however many games a server plays (issue 32, item 5)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot import replies
from games.base import Side
from matches import FirstLegalMove, ManualClock, MatchService
from matches.positions import Positions
from matches.records import GamesPage, GameSummary, Status
from store.kamen import KamenStore
from tests import store_support
from tests.store_support import NOW, a_game
from words import say

store_url, store = store_support.store_url, store_support.any_store

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB, BOT = 100, 200, 999


async def test_a_page_of_a_servers_games_oldest_first_and_how_many(store: KamenStore) -> None:
    ages = [5, 0, 3, 6, 1, 4, 2]  # created in this order, listed by age
    made = {}
    for channel, age in enumerate(ages, start=10):
        moves = ("c1-d2", "a5-b4", "d2-c3")[: channel % 4]
        created = await store.create_game(
            a_game(channel_id=channel, created_at=NOW + timedelta(minutes=age), moves=moves)
        )
        made[age] = created
    # Neither a finished game nor another server's game is listed.
    await store.create_game(a_game(channel_id=30, status=Status.FINISHED, result="1-0"))
    await store.create_game(a_game(guild_id=OTHER_GUILD, channel_id=31))
    await store.set_message(made[0].id, 555)

    first = await store.active_page(GUILD, limit=3)
    assert [game.id for game in first.games] == [made[0].id, made[1].id, made[2].id]
    assert (first.total, first.offset, first.after) == (7, 0, 4)
    last = await store.active_page(GUILD, limit=3, offset=6)
    assert [game.id for game in last.games] == [made[6].id]
    assert (last.total, last.after) == (7, 0)
    assert (await store.active_page(GUILD, limit=3, offset=9)).games == ()

    every = (await store.active_page(GUILD, limit=10)).games
    rows = await store.active_games(GUILD)
    assert [game.id for game in every] == [row.id for row in rows]
    for summary, row in zip(every, rows, strict=True):
        assert summary == GameSummary(
            row.id, row.guild_id, row.channel_id, row.game, row.created_at,
            row.message_id, row.first_id, row.second_id, row.ply,
        )  # fmt: skip
    assert every[0].message_id == 555 and every[0].players == (ALICE, BOB)
    assert [summary.to_move for summary in every] == [Side(row.ply % 2) for row in rows]
    empty = await store.active_page(OTHER_GUILD + 1, limit=3)
    assert (empty.games, empty.total, empty.after) == ((), 0, 0)


async def test_games_created_at_the_same_time_page_by_id(store: KamenStore) -> None:
    ids = sorted([(await store.create_game(a_game(channel_id=10 + i))).id for i in range(5)])
    pages = [await store.active_page(GUILD, limit=2, offset=at) for at in (0, 2, 4)]
    assert [game.id for page in pages for game in page.games] == ids


def a_service(store: KamenStore) -> MatchService:
    return MatchService(
        store, bot_user_id=BOT, picker=FirstLegalMove(), clock=ManualClock(), rng=random.Random(1)
    )


async def test_the_listing_shows_what_the_games_show_and_replays_no_position(
    store: KamenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    playing = a_service(store)
    for channel, (game, plies) in enumerate(
        [("oska", 3), ("lasca", 4), ("oware", 5), ("oska", 0), ("oware", 8), ("lasca", 1)],
        start=10,
    ):
        offered = await playing.challenge(
            guild_id=GUILD, channel_id=channel, challenger_id=ALICE, game=game, opponent_id=BOB,
            first="challenger",
        )  # fmt: skip
        view = await playing.accept(offered.id, BOB, channel_id=channel)
        for _ in range(plies):
            mover = view.to_move_id
            assert mover is not None
            view = (await playing.move(mover, view.state.legal_moves()[0], game_id=view.id)).view
    views = await playing.active_games(GUILD)
    # A board just posted: its link is listed before the write behind lands.
    await playing.set_board_message(views[2].id, 4242, guild_id=GUILD)
    views = await playing.active_games(GUILD)

    # A service as after a restart, its positions' cache empty: the listing builds none.
    listing = a_service(store)
    built: list[int] = []
    replay = Positions.state_of

    def counted(self: Positions, game: object) -> object:
        built.append(1)
        return replay(self, game)  # type: ignore[arg-type]

    monkeypatch.setattr(Positions, "state_of", counted)
    listing.ledger.marks = playing.ledger.marks
    page = await listing.active_page(GUILD, limit=4)
    assert built == []
    assert (page.total, page.after) == (6, 2)
    rest = await listing.active_page(GUILD, limit=4, offset=4)
    assert built == []
    summaries = [*page.games, *rest.games]
    assert [(s.id, s.game, s.channel_id, s.message_id, s.players, s.ply, s.to_move)
            for s in summaries] == [
        (v.id, v.game, v.channel_id, v.message_id, v.players, v.ply, v.to_move) for v in views
    ]  # fmt: skip
    assert summaries[2].message_id == 4242
    # The lines are the ones the games themselves gave (`/games` before item 5).
    assert replies.games_list(page, GUILD, "en") == old_games_list(views, GUILD, "en", 4)


def old_games_list(views: list, guild_id: int, locale: str, shown: int) -> str:  # type: ignore[type-arg]
    """`/games`'s text as it was written from whole games (each with its position)."""
    from words.games import side_names
    from words.games import title as title_of

    lines = [say("bot.games.head", locale, count=len(views))]
    for view in views[:shown]:
        first, second = view.players
        lines.append(
            say(
                "bot.games.line", locale, title=title_of(view.game, locale), id=view.id,
                first=f"<@{first}>", second=f"<@{second}>", number=(view.ply // 2) + 1,
                turn=say("bot.games.to-move", locale,
                         side=side_names(view.game, locale)[view.to_move]),
                where=replies.board_link(view, guild_id),
            )
        )  # fmt: skip
    if len(views) > shown:
        lines.append(say("bot.games.more", locale, count=len(views) - shown))
    return "\n".join(lines)


def test_the_list_says_how_many_more_past_its_page() -> None:
    games = tuple(
        GameSummary(i, GUILD, 10 + i, "oware", NOW, None, ALICE, BOB, i) for i in range(1, 4)
    )
    lines = replies.games_list(GamesPage(games, 45), GUILD, "en").splitlines()
    assert lines[0] == "**Games being played here (45):**"
    assert len(lines) == 5 and "42 more" in lines[-1]
    assert "Oware #1:" in lines[1] and "<#11>" in lines[1] and "North to move" in lines[1]
    assert "South to move" in lines[2] and "move 2" in lines[2]
    assert "more" not in replies.games_list(GamesPage(games, 3), GUILD, "en")
    assert replies.games_list(GamesPage((), 0), GUILD, "en") == say("bot.games.none", "en")
