"""Data rooms and who may use them: the room store, members and roles, sign-in, rate limits, analytics."""
