"""Plays moves in a loop on a SQLite file and reports each one once it has committed.

Run by tests/test_durability.py, which kills it with SIGKILL at random moments:
    python tests/durability/mover.py PATH SEED

Every line printed is `GAME_ID INDEX MOVE`: the move at position INDEX of the
game's move list, printed (and flushed) only after the service returned, that
is after the write committed. The process keeps three games going, starting a
new one of the next game whenever one ends.
"""

from __future__ import annotations

import asyncio
import random
import sys

from games.registry import GAMES
from matches import MatchService
from matches.errors import ChallengeRepeated
from store import open_store

GUILD = 1
PLAYERS = (100, 200)
GAMES_AT_ONCE = 3


async def main(path: str, seed: int) -> None:
    chooser = random.Random(seed)
    store = await open_store(f"sqlite:///{path}")
    service = MatchService(store, rng=random.Random(seed))
    names = sorted(GAMES)
    try:
        while True:
            games = await service.active_games(GUILD)
            if len(games) < GAMES_AT_ONCE:
                try:
                    offered = await service.challenge(
                        guild_id=GUILD,
                        channel_id=chooser.randrange(1, 2**62),
                        challenger_id=PLAYERS[0],
                        opponent_id=PLAYERS[1],
                        game=names[chooser.randrange(len(names))],
                    )
                    challenge_id = offered.id
                except ChallengeRepeated as repeated:
                    # A kill between an earlier run's challenge and its accept left the same
                    # offer open: the service refuses a second one, so that one is accepted.
                    challenge_id = int(repeated.params["id"])
                await service.accept(challenge_id, PLAYERS[1])
                continue
            view = chooser.choice(games)
            move = chooser.choice(view.state.legal_moves())
            user = view.to_move_id
            assert user is not None
            result = await service.move(user, move, game_id=view.id, expected_ply=view.ply)
            print(f"{view.id} {view.ply} {result.move}", flush=True)
    finally:
        await store.close()  # else its thread keeps a failed mover from exiting


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
