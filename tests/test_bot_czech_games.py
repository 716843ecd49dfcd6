"""Whole games in Czech: nothing English reaches a Czech player in a Czech server.

Both players' Discord clients speak Czech and so does the server: each game
is challenged, accepted by its Czech button and played to its end by the
Czech menu and by command, with a refusal and the autocomplete on the way.
Everything either player was shown (every version of every message, its
embeds, buttons and menus, every private answer, every autocomplete entry,
the thread's name) is then read for English: any two consecutive words of an
English sentence of the catalogue, or a typically English word. In an
English server, a Czech player and an English one each get their private
answers in their own language, and the public messages stay English.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from games.registry import GAMES
from tests import bot_support
from tests.bot_support import (
    SharedBot,
    Table,
    ephemeral_text,
    last_board,
    mentions,
    move_on_board,
    natural,
    options,
    process_table,
    start_game,
)
from tests.fake_discord import Channel, Message
from tests.fake_discord.model import walk_components
from words.catalogue import LANGUAGES, forms_of
from words.english import TEXTS as ENGLISH

# One bot process for the module, a server of its own for each test (tests/bot_support).
pytestmark = pytest.mark.asyncio(loop_scope="module")


shared = bot_support.module_bot


WORD = re.compile(r"[^\W\d_]+")
# Words that are English and never Czech, whatever the sentence.
ENGLISH_WORDS = {
    "the", "your", "you", "move", "moves", "wins", "game", "played", "challenge", "accept",
    "decline", "resign", "draw", "board", "turn", "offers", "with", "and", "pick", "nobody",
}  # fmt: skip


def _literal_words(template: str) -> list[list[str]]:
    """The runs of words a template writes itself (its placeholders cut them apart)."""
    runs = []
    for literal, *_ in string.Formatter().parse(template):
        runs.append([word.lower() for word in WORD.findall(literal)])
    return runs


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(words))


def english_pairs() -> set[tuple[str, str]]:
    """Two words in a row of some English sentence that no Czech sentence has."""
    czech: set[tuple[str, str]] = set()
    for text in LANGUAGES["cs"].texts.values():
        for form in forms_of(text):
            for run in _literal_words(form):
                czech |= _pairs(run)
    found: set[tuple[str, str]] = set()
    for text in ENGLISH.values():
        for form in forms_of(text):
            for run in _literal_words(form):
                found |= _pairs(run)
    return found - czech


ENGLISH_PAIRS = english_pairs()


# Notation is no language (games/RULES.md): moves, and the rule variants' keys and values
# (`capture=huff-opponent`), which players choose as they are written.
NOTATION = sorted(
    {
        word
        for spec in GAMES.values()
        for option in spec.options
        for word in (option.key, *option.values)
        if not word.isdigit()
    },
    key=len,
    reverse=True,
)
CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)


def english_in(text: str) -> list[str]:
    """The English a text shows, if any: a pair of English words, or an English word.
    Code spans (moves, records) and the variants' own names are notation, not English."""
    text = CODE.sub(" ", text)
    for name in NOTATION:
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    words = [word.lower() for word in WORD.findall(text) if len(word) > 1]
    found = [" ".join(pair) for pair in _pairs(words) if pair in ENGLISH_PAIRS]
    found += [word for word in words if word in ENGLISH_WORDS]
    return found


def texts_of(message: Message) -> Iterable[str]:
    """Everything a reader of `message` saw, in every version it had."""
    shown: list[tuple[str, list[Any], list[Any]]] = [
        (version.content, version.embeds, version.components) for version in message.versions
    ]
    shown.append((message.content, message.embeds, message.components))
    for content, embeds, components in shown:
        yield content
        for embed in embeds:
            yield from (str(embed.get("title", "")), str(embed.get("description", "")))
            for field in embed.get("fields", []):
                yield from (str(field.get("name", "")), str(field.get("value", "")))
            yield str(embed.get("footer", {}).get("text", ""))
        for component in walk_components(components):
            yield from (str(component.get("label", "")), str(component.get("placeholder", "")))
            for option in component.get("options", []):
                yield from (str(option.get("label", "")), str(option.get("description", "")))


def seen_by(table: Table, *channels: Channel) -> dict[str, list[str]]:
    """Each text shown in the channels and privately to Ann and Bob, with the English in it."""
    fake = table.fake
    messages: list[Message] = []
    for channel in channels:
        messages += fake.messages(channel, include_deleted=True)
    messages += fake.ephemeral_messages(table.ann) + fake.ephemeral_messages(table.bob)
    english: dict[str, list[str]] = {}
    for text in (text for message in messages for text in texts_of(message)):
        found = english_in(text)
        if found:
            english[text] = found
    return english


def mover_of(table: Table, board: Message) -> Any:
    [first, *_] = mentions(board.content)
    assert "jsi na tahu" in board.content, board.content
    return table.user(first)


async def play_in_czech(
    table: Table, game: str, channel: Channel, board: Message, picks: tuple[int, int]
) -> tuple[Message, list[str], list[str]]:
    """Play to the end, by command and by the Czech menu in turn; the autocomplete's
    entries seen on the way are returned too."""
    fake = table.fake
    played: list[str] = []
    completed: list[str] = []
    while not board.content.startswith("**Konec hry.**"):
        mover = mover_of(table, board)
        offered = natural(game, played)
        assert options(board) == offered[:25]
        pick = offered[picks[0] if mover is table.ann else picks[1]]
        if len(played) % 2 == 0:
            choices = await fake.autocomplete(mover, channel, f"{game} move", "move", pick[:1])
            completed += [choice.name for choice in choices]
            reply = await fake.slash(mover, channel, f"{game} move", move=pick)
            assert reply.message is not None and not reply.ephemeral
            board = reply.message
        else:
            reply = await move_on_board(table, mover, board, pick, "Vyber tah")
            assert reply.type == 7
        played.append(pick)
        assert pick in board.text
        assert len(played) < 400, "the game should have ended"
    return board, played, completed


CZECH_GAMES = [
    ("oska", (0, 0), "Modrý"),
    ("lasca", (-1, 0), "Bílý"),
    ("oware", (0, 0), "Jih"),
]


@pytest.mark.parametrize(
    ("game", "picks", "first_side"), CZECH_GAMES, ids=[g[0] for g in CZECH_GAMES]
)
async def test_a_whole_game_in_a_czech_server_shows_no_english(
    shared: SharedBot, game: str, picks: tuple[int, int], first_side: str
) -> None:
    async with shared.table(locale="cs") as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        fake.set_locale(ann, "cs")
        fake.set_locale(bob, "cs")
        reply = await fake.slash(ann, table.games, f"{game} challenge", opponent=bob, first="me")
        challenge = reply.message
        assert challenge is not None and not reply.ephemeral
        assert f"Začíná <@{ann.id}> jako {first_side}" in reply.text
        assert challenge.buttons[0]["label"] == "Přijmout"
        await fake.click(bob, challenge, "Přijmout")
        [thread] = fake.threads(table.games)
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
        board = last_board(table, thread)

        # A refusal lists the legal moves, in Czech.
        refused = ephemeral_text(await fake.slash(ann, thread, f"{game} move", move="zz9"))
        assert "Možné tahy" in refused
        # Not Bob's turn: the autocomplete says so in Czech.
        hint = await fake.autocomplete(bob, thread, f"{game} move", "move", "")
        assert [choice.name for choice in hint] == ["Teď nejsi na tahu."]
        # The rules and the history, privately.
        rules = await fake.slash(bob, thread, f"{game} rules")
        assert rules.ephemeral and "Cíl hry" in rules.text

        _, played, completed = await play_in_czech(table, game, thread, board, picks)
        assert len(played) > 10
        [number] = re.findall(r"#(\d+)$", board.embeds[0]["title"])
        history = await fake.slash(ann, thread, f"{game} history", game=int(number))
        assert history.ephemeral and played[0] in history.text

        english = seen_by(table, table.games, thread)
        texts = [*completed, *(choice.name for choice in hint), thread.name]
        english.update({text: english_in(text) for text in texts if english_in(text)})
        assert english == {}, "English shown to Czech players:\n" + "\n".join(
            f"{found}: {text!r}" for text, found in english.items()
        )
        assert table.new_violations() == []


async def test_in_an_english_server_a_czech_and_an_english_player_each_get_their_own_language(
    shared: SharedBot,
) -> None:
    async with shared.table() as table:
        fake, ann, bob = table.fake, table.ann, table.bob
        fake.set_locale(ann, "cs")
        fake.set_locale(bob, "en-GB")
        thread, board = await start_game(table, "oska")
        assert "your move" in board.content and "Blue" in board.text  # public: English

        czech = ephemeral_text(await fake.slash(ann, thread, "oska move", move="zz"))
        english = ephemeral_text(await fake.slash(bob, thread, "oska move", move="a1-b2"))
        assert "Možné tahy" in czech and english.startswith("It is not your turn")
        assert english_in(czech) == []
        rules = await fake.slash(ann, thread, "oska rules")
        assert "Cíl hry" in rules.text and "Modrý" in rules.text
        assert english_in(rules.text) == []
        rules = await fake.slash(bob, thread, "oska rules")
        assert "The aim" in rules.text and "Blue" in rules.text and "Modrý" not in rules.text
        # Bob looks at the board: privately, and in his language.
        look = await fake.slash(bob, thread, "oska board")
        assert look.ephemeral and "Blue" in look.text

        # Bob chooses Czech for himself: his answers are Czech from then on, the board not.
        said = ephemeral_text(await fake.slash(bob, thread, "kamen me settings", language="cs"))
        assert "čeština" in said and english_in(said) == []
        refused = ephemeral_text(await fake.slash(bob, thread, "oska move", move="a1-b2"))
        assert refused.startswith("Nejsi na tahu")
        assert "your move" in last_board(table, thread).content
        # And back to his client's language.
        said = ephemeral_text(await fake.slash(bob, thread, "kamen me settings", language="auto"))
        assert said.startswith("Turn notifications") and "English" in said


async def test_the_server_language_is_its_setting_else_its_discord_locale_else_kamen_locale(
    tmp_path: Path,
) -> None:
    async with process_table(tmp_path, env={"KAMEN_LOCALE": "cs"}) as table:
        fake, bob, owner = table.fake, table.bob, table.guild.owner
        # Discord's default locale says nothing: KAMEN_LOCALE decides.
        reply = await fake.slash(
            table.ann, table.games, "oware challenge", opponent=bob, first="me"
        )
        assert reply.message is not None and "vyzývá" in reply.text
        await fake.click(bob, reply.message, "Přijmout")
        [thread] = fake.threads(table.games)
        await fake.wait_for(lambda: bool(fake.messages(thread)), what="the board")
        board = last_board(table, thread)
        assert "jsi na tahu" in board.content and "Jih" in board.text

        # The owner chooses English: the next board is English, the owner's answer Czech.
        fake.set_locale(owner, "cs")
        said = await fake.slash(owner, table.games, "kamen settings", language="en")
        assert said.ephemeral and "Jazyk veřejných zpráv: English." in said.text
        await fake.select(table.ann, board, "Vyber tah", [options(board)[0]])
        assert "your move" in board.content and "South" in board.text

        # Bob, no manager, may not.
        refused = ephemeral_text(
            await fake.slash(bob, table.games, "kamen settings", language="cs")
        )
        assert "Manage Server" in refused

        # Back to automatic: a server whose Discord locale is Czech speaks Czech.
        await fake.slash(owner, table.games, "kamen settings", language="auto")
        fake.set_guild_locale(table.guild, "cs")
        move = options(board)[0]
        await fake.select(bob, board, "Pick a move", [move])
        assert "jsi na tahu" in board.content
