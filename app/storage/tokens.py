"""Table codes (short, read aloud) and seat tokens (long, secret, stored only as a hash)."""

from __future__ import annotations

import hashlib
import secrets

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""No 0/O, 1/I/L: a code read aloud or off a phone screen cannot be misread."""
CODE_LENGTH = 6
TOKEN_BYTES = 24  # 192 random bits


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(raw: str) -> str | None:
    """The canonical code for what a person typed, or None if it cannot be a code.

    Case and spaces don't matter, and the look-alikes are read as what they must mean.

    >>> normalize_code(" abc 2de")
    'ABC2DE'
    >>> normalize_code("abcdeo") is None
    True
    """
    code = "".join(raw.split()).upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seed() -> tuple[str, int, str]:
    """A secret game seed: its hex form (revealed at the end), its integer, and its SHA-256."""
    hex_seed = secrets.token_hex(16)
    return hex_seed, int(hex_seed, 16), seed_hash(hex_seed)


def seed_hash(hex_seed: str) -> str:
    return hashlib.sha256(hex_seed.encode()).hexdigest()
