"""Text from a user, checked the same way wherever it arrives.

- NUL (U+0000) is refused in every field, with a clear 422: PostgreSQL's text cannot hold it
  (psycopg raises DataError, a 500), SQLite would keep it, and no honest client sends one.
  ``refuse_nul_in_request`` checks a request's path, query and body before any route sees them;
  the websocket checks each message (app/web/routes/sockets.py).
- A message or a name must show something: one made only of spaces and of zero-width, direction
  and other invisible characters is refused like an empty one (it would be stored as nothing).
- A number typed in a form is read from ASCII digits only: ``"²".isdigit()`` is true, and then
  ``int("²")`` fails.
"""

from __future__ import annotations

import unicodedata

import orjson
from fastapi import Request

from app.server.errors import ApiError

NUL = "\x00"
# Categories that never show: controls, formats (zero-width, joiners, direction marks and
# overrides, isolates, word joiner, invisible operators, byte order mark, soft hyphen, tags),
# and separators (spaces of every width, line and paragraph separators).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
# And the characters of other categories that show nothing either: the combining grapheme
# joiner, Khmer's inherent vowels, Mongolian's variation selectors, the Hangul fillers, the
# variation selectors, and the Braille blank (a favourite for "empty" messages).
INVISIBLE_OTHERS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\u115f\u1160\u3164\uffa0\u2800"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0)))


class TextRefused(ApiError):
    """A NUL character where text was expected."""

    def __init__(self) -> None:
        super().__init__(422, "invalid_text", "Text cannot hold a NUL character (U+0000).")


def has_nul(value: object) -> bool:
    """Whether a NUL is in this text, or in any key or text of this JSON value. Walked without
    recursion: a body may nest as deep as its parser allows."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def refuse_nul(value: object) -> None:
    if has_nul(value):
        raise TextRefused


def invisible(c: str) -> bool:
    return unicodedata.category(c) in INVISIBLE_CATEGORIES or c in INVISIBLE_OTHERS


def visible(text: str) -> bool:
    """Whether this text shows anything at all."""
    return not all(invisible(c) for c in text)


def ascii_int(raw: str) -> int | None:
    """A whole number written in ASCII digits, else None (no sign, no spaces, no other script)."""
    return int(raw) if raw.isascii() and raw.isdigit() else None


async def refuse_nul_in_request(request: Request) -> None:
    """Every route's dependency: a NUL in the path, the query, a form or a JSON body is refused
    before the route reads them (a 422; a page for the pages, see app/main.py)."""
    if has_nul(list(request.path_params.values())) or has_nul(request.query_params.multi_items()):
        raise TextRefused
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    kind = request.headers.get("content-type", "")
    if kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()  # read once: the route is handed the same form
        refuse_nul([(k, v) for k, v in form.multi_items() if isinstance(v, str)])
        return
    try:
        body = orjson.loads(await request.body())
    except orjson.JSONDecodeError:
        return  # not JSON: the route answers that itself
    refuse_nul(body)
