"""Benchmarks: apb engine throughput and peer measurements."""
