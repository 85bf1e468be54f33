"""The schema revisions this code knows: read from the migration files' own declarations
(``revision = ...``, ``down_revision = ...``) without loading Alembic, which would add about
12 MB and a second to every server process for what /readyz needs (tests/app/test_ready.py
checks the reading against Alembic's)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.server.paths import ROOT

VERSIONS = ROOT / "migrations" / "versions"


@dataclass(frozen=True)
class Revisions:
    head: str
    known: frozenset[str]


def _declared(path: Path) -> dict[str, str | None]:
    """The module-level ``revision`` and ``down_revision`` of one migration file."""
    found: dict[str, str | None] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision") and value is not None:
            found[target.id] = ast.literal_eval(value)
    return found


@cache
def revisions(folder: Path = VERSIONS) -> Revisions:
    """Every revision in ``folder`` and the one no other revises (the head). Parlour's history is
    one line: a second head is an error here, as it would be for ``alembic upgrade head``."""
    parents: dict[str, str | None] = {}
    for path in sorted(folder.glob("*.py")):
        declared = _declared(path)
        if isinstance(declared.get("revision"), str):
            parents[str(declared["revision"])] = declared.get("down_revision")
    heads = set(parents) - {p for p in parents.values() if p is not None}
    if len(heads) != 1:
        raise RuntimeError(f"the migrations in {folder} have {len(heads)} heads: {sorted(heads)}")
    return Revisions(head=heads.pop(), known=frozenset(parents))
