"""Tournaments, their players and their pairings.

A tournament row is written like a game's, checking the version it read; a
new round is that write and its pairings in one transaction, so of two results
that end a round at the same instant, the second finds the version changed
and writes nothing: exactly one next round starts. A pairing's result is
written once (`WHERE score IS NULL`).

A player joins or leaves in one transaction on the tournament's row: the row is
written first (only while it is at a stage the caller allows; its version grows),
which locks it until the player is written. So a join or a leave and a start are
one after the other: a start that read the players before a join or leave writes
nothing (the version it read is gone) and reads them again; a join or a leave after
a start finds the stage it lands in.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from matches.shards import Shards
from matches.tournament_records import Entrant, Stage, StoredPairing, Tournament
from store.database import Tables, Transaction
from store.rows import Shape, in_shards

TOURNAMENTS = Shape(Tournament, renamed={"stage": "status"})
ENTRANTS = Shape(Entrant)
PAIRINGS = Shape(StoredPairing)
TOURNAMENT, ENTRANT, PAIRING = TOURNAMENTS.select, ENTRANTS.select, PAIRINGS.select
_CREATE = TOURNAMENTS.insert("tournaments", without=["id", "version"])
_UPDATE = TOURNAMENTS.update("tournaments", without=["created_at"])
_NEW_PAIRING = PAIRINGS.insert("tournament_pairings", without=["id"])
_JOIN = f"""
    INSERT INTO tournament_players ({ENTRANT}) VALUES (:tournament, :user, :at, NULL, NULL)
    ON CONFLICT (tournament_id, user_id) DO UPDATE SET left_at = NULL, reason = NULL"""
_LEAVE = (
    "UPDATE tournament_players SET left_at = :at, reason = :reason"
    " WHERE tournament_id = :tournament AND user_id = :user AND left_at IS NULL"
    " RETURNING user_id"
)


def _touch(stages: Collection[Stage]) -> str:
    """The tournament's row written (its version grows, the row locked to the end of the
    transaction) if it is at one of `stages`; it comes back as it is then."""
    allowed = ", ".join(f"'{Stage(stage).value}'" for stage in stages)
    return (
        "UPDATE tournaments SET version = version + 1"
        f" WHERE id = :id AND status IN ({allowed}) RETURNING {TOURNAMENT}"
    )


class _NotPlaying(Exception):
    """A leave of someone not playing: its transaction writes nothing."""


class TournamentTables(Tables):
    """Tournaments, their players and their pairings."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        found = await self._execute(_CREATE, **TOURNAMENTS.values(tournament))
        return TOURNAMENTS.read(found[0])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        sql = f"SELECT {TOURNAMENT} FROM tournaments WHERE id = :id"
        return await self._one(TOURNAMENTS.read, sql, id=tournament_id)

    async def tournaments(self, guild_id: int) -> list[Tournament]:
        sql = (
            f"SELECT {TOURNAMENT} FROM tournaments WHERE guild_id = :guild"
            " ORDER BY created_at DESC, id"
        )
        return await self._all(TOURNAMENTS.read, sql, guild=guild_id)

    async def update_tournament(
        self, tournament: Tournament, pairings: Sequence[StoredPairing] = ()
    ) -> tuple[Tournament, list[StoredPairing]] | None:
        async def write(tx: Transaction) -> tuple[Tournament, list[StoredPairing]] | None:
            found = await tx.fetch(_UPDATE, TOURNAMENTS.values(tournament))
            if not found:
                return None  # nothing was written: the transaction commits nothing
            added = [
                PAIRINGS.read((await tx.fetch(_NEW_PAIRING, PAIRINGS.values(pairing)))[0])
                for pairing in pairings
            ]
            return TOURNAMENTS.read(found[0]), added

        return await self._write(write)

    async def join_tournament(
        self, tournament_id: int, user_id: int, at: datetime
    ) -> Tournament | None:
        async def write(tx: Transaction) -> Tournament | None:
            found = await tx.fetch(_touch((Stage.SIGNUP,)), {"id": tournament_id})
            if not found:
                return None  # its sign-up is closed: nothing written
            await tx.fetch(_JOIN, {"tournament": tournament_id, "user": user_id,
                                   "at": at.timestamp()})  # fmt: skip
            return TOURNAMENTS.read(found[0])

        return await self._write(write)

    async def leave_tournament(
        self,
        tournament_id: int,
        user_id: int,
        at: datetime,
        reason: str | None,
        stages: Collection[Stage] = (Stage.SIGNUP, Stage.RUNNING),
    ) -> Tournament | None:
        async def write(tx: Transaction) -> Tournament:
            found = await tx.fetch(_touch(stages), {"id": tournament_id})
            if not found:
                raise _NotPlaying
            params = {"at": at.timestamp(), "reason": reason, "tournament": tournament_id,
                      "user": user_id}  # fmt: skip
            if not await tx.fetch(_LEAVE, params):
                raise _NotPlaying  # the row's version is not bumped for nothing
            return TOURNAMENTS.read(found[0])

        try:
            return await self._write(write)
        except _NotPlaying:
            return None

    async def tournaments_of_player(self, user_id: int) -> list[int]:
        sql = (
            "SELECT t.id FROM tournaments AS t JOIN tournament_players AS tp"
            " ON tp.tournament_id = t.id"
            " WHERE tp.user_id = :user AND tp.left_at IS NULL"
            " AND t.status IN ('signup', 'running') ORDER BY t.id"
        )
        return await self._all(lambda row: int(row[0]), sql, user=user_id)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        sql = (
            f"SELECT {ENTRANT} FROM tournament_players WHERE tournament_id = :tournament"
            " ORDER BY joined_at, user_id"
        )
        return await self._all(ENTRANTS.read, sql, tournament=tournament_id)

    async def left_unpaired(self, tournament_id: int) -> set[int]:
        sql = (
            "SELECT user_id FROM tournament_players AS tp"
            " WHERE tournament_id = :tournament AND left_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM tournament_pairings AS p"
            "   WHERE p.first_id = tp.user_id AND p.tournament_id = tp.tournament_id)"
            " AND NOT EXISTS (SELECT 1 FROM tournament_pairings AS p"
            "   WHERE p.second_id = tp.user_id AND p.tournament_id = tp.tournament_id)"
        )
        return set(await self._all(lambda row: int(row[0]), sql, tournament=tournament_id))

    async def pairings(self, tournament_id: int) -> list[StoredPairing]:
        sql = f"SELECT {PAIRING} FROM tournament_pairings WHERE tournament_id = :id ORDER BY id"
        return await self._all(PAIRINGS.read, sql, id=tournament_id)

    async def results_since(
        self, tournament_id: int, since: datetime | None
    ) -> tuple[int, list[StoredPairing]]:
        params = {"id": tournament_id,
                  "since": since.timestamp() if since is not None else float("-inf")}  # fmt: skip

        async def read(tx: Transaction) -> tuple[int, list[StoredPairing]]:
            # One snapshot: the count and the rows agree.
            total = await tx.fetch(
                "SELECT count(*) FROM tournament_pairings"
                " WHERE tournament_id = :id AND score IS NOT NULL",
                params,
            )
            found = await tx.fetch(
                f"SELECT {PAIRING} FROM tournament_pairings"
                " WHERE tournament_id = :id AND score IS NOT NULL AND ended_at >= :since"
                " ORDER BY ended_at, id",
                params,
            )
            return int(total[0][0]), [PAIRINGS.read(row) for row in found]

        return await self.db.snapshot(read)

    async def pairings_to_settle(self, shards: Shards | None = None) -> list[StoredPairing]:
        columns = ", ".join(f"p.{name}" for name in PAIRINGS.columns)
        sql = (
            f"SELECT {columns} FROM tournament_pairings p"
            " JOIN tournaments t ON t.id = p.tournament_id"
            " LEFT JOIN games g ON g.id = p.game_id"
            " WHERE t.status = 'running' AND p.score IS NULL"
            " AND (p.game_id IS NULL OR g.status = 'finished')"
            f"{in_shards(shards, 't.guild_id')} ORDER BY p.id"
        )
        return await self._all(PAIRINGS.read, sql)

    async def set_pairing_channel(self, pairing_id: int, channel_id: int) -> None:
        sql = (
            "UPDATE tournament_pairings SET channel_id = :channel"
            " WHERE id = :id AND game_id IS NULL"
        )
        await self._execute(sql, channel=channel_id, id=pairing_id)

    async def pairing_of_game(self, game_id: int) -> StoredPairing | None:
        sql = f"SELECT {PAIRING} FROM tournament_pairings WHERE game_id = :game"
        return await self._one(PAIRINGS.read, sql, game=game_id)

    async def set_pairing_game(self, pairing_id: int, game_id: int) -> None:
        sql = "UPDATE tournament_pairings SET game_id = :game WHERE id = :id AND game_id IS NULL"
        await self._execute(sql, game=game_id, id=pairing_id)

    async def record_result(
        self, pairing_id: int, score: float, at: datetime, *, forfeit: bool = False
    ) -> StoredPairing | None:
        sql = (
            "UPDATE tournament_pairings SET score = :score, forfeit = :forfeit, ended_at = :at"
            f" WHERE id = :id AND score IS NULL RETURNING {PAIRING}"
        )
        found = await self._execute(
            sql, score=float(score), forfeit=int(forfeit), at=at.timestamp(), id=pairing_id
        )
        return PAIRINGS.read(found[0]) if found else None

    async def running_tournaments(self) -> list[Tournament]:
        sql = f"SELECT {TOURNAMENT} FROM tournaments WHERE status = 'running' ORDER BY id"
        return await self._all(TOURNAMENTS.read, sql)

    async def tournaments_due(
        self, now: datetime, shards: Shards | None = None
    ) -> list[Tournament]:
        served = in_shards(shards)
        sql = f"""
            SELECT {TOURNAMENT} FROM tournaments
                WHERE status = 'signup' AND starts_at <= :now{served}
            UNION
            SELECT {TOURNAMENT} FROM tournaments
                WHERE status = 'running' AND ends_at <= :now{served}
            ORDER BY id"""
        return await self._all(TOURNAMENTS.read, sql, now=now.timestamp())
