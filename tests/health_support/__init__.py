"""Helpers of the health tests that must run in a process of their own."""
