"""London (Martin Wallace, second edition) for 2–4 players: a pure rules engine.

>>> ENGINE.id, ENGINE.min_seats, ENGINE.max_seats
('london', 2, 4)
"""

from engines.london.engine import LondonEngine

ENGINE = LondonEngine()

__all__ = ["ENGINE", "LondonEngine"]
