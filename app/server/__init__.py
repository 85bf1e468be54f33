"""The server process itself, knowing no game and no table: its settings read from the
environment (config) and the project's paths, the one error type, background tasks and how they
stop, one load per key at a time (single_flight), the timing figures (metrics) and giving memory
back, the protections around every request (guard: headers, body size, the code brake, tokens kept
out of logs), the JSON logs, and text from a user checked the same way wherever it arrives. The
ground floor: it imports nothing else of ``app``."""
