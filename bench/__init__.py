"""Speed measurements. Speed is measured here, never asserted in tests.

``python -m bench.engine`` runs the rules-engine benchmark.
"""
