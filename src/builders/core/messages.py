"""Words a person reads, as a key and its parameters, so each reader gets them in their own language.

A :class:`Message` is the English template with named placeholders (``"seat {seat} is already
taken"``), which is also its key in the gettext catalogues (the msgid), and the values of those
placeholders. ``str()`` of a message is its English text; the server translates it for each reader
(:mod:`builders.server.messages`) and sends the key and parameters beside the text, so a program can
tell one message from another, and a log written in one language can be read in another.

A parameter may itself be a word to translate, a :func:`word` (a terrain named in the log): it is
translated within its context, and in the parameters sent to programs it is its key alone
(``"flower"``). A list parameter is written as its items joined by commas.

Templates are written as literal calls, ``msg("...", name=value)`` and ``word("context", "...")``, so
that Babel finds them (``babel.cfg``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A text to show: ``key`` is the English template (and the msgid), ``params`` its values;
    ``context`` sets a game word apart from the same English word elsewhere (gettext's msgctxt)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None

    def render(self, translate: Callable[[Message], str]) -> str:
        """The text, with ``translate`` giving the template of each message (this one and those among
        its parameters)."""
        values = {name: _render(value, translate) for name, value in self.params.items()}
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


def _render(value: Any, translate: Callable[[Message], str]) -> Any:
    if isinstance(value, Message):
        return value.render(translate)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_render(item, translate)) for item in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.key if not value.params else value.data()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value
