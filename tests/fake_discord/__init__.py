"""A fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests of the bot.

See README.md in this folder for the API and the environment-variable convention.
"""

from .driver import Choice, Reply
from .errors import NotAnswered, ProtocolError
from .fake import FakeDiscord
from .faults import Fault
from .model import Attachment, Channel, Guild, Message, Overwrite, Role, User
from .point import point_discord_py_at
from .router import Upload

__all__ = [
    "Attachment",
    "Channel",
    "Choice",
    "FakeDiscord",
    "Fault",
    "Guild",
    "Message",
    "NotAnswered",
    "Overwrite",
    "ProtocolError",
    "Reply",
    "Role",
    "Upload",
    "User",
    "point_discord_py_at",
]
