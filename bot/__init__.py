"""Kamen's Discord adapter: commands, components and replies over `matches` and `render`.

Thin by design: an interaction becomes a service call with plain values, and
the service's result becomes a message. Start it with `python -m bot`.
"""
