"""The manager's kit: the audit log, suspensions, a voided game, and challenge counts.

A void (`void_game`) is one transaction under the lock every rating takes shared,
held alone (as `replace_ratings` holds it): no game is rated while the server's
ratings are rebuilt from its finished games.
"""

from __future__ import annotations

from datetime import datetime

from matches.records import AuditEntry, StoredGame, Suspension
from matches.storage import Rebuild
from store.database import Tables, Transaction
from store.games import GAME, GAMES, update_in
from store.ratings import lock_all_ratings, replace_in, seasons_and_changes_in
from store.rows import Shape, when

AUDIT = Shape(AuditEntry)
SUSPENSIONS = Shape(Suspension)
_NEW_AUDIT = AUDIT.insert("audit_log", without=["id"])
_PUT_SUSPENSION = SUSPENSIONS.upsert("suspensions", ["guild_id", "user_id"])


class ManagerTables(Tables):
    """The audit log and suspensions, and the reads the challenge limits need."""

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        found = await self._execute(_NEW_AUDIT, **AUDIT.values(entry))
        return AUDIT.read(found[0])

    async def audit(self, guild_id: int, *, offset: int, limit: int) -> list[AuditEntry]:
        sql = (
            f"SELECT {AUDIT.select} FROM audit_log WHERE guild_id = :guild"
            " ORDER BY id DESC LIMIT :limit OFFSET :offset"
        )
        return await self._all(AUDIT.read, sql, guild=guild_id, limit=limit, offset=offset)

    async def audit_size(self, guild_id: int) -> int:
        sql = "SELECT count(*) FROM audit_log WHERE guild_id = :guild"
        return int((await self.db.read(sql, {"guild": guild_id}))[0][0])

    async def void_game(
        self, game: StoredGame, entry: AuditEntry, rebuild: Rebuild
    ) -> tuple[StoredGame, AuditEntry] | None:
        async def void(tx: Transaction) -> tuple[StoredGame, AuditEntry] | None:
            await lock_all_ratings(tx)
            saved = await update_in(tx, game)
            if saved is None:
                return None  # the game changed since it was read: nothing is written
            written = await _add_audit(tx, entry)
            await tx.fetch(
                "UPDATE tournament_pairings SET score = 0, forfeit = 1, voided = 1"
                " WHERE game_id = :game",
                {"game": saved.id},
            )
            params = {"guild": saved.guild_id}
            rows = await tx.fetch(
                f"SELECT {GAME} FROM games WHERE status = 'finished' AND guild_id = :guild",
                params,
            )
            seasons, changes = await seasons_and_changes_in(tx, saved.guild_id)
            standings, new_changes, scores = rebuild(
                [GAMES.read(row) for row in rows], seasons, changes
            )
            await replace_in(tx, saved.guild_id, standings, new_changes, scores)
            return saved, written

        return await self._write(void)

    async def suspension(self, guild_id: int, user_id: int) -> Suspension | None:
        sql = (
            f"SELECT {SUSPENSIONS.select} FROM suspensions"
            " WHERE guild_id = :guild AND user_id = :user"
        )
        return await self._one(SUSPENSIONS.read, sql, guild=guild_id, user=user_id)

    async def suspend(self, suspension: Suspension, entry: AuditEntry) -> AuditEntry:
        async def suspend(tx: Transaction) -> AuditEntry:
            await tx.fetch(_PUT_SUSPENSION, SUSPENSIONS.values(suspension))
            return await _add_audit(tx, entry)

        return await self._write(suspend)

    async def unsuspend(self, guild_id: int, user_id: int, entry: AuditEntry) -> AuditEntry | None:
        async def unsuspend(tx: Transaction) -> AuditEntry | None:
            gone = await tx.fetch(
                "DELETE FROM suspensions WHERE guild_id = :guild AND user_id = :user"
                " RETURNING user_id",
                {"guild": guild_id, "user": user_id},
            )
            if not gone:
                return None
            return await _add_audit(tx, entry)

        return await self._write(unsuspend)

    async def last_challenge_at(self, guild_id: int, user_id: int) -> datetime | None:
        sql = (
            "SELECT max(created_at) FROM games WHERE challenger_id = :user AND guild_id = :guild"
            " AND ai_level IS NULL AND (opponent_id IS NULL OR opponent_id <> challenger_id)"
            " AND NOT EXISTS (SELECT 1 FROM tournament_pairings AS p WHERE p.game_id = games.id)"
        )
        found = await self.db.read(sql, {"guild": guild_id, "user": user_id})
        return None if found[0][0] is None else when(found[0][0])


async def _add_audit(tx: Transaction, entry: AuditEntry) -> AuditEntry:
    """`add_audit` inside a transaction of its caller's."""
    return AUDIT.read((await tx.fetch(_NEW_AUDIT, AUDIT.values(entry)))[0])
