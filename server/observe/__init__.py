"""Watching a running server: Prometheus metrics, the event-loop stall tracer, runtime tuning."""
