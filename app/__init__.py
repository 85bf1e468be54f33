"""Parlour's server: tables, seats, play, websockets and pages.

It stands in floors, each a package that imports only the floors below it (tests/test_import_graph.py
checks every import, those inside functions and under TYPE_CHECKING too):

1. ``app.server``    the process itself, knowing no game: settings, paths, errors, background
                     tasks, timing figures, memory, request protections, logs, checked user text.
2. ``app.storage``   what is kept and how it is reached: the database's tables, sessions,
                     schema revisions, deletion with dependents, tokens, backup.
3. ``app.play``      a move's path and the one publish point: live tables, the mover, the
                     journal, the hub, what is sent on the wire, other processes told.
4. ``app.tables``    a table's life: founding, joining, leaving, starting; bots in seats; clocks.
5. ``app.features``  what the site adds around a table: private chats, hints, play again, Web
                     Push, the published record and replays.
6. ``app.parlour``   the composition: every part above wired once per process.
7. ``app.web``       HTTP and websockets: the routes, the websocket protocol, the host's figures.
8. ``app.main``, then ``app.cli``: the ASGI application, and the ``parlour`` command.
"""

from app.server import lean_imports

lean_imports.apply()
