"""Words a person reads, as a key and its parameters, so each reader gets them in their own language.

A :class:`Message` is the English template with named placeholders (``"seat {seat} is already
taken"``), which is also its key in the gettext catalogues (the msgid), and the values of those
placeholders. ``str()`` of a message is its English text; the server translates it for each reader
(:mod:`builders.server.messages`) and sends the key and parameters beside the text, so a program can
tell one message from another, and a log written in one language can be read in another.

A parameter may itself be a word to translate, a :func:`word` (a terrain named in the log): it is
translated within its context, and in the parameters sent to programs it is its key alone
(``"flower"``). A list parameter is written as its items joined by commas. Numbers, a :func:`duration`
and a :func:`moment` are written the reader's way by the server (``16.384`` in German, ``2 Minuten``);
to programs they are numbers (seconds).

Templates are written as literal calls, ``msg("...", name=value)`` and ``word("context", "...")``, so
that Babel finds them (``babel.cfg``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any


@dataclass(frozen=True)
class Message:
    """A text to show: ``key`` is the English template (and the msgid), ``params`` its values;
    ``context`` sets a game word apart from the same English word elsewhere (gettext's msgctxt)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None

    def render(self, translate: Callable[[Message], str], localize: Localize | None = None) -> str:
        """The text, with ``translate`` giving the template of each message (this one and those among
        its parameters) and ``localize`` writing each number, duration and moment among the parameters
        (an identifier, ``*_id`` or a version, is written as it is)."""
        values = {
            name: _render(value, translate, localize if not _identifier(name) else None)
            for name, value in self.params.items()
        }
        return translate(self).format(**values)

    def __str__(self) -> str:
        return self.render(lambda m: m.key)

    def data(self) -> dict[str, Any]:
        """The key and the parameters as JSON data (a word among the parameters is its key)."""
        return {"key": self.key, "params": {name: _plain(value) for name, value in self.params.items()}}


def msg(key: str, /, **params: Any) -> Message:
    """A message: its English template and the values of its placeholders."""
    return Message(key, params)


def verbatim(text: str) -> Message:
    """A text that is shown as it is, in every language (an engine's own sentence, a name)."""
    return Message("{text}", {"text": text})


def word(context: str, key: str) -> Message:
    """A word of a game to translate within ``context`` (``word("terrain", "flower")``)."""
    return Message(key, {}, context)


@dataclass(frozen=True)
class Duration:
    """A length of time among a message's parameters: written in the reader's words ("2 Minuten"); its
    English text without a reader is ``90 s``, and programs get the seconds."""

    seconds: float

    def __format__(self, spec: str) -> str:
        return f"{self.seconds:g} s"


@dataclass(frozen=True)
class Moment:
    """A moment among a message's parameters (seconds since 1970, UTC): written as the reader's locale
    writes a date and time; its English text without a reader is ISO 8601, and programs get the seconds."""

    at: float

    def __format__(self, spec: str) -> str:
        return datetime.fromtimestamp(self.at, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def duration(seconds: float) -> Duration:
    """A length of time to write in the reader's words."""
    return Duration(seconds)


def moment(at: float) -> Moment:
    """A moment (seconds since 1970, UTC) to write in the reader's way."""
    return Moment(at)


#: what writes a number, a Duration or a Moment in a reader's locale (the value and the template's format)
Localize = Callable[[Any, str], str]


def _identifier(name: str) -> bool:
    """A parameter that names a thing by number (a token's id, a game's version): never written as a quantity."""
    return name.endswith("_id") or name in ("version", "sent")


class _Localized:
    """A value written by a reader's ``localize`` when the template formats it (``{count}``, ``{seconds:g}``);
    ``{count!r}`` still shows the value itself."""

    def __init__(self, value: Any, localize: Localize):
        self.value, self.localize = value, localize

    def __format__(self, spec: str) -> str:
        return self.localize(self.value, spec)

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return self.localize(self.value, "")


def _render(value: Any, translate: Callable[[Message], str], localize: Localize | None = None) -> Any:
    if isinstance(value, Message):
        return value.render(translate, localize)
    if isinstance(value, (list, tuple)):
        return ", ".join(format(_render(item, translate, localize)) for item in value)
    if localize is not None and (isinstance(value, (int, float, Duration, Moment)) and not isinstance(value, bool)):
        return _Localized(value, localize)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.key if not value.params else value.data()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, Duration):
        return value.seconds
    if isinstance(value, Moment):
        return value.at
    return value
