"""The network edge: one client connection, routing of its messages, HTTP paths, rate limits."""
