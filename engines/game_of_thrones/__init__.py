"""A Game of Thrones: The Board Game (2nd edition), 3 to 6 players (unregistered while built)."""
