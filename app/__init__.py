"""Parlour's web application: rooms, seats, play, websockets and pages."""
