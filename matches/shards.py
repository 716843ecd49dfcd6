"""Which servers a process serves: the shards of Discord's gateway it is given.

Discord puts a server on shard `(id >> 22) % count`; a process serves some
shards (`Shards`) and does the work of their servers only: their deadlines,
boards, Kamen's moves, tournaments and seasons (`matches.runner`). No other
process does it: a shard's work waits while nobody serves it, and its players'
clocks stop too. Which process serves a shard is decided by its lease
(`matches.leases`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

# A server's place in its id: Discord's shard formula shifts the id by this much.
SHARD_SHIFT = 22


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord puts a server on (direct messages: shard 0's)."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards `ids` of `count`: what one process serves (by default, everything)."""

    count: int = 1
    ids: frozenset[int] = field(default_factory=lambda: frozenset({0}))

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {sorted(self.ids)} of {self.count}")

    @classmethod
    def of(cls, count: int | None, ids: Iterable[int] | None = None) -> Shards:
        """The shards a process serves: all of `count` (1 if None) unless `ids` says which."""
        count = count or 1
        return cls(count, frozenset(range(count) if ids is None else ids))

    @property
    def every(self) -> bool:
        """Whether these are all the shards (one process serves everything)."""
        return len(self.ids) == self.count

    def serves(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def one(self, shard: int) -> Shards:
        """Only the shard `shard` of these."""
        return Shards(self.count, frozenset({shard}))

    def __str__(self) -> str:
        return f"{','.join(map(str, sorted(self.ids)))} of {self.count}"
