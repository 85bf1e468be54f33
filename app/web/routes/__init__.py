"""The routes: pages, the JSON API, the sockets; each reads the request, asks a service of
``Parlour``, and shapes its answer."""

import sys

# Every route's types are asked by FastAPI whether they are pydantic v1 models, which imports
# pydantic.v1 to find out (0.9 MB, 23 modules, for the server's life). No part of the server
# has one: the import is refused, and FastAPI takes that as "no" (its own fallback).
sys.modules.setdefault("pydantic.v1", None)  # type: ignore[arg-type]
