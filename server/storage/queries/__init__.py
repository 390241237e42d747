"""Async storage functions, one module per concern: session first, keywords after.

Handlers never write SQL; they call these functions (reads) or hand rows to
:class:`server.storage.writer.Writer` (game writes, committed in groups).
"""
