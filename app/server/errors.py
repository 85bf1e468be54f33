"""The one error type routes raise: an HTTP status, a short machine word and a sentence."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, error: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.extra = extra

    def as_json(self) -> dict[str, Any]:
        return {"error": self.error, "message": self.message, **self.extra}


def not_found(what: str = "table") -> ApiError:
    if what == "seat":
        return ApiError(404, "unknown_seat", "No seat has this address. Check the link you were given.")
    return ApiError(404, "unknown_table", "No table has this code. Check the code and try again.")
