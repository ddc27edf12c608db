"""Small CLI commands that need no package of their own."""
