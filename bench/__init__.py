"""Benchmark scripts: run by hand; their quick modes run in the test suite."""
