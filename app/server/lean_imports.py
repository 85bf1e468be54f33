"""What a server process never loads, and what of its libraries is built only when first used
(docs/PERFORMANCE.md, "Round three, 2026-12-02: memory"). Applied once, by ``app/__init__.py``,
before anything of the server imports FastAPI or uvicorn."""

from __future__ import annotations

import sys

NEVER_LOADED = ("watchfiles",)
"""uvicorn imports its file-watching reloader (watchfiles, with its Rust extension: 0.6 MB) when
it is installed, to offer ``--reload``; ``parlour serve`` never reloads. Refused, uvicorn takes
its own fallback (a reloader that polls file times), so ``uvicorn --reload`` still works."""


def apply() -> None:
    for name in NEVER_LOADED:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    if "fastapi" not in sys.modules:
        _import_fastapi_deferred()


def _import_fastapi_deferred() -> None:
    """FastAPI defines some fifty Pydantic models at import (the OpenAPI document's, the security
    schemes'), and Pydantic builds each one's validator and serializer there and then: 1.3 MB
    for models a process uses only if /openapi.json is asked for. Imported while every new model
    defers that build to its first use (Pydantic's ``defer_build``, inherited from ``BaseModel``'s
    config); the server's own models, defined afterwards, are built as usual."""
    import pydantic

    base = pydantic.BaseModel
    saved = base.model_config
    base.model_config = pydantic.ConfigDict(**saved, defer_build=True)
    try:
        import fastapi
        import fastapi.openapi.models
        import fastapi.security  # noqa: F401
    finally:
        base.model_config = saved
