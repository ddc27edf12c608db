"""Benchmarks: each measures one quality bar of PRODUCT.md section 5 and prints one JSON line."""
