"""Benchmarks that print figures (DESIGN.md §6). Run each as `python -m bench.NAME`."""
