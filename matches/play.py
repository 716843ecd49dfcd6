"""Playing a game: moves (a player's or the bot's), resigning, draw offers, move choices.

A move is checked by the engine, followed by any automatic pass, and saved
with the version it was computed from; it is acknowledged only once saved.
A draw offer stands until it is answered or its author moves. Every game
that ends here ends through the ledger's commit, which tells the subscribers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from games.base import GameError, GameState, Side, Termination
from matches import checks, live_clocks, transitions
from matches.engine_help import EngineHelp, Guard, helped_game
from matches.errors import BadInput, DrawError, StaleAction, from_game_error
from matches.inputs import MAX_MOVE, capped
from matches.ledger import ATTEMPTS, Committed, Draft, Ledger, Loaded, Race, Where
from matches.picker import DEFAULT_LEVEL, MovePicker
from matches.views import DrawEvent, DrawResult, GameView, MoveResult


@dataclass(frozen=True, slots=True)
class _Moved(Draft):
    """A move drafted: what the result tells besides the new row."""

    move: str = ""
    mover_id: int = 0
    side: Side = Side.FIRST
    passes: tuple[Side, ...] = ()
    lapsed: bool = False


_RESIGNATION = Termination.RESIGNATION


class _NeedsGuard(Exception):
    """A move in a game against Kamen or a study, decided before its player's running games
    were read (`Play.move` reads them then decides again): a game between people never
    pays that read."""


# An untimed game whose player to move has not moved for this long may be claimed by the
# other player (`Play.claim`): it ends as abandoned.
CLAIM_AFTER = timedelta(days=7)


class Play:
    """Moves, the bot's moves, resignation and draw offers, on the ledger it is handed."""

    def __init__(
        self,
        ledger: Ledger,
        *,
        picker: MovePicker | None = None,
        bot_user_id: int | None = None,
        engine_help: EngineHelp | None = None,
    ) -> None:
        self.ledger = ledger
        self.engine_help = engine_help
        self.picker = picker
        self.bot_user_id = bot_user_id

    # ------------------------------------------------------------------ moving

    async def move(
        self, where: Where, user_id: int, text: str, expected_ply: int | None
    ) -> MoveResult:
        """Play a move given as text; passes that follow are played for the players.

        Against Kamen or in a study, a move that reaches a position of a game the player
        is playing is refused (`matches.engine_help`).
        """
        capped(text, MAX_MOVE, "move")
        clock = self.ledger.clock
        guard: Guard | None = None  # read only for a game against Kamen or a study

        def moved(loaded: Loaded) -> _Moved:
            side = checks.turn(loaded, user_id, expected_ply, clock())
            draft = self._draft(loaded, user_id, side, text)
            if self.engine_help is not None and helped_game(loaded.row):
                if guard is None:
                    raise _NeedsGuard()
                assert draft.state is not None
                guard.check((loaded.state.play(draft.move), draft.state))
            return draft

        try:
            committed = await self.ledger.change(where, moved)
        except _NeedsGuard:
            assert self.engine_help is not None
            guard = await self.engine_help.guard(user_id)
            committed = await self.ledger.change(where, moved)
        return self._result(committed)

    def _draft(self, loaded: Loaded, mover_id: int, side: Side, text: str) -> _Moved:
        before = loaded.state
        try:
            move = before.parse_move(text)
            after, passes = transitions.settle(before.play(move))
        except GameError as error:
            raise from_game_error(error) from error
        row = loaded.row
        lapsed = row.draw_offer_by == mover_id
        offer = None if lapsed else row.draw_offer_by
        new = transitions.played(row, after, self.ledger.clock(), offer, mover=side)
        return _Moved(new, after, None, move, mover_id, side, passes, lapsed)

    def _result(self, committed: Committed[_Moved]) -> MoveResult:
        draft = committed.draft
        view = self.ledger.view(committed.after)
        return MoveResult(
            view, draft.move, draft.mover_id, draft.side, committed.before.state,
            draft.passes, draft.lapsed,
        )  # fmt: skip

    async def play_bot_move(self, where: Where, expected_ply: int | None) -> MoveResult | None:
        """Let the bot move if it is its turn in this game; None when it is not.

        The picker may think for a while. Its move is written only on the position it
        thought about: if the game changed meanwhile (a takeback, then perhaps another
        move), it thinks again about the game as it is, while it is still its turn.
        """
        loaded = await self.ledger.load(where)
        if not self._bots_turn(loaded):
            return None
        if expected_ply is not None and expected_ply != len(loaded.row.moves):
            raise StaleAction()
        for _ in range(ATTEMPTS):
            try:
                return await self._bot_moves(where, loaded)
            except StaleAction:
                loaded = await self.ledger.load(where)  # another position: thought again
        raise StaleAction()

    async def _bot_moves(self, where: Where, loaded: Loaded) -> MoveResult | None:
        """The bot's move about `loaded`, written if the game is still at that position
        (StaleAction otherwise); None when it is not the bot's turn."""
        bot = self.bot_user_id
        if self.picker is None or bot is None or not self._bots_turn(loaded):
            return None
        thought, ply = loaded.row.moves, len(loaded.row.moves)
        clock = self.ledger.clock
        checks.turn(loaded, bot, ply, clock())
        move = await self.picker.pick(loaded.state, loaded.row.ai_level or DEFAULT_LEVEL)

        def moved(fresh: Loaded) -> _Moved:
            if fresh.row.moves != thought:
                raise StaleAction()
            side = checks.turn(fresh, bot, ply, clock())
            return self._draft(fresh, bot, side, move)

        return self._result(await self.ledger.change(where, moved))

    def _bots_turn(self, loaded: Loaded) -> bool:
        return self.picker is not None and self.ledger.view(loaded).bot_to_move

    async def choices_for(
        self, where: Where, user_id: int, square: str | None, typed: str, expected_ply: int | None
    ) -> tuple[str, ...]:
        """The moves `user_id` may play now, in menu order, filtered (see MatchService)."""
        loaded = await self.ledger.load(where)
        checks.turn(loaded, user_id, expected_ply, self.ledger.clock())
        moves = ordered_moves(loaded.state)
        if square is not None:
            moves = tuple(move for move in moves if origin(loaded.state, move) == square)
            if not moves:
                raise BadInput("match.no-move-from", square=square)
        wanted = typed.strip().lower()
        if not wanted:
            return moves
        starting = tuple(move for move in moves if move.lower().startswith(wanted))
        containing = tuple(m for m in moves if wanted in m.lower() and m not in starting)
        return starting + containing

    # --------------------------------------------------------- resign and draw
    #
    # None of these depends on the position: a board's move number does not guard
    # them, and a write that lost a race (to a move, a reminder) is decided again on
    # the fresh read (Race.RETRY), where a game that ended meanwhile refuses as over.

    async def resign(self, where: Where, user_id: int) -> GameView:
        """Give up the game (the side to move, when one user plays both)."""
        clock = self.ledger.clock

        def resigned(loaded: Loaded) -> Draft:
            side = checks.playing(loaded, user_id, None, clock())
            running = loaded.state.to_move  # a live clock stops with what it shows now
            return Draft(
                transitions.lost_by(loaded.row, side, _RESIGNATION, clock(), running=running)
            )

        committed = await self.ledger.change(where, resigned, race=Race.RETRY)
        return self.ledger.view(committed.after)

    async def claim(self, where: Where, user_id: int) -> GameView:
        """End an abandoned untimed game: its player to move has not moved for
        `CLAIM_AFTER`, and the other player claims it. It ends as abandoned: no result,
        not rated (a timed game ends on time instead; a claim too soon says from when)."""
        clock = self.ledger.clock

        def claimed(loaded: Loaded) -> Draft:
            now = clock()
            side = checks.playing(loaded, user_id, None, now)
            row = loaded.row
            if row.move_seconds is not None or live_clocks.control_of(row) is not None:
                raise BadInput("match.claim.timed")
            if loaded.state.to_move is side:
                raise BadInput("match.claim.your-turn")
            since = row.updated_at  # the last move (or anything else done in the game)
            if now < since + CLAIM_AFTER:
                at = int((since + CLAIM_AFTER).timestamp())
                raise BadInput("match.claim.too-soon", days=CLAIM_AFTER.days, at=at)
            return Draft(transitions.abandoned(row, now, running=loaded.state.to_move))

        committed = await self.ledger.change(where, claimed, race=Race.RETRY)
        return self.ledger.view(committed.after)

    async def offer_draw(self, where: Where, user_id: int) -> DrawResult:
        """Offer a draw, or accept the opponent's offer if one is pending."""
        clock = self.ledger.clock

        def offered(loaded: Loaded) -> Draft:
            checks.draw(loaded, user_id, clock())
            offer = loaded.row.draw_offer_by
            if offer == user_id:
                raise DrawError("match.draw.already-offered")
            if offer is not None:
                return Draft(transitions.drawn(loaded.row, clock(), running=loaded.state.to_move))
            if loaded.row.ai_level is not None:
                raise DrawError("match.draw.bot")
            return Draft(replace(loaded.row, draw_offer_by=user_id, updated_at=clock()))

        after = (await self.ledger.change(where, offered, race=Race.RETRY)).after
        agreed = after.row.result is not None
        event = DrawEvent.ACCEPTED if agreed else DrawEvent.OFFERED
        return DrawResult(self.ledger.view(after), event, user_id)

    async def answer_draw(self, where: Where, user_id: int, accept: bool) -> DrawResult:
        """Accept (the game is drawn) or decline (it goes on) the opponent's draw offer."""
        clock = self.ledger.clock

        def answered(loaded: Loaded) -> Draft:
            checks.draw(loaded, user_id, clock())
            offer = loaded.row.draw_offer_by
            if offer is None:
                raise DrawError("match.draw.no-offer")
            if offer == user_id:
                raise DrawError("match.draw.own-offer")
            if accept:
                return Draft(transitions.drawn(loaded.row, clock(), running=loaded.state.to_move))
            return Draft(replace(loaded.row, draw_offer_by=None, updated_at=clock()))

        after = (await self.ledger.change(where, answered, race=Race.RETRY)).after
        event = DrawEvent.ACCEPTED if accept else DrawEvent.DECLINED
        return DrawResult(self.ledger.view(after), event, user_id)


def ordered_moves(state: GameState) -> tuple[str, ...]:
    """The legal moves, the most natural first: captures (the longest first), then the rest.

    Within each kind the engine's order (board order) is kept, so the list
    reads the same way every time.
    """
    legal = state.legal_moves()
    taking = {move: len(state.describe(move).captured) for move in legal}
    return tuple(sorted(legal, key=lambda move: -taking[move]))


def origin(state: GameState, move: str) -> str:
    """The square (or pit) a move starts from: what the first step of a two-step pick shows."""
    path = state.describe(move).path
    return path[0] if path else move
