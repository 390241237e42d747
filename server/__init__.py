"""The asyncio shell around the engine: connections, rooms, daily deals, storage."""
