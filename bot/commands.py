"""The slash commands, assembled from the features: `/<game> ...`, `/games`, `/kamen`, and
the features' own (`/leaderboard`, `/puzzle`, `/profile`, `/tournament`).

Each feature declares its commands beside their handlers (bot/declare.py): a
handler's signature is the command's options. Here they are only put
together: a group per game of the registry (adding a game to the registry
adds its commands, with no code here), and `/kamen` with its settings, help,
`me` and `season`.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot import declare
from bot.actions import Features
from games import registry
from games.base import GameSpec

# The order of `/<game>`'s commands, as Discord lists them.
GAME_COMMANDS = (
    "challenge", "move", "board", "resign", "draw", "takeback", "history", "replay", "review",
    "rules", "import",
)  # fmt: skip


def game_group(spec: GameSpec, features: Features) -> app_commands.Group:
    """`/<game>` with its sub-commands, from the features that play, challenge and look back."""
    group = app_commands.Group(
        name=declare.name(f"command.name.{spec.name}"),
        description=declare.t("command.game", game=spec.name),
        guild_only=True,
    )
    made = {
        **features.challenges.game_commands(spec),
        **features.playing.game_commands(spec),
        **features.reviews.game_commands(spec),
    }
    assert set(made) == set(GAME_COMMANDS), set(made) ^ set(GAME_COMMANDS)
    for key in GAME_COMMANDS:
        group.add_command(made[key])
    return group


def kamen_group(features: Features) -> app_commands.Group:
    """`/kamen settings`, `fairplay`, `help`, `me ...`, `season ...` and the manager's kit
    (`game void`, `suspend`, `unsuspend`, `audit`)."""
    # Visible to every member, for `/kamen me ...`: `/kamen settings` checks Manage Server itself
    # (Discord's command permissions are per command, and a server may override them anyway).
    group = declare.group("kamen", guild_only=True)
    group.add_command(features.settings.command())
    group.add_command(features.fairplay.command())
    group.add_command(features.playing.help_command())
    group.add_command(features.people.commands())
    group.add_command(features.seasons.commands())
    for command in features.managers.commands():
        group.add_command(command)
    return group


def install(tree: app_commands.CommandTree[Any], features: Features) -> None:
    """Every command, into `tree`."""
    for spec in registry.GAMES.values():
        tree.add_command(game_group(spec, features))
    tree.add_command(features.playing.games_command())
    leaderboard, profile = features.community.commands()
    tree.add_command(leaderboard)
    tree.add_command(features.puzzles.command())
    tree.add_command(profile)
    tree.add_command(kamen_group(features))
    tree.add_command(features.tournaments.commands())
