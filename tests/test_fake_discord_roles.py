"""The fake Discord gives and takes members' roles as Discord does, for the real discord.py.

`PUT` and `DELETE /guilds/{g}/members/{u}/roles/{r}` need Manage Roles and a
role below the bot's highest; otherwise the answer is 403 Missing Permissions
(50013), recorded as a rule the bot broke. What the bot's cache knows (its
permissions, the roles' order) is what it checks before asking.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio

from tests.fake_discord import FakeDiscord, Guild, User, perms, point_discord_py_at
from tests.test_fake_discord import BotState, build_bot, run_bot, stop_bot


@pytest_asyncio.fixture
async def world() -> AsyncIterator[tuple[FakeDiscord, discord.Client, Guild, User]]:
    async with FakeDiscord() as fake:
        restore = point_discord_py_at(fake)
        guild = fake.add_guild("Stone Club")
        ann = fake.add_user("ann")
        client, _ = build_bot(BotState())
        task = await run_bot(fake, client)
        try:
            yield fake, client, guild, ann
        finally:
            await stop_bot(client, task)
            restore()


def bot_roles(client: discord.Client, guild: Guild) -> tuple[discord.Member, discord.Guild]:
    cached = client.get_guild(guild.id)
    assert cached is not None
    return cached.me, cached


@pytest.mark.asyncio
async def test_a_role_below_the_bots_is_given_and_taken_with_manage_roles(
    world: tuple[FakeDiscord, discord.Client, Guild, User],
) -> None:
    fake, client, guild, ann = world
    champion = fake.add_role(guild, "Champion")
    fake.move_role(guild, champion, 1)  # below the bot's own role
    fake.set_bot_permissions(guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
    me, cached = bot_roles(client, guild)
    await fake.wait_for(lambda: me.guild_permissions.manage_roles, what="the new permissions")
    role = cached.get_role(champion.id)
    assert role is not None and role < me.top_role  # what the bot checks before it asks

    await client.http.add_role(guild.id, ann.id, champion.id)
    assert champion.id in guild.members[ann.id].roles
    await client.http.add_role(guild.id, ann.id, champion.id)  # again: nothing changes
    assert guild.members[ann.id].roles.count(champion.id) == 1
    await client.http.remove_role(guild.id, ann.id, champion.id)
    assert champion.id not in guild.members[ann.id].roles
    assert fake.violations == []


@pytest.mark.asyncio
async def test_without_manage_roles_or_above_the_bot_it_is_403_50013_and_a_violation(
    world: tuple[FakeDiscord, discord.Client, Guild, User],
) -> None:
    fake, client, guild, ann = world
    below = fake.add_role(guild, "Below")
    fake.move_role(guild, below, 1)
    above = fake.add_role(guild, "Above")  # a new role goes to the top, over the bot's
    me, cached = bot_roles(client, guild)
    await fake.wait_for(lambda: cached.get_role(above.id) is not None, what="the new role")
    assert not me.guild_permissions.manage_roles

    with pytest.raises(discord.Forbidden) as lacking:
        await client.http.add_role(guild.id, ann.id, below.id)
    assert lacking.value.code == 50013
    fake.set_bot_permissions(guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
    with pytest.raises(discord.Forbidden) as too_high:
        await client.http.add_role(guild.id, ann.id, above.id)
    assert too_high.value.code == 50013
    role = cached.get_role(above.id)
    assert role is not None and not role < me.top_role
    with pytest.raises(discord.Forbidden):
        await client.http.remove_role(guild.id, ann.id, above.id)
    assert guild.members[ann.id].roles == []
    assert len(fake.violations) == 3
    assert "lacks Manage Roles" in fake.violations[0]
    assert all("not below its highest role" in v for v in fake.violations[1:])


@pytest.mark.asyncio
async def test_a_member_who_left_is_unknown_without_a_violation(
    world: tuple[FakeDiscord, discord.Client, Guild, User],
) -> None:
    fake, client, guild, _ = world
    role = fake.add_role(guild, "Champion")
    fake.move_role(guild, role, 1)
    fake.set_bot_permissions(guild, perms.BOT_DEFAULT | perms.MANAGE_ROLES)
    gone = fake.add_user("gone", guilds=[])
    with pytest.raises(discord.NotFound) as unknown:
        await client.http.add_role(guild.id, gone.id, role.id)
    assert unknown.value.code == 10007
    assert fake.violations == []
