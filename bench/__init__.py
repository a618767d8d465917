"""Benchmark suites of flip7-spec (``python -m pytest bench/ --benchmark-only``); see docs/performance.md."""
