"""Playing a game: moves (a player's or the bot's), resigning, draw offers.

A move is checked by the engine, followed by any automatic pass, and saved
with the version it was computed from; it is acknowledged only once saved.
A draw offer stands until it is answered or its author moves.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import GameError, Side
from matches import transitions
from matches.core import ATTEMPTS, Loaded, ServiceCore, Where
from matches.errors import DrawError, StaleAction, from_game_error
from matches.inputs import MAX_MOVE, capped
from matches.picker import DEFAULT_LEVEL
from matches.views import DrawEvent, DrawResult, Ending, GameView, MoveResult
from store import Status, StoredGame


class Play(ServiceCore):
    """Moves, the bot's moves, resignation and draw offers."""

    # ------------------------------------------------------------------ moving

    async def move(
        self,
        user_id: int,
        text: str,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
    ) -> MoveResult:
        """Play a move given as text; passes that follow are played for the players."""
        capped(text, MAX_MOVE, "move")
        where = Where(game_id, channel_id, game)
        for _ in range(ATTEMPTS):
            loaded = await self._load(where)
            side = self._check_turn(loaded, user_id, expected_ply)
            result = await self._play(loaded, user_id, side, text)
            if result is not None:
                return result
        raise StaleAction()

    async def _play(
        self, loaded: Loaded, mover_id: int, side: Side, text: str
    ) -> MoveResult | None:
        before = loaded.state
        try:
            move = before.parse_move(text)
            after, passes = transitions.settle(before.play(move))
        except GameError as error:
            raise from_game_error(error) from error
        row = loaded.row
        lapsed = row.draw_offer_by == mover_id
        offer = None if lapsed else row.draw_offer_by
        saved = await self._commit(loaded, transitions.played(row, after, self.clock(), offer))
        if saved is None:
            return None
        self.positions.remember(saved.id, after)
        view = self._view(Loaded(saved, loaded.spec, after))
        return MoveResult(view, move, mover_id, side, before, passes, lapsed)

    async def play_bot_move(
        self, game_id: int, *, expected_ply: int | None = None
    ) -> MoveResult | None:
        """Let the bot move if it is its turn in this game; None when it is not.

        The picker may think for a while: if the position changed meanwhile,
        the move is refused as stale, like a player's would be.
        """
        loaded = await self._load(Where(game_id=game_id))
        bot = self.bot_user_id
        if self.picker is None or bot is None or not self._view(loaded).bot_to_move:
            return None
        if expected_ply is not None and expected_ply != len(loaded.row.moves):
            raise StaleAction()
        ply = len(loaded.row.moves)
        self._check_turn(loaded, bot, ply)
        move = await self.picker.pick(loaded.state, loaded.row.ai_level or DEFAULT_LEVEL)
        for _ in range(ATTEMPTS):
            side = self._check_turn(loaded, bot, ply)
            result = await self._play(loaded, bot, side, move)
            if result is not None:
                return result
            loaded = await self._load(Where(game_id=game_id))
        raise StaleAction()

    # --------------------------------------------------------- resign and draw

    async def resign(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
    ) -> GameView:
        """Give up the game (the side to move, when one user plays both)."""

        def resigned(loaded: Loaded) -> StoredGame:
            side = self._check_playing(loaded, user_id, expected_ply)
            reason = f"{loaded.spec.side_name(side)} resigned"
            return transitions.lost_by(loaded.row, side, Ending.RESIGNED, reason, self.clock())

        return self._view(await self._update(Where(game_id, channel_id, game), resigned))

    async def offer_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
    ) -> DrawResult:
        """Offer a draw, or accept the opponent's offer if one is pending."""

        def offered(loaded: Loaded) -> StoredGame:
            self._check_draw(loaded, user_id, expected_ply)
            offer = loaded.row.draw_offer_by
            if offer == user_id:
                raise DrawError("You have already offered a draw: wait for the answer.")
            if offer is not None:
                return self._drawn(loaded.row)
            if loaded.row.ai_level is not None:
                raise DrawError("The bot plays on: it does not agree to draws.")
            return replace(loaded.row, draw_offer_by=user_id, updated_at=self.clock())

        saved = await self._update(Where(game_id, channel_id, game), offered)
        agreed = saved.row.status is Status.FINISHED
        event = DrawEvent.ACCEPTED if agreed else DrawEvent.OFFERED
        return DrawResult(self._view(saved), event, user_id)

    async def accept_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
    ) -> DrawResult:
        """Accept the opponent's draw offer: the game is drawn."""
        return await self._answer_draw(
            Where(game_id, channel_id, game), user_id, expected_ply, True
        )

    async def decline_draw(
        self,
        user_id: int,
        *,
        game_id: int | None = None,
        channel_id: int | None = None,
        game: str | None = None,
        expected_ply: int | None = None,
    ) -> DrawResult:
        """Decline the opponent's draw offer: the game goes on."""
        return await self._answer_draw(
            Where(game_id, channel_id, game), user_id, expected_ply, False
        )

    async def _answer_draw(
        self, where: Where, user_id: int, expected_ply: int | None, accept: bool
    ) -> DrawResult:
        def answered(loaded: Loaded) -> StoredGame:
            self._check_draw(loaded, user_id, expected_ply)
            offer = loaded.row.draw_offer_by
            if offer is None:
                raise DrawError("There is no draw offer to answer.")
            if offer == user_id:
                raise DrawError("You cannot answer your own draw offer.")
            if accept:
                return self._drawn(loaded.row)
            return replace(loaded.row, draw_offer_by=None, updated_at=self.clock())

        saved = await self._update(where, answered)
        event = DrawEvent.ACCEPTED if accept else DrawEvent.DECLINED
        return DrawResult(self._view(saved), event, user_id)

    def _drawn(self, row: StoredGame) -> StoredGame:
        now = self.clock()
        return transitions.finished(row, "1/2-1/2", Ending.AGREED, "drawn by agreement", now)

    def _check_draw(self, loaded: Loaded, user_id: int, expected_ply: int | None) -> None:
        self._check_playing(loaded, user_id, expected_ply)
        first, second = loaded.row.players or (0, 0)
        if first == second:
            raise DrawError(
                "You play both sides of this game: there is nobody to agree a draw with."
            )
