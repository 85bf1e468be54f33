"""The pages' scripts served without their comment lines.

The scripts under static/ are written to be read: a sixth of what a page downloads, compressed,
was comment lines (every script gzipped: 132.5 KB with them, 110.5 KB without). A browser needs
none of them, so the static mount serves each script with its whole-line comments taken out — a
line that holds only a ``//`` comment, and a ``/* … */`` block that starts a line and ends one —
and nothing else changed: no other line is touched, so a script's line numbers move but its code
is the same text. The source stays as it is on disk; each script is stripped once per process, when first
asked for, on the static files' worker thread (every script of the site: 88 ms in all).

Deciding what is a comment needs where the strings, template literals (which span lines and
may hold ``//``), regular expressions and block comments are: ``comment_lines`` is a small
scanner of JavaScript's lexical grammar. Where it ends in doubt (a string, template or comment
still open at the end of the file) the script is served as it is.
"""

from __future__ import annotations

import os
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

# After one of these (or at the start), a "/" begins a regular expression; elsewhere it divides.
REGEX_AFTER_PUNCTUATION = frozenset("(,=:[!&|?{};+-*%<>~^")
REGEX_AFTER_WORDS = frozenset({"return", "typeof", "case", "do", "else", "in", "of", "new", "delete",
                               "void", "throw", "instanceof", "yield", "await"})


class Unsure(Exception):
    """The scanner lost its place: the script is served unstripped."""


_MARKS = frozenset("/'\"`")


def _last_token(text: str) -> str:
    """What a line without strings, templates or slashes leaves as ``before``."""
    text = text.rstrip()
    if not text:
        return ""
    if not (text[-1].isalnum() or text[-1] in "_$"):
        return text[-1]
    j = len(text)
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_$"):
        j -= 1
    word = text[j:]
    return word if word in REGEX_AFTER_WORDS else ")"


def comment_lines(source: str) -> set[int]:
    """The indexes of the lines (split on "\\n") that hold nothing but comment."""
    lines = source.split("\n")
    dropped: set[int] = set()
    # What is open at a line's start: the stack's top is "`" inside a template literal, "${"
    # inside a template's expression (with its depth of braces beside it).
    stack: list[list[Any]] = []
    in_block = False
    block_start = -1  # the line a whole-line block comment began on
    before = ""  # the last significant character or word, for "/": regex or division
    for number, line in enumerate(lines):
        i = 0
        n = len(line)
        in_template = bool(stack) and stack[-1][0] == "`"
        if not in_block and not in_template:
            text = line.lstrip()
            if text.startswith("//"):
                dropped.add(number)
                continue
            block_start = number if text.startswith("/*") else -1
            if not stack and not _MARKS.intersection(line):  # most lines: nothing to follow inside
                before = _last_token(text) or before
                continue
        while i < n:
            c = line[i]
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = n
                    continue
                in_block = False
                i = end + 2
                if block_start >= 0 and not line[i:].strip():  # a block that fills its lines
                    dropped.update(range(block_start, number + 1))
                block_start = -1  # (code after it on its last line: its lines are kept)
                continue
            if stack and stack[-1][0] == "`":
                if c == "\\":
                    i += 2
                elif c == "`":
                    stack.pop()
                    before = ")"  # a template ends an operand: "/" after it divides
                    i += 1
                elif line.startswith("${", i):
                    stack.append(["${", 0])
                    before = "{"
                    i += 2
                else:
                    i += 1
                continue
            if c in " \t\r":
                i += 1
            elif line.startswith("//", i):
                i = n
            elif line.startswith("/*", i):
                in_block = True
                i += 2
            elif c in "'\"":
                i = _string_end(line, i, c)
                before = ")"
            elif c == "`":
                stack.append(["`"])
                i += 1
            elif c == "/":
                if before == "" or before in REGEX_AFTER_PUNCTUATION or before in REGEX_AFTER_WORDS:
                    i = _regex_end(line, i)
                    before = ")"
                else:
                    before = "/"
                    i += 1
            elif c == "{":
                if stack:
                    stack[-1][1] += 1
                before = "{"
                i += 1
            elif c == "}":
                if stack and stack[-1][0] == "${":
                    if stack[-1][1] == 0:
                        stack.pop()  # back in the template's text
                        i += 1
                        continue
                    stack[-1][1] -= 1
                before = "}"
                i += 1
            elif c.isalnum() or c in "_$":
                j = i + 1
                while j < n and (line[j].isalnum() or line[j] in "_$"):
                    j += 1
                word = line[i:j]
                before = word if word in REGEX_AFTER_WORDS else ")"
                i = j
            else:
                before = c
                i += 1
    if in_block or stack:
        raise Unsure("a comment or template literal is still open at the end")
    return dropped


def _string_end(line: str, start: int, quote: str) -> int:
    i = start + 1
    while i < len(line):
        if line[i] == "\\":
            i += 2
        elif line[i] == quote:
            return i + 1
        else:
            i += 1
    raise Unsure("a string runs past its line")


def _regex_end(line: str, start: int) -> int:
    i = start + 1
    in_class = False
    while i < len(line):
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < len(line) and line[i].isalpha():  # flags
                i += 1
            return i
        i += 1
    raise Unsure("a regular expression runs past its line")


def strip_comment_lines(source: str) -> str:
    """The script without its whole-line comments; the script itself where the scanner is unsure."""
    try:
        dropped = comment_lines(source)
    except Unsure:
        return source
    return "\n".join(line for number, line in enumerate(source.split("\n")) if number not in dropped)


class LeanScripts(StaticFiles):
    """Static files, with every ``.js`` served stripped of its comment lines (kept per process,
    by file, modification time and size, so an edited script is stripped again)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # by path: (mtime_ns, size, stripped bytes); one dict assignment per script, so the worker
        # threads need no lock (two stripping one script at once store the same bytes)
        self._stripped: dict[str, tuple[int, int, bytes]] = {}

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        # Runs on a worker thread (StaticFiles.get_response): the stripping happens here.
        full_path, stat_result = super().lookup_path(path)
        if stat_result is not None and full_path.endswith(".js"):
            self._strip(full_path, stat_result)
        return full_path, stat_result

    def _strip(self, full_path: str, stat_result: os.stat_result) -> None:
        kept = self._stripped.get(full_path)
        if kept is not None and kept[:2] == (stat_result.st_mtime_ns, stat_result.st_size):
            return
        with open(full_path, "rb") as fh:
            raw = fh.read()
        try:
            body = strip_comment_lines(raw.decode()).encode()
        except UnicodeDecodeError:
            body = raw
        self._stripped[full_path] = (stat_result.st_mtime_ns, stat_result.st_size, body)

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        kept = self._stripped.get(str(full_path))
        if kept is None or kept[:2] != (stat_result.st_mtime_ns, stat_result.st_size):
            return super().file_response(full_path, stat_result, scope, status_code)
        # The same validators as the file itself would have (an ETag and Last-Modified from its
        # stat), so a browser's conditional request is answered 304 as before.
        headers = FileResponse(full_path, stat_result=stat_result).headers
        validators = {name: headers[name] for name in ("etag", "last-modified") if name in headers}
        if self.is_not_modified(Headers(validators), Headers(scope=scope)):
            return NotModifiedResponse(Headers(validators))
        return Response(kept[2], status_code=status_code, media_type="text/javascript", headers=validators)

