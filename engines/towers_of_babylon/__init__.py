"""Towers of Babylon: a card game for two. Build your tower to fifty levels with your Builders,
tear the other one down with your Raiders, and hold the Ramparts with your Defenders.

>>> ENGINE.id, ENGINE.min_seats, ENGINE.max_seats
('towers_of_babylon', 2, 2)
"""

from engines.towers_of_babylon.engine import ENGINE, TowersOfBabylon

__all__ = ["ENGINE", "TowersOfBabylon"]
