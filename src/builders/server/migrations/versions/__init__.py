"""The migrations, oldest first: 0001 is the schema of the first release (games and actions)."""
