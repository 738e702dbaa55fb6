"""Tournaments, players, attendance, per-tournament roles, seatings, penalties, play-offs, audit log."""
