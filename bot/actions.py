"""The bot's features, assembled: each a module of its own, handed the table.

A feature holds its commands' declarations, their handlers and its
components' handlers (bot/challenges.py, playing.py, reviews.py,
community.py, puzzles.py, tournaments.py, seasons.py, people.py,
settings.py). Each is an object handed the shared `Table` (the client, the
service, the boards, the replies' helpers) rather than a parent class: a
reader follows every call from the feature to the table. Every handler is
`@guarded`, so refusals become ephemeral replies and nothing goes
unanswered. The client carries the features; the components reach the one
that handles them (`bot.components.Handlers`), and `bot.commands` builds the
command tree from them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.challenges import Challenges
from bot.community import Community
from bot.fairplay import FairPlay
from bot.managers import Managers
from bot.people import People
from bot.playing import Playing
from bot.puzzles import Puzzles
from bot.reviews import Reviews
from bot.seasons import Seasons
from bot.settings import ServerSettings
from bot.table import Table
from bot.tournaments import Tournaments


@dataclass(frozen=True)
class Features:
    """The bot's features, each handed the table it works at (`Features.at(table)`)."""

    table: Table
    challenges: Challenges
    playing: Playing
    reviews: Reviews
    community: Community
    puzzles: Puzzles
    tournaments: Tournaments
    seasons: Seasons
    people: People
    settings: ServerSettings
    managers: Managers
    fairplay: FairPlay

    @classmethod
    def at(cls, table: Table) -> Features:
        community = Community(table)
        return cls(
            table,
            challenges=Challenges(table),
            playing=Playing(table),
            reviews=Reviews(table, community),
            community=community,
            puzzles=Puzzles(table),
            tournaments=Tournaments(table),
            seasons=Seasons(table),
            people=People(table),
            settings=ServerSettings(table),
            managers=Managers(table),
            fairplay=FairPlay(table),
        )
