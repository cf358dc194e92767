"""The server's words in the reader's language: the catalogues, the language of a request, refusals.

Every text the server sends a person (a refusal's ``detail``, a socket's error, a line of the game log)
is a :class:`~builders.core.messages.Message`: an English template with named placeholders, which is
also its msgid in the gettext catalogues ``locale/<lang>/LC_MESSAGES/messages.po`` beside this module
(made with Babel: ``babel.cfg``, docs/i18n.md), and its parameters. The catalogues are read once, at
start-up, with Babel; a msgid a catalogue lacks is shown in English.

The language of a request: ``?lang=``, else the ``lang`` cookie (the web client sets it), else the
signed-in account's setting, else the best of ``Accept-Language`` (Babel's negotiation), else English.
"""

from __future__ import annotations

from collections.abc import Callable
import re
from datetime import datetime, timedelta, timezone
from functools import cache
from pathlib import Path
from typing import Any

from babel import negotiate_locale
from babel.dates import format_datetime, format_timedelta
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from starlette.requests import HTTPConnection

from builders.core.errors import shown
from builders.core.messages import Duration, Message, Moment, msg, verbatim

DEFAULT = "en"
LOCALE_DIR = Path(__file__).with_name("locale")


def present(directory: Path = LOCALE_DIR) -> tuple[str, ...]:
    """The languages of the catalogues in ``directory`` (``<lang>/LC_MESSAGES/messages.po``), English
    first: adding a catalogue adds a language."""
    found = {path.parents[1].name for path in directory.glob("*/LC_MESSAGES/messages.po")}
    return (DEFAULT, *sorted(found - {DEFAULT}))


#: the languages the server speaks, English first (the language of the templates)
LANGUAGES = present()
#: the cookie the web client keeps the reader's choice in
COOKIE = "lang"
#: the most of an Accept-Language header that is read
MAX_ACCEPT = 400


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"


@cache
def catalogue(lang: str) -> Catalog:
    """The gettext catalogue of ``lang`` (read once)."""
    with catalogue_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@cache
def _templates(lang: str) -> dict[tuple[str | None, str], str]:
    if lang == DEFAULT:
        return {}
    return {(m.context, str(m.id)): str(m.string) for m in catalogue(lang) if m.id and m.string and not m.fuzzy}


def load() -> None:
    """Reads every catalogue now (at start-up), so a broken one stops the server before it serves."""
    for lang in LANGUAGES:
        _templates(lang)


def translate(message: Message | str, lang: str) -> str:
    """The text of ``message`` in ``lang`` (English where the catalogue has no translation), its numbers,
    durations and moments written as ``lang`` writes them."""
    if isinstance(message, str):
        return message
    lang = lang if lang in LANGUAGES else DEFAULT
    templates = _templates(lang)
    return message.render(lambda m: templates.get((m.context, m.key), m.key), _localizer(lang))


@cache
def _localizer(lang: str) -> Callable[[Any, str], str]:
    """What writes a number (``16.384`` in German, ``16 384`` in French; English's as the templates
    have them), a duration (``2 Minuten``) and a moment (``29.11.2026, 15:04:00``, UTC) in ``lang``."""

    def localize(value: Any, spec: str) -> str:
        if isinstance(value, Duration):
            return format_timedelta(timedelta(seconds=value.seconds), locale=lang)
        if isinstance(value, Moment):
            at = datetime.fromtimestamp(value.at, timezone.utc)
            return format_datetime(at, "medium", tzinfo=timezone.utc, locale=lang)
        if lang == DEFAULT:
            return format(value, spec)
        return format_decimal(float(format(value, spec)) if spec else value, locale=lang)

    return localize


def _code(tag: str | None) -> str | None:
    """The language of ``tag`` among ours ("de-AT" -> "de"), or None."""
    if not tag or len(tag) > 35:
        return None
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def accepted(header: str | None) -> str | None:
    """Our language that an ``Accept-Language`` header prefers most (None: none of ours)."""
    if not header:
        return None
    ranked = []
    for i, part in enumerate(header[:MAX_ACCEPT].split(",")):
        tag, _, q = part.strip().partition(";")
        weight = 1.0
        if q.strip().startswith("q="):
            try:
                weight = float(q.strip()[2:])
            except ValueError:
                continue
        if tag.strip() and tag.strip() != "*" and weight > 0:
            ranked.append((-weight, i, tag.strip().replace("_", "-")))
    preferred = [tag for _, _, tag in sorted(ranked)]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-")
    return _code(found)


def language(request: Any) -> str:
    """The language to answer ``request`` in (an HTTP request or a WebSocket): ``?lang=``, the
    ``lang`` cookie, the account's setting (when :meth:`Accounts.identify` has seen it), then
    ``Accept-Language``, else English."""
    for chosen in (
        request.query_params.get("lang"),
        request.cookies.get(COOKIE),
        getattr(request.state, "account_language", None),
    ):
        found = _code(chosen)
        if found:
            return found
    return accepted(request.headers.get("accept-language")) or DEFAULT


def engine_message(error: BaseException) -> Message:
    """What an engine's error says: the message it was raised with (the rules' explanations of an
    illegal action), else its English text as it is."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Message) else verbatim(str(error))


def refusal(message: Message | str, lang: str) -> dict[str, Any]:
    """The JSON body of a refusal: its text in ``lang``, its key and its parameters."""
    if isinstance(message, str):
        message = msg("{text}", text=message)
    data = message.data()
    return {"detail": translate(message, lang), "code": data["key"], "params": data["params"]}


#: pydantic's problems with the form of a request said in the reader's language, by pydantic's error
#: type (a type not named here, or in _BOUNDS and _CHOICES, is "is not valid")
_PROBLEMS = {
    "missing": msg("is required"),
    "string_type": msg("must be a string"),
    "int_type": msg("must be a whole number"),
    "int_parsing": msg("must be a whole number"),
    "int_from_float": msg("must be a whole number"),
    "bool_type": msg("must be true or false"),
    "bool_parsing": msg("must be true or false"),
    "list_type": msg("must be a list"),
    "tuple_type": msg("must be a list"),
    "dict_type": msg("must be an object"),
    "model_type": msg("must be an object"),
    "model_attributes_type": msg("must be an object"),
    "extra_forbidden": msg("is not a field of this request"),
    "finite_number": msg("must be a finite number"),
    "string_unicode": msg("must be valid Unicode text"),
}


#: the problems with a bound (pydantic's type: the bound's name in its context, the message of the bound)
_BOUNDS: dict[str, tuple[str, Callable[[Any], Message]]] = {
    "string_too_long": ("max_length", lambda n: msg("must be at most {count} characters long", count=n)),
    "string_too_short": ("min_length", lambda n: msg("must be at least {count} characters long", count=n)),
    "too_long": ("max_length", lambda n: msg("must have at most {count} items", count=n)),
    "too_short": ("min_length", lambda n: msg("must have at least {count} items", count=n)),
    "greater_than_equal": ("ge", lambda n: msg("must be at least {limit}", limit=n)),
    "less_than_equal": ("le", lambda n: msg("must be at most {limit}", limit=n)),
    "string_pattern_mismatch": ("pattern", lambda p: msg("does not have the expected form {pattern}", pattern=p)),
}


def _quoted(text: Any) -> list[str]:
    """The choices of pydantic's ``"'a', 'b' or 'c'"``, each as written there (``"'a'"``)."""
    return re.findall(r"'[^']*'", str(text))


def _bare(text: Any) -> str:
    return str(text).strip("'")


#: the problems with a choice: a value that is not one of a list, a tagged object without its tag
_CHOICES: dict[str, Callable[[dict[str, Any]], Message]] = {
    "literal_error": lambda ctx: msg("must be one of {expected}", expected=_quoted(ctx.get("expected"))),
    "enum": lambda ctx: msg("must be one of {expected}", expected=_quoted(ctx.get("expected"))),
    "union_tag_invalid": lambda ctx: msg(
        "{key} must be one of {expected}, not {tag}",
        key=_bare(ctx.get("discriminator")),
        tag=shown(ctx.get("tag")),
        expected=_quoted(ctx.get("expected_tags")),
    ),
    "union_tag_not_found": lambda ctx: msg("needs the field {key}", key=_bare(ctx.get("discriminator"))),
}


def validation_problem(error: dict[str, Any]) -> Message:
    """What is wrong with one field of a request, from pydantic's error (``RequestValidationError``):
    the message a validator of ours raised it with (in its context), else one by its type."""
    kind, ctx = error.get("type"), error.get("ctx") or {}
    if isinstance(ctx.get("message"), Message):
        return ctx["message"]
    if kind in _PROBLEMS:
        return _PROBLEMS[kind]
    if kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        return _BOUNDS[kind][1](ctx[_BOUNDS[kind][0]])
    if kind in _CHOICES:
        return _CHOICES[kind](ctx)
    return msg("is not valid")


#: the longest address or method a refusal repeats (the rest is cut, marked by "...")
_ECHO = 120


def _echo(text: str) -> str:
    return text if len(text) <= _ECHO else text[:_ECHO] + "..."


def http_message(status: int, detail: str, path: str, method: str, allowed: str | None = None) -> Message:
    """The message of an HTTP error the framework answers by itself, said as the server's refusals
    are: an address no route answers (404), a method its route lacks (405; ``allowed``: its ``Allow``
    header); another error's own phrase as it is."""
    if status == 404 and detail == "Not Found":
        return msg("there is nothing at the address {path!r}", path=_echo(path))
    if status == 405 and detail == "Method Not Allowed":
        if allowed:
            return msg(
                "the address {path!r} does not take {method} requests, only {allowed}",
                path=_echo(path),
                method=_echo(method),
                allowed=allowed,
            )
        return msg("the address {path!r} does not take {method} requests", path=_echo(path), method=_echo(method))
    return msg("{text}", text=detail)


def scope_language(scope: dict[str, Any]) -> str:
    """:func:`language` of a raw ASGI request (in a middleware)."""
    return language(HTTPConnection(scope))
