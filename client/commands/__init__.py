"""The client's subcommands of ``patience-club``: ``play`` and ``bot``."""
