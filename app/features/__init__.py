"""What the site adds around a table, each a service of its own held by ``Parlour``: private chats
between seats (diplomacy), hints from the good bot, play again (rematch), Web Push "your turn" and
the rules of where a push may go (push, push_client, push_policy), and after the end the published
record and the replays rebuilt from it (record, replays). Each tells sockets only through the hub's
publish point. It imports only the floors below it (``app.server`` to ``app.tables``)."""
