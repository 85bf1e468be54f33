"""A Game of Thrones: The Board Game (2nd edition), 3 to 6 players: orders in secret, marches in
turn order, combat with house cards; seven castles and strongholds win.

The modules stand in layers, each importing only layers below it (no import circle):

1. the data: ``components`` (the board, houses, cards and numbers of ``data/``), ``state``;
2. the rules and the words: ``rules`` (one function per rule), ``shared`` (the rules named in
   refusals, the words of log lines);
3. the move table: ``table`` (the move schema, ``make``, the types of the decision tables);
4. the effects the phases share: ``units`` (units entering, leaving, destroyed; captured ports),
   ``house_cards`` (what the texts add to a combat, the choices they offer), ``bidding``;
5. the phases, each above the parts it calls: ``planning``; ``combat_end``, ``retreats``,
   ``combat``, ``abilities``, then ``marches`` (a march starts a combat) and ``consolidate``;
   ``wildlings``, then ``westeros`` (whose steps include the wildlings');
6. the turn: ``refusals`` (each decision kind's rule, the most specific rule a move breaks), then
   ``turn`` (the kit's ``Turn``: one step per decision kind, the houses it awaits, its prompt, the
   labels of the moves, the refusals of the frame);
7. ``kinds``: every decision kind gathered (its moves, its effect, its automatic end), the legal
   moves (of the seats the turn awaits);
8. reading the state: ``status``, ``views``;
9. ``engine``: the kit's protocol, setup and the round's flow, composing all of the above.

A phase function receives the state (and the seat, move, decision and log it needs), never the
engine. Where a lower module goes on in a higher one, the higher one registers itself: the
wildling attack's sequel to a bidding (``bidding.AFTER_BIDS``, ``bidding.AFTER_RANKING``).

>>> ENGINE.id, ENGINE.min_seats, ENGINE.max_seats
('game_of_thrones', 3, 6)
"""

from engines.game_of_thrones.engine import ENGINE, GameOfThrones

__all__ = ["ENGINE", "GameOfThrones"]
