"""What is kept, and how it is reached: the database's tables (models), its engine and sessions
and migrations (db), the schema revisions this code knows and whether the database holds them
(readiness), deleting a row with every row that hangs on it (cascade), table codes and seat
tokens, and the online backup and restore. It imports only ``app.server``."""
