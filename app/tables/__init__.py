"""A table's life around its moves: founding it, answering an invitation, leaving and the start
(rooms); bots in seats, their worker processes and the pool they think in (bot_seats, bot_worker,
bot_pool); clocks, their pure arithmetic and the keeper that plays a time-out (clock_rules, clocks).
It plays moves through ``app.play`` and imports only the floors below it (``app.server``,
``app.storage``, ``app.play``)."""
