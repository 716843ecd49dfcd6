"""The domain's words for a stored game: where it stands, who plays first, the row itself.

These are the service's values; every store backend maps its rows to them
(`store/` imports them from here), so nothing above `store/` learns which
database it talks to. A game is kept as its move list; positions are the
engines' business.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from games.base import Side, Termination


class Status(enum.StrEnum):
    """Where a game stands: `challenge` → `active` → `finished`, or a challenge that ended."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """A challenge waiting for an answer or a game being played."""
        return self in (Status.CHALLENGE, Status.ACTIVE)


class FirstChoice(enum.StrEnum):
    """Who plays the first side, as the challenger asked."""

    CHALLENGER = "challenger"
    OPPONENT = "opponent"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game as the database keeps it: a challenge, an ongoing or an ended game.

    `moves` is the truth of the game (canonical move texts, none containing
    whitespace). `first_id`/`second_id` are set once the sides are known. The
    store assigns `id` and `version` on creation; `version` is the one the game
    was read at, and `update_game` checks it. `reason` is why a finished game
    ended, a code; how it ended (by the rules, resigned, agreed, on time) is
    that code too, so there is no second column to disagree with it.

    `board_ply` and `board_status` are what the public board (`message_id`)
    shows, None when nothing is known to show anything; `ping_message_id` is
    the last turn notification. Like `message_id` they describe messages, not
    the game: `set_board`, `set_ping`, `write_marks` write them, and `update_game`
    only when its `marks` tell them (`matches.marks`), never from the row itself.
    A game has at most one time control: a per-move limit (`move_seconds`) or
    a live clock (`base_seconds` and the fields after it); `deadline` is when
    the player to move runs out of time under either.
    `id` is random (unguessable), assigned by the store on creation.

    Adding a column: a field here, its column in `store/sqlite.py` `COLUMNS`
    (with a converter if it is not a plain value) and a migration.
    """

    guild_id: int
    channel_id: int
    game: str
    status: Status
    challenger_id: int
    created_at: datetime
    updated_at: datetime
    variant: str = ""
    message_id: int | None = None
    opponent_id: int | None = None
    first_choice: FirstChoice = FirstChoice.RANDOM
    first_id: int | None = None
    second_id: int | None = None
    ai_level: str | None = None
    moves: tuple[str, ...] = ()
    result: str | None = None
    reason: Termination | None = None
    draw_offer_by: int | None = None
    takeback_by: int | None = None  # who asked to take their last move back, pending
    move_seconds: int | None = None
    deadline: datetime | None = None
    remind_at: datetime | None = None
    # A live clock (`matches.live_clocks`): base time and increment, and each side's time
    # left in milliseconds (the side to move's as its turn began: it runs out at `deadline`).
    base_seconds: int | None = None
    increment_seconds: int | None = None
    first_left_ms: int | None = None
    second_left_ms: int | None = None
    board_ply: int | None = None
    board_status: Status | None = None
    ping_message_id: int | None = None
    rated: bool = True  # may count for ratings (`matches.ratings.counts` decides at the end)
    rematch_of: int | None = None  # the game this one is a rematch of (one live at a time)
    voided: str | None = None  # a manager voided its result, for this reason (`matches.managers`)
    # When each position was reached, ms since the epoch, None unknown (`matches.move_times`).
    reached_ms: tuple[int | None, ...] = ()
    id: int = 0
    version: int = 0

    @property
    def ply(self) -> int:
        """The number of moves played."""
        return len(self.moves)

    @property
    def board_current(self) -> bool:
        """The public board shows this very state of the game."""
        return (
            self.message_id is not None
            and self.board_ply == self.ply
            and self.board_status == self.status
        )

    @property
    def players(self) -> tuple[int, int] | None:
        """The first and second player's user ids, once the game has begun."""
        if self.first_id is None or self.second_id is None:
            return None
        return self.first_id, self.second_id


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game being played as a listing shows it (`/games`): read from its row alone,
    neither its moves nor its position.

    The side to move follows from `ply`: every game starts from its game's start
    position with the first side to move, and every move (a pass too, played or
    automatic) hands the move to the other side, in all three games.
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    created_at: datetime
    message_id: int | None = None
    first_id: int | None = None
    second_id: int | None = None
    ply: int = 0

    @property
    def players(self) -> tuple[int, int] | None:
        """The first and second player's user ids (an active game has both)."""
        if self.first_id is None or self.second_id is None:
            return None
        return self.first_id, self.second_id

    @property
    def to_move(self) -> Side:
        """The side to move."""
        return Side(self.ply % 2)


@dataclass(frozen=True, slots=True)
class GamesPage:
    """One page of a server's games being played, oldest first, and how many there are."""

    games: tuple[GameSummary, ...]
    total: int
    offset: int = 0

    @property
    def after(self) -> int:
        """How many games come after this page."""
        return max(0, self.total - self.offset - len(self.games))


CHAMPION_GAMES = 5  # a server's default minimum of rated games for a season's champion
# A server's default time control until it chooses one (`/kamen settings time:`), as the
# `time:` option writes it: never untimed, so that a rated or tournament game always ends.
DEFAULT_TIME = "3d"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's choices; a server that never chose has the defaults."""

    guild_id: int
    threads: bool = True
    language: str | None = None  # its public messages' language; None: Discord's locale
    champion_role_id: int | None = None  # given to each season's champions, if set
    organiser_role_id: int | None = None  # its members create and run tournaments, if set
    # The rated games in a game a season's leader needs there to be its champion.
    champion_games: int = CHAMPION_GAMES
    log_channel_id: int | None = None  # where the audit of managers' actions is posted
    challenge_cooldown: int = 0  # seconds between two challenges by one person (0: none)
    open_challenges: int | None = None  # challenges a person may have open at once (None: any)
    game_channels: tuple[int, ...] = ()  # where games may be started (none: anywhere)
    # The time control of challenges between people and of tournaments that name none
    # (`matches.inputs.server_time`): a limit per move (`3d`) or a live clock (`5+3`).
    time_control: str = DEFAULT_TIME


class ChallengesFrom(enum.StrEnum):
    """Who may challenge a person directly, as they chose (`/kamen me settings challenges:`)."""

    EVERYONE = "everyone"
    ROLE = "role"  # only members of their chosen role, in that role's server
    NOBODY = "nobody"


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A player's choices; a player who never chose has the defaults."""

    user_id: int
    pings: bool = True
    language: str | None = None  # their private answers' language; None: their client's
    # Who may challenge them directly (`matches.limits`): everyone, only members of a role
    # (`challenge_role_id`), or nobody; Kamen's own pairings are never refused.
    challenges: ChallengesFrom = ChallengesFrom.EVERYONE
    challenge_role_id: int | None = None


class AuditAction(enum.StrEnum):
    """What a manager did, as the audit log keeps it (the words for it live at the edge)."""

    VOID = "void"
    SUSPEND = "suspend"
    UNSUSPEND = "unsuspend"
    SETTINGS = "settings"
    TOURNAMENT_REMOVE = "tournament-remove"
    TOURNAMENT_CANCEL = "tournament-cancel"


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of a server's audit log: who did what, when, to whom or which game, why.

    `details` are `key=value` pairs separated by spaces (a setting's new value, a
    suspension's end as seconds since the epoch, a tournament's id).
    """

    guild_id: int
    at: datetime
    actor_id: int
    action: AuditAction
    user_id: int | None = None
    game_id: int | None = None
    reason: str | None = None
    details: str = ""
    id: int = 0


@dataclass(frozen=True, slots=True)
class Suspension:
    """A player kept from challenges, rated games and tournaments on one server until `until`."""

    guild_id: int
    user_id: int
    until: datetime
    by_id: int
    at: datetime
    reason: str | None = None
