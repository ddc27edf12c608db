"""Benchmarks: each measures one bar of docs/performance.md and prints one JSON line."""
