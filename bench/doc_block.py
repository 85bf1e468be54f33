"""A benchmark's table kept in docs/PERFORMANCE.md between its own two marker lines."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"


def write_block(name: str, text: str, heading: str) -> None:
    """Put ``text`` between ``<!-- name:begin -->`` and ``<!-- name:end -->``, replacing what was
    there; where the markers are missing, at the page's end under ``heading``."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    body = DOC.read_text(encoding="utf-8")
    block = f"{begin}\n{text}\n{end}"
    if begin in body and end in body:
        head, rest = body.split(begin, 1)
        body = head + block + rest.split(end, 1)[1]
    else:
        body = body.rstrip("\n") + f"\n\n## {heading}\n\n" + block + "\n"
    DOC.write_text(body, encoding="utf-8")
