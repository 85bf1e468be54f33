"""A Game of Thrones: The Board Game (2nd edition), 3 to 6 players: orders in secret, marches in
turn order, combat with house cards; seven castles and strongholds win.

Not in the registry yet: the lead registers it.

>>> ENGINE.id, ENGINE.min_seats, ENGINE.max_seats
('game_of_thrones', 3, 6)
"""

from engines.game_of_thrones.engine import ENGINE, GameOfThrones

__all__ = ["ENGINE", "GameOfThrones"]
