"""A move's path, and the one publish point: the live tables held in memory and rebuilt from the
database (live), taking moves back (takeback), the mover that checks, stores and publishes a move,
the journal that appends moves with group commit, the hub that tells every socket here and, over
the notifier, every other server process (hub, notify), what a table looks like on the wire (wire),
and the table chat, which the hub sends the same way. It imports only ``app.server`` and
``app.storage``."""
