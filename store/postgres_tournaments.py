"""The PostgreSQL backend's tournaments, as `store.sqlite_tournaments` on SQLite.

A new round is the tournament's version-checked update and its pairings in one
transaction: of two results that end a round at once, the second's update waits
for the first's row lock, then finds the version changed and writes nothing. A
pairing's result is written once (`WHERE score IS NULL`, checked again after
such a wait).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from matches.tournament_records import Entrant, StoredPairing, Tournament
from store.postgres_tables import Connection, PgParts
from store.sqlite_tournaments import (
    _COLUMN,
    _ENTRANT,
    _PAIRING,
    _SELECT,
    _TOURNAMENT,
    _entrant,
    _pairing,
    _seconds,
    _tournament,
    _values,
)


def _placeholders(count: int, start: int = 1) -> str:
    return ", ".join(f"${n}" for n in range(start, start + count))


class PgTournaments(PgParts):
    """Tournaments, their players and their pairings on PostgreSQL."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        names = [name for name in _TOURNAMENT if name not in ("id", "version")]
        columns = ", ".join(_COLUMN.get(name, name) for name in names)
        sql = (
            f"INSERT INTO tournaments ({columns}) VALUES ({_placeholders(len(names))})"
            f" RETURNING {_SELECT}"
        )
        rows = await self._execute(sql, *_values(tournament, names))
        return _tournament(rows[0])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._read(f"SELECT {_SELECT} FROM tournaments WHERE id = $1", tournament_id)
        return _tournament(rows[0]) if rows else None

    async def tournaments(self, guild_id: int) -> list[Tournament]:
        sql = f"SELECT {_SELECT} FROM tournaments WHERE guild_id = $1 ORDER BY created_at DESC, id"
        return [_tournament(row) for row in await self._read(sql, guild_id)]

    async def update_tournament(
        self, tournament: Tournament, pairings: Sequence[StoredPairing] = ()
    ) -> tuple[Tournament, list[StoredPairing]] | None:
        names = [n for n in _TOURNAMENT if n not in ("id", "version", "created_at")]
        sets = ", ".join(f"{_COLUMN.get(name, name)} = ${n}" for n, name in enumerate(names, 1))
        sql = (
            f"UPDATE tournaments SET {sets}, version = version + 1"
            f" WHERE id = ${len(names) + 1} AND version = ${len(names) + 2} RETURNING {_SELECT}"
        )
        values = (*_values(tournament, names), tournament.id, tournament.version)

        async def write(db: Connection) -> tuple[Tournament, list[StoredPairing]] | None:
            async with db.transaction():
                row = await db.fetchrow(sql, *values)
                if row is None:
                    return None
                added = [await _insert_pairing(db, pairing) for pairing in pairings]
            return _tournament(row), added

        return await self._write(write)

    async def join_tournament(self, tournament_id: int, user_id: int, at: datetime) -> None:
        sql = f"""
            INSERT INTO tournament_players ({_ENTRANT}) VALUES ($1, $2, $3, NULL, NULL)
            ON CONFLICT (tournament_id, user_id) DO UPDATE SET left_at = NULL, reason = NULL"""
        await self._execute(sql, tournament_id, user_id, at.timestamp())

    async def leave_tournament(
        self, tournament_id: int, user_id: int, at: datetime, reason: str | None
    ) -> bool:
        sql = (
            "UPDATE tournament_players SET left_at = $1, reason = $2"
            " WHERE tournament_id = $3 AND user_id = $4 AND left_at IS NULL RETURNING user_id"
        )
        return bool(await self._execute(sql, at.timestamp(), reason, tournament_id, user_id))

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        sql = (
            f"SELECT {_ENTRANT} FROM tournament_players WHERE tournament_id = $1"
            " ORDER BY joined_at, user_id"
        )
        return [_entrant(row) for row in await self._read(sql, tournament_id)]

    async def pairings(self, tournament_id: int) -> list[StoredPairing]:
        sql = f"SELECT {_PAIRING} FROM tournament_pairings WHERE tournament_id = $1 ORDER BY id"
        return [_pairing(row) for row in await self._read(sql, tournament_id)]

    async def results_since(
        self, tournament_id: int, since: datetime | None
    ) -> tuple[int, list[StoredPairing]]:
        count_sql = (
            "SELECT count(*) FROM tournament_pairings"
            " WHERE tournament_id = $1 AND score IS NOT NULL"
        )
        sql = (
            f"SELECT {_PAIRING} FROM tournament_pairings"
            " WHERE tournament_id = $1 AND score IS NOT NULL AND ended_at >= $2"
            " ORDER BY ended_at, id"
        )
        after = since.timestamp() if since is not None else float("-inf")

        async def read(db: Connection) -> tuple[int, list[Any]]:
            # One snapshot: the count and the rows agree.
            total = int(await db.fetchval(count_sql, tournament_id))
            return total, list(await db.fetch(sql, tournament_id, after))

        total, rows = await self._snapshot(read)
        return total, [_pairing(row) for row in rows]

    async def pairings_to_settle(self) -> list[StoredPairing]:
        columns = ", ".join(f"p.{name.strip()}" for name in _PAIRING.split(","))
        sql = (
            f"SELECT {columns} FROM tournament_pairings p"
            " JOIN tournaments t ON t.id = p.tournament_id"
            " LEFT JOIN games g ON g.id = p.game_id"
            " WHERE t.status = 'running' AND p.score IS NULL"
            " AND (p.game_id IS NULL OR g.status = 'finished') ORDER BY p.id"
        )
        return [_pairing(row) for row in await self._read(sql)]

    async def set_pairing_channel(self, pairing_id: int, channel_id: int) -> None:
        sql = "UPDATE tournament_pairings SET channel_id = $1 WHERE id = $2 AND game_id IS NULL"
        await self._execute(sql, channel_id, pairing_id)

    async def pairing_of_game(self, game_id: int) -> StoredPairing | None:
        sql = f"SELECT {_PAIRING} FROM tournament_pairings WHERE game_id = $1"
        rows = await self._read(sql, game_id)
        return _pairing(rows[0]) if rows else None

    async def set_pairing_game(self, pairing_id: int, game_id: int) -> None:
        sql = "UPDATE tournament_pairings SET game_id = $1 WHERE id = $2 AND game_id IS NULL"
        await self._execute(sql, game_id, pairing_id)

    async def record_result(
        self, pairing_id: int, score: float, at: datetime, *, forfeit: bool = False
    ) -> StoredPairing | None:
        sql = (
            "UPDATE tournament_pairings SET score = $1, forfeit = $2, ended_at = $3"
            f" WHERE id = $4 AND score IS NULL RETURNING {_PAIRING}"
        )
        rows = await self._execute(sql, float(score), int(forfeit), at.timestamp(), pairing_id)
        return _pairing(rows[0]) if rows else None

    async def running_tournaments(self) -> list[Tournament]:
        sql = f"SELECT {_SELECT} FROM tournaments WHERE status = 'running' ORDER BY id"
        return [_tournament(row) for row in await self._read(sql)]

    async def tournaments_due(self, now: datetime) -> list[Tournament]:
        sql = f"""
            SELECT {_SELECT} FROM tournaments WHERE status = 'signup' AND starts_at <= $1
            UNION
            SELECT {_SELECT} FROM tournaments WHERE status = 'running' AND ends_at <= $1
            ORDER BY id"""
        return [_tournament(row) for row in await self._read(sql, now.timestamp())]


async def _insert_pairing(db: Connection, pairing: StoredPairing) -> StoredPairing:
    sql = (
        "INSERT INTO tournament_pairings (tournament_id, round, first_id, second_id, game_id,"
        f" score, forfeit, ended_at, channel_id) VALUES ({_placeholders(9)})"
        f" RETURNING {_PAIRING}"
    )
    score = None if pairing.score is None else float(pairing.score)
    row = await db.fetchrow(
        sql, pairing.tournament_id, pairing.round, pairing.first_id, pairing.second_id,
        pairing.game_id, score, int(pairing.forfeit), _seconds(pairing.ended_at),
        pairing.channel_id,
    )  # fmt: skip
    return _pairing(row)
