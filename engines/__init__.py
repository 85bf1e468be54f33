"""Rules engines: pure libraries, one sub-package per game, no web and no database."""
