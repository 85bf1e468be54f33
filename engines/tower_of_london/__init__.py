"""Tower of London (WizKids, 2017): fight for control of the Tower with Beefeaters; the first
player to seven ravens wins, and if nobody gets there in three rounds, everyone loses.

>>> ENGINE.id, ENGINE.min_seats, ENGINE.max_seats
('tower_of_london', 2, 5)
"""

from engines.tower_of_london.engine import ENGINE, TowerOfLondon

__all__ = ["ENGINE", "TowerOfLondon"]
