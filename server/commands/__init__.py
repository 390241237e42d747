"""Subcommands of the ``patience-club`` console script, one module each.

Each module defines ``add_parser(subparsers)`` and ``run(args) -> int``.
"""
