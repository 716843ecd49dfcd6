"""The SQLite backend's tournaments: the tables of migration 0010.

A tournament row is written like a game's, checking the version it read;
a new round is that write and its pairings in one transaction, so two
results that end a round at the same instant start exactly one next round.
A pairing's result is written once (`WHERE score IS NULL`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from matches.tournament_records import Entrant, Format, Stage, StoredPairing, Tournament
from store.sqlite_tables import StoreParts

_TOURNAMENT = tuple(field.name for field in fields(Tournament))
# The table's column for the field of that name, where they differ.
_COLUMN = {"stage": "status"}
_SELECT = ", ".join(_COLUMN.get(name, name) for name in _TOURNAMENT)
_ENTRANT = "tournament_id, user_id, joined_at, left_at, reason"
_PAIRING = (
    "tournament_id, round, first_id, second_id, game_id, score, forfeit, ended_at, channel_id, id"
)
_TIMES = {"created_at", "starts_at", "started_at", "ends_at", "finished_at"}


class TournamentTables(StoreParts):
    """Tournaments, their players and their pairings on SQLite."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        names = [name for name in _TOURNAMENT if name not in ("id", "version")]
        columns = ", ".join(_COLUMN.get(name, name) for name in names)
        sql = (
            f"INSERT INTO tournaments ({columns}) VALUES ({', '.join('?' * len(names))})"
            f" RETURNING {_SELECT}"
        )
        values = _values(tournament, names)
        rows = await self._write(lambda db: _all(db, sql, values))
        return _tournament(rows[0])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._read(f"SELECT {_SELECT} FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament(rows[0]) if rows else None

    async def tournaments(self, guild_id: int) -> list[Tournament]:
        sql = f"SELECT {_SELECT} FROM tournaments WHERE guild_id = ? ORDER BY created_at DESC, id"
        return [_tournament(row) for row in await self._read(sql, (guild_id,))]

    async def update_tournament(
        self, tournament: Tournament, pairings: Sequence[StoredPairing] = ()
    ) -> tuple[Tournament, list[StoredPairing]] | None:
        names = [n for n in _TOURNAMENT if n not in ("id", "version", "created_at")]
        sets = ", ".join(f"{_COLUMN.get(name, name)} = ?" for name in names)
        sql = (
            f"UPDATE tournaments SET {sets}, version = version + 1"
            f" WHERE id = ? AND version = ? RETURNING {_SELECT}"
        )
        values = (*_values(tournament, names), tournament.id, tournament.version)

        async def write(db: aiosqlite.Connection) -> tuple[Tournament, list[StoredPairing]] | None:
            await db.execute("BEGIN IMMEDIATE")
            try:
                rows = await _all(db, sql, values)
                if not rows:
                    await db.execute("ROLLBACK")
                    return None
                added = [await _insert_pairing(db, pairing) for pairing in pairings]
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            return _tournament(rows[0]), added

        return await self._write(write)

    async def join_tournament(self, tournament_id: int, user_id: int, at: datetime) -> None:
        sql = f"""
            INSERT INTO tournament_players ({_ENTRANT}) VALUES (?, ?, ?, NULL, NULL)
            ON CONFLICT (tournament_id, user_id) DO UPDATE SET left_at = NULL, reason = NULL"""
        await self._write(lambda db: _all(db, sql, (tournament_id, user_id, at.timestamp())))

    async def leave_tournament(
        self, tournament_id: int, user_id: int, at: datetime, reason: str | None
    ) -> bool:
        sql = (
            "UPDATE tournament_players SET left_at = ?, reason = ?"
            " WHERE tournament_id = ? AND user_id = ? AND left_at IS NULL RETURNING user_id"
        )
        params = (at.timestamp(), reason, tournament_id, user_id)
        return bool(await self._write(lambda db: _all(db, sql, params)))

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        sql = (
            f"SELECT {_ENTRANT} FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_at, user_id"
        )
        return [_entrant(row) for row in await self._read(sql, (tournament_id,))]

    async def pairings(self, tournament_id: int) -> list[StoredPairing]:
        sql = f"SELECT {_PAIRING} FROM tournament_pairings WHERE tournament_id = ? ORDER BY id"
        return [_pairing(row) for row in await self._read(sql, (tournament_id,))]

    async def results_since(
        self, tournament_id: int, since: datetime | None
    ) -> tuple[int, list[StoredPairing]]:
        count_sql = (
            "SELECT count(*) FROM tournament_pairings"
            " WHERE tournament_id = ? AND score IS NOT NULL"
        )
        sql = (
            f"SELECT {_PAIRING} FROM tournament_pairings"
            " WHERE tournament_id = ? AND score IS NOT NULL AND ended_at >= ?"
            " ORDER BY ended_at, id"
        )
        after = since.timestamp() if since is not None else float("-inf")
        # Two reads: a result written between them shows as a count that does not add
        # up, and the caller reads everything again.
        total = (await self._read(count_sql, (tournament_id,)))[0][0]
        rows = await self._read(sql, (tournament_id, after))
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
        sql = "UPDATE tournament_pairings SET channel_id = ? WHERE id = ? AND game_id IS NULL"
        await self._write(lambda db: _all(db, sql, (channel_id, pairing_id)))

    async def pairing_of_game(self, game_id: int) -> StoredPairing | None:
        sql = f"SELECT {_PAIRING} FROM tournament_pairings WHERE game_id = ?"
        rows = await self._read(sql, (game_id,))
        return _pairing(rows[0]) if rows else None

    async def set_pairing_game(self, pairing_id: int, game_id: int) -> None:
        sql = "UPDATE tournament_pairings SET game_id = ? WHERE id = ? AND game_id IS NULL"
        await self._write(lambda db: _all(db, sql, (game_id, pairing_id)))

    async def record_result(
        self, pairing_id: int, score: float, at: datetime, *, forfeit: bool = False
    ) -> StoredPairing | None:
        sql = (
            "UPDATE tournament_pairings SET score = ?, forfeit = ?, ended_at = ?"
            f" WHERE id = ? AND score IS NULL RETURNING {_PAIRING}"
        )
        params = (score, int(forfeit), at.timestamp(), pairing_id)
        rows = await self._write(lambda db: _all(db, sql, params))
        return _pairing(rows[0]) if rows else None

    async def running_tournaments(self) -> list[Tournament]:
        sql = f"SELECT {_SELECT} FROM tournaments WHERE status = 'running' ORDER BY id"
        return [_tournament(row) for row in await self._read(sql)]

    async def tournaments_due(self, now: datetime) -> list[Tournament]:
        sql = f"""
            SELECT {_SELECT} FROM tournaments WHERE status = 'signup' AND starts_at <= :now
            UNION
            SELECT {_SELECT} FROM tournaments WHERE status = 'running' AND ends_at <= :now
            ORDER BY id"""
        return [_tournament(row) for row in await self._read(sql, {"now": now.timestamp()})]


async def _all(db: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    return list(await db.execute_fetchall(sql, tuple(params)))


async def _insert_pairing(db: aiosqlite.Connection, pairing: StoredPairing) -> StoredPairing:
    sql = (
        "INSERT INTO tournament_pairings (tournament_id, round, first_id, second_id, game_id,"
        " score, forfeit, ended_at, channel_id)"
        f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_PAIRING}"
    )
    values = (
        pairing.tournament_id, pairing.round, pairing.first_id, pairing.second_id,
        pairing.game_id, pairing.score, int(pairing.forfeit), _seconds(pairing.ended_at),
        pairing.channel_id,
    )  # fmt: skip
    return _pairing((await _all(db, sql, values))[0])


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


def _moment(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _values(tournament: Tournament, names: Sequence[str]) -> tuple[Any, ...]:
    found: list[Any] = []
    for name in names:
        value = getattr(tournament, name)
        if name in _TIMES:
            value = _seconds(value)
        elif name in ("format", "stage"):
            value = str(value)
        found.append(value)
    return tuple(found)


def _tournament(row: Any) -> Tournament:
    values: dict[str, Any] = {}
    for index, name in enumerate(_TOURNAMENT):
        value = row[index]
        if name in _TIMES:
            value = _moment(value)
        elif name == "format":
            value = Format(value)
        elif name == "stage":
            value = Stage(value)
        values[name] = value
    return Tournament(**values)


def _entrant(row: Any) -> Entrant:
    return Entrant(row[0], row[1], datetime.fromtimestamp(row[2], UTC), _moment(row[3]), row[4])


def _pairing(row: Any) -> StoredPairing:
    return StoredPairing(
        row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), _moment(row[7]), row[8],
        row[9],
    )  # fmt: skip
