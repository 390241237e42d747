"""Thin clients: they render the views the server sends and send move intents."""
